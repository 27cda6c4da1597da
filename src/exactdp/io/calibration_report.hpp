/// @file
/// The JSON report of a calibration (accounting/calibration.hpp), printed by
/// `exactdp calibrate --json` and parsed by `exactdp.calibrate` in Python:
///
/// ```json
/// {"format": "exactdp-calibration/1", "status": "bracketed", "family": "gauss", "parameter": "sigma",
///  "noisier": "larger", "target": {"epsilon": "1", "delta": "1/100000", "times": 1},
///  "witness": "epsilon", "relative_width": "1/1000",
///  "bracket": {"lo": "p/q", "hi": "p/q", "width": "p/q"},
///  "meets": {"value": "p/q", "mechanism": "gauss:sigma=…", "verdict": "meets",
///            "true_epsilon": {"lo": "…", "hi": "…"}, "exact": false, "method": "…", "precision": 128,
///            "refinements": 0, "grid_point_budget": 40000, "precision_cap": 1024},
///  "fails": {…, "verdict": "fails"}, "probes": [], "undecided_levels": [], "levels_judged": 23,
///  "refinements": 2, "stop_reason": "the relative width … is at most 1/1000", "monotonicity": "…"}
/// ```
///
/// Exact values are "p/q"; certified ones {"lo", "hi"} decimals with the given number of
/// significant digits, rounded outward; "inf" for +∞. `bracket` is present when both ends are;
/// for rr and krr, `probability` gives the truth probability p = λ/(λ + k − 1) at each end (exact).
/// `probes` lists the judgements of the caller's probes (CalibrationOptions::probes), in order; a
/// level left undecided also has `refinement_stop` (why its refinement stopped, what the next rung
/// would need, and which option allows it). `bracket` is present also when the status is
/// `undecided`: both its ends are certified, only wider than asked.
#pragma once

#include "exactdp/accounting/calibration.hpp"

#include <string>

namespace exactdp {

/// The report as JSON text (two-space indentation).
std::string calibration_report_json(const CalibrationResult& result, int digits = 10);

/// The exit code of a calibration (accounting/verdict.hpp): 0 bracketed, 3 otherwise (undecided,
/// or no level meets or fails within the levels tried).
int calibration_exit_code(const CalibrationResult& result);

}  // namespace exactdp
