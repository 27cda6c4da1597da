/// @file
/// The complex continual mechanisms of HSV §7–9 on toy sizes, built from their sub-mechanisms
/// by a deterministic post-processor (HSV §6; THEOREMS.md A.10, D.8–D.10): the d-counter, the
/// continual histogram of Henzinger–Sricharan–Steiner (HSS23, HSV Alg 4), the two-round local
/// protocol of D.10 and the core-decomposition protocol of HSV §9.
///
/// Each composite is returned as a CompositeModel: the Game the engine analyses (P∘*(M₁,…,M_k)
/// under the input relation f) *together with* P, the sub-mechanisms, f and f′ as pair relations
/// and the sub-mechanisms' answer alphabets, so that the conditions of HSV Thm 6.1 can be checked on
/// the very P that the game runs (reduce/complex_mechanism.hpp). Sub-mechanism games (one SVT
/// instance under f_S, one Laplace comparison under f_{L,1}, the d-counter under f_C, one user of a
/// local protocol) are exposed on their own so that the privacy of each group can be computed.
///
/// Noise parameters are rationals r = e^{−ε} ∈ (0, 1) of discrete Laplace noise, as everywhere
/// in the library (library/library.hpp); noise in a comparison is never clamped (exact sums of
/// THEOREMS.md B.13), released counter nodes are clamped (B.14).
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/composite.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <string>
#include <vector>

