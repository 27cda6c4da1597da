/// @file
/// The two-world adversary game (THEOREMS.md A.4, A.6, A.7, B.1): a mechanism, a verifier that
/// encodes the neighbouring relation, the two worlds' initial laws, adversaries as decision trees
/// and their exact view distributions.
///
/// The adversary sends a *pair* of messages (m₀, m₁); the identifier forwards m_b to the mechanism
/// in world b (HSV D3.2); the verifier V[f] only lets through pairs whose sequence is f-valid
/// (HSV D3.3, D3.5). The engine never offers an invalid pair, which loses nothing because the
/// verifier's refusal depends only on the adversary's own messages (A.6).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/dist/dist.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/numeric/rational.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

/// A message pair (m₀, m₁): world b's mechanism receives m_b.
struct MessagePair {
  MessageId world0 = 0;
  MessageId world1 = 0;
  bool identical() const { return world0 == world1; }
  friend auto operator<=>(const MessagePair&, const MessagePair&) = default;
};

/// A verifier's state: the canonical summary of the pair history that determines which pairs are
/// allowed next (THEOREMS.md B.1, σ̂). Small ids, chosen by the verifier.
using VerifierState = std::uint32_t;

/// A neighbouring relation given as a finite-state verifier over message pairs (HSV D3.5,
/// THEOREMS.md A.6–A.7). Contract: allowed() and next() are deterministic and depend only on
/// the verifier state; the set of verifier states reachable is finite.
class Verifier {
public:
  virtual ~Verifier() = default;
  /// The state before any pair was sent.
  virtual VerifierState initial_state() const = 0;
  /// The pairs the adversary may send next, in a fixed order (the engine's actions).
  virtual const std::vector<MessagePair>& allowed(VerifierState state) const = 0;
  /// The state after sending allowed(state)[action].
  virtual VerifierState next(VerifierState state, std::size_t action) const = 0;
  /// A one-line description ("static", "pairs, at most 1 differing").
  virtual std::string describe() const = 0;
};

/// f_∼ for static neighbours (HSV §3.1, THEOREMS.md A.7 first row): the worlds differ only in
/// their initial state; every pair is identical (q, q), for every message q of the alphabet.
class StaticVerifier final : public Verifier {
public:
  /// @param message_count  the size of the mechanism's message alphabet (≥ 1)
  explicit StaticVerifier(std::size_t message_count);
  VerifierState initial_state() const override { return 0; }
  const std::vector<MessagePair>& allowed(VerifierState) const override { return pairs_; }
  VerifierState next(VerifierState, std::size_t) const override { return 0; }
  std::string describe() const override { return "static"; }

private:
  std::vector<MessagePair> pairs_;
};

/// Pair relations (THEOREMS.md A.7: event-level, sensitivity-Δ value pairs f_{L,Δ}, the two-bit
/// gadget g): any pair of the allowed list at every step, optionally with at most k non-identical
/// pairs in total (k = 1 is event-level). The state is the number of non-identical pairs sent so
/// far (capped at k), so the relation is enforced on every prefix as V[f] does (HSV D3.5).
class PairsVerifier final : public Verifier {
public:
  /// @param allowed        the allowed pairs (non-empty, distinct)
  /// @param max_differing  k, or std::nullopt for no limit
  /// Throws exactdp::Error if the list is empty or has duplicates.
  PairsVerifier(std::vector<MessagePair> allowed, std::optional<unsigned> max_differing);
  VerifierState initial_state() const override { return 0; }
  const std::vector<MessagePair>& allowed(VerifierState state) const override;
  VerifierState next(VerifierState state, std::size_t action) const override;
  std::string describe() const override;

private:
  std::vector<MessagePair> all_, identical_only_;
  std::optional<unsigned> max_differing_;
};

