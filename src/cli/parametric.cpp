// `exactdp check SPEC --lambda EXPR --for-all r`: a pure-DP claim decided for every value of a spec's
// parameter (docs/parametric.md). Parses, calls accounting/parametric_check.hpp, prints.
#include "commands.hpp"

#include "exactdp/accounting/parametric_check.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/io/parametric_report.hpp"
#include "exactdp/io/parametric_spec.hpp"

#include <nlohmann/json.hpp>

#include <iostream>

namespace exactdp::cli {

int check_for_all(const std::string& file, const std::string& parameter, const std::string& lambda_text, const std::string& epsilon,
                  const std::string& delta, unsigned horizon, bool cross_check, bool json_output, const std::string& adversary) {
  if (!epsilon.empty()) throw Error("--epsilon", "", epsilon, "with --for-all, write the claim as --lambda EXPR (λ = e^ε as a function of the parameter)");
  if (lambda_text.empty()) throw Error("--lambda", "", "", "--for-all needs --lambda EXPR, an expression in the parameter");
  if (!delta.empty() && parse_rational(delta, "--delta") != 0)
    throw Error("--delta", "", delta, "--for-all decides pure DP (δ = 0) only in this version (docs/parametric.md)");
  const ParametricSpec spec = load_parametric_spec_file(file);
  if (parameter != spec.game.parameter)
    throw Error("--for-all", "", parameter, "the spec's parameter is `" + spec.game.parameter + "`");
  const parametric::RationalFunction lambda = [&] {
    try {
      return parametric::parse_rational_function(lambda_text, parameter, "--lambda");
    } catch (const Error& e) {
      throw Error("--lambda", "", lambda_text, e.why());
    }
  }();
  ParametricCheckOptions options;
  options.horizon = horizon;
  options.cross_check = cross_check;
  options.numeric.adversary = parse_adversary_class(adversary, "--adversary");
  const ParametricClaimVerdict v = check_pure_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, lambda, options);
  if (json_output) std::cout << nlohmann::ordered_json::parse(parametric_check_json(spec, lambda, options, v)).dump(2) << "\n";
  else std::cout << parametric_check_text(spec, lambda, options, v);
  return exit_code_of(v.verdict);
}

int profile_parametric(const std::string& file, unsigned horizon, bool json_output) {
  const ParametricSpec spec = load_parametric_spec_file(file);
  const auto ratio = parametric::worst_case_ratio_for_all(spec.game, horizon ? horizon : spec.game.horizon);
  if (json_output) std::cout << nlohmann::ordered_json::parse(parametric_ratio_json(spec, ratio)).dump(2) << "\n";
  else std::cout << parametric_ratio_text(spec, ratio);
  return 0;
}

}  // namespace exactdp::cli
