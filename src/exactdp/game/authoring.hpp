/// @file
/// Writing a new mechanism as a step function (issue 15, item 4): `Mechanism::from_step` explores
/// the states reachable from the initial ones over the message alphabet and returns the two-world
/// Game the engine analyses, together with everything needed to write it as a spec file
/// (io/spec_writer.hpp).
///
/// A step function is the kernel of THEOREMS.md A.3, step: S × Q → Dist(A × S), written in C++
/// over any regular state type with a hash. Answers and messages are strings (the names a witness
/// prints). Example — a counter that adds RR₃ noise to one private bit per query:
///
/// ```cpp
/// #include "exactdp/game/authoring.hpp"
/// #include "exactdp/game/engine.hpp"
/// using namespace exactdp;
///
/// // the state is the secret bit; each query answers it through RR with λ = 3 (keep it w.p. 3/4)
/// auto step = [](const int& bit, const std::string&) {
///   return std::vector<Outcome<int>>{{Rational(3, 4), std::to_string(bit), bit},
///                                    {Rational(1, 4), std::to_string(1 - bit), bit}};
/// };
/// Mechanism m = Mechanism::from_step(step, InitialStates<int>::per_world(0, 1),
///                                    NeighbourRelation::static_worlds("x", "x'"), {"q"},
///                                    /*horizon=*/2, "RR3 twice");
/// ClaimCheck c = check_approximate_dp(m.game(), Rational(9), Rational(0));  // holds: 9 = 3²
/// ```
///
/// The reserved answers `"invalid"` and `"halt"` are ordinary outcomes (interactive.hpp): a halted
/// state answers `{{1, halt_answer, s}}` to every message and is written `{}` in a spec file.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/game/neighbour_relation.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/numeric/rational.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace exactdp {

/// The initial law of each world, over state values (THEOREMS.md B.1: π^b at the root). Static
/// neighbours give one law per world (in the order of NeighbourRelation::worlds); pair and
/// automaton relations start both worlds from one shared law, and the verifier carries the
/// difference.
template <class State>
class InitialStates {
public:
  /// A finite law over states: (state, probability) with positive probabilities summing to 1.
  using Law = std::vector<std::pair<State, Rational>>;

  /// Both worlds start in @p state.
  static InitialStates shared(State state) { return shared_law(Law{{std::move(state), Rational(1)}}); }
  /// Both worlds start from @p law.
  static InitialStates shared_law(Law law) {
    InitialStates i;
    i.laws_ = {law, law};
    i.shared_ = true;
    return i;
  }
  /// World 0 starts in @p world0, world 1 in @p world1.
  static InitialStates per_world(State world0, State world1) {
    return per_world_laws(Law{{std::move(world0), Rational(1)}}, Law{{std::move(world1), Rational(1)}});
  }
  /// World b starts from law b.
  static InitialStates per_world_laws(Law world0, Law world1) {
    InitialStates i;
    i.laws_ = {std::move(world0), std::move(world1)};
    return i;
  }

  /// The law of world @p b (0 or 1).
  const Law& law(int b) const { return laws_.at(static_cast<std::size_t>(b)); }
  /// Whether both worlds share one law (required by pair and automaton relations).
  bool is_shared() const { return shared_; }

private:
  std::array<Law, 2> laws_;
  bool shared_ = false;
};

/// How far Mechanism::from_step explores.
struct ExploreOptions {
  /// Most reachable states explored before the exploration is refused with an exactdp::Error that
  /// gives the count and this option. Default: the spec-file limit (core/limits.hpp), so that
  /// every explored mechanism can be written as a spec file.
  std::size_t max_states = limits::max_states;
  /// false (default): explore every reachable state, so the game and its spec file are exact at
  /// every horizon. true: expand only states reachable in fewer rounds than the horizon (for
  /// mechanisms whose state space is unbounded); the Game stays exact at every horizon (its steps
  /// are computed on demand), but a spec file written from it (io/spec_writer.hpp) is exact only
  /// up to the horizon, and says so.
  bool up_to_horizon = false;
  /// Called with the number of states found so far and the number still to expand, every
  /// `progress_every` states (long explorations; e.g. print to stderr). May be empty.
  std::function<void(std::size_t states, std::size_t queued)> progress;
  /// See `progress`.
  std::size_t progress_every = 10000;
};

