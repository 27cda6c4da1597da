#include "exactdp/reduce/simulator.hpp"

#include "exactdp/game/engine.hpp"

#include <map>
#include <sstream>
#include <tuple>

namespace exactdp {

std::vector<std::size_t> LikelihoodTree::full_histories() const {
  std::vector<std::size_t> out;
  for (std::size_t n = 0; n < nodes.size(); ++n)
    if (is_full(n)) out.push_back(n);
  return out;
}

std::vector<std::pair<MessagePair, AnswerId>> LikelihoodTree::history(std::size_t node) const {
  std::vector<std::pair<MessagePair, AnswerId>> steps;
  for (std::size_t n = node; n != 0; n = nodes.at(n).parent) {
    const Node& x = nodes.at(n);
    steps.push_back({nodes.at(x.parent).branches.at(x.branch).pair, x.answer});
  }
  return {steps.rbegin(), steps.rend()};
}

std::string LikelihoodTree::describe(std::size_t node) const {
  const auto steps = history(node);
  if (steps.empty()) return "∅";
  const auto& ms = mechanism->messages();
  std::string s;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const auto& [pair, a] = steps[i];
    std::string q = pair.identical() ? ms.at(pair.world0) : "(" + ms.at(pair.world0) + "," + ms.at(pair.world1) + ")";
    s += (i ? " " : "") + std::string("(") + q + ", " + mechanism->answer_name(a) + ")";
  }
  return s;
}

LikelihoodTree likelihood_tree(const Game& game, std::optional<unsigned> horizon, std::uint64_t max_nodes) {
  game.validate();
  const unsigned T = horizon.value_or(game.horizon);
  game.check_horizon(T);  // a spec exact only up to max_horizon (Game::max_horizon)
  const auto& mech = *game.mechanism;
  const auto& ver = *game.verifier;
  using Belief = std::map<StateId, Rational>;
  LikelihoodTree tree;
  tree.mechanism = game.mechanism;
  tree.name = game.name;
  tree.horizon = T;
  std::vector<std::array<Belief, 2>> beliefs;
  std::vector<VerifierState> sigma;
  tree.nodes.push_back({});
  beliefs.emplace_back();
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : game.initial[b]) beliefs[0][b][s] += p;
  tree.nodes[0].likelihood = {Rational(1), Rational(1)};
  sigma.push_back(ver.initial_state());
  // breadth-first, so a parent precedes its children
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    if (tree.nodes[n].depth == T) continue;
    const auto& allowed = ver.allowed(sigma[n]);
    std::vector<LikelihoodTree::Branch> branches;
    for (std::size_t action = 0; action < allowed.size(); ++action) {
      const MessagePair pair = allowed[action];
      std::map<AnswerId, std::array<Belief, 2>> kids;
      for (int b = 0; b < 2; ++b) {
        const MessageId m = b == 0 ? pair.world0 : pair.world1;
        for (const auto& [s, p] : beliefs[n][b])
          for (const auto& t : mech.step(s, m)) kids[t.answer][b][t.next] += p * t.probability;
      }
      LikelihoodTree::Branch br{pair, {}};
      for (auto& [a, kb] : kids) {
        std::array<Rational, 2> mass{Rational(0), Rational(0)};
        for (int b = 0; b < 2; ++b)
          for (const auto& [s, p] : kb[b]) mass[b] += p;
        if (sgn(mass[0]) == 0 && sgn(mass[1]) == 0) continue;
        if (tree.nodes.size() >= max_nodes)
          throw GameTooLarge("likelihood_tree", estimate_game_size(game, T), max_nodes, "histories of the system pair");
        LikelihoodTree::Node child;
        child.parent = n;
        child.branch = branches.size();
        child.answer = a;
        child.depth = tree.nodes[n].depth + 1;
        child.likelihood = mass;
        br.children.push_back({a, tree.nodes.size()});
        tree.nodes.push_back(std::move(child));
        beliefs.push_back(std::move(kb));
        sigma.push_back(ver.next(sigma[n], action));
      }
      branches.push_back(std::move(br));
    }
    tree.nodes[n].branches = std::move(branches);
  }
  return tree;
}

