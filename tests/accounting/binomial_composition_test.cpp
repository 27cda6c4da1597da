// The certified binomial closed form of k-fold randomized response (accounting/binomial_composition.hpp)
// against two independent routes: the exact privacy-loss distribution (rational arithmetic,
// PrivacyLoss::self_compose) at small k, and a 40-digit mpmath sum at k = 10^8
// (tests/accounting/reference/rr_binomial_mpmath.py: every term from log-gamma and the ratio
// recurrence over ±40 standard deviations, no tail bound).
#include "exactdp/accounting/binomial_composition.hpp"
#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/mechanism/certified_noninteractive.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

Rational q(long n, long d = 1) {
  Rational r(n, d);
  r.canonicalize();
  return r;
}

// δ(λ_g) at exact λ_g, least ε at δ: the enclosures contain the exact values of the composed PLD.
TEST(BinomialComposition, AgreesWithTheExactCompositionAtSmallK) {
  for (const auto& [spec, lambda, delta] : {std::tuple{"rr:lambda=3/2", q(3, 2), q(0)}, std::tuple{"rr:lambda=5,delta=1/50", q(5), q(1, 50)},
                                            std::tuple{"dlaplace:r=1/3", q(3), q(0)}}) {
    const PrivacyLoss one = *parse_mechanism_spec(spec).exact_loss();
    for (unsigned long k : {1ul, 2ul, 7ul, 40ul, 301ul}) {
      const PrivacyProfile exact(one.self_compose(k));
      const BinomialComposition closed(Interval(lambda, 128), delta, k);
      for (const Rational& lg : {q(1), q(2), q(17, 3), q(1000)}) {
        const Interval d = closed.delta_at_lambda(Interval(lg, 128));
        EXPECT_TRUE(d.contains(exact.delta(lg))) << spec << " k=" << k << " λ_g=" << to_string(lg) << ": " << d.to_string(20);
        EXPECT_LT(d.width_upper(), pow2(-100)) << spec << " k=" << k;
      }
      for (const Rational& target : {q(0), q(1, 100000), q(1, 10), q(1, 2)}) {
        const ExtendedRational least = exact.least_lambda(target);
        const Interval eps = closed.least_epsilon(target);
        if (least.is_infinite()) {
          EXPECT_FALSE(eps.lower_is_finite()) << spec << " k=" << k;
          continue;
        }
        ASSERT_TRUE(eps.upper_is_finite()) << spec << " k=" << k;
        const Interval lambda_g = exp(eps);
        EXPECT_TRUE(lambda_g.contains(least.value()) || (least.value() == 1 && eps.upper() == 0))
            << spec << " k=" << k << " δ=" << to_string(target) << ": " << lambda_g.to_string(20) << " vs " << to_string(least.value());
      }
    }
  }
}

// RR given by ε (λ = e^ε certified) with δ > 0 against the certified PLD composed by repeated
// squaring (CertifiedLoss::self_compose, a second algorithm over the same certified masses).
TEST(BinomialComposition, AgreesWithRepeatedSquaringForCertifiedLambdaAndPositiveDelta) {
  const Rational eps0 = q(1, 2), delta0 = q(1, 1000000);
  for (unsigned long k : {1ul, 5ul, 33ul}) {
    const BinomialComposition closed(exp(Interval(eps0, 128)), delta0, k);
    const CertifiedLoss squared = randomized_response_loss(eps0, delta0, 128).self_compose(k);
    for (const Rational& e : {q(0), q(1, 3), q(2), q(7)}) {
      const Interval a = closed.delta_at_epsilon(Interval(e, 128)), b = squared.delta_at_epsilon(Interval(e, 128));
      EXPECT_TRUE(a.lower() <= b.upper() && b.lower() <= a.upper()) << "k=" << k << " ε=" << to_string(e) << ": " << a.to_string(20)
                                                                    << " vs " << b.to_string(20);
    }
    for (const Rational& d : {q(1, 10000), q(1, 10)}) {
      const Interval a = closed.least_epsilon(d), b = squared.least_epsilon(d);
      if (!b.lower_is_finite()) {
        EXPECT_FALSE(a.lower_is_finite()) << "k=" << k;
        continue;
      }
      EXPECT_TRUE(a.lower() <= b.upper() && b.lower() <= a.upper()) << "k=" << k << " δ=" << to_string(d) << ": " << a.to_string(20)
                                                                    << " vs " << b.to_string(20);
    }
  }
}

// δ(ε) is a non-increasing function of ε with values in [0, 1] (checked on random small cases,
// enclosures compared where they separate).
RC_GTEST_PROP(BinomialComposition, ProfileIsNonIncreasing, ()) {
  const long num = *rc::gen::inRange(11L, 60L);
  const unsigned long k = *rc::gen::inRange(1L, 400L);
  const long e1 = *rc::gen::inRange(0L, 200L), e2 = *rc::gen::inRange(0L, 200L);
  const BinomialComposition c(Interval(q(num, 10), 96), 0, k);
  const Interval d1 = c.delta_at_epsilon(Interval(q(std::min(e1, e2), 20), 96));
  const Interval d2 = c.delta_at_epsilon(Interval(q(std::max(e1, e2), 20), 96));
  RC_ASSERT(d1.upper() >= d2.lower());
  RC_ASSERT(d2.lower() >= 0);
  RC_ASSERT(d1.upper() <= 1);
}

