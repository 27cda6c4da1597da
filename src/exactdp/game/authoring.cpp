#include "exactdp/game/authoring.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace exactdp {

std::vector<std::string> Mechanism::prepare(const std::string& name, unsigned horizon, std::vector<std::string> alphabet,
                                            const NeighbourRelation& neighbours) {
  if (horizon < 1 || horizon > limits::max_horizon)
    throw Error(name, "horizon", std::to_string(horizon), "the horizon must be between 1 and " + std::to_string(limits::max_horizon));
  neighbours.validate(name);
  std::vector<std::string> out;
  for (auto& m : alphabet) {
    if (m == "*") throw Error(name, "messages", m, "\"*\" is the wildcard rule key of spec files, not a message");
    if (std::find(out.begin(), out.end(), m) != out.end()) throw Error(name, "messages", m, "message listed twice");
    out.push_back(std::move(m));
  }
  for (auto& m : neighbours.messages())
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(std::move(m));
  if (out.empty()) throw Error(name, "messages", "", "the message alphabet is empty (static neighbours need the messages listed)");
  if (out.size() > limits::max_messages)
    throw Error(name, "messages", std::to_string(out.size()), "more messages than the limit of " + std::to_string(limits::max_messages));
  return out;
}

void Mechanism::too_many_states(const std::string& name, std::size_t found, std::size_t limit) {
  throw Error(name, "max_states", std::to_string(found) + " states",
              "more reachable states than ExploreOptions::max_states = " + std::to_string(limit) +
                  "; raise it, or set ExploreOptions::up_to_horizon to expand only the states reachable within the horizon");
}

InitialLaw Mechanism::checked_law(const std::string& name, const std::string& world, InitialLaw law) {
  Rational total = 0;
  std::map<StateId, Rational> merged;
  for (const auto& [s, p] : law) {
    if (sgn(p) < 0) throw Error(name, "initial/" + world, to_string(p), "initial probabilities must be non-negative");
    total += p;
    if (sgn(p) > 0) merged[s] += p;
  }
  if (total != 1) throw Error(name, "initial/" + world, to_string(total), "the initial law must sum to exactly 1");
  return InitialLaw(merged.begin(), merged.end());
}

Mechanism Mechanism::assemble(Game game, NeighbourRelation neighbours, std::vector<StateId> states, std::vector<std::string> names,
                              std::vector<bool> expanded) {
  game.validate();
  std::map<std::string, StateId> seen;
  for (StateId s : states)
    if (auto [it, inserted] = seen.emplace(names[s], s); !inserted)
      throw Error(game.name, "state names", names[s],
                  "two different states print as this name (#" + std::to_string(it->second) + " and #" + std::to_string(s) +
                      "); operator<< of the state type must tell states apart");
  Mechanism m;
  m.closed_ = std::all_of(expanded.begin(), expanded.end(), [](bool e) { return e; });
  m.game_ = std::move(game);
  m.neighbours_ = std::move(neighbours);
  m.states_ = std::move(states);
  m.names_ = std::move(names);
  m.expanded_ = std::move(expanded);
  return m;
}

}  // namespace exactdp
