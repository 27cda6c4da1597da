/// @file
/// The library of standard and paper mechanisms as ready-to-play games (THEOREMS.md part D).
///
/// Every factory returns a Game: an interactive or continual mechanism with exact rational
/// tables, *together with* the neighbouring relation (verifier) under which its privacy claim is
/// stated, the two worlds' initial laws and a default horizon. The game can be handed to the
/// engine (game/engine.hpp) as is; the claim each mechanism is known to satisfy is stated in its
/// comment, so tests and users can compare the engine's exact answer with it. Because a factory
/// returns a Game, the library is a layer of its own (library/), above game/ and below compose/;
/// the mechanisms themselves are written with the builders of mechanism/.
///
/// Conventions (THEOREMS.md D, preamble): parameters are exact rationals. A privacy parameter is
/// given as λ = e^ε (≥ 1); a discrete Laplace noise parameter as r = e^{−ε} ∈ (0, 1), with
/// DLap(r): Pr[Z = k] = (1−r)/(1+r)·r^|k| (D.3). Invalid parameters throw exactdp::Error whose
/// `where` names the factory and whose `field` is the parameter's name (the same name as in a
/// spec file's `params`, see library/library_registry.hpp), before anything is built.
///
/// Finite tables from infinite-support noise (B.14): where a released *value* carries discrete
/// Laplace noise (the counters), the released noisy value is clamped to a window — clamping what
/// is released is post-processing — and each factory says exactly what it clamps. Noise that
/// enters a *comparison* (sparse vector) is never clamped: its event probabilities are the exact
/// geometric sums of B.13 over the unclamped noise.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"

#include <string>
#include <vector>

