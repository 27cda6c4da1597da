// THEOREMS.md C.3 — Lyu 2022: optimal concurrent composition for approximate DP (on products of
// pairs and on interactive compositions of compose/, with the composed simulator of B.12), Rényi
// composition and its zCDP/tCDP corollary (certified grid bounds of B.11), the decomposition of
// Thm 3 and its lemmas and claims checked on LYU-DECOMP's node tables (B.9), the budget monitor at
// node level (B.4), Hölder duality, the chain identity, and a finite analogue of guess-and-check.
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "exactdp/bounds/renyi_conversions.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/numeric/interval.hpp"
#include "proofs_checks/interactive_support.hpp"

#include "proofs_checks/support.hpp"

#include <functional>
#include <optional>
#include <tuple>
#include <variant>

namespace exactdp::proofs {
namespace {

using Masses = std::vector<std::pair<Rational, Rational>>;

void check_t1(CheckContext& ctx) {
  // Tight: the product of RR_{ε_i,δ_i} attains δ_opt (E.3 row RR_{ln 2,1/10} ⊗ RR_{ln 3,1/5}).
  const Game g = pair_game("RR_{ln 2,1/10} ⊗ RR_{ln 3,1/5}", product_masses({rr_masses(q(2), q(1, 10)), rr_masses(q(3), q(1, 5))}));
  for (const auto& [lg, expected] : std::vector<std::pair<Rational, Rational>>{{q(1), q(16, 25)}, {q(2), q(13, 25)}, {q(8), q(7, 25)}})
    expect_equal(ctx, g.name + " (noninteractive): engine δ(" + str(lg) + ") = δ_opt (E.3, tight)", worst_case_hockey_stick(g, lg).delta(),
                 expected, 2);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(2, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    std::vector<Masses> parts;
    std::vector<LambdaDelta> ld;
    std::string desc;
    for (long i = 0; i < k; ++i) {
      parts.push_back(random_masses(ctx.rng(), 3, 4));
      const PrivacyLoss l = PrivacyLoss::from_masses(parts.back());
      const Rational lambda = lambda_grid()[ctx.rng().range(0, 4)];
      const Rational d = std::max(hockey_stick(l, lambda), hockey_stick(l.swapped(), lambda));
      ld.push_back({lambda, d});
      desc += " " + describe_masses(parts.back()) + " is (ln " + str(lambda) + ", " + str(d) + ")-DP;";
    }
    const auto prof = worst_case_profile(pair_game("product", product_masses(parts))).profile;
    const auto bound = optimal_composition_profile(ld);
    std::string bad = profile_above_bound(prof, bound);
    ctx.random_instance(bad.empty(), "components" + desc + bad, static_cast<unsigned>(k));
  }
  // Interactive concurrent compositions (compose/'s concurrent(): every interleaving). Each
  // component's certified (λ_i, δ_i) is its own exact worst case δ_i = δ(λ_i) from the engine.
  auto interactive = [&](const std::vector<Game>& parts, const std::vector<Rational>& lambdas, bool named,
                         const std::vector<std::pair<Rational, Rational>>& expected) {
    std::vector<LambdaDelta> ld;
    std::string desc;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      ld.push_back({lambdas[i], worst_case_hockey_stick(parts[i], lambdas[i]).delta()});
      desc += " " + parts[i].name + " is (ln " + str(ld.back().lambda) + ", " + str(ld.back().delta) + ")-DP;";
    }
    const Game g = concurrent(parts, joined_names(parts));
    const auto prof = worst_case_profile(g).profile;
    const auto bound = optimal_composition_profile(ld);
    std::string bad = profile_above_bound(prof, bound);
    for (const auto& [lg, want] : expected)  // E.10 values: engine = δ_opt (tight)
      if (prof.delta(lg) != want || evaluate_profile(bound, lg) != want)
        bad += " at λ′ = " + str(lg) + " engine " + str(prof.delta(lg)) + ", δ_opt " + str(evaluate_profile(bound, lg)) + ", E.10 " + str(want) + ";";
    if (named)
      ctx.instance(g.name + ":" + desc + " engine profile ≤ δ_opt at every breakpoint" + (expected.empty() ? "" : ", E.10 values (tight)"),
                   bad.empty() ? "holds" : bad, bad.empty(), g.horizon);
    else
      ctx.random_instance(bad.empty(), "components" + desc + bad, g.horizon);
  };
  interactive({mp_game(), mp_game()}, {q(8), q(8)}, true, {});
  interactive({mp_game(), mp_game()}, {q(2), q(4)}, true, {});
  interactive({mp_game(), r2_game()}, {q(3), q(2)}, true, {});
  interactive({library::mirror(q(1, 2)), library::m_delta(q(1, 10))}, {q(2), q(1)}, true, {{q(1), q(11, 20)}, {q(2), q(13, 40)}, {q(4), q(13, 40)}});
  // The composed simulator of B.12 on C1 (E.7: VW-SIM of each copy at γ = 8, weights of RR_{ln 8}):
  // Σ over (c₁, c₂) of the weights times the product of the simulators' likelihoods = ConComp^b.
  {
    const ComposedTree t = composed_tree({mp_game(), mp_game()});
    std::vector<Simulator> sims;
    for (const auto& ct : t.components) sims.push_back(std::get<Simulator>(vw_simulator(ct, q(8))));
    const std::string f = composed_simulator_failure(t, sims);
    ctx.instance("C1: composed VW-SIM simulator (γ = 8 per copy) reproduces ConComp^b at all " + std::to_string(t.composed.nodes.size()) +
                     " composed histories (E.7, B.12)",
                 f.empty() ? "equal" : f, f.empty(), 4);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<Game> parts{random_small_system(ctx.rng()), random_small_system(ctx.rng())};
    std::vector<Rational> lambdas{lambda_grid()[ctx.rng().range(1, 4)], lambda_grid()[ctx.rng().range(1, 4)]};
    interactive(parts, lambdas, false, {});
    if (n % 3 == 0) {  // the composed LYU-DECOMP simulator at the components' (λ_i, δ_i)
      const ComposedTree t = composed_tree(parts);
      std::vector<Simulator> sims;
      std::string f;
      for (std::size_t i = 0; i < 2 && f.empty(); ++i) {
        const Rational d = worst_case_hockey_stick(parts[i], lambdas[i]).delta();
        if (d >= 1) {
          f = "skip";
          break;
        }
        const LyuBuild b = lyu_decomposition(t.components[i], lambdas[i], d);
        if (const auto* dec = std::get_if<LyuDecomposition>(&b))
          sims.push_back(dec->simulator);
        else
          f = "LYU-DECOMP refused component " + std::to_string(i) + ": " + std::get<SimulatorRefusal>(b).reason;
      }
      if (f == "skip") continue;
      if (f.empty()) f = composed_simulator_failure(t, sims);
      ctx.random_instance(f.empty(), "composed LYU-DECOMP simulator of " + t.game.name + ": " + f, t.game.horizon);
    }
  }
}

void check_cl1(CheckContext& ctx) {
  // The control value at the root is attained by the argmax adversary: the witness tree's exact
  // view distributions give exactly the engine's H_λ.
  auto one = [&](const Game& g, const Rational& lambda, unsigned dir, bool named, unsigned h) {
    EngineOptions o;
    o.horizon = h;
    const auto e = worst_case_hockey_stick(g, lambda, o);
    const Witness w = worst_case_adversary(g, lambda, dir, o);
    const PrivacyLoss l = privacy_loss(view_distributions(g, w.adversary, h));
    const Rational attained = hockey_stick(dir ? l.swapped() : l, lambda);
    const Rational& value = dir ? e.backward : e.forward;
    const bool ok = attained == value && w.delta() == value;
    const std::string name = g.name + ": λ = " + str(lambda) + ", direction " + std::to_string(dir);
    if (named)
      ctx.instance(name + ": argmax adversary attains the control value", str(attained) + (ok ? "" : " ≠ " + str(value)), ok, h);
    else
      ctx.random_instance(ok, name + ": the argmax adversary attains " + str(attained) + ", engine " + str(value), h);
  };
  for (const Game& g : {mp_game(), ma_game(), r2_game()})
    for (const Rational& lambda : {q(1), q(2), q(4)})
      for (unsigned dir : {0u, 1u}) one(g, lambda, dir, true, g.horizon);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, ctx.budget().horizon_cap()));
    one(random_table_game(ctx.rng(), 3, h), lambda_grid()[ctx.rng().range(0, 6)], static_cast<unsigned>(ctx.rng().range(0, 1)), false, h);
  }
}

