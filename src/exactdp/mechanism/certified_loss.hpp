/// @file
/// Privacy-loss distributions whose likelihood ratios are exact but whose masses are certified:
/// the PLD of mechanisms given by ε instead of λ = e^ε (RR_{ε,δ}, the discrete Laplace with
/// r = e^{−ε/Δ}) and of their compositions with exact mechanisms (THEOREMS.md A.1, B.15).
///
/// Every likelihood ratio that arises is c·e^s with rational c > 0 and rational s (or 0, or +∞):
/// an exact mechanism contributes ratios c = P(y)/Q(y) with s = 0, a mechanism given by ε
/// contributes e^{jε}, and products multiply c and add s. By Lindemann–Weierstrass (e^q is
/// irrational for rational q ≠ 0) c·e^s = c′·e^{s′} holds iff c = c′ and s = s′, so the pair
/// (c, s) identifies the ratio exactly: atoms are merged exactly as in exactdp::PrivacyLoss, and
/// the numeric order of two ratios is always decidable (ln(c/c′) ≠ s′ − s unless equal), by
/// decide_log() with escalating precision.
///
/// This type belongs conceptually to the divergence layer; it lives with the mechanisms that
/// need it until the divergence layer offers certified masses.
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <compare>
#include <string>
#include <vector>

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

/// All outcomes of a pair (P, Q) that share one likelihood ratio, with certified masses.
struct CertifiedLossAtom {
  SymbolicRatio ratio;  ///< P(y)/Q(y)
  Interval p;           ///< total P-mass (exactly 0 when the ratio is 0)
  Interval q;           ///< total Q-mass (exactly 0 when the ratio is +∞)
};

/// A privacy-loss distribution with exact likelihood ratios and certified masses.
///
/// Invariants: atoms sorted by numeric ratio ascending with distinct ratios; p = [0, 0] exactly
/// on the ratio-0 atom, q = [0, 0] exactly on the ratio-∞ atom; no mass is certainly negative;
/// the certified totals Σp and Σq contain 1.
class CertifiedLoss {
public:
  /// The same pair with its exact masses enclosed at @p precision (ratios kept exactly).
  static CertifiedLoss from_exact(const PrivacyLoss& loss, Precision precision = default_precision);
  /// From atoms in any order; equal ratios are merged, then sorted. Throws exactdp::Error
  /// (naming @p context) if an invariant fails or a ratio comparison stays undecided at the
  /// precision cap.
  static CertifiedLoss from_atoms(std::vector<CertifiedLossAtom> atoms, const std::string& context = "pair");

  const std::vector<CertifiedLossAtom>& atoms() const { return atoms_; }
  std::size_t size() const { return atoms_.size(); }
  /// The largest precision of the masses.
  Precision precision() const;

  /// The loss of the reversed pair (Q, P).
  CertifiedLoss swapped() const;
  /// The loss of the product pair: ratios multiply exactly, masses multiply (certified), equal
  /// ratios merged (THEOREMS.md A.1, "The PLD of a product pair").
  friend CertifiedLoss compose(const CertifiedLoss& a, const CertifiedLoss& b);
  /// The k-fold self-composition (k ≥ 0). When every finite ratio is e^{e·g} for integers e and
  /// one rational g > 0 (coefficient 1: rr, krr and dlaplace given by ε, and their compositions),
  /// the P- and Q-masses are the coefficients of two polynomials raised to the k-th power with
  /// numeric/certified_convolution.hpp's certified_power (quasi-linear; each mass the intersection
  /// of its own enclosure and the other world's times the exact ratio); otherwise
  /// self_compose_by_squaring(). Both enclose the same masses.
  CertifiedLoss self_compose(unsigned long k) const;
  /// The k-fold self-composition by repeated squaring of compose() — the reference route.
  CertifiedLoss self_compose_by_squaring(unsigned long k) const;

  /// H_λ(P‖Q) = Σ (P(y) − λQ(y))⁺ for every λ in the enclosure (λ ≥ 0), certified.
  Interval hockey_stick(const Interval& lambda) const;
  /// δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)), certified.
  Interval delta(const Interval& lambda) const;
  /// δ(e^ε) for every ε in the enclosure (ε ≥ 0), certified.
  Interval delta_at_epsilon(const Interval& epsilon) const;

  /// The least ε ≥ 0 with δ(e^ε) ≤ @p delta, certified: since H_λ(P‖Q) = max(0, max over
  /// suffixes S of the ratio order of P(S) − λQ(S)), the least λ for one direction is
  /// max(1, max_S (P(S) − δ)/Q(S)) over suffixes with Q(S) > 0, and +∞ when the catastrophic
  /// mass P(Q = 0) exceeds δ. Returns the point +∞ when no finite ε exists, and an interval with
  /// upper end +∞ when that cannot be told apart at this precision (catastrophic mass ≈ δ).
  /// Precondition: 0 ≤ δ ≤ 1 (exactdp::Error naming "delta").
  Interval least_epsilon(const Rational& delta) const;
  /// The same for one direction (divergence/direction.hpp): remove is H(P‖Q), add is H(Q‖P),
  /// both is least_epsilon(delta).
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction) const;

  /// D_α(P‖Q) = ln(Σ_{P>0} P^α Q^{1−α})/(α − 1) for rational α > 1, certified; the point +∞ if
  /// some atom has P > 0 = Q. Precondition: α > 1 (exactdp::Error naming "alpha").
  Interval renyi_divergence(const Rational& alpha) const;

private:
  explicit CertifiedLoss(std::vector<CertifiedLossAtom> atoms) : atoms_(std::move(atoms)) {}
  /// The least λ for the direction (P, Q) (see least_epsilon).
  Interval least_lambda_one_direction(const Rational& delta) const;
  std::vector<CertifiedLossAtom> atoms_;
};

}  // namespace exactdp
