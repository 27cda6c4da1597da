// THEOREMS.md C.7 — facts the project relies on (X-): backward induction is exact, profiles are
// convex PL, the Newton route for PrivLoss, the duality check, the factorisation and the product
// identities of concurrent compositions, uniqueness of the pure RR decomposition, hockey-stick
// reflection and tensor identities, DLap ↔ RR, clamping, the tree counter and the Rényi chain-rule
// counterexample. X-LYU-GREEDY is registered here and written in lyu.cpp beside the other
// LYU-DECOMP node checks.
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "exactdp/reduce/simulator_lp.hpp"
#include "exactdp/reduce/vw_sim.hpp"
#include "proofs_checks/interactive_support.hpp"
#include "proofs_checks/support.hpp"

#include <array>
#include <variant>

namespace exactdp::proofs {
namespace {

// Brute force: the maximum over every full-depth deterministic adversary of H_λ, Φ₂, Φ₃ and the
// max ratio, per direction, against the engine. Returns "" when everything agrees.
std::string brute_force_agrees(const Game& g, unsigned horizon) {
  EngineOptions o;
  o.horizon = horizon;
  std::string bad;
  const auto advs = all_adversaries(g, horizon);
  std::vector<PrivacyLoss> losses;
  for (const auto& a : advs) losses.push_back(privacy_loss(view_distributions(g, a, horizon)));
  for (const auto& lambda : lambda_grid()) {
    Rational f = 0, b = 0;
    for (const auto& l : losses) f = std::max(f, hockey_stick(l, lambda)), b = std::max(b, hockey_stick(l.swapped(), lambda));
    const auto e = worst_case_hockey_stick(g, lambda, o);
    if (e.forward != f || e.backward != b)
      bad += " H_" + str(lambda) + ": engine (" + str(e.forward) + ", " + str(e.backward) + "), enumeration (" + str(f) + ", " +
             str(b) + ");";
  }
  for (unsigned long alpha : {2ul, 3ul}) {
    ExtendedRational f = 0, b = 0;
    for (const auto& l : losses) f = std::max(f, renyi_moment(l, alpha)), b = std::max(b, renyi_moment(l.swapped(), alpha));
    const auto e = worst_case_renyi_moment(g, alpha, o);
    if (!(e.forward == f) || !(e.backward == b)) bad += " Φ_" + std::to_string(alpha) + " differs;";
  }
  ExtendedRational f = 0, b = 0;
  for (const auto& l : losses) f = std::max(f, max_ratio(l)), b = std::max(b, max_ratio(l.swapped()));
  const auto e = worst_case_ratio(g, o);
  if (!(e.forward == f) || !(e.backward == b)) bad += " pure ratio differs;";
  return bad;
}

void e5_values(CheckContext& ctx, const Game& g, const std::vector<std::pair<Rational, std::pair<Rational, Rational>>>& profile,
               const std::pair<ExtendedRational, ExtendedRational>& phi2, const ExtendedRational& pure) {
  for (const auto& [lambda, fb] : profile) {
    const auto e = worst_case_hockey_stick(g, lambda);
    const bool ok = e.forward == fb.first && e.backward == fb.second;
    ctx.instance(g.name + ": sup H_" + str(lambda) + " (E.5)", "(" + str(e.forward) + ", " + str(e.backward) + ")", ok, g.horizon);
  }
  const auto r2 = worst_case_renyi_moment(g, 2);
  ctx.instance(g.name + ": sup Φ₂ (E.5)", "(" + to_string(r2.forward) + ", " + to_string(r2.backward) + ")",
               r2.forward == phi2.first && r2.backward == phi2.second, g.horizon);
  const auto pr = worst_case_ratio(g);
  ctx.instance(g.name + ": pure level (E.5)", to_string(pr.max()), pr.max() == pure, g.horizon);
  const std::string bad = brute_force_agrees(g, g.horizon);
  ctx.instance(g.name + ": engine = max over all " + std::to_string(all_adversaries(g, g.horizon).size()) +
                   " deterministic adversaries (H on the λ grid, Φ₂, Φ₃, ratio)",
               bad.empty() ? "equal" : bad, bad.empty(), g.horizon);
}

void check_bi_exact(CheckContext& ctx) {
  const auto inf = ExtendedRational::infinity();
  e5_values(ctx, mp_game(),
            {{q(1), {q(7, 15), q(7, 15)}}, {q(2), {q(2, 9), q(2, 5)}}, {q(3), {q(1, 9), q(1, 3)}}, {q(4), {q(0), q(4, 15)}}, {q(8), {q(0), q(0)}}},
            {q(61, 24), q(55, 12)}, q(8));
  e5_values(ctx, ma_game(),
            {{q(1), {q(1, 3), q(1, 3)}}, {q(2), {q(2, 9), q(2, 9)}}, {q(3), {q(1, 9), q(1, 9)}}, {q(4), {q(1, 15), q(0)}}, {q(8), {q(1, 15), q(0)}}},
            {inf, q(9, 4)}, inf);
  e5_values(ctx, r2_game(), {{q(1), {q(1, 3), q(1, 3)}}, {q(2), {q(2, 9), q(2, 9)}}, {q(3), {q(1, 9), q(1, 9)}}, {q(4), {q(0), q(0)}}},
            {q(9, 4), q(9, 4)}, q(4));
  const unsigned cap = std::min(3u, ctx.budget().horizon_cap());
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, cap));
    const int states = static_cast<int>(ctx.rng().range(2, 3));
    const Game g = random_table_game(ctx.rng(), states, h);
    const std::string bad = brute_force_agrees(g, h);
    ctx.random_instance(bad.empty(), "random game with " + std::to_string(states) + " states, horizon " + std::to_string(h) + ":" + bad, h);
  }
}

