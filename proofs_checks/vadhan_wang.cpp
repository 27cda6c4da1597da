// THEOREMS.md C.2 — Vadhan–Wang 2021: deterministic adversaries suffice, ordered composition with
// null queries, the pure triangle inequality, the concurrent-composition bounds (on products of
// noninteractive pairs and on interactive concurrent compositions built by compose/), VW-SIM and
// the 2-round experiment of §6.
#include "exactdp/bounds/composition_bounds.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "exactdp/reduce/vw_sim.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator_lp.hpp"
#include "proofs_checks/interactive_support.hpp"
#include "proofs_checks/support.hpp"

#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <variant>

namespace exactdp::proofs {
namespace {

using Masses = std::vector<std::pair<Rational, Rational>>;

// Mixtures of deterministic adversaries against the engine (VW21 L1). Also used by
// HSTVVXZ23-L2.3 through check_mixtures below with trade-off envelopes.
std::string mixture_check(const Game& g, unsigned horizon, Rng& rng, std::string& description) {
  EngineOptions o;
  o.horizon = horizon;
  const long n = rng.range(2, 3);
  std::vector<Rational> w;
  long total = 0;
  std::vector<long> wi;
  for (long i = 0; i < n; ++i) wi.push_back(rng.range(1, 5)), total += wi.back();
  for (long x : wi) w.push_back(q(x, total));
  Masses visible;
  std::map<View, std::pair<Rational, Rational>> hidden;
  description = "mixture of " + std::to_string(n) + " random decision trees with weights";
  for (long i = 0; i < n; ++i) {
    description += " " + str(w[i]);
    const Adversary a = random_adversary(g, horizon, rng);
    const auto v = view_distributions(g, a, horizon);
    std::set<View> support;
    for (const auto& [view, p] : v.world0) support.insert(view);
    for (const auto& [view, p] : v.world1) support.insert(view);
    for (const auto& view : support) {
      const Rational p = w[i] * v.world0.mass(view), qq = w[i] * v.world1.mass(view);
      visible.emplace_back(p, qq);
      hidden[view].first += p;
      hidden[view].second += qq;
    }
  }
  Masses hid;
  for (const auto& [view, pq] : hidden) hid.push_back(pq);
  const PrivacyLoss lv = PrivacyLoss::from_masses(visible), lh = PrivacyLoss::from_masses(hid);
  std::string bad;
  for (const auto& lambda : lambda_grid()) {
    const auto e = worst_case_hockey_stick(g, lambda, o);
    for (int dir = 0; dir < 2; ++dir) {
      const Rational sv = hockey_stick(dir ? lv.swapped() : lv, lambda), sh = hockey_stick(dir ? lh.swapped() : lh, lambda);
      const Rational& eng = dir ? e.backward : e.forward;
      if (sh > sv || sv > eng)
        bad += " H_" + str(lambda) + " dir " + std::to_string(dir) + ": coins hidden " + str(sh) + ", visible " + str(sv) +
               ", engine " + str(eng) + ";";
    }
  }
  const auto r = worst_case_renyi_moment(g, 2, o);
  if (r.forward < renyi_moment(lv, 2) || r.backward < renyi_moment(lv.swapped(), 2)) bad += " Φ₂ of the mixture exceeds the engine;";
  return bad;
}

void check_l1(CheckContext& ctx) {
  for (const Game& g : {mp_game(), ma_game(), r2_game()}) {
    // The sup over randomised adversaries is attained by a deterministic one: the engine value equals
    // the maximum over the enumerated deterministic trees (the coins-visible mixture is their average).
    const auto advs = all_adversaries(g, g.horizon);
    std::string bad;
    for (const auto& lambda : lambda_grid()) {
      Rational best = 0;
      for (const auto& a : advs) {
        const PrivacyLoss l = privacy_loss(view_distributions(g, a));
        best = std::max({best, hockey_stick(l, lambda), hockey_stick(l.swapped(), lambda)});
      }
      if (best != worst_case_hockey_stick(g, lambda).delta()) bad += " λ = " + str(lambda) + ";";
    }
    ctx.instance(g.name + ": engine δ(λ) on the λ grid = max over its " + std::to_string(advs.size()) + " deterministic trees",
                 bad.empty() ? "equal" : "differs at" + bad, bad.empty(), g.horizon);
  }
  const unsigned cap = ctx.budget().horizon_cap();
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const int pick = static_cast<int>(ctx.rng().range(0, 2));
    const unsigned h = pick == 2 ? static_cast<unsigned>(ctx.rng().range(1, cap)) : 2;
    const Game g = pick == 0 ? mp_game() : pick == 1 ? random_vw2_game(ctx.rng()) : random_table_game(ctx.rng(), 3, h);
    std::string desc;
    const std::string bad = mixture_check(g, h, ctx.rng(), desc);
    ctx.random_instance(bad.empty(), g.name + ", horizon " + std::to_string(h) + ", " + desc + ":" + bad, h);
  }
}

void check_l3(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(1, 4);
    std::vector<std::vector<long>> w(3);
    for (auto& row : w) {
      long s = 0;
      while (s == 0) {
        row.clear();
        for (long i = 0; i < k; ++i) row.push_back(ctx.rng().range(0, 5)), s += row.back();
      }
    }
    auto dist = [&](int j) {
      long s = 0;
      for (long x : w[j]) s += x;
      std::vector<Rational> d;
      for (long x : w[j]) d.push_back(q(x, s));
      return d;
    };
    const auto X = dist(0), Y = dist(1), Z = dist(2);
    auto level = [](const std::vector<Rational>& a, const std::vector<Rational>& b) {
      Masses m;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (sgn(a[i]) + sgn(b[i]) > 0) m.emplace_back(a[i], b[i]);
      const PrivacyLoss l = PrivacyLoss::from_masses(m);
      return std::max(max_ratio(l), max_ratio(l.swapped()));
    };
    const ExtendedRational l1 = level(X, Y), l2 = level(Y, Z), l3 = level(X, Z);
    const bool ok = l3 <= l1 * l2;
    std::string d = "X, Y, Z =";
    for (const auto* v : {&X, &Y, &Z}) {
      d += " (";
      for (std::size_t i = 0; i < v->size(); ++i) d += (i ? ", " : "") + str((*v)[i]);
      d += ")";
    }
    ctx.random_instance(ok, d + ": λ(X,Z) = " + to_string(l3) + " > λ(X,Y)·λ(Y,Z) = " + to_string(l1 * l2));
  }
}