void check_t2(CheckContext& ctx) {
  // X-RENYI-PRODUCT for noninteractive components: F1's Φ₂ = 3/2 · 7/3 = 7/2 (E.9).
  const Game f1 = pair_game("RR₂ ⊗ RR₃", product_masses({rr_masses(q(2), q(0)), rr_masses(q(3), q(0))}));
  expect_equal(ctx, "RR₂ ⊗ RR₃ (noninteractive): engine Φ₂ (F1: 7/2 = 3/2 · 7/3)", worst_case_renyi_moment(f1, 2).max().value(), q(7, 2), 1);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(2, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    const unsigned long alpha = ctx.rng().coin() ? 2 : 3;
    std::vector<Masses> parts;
    ExtendedRational fwd = 1, bwd = 1;
    std::string desc;
    for (long i = 0; i < k; ++i) {
      parts.push_back(random_masses(ctx.rng(), 3, 4));
      const PrivacyLoss l = PrivacyLoss::from_masses(parts.back());
      fwd = fwd * renyi_moment(l, alpha);
      bwd = bwd * renyi_moment(l.swapped(), alpha);
      desc += " " + describe_masses(parts.back());
    }
    const auto r = worst_case_renyi_moment(pair_game("product", product_masses(parts)), alpha);
    ctx.random_instance(r.forward == fwd && r.backward == bwd,
                        "α = " + std::to_string(alpha) + ", components" + desc + ": engine (" + to_string(r.forward) + ", " +
                            to_string(r.backward) + "), products (" + to_string(fwd) + ", " + to_string(bwd) + ")",
                        static_cast<unsigned>(k));
  }
  {
    // R1 and C1 (E.8), interactive, built by reduce/'s concurrent_product.
    const auto mr = worst_case_renyi_moment(concurrent_product(mp_game(), r2_game()), 2);
    ctx.instance("R1: MP ⊗ R2, Φ₂ (E.8: (183/32, 165/16) = (61/24·9/4, 55/12·9/4))", to_string(mr.forward) + ", " + to_string(mr.backward),
                 mr.forward == ExtendedRational(q(183, 32)) && mr.backward == ExtendedRational(q(165, 16)), 4);
    const auto mm = worst_case_renyi_moment(concurrent_product(mp_game(), mp_game()), 2);
    ctx.instance("C1: MP ⊗ MP, Φ₂ (E.7: (3721/576, 3025/144))", to_string(mm.forward) + ", " + to_string(mm.backward),
                 mm.forward == ExtendedRational(q(3721, 576)) && mm.backward == ExtendedRational(q(3025, 144)), 4);
  }
  // The same through compose/'s concurrent(): E.8 values for α = 2, 3, against the product of the
  // components' engine values.
  auto product_check = [&](const std::vector<Game>& parts, unsigned long alpha, const std::optional<std::pair<Rational, Rational>>& e8, bool named) {
    const Game g = concurrent(parts, joined_names(parts));
    const auto r = worst_case_renyi_moment(g, alpha);
    ExtendedRational f = 1, b = 1;
    for (const auto& p : parts) {
      const auto x = worst_case_renyi_moment(p, alpha);
      f = f * x.forward;
      b = b * x.backward;
    }
    bool ok = r.forward == f && r.backward == b;
    if (e8) ok = ok && r.forward == ExtendedRational(e8->first) && r.backward == ExtendedRational(e8->second);
    const std::string out = "(" + to_string(r.forward) + ", " + to_string(r.backward) + "), product (" + to_string(f) + ", " + to_string(b) + ")";
    if (named)
      ctx.instance(g.name + " (compose/ concurrent), Φ_" + std::to_string(alpha) + (e8 ? " (E.8)" : "") + " = product of the components'", out, ok, g.horizon);
    else
      ctx.random_instance(ok, g.name + ", α = " + std::to_string(alpha) + ": " + out, g.horizon);
  };
  product_check({mp_game(), mp_game()}, 2, std::make_pair(q(3721, 576), q(3025, 144)), true);
  product_check({mp_game(), r2_game()}, 2, std::make_pair(q(183, 32), q(165, 16)), true);
  product_check({mp_game(), r2_game()}, 3, std::make_pair(q(195173, 3072), q(199771, 768)), true);
  product_check({ma_game(), r2_game()}, 2, std::nullopt, true);
  {
    // real α = 3/2 (certified, B.4): the composed enclosure meets the product of the components'
    const Game g = r1_game();
    const auto c = worst_case_renyi_moment_certified(g, q(3, 2));
    const auto a = worst_case_renyi_moment_certified(mp_game(), q(3, 2)), b = worst_case_renyi_moment_certified(r2_game(), q(3, 2));
    const Interval pf = a.forward.enclosure * b.forward.enclosure, pb = a.backward.enclosure * b.backward.enclosure;
    auto meets = [](const Interval& x, const Interval& y) { return !(x.upper() < y.lower() || y.upper() < x.lower()); };
    const bool ok = meets(c.forward.enclosure, pf) && meets(c.backward.enclosure, pb);
    ctx.instance("R1, α = 3/2 (certified): the composed enclosure meets the product of the components'",
                 c.forward.to_string(8) + " vs " + pf.to_string(8) + "; " + c.backward.to_string(8) + " vs " + pb.to_string(8), ok, 4);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
    product_check({random_small_system(ctx.rng()), random_small_system(ctx.rng())}, ctx.rng().coin() ? 2 : 3, std::nullopt, false);
}

void check_l4(CheckContext& ctx) {
  // Hölder with h = g^{α−1} (g ≥ 0 rational), so that h^β = g^α is rational:
  // (E_P[g^{α−1}])^α ≤ Φ_α(P‖Q)·(E_Q[g^α])^{α−1}, with equality at g = P/Q (where Q > 0 everywhere).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned long alpha = ctx.rng().coin() ? 2 : 3;
    Masses m = random_masses(ctx.rng());
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    const ExtendedRational phi = renyi_moment(l, alpha);
    std::vector<Rational> g;
    for (std::size_t i = 0; i < m.size(); ++i) g.push_back(q(ctx.rng().range(0, 6), ctx.rng().range(1, 4)));
    auto check = [&](const std::vector<Rational>& gg, bool equality) {
      Rational ep = 0, eq = 0;
      for (std::size_t i = 0; i < m.size(); ++i) ep += m[i].first * pow(gg[i], alpha - 1), eq += m[i].second * pow(gg[i], alpha);
      if (phi.is_infinite()) return true;
      const Rational lhs = pow(ep, alpha), rhs = phi.value() * pow(eq, alpha - 1);
      return equality ? lhs == rhs : lhs <= rhs;
    };
    bool ok = check(g, false);
    bool full_support = true;
    std::vector<Rational> ratio;
    for (const auto& [p, qq] : m) {
      if (sgn(qq) == 0) full_support = false;
      ratio.push_back(sgn(qq) ? Rational(p / qq) : Rational(0));
    }
    if (full_support) ok = ok && check(ratio, true);
    std::string gs;
    for (const auto& x : g) gs += " " + str(x);
    ctx.random_instance(ok, "α = " + std::to_string(alpha) + ", pair " + describe_masses(m) + ", g =" + gs);
  }
}

void check_l5(CheckContext& ctx) {
  // Chain identity (E.8): Φ_α(P‖Q) = Σ_{y₁} P₁(y₁)^α Q₁(y₁)^{1−α} Φ_α(P_{2|y₁}‖Q_{2|y₁}), for pairs on
  // 𝒴₁ × 𝒴₂ with Q₁ > 0 wherever P₁ > 0 (otherwise both sides are +∞).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned long alpha = ctx.rng().coin() ? 2 : 3;
    const long y1 = ctx.rng().range(1, 3);
    Masses first = random_masses(ctx.rng(), static_cast<int>(y1), 4);
    std::vector<Masses> cond;
    for (std::size_t i = 0; i < first.size(); ++i) cond.push_back(random_masses(ctx.rng(), 3, 4));
    Masses joint;
    for (std::size_t i = 0; i < first.size(); ++i)
      for (const auto& [p, qq] : cond[i]) {
        const Rational a = first[i].first * p, b = first[i].second * qq;
        if (sgn(a) + sgn(b) > 0) joint.emplace_back(a, b);
      }
    const ExtendedRational lhs = renyi_moment(PrivacyLoss::from_masses(joint), alpha);
    ExtendedRational rhs = 0;
    for (std::size_t i = 0; i < first.size(); ++i) {
      const auto& [p1, q1] = first[i];
      if (sgn(p1) == 0) continue;
      if (sgn(q1) == 0) {
        rhs = ExtendedRational::infinity();
        continue;
      }
      const ExtendedRational c = renyi_moment(PrivacyLoss::from_masses(cond[i]), alpha);
      rhs = rhs + ExtendedRational(pow(p1, alpha) / pow(q1, alpha - 1)) * c;
    }
    std::string desc = "α = " + std::to_string(alpha) + ", first marginal " + describe_masses(first) + ", conditionals";
    for (const auto& c : cond) desc += " " + describe_masses(c);
    ctx.random_instance(lhs == rhs, desc + ": Φ_α(joint) = " + to_string(lhs) + ", chain sum = " + to_string(rhs));
  }
}

// ------------------------------------------------------------------ LYU-DECOMP node tables (B.9)
// LYU22 L1–L3, Claim 2 and X-LYU-GREEDY are checked on the node tables of LYU-DECOMP runs
// (LyuDecomposition::lower and ::bad_mass) and on the simulator systems it returns, recomputing
// every system likelihood as the product of its conditionals (system_likelihoods).

/// One LYU-DECOMP run with its tree.
struct Run {
  std::string label;
  LikelihoodTree tree;
  Rational gamma, delta;
  std::optional<LyuDecomposition> d;
  std::string refusal;
};

Run run_decomposition(const Game& g, unsigned horizon, const Rational& gamma, const Rational& delta) {
  Run r{g.name + " (horizon " + std::to_string(horizon) + ") at (γ, δ) = (" + str(gamma) + ", " + str(delta) + ")",
        likelihood_tree(g, horizon), gamma, delta, std::nullopt, ""};
  LyuBuild b = lyu_decomposition(r.tree, gamma, delta);
  if (auto* d = std::get_if<LyuDecomposition>(&b))
    r.d = std::move(*d);
  else
    r.refusal = std::get<SimulatorRefusal>(b).reason;
  return r;
}

/// The runs of E.6 on MA (D.16): L1 and the three parameter sets of L2.
std::vector<Run> named_runs() {
  std::vector<Run> out;
  for (const auto& [gamma, delta] : std::vector<std::pair<Rational, Rational>>{{q(4), q(1, 15)}, {q(3), q(1, 9)}, {q(2), q(2, 9)}, {q(4), q(1, 10)}})
    out.push_back(run_decomposition(ma_game(), 2, gamma, delta));
  out[0].label = "L1: " + out[0].label;
  for (std::size_t i = 1; i < out.size(); ++i) out[i].label = "L2: " + out[i].label;
  return out;
}

/// A random run of E.6: a random table game (2–3 states, horizon ≤ 3), γ ∈ {3/2, 2, 3, 4} and δ the
/// exact δ(γ) of the engine or a larger value; std::nullopt when δ(γ) = 1 (nothing to decompose).
std::optional<Run> random_run(CheckContext& ctx) {
  const unsigned h = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
  const Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
  const Rational gamma = lambda_grid()[ctx.rng().range(1, 4)];
  EngineOptions o;
  o.horizon = h;
  Rational d = worst_case_hockey_stick(g, gamma, o).delta();
  if (ctx.rng().coin()) d += (1 - d) / 4;
  if (d >= 1) return std::nullopt;
  return run_decomposition(g, h, gamma, d);
}

/// The first conditional of @p s that is not a probability vector, described; "".
std::string not_a_system(const LikelihoodTree& t, const SimulatorSystem& s) {
  for (std::size_t n = 0; n < t.nodes.size(); ++n)
    for (std::size_t b = 0; b < t.nodes[n].branches.size(); ++b) {
      Rational sum = 0;
      for (const auto& p : s.conditional.at(n).at(b)) {
        if (sgn(p) < 0) return s.name + " has a negative conditional at " + t.describe(n);
        sum += p;
      }
      if (sum != 1) return s.name + "'s conditional at " + t.describe(n) + " sums to " + str(sum);
    }
  return {};
}

/// E^b(h) recomputed from E^b's conditionals, per node.
std::array<std::vector<Rational>, 2> bad_event_likelihoods(const Run& r) {
  return {system_likelihoods(r.tree, r.d->simulator.systems[0]), system_likelihoods(r.tree, r.d->simulator.systems[1])};
}

/// LYU22 L1 on one run: E⁰, E¹ are systems, δE^b = D^b at every node, and (17)–(18) hold at every
/// node: M^b ≥ δE^b and M^b − δE^b ≤ γ(M^{1−b} − δE^{1−b}).
std::string bad_event_failure(const Run& r) {
  for (int b = 0; b < 2; ++b)
    if (auto f = not_a_system(r.tree, r.d->simulator.systems[b]); !f.empty()) return f;
  const auto e = bad_event_likelihoods(r);
  for (std::size_t n = 0; n < r.tree.nodes.size(); ++n) {
    const auto& m = r.tree.nodes[n].likelihood;
    for (int b = 0; b < 2; ++b) {
      const std::string at = " at " + r.tree.describe(n) + ", b = " + std::to_string(b);
      const Rational de = r.delta * e[b][n], de1 = r.delta * e[1 - b][n];
      if (de != r.d->bad_mass[n][b]) return "δE^b = " + str(de) + " ≠ D^b = " + str(r.d->bad_mass[n][b]) + at;
      if (m[b] < de) return "(17) M^b ≥ δE^b fails: " + str(m[b]) + " < " + str(de) + at;
      if (m[b] - de > r.gamma * (m[1 - b] - de1))
        return "(18) M^b − δE^b ≤ γ(M^{1−b} − δE^{1−b}) fails: " + str(m[b] - de) + " > " + str(r.gamma * (m[1 - b] - de1)) + at;
    }
  }
  return {};
}

