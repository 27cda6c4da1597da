// The privacy parameter λ = e^ε (exactdp/numeric/privacy_parameter.hpp, THEOREMS.md §0.3, B.15).
//
// Where expected values come from: "hand" (e^0 = 1, ln 1 = 0, the two forms, error texts);
// "published" (e^{1/2} = 1.6487212707…, e^{0.1} = 1.1051709180756…, e = 2.718281828459…, all
// cross-checked with mpmath at 40 digits); "second computation" (1024-bit enclosures that the
// brackets must contain).
#include "exactdp/core/error.hpp"
#include "exactdp/numeric/privacy_parameter.hpp"
#include "numeric/print_decision.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>

namespace exactdp {
namespace {

Rational make(long n, long d) {
  Rational q(n, d);
  q.canonicalize();
  return q;
}

rc::Gen<long> uniform(long lo, long hi) { return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi + 1)); }
/// ε = m/d in [0, 10] with small numerator and denominator.
rc::Gen<Rational> epsilon() {
  return rc::gen::apply([](long m, long d) { return make(m, d); }, uniform(0, 1000), uniform(100, 1000));
}

void expect_error(const std::function<void()>& f, const std::string& field, const std::string& value) {
  try {
    f();
    ADD_FAILURE() << "no exactdp::Error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_EQ(e.value(), value) << e.what();
  }
}

// ------------------------------------------------------------------ the two forms

TEST(PrivacyParameter, BaseFormIsExact) {
  const PrivacyParameter p = PrivacyParameter::from_lambda(make(3, 2));
  EXPECT_EQ(p.form(), PrivacyParameter::Form::lambda);
  EXPECT_TRUE(p.is_exact());
  EXPECT_EQ(p.lambda(), make(3, 2));
  EXPECT_EQ(p.lambda_bracket(64), std::make_pair(make(3, 2), make(3, 2)));
  EXPECT_TRUE(p.lambda_enclosure(64).contains(make(3, 2)));
  EXPECT_FALSE(p.exact_epsilon().has_value());  // ln(3/2) is irrational
  // Second computation: ε = ln(3/2) enclosed at 256 bits; exp of it must give back 3/2.
  EXPECT_TRUE(exp(p.epsilon_enclosure(256)).contains(make(3, 2)));
  EXPECT_EQ(p.to_string(), "lambda=3/2");
}

TEST(PrivacyParameter, EpsilonZeroAndLambdaOneAreTheSameExactParameter) {
  // Hand: e^0 = 1 and ln 1 = 0, exactly.
  const PrivacyParameter e0 = PrivacyParameter::from_epsilon(0), l1 = PrivacyParameter::from_lambda(1);
  EXPECT_TRUE(e0.is_exact());
  EXPECT_EQ(e0.lambda(), 1);
  EXPECT_EQ(e0, l1);
  EXPECT_EQ(e0, PrivacyParameter());
  EXPECT_EQ(l1.exact_epsilon(), Rational(0));
  EXPECT_EQ(l1.epsilon_enclosure(64).to_string(), "[0, 0]");
  EXPECT_EQ(e0.lambda_enclosure(64).to_string(), "[1, 1]");
  EXPECT_EQ(e0.lambda_bracket(64), std::make_pair(Rational(1), Rational(1)));
  EXPECT_EQ(e0.to_string(), "epsilon=0");
}

TEST(PrivacyParameter, EpsilonFormIsCertified) {
  const PrivacyParameter p = PrivacyParameter::parse_epsilon("0.1");
  EXPECT_EQ(p, PrivacyParameter::from_epsilon(make(1, 10)));  // "0.1" is exactly 1/10
  EXPECT_FALSE(p.is_exact());
  EXPECT_EQ(p.exact_epsilon(), make(1, 10));
  EXPECT_TRUE(p.epsilon_enclosure(64).contains(make(1, 10)));
  // e^{0.1} is irrational, so there is no exact λ to return.
  expect_error([&] { (void)p.lambda(); }, "epsilon", "1/10");
  // Published: e^{0.1} = 1.1051709180756476…; the 64-bit bracket lies within 10^−15 of it.
  const auto [lo, hi] = p.lambda_bracket(64);
  EXPECT_LT(lo, hi);
  EXPECT_GE(lo, 1);
  EXPECT_GT(lo, parse_rational("1.105170918075647"));
  EXPECT_LT(hi, parse_rational("1.105170918075648"));
  EXPECT_EQ(p.to_string(), "epsilon=1/10");
}

// Equality is exact: a rational λ never equals e^ε for ε ≠ 0 (Lindemann–Weierstrass), even when
// they are as close as 2^−60.
TEST(PrivacyParameter, EqualityIsExact) {
  const Rational near_sqrt_e = exp(Interval(make(1, 2), 64)).lower();
  EXPECT_NE(PrivacyParameter::from_epsilon(make(1, 2)), PrivacyParameter::from_lambda(near_sqrt_e));
  EXPECT_NE(PrivacyParameter::from_epsilon(make(1, 2)), PrivacyParameter::from_epsilon(make(1, 3)));
  EXPECT_EQ(PrivacyParameter::parse_lambda("1.5"), PrivacyParameter::from_lambda(make(3, 2)));
  EXPECT_NE(PrivacyParameter::from_lambda(2), PrivacyParameter::from_lambda(3));
}

// ------------------------------------------------------------------ errors name field and value

