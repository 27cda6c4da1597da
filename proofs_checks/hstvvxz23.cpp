// THEOREMS.md C.4 — Haney–Shoemate–Tian–Vadhan–Vyrros–Xu–Zhang 2023 (concurrent filters and
// odometers), with the filter facts BG-RRUV16-BASIC, BG-GDP-FILTER, X-FILTER-HALT and X-RDP-CURVE.
//
// The checks play the combinators of compose/ (concurrent, postprocess, extended_concurrent,
// filter_composition, odometer_truncated) against the game engine. Every expected value comes from
// THEOREMS.md E.9/E.10 or from an independent route named at the check: a second construction of
// the same view (Algorithm 8's simulation by concrete states, an explicitly flattened table,
// the Algorithm 12 routing through a post-processor, a replayed decision tree), a closed form, or
// the theorem's right-hand side computed without the engine (tensor of envelopes, budgets).
// Instances, fixtures and view tools are in hstvvxz23_support.*.
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/compose/postprocess.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "proofs_checks/hstvvxz23_support.hpp"
#include "proofs_checks/support.hpp"

#include <map>
#include <set>
#include <variant>

namespace exactdp::proofs {
namespace {

using namespace filters;
using Masses = std::vector<std::pair<Rational, Rational>>;

// ------------------------------------------------------------------ small helpers

std::string pair_str(const Rational& a, const Rational& b) { return "(" + str(a) + ", " + str(b) + ")"; }

/// The λ at which a profile is compared: the breakpoints of both directions of @p a and @p b,
/// plus 0 and 1.
std::vector<Rational> comparison_points(const std::vector<const PiecewiseLinear*>& curves) {
  std::set<Rational> pts{Rational(0), Rational(1)};
  for (const auto* c : curves)
    for (const auto& x : c->breakpoints()) pts.insert(x);
  return {pts.begin(), pts.end()};
}

/// A random menu entry that is an interactive mechanism with certified parameters (δ = the
/// engine's δ(λ), moment = the engine's sup Φ_α): MP, MA, sticky RR_u, IRR_{u,δ}, the choice IM
/// C, or a random finite mechanism of depth 1–2.
MenuEntry random_im_entry(Rng& rng, const std::string& name, unsigned long alpha = 2) {
  const Rational lambda = lambda_grid()[static_cast<std::size_t>(rng.range(1, 4))];
  switch (rng.range(0, 6)) {
    case 0: return certified_entry(name, mp_game(), lambda, alpha);
    case 1: return certified_entry(name, ma_game(), lambda, alpha);
    case 2: return certified_entry(name, library::sticky_randomized_response(lambda_grid()[static_cast<std::size_t>(rng.range(1, 4))], 2), lambda, alpha);
    case 3: return certified_entry(name, library::interactive_randomized_response(q(2), std::vector<Rational>{q(1, 20), q(1, 10)}[rng.range(0, 1)]), lambda, alpha);
    case 4: return certified_entry(name, choice_im(), lambda, alpha);
    default: return certified_entry(name, random_finite_game(rng, 2, static_cast<unsigned>(rng.range(1, 2))), lambda, alpha);
  }
}

/// A random menu of @p size interactive entries.
std::vector<MenuEntry> random_im_menu(Rng& rng, std::size_t size, unsigned long alpha = 2) {
  std::vector<MenuEntry> menu;
  for (std::size_t j = 0; j < size; ++j) menu.push_back(random_im_entry(rng, "E" + std::to_string(j), alpha));
  return menu;
}

/// A random menu of one-shot RR_{λ,δ} (noninteractive) entries with their exact parameters.
std::vector<MenuEntry> random_rr_menu(Rng& rng, std::size_t size, bool pure) {
  std::vector<MenuEntry> menu;
  const std::vector<Rational> lambdas{q(3, 2), q(2), q(3)}, deltas{q(0), q(1, 10), q(1, 20)};
  for (std::size_t j = 0; j < size; ++j) {
    const Rational l = lambdas[static_cast<std::size_t>(rng.range(0, 2))];
    const Rational d = pure ? Rational(0) : deltas[static_cast<std::size_t>(rng.range(0, 2))];
    menu.push_back(entry("R" + std::to_string(j), one_shot_rr(l, d), l, d));
  }
  return menu;
}

/// The menu with every entry replaced by the canonical pair of its symmetrised envelope (T3.3's
/// (Y, Y′)); parameters unchanged.
std::vector<MenuEntry> canonical_menu(const std::vector<MenuEntry>& menu) {
  std::vector<MenuEntry> out;
  for (const auto& e : menu) out.push_back(MenuEntry{e.name, canonical_pair_game(e.name, e.game), e.parameters});
  return out;
}

/// Launch slots of the random filter instances: 2 at the small budget, 3 beyond.
std::size_t slots(const CheckContext& ctx) { return ctx.budget().horizon_cap() >= 4 ? 3 : 2; }

LaunchOptions launch_options(std::size_t instances, unsigned horizon) {
  LaunchOptions o;
  o.max_instances = instances;
  o.horizon = horizon;
  return o;
}

/// A parameter-only rule refined by a seeded hash of the parameter sequence: continue iff @p base
/// continues and the hash of (salt, λ₁, δ₁, …, proposed) is not ≡ 0 mod 3. Deterministic and
/// order-independent, so it is one fixed function of the parameters (THEOREMS.md A.9).
ContinuationRule hashed_rule(std::uint64_t salt, ContinuationRule base) {
  return [salt, base](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (base && !base(launched, proposed)) return false;
    std::uint64_t h = 1469598103934665603ull ^ salt;
    auto mix = [&](const std::string& s) {
      for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xff) * 1099511628211ull;
    };
    for (const auto& d : launched) mix(str(d.lambda) + "/" + str(d.delta));
    mix(str(proposed.lambda) + "/" + str(proposed.delta));
    return h % 3 != 0;
  };
}

// ------------------------------------------------------------------ L2.3, L4.8 (unchanged)

void check_l23(CheckContext& ctx) {
  // Mixtures of deterministic adversaries (coins hidden) have trade-off curves above the engine's
  // envelope (B.7) in both orders.
  const unsigned cap = ctx.budget().horizon_cap();
  auto one = [&](const Game& g, unsigned h, bool named) {
    EngineOptions o;
    o.horizon = h;
    const auto env = tradeoff_envelope(worst_case_profile(g, o).profile);
    const long n = ctx.rng().range(2, 3);
    std::map<View, std::pair<Rational, Rational>> hidden;
    std::string desc = "mixture of " + std::to_string(n) + " random trees, equal weights";
    for (long i = 0; i < n; ++i) {
      const auto v = view_distributions(g, random_adversary(g, h, ctx.rng()), h);
      for (const auto& [view, p] : v.world0) hidden[view].first += p / n;
      for (const auto& [view, p] : v.world1) hidden[view].second += p / n;
    }
    Masses m;
    for (const auto& [view, pq] : hidden) m.push_back(pq);
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    const bool ok = TradeOff::of(l).dominates(env.world0_vs_world1) && TradeOff::of(l.swapped()).dominates(env.world1_vs_world0);
    if (named)
      ctx.instance(g.name + ": " + desc + ", T ≥ envelope in both orders", ok ? "yes" : "no", ok, h);
    else
      ctx.random_instance(ok, g.name + ", horizon " + std::to_string(h) + ", " + desc + ": trade-off below the envelope", h);
  };
  one(mp_game(), 2, true);
  one(ma_game(), 2, true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, cap));
    one(ctx.rng().coin() ? random_vw2_game(ctx.rng()) : random_table_game(ctx.rng(), 3, h), ctx.rng().coin() ? 2u : h, false);
  }
}

void check_l48(CheckContext& ctx) {
  // Sanity check of the limit lemma: the sup moment of the view prefix is non-decreasing in the
  // prefix length (horizon t versus t + 1).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned cap = ctx.budget().horizon_cap();
    const Game g = random_table_game(ctx.rng(), 3, cap);
    ExtendedRational last_f = 1, last_b = 1;
    std::string bad;
    for (unsigned t = 1; t <= cap; ++t) {
      EngineOptions o;
      o.horizon = t;
      const auto r = worst_case_renyi_moment(g, 2, o);
      if (r.forward < last_f || r.backward < last_b) bad += " decreases at t = " + std::to_string(t) + ";";
      last_f = r.forward;
      last_b = r.backward;
    }
    ctx.random_instance(bad.empty(), "random game:" + bad, cap);
  }
}

// ------------------------------------------------------------------ T1.8

/// The tensor bound of T1.8 for a concurrent composition: per direction, the tensor of the
/// components' exact envelopes, turned into the dual profile (T(V₀,V₁) ≥ f ⟺ H_λ(V₁‖V₀) ≤ δ_f(λ)).
struct TensorBound {
  PiecewiseLinear forward, backward;  // bounds on H_λ(V₀‖V₁) and H_λ(V₁‖V₀)
};
TensorBound tensor_bound(const std::vector<Game>& components) {
  TradeOff f01 = TradeOff::identity(), f10 = TradeOff::identity();
  for (const Game& c : components) {
    const auto env = tradeoff_envelope(worst_case_profile(c).profile);
    f01 = tensor(f01, env.world0_vs_world1);
    f10 = tensor(f10, env.world1_vs_world0);
  }
  return {f10.to_profile(), f01.to_profile()};
}

/// Compares the engine's concurrent profile with the tensor bound at every breakpoint of the bound
/// (X-DUALITY-CHECK: the engine's profile is convex) and, as a second test, as whole functions.
/// Returns the violations found ("" when none) and whether the bound is attained everywhere.
std::pair<std::string, bool> compare_with_tensor(const PrivacyProfile& engine, const TensorBound& bound) {
  std::string bad;
  for (const auto& x : comparison_points({&bound.forward, &bound.backward})) {
    if (engine.forward()(x) > bound.forward(x)) bad += " λ = " + str(x) + " forward " + str(engine.forward()(x)) + " > " + str(bound.forward(x)) + ";";
    if (engine.backward()(x) > bound.backward(x)) bad += " λ = " + str(x) + " backward " + str(engine.backward()(x)) + " > " + str(bound.backward(x)) + ";";
  }
  if (bad.empty() && !(below(engine.forward(), bound.forward) && below(engine.backward(), bound.backward)))
    bad = " above the bound between breakpoints (should be impossible for a convex profile);";
  return {bad, engine.forward() == bound.forward && engine.backward() == bound.backward};
}

void check_t18(CheckContext& ctx) {
  // (1) Noninteractive components: the envelope of the product equals the tensor (tight).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Masses a = random_masses(ctx.rng(), 3, 4), b = random_masses(ctx.rng(), 3, 4);
    const auto ea = tradeoff_envelope(worst_case_profile(pair_game("a", a)).profile);
    const auto eb = tradeoff_envelope(worst_case_profile(pair_game("b", b)).profile);
    const auto ep = tradeoff_envelope(worst_case_profile(pair_game("a ⊗ b", product_masses({a, b}))).profile);
    const TradeOff bound = tensor(ea.world0_vs_world1, eb.world0_vs_world1);
    const bool ok = ep.world0_vs_world1.dominates(bound) && bound.dominates(ep.world0_vs_world1);
    ctx.random_instance(ok, "components " + describe_masses(a) + ", " + describe_masses(b) +
                                ": envelope of the composition differs from the tensor bound", 2);
  }
  // (2) Interactive components composed concurrently (compose/concurrent: every interleaving).
  {
    // F1 (E.9): sticky RR₂ and sticky RR₃, depth 3: the hand table, and the bound is attained.
    const Game f1 = concurrent({library::sticky_randomized_response(q(2), 2), library::sticky_randomized_response(q(3), 2)});
    const auto prof = worst_case_profile(f1, at_horizon(3)).profile;
    std::string got;
    bool table_ok = true;
    const std::vector<std::pair<long, Rational>> table{{1, q(1, 2)}, {2, q(1, 3)}, {3, q(1, 4)}, {4, q(1, 6)}, {5, q(1, 12)}, {6, q(0)}};
    for (const auto& [l, v] : table) {
      got += str(prof.delta(Rational(l))) + " ";
      table_ok = table_ok && prof.forward()(Rational(l)) == v && prof.backward()(Rational(l)) == v;
    }
    ctx.instance("F1: ConComp(sticky RR₂, sticky RR₃), depth 3: sup H_λ at λ = 1..6 (E.9: 1/2 1/3 1/4 1/6 1/12 0)", got, table_ok, 3);
    const auto [bad, tight] = compare_with_tensor(prof, tensor_bound({library::sticky_randomized_response(q(2), 2), library::sticky_randomized_response(q(3), 2)}));
    ctx.instance("F1: engine ≤ tensor bound f_RR₂ ⊗ f_RR₃ at its breakpoints, and equal (tight)", bad.empty() ? (tight ? "equal" : "below, not equal") : bad,
                 bad.empty() && tight, 3);
  }
  {
    // F2 (E.9): one-shot RR₂ with the choice IM C: sup H₂ = 4/9 = the tensor bound (attained by
    // querying RR₂ first and choosing C's query from its answer).
    const Game f2 = concurrent({one_shot_rr(q(2)), choice_im()});
    const auto prof = worst_case_profile(f2).profile;
    const TensorBound bound = tensor_bound({one_shot_rr(q(2)), choice_im()});
    expect_equal(ctx, "F2: ConComp(RR₂, C): sup H₂ (E.9: 4/9)", prof.delta(q(2)), q(4, 9), 2);
    expect_equal(ctx, "F2: tensor bound δ_{f_RR₂ ⊗ f_C}(2) (E.9: (2/3)(1/2) + (1/3)(1/3) = 4/9)", std::max(bound.forward(q(2)), bound.backward(q(2))), q(4, 9), 2);
    const auto [bad, tight] = compare_with_tensor(prof, bound);
    ctx.instance("F2: engine ≤ tensor bound at its breakpoints", bad.empty() ? (tight ? "equal everywhere" : "below") : bad, bad.empty(), 2);
    // E.9: if C must be queried first the adversary cannot use RR₂'s answer, and sup H₂ = 1/3
    // (an explicit automaton verifier: round 1 offers C's queries, round 2 RR₂'s)
    const auto& mech = dynamic_cast<const ConcurrentMechanism&>(*f2.mechanism);
    std::vector<std::vector<AutomatonVerifier::Edge>> edges(3);
    for (MessageId m = 0; m < mech.component(1).messages().size(); ++m) edges[0].push_back({MessagePair{mech.message_of(1, m), mech.message_of(1, m)}, 1});
    for (MessageId m = 0; m < mech.component(0).messages().size(); ++m) edges[1].push_back({MessagePair{mech.message_of(0, m), mech.message_of(0, m)}, 2});
    Game c_first = f2;
    c_first.verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"C next", "RR2 next", "done"}, 0, edges);
    expect_equal(ctx, "F2: C queried first (fixed order): sup H₂ (E.9: 1/3 < 4/9)", worst_case_hockey_stick(c_first, q(2)).delta(), q(1, 3), 2);
  }
  {
    // C1 (E.7): MP ⊗ MP; its δ(2) per direction is the hand value, and the bound holds.
    const Game c1 = concurrent({mp_game(), mp_game()});
    const auto prof = worst_case_profile(c1).profile;
    ctx.instance("C1: MP ⊗ MP, (sup H₂ forward, backward) (E.7: (982/2025, 118/225))", pair_str(prof.forward()(q(2)), prof.backward()(q(2))),
                 prof.forward()(q(2)) == q(982, 2025) && prof.backward()(q(2)) == q(118, 225), 4);
    const auto [bad, tight] = compare_with_tensor(prof, tensor_bound({mp_game(), mp_game()}));
    ctx.instance("C1: engine ≤ tensor bound f_MP ⊗ f_MP at its breakpoints", bad.empty() ? (tight ? "equal" : "below") : bad, bad.empty(), 4);
  }
  // (3) Random pairs of random finite-communication mechanisms.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long dmax = std::max(2u, ctx.budget().horizon_cap() / 2);
    const unsigned d1 = static_cast<unsigned>(ctx.rng().range(1, dmax)), d2 = static_cast<unsigned>(ctx.rng().range(1, dmax));
    const Game a = random_finite_game(ctx.rng(), 2, d1), b = random_finite_game(ctx.rng(), 2, d2);
    const auto prof = worst_case_profile(concurrent({a, b})).profile;
    const auto [bad, tight] = compare_with_tensor(prof, tensor_bound({a, b}));
    ctx.random_instance(bad.empty(), "random finite mechanisms of depths " + std::to_string(d1) + ", " + std::to_string(d2) + ":" + bad, d1 + d2);
  }
}

// ------------------------------------------------------------------ T2.17