/// N^b(h) = (M^b(h) − δE^b(h))/(1 − δ) with E recomputed from its conditionals (LYU22 L2).
std::array<std::vector<Rational>, 2> residual_likelihoods(const Run& r) {
  const auto e = bad_event_likelihoods(r);
  std::array<std::vector<Rational>, 2> n;
  for (int b = 0; b < 2; ++b)
    for (std::size_t i = 0; i < r.tree.nodes.size(); ++i) n[b].push_back((r.tree.nodes[i].likelihood[b] - r.delta * e[b][i]) / (1 - r.delta));
  return n;
}

/// LYU22 L2 on one run: N^b is a system — N^b(∅) = 1, N^b ≥ 0, Σ_a N^b(h∘(q,a)) = N^b(h) for every
/// node and query — and the product of its conditionals N^b(h∘(q,a))/N^b(h) gives N^b back; then
/// δE^b + (1 − δ)N^b = M^b at every node.
std::string residual_failure(const Run& r) {
  const auto n = residual_likelihoods(r);
  const auto e = bad_event_likelihoods(r);
  for (int b = 0; b < 2; ++b) {
    if (n[b][0] != 1) return "N^" + std::to_string(b) + "(∅) = " + str(n[b][0]);
    std::vector<Rational> rebuilt(r.tree.nodes.size());
    rebuilt[0] = 1;
    for (std::size_t i = 0; i < r.tree.nodes.size(); ++i) {
      const std::string at = " at " + r.tree.describe(i) + ", b = " + std::to_string(b);
      if (sgn(n[b][i]) < 0) return "N^b < 0" + at;
      if (r.delta * e[b][i] + (1 - r.delta) * n[b][i] != r.tree.nodes[i].likelihood[b]) return "δE^b + (1−δ)N^b ≠ M^b" + at;
      for (const auto& br : r.tree.nodes[i].branches) {
        Rational sum = 0;
        for (const auto& k : br.children) {
          sum += n[b][k.node];
          // the conditional of N^b (uniform where N^b(h) = 0: the node is unreachable for N^b)
          const Rational cond = sgn(n[b][i]) == 0 ? Rational(1, static_cast<unsigned long>(br.children.size())) : Rational(n[b][k.node] / n[b][i]);
          rebuilt[k.node] = rebuilt[i] * cond;
        }
        if (sum != n[b][i]) return "Σ_a N^b(h∘(q,a)) = " + str(sum) + " ≠ N^b(h) = " + str(n[b][i]) + at;
      }
      if (rebuilt[i] != n[b][i]) return "the product of N^b's conditionals " + str(rebuilt[i]) + " ≠ N^b = " + str(n[b][i]) + at;
    }
  }
  return {};
}

/// LYU22 L3 on one run: (N⁰, N¹) is a pure pair at γ (N^{1−b} ≤ γN^b at every node), the systems
/// N′⁰, N′¹ of the decomposition mix back to it — γ/(1+γ)·N′^b + 1/(1+γ)·N′^{1−b} = N^b at every node,
/// N′ recomputed from its conditionals — and VW-SIM (B.8) run separately on the tree of (N⁰, N¹)
/// builds systems with the same likelihoods (X-VW-UNIQUE).
std::string pure_part_failure(const Run& r) {
  const auto n = residual_likelihoods(r);
  for (int c = 0; c < 2; ++c)
    if (auto f = not_a_system(r.tree, r.d->simulator.systems[2 + c]); !f.empty()) return f;
  const std::array<std::vector<Rational>, 2> k{system_likelihoods(r.tree, r.d->simulator.systems[2]),
                                               system_likelihoods(r.tree, r.d->simulator.systems[3])};
  LikelihoodTree nt = r.tree;
  for (std::size_t i = 0; i < nt.nodes.size(); ++i) nt.nodes[i].likelihood = {n[0][i], n[1][i]};
  const SimulatorBuild vw = vw_simulator(nt, r.gamma);
  const Simulator* sim = std::get_if<Simulator>(&vw);
  if (!sim) return "VW-SIM refuses (N⁰, N¹) at γ: " + std::get<SimulatorRefusal>(vw).reason;
  if (const auto v = verify_simulator(nt, *sim); !v.verified) return "VW-SIM on (N⁰, N¹) fails verification: " + v.failure;
  const std::array<std::vector<Rational>, 2> t{system_likelihoods(nt, sim->systems[0]), system_likelihoods(nt, sim->systems[1])};
  for (std::size_t i = 0; i < r.tree.nodes.size(); ++i)
    for (int b = 0; b < 2; ++b) {
      const std::string at = " at " + r.tree.describe(i) + ", b = " + std::to_string(b);
      if (n[1 - b][i] > r.gamma * n[b][i]) return "N^{1−b} ≤ γN^b fails: " + str(n[1 - b][i]) + " > γ·" + str(n[b][i]) + at;
      if (r.gamma / (1 + r.gamma) * k[b][i] + k[1 - b][i] / (1 + r.gamma) != n[b][i]) return "the RR_ε mixture of N′ is not N^b" + at;
      if (t[b][i] != k[b][i]) return "VW-SIM on (N⁰, N¹) gives T^b = " + str(t[b][i]) + ", LYU-DECOMP's N′^b = " + str(k[b][i]) + at;
    }
  return {};
}

/// LYU22 Claim 2 in node form at every node: λ^b(h) ≤ U^b(h) + λ^{1−b}(h)/γ with U^b = M^b − M^{1−b}/γ.
/// λ^b is recomputed here by its own backward recursion (B.2 in tree form), compared with the root
/// value of the game engine (a memoised belief-pair recursion) and, when given, with the
/// decomposition's table.
std::string claim2_failure(const Game& g, const LikelihoodTree& t, const Rational& gamma, const LyuDecomposition* d) {
  std::vector<std::array<Rational, 2>> lam(t.nodes.size());
  for (std::size_t n = t.nodes.size(); n-- > 0;) {
    const auto& node = t.nodes[n];
    for (int b = 0; b < 2; ++b) {
      if (node.depth == t.horizon) {
        const Rational v = node.likelihood[b] - gamma * node.likelihood[1 - b];
        lam[n][b] = sgn(v) > 0 ? v : Rational(0);
        continue;
      }
      Rational best = 0;
      for (const auto& br : node.branches) {
        Rational sum = 0;
        for (const auto& k : br.children) sum += lam[k.node][b];
        best = std::max(best, sum);
      }
      lam[n][b] = best;
    }
  }
  EngineOptions o;
  o.horizon = t.horizon;
  const auto e = worst_case_hockey_stick(g, gamma, o);
  if (e.forward != lam[0][0] || e.backward != lam[0][1])
    return "λ(∅) = (" + str(lam[0][0]) + ", " + str(lam[0][1]) + ") but the engine gives (" + str(e.forward) + ", " + str(e.backward) + ")";
  for (std::size_t n = 0; n < t.nodes.size(); ++n)
    for (int b = 0; b < 2; ++b) {
      const auto& m = t.nodes[n].likelihood;
      const std::string at = " at " + t.describe(n) + ", b = " + std::to_string(b);
      if (d && d->lower[n][b] != lam[n][b]) return "the decomposition's λ^b = " + str(d->lower[n][b]) + " ≠ " + str(lam[n][b]) + at;
      const Rational rhs = m[b] - m[1 - b] / gamma + lam[n][1 - b] / gamma;
      if (lam[n][b] > rhs) return "λ^b = " + str(lam[n][b]) + " > U^b + λ^{1−b}/γ = " + str(rhs) + at;
    }
  return {};
}

/// X-LYU-GREEDY on one run: replays Step C of B.9 from the node tables. At each child, in the
/// canonical order, the greatest point of F ∩ [u_a, u_a + g₀] × [v_a, v_a + g₁] with
/// F = {u ≤ U⁰ + c·v, v ≤ U¹ + c·u} (c = 1/γ, U^b = m_b − c·m_{1−b}) is found independently of the
/// closed form — among the four points where each coordinate meets one of its two upper
/// constraints, the feasible one that dominates the others — and must equal (D⁰, D¹) there; the
/// gaps must close at the end of every branch.
std::string greedy_failure(const Run& r) {
  const Rational c = 1 / r.gamma;
  const auto& lam = r.d->lower;
  const auto& D = r.d->bad_mass;
  for (std::size_t n = 0; n < r.tree.nodes.size(); ++n)
    for (const auto& br : r.tree.nodes[n].branches) {
      Rational g0 = D[n][0], g1 = D[n][1];
      for (const auto& k : br.children) g0 -= lam[k.node][0], g1 -= lam[k.node][1];
      if (sgn(g0) < 0 || sgn(g1) < 0) return "a negative gap at " + r.tree.describe(n);
      for (const auto& k : br.children) {
        const auto& m = r.tree.nodes[k.node].likelihood;
        const Rational U0 = m[0] - c * m[1], U1 = m[1] - c * m[0];
        const Rational ulo = lam[k.node][0], vlo = lam[k.node][1], uhi = ulo + g0, vhi = vlo + g1;
        const std::vector<std::pair<Rational, Rational>> candidates{
            {uhi, vhi}, {uhi, U1 + c * uhi}, {U0 + c * vhi, vhi}, {(U0 + c * U1) / (1 - c * c), (U1 + c * U0) / (1 - c * c)}};
        std::vector<std::pair<Rational, Rational>> feasible;
        for (const auto& [u, v] : candidates)
          if (u >= ulo && u <= uhi && v >= vlo && v <= vhi && u <= U0 + c * v && v <= U1 + c * u) feasible.emplace_back(u, v);
        std::optional<std::pair<Rational, Rational>> greatest;
        for (const auto& x : feasible) {
          bool dominates = true;
          for (const auto& y : feasible) dominates = dominates && x.first >= y.first && x.second >= y.second;
          if (dominates) greatest = x;
        }
        const std::string at = " at " + r.tree.describe(k.node);
        if (!greatest) return "F ∩ box has no greatest point among the candidates" + at;
        if (greatest->first != D[k.node][0] || greatest->second != D[k.node][1])
          return "the greatest feasible point is (" + str(greatest->first) + ", " + str(greatest->second) + ") but Step C chose (" +
                 str(D[k.node][0]) + ", " + str(D[k.node][1]) + ")" + at;
        g0 -= D[k.node][0] - ulo;
        g1 -= D[k.node][1] - vlo;
      }
      if (sgn(g0) != 0 || sgn(g1) != 0) return "the gaps do not close at " + r.tree.describe(n) + ": " + str(g0) + ", " + str(g1);
    }
  return {};
}

/// Runs @p failure on the named runs of E.6 and on random runs (E.6 "random stress").
void over_runs(CheckContext& ctx, const std::string& what, const std::function<std::string(const Run&)>& failure) {
  for (const Run& r : named_runs()) {
    if (!r.d) {
      ctx.instance(r.label + ": " + what, "LYU-DECOMP refused: " + r.refusal, false, r.tree.horizon);
      continue;
    }
    const std::string f = failure(r);
    ctx.instance(r.label + ": " + what, f.empty() ? "holds at all " + std::to_string(r.tree.nodes.size()) + " nodes" : f, f.empty(),
                 r.tree.horizon);
  }
  for (unsigned i = 0; i < ctx.budget().random_count(); ++i) {
    const auto r = random_run(ctx);
    if (!r) continue;
    const std::string f = r->d ? failure(*r) : "LYU-DECOMP refused at the exact δ(γ) or above: " + r->refusal;
    ctx.random_instance(f.empty(), "random system " + r->label + ": " + f, r->tree.horizon);
  }
}

