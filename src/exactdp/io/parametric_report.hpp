/// @file
/// The report of a claim decided for every value of a parameter (`exactdp check SPEC --lambda
/// EXPR --for-all r`, docs/parametric.md "JSON"): text and JSON.
///
/// ```json
/// {"spec": "rr-param.json", "parameter": "r", "range": {"lower": "1/2", "upper": "1", "lower_open": true, "upper_open": true},
///  "claim": {"lambda": "r/(1-r)", "delta": "0"}, "horizon": 1, "verdict": "holds" | "refuted",
///  "proved": "…", "pieces": [{"lower": A, "upper": A, "lower_closed": b, "upper_closed": b, "sample": "3/4" | null, "holds": b}],
///  "failing": [{"lower": A, "upper": A, "lower_closed": b, "upper_closed": b, "samples": ["…"], "witness": {check report}}],
///  "cross_checks": [{"value": "…", "lambda": "…", "verdict": "holds"}],
///  "stats": {"nodes": n, "view_pairs": n, "functions": n, "irreducible_factors": n}}
/// ```
///
/// A is a real algebraic number: `{"rational": "1/2"}` or `{"polynomial": ["c0", "c1", …],
/// "interval": ["lo", "hi"], "approx": "0.381966011"}` (the unique root of the irreducible
/// polynomial Σ cᵢ rⁱ in the closed interval; `approx` is a reading aid).
#pragma once

#include "exactdp/accounting/parametric_check.hpp"
#include "exactdp/io/parametric_spec.hpp"

#include <string>
#include <utility>