void check_pl_profile(CheckContext& ctx) {
  const unsigned cap = ctx.budget().horizon_cap();
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, cap));
    const Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    EngineOptions o;
    o.horizon = h;
    const auto p = worst_case_profile(g, o).profile;
    std::string bad;
    for (const auto* f : {&p.forward(), &p.backward()}) {
      if ((*f)(q(0)) != 1) bad += " value at 0 is " + str((*f)(q(0))) + ";";
      Rational last_slope = -1000000;
      for (const auto& piece : f->pieces()) {
        if (piece.slope > 0) bad += " increasing piece;";
        if (piece.slope < last_slope) bad += " not convex;";
        last_slope = piece.slope;
      }
    }
    for (const auto& lambda : lambda_grid()) {
      const auto e = worst_case_hockey_stick(g, lambda, o);
      if (p.forward()(lambda) != e.forward || p.backward()(lambda) != e.backward) bad += " PL profile ≠ BI-δ at λ = " + str(lambda) + ";";
    }
    ctx.random_instance(bad.empty(), "random game, horizon " + std::to_string(h) + ":" + bad, h);
  }
}

void check_newton(CheckContext& ctx) {
  auto both = [&](const Game& g, const Rational& d, const ExtendedRational& expected) {
    const auto a = worst_case_least_lambda(g, d), b = least_lambda_by_iteration(g, d);
    ctx.instance(g.name + ": e^{PrivLoss(" + str(d) + ")} by the PL profile and by Newton (E.5)", to_string(a) + ", " + to_string(b),
                 a == expected && b == expected, g.horizon);
  };
  const auto inf = ExtendedRational::infinity();
  const Game mp = mp_game(), ma = ma_game(), r2 = r2_game();
  both(mp, q(0), q(8));
  both(mp, q(1, 100), q(157, 20));
  both(mp, q(1, 10), q(13, 2));
  both(mp, q(1, 5), q(5));
  both(mp, q(1, 3), q(3));
  both(ma, q(1, 100), inf);
  both(ma, q(1, 10), q(31, 10));
  both(ma, q(1, 5), q(11, 5));
  both(r2, q(1, 100), q(391, 100));
  both(r2, q(1, 5), q(11, 5));
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, ctx.budget().horizon_cap()));
    Game g = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    const Rational d = q(ctx.rng().range(0, 10), 20);
    const auto a = worst_case_least_lambda(g, d), b = least_lambda_by_iteration(g, d);
    ctx.random_instance(a == b, "random game, horizon " + std::to_string(h) + ", δ = " + str(d) + ": profile " + to_string(a) +
                                    ", Newton " + to_string(b), h);
  }
}

void check_duality(CheckContext& ctx) {
  // For a pair (P, Q) and a PL trade-off f: T(P,Q) ≥ f everywhere ⟺ H_λ(Q‖P) ≤ δ_f(λ) at every
  // breakpoint of δ_f (and in the limit λ → ∞). The left side is decided by vertex comparison.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto m = random_masses(ctx.rng()), mf = random_masses(ctx.rng(), 3, 4);
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    const TradeOff f = TradeOff::of(PrivacyLoss::from_masses(mf));
    const PiecewiseLinear df = f.to_profile();
    const PiecewiseLinear d1 = directional_profile(l.swapped());
    bool at_breakpoints = d1.final_value() <= df.final_value();
    for (const auto& x : df.breakpoints()) at_breakpoints = at_breakpoints && d1(x) <= df(x);
    at_breakpoints = at_breakpoints && d1(q(0)) <= df(q(0));
    const bool dominated = TradeOff::of(l).dominates(f);
    ctx.random_instance(at_breakpoints == dominated, "pair " + describe_masses(m) + ", f = T of " + describe_masses(mf) +
                                                         ": breakpoint test " + (at_breakpoints ? "yes" : "no") +
                                                         ", trade-off dominance " + (dominated ? "yes" : "no"));
  }
}

