// Exact tables of RR_{λ,δ}, k-ary RR and the clamped discrete Laplace mechanism against the
// closed forms of THEOREMS.md A.2, B.11, D.3 and the clamping fact X-CLAMP-EXACT (B.14).
#include "exactdp/divergence/hockey_stick.hpp"
#include "support/exact.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "support/generators.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

namespace exactdp {
namespace {

using testing::q;

Rational positive_part(const Rational& x) { return std::max(x, Rational(0)); }

/// λ ≥ 1 as 1 + a small rational.
rc::Gen<Rational> lambda_gen() {
  return rc::gen::map(testing::small_rational(3), [](const Rational& x) { return Rational(1 + x); });
}
/// δ ∈ [0, 1] with small denominators.
rc::Gen<Rational> delta_gen() {
  return rc::gen::apply([](int n, int d) { return q(std::min(n, d), d); }, rc::gen::inRange(0, 11), rc::gen::inRange(1, 11));
}
/// r ∈ (0, 1) as n/d, 1 ≤ n < d ≤ 8.
rc::Gen<Rational> r_gen() {
  return rc::gen::mapcat(rc::gen::inRange(2, 9), [](int d) {
    return rc::gen::map(rc::gen::inRange(1, d), [d](int n) { return q(n, d); });
  });
}

// ------------------------------------------------------------------ randomized response

// THEOREMS.md A.2 table, λ = 3, δ = 1/10: (Leak,0) δ, (NoLeak,0) (1−δ)λ/(1+λ) = 27/40,
// (NoLeak,1) (1−δ)/(1+λ) = 9/40, (Leak,1) 0 — and the mirror image in world 1.
TEST(RandomizedResponse, TableA2) {
  auto rr = randomized_response(3, q(1, 10));
  EXPECT_EQ(rr.world0.mass({Flag::leak, 0}), q(1, 10));
  EXPECT_EQ(rr.world0.mass({Flag::no_leak, 0}), q(27, 40));
  EXPECT_EQ(rr.world0.mass({Flag::no_leak, 1}), q(9, 40));
  EXPECT_EQ(rr.world0.mass({Flag::leak, 1}), 0);
  EXPECT_EQ(rr.world1.mass({Flag::leak, 1}), q(1, 10));
  EXPECT_EQ(rr.world1.mass({Flag::no_leak, 1}), q(27, 40));
  EXPECT_EQ(rr.world1.mass({Flag::no_leak, 0}), q(9, 40));
  EXPECT_EQ(rr.world1.mass({Flag::leak, 0}), 0);
  EXPECT_EQ(randomized_response(3, 0, 1).size(), 2u);  // δ = 0: no Leak outcomes
}

// E.1: C(2, 1/10) has H_2 = 1/10 and H_1 = 2/5 (the same values the divergence tests reach from
// hand-written masses).
TEST(RandomizedResponse, ReferenceValuesE1) {
  auto L = privacy_loss(randomized_response(2, q(1, 10)));
  EXPECT_EQ(hockey_stick(L, 2), q(1, 10));
  EXPECT_EQ(hockey_stick(L, 1), q(2, 5));
}

// A.2: for λ′ ≥ 1, H_{λ′}(RR(0)‖RR(1)) = δ + (1−δ)(λ − λ′)⁺/(1+λ), the same in both directions.
RC_GTEST_PROP(RandomizedResponse, ProfileIsTheA2ClosedForm, ()) {
  const Rational lambda = *lambda_gen(), delta = *delta_gen(), at = *lambda_gen();
  const auto L = privacy_loss(randomized_response(lambda, delta));
  const Rational closed = delta + (1 - delta) * positive_part(lambda - at) / (1 + lambda);
  RC_ASSERT(hockey_stick(L, at) == closed);
  RC_ASSERT(hockey_stick(L.swapped(), at) == closed);
  RC_ASSERT(PrivacyProfile(L).delta(at) == closed);
}

// A.1/A.2: T(RR_{ε,δ}) = f_{ε,δ}; RR_{ε,δ} is the canonical pair of f_{ε,δ}.
RC_GTEST_PROP(RandomizedResponse, TradeOffIsEpsilonDelta, ()) {
  const Rational lambda = *lambda_gen();
  const Rational delta = *rc::gen::suchThat(delta_gen(), [](const Rational& d) { return d < 1; });
  RC_ASSERT(TradeOff::of(privacy_loss(randomized_response(lambda, delta))) == TradeOff::epsilon_delta(lambda, delta));
}

TEST(RandomizedResponse, RejectsBadParameters) {
  EXPECT_THROW(randomized_response(q(1, 2), 0), Error);
  EXPECT_THROW(randomized_response(2, q(3, 2)), Error);
  EXPECT_THROW(randomized_response(2, -1), Error);
  EXPECT_THROW(randomized_response(2, 0, 2), Error);
  try {
    randomized_response(q(1, 2), 0);
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "lambda");
    EXPECT_EQ(e.value(), "1/2");
  }
}

// ------------------------------------------------------------------ k-ary randomized response

// A.2: output v w.p. λ/(λ+k−1), others 1/(λ+k−1); ln λ-DP with max ratio exactly λ.
TEST(KAryRandomizedResponse, TableAndPureRatio) {
  auto pair = k_ary_randomized_response(5, 3);
  EXPECT_EQ(pair.world0.mass(0), q(3, 7));
  EXPECT_EQ(pair.world0.mass(1), q(1, 7));
  EXPECT_EQ(pair.world0.mass(4), q(1, 7));
  EXPECT_EQ(pair.world1.mass(1), q(3, 7));
  const auto L = privacy_loss(pair);
  EXPECT_EQ(max_ratio(L), ExtendedRational(3));
  EXPECT_EQ(max_ratio(L.swapped()), ExtendedRational(3));
  EXPECT_EQ(L, k_ary_randomized_response_loss(5, 3));
}

RC_GTEST_PROP(KAryRandomizedResponse, CompactLossEqualsTable, ()) {
  const unsigned long k = *rc::gen::inRange(2, 9);
  const Rational lambda = *lambda_gen();
  const auto L = privacy_loss(k_ary_randomized_response(k, lambda));
  RC_ASSERT(L == k_ary_randomized_response_loss(k, lambda));
  RC_ASSERT(max_ratio(L) == ExtendedRational(lambda));
  // k = 2 is RR_{ln λ, 0}
  if (k == 2) RC_ASSERT(L == privacy_loss(randomized_response(lambda, 0)));
}

TEST(KAryRandomizedResponse, RejectsBadParameters) {
  EXPECT_THROW(k_ary_randomized_response(1, 2), Error);
  EXPECT_THROW(k_ary_randomized_response_loss(1, 2), Error);
  EXPECT_THROW(k_ary_randomized_response(3, q(1, 2)), Error);
  EXPECT_THROW(k_ary_randomized_response(3, 2, 3), Error);
}

// ------------------------------------------------------------------ discrete Laplace

// D.3: F(m) = 1 − r^{m+1}/(1+r) (m ≥ 0), r^{−m}/(1+r) (m < 0); F(0) = 1/(1+r).
TEST(DiscreteLaplace, CdfClosedForm) {
  EXPECT_EQ(discrete_laplace_cdf(q(1, 2), 0), q(2, 3));
  EXPECT_EQ(discrete_laplace_cdf(q(1, 2), -1), q(1, 3));
  EXPECT_EQ(discrete_laplace_cdf(q(1, 2), 2), 1 - q(1, 8) / q(3, 2));
  EXPECT_THROW(discrete_laplace_cdf(1, 0), Error);
}

// D.3 table: interior Pr[Z = k − v] = (1−r)/(1+r)·r^|k−v|, endpoints the closed-form tails; the
// cumulative masses of clamp(v+Z) equal F(k − v) below hi, and the total is exactly 1.
RC_GTEST_PROP(DiscreteLaplace, ClampedMassesMatchTheCdf, ()) {
  const Rational r = *r_gen();
  const long lo = *rc::gen::inRange(-4, 3), hi = lo + *rc::gen::inRange(0, 7), v = *rc::gen::inRange(-6, 7);
  const Dist<long> out = discrete_laplace(r, v, lo, hi);
  RC_ASSERT(out.total() == 1);
  Rational cumulative = 0;
  for (long k = lo; k < hi; ++k) {
    cumulative += out.mass(k);
    RC_ASSERT(cumulative == discrete_laplace_cdf(r, k - v));
    if (k > lo) RC_ASSERT(out.mass(k) == (1 - r) / (1 + r) * pow(r, static_cast<unsigned long>(std::abs(k - v))));
  }
}

// X-CLAMP-EXACT (B.14): with lo ≤ 0 and Δ ≤ hi the clamped pair has exactly the PLD — hence the
// profile — of any wider window; in particular of the minimal window [0, Δ].
RC_GTEST_PROP(DiscreteLaplace, ClampingOutsideTheValuesIsExact, ()) {
  const Rational r = *r_gen();
  const unsigned long delta = *rc::gen::inRange(1, 5);
  const long lo = -*rc::gen::inRange(0, 4), hi = static_cast<long>(delta) + *rc::gen::inRange(0, 4);
  const long wider_lo = lo - *rc::gen::inRange(0, 4), wider_hi = hi + *rc::gen::inRange(0, 4);
  const auto narrow = privacy_loss(discrete_laplace_pair(r, delta, lo, hi));
  const auto wide = privacy_loss(discrete_laplace_pair(r, delta, wider_lo, wider_hi));
  RC_ASSERT(narrow == wide);
  RC_ASSERT(narrow == privacy_loss(discrete_laplace_pair(r, delta)));
  const Rational lambda = *lambda_gen();
  RC_ASSERT(PrivacyProfile(narrow).delta(lambda) == PrivacyProfile(wide).delta(lambda));
}

// B.11: for λ ≥ 1, H_λ = F(x*) − λ·F(x* − Δ), x* = max{k ∈ {0..Δ} : r^{2k−Δ} > λ}, 0 if none;
// the same in both directions. Pure DP: max ratio r^{−Δ}.
RC_GTEST_PROP(DiscreteLaplace, ProfileIsTheB11ClosedForm, ()) {
  const Rational r = *r_gen();
  const unsigned long delta = *rc::gen::inRange(1, 5);
  const Rational lambda = *rc::gen::oneOf(lambda_gen(), rc::gen::map(rc::gen::inRange(0, 5), [&](int j) {
    return Rational(pow(1 / r, static_cast<unsigned long>(j)));  // exactly at a breakpoint
  }));
  const auto L = privacy_loss(discrete_laplace_pair(r, delta));
  Rational closed = 0;
  for (long k = static_cast<long>(delta); k >= 0; --k) {
    const long e = 2 * k - static_cast<long>(delta);
    const Rational ratio = e >= 0 ? pow(r, e) : Rational(pow(1 / r, -e));
    if (ratio > lambda) {
      closed = discrete_laplace_cdf(r, k) - lambda * discrete_laplace_cdf(r, k - static_cast<long>(delta));
      break;
    }
  }
  RC_ASSERT(hockey_stick(L, lambda) == closed);
  RC_ASSERT(hockey_stick(L.swapped(), lambda) == closed);
  RC_ASSERT(max_ratio(L) == ExtendedRational(pow(1 / r, delta)));
}

// B.11: with Δ = 1 DLap(r) is privacy-equivalent to RR_{ln(1/r)}: here even the PLDs coincide.
RC_GTEST_PROP(DiscreteLaplace, SensitivityOneIsRandomizedResponse, ()) {
  const Rational r = *r_gen();
  const auto dlap = privacy_loss(discrete_laplace_pair(r, 1, -2, 3));
  const auto rr = privacy_loss(randomized_response(1 / r, 0));
  RC_ASSERT(dlap == rr);
  RC_ASSERT(PrivacyProfile(dlap).symmetric() == PrivacyProfile(rr).symmetric());
}

TEST(DiscreteLaplace, RejectsBadParameters) {
  EXPECT_THROW(discrete_laplace(1, 0, 0, 1), Error);
  EXPECT_THROW(discrete_laplace(0, 0, 0, 1), Error);
  EXPECT_THROW(discrete_laplace(q(1, 2), 0, 2, 1), Error);
  EXPECT_THROW(discrete_laplace(q(1, 2), 0, 0, 1L << 40), Error);
  EXPECT_THROW(discrete_laplace_pair(q(1, 2), 0), Error);
  EXPECT_EQ(discrete_laplace(q(1, 2), 5, 3, 3), Dist<long>::point(3));
}

}  // namespace
}  // namespace exactdp
