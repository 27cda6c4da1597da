/// @file
/// One use of the Poisson-subsampled Laplace mechanism in closed form, certified, in either
/// direction and at every ε (ε < 0 included).
///
/// With the record the output is A = q·Lap(Δ, b) + (1 − q)·Lap(0, b), without it B = Lap(0, b)
/// (amplification/poisson.hpp: remove is H(A‖B), add H(B‖A)); ε₀ = Δ/b, λ = e^ε. The base pair's
/// hockey-stick is H_{e^t}(Lap(Δ)‖Lap(0)) = 1 − e^{(t−ε₀)/2} for |t| ≤ ε₀ (its loss is
/// ε₀ − 2x/b clamped to [−ε₀, ε₀], so P(L > t) = 1 − e^{(t−ε₀)/2}/2 and Q(L > t) = e^{−(t+ε₀)/2}/2),
/// 1 − e^t below and 0 above. Writing A − λB = q·(Lap(Δ) − c·Lap(0)) with c = (λ − 1 + q)/q gives
///
///     remove  H_λ(A‖B) = q·(1 − min(c, √(c·e^{−ε₀})))⁺        (√ of c⁺; for c ≤ 0 it is 1 − λ)
///
/// and B − λA = λq·(c′·Lap(0) − Lap(Δ)) with c′ = (1/λ − 1 + q)/q gives
///
///     add     H_λ(B‖A) = λq·(c′ − min(1, √(c′·e^{−ε₀})))⁺       (0 for c′ ≤ 0)
///
/// (the three regimes c ≤ e^{−ε₀}, e^{−ε₀} ≤ c ≤ e^{ε₀}, c ≥ e^{ε₀} of each are one expression: the
/// min picks the right branch and the two branches meet continuously). Derived by hand for this
/// project; checked against the certified grid bracket (a second algorithm) and a 50-digit
/// quadrature in the tests.
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <string>

namespace exactdp {

/// A validated Poisson-subsampled Laplace mechanism: scale b > 0, sensitivity Δ > 0, rate
/// 0 < q ≤ 1 (q = 1 is the Laplace mechanism). A regular value type.
class SubsampledLaplace {
public:
  /// Validates (exactdp::Error naming "b", "sensitivity" or "q" with the offending value).
  SubsampledLaplace(const Rational& b, const Rational& sensitivity, const Rational& q);

  const Rational& scale() const { return b_; }
  const Rational& sensitivity() const { return sensitivity_; }
  const Rational& rate() const { return q_; }
  /// One line for reports.
  std::string describe() const;

  /// δ(ε) of one use in @p direction (file comment), certified at @p precision; both is the max of
  /// the two. Any rational ε.
  Interval delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction,
                            Precision precision = default_precision) const;
  /// The same over an enclosure of ε (δ is non-increasing in ε): [δ₋(ε₊), δ₊(ε₋)].
  /// Precondition: finite ends (exactdp::Error naming "epsilon").
  Interval delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const;
  /// The least ε ≥ 0 with δ(ε) ≤ δ in @p direction, by bisection (bounds/least_epsilon.hpp) to
  /// @p width: the loss is bounded (|L| ≤ ln(q·e^{ε₀} + 1 − q) remove, ≤ −ln(1 − q + q·e^{−ε₀})
  /// add), so every δ ∈ [0, 1] has a finite least ε. Preconditions: 0 ≤ δ ≤ 1, width > 0.
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction, const Rational& width,
                         Precision precision = default_precision) const;

  friend bool operator==(const SubsampledLaplace&, const SubsampledLaplace&) = default;

private:
  Rational b_, sensitivity_, q_;
};

}  // namespace exactdp