void check_reflect(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto m = random_masses(ctx.rng());
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    std::string bad;
    for (long k = 1; k < 12; k += 2) {
      const Rational lambda = q(k, 12);
      const Rational lhs = hockey_stick(l, lambda), rhs = 1 - lambda + lambda * hockey_stick(l.swapped(), 1 / lambda);
      if (lhs != rhs) bad += " λ = " + str(lambda) + ": " + str(lhs) + " ≠ " + str(rhs) + ";";
    }
    ctx.random_instance(bad.empty(), "pair " + describe_masses(m) + ":" + bad);
  }
}

void check_tensor(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto m1 = random_masses(ctx.rng(), 3, 4), m2 = random_masses(ctx.rng(), 3, 4);
    const PrivacyLoss l2 = PrivacyLoss::from_masses(m2);
    const PrivacyLoss prod = PrivacyLoss::from_masses(product_masses({m1, m2}));
    std::string bad;
    for (const auto& lambda : lambda_grid()) {
      Rational rhs = 0;
      for (const auto& [p, qq] : m1)
        if (sgn(p) > 0) rhs += p * hockey_stick(l2, lambda * qq / p);
      if (hockey_stick(prod, lambda) != rhs) bad += " λ = " + str(lambda) + ";";
    }
    ctx.random_instance(bad.empty(), "pairs " + describe_masses(m1) + " ⊗ " + describe_masses(m2) + ":" + bad);
  }
}

void check_dlap(CheckContext& ctx) {
  // A unit shift of DLap(r) has the loss distribution of RR_{ln(1/r)}; clamping to any window
  // containing both values changes nothing (X-CLAMP-EXACT).
  auto one = [&](const Rational& r, long lo, long hi, bool named) {
    const PrivacyLoss d = privacy_loss(discrete_laplace_pair(r, 1, lo, hi)), rr = rr_loss(1 / r, q(0));
    const bool ok = d == rr;
    const std::string name = "DLap(" + str(r) + ") unit shift on [" + std::to_string(lo) + ", " + std::to_string(hi) +
                             "] vs RR_{ln " + str(1 / r) + "}";
    if (named)
      ctx.instance(name, ok ? "identical privacy-loss distributions" : "different", ok);
    else
      ctx.random_instance(ok, name + ": privacy-loss distributions differ");
  };
  one(q(1, 2), 0, 1, true);
  one(q(1, 2), -5, 6, true);
  one(q(1, 3), -2, 3, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long den = ctx.rng().range(2, 9);
    one(q(ctx.rng().range(1, den - 1), den), -ctx.rng().range(0, 6), 1 + ctx.rng().range(0, 6), false);
  }
}

void check_clamp(CheckContext& ctx) {
  // Clamping leaves the profile unchanged; truncating to the window and renormalising does not.
  // Hand computation for DLap(1/2) at 0 and 1 on the window {−1, 0, 1}: truncated masses ∝ r^|k−v|
  // give P = (1/4, 1/2, 1/4), Q = (1/7, 2/7, 4/7), so H₁ = 3/28 + 6/28 = 9/28, whereas the clamped
  // pair is RR_{ln 2} (X-DLAP-RR) with H₁ = (2 − 1)/(2 + 1) = 1/3.
  const auto clamped = privacy_loss(discrete_laplace_pair(q(1, 2), 1, -1, 1));
  const PrivacyLoss truncated = PrivacyLoss::from_masses({{q(1, 4), q(1, 7)}, {q(1, 2), q(2, 7)}, {q(1, 4), q(4, 7)}});
  expect_equal(ctx, "DLap(1/2) unit shift clamped to [−1, 1]: H₁", hockey_stick(clamped, q(1)), q(1, 3));
  expect_equal(ctx, "… truncated to {−1, 0, 1} and renormalised: H₁", hockey_stick(truncated, q(1)), q(9, 28));
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long den = ctx.rng().range(2, 9);
    const Rational r = q(ctx.rng().range(1, den - 1), den);
    const unsigned long s = static_cast<unsigned long>(ctx.rng().range(1, 3));
    const long lo = -ctx.rng().range(0, 5), hi = static_cast<long>(s) + ctx.rng().range(0, 5);
    const bool ok = privacy_loss(discrete_laplace_pair(r, s, lo, hi)) == privacy_loss(discrete_laplace_pair(r, s));
    ctx.random_instance(ok, "DLap(" + str(r) + "), Δ = " + std::to_string(s) + ", window [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]: clamped loss differs from the minimal window's");
  }
}

void check_chain_exp(CheckContext& ctx) {
  // RC (E.8): Y = Y′ uniform on {0,1}; given y = 0, (Z, Z′) = (RR₃(0), RR₃(1)); given y = 1, Z = Z′.
  const PrivacyLoss joint = PrivacyLoss::from_masses({{q(3, 8), q(1, 8)}, {q(1, 8), q(3, 8)}, {q(1, 2), q(1, 2)}});
  const ExtendedRational phi = renyi_moment(joint, 2);
  expect_equal(ctx, "RC: Φ₂ of the joint pair", phi.value(), q(5, 3));
  // The chain rule with an expectation would give Φ₂ ≤ exp(½·ln Φ₂(RR₃)) = √(7/3); squared: 7/3.
  const Rational rr3 = renyi_moment(rr_loss(q(3), q(0)), 2).value();
  const bool violated = phi.value() * phi.value() > rr3;
  ctx.instance("RC: Φ₂² = " + str(phi.value() * phi.value()) + " against the bound's square Φ₂(RR₃) = " + str(rr3),
               violated ? "violated (25/9 > 7/3)" : "not violated", violated);
}

