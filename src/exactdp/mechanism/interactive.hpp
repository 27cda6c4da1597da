/// @file
/// Interactive and continual mechanisms as finite state machines with exact rational kernels
/// (THEOREMS.md A.3; HSV D2.6, D3.1; VW21 D2; HSTVVXZ23 D1.4).
///
/// A mechanism is a tuple (S, Q, A, step) with step: S × Q → Dist(A × S). States, messages and
/// answers are interned as small integer ids; their names are kept for reports and witnesses.
/// The initial state is the secret: which initial states the two worlds start in is part of the
/// game (game/game.hpp), not of the mechanism. A continual mechanism is the same machine with a
/// single initial state, whose private input arrives in messages.
///
/// Two answers are reserved and ordinary (A.3): `"invalid"` — a message the state does not accept;
/// the state is unchanged — and `"halt"` — every message to a halted state gets it with
/// probability 1 and the state is unchanged (padding, so every mechanism has a fixed horizon).
///
/// Two ways to define a mechanism, both behind the interface InteractiveMechanism that the game
/// engine uses: TableMechanism (explicit tables, e.g. loaded from a spec file by io/spec_file.hpp)
/// and LambdaMechanism (a C++ step function over hashable state values, explored lazily — only the
/// states the game reaches are ever built).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace exactdp {

/// Index of a mechanism state (interned).
using StateId = std::uint32_t;
/// Index of a message (query or update) in the mechanism's message alphabet.
using MessageId = std::uint32_t;
/// Index of an answer (interned per mechanism).
using AnswerId = std::uint32_t;

/// The name of the reserved answer to a message a state does not accept (THEOREMS.md A.3).
inline const std::string invalid_answer = "invalid";
/// The name of the reserved answer of a halted state to every message (THEOREMS.md A.3).
inline const std::string halt_answer = "halt";

/// One outcome of a step: with probability `probability`, answer `answer` and move to `next`.
struct Transition {
  AnswerId answer = 0;
  StateId next = 0;
  Rational probability;
  friend bool operator==(const Transition&, const Transition&) = default;
};

namespace interactive_detail {
/// Merges rows with equal (answer, next) (summing probabilities) and returns them sorted.
std::vector<Transition> merge_transitions(std::vector<std::pair<std::pair<AnswerId, StateId>, Rational>> rows);
}  // namespace interactive_detail

/// A finite-state interactive mechanism with exact rational transition probabilities.
///
/// Contract of every implementation: step(s, m) returns transitions with positive probabilities
/// summing to exactly 1, no two with the same (answer, next) pair; the result is stable (the same
/// reference content on every call). Ids passed in must come from this mechanism.
/// Implementations may intern states lazily, so a mechanism is not thread-safe.
class InteractiveMechanism {
public:
  virtual ~InteractiveMechanism() = default;

  /// A human-readable name (for reports).
  virtual const std::string& name() const = 0;
  /// The message alphabet, by id.
  virtual const std::vector<std::string>& messages() const = 0;
  /// The id of a message by name, if the alphabet has it.
  std::optional<MessageId> message_id(const std::string& message) const;
  /// The name of an answer id.
  virtual const std::string& answer_name(AnswerId answer) const = 0;
  /// The name of a state id (for reports and witnesses).
  virtual std::string state_name(StateId state) const = 0;
  /// The kernel κ(·, · | state, message): a distribution over (answer, next state).
  virtual const std::vector<Transition>& step(StateId state, MessageId message) const = 0;
};

/// A mechanism given by explicit tables: the format of the spec files (io/spec_file.hpp).
///
/// Each state either has halted (answers "halt" to everything, stays) or maps messages to
/// distributions over (answer, next state); a message key `"*"` matches every message the state
/// does not list explicitly; a message with no entry (and no `"*"`) is answered "invalid" and the
/// state is unchanged (THEOREMS.md A.3).
class TableMechanism final : public InteractiveMechanism {
public:
  /// One row of a table as written by the user: probability, answer name, next-state name.
  struct Row {
    Rational probability;
    std::string answer;
    std::string next;
  };
  /// The table of one state. `halted` states must have no rules.
  struct StateTable {
    bool halted = false;
    std::map<std::string, std::vector<Row>> rules;  ///< message (or "*") → rows
  };

  /// Builds and validates: every next state must be a listed state; in every rule the
  /// probabilities are ≥ 0 and sum to exactly 1; a halted state has no rules; no state is
  /// named twice. The message alphabet is @p messages followed by every other message key used in
  /// a rule (excluding "*"), in first-seen order; if that is empty the alphabet is {"*"}.
  /// Throws exactdp::Error naming @p name, the field "states/<state>/<message>" and the value.
  TableMechanism(std::string name, std::vector<std::pair<std::string, StateTable>> states,
                 std::vector<std::string> messages = {});

