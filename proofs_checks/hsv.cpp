// THEOREMS.md C.5 — Henzinger–Safavi–Vadhan (continual mechanisms), §2–5 and §10–14: the model
// (RR, post-processing, CMs as IMs), concurrent composition of fixed and adaptively chosen CMs,
// parallel composition (its failure for approximate DP, the product-budget claim, pure and FPC
// versions), the simulation machinery of §10 and where it fails, couplings (§11), filters, Rényi and
// f-DP versions (§12–14). Each check builds its instances from the mechanism library (src/exactdp/library/) and the small CMs
// below, composes them with compose/ and compares the engine's exact worst case with the bound.
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/compose/postprocess.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "exactdp/reduce/simulator_lp.hpp"
#include "proofs_checks/hstvvxz23_support.hpp"
#include "proofs_checks/support.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <variant>

namespace exactdp::proofs {
namespace {

using Masses = std::vector<std::pair<Rational, Rational>>;

Rational sym_hs(const PrivacyLoss& l, const Rational& lambda) {
  return std::max(hockey_stick(l, lambda), hockey_stick(l.swapped(), lambda));
}

void check_l24(CheckContext& ctx) {
  // E.1 (H1): RR_{ln 2,1/10}: H₂ = 1/10, TV = 2/5 both directions; trade-off f_{ln 2,1/10}.
  const PrivacyLoss h1 = rr_loss(q(2), q(1, 10));
  expect_equal(ctx, "H1 = RR_{ln 2,1/10}: H₂ forward", hockey_stick(h1, q(2)), q(1, 10));
  expect_equal(ctx, "H1: H₂ backward", hockey_stick(h1.swapped(), q(2)), q(1, 10));
  expect_equal(ctx, "H1: H₁ = TV", sym_hs(h1, q(1)), q(2, 5));
  ctx.instance("H1: trade-off = f_{ln 2,1/10}", "equal", TradeOff::of(h1) == TradeOff::epsilon_delta(q(2), q(1, 10)));
  // E.1 closed form H_t(RR_u) = ((u − t)⁺ + (1 − tu)⁺)/(1 + u) against the engine on the RR game.
  for (long u : {2L, 3L, 4L})
    for (long t : {1L, 2L, 3L}) {
      const Rational expected = (std::max(Rational(u - t), Rational(0)) + std::max(Rational(1 - t * u), Rational(0))) / (1 + u);
      expect_equal(ctx, "RR_" + std::to_string(u) + ": engine H_" + std::to_string(t),
                   worst_case_hockey_stick(pair_game("RR", rr_masses(q(u), q(0))), q(t)).delta(), expected, 1);
    }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long d = ctx.rng().range(1, 6);
    const Rational lambda = q(d + ctx.rng().range(0, 4 * d), d), delta = q(ctx.rng().range(0, 10), 10);
    const PrivacyLoss l = rr_loss(lambda, delta);
    const bool ok = hockey_stick(l, lambda) == delta && hockey_stick(l.swapped(), lambda) == delta &&
                    TradeOff::of(l) == TradeOff::epsilon_delta(lambda, delta);
    ctx.random_instance(ok, "RR(λ = " + str(lambda) + ", δ = " + str(delta) + "): H_λ = (" + str(hockey_stick(l, lambda)) + ", " +
                                str(hockey_stick(l.swapped(), lambda)) + ")");
  }
}

// A random continual mechanism (both worlds share the initial state) under a pair verifier.
Game with_verifier(const Game& base, std::vector<MessagePair> pairs, std::optional<unsigned> k) {
  Game g = base;
  g.verifier = std::make_shared<PairsVerifier>(std::move(pairs), k);
  g.initial = {InitialLaw{{0, Rational(1)}}, InitialLaw{{0, Rational(1)}}};
  return g;
}

void check_o89(CheckContext& ctx) {
  const std::vector<MessagePair> all{{0, 0}, {1, 1}, {0, 1}, {1, 0}};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h = static_cast<unsigned>(ctx.rng().range(1, ctx.budget().horizon_cap()));
    const Game base = random_table_game(ctx.rng(), 3, h);
    // f₂ allows every pair with at most k differing; f₁ ⊆ f₂ drops some pairs or lowers k.
    const unsigned k2 = static_cast<unsigned>(ctx.rng().range(1, 2));
    std::vector<MessagePair> sub;
    for (const auto& p : all)
      if (ctx.rng().range(0, 3) != 0) sub.push_back(p);
    if (sub.empty()) sub.push_back(all[2]);
    const unsigned k1 = static_cast<unsigned>(ctx.rng().range(0, k2));
    const Game g2 = with_verifier(base, all, k2), g1 = with_verifier(base, sub, k1);
    EngineOptions o;
    o.horizon = h;
    std::string bad;
    for (const auto& lambda : lambda_grid()) {
      const auto a = worst_case_hockey_stick(g1, lambda, o), b = worst_case_hockey_stick(g2, lambda, o);
      if (a.forward > b.forward || a.backward > b.backward) bad += " λ = " + str(lambda) + ";";
    }
    ctx.random_instance(bad.empty(), "random CM, horizon " + std::to_string(h) + ", f₁ = " + g1.verifier->describe() +
                                         " ⊆ f₂ = " + g2.verifier->describe() + ": the value under f₁ exceeds f₂ at" + bad,
                        h);
  }
}

void check_l114(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Masses m = random_masses(ctx.rng());
    Rational tv = 0;
    for (const auto& [p, qq] : m) tv += abs(Rational(p - qq));
    tv /= 2;
    const PrivacyLoss l = PrivacyLoss::from_masses(m);
    // (0, δ)-indistinguishable ⟺ H₁ ≤ δ both ways; at δ = TV it holds, just below it fails.
    const bool ok = hockey_stick(l, q(1)) == tv && hockey_stick(l.swapped(), q(1)) == tv;
    ctx.random_instance(ok, "pair " + describe_masses(m) + ": H₁ = " + str(hockey_stick(l, q(1))) + ", TV = " + str(tv));
  }
}

void check_l115(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned cap = ctx.budget().horizon_cap();
    const Game g = random_table_game(ctx.rng(), 3, cap);
    Rational last = 0;
    std::string bad;
    for (unsigned t = 1; t <= cap; ++t) {
      EngineOptions o;
      o.horizon = t;
      const Rational tv = worst_case_hockey_stick(g, q(1), o).delta();
      if (tv < last) bad += " decreases at t = " + std::to_string(t) + ";";
      last = tv;
    }
    ctx.random_instance(bad.empty(), "random game:" + bad, cap);
  }
}

void check_l1013(CheckContext& ctx) {
  // At the root: Lower/L are non-decreasing in T, i.e. the engine's sup_A H_λ with horizon T is at
  // most that with horizon T + 1, per direction, at every λ of the grid.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned cap = ctx.budget().horizon_cap();
    const Game g = random_table_game(ctx.rng(), 3, cap);
    std::string bad;
    for (const auto& lambda : lambda_grid()) {
      Rational lf = 0, lb = 0;
      for (unsigned t = 1; t <= cap; ++t) {
        EngineOptions o;
        o.horizon = t;
        const auto e = worst_case_hockey_stick(g, lambda, o);
        if (e.forward < lf || e.backward < lb) bad += " λ = " + str(lambda) + ", T = " + std::to_string(t) + ";";
        lf = e.forward;
        lb = e.backward;
      }
    }
    ctx.random_instance(bad.empty(), "random game: the root value decreases at" + bad, cap);
  }
}

void check_l47(CheckContext& ctx) {
  auto one = [&](const std::string& name, const Game& g, const Rational& lambda, const Rational& delta) {
    const LikelihoodTree tree = likelihood_tree(g);
    const SimulatorBuild b = lp_simulator(tree, lambda, delta);
    const Simulator* sim = std::get_if<Simulator>(&b);
    const auto v = sim ? verify_simulator(tree, *sim) : SimulatorVerification{};
    ctx.instance(name + " at (ln " + str(lambda) + ", " + str(delta) + ")",
                 sim ? (v.verified ? "simulator verified on " + std::to_string(v.full_histories) + " full histories" : v.failure)
                     : std::get<SimulatorRefusal>(b).reason,
                 v.verified, g.horizon);
  };
  one("Mir_{1/2}", library::mirror(q(1, 2)), q(2), q(1, 4));
  one("M_{1/10} (horizon 2)", library::m_delta(q(1, 10)), q(1), q(1, 10));
  one("MA", ma_game(), q(4), q(1, 15));
}

void check_l74(CheckContext& ctx) {
  // H12: τ ~ DLap(1/4), ν ~ DLap(1/2), thresholds {0,1,2}: worst likelihood ratios 56/29, 418/157,
  // 2216/629 for T = 1, 2, 3 (exact geometric sums, THEOREMS.md E.10), all ≤ 16.
  const Rational expected[] = {q(56, 29), q(418, 157), q(2216, 629)};
  const unsigned cap = std::min(3u, ctx.budget().horizon_cap());
  for (unsigned t = 1; t <= cap; ++t) {
    library::SparseVectorParams p;
    p.r_threshold = q(1, 4);
    p.r_query = q(1, 2);
    p.queries = t;
    p.cutoff = 1;
    const Game g = library::svt_counter(p, {0, 1, 2});
    const auto r = worst_case_ratio(g);
    const bool ok = r.max() == ExtendedRational(expected[t - 1]) && r.max() <= ExtendedRational(q(16));
    ctx.instance("H12, T = " + std::to_string(t) + ": worst likelihood ratio (claim ≤ 16)", to_string(r.max()), ok, t);
  }
}

void check_fn1(CheckContext& ctx) {
  // D.14: oblivious adversaries see sup H_λ = 1/N (λ ≥ 1) ≤ δ; adaptive ones learn the secret (1).
  for (const Rational& delta : {q(1, 10), q(1, 4), q(1, 2)}) {
    const unsigned long n = library::lottery_size(delta);
    const Game g = library::lottery(n);
    const auto obl = worst_case_profile_oblivious(g).profile;
    const auto ada = worst_case_profile(g).profile;
    std::string out;
    bool ok = true;
    for (const Rational& lambda : {q(1), q(2), q(16)}) {
      const Rational o = obl.delta(lambda), a = ada.delta(lambda);
      ok = ok && o == q(1, static_cast<long>(n)) && o <= delta && a == 1;
      out += (out.empty() ? "" : "; ") + std::string("λ = ") + str(lambda) + ": oblivious " + str(o) + ", adaptive " + str(a);
    }
    ctx.instance("lottery N = " + std::to_string(n) + " (δ = " + str(delta) + ")", out, ok, g.horizon);
  }
}

void check_l116(CheckContext& ctx) {
  // Maximal coupling: diagonal min(P, Q); off-diagonal the product of the residuals divided by TV.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Masses m = random_masses(ctx.rng());
    const std::size_t k = m.size();
    Rational tv = 0, diag = 0;
    for (const auto& [p, qq] : m) tv += std::max(Rational(p - qq), Rational(0)), diag += std::min(p, qq);
    std::vector<std::vector<Rational>> c(k, std::vector<Rational>(k, Rational(0)));
    for (std::size_t i = 0; i < k; ++i) c[i][i] = std::min(m[i].first, m[i].second);
    if (sgn(tv) > 0)
      for (std::size_t i = 0; i < k; ++i)
        for (std::size_t j = 0; j < k; ++j)
          c[i][j] += std::max(Rational(m[i].first - m[i].second), Rational(0)) * std::max(Rational(m[j].second - m[j].first), Rational(0)) / tv;
    bool ok = diag == 1 - tv;
    Rational same = 0;
    for (std::size_t i = 0; i < k; ++i) {
      Rational row = 0, col = 0;
      for (std::size_t j = 0; j < k; ++j) row += c[i][j], col += c[j][i];
      ok = ok && row == m[i].first && col == m[i].second;
      same += c[i][i];
    }
    ok = ok && same == diag;
    ctx.random_instance(ok, "pair " + describe_masses(m) + ": the coupling's marginals or diagonal are wrong");
  }
}

void check_l117(CheckContext& ctx) {
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long k = ctx.rng().range(1, 3);
    std::vector<std::vector<long>> w(k, std::vector<long>(k));
    long total = 0;
    while (total == 0) {
      total = 0;
      for (auto& row : w)
        for (auto& x : row) x = ctx.rng().range(0, 4), total += x;
    }
    Masses m(k, {Rational(0), Rational(0)});
    Rational off = 0;
    for (long i = 0; i < k; ++i)
      for (long j = 0; j < k; ++j) {
        const Rational x = q(w[i][j], total);
        m[i].first += x;
        m[j].second += x;
        if (i != j) off += x;
      }
    Masses nz;
    for (const auto& x : m)
      if (sgn(x.first) + sgn(x.second) > 0) nz.push_back(x);
    const Rational tv = hockey_stick(PrivacyLoss::from_masses(nz), q(1));
    ctx.random_instance(tv <= off, "coupling with marginals " + describe_masses(nz) + ": TV = " + str(tv) + " > Pr[Z⁰ ≠ Z¹] = " + str(off));
  }
}

void check_s1024(CheckContext& ctx) {
  // δφ^b + (1−δ)(λψ^b + ψ^{1−b})/(1+λ) = μ^b with
  // ψ^b = (λμ^b − δλφ^b − μ^{1−b} + δφ^{1−b})/((1−δ)(λ−1)), for λ > 1, δ < 1.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long d = ctx.rng().range(1, 6);
    const Rational lambda = q(d + ctx.rng().range(1, 4 * d), d), delta = q(ctx.rng().range(0, 9), 10);
    const Rational mu[2] = {random_rational(ctx.rng(), 1), random_rational(ctx.rng(), 1)};
    const Rational phi[2] = {random_rational(ctx.rng(), 1), random_rational(ctx.rng(), 1)};
    Rational psi[2];
    for (int b = 0; b < 2; ++b)
      psi[b] = (lambda * mu[b] - delta * lambda * phi[b] - mu[1 - b] + delta * phi[1 - b]) / ((1 - delta) * (lambda - 1));
    bool ok = true;
    for (int b = 0; b < 2; ++b) ok = ok && delta * phi[b] + (1 - delta) * (lambda * psi[b] + psi[1 - b]) / (1 + lambda) == mu[b];
    ctx.random_instance(ok, "λ = " + str(lambda) + ", δ = " + str(delta) + ", μ = (" + str(mu[0]) + ", " + str(mu[1]) + "), φ = (" +
                                str(phi[0]) + ", " + str(phi[1]) + ")");
  }
}

// ------------------------------------------------------------------ mechanisms built for the checks
//
// Small continual mechanisms written out as tables here (THEOREMS.md D.1, D.11–D.13 in CM form):
// the library holds the IM forms, the launch compositions need CMs whose neighbouring relation is
// carried by message pairs, and every verifier below bounds the number of messages, so a created
// instance can never be used beyond the horizon at which its parameters were computed.

using Rows = std::vector<TableMechanism::Row>;
using States = std::vector<std::pair<std::string, TableMechanism::StateTable>>;
using Edge = AutomatonVerifier::Edge;

void add_row(Rows& rows, const Rational& p, const std::string& answer, const std::string& next) {
  if (sgn(p) != 0) rows.push_back({p, answer, next});
}

/// A CM game: both worlds start in @p start; the verifier carries the difference (HSV D3.7).
Game cm_game(const std::string& name, std::shared_ptr<TableMechanism> mech, std::shared_ptr<const Verifier> verifier,
             const std::string& start, unsigned horizon) {
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = std::move(verifier);
  const StateId s = mech->state_id(start);
  g.initial = {InitialLaw{{s, Rational(1)}}, InitialLaw{{s, Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

/// The rows of RR_{λ,δ}(x) (A.2) with answers "leak<x>", "0", "1".
Rows rr_rows(const Rational& lambda, const Rational& delta, int x, const std::string& next) {
  Rows r;
  add_row(r, delta, "leak" + std::to_string(x), next);
  add_row(r, (1 - delta) * lambda / (1 + lambda), std::to_string(x), next);
  add_row(r, (1 - delta) / (1 + lambda), std::to_string(1 - x), next);
  return r;
}

/// RR_{λ,δ} as a CM under f_RR (D.1): exactly one message, a pair of bits; world b's bit is
/// answered by RR_{λ,δ}. Claim: (ln λ, δ)-DP w.r.t. f_RR, with exactly the profile of RR_{λ,δ}.
Game rr_cm(const Rational& lambda, const Rational& delta) {
  TableMechanism::StateTable start;
  for (int x = 0; x < 2; ++x) start.rules[std::to_string(x)] = rr_rows(lambda, delta, x, "done");
  const std::string name = "RR_CM(" + str(lambda) + "," + str(delta) + ")";
  auto mech = std::make_shared<TableMechanism>(name, States{{"start", start}, {"done", {true, {}}}}, std::vector<std::string>{"0", "1"});
  std::vector<std::vector<Edge>> edges(2);
  for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}, MessagePair{0, 1}, MessagePair{1, 0}}) edges[0].push_back({p, 1});
  return cm_game(name, mech, std::make_shared<AutomatonVerifier>(std::vector<std::string>{"one pair", "done"}, 0, edges), "start", 1);
}

/// The relation of an IM written as a CM (A.3, D.11 "IM version"): the secret arrives first as a
/// pair of the messages 0, 1 (identical or not), then @p queries identical pairs of message 2.
std::shared_ptr<const Verifier> secret_first_relation(unsigned queries) {
  std::vector<std::vector<Edge>> edges(queries + 2);
  for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}, MessagePair{0, 1}, MessagePair{1, 0}}) edges[0].push_back({p, 1});
  for (unsigned c = 1; c <= queries; ++c) edges[c].push_back({MessagePair{2, 2}, VerifierState(c + 1)});
  std::vector<std::string> names{"secret"};
  for (unsigned c = 1; c <= queries + 1; ++c) names.push_back(std::to_string(c - 1) + " queries");
  return std::make_shared<AutomatonVerifier>(names, 0, edges);
}

/// RR_{λ,δ} in IM form as a CM: the secret bit first ("ok"), then one query "q" answered by
/// RR_{λ,δ}(secret). Claim: (ln λ, δ)-DP, first-pair consistent (HSV D5.12).
Game rr_im_cm(const Rational& lambda, const Rational& delta) {
  States st;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules[std::to_string(x)] = Rows{{Rational(1), "ok", "x=" + std::to_string(x)}};
  st.push_back({"init", init});
  for (int x = 0; x < 2; ++x) {
    TableMechanism::StateTable t;
    t.rules["q"] = rr_rows(lambda, delta, x, "done");
    st.push_back({"x=" + std::to_string(x), t});
  }
  st.push_back({"done", {true, {}}});
  const std::string name = "RR_IM(" + str(lambda) + "," + str(delta) + ")";
  auto mech = std::make_shared<TableMechanism>(name, st, std::vector<std::string>{"0", "1", "q"});
  return cm_game(name, mech, secret_first_relation(1), "init", 2);
}

/// Mir_p as a CM (D.13, CM form): message 1 is "q" (answer a1 or a2, 1/2 each); message 2 is a
/// pair of bits, identical or (0, 1), world b receiving x_b: after a1 the bit 0 is answered X with
/// probability p (else Y) and the bit 1 by Y; after a2 the roles of the bits are swapped. Claim:
/// (ln(1/(1−p)), p/2)-DP w.r.t. this relation (E.10 H7, HSV C5.7).
Game mirror_cm(const Rational& p) {
  States st;
  st.push_back({"start", {false, {{"q", Rows{{q(1, 2), "a1", "a1"}, {q(1, 2), "a2", "a2"}}}}}});
  for (int a = 1; a <= 2; ++a) {
    TableMechanism::StateTable t;
    for (int x = 0; x < 2; ++x) {
      Rows r;
      if (x == a - 1) {
        add_row(r, p, "X", "done");
        add_row(r, 1 - p, "Y", "done");
      } else {
        r.push_back({Rational(1), "Y", "done"});
      }
      t.rules[std::to_string(x)] = r;
    }
    st.push_back({"a" + std::to_string(a), t});
  }
  st.push_back({"done", {true, {}}});
  const std::string name = "Mir_CM(p=" + str(p) + ")";
  auto mech = std::make_shared<TableMechanism>(name, st, std::vector<std::string>{"q", "0", "1"});
  std::vector<std::vector<Edge>> edges(3);
  edges[0].push_back({MessagePair{0, 0}, 1});
  for (const MessagePair pr : {MessagePair{1, 1}, MessagePair{2, 2}, MessagePair{1, 2}}) edges[1].push_back({pr, 2});
  return cm_game(name, mech, std::make_shared<AutomatonVerifier>(std::vector<std::string>{"first", "second", "done"}, 0, edges), "start", 2);
}

