// Laws and known values of the certified interval arithmetic (exactdp/numeric/interval.hpp).
//
// Where expected values come from:
//  - "second computation": the same function evaluated at 1024 bits must lie inside the 64-bit
//    enclosure; the 1024-bit enclosure is the reference, the 64-bit one is under test;
//  - "exact": the true result is an exact rational computed with GMP (arithmetic, integer powers);
//  - "hand": identities such as e^0 = 1, erf(0) = 0, Φ(0) = 1/2 by symmetry;
//  - "published": constants quoted with their source, each also cross-checked with mpmath at
//    40 digits when these tests were written.
#include "exactdp/core/error.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <climits>
#include <functional>
#include <string>
#include <vector>

namespace exactdp {
namespace {

constexpr Precision low = 64;
constexpr Precision high = 1024;

Rational make(long n, long d) {
  Rational q(n, d);
  q.canonicalize();  // gmpxx does not canonicalize (n, d) constructors
  return q;
}

/// An integer uniform in [lo, hi] that shrinks towards lo. RapidCheck's inRange scales the range
/// with the test size (early cases would all be lo), hence the fixed nominal size.
rc::Gen<long> uniform(long lo, long hi) { return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi + 1)); }

/// ±m/d with m ≤ max_n and d in [1, 1000]: small, readable counterexamples (shrink towards 0/1).
rc::Gen<Rational> signed_rational(long max_n) {
  return rc::gen::apply([](long m, bool negative, long d) { return make(negative ? -m : m, d); }, uniform(0, max_n),
                        rc::gen::arbitrary<bool>(), uniform(1, 1000));
}
/// m/d with m in [min_n, max_n] (min_n ≥ 0) and d in [1, 1000].
rc::Gen<Rational> rational_in(long min_n, long max_n) {
  return rc::gen::apply([](long m, long d) { return make(m, d); }, uniform(min_n, max_n), uniform(1, 1000));
}
rc::Gen<Rational> small_rational() { return signed_rational(1000); }
rc::Gen<Rational> positive_rational() { return rational_in(1, 1000); }
/// n/d with 1 ≤ n < d ≤ 1000: a probability strictly inside (0, 1).
rc::Gen<Rational> probability() {
  return rc::gen::mapcat(uniform(2, 1000), [](long d) {
    return rc::gen::map(uniform(1, d - 1), [d](long n) { return make(n, d); });
  });
}
rc::Gen<Precision> precision_in(Precision lo, Precision hi) { return uniform(lo, hi); }

/// |v| bound used to scale the width check: max(1, |lo|, |hi|) of a bounded interval.
Rational magnitude(const Interval& v) {
  Rational m = 1;
  for (const Rational& e : {v.lower(), v.upper()}) m = std::max(m, Rational(abs(e)));
  return m;
}

/// The law every enclosure f must obey at the rational x: the 1024-bit enclosure (a second
/// computation at much higher precision, which contains the true value) lies inside the 64-bit
/// enclosure, and is much narrower. If f were unsound at 64 bits, the true value — and with it the
/// 1024-bit enclosure, which hugs it — would stick out.
void check_refines(const std::function<Interval(const Interval&)>& f, const Rational& x) {
  const Interval coarse = f(Interval(x, low));
  const Interval fine = f(Interval(x, high));
  RC_ASSERT(fine.subset_of(coarse));
  RC_ASSERT(fine.width_upper() <= coarse.width_upper());
  if (coarse.width_upper() > 0) RC_ASSERT(fine.width_upper() < coarse.width_upper());
  // The 1024-bit result is accurate to about 2^−1024 relative; allow 2^32 ulps of slack for the
  // amplification of the input's rounding (|d ln f / d ln x| ≤ 2^32 for our input ranges).
  RC_ASSERT(fine.width_upper() <= pow2(-(high - 32)) * magnitude(fine));
}

// ------------------------------------------------------------------ enclosures (second computation)

