// Filters that refuse a launch and continue (LaunchOptions::refuse_and_continue, X-FILTER-HALT)
// against the halting filter and hand-derived values, and LYU-DECOMP on a concurrent composition
// whose verifier runs out before the horizon (the tree form of BI-δ must equal the engine).
#include "compose/compose_fixtures.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator.hpp"
#include "exactdp/reduce/simulator_lp.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>

#include <variant>

namespace exactdp::testing {
namespace {

/// A continual mechanism that echoes the bit it receives, under the relation "identical pairs
/// only" with one initial state: its two worlds are indistinguishable (0-DP).
Game echo_game() {
  using Row = TableMechanism::Row;
  std::vector<std::pair<std::string, TableMechanism::StateTable>> s{
      {"ready", {false, {{"0", {Row{Rational(1), "0", "ready"}}}, {"1", {Row{Rational(1), "1", "ready"}}}}}}};
  auto mech = std::make_shared<TableMechanism>("echo", s, std::vector<std::string>{"0", "1"});
  Game g;
  g.name = "echo";
  g.mechanism = mech;
  g.verifier = std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 0}, {1, 1}}, std::nullopt);
  g.initial = {InitialLaw{{0, Rational(1)}}, InitialLaw{{0, Rational(1)}}};
  return g;
}

/// RR_λ of the bit the adversary sends, under the single pair (0, 1) (E.10 H11's entries).
Game rr_of_bit(const Rational& lambda) {
  using Row = TableMechanism::Row;
  const Rational hi = lambda / (1 + lambda), lo = 1 / (1 + lambda);
  std::vector<std::pair<std::string, TableMechanism::StateTable>> s{
      {"ready", {false, {{"0", {Row{hi, "0", "done"}, Row{lo, "1", "done"}}}, {"1", {Row{lo, "0", "done"}, Row{hi, "1", "done"}}}}}},
      {"done", {true, {}}}};
  auto mech = std::make_shared<TableMechanism>("RR of a bit", s, std::vector<std::string>{"0", "1"});
  Game g;
  g.name = "RR of a bit";
  g.mechanism = mech;
  g.verifier = std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 1}}, std::nullopt);
  g.initial = {InitialLaw{{0, Rational(1)}}, InitialLaw{{0, Rational(1)}}};
  return g;
}

TEST(RefusingFilter, RefusedLaunchCreatesNoInstance) {
  // Menu {Big = RR_100 of a bit (λ = 100), Echo (λ = 1)}, rule Πλ ≤ 4. Big is always refused. Were
  // the refused Big counted as instance 0 by the verifier, the pair (0, 1) allowed for Big could
  // be sent to Echo (the mechanism's instance 0) and reveal the world: δ(1) = 1. Echo only ever
  // receives identical pairs and starts alike in both worlds, so the true value is 0 (hand-derived).
  LaunchOptions o;
  o.max_instances = 2;
  o.horizon = 4;
  o.refuse_and_continue = true;
  const std::vector<MenuEntry> menu{{"Big", rr_of_bit(Rational(100)), {Rational(100), 0, {}}}, {"Echo", echo_game(), {Rational(1), 0, {}}}};
  const Game refusing = filter_composition(menu, basic_pure_rule(Rational(4)), o);
  EXPECT_EQ(worst_case_profile(refusing).profile.delta(Rational(1)), q(0));
  o.refuse_and_continue = false;
  EXPECT_EQ(worst_case_profile(filter_composition(menu, basic_pure_rule(Rational(4)), o)).profile.delta(Rational(1)), q(0));
}