/// The Rényi gadget (D.12) in IM form (for FPC relations, HSV T13.6): the secret bit first, then
/// "q" answers "bot" with probability p (else "top"); a second "q" after "bot" answers the secret
/// with probability q' and its complement otherwise, after "top" it answers "top".
/// Claim: single-copy sup Φ_α = (1 − p) + p·E_{q'}.
Game renyi_gadget_im(const Rational& p, const Rational& qq) {
  States st;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules[std::to_string(x)] = Rows{{Rational(1), "ok", "x=" + std::to_string(x)}};
  st.push_back({"init", init});
  for (int x = 0; x < 2; ++x) {
    const std::string xs = "x=" + std::to_string(x);
    Rows first, second;
    add_row(first, 1 - p, "top", xs + ",top");
    add_row(first, p, "bot", xs + ",bot");
    add_row(second, qq, std::to_string(x), "done");
    add_row(second, 1 - qq, std::to_string(1 - x), "done");
    st.push_back({xs, {false, {{"q", first}}}});
    st.push_back({xs + ",top", {false, {{"q", Rows{{Rational(1), "top", "done"}}}}}});
    st.push_back({xs + ",bot", {false, {{"q", second}}}});
  }
  st.push_back({"done", {true, {}}});
  const std::string name = "Renyi gadget IM(p=" + str(p) + ", q=" + str(qq) + ")";
  auto mech = std::make_shared<TableMechanism>(name, st, std::vector<std::string>{"0", "1", "q"});
  return cm_game(name, mech, secret_first_relation(2), "init", 3);
}

/// Random kernel rows over answers {0, 1} and next states s0..s(n−1) (E.11 sizes); with @p pure
/// every weight is ≥ 1, so no answer has probability 0 in one world only.
Rows random_rows(Rng& rng, int states, bool pure, const std::string& prefix) {
  std::vector<long> w;
  long total = 0;
  while (total == 0) {
    w.clear();
    for (int i = 0; i < 2 * states; ++i) {
      w.push_back(pure ? rng.range(1, 3) : rng.range(0, 3) * rng.range(0, 1));
      total += w.back();
    }
  }
  Rows r;
  for (int i = 0; i < 2 * states; ++i)
    if (w[std::size_t(i)] > 0) r.push_back({q(w[std::size_t(i)], total), std::to_string(i / states), prefix + std::to_string(i % states)});
  return r;
}

/// A random continual mechanism (E.11): 2–3 hidden states, the initial state s0 shared by both
/// worlds, bits in and out; its relation allows at most @p h message pairs of bits, at most one of
/// them non-identical (event-level, A.7).
Game random_cm(Rng& rng, unsigned h, bool pure) {
  const int n = static_cast<int>(rng.range(2, 3));
  States st;
  for (int s = 0; s < n; ++s) {
    TableMechanism::StateTable t;
    for (int m = 0; m < 2; ++m) t.rules[std::to_string(m)] = random_rows(rng, n, pure, "s");
    st.push_back({"s" + std::to_string(s), t});
  }
  auto mech = std::make_shared<TableMechanism>(std::string(pure ? "random pure CM" : "random CM"), st, std::vector<std::string>{"0", "1"});
  // verifier state 2c + d: c messages sent, d = 1 once a non-identical pair was sent
  std::vector<std::vector<Edge>> edges(2 * (h + 1));
  std::vector<std::string> names;
  for (unsigned c = 0; c <= h; ++c)
    for (unsigned d = 0; d < 2; ++d) {
      names.push_back(std::to_string(c) + (d ? " sent, differed" : " sent"));
      if (c == h) continue;
      for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}}) edges[2 * c + d].push_back({p, VerifierState(2 * (c + 1) + d)});
      if (d == 0)
        for (const MessagePair p : {MessagePair{0, 1}, MessagePair{1, 0}}) edges[2 * c].push_back({p, VerifierState(2 * (c + 1) + 1)});
    }
  return cm_game(mech->name() + " (horizon " + std::to_string(h) + ")", mech,
                 std::make_shared<AutomatonVerifier>(names, 0, edges), "s0", h);
}

/// A random IM written as a CM (A.3): the secret bit first (answer "ok", moving to state x0 or x1
/// of a random 2–3-state table), then @p queries identical queries "q".
Game random_im_cm(Rng& rng, unsigned queries, bool pure) {
  const int n = static_cast<int>(rng.range(2, 3));
  States st;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules[std::to_string(x)] = Rows{{Rational(1), "ok", "s" + std::to_string(x)}};
  st.push_back({"init", init});
  for (int s = 0; s < n; ++s) st.push_back({"s" + std::to_string(s), {false, {{"q", random_rows(rng, n, pure, "s")}}}});
  auto mech = std::make_shared<TableMechanism>(std::string(pure ? "random pure IM" : "random IM"), st, std::vector<std::string>{"0", "1", "q"});
  return cm_game(mech->name() + " (" + std::to_string(queries) + " queries)", mech, secret_first_relation(queries), "init", queries + 1);
}

/// A verifier that lets through at most @p limit pairs of an inner verifier (finite communication,
/// HSV D14.4), so that a mechanism created inside a launch composition cannot be used beyond the
/// horizon at which its parameters were computed. State = inner state × messages sent.
class BoundedVerifier final : public Verifier {
public:
  BoundedVerifier(std::shared_ptr<const Verifier> inner, unsigned limit) : inner_(std::move(inner)), limit_(limit) {}
  VerifierState initial_state() const override { return encode(inner_->initial_state(), 0); }
  const std::vector<MessagePair>& allowed(VerifierState state) const override {
    return state % (limit_ + 1) < limit_ ? inner_->allowed(state / (limit_ + 1)) : none_;
  }
  VerifierState next(VerifierState state, std::size_t action) const override {
    return encode(inner_->next(state / (limit_ + 1), action), state % (limit_ + 1) + 1);
  }
  std::string describe() const override { return inner_->describe() + ", at most " + std::to_string(limit_) + " messages"; }

private:
  VerifierState encode(VerifierState inner, unsigned sent) const { return inner * (limit_ + 1) + sent; }
  std::shared_ptr<const Verifier> inner_;
  unsigned limit_;
  std::vector<MessagePair> none_;
};

/// @p g with at most @p limit messages (BoundedVerifier) and that horizon.
Game bounded(Game g, unsigned limit) {
  g.verifier = std::make_shared<BoundedVerifier>(g.verifier, limit);
  g.horizon = limit;
  return g;
}

MenuEntry entry(const std::string& name, Game g, Rational lambda, Rational delta = 0, std::optional<Rational> moment = std::nullopt) {
  return MenuEntry{name, std::move(g), LaunchParameters{std::move(lambda), std::move(delta), std::move(moment)}};
}

LaunchOptions launch_options(std::size_t instances, unsigned horizon) {
  LaunchOptions o;
  o.max_instances = instances;
  o.horizon = horizon;
  return o;
}

/// δ_opt(λ_g) of B.11 for the components (λ_i, δ_i) (ε_i = 0 enters as λ_i = 1, the limit ε_i → 0⁺).
Rational delta_opt(const std::vector<std::pair<Rational, Rational>>& components, const Rational& lambda_g) {
  std::vector<LambdaDelta> v;
  for (const auto& [l, d] : components) v.push_back(LambdaDelta{l, d});
  return optimal_composition_delta(std::span<const LambdaDelta>(v), lambda_g);
}

/// The pure part δ_RR(λ_g) = H_{λ_g}(⊗RR_{ε_i}(0) ‖ ⊗RR_{ε_i}(1)) of B.11.
Rational delta_rr(const std::vector<Rational>& lambdas, const Rational& lambda_g) {
  std::vector<std::pair<Rational, Rational>> c;
  for (const auto& l : lambdas) c.push_back({l, Rational(0)});
  return c.empty() ? Rational(0) : delta_opt(c, lambda_g);
}

/// The λ ≥ 1 at which two exact convex piecewise-linear profiles must be compared: the grid, the
/// breakpoints of the engine's curves and one point past the last (beyond it both are constant).
std::vector<Rational> comparison_points(const PrivacyProfile& p, const std::vector<Rational>& extra = {}) {
  std::vector<Rational> xs = lambda_grid();
  for (const auto* f : {&p.forward(), &p.backward()})
    for (const auto& b : f->breakpoints())
      if (b >= 1) xs.push_back(b);
  for (const auto& e : extra)
    if (e >= 1) xs.push_back(e);
  Rational top = 1;
  for (const auto& x : xs) top = std::max(top, x);
  xs.push_back(top + 1);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  return xs;
}

/// The first λ ≥ 1 where the engine's profile exceeds @p bound, with both values ("" if none).
/// The bound is convex piecewise linear with breakpoints @p bound_breaks (checked as well), so
/// the comparison at these points decides the inequality on all of [1, ∞).
std::string first_excess(const PrivacyProfile& p, const std::function<Rational(const Rational&)>& bound,
                         const std::vector<Rational>& bound_breaks = {}) {
  for (const auto& x : comparison_points(p, bound_breaks)) {
    const Rational v = p.delta(x), b = bound(x);
    if (v > b) return "at λ = " + str(x) + " the engine gives " + str(v) + " > bound " + str(b);
  }
  return "";
}

/// The breakpoints r_S of δ_RR for the λ's (products and ratios of subsets), for first_excess.
std::vector<Rational> rr_breakpoints(const std::vector<Rational>& lambdas) {
  std::vector<Rational> out{Rational(1)};
  const std::size_t k = lambdas.size();
  if (k > 12) return out;
  for (std::size_t s = 0; s < (std::size_t{1} << k); ++s) {
    Rational r = 1;
    for (std::size_t i = 0; i < k; ++i) r = (s >> i & 1) ? Rational(r * lambdas[i]) : Rational(r / lambdas[i]);
    if (r >= 1) out.push_back(r);
  }
  return out;
}

/// The pure ratio of a game as a rational (throws if infinite: the caller asked for a pure game).
Rational pure_lambda(const Game& g) {
  const auto r = worst_case_ratio(g).max();
  if (r.is_infinite()) throw Error("hsv check", "game", g.name, "expected a pure mechanism");
  return std::max(r.value(), Rational(1));
}

/// A deterministic policy on answer names, turned into the decision tree it defines over every
/// answer reachable in either world (a readable way to write a paper's adversary).
using Policy = std::function<std::optional<std::pair<std::string, std::string>>(const std::vector<std::string>& answers)>;

Adversary tree_of_policy(const Game& g, unsigned horizon, const Policy& policy) {
  Adversary adv;
  const InteractiveMechanism& m = *g.mechanism;
  struct Item {
    std::size_t node;
    std::vector<std::string> answers;
    std::array<std::set<StateId>, 2> support;
  };
  std::vector<Item> stack;
  std::array<std::set<StateId>, 2> root;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : g.initial[std::size_t(b)]) root[std::size_t(b)].insert(s);
  stack.push_back({0, {}, root});
  while (!stack.empty()) {
    Item it = std::move(stack.back());
    stack.pop_back();
    if (it.answers.size() >= horizon) continue;
    const auto send = policy(it.answers);
    if (!send) continue;
    const auto m0 = m.message_id(send->first), m1 = m.message_id(send->second);
    if (!m0 || !m1) throw Error("tree_of_policy", "message", send->first + "/" + send->second, "not a message of " + m.name());
    adv.set_send(it.node, MessagePair{*m0, *m1});
    std::map<AnswerId, std::array<std::set<StateId>, 2>> next;
    for (int b = 0; b < 2; ++b)
      for (StateId s : it.support[std::size_t(b)])
        for (const auto& t : m.step(s, b == 0 ? *m0 : *m1)) next[t.answer][std::size_t(b)].insert(t.next);
    for (auto& [a, sup] : next) {
      const std::size_t child = adv.add_node(std::nullopt);
      adv.set_child(it.node, a, child);
      auto answers = it.answers;
      answers.push_back(m.answer_name(a));
      stack.push_back({child, std::move(answers), std::move(sup)});
    }
  }
  return adv;
}

/// The masses (V₀(h), V₁(h)) of a pair of view laws over the union of their supports.
Masses view_masses(const NeighbouringPair<View>& v) {
  std::map<View, std::pair<Rational, Rational>> m;
  for (const auto& [view, p] : v.world0) m[view].first += p;
  for (const auto& [view, p] : v.world1) m[view].second += p;
  Masses out;
  for (const auto& [view, pq] : m) out.push_back(pq);
  return out;
}

// ------------------------------------------------------------------ HSV L2.16: post-processing

/// A random post-processor (H17) with left messages {x, y} that calls the mechanism (messages
/// "0"/"1") at most twice per left message and keeps one bit of memory between left messages.
PostProcessor random_post_processor(Rng& rng) {
  PostProcessorTable t;
  t.name = "random P";
  t.initial = "idle0";
  t.left_messages = {"x", "y"};
  auto weight = [&] { return rng.range(0, 3); };
  // outcomes with random weights over the given candidates (at least one positive)
  auto pick = [&](std::vector<PostProcessorOutcome> cands) {
    std::vector<long> w;
    long total = 0;
    while (total == 0) {
      w.clear();
      for (std::size_t i = 0; i < cands.size(); ++i) w.push_back(weight()), total += w.back();
    }
    std::vector<PostProcessorOutcome> out;
    for (std::size_t i = 0; i < cands.size(); ++i)
      if (w[i] > 0) out.push_back({q(w[i], total), cands[i].next, cands[i].to, cands[i].message});
    return out;
  };
  const std::vector<std::string> inner_answers{"0", "1", halt_answer, invalid_answer};
  for (int mem = 0; mem < 2; ++mem) {
    const std::string idle = "idle" + std::to_string(mem), w1 = "one" + std::to_string(mem), w2 = "two" + std::to_string(mem);
    for (const std::string left : {"x", "y"})
      t.rules[idle]["L"][left] = pick({{1, idle, Port::left, "c"}, {1, w1, Port::right, "0"}, {1, w1, Port::right, "1"}});
    for (const auto& a : inner_answers) {
      t.rules[w1]["R"][a] = pick({{1, "idle0", Port::left, "u"}, {1, "idle1", Port::left, "v"}, {1, w2, Port::right, "0"}, {1, w2, Port::right, "1"}});
      t.rules[w2]["R"][a] = pick({{1, "idle0", Port::left, "u"}, {1, "idle1", Port::left, "v"}});
    }
  }
  return post_processor_from_table(std::move(t));
}

/// Whether profile @p a ≤ profile @p b at every λ ≥ 1 in both directions (compared at the union of
/// breakpoints, where the difference of two piecewise-linear functions is decided), with the first
/// excess in words.
std::string profile_excess(const PrivacyProfile& a, const PrivacyProfile& b) {
  std::vector<Rational> extra;
  for (const auto* f : {&b.forward(), &b.backward()})
    for (const auto& x : f->breakpoints()) extra.push_back(x);
  for (const auto& x : comparison_points(a, extra)) {
    if (a.forward()(x) > b.forward()(x))
      return "forward at λ = " + str(x) + ": " + str(a.forward()(x)) + " > " + str(b.forward()(x));
    if (a.backward()(x) > b.backward()(x))
      return "backward at λ = " + str(x) + ": " + str(a.backward()(x)) + " > " + str(b.backward()(x));
  }
  return "";
}

void check_l216(CheckContext& ctx) {
  // F3 (E.9, hand-derived): two fresh RR₃ answers have sup H₃(V₁‖V₀) = 3/8; P = AND attains it with
  // one left message, P = XOR makes the view independent of b.
  const Game m = filters::fresh_rr3();
  expect_equal(ctx, "F3: M = two fresh RR₃, sup H₃(V₁‖V₀)", worst_case_hockey_stick(m, q(3)).backward, q(3, 8), 2);
  Game and_game = postprocess(m, filters::ask_twice(true));
  and_game.horizon = 1;
  expect_equal(ctx, "F3: AND∘*M (one left message), sup H₃(V₁‖V₀)", worst_case_hockey_stick(and_game, q(3)).backward, q(3, 8), 1);
  Game xor_game = postprocess(m, filters::ask_twice(false));
  xor_game.horizon = 1;
  expect_equal(ctx, "F3: XOR∘*M, sup H₁ (TV)", worst_case_profile(xor_game).profile.delta(q(1)), q(0), 1);
  // H17: random P making at most c = 2 calls per left message, so T rounds of P∘*M are a
  // post-processing of 2T rounds against M: the profile and Φ₂ of P∘*M at horizon T are at most
  // M's at horizon 2T, at every λ and in both directions.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned t = static_cast<unsigned>(ctx.rng().range(1, std::min(2u, ctx.budget().horizon_cap())));
    const Game base = random_table_game(ctx.rng(), 3, 2 * t);
    const Game pm = [&] {
      Game g = postprocess(base, random_post_processor(ctx.rng()));
      g.horizon = t;
      return g;
    }();
    const auto before = worst_case_profile(base).profile, after = worst_case_profile(pm).profile;
    std::string bad = profile_excess(after, before);
    const auto r0 = worst_case_renyi_moment(base, 2), r1 = worst_case_renyi_moment(pm, 2);
    if (r0.forward < r1.forward || r0.backward < r1.backward) bad += " Φ₂ grows";
    ctx.random_instance(bad.empty(), "random M (3 states, horizon " + std::to_string(2 * t) + ") and random P: P∘*M exceeds M " + bad, 2 * t);
  }
}

// ------------------------------------------------------------------ HSV T4.10, T4.12: concurrent composition

void check_t410(CheckContext& ctx) {
  // H8 (E.10): Mir_{1/2} ((ln 2, 1/4)-DP) and M_{1/10} ((0⁺, 1/10)-DP), any interleaving, horizon 4:
  // sup H_λ = 11/20, 13/40, 13/40 at λ = 1, 2, 4 = δ_opt of (2, 1/4), (1, 1/10) — tight.
  const Game h8 = concurrent({library::mirror(q(1, 2)), library::m_delta(q(1, 10))});
  const std::vector<std::pair<Rational, Rational>> h8_params{{q(2), q(1, 4)}, {q(1), q(1, 10)}};
  const auto h8_profile = worst_case_profile(h8).profile;
  const std::pair<Rational, Rational> h8_values[] = {{q(1), q(11, 20)}, {q(2), q(13, 40)}, {q(4), q(13, 40)}};
  for (const auto& [l, v] : h8_values) {
    const Rational got = h8_profile.delta(l), bound = delta_opt(h8_params, l);
    ctx.instance("H8: Mir_{1/2} ∥ M_{1/10}, sup H_" + str(l) + " (E.10: " + str(v) + ") vs δ_opt", str(got) + " vs " + str(bound),
                 got == v && bound == v, h8.horizon);
  }
  {
    const std::string bad = first_excess(h8_profile, [&](const Rational& l) { return delta_opt(h8_params, l); }, rr_breakpoints({q(2)}));
    ctx.instance("H8: the whole profile ≤ δ_opt on [1, ∞)", bad.empty() ? "holds" : bad, bad.empty(), h8.horizon);
  }
  // H2 (E.3): concurrent one-shot RR's are tight: engine profile = δ_opt at every breakpoint.
  struct Tight {
    std::string name;
    std::vector<std::pair<Rational, Rational>> params;
    std::vector<std::pair<Rational, Rational>> values;
  };
  const std::vector<Tight> tight{
      {"H2: RR₂ × 2", {{q(2), q(0)}, {q(2), q(0)}}, {{q(1), q(1, 3)}, {q(3, 2), q(5, 18)}, {q(2), q(2, 9)}, {q(4), q(0)}}},
      {"H2: RR₂ × 3", {{q(2), q(0)}, {q(2), q(0)}, {q(2), q(0)}}, {{q(1), q(13, 27)}, {q(3, 2), q(19, 54)}, {q(2), q(2, 9)}, {q(4), q(4, 27)}, {q(8), q(0)}}},
      {"H2: RR_{ln 2,1/10} ⊗ RR_{ln 3,1/5}", {{q(2), q(1, 10)}, {q(3), q(1, 5)}},
       {{q(1), q(16, 25)}, {q(3, 2), q(11, 20)}, {q(2), q(13, 25)}, {q(4), q(2, 5)}, {q(8), q(7, 25)}}}};
  for (const auto& t : tight) {
    std::vector<Game> comps;
    std::vector<Rational> ls;
    for (const auto& [l, d] : t.params) comps.push_back(library::randomized_response(l, d)), ls.push_back(l);
    const Game g = concurrent(comps);
    const auto prof = worst_case_profile(g).profile;
    std::string out;
    bool ok = true;
    for (const auto& [l, v] : t.values) {
      ok = ok && prof.delta(l) == v && delta_opt(t.params, l) == v;
      out += (out.empty() ? "" : ", ") + str(prof.delta(l));
    }
    for (const auto& x : comparison_points(prof, rr_breakpoints(ls))) ok = ok && prof.delta(x) == delta_opt(t.params, x);
    ctx.instance(t.name + ": engine = δ_opt (E.3 values and every breakpoint)", out, ok, g.horizon);
  }
  // Random: two components (random CMs, random IMs, MP, MA), each with λ_i from {3/2, 2, 3} and δ_i
  // its exact sup H_{λ_i} at its own horizon; the concurrent composition's profile ≤ δ_opt on [1, ∞).
  const unsigned cap = std::max(2u, ctx.budget().horizon_cap());
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<Game> comps;
    std::vector<std::pair<Rational, Rational>> params;
    std::vector<Rational> ls;
    std::string desc;
    unsigned used = 0;
    for (int i = 0; i < 2; ++i) {
      // the first component leaves at least one round for the second
      const unsigned room = i == 0 ? cap - 1 : cap - used;
      const long kind = ctx.rng().range(0, room >= 2 ? 3 : 1);
      Game g = kind == 0   ? random_cm(ctx.rng(), static_cast<unsigned>(ctx.rng().range(1, std::min(2u, room))), false)
               : kind == 1 ? random_table_game(ctx.rng(), 3, 1)
               : kind == 2 ? random_vw2_game(ctx.rng())
                           : (ctx.rng().coin() ? mp_game() : ma_game());
      used += g.horizon;
      const Rational l = std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))];
      const Rational d = worst_case_hockey_stick(g, l).delta();
      params.push_back({l, d});
      ls.push_back(l);
      desc += (desc.empty() ? "" : " ∥ ") + g.name + " (" + str(l) + ", " + str(d) + ")";
      comps.push_back(std::move(g));
    }
    const Game g = concurrent(comps);
    const auto prof = worst_case_profile(g).profile;
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_opt(params, x); }, rr_breakpoints(ls));
    ctx.random_instance(bad.empty(), desc + ": " + bad, g.horizon);
  }
}