namespace exactdp::library {

/// A composite mechanism with everything the HSV §6 checker needs (THEOREMS.md B.17).
struct CompositeModel {
  Game game;                              ///< P∘*(subs) under f, ready for the engine
  DeterministicPostProcessor processor;   ///< P, the same object the game runs
  std::vector<SubMechanism> subs;         ///< the sub-mechanisms, addressed "i:m" by P
  PairRelation input_relation;            ///< f over the game's left messages (the game's verifier)
  PairRelation output_relation;           ///< f′ over the pairs of right messages "i:m"
  /// The answers a sub-mechanism may give to right message "i:m" (for the checker's exploration).
  std::function<std::vector<std::string>(const std::string& message)> answers_to;
  unsigned processor_horizon = 1;  ///< messages P receives (left and right) over the game's horizon
};

/// The model as an instance of the HSV §6 checker (reduce/complex_mechanism.hpp, THEOREMS.md
/// B.17): its P, f, f′, answers and processor horizon; the checker's other options keep their defaults.
CompositeInstance checker_instance(const CompositeModel& m);

// ------------------------------------------------------------------ d-counter (D.8, HSV C7.5)

/// The d-counter (HSV Cor 7.5; THEOREMS.md D.8): d binary-tree counters (library::binary_tree_counter,
/// D.6) of height @p height with node noise DLap(@p r), run side by side. A message "c₁,…,c_d"
/// (c_i ∈ [0, max_input]) feeds c_i to counter i; the answer "y₁,…,y_d" lists their outputs.
/// Neighbours f_C (A.7): pairs of vectors differing at ≤ 1 step, there by ℓ∞ ≤ 1. Default
/// horizon 2^height. Claim: ln(r^{−d(height+1)})-DP; for a unit change in every coordinate at the
/// first step the exact adaptive profile is that of Comp(d(height+1) × RR_{1/r}) (X-TREE per counter,
/// then concurrent composition).
/// @param d          the dimension, 1 … 3
/// @param height     the counters' height, 0 … 3
/// @param r          the node noise, in (0, 1)
/// @param max_input  the largest input per coordinate, 1 … 8
/// @param clamp      the clamping slack of released nodes (as binary_tree_counter), 0 … 4
Game d_counter(unsigned d, unsigned height, const Rational& r, long max_input = 1, long clamp = 0);

// ------------------------------------------------------------------ HSS histogram (D.9)

/// Parameters of the HSS continual monotone histogram (THEOREMS.md D.9, HSV Alg 4) on toy sizes.
/// The query is q = max over the coordinates (monotone, 1-sensitive under {−1,0,1}^d changes; the
/// identity for d = 1); γ ≡ gamma and ξ ≡ xi are constants (HSV leaves them unspecified; privacy
/// holds for every deterministic choice).
struct HistogramParams {
  unsigned d = 1;                   ///< dimension, 1 or 2
  unsigned steps = 2;               ///< T, 1 … 3 (the game's horizon)
  Rational r_threshold{1, 4};       ///< SVT threshold noise, drawn once per SVT instance
  Rational r_query{1, 2};           ///< SVT query noise, fresh at every step
  Rational r_laplace{1, 16};        ///< the Laplace instance at the end of each interval
  Rational r_node{1, 4};            ///< the d-counter's node noise (height ⌈log₂ T⌉)
  long gamma = 1;                   ///< γ: the threshold and its increment, 1 … 3
  long xi = 0;                      ///< ξ: the slack of the Laplace test, 0 … 3
};

/// Which post-processor the histogram runs.
enum class HistogramVariant {
  faithful,     ///< HSV Alg 4 (discrete): destination, response and f_H → f′ hold
  raw_branch,   ///< ends an interval when the *raw* q(c + h) exceeds the threshold, skipping SVT (destination fails)
  raw_release,  ///< releases the raw q(h + c) at the end of an interval instead of q(h) (response fails)
};

/// The HSS histogram as P∘*(SVT₀, …, SVT_T, Lap₀, …, Lap_{T−1}, d-counter) (HSV Alg 4, THEOREMS.md
/// D.9): left messages are rows x ∈ {0,1}^d written "x₁,…,x_d"; each step P feeds x to the current
/// SVT instance; on ⊤ it asks the interval's Laplace instance whether q(c + h) + Z > Thresh − ξ
/// (raising Thresh by γ if so), feeds the interval sum c to the d-counter, sets h to its output and
/// out = q(h), and starts the next SVT instance from h. Every step answers out. Sub-mechanism
/// indices: SVT_j = j (j = 0 … T; SVT₀ starts from h = 0), Lap_j = T + 1 + j, d-counter = 2T + 1.
/// Neighbours f_H (HSV D7.2): streams equal except at one step, where the row may change
/// arbitrarily. f′: one SVT instance may receive one non-identical pair of rows under identical
/// thresholds (f_S), one Laplace instance a pair of values at distance ≤ 1 (f_{L,1}), the d-counter
/// one pair at ℓ∞ distance ≤ 1 (f_C); all other pairs identical.
/// Claim (HSV §7.2, S7.2-HIST): ε-DP with e^ε = λ_S·λ_L·λ_C, where λ_S = 1/(r_threshold·r_query²)
/// (HSV L7.4), λ_L = 1/r_laplace and λ_C = r_node^{−d(height+1)} (C7.5); ε/3 each for the standard
/// choice. Throws exactdp::Error naming the field on parameters outside the ranges above.
CompositeModel hss_histogram(const HistogramParams& params, HistogramVariant variant = HistogramVariant::faithful);

/// One SVT instance of the histogram under f_S (HSV L7.4): it first receives "start:h" (identical in
/// both worlds, any h the d-counter can output), then rows with thresholds "x₁,…,x_d/T" (identical
/// thresholds, the rows differing at ≤ 1 step); "above" halts it. Horizon T + 1. Exact by B.13.
Game hss_svt_instance(const HistogramParams& params);
/// One Laplace instance of the histogram under f_{L,1}: a single message "v/θ" (v any value q(c + h)
/// can take, θ any Thresh − ξ), pairs with abs(v − v′) ≤ 1 and equal θ; answer "above" iff
/// v + Z > θ, Z ~ DLap(r_laplace). Horizon 1.
Game hss_laplace_instance(const HistogramParams& params);
/// The histogram's d-counter under f_C: d_counter(d, ⌈log₂ T⌉, r_node, T) with horizon T.
Game hss_d_counter(const HistogramParams& params);

// ------------------------------------------------------------------ local protocols (D.10, HSV §8)

/// The two-round threshold user of THEOREMS.md D.10 as a continual mechanism under
/// f_{∼*,prop*}: "data:v" (v ∈ {0,1,2}; the only pair that may differ, with abs(v − v′) ≤ 1), then
/// the identical queries "r1" (answers RR_λ([v ≥ 1])) and optionally "r2" (RR_λ([v ≥ 2])), each once
/// and in this order. Horizon 3. Claim: ln λ-DP (only one of the two indicator bits can differ).
/// @param lambda  the user's λ = e^{ε′} > 1
Game ldp_threshold_user(const Rational& lambda);

/// The toy two-round LDP protocol of THEOREMS.md D.10 as its continual mechanism M_P = S_P∘*(users)
/// (HSV §8, A.11): one left message, the dataset "x₁…x_n" (digits in {0,1,2}); S_P gives user i
/// its value, asks everybody "r1", then asks "r2" of the users that answered 1, and answers its view
/// "b₁…b_n|c₁…c_n" (round-1 bits; round-2 bits, "-" where not asked); then halts. Neighbours
/// ∼_{k,∼*}: at most @p k users differ, each by 1. f′ = f_{P,∼}: the data pairs of the users form
/// a ∼_{k,∼*} pair, every query pair is identical. Claim (HSV C8.8): the profile is at most that of
/// Comp(k × RR_λ), with equality for this toy (E.10 H14).
/// @param users   n, 1 … 3
/// @param lambda  the users' λ > 1
/// @param k       the most users that may differ, 1 … n
CompositeModel ldp_threshold_protocol(unsigned users, const Rational& lambda, unsigned k);

/// The users of the toy protocol in extended concurrent composition under f_{P,∼} (HSV T8.7): the
/// adversary sends the data pairs "i:data:v" to users 0, 1, … in order (forming a ∼_{k,∼*} pair),
/// then identical queries "i:r1", "i:r2" in any order (each user's own order). Horizon 3n.
Game ldp_users_composition(unsigned users, const Rational& lambda, unsigned k);

// ------------------------------------------------------------------ core decomposition (HSV §9)

/// Parameters of the core-decomposition protocol toy (HSV §9, THEOREMS.md D.10, E.10 H15).
struct CoreDecompositionParams {
  unsigned vertices = 3;       ///< n, 2 … 4
  unsigned rounds = 2;         ///< R, 1 … 3; the levels are d_r = r
  Rational r_threshold{1, 4};  ///< each user's τ ~ DLap, drawn once
  Rational r_query{1, 2};      ///< each user's ν_r ~ DLap, fresh every round
};

/// One user of the core decomposition (AboveThreshold on its neighbour set, HSV §9) under g_user:
/// "data:N" (N a neighbour set as a bit string over the n vertices; the only pair that may differ,
/// in at most one vertex), then identical queries "ask:A:d" (A a vertex set as a bit string, d a
/// level); answers "top" iff ν − τ > abs(N ∩ A) − d, and then halts, "bot" otherwise. Horizon R + 1.
/// Claim: ln(1/(r_threshold·r_query²))-DP.
Game core_decomposition_user(const CoreDecompositionParams& params);

/// The core-decomposition protocol as M_P = S_P∘*(users) (HSV §9, L9.1): one left message, a graph
/// on n vertices given by its edge bits "e₀₁e₀₂…" (pairs in lexicographic order); S_P gives every
/// user its neighbour set, then for rounds r = 1 … R asks every still-active vertex "ask:A:r" with A
/// the active set, and removes those answering "top". The answer is the view: each vertex's removal
/// round, "k₀,k₁,…" (0 = never removed). Neighbours: graphs differing in at most one edge. f′ = the
/// data pairs differ for at most two users, in one vertex each; queries identical.
/// Claim (HSV L9.1): 2·ln(1/(r_threshold·r_query²))-edge-LDP.
CompositeModel core_decomposition(const CoreDecompositionParams& params);

}  // namespace exactdp::library
