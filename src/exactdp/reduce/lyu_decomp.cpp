#include "exactdp/reduce/lyu_decomp.hpp"

#include "exactdp/divergence/functionals.hpp"

#include <algorithm>
#include <functional>

namespace exactdp {

namespace {

Rational uniform(std::size_t n) { return Rational(1, static_cast<unsigned long>(n)); }

}  // namespace

std::array<Rational, 2> LyuDecomposition::residual(const LikelihoodTree& tree, std::size_t node) const {
  const auto& m = tree.nodes.at(node).likelihood;
  return {Rational(m[0] - bad_mass.at(node)[0]), Rational(m[1] - bad_mass.at(node)[1])};
}

std::vector<std::array<Rational, 2>> tree_hockey_stick(const LikelihoodTree& tree, const Rational& gamma) {
  std::vector<std::array<Rational, 2>> lower(tree.nodes.size(), {Rational(0), Rational(0)});
  for (std::size_t n = tree.nodes.size(); n-- > 0;) {  // children follow their parents
    const auto& node = tree.nodes[n];
    const auto& m = node.likelihood;
    if (tree.is_full(n)) {
      for (int b = 0; b < 2; ++b) lower[n][b] = hockey_stick_term(m[b], m[1 - b], gamma);  // (p − γq)⁺
      continue;
    }
    for (int b = 0; b < 2; ++b) {
      Rational best = 0;  // stopping is dominated (A.4)
      for (const auto& br : node.branches) {
        Rational sum = 0;
        for (const auto& c : br.children) sum += lower[c.node][b];
        best = std::max(best, sum);
      }
      lower[n][b] = best;
    }
  }
  return lower;
}

namespace {

/// Steps B–C at one node and one branch: the greedy increase; returns an invariant failure or "".
std::string split_branch(const LikelihoodTree& tree, std::size_t n, const LikelihoodTree::Branch& br, const Rational& c,
                         const std::vector<std::array<Rational, 2>>& lower, std::vector<std::array<Rational, 2>>& bad) {
  Rational g0 = bad[n][0], g1 = bad[n][1];
  for (const auto& k : br.children) g0 -= lower[k.node][0], g1 -= lower[k.node][1];
  if (sgn(g0) < 0 || sgn(g1) < 0)
    return "a gap is negative at " + tree.describe(n) + " (g = (" + to_string(g0) + ", " + to_string(g1) + "))";
  for (const auto& k : br.children) {
    const auto& m = tree.nodes[k.node].likelihood;
    const Rational& ua = lower[k.node][0];
    const Rational& va = lower[k.node][1];
    const Rational u = std::min({Rational(ua + g0), Rational(m[0] - c * m[1] + c * (va + g1)), m[0]});
    const Rational v = std::min({Rational(va + g1), Rational(m[1] - c * m[0] + c * (ua + g0)), m[1]});
    g0 -= u - ua;
    g1 -= v - va;
    bad[k.node] = {u, v};
  }
  if (sgn(g0) != 0 || sgn(g1) != 0)
    return "the gaps do not close at " + tree.describe(n) + " (left over: " + to_string(g0) + ", " + to_string(g1) + ")";
  return {};
}

/// The invariants of B.9 at one node (I1, I2, Claim 2) and one level of (I3); returns "" if all hold.
std::string check_node(const LikelihoodTree& tree, std::size_t n, const Rational& gamma, const Rational& c,
                       const std::vector<std::array<Rational, 2>>& lower, const std::vector<std::array<Rational, 2>>& bad) {
  const auto& m = tree.nodes[n].likelihood;
  const std::array<Rational, 2> r{Rational(m[0] - bad[n][0]), Rational(m[1] - bad[n][1])};
  for (int b = 0; b < 2; ++b) {
    const std::string at = " at " + tree.describe(n) + " for b = " + std::to_string(b);
    if (bad[n][b] < lower[n][b] || sgn(lower[n][b]) < 0) return "(I1) D^b ≥ λ^b ≥ 0 fails" + at;
    if (sgn(r[b]) < 0) return "(I2) R^b ≥ 0 fails" + at;
    if (r[1 - b] > gamma * r[b]) return "(I2) R^{1−b} ≤ γ·R^b fails" + at;
    if (lower[n][b] > m[b] - c * m[1 - b] + c * lower[n][1 - b]) return "LYU22 Claim 2 (λ^b ≤ U^b + λ^{1−b}/γ) fails" + at;
  }
  for (std::size_t q = 0; q < tree.nodes[n].branches.size(); ++q)
    for (int b = 0; b < 2; ++b) {
      Rational sum = 0;
      for (const auto& k : tree.nodes[n].branches[q].children) sum += bad[k.node][b];
      if (sum != bad[n][b]) return "(I3) Σ_a D^b(h∘(q,a)) = D^b(h) fails at " + tree.describe(n);
    }
  return {};
}

SimulatorSystem proportional_system(const LikelihoodTree& tree, std::string name, RROutput input,
                                    const std::function<Rational(std::size_t)>& weight) {
  SimulatorSystem s{std::move(name), std::move(input), {}};
  s.conditional.resize(tree.nodes.size());
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    const Rational den = weight(n);
    for (const auto& br : tree.nodes[n].branches) {
      std::vector<Rational> law;
      for (const auto& k : br.children)
        law.push_back(sgn(den) == 0 ? uniform(br.children.size()) : Rational(weight(k.node) / den));
      s.conditional[n].push_back(std::move(law));
    }
  }
  return s;
}

}  // namespace