/// The rule of HSV D4.11 f^{ε₁,δ₁,…,ε_k,δ_k}: the created parameters form a sub-multiset of the
/// fixed multiset (a creation-time condition, so a continuation rule of filter_composition).
ContinuationRule multiset_rule(std::vector<LaunchParameters> budget) {
  return [budget = std::move(budget)](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    std::vector<bool> used(budget.size(), false);
    auto take = [&](const LaunchParameters& p) -> bool {
      for (std::size_t i = 0; i < budget.size(); ++i)
        if (!used[i] && budget[i].lambda == p.lambda && budget[i].delta == p.delta) {
          used[i] = true;
          return true;
        }
      return false;
    };
    for (const auto& d : launched)
      if (!take(d)) return false;
    return take(proposed);
  };
}

void check_t412(CheckContext& ctx) {
  // Named: the multiset {(ln 2, 1/4), (0⁺, 1/10)} with two mechanisms per parameter in the menu
  // (Mir_{1/2} or RR_{ln 2,1/4}; M_{1/10} or RR_{0,1/10}), chosen adaptively; 2 creations.
  // Bound δ_opt = 11/20, 13/40, 13/40 at λ = 1, 2, 4, attained by creating the two RR's.
  const std::vector<std::pair<Rational, Rational>> params{{q(2), q(1, 4)}, {q(1), q(1, 10)}};
  std::vector<MenuEntry> menu{entry("Mir", mirror_cm(q(1, 2)), q(2), q(1, 4)), entry("RR24", rr_cm(q(2), q(1, 4)), q(2), q(1, 4)),
                              entry("M", library::m_delta(q(1, 10)), q(1), q(1, 10)), entry("RR110", rr_cm(q(1), q(1, 10)), q(1), q(1, 10))};
  // two creations and their messages: at least 4 rounds, whatever the cap (the tight values need them)
  const unsigned h = std::max(4u, std::min(6u, 2 * ctx.budget().horizon_cap()));
  const Game g = filter_composition(menu, multiset_rule({{q(2), q(1, 4), {}}, {q(1), q(1, 10), {}}}), launch_options(2, h));
  const auto prof = worst_case_profile(g).profile;
  for (const Rational& l : {q(1), q(2), q(4)}) {
    const Rational got = prof.delta(l), bound = delta_opt(params, l);
    ctx.instance("menu {Mir_{1/2}, RR_{ln 2,1/4}, M_{1/10}, RR_{0,1/10}}, multiset {(ln 2,1/4),(0⁺,1/10)}: sup H_" + str(l) +
                     " vs δ_opt (tight)",
                 str(got) + " vs " + str(bound), got == bound, h);
  }
  const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_opt(params, x); }, rr_breakpoints({q(2)}));
  ctx.instance("the same menu: the whole profile ≤ δ_opt on [1, ∞)", bad.empty() ? "holds" : bad, bad.empty(), h);
  // Random: a menu of 3 random one-message CMs with their exact (λ_j, δ_j), a multiset of 2
  // drawn from the menu's parameters; the adversary picks which mechanism fills each slot.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> rmenu;
    std::vector<LaunchParameters> pars;
    std::string desc = "menu";
    for (int j = 0; j < 3; ++j) {
      Game c = random_cm(ctx.rng(), 1, false);  // its relation bounds it to one message
      const Rational l = std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))];
      const Rational d = worst_case_hockey_stick(c, l).delta();
      pars.push_back({l, d, {}});
      desc += " (" + str(l) + ", " + str(d) + ")";
      rmenu.push_back(entry("E" + std::to_string(j), std::move(c), l, d));
    }
    std::vector<LaunchParameters> budget{pars[std::size_t(ctx.rng().range(0, 2))], pars[std::size_t(ctx.rng().range(0, 2))]};
    std::vector<std::pair<Rational, Rational>> bp;
    for (const auto& b : budget) bp.push_back({b.lambda, b.delta});
    const Game rg = filter_composition(rmenu, multiset_rule(budget), launch_options(2, 4));
    const auto rp = worst_case_profile(rg).profile;
    const std::string rbad = first_excess(rp, [&](const Rational& x) { return delta_opt(bp, x); },
                                          rr_breakpoints({budget[0].lambda, budget[1].lambda}));
    ctx.random_instance(rbad.empty(), desc + ", multiset {(" + str(bp[0].first) + ", " + str(bp[0].second) + "), (" + str(bp[1].first) +
                                          ", " + str(bp[1].second) + ")}: " + rbad,
                        4);
  }
}

// ------------------------------------------------------------------ HSV T5.2, T5.4, C5.5: parallel composition

/// ℓ copies of M_δ under the 1-sparse parallel composition f_∞^{0,δ} (HSV T5.2, corrected reading):
/// creations count as rounds, so the paper's adversary needs 2ℓ + 1 rounds.
Game m_delta_copies(const Rational& delta, unsigned copies) {
  return parallel_composition({entry("M", library::m_delta(delta), q(1), delta)}, {LaunchParameters{q(1), delta, {}}}, false,
                              launch_options(copies, 2 * copies + 1));
}

/// The adversary A_δ of HSV T5.2: create a copy and send it (0,0); on "top" create the next copy;
/// on the first "bot" send (0,1) to that copy, which echoes b.
Policy t52_adversary(unsigned copies) {
  return [copies](const std::vector<std::string>& seen) -> std::optional<std::pair<std::string, std::string>> {
    const std::size_t n = seen.size();  // rounds so far: create, query, create, query, …
    const auto create = std::make_pair(std::string("create:M"), std::string("create:M"));
    if (n == 0) return create;
    const std::string& last = seen.back();
    if (last == "created") return std::make_pair(std::to_string(n / 2) + ":0", std::to_string(n / 2) + ":0");
    if (last == "top") return n / 2 >= copies ? std::nullopt : std::optional(create);
    if (last == "bot") return std::make_pair(std::to_string(n / 2 - 1) + ":0", std::to_string(n / 2 - 1) + ":1");
    return std::nullopt;  // the echoed bit: stop
  };
}

void check_t52(CheckContext& ctx) {
  // H4: one M_{1/10} under g is (0, 1/10)-DP: sup H_λ = 1/10 at λ = 1, 2, 100, both directions.
  const Game one = library::m_delta(q(1, 10));
  for (const Rational& l : {q(1), q(2), q(100)}) {
    const auto r = worst_case_hockey_stick(one, l);
    ctx.instance("H4: one M_{1/10} under g, sup H_" + str(l) + " (both directions)", str(r.forward) + ", " + str(r.backward),
                 r.forward == q(1, 10) && r.backward == q(1, 10), 2);
  }
  // H5: ℓ copies, 1-sparse: 1/10, 19/100, 271/1000 = 1 − (9/10)^ℓ at λ = 1, 2, 1000, both directions.
  const unsigned lmax = std::min(3u, ctx.budget().horizon_cap());
  for (unsigned l = 1; l <= lmax; ++l) {
    const Game g = m_delta_copies(q(1, 10), l);
    const Rational expected = 1 - pow(q(9, 10), l);
    const auto prof = worst_case_profile(g).profile;
    bool ok = true;
    std::string out;
    for (const Rational& lam : {q(1), q(2), q(1000)}) {
      ok = ok && prof.forward()(lam) == expected && prof.backward()(lam) == expected;
      out += (out.empty() ? "" : ", ") + str(prof.forward()(lam));
    }
    // non-increasing and equal at λ = 1 and beyond every breakpoint: constant on [1, ∞), i.e. not
    // (ε, δ″)-DP for any ε when δ″ < 1 − (1−δ)^ℓ
    ok = ok && prof.forward().final_value() == expected && prof.backward().final_value() == expected;
    ctx.instance("H5: " + std::to_string(l) + " copies of M_{1/10}, sup H_λ at λ = 1, 2, 1000 (expected " + str(expected) +
                     " at every λ ≥ 1)",
                 out + (ok ? "; constant on [1, ∞)" : ""), ok, g.horizon);
    // the paper's adversary A_δ written out: its views are (top^ℓ) in both worlds or end with the
    // echoed bit b in world b only, so H_λ(V₀‖V₁) = 1 − (1−δ)^ℓ at every λ (second route)
    const Adversary a = tree_of_policy(g, g.horizon, t52_adversary(l));
    const PrivacyLoss views = PrivacyLoss::from_masses(view_masses(view_distributions(g, a)));
    const Rational h = hockey_stick(views, q(1000)), h1 = hockey_stick(views.swapped(), q(1000));
    ctx.instance("A_δ of HSV T5.2 against " + std::to_string(l) + " copies: H_1000 of its views (both directions)",
                 str(h) + ", " + str(h1), h == expected && h1 == expected, g.horizon);
  }
  // Random δ and ℓ: the engine gives exactly 1 − (1−δ)^ℓ at λ = 1 and at a random grid λ.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Rational delta = q(ctx.rng().range(1, 11), 12);
    const unsigned l = static_cast<unsigned>(ctx.rng().range(1, std::min(2u, ctx.budget().horizon_cap())));
    const Game g = m_delta_copies(delta, l);
    const Rational lam = lambda_grid()[std::size_t(ctx.rng().range(0, long(lambda_grid().size()) - 1))];
    const Rational expected = 1 - pow(1 - delta, l);
    const Rational a = worst_case_hockey_stick(g, q(1)).delta(), b = worst_case_hockey_stick(g, lam).delta();
    ctx.random_instance(a == expected && b == expected, std::to_string(l) + " copies of M_" + str(delta) + ": sup H_1 = " + str(a) +
                                                            ", sup H_" + str(lam) + " = " + str(b) + ", expected " + str(expected),
                        g.horizon);
  }
}

/// One instance of the T5.4 comparison: the engine's profile against the printed bound
/// δ_RR(λ) + δ′ and the tighter 1 − (1 − δ_RR(λ))(1 − δ′), at every λ ≥ 1 (grid, breakpoints).
struct T54Outcome {
  std::string printed_excess, tight_excess;
  bool tight_somewhere = false;  ///< the engine meets the tighter bound at some λ ≥ 1
};
T54Outcome t54_compare(const PrivacyProfile& p, const std::vector<Rational>& lambdas, const Rational& dprime) {
  T54Outcome o;
  for (const auto& x : comparison_points(p, rr_breakpoints(lambdas))) {
    const Rational v = p.delta(x), rr = delta_rr(lambdas, x);
    const Rational printed = std::min(Rational(rr + dprime), Rational(1)), tight = 1 - (1 - rr) * (1 - dprime);
    if (v > printed && o.printed_excess.empty()) o.printed_excess = "λ = " + str(x) + ": " + str(v) + " > " + str(printed);
    if (v > tight && o.tight_excess.empty()) o.tight_excess = "λ = " + str(x) + ": " + str(v) + " > " + str(tight);
    if (v == tight) o.tight_somewhere = true;
  }
  return o;
}

void check_t54(CheckContext& ctx) {
  unsigned tight_hits = 0;
  auto run = [&](const std::string& name, std::vector<MenuEntry> menu, std::vector<Rational> lambdas, const Rational& dprime,
                 std::size_t instances, unsigned horizon, bool named) {
    const Game g = approximate_parallel_composition(std::move(menu), lambdas, dprime, launch_options(instances, horizon));
    const auto prof = worst_case_profile(g).profile;
    const T54Outcome o = t54_compare(prof, lambdas, dprime);
    if (o.tight_somewhere) ++tight_hits;
    const bool ok = o.printed_excess.empty() && o.tight_excess.empty();
    std::string vals;
    for (const Rational& x : {q(1), q(2), q(4)}) vals += (vals.empty() ? "" : ", ") + str(prof.delta(x));
    if (named)
      ctx.instance(name + ": sup H_λ at λ = 1, 2, 4 vs 1 − (1−δ_RR)(1−δ′) and δ_RR + δ′",
                   ok ? vals + " — both forms hold" + std::string(o.tight_somewhere ? ", tighter form attained" : "")
                      : "printed: " + (o.printed_excess.empty() ? "holds" : o.printed_excess) +
                            "; tighter: " + (o.tight_excess.empty() ? "holds" : o.tight_excess),
                   ok, horizon);
    else
      ctx.random_instance(ok, name + ": printed form " + (o.printed_excess.empty() ? "holds" : "REFUTED " + o.printed_excess) +
                                  "; tighter form " + (o.tight_excess.empty() ? "holds" : "REFUTED " + o.tight_excess),
                          horizon);
  };
  const unsigned cap = ctx.budget().horizon_cap();
  // H5 (tight): ℓ copies of M_{1/10}, each (ε₁, 1/10)-DP for every ε₁ > 0 (here λ₁ = 2 and λ₁ =
  // 101/100), δ′ = 1 − (9/10)^ℓ, so the budget admits exactly ℓ creations; the engine gives δ′ at
  // every λ, which is the tighter bound for λ ≥ λ₁.
  for (unsigned l = 1; l <= std::min(3u, cap - 1); ++l)
    for (const Rational& l1 : {q(2), q(101, 100)}) {
      const Rational dprime = 1 - pow(q(9, 10), l);
      run("H5: M_{1/10} copies, λ₁ = " + str(l1) + ", δ′ = " + str(dprime) + " (" + std::to_string(l) + (l == 1 ? " creation" : " creations") + " admitted)",
          {entry("M", library::m_delta(q(1, 10)), l1, q(1, 10))}, {l1}, dprime, l + 1, 2 * l + 2, true);
    }
  // Mir_{1/2} as a CM, (ln 2, 1/4)-DP — the instance on which C5.7(2), used by the printed proof,
  // fails: copies with δ′ = 1 − (3/4)^ℓ.
  for (unsigned l = 1; l <= std::min(2u, cap); ++l) {
    const Rational dprime = 1 - pow(q(3, 4), l);
    run("Mir_{1/2} CM copies, λ₁ = 2, δ′ = " + str(dprime), {entry("Mir", mirror_cm(q(1, 2)), q(2), q(1, 4))}, {q(2)}, dprime, l,
        3 * l, true);
  }
  // A mixture: Mir_{1/2} (ln 2, 1/4) and M_{1/10} (ln 2, 1/10), one exceptional copy, δ′ = 13/40.
  run("mixture {Mir_{1/2}, M_{1/10}}, k = 1, λ₁ = 2, δ′ = 13/40",
      {entry("Mir", mirror_cm(q(1, 2)), q(2), q(1, 4)), entry("M", library::m_delta(q(1, 10)), q(2), q(1, 10))}, {q(2)}, q(13, 40), 2,
      std::min(6u, 2 * cap), true);
  // Random small CMs with δ_j > 0: a random CM (its exact δ at a grid λ_j) and M_{δ₀}, both declared
  // with λ_j; one exceptional copy; δ′ = the product budget of one copy of each (or two of the CM).
  // Every third random instance: two copies of Mir_p (CM) for a random p, declared at its own
  // (ln(1/(1−p)), p/2), δ′ = 1 − (1 − p/2)².
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    if (n % 3 == 2) {
      const long d = ctx.rng().range(2, 8);
      const Rational p = q(ctx.rng().range(1, d - 1), d), l1 = 1 / (1 - p);
      const Rational dprime = 1 - (1 - p / 2) * (1 - p / 2);
      run("two copies of Mir_" + str(p) + " (CM), λ₁ = " + str(l1) + ", δ′ = " + str(dprime), {entry("Mir", mirror_cm(p), l1, p / 2)}, {l1},
          dprime, 2, 6, false);
      continue;
    }
    Game c = random_cm(ctx.rng(), 1, false);
    const Rational l = std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))];
    const Rational d = worst_case_hockey_stick(c, l).delta();
    const Rational d0 = q(ctx.rng().range(1, 4), 10);
    const bool two_cm = ctx.rng().coin();
    const Rational dprime = two_cm ? 1 - (1 - d) * (1 - d) : 1 - (1 - d) * (1 - d0);
    run("random CM (" + str(l) + ", " + str(d) + ") and M_" + str(d0) + ", δ′ = " + str(dprime),
        {entry("C", std::move(c), l, d), entry("M", library::m_delta(d0), l, d0)}, {l}, dprime, 2, 4, false);
  }
  ctx.note("Tighter form 1 − (1−δ_RR(λ))(1−δ′) met with equality at some λ ≥ 1 on " + std::to_string(tight_hits) + " instance(s).");
}

void check_c55(CheckContext& ctx) {
  // Pure CMs under the concurrent k-sparse parallel composition f_∞^{ε₁..ε_k}: sup H_λ ≤ δ_RR(λ).
  const unsigned cap = ctx.budget().horizon_cap();
  auto run = [&](const std::string& name, std::vector<MenuEntry> menu, const std::vector<Rational>& lambdas, std::size_t instances,
                 unsigned horizon, const std::vector<std::pair<Rational, Rational>>& expected) {
    std::vector<LaunchParameters> sparse;
    for (const auto& l : lambdas) sparse.push_back({l, 0, {}});
    const Game g = parallel_composition(std::move(menu), sparse, false, launch_options(instances, horizon));
    const auto prof = worst_case_profile(g).profile;
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_rr(lambdas, x); }, rr_breakpoints(lambdas));
    bool ok = bad.empty();
    std::string out = bad.empty() ? "≤ δ_RR on [1, ∞)" : bad;
    for (const auto& [x, v] : expected) {
      ok = ok && prof.delta(x) == v;
      out += "; H_" + str(x) + " = " + str(prof.delta(x)) + " (expected " + str(v) + ")";
    }
    ctx.instance(name, out, ok, horizon);
  };
  // RR₂ as a CM: identical pairs reveal nothing, so ℓ copies with k = 1 give RR₂'s profile and with
  // k = 2 Comp(RR₂ × 2) (E.3) — tight.
  const std::size_t copies = std::min(3u, std::max(2u, cap));  // k = 2 needs two copies
  run(std::to_string(copies) + " copies of RR₂ (CM), k = 1", {entry("RR2", rr_cm(q(2), q(0)), q(2))}, {q(2)}, copies, 2 * unsigned(copies),
      {{q(1), q(1, 3)}, {q(2), q(0)}});
  run(std::to_string(copies) + " copies of RR₂ (CM), k = 2", {entry("RR2", rr_cm(q(2), q(0)), q(2))}, {q(2), q(2)}, copies,
      2 * unsigned(copies), {{q(1), q(1, 3)}, {q(3, 2), q(5, 18)}, {q(2), q(2, 9)}, {q(4), q(0)}});
  // H12 component: the SVT counter (τ ~ DLap(1/4), ν ~ DLap(1/2), thresholds {0,1,2}); an instance
  // may receive 2 messages here, so its declared λ is its exact worst ratio at horizon 2, 418/157.
  {
    library::SparseVectorParams p;
    p.r_threshold = q(1, 4);
    p.r_query = q(1, 2);
    p.queries = 2;
    p.cutoff = 1;
    const Game svt = bounded(library::svt_counter(p, {0, 1, 2}), 2);
    const Rational l = pure_lambda(svt);
    ctx.instance("H12: SVT counter, worst ratio at horizon 2 (E.10: 418/157)", str(l), l == q(418, 157), 2);
    if (cap >= 4)  // the two-copy composition from the default budget on (it dominates the small budget's time)
      run("2 copies of the SVT counter (H12), k = 1, declared λ = 418/157", {entry("SVT", svt, l)}, {l}, 2, 4, {});
  }
  // H13's counter at T = 2 (pure λ = r^{−2} = 4) beside RR₂, k = 2.
  {
    const Game tree = library::binary_tree_counter(1, q(1, 2));
    const Rational l = pure_lambda(tree);
    ctx.instance("binary-tree counter T = 2, r = 1/2: worst ratio (X-TREE: r^{−2} = 4)", str(l), l == q(4), tree.horizon);
    run("tree counter (λ = 4) and RR₂ (CM), k = 2", {entry("tree", tree, l), entry("RR2", rr_cm(q(2), q(0)), q(2))}, {l, q(2)}, 2,
        std::min(5u, 2 + cap), {});
  }
  // Random pure CMs (declared λ = their exact worst ratio at their horizon), k ∈ {1, 2}.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    std::vector<Rational> ls;
    std::string desc;
    const int size = static_cast<int>(ctx.rng().range(1, 2));
    for (int j = 0; j < size; ++j) {
      Game c = random_cm(ctx.rng(), 1, true);
      const Rational l = pure_lambda(c);
      ls.push_back(l);
      desc += (desc.empty() ? "" : ", ") + str(l);
      menu.push_back(entry("P" + std::to_string(j), std::move(c), l));
    }
    std::vector<Rational> sparse{ls[std::size_t(ctx.rng().range(0, size - 1))]};
    if (ctx.rng().coin()) sparse.push_back(ls[std::size_t(ctx.rng().range(0, size - 1))]);
    std::vector<LaunchParameters> sp;
    for (const auto& l : sparse) sp.push_back({l, 0, {}});
    const Game g = parallel_composition(menu, sp, false, launch_options(2, 4));
    const auto prof = worst_case_profile(g).profile;
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_rr(sparse, x); }, rr_breakpoints(sparse));
    ctx.random_instance(bad.empty(), "menu of pure CMs with λ = " + desc + ", k = " + std::to_string(sparse.size()) + ": " + bad, 4);
  }
}

