/// @file
/// Interactive instances of the concurrent-composition checks (THEOREMS.md B.12, D.16, E.7, E.8,
/// E.10): the named compositions C1 = MP ⊗ MP, R1 = MP ⊗ R2 and H8 = Mir_{1/2} ⊗ M_{1/10} built with
/// compose/'s concurrent() (free interleaving, each component limited to its own horizon), random
/// small interactive systems (E.11), and the map from a composed likelihood tree to the components'
/// sub-histories H|_i on which X-FACTOR and the composed simulator identity of B.12 are checked.
#pragma once

#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "proofs_checks/registry.hpp"

#include <string>
#include <vector>

namespace exactdp::proofs {

/// C1 = ConComp(MP, MP) (E.7), by compose/'s concurrent(): horizon 4.
Game c1_game();
/// R1 = ConComp(MP, R2) (E.8), by concurrent(): horizon 4.
Game r1_game();
/// H8 = ConComp(Mir_{1/2}, M_{1/10}) (E.10): the static mirror mechanism of D.13 beside the
/// continual M_δ of D.11 under its two-bit relation g, by concurrent(): horizon 4.
Game h8_game();

/// A small random interactive system (E.11): with probability 1/2 a random VW2 system (D.16),
/// otherwise a random two-state table game of horizon 1 or 2 (binary messages and answers, zero
/// entries allowed).
Game random_small_system(Rng& rng);
/// A small random interactive system with a finite pure level (retries random_small_system; R2
/// after 50 failed draws, so the call always returns).
Game random_pure_system(Rng& rng);

/// The likelihood tree of a concurrent composition together with the trees of its components and,
/// for every composed history H, the node of each component's tree that holds its sub-history
/// H|_i (THEOREMS.md A.8, B.12).
struct ComposedTree {
  std::vector<Game> parts;                      ///< the component games
  Game game;                                    ///< concurrent(parts)
  LikelihoodTree composed;                      ///< likelihood_tree(game)
  std::vector<LikelihoodTree> components;       ///< likelihood_tree(parts[i])
  std::vector<std::vector<std::size_t>> at;     ///< at[composed node][i] = component i's node of H|_i
  /// Number of distinct tuples (H|_1, …, H|_k) over the composed nodes: fewer than the composed
  /// nodes whenever different interleavings reach the same sub-histories.
  std::size_t distinct_tuples() const;
};

/// Builds concurrent(@p parts), all likelihood trees and the sub-history map. Message pairs of the
/// composition are routed with ConcurrentMechanism::route and answers "i:a" are matched by name in
/// component i's tree. Throws exactdp::Error if a composed history has no counterpart in a
/// component tree (which would contradict the routing of compose/).
ComposedTree composed_tree(const std::vector<Game>& parts);

/// The first composed node at which M^b(H) ≠ Π_i M_i^b(H|_i) (X-FACTOR), described; "" if none.
std::string factorisation_failure(const ComposedTree& t);

/// The composed simulator of B.12 (LYU22 App. A.1.2): draw c_i ← RR_i(b) independently and run
/// T_i^{c_i} on component i. Checks, at every composed node H and both b, the identity
/// Σ_{(c_1,…,c_k)} Π_i Pr[RR_i(b) = c_i]·T_i^{c_i}(H|_i) = M^b(H), summing over every tuple of RR
/// outputs (no factorisation is used on the left), with each T_i^{c_i}(H|_i) the product of the
/// system's conditionals (system_likelihoods). Returns "" or the first failure, described.
/// Precondition: one simulator per component, each built on t.components[i].
std::string composed_simulator_failure(const ComposedTree& t, const std::vector<Simulator>& simulators);

/// X-LYU-GREEDY (registered in facts.cpp, written beside the other LYU-DECOMP node checks in
/// lyu_s4_1_approximate.cpp): Step C of B.9 replayed from the node tables of LYU-DECOMP runs.
void check_lyu_greedy(CheckContext& ctx);

/// "MP ⊗ R2".
std::string joined_names(const std::vector<Game>& parts);

/// "a₀" or "a₀,q,a₁,…": the answers of the history at @p node, with the messages of the later steps
/// (the first message does not matter in VW2 and R2, whose first round ignores it) — the node
/// names of the tables of THEOREMS.md B.8 and B.9.
std::string answer_key(const LikelihoodTree& t, std::size_t node);

/// Where the worst-case profile @p profile exceeds the optimal-composition bound @p bound (B.11):
/// both are piecewise linear in λ, so comparing them at every breakpoint of either suffices
/// (X-DUALITY-CHECK). Returns "" when the profile is nowhere above the bound, otherwise
/// " λ = x: δ > bound;" for each breakpoint where it is.
std::string profile_above_bound(const PrivacyProfile& profile, const std::vector<ProfilePiece>& bound);

}  // namespace exactdp::proofs