/// Algorithm 8/9 of HSTVVXZ23, by concrete states: the adversary A′ runs A and P inside itself
/// against M. Enumerates every run in world b (P's coins and M's coins), and returns A′'s view
/// (P's coin outcomes and M's answers, in order) with A's view (P's left answers) beside it.
struct Alg8Run {
  std::map<std::vector<std::string>, std::vector<std::string>> outer_of_inner;  // g: A′ view ↦ A view
  ViewLaw inner, outer;
  bool g_is_function = true;
};
void alg8(const Game& pm, const Adversary& a, const PostProcessor& p, const InteractiveMechanism& m, int b, StateId m_start,
          unsigned rounds, Alg8Run& run) {
  struct Frame {
    std::size_t node;
    std::string ps;
    StateId ms;
    unsigned rounds;
    Rational w;
    std::vector<std::string> inner, outer;
  };
  // record a finished run
  auto finish = [&](const Frame& f) {
    run.inner[f.inner][std::size_t(b)] += f.w;
    run.outer[f.outer][std::size_t(b)] += f.w;
    auto [it, fresh] = run.outer_of_inner.try_emplace(f.inner, f.outer);
    if (!fresh && it->second != f.outer) run.g_is_function = false;
  };
  // P answers one left message: explore P's coins and M's answers until P speaks left.
  std::function<void(const Frame&, const std::string&, Port, const std::string&, unsigned)> serve;
  std::function<void(const Frame&)> play;
  serve = [&](const Frame& f, const std::string& ps, Port from, const std::string& msg, unsigned inner_steps) {
    const auto outs = p.step(ps, from, msg);
    for (std::size_t i = 0; i < outs.size(); ++i) {
      const auto& o = outs[i];
      if (sgn(o.probability) == 0) continue;
      Frame g = f;
      g.w *= o.probability;
      g.inner.push_back("coin" + std::to_string(i));
      if (o.to == Port::left) {
        g.outer.push_back(o.message);
        g.ps = o.next;
        const auto& node = a.nodes().at(f.node);
        std::optional<std::size_t> child;
        for (const auto& [ans, c] : node.next)
          if (pm.mechanism->answer_name(ans) == o.message) child = c;
        if (!child || f.rounds == 1) {
          finish(g);
          continue;
        }
        g.node = *child;
        g.rounds = f.rounds - 1;
        play(g);
        continue;
      }
      if (inner_steps >= p.max_inner_steps) throw Error("alg8", "max_inner_steps", std::to_string(inner_steps), "post-processor does not answer");
      for (const auto& t : m.step(g.ms, *m.message_id(o.message))) {
        Frame h = g;
        h.w *= t.probability;
        h.ms = t.next;
        h.inner.push_back(o.message + "→" + m.answer_name(t.answer));
        serve(h, o.next, Port::right, m.answer_name(t.answer), inner_steps + 1);
      }
    }
  };
  play = [&](const Frame& f) {
    const auto& node = a.nodes().at(f.node);
    if (!node.send || f.rounds == 0) {
      finish(f);
      return;
    }
    serve(f, f.ps, Port::left, pm.mechanism->messages().at(node.send->world0), 0);
  };
  play(Frame{0, p.initial, m_start, rounds, Rational(1), {}, {}});
}

/// Runs Algorithm 8/9 in both worlds and compares g(View(A′↔M)) with the engine's view law of
/// A ↔ P∘M; also checks H_λ(A's view) ≤ H_λ(A′'s view) ≤ sup_A″ H_λ(M at @p m_horizon) on the λ grid.
std::string compare_alg8(const Game& m, const PostProcessor& p, const Game& pm, const Adversary& a, unsigned rounds, unsigned m_horizon,
                         const PrivacyProfile& m_profile) {
  Alg8Run run;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, w] : m.initial[std::size_t(b)]) {
      if (w != 1) throw Error("compare_alg8", "initial", "mixed", "point-mass initial laws only");
      alg8(pm, a, p, *m.mechanism, b, s, rounds, run);
    }
  const ViewLaw engine = view_law(pm, a, rounds);
  std::string bad;
  if (!run.g_is_function) bad += " A's view is not a function of A′'s view;";
  if (run.outer != engine) bad += " view laws differ: Alg 8/9 " + describe_law(run.outer) + " vs engine " + describe_law(engine) + ";";
  const PrivacyLoss lo = loss_of(run.outer), li = loss_of(run.inner);
  for (const auto& lambda : lambda_grid()) {
    const Rational ho = std::max(hockey_stick(lo, lambda), hockey_stick(lo.swapped(), lambda));
    const Rational hi = std::max(hockey_stick(li, lambda), hockey_stick(li.swapped(), lambda));
    if (ho > hi) bad += " λ = " + str(lambda) + ": H(A view) " + str(ho) + " > H(A′ view) " + str(hi) + ";";
    if (hi > m_profile.delta(lambda))
      bad += " λ = " + str(lambda) + ": A′ (a randomised adversary of " + std::to_string(m_horizon) + " rounds) reaches " + str(hi) +
             " > sup over M " + str(m_profile.delta(lambda)) + ";";
  }
  return bad;
}

void check_t217(CheckContext& ctx) {
  // F3 (E.9): M = two fresh RR₃ answers; sup H₃(V₁‖V₀) = 3/8; AND attains it in one left
  // message; XOR erases the input.
  const Game m = fresh_rr3();
  const auto m1 = worst_case_profile(m, at_horizon(2)).profile;
  expect_equal(ctx, "F3: M = fresh RR₃, two queries: sup H₃(V₁‖V₀) (E.9: 9/16 − 3·1/16 = 3/8)", m1.backward()(q(3)), q(3, 8), 2);
  for (const bool use_and : {true, false}) {
    const PostProcessor p = ask_twice(use_and);
    Game pm = postprocess(m, p);
    pm.horizon = 1;
    const auto prof = worst_case_profile(pm, at_horizon(1)).profile;
    if (use_and)
      expect_equal(ctx, "F3: AND∘M, one left message: sup H₃(V₁‖V₀) (E.9: 3/8, attained)", prof.backward()(q(3)), q(3, 8), 2);
    else
      expect_equal(ctx, "F3: XOR∘M: sup H₁ (E.9: output independent of the input, 0)", prof.delta(q(1)), q(0), 2);
    ctx.instance(std::string("F3: ") + (use_and ? "AND" : "XOR") + "∘M (1 round) ≤ M (2 rounds), both directions, every λ",
                 profile_below(prof, m1) ? "yes" : "no", profile_below(prof, m1), 2);
    // the view identity of Algorithms 7–9 for every deterministic adversary of 1 and 2 rounds
    const auto m2 = worst_case_profile(m, at_horizon(4)).profile;
    std::string bad;
    std::size_t count = 0;
    for (unsigned h = 1; h <= 2; ++h)
      for (const Adversary& a : all_adversaries(pm, h)) {
        bad += compare_alg8(m, p, pm, a, h, 2 * h, h == 1 ? m1 : m2);
        ++count;
      }
    ctx.instance(std::string("F3: View(A↔") + (use_and ? "AND" : "XOR") + "∘M) = g(View(A′↔M)) (Alg 8/9) for all " + std::to_string(count) +
                     " deterministic A of 1–2 rounds",
                 bad.empty() ? "equal" : bad, bad.empty(), 4);
  }
  // H17 (E.10): random post-processors (≤ 2 calls to M per left message) of random mechanisms.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    const Game mm = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), 2 * h);
    const PostProcessor p = random_post_processor(ctx.rng());
    Game pm = postprocess(mm, p);
    pm.horizon = h;
    const auto before = worst_case_profile(mm, at_horizon(2 * h)).profile;
    const auto after = worst_case_profile(pm, at_horizon(h)).profile;
    std::string bad;
    if (!profile_below(after, before)) bad += " profile of P∘M above M's;";
    const auto r_before = worst_case_renyi_moment(mm, 2, at_horizon(2 * h)), r_after = worst_case_renyi_moment(pm, 2, at_horizon(h));
    if (r_before.forward < r_after.forward || r_before.backward < r_after.backward) bad += " Φ₂ of P∘M above M's;";
    bad += compare_alg8(mm, p, pm, random_adversary(pm, h, ctx.rng()), h, 2 * h, before);
    ctx.random_instance(bad.empty(), "random M (horizon " + std::to_string(2 * h) + "), random P, " + std::to_string(h) + " left rounds:" + bad, 2 * h);
  }
}

// ------------------------------------------------------------------ C2.18

/// Compares the view laws of every deterministic adversary of 1..@p horizon rounds against N
/// with those of the same adversary (by message names) against P∘M. Returns "" when all equal.
std::string views_equal_for_all(const Game& n, const Game& pm, unsigned horizon, std::size_t& count) {
  std::string bad;
  for (unsigned h = 1; h <= horizon; ++h)
    for (const Adversary& a : all_adversaries(n, h)) {
      ++count;
      const Adversary b = replay(n, a, pm, [](const std::vector<std::string>&, const std::string& m) { return std::optional<std::string>(m); }, h);
      const ViewLaw ln = view_law(n, a, h), lp = view_law(pm, b, h);
      if (ln != lp) {
        bad += " adversary of " + std::to_string(h) + " rounds: N " + describe_law(ln) + " vs P∘M " + describe_law(lp) + ";";
        if (bad.size() > 2000) return bad;
      }
    }
  return bad;
}

/// N flattened from M by hand: N's message m is M's message σ(m), N's answer is τ(M's answer).
/// Built as a TableMechanism over M's reachable states (independent of compose/postprocess).
Game relabelled_table(const Game& m, const std::map<std::string, std::string>& sigma, const std::map<std::string, std::string>& tau) {
  using Row = TableMechanism::Row;
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  std::set<StateId> seen;
  std::vector<StateId> todo;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : m.initial[std::size_t(b)])
      if (seen.insert(s).second) todo.push_back(s);
  auto sname = [](StateId s) { return "s" + std::to_string(s); };
  while (!todo.empty()) {
    const StateId s = todo.back();
    todo.pop_back();
    TableMechanism::StateTable t;
    for (const auto& [nm, mm] : sigma) {
      std::vector<Row> rows;
      for (const auto& tr : m.mechanism->step(s, *m.mechanism->message_id(mm))) {
        rows.push_back({tr.probability, tau.at(m.mechanism->answer_name(tr.answer)), sname(tr.next)});
        if (seen.insert(tr.next).second) todo.push_back(tr.next);
      }
      t.rules[nm] = rows;
    }
    states.push_back({sname(s), t});
  }
  std::vector<std::string> alphabet;
  for (const auto& [nm, mm] : sigma) alphabet.push_back(nm);
  auto mech = std::make_shared<TableMechanism>("N", states, alphabet);
  return static_game("N", mech, {mech->state_id(sname(m.initial[0].front().first)), mech->state_id(sname(m.initial[1].front().first))}, m.horizon);
}

void check_c218(CheckContext& ctx) {
  // Named triples (N, M, P) with N built directly and P∘M through compose/postprocess.
  auto conclude = [&](const std::string& name, const Game& n, const Game& m, const Game& pm, unsigned nh, unsigned mh) {
    std::size_t count = 0;
    const std::string bad = views_equal_for_all(n, pm, nh, count);
    ctx.instance(name + ": View(A↔N) = View(A↔P∘M) for all " + std::to_string(count) + " deterministic A up to " + std::to_string(nh) + " rounds",
                 bad.empty() ? "equal" : bad, bad.empty(), nh);
    // the corollary's conclusion: N is as private as M (engine on both)
    const auto pn = worst_case_profile(n, at_horizon(nh)).profile, pmm = worst_case_profile(m, at_horizon(mh)).profile;
    ctx.instance(name + ": hence sup_A H_λ(N) ≤ sup_A H_λ(M) at every λ (engine)", profile_below(pn, pmm) ? "yes" : "no", profile_below(pn, pmm), mh);
  };
  {
    // N answers each "go" with AND of two RR₃(b): Pr[1] = 1/16 (b = 0), 9/16 (b = 1) (hand-derived)
    using Row = TableMechanism::Row;
    std::vector<std::pair<std::string, TableMechanism::StateTable>> s{
        {"b0", {false, {{"go", {Row{q(15, 16), "0", "b0"}, Row{q(1, 16), "1", "b0"}}}}}},
        {"b1", {false, {{"go", {Row{q(7, 16), "0", "b1"}, Row{q(9, 16), "1", "b1"}}}}}}};
    auto mech = std::make_shared<TableMechanism>("AND of two RR3", s);
    const Game n = static_game("AND of two RR3", mech, {0, 1}, 2);
    Game pm = postprocess(fresh_rr3(), ask_twice(true));
    conclude("F3: N = AND of two RR₃, M = fresh RR₃, P = ask twice, AND", n, fresh_rr3(), pm, 2, 4);
  }
  {
    // N = sticky RR₃ (2 answers), M = one-shot RR₃, P asks once and repeats the answer.
    PostProcessorTable t;
    t.name = "repeat";
    t.initial = "s";
    t.left_messages = {"q"};
    t.rules["s"]["L"]["*"] = {{Rational(1), "w", Port::right, "q"}};
    for (const std::string a : {"0", "1"}) {
      t.rules["w"]["R"][a] = {{Rational(1), "r" + a, Port::left, a}};
      t.rules["r" + a]["L"]["*"] = {{Rational(1), "h", Port::left, a}};
    }
    t.rules["h"]["L"]["*"] = {{Rational(1), "h", Port::left, halt_answer}};
    const Game m = one_shot_rr(q(3));
    Game pm = postprocess(m, post_processor_from_table(std::move(t)));
    conclude("sticky RR₃ = repeat∘RR₃", library::sticky_randomized_response(q(3), 2), m, pm, 3, 1);
  }
  {
    // N = IRR_{2,1/10} (D.2), M = one-shot RR_{ln 2,1/10}: P reports the leak flag, then the bit.
    PostProcessorTable t;
    t.name = "flag then bit";
    t.initial = "s";
    t.left_messages = {"q"};
    t.rules["s"]["L"]["*"] = {{Rational(1), "w", Port::right, "q"}};
    for (const std::string b : {"0", "1"}) {
      t.rules["w"]["R"]["leak" + b] = {{Rational(1), "k" + b, Port::left, "leak"}};
      t.rules["w"]["R"][b] = {{Rational(1), "k" + b, Port::left, "noleak"}};
      t.rules["k" + b]["L"]["*"] = {{Rational(1), "h", Port::left, b}};
    }
    t.rules["h"]["L"]["*"] = {{Rational(1), "h", Port::left, halt_answer}};
    const Game m = one_shot_rr(q(2), q(1, 10));
    Game pm = postprocess(m, post_processor_from_table(std::move(t)));
    conclude("IRR_{ln 2,1/10} = (flag, bit)∘RR_{ln 2,1/10}", library::interactive_randomized_response(q(2), q(1, 10)), m, pm, 3, 1);
  }
  // Random: M random, P a random relabelling of messages and answers, N flattened by hand.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, 2));
    const Game m = random_table_game(ctx.rng(), static_cast<int>(ctx.rng().range(2, 3)), h);
    std::map<std::string, std::string> sigma{{"a", std::to_string(ctx.rng().range(0, 1))}, {"b", std::to_string(ctx.rng().range(0, 1))}};
    std::map<std::string, std::string> tau{{"0", ctx.rng().coin() ? "x" : "y"}, {"1", ctx.rng().coin() ? "x" : "y"}};
    PostProcessorTable t;
    t.name = "relabel";
    t.initial = "s";
    t.left_messages = {"a", "b"};
    for (const auto& [l, r] : sigma) t.rules["s"]["L"][l] = {{Rational(1), "w", Port::right, r}};
    for (const auto& [a, x] : tau) t.rules["w"]["R"][a] = {{Rational(1), "s", Port::left, x}};
    const Game nn = relabelled_table(m, sigma, tau);
    Game pm = postprocess(m, post_processor_from_table(std::move(t)));
    std::size_t count = 0;
    std::string bad = views_equal_for_all(nn, pm, h, count);
    if (!profile_below(worst_case_profile(nn, at_horizon(h)).profile, worst_case_profile(m, at_horizon(h)).profile)) bad += " N above M;";
    ctx.random_instance(bad.empty(), "random M, σ = (a→" + sigma["a"] + ", b→" + sigma["b"] + "), τ = (0→" + tau["0"] + ", 1→" + tau["1"] + "):" + bad, h);
  }
}

// ------------------------------------------------------------------ T3.3

void check_t33(CheckContext& ctx) {
  // f = f_{ε,δ}: the pair (Y, Y′) is RR_{ε,δ} and the post-processor is LYU-DECOMP's simulator
  // (B.9), verified exactly against the system pair; below the exact δ(γ) it must be refused.
  // The instances are composed IMs built by compose/ (not covered by LYU22-T3's check).
  auto one = [&](const Game& g, unsigned h, const Rational& gamma, bool named) {
    const Rational delta = worst_case_hockey_stick(g, gamma, at_horizon(h)).delta();
    const LikelihoodTree tree = likelihood_tree(g, h);
    const LyuBuild built = lyu_decomposition(tree, gamma, delta);
    const auto* d = std::get_if<LyuDecomposition>(&built);
    const auto v = d ? verify_simulator(tree, d->simulator) : SimulatorVerification{};
    bool ok = d && v.verified;
    std::string out = d ? (v.verified ? "simulator by RR_{ln " + str(gamma) + ", " + str(delta) + "} verified on " + std::to_string(v.nodes_checked) + " histories"
                                      : "fails verification: " + v.failure)
                        : "refused: " + std::get<SimulatorRefusal>(built).reason;
    if (sgn(delta) > 0) {
      const bool refused = std::holds_alternative<SimulatorRefusal>(lyu_decomposition(tree, gamma, delta - delta / 10));
      ok = ok && refused;
      out += refused ? "; refused at 9δ/10" : "; NOT refused at 9δ/10";
    }
    const std::string name = g.name + ", horizon " + std::to_string(h) + ", γ = " + str(gamma);
    if (named)
      ctx.instance(name, out, ok, h);
    else
      ctx.random_instance(ok, name + ": " + out, h);
  };
  one(concurrent({library::sticky_randomized_response(q(2), 2), library::sticky_randomized_response(q(3), 2)}), 3, q(2), true);  // F1
  one(concurrent({one_shot_rr(q(2)), choice_im()}), 2, q(3, 2), true);                                                            // F2
  one(filter_composition({entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3))}, basic_pure_rule(q(6)),
                         launch_options(2, 4)),
      4, q(2), true);  // a filter (F4's rule) is itself an IM
  {
    Game and_m = postprocess(fresh_rr3(), ask_twice(true));
    one(and_m, 2, q(3), true);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Rational gamma = lambda_grid()[static_cast<std::size_t>(ctx.rng().range(1, 4))];
    if (ctx.rng().coin()) {
      const Game a = random_finite_game(ctx.rng(), 2, 1), b = random_finite_game(ctx.rng(), 2, static_cast<unsigned>(ctx.rng().range(1, 2)));
      one(concurrent({a, b}), 3, gamma, false);
    } else {
      one(filter_composition(random_im_menu(ctx.rng(), 2), basic_approximate_rule(q(4), q(1, 2)), launch_options(2, 3)), 3, gamma, false);
    }
  }
  ctx.note("Checked for f = f_{ε,δ} (the pair is RR_{ε,δ}); a general piecewise-linear f needs the multi-step LP of B.10 with f's "
           "canonical pair in place of RR, which reduce/ does not provide. T3.4's reduction check uses canonical pairs of general envelopes.");
}


