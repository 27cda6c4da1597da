/// @file
/// Directed rounding of non-negative binary64 values: bounds that stay on one side of the exact
/// result of an operation computed in round-to-nearest.
///
/// A round-to-nearest result lies within half a unit in the last place of the exact value, so the
/// neighbouring double above (below) it is an upper (lower) bound of the exact value. Used where a
/// long computation keeps masses as doubles between certified steps (the grid laws of
/// amplification/poisson.hpp); every value handled here is ≥ 0 or +∞, never NaN.
#pragma once

#include "exactdp/numeric/interval.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

namespace exactdp::directed {

inline constexpr double infinity = std::numeric_limits<double>::infinity();

/// The least double > x (x itself for +∞; the smallest subnormal for x ≤ 0).
inline double next_up(double x) {
  if (x == infinity) return x;
  if (!(x > 0)) return std::numeric_limits<double>::denorm_min();
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + 1);
}
/// The greatest double < x for x > 0; 0 for x ≤ 0.
inline double next_down(double x) { return x > 0 ? std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1) : 0.0; }
/// An upper bound of a + b (a, b ≥ 0); exactly 0 only when both are 0.
inline double sum_up(double a, double b) { return a + b == 0 ? 0.0 : next_up(a + b); }
/// A lower bound of a + b (a, b ≥ 0).
inline double sum_down(double a, double b) { return next_down(a + b); }
/// An upper bound of a·b (a, b ≥ 0), also when the product underflows.
inline double prod_up(double a, double b) {
  const double r = a * b;
  if (r == 0) return a == 0 || b == 0 ? 0.0 : std::numeric_limits<double>::denorm_min();
  return next_up(r);
}
/// A lower bound of a·b (a, b ≥ 0).
inline double prod_down(double a, double b) { return next_down(a * b); }

/// A double ≤ every point of @p x, clamped at 0 (for enclosures of masses; 0 if the lower end is −∞).
inline double lower_double(const Interval& x) {
  if (!x.lower_is_finite()) return 0.0;
  return std::max(0.0, mpfr_get_d(&x.get()->left, MPFR_RNDD));
}
/// A double ≥ every point of @p x, clamped at 0 (+∞ if the upper end is +∞). MPFI writes a zero
/// right end point as −0; masses are ≥ 0, so a non-positive bound becomes +0.
inline double upper_double(const Interval& x) {
  if (!x.upper_is_finite()) return infinity;
  const double d = mpfr_get_d(&x.get()->right, MPFR_RNDU);
  return d > 0 ? d : 0.0;
}

}  // namespace exactdp::directed
