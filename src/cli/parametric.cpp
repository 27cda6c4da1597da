// `exactdp check SPEC --lambda EXPR [--delta EXPR] --for-all r` (or `--renyi-alpha A --renyi-moment EXPR`): a claim decided for every value of a
// spec's parameter, and `exactdp profile SPEC --parametric [--lambda EXPR | --alpha A]` (docs/parametric.md).
// Parses, calls accounting/parametric_check.hpp, prints.
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
  const ParametricSpec spec = load_parametric_spec_file(file);
  ParametricCheckOptions options;
  options.horizon = horizon;
  options.cross_check = cross_check;
  options.numeric.adversary = parse_adversary_class(adversary, "--adversary");
  const auto [v, lambda] = check_parametric_claim(spec, parameter, lambda_text, epsilon, delta, options);
  if (json_output) std::cout << nlohmann::ordered_json::parse(parametric_check_json(spec, lambda, options, v)).dump(2) << "\n";
  else std::cout << parametric_check_text(spec, lambda, options, v);
  return exit_code_of(v.verdict);
}

int check_renyi_for_all(const std::string& file, const std::string& parameter, const std::string& alpha, const std::string& moment,
                        const std::string& epsilon, unsigned horizon, bool cross_check, bool json_output, const std::string& adversary) {
  const ParametricSpec spec = load_parametric_spec_file(file);
  ParametricCheckOptions options;
  options.horizon = horizon;
  options.cross_check = cross_check;
  options.numeric.adversary = parse_adversary_class(adversary, "--adversary");
  const ParametricRenyiClaimVerdict v = check_parametric_renyi_claim(spec, parameter, alpha, moment, epsilon, options);
  if (json_output) std::cout << nlohmann::ordered_json::parse(parametric_renyi_check_json(spec, v)).dump(2) << "\n";
  else std::cout << parametric_renyi_check_text(spec, v);
  return exit_code_of(v.verdict);
}

int profile_parametric(const std::string& file, unsigned horizon, bool json_output, const std::vector<std::string>& lambdas,
                       const std::vector<std::string>& alphas, bool cross_check) {
  const ParametricSpec spec = load_parametric_spec_file(file);
  if (lambdas.size() > 1) throw Error("--lambda", "", lambdas[1], "with --parametric, give one --lambda EXPR (an expression in the parameter)");
  if (alphas.size() > 1) throw Error("--alpha", "", alphas[1], "with --parametric, give one --alpha (an integer order >= 2)");
  if (!alphas.empty() && !lambdas.empty())
    throw Error("--alpha", "", alphas[0], "with --parametric, give either --lambda (the worst δ) or --alpha (the worst Rényi moment)");
  const std::string report = alphas.empty()
                                 ? parametric_profile_report(spec, lambdas.empty() ? std::string() : lambdas[0], horizon, cross_check, json_output)
                                 : parametric_renyi_report(spec, alphas[0], horizon, cross_check, json_output);
  if (json_output) std::cout << nlohmann::ordered_json::parse(report).dump(2) << "\n";
  else std::cout << report;
  return 0;
}

}  // namespace exactdp::cli