// ------------------------------------------------------------------ accumulators and the L2.19 identity

/// 𝒢 = (Π λ_j, Σ δ_j) with threshold (λ_d, δ_d) (BG-RRUV16-BASIC's accumulator).
Accumulator approximate_accumulator(Rational lambda_d, Rational delta_d) {
  Accumulator a;
  a.report = [](const std::vector<LaunchParameters>& ds) {
    Rational l = 1, d = 0;
    for (const auto& x : ds) l *= x.lambda, d += x.delta;
    return "lambda=" + str(l) + ",delta=" + str(d);
  };
  a.within = [lambda_d, delta_d](const std::vector<LaunchParameters>& ds) {
    Rational l = 1, d = 0;
    for (const auto& x : ds) l *= x.lambda, d += x.delta;
    return l <= lambda_d && d <= delta_d;
  };
  return a;
}

/// 𝒢 = Π m_j (the Rényi accumulator Σ ε_j(α) in moment form, T4.9) with threshold B; a launch
/// without an asserted moment makes 𝒢 = ∞.
Accumulator moment_accumulator(Rational budget) {
  Accumulator a;
  a.report = [](const std::vector<LaunchParameters>& ds) {
    Rational m = 1;
    for (const auto& x : ds) {
      if (!x.renyi_moment) return std::string("moment=inf");
      m *= *x.renyi_moment;
    }
    return "moment=" + str(m);
  };
  a.within = [budget](const std::vector<LaunchParameters>& ds) {
    Rational m = 1;
    for (const auto& x : ds) {
      if (!x.renyi_moment) return false;
      m *= *x.renyi_moment;
    }
    return m <= budget;
  };
  return a;
}

/// L2.19's view identity for one adversary A of the odometer: the truncated odometer view with the
/// `privacy_loss` answers deleted equals the filter's view of A with its `privacy_loss` messages
/// dropped (Algs 14/15; both games answer a refused/over-threshold launch with "halt", so the
/// relabelling of the halt message is the identity here). Returns "" when equal.
std::string odometer_filter_identity(const Game& odo, const Game& filt, const Adversary& a, unsigned h) {
  const MessageMap drop = [](const std::vector<std::string>&, const std::string& m) -> std::optional<std::string> {
    if (m == "privacy_loss") return std::nullopt;
    return m;
  };
  const Adversary b = replay(odo, a, filt, drop, h);
  const ViewLaw lo = view_law(odo, a, h, [](const std::vector<Step>& steps) {
    std::vector<std::string> k;
    for (const auto& s : steps)
      if (s.message0 != "privacy_loss") k.push_back(s.answer);
    return k;
  });
  const ViewLaw lf = view_law(filt, b, h);
  return lo == lf ? "" : " odometer " + describe_law(lo) + " vs filter " + describe_law(lf) + ";";
}

/// Runs the L2.19 comparison on one (menu, accumulator, filter rule): the odometer and filter
/// profiles are equal, the identity holds for @p adversaries random adversaries, and the
/// odometer's truncated view stays within the threshold (sup H_{λ_d} ≤ δ_d).
std::string odometer_round(CheckContext& ctx, const std::vector<MenuEntry>& menu, const Accumulator& acc, const ContinuationRule& rule,
                           std::size_t instances, unsigned h, const Rational& lambda_d, const Rational& delta_d, unsigned adversaries) {
  const Game odo = odometer_truncated(menu, acc, launch_options(instances, h));
  const Game filt = filter_composition(menu, rule, launch_options(instances, h));
  std::string bad;
  const auto po = worst_case_profile(odo).profile, pf = worst_case_profile(filt).profile;
  if (!(po.forward() == pf.forward() && po.backward() == pf.backward())) bad += " odometer and filter profiles differ;";
  if (po.delta(lambda_d) > delta_d) bad += " truncated view exceeds the threshold: δ(" + str(lambda_d) + ") = " + str(po.delta(lambda_d)) + " > " + str(delta_d) + ";";
  for (unsigned i = 0; i < adversaries; ++i) bad += odometer_filter_identity(odo, filt, random_adversary(odo, h, ctx.rng()), h);
  return bad;
}

void check_l219(CheckContext& ctx) {
  // Named: the F4 menu under the pure accumulator Π λ_j at threshold 6 — its truncated view is the
  // F4 filter (E.9 table) — and the approximate accumulator on H11-like RR_{λ,δ} entries.
  const std::vector<MenuEntry> f4{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3)), entry("RR4", one_shot_rr(q(4)), q(4))};
  const bool small = ctx.budget().level == BudgetLevel::small;
  const unsigned h_named = small ? 4 : 5, adversaries = small ? 4 : 8;
  {
    const Game odo = odometer_truncated(f4, product_lambda_accumulator(q(6)), launch_options(3, 6));
    std::string got;
    bool ok = true;
    for (const auto& [l, v] : std::vector<std::pair<long, Rational>>{{6, q(0)}, {5, q(1, 12)}, {4, q(1, 6)}, {3, q(1, 4)}, {2, q(2, 5)}, {1, q(3, 5)}}) {
      const auto r = worst_case_hockey_stick(odo, Rational(l));
      got += str(r.delta()) + " ";
      ok = ok && r.forward == v && r.backward == v;
    }
    ctx.instance("F4 menu, Π λ_j odometer at threshold 6, truncated view: sup H_λ at λ = 6,5,4,3,2,1 (E.9 F4: 0 1/12 1/6 1/4 2/5 3/5)", got, ok, 6);
    const std::string bad = odometer_round(ctx, f4, product_lambda_accumulator(q(6)), basic_pure_rule(q(6)), 3, h_named, q(6), q(0), adversaries);
    ctx.instance("F4 menu: truncated odometer = basic pure filter (profiles, " + std::to_string(adversaries) + " random adversaries' views of " +
                     std::to_string(h_named) + " rounds), within threshold",
                 bad.empty() ? "identical" : bad, bad.empty(), h_named);
  }
  {
    const std::vector<MenuEntry> m{entry("A", one_shot_rr(q(2)), q(2)), entry("B", one_shot_rr(q(1), q(1, 10)), q(1), q(1, 10)),
                                   entry("C", one_shot_rr(q(2), q(1, 10)), q(2), q(1, 10))};
    const std::string bad =
        odometer_round(ctx, m, approximate_accumulator(q(4), q(1, 5)), basic_approximate_rule(q(4), q(1, 5)), 3, h_named, q(4), q(1, 5), adversaries);
    ctx.instance("menu {RR(2,0), RR(1,1/10), RR(2,1/10)}: (Πλ, Σδ) odometer at (4, 1/5) = basic filter, within threshold",
                 bad.empty() ? "identical" : bad, bad.empty(), h_named);
  }
  const std::vector<Rational> lambdas{q(1), q(3, 2), q(2), q(3), q(4), q(6), q(9)}, deltas{q(0), q(1, 20), q(1, 10), q(3, 20)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const bool pure = ctx.rng().coin();
    const auto menu = random_rr_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 3)), pure);
    const Rational ld = lambdas[static_cast<std::size_t>(ctx.rng().range(0, 6))];
    const Rational dd = pure ? Rational(0) : deltas[static_cast<std::size_t>(ctx.rng().range(0, 3))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, std::min(5u, ctx.budget().horizon_cap() + 2)));
    const std::string bad = pure ? odometer_round(ctx, menu, product_lambda_accumulator(ld), basic_pure_rule(ld), slots(ctx), h, ld, dd, 3)
                                 : odometer_round(ctx, menu, approximate_accumulator(ld, dd), basic_approximate_rule(ld, dd), slots(ctx), h, ld, dd, 3);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", threshold (" + str(ld) + ", " + str(dd) + "), horizon " + std::to_string(h) + ":" + bad, h);
  }
}

// ------------------------------------------------------------------ T1.20, T3.4, C3.5, T3.6

void check_t120(CheckContext& ctx) {
  // A NIM menu of RR_{λ,δ} and an IM menu with the same parameters whose members are mutual
  // post-processings of those RRs (sticky RR_λ, IRR_{λ,δ}): for *any* parameter-only rule the
  // IM filter's profile equals the NIM filter's (≤ by T3.4's reduction, ≥ because NIMs are IMs
  // and the IM adversary can query each launched IM fully), so the rule is valid for the IM menu
  // iff it is valid for the NIM menu, at every budget.
  auto round = [&](const std::vector<std::pair<Rational, Rational>>& params, const ContinuationRule& rule, bool sticky) {
    std::vector<MenuEntry> nim, im;
    for (std::size_t j = 0; j < params.size(); ++j) {
      const auto& [l, d] = params[j];
      const std::string name = "E" + std::to_string(j);
      nim.push_back(entry(name, one_shot_rr(l, d), l, d));
      im.push_back(entry(name, sgn(d) == 0 && sticky ? library::sticky_randomized_response(l, 2) : library::interactive_randomized_response(l, d), l, d));
    }
    const auto pn = worst_case_profile(filter_composition(nim, rule, launch_options(2, 4))).profile;
    const auto pi = worst_case_profile(filter_composition(im, rule, launch_options(2, 6))).profile;
    std::string bad;
    if (!(pn.forward() == pi.forward() && pn.backward() == pi.backward())) {
      bad = " profiles differ:";
      for (const auto& x : lambda_grid()) bad += " λ = " + str(x) + ": NIM " + str(pn.delta(x)) + ", IM " + str(pi.delta(x)) + ";";
    }
    return std::make_pair(bad, pn);
  };
  {
    const auto [bad, prof] = round({{q(2), q(0)}, {q(2), q(1, 10)}}, basic_approximate_rule(q(4), q(1, 10)), true);
    ctx.instance("menu {(2,0), (2,1/10)}, rule Πλ ≤ 4 ∧ Σδ ≤ 1/10: IM filter (sticky RR₂, IRR) = NIM filter (RR), so both within (ln 4, 1/10)",
                 bad.empty() ? "equal; δ(4) = " + str(prof.delta(q(4))) : bad, bad.empty() && prof.delta(q(4)) <= q(1, 10), 6);
  }
  {
    // an invalid rule for this budget (it ignores δ): the NIM filter exceeds (ln 4, 0), and so
    // does the IM filter — by exactly the same amount
    const auto [bad, prof] = round({{q(2), q(1, 10)}, {q(3, 2), q(0)}}, basic_pure_rule(q(4)), false);
    (void)prof;
    const auto [bad2, prof2] = round({{q(2), q(1, 10)}, {q(3, 2), q(0)}}, [](const std::vector<LaunchParameters>& l, const LaunchParameters& p) {
      Rational x = p.lambda;
      for (const auto& d : l) x *= d.lambda;
      return x <= 4;
    }, false);
    ctx.instance("rule Πλ ≤ 4 ignoring δ on {(2,1/10), (3/2,0)}: invalid for (ln 4, 0) NIMs (δ(4) = " + str(prof2.delta(q(4))) + " > 0) and equally for IMs",
                 bad.empty() && bad2.empty() ? "NIM = IM" : bad + bad2, bad.empty() && bad2.empty() && sgn(prof2.delta(q(4))) > 0, 6);
  }
  const std::vector<Rational> lambdas{q(3, 2), q(2), q(3)}, deltas{q(0), q(1, 10)}, budgets{q(2), q(3), q(9, 2), q(6)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<std::pair<Rational, Rational>> params;
    const long size = ctx.rng().range(1, 2);
    for (long j = 0; j < size; ++j) params.push_back({lambdas[ctx.rng().range(0, 2)], deltas[ctx.rng().range(0, 1)]});
    const Rational lb = budgets[ctx.rng().range(0, 3)], db = deltas[ctx.rng().range(0, 1)];
    const std::uint64_t salt = static_cast<std::uint64_t>(ctx.rng().range(0, 1L << 30));
    const ContinuationRule rule = ctx.rng().coin() ? basic_approximate_rule(lb, db) : hashed_rule(salt, {});
    const auto [bad, prof] = round(params, rule, ctx.rng().coin());
    std::string desc;
    for (const auto& [l, d] : params) desc += " (" + str(l) + "," + str(d) + ")";
    ctx.random_instance(bad.empty(), "menu" + desc + ", budget (" + str(lb) + ", " + str(db) + ") or hashed rule " + std::to_string(salt) + ":" + bad, 6);
  }
}

/// T3.4 on one menu and rule: (1) the IM filter stays within the budget when @p valid, and (2)
/// its profile is below the NIM filter's on the menu of canonical pairs (the reduction).
std::string filter_reduction_round(const std::vector<MenuEntry>& menu, const ContinuationRule& rule, std::size_t instances, unsigned h,
                                   const std::optional<std::pair<Rational, Rational>>& budget) {
  const auto pi = worst_case_profile(filter_composition(menu, rule, launch_options(instances, h))).profile;
  const auto pn = worst_case_profile(filter_composition(canonical_menu(menu), rule, launch_options(instances, 2 * static_cast<unsigned>(instances)))).profile;
  std::string bad;
  if (budget && pi.delta(budget->first) > budget->second)
    bad += " IM filter exceeds its budget: δ(" + str(budget->first) + ") = " + str(pi.delta(budget->first)) + " > " + str(budget->second) + ";";
  if (!profile_below(pi, pn)) {
    bad += " IM filter above the canonical-pair NIM filter:";
    for (const auto& x : comparison_points({&pi.forward(), &pi.backward(), &pn.forward(), &pn.backward()}))
      if (pi.delta(x) > pn.delta(x)) bad += " λ = " + str(x) + ": " + str(pi.delta(x)) + " > " + str(pn.delta(x)) + ";";
  }
  return bad;
}

void check_t34(CheckContext& ctx) {
  {
    // F4 (E.9): the basic pure filter, budget 6, menu {RR₂, RR₃, RR₄}, depth 3
    const std::vector<MenuEntry> f4{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3)), entry("RR4", one_shot_rr(q(4)), q(4))};
    const auto prof = worst_case_profile(filter_composition(f4, basic_pure_rule(q(6)), launch_options(3, 6))).profile;
    std::string got;
    bool ok = true;
    for (const auto& [l, v] : std::vector<std::pair<long, Rational>>{{6, q(0)}, {5, q(1, 12)}, {4, q(1, 6)}, {3, q(1, 4)}, {2, q(2, 5)}, {1, q(3, 5)}}) {
      got += str(prof.delta(Rational(l))) + " ";
      ok = ok && prof.forward()(Rational(l)) == v && prof.backward()(Rational(l)) == v;
    }
    ctx.instance("F4: basic pure filter Πλ ≤ 6 over {RR₂, RR₃, RR₄}, depth 3: sup H_λ at λ = 6..1 (E.9: 0 1/12 1/6 1/4 2/5 3/5)", got, ok, 6);
  }
  {
    // F1 as a filter: sticky RR₂ and sticky RR₃ under Πλ ≤ 6. Every admissible launch multiset is
    // {RR₂,RR₃}, {RR₂,RR₂} or a single one, each a post-processing of RR₂ ⊗ RR₃ (RR₂ is a
    // post-processing of RR₃), so sup H_λ is F1's table (E.9) and H₆ = 0.
    const std::vector<MenuEntry> m{entry("S2", library::sticky_randomized_response(q(2), 2), q(2)), entry("S3", library::sticky_randomized_response(q(3), 2), q(3))};
    const auto prof = worst_case_profile(filter_composition(m, basic_pure_rule(q(6)), launch_options(2, 4))).profile;
    std::string got;
    bool ok = true;
    for (const auto& [l, v] : std::vector<std::pair<long, Rational>>{{1, q(1, 2)}, {2, q(1, 3)}, {3, q(1, 4)}, {4, q(1, 6)}, {5, q(1, 12)}, {6, q(0)}}) {
      got += str(prof.delta(Rational(l))) + " ";
      ok = ok && prof.delta(Rational(l)) == v;
    }
    ctx.instance("F1 as a filter: sticky RR₂, sticky RR₃ under Πλ ≤ 6: sup H_λ at λ = 1..6 (E.9 F1: 1/2 1/3 1/4 1/6 1/12 0)", got, ok, 4);
    const std::string bad = filter_reduction_round(m, basic_pure_rule(q(6)), 2, 4, std::make_pair(q(6), q(0)));
    ctx.instance("F1 as a filter: ≤ the filter of the canonical pairs (RR₂, RR₃) at every λ", bad.empty() ? "yes" : bad, bad.empty(), 4);
  }
  {
    // MP and MA (D.16) with engine-certified parameters at λ = 2 under a basic approximate rule
    const std::vector<MenuEntry> m{certified_entry("MP", mp_game(), q(2)), certified_entry("MA", ma_game(), q(2))};
    const Rational db = m[0].parameters.delta + m[1].parameters.delta;
    const std::string bad = filter_reduction_round(m, basic_approximate_rule(q(4), db), 2, 4, std::make_pair(q(4), db));
    ctx.instance("MP, MA (certified at λ = 2: δ = " + str(m[0].parameters.delta) + ", " + str(m[1].parameters.delta) + "), rule Πλ ≤ 4 ∧ Σδ ≤ " + str(db) +
                     ": within budget and below the canonical-pair filter",
                 bad.empty() ? "yes" : bad, bad.empty(), 4);
  }
  const std::vector<Rational> lbs{q(2), q(3), q(4), q(6)}, dbs{q(1, 10), q(1, 5), q(1, 2)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)));
    const Rational lb = lbs[static_cast<std::size_t>(ctx.rng().range(0, 3))], db = dbs[static_cast<std::size_t>(ctx.rng().range(0, 2))];
    const bool pure = ctx.rng().coin();
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const std::string bad = pure ? filter_reduction_round(menu, basic_pure_rule(lb), slots(ctx), h, std::make_pair(lb, Rational(0)))
                                 : filter_reduction_round(menu, basic_approximate_rule(lb, db), slots(ctx), h, std::make_pair(lb, db));
    ctx.random_instance(bad.empty(), describe_menu(menu) + (pure ? ", pure rule λ ≤ " + str(lb) : ", rule (" + str(lb) + ", " + str(db) + ")") +
                                         ", horizon " + std::to_string(h) + ":" + bad, h);
  }
}