std::string RROutput::label() const {
  if (!flag) return std::to_string(bit);
  return std::string(*flag == RRFlag::Leak ? "(Leak," : "(NoLeak,") + std::to_string(bit) + ")";
}

std::vector<RROutput> rr_outputs(const Rational& lambda) {
  if (lambda < 1) throw Error("rr_outputs", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  const Rational hi = lambda / (1 + lambda), lo = 1 / (1 + lambda);
  return {RROutput{std::nullopt, 0, {hi, lo}}, RROutput{std::nullopt, 1, {lo, hi}}};
}

std::vector<RROutput> rr_outputs(const Rational& lambda, const Rational& delta) {
  if (lambda < 1) throw Error("rr_outputs", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  if (sgn(delta) < 0 || delta > 1) throw Error("rr_outputs", "delta", to_string(delta), "delta must lie in [0, 1]");
  const Rational hi = (1 - delta) * lambda / (1 + lambda), lo = (1 - delta) / (1 + lambda);
  return {RROutput{RRFlag::Leak, 0, {delta, Rational(0)}}, RROutput{RRFlag::Leak, 1, {Rational(0), delta}},
          RROutput{RRFlag::NoLeak, 0, {hi, lo}}, RROutput{RRFlag::NoLeak, 1, {lo, hi}}};
}

std::vector<Rational> system_likelihoods(const LikelihoodTree& tree, const SimulatorSystem& system) {
  std::vector<Rational> out(tree.nodes.size());
  out[0] = 1;
  for (std::size_t n = 1; n < tree.nodes.size(); ++n) {
    const auto& x = tree.nodes[n];
    const auto& br = tree.nodes[x.parent].branches.at(x.branch);
    std::size_t k = 0;
    while (br.children.at(k).node != n) ++k;
    out[n] = out[x.parent] * system.conditional.at(x.parent).at(x.branch).at(k);
  }
  return out;
}

namespace {

bool same_output(const RROutput& a, const RROutput& b) {
  return a.flag == b.flag && a.bit == b.bit && a.weight == b.weight;
}

std::string fail_weights(const Simulator& sim) {
  if (sim.systems.empty()) return "the simulator has no systems";
  if (sim.method == "product") {
    for (int b = 0; b < 2; ++b) {
      Rational total = 0;
      for (const auto& s : sim.systems) {
        if (sgn(s.input.weight[b]) < 0) return "system " + s.name + " has a negative weight in world " + std::to_string(b);
        total += s.input.weight[b];
      }
      if (total != 1) return "the weights of world " + std::to_string(b) + " sum to " + to_string(total) + ", not 1";
    }
    return {};
  }
  const bool pure = !sim.systems.front().input.flag;
  const auto expected = pure ? rr_outputs(sim.lambda) : rr_outputs(sim.lambda, sim.delta);
  if (sim.systems.size() != expected.size())
    return "expected " + std::to_string(expected.size()) + " systems (one per RR output), got " + std::to_string(sim.systems.size());
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (!same_output(sim.systems[i].input, expected[i]))
      return "system " + sim.systems[i].name + " does not carry the RR output " + expected[i].label() + " with its A.2 weights";
  return {};
}

}  // namespace

SimulatorVerification verify_simulator(const LikelihoodTree& tree, const Simulator& sim) {
  SimulatorVerification v;
  if (auto f = fail_weights(sim); !f.empty()) {
    v.failure = f;
    return v;
  }
  // 1. shapes and probability vectors
  for (const auto& s : sim.systems) {
    if (s.conditional.size() != tree.nodes.size()) {
      v.failure = "system " + s.name + " has conditionals for " + std::to_string(s.conditional.size()) + " nodes, the tree has " +
                  std::to_string(tree.nodes.size());
      return v;
    }
    for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
      const auto& node = tree.nodes[n];
      if (s.conditional[n].size() != node.branches.size()) {
        v.failure = "system " + s.name + " at " + tree.describe(n) + ": wrong number of branches";
        return v;
      }
      for (std::size_t q = 0; q < node.branches.size(); ++q) {
        const auto& law = s.conditional[n][q];
        if (law.size() != node.branches[q].children.size()) {
          v.failure = "system " + s.name + " at " + tree.describe(n) + ": wrong number of answers";
          return v;
        }
        Rational total = 0;
        for (const auto& p : law) {
          if (sgn(p) < 0) {
            v.failure = "system " + s.name + " at " + tree.describe(n) + ": negative conditional probability " + to_string(p);
            return v;
          }
          total += p;
        }
        if (total != 1) {
          v.failure = "system " + s.name + " at " + tree.describe(n) + ": conditional law sums to " + to_string(total);
          return v;
        }
        ++v.conditionals_checked;
      }
    }
  }
  // 2. the mixture identity at every node
  std::vector<std::vector<Rational>> lik;
  for (const auto& s : sim.systems) lik.push_back(system_likelihoods(tree, s));
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    for (int b = 0; b < 2; ++b) {
      Rational mix = 0;
      for (std::size_t c = 0; c < sim.systems.size(); ++c) mix += sim.systems[c].input.weight[b] * lik[c][n];
      if (mix != tree.nodes[n].likelihood[b]) {
        v.failure = "at " + tree.describe(n) + " in world " + std::to_string(b) + " the RR mixture of the simulator gives " +
                    to_string(mix) + " but the mechanism gives " + to_string(tree.nodes[n].likelihood[b]);
        return v;
      }
    }
    ++v.nodes_checked;
    if (tree.is_full(n)) ++v.full_histories;
  }
  v.verified = true;
  return v;
}

