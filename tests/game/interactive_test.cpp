// Interactive mechanisms as state machines (THEOREMS.md A.3): table semantics ("*", "invalid",
// "halt"), validation errors, and the C++ builder (LambdaMechanism) against the same table.
#include "exactdp/game/engine.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "game/fixtures.hpp"

#include <gtest/gtest.h>

namespace exactdp {
namespace {

using testing::q;
using Row = TableMechanism::Row;

TEST(InteractiveTable, WildcardInvalidAndHalt) {
  TableMechanism m("t", {{"s", {false, {{"a", {Row{q(1, 2), "x", "s"}, Row{q(1, 2), "y", "h"}}}, {"*", {Row{1, "z", "s"}}}}}},
                         {"u", {false, {{"a", {Row{1, "x", "u"}}}}}},
                         {"h", {true, {}}}},
                   {"b"});
  ASSERT_EQ(m.messages(), (std::vector<std::string>{"b", "a"}));
  const MessageId a = *m.message_id("a"), b = *m.message_id("b");
  EXPECT_EQ(m.step(m.state_id("s"), a).size(), 2u);
  ASSERT_EQ(m.step(m.state_id("s"), b).size(), 1u);
  EXPECT_EQ(m.answer_name(m.step(m.state_id("s"), b)[0].answer), "z");
  // "u" has no rule for "b": answered "invalid", state unchanged
  const auto& inv = m.step(m.state_id("u"), b);
  ASSERT_EQ(inv.size(), 1u);
  EXPECT_EQ(m.answer_name(inv[0].answer), invalid_answer);
  EXPECT_EQ(inv[0].next, m.state_id("u"));
  // a halted state answers "halt" to everything and stays
  for (MessageId x : {a, b}) {
    const auto& h = m.step(m.state_id("h"), x);
    ASSERT_EQ(h.size(), 1u);
    EXPECT_EQ(m.answer_name(h[0].answer), halt_answer);
    EXPECT_EQ(h[0].next, m.state_id("h"));
  }
}

TEST(InteractiveTable, InvalidAnswerIsObservable) {
  // World 0 accepts "q", world 1 does not: one query reveals the world.
  auto mech = std::make_shared<TableMechanism>(
      "partial", std::vector<std::pair<std::string, TableMechanism::StateTable>>{{"x", {false, {{"q", {Row{1, "ok", "x"}}}}}}, {"x'", {false, {}}}});
  auto g = static_game("partial", mech, {0, 1}, 1);
  EXPECT_EQ(worst_case_hockey_stick(g, 100).delta(), 1);
}

TEST(InteractiveTable, RejectsBadTables) {
  using States = std::vector<std::pair<std::string, TableMechanism::StateTable>>;
  EXPECT_THROW(TableMechanism("t", States{{"s", {false, {{"*", {Row{q(1, 2), "x", "s"}}}}}}}), Error);  // sums to 1/2
  EXPECT_THROW(TableMechanism("t", States{{"s", {false, {{"*", {Row{1, "x", "nowhere"}}}}}}}), Error);
  EXPECT_THROW(TableMechanism("t", States{{"s", {false, {{"*", {Row{q(3, 2), "x", "s"}, Row{q(-1, 2), "y", "s"}}}}}}}), Error);
  EXPECT_THROW(TableMechanism("t", States{{"s", {true, {{"*", {Row{1, "x", "s"}}}}}}}), Error);
  EXPECT_THROW(TableMechanism("t", States{{"s", {true, {}}}, {"s", {true, {}}}}), Error);
  try {
    TableMechanism("spec.json", States{{"s0", {false, {{"m", {Row{q(1, 3), "x", "s0"}}}}}}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "spec.json");
    EXPECT_EQ(e.field(), "states/s0/m");
    EXPECT_EQ(e.value(), "1/3");
  }
}

/// Sticky RR_u through the C++ builder: state = (bit, answers given).
struct Sticky {
  int b = 0;        // the secret, until drawn
  int z = -1;       // the drawn bit, −1 before the first query
  int answered = 0;
  friend bool operator==(const Sticky&, const Sticky&) = default;
};
struct StickyHash {
  std::size_t operator()(const Sticky& s) const noexcept { return std::size_t(s.b * 100 + (s.z + 1) * 10 + s.answered); }
};

TEST(InteractiveLambda, BuilderMatchesTheTable) {
  const long u = 3;
  auto mech = std::make_shared<LambdaMechanism<Sticky, StickyHash>>(
      "sticky RR (builder)", std::vector<std::string>{"q"},
      [u](const Sticky& s, const std::string&) -> std::vector<Outcome<Sticky>> {
        if (s.answered == 2) return {{1, halt_answer, s}};
        if (s.z < 0) {
          Rational keep(u, 1 + u);
          keep.canonicalize();
          return {{keep, std::to_string(s.b), Sticky{s.b, s.b, 1}}, {Rational(1 - keep), std::to_string(1 - s.b), Sticky{s.b, 1 - s.b, 1}}};
        }
        return {{1, std::to_string(s.z), Sticky{s.b, s.z, s.answered + 1}}};
      },
      [](const Sticky& s) { return "b" + std::to_string(s.b) + "/z" + std::to_string(s.z) + "/" + std::to_string(s.answered); });
  auto g = static_game("sticky builder", mech, {mech->state_id({0, -1, 0}), mech->state_id({1, -1, 0})}, 4);
  auto table = testing::sticky_rr(u, 2, 4);
  auto a = worst_case_profile(g).profile, b = worst_case_profile(table).profile;
  EXPECT_EQ(a.forward(), b.forward());
  EXPECT_EQ(a.backward(), b.backward());
  EXPECT_EQ(mech->state_name(0), "b0/z-1/0");
}

TEST(InteractiveLambda, RejectsStepsThatAreNotDistributions) {
  auto mech = std::make_shared<LambdaMechanism<int>>(
      "bad", std::vector<std::string>{"q"}, [](const int& s, const std::string&) -> std::vector<Outcome<int>> {
        return {{q(1, 2), "x", s}};
      });
  auto g = static_game("bad", mech, {mech->state_id(0), mech->state_id(1)}, 1);
  EXPECT_THROW(worst_case_hockey_stick(g, 1), Error);
}

TEST(VerifierPairs, AtMostKDifferingPairs) {
  PairsVerifier v({{0, 0}, {0, 1}, {1, 1}}, 1u);
  EXPECT_EQ(v.allowed(v.initial_state()).size(), 3u);
  VerifierState s = v.next(v.initial_state(), 1);  // (0, 1) differs
  EXPECT_EQ(v.allowed(s).size(), 2u);              // only identical pairs now
  EXPECT_EQ(v.next(s, 0), s);
  EXPECT_THROW(PairsVerifier({}, std::nullopt), Error);
  EXPECT_THROW(PairsVerifier({{0, 1}, {0, 1}}, std::nullopt), Error);
}

// Event-level RR over a stream: each message is a bit, answered by RR₃; with k = 1 differing pair
// the worst case is one RR₃ (the identical pairs reveal nothing), with k = 2 it is RR₃ twice.
TEST(VerifierPairs, EventLevelRandomizedResponse) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states{
      {"s", {false, {{"0", testing::bit(q(3, 4), "s", "s")}, {"1", testing::bit(q(1, 4), "s", "s")}}}}};
  auto mech = std::make_shared<TableMechanism>("stream RR", states);
  Game g;
  g.name = "stream RR";
  g.mechanism = mech;
  g.initial = {InitialLaw{{0, Rational(1)}}, InitialLaw{{0, Rational(1)}}};
  g.horizon = 3;
  g.verifier = std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, 1u);
  EXPECT_EQ(worst_case_profile(g).profile.delta(1), q(1, 2));    // H₁(RR₃)
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(3));
  g.verifier = std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, 2u);
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(9));
  EXPECT_EQ(worst_case_profile(g).profile.delta(3), q(3, 8));    // E.3: RR₃ × 2 at λ = 3
}

}  // namespace
}  // namespace exactdp
