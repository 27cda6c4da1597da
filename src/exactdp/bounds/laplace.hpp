/// @file
/// The continuous Laplace mechanism (scale b, sensitivity Δ): its privacy profile and its RDP,
/// certified; for comparison with accountants (THEOREMS.md B.11). With ε₀ = Δ/b it is ε₀-DP.
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

namespace exactdp {

/// The pure-DP level ε₀ = Δ/b of the Laplace mechanism (exact; this is ε itself, not λ = e^ε).
/// Preconditions: b > 0, Δ > 0 (exactdp::Error naming "scale"/"sensitivity"). Source: DMNS06.
Rational laplace_mechanism_epsilon(const Rational& scale, const Rational& sensitivity);

/// The privacy profile of the Laplace mechanism: δ(ε) = 1 − e^{(ε − ε₀)/2} for 0 ≤ ε ≤ ε₀ and 0
/// beyond, ε₀ = Δ/b (H_{e^ε}(Lap(0,b) ‖ Lap(Δ,b)), the same in both directions).
///
/// Preconditions: b > 0, Δ > 0, ε ≥ 0 (every point of the interval). Guarantee: encloses δ(ε) for
/// every ε in @p epsilon; its upper end is a sound δ. Source: THEOREMS.md B.11 (continuous Laplace).
Interval laplace_dp_delta(const Rational& scale, const Rational& sensitivity, const Interval& epsilon);

/// The Rényi divergence of order α between Lap(0,b) and Lap(Δ,b):
/// (1/(α−1))·ln(α/(2α−1)·e^{(α−1)ε₀} + (α−1)/(2α−1)·e^{−αε₀}), ε₀ = Δ/b.
///
/// Preconditions: α > 1, b > 0, Δ > 0. Guarantee: encloses the value, computed at @p precision.
/// Source: M17 (Table II), THEOREMS.md B.11.
Interval laplace_mechanism_rdp(const Rational& alpha, const Rational& scale, const Rational& sensitivity,
                               Precision precision = default_precision);

/// The least ε ≥ 0 with δ(ε) ≤ δ for the continuous Laplace mechanism (scale b, sensitivity Δ,
/// ε₀ = Δ/b), inverting δ(ε) = 1 − e^{(ε−ε₀)/2} on [0, ε₀] (THEOREMS.md B.11; the profile itself
/// is exactdp::laplace_dp_delta() above): max(0, ε₀ + 2·ln(1 − δ)), and ε₀ for δ = 0.
///
/// Preconditions: b > 0, Δ > 0, 0 ≤ δ ≤ 1 (exactdp::Error naming "scale", "sensitivity",
/// "delta"). Guarantee: contains the least ε.
Interval laplace_least_epsilon(const Rational& scale, const Rational& sensitivity, const Rational& delta,
                               Precision precision = default_precision);

}  // namespace exactdp