/// A mechanism written as a step function and explored (issue 15, item 4): the Game the engine
/// analyses, the neighbouring relation as written, and the reachable states with unique names,
/// which is what io/spec_writer.hpp writes as a spec file (`write_spec`).
///
/// A Mechanism converts to `const Game&`, so it can be passed wherever the engine takes a game
/// (check_approximate_dp, worst_case_profile, testing/gtest.hpp's EXACTDP_EXPECT_DP).
class Mechanism {
public:
  /// Explores @p step from @p initial over @p alphabet (breadth-first, messages in alphabet order)
  /// and builds the game.
  ///
  /// @param step       `std::vector<Outcome<State>>(const State&, const std::string& message)`:
  ///                   the outcomes (probability, answer, next state) of a message in a state;
  ///                   probabilities exact, non-negative, summing to exactly 1 (outcomes with equal
  ///                   answer and next state are merged). Called once per (state, message).
  /// @param initial    the worlds' initial laws (shared for pair and automaton relations)
  /// @param neighbours the neighbouring relation
  /// @param alphabet   the message alphabet; the messages named by @p neighbours are appended
  /// @param horizon    rounds the adversary plays by default (1 … limits::max_horizon)
  /// @param name       for reports and spec files
  /// @param options    exploration limits
  /// @param show       a state's name (optional; see below)
  ///
  /// States are named by @p show when given, else by `operator<<` or a member `to_string()` when
  /// State has one, else "s0", "s1", … in exploration order; distinct states must get distinct
  /// names. Throws exactdp::Error (naming
  /// @p name, the field and the value) on an invalid relation or initial law, on a step that is
  /// not a probability law (naming the state and the message), on a message `"*"`, and when more
  /// than options.max_states states are reachable.
  ///
  /// @tparam State  a regular type with == and a hash (@p Hash, default std::hash<State>)
  template <class State, class Hash = std::hash<State>, class Step>
  static Mechanism from_step(Step step, const InitialStates<State>& initial, NeighbourRelation neighbours,
                             std::vector<std::string> alphabet, unsigned horizon, std::string name,
                             const ExploreOptions& options = {}, std::function<std::string(const State&)> show = {});

  /// The two-world game (mechanism, verifier, initial laws, horizon).
  const Game& game() const { return game_; }
  /// The same, so that a Mechanism can be passed where a Game is expected.
  operator const Game&() const { return game_; }  // NOLINT(google-explicit-constructor)
  /// The name.
  const std::string& name() const { return game_.name; }
  /// The neighbouring relation as written.
  const NeighbourRelation& neighbours() const { return neighbours_; }
  /// The explored states in exploration order (the initial states first).
  const std::vector<StateId>& states() const { return states_; }
  /// A state's unique name (for spec files).
  const std::string& state_name(StateId state) const { return names_.at(state); }
  /// Whether @p state was expanded (false only for states first reached at the horizon by an
  /// ExploreOptions::up_to_horizon exploration).
  bool expanded(StateId state) const { return expanded_.at(state); }
  /// Whether every explored state was expanded: the state space is closed under the step
  /// function, so its spec file is exact at every horizon.
  bool closed() const { return closed_; }

private:
  /// The common part of from_step after the exploration (non-template, authoring.cpp).
  static Mechanism assemble(Game game, NeighbourRelation neighbours, std::vector<StateId> states,
                            std::vector<std::string> names, std::vector<bool> expanded);
  /// Validates name, horizon, alphabet and relation; returns the alphabet with the relation's
  /// messages appended.
  static std::vector<std::string> prepare(const std::string& name, unsigned horizon, std::vector<std::string> alphabet,
                                          const NeighbourRelation& neighbours);
  /// The refusal of an exploration beyond ExploreOptions::max_states.
  [[noreturn]] static void too_many_states(const std::string& name, std::size_t found, std::size_t limit);
  /// The refusal of an invalid initial law.
  static InitialLaw checked_law(const std::string& name, const std::string& world, InitialLaw law);