TEST(RefusingFilter, AnswersRefusedAndKeepsGoing) {
  // Menu {RR₄ (λ = 4), RR₂ (λ = 2)}, rule Πλ ≤ 2: the refusing variant answers "refused" to
  // create:RR4 and still launches RR₂ afterwards; its profile is RR₂'s (A.2: H_λ = (2 − λ)⁺/3),
  // the same as the halting variant's (an adversary that knows the rule never asks for RR₄).
  LaunchOptions o;
  o.max_instances = 2;
  o.horizon = 3;
  o.refuse_and_continue = true;
  const std::vector<MenuEntry> menu{{"RR4", rr_game(Rational(4)), {Rational(4), 0, {}}}, {"RR2", rr_game(Rational(2)), {Rational(2), 0, {}}}};
  const Game refusing = filter_composition(menu, basic_pure_rule(Rational(2)), o);
  const auto& mech = *refusing.mechanism;
  const auto s0 = refusing.initial[0].front().first;
  const auto& t = mech.step(s0, *mech.message_id("create:RR4"));
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(mech.answer_name(t.front().answer), "refused");
  EXPECT_EQ(t.front().next, s0);
  const auto pr = worst_case_profile(refusing).profile;
  EXPECT_EQ(pr.delta(Rational(1)), q(1, 3));
  EXPECT_EQ(pr.delta(Rational(2)), q(0));
  o.refuse_and_continue = false;
  const auto ph = worst_case_profile(filter_composition(menu, basic_pure_rule(Rational(2)), o)).profile;
  EXPECT_EQ(pr.forward(), ph.forward());
  EXPECT_EQ(pr.backward(), ph.backward());
}

TEST(LyuOnCompositions, HistoriesAfterTheLastAllowedPairAreFinal) {
  // ConComp(RR₂, RR₃) (one message each) played with horizon 3: after two rounds the verifier
  // allows nothing, so depth-2 histories are final. The tree form of BI-δ must equal the engine
  // there (δ(2) of RR₂ ⊗ RR₃ is 1/3, E.9 F1), and LYU-DECOMP must build a verified simulator.
  const Game g = concurrent({rr_game(Rational(2)), rr_game(Rational(3))});
  EngineOptions eo;
  eo.horizon = 3;
  const auto engine = worst_case_hockey_stick(g, Rational(2), eo);
  EXPECT_EQ(engine.delta(), q(1, 3));
  const LikelihoodTree tree = likelihood_tree(g, 3);
  const auto lower = tree_hockey_stick(tree, Rational(2));
  EXPECT_EQ(lower[0][0], engine.forward);
  EXPECT_EQ(lower[0][1], engine.backward);
  const LyuBuild b = lyu_decomposition(tree, Rational(2), engine.delta());
  const auto* d = std::get_if<LyuDecomposition>(&b);
  ASSERT_NE(d, nullptr) << std::get<SimulatorRefusal>(b).reason;
  EXPECT_TRUE(verify_simulator(tree, d->simulator).verified);
}

TEST(LpOnCompositions, HistoriesAfterTheLastAllowedPairAreFinal) {
  // The same early-ending tree for the exact LP of HSV L4.7 (both solvers): at the exact δ(2) = 1/3
  // of RR₂ ⊗ RR₃ (E.9 F1) a simulator exists (LYU-DECOMP builds one above), so the LP must be
  // feasible and its simulator must verify; one notch below δ(2) it must be infeasible.
  const Game g = concurrent({rr_game(Rational(2)), rr_game(Rational(3))});
  const LikelihoodTree tree = likelihood_tree(g, 3);
  for (const LpSolver solver : {LpSolver::subtree, LpSolver::dense}) {
    SimulatorLpOptions o;
    o.solver = solver;
    const SimulatorBuild at = lp_simulator(tree, Rational(2), q(1, 3), o);
    const auto* sim = std::get_if<Simulator>(&at);
    ASSERT_NE(sim, nullptr) << std::get<SimulatorRefusal>(at).reason;
    EXPECT_TRUE(verify_simulator(tree, *sim).verified);
    EXPECT_TRUE(std::holds_alternative<SimulatorRefusal>(lp_simulator(tree, Rational(2), q(1, 3) - q(1, 1000), o)));
  }
}

}  // namespace
}  // namespace exactdp::testing
