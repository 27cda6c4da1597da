// Node-level BI-Rényi (worst_case_renyi_moment_at, THEOREMS.md B.4) against hand values on MP
// (D.16), the root value of worst_case_renyi_moment, the leaf formula M^b^α·M^{1−b}^{1−α}, and
// the B.4 recursion W(h) = max_q Σ_a W(h∘(q,a)) recomputed from node values; bad histories are
// refused with errors naming them.
#include "exactdp/game/engine.hpp"
#include "game/fixtures.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>

namespace exactdp::testing {
namespace {

AnswerId answer_named(const Game& g, const std::string& name) {
  for (AnswerId a = 0; a < 64; ++a)
    if (g.mechanism->answer_name(a) == name) return a;  // answer_name throws past the last id
  throw Error("test", "answer", name, "no such answer");
}

MessagePair same(const Game& g, const std::string& m) {
  const auto id = g.mechanism->message_id(m);
  if (!id) throw Error("test", "message", m, "not in " + g.name + "'s alphabet");
  return {*id, *id};
}

TEST(NodeRenyi, MPHandValuesAfterTheFirstAnswer) {
  // After a₀ = 0 (M⁰ = 2/3, M¹ = 1/3) one round is left. Query 0 splits into (4/9, 1/9), (2/9, 2/9),
  // query 1 into (1/3, 1/6) twice. Forward Φ₂: q0 gives 16/9 + 2/9 = 2, q1 gives 2·(1/9)/(1/6) = 4/3,
  // so W⁰ = 2; backward: q0 gives 1/36 + 2/9 = 1/4, q1 gives 2·(1/36)/(1/3) = 1/6, so W¹ = 1/4.
  // After a₀ = 1 the backward value is max(2/9 + 16/9, 1/15 + 64/15) = 13/3, and
  // 1/4 + 13/3 = 55/12 is the root value of E.5.
  const Game g = mp();
  const AnswerId a0 = answer_named(g, "0"), a1 = answer_named(g, "1");
  const auto r = worst_case_renyi_moment_at(g, {{}, {{same(g, "0"), a0}}, {{same(g, "0"), a1}}}, 2);
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].moment.forward, ExtendedRational(q(61, 24)));
  EXPECT_EQ(r[0].moment.backward, ExtendedRational(q(55, 12)));
  EXPECT_EQ(r[1].likelihood[0], q(2, 3));
  EXPECT_EQ(r[1].likelihood[1], q(1, 3));
  EXPECT_EQ(r[1].moment.forward, ExtendedRational(q(2)));
  EXPECT_EQ(r[1].moment.backward, ExtendedRational(q(1, 4)));
  EXPECT_EQ(r[2].moment.backward, ExtendedRational(q(13, 3)));
  EXPECT_EQ(r[0].moment.backward, r[1].moment.backward + r[2].moment.backward);
}

TEST(NodeRenyi, RootEqualsTheEngineAndLeavesEqualTheMomentFormula) {
  for (const Game& g : {mp(), ma(), r2()})
    for (unsigned long alpha : {2ul, 3ul}) {
      const auto root = worst_case_renyi_moment(g, alpha);
      const auto at = worst_case_renyi_moment_at(g, {{}}, alpha);
      EXPECT_EQ(at[0].moment.forward, root.forward) << g.name;
      EXPECT_EQ(at[0].moment.backward, root.backward) << g.name;
      // every full history of depth 2: the leaf value, and the recursion at depth 1 (R2's only
      // message is "*", the VW2 fixtures' are "0" and "1")
      const std::vector<std::string> msgs = g.name == "R2" ? std::vector<std::string>{"*"} : std::vector<std::string>{"0", "1"};
      std::vector<GameHistory> depth1, depth2;
      for (const std::string& a : {"0", "1"}) {
        GameHistory h{{same(g, msgs[0]), answer_named(g, a)}};
        depth1.push_back(h);
        for (const std::string& m : msgs)
          for (const std::string& b : {"0", "1"}) {
            GameHistory full = h;
            full.push_back({same(g, m), answer_named(g, b)});
            depth2.push_back(full);
          }
      }
      std::vector<GameHistory> reachable;
      for (const auto& h : depth2) {
        try {
          const auto v = worst_case_renyi_moment_at(g, {h}, alpha)[0];
          const Rational& p = v.likelihood[0];
          const Rational& qq = v.likelihood[1];
          auto leaf = [&](const Rational& x, const Rational& y) {
            if (sgn(x) == 0) return ExtendedRational();
            if (sgn(y) == 0) return ExtendedRational::infinity();
            return ExtendedRational(Rational(pow(x, alpha) / pow(y, alpha - 1)));
          };
          EXPECT_EQ(v.moment.forward, leaf(p, qq)) << g.name;
          EXPECT_EQ(v.moment.backward, leaf(qq, p)) << g.name;
          reachable.push_back(h);
        } catch (const Error&) {
          // unreachable in both worlds: refused (checked separately below)
        }
      }
      for (std::size_t i = 0; i < depth1.size(); ++i) {
        const auto parent = worst_case_renyi_moment_at(g, {depth1[i]}, alpha)[0];
        ExtendedRational best_f, best_b;
        for (const std::string& m : msgs) {
          ExtendedRational sf, sb;
          for (const std::string& b : {"0", "1"}) {
            GameHistory full = depth1[i];
            full.push_back({same(g, m), answer_named(g, b)});
            if (std::find(reachable.begin(), reachable.end(), full) == reachable.end()) continue;
            const auto v = worst_case_renyi_moment_at(g, {full}, alpha)[0];
            sf = sf + v.moment.forward;
            sb = sb + v.moment.backward;
          }
          best_f = std::max(best_f, sf);
          best_b = std::max(best_b, sb);
        }
        EXPECT_EQ(parent.moment.forward, best_f) << g.name;
        EXPECT_EQ(parent.moment.backward, best_b) << g.name;
      }
    }
}

TEST(NodeRenyi, BadHistoriesAreRefusedByName) {
  const Game g = r2();
  const AnswerId a0 = answer_named(g, "0");
  const MessagePair star = same(g, "*");
  // longer than the horizon (2)
  EXPECT_THROW(worst_case_renyi_moment_at(g, {{{star, a0}, {star, a0}, {star, a0}}}, 2), Error);
  // α below 2
  EXPECT_THROW(worst_case_renyi_moment_at(g, {{}}, 1), Error);
  try {
    worst_case_renyi_moment_at(g, {{}, {{star, a0}, {star, a0}, {star, a0}}}, 2);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("histories[1]"), std::string::npos) << e.what();
  }
  // an id outside the alphabet is refused with its number
  EXPECT_THROW(worst_case_renyi_moment_at(g, {{{MessagePair{77, 77}, a0}}}, 2), Error);
  // a pair the static verifier never offers (two different messages) — MP has messages "0", "1"
  const Game m = mp();
  const MessagePair mixed{*m.mechanism->message_id("0"), *m.mechanism->message_id("1")};
  EXPECT_THROW(worst_case_renyi_moment_at(m, {{{mixed, answer_named(m, "0")}}}, 2), Error);
  // unreachable in both worlds: an answer id that no transition of the first round produces
  EXPECT_THROW(worst_case_renyi_moment_at(m, {{{same(m, "0"), AnswerId{9999}}}}, 2), Error);
}

}  // namespace
}  // namespace exactdp::testing
