#include "exactdp/bounds/composition_bounds.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace exactdp {
namespace {

using bounds_test::copies;
using bounds_test::encloses_reference;
using bounds_test::gen_components;
using bounds_test::q;
using bounds_test::ratio;

/// A certified lower bound λ_lo ≤ e^ε of a returned ε (sound use, THEOREMS.md B.15): if
/// δ_opt(λ_lo) ≤ δ then, δ_opt being non-increasing, δ_opt(e^ε) ≤ δ.
Rational lambda_lower(const Interval& epsilon) { return exp(epsilon).lower(); }

// ---------------------------------------------------------------- THEOREMS.md E.4
// Values from the THEOREMS.md catalogue, E.4 (computed there by two independent exact programs).
// Routes here: VW by the sorting rule and by enumerating orders; basic by the sums; δ_opt by the
// privacy-loss distribution (itself cross-checked against brute force in optimal_composition_test).

TEST(VwBound, ReproducesCatalogueE4) {
  struct Row {
    std::vector<LambdaDelta> components;
    LambdaDelta vw, basic;
    const char* optimal;
  };
  const std::vector<Row> rows = {
      {copies(Rational(2), q("1/10"), 2), {Rational(4), q("3/10")}, {Rational(4), q("1/5")}, "19/100"},
      {copies(Rational(2), q("1/100"), 3), {Rational(8), q("7/100")}, {Rational(8), q("3/100")}, "29701/1000000"},
      {{{Rational(2), q("1/10")}, {Rational(3), q("1/100")}}, {Rational(6), q("3/25")}, {Rational(6), q("11/100")},
       "109/1000"},
  };
  for (const auto& row : rows) {
    EXPECT_EQ(vw_concurrent_bound(row.components), row.vw);
    EXPECT_EQ(vw_concurrent_bound_by_enumeration(row.components), row.vw);
    EXPECT_EQ(basic_composition(row.components), row.basic);
    EXPECT_EQ(optimal_composition_delta(row.components, row.vw.lambda), q(row.optimal));
  }
  // "this order; the other order gives 31/100"
  const std::vector<LambdaDelta> mixed = {{Rational(2), q("1/10")}, {Rational(3), q("1/100")}};
  EXPECT_EQ(vw_delta_for_order(mixed, std::vector<std::size_t>{0, 1}), q("3/25"));
  EXPECT_EQ(vw_delta_for_order(mixed, std::vector<std::size_t>{1, 0}), q("31/100"));
  EXPECT_EQ(vw_optimal_order(mixed), (std::vector<std::size_t>{0, 1}));
}

TEST(VwBound, OrderMustBeAPermutation) {
  const auto c = copies(Rational(2), q("1/10"), 2);
  EXPECT_THROW(vw_delta_for_order(c, std::vector<std::size_t>{0, 0}), Error);
  EXPECT_THROW(vw_delta_for_order(c, std::vector<std::size_t>{0}), Error);
  EXPECT_THROW(vw_delta_for_order(c, std::vector<std::size_t>{0, 2}), Error);
  EXPECT_THROW(vw_concurrent_bound_by_enumeration(copies(Rational(2), 0, 9)), Error);
}

// The sorting rule of B.11 attains the minimum over all k! orders.
RC_GTEST_PROP(VwBound, SortingRuleEqualsPermutationBruteForce, ()) {
  const auto components = gen_components(5);
  RC_ASSERT(vw_concurrent_bound(components) == vw_concurrent_bound_by_enumeration(components));
}

// Homogeneous: δ_g = δ(λ^k − 1)/(λ − 1) (the group-privacy bound), and δ_g = kδ when λ = 1.
RC_GTEST_PROP(VwBound, HomogeneousGroupPrivacyForm, ()) {
  const auto c = bounds_test::gen_component();
  const unsigned long k = static_cast<unsigned long>(*rc::gen::inRange(1, 8));
  const Rational expected = c.lambda == 1 ? Rational(k * c.delta) : Rational(c.delta * (pow(c.lambda, k) - 1) / (c.lambda - 1));
  RC_ASSERT(vw_concurrent_bound(copies(c.lambda, c.delta, k)) == (LambdaDelta{pow(c.lambda, k), expected}));
}

// δ_g(VW) ≥ Σδ_i (basic) ≥ δ_opt(Πλ_i) (BG-DKMMN06-BASIC check; B.11 "always").
RC_GTEST_PROP(BasicComposition, DominatesOptimalAndIsDominatedByVw, ()) {
  const auto components = gen_components(4);
  const LambdaDelta basic = basic_composition(components);
  RC_ASSERT(optimal_composition_delta(components, basic.lambda) <= basic.delta);
  RC_ASSERT(vw_concurrent_bound(components).delta >= basic.delta);
  RC_ASSERT(vw_concurrent_bound(components).lambda == basic.lambda);
}

TEST(BasicComposition, SumsAndMultiplies) {
  const std::vector<LambdaDelta> c = {{Rational(2), q("1/10")}, {Rational(3), q("1/5")}, {q("3/2"), 0}};
  EXPECT_EQ(basic_composition(c), (LambdaDelta{Rational(9), q("3/10")}));
  EXPECT_THROW(basic_composition(std::vector<LambdaDelta>{}), Error);
  try {
    basic_composition(std::vector<LambdaDelta>{{q("1/2"), 0}});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "lambda[0]");
    EXPECT_EQ(e.value(), "1/2");
  }
}

