/// @file
/// Certified real-root isolation and sign partitions of a parameter range (issue 19 item 2;
/// docs/parametric.md, "What is proved").
///
/// A finite set of rational functions f₁ … f_n, each continuous on a range I of the parameter
/// (no denominator vanishes on I), has a sign on I that changes only at the real roots of the
/// numerators. sign_partition() splits I at every such root into *pieces*: the roots themselves
/// (real algebraic numbers, each given by an irreducible integer polynomial and an isolating
/// interval with rational ends, or exactly when rational) and the open intervals between them,
/// each with a rational sample point. On each piece every f_i has one sign, and the partition
/// states it. Nothing is sampled and nothing is approximate: each irreducible factor's roots in
/// the range are isolated by exact bisection with Descartes' rule of signs (FLINT's integer
/// polynomials: composition with the Möbius map of the interval, Taylor shift), and every
/// isolating interval is checked by the sign change of the factor at its rational ends.
#pragma once

#include "exactdp/numeric/rational.hpp"
#include "exactdp/parametric/rational_function.hpp"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp::parametric {

/// The declared range of a parameter: an interval with rational ends, each open or closed.
struct ParameterRange {
  Rational lower, upper;  ///< lower < upper
  bool lower_open = true, upper_open = true;
  /// True when @p r lies in the range.
  bool contains(const Rational& r) const;
  /// "(0, 1)", "[1/4, 1]".
  std::string to_string() const;
};

/// A real algebraic number: the unique root of an irreducible integer polynomial inside an
/// isolating interval with rational ends. A rational number is held exactly (lower == upper).
struct RealAlgebraic {
  std::vector<Integer> polynomial;  ///< irreducible, primitive, positive leading coefficient; lowest degree first
  Rational lower, upper;            ///< the root is the only root of `polynomial` in [lower, upper]
  bool is_rational() const { return lower == upper; }
  /// The exact value when rational.
  std::optional<Rational> rational() const;
  /// "1/2", or "the root of r^2-3*r+1 in [3/8, 1/2] (≈ 0.381966)" (the decimal is printed from the
  /// isolating interval refined below 10⁻⁹; it is a reading aid, the interval is the statement).
  std::string to_string(std::string_view variable = "r") const;
  /// The same as the JSON object {"rational": "1/2"} or {"polynomial": [...], "interval": [lo, hi], "approx": "0.381966"}.
  std::string to_json() const;
};

/// One piece of a sign partition: a point (lower == upper, both closed) or an interval between
/// two consecutive points (or range ends), open at a root and closed at a closed range end that
/// is not a root.
struct Piece {
  RealAlgebraic lower, upper;
  bool lower_closed = false, upper_closed = false;
  /// A rational point of the piece (for a point piece: its value when rational); the piece's
  /// signs are the signs there.
  std::optional<Rational> sample;
  bool is_point() const { return lower_closed && upper_closed && lower.lower == upper.lower && lower.upper == upper.upper && lower.polynomial == upper.polynomial; }
  /// "(1/4, 1/2]", "{the root of … in [a, b]}".
  std::string to_string(std::string_view variable = "r") const;
};

/// The range split at every real root of the functions' numerators, with each function's sign on
/// each piece (−1, 0, +1): `signs[i][k]` is the sign of functions[i] on pieces[k].
struct SignPartition {
  ParameterRange range;
  std::vector<Piece> pieces;  ///< in increasing order, covering the range exactly
  std::vector<std::vector<int>> signs;
  std::size_t distinct_factors = 0;  ///< irreducible factors of the numerators (statistics)
};

/// The real roots of the integer polynomial @p polynomial (lowest degree first, not zero) inside
/// @p range, each once, in increasing order, with certified isolating intervals inside the range.
std::vector<RealAlgebraic> real_roots_in(const std::vector<Integer>& polynomial, const ParameterRange& range);

/// Splits @p range at the real roots of the functions' numerators and gives every function's
/// sign on every piece (see the file comment for what is certified). Throws exactdp::Error when a
/// denominator vanishes somewhere in the range (naming the function and the root): such a
/// function is not a continuous function of the parameter on the range.
SignPartition sign_partition(const std::vector<RationalFunction>& functions, const ParameterRange& range,
                             std::string_view variable = "r");

/// What sign_partition() can keep between calls over one range whose function lists grow (the
/// refinement passes of the parametric inductions, each a superset of the last): every numerator's
/// factorisation and every irreducible factor's isolated roots in the range, keyed by the
/// polynomial. The partition computed with it is the one computed without (the same factors in the
/// same order, the same isolating intervals before they are separated).
class SignPartitionCache {
public:
  SignPartitionCache();
  ~SignPartitionCache();
  SignPartitionCache(const SignPartitionCache&) = delete;
  SignPartitionCache& operator=(const SignPartitionCache&) = delete;
  struct Impl;
  Impl& impl() { return *impl_; }

private:
  std::unique_ptr<Impl> impl_;
};

/// sign_partition() reusing (and filling) @p cache; throws exactdp::Error when @p cache was used
/// with another range (internal).
SignPartition sign_partition(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable,
                             SignPartitionCache& cache);

/// The rational with the smallest denominator (then the smallest absolute numerator) strictly
/// between @p a and @p b (a < b): the sample points of a partition are as simple as possible.
Rational simplest_rational_between(const Rational& a, const Rational& b);

/// If @p f is negative somewhere on @p range, a rational point where it is (the simplest sample
/// of a negative piece); std::nullopt when f ≥ 0 on the whole range. Used to validate tables
/// (non-negative probabilities) and claims (λ ≥ 1).
std::optional<Rational> negative_point(const RationalFunction& f, const ParameterRange& range, std::string_view variable = "r");

/// True when @p f has neither a zero nor a pole in @p range (so one sign on all of it): certified by
/// Descartes' rule of signs on the numerator and the denominator, then by real-root isolation where
/// the rule does not settle it. The zero function gives false.
bool zero_and_pole_free(const RationalFunction& f, const ParameterRange& range);

}  // namespace exactdp::parametric