RC_GTEST_PROP(IntervalEnclosure, ExpContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return exp(x); }, *small_rational());
}
RC_GTEST_PROP(IntervalEnclosure, Expm1ContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return expm1(x); }, *small_rational());
}
RC_GTEST_PROP(IntervalEnclosure, LogContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return log(x); }, *positive_rational());
}
RC_GTEST_PROP(IntervalEnclosure, Log1pContainsHighPrecisionValue, ()) {
  const Rational x = *positive_rational() - 1;  // (−1, 999]
  check_refines([](const Interval& v) { return log1p(v); }, x);
}
RC_GTEST_PROP(IntervalEnclosure, SqrtContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return sqrt(x); }, *rational_in(0, 1000));
}
RC_GTEST_PROP(IntervalEnclosure, RealPowContainsHighPrecisionValue, ()) {
  const Rational x = *positive_rational();
  const Rational y = *signed_rational(100);
  check_refines([&y](const Interval& v) { return pow(v, Interval(y, v.precision())); }, x);
}
RC_GTEST_PROP(IntervalEnclosure, ErfContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return erf(x); }, *small_rational());
}
RC_GTEST_PROP(IntervalEnclosure, ErfcContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return erfc(x); }, *small_rational());
}
RC_GTEST_PROP(IntervalEnclosure, NormalCdfContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& x) { return normal_cdf(x); }, *small_rational());
}
/// erfc over the MPFI interval t by MPFR alone (decreasing: the ends' images, rounded outward), as
/// exact rationals: the second route beside numeric/'s erfc and Φ, which use Arb's ball arithmetic
/// when it is installed. Precondition: t bounded.
std::pair<Rational, Rational> mpfr_erfc_hull(mpfi_srcptr t) {
  mpfr_t lo, hi;
  mpfr_init2(lo, high);
  mpfr_init2(hi, high);
  mpfr_erfc(lo, &t->right, MPFR_RNDD);
  mpfr_erfc(hi, &t->left, MPFR_RNDU);
  Rational a, b;
  mpfr_get_q(a.get_mpq_t(), lo);
  mpfr_get_q(b.get_mpq_t(), hi);
  mpfr_clear(lo);
  mpfr_clear(hi);
  return {a, b};
}

// Second computation by another library: the 64-bit enclosure (Arb when present) contains MPFR's
// 1024-bit enclosure of the same value (which hugs the truth), for thin (point) and wide arguments.
RC_GTEST_PROP(IntervalEnclosure, ErfcContainsMpfrValue, ()) {
  const Rational a = *small_rational(), w = *rational_in(0, 3);
  for (const Rational& hi_end : std::vector<Rational>{a, Rational(a + w)}) {
    const Interval x = Interval::hull(a, hi_end, low);
    const Interval e = erfc(x);
    mpfi_t t;
    mpfi_init2(t, high);
    mpfi_interv_q(t, Rational(a).get_mpq_t(), Rational(hi_end).get_mpq_t());
    const auto [lo, hi] = mpfr_erfc_hull(t);
    mpfi_clear(t);
    RC_ASSERT(e.lower() <= lo);
    RC_ASSERT(e.upper() >= hi);
  }
}
RC_GTEST_PROP(IntervalEnclosure, NormalCdfContainsMpfrValue, ()) {
  const Rational a = *small_rational();
  const Interval phi = normal_cdf(Interval(a, low));
  // Φ(a) = erfc(−a/√2)/2 with every step in MPFI at 1024 bits and erfc by MPFR
  mpfi_t t, r2;
  mpfi_init2(t, high);
  mpfi_init2(r2, high);
  mpfi_set_q(t, Rational(a).get_mpq_t());
  mpfi_set_ui(r2, 2);
  mpfi_sqrt(r2, r2);
  mpfi_div(t, t, r2);
  mpfi_neg(t, t);
  auto [lo, hi] = mpfr_erfc_hull(t);
  mpfi_clear(t);
  mpfi_clear(r2);
  RC_ASSERT(phi.lower() <= lo / 2);
  RC_ASSERT(phi.upper() >= hi / 2);
  // and narrow where Φ is not astronomically small (|a| ≤ 30). The 64-bit argument is uncertain by
  // up to |a|·2^−63, and ln Φ has slope φ/Φ ≤ |a| + 1 (Mills' ratio), so even the exact image of the
  // argument interval is about (a² + |a|)·2^−63 wide, relatively; allow that with a factor 8 of slack
  // for the evaluation (Arb's ball or MPFR's two ends) and 2^−59 for the final roundings. A blow-up of
  // the enclosure (a lost bit of precision per step, an unthinned ball) exceeds it by far.
  if (abs(a) <= 30) {
    const Rational allowance = (a * a + abs(a)) * pow2(-60) + pow2(-59);
    RC_ASSERT(phi.width_upper() <= allowance * phi.upper());
  }
}
RC_GTEST_PROP(IntervalEnclosure, NormalQuantileContainsHighPrecisionValue, ()) {
  check_refines([](const Interval& p) { return normal_quantile(p); }, *probability());
}