  Game game_;
  NeighbourRelation neighbours_;
  std::vector<StateId> states_;
  std::vector<std::string> names_;
  std::vector<bool> expanded_;
  bool closed_ = true;
};

// ---------------------------------------------------------------------------------------------
// Implementation of the template.

template <class State, class Hash, class Step>
Mechanism Mechanism::from_step(Step step, const InitialStates<State>& initial, NeighbourRelation neighbours,
                               std::vector<std::string> alphabet, unsigned horizon, std::string name,
                               const ExploreOptions& options, std::function<std::string(const State&)> show) {
  alphabet = prepare(name, horizon, std::move(alphabet), neighbours);
  if (neighbours.type != NeighbourRelation::Type::static_worlds && !initial.is_shared())
    throw Error(name, "initial", "", "pair and automaton neighbours start both worlds from one shared initial law (InitialStates::shared)");
  if (!show) {
    if constexpr (requires(std::ostream& os, const State& s) { os << s; })
      show = [](const State& s) {
        std::ostringstream os;
        os << s;
        return os.str();
      };
    else if constexpr (requires(const State& s) { { s.to_string() } -> std::convertible_to<std::string>; })
      show = [](const State& s) { return std::string(s.to_string()); };
  }
  auto mech = std::make_shared<LambdaMechanism<State, Hash>>(
      name, alphabet,
      [step = std::move(step)](const State& s, const std::string& m) -> std::vector<Outcome<State>> { return step(s, m); }, show);

  Game game;
  game.name = name;
  game.horizon = horizon;
  game.world_names = neighbours.world_names();
  for (int b = 0; b < 2; ++b) {
    InitialLaw law;
    for (const auto& [s, p] : initial.law(b)) law.push_back({mech->state_id(s), p});
    game.initial[static_cast<std::size_t>(b)] = checked_law(name, game.world_names[static_cast<std::size_t>(b)], std::move(law));
  }

  // Breadth-first over state ids: LambdaMechanism interns states densely, so an id at or above the
  // number of states seen so far is new.
  std::vector<StateId> order;
  std::vector<unsigned> depth;
  auto discover = [&](StateId s, unsigned d) {
    if (s < order.size()) return;
    if (s != order.size()) throw Error(name, "exploration", std::to_string(s), "internal: state ids are not dense");
    if (order.size() >= options.max_states) too_many_states(name, order.size() + 1, options.max_states);
    order.push_back(s);
    depth.push_back(d);
  };
  for (const auto& law : game.initial)
    for (const auto& [s, p] : law) discover(s, 0);
  std::vector<bool> expanded;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const StateId s = order[i];
    const bool expand = !options.up_to_horizon || depth[i] < horizon;
    expanded.push_back(expand);
    if (!expand) continue;
    for (MessageId m = 0; m < alphabet.size(); ++m)
      for (const auto& t : mech->step(s, m)) discover(t.next, depth[i] + 1);
    if (options.progress && options.progress_every > 0 && (i + 1) % options.progress_every == 0)
      options.progress(order.size(), order.size() - i - 1);
  }
  std::vector<std::string> names(order.size());
  for (StateId s : order) names[s] = show ? show(mech->state(s)) : std::string("s").append(std::to_string(s));
  game.mechanism = mech;
  game.verifier = neighbours.verifier(*mech, name);
  return assemble(std::move(game), std::move(neighbours), std::move(order), std::move(names), std::move(expanded));
}

}  // namespace exactdp