// A random component: a small pair with its exact pure level or its exact δ at a grid λ.
struct Component {
  Masses m;
  Rational lambda, delta;
};

Component random_component(Rng& rng, bool pure) {
  for (;;) {
    Masses m = random_masses(rng, 3, 4);
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    if (pure) {
      const ExtendedRational r = std::max(max_ratio(l), max_ratio(l.swapped()));
      if (r.is_infinite()) continue;
      return {m, std::max(r.value(), Rational(1)), Rational(0)};
    }
    const Rational lambda = lambda_grid()[rng.range(0, 4)];
    return {m, lambda, std::max(hockey_stick(l, lambda), hockey_stick(l.swapped(), lambda))};
  }
}

std::string describe(const std::vector<Component>& c) {
  std::string s;
  for (const auto& x : c) s += " " + describe_masses(x.m) + " is (ln " + str(x.lambda) + ", " + str(x.delta) + ")-DP;";
  return s;
}

Game product_of(const std::vector<Component>& c) {
  std::vector<Masses> parts;
  for (const auto& x : c) parts.push_back(x.m);
  return pair_game("product", product_masses(parts));
}

void check_t31(CheckContext& ctx) {
  // RR₂ ⊗ RR₃ (E.9 F1, pure part): ln 6-DP exactly.
  const Game f1 = pair_game("RR₂ ⊗ RR₃", product_masses({rr_masses(q(2), q(0)), rr_masses(q(3), q(0))}));
  expect_equal(ctx, "RR₂ ⊗ RR₃ (noninteractive): engine pure level (F1: 6 = 2·3)", worst_case_ratio(f1).max().value(), q(6), 1);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(2, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    std::vector<Component> c;
    for (long i = 0; i < k; ++i) c.push_back(random_component(ctx.rng(), true));
    const Game g = product_of(c);
    const auto r = worst_case_ratio(g);
    ExtendedRational fwd = 1, bwd = 1;
    for (const auto& x : c) {
      const PrivacyLoss l = PrivacyLoss::from_masses(x.m);
      fwd = fwd * max_ratio(l);
      bwd = bwd * max_ratio(l.swapped());
    }
    const bool ok = r.forward == fwd && r.backward == bwd;
    ctx.random_instance(ok, "components" + describe(c) + " engine pure levels (" + to_string(r.forward) + ", " +
                                to_string(r.backward) + "), products (" + to_string(fwd) + ", " + to_string(bwd) + ")",
                        static_cast<unsigned>(k));
  }
  {
    // C1 = MP ⊗ MP (E.7), built by reduce/'s concurrent_product: pure level 64 = 8·8.
    const Game c1 = concurrent_product(mp_game(), mp_game());
    expect_equal(ctx, "C1 = MP ⊗ MP (interactive, any interleaving): engine pure level (E.7: 64)", worst_case_ratio(c1).max().value(), q(64),
                 c1.horizon);
  }
  // compose/'s concurrent(): C1 (64 = 8·8), R1 (32 = 8·4), and random pairs of random pure small
  // interactive systems, per direction against the product of the components' engine levels.
  auto interactive = [&](const std::vector<Game>& parts, bool named) {
    const Game g = concurrent(parts, joined_names(parts));
    const auto r = worst_case_ratio(g);
    ExtendedRational fwd = 1, bwd = 1;
    for (const auto& p : parts) {
      const auto x = worst_case_ratio(p);
      fwd = fwd * x.forward;
      bwd = bwd * x.backward;
    }
    const bool ok = r.forward == fwd && r.backward == bwd && !r.max().is_infinite();
    const std::string out = "(" + to_string(r.forward) + ", " + to_string(r.backward) + "), products (" + to_string(fwd) + ", " + to_string(bwd) + ")";
    if (named)
      ctx.instance(g.name + " (compose/ concurrent): pure level per direction = product of the components'", out, ok, g.horizon);
    else
      ctx.random_instance(ok, g.name + ": " + out, g.horizon);
  };
  interactive({mp_game(), mp_game()}, true);
  interactive({mp_game(), r2_game()}, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) interactive({random_pure_system(ctx.rng()), random_pure_system(ctx.rng())}, false);
}

