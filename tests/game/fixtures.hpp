// The named interactive fixtures of THEOREMS.md D.16 as C++ tables (the spec files in
// spec/mechanisms/ encode the same mechanisms; spec_file_test.cpp checks they agree).
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "support/exact.hpp"

#include <memory>
#include <string>

namespace exactdp::testing {

using Rows = std::vector<TableMechanism::Row>;

/// A rule answering "0" with probability p and "1" otherwise, moving to next0 / next1.
inline Rows bit(const Rational& p, const std::string& next0, const std::string& next1) {
  Rows r;
  if (sgn(p) != 0) r.push_back({p, "0", next0});
  if (p != 1) r.push_back({Rational(1 - p), "1", next1});
  return r;
}

/// VW2(p₀, p₀′, P, P′) (D.16): round 1 answers a₀ with Pr[a₀ = 0] = p₀ (world 0) or p₀′ (world 1);
/// round 2 takes q ∈ {0,1} and answers a₁ with Pr[a₁ = 0] = P[a₀][q] (world 0) or P′[a₀][q].
inline Game vw2(const std::string& name, const Rational& p0, const Rational& p0w1, const Rational (&P)[2][2],
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

/// MP (D.16, pure).
inline Game mp() {
  const Rational P[2][2] = {{q(2, 3), q(1, 2)}, {q(2, 3), q(4, 5)}};
  const Rational Pw1[2][2] = {{q(1, 3), q(1, 2)}, {q(1, 3), q(1, 5)}};
  return vw2("MP", q(2, 3), q(1, 3), P, Pw1);
}

/// MA (D.16, approximate, with a catastrophic event).
inline Game ma() {
  const Rational P[2][2] = {{q(2, 3), q(1, 10)}, {q(2, 3), q(1, 2)}};
  const Rational Pw1[2][2] = {{q(1, 3), q(0)}, {q(1, 3), q(1, 2)}};
  return vw2("MA", q(2, 3), q(1, 3), P, Pw1);
}

/// R2 (D.16): two rounds, queries ignored, each answer an independent RR₂ of b.
inline Game r2() {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  states.push_back({"b0", {false, {{"*", bit(q(2, 3), "b0", "b0")}}}});
  states.push_back({"b1", {false, {{"*", bit(q(1, 3), "b1", "b1")}}}});
  auto mech = std::make_shared<TableMechanism>("R2", states);
  return static_game("R2", mech, {0, 1}, 2);
}

/// Sticky RR_u (D.16): draws z = RR_u(b) at its first query and answers z to every query; halts
/// after @p answers queries.
inline Game sticky_rr(long u, int answers, unsigned horizon) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  auto z = [](int bitv, int k) { return "z" + std::to_string(bitv) + "/" + std::to_string(k); };
  const std::string first1 = answers == 1 ? "halted" : z(1, 1), first0 = answers == 1 ? "halted" : z(0, 1);
  states.push_back({"b0", {false, {{"*", bit(q(u, 1 + u), first0, first1)}}}});
  states.push_back({"b1", {false, {{"*", bit(q(1, 1 + u), first0, first1)}}}});
  for (int k = 1; k < answers; ++k)
    for (int v = 0; v < 2; ++v) {
      const std::string next = k + 1 == answers ? "halted" : z(v, k + 1);
      states.push_back({z(v, k), {false, {{"*", {{Rational(1), std::to_string(v), next}}}}}});
    }
  states.push_back({"halted", {true, {}}});
  auto mech = std::make_shared<TableMechanism>("sticky RR", states);
  return static_game("sticky RR", mech, {0, 1}, horizon);
}

/// Choice IM C (D.16): one query; "p" → RR₃(b); "a" → C(1, 1/3) on atoms A, +, −, B.
inline Game choice() {
  using Row = TableMechanism::Row;
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  states.push_back({"b0", {false, {{"p", bit(q(3, 4), "done", "done")},
                                   {"a", Rows{Row{q(1, 3), "A", "done"}, Row{q(1, 3), "+", "done"}, Row{q(1, 3), "-", "done"}}}}}});
  states.push_back({"b1", {false, {{"p", bit(q(1, 4), "done", "done")},
                                   {"a", Rows{Row{q(1, 3), "+", "done"}, Row{q(1, 3), "-", "done"}, Row{q(1, 3), "B", "done"}}}}}});
  states.push_back({"done", {true, {}}});
  auto mech = std::make_shared<TableMechanism>("choice C", states);
  return static_game("choice C", mech, {0, 1}, 1);
}

}  // namespace exactdp::testing
