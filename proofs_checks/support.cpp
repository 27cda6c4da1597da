#include "proofs_checks/support.hpp"

#include "exactdp/accounting/parametric_check.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <map>
#include <memory>
#include <set>

namespace exactdp::proofs {

Rational q(long a, long b) {
  Rational r(a, b);
  r.canonicalize();
  return r;
}

std::string str(const Rational& x) { return exactdp::to_string(x); }

const std::vector<Rational>& lambda_grid() {
  static const std::vector<Rational> g{q(1), q(3, 2), q(2), q(3), q(4), q(8), q(16)};
  return g;
}

void expect_equal(CheckContext& ctx, const std::string& name, const Rational& got, const Rational& expected,
                  unsigned horizon) {
  const bool ok = got == expected;
  ctx.instance(name, ok ? str(got) : str(got) + " (expected " + str(expected) + ")", ok, horizon);
}

void expect_at_most(CheckContext& ctx, const std::string& name, const Rational& lhs, const Rational& rhs,
                    unsigned horizon) {
  const bool ok = lhs <= rhs;
  ctx.instance(name, str(lhs) + (ok ? " ≤ " : " > ") + str(rhs), ok, horizon);
}

Rational random_rational(Rng& rng, long max, long max_den) {
  const long d = rng.range(1, max_den);
  return q(rng.range(0, max * d), d);
}

std::vector<std::pair<Rational, Rational>> random_masses(Rng& rng, int max_outcomes, int max_weight) {
  for (;;) {
    const int n = static_cast<int>(rng.range(1, max_outcomes));
    std::vector<std::pair<long, long>> w;
    long sp = 0, sq = 0;
    for (int i = 0; i < n; ++i) {
      w.emplace_back(rng.range(0, max_weight), rng.range(0, max_weight));
      sp += w.back().first;
      sq += w.back().second;
    }
    if (sp == 0 || sq == 0) continue;
    std::vector<std::pair<Rational, Rational>> m;
    for (auto [a, b] : w)
      if (a + b > 0) m.emplace_back(q(a, sp), q(b, sq));
    return m;
  }
}

std::string describe_masses(const std::vector<std::pair<Rational, Rational>>& m) {
  std::string s = "[";
  for (std::size_t i = 0; i < m.size(); ++i) s += (i ? ", (" : "(") + str(m[i].first) + ", " + str(m[i].second) + ")";
  return s + "]";
}

std::vector<std::vector<Rational>> random_channel(Rng& rng, std::size_t rows) {
  const long cols = rng.range(1, 3);
  std::vector<std::vector<Rational>> k;
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<long> w;
    long s = 0;
    do {
      w.clear();
      s = 0;
      for (long c = 0; c < cols; ++c) {
        w.push_back(rng.range(0, 3));
        s += w.back();
      }
    } while (s == 0);
    std::vector<Rational> row;
    for (long x : w) row.push_back(q(x, s));
    k.push_back(row);
  }
  return k;
}

PrivacyLoss rr_loss(const Rational& lambda, const Rational& delta) { return privacy_loss(randomized_response(lambda, delta)); }

PrivacyLoss rr_product_loss(const std::vector<std::pair<Rational, Rational>>& components) {
  PrivacyLoss l = PrivacyLoss::identity();
  for (const auto& [lambda, delta] : components) l = compose(l, rr_loss(lambda, delta));
  return l;
}

std::vector<std::pair<Rational, Rational>> product_masses(const std::vector<std::vector<std::pair<Rational, Rational>>>& parts) {
  std::vector<std::pair<Rational, Rational>> acc{{Rational(1), Rational(1)}};
  for (const auto& part : parts) {
    std::vector<std::pair<Rational, Rational>> next;
    for (const auto& a : acc)
      for (const auto& b : part) {
        const Rational x = a.first * b.first, y = a.second * b.second;
        if (sgn(x) + sgn(y) > 0) next.emplace_back(x, y);
      }
    acc = std::move(next);
  }
  return acc;
}

