#include "exactdp/accounting/claim_check.hpp"

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/numeric/decide.hpp"

namespace exactdp {

GameClaim read_game_claim(const GameClaimText& t, const std::string& prefix) {
  GameClaim c;
  const bool renyi = !t.renyi_alpha.empty() || !t.renyi_epsilon.empty();
  const bool dp = !t.lambda.empty() || !t.epsilon.empty();
  if (renyi && dp)
    throw Error(prefix + "renyi-alpha", "", t.renyi_alpha, "give either an (epsilon, delta) claim or a Renyi claim, not both");
  if (!renyi && !dp)
    throw Error("check", prefix + "lambda/" + prefix + "epsilon", "",
                "give the claim: " + prefix + "lambda L or " + prefix + "epsilon E (with " + prefix + "delta D), or " + prefix +
                    "renyi-alpha/" + prefix + "renyi-epsilon");
  if (renyi) {
    if (t.renyi_alpha.empty() || t.renyi_epsilon.empty())
      throw Error(prefix + "renyi-alpha", "", t.renyi_alpha, "a Renyi claim needs both the order and the epsilon");
    c.kind = GameClaim::Kind::renyi;
    const Rational a = parse_rational(t.renyi_alpha, prefix + "renyi-alpha");
    if (a.get_den() != 1 || a < 2 || a > 1000)
      throw Error(prefix + "renyi-alpha", "", t.renyi_alpha, "an integer order 2 <= alpha <= 1000");
    c.renyi_alpha = a.get_num().get_ui();
    c.renyi_epsilon = parse_rational(t.renyi_epsilon, prefix + "renyi-epsilon");
    if (sgn(c.renyi_epsilon) < 0) throw Error(prefix + "renyi-epsilon", "", t.renyi_epsilon, "must be non-negative");
    return c;
  }
  if (!t.lambda.empty() && !t.epsilon.empty())
    throw Error(prefix + "lambda", "", t.lambda, "give the claim's lambda or its epsilon, not both");
  c.delta = read_delta(t.delta, prefix + "delta");
  if (!t.lambda.empty()) c.lambda = read_lambda(t.lambda, prefix + "lambda");
  else c.epsilon = read_epsilon(t.epsilon, prefix + "epsilon");
  return c;
}

namespace {

/// What one check at a rational λ keeps: the exact δ in both directions, the witness, the stats.
struct AtLambda {
  Rational forward, backward;
  std::optional<Witness> witness;
  EngineStats stats;
  unsigned horizon = 0;
};

ClaimVerdict renyi_verdict(const Game& game, const GameClaim& claim, const ClaimCheckOptions& options) {
  if (options.adversary == AdversaryClass::oblivious)
    throw Error("check", "--adversary", "oblivious", "oblivious adversaries are checked for (epsilon, delta) claims only");
  const DirectionalResult m = worst_case_renyi_moment(game, claim.renyi_alpha, options.engine);
  ClaimVerdict v;
  v.horizon = options.engine.horizon.value_or(game.horizon);
  v.moment_forward = m.forward;
  v.moment_backward = m.backward;
  v.stats = m.stats;
  v.decided = "exact";
  if (!m.max().is_finite()) {  // an infinite moment: no finite RDP level
    v.verdict = Verdict::refuted;
    return v;
  }
  // the claim: Φ_α ≤ e^{(α−1)ε} in both directions, i.e. ln Φ_α ≤ (α−1)ε (decided with certified logs)
  const Rational bound = Rational(static_cast<long>(claim.renyi_alpha) - 1) * claim.renyi_epsilon;
  DecideOptions limits;
  limits.cap = std::max(options.max_precision, limits.start);
  const Decision d = decide_log_less_equal(m.max().value(), bound, limits);
  v.decided = to_string(d);
  v.precision = d.precision;
  if (d.outcome == Tri::undecided) {
    v.verdict = Verdict::undecided;
    v.enclosure = log(Interval(m.max().value(), d.precision));
    v.to_decide = "compare ln(moment) with (alpha - 1)*epsilon above " + std::to_string(d.precision) +
                  " bits (raise the precision cap)";
    return v;
  }
  v.verdict = d.outcome == Tri::yes ? Verdict::holds : Verdict::refuted;
  return v;
}

}  // namespace

ClaimVerdict check_claim(const Game& original, const GameClaim& claim, const ClaimCheckOptions& options) {
  const Game game = options.adversary == AdversaryClass::sequential ? sequential_adversaries(original) : original;
  if (claim.kind == GameClaim::Kind::renyi) return renyi_verdict(game, claim, options);

  // one check at a rational λ; the oblivious profile is computed once and evaluated at every λ
  std::optional<ProfileResult> oblivious;
  if (options.adversary == AdversaryClass::oblivious) oblivious = worst_case_profile_oblivious(game, options.engine);
  const std::function<std::pair<bool, AtLambda>(const Rational&)> check_at = [&](const Rational& lambda) {
    AtLambda at;
    if (oblivious) {
      at.forward = oblivious->profile.forward()(lambda);
      at.backward = oblivious->profile.backward()(lambda);
      at.stats = oblivious->stats;
      at.horizon = options.engine.horizon.value_or(game.horizon);
      return std::pair{std::max(at.forward, at.backward) <= claim.delta, std::move(at)};
    }
    ClaimCheck c = check_approximate_dp(game, lambda, claim.delta, options.engine);
    at.forward = c.delta_forward, at.backward = c.delta_backward, at.witness = std::move(c.witness), at.stats = c.stats;
    at.horizon = c.horizon;
    return std::pair{c.holds, std::move(at)};
  };

  ClaimVerdict v;
  v.horizon = options.engine.horizon.value_or(game.horizon);
  auto keep = [&](AtLambda at) {
    v.delta_forward = std::move(at.forward);
    v.delta_backward = std::move(at.backward);
    v.witness = std::move(at.witness);
    v.stats = at.stats;
    v.horizon = at.horizon;
  };
  if (claim.lambda) {
    auto [holds, at] = check_at(*claim.lambda);
    v.verdict = holds ? Verdict::holds : Verdict::refuted;
    v.lambda_used = *claim.lambda;
    v.lambda_side = "exact";
    keep(std::move(at));
  } else {
    auto d = decide_at_real_epsilon<AtLambda>(*claim.epsilon, options.max_precision, check_at);
    v.verdict = d.verdict;
    v.lambda_used = d.lambda_used;
    v.lambda_side = d.below ? "below" : "above";
    v.precision = d.precision;
    if (d.result) keep(std::move(*d.result));
    if (d.verdict == Verdict::undecided) {
      v.enclosure = d.enclosure;
      v.witness.reset();  // at λ ≤ e^ε a violation does not refute the claim at e^ε
      v.to_decide = "the claim fails at lambda = e^epsilon rounded down and holds at it rounded up at " +
                    std::to_string(d.precision) + " bits; a higher precision (--max-precision) would decide it";
    }
  }
  return v;
}

std::string witness_heading(const ClaimVerdict& v, const Rational& claimed_delta) {
  const Witness& w = *v.witness;
  const Rational reached = w.delta();
  if (reached == v.delta() && w.rounds == v.horizon) return "Witness (the worst adversary)";
  return "Witness (the shortest refutation: an adversary of " + std::to_string(w.rounds) + " round" + (w.rounds == 1 ? "" : "s") +
         " that already reaches δ = " + to_string(reached) + " > " + to_string(claimed_delta) +
         (reached == v.delta() ? "" : "; the worst adversary over " + std::to_string(v.horizon) + " rounds reaches δ = " + to_string(v.delta())) +
         ")";
}

}  // namespace exactdp
