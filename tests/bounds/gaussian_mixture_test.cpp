#include "exactdp/bounds/gaussian_mixture.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using bounds_test::encloses_reference;
using bounds_test::q;
using bounds_test::ratio;

constexpr auto remove = NeighbourDirection::remove;
constexpr auto add = NeighbourDirection::add;
constexpr auto both = NeighbourDirection::both;

bool overlaps(const Interval& a, const Interval& b) { return a.lower() <= b.upper() && b.lower() <= a.upper(); }

TEST(GaussianMixture, OneComponentIsTheGaussianMechanism) {
  // closed form: the Gaussian mechanism is μ-GDP with μ = Δ/σ, symmetric (DRS22)
  const GaussianMixture m(Rational(2), {{Rational(3), Rational(1)}});
  for (const Rational e : {Rational(0), q("1/2"), Rational(1), Rational(3)}) {
    const Interval gdp = gaussian_dp_delta(Interval(ratio(3, 2), 200), Interval(e, 200));
    for (auto d : {remove, add, both}) {
      const Interval x = m.delta_at_epsilon(e, d, 200);
      EXPECT_TRUE(overlaps(x, gdp)) << x.to_string(30) << " vs " << gdp.to_string(30);
      EXPECT_LT(x.width_upper(), q("1e-40"));
    }
  }
}

TEST(GaussianMixture, RootAtAGridPointStaysNarrow) {
  // c = 2, σ = 1: L(x) = 2x − 2 is exactly 1/2 at the dyadic x = 5/4 that bisection hits; the value is
  // the GDP closed form with μ = 2 (DRS22), and the bracket must stay narrow
  const GaussianMixture m(Rational(1), {{Rational(2), Rational(1)}});
  const Interval gdp = gaussian_dp_delta(Interval(Rational(2), 128), Interval(ratio(1, 2), 128));
  for (auto d : {remove, add}) {
    const Interval x = m.delta_at_epsilon(ratio(1, 2), d);
    EXPECT_TRUE(overlaps(x, gdp));
    EXPECT_LT(x.width_upper(), q("1e-30")) << x.to_string(20);
  }
}

TEST(GaussianMixture, MatchesNumericalIntegration) {
  // mpmath, 45 digits: the root of the loss by findroot (not exactdp's bisection), then the
  // half-line formula; the first value also by quadrature of ∫_{x*}^∞ (M − e^ε N) from that root
  // (35 digits agree). σ = 1, c = (0, 1, 2), w = (1/5, 3/5, 1/5), ε = 1; c = (1, 2), w = (1/5, 4/5).
  // (A quadrature of (M − e^ε N)⁺ over fixed points misses the kink at the root by ~10⁻⁸.)
  const GaussianMixture m(Rational(1), {{Rational(0), ratio(1, 5)}, {Rational(1), ratio(3, 5)}, {Rational(2), ratio(1, 5)}});
  EXPECT_TRUE(encloses_reference(m.delta_at_epsilon(Rational(1), remove), "0.15768284088656260250043900008582469", "1e-33"));
  EXPECT_TRUE(encloses_reference(m.delta_at_epsilon(Rational(1), add), "0.036691263832033171588251034085324231", "1e-33"));
  const GaussianMixture n(Rational(1), {{Rational(1), ratio(1, 5)}, {Rational(2), ratio(4, 5)}});
  EXPECT_TRUE(encloses_reference(n.delta_at_epsilon(Rational(1), remove), "0.43327667554506491162115700173110726", "1e-33"));
  EXPECT_TRUE(encloses_reference(n.delta_at_epsilon(Rational(1), add), "0.38949643565819636589464546006196355", "1e-33"));
  EXPECT_LT(n.delta_at_epsilon(Rational(1), both).width_upper(), q("1e-30"));
}