/// The evidence of erratum E1 on one form of Mir_{1/2} (HSV L5.6 for the IM, C5.7 for the CM):
/// the engine's profile (H7), the LP of B.10 without (S3) feasible with a verified simulator, and
/// the LP with (S3) infeasible (Farkas-certified) at δ = 1/4, 2/5, 49/100 < p.
void mirror_evidence(CheckContext& ctx, const Game& g, const std::string& label) {
  const std::pair<Rational, Rational> h7[] = {{q(1), q(1, 2)}, {q(3, 2), q(3, 8)}, {q(2), q(1, 4)}, {q(3), q(1, 4)}};
  for (const auto& [lambda, expected] : h7)
    expect_equal(ctx, "H7: " + label + " sup H_" + str(lambda), worst_case_hockey_stick(g, lambda).delta(), expected, g.horizon);
  const LikelihoodTree tree = likelihood_tree(g);
  const SimulatorBuild plain = lp_simulator(tree, q(2), q(1, 4));
  const Simulator* sim = std::get_if<Simulator>(&plain);
  const bool verified = sim && verify_simulator(tree, *sim).verified;
  ctx.instance(label + " at (ln 2, 1/4): LP without (S3) (bullet 1)", verified ? "feasible, simulator verified" : "no verified simulator",
               verified, g.horizon);
  SimulatorLpOptions irr;
  irr.irr_constraints = true;
  for (const Rational& delta : {q(1, 4), q(2, 5), q(49, 100)}) {
    const SimulatorBuild with_s3 = lp_simulator(tree, q(2), delta, irr);
    const bool infeasible = std::holds_alternative<SimulatorRefusal>(with_s3);
    ctx.instance(label + " at (ln 2, " + str(delta) + "): LP with (S3) (bullet 2)",
                 infeasible ? "infeasible (Farkas-certified): bullet 2 fails" : "feasible", infeasible, g.horizon);
  }
}

void check_c57(CheckContext& ctx) {
  // Mir_{1/2} as a CM (D.13 CM form): the only non-identical pair is (0, 1) at the second message.
  // On identical pairs the answer laws agree in both worlds, so (S3) ties the simulator's systems
  // there, exactly as bullet 2 of C5.7 demands ("one IRR interaction on identical pairs").
  const Game g = mirror_cm(q(1, 2));
  const auto tied = identical_law_nodes(likelihood_tree(g));
  ctx.instance("Mir_{1/2} CM: histories reached through identical-law steps only (tied by (S3))", std::to_string(tied.size()) + " nodes",
               !tied.empty(), g.horizon);
  mirror_evidence(ctx, g, "Mir_{1/2} CM");
}

// ------------------------------------------------------------------ HSV L5.9, L5.11: RR games

/// The largest 1 − Π(1 − δ_j) over the creation sequences (at most @p k, from @p menu) that the
/// product budget admits — the TV of the view of the best fixed sequence of RR_{0,δ_j} (each leaks
/// the bit with probability δ_j and otherwise outputs a fair coin).
Rational best_product(const std::vector<Rational>& menu, const Rational& budget, unsigned k, const Rational& keep = 1) {
  Rational best = 1 - keep;
  if (k == 0) return best;
  for (const auto& d : menu) {
    const Rational next = keep * (1 - d);
    if (1 - next <= budget) best = std::max(best, best_product(menu, budget, k - 1, next));
  }
  return best;
}

void check_l59(CheckContext& ctx) {
  // H10: menu δ ∈ {1/10, 1/5, 1/20}, budget 1 − Π(1−δ_j) ≤ 7/25, at most 4 creations (3 at the
  // small budget), each RR_{0,δ} a CM taking one bit pair: sup TV = 7/25 (1/10 and 1/5 exhaust it).
  auto game = [](const std::vector<Rational>& deltas, const Rational& budget, unsigned k) {
    std::vector<MenuEntry> menu;
    for (const auto& d : deltas) menu.push_back(entry("RR0_" + str(d), rr_cm(q(1), d), q(1), d));
    return filter_composition(menu, product_delta_rule(q(1), budget), launch_options(k, 2 * k));
  };
  const unsigned k = std::min(4u, std::max(2u, ctx.budget().horizon_cap()));  // 7/25 needs two creations
  const std::vector<Rational> h10{q(1, 10), q(1, 5), q(1, 20)};
  const Game g = game(h10, q(7, 25), k);
  const Rational tv = worst_case_hockey_stick(g, q(1)).delta();
  ctx.instance("H10: adaptive RR_{0,δ}, δ ∈ {1/10, 1/5, 1/20}, budget 7/25, ≤ " + std::to_string(k) + " creations: sup TV", str(tv),
               tv == q(7, 25) && tv == best_product(h10, q(7, 25), k), g.horizon);
  // Random menus and budgets: sup TV equals the best admissible fixed sequence (adaptivity does not
  // help: the budget sees parameters only) and never exceeds the budget.
  const std::vector<Rational> pool{q(1, 20), q(1, 10), q(1, 5), q(1, 4), q(1, 3)};
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<Rational> deltas;
    const long size = ctx.rng().range(1, 3);
    for (long j = 0; j < size; ++j) {
      const Rational d = pool[std::size_t(ctx.rng().range(0, 4))];
      if (std::find(deltas.begin(), deltas.end(), d) == deltas.end()) deltas.push_back(d);
    }
    const Rational budget = q(ctx.rng().range(1, 9), 20);
    const unsigned kk = static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    const Game rg = game(deltas, budget, kk);
    const Rational got = worst_case_hockey_stick(rg, q(1)).delta(), expected = best_product(deltas, budget, kk);
    std::string menu_s;
    for (const auto& d : deltas) menu_s += (menu_s.empty() ? "" : ", ") + str(d);
    ctx.random_instance(got == expected && got <= budget, "menu {" + menu_s + "}, budget " + str(budget) + ", ≤ " + std::to_string(kk) +
                                                              " creations: sup TV = " + str(got) + ", best sequence " + str(expected),
                        rg.horizon);
  }
}

/// The rule of HSV D5.10 f_{∞,δ′,RR}^{ε₁..ε_k} on a menu of RR_{ε_j,0} and RR_{0,δ_j}: the positive
/// λ's created form a sub-multiset of @p lambdas, and 1 − Π(1 − δ_j) ≤ δ′ over all created.
ContinuationRule rr_game_rule(std::vector<Rational> lambdas, Rational dprime) {
  return [lambdas = std::move(lambdas), dprime = std::move(dprime)](const std::vector<LaunchParameters>& launched,
                                                                    const LaunchParameters& proposed) {
    std::vector<bool> used(lambdas.size(), false);
    Rational keep = 1;
    auto take = [&](const LaunchParameters& p) -> bool {
      keep *= 1 - p.delta;
      if (p.lambda == 1) return true;
      for (std::size_t i = 0; i < lambdas.size(); ++i)
        if (!used[i] && lambdas[i] == p.lambda) {
          used[i] = true;
          return true;
        }
      return false;
    };
    for (const auto& d : launched)
      if (!take(d)) return false;
    return take(proposed) && 1 - keep <= dprime;
  };
}

/// The engine on the RR game of HSV L5.11 against 1 − (1 − δ_RR(λ))(1 − δ′) on [1, ∞); the first
/// excess ("" if none) and whether the bound is attained at every λ of @p tight_at.
std::pair<std::string, bool> rr_game_outcome(const std::vector<Rational>& lambdas, const std::vector<Rational>& leak_deltas,
                                             const Rational& dprime, unsigned k, const std::vector<Rational>& tight_at,
                                             unsigned& horizon) {
  std::vector<MenuEntry> menu;
  std::vector<Rational> distinct;
  for (const auto& l : lambdas)
    if (std::find(distinct.begin(), distinct.end(), l) == distinct.end()) distinct.push_back(l);
  for (const auto& l : distinct) menu.push_back(entry("RR" + str(l), rr_cm(l, q(0)), l));
  for (const auto& d : leak_deltas) menu.push_back(entry("RR0_" + str(d), rr_cm(q(1), d), q(1), d));
  horizon = 2 * k;
  const Game g = filter_composition(menu, rr_game_rule(lambdas, dprime), launch_options(k, horizon));
  const auto prof = worst_case_profile(g).profile;
  auto bound = [&](const Rational& x) -> Rational { return 1 - (1 - delta_rr(lambdas, x)) * (1 - dprime); };
  bool tight = true;
  for (const auto& x : tight_at) tight = tight && prof.delta(x) == bound(x);
  return {first_excess(prof, bound, rr_breakpoints(lambdas)), tight};
}

// ------------------------------------------------------------------ HSV T5.14, C5.15: FPC parallel composition

void check_t514(CheckContext& ctx) {
  const unsigned cap = ctx.budget().horizon_cap();
  // H6: ℓ copies of the IM version of M_{1/10} (secret bit first), k = 1, FPC: sup H_λ = 1/10
  // (ℓ ≤ 2 at the small budget, 3 beyond).
  for (unsigned l = 1; l <= std::min(3u, cap - 1); ++l) {
    const Game g = parallel_composition({entry("M", library::m_delta_interactive(q(1, 10)), q(1), q(1, 10))},
                                        {LaunchParameters{q(1), q(1, 10), {}}}, true, launch_options(l, 4 * l));
    const auto prof = worst_case_profile(g).profile;
    bool ok = true;
    for (const Rational& x : comparison_points(prof)) ok = ok && prof.delta(x) == q(1, 10);
    ctx.instance("H6: " + std::to_string(l) + " copies of M_{1/10} (IM form), FPC, k = 1: sup H_2 (= 1/10 = δ_opt at every λ ≥ 1)",
                 str(prof.delta(q(2))), ok, g.horizon);
  }
  // The copies of T5.2 under FPC: the attack needs an identical pair before the differing one,
  // which FPC forbids; M_δ ignores the bit until ⊥, so nothing leaks (hand-derived: 0).
  {
    const unsigned l = std::min(2u, cap);
    const Game g = parallel_composition({entry("M", library::m_delta(q(1, 10)), q(1), q(1, 10))}, {LaunchParameters{q(1), q(1, 10), {}}},
                                        true, launch_options(l, 2 * l + 1));
    expect_equal(ctx, std::to_string(l) + " copies of M_{1/10} (CM form of T5.2) under FPC: sup H_1", worst_case_hockey_stick(g, q(1)).delta(),
                 q(0), g.horizon);
  }
  // Random IMs (secret first, one query) with their exact (λ_j, δ_j): two copies, k = 1, FPC.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    Game c = random_im_cm(ctx.rng(), 1, false);
    const Rational l = std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))];
    const Rational d = worst_case_hockey_stick(c, l).delta();
    const std::string name = c.name;
    const Game g = parallel_composition({entry("C", std::move(c), l, d)}, {LaunchParameters{l, d, {}}}, true, launch_options(2, 6));
    const auto prof = worst_case_profile(g).profile;
    const std::vector<std::pair<Rational, Rational>> params{{l, d}};
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_opt(params, x); }, rr_breakpoints({l}));
    ctx.random_instance(bad.empty(), "two copies of " + name + " (" + str(l) + ", " + str(d) + "), FPC, k = 1: " + bad, 6);
  }
}

void check_c515(CheckContext& ctx) {
  const unsigned cap = ctx.budget().horizon_cap();
  // RR₂ in IM form, ℓ copies, k = 2: Comp(RR₂ × 2) exactly (E.3; the H14 values 1/3, 2/9, 0).
  {
    const unsigned l = std::min(3u, std::max(2u, cap - 1));
    const Game g = parallel_composition({entry("RR2", rr_im_cm(q(2), q(0)), q(2))}, {LaunchParameters{q(2), 0, {}}, LaunchParameters{q(2), 0, {}}},
                                        true, launch_options(l, 3 * l));
    const auto prof = worst_case_profile(g).profile;
    const std::vector<std::pair<Rational, Rational>> params{{q(2), q(0)}, {q(2), q(0)}};
    bool ok = true;
    for (const auto& x : comparison_points(prof, rr_breakpoints({q(2), q(2)}))) ok = ok && prof.delta(x) == delta_opt(params, x);
    ctx.instance(std::to_string(l) + " copies of RR₂ (IM form), k = 2: sup H_λ at λ = 1, 3/2, 2, 4 (= Comp(RR₂ × 2) at every λ)",
                 str(prof.delta(q(1))) + ", " + str(prof.delta(q(3, 2))) + ", " + str(prof.delta(q(2))) + ", " + str(prof.delta(q(4))),
                 ok && prof.delta(q(1)) == q(1, 3) && prof.delta(q(2)) == q(2, 9) && prof.delta(q(4)) == q(0), g.horizon);
  }
  // A mixture {M_{1/10} (IM), RR₂ (IM)}, k = 2: δ_opt of (0⁺, 1/10), (ln 2, 0), attained.
  {
    const unsigned h = std::min(7u, 2 + 2 * std::max(2u, cap));  // both components and their messages
    const Game g = parallel_composition({entry("M", library::m_delta_interactive(q(1, 10)), q(1), q(1, 10)), entry("RR2", rr_im_cm(q(2), q(0)), q(2))},
                                        {LaunchParameters{q(1), q(1, 10), {}}, LaunchParameters{q(2), 0, {}}}, true, launch_options(2, h));
    const auto prof = worst_case_profile(g).profile;
    const std::vector<std::pair<Rational, Rational>> params{{q(1), q(1, 10)}, {q(2), q(0)}};
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_opt(params, x); }, rr_breakpoints({q(2)}));
    ctx.instance("{M_{1/10}, RR₂} (IM forms), k = 2: sup H_1, H_2 vs δ_opt = 2/5, 1/10", str(prof.delta(q(1))) + ", " + str(prof.delta(q(2))),
                 bad.empty() && prof.delta(q(1)) == delta_opt(params, q(1)) && prof.delta(q(2)) == delta_opt(params, q(2)), h);
  }
  // Random: two random IMs with exact (λ_j, δ_j), one copy each, k = 2.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    std::vector<LaunchParameters> sparse;
    std::vector<std::pair<Rational, Rational>> params;
    std::vector<Rational> ls;
    std::string desc;
    for (int j = 0; j < 2; ++j) {
      Game c = random_im_cm(ctx.rng(), 1, false);
      const Rational l = std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))];
      const Rational d = worst_case_hockey_stick(c, l).delta();
      desc += (desc.empty() ? "" : ", ") + c.name + " (" + str(l) + ", " + str(d) + ")";
      sparse.push_back({l, d, {}});
      params.push_back({l, d});
      ls.push_back(l);
      menu.push_back(entry("C" + std::to_string(j), std::move(c), l, d));
    }
    const Game g = parallel_composition(menu, sparse, true, launch_options(2, 6));
    const auto prof = worst_case_profile(g).profile;
    const std::string bad = first_excess(prof, [&](const Rational& x) { return delta_opt(params, x); }, rr_breakpoints(ls));
    ctx.random_instance(bad.empty(), desc + ", k = 2: " + bad, 6);
  }
}

// ------------------------------------------------------------------ HSV C3.8: CM privacy as IM privacy

/// The state of V[f]∘*I(b)∘*M as one IM (HSV C3.8): the world b, M's state, the verifier state, halted.
struct WrappedState {
  int world = 0;
  StateId inner = 0;
  VerifierState sigma = 0;
  bool halted = false;
  friend bool operator==(const WrappedState&, const WrappedState&) = default;
};
struct WrappedHash {
  std::size_t operator()(const WrappedState& s) const noexcept {
    return (std::size_t(s.inner) * 1000003u + s.sigma) * 4u + std::size_t(s.world) * 2u + std::size_t(s.halted);
  }
};

/// A two-world game rewritten as the IM V[f]∘*I∘*M with the two initial states (·, 0, ·), (·, 1, ·)
/// and static neighbours (∼₀₁): its messages are all pairs "m₀|m₁"; a pair the relation f does not
/// allow halts it (V[f] halts on an invalid sequence), any other is forwarded, m_b to world b's M.
Game wrapped_im(const Game& g) {
  const auto mech = g.mechanism;
  const auto ver = g.verifier;
  const auto& ms = mech->messages();
  std::vector<std::string> names;
  std::map<std::string, MessagePair> pair_of;
  for (MessageId i = 0; i < ms.size(); ++i)
    for (MessageId j = 0; j < ms.size(); ++j) {
      names.push_back(ms[i] + "|" + ms[j]);
      pair_of[names.back()] = MessagePair{i, j};
    }
  auto step = [mech, ver, pair_of](const WrappedState& s, const std::string& message) -> std::vector<Outcome<WrappedState>> {
    if (s.halted) return {{Rational(1), halt_answer, s}};
    const MessagePair p = pair_of.at(message);
    const auto& allowed = ver->allowed(s.sigma);
    const auto it = std::find(allowed.begin(), allowed.end(), p);
    if (it == allowed.end()) {
      WrappedState h = s;
      h.halted = true;
      return {{Rational(1), halt_answer, h}};
    }
    const VerifierState next_sigma = ver->next(s.sigma, std::size_t(it - allowed.begin()));
    std::vector<Outcome<WrappedState>> out;
    for (const auto& t : mech->step(s.inner, s.world == 0 ? p.world0 : p.world1))
      out.push_back({t.probability, mech->answer_name(t.answer), WrappedState{s.world, t.next, next_sigma, false}});
    return out;
  };
  auto im = std::make_shared<LambdaMechanism<WrappedState, WrappedHash>>("V[f]∘*I∘*" + g.name, names, step);
  Game w;
  w.name = im->name();
  w.mechanism = im;
  w.verifier = std::make_shared<StaticVerifier>(names.size());
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : g.initial[std::size_t(b)])
      w.initial[std::size_t(b)].push_back({im->state_id(WrappedState{b, s, ver->initial_state(), false}), p});
  w.horizon = g.horizon;
  w.validate();
  return w;
}

void check_c38(CheckContext& ctx) {
  auto compare = [&](const Game& g, bool named) {
    const Game w = wrapped_im(g);
    const auto a = worst_case_profile(g).profile, b = worst_case_profile(w).profile;
    const auto ra = worst_case_renyi_moment(g, 2), rb = worst_case_renyi_moment(w, 2);
    const bool ok = a.forward() == b.forward() && a.backward() == b.backward() && ra.forward == rb.forward && ra.backward == rb.backward;
    const std::string out = "H_1 = " + str(a.delta(q(1))) + " / " + str(b.delta(q(1))) + ", Φ₂ = " + to_string(ra.max()) + " / " +
                            to_string(rb.max()) + (ok ? " (whole profiles equal)" : " (DIFFER)");
    if (named)
      ctx.instance(g.name + ": two-world game vs the IM V[f]∘*I∘*M under ∼₀₁", out, ok, g.horizon);
    else
      ctx.random_instance(ok, g.name + ": " + out, g.horizon);
  };
  compare(library::m_delta(q(1, 10)), true);
  compare(mirror_cm(q(1, 2)), true);
  compare(rr_im_cm(q(2), q(1, 10)), true);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
    compare(random_cm(ctx.rng(), static_cast<unsigned>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap()))), false), false);
}

