#include "exactdp/bounds/subsampled_renyi.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using bounds_test::q;
using bounds_test::ratio;

constexpr auto remove = NeighbourDirection::remove;
constexpr auto both = NeighbourDirection::both;

TEST(SubsampledRenyi, RateOneIsTheGaussianMechanism) {
  // closed form: αΔ²/(2σ²) = 3·4/(2·9) = 2/3 at α = 3, Δ = 2, σ = 3
  const Interval d = subsampled_gaussian_renyi(Rational(3), Rational(3), Rational(2), Rational(1), both);
  EXPECT_TRUE(d.contains(ratio(2, 3)));
}

TEST(SubsampledRenyi, RateOneIsTheLaplaceMechanism) {
  const Interval d = subsampled_laplace_renyi(Rational(2), Rational(1), Rational(1), Rational(1), both);
  const Interval m = laplace_mechanism_rdp(Rational(2), Rational(1), Rational(1));
  EXPECT_TRUE(d.contains(m.lower()) && d.contains(m.upper()));
}

TEST(SubsampledRenyi, OrderTwoByHand) {
  // α = 2: E_B[(A/B)²] = (1−q)² + 2q(1−q) + q²e^{μ²} = 1 + q²(e^{μ²} − 1), hand-expanded
  const Rational qq = q("1/10"), mu2 = Rational(1);
  const Interval hand = log(Interval(1L, 200) + Interval(Rational(qq * qq), 200) * expm1(Interval(mu2, 200)));
  const Interval d = subsampled_gaussian_renyi(Rational(2), Rational(1), Rational(1), qq, remove, 200);
  EXPECT_TRUE(d.contains(hand.lower()) && d.contains(hand.upper())) << d.to_string(30) << " vs " << hand.to_string(30);
  // Laplace: M₂ = (2/3)e^{ε₀} + (1/3)e^{−2ε₀} (M17), then 1 + q²(M₂ − 1); ε₀ = 1/2
  const Interval m2 = Interval(ratio(2, 3), 200) * exp(Interval(ratio(1, 2), 200)) +
                      Interval(ratio(1, 3), 200) * exp(Interval(Rational(-1), 200));
  const Interval lap = log(Interval(1L, 200) + Interval(Rational(qq * qq), 200) * (m2 - Interval(1L, 200)));
  const Interval dl = subsampled_laplace_renyi(Rational(2), Rational(2), Rational(1), qq, remove, 200);
  EXPECT_TRUE(dl.contains(lap.lower()) && dl.contains(lap.upper())) << dl.to_string(30) << " vs " << lap.to_string(30);
}

TEST(SubsampledRenyi, MatchesNumericalIntegration) {
  // mpmath, 30 digits, quadrature of ∫A^α B^{1−α} with A = (1−q)N(0,1) + qN(μ,1), B = N(0,1)
  // (independent of the binomial sum): q = 1/2, μ = 1, α = 2.5 and q = 1/10, μ = 1, α = 1.5
  const Interval a = subsampled_gaussian_renyi(q("5/2"), Rational(1), Rational(1), q("1/2"), both);
  EXPECT_TRUE(a.contains(q("0.5105603809236316489457741182"))) << a.to_string(20);
  const Interval b = subsampled_gaussian_renyi(q("3/2"), Rational(1), Rational(1), q("1/10"), both);
  EXPECT_TRUE(b.contains(q("0.0117345921966852356805476106"))) << b.to_string(20);
  // integer order: α = 7/2 between 3 and 4 for q = 1/5, μ = 2
  const Interval c = subsampled_gaussian_renyi(q("7/2"), Rational(1), Rational(2), q("1/5"), both);
  EXPECT_TRUE(c.contains(q("4.747045925078558446004536967"))) << c.to_string(20);
}

TEST(SubsampledRenyi, IntegerOrdersAreNarrow) {
  const Interval d = subsampled_gaussian_renyi(Rational(32), Rational(2), Rational(1), q("1/100"), both);
  EXPECT_LT(d.width_upper(), q("1e-30"));
}

TEST(SubsampledRenyi, RefusesWhatItCannotCertify) {
  EXPECT_THROW(subsampled_gaussian_renyi(Rational(2), Rational(1), Rational(1), q("1/2"), NeighbourDirection::add), Error);
  EXPECT_THROW(subsampled_laplace_renyi(Rational(2), Rational(1), Rational(1), q("1/2"), both), Error);
  EXPECT_THROW(subsampled_gaussian_renyi(Rational(1), Rational(1), Rational(1), q("1/2"), both), Error);
  EXPECT_THROW(subsampled_gaussian_renyi(Rational(2), Rational(1), Rational(1), Rational(0), both), Error);
}

// Rényi divergences do not decrease in α (van Erven & Harremoës 2014, Thm 3): the certified values
// at α₁ < α₂ must admit that order.
RC_GTEST_PROP(SubsampledRenyi, MonotoneInOrder, ()) {
  const Rational rate = ratio(*rc::gen::inRange(1, 11), 10);
  const Rational sigma = ratio(*rc::gen::inRange(1, 9), 4);
  const Rational a1 = ratio(*rc::gen::inRange(11, 80), 10);
  const Rational a2 = a1 + ratio(*rc::gen::inRange(1, 30), 10);
  const Interval d1 = subsampled_gaussian_renyi(a1, sigma, Rational(1), rate, both);
  const Interval d2 = subsampled_gaussian_renyi(a2, sigma, Rational(1), rate, both);
  RC_ASSERT(d1.lower() <= d2.upper());
  const Interval l1 = subsampled_laplace_renyi(a1, sigma, Rational(1), rate, remove);
  const Interval l2 = subsampled_laplace_renyi(a2, sigma, Rational(1), rate, remove);
  RC_ASSERT(l1.lower() <= l2.upper());
}

// Subsampling is post-processing of a mixture: D_α of the subsampled Gaussian never exceeds the
// Gaussian mechanism's αμ²/2 (joint quasi-convexity), and rises with q.
RC_GTEST_PROP(SubsampledRenyi, BelowTheUnsampledMechanism, ()) {
  const Rational rate = ratio(*rc::gen::inRange(1, 10), 10);
  const Rational alpha(*rc::gen::inRange(2, 40));
  const Rational sigma = ratio(*rc::gen::inRange(2, 9), 4);
  const Interval d = subsampled_gaussian_renyi(alpha, sigma, Rational(1), rate, both);
  RC_ASSERT(d.lower() <= gaussian_mechanism_rdp(alpha, Rational(1), sigma));
  const Interval higher = subsampled_gaussian_renyi(alpha, sigma, Rational(1), rate + ratio(1, 10), both);
  RC_ASSERT(d.lower() <= higher.upper());
}

}  // namespace
}  // namespace exactdp