/// Compares the (D⁰, D¹) table of a named run with B.9's, node by node (all nodes whose history has
/// the key; VW2's first message is irrelevant, so each key names two nodes).
void expect_table(CheckContext& ctx, const Run& r, const std::vector<std::pair<std::string, std::pair<Rational, Rational>>>& table,
                  const std::string& source) {
  if (!r.d) {
    ctx.instance(r.label + ": (D⁰, D¹) table (" + source + ")", "LYU-DECOMP refused: " + r.refusal, false, 2);
    return;
  }
  std::string bad;
  std::size_t compared = 0;
  for (const auto& [key, want] : table)
    for (std::size_t n = 0; n < r.tree.nodes.size(); ++n) {
      if (answer_key(r.tree, n) != key) continue;
      ++compared;
      const auto& got = r.d->bad_mass[n];
      if (got[0] != want.first || got[1] != want.second)
        bad += " (" + key + "): (" + str(got[0]) + ", " + str(got[1]) + ") ≠ (" + str(want.first) + ", " + str(want.second) + ");";
    }
  const bool ok = bad.empty() && compared >= table.size();
  ctx.instance(r.label + ": (D⁰, D¹) = δ·(E⁰, E¹) at the " + std::to_string(table.size()) + " nodes of " + source,
               ok ? "equal at " + std::to_string(compared) + " nodes" : "differs:" + bad, ok, 2);
}

void check_l1(CheckContext& ctx) {
  const std::vector<std::string> keys{"", "0", "1", "0,0,0", "0,0,1", "0,1,0", "0,1,1", "1,0,0", "1,0,1", "1,1,0", "1,1,1"};
  auto table = [&](const std::vector<std::pair<Rational, Rational>>& d) {
    std::vector<std::pair<std::string, std::pair<Rational, Rational>>> t;
    for (std::size_t i = 0; i < keys.size(); ++i) t.push_back({keys[i], d[i]});
    return t;
  };
  const auto z = std::make_pair(q(0), q(0));
  const auto runs = named_runs();
  // B.9 worked example L1 and the three parameter sets of L2 (hand-derived in the catalogue)
  expect_table(ctx, runs[0], table({{q(1, 15), q(1, 15)}, {q(1, 15), q(1, 15)}, z, {q(1, 15), q(1, 60)}, {q(0), q(1, 20)},
                                    {q(1, 15), q(0)}, {q(0), q(1, 15)}, z, z, z, z}),
               "B.9 L1");
  expect_table(ctx, runs[1], table({{q(1, 9), q(1, 9)}, {q(1, 9), q(0)}, {q(0), q(1, 9)}, {q(1, 9), q(0)}, z, {q(1, 15), q(0)},
                                    {q(2, 45), q(0)}, z, {q(0), q(1, 9)}, {q(0), q(1, 9)}, z}),
               "B.9 L2");
  expect_table(ctx, runs[2], table({{q(2, 9), q(2, 9)}, {q(2, 9), q(0)}, {q(0), q(2, 9)}, {q(2, 9), q(0)}, z, {q(1, 15), q(0)},
                                    {q(7, 45), q(0)}, z, {q(0), q(2, 9)}, {q(0), q(2, 9)}, z}),
               "B.9 L2");
  expect_table(ctx, runs[3], table({{q(1, 10), q(1, 10)}, {q(1, 10), q(1, 10)}, z, {q(1, 10), q(1, 40)}, {q(0), q(3, 40)},
                                    {q(1, 15), q(0)}, {q(1, 30), q(1, 10)}, z, z, z, z}),
               "B.9 L2");
  over_runs(ctx, "E⁰, E¹ are systems with δE^b = D^b, (17) M^b ≥ δE^b and (18) M^b − δE^b ≤ γ(M^{1−b} − δE^{1−b}) at every node",
            bad_event_failure);
}

void check_l2(CheckContext& ctx) {
  // B.9 L1: R⁰(0) = 3/5, R¹(0) = 4/15, R⁰(0,0,1) = 2/9, R¹(0,0,1) = 31/180, R⁰(0,1,0) = R¹(0,1,0) = 0,
  // with R = M − δE and E recomputed from E's conditionals.
  const Run r = named_runs()[0];
  if (r.d) {
    const auto n = residual_likelihoods(r);
    const std::vector<std::pair<std::string, std::pair<Rational, Rational>>> want{
        {"0", {q(3, 5), q(4, 15)}}, {"0,0,1", {q(2, 9), q(31, 180)}}, {"0,1,0", {q(0), q(0)}}};
    std::string bad;
    for (const auto& [key, rr] : want)
      for (std::size_t i = 0; i < r.tree.nodes.size(); ++i)
        if (answer_key(r.tree, i) == key) {
          const Rational r0 = (1 - r.delta) * n[0][i], r1 = (1 - r.delta) * n[1][i];
          if (r0 != rr.first || r1 != rr.second) bad += " (" + key + "): (" + str(r0) + ", " + str(r1) + ");";
        }
    ctx.instance("L1: R^b = (1 − δ)N^b at (0), (0,0,1), (0,1,0) (B.9: (3/5, 4/15), (2/9, 31/180), (0, 0))", bad.empty() ? "equal" : "differs:" + bad,
                 bad.empty(), 2);
  } else {
    ctx.instance("L1: R^b = (1 − δ)N^b", "LYU-DECOMP refused: " + r.refusal, false, 2);
  }
  over_runs(ctx, "N^b = (M^b − δE^b)/(1 − δ) is a system, rebuilt from its conditionals, and δE^b + (1 − δ)N^b = M^b", residual_failure);
}

void check_l3(CheckContext& ctx) {
  // B.9 L1 simulator conditionals (Pr[answer 0], Pr[answer 1]) of N′⁰ and N′¹ at the root,
  // (0, q = 0), (0, q = 1), (1, q = 0), (1, q = 1), and leaf likelihoods K⁰(0,0,0) = 85/168,
  // K⁰(0,1,1) = 16/21, K¹(1,0,1) = 25/42.
  const Run r = named_runs()[0];
  if (r.d) {
    const std::vector<std::tuple<std::string, std::string, int, Rational>> cond{
        {"", "0", 0, q(16, 21)},  {"0", "0", 0, q(85, 128)}, {"0", "1", 0, q(0)}, {"1", "0", 0, q(1)}, {"1", "1", 0, q(1, 2)},
        {"", "0", 1, q(1, 6)},    {"0", "0", 1, q(0)},       {"0", "1", 1, q(0)}, {"1", "0", 1, q(2, 7)}, {"1", "1", 1, q(1, 2)}};
    std::string bad;
    for (const auto& [key, msg, c, p0] : cond)
      for (std::size_t i = 0; i < r.tree.nodes.size(); ++i) {
        if (answer_key(r.tree, i) != key) continue;
        const auto& node = r.tree.nodes[i];
        for (std::size_t b = 0; b < node.branches.size(); ++b) {
          if (key != "" && r.tree.mechanism->messages().at(node.branches[b].pair.world0) != msg) continue;
          const auto& ch = node.branches[b].children;
          Rational got0 = 0;
          for (std::size_t k = 0; k < ch.size(); ++k)
            if (r.tree.mechanism->answer_name(ch[k].answer) == "0") got0 = r.d->simulator.systems[2 + c].conditional[i][b][k];
          if (got0 != p0) bad += " N′" + std::to_string(c) + " at (" + key + ", q = " + msg + "): " + str(got0) + " ≠ " + str(p0) + ";";
        }
      }
    const std::array<std::vector<Rational>, 2> k{system_likelihoods(r.tree, r.d->simulator.systems[2]),
                                                 system_likelihoods(r.tree, r.d->simulator.systems[3])};
    for (const auto& [key, c, want] : std::vector<std::tuple<std::string, int, Rational>>{
             {"0,0,0", 0, q(85, 168)}, {"0,1,1", 0, q(16, 21)}, {"1,0,1", 1, q(25, 42)}})
      for (std::size_t i = 0; i < r.tree.nodes.size(); ++i)
        if (answer_key(r.tree, i) == key && k[c][i] != want) bad += " K" + std::to_string(c) + "(" + key + ") = " + str(k[c][i]) + ";";
    ctx.instance("L1: conditionals of N′⁰, N′¹ and leaf likelihoods K⁰(0,0,0), K⁰(0,1,1), K¹(1,0,1) (B.9)", bad.empty() ? "equal" : "differs:" + bad,
                 bad.empty(), 2);
    // Reading note: the catalogue's check "pure level of (N′⁰, N′¹) ≤ γ" cannot be meant literally —
    // VW-SIM systems are not a pure pair in general (V1 of B.8 has T⁰(0,0) = 5/9, T¹(0,0) = 0). Here
    // N′¹'s conditional at (0, q = 0) is (0, 1), so K¹(0,0,0) = 0 < K⁰(0,0,0) = 85/168: the ratio is ∞.
    // The bound γ belongs to (N⁰, N¹), the hypothesis of VW21 T5.2, which pure_part_failure checks.
    ExtendedRational ratio = 0;
    for (std::size_t i : r.tree.full_histories())
      for (int c = 0; c < 2; ++c)
        if (sgn(k[c][i]) > 0)
          ratio = std::max(ratio, sgn(k[1 - c][i]) == 0 ? ExtendedRational::infinity() : ExtendedRational(Rational(k[c][i] / k[1 - c][i])));
    ctx.instance("L1: the systems N′⁰, N′¹ are not themselves a γ-pure pair (largest likelihood ratio, expected ∞ > γ = 4)", to_string(ratio),
                 ratio.is_infinite(), 2);
  } else {
    ctx.instance("L1: N′ conditionals", "LYU-DECOMP refused: " + r.refusal, false, 2);
  }
  over_runs(ctx, "(N⁰, N¹) is ln γ-pure, N′ mixes back to it, and VW-SIM on (N⁰, N¹) gives N′'s likelihoods", pure_part_failure);
}

void check_cl2(CheckContext& ctx) {
  for (const Run& r : named_runs()) {
    const std::string f = claim2_failure(ma_game(), r.tree, r.gamma, r.d ? &*r.d : nullptr);
    ctx.instance(r.label + ": λ^b ≤ U^b + λ^{1−b}/γ at every node", f.empty() ? "holds at all " + std::to_string(r.tree.nodes.size()) + " nodes" : f,
                 f.empty(), 2);
  }
  for (const Game& g : {mp_game(), r2_game()})
    for (const Rational& gamma : {q(1), q(2), q(8)}) {
      const LikelihoodTree t = likelihood_tree(g);
      const std::string f = claim2_failure(g, t, gamma, nullptr);
      ctx.instance(g.name + " at γ = " + str(gamma) + ": λ^b ≤ U^b + λ^{1−b}/γ at every node", f.empty() ? "holds" : f, f.empty(), g.horizon);
    }
  for (unsigned i = 0; i < ctx.budget().random_count(); ++i) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    const Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    const Rational gamma = lambda_grid()[ctx.rng().range(0, 6)];
    const LikelihoodTree t = likelihood_tree(g);
    std::string f = claim2_failure(g, t, gamma, nullptr);
    if (f.empty() && gamma > 1) {  // and inside a decomposition run at the exact δ(γ), when it is below 1
      EngineOptions o;
      o.horizon = h;
      const Rational d = worst_case_hockey_stick(g, gamma, o).delta();
      if (d < 1) {
        const LyuBuild b = lyu_decomposition(t, gamma, d);
        if (const auto* dec = std::get_if<LyuDecomposition>(&b))
          f = claim2_failure(g, t, gamma, dec);
        else
          f = "LYU-DECOMP refused at the exact δ(γ): " + std::get<SimulatorRefusal>(b).reason;
      }
    }
    ctx.random_instance(f.empty(), "random system (horizon " + std::to_string(h) + ") at γ = " + str(gamma) + ": " + f, h);
  }
}