void check_c35(CheckContext& ctx) {
  {
    // F4 with interactive members: sticky RR_u answers its first draw forever, so the IM filter
    // has exactly F4's table (E.9), one query per launch sufficing.
    const std::vector<MenuEntry> m{entry("S2", library::sticky_randomized_response(q(2), 2), q(2)), entry("S3", library::sticky_randomized_response(q(3), 2), q(3)),
                                   entry("S4", library::sticky_randomized_response(q(4), 2), q(4))};
    const auto prof = worst_case_profile(filter_composition(m, basic_pure_rule(q(6)), launch_options(3, 6))).profile;
    std::string got;
    bool ok = true;
    for (const auto& [l, v] : std::vector<std::pair<long, Rational>>{{6, q(0)}, {5, q(1, 12)}, {4, q(1, 6)}, {3, q(1, 4)}, {2, q(2, 5)}, {1, q(3, 5)}}) {
      got += str(prof.delta(Rational(l))) + " ";
      ok = ok && prof.delta(Rational(l)) == v;
    }
    ctx.instance("F4 with sticky RR₂, RR₃, RR₄ (interactive): sup H_λ at λ = 6..1 (E.9 F4: 0 1/12 1/6 1/4 2/5 3/5)", got, ok, 6);
  }
  {
    // IRR_{2,1/10} twice under Πλ ≤ 4 ∧ Σδ ≤ 1/5: δ(4) equals the exact profile of
    // RR_{ln 2,1/10} ⊗ RR_{ln 2,1/10} at 4 (PLD composition, a second route), which is ≤ 1/5
    const std::vector<MenuEntry> m{entry("I", library::interactive_randomized_response(q(2), q(1, 10)), q(2), q(1, 10))};
    const auto prof = worst_case_profile(filter_composition(m, basic_approximate_rule(q(4), q(1, 5)), launch_options(2, 6))).profile;
    const Rational expected = PrivacyProfile(rr_product_loss({{q(2), q(1, 10)}, {q(2), q(1, 10)}})).delta(q(4));
    ctx.instance("IRR_{ln 2,1/10} ×2 under (ln 4, 1/5): δ(4) = δ of RR_{ln 2,1/10}⊗2 (" + str(expected) + ") ≤ 1/5", str(prof.delta(q(4))),
                 prof.delta(q(4)) == expected && expected <= q(1, 5), 6);
  }
  const std::vector<Rational> lbs{q(2), q(3), q(4), q(6)}, dbs{q(1, 20), q(1, 10), q(1, 5), q(1, 2)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 3)));
    const Rational lb = lbs[static_cast<std::size_t>(ctx.rng().range(0, 3))], db = dbs[static_cast<std::size_t>(ctx.rng().range(0, 3))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const Rational got = worst_case_hockey_stick(filter_composition(menu, basic_approximate_rule(lb, db), launch_options(slots(ctx), h)), lb).delta();
    ctx.random_instance(got <= db, describe_menu(menu) + ", rule (" + str(lb) + ", " + str(db) + "), horizon " + std::to_string(h) + ": δ(" + str(lb) + ") = " + str(got), h);
  }
}

void check_t36(CheckContext& ctx) {
  // L2.19 ∘ T3.4 ∘ L2.19 on interactive menus: the truncated odometer equals the filter (views and
  // profiles), stays within every threshold, and lies below the odometer of the canonical pairs.
  auto round = [&](const std::vector<MenuEntry>& menu, const Rational& ld, const Rational& dd, unsigned h) {
    std::string bad = odometer_round(ctx, menu, approximate_accumulator(ld, dd), basic_approximate_rule(ld, dd), slots(ctx), h, ld, dd, 3);
    const auto pi = worst_case_profile(odometer_truncated(menu, approximate_accumulator(ld, dd), launch_options(slots(ctx), h))).profile;
    const auto pn = worst_case_profile(odometer_truncated(canonical_menu(menu), approximate_accumulator(ld, dd), launch_options(slots(ctx), 2 * static_cast<unsigned>(slots(ctx))))).profile;
    if (!profile_below(pi, pn)) bad += " IM odometer above the canonical-pair odometer;";
    return bad;
  };
  {
    const std::vector<MenuEntry> m{certified_entry("MP", mp_game(), q(2)), certified_entry("MA", ma_game(), q(3))};
    const Rational dd = m[0].parameters.delta + m[1].parameters.delta;
    const std::string bad = round(m, q(6), dd, 4);
    ctx.instance("MP (λ=2), MA (λ=3), (Πλ, Σδ) odometer at (6, " + str(dd) + ")", bad.empty() ? "truncated view = filter, within, ≤ canonical" : bad, bad.empty(), 4);
  }
  const std::vector<Rational> lbs{q(2), q(4), q(6), q(9)}, dbs{q(1, 10), q(1, 5), q(1, 2)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)));
    const Rational ld = lbs[static_cast<std::size_t>(ctx.rng().range(0, 3))], dd = dbs[static_cast<std::size_t>(ctx.rng().range(0, 2))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const std::string bad = round(menu, ld, dd, h);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", threshold (" + str(ld) + ", " + str(dd) + "), horizon " + std::to_string(h) + ":" + bad, h);
  }
}

// ------------------------------------------------------------------ WRRW: T3.7, T3.8, TB.3

/// The WRRW test √(2 ln(1/δ′)·S₂) + S₂/2 ≤ ε ∧ δ′ + Σδ_m ≤ δ on a whole parameter sequence,
/// evaluated here independently of compose/'s whitehouse_rule: its own interval enclosure at
/// 64…8192 bits, yes when the upper end is ≤ ε, no when the lower end is > ε (B.15).
Tri wrrw_independent(const std::vector<LaunchParameters>& seq, const Rational& eps, const Rational& delta, const Rational& dprime) {
  Rational dsum = dprime;
  bool all_one = true;
  for (const auto& p : seq) dsum += p.delta, all_one = all_one && p.lambda == 1;
  if (dsum > delta) return Tri::no;
  if (all_one) return Tri::yes;
  for (Precision prec = 64; prec <= 8192; prec *= 2) {
    Interval s2 = Interval::zero(prec);
    for (const auto& p : seq) {
      const Interval l = log(Interval(p.lambda, prec));
      s2 += l * l;
    }
    const Interval lhs = sqrt(Interval(Rational(2), prec) * log(Interval(Rational(1) / dprime, prec)) * s2) + s2 / Interval(Rational(2), prec);
    if (lhs.upper() <= eps) return Tri::yes;
    if (lhs.lower() > eps) return Tri::no;
  }
  return Tri::undecided;
}

/// The rule's decisions on every parameter sequence of length ≤ @p depth drawn from @p menu agree
/// with the independent evaluation (a refusal of the library rule when undecided is accepted:
/// undecided halts, the conservative answer).
std::string wrrw_decisions_agree(const std::vector<MenuEntry>& menu, const ContinuationRule& rule, const Rational& eps, const Rational& delta,
                                 const Rational& dprime, unsigned depth) {
  std::string bad;
  std::function<void(std::vector<LaunchParameters>&)> walk = [&](std::vector<LaunchParameters>& seq) {
    if (seq.size() == depth) return;
    for (const auto& e : menu) {
      const bool lib = rule(seq, e.parameters);
      seq.push_back(e.parameters);
      const Tri ind = wrrw_independent(seq, eps, delta, dprime);
      if ((ind == Tri::yes) != lib || (ind == Tri::undecided && lib)) bad += " sequence of " + std::to_string(seq.size()) + " ending with " + e.name + ": rule " + (lib ? "continues" : "halts") + ", independent " + to_string(ind) + ";";
      if (lib) walk(seq);
      seq.pop_back();
    }
  };
  std::vector<LaunchParameters> seq;
  walk(seq);
  return bad;
}

void check_t37(CheckContext& ctx) {
  // F6 (E.9): decisions, then the filtered view's δ at the certified λ_lo ≤ e^ε.
  const LaunchParameters rr2{q(2), q(0), {}}, rr3{q(3), q(0), {}};
  {
    const auto rule = whitehouse_rule(q(2), q(1, 4), q(1, 4));
    const bool a = rule({}, rr2), b = rule({rr2}, rr2), c = rule({}, rr3);
    ctx.instance("F6: ε = 2, δ′ = δ = 1/4: one RR₂ passes (≈ 1.394), two fail (≈ 2.113), RR₃ fails (≈ 2.433)",
                 std::string(a ? "pass" : "fail") + ", " + (b ? "pass" : "fail") + ", " + (c ? "pass" : "fail"), a && !b && !c);
    const std::vector<MenuEntry> m{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3))};
    const Game g = filter_composition(m, rule, launch_options(2, 4));
    const Rational lo = exp_lower(q(2));
    expect_equal(ctx, "F6: filtered view, sup H at λ_lo = " + str(lo) + " ≤ e² (E.9: 0 ≤ 1/4)", worst_case_hockey_stick(g, lo).delta(), q(0), 4);
    expect_equal(ctx, "F6: only one RR₂ ever runs, so H₂ = 0 already", worst_case_hockey_stick(g, q(2)).delta(), q(0), 4);
    const std::string bad = wrrw_decisions_agree(m, rule, q(2), q(1, 4), q(1, 4), 3);
    ctx.instance("F6 (ε = 2): rule decisions agree with an independent certified evaluation on every sequence", bad.empty() ? "agree" : bad, bad.empty());
  }
  {
    const auto rule = whitehouse_rule(q(3), q(1, 20), q(1, 20));
    const bool a = rule({rr2}, rr2), b = rule({rr2, rr2}, rr2);
    ctx.instance("F6: ε = 3, δ′ = 1/20: two RR₂ pass (≈ 2.880), three fail (≈ 3.659)", std::string(a ? "pass" : "fail") + ", " + (b ? "pass" : "fail"), a && !b);
    const std::vector<MenuEntry> m{entry("RR2", one_shot_rr(q(2)), q(2))};
    const Game g = filter_composition(m, rule, launch_options(3, 6));
    expect_equal(ctx, "F6: ε = 3: sup H at λ_lo ≤ e³ (E.9: 0)", worst_case_hockey_stick(g, exp_lower(q(3))).delta(), q(0), 6);
    expect_equal(ctx, "F6: ε = 3: two RR₂ do run: H₃ = H₃(RR₂ ⊗ RR₂) = 4/9 − 3·1/9 = 1/9", worst_case_hockey_stick(g, q(3)).delta(), q(1, 9), 6);
  }
  const std::vector<Rational> lambdas{q(11, 10), q(6, 5), q(3, 2), q(2)}, ds{q(0), q(1, 100)}, eps{q(1, 2), q(1), q(3, 2), q(2)}, deltas{q(1, 20), q(1, 10), q(1, 4)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    const long size = ctx.rng().range(1, 2);
    for (long j = 0; j < size; ++j) {
      const Rational l = lambdas[ctx.rng().range(0, 3)], d = ds[ctx.rng().range(0, 1)];
      if (ctx.rng().coin())
        menu.push_back(entry("R" + std::to_string(j), one_shot_rr(l, d), l, d));
      else
        menu.push_back(entry("I" + std::to_string(j), library::interactive_randomized_response(l, d), l, d));
    }
    const Rational e = eps[ctx.rng().range(0, 3)], d = deltas[ctx.rng().range(0, 2)];
    const Rational dp = ctx.rng().coin() ? d : d / 2;
    const auto rule = whitehouse_rule(e, d, dp);
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 2));
    const Game g = filter_composition(menu, rule, launch_options(3, h));
    const Rational lo = exp_lower(e);
    const Rational got = worst_case_hockey_stick(g, lo).delta();
    std::string bad = got <= d ? "" : " δ(λ_lo = " + str(lo) + ") = " + str(got) + " > " + str(d) + ";";
    bad += wrrw_decisions_agree(menu, rule, e, d, dp, 3);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", ε = " + str(e) + ", δ = " + str(d) + ", δ′ = " + str(dp) + ", horizon " + std::to_string(h) + ":" + bad, h);
  }
}

/// 𝒢_{δ′,δ} of T3.8 with threshold (ε_t, δ_t): the report (√(2 ln(1/δ′)S₂) + S₂/2, δ), or (∞, ∞)
/// once δ′ + Σδ_m > δ; the report is rendered by the exact data that determine it (the λ's and δ).
Accumulator wrrw_accumulator(const Rational& delta, const Rational& dprime, const Rational& eps_t, const Rational& delta_t) {
  Accumulator a;
  a.report = [delta, dprime](const std::vector<LaunchParameters>& ds) {
    Rational dsum = dprime;
    std::string s = "S2 of [";
    for (std::size_t i = 0; i < ds.size(); ++i) dsum += ds[i].delta, s += (i ? "," : "") + str(ds[i].lambda);
    return dsum > delta ? std::string("(inf,inf)") : s + "], delta=" + str(delta);
  };
  const ContinuationRule rule = whitehouse_rule(eps_t, delta, dprime);
  a.within = [=](const std::vector<LaunchParameters>& ds) {
    if (delta > delta_t) return false;  // the δ part of every report is δ
    if (ds.empty()) return dprime <= delta;
    return rule(std::vector<LaunchParameters>(ds.begin(), ds.end() - 1), ds.back());
  };
  return a;
}

void check_t38(CheckContext& ctx) {
  auto round = [&](const std::vector<MenuEntry>& menu, const Rational& delta, const Rational& dprime, const Rational& eps_t, const Rational& delta_t,
                   unsigned h) {
    const Game odo = odometer_truncated(menu, wrrw_accumulator(delta, dprime, eps_t, delta_t), launch_options(slots(ctx), h));
    std::string bad;
    const auto po = worst_case_profile(odo).profile;
    if (delta_t < delta) {
      // the initial report (0, δ) already exceeds the threshold: the truncated view is empty
      if (sgn(po.delta(q(1))) != 0) bad += " threshold δ_t < δ but the truncated view is not empty (TV " + str(po.delta(q(1))) + ");";
      return bad;
    }
    const Game filt = filter_composition(menu, whitehouse_rule(eps_t, delta, dprime), launch_options(slots(ctx), h));
    const auto pf = worst_case_profile(filt).profile;
    if (!(po.forward() == pf.forward() && po.backward() == pf.backward())) bad += " truncated odometer and WRRW filter profiles differ;";
    const Rational lo = exp_lower(eps_t);
    if (po.delta(lo) > delta_t) bad += " δ(λ_lo = " + str(lo) + ") = " + str(po.delta(lo)) + " > δ_t " + str(delta_t) + ";";
    for (int i = 0; i < 3; ++i) bad += odometer_filter_identity(odo, filt, random_adversary(odo, h, ctx.rng()), h);
    return bad;
  };
  const std::vector<MenuEntry> f6{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3))};
  {
    const std::string bad = round(f6, q(1, 4), q(1, 4), q(2), q(1, 4), 4);
    ctx.instance("F6 menu, 𝒢_{1/4,1/4} at threshold (2, 1/4): truncated view = WRRW filter, δ(λ_lo) ≤ 1/4", bad.empty() ? "yes" : bad, bad.empty(), 4);
    const std::string bad2 = round(f6, q(1, 4), q(1, 4), q(2), q(1, 5), 4);
    ctx.instance("F6 menu, 𝒢_{1/4,1/4} at threshold (2, 1/5): δ_t < δ, the truncated view is empty", bad2.empty() ? "empty" : bad2, bad2.empty(), 4);
  }
  const std::vector<Rational> lambdas{q(11, 10), q(3, 2), q(2)}, eps{q(1), q(3, 2), q(2), q(3)}, deltas{q(1, 20), q(1, 10), q(1, 4)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    for (long j = 0, size = ctx.rng().range(1, 2); j < size; ++j) {
      const Rational l = lambdas[ctx.rng().range(0, 2)], d = ctx.rng().coin() ? q(0) : q(1, 100);
      menu.push_back(entry("R" + std::to_string(j), one_shot_rr(l, d), l, d));
    }
    const Rational d = deltas[ctx.rng().range(0, 2)], dp = ctx.rng().coin() ? d : d / 2;
    const Rational et = eps[ctx.rng().range(0, 3)];
    const Rational dt = std::vector<Rational>{d / 2, d, 2 * d}[static_cast<std::size_t>(ctx.rng().range(0, 2))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const std::string bad = round(menu, d, dp, et, dt, h);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", δ = " + str(d) + ", δ′ = " + str(dp) + ", threshold (" + str(et) + ", " + str(dt) + "):" + bad, h);
  }
}

