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

namespace {

/// D_α = ln Φ/(α − 1) (THEOREMS.md B.4) as a certified enclosure; the point +∞ for Φ = +∞.
Interval renyi_divergence(const ExtendedRational& moment, unsigned long alpha) {
  if (moment.is_infinite()) return Interval::infinity(default_precision);
  return log(Interval(moment.value(), default_precision)) / Interval(Rational(static_cast<long>(alpha) - 1), default_precision);
}

/// The numeric engine's sup Φ_α in both directions at @p r.
DirectionalResult numeric_renyi(const std::function<Game(const Rational&)>& instantiate, unsigned long alpha, unsigned horizon,
                                const Rational& r) {
  EngineOptions o;
  o.horizon = horizon;
  return worst_case_renyi_moment(instantiate(r), alpha, o);
}

/// The pieces' moments and D_α at every rational sample of @p worst; with @p cross_check, the
/// numeric engine's moments there, equal to the piece's exactly (an exactdp::Error otherwise).
std::vector<ParametricRenyiSample> renyi_samples(const parametric::ParametricGame& game, const std::function<Game(const Rational&)>& instantiate,
                                                 const parametric::PiecewiseRenyiMoment& worst, bool cross_check) {
  std::vector<ParametricRenyiSample> out;
  const auto& pieces = worst.partition.pieces;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (!pieces[k].sample) continue;  // an irrational point: no rational sample
    const Rational& r = *pieces[k].sample;
    ParametricRenyiSample s{k, r, worst.directional[k][0].evaluate(r), worst.directional[k][1].evaluate(r), {}, false};
    s.divergence = renyi_divergence(std::max(s.forward, s.backward), worst.alpha);
    if (cross_check) {
      const DirectionalResult numeric = numeric_renyi(instantiate, worst.alpha, worst.horizon, r);
      for (int b = 0; b < 2; ++b) {
        const ExtendedRational& expected = b == 0 ? s.forward : s.backward;
        const ExtendedRational& got = b == 0 ? numeric.forward : numeric.backward;
        if (got != expected)
          throw Error(game.name + ": " + game.parameter + " = " + to_string(r), "", "",
                      "internal: the numeric engine's Rényi moment " + to_string(got) + " (direction " + std::to_string(b) +
                          ") differs from the parametric piece's " + worst.directional[k][b].to_string(game.parameter) + " = " +
                          to_string(expected));
      }
      s.numeric_checked = true;
    }
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

ParametricRenyiProfile worst_case_renyi_moment_for_all(const parametric::ParametricGame& game,
                                                       const std::function<Game(const Rational&)>& instantiate, unsigned long alpha,
                                                       unsigned horizon, bool cross_check, const parametric::ParametricOptions& search) {
  ParametricRenyiProfile out;
  out.worst = parametric::worst_case_renyi_moment_for_all(game, alpha, horizon ? horizon : game.horizon, search);
  out.samples = renyi_samples(game, instantiate, out.worst, cross_check);
  return out;
}

ParametricRenyiClaimVerdict check_renyi_moment_for_all(const parametric::ParametricGame& game,
                                                       const std::function<Game(const Rational&)>& instantiate, unsigned long alpha,
                                                       const parametric::RationalFunction& bound, const ParametricCheckOptions& options) {
  if (options.numeric.adversary != AdversaryClass::adaptive)
    throw Error("--adversary", to_string(options.numeric.adversary), "",
                "a claim for every value of a parameter is decided against adaptive adversaries only (this version)");
  const unsigned horizon = options.horizon ? options.horizon : game.horizon;
  ParametricRenyiClaimVerdict out;
  out.alpha = alpha;
  out.bound = bound;
  out.decision = parametric::check_renyi_moment_for_all(game, alpha, bound, horizon, options.search, &out.worst.worst);
  out.verdict = out.decision.holds_for_all() ? Verdict::holds : Verdict::refuted;
  out.worst.samples = renyi_samples(game, instantiate, out.worst.worst, options.cross_check);
  for (const auto& f : out.decision.failing) {
    if (f.samples.empty()) continue;
    const Rational& r = f.samples.front();
    const DirectionalResult numeric = numeric_renyi(instantiate, alpha, horizon, r);
    ParametricRenyiWitness w{r, bound.evaluate(r), numeric.forward, numeric.backward, renyi_divergence(numeric.max(), alpha), {}};
    if (!(ExtendedRational(w.bound) < numeric.max()))
      throw Error(game.name + ": " + game.parameter + " = " + to_string(r), "", "",
                  "internal: the parametric decision says the Rényi claim fails here but the numeric engine's moment " +
                      to_string(numeric.max()) + " is at most the bound " + to_string(w.bound));
    w.claimed = renyi_divergence(ExtendedRational(w.bound), alpha);
    out.witnesses.push_back(std::move(w));
  }
  return out;
}

}  // namespace exactdp