Game pair_game(const std::string& name, const std::vector<std::pair<Rational, Rational>>& masses) {
  std::vector<std::pair<long, Rational>> w0, w1;
  for (std::size_t i = 0; i < masses.size(); ++i) {
    w0.emplace_back(static_cast<long>(i), masses[i].first);
    w1.emplace_back(static_cast<long>(i), masses[i].second);
  }
  return noninteractive_game(name, NeighbouringPair<long>{Dist<long>(w0), Dist<long>(w1)});
}

std::vector<std::pair<Rational, Rational>> rr_masses(const Rational& lambda, const Rational& delta) {
  const Rational hi = (1 - delta) * lambda / (1 + lambda), lo = (1 - delta) / (1 + lambda);
  std::vector<std::pair<Rational, Rational>> m{{delta, Rational(0)}, {hi, lo}, {lo, hi}, {Rational(0), delta}};
  std::erase_if(m, [](const auto& x) { return sgn(x.first) + sgn(x.second) == 0; });
  return m;
}

namespace {
using Rows = std::vector<TableMechanism::Row>;
Rows bit(const Rational& p, const std::string& next0, const std::string& next1) {
  Rows r;
  if (sgn(p) != 0) r.push_back({p, "0", next0});
  if (p != 1) r.push_back({Rational(1 - p), "1", next1});
  return r;
}
}  // namespace

Game vw2_game(const std::string& name, const Rational& p0, const Rational& p0w1, const Rational (&P)[2][2],
              const Rational (&Pw1)[2][2]) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  states.push_back({"x", {false, {{"*", bit(p0, "x/0", "x/1")}}}});
  states.push_back({"x'", {false, {{"*", bit(p0w1, "x'/0", "x'/1")}}}});
  for (int a = 0; a < 2; ++a) {
    TableMechanism::StateTable t0, t1;
    for (int m = 0; m < 2; ++m) {
      t0.rules[std::to_string(m)] = bit(P[a][m], "done", "done");
      t1.rules[std::to_string(m)] = bit(Pw1[a][m], "done", "done");
    }
    states.push_back({"x/" + std::to_string(a), t0});
    states.push_back({"x'/" + std::to_string(a), t1});
  }
  states.push_back({"done", {true, {}}});
  auto mech = std::make_shared<TableMechanism>(name, states, std::vector<std::string>{"0", "1"});
  return static_game(name, mech, {mech->state_id("x"), mech->state_id("x'")}, 2);
}

Game mp_game() {
  const Rational P[2][2] = {{q(2, 3), q(1, 2)}, {q(2, 3), q(4, 5)}};
  const Rational Pw1[2][2] = {{q(1, 3), q(1, 2)}, {q(1, 3), q(1, 5)}};
  return vw2_game("MP", q(2, 3), q(1, 3), P, Pw1);
}

Game ma_game() {
  const Rational P[2][2] = {{q(2, 3), q(1, 10)}, {q(2, 3), q(1, 2)}};
  const Rational Pw1[2][2] = {{q(1, 3), q(0)}, {q(1, 3), q(1, 2)}};
  return vw2_game("MA", q(2, 3), q(1, 3), P, Pw1);
}

Game r2_game() {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  states.push_back({"b0", {false, {{"*", bit(q(2, 3), "b0", "b0")}}}});
  states.push_back({"b1", {false, {{"*", bit(q(1, 3), "b1", "b1")}}}});
  auto mech = std::make_shared<TableMechanism>("R2", states);
  return static_game("R2", mech, {0, 1}, 2);
}

TableMechanism::StateTable random_state_table(Rng& rng, int states, const std::function<std::string(int)>& next) {
  TableMechanism::StateTable t;
  for (int m = 0; m < 2; ++m) {
    // weights 0..3 on (answer, next state), each zero with probability ≥ 1/2, drawn until not all zero
    std::vector<std::pair<std::pair<int, int>, long>> w;
    long total = 0;
    while (total == 0) {
      w.clear();
      for (int a = 0; a < 2; ++a)
        for (int n = 0; n < states; ++n) {
          w.push_back({{a, n}, rng.range(0, 3) * rng.range(0, 1)});
          total += w.back().second;
        }
    }
    Rows rows;
    for (auto [an, x] : w)
      if (x > 0) rows.push_back({q(x, total), std::to_string(an.first), next(an.second)});
    t.rules[std::to_string(m)] = rows;
  }
  return t;
}