// ------------------------------------------------------------------ HSV §10.3: the construction of ξ_t, φ_t

/// A half-plane a·x₀ + b·x₁ ≤ c over ℚ².
struct HalfPlane {
  Rational a, b, c;
};

/// The lexicographically greatest point (x₀ first, or x₁ first) of a bounded polygon given by
/// half-planes, found exactly among the vertices (intersections of two boundary lines that satisfy
/// every constraint); std::nullopt when the polygon is empty.
std::optional<std::array<Rational, 2>> lexmax(const std::vector<HalfPlane>& hs, bool x1_first = false) {
  std::optional<std::array<Rational, 2>> best;
  for (std::size_t i = 0; i < hs.size(); ++i)
    for (std::size_t j = i + 1; j < hs.size(); ++j) {
      const Rational det = hs[i].a * hs[j].b - hs[i].b * hs[j].a;
      if (sgn(det) == 0) continue;
      const std::array<Rational, 2> x{(hs[i].c * hs[j].b - hs[i].b * hs[j].c) / det, (hs[i].a * hs[j].c - hs[i].c * hs[j].a) / det};
      bool feasible = true;
      for (const auto& h : hs) feasible = feasible && h.a * x[0] + h.b * x[1] <= h.c;
      if (!feasible) continue;
      const int k = x1_first ? 1 : 0;
      if (!best || x[k] > (*best)[k] || (x[k] == (*best)[k] && x[1 - k] > (*best)[1 - k])) best = x;
    }
  return best;
}

/// The §10.3 construction (THEOREMS.md C.5.6) on a likelihood tree at (λ, δ), 0 < δ < 1: per node
/// and query, answers in tree order, ξ_t(h,q,a) = the lexicographic maximum of (ξ.1)–(ξ.4), then
/// φ_t(h,q,a) = the diagonal maximal point of (φ.1)–(φ.3) if one exists, else the lexicographic
/// maximum. @p delta_in_xi2: (ξ.2) bounded by δφ_{t−1} (the reading of eq. (2) and the base case)
/// instead of φ_{t−1} (as printed).
struct Construction {
  std::vector<std::optional<std::array<Rational, 2>>> xi, phi;  // per node
  std::string failure;                                            // the first empty set, "" if none
};

Construction paper_construction(const LikelihoodTree& tree, const Rational& lambda, const Rational& delta, bool delta_in_xi2) {
  const auto L = tree_hockey_stick(tree, lambda);
  Construction c;
  c.xi.assign(tree.nodes.size(), std::nullopt);
  c.phi.assign(tree.nodes.size(), std::nullopt);
  c.phi[0] = std::array<Rational, 2>{Rational(1), Rational(1)};
  const Rational inv = 1 / lambda;
  for (std::size_t h = 0; h < tree.nodes.size() && c.failure.empty(); ++h) {
    if (!c.phi[h]) continue;
    const auto& phi_h = *c.phi[h];
    for (const auto& br : tree.nodes[h].branches) {
      const auto& kids = br.children;
      for (std::size_t k = 0; k < kids.size() && c.failure.empty(); ++k) {
        const std::size_t a = kids[k].node;
        const auto& mu = tree.nodes[a].likelihood;
        std::vector<HalfPlane> hs;
        for (int b = 0; b < 2; ++b) {
          const Rational e0 = b == 0 ? Rational(1) : Rational(0), e1 = 1 - e0;  // x_b = e0·x₀ + e1·x₁
          Rational room = delta_in_xi2 ? Rational(delta * phi_h[b]) : phi_h[b];
          for (std::size_t j = 0; j < kids.size(); ++j)
            if (j < k) room -= (*c.xi[kids[j].node])[b];
            else if (j > k) room -= L[kids[j].node][b];
          hs.push_back({-e0, -e1, -L[a][b]});                                                // (ξ.1)
          hs.push_back({e0, e1, room});                                                      // (ξ.2)
          hs.push_back({e0 - inv * e1, e1 - inv * e0, mu[b] - inv * mu[1 - b]});             // (ξ.3)
          hs.push_back({e0, e1, std::min(mu[b], Rational(L[a][0] + L[a][1]))});              // (ξ.4)
        }
        c.xi[a] = lexmax(hs);
        if (!c.xi[a]) c.failure = "the set defining ξ_" + std::to_string(tree.nodes[a].depth) + " at " + tree.describe(a) + " is empty";
      }
      for (std::size_t k = 0; k < kids.size() && c.failure.empty(); ++k) {
        const std::size_t a = kids[k].node;
        const auto& mu = tree.nodes[a].likelihood;
        std::vector<HalfPlane> hs;
        for (int b = 0; b < 2; ++b) {
          const Rational e0 = b == 0 ? Rational(1) : Rational(0), e1 = 1 - e0;
          Rational room = phi_h[b];
          for (std::size_t j = 0; j < kids.size(); ++j)
            if (j < k) room -= (*c.phi[kids[j].node])[b];
            else if (j > k) room -= (*c.xi[kids[j].node])[b] / delta;
          hs.push_back({-delta * e0, -delta * e1, -(*c.xi[a])[b]});                                   // (φ.1)
          hs.push_back({e0, e1, room});                                                               // (φ.2)
          hs.push_back({delta * (e0 - inv * e1), delta * (e1 - inv * e0), mu[b] - inv * mu[1 - b]});  // (φ.3)
        }
        // the diagonal maximal point, if the greatest diagonal point is maximal
        auto diag = hs;
        diag.push_back({1, -1, 0});
        diag.push_back({-1, 1, 0});
        std::optional<std::array<Rational, 2>> pick;
        if (const auto d = lexmax(diag)) {
          auto above = hs;
          above.push_back({-1, 0, -(*d)[0]});
          above.push_back({0, -1, -(*d)[1]});
          if (lexmax(above) == d && lexmax(above, true) == d) pick = d;
        }
        c.phi[a] = pick ? pick : lexmax(hs);
        if (!c.phi[a]) c.failure = "the set defining φ_" + std::to_string(tree.nodes[a].depth) + " at " + tree.describe(a) + " is empty";
      }
    }
  }
  return c;
}

std::string show_pair(const std::optional<std::array<Rational, 2>>& x) {
  return x ? "(" + str((*x)[0]) + ", " + str((*x)[1]) + ")" : "undefined";
}

void check_cl1029(CheckContext& ctx) {
  // Mir_{1/2} at (ln 2, 1/4) (H7): the construction as printed — (ξ.2) bounded by φ_{t−1} — gives
  // ξ₁ = (1/4, 1/4) at a1 and a2, and then the set of φ₁ at a1 is empty: (φ.1) needs x₀ ≥ ξ⁰/δ = 1,
  // (φ.2) needs x₀ ≤ φ₀⁰ − ξ⁰(a2)/δ = 0.
  const LikelihoodTree tree = likelihood_tree(library::mirror(q(1, 2)));
  const Construction printed = paper_construction(tree, q(2), q(1, 4), false);
  const std::size_t a1 = tree.nodes[0].branches.at(0).children.at(0).node, a2 = tree.nodes[0].branches.at(0).children.at(1).node;
  ctx.instance("Mir_{1/2} at (ln 2, 1/4), (ξ.2) as printed: ξ₁(a1), ξ₁(a2), first empty set",
               show_pair(printed.xi[a1]) + ", " + show_pair(printed.xi[a2]) + "; " + (printed.failure.empty() ? "none" : printed.failure),
               !printed.failure.empty() && printed.xi[a1] == std::array<Rational, 2>{q(1, 4), q(1, 4)} && !printed.phi[a1], 2);
  // With δ in (ξ.2) (the reading of eq. (2)), the sets are non-empty on this instance but ξ₁ is
  // (1/4, 0) at a1 and (0, 1/4) at a2 — not the diagonal value L10.32 asserts on the identical-law
  // first step (see HSV-L10.32).
  const Construction with_delta = paper_construction(tree, q(2), q(1, 4), true);
  ctx.instance("Mir_{1/2} at (ln 2, 1/4), δ in (ξ.2): ξ₁(a1), ξ₁(a2), φ₁(a1), first empty set",
               show_pair(with_delta.xi[a1]) + ", " + show_pair(with_delta.xi[a2]) + ", " + show_pair(with_delta.phi[a1]) + "; " +
                   (with_delta.failure.empty() ? "none" : with_delta.failure),
               with_delta.xi[a1] == std::array<Rational, 2>{q(1, 4), q(0)} && with_delta.xi[a2] == std::array<Rational, 2>{q(0), q(1, 4)},
               2);
  // Where else the δ reading fails, if anywhere: MP, MA, R2 (D.16) at λ ∈ {3/2, 2, 3, 4} and random
  // two-step systems, each at its own exact δ(λ) — reported as a count (a note, not a verdict).
  {
    unsigned tried = 0, empty_delta = 0, empty_printed = 0;
    auto explore = [&](const Game& g, const Rational& lam) {
      const Rational d = worst_case_hockey_stick(g, lam).delta();
      if (sgn(d) == 0 || d >= 1) return;
      const LikelihoodTree t = likelihood_tree(g);
      ++tried;
      if (!paper_construction(t, lam, d, true).failure.empty()) ++empty_delta;
      if (!paper_construction(t, lam, d, false).failure.empty()) ++empty_printed;
    };
    for (const Rational& l : {q(3, 2), q(2), q(3), q(4)})
      for (const Game& g : {mp_game(), ma_game(), r2_game()}) explore(g, l);
    for (unsigned n = 0; n < ctx.budget().random_count(); ++n)
      explore(n % 2 ? random_vw2_game(ctx.rng()) : random_table_game(ctx.rng(), 3, 2),
              std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))]);
    ctx.note("Other systems (MP, MA, R2 at λ = 3/2, 2, 3, 4 and random two-step systems, each at its exact δ(λ)): an empty set on " +
             std::to_string(empty_printed) + " of " + std::to_string(tried) + " with (ξ.2) as printed, on " + std::to_string(empty_delta) +
             " of " + std::to_string(tried) + " with δ in (ξ.2).");
  }
  // The printed reading fails on every Mir_p at its own (ln(1/(1−p)), p/2).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long d = ctx.rng().range(2, 12);
    const Rational p = q(ctx.rng().range(1, d - 1), d);
    const LikelihoodTree t = likelihood_tree(library::mirror(p));
    const Construction c = paper_construction(t, 1 / (1 - p), p / 2, false);
    ctx.random_instance(!c.failure.empty(), "Mir_" + str(p) + " at (ln " + str(1 / (1 - p)) + ", " + str(p / 2) +
                                                "), (ξ.2) as printed: every set non-empty", 2);
  }
}

void check_l1032(CheckContext& ctx) {
  // L10.32 asserts ξ⁰ = ξ¹ = min{μ, L⁰ + L¹} on identical-law prefixes; on Mir_p's first step (both
  // answers have law (1/2, 1/2) in both worlds) these values must satisfy (ξ.2) with δφ₀ = δ, but
  // Σ_a min{μ₁(a), L₁⁰(a) + L₁¹(a)} = p > δ = p/2 (THEOREMS.md C.5.3, erratum E2).
  auto one = [&](const Rational& p, bool named) {
    const Rational lambda = 1 / (1 - p), delta = p / 2;
    const Game g = library::mirror(p);
    const LikelihoodTree tree = likelihood_tree(g);
    const auto L = tree_hockey_stick(tree, lambda);
    const auto tied = identical_law_nodes(tree);
    Rational sum = 0;
    bool identical = true;
    for (const auto& kid : tree.nodes[0].branches.at(0).children) {
      identical = identical && std::find(tied.begin(), tied.end(), kid.node) != tied.end();
      const auto& mu = tree.nodes[kid.node].likelihood;
      identical = identical && mu[0] == mu[1];
      sum += std::min(mu[0], Rational(L[kid.node][0] + L[kid.node][1]));
    }
    const Rational dp = worst_case_hockey_stick(g, lambda).delta();
    const bool ok = identical && dp == delta && sum == p && sum > delta;
    const std::string out = "Mir_" + str(p) + " is (ln " + str(lambda) + ", " + str(dp) + ")-DP; Σ_a min{μ₁, L₁⁰ + L₁¹} = " + str(sum) +
                            " vs δφ₀ = " + str(delta);
    if (named)
      ctx.instance("Mir_" + str(p) + ": first step identical-law, Σ_a min{μ₁, L₁⁰+L₁¹} = p > δφ₀ = p/2", out, ok, 2);
    else
      ctx.random_instance(ok, out, 2);
  };
  one(q(1, 2), true);
  one(q(1, 3), true);
  // The construction itself (δ in (ξ.2)) is not diagonal on that identical-law step.
  const LikelihoodTree tree = likelihood_tree(library::mirror(q(1, 2)));
  const Construction c = paper_construction(tree, q(2), q(1, 4), true);
  const std::size_t a1 = tree.nodes[0].branches.at(0).children.at(0).node;
  ctx.instance("Mir_{1/2}: the §10.3 construction's ξ₁(a1) (L10.32 claims (1/4, 1/4))", show_pair(c.xi[a1]),
               c.xi[a1] && (*c.xi[a1])[0] != (*c.xi[a1])[1], 2);
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long d = ctx.rng().range(2, 12);
    one(q(ctx.rng().range(1, d - 1), d), false);
  }
}

// ------------------------------------------------------------------ HSV L11.8: sequential coupling

/// A two-world law of sequences y₁…y_n given by its conditionals: cond[b][prefix] is the law of the
/// next symbol in world b after `prefix` (prefixes as vectors of symbols).
struct SequenceLaw {
  int n = 0, k = 0;
  std::array<std::map<std::vector<int>, std::vector<Rational>>, 2> cond;
};

Rational tv_of(const std::vector<Rational>& p, const std::vector<Rational>& r) {
  Rational t = 0;
  for (std::size_t i = 0; i < p.size(); ++i) t += std::max(Rational(p[i] - r[i]), Rational(0));
  return t;
}

/// The sequential coupling of B.16 (HSV L11.8): while the two histories agree couple the two
/// conditionals maximally (L11.6), once they differ draw independently. Returns the joint law of
/// (Z⁰, Z¹) over pairs of full sequences.
std::map<std::pair<std::vector<int>, std::vector<int>>, Rational> sequential_coupling(const SequenceLaw& s) {
  std::map<std::pair<std::vector<int>, std::vector<int>>, Rational> layer{{{{}, {}}, Rational(1)}};
  for (int i = 0; i < s.n; ++i) {
    std::map<std::pair<std::vector<int>, std::vector<int>>, Rational> next;
    for (const auto& [pr, w] : layer) {
      const auto& p0 = s.cond[0].at(pr.first);
      const auto& p1 = s.cond[1].at(pr.second);
      const Rational tv = tv_of(p0, p1);
      for (int y0 = 0; y0 < s.k; ++y0)
        for (int y1 = 0; y1 < s.k; ++y1) {
          Rational c;
          if (pr.first == pr.second) {
            c = y0 == y1 ? std::min(p0[std::size_t(y0)], p1[std::size_t(y0)]) : Rational(0);
            if (sgn(tv) > 0)
              c += std::max(Rational(p0[std::size_t(y0)] - p1[std::size_t(y0)]), Rational(0)) *
                   std::max(Rational(p1[std::size_t(y1)] - p0[std::size_t(y1)]), Rational(0)) / tv;
          } else {
            c = p0[std::size_t(y0)] * p1[std::size_t(y1)];
          }
          if (sgn(c) == 0) continue;
          auto a = pr.first, b = pr.second;
          a.push_back(y0);
          b.push_back(y1);
          next[{a, b}] += w * c;
        }
    }
    layer = std::move(next);
  }
  return layer;
}

/// Checks HSV L11.8 on one sequence law: the coupling's marginals are the two laws, the agreement
/// probability is at least 1 − γ with γ = max over paths of 1 − Π(1 − Δ_i), and TV(Y⁰, Y¹) ≤ γ.
/// Returns "" or what failed; @p tv_out and @p gamma_out receive the exact values.
std::string check_sequence_law(const SequenceLaw& s, Rational& tv_out, Rational& gamma_out) {
  // the laws of full sequences and γ, by walking all prefixes
  std::array<std::map<std::vector<int>, Rational>, 2> law;
  Rational gamma = 0;
  std::function<void(std::vector<int>, Rational, Rational, Rational)> walk = [&](std::vector<int> pre, Rational w0, Rational w1,
                                                                                 Rational keep) {
    if (int(pre.size()) == s.n) {
      law[0][pre] += w0;
      law[1][pre] += w1;
      gamma = std::max(gamma, Rational(1 - keep));
      return;
    }
    const auto& p0 = s.cond[0].at(pre);
    const auto& p1 = s.cond[1].at(pre);
    const Rational delta_i = tv_of(p0, p1);
    for (int y = 0; y < s.k; ++y) {
      auto next = pre;
      next.push_back(y);
      walk(next, w0 * p0[std::size_t(y)], w1 * p1[std::size_t(y)], keep * (1 - delta_i));
    }
  };
  walk({}, 1, 1, 1);
  Masses m;
  for (const auto& [y, p] : law[0]) m.push_back({p, law[1][y]});
  const Rational tv = hockey_stick(PrivacyLoss::from_masses(m), q(1));
  const auto joint = sequential_coupling(s);
  std::array<std::map<std::vector<int>, Rational>, 2> marg;
  Rational agree = 0;
  for (const auto& [pr, w] : joint) {
    marg[0][pr.first] += w;
    marg[1][pr.second] += w;
    if (pr.first == pr.second) agree += w;
  }
  tv_out = tv;
  gamma_out = gamma;
  for (int b = 0; b < 2; ++b)
    for (const auto& [y, p] : law[std::size_t(b)])
      if (marg[std::size_t(b)][y] != p) return "marginal " + std::to_string(b) + " of the coupling is wrong";
  if (agree < 1 - gamma) return "Pr[Z⁰ = Z¹] = " + str(agree) + " < 1 − γ = " + str(1 - gamma);
  if (tv > 1 - agree) return "TV = " + str(tv) + " > Pr[Z⁰ ≠ Z¹] = " + str(1 - agree);
  if (tv > gamma) return "TV = " + str(tv) + " > γ = " + str(gamma);
  return "";
}

void check_l118(CheckContext& ctx) {
  // H10's chain: RR_{0,1/10} then RR_{0,1/5} (outputs leak0, leak1, 0, 1): Δ = 1/10, 1/5,
  // γ = 1 − (9/10)(4/5) = 7/25 = TV (tight).
  {
    SequenceLaw s;
    s.n = 2;
    s.k = 4;
    const Rational d[2] = {q(1, 10), q(1, 5)};
    auto rr0 = [](const Rational& delta, int b) {
      std::vector<Rational> v{b == 0 ? delta : Rational(0), b == 1 ? delta : Rational(0), (1 - delta) / 2, (1 - delta) / 2};
      return v;
    };
    for (int b = 0; b < 2; ++b) {
      s.cond[std::size_t(b)][{}] = rr0(d[0], b);
      for (int y = 0; y < 4; ++y) s.cond[std::size_t(b)][{y}] = rr0(d[1], b);
    }
    Rational tv, gamma;
    const std::string bad = check_sequence_law(s, tv, gamma);
    ctx.instance("H10 chain RR_{0,1/10}, RR_{0,1/5}: TV, γ (coupling verified)", str(tv) + ", " + str(gamma) + (bad.empty() ? "" : "; " + bad),
                 bad.empty() && tv == q(7, 25) && gamma == q(7, 25), 2);
  }
  // Random sequence laws: n ≤ 3 steps over 2–3 symbols, conditionals with integer weights ≤ 4
  // (zero entries allowed).
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    SequenceLaw s;
    s.n = static_cast<int>(ctx.rng().range(1, std::min(3u, ctx.budget().horizon_cap())));
    s.k = static_cast<int>(ctx.rng().range(2, 3));
    std::function<void(std::vector<int>)> fill = [&](std::vector<int> pre) {
      if (int(pre.size()) == s.n) return;
      for (int b = 0; b < 2; ++b) {
        std::vector<long> w;
        long total = 0;
        while (total == 0) {
          w.clear();
          for (int y = 0; y < s.k; ++y) w.push_back(ctx.rng().range(0, 4)), total += w.back();
        }
        std::vector<Rational> c;
        for (long x : w) c.push_back(q(x, total));
        s.cond[std::size_t(b)][pre] = c;
      }
      for (int y = 0; y < s.k; ++y) {
        auto next = pre;
        next.push_back(y);
        fill(next);
      }
    };
    fill({});
    Rational tv, gamma;
    const std::string bad = check_sequence_law(s, tv, gamma);
    ctx.random_instance(bad.empty(), "random law, " + std::to_string(s.n) + " steps over " + std::to_string(s.k) + " symbols: " + bad, unsigned(s.n));
  }
}

// ------------------------------------------------------------------ HSV T12.4: concurrent filters