void check_greedy(CheckContext& ctx) {
  // B.9 hand trace of L1: at the root g = (0, 1/15); child a₀ = 0 gets (1/15, 1/15); under (0, q = 0)
  // the children get (1/15, 1/60) and (0, 1/20).
  const Run r = named_runs()[0];
  if (r.d) {
    std::string bad;
    for (const auto& [key, u, v] : std::vector<std::tuple<std::string, Rational, Rational>>{
             {"0", q(1, 15), q(1, 15)}, {"0,0,0", q(1, 15), q(1, 60)}, {"0,0,1", q(0), q(1, 20)}})
      for (std::size_t i = 0; i < r.tree.nodes.size(); ++i)
        if (answer_key(r.tree, i) == key && (r.d->bad_mass[i][0] != u || r.d->bad_mass[i][1] != v)) bad += " (" + key + ");";
    Rational g0 = r.delta, g1 = r.delta;
    for (const auto& k : r.tree.nodes[0].branches[0].children) g0 -= r.d->lower[k.node][0], g1 -= r.d->lower[k.node][1];
    const bool ok = bad.empty() && g0 == 0 && g1 == q(1, 15);
    ctx.instance("L1 hand trace (B.9): root gaps (0, 1/15); u*, v* at (0), (0,0,0), (0,0,1)",
                 ok ? "gaps (" + str(g0) + ", " + str(g1) + "), values equal" : "differs:" + bad + " gaps (" + str(g0) + ", " + str(g1) + ")", ok, 2);
  }
  over_runs(ctx, "Step C picks the greatest point of F ∩ box (independent vertex search) and the gaps close", greedy_failure);
}

// ------------------------------------------------------------------ LYU22 Claim 3 (node level, B.4)

/// W^b at every node of @p t by the tree form of B.4 (leaf M^b^α·M^{1−b}^{1−α}, max over queries of
/// the sum over answers), a route independent of the engine's memoised belief pairs.
std::vector<std::array<ExtendedRational, 2>> tree_renyi(const LikelihoodTree& t, unsigned long alpha) {
  std::vector<std::array<ExtendedRational, 2>> w(t.nodes.size());
  auto leaf = [&](const Rational& p, const Rational& qq) {
    if (sgn(p) == 0) return ExtendedRational();
    if (sgn(qq) == 0) return ExtendedRational::infinity();
    return ExtendedRational(Rational(pow(p, alpha) / pow(qq, alpha - 1)));
  };
  for (std::size_t n = t.nodes.size(); n-- > 0;) {
    const auto& node = t.nodes[n];
    for (int b = 0; b < 2; ++b) {
      w[n][b] = leaf(node.likelihood[b], node.likelihood[1 - b]);  // stopping (dominated, A.4)
      for (const auto& br : node.branches) {
        ExtendedRational sum;
        for (const auto& k : br.children) sum = sum + w[k.node][b];
        w[n][b] = std::max(w[n][b], sum);
      }
    }
  }
  return w;
}

/// LYU22 Claim 3 in moment form at every node of one game: the engine's node values
/// (worst_case_renyi_moment_at) equal the tree recursion; then, with the conditional value
/// V^b(h) = W^b(h)/(M^b(h)^α M^{1−b}(h)^{1−α}) and the conditional answer laws m^b(a | h, q),
/// Σ_a m^b(a|h,q)^α m^{1−b}(a|h,q)^{1−α}·V^b(h∘(q,a)) ≤ V^b(h) for every query q, with equality for some
/// q below the horizon (the potential is a martingale under the optimal adversary). Nodes where
/// M^{1−b}(h) = 0 carry V = ∞ and are skipped (both sides are ∞); nodes with M^b(h) = 0 have no
/// conditional law.
std::string claim3_failure(const Game& g, unsigned long alpha, std::size_t& nodes) {
  const LikelihoodTree t = likelihood_tree(g);
  std::vector<GameHistory> hs;
  for (std::size_t n = 0; n < t.nodes.size(); ++n) hs.push_back(t.history(n));
  const auto eng = worst_case_renyi_moment_at(g, hs, alpha);
  const auto w = tree_renyi(t, alpha);
  nodes = t.nodes.size();
  auto pw = [&](const Rational& p, const Rational& qq) { return Rational(pow(p, alpha) / pow(qq, alpha - 1)); };
  for (std::size_t n = 0; n < t.nodes.size(); ++n) {
    const auto& m = t.nodes[n].likelihood;
    const std::string at = " at " + t.describe(n);
    if (eng[n].likelihood != m) return "the engine's node likelihoods differ from the tree's" + at;
    if (eng[n].moment.forward != w[n][0] || eng[n].moment.backward != w[n][1])
      return "engine W = (" + to_string(eng[n].moment.forward) + ", " + to_string(eng[n].moment.backward) + "), tree recursion (" +
             to_string(w[n][0]) + ", " + to_string(w[n][1]) + ")" + at;
    for (int b = 0; b < 2; ++b) {
      if (sgn(m[b]) == 0 || sgn(m[1 - b]) == 0 || t.nodes[n].branches.empty()) continue;
      const ExtendedRational vh = w[n][b].is_infinite() ? w[n][b] : ExtendedRational(Rational(w[n][b].value() / pw(m[b], m[1 - b])));
      bool attained = false;
      for (const auto& br : t.nodes[n].branches) {
        ExtendedRational sum;
        for (const auto& k : br.children) {
          const auto& mk = t.nodes[k.node].likelihood;
          if (sgn(mk[b]) == 0) continue;
          if (sgn(mk[1 - b]) == 0) {
            sum = ExtendedRational::infinity();
            continue;
          }
          const Rational pa = mk[b] / m[b], qa = mk[1 - b] / m[1 - b];  // m^b(a|h,q), m^{1−b}(a|h,q)
          const ExtendedRational vk = w[k.node][b].is_infinite() ? w[k.node][b] : ExtendedRational(Rational(w[k.node][b].value() / pw(mk[b], mk[1 - b])));
          sum = sum + ExtendedRational(pw(pa, qa)) * vk;
        }
        if (sum > vh) return "Σ_a m^α m′^{1−α} V(h∘(q,a)) = " + to_string(sum) + " > V(h) = " + to_string(vh) + " for b = " + std::to_string(b) + at;
        attained = attained || sum == vh;
      }
      if (!attained) return "no query attains V(h) = " + to_string(vh) + " for b = " + std::to_string(b) + at;
    }
  }
  return {};
}

/// The potential of X-RENYI-PRODUCT at node level: for every composed node H of a concurrent
/// composition, the engine's W^b(H) equals Π_i W_i^b(H|_i), each W_i from the engine on component i
/// at its sub-history (B.12, "≤" by the supermartingale argument of Claim 3, "≥" by running the
/// components' optimal continuations).
std::string potential_failure(const ComposedTree& t, unsigned long alpha) {
  std::vector<GameHistory> hs;
  for (std::size_t n = 0; n < t.composed.nodes.size(); ++n) hs.push_back(t.composed.history(n));
  const auto eng = worst_case_renyi_moment_at(t.game, hs, alpha);
  std::vector<std::vector<NodeRenyiMoment>> comp;
  for (std::size_t i = 0; i < t.components.size(); ++i) {
    std::vector<GameHistory> ch;
    for (std::size_t n = 0; n < t.components[i].nodes.size(); ++n) ch.push_back(t.components[i].history(n));
    comp.push_back(worst_case_renyi_moment_at(t.parts[i], ch, alpha));
  }
  for (std::size_t n = 0; n < t.composed.nodes.size(); ++n) {
    ExtendedRational f = 1, b = 1;
    for (std::size_t i = 0; i < t.components.size(); ++i) {
      f = f * comp[i][t.at[n][i]].moment.forward;
      b = b * comp[i][t.at[n][i]].moment.backward;
    }
    if (f != eng[n].moment.forward || b != eng[n].moment.backward)
      return "at " + t.composed.describe(n) + ": composed W = (" + to_string(eng[n].moment.forward) + ", " + to_string(eng[n].moment.backward) +
             "), product of the components' (" + to_string(f) + ", " + to_string(b) + ")";
  }
  return {};
}

void check_cl3(CheckContext& ctx) {
  for (const Game& g : {mp_game(), ma_game(), r2_game()})
    for (unsigned long alpha : {2ul, 3ul}) {
      std::size_t nodes = 0;
      const std::string f = claim3_failure(g, alpha, nodes);
      ctx.instance(g.name + ", α = " + std::to_string(alpha) + ": Σ_a m^α m′^{1−α} V(h∘(q,a)) ≤ V(h) at every node, equality for the best q",
                   f.empty() ? "holds at all " + std::to_string(nodes) + " nodes" : f, f.empty(), g.horizon);
    }
  for (const auto& parts : std::vector<std::vector<Game>>{{mp_game(), mp_game()}, {mp_game(), r2_game()}}) {
    const ComposedTree t = composed_tree(parts);
    const std::string f = potential_failure(t, 2);
    ctx.instance(t.game.name + ", α = 2: the composed node value W(H) = Π_i W_i(H|_i) at every composed node (the potential of B.12)",
                 f.empty() ? "equal at all " + std::to_string(t.composed.nodes.size()) + " nodes" : f, f.empty(), t.game.horizon);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned long alpha = ctx.rng().coin() ? 2 : 3;
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, ctx.budget().horizon_cap()));
    const Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    std::size_t nodes = 0;
    std::string f = claim3_failure(g, alpha, nodes);
    if (f.empty() && n % 4 == 0) {  // and the composed potential on a random pair
      const ComposedTree t = composed_tree({random_small_system(ctx.rng()), random_small_system(ctx.rng())});
      f = potential_failure(t, alpha);
    }
    ctx.random_instance(f.empty(), "random game, horizon " + std::to_string(h) + ", α = " + std::to_string(alpha) + ": " + f, h);
  }
}

// ------------------------------------------------------------------ LYU22 Cor 1 (zCDP, tCDP; B.11 grid)

/// The α grid of the certified ρ* bounds: 3/2 (certified engine) and the integers 2, 3, 4, 6 (exact).
const std::vector<Rational>& alpha_grid() {
  static const std::vector<Rational> g{q(3, 2), q(2), q(3), q(4), q(6)};
  return g;
}

/// Certified Rényi levels of one game on the grid: D_α = max_b ln Φ_α^b/(α − 1) and D_∞ = ln of the pure
/// level, with the exact moments at integer α kept for the product identity.
struct RenyiCurve {
  std::vector<Interval> d;                                     ///< D_α per grid point
  std::vector<std::optional<std::pair<ExtendedRational, ExtendedRational>>> exact;  ///< Φ_α per direction (integer α)
  std::vector<std::pair<Interval, Interval>> moment;           ///< Φ_α enclosures per direction
  std::optional<Interval> d_inf;                               ///< D_∞ (finite pure level)
  bool finite = true;                                          ///< every Φ_α finite
};

