#include "exactdp/accounting/parametric_check.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"

namespace exactdp {

namespace {

/// The numeric engine on the spec instantiated at the rational r, for the claim (λ(r), δ(r)); the
/// instantiated game is kept with the result, so that a witness is printed against the game it was
/// found in.
ParametricSamplePoint run_numeric(const std::function<Game(const Rational&)>& instantiate, const parametric::RationalFunction& lambda,
                                  const parametric::RationalFunction& delta, const Rational& r, unsigned horizon, const ClaimCheckOptions& options) {
  ParametricSamplePoint s{r, lambda.evaluate(r), {}, {}};
  GameClaim claim;
  claim.lambda = s.lambda;
  claim.delta = delta.evaluate(r);
  ClaimCheckOptions o = options;
  o.engine.horizon = horizon;
  s.game = instantiate(r);
  s.numeric = check_claim(s.game, claim, o);
  return s;
}

/// The numeric engine's δ⁰, δ¹ at the rational sample of every piece, compared exactly with the
/// piece's functions (an error on any difference: one of the two engines would be wrong).
std::vector<ParametricDeltaSample> cross_check_delta(const parametric::ParametricGame& game,
                                                     const std::function<Game(const Rational&)>& instantiate,
                                                     const parametric::PiecewiseDelta& worst) {
  std::vector<ParametricDeltaSample> out;
  const auto& pieces = worst.partition.pieces;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (!pieces[k].sample) continue;  // an irrational point: no rational sample
    const Rational& r = *pieces[k].sample;
    ParametricDeltaSample s{k, r, worst.lambda.evaluate(r), 0, 0};
    EngineOptions o;
    o.horizon = worst.horizon;
    const HockeyStickResult numeric = worst_case_hockey_stick(instantiate(r), s.lambda, o);
    s.forward = numeric.forward;
    s.backward = numeric.backward;
    for (int b = 0; b < 2; ++b) {
      const Rational expected = worst.directional[k][b].evaluate(r);
      const Rational& got = b == 0 ? s.forward : s.backward;
      if (got != expected)
        throw Error(game.name + ": " + game.parameter + " = " + to_string(r), "", "",
                    "internal: the numeric engine's δ" + std::string(b == 0 ? "⁰" : "¹") + " = " + to_string(got) +
                        " differs from the parametric piece's " + worst.directional[k][b].to_string(game.parameter) + " = " +
                        to_string(expected));
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

ParametricClaimVerdict check_pure_dp_for_all(const parametric::ParametricGame& game,
                                             const std::function<Game(const Rational&)>& instantiate,
                                             const parametric::RationalFunction& lambda, const ParametricCheckOptions& options) {
  if (options.numeric.adversary != AdversaryClass::adaptive)
    throw Error("--adversary", to_string(options.numeric.adversary), "",
                "a claim for every value of a parameter is decided against adaptive adversaries only (this version)");
  const unsigned horizon = options.horizon ? options.horizon : game.horizon;
  ParametricClaimVerdict out;
  out.decision = parametric::check_pure_dp_for_all(game, lambda, horizon, options.search);
  out.verdict = out.decision.holds_for_all() ? Verdict::holds : Verdict::refuted;
  const std::string where = game.name + ": " + game.parameter + " = ";
  for (const auto& f : out.decision.failing) {
    if (f.samples.empty()) continue;
    auto s = run_numeric(instantiate, lambda, parametric::RationalFunction(), f.samples.front(), horizon, options.numeric);
    if (s.numeric.verdict != Verdict::refuted)
      throw Error(where + to_string(s.value), "", "",
                  "internal: the parametric decision says the claim fails here but the numeric engine does not refute it");
    out.witnesses.push_back(std::move(s));
  }
  if (options.cross_check) {
    const auto& pieces = out.decision.partition.pieces;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      if (!out.decision.holds[k] || pieces[k].is_point() || !pieces[k].sample) continue;
      auto s = run_numeric(instantiate, lambda, parametric::RationalFunction(), *pieces[k].sample, horizon, options.numeric);
      if (s.numeric.verdict != Verdict::holds)
        throw Error(where + to_string(s.value), "", "",
                    "internal: the parametric decision says the claim holds here but the numeric engine does not confirm it");
      out.cross_checks.push_back(std::move(s));
    }
  }
  return out;
}

ParametricClaimVerdict check_approximate_dp_for_all(const parametric::ParametricGame& game,
                                                    const std::function<Game(const Rational&)>& instantiate,
                                                    const parametric::RationalFunction& lambda, const parametric::RationalFunction& delta,
                                                    const ParametricCheckOptions& options) {
  if (delta.is_zero()) return check_pure_dp_for_all(game, instantiate, lambda, options);
  if (options.numeric.adversary != AdversaryClass::adaptive)
    throw Error("--adversary", to_string(options.numeric.adversary), "",
                "a claim for every value of a parameter is decided against adaptive adversaries only (this version)");
  const unsigned horizon = options.horizon ? options.horizon : game.horizon;
  ParametricClaimVerdict out;
  out.delta_claim = delta;
  parametric::PiecewiseDelta worst;
  out.decision = parametric::check_approximate_dp_for_all(game, lambda, delta, horizon, options.search, &worst);
  out.verdict = out.decision.holds_for_all() ? Verdict::holds : Verdict::refuted;
  const std::string where = game.name + ": " + game.parameter + " = ";
  for (const auto& f : out.decision.failing) {
    if (f.samples.empty()) continue;
    auto s = run_numeric(instantiate, lambda, delta, f.samples.front(), horizon, options.numeric);
    if (s.numeric.verdict != Verdict::refuted)
      throw Error(where + to_string(s.value), "", "",
                  "internal: the parametric decision says the claim fails here but the numeric engine does not refute it");
    out.witnesses.push_back(std::move(s));
  }
  if (options.cross_check) out.delta_checks = cross_check_delta(game, instantiate, worst);
  out.worst_delta = std::move(worst);
  return out;
}

ParametricDeltaProfile worst_case_delta_for_all(const parametric::ParametricGame& game,
                                                const std::function<Game(const Rational&)>& instantiate,
                                                const parametric::RationalFunction& lambda, unsigned horizon, bool cross_check,
                                                const parametric::ParametricOptions& search) {
  ParametricDeltaProfile out;
  out.worst = parametric::worst_case_delta_for_all(game, lambda, horizon ? horizon : game.horizon, search);
  if (cross_check) out.checks = cross_check_delta(game, instantiate, out.worst);
  return out;
}

ParametricRenyiProfile worst_case_renyi_moment_for_all(const parametric::ParametricGame& game,
                                                       const std::function<Game(const Rational&)>& instantiate, unsigned long alpha,
                                                       unsigned horizon, bool cross_check, const parametric::ParametricOptions& search) {
  ParametricRenyiProfile out;
  out.worst = parametric::worst_case_renyi_moment_for_all(game, alpha, horizon ? horizon : game.horizon, search);
  const auto& pieces = out.worst.partition.pieces;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (!pieces[k].sample) continue;  // an irrational point: no rational sample
    const Rational& r = *pieces[k].sample;
    ParametricRenyiSample s{k, r, out.worst.directional[k][0].evaluate(r), out.worst.directional[k][1].evaluate(r), {}, false};
    const ExtendedRational moment = std::max(s.forward, s.backward);
    // D_α = ln Φ_α / (α − 1) (THEOREMS.md B.4), a certified enclosure
    s.divergence = moment.is_infinite()
                       ? Interval::infinity(default_precision)
                       : log(Interval(moment.value(), default_precision)) / Interval(Rational(static_cast<long>(alpha) - 1), default_precision);
    if (cross_check) {
      EngineOptions o;
      o.horizon = out.worst.horizon;
      const DirectionalResult numeric = worst_case_renyi_moment(instantiate(r), alpha, o);
      for (int b = 0; b < 2; ++b) {
        const ExtendedRational& expected = b == 0 ? s.forward : s.backward;
        const ExtendedRational& got = b == 0 ? numeric.forward : numeric.backward;
        if (got != expected)
          throw Error(game.name + ": " + game.parameter + " = " + to_string(r), "", "",
                      "internal: the numeric engine's Rényi moment " + to_string(got) + " (direction " + std::to_string(b) +
                          ") differs from the parametric piece's " + out.worst.directional[k][b].to_string(game.parameter) + " = " +
                          to_string(expected));
      }
      s.numeric_checked = true;
    }
    out.samples.push_back(std::move(s));
  }
  return out;
}

}  // namespace exactdp
