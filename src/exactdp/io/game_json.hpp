/// @file
/// JSON reports of the game engine: the profile report of `exactdp profile SPEC --json` and the
/// witness of a refuted claim (issue 3, "CLI"). Exact values are "p/q" strings in lowest terms,
/// +∞ is "inf".
#pragma once

#include "exactdp/accounting/game_profile.hpp"
#include "exactdp/game/engine.hpp"

#include <string>
#include <vector>

namespace exactdp {

/// Runs the engine on @p game (accounting/game_profile.hpp) and writes the report as JSON text:
///
/// ```json
/// { "name": "MP", "horizon": 2, "neighbours": "static", "worlds": ["x", "x'"],
///   "pure": { "ratio": "8", "ratio_forward": "4", "ratio_backward": "8" },
///   "at": [ { "lambda": "2", "delta": "2/5", "delta_forward": "2/9", "delta_backward": "2/5" } ],
///   "least_lambda": [ { "delta": "1/10", "lambda": "13/2" } ],
///   "renyi": [ { "alpha": 2, "moment": "55/12", "moment_forward": "61/24", "moment_backward": "55/12" } ],
///   "tradeoff": { "vertices": [["0", "1"], …], "world0_vs_world1": […], "world1_vs_world0": […] },
///   "stats": { "nodes_visited": 13, "distinct_keys": 8, "cache_hits": 5, "peak_rss_kib": 5120 } }
/// ```
///
/// `tradeoff.vertices` is the symmetrised envelope (a guarantee for the pair taken in either
/// order); the two directional envelopes follow (THEOREMS.md B.7). `stats` sums the engine runs;
/// `peak_rss_kib` is the process's peak resident set (getrusage ru_maxrss), `adversary` the class.
/// Precondition checks as in engine.hpp (exactdp::Error).
std::string profile_report_json(const Game& game, const ProfileQuery& query);

/// A witness as JSON: the claim it refutes (λ, δ of the witness, direction), the neighbouring
/// worlds, the adversary as a nested decision tree (`{"send": m}` or `{"send": [m0, m1]}` with
/// `"on": {answer: subtree}`; `"stop"` for a leaf), the event S as lists of answer names, and the
/// exact probabilities P₀(S), P₁(S).
std::string witness_json(const Game& game, const Witness& witness);

}  // namespace exactdp
