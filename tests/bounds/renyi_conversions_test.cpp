#include "exactdp/bounds/renyi_conversions.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace exactdp {
namespace {

using bounds_test::decimal;
using bounds_test::encloses_reference;
using bounds_test::gen_components;
using bounds_test::q;
using bounds_test::ratio;
using bounds_test::upper_at_least;

// Reference decimals in this file were computed independently with mpmath at 40 digits (the CKS20
// optimum by root-finding on the derivative in α); they are not from the library.

/// The Rényi moment Φ_α(RR_u) = (u^α + u^{1−α})/(1+u) for integer α ≥ 2 (THEOREMS.md A.2).
Rational rr_moment(const Rational& u, unsigned long alpha) {
  return (pow(u, alpha) + 1 / pow(u, alpha - 1)) / (1 + u);
}

/// ε_α = ln Φ_α/(α − 1) of ⊗RR_{u_i}: moments multiply over a product (THEOREMS.md A.1).
Interval rr_rdp_epsilon(const std::vector<LambdaDelta>& pure_components, unsigned long alpha) {
  Rational moment(1);
  for (const auto& c : pure_components) moment *= rr_moment(c.lambda, alpha);
  return log(Interval(moment)) / Interval(Rational(alpha - 1));
}

Rational lambda_lower(const Interval& epsilon) { return exp(epsilon).lower(); }

TEST(RdpConversionBound, MomentHelperMatchesCatalogueE1) {
  // THEOREMS.md E.1 (catalogue values): Φ₂(RR₂) = 3/2, Φ₂(RR₃) = 7/3, Φ₂(RR₄) = 13/4;
  // Φ₃(RR₂) = 11/4, Φ₃(RR₃) = 61/9, Φ₃(RR₄) = 205/16.
  EXPECT_EQ(rr_moment(Rational(2), 2), q("3/2"));
  EXPECT_EQ(rr_moment(Rational(3), 2), q("7/3"));
  EXPECT_EQ(rr_moment(Rational(4), 2), q("13/4"));
  EXPECT_EQ(rr_moment(Rational(2), 3), q("11/4"));
  EXPECT_EQ(rr_moment(Rational(3), 3), q("61/9"));
  EXPECT_EQ(rr_moment(Rational(4), 3), q("205/16"));
}

TEST(RdpConversionBound, ClosedFormsAtRR2) {
  // RR₂, α = 2: ε₂ = ln(3/2); δ = 1/100. Mironov: ln(3/2) + ln 100 = ln 150.
  // Improved: ln(3/2) + ln(1/2) − (ln(1/100) + ln 2) = ln(75/2).
  const Interval eps2 = log(Interval(q("3/2")));
  EXPECT_TRUE(encloses_reference(rdp_to_dp_epsilon_mironov(Rational(2), eps2, q("1/100")),
                                 "5.010635294096255750013996024833077551774"));
  EXPECT_TRUE(encloses_reference(rdp_to_dp_epsilon(Rational(2), eps2, q("1/100")),
                                 "3.624340932976365131179531781916724415623"));
  // δ form at that ε gives back 1/100.
  const Interval back = rdp_to_dp_delta(Rational(2), eps2, log(Interval(q("75/2"))));
  EXPECT_TRUE(back.contains(q("1/100"))) << back.to_string();
  // The best of a curve picks the smallest ε.
  const std::vector<RdpGuarantee> curve = {{Rational(2), eps2}, {Rational(3), rr_rdp_epsilon({{Rational(2), 0}}, 3)}};
  const auto best = best_rdp_to_dp_epsilon(curve, q("1/100"));
  for (const auto& point : curve)
    EXPECT_LE(best.value.upper(), rdp_to_dp_epsilon(point.alpha, point.epsilon, q("1/100")).upper());
}

// BG-RDP-CONV: for ⊗RR_{u_i} with exact moments, the converted (ε, δ) satisfies
// δ_opt(λ_lo) ≤ δ at a certified λ_lo ≤ e^ε (exact check, sound by monotonicity).
RC_GTEST_PROP(RdpConversionBound, RdpToDpIsSoundOnRRProducts, ()) {
  const auto components = gen_components(3, /*pure=*/true);
  const unsigned long alpha = static_cast<unsigned long>(*rc::gen::inRange(2, 7));
  const Rational delta = ratio(*rc::gen::inRange(1, 21), 100);
  const Interval eps_alpha = rr_rdp_epsilon(components, alpha);
  const Interval mironov = rdp_to_dp_epsilon_mironov(Rational(alpha), eps_alpha, delta);
  const Interval improved = rdp_to_dp_epsilon(Rational(alpha), eps_alpha, delta);
  RC_ASSERT(optimal_composition_delta(components, lambda_lower(mironov)) <= delta);
  RC_ASSERT(optimal_composition_delta(components, lambda_lower(improved)) <= delta);
  RC_ASSERT(improved.upper() <= mironov.upper());
  // δ form at a rational λ: δ_opt(λ) ≤ the certified upper end of the converted δ(ln λ).
  const Rational lambda = ratio(*rc::gen::inRange(10, 200), 10);
  RC_ASSERT(upper_at_least(rdp_to_dp_delta(Rational(alpha), eps_alpha, epsilon_of(lambda)),
                           optimal_composition_delta(components, lambda)));
}

TEST(ZcdpConversionBound, ReferenceValues) {
  // ρ = 1/2, δ = 10⁻⁵: Bun–Steinke 5.2985…, CKS20 Cor 13 4.7283… (optimal α ≈ 5.4318).
  const Rational delta = q("1/100000");
  EXPECT_TRUE(encloses_reference(zcdp_to_dp_epsilon_bun_steinke(Interval(q("1/2")), delta),
                                 "5.298525912188081207567368868904801527654"));
  const auto cks = zcdp_to_dp_epsilon(Interval(q("1/2")), delta);
  const Rational reference = decimal("4.728386984943313899970548988479460080968");
  EXPECT_GE(cks.value.upper(), reference - decimal("1e-35"));  // never below the infimum
  EXPECT_LE(cks.value.upper(), reference + decimal("1e-9"));   // the order search finds it
  EXPECT_LT(abs(cks.alpha - decimal("5.43184967")), decimal("1e-3"));
  // δ form at the reference ε: δ ≈ 10⁻⁵ (an upper bound on the infimum over α).
  const auto d = zcdp_to_dp_delta(Interval(q("1/2")), Interval(reference));
  EXPECT_GE(d.value.upper(), delta * (1 - decimal("1e-30")));
  EXPECT_LE(d.value.upper(), delta * (1 + decimal("1e-6")));

  // ρ = 1/100, δ = 10⁻⁶.
  EXPECT_TRUE(encloses_reference(zcdp_to_dp_epsilon_bun_steinke(Interval(q("1/100")), q("1/1000000")),
                                 "0.7533844377699676893904813522608966320585"));
  const auto small = zcdp_to_dp_epsilon(Interval(q("1/100")), q("1/1000000"));
  EXPECT_GE(small.value.upper(), decimal("0.6216926545596024950222950930883194027895") - decimal("1e-35"));
  EXPECT_LE(small.value.upper(), decimal("0.6216926545596024950222950930883194027895") + decimal("1e-9"));
}

TEST(ZcdpConversionBound, PureToZcdp) {
  EXPECT_TRUE(encloses_reference(pure_dp_to_zcdp(epsilon_of(Rational(2))),
                                 "0.2402265069591007123335512631633324858653"));
  EXPECT_TRUE(pure_dp_to_zcdp(Interval(Rational(3))).contains(q("9/2")));
}

// End to end: k-fold ⊗RR_{u_i} is Σ(ln u_i)²/2-zCDP; both conversions are sound against the exact
// optimal composition, and CKS20 Cor 13 improves on Bun–Steinke.
RC_GTEST_PROP(ZcdpConversionBound, ZcdpToDpIsSoundOnRRProducts, ()) {
  const auto components = gen_components(4, /*pure=*/true);
  const Rational delta = ratio(*rc::gen::inRange(1, 21), 200);
  Interval rho = Interval::zero(default_precision);
  for (const auto& c : components) rho += pure_dp_to_zcdp(epsilon_of(c.lambda));
  const Interval bs = zcdp_to_dp_epsilon_bun_steinke(rho, delta);
  OrderSearchOptions quick;
  quick.refine_steps = 30;
  const auto cks = zcdp_to_dp_epsilon(rho, delta, quick);
  RC_ASSERT(optimal_composition_delta(components, lambda_lower(bs)) <= delta);
  RC_ASSERT(optimal_composition_delta(components, lambda_lower(cks.value)) <= delta);
  RC_ASSERT(cks.value.upper() <= bs.upper());
  const Rational lambda = ratio(*rc::gen::inRange(10, 100), 10);
  RC_ASSERT(upper_at_least(zcdp_to_dp_delta(rho, epsilon_of(lambda), quick).value,
                           optimal_composition_delta(components, lambda)));
}

TEST(RdpConversionBound, RejectsBadParametersNamingThem) {
  auto field_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.field() + "=" + e.value();
    }
    return std::string("no error");
  };
  const Interval one(Rational(1));
  EXPECT_EQ(field_of([&] { rdp_to_dp_epsilon(Rational(1), one, q("1/10")); }), "alpha=1");
  EXPECT_EQ(field_of([&] { rdp_to_dp_epsilon_mironov(q("1/2"), one, q("1/10")); }), "alpha=1/2");
  EXPECT_EQ(field_of([&] { rdp_to_dp_epsilon(Rational(2), one, 0); }), "delta=0");
  EXPECT_EQ(field_of([&] { rdp_to_dp_epsilon(Rational(2), one, q("3/2")); }), "delta=3/2");
  EXPECT_EQ(field_of([&] { zcdp_to_dp_epsilon_bun_steinke(Interval(Rational(-1)), q("1/10")); }).substr(0, 4), "rho=");
  EXPECT_EQ(field_of([&] { zcdp_to_dp_epsilon(one, 0); }), "delta=0");
  EXPECT_THROW(best_rdp_to_dp_epsilon(std::vector<RdpGuarantee>{}, q("1/10")), Error);
}

}  // namespace
}  // namespace exactdp
