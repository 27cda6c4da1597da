/// @file
/// Gaussian differential privacy and the Gaussian mechanism (THEOREMS.md B.11). Certified.
///
/// μ-GDP means the trade-off function is at least G_μ(α) = Φ(Φ⁻¹(1−α) − μ). Its privacy profile
/// is δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2), which is decreasing in ε; G_{μ₁} ⊗ G_{μ₂} =
/// G_{√(μ₁² + μ₂²)}. The Gaussian mechanism with sensitivity Δ and noise N(0, σ²) is exactly
/// (Δ/σ)-GDP, Δ²/(2σ²)-zCDP and (α, αΔ²/(2σ²))-RDP; these levels are rational and exact here.
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <span>

namespace exactdp {

/// The privacy profile of μ-GDP: δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2).
///
/// Preconditions: μ > 0 and ε ≥ 0 (every point of the intervals; exactdp::Error naming "mu" /
/// "epsilon"). Guarantee: encloses δ(ε) for every μ and ε in the given intervals, intersected with
/// [0, 1]; its upper end is a sound δ. Source: DRS22 Cor 2.13; BW18 Thm 8 (THEOREMS.md B.11).
Interval gaussian_dp_delta(const Interval& mu, const Interval& epsilon);

/// GDP composition: the composition of μ_i-GDP mechanisms is √(Σμ_i²)-GDP (and this is tight).
/// Preconditions: at least one μ_i, each μ_i ≥ 0. Guarantee: encloses √(Σμ_i²).
/// Source: DRS22 Cor 3.3 (THEOREMS.md A.1, B.11).
Interval gaussian_dp_composition(std::span<const Interval> mus);

/// GDP composition for exact μ_i: Σμ_i² is summed exactly, then one certified square root.
/// Preconditions: at least one μ_i, each μ_i ≥ 0. Source: DRS22 Cor 3.3.
Interval gaussian_dp_composition(std::span<const Rational> mus, Precision precision = default_precision);

/// The GDP level of the Gaussian mechanism: μ = Δ/σ (exact).
/// Preconditions: Δ > 0, σ > 0. Source: DRS22 Thm 2.7 (THEOREMS.md B.11).
Rational gaussian_mechanism_mu(const Rational& sensitivity, const Rational& sigma);

/// The RDP of the Gaussian mechanism at order α: αΔ²/(2σ²) (exact).
/// Preconditions: α > 1, Δ > 0, σ > 0. Source: M17 (Table II), THEOREMS.md B.11.
Rational gaussian_mechanism_rdp(const Rational& alpha, const Rational& sensitivity, const Rational& sigma);

/// The zCDP level of the Gaussian mechanism: ρ = Δ²/(2σ²) (exact).
/// Preconditions: Δ > 0, σ > 0. Source: BS16 Prop 1.6.
Rational gaussian_mechanism_zcdp(const Rational& sensitivity, const Rational& sigma);

/// Controls of gaussian_dp_least_epsilon().
struct GaussianSearchOptions {
  /// Initial working precision; raised (doubling) up to max_precision when an evaluation at a
  /// bisection point cannot be compared with δ.
  Precision precision = default_precision;
  Precision max_precision = 2048;
  /// Stop when the bracket is at most this wide.
  Rational tolerance = pow2(-40);
};

/// The least ε with δ_μ(ε) ≤ δ for μ-GDP, as a certified bracket.
///
/// Bisection with certified evaluations of gaussian_dp_delta() (δ_μ is decreasing in ε). The
/// returned interval [lo, hi] satisfies: δ_μ(lo) > δ certainly (or lo = 0), and δ_μ(hi) ≤ δ
/// certainly; hence the least ε lies in it and hi is a sound ε. Its width is at most
/// options.tolerance unless the precision cap stopped the refinement earlier. If δ_μ(0) ≤ δ the
/// result is [0, 0].
/// Preconditions: μ > 0; δ ∈ (0, 1] (δ = 0 needs ε = ∞: exactdp::Error naming "delta").
/// Source: DRS22 Cor 2.13; BW18 Thm 8 (THEOREMS.md B.11).
Interval gaussian_dp_least_epsilon(const Interval& mu, const Rational& delta, const GaussianSearchOptions& options = {});

}  // namespace exactdp