// Widths shrink and enclosures nest along 64, 128, …, 1024 bits: a p-bit float is also a
// 2p-bit float, so directed rounding at 2p bits can only move the ends inward.
RC_GTEST_PROP(IntervalEnclosure, WidthsShrinkAsPrecisionGrows, ()) {
  const Rational x = *positive_rational();
  const std::vector<std::function<Interval(const Interval&)>> fs = {
      [](const Interval& v) { return exp(v); },        [](const Interval& v) { return log(v); },
      [](const Interval& v) { return erf(v); },        [](const Interval& v) { return normal_cdf(-v); },
      [](const Interval& v) { return sqrt(v); },       [](const Interval& v) { return pow(v, Interval(make(1, 3), v.precision())); }};
  for (const auto& f : fs) {
    Interval previous = f(Interval(x, 64));
    for (Precision p = 128; p <= high; p *= 2) {
      const Interval next = f(Interval(x, p));
      RC_ASSERT(next.subset_of(previous));
      RC_ASSERT(next.width_upper() <= previous.width_upper());
      if (previous.width_upper() > 0) RC_ASSERT(next.width_upper() < previous.width_upper());
      previous = next;
    }
  }
}

// ------------------------------------------------------------------ Φ and Φ⁻¹

// Φ(Φ⁻¹(p)) ∋ p: Φ⁻¹ returns [a, b] with Φ(a) ≤ p ≤ Φ(b), and Φ is increasing. Checked at every
// precision from 2 to 100 bits, where the candidates and the rounding are coarsest.
RC_GTEST_PROP(IntervalQuantile, CdfOfQuantileContainsP, ()) {
  const Rational p = *probability();
  const Precision prec = *precision_in(min_precision, 100);
  const Interval pi(p, prec);
  RC_PRE(pi.lower() > 0 && pi.upper() < 1);  // at 2 bits, 999/1000 rounds up to 1
  RC_ASSERT(normal_cdf(normal_quantile(pi)).contains(p));
}

// Φ⁻¹(Φ(x)) ∋ x for |x| ≤ 8 (Φ(8) = 1 − 6·10^−16 still rounds below 1 at 64 bits).
RC_GTEST_PROP(IntervalQuantile, QuantileOfCdfContainsX, ()) {
  const Rational x = *signed_rational(8000) / 1000;
  RC_ASSERT(normal_quantile(normal_cdf(Interval(x, low))).contains(x));
}

