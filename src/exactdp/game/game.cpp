#include "exactdp/game/game.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace exactdp {

StaticVerifier::StaticVerifier(std::size_t message_count) {
  if (message_count == 0) throw Error("static verifier", "messages", "0", "the message alphabet is empty");
  for (MessageId m = 0; m < message_count; ++m) pairs_.push_back({m, m});
}

PairsVerifier::PairsVerifier(std::vector<MessagePair> allowed, std::optional<unsigned> max_differing)
    : all_(std::move(allowed)), max_differing_(max_differing) {
  if (all_.empty()) throw Error("pairs verifier", "allowed", "", "no allowed pairs");
  std::set<MessagePair> seen;
  for (const auto& p : all_) {
    if (!seen.insert(p).second)
      throw Error("pairs verifier", "allowed", std::to_string(p.world0) + "," + std::to_string(p.world1), "pair listed twice");
    if (p.identical()) identical_only_.push_back(p);
  }
}

const std::vector<MessagePair>& PairsVerifier::allowed(VerifierState state) const {
  return max_differing_ && state >= *max_differing_ ? identical_only_ : all_;
}

VerifierState PairsVerifier::next(VerifierState state, std::size_t action) const {
  const auto& p = allowed(state).at(action);
  if (!max_differing_ || p.identical()) return state;
  return std::min<VerifierState>(state + 1, *max_differing_);
}

std::string PairsVerifier::describe() const {
  return max_differing_ ? "pairs, at most " + std::to_string(*max_differing_) + " differing" : "pairs";
}

AutomatonVerifier::AutomatonVerifier(std::vector<std::string> state_names, VerifierState initial,
                                     std::vector<std::vector<Edge>> edges)
    : names_(std::move(state_names)), initial_(initial), edges_(std::move(edges)) {
  if (names_.empty()) throw Error("automaton verifier", "states", "", "an automaton needs at least one state");
  if (edges_.size() != names_.size())
    throw Error("automaton verifier", "states", std::to_string(edges_.size()), "one edge list per state is required");
  if (initial_ >= names_.size()) throw Error("automaton verifier", "initial", std::to_string(initial_), "no such state");
  for (std::size_t s = 0; s < edges_.size(); ++s) {
    std::set<MessagePair> seen;
    std::vector<MessagePair> pairs;
    for (const auto& e : edges_[s]) {
      const std::string shown = std::to_string(e.pair.world0) + "," + std::to_string(e.pair.world1);
      if (e.next >= names_.size()) throw Error("automaton verifier", "states/" + names_[s], std::to_string(e.next), "edge to no such state");
      if (!seen.insert(e.pair).second) throw Error("automaton verifier", "states/" + names_[s], shown, "pair listed twice in one state");
      pairs.push_back(e.pair);
    }
    pairs_.push_back(std::move(pairs));
  }
}

void Game::validate() const {
  const std::string where = name.empty() ? "game" : name;
  if (!mechanism) throw Error(where, "mechanism", "", "no mechanism");
  if (!verifier) throw Error(where, "neighbours", "", "no verifier");
  if (horizon == 0) throw Error(where, "horizon", "0", "the horizon must be at least 1");
  check_horizon(horizon);
  for (int b = 0; b < 2; ++b) {
    Rational total = 0;
    for (const auto& [s, p] : initial[b]) {
      if (sgn(p) <= 0) throw Error(where, "initial/" + world_names[b], to_string(p), "initial masses must be positive");
      total += p;
    }
    if (total != 1) throw Error(where, "initial/" + world_names[b], to_string(total), "the initial law must sum to exactly 1");
  }
}

void Game::check_horizon(unsigned h) const {
  if (max_horizon && h > *max_horizon)
    throw Error(name.empty() ? "game" : name, "max_horizon", std::to_string(h),
                "the horizon " + std::to_string(h) + " exceeds the game's \"max_horizon\" of " + std::to_string(*max_horizon) +
                    ": it was explored only up to that horizon (states first reached there are written halted), so an "
                    "analysis beyond it would be wrong; explore it again to the horizon wanted");
}