void check_t41(CheckContext& ctx) {
  struct Row {
    std::vector<LambdaDelta> c;
    LambdaDelta vw;
    Rational basic, opt;
  };
  const std::vector<Row> e4 = {
      {{{q(2), q(1, 10)}, {q(2), q(1, 10)}}, {q(4), q(3, 10)}, q(1, 5), q(19, 100)},
      {{{q(2), q(1, 100)}, {q(2), q(1, 100)}, {q(2), q(1, 100)}}, {q(8), q(7, 100)}, q(3, 100), q(29701, 1000000)},
      {{{q(2), q(1, 10)}, {q(3), q(1, 100)}}, {q(6), q(3, 25)}, q(11, 100), q(109, 1000)},
  };
  for (const auto& row : e4) {
    const LambdaDelta vw = vw_concurrent_bound(row.c), b = basic_composition(row.c);
    std::string name = "E.4:";
    std::vector<std::pair<Rational, Rational>> comps;
    for (const auto& x : row.c) name += " (" + str(x.lambda) + ", " + str(x.delta) + ")", comps.push_back({x.lambda, x.delta});
    const Rational opt = optimal_composition_delta(row.c, vw.lambda);
    const bool ok = vw == row.vw && b.delta == row.basic && opt == row.opt && vw.delta >= b.delta && b.delta >= opt;
    ctx.instance(name + ": VW (λ_g, δ_g), basic Σδ, δ_opt(λ_g)",
                 "(" + str(vw.lambda) + ", " + str(vw.delta) + "), " + str(b.delta) + ", " + str(opt), ok,
                 static_cast<unsigned>(row.c.size()));
    const Game g = pair_game("RR product", product_masses([&] {
                               std::vector<Masses> parts;
                               for (const auto& x : row.c) parts.push_back(rr_masses(x.lambda, x.delta));
                               return parts;
                             }()));
    expect_at_most(ctx, name + ": engine δ(λ_g) of ⊗RR ≤ δ_g", worst_case_hockey_stick(g, vw.lambda).delta(), vw.delta,
                   static_cast<unsigned>(row.c.size()));
  }
  {
    const std::vector<LambdaDelta> c{{q(3), q(1, 100)}, {q(2), q(1, 10)}};
    const std::vector<std::size_t> order{0, 1};
    expect_equal(ctx, "E.4: order ((3, 1/100), (2, 1/10)) gives", vw_delta_for_order(c, order), q(31, 100), 2);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(2, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    std::vector<Component> c;
    std::vector<LambdaDelta> ld;
    for (long i = 0; i < k; ++i) c.push_back(random_component(ctx.rng(), false)), ld.push_back({c.back().lambda, c.back().delta});
    const LambdaDelta vw = vw_concurrent_bound(ld), b = basic_composition(ld);
    const Rational eng = worst_case_hockey_stick(product_of(c), vw.lambda).delta();
    const Rational opt = optimal_composition_delta(ld, vw.lambda);
    const bool ok = eng <= vw.delta && vw.delta >= b.delta && b.delta >= opt && eng <= opt;
    ctx.random_instance(ok, "components" + describe(c) + " engine " + str(eng) + ", δ_opt " + str(opt) + ", Σδ " + str(b.delta) +
                                ", VW δ_g " + str(vw.delta) + " at λ_g = " + str(vw.lambda),
                        static_cast<unsigned>(k));
  }
  // Interactive components through compose/'s concurrent(); each component's (λ_i, δ_i) is its own
  // exact worst case δ_i = δ(λ_i) (engine).
  auto interactive = [&](const std::vector<Game>& parts, const std::vector<Rational>& lambdas, bool named) {
    std::vector<LambdaDelta> ld;
    std::string desc;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      ld.push_back({lambdas[i], worst_case_hockey_stick(parts[i], lambdas[i]).delta()});
      desc += " " + parts[i].name + " is (ln " + str(ld.back().lambda) + ", " + str(ld.back().delta) + ")-DP;";
    }
    const Game g = concurrent(parts, joined_names(parts));
    const LambdaDelta vw = vw_concurrent_bound(ld), b = basic_composition(ld);
    const Rational eng = worst_case_hockey_stick(g, vw.lambda).delta(), opt = optimal_composition_delta(ld, vw.lambda);
    const bool ok = eng <= vw.delta && vw.delta >= b.delta && b.delta >= opt && eng <= opt;
    const std::string out = "engine δ(λ_g = " + str(vw.lambda) + ") = " + str(eng) + " ≤ δ_opt " + str(opt) + " ≤ Σδ " + str(b.delta) + " ≤ VW δ_g " + str(vw.delta);
    if (!desc.empty()) desc.pop_back();  // the last ';'
    if (named)
      ctx.instance(g.name + " (compose/ concurrent):" + desc, out, ok, g.horizon);
    else
      ctx.random_instance(ok, g.name + ":" + desc + " " + out, g.horizon);
  };
  interactive({mp_game(), mp_game()}, {q(2), q(4)}, true);
  interactive({mp_game(), r2_game()}, {q(3), q(2)}, true);
  interactive({library::mirror(q(1, 2)), library::m_delta(q(1, 10))}, {q(2), q(1)}, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
    interactive({random_small_system(ctx.rng()), random_small_system(ctx.rng())}, {lambda_grid()[ctx.rng().range(0, 4)], lambda_grid()[ctx.rng().range(0, 4)]},
                false);
}

void check_l5(CheckContext& ctx) {
  // RR components attain OPT-COMP's least λ_g exactly (E.3: RR₃ × 3 at 1/10 → 103/5).
  {
    const Game g = pair_game("RR₃ × 3", product_masses({rr_masses(q(3), q(0)), rr_masses(q(3), q(0)), rr_masses(q(3), q(0))}));
    expect_equal(ctx, "RR₃ × 3 (noninteractive): engine e^{PrivLoss(1/10)}", worst_case_least_lambda(g, q(1, 10)).value(), q(103, 5), 3);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(2, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    std::vector<Component> c;
    std::vector<LambdaDelta> ld;
    for (long i = 0; i < k; ++i) c.push_back(random_component(ctx.rng(), true)), ld.push_back({c.back().lambda, q(0)});
    const Rational dg = q(ctx.rng().range(0, 10), 20);
    const ExtendedRational eng = worst_case_least_lambda(product_of(c), dg);
    const auto opt = optimal_composition_least_lambda(ld, dg);
    const ExtendedRational bound = opt ? ExtendedRational(*opt) : ExtendedRational::infinity();
    ctx.random_instance(eng <= bound, "components" + describe(c) + " δ_g = " + str(dg) + ": engine least λ " + to_string(eng) +
                                          " > OPT-COMP " + to_string(bound),
                        static_cast<unsigned>(k));
  }
  // Interactive pure components through compose/'s concurrent(): the engine's exact e^{PrivLoss(δ_g)} of
  // the composition ≤ OPT-COMP's least λ_g with (λ_i, 0), λ_i the components' exact pure levels.
  auto interactive = [&](const std::vector<Game>& parts, const std::vector<Rational>& dgs, bool named) {
    std::vector<LambdaDelta> ld;
    for (const auto& p : parts) ld.push_back({std::max(worst_case_ratio(p).max().value(), Rational(1)), q(0)});
    const Game g = concurrent(parts, joined_names(parts));
    const auto profile = worst_case_profile(g).profile;  // one run; e^{PrivLoss(δ_g)} is solved on it (B.6)
    for (const Rational& dg : dgs) {
      const ExtendedRational eng = profile.least_lambda(dg);
      const auto opt = optimal_composition_least_lambda(ld, dg);
      const ExtendedRational bound = opt ? ExtendedRational(*opt) : ExtendedRational::infinity();
      const std::string out = "engine " + to_string(eng) + " ≤ OPT-COMP " + to_string(bound);
      if (named)
        ctx.instance(g.name + " (compose/ concurrent), δ_g = " + str(dg) + ": e^{PrivLoss}", out, eng <= bound, g.horizon);
      else
        ctx.random_instance(eng <= bound, g.name + ", δ_g = " + str(dg) + ": " + out, g.horizon);
    }
  };
  interactive({mp_game(), mp_game()}, {q(0), q(1, 100), q(1, 10), q(1, 4)}, true);
  interactive({mp_game(), r2_game()}, {q(1, 10)}, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
    interactive({random_pure_system(ctx.rng()), random_pure_system(ctx.rng())}, {q(ctx.rng().range(0, 10), 20)}, false);
}

void check_t54(CheckContext& ctx) {
  {
    // C1 (E.7): the concurrent profile against δ_opt for per-copy parameters (8, 0).
    const Game c1 = concurrent_product(mp_game(), mp_game());
    const auto prof = worst_case_profile(c1).profile;
    const std::vector<LambdaDelta> per_copy{{q(8), q(0)}, {q(8), q(0)}};
    const std::vector<std::pair<Rational, std::pair<Rational, Rational>>> e7 = {
        {q(1), {q(49, 75), q(49, 75)}}, {q(2), {q(982, 2025), q(118, 225)}}, {q(8), {q(8, 81), q(56, 225)}},
        {q(16), {q(0), q(16, 75)}}, {q(64), {q(0), q(0)}}};
    for (const auto& [lambda, fb] : e7) {
      const Rational f = prof.forward()(lambda), b = prof.backward()(lambda), opt = optimal_composition_delta(per_copy, lambda);
      ctx.instance("C1 = MP ⊗ MP at λ = " + str(lambda) + " (E.7): (forward, backward) ≤ δ_opt",
                   "(" + str(f) + ", " + str(b) + ") ≤ " + str(opt), f == fb.first && b == fb.second && std::max(f, b) <= opt, c1.horizon);
    }
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(1, std::max(2u, std::min(3u, ctx.budget().horizon_cap())));
    std::vector<Component> c;
    std::vector<LambdaDelta> ld;
    for (long i = 0; i < k; ++i) c.push_back(random_component(ctx.rng(), true)), ld.push_back({c.back().lambda, q(0)});
    const auto prof = worst_case_profile(product_of(c)).profile;
    const auto bound = optimal_composition_profile(ld);
    std::string bad = profile_above_bound(prof, bound);
    ctx.random_instance(bad.empty(), "pure components" + describe(c) + bad, static_cast<unsigned>(k));
  }
  // compose/'s concurrent(): C1 with the full E.7 table, R1, and random pairs of random pure small
  // interactive systems; the profile ≤ δ_RR at every breakpoint of either.
  auto interactive = [&](const std::vector<Game>& parts, bool named, const std::vector<std::pair<Rational, std::pair<Rational, Rational>>>& e7) {
    std::vector<LambdaDelta> ld;
    for (const auto& p : parts) ld.push_back({std::max(worst_case_ratio(p).max().value(), Rational(1)), q(0)});
    const Game g = concurrent(parts, joined_names(parts));
    const auto prof = worst_case_profile(g).profile;
    const auto bound = optimal_composition_profile(ld);
    std::string bad = profile_above_bound(prof, bound);
    for (const auto& [lambda, fb] : e7)
      if (prof.forward()(lambda) != fb.first || prof.backward()(lambda) != fb.second)
        bad += " E.7 at λ = " + str(lambda) + ": (" + str(prof.forward()(lambda)) + ", " + str(prof.backward()(lambda)) + ");";
    if (named)
      ctx.instance(g.name + " (compose/ concurrent): profile ≤ δ_RR" + std::string(e7.empty() ? "" : ", E.7 table at λ ∈ {1, 2, 3, 8, 9, 12, 16, 32, 64}"),
                   bad.empty() ? "holds" : bad, bad.empty(), g.horizon);
    else
      ctx.random_instance(bad.empty(), g.name + ":" + bad, g.horizon);
  };
  interactive({mp_game(), mp_game()}, true,
              {{q(1), {q(49, 75), q(49, 75)}}, {q(2), {q(982, 2025), q(118, 225)}}, {q(3), {q(761, 2025), q(307, 675)}},
               {q(8), {q(8, 81), q(56, 225)}}, {q(9), {q(7, 81), q(11, 45)}}, {q(12), {q(4, 81), q(52, 225)}},
               {q(16), {q(0), q(16, 75)}}, {q(32), {q(0), q(32, 225)}}, {q(64), {q(0), q(0)}}});
  interactive({mp_game(), r2_game()}, true, {});
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) interactive({random_pure_system(ctx.rng()), random_pure_system(ctx.rng())}, false, {});
}

void check_t52(CheckContext& ctx) {
  auto one = [&](const Game& g, const Rational& gamma, bool expect_simulator, bool named) {
    const LikelihoodTree tree = likelihood_tree(g);
    const SimulatorBuild b = vw_simulator(tree, gamma);
    const Simulator* sim = std::get_if<Simulator>(&b);
    const bool verified = sim && verify_simulator(tree, *sim).verified;
    const bool ok = expect_simulator ? verified : !sim;
    const std::string what = g.name + " at γ = " + str(gamma);
    const std::string out = sim ? (verified ? "simulator verified" : "simulator fails verification") : "rejected (γ below the pure level)";
    if (named)
      ctx.instance(what, out, ok, g.horizon);
    else
      ctx.random_instance(ok, what + ": " + out, g.horizon);
  };
  one(mp_game(), q(8), true, true);    // E.5: pure level 8
  one(r2_game(), q(4), true, true);    // pure level 4
  one(mp_game(), q(4), false, true);   // below the pure level: must be rejected (V3-type)
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Game g = random_vw2_game(ctx.rng());
    const ExtendedRational level = worst_case_ratio(g).max();
    if (level.is_infinite()) {
      one(g, q(1000), false, false);  // not pure: every γ must be rejected
      continue;
    }
    one(g, std::max(level.value(), Rational(1)), true, false);
  }
}

// ------------------------------------------------------------------ VW21 Lemma 2 (ordered composition)

/// State of M^∅: (M's state, the latest real answer id or −1, the real queries answered so far).
using NullState = std::tuple<StateId, long, unsigned>;
struct NullStateHash {
  std::size_t operator()(const NullState& s) const noexcept {
    return std::hash<std::uint64_t>{}((std::uint64_t(std::get<0>(s)) << 32) ^ (static_cast<std::uint64_t>(std::get<1>(s) + 1) << 8) ^ std::get<2>(s));
  }
};

/// The null-query extension M^∅ (VW21 D8) of a component with horizon T: M's messages plus the null
/// query "∅", which is answered by repeating the latest real answer ("⊥" before any) and leaves the
/// state unchanged. As in compose/'s concurrent(), the component answers at most T real queries;
/// later real queries get `halt` (padding, A.3), so both systems play each component as the
/// finite-communication mechanism of its own game.
std::shared_ptr<const InteractiveMechanism> null_extension(const std::shared_ptr<const InteractiveMechanism>& m, unsigned horizon) {
  std::vector<std::string> messages = m->messages();
  messages.push_back("∅");
  auto step = [m, horizon](const NullState& s, const std::string& msg) {
    const auto& [state, last, used] = s;
    std::vector<Outcome<NullState>> out;
    if (msg == "∅") {
      out.push_back({Rational(1), last < 0 ? std::string("⊥") : m->answer_name(static_cast<AnswerId>(last)), s});
      return out;
    }
    if (used >= horizon) {
      out.push_back({Rational(1), halt_answer, s});
      return out;
    }
    for (const auto& t : m->step(state, *m->message_id(msg))) out.push_back({t.probability, m->answer_name(t.answer), NullState{t.next, long(t.answer), used + 1}});
    return out;
  };
  auto show = [m](const NullState& s) {
    return m->state_name(std::get<0>(s)) + "/" + (std::get<1>(s) < 0 ? std::string("⊥") : m->answer_name(static_cast<AnswerId>(std::get<1>(s)))) + "/" +
           std::to_string(std::get<2>(s));
  };
  return std::make_shared<LambdaMechanism<NullState, NullStateHash>>(m->name() + "^∅", messages, step, show);
}

/// ConComp_order(M₀^∅, …, M_{k−1}^∅) (VW21 D7, D8) for components with static neighbours and
/// point-mass initial states: message t (counted from 0) must go to component t mod k (an automaton
/// verifier with states 0..k−1 over identical pairs); horizon k·ΣT_i.
Game ordered_null_composition(const std::vector<Game>& parts) {
  std::vector<std::shared_ptr<const InteractiveMechanism>> ext;
  unsigned total = 0;
  for (const auto& p : parts) {
    if (!dynamic_cast<const StaticVerifier*>(p.verifier.get()) || p.initial[0].size() != 1 || p.initial[1].size() != 1)
      throw Error("ordered_null_composition", p.name, "verifier", "components must have static neighbours and point-mass initial states");
    ext.push_back(null_extension(p.mechanism, p.horizon));
    total += p.horizon;
  }
  auto mech = std::make_shared<ConcurrentMechanism>(ext, "ordered(" + joined_names(parts) + ")^∅");
  const std::size_t k = parts.size();
  std::vector<std::string> names;
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(k);
  for (std::size_t j = 0; j < k; ++j) {
    names.push_back("next: " + std::to_string(j));
    for (MessageId m = 0; m < ext[j]->messages().size(); ++m) {
      const MessageId id = mech->message_of(j, m);
      edges[j].push_back({{id, id}, static_cast<VerifierState>((j + 1) % k)});
    }
  }
  std::array<InitialLaw, 2> init;
  for (int b = 0; b < 2; ++b) {
    std::vector<StateId> tuple;
    for (std::size_t j = 0; j < k; ++j) {
      const auto* le = dynamic_cast<const LambdaMechanism<NullState, NullStateHash>*>(ext[j].get());
      tuple.push_back(le->state_id(NullState{parts[j].initial[b].front().first, -1, 0u}));
    }
    init[b] = {{mech->state_id(tuple), Rational(1)}};
  }
  Game g{mech->name(), mech, std::make_shared<AutomatonVerifier>(names, 0, edges), init, parts[0].world_names, static_cast<unsigned>(k) * total};
  g.validate();
  return g;
}

void check_l2(CheckContext& ctx) {
  // ordered ≥ concurrent is the lemma (an ordered adversary with null queries can follow any
  // interleaving); ordered ≤ concurrent holds because null answers are functions of the history (a
  // post-processing). So the two exact profiles must be equal, as PL functions, per direction.
  auto one = [&](const std::vector<Game>& parts, bool named) {
    const Game conc = concurrent(parts, joined_names(parts));
    const Game ord = ordered_null_composition(parts);
    const auto pc = worst_case_profile(conc).profile, po = worst_case_profile(ord).profile;
    std::string bad;
    std::vector<Rational> pts{q(1)};
    for (const auto& x : pc.forward().breakpoints()) pts.push_back(x);
    for (const auto& x : pc.backward().breakpoints()) pts.push_back(x);
    for (const auto& x : po.forward().breakpoints()) pts.push_back(x);
    for (const auto& x : po.backward().breakpoints()) pts.push_back(x);
    for (const auto& x : pts)
      if (pc.forward()(x) > po.forward()(x) || pc.backward()(x) > po.backward()(x)) bad += " ConComp exceeds the ordered system at λ = " + str(x) + ";";
    const bool equal = pc.forward() == po.forward() && pc.backward() == po.backward();
    if (!equal && bad.empty()) bad = " the profiles differ (the ordered system is larger somewhere)";
    const std::string out = bad.empty() ? "equal profiles (δ(1) = " + str(pc.delta(q(1))) + ", horizons " + std::to_string(conc.horizon) + " and " +
                                              std::to_string(ord.horizon) + ")"
                                        : bad;
    if (named)
      ctx.instance(conc.name + ": ConComp profile = ConComp_order(M^∅) profile (≤ is the lemma)", out, bad.empty(), ord.horizon);
    else
      ctx.random_instance(bad.empty(), conc.name + ":" + out, ord.horizon);
  };
  one({r2_game(), r2_game()}, true);
  if (ctx.budget().level != BudgetLevel::small) {  // horizon-8 ordered systems: from the default budget on
    one({mp_game(), r2_game()}, true);
    one({mp_game(), mp_game()}, true);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
    one({random_table_game(ctx.rng(), 2, 1), ctx.rng().coin() ? random_table_game(ctx.rng(), 2, 1) : r2_game()}, false);
}

// ------------------------------------------------------------------ VW21 §6 (the 2-round experiment)

/// One VW2 system at (e^{PrivLoss(δ)}, δ): the exact least λ* (B.6); skipped (returns "skip") when it is
/// 1 or ∞; then LYU-DECOMP at (λ*, δ) must build a verified simulator, the exact LP of B.10 must be
/// feasible there (a second construction) and infeasible at λ′ = λ* − (λ* − 1)/8 (Farkas-certified), where
/// LYU-DECOMP must refuse as well.
std::string s6_failure(const Game& g, const Rational& delta, bool with_lp, std::string& summary) {
  const ExtendedRational star = worst_case_least_lambda(g, delta);
  summary = "λ* = " + to_string(star);
  if (star.is_infinite() || star.value() == 1) return "skip";
  const Rational lambda = star.value();
  const LikelihoodTree t = likelihood_tree(g);
  const LyuBuild b = lyu_decomposition(t, lambda, delta);
  const auto* d = std::get_if<LyuDecomposition>(&b);
  if (!d) return "LYU-DECOMP refused at (λ*, δ): " + std::get<SimulatorRefusal>(b).reason;
  if (const auto v = verify_simulator(t, d->simulator); !v.verified) return "LYU-DECOMP's simulator fails verification: " + v.failure;
  if (!with_lp) {
    if (std::holds_alternative<LyuDecomposition>(lyu_decomposition(t, lambda - (lambda - 1) / 8, delta)) && lambda - (lambda - 1) / 8 > 1)
      return "LYU-DECOMP succeeds below λ*";
    summary += ": LYU-DECOMP verified, refuses at " + str(lambda - (lambda - 1) / 8);
    return {};
  }
  const SimulatorBuild lp = lp_simulator(t, lambda, delta);
  const auto* ls = std::get_if<Simulator>(&lp);
  if (!ls) return "the exact LP is infeasible at (λ*, δ): " + std::get<SimulatorRefusal>(lp).reason;
  if (const auto v = verify_simulator(t, *ls); !v.verified) return "the LP simulator fails verification: " + v.failure;
  const Rational below = lambda - (lambda - 1) / 8;
  if (std::holds_alternative<Simulator>(lp_simulator(t, below, delta))) return "the exact LP is feasible below λ*, at " + str(below);
  if (below > 1 && std::holds_alternative<LyuDecomposition>(lyu_decomposition(t, below, delta))) return "LYU-DECOMP succeeds below λ*, at " + str(below);
  summary += ": LYU-DECOMP and the LP verified, both refuse at " + str(below);
  return {};
}

/// A random VW2 system for §6: each of the ten parameters is an interior rational n/d (d ≤ 12) with
/// probability 24/25 and 0 or 1 otherwise (zero entries allowed, E.11, but rare enough that most
/// draws have a finite PrivLoss at some δ of E.6's list — support's random_vw2_game draws 0 and 1
/// so often that nearly every draw has catastrophic mass above 1/10).
Game random_vw2_mostly_interior(Rng& rng) {
  auto p = [&] {
    if (rng.range(0, 24) == 0) return q(rng.range(0, 1));
    const long d = rng.range(2, 12);
    return q(rng.range(1, d - 1), d);
  };
  const Rational p0 = p(), p0w1 = p();
  const Rational P[2][2] = {{p(), p()}, {p(), p()}};
  const Rational Pw1[2][2] = {{p(), p()}, {p(), p()}};
  return vw2_game("VW2", p0, p0w1, P, Pw1);
}

void check_s6(CheckContext& ctx) {
  // E.5: e^{PrivLoss(δ)} of MA is 31/10 at δ = 1/10 and 11/5 at δ = 1/5; of MP 157/20 at 1/100, 8 at 0.
  // The exact LP (cddlib) is the slow part: at the small budget it cross-checks the first named
  // instance only, at the default budget every named one and every fifth random one.
  const bool small = ctx.budget().level == BudgetLevel::small;
  bool first = true;
  for (const auto& [g, delta, want] : std::vector<std::tuple<Game, Rational, Rational>>{
           {ma_game(), q(1, 10), q(31, 10)}, {ma_game(), q(1, 5), q(11, 5)}, {mp_game(), q(1, 100), q(157, 20)}, {mp_game(), q(0), q(8)}}) {
    std::string summary;
    const std::string f = s6_failure(g, delta, first || !small, summary);
    first = false;
    const bool ok = f.empty() && worst_case_least_lambda(g, delta) == ExtendedRational(want);
    ctx.instance(g.name + " at δ = " + str(delta) + " (E.5: λ* = " + str(want) + ")", ok ? summary : summary + "; " + f, ok, 2);
  }
  const std::vector<Rational> deltas{q(0), q(1, 100), q(1, 50), q(1, 20), q(1, 10)};
  unsigned skipped = 0;
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Game g = random_vw2_mostly_interior(ctx.rng());
    // the drawn δ, or the next larger one of E.6's list where PrivLoss is finite and positive
    std::string summary, f = "skip";
    Rational delta;
    for (std::size_t i = static_cast<std::size_t>(ctx.rng().range(0, 4)); i < deltas.size() && f == "skip"; ++i) {
      delta = deltas[i];
      f = s6_failure(g, delta, !small && n % 5 == 0, summary);
    }
    if (f == "skip") {
      ++skipped;
      continue;
    }
    ctx.random_instance(f.empty(), "VW2 at δ = " + str(delta) + ", " + summary + ": " + f, 2);
  }
  if (skipped) ctx.note(std::to_string(skipped) + " random VW2 draws had PrivLoss ∈ {0, ∞} at their δ and were skipped (as §6 does).");
}

}  // namespace