void check_tb3(CheckContext& ctx) {
  // (1) The stopping time N of TB.3, evaluated from its definition with independent enclosures,
  // equals the number of launches the T3.7 rule accepts before its first refusal (Example B.2).
  // (2) Comp(M₁..M_N) of adaptively chosen NIMs, played by sequential adversaries, is (ε, δ)-DP
  // at the certified λ_lo ≤ e^ε.
  const std::vector<Rational> lambdas{q(11, 10), q(6, 5), q(3, 2), q(2)}, eps{q(1, 2), q(1), q(2), q(3)}, deltas{q(1, 20), q(1, 10), q(1, 4)};
  auto stopping_time = [&](const std::vector<LaunchParameters>& seq, const Rational& e, const Rational& d, const Rational& dp) {
    // N = inf{k : ε < √(2 ln(1/δ′)Σ_{m≤k+1}ε_m²) + ½Σ_{m≤k+1}ε_m² or δ″ < Σ_{m≤k+1}δ_m}, δ″ = δ − δ′
    for (std::size_t k = 0; k < seq.size(); ++k) {
      const std::vector<LaunchParameters> prefix(seq.begin(), seq.begin() + static_cast<long>(k) + 1);
      Rational dsum = 0;
      for (const auto& p : prefix) dsum += p.delta;
      if (d - dp < dsum) return std::optional<std::size_t>(k);
      const Tri t = wrrw_independent(prefix, e, Rational(1), dp);  // the ε part only (δ part tested above)
      if (t == Tri::undecided) return std::optional<std::size_t>();
      if (t == Tri::no) return std::optional<std::size_t>(k);
    }
    return std::optional<std::size_t>(seq.size());
  };
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    for (long j = 0, size = ctx.rng().range(1, 3); j < size; ++j) {
      const Rational l = lambdas[ctx.rng().range(0, 3)], d = ctx.rng().coin() ? q(0) : q(1, 100);
      menu.push_back(entry("R" + std::to_string(j), one_shot_rr(l, d), l, d));
    }
    const Rational e = eps[ctx.rng().range(0, 3)], d = deltas[ctx.rng().range(0, 2)], dp = ctx.rng().coin() ? d : d / 2;
    const auto rule = whitehouse_rule(e, d, dp);
    std::string bad;
    for (int t = 0; t < 4; ++t) {
      std::vector<LaunchParameters> seq;
      for (long i = 0, len = ctx.rng().range(1, 5); i < len; ++i) seq.push_back(menu[static_cast<std::size_t>(ctx.rng().range(0, static_cast<long>(menu.size()) - 1))].parameters);
      std::size_t accepted = 0;
      while (accepted < seq.size() && rule(std::vector<LaunchParameters>(seq.begin(), seq.begin() + static_cast<long>(accepted)), seq[accepted])) ++accepted;
      const auto nstop = stopping_time(seq, e, d, dp);
      if (!nstop || *nstop != accepted)
        bad += " a sequence of " + std::to_string(seq.size()) + ": rule accepts " + std::to_string(accepted) + ", N = " + (nstop ? std::to_string(*nstop) : "undecided") + ";";
    }
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 2));
    const Game conc = filter_composition(menu, rule, launch_options(3, h));
    const Game seqg = sequential_adversaries(conc);
    const Rational lo = exp_lower(e);
    const auto ps = worst_case_profile(seqg).profile, pc = worst_case_profile(conc).profile;
    if (ps.delta(lo) > d) bad += " sequential composition: δ(λ_lo) = " + str(ps.delta(lo)) + " > " + str(d) + ";";
    if (!profile_below(ps, pc)) bad += " sequential adversaries beat concurrent ones (impossible);";
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", ε = " + str(e) + ", δ = " + str(d) + ", δ′ = " + str(dp) + ":" + bad, h);
  }
}

// ------------------------------------------------------------------ Rényi: T4.6, L4.7, T4.9

const std::vector<MenuEntry>& f5_menu() {
  // Φ₂(RR_λ) = (λ² − λ + 1)/λ (closed form): 3/2, 7/3, 13/4
  static const std::vector<MenuEntry> m{entry("RR2", one_shot_rr(q(2)), q(2), q(0), q(3, 2)), entry("RR3", one_shot_rr(q(3)), q(3), q(0), q(7, 3)),
                                        entry("RR4", one_shot_rr(q(4)), q(4), q(0), q(13, 4))};
  return m;
}

/// ℱ_K of L4.7 in moment form: Π m_j ≤ B and at most K launches.
ContinuationRule bounded_moment_rule(const Rational& budget, std::size_t k) {
  const ContinuationRule base = renyi_moment_rule(budget);
  return [base, k](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) { return launched.size() + 1 <= k && base(launched, proposed); };
}

void check_t46(CheckContext& ctx) {
  // F5 (E.9): sup Φ₂ by depth 13/4, 7/2, 7/2, 7/2 (never above B = 7/2).
  const std::vector<Rational> by_depth{q(13, 4), q(7, 2), q(7, 2), q(7, 2)};
  for (const auto& e : f5_menu())
    expect_equal(ctx, "F5: the engine's Φ₂ of " + e.name + " equals its asserted moment (closed form)", worst_case_renyi_moment(e.game, 2).max().value(),
                 *e.parameters.renyi_moment, 1);
  const unsigned max_depth = std::min(4u, ctx.budget().horizon_cap());
  for (unsigned depth = 1; depth <= max_depth; ++depth) {
    const Game g = filter_composition(f5_menu(), renyi_moment_rule(q(7, 2)), launch_options(depth, 2 * depth));
    expect_equal(ctx, "F5: Π m_j ≤ 7/2, depth " + std::to_string(depth) + ": sup Φ₂ (E.9)", worst_case_renyi_moment(g, 2).max().value(), by_depth[depth - 1], 2 * depth);
  }
  {
    // E.9's adaptive strategy: launch RR₂; on "0" (likelier in world 0) launch RR₃, else RR₂ twice
    const Game g = filter_composition(f5_menu(), renyi_moment_rule(q(7, 2)), launch_options(3, 6));
    const auto policy = [](const std::vector<Step>& s) -> std::optional<std::string> {
      const std::vector<std::string> first{"create:RR2", "0:q"};
      if (s.size() < 2) return first[s.size()];
      if (s[1].answer == "0") {
        const std::vector<std::string> next{"create:RR3", "1:q"};
        return s.size() < 4 ? std::optional<std::string>(next[s.size() - 2]) : std::nullopt;
      }
      const std::vector<std::string> next{"create:RR2", "1:q", "create:RR2", "2:q"};
      return s.size() < 6 ? std::optional<std::string>(next[s.size() - 2]) : std::nullopt;
    };
    const Adversary a = adversary_from_policy(g, policy, 6);
    const ExtendedRational m = renyi_moment(loss_of(view_law(g, a, 6)), 2);
    ctx.instance("F5: the adaptive strategy (RR₂; then RR₃ or RR₂ twice) has view moment (E.9: 28/9 + 3/8 = 251/72 < 7/2)", to_string(m),
                 m == ExtendedRational(q(251, 72)), 6);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned long alpha = ctx.rng().coin() ? 2 : 3;
    auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)), alpha);
    Rational budget = 1;
    for (const auto& e : menu)
      if (e.parameters.renyi_moment && ctx.rng().coin()) budget *= *e.parameters.renyi_moment;
    budget *= q(ctx.rng().range(10, 30), 10);
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const auto got = worst_case_renyi_moment(filter_composition(menu, renyi_moment_rule(budget), launch_options(slots(ctx), h)), alpha).max();
    ctx.random_instance(!(ExtendedRational(budget) < got), "α = " + std::to_string(alpha) + ", " + describe_menu(menu) + ", B = " + str(budget) + ", horizon " +
                                                            std::to_string(h) + ": sup Φ = " + to_string(got), h);
  }
}

/// Algorithm 12 of HSTVVXZ23 as a post-processor: with M₁ the first launch (fixed for a
/// deterministic adversary), ℱ_K-FiltCon is P∘ConComp(M₁, ℱ_{K−1}-FiltCon with budget B/m₁):
/// queries (0, q) go to M₁ as "0:q", queries (j, q) for j ≥ 1 go to the inner filter as
/// "1:(j−1):q", launches after the first become inner launches, and once the inner filter halts P
/// halts everything (the outer filter halts permanently).
PostProcessor algorithm12(const std::string& first, std::vector<std::string> left, const InteractiveMechanism& m1, const InteractiveMechanism& inner) {
  PostProcessor p;
  p.name = "Alg 12";
  p.initial = "start";
  p.left_messages = std::move(left);
  std::set<std::string> m1_msgs(m1.messages().begin(), m1.messages().end()), inner_msgs(inner.messages().begin(), inner.messages().end());
  p.step = [first, m1_msgs, inner_msgs](const std::string& state, Port /*from: the state says who is expected*/, const std::string& msg) -> std::vector<PostProcessorOutcome> {
    auto left = [](const std::string& next, const std::string& m) { return std::vector<PostProcessorOutcome>{{Rational(1), next, Port::left, m}}; };
    auto right = [](const std::string& next, const std::string& m) { return std::vector<PostProcessorOutcome>{{Rational(1), next, Port::right, m}}; };
    if (state == "dead") return left("dead", halt_answer);
    if (state == "start") return msg == "create:" + first ? left("run", "created") : left("start", invalid_answer);
    if (state == "wait-create" || state == "wait-query") {
      const auto r = parse_routed_name(msg);
      const std::string a = r ? r->second : msg;
      if (state == "wait-create" && a == halt_answer) return left("dead", halt_answer);
      return left("run", a);
    }
    // state "run", a left message
    if (msg.rfind("create:", 0) == 0) return right("wait-create", routed_name(1, msg));
    const auto r = parse_routed_name(msg);
    if (!r) return left("run", invalid_answer);
    if (r->first == 0) return m1_msgs.count(r->second) ? right("wait-query", routed_name(0, r->second)) : left("run", invalid_answer);
    const std::string inner_msg = routed_name(r->first - 1, r->second);
    return inner_msgs.count(inner_msg) ? right("wait-query", routed_name(1, inner_msg)) : left("run", invalid_answer);
  };
  return p;
}

/// The Alg 12 identity for K launches on one menu and budget: random adversaries whose first
/// message launches an affordable entry; "" when every view law agrees.
std::string algorithm12_identity(CheckContext& ctx, const std::vector<MenuEntry>& menu, const Rational& budget, std::size_t k, unsigned h, unsigned tries) {
  const Game outer = filter_composition(menu, bounded_moment_rule(budget, k), launch_options(k + 1, h));
  std::string bad;
  for (unsigned t = 0; t < tries; ++t) {
    const auto& e1 = menu[static_cast<std::size_t>(ctx.rng().range(0, static_cast<long>(menu.size()) - 1))];
    if (!e1.parameters.renyi_moment || *e1.parameters.renyi_moment > budget) continue;
    const Game inner = filter_composition(menu, bounded_moment_rule(budget / *e1.parameters.renyi_moment, k - 1), launch_options(k, h));
    Game cc = concurrent({e1.game, inner});
    cc.verifier = std::make_shared<StaticVerifier>(cc.mechanism->messages().size());  // every menu entry has static neighbours
    const Game pm = postprocess(cc, algorithm12(e1.name, outer.mechanism->messages(), *e1.game.mechanism, *inner.mechanism));
    const auto a = random_adversary_from(outer, "create:" + e1.name, h, ctx.rng());
    if (!a) continue;
    const MessageMap same = [](const std::vector<std::string>&, const std::string& m) { return std::optional<std::string>(m); };
    const ViewLaw lo = view_law(outer, *a, h), lp = view_law(pm, replay(outer, *a, pm, same, h), h);
    if (lo != lp) bad += " first launch " + e1.name + ": ℱ_K " + describe_law(lo) + " vs Alg 12 " + describe_law(lp) + ";";
  }
  return bad;
}

void check_l47(CheckContext& ctx) {
  const unsigned kmax = std::min(3u, ctx.budget().horizon_cap());
  for (std::size_t k = 1; k <= kmax; ++k) {
    const unsigned h = 2 * static_cast<unsigned>(k);
    const Game g = filter_composition(f5_menu(), bounded_moment_rule(q(7, 2), k), launch_options(k + 1, h));
    const std::vector<Rational> expected{q(13, 4), q(7, 2), q(7, 2)};
    expect_equal(ctx, "F5 menu, ℱ_" + std::to_string(k) + " (Π m_j ≤ 7/2, ≤ " + std::to_string(k) + " launches), horizon " + std::to_string(h) + ": sup Φ₂ (E.9 F5 by depth)",
                 worst_case_renyi_moment(g, 2).max().value(), expected[k - 1], h);
    if (k >= 2) {
      const std::string bad = algorithm12_identity(ctx, f5_menu(), q(7, 2), k, h + 1, 6);
      ctx.instance("F5 menu, K = " + std::to_string(k) + ": View(A↔ℱ_K-FiltCon) = View(A↔Alg12∘ConComp(M₁, ℱ_{K−1} at B/m₁)) for random A",
                   bad.empty() ? "equal" : bad, bad.empty(), h + 1);
    }
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)));
    Rational budget = q(ctx.rng().range(10, 40), 10);
    for (const auto& e : menu)
      if (e.parameters.renyi_moment && ctx.rng().coin()) budget *= *e.parameters.renyi_moment;
    const std::size_t k = static_cast<std::size_t>(ctx.rng().range(1, 2));
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const auto got = worst_case_renyi_moment(filter_composition(menu, bounded_moment_rule(budget, k), launch_options(k + 1, h)), 2).max();
    std::string bad = ExtendedRational(budget) < got ? " sup Φ₂ = " + to_string(got) + " > B;" : "";
    if (k == 2) bad += algorithm12_identity(ctx, menu, budget, k, h, 2);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", B = " + str(budget) + ", K = " + std::to_string(k) + ", horizon " + std::to_string(h) + ":" + bad, h);
  }
}

void check_t49(CheckContext& ctx) {
  // 𝒢 = Π m_j (Σ ε_j(α) in moment form): the truncated odometer equals the Rényi filter and its
  // sup moment stays ≤ the threshold, for every threshold of a grid.
  auto round = [&](const std::vector<MenuEntry>& menu, const Rational& budget, unsigned h) {
    const Game odo = odometer_truncated(menu, moment_accumulator(budget), launch_options(slots(ctx), h));
    const Game filt = filter_composition(menu, renyi_moment_rule(budget), launch_options(slots(ctx), h));
    std::string bad;
    const auto ro = worst_case_renyi_moment(odo, 2), rf = worst_case_renyi_moment(filt, 2);
    if (!(ro.forward == rf.forward && ro.backward == rf.backward)) bad += " odometer Φ₂ " + to_string(ro.max()) + " ≠ filter " + to_string(rf.max()) + ";";
    if (ExtendedRational(budget) < ro.max()) bad += " truncated view Φ₂ = " + to_string(ro.max()) + " > " + str(budget) + ";";
    for (int i = 0; i < 3; ++i) bad += odometer_filter_identity(odo, filt, random_adversary(odo, h, ctx.rng()), h);
    return std::make_pair(bad, ro.max());
  };
  for (const auto& b : {q(3, 2), q(3), q(7, 2), q(5)}) {
    const auto [bad, m] = round(f5_menu(), b, 4);
    ctx.instance("F5 menu, Rényi odometer at threshold B = " + str(b) + ", horizon 4", bad.empty() ? "sup Φ₂ = " + to_string(m) + " ≤ B, = filter" : bad, bad.empty(), 4);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    auto menu = random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)));
    const Rational budget = q(ctx.rng().range(10, 80), 10);
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const auto [bad, m] = round(menu, budget, h);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", B = " + str(budget) + ", horizon " + std::to_string(h) + ":" + bad, h);
  }
}

// ------------------------------------------------------------------ zCDP: T4.10 / T4.11

/// A certified rational upper bound on (ln λ)²/2, rounded up to hundredths: the zCDP level of a
/// ln λ-DP mechanism (pure ε ⇒ ε²/2-zCDP, B.11).
Rational zcdp_of_pure(const Rational& lambda) {
  const Interval l = log(Interval(lambda, 128));
  const Rational up = (l * l).upper() / 2;
  mpz_class n = up.get_num() * 100, c;
  mpz_cdiv_q(c.get_mpz_t(), n.get_mpz_t(), up.get_den().get_mpz_t());
  Rational r(c, 100);
  r.canonicalize();
  return r;
}