void check_t124(CheckContext& ctx) {
  // H11: the basic filter Πλ ≤ 4, Σδ ≤ 1/5 on the RR menu {(2,0), (1,1/10), (2,1/10)}, each RR a CM
  // taking one bit pair: sup H_λ = 23/50, 37/100, 19/100 at λ = 1, 2, 4 (19/100 ≤ 1/5).
  auto rr_menu = [](const std::vector<std::pair<Rational, Rational>>& ps) {
    std::vector<MenuEntry> m;
    for (std::size_t j = 0; j < ps.size(); ++j) m.push_back(entry("RR" + std::to_string(j), rr_cm(ps[j].first, ps[j].second), ps[j].first, ps[j].second));
    return m;
  };
  const std::vector<std::pair<Rational, Rational>> h11{{q(2), q(0)}, {q(1), q(1, 10)}, {q(2), q(1, 10)}};
  const auto rule = basic_approximate_rule(q(4), q(1, 5));
  const unsigned k = std::min(3u, std::max(2u, ctx.budget().horizon_cap()));  // H11's values need two creations
  const Game h11_game = filter_composition(rr_menu(h11), rule, launch_options(k, 2 * k));
  const std::pair<Rational, Rational> expected[] = {{q(1), q(23, 50)}, {q(2), q(37, 100)}, {q(4), q(19, 100)}};
  for (const auto& [l, v] : expected)
    expect_equal(ctx, "H11: RR filter game (≤ " + std::to_string(k) + " creations), sup H_" + str(l),
                 worst_case_hockey_stick(h11_game, l).delta(), v, 2 * k);
  // The same rule with continual mechanisms of the same parameters in place of the RR's:
  // RR₂ in IM form (2, 0), M_{1/10} (0⁺, 1/10), Mir_{1/5} ((ln 2, 1/10)-DP since 5/4 ≤ 2).
  {
    std::vector<MenuEntry> cms{entry("RRIM", rr_im_cm(q(2), q(0)), q(2)), entry("M", library::m_delta(q(1, 10)), q(1), q(1, 10)),
                               entry("Mir", mirror_cm(q(1, 5)), q(2), q(1, 10))};
    // two creations; at the small budget 5 rounds (the second CM gets one message), else 6
    const unsigned hcm = std::min(6u, 2 + ctx.budget().horizon_cap());
    const auto cm_prof = worst_case_profile(filter_composition(cms, rule, launch_options(2, hcm))).profile;
    const auto rr2 = worst_case_profile(filter_composition(rr_menu(h11), rule, launch_options(2, 4))).profile;
    const std::string bad = profile_excess(cm_prof, rr2);
    ctx.instance("CMs {RR₂ (IM), M_{1/10}, Mir_{1/5}} under the same filter (≤ 2 creations) ≤ the RR filter game; H_4 ≤ 1/5",
                 "H_1, H_2, H_4 = " + str(cm_prof.delta(q(1))) + ", " + str(cm_prof.delta(q(2))) + ", " + str(cm_prof.delta(q(4))) +
                     (bad.empty() ? "" : "; " + bad),
                 bad.empty() && cm_prof.delta(q(4)) <= q(1, 5), hcm);
  }
  // Random: two random CMs with exact (λ_j, δ_j), a random basic or product-δ filter; the CM filter
  // game ≤ the RR filter game with the same parameters ≤ the budget at the budget's λ.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> cms;
    std::vector<std::pair<Rational, Rational>> ps;
    std::string desc;
    for (int j = 0; j < 2; ++j) {
      Game c = random_cm(ctx.rng(), 1, false);
      const Rational l = std::vector<Rational>{q(1), q(3, 2), q(2)}[std::size_t(ctx.rng().range(0, 2))];
      const Rational d = worst_case_hockey_stick(c, l).delta();
      ps.push_back({l, d});
      desc += " (" + str(l) + ", " + str(d) + ")";
      cms.push_back(entry("C" + std::to_string(j), std::move(c), l, d));
    }
    const Rational lb = std::vector<Rational>{q(2), q(3), q(4)}[std::size_t(ctx.rng().range(0, 2))];
    const Rational db = q(ctx.rng().range(0, 6), 10);
    const bool product = ctx.rng().coin();
    const auto r = product ? product_delta_rule(lb, db) : basic_approximate_rule(lb, db);
    const auto cm_prof = worst_case_profile(filter_composition(cms, r, launch_options(2, 4))).profile;
    const auto rr2 = worst_case_profile(filter_composition(rr_menu(ps), r, launch_options(2, 4))).profile;
    std::string bad = profile_excess(cm_prof, rr2);
    if (rr2.delta(lb) > db) bad += " the RR filter game exceeds its budget: " + str(rr2.delta(lb)) + " > " + str(db);
    ctx.random_instance(bad.empty(), "menu" + desc + ", " + (product ? "product-δ" : "basic") + " filter (" + str(lb) + ", " + str(db) + "): " + bad, 4);
  }
}

// ------------------------------------------------------------------ HSV §13: Rényi

void check_c134(CheckContext& ctx) {
  // H9: two fixed copies of the Rényi gadget (α = 2, q = 3/4, p = 3/8), each with sup Φ₂ = 3/2:
  // the concurrent composition has sup Φ₂ = 9/4 = (3/2)², the budget Π e^{(α−1)ε_i} (tight).
  const Game one = library::renyi_gadget(q(3, 8), q(3, 4));
  expect_equal(ctx, "H9: one Rényi gadget, sup Φ₂", worst_case_renyi_moment(one, 2).max().value(), q(3, 2), 2);
  const auto two = worst_case_renyi_moment(concurrent({one, one}), 2);
  ctx.instance("H9: two fixed copies, sup Φ₂ (both directions) vs (3/2)²", to_string(two.forward) + ", " + to_string(two.backward),
               two.forward == ExtendedRational(q(9, 4)) && two.backward == ExtendedRational(q(9, 4)), 4);
  // Random: two random CMs, α ∈ {2, 3}: the composition's moment equals the product of the
  // components' (X-RENYI-PRODUCT), so it is within the budget Π e^{(α−1)ε_i}, per direction.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned alpha = static_cast<unsigned>(ctx.rng().range(2, 3));
    const unsigned h1 = static_cast<unsigned>(ctx.rng().range(1, 2)), h2 = ctx.budget().horizon_cap() >= 4 ? static_cast<unsigned>(ctx.rng().range(1, 2)) : 1;
    const Game a = random_cm(ctx.rng(), h1, ctx.rng().coin()), b = random_cm(ctx.rng(), h2, true);
    const auto ra = worst_case_renyi_moment(a, alpha), rb = worst_case_renyi_moment(b, alpha);
    const auto rc = worst_case_renyi_moment(concurrent({a, b}), alpha);
    const bool ok = rc.forward == ra.forward * rb.forward && rc.backward == ra.backward * rb.backward;
    ctx.random_instance(ok, "α = " + std::to_string(alpha) + ": " + to_string(rc.forward) + " vs " + to_string(ra.forward) + " · " +
                                to_string(rb.forward),
                        h1 + h2);
  }
}

/// ℓ copies of the Rényi gadget under f_{∞,RDP,α} with one exceptional copy (HSV T13.5): the
/// sparsity budget is a single entry (the parameters only drive the sparsity condition).
Game gadget_copies(const Rational& p, const Rational& qq, unsigned copies) {
  const LaunchParameters par{q(1), q(0), std::nullopt};
  return parallel_composition({MenuEntry{"G", library::renyi_gadget(p, qq), par}}, {par}, false, launch_options(copies, 2 * copies + 1));
}

void check_t135(CheckContext& ctx) {
  // H9: α = 2, q = 3/4 (E_q = 7/3), p = 3/8: each copy is (2, ln(3/2))-RDP (sup Φ₂ = 3/2); ℓ copies
  // reach 1 + (E_q − 1)(1 − (1−p)^ℓ) = 3/2, 29/16, 257/128 — above e^{ε′} = 2 for ε′ = ln 2 at ℓ = 3.
  const unsigned lmax = std::min(3u, ctx.budget().horizon_cap());
  auto closed = [](unsigned alpha, const Rational& p, const Rational& qq, unsigned l) -> Rational {
    return 1 + (library::renyi_gadget_moment(alpha, qq) - 1) * (1 - pow(1 - p, l));
  };
  ExtendedRational last = 1;
  for (unsigned l = 1; l <= lmax; ++l) {
    const auto m = worst_case_renyi_moment(gadget_copies(q(3, 8), q(3, 4), l), 2);
    const Rational expected = closed(2, q(3, 8), q(3, 4), l);
    ctx.instance("H9: " + std::to_string(l) + (l == 1 ? " copy" : " copies (one exceptional)") + ", sup Φ₂ (closed form " + str(expected) + ")",
                 to_string(m.max()), m.forward == ExtendedRational(expected) && m.backward == ExtendedRational(expected), 2 * l + 1);
    last = m.max();
  }
  if (lmax >= 3)
    ctx.instance("H9, 3 copies: not (2, ln 2)-RDP although each copy is (2, ln(3/2))-RDP (engine moment > e^{ln 2} = 2)",
                 to_string(last), ExtendedRational(q(2)) < last, 7);
  // The corrected recipe at α = 3: λ = e^ε = 3/2, q = 3/4 (E_q = 61/9 > e^{2ε′} for ε′ < ln(61/9)/2),
  // p from library::renyi_gadget_p; the engine's moments match the closed form.
  {
    const Rational p3 = library::renyi_gadget_p(3, q(3, 2), q(3, 4));
    for (unsigned l = 1; l <= std::min(2u, lmax); ++l) {
      const auto m = worst_case_renyi_moment(gadget_copies(p3, q(3, 4), l), 3);
      const Rational expected = closed(3, p3, q(3, 4), l);
      ctx.instance("α = 3, q = 3/4, p = " + str(p3) + ": " + std::to_string(l) + (l == 1 ? " copy" : " copies") + ", sup Φ₃ (closed form " + str(expected) + ")",
                   to_string(m.max()), m.max() == ExtendedRational(expected) && (l > 1 || expected == q(9, 4)), 2 * l + 1);
    }
  }
  // The printed parameters fail (certified): the composition's moment never exceeds E_q (the limit
  // ℓ → ∞), and with q = 1 − (3/4)·2^{−2−ε′(α−1)/α}, D_α of the limit is below ε′.
  {
    // α = 2, ε′ = 10: q = 1 − 3/512 = 509/512 exactly.
    const Rational q2 = q(509, 512), e2 = library::renyi_gadget_moment(2, q2);
    const Decision below = decide_exp(q(10), Relation::greater, e2);
    const Interval d2 = log(Interval(e2, 128));
    ctx.instance("printed q at α = 2, ε′ = 10: q = 509/512, D₂ of the limit = ln E_q (must exceed 10)", d2.to_string(6) + " < 10",
                 below.outcome == Tri::yes, 0);
    // and the engine on two copies with the printed p (ε = 1): p = 6^{−2}·2^{−10} = 1/36864
    const auto m = worst_case_renyi_moment(gadget_copies(q(1, 36864), q2, 2), 2);
    const bool ok = m.max().is_finite() && m.max().value() < e2 && decide_exp(q(10), Relation::greater, m.max().value()).outcome == Tri::yes;
    ctx.instance("printed p = 1/36864, q = 509/512, 2 copies: sup Φ₂ < E_q < e^{10}", to_string(m.max()), ok, 5);
  }
  {
    // α = 3, ε′ = 5: q = 1 − (3/4)·2^{−2−10/3} is irrational; E_q = q³/(1−q)² + (1−q)³/q² enclosed.
    auto eq = [](Precision prec) -> Interval {
      const Interval two(q(2), prec);
      const Interval qq = Interval(q(1), prec) - Interval(q(3, 4), prec) * pow(two, Interval(q(-16, 3), prec));
      const Interval r = Interval(q(1), prec) - qq;
      return pow(qq, 3) / pow(r, 2) + pow(r, 3) / pow(qq, 2);
    };
    const Decision below = decide_less(eq, [](Precision prec) { return exp(Interval(q(10), prec)); });
    const Interval d3 = log(eq(128)) / Interval(q(2), 128);
    ctx.instance("printed q at α = 3, ε′ = 5: D₃ of the limit = ln(E_q)/2 (must exceed 5)", d3.to_string(6) + " < 5", below.outcome == Tri::yes, 0);
  }
  // Random (corrected recipe): α = 2, a rational q ∈ (1/2, 1), λ = e^ε with p = (λ − 1)/(E_q − 1) < 1/2;
  // each copy has moment λ exactly and the copies follow the closed form.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const Rational qq = q(ctx.rng().range(6, 9), 10);
    const Rational eq = library::renyi_gadget_moment(2, qq);
    const Rational lam = 1 + (eq - 1) * q(ctx.rng().range(1, 4), 10);
    const Rational p = library::renyi_gadget_p(2, lam, qq);
    const unsigned l = static_cast<unsigned>(ctx.rng().range(1, std::min(2u, lmax)));
    const auto m = worst_case_renyi_moment(gadget_copies(p, qq, l), 2);
    const Rational expected = closed(2, p, qq, l);
    ctx.random_instance(m.max() == ExtendedRational(expected) && (l > 1 || expected == lam),
                        "q = " + str(qq) + ", p = " + str(p) + ", " + std::to_string(l) + " copies: Φ₂ = " + to_string(m.max()) + ", closed form " + str(expected),
                        2 * l + 1);
  }
}

/// k-sparse FPC parallel composition in moment form: the sparsity parameters carry each entry's
/// moment in the λ slot (they only drive the sub-multiset test).
Game rdp_parallel(const std::vector<std::pair<Game, Rational>>& menu, const std::vector<Rational>& budget, std::size_t copies, unsigned horizon) {
  std::vector<MenuEntry> m;
  for (std::size_t j = 0; j < menu.size(); ++j) m.push_back(entry("E" + std::to_string(j), menu[j].first, menu[j].second, 0, menu[j].second));
  std::vector<LaunchParameters> sp;
  for (const auto& b : budget) sp.push_back({b, 0, b});
  return parallel_composition(m, sp, true, launch_options(copies, horizon));
}

void check_t136(CheckContext& ctx) {
  // IM-form Rényi gadgets (secret first, FPC): one copy has Φ₂ = 3/2; ℓ copies with k = 1 stay at
  // 3/2 (no T13.5 attack: the secret is fixed before ⊥ is seen), with k = 2 reach (3/2)² = 9/4.
  const Game g = renyi_gadget_im(q(3, 8), q(3, 4));
  expect_equal(ctx, "IM Rényi gadget (p = 3/8, q = 3/4), sup Φ₂", worst_case_renyi_moment(g, 2).max().value(), q(3, 2), 3);
  const unsigned cap = ctx.budget().horizon_cap();
  for (unsigned l = 1; l <= std::min(3u, std::max(2u, cap - 1)); ++l) {
    const auto m = worst_case_renyi_moment(rdp_parallel({{g, q(3, 2)}}, {q(3, 2)}, l, 4 * l), 2);
    expect_equal(ctx, std::to_string(l) + " IM gadgets, FPC, k = 1: sup Φ₂ (budget 3/2)", m.max().value(), q(3, 2), 4 * l);
  }
  {
    const unsigned l = std::min(3u, std::max(2u, cap - 1));
    const auto m = worst_case_renyi_moment(rdp_parallel({{g, q(3, 2)}}, {q(3, 2), q(3, 2)}, l, 4 * l), 2);
    expect_equal(ctx, std::to_string(l) + " IM gadgets, FPC, k = 2: sup Φ₂ (budget 9/4)", m.max().value(), q(9, 4), 4 * l);
  }
  // Random pure IMs with their exact moments, two copies, k = 1: sup Φ_α ≤ the budget moment.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned alpha = static_cast<unsigned>(ctx.rng().range(2, 3));
    Game c = random_im_cm(ctx.rng(), 1, true);
    const Rational mom = worst_case_renyi_moment(c, alpha).max().value();
    const auto m = worst_case_renyi_moment(rdp_parallel({{c, mom}}, {mom}, 2, 6), alpha);
    ctx.random_instance(m.max() <= ExtendedRational(mom), "two copies of " + c.name + ", α = " + std::to_string(alpha) + ": " +
                                                              to_string(m.max()) + " > budget " + str(mom),
                        6);
  }
}

void check_c137(CheckContext& ctx) {
  // (1) k-sparse parallel composition of IMs in RDP: RR₂ and RR₃ in IM form (moments 3/2, 7/3),
  // k = 2: sup Φ₂ = 7/2 = 3/2 · 7/3 (tight).
  {
    const auto m = worst_case_renyi_moment(rdp_parallel({{rr_im_cm(q(2), 0), q(3, 2)}, {rr_im_cm(q(3), 0), q(7, 3)}}, {q(3, 2), q(7, 3)}, 2, 6), 2);
    expect_equal(ctx, "RR₂, RR₃ (IM forms), 2 instances, k = 2: sup Φ₂ (budget 7/2)", m.max().value(), q(7, 2), 6);
  }
  // (2) Filt_{RDP,2,ε} filter of CMs: RR₂, RR₃ (CM), the Rényi gadget (Φ₂ 3/2), budget B = 7/2.
  {
    std::vector<MenuEntry> menu{entry("RR2", rr_cm(q(2), 0), q(2), 0, q(3, 2)), entry("RR3", rr_cm(q(3), 0), q(3), 0, q(7, 3)),
                                entry("G", library::renyi_gadget(q(3, 8), q(3, 4)), q(1), 0, q(3, 2))};
    const unsigned h = std::min(5u, 2 + std::max(2u, ctx.budget().horizon_cap()));  // two creations and their messages
    const auto m = worst_case_renyi_moment(filter_composition(menu, renyi_moment_rule(q(7, 2)), launch_options(2, h)), 2);
    expect_equal(ctx, "Rényi filter B = 7/2 over {RR₂, RR₃, gadget} (≤ 2 creations): sup Φ₂", m.max().value(), q(7, 2), h);
  }
  // Random: filters of two random pure CMs with their exact moments and a random budget B.
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    std::vector<MenuEntry> menu;
    Rational top = 1;
    for (int j = 0; j < 2; ++j) {
      Game c = random_cm(ctx.rng(), 1, true);
      const Rational mom = worst_case_renyi_moment(c, 2).max().value();
      top = std::max(top, mom);
      menu.push_back(entry("C" + std::to_string(j), std::move(c), q(1), 0, mom));
    }
    const Rational budget = top * q(ctx.rng().range(10, 25), 10);
    const auto m = worst_case_renyi_moment(filter_composition(menu, renyi_moment_rule(budget), launch_options(2, 4)), 2);
    ctx.random_instance(m.max() <= ExtendedRational(budget), "Rényi filter budget " + str(budget) + ": sup Φ₂ = " + to_string(m.max()), 4);
  }
}

// ------------------------------------------------------------------ HSV C14.7: f-DP

void check_c147(CheckContext& ctx) {
  // The f-DP composition bound f = f₁ ⊗ f₂ of the components' envelopes (both orders); the engine's
  // envelope of the concurrent composition must dominate it (X-DUALITY-CHECK: exact comparison at
  // the vertices of both curves).
  auto run = [&](const Game& a, const Game& b) -> std::pair<bool, std::string> {
    const auto ea = tradeoff_envelope(worst_case_profile(a).profile), eb = tradeoff_envelope(worst_case_profile(b).profile);
    const auto ec = tradeoff_envelope(worst_case_profile(concurrent({a, b})).profile);
    const TradeOff f01 = tensor(ea.world0_vs_world1, eb.world0_vs_world1), f10 = tensor(ea.world1_vs_world0, eb.world1_vs_world0);
    const bool ok = ec.world0_vs_world1.dominates(f01) && ec.world1_vs_world0.dominates(f10);
    std::string v;
    for (const auto& x : ec.world0_vs_world1.vertices()) v += "(" + str(x.alpha) + ", " + str(x.beta) + ") ";
    return {ok, v};
  };
  // H16: Comp(RR₂ × 2): vertices (0,1), (1/9,5/9), (5/9,1/9), (1,0) = f_{RR₂} ⊗ f_{RR₂} (tight).
  {
    const Game rr2 = library::randomized_response(q(2));
    const auto [ok, v] = run(rr2, rr2);
    const auto ec = tradeoff_envelope(worst_case_profile(concurrent({rr2, rr2})).profile).world0_vs_world1;
    const TradeOff h16 = TradeOff::from_vertices({{q(0), q(1)}, {q(1, 9), q(5, 9)}, {q(5, 9), q(1, 9)}, {q(1), q(0)}});
    ctx.instance("H16: RR₂ ∥ RR₂, envelope = f ⊗ f with vertices (0,1), (1/9,5/9), (5/9,1/9), (1,0)", v, ok && ec == h16, 2);
  }
  {
    const auto [ok, v] = run(mp_game(), mp_game());
    ctx.instance("C1: MP ∥ MP (E.7), envelope ≥ f_MP ⊗ f_MP", v, ok, 4);
  }
  {
    const auto [ok, v] = run(mirror_cm(q(1, 2)), library::m_delta(q(1, 10)));
    ctx.instance("Mir_{1/2} (CM) ∥ M_{1/10}, envelope ≥ tensor of the envelopes", v, ok, 4);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const unsigned h1 = static_cast<unsigned>(ctx.rng().range(1, 2));
    const Game a = random_cm(ctx.rng(), h1, false), b = ctx.rng().coin() ? random_cm(ctx.rng(), 1, false) : random_table_game(ctx.rng(), 3, 1);
    const auto [ok, v] = run(a, b);
    ctx.random_instance(ok, a.name + " ∥ " + b.name + ": envelope " + v + "below the tensor bound", h1 + 1);
  }
}