// ---------------------------------------------------------------- advanced composition (DRV10)

// THEOREMS.md E.3: RR_{ln(11/10)} × 10, δ′ = 1/1000: DRV gives √(20 ln 1000)·ln 1.1 + 10·ln 1.1·0.1
// ≈ 1.2155803 (worse than basic, 10 ln 1.1 ≈ 0.9531018); the 40-digit reference below was computed
// independently with mpmath at 40 digits.
TEST(AdvancedComposition, CatalogueE3Example) {
  const auto adv = advanced_composition(epsilon_of(q("11/10")), 0, 10, q("1/1000"));
  EXPECT_TRUE(encloses_reference(adv.epsilon, "1.215580314840790292182657341974332505436"));
  EXPECT_EQ(adv.delta, q("1/1000"));
  // sound: the optimal composition at a certified lower bound of e^{ε′} meets δ
  EXPECT_LE(optimal_composition_delta(q("11/10"), 0, 10, lambda_lower(adv.epsilon)), adv.delta);
  // and looser than the optimum λ_g = 81684104240933/40000000000000 (E.3)
  EXPECT_GT(lambda_lower(adv.epsilon), q("81684104240933/40000000000000"));
}

TEST(AdvancedComposition, RejectsBadParameters) {
  EXPECT_THROW(advanced_composition(Interval(Rational(-1)), 0, 2, q("1/10")), Error);
  EXPECT_THROW(advanced_composition(Interval(Rational(1)), 0, 0, q("1/10")), Error);
  EXPECT_THROW(advanced_composition(Interval(Rational(1)), 0, 2, 0), Error);
  EXPECT_THROW(advanced_composition(Interval(Rational(1)), q("11/10"), 2, q("1/10")), Error);
}

RC_GTEST_PROP(AdvancedComposition, IsSoundAgainstOptimalComposition, ()) {
  const auto c = bounds_test::gen_component();
  const unsigned long k = static_cast<unsigned long>(*rc::gen::inRange(1, 13));
  const Rational delta_prime = ratio(*rc::gen::inRange(1, 101), 1000);
  const auto adv = advanced_composition(epsilon_of(c.lambda), c.delta, k, delta_prime);
  RC_ASSERT(adv.delta == k * c.delta + delta_prime);
  RC_ASSERT(optimal_composition_delta(c.lambda, c.delta, k, lambda_lower(adv.epsilon)) <= adv.delta);
}

// ---------------------------------------------------------------- KOV15 Thm 3.4 / 3.5