// Regression: the old bisection started from −40 rounded to nearest at the caller's precision,
// which is −32 at 2 bits, and returned [−32, −24] for Φ⁻¹(10^−300) ≈ −37.05, excluding it.
TEST(IntervalQuantile, ExtremeTailsAreSoundAtEveryPrecision) {
  Integer ten300;
  mpz_ui_pow_ui(ten300.get_mpz_t(), 10, 300);
  const Rational tiny(Integer(1), ten300);
  // Reference: the 1024-bit enclosure (second computation), which is ~2^−1000 wide.
  const Interval reference = normal_quantile(Interval(tiny, high));
  EXPECT_LT(reference.width_upper(), pow2(-1000));
  for (Precision prec : {2L, 3L, 5L, 17L, 64L, 200L}) {
    SCOPED_TRACE(prec);
    EXPECT_TRUE(reference.subset_of(normal_quantile(Interval(tiny, prec))));
  }
  // Symmetry Φ⁻¹(1 − p) = −Φ⁻¹(p): at 1024 bits 1 − 10^−300 is still below 1. The enclosure of
  // the input is ~2^−1024 ≈ 5.6·10^−309 wide, and dΦ⁻¹/dp = 1/φ(37.05) ≈ 2.7·10^298 (hand), so
  // the result is inherently ~1.5·10^−10 wide; it must contain the mirrored tight reference.
  const Interval upper = normal_quantile(Interval(1 - tiny, high));
  EXPECT_TRUE((-reference).subset_of(upper));
  EXPECT_LT(upper.width_upper(), parse_rational("1e-9"));
}

// Published: Φ⁻¹(0.975) = 1.959963984540054… (the 16-digit value quoted in the Wikipedia article
// "1.96" and printed by R's qnorm(0.975); mpmath gives 1.959963984540054235524594430520551528).
// A 64-bit enclosure is narrower than the 16-digit rounding, so we check that the published
// digits are the correct rounding: the enclosure lies within ±0.5·10^−15 of them.
TEST(IntervalKnownValues, NormalQuantileOfPoint975) {
  const Rational published = parse_rational("1.959963984540054");
  const Interval rounding = Interval::hull(published - parse_rational("0.5e-15"),
                                           published + parse_rational("0.5e-15"), high);
  EXPECT_TRUE(normal_quantile(Interval(make(975, 1000), low)).subset_of(rounding));
  // Also at 8192 bits (the default cap of decide.hpp): it must stay fast and tight.
  const Interval fine = normal_quantile(Interval(make(975, 1000), 8192));
  EXPECT_TRUE(fine.subset_of(rounding));
  EXPECT_LT(fine.width_upper(), pow2(-8000));
}

// ------------------------------------------------------------------ hand-derived values

TEST(IntervalKnownValues, IdentitiesAtZeroAndOne) {
  // Hand: e^0 = 1, e^0 − 1 = 0, ln 1 = 0, ln(1 + 0) = 0, erf(0) = 0, erfc(0) = 1, Φ(0) = 1/2
  // (symmetry of the normal density), Φ⁻¹(1/2) = 0, √4 = 2. All are exact dyadic values, so the
  // enclosures must be exactly these points.
  const Interval zero = Interval::zero(low), one(1L, low);
  EXPECT_EQ(exp(zero).to_string(), "[1, 1]");
  EXPECT_EQ(expm1(zero).to_string(), "[0, 0]");
  EXPECT_EQ(log(one).to_string(), "[0, 0]");
  EXPECT_EQ(log1p(zero).to_string(), "[0, 0]");
  EXPECT_EQ(erf(zero).to_string(), "[0, 0]");
  EXPECT_EQ(erfc(zero).to_string(), "[1, 1]");
  EXPECT_TRUE(normal_cdf(zero).contains(make(1, 2)));
  EXPECT_TRUE(normal_quantile(Interval(make(1, 2), low)).contains(0));
  EXPECT_EQ(sqrt(Interval(4L, low)).to_string(), "[2, 2]");
  EXPECT_TRUE(pow(Interval(make(9, 4), low), Interval(make(1, 2), low)).contains(make(3, 2)));
}

