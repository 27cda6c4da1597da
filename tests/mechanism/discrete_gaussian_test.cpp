// The certified discrete Gaussian (THEOREMS.md D.4, B.11; CKS20). Reference values marked
// "mpmath" were computed independently with mpmath at 60 digits by direct summation
// (nsum over ℤ) of the definitions: θ(0) = Σ e^{−x²/(2σ²)}, Pr[Z = x], the profile
// δ(ε) = Pr[Y > εσ²/Δ − Δ/2] − e^ε·Pr[Y > εσ²/Δ + Δ/2] and D_α via θ.
#include "exactdp/mechanism/discrete_gaussian.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace exactdp {
namespace {

using testing::q;

/// The interval contains a reference given to 25+ significant decimals (to within 10^−24) and
/// is narrower than 10^−20.
void expect_encloses(const Interval& x, const std::string& reference) {
  const Rational ref = parse_rational(reference), slack = parse_rational("1e-24");
  EXPECT_LE(x.lower(), ref + slack) << x.to_string() << " vs " << reference;
  EXPECT_GE(x.upper(), ref - slack) << x.to_string() << " vs " << reference;
  EXPECT_LT(x.width_upper(), parse_rational("1e-20")) << x.to_string();
}

TEST(DiscreteGaussian, NormaliserAndMassesMatchIndependentSums) {
  const DiscreteGaussianNoise noise(2);
  expect_encloses(noise.normaliser(), "3.5449077018110321053393195512618601744");  // mpmath
  expect_encloses(noise.mass(0), "0.28209479177387813943604131384454449162");      // mpmath
  expect_encloses(noise.mass(3), "0.029732572305907342457152486030274939888");     // mpmath
  expect_encloses(noise.mass(-3), "0.029732572305907342457152486030274939888");    // symmetry
}

// The clamped masses: certified total contains 1, and the enclosures at 128 bits contain the far
// narrower enclosures of the same masses at 512 bits.
TEST(DiscreteGaussian, ClampedMassesEncloseHigherPrecisionValues) {
  const auto low = discrete_gaussian(q(5, 2), 1, -6, 9, 128);
  const auto high = discrete_gaussian(q(5, 2), 1, -6, 9, 512);
  EXPECT_TRUE(low.total().contains(Rational(1)));
  EXPECT_TRUE(high.total().contains(Rational(1)));
  ASSERT_EQ(low.size(), 16u);
  for (const auto& [k, m] : high) {
    EXPECT_TRUE(m.subset_of(low.mass(k))) << k << ": " << m.to_string() << " vs " << low.mass(k).to_string();
    EXPECT_LT(low.mass(k).width_upper(), parse_rational("1e-35"));
  }
}

RC_GTEST_PROP(DiscreteGaussian, ClampedTotalContainsOne, ()) {
  const Rational sigma2 = q(*rc::gen::inRange(1, 40), *rc::gen::inRange(1, 5));
  const long lo = *rc::gen::inRange(-8, 1), hi = lo + *rc::gen::inRange(0, 10), v = *rc::gen::inRange(-5, 6);
  RC_ASSERT(discrete_gaussian(sigma2, v, lo, hi, 64).total().contains(Rational(1)));
}

TEST(DiscreteGaussian, ProfileMatchesIndependentSums) {
  expect_encloses(discrete_gaussian_delta(2, 1, q(1, 2)), "0.12935669309155061486253662598582119496");  // mpmath
  expect_encloses(discrete_gaussian_delta(2, 1, Rational(1)), "0.042812088986139830075424080235056795423");  // mpmath
  expect_encloses(discrete_gaussian_delta(2, 2, Rational(3)), "0.023815080462433370325373606102447840202");  // mpmath
}

/// Σ_k (P(k) − λQ(k))⁺ over certified masses: the hockey-stick divergence of the clamped pair.
Interval direct_hockey_stick(const Dist<long, Interval>& P, const Dist<long, Interval>& Q, const Interval& lambda) {
  Interval h = Interval::zero(lambda.precision());
  for (const auto& [k, p] : P) h += max(p - lambda * Q.mass(k), Interval::zero(lambda.precision()));
  return h;
}

// B.11 formula versus the direct sum over the clamped certified masses on a window wide enough
// that the merged tails weigh less than e^{−200} (clamping merges only those): the enclosures
// must overlap, in both directions.
TEST(DiscreteGaussian, ProfileFormulaAgreesWithDirectSumOverClampedMasses) {
  for (unsigned long delta : {1UL, 2UL, 3UL}) {
    const auto pair = discrete_gaussian_pair(q(3, 2), delta, -30, 30 + static_cast<long>(delta));
    for (const Rational& eps : {Rational(0), q(1, 3), Rational(1), q(5, 2)}) {
      const Interval lambda = exp(Interval(eps));
      const Interval formula = discrete_gaussian_delta(q(3, 2), delta, eps);
      for (const Interval& direct : {direct_hockey_stick(pair.world0, pair.world1, lambda),
                                     direct_hockey_stick(pair.world1, pair.world0, lambda)}) {
        EXPECT_LE(direct.lower(), formula.upper()) << "delta=" << delta << " eps=" << eps;
        EXPECT_GE(direct.upper(), formula.lower()) << "delta=" << delta << " eps=" << eps;
        EXPECT_LT(direct.width_upper(), parse_rational("1e-30"));
      }
      EXPECT_LT(formula.width_upper(), parse_rational("1e-30"));
    }
  }
}

// CKS20: D_α = αΔ²/(2σ²) exactly when (α−1)Δ ∈ ℤ (θ is 1-periodic), strictly less otherwise.
TEST(DiscreteGaussian, RenyiAtIntegerShiftIsTheGaussianValue) {
  struct Case {
    Rational sigma2;
    unsigned long delta;
    Rational alpha;
  };
  for (const auto& c : {Case{2, 1, 2}, Case{2, 1, 3}, Case{q(1, 3), 1, 5}, Case{q(7, 2), 2, q(3, 2)}, Case{5, 3, q(4, 3)}}) {
    const Rational gaussian = c.alpha * c.delta * c.delta / (2 * c.sigma2);
    const Interval d = discrete_gaussian_renyi(c.sigma2, c.delta, c.alpha);
    EXPECT_TRUE(d.contains(gaussian)) << d.to_string() << " vs " << gaussian;
    EXPECT_LT(d.width_upper(), parse_rational("1e-30"));
  }
  // non-integer shift (α − 1)Δ = 1/2: strictly below 3/8, and mpmath's value
  const Interval d = discrete_gaussian_renyi(2, 1, q(3, 2));
  EXPECT_LT(d.upper(), q(3, 8));
  expect_encloses(d, "0.37499999999999994274267331851167090908");  // mpmath
}

TEST(DiscreteGaussian, ZcdpAndLeastEpsilon) {
  EXPECT_EQ(discrete_gaussian_zcdp(4, 2), q(1, 2));
  const Rational target = parse_rational("1e-6");
  const Interval eps = discrete_gaussian_least_epsilon(2, 1, target);
  ASSERT_TRUE(eps.upper_is_finite());
  EXPECT_LE(discrete_gaussian_delta(2, 1, eps.upper()).upper(), target);
  EXPECT_GT(discrete_gaussian_delta(2, 1, eps.lower()).lower(), target);
  EXPECT_LT(eps.width_upper(), parse_rational("1e-15"));
  const Interval none = discrete_gaussian_least_epsilon(2, 1, 1);  // δ(0) = TV ≤ 1
  EXPECT_TRUE(none.lower() == 0 && none.upper() == 0);
  EXPECT_FALSE(discrete_gaussian_least_epsilon(2, 1, 0).lower_is_finite());
}

TEST(DiscreteGaussian, RejectsBadParameters) {
  EXPECT_THROW(DiscreteGaussianNoise(0), Error);
  EXPECT_THROW(DiscreteGaussianNoise(Rational(1L << 50)), Error);  // too many terms
  EXPECT_THROW(discrete_gaussian_delta(2, 0, Rational(1)), Error);
  EXPECT_THROW(discrete_gaussian_delta(2, 1, Rational(-1)), Error);
  EXPECT_THROW(discrete_gaussian_renyi(2, 1, Rational(1)), Error);
}

}  // namespace
}  // namespace exactdp