/// sup Φ_α ≤ e^{(α−1)αρ}, i.e. D_α ≤ αρ, decided with certified enclosures (B.15): exact moment
/// for integer α, certified moment for a rational α.
Tri zcdp_holds_at(const Game& g, const Rational& alpha, const Rational& rho, unsigned h, std::string* detail = nullptr) {
  const Rational x = (alpha - 1) * alpha * rho;
  // ρ = 0: D_α ≤ 0 iff every view has equal mass in both worlds, i.e. the exact pure ratio is 1
  // (an enclosure of a moment equal to 1 could never be separated from e⁰ = 1)
  if (sgn(rho) == 0) return to_tri(worst_case_ratio(g, at_horizon(h)).max() == ExtendedRational(Rational(1)));
  if (alpha.get_den() == 1) {
    const auto m = worst_case_renyi_moment(g, alpha.get_num().get_ui(), at_horizon(h)).max();
    if (!m.is_finite()) return Tri::no;
    return decide_exp(x, Relation::greater_equal, m.value()).outcome;
  }
  const auto c = worst_case_renyi_moment_certified(g, alpha, at_horizon(h));
  if (c.forward.infinite || c.backward.infinite) return Tri::no;
  const Interval bound = exp(Interval(x, 256));
  const Tri f = certainly_less_equal(c.forward.enclosure, bound), b = certainly_less_equal(c.backward.enclosure, bound);
  if (detail) *detail = " (Φ " + c.forward.to_string(12) + ", " + c.backward.to_string(12) + " vs e^{(α−1)αρ} " + bound.to_string(12) + ")";
  return f == Tri::yes && b == Tri::yes ? Tri::yes : (f == Tri::no || b == Tri::no ? Tri::no : Tri::undecided);
}

/// 𝕀(Σ ρ_j ≤ ρ) with ρ_j = zcdp_of_pure(λ_j) for the pure menu entries (a function of the
/// parameters only).
ContinuationRule zcdp_rule(const Rational& rho) {
  return [rho](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (sgn(proposed.delta) != 0) return false;
    Rational s = zcdp_of_pure(proposed.lambda);
    for (const auto& d : launched) {
      if (sgn(d.delta) != 0) return false;
      s += zcdp_of_pure(d.lambda);
    }
    return s <= rho;
  };
}

void check_t410(CheckContext& ctx) {
  const std::vector<Rational> orders{q(3, 2), q(2), q(5, 2), q(3)};
  auto all_orders = [&](const Game& g, const Rational& rho, unsigned h) {
    std::string bad;
    for (const auto& a : orders) {
      std::string detail;
      const Tri t = zcdp_holds_at(g, a, rho, h, &detail);
      if (t != Tri::yes) bad += " α = " + str(a) + ": D_α ≤ αρ is " + to_string(t) + detail + ";";
    }
    return bad;
  };
  {
    // RR₂ (ρ = 1/4 ≥ (ln 2)²/2 ≈ 0.2402) and RR₃ (ρ = 61/100 ≥ 0.6035), budget ρ = 1/2: two RR₂
    // pass, RR₃ never; sup Φ₂ = (3/2)² = 9/4 (X-RENYI-PRODUCT: two RR₂ at best) ≤ e^{2·1/2}.
    const std::vector<MenuEntry> m{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3))};
    ctx.instance("ρ(RR₂), ρ(RR₃) = certified (ln λ)²/2 rounded up to hundredths", str(zcdp_of_pure(q(2))) + ", " + str(zcdp_of_pure(q(3))),
                 zcdp_of_pure(q(2)) == q(1, 4) && zcdp_of_pure(q(3)) == q(61, 100));
    const Game g = filter_composition(m, zcdp_rule(q(1, 2)), launch_options(3, 6));
    expect_equal(ctx, "zCDP filter Σρ ≤ 1/2 over {RR₂, RR₃}: sup Φ₂ (two RR₂: 9/4)", worst_case_renyi_moment(g, 2).max().value(), q(9, 4), 6);
    const std::string bad = all_orders(g, q(1, 2), 6);
    ctx.instance("zCDP filter Σρ ≤ 1/2: D_α ≤ α/2 at α = 3/2, 2, 5/2, 3 (certified)", bad.empty() ? "yes" : bad, bad.empty(), 6);
    // T4.11: the accumulator Σρ_j, truncated at ρ = 1/2, is the same filter
    Accumulator acc;
    acc.report = [](const std::vector<LaunchParameters>& ds) {
      Rational s = 0;
      for (const auto& d : ds) s += zcdp_of_pure(d.lambda);
      return "rho=" + str(s);
    };
    acc.within = [](const std::vector<LaunchParameters>& ds) {
      Rational s = 0;
      for (const auto& d : ds) s += zcdp_of_pure(d.lambda);
      return s <= q(1, 2);
    };
    const Game odo = odometer_truncated(m, acc, launch_options(3, 6));
    std::string bad2 = all_orders(odo, q(1, 2), 6);
    for (int i = 0; i < 4; ++i) bad2 += odometer_filter_identity(odo, g, random_adversary(odo, 6, ctx.rng()), 6);
    ctx.instance("T4.11: Σρ odometer truncated at 1/2: views = the filter's, D_α ≤ α/2 at the four orders", bad2.empty() ? "yes" : bad2, bad2.empty(), 6);
  }
  const std::vector<Rational> rhos{q(1, 4), q(1, 2), q(1), q(3, 2)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    // pure interactive entries with λ = their exact pure level (engine); ρ_j certified from λ_j;
    // the premise D_α(M_j) ≤ αρ_j is checked too.
    std::vector<MenuEntry> menu;
    std::string bad;
    for (long j = 0, size = ctx.rng().range(1, 2), tries = 0; static_cast<long>(menu.size()) < size && tries < 20; ++tries) {
      Game g = random_finite_game(ctx.rng(), 2, static_cast<unsigned>(ctx.rng().range(1, 2)));
      switch (ctx.rng().range(0, 2)) {
        case 0: g = mp_game(); break;
        case 1: g = library::sticky_randomized_response(lambda_grid()[static_cast<std::size_t>(ctx.rng().range(1, 3))], 2); break;
        default: break;
      }
      const auto r = worst_case_ratio(g).max();
      if (!r.is_finite()) continue;  // not pure: draw again
      menu.push_back(entry("P" + std::to_string(j++), g, r.value()));
      bad += all_orders(g, zcdp_of_pure(r.value()), g.horizon);
    }
    if (menu.empty()) menu.push_back(entry("RR2", one_shot_rr(q(2)), q(2)));
    const Rational rho = rhos[static_cast<std::size_t>(ctx.rng().range(0, 3))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    bad += all_orders(filter_composition(menu, zcdp_rule(rho), launch_options(slots(ctx), h)), rho, h);
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", ρ = " + str(rho) + ", horizon " + std::to_string(h) + ":" + bad, h);
  }
}

// ------------------------------------------------------------------ BG-RRUV16-BASIC, BG-GDP-FILTER

void check_rruv(CheckContext& ctx) {
  {
    const std::vector<MenuEntry> f4{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3)), entry("RR4", one_shot_rr(q(4)), q(4))};
    const Game g = filter_composition(f4, basic_pure_rule(q(6)), launch_options(3, 6));
    expect_equal(ctx, "F4: pure filter Σε ≤ ln 6: sup H₆ (the guarantee, E.9: 0)", worst_case_hockey_stick(g, q(6)).delta(), q(0), 6);
    expect_equal(ctx, "F4: sup H₂ = H₂(RR₄) (E.9: 2/5)", worst_case_hockey_stick(g, q(2)).delta(), q(2, 5), 6);
    const unsigned h = ctx.budget().level == BudgetLevel::small ? 4 : 6;
    const Game odo = odometer_truncated(f4, product_lambda_accumulator(q(6)), launch_options(3, h));
    expect_equal(ctx, "F4 menu, odometer Σε at threshold ln 6, " + std::to_string(h) + " rounds: truncated view sup H₆", worst_case_hockey_stick(odo, q(6)).delta(), q(0), h);
  }
  {
    // H11 (E.10): RR of a bit pair (0,1), menu (λ, δ) ∈ {(2,0), (1,1/10), (2,1/10)}, Πλ ≤ 4,
    // Σδ ≤ 1/5, at most 3 creations.
    const std::vector<MenuEntry> h11{entry("A", rr_bit_game(q(2), q(0)), q(2)), entry("B", rr_bit_game(q(1), q(1, 10)), q(1), q(1, 10)),
                                     entry("C", rr_bit_game(q(2), q(1, 10)), q(2), q(1, 10))};
    const Game g = filter_composition(h11, basic_approximate_rule(q(4), q(1, 5)), launch_options(3, 6));
    const Rational d1 = worst_case_hockey_stick(g, q(1)).delta(), d2 = worst_case_hockey_stick(g, q(2)).delta(), d4 = worst_case_hockey_stick(g, q(4)).delta();
    ctx.instance("H11: sup H_λ at λ = 1, 2, 4 (E.10: 23/50, 37/100, 19/100; 19/100 ≤ 1/5)", str(d1) + ", " + str(d2) + ", " + str(d4),
                 d1 == q(23, 50) && d2 == q(37, 100) && d4 == q(19, 100), 6);
    const Game odo = odometer_truncated(h11, approximate_accumulator(q(4), q(1, 5)), launch_options(3, 6));
    expect_equal(ctx, "H11 menu, odometer (Σε, Σδ) at threshold (ln 4, 1/5): truncated view δ(4) (= the filter's 19/100)",
                 worst_case_hockey_stick(odo, q(4)).delta(), q(19, 100), 6);
  }
  const std::vector<Rational> lbs{q(3, 2), q(2), q(3), q(9, 2), q(6)}, dbs{q(0), q(1, 20), q(1, 10), q(1, 5)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const bool pure = ctx.rng().coin();
    const auto menu = random_rr_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 3)), pure);
    const Rational lb = lbs[static_cast<std::size_t>(ctx.rng().range(0, 4))], db = pure ? q(0) : dbs[static_cast<std::size_t>(ctx.rng().range(0, 3))];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 2));
    const ContinuationRule rule = pure ? basic_pure_rule(lb) : basic_approximate_rule(lb, db);
    const Rational f = worst_case_hockey_stick(filter_composition(menu, rule, launch_options(3, h)), lb).delta();
    const Accumulator acc = pure ? product_lambda_accumulator(lb) : approximate_accumulator(lb, db);
    const Rational o = worst_case_hockey_stick(odometer_truncated(menu, acc, launch_options(3, h)), lb).delta();
    ctx.random_instance(f <= db && o <= db, describe_menu(menu) + ", budget (" + str(lb) + ", " + str(db) + "), horizon " + std::to_string(h) + ": filter δ = " + str(f) +
                                                ", odometer δ = " + str(o), h);
  }
}

/// The least μ on the grid k/20 with f_{ln λ, 0} ≥ G_μ (certified): RR_λ is μ-GDP.
Rational gdp_of_rr(const Rational& lambda) {
  for (long k = 1; k <= 400; ++k)
    if (dominates_gaussian(TradeOff::epsilon_delta(lambda, 0), q(k, 20)).outcome == Tri::yes) return q(k, 20);
  throw Error("gdp_of_rr", "lambda", str(lambda), "no μ ≤ 20 found");
}

void check_gdp(CheckContext& ctx) {
  // 𝕀(Σμ_j² ≤ μ²) with μ_j certified for each entry's λ; the filtered view's envelope must
  // dominate G_μ (certified, both orders).
  auto round = [&](const std::vector<MenuEntry>& menu, const Rational& mu, unsigned h, std::string& detail) {
    std::map<Rational, Rational> mus;
    for (const auto& e : menu) mus[e.parameters.lambda] = gdp_of_rr(e.parameters.lambda);
    const ContinuationRule rule = [mus, mu](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
      Rational s = mus.at(proposed.lambda) * mus.at(proposed.lambda);
      for (const auto& d : launched) s += mus.at(d.lambda) * mus.at(d.lambda);
      return s <= mu * mu;
    };
    const auto env = tradeoff_envelope(worst_case_profile(filter_composition(menu, rule, launch_options(3, h))).profile);
    const Tri a = dominates_gaussian(env.world0_vs_world1, mu).outcome, b = dominates_gaussian(env.world1_vs_world0, mu).outcome;
    for (const auto& [l, m] : mus) detail += " μ(RR_" + str(l) + ") = " + str(m) + ";";
    detail += " T ≥ G_" + str(mu) + ": " + to_string(a) + ", " + to_string(b);
    return a == Tri::yes && b == Tri::yes;
  };
  {
    const std::vector<MenuEntry> m{entry("RR2", one_shot_rr(q(2)), q(2)), entry("S3", library::sticky_randomized_response(q(3), 2), q(3))};
    std::string detail;
    const bool ok = round(m, q(1), 6, detail);
    ctx.instance("RR₂ and sticky RR₃ under Σμ_j² ≤ 1: the filtered view is 1-GDP (certified)", detail, ok, 6);
  }
  const std::vector<Rational> lambdas{q(3, 2), q(2), q(3)}, mus{q(1, 2), q(1), q(3, 2), q(2)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    for (long j = 0, size = ctx.rng().range(1, 2); j < size; ++j) {
      const Rational l = lambdas[ctx.rng().range(0, 2)];
      menu.push_back(entry("E" + std::to_string(j), ctx.rng().coin() ? one_shot_rr(l) : library::sticky_randomized_response(l, 2), l));
    }
    const Rational mu = mus[ctx.rng().range(0, 3)];
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 2));
    std::string detail;
    const bool ok = round(menu, mu, h, detail);
    ctx.random_instance(ok, describe_menu(menu) + ", μ = " + str(mu) + ", horizon " + std::to_string(h) + ":" + detail, h);
  }
}

// ------------------------------------------------------------------ X-FILTER-HALT, X-RDP-CURVE

/// (i) of X-FILTER-HALT on one menu and rule: equal engine values of the halting and refusing
/// variants, and both view identities for random adversaries.
std::string halting_variants(CheckContext& ctx, const std::vector<MenuEntry>& menu, const ContinuationRule& rule, std::size_t instances, unsigned h) {
  LaunchOptions ho = launch_options(instances, h), ro = ho;
  ro.refuse_and_continue = true;
  const Game halting = filter_composition(menu, rule, ho), refusing = filter_composition(menu, rule, ro);
  std::string bad;
  const auto ph = worst_case_profile(halting).profile, pr = worst_case_profile(refusing).profile;
  if (!(ph.forward() == pr.forward() && ph.backward() == pr.backward())) bad += " profiles differ;";
  const auto mh = worst_case_renyi_moment(halting, 2), mr = worst_case_renyi_moment(refusing, 2);
  if (!(mh.forward == mr.forward && mh.backward == mr.backward)) bad += " Φ₂ differ;";
  // refusing → halting: the adversary computes each refusal itself and skips the request
  const MessageMap skip = [&](const std::vector<std::string>& earlier, const std::string& m) -> std::optional<std::string> {
    if (m.rfind("create:", 0) != 0) return m;
    std::size_t created = 0;
    std::vector<LaunchParameters> launched;
    for (const auto& x : earlier)
      if (x.rfind("create:", 0) == 0 && created < instances)
        for (const auto& e : menu)
          if ("create:" + e.name == x) {
            if (rule(launched, e.parameters)) launched.push_back(e.parameters), ++created;
          }
    if (launched.size() >= instances) return m;  // answered "invalid" in both variants
    for (const auto& e : menu)
      if ("create:" + e.name == m && !rule(launched, e.parameters)) return std::nullopt;
    return m;
  };
  const auto drop_refused = [](const std::vector<Step>& steps) {
    std::vector<std::string> k;
    for (const auto& s : steps)
      if (s.answer != "refused") k.push_back(s.answer);
    return k;
  };
  // halting → refusing: the same messages; the replay stops at the refusal; the halting view is
  // cut there ("halt" answered to a launch is the refusal, relabelled "refused")
  const auto cut_at_halt = [](const std::vector<Step>& steps) {
    std::vector<std::string> k;
    for (const auto& s : steps) {
      if (s.message0.rfind("create:", 0) == 0 && s.answer == halt_answer) {
        k.push_back("refused");
        break;
      }
      k.push_back(s.answer);
    }
    return k;
  };
  const MessageMap same = [](const std::vector<std::string>&, const std::string& m) { return std::optional<std::string>(m); };
  for (int i = 0; i < 3; ++i) {
    const Adversary a = random_adversary(refusing, h, ctx.rng());
    const ViewLaw lr = view_law(refusing, a, h, drop_refused), lh = view_law(halting, replay(refusing, a, halting, skip, h), h);
    if (lr != lh) bad += " refusing view " + describe_law(lr) + " ≠ halting view " + describe_law(lh) + ";";
    const Adversary c = random_adversary(halting, h, ctx.rng());
    const ViewLaw kh = view_law(halting, c, h, cut_at_halt), kr = view_law(refusing, replay(halting, c, refusing, same, h), h);
    if (kh != kr) bad += " halting view " + describe_law(kh) + " ≠ refusing view " + describe_law(kr) + ";";
  }
  return bad;
}

