// THEOREMS.md C.5, HSV §6–9 — complex continual mechanisms built from sub-mechanisms: the
// privacy of P∘*ExtConComp (Thm 6.1, Claims 6.3/6.4, Cor 6.6), the Henzinger–Sricharan–Steiner
// histogram and the d-counter (§7), the local-DP multi-round framework (§8) and the
// core-decomposition protocol (§9). The composites are the library's (library/library_hsv.hpp):
// each check runs the HSV §6 condition checker (reduce/complex_mechanism.hpp, B.17) on the very
// post-processor P that the engine's game runs, and compares exact engine values with the bounds
// the theorems give from the sub-mechanisms' own exact values.
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/mechanism/composite.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_hsv.hpp"
#include "exactdp/reduce/complex_mechanism.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "proofs_checks/support.hpp"

#include <map>
#include <memory>

namespace exactdp::proofs {
namespace {

using library::CompositeModel;
using Pair = PairRelation::Pair;

/// The checker's instance of a library composite, with room for the larger toy sizes.
CompositeInstance instance_of(const CompositeModel& m) {
  CompositeInstance in = library::checker_instance(m);
  in.max_paths = 5'000'000;
  return in;
}

std::string verdict(const CompositeCheck& c, bool taint = false) {
  if (c.holds)
    return std::string(taint ? "taint rules, " : "") + "destination, response, f → f′ hold (" + std::to_string(c.configurations) + " configurations)";
  std::string trace;
  for (const auto& t : c.violation->trace) trace += (trace.empty() ? "" : ", ") + t;
  return c.violation->condition + " fails after " + trace + " (" + c.violation->detail + ")";
}

/// The sup_A H_λ of the composition Comp(RR_{λ₁}, …) (pure components) at λ, both directions.
Rational rr_bound(const std::vector<Rational>& lambdas, const Rational& lambda) {
  std::vector<std::pair<Rational, Rational>> parts;
  for (const auto& l : lambdas) parts.push_back({l, Rational(0)});
  const PrivacyLoss loss = rr_product_loss(parts);
  return std::max(hockey_stick(loss, lambda), hockey_stick(loss.swapped(), lambda));
}

/// Records "profile of @p game ≤ @p bound(λ) at every λ of the grid".
template <class Bound>
void profile_at_most(CheckContext& ctx, const std::string& name, const Game& game, Bound bound, const std::string& bound_name) {
  bool ok = true;
  std::string out;
  for (const auto& lambda : lambda_grid()) {
    const Rational got = worst_case_hockey_stick(game, lambda).delta(), b = bound(lambda);
    ok = ok && got <= b;
    if (lambda == 1 || lambda == 2 || lambda == 4 || got > b) out += (out.empty() ? "" : "; ") + std::string("δ(") + str(lambda) + ") = " + str(got) + " ≤ " + str(b);
  }
  ctx.instance(name + ": sup_A H_λ ≤ " + bound_name + " on the λ grid", out, ok, game.horizon);
}

// ------------------------------------------------------------------ HSV Thm 6.1

/// A random composite with the three properties by construction: P keeps an untainted label u ∈
/// {0,1,2}; on a left bit x it sends x to sub-mechanism k(u); on the answer a it replies g(u, a)
/// and moves to h(u, a). Both sub-mechanisms are random continual tables (E.11). f: bit pairs, at
/// most one differing; f′: bit pairs to one sub-mechanism, at most one differing in total.
struct RandomComposite {
  CompositeInstance instance;
  Game composite, concomp;
  std::string description;
};

RandomComposite random_composite(Rng& rng, unsigned horizon) {
  std::vector<SubMechanism> subs;
  for (int i = 0; i < 2; ++i) subs.push_back({random_table_game(rng, static_cast<int>(rng.range(2, 3)), 1).mechanism, 0});
  int k[3], h[3][2];
  std::string g[3][2];
  std::string desc = "k, g, h = ";
  for (int u = 0; u < 3; ++u) {
    k[u] = static_cast<int>(rng.range(0, 1));
    for (int a = 0; a < 2; ++a) g[u][a] = std::string(1, static_cast<char>('A' + rng.range(0, 2))), h[u][a] = static_cast<int>(rng.range(0, 2));
    desc += "(" + std::to_string(k[u]) + "; " + g[u][0] + g[u][1] + "; " + std::to_string(h[u][0]) + std::to_string(h[u][1]) + ")";
  }
  using Emit = DeterministicPostProcessor::Emit;
  DeterministicPostProcessor P{"random answer-driven P", "0", [=](const std::string& s, Port from, const std::string& m) {
                                 const int u = s[0] - '0';
                                 if (from == Port::left) return Emit{s + "w", Port::right, sub_message(static_cast<std::size_t>(k[u]), m), {}};
                                 const int a = m.back() - '0';
                                 return Emit{std::to_string(h[u][a]), Port::left, g[u][a], {}};
                               }};
  const std::vector<std::string> bits{"0", "1"};
  std::vector<Pair> input_pairs{{"0", "0"}, {"0", "1"}, {"1", "0"}, {"1", "1"}};
  PairRelation f;
  f.initial = "0";
  f.allowed = [input_pairs](const std::string& s) {
    return s == "0" ? input_pairs : std::vector<Pair>{{"0", "0"}, {"1", "1"}};
  };
  f.next = [](const std::string& s, const Pair& p) { return p.first == p.second ? s : std::string("1"); };
  PairRelation fp;
  fp.initial = "0";
  fp.decide = [](const std::string& s, const Pair& p) -> std::optional<std::string> {
    if (p.first.substr(0, 2) != p.second.substr(0, 2)) return std::nullopt;
    if (p.first == p.second) return s;
    if (s != "0") return std::nullopt;
    return std::string("1");
  };
  RandomComposite r;
  r.description = desc;
  r.instance.processor = P;
  r.instance.input_relation = f;
  r.instance.output_relation = fp;
  r.instance.answers_to = [](const std::string& m) { return std::vector<std::string>{m.substr(0, 2) + "0", m.substr(0, 2) + "1"}; };
  r.instance.horizon = 2 * horizon;
  const CompositeMechanism cm = compose_deterministic(P, bits, subs);
  auto id = [&](const InteractiveMechanism& mech, const std::string& s) { return *mech.message_id(s); };
  std::vector<MessagePair> pairs;
  for (const auto& [a, b] : input_pairs) pairs.push_back({id(*cm.mechanism, a), id(*cm.mechanism, b)});
  r.composite.name = "random composite";
  r.composite.mechanism = cm.mechanism;
  r.composite.verifier = std::make_shared<PairsVerifier>(pairs, 1u);
  r.composite.initial = {InitialLaw{{cm.initial, Rational(1)}}, InitialLaw{{cm.initial, Rational(1)}}};
  r.composite.horizon = horizon;
  // ExtConComp of the same two instances under f′ (a forwarding P): the adversary picks the target
  DeterministicPostProcessor forward{"ConComp", "r", [](const std::string&, Port from, const std::string& m) {
                                       return Emit{"r", from == Port::left ? Port::right : Port::left, m, {}};
                                     }};
  std::vector<std::string> routed;
  for (std::size_t i = 0; i < 2; ++i)
    for (const auto& b : bits) routed.push_back(sub_message(i, b));
  const CompositeMechanism cc = compose_deterministic(forward, routed, subs);
  std::vector<MessagePair> cpairs;
  for (std::size_t i = 0; i < 2; ++i)
    for (const auto& [a, b] : input_pairs) cpairs.push_back({id(*cc.mechanism, sub_message(i, a)), id(*cc.mechanism, sub_message(i, b))});
  r.concomp = r.composite;
  r.concomp.name = "ExtConComp under f′";
  r.concomp.mechanism = cc.mechanism;
  r.concomp.verifier = std::make_shared<PairsVerifier>(cpairs, 1u);
  r.concomp.initial = {InitialLaw{{cc.initial, Rational(1)}}, InitialLaw{{cc.initial, Rational(1)}}};
  r.composite.validate();
  r.concomp.validate();
  return r;
}

void check_t61(CheckContext& ctx) {
  // (1) The library's composites: the conditions hold; for the LDP toy, whose f′-composition of the
  // users is a game of its own, the engine confirms the conclusion at every λ of the grid.
  const CompositeModel ldp = library::ldp_threshold_protocol(2, q(2), 2);
  const auto c = check_composite_conditions(instance_of(ldp));
  ctx.instance("B.17 on S_P of the toy LDP protocol (n = 2, k = 2)", verdict(c), c.holds);
  const Game users = library::ldp_users_composition(2, q(2), 2);
  profile_at_most(ctx, "toy LDP protocol (n = 2) against its users' f′-composition", ldp.game,
                  [&](const Rational& l) { return worst_case_hockey_stick(users, l).delta(); }, "the users' ExtConComp under f_{P,∼}");
  // (2) Random answer-driven processors over random sub-mechanisms: the checker confirms the
  // conditions, and the composite's profile never exceeds ExtConComp's under f′.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned horizon = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    const RandomComposite r = random_composite(ctx.rng(), horizon);
    const auto check = check_composite_conditions(r.instance);
    std::string bad;
    for (const auto& lambda : lambda_grid()) {
      const auto a = worst_case_hockey_stick(r.composite, lambda), b = worst_case_hockey_stick(r.concomp, lambda);
      if (a.forward > b.forward || a.backward > b.backward)
        bad += " λ = " + str(lambda) + ": (" + str(a.forward) + ", " + str(a.backward) + ") > (" + str(b.forward) + ", " + str(b.backward) + ");";
    }
    ctx.random_instance(check.holds && bad.empty(), r.description + ": " + verdict(check) + bad, horizon);
  }
  // (3) Negative control: a P that branches on the raw input (the histogram that ends an interval
  // when the raw count exceeds the threshold) is caught by the destination condition.
  library::HistogramParams p;
  const CompositeModel leaky = library::hss_histogram(p, library::HistogramVariant::raw_branch);
  const auto l = check_composite_conditions(instance_of(leaky));
  ctx.instance("negative control: " + leaky.processor.name, verdict(l), !l.holds && l.violation->condition == "destination");
}

// ------------------------------------------------------------------ HSV Claims 6.3, 6.4

/// P² of HSV D6.2 with the identifier I(b) on its right (and optionally the inner verifier V[f′]):
/// an independent implementation of the right-hand sides of Claims 6.3 and 6.4. State: the world,
/// both copies' states, f′'s state and the sub-mechanisms' states.
struct P2State {
  int b = 0;
  std::string s0, s1, sigma;
  bool halted = false;
  std::vector<StateId> subs;
  friend bool operator==(const P2State&, const P2State&) = default;
};
struct P2Hash {
  std::size_t operator()(const P2State& s) const {
    std::size_t h = std::hash<std::string>{}(s.s0 + "\x1f" + s.s1 + "\x1f" + s.sigma) ^ (static_cast<std::size_t>(s.b) << 1) ^ s.halted;
    for (StateId x : s.subs) h = h * 1000003u + x;
    return h;
  }
};
using P2Mechanism = LambdaMechanism<P2State, P2Hash>;

std::shared_ptr<P2Mechanism> p_squared(const CompositeModel& m, const PairRelation& inner, bool with_inner_verifier,
                                       const std::vector<std::string>& pair_messages) {
  auto step = [m, inner, with_inner_verifier](const P2State& s, const std::string& message) -> std::vector<Outcome<P2State>> {
    if (s.halted) return {{Rational(1), halt_answer, s}};
    const auto bar = message.find('|');
    struct Branch {
      Rational w;
      P2State st;
      Port from;
      std::string m0, m1;
    };
    std::vector<Outcome<P2State>> out;
    std::vector<Branch> work{{Rational(1), s, Port::left, message.substr(0, bar), message.substr(bar + 1)}};
    while (!work.empty()) {
      Branch br = std::move(work.back());
      work.pop_back();
      const auto e0 = m.processor.step(br.st.s0, br.from, br.m0), e1 = m.processor.step(br.st.s1, br.from, br.m1);
      if (e0.to != e1.to) throw Error("P²", br.st.s0 + " / " + br.st.s1, message, "undefined: the copies send to different ports (destination fails)");
      P2State next = br.st;
      next.s0 = e0.next;
      next.s1 = e1.next;
      if (e0.to == Port::left) {
        if (e0.message != e1.message) throw Error("P²", br.st.s0 + " / " + br.st.s1, message, "undefined: the copies answer differently (response fails)");
        out.push_back({br.w, e0.message, next});
        continue;
      }
      if (with_inner_verifier) {  // V[f′] halts the moment the right pairs stop being f′-valid
        const auto after = inner.transition(next.sigma, {e0.message, e1.message});
        if (!after) {
          P2State dead{next.b, "", "", "", true, {}};
          out.push_back({br.w, halt_answer, dead});
          continue;
        }
        next.sigma = *after;
      }
      const std::string& forwarded = next.b == 0 ? e0.message : e1.message;  // I(b)
      const auto colon = forwarded.find(':');
      const std::size_t i = std::stoul(forwarded.substr(0, colon));
      const auto& sub = *m.subs.at(i).mechanism;
      for (const auto& t : sub.step(next.subs[i], *sub.message_id(forwarded.substr(colon + 1)))) {
        P2State moved = next;
        moved.subs[i] = t.next;
        const std::string a = sub_message(i, sub.answer_name(t.answer));
        work.push_back({br.w * t.probability, std::move(moved), Port::right, a, a});
      }
    }
    return out;
  };
  return std::make_shared<P2Mechanism>("P² ∘* I(b) ∘* ExtConComp", pair_messages, step);
}

/// M^b(h) of a mechanism from a world-b initial state by the forward recursion (A.3).
Rational forward_likelihood(const InteractiveMechanism& mech, StateId start, const std::vector<std::pair<std::string, std::string>>& history) {
  std::map<StateId, Rational> f{{start, Rational(1)}};
  for (const auto& [message, answer] : history) {
    std::map<StateId, Rational> g;
    const MessageId id = *mech.message_id(message);
    for (const auto& [s, w] : f)
      for (const auto& t : mech.step(s, id))
        if (mech.answer_name(t.answer) == answer) g[t.next] += w * t.probability;
    f = std::move(g);
  }
  Rational total = 0;
  for (const auto& [s, w] : f) total += w;
  return total;
}

/// Compares, at every history of the composite's likelihood tree, both worlds' likelihoods with
/// those of P² (with or without V[f′]); returns the number of mismatches and the first one.
std::pair<std::size_t, std::string> compare_with_p2(const CompositeModel& m, const PairRelation& inner, bool with_inner, unsigned horizon,
                                                    std::size_t* histories = nullptr) {
  const LikelihoodTree tree = likelihood_tree(m.game, horizon);
  const auto& lm = m.game.mechanism->messages();
  std::vector<std::string> pair_messages;
  for (const auto& a : lm)
    for (const auto& b : lm) pair_messages.push_back(a + "|" + b);
  auto p2 = p_squared(m, inner, with_inner, pair_messages);
  StateId start[2];
  for (int b = 0; b < 2; ++b) {
    P2State s{b, m.processor.initial, m.processor.initial, inner.initial, false, {}};
    for (const auto& sub : m.subs) s.subs.push_back(sub.initial);
    start[b] = p2->state_id(s);
  }
  std::size_t bad = 0;
  std::string first;
  for (std::size_t n = 0; n < tree.nodes.size(); ++n) {
    std::vector<std::pair<std::string, std::string>> h;
    for (const auto& [pair, a] : tree.history(n)) h.push_back({lm[pair.world0] + "|" + lm[pair.world1], tree.mechanism->answer_name(a)});
    for (int b = 0; b < 2; ++b) {
      const Rational rhs = forward_likelihood(*p2, start[b], h);
      if (rhs != tree.nodes[n].likelihood[static_cast<std::size_t>(b)]) {
        if (bad++ == 0) first = "history " + tree.describe(n) + ", world " + std::to_string(b) + ": " + str(tree.nodes[n].likelihood[static_cast<std::size_t>(b)]) + " vs " + str(rhs);
      }
    }
  }
  if (histories) *histories = tree.nodes.size();
  return {bad, first};
}

void check_cl63(CheckContext& ctx) {
  library::HistogramParams hp;  // d = 1, T = 2
  const CompositeModel hist = library::hss_histogram(hp);
  const CompositeModel ldp = library::ldp_threshold_protocol(2, q(2), 2);
  for (const CompositeModel* m : {&hist, &ldp}) {
    std::size_t nodes = 0;
    const auto [bad63, first63] = compare_with_p2(*m, m->output_relation, false, m->game.horizon, &nodes);
    ctx.instance("CL6.3 on " + m->game.name + ": I(b)∘*P∘*ExtConComp ≡ P²∘*I(b)∘*ExtConComp",
                 bad63 == 0 ? "equal likelihoods at all " + std::to_string(nodes) + " histories, both worlds" : std::to_string(bad63) + " mismatches, first " + first63,
                 bad63 == 0, m->game.horizon);
    const auto [bad64, first64] = compare_with_p2(*m, m->output_relation, true, m->game.horizon);
    ctx.instance("CL6.4 on " + m->game.name + ": adding V[f′] inside P² changes nothing",
                 bad64 == 0 ? "equal likelihoods at all " + std::to_string(nodes) + " histories" : std::to_string(bad64) + " mismatches, first " + first64,
                 bad64 == 0, m->game.horizon);
  }
  // Negative control of CL6.4: with f′ = ∼_{1,∼*} (one user may differ) while f lets two users differ,
  // f → f′ fails, and V[f′] inside P² halts views that the composite produces.
  const CompositeModel one = library::ldp_threshold_protocol(2, q(2), 1);
  CompositeModel wrong = ldp;
  wrong.output_relation = one.output_relation;
  const auto chk = check_composite_conditions(instance_of(wrong));
  const auto [bad, first] = compare_with_p2(wrong, wrong.output_relation, true, wrong.game.horizon);
  ctx.instance("negative control: toy LDP with f′ = ∼_{1,∼*} but f = ∼_{2,∼*}", verdict(chk) + "; CL6.4 sides differ at " + std::to_string(bad) + " likelihoods (" + first + ")",
               !chk.holds && chk.violation->condition == "f -> f'" && bad > 0);
}

// ------------------------------------------------------------------ HSV §7: d-counter, histogram

void check_c75(CheckContext& ctx) {
  // d tree counters of height h with node noise DLap(r): each ln(r^{−(h+1)})-DP by X-TREE; the exact
  // adaptive profile of the d-counter under f_C equals Comp(d(h+1) × RR_{1/r}) (a unit change in
  // every coordinate at the first step touches h+1 nodes of every counter).
  struct Case {
    unsigned d, height;
    Rational r;
  };
  std::vector<Case> cases{{2, 1, q(1, 2)}, {2, 1, q(1, 3)}, {3, 0, q(1, 2)}};
  if (ctx.budget().level == BudgetLevel::extended) cases.push_back({2, 2, q(1, 2)});  // 30 s: long budget only
  for (const auto& c : cases) {
    const Game g = library::d_counter(c.d, c.height, c.r, 1, 0);
    const unsigned copies = c.d * (c.height + 1);
    const std::vector<Rational> rr(copies, 1 / c.r);
    bool ok = true;
    std::string out;
    for (const auto& lambda : lambda_grid()) {
      const Rational got = worst_case_hockey_stick(g, lambda).delta(), expected = rr_bound(rr, lambda);
      ok = ok && got == expected;
      if (lambda <= 4) out += (out.empty() ? "" : "; ") + std::string("δ(") + str(lambda) + ") = " + str(got);
    }
    const auto ratio = worst_case_ratio(g).max();
    const Rational claim = pow(Rational(1 / c.r), copies);
    ok = ok && ratio == ExtendedRational(claim);
    ctx.instance(std::to_string(c.d) + "-counter, height " + std::to_string(c.height) + ", r = " + str(c.r) + ": profile = Comp(" +
                     std::to_string(copies) + " × RR_" + str(1 / c.r) + "), ratio = " + str(claim),
                 out + "; ratio " + to_string(ratio), ok, g.horizon);
  }
}

/// The exact pure level of each group of the histogram's sub-mechanisms (one SVT instance under f_S,
/// one Laplace instance under f_{L,1}, the d-counter under f_C) and the claimed levels of HSV L7.4,
/// the Laplace mechanism and C7.5.
struct HistogramSplit {
  ExtendedRational svt, laplace, counter;
  Rational svt_claim, laplace_claim, counter_claim;
};

HistogramSplit split_of(const library::HistogramParams& p) {
  HistogramSplit s;
  s.svt = worst_case_ratio(library::hss_svt_instance(p)).max();
  s.laplace = worst_case_ratio(library::hss_laplace_instance(p)).max();
  s.counter = worst_case_ratio(library::hss_d_counter(p)).max();
  unsigned height = 0;
  while ((1u << height) < p.steps) ++height;
  s.svt_claim = 1 / (p.r_threshold * p.r_query * p.r_query);
  s.laplace_claim = 1 / p.r_laplace;
  s.counter_claim = pow(Rational(1 / p.r_node), p.d * (height + 1));
  return s;
}

void histogram_instance(CheckContext& ctx, const std::string& label, const library::HistogramParams& p, const Rational& third) {
  const CompositeModel m = library::hss_histogram(p);
  const auto conditions = check_composite_conditions(instance_of(m));
  ctx.instance(label + ": B.17 on HSV Alg 4 with f_H → f′", verdict(conditions), conditions.holds);
  const HistogramSplit s = split_of(p);
  const bool groups = s.svt <= ExtendedRational(s.svt_claim) && s.laplace <= ExtendedRational(s.laplace_claim) &&
                      s.counter <= ExtendedRational(s.counter_claim) && s.svt_claim <= third && s.laplace_claim <= third && s.counter_claim <= third;
  ctx.instance(label + ": each group within e^{ε/3} = " + str(third),
               "SVT " + to_string(s.svt) + " (L7.4 claim " + str(s.svt_claim) + "), Laplace " + to_string(s.laplace) + " (claim " +
                   str(s.laplace_claim) + "), d-counter " + to_string(s.counter) + " (C7.5 claim " + str(s.counter_claim) + ")",
               groups, p.steps + 1);
  if (!groups || !s.svt.is_finite() || !s.laplace.is_finite() || !s.counter.is_finite()) return;
  const auto ratio = worst_case_ratio(m.game).max();
  const Rational product = s.svt.value() * s.laplace.value() * s.counter.value();
  ctx.instance(label + ": histogram ratio ≤ product of the exact group ratios ≤ e^ε = " + str(pow(third, 3u)),
               to_string(ratio) + " ≤ " + str(product), ratio <= ExtendedRational(product) && product <= pow(third, 3u), p.steps);
  const std::vector<Rational> levels{s.svt.value(), s.laplace.value(), s.counter.value()};
  profile_at_most(ctx, label, m.game, [&](const Rational& l) { return rr_bound(levels, l); }, "Comp(RR at the three exact group levels) (T4.10)");
}

void check_hist(CheckContext& ctx) {
  // The standard split with e^{ε/3} = 16: SVT_{ε/6} with τ ~ DLap(1/4), ν ~ DLap(1/2) (λ = 16, H12),
  // the Laplace test DLap(1/16), and d counters of height 1 with r^{−2d} = 16.
  library::HistogramParams p;  // d = 1, T = 2, r_node = 1/4
  histogram_instance(ctx, "d = 1, T = 2", p, q(16));
  library::HistogramParams p2 = p;
  p2.d = 2;
  p2.r_node = q(1, 2);
  if (ctx.budget().level != BudgetLevel::small) histogram_instance(ctx, "d = 2, T = 2", p2, q(16));
  if (ctx.budget().level == BudgetLevel::extended) {
    // T = 3 needs counters of height 2: e^{ε/3} = 4096 with r_node = 1/16 (d = 1), τ ~ DLap(1/64), ν ~ DLap(1/8)
    library::HistogramParams p3 = p;
    p3.steps = 3;
    p3.r_threshold = q(1, 64);
    p3.r_query = q(1, 8);
    p3.r_laplace = q(1, 4096);
    p3.r_node = q(1, 16);
    histogram_instance(ctx, "d = 1, T = 3", p3, q(4096));
  }
  // Leaky variants: the checker names the broken condition, and the engine sees the leak (an
  // infinite ratio, beyond every finite split).
  for (auto [variant, condition] : {std::pair{library::HistogramVariant::raw_branch, "destination"},
                                    std::pair{library::HistogramVariant::raw_release, "response"}}) {
    const CompositeModel m = library::hss_histogram(p, variant);
    const auto c = check_composite_conditions(instance_of(m));
    const auto ratio = worst_case_ratio(m.game).max();
    ctx.instance("leaky: " + m.processor.name, verdict(c) + "; engine ratio " + to_string(ratio),
                 !c.holds && c.violation->condition == condition && ratio > ExtendedRational(pow(q(16), 3u)), p.steps);
  }
}

// ------------------------------------------------------------------ HSV Cor 6.6

void check_c66(CheckContext& ctx) {
  // The pseudocode form: the histogram's P carries a taint bit with each variable (the input row and
  // everything computed from it tainted; sub-mechanism answers and constants untainted) and reports
  // every decision and every output that reads a tainted value. Both copies are run on every
  // f_H-valid input pair and common answer sequence; f → f′ is checked on the paired right messages.
  std::vector<std::pair<std::string, library::HistogramParams>> cases;
  library::HistogramParams p;
  cases.push_back({"d = 1, T = 2", p});
  if (ctx.budget().level != BudgetLevel::small) {
    library::HistogramParams p2 = p;
    p2.d = 2;
    p2.r_node = q(1, 2);
    cases.push_back({"d = 2, T = 2", p2});
  }
  for (const auto& [label, params] : cases) {
    CompositeInstance in = instance_of(library::hss_histogram(params));
    in.taint_rules = true;
    const auto c = check_composite_conditions(in);
    ctx.instance("HSS histogram " + label + ": taint rules of D6.5 and f_H → f′", verdict(c, true), c.holds);
  }
  // the taint rules catch both leaky variants at the statement itself, on the first input
  for (auto [variant, statement] : {std::pair{library::HistogramVariant::raw_branch, "if q(c + h) > Thresh"},
                                    std::pair{library::HistogramVariant::raw_release, "return out"}}) {
    const CompositeModel m = library::hss_histogram(p, variant);
    CompositeInstance in = instance_of(m);
    in.taint_rules = true;
    const auto c = check_composite_conditions(in);
    ctx.instance("taint tracker on " + m.processor.name, verdict(c),
                 !c.holds && c.violation->condition == "taint" && c.violation->detail.find(statement) != std::string::npos);
  }
  // the conclusion of the corollary on the faithful histogram: its exact worst ratio is within the
  // product of the exact levels of the f′-composition's groups (computed in full by HSV-S7.2-HIST)
  const HistogramSplit s = split_of(p);
  const auto ratio = worst_case_ratio(library::hss_histogram(p).game).max();
  const bool finite = s.svt.is_finite() && s.laplace.is_finite() && s.counter.is_finite();
  const Rational product = finite ? Rational(s.svt.value() * s.laplace.value() * s.counter.value()) : Rational(0);
  ctx.instance("d = 1, T = 2: worst ratio ≤ λ_SVT·λ_Lap·λ_C", to_string(ratio) + " ≤ " + str(product), finite && ratio <= ExtendedRational(product), p.steps);
}

// ------------------------------------------------------------------ HSV §8: local protocols

void check_c88(CheckContext& ctx) {
  // H14: n = 3 users with λ_u = 2, ∼_{2,∼*}: sup H_λ = 1/3, 2/9, 0 at λ = 1, 2, 4 = Comp(RR₂ × 2).
  const auto user = worst_case_ratio(library::ldp_threshold_user(q(2))).max();
  expect_equal(ctx, "threshold user: exact level e^{ε′}", user.is_finite() ? user.value() : q(-1), q(2), 3);
  std::vector<unsigned> ks{2};
  if (ctx.budget().level != BudgetLevel::small) ks.push_back(1);
  for (unsigned k : ks) {
    const CompositeModel m = library::ldp_threshold_protocol(3, q(2), k);
    const std::vector<Rational> rr(k, q(2));
    bool ok = true;
    std::string out;
    const PrivacyProfile profile = worst_case_profile(m.game).profile;  // exact PL in λ (B.3)
    for (const auto& lambda : lambda_grid()) {
      const Rational got = profile.delta(lambda), b = rr_bound(rr, lambda);
      ok = ok && got == b;
      if (lambda <= 4) out += (out.empty() ? "" : "; ") + std::string("δ(") + str(lambda) + ") = " + str(got);
    }
    if (k == 2)  // the catalogue's numbers, independently of rr_bound, by BI-δ at fixed λ (B.2)
      ok = ok && worst_case_hockey_stick(m.game, q(1)).delta() == q(1, 3) && worst_case_hockey_stick(m.game, q(2)).delta() == q(2, 9) &&
           worst_case_hockey_stick(m.game, q(4)).delta() == 0;
    ctx.instance("toy LDP protocol n = 3, k = " + std::to_string(k) + ": profile = Comp(" + std::to_string(k) + " × RR₂)" + (k == 2 ? " (H14)" : ""),
                 out, ok, 1);
  }
}

void check_t87(CheckContext& ctx) {
  const unsigned n = ctx.budget().level == BudgetLevel::small ? 2 : 3;
  const CompositeModel m = library::ldp_threshold_protocol(n, q(2), 2);
  const auto c = check_composite_conditions(instance_of(m));
  ctx.instance("CL8.4, CL8.6: B.17 on S_P (n = " + std::to_string(n) + "), f_∼ → f_{P,∼}", verdict(c), c.holds);
  const auto user = worst_case_ratio(library::ldp_threshold_user(q(2))).max();
  ctx.instance("every user CM is (ln 2, 0)-DP w.r.t. f_{∼*,prop*}", to_string(user), user == ExtendedRational(q(2)), 3);
  const Game users = library::ldp_users_composition(n, q(2), 2);
  profile_at_most(ctx, "M_P (n = " + std::to_string(n) + ")", m.game, [&](const Rational& l) { return worst_case_hockey_stick(users, l).delta(); },
                  "the f_{P,∼}-concurrent composition of the users (engine, horizon " + std::to_string(users.horizon) + ")");
  profile_at_most(ctx, "users' f_{P,∼}-composition (n = " + std::to_string(n) + ")", users, [&](const Rational& l) { return rr_bound({q(2), q(2)}, l); },
                  "Comp(RR₂ × 2) (T5.14 with k = 2)");
}

// ------------------------------------------------------------------ HSV §9: core decomposition

/// An independent route for H15: the exact law of the view for a graph, assembled directly from
/// the AboveThreshold sums of B.13 (users independent given the active sets, which the view fixes).
std::map<std::string, Rational> core_view_law(const std::string& graph, unsigned n, unsigned R, const Rational& rt, const Rational& rq) {
  std::vector<std::pair<unsigned, unsigned>> edges;
  for (unsigned u = 0; u < n; ++u)
    for (unsigned v = u + 1; v < n; ++v) edges.push_back({u, v});
  auto adjacent = [&](unsigned u, unsigned v) {
    for (std::size_t e = 0; e < edges.size(); ++e)
      if (graph[e] == '1' && ((edges[e].first == u && edges[e].second == v) || (edges[e].first == v && edges[e].second == u))) return true;
    return false;
  };
  std::map<std::string, Rational> law;
  // enumerate removal rounds k_v ∈ {0 (never), 1, …, R} and keep the consistent ones
  std::vector<unsigned> k(n, 0);
  while (true) {
    // round 1 is always played; round r > 1 iff the active set A_r = {v : k_v = 0 or k_v ≥ r} is not empty
    Rational p = 1;
    unsigned last = 1;
    for (unsigned r = 2; r <= R; ++r) {
      bool nonempty = false;
      for (unsigned v = 0; v < n; ++v) nonempty = nonempty || k[v] == 0 || k[v] >= r;
      if (!nonempty) break;
      last = r;
    }
    bool consistent = true;
    for (unsigned v = 0; v < n; ++v) consistent = consistent && k[v] <= last;
    if (consistent) {
      for (unsigned v = 0; v < n; ++v) {
        std::vector<long> margins;
        const unsigned asked = k[v] == 0 ? last : k[v];
        for (unsigned r = 1; r <= asked; ++r) {
          long count = 0;
          for (unsigned u = 0; u < n; ++u)
            if (u != v && (k[u] == 0 || k[u] >= r) && adjacent(u, v)) ++count;
          margins.push_back(count - static_cast<long>(r));
        }
        const Rational all = library::svt_no_stop_probability(rt, rq, margins);
        if (k[v] == 0) p *= all;
        else {
          std::vector<long> before(margins.begin(), margins.end() - 1);
          p *= library::svt_no_stop_probability(rt, rq, before) - all;
        }
      }
      std::string key;
      for (unsigned v = 0; v < n; ++v) key += (v ? "," : "") + std::to_string(k[v]);
      if (sgn(p) > 0) law[key] += p;
    }
    unsigned i = 0;
    while (i < n && k[i] == R) k[i++] = 0;
    if (i == n) break;
    ++k[i];
  }
  return law;
}

void check_l91(CheckContext& ctx) {
  // H15: n = 3, R = 2, d_r = r, τ ~ DLap(1/4), ν ~ DLap(1/2) (e^{ε_u} = 16): worst likelihood ratio
  // over all edge-neighbouring graphs (418/157)² ≤ e^{2ε_u} = 256.
  library::CoreDecompositionParams p;
  const CompositeModel m = library::core_decomposition(p);
  const auto c = check_composite_conditions(instance_of(m));
  ctx.instance("B.17 on the core-decomposition server (edge neighbours → ∼_{2,∼*})", verdict(c), c.holds);
  const auto user = worst_case_ratio(library::core_decomposition_user(p)).max();
  ctx.instance("every user SVT within e^{ε_u} = 16 under g_user", to_string(user), user <= ExtendedRational(q(16)), p.rounds + 1);
  const auto ratio = worst_case_ratio(m.game).max();
  ctx.instance("H15: worst likelihood ratio = (418/157)² = 174724/24649 ≤ 256", to_string(ratio),
               ratio == ExtendedRational(q(174724, 24649)) && ratio <= ExtendedRational(q(256)), 1);
  // the same number by direct assembly of the view laws (independent of the composite machinery)
  Rational worst = 0;
  std::string where;
  const unsigned edges = p.vertices * (p.vertices - 1) / 2;
  for (unsigned long a = 0; a < (1ul << edges); ++a)
    for (unsigned e = 0; e < edges; ++e) {
      const unsigned long b = a ^ (1ul << e);
      std::string ga, gb;
      for (unsigned i = 0; i < edges; ++i) ga += ((a >> i) & 1) ? '1' : '0', gb += ((b >> i) & 1) ? '1' : '0';
      const auto la = core_view_law(ga, p.vertices, p.rounds, p.r_threshold, p.r_query);
      const auto lb = core_view_law(gb, p.vertices, p.rounds, p.r_threshold, p.r_query);
      for (const auto& [view, pa] : la) {
        auto it = lb.find(view);
        if (it == lb.end()) { worst = -1; where = "view " + view + " impossible under " + gb; break; }
        if (pa / it->second > worst) worst = pa / it->second, where = ga + " vs " + gb + ", view " + view;
      }
    }
  ctx.instance("H15 by direct assembly of the B.13 sums: " + where, str(worst), worst == q(174724, 24649), 1);
  // n = 4 at the long budget (a few seconds): engine and direct assembly agree, within 256
  if (ctx.budget().level == BudgetLevel::extended) {
    library::CoreDecompositionParams p4 = p;
    p4.vertices = 4;
    const auto r4 = worst_case_ratio(library::core_decomposition(p4).game).max();
    Rational direct = 0;
    const unsigned e4 = 6;
    for (unsigned long a = 0; a < (1ul << e4); ++a)
      for (unsigned e = 0; e < e4; ++e) {
        std::string ga, gb;
        for (unsigned i = 0; i < e4; ++i) ga += ((a >> i) & 1) ? '1' : '0', gb += (((a ^ (1ul << e)) >> i) & 1) ? '1' : '0';
        const auto la = core_view_law(ga, 4, p4.rounds, p4.r_threshold, p4.r_query), lb = core_view_law(gb, 4, p4.rounds, p4.r_threshold, p4.r_query);
        for (const auto& [view, pa] : la)
          if (lb.count(view)) direct = std::max(direct, Rational(pa / lb.at(view)));
      }
    ctx.instance("n = 4, R = 2: engine ratio = direct assembly ≤ 256", to_string(r4) + " (direct " + str(direct) + ")",
                 r4 == ExtendedRational(direct) && r4 <= ExtendedRational(q(256)), 1);
  }
  // the maximiser named in E.10: G = ∅ against {01}, view "vertex 2 removed in round 1, 0 and 1 never"
  const auto empty = core_view_law("000", p.vertices, p.rounds, p.r_threshold, p.r_query);
  const auto one_edge = core_view_law("100", p.vertices, p.rounds, p.r_threshold, p.r_query);
  const Rational a = empty.at("0,0,1"), b = one_edge.at("0,0,1");
  ctx.instance("H15 maximiser: ∅ vs {01}, view 0,0,1", str(a) + " vs " + str(b), std::max(Rational(a / b), Rational(b / a)) == q(174724, 24649), 1);
}

}  // namespace