namespace exactdp::library {

// ------------------------------------------------------------------ randomized response (D.1, D.2)

/// One-shot randomized response RR_{λ,δ} (THEOREMS.md A.2, D.1; KOV15, HSV D2.3): static
/// neighbours, worlds "b=0" and "b=1" (the secret bit). One query (message "q"): with probability
/// δ the answer is "leak0"/"leak1" (Leak, b); otherwise "0"/"1", equal to b with probability
/// λ/(1+λ). Then halted. Default horizon 1.
///
/// Claim: (ln λ, δ)-DP, exactly: sup_A H_{λ′} = δ + (1−δ)(λ − λ′)⁺/(1+λ) for λ′ ≥ 1 (A.2).
/// @param lambda  λ = e^ε ≥ 1
/// @param delta   δ ∈ [0, 1]
Game randomized_response(const Rational& lambda, const Rational& delta = 0);

/// Sticky randomized response RR_λ (THEOREMS.md D.16): draws z = RR_λ(b) at its first query and
/// answers z to each of its first @p answers queries, then halts. Static neighbours, worlds
/// "b=0", "b=1"; default horizon = answers. Claim: ln λ-DP with exactly the profile of one RR_λ
/// (repeating z adds nothing).
/// @param lambda   λ = e^ε ≥ 1
/// @param answers  queries answered before halting, 1 … 1000
Game sticky_randomized_response(const Rational& lambda, unsigned answers = 2);

/// The interactive randomized response IRR_{ε,δ} (HSV D2.9; THEOREMS.md A.2, D.2): initial
/// states b ∈ {0,1} (worlds "b=0", "b=1"), one query symbol "q". First query: "leak" with
/// probability δ, "noleak" otherwise, independent of b. Second: after "leak" the answer is b;
/// after "noleak" it is b with probability λ/(1+λ) and 1−b otherwise. The third query halts.
/// Default horizon 2. Claim: the joint law of the two answers is RR_{ε,δ}(b), so the worst-case
/// profile is exactly RR_{λ,δ}'s.
/// @param lambda  λ = e^ε ≥ 1
/// @param delta   δ ∈ [0, 1]
Game interactive_randomized_response(const Rational& lambda, const Rational& delta);

// ------------------------------------------------------------------ sparse vector (D.5, B.13)

/// Pr[no stop] of AboveThreshold after queries with margins A_1, …, A_t (THEOREMS.md B.13):
/// Σ_{j∈ℤ} Pr[τ = j] · Π_s F_ν(A_s + j), with τ ~ DLap(r_threshold), ν_s ~ DLap(r_query)
/// independent and F_ν the DLap CDF (D.3). The margin of a query is A = Thresh − q, so that the
/// query stops ("above") iff q + ν > Thresh + τ, i.e. ν > A + τ. Computed exactly by splitting ℤ
/// at 0 and at every −A_s and summing the geometric series on each piece in closed form
/// (noise::LatentThreshold::probability_of, the one home of this sum); the noise is never
/// truncated or clamped. The value depends only on the multiset of margins.
/// @param r_threshold  the threshold noise parameter, in (0, 1)
/// @param r_query      the query noise parameter, in (0, 1)
/// @param margins      A_1, …, A_t (|A_s| ≤ 10⁶; any t, cost O(t²) per interval)
Rational svt_no_stop_probability(const Rational& r_threshold, const Rational& r_query, const std::vector<long>& margins);

/// Parameters of AboveThreshold / sparse vector with discrete Laplace noise (THEOREMS.md D.5).
struct SparseVectorParams {
  Rational r_threshold;  ///< τ ~ DLap(r_threshold) drawn once per instance, in (0, 1); standard: e^{−ε′}
  Rational r_query;      ///< ν ~ DLap(r_query) fresh at every query, in (0, 1); standard: e^{−ε′/2}
  unsigned queries = 3;  ///< the default horizon, 1 … 1000
  unsigned cutoff = 1;   ///< c: halt after c "above" answers; after each one a fresh τ is drawn (restart)
};

/// AboveThreshold on a static dataset (THEOREMS.md D.5 "static dataset" form; Dwork–Roth
/// Alg. 1, Sparse with cutoff c): each message is the integer margin v = q_t(x) − Thresh_t of a
/// sensitivity-1 query (messages "min_margin" … "max_margin"); the answer is "above" iff
/// v + ν_t > τ, else "below"; after c "above" answers the mechanism halts. Neighbours: at every
/// query any pair (v₀, v₁) with |v₀ − v₁| ≤ 1 (the "free sensitivity" relation f_{L,1}, which
/// contains every concrete family of sensitivity-1 queries, HSV O8.9); one shared initial state.
/// Exact probabilities by B.13 (svt_no_stop_probability): the state is the multiset of margins
/// seen since the last restart, the sufficient statistic of the posterior of τ.
///
/// Claim (Dwork–Roth Thm 3.23, HSV L7.4): c·ln(1/(r_threshold·r_query²))-DP, e.g. pure λ = 16 for
/// r_threshold = 1/4, r_query = 1/2, c = 1.
/// @param params      noise, horizon and cutoff
/// @param min_margin  the smallest margin the adversary may use
/// @param max_margin  the largest (min_margin ≤ max_margin, at most 41 values, |·| ≤ 1000)
Game above_threshold(const SparseVectorParams& params, long min_margin = -1, long max_margin = 1);

/// SVT for a continual counter (HSV Alg. 3 with d = 1, q = identity, h₀ = 0; THEOREMS.md D.5,
/// E.10 H12): message "x/T" carries a stream bit x ∈ {0,1} and a threshold T from @p thresholds;
/// the running count c_t = Σ_{s≤t} x_s is compared, and the answer is "above" iff
/// c_t + ν_t > T_t + τ. Neighbours f_S: thresholds identical in both worlds, the bit streams differ
/// in at most one entry (pairs verifier, at most one differing pair). Exact by B.13.
/// Claim (HSV L7.4): c·ln(1/(r_threshold·r_query²))-DP.
/// @param params      noise, horizon and cutoff
/// @param thresholds  the thresholds the adversary may choose from (non-empty, distinct, |T| ≤ 1000)
Game svt_counter(const SparseVectorParams& params, const std::vector<long>& thresholds);

// ------------------------------------------------------------------ counters (D.6, D.7)

/// The binary-tree counter (Dwork–Naor–Pitassi–Rothblum 2010, Chan–Shi–Song 2011; THEOREMS.md
/// D.6): T = 2^h steps, input x_t ∈ {0, …, max_input} per step (messages "0" … "max_input"); every
/// dyadic node [(m−1)2^ℓ+1, m2^ℓ] gets its exact sum plus DLap(r) noise; the answer at t is the sum
/// of the noisy nodes of the dyadic decomposition of [1, t]. Then halted.
///
/// What is clamped (B.14): each noisy node value v + Z is clamped to [−clamp, max_input·2^ℓ + clamp]
/// before it is used — post-processing of the released node, so every guarantee of the unclamped
/// counter is kept; the window contains every possible exact node value, so by X-CLAMP-EXACT every
/// node pair (v, v ± 1) keeps exactly its unclamped profile. The noise itself never enters a
/// comparison. Only nodes with odd index m are ever used by an output, so only those are drawn.
///
/// Neighbours: event-level, one x_t changes by at most 1 (pairs (a, b) with |a − b| ≤ 1, at most
/// one differing pair). Claim: ln(r^{−(h+1)})-DP; for h = 2 and a change of x₁ the exact adaptive
/// profile is Comp(3 × RR_{1/r}) (X-TREE, E.10 H13). Default horizon T.
/// @param height     h ≥ 0, T = 2^h ≤ 64
/// @param r          the node noise parameter, in (0, 1) (standard: e^{−ε/(h+1)})
/// @param max_input  the largest input, 1 … 16
/// @param clamp      the slack of the clamping window on each side, 0 … 64
Game binary_tree_counter(unsigned height, const Rational& r, long max_input = 1, long clamp = 0);

/// The noisy-increments counter (THEOREMS.md D.7): y_t = Σ_{s≤t} clamp(x_s + Z_s, −clamp,
/// max_input + clamp), Z_s ~ DLap(r) i.i.d.; answers y_t for t = 1 … steps, then halted.
/// What is clamped: each noisy increment x_s + Z_s (released implicitly as y_s − y_{s−1}), which is
/// post-processing of it; the window contains both neighbouring values, so X-CLAMP-EXACT keeps its
/// profile exactly. Neighbours: event-level as for binary_tree_counter. Claim: ln(1/r)-DP, and
/// the exact profile is that of RR_{1/r} when max_input = 1 and clamp = 0.
/// @param steps      T, 1 … 64 (the default horizon)
/// @param r          the noise parameter, in (0, 1)
/// @param max_input  the largest input, 1 … 16
/// @param clamp      the slack of the clamping window on each side, 0 … 64
Game noisy_increments_counter(unsigned steps, const Rational& r, long max_input = 1, long clamp = 0);

// ------------------------------------------------------------------ the papers' gadgets (D.11–D.15)

/// M_δ, the parallel-composition counterexample (HSV T5.2; THEOREMS.md D.11): a continual
/// mechanism with states ⊤ ("top", initial) and ⊥ ("bot"), input bits "0"/"1". In ⊤, any input
/// answers "top" and stays with probability 1−δ, or answers "bot" and moves to ⊥ with probability
/// δ; in ⊥ every input is echoed. Neighbours: the two-bit gadget relation g (A.7) — at most two
/// messages, each a pair of bits, differing in at most one position — as an automaton.
/// Default horizon 2. Claim: (0, δ)-DP w.r.t. g, and sup_A H_λ = δ at every λ ≥ 1 (E.10 H4).
/// @param delta  δ ∈ [0, 1]
Game m_delta(const Rational& delta);

/// M_δ in interactive form (THEOREMS.md D.11, "IM version", for first-pair-consistent relations,
/// HSV D5.12): the secret bit arrives first as a message "0"/"1" (answered "ok"; the pair may be
/// identical or (0, 1)), then only identical queries "q" are allowed (an automaton verifier). The
/// first query answers "top" with probability 1 − δ and "bot" with probability δ, independent of
/// the secret; the second returns the secret bit after "bot" and "top" otherwise; then halted.
/// Default horizon 3. Claim: (0, δ)-DP, sup_A H_λ = δ at every λ ≥ 1 (E.10 H6 with ℓ = 1).
/// @param delta  δ ∈ [0, 1]
Game m_delta_interactive(const Rational& delta);

/// The Rényi gadget M_{α,ε,ε′} with corrected parameters (HSV T13.5 as corrected in THEOREMS.md
/// C.5.8, D.12): the shape and relation g of m_delta; in ⊤ any input answers "bot" and moves to ⊥
/// with probability p, else "top"; in ⊥ the input bit x is answered x with probability q and
/// 1 − x otherwise. Default horizon 2. Claim: single-copy worst-case Rényi moment
/// sup_A Φ_α = (1 − p) + p·E_q with E_q = q^α(1−q)^{1−α} + (1−q)^α q^{1−α} (E.10 H9).
/// @param p  ∈ (0, 1/2]
/// @param q  ∈ (1/2, 1)
Game renyi_gadget(const Rational& p, const Rational& q);

/// The corrected p of the Rényi gadget (THEOREMS.md D.12): p = min{1/2, (λ^{α−1} − 1)/(E_q − 1)}
/// with λ = e^ε, exact for rational λ and integer α, so that the single-copy moment is
/// (1 − p) + p·E_q = λ^{α−1} whenever p < 1/2, i.e. the gadget is exactly (α, ε)-RDP.
/// @param alpha   the integer Rényi order α ≥ 2 (≤ 64)
/// @param lambda  λ = e^ε > 1
/// @param q       ∈ (1/2, 1)
Rational renyi_gadget_p(unsigned alpha, const Rational& lambda, const Rational& q);

/// E_q = q^α(1−q)^{1−α} + (1−q)^α q^{1−α}, the Rényi moment of order α of the pair
/// (Bernoulli(q), Bernoulli(1−q)) (THEOREMS.md D.12).
/// @param alpha  the integer order α ≥ 1 (≤ 64)
/// @param q      ∈ (0, 1)
Rational renyi_gadget_moment(unsigned alpha, const Rational& q);

/// Mir_p, the counterexample to HSV L5.6(2) (THEOREMS.md D.13), interactive form: worlds "b=0",
/// "b=1", one query symbol "q". First query: "a1" or "a2", each with probability 1/2 independent of
/// b. Second: after a1, world 0 answers "X" with probability p and "Y" otherwise, world 1 answers
/// "Y"; after a2 the roles are swapped. Further queries halt. Default horizon 2.
/// Claim: for λ ≥ 1/(1−p), sup_A H_λ = p/2, so Mir_p is (ln(1/(1−p)), p/2)-DP (E.10 H7).
/// @param p  ∈ (0, 1]
Game mirror(const Rational& p);

/// The footnote-1 lottery (HSV footnote 1; THEOREMS.md D.14): worlds "b=0", "b=1" hold a secret
/// bit; messages "1" … "N". The first query (any message) releases r uniform on {1, …, N} (answer
/// "r=k"); the second query k answers "secret=b" if k = r, else "miss"; then halted. Default
/// horizon 2. Claim: an oblivious adversary (messages fixed in advance) has sup H_λ = 1/N at every
/// λ ≥ 1, an adaptive one learns the secret (sup H_λ = 1).
/// @param n  N ≥ 1 (≤ 1000); lottery_size(δ) = ⌈1/δ⌉ gives the footnote's N
Game lottery(unsigned long n);

/// N = ⌈1/δ⌉ for the footnote-1 lottery (THEOREMS.md D.14).
/// @param delta  δ ∈ (0, 1]
unsigned long lottery_size(const Rational& delta);

/// The 0-DP coin source (HSV Remark 8.3, §6.1; THEOREMS.md D.15): on the query "coin" returns a
/// fresh draw "c0", "c1", … from the fixed law @p pmf, independent of the world ("b=0", "b=1") and
/// of the past. Default horizon @p horizon. Claim: (0, 0)-DP: the two views are identical.
/// @param pmf      rational masses, ≥ 0, summing to exactly 1 (1 … 64 entries)
/// @param horizon  the default horizon, 1 … 1000
Game coin_source(const std::vector<Rational>& pmf, unsigned horizon = 1);

}  // namespace exactdp::library
