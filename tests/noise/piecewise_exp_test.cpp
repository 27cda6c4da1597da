// PiecewiseExp (noise/piecewise_exp.hpp), the closed-form sums behind every exact noise event,
// against independent routes: pointwise evaluation by direct powers, direct summation over finite
// windows, and the tails of THEOREMS.md D.3 written out by hand.
#include "exactdp/core/error.hpp"
#include "exactdp/noise/piecewise_exp.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>

namespace exactdp::noise {
namespace {

using testing::q;

/// θ^j by repeated multiplication (not the library's power()).
Rational slow_power(const Rational& theta, long j) {
  Rational x = 1;
  for (long i = 0; i < (j < 0 ? -j : j); ++i) x *= theta;
  return j < 0 ? 1 / x : x;
}

/// A small random function: 1–4 cuts in [−4, 4], 0–2 terms per piece with small coefficients and
/// bases in {1/3, 1/2, 1, 2, 3}. Bases of the outer pieces are chosen so that the function is
/// summable over ℤ (base > 1 on the left piece, < 1 on the right one).
rc::Gen<PiecewiseExp> small_function() {
  return rc::gen::exec([] {
    std::set<long> distinct;
    const int n = *rc::gen::inRange(1, 5);
    for (int i = 0; i < n; ++i) distinct.insert(*rc::gen::inRange(-4L, 5L));
    std::vector<long> cuts(distinct.begin(), distinct.end());
    const std::vector<Rational> inner{q(1, 3), q(1, 2), q(1), q(2), q(3)}, left{q(2), q(3)}, right{q(1, 3), q(1, 2)};
    std::vector<PiecewiseExp::Terms> pieces;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
      const auto& bases = i == 0 ? left : (i == cuts.size() ? right : inner);
      PiecewiseExp::Terms t;
      const int n = *rc::gen::inRange(0, 3);
      for (int k = 0; k < n; ++k)
        t.push_back({q(*rc::gen::inRange(-3, 4), *rc::gen::inRange(1, 4)), bases[std::size_t(*rc::gen::inRange(0, int(bases.size())))]});
      pieces.push_back(t);
    }
    return PiecewiseExp(cuts, pieces);
  });
}

/// f(j) from the representation with slow_power (independent of operator()).
Rational evaluate(const PiecewiseExp& f, long j) {
  std::size_t i = 0;
  while (i < f.cuts().size() && f.cuts()[i] <= j) ++i;
  Rational s = 0;
  for (const auto& t : f.pieces()[i]) s += t.coefficient * slow_power(t.base, j);
  return s;
}

TEST(PiecewiseExp, GeometricSumClosedFormMatchesTheLoop) {
  for (const Rational& th : {q(1, 3), q(1), q(5, 2)})
    for (long a = -3; a <= 3; ++a)
      for (long b = a - 1; b <= 4; ++b) {
        Rational s = 0;
        for (long j = a; j <= b; ++j) s += slow_power(th, j);
        EXPECT_EQ(geometric_sum(th, a, b), s) << to_string(th) << " " << a << ".." << b;
      }
}

TEST(PiecewiseExp, DiscreteLaplaceTailsAreTheD3ClosedForms) {
  // the DLap(r) mass function written by hand: c (1/r)^j for j < 0, c r^j for j ≥ 0
  const Rational r = q(2, 5), c = (1 - r) / (1 + r);
  const PiecewiseExp f({0}, {{{c, 1 / r}}, {{c, r}}});
  EXPECT_EQ(f.sum(), 1);
  for (long m = 1; m <= 4; ++m) EXPECT_EQ(f.sum(m, std::nullopt), slow_power(r, m) / (1 + r));  // Pr[Z ≥ m], D.3
  for (long m = -4; m < 0; ++m) EXPECT_EQ(f.sum(std::nullopt, m), slow_power(r, -m) / (1 + r));  // F(m), m < 0
  EXPECT_EQ(f.sum(std::nullopt, 0), 1 / (1 + r));                                                 // Pr[Z ≤ 0]
  const PiecewiseExp F = f.cumulative();
  for (long m = -4; m <= 4; ++m)
    EXPECT_EQ(F(m), m >= 0 ? Rational(1 - slow_power(r, m + 1) / (1 + r)) : Rational(slow_power(r, -m) / (1 + r))) << m;
}

TEST(PiecewiseExp, DivergentSumsAreErrors) {
  EXPECT_THROW(PiecewiseExp::constant(1).sum(), Error);
  EXPECT_THROW(PiecewiseExp::exponential(1, q(1, 2)).sum(std::nullopt, 0), Error);  // 2^{-j} towards −∞
  EXPECT_THROW(PiecewiseExp::exponential(1, q(2)).sum(0, std::nullopt), Error);
  EXPECT_EQ(PiecewiseExp::exponential(1, q(2)).sum(std::nullopt, -1), 1);  // Σ_{j≤−1} 2^j
  EXPECT_THROW(PiecewiseExp({0}, {{}, {{1, q(1)}}}).cumulative(), Error);  // constant on [0, ∞)
  EXPECT_THROW(PiecewiseExp({0}, {{{1, q(-1)}}, {}}), Error);              // a negative base
  EXPECT_THROW(PiecewiseExp({1, 0}, {{}, {}, {}}), Error);                 // unsorted cuts
}

TEST(PiecewiseExp, NormalisationMergesEqualNeighbours) {
  const PiecewiseExp a = PiecewiseExp::indicator(0, 2) + PiecewiseExp::indicator(3, 5);
  EXPECT_EQ(a, PiecewiseExp::indicator(0, 5));
  EXPECT_EQ(a.cuts(), (std::vector<long>{0, 6}));
  EXPECT_TRUE((a - a).is_zero());
  EXPECT_EQ(a.lowest_nonzero_piece(), 0);
  EXPECT_EQ(a.highest_nonzero_piece(), 5);
  EXPECT_EQ(PiecewiseExp::point(3, q(1, 2)).to_string(), "j<=2: 0; j=3: 1/2; j>=4: 0");
}

RC_GTEST_PROP(PiecewiseExp, EvaluationAgreesWithTheTerms, ()) {
  const auto f = *small_function();
  for (long j = -7; j <= 7; ++j) RC_ASSERT(f(j) == evaluate(f, j));
}

RC_GTEST_PROP(PiecewiseExp, ProductSumShiftAndReflectionArePointwise, ()) {
  const auto f = *small_function(), g = *small_function();
  const long v = *rc::gen::inRange(-3L, 4L);
  const auto fg = f * g, sum = f + g, diff = f - g, sh = f.shifted(v), re = f.reflected();
  for (long j = -8; j <= 8; ++j) {
    RC_ASSERT(fg(j) == evaluate(f, j) * evaluate(g, j));
    RC_ASSERT(sum(j) == evaluate(f, j) + evaluate(g, j));
    RC_ASSERT(diff(j) == evaluate(f, j) - evaluate(g, j));
    RC_ASSERT(sh(j) == evaluate(f, j - v));
    RC_ASSERT(re(j) == evaluate(f, -j));
  }
}

RC_GTEST_PROP(PiecewiseExp, WindowSumsAreDirectSums, ()) {
  const auto f = *small_function();
  const long a = *rc::gen::inRange(-8L, 9L), b = *rc::gen::inRange(-8L, 9L);
  Rational direct = 0;
  for (long j = a; j <= b; ++j) direct += evaluate(f, j);
  RC_ASSERT(f.sum(a, b) == direct);
}

RC_GTEST_PROP(PiecewiseExp, SumsSplitAtAnyPoint, ()) {
  // Σ_ℤ = Σ_{j≤k} + Σ_{j>k}: the two tails are summed by different closed forms
  const auto f = *small_function();
  const long k = *rc::gen::inRange(-9L, 10L);
  RC_ASSERT(f.sum() == f.sum(std::nullopt, k) + f.sum(k + 1, std::nullopt));
}

RC_GTEST_PROP(PiecewiseExp, CumulativeIsTheRunningSum, ()) {
  const auto f = *small_function();
  const PiecewiseExp F = f.cumulative();
  // F(k) − F(k − 1) = f(k), and F(k) is the left tail
  for (long k = -7; k <= 7; ++k) {
    RC_ASSERT(F(k) - F(k - 1) == evaluate(f, k));
    RC_ASSERT(F(k) == f.sum(std::nullopt, k));
  }
}

}  // namespace
}  // namespace exactdp::noise
