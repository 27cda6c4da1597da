// Spec-file writing (nlohmann::ordered_json keeps the order: states in exploration order, messages in
// alphabet order), so a written file reads back into the same ids.
#include "exactdp/io/spec_writer.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace exactdp {
namespace {

using Json = nlohmann::ordered_json;

/// What a spec file needs besides the game: the states to list, their names, which of them were
/// expanded (the others are written halted), and the relation by name.
struct Listing {
  std::vector<StateId> states;
  std::map<StateId, std::string> names;
  std::set<StateId> unexpanded;
  NeighbourRelation neighbours;
};

bool is_halted(const InteractiveMechanism& m, StateId s) {
  for (MessageId q = 0; q < m.messages().size(); ++q) {
    const auto& t = m.step(s, q);
    if (t.size() != 1 || t[0].next != s || m.answer_name(t[0].answer) != halt_answer) return false;
  }
  return true;
}

Json rule(const InteractiveMechanism& m, const std::vector<Transition>& ts, const Listing& l) {
  Json rows = Json::array();
  for (const auto& t : ts)
    rows.push_back(Json{{"p", to_string(t.probability)}, {"answer", m.answer_name(t.answer)}, {"next", l.names.at(t.next)}});
  return rows;
}

Json law(const InitialLaw& initial, const Listing& l) {
  if (initial.size() == 1) return l.names.at(initial.front().first);
  Json j = Json::object();
  for (const auto& [s, p] : initial) j[l.names.at(s)] = to_string(p);
  return j;
}

Json neighbours_json(const NeighbourRelation& n) {
  auto pair = [](const NeighbourRelation::Pair& p) { return Json::array({p.first, p.second}); };
  switch (n.type) {
    case NeighbourRelation::Type::static_worlds:
      return Json{{"type", "static"}, {"worlds", Json::array({n.worlds[0], n.worlds[1]})}};
    case NeighbourRelation::Type::pairs: {
      Json j{{"type", "pairs"}, {"allowed", Json::array()}};
      for (const auto& p : n.allowed) j["allowed"].push_back(pair(p));
      if (n.max_differing) j["max_differing"] = *n.max_differing;
      return j;
    }
    case NeighbourRelation::Type::automaton: {
      Json states = Json::object();
      for (const auto& [s, edges] : n.automaton) {
        Json list = Json::array();
        for (const auto& e : edges) list.push_back(Json{{"pair", pair(e.pair)}, {"next", e.next}});
        states[s] = std::move(list);
      }
      return Json{{"type", "automaton"}, {"initial", n.initial}, {"states", std::move(states)}};
    }
  }
  return Json();
}

std::string write(const Game& game, const Listing& l, const SpecWriteOptions& options, bool exact_up_to_horizon_only) {
  const auto& m = *game.mechanism;
  Json states = Json::object();
  for (StateId s : l.states) {
    Json rules = Json::object();
    if (!l.unexpanded.count(s) && !is_halted(m, s)) {
      const auto& first = m.step(s, 0);
      bool uniform = m.messages().size() > 1;
      for (MessageId q = 1; q < m.messages().size() && uniform; ++q) uniform = m.step(s, q) == first;
      if (uniform) {
        rules["*"] = rule(m, first, l);
      } else {
        for (MessageId q = 0; q < m.messages().size(); ++q) rules[m.messages()[q]] = rule(m, m.step(s, q), l);
      }
    }
    states[l.names.at(s)] = std::move(rules);
  }
  Json mech{{"type", "table"}};
  if (l.neighbours.type == NeighbourRelation::Type::static_worlds) {
    Json init = Json::object();
    for (int b = 0; b < 2; ++b) init[l.neighbours.worlds[static_cast<std::size_t>(b)]] = law(game.initial[static_cast<std::size_t>(b)], l);
    mech["initial"] = std::move(init);
  } else {
    if (game.initial[0] != game.initial[1])
      throw Error(game.name, "initial", "", "the spec format starts both worlds from one initial law when the neighbours are not static");
    mech["initial"] = law(game.initial[0], l);
  }
  mech["messages"] = m.messages();
  mech["states"] = std::move(states);
  Json doc{{"format", "exactdp/1"}, {"name", game.name}};
  if (exact_up_to_horizon_only)
    doc["comment"] = "explored up to horizon " + std::to_string(game.horizon) +
                     " only: states first reached at that round are written halted, so this file is exact for horizons up to " +
                     std::to_string(game.horizon) + " and not beyond";
  doc["horizon"] = game.horizon;
  if (exact_up_to_horizon_only) doc["max_horizon"] = game.horizon;
  else if (game.max_horizon) doc["max_horizon"] = *game.max_horizon;
  doc["neighbours"] = neighbours_json(l.neighbours);
  doc["mechanism"] = std::move(mech);
  return doc.dump(options.indent > 0 ? options.indent : -1) + "\n";
}

void check_messages(const Game& game) {
  for (const auto& q : game.mechanism->messages())
    if (q == "*") throw Error(game.name, "messages", q, "\"*\" is the wildcard rule key of spec files and cannot be written as a message");
}

/// The relation of a game's verifier by name: static, or the verifier explored as an automaton.
NeighbourRelation relation_of(const Game& game, const SpecWriteOptions& options) {
  const auto& v = *game.verifier;
  if (dynamic_cast<const StaticVerifier*>(&v)) return NeighbourRelation::static_worlds(game.world_names[0], game.world_names[1]);
  const auto* named = dynamic_cast<const AutomatonVerifier*>(&v);
  auto name = [&](VerifierState s) { return named ? named->state_name(s) : std::string("v").append(std::to_string(s)); };
  const auto& ms = game.mechanism->messages();
  std::vector<VerifierState> order{v.initial_state()};
  std::set<VerifierState> seen{v.initial_state()};
  std::vector<std::pair<std::string, std::vector<NeighbourRelation::Edge>>> states;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const VerifierState s = order[i];
    std::vector<NeighbourRelation::Edge> edges;
    const auto& pairs = v.allowed(s);
    for (std::size_t a = 0; a < pairs.size(); ++a) {
      const VerifierState next = v.next(s, a);
      if (seen.insert(next).second) {
        if (order.size() >= options.max_states) throw Error(game.name, "neighbours", std::to_string(order.size()), "too many verifier states to write");
        order.push_back(next);
      }
      edges.push_back({{ms.at(pairs[a].world0), ms.at(pairs[a].world1)}, name(next)});
    }
    states.emplace_back(name(s), std::move(edges));
  }
  return NeighbourRelation::with_automaton(name(v.initial_state()), std::move(states));
}

}  // namespace

