/// @file
/// Non-negative rationals extended with +∞ (likelihood ratios, Rényi moments, least λ).
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <compare>
#include <string>

namespace exactdp {

/// A value in ℚ ∪ {+∞}. Used where a quantity is exact but may be infinite: a likelihood ratio
/// P(y)/Q(y) with Q(y) = 0, a Rényi moment with a catastrophic atom, the least λ for a δ below
/// the catastrophic mass.
class ExtendedRational {
public:
  ExtendedRational() = default;                                      ///< zero
  ExtendedRational(Rational v) : value_(std::move(v)) {}              // NOLINT implicit
  ExtendedRational(long v) : value_(v) {}                             // NOLINT implicit
  static ExtendedRational infinity() {
    ExtendedRational r;
    r.infinite_ = true;
    return r;
  }
  bool is_infinite() const { return infinite_; }
  bool is_finite() const { return !infinite_; }
  /// The finite value. Precondition: is_finite().
  const Rational& value() const { return value_; }

  friend bool operator==(const ExtendedRational& a, const ExtendedRational& b) {
    return a.infinite_ == b.infinite_ && (a.infinite_ || a.value_ == b.value_);
  }
  friend std::strong_ordering operator<=>(const ExtendedRational& a, const ExtendedRational& b) {
    if (a.infinite_ || b.infinite_) return a.infinite_ <=> b.infinite_;
    int c = cmp(a.value_, b.value_);
    return c < 0 ? std::strong_ordering::less : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  }
  /// Product with the convention 0·∞ = 0 (a zero-mass atom stays zero).
  friend ExtendedRational operator*(const ExtendedRational& a, const ExtendedRational& b) {
    if ((a.is_finite() && sgn(a.value_) == 0) || (b.is_finite() && sgn(b.value_) == 0)) return ExtendedRational();
    if (a.infinite_ || b.infinite_) return infinity();
    return ExtendedRational(Rational(a.value_ * b.value_));
  }
  friend ExtendedRational operator+(const ExtendedRational& a, const ExtendedRational& b) {
    if (a.infinite_ || b.infinite_) return infinity();
    return ExtendedRational(Rational(a.value_ + b.value_));
  }

private:
  Rational value_{0};
  bool infinite_ = false;
};

/// "p/q", or "inf" for +∞ (the JSON format of exact values).
inline std::string to_string(const ExtendedRational& x) { return x.is_infinite() ? "inf" : to_string(x.value()); }

}  // namespace exactdp
