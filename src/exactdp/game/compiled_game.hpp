/// @file
/// A game compiled for the search (THEOREMS.md B.1): the mechanism and the verifier explored from
/// the initial laws up to the horizon into flat tables, and the mechanism's states merged by
/// horizon-bounded probabilistic bisimulation, one partition per number of rounds left.
///
/// Why bounded. The engine's nodes with r rounds left hold beliefs over states the mechanism can
/// reach in at most T − r steps, and the value of such a node depends on a state only through what
/// an adversary can observe in r more rounds. Two states are r-bisimilar (≡_r) when, for every
/// message, they give every (answer, ≡_{r−1}-class) the same probability; ≡_0 merges everything
/// (a node with no rounds left is valued by its two total masses). By induction on r, a node's
/// value depends on its beliefs only through their images on ≡_r-classes (the lumping of a Markov
/// chain, Kemeny–Snell; Larsen–Skou probabilistic bisimulation with the messages as actions and
/// the answers as observations, stopped after r steps), so the search may key nodes on those
/// images. The ≡_r are computed by partition refinement level by level, each from the previous
/// one; the unbounded bisimulation (the fixed point, used by `exactdp lint`) refines every ≡_r.
///
/// Message symmetry. Two message pairs offered in the same verifier state that lead to the same
/// verifier state, and whose messages act identically on every ≡_r-class (their columns of the
/// level-r table agree), give every node the same children: only the first is kept. Values and
/// witnesses are unchanged (the engine's argmax prefers the earliest of equal actions).
///
/// The mechanism is read only here, on one thread: library mechanisms intern states lazily and are
/// not thread-safe (mechanism/interactive.hpp), and the parallel search reads only these tables.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <unordered_map>
#include <vector>

namespace exactdp::engine_detail {

/// One row of a compiled kernel: with probability probs[prob], answer `answer` and move to class
/// `next` of the level below.
struct CompiledTransition {
  AnswerId answer = 0;
  std::uint32_t next = 0;
  std::uint32_t prob = 0;
};

/// The kernel of every class of one level (rounds left r ≥ 1) under every used message:
/// rows[offsets[c·M + k] … offsets[c·M + k + 1]) for class c and message slot k, sorted by
/// (answer, next) with equal pairs merged.
struct LevelTable {
  std::uint32_t classes = 0;
  std::vector<std::uint32_t> offsets;
  std::vector<CompiledTransition> rows;
};

/// Limits and switches of compile_game.
struct CompileOptions {
  unsigned horizon = 1;
  /// Merge states by ≡_r and drop duplicate message pairs. Off: every state is its own class at
  /// every level and every allowed pair is kept (the unreduced engine the reductions are tested
  /// against).
  bool reduce = true;
  /// Most mechanism states to explore before refusing (exactdp::GameTooLarge).
  std::uint64_t max_states = 20'000'000;
  /// Most kernels (state, message) to read from the mechanism, and most kernel rows (state,
  /// message, transition), before refusing with exactdp::GameTooLarge (field "max_steps" or
  /// "max_rows"): deterministic bounds on the compilation's work, used by the engine's size
  /// estimate (engine.cpp). A mechanism's step may cost microseconds or milliseconds (library
  /// mechanisms compute exact kernels on first use), hence a bound on each.
  std::uint64_t max_steps = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max_rows = std::numeric_limits<std::uint64_t>::max();
  /// Called once per explored depth with (depth, states so far); may throw to stop.
  std::function<void(unsigned, std::uint64_t)> on_depth;
};

/// Counters of the compilation.
struct CompileStats {
  std::uint64_t states = 0;          ///< mechanism states explored (reachable within the horizon)
  std::uint64_t classes = 0;         ///< Σ over levels r ≥ 1 of the ≡_r-classes
  std::uint64_t actions_dropped = 0; ///< message pairs dropped as duplicates (Σ over levels, verifier states)
};

/// The compiled game. Class ids are per level; verifier states are renumbered densely from 0.
struct CompiledGame {
  unsigned horizon = 0;
  bool reduced = false;
  // ---- verifier (dense local states)
  std::uint32_t verifier_initial = 0;
  std::vector<VerifierState> verifier_state;             ///< local → the verifier's own id
  std::unordered_map<VerifierState, std::uint32_t> verifier_local;  ///< the verifier's own id → local
  std::vector<std::vector<MessagePair>> pairs;           ///< local state → allowed pairs (original ids)
  std::vector<std::vector<std::uint32_t>> verifier_next; ///< local state, action → local state
  /// [r][σ]: the actions (indices into pairs[σ]) kept at level r after the message symmetry.
  std::vector<std::vector<std::vector<std::uint32_t>>> kept_actions;
  // ---- messages
  std::vector<MessageId> messages;          ///< the slots: every message some allowed pair uses
  std::vector<std::int32_t> slot_of;        ///< message id → slot, −1 if unused
  // ---- mechanism
  std::vector<StateId> states;                           ///< explored states, local → mechanism id
  std::unordered_map<StateId, std::uint32_t> local_of;   ///< mechanism id → local
  std::vector<std::uint32_t> depth;                      ///< local → least depth reached
  /// class_of[r][local state] for r = 0 … horizon (no_class where depth > horizon − r).
  std::vector<std::vector<std::uint32_t>> class_of;
  /// tables[r] for r = 1 … horizon (tables[0] unused); shared between levels when unreduced.
  std::vector<const LevelTable*> tables;
  std::vector<LevelTable> table_store;
  std::vector<Rational> probs;                           ///< the probability pool
  CompileStats stats;

  static constexpr std::uint32_t no_class = 0xffffffffu;

  /// The rows of class @p c at level @p r under message slot @p slot.
  std::pair<const CompiledTransition*, const CompiledTransition*> rows(unsigned r, std::uint32_t c, std::uint32_t slot) const {
    const LevelTable& t = *tables[r];
    const std::size_t i = static_cast<std::size_t>(c) * messages.size() + slot;
    return {t.rows.data() + t.offsets[i], t.rows.data() + t.offsets[i + 1]};
  }
  /// The class at level @p r of a mechanism state; throws exactdp::Error if it was not explored.
  std::uint32_t class_at(unsigned r, StateId state) const;
};

/// Explores and (optionally) reduces @p game up to @p options.horizon rounds. Reads the mechanism
/// and the verifier on the calling thread only. Throws exactdp::GameTooLarge beyond
/// options.max_states, exactdp::Error on an invalid game.
CompiledGame compile_game(const Game& game, const CompileOptions& options);

}  // namespace exactdp::engine_detail
