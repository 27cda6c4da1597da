// RapidCheck laws of the reductions (THEOREMS.md E.6 "Random stress"): random small system pairs
// (T ≤ 3, alphabets ≤ 3, zero entries allowed) at their exact parameters always decompose and
// verify, just below them never; the LP and the constructive routes agree on feasibility. The
// exact parameters come from the game engine (B.5 pure ratio, B.2 BI-δ over belief pairs) — a
// different algorithm from the tree recursions inside reduce/.
#include "reduce/reduce_fixtures.hpp"

#include "exactdp/game/engine.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using testing::RandomShape;
using testing::random_system_pair;

rc::Gen<RandomShape> shape(int max_horizon, int max_queries, int max_answers) {
  return rc::gen::apply([](int t, int qs, int as) { return RandomShape{t, qs, as}; }, rc::gen::inRange(1, max_horizon + 1),
                        rc::gen::inRange(1, max_queries + 1), rc::gen::inRange(2, max_answers + 1));
}

rc::Gen<std::vector<int>> weights(int lo, int hi) {
  return rc::gen::resize(40, rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(lo, hi + 1))));
}

/// γ ∈ (1, 4] as 1 + n/d.
rc::Gen<Rational> gamma_gen() {
  return rc::gen::apply([](int n, int d) { return testing::q(d + n, d); }, rc::gen::inRange(1, 13), rc::gen::inRange(1, 5));
}

RC_GTEST_PROP(ReduceLaws, VwSimVerifiesAtTheExactPureLevelAndRefusesBelow, ()) {
  const RandomShape s = *shape(3, 2, 3);
  // weights ≥ 1: every answer has positive probability, so the pure level is finite
  const Game g = random_system_pair(s, *weights(1, 4));
  const auto ratio = worst_case_ratio(g).max();
  RC_ASSERT(ratio.is_finite());
  const Rational gamma = ratio.value();
  RC_CLASSIFY(gamma > 1, "gamma > 1");
  const LikelihoodTree t = likelihood_tree(g);
  const auto b = vw_simulator(t, gamma);
  RC_ASSERT(std::holds_alternative<Simulator>(b));
  const auto v = verify_simulator(t, std::get<Simulator>(b));
  RC_ASSERT(v.verified);
  if (gamma > 1) {
    const Rational below = (1 + gamma) / 2;
    RC_ASSERT(std::holds_alternative<SimulatorRefusal>(vw_simulator(t, below)));
  }
}

RC_GTEST_PROP(ReduceLaws, LyuDecompVerifiesAtTheExactDeltaAndAboveAndFailsBelow, ()) {
  const RandomShape s = *shape(3, 2, 3);
  const Game g = random_system_pair(s, *weights(0, 3));  // zero entries allowed
  const Rational gamma = *gamma_gen();
  const Rational delta = worst_case_hockey_stick(g, gamma).delta();
  RC_CLASSIFY(sgn(delta) > 0, "delta > 0");
  const LikelihoodTree t = likelihood_tree(g);
  for (const Rational& d : {delta, Rational(delta + (1 - delta) / 3)}) {
    const auto b = lyu_decomposition(t, gamma, d);
    if (auto* r = std::get_if<SimulatorRefusal>(&b)) RC_FAIL("refused at δ = " + to_string(d) + ": " + r->reason);
    const auto& dec = std::get<LyuDecomposition>(b);
    RC_ASSERT(dec.invariants_checked == t.nodes.size());
    const auto v = verify_simulator(t, dec.simulator);
    if (!v.verified) RC_FAIL(v.failure);
  }
  if (sgn(delta) > 0) RC_ASSERT(std::holds_alternative<SimulatorRefusal>(lyu_decomposition(t, gamma, delta / 2)));
}

