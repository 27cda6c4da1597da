/// @file
/// Closed-form composition bounds (THEOREMS.md B.11): basic composition, advanced composition,
/// the KOV15 Thm 3.4/3.5 bounds and the Vadhan–Wang concurrent bound.
///
/// Basic composition and VW-BOUND are rational in base form and are computed exactly. Advanced
/// composition and KOV15 Thm 3.4/3.5 need ε itself (square roots, logarithms, tanh); they take ε
/// as a certified exactdp::Interval and return an EpsilonDelta whose @c epsilon encloses the
/// closed-form ε̃ (so its upper end is a sound privacy parameter) and whose @c delta is exact.
#pragma once

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace exactdp {

/// Basic composition: the composition of (ε_i, δ_i)-DP mechanisms is (Σε_i, Σδ_i)-DP, i.e.
/// (Π_i λ_i, Σ_i δ_i) in base form.
///
/// Preconditions: at least one component, λ_i ≥ 1, δ_i ∈ [0, 1] (exactdp::Error naming
/// "lambda[i]"/"delta[i]"). Guarantee: exact (Σδ_i may exceed 1, which is vacuous but true).
/// Source: DKMMN06; VW21 T1.1 (THEOREMS.md BG-DKMMN06-BASIC).
LambdaDelta basic_composition(std::span<const LambdaDelta> components);

/// Advanced composition: for every δ′ > 0, the k-fold composition of an (ε, δ)-DP mechanism is
/// (ε′, kδ + δ′)-DP with ε′ = ε·√(2k·ln(1/δ′)) + k·ε·(e^ε − 1).
///
/// Preconditions: ε ≥ 0 (every point of @p epsilon), δ ∈ [0, 1], k ≥ 1, δ′ ∈ (0, 1].
/// Guarantee: the result's epsilon encloses ε′ (computed at @p epsilon's precision, outward
/// rounded; its upper end is a sound ε), its delta = kδ + δ′ exactly. Source: DRV10 (explicit form
/// of VW21 T1.2; THEOREMS.md BG-DRV10-ADV).
EpsilonDelta advanced_composition(const Interval& epsilon, const Rational& delta, unsigned long k,
                                  const Rational& delta_prime);

/// KOV15 Thm 3.4 (homogeneous): for every δ̃ ∈ (0, 1] the k-fold composition of an (ε, δ)-DP
/// mechanism is (ε̃, 1 − (1−δ)^k·(1 − δ̃))-DP with
/// ε̃ = min{kε, kε·tanh(ε/2) + ε·√(2k·ln(e + √(kε²)/δ̃)), kε·tanh(ε/2) + ε·√(2k·ln(1/δ̃))}.
///
/// Preconditions: ε ≥ 0, δ ∈ [0, 1], k ≥ 1, δ̃ ∈ (0, 1]. Guarantee: epsilon encloses ε̃ (its upper
/// end is sound), delta is exact. Source: KOV15 Thm 3.4 (THEOREMS.md B.11, BG-KOV15-CLOSED).
EpsilonDelta kov_homogeneous_bound(const Interval& epsilon, const Rational& delta, unsigned long k,
                                   const Rational& delta_tilde);

/// KOV15 Thm 3.5 (heterogeneous): with S₁ = Σε_i, S_t = Σε_i·tanh(ε_i/2), S₂ = Σε_i², the
/// composition of (ε_i, δ_i)-DP mechanisms is (ε̃, 1 − (1 − δ̃)·Π_i(1 − δ_i))-DP with
/// ε̃ = min{S₁, S_t + √(2S₂·ln(e + √S₂/δ̃)), S_t + √(2S₂·ln(1/δ̃))}.
///
/// Preconditions: at least one component, every ε_i ≥ 0, δ_i ∈ [0, 1], δ̃ ∈ (0, 1].
/// Guarantee: epsilon encloses ε̃ (upper end sound), delta exact. Source: KOV15 Thm 3.5
/// (THEOREMS.md B.11, BG-KOV15-CLOSED).
EpsilonDelta kov_heterogeneous_bound(std::span<const EpsilonDelta> components, const Rational& delta_tilde);

/// KOV15 Thm 3.5 with components in base form: ε_i = ln λ_i enclosed at @p precision.
/// Same preconditions (λ_i ≥ 1) and guarantee. Source: KOV15 Thm 3.5.
EpsilonDelta kov_heterogeneous_bound(std::span<const LambdaDelta> components, const Rational& delta_tilde,
                                     Precision precision = default_precision);

/// Σ_{i=1}^{k} (Π_{j<i} λ_{σ(j)})·δ_{σ(i)} for the order σ = @p order (a permutation of the
/// component indices): the δ of the VW21 T1.4 bound for that order of the components.
///
/// Preconditions: components valid; @p order a permutation of 0..k−1 (exactdp::Error otherwise).
/// Guarantee: exact. Source: VW21 T1.4 (= T4.1).
Rational vw_delta_for_order(std::span<const LambdaDelta> components, std::span<const std::size_t> order);

/// An order minimising vw_delta_for_order(): components sorted by δ_i/(λ_i − 1) descending
/// (λ_i = 1 with δ_i > 0 first). Exchange argument: i before j iff δ_i + λ_iδ_j ≤ δ_j + λ_jδ_i.
/// Preconditions: components valid. Guarantee: exact, a minimising order. Source: VW21 T1.4
/// (sorting rule of THEOREMS.md B.11).
std::vector<std::size_t> vw_optimal_order(std::span<const LambdaDelta> components);

/// VW-BOUND: the concurrent composition of (ε_i, δ_i)-DP interactive mechanisms is
/// (Π_i λ_i, δ_g)-DP with δ_g = min over orders σ of Σ_i (Π_{j<i} λ_{σ(j)})·δ_{σ(i)}, computed via
/// vw_optimal_order(). Homogeneous case: δ_g = δ·(λ^k − 1)/(λ − 1).
///
/// Preconditions: at least one component, λ_i ≥ 1, δ_i ∈ [0, 1]. Guarantee: exact (δ_g may exceed
/// 1). Source: VW21 T1.4 (= T4.1; THEOREMS.md B.11).
LambdaDelta vw_concurrent_bound(std::span<const LambdaDelta> components);

/// The same bound by enumerating all k! orders (an independent cross-check for small k).
/// Preconditions: as vw_concurrent_bound(), and k ≤ @p max_k (exactdp::Error naming "components"
/// otherwise). Guarantee: exact. Source: VW21 T1.4.
LambdaDelta vw_concurrent_bound_by_enumeration(std::span<const LambdaDelta> components, std::size_t max_k = 8);

}  // namespace exactdp