// For the E.3 parameters (ε = ln 1.1, k = 10, δ̃ = 1/1000) the minimum is the first term kε.
TEST(KovBound, HomogeneousCatalogueE3Parameters) {
  const auto b = kov_homogeneous_bound(epsilon_of(q("11/10")), 0, 10, q("1/1000"));
  EXPECT_TRUE(encloses_reference(b.epsilon, "0.9531017980432486004395212328076509222061"));
  EXPECT_EQ(b.delta, q("1/1000"));
  EXPECT_LE(optimal_composition_delta(q("11/10"), 0, 10, lambda_lower(b.epsilon)), b.delta);
  // for δ = 1/10 the total δ is 1 − (9/10)^k (1 − δ̃)
  EXPECT_EQ(kov_homogeneous_bound(epsilon_of(Rational(2)), q("1/10"), 3, q("1/2")).delta,
            1 - pow(q("9/10"), 3) * q("1/2"));
}

// Large k, small ε: the √k term wins over kε, and the bound is still sound.
TEST(KovBound, HomogeneousSqrtRegimeIsSound) {
  const Rational lambda = q("101/100");
  const auto b = kov_homogeneous_bound(epsilon_of(lambda), 0, 400, q("1/100000"));
  const Interval kε = Interval(Rational(400)) * epsilon_of(lambda);
  EXPECT_LT(b.epsilon.upper(), kε.lower());
  EXPECT_LE(optimal_composition_delta(lambda, 0, 400, lambda_lower(b.epsilon)), b.delta);
}

RC_GTEST_PROP(KovBound, HeterogeneousIsSoundAgainstOptimalComposition, ()) {
  const auto components = gen_components(4);
  const Rational delta_tilde = ratio(*rc::gen::inRange(1, 11), 20);
  const auto b = kov_heterogeneous_bound(components, delta_tilde);
  Rational no_leak(1);
  for (const auto& c : components) no_leak *= 1 - c.delta;
  RC_ASSERT(b.delta == 1 - (1 - delta_tilde) * no_leak);
  RC_ASSERT(optimal_composition_delta(components, lambda_lower(b.epsilon)) <= b.delta);
}

// Thm 3.4 is Thm 3.5 with equal ε_i (B.11): the two enclosures overlap, and both are sound.
RC_GTEST_PROP(KovBound, HomogeneousEqualsHeterogeneousWithEqualComponents, ()) {
  const auto c = bounds_test::gen_component();
  const unsigned long k = static_cast<unsigned long>(*rc::gen::inRange(1, 16));
  const Rational delta_tilde = ratio(*rc::gen::inRange(1, 11), 100);
  const auto hom = kov_homogeneous_bound(epsilon_of(c.lambda), c.delta, k, delta_tilde);
  const auto het = kov_heterogeneous_bound(copies(c.lambda, c.delta, k), delta_tilde);
  RC_ASSERT(hom.delta == het.delta);
  RC_ASSERT(hom.epsilon.lower() <= het.epsilon.upper());
  RC_ASSERT(het.epsilon.lower() <= hom.epsilon.upper());
  RC_ASSERT(optimal_composition_delta(c.lambda, c.delta, k, lambda_lower(hom.epsilon)) <= hom.delta);
}

TEST(KovBound, RejectsBadParameters) {
  EXPECT_THROW(kov_homogeneous_bound(Interval(Rational(1)), 0, 2, 0), Error);
  EXPECT_THROW(kov_homogeneous_bound(Interval(Rational(1)), 0, 2, q("3/2")), Error);
  EXPECT_THROW(kov_heterogeneous_bound(std::vector<LambdaDelta>{}, q("1/2")), Error);
  const std::vector<EpsilonDelta> negative = {{Interval(Rational(-1)), Rational(0)}};
  try {
    kov_heterogeneous_bound(negative, q("1/2"));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "epsilon[0]");
  }
}

}  // namespace
}  // namespace exactdp