// k = 10^8, λ = 3/2: mpmath (40 digits) gives δ(8126000) = 1.3141569290048312017e-5,
// δ(8126243.96) = 1.0000002706989927408e-5 > 10^-5 > δ(8126243.961) = 9.9999886205659546159e-6,
// so the least ε at δ = 10^-5 lies in (8126243.96, 8126243.961).
TEST(BinomialComposition, MatchesMpmathAtTenToTheEight) {
  const BinomialComposition c(Interval(q(3, 2), 128), 0, 100000000);
  const Interval d = c.delta_at_epsilon(Interval(q(8126000), 128));
  EXPECT_TRUE(d.lower() < q(13141569290049, 1000000000000000000) && q(13141569290048, 1000000000000000000) < d.upper())
      << d.to_string(25);
  const Interval eps = c.least_epsilon(q(1, 100000));
  EXPECT_TRUE(q(812624396, 100) < eps.lower() && eps.upper() < q(8126243961, 1000)) << eps.to_string(25);
}

// MechanismSpec's own queries go through the planner: 10^8 uses of an exact-table RR are answered by
// the binomial closed form (the same mpmath reference), not by an exact self-composition.
TEST(BinomialComposition, MechanismSpecQueriesUseThePlanner) {
  const Interval eps = parse_mechanism_spec("rr:lambda=3/2").epsilon_at_delta(q(1, 100000), 100000000);
  EXPECT_TRUE(q(812624396, 100) < eps.lower() && eps.upper() < q(8126243961, 1000)) << eps.to_string(25);
}

// The planner never refuses the 10^8-fold RR: the exact route is skipped for the binomial one.
TEST(CompositionPlan, LongRandomizedResponseTakesTheBinomialRoute) {
  const std::vector<CompositionComponent> comps{{"rr:lambda=3/2", parse_mechanism_spec("rr:lambda=3/2"), std::nullopt, 100000000, std::nullopt}};
  const CompositionPlan plan = plan_composition(comps);
  EXPECT_EQ(plan.route, CompositionRoute::binomial);
  ASSERT_TRUE(plan.exact_bytes.has_value());
  EXPECT_GT(*plan.exact_bytes, Integer(static_cast<unsigned long>(default_memory_budget)));
  const std::vector<CompositionComponent> small{{"rr:lambda=3/2", parse_mechanism_spec("rr:lambda=3/2"), std::nullopt, 100, std::nullopt}};
  EXPECT_EQ(plan_composition(small).route, CompositionRoute::exact);
  PlanOptions tight;
  tight.memory_budget = 1000;  // the 100-fold exact PLD needs more: the binomial route answers
  EXPECT_EQ(plan_composition(small, tight).route, CompositionRoute::binomial);
  // a composition of two different mechanisms over the budget falls to the certified PLD
  const std::vector<CompositionComponent> two{
      {"rr:lambda=3", parse_mechanism_spec("rr:lambda=3"), std::nullopt, 30, std::nullopt},
      {"krr:k=3,lambda=2", parse_mechanism_spec("krr:k=3,lambda=2"), std::nullopt, 20, std::nullopt}};
  EXPECT_EQ(plan_composition(two, tight).route, CompositionRoute::renyi);  // even the certified PLD exceeds 1000 bytes
  PlanOptions medium;
  medium.memory_budget = 10000000;
  medium.max_exact_atoms = 10;
  EXPECT_EQ(plan_composition(two, medium).route, CompositionRoute::certified_loss);
}

/// True when the two enclosures share a point.
bool overlaps(const Interval& a, const Interval& b) {
  return !(a.upper_is_finite() && b.lower_is_finite() && a.upper() < b.lower()) &&
         !(b.upper_is_finite() && a.lower_is_finite() && b.upper() < a.lower());
}

