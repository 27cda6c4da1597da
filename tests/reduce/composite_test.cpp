// Composite mechanisms built by a deterministic post-processor (mechanism/composite.hpp,
// library/library_hsv.hpp; HSV §6–9, THEOREMS.md A.10, D.8–D.10): worked examples whose answer
// laws are derived by hand from the sub-mechanisms' laws, and the HSV §6 checker on the library's
// composites and their leaky variants.
#include "exactdp/game/engine.hpp"
#include "exactdp/mechanism/composite.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_hsv.hpp"
#include "exactdp/reduce/complex_mechanism.hpp"
#include "exactdp/reduce/simulator.hpp"

#include <gtest/gtest.h>

#include <map>

namespace exactdp {
namespace {

Rational q(long a, long b = 1) { return Rational(a, b); }

/// The answer law of the game's identical branch (m, m) at the root, by answer name.
std::map<std::string, Rational> root_law(const Game& g, const std::string& m, int world = 0) {
  const LikelihoodTree t = likelihood_tree(g, 1u);
  const MessageId id = *g.mechanism->message_id(m);
  for (const auto& br : t.nodes[0].branches)
    if (br.pair.world0 == id && br.pair.world1 == id) {
      std::map<std::string, Rational> law;
      for (const auto& c : br.children) law[g.mechanism->answer_name(c.answer)] = t.nodes[c.node].likelihood[static_cast<std::size_t>(world)];
      return law;
    }
  throw std::runtime_error("no branch " + m);
}

TEST(Composite, AndOfTwoRandomizedResponsesByHand) {
  // P asks an RR_3 sub-mechanism twice about the input bit and answers the AND: on input 1 the
  // answer is 1 with probability (3/4)² = 9/16, on input 0 with probability (1/4)² = 1/16.
  using Row = TableMechanism::Row;
  auto rr = std::make_shared<TableMechanism>(
      "RR_3", std::vector<std::pair<std::string, TableMechanism::StateTable>>{
                  {"s", {false, {{"0", {Row{q(3, 4), "0", "s"}, Row{q(1, 4), "1", "s"}}}, {"1", {Row{q(1, 4), "0", "s"}, Row{q(3, 4), "1", "s"}}}}}}});
  using Emit = DeterministicPostProcessor::Emit;
  DeterministicPostProcessor P{"AND", "idle", [](const std::string& s, Port from, const std::string& m) {
                                 if (from == Port::left) return Emit{"first:" + m, Port::right, sub_message(0, m), {}};
                                 if (s.rfind("first:", 0) == 0) return Emit{"second:" + m.substr(2), Port::right, sub_message(0, s.substr(6)), {}};
                                 return Emit{"idle", Port::left, s.substr(7) == "1" && m == "0:1" ? "1" : "0", {}};
                               }};
  const CompositeMechanism cm = compose_deterministic(P, {"0", "1"}, {{rr, 0}});
  for (const auto& [x, p1] : {std::pair{"1", q(9, 16)}, std::pair{"0", q(1, 16)}}) {
    const auto& steps = cm.mechanism->step(cm.initial, *cm.mechanism->message_id(x));
    Rational one = 0, total = 0;
    for (const auto& t : steps) {
      total += t.probability;
      if (cm.mechanism->answer_name(t.answer) == "1") one += t.probability;
    }
    EXPECT_EQ(total, 1);
    EXPECT_EQ(one, p1) << x;
  }
  // a message to a sub-mechanism that does not exist is refused with P's name and the message
  DeterministicPostProcessor bad{"bad", "s", [](const std::string&, Port, const std::string&) { return Emit{"s", Port::right, "7:0", {}}; }};
  const CompositeMechanism b = compose_deterministic(bad, {"0"}, {{rr, 0}});
  EXPECT_THROW(b.mechanism->step(b.initial, 0), Error);
}

TEST(DCounter, TwoSingleNodeCountersAreTwoRandomizedResponses) {
  // d = 2 counters of height 0 (one node each, DLap(1/2)) with both coordinates changed at the only
  // step: Comp(RR₂ × 2), H₁ = 1/3 and H₂ = 4/9 − 2·1/9 = 2/9, pure level 4.
  const Game g = library::d_counter(2, 0, q(1, 2));
  EXPECT_EQ(worst_case_hockey_stick(g, q(1)).delta(), q(1, 3));
  EXPECT_EQ(worst_case_hockey_stick(g, q(2)).delta(), q(2, 9));
  EXPECT_EQ(worst_case_hockey_stick(g, q(4)).delta(), 0);
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(q(4)));
  EXPECT_THROW(library::d_counter(4, 0, q(1, 2)), Error);
}

TEST(HssHistogram, OneStepLawFromTheSubMechanisms) {
  // T = 1, d = 1: the SVT instance (threshold 1, h = 0) stops on input x with probability
  // 1 − N(1 − x), N = Pr[no stop] of B.13; then the d-counter (one node, window [0, 1], DLap(1/4))
  // releases 1 with probability Pr[x + Z ≥ 1]: 4/5 for x = 1 (1 − F(−1) = 1 − (1/4)/(5/4)) and 1/5 for
  // x = 0; otherwise the answer stays out = 0.
  library::HistogramParams p;
  p.steps = 1;
  const auto m = library::hss_histogram(p);
  for (const auto& [x, counter_one] : {std::pair{0L, q(1, 5)}, std::pair{1L, q(4, 5)}}) {
    const Rational stop = 1 - library::svt_no_stop_probability(q(1, 4), q(1, 2), {1 - x});
    const auto law = root_law(m.game, std::to_string(x));
    EXPECT_EQ(law.at("1"), stop * counter_one) << x;
    EXPECT_EQ(law.at("0"), 1 - stop * counter_one) << x;
  }
}

TEST(HssHistogram, CheckerCatchesBothLeakyVariantsAndPassesTheFaithfulOne) {
  library::HistogramParams p;
  const auto faithful = check_composite_conditions(library::checker_instance(library::hss_histogram(p)));
  EXPECT_TRUE(faithful.holds);
  const auto branch = check_composite_conditions(library::checker_instance(library::hss_histogram(p, library::HistogramVariant::raw_branch)));
  ASSERT_FALSE(branch.holds);
  EXPECT_EQ(branch.violation->condition, "destination");
  const auto release = check_composite_conditions(library::checker_instance(library::hss_histogram(p, library::HistogramVariant::raw_release)));
  ASSERT_FALSE(release.holds);
  EXPECT_EQ(release.violation->condition, "response");
  // the engine sees the raw release: some view has probability 0 in one world only
  EXPECT_TRUE(worst_case_ratio(library::hss_histogram(p, library::HistogramVariant::raw_release).game).max().is_infinite());
  EXPECT_THROW(library::hss_histogram(library::HistogramParams{3}), Error);  // d = 3 is refused
}

TEST(LdpProtocol, OneUserViewsByHand) {
  // λ = 2: round 1 reports [x ≥ 1] truthfully w.p. 2/3; round 2 (asked after a 1) reports [x ≥ 2].
  const auto m = library::ldp_threshold_protocol(1, q(2), 1);
  const auto one = root_law(m.game, "1");
  EXPECT_EQ(one.at("0|-"), q(1, 3));
  EXPECT_EQ(one.at("1|0"), q(4, 9));
  EXPECT_EQ(one.at("1|1"), q(2, 9));
  const auto two = root_law(m.game, "2");
  EXPECT_EQ(two.at("1|1"), q(4, 9));
  EXPECT_EQ(two.at("1|0"), q(2, 9));
  EXPECT_TRUE(check_composite_conditions(library::checker_instance(library::ldp_threshold_protocol(3, q(2), 2))).holds);
  // f′ allowing one differing user while f allows two: f → f′ fails
  auto wrong = library::ldp_threshold_protocol(2, q(2), 2);
  wrong.output_relation = library::ldp_threshold_protocol(2, q(2), 1).output_relation;
  const auto c = check_composite_conditions(library::checker_instance(wrong));
  ASSERT_FALSE(c.holds);
  EXPECT_EQ(c.violation->condition, "f -> f'");
}

TEST(CoreDecomposition, TwoVerticesOneRoundByHand) {
  // n = 2, R = 1, level 1: with the edge both users have margin |N ∩ A| − 1 = 0, without it −1; each
  // is removed independently with probability 1 − N(margin) (B.13).
  library::CoreDecompositionParams p;
  p.vertices = 2;
  p.rounds = 1;
  const auto m = library::core_decomposition(p);
  for (const auto& [graph, margin] : {std::pair{"1", 0L}, std::pair{"0", -1L}}) {
    const Rational stay = library::svt_no_stop_probability(q(1, 4), q(1, 2), {margin});
    const auto law = root_law(m.game, graph);
    EXPECT_EQ(law.at("1,1"), (1 - stay) * (1 - stay)) << graph;
    EXPECT_EQ(law.at("0,1"), stay * (1 - stay)) << graph;
    EXPECT_EQ(law.at("0,0"), stay * stay) << graph;
  }
  EXPECT_TRUE(check_composite_conditions(library::checker_instance(m)).holds);
}

}  // namespace
}  // namespace exactdp
