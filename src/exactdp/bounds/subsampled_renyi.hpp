/// @file
/// Rényi divergences of Poisson-subsampled mechanisms, certified (issue 20 item 3).
///
/// Under Poisson subsampling at rate q the pair of one use is (A, B) = (qP + (1 − q)Q, Q), with
/// (P, Q) the base pair (amplification/poisson.hpp; "remove" is D_α(A‖B), "add" D_α(B‖A)). For an
/// integer order α ≥ 2 the remove moment is a finite binomial sum (MTZ19, the expansion of
/// ((1 − q) + q·P/Q)^α under Q):
///
///     E_B[(A/B)^α] = Σ_{k=0}^{α} C(α, k)·(1 − q)^{α−k}·q^k·M_k,     M_k = E_Q[(P/Q)^k],
///
/// every term non-negative, so an interval sum encloses it as tightly as its terms. The base
/// moments are closed forms: the Gaussian (μ = Δ/σ) has M_k = e^{k(k−1)μ²/2}; the Laplace
/// mechanism (ε₀ = Δ/b) has M_k = k/(2k−1)·e^{(k−1)ε₀} + (k−1)/(2k−1)·e^{−kε₀} for k ≥ 1 (M17),
/// M_0 = 1. Then D_α = ln E_B[(A/B)^α]/(α − 1).
///
/// **Non-integer orders** are enclosed from the integer ones by two facts that need no series:
/// F(α) = ln E_B[(A/B)^α] is convex in α (Hölder; it is the cumulant generating function of the
/// privacy loss under B) with F(1) = 0, and D_α = F(α)/(α − 1) does not decrease in α (van Erven &
/// Harremoës 2014, Thm 3). For n < α < n + 1:
///
///     F(α) ≤ min((n + 1 − α)F(n) + (α − n)F(n + 1),  (α − 1)F(n + 1)/n)       (chord; monotone)
///     F(α) ≥ max(F(n) + (α − n)(F(n) − F(n − 1)),  (α − 1)F(n)/(n − 1))       (n ≥ 2; tangent chord; monotone)
///
/// and F(α) ≥ 0 for 1 < α < 2. This is an enclosure, not the value: its width is what these two
/// facts allow (a certified tail bound of MTZ19's infinite series for fractional α is not built).
///
/// **Directions.** For the subsampled Gaussian the remove direction is the larger for every α ≥ 1
/// (MTZ19: D_α(N(0,σ²) ‖ (1−q)N(0,σ²) + qN(Δ,σ²)) ≤ D_α((1−q)N(0,σ²) + qN(Δ,σ²) ‖ N(0,σ²))),
/// so "both" (the max) is the remove value. The add direction D_α(B‖A) = ln E_B[(B/A)^{α−1}]/(α−1)
/// has no finite sum and is refused, and so are add and both for the subsampled Laplace mechanism
/// (no dominance between its directions is proved here).
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>

namespace exactdp {

/// ln E_B[(A/B)^α] for an integer α ≥ 2 of the pair (qP + (1 − q)Q, Q), from the base moments
/// M_k = E_Q[(P/Q)^k] (@p base_moment(k) for 2 ≤ k ≤ α; M_0 = M_1 = 1 are not asked). Certified.
/// Preconditions: α ≥ 2, 0 < q ≤ 1 (exactdp::Error naming "alpha", "q").
Interval subsampled_log_moment(unsigned long alpha, const Rational& q,
                               const std::function<Interval(unsigned long)>& base_moment, Precision precision);

/// D_α of the Poisson-subsampled Gaussian mechanism (σ, Δ, rate q) in @p direction, certified:
/// the value at an integer α, an enclosure from the neighbouring integer orders otherwise (file
/// comment). q = 1 is the Gaussian mechanism itself (αΔ²/(2σ²)).
/// Preconditions: α > 1, at most 10 000 (exactdp::Error naming "alpha"); σ, Δ > 0; 0 < q ≤ 1;
/// direction remove or both (add is refused with exactdp::Error naming "direction").
Interval subsampled_gaussian_renyi(const Rational& alpha, const Rational& sigma, const Rational& sensitivity,
                                   const Rational& q, NeighbourDirection direction, Precision precision = default_precision);

/// D_α of the Poisson-subsampled Laplace mechanism (scale b, Δ, rate q), remove direction only
/// (exactdp::Error naming "direction" for add and both when q < 1), as above.
Interval subsampled_laplace_renyi(const Rational& alpha, const Rational& scale, const Rational& sensitivity,
                                  const Rational& q, NeighbourDirection direction, Precision precision = default_precision);

}  // namespace exactdp