void families::vadhan_wang(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/vadhan_wang.cpp";
  const std::string nim_note = "Two families of instances: products of noninteractive pairs (the concurrent composition of NIMs "
                               "is their product pair, analysed by the engine as a static game), and interactive concurrent "
                               "compositions built by compose/'s concurrent() (the adversary interleaves freely; each component "
                               "is limited to its own horizon).";
  out.push_back({"VW21-L1", "deterministic adversaries suffice", "VW21 Lemma 1 (= HSTVVXZ23 L2.3, HSV L11.1/C11.2)",
                 Kind::positive, Status::as_stated,
                 "M is (ε,δ)-DP iff the DP inequality holds for every deterministic adversary.", "",
                 "Named: the engine's δ(λ) equals the maximum over all enumerated deterministic trees. Random: "
                 "rational mixtures of random decision trees, with their coins visible and hidden, have exact H_λ "
                 "(hidden ≤ visible ≤ engine) and Φ₂ ≤ the engine's values.",
                 "MP, MA, R2 (D.16); random VW2 and random table games.", "",
                 {"exactdp::view_distributions()", "exactdp::worst_case_hockey_stick()", "exactdp::worst_case_renyi_moment()"},
                 src, check_l1, ""});
  out.push_back({"VW21-L2", "ordered composition suffices", "VW21 Lemma 2 (indices 0..k−1 meant)", Kind::positive,
                 Status::corrected, "ConComp(M₀..M_{k−1}) is (ε,δ)-DP if ConComp_order(M₀^∅..M_{k−1}^∅) is.",
                 "Null-query extension M^∅ (VW21 D8): the null query \"∅\" is answered by the latest real answer (⊥ before any). "
                 "Ordered composition (D7): message t goes to component t mod k. Horizon k·ΣT_i, as the catalogue says suffices.",
                 "Both systems are built as ordinary mechanisms (compose/'s ConcurrentMechanism; the round-robin order is an "
                 "automaton verifier over the null-extended components) and the engine computes both exact profiles. The lemma is "
                 "ConComp ≤ ordered at every λ; equality is expected too (null answers are functions of the history, a "
                 "post-processing), so the check asserts equality of the two PL profiles, per direction.",
                 "R2 ⊗ R2 (ordered horizon 8); MP ⊗ R2 and MP ⊗ MP (C1) from the default budget on; random pairs of random "
                 "one-round systems.",
                 "", {"exactdp::ConcurrentMechanism", "exactdp::AutomatonVerifier", "exactdp::concurrent()", "exactdp::worst_case_profile()"},
                 src, check_l2, ""});
  out.push_back({"VW21-L3", "pure triangle inequality", "VW21 Lemma 3", Kind::positive, Status::as_stated,
                 "X ≈_{ε₁,0} Y and Y ≈_{ε₂,0} Z imply X ≈_{ε₁+ε₂,0} Z.", "",
                 "Exact pointwise ratios on random triples of distributions (both directions; ∞ allowed).",
                 "Random triples.", "", {"exactdp::max_ratio()"}, src, check_l3, ""});
  out.push_back({"VW21-T3.1", "basic concurrent composition, pure", "VW21 Thm 3.1", Kind::positive, Status::as_stated,
                 "If each IM M_i is (ε_i,0)-DP then ConComp is (Σε_i, 0)-DP.", nim_note,
                 "X-PURE-PRODUCT: the engine's pure level of the composition equals the product of the components' "
                 "pure levels, per direction (hence the composition is (Σε_i, 0)-DP).",
                 "RR₂ ⊗ RR₃ (F1: 6); C1 = MP ⊗ MP (E.7: 64), R1 = MP ⊗ R2 (32); random pure pairs; random pairs of random pure "
                 "small interactive systems.", "", {"exactdp::worst_case_ratio()", "exactdp::max_ratio()"}, src,
                 check_t31, ""});
  out.push_back({"VW21-T4.1", "approximate concurrent composition, weaker bound", "VW21 Thm 4.1 = Thm 1.4 (σ over k indices)",
                 Kind::positive, Status::corrected,
                 "If each M_i is (ε_i,δ_i)-DP then ConComp is (Σε_i, δ_g)-DP with δ_g = min_σ Σ_i (Π_{j<i} λ_{σ(j)})·δ_{σ(i)}.",
                 nim_note,
                 "Engine δ at λ_g = Πλ_i ≤ δ_g; also δ_g ≥ Σδ_i ≥ δ_opt(Πλ_i); E.4 values exactly (including the other order).",
                 "E.4 (three rows); C1 = MP ⊗ MP at (2, 2/5), (4, 4/15); MP ⊗ R2; H8 = Mir_{1/2} ⊗ M_{1/10} at (2, 1/4), (1, 1/10) "
                 "(δ_g = 7/20, engine 13/40); random noninteractive and random interactive pairs, each component with its exact "
                 "δ at a grid λ.", "",
                 {"exactdp::concurrent()", "exactdp::vw_concurrent_bound()", "exactdp::vw_delta_for_order()", "exactdp::basic_composition()",
                  "exactdp::optimal_composition_delta()", "exactdp::worst_case_hockey_stick()"},
                 src, check_t41, ""});
  out.push_back({"VW21-T5.2", "pure IMs are post-processings of RR_ε", "VW21 Thm 5.2 = Thm 1.5", Kind::reduction,
                 Status::corrected,
                 "If M is an (ε,0)-DP IM, then for every adjacent x₀, x₁ there is an interactive T, independent of the "
                 "adversary, with View(A, M(x_b)) ≡ View(A, T(RR_ε(b))) for every A and b.",
                 "The proof's second mixture weight is Pr[RR(0) = 1] (equal to Pr[RR(1) = 0]).",
                 "VW-SIM (B.8, reduce/) at γ = the exact pure level; verify_simulator checks every conditional is a "
                 "probability vector and the mixture identity Σ_c Pr[RR(b) = c]·T^c(h) = M^b(h) on every history; below "
                 "the pure level the construction must be rejected.",
                 "MP (γ = 8), R2 (γ = 4), MP at γ = 4 (rejected); random VW2 systems.", "",
                 {"exactdp::vw_simulator()", "exactdp::likelihood_tree()", "exactdp::verify_simulator()", "exactdp::worst_case_ratio()"},
                 src, check_t52, ""});
  out.push_back({"VW21-L5", "PrivLoss reduction", "VW21 Lemma 5", Kind::positive, Status::corrected,
                 "For (ε_i,0)-DP IMs, PrivLoss(ConComp(M_i), δ_g) ≤ PrivLoss(Comp(RR_{ε_i}), δ_g), with equality for RR components.",
                 "The paper's equality holds as a worst case over mechanisms, not per instance. " + nim_note,
                 "The engine's exact least λ (B.6) of the composition ≤ OPT-COMP's least λ_g with δ_i = 0.",
                 "RR₃ × 3 at δ_g = 1/10 (E.3: 103/5, equality); C1 at δ_g ∈ {0, 1/100, 1/10, 1/4}, MP ⊗ R2 at 1/10; random pure "
                 "pairs; random pairs of random pure small interactive systems.", "",
                 {"exactdp::worst_case_least_lambda()", "exactdp::optimal_composition_least_lambda()"}, src, check_l5, ""});
  out.push_back({"VW21-T5.4", "optimal concurrent composition, pure", "VW21 Thm 5.4 = Cor 1", Kind::positive,
                 Status::as_stated, "For (ε_i,0)-DP IMs, ConComp is (ln λ_g, δ_RR(λ_g))-DP for every λ_g.", nim_note,
                 "The engine's exact profile (B.3) ≤ δ_RR at every breakpoint of either (both convex PL, so this is "
                 "pointwise everywhere).",
                 "C1 = MP ⊗ MP with the whole E.7 table (λ ∈ {1, 2, 3, 8, 9, 12, 16, 32, 64}), by reduce/'s concurrent_product and "
                 "by compose/'s concurrent(); R1 = MP ⊗ R2; random pure pairs; random pairs of random pure small interactive systems.",
                 "", {"exactdp::concurrent()", "exactdp::worst_case_profile()", "exactdp::optimal_composition_profile()"}, src,
                 check_t54, ""});
  out.push_back({"VW21-S6", "the 2-round experiment", "VW21 §6", Kind::reduction, Status::as_stated,
                 "Every sampled 2-round, 1-bit mechanism (VW2) at (PrivLoss(δ), δ) admits an interactive post-processing "
                 "of RR_{ε,δ} (conjectured there for all approximate-DP IMs; proved by LYU22 T3).",
                 "Instances with PrivLoss ∈ {0, ∞} at their δ are skipped, as §6 does (LYU-DECOMP needs λ > 1).",
                 "For each VW2 system and δ: the exact e^{PrivLoss(δ)} = λ* from the engine's PL profile (B.6); LYU-DECOMP at "
                 "(λ*, δ) builds a simulator that verify_simulator accepts (mixture identity at every history); the exact LP of "
                 "B.10 (cddlib, a second construction) is feasible there with a verified simulator, and infeasible "
                 "(Farkas-certified) at λ′ = λ* − (λ* − 1)/8, where LYU-DECOMP must refuse as well: λ* is exactly the threshold.",
                 "MA at δ = 1/10 and 1/5 (E.5: λ* = 31/10, 11/5); MP at δ = 1/100 (157/20) and 0 (8); random VW2 systems "
                 "(denominators ≤ 12, zero entries allowed) at δ ∈ {0, 1/100, 1/50, 1/20, 1/10} (E.6).",
                 "", {"exactdp::worst_case_least_lambda()", "exactdp::lyu_decomposition()", "exactdp::lp_simulator()", "exactdp::verify_simulator()"},
                 src, check_s6, ""});
}

}  // namespace exactdp::proofs
