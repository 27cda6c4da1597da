/// @file
/// Exact tables of the standard noninteractive mechanisms: randomized response RR_{λ,δ}, k-ary
/// randomized response and the clamped discrete Laplace mechanism (THEOREMS.md A.2, D.1, D.3,
/// B.14). Every mass is an exact rational; the worst-case neighbouring pair of each mechanism is
/// returned as a NeighbouringPair, whose privacy_loss() feeds every divergence of exactdp.
///
/// Mechanisms whose masses are irrational (RR given by ε, the discrete Gaussian, continuous noise)
/// live in certified_noninteractive.hpp and discrete_gaussian.hpp.
#pragma once

#include "exactdp/dist/dist.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/rational.hpp"

#include <compare>
#include <cstddef>
#include <ostream>

namespace exactdp {

/// The two output distributions of a mechanism on a pair of neighbouring inputs: world 0 runs it
/// on x₀, world 1 on x₁ (THEOREMS.md 0.3). Masses are exact (V = Rational) or certified
/// (V = Interval).
template <class T, class V = Rational>
struct NeighbouringPair {
  Dist<T, V> world0;
  Dist<T, V> world1;
};

/// The privacy-loss distribution of an exact neighbouring pair: PrivacyLoss::of(world0, world1).
template <class T>
PrivacyLoss privacy_loss(const NeighbouringPair<T>& pair) {
  return PrivacyLoss::of(pair.world0, pair.world1);
}

/// Largest number of outcomes an exact table built here may have (window sizes, k of k-ary RR,
/// distances between the released value and the clamp window). Beyond it the functions throw
/// exactdp::Error rather than exhaust memory.
inline constexpr unsigned long max_table_outcomes = 1UL << 20;

namespace mechanism_detail {
/// Validates a clamp window [lo, hi] and a released value v for a table of outcomes lo..hi:
/// lo ≤ hi, at most max_table_outcomes outcomes, |v − lo| and |v − hi| ≤ max_table_outcomes.
/// Throws exactdp::Error naming @p where and the field "window" or "value".
void check_window(const char* where, long value, long lo, long hi);
/// Validates an integer sensitivity 1 ≤ Δ ≤ max_table_outcomes (field "sensitivity").
void check_sensitivity(const char* where, unsigned long sensitivity);
}  // namespace mechanism_detail

// ------------------------------------------------------------------ randomized response

/// The flag of RR_{λ,δ} (THEOREMS.md A.2): whether the input bit was released outright.
/// HSV Def 2.3 writes (⊤, b) for (leak, b); VW21 writes "Iam c"; LYU22 writes (c, ⊤).
enum class Flag { leak, no_leak };

/// An output (flag, bit) of RR_{λ,δ}. Ordered (leak before no_leak, then by bit).
struct FlaggedBit {
  Flag flag = Flag::no_leak;
  int bit = 0;
  friend auto operator<=>(const FlaggedBit&, const FlaggedBit&) = default;
};

/// "Leak" or "NoLeak".
std::ostream& operator<<(std::ostream& os, Flag flag);
/// "(Leak, 0)", "(NoLeak, 1)", …
std::ostream& operator<<(std::ostream& os, const FlaggedBit& y);

/// RR_{λ,δ}(b): with probability δ output (Leak, b); otherwise (NoLeak, b) with probability
/// λ/(1+λ) and (NoLeak, 1−b) with probability 1/(1+λ) (THEOREMS.md A.2 table; KOV15; HSV D2.3).
/// Zero masses are dropped, so for δ = 0 the support is {(NoLeak, 0), (NoLeak, 1)}.
///
/// Preconditions: λ ≥ 1, 0 ≤ δ ≤ 1, b ∈ {0, 1} (exactdp::Error naming "lambda", "delta", "bit").
Dist<FlaggedBit> randomized_response(const Rational& lambda, const Rational& delta, int bit);

/// The neighbouring pair (RR_{λ,δ}(0), RR_{λ,δ}(1)) — RR has only these two inputs. Its profile
/// is H_{λ′} = δ + (1−δ)(λ − λ′)⁺/(1+λ) for λ′ ≥ 1 in both directions, its trade-off function is
/// f_{ln λ,δ} (THEOREMS.md A.2; DRS22; HSV-L2.4). Same preconditions.
NeighbouringPair<FlaggedBit> randomized_response(const Rational& lambda, const Rational& delta);

/// k-ary randomized response on input v ∈ {0, …, k−1}: output v with probability λ/(λ+k−1) and
/// each other value with probability 1/(λ+k−1) (THEOREMS.md A.2, D.1).
///
/// Preconditions: 2 ≤ k ≤ max_table_outcomes, λ ≥ 1, 0 ≤ v < k (exactdp::Error naming "k",
/// "lambda", "input").
Dist<long> k_ary_randomized_response(unsigned long k, const Rational& lambda, long input);

/// The worst-case neighbouring pair of k-ary RR under substitution: inputs 0 and 1. All pairs of
/// distinct inputs are the same up to relabelling outputs, and the pair is pure ln λ-DP with max
/// ratio exactly λ. Same preconditions (k ≤ max_table_outcomes).
NeighbouringPair<long> k_ary_randomized_response(unsigned long k, const Rational& lambda);

/// The privacy loss of the pair above without building its k outcomes: three atoms, ratio λ
/// (output 0), ratio 1/λ (output 1) and ratio 1 (the k−2 other outputs, merged). Equal to
/// privacy_loss(k_ary_randomized_response(k, λ)); any k ≥ 2 is accepted.
PrivacyLoss k_ary_randomized_response_loss(unsigned long k, const Rational& lambda);

// ------------------------------------------------------------------ discrete Laplace

/// The CDF F(m) = Pr[Z ≤ m] of Z ~ DLap(r), Pr[Z = k] = (1−r)/(1+r)·r^|k|: F(m) = 1 − r^{m+1}/(1+r)
/// for m ≥ 0 and r^{−m}/(1+r) for m < 0 (THEOREMS.md D.3). Exact.
///
/// Preconditions: 0 < r < 1, |m| ≤ max_table_outcomes (exactdp::Error naming "r", "m").
Rational discrete_laplace_cdf(const Rational& r, long m);

/// The clamped discrete Laplace mechanism's output law clamp(v + Z, lo, hi), Z ~ DLap(r)
/// (THEOREMS.md D.3, B.14): interior outcomes lo < k < hi have mass Pr[Z = k − v], the endpoints
/// carry the closed-form tails Pr[out = lo] = F(lo − v) and Pr[out = hi] = Pr[Z ≥ hi − v]. The
/// masses sum to exactly 1. Clamping is post-processing of v + Z, so it keeps every guarantee of
/// the unclamped mechanism; the table is never truncated and renormalised (B.14).
///
/// Preconditions: 0 < r < 1; lo ≤ hi; the window has at most max_table_outcomes outcomes and v
/// lies within max_table_outcomes of it (exactdp::Error naming "r", "window", "value").
Dist<long> discrete_laplace(const Rational& r, long value, long lo, long hi);

/// The worst-case neighbouring pair of the clamped discrete Laplace mechanism with integer
/// sensitivity Δ: query values 0 (world 0) and Δ (world 1) released through
/// clamp(· + Z, lo, hi), Z ~ DLap(r).
///
/// By translation and reflection invariance of DLap every pair of values at distance d ≤ Δ is
/// equivalent to (0, d), and (0, d) is a post-processing of (0, Δ), so this pair is the worst
/// case. By X-CLAMP-EXACT (THEOREMS.md B.14), when lo ≤ 0 and Δ ≤ hi the clamped pair has exactly
/// the profile, trade-off and Rényi moments of the unclamped mechanism: the atoms k ≤ 0 all have
/// ratio r^{−Δ} and those k ≥ Δ all have ratio r^Δ, so clamping merges only atoms of equal ratio.
/// It is then pure ln(r^{−Δ})-DP, with H_λ = F(x*) − λF(x* − Δ) (THEOREMS.md B.11). A narrower
/// window gives the (more private) clamped mechanism itself.
///
/// Preconditions: as for discrete_laplace() on both values, and 1 ≤ Δ ≤ max_table_outcomes
/// (exactdp::Error naming "sensitivity").
NeighbouringPair<long> discrete_laplace_pair(const Rational& r, unsigned long sensitivity, long lo, long hi);

/// The pair above on the smallest exact window [0, Δ] (Δ + 1 outcomes).
NeighbouringPair<long> discrete_laplace_pair(const Rational& r, unsigned long sensitivity);

}  // namespace exactdp
