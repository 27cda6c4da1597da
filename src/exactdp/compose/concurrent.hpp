/// @file
/// Concurrent composition of interactive and continual mechanisms (THEOREMS.md A.8 "ConComp";
/// VW21 D6, LYU22, HSTVVXZ23 D2.4, HSV D4.1), and the adversary classes that restrict how an
/// adversary may interleave its messages (THEOREMS.md A.4, A.8 "Sequential composition").
///
/// The composition of M₁, …, M_k is an ordinary InteractiveMechanism whose state is the tuple of
/// component states and whose messages are the pairs (i, m), written `"i:m"` with i counted from
/// 0. A message (i, m) is routed to component i, whose answer (written `"i:a"`) is returned; the
/// other components do not move. Interleaving is free: the game engine (game/engine.hpp) offers
/// every message to every component at every round, so it plays every interleaving adversary.
/// Because the composition is an ordinary mechanism, every engine analysis applies unchanged.
///
/// Memoisation: the engine keys nodes on the normalised *joint* belief pair. For a product of
/// component beliefs that key is a function of the tuple of per-component normalised pairs
/// (B.1), so joint normalisation merges at least as many histories as per-component
/// normalisation would; the price is key size (the support of the joint belief is the product of
/// the component supports). bench/README.md reports the measured counts.
#pragma once

#include "exactdp/game/adversary_class.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace exactdp {

/// The name of message @p message of component @p component in a composition: `"i:m"`.
std::string routed_name(std::size_t component, const std::string& message);

/// Reads a routed name `"i:m"`: the component index i and the inner name m, or std::nullopt when
/// @p name does not start with a decimal index and a colon (e.g. creation messages).
std::optional<std::pair<std::size_t, std::string>> parse_routed_name(const std::string& name);

/// ConComp(M₁, …, M_k) as one mechanism (THEOREMS.md A.8; VW21 D6). States are tuples of
/// component states, interned on first sight; the step of (i, m) in (s₁, …, s_k) is component i's
/// step of m in s_i, with the other coordinates unchanged. Its likelihood therefore factorises
/// over the components' sub-histories whatever the interleaving (X-FACTOR, B.12).
class ConcurrentMechanism final : public InteractiveMechanism {
public:
  /// @param components  the mechanisms M₁, …, M_k (k ≥ 1, none null)
  /// @param name        for reports (default "M₁ ⊗ … ⊗ M_k" from the components' names)
  /// Throws exactdp::Error if there is no component or one is null.
  explicit ConcurrentMechanism(std::vector<std::shared_ptr<const InteractiveMechanism>> components, std::string name = "");

  /// The number of components k.
  std::size_t size() const { return components_.size(); }
  /// Component @p i.
  const InteractiveMechanism& component(std::size_t i) const { return *components_.at(i); }
  /// The component and the component's own message id of a composed message.
  std::pair<std::size_t, MessageId> route(MessageId message) const { return routes_.at(message); }
  /// The composed id of message @p message of component @p component.
  MessageId message_of(std::size_t component, MessageId message) const { return offsets_.at(component) + message; }
  /// The composed state of a tuple of component states (one per component), interned.
  StateId state_id(const std::vector<StateId>& tuple) const;
  /// The tuple of a composed state.
  const std::vector<StateId>& state_tuple(StateId state) const { return tuples_.at(state); }

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& messages() const override { return messages_; }
  const std::string& answer_name(AnswerId answer) const override { return answers_.at(answer); }
  std::string state_name(StateId state) const override;
  const std::vector<Transition>& step(StateId state, MessageId message) const override;

private:
  struct TupleHash {
    std::size_t operator()(const std::vector<StateId>& t) const noexcept;
  };
  AnswerId intern_answer(std::size_t component, AnswerId inner) const;

  std::vector<std::shared_ptr<const InteractiveMechanism>> components_;
  std::string name_;
  std::vector<std::string> messages_;
  std::vector<std::pair<std::size_t, MessageId>> routes_;
  std::vector<MessageId> offsets_;
  mutable std::vector<std::vector<StateId>> tuples_;
  mutable std::unordered_map<std::vector<StateId>, StateId, TupleHash> tuple_ids_;
  mutable std::vector<std::string> answers_;
  mutable std::map<std::pair<std::size_t, AnswerId>, AnswerId> answer_ids_;
  mutable std::vector<std::vector<std::unique_ptr<std::vector<Transition>>>> cache_;  // [state][message]
};

