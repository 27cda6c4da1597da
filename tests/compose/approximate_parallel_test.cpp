// approximate_parallel_composition (HSV D5.3, f_{∞,δ′}^{ε₁..ε_k}) against hand-derived values on
// copies of M_δ (THEOREMS.md D.11): the product budget over every created instance, the sparsity
// condition on λ only, and the errors for a bad budget.
#include "compose/compose_fixtures.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>

namespace exactdp::testing {
namespace {

MenuEntry m_entry(const std::string& name, const Rational& delta, const Rational& lambda) {
  return MenuEntry{name, m_delta_game(delta), LaunchParameters{lambda, delta, std::nullopt}};
}

LaunchOptions limits(std::size_t instances, unsigned horizon) {
  LaunchOptions o;
  o.max_instances = instances;
  o.horizon = horizon;
  return o;
}

TEST(ApproximateParallelComposition, ProductBudgetAdmitsExactlyTheCopiesItPaysFor) {
  // δ′ = 1 − (3/4)² admits two copies of M_{1/4}; a third creation halts the composition. The
  // adversary of HSV T5.2 then reaches 1 − (3/4)² = 7/16 at every λ (hand-derived, as in T5.2).
  const Game two = approximate_parallel_composition({m_entry("M", q(1, 4), Rational(2))}, {Rational(2)}, q(7, 16), limits(3, 7));
  EXPECT_EQ(worst_case_hockey_stick(two, Rational(1)).delta(), q(7, 16));
  EXPECT_EQ(worst_case_hockey_stick(two, Rational(8)).delta(), q(7, 16));
  // δ′ = 1/4 admits one copy only: the value is M_{1/4}'s own 1/4.
  const Game one = approximate_parallel_composition({m_entry("M", q(1, 4), Rational(2))}, {Rational(2)}, q(1, 4), limits(3, 7));
  EXPECT_EQ(worst_case_hockey_stick(one, Rational(1)).delta(), q(1, 4));
}

TEST(ApproximateParallelComposition, SparsityComparesLambdasOnly) {
  // M_{1/4} (A) and M_{1/10} (B), both declared with λ = 2, at most two instances, the multiset {2}.
  // With the product budget 13/40 = 1 − (3/4)(9/10) the adversary creates A and B and sends the
  // differing pair to whichever answers "bot" first: 1/4 + (3/4)(1/10) = 13/40 (two A's would cost
  // 7/16 > 13/40 and are refused). Without a budget (δ′ = 1) two A's give 1 − (3/4)² = 7/16.
  const std::vector<MenuEntry> menu{m_entry("A", q(1, 4), Rational(2)), m_entry("B", q(1, 10), Rational(2))};
  const Game budgeted = approximate_parallel_composition(menu, {Rational(2)}, q(13, 40), limits(2, 5));
  EXPECT_EQ(worst_case_hockey_stick(budgeted, Rational(1)).delta(), q(13, 40));
  const Game unbudgeted = approximate_parallel_composition(menu, {Rational(2)}, Rational(1), limits(2, 5));
  EXPECT_EQ(worst_case_hockey_stick(unbudgeted, Rational(1)).delta(), q(7, 16));
  // parallel_composition matches (λ, δ): with the budget {(2, 1/10)} only B instances may receive a
  // differing pair, so the best is two B's: 1 − (9/10)² = 19/100.
  const Game by_pair = parallel_composition(menu, {LaunchParameters{Rational(2), q(1, 10), std::nullopt}}, false, limits(2, 5));
  EXPECT_EQ(worst_case_hockey_stick(by_pair, Rational(1)).delta(), q(19, 100));
}

TEST(ApproximateParallelComposition, BadBudgetsAreRefusedWithTheField) {
  const std::vector<MenuEntry> menu{m_entry("M", q(1, 4), Rational(2))};
  try {
    approximate_parallel_composition(menu, {Rational(2)}, q(3, 2), limits(1, 3));
    FAIL() << "delta' = 3/2 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("delta_budget"), std::string::npos) << e.what();
  }
  try {
    approximate_parallel_composition(menu, {q(1, 2)}, q(1, 4), limits(1, 3));
    FAIL() << "lambda = 1/2 accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("sparse_lambdas/0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace exactdp::testing
