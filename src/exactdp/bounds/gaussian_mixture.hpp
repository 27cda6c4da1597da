/// @file
/// The Gaussian mixture mechanism (dp-accounting's MixtureGaussianPrivacyLoss): the record's
/// contribution is c_i with probability w_i, so with it the output is M = Σ w_i·N(c_i, σ²) and
/// without it N = N(0, σ²). Its profile for one use, certified, in either direction.
///
/// With every c_i ≥ 0 and some c_i > 0 the privacy loss L(x) = ln(M(x)/N(x)) =
/// ln Σ w_i·e^{(c_i x − c_i²/2)/σ²} is strictly increasing in x, from ln w₀ (w₀ the weight of
/// c = 0, −∞ when there is none) to +∞. Hence for λ = e^ε the optimal event of the hockey-stick
/// divergence is a half-line, and with x* the root of L(x*) = ε and x′ that of L(x′) = −ε:
///
///     remove  H_λ(M‖N) = Σ w_i·Φ((c_i − x*)/σ) − λ·Φ(−x*/σ)     (1 − λ when ε ≤ ln w₀)
///     add     H_λ(N‖M) = Φ(x′/σ) − λ·Σ w_i·Φ((x′ − c_i)/σ)      (0 when −ε ≤ ln w₀)
///
/// Certified without an enclosure of the root's effect on the value: f(x) = M(X > x) − λ·N(X > x)
/// has f′(x) = λN(x) − M(x), positive below x* and negative above, so H_λ = max_x f(x) = f(x*) and
/// an interval evaluation of f over a certified bracket of x* encloses it (the same for add).
/// The bracket comes from bisection on rational points whose loss is decided with MPFI.
///
/// One component {(Δ, 1)} is the Gaussian mechanism (μ = Δ/σ GDP); {(0, 1 − q), (Δ, q)} is the
/// Poisson-subsampled Gaussian (amplification/poisson.hpp): its remove pair is (M, N) and its add
/// pair (N, M), the orientation dp-accounting calls REMOVE and ADD.
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <string>
#include <vector>

namespace exactdp {

/// One component of a Gaussian mixture: sensitivity c ≥ 0 with probability w > 0.
struct MixtureComponent {
  Rational sensitivity;
  Rational weight;
  friend bool operator==(const MixtureComponent&, const MixtureComponent&) = default;
};

/// A validated Gaussian mixture mechanism: σ > 0 and components with c ≥ 0, w > 0, Σw = 1 exactly
/// and some c > 0; equal sensitivities merged, sorted by sensitivity. A regular value type.
class GaussianMixture {
public:
  /// Validates (exactdp::Error naming "sigma", "sensitivity", "weight" with the offending value,
  /// or "weights" when they do not sum to exactly 1, or "sensitivities" when every c is 0).
  GaussianMixture(const Rational& sigma, std::vector<MixtureComponent> components);

  const Rational& sigma() const { return sigma_; }
  const std::vector<MixtureComponent>& components() const { return components_; }
  /// The weight of sensitivity 0 (0 when there is none).
  Rational zero_weight() const;
  /// One line for reports.
  std::string describe() const;

  /// The privacy loss L(x) = ln Σ w_i e^{(c_i x − c_i²/2)/σ²} at a rational output x, certified
  /// (strictly increasing in x; file comment).
  Interval loss(const Rational& x, Precision precision = default_precision) const;
  /// Pr_M[X ≤ t] = Σ w_i Φ((t − c_i)/σ) over every t of the enclosure (@p upper_tail: Pr_M[X > t]).
  Interval cdf(const Interval& t, bool upper_tail = false) const;

  /// δ(ε) in @p direction of one use (file comment), certified at @p precision; both is the max of
  /// the two. Any rational ε (ε < 0 included: the formulas hold for every λ > 0).
  Interval delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction,
                            Precision precision = default_precision) const;
  /// The same over an enclosure of ε (δ is non-increasing in ε): [δ₋(ε₊), δ₊(ε₋)].
  /// Precondition: finite ends (exactdp::Error naming "epsilon").
  Interval delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const;

  /// The least ε ≥ 0 with δ(ε) ≤ δ in @p direction, certified by bisection on rational ε of the
  /// certified δ(ε) until the bracket is at most @p width wide: the point +∞ for δ = 0 in the
  /// remove and both directions (the remove loss is unbounded above), 0 when δ(0) ≤ δ.
  /// Preconditions: 0 ≤ δ ≤ 1, width > 0.
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction, const Rational& width,
                         Precision precision = default_precision) const;

  friend bool operator==(const GaussianMixture&, const GaussianMixture&) = default;

private:
  Rational sigma_;
  std::vector<MixtureComponent> components_;
};

}  // namespace exactdp
