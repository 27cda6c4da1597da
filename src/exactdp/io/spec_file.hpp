/// @file
/// Loading interactive-mechanism spec files (`"format": "exactdp/1"`, spec/mechanisms/*.json,
/// schema spec/mechanism.schema.json) into a Game.
///
/// Supported in this version (documented in spec/mechanisms/README.md):
///
/// ```json
/// { "format": "exactdp/1", "name": "two-round example", "horizon": 2,
///   "neighbours": { "type": "static", "worlds": ["x", "x'"] },
///   "mechanism": { "type": "table",
///     "initial": { "x": "s0", "x'": "s1" },
///     "messages": ["q"],
///     "states": {
///       "s0": { "*": [ { "p": "2/3", "answer": "0", "next": "a0" }, { "p": "1/3", "answer": "1", "next": "a1" } ] },
///       "a0": {}, "a1": {}, ... } } }
/// ```
///
/// * `states` maps state → message → list of (probability, answer, next state) (THEOREMS.md A.3);
///   `"*"` matches every message a state does not list; a message without an entry is answered
///   `"invalid"` and the state stays; a state listed as `{}` has halted and answers `"halt"`, and
///   so has a next state that is not listed at all (initial states must be listed).
/// * Probabilities are exact: strings `"1/3"`, `"0.25"`, `"1e-3"` (exactdp::parse_rational) or
///   the JSON integers 0 and 1. JSON numbers with a fraction are refused: a binary double is not
///   the number the user wrote.
/// * `neighbours` is `{"type": "static", "worlds": [x, x′]}` with `initial` mapping each world to
///   a state (or to an initial law `{state: p, …}`), or `{"type": "pairs", "allowed": [[m₀, m₁],
///   …], "max_differing": k}` or `{"type": "automaton", "initial": σ₀, "states": {σ: [{"pair":
///   [m₀, m₁], "next": σ′}, …]}}` (AutomatonVerifier), both with a single `initial` state (A.7).
/// * `messages` (optional) fixes the order of the message alphabet; every message key of a rule
///   and every message of an allowed pair belongs to it as well.
/// * Optional documentation keys anywhere at top level: `description`, `source`, `comment`.
///
/// Every error is an exactdp::Error whose `where` is the file, whose `field` is the JSON path
/// (a JSON Pointer, e.g. `/mechanism/states/s0/*/1/p`) and whose `value` is the offending value.
#pragma once

#include "exactdp/game/game.hpp"

#include <filesystem>
#include <string>
#include <string_view>

namespace exactdp {

/// Parses spec text. @p source names the text in errors (usually the file name).
/// Throws exactdp::Error (source, JSON path, value, why) on any problem, before any work starts.
Game parse_spec(std::string_view text, const std::string& source);

/// Reads and parses a spec file; errors name the file as given.
Game load_spec_file(const std::filesystem::path& file);

}  // namespace exactdp
