// Certified privacy-loss distributions (exact ratios c·e^s, certified masses) and the certified
// versions of RR, k-fold RR (KOV15) and the discrete Laplace mechanism given by ε. Expected
// values come from the exact machinery on rational instances (divergence/, bounds/), from the
// closed forms of THEOREMS.md A.2 and B.11, from E.3, and from mpmath where marked.
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "support/exact.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/mechanism/certified_noninteractive.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "support/generators.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace exactdp {
namespace {

using testing::q;

bool overlap(const Interval& a, const Interval& b) {
  return (!a.lower_is_finite() || !b.upper_is_finite() || a.lower() <= b.upper()) &&
         (!b.lower_is_finite() || !a.upper_is_finite() || b.lower() <= a.upper());
}

void expect_encloses(const Interval& x, const std::string& reference, const std::string& tolerance = "1e-20") {
  const Rational ref = parse_rational(reference), slack = parse_rational("1e-24");
  EXPECT_LE(x.lower(), ref + slack) << x.to_string() << " vs " << reference;
  EXPECT_GE(x.upper(), ref - slack) << x.to_string() << " vs " << reference;
  EXPECT_LT(x.width_upper(), parse_rational(tolerance)) << x.to_string();
}

rc::Gen<Rational> lambda_gen() {
  return rc::gen::map(testing::small_rational(2), [](const Rational& x) { return Rational(1 + x); });
}
rc::Gen<Rational> delta_gen() {
  return rc::gen::apply([](int n, int d) { return q(std::min(n, d), d); }, rc::gen::inRange(0, 4), rc::gen::inRange(1, 11));
}

// ------------------------------------------------------------------ SymbolicRatio, CertifiedLoss

TEST(MechanismCertifiedLoss, SymbolicRatiosAreOrderedNumerically) {
  const auto a = SymbolicRatio::exponential(2, q(-1, 2));  // 2e^{−1/2} ≈ 1.213
  const auto b = SymbolicRatio::exponential(1, q(1, 5));   // e^{1/5} ≈ 1.221
  EXPECT_EQ(decide_ratio_less(a, b).outcome, Tri::yes);
  EXPECT_EQ(decide_ratio_less(b, a).outcome, Tri::no);
  EXPECT_EQ(decide_ratio_less(SymbolicRatio::zero(), a).outcome, Tri::yes);
  EXPECT_EQ(decide_ratio_less(a, SymbolicRatio::infinity()).outcome, Tri::yes);
  EXPECT_EQ((a * b), SymbolicRatio::exponential(2, q(-3, 10)));
  EXPECT_THROW(SymbolicRatio::zero() * SymbolicRatio::infinity(), Error);
  EXPECT_EQ(a.to_string(), "2*e^(-1/2)");
}

TEST(MechanismCertifiedLoss, FromAtomsValidates) {
  const Interval half(q(1, 2)), one(Rational(1)), zero = Interval::zero(default_precision);
  const auto e = SymbolicRatio::exponential(1, q(1, 3));
  // equal ratios merge: two halves of ratio 1 become one atom
  EXPECT_EQ(CertifiedLoss::from_atoms({{SymbolicRatio(), half, half}, {SymbolicRatio(), half, half}}).size(), 1u);
  EXPECT_THROW(CertifiedLoss::from_atoms({{SymbolicRatio(), half, one}}), Error);          // P sums to 1/2
  EXPECT_THROW(CertifiedLoss::from_atoms({{SymbolicRatio::zero(), one, one}}), Error);     // ratio 0, P > 0
  EXPECT_THROW(CertifiedLoss::from_atoms({{SymbolicRatio::infinity(), one, one}}), Error);  // ratio ∞, Q > 0
  EXPECT_THROW(CertifiedLoss::from_atoms({{e, zero, half}, {SymbolicRatio(), one, half}}), Error);
  EXPECT_THROW(CertifiedLoss::from_atoms({{SymbolicRatio(), -one, one}}), Error);
}

// An exact loss enclosed at 128 bits answers its exact profile, least ε and Rényi divergence.
RC_GTEST_PROP(MechanismCertifiedLoss, EnclosesTheExactLoss, ()) {
  const auto table = *testing::weight_table(4, 4);
  const PrivacyLoss exact = testing::loss_of(table);
  const CertifiedLoss certified = CertifiedLoss::from_exact(exact);
  const Rational lambda = *lambda_gen();
  RC_ASSERT(certified.hockey_stick(Interval(lambda)).contains(hockey_stick(exact, lambda)));
  RC_ASSERT(certified.delta(Interval(lambda)).contains(PrivacyProfile(exact).delta(lambda)));
  const Rational delta = *delta_gen();
  const PrivacyProfile profile(exact);
  const Interval eps = certified.least_epsilon(delta);
  if (profile.least_lambda(delta).is_infinite()) {
    RC_ASSERT(!eps.lower_is_finite());
  } else {
    RC_ASSERT(overlap(eps, profile.least_epsilon(delta)));
  }
  const Interval d2 = certified.renyi_divergence(2);
  const Interval exact_d2 = renyi_divergence(exact, 2);
  RC_ASSERT(d2.upper_is_finite() == exact_d2.upper_is_finite());
  if (d2.upper_is_finite()) RC_ASSERT(overlap(d2, exact_d2));
}

// compose/self_compose of certified losses agree with the exact PLD composition (merging of
// equal ratios and the numeric sort included).
RC_GTEST_PROP(MechanismCertifiedLoss, CompositionAgreesWithExactComposition, ()) {
  const PrivacyLoss a = testing::loss_of(*testing::weight_table(3, 3)), b = testing::loss_of(*testing::weight_table(3, 3));
  const CertifiedLoss ca = CertifiedLoss::from_exact(a), cb = CertifiedLoss::from_exact(b);
  const PrivacyLoss ab = compose(a, b);
  const CertifiedLoss cab = compose(ca, cb);
  RC_ASSERT(cab.size() == ab.size());
  const Rational lambda = *lambda_gen();
  RC_ASSERT(cab.delta(Interval(lambda)).contains(PrivacyProfile(ab).delta(lambda)));
  // (the exact side composes explicitly rather than through PrivacyLoss::self_compose)
  RC_ASSERT(ca.self_compose(3).delta(Interval(lambda)).contains(PrivacyProfile(compose(a, compose(a, a))).delta(lambda)));
}

// Mixed ratios (rational c times e^s) are merged exactly and sorted by certified comparisons.
TEST(MechanismCertifiedLoss, HeterogeneousCompositionIsSortedAndNormalised) {
  const CertifiedLoss rr = randomized_response_loss(q(1, 2), q(1, 100));
  const CertifiedLoss dlap = CertifiedLoss::from_exact(privacy_loss(discrete_laplace_pair(q(1, 2), 2)));
  const CertifiedLoss both = compose(rr.self_compose(3), dlap);
  for (std::size_t i = 1; i < both.size(); ++i)
    EXPECT_EQ(decide_ratio_less(both.atoms()[i - 1].ratio, both.atoms()[i].ratio).outcome, Tri::yes);
  Interval total_p = Interval::zero(default_precision), total_q = total_p;
  for (const auto& a : both.atoms()) total_p += a.p, total_q += a.q;
  EXPECT_TRUE(total_p.contains(Rational(1)));
  EXPECT_TRUE(total_q.contains(Rational(1)));
  // composing can only lose privacy: δ of the composition ≥ δ of each part (post-processing)
  const Interval lambda(Rational(2));
  EXPECT_GE(both.delta(lambda).upper(), rr.self_compose(3).delta(lambda).lower());
  EXPECT_GE(both.delta(lambda).upper(), dlap.delta(lambda).lower());
}

// ------------------------------------------------------------------ RR given by ε

// ε = 0 gives RR_{0,δ} exactly: the certified PLD contains the exact one (λ = 1).
TEST(RandomizedResponseCertified, ZeroEpsilonIsTheExactTable) {
  const CertifiedLoss c = randomized_response_loss(0, q(1, 3));
  const PrivacyLoss e = privacy_loss(randomized_response(1, q(1, 3)));
  ASSERT_EQ(c.size(), e.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    EXPECT_TRUE(c.atoms()[i].p.contains(e.atoms()[i].p));
    EXPECT_TRUE(c.atoms()[i].q.contains(e.atoms()[i].q));
  }
}

// A.2 for δ = 0: D_α(RR_ε) = ln((λ^α + λ^{1−α})/(1+λ))/(α−1), λ = e^ε; δ > 0 gives +∞.
TEST(RandomizedResponseCertified, RenyiIsTheA2ClosedForm) {
  for (const Rational& alpha : {Rational(2), q(3, 2), Rational(5)}) {
    const Interval lambda = exp(Interval(q(7, 10)));
    const Interval closed = log((pow(lambda, Interval(alpha)) + pow(lambda, Interval(Rational(1 - alpha)))) /
                                (Interval(Rational(1)) + lambda)) /
                            Interval(Rational(alpha - 1));
    const Interval d = randomized_response_loss(q(7, 10), 0).renyi_divergence(alpha);
    EXPECT_TRUE(overlap(d, closed)) << d.to_string() << " vs " << closed.to_string();
    EXPECT_LT(d.width_upper(), parse_rational("1e-30"));
  }
  EXPECT_FALSE(randomized_response_loss(1, q(1, 10)).renyi_divergence(2).upper_is_finite());
}

// KOV15 over intervals at a rational λ contains the exact OPT-COMP value of bounds/ (B.11).
RC_GTEST_PROP(RandomizedResponseCertified, CompositionDeltaContainsExactOptComp, ()) {
  const Rational lambda = *lambda_gen(), delta = *delta_gen(), lambda_g = *lambda_gen();
  const unsigned long k = *rc::gen::inRange(1, 7);
  const Interval d = randomized_response_composition_delta(Interval(lambda), delta, k, Interval(lambda_g));
  RC_ASSERT(d.contains(optimal_composition_delta(lambda, delta, k, lambda_g)));
  // …and the certified PLD route agrees
  RC_ASSERT(d.contains(PrivacyProfile(privacy_loss(randomized_response(lambda, delta)).self_compose(k)).delta(lambda_g)));
}

// KOV15 least ε at a rational λ contains ln of the exact least λ (divergence/ route).
RC_GTEST_PROP(RandomizedResponseCertified, LeastEpsilonContainsExactValue, ()) {
  const Rational lambda = *lambda_gen(), delta = *delta_gen(), target = *delta_gen();
  const unsigned long k = *rc::gen::inRange(1, 7);
  const Interval eps = randomized_response_composition_least_epsilon(Interval(lambda), delta, k, target);
  const PrivacyProfile profile(privacy_loss(randomized_response(lambda, delta)).self_compose(k));
  if (profile.least_lambda(target).is_infinite()) {
    RC_ASSERT(eps.upper_is_finite() == false);
  } else {
    RC_ASSERT(overlap(eps, profile.least_epsilon(target)));
  }
}

// E.3: ten-fold RR_{ln(11/10)} at δ = 1/1000 has least λ = 81684104240933/40000000000000.
TEST(RandomizedResponseCertified, LeastEpsilonReferenceE3) {
  const Interval eps = randomized_response_composition_least_epsilon(Interval(q(11, 10)), 0, 10, q(1, 1000));
  const Interval exact = log(Interval(Rational(mpz_class("81684104240933"), mpz_class("40000000000000"))));
  EXPECT_TRUE(overlap(eps, exact));
  EXPECT_LT(eps.width_upper(), parse_rational("1e-30"));
}

// λ = e^{1/2}, k = 10: mpmath's binomial sums (same formula, 60 digits, bisection for the inverse).
TEST(RandomizedResponseCertified, IrrationalLambdaMatchesMpmath) {
  const Interval lambda = exp(Interval(q(1, 2)));
  expect_encloses(randomized_response_composition_delta(lambda, 0, 10, exp(Interval(Rational(1)))),
                  "0.33167848292869685359466369440701865367");
  expect_encloses(randomized_response_composition_least_epsilon(lambda, 0, 10, parse_rational("1e-5")),
                  "4.9988541204123691182947051723954205865");
  expect_encloses(randomized_response_composition_least_epsilon(lambda, parse_rational("1e-6"), 10,
                                                                parse_rational("1e-4")),
                  "4.9896393957263245187417389228868582828");
  // δ_g below the catastrophic mass 1 − (1 − 10⁻⁵)^10: no finite ε
  EXPECT_FALSE(randomized_response_composition_least_epsilon(lambda, parse_rational("1e-5"), 10,
                                                             parse_rational("1e-5"))
                   .upper_is_finite());
  // the certified PLD route gives the same numbers
  const CertifiedLoss ten = randomized_response_loss(q(1, 2), 0).self_compose(10);
  expect_encloses(ten.least_epsilon(parse_rational("1e-5")), "4.9988541204123691182947051723954205865");
  expect_encloses(ten.delta_at_epsilon(Interval(Rational(1))), "0.33167848292869685359466369440701865367");
}

// ------------------------------------------------------------------ discrete Laplace given by ε

// B.11: with Δ = 1, DLap(e^{−ε}) is privacy-equivalent to RR_ε (same ratios, same masses).
TEST(DiscreteLaplaceCertified, SensitivityOneIsRandomizedResponse) {
  const CertifiedLoss dlap = discrete_laplace_loss(q(3, 4), 1), rr = randomized_response_loss(q(3, 4), 0);
  ASSERT_EQ(dlap.size(), rr.size());
  for (std::size_t i = 0; i < dlap.size(); ++i) {
    EXPECT_EQ(dlap.atoms()[i].ratio, rr.atoms()[i].ratio);
    EXPECT_TRUE(overlap(dlap.atoms()[i].p, rr.atoms()[i].p));
    EXPECT_TRUE(overlap(dlap.atoms()[i].q, rr.atoms()[i].q));
  }
}

// B.11 in ε form: x* = ⌈(Δ − ε′/ε₀)/2⌉ − 1, δ(ε′) = 1 − r^{x*+1}/(1+r) − e^{ε′}r^{Δ−x*}/(1+r)
// (0 if x* < 0), with ε₀ = ε/Δ and r = e^{−ε₀}.
RC_GTEST_PROP(DiscreteLaplaceCertified, ProfileIsTheB11EpsilonForm, ()) {
  const unsigned long delta = *rc::gen::inRange(1, 5);
  const Rational epsilon = q(*rc::gen::inRange(1, 30), 10), at = q(*rc::gen::inRange(0, 40), 10);
  const Rational eps0 = epsilon / delta;
  const Rational half = (Rational(delta) - at / eps0) / 2;
  mpz_class ceil_half;
  mpz_cdiv_q(ceil_half.get_mpz_t(), half.get_num_mpz_t(), half.get_den_mpz_t());
  const long x = ceil_half.get_si() - 1;
  const Interval r = exp(Interval(Rational(-eps0))), one(Rational(1));
  const Interval closed = x < 0 ? Interval::zero(default_precision)
                                : one - pow(r, x + 1) / (one + r) -
                                      exp(Interval(at)) * pow(r, static_cast<long>(delta) - x) / (one + r);
  const Interval d = discrete_laplace_loss(epsilon, delta).delta_at_epsilon(Interval(at));
  RC_ASSERT(overlap(d, closed));
  RC_ASSERT(d.width_upper() < parse_rational("1e-30"));
}

// ------------------------------------------------------------------ continuous Laplace

// B.11: δ(ε) = 1 − e^{(ε−ε₀)/2}; its inverse at δ returns ε₀ + 2 ln(1 − δ), clipped at 0.
TEST(ContinuousLaplace, LeastEpsilonInvertsTheProfile) {
  const Rational target = q(1, 10);
  const Interval eps = laplace_least_epsilon(2, 3, target);  // ε₀ = 3/2
  EXPECT_LT(eps.width_upper(), parse_rational("1e-30"));
  expect_encloses(eps, "1.2892789686843473975449980383213744034");  // 3/2 + 2 ln(9/10)
  EXPECT_TRUE(laplace_least_epsilon(2, 3, 0).contains(q(3, 2)));
  const Interval zero = laplace_least_epsilon(2, 3, q(9, 10));  // δ(0) = 1 − e^{−3/4} < 9/10
  EXPECT_TRUE(zero.lower() == 0 && zero.upper() == 0);
  EXPECT_THROW(laplace_least_epsilon(0, 1, target), Error);
}

}  // namespace
}  // namespace exactdp
