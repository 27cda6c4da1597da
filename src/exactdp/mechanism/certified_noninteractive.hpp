/// @file
/// Noninteractive mechanisms whose tables are irrational because they are given by ε rather than
/// by λ = e^ε (THEOREMS.md §0.3, B.15): randomized response RR_{ε,δ} and the discrete Laplace
/// mechanism with r = e^{−ε/Δ}, as certified privacy-loss distributions; the KOV15 optimal
/// composition of RR over certified λ. (The inverse of the continuous Laplace profile,
/// exactdp::laplace_least_epsilon(), is with that profile in bounds/laplace.hpp.)
///
/// For rational λ (or r) use the exact tables of noninteractive.hpp instead.
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

namespace exactdp {

/// The PLD of (RR_{ε,δ}(0), RR_{ε,δ}(1)) with certified masses: ratio +∞ with P-mass δ,
/// ratio e^ε with masses ((1−δ)/(1+e^{−ε}), (1−δ)/(1+e^ε)), ratio e^{−ε} with the swapped masses,
/// ratio 0 with Q-mass δ (THEOREMS.md A.2 table, λ = e^ε).
///
/// Preconditions: ε ≥ 0, 0 ≤ δ ≤ 1 (exactdp::Error naming "epsilon", "delta").
CertifiedLoss randomized_response_loss(const Rational& epsilon, const Rational& delta,
                                       Precision precision = default_precision);

/// δ_opt(λ_g) of the k-fold composition of RR_{ln λ, δ}, i.e. the exact privacy profile of
/// ⊗^k RR_{ln λ,δ} and the least δ for which every k-fold composition of (ln λ, δ)-DP
/// mechanisms is (ln λ_g, δ)-DP, evaluated over enclosures:
///
///     δ_RR  = (1/(1+λ)^k)·Σ_{j=0}^{k} C(k,j)·(λ^j − λ_g·λ^{k−j})⁺,
///     δ_opt = 1 − (1−δ)^k·(1 − δ_RR)
///
/// (KOV15 Thm 3.3; THEOREMS.md B.11 OPT-COMP, equal λ_i). The terms are the binomial masses
/// C(k,j)p^j(1−p)^{k−j}, p = λ/(1+λ), updated by exact ratios, so the cost is O(k) interval
/// operations. This is the certified counterpart of exactdp::optimal_composition_delta() (exact,
/// rational λ) for an irrational λ = e^ε.
///
/// Preconditions: every point of λ ≥ 1, 0 ≤ δ ≤ 1, k ≥ 1, every point of λ_g ≥ 0
/// (exactdp::Error naming "lambda", "delta", "k", "lambda_g"). Guarantee: contains δ_opt(λ_g)
/// for every λ and λ_g in the enclosures (intersected with [0, 1]).
Interval randomized_response_composition_delta(const Interval& lambda, const Rational& delta, unsigned long k,
                                               const Interval& lambda_g);

/// The least ε_g ≥ 0 such that the k-fold composition of RR_{ln λ,δ} is (ε_g, δ_g)-DP (equivalently,
/// by KOV15, the optimal ε_g for k-fold composition of (ln λ, δ)-DP mechanisms), certified.
///
/// With t = 1 − (1−δ_g)/(1−δ)^k there is no finite ε_g when t < 0; otherwise, since δ_RR(λ_g) =
/// max(0, max_m A_m − λ_g·B_m) over the suffixes {j ≥ m} of the ratio order (A_m, B_m their masses
/// in the two worlds), the least λ_g is max(1, max_m (A_m − t)/B_m) (KOV15 Thm 3.3; THEOREMS.md
/// B.11 "Least λ_g"). Returns the point +∞ when no finite ε_g exists, and an interval with upper
/// end +∞ when t cannot be told apart from 0 at this precision.
///
/// Preconditions: as randomized_response_composition_delta(), 0 ≤ δ_g ≤ 1 ("delta_g").
Interval randomized_response_composition_least_epsilon(const Interval& lambda, const Rational& delta, unsigned long k,
                                                       const Rational& delta_g);

/// The PLD of the worst-case pair of the discrete Laplace mechanism with sensitivity Δ and noise
/// DLap(r), r = e^{−ε/Δ} (so the mechanism is ε-DP), with certified masses: the pair of values 0
/// and Δ clamped to [0, Δ], which by X-CLAMP-EXACT has exactly the unclamped profile
/// (THEOREMS.md B.14, D.3). Atom k ∈ {0, …, Δ} has ratio r^{2k−Δ} = e^{(Δ−2k)ε/Δ} and masses
/// P = F(0) = 1/(1+r), Q = r^Δ/(1+r) at k = 0; c·r^k, c·r^{Δ−k} (c = (1−r)/(1+r)) inside;
/// P = r^Δ/(1+r), Q = 1/(1+r) at k = Δ.
///
/// Preconditions: ε > 0 (r < 1; exactdp::Error naming "epsilon"), 1 ≤ Δ ≤ max_table_outcomes.
CertifiedLoss discrete_laplace_loss(const Rational& epsilon, unsigned long sensitivity,
                                    Precision precision = default_precision);

/// The PLD of the truncated discrete Gaussian mechanism with integer sensitivity Δ, as
/// dp-accounting's DiscreteGaussianPrivacyLoss defines it: the noise N_ℤ(0, σ²) restricted to
/// [−T, T] and renormalised, w(x) = e^{−x²/(2σ²)}/Z with Z = Σ_{|x|≤T} e^{−x²/(2σ²)}, and the pair
/// P = w (value 0), Q = w(· − Δ) (value Δ). Outcome x ∈ [Δ − T, T] (both supports) has ratio
/// P(x)/Q(x) = e^{(Δ² − 2xΔ)/(2σ²)} (Z cancels), held exactly; x ∈ [−T, Δ − T) has ratio +∞ (P-mass
/// only) and x ∈ (T, T + Δ] ratio 0 (Q-mass only). Distinct x give distinct ratios, and the pair is
/// symmetric (x ↦ Δ − x swaps P and Q), so both directions have one profile.
///
/// T = 0, or 2T < Δ, are allowed: the supports are then disjoint (no noise that can hide the
/// change) and δ(ε) = 1 at every ε, the degenerate pair it is (dp-accounting refuses 2T < Δ).
///
/// Preconditions: σ² > 0 (exactdp::Error naming "sigma2"), 1 ≤ Δ ≤ max_table_outcomes, T ≤
/// max_table_outcomes ("truncation").
CertifiedLoss truncated_discrete_gaussian_loss(const Rational& sigma2, unsigned long sensitivity, unsigned long truncation,
                                               Precision precision = default_precision);

}  // namespace exactdp
