#include "exactdp/bounds/gaussian.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/bounds/renyi_conversions.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace exactdp {
namespace {

using bounds_test::decimal;
using bounds_test::encloses_reference;
using bounds_test::q;
using bounds_test::ratio;

// Reference decimals in this file were computed independently with mpmath at 40 digits by
// numerical integration of the hockey-stick divergence ∫(p − e^ε q)⁺ (Gaussian and Laplace
// densities), of the Rényi moment ∫p^α q^{1−α} (Laplace), and by bisection on the closed form for
// the least ε; they do not come from the library.

// ---------------------------------------------------------------- Gaussian DP

TEST(GaussianDpBound, DeltaMatchesNumericalIntegration) {
  EXPECT_TRUE(encloses_reference(gaussian_dp_delta(Interval(Rational(1)), Interval(Rational(1))),
                                 "0.1269367375066439458008296247577668804151"));
  EXPECT_TRUE(encloses_reference(gaussian_dp_delta(Interval(Rational(1)), Interval(Rational(0))),
                                 "0.3829249225480262072754092212166754797672"));
  EXPECT_TRUE(encloses_reference(gaussian_dp_delta(Interval(q("1/2")), Interval(q("1/10"))),
                                 "0.1592605074139916651476088885134141052594"));
  EXPECT_TRUE(encloses_reference(gaussian_dp_delta(Interval(Rational(2)), Interval(Rational(3))),
                                 "0.1838130765444721559701072702014369207153"));
}

TEST(GaussianDpBound, HigherPrecisionAgrees) {
  // The 128-bit enclosure and a 1024-bit enclosure of the same δ overlap, and the latter is narrower.
  const Interval low = gaussian_dp_delta(Interval(q("3/4")), Interval(q("5/4")));
  const Interval high = gaussian_dp_delta(Interval(q("3/4"), 1024), Interval(q("5/4"), 1024));
  EXPECT_LE(high.lower(), low.upper());
  EXPECT_LE(low.lower(), high.upper());
  EXPECT_LT(high.width_upper(), low.width_upper());
  EXPECT_LT(high.width_upper(), decimal("1e-290"));
}

TEST(GaussianDpBound, CompositionOfMus) {
  // 3/5 ⊕ 4/5 = 1 exactly; k equal μ compose to μ√k.
  const std::vector<Rational> exact = {q("3/5"), q("4/5")};
  EXPECT_TRUE(gaussian_dp_composition(exact).contains(Rational(1)));
  const std::vector<Interval> certified = {Interval(q("3/5")), Interval(q("4/5"))};
  EXPECT_TRUE(gaussian_dp_composition(certified).contains(Rational(1)));
  const std::vector<Rational> nine(9, q("1/3"));
  EXPECT_TRUE(gaussian_dp_composition(nine).contains(Rational(1)));
  // The profile of the composition equals the direct profile of G_1.
  const Interval composed = gaussian_dp_delta(gaussian_dp_composition(exact), Interval(Rational(1)));
  EXPECT_TRUE(encloses_reference(composed, "0.1269367375066439458008296247577668804151"));
}

// Composition of Gaussian mechanisms: √Σ(Δ/σ_i)² equals the μ of one Gaussian mechanism with
// 1/σ² = Σ 1/σ_i² (direct evaluation), and the profiles agree.
RC_GTEST_PROP(GaussianDpBound, CompositionMatchesDirectEvaluation, ()) {
  const int k = *rc::gen::inRange(1, 5);
  std::vector<Rational> mus;
  Rational inverse_variance(0);
  for (int i = 0; i < k; ++i) {
    const Rational sigma = ratio(*rc::gen::inRange(1, 20), *rc::gen::inRange(1, 5));
    mus.push_back(gaussian_mechanism_mu(Rational(1), sigma));
    inverse_variance += 1 / (sigma * sigma);
  }
  const Interval composed = gaussian_dp_composition(mus);
  const Interval direct = sqrt(Interval(inverse_variance));  // μ = Δ/σ with σ² = 1/Σσ_i⁻²
  RC_ASSERT(composed.lower() <= direct.upper());
  RC_ASSERT(direct.lower() <= composed.upper());
  const Interval eps(ratio(*rc::gen::inRange(0, 30), 10));
  const Interval d1 = gaussian_dp_delta(composed, eps), d2 = gaussian_dp_delta(direct, eps);
  RC_ASSERT(d1.lower() <= d2.upper());
  RC_ASSERT(d2.lower() <= d1.upper());
}

RC_GTEST_PROP(GaussianDpBound, DeltaIsNonIncreasingInEpsilon, ()) {
  const Interval mu(ratio(*rc::gen::inRange(1, 40), 10));
  const Rational e1 = ratio(*rc::gen::inRange(0, 50), 10);
  const Rational e2 = e1 + ratio(*rc::gen::inRange(1, 50), 10);
  RC_ASSERT(gaussian_dp_delta(mu, Interval(e2)).lower() <= gaussian_dp_delta(mu, Interval(e1)).upper());
}

TEST(GaussianDpBound, LeastEpsilonBracketsTheReference) {
  struct Row {
    const char* mu;
    const char* delta;
    const char* epsilon;
  };
  const Row rows[] = {{"1", "1/100000", "4.377178095681224627650116293242010913153"},
                      {"1/2", "1/1000", "1.352276244802554167411225893858364171238"},
                      {"3", "1/10", "7.5244360688485762283194770308974173622"}};
  for (const auto& row : rows) {
    SCOPED_TRACE(row.mu);
    const Interval mu(q(row.mu));
    const Rational delta = q(row.delta);
    const Interval bracket = gaussian_dp_least_epsilon(mu, delta);
    EXPECT_TRUE(encloses_reference(bracket, row.epsilon, "1e-35", "1e-11"));
    // the defining properties, re-checked with fresh certified evaluations
    EXPECT_GT(gaussian_dp_delta(mu, Interval(bracket.lower())).lower(), delta);
    EXPECT_LE(gaussian_dp_delta(mu, Interval(bracket.upper())).upper(), delta);
  }
  // δ above δ(0) = TV: ε = 0.
  const Interval zero = gaussian_dp_least_epsilon(Interval(Rational(1)), q("1/2"));
  EXPECT_TRUE(zero.contains(Rational(0)));
  EXPECT_EQ(zero.width_upper(), 0);
}

// The Gaussian mechanism's RDP αΔ²/(2σ²), converted to (ε, δ), is sound against its exact GDP
// profile: δ_μ(ε_lo) ≤ δ at a certified lower end of the converted ε.
RC_GTEST_PROP(GaussianDpBound, RdpConversionIsSoundAgainstExactProfile, ()) {
  const Rational sensitivity = ratio(*rc::gen::inRange(1, 4), 1);
  const Rational sigma = ratio(*rc::gen::inRange(1, 30), 4);
  const Rational alpha = ratio(*rc::gen::inRange(5, 60), 4);
  const Rational delta = ratio(*rc::gen::inRange(1, 100), 1000);
  const Interval eps = rdp_to_dp_epsilon(alpha, Interval(gaussian_mechanism_rdp(alpha, sensitivity, sigma)), delta);
  const Rational mu = gaussian_mechanism_mu(sensitivity, sigma);
  RC_ASSERT(gaussian_dp_delta(Interval(mu), Interval(eps.lower())).upper() <= delta);
  RC_ASSERT(gaussian_mechanism_zcdp(sensitivity, sigma) * alpha == gaussian_mechanism_rdp(alpha, sensitivity, sigma));
}

TEST(GaussianDpBound, MechanismLevelsAreExact) {
  EXPECT_EQ(gaussian_mechanism_mu(Rational(2), Rational(4)), q("1/2"));
  EXPECT_EQ(gaussian_mechanism_rdp(Rational(3), Rational(2), Rational(4)), q("3/8"));
  EXPECT_EQ(gaussian_mechanism_zcdp(Rational(1), Rational(2)), q("1/8"));
}

TEST(GaussianDpBound, RejectsBadParametersNamingThem) {
  auto field_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.field();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of([] { gaussian_dp_delta(Interval(Rational(0)), Interval(Rational(1))); }), "mu");
  EXPECT_EQ(field_of([] { gaussian_dp_delta(Interval(Rational(1)), Interval(Rational(-1))); }), "epsilon");
  EXPECT_EQ(field_of([] { gaussian_dp_least_epsilon(Interval(Rational(1)), 0); }), "delta");
  EXPECT_EQ(field_of([] { gaussian_mechanism_mu(Rational(1), Rational(0)); }), "sigma");
  EXPECT_EQ(field_of([] { gaussian_mechanism_rdp(Rational(1), Rational(1), Rational(1)); }), "alpha");
  EXPECT_EQ(field_of([] { gaussian_dp_composition(std::vector<Rational>{Rational(-1)}); }), "mu[0]");
}