// Published constants: e (OEIS A001113) and ln 2 (OEIS A002162); erf(1) and Φ(1) agree with the
// tables of Abramowitz & Stegun (7.1, 26.2) to the digits tabulated there. The 30-digit strings
// were computed with mpmath at 40 digits (an independent implementation). A 64-bit enclosure
// A 1024-bit enclosure (width ~10^−300) must lie inside [c − 10^−29, c + 10^−29]; the 64-bit one
// must contain the 1024-bit one (so it, too, is consistent with the constant).
TEST(IntervalKnownValues, PublishedConstants) {
  auto near = [](const std::string& digits) {
    const Rational c = parse_rational(digits), eps = parse_rational("1e-29");
    return Interval::hull(c - eps, c + eps, high);
  };
  const std::vector<std::pair<std::function<Interval(const Interval&)>, std::string>> cases = {
      {[](const Interval& x) { return exp(x); }, "2.718281828459045235360287471353"},
      {[](const Interval& x) { return log(x + x); }, "0.693147180559945309417232121458"},
      {[](const Interval& x) { return erf(x); }, "0.842700792949714869341220635083"},
      {[](const Interval& x) { return normal_cdf(x); }, "0.841344746068542948585232545632"}};
  for (const auto& [f, digits] : cases) {
    SCOPED_TRACE(digits);
    const Interval fine = f(Interval(1L, high));
    EXPECT_TRUE(fine.subset_of(near(digits)));
    EXPECT_TRUE(fine.subset_of(f(Interval(1L, low))));
  }
  // A deliberately wrong constant (off by 10^−28) must be rejected, so the checks above can fail.
  EXPECT_FALSE(exp(Interval(1L, high)).subset_of(near("2.718281828459045235360287471453")));
}

// ------------------------------------------------------------------ arithmetic (exact references)

/// Inclusion for + − × ÷ at the rationals a, b: the interval result contains the exact result.
void check_arithmetic(const Rational& a, const Rational& b, Precision pa, Precision pb) {
  const Interval x(a, pa), y(b, pb);
  RC_ASSERT((x + y).contains(a + b));
  RC_ASSERT((x - y).contains(a - b));
  RC_ASSERT((x * y).contains(a * b));
  if (b != 0) RC_ASSERT((x / y).contains(a / b));
  RC_ASSERT((-x).contains(-a));
  RC_ASSERT((x + y).precision() == std::max(pa, pb));  // binary operations use the larger precision
}

RC_GTEST_PROP(IntervalArith, InclusionOfFourOperations, ()) {
  check_arithmetic(*small_rational(), *small_rational(), low, low);
}
RC_GTEST_PROP(IntervalArith, InclusionAtMixedAndTinyPrecisions, ()) {
  const Precision pa = *precision_in(min_precision, 300);
  const Precision pb = *precision_in(min_precision, 300);
  check_arithmetic(*small_rational(), *small_rational(), pa, pb);
}

// Inclusion over whole intervals: every product of endpoints (the extreme points) is contained.
RC_GTEST_PROP(IntervalArith, InclusionOverIntervalsAndAliasing, ()) {
  Rational a = *small_rational(), b = *small_rational(), c = *small_rational(), d = *small_rational();
  if (a > b) std::swap(a, b);
  if (c > d) std::swap(c, d);
  const Interval x = Interval::hull(a, b, low), y = Interval::hull(c, d, low);
  for (const Rational& u : {a, b})
    for (const Rational& v : {c, d}) {
      RC_ASSERT((x * y).contains(u * v));
      RC_ASSERT((x - y).contains(u - v));
      if (c > 0 || d < 0) RC_ASSERT((x / y).contains(u / v));
    }
  Interval z = x;  // z *= z must behave like x * x (MPFI with aliased operands)
  z *= z;
  RC_ASSERT(z.contains(a * b) && z.contains(a * a) && z.contains(b * b));
}

// Integer powers against the exact rational power, at single points and over intervals, including
// negative exponents and sign-straddling bases; each also checked against the tightest possible
// result derived by hand.
RC_GTEST_PROP(IntervalPow, IntegerPowerContainsExactPower, ()) {
  const Rational x = *signed_rational(100);
  const long n = *uniform(-7, 7);
  RC_PRE(n >= 0 || x != 0);
  Rational expected = pow(n >= 0 ? x : Rational(1 / x), static_cast<unsigned long>(n >= 0 ? n : -n));
  RC_ASSERT(pow(Interval(x, low), n).contains(expected));
}

