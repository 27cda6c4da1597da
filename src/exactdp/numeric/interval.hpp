/// @file
/// Certified real numbers: closed intervals with MPFR endpoints (MPFI), rounded outward.
///
/// Every operation returns an interval that contains the exact result of applying the
/// operation to every pair of points of its operands (the inclusion property). Nothing in
/// exactdp that leads to a verdict uses plain floating point: a transcendental quantity such as
/// e^ε, ln λ, or Φ(x) is carried as an Interval, and decisions about it go through
/// exactdp/numeric/decide.hpp, which raises the precision until the enclosure separates.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <string>

namespace exactdp {

/// Working precision in bits of the MPFR endpoints. Every function that takes a Precision throws
/// exactdp::Error (field "precision") unless it lies in [min_precision, MPFR_PREC_MAX].
using Precision = mpfr_prec_t;

/// The smallest precision accepted (MPFI needs two bits for directed rounding to be meaningful).
inline constexpr Precision min_precision = 2;

/// Precision used when the caller does not say: 128 bits (about 38 decimal digits).
inline constexpr Precision default_precision = 128;

/// A closed interval [lo, hi] of reals with MPFR endpoints of a given precision.
///
/// Invariant: lo ≤ hi (MPFI intervals are never empty here; operations that would produce an
/// empty or NaN interval, such as log of a negative interval, throw exactdp::Error). Endpoints
/// may be ±∞ (e.g. the moment of a pair with a catastrophic atom).
/// Binary operations compute at the larger precision of their operands.
class Interval {
public:
  /// The point interval [0, 0] at the default precision.
  Interval();
  /// The point interval [0, 0] at @p precision.
  static Interval zero(Precision precision);
  /// The tightest interval at @p precision that contains the exact rational @p q.
  explicit Interval(const Rational& q, Precision precision = default_precision);
  /// An interval from an integer (exact when representable at @p precision).
  Interval(long n, Precision precision);
  /// The smallest interval at @p precision containing [lo, hi]. Precondition: lo ≤ hi.
  static Interval hull(const Rational& lo, const Rational& hi, Precision precision = default_precision);
  /// [0, +∞] or [x, +∞]: an interval whose upper end is +∞.
  static Interval at_least(const Rational& lo, Precision precision = default_precision);
  /// The point +∞ (used for infinite divergences).
  static Interval infinity(Precision precision = default_precision);

  /// Copies keep the precision of the source.
  Interval(const Interval& other);
  /// A moved-from Interval is still a valid interval ([0, 0] after move construction, the
  /// target's old value after move assignment), never NaN.
  Interval(Interval&& other) noexcept;
  /// Copy assignment; the target takes the precision of the source (an exact copy).
  Interval& operator=(const Interval& other);
  /// Move assignment (a swap: the source receives the target's old value).
  Interval& operator=(Interval&& other) noexcept;
  ~Interval();

  /// The precision (bits) of both endpoints.
  Precision precision() const;

  /// The lower endpoint as an exact rational. Precondition: it is finite.
  Rational lower() const;
  /// The upper endpoint as an exact rational. Precondition: it is finite.
  Rational upper() const;
  /// True unless the lower endpoint is −∞ (or +∞, for Interval::infinity()).
  bool lower_is_finite() const;
  /// True unless the upper endpoint is +∞.
  bool upper_is_finite() const;

  /// True when the exact rational @p q lies in [lo, hi] (exact comparison, no rounding).
  bool contains(const Rational& q) const;
  /// True when [lo, hi] ⊆ other.
  bool subset_of(const Interval& other) const;
  /// An exact rational upper bound on hi − lo (hi − lo rounded up).
  /// Throws exactdp::Error when an endpoint is infinite: the width is then +∞, which a Rational
  /// cannot hold (a sentinel value would silently pass a "width < tolerance" test).
  Rational width_upper() const;

