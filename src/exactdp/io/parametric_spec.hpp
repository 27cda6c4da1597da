/// @file
/// Reading spec files with a parameter (issue 19 item 1; docs/parametric.md): a table mechanism
/// whose probabilities are rational functions of one declared parameter.
///
/// ```json
/// { "format": "exactdp/1", "name": "RR with p = r", "horizon": 1,
///   "parameters": { "r": { "interval": ["1/2", "1"], "open": true } },
///   "neighbours": { "type": "static", "worlds": ["x", "x'"] },
///   "mechanism": { "type": "table", "initial": { "x": "s0", "x'": "s1" }, "messages": ["q"],
///     "states": { "s0": { "*": [ { "p": "r", "answer": "0", "next": "h" }, { "p": "1-r", "answer": "1", "next": "h" } ] },
///                 "s1": { "*": [ { "p": "1-r", "answer": "0", "next": "h" }, { "p": "r", "answer": "1", "next": "h" } ] },
///                 "h": {} } } }
/// ```
///
/// * `parameters` declares exactly one parameter (this version): its name (an identifier) →
///   `{"interval": [lo, hi], "open": b}` with exact rational ends lo < hi; `open` is `true` (the
///   default: lo < r < hi), `false` (lo ≤ r ≤ hi), or `[b_lo, b_hi]` per end.
/// * Every row's `"p"` may be an expression in the parameter (parametric/rational_function.hpp's
///   grammar) — a string — or an exact number as in an ordinary spec. Initial laws stay numeric.
/// * Validation, before any work: each `p` is defined (its denominator has no root) on the
///   closed hull of the range's included points, non-negative there, and every rule's `p` sum to 1
///   *identically*; otherwise an exactdp::Error naming the file, the JSON Pointer, the expression
///   and a rational parameter value where it fails. The structure (states, messages, relation) is
///   checked by the ordinary strict loader (io/spec_file.hpp) on the spec instantiated at a point.
/// * Instantiated at a rational r of the range (ParametricSpec::instantiate), the file is the
///   ordinary numeric spec with every expression replaced by its exact value: the numeric engine
///   is the parametric engine's oracle.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"
#include "exactdp/parametric/parametric_game.hpp"

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exactdp {

/// A spec with one parameter, read and validated.
struct ParametricSpec {
  std::string source;                ///< the file, for errors
  parametric::ParametricGame game;   ///< the table over rational functions, with the relation's verifier
  /// The ordinary spec text at @p r (a value of the range): `parameters` removed and every
  /// expression replaced by its exact value. Throws exactdp::Error when r is outside the range.
  std::string instantiate_text(const Rational& r) const;
  /// The ordinary game at @p r (parse_spec of instantiate_text).
  Game instantiate(const Rational& r) const;

  /// The point of the range at which the strict loader checked the structure (and lint lints).
  Rational reference_value;

  std::string document;  ///< the file's JSON (internal: re-read by instantiate_text)
  std::vector<std::pair<std::string, parametric::RationalFunction>> expressions;  ///< JSON Pointer → function
};

/// True when @p text is a JSON object with a top-level `"parameters"` key (a parametric spec).
bool is_parametric_spec_text(std::string_view text);
/// The same for a file (false when it cannot be read).
bool is_parametric_spec_file(const std::filesystem::path& file);

/// Parses and validates a parametric spec (see the file comment). Throws exactdp::Error(@p source,
/// JSON Pointer, value, why) on any problem.
ParametricSpec parse_parametric_spec(std::string_view text, const std::string& source);
/// Reads a file and parses it with parse_parametric_spec.
ParametricSpec load_parametric_spec_file(const std::filesystem::path& file);

}  // namespace exactdp
