/// @file
/// OPT-COMP: the exact optimal composition of (ε_i, δ_i)-DP mechanisms (THEOREMS.md B.11,
/// BG-KOV15-OPT), its full privacy profile, the least λ_g for a target δ_g, and the KOV15
/// homogeneous closed form.
///
/// Everything here is exact rational arithmetic. With Z = Π_i(1 + λ_i),
///
///     δ_RR(λ_g)  = (1/Z)·Σ_{S⊆[k]} (Π_{i∈S} λ_i − λ_g·Π_{i∉S} λ_i)⁺
///                = H_{λ_g}(⊗RR_{ε_i}(0) ‖ ⊗RR_{ε_i}(1)),
///     δ_opt(λ_g) = 1 − Π_i(1 − δ_i)·(1 − δ_RR(λ_g)),
///
/// the exact privacy profile of ⊗_i RR_{ε_i,δ_i}, which is the least δ such that every
/// composition of (ε_i, δ_i)-DP mechanisms is (ln λ_g, δ)-DP (KOV15 Thm 3.3; MV16; VW21 T1.3).
///
/// The heterogeneous sum is computed on the privacy-loss distribution of the pure part: the map
/// from the ratio r_S = Π_{i∈S}λ_i / Π_{i∉S}λ_i to its summed probability under world 0, built one
/// group of equal λ_i at a time (a binomial law per group), so that equal components and equal
/// products collapse. Its size is at most Π_j (c_j + 1) over the distinct values λ ≠ 1 with
/// multiplicities c_j; exact heterogeneous optimal composition is \#P-hard (MV16), so the
/// computation refuses with exactdp::Error above OptimalCompositionOptions::max_states.
#pragma once

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace exactdp {

/// Limits of the exact optimal-composition computation.
struct OptimalCompositionOptions {
  /// The largest number of distinct privacy-loss ratios the computation may hold. Above it,
  /// exactdp::Error is thrown, stating the estimated number of states (MV16: \#P-hard).
  std::size_t max_states = std::size_t{1} << 20;
};

/// One linear piece of an exact privacy profile: δ(λ) = a − b·λ for λ from @c start up to the
/// next piece's start (the last piece extends to +∞).
struct ProfilePiece {
  Rational start;
  Rational a;
  Rational b;

  friend bool operator==(const ProfilePiece& x, const ProfilePiece& y) {
    return x.start == y.start && x.a == y.a && x.b == y.b;
  }
};

/// Upper estimate Π_j (c_j + 1) of the number of distinct privacy-loss ratios of ⊗RR_{ε_i}, over
/// the distinct values λ ≠ 1 among the components with multiplicities c_j (saturates at SIZE_MAX).
/// Exact when the distinct λ values are multiplicatively independent.
///
/// Preconditions: every λ_i ≥ 1 and δ_i ∈ [0, 1] (exactdp::Error naming "lambda[i]"/"delta[i]").
std::size_t optimal_composition_state_estimate(std::span<const LambdaDelta> components);

/// δ_opt(λ_g) for k-fold composition of one (ε, δ)-DP mechanism, λ = e^ε: the homogeneous binomial
/// sum δ_RR = (1/(1+λ)^k)·Σ_{j=0}^{k} C(k,j)·(λ^j − λ_g·λ^{k−j})⁺, in O(k) big-integer operations.
///
/// Preconditions: λ ≥ 1, δ ∈ [0, 1], k ≥ 1, λ_g ≥ 0 (exactdp::Error naming the parameter).
/// Guarantee: exact. Source: KOV15 Thm 3.3 (THEOREMS.md B.11, BG-KOV15-OPT).
Rational optimal_composition_delta(const Rational& lambda, const Rational& delta, unsigned long k,
                                   const Rational& lambda_g);

/// δ_opt(λ_g) for the composition of (ε_i, δ_i)-DP mechanisms, λ_i = e^{ε_i}, heterogeneous.
///
/// Preconditions: at least one component; every λ_i ≥ 1, δ_i ∈ [0, 1]; λ_g ≥ 0. Throws
/// exactdp::Error when the privacy-loss distribution would exceed @p options.max_states (the
/// message states the estimate).
/// Guarantee: exact. Source: MV16 (heterogeneous), KOV15 Thm 3.3, VW21 T1.3 (THEOREMS.md B.11).
Rational optimal_composition_delta(std::span<const LambdaDelta> components, const Rational& lambda_g,
                                   const OptimalCompositionOptions& options = {});

/// The full exact profile λ ↦ δ_opt(λ) on [0, ∞) as convex, non-increasing linear pieces.
///
/// The first piece starts at 0 (where δ_opt = 1); the breakpoints are the distinct ratios r_S
/// (including those below 1); the last piece is the constant 1 − Π_i(1 − δ_i). Consecutive pieces
/// with equal (a, b) are merged. Same preconditions and refusal as optimal_composition_delta().
/// Guarantee: exact. Source: MV16, KOV15 Thm 3.3 (THEOREMS.md B.11).
std::vector<ProfilePiece> optimal_composition_profile(std::span<const LambdaDelta> components,
                                                      const OptimalCompositionOptions& options = {});

/// Evaluates a profile returned by optimal_composition_profile() at λ ≥ 0 (exact).
/// Preconditions: @p profile non-empty, first start 0, λ ≥ 0 (exactdp::Error otherwise).
Rational evaluate_profile(const std::vector<ProfilePiece>& profile, const Rational& lambda);

/// The least λ_g ≥ 1 with δ_opt(λ_g) ≤ δ_g (the optimal composed privacy parameter in base form).
///
/// Algorithm (THEOREMS.md B.11): with t = 1 − (1 − δ_g)/Π_i(1 − δ_i), no λ_g works when t < 0;
/// otherwise δ_RR is convex piecewise linear with breakpoints r_S, and the answer is the exact
/// solution of the linear equation on the first piece whose right end satisfies δ_RR ≤ t.
///
/// Preconditions: components as for optimal_composition_delta(); δ_g ∈ [0, 1].
/// Guarantee: exact; std::nullopt means +∞ (no finite λ_g achieves δ_g). The result is 1 when
/// δ_opt(1) ≤ δ_g. Source: KOV15 Thm 3.3, MV16, VW21 T1.3 (THEOREMS.md B.11).
std::optional<Rational> optimal_composition_least_lambda(std::span<const LambdaDelta> components,
                                                         const Rational& delta_g,
                                                         const OptimalCompositionOptions& options = {});

/// The KOV15 homogeneous closed form: for i = 0..⌊k/2⌋ the k-fold composition of an (ε, δ)-DP
/// mechanism (λ = e^ε) is (λ^{k−2i}, 1 − (1−δ)^k·(1 − δ_i))-DP with
/// δ_i = Σ_{ℓ=0}^{i−1} C(k,ℓ)·(λ^{k−ℓ} − λ^{k−2i+ℓ})/(1+λ)^k; entry i of the result is that pair.
///
/// Preconditions: λ ≥ 1, δ ∈ [0, 1], k ≥ 1. Guarantee: exact, and each pair is optimal (it equals
/// δ_opt at λ_g = λ^{k−2i}). Source: KOV15 Thm 3.3 (THEOREMS.md B.11).
std::vector<LambdaDelta> kov_closed_form(const Rational& lambda, const Rational& delta, unsigned long k);

}  // namespace exactdp