Game static_game(std::string name, std::shared_ptr<const InteractiveMechanism> mechanism, std::array<StateId, 2> initial,
                 unsigned horizon) {
  Game g;
  g.name = std::move(name);
  g.verifier = std::make_shared<StaticVerifier>(mechanism->messages().size());
  g.mechanism = std::move(mechanism);
  g.initial = {InitialLaw{{initial[0], Rational(1)}}, InitialLaw{{initial[1], Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

void Adversary::set_child(std::size_t node, AnswerId answer, std::size_t child) {
  auto& next = nodes_.at(node).next;
  auto it = std::lower_bound(next.begin(), next.end(), answer, [](const auto& e, AnswerId a) { return e.first < a; });
  if (it != next.end() && it->first == answer) it->second = child;
  else next.insert(it, {answer, child});
}

std::optional<std::size_t> Adversary::child(std::size_t node, AnswerId answer) const {
  const auto& next = nodes_.at(node).next;
  auto it = std::lower_bound(next.begin(), next.end(), answer, [](const auto& e, AnswerId a) { return e.first < a; });
  if (it != next.end() && it->first == answer) return it->second;
  return std::nullopt;
}

unsigned Adversary::depth() const {
  // iterative over (node, depth); the tree is finite and acyclic by construction
  unsigned best = 0;
  std::vector<std::pair<std::size_t, unsigned>> stack{{0, 0}};
  while (!stack.empty()) {
    auto [n, d] = stack.back();
    stack.pop_back();
    if (!nodes_[n].send) {
      best = std::max(best, d);
      continue;
    }
    best = std::max(best, d + 1);
    for (const auto& [a, c] : nodes_[n].next) stack.push_back({c, d + 1});
  }
  return best;
}

namespace {
std::string pair_name(const InteractiveMechanism& m, const MessagePair& p) {
  const auto& ms = m.messages();
  if (p.identical()) return "\"" + ms.at(p.world0) + "\"";
  return "(\"" + ms.at(p.world0) + "\", \"" + ms.at(p.world1) + "\")";
}

void describe_node(const Adversary& adv, const InteractiveMechanism& m, std::size_t n, const std::string& indent,
                   std::ostringstream& os) {
  const auto& node = adv.nodes()[n];
  if (!node.send) {
    os << indent << "stop\n";
    return;
  }
  os << indent << "send " << pair_name(m, *node.send) << "\n";
  for (const auto& [a, c] : node.next) {
    os << indent << "  on \"" << m.answer_name(a) << "\":\n";
    describe_node(adv, m, c, indent + "    ", os);
  }
}
}  // namespace

std::string Adversary::describe(const InteractiveMechanism& mechanism) const {
  std::ostringstream os;
  describe_node(*this, mechanism, 0, "", os);
  return os.str();
}

std::string describe_view(const InteractiveMechanism& mechanism, const View& view) {
  std::string s;
  for (std::size_t i = 0; i < view.size(); ++i) s += (i ? " " : "") + mechanism.answer_name(view[i]);
  return s.empty() ? "(empty)" : s;
}

NeighbouringPair<View> view_distributions(const Game& game, const Adversary& adversary, unsigned horizon) {
  game.validate();
  const auto& mech = *game.mechanism;
  const auto& ver = *game.verifier;
  using Belief = std::map<StateId, Rational>;
  std::array<std::vector<std::pair<View, Rational>>, 2> out;
  struct Frame {
    std::size_t node;
    VerifierState sigma;
    unsigned rounds_left;
    View view;
    std::array<Belief, 2> belief;
  };
  Frame root{0, ver.initial_state(), horizon, {}, {}};
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : game.initial[b]) root.belief[b][s] += p;
  std::vector<Frame> stack{std::move(root)};
  while (!stack.empty()) {
    Frame f = std::move(stack.back());
    stack.pop_back();
    const auto& node = adversary.nodes().at(f.node);
    if (!node.send || f.rounds_left == 0) {
      for (int b = 0; b < 2; ++b) {
        Rational mass = 0;
        for (const auto& [s, p] : f.belief[b]) mass += p;
        if (sgn(mass) > 0) out[b].emplace_back(f.view, mass);
      }
      continue;
    }
    const auto& allowed = ver.allowed(f.sigma);
    auto action = std::find(allowed.begin(), allowed.end(), *node.send);
    if (action == allowed.end())
      throw Error("view_distributions", "adversary node " + std::to_string(f.node), pair_name(mech, *node.send),
                  "the verifier does not allow this pair here");
    VerifierState sigma = ver.next(f.sigma, static_cast<std::size_t>(action - allowed.begin()));
    std::map<AnswerId, std::array<Belief, 2>> children;
    for (int b = 0; b < 2; ++b) {
      MessageId m = b == 0 ? node.send->world0 : node.send->world1;
      for (const auto& [s, p] : f.belief[b])
        for (const auto& t : mech.step(s, m)) children[t.answer][b][t.next] += p * t.probability;
    }
    for (auto& [a, beliefs] : children) {
      Frame c{f.node, sigma, f.rounds_left - 1, f.view, std::move(beliefs)};
      c.view.push_back(a);
      auto next = adversary.child(f.node, a);
      if (next) c.node = *next;
      else c.node = static_cast<std::size_t>(-1);
      if (!next) {
        // stop after this answer
        for (int b = 0; b < 2; ++b) {
          Rational mass = 0;
          for (const auto& [s, p] : c.belief[b]) mass += p;
          if (sgn(mass) > 0) out[b].emplace_back(c.view, mass);
        }
        continue;
      }
      stack.push_back(std::move(c));
    }
  }
  return NeighbouringPair<View>{Dist<View>(out[0], MassKind::probability, "view distribution (world 0)"),
                                Dist<View>(out[1], MassKind::probability, "view distribution (world 1)")};
}

}  // namespace exactdp