void check_tree(CheckContext& ctx) {
  // H13: binary-tree counter, T = 4, node noise DLap(1/2): exact adaptive δ(λ) = Comp(RR₂ × 3).
  const Game g = library::binary_tree_counter(2, q(1, 2));
  const PrivacyLoss rr3 = rr_product_loss({{q(2), q(0)}, {q(2), q(0)}, {q(2), q(0)}});
  for (const auto& [lambda, expected] : std::vector<std::pair<Rational, Rational>>{
           {q(1), q(13, 27)}, {q(3, 2), q(19, 54)}, {q(2), q(2, 9)}, {q(4), q(4, 27)}, {q(8), q(0)}}) {
    const Rational got = worst_case_hockey_stick(g, lambda).delta();
    const Rational rr = std::max(hockey_stick(rr3, lambda), hockey_stick(rr3.swapped(), lambda));
    ctx.instance("H13: tree counter δ(" + str(lambda) + ") = Comp(RR₂ × 3)", str(got), got == expected && rr == expected, g.horizon);
  }
}

void check_products(CheckContext& ctx, bool renyi) {
  // Concurrent products built by reduce/'s concurrent_product, against the product of the
  // components' engine values, per direction.
  auto one = [&](const Game& a, const Game& b, bool named) {
    const Game c = concurrent_product(a, b);
    bool ok;
    std::string out;
    if (renyi) {
      const auto x = worst_case_renyi_moment(a, 2), y = worst_case_renyi_moment(b, 2), z = worst_case_renyi_moment(c, 2);
      ok = z.forward == x.forward * y.forward && z.backward == x.backward * y.backward;
      out = "Φ₂ (" + to_string(z.forward) + ", " + to_string(z.backward) + "), products (" + to_string(x.forward * y.forward) + ", " +
            to_string(x.backward * y.backward) + ")";
    } else {
      const auto x = worst_case_ratio(a), y = worst_case_ratio(b), z = worst_case_ratio(c);
      ok = z.forward == x.forward * y.forward && z.backward == x.backward * y.backward;
      out = "ratio (" + to_string(z.forward) + ", " + to_string(z.backward) + "), products (" + to_string(x.forward * y.forward) + ", " +
            to_string(x.backward * y.backward) + ")";
    }
    if (named)
      ctx.instance(a.name + " ⊗ " + b.name, out, ok, c.horizon);
    else
      ctx.random_instance(ok, a.name + " ⊗ " + b.name + ": " + out, c.horizon);
  };
  one(mp_game(), mp_game(), true);
  one(mp_game(), r2_game(), true);
  one(ma_game(), r2_game(), true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) one(random_vw2_game(ctx.rng()), ctx.rng().coin() ? r2_game() : random_vw2_game(ctx.rng()), false);
  // The same identity through compose/'s concurrent() (ConcurrentMechanism, ProductVerifier with each
  // component limited to its own horizon), on C1, R1, H8 (a continual component under its own relation
  // g) and random pairs of random small interactive systems (E.11).
  auto composed = [&](const std::vector<Game>& parts, const std::string& name, bool named) {
    const Game c = concurrent(parts, name);
    std::array<ExtendedRational, 2> prod{ExtendedRational(1), ExtendedRational(1)};
    DirectionalResult z;
    for (const auto& p : parts) {
      const auto x = renyi ? worst_case_renyi_moment(p, 2) : worst_case_ratio(p);
      prod[0] = prod[0] * x.forward;
      prod[1] = prod[1] * x.backward;
    }
    z = renyi ? worst_case_renyi_moment(c, 2) : worst_case_ratio(c);
    const bool ok = z.forward == prod[0] && z.backward == prod[1];
    const std::string out = std::string(renyi ? "Φ₂" : "ratio") + " (" + to_string(z.forward) + ", " + to_string(z.backward) + "), products (" +
                            to_string(prod[0]) + ", " + to_string(prod[1]) + ")";
    if (named)
      ctx.instance(name + " (compose/ concurrent)", out, ok, c.horizon);
    else
      ctx.random_instance(ok, name + ": " + out, c.horizon);
  };
  composed({mp_game(), mp_game()}, "C1 = MP ⊗ MP", true);
  composed({mp_game(), r2_game()}, "R1 = MP ⊗ R2", true);
  composed({library::mirror(q(1, 2)), library::m_delta(q(1, 10))}, "H8 = Mir_{1/2} ⊗ M_{1/10}", true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const std::vector<Game> parts{random_small_system(ctx.rng()), random_small_system(ctx.rng())};
    composed(parts, joined_names(parts), false);
  }
}

