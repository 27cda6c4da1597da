/// @file
/// Likelihood ratios held exactly as c·e^s (rational c > 0 and s), 0 or +∞: the ratios of the
/// privacy-loss distributions of mechanisms given by ε instead of λ = e^ε (RR_{ε,δ}, the discrete
/// Laplace with r = e^{−ε/Δ}) and of their compositions with exact mechanisms (THEOREMS.md A.1, B.15).
///
/// An exact mechanism contributes ratios c = P(y)/Q(y) with s = 0, a mechanism given by ε
/// contributes e^{jε}, and products multiply c and add s. By Lindemann–Weierstrass (e^q is
/// irrational for rational q ≠ 0) c·e^s = c′·e^{s′} holds iff c = c′ and s = s′, so the pair
/// (c, s) identifies the ratio exactly, and the numeric order of two ratios is always decidable
/// (ln(c/c′) ≠ s′ − s unless equal), by decide_log() with escalating precision.
#pragma once

#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <string>

namespace exactdp {

/// A likelihood ratio held exactly: 0, +∞, or c·e^s with rational c > 0 and rational s.
/// The representation is canonical (see the file comment), so == is equality of real numbers.
class SymbolicRatio {
public:
  /// The ratio 1.
  SymbolicRatio() = default;
  static SymbolicRatio zero();
  static SymbolicRatio infinity();
  /// c·e^s. Precondition: c > 0 (exactdp::Error naming "c" otherwise).
  static SymbolicRatio exponential(const Rational& c, const Rational& s = 0);
  /// The exact ratio of a PrivacyLoss atom (0, +∞ or a positive rational).
  static SymbolicRatio of(const ExtendedRational& ratio);

  bool is_zero() const { return kind_ == Kind::zero; }
  bool is_infinite() const { return kind_ == Kind::infinite; }
  bool is_positive_finite() const { return kind_ == Kind::finite; }
  /// c and s of c·e^s. Precondition: is_positive_finite().
  const Rational& coefficient() const { return c_; }
  const Rational& exponent() const { return s_; }

  /// An enclosure of the ratio (exact points for 0 and rationals, the point +∞ for +∞).
  Interval enclosure(Precision precision = default_precision) const;
  /// 1/r (0 and +∞ swap; (1/c)·e^{−s} otherwise).
  SymbolicRatio inverse() const;
  /// The product (0·∞ is not a ratio: exactdp::Error; such products come from atoms of zero
  /// mass in both worlds and are dropped by compose()).
  friend SymbolicRatio operator*(const SymbolicRatio& a, const SymbolicRatio& b);

  /// "0", "inf", "3/2", "e^(1/2)", "3/2·e^(-1/2)".
  std::string to_string() const;

  friend bool operator==(const SymbolicRatio&, const SymbolicRatio&) = default;
  /// A storage order (by kind, then c, then s) for merging equal ratios — not the numeric order.
  struct StorageLess {
    bool operator()(const SymbolicRatio& a, const SymbolicRatio& b) const;
  };

private:
  enum class Kind { zero, finite, infinite };
  Kind kind_ = Kind::finite;
  Rational c_{1};
  Rational s_{0};
};

/// Numeric comparison a < b of two ratios, decided exactly when possible (equal kinds or equal
/// coefficients or exponents) and otherwise by decide_log() on ln(c_a/c_b) < s_b − s_a, which
/// terminates unless the precision cap of @p options is reached (THEOREMS.md B.15).
Decision decide_ratio_less(const SymbolicRatio& a, const SymbolicRatio& b, const DecideOptions& options = {});

}  // namespace exactdp