/// An explicit finite automaton over message pairs (THEOREMS.md A.7: user-level relations, the
/// JRSS challenge step, the two-bit gadget g, and anything else with finite memory; HSV D3.3 with
/// a finite-state f). In state σ the allowed pairs are the labels of σ's edges, and sending one
/// moves along its edge; a state without edges allows nothing (the adversary must stop). Because
/// the verifier state is part of every game node, the relation is enforced on every prefix, as
/// V[f] does (HSV D3.5).
class AutomatonVerifier final : public Verifier {
public:
  /// One edge: sending `pair` moves to state `next`.
  struct Edge {
    MessagePair pair;
    VerifierState next = 0;
  };
  /// @param state_names  names for describe() and errors, one per state (non-empty)
  /// @param initial      the initial state's index
  /// @param edges        per state, its outgoing edges (no pair twice in one state)
  /// Throws exactdp::Error on an index out of range or a repeated pair.
  AutomatonVerifier(std::vector<std::string> state_names, VerifierState initial, std::vector<std::vector<Edge>> edges);
  VerifierState initial_state() const override { return initial_; }
  const std::vector<MessagePair>& allowed(VerifierState state) const override { return pairs_.at(state); }
  VerifierState next(VerifierState state, std::size_t action) const override { return edges_.at(state).at(action).next; }
  std::string describe() const override { return "automaton with " + std::to_string(names_.size()) + " states"; }
  const std::string& state_name(VerifierState state) const { return names_.at(state); }

private:
  std::vector<std::string> names_;
  VerifierState initial_ = 0;
  std::vector<std::vector<Edge>> edges_;
  std::vector<std::vector<MessagePair>> pairs_;
};

/// An initial law: a finite measure over mechanism states (a point mass for a deterministic
/// initial state). Masses positive, summing to exactly 1.
using InitialLaw = std::vector<std::pair<StateId, Rational>>;

/// A two-world game: mechanism, verifier, and the initial law of each world (THEOREMS.md B.1:
/// m_b = π^b at the root). For static neighbours x ∼ x′ the two laws are the point masses at the
/// initial states of x and x′; for a continual mechanism both worlds share its initial state and
/// the verifier carries the difference.
struct Game {
  std::string name;
  std::shared_ptr<const InteractiveMechanism> mechanism;
  std::shared_ptr<const Verifier> verifier;
  std::array<InitialLaw, 2> initial;
  std::array<std::string, 2> world_names{"world 0", "world 1"};
  unsigned horizon = 1;  ///< the default number of rounds
  /// The largest horizon for which the game is exact, when it is exact only up to one (a spec
  /// explored up to a horizon, whose states first reached there are written halted: its
  /// `"max_horizon"` key). Absent: exact at every horizon.
  std::optional<unsigned> max_horizon;

  /// Checks the invariants (mechanism and verifier set, initial laws valid probability laws,
  /// 1 ≤ horizon ≤ max_horizon); throws exactdp::Error naming the game otherwise.
  void validate() const;
  /// Throws exactdp::Error (field "max_horizon") when an analysis at @p horizon rounds would go
  /// beyond max_horizon; called by every engine entry point before any work.
  void check_horizon(unsigned horizon) const;
};

/// A game with static neighbours: world b starts in state @p initial[b]; every message of the
/// mechanism's alphabet may be sent (identically to both worlds).
Game static_game(std::string name, std::shared_ptr<const InteractiveMechanism> mechanism,
                 std::array<StateId, 2> initial, unsigned horizon);

