// Certified decisions (exactdp/numeric/decide.hpp, THEOREMS.md B.15).
//
// Where expected values come from: "hand" (truth tables of the three-valued comparisons, e^0 = 1,
// ln 1 = 0, signs), "published" (e^{1/2} = 1.6487212707…, ln 2 = 0.6931471805…, both cross-checked
// with mpmath at 40 digits), or "second computation" (a 1024-bit enclosure that must agree with
// the decided outcome).
#include "exactdp/core/error.hpp"
#include "exactdp/numeric/decide.hpp"
#include "numeric/print_decision.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <vector>

namespace exactdp {
namespace {

Rational make(long n, long d) {
  Rational q(n, d);
  q.canonicalize();
  return q;
}

rc::Gen<long> uniform(long lo, long hi) { return rc::gen::resize(rc::kNominalSize, rc::gen::inRange(lo, hi + 1)); }
rc::Gen<Rational> signed_rational(long max_n) {
  return rc::gen::apply([](long m, bool negative, long d) { return make(negative ? -m : m, d); }, uniform(0, max_n),
                        rc::gen::arbitrary<bool>(), uniform(1, 1000));
}
rc::Gen<Rational> positive_rational() {
  return rc::gen::apply([](long m, long d) { return make(m, d); }, uniform(1, 1000), uniform(1, 1000));
}
rc::Gen<Relation> relation() {
  return rc::gen::element(Relation::less, Relation::less_equal, Relation::greater, Relation::greater_equal);
}

Enclosure exp_of(const Rational& x) {
  return [x](Precision p) { return exp(Interval(x, p)); };
}

// ------------------------------------------------------------------ three-valued comparisons

// Hand-derived truth tables for v ∈ [1, 2].
TEST(DecideTri, TruthTablesAgainstARational) {
  const Interval v = Interval::hull(1, 2, 64);
  EXPECT_EQ(certainly_less(v, 3), Tri::yes);
  EXPECT_EQ(certainly_less(v, 2), Tri::undecided);  // v = 2 is possible
  EXPECT_EQ(certainly_less(v, 1), Tri::no);         // every v ≥ 1
  EXPECT_EQ(certainly_less_equal(v, 2), Tri::yes);
  EXPECT_EQ(certainly_less_equal(v, 1), Tri::undecided);
  EXPECT_EQ(certainly_less_equal(v, make(1, 2)), Tri::no);
  // Reverse orientation: q < v and q ≤ v.
  EXPECT_EQ(certainly_less(Rational(make(1, 2)), v), Tri::yes);
  EXPECT_EQ(certainly_less(Rational(1), v), Tri::undecided);
  EXPECT_EQ(certainly_less(Rational(2), v), Tri::no);
  EXPECT_EQ(certainly_less_equal(Rational(1), v), Tri::yes);
  EXPECT_EQ(certainly_less_equal(Rational(2), v), Tri::undecided);
  EXPECT_EQ(certainly_less_equal(Rational(3), v), Tri::no);
  // The Relation form agrees with the named functions.
  EXPECT_EQ(certainly(v, Relation::greater, make(1, 2)), Tri::yes);
  EXPECT_EQ(certainly(v, Relation::greater_equal, Rational(2)), Tri::undecided);
  // Unbounded enclosures are compared exactly too.
  EXPECT_EQ(certainly_less(Interval::at_least(5, 64), Rational(1000)), Tri::undecided);
  EXPECT_EQ(certainly_less(Interval::at_least(5, 64), Rational(4)), Tri::no);
}

TEST(DecideTri, TruthTablesBetweenTwoEnclosures) {
  auto iv = [](long a, long b) { return Interval::hull(a, b, 64); };
  EXPECT_EQ(certainly_less(iv(1, 2), iv(3, 4)), Tri::yes);
  EXPECT_EQ(certainly_less(iv(1, 2), iv(2, 3)), Tri::undecided);  // both could be 2
  EXPECT_EQ(certainly_less_equal(iv(1, 2), iv(2, 3)), Tri::yes);
  EXPECT_EQ(certainly_less(iv(3, 4), iv(1, 3)), Tri::no);
  EXPECT_EQ(certainly_less_equal(iv(2, 3), iv(1, 2)), Tri::undecided);
  EXPECT_EQ(certainly_less_equal(iv(3, 4), iv(1, 2)), Tri::no);
  EXPECT_EQ(!Tri::yes, Tri::no);
  EXPECT_EQ(!Tri::undecided, Tri::undecided);
}

// Soundness of the three-valued answer: a definite answer holds at every point of the interval
// (checked at the two ends and the midpoint, exactly), and a point interval is always decided.
RC_GTEST_PROP(DecideTri, DefiniteAnswersHoldAtEveryPoint, ()) {
  Rational a = *signed_rational(20), b = *signed_rational(20);
  if (a > b) std::swap(a, b);
  const Rational q = *signed_rational(20);
  const Relation rel = *relation();
  const Interval v = Interval::hull(a, b, 64);
  const Tri t = certainly(v, rel, q);
  for (const Rational& x : {v.lower(), v.upper(), Rational((v.lower() + v.upper()) / 2)}) {
    if (t == Tri::yes) RC_ASSERT(holds(x, rel, q));
    if (t == Tri::no) RC_ASSERT(!holds(x, rel, q));
  }
  const Rational n = *uniform(-20, 20);  // a small integer is exact at 64 bits
  RC_ASSERT(certainly(Interval(n, 64), rel, q) == to_tri(holds(n, rel, q)));
}

// ------------------------------------------------------------------ escalation

// Published: e^{1/2} = 1.6487212707… < 33/20 = 1.65 (a gap of 1.3·10^−3, decided at once).
TEST(DecideEscalation, ExpOfHalfAgainst33Over20) {
  const Rational q = make(33, 20);
  EXPECT_EQ(decide_less_equal(exp_of(make(1, 2)), q), (Decision{Tri::yes, 64}));
  EXPECT_EQ(decide_less(exp_of(make(1, 2)), q), (Decision{Tri::yes, 64}));
  EXPECT_EQ(decide_less(q, exp_of(make(1, 2))), (Decision{Tri::no, 64}));  // reverse orientation
  EXPECT_EQ(decide(exp_of(make(1, 2)), Relation::greater_equal, q).outcome, Tri::no);
  EXPECT_EQ(decide_exp_less_equal(make(1, 2), q), (Decision{Tri::yes, 64}));
  // Published: e^{1/2} > 1.6487 (the gap 2.1·10^−5 is still far above 2^−64).
  EXPECT_EQ(decide_exp_less_equal(make(1, 2), parse_rational("1.6487")).outcome, Tri::no);
}

// A rational within 2^−199 below e^{1/2} (the lower end of a 200-bit enclosure, a second
// computation) cannot be separated at 64 or 128 bits: the loop must escalate to 256 bits, and a
// cap of 128 must give up rather than guess.
TEST(DecideEscalation, CloseCallsEscalateAndTheCapNeverGuesses) {
  const Rational q = exp(Interval(make(1, 2), 200)).lower();  // q < e^{1/2} < q + 2^−199
  std::vector<Precision> tried;
  const Enclosure recording = [&tried](Precision p) {
    tried.push_back(p);
    return exp(Interval(make(1, 2), p));
  };
  EXPECT_EQ(decide_less_equal(recording, q), (Decision{Tri::no, 256}));
  EXPECT_EQ(tried, (std::vector<Precision>{64, 128, 256}));
  const Decision capped = decide_less_equal(recording, q, DecideOptions{64, 128});
  EXPECT_EQ(capped, (Decision{Tri::undecided, 128}));
  EXPECT_EQ(to_string(capped), "undecided at precision 128");
  // A cap that is not a power-of-two multiple of the start is reached exactly.
  EXPECT_EQ(decide_less_equal(recording, q, DecideOptions{100, 300}), (Decision{Tri::no, 300}));
}

// A true equality given as a closure never separates: 1/3 is not dyadic, so every enclosure of it
// straddles it, and the loop runs to the cap — the procedure says so instead of guessing.
TEST(DecideEscalation, TrueEqualityIsUndecidedAtTheCap) {
  std::vector<Precision> tried;
  const Enclosure third = [&tried](Precision p) {
    tried.push_back(p);
    return Interval(make(1, 3), p);
  };
  const Decision d = decide_less(third, make(1, 3));
  EXPECT_EQ(d, (Decision{Tri::undecided, 8192}));
  EXPECT_EQ(to_string(d), "undecided at precision 8192");
  EXPECT_EQ(tried, (std::vector<Precision>{64, 128, 256, 512, 1024, 2048, 4096, 8192}));
  EXPECT_FALSE(decide_less_equal(third, make(1, 3)).decided());
  // Two enclosures of the same real: e^{1/2} and √e.
  const Enclosure sqrt_e = [](Precision p) { return sqrt(exp(Interval(1L, p))); };
  EXPECT_EQ(decide_less(exp_of(make(1, 2)), sqrt_e, DecideOptions{64, 512}), (Decision{Tri::undecided, 512}));
  // Published: ln 2 = 0.693… > e^{−1/2} = 0.6065…, decided between two enclosures.
  const Enclosure ln2 = [](Precision p) { return log(Interval(2L, p)); };
  EXPECT_EQ(decide_less(ln2, exp_of(make(-1, 2))), (Decision{Tri::no, 64}));
  EXPECT_EQ(decide_less_equal(exp_of(make(-1, 2)), ln2), (Decision{Tri::yes, 64}));
}

TEST(DecideEscalation, OptionsAndRequireDecided) {
  try {
    decide_less(exp_of(1), 3, DecideOptions{1, 64});
    ADD_FAILURE() << "accepted start = 1";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "start");
    EXPECT_EQ(e.value(), "1");
  }
  try {
    decide_less(exp_of(1), 3, DecideOptions{128, 64});
    ADD_FAILURE() << "accepted cap < start";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "cap");
    EXPECT_EQ(e.value(), "64");
  }
  EXPECT_TRUE(require_decided(Decision{Tri::yes, 64}, "claim"));
  EXPECT_FALSE(require_decided(Decision{Tri::no, 0}, "claim"));
  try {
    require_decided(Decision{Tri::undecided, 8192}, "claim");
    ADD_FAILURE() << "undecided accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "claim");
    EXPECT_EQ(e.value(), "8192");
  }
  EXPECT_EQ(to_string(Decision{Tri::yes, 64}), "yes (precision 64)");
  EXPECT_EQ(to_string(Decision{Tri::no, 0}), "no (exact)");
}

