// The exact noise distributions (noise/noise.hpp) against independent routes: the closed forms of
// THEOREMS.md D.3 written out here, direct summation of the mass function over a window plus the
// closed tail, direct convolution, the RR table of A.2, and hand-derived clamp/truncate cases.
#include "exactdp/core/error.hpp"
#include "exactdp/noise/noise.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>

namespace exactdp::noise {
namespace {

using testing::q;

Rational slow_power(const Rational& theta, long j) {
  Rational x = 1;
  for (long i = 0; i < (j < 0 ? -j : j); ++i) x *= theta;
  return j < 0 ? 1 / x : x;
}

/// DLap(r) mass and distribution function as written in THEOREMS.md D.3.
Rational dlap_pmf(const Rational& r, long k) { return (1 - r) / (1 + r) * slow_power(r, k < 0 ? -k : k); }
Rational dlap_cdf(const Rational& r, long m) {
  if (m >= 0) return 1 - slow_power(r, m + 1) / (1 + r);
  return slow_power(r, -m) / (1 + r);
}

rc::Gen<Rational> ratio() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(1, 10), rc::gen::inRange(1, 10)), [](std::pair<int, int> ab) {
    return q(std::min(ab.first, ab.second), std::max(ab.first, ab.second) + 1);  // in (0, 1)
  });
}
rc::Gen<Rational> probability() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 8), rc::gen::inRange(1, 8)),
                      [](std::pair<int, int> ab) { return q(std::min(ab.first, ab.second), ab.second); });
}

/// Every named noise with small random parameters.
rc::Gen<Noise> any_noise() {
  return rc::gen::exec([]() -> Noise {
    switch (*rc::gen::inRange(0, 6)) {
      case 0: return Noise::dlap(*ratio());
      case 1: return Noise::geometric(*ratio());
      case 2: return Noise::bernoulli(*probability());
      case 3: {
        const long a = *rc::gen::inRange(-3L, 3L);
        return Noise::uniform(a, a + *rc::gen::inRange(0L, 4L));
      }
      case 4: return Noise::binomial(*rc::gen::inRange(0L, 5L), *probability());
      default: return Noise::dlap(*ratio()).shifted(*rc::gen::inRange(-2L, 3L));
    }
  });
}

TEST(Noise, DiscreteLaplaceIsTheD3Law) {
  for (const Rational& r : {q(1, 2), q(1, 4), q(7, 8)}) {
    const Noise z = Noise::dlap(r);
    EXPECT_EQ(z.name(), "DLap(" + to_string(r) + ")");
    for (long k = -6; k <= 6; ++k) {
      EXPECT_EQ(z.pmf(k), dlap_pmf(r, k));
      EXPECT_EQ(z.cdf(k), dlap_cdf(r, k));
    }
    EXPECT_EQ(z.cdf(0), 1 / (1 + r));                    // Pr[Z ≤ 0] = 1/(1+r)
    EXPECT_EQ(z.sf(2), slow_power(r, 3) / (1 + r));      // Pr[Z ≥ 3] = r^3/(1+r)
    EXPECT_FALSE(z.min().has_value());
    EXPECT_FALSE(z.max().has_value());
    EXPECT_THROW(z.support(), Error);
  }
}

TEST(Noise, CdfIsTheWindowSumPlusTheClosedTail) {
  // F(k) = Pr[Z < −L] + Σ_{j=−L}^{k} pmf(j), with the left tail r^{L}/(1+r)·... from D.3:
  // Pr[Z ≤ −L−1] = r^{L+1}/(1+r); geometric: F(k) = Σ_{j=0}^{k} (1−r) r^j directly
  const Rational r = q(3, 5);
  const Noise z = Noise::dlap(r), g = Noise::geometric(r);
  const long L = 5;
  for (long k = -L; k <= 6; ++k) {
    Rational s = slow_power(r, L + 1) / (1 + r);
    for (long j = -L; j <= k; ++j) s += z.pmf(j);
    EXPECT_EQ(z.cdf(k), s) << k;
    Rational t = 0;
    for (long j = 0; j <= k; ++j) t += (1 - r) * slow_power(r, j);
    EXPECT_EQ(g.cdf(k), t) << k;
    EXPECT_EQ(g.cdf(k), k < 0 ? Rational(0) : 1 - slow_power(r, k + 1));  // 1 − r^{k+1}
  }
}

TEST(Noise, FiniteLawsSumToOneOverTheirSupport) {
  for (const Noise& z : {Noise::bernoulli(q(1, 3)), Noise::uniform(-2, 4), Noise::binomial(6, q(2, 7)), Noise::point(5),
                         Noise::bernoulli(0), Noise::binomial(3, 1)}) {
    Rational s = 0;
    for (long k : z.support()) s += z.pmf(k);
    EXPECT_EQ(s, 1) << z.name();
    EXPECT_EQ(z.to_dist().total(), 1);
  }
  EXPECT_EQ(Noise::bernoulli(0).support(), (std::vector<long>{0}));
  EXPECT_EQ(Noise::binomial(3, 1).support(), (std::vector<long>{3}));
  EXPECT_EQ(Noise::uniform(-2, 4).support().size(), 7u);
  // Binomial(4, 1/3): C(4,2)(1/3)^2(2/3)^2 = 24/81
  EXPECT_EQ(Noise::binomial(4, q(1, 3)).pmf(2), q(24, 81));
  EXPECT_EQ(Noise::uniform(1, 4).cdf(2), q(1, 2));
  // a uniform law too wide to tabulate still has exact closed-form cdf and sf
  EXPECT_EQ(Noise::uniform(0, 999'999'999).cdf(499'999'999), q(1, 2));
  EXPECT_THROW(Noise::uniform(0, 999'999'999).support(), Error);
}