Game random_table_game(Rng& rng, int states, unsigned horizon) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> table;
  for (int s = 0; s < states; ++s)
    table.push_back({"s" + std::to_string(s), random_state_table(rng, states, [](int n) { return "s" + std::to_string(n); })});
  auto mech = std::make_shared<TableMechanism>("random", table, std::vector<std::string>{"0", "1"});
  return static_game("random", mech, {0, 1}, horizon);
}

Game random_vw2_game(Rng& rng) {
  auto p = [&] { return random_rational(rng, 1); };
  const Rational p0 = p(), p0w1 = p();
  const Rational P[2][2] = {{p(), p()}, {p(), p()}};
  const Rational Pw1[2][2] = {{p(), p()}, {p(), p()}};
  return vw2_game("VW2", p0, p0w1, P, Pw1);
}

namespace {

struct Plan {
  std::size_t action = 0;
  std::vector<std::pair<AnswerId, std::shared_ptr<const Plan>>> children;
};
using PlanPtr = std::shared_ptr<const Plan>;

struct Node {
  VerifierState sigma;
  std::set<StateId> s0, s1;
};

// The answers reachable after sending allowed(σ)[action], with the successor supports.
std::map<AnswerId, Node> successors(const Game& g, const Node& n, std::size_t action) {
  const MessagePair pair = g.verifier->allowed(n.sigma)[action];
  std::map<AnswerId, Node> out;
  const VerifierState next_sigma = g.verifier->next(n.sigma, action);
  for (int b = 0; b < 2; ++b)
    for (StateId s : b == 0 ? n.s0 : n.s1)
      for (const auto& t : g.mechanism->step(s, b == 0 ? pair.world0 : pair.world1)) {
        auto [it, fresh] = out.try_emplace(t.answer, Node{next_sigma, {}, {}});
        (b == 0 ? it->second.s0 : it->second.s1).insert(t.next);
      }
  return out;
}

std::vector<PlanPtr> plans(const Game& g, const Node& n, unsigned rounds, std::size_t limit) {
  std::vector<PlanPtr> out;
  if (rounds == 0) return out;
  const std::size_t actions = g.verifier->allowed(n.sigma).size();
  for (std::size_t a = 0; a < actions; ++a) {
    auto succ = successors(g, n, a);
    std::vector<std::pair<AnswerId, std::vector<PlanPtr>>> options;
    for (auto& [y, child] : succ) options.push_back({y, plans(g, child, rounds - 1, limit)});
    // cartesian product of the children's plans (an empty list means "stop after this answer")
    std::vector<std::vector<std::pair<AnswerId, PlanPtr>>> combos{{}};
    for (auto& [y, list] : options) {
      if (list.empty()) continue;
      std::vector<std::vector<std::pair<AnswerId, PlanPtr>>> next;
      for (auto& c : combos)
        for (auto& p : list) {
          next.push_back(c);
          next.back().push_back({y, p});
          if (next.size() > limit) throw Error("all_adversaries", "limit", std::to_string(limit), "too many adversaries to enumerate");
        }
      combos = std::move(next);
    }
    for (auto& c : combos) {
      auto p = std::make_shared<Plan>();
      p->action = a;
      p->children = c;
      out.push_back(p);
      if (out.size() > limit) throw Error("all_adversaries", "limit", std::to_string(limit), "too many adversaries to enumerate");
    }
  }
  return out;
}

std::size_t build(Adversary& adv, std::optional<std::size_t> at, const Game& g, const Node& n, const Plan& p) {
  const MessagePair pair = g.verifier->allowed(n.sigma)[p.action];
  std::size_t id;
  if (at) {
    id = *at;
    adv.set_send(id, pair);
  } else {
    id = adv.add_node(pair);
  }
  auto succ = successors(g, n, p.action);
  for (const auto& [y, child] : p.children) {
    const std::size_t c = build(adv, std::nullopt, g, succ.at(y), *child);
    adv.set_child(id, y, c);
  }
  return id;
}

Node root(const Game& g) {
  Node n{g.verifier->initial_state(), {}, {}};
  for (const auto& [s, m] : g.initial[0]) n.s0.insert(s);
  for (const auto& [s, m] : g.initial[1]) n.s1.insert(s);
  return n;
}

void random_build(Adversary& adv, std::size_t id, const Game& g, const Node& n, unsigned rounds, Rng& rng) {
  const std::size_t actions = g.verifier->allowed(n.sigma).size();
  if (rounds == 0 || actions == 0) return;
  const std::size_t a = static_cast<std::size_t>(rng.range(0, static_cast<long>(actions) - 1));
  adv.set_send(id, g.verifier->allowed(n.sigma)[a]);
  if (rounds == 1) return;
  for (auto& [y, child] : successors(g, n, a)) {
    if (g.verifier->allowed(child.sigma).empty()) continue;
    const std::size_t c = adv.add_node(std::nullopt);
    adv.set_child(id, y, c);
    random_build(adv, c, g, child, rounds - 1, rng);
  }
}

}  // namespace