TEST(PrivacyParameter, InvalidValuesAreRejected) {
  expect_error([] { PrivacyParameter::from_lambda(make(1, 2)); }, "lambda", "1/2");
  expect_error([] { PrivacyParameter::from_epsilon(-1); }, "epsilon", "-1");
  // Parsed values are reported as written, under the caller's field name.
  expect_error([] { PrivacyParameter::parse_lambda("0.5", "claims[2].lambda"); }, "claims[2].lambda", "0.5");
  expect_error([] { PrivacyParameter::parse_epsilon("-0.1"); }, "epsilon", "-0.1");
  expect_error([] { PrivacyParameter::parse_epsilon("abc", "eps"); }, "eps", "abc");
  expect_error([] { PrivacyParameter::parse_lambda("1/0"); }, "lambda", "1/0");
  expect_error([] { PrivacyParameter::parse_lambda(""); }, "lambda", "");
  EXPECT_EQ(PrivacyParameter::parse_lambda("1").lambda(), 1);  // the boundary λ = 1 is allowed
  // Hand: e^{10^9} > 2^{1.4·10^9} exceeds MPFR's default largest exponent 2^30 − 1, so no finite
  // upper bracket exists; this must be an error, not an internal failure or a wrong bound.
  expect_error([] { PrivacyParameter::parse_epsilon("1e9").lambda_bracket(64); }, "epsilon", "1000000000");
}

// ------------------------------------------------------------------ brackets

// Second computation: the bracket at 64 bits contains the 1024-bit enclosure of e^ε, and the
// brackets nest and shrink as the precision doubles (a p-bit float is also a 2p-bit float).
RC_GTEST_PROP(PrivacyParameter, BracketsContainHighPrecisionValueAndShrink, ()) {
  const Rational eps = *epsilon();
  RC_PRE(eps != 0);
  const PrivacyParameter p = PrivacyParameter::from_epsilon(eps);
  const Interval fine = p.lambda_enclosure(1024);
  auto [lo, hi] = p.lambda_bracket(64);
  RC_ASSERT(lo >= 1);
  RC_ASSERT(lo <= fine.lower() && fine.upper() <= hi);
  for (Precision prec = 128; prec <= 1024; prec *= 2) {
    const auto [lo2, hi2] = p.lambda_bracket(prec);
    RC_ASSERT(lo <= lo2 && lo2 < hi2 && hi2 <= hi);
    RC_ASSERT(hi2 - lo2 < hi - lo);
    lo = lo2;
    hi = hi2;
  }
  RC_ASSERT(hi - lo < pow2(-1000));  // e^10 < 2^15, so 1024 bits leave < 2^−1000
}

// Base form: ε = ln λ is certified; exp of the ε enclosure gives back λ (inverse functions).
RC_GTEST_PROP(PrivacyParameter, EpsilonEnclosureInvertsLambda, ()) {
  const Rational lambda = 1 + *epsilon();
  const PrivacyParameter p = PrivacyParameter::from_lambda(lambda);
  RC_ASSERT(exp(p.epsilon_enclosure(128)).contains(lambda));
  RC_ASSERT(p.lambda_bracket(64) == std::make_pair(lambda, lambda));
}

// The use B.15 makes of brackets: δ(λ) = (3 − λ)⁺/4, the profile of a pair whose worst-case
// likelihood ratio is 3 (hand: non-increasing in λ). At ε = 1, δ(e) = (3 − e)/4 = 0.070429…
// (published e, mpmath). δ(lo) ≤ 0.0705 proves (1, 0.0705)-DP; δ(hi) > 0.0704 refutes (1, 0.0704).
TEST(PrivacyParameter, BracketsDecideProfilesSoundly) {
  auto delta = [](const Rational& lambda) { return std::max(Rational(0), Rational((3 - lambda) / 4)); };
  const auto [lo, hi] = PrivacyParameter::from_epsilon(1).lambda_bracket(64);
  EXPECT_LE(delta(lo), parse_rational("0.0705"));  // proves δ(e) ≤ 0.0705
  EXPECT_GT(delta(hi), parse_rational("0.0704"));  // proves δ(e) > 0.0704
}

// ------------------------------------------------------------------ decisions on λ and ε

TEST(PrivacyParameter, DecideLambdaAndEpsilon) {
  const PrivacyParameter half = PrivacyParameter::from_epsilon(make(1, 2));
  // Published: e^{1/2} = 1.6487… ≤ 33/20.
  EXPECT_EQ(decide_lambda(half, Relation::less_equal, make(33, 20)), (Decision{Tri::yes, 64}));
  EXPECT_EQ(decide_epsilon(half, Relation::greater_equal, make(1, 2)), (Decision{Tri::yes, 0}));
  // Hand: exact forms are compared exactly.
  const PrivacyParameter three_halves = PrivacyParameter::from_lambda(make(3, 2));
  EXPECT_EQ(decide_lambda(three_halves, Relation::less_equal, make(3, 2)), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_lambda(PrivacyParameter::from_epsilon(0), Relation::less, 1), (Decision{Tri::no, 0}));
  EXPECT_EQ(decide_epsilon(PrivacyParameter::from_lambda(1), Relation::less_equal, 0), (Decision{Tri::yes, 0}));
  // Published: ln 2 = 0.6931… < 7/10, decided through decide_log.
  EXPECT_EQ(decide_epsilon(PrivacyParameter::from_lambda(2), Relation::less, make(7, 10)).outcome, Tri::yes);
  EXPECT_EQ(decide_epsilon(PrivacyParameter::from_lambda(2), Relation::greater, 0), (Decision{Tri::yes, 0}));
}

}  // namespace
}  // namespace exactdp