TEST(Noise, ClampMovesTheTailsTruncateRenormalises) {
  // DLap(1/2): pmf(0) = 1/3, pmf(±1) = 1/6, Pr[Z ≥ 1] = Pr[Z ≤ −1] = 1/3 (D.3)
  const Noise z = Noise::dlap(q(1, 2));
  const auto c = z.clamped(-1, 1), t = z.truncated(-1, 1);
  EXPECT_EQ(c.mass(-1), q(1, 3));
  EXPECT_EQ(c.mass(0), q(1, 3));
  EXPECT_EQ(c.mass(1), q(1, 3));
  // conditioned on |Z| ≤ 1 (mass 2/3): 1/4, 1/2, 1/4
  EXPECT_EQ(t.mass(-1), q(1, 4));
  EXPECT_EQ(t.mass(0), q(1, 2));
  EXPECT_EQ(t.mass(1), q(1, 4));
  EXPECT_EQ(z.clamped(2, 2), Dist<long>::point(2));
  EXPECT_THROW(z.clamped(1, 0), Error);
  EXPECT_THROW(Noise::geometric(q(1, 2)).truncated(-3, -1), Error);  // probability 0
}

TEST(Noise, TruncationBreaksPureDpWhereClampingKeepsIt) {
  // v + DLap(1/2) is ln 2-DP for v ∈ {0, 1} (D.3). On the window [0, 2]:
  //  clamped: v = 0 → {0: F(0) = 2/3, 1: 1/6, 2: Pr[Z ≥ 2] = 1/6}; v = 1 → {1/3, 1/3, 1/3}:
  //           worst ratio 2 = 1/r, exactly the unclamped one (B.14 X-CLAMP-EXACT);
  //  truncated: v = 0 → Z ∈ [0, 2] ∝ (1, 1/2, 1/4) = (4/7, 2/7, 1/7); v = 1 → Z ∈ [−1, 1] ∝
  //           (1/2, 1, 1/2) = (1/4, 1/2, 1/4): ratio (4/7)/(1/4) = 16/7 > 2 (B.14 "never renormalise").
  const Noise z = Noise::dlap(q(1, 2));
  auto worst = [](const Dist<long>& a, const Dist<long>& b) {
    Rational w = 0;
    for (long k = 0; k <= 2; ++k) w = std::max({w, Rational(a.mass(k) / b.mass(k)), Rational(b.mass(k) / a.mass(k))});
    return w;
  };
  const auto c0 = z.clamped(0, 2), c1 = z.shifted(1).clamped(0, 2);
  EXPECT_EQ(c0.mass(0), q(2, 3));
  EXPECT_EQ(c1.mass(2), q(1, 3));
  EXPECT_EQ(worst(c0, c1), 2);
  const auto t0 = z.truncated(0, 2), t1 = z.shifted(1).truncated(0, 2);
  EXPECT_EQ(t0.mass(0), q(4, 7));
  EXPECT_EQ(t1.mass(0), q(1, 4));
  EXPECT_EQ(worst(t0, t1), q(16, 7));
}

TEST(Noise, SumsWithFiniteNoiseAreConvolutions) {
  const Rational r = q(1, 3), p = q(2, 5);
  const Noise s = Noise::bernoulli(p).plus(Noise::dlap(r));
  for (long k = -5; k <= 5; ++k) EXPECT_EQ(s.pmf(k), (1 - p) * dlap_pmf(r, k) + p * dlap_pmf(r, k - 1)) << k;
  EXPECT_EQ(s.cdf(3) + s.sf(3), 1);
  // Bernoulli(1/2) + Bernoulli(1/2) = Binomial(2, 1/2); Uniform{0,1,2} + Uniform{0,1,2} is a triangle
  EXPECT_EQ(Noise::bernoulli(q(1, 2)).plus(Noise::bernoulli(q(1, 2))), Noise::binomial(2, q(1, 2)));
  const Noise tri = Noise::uniform(0, 2).plus(Noise::uniform(0, 2));
  EXPECT_EQ(tri.pmf(2), q(3, 9));
  EXPECT_EQ(tri.pmf(4), q(1, 9));
  EXPECT_THROW(Noise::dlap(r).plus(Noise::geometric(r)), Error);  // both unbounded
}

