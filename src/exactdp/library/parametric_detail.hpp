/// @file
/// A library mechanism's parametric game by exploration (internal to the library; issue 19 item 1).
///
/// The numeric library mechanisms are LambdaMechanism step functions over states explored on
/// demand. Their parametric twins run the *same* step, instantiated over rational functions of the
/// noise parameter (noise/number_field.hpp, parametric/parametric_field.hpp), and tabulate it: every
/// state reachable in fewer than `horizon` steps gets its rows for every message, which is all the
/// parametric game reads up to that horizon (parametric::ParametricGame::max_horizon is set to it).
/// The structure of the state space does not depend on r — a state is a description (margins,
/// counts, node values), never a number computed from r — so the table is the numeric mechanism's
/// reachable table at every r with its probabilities as functions of r.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/parametric/parametric_field.hpp"
#include "exactdp/parametric/parametric_game.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace exactdp::library::detail {

/// Refuses a noise parameter that is not strictly between 0 and 1 for every value of the range,
/// or a range that is not inside (0, 1) (the domain of ParametricField's decisions): an
/// exactdp::Error(@p where, @p field, the function, why) with a rational point where it fails.
inline void check_noise_for_all(const char* where, const char* field, const parametric::RationalFunction& f,
                                const parametric::ParameterRange& range, const std::string& parameter) {
  if (!parametric::inside_open_unit_interval(range))
    throw Error(where, "range", range.to_string(),
                "a discrete Laplace parameter lies in (0, 1), so the range of " + parameter +
                    " must lie inside (0, 1) (its ends at 0 or 1 open)");
  const parametric::RationalFunction one(1);
  const auto partition = parametric::sign_partition({f, one - f}, range, parameter);
  for (std::size_t k = 0; k < partition.pieces.size(); ++k)
    for (int i = 0; i < 2; ++i)
      if (partition.signs[i][k] <= 0) {
        const auto& piece = partition.pieces[k];
        const std::string at = piece.sample ? to_string(*piece.sample) : piece.to_string(parameter);
        throw Error(where, field, f.to_string(parameter),
                    "a discrete Laplace parameter r = e^-epsilon must lie strictly between 0 and 1 for every " + parameter + " in " +
                        range.to_string() + "; at " + parameter + " = " + at + " it does not");
      }
}

/// Refuses a randomized-response parameter λ = e^ε that is not greater than 1 for every value of
/// the range (or has a pole there): an exactdp::Error(@p where, @p field, the function, why) with a
/// rational point where it fails. Unlike a discrete Laplace parameter, the range itself is free.
inline void check_lambda_for_all(const char* where, const char* field, const parametric::RationalFunction& lambda,
                                 const parametric::ParameterRange& range, const std::string& parameter) {
  parametric::SignPartition partition;
  try {
    partition = parametric::sign_partition({lambda - parametric::RationalFunction(1)}, range, parameter);
  } catch (const Error& e) {  // a pole inside the range
    throw Error(where, field, lambda.to_string(parameter),
                "a randomized-response parameter lambda must be a continuous function of " + parameter + " on " + range.to_string() + ": " +
                    e.why());
  }
  for (std::size_t k = 0; k < partition.pieces.size(); ++k)
    if (partition.signs[0][k] <= 0) {
      const auto& piece = partition.pieces[k];
      const std::string at = piece.sample ? to_string(*piece.sample) : piece.to_string(parameter);
      throw Error(where, field, lambda.to_string(parameter),
                  "a randomized-response parameter lambda = e^epsilon must be greater than 1 for every " + parameter + " in " +
                      range.to_string() + "; at " + parameter + " = " + at + " it is not");
    }
}

/// Tabulates the states reachable from @p start in fewer than @p depth steps (0: @p horizon) for a
/// game of @p horizon rounds. @p step(state, message) returns outcomes with members `probability`
/// (a RationalFunction), `answer` and `next`; @p show names a state. A state whose every message
/// answers "halt" with probability 1 and stays is marked halted. Both worlds start in @p start (a
/// continual mechanism: the data arrive as messages). The table is exact up to horizon @p depth
/// (ParametricGame::max_horizon), or at every horizon when every reachable state was tabulated
/// (max_horizon unset: e.g. a counter explored past its last step, whose halted state stays).
/// Throws exactdp::Error beyond @p max_states states.
template <class State, class Hash, class Step, class Show>
parametric::ParametricGame explore_parametric_game(std::string name, const State& start, std::vector<std::string> messages,
                                                   std::shared_ptr<const Verifier> verifier, unsigned horizon, Step step, Show show,
                                                   std::size_t max_states = 200'000, unsigned depth = 0) {
  if (depth == 0) depth = horizon;
  parametric::ParametricGame g;
  g.name = std::move(name);
  g.messages = std::move(messages);
  g.verifier = std::move(verifier);
  g.horizon = horizon;
  g.max_horizon = depth;
  std::unordered_map<State, StateId, Hash> ids;
  std::vector<State> states;
  std::map<std::string, AnswerId> answers;
  auto state_id = [&](const State& s) {
    auto [it, fresh] = ids.try_emplace(s, static_cast<StateId>(states.size()));
    if (fresh) {
      if (states.size() >= max_states)
        throw Error(g.name, "horizon", std::to_string(horizon),
                    "the parametric table has more than " + std::to_string(max_states) + " states; lower the horizon");
      states.push_back(s);
      g.state_names.push_back(show(s));
      g.kernel.emplace_back(g.messages.size());
      g.halted.push_back(false);
    }
    return it->second;
  };
  auto answer_id = [&](const std::string& a) {
    auto [it, fresh] = answers.try_emplace(a, static_cast<AnswerId>(g.answer_names.size()));
    if (fresh) g.answer_names.push_back(a);
    return it->second;
  };
  std::vector<StateId> frontier{state_id(start)};
  for (unsigned level = 0; level < depth && !frontier.empty(); ++level) {
    std::vector<StateId> next_frontier;
    for (StateId id : frontier) {
      bool halted = true;
      for (std::size_t m = 0; m < g.messages.size(); ++m) {
        const State here = states[id];  // a copy: state_id may grow `states`
        std::vector<parametric::ParametricRow> rows;
        for (auto& o : step(here, g.messages[m])) {
          if (o.probability.is_zero()) continue;
          const std::size_t before = states.size();
          const StateId to = state_id(o.next);
          if (states.size() > before) next_frontier.push_back(to);
          rows.push_back({std::move(o.probability), answer_id(o.answer), to});
        }
        halted = halted && rows.size() == 1 && g.answer_names[rows[0].answer] == halt_answer && rows[0].next == id;
        g.kernel[id][m] = std::move(rows);
      }
      g.halted[id] = halted;
    }
    frontier = std::move(next_frontier);
  }
  if (frontier.empty()) g.max_horizon.reset();  // every reachable state has its rows: exact at every horizon
  g.initial = {std::vector<std::pair<StateId, Rational>>{{0, Rational(1)}}, std::vector<std::pair<StateId, Rational>>{{0, Rational(1)}}};
  return g;
}

}  // namespace exactdp::library::detail
