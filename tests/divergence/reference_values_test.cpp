// Reference values from THEOREMS.md Part E (computed there by two independent exact programs)
// and from the closed forms of A.2; the library reaches them by the PrivacyLoss route.
#include "exactdp/divergence/hockey_stick.hpp"
#include "support/exact.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"

#include <gtest/gtest.h>

namespace exactdp {
namespace {

using testing::q;

PrivacyLoss rr(const Rational& l, const Rational& d) { return testing::rr_table(l, d); }

TEST(ReferenceValues, E1_RR_ln2_tenth) {
  auto L = rr(2, q(1, 10));
  EXPECT_EQ(hockey_stick(L, 2), q(1, 10));
  EXPECT_EQ(hockey_stick(L, 1), q(2, 5));
  EXPECT_EQ(hockey_stick(L.swapped(), 1), q(2, 5));
  auto T = TradeOff::of(L);
  std::vector<TradeOffVertex> expected{{0, q(9, 10)}, {q(3, 10), q(3, 10)}, {q(9, 10), 0}, {1, 0}};
  EXPECT_EQ(T.vertices(), expected);
  EXPECT_EQ(T, TradeOff::epsilon_delta(2, q(1, 10)));
}

// H_t(RR_u) = ((u − t)⁺ + (1 − tu)⁺)/(1+u) (E.1), and the listed values.
TEST(ReferenceValues, E1_HockeyStickOfPureRR) {
  for (long u = 2; u <= 4; ++u)
    for (long t = 1; t <= 4; ++t) {
      Rational closed = (std::max(Rational(u - t), Rational(0)) + std::max(Rational(1 - t * u), Rational(0))) / (1 + u);
      EXPECT_EQ(hockey_stick(rr(u, 0), t), closed) << "u=" << u << " t=" << t;
    }
  EXPECT_EQ(hockey_stick(rr(3, 0), 2), q(1, 4));
  EXPECT_EQ(hockey_stick(rr(4, 0), 3), q(1, 5));
}

TEST(ReferenceValues, E1_RenyiMoments) {
  EXPECT_EQ(renyi_moment(rr(2, 0), 2), ExtendedRational(q(3, 2)));
  EXPECT_EQ(renyi_moment(rr(3, 0), 2), ExtendedRational(q(7, 3)));
  EXPECT_EQ(renyi_moment(rr(4, 0), 2), ExtendedRational(q(13, 4)));
  EXPECT_EQ(renyi_moment(rr(2, 0), 3), ExtendedRational(q(11, 4)));
  EXPECT_EQ(renyi_moment(rr(3, 0), 3), ExtendedRational(q(61, 9)));
  EXPECT_EQ(renyi_moment(rr(4, 0), 3), ExtendedRational(q(205, 16)));
  EXPECT_TRUE(renyi_moment(rr(2, q(1, 10)), 2).is_infinite());  // δ > 0 ⇒ D_α = ∞
  EXPECT_TRUE(renyi_divergence(rr(3, 0), 2).contains(Rational(0)) == false);
  // D₂(RR₃) = ln(7/3) ≈ 0.84729786: the enclosure contains the 8-digit brackets
  auto d2 = renyi_divergence(rr(3, 0), 2);
  EXPECT_LT(q(84729785, 100000000), d2.lower());
  EXPECT_GT(q(84729787, 100000000), d2.upper());
}

TEST(ReferenceValues, E2_N2) {
  auto L = rr(3, q(1, 10));
  PrivacyProfile prof(L);
  EXPECT_EQ(prof.delta(1), q(11, 20));
  EXPECT_EQ(prof.delta(2), q(13, 40));
  EXPECT_EQ(prof.delta(3), q(1, 10));
  std::vector<TradeOffVertex> expected{{0, q(9, 10)}, {q(9, 40), q(9, 40)}, {q(9, 10), 0}, {1, 0}};
  EXPECT_EQ(TradeOff::of(L).vertices(), expected);
}

// E.3 via PLD composition of the RR tables (the catalogue's values come from OPT-COMP).
TEST(ReferenceValues, E3_CompositionByPLD) {
  auto rr2x2 = rr(2, 0).self_compose(2);
  PrivacyProfile p2(rr2x2);
  EXPECT_EQ(p2.delta(1), q(1, 3));
  EXPECT_EQ(p2.delta(q(3, 2)), q(5, 18));
  EXPECT_EQ(p2.delta(2), q(2, 9));
  EXPECT_EQ(p2.delta(4), 0);
  PrivacyProfile p3(rr(2, 0).self_compose(3));
  EXPECT_EQ(p3.delta(1), q(13, 27));
  EXPECT_EQ(p3.delta(q(3, 2)), q(19, 54));
  EXPECT_EQ(p3.delta(4), q(4, 27));
  EXPECT_EQ(p3.delta(8), 0);
  PrivacyProfile het(compose(rr(2, q(1, 10)), rr(3, q(1, 5))));
  EXPECT_EQ(het.delta(1), q(16, 25));
  EXPECT_EQ(het.delta(q(3, 2)), q(11, 20));
  EXPECT_EQ(het.delta(2), q(13, 25));
  EXPECT_EQ(het.delta(4), q(2, 5));
  EXPECT_EQ(het.delta(8), q(7, 25));
  PrivacyProfile het0(compose(rr(2, q(1, 10)), rr(1, q(1, 5))));
  EXPECT_EQ(het0.delta(q(3, 2)), q(2, 5));
  EXPECT_EQ(het0.delta(2), q(7, 25));
  PrivacyProfile r33(rr(3, 0).self_compose(3));
  EXPECT_EQ(r33.delta(1), q(11, 16));
  EXPECT_EQ(r33.delta(9), q(9, 32));
  EXPECT_EQ(r33.delta(27), 0);
  EXPECT_EQ(PrivacyProfile(rr(2, q(1, 10)).self_compose(2)).delta(4), q(19, 100));
}

TEST(ReferenceValues, E3_LeastLambda) {
  PrivacyProfile a(rr(2, q(1, 10)).self_compose(2));
  EXPECT_EQ(a.least_lambda(q(1, 5)), ExtendedRational(q(35, 9)));
  EXPECT_EQ(a.least_lambda(q(19, 100)), ExtendedRational(4));
  EXPECT_EQ(PrivacyProfile(rr(3, 0).self_compose(3)).least_lambda(q(1, 10)), ExtendedRational(q(103, 5)));
  PrivacyProfile b(rr(q(11, 10), 0).self_compose(10));
  EXPECT_EQ(b.least_lambda(q(1, 1000)), ExtendedRational(q(81684104240933, 40000000000000)));
  // ε ≈ 0.7139800 (E.3): the certified log contains it to 7 digits
  auto eps = b.least_epsilon(q(1, 1000));
  EXPECT_LT(q(7139799, 10000000), eps.lower());
  EXPECT_GT(q(7139801, 10000000), eps.upper());
  // below the catastrophic mass 1 − (9/10)² = 19/100 no finite λ works
  EXPECT_TRUE(a.least_lambda(q(18, 100)).is_infinite());
}

// H16: the trade-off of Comp(RR₂ × 2).
TEST(ReferenceValues, H16_TradeOffOfComposition) {
  auto T = TradeOff::of(rr(2, 0).self_compose(2));
  std::vector<TradeOffVertex> expected{{0, 1}, {q(1, 9), q(5, 9)}, {q(5, 9), q(1, 9)}, {1, 0}};
  EXPECT_EQ(T.vertices(), expected);
  EXPECT_TRUE(T.dominates(TradeOff::epsilon_delta(4, 0)));
  EXPECT_TRUE(T.dominates(TradeOff::epsilon_delta(2, q(2, 9))));
  EXPECT_FALSE(T.dominates(TradeOff::epsilon_delta(2, q(2, 9) - q(1, 1000))));
  auto where = T.violation_of(TradeOff::epsilon_delta(2, q(1, 5)));
  ASSERT_TRUE(where.has_value());
  EXPECT_LT(T(*where), TradeOff::epsilon_delta(2, q(1, 5))(*where));
}

// T(C(1, 1/3)) = f_{0,1/3}: vertices (0, 2/3), (2/3, 0), (1, 0).
TEST(ReferenceValues, E1_CanonicalZeroEpsilon) {
  auto T = TradeOff::of(rr(1, q(1, 3)));
  std::vector<TradeOffVertex> expected{{0, q(2, 3)}, {q(2, 3), 0}, {1, 0}};
  EXPECT_EQ(T.vertices(), expected);
}

TEST(ReferenceValues, MaxRatioAndKL) {
  EXPECT_EQ(max_ratio(rr(3, 0)), ExtendedRational(3));
  EXPECT_TRUE(max_ratio(rr(3, q(1, 10))).is_infinite());
  // KL(RR_λ) = ((λ−1)/(λ+1)) ln λ (A.2): for λ = 3, (1/2) ln 3 ≈ 0.54930614
  auto kl = kl_divergence(rr(3, 0));
  EXPECT_LT(q(54930614, 100000000), kl.lower());
  EXPECT_GT(q(54930615, 100000000), kl.upper());
}

TEST(TradeOff, RejectsInvalidCurves) {
  EXPECT_THROW(TradeOff::from_vertices({{0, 1}, {q(1, 2), q(3, 4)}, {1, 0}}), Error);  // above 1 − α
  EXPECT_THROW(TradeOff::from_vertices({{0, q(1, 2)}, {q(1, 2), q(1, 2)}, {1, 0}}), Error);  // not convex
  EXPECT_THROW(TradeOff::from_vertices({{0, 1}, {q(1, 2), q(1, 4)}}), Error);  // does not end at (1,0)
  EXPECT_THROW(TradeOff::epsilon_delta(q(1, 2), 0), Error);
}

TEST(PrivacyLoss, RejectsBadMassesNamingTheField) {
  try {
    PrivacyLoss::from_masses({{q(1, 2), q(1, 2)}, {q(1, 2), q(1, 3)}}, "pair.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "pair.json");
    EXPECT_EQ(e.field(), "Q total");
    EXPECT_EQ(e.value(), "5/6");
  }
  EXPECT_THROW(PrivacyLoss::from_masses({{q(-1, 2), q(1, 2)}, {q(3, 2), q(1, 2)}}), Error);
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {
// f_{ε,δ} at the degenerate ends: δ = 0 (three vertices) and δ = 1 (the zero function).
TEST(TradeOff, EpsilonDeltaDegenerateCases) {
  EXPECT_EQ(TradeOff::epsilon_delta(3, 0).vertices().size(), 3u);
  EXPECT_EQ(TradeOff::epsilon_delta(3, 1)(Rational(0)), 0);
  EXPECT_EQ(TradeOff::epsilon_delta(1, 0), TradeOff::identity());
}
}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

/// The piecewise-linear interpolation of G_μ at α = j/8, with each β rounded up (above = true) or
/// down to a multiple of 10⁻⁶. Independent route: G_μ is convex, so chords through points on or
/// above the curve lie above it (dominates), and a vertex below the curve is a certified violation.
TradeOff interpolate_gaussian(const Rational& mu, bool above) {
  std::vector<TradeOffVertex> v{{0, 1}};
  const Rational grid(1, 1000000);
  for (int j = 1; j < 8; ++j) {
    Rational a(j, 8);
    Interval g = gaussian_tradeoff(Interval(mu, 256), a);
    Rational scaled = (above ? g.upper() : g.lower()) / grid;
    Integer n;
    if (above) mpz_cdiv_q(n.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
    else mpz_fdiv_q(n.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
    v.push_back({a, Rational(n) * grid});
  }
  v.push_back({1, 0});
  return TradeOff::from_vertices(v);
}

TEST(TradeOff, GaussianDominanceIsCertified) {
  const Rational mu(1);
  auto above = dominates_gaussian(interpolate_gaussian(mu, true), mu);
  EXPECT_EQ(above.outcome, Tri::yes);
  auto below = dominates_gaussian(interpolate_gaussian(mu, false), mu);
  EXPECT_EQ(below.outcome, Tri::no);
  ASSERT_TRUE(below.witness_alpha.has_value());
  // exact ends: perfect privacy is G_0, and f(0) < 1 violates every G_μ
  EXPECT_EQ(dominates_gaussian(TradeOff::identity(), Rational(0)).outcome, Tri::yes);
  EXPECT_EQ(dominates_gaussian(TradeOff::epsilon_delta(2, 0), Rational(0)).outcome, Tri::no);
  auto leak = dominates_gaussian(TradeOff::epsilon_delta(2, Rational(1, 10)), Rational(3));
  EXPECT_EQ(leak.outcome, Tri::no);
  EXPECT_EQ(*leak.witness_alpha, 0);
  EXPECT_THROW(dominates_gaussian(TradeOff::identity(), Rational(-1)), Error);
}

// DRS22: an ε-DP pair has T ≥ f_{ε,0}; RR_3 is not 1/2-GDP at α = 1/4 (f = 1/4 < G_{1/2}(1/4) ≈ 0.5)
// — G_{1/2}(1/4) = Φ(Φ⁻¹(3/4) − 1/2) = Φ(0.1745) ≈ 0.569, read from a normal table.
TEST(TradeOff, RandomizedResponseIsNotHalfGdp) {
  auto r = dominates_gaussian(TradeOff::epsilon_delta(3, 0), Rational(1, 2));
  EXPECT_EQ(r.outcome, Tri::no);
  EXPECT_EQ(*r.witness_alpha, Rational(1, 4));
}

}  // namespace
}  // namespace exactdp
