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

namespace exactdp {

/// The JSON report (see the file comment).
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

}  // namespace exactdp