/// The verifier of a concurrent composition in which component i keeps its own neighbouring
/// relation f_i (HSV D4.9 with the components fixed in advance): a pair ((i, m₀), (i, m₁)) is
/// allowed iff (m₀, m₁) is allowed by f_i after the pairs already sent to component i. Its state is
/// the tuple of component verifier states and, with round limits, of the messages each component
/// received so far (interned lazily).
class ProductVerifier final : public Verifier {
public:
  /// @param components  the component verifiers, in the order of @p mechanism's components
  /// @param mechanism   the composition whose message ids the pairs use (kept alive)
  /// @param limits      optional: component i receives at most limits[i] messages (its own
  ///                    horizon, so each component is played as the finite-communication mechanism
  ///                    it is in its own game); empty: no per-component limit
  /// Throws exactdp::Error if the counts differ or a verifier is null.
  ProductVerifier(std::vector<std::shared_ptr<const Verifier>> components, std::shared_ptr<const ConcurrentMechanism> mechanism,
                  std::vector<unsigned> limits = {});
  VerifierState initial_state() const override { return initial_; }
  const std::vector<MessagePair>& allowed(VerifierState state) const override;
  VerifierState next(VerifierState state, std::size_t action) const override;
  std::string describe() const override;

private:
  struct Node {
    std::vector<VerifierState> tuple;
    std::vector<MessagePair> pairs;
    std::vector<std::pair<std::size_t, std::size_t>> origin;  // (component, its action index)
  };
  VerifierState intern(std::vector<VerifierState> tuple) const;

  std::vector<std::shared_ptr<const Verifier>> components_;
  std::shared_ptr<const ConcurrentMechanism> mechanism_;
  std::vector<unsigned> limits_;
  VerifierState initial_ = 0;
  mutable std::vector<std::unique_ptr<Node>> nodes_;
  mutable std::map<std::vector<VerifierState>, VerifierState> ids_;
};

/// ConComp of games that share the two worlds (THEOREMS.md A.8; HSTVVXZ23 D2.4; HSV D4.9): the
/// composed mechanism is ConcurrentMechanism, world b starts in the product of the components'
/// world-b initial laws (their coins are independent), and each component keeps its own
/// neighbouring relation and receives at most its own game's horizon of messages
/// (ProductVerifier with limits). The horizon is the sum of the components' horizons.
/// @param components  the component games (k ≥ 1)
/// @param name        for reports (default: the composed mechanism's name)
/// Throws exactdp::Error if a component game is invalid.
Game concurrent(const std::vector<Game>& components, std::string name = "");

/// Sequential adversaries as a verifier (THEOREMS.md A.8 "Sequential composition"): wraps a
/// composition's verifier so that the adversary finishes one component before starting the next.
/// Each message is routed to a component by its name (`"i:m"` → i, parse_routed_name); a pair
/// whose two messages go to different components is not offered; messages without a component
/// (creation queries, `privacy_loss`) are always offered. The order of the components is chosen
/// adaptively (it may depend on earlier answers). The state is (inner state, current component,
/// finished components), interned lazily.
class SequentialVerifier final : public Verifier {
public:
  /// @param inner      the composition's verifier
  /// @param mechanism  the mechanism whose message names route the pairs (kept alive)
  /// Throws exactdp::Error if a message names a component ≥ 64.
  SequentialVerifier(std::shared_ptr<const Verifier> inner, std::shared_ptr<const InteractiveMechanism> mechanism);
  VerifierState initial_state() const override { return initial_; }
  const std::vector<MessagePair>& allowed(VerifierState state) const override;
  VerifierState next(VerifierState state, std::size_t action) const override;
  std::string describe() const override { return inner_->describe() + ", sequential adversaries"; }

private:
  struct Node {
    VerifierState inner;
    int current;           // −1: no component started yet
    std::uint64_t finished;
    std::vector<MessagePair> pairs;
    std::vector<std::size_t> inner_action;
    std::vector<VerifierState> next;  // filled lazily (UINT32_MAX: not yet)
  };
  VerifierState intern(VerifierState inner, int current, std::uint64_t finished) const;

  std::shared_ptr<const Verifier> inner_;
  std::shared_ptr<const InteractiveMechanism> mechanism_;
  std::vector<std::optional<std::size_t>> component_;  // per message id
  VerifierState initial_ = 0;
  mutable std::vector<std::unique_ptr<Node>> nodes_;
  mutable std::map<std::tuple<VerifierState, int, std::uint64_t>, VerifierState> ids_;
};

/// The same game against sequential adversaries only (SequentialVerifier around its verifier).
/// For a game that is not a composition (no message named `"i:m"`) this changes nothing.
/// @param game  a valid game
Game sequential_adversaries(const Game& game);

}  // namespace exactdp
