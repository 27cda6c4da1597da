#include "proofs_checks/interactive_support.hpp"

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"
#include "proofs_checks/support.hpp"

#include <memory>
#include <set>

namespace exactdp::proofs {

Game c1_game() { return concurrent({mp_game(), mp_game()}, "C1 = MP ⊗ MP"); }
Game r1_game() { return concurrent({mp_game(), r2_game()}, "R1 = MP ⊗ R2"); }
Game h8_game() { return concurrent({library::mirror(q(1, 2)), library::m_delta(q(1, 10))}, "H8 = Mir_{1/2} ⊗ M_{1/10}"); }

Game random_small_system(Rng& rng) {
  if (rng.coin()) return random_vw2_game(rng);
  return random_table_game(rng, 2, static_cast<unsigned>(rng.range(1, 2)));
}

Game random_pure_system(Rng& rng) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    Game g = random_small_system(rng);
    if (!worst_case_ratio(g).max().is_infinite()) return g;
  }
  return r2_game();
}

std::size_t ComposedTree::distinct_tuples() const { return std::set<std::vector<std::size_t>>(at.begin(), at.end()).size(); }

std::string joined_names(const std::vector<Game>& parts) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? " ⊗ " : "") + parts[i].name;
  return s;
}

ComposedTree composed_tree(const std::vector<Game>& parts) {
  ComposedTree t{parts, concurrent(parts, joined_names(parts)), {}, {}, {}};
  t.composed = likelihood_tree(t.game);
  for (const auto& p : parts) t.components.push_back(likelihood_tree(p));
  const auto* mech = dynamic_cast<const ConcurrentMechanism*>(t.game.mechanism.get());
  if (!mech) throw Error("composed_tree", t.game.name, "mechanism", "not a ConcurrentMechanism");
  t.at.assign(t.composed.nodes.size(), std::vector<std::size_t>(parts.size(), 0));
  for (std::size_t n = 0; n < t.composed.nodes.size(); ++n) {  // parents precede children
    for (const auto& br : t.composed.nodes[n].branches) {
      const auto [i0, m0] = mech->route(br.pair.world0);
      const auto [i1, m1] = mech->route(br.pair.world1);
      if (i0 != i1) throw Error("composed_tree", t.composed.describe(n), "pair", "the two worlds' messages go to different components");
      const LikelihoodTree& ct = t.components[i0];
      const std::size_t cn = t.at[n][i0];
      const LikelihoodTree::Branch* cbr = nullptr;
      for (const auto& b : ct.nodes[cn].branches)
        if (b.pair.world0 == m0 && b.pair.world1 == m1) cbr = &b;
      if (!cbr) throw Error("composed_tree", t.composed.describe(n), "pair", "component " + std::to_string(i0) + " does not allow it");
      for (const auto& child : br.children) {
        const auto routed = parse_routed_name(t.composed.mechanism->answer_name(child.answer));
        if (!routed || routed->first != i0)
          throw Error("composed_tree", t.composed.describe(child.node), "answer", "not an answer of component " + std::to_string(i0));
        std::optional<std::size_t> found;
        for (const auto& k : cbr->children)
          if (ct.mechanism->answer_name(k.answer) == routed->second) found = k.node;
        if (!found) throw Error("composed_tree", t.composed.describe(child.node), routed->second, "no such history in the component's tree");
        t.at[child.node] = t.at[n];
        t.at[child.node][i0] = *found;
      }
    }
  }
  return t;
}

std::string factorisation_failure(const ComposedTree& t) {
  for (std::size_t n = 0; n < t.composed.nodes.size(); ++n)
    for (int b = 0; b < 2; ++b) {
      Rational prod = 1;
      for (std::size_t i = 0; i < t.components.size(); ++i) prod *= t.components[i].nodes[t.at[n][i]].likelihood[b];
      if (prod != t.composed.nodes[n].likelihood[b])
        return "at " + t.composed.describe(n) + ", world " + std::to_string(b) + ": composed likelihood " +
               str(t.composed.nodes[n].likelihood[b]) + ", product of the components' " + str(prod);
    }
  return {};
}

std::string composed_simulator_failure(const ComposedTree& t, const std::vector<Simulator>& simulators) {
  const std::size_t k = t.components.size();
  if (simulators.size() != k) return "one simulator per component is needed";
  // likelihoods[i][c][node] = T_i^c(node) on component i's tree
  std::vector<std::vector<std::vector<Rational>>> lik(k);
  for (std::size_t i = 0; i < k; ++i)
    for (const auto& s : simulators[i].systems) lik[i].push_back(system_likelihoods(t.components[i], s));
  for (std::size_t n = 0; n < t.composed.nodes.size(); ++n)
    for (int b = 0; b < 2; ++b) {
      Rational total = 0;
      std::vector<std::size_t> c(k, 0);  // the tuple (c_1, …, c_k), enumerated like an odometer
      for (;;) {
        Rational term = 1;
        for (std::size_t i = 0; i < k; ++i) term *= simulators[i].systems[c[i]].input.weight[b] * lik[i][c[i]][t.at[n][i]];
        total += term;
        std::size_t i = 0;
        while (i < k && ++c[i] == simulators[i].systems.size()) c[i++] = 0;
        if (i == k) break;
      }
      if (total != t.composed.nodes[n].likelihood[b])
        return "at " + t.composed.describe(n) + ", world " + std::to_string(b) + ": the composed simulator gives " + str(total) +
               ", the composition " + str(t.composed.nodes[n].likelihood[b]);
    }
  return {};
}

std::string profile_above_bound(const PrivacyProfile& profile, const std::vector<ProfilePiece>& bound) {
  std::vector<Rational> points;
  for (const auto& p : bound) points.push_back(p.start);
  for (const auto& x : profile.forward().breakpoints()) points.push_back(x);
  for (const auto& x : profile.backward().breakpoints()) points.push_back(x);
  std::string above;
  for (const auto& x : points) {
    const Rational d = profile.delta(x), b = evaluate_profile(bound, x);
    if (d > b) above += " λ = " + str(x) + ": " + str(d) + " > " + str(b) + ";";
  }
  return above;
}

std::string answer_key(const LikelihoodTree& t, std::size_t node) {
  std::string k;
  const auto steps = t.history(node);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (i) k += "," + t.mechanism->messages().at(steps[i].first.world0) + ",";
    k += t.mechanism->answer_name(steps[i].second);
  }
  return k;
}

}  // namespace exactdp::proofs
