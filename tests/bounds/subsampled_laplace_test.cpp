#include "exactdp/bounds/subsampled_laplace.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using bounds_test::q;
using bounds_test::ratio;

constexpr auto remove = NeighbourDirection::remove;
constexpr auto add = NeighbourDirection::add;
constexpr auto both = NeighbourDirection::both;
constexpr Precision kP = 200;

bool overlaps(const Interval& a, const Interval& b) { return a.lower() <= b.upper() && b.lower() <= a.upper(); }

// Against the hockey-stick integral of A = q·Lap(1, b) + (1 − q)·Lap(0, b) and B = Lap(0, b) by
// mpmath.quad at 40 digits (the same independent values as GridBracket.SubsampledLaplaceContainsTheIntegral).
TEST(SubsampledLaplace, MatchesTheQuadrature) {
  struct Case {
    Rational b, q, eps;
    const char* truth;
  };
  const Case cases[] = {{q("1"), q("1/10"), q("1/10"), "0.01312183088583126543727121655627722302525"},
                        {q("1"), q("1/2"), q("1/2"), "0.04033113052605342719174498732637206274538"}};
  for (const Case& c : cases) {
    const Interval d = SubsampledLaplace(c.b, Rational(1), c.q).delta_at_epsilon(c.eps, both, kP);
    const Rational truth = parse_rational(c.truth, "truth");
    // 40 digits of the quadrature: the enclosure (about 10⁻⁵⁵ wide) lies within 10⁻³⁹ of them
    EXPECT_LT(d.lower(), truth + ratio(1, 1) / Rational(Integer("1000000000000000000000000000000000000000")));
    EXPECT_GT(d.upper(), truth - ratio(1, 1) / Rational(Integer("1000000000000000000000000000000000000000")));
    EXPECT_LT(d.upper() - d.lower(), Rational(1, 1000000) * Rational(1, 1000000) * Rational(1, 1000000)) << d.to_string(20);
  }
}

// q = 1 is the Laplace mechanism: δ(ε) = 1 − e^{(ε − ε₀)/2} for |ε| ≤ ε₀ in both directions (its
// loss is symmetric), by hand from P(L > t) and Q(L > t) (header).
TEST(SubsampledLaplace, RateOneIsTheLaplaceMechanism) {
  const SubsampledLaplace m(q("1/2"), q("3/2"), Rational(1));  // ε₀ = 3
  for (const Rational e : {q("-3"), q("-1"), q("0"), q("1/2"), q("5/2"), q("3")}) {
    const Interval truth = Interval(Rational(1), kP) - exp(Interval(Rational((e - 3) / 2), kP));
    for (auto d : {remove, add, both}) EXPECT_TRUE(overlaps(m.delta_at_epsilon(e, d, kP), truth)) << to_string(e);
  }
  EXPECT_EQ(m.delta_at_epsilon(Rational(4), both, kP).upper(), 0);
}

// Beyond the largest loss ln(q·e^{ε₀} + 1 − q) (remove) the profile is 0, and below the smallest
// it is 1 − e^ε: the three regimes of the closed form, at rationals on either side.
TEST(SubsampledLaplace, EndsOfTheProfile) {
  const SubsampledLaplace m(Rational(1), Rational(2), q("1/4"));  // ε₀ = 2
  // remove: max loss ln(e²/4 + 3/4) ≈ 0.95446; min loss ln(e^{−2}/4 + 3/4) ≈ −0.24354
  EXPECT_EQ(m.delta_at_epsilon(q("24/25"), remove, kP).lower(), 0);
  EXPECT_LT(m.delta_at_epsilon(q("24/25"), remove, kP).upper(), Rational(1, 1000000000));
  EXPECT_GT(m.delta_at_epsilon(q("19/20"), remove, kP).lower(), 0);
  const Interval below = Interval(Rational(1), kP) - exp(Interval(q("-3/10"), kP));
  EXPECT_TRUE(overlaps(m.delta_at_epsilon(q("-3/10"), remove, kP), below));
  // add: its loss is −(remove's), so δ_add(ε) = 0 from ε ≥ 0.24354…
  EXPECT_LT(m.delta_at_epsilon(q("1/4"), add, kP).upper(), Rational(1, 1000000000));
  EXPECT_GT(m.delta_at_epsilon(q("6/25"), add, kP).lower(), 0);
}