TEST(IntervalPow, SignStraddlingBasesAreTight) {
  // Hand: ξ³ is increasing, so [−2, 3]³ = [−8, 27]; ξ² on [−2, 3] has minimum 0 at ξ = 0 and
  // maximum 9 at ξ = 3. The old implementation (repeated squaring) returned [−18, 27].
  EXPECT_EQ(pow(Interval::hull(-2, 3, low), 3).to_string(), "[-8, 27]");
  EXPECT_EQ(pow(Interval::hull(-2, 3, low), 2).to_string(), "[0, 9]");
  EXPECT_EQ(pow(Interval::hull(-3, -2, low), 2).to_string(), "[4, 9]");
  EXPECT_EQ(pow(Interval::hull(-4, -2, low), -1).to_string(), "[-0.5, -0.25]");
  EXPECT_EQ(pow(Interval::hull(-4, -2, low), -2).to_string(), "[0.0625, 0.25]");
  EXPECT_EQ(pow(Interval::hull(2, 4, low), -2).to_string(), "[0.0625, 0.25]");
  EXPECT_EQ(pow(Interval::hull(-2, 3, low), 0).to_string(), "[1, 1]");
}

TEST(IntervalPow, ExtremeExponentsAreDefined) {
  // −LONG_MIN overflowed in the old implementation (undefined behaviour, caught by UBSan).
  // Hand: 2^LONG_MIN is positive and far below MPFR's smallest number, so the enclosure is
  // [0, tiny]; 2^LONG_MAX is above the largest, so [huge, +∞].
  const Interval tiny = pow(Interval(2L, low), LONG_MIN);
  EXPECT_TRUE(tiny.lower_is_finite() && tiny.lower() == 0 && tiny.upper() > 0);
  const Interval huge = pow(Interval(2L, low), LONG_MAX);
  EXPECT_FALSE(huge.upper_is_finite());
  EXPECT_GT(huge.lower(), 0);
}

// ------------------------------------------------------------------ outward printing

// lower_string ≤ true lower end ≤ q ≤ true upper end ≤ upper_string, where the printed strings
// are parsed back exactly. Scaling by 10^k exercises the plain and scientific formats.
RC_GTEST_PROP(IntervalPrint, OutwardPrintingOfRationals, ()) {
  const Rational base = *small_rational();
  const long up = *uniform(0, 30), down = *uniform(0, 30);
  const Rational q = base * pow(Rational(10), static_cast<unsigned long>(up)) / pow(Rational(10), static_cast<unsigned long>(down));
  const int digits = static_cast<int>(*uniform(1, 30));
  const Precision prec = *precision_in(min_precision, 200);
  const Interval v(q, prec);
  RC_ASSERT(parse_rational(v.lower_string(digits)) <= v.lower());
  RC_ASSERT(v.lower() <= q);
  RC_ASSERT(q <= v.upper());
  RC_ASSERT(v.upper() <= parse_rational(v.upper_string(digits)));
}

RC_GTEST_PROP(IntervalPrint, OutwardPrintingOfTranscendentals, ()) {
  const Interval v = exp(Interval(*small_rational() / 10, low));
  const int digits = static_cast<int>(*uniform(1, 25));
  RC_ASSERT(parse_rational(v.lower_string(digits)) <= v.lower());
  RC_ASSERT(v.upper() <= parse_rational(v.upper_string(digits)));
}

TEST(IntervalPrint, Formats) {
  // Hand: 1/3 at 64 bits printed with 5 digits, rounded down and up.
  EXPECT_EQ(Interval(make(1, 3), low).to_string(5), "[0.33333, 0.33334]");
  EXPECT_EQ(Interval(make(-1, 3), low).to_string(5), "[-0.33334, -0.33333]");
  EXPECT_EQ(Interval::at_least(0, low).to_string(), "[0, inf]");
  // Hand: 2^−30 = 9.31322574615478515625e−10 exactly.
  EXPECT_EQ(Interval(pow2(-30), low).lower_string(3), "9.31e-10");
  EXPECT_EQ(Interval(pow2(-30), low).upper_string(3), "9.32e-10");
}

// ------------------------------------------------------------------ errors

