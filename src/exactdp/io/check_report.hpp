/// @file
/// The JSON report of a checked claim (`exactdp check --json`, `exactdp.check` in Python): the
/// claim, the verdict and its evidence (accounting/claim_check.hpp). Exact values are "p/q"
/// strings, +∞ is "inf", certified enclosures {"lo", "hi"} of decimals rounded outward.
///
/// ```json
/// {"spec": "mp.json", "adversary": "adaptive", "claim": {"epsilon": "2", "delta": "0"},
///  "verdict": "refuted", "horizon": 2, "lambda_used": "…", "lambda_side": "above",
///  "delta_forward": "…", "delta_backward": "…", "delta": "…", "witness": {…}}
/// ```
///
/// `verdict` is "holds", "refuted" or "undecided" (docs/verdicts.md). `lambda_side` says how the
/// rational `lambda_used` relates to the claim: "exact" (the claim's λ), "below" (≤ e^ε, where the
/// claim held) or "above" (≥ e^ε, where it failed). An undecided claim carries `enclosure` (of e^ε,
/// or of ln Φ_α for an RDP claim), `precision` (bits) and `to_decide` (what would decide it). An
/// RDP claim carries `moment`, `moment_forward`, `moment_backward` and `decided` instead of the δ's.
/// `stats` (engine counters) only when asked.
#pragma once

#include "exactdp/accounting/claim_check.hpp"
#include "exactdp/game/game.hpp"

#include <string>

namespace exactdp {

/// The report of @p verdict on @p claim about @p game (read from @p source), as JSON text.
std::string check_report_json(const Game& game, const std::string& source, const GameClaim& claim,
                              const ClaimCheckOptions& options, const ClaimVerdict& verdict, bool with_stats);

}  // namespace exactdp