void families::hsv_complex(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/hsv_complex.cpp";
  const std::vector<std::string> composite_api{"exactdp::check_composite_conditions()", "exactdp::compose_deterministic()"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> v = composite_api;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  out.push_back({"HSV-T6.1", "privacy of P∘*ExtConComp", "HSV Thm 6.1", Kind::positive, Status::as_stated,
                 "A deterministic P with the destination, response and f → f′ properties preserves (ε,δ)-DP: if ExtConComp is "
                 "(ε,δ)-DP w.r.t. f′ then P∘*ExtConComp is (ε,δ)-DP w.r.t. f.",
                 "P deterministic with a single initial state; sub-mechanisms fixed in advance and idle until addressed (creation at "
                 "data-independent times).",
                 "B.17: two copies of P run on every f-valid input pair and every common sequence of sub-mechanism answers "
                 "(destination, response, f → f′ at every step); then the engine's exact sup_A H_λ of P∘*ExtConComp under f against "
                 "that of ExtConComp under f′ on the λ grid. Negative control: a P that branches on the raw input.",
                 "The toy LDP protocol (n = 2) and its users' composition; random answer-driven processors over random continual "
                 "tables (E.11); the HSS histogram that branches on the raw count (negative control).",
                 "", with({"exactdp::library::ldp_threshold_protocol()", "exactdp::library::hss_histogram()", "exactdp::worst_case_hockey_stick()"}),
                 src, check_t61, ""});
  out.push_back({"HSV-CL6.3", "the two identities in the proof of Thm 6.1", "HSV Claims 6.3, 6.4", Kind::reduction, Status::as_stated,
                 "I(b)∘*P∘*ExtConComp ≡ P²∘*I(b)∘*ExtConComp; V[f]∘P²∘I(b)∘ExtConComp ≡ V[f]∘P²∘V[f′]∘I(b)∘ExtConComp.",
                 "P² as in HSV D6.2 with m₁ fed to P₁ (reading note).",
                 "Left side: the likelihood tree of the composite game. Right side: an independent implementation of P² with the "
                 "identifier I(b) (and optionally the inner verifier V[f′]) evaluated by the forward recursion at every history; "
                 "likelihoods compared exactly in both worlds. Negative control: an f′ too narrow for f (f → f′ fails) makes the "
                 "two sides of Claim 6.4 differ.",
                 "HSS histogram (d = 1, T = 2); toy LDP protocol (n = 2, k = 2); the same protocol with f′ = ∼_{1,∼*}.", "",
                 with({"exactdp::likelihood_tree()"}), src, check_cl63, ""});
  out.push_back({"HSV-C6.6", "pseudocode form of Thm 6.1", "HSV Cor 6.6", Kind::positive, Status::as_stated,
                 "Every CM whose pseudocode satisfies D6.5 is (ε,δ)-DP w.r.t. f if the f′-concurrent composition is.",
                 "Dynamic taint tracking written into the post-processor: every variable of the HSS histogram's P carries a taint "
                 "bit (the input row and what is computed from it tainted; sub-mechanism answers and constants untainted), and P "
                 "reports each decision (where to send, which instance) and each output that reads a tainted value. The LDP and "
                 "core-decomposition servers are not instrumented; their conditions are checked semantically (HSV-T8.7, HSV-L9.1).",
                 "B.17 with the taint rules: both copies of the instrumented P on every f_H-valid input pair and common answer "
                 "sequence, the taint rules on each copy at every step and f → f′ on the paired right messages; the leaky variants "
                 "must be caught at the offending statement; then the corollary's conclusion on the engine (worst ratio within the "
                 "product of the f′-composition's exact group levels).",
                 "HSS histogram d = 1, T = 2 (and d = 2 at the standard budget); the raw-branch and raw-release variants.", "",
                 with({"exactdp::library::hss_histogram()", "exactdp::worst_case_ratio()"}), src, check_c66, ""});
  out.push_back({"HSV-S7.2-HIST", "the HSS histogram is private", "HSV §7.2 (unnumbered theorem)", Kind::positive, Status::as_stated,
                 "HSS's Hist is ε-DP w.r.t. f_H against adaptive adversaries: ε/3 for the Laplace instances, ε/3 for the SVT "
                 "instances (both 1-sparse parallel, C5.5) and ε/3 for the d-counter (C7.5), combined by T4.10.",
                 "Discrete version (D.9): DLap noise, q = max (1-sensitive under {−1,0,1}^d changes), γ ≡ 1, ξ ≡ 0, d-counter of "
                 "binary-tree counters of height ⌈log₂ T⌉ with clamped released nodes.",
                 "B.17 on Alg 4 (f_H → f′ = f_S on one SVT instance, f_{L,1} on one Laplace instance, f_C on the d-counter); the "
                 "exact pure level of each group (engine on one SVT instance, one Laplace instance, the d-counter) within its "
                 "claim and within e^{ε/3}; the histogram's exact worst ratio ≤ the product of the three exact levels ≤ e^ε, and "
                 "its profile ≤ Comp(RR at the three levels) on the λ grid. Leaky variants (raw branch, raw release) are caught "
                 "by the checker and have an infinite ratio.",
                 "d = 1, T = 2 (small); d = 2, T = 2 (standard); d = 1, T = 3 with e^{ε/3} = 4096 (extended).", "",
                 with({"exactdp::library::hss_histogram()", "exactdp::library::hss_svt_instance()", "exactdp::library::hss_laplace_instance()",
                       "exactdp::library::hss_d_counter()", "exactdp::worst_case_ratio()"}),
                 src, check_hist, ""});
  out.push_back({"HSV-C7.5", "d-counter", "HSV Cor 7.5", Kind::positive, Status::as_stated,
                 "d counters each ε/d-DP (resp. (ε/d, δ/d)) w.r.t. single-step bounded changes form an ε-DP (resp. (ε,δ)-DP) "
                 "mechanism w.r.t. f_C.",
                 "Binary-tree counters with DLap(r) nodes, released nodes clamped (B.14).",
                 "The engine's exact adaptive profile of the d-counter under f_C equals the composition of the per-node RR "
                 "equivalents, Comp(d(h+1) × RR_{1/r}) (X-TREE per counter), at every λ of the grid; its pure ratio equals "
                 "r^{−d(h+1)}.",
                 "d = 2, h = 1, r = 1/2 and 1/3; d = 3, h = 0, r = 1/2; d = 2, h = 2, r = 1/2 (long budget).", "",
                 {"exactdp::library::d_counter()", "exactdp::worst_case_hockey_stick()"}, src, check_c75, ""});
  out.push_back({"HSV-C8.8", "multi-round LDP via parallel composition", "HSV Cor 8.8 (= Thm 1.9)", Kind::positive, Status::as_stated,
                 "Identical user procedures whose CMs are (ε′,δ′)-DP w.r.t. f_{∼*,prop*} give an (ε,δ)-LDP protocol w.r.t. ∼_{k,∼*} "
                 "when Comp of k copies of RR_{ε′,δ′} is (ε,δ)-DP.",
                 "", "The engine on the toy protocol of D.10 as its CM M_P: exact profile on the λ grid equals Comp(k × RR₂); the user "
                 "CM's exact level is 2.",
                 "H14 (n = 3, λ_u = 2, k = 2); k = 1 at the standard budget.", "",
                 {"exactdp::library::ldp_threshold_protocol()", "exactdp::library::ldp_threshold_user()", "exactdp::worst_case_hockey_stick()"},
                 src, check_c88, ""});
  out.push_back({"HSV-T8.7", "local protocols", "HSV Claims 8.2, 8.4, 8.6, Thm 8.7", Kind::positive, Status::as_stated,
                 "If every user CM is (ε_i,δ_i)-DP w.r.t. f_{∼_i,prop_i} and the f_{P,∼}-concurrent composition is (ε,δ)-DP, P is "
                 "(ε,δ)-LDP.",
                 "The server's view excludes the creation and dataset messages (A.11).",
                 "B.17 on S_P (destination and response: CL8.4; f_∼ → f_{P,∼}: CL8.6); the user CM's exact level; the engine on the "
                 "users' extended concurrent composition under f_{P,∼} (data pairs first, then identical queries in any order) "
                 "bounds M_P's exact profile on the λ grid, and is itself within Comp(RR₂ × 2).",
                 "Toy protocol of D.10 with n = 2 (small budget) or 3.", "",
                 with({"exactdp::library::ldp_users_composition()", "exactdp::worst_case_hockey_stick()"}), src, check_t87, ""});
  out.push_back({"HSV-L9.1", "core decomposition is private", "HSV Lemma 9.1", Kind::positive, Status::as_stated,
                 "If every user SVT is (ε/2, 0)-DP the protocol is ε-edge-LDP.",
                 "Levels d_r = r (HSV's summary never updates d; any deterministic schedule is privacy-neutral). Privacy only; "
                 "accuracy is not checked.",
                 "B.17 on the server; the user's exact level under g_user; the engine's exact worst likelihood ratio over all "
                 "edge-neighbouring graphs and views, compared with E.10 H15 and with a direct assembly of the view laws from "
                 "the B.13 sums.",
                 "H15 (n = 3, R = 2, τ ~ DLap(1/4), ν ~ DLap(1/2)); n = 4 (long budget).", "",
                 with({"exactdp::library::core_decomposition()", "exactdp::library::svt_no_stop_probability()", "exactdp::worst_case_ratio()"}),
                 src, check_l91, ""});
}

}  // namespace exactdp::proofs