void expect_error(const std::function<void()>& f, const std::string& field) {
  try {
    f();
    ADD_FAILURE() << "no exactdp::Error thrown";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_FALSE(e.value().empty()) << e.what();
  }
}

TEST(IntervalErrors, DomainViolationsThrowNamingFieldAndValue) {
  expect_error([] { log(Interval::hull(-1, 2, low)); }, "x");
  expect_error([] { log(Interval::zero(low)); }, "x");
  expect_error([] { log(Interval(-1L, low)); }, "x");
  expect_error([] { log1p(Interval(-1L, low)); }, "x");
  expect_error([] { sqrt(Interval(make(-1, 100), low)); }, "x");
  expect_error([] { Interval(1L, low) / Interval::hull(-1, 1, low); }, "divisor");
  expect_error([] { Interval(1L, low) / Interval::zero(low); }, "divisor");
  expect_error([] { pow(Interval::hull(-1, 1, low), -1); }, "x");
  expect_error([] { pow(Interval::hull(-1, 2, low), Interval(make(1, 2), low)); }, "x");
  expect_error([] { normal_quantile(Interval::zero(low)); }, "p");
  expect_error([] { normal_quantile(Interval(1L, low)); }, "p");
  expect_error([] { normal_quantile(Interval::hull(make(1, 2), 1, low)); }, "p");
  expect_error([] { Interval(make(1, 3), 1); }, "precision");
  expect_error([] { Interval(make(1, 3), 0); }, "precision");
  expect_error([] { Interval::hull(2, 1, low); }, "lo, hi");
  // An unbounded width is +∞, which must not be returned as a finite rational.
  expect_error([] { Interval::at_least(0, low).width_upper(); }, "x");
}

TEST(IntervalErrors, UndefinedOperationLeavesOperandUnchanged) {
  Interval a = Interval::infinity(low);
  expect_error([&] { a -= Interval::infinity(low); }, "operands");  // ∞ − ∞ is undefined
  EXPECT_EQ(a.to_string(), "[inf, inf]");
}

// ------------------------------------------------------------------ value semantics

TEST(IntervalCopyMove, CopiesAndMovesKeepValueAndPrecision) {
  const Rational third = make(1, 3);
  Interval a(third, 200);
  Interval b(a);
  EXPECT_EQ(b.precision(), 200);
  EXPECT_TRUE(b.subset_of(a) && a.subset_of(b));

  Interval c(std::move(a));
  EXPECT_EQ(c.precision(), 200);
  EXPECT_TRUE(c.contains(third));
  // The moved-from object is a valid interval (it held NaN endpoints before the fix).
  EXPECT_EQ(a.to_string(), "[0, 0]");  // NOLINT(bugprone-use-after-move): documented state
  a += c;
  EXPECT_TRUE(a.contains(third));

  Interval d(make(1, 7), low);
  d = std::move(c);  // move assignment: d takes c's value and precision, c takes d's old value
  EXPECT_EQ(d.precision(), 200);
  EXPECT_TRUE(d.contains(third));
  EXPECT_TRUE(c.contains(make(1, 7)));  // NOLINT(bugprone-use-after-move)

  Interval e(make(1, 7), low);
  e = b;  // copy assignment to a lower-precision object takes the higher precision exactly
  EXPECT_EQ(e.precision(), 200);
  EXPECT_TRUE(e.subset_of(b) && b.subset_of(e));
  const Interval& alias = e;
  e = alias;  // self-assignment
  EXPECT_TRUE(e.subset_of(b) && b.subset_of(e));
}

TEST(IntervalCopyMove, MixedPrecisionOperationsWidenExactly) {
  // Hand: 1/3 at 64 bits plus 0 at 1024 bits is the 64-bit enclosure, widened without change.
  const Interval a(make(1, 3), low);
  const Interval sum = a + Interval::zero(high);
  EXPECT_EQ(sum.precision(), high);
  EXPECT_TRUE(sum.subset_of(a) && a.subset_of(sum));
}

}  // namespace
}  // namespace exactdp