void check_filter_halt(CheckContext& ctx) {
  {
    const std::vector<MenuEntry> f4{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3)), entry("RR4", one_shot_rr(q(4)), q(4))};
    const std::string bad = halting_variants(ctx, f4, basic_pure_rule(q(6)), 3, 5);
    ctx.instance("F4 menu, Πλ ≤ 6: halting and refusing variants (profiles, Φ₂, views both ways)", bad.empty() ? "equivalent" : bad, bad.empty(), 5);
  }
  const std::vector<Rational> lbs{q(2), q(3), q(4), q(6)}, dbs{q(1, 20), q(1, 10), q(1, 5)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const auto menu = ctx.rng().coin() ? random_rr_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 3)), false)
                                       : random_im_menu(ctx.rng(), static_cast<std::size_t>(ctx.rng().range(1, 2)));
    const Rational lb = lbs[static_cast<std::size_t>(ctx.rng().range(0, 3))], db = dbs[static_cast<std::size_t>(ctx.rng().range(0, 2))];
    const std::uint64_t salt = static_cast<std::uint64_t>(ctx.rng().range(0, 1L << 30));
    const ContinuationRule valid = basic_approximate_rule(lb, db), sub = hashed_rule(salt, valid);
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    // (i) on the sub-rule (any parameter-only rule)
    std::string bad = halting_variants(ctx, menu, sub, slots(ctx), h);
    // (ii) a pointwise smaller rule of a valid rule is valid
    const Rational got = worst_case_hockey_stick(filter_composition(menu, sub, launch_options(slots(ctx), h)), lb).delta();
    if (got > db) bad += " sub-rule exceeds the budget: δ(" + str(lb) + ") = " + str(got) + ";";
    ctx.random_instance(bad.empty(), describe_menu(menu) + ", rule (" + str(lb) + ", " + str(db) + ") ∧ hash " + std::to_string(salt) + ", horizon " + std::to_string(h) + ":" + bad, h);
  }
  {
    // (ii) fails once the rule looks at the data: ℱ′ = ℱ ∧ [x = x₀] under ℱ = Πλ ≤ 2 over {RR₂}.
    // compose/ only takes parameter-only rules, so the filter is written out as a table: world 0
    // launches RR₂ and answers its query; world 1 refuses (halts). ℱ itself gives δ(2) = 0.
    using Row = TableMechanism::Row;
    const auto rr2 = [](int b) {
      return std::vector<Row>{Row{b == 0 ? q(2, 3) : q(1, 3), "0", "done"}, Row{b == 0 ? q(1, 3) : q(2, 3), "1", "done"}};
    };
    std::vector<std::pair<std::string, TableMechanism::StateTable>> st{
        {"w0", {false, {{"create:RR2", {Row{Rational(1), "created", "r0"}}}, {"0:q", {Row{Rational(1), invalid_answer, "w0"}}}}}},
        {"w1", {false, {{"create:RR2", {Row{Rational(1), halt_answer, "h"}}}, {"0:q", {Row{Rational(1), invalid_answer, "w1"}}}}}},
        {"r0", {false, {{"create:RR2", {Row{Rational(1), invalid_answer, "r0"}}}, {"0:q", rr2(0)}}}},
        {"done", {true, {}}},
        {"h", {true, {}}}};
    auto mech = std::make_shared<TableMechanism>("data-dependent filter", st, std::vector<std::string>{"create:RR2", "0:q"});
    const Game dd = static_game("data-dependent filter", mech, {mech->state_id("w0"), mech->state_id("w1")}, 2);
    const Game valid = filter_composition({entry("RR2", one_shot_rr(q(2)), q(2))}, basic_pure_rule(q(2)), launch_options(1, 2));
    const Rational d_dd = worst_case_hockey_stick(dd, q(2)).delta(), d_valid = worst_case_hockey_stick(valid, q(2)).delta();
    ctx.instance("a data-dependent sub-rule of the valid Πλ ≤ 2 over {RR₂} (refuse iff x = x′): δ(2) = 1 (the refusal reveals x), while the "
                 "valid rule gives 0",
                 str(d_dd) + " vs " + str(d_valid), d_dd == 1 && sgn(d_valid) == 0, 2);
  }
  ctx.note("Part (i) is not shown to fail for data-dependent rules: compose/'s launch combinators take parameter-only rules.");
}

/// "Every α of {2, 3}" (or "some α") rule over menus whose entries carry m(2) in renyi_moment and
/// m(3) looked up by λ (each entry of these menus has its own λ).
ContinuationRule curve_rule(std::map<Rational, Rational> m3, Rational b2, Rational b3, bool every) {
  return [m3, b2, b3, every](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (!proposed.renyi_moment || !m3.count(proposed.lambda)) return false;
    Rational p2 = *proposed.renyi_moment, p3 = m3.at(proposed.lambda);
    for (const auto& d : launched) {
      if (!d.renyi_moment || !m3.count(d.lambda)) return false;
      p2 *= *d.renyi_moment;
      p3 *= m3.at(d.lambda);
    }
    return every ? (p2 <= b2 && p3 <= b3) : (p2 <= b2 || p3 <= b3);
  };
}

void check_rdp_curve(CheckContext& ctx) {
  {
    // X: a rare high-ratio atom (Φ₂ small, Φ₃ large); Y = RR₂₀ (Φ₂ larger, Φ₃ smaller). Budgets
    // B(2) = Φ₂(X)², B(3) = Φ₃(Y)²: "some α" admits X⊗X (fine at α = 2 only) and Y⊗Y (fine at
    // α = 3 only), so it breaks both orders; "every α" admits single launches only.
    const Game x = pair_game("X", {{q(1, 10), q(1, 1000)}, {q(9, 10), q(999, 1000)}}), y = one_shot_rr(q(20));
    const auto x2 = worst_case_renyi_moment(x, 2).max().value(), x3 = worst_case_renyi_moment(x, 3).max().value();
    const auto y2 = worst_case_renyi_moment(y, 2).max().value(), y3 = worst_case_renyi_moment(y, 3).max().value();
    const std::vector<MenuEntry> m{entry("X", x, q(2), q(0), x2), entry("Y", y, q(20), q(0), y2)};
    const std::map<Rational, Rational> m3{{q(2), x3}, {q(20), y3}};
    const Rational b2 = x2 * x2, b3 = y3 * y3;
    const Game some = filter_composition(m, curve_rule(m3, b2, b3, false), launch_options(2, 4));
    const Game every = filter_composition(m, curve_rule(m3, b2, b3, true), launch_options(2, 4));
    const auto s2 = worst_case_renyi_moment(some, 2).max(), s3 = worst_case_renyi_moment(some, 3).max();
    const auto e2 = worst_case_renyi_moment(every, 2).max(), e3 = worst_case_renyi_moment(every, 3).max();
    ctx.instance("\"some α\" rule: sup Φ₂ > B(2) = " + str(b2) + " and sup Φ₃ > B(3) = " + str(b3) + " (invalid at both orders)",
                 to_string(s2) + ", " + to_string(s3), ExtendedRational(b2) < s2 && ExtendedRational(b3) < s3, 4);
    ctx.instance("\"every α\" rule on the same menu and budgets: sup Φ₂ ≤ B(2), sup Φ₃ ≤ B(3)", to_string(e2) + ", " + to_string(e3),
                 !(ExtendedRational(b2) < e2) && !(ExtendedRational(b3) < e3), 4);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    std::map<Rational, Rational> m3;
    Rational b2 = q(ctx.rng().range(10, 30), 10), b3 = q(ctx.rng().range(10, 30), 10);
    for (long j = 0, size = ctx.rng().range(1, 2), tries = 0; static_cast<long>(menu.size()) < size && tries < 20; ++tries) {
      MenuEntry e = random_im_entry(ctx.rng(), "E" + std::to_string(j));
      e.parameters.lambda = q(2 + j);  // a label: each entry its own λ (its δ is recomputed there)
      e.parameters.delta = worst_case_hockey_stick(e.game, e.parameters.lambda).delta();
      const auto r3 = worst_case_renyi_moment(e.game, 3).max();
      if (!e.parameters.renyi_moment || !r3.is_finite()) continue;  // infinite moments: draw again
      ++j;
      m3[e.parameters.lambda] = r3.value();
      if (ctx.rng().coin()) b2 *= *e.parameters.renyi_moment, b3 *= r3.value();
      menu.push_back(std::move(e));
    }
    if (menu.empty()) {  // Φ₂(RR₂) = 3/2, Φ₃(RR₂) = 8/3 + 1/12 = 11/4 (Σ p^α q^{1−α}, by hand)
      menu.push_back(entry("RR2", one_shot_rr(q(2)), q(2), q(0), q(3, 2)));
      m3[q(2)] = q(11, 4);
    }
    const unsigned h = static_cast<unsigned>(ctx.rng().range(2, ctx.budget().horizon_cap() + 1));
    const Game g = filter_composition(menu, curve_rule(m3, b2, b3, true), launch_options(slots(ctx), h));
    const auto g2 = worst_case_renyi_moment(g, 2).max(), g3 = worst_case_renyi_moment(g, 3).max();
    ctx.random_instance(!(ExtendedRational(b2) < g2) && !(ExtendedRational(b3) < g3),
                        describe_menu(menu) + ", B(2) = " + str(b2) + ", B(3) = " + str(b3) + ": sup Φ₂ = " + to_string(g2) + ", sup Φ₃ = " + to_string(g3), h);
  }
}

}  // namespace