/// A noninteractive mechanism's neighbouring pair as the one-round interactive game that ignores
/// its query, answers with the mechanism's output and halts (THEOREMS.md A.3: "a NIM N is the CM
/// that … answers N(x) and halts"). Its worst-case profile is the pair's profile. Outputs are
/// named by `operator<<` when T has one and the names are distinct, by "y<index>" otherwise.
template <class T>
Game noninteractive_game(const std::string& name, const NeighbouringPair<T>& pair) {
  std::vector<T> outcomes = pair.world0.support();
  for (const auto& y : pair.world1.support())
    if (!std::binary_search(outcomes.begin(), outcomes.end(), y)) outcomes.insert(std::lower_bound(outcomes.begin(), outcomes.end(), y), y);
  std::vector<std::string> names;
  for (const auto& y : outcomes) names.push_back(detail::show_outcome(y));
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  const bool distinct = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end() &&
                        std::find(sorted.begin(), sorted.end(), halt_answer) == sorted.end() &&
                        std::find(sorted.begin(), sorted.end(), invalid_answer) == sorted.end();
  std::array<TableMechanism::StateTable, 2> worlds;
  for (std::size_t i = 0; i < outcomes.size(); ++i) {
    const std::string answer = distinct ? names[i] : "y" + std::to_string(i);
    for (int b = 0; b < 2; ++b) {
      const Rational p = (b == 0 ? pair.world0 : pair.world1).mass(outcomes[i]);
      if (sgn(p) > 0) worlds[b].rules["*"].push_back({p, answer, "done"});
    }
  }
  auto mech = std::make_shared<TableMechanism>(
      name, std::vector<std::pair<std::string, TableMechanism::StateTable>>{
                {"x", worlds[0]}, {"x'", worlds[1]}, {"done", TableMechanism::StateTable{true, {}}}});
  Game g = static_game(name, mech, {mech->state_id("x"), mech->state_id("x'")}, 1);
  g.world_names = {"x", "x'"};
  return g;
}

/// A deterministic adaptive adversary: a decision tree from the answer history to the next
/// message pair, or stop (THEOREMS.md A.4). Node 0 is the root. A node that sends a pair lists its
/// children by answer; an answer without a child means "stop" after it.
class Adversary {
public:
  struct Node {
    std::optional<MessagePair> send;                      ///< std::nullopt: stop here
    std::vector<std::pair<AnswerId, std::size_t>> next;  ///< answer → child node, sorted by answer
  };
  /// The adversary that stops immediately.
  Adversary() : nodes_{Node{}} {}
  /// Appends a node and returns its index.
  std::size_t add_node(std::optional<MessagePair> send) {
    nodes_.push_back(Node{send, {}});
    return nodes_.size() - 1;
  }
  /// Sets what node @p node sends.
  void set_send(std::size_t node, std::optional<MessagePair> send) { nodes_.at(node).send = send; }
  /// Links answer @p answer at @p node to @p child.
  void set_child(std::size_t node, AnswerId answer, std::size_t child);
  /// The child of @p node after @p answer, if any.
  std::optional<std::size_t> child(std::size_t node, AnswerId answer) const;
  const std::vector<Node>& nodes() const { return nodes_; }
  /// The number of rounds on the longest branch.
  unsigned depth() const;
  /// An indented, readable listing of the tree with message and answer names.
  std::string describe(const InteractiveMechanism& mechanism) const;

private:
  std::vector<Node> nodes_;
};

/// A view of a deterministic adversary: its answer history (its messages are a function of it).
using View = std::vector<AnswerId>;

/// The exact view distributions (V₀, V₁) of one adversary against a game up to @p horizon rounds
/// (the adversary also stops where its tree stops). Computed by the forward recursion of system
/// likelihoods over beliefs (THEOREMS.md A.3, LYU22 (14)–(16)). Throws exactdp::Error if the
/// adversary sends a pair the verifier does not allow at that point.
NeighbouringPair<View> view_distributions(const Game& game, const Adversary& adversary, unsigned horizon);
/// The same up to the game's own horizon.
inline NeighbouringPair<View> view_distributions(const Game& game, const Adversary& adversary) {
  return view_distributions(game, adversary, game.horizon);
}

/// "a0 q a1 …": a view with answer names.
std::string describe_view(const InteractiveMechanism& mechanism, const View& view);

}  // namespace exactdp