// ---------------------------------------------------------------- continuous Laplace

TEST(LaplaceBound, DeltaMatchesNumericalIntegration) {
  // b = 1, Δ = 1, ε = 1/2; b = 2, Δ = 1, ε = 1/4; b = 1, Δ = 2, ε = 3/2; ε = 0 is TV = 1 − e^{−1/2}.
  EXPECT_TRUE(encloses_reference(laplace_dp_delta(Rational(1), Rational(1), Interval(q("1/2"))),
                                 "0.2211992169285951317548297330216793527032"));
  EXPECT_TRUE(encloses_reference(laplace_dp_delta(Rational(2), Rational(1), Interval(q("1/4"))),
                                 "0.117503097415404597135107856770949263778"));
  EXPECT_TRUE(encloses_reference(laplace_dp_delta(Rational(1), Rational(2), Interval(q("3/2"))),
                                 "0.2211992169285951317548297330216793527032"));
  EXPECT_TRUE(encloses_reference(laplace_dp_delta(Rational(1), Rational(1), Interval(Rational(0))),
                                 "0.3934693402873665763962004650088195465581"));
  // at and beyond ε₀ = Δ/b the profile is 0
  EXPECT_TRUE(laplace_dp_delta(Rational(1), Rational(1), Interval(Rational(1))).contains(Rational(0)));
  const Interval beyond = laplace_dp_delta(Rational(1), Rational(1), Interval(Rational(2)));
  EXPECT_EQ(beyond.lower(), 0);
  EXPECT_EQ(beyond.upper(), 0);
  EXPECT_EQ(laplace_mechanism_epsilon(Rational(4), Rational(2)), q("1/2"));
}