void families::hstvvxz23(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/hstvvxz23.cpp";
  // the functions of this file (and of hstvvxz23_support.cpp) a reader follows from each page
  const std::map<std::string, std::string> code{
      {"HSTVVXZ23-L2.3", "check_l23"},
      {"HSTVVXZ23-T1.8", "check_t18, tensor_bound, compare_with_tensor"},
      {"HSTVVXZ23-T2.17", "check_t217, alg8 (Algorithm 8/9 by concrete states), compare_alg8, ask_twice; random_post_processor in hstvvxz23_support.cpp"},
      {"HSTVVXZ23-C2.18", "check_c218, views_equal_for_all, relabelled_table"},
      {"HSTVVXZ23-T3.3", "check_t33"},
      {"HSTVVXZ23-L2.19", "check_l219, odometer_round, odometer_filter_identity, approximate_accumulator; replay and view_law in hstvvxz23_support.cpp"},
      {"HSTVVXZ23-T1.20", "check_t120, hashed_rule"},
      {"HSTVVXZ23-T3.4", "check_t34, filter_reduction_round, canonical_menu; canonical_pair_game and certified_entry in hstvvxz23_support.cpp"},
      {"HSTVVXZ23-C3.5", "check_c35, random_im_menu"},
      {"HSTVVXZ23-T3.6", "check_t36, odometer_round, canonical_menu"},
      {"HSTVVXZ23-T3.7", "check_t37, wrrw_independent, wrrw_decisions_agree; exp_lower in hstvvxz23_support.cpp"},
      {"HSTVVXZ23-T3.8", "check_t38, wrrw_accumulator"},
      {"HSTVVXZ23-TB.3", "check_tb3, wrrw_independent"},
      {"HSTVVXZ23-T4.6", "check_t46, f5_menu; adversary_from_policy in hstvvxz23_support.cpp"},
      {"HSTVVXZ23-L4.7", "check_l47, bounded_moment_rule, algorithm12 (the post-processor of Alg 12), algorithm12_identity"},
      {"HSTVVXZ23-L4.8", "check_l48"},
      {"HSTVVXZ23-T4.9", "check_t49, moment_accumulator, odometer_filter_identity"},
      {"HSTVVXZ23-T4.10", "check_t410, zcdp_of_pure, zcdp_holds_at, zcdp_rule"},
      {"BG-RRUV16-BASIC", "check_rruv, approximate_accumulator; rr_bit_game in hstvvxz23_support.cpp"},
      {"BG-GDP-FILTER", "check_gdp, gdp_of_rr"},
      {"X-FILTER-HALT", "check_filter_halt, halting_variants, hashed_rule; LaunchOptions::refuse_and_continue in compose/launch.hpp"},
      {"X-RDP-CURVE", "check_rdp_curve, curve_rule"}};
  auto add = [&](std::string id, std::string title, std::string cite, Kind k, Status s, std::string statement, std::string assumptions,
                 std::string method, std::string instances, std::string explanation, std::vector<std::string> exercises,
                 std::function<void(CheckContext&)> check) {
    const std::string pointer = "Code (" + src + "): " + code.at(id) + ".";
    explanation = explanation.empty() ? pointer : explanation + " " + pointer;
    out.push_back({std::move(id), std::move(title), std::move(cite), k, s, std::move(statement), std::move(assumptions), std::move(method),
                   std::move(instances), std::move(explanation), std::move(exercises), src, std::move(check), ""});
  };
  const std::vector<std::string> filter_api{"exactdp::filter_composition()", "exactdp::worst_case_profile()", "exactdp::worst_case_hockey_stick()"};
  add("HSTVVXZ23-L2.3", "deterministic adversaries suffice for every generalized distance", "HSTVVXZ23 Lemma 2.3", Kind::positive, Status::as_stated,
      "M is d-𝒟 DP iff D(View(A↔M(x)), View(A↔M(x′))) ⪯ d for all deterministic A (joint convexity).", "",
      "For trade-off functions: the exact T of mixtures of random deterministic adversaries (coins hidden) dominates the engine's envelope "
      "(B.7) in both orders.",
      "MP, MA; random games.", "", {"exactdp::tradeoff_envelope()", "exactdp::TradeOff::of()", "exactdp::view_distributions()"}, check_l23);
  add("HSTVVXZ23-T1.8", "concurrent composition with fixed parameters (f-DP form)", "HSTVVXZ23 Thm 1.8; LYU22; VZ23", Kind::positive, Status::as_stated,
      "If every composition of NIMs with M_i (ε_i,δ_i)-DP is (ε,δ)-DP, the same holds for ConComp of finite-communication IMs; f_i-DP "
      "components give f₁⊗…⊗f_k.",
      "Components are finite-communication IMs with static neighbours; per direction, f_i is the component's exact envelope T(V₀,V₁) "
      "(the reverse order is its inverse).",
      "(1) Noninteractive components: the engine's envelope of the product pair equals the tensor of the components' envelopes (both "
      "inequalities). (2) Interactive components composed by compose/'s concurrent() (every interleaving): per direction the tensor "
      "f₁⊗f₂ of the components' exact envelopes is turned into its dual profile and compared with the engine's concurrent profile at "
      "every breakpoint of the bound (X-DUALITY-CHECK) and as whole functions.",
      "F1 (E.9: table and tight), F2 (E.9: sup H₂ = 4/9 = the bound, attained), C1 (E.7); random pairs of random finite mechanisms.",
      "The bound is computed without the composed game: each component is solved alone, its envelope tensored exactly (divergence/), "
      "and only then compared with the engine's value of the composition.",
      {"exactdp::concurrent()", "exactdp::tradeoff_envelope()", "exactdp::tensor()", "exactdp::TradeOff::to_profile()", "exactdp::worst_case_profile()"},
      check_t18);
  add("HSTVVXZ23-T2.17", "IM-to-IM post-processing", "HSTVVXZ23 Thm 2.17 (Algs 7–9)", Kind::positive, Status::as_stated,
      "If P is a PIM and M is d-𝒟 DP then P∘M is d-𝒟 DP.", "P calls M at most twice per left message, so T left rounds use at most 2T rounds of M.",
      "(1) Engine: the profile and Φ₂ of P∘M over T rounds are below M's over 2T rounds. (2) The simulation identity of Algs 8–9 for "
      "concrete deterministic adversaries A: a second implementation enumerates, with concrete states, the runs of the adversary A′ that "
      "runs A and P inside itself against M (its view: P's coin outcomes and M's answers); the law of g(View(A′↔M)) (A's view kept, "
      "inner traffic dropped) must equal the engine's view law of A↔P∘M (compose/postprocess, beliefs), g must be a function, and "
      "H_λ(A's view) ≤ H_λ(A′'s view) ≤ sup over M on the λ grid.",
      "F3 (E.9: 3/8 for M, AND attains it, XOR gives 0; identity for every deterministic A of 1–2 rounds); H17 (random IPMs with up to "
      "two calls per message on random mechanisms).",
      "", {"exactdp::postprocess()", "exactdp::post_processor_from_table()", "exactdp::view_distributions()", "exactdp::worst_case_profile()"}, check_t217);
  add("HSTVVXZ23-C2.18", "simulation implies privacy", "HSTVVXZ23 Cor 2.18 (alias C1.24)", Kind::reduction, Status::as_stated,
      "If every view against N is the view against a PIM post-processing of a d-𝒟 DP IM, N is d-𝒟 DP.", "",
      "For given (N, M, P), N is built directly as a table and P∘M through compose/postprocess; the exact view laws (by answer names) "
      "agree for every deterministic adversary up to the horizon (all enumerated), and the engine confirms the conclusion "
      "sup H_λ(N) ≤ sup H_λ(M) at every λ.",
      "N = AND of two RR₃ with P = ask twice (F3); sticky RR₃ = repeat∘RR₃; IRR_{ln 2,1/10} = (flag, bit)∘RR_{ln 2,1/10} (D.2); random "
      "mechanisms with a random relabelling of messages and answers, N flattened by hand from M's kernel.",
      "", {"exactdp::postprocess()", "exactdp::view_distributions()", "exactdp::library::sticky_randomized_response()",
           "exactdp::library::interactive_randomized_response()"},
      check_c218);
  add("HSTVVXZ23-T3.3", "reduction of f-DP IMs to NIM pairs", "HSTVVXZ23 Thm 3.3 (alias T1.25; = HSV-L14.5); VZ23", Kind::reduction, Status::as_stated,
      "A finite-communication f-DP IM is an interactive post-processing of a pair (Y, Y′) with T(Y,Y′) ≥ f.",
      "Checked for f = f_{ε,δ}, where (Y, Y′) = RR_{ε,δ}.",
      "LYU-DECOMP (B.9) builds the post-processor of RR_{ln γ, δ} at the engine's exact δ(γ) of a composed IM (built by compose/), and "
      "verify_simulator checks Σ_c Pr[RR(b) = c]·T^c(h) = M^b(h) at every history; just below δ(γ) the construction must be refused.",
      "F1, F2 (concurrent compositions), a filter (F4's rule over {RR₂, RR₃}), AND∘fresh RR₃ (F3); random concurrent pairs and random "
      "filters of interactive menus.",
      "A general piecewise-linear f would need the multi-step LP of B.10 with f's canonical pair in place of RR; reduce/ only provides "
      "the RR form, so that part is not checked (the check says so in its note). HSTVVXZ23-T3.4 uses canonical pairs of general "
      "envelopes as the reduction's right-hand side.",
      {"exactdp::likelihood_tree()", "exactdp::lyu_decomposition()", "exactdp::verify_simulator()"}, check_t33);
  add("HSTVVXZ23-L2.19", "odometer ⟺ filter", "HSTVVXZ23 Lemma 2.19 (alias L1.26)", Kind::positive, Status::as_stated,
      "𝒢 is a valid accumulator iff 𝕀(𝒢(·) ⪯ d) is a valid filter for every d.",
      "Trunc_d as normalised in THEOREMS.md A.9; both games answer the refused (resp. over-threshold) launch with \"halt\", so the "
      "relabelling of the halt message is the identity.",
      "For each threshold d: the truncated odometer (compose/odometer_truncated, privacy_loss queries allowed) and the filter "
      "𝕀(𝒢 ⪯ d) have equal worst-case profiles; for random deterministic adversaries of the odometer, the view law with privacy_loss "
      "answers deleted equals the filter's view law of the same decision tree with privacy_loss messages dropped (replayed by name; "
      "the replay fails if a privacy_loss answer is not deterministic); and sup H_{λ_d} of the truncated view is ≤ δ_d.",
      "F4's menu with 𝒢 = Π λ_j at threshold 6 (E.9 F4 table); RR(2,0), RR(1,1/10), RR(2,1/10) with 𝒢 = (Π λ_j, Σ δ_j); random RR "
      "menus and thresholds.",
      "", {"exactdp::odometer_truncated()", "exactdp::product_lambda_accumulator()", "exactdp::filter_composition()", "exactdp::view_distributions()"},
      check_l219);
  add("HSTVVXZ23-T1.20", "NIM filters are IM filters", "HSTVVXZ23 Thm 1.20 / 1.21", Kind::positive, Status::as_stated,
      "ℱ is a valid (ε,δ)-DP (resp. f-DP) NIM-filter iff it is a valid IM-filter for finite-communication IMs.", "",
      "For a NIM menu of RR_{λ,δ} and an IM menu with the same parameters whose members are mutual post-processings of them "
      "(sticky RR_λ, IRR_{λ,δ}), the engine's profiles of the NIM filter and the IM filter are equal for any parameter-only rule — "
      "basic rules and random hashed rules — so the rule is valid for one menu iff for the other, at every budget.",
      "(2,0), (2,1/10) under (ln 4, 1/10); an invalid rule (ignores δ) that fails equally for both; random menus and rules.",
      "\"⇐\" holds because NIMs are IMs; \"⇒\" is HSTVVXZ23-T3.4 (checked there against canonical pairs of arbitrary IMs).",
      filter_api, check_t120);
  add("HSTVVXZ23-T3.4", "concurrent f-DP filter", "HSTVVXZ23 Thm 3.4", Kind::positive, Status::as_stated,
      "A valid f-DP continuation rule for NIMs is valid for finite-communication IMs.",
      "Menu entries halt by themselves (finite communication); their parameters are computed by the engine, never trusted.",
      "(1) Valid rules (basic pure, basic approximate) with interactive menus: sup H_λ of ℱ-FiltCon at the budget λ is ≤ the budget δ. "
      "(2) The reduction: each entry is replaced by the canonical pair of its symmetrised exact envelope (T3.3's (Y, Y′), a NIM); with "
      "the same rule and parameters, the IM filter's profile must lie below the NIM filter's at every λ, both directions (exact "
      "comparison of piecewise-linear functions).",
      "F4 (E.9 table); F1 as a filter (sticky RR₂, RR₃ under Π λ ≤ 6: the F1 table); MP and MA with certified parameters; random "
      "interactive menus (MP, MA, sticky RR, IRR, choice C, random finite mechanisms).",
      "", {"exactdp::filter_composition()", "exactdp::basic_pure_rule()", "exactdp::basic_approximate_rule()", "exactdp::TradeOff::canonical_pair()"}, check_t34);
  add("HSTVVXZ23-C3.5", "NIM filters are concurrent filters", "HSTVVXZ23 Cor 3.5", Kind::positive, Status::as_stated,
      "Every (ε,δ)-DP NIM filter is a concurrent filter for interactive (ε,δ)-DP mechanisms.", "",
      "The basic approximate filter (valid for NIMs, RRUV16) over interactive menus with engine-certified (λ, δ): sup H_λ ≤ δ at the budget.",
      "F4 with sticky RR₂, RR₃, RR₄ (E.9 F4 table); IRR_{ln 2,1/10} twice under (ln 4, 1/5) equals the PLD composition of two "
      "RR_{ln 2,1/10}; random interactive menus with δ > 0 members.",
      "", filter_api, check_c35);
  add("HSTVVXZ23-T3.6", "concurrent f-DP odometer", "HSTVVXZ23 Thm 3.6", Kind::positive, Status::as_stated,
      "A valid NIM f-DP accumulator is valid for finite-communication IMs.", "",
      "L2.19 ∘ T3.4 ∘ L2.19 on interactive menus: with 𝒢 = (Π λ_j, Σ δ_j), the truncated odometer equals the filter (profiles and view "
      "laws), stays within the threshold, and lies below the odometer of the canonical pairs at every λ.",
      "MP (λ = 2) and MA (λ = 3) with certified δ; random interactive menus and thresholds.", "",
      {"exactdp::odometer_truncated()", "exactdp::filter_composition()", "exactdp::TradeOff::canonical_pair()"}, check_t36);
  add("HSTVVXZ23-T3.7", "the WRRW filter", "HSTVVXZ23 Thm 3.7 (appendix form normative)", Kind::positive, Status::corrected,
      "𝕀(√(2 ln(1/δ′)·S₂) + S₂/2 ≤ ε)·𝕀(δ′ + Σδ_m ≤ δ) is a valid filter.", "S₂ = Σ_{m≤k} (ln λ_m)²; ε rational; decisions certified (B.15).",
      "compose/'s whitehouse_rule decides the rule with certified intervals; an independent evaluation here (its own enclosures at "
      "64…8192 bits) must agree on every parameter sequence of length ≤ 3. The filtered view's δ at the certified λ_lo ≤ e^ε (the "
      "lower end of an MPFI enclosure; δ(λ) is non-increasing) must be ≤ δ.",
      "F6 (E.9: the decisions at ε = 2 and 3; H at λ_lo is 0; at ε = 3 two RR₂ do run, H₃ = 1/9); random menus of RR_{λ,δ} and IRR.",
      "The rule is very conservative on tiny instances, so the engine values are mostly 0: the check mainly tests the certified decision "
      "logic against a second implementation.",
      {"exactdp::whitehouse_rule()", "exactdp::filter_composition()", "exactdp::decide_less_equal()"}, check_t37);
  add("HSTVVXZ23-T3.8", "the WRRW odometer", "HSTVVXZ23 Thm 3.8", Kind::positive, Status::corrected,
      "𝒢_{δ′,δ} is a valid accumulator (a family fixed in advance).",
      "𝒢_{δ′,δ}((ε_m,δ_m)) = (√(2 ln(1/δ′)S₂) + S₂/2, δ) while δ′ + Σδ_m ≤ δ, else (∞, ∞); thresholds (ε_t, δ_t).",
      "For δ_t < δ the truncated view must be empty (TV 0); otherwise the truncated odometer equals the WRRW filter at (ε_t, δ, δ′) "
      "(profiles and view laws) and δ(λ_lo(ε_t)) ≤ δ_t.",
      "F6's menu at thresholds (2, 1/4) and (2, 1/5); random menus and thresholds δ_t ∈ {δ/2, δ, 2δ}.", "",
      {"exactdp::odometer_truncated()", "exactdp::whitehouse_rule()"}, check_t38);
  add("HSTVVXZ23-TB.3", "WRRW stopping time", "HSTVVXZ23 Thm B.3", Kind::positive, Status::as_stated,
      "Comp(M₁..M_N) is (ε,δ)-DP for the WRRW stopping time N.", "Example B.2 read with +Σ_{m≤k}δ_m; δ″ = δ − δ′.",
      "(1) N evaluated from its definition (independent certified enclosures) equals the number of launches the T3.7 rule accepts "
      "before its first refusal, on random parameter sequences. (2) The filter of adaptively chosen NIMs played by sequential adversaries "
      "(compose/sequential_adversaries) has δ(λ_lo(ε)) ≤ δ, and is below the concurrent value.",
      "Random menus of RR_{λ,δ} with λ ∈ {11/10, 6/5, 3/2, 2}.", "", {"exactdp::whitehouse_rule()", "exactdp::sequential_adversaries()"}, check_tb3);
  add("HSTVVXZ23-T4.6", "Rényi filter", "HSTVVXZ23 Thm 4.6 (alias T1.22(1))", Kind::positive, Status::as_stated,
      "𝕀(Σε_i ≤ ε) is a valid (α,ε)-RDP IM-filter.", "Integer α ∈ {2, 3}; budgets in moment form B = e^{(α−1)ε}, launches assert their exact sup moment.",
      "The engine's exact sup Φ_α of ℱ-FiltCon under Π m_j ≤ B is ≤ B; on F5 the values by depth are the E.9 ones, and the adaptive "
      "strategy of E.9 is built as a decision tree and its exact view moment computed.",
      "F5 (E.9: 13/4, 7/2, 7/2, 7/2 by depth; 251/72 for the adaptive strategy); random interactive menus at α = 2, 3.", "",
      {"exactdp::renyi_moment_rule()", "exactdp::worst_case_renyi_moment()", "exactdp::filter_composition()"}, check_t46);
  add("HSTVVXZ23-L4.7", "bounded number of launches", "HSTVVXZ23 Lemma 4.7 (Alg 12)", Kind::positive, Status::as_stated,
      "ℱ_K = 𝕀(Σε_i ≤ ε ∧ k ≤ K) is valid.", "Moment form at α = 2.",
      "(1) Exact sup Φ₂ of ℱ_K-FiltCon ≤ B for K = 1, 2, 3. (2) The Alg 12 identity: for a deterministic adversary whose first launch "
      "is M₁, ℱ_K-FiltCon equals P∘ConComp(M₁, ℱ_{K−1}-FiltCon at budget B/m₁), with P routing a query to launch 1 to M₁, a query to launch j ≥ 2 to the inner filter "
      "as a query to its launch j − 1 and halting everything once the inner filter halts; the view laws of random such adversaries are compared exactly.",
      "F5's menu (E.9 values by depth); random interactive menus.", "",
      {"exactdp::filter_composition()", "exactdp::concurrent()", "exactdp::postprocess_mechanism()", "exactdp::worst_case_renyi_moment()"}, check_l47);
  add("HSTVVXZ23-L4.8", "limit of Rényi divergences", "HSTVVXZ23 Lemma 4.8 (van Erven–Harremoës)", Kind::note, Status::as_stated,
      "The Rényi divergence of the full view is the limit of that of its prefixes.", "A limit statement; only its finite consequence is checked.",
      "Sanity check: the engine's sup Φ₂ of the view prefix is non-decreasing in the prefix length.", "Random games.", "",
      {"exactdp::worst_case_renyi_moment()"}, check_l48);
  add("HSTVVXZ23-T4.9", "Rényi odometer", "HSTVVXZ23 Thm 4.9 (alias T1.22(2))", Kind::positive, Status::corrected,
      "𝒢 = Σε_i is a valid RDP_α concurrent accumulator.", "The printed sum index should run to k; moment form Π m_j at α = 2.",
      "L2.19 + T4.6: for thresholds B, the truncated odometer has the filter's exact sup Φ₂ (and view laws), and it is ≤ B.",
      "F5's menu at B = 3/2, 3, 7/2, 5; random interactive menus.", "", {"exactdp::odometer_truncated()", "exactdp::worst_case_renyi_moment()"}, check_t49);
  add("HSTVVXZ23-T4.10", "zCDP filter and odometer", "HSTVVXZ23 Thm 4.10 / 4.11 (Alg 13)", Kind::positive, Status::as_stated,
      "𝕀(Σρ_i ≤ ρ) is a valid ρ-zCDP IM-filter; Σρ_i is a valid accumulator.",
      "Launched mechanisms are pure, ln λ_j-DP with λ_j their exact pure level, hence ρ_j-zCDP with ρ_j a certified rational upper bound "
      "on (ln λ_j)²/2; the rule sums the ρ_j exactly.",
      "Necessary conditions of ρ-zCDP, D_α ≤ αρ, at α = 2, 3 (exact moments, e^{(α−1)αρ} certified) and α = 3/2, 5/2 (certified "
      "real-α moments), for each entry (the premise) and for the filter; the Σρ odometer's truncated view equals the filter's.",
      "RR₂ (ρ = 1/4) and RR₃ (ρ = 61/100) under ρ = 1/2: sup Φ₂ = 9/4 (two RR₂); random pure interactive menus.",
      "The full statement quantifies over every real α > 1; the check covers four orders, each decided with certified enclosures.",
      {"exactdp::worst_case_renyi_moment()", "exactdp::worst_case_renyi_moment_certified()", "exactdp::decide_exp()"}, check_t410);
  out.push_back({"HSTVVXZ23-OPEN", "approximate RDP / zCDP concurrent composition is open", "HSTVVXZ23 §4", Kind::note, Status::as_stated,
                 "exactdp must not claim concurrent filters, odometers or compositions for approximate RDP or approximate zCDP.", "", "", "", "", {}, src,
                 {}, "an open problem, so there is no statement to confirm or refute on instances. exactdp keeps to it: its "
                 "Rényi filters and compositions (HSTVVXZ23-T4.6, LYU22-T2) are for RDP itself, and it offers no "
                 "concurrent filter, odometer or composition for approximate RDP or approximate zCDP"});
  add("BG-RRUV16-BASIC", "basic filters", "RRUV16; HSTVVXZ23 Cor 3.5", Kind::positive, Status::as_stated,
      "𝕀(Σε_i ≤ ε) and 𝕀(Σε_i ≤ ε ∧ Σδ_i ≤ δ) are valid NIM filters, hence concurrent IM filters; the accumulators are valid odometers.",
      "", "Exact: rules compare Π λ_i ≤ λ and Σ δ_i ≤ δ; the engine's δ at the budget λ of the filter and of the truncated odometer is ≤ δ.",
      "F4 (E.9); H11 (E.10: 23/50, 37/100, 19/100); random RR menus.", "",
      {"exactdp::basic_pure_rule()", "exactdp::basic_approximate_rule()", "exactdp::odometer_truncated()", "exactdp::filter_composition()"}, check_rruv);
  add("BG-GDP-FILTER", "Gaussian-DP filter", "Smith–Thakurta; Koskela–Tobaben–Honkela", Kind::positive, Status::as_stated,
      "𝕀(Σμ_i² ≤ μ²) is a valid Gaussian-DP filter.", "Each entry's μ_j is the least k/20 with f_{ln λ_j,0} ≥ G_{μ_j} (certified).",
      "The filtered view's exact trade-off envelope dominates G_μ in both orders (certified comparison at its vertices).",
      "RR₂ and sticky RR₃ under μ = 1; random RR / sticky RR menus.", "", {"exactdp::dominates_gaussian()", "exactdp::tradeoff_envelope()"}, check_gdp);
  add("X-FILTER-HALT", "halting variants and strengthening of filters", "THEOREMS.md C.4", Kind::positive, Status::as_stated,
      "For a rule depending only on adversary-chosen parameters, halting and refusing variants are equivalent; a pointwise smaller rule "
      "of a valid rule is valid.",
      "The refusing variant is filter_composition with LaunchOptions::refuse_and_continue (answer \"refused\", state unchanged).",
      "(i) Equal profiles and Φ₂ of both variants; view identities both ways: a refusing-variant adversary replayed on the halting "
      "variant with every refused launch skipped (the adversary computes refusals itself) has the same view law once \"refused\" "
      "answers are deleted; a halting-variant adversary replayed on the refusing variant stops at the refusal, matching the halting view "
      "cut there. (ii) Random sub-rules (a valid basic rule ∧ a seeded hash of the parameters) stay within the budget.",
      "F4's menu; random RR and interactive menus.",
      "A rule that looks at the data cannot be written as a ContinuationRule; one hand-written table shows part (ii) failing for such a "
      "rule, part (i)'s failure is not shown.",
      {"exactdp::filter_composition()", "exactdp::LaunchOptions", "exactdp::view_distributions()"}, check_filter_halt);
  add("X-RDP-CURVE", "curve-valued RDP budgets", "THEOREMS.md C.4", Kind::positive, Status::as_stated,
      "Continuing iff Σε_i(α) ≤ ε(α) for every α of the grid is valid; \"for some α\" is not.", "Grid {2, 3}, moment form.",
      "The engine's exact sup Φ₂ and sup Φ₃ of the \"every α\" filter are within B(2) and B(3) on random interactive menus; for the "
      "\"some α\" rule an instance violates both orders.",
      "X (a rare high-ratio atom) and RR₂₀ with B(2) = Φ₂(X)², B(3) = Φ₃(RR₂₀)²; random interactive menus.", "",
      {"exactdp::filter_composition()", "exactdp::worst_case_renyi_moment()"}, check_rdp_curve);
}

}  // namespace exactdp::proofs
