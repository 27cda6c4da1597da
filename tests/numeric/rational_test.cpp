#include "exactdp/core/error.hpp"
#include "exactdp/numeric/rational.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

// Expected values are hand-derived decimal expansions.
TEST(RationalParse, AcceptsExactForms) {
  EXPECT_EQ(parse_rational("3/4"), Rational(3, 4));
  EXPECT_EQ(parse_rational("6/8"), Rational(3, 4));
  EXPECT_EQ(parse_rational("0.1"), Rational(1, 10));
  EXPECT_EQ(parse_rational("1e-5"), Rational(1, 100000));
  EXPECT_EQ(parse_rational("2.5E3"), Rational(2500));
  EXPECT_EQ(parse_rational("-7"), Rational(-7));
  EXPECT_EQ(parse_rational(".5"), Rational(1, 2));
  EXPECT_EQ(parse_rational("+1.25e+1"), Rational(25, 2));
  EXPECT_EQ(parse_rational("-3/6"), Rational(-1, 2));
}

TEST(RationalParse, RejectsEverythingElseNamingFieldAndValue) {
  for (const char* bad : {"", "1/0", "0x10", "nan", "inf", "1.2.3", "1e", "e5", "1/2/3", " 1", "1 ", "--1",
                          "1/-2", ".", "1e1234567", "0.1f"}) {
    try {
      parse_rational(bad, "lambda");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.field(), "lambda");
      EXPECT_EQ(e.value(), bad);
    }
  }
}

// Regression: digits with a leading zero were read in base 0 by GMP, i.e. as octal, so "0.17" was
// 15/100 and "0.693" threw. Expected values: the decimal expansions read by hand.
TEST(RationalParse, LeadingZerosAreDecimalNotOctal) {
  EXPECT_EQ(parse_rational("0.17"), Rational(17, 100));
  EXPECT_EQ(parse_rational("0.693"), Rational(693, 1000));
  EXPECT_EQ(parse_rational("010"), Rational(10));
  EXPECT_EQ(parse_rational("010/3"), Rational(10, 3));
  EXPECT_EQ(parse_rational("3/010"), Rational(3, 10));
  EXPECT_EQ(parse_rational("0.0009e2"), Rational(9, 100));
}

// m/10^k written out as a zero-padded decimal ("0.017" for m = 17, k = 3) parses back to m/10^k.
RC_GTEST_PROP(RationalParse, ZeroPaddedDecimalsRoundTrip, (unsigned int m)) {
  const unsigned long k = *rc::gen::inRange(0, 10);
  std::string digits = std::to_string(m);
  if (digits.size() <= k) digits.insert(0, k + 1 - digits.size(), '0');
  const std::string text = digits.substr(0, digits.size() - k) + (k > 0 ? "." + digits.substr(digits.size() - k) : "");
  Rational expected(Integer(m), Integer(1));
  expected /= pow(Rational(10), k);
  RC_ASSERT(parse_rational(text) == expected);
}

// Round trip: printing in lowest terms and parsing back is the identity.
RC_GTEST_PROP(RationalParse, RoundTripsThroughToString, (long n, long d)) {
  RC_PRE(d != 0);
  Rational q(n, d);
  q.canonicalize();
  RC_ASSERT(parse_rational(to_string(q)) == q);
}

// pow agrees with repeated multiplication; binomial with Pascal's rule.
RC_GTEST_PROP(RationalArith, PowMatchesRepeatedProduct, (int n, unsigned short k)) {
  RC_PRE(n != 0);
  Rational q(n, 7), expected(1);
  q.canonicalize();  // gmpxx does not canonicalize (n, d) constructors
  unsigned long e = k % 20;
  for (unsigned long i = 0; i < e; ++i) expected *= q;
  RC_ASSERT(pow(q, e) == expected);
}

TEST(RationalArith, BinomialPascal) {
  for (unsigned long n = 1; n < 30; ++n)
    for (unsigned long k = 1; k < n; ++k) EXPECT_EQ(binomial(n, k), binomial(n - 1, k - 1) + binomial(n - 1, k));
  EXPECT_EQ(pow2(-3), Rational(1, 8));
}

}  // namespace
}  // namespace exactdp
