#include "exactdp/game/neighbour_relation.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <set>

namespace exactdp {

NeighbourRelation NeighbourRelation::static_worlds(std::string x, std::string x_prime) {
  NeighbourRelation n;
  n.worlds = {std::move(x), std::move(x_prime)};
  return n;
}

NeighbourRelation NeighbourRelation::pairs(std::vector<Pair> allowed, std::optional<unsigned> max_differing) {
  NeighbourRelation n;
  n.type = Type::pairs;
  n.allowed = std::move(allowed);
  n.max_differing = max_differing;
  return n;
}

NeighbourRelation NeighbourRelation::with_automaton(std::string initial, std::vector<std::pair<std::string, std::vector<Edge>>> states) {
  NeighbourRelation n;
  n.type = Type::automaton;
  n.initial = std::move(initial);
  n.automaton = std::move(states);
  return n;
}

std::string NeighbourRelation::type_name() const {
  switch (type) {
    case Type::static_worlds: return "static";
    case Type::pairs: return "pairs";
    case Type::automaton: return "automaton";
  }
  return "static";
}

std::vector<std::string> NeighbourRelation::messages() const {
  std::vector<std::string> out;
  auto add = [&](const Pair& p) {
    for (const auto* m : {&p.first, &p.second})
      if (std::find(out.begin(), out.end(), *m) == out.end()) out.push_back(*m);
  };
  for (const auto& p : allowed) add(p);
  for (const auto& [state, edges] : automaton)
    for (const auto& e : edges) add(e.pair);
  return out;
}

std::array<std::string, 2> NeighbourRelation::world_names() const {
  if (type == Type::static_worlds) return worlds;
  return {"world 0", "world 1"};
}

void NeighbourRelation::validate(const std::string& where) const {
  auto check_pair = [&](const Pair& p, const std::string& field) {
    if (p.first == "*" || p.second == "*") throw Error(where, field, "*", "\"*\" is the wildcard rule key of spec files, not a message");
  };
  switch (type) {
    case Type::static_worlds:
      if (worlds[0] == worlds[1]) throw Error(where, "neighbours/worlds", worlds[0], "the two worlds must have different names");
      return;
    case Type::pairs: {
      if (allowed.empty()) throw Error(where, "neighbours/allowed", "", "at least one pair must be allowed");
      std::set<Pair> seen;
      for (std::size_t i = 0; i < allowed.size(); ++i) {
        const std::string field = "neighbours/allowed/" + std::to_string(i);
        check_pair(allowed[i], field);
        if (!seen.insert(allowed[i]).second) throw Error(where, field, allowed[i].first + ", " + allowed[i].second, "pair listed twice");
      }
      return;
    }
    case Type::automaton: {
      if (automaton.empty()) throw Error(where, "neighbours/states", "", "an automaton needs at least one state");
      std::set<std::string> names;
      for (const auto& [s, edges] : automaton)
        if (!names.insert(s).second) throw Error(where, "neighbours/states", s, "automaton state listed twice");
      if (!names.count(initial)) throw Error(where, "neighbours/initial", initial, "unknown automaton state");
      for (const auto& [s, edges] : automaton) {
        std::set<Pair> seen;
        for (std::size_t i = 0; i < edges.size(); ++i) {
          const std::string field = "neighbours/states/" + s + "/" + std::to_string(i);
          check_pair(edges[i].pair, field);
          if (!names.count(edges[i].next)) throw Error(where, field + "/next", edges[i].next, "unknown automaton state");
          if (!seen.insert(edges[i].pair).second)
            throw Error(where, field, edges[i].pair.first + ", " + edges[i].pair.second, "pair listed twice in this state");
        }
      }
      return;
    }
  }
}

std::shared_ptr<const Verifier> NeighbourRelation::verifier(const InteractiveMechanism& mechanism, const std::string& where) const {
  auto id = [&](const std::string& m) {
    auto i = mechanism.message_id(m);
    if (!i) throw Error(where, "neighbours", m, "not a message of the mechanism's alphabet");
    return *i;
  };
  auto pair_of = [&](const Pair& p) { return MessagePair{id(p.first), id(p.second)}; };
  switch (type) {
    case Type::static_worlds:
      return std::make_shared<StaticVerifier>(mechanism.messages().size());
    case Type::pairs: {
      std::vector<MessagePair> ps;
      for (const auto& p : allowed) ps.push_back(pair_of(p));
      return std::make_shared<PairsVerifier>(std::move(ps), max_differing);
    }
    case Type::automaton: {
      std::vector<std::string> names;
      for (const auto& [s, edges] : automaton) names.push_back(s);
      auto index = [&](const std::string& s) {
        return static_cast<VerifierState>(std::find(names.begin(), names.end(), s) - names.begin());
      };
      std::vector<std::vector<AutomatonVerifier::Edge>> edges;
      for (const auto& [s, list] : automaton) {
        edges.emplace_back();
        for (const auto& e : list) edges.back().push_back({pair_of(e.pair), index(e.next)});
      }
      return std::make_shared<AutomatonVerifier>(names, index(initial), std::move(edges));
    }
  }
  throw Error(where, "neighbours", "", "unknown relation type");
}

}  // namespace exactdp