void check_l56(CheckContext& ctx) { mirror_evidence(ctx, library::mirror(q(1, 2)), "Mir_{1/2}"); }

void check_l511(CheckContext& ctx) {
  // H3 (E.3): Comp(RR_{ln 2,1/10}, RR_{0,1/5}) at λ = 2 is 7/25 = 1 − (9/10)(4/5) < 3/10.
  const PrivacyLoss h3 = compose(rr_loss(q(2), q(1, 10)), rr_loss(q(1), q(1, 5)));
  expect_equal(ctx, "H3: H₂ of RR_{ln 2,1/10} ⊗ RR_{0,1/5}", sym_hs(h3, q(2)), q(7, 25), 2);
  // The RR game itself (f_{∞,δ′,RR}^{ε₁..ε_k}, HSV D5.10) on the engine: RR's created adaptively
  // as CMs taking one bit pair, positive λ's from the multiset, product budget δ′ over all created.
  // Budget {ln 2}, δ′ = 1/5, menu {RR₂, RR_{0,1/5}, RR_{0,1/10}}, ≤ 3 creations: the bound
  // 1 − (1 − δ_RR(λ))(4/5) = 7/15, 1/3, 1/5 at λ = 1, 3/2, 2 is attained (RR₂ and RR_{0,1/5}).
  {
    unsigned h = 0;
    const unsigned k = std::min(3u, std::max(2u, ctx.budget().horizon_cap() - 1));  // 2 at the small budget
    const auto [bad, tight] = rr_game_outcome({q(2)}, {q(1, 5), q(1, 10)}, q(1, 5), k, {q(1), q(3, 2), q(2), q(4)}, h);
    ctx.instance("RR game: multiset {ln 2}, δ′ = 1/5, menu {RR₂, RR_{0,1/5}, RR_{0,1/10}}, ≤ " + std::to_string(k) +
                     " creations: engine ≤ 1 − (1−δ_RR)(1−δ′) on [1, ∞), equal at λ = 1, 3/2, 2, 4",
                 bad.empty() ? (tight ? "holds, attained" : "holds, not attained") : bad, bad.empty() && tight, h);
  }
  for (unsigned n = 0; n < ctx.budget().random_count(); ++n) {
    const long d = ctx.rng().range(1, 6);
    const Rational lambda = q(d + ctx.rng().range(0, 4 * d), d);
    const Rational delta = q(ctx.rng().range(0, 10), 10), dp = q(ctx.rng().range(0, 10), 10);
    const PrivacyLoss l = compose(rr_loss(lambda, delta), rr_loss(q(1), dp));
    const Rational at = lambda + q(ctx.rng().range(0, 8), 2);  // any λ′ ≥ e^ε
    const Rational expected = 1 - (1 - delta) * (1 - dp);
    ctx.random_instance(sym_hs(l, at) == expected, "RR(" + str(lambda) + ", " + str(delta) + ") ⊗ RR(1, " + str(dp) + ") at λ′ = " +
                                                       str(at) + ": H = " + str(sym_hs(l, at)) + ", expected " + str(expected),
                        2);
    // a random RR game: one or two positive λ's, one or two leak δ's, ≤ 2 creations
    std::vector<Rational> lambdas{std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))]};
    if (ctx.rng().coin()) lambdas.push_back(std::vector<Rational>{q(3, 2), q(2), q(3)}[std::size_t(ctx.rng().range(0, 2))]);
    std::vector<Rational> leaks{q(ctx.rng().range(1, 3), 10)};
    if (ctx.rng().coin()) leaks.push_back(q(ctx.rng().range(1, 3), 20));
    if (leaks.size() == 2 && leaks[0] == leaks[1]) leaks.pop_back();
    const Rational dprime = q(ctx.rng().range(1, 4), 10);
    unsigned h = 0;
    const auto [bad, tight] = rr_game_outcome(lambdas, leaks, dprime, 2, {}, h);
    std::string ls;
    for (const auto& x : lambdas) ls += (ls.empty() ? "" : ", ") + str(x);
    ctx.random_instance(bad.empty(), "RR game, multiset {" + ls + "}, δ′ = " + str(dprime) + ": " + bad, h);
  }
}

}  // namespace

