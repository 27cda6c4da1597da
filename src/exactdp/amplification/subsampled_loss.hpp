/// @file
/// One use of a Poisson-subsampled mechanism whose base pair is given by a privacy-loss
/// distribution with certified masses (exactdp::CertifiedLoss): the discrete Laplace mechanism with
/// an irrational r = e^{−a}, randomized response given by ε, the truncated discrete Gaussian.
///
/// Subsampling at rate q maps an atom of ratio r (masses p, q′) to one of ratio q·r + 1 − q with
/// masses (q·p + (1−q)·q′, q′) in the remove direction (A, B) = (q·P + (1−q)·Q, Q), and to its
/// inverse in the add direction (B, A) (amplification/poisson.hpp states which pair this is). With
/// r = c·e^s irrational the new ratio is no longer of the form c·e^s, so it cannot be a
/// CertifiedLoss atom; but r ↦ q·r + 1 − q is increasing, so the base atoms' (exact) ratio order
/// is the order of the subsampled ratios, and that order is all the hockey-stick divergence and the
/// least ε by suffixes (THEOREMS.md A.1) need. Masses are certified intervals, so every answer is a
/// certified enclosure whose width is set by the working precision, not by a grid.
///
/// The Rényi divergence of one use is the same finite sum over these atoms, Σ_{A>0} A^α B^{1−α}
/// (remove; B^α A^{1−α} for add): the base pair is finite (the discrete Laplace pair is the clamped
/// one, whose loss distribution is the unclamped one's, THEOREMS.md B.14), so no series and no tail
/// bound are needed, and every rational order α > 1 — not only the integers — gets a certified
/// value in both directions. Rényi divergences add under composition, so k uses are k times this.
///
/// Compositions of several uses are answered by the fast certified convolution instead
/// (compose/fast_convolution.hpp, with a sampling rate), whose grid needs only enclosures of the
/// losses.
#pragma once

#include "exactdp/divergence/neighbour_direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <vector>

namespace exactdp {

/// The Poisson-subsampled pair of one use of a certified base pair, both directions.
/// A regular value type.
class SubsampledCertifiedLoss {
public:
  /// Precondition: 0 < q ≤ 1 (exactdp::Error naming "q").
  SubsampledCertifiedLoss(const CertifiedLoss& base, const Rational& q);

  const Rational& rate() const { return rate_; }

  /// H_λ in @p direction (remove: H_λ(A‖B), add: H_λ(B‖A), both: the max) for every λ ≥ 0 in the
  /// enclosure, certified (any sign of ε = ln λ). Precondition: λ ≥ 0 (exactdp::Error "lambda").
  Interval delta(const Interval& lambda, NeighbourDirection direction = NeighbourDirection::both) const;
  /// δ at every ε of the finite enclosure (any sign), certified.
  Interval delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction = NeighbourDirection::both) const;
  /// The least ε ≥ 0 with δ(ε) ≤ @p delta in @p direction, certified as CertifiedLoss::least_epsilon:
  /// the point +∞ when no finite ε exists, an upper end +∞ when that cannot be decided.
  /// Precondition: 0 ≤ δ ≤ 1 (exactdp::Error naming "delta").
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction = NeighbourDirection::both) const;

  /// D_α in @p direction (remove: D_α(A‖B), add: D_α(B‖A), both: the max) for a rational order
  /// α > 1, certified: ln(Σ_{A>0} A^α B^{1−α})/(α − 1) over the atoms of that direction (file
  /// comment); the point +∞ when an atom has mass in the first law only (an outcome of the
  /// sampled record that the other law cannot produce). Precondition: α > 1 (exactdp::Error naming
  /// "alpha").
  Interval renyi_divergence(const Rational& alpha, NeighbourDirection direction = NeighbourDirection::both) const;

  friend bool operator==(const SubsampledCertifiedLoss&, const SubsampledCertifiedLoss&) = default;

private:
  /// One atom of one direction: masses (p, q) of the pair in that direction; `infinite` when q is
  /// exactly 0 (an outcome of the first law only), `null` when p is exactly 0.
  struct Point {
    Interval p, q;
    bool infinite = false;
    bool null = false;
    friend bool operator==(const Point&, const Point&) = default;
  };
  Interval hockey_stick(const std::vector<Point>& points, const Interval& lambda) const;
  Interval least_lambda(const std::vector<Point>& points, const Rational& delta) const;
  Interval renyi(const std::vector<Point>& points, const Rational& alpha) const;

  Rational rate_;
  Precision precision_ = default_precision;
  std::vector<Point> remove_;  ///< (A, B), ascending likelihood ratio
  std::vector<Point> add_;     ///< (B, A), ascending likelihood ratio
};

}  // namespace exactdp