// ------------------------------------------------------------------ e^x and ln r

// Hand: e^0 = 1 and e^x > 0; ln 1 = 0 and ln r < 0 ⇔ r < 1. These are answered exactly (precision
// 0), including the equalities that an enclosure could never decide.
TEST(DecideExpLog, SymbolicCasesAreExact) {
  EXPECT_EQ(decide_exp_less_equal(0, 1), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_exp_less(0, 1), (Decision{Tri::no, 0}));
  EXPECT_EQ(decide_exp(0, Relation::greater_equal, 1), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_exp(5, Relation::greater, -1), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_exp_less_equal(-5, 0), (Decision{Tri::no, 0}));
  EXPECT_EQ(decide_log_less_equal(1, 0), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_log_less(1, 0), (Decision{Tri::no, 0}));
  EXPECT_EQ(decide_log_less(make(1, 2), 0), (Decision{Tri::yes, 0}));
  EXPECT_EQ(decide_log(3, Relation::greater, 0), (Decision{Tri::yes, 0}));
  try {
    decide_log_less(0, 1);
    ADD_FAILURE() << "ln 0 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "r");
    EXPECT_EQ(e.value(), "0");
  }
}

// Published: ln 2 = 0.69314718…, so ln 2 < 7/10 and ln 2 > 69/100; e = 2.718281828459…
TEST(DecideExpLog, PublishedComparisons) {
  EXPECT_EQ(decide_log_less(2, make(7, 10)).outcome, Tri::yes);
  EXPECT_EQ(decide_log(2, Relation::greater, make(69, 100)).outcome, Tri::yes);
  EXPECT_EQ(decide_log_less_equal(2, parse_rational("0.6931471805")).outcome, Tri::no);
  EXPECT_EQ(decide_exp_less(1, parse_rational("2.718281828459")).outcome, Tri::no);
  EXPECT_EQ(decide_exp_less(1, parse_rational("2.718281828460")).outcome, Tri::yes);
}