void families::hsv(std::vector<Theorem>& out) {
  const std::string src = "proofs_checks/hsv.cpp";
  out.push_back({"HSV-L2.4", "RR_{ε,δ} is (ε,δ)-DP", "HSV Lemma 2.4; KOV15", Kind::positive, Status::as_stated,
                 "H_λ(RR_{ε,δ}(0)‖RR_{ε,δ}(1)) = δ at λ = e^ε in both directions; its trade-off function is f_{ε,δ}.", "",
                 "Exact, both directions; the closed form H_t(RR_u) of E.1 against the engine on the RR game.",
                 "H1 (E.1); RR_u for u = 2, 3, 4; random (λ, δ).", "",
                 {"exactdp::randomized_response()", "exactdp::hockey_stick()", "exactdp::TradeOff::epsilon_delta()",
                  "exactdp::worst_case_hockey_stick()"},
                 src, check_l24, ""});
  out.push_back({"HSV-L2.16", "post-processing lemma for IMs", "HSV Lemma 2.16 (from HSTVVXZ23 T2.17)", Kind::positive, Status::as_stated,
                 "For any IM M and IPM P with a single initial state: if the views against M(s₀), M(s₁) are (ε,δ)-indistinguishable "
                 "for every adversary, so are the views against P∘*M(s₀), P∘*M(s₁).",
                 "Finite horizon: P may consult M several times per left message, so T rounds of P∘*M are compared with cT rounds "
                 "of M, c the most calls P makes per left message (here c = 2).",
                 "The engine's exact worst-case profiles (both directions, compared at the union of their breakpoints, i.e. at every "
                 "λ ≥ 1) and Rényi moments Φ₂ of P∘*M (compose/postprocess.hpp, HSV Algorithm 1) against those of M; F3's AND "
                 "attains M's value, XOR erases it.",
                 "F3 (E.9); H17: random 3-state mechanisms and random two-call post-processors with one bit of memory.", "",
                 {"exactdp::postprocess()", "exactdp::post_processor_from_table()", "exactdp::worst_case_profile()",
                  "exactdp::worst_case_renyi_moment()"},
                 src, check_l216, ""});
  out.push_back({"HSV-O8.9", "monotonicity in the verification function", "HSV Observation 8.9", Kind::positive,
                 Status::as_stated, "If every f₁-valid sequence is f₂-valid, DP w.r.t. f₂ implies DP w.r.t. f₁.", "",
                 "Random continual mechanisms (one initial state) under a pair verifier f₂ (all bit pairs, ≤ k differing) "
                 "and a random restriction f₁ (fewer pairs, smaller k): the engine's value under f₁ ≤ under f₂ on the λ "
                 "grid, per direction.",
                 "Random CMs (E.11).", "", {"exactdp::PairsVerifier", "exactdp::worst_case_hockey_stick()"}, src, check_o89, ""});
  out.push_back({"HSV-L4.7", "simulation of a CM by randomized response", "HSV Lemma 4.7 (+ Remark 4.8)", Kind::reduction,
                 Status::as_stated,
                 "For an (ε,δ)-DP CM with discrete answers there is an IPM T with one initial state such that "
                 "T∘*RR_{ε,δ}(b) ≡ V[f]∘*I(b)∘*M, b = 0, 1; T consults RR at most once.",
                 "", "The exact multi-step LP of B.10 on the two-world system (feasibility = existence of a simulator of "
                 "this form); the simulator is verified exactly on every history (likelihood tables).",
                 "Mir_{1/2} at (ln 2, 1/4), M_{1/10} at (0, 1/10), MA at (ln 4, 1/15).", "",
                 {"exactdp::likelihood_tree()", "exactdp::lp_simulator()", "exactdp::verify_simulator()"}, src, check_l47, ""});
  out.push_back({"HSV-T4.10", "concurrent composition of CMs (fixed mechanisms)", "HSV Thm 4.10 (= Thm 1.2)", Kind::positive,
                 Status::as_stated,
                 "If Comp(RR_{ε₁,δ₁},…,RR_{ε_k,δ_k}) is (ε,δ)-DP, the concurrent composition of (ε_i,δ_i)-DP CMs (fixed in "
                 "advance, f^{α₁..α_k}) is (ε,δ)-DP against adaptive adversaries.",
                 "ε_i = 0 enters the bound as λ_i = 1 (the limit ε_i → 0⁺). Each component keeps its own relation and horizon.",
                 "The engine plays every interleaving of the components (compose/concurrent.hpp); its exact profile is compared "
                 "with δ_opt(λ) of B.11 at every λ ≥ 1 (grid, breakpoints of both curves). Equality is expected on tight "
                 "instances.",
                 "H8 (Mir_{1/2} ∥ M_{1/10}, tight at λ = 1, 2, 4); H2 (E.3, engine = δ_opt at every breakpoint); random pairs "
                 "of components (random CMs, random IMs, MP, MA) with λ_i ∈ {3/2, 2, 3} and δ_i their exact value.",
                 "", {"exactdp::concurrent()", "exactdp::optimal_composition_delta()", "exactdp::worst_case_profile()"}, src, check_t410, ""});
  out.push_back({"HSV-T4.12", "fixed parameters, adaptively chosen mechanisms", "HSV Thm 4.12", Kind::positive, Status::as_stated,
                 "The conclusion of T4.10 for f^{ε₁,δ₁,…,ε_k,δ_k}: mechanisms (and their relations) are created adaptively from a "
                 "registry, the multiset of parameters is fixed.",
                 "The registry is the menu of a launch composition; the multiset condition is a creation-time rule.",
                 "filter_composition with the rule \"created parameters ⊆ the multiset\"; the engine's profile ≤ δ_opt of the "
                 "multiset at every λ ≥ 1.",
                 "Menu {Mir_{1/2}, RR_{ln 2,1/4}, M_{1/10}, RR_{0,1/10}} with multiset {(ln 2, 1/4), (0⁺, 1/10)} (tight at λ = 1, "
                 "2, 4); random menus of three one-message CMs.",
                 "", {"exactdp::filter_composition()", "exactdp::optimal_composition_delta()"}, src, check_t412, ""});
  out.push_back({"HSV-T5.2", "concurrent parallel composition fails for approximate DP", "HSV Thm 5.2 (= Thm 1.4; f_∞^{0,δ} meant)",
                 Kind::negative, Status::corrected,
                 "The 1-sparse parallel composition of ℓ copies of the (0,δ)-DP CM M_δ is not (ε, δ″)-DP for any ε and any "
                 "δ″ < 1 − (1−δ)^ℓ.",
                 "The statement and proof write f^{0,δ}; f_∞^{0,δ} (HSV D5.1) is meant. Creations count as rounds, so the "
                 "paper's adversary uses 2ℓ + 1 rounds.",
                 "Engine on ℓ copies under parallel_composition (budget {(0, δ)}): both directional profiles equal 1 − (1−δ)^ℓ at "
                 "λ = 1 and beyond their last breakpoint, hence at every λ ≥ 1; a second route evaluates the paper's adversary "
                 "A_δ (create, query (0,0), on ⊥ send (0,1)) written as a decision tree.",
                 "H4, H5 (E.10); random δ and ℓ.",
                 "Each copy is (0,δ)-DP (H4) and only one copy may receive a non-identical pair, yet the composition leaks b with "
                 "probability 1 − (1−δ)^ℓ > δ: the adversary learns which copy reached ⊥ before choosing where to send the "
                 "differing pair.",
                 {"exactdp::library::m_delta()", "exactdp::parallel_composition()", "exactdp::view_distributions()"}, src, check_t52, ""});
  out.push_back(
      {"HSV-T5.4", "approximate parallel composition with a product budget", "HSV Thm 5.4 (= Thm 1.5)", Kind::positive, Status::claim,
       "Printed: if Comp(RR_{ε₁,0},…,RR_{ε_k,0}) is (ε,δ)-DP, the f_{∞,δ′}^{ε₁..ε_k}-concurrent composition of CMs is "
       "(ε, δ + δ′)-DP. Tighter form (Thm 1.5, L5.11): (ε, 1 − (1−δ)(1−δ′)).",
       "δ = δ_RR(λ) of B.11 for the multiset {ε_i}; the J-condition compares ε's only and the product budget ranges over all "
       "created instances (HSV D5.3; App. B's Σδ′_j read as 1 − Π(1−δ′_j) ≤ δ′).",
       "approximate_parallel_composition (compose/launch.hpp) on the engine; its exact profile is compared with both forms at "
       "every λ ≥ 1 (grid and breakpoints). A value above the tighter form is a finding; above the printed form refutes the theorem.",
       "H5: ℓ ≤ 3 copies of M_{1/10} declared with λ₁ = 2 and 101/100, δ′ = 1 − (9/10)^ℓ; copies of Mir_{1/2} as a CM with "
       "δ′ = 1 − (3/4)^ℓ; the mixture {Mir_{1/2}, M_{1/10}}; random CMs with δ_j > 0 beside M_{δ₀}, one exceptional copy; "
       "two copies of Mir_p (CM) for random p.",
       "Published text: Thm 5.4 as printed above, proved through C5.7 bullet 2 (one IRR call on identical-pair phases). "
       "Finding (THEOREMS.md C.8 E3): C5.7 bullet 2 is false (HSV-C5.7, HSV-L5.6), so for δ′ > 0 the theorem is unproven. "
       "Evidence exactdp produces: on every instance above, at every λ ≥ 1, the exact worst case over adaptive adversaries "
       "stays below the tighter form 1 − (1−δ_RR(λ))(1−δ′) — and therefore below the printed δ_RR(λ) + δ′ — and meets it "
       "with equality on H5 (λ ≥ λ₁) and on Mir_{1/2} (a single copy attains 1/2, 3/8, 1/4 at λ = 1, 3/2, 2). Two copies of "
       "Mir_{1/2} with one exceptional reach 3/8 > 1/4 at λ = 2 — the adversary makes exceptional a copy whose identical "
       "first step answered a1, the mechanism behind the failure of C5.7(2) — and the product budget pays for it: "
       "3/8 ≤ 7/16 = δ′. No counterexample is known. Statement as checked (corrected, still a claim): the f_{∞,δ′}^{ε₁..ε_k}-concurrent "
       "composition is (ε, 1 − (1−δ)(1−δ′))-DP, which is tight; the run holds on all its instances up to the horizon "
       "stated under Outcomes, which is evidence, not a proof.",
       {"exactdp::approximate_parallel_composition()", "exactdp::optimal_composition_delta()", "exactdp::worst_case_profile()"}, src,
       check_t54, ""});
  out.push_back({"HSV-C5.5", "pure parallel composition", "HSV Cor 5.5 (= Cor 1.7)", Kind::positive, Status::as_stated,
                 "The concurrent k-sparse parallel composition (f_{∞,0}^{ε₁..ε_k}) of pure-DP CMs is (ε,δ)-DP if Comp(RR_{ε_i,0}) is.",
                 "Only the ε_i matter (the printed (ε_i,δ_i) carry δ_i = 0). Declared λ's are the components' exact worst ratios "
                 "at the horizon they can reach inside the composition.",
                 "parallel_composition with budget {(λ_i, 0)}; the engine's profile ≤ δ_RR(λ) at every λ ≥ 1.",
                 "RR₂ as a CM (ℓ copies, k = 1 and 2: tight, E.3); H12's SVT counter (two copies, λ = 418/157); H13's tree "
                 "counter at T = 2 (λ = 4) beside RR₂; random pure CMs, k ∈ {1, 2}.",
                 "", {"exactdp::parallel_composition()", "exactdp::library::svt_counter()", "exactdp::library::binary_tree_counter()",
                      "exactdp::worst_case_ratio()"},
                 src, check_c55, ""});
  out.push_back({"HSV-L5.6", "simulation of an IM by IRR (bullet 2 false)", "HSV Lemma 5.6 (\"Lemma 0\" of §10)",
                 Kind::negative, Status::claim,
                 "For an (ε,δ)-DP IM there is an IPM P with (1) M(s_b) ≡ P∘*IRR_{ε,δ}(b) and (2) P interacts with IRR only "
                 "once on query sequences whose answer laws agree in both worlds. Bullet 1 holds; bullet 2 is false: Mir_p.",
                 "Mir_p (D.13) is (ln(1/(1−p)), p/2)-DP, but any simulator obeying (2) needs δ ≥ p (THEOREMS.md C.5.3).",
                 "Engine: Mir_{1/2} has sup H_λ = 1/2, 3/8, 1/4, 1/4 at λ = 1, 3/2, 2, 3, so it is (ln 2, 1/4)-DP; the exact "
                 "LP of B.10 (cddlib, GMP) without (S3) is feasible and its simulator verifies exactly; with (S3) it is "
                 "infeasible with a checked Farkas certificate at δ = 1/4, 2/5, 49/100 < p.",
                 "H7.", "This is erratum E1 of THEOREMS.md C.8.",
                 {"exactdp::library::mirror()", "exactdp::lp_simulator()", "exactdp::verify_simulator()",
                  "exactdp::worst_case_hockey_stick()"},
                 src, check_l56, ""});
  out.push_back({"HSV-C5.7", "CM version of L5.6 (bullet 2 false)", "HSV Cor 5.7 (= Prop 1.6)", Kind::negative, Status::claim,
                 "For an (ε,δ)-DP CM there is T with V[f]∘I(b)∘M ≡ T∘*IRR_{ε,δ}(b) and (2) T interacts with IRR at most once on "
                 "sequences of identical pairs. Bullet 1 holds; bullet 2 is false: Mir_p as a CM.",
                 "Mir_p as a CM (D.13): message 1 is a query, message 2 a pair of bits, identical or (0, 1); the only "
                 "non-identical pair is (0, 1) at the second message.",
                 "As HSV-L5.6 on the CM form: the engine's profile (H7 values), the B.10 LP without (S3) feasible with a verified "
                 "simulator, with (S3) — tying φ and ψ at every history reached through identical-law steps, here the identical "
                 "pairs — infeasible (Farkas-certified) at δ = 1/4, 2/5, 49/100 < p.",
                 "H7 (E.10) on the CM form of Mir_{1/2}.",
                 "Published text: Cor 5.7 as above (the CM version of Lemma 5.6). Finding (THEOREMS.md C.8 E1): bullet 2 is false. "
                 "Evidence: Mir_{1/2} as a CM is (ln 2, 1/4)-DP (engine), a simulator of the form of bullet 1 exists and verifies "
                 "exactly, and no simulator with one IRR interaction on identical pairs exists for any δ < p = 1/2 (exact LP "
                 "infeasible with a checked certificate). Corrected statement: bullet 1 only (it is HSV L4.7); bullet 2 holds for "
                 "δ = 0 (HSV C5.5 is unaffected) but not in general.",
                 {"exactdp::lp_simulator()", "exactdp::identical_law_nodes()", "exactdp::verify_simulator()"}, src, check_c57, ""});
  out.push_back({"HSV-L5.9", "product filter of RR_{0,δ}", "HSV Lemma 5.9", Kind::positive, Status::as_stated,
                 "The f_RR^δ-concurrent composition of adaptively created RR_{0,δ_j} (each taking one bit pair) with "
                 "1 − Π(1 − δ_j) ≤ δ is (0,δ)-DP.",
                 "The product budget is a creation rule (product_delta_rule with λ-budget 1).",
                 "Engine TV (= sup H₁) of filter_composition against an independent value: the best admissible fixed creation "
                 "sequence, max 1 − Π(1 − δ_j) (the budget sees parameters only, so adaptivity cannot beat it); both ≤ δ.",
                 "H10 (E.10; at most 3 creations at the small budget, 4 otherwise); random menus and budgets.", "",
                 {"exactdp::filter_composition()", "exactdp::product_delta_rule()"}, src, check_l59, ""});
  out.push_back({"HSV-L5.11", "the RR game behind T5.4", "HSV Lemma 5.11; MV16 Thm 1.5", Kind::positive, Status::corrected,
                 "If Comp(RR_{ε_i,0}) is (ε,δ)-DP, the f_{∞,δ′,RR}^{ε₁..ε_k}-concurrent composition is (ε, 1 − (1−δ)(1−δ′))-DP; "
                 "it rests on the exact identity H_λ(RR_{ε,δ}⊗RR_{0,δ′}) = 1 − (1−δ)(1−δ′) for λ ≥ e^ε.",
                 "The printed proof alternates between δ + δ′ and the product form; the product form is normative.",
                 "The exact identity on random (λ, δ, δ′) at random λ′ ≥ λ, both directions; H3. The RR game itself on the engine: "
                 "RR_{ε_j,0} and RR_{0,δ_j} created adaptively as CMs (one bit pair each) under the rule of D5.10; its profile "
                 "≤ 1 − (1−δ_RR(λ))(1−δ′) at every λ ≥ 1, attained on the named instance.",
                 "H3 (E.3); the RR game with multiset {ln 2}, δ′ = 1/5; random RR games.", "",
                 {"exactdp::compose()", "exactdp::hockey_stick()", "exactdp::filter_composition()"}, src, check_l511, ""});
  out.push_back({"HSV-T5.14", "parallel composition with first-pair consistency", "HSV Thm 5.14", Kind::positive, Status::as_stated,
                 "With FPC (f_{∞,FPC}^{ε₁,δ₁,…}), the concurrent parallel composition is (ε,δ)-DP whenever Comp(RR_{ε_i,δ_i}) is.",
                 "", "parallel_composition with first_pair_consistent; the engine's profile against δ_opt at every λ ≥ 1.",
                 "H6 (ℓ ≤ 3 copies of the IM form of M_{1/10}: 1/10 at every λ); T5.2's copies under FPC (0); random IMs "
                 "(secret first) with their exact (λ_j, δ_j), two copies, k = 1.",
                 "", {"exactdp::parallel_composition()", "exactdp::library::m_delta_interactive()"}, src, check_t514, ""});
  out.push_back({"HSV-C5.15", "concurrent k-sparse parallel composition of IMs", "HSV Cor 5.15 (= Thm 1.3)", Kind::positive,
                 Status::as_stated, "Adaptively created IMs with at most k non-identical pairs of initial states compose like "
                 "Comp(RR_{ε_i,δ_i}).",
                 "IMs are written as CMs whose first message is the pair of initial states (A.3).",
                 "As HSV-T5.14 with k = 2.",
                 "RR₂ in IM form, ℓ copies, k = 2 (= Comp(RR₂ × 2), the H14 values 1/3, 2/9, 0); {M_{1/10}, RR₂} in IM form "
                 "(tight); random pairs of IMs.",
                 "", {"exactdp::parallel_composition()"}, src, check_c515, ""});
  out.push_back({"HSV-L7.4", "SVT is private", "HSV Lemma 7.4 (HSS23)", Kind::positive, Status::as_stated,
                 "SVT_{ε′} (threshold noise scale 1/ε′, query noise scale 2/ε′) is 2ε′-DP; the discrete version "
                 "satisfies the same.",
                 "Discrete Laplace noise, exact event probabilities (B.13); e^{ε′} = 4, claim λ = 16.",
                 "The engine's worst likelihood ratio over adaptive adversaries (bits and thresholds) on the SVT counter "
                 "equals the E.10 values and is ≤ 16.",
                 "H12 (T = 1, 2, 3).", "", {"exactdp::library::svt_counter()", "exactdp::worst_case_ratio()"}, src, check_l74, ""});
  out.push_back({"HSV-C3.8", "CM privacy as IM privacy", "HSV Cor 3.8", Kind::note, Status::as_stated,
                 "A CM M is (ε,δ)-DP w.r.t. f iff the IM V[f]∘*I∘*M with the two initial states (·,0,·), (·,1,·) is (ε,δ)-DP "
                 "w.r.t. ∼₀₁.",
                 "Definitional; checked as a consistency of the two encodings.",
                 "The IM is built explicitly (its messages are all pairs \"m₀|m₁\"; a pair f does not allow halts it, as V[f] "
                 "does); its exact profile (both directions, as piecewise-linear functions) and Φ₂ must equal those of the "
                 "two-world game.",
                 "M_{1/10}, Mir_{1/2} (CM), RR_{ln 2,1/10} (IM form); random CMs.", "",
                 {"exactdp::LambdaMechanism", "exactdp::worst_case_profile()"}, src, check_c38, ""});
  out.push_back({"HSV-L10.13", "Lower and L are non-decreasing in T", "HSV Lemmas 10.13, 10.14", Kind::positive,
                 Status::as_stated, "Lower_{t,T}^b and L_{t,T}^b are non-decreasing in the horizon T.",
                 "Checked at the root (t = 0), where L_{0,T}^b is the engine's sup_A H_λ at horizon T; node-level "
                 "values need the tables of B.2, which the engine does not expose.",
                 "The engine's value at horizon T ≤ at T + 1, per direction, at every λ of the grid.", "Random games.", "",
                 {"exactdp::worst_case_hockey_stick()"}, src, check_l1013, ""});
  out.push_back({"HSV-CL10.29", "feasibility of ξ_t and φ_t", "HSV Claims 10.29, 10.30", Kind::negative, Status::claim,
                 "The sets defining ξ_t and φ_t in §10.3 are non-empty — fails on Mir_{1/2} at (ln 2, 1/4).",
                 "§10.3 as restated in THEOREMS.md C.5.6: per node and query, answers in tree order, ξ_t the lexicographic maximum "
                 "of (ξ.1)–(ξ.4), φ_t the diagonal maximal point of (φ.1)–(φ.3) if one exists, else the lexicographic maximum; "
                 "L_t^b = the B.2 values of the likelihood tree, μ^b its likelihoods. (ξ.2) is printed with φ_{t−1}; eq. (2) and "
                 "the base case use δφ_{t−1}; both readings are run.",
                 "Each set is a two-variable polygon over ℚ; its lexicographic maximum is found exactly among the vertices (pairs of "
                 "tight constraints satisfying all others); an empty vertex set is an empty polygon.",
                 "Mir_{1/2} at (ln 2, 1/4) (H7) under both readings; Mir_p at (ln(1/(1−p)), p/2) for random p.",
                 "Published text: Claims 10.29/10.30 assert the sets defining ξ_t and φ_t are non-empty. Finding (THEOREMS.md C.8 "
                 "E2): with (ξ.2) as printed the construction gives ξ₁ = (1/4, 1/4) at a1 and a2 of Mir_{1/2} and then the set of "
                 "φ₁ at a1 is empty ((φ.1) needs x₀ ≥ ξ⁰/δ = 1, (φ.2) needs x₀ ≤ 1 − ξ⁰(a2)/δ = 0); the same happens for every "
                 "tested Mir_p. With δ in (ξ.2) exactdp finds every set non-empty on Mir_{1/2}, but ξ₁ = (1/4, 0) at a1 and "
                 "(0, 1/4) at a2: ξ⁰ ≠ ξ¹ on the identical-law first step, so the simulator already uses the RR bit there, "
                 "which is exactly what L10.32 denies (see HSV-L10.32). So on this instance the failure is of CL10.29/10.30 under the printed reading and of L10.32 under "
                 "the other: the catalogue's \"fails under either reading\" is reproduced for the printed reading only, and "
                 "on the further systems the check tries (MP, MA, R2, random two-step systems; see the note under Outcomes) the "
                 "printed reading empties a set on most of them, the δ reading on none. "
                 "Corrected statement: with (ξ.2) as printed the sets can be empty (Mir_{1/2} at (ln 2, 1/4)); with δφ_{t−1} in "
                 "(ξ.2) no empty set was found on the instances tried, but the construction then contradicts L10.32. Nothing "
                 "downstream depends on it here: exactdp builds simulators with B.9/B.10 (HSV L4.7 holds), and the §10.3 "
                 "construction is implemented only to document where it fails.",
                 {"exactdp::likelihood_tree()", "exactdp::tree_hockey_stick()", "exactdp::library::mirror()"}, src, check_cl1029, ""});
  out.push_back({"HSV-L10.32", "identical-prefix equalities of the simulation", "HSV Lemma 10.32, Claim 10.33", Kind::negative,
                 Status::claim, "Claimed: on identical-distribution prefixes ξ⁰ = ξ¹ = min{μ, L⁰ + L¹} and φ⁰ = φ¹.",
                 "μ, L as in HSV-CL10.29; (ξ.2) with δφ_{t−1} as in eq. (2).",
                 "On Mir_p's first step (identical answer laws, checked via identical_law_nodes and equal likelihoods) the claimed "
                 "values must satisfy (ξ.2): Σ_a ξ^b ≤ δφ₀ = δ. exactdp computes Σ_a min{μ₁(a), L₁⁰(a) + L₁¹(a)} exactly from the "
                 "likelihood tree and the B.2 values, and the engine's δ of Mir_p at λ = 1/(1−p).",
                 "Mir_{1/2}, Mir_{1/3}; random p.",
                 "Published text: Lemma 10.32 / Claim 10.33 as above, which give C5.7 bullet 2. Finding (THEOREMS.md C.8 E2): false. "
                 "Evidence: Mir_p is (ln(1/(1−p)), p/2)-DP (engine) and its first step has identical laws, yet Σ_a min{μ₁, L₁⁰+L₁¹} "
                 "= p/2 + p/2 = p > δφ₀ = p/2, so the claimed diagonal values violate (ξ.2); the construction itself gives "
                 "ξ₁(a1) = (1/4, 0) on Mir_{1/2}. Corrected statement: on identical-law prefixes ξ⁰ and ξ¹ need not be equal; "
                 "the simulator must in general consult the RR bit before the first differing pair (HSV L4.7 form), which is "
                 "why C5.7 bullet 2 fails.",
                 {"exactdp::tree_hockey_stick()", "exactdp::identical_law_nodes()", "exactdp::library::mirror()"}, src, check_l1032, ""});
  out.push_back({"HSV-S10.2.4", "the mixture identity of §10.2.4", "HSV §10.2.4", Kind::positive, Status::as_stated,
                 "δφ^b + (1−δ)(λψ^b + ψ^{1−b})/(1+λ) = μ^b with ψ^b = (λμ^b − δλφ^b − μ^{1−b} + δφ^{1−b})/((1−δ)(λ−1)).",
                 "λ > 1, δ < 1.", "Exact algebraic identity on random rationals, b = 0, 1.", "Random.", "", {}, src,
                 check_s1024, ""});
  out.push_back({"HSV-L11.4", "(0,δ)-indistinguishability is total variation", "HSV Lemma 11.4", Kind::positive,
                 Status::as_stated, "(0,δ)-indistinguishable ⟺ TV ≤ δ.", "",
                 "H₁ in both directions equals TV = ½Σ|P − Q| exactly on random pairs.", "Random pairs.", "",
                 {"exactdp::hockey_stick()"}, src, check_l114, ""});
  out.push_back({"HSV-L11.5", "prefix total variations", "HSV Lemma 11.5", Kind::positive, Status::as_stated,
                 "If every length-k prefix has TV ≤ δ then TV(V⁰,V¹) ≤ δ.", "",
                 "The engine's worst-case TV of the view prefix is non-decreasing in the horizon on random games.",
                 "Random games.", "", {"exactdp::worst_case_hockey_stick()"}, src, check_l115, ""});
  out.push_back({"HSV-L11.6", "maximal coupling", "HSV Lemma 11.6", Kind::reduction, Status::as_stated,
                 "There is a coupling with Pr[Z⁰ = Z¹] = Σ_y min(P₀(y), P₁(y)).", "",
                 "Construct the coupling (diagonal min, residual product off the diagonal) and verify both marginals and "
                 "the diagonal mass exactly.",
                 "Random pairs.", "", {}, src, check_l116, ""});
  out.push_back({"HSV-L11.7", "TV is at most the disagreement of any coupling", "HSV Lemma 11.7", Kind::positive,
                 Status::as_stated, "TV ≤ Pr[Z⁰ ≠ Z¹] for every coupling.", "",
                 "Random rational couplings: exact TV of the marginals ≤ the off-diagonal mass.", "Random couplings.", "",
                 {"exactdp::hockey_stick()"}, src, check_l117, ""});
  out.push_back({"HSV-L11.8", "sequential coupling", "HSV Lemma 11.8", Kind::positive, Status::as_stated,
                 "If the conditional TVs satisfy TV(Y_i⁰|y_{<i}, Y_i¹|y_{<i}) ≤ Δ_i(y_{<i}) and 1 − Π(1 − Δ_i) ≤ γ along every "
                 "path, then TV(Y⁰, Y¹) ≤ γ.",
                 "Δ_i is taken as the exact conditional TV, γ as the maximum over paths.",
                 "The sequential coupling of B.16 is built exactly (maximal coupling while the histories agree, independent after); "
                 "its marginals must equal both laws, Pr[Z⁰ = Z¹] ≥ 1 − γ, and the exact TV ≤ Pr[Z⁰ ≠ Z¹] ≤ γ.",
                 "H10's chain RR_{0,1/10}, RR_{0,1/5} (TV = γ = 7/25, tight); random laws of ≤ 3 steps over 2–3 symbols.", "",
                 {"exactdp::hockey_stick()"}, src, check_l118, ""});
  out.push_back({"HSV-T12.4", "concurrent filter composition of CMs", "HSV Thm 12.4 (= Thm 1.8)", Kind::positive, Status::as_stated,
                 "If the Filt-filter composition of RR mechanisms is (ε,δ)-DP, so is the concurrent Filt-filter composition of CMs.",
                 "", "(1) the engine on the RR filter game (RR's as CMs taking one bit pair) — H11's values and ≤ the budget; "
                 "(2) the same rule with CMs of the same declared parameters in place of the RR's: profile (2) ≤ (1) at every λ ≥ 1.",
                 "H11 (E.10); CMs {RR₂ (IM form), M_{1/10}, Mir_{1/5}}; random menus of two CMs under random basic or product-δ "
                 "filters.",
                 "", {"exactdp::filter_composition()", "exactdp::basic_approximate_rule()", "exactdp::product_delta_rule()"}, src,
                 check_t124, ""});
  out.push_back({"HSV-C13.4", "Rényi concurrent composition of CMs", "HSV Cor 13.4", Kind::positive, Status::as_stated,
                 "The α-RDP concurrent composition of CMs with parameters ε_i is (α, Σε_i)-RDP.", "Moment form: Π e^{(α−1)ε_i}.",
                 "Exact sup moments at integer α: the composition's equals the product of the components' (X-RENYI-PRODUCT), "
                 "per direction, hence within the budget.",
                 "H9 (two fixed Rényi gadgets: 9/4 = (3/2)², tight); random pairs of CMs, α ∈ {2, 3}.", "",
                 {"exactdp::concurrent()", "exactdp::worst_case_renyi_moment()", "exactdp::library::renyi_gadget()"}, src, check_c134, ""});
  out.push_back(
      {"HSV-T13.5", "Rényi parallel composition fails", "HSV Thm 13.5 (corrected parameters)", Kind::negative, Status::claim,
       "For 1 < α < ∞, ε > 0 and ε′ ≥ 0 the f_{∞,RDP,α}^{ε}-concurrent composition is not (α, ε′)-RDP.",
       "Corrected recipe (THEOREMS.md D.12): q ∈ (1/2, 1) rational with E_q > e^{(α−1)ε′}, p = min{1/2, (e^{(α−1)ε} − 1)/(E_q − 1)}; "
       "ℓ copies with one exceptional have Φ_α = 1 + (E_q − 1)(1 − (1−p)^ℓ) → E_q.",
       "Exact moments at integer α with the engine on ℓ copies under parallel_composition (one exceptional), against the closed "
       "form; the printed parameters' failure by certified evaluation (MPFI, escalating precision).",
       "H9 (α = 2, q = 3/4, p = 3/8: 3/2, 29/16, 257/128); α = 3 with q = 3/4 and the corrected p; printed q at (α, ε′) = "
       "(2, 10) and (3, 5); random (q, λ) with the corrected p.",
       "Published text: Thm 13.5 says that for every 1 < α < ∞, ε ≥ 0, ε′ ≥ 0 the composition is not (α, ε′)-DP, with p = "
       "min{1/2, ε(α−1)6^{−α}2^{−ε′(α−1)}} and q = 1 − (3/4)·2^{−2−ε′(α−1)/α}. Finding (THEOREMS.md C.8 E4): the proof weights "
       "E_{y∼V¹}[(P⁰/P¹)^α] by V⁰; the printed q is too small for large ε′, so the composition never exceeds ε′; the statement "
       "is false for ε = 0 (printed p = 0) and says \"DP\" for \"RDP\". Evidence: at α = 2, ε′ = 10 the printed q is 509/512 "
       "and the limit divergence ln E_q ≈ 5.13 < 10 (certified), the engine's moment for two copies with the printed p stays "
       "below E_q < e^{10}; at α = 3, ε′ = 5 the limit is ≈ 3.96 < 5 (certified). With the corrected parameters the engine "
       "reproduces the closed form exactly, e.g. 257/128 > 2 for three (2, ln(3/2))-RDP copies. Corrected statement: for "
       "every 1 < α < ∞, ε > 0, ε′ ≥ 0 the f_{∞,RDP,α}^{ε}-concurrent composition is not (α, ε′)-RDP, witnessed by the gadget "
       "with the corrected (p, q) and enough copies.",
       {"exactdp::library::renyi_gadget()", "exactdp::library::renyi_gadget_p()", "exactdp::parallel_composition()",
        "exactdp::worst_case_renyi_moment()", "exactdp::decide_exp()"},
       src, check_t135, ""});
  out.push_back({"HSV-T13.6", "Rényi parallel composition with FPC", "HSV Thm 13.6", Kind::positive, Status::as_stated,
                 "The f_{∞,FPC,RDP,α}^{ε₁..ε_k}-concurrent composition is (α, Σε_i)-RDP.",
                 "Moment form; the sparsity budget lists the components' moments.",
                 "FPC parallel composition of IM-form mechanisms (secret first); exact sup moments ≤ the product of the budget's.",
                 "IM-form Rényi gadget (p = 3/8, q = 3/4): ℓ ≤ 3 copies, k = 1 (3/2) and k = 2 (9/4); random pure IMs, α ∈ {2, 3}.",
                 "", {"exactdp::parallel_composition()", "exactdp::worst_case_renyi_moment()"}, src, check_t136, ""});
  out.push_back({"HSV-C13.7", "Rényi k-sparse parallel and filter composition", "HSV Cor 13.7, 13.8", Kind::positive, Status::as_stated,
                 "The α-RDP concurrent k-sparse parallel composition of IMs is (α, Σε_i)-RDP; the concurrent Filt_{RDP,α,ε} "
                 "composition of CMs is (α,ε)-RDP.",
                 "Moment form as HSTVVXZ23-T4.6: Π m_j ≤ B with B = e^{(α−1)ε}.",
                 "Exact sup Φ₂ of parallel_composition (k = 2, IM forms) and of filter_composition with renyi_moment_rule against "
                 "the budget.",
                 "RR₂, RR₃ in IM form (7/2, tight); Rényi filter B = 7/2 over {RR₂, RR₃, the gadget} (7/2, tight); random pure CMs.",
                 "", {"exactdp::filter_composition()", "exactdp::renyi_moment_rule()", "exactdp::worst_case_renyi_moment()"}, src,
                 check_c137, ""});
  out.push_back({"HSV-C14.7", "f-DP concurrent composition of CMs", "HSV Cor 14.7–14.10", Kind::positive, Status::as_stated,
                 "If every composition of f_i-DP NIMs is f-DP, the concurrent composition of finite-communication CMs is f-DP.",
                 "f_i = the engine's exact envelope of component i (both orders); f = f₁ ⊗ f₂ = T of the product of canonical pairs.",
                 "The envelope of the concurrent composition must dominate f₁ ⊗ f₂, compared exactly at the vertices of both "
                 "curves (X-DUALITY-CHECK).",
                 "H16 (RR₂ ∥ RR₂, equality with E.3's vertices); C1 (MP ∥ MP); Mir_{1/2} ∥ M_{1/10}; random pairs of CMs.", "",
                 {"exactdp::tensor()", "exactdp::tradeoff_envelope()", "exactdp::concurrent()"}, src, check_c147, ""});
  out.push_back({"HSV-FN1", "adaptive is not oblivious when δ > 0", "HSV footnote 1", Kind::negative, Status::as_stated,
                 "There are CMs (ε,δ)-DP against oblivious adversaries (messages fixed in advance) but not against adaptive ones.",
                 "", "The lottery of D.14 with N = ⌈1/δ⌉: the engine over oblivious adversaries gives sup H_λ = 1/N ≤ δ, "
                 "over adaptive ones 1, at λ = 1, 2, 16.",
                 "D.14 with δ = 1/10, 1/4, 1/2.", "A regression test that the engine truly quantifies over adaptive strategies.",
                 {"exactdp::library::lottery()", "exactdp::worst_case_profile_oblivious()", "exactdp::worst_case_profile()"}, src,
                 check_fn1, ""});
}

}  // namespace exactdp::proofs