void check_factor(CheckContext& ctx) {
  // Composed likelihoods come from the likelihood tree of compose/'s ConcurrentMechanism, component
  // likelihoods from each component's own tree; the map H ↦ (H|_1, …, H|_k) routes messages and answers.
  auto one = [&](const std::vector<Game>& parts, bool named) {
    const ComposedTree t = composed_tree(parts);
    const std::string f = factorisation_failure(t);
    const bool interleaved = t.distinct_tuples() < t.composed.nodes.size();
    const bool ok = f.empty() && (interleaved || !named);
    const std::string out = f.empty() ? "holds at all " + std::to_string(t.composed.nodes.size()) + " composed histories (" +
                                            std::to_string(t.distinct_tuples()) + " distinct tuples of sub-histories)"
                                      : f;
    if (named)
      ctx.instance(t.game.name + ": ConComp^b(H) = Π_i M_i^b(H|_i), different interleavings of the same sub-histories included", out, ok,
                   t.game.horizon);
    else
      ctx.random_instance(ok, t.game.name + ": " + out, t.game.horizon);
  };
  one({mp_game(), mp_game()}, true);
  one({mp_game(), r2_game()}, true);
  one({library::mirror(q(1, 2)), library::m_delta(q(1, 10))}, true);
  one({r2_game(), library::mirror(q(1, 2)), library::randomized_response(q(3), q(1, 10))}, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<Game> parts{random_small_system(ctx.rng()), random_small_system(ctx.rng())};
    if (n % 4 == 3) parts.push_back(random_table_game(ctx.rng(), 2, 1));
    one(parts, false);
  }
}

void check_vw_unique(CheckContext& ctx) {
  // V1 and V2 (B.8): the hand-derived VW-SIM conditionals (Pr[answer 0]) of T⁰ and T¹, per node
  // (answer key) and query; the first round's message does not matter.
  struct Cell {
    std::string node, query;
    Rational t0, t1;
  };
  auto tables = [&](const Game& g, const Rational& gamma, const std::vector<Cell>& cells, const std::string& label) {
    const LikelihoodTree t = likelihood_tree(g);
    const SimulatorBuild b = vw_simulator(t, gamma);
    const Simulator* sim = std::get_if<Simulator>(&b);
    std::string bad;
    std::size_t compared = 0;
    if (!sim) bad = " refused: " + std::get<SimulatorRefusal>(b).reason;
    for (const auto& c : cells)
      for (std::size_t n = 0; sim && n < t.nodes.size(); ++n) {
        if (answer_key(t, n) != c.node) continue;
        for (std::size_t br = 0; br < t.nodes[n].branches.size(); ++br) {
          if (!c.query.empty() && t.mechanism->messages().at(t.nodes[n].branches[br].pair.world0) != c.query) continue;
          const auto& ch = t.nodes[n].branches[br].children;
          for (std::size_t k = 0; k < ch.size(); ++k) {
            if (t.mechanism->answer_name(ch[k].answer) != "0") continue;
            ++compared;
            const Rational& a = sim->systems[0].conditional[n][br][k];
            const Rational& z = sim->systems[1].conditional[n][br][k];
            if (a != c.t0 || z != c.t1) bad += " (" + c.node + ", q = " + c.query + "): (" + str(a) + ", " + str(z) + ");";
          }
        }
      }
    const bool ok = bad.empty() && compared >= cells.size();
    ctx.instance(label + ": VW-SIM conditionals Pr[T^c answers 0] at every node of B.8's table", ok ? "equal (" + std::to_string(compared) + " cells)" : "differs:" + bad,
                 ok, g.horizon);
  };
  tables(r2_game(), q(4), {{"", "", q(7, 9), q(2, 9)}, {"0", "*", q(5, 7), q(0)}, {"1", "*", q(1), q(2, 7)}}, "V1 (R2, γ = 4)");
  tables(mp_game(), q(8),
         {{"", "", q(5, 7), q(2, 7)}, {"0", "0", q(31, 45), q(2, 9)}, {"0", "1", q(1, 2), q(1, 2)}, {"1", "0", q(7, 9), q(14, 45)}, {"1", "1", q(1), q(4, 25)}},
         "V2 (MP, γ = 8)");
  // Uniqueness: every RR_ε simulator has the same system likelihoods. The exact LP of B.10 at δ = 0
  // (cddlib, a different construction) and the closed form K^c = (γM^c − M^{1−c})/(γ − 1) must agree
  // with VW-SIM's likelihoods at every node.
  auto unique = [&](const Game& g, const Rational& gamma, bool named) {
    const LikelihoodTree t = likelihood_tree(g);
    const SimulatorBuild vb = vw_simulator(t, gamma), lb = lp_simulator(t, gamma, q(0));
    const Simulator* vs = std::get_if<Simulator>(&vb);
    const Simulator* ls = std::get_if<Simulator>(&lb);
    std::string bad;
    if (!vs || !ls) bad = vs ? " the LP is infeasible: " + std::get<SimulatorRefusal>(lb).reason : " VW-SIM refused: " + std::get<SimulatorRefusal>(vb).reason;
    for (int c = 0; bad.empty() && c < 2; ++c) {
      // the LP's systems are (NoLeak, c) at δ = 0: find them by their RR output
      const SimulatorSystem* lsys = nullptr;
      for (const auto& s : ls->systems)
        if (s.input.bit == c && (!s.input.flag || *s.input.flag == RRFlag::NoLeak)) lsys = &s;
      if (!lsys) {
        bad = " the LP simulator has no system for c = " + std::to_string(c);
        break;
      }
      const auto kv = system_likelihoods(t, vs->systems[c]), kl = system_likelihoods(t, *lsys);
      for (std::size_t n = 0; n < t.nodes.size(); ++n) {
        const auto& m = t.nodes[n].likelihood;
        const Rational closed = (gamma * m[c] - m[1 - c]) / (gamma - 1);
        if (kv[n] != closed || kl[n] != closed) {
          bad = " at " + t.describe(n) + " for c = " + std::to_string(c) + ": VW-SIM " + str(kv[n]) + ", LP " + str(kl[n]) + ", closed form " + str(closed);
          break;
        }
      }
    }
    if (named)
      ctx.instance(g.name + " at γ = " + str(gamma) + ": VW-SIM, the exact LP and the closed form give the same K⁰, K¹ at every node",
                   bad.empty() ? "equal" : "differs:" + bad, bad.empty(), g.horizon);
    else
      ctx.random_instance(bad.empty(), g.name + " at γ = " + str(gamma) + ":" + bad, g.horizon);
  };
  unique(r2_game(), q(4), true);
  unique(mp_game(), q(8), true);
  unique(mp_game(), q(12), true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Game g = random_pure_system(ctx.rng());
    const Rational level = std::max(worst_case_ratio(g).max().value(), Rational(1));
    if (level == 1) continue;  // γ = 1: nothing to decompose
    unique(g, ctx.rng().coin() ? level : Rational(level + 1), false);
  }
}

}  // namespace

