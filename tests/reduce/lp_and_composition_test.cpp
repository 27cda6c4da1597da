// The exact LP of HSV Lemma 4.7 (THEOREMS.md B.10), the IRR constraints of HSV Lemma 5.6(2) on
// its counterexample Mir_p (D.13), and product simulators of concurrent compositions (B.12).
#include "reduce/reduce_fixtures.hpp"

#include "exactdp/game/engine.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/library/library.hpp"
#include "support/paths.hpp"

#include <filesystem>

#include <gtest/gtest.h>

namespace exactdp {
namespace {

using testing::child;
using testing::q;

Simulator built(const SimulatorBuild& b) {
  if (auto* r = std::get_if<SimulatorRefusal>(&b)) ADD_FAILURE() << "refused: " << r->reason;
  return std::get<Simulator>(b);
}

TEST(MirP, IsLn2QuarterDPByTheEngine) {
  // D.13: view laws world 0: (a1,X) 1/4, (a1,Y) 1/4, (a2,Y) 1/2; world 1 mirrored. By hand,
  // H₂(V₀‖V₁) = (1/4 − 0)⁺ + (1/4 − 2·1/2)⁺ + (1/2 − 2·1/4)⁺ = 1/4, and the same backwards.
  const auto e = worst_case_hockey_stick(testing::mir(q(1, 2)), q(2));
  EXPECT_EQ(e.forward, q(1, 4));
  EXPECT_EQ(e.backward, q(1, 4));
}

TEST(MirP, IdenticalLawNodesAreTheTwoFirstAnswers) {
  // the first answer has the same law (1/2, 1/2) in both worlds, the second does not
  const LikelihoodTree t = likelihood_tree(testing::mir(q(1, 2)));
  EXPECT_EQ(identical_law_nodes(t), (std::vector<std::size_t>{child(t, 0, 0, "a1"), child(t, 0, 0, "a2")}));
}

TEST(MirP, TheExplicitSimulatorOfD13Verifies) {
  // D.13 (p = 1/2, λ = 2, δ = 1/4): (Leak,0) → a1 then X; (Leak,1) → a2 then X; (NoLeak,0) → a2
  // then Y; (NoLeak,1) → a1 then Y. Written out by hand here, checked by verify_simulator.
  const LikelihoodTree t = likelihood_tree(testing::mir(q(1, 2)));
  const std::size_t a1 = child(t, 0, 0, "a1"), a2 = child(t, 0, 0, "a2");
  const auto outputs = rr_outputs(q(2), q(1, 4));
  Simulator sim{"explicit", q(2), q(1, 4), {}};
  // answers below a1 and a2 are (X, Y) in id order; root answers (a1, a2)
  const std::vector<Rational> first[4] = {{1, 0}, {0, 1}, {0, 1}, {1, 0}};
  const std::vector<Rational> second[4] = {{1, 0}, {1, 0}, {0, 1}, {0, 1}};
  for (int c = 0; c < 4; ++c) {
    SimulatorSystem s{outputs[c].label(), outputs[c], std::vector<std::vector<std::vector<Rational>>>(t.nodes.size())};
    s.conditional[0] = {first[c]};
    s.conditional[a1] = {second[c]};
    s.conditional[a2] = {second[c]};
    sim.systems.push_back(s);
  }
  const auto v = verify_simulator(t, sim);
  EXPECT_TRUE(v.verified) << v.failure;
  // its first answer depends on the RR output — exactly what L5.6(2) forbids
  EXPECT_NE(sim.systems[0].conditional[0][0], sim.systems[1].conditional[0][0]);
}

TEST(MirP, LpIsFeasibleWithoutTheIrrConstraintsAndInfeasibleWithThem) {
  // HSV-L5.6 bullet 2 (catalogue: CLAIM TO MACHINE-CHECK: false). Hand argument (C.5.3): with
  // (S3) the simulator's first answer depends only on the flag, and world 1 never shows (a1,X), so
  // p/2 ≤ δ·K(a1|Leak) and p/2 ≤ δ·K(a2|Leak): p ≤ δ. Hence infeasible for every δ < p = 1/2 —
  // although Mir_{1/2} is (ln 2, 1/4)-DP and the unconstrained LP (LYU22 T3) is feasible there.
  const LikelihoodTree t = likelihood_tree(testing::mir(q(1, 2)));
  SimulatorLpOptions irr;
  irr.irr_constraints = true;
  for (const Rational& delta : {q(1, 4), q(1, 3), q(49, 100)}) {
    const Simulator sim = built(lp_simulator(t, q(2), delta));
    EXPECT_TRUE(verify_simulator(t, sim).verified) << delta;
    const auto constrained = lp_simulator(t, q(2), delta, irr);
    ASSERT_TRUE(std::holds_alternative<SimulatorRefusal>(constrained)) << delta;
    // the refusal rests on a Farkas certificate that lp_simulator checked in exact arithmetic
    EXPECT_NE(std::get<SimulatorRefusal>(constrained).reason.find("Farkas certificate"), std::string::npos);
  }
  // At δ = p the bound p ≤ δ is met, and a hand solution exists: φ^b(a1) = φ^b(a2) = 1/2,
  // ψ^b(a1) = ψ^b(a2) = 1/2, φ⁰(a1,X) = φ¹(a2,X) = 1/2, ψ^b(a1,Y) = ψ^b(a2,Y) = 1/2. The LP finds one.
  const Simulator at_p = built(lp_simulator(t, q(2), q(1, 2), irr));
  EXPECT_TRUE(verify_simulator(t, at_p).verified);
  EXPECT_EQ(at_p.method, "lp+irr");
  // and for p = 1/3 at its own level (λ = 1/(1−p) = 3/2, δ = p/2 = 1/6) the same split
  const LikelihoodTree t3 = likelihood_tree(testing::mir(q(1, 3)));
  EXPECT_EQ(worst_case_hockey_stick(testing::mir(q(1, 3)), q(3, 2)).delta(), q(1, 6));
  EXPECT_TRUE(verify_simulator(t3, built(lp_simulator(t3, q(3, 2), q(1, 6)))).verified);
  EXPECT_TRUE(std::holds_alternative<SimulatorRefusal>(lp_simulator(t3, q(3, 2), q(1, 6), irr)));
}

TEST(SimulatorLp, AgreesWithVwSimOnAPureMechanism) {
  // at δ = 0 the pure decomposition is unique (X-VW-UNIQUE), so the LP's no-leak systems must be
  // VW-SIM's T⁰, T¹ at every reachable node; checked through the likelihoods
  const LikelihoodTree t = likelihood_tree(testing::mp());
  const Simulator lp = built(lp_simulator(t, q(8), q(0)));
  const Simulator vw = built(vw_simulator(t, q(8)));
  EXPECT_TRUE(verify_simulator(t, lp).verified);
  for (int c = 0; c < 2; ++c)
    EXPECT_EQ(system_likelihoods(t, lp.systems[2 + c]), system_likelihoods(t, vw.systems[c]));
  // below the pure level the LP is infeasible at δ = 0 (VW21 T5.2 is an "iff")
  EXPECT_TRUE(std::holds_alternative<SimulatorRefusal>(lp_simulator(t, q(7), q(0))));
}

TEST(SimulatorLp, RefusesTreesTooLargeForTheDenseLp) {
  SimulatorLpOptions small;
  small.max_nodes = 10;
  EXPECT_THROW(lp_simulator(likelihood_tree(testing::mp()), q(8), q(0), small), GameTooLarge);
}

TEST(SimulatorLp, DenseSolverRefusesAnLpAboveItsMemoryEstimate) {
  SimulatorLpOptions dense;
  dense.solver = LpSolver::dense;
  dense.max_memory_bytes = 1000;
  const LikelihoodTree t = likelihood_tree(testing::mp());
  try {
    lp_simulator(t, q(8), q(0), dense);
    FAIL() << "expected a refusal";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "memory");
    EXPECT_EQ(e.value(), std::to_string(lp_memory_estimate(t, q(0), false)) + " bytes");
  }
  // the subtree solver has no such limit and builds the same (unique, X-VW-UNIQUE) no-leak systems
  const Simulator sub = built(lp_simulator(t, q(8), q(0)));
  dense.max_memory_bytes = std::uint64_t{1} << 30;
  const Simulator full = built(lp_simulator(t, q(8), q(0), dense));
  for (int c = 2; c < 4; ++c) EXPECT_EQ(system_likelihoods(t, sub.systems[c]), system_likelihoods(t, full.systems[c]));
}

TEST(SimulatorLp, SubtreeSolverReachesTreesAboveTheDenseLimit) {
  // the SVT counter of E.10 H12 at horizon 2 has 349 histories (the dense LP stopped at 300); its
  // exact δ(2) comes from the engine (BI-δ, a different algorithm): feasible there, infeasible at 9/10 of it
  library::SparseVectorParams p;
  p.r_threshold = q(1, 4);
  p.r_query = q(1, 2);
  p.queries = 2;
  const Game g = library::svt_counter(p, {0, 1, 2});
  const LikelihoodTree t = likelihood_tree(g);
  ASSERT_EQ(t.nodes.size(), 349u);
  const Rational delta = worst_case_hockey_stick(g, q(2)).delta();
  ASSERT_GT(delta, 0);
  EXPECT_TRUE(verify_simulator(t, built(lp_simulator(t, q(2), delta))).verified);
  const auto below = lp_simulator(t, q(2), delta * 9 / 10);
  ASSERT_TRUE(std::holds_alternative<SimulatorRefusal>(below));
  EXPECT_NE(std::get<SimulatorRefusal>(below).reason.find("misses (1, 1)"), std::string::npos);
  // at the pure level 418/157 (E.10 H12, T = 2) the δ = 0 LP is feasible
  EXPECT_TRUE(verify_simulator(t, built(lp_simulator(t, q(418, 157), q(0)))).verified);
}

TEST(ProductSimulator, ProductOfVwSimulatorsReproducesTheConcurrentComposition) {
  // B.12: Σ_{c₁,c₂} w₁w₂·T₁T₂ = ConComp^b on every composed history (X-FACTOR). Independent check of
  // the product itself: its pure level is 4·8 = 32 by the engine (X-PURE-PRODUCT, VW21 T3.1).
  const Game r2 = testing::r2(), mp = testing::mp();
  const Game both = concurrent_product(r2, mp);
  EXPECT_EQ(worst_case_ratio(both).max(), ExtendedRational(q(32)));
  const LikelihoodTree t1 = likelihood_tree(r2), t2 = likelihood_tree(mp), t = likelihood_tree(both);
  const Simulator s1 = built(vw_simulator(t1, q(4))), s2 = built(vw_simulator(t2, q(8)));
  const Simulator prod = product_simulator(t, {&t1, &s1}, {&t2, &s2});
  EXPECT_EQ(prod.systems.size(), 4u);
  const auto v = verify_simulator(t, prod);
  EXPECT_TRUE(v.verified) << v.failure;
  EXPECT_GT(v.full_histories, 100u);
  // a wrong component simulator (T⁰ and T¹ swapped at the root of R2) breaks the product identity
  Simulator bad = s1;
  std::swap(bad.systems[0].conditional[0], bad.systems[1].conditional[0]);
  EXPECT_FALSE(verify_simulator(t, product_simulator(t, {&t1, &bad}, {&t2, &s2})).verified);
}

TEST(ProductSimulator, ProductOfLyuAndVwSimulators) {
  // MA at (4, 1/15) (LYU-DECOMP) with R2 at 4 (VW-SIM): the product of RR_{ln4,1/15} and RR_{ln4}
  const Game ma = testing::ma(), r2 = testing::r2();
  const LikelihoodTree t1 = likelihood_tree(ma), t2 = likelihood_tree(r2), t = likelihood_tree(concurrent_product(ma, r2));
  const auto d = std::get<LyuDecomposition>(lyu_decomposition(t1, q(4), q(1, 15)));
  const Simulator s2 = built(vw_simulator(t2, q(4)));
  const auto v = verify_simulator(t, product_simulator(t, {&t1, &d.simulator}, {&t2, &s2}));
  EXPECT_TRUE(v.verified) << v.failure;
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

using testing::spec_dir;

/// The answer names along a history (the message names may differ, e.g. "q" and "*").
std::vector<std::string> answers(const LikelihoodTree& t, std::size_t n) {
  std::vector<std::string> out;
  for (const auto& [pair, a] : t.history(n)) out.push_back(t.mechanism->answer_name(a));
  return out;
}

/// Same histories (by answer names) with the same likelihoods in both worlds.
void expect_same_tree(const LikelihoodTree& a, const LikelihoodTree& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t n = 0; n < a.nodes.size(); ++n) {
    EXPECT_EQ(answers(a, n), answers(b, n));
    EXPECT_EQ(a.nodes[n].likelihood, b.nodes[n].likelihood) << a.describe(n);
  }
}

TEST(BundledSpecs, R2AndMirHalfMatchTheFixtures) {
  // the spec files used by `exactdp simulate` tests encode D.16's R2 and D.13's Mir_{1/2}
  expect_same_tree(likelihood_tree(load_spec_file(spec_dir() / "r2.json")), likelihood_tree(testing::r2()));
  const Game mir = load_spec_file(spec_dir() / "mir-half.json");
  const LikelihoodTree fixture = likelihood_tree(testing::mir(testing::q(1, 2)));
  expect_same_tree(likelihood_tree(mir), fixture);
}

}  // namespace
}  // namespace exactdp
