/// @file
/// Hockey-stick divergence and privacy profiles (THEOREMS.md A.1, B.3, B.6).
#pragma once

#include "exactdp/divergence/piecewise_linear.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"

#include <vector>

namespace exactdp {

/// H_λ(P‖Q) = Σ_y (P(y) − λQ(y))⁺ = max_S P(S) − λQ(S), exactly. Precondition: λ ≥ 0.
Rational hockey_stick(const PrivacyLoss& loss, const Rational& lambda);

/// The maximising event of H_λ(P‖Q): the atoms with ratio > λ (S* of A.1), as the pair
/// (P(S*), Q(S*)); H_λ = P(S*) − λ·Q(S*).
std::pair<Rational, Rational> hockey_stick_event(const PrivacyLoss& loss, const Rational& lambda);

/// The directional profile λ ↦ H_λ(P‖Q) on all of [0, ∞) as an exact piecewise-linear function:
/// convex, non-increasing, breakpoints at the likelihood ratios, value 1 at λ = 0 and the
/// catastrophic mass P(Q = 0) beyond the largest finite ratio (THEOREMS.md A.1, B.3).
PiecewiseLinear directional_profile(const PrivacyLoss& loss);

/// The privacy profile of a pair or of a mechanism: both directional profiles
/// λ ↦ H_λ(P‖Q) ("forward") and λ ↦ H_λ(Q‖P) ("backward") on [0, ∞), and their maximum
/// δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)), the least δ for which the pair is (ln λ, δ)-indistinguishable.
class PrivacyProfile {
public:
  /// The exact profile of the pair behind @p loss.
  explicit PrivacyProfile(const PrivacyLoss& loss);
  /// A profile from its two directional curves (e.g. the upper envelope over adversaries).
  /// Precondition: both are convex and non-increasing.
  PrivacyProfile(PiecewiseLinear forward, PiecewiseLinear backward);

  const PiecewiseLinear& forward() const { return forward_; }
  const PiecewiseLinear& backward() const { return backward_; }
  /// max(forward, backward), exact.
  PiecewiseLinear symmetric() const { return max(forward_, backward_); }

  /// δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)). Precondition: λ ≥ 0.
  Rational delta(const Rational& lambda) const;
  /// Certified δ at an irrational λ = e^ε given by an enclosure: since δ is non-increasing, the
  /// result contains δ(λ) for every λ in the enclosure.
  Interval delta(const Interval& lambda) const;

  /// The least λ ≥ 1 with δ(λ) ≤ @p delta (e^{PrivLoss(δ)}, THEOREMS.md B.6): an exact rational,
  /// or +∞ when δ is below the catastrophic mass. Precondition: 0 ≤ δ ≤ 1.
  ExtendedRational least_lambda(const Rational& delta) const;
  /// ε = ln(least_lambda(δ)) as a certified interval at @p precision (exact 0 when λ = 1);
  /// throws exactdp::Error if the least λ is infinite (check least_lambda first).
  Interval least_epsilon(const Rational& delta, Precision precision = default_precision) const;

  /// Upper envelope of profiles (pointwise maximum per direction), exact.
  friend PrivacyProfile max(const PrivacyProfile& a, const PrivacyProfile& b);

private:
  PiecewiseLinear forward_, backward_;
};

}  // namespace exactdp
