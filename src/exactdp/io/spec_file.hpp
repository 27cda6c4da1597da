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
///   `"*"` matches every message a state does not list; a state written `{}` has halted and
///   answers `"halt"` to every message. Loading is strict (issue 15): a `next` state that is not
///   a key of `states` is an error (with the nearest names as a suggestion); a reachable state
///   with no rule for a message of the alphabet is an error unless the table says
///   `"missing_rules": "invalid"` (then such a message is answered `"invalid"` and the state
///   stays); when `messages` is given, a rule key outside it is an error; a table must have a
///   named message alphabet (`messages`, rule keys or the pairs of the relation).
/// * `max_horizon` (optional, top level): the spec is exact for horizons up to this many rounds
///   only (written by `Mechanism.to_spec()` for `explore="horizon"`); Game::max_horizon carries it
///   and the engine refuses a larger horizon.
/// * Repeated keys in any JSON object are an error (io/json_reader.hpp).
/// * Probabilities are exact: strings `"1/3"`, `"0.25"`, `"1e-3"` (exactdp::parse_rational) or
///   the JSON integers 0 and 1. JSON numbers with a fraction are refused: a binary double is not
///   the number the user wrote.
/// * `neighbours` is `{"type": "static", "worlds": [x, x′]}` with `initial` mapping each world to
///   a state (or to an initial law `{state: p, …}`), or `{"type": "pairs", "allowed": [[m₀, m₁],
///   …], "max_differing": k}` or `{"type": "automaton", "initial": σ₀, "states": {σ: [{"pair":
///   [m₀, m₁], "next": σ′}, …]}}` (AutomatonVerifier), both with a single `initial` state (A.7).
/// * `messages` (optional) is the message alphabet in order; when given, every rule key other
///   than `"*"` and every message of the relation must belong to it; when absent the alphabet is
///   the rule keys and the relation's messages, in first-seen order.
/// * Optional documentation keys anywhere at top level: `description`, `source`, `comment`.
///
/// Every error is an exactdp::Error whose `where` is the file, whose `field` is the JSON path
/// (a JSON Pointer, e.g. `/mechanism/states/s0/*/1/p`) and whose `value` is the offending value.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp {

/// A note on a spec that changes no verdict (a lint warning found while reading): where it is
/// (a JSON Pointer), the value, and what it says.
struct SpecNote {
  std::string code;     ///< a short stable identifier, e.g. "repeated-row"
  std::string pointer;  ///< JSON Pointer into the file
  std::string value;
  std::string message;
};

/// A table mechanism as read from a spec, for `exactdp lint` (io/spec_lint.hpp).
struct SpecTable {
  std::string pointer;  ///< the JSON Pointer of the mechanism object, e.g. "/mechanism"
  std::shared_ptr<const TableMechanism> mechanism;
  std::array<InitialLaw, 2> initial;  ///< both worlds' initial laws (the same for non-static relations)
  bool missing_rules_invalid = false;  ///< the table opted in with "missing_rules": "invalid"
};

/// Everything read_spec found: the game (absent when there was an error), every error in file
/// order (the first is what parse_spec throws), and what lint needs.
struct SpecReading {
  std::optional<Game> game;
  std::vector<Error> errors;
  /// A short stable identifier per error (parallel to errors): "unknown-state", "missing-rule",
  /// "unknown-message", "no-alphabet", "repeated-key", or "invalid" for every other error.
  std::vector<std::string> error_codes;
  std::vector<SpecNote> notes;    ///< warnings found while reading (repeated rows)
  std::vector<SpecTable> tables;  ///< every table mechanism of the spec, in file order
};

/// Reads spec text, collecting the errors that do not stop reading (unknown `next` states,
/// missing rules, unknown rule keys: every one is reported) instead of throwing at the first.
/// Structural errors (malformed JSON, wrong types, repeated keys) end the reading with that one
/// error. Never throws exactdp::Error for problems of the text.
SpecReading read_spec(std::string_view text, const std::string& source);

/// Parses spec text. @p source names the text in errors (usually the file name).
/// Throws exactdp::Error (source, JSON path, value, why) on any problem, before any work starts.
Game parse_spec(std::string_view text, const std::string& source);

/// Reads and parses a spec file; errors name the file as given.
Game load_spec_file(const std::filesystem::path& file);

}  // namespace exactdp