RenyiCurve renyi_curve(const Game& g, Precision prec) {
  RenyiCurve c;
  for (const Rational& alpha : alpha_grid()) {
    Interval f(Rational(0), prec), b(Rational(0), prec);
    if (alpha.get_den() == 1) {
      const auto r = worst_case_renyi_moment(g, alpha.get_num().get_ui());
      c.exact.push_back(std::make_pair(r.forward, r.backward));
      if (r.forward.is_infinite() || r.backward.is_infinite()) {
        c.finite = false;
        return c;
      }
      f = Interval(r.forward.value(), prec);
      b = Interval(r.backward.value(), prec);
    } else {
      const auto r = worst_case_renyi_moment_certified(g, alpha, {}, prec);
      c.exact.push_back(std::nullopt);
      if (r.forward.infinite || r.backward.infinite) {
        c.finite = false;
        return c;
      }
      f = r.forward.enclosure;
      b = r.backward.enclosure;
    }
    c.moment.emplace_back(f, b);
    c.d.push_back(max(log(f), log(b)) / Interval(Rational(alpha - 1), prec));
  }
  const auto ratio = worst_case_ratio(g).max();
  if (ratio.is_finite()) c.d_inf = log(Interval(ratio.value(), prec));
  return c;
}

/// B.11: ρ* = sup_{α>1} D_α/α ≤ max(D_{α₁}, max_j D_{α_{j+1}}/α_j, D_∞/α_n) (the last term only for
/// zCDP; for (ρ, ω)-tCDP with ω = α_n it is dropped), and ρ* ≥ max_j D_{α_j}/α_j.
Interval rho_upper(const RenyiCurve& c, bool zcdp, Precision prec) {
  const auto& a = alpha_grid();
  Interval u = c.d[0];
  for (std::size_t j = 0; j + 1 < a.size(); ++j) u = max(u, c.d[j + 1] / Interval(a[j], prec));
  if (zcdp) u = max(u, *c.d_inf / Interval(a.back(), prec));
  return u;
}
Interval rho_lower(const RenyiCurve& c, Precision prec) {
  const auto& a = alpha_grid();
  Interval l = c.d[0] / Interval(a[0], prec);
  for (std::size_t j = 1; j < a.size(); ++j) l = max(l, c.d[j] / Interval(a[j], prec));
  return l;
}

/// One composition: "" or why the zCDP / tCDP composition fails on it.
std::string zcdp_failure(const std::vector<Game>& parts, bool zcdp, std::string& summary) {
  const Game comp = concurrent(parts, joined_names(parts));
  // A true equality never separates (B.15): when the composition's worlds are indistinguishable
  // (exact pure level 1, so D_α = 0 for every α) ρ*_C = 0 ≤ Σρ*_i is decided symbolically.
  if (worst_case_ratio(comp).max() == ExtendedRational(1)) {
    summary = "the composition's pure level is exactly 1, so ρ*_C = 0";
    return {};
  }
  for (Precision prec : {Precision(128), Precision(512)}) {
    const RenyiCurve cc = renyi_curve(comp, prec);
    std::vector<RenyiCurve> ci;
    for (const auto& p : parts) ci.push_back(renyi_curve(p, prec));
    if (!cc.finite) return "the composition has an infinite moment on the grid";
    for (const auto& c : ci)
      if (!c.finite || (zcdp && !c.d_inf)) return "a component has an infinite moment (precondition of the instance)";
    // the moments multiply at every grid α (exactly at integer α, by enclosure overlap at 3/2)
    for (std::size_t j = 0; j < alpha_grid().size(); ++j) {
      if (cc.exact[j]) {
        ExtendedRational f = 1, b = 1;
        for (const auto& c : ci) f = f * c.exact[j]->first, b = b * c.exact[j]->second;
        if (f != cc.exact[j]->first || b != cc.exact[j]->second) return "Φ_" + str(alpha_grid()[j]) + " of the composition is not the product";
      } else {
        Interval f(Rational(1), prec), b(Rational(1), prec);
        for (const auto& c : ci) f *= c.moment[j].first, b *= c.moment[j].second;
        if (f.upper() < cc.moment[j].first.lower() || f.lower() > cc.moment[j].first.upper() || b.upper() < cc.moment[j].second.lower() ||
            b.lower() > cc.moment[j].second.upper())
          return "the certified Φ_" + str(alpha_grid()[j]) + " of the composition is disjoint from the product of the components'";
      }
    }
    Interval sum(Rational(0), prec);
    for (const auto& c : ci) sum += rho_upper(c, zcdp, prec);
    const Interval lc = rho_lower(cc, prec), uc = rho_upper(cc, zcdp, prec);
    summary = "ρ* of the composition ∈ [" + lc.lower_string(6) + ", " + uc.upper_string(6) + "], Σ of the components' upper bounds ∈ " +
              sum.to_string(6);
    if (lc.upper() <= sum.lower()) return {};  // certified: lower(ρ*_C) ≤ Σ upper(ρ*_i)
    if (lc.lower() > sum.upper()) return "the composition's certified lower bound exceeds the sum: " + summary;
  }
  return "undecided at 512 bits: " + summary;
}

void check_c1(CheckContext& ctx) {
  for (const auto& parts : std::vector<std::vector<Game>>{{mp_game(), mp_game()}, {mp_game(), r2_game()}})
    for (bool zcdp : {true, false}) {
      std::string summary;
      const std::string f = zcdp_failure(parts, zcdp, summary);
      ctx.instance(joined_names(parts) + (zcdp ? ": zCDP, ρ*_C ≤ Σ ρ*_i (grid bound of B.11)" : ": (ρ, ω = 6)-tCDP, ρ_C ≤ Σ ρ_i"),
                   f.empty() ? summary : f, f.empty(), 4);
    }
  {
    // pure ε ⇒ ε²/2-zCDP (BS16, B.11): MP's certified lower bound lies below (ln 8)²/2
    const RenyiCurve c = renyi_curve(mp_game(), 128);
    const Interval l = rho_lower(c, 128), bs = pure_dp_to_zcdp(log(Interval(q(8), 128)));
    ctx.instance("MP: certified lower bound of ρ* ≤ (ln 8)²/2 (pure ⇒ zCDP)", l.to_string(6) + " ≤ " + bs.to_string(6), l.upper() <= bs.lower(), 2);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const bool zcdp = ctx.rng().coin();
    const std::vector<Game> parts{random_pure_system(ctx.rng()), random_pure_system(ctx.rng())};
    std::string summary;
    const std::string f = zcdp_failure(parts, zcdp, summary);
    ctx.random_instance(f.empty(), std::string(zcdp ? "zCDP" : "tCDP") + " of " + parts[0].name + " ⊗ " + parts[1].name + ": " + f,
                        parts[0].horizon + parts[1].horizon);
  }
}

// ------------------------------------------------------------------ LYU22 Thm 5 (guess-and-check, finite analogue)

/// Hash of a vector of longs (the no-refresh SVT's state).
struct LongVectorHash {
  std::size_t operator()(const std::vector<long>& v) const noexcept {
    std::size_t h = v.size();
    for (long x : v) h ^= std::hash<long>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

/// The SVT of Lyu et al. 2017 as used by Algorithm 1 (LYU22 Lemma 6) with discrete Laplace noise:
/// one threshold noise τ ~ DLap(r_threshold) for the whole run (never refreshed), fresh query noise
/// ν ~ DLap(r_query); a message is the integer margin v of a sensitivity-1 query, the answer is
/// "above" iff v + ν > τ, and the mechanism halts after c "above" answers. The probability of a
/// pattern with below-margins B and above-margins S is Σ_{T⊆S} (−1)^{|T|}·Pr[no stop on B ∪ T]
/// (inclusion–exclusion over 1 − F), each term the exact geometric sum of B.13
/// (library::svt_no_stop_probability). State: [#below, below margins…, above margins…], sorted.
Game lyu_svt(const Rational& r_threshold, const Rational& r_query, unsigned cutoff, unsigned horizon) {
  auto pattern = [r_threshold, r_query](const std::vector<long>& below, const std::vector<long>& above) {
    Rational total = 0;
    for (unsigned long mask = 0; mask < (1ul << above.size()); ++mask) {
      std::vector<long> margins = below;
      int sign = 1;
      for (std::size_t i = 0; i < above.size(); ++i)
        if (mask >> i & 1) margins.push_back(above[i]), sign = -sign;
      const Rational p = library::svt_no_stop_probability(r_threshold, r_query, margins);
      total += sign > 0 ? p : Rational(-p);
    }
    return total;
  };
  auto split = [](const std::vector<long>& s) {
    const auto nb = static_cast<std::size_t>(s[0]);
    return std::make_pair(std::vector<long>(s.begin() + 1, s.begin() + 1 + static_cast<long>(nb)), std::vector<long>(s.begin() + 1 + static_cast<long>(nb), s.end()));
  };
  auto join = [](std::vector<long> b, std::vector<long> a) {
    std::sort(b.begin(), b.end());
    std::sort(a.begin(), a.end());
    std::vector<long> s{static_cast<long>(b.size())};
    s.insert(s.end(), b.begin(), b.end());
    s.insert(s.end(), a.begin(), a.end());
    return s;
  };
  auto step = [pattern, split, join, cutoff](const std::vector<long>& s, const std::string& m) {
    auto [below, above] = split(s);
    if (above.size() >= cutoff) return std::vector<Outcome<std::vector<long>>>{{Rational(1), halt_answer, s}};
    const long a = -std::stol(m);  // margin v = q − Thresh ⇒ A = −v in the convention of B.13
    const Rational now = pattern(below, above);
    auto nb = below;
    nb.push_back(a);
    const Rational pb = pattern(nb, above) / now;
    auto na = above;
    na.push_back(a);
    return std::vector<Outcome<std::vector<long>>>{{pb, "below", join(nb, above)}, {Rational(1 - pb), "above", join(below, na)}};
  };
  auto show = [](const std::vector<long>& s) {
    std::string t;
    for (long x : s) t += (t.empty() ? "" : ",") + std::to_string(x);
    return "[" + t + "]";
  };
  const std::string name = "SVT(τ ~ DLap(" + str(r_threshold) + "), ν ~ DLap(" + str(r_query) + "), c = " + std::to_string(cutoff) + ", no refresh)";
  auto mech = std::make_shared<LambdaMechanism<std::vector<long>, LongVectorHash>>(name, std::vector<std::string>{"-1", "0", "1"}, step, show);
  const StateId start = mech->state_id(std::vector<long>{0});
  std::vector<MessagePair> pairs;
  for (MessageId v0 = 0; v0 < 3; ++v0)
    for (MessageId v1 = 0; v1 < 3; ++v1)
      if (v0 + 1 >= v1 && v1 + 1 >= v0) pairs.push_back({v0, v1});
  Game g{name, mech, std::make_shared<PairsVerifier>(std::move(pairs), std::nullopt), {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}},
         {"x", "x'"}, horizon};
  g.validate();
  return g;
}

/// A₂ of LYU22 Thm 5 (Lemma 7) with discrete Laplace noise: answers each of at most c adaptively
/// chosen sensitivity-1 queries with value v ∈ {0, 1} by clamp(v + Z, −1, 2), Z ~ DLap(r) fresh
/// (clamping the released value is post-processing, B.14, and the window contains both values, so
/// by X-CLAMP-EXACT each answer pair is exactly RR_{ln(1/r)}); then halts. Pairs (v₀, v₁) with
/// |v₀ − v₁| ≤ 1 at every message.
Game dlap_answers(const Rational& r, unsigned c) {
  auto step = [r, c](const long& used, const std::string& m) {
    std::vector<Outcome<long>> out;
    if (used >= static_cast<long>(c)) return std::vector<Outcome<long>>{{Rational(1), halt_answer, used}};
    const Dist<long> d = discrete_laplace(r, std::stol(m), -1, 2);
    for (const long y : d.support()) out.push_back({d.mass(y), std::to_string(y), used + 1});
    return out;
  };
  const std::string name = "DLap(" + str(r) + ") answers to " + std::to_string(c) + " queries";
  auto mech = std::make_shared<LambdaMechanism<long>>(name, std::vector<std::string>{"0", "1"}, step,
                                                      [](const long& u) { return std::to_string(u) + " used"; });
  const StateId start = mech->state_id(0);
  Game g{name, mech, std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, std::nullopt),
         {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}}, {"x", "x'"}, c};
  g.validate();
  return g;
}