TEST(GaussianMixture, TwoComponentsAreTheSubsampledGaussian) {
  // a second algorithm: the grid bracket of the Poisson-subsampled Gaussian (amplification/)
  const Rational rate = q("1/5"), sigma = ratio(1, 2);
  const GaussianMixture m(sigma, {{Rational(0), Rational(1 - rate)}, {Rational(1), rate}});
  for (auto d : {remove, add, both}) {
    GridOptions o;
    o.direction = d;
    o.resolution = 32;
    const Interval grid = grid_delta_at_epsilon(ContinuousPair::gaussian(sigma, Rational(1), rate), 1, Rational(1), o).value;
    const Interval x = m.delta_at_epsilon(Rational(1), d);
    EXPECT_TRUE(overlaps(x, grid)) << x.to_string(20) << " vs " << grid.to_string(20);
    EXPECT_LE(x.width_upper(), grid.width_upper());
  }
}

TEST(GaussianMixture, NegativeEpsilonAndTheFloorOfTheLoss) {
  // ε ≤ ln w₀ (w₀ = 1/2): the remove loss exceeds ε everywhere, δ = 1 − e^ε exactly; the add
  // event {L < −ε} is empty for −ε ≤ ln w₀, i.e. ε ≥ ln 2.
  const GaussianMixture m(Rational(1), {{Rational(0), ratio(1, 2)}, {Rational(1), ratio(1, 2)}});
  const Interval r = m.delta_at_epsilon(Rational(-1), remove);
  const Interval want = Interval(1L, 128) - exp(Interval(Rational(-1), 128));
  EXPECT_TRUE(overlaps(r, want));
  EXPECT_EQ(m.delta_at_epsilon(Rational(1), add).upper(), 0);
  EXPECT_GT(m.delta_at_epsilon(q("1/2"), add).lower(), 0);
}

TEST(GaussianMixture, ValidatesItsParameters) {
  EXPECT_THROW(GaussianMixture(Rational(0), {{Rational(1), Rational(1)}}), Error);
  EXPECT_THROW(GaussianMixture(Rational(1), {{Rational(1), ratio(1, 2)}}), Error);  // sums to 1/2
  EXPECT_THROW(GaussianMixture(Rational(1), {{Rational(0), Rational(1)}}), Error);  // no positive c
  EXPECT_THROW(GaussianMixture(Rational(1), {{Rational(-1), Rational(1)}}), Error);
}

TEST(GaussianMixture, LeastEpsilonInvertsTheProfile) {
  const GaussianMixture m(Rational(1), {{Rational(0), ratio(1, 5)}, {Rational(1), ratio(3, 5)}, {Rational(2), ratio(1, 5)}});
  const Interval e = m.least_epsilon(q("1e-5"), both, q("1e-20"));
  EXPECT_LE(m.delta_at_epsilon(e.upper(), both).upper(), q("1e-5"));
  EXPECT_GT(m.delta_at_epsilon(e.lower(), both).lower(), q("1e-5"));
  EXPECT_FALSE(m.least_epsilon(Rational(0), both, q("1e-9")).upper_is_finite());
  // add with δ = 0: the add loss is at most −ln w₀ = ln 5
  const Interval a = m.least_epsilon(Rational(0), add, q("1e-20"));
  const Interval ln5 = log(Interval(Rational(5), 128));
  EXPECT_TRUE(overlaps(a, ln5)) << a.to_string(20);
}

// δ(ε) of a mixture is non-increasing in ε in each direction (a law of every profile).
RC_GTEST_PROP(GaussianMixture, DeltaNonIncreasing, ()) {
  const long w1 = *rc::gen::inRange(1, 5), w2 = *rc::gen::inRange(1, 5), w0 = *rc::gen::inRange(0, 5);
  const long total = w0 + w1 + w2;
  std::vector<MixtureComponent> cs{{Rational(*rc::gen::inRange(1, 4)), ratio(w1, total)},
                                   {ratio(*rc::gen::inRange(1, 9), 2), ratio(w2, total)}};
  if (w0 > 0) cs.push_back({Rational(0), ratio(w0, total)});
  const GaussianMixture m(ratio(*rc::gen::inRange(1, 9), 4), cs);
  const Rational e1 = ratio(*rc::gen::inRange(-20, 30), 10), e2 = e1 + ratio(*rc::gen::inRange(1, 10), 10);
  for (auto d : {remove, add}) RC_ASSERT(m.delta_at_epsilon(e2, d).lower() <= m.delta_at_epsilon(e1, d).upper());
}

}  // namespace
}  // namespace exactdp