LyuBuild lyu_decomposition(const LikelihoodTree& tree, const Rational& gamma, const Rational& delta) {
  if (gamma <= 1)
    throw Error("lyu_decomposition", "lambda", to_string(gamma),
                "LYU-DECOMP needs lambda > 1 (its gap argument divides by 1 - 1/lambda); use the exact LP at lambda = 1");
  if (sgn(delta) < 0 || delta > 1) throw Error("lyu_decomposition", "delta", to_string(delta), "delta must lie in [0, 1]");
  const Rational c = 1 / gamma;
  LyuDecomposition d;
  // Step A
  d.lower = tree_hockey_stick(tree, gamma);
  for (int b = 0; b < 2; ++b)
    if (d.lower[0][b] > delta) {
      // the witness: follow the argmax queries and report the full history carrying the most excess
      std::size_t n = 0, best_leaf = 0;
      Rational best = -1;
      std::vector<std::size_t> stack{0};
      while (!stack.empty()) {
        n = stack.back();
        stack.pop_back();
        const auto& node = tree.nodes[n];
        if (node.branches.empty()) {
          if (d.lower[n][b] > best) best = d.lower[n][b], best_leaf = n;
          continue;
        }
        for (const auto& br : node.branches) {
          Rational sum = 0;
          for (const auto& k : br.children) sum += d.lower[k.node][b];
          if (sum == d.lower[n][b]) {
            for (const auto& k : br.children) stack.push_back(k.node);
            break;
          }
        }
      }
      return SimulatorRefusal{"not (ln " + to_string(gamma) + ", " + to_string(delta) + ")-indistinguishable: the worst adaptive " +
                                  "adversary reaches H_λ(V" + std::to_string(b) + "‖V" + std::to_string(1 - b) + ") = λ" +
                                  std::to_string(b) + "(∅) = " + to_string(d.lower[0][b]) + " > δ = " + to_string(delta) +
                                  " (LYU-DECOMP Step A); its largest contribution is the full history " + tree.describe(best_leaf) +
                                  " with M" + std::to_string(b) + " − λ·M" + std::to_string(1 - b) + " = " + to_string(best),
                              best_leaf};
    }
  // Steps B–C, parents before children
  d.bad_mass.assign(tree.nodes.size(), {Rational(0), Rational(0)});
  d.bad_mass[0] = {delta, delta};
  for (std::size_t n = 0; n < tree.nodes.size(); ++n)
    for (const auto& br : tree.nodes[n].branches)
      if (auto f = split_branch(tree, n, br, c, d.lower, d.bad_mass); !f.empty()) return SimulatorRefusal{f, n};
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    if (auto f = check_node(tree, n, gamma, c, d.lower, d.bad_mass); !f.empty()) return SimulatorRefusal{"invariant violated: " + f, n};
    ++d.invariants_checked;
  }
  // Steps D–F
  const auto outputs = rr_outputs(gamma, delta);
  Simulator& sim = d.simulator;
  sim.method = "lyu";
  sim.lambda = gamma;
  sim.delta = delta;
  for (int b = 0; b < 2; ++b)
    sim.systems.push_back(proportional_system(tree, "E^" + std::to_string(b), outputs[b], [&, b](std::size_t n) { return d.bad_mass[n][b]; }));
  for (int cbit = 0; cbit < 2; ++cbit)
    sim.systems.push_back(proportional_system(tree, "N'^" + std::to_string(cbit), outputs[2 + cbit], [&, cbit](std::size_t n) {
      const auto r = d.residual(tree, n);
      return Rational(gamma * r[cbit] - r[1 - cbit]);
    }));
  return d;
}

}  // namespace exactdp
