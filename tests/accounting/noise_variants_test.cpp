// Mechanism specs beyond the plain families: the truncated discrete Gaussian (dp-accounting's
// DiscreteGaussianPrivacyLoss with a truncation bound). Expected values are closed forms worked out
// by hand in the comments, or a second algorithm (CKS20's untruncated formula for a wide window).
#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/mechanism/certified_noninteractive.hpp"
#include "exactdp/mechanism/discrete_gaussian.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace exactdp {
namespace {

using testing::q;

bool overlap(const Interval& a, const Interval& b) { return a.lower() <= b.upper() && b.lower() <= a.upper(); }

Interval at(const MechanismSpec& s, const Rational& e, unsigned long times = 1,
            NeighbourDirection d = NeighbourDirection::both) {
  return s.delta_at_epsilon(Interval(e, 256), times, d);
}

TEST(TruncatedDiscreteGaussian, SpecParsesAndRoundTrips) {
  const MechanismSpec s = parse_mechanism_spec("dgauss:sensitivity=2,truncation=3,sigma2=1/2");
  EXPECT_EQ(s.to_string(), "dgauss:sigma2=1/2,truncation=3,sensitivity=2");
  EXPECT_EQ(parse_mechanism_spec(s.to_string()), s);
  EXPECT_TRUE(s.supports_composition(5));        // finite support: a certified PLD composes
  EXPECT_FALSE(s.zcdp().has_value());             // an outcome of one world only: no zCDP level
  EXPECT_TRUE(s.certified_loss().has_value());
  EXPECT_FALSE(parse_mechanism_spec("dgauss:sigma2=1").certified_loss().has_value());
  for (const char* bad : {"dgauss:sigma2=1,truncation=-1", "dgauss:sigma2=1,truncation=3/2", "dgauss:sigma2=1,truncation=x",
                          "dgauss:sigma2=-1,truncation=2"}) {
    try {
      parse_mechanism_spec(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const Error& e) {
      EXPECT_FALSE(e.field().empty()) << bad;
    }
  }
}

// T = 0: the noise is the point 0, so P = point 0 and Q = point Δ are disjoint: δ(ε) = 1 at every
// ε (H_λ(P‖Q) = P(x = 0) − λ·0 = 1), and no finite ε at any δ < 1.
TEST(TruncatedDiscreteGaussian, ZeroTruncationIsTheNoiselessPair) {
  const MechanismSpec s = parse_mechanism_spec("dgauss:sigma2=3,truncation=0");
  for (long e : {-2L, 0L, 1L, 5L}) {
    const Interval d = at(s, Rational(e));
    EXPECT_EQ(d.lower(), 1) << e;
    EXPECT_EQ(d.upper(), 1) << e;
  }
  EXPECT_FALSE(s.epsilon_at_delta(q(1, 2)).lower_is_finite());
  // 2T < Δ: the supports [−1, 1] and [3, 5] are disjoint as well
  for (long sens : {3L, 4L}) {  // certified masses: 1 up to the working precision
    const Interval d = at(parse_mechanism_spec("dgauss:sigma2=1,truncation=1,sensitivity=" + std::to_string(sens)), Rational(1));
    EXPECT_GE(d.lower(), 1 - pow2(-200)) << sens;
    EXPECT_EQ(d.upper(), 1) << sens;
  }
}

// T = 1, Δ = 1, σ² = V: with a = e^{−1/(2V)} and Z = 1 + 2a, P = (a, 1, a)/Z on {−1, 0, 1} and
// Q = (a, 1, a)/Z on {0, 1, 2}. H_λ(P‖Q) = (a + (1 − λa)⁺ + (a − λ)⁺)/Z: at λ = 1, 1/Z; at
// λ = e (V = 1, λa = e^{1/2} > 1), a/Z. The pair is symmetric, so both directions agree.
TEST(TruncatedDiscreteGaussian, OneStepWindowByHand) {
  const MechanismSpec s = parse_mechanism_spec("dgauss:sigma2=1,truncation=1");
  const Precision p = 256;
  const Interval a = exp(Interval(q(-1, 2), p)), z = Interval(1L, p) + Interval(2L, p) * a;
  for (auto d : {NeighbourDirection::both, NeighbourDirection::remove, NeighbourDirection::add}) {
    EXPECT_TRUE(overlap(at(s, Rational(0), 1, d), Interval(1L, p) / z));
    EXPECT_TRUE(overlap(at(s, Rational(1), 1, d), a / z));
  }
  // two uses: the planner's self-composition (lattice power) against compose() of two copies
  const CertifiedLoss one = *s.certified_loss(p);
  const Interval two = compose(one, one).delta(Interval(1L, p));
  EXPECT_TRUE(overlap(at(s, Rational(0), 2), two));
}

// A window far wider than the noise (T = 40 at σ² = 1 leaves out mass below e^{−800}) agrees with
// the untruncated mechanism's closed form (CKS20; discrete_gaussian_delta), a second algorithm.
TEST(TruncatedDiscreteGaussian, WideWindowMatchesTheUntruncatedClosedForm) {
  for (const char* base : {"dgauss:sigma2=1", "dgauss:sigma2=2,sensitivity=2"}) {
    const MechanismSpec wide = parse_mechanism_spec(std::string(base) + ",truncation=40");
    const MechanismSpec full = parse_mechanism_spec(base);
    for (const Rational& e : {Rational(0), q(1, 2), Rational(2)})
      EXPECT_TRUE(overlap(at(wide, e), at(full, e))) << base << " at " << to_string(e);
  }
}

// dp-accounting 0.6.0's own expected values (privacy_loss_mechanism_test.py,
// test_discrete_gaussian_get_delta_for_epsilon_vectorized, sigma = 1, truncation 2 and sigma = 10,
// sensitivity 3, truncation 5), to the tests' tolerance 5·10⁻⁸.
TEST(TruncatedDiscreteGaussian, AgreesWithDpAccountingsTests) {
  const MechanismSpec a = parse_mechanism_spec("dgauss:sigma2=1,truncation=2");
  const MechanismSpec b = parse_mechanism_spec("dgauss:sigma2=100,truncation=5,sensitivity=3");
  auto near = [](const Interval& v, double x) {
    return mpq_get_d(v.lower().get_mpq_t()) > x - 5e-8 && mpq_get_d(v.upper().get_mpq_t()) < x + 5e-8;
  };
  EXPECT_TRUE(near(at(a, Rational(-2)), 0.872038958));
  EXPECT_TRUE(near(at(a, Rational(1)), 0.150574425));
  EXPECT_TRUE(near(at(b, Rational(0)), 0.285480872));
  EXPECT_TRUE(near(at(b, Rational(2)), 0.263672394));
}

// Law: the truncated pair is symmetric (x ↦ Δ − x swaps P and Q), so remove and add agree, and the
// least ε of the both profile is certified: δ at its upper end is at most the target.
RC_GTEST_PROP(TruncatedDiscreteGaussian, DirectionsAgreeAndLeastEpsilonMeetsTheTarget, ()) {
  const long num = *rc::gen::inRange(1L, 30L), den = *rc::gen::inRange(1L, 8L);
  const long t = *rc::gen::inRange(0L, 6L), sens = *rc::gen::inRange(1L, 4L);
  const long e_num = *rc::gen::inRange(-8L, 9L);
  const MechanismSpec s = parse_mechanism_spec("dgauss:sigma2=" + std::to_string(num) + "/" + std::to_string(den) +
                                               ",truncation=" + std::to_string(t) + ",sensitivity=" + std::to_string(sens));
  const Rational e = q(e_num, 4);
  RC_ASSERT(overlap(at(s, e, 1, NeighbourDirection::remove), at(s, e, 1, NeighbourDirection::add)));
  const Interval eps = s.epsilon_at_delta(q(1, 10));
  if (eps.upper_is_finite() && eps.upper() > 0) {
    const Interval d = at(s, eps.upper());
    RC_ASSERT(d.lower() <= q(1, 10));
  }
}

// Degenerate parameters are the exact pairs they are. No noise (σ = 0, b = 0, σ² = 0, r = 0) with a
// positive sensitivity: P and Q are points at 0 and Δ, so H_λ(P‖Q) = 1 for every λ ≥ 0 (δ = 1 at
// every ε, no finite ε below δ = 1). Sensitivity 0 or one bucket: P = Q, so δ(ε) = (1 − e^ε)⁺
// (0 for ε ≥ 0, 1 − e^ε below, by δ(ε) = 1 − e^ε + e^ε·δ(−ε)) and ε = 0 at every δ.
TEST(DegenerateSpecs, AreTheExactPairsTheyAre) {
  for (const char* text : {"gauss:sigma=0", "laplace:b=0", "dgauss:sigma2=0", "dgauss:sigma2=0,truncation=3",
                           "dlaplace:r=0,sensitivity=2", "gauss:sigma=0,sensitivity=1/2"}) {
    const MechanismSpec s = parse_mechanism_spec(text);
    EXPECT_EQ(s.degenerate(), DegeneratePair::disjoint) << text;
    for (long e : {-1L, 0L, 3L}) {
      const Interval d = at(s, Rational(e), 4);
      EXPECT_EQ(d.lower(), 1) << text << " at " << e;
      EXPECT_EQ(d.upper(), 1) << text << " at " << e;
    }
    EXPECT_FALSE(s.epsilon_at_delta(q(1, 3)).lower_is_finite()) << text;
    EXPECT_EQ(s.epsilon_at_delta(Rational(1)).upper(), 0) << text;
    EXPECT_FALSE(s.renyi(Rational(2)).upper_is_finite()) << text;
    EXPECT_EQ(parse_mechanism_spec(s.to_string()), s) << text;
    EXPECT_FALSE(s.describe().empty());
  }
  for (const char* text : {"gauss:sigma=1,sensitivity=0", "gauss:sigma=0,sensitivity=0", "laplace:b=2,sensitivity=0",
                           "dlaplace:a=1,sensitivity=0", "dgauss:sigma2=2,sensitivity=0", "krr:k=1,lambda=5",
                           "krr:k=1,epsilon=1"}) {
    const MechanismSpec s = parse_mechanism_spec(text);
    EXPECT_EQ(s.degenerate(), DegeneratePair::identical) << text;
    EXPECT_EQ(at(s, Rational(0), 3).upper(), 0) << text;
    EXPECT_EQ(at(s, Rational(2)).upper(), 0) << text;
    const Interval below = at(s, Rational(-1));  // 1 − e^{−1}
    const Interval expected = Interval(1L, 256) - exp(Interval(Rational(-1), 256));
    EXPECT_TRUE(overlap(below, expected)) << text;
    EXPECT_EQ(s.epsilon_at_delta(Rational(0)).upper(), 0) << text;
    EXPECT_EQ(s.renyi(Rational(3)).upper(), 0) << text;
  }
  EXPECT_EQ(parse_mechanism_spec("gauss:sigma=1").degenerate(), DegeneratePair::none);
}

// q = 0: the record is never sampled, so the subsampled pair is the identical one, whatever the
// mechanism (even the noiseless one).
TEST(DegenerateSpecs, SamplingRateZeroIsTheIdenticalPair) {
  EXPECT_EQ(parse_sampling_rate("poisson:q=0"), Rational(0));
  for (const char* text : {"gauss:sigma=0", "rr:lambda=3", "dlaplace:a=1/2"}) {
    const MechanismSpec s = parse_mechanism_spec(text);
    CompositionComponent c{text, s, std::nullopt, 2, std::nullopt};
    c = poisson_subsampled(c, Rational(0), true, "test");
    const std::vector<CompositionComponent> one{c};
    const ComposedPrivacy law(one, plan_composition(one));
    EXPECT_EQ(law.delta_at_epsilon(Interval::zero(128)).upper(), 0) << text;
  }
  try {
    parse_sampling_rate("poisson:q=-1/2");
    ADD_FAILURE() << "accepted a negative rate";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "q");
  }
}

// The Poisson-subsampled discrete Laplace with an irrational r = e^{−a}, one use, against the closed
// form of its remove direction at sensitivity 1 (worked by hand): base atoms ratio e^{a} (masses
// 1/(1+r), r/(1+r)) and e^{−a} (swapped); subsampled ratios q·e^{±a} + 1 − q, so for λ between them
// H_λ(A‖B) = (q·1/(1+r) + (1−q)·r/(1+r)) − λ·r/(1+r), with r = e^{−a}.
TEST(SubsampledCertifiedLoss, DiscreteLaplaceWithIrrationalRMatchesTheClosedForm) {
  const MechanismSpec s = parse_mechanism_spec("dlaplace:a=1");
  CompositionComponent c{"dlaplace:a=1", s, std::nullopt, 1, std::nullopt};
  c = poisson_subsampled(c, q(1, 2), true, "test");
  const std::vector<CompositionComponent> one{c};
  const CompositionPlan plan = plan_composition(one);
  EXPECT_EQ(plan.route, CompositionRoute::certified_loss) << plan.reason;
  const ComposedPrivacy law(one, plan, 256);
  const Precision p = 256;
  const Interval r = exp(Interval(Rational(-1), p)), z = Interval(1L, p) + r, half(q(1, 2), p);
  const Interval lambda(q(3, 2), p);  // between q·e^{−1} + 1/2 ≈ 0.68 and q·e + 1/2 ≈ 1.86
  const Interval expected = (half / z + half * r / z) - lambda * r / z;
  EXPECT_TRUE(overlap(law.delta_at_lambda(q(3, 2), NeighbourDirection::remove), expected));
  // the least ε at that δ in the remove direction is ln(3/2)
  const Interval eps = law.least_epsilon(expected.upper(), NeighbourDirection::remove);
  EXPECT_TRUE(eps.lower() <= log(lambda).upper());
  // Three uses (fast convolution with the rate) against exact tables: DLap(r′) for r′ > r is DLap(r)
  // plus independent noise (a mixture of the point 0 and DLap(r′)), so δ falls as r grows; with
  // r₋ < e^{−1} < r₊ rational, the exact δ of r₊ ≤ the true δ ≤ the exact δ of r₋.
  c.times = 3;
  const std::vector<CompositionComponent> three{c};
  const CompositionPlan plan3 = plan_composition(three);
  EXPECT_EQ(plan3.route, CompositionRoute::fast_convolution) << plan3.reason;
  const Interval d3 = ComposedPrivacy(three, plan3, 128).delta_at_epsilon(Interval(Rational(1), 128));
  auto exact3 = [](const char* r) {
    CompositionComponent e{r, parse_mechanism_spec(r), std::nullopt, 3, std::nullopt};
    const std::vector<CompositionComponent> v{poisson_subsampled(e, q(1, 2), true, "test")};
    return ComposedPrivacy(v, plan_composition(v), 128).delta_at_epsilon(Interval(Rational(1), 128));
  };
  const Interval more_noise = exact3("dlaplace:r=367880/1000000"), less_noise = exact3("dlaplace:r=367879/1000000");
  EXPECT_TRUE(d3.lower() <= less_noise.upper() && more_noise.lower() <= d3.upper());
}

// Law: subsampling at q = 1 leaves the pair as it is, so SubsampledCertifiedLoss(base, 1) answers as
// the base CertifiedLoss in every direction; and at any q the subsampled δ never exceeds the base δ
// in the both direction (amplification: the mixture is a post-processing of the sampled pair).
RC_GTEST_PROP(SubsampledCertifiedLoss, RateOneIsTheBaseAndSubsamplingNeverHurts, ()) {
  const long a_num = *rc::gen::inRange(1L, 12L), sens = *rc::gen::inRange(1L, 4L);
  const long q_num = *rc::gen::inRange(1L, 10L), e_num = *rc::gen::inRange(0L, 12L);
  const CertifiedLoss base = *parse_mechanism_spec("dlaplace:a=" + std::to_string(a_num) + "/4,sensitivity=" +
                                                   std::to_string(sens)).certified_loss(128);
  const Interval lambda = exp(Interval(q(e_num, 4), 128));
  const SubsampledCertifiedLoss same(base, Rational(1));
  RC_ASSERT(overlap(same.delta(lambda, NeighbourDirection::remove), base.hockey_stick(lambda)));
  RC_ASSERT(overlap(same.delta(lambda, NeighbourDirection::add), base.swapped().hockey_stick(lambda)));
  const SubsampledCertifiedLoss sub(base, q(q_num, 10));
  RC_ASSERT(sub.delta(lambda).lower() <= base.delta(lambda).upper());
}

}  // namespace
}  // namespace exactdp