void check_t5(CheckContext& ctx) {
  struct Case {
    Game a1, a2;
    Rational lambda;  // e^ε
  };
  // c = 1: the library's AboveThreshold (τ and ν ~ DLap(1/2), i.e. Lap(1/ε) and Lap(c/ε) with e^ε = 2),
  // claim λ³ = 8 (Lemma 6); A₂ with DLap(1/2), claim λ = 2 (Lemma 7); Thm 5: λ⁴ = 16.
  // c = 2: the no-refresh SVT with τ ~ DLap(1/4) (e^ε = 4) and ν ~ DLap(1/2) (Lap(c/ε)), claim 4³ = 64;
  // A₂: two answers with DLap(1/2), claim 4; Thm 5: 4⁴ = 256.
  // The SVT gets 2 queries at the small budget and 3 from the default budget on.
  const unsigned svt_queries = ctx.budget().level == BudgetLevel::small ? 2u : 3u;
  std::vector<Case> cases;
  cases.push_back({library::above_threshold({q(1, 2), q(1, 2), svt_queries, 1}, -1, 1), dlap_answers(q(1, 2), 1), q(2)});
  cases.push_back({lyu_svt(q(1, 4), q(1, 2), 2, svt_queries), dlap_answers(q(1, 2), 2), q(4)});
  for (const auto& c : cases) {
    const auto r1 = worst_case_ratio(c.a1).max(), r2 = worst_case_ratio(c.a2).max();
    const Game comp = concurrent({c.a1, c.a2}, "COMP(A₁, A₂)");
    const auto rc = worst_case_ratio(comp).max();
    const ExtendedRational l3 = pow(c.lambda, 3), l4 = pow(c.lambda, 4);
    const bool ok = r1 <= l3 && r2 <= ExtendedRational(c.lambda) && rc <= l4 && rc == r1 * r2;
    ctx.instance(c.a1.name + " (horizon " + std::to_string(c.a1.horizon) + ") with " + c.a2.name + ": pure levels A₁ ≤ λ³ = " + str(pow(c.lambda, 3)) +
                     ", A₂ ≤ λ = " + str(c.lambda) + ", COMP ≤ λ⁴ = " + str(pow(c.lambda, 4)) + " (and = their product)",
                 to_string(r1) + ", " + to_string(r2) + ", " + to_string(rc), ok, comp.horizon);
  }
}

void check_t3(CheckContext& ctx) {
  auto one = [&](const Game& g, unsigned h, const Rational& gamma, const Rational& delta, bool expect, bool named) {
    const LikelihoodTree tree = likelihood_tree(g, h);
    const LyuBuild b = lyu_decomposition(tree, gamma, delta);
    const LyuDecomposition* d = std::get_if<LyuDecomposition>(&b);
    const auto v = d ? verify_simulator(tree, d->simulator) : SimulatorVerification{};
    const bool ok = expect ? v.verified : !d;
    const std::string what = g.name + " at (γ, δ) = (" + str(gamma) + ", " + str(delta) + ")";
    const std::string out = d ? (v.verified ? "decomposed, " + std::to_string(d->invariants_checked) + " invariant checks, simulator verified"
                                            : "decomposition fails verification: " + v.failure)
                              : "refused: " + std::get<SimulatorRefusal>(b).reason;
    if (named)
      ctx.instance(what, out, ok, h);
    else
      ctx.random_instance(ok, what + ": " + out, h);
  };
  one(ma_game(), 2, q(4), q(1, 15), true, true);   // L1 (E.6)
  one(ma_game(), 2, q(4), q(1, 16), false, true);  // L3: δ below δ(4) = 1/15 must fail at Step A
  one(mp_game(), 2, q(2), q(2, 5), true, true);    // E.5: δ(2) = 2/5
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    const Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    const Rational gamma = lambda_grid()[ctx.rng().range(1, 4)];
    EngineOptions o;
    o.horizon = h;
    const Rational d = worst_case_hockey_stick(g, gamma, o).delta();
    one(g, h, gamma, d, true, false);  // at the exact δ(γ) the decomposition exists
    if (sgn(d) > 0) one(g, h, gamma, d - d / 10, false, false);  // below it, none
  }
}

}  // namespace

void check_lyu_greedy(CheckContext& ctx) { check_greedy(ctx); }