  /// The id of a state by name; throws exactdp::Error if it is unknown.
  StateId state_id(const std::string& state) const;
  /// The number of states.
  std::size_t state_count() const { return state_names_.size(); }

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& messages() const override { return messages_; }
  const std::string& answer_name(AnswerId answer) const override { return answers_.at(answer); }
  std::string state_name(StateId state) const override { return state_names_.at(state); }
  const std::vector<Transition>& step(StateId state, MessageId message) const override {
    return steps_.at(state).at(message);
  }

private:
  AnswerId intern_answer(const std::string& answer);
  std::string name_;
  std::vector<std::string> messages_, answers_, state_names_;
  std::unordered_map<std::string, StateId> state_ids_;
  std::unordered_map<std::string, AnswerId> answer_ids_;
  std::vector<std::vector<std::vector<Transition>>> steps_;  // [state][message]
};

/// One outcome returned by the step function of a LambdaMechanism.
template <class State>
struct Outcome {
  Rational probability;
  std::string answer;
  State next;
};

/// A mechanism defined by a C++ step function over hashable, copyable state values, for
/// mechanisms too large to tabulate by hand (THEOREMS.md A.3). States are interned on first sight
/// and each (state, message) step is computed once and cached, so only the reachable part of the
/// state space is ever built.
///
/// The step function returns the outcomes of a message in a state; the reserved answers are
/// written as ordinary outcomes, e.g. `{{1, halt_answer, s}}` for a halted state and
/// `{{1, invalid_answer, s}}` for a message the state does not accept. Its outcomes are validated
/// (probabilities ≥ 0 summing to exactly 1; exactdp::Error naming the mechanism, the state and the
/// message otherwise); outcomes with equal (answer, next) are merged.
///
/// @tparam State  a regular type with std::hash (or @p Hash) and ==.
template <class State, class Hash = std::hash<State>>
class LambdaMechanism final : public InteractiveMechanism {
public:
  using StepFunction = std::function<std::vector<Outcome<State>>(const State&, const std::string& message)>;
  using ShowFunction = std::function<std::string(const State&)>;

  /// @param name      for reports
  /// @param messages  the message alphabet
  /// @param step      the kernel (see the class comment)
  /// @param show      a state's name for witnesses (default: "#id")
  LambdaMechanism(std::string name, std::vector<std::string> messages, StepFunction step, ShowFunction show = {})
      : name_(std::move(name)), messages_(std::move(messages)), step_(std::move(step)), show_(std::move(show)) {
    if (messages_.empty()) throw Error(name_, "messages", "", "the message alphabet is empty");
  }

  /// The id of a state value, interning it if new (use it to name initial states).
  StateId state_id(const State& s) const {
    auto [it, inserted] = ids_.try_emplace(s, static_cast<StateId>(states_.size()));
    if (inserted) {
      states_.push_back(s);
      cache_.emplace_back(messages_.size());
    }
    return it->second;
  }
  /// The state value of an id.
  const State& state(StateId id) const { return states_.at(id); }

  const std::string& name() const override { return name_; }
  const std::vector<std::string>& messages() const override { return messages_; }
  const std::string& answer_name(AnswerId answer) const override { return answers_.at(answer); }
  std::string state_name(StateId id) const override {
    return show_ ? show_(states_.at(id)) : "#" + std::to_string(id);
  }
  const std::vector<Transition>& step(StateId id, MessageId message) const override {
    auto& slot = cache_.at(id).at(message);
    if (slot) return *slot;
    const State s = states_.at(id);  // copy: interning below may reallocate states_
    std::vector<Outcome<State>> outcomes = step_(s, messages_.at(message));
    std::vector<std::pair<std::pair<AnswerId, StateId>, Rational>> rows;
    Rational total = 0;
    for (auto& o : outcomes) {
      if (sgn(o.probability) < 0)
        throw Error(name_, "step(" + state_name(id) + ", " + messages_[message] + ")", to_string(o.probability),
                    "probabilities must be non-negative");
      total += o.probability;
      if (sgn(o.probability) == 0) continue;
      rows.push_back({{intern_answer(o.answer), state_id(o.next)}, o.probability});
    }
    if (total != 1)
      throw Error(name_, "step(" + state_name(id) + ", " + messages_[message] + ")", to_string(total),
                  "the probabilities of a step must sum to exactly 1");
    auto merged = interactive_detail::merge_transitions(std::move(rows));
    auto& fresh = cache_.at(id).at(message);  // cache_ may have grown
    fresh = std::make_unique<std::vector<Transition>>(std::move(merged));
    return *fresh;
  }

private:
  AnswerId intern_answer(const std::string& answer) const {
    auto [it, inserted] = answer_ids_.try_emplace(answer, static_cast<AnswerId>(answers_.size()));
    if (inserted) answers_.push_back(answer);
    return it->second;
  }

  std::string name_;
  std::vector<std::string> messages_;
  StepFunction step_;
  ShowFunction show_;
  mutable std::vector<State> states_;
  mutable std::unordered_map<State, StateId, Hash> ids_;
  mutable std::vector<std::vector<std::unique_ptr<std::vector<Transition>>>> cache_;  // [state][message]
  mutable std::vector<std::string> answers_;
  mutable std::unordered_map<std::string, AnswerId> answer_ids_;
};

}  // namespace exactdp
