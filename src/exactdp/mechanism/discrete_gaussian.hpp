/// @file
/// The discrete Gaussian N_ℤ(0, σ²) and the (clamped) discrete Gaussian mechanism with integer
/// sensitivity, certified (THEOREMS.md D.4, B.11, B.14; CKS20 = Canonne–Kamath–Steinke 2020,
/// "The Discrete Gaussian for Differential Privacy").
///
/// Pr[Z = x] = e^{−x²/(2σ²)}/θ(0) with θ(s) = Σ_{x∈ℤ} e^{−(x−s)²/(2σ²)}. The masses are
/// irrational, so every quantity here is an exactdp::Interval computed from finite sums plus a
/// rigorous bound on the omitted tail.
///
/// **Certified truncation (derivation).** Every infinite sum used is of the form
/// G(a) = Σ_{j≥0} e^{−(a+j)²/(2σ²)} with rational a ≥ 0 (θ(s) = G(f) + G(1 − f) with
/// f = s − ⌊s⌋, and Σ_{x≥m} e^{−x²/(2σ²)} = G(m)). We sum j = 0..B exactly (each term a certified
/// exp) and enclose the rest in [0, R] with, for n = a + B + 1 > 0,
///
///     Σ_{j≥0} e^{−(n+j)²/(2σ²)} ≤ e^{−n²/(2σ²)} · Σ_{j≥0} e^{−nj/σ²} = e^{−n²/(2σ²)} / (1 − e^{−n/σ²}),
///
/// because (n+j)² ≥ n² + 2nj: a geometric series. B is chosen so that R is below 2^{−precision}
/// relative to the first term, (B+1)² ≥ 1.4·σ²·(precision + 8 + log₂(σ²+1)), using
/// 1/(1 − e^{−x}) ≤ 1 + 1/x; that choice only affects the width, never soundness.
#pragma once

#include "exactdp/dist/dist.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

namespace exactdp {

/// The noise N_ℤ(0, σ²) with certified masses and tails at a fixed working precision.
///
/// A regular value type; construction computes the truncation length and θ(0) once.
class DiscreteGaussianNoise {
public:
  /// Largest number of terms a single certified sum may take (about 15σ are needed at the
  /// default precision, so σ up to about 2.5·10⁵; each term is one certified exp).
  static constexpr unsigned long max_terms = 1UL << 22;

  /// Preconditions: σ² > 0 (exactdp::Error naming "sigma2"), and σ² small enough that a sum needs
  /// at most max_terms terms (exactdp::Error naming "sigma2" otherwise).
  explicit DiscreteGaussianNoise(const Rational& sigma2, Precision precision = default_precision);

  const Rational& sigma2() const { return sigma2_; }
  Precision precision() const { return precision_; }
  /// Number of exactly summed terms in each certified sum (B + 1).
  unsigned long terms() const { return terms_; }

  /// θ(s) = Σ_{x∈ℤ} e^{−(x−s)²/(2σ²)} for rational s, certified (θ is 1-periodic and even).
  Interval theta(const Rational& shift) const;
  /// θ(0), the normalising constant.
  const Interval& normaliser() const { return theta0_; }
  /// Pr[Z = x] = e^{−x²/(2σ²)}/θ(0), certified.
  Interval mass(long x) const;
  /// Pr[Z ≥ m] for any integer m, certified (relative accuracy is kept deep in the tail).
  Interval upper_tail(long m) const;

private:
  /// G(a) = Σ_{j≥0} e^{−(a+j)²/(2σ²)} for rational a ≥ 0 (see the file comment).
  Interval shifted_tail_sum(const Rational& a) const;