// The fast-convolution route (quasi-linear products on a grid) against the exact route (rational
// PLD of the composed pair, an independent algorithm) at small k: its brackets of δ(ε) and of the
// least ε must contain the exact values. Lattice losses (discrete Laplace, sensitivity 2; k-ary
// RR) and a non-lattice exact pair's spec are covered.
TEST(CompositionPlan, FastConvolutionRouteContainsTheExactValues) {
  for (const char* spec : {"dlaplace:r=1/2,sensitivity=2", "krr:k=3,lambda=2", "dlaplace:r=2/3,sensitivity=3"}) {
    for (unsigned long k : {1ul, 5ul, 12ul}) {
      const std::vector<CompositionComponent> comps{{spec, parse_mechanism_spec(spec), std::nullopt, k, std::nullopt}};
      PlanOptions fast_options;
      fast_options.max_exact_atoms = 0;
      fast_options.max_certified_atoms = 0;
      const CompositionPlan fast_plan = plan_composition(comps, fast_options);
      ASSERT_EQ(fast_plan.route, CompositionRoute::fast_convolution) << spec << " " << fast_plan.reason;
      ASSERT_EQ(plan_composition(comps).route, CompositionRoute::exact) << spec;
      const ComposedPrivacy fast(comps, fast_plan);
      const ComposedPrivacy exact(comps, plan_composition(comps));
      for (const Rational& eps : {q(0), q(1, 2), q(2)}) {
        const Interval e(eps);
        EXPECT_TRUE(overlaps(fast.delta_at_epsilon(e), exact.delta_at_epsilon(e)))
            << spec << " k=" << k << " eps=" << to_string(eps) << ": " << fast.delta_at_epsilon(e).to_string(12) << " vs "
            << exact.delta_at_epsilon(e).to_string(12);
      }
      for (const Rational& d : {q(1, 100000), q(1, 10)}) {
        EXPECT_TRUE(overlaps(fast.least_epsilon(d), exact.least_epsilon(d)))
            << spec << " k=" << k << " delta=" << to_string(d) << ": " << fast.least_epsilon(d).to_string(12) << " vs "
            << exact.least_epsilon(d).to_string(12);
      }
    }
  }
}

// A long composition of a lattice loss the binomial form does not cover is planned on the fast route.
TEST(CompositionPlan, LongDiscreteLaplaceTakesTheFastRoute) {
  const std::vector<CompositionComponent> comps{
      {"dlaplace:r=1/2,sensitivity=2", parse_mechanism_spec("dlaplace:r=1/2,sensitivity=2"), std::nullopt, 100001, std::nullopt}};
  EXPECT_EQ(plan_composition(comps).route, CompositionRoute::fast_convolution);
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

// Gaussians with different σ and sensitivities compose as μ-GDP with μ² = Σ k_i(Δ_i/σ_i)²
// (DRS22 Cor 3.3): 2 uses of σ = 1 and one of σ = 2, Δ = 3 give μ² = 2 + 9/4 = 17/4, the same as
// 17 uses of σ = 2, Δ = 1 — answered by the one-spec closed form (MechanismSpec, another route).
TEST(CompositionPlan, SeveralGaussiansTakeTheGdpClosedForm) {
  const std::vector<CompositionComponent> mix{
      {"gauss:sigma=1", parse_mechanism_spec("gauss:sigma=1"), std::nullopt, 2, std::nullopt},
      {"gauss:sigma=2,sensitivity=3", parse_mechanism_spec("gauss:sigma=2,sensitivity=3"), std::nullopt, 1, std::nullopt}};
  const CompositionPlan plan = plan_composition(mix);
  ASSERT_EQ(plan.route, CompositionRoute::closed_form) << plan.reason;
  const ComposedPrivacy composed(mix, plan);
  const MechanismSpec same = parse_mechanism_spec("gauss:sigma=2");
  for (const Rational& eps : {q(0), q(1), q(5, 2)}) {
    const Interval e(eps);
    EXPECT_TRUE(overlaps(composed.delta_at_epsilon(e), same.delta_at_epsilon(e, 17))) << to_string(eps);
  }
  EXPECT_TRUE(overlaps(composed.least_epsilon(q(1, 100000)), same.epsilon_at_delta(q(1, 100000), 17)));
}

// The grid route answers compose's k-fold and subsampled Laplace: one subsampled use against the
// mpmath integral of SubsampledLaplaceContainsTheIntegral (poisson_test.cpp).
TEST(CompositionPlan, SubsampledLaplaceOneUseInClosedFormSeveralOnTheGrid) {
  CompositionComponent c{"laplace:b=1", parse_mechanism_spec("laplace:b=1"), std::nullopt, 1, std::nullopt};
  c = poisson_subsampled(std::move(c), q(1, 10), true, "test");
  PlanOptions o;
  o.grid_brackets = true;
  // one use: the closed form of bounds/subsampled_laplace.hpp (with or without grid brackets),
  // against the 40-digit quadrature of tests/amplification/poisson_test.cpp
  const std::vector<CompositionComponent> one{c};
  const CompositionPlan plan = plan_composition(one, o);
  ASSERT_EQ(plan.route, CompositionRoute::closed_form) << plan.reason;
  EXPECT_EQ(plan_composition(one).route, CompositionRoute::closed_form);
  const Interval d = ComposedPrivacy(one, plan).delta_at_epsilon(Interval(q(1, 10)));
  const Rational truth = parse_rational("0.01312183088583126543727121655627722302525", "truth");
  EXPECT_LE(d.lower(), truth);
  EXPECT_GE(d.upper(), truth);
  // two uses: the grid bracket; without grid brackets the planner falls to the Rényi route
  c.times = 2;
  const std::vector<CompositionComponent> two{c};
  EXPECT_EQ(plan_composition(two, o).route, CompositionRoute::grid_bracket);
  EXPECT_EQ(plan_composition(two).route, CompositionRoute::renyi);
}

}  // namespace
}  // namespace exactdp