// Second computation: a decided outcome never contradicts a 1024-bit enclosure of e^x; and for
// rationals x ≠ 0 the decision is reached (e^x is transcendental, B.15).
RC_GTEST_PROP(DecideExpLog, ExpDecisionsAgreeWithHighPrecision, ()) {
  const Rational x = *signed_rational(10000) / 1000;
  const Rational q = *positive_rational();
  const Relation rel = *relation();
  const Decision d = decide_exp(x, rel, q);
  RC_ASSERT(d.decided());
  const Tri fine = certainly(exp(Interval(x, 1024)), rel, q);
  RC_ASSERT(fine != !d.outcome);
}

// ln r rel q ⇔ e^q flip(rel) r: the two decisions agree; and the log decision agrees with a
// 1024-bit enclosure of ln r.
RC_GTEST_PROP(DecideExpLog, LogDecisionsAgreeWithExpAndHighPrecision, ()) {
  const Rational r = *positive_rational();
  const Rational q = *signed_rational(5000) / 1000;
  const Relation rel = *relation();
  const Decision d = decide_log(r, rel, q);
  RC_ASSERT(d.decided());
  RC_ASSERT(certainly(log(Interval(r, 1024)), rel, q) != !d.outcome);
  if (r != 1 && q != 0) RC_ASSERT(d.outcome == decide_exp(q, flip(rel), r).outcome);
}

}  // namespace
}  // namespace exactdp