TEST(LaplaceBound, RdpMatchesNumericalIntegration) {
  EXPECT_TRUE(encloses_reference(laplace_mechanism_rdp(Rational(2), Rational(1), Rational(1)),
                                 "0.6191236299985928833997885365435069867983"));
  EXPECT_TRUE(encloses_reference(laplace_mechanism_rdp(q("3/2"), Rational(2), Rational(1)),
                                 "0.1559778784857394988440881997154714464357"));
  EXPECT_TRUE(encloses_reference(laplace_mechanism_rdp(Rational(10), Rational(1), Rational(1)),
                                 "0.9286829020966802227865574493058139517729"));
}

// The Laplace RDP, converted to (ε, δ), is sound against the exact Laplace profile; and the RDP is
// at most the pure level ε₀.
RC_GTEST_PROP(LaplaceBound, RdpConversionIsSoundAgainstExactProfile, ()) {
  const Rational scale = ratio(*rc::gen::inRange(1, 20), 4);
  const Rational alpha = ratio(*rc::gen::inRange(5, 60), 4);
  const Rational delta = ratio(*rc::gen::inRange(1, 100), 1000);
  const Interval rdp = laplace_mechanism_rdp(alpha, scale, Rational(1));
  RC_ASSERT(rdp.upper() <= laplace_mechanism_epsilon(scale, Rational(1)));
  const Interval eps = rdp_to_dp_epsilon(alpha, rdp, delta);
  RC_ASSERT(laplace_dp_delta(scale, Rational(1), Interval(eps.lower())).upper() <= delta);
}

TEST(LaplaceBound, RejectsBadParameters) {
  EXPECT_THROW(laplace_dp_delta(Rational(0), Rational(1), Interval(Rational(1))), Error);
  EXPECT_THROW(laplace_dp_delta(Rational(1), Rational(-1), Interval(Rational(1))), Error);
  EXPECT_THROW(laplace_dp_delta(Rational(1), Rational(1), Interval(Rational(-1))), Error);
  EXPECT_THROW(laplace_mechanism_rdp(Rational(1), Rational(1), Rational(1)), Error);
}

}  // namespace
}  // namespace exactdp
