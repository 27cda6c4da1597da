/// @file
/// The one JSON reader of io/ (issue 16 item 3): every file exactdp reads — mechanism specs,
/// pair files, claims files, composite files — is parsed by parse_json and walked with a
/// JsonReader, so that every reader
///
/// * refuses a repeated key in any JSON object (nlohmann::json would keep the last value
///   silently), naming the JSON Pointer of the second occurrence;
/// * reads exact numbers one way (JsonReader::exact): a string accepted by
///   exactdp::parse_rational ("1/3", "0.25", "1e-5") or a JSON integer; a JSON number with a
///   fraction or an exponent is refused, naming the pointer and the value as written, because a
///   binary double is not the number the user wrote;
/// * reads a neighbouring relation one way (read_neighbour_relation → exactdp::NeighbourRelation);
/// * reports every problem as exactdp::Error(source, JSON Pointer, value, why).
///
/// This header includes nlohmann/json and is internal to the library and the command-line
/// program: it is not installed (CMakeLists.txt), so installed consumers do not need nlohmann.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/game/neighbour_relation.hpp"
#include "exactdp/library/library_registry.hpp"
#include "exactdp/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace exactdp::io {

/// JSON values keep the file's key order (the message alphabet and the states appear in the
/// order the user wrote them).
using Json = nlohmann::ordered_json;

/// A JSON Pointer segment for @p key (RFC 6901: "~" → "~0", "/" → "~1").
std::string pointer_segment(std::string_view key);

/// A value as the user wrote it, shortened to at most 60 characters, for error messages.
std::string shown(const Json& value);

/// Parses @p text as one JSON document. Throws exactdp::Error(@p source, pointer, value, why) on
/// malformed JSON (with nlohmann's line and column), on a text larger than
/// limits::max_input_bytes, and on an object that repeats a key (pointer: the repeated key,
/// value: the key). @p what names the kind of file in messages ("spec", "claims file", …).
Json parse_json(std::string_view text, const std::string& source, std::string_view what = "file");

/// Reads @p file and parses it with parse_json; errors name the file as given.
Json read_json_file(const std::filesystem::path& file, std::string_view what = "file");

/// Walks a parsed document: typed accessors that throw exactdp::Error(source, pointer, value,
/// why) when the value is not what the format says.
class JsonReader {
public:
  explicit JsonReader(std::string source) : source_(std::move(source)) {}

  /// The source named in errors (usually the file name).
  const std::string& source() const { return source_; }

  /// Throws exactdp::Error(source, @p pointer ("/" for the root), @p value, @p why).
  [[noreturn]] void fail(const std::string& pointer, const std::string& value, const std::string& why) const;

  /// The member @p key of the object @p obj (read at @p pointer); an error when it is missing.
  const Json& member(const Json& obj, const std::string& pointer, std::string_view key) const;
  /// @p v when it is an object / an array; an error otherwise.
  const Json& object(const Json& v, const std::string& pointer) const;
  const Json& array(const Json& v, const std::string& pointer) const;
  /// A string; with @p non_empty, the empty string is an error too.
  std::string string(const Json& v, const std::string& pointer, bool non_empty = false) const;
  /// A JSON integer ≥ 0.
  std::uint64_t natural(const Json& v, const std::string& pointer) const;
  /// A JSON integer in [@p lo, @p hi].
  std::int64_t integer(const Json& v, const std::string& pointer, std::int64_t lo, std::int64_t hi) const;
  /// true or false.
  bool boolean(const Json& v, const std::string& pointer) const;
  /// An exact rational: a string read by exactdp::parse_rational or a JSON integer. JSON numbers
  /// with a fraction or an exponent are refused (they are binary floating point), as are
  /// rationals beyond limits::max_rational_bits.
  Rational exact(const Json& v, const std::string& pointer) const;
  /// exact(), and ≥ 0.
  Rational probability(const Json& v, const std::string& pointer) const;
  /// Rejects every key of @p obj outside @p allowed and the documentation keys (`description`,
  /// `source`, `comment`, plus @p extra_documentation).
  void only_keys(const Json& obj, const std::string& pointer, std::initializer_list<std::string_view> allowed,
                 std::initializer_list<std::string_view> extra_documentation = {}) const;

private:
  std::string source_;
};

/// Reads a `"neighbours"` object at @p pointer (spec/mechanisms/README.md): `{"type": "static",
/// "worlds": [x, x′]}`, `{"type": "pairs", "allowed": [[m₀, m₁], …], "max_differing": k}` or
/// `{"type": "automaton", "initial": σ₀, "states": {σ: [{"pair": [m₀, m₁], "next": σ′}, …]}}`.
/// @p allow_static: whether the static form is accepted (composite files take pairs and
/// automata only). The result has `pointer` set and passes NeighbourRelation::validate.
NeighbourRelation read_neighbour_relation(const JsonReader& reader, const Json& v, const std::string& pointer,
                                          bool allow_static = true);

/// Reads the `"params"` object of a library mechanism or composite at @p pointer: each value an
/// exact number written as a string or an integer (kept as text for the library to parse), or a
/// list of them; floats refused naming the pointer and the value.
library::LibraryArguments read_library_arguments(const JsonReader& reader, const Json& params, const std::string& pointer);

/// The closest names to @p name among @p candidates by edit distance (Levenshtein, with a
/// transposition of neighbours counting 1), at most @p limit of them, and only those within
/// distance max(1, |name|/3) — the "did you mean" of error messages. Ties keep the order of
/// @p candidates.
std::vector<std::string> nearest_names(const std::string& name, const std::vector<std::string>& candidates, std::size_t limit = 3);

/// " (did you mean `a` or `b`?)", or "" when @p suggestions is empty.
std::string did_you_mean(const std::vector<std::string>& suggestions);

}  // namespace exactdp::io
