// Rational functions of one parameter, the expression parser, certified root isolation and sign
// partitions (src/exactdp/parametric/).
#include "exactdp/core/error.hpp"
#include "exactdp/parametric/rational_function.hpp"
#include "exactdp/parametric/real_roots.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace exactdp::parametric {
namespace {

RationalFunction parse(const std::string& s) { return parse_rational_function(s, "r"); }
/// n/d in lowest terms (tests/support/exact.hpp).
Rational fraction(long n, long d) { return testing::q(n, d); }
ParameterRange unit() { return ParameterRange{0, 1, true, true}; }

TEST(RationalFunction, ParsesTheDocumentedGrammar) {
  // expected values by hand
  EXPECT_EQ(parse("(1-r)/(1+r)").evaluate(Rational(1, 2)), Rational(1, 3));
  EXPECT_EQ(parse("r^2").evaluate(Rational(2, 3)), Rational(4, 9));
  EXPECT_EQ(parse("-r^2").evaluate(3), -9);               // ^ binds tighter than unary minus
  EXPECT_EQ(parse("1/r^3").evaluate(Rational(1, 2)), 8);  // ^ binds tighter than /
  EXPECT_EQ(parse("2*r - 3/4 + 0.25").evaluate(1), Rational(3, 2));
  EXPECT_EQ(parse("r^-2").evaluate(Rational(1, 3)), 9);
  EXPECT_EQ(parse(" ( r + 1 ) ^ (2) ").evaluate(1), 4);
  EXPECT_EQ(parse("(1-r)/(1+r)"), parse("(1-r)*(1+r)^-1"));  // canonical form: equal functions compare equal
  EXPECT_EQ(parse("(r^2-1)/(r-1)"), parse("r+1"));
}

TEST(RationalFunction, ParserErrorsNameThePosition) {
  auto message = [](const std::string& s) {
    try {
      parse_rational_function(s, "r", "p");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("1 - q").find("position 5: unknown name `q` (the parameter is `r`)"), std::string::npos);
  EXPECT_NE(message("(1 + r").find("position 1: this parenthesis is not closed"), std::string::npos);
  EXPECT_NE(message("1 / (r - r)").find("position 5: division by zero"), std::string::npos);
  EXPECT_NE(message("r^").find("integer exponent"), std::string::npos);
  EXPECT_NE(message("2 r").find("position 3"), std::string::npos);
  EXPECT_NE(message("").find("empty"), std::string::npos);
  EXPECT_NE(message("r^1.5").find("position 4"), std::string::npos);
}

TEST(RationalFunction, PrintsLowestDegreeFirstWithAPositiveLeadingDenominatorTerm) {
  EXPECT_EQ(parse("-r/(r-1)").to_string(), "r/(1-r)");
  EXPECT_EQ(parse("1/r^3").to_string(), "1/r^3");
  EXPECT_EQ(parse("2/(3*r)").to_string(), "2/(3*r)");
  EXPECT_EQ(parse("(1-r)^2").to_string(), "1-2*r+r^2");
  EXPECT_EQ(parse("r/2").to_string(), "r/2");
}

TEST(RationalFunction, PrintsWhatItParses) {
  for (const char* s : {"(1-r)/(1+r)", "r^2-2*r+1", "1/r^3", "-3/(2*r+7)", "5/7", "-r/(r-1)", "2*r/(3*r^2)", "-r^2/(1+r)"}) {
    const RationalFunction f = parse(s);
    EXPECT_EQ(parse(f.to_string()), f) << s << " printed as " << f.to_string();
  }
}

TEST(RationalFunction, LargeCanonicalFormsParseBack) {
  // (1+r)^1000: coefficients C(1000, k) of up to 300 digits, a canonical text of about 150 000
  // characters (the old caps: 10 000 characters, 200 digits) — printed and parsed back it is the
  // same function, and its value at 1 is 2^1000 (the binomial theorem)
  const RationalFunction big = parse("(1+r)^1000");
  const std::string text = big.to_string();
  EXPECT_GT(text.size(), 100000u);
  const RationalFunction back = parse_rational_function(text, "r", "p");
  EXPECT_EQ(back, big);
  Rational two_to_1000(1);
  for (int i = 0; i < 1000; ++i) two_to_1000 *= 2;
  EXPECT_EQ(back.evaluate(Rational(1)), two_to_1000);
  // a monomial of degree above the old exponent cap of 1000 prints as r^1500 and parses back
  const RationalFunction high = parse("r^750") * parse("r^750");
  EXPECT_EQ(high.to_string(), "r^1500");
  EXPECT_EQ(parse(high.to_string()), high);
  // a sum of 5000 terms, 10 000 characters and more
  std::string sum = "r";
  for (int i = 1; i < 5000; ++i) sum += "+r";
  EXPECT_EQ(parse(sum), parse("5000*r"));
}

TEST(RationalFunction, LimitsAreErrorsNamingTheSize) {
  auto message = [](const std::string& s) {
    try {
      parse_rational_function(s, "r", "p");
    } catch (const Error& e) {
      EXPECT_EQ(e.where(), "p");
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // the degree of a power, not its exponent, is bounded
  EXPECT_NE(message("(1+r^2)^60000").find("the power has degree 120000, more than 100000"), std::string::npos);
  EXPECT_NE(message("r^1000000000").find("the exponent is larger than 100000"), std::string::npos);
  // deep nesting is refused before the parser's recursion could exhaust the stack
  EXPECT_NE(message(std::string(5000, '(') + "r" + std::string(5000, ')')).find("more than 1000 nested parentheses or signs"),
            std::string::npos);
  EXPECT_NE(message(std::string(5000, '-') + "r").find("more than 1000 nested"), std::string::npos);
  EXPECT_EQ(message(std::string(900, '(') + "r" + std::string(900, ')')), "no error");
  // the whole text
  EXPECT_NE(message(std::string(max_expression_length + 1, '1')).find("an expression of 10000001 characters; at most 10000000"),
            std::string::npos);
}

RC_GTEST_PROP(RationalFunction, EvaluationIsAHomomorphism, ()) {
  // (f op g)(x) = f(x) op g(x): FLINT's arithmetic against GMP's on the values
  const auto coeffs = [] { return *rc::gen::container<std::vector<int>>(3, rc::gen::inRange(-5, 6)); };
  auto a = coeffs(), b = coeffs();
  std::vector<Rational> ca(a.begin(), a.end()), cb(b.begin(), b.end());
  const RationalFunction f = RationalFunction::polynomial(ca), g = RationalFunction::polynomial(cb) + RationalFunction(Rational(1, 7)).pow(2) * RationalFunction::variable().pow(4) + 1;
  const Rational x = fraction(*rc::gen::inRange(-20, 21), *rc::gen::inRange(1, 9));
  RC_ASSERT((f + g).evaluate(x) == f.evaluate(x) + g.evaluate(x));
  RC_ASSERT((f * g).evaluate(x) == f.evaluate(x) * g.evaluate(x));
  RC_ASSERT((f - g).evaluate(x) == f.evaluate(x) - g.evaluate(x));
  if (sgn(g.evaluate(x)) != 0) RC_ASSERT((f / g).evaluate(x) == f.evaluate(x) / g.evaluate(x));
}

TEST(RealRoots, GoldenRatioConjugate) {
  // r² − 3r + 1 has the roots (3 ± √5)/2 ≈ 0.381966 and 2.618034; only the first is in (0, 1)
  const auto roots = real_roots_in({1, -3, 1}, unit());
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_FALSE(roots[0].is_rational());
  // (3 − √5)/2 lies in [0.3819, 0.3820]: check the isolating interval is consistent with it
  EXPECT_LT(roots[0].lower, Rational(3820, 10000));
  EXPECT_GT(roots[0].upper, Rational(3819, 10000));
  EXPECT_NE(roots[0].to_string().find("≈ 0.381966"), std::string::npos) << roots[0].to_string();
}

TEST(RealRoots, RationalRootsAreExactAndOpenEndsExcluded) {
  // (2r − 1)(r)(r − 1)(r² − 2): roots 1/2 in (0, 1); 0 and 1 excluded from the open range; √2 outside
  const RationalFunction f = parse("(2*r-1)*r*(r-1)*(r^2-2)");
  const auto roots = real_roots_in(f.numerator(), unit());
  ASSERT_EQ(roots.size(), 1u);
  EXPECT_EQ(roots[0].rational(), Rational(1, 2));
  const auto closed = real_roots_in(f.numerator(), ParameterRange{0, 2, false, false});
  ASSERT_EQ(closed.size(), 4u);  // 0, 1/2, 1, √2
  EXPECT_EQ(closed[0].rational(), Rational(0));
  EXPECT_EQ(closed[2].rational(), Rational(1));
  EXPECT_FALSE(closed[3].is_rational());
}

RC_GTEST_PROP(RealRoots, ProductOfLinearFactorsHasExactlyItsRoots, ()) {
  // an independent route: the roots of Π (d_i r − n_i) are the n_i/d_i, known before isolation
  const int k = *rc::gen::inRange(1, 5);
  std::set<Rational> expected;
  RationalFunction f(1);
  for (int i = 0; i < k; ++i) {
    const Rational q = fraction(*rc::gen::inRange(1, 30), *rc::gen::inRange(1, 30));
    f *= RationalFunction::variable() - RationalFunction(q);
    if (q < 1) expected.insert(q);
  }
  f *= parse("r^2 + r + 1");  // no real root
  const auto roots = real_roots_in(f.numerator(), unit());
  RC_ASSERT(roots.size() == expected.size());
  auto it = expected.begin();
  for (const auto& r : roots) RC_ASSERT(r.rational() == *it++);
}

TEST(SignPartition, SignsOnEachPiece) {
  // f = r − 1/2 and g = r² − 1/3 (root 1/√3 ≈ 0.577): pieces (0,1/2), {1/2}, (1/2,ρ), {ρ}, (ρ,1)
  const auto p = sign_partition({parse("r - 1/2"), parse("r^2 - 1/3")}, unit());
  ASSERT_EQ(p.pieces.size(), 5u);
  EXPECT_EQ(p.signs[0], (std::vector<int>{-1, 0, 1, 1, 1}));
  EXPECT_EQ(p.signs[1], (std::vector<int>{-1, -1, -1, 0, 1}));
  EXPECT_TRUE(p.pieces[1].is_point());
  EXPECT_EQ(p.pieces[1].sample, Rational(1, 2));
  EXPECT_FALSE(p.pieces[3].sample.has_value());  // an irrational point has no rational sample
  for (std::size_t k = 0; k < p.pieces.size(); k += 2) EXPECT_TRUE(p.range.contains(*p.pieces[k].sample));
}

TEST(SignPartition, RefusesAPoleInTheRange) {
  EXPECT_THROW(sign_partition({parse("1/(r - 1/3)")}, unit()), Error);
  EXPECT_NO_THROW(sign_partition({parse("1/r^3")}, unit()));  // the pole is at the open end
  EXPECT_THROW(sign_partition({parse("1/r^3")}, ParameterRange{0, 1, false, true}), Error);
}

RC_GTEST_PROP(SignPartition, SignsAgreeWithExactEvaluation, ()) {
  // on every region, the sign at random rational points of the region equals the partition's sign
  const auto coeffs = *rc::gen::container<std::vector<int>>(4, rc::gen::inRange(-6, 7));
  std::vector<Rational> c(coeffs.begin(), coeffs.end());
  const RationalFunction num = RationalFunction::polynomial(c);
  RC_PRE(!num.is_zero());
  // a denominator without a root in (0, 1), of either sign, possibly sharing a factor with the numerator
  const int k = *rc::gen::inRange(1, 4);
  const RationalFunction den = (*rc::gen::arbitrary<bool>() ? 1 : -1) * (parse("2 + r^2") * parse("r - 3").pow(k % 2));
  const RationalFunction f = num * num.pow(k - 1) / den;  // repeated factors: even and odd multiplicities
  const auto p = sign_partition({f}, unit());
  for (int trial = 0; trial < 20; ++trial) {
    const Rational x = fraction(*rc::gen::inRange(1, 200), 200);
    for (std::size_t k = 0; k < p.pieces.size(); ++k) {
      const Piece& piece = p.pieces[k];
      if (piece.is_point()) continue;
      if (x > piece.lower.upper && x < piece.upper.lower) RC_ASSERT(sgn(f.evaluate(x)) == p.signs[0][k]);
    }
  }
}

TEST(SimplestRational, BetweenTwoNumbers) {
  EXPECT_EQ(simplest_rational_between(0, 1), Rational(1, 2));
  EXPECT_EQ(simplest_rational_between(Rational(1, 3), Rational(1, 2)), Rational(2, 5));
  EXPECT_EQ(simplest_rational_between(Rational(-1, 2), Rational(3)), 0);
  EXPECT_EQ(simplest_rational_between(Rational(1, 2), 1), Rational(2, 3));
  EXPECT_EQ(simplest_rational_between(Rational(3, 2), 4), 2);
}

}  // namespace
}  // namespace exactdp::parametric