namespace exactdp {

/// The JSON report (see the file comment). For an approximate claim (δ ≠ 0) it also carries
/// "worst_delta": the pieces of parametric_delta_json, and "delta_checks" (the numeric δ at each
/// piece's sample).
std::string parametric_check_json(const ParametricSpec& spec, const parametric::RationalFunction& lambda,
                                  const ParametricCheckOptions& options, const ParametricClaimVerdict& verdict);
/// The human-readable report, with the numeric witness of each failing interval.
std::string parametric_check_text(const ParametricSpec& spec, const parametric::RationalFunction& lambda,
                                  const ParametricCheckOptions& options, const ParametricClaimVerdict& verdict);

/// `exactdp profile SPEC --parametric`: the worst-case pure ratio as a piecewise rational function,
/// consecutive pieces with the same function merged. JSON: {"spec", "parameter", "range",
/// "horizon", "adversary", "infinite", "pieces": [{"lower": A, "upper": A, "lower_closed",
/// "upper_closed", "ratio": "expression", "sample": "p/q", "ratio_at_sample": "p/q"}], "stats"}.
std::string parametric_ratio_json(const ParametricSpec& spec, const parametric::PiecewiseRatio& ratio);
std::string parametric_ratio_text(const ParametricSpec& spec, const parametric::PiecewiseRatio& ratio);

/// `exactdp profile SPEC --parametric --lambda EXPR`: the worst-case δ(λ(r)) as a piecewise rational
/// function. Pieces with the same (δ⁰, δ¹, δ) functions are merged, and a point piece joins the
/// piece on its left (δ⁰ and δ¹ are continuous in r — finite sums, maxima and positive parts of
/// continuous functions — so the left piece's functions take the right value at its end). JSON:
/// {"spec", "parameter", "range", "lambda", "horizon", "adversary", "pieces": [{"lower": A, "upper":
/// A, "lower_closed", "upper_closed", "delta": "expression", "delta_forward", "delta_backward",
/// "sample", "delta_at_sample"}], "cross_checks": [{"value", "lambda", "delta_forward",
/// "delta_backward"}], "stats"}.
std::string parametric_delta_json(const ParametricSpec& spec, const ParametricDeltaProfile& profile);
std::string parametric_delta_text(const ParametricSpec& spec, const ParametricDeltaProfile& profile);

/// `exactdp profile SPEC --parametric --alpha A`: the worst-case Rényi moment sup Φ_α (integer
/// α ≥ 2) as a piecewise function — a rational function of the parameter or +∞ on each piece — with
/// D_α = ln Φ_α/(α − 1) at each piece's rational sample as a certified interval. Consecutive pieces
/// with the same functions are merged (a point piece only into a neighbour with its very functions:
/// the moment may jump where a view's mass vanishes). JSON: {"spec", "parameter", "range", "alpha",
/// "horizon", "adversary", "pieces": [{"lower": A, "upper": A, "lower_closed", "upper_closed",
/// "moment": "expression" | "inf", "moment_forward", "moment_backward", "sample", "moment_at_sample",
/// "divergence_at_sample": ["lo", "hi"]}], "cross_checks": [{"value", "moment_forward",
/// "moment_backward"}], "stats"}.
std::string parametric_renyi_json(const ParametricSpec& spec, const ParametricRenyiProfile& profile);
std::string parametric_renyi_text(const ParametricSpec& spec, const ParametricRenyiProfile& profile);

/// `profile SPEC --parametric --alpha A` as JSON (@p json) or text: @p alpha must be an integer ≥ 2
/// (a non-integer order is refused: Φ_α is then not a rational function of the parameter); the
/// numeric engine's moments at every piece's sample unless not @p cross_check. @p horizon 0: the
/// spec's. Errors name @p alpha_field.
std::string parametric_renyi_report(const ParametricSpec& spec, const std::string& alpha, unsigned horizon, bool cross_check, bool json,
                                    const std::string& alpha_field = "--alpha");

/// An expression in the spec's parameter as a claim gives it (`--lambda "1/r^3"`, Python's
/// `lam=1/r**3`): parsed by parametric::parse_rational_function; an error names @p field (the flag
/// or argument as the user wrote it), the text and the position.
parametric::RationalFunction read_parametric_expression(const ParametricSpec& spec, const std::string& text, const std::string& field);

/// How a front end names the inputs of a claim for every value (errors name these fields).
struct ParametricClaimFields {
  std::string for_all = "--for-all", lambda = "--lambda", epsilon = "--epsilon", delta = "--delta";
};

/// `check SPEC --for-all P --lambda L [--delta D]` as the command line and Python run it: @p parameter
/// must be the spec's, λ is required and ε refused (λ = e^ε is written as a function of the
/// parameter), an empty δ is 0; then check_approximate_dp_for_all on the spec. Errors name @p fields.
/// Returns the verdict and the λ it decided.
std::pair<ParametricClaimVerdict, parametric::RationalFunction> check_parametric_claim(
    const ParametricSpec& spec, const std::string& parameter, const std::string& lambda, const std::string& epsilon, const std::string& delta,
    const ParametricCheckOptions& options, const ParametricClaimFields& fields = {});

/// `profile SPEC --parametric [--lambda L]` as JSON (@p json) or text: with @p lambda empty the
/// piecewise worst pure ratio, else the piecewise worst δ(λ(r)) (the numeric δ at every piece's
/// sample unless not @p cross_check). @p horizon 0: the spec's. Errors name @p lambda_field.
std::string parametric_profile_report(const ParametricSpec& spec, const std::string& lambda, unsigned horizon, bool cross_check, bool json,
                                      const std::string& lambda_field = "--lambda");

/// How a front end names the inputs of a Rényi claim for every value (errors name these fields).
struct ParametricRenyiFields {
  std::string for_all = "--for-all", alpha = "--renyi-alpha", moment = "--renyi-moment", epsilon = "--renyi-epsilon";
};

/// `check SPEC --for-all P --renyi-alpha A --renyi-moment M` as the command line and Python run it:
/// @p parameter must be the spec's, α an integer in [2, 1000] (a non-integer order is refused naming
/// fields.alpha: Φ_α is then not a rational function of the parameter), M an expression in the
/// parameter (required), an RDP ε refused naming fields.epsilon (e^((α−1)ε) is not rational); then
/// check_renyi_moment_for_all on the spec.
ParametricRenyiClaimVerdict check_parametric_renyi_claim(const ParametricSpec& spec, const std::string& parameter,
                                                                                  const std::string& alpha, const std::string& moment,
                                                                                  const std::string& epsilon, const ParametricCheckOptions& options,
                                                                                  const ParametricRenyiFields& fields = {});

/// The report of a Rényi claim for every value. JSON: {"spec", "parameter", "range", "claim":
/// {"renyi_alpha", "renyi_moment"}, "horizon", "adversary", "verdict", "proved", "pieces" (as the δ
/// claim's), "failing": [{…, "witness": {"parameter_value", "bound", "moment_forward",
/// "moment_backward", "divergence": [lo, hi], "claimed_divergence": [lo, hi]}}], "worst_moment" (the
/// pieces of parametric_renyi_json), "cross_checks", "stats"}.
std::string parametric_renyi_check_json(const ParametricSpec& spec, const ParametricRenyiClaimVerdict& verdict);
std::string parametric_renyi_check_text(const ParametricSpec& spec, const ParametricRenyiClaimVerdict& verdict);

}  // namespace exactdp