std::vector<Adversary> all_adversaries(const Game& game, unsigned horizon, std::size_t limit) {
  const Node r = root(game);
  std::vector<Adversary> out;
  for (const auto& p : plans(game, r, horizon, limit)) {
    Adversary adv;
    build(adv, std::size_t{0}, game, r, *p);
    out.push_back(std::move(adv));
  }
  return out;
}

Adversary random_adversary(const Game& game, unsigned horizon, Rng& rng) {
  Adversary adv;
  random_build(adv, 0, game, root(game), horizon, rng);
  return adv;
}

std::string counted(std::size_t n, const std::string& noun) { return std::to_string(n) + " " + noun + (n == 1 ? "" : "s"); }

void expect_rr_composition_for_all(CheckContext& ctx, const std::string& label, const parametric::ParametricGame& game,
                                   const std::function<Game(const Rational&)>& numeric, long n, const std::vector<long>& ms) {
  using parametric::RationalFunction;
  const RationalFunction r = RationalFunction::variable(), one(1);
  const RationalFunction p = one / (one + r), qr = r / (one + r);
  for (const long m : ms) {
    const RationalFunction lambda = r.pow(-m);
    RationalFunction closed;
    long binom = 1;  // C(n, i)
    for (long i = 0; n - 2 * i > m; binom = binom * (n - i) / (i + 1), ++i)
      closed += RationalFunction(binom) * (p.pow(n - i) * qr.pow(i) - lambda * p.pow(i) * qr.pow(n - i));
    const ParametricDeltaProfile w = exactdp::worst_case_delta_for_all(game, numeric, lambda, game.horizon);
    std::string bad;
    for (std::size_t piece = 0; piece < w.worst.delta.size(); ++piece)
      if (!(w.worst.delta[piece] == closed)) bad += " on " + w.worst.partition.pieces[piece].to_string() + " δ = " + w.worst.delta[piece].to_string() + ";";
    ctx.instance(label + ": δ(1/r^" + std::to_string(m) + ") = Comp(" + std::to_string(n) + " × RR_{ln 1/r})",
                 bad.empty() ? "= " + closed.to_string() + " on " + counted(w.worst.partition.pieces.size(), "piece") +
                                   " (all); the numeric engine agrees at " + counted(w.checks.size(), "sample")
                             : "differs:" + bad,
                 bad.empty(), game.horizon);
  }
  const parametric::PiecewiseRatio ratio = parametric::worst_case_ratio_for_all(game, game.horizon);
  bool ok = !ratio.infinite && !ratio.best.empty();
  for (const std::size_t b : ratio.best) ok = ok && ratio.candidates[b] == r.pow(-n);
  ctx.instance(label + ": worst pure ratio = 1/r^" + std::to_string(n),
               ok ? "1/r^" + std::to_string(n) + " on " + counted(ratio.partition.pieces.size(), "piece") + " (all)" : "differs", ok,
               game.horizon);
}

}  // namespace exactdp::proofs