std::string write_spec(const Mechanism& mechanism, const SpecWriteOptions& options) {
  const Game& game = mechanism.game();
  check_messages(game);
  Listing l;
  l.states = mechanism.states();
  for (StateId s : l.states) {
    l.names[s] = mechanism.state_name(s);
    if (!mechanism.expanded(s)) l.unexpanded.insert(s);
  }
  l.neighbours = mechanism.neighbours();
  return write(game, l, options, !mechanism.closed());
}

std::string write_spec(const Game& game, const SpecWriteOptions& options) {
  game.validate();
  check_messages(game);
  const auto& m = *game.mechanism;
  Listing l;
  std::set<StateId> seen;
  auto discover = [&](StateId s) {
    if (!seen.insert(s).second) return;
    if (l.states.size() >= options.max_states)
      throw Error(game.name, "states", std::to_string(l.states.size() + 1), "more reachable states than SpecWriteOptions::max_states");
    l.states.push_back(s);
  };
  for (const auto& initial : game.initial)
    for (const auto& [s, p] : initial) discover(s);
  for (std::size_t i = 0; i < l.states.size(); ++i)
    for (MessageId q = 0; q < m.messages().size(); ++q)
      for (const auto& t : m.step(l.states[i], q)) discover(t.next);
  std::set<std::string> distinct;
  for (StateId s : l.states) distinct.insert(m.state_name(s));
  const bool own_names = distinct.size() == l.states.size();
  for (std::size_t i = 0; i < l.states.size(); ++i)
    l.names[l.states[i]] = own_names ? m.state_name(l.states[i]) : std::string("s").append(std::to_string(i));
  l.neighbours = relation_of(game, options);
  return write(game, l, options, false);
}

}  // namespace exactdp
