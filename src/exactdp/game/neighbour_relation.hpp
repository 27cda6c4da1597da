/// @file
/// A neighbouring relation written with message names — the `"neighbours"` object of a spec file
/// (spec/mechanisms/README.md; THEOREMS.md A.6–A.7, HSV D3.3–D3.5) — and the Verifier it becomes
/// once the mechanism's message alphabet is known.
///
/// * static: the worlds x ∼ x′ differ only in their initial state and every message is sent
///   identically to both (f_∼, HSV §3.1; StaticVerifier);
/// * pairs: any allowed pair (m₀, m₁) at every step, at most `max_differing` non-identical ones in
///   total (PairsVerifier);
/// * automaton: an explicit finite automaton over pairs (AutomatonVerifier).
///
/// Authored mechanisms (game/authoring.hpp) carry one, and io/spec_writer.hpp writes it back.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

/// A neighbouring relation as written (message names, not ids).
struct NeighbourRelation {
  /// Which of the three forms (see the file comment).
  enum class Type { static_worlds, pairs, automaton };
  /// A message pair [m₀, m₁]: world b receives m_b.
  using Pair = std::pair<std::string, std::string>;
  /// An automaton edge: sending `pair` moves to the state named `next`.
  struct Edge {
    Pair pair;
    std::string next;
  };

  Type type = Type::static_worlds;
  std::string pointer;                                      ///< where it was read (a JSON Pointer), if it was
  std::array<std::string, 2> worlds{"world 0", "world 1"};  ///< static: the two worlds' names
  std::vector<Pair> allowed;                                ///< pairs: the allowed pairs
  std::optional<unsigned> max_differing;                    ///< pairs: k, or no limit
  std::string initial;                                      ///< automaton: σ₀
  std::vector<std::pair<std::string, std::vector<Edge>>> automaton;  ///< automaton: σ → edges, in order

  /// Static neighbours with worlds named @p x and @p x_prime (distinct).
  static NeighbourRelation static_worlds(std::string x, std::string x_prime);
  /// Pair neighbours: @p allowed pairs (non-empty, distinct), at most @p max_differing
  /// non-identical pairs in total (std::nullopt: no limit; 1: event-level).
  static NeighbourRelation pairs(std::vector<Pair> allowed, std::optional<unsigned> max_differing = std::nullopt);
  /// An automaton over pairs starting in @p initial, with each state's edges.
  static NeighbourRelation with_automaton(std::string initial, std::vector<std::pair<std::string, std::vector<Edge>>> states);

  bool is_static() const { return type == Type::static_worlds; }
  /// "static", "pairs" or "automaton".
  std::string type_name() const;
  /// The messages named by the pairs (allowed or automaton edges), in first-seen order.
  std::vector<std::string> messages() const;
  /// The two worlds' names in a Game: the static worlds, or "world 0" and "world 1".
  std::array<std::string, 2> world_names() const;
  /// Checks the relation (distinct worlds; non-empty, distinct pairs; known automaton states; no
  /// `"*"` as a message). Throws exactdp::Error naming @p where, the field and the value.
  void validate(const std::string& where) const;
  /// The verifier over @p mechanism's alphabet. Throws exactdp::Error (naming @p where) when a
  /// pair names a message outside the alphabet.
  std::shared_ptr<const Verifier> verifier(const InteractiveMechanism& mechanism, const std::string& where) const;
};

}  // namespace exactdp
