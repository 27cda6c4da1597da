/// @file
/// The library's mechanisms by name, for spec files (`"mechanism": {"type": "library", "name":
/// ..., "params": {...}}`, spec/mechanisms/README.md) and other front ends.
///
/// A front end collects the user's parameters as text (LibraryArguments) and calls
/// make_library_game(); every problem — an unknown name, a missing, unknown or malformed
/// parameter, a value the factory refuses — is an exactdp::Error naming the source (the file),
/// the parameter's path (e.g. `/mechanism/params/r_query`) and the value.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/library/library_hsv.hpp"
#include "exactdp/numeric/rational.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace exactdp::library {

/// One parameter as the user wrote it: a scalar (text of a rational or integer) or a list.
struct LibraryArgument {
  std::string text;                ///< the scalar's text (for a list: its display form)
  std::vector<std::string> items;  ///< the list's items
  bool is_list = false;
};

/// The parameters of one library mechanism, with typed accessors that report errors against the
/// source and path they were read from. Every accessor marks its key as used; finish() refuses the
/// keys nobody asked for.
class LibraryArguments {
public:
  /// @param where  the source (a file name) for errors
  /// @param path   the JSON path of the parameter object (e.g. "/mechanism/params")
  /// @param args   parameter name → value
  LibraryArguments(std::string where, std::string path, std::map<std::string, LibraryArgument> args);

  /// A required rational parameter (exactdp::parse_rational syntax: "1/3", "0.25", "2").
  Rational rational(const std::string& key) const;
  /// An optional rational parameter with a default.
  /// @param key       the parameter name
  /// @param fallback  the value when the parameter is absent
  Rational rational(const std::string& key, const Rational& fallback) const;
  /// A required scalar parameter's text as written (for parameters read by another grammar, e.g.
  /// an expression in a spec's declared parameter).
  const std::string& scalar_text(const std::string& key) const { return scalar(key).text; }
  /// Whether the parameter is present.
  bool has(const std::string& key) const { return args_.count(key) != 0; }
  /// An optional integer parameter in [lo, hi] with a default.
  /// @param key       the parameter name
  /// @param fallback  the value when the parameter is absent
  /// @param lo        the least allowed value
  /// @param hi        the largest allowed value
  long integer(const std::string& key, long fallback, long lo, long hi) const;
  /// A required list of rationals.
  std::vector<Rational> rationals(const std::string& key) const;
  /// A required list of integers in [lo, hi].
  /// @param key  the parameter name
  /// @param lo   the least allowed value
  /// @param hi   the largest allowed value
  std::vector<long> integers(const std::string& key, long lo, long hi) const;
  /// Throws exactdp::Error for the first parameter no accessor asked for.
  /// @param known  the names the mechanism accepts (listed in the message)
  void finish(const std::string& known) const;

  /// An error about parameter @p key with value @p value.
  /// @param key    the parameter name
  /// @param value  the offending value
  /// @param why    what is wrong
  [[noreturn]] void fail(const std::string& key, const std::string& value, const std::string& why) const;
  const std::string& where() const { return where_; }
  const std::string& path() const { return path_; }

private:
  const LibraryArgument& scalar(const std::string& key) const;
  std::string where_, path_;
  std::map<std::string, LibraryArgument> args_;
  mutable std::set<std::string> used_;
};

/// One named library mechanism.
struct LibraryEntry {
  std::string name;     ///< the spec-file name, e.g. "above-threshold"
  std::string params;   ///< its parameters, e.g. "r_threshold, r_query, queries = 3, ..."
  std::string summary;  ///< one line: what it is and its source (THEOREMS.md part D)
};

/// Every library mechanism, in documentation order.
const std::vector<LibraryEntry>& library_entries();

/// Builds the named library mechanism's game from its parameters (the names and parameters of
/// library_entries(), documented in spec/mechanisms/README.md). Throws exactdp::Error naming
/// args.where(), the JSON path and the value: an unknown @p name (the message lists the known
/// names), a missing, unknown or malformed parameter, or one the factory refuses.
/// @param name  the library name
/// @param args  its parameters
/// @param name_field  the path of the name in the source, for the unknown-name error (e.g. "/mechanism/name")
Game make_library_game(const std::string& name, const LibraryArguments& args, const std::string& name_field = "name");

/// Builds one of the library's composites of HSV §7–9 ("hss-histogram", "ldp-threshold-protocol",
/// "core-decomposition") as a CompositeModel: its game and what the HSV §6 checker needs
/// (checker_instance). Parameters and errors as make_library_game; an unknown @p name lists the
/// composites.
CompositeModel make_library_composite(const std::string& name, const LibraryArguments& args, const std::string& name_field = "name");

}  // namespace exactdp::library
