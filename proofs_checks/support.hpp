/// @file
/// Shared instances and generators of the theorem checks: the named fixtures of THEOREMS.md D.16
/// (MP, MA, R2, VW2, sticky RR), random small pairs and mechanisms (E.11), randomized-response
/// losses, and the brute-force enumeration of deterministic adversaries (the independent route of
/// X-BI-EXACT).
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"
#include "exactdp/parametric/parametric_game.hpp"
#include "proofs_checks/registry.hpp"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp::proofs {

/// a/b, canonical.
Rational q(long a, long b = 1);
/// The exact decimal-free text of a rational ("7/15").
std::string str(const Rational& x);

/// The λ grid of THEOREMS.md E.11: {1, 3/2, 2, 3, 4, 8, 16}.
const std::vector<Rational>& lambda_grid();
/// Records the named instance "@p name: @p got" as verified iff got = expected.
void expect_equal(CheckContext& ctx, const std::string& name, const Rational& got, const Rational& expected,
                  unsigned horizon = 0);
/// Records the named instance as verified iff lhs ≤ rhs (outcome "lhs ≤ rhs").
void expect_at_most(CheckContext& ctx, const std::string& name, const Rational& lhs, const Rational& rhs,
                    unsigned horizon = 0);

/// A random rational n/d with d ∈ [1, max_den] and 0 ≤ n/d ≤ max (canonical).
Rational random_rational(Rng& rng, long max, long max_den = 12);
/// A random pair (P(y), Q(y)) over 1–@p max_outcomes outcomes from integer weights ≤ @p max_weight
/// (zero entries allowed, both columns with positive sum).
std::vector<std::pair<Rational, Rational>> random_masses(Rng& rng, int max_outcomes = 4, int max_weight = 5);
/// "[(p0,q0), (p1,q1), …]".
std::string describe_masses(const std::vector<std::pair<Rational, Rational>>& m);
/// A random row-stochastic matrix rows × (1–3 columns), integer weights ≤ 3.
std::vector<std::vector<Rational>> random_channel(Rng& rng, std::size_t rows);
/// The loss of RR_{ln λ, δ} (THEOREMS.md A.2).
PrivacyLoss rr_loss(const Rational& lambda, const Rational& delta);
/// The product loss of RR_{ln λ_i, δ_i} (PLD composition).
PrivacyLoss rr_product_loss(const std::vector<std::pair<Rational, Rational>>& components);

/// The product of pairs given outcome by outcome (P(y), Q(y)): the masses of (⊗P_i, ⊗Q_i) over
/// the index tuples (zero rows dropped).
std::vector<std::pair<Rational, Rational>> product_masses(const std::vector<std::vector<std::pair<Rational, Rational>>>& parts);
/// A pair (P(y), Q(y)) as the one-round noninteractive game of the engine (game/game.hpp).
Game pair_game(const std::string& name, const std::vector<std::pair<Rational, Rational>>& masses);
/// The masses of RR_{ln λ, δ}: (Leak,0), (NoLeak,0), (NoLeak,1), (Leak,1).
std::vector<std::pair<Rational, Rational>> rr_masses(const Rational& lambda, const Rational& delta);

/// VW2(p₀, p₀′, P, P′) of D.16 as a two-round static game.
Game vw2_game(const std::string& name, const Rational& p0, const Rational& p0w1, const Rational (&P)[2][2],
              const Rational (&Pw1)[2][2]);
/// MP (D.16, pure).
Game mp_game();
/// MA (D.16, approximate, with a catastrophic event).
Game ma_game();
/// R2 (D.16): two rounds, each answer an independent RR₂ of the secret bit.
Game r2_game();
/// A random static game (E.11): @p states hidden states (2–4), messages {0,1}, answers {0,1},
/// transitions with integer weights ≤ 3 (zero entries allowed); world b starts in state b.
Game random_table_game(Rng& rng, int states, unsigned horizon);
/// One random state of a table mechanism over the messages "0", "1": for each message, answers
/// "0"/"1" and next states 0..states−1 (named by @p next) with small random rational weights.
TableMechanism::StateTable random_state_table(Rng& rng, int states, const std::function<std::string(int)>& next);
/// A random VW2 system (D.16 family; denominators ≤ 12, zero entries allowed).
Game random_vw2_game(Rng& rng);

/// Every deterministic adversary that plays all @p horizon rounds (a full decision tree over the
/// answers reachable in either world). Throws exactdp::Error when there would be more than
/// @p limit trees. Stopping early never helps (the shorter view is a post-processing of the
/// longer), so these trees attain the supremum of A.4.
std::vector<Adversary> all_adversaries(const Game& game, unsigned horizon, std::size_t limit = 20000);
/// One uniformly random full-depth deterministic adversary.
Adversary random_adversary(const Game& game, unsigned horizon, Rng& rng);

/// "1 piece", "3 pieces".
std::string counted(std::size_t n, const std::string& noun);

/// The for-all check shared by the counters whose adaptive profile is Comp(n × RR_{ln 1/r}) (X-TREE,
/// HSV-C7.5). Closed form, by hand: each of the n RR factors answers right with p = 1/(1+r) and
/// wrong with q = r/(1+r); a view with i wrong answers has ratio r^{2i−n}, mass C(n,i)p^{n−i}q^i in
/// one world and C(n,i)p^i q^{n−i} in the other, so at λ = r^{−m} (m ≥ 0)
/// δ(λ) = Σ_{i : n−2i > m} C(n,i)(p^{n−i}q^i − λ p^i q^{n−i}) (the same both ways by symmetry), and the
/// worst pure ratio is r^{−n}. For each m of @p ms, the parametric game's worst δ(r^{−m}) (parametric
/// backward induction on a certified partition, the numeric engine built by @p numeric agreeing at
/// every piece's rational sample) must equal that function on every piece; then its worst pure ratio
/// must be r^{−n} on every piece. Instances are named "@p label: …".
void expect_rr_composition_for_all(CheckContext& ctx, const std::string& label, const parametric::ParametricGame& game,
                                   const std::function<Game(const Rational&)>& numeric, long n, const std::vector<long>& ms);

}  // namespace exactdp::proofs
