#include "exactdp/accounting/parametric_check.hpp"

#include "exactdp/core/error.hpp"

namespace exactdp {

namespace {

ParametricSamplePoint run_numeric(const std::function<Game(const Rational&)>& instantiate, const parametric::RationalFunction& lambda,
                                  const Rational& r, unsigned horizon, const ClaimCheckOptions& options) {
  ParametricSamplePoint s{r, lambda.evaluate(r), {}};
  GameClaim claim;
  claim.lambda = s.lambda;
  claim.delta = 0;
  ClaimCheckOptions o = options;
  o.engine.horizon = horizon;
  s.game = instantiate(r);
  s.numeric = check_claim(s.game, claim, o);
  return s;
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
    auto s = run_numeric(instantiate, lambda, f.samples.front(), horizon, options.numeric);
    if (s.numeric.verdict != Verdict::refuted)
      throw Error(where + to_string(s.value), "", "",
                  "internal: the parametric decision says the claim fails here but the numeric engine does not refute it");
    out.witnesses.push_back(std::move(s));
  }
  if (options.cross_check) {
    const auto& pieces = out.decision.partition.pieces;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
      if (!out.decision.holds[k] || pieces[k].is_point() || !pieces[k].sample) continue;
      auto s = run_numeric(instantiate, lambda, *pieces[k].sample, horizon, options.numeric);
      if (s.numeric.verdict != Verdict::holds)
        throw Error(where + to_string(s.value), "", "",
                    "internal: the parametric decision says the claim holds here but the numeric engine does not confirm it");
      out.cross_checks.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace exactdp
