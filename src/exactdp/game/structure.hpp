/// @file
/// The structure of a finite mechanism, for `exactdp lint` (io/spec_lint.hpp): which states are
/// reachable, which reachable states behave identically (probabilistic bisimulation, unbounded),
/// and which answers no adversary can tell apart. None of these changes a verdict; each usually
/// points at a slip in a hand-written table.
///
/// * **Reachable**: reached from either world's initial law by some sequence of messages of the
///   alphabet (every message, whatever the neighbouring relation allows).
/// * **Bisimilar** states s ≡ t (Larsen–Skou probabilistic bisimulation with the messages as
///   actions and the answers as observations; Kemeny–Snell lumping): the coarsest partition of
///   the reachable states such that for every message q, answer a and class C,
///   Pr[a, next ∈ C | s, q] = Pr[a, next ∈ C | t, q]. Computed by partition refinement to the fixed
///   point, so it refines the horizon-bounded ≡_r of game/compiled_game.hpp at every r. Bisimilar
///   states can be merged without changing any privacy quantity at any horizon.
/// * **Indistinguishable answers** a ≈ b: there is one constant c > 0 with
///   Pr[b, next ∈ C | s, q] = c · Pr[a, next ∈ C | s, q] for every message q, every reachable
///   state s and every bisimilarity class C. Seeing b then leaves the adversary with the beliefs it
///   has after a, scaled by c in both worlds alike — whatever messages the two worlds received, so
///   also under pair relations — and every view's two probabilities are scaled by the same
///   factor: no event and no adversary distinguishes them, and merging them changes no privacy
///   quantity. (A factor depending on the message would not do: under a pair (m₀, m₁) the worlds
///   would be scaled differently.) Answers never emitted from a reachable state are left out.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"

#include <array>
#include <cstddef>
#include <vector>

namespace exactdp {

/// What analyse_structure finds.
struct MechanismStructure {
  std::vector<StateId> reachable;                      ///< in breadth-first order from the initial laws
  std::vector<StateId> unreachable;                    ///< the other states 0 … state_count − 1
  std::vector<std::vector<StateId>> bisimilar;         ///< the classes of ≥ 2 reachable states, each sorted
  std::vector<bool> halted;                            ///< per state id: answers "halt" and stays, for every message
  std::vector<std::vector<AnswerId>> indistinguishable;  ///< groups of ≥ 2 answers, each sorted
  /// False when the refinement went beyond the work budget: `bisimilar` and `indistinguishable`
  /// are then empty (not computed), the rest is complete.
  bool complete = true;
};

/// Analyses a mechanism whose states are 0 … @p state_count − 1 (a TableMechanism) from the two
/// initial laws @p initial. Exact (rational arithmetic). The refinement takes one round per
/// distinguishing depth (a chain of n states needs n rounds), each over every row; it stops with
/// `complete == false` once rounds × rows would exceed @p max_work.
MechanismStructure analyse_structure(const InteractiveMechanism& mechanism, std::size_t state_count,
                                     const std::array<InitialLaw, 2>& initial, std::size_t max_work = 10'000'000);

}  // namespace exactdp
