/// @file
/// Property testing of mechanisms (issue 15, item 5): a refuted (ln λ, δ)-DP claim shrunk to a
/// small witness, and a short account of it that a person reads in ten seconds. Used by
/// testing/gtest.hpp (EXACTDP_EXPECT_DP) and by the Python `exactdp.testing.assert_dp`.
///
/// **Shrinking.** check_approximate_dp / find_violation (game/engine.hpp) already return a witness
/// at the least horizon t at which the claim fails (iterative deepening), with the adversary that
/// maximises P_b(S) − λ·P_{1−b}(S) at t. minimal_witness then looks for the smallest witness that
/// still refutes the claim, in three steps:
///
/// 1. *Cut subtrees.* Visit the adversary's decision tree in preorder (root first, so the largest
///    subtrees are tried first) and replace a node that sends by "stop" whenever the cut tree still
///    refutes the claim with its best event (sup_S P_b(S) − λ·P_{1−b}(S) > δ). A cut never helps
///    a later cut become acceptable (stopping earlier is a post-processing of the view, which
///    cannot increase the hockey-stick divergence, THEOREMS.md A.4), so one pass leaves a tree in
///    which no further single cut keeps a violation.
/// 2. *Smallest event.* For that tree, the views sorted by their contribution
///    P_b(v) − λ·P_{1−b}(v) (largest first, ties by view); S is the shortest prefix whose sum
///    exceeds δ — no event with fewer views exceeds δ.
/// 3. *Prune the rest.* Every subtree that leads to no view of S stops instead (P(S) unchanged).
///
/// The result refutes the same claim at the same least horizon t (every adversary with fewer
/// rounds satisfies it), with at most as many tree nodes and views as the engine's witness.
#pragma once

#include "exactdp/game/engine.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace exactdp {

/// Limits of minimal_witness.
struct MinimalWitnessOptions {
  /// Step 1 (cutting subtrees) costs one view computation per node of the tree; it is skipped for
  /// trees with more nodes than this (steps 2 and 3 still run).
  std::size_t max_tree_nodes = 2000;
};

/// The shrunk witness of a refuted claim "(ln λ, δ)-DP up to the horizon" (see the file comment).
/// Preconditions (exactdp::Error otherwise): @p witness refutes the claim on @p game, i.e.
/// witness.delta() > @p delta, and its adversary is valid for the game.
Witness minimal_witness(const Game& game, const Witness& witness, const Rational& delta,
                        const MinimalWitnessOptions& options = {});

/// A short account of a refuted claim, for test failures, e.g. (a counter whose noise is drawn
/// once, so that two answers reveal the second bit):
///
/// ```
/// (ln λ, δ)-DP fails for "buggy counter" at λ = 3, δ = 1/4: worst δ(λ) = 1 up to horizon 3
///   neighbours    : world 0 and world 1 (pairs, at most 1 differing)
///   rounds        : fails from round 2 (holds for 1)
///   adversary     : send "0"
///                     on "0": send "0" to world 0, "1" to world 1
///                   (any other answer: stop)
///   event S       : ["0", "0"]
///   P[world 0](S) = 1/2
///   P[world 1](S) = 0
///   P[world 0](S) - 3 * P[world 1](S) = 1/2 > δ = 1/4
/// ```
///
/// The tree is printed only along the branches that lead to S (other answers stop), at most
/// @p max_lines lines of it, and at most 8 views of the event.
/// @param game        the game the witness was found on
/// @param witness     a witness (usually minimal_witness's)
/// @param delta       the claim's δ
/// @param worst       the worst-case δ(λ) at the full horizon, if known (printed on the first line)
/// @param horizon     the horizon of the check (default: the game's)
/// @param max_lines   most lines of the decision tree
std::string describe_refutation(const Game& game, const Witness& witness, const Rational& delta,
                                const std::optional<Rational>& worst = std::nullopt,
                                std::optional<unsigned> horizon = std::nullopt, std::size_t max_lines = 24);

}  // namespace exactdp