void families::lyu(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/lyu.cpp";
  out.push_back({"LYU22-T1", "optimal concurrent composition for approximate DP", "LYU22 Thm 1 (RR_{ε_i,δ_i} in the proof)",
                 Kind::positive, Status::corrected,
                 "If M_i is (ε_i,δ_i)-DP (interactive, same dataset), COMP(M₁..M_k) is (ln λ′, δ′)-DP for every (λ′, δ′) "
                 "with δ′ ≥ δ_opt(λ′); tight.",
                 "Each component's (λ_i, δ_i) is certified by the engine: δ_i is its exact worst case at λ_i.",
                 "The engine's exact profile of the concurrent composition (compose/'s concurrent(): the adversary interleaves "
                 "freely, each component up to its own horizon) ≤ δ_opt (B.11) at every breakpoint of either (both convex PL, "
                 "so everywhere); equality on H8 at the E.10 values (tight). The composed simulator of B.12 — c_i ← RR_i(b) "
                 "drawn independently, component i answered by T_i^{c_i} — reproduces the composition's likelihood at every "
                 "composed history, summing over all tuples of RR outputs: on C1 with VW-SIM per copy (E.7) and on random pairs "
                 "with LYU-DECOMP per component. Noninteractive products of pairs are kept as a second family.",
                 "C1 = MP ⊗ MP at (8, 0)² and (2, 2/5), (4, 4/15); MP ⊗ R2; H8 = Mir_{1/2} ⊗ M_{1/10} at (2, 1/4), (1, 1/10): "
                 "11/20, 13/40, 13/40 at λ′ = 1, 2, 4 (E.10); RR_{ln 2,1/10} ⊗ RR_{ln 3,1/5} (E.3); random pairs of random "
                 "small systems (E.11).",
                 "",
                 {"exactdp::concurrent()", "exactdp::worst_case_profile()", "exactdp::optimal_composition_profile()", "exactdp::evaluate_profile()",
                  "exactdp::vw_simulator()", "exactdp::lyu_decomposition()", "exactdp::system_likelihoods()"},
                 src, check_t1, ""});
  out.push_back({"LYU22-T3", "decomposition of (ε,δ)-indistinguishable systems", "LYU22 Thm 3 (λ/(1+λ) meant)",
                 Kind::reduction, Status::corrected,
                 "M⁰, M¹ are (ε,δ)-indistinguishable iff there are systems N⁰, N¹, E⁰, E¹ with IT(A:M^b) ≡ δ·IT(A:E^b) + "
                 "(1−δ)(λ/(1+λ)·IT(A:N^b) + 1/(1+λ)·IT(A:N^{1−b})) for every A and b.",
                 "The extraction prints e^ε/(1+ε); λ/(1+λ) is meant.",
                 "LYU-DECOMP (B.9, reduce/) with all its node invariants, then the exact mixture identity on every history "
                 "(verify_simulator); at the exact δ(γ) of the engine it must succeed, below it it must be refused (the "
                 "\"only if\" direction).",
                 "L1 (MA, γ = 4, δ = 1/15), L3 (δ = 1/16, refused), MP at (2, 2/5); random systems (horizon ≤ 3).", "",
                 {"exactdp::lyu_decomposition()", "exactdp::verify_simulator()", "exactdp::worst_case_hockey_stick()"}, src,
                 check_t3, ""});
  const std::string runs = "L1 (MA, γ = 4, δ = 1/15) and L2 (MA at (3, 1/9), (2, 2/9), (4, 1/10)) of B.9; random systems of E.6 "
                           "(2–3 states, horizon ≤ 3, zero entries allowed) at γ ∈ {3/2, 2, 3, 4} and δ = the engine's exact δ(γ) or "
                           "a larger value.";
  out.push_back({"LYU22-L1", "bad-event systems", "LYU22 Lemma 1 (E^o, M^o garbled in the extraction)", Kind::reduction, Status::corrected,
                 "There are systems E^b with M^b(h) ≥ δE^b(h) and M^b(h) − δE^b(h) ≤ λ(M^{1−b}(h) − δE^{1−b}(h)) on every full "
                 "history h (LYU22 (17)–(18)).",
                 "E^b are the leak systems of LYU-DECOMP (B.9): conditionals ∝ D^b = δE^b.",
                 "On every LYU-DECOMP run: E⁰, E¹ are systems (every conditional a probability vector), E^b(h) recomputed as the "
                 "product of its conditionals satisfies δE^b = D^b of the node table and (17)–(18) at every node, not only at "
                 "full histories. The node tables (D⁰, D¹) of L1 and of the three L2 parameter sets are compared with the "
                 "hand-derived tables of B.9, node by node.",
                 runs,
                 "LYU22 builds E^b top-down: the leak budget δ at the root is split among the children so that each child keeps "
                 "at least the worst-case hockey-stick mass λ^b below it (I1) and the residual pair stays γ-close (I2). "
                 "lyu_decomposition returns the node table D^b = δE^b; this check rebuilds E^b from the returned simulator "
                 "systems and verifies (17)–(18) independently of the construction's own assertions.",
                 {"exactdp::lyu_decomposition()", "exactdp::system_likelihoods()", "exactdp::likelihood_tree()"}, src, check_l1, ""});
  out.push_back({"LYU22-L2", "residual system", "LYU22 Lemma 2 ((1−δ)IT(A:N) meant)", Kind::reduction, Status::corrected,
                 "If M ≥ δE as systems, N = (M − δE)/(1−δ) is a system and IT(A:M) ≡ δIT(A:E) + (1−δ)IT(A:N).", "",
                 "N^b = (M^b − δE^b)/(1 − δ) with E^b rebuilt from its conditionals: N^b(∅) = 1, N^b ≥ 0 and Σ_a N^b(h∘(q,a)) = N^b(h) "
                 "for every node and query (so N^b is a system), the product of N^b's conditionals gives N^b back at every node, "
                 "and δE^b + (1 − δ)N^b = M^b; by the transcript factorisation (A.4) this is the identity of views for every "
                 "adversary. B.9's residual values of L1 are compared exactly.",
                 runs + " Named values: R⁰(0) = 3/5, R¹(0) = 4/15, R⁰(0,0,1) = 2/9, R¹(0,0,1) = 31/180, R(0,1,0) = (0, 0).", "",
                 {"exactdp::lyu_decomposition()", "exactdp::system_likelihoods()"}, src, check_l2, ""});
  out.push_back({"LYU22-L3", "pure decomposition", "LYU22 Lemma 3", Kind::reduction, Status::corrected,
                 "VW21-T5.2 at the system level, applied to (N⁰, N¹): N^b = γ/(1+γ)·N′^b + 1/(1+γ)·N′^{1−b} for systems N′⁰, N′¹.",
                 "Reading: the γ bound is the hypothesis on (N⁰, N¹) (N^{1−b} ≤ γN^b); the systems N′^c need not be γ-close to each "
                 "other (the catalogue's \"pure level of (N′⁰, N′¹) ≤ γ\" is not meant literally: on L1 their ratio is ∞, as for "
                 "V1 of B.8).",
                 "On every run: N^{1−b} ≤ γN^b at every node; N′⁰, N′¹ (the no-leak systems of LYU-DECOMP) are systems whose "
                 "likelihoods, rebuilt from their conditionals, mix back to N^b; and VW-SIM run separately on the tree of "
                 "(N⁰, N¹) builds a verified simulator with the same likelihoods (uniqueness, X-VW-UNIQUE). B.9's conditionals "
                 "of N′⁰, N′¹ on L1 and its leaf likelihoods K⁰(0,0,0) = 85/168, K⁰(0,1,1) = 16/21, K¹(1,0,1) = 25/42 are "
                 "compared exactly.",
                 runs, "",
                 {"exactdp::lyu_decomposition()", "exactdp::vw_simulator()", "exactdp::verify_simulator()", "exactdp::system_likelihoods()"}, src,
                 check_l3, ""});
  out.push_back({"LYU22-CL1", "the control function bounds δ", "LYU22 Claim 1", Kind::positive, Status::as_stated,
                 "Lower^b(root) ≤ δ for an (ε,δ)-DP pair, the value being attained by the argmax adversary.", "",
                 "The engine's optimal adversary (a decision tree) is replayed by the independent forward recursion of "
                 "view distributions: its exact H_λ equals the engine's value (and the witness's P_b(S) − λP_{1−b}(S)).",
                 "MP, MA, R2 at λ ∈ {1, 2, 4}, both directions; random games.", "",
                 {"exactdp::worst_case_adversary()", "exactdp::view_distributions()", "exactdp::worst_case_hockey_stick()"}, src,
                 check_cl1, ""});
  out.push_back({"LYU22-CL2", "node inequality", "LYU22 Claim 2", Kind::positive, Status::corrected,
                 "λ^b(h) ≤ U^b(h) + λ^{1−b}(h)/γ at every node, with U^b = M^b − M^{1−b}/γ and λ^b(h) the worst-case "
                 "hockey-stick mass below h (B.2 in tree form).",
                 "Index ranges are inconsistent in print; the node form of B.9 is normative.",
                 "λ^b is recomputed at every node of the likelihood tree by its own backward recursion, its root value compared "
                 "with the game engine's worst_case_hockey_stick (memoised belief pairs, an independent route) and, inside "
                 "decomposition runs, with LYU-DECOMP's table; then the inequality is checked exactly at every node.",
                 runs + " MP and R2 at γ ∈ {1, 2, 8}; random systems at every γ of the grid.", "",
                 {"exactdp::worst_case_hockey_stick()", "exactdp::lyu_decomposition()", "exactdp::likelihood_tree()"}, src, check_cl2, ""});
  out.push_back({"LYU22-CL3", "budget-monitor inequality", "LYU22 Claim 3 (reconstructed)", Kind::positive, Status::corrected,
                 "For every node h and query q, Σ_a m^b(a|h,q)^α m^{1−b}(a|h,q)^{1−α}·V^b(h∘(q,a)) ≤ V^b(h), with V^b the "
                 "worst-case conditional Rényi moment of B.4 (V^{1/(α−1)} is LYU22's remaining budget ℓ_t).",
                 "The printed claim is truncated; the moment form of the catalogue is normative. Integer α ∈ {2, 3}.",
                 "Node values come from the engine's node-level API worst_case_renyi_moment_at (one memo for all nodes) and are "
                 "compared with an independent tree recursion of B.4; then at every node with both likelihoods positive the "
                 "inequality is checked exactly with the conditional answer laws, and equality for the best query (the budget "
                 "is spent exactly by the optimal adversary). On C1 and R1 the composed node value equals the product of the "
                 "components' node values at the sub-histories (the potential Π_i V_i(H|_i) of B.12, X-RENYI-PRODUCT at every "
                 "node).",
                 "MP, MA, R2 (α = 2, 3); C1 and R1 (α = 2, every composed node); random games (horizon ≤ the budget's cap) and "
                 "random composed pairs.",
                 "", {"exactdp::worst_case_renyi_moment_at()", "exactdp::likelihood_tree()", "exactdp::concurrent()"}, src, check_cl3, ""});
  out.push_back({"LYU22-T2", "concurrent composition of Rényi DP", "LYU22 Thm 2 (= HSTVVXZ23 T4.3, T1.9)", Kind::positive,
                 Status::as_stated, "If M_i is (α,ε_i)-RDP then COMP is (α, Σε_i)-RDP.",
                 "Integer α ∈ {2, 3}, moment form (exact); α = 3/2 certified.",
                 "X-RENYI-PRODUCT: the engine's Φ_α of the concurrent composition (compose/'s concurrent() and reduce/'s "
                 "concurrent_product) equals the product of the components' Φ_α, per direction, exactly; at α = 3/2 the "
                 "certified enclosures meet.",
                 "R1 = MP ⊗ R2 (E.8: Φ₂ = (183/32, 165/16), Φ₃ = (195173/3072, 199771/768)), C1 (E.7: Φ₂ = (3721/576, 3025/144)), "
                 "MA ⊗ R2 (∞), RR₂ ⊗ RR₃ (F1: 7/2); random pairs of random small systems; random noninteractive pairs.", "", {"exactdp::worst_case_renyi_moment()", "exactdp::renyi_moment()"}, src,
                 check_t2, ""});
  out.push_back({"LYU22-C1", "zCDP and tCDP", "LYU22 Cor 1", Kind::positive, Status::as_stated,
                 "η_i-zCDP components give Ση_i-zCDP; (ρ_i,ω)-tCDP give (Σρ_i, ω)-tCDP.",
                 "Certified, on the α grid {3/2, 2, 3, 4, 6} (α = 3/2 by the certified engine, integers exact) with ω = 6 for "
                 "tCDP; components with finite moments (pure, for zCDP).",
                 "B.11 grid bounds, computed for the composition and for each component from the engine's worst-case moments: "
                 "ρ* = sup_{α>1} D_α/α ≤ max(D_{α₁}, max_j D_{α_{j+1}}/α_j, D_∞/α_n) (D_α is non-decreasing; the D_∞ term only for "
                 "zCDP) and ρ* ≥ max_j D_{α_j}/α_j. Checked: the composition's moments are the products of the components' at every "
                 "grid α (exact at integers, overlapping enclosures at 3/2), and the composition's certified lower bound is "
                 "certainly ≤ the sum of the components' certified upper bounds (MPFI, 128 then 512 bits; a composition of exact pure "
                 "level 1 has ρ* = 0 and is decided symbolically, since a true equality never separates, B.15). Also MP's lower bound "
                 "≤ (ln 8)²/2 (pure ⇒ zCDP, BS16).",
                 "C1 = MP ⊗ MP and R1 = MP ⊗ R2 (zCDP and tCDP); random pairs of random pure small systems.", "",
                 {"exactdp::worst_case_renyi_moment()", "exactdp::worst_case_renyi_moment_certified()", "exactdp::worst_case_ratio()",
                  "exactdp::pure_dp_to_zcdp()", "exactdp::concurrent()"},
                 src, check_c1, ""});
  out.push_back({"LYU22-L4", "Hölder dual of the Rényi divergence", "LYU22 Lemma 4", Kind::positive, Status::as_stated,
                 "D_α(P‖Q) ≤ B iff E_P[h] ≤ e^{B(α−1)/α}(E_Q[h^β])^{1/β} for every h ≥ 0, β = α/(α−1); the maximiser "
                 "is h = (P/Q)^{α−1}.",
                 "Integer α ∈ {2, 3}; h = g^{α−1} with rational g so that everything is rational after raising to the "
                 "power α.",
                 "Exact: (E_P[g^{α−1}])^α ≤ Φ_α·(E_Q[g^α])^{α−1} for random g, with equality at g = P/Q.",
                 "Random pairs.", "", {"exactdp::renyi_moment()"}, src, check_l4, ""});
  out.push_back({"LYU22-L5", "privacy-budget monitor (chain identity)", "LYU22 Lemma 5 (ℓ₁(y₁), (𝒴₁, Q₁) meant)",
                 Kind::positive, Status::corrected,
                 "In moment form: Φ_α(P‖Q) = Σ_{y₁} P₁^α Q₁^{1−α} Φ_α(P_{2|y₁}‖Q_{2|y₁}).", "",
                 "The exact chain identity on random pairs on 𝒴₁ × 𝒴₂ for α ∈ {2, 3}.", "Random pairs (E.8).", "",
                 {"exactdp::renyi_moment()"}, src, check_l5, ""});
  out.push_back({"LYU22-T5", "private guess-and-check", "LYU22 App. B, Alg 1; Lemmas 6, 7", Kind::positive,
                 Status::as_stated, "Algorithm 1 is (4ε,0)-DP.",
                 "Continuous Laplace noise is outside exact checking; the finite analogue replaces Lap(b) by DLap(e^{−1/b}) "
                 "(the same privacy loss per unit of sensitivity, X-DLAP-RR), margins and values on a tiny integer domain, and "
                 "\"≥\" by \">\" (a shift of the integer margin). Neighbours: every message a pair of sensitivity-1 values (the "
                 "free-sensitivity relaxation f_{L,1}, which contains every concrete family of 1-Lipschitz queries on x ∼ x′), "
                 "so the checked level bounds the algorithm's.",
                 "Following the proof, Algorithm 1 is the concurrent composition COMP(A₁, A₂) of the SVT with the released "
                 "values zeroed (A₁, Lemma 6: λ³) and the Laplace answers to at most c queries (A₂, Lemma 7: λ), λ = e^ε; the "
                 "engine's exact pure level of each and of COMP (every interleaving, compose/'s concurrent()) is compared with "
                 "λ³, λ and λ⁴, and COMP's level with the product of the components' (X-PURE-PRODUCT). c = 1 uses the library's "
                 "AboveThreshold; c = 2 a no-refresh SVT (LYU et al. 2017: one threshold noise for the whole run) built here from "
                 "the exact geometric sums of B.13 by inclusion–exclusion.",
                 "c = 1, e^ε = 2: AboveThreshold(τ, ν ~ DLap(1/2)) with DLap(1/2) answers; c = 2, e^ε = 4: no-refresh SVT "
                 "(τ ~ DLap(1/4), ν ~ DLap(1/2)) with two DLap(1/2) answers; margins in {−1, 0, 1}, values in {0, 1}; the SVT "
                 "answers 2 queries at the small budget, 3 from the default budget on.",
                 "", {"exactdp::library::above_threshold()", "exactdp::library::svt_no_stop_probability()", "exactdp::concurrent()",
                      "exactdp::worst_case_ratio()"},
                 src, check_t5, ""});
}

}  // namespace exactdp::proofs