RC_GTEST_PROP(ReduceLaws, LpAndConstructiveRoutesAgreeOnFeasibility, ()) {
  const RandomShape s = *shape(2, 2, 2);  // the dense exact LP stays small
  const Game g = random_system_pair(s, *weights(0, 3));
  const Rational gamma = *gamma_gen();
  const Rational delta = worst_case_hockey_stick(g, gamma).delta();
  const LikelihoodTree t = likelihood_tree(g);
  RC_CLASSIFY(sgn(delta) > 0, "delta > 0");
  // at the exact δ(γ): both build, both verify
  const auto lp = lp_simulator(t, gamma, delta);
  RC_ASSERT(std::holds_alternative<Simulator>(lp));
  RC_ASSERT(verify_simulator(t, std::get<Simulator>(lp)).verified);
  RC_ASSERT(std::holds_alternative<LyuDecomposition>(lyu_decomposition(t, gamma, delta)));
  // below it: neither exists
  if (sgn(delta) > 0) {
    const Rational below = delta * 9 / 10;
    RC_ASSERT(std::holds_alternative<SimulatorRefusal>(lp_simulator(t, gamma, below)));
    RC_ASSERT(std::holds_alternative<SimulatorRefusal>(lyu_decomposition(t, gamma, below)));
  }
}

RC_GTEST_PROP(ReduceLaws, SubtreeAndDenseLpSolversAgree, ()) {
  // the polygon propagation of the subtree solver and cddlib's dense simplex are independent exact
  // routes to the same LP: same feasibility with and without (S3), and both simulators verify
  const RandomShape s = *shape(2, 2, 3);
  const Game g = random_system_pair(s, *weights(0, 3));
  const Rational gamma = *rc::gen::apply([](int n, int d) { return testing::q(d + n, d); }, rc::gen::inRange(0, 13), rc::gen::inRange(1, 5));
  const Rational delta = *rc::gen::apply([](int n) { return testing::q(n, 12); }, rc::gen::inRange(0, 13));
  const bool irr = *rc::gen::arbitrary<bool>();
  const LikelihoodTree t = likelihood_tree(g);
  SimulatorLpOptions subtree, dense;
  subtree.irr_constraints = dense.irr_constraints = irr;
  subtree.dense_confirmation_nodes = 0;  // no cross-check inside: the property is the cross-check
  dense.solver = LpSolver::dense;
  const auto a = lp_simulator(t, gamma, delta, subtree), b = lp_simulator(t, gamma, delta, dense);
  RC_CLASSIFY(std::holds_alternative<Simulator>(a), "feasible");
  RC_ASSERT(std::holds_alternative<Simulator>(a) == std::holds_alternative<Simulator>(b));
  if (auto* sim = std::get_if<Simulator>(&a)) {
    const auto v = verify_simulator(t, *sim);
    if (!v.verified) RC_FAIL("subtree: " + v.failure);
    RC_ASSERT(verify_simulator(t, std::get<Simulator>(b)).verified);
  }
  if (!irr && gamma > 1) {  // without (S3), feasibility is exactly δ(γ) ≤ δ (HSV L4.7, LYU22 T3 need γ > 1)
    RC_ASSERT(std::holds_alternative<Simulator>(a) == (worst_case_hockey_stick(g, gamma).delta() <= delta));
  }
}

RC_GTEST_PROP(ReduceLaws, ProductOfComponentSimulatorsReproducesTheComposition, ()) {
  const Game g1 = random_system_pair(*shape(1, 2, 2), *weights(1, 3));
  const Game g2 = random_system_pair(*shape(2, 1, 2), *weights(0, 3));
  const LikelihoodTree t1 = likelihood_tree(g1), t2 = likelihood_tree(g2);
  const LikelihoodTree t = likelihood_tree(concurrent_product(g1, g2));
  const Rational gamma1 = worst_case_ratio(g1).max().value();
  const Rational gamma2 = *gamma_gen();
  const Simulator s1 = std::get<Simulator>(vw_simulator(t1, gamma1));
  const auto d2 = std::get<LyuDecomposition>(lyu_decomposition(t2, gamma2, worst_case_hockey_stick(g2, gamma2).delta()));
  const auto v = verify_simulator(t, product_simulator(t, {&t1, &s1}, {&t2, &d2.simulator}));
  if (!v.verified) RC_FAIL(v.failure);
}

}  // namespace
}  // namespace exactdp