// ------------------------------------------------------------------ concurrent product

namespace {

/// State of the product: both components' states and how many messages each has received.
struct ProductState {
  StateId s1 = 0, s2 = 0;
  unsigned n1 = 0, n2 = 0;
  bool operator==(const ProductState&) const = default;
};
struct ProductStateHash {
  std::size_t operator()(const ProductState& s) const {
    return ((static_cast<std::size_t>(s.s1) * 1000003u + s.s2) * 1009u + s.n1) * 1013u + s.n2;
  }
};

}  // namespace

Game concurrent_product(const Game& first, const Game& second) {
  first.validate();
  second.validate();
  for (const Game* g : {&first, &second}) {
    if (!dynamic_cast<const StaticVerifier*>(g->verifier.get()))
      throw Error("concurrent_product", g->name, g->verifier->describe(), "components must have static neighbours");
    for (int b = 0; b < 2; ++b)
      if (g->initial[b].size() != 1)
        throw Error("concurrent_product", g->name, "initial", "components must start in one state per world");
  }
  auto m1 = first.mechanism, m2 = second.mechanism;
  const unsigned T1 = first.horizon, T2 = second.horizon;
  std::vector<std::string> messages;
  for (const auto& q : m1->messages()) messages.push_back("1:" + q);
  for (const auto& q : m2->messages()) messages.push_back("2:" + q);
  const std::size_t k1 = m1->messages().size();
  auto step = [m1, m2, T1, T2, k1, messages](const ProductState& s, const std::string& msg) {
    std::vector<Outcome<ProductState>> out;
    const auto id = static_cast<std::size_t>(std::find(messages.begin(), messages.end(), msg) - messages.begin());
    const bool to_first = id < k1;
    if ((to_first && s.n1 == T1) || (!to_first && s.n2 == T2)) {
      out.push_back({Rational(1), halt_answer, s});
      return out;
    }
    const auto& mech = to_first ? *m1 : *m2;
    const MessageId q = static_cast<MessageId>(to_first ? id : id - k1);
    for (const auto& t : mech.step(to_first ? s.s1 : s.s2, q)) {
      ProductState next = s;
      if (to_first) next.s1 = t.next, ++next.n1;
      else next.s2 = t.next, ++next.n2;
      out.push_back({t.probability, mech.answer_name(t.answer), next});
    }
    return out;
  };
  auto show = [m1, m2](const ProductState& s) {
    return "(" + m1->state_name(s.s1) + "#" + std::to_string(s.n1) + ", " + m2->state_name(s.s2) + "#" + std::to_string(s.n2) + ")";
  };
  const std::string name = first.name + " ⊗ " + second.name;
  auto mech = std::make_shared<LambdaMechanism<ProductState, ProductStateHash>>(name, messages, step, show);
  std::array<StateId, 2> init{};
  for (int b = 0; b < 2; ++b)
    init[b] = mech->state_id(ProductState{first.initial[b].front().first, second.initial[b].front().first, 0, 0});
  Game g = static_game(name, mech, init, T1 + T2);
  g.world_names = first.world_names;
  return g;
}