  Rational sigma2_;
  Precision precision_;
  unsigned long terms_;
  Interval theta0_;
};

/// The clamped discrete Gaussian mechanism's output law clamp(v + Z, lo, hi), Z ~ N_ℤ(0, σ²):
/// interior outcomes carry Pr[Z = k − v], the endpoints the certified tails Pr[Z ≤ lo − v] and
/// Pr[Z ≥ hi − v] (THEOREMS.md D.4, B.14: clamp, never renormalise). The certified total
/// contains 1.
///
/// Preconditions: those of DiscreteGaussianNoise and of discrete_laplace() for the window.
Dist<long, Interval> discrete_gaussian(const Rational& sigma2, long value, long lo, long hi,
                                       Precision precision = default_precision);

/// The pair of query values 0 and Δ released through the clamped mechanism above. Unlike the
/// discrete Laplace (X-CLAMP-EXACT), clamping a Gaussian merges atoms of different likelihood
/// ratios, so the clamped pair is only *more* private than the mechanism; it converges to it as
/// the window grows (the omitted mass is bounded by the endpoint masses).
/// Preconditions: as discrete_gaussian(), and 1 ≤ Δ ≤ max_table_outcomes.
NeighbouringPair<long, Interval> discrete_gaussian_pair(const Rational& sigma2, unsigned long sensitivity, long lo,
                                                       long hi, Precision precision = default_precision);

/// The exact privacy profile of the (unclamped) discrete Gaussian mechanism with integer
/// sensitivity Δ, certified:
///
///     δ(ε) = Pr[Y > εσ²/Δ − Δ/2] − e^ε·Pr[Y > εσ²/Δ + Δ/2],   Y ~ N_ℤ(0, σ²)
///
/// (CKS20, the exact (ε, δ) guarantee of the discrete Gaussian; THEOREMS.md B.11), the same in both directions by symmetry: the likelihood ratio
/// P(y)/Q(y) = e^{(Δ² − 2yΔ)/(2σ²)} exceeds e^ε exactly for y < Δ/2 − εσ²/Δ.
///
/// Preconditions: ε ≥ 0 (exactdp::Error naming "epsilon"); 1 ≤ Δ ≤ max_table_outcomes; σ² as in
/// DiscreteGaussianNoise. Guarantee: contains δ(ε), intersected with [0, 1].
Interval discrete_gaussian_delta(const Rational& sigma2, unsigned long sensitivity, const Rational& epsilon,
                                 Precision precision = default_precision);

/// The same for every ε in an enclosure: since δ is non-increasing in ε, the hull of δ at the
/// two (rational) endpoints. Preconditions: as above, finite endpoints.
Interval discrete_gaussian_delta(const Rational& sigma2, unsigned long sensitivity, const Interval& epsilon,
                                 Precision precision = default_precision);

/// The least ε ≥ 0 with δ(ε) ≤ @p delta for the discrete Gaussian mechanism (profile of
/// discrete_gaussian_delta()), as a certified bracket [lo, hi]: δ(hi) ≤ δ is certain, and lo = 0
/// or δ(lo) > δ is certain, so the least ε lies in it and hi is a sound ε. Found by doubling, then
/// bisection at dyadic rationals until the bracket is at most 2^−60·max(1, hi) wide or an
/// evaluation cannot be compared with δ at this precision. δ = 0 gives the point +∞ (the
/// likelihood ratio is unbounded, so δ(ε) > 0 for every ε).
/// Preconditions: as discrete_gaussian_delta(), 0 ≤ δ ≤ 1 (exactdp::Error naming "delta").
Interval discrete_gaussian_least_epsilon(const Rational& sigma2, unsigned long sensitivity, const Rational& delta,
                                         Precision precision = default_precision);

/// The Rényi divergence D_α(N_ℤ(0,σ²) ‖ N_ℤ(Δ,σ²)) (equal in both directions) for rational α > 1,
/// certified, via θ-sums:
///
///     D_α = αΔ²/(2σ²) + (1/(α−1))·ln(θ((1−α)Δ)/θ(0))
///
/// (CKS20, the exact Rényi divergence for integer sensitivity; THEOREMS.md B.11). Since θ(s) ≤ θ(0) with equality iff s ∈ ℤ,
/// D_α = αΔ²/(2σ²) exactly when (α−1)Δ is an integer and is strictly smaller otherwise.
/// Preconditions: α > 1 (exactdp::Error naming "alpha"), 1 ≤ Δ ≤ max_table_outcomes, σ² as in
/// DiscreteGaussianNoise.
Interval discrete_gaussian_renyi(const Rational& sigma2, unsigned long sensitivity, const Rational& alpha,
                                 Precision precision = default_precision);

/// The zCDP level ρ = Δ²/(2σ²) of the discrete Gaussian mechanism (exact; CKS20; THEOREMS.md B.11, D.4).
/// Preconditions: σ² > 0, Δ ≥ 1.
Rational discrete_gaussian_zcdp(const Rational& sigma2, unsigned long sensitivity);

}  // namespace exactdp