void families::facts(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/facts.cpp";
  out.push_back({"X-BI-EXACT", "backward induction is exact", "THEOREMS.md B.2, A.4; LYU22 Claim 1", Kind::positive,
                 Status::as_stated,
                 "Backward induction over belief pairs (B.2, B.4, B.5) equals the supremum over all adaptive "
                 "(randomised) adversaries; the argmax policy is optimal.",
                 "Full-depth deterministic decision trees suffice (an earlier stop is a post-processing of the full view).",
                 "Brute force: every deterministic adversary of the game is enumerated, its exact view distributions "
                 "computed by the forward recursion (view_distributions), and the maxima of H_λ on the λ grid, Φ₂, Φ₃ "
                 "and the max ratio, per direction, compared with the engine; E.5 values of MP, MA, R2 exactly.",
                 "P1 (MP), A1 (MA), R2 (E.5); random games (E.11: 2–3 states, binary alphabets, horizon ≤ 3).", "",
                 {"exactdp::worst_case_hockey_stick()", "exactdp::worst_case_renyi_moment()", "exactdp::worst_case_ratio()",
                  "exactdp::view_distributions()"},
                 src, check_bi_exact, ""});
  out.push_back({"X-PL-PROFILE", "profiles are convex piecewise-linear", "THEOREMS.md B.3", Kind::positive, Status::as_stated,
                 "δ^b(λ) is convex, non-increasing, piecewise linear with rational breakpoints and value 1 at λ = 0; "
                 "backward induction over PL values is exact.",
                 "", "On random games: the PL profile (B.3) has value 1 at 0, non-positive non-decreasing slopes, and "
                 "equals BI-δ (B.2) at every λ of the grid, per direction.",
                 "Random games (E.11).", "", {"exactdp::worst_case_profile()", "exactdp::worst_case_hockey_stick()"}, src,
                 check_pl_profile, ""});
  out.push_back({"X-NEWTON", "PrivLoss by Newton iteration", "THEOREMS.md B.6", Kind::positive, Status::as_stated,
                 "e^{PrivLoss(δ)} is an exact rational (or +∞); the Newton iteration of B.6 terminates with it.", "",
                 "The least λ from the PL profile equals the Newton iteration over BI-δ runs; E.5 values exactly.",
                 "P1, A1, R2 (E.5); random games.", "",
                 {"exactdp::worst_case_least_lambda()", "exactdp::least_lambda_by_iteration()"}, src, check_newton, ""});
  out.push_back({"X-DUALITY-CHECK", "checking at the breakpoints of δ_f suffices", "THEOREMS.md B.7", Kind::positive,
                 Status::as_stated,
                 "For convex δ¹ and piecewise-linear δ_f, δ¹ ≤ δ_f everywhere iff it holds at the breakpoints of δ_f "
                 "(and in the limit).",
                 "", "On random pairs and random PL trade-off functions f: the breakpoint test agrees with the exact "
                 "vertex-wise dominance T(P,Q) ≥ f.",
                 "Random pairs.", "", {"exactdp::TradeOff::to_profile()", "exactdp::TradeOff::dominates()", "exactdp::directional_profile()"},
                 src, check_duality, ""});
  out.push_back({"X-FACTOR", "factorisation of concurrent compositions", "THEOREMS.md A.8, B.12", Kind::positive,
                 Status::as_stated, "ConComp^b(H) = Π_i M_i^b(H|_i) for every interleaving.", "",
                 "The likelihood tree of compose/'s ConcurrentMechanism (forward recursion over the joint belief) is mapped node "
                 "by node to the components' own likelihood trees (messages routed by ConcurrentMechanism::route, answers \"i:a\" "
                 "matched by name); at every composed history and in both worlds the composed likelihood must equal the product "
                 "of the components' likelihoods at the sub-histories. The named instances must contain different interleavings "
                 "of the same sub-histories (fewer distinct tuples than composed nodes).",
                 "C1 = MP ⊗ MP, R1 = MP ⊗ R2, H8 = Mir_{1/2} ⊗ M_{1/10} (non-identical pairs under g), R2 ⊗ Mir_{1/2} ⊗ RR_{ln 3,1/10}; random "
                 "pairs (and triples) of random small systems.",
                 "", {"exactdp::concurrent()", "exactdp::ConcurrentMechanism", "exactdp::likelihood_tree()"}, src, check_factor, ""});
  out.push_back({"X-RENYI-PRODUCT", "Rényi moments of a concurrent composition multiply", "THEOREMS.md B.12", Kind::positive,
                 Status::as_stated, "Worst-case Rényi moments of a concurrent composition multiply exactly, per direction.", "",
                 "The engine's sup Φ₂ of the concurrent composition — reduce/'s concurrent_product and compose/'s concurrent() "
                 "(free interleaving, each component up to its own horizon) — equals the product of the components' sup Φ₂, per "
                 "direction, exactly. The node-level form (the potential Π_i V_i(H|_i) at every composed node) is checked under "
                 "LYU22-CL3.",
                 "MP ⊗ MP (C1), MP ⊗ R2 (R1), MA ⊗ R2, H8 = Mir_{1/2} ⊗ M_{1/10} (∞); random VW2 pairs; random pairs of random "
                 "small systems.", "",
                 {"exactdp::concurrent_product()", "exactdp::concurrent()", "exactdp::worst_case_renyi_moment()"}, src,
                 [](CheckContext& c) { check_products(c, true); }, ""});
  out.push_back({"X-PURE-PRODUCT", "pure levels of a concurrent composition multiply", "THEOREMS.md B.12", Kind::positive,
                 Status::as_stated, "Worst-case max ratios of a concurrent composition multiply exactly, per direction.", "",
                 "The engine's pure ratio of the concurrent composition (reduce/'s concurrent_product and compose/'s "
                 "concurrent()) equals the product of the components', per direction.",
                 "MP ⊗ MP (C1: 64 = 8·8), MP ⊗ R2, MA ⊗ R2 (∞), H8 (∞); random VW2 pairs; random pairs of random small systems.", "",
                 {"exactdp::concurrent_product()", "exactdp::concurrent()", "exactdp::worst_case_ratio()"}, src,
                 [](CheckContext& c) { check_products(c, false); }, ""});
  out.push_back({"X-VW-UNIQUE", "uniqueness of the pure RR decomposition", "THEOREMS.md B.8", Kind::positive,
                 Status::as_stated, "The pure RR decomposition (K⁰, K¹) of VW-SIM is unique.",
                 "Unique as likelihoods; the conditionals at histories a system never reaches follow a convention (uniform).",
                 "The mixing matrix [[γ, 1], [1, γ]]/(1+γ) is invertible for γ > 1, so any simulator by RR_ε must have system "
                 "likelihoods K^c = (γM^c − M^{1−c})/(γ − 1). Checked: VW-SIM's likelihoods (products of its conditionals), those "
                 "of the simulator found by the exact LP of B.10 at δ = 0 (cddlib, a different construction) and the closed form "
                 "agree at every node; B.8's hand tables V1 and V2 are reproduced cell by cell.",
                 "V1 (R2, γ = 4), V2 (MP, γ = 8), MP at γ = 12; random pure small systems at their pure level or above.", "",
                 {"exactdp::vw_simulator()", "exactdp::lp_simulator()", "exactdp::system_likelihoods()"}, src, check_vw_unique, ""});
  out.push_back({"X-LYU-GREEDY", "LYU-DECOMP's greedy step is greatest", "THEOREMS.md B.9", Kind::positive, Status::as_stated,
                 "Step C of LYU-DECOMP computes the greatest point of F ∩ [u_a, u_a + g₀] × [v_a, v_a + g₁], "
                 "F = {u ≤ U⁰ + c·v, v ≤ U¹ + c·u}; the gaps close.",
                 "",
                 "Step C is replayed from the node tables of LYU-DECOMP runs (λ^b and D^b): at each child, in the canonical answer "
                 "order, the greatest feasible point is found without the closed form — among the four points where each "
                 "coordinate meets one of its two upper constraints (box or line), the feasible one dominating the others — and "
                 "must equal the chosen (D⁰, D¹); the remaining gaps must be exactly 0 after the last child of every branch. "
                 "B.9's hand trace of L1 is compared exactly.",
                 "L1 (MA, γ = 4, δ = 1/15) with its hand trace, L2 (three parameter sets); random systems of E.6.", "",
                 {"exactdp::lyu_decomposition()", "exactdp::tree_hockey_stick()"}, "proofs_checks/lyu.cpp", check_lyu_greedy, ""});
  out.push_back({"X-HS-REFLECT", "hockey-stick reflection", "THEOREMS.md A.1", Kind::positive, Status::as_stated,
                 "H_λ(P‖Q) = 1 − λ + λ·H_{1/λ}(Q‖P) for 0 < λ < 1.", "", "Exact identity on random pairs at λ = k/12.",
                 "Random pairs.", "", {"exactdp::hockey_stick()"}, src, check_reflect, ""});
  out.push_back({"X-HS-TENSOR", "hockey-stick of a product pair", "THEOREMS.md A.1", Kind::positive, Status::as_stated,
                 "H_λ(P₁⊗P₂‖Q₁⊗Q₂) = Σ_v P₁(v)·H_{λQ₁(v)/P₁(v)}(P₂‖Q₂).", "",
                 "Exact identity on random pairs of pairs, on the λ grid.", "Random pairs.", "", {"exactdp::hockey_stick()"}, src,
                 check_tensor, ""});
  out.push_back({"X-DLAP-RR", "a unit shift of DLap(r) is RR_{ln(1/r)}", "THEOREMS.md B.11, D.3", Kind::positive,
                 Status::as_stated,
                 "A unit shift of DLap(r) has the privacy-loss distribution of RR_{ln(1/r)}: ratio 1/r on k ≤ v, r on "
                 "k ≥ v + 1, Pr₀[loss = +ε] = 1/(1 + r).",
                 "The DLap tables are clamped (B.14), never truncated.",
                 "Equality of the exact privacy-loss distributions (sorted atoms with both worlds' masses).",
                 "r = 1/2 on [0, 1] and [−5, 6]; r = 1/3 on [−2, 3]; random r and windows.", "",
                 {"exactdp::discrete_laplace_pair()", "exactdp::privacy_loss()"}, src, check_dlap, ""});
  out.push_back({"X-CLAMP-EXACT", "clamping is exact, truncation is not", "THEOREMS.md B.14", Kind::positive,
                 Status::as_stated,
                 "Clamping DLap outside [min, max] of the neighbouring values leaves the profile unchanged; clamping is "
                 "post-processing; truncate-and-renormalise is not.",
                 "", "Clamped pairs on random windows have the loss of the minimal window; a hand-computed truncated and "
                 "renormalised table has a different H₁ (9/28 against 1/3).",
                 "DLap(1/2) on [−1, 1]; random r, Δ ≤ 3, windows.", "", {"exactdp::discrete_laplace_pair()"}, src, check_clamp, ""});
  out.push_back({"X-TREE", "the binary-tree counter is a composition of RR", "THEOREMS.md D.6", Kind::positive, Status::as_stated,
                 "The binary-tree counter's exact adaptive profile for a unit change is that of Comp of (number of used "
                 "nodes containing the changed step) copies of RR_{ln(1/r)}.",
                 "Clamped released nodes (B.14).", "The engine on the library's tree counter against E.10 H13 and the product RR pair.",
                 "H13 (T = 4, r = 1/2).", "", {"exactdp::library::binary_tree_counter()", "exactdp::worst_case_hockey_stick()"}, src,
                 check_tree, ""});
  out.push_back({"X-RENYI-CHAIN-EXP", "the Rényi chain rule fails with an expectation", "THEOREMS.md E.8 (RC); VW21 §1",
                 Kind::negative, Status::as_stated,
                 "VW21's Rényi chain rule is false with an expectation E_y in place of sup_y: there are pairs with "
                 "Φ_α(joint) > exp((α−1)·E_y[D_α(conditional)]).",
                 "α = 2.",
                 "Rebuild RC and verify exactly: Φ₂(joint) = 5/3 while the expectation form would need "
                 "Φ₂ ≤ √(7/3); compare squares (25/9 > 7/3).",
                 "RC (E.8).", "This is why sequential proofs do not carry over to concurrent composition.",
                 {"exactdp::renyi_moment()"}, src, check_chain_exp, ""});
}

}  // namespace exactdp::proofs