namespace {

/// The child of component node @p node under branch @p branch with answer name @p answer.
std::optional<std::size_t> component_child(const LikelihoodTree& t, std::size_t node, std::size_t branch,
                                           const std::string& answer) {
  for (std::size_t k = 0; k < t.nodes[node].branches.at(branch).children.size(); ++k)
    if (t.mechanism->answer_name(t.nodes[node].branches[branch].children[k].answer) == answer) return k;
  return std::nullopt;
}

}  // namespace

Simulator product_simulator(const LikelihoodTree& tree, const ProductFactor& first, const ProductFactor& second) {
  const LikelihoodTree& t1 = *first.tree;
  const LikelihoodTree& t2 = *second.tree;
  const std::size_t k1 = t1.mechanism->messages().size();
  // component node of each composed node
  std::vector<std::array<std::size_t, 2>> at(tree.nodes.size(), {0, 0});
  Simulator sim;
  sim.method = "product";
  sim.lambda = first.simulator->lambda * second.simulator->lambda;
  sim.delta = 0;
  for (const auto& c1 : first.simulator->systems)
    for (const auto& c2 : second.simulator->systems) {
      SimulatorSystem s;
      s.name = c1.name + "⊗" + c2.name;
      s.input = RROutput{std::nullopt, 0, {c1.input.weight[0] * c2.input.weight[0], c1.input.weight[1] * c2.input.weight[1]}};
      s.conditional.resize(tree.nodes.size());
      sim.systems.push_back(std::move(s));
    }
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const auto& node = tree.nodes[n];
    for (std::size_t q = 0; q < node.branches.size(); ++q) {
      const auto& br = node.branches[q];
      const std::size_t msg = br.pair.world0;
      const bool to_first = msg < k1;
      const LikelihoodTree& ct = to_first ? t1 : t2;
      const std::size_t cnode = at[n][to_first ? 0 : 1];
      const std::size_t cbranch = to_first ? msg : msg - k1;  // static: branch index = message id
      const bool exhausted = ct.nodes[cnode].branches.empty();
      std::vector<std::optional<std::size_t>> ck;  // component child index per composed child
      for (const auto& child : br.children) {
        const std::string& a = tree.mechanism->answer_name(child.answer);
        if (exhausted) {
          if (a != halt_answer) throw Error("product_simulator", tree.describe(child.node), a, "a component past its horizon must halt");
          ck.push_back(std::nullopt);
        } else {
          auto k = component_child(ct, cnode, cbranch, a);
          if (!k) throw Error("product_simulator", tree.describe(child.node), a, "no such answer in the component's tree");
          ck.push_back(k);
          at[child.node] = at[n];
          at[child.node][to_first ? 0 : 1] = ct.nodes[cnode].branches[cbranch].children[*k].node;
        }
        if (exhausted) at[child.node] = at[n];
      }
      std::size_t idx = 0;
      for (const auto& c1 : first.simulator->systems)
        for (const auto& c2 : second.simulator->systems) {
          const SimulatorSystem& cs = to_first ? c1 : c2;
          std::vector<Rational> law;
          Rational total = 0;
          for (const auto& k : ck) {
            law.push_back(k ? cs.conditional.at(cnode).at(cbranch).at(*k) : Rational(1));
            total += law.back();
          }
          // The composed tree omits answers of likelihood 0 in both composed worlds (e.g. an answer
          // only world 1 gives, below a history world 1 cannot reach). A system that still puts mass
          // on such an answer cannot reach this node at all (its weighted likelihood here is 0 in
          // both worlds), so the node gets the fixed convention for unreachable nodes (uniform); the
          // mixture identity checked by verify_simulator is the arbiter either way.
          if (total != 1)
            for (auto& p : law) p = Rational(1, static_cast<unsigned long>(law.size()));
          sim.systems[idx].conditional[n].push_back(std::move(law));
          ++idx;
        }
    }
  }
  return sim;
}

}  // namespace exactdp
