/// @file
/// The single exception type of exactdp.
#pragma once

#include <stdexcept>
#include <string>

namespace exactdp {

/// Every user-facing failure of exactdp: bad input, a refused computation, an undecided
/// certified comparison that the caller asked to be decided.
///
/// It carries *where* the problem is (a file name, a command-line option, or a function),
/// *which field* was wrong and the offending *value*, so that the command-line program can print
/// a single line such as `pair.json: field "p"/"x": value "-1/2": masses must be non-negative`.
class Error : public std::runtime_error {
public:
  /// @param where  the file, option or API entry point at fault (may be empty)
  /// @param field  the field inside it (may be empty)
  /// @param value  the offending value as the user wrote it (may be empty)
  /// @param why    what is wrong, in one sentence
  Error(std::string where, std::string field, std::string value, std::string why)
      : std::runtime_error(format(where, field, value, why)), where_(std::move(where)),
        field_(std::move(field)), value_(std::move(value)), why_(std::move(why)) {}

  /// An error with only an explanation.
  explicit Error(std::string why) : Error("", "", "", std::move(why)) {}

  const std::string& where() const noexcept { return where_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& why() const noexcept { return why_; }

  /// The same error, re-anchored in a file or option (used when a parser that does not know
  /// its source reports to a caller that does).
  Error in(const std::string& where) const {
    return Error(where_.empty() ? where : where + ": " + where_, field_, value_, why_);
  }

private:
  static std::string format(const std::string& where, const std::string& field,
                            const std::string& value, const std::string& why) {
    std::string s;
    if (!where.empty()) s += where + ": ";
    if (!field.empty()) s += "field \"" + field + "\": ";
    if (!value.empty()) s += "value \"" + value + "\": ";
    return s + why;
  }
  std::string where_, field_, value_, why_;
};

}  // namespace exactdp