TEST(Noise, InvalidParametersNameTheField) {
  auto field_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.where() + "/" + e.field() + "=" + e.value();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of([] { Noise::dlap(1); }), "noise::dlap/r=1");
  EXPECT_EQ(field_of([] { Noise::dlap(0); }), "noise::dlap/r=0");
  EXPECT_EQ(field_of([] { Noise::geometric(q(3, 2)); }), "noise::geometric/r=3/2");
  EXPECT_EQ(field_of([] { Noise::bernoulli(q(-1, 2)); }), "noise::bernoulli/p=-1/2");
  EXPECT_EQ(field_of([] { Noise::uniform(3, 2); }), "noise::uniform/b=2");
  EXPECT_EQ(field_of([] { Noise::binomial(-1, q(1, 2)); }), "noise::binomial/n=-1");
  EXPECT_EQ(field_of([] { RandomizedResponse(q(1, 2)); }), "noise::rr/lambda=1/2");
  EXPECT_EQ(field_of([] { RandomizedResponse(2, q(3, 2)); }), "noise::rr/delta=3/2");
  EXPECT_EQ(field_of([] { RandomizedResponse(2).given(2); }), "noise::rr/b=2");
  EXPECT_EQ(field_of([] { KaryRandomizedResponse(1, 2); }), "noise::krr/k=1");
}

TEST(Noise, RandomizedResponseIsTheA2Table) {
  const Rational lam = 3, d = q(1, 10);
  const RandomizedResponse rr(lam, d);
  // A.2: (Leak,0) δ | 0; (NoLeak,0) (1−δ)λ/(1+λ) | (1−δ)/(1+λ); …
  EXPECT_EQ(rr.pmf("leak0", 0), d);
  EXPECT_EQ(rr.pmf("leak0", 1), 0);
  EXPECT_EQ(rr.pmf("0", 0), (1 - d) * lam / (1 + lam));
  EXPECT_EQ(rr.pmf("0", 1), (1 - d) / (1 + lam));
  EXPECT_EQ(rr.given(1).mass("1"), q(27, 40));
  EXPECT_EQ(rr.given(1).total(), 1);
  EXPECT_EQ(RandomizedResponse::from_truth_probability(q(3, 4)).lambda(), 3);
  EXPECT_EQ(RandomizedResponse(lam).given(0).size(), 2u);  // no leak atoms when δ = 0
  const KaryRandomizedResponse k(4, 2);
  EXPECT_EQ(k.pmf(1, 1), q(2, 5));
  EXPECT_EQ(k.pmf(0, 1), q(1, 5));
  EXPECT_EQ(k.given(3).total(), 1);
}

RC_GTEST_PROP(Noise, CdfIsMonotone, ()) {
  const Noise z = *any_noise();
  for (long k = -6; k <= 6; ++k) RC_ASSERT(z.cdf(k - 1) <= z.cdf(k));
}

RC_GTEST_PROP(Noise, CdfPlusSfIsOne, ()) {
  // sf(k) = Pr[Z > k] is summed from the right tail, cdf(k) from the left: independent closed forms
  const Noise z = *any_noise();
  for (long k = -6; k <= 6; ++k) RC_ASSERT(z.cdf(k) + z.sf(k) == 1);
}

RC_GTEST_PROP(Noise, CdfDifferencesAreThePmf, ()) {
  const Noise z = *any_noise();
  for (long k = -6; k <= 6; ++k) RC_ASSERT(z.cdf(k) - z.cdf(k - 1) == z.pmf(k));
}

RC_GTEST_PROP(Noise, DiscreteLaplaceIsSymmetric, ()) {
  const Noise z = Noise::dlap(*ratio());
  for (long k = -6; k <= 6; ++k) {
    RC_ASSERT(z.pmf(k) == z.pmf(-k));
    RC_ASSERT(z.cdf(k) == z.sf(-k - 1));
  }
  RC_ASSERT(z.negated() == z);
}

RC_GTEST_PROP(Noise, ShiftMovesTheLaw, ()) {
  const Noise z = *any_noise();
  const long v = *rc::gen::inRange(-4L, 5L);
  const Noise s = z.shifted(v), n = z.negated();
  for (long k = -6; k <= 6; ++k) {
    RC_ASSERT(s.pmf(k) == z.pmf(k - v));
    RC_ASSERT(s.cdf(k) == z.cdf(k - v));
    RC_ASSERT(n.pmf(k) == z.pmf(-k));
  }
}

RC_GTEST_PROP(Noise, ClampedAndTruncatedAreDistributions, ()) {
  const Noise z = *any_noise();
  const long lo = *rc::gen::inRange(-4L, 3L), hi = lo + *rc::gen::inRange(0L, 5L);
  const auto c = z.clamped(lo, hi);
  RC_ASSERT(c.total() == 1);
  RC_ASSERT(c.mass(lo) == z.cdf(lo) || lo == hi);
  for (long k = lo + 1; k < hi; ++k) RC_ASSERT(c.mass(k) == z.pmf(k));
  const Rational inside = z.probability(lo, hi);
  if (sgn(inside) > 0) {
    const auto t = z.truncated(lo, hi);
    for (long k = lo; k <= hi; ++k) RC_ASSERT(t.mass(k) * inside == z.pmf(k));
  }
}

}  // namespace
}  // namespace exactdp::noise