// The profile identity of a pair (divergence/direction.hpp): H_λ(B‖A) = 1 − λ + λ·H_{1/λ}(A‖B), so
// the add direction at ε is 1 − e^ε + e^ε·(remove at −ε) — a law the two closed forms (derived
// separately) must obey; and the grid bracket (a second algorithm, amplification/poisson.hpp)
// contains each direction.
RC_GTEST_PROP(SubsampledLaplace, DirectionsObeyTheProfileIdentityAndTheGridBracket, ()) {
  const Rational b = ratio(*rc::gen::inRange(1, 9), *rc::gen::inRange(1, 5));
  const Rational s = ratio(*rc::gen::inRange(1, 5), *rc::gen::inRange(1, 3));
  const Rational rate = ratio(*rc::gen::inRange(1, 20), 20);
  const Rational e = ratio(*rc::gen::inRange(-30, 31), 10);
  const SubsampledLaplace m(b, s, rate);
  const Interval lambda = exp(Interval(e, kP));
  const Interval via_identity = Interval(Rational(1), kP) - lambda + lambda * m.delta_at_epsilon(Rational(-e), remove, kP);
  RC_ASSERT(overlaps(m.delta_at_epsilon(e, add, kP), via_identity));
  if (rate < 1) {
    GridOptions o;
    o.resolution = 16;
    o.direction = *rc::gen::element(remove, add, both);
    const GridBracket g = grid_delta_at_epsilon(ContinuousPair::laplace(b, s, rate), 1, e, o);
    RC_ASSERT(overlaps(m.delta_at_epsilon(e, o.direction, kP), g.value));
  }
}

TEST(SubsampledLaplace, LeastEpsilonBracketsTheInverse) {
  const SubsampledLaplace m(Rational(1), Rational(1), q("1/10"));
  for (auto d : {remove, add, both}) {
    for (const Rational delta : {q("0"), q("1/1000"), q("1/100")}) {
      const Interval e = m.least_epsilon(delta, d, Rational(1, 1000000), kP);
      ASSERT_TRUE(e.upper_is_finite());
      EXPECT_LE(m.delta_at_epsilon(e.upper(), d, kP).upper(), delta);
      if (sgn(e.lower()) > 0) EXPECT_GT(m.delta_at_epsilon(e.lower(), d, kP).lower(), delta);
      EXPECT_LE(e.upper() - e.lower(), Rational(1, 1000000));
    }
  }
  // δ = 0 remove: the largest loss ln(e/10 + 9/10) ≈ 0.15777
  const Interval top = m.least_epsilon(Rational(0), remove, Rational(1, 1000000), kP);
  const Interval truth = log(exp(Interval(Rational(1), kP)) / Interval(Rational(10), kP) + Interval(q("9/10"), kP));
  EXPECT_LE(top.lower(), truth.upper());
  EXPECT_GE(top.upper(), truth.lower());
}

TEST(SubsampledLaplace, RefusesInvalidParameters) {
  EXPECT_THROW(SubsampledLaplace(Rational(0), Rational(1), q("1/2")), Error);
  EXPECT_THROW(SubsampledLaplace(Rational(1), Rational(0), q("1/2")), Error);
  EXPECT_THROW(SubsampledLaplace(Rational(1), Rational(1), Rational(0)), Error);
  EXPECT_THROW(SubsampledLaplace(Rational(1), Rational(1), q("3/2")), Error);
}

}  // namespace
}  // namespace exactdp