  /// The lower endpoint written with @p digits significant decimal digits, rounded toward −∞
  /// (so the printed number is ≤ the true lower end). "-inf"/"inf" for infinite ends.
  std::string lower_string(int digits = 17) const;
  /// The upper endpoint, @p digits significant digits, rounded toward +∞.
  std::string upper_string(int digits = 17) const;
  /// "[lo, hi]" with outward-rounded endpoints.
  std::string to_string(int digits = 17) const;

  /// Outward-rounded arithmetic at the larger precision of the operands. Throws exactdp::Error
  /// (field "operands") when the result is undefined (∞ − ∞ and the like), leaving *this unchanged.
  Interval& operator+=(const Interval& b);
  /// See operator+=.
  Interval& operator-=(const Interval& b);
  /// See operator+=.
  Interval& operator*=(const Interval& b);
  /// Division; throws exactdp::Error (field "divisor") if @p b contains 0.
  Interval& operator/=(const Interval& b);
  /// Negation (exact).
  Interval operator-() const;

  friend Interval operator+(Interval a, const Interval& b) { return a += b; }
  friend Interval operator-(Interval a, const Interval& b) { return a -= b; }
  friend Interval operator*(Interval a, const Interval& b) { return a *= b; }
  friend Interval operator/(Interval a, const Interval& b) { return a /= b; }

  /// Raw access for code that calls MPFI directly.
  mpfi_ptr get() { return value_; }
  mpfi_srcptr get() const { return value_; }

private:
  mpfi_t value_;
};

/// Convex hull of two intervals.
Interval hull(const Interval& a, const Interval& b);
/// Interval of max(a, b) over all points (endpointwise maximum).
Interval max(const Interval& a, const Interval& b);
/// Interval of min(a, b) over all points.
Interval min(const Interval& a, const Interval& b);

/// e^x.
Interval exp(const Interval& x);
/// e^x − 1, accurate near 0.
Interval expm1(const Interval& x);
/// Natural logarithm; throws exactdp::Error unless x > 0 (x may touch 0 only if lo > 0).
Interval log(const Interval& x);
/// ln(1 + x); throws unless x > −1.
Interval log1p(const Interval& x);
/// Square root; throws unless x ≥ 0.
Interval sqrt(const Interval& x);
/// x^n for an integer n: the tightest enclosure at x's precision of {ξ^n : ξ ∈ x} (computed
/// endpointwise from the monotonicity of ξ^n on each side of 0, so [−2, 3]^3 = [−8, 27] and
/// [−2, 3]^2 = [0, 9]). x^0 = [1, 1] for every x. Throws exactdp::Error if n < 0 and 0 ∈ x.
Interval pow(const Interval& x, long n);
/// x^y = exp(y·ln x). Throws exactdp::Error unless every point of x is > 0 (a non-positive base
/// has no real power for non-integer y; use pow(x, long) for integer exponents).
Interval pow(const Interval& x, const Interval& y);
/// The error function erf(x) = (2/√π)∫₀ˣ e^{−t²} dt.
Interval erf(const Interval& x);
/// The complementary error function erfc(x) = 1 − erf(x), accurate for large x.
Interval erfc(const Interval& x);
/// The standard normal CDF Φ(x) = erfc(−x/√2)/2.
Interval normal_cdf(const Interval& x);
/// The standard normal quantile Φ⁻¹(p): an enclosure at p's precision of the unique x with
/// Φ(x) = p, for every p in the interval.
///
/// Each end is an approximate root (Newton's method on ln Φ, which is concave because Φ is
/// log-concave) moved outward until a certified evaluation of Φ proves it is on the right side;
/// the result is therefore sound whatever the quality of the approximation, and for a point p
/// only a few units in the last place wide. Upper-tail arguments are handled through
/// Φ⁻¹(p) = −Φ⁻¹(1 − p), so that for p close to 1 the width reflects only the width of p itself
/// (amplified by the slope 1/φ(Φ⁻¹(p))), not a cancellation in 1 − Φ. Throws exactdp::Error (field "p") unless
/// 10^−340 < lo ≤ hi < 1 − 10^−340 (so that the root lies in (−40, 40): Φ(−40) < 10^−349).
Interval normal_quantile(const Interval& p);

}  // namespace exactdp
