// The upper envelope of rational functions (parametric/envelope.hpp): checked against the brute-force
// maximum (every function evaluated exactly) at rational points of every piece, and against the
// pairwise route (one sign partition of every difference, the algorithm profile --parametric used
// before) on random families — including families where many functions meet at one point, which
// halving never separates.
#include "exactdp/core/error.hpp"
#include "exactdp/parametric/envelope.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace exactdp {
namespace {

using parametric::Envelope;
using parametric::ParameterRange;
using parametric::parse_rational_function;
using parametric::RationalFunction;

Rational fraction(long n, long d) { return testing::q(n, d); }

/// The largest value of @p functions at @p r (exact).
Rational brute_max(const std::vector<RationalFunction>& functions, const Rational& r) {
  Rational best = functions.front().evaluate(r);
  for (const auto& f : functions) best = std::max(best, f.evaluate(r));
  return best;
}

/// Rational points inside open piece @p p: its sample and one on each side of it.
std::vector<Rational> points_inside(const parametric::Piece& p) {
  const Rational& s = *p.sample;
  return {s, (p.lower.upper + s) / 2, (s + p.upper.lower) / 2};
}

/// The envelope's structure and values: pieces cover the range in order, the function named on each
/// piece is the brute-force maximum at rational points of it, and neighbouring intervals name
/// different functions (no breakpoint where nothing changes).
void expect_envelope(const Envelope& e, const std::vector<RationalFunction>& functions, const ParameterRange& range) {
  RC_ASSERT(!e.pieces.empty());
  RC_ASSERT(e.pieces.size() == e.best.size());
  RC_ASSERT(e.pieces.front().lower.rational() == std::optional<Rational>(range.lower));
  RC_ASSERT(e.pieces.back().upper.rational() == std::optional<Rational>(range.upper));
  RC_ASSERT(e.pieces.front().lower_closed == !range.lower_open);
  RC_ASSERT(e.pieces.back().upper_closed == !range.upper_open);
  for (std::size_t k = 0; k < e.pieces.size(); ++k) {
    const auto& p = e.pieces[k];
    const auto& f = functions.at(e.best[k]);
    if (k + 1 < e.pieces.size()) {
      const auto& next = e.pieces[k + 1];
      RC_ASSERT(p.upper.polynomial == next.lower.polynomial);
      RC_ASSERT(p.upper_closed != next.lower_closed);
    }
    if (p.is_point()) {
      RC_ASSERT(k > 0 && k + 1 < e.pieces.size());  // breakpoints are inside the range
      if (p.sample) RC_ASSERT(f.evaluate(*p.sample) == brute_max(functions, *p.sample));
      continue;
    }
    RC_ASSERT(p.sample.has_value());
    for (const Rational& r : points_inside(p)) RC_ASSERT(f.evaluate(r) == brute_max(functions, r));
    if (k >= 2) RC_ASSERT(e.best[k - 2] != e.best[k]);
  }
}

/// The same envelope from both routes: the same pieces (breakpoints with the same polynomial and
/// overlapping isolating intervals) and the same function on every interval.
void expect_same(const Envelope& a, const Envelope& b) {
  RC_ASSERT(a.pieces.size() == b.pieces.size());
  for (std::size_t k = 0; k < a.pieces.size(); ++k) {
    const auto& x = a.pieces[k];
    const auto& y = b.pieces[k];
    RC_ASSERT(x.is_point() == y.is_point());
    RC_ASSERT(x.upper.polynomial == y.upper.polynomial);
    RC_ASSERT(!(x.upper.upper < y.upper.lower) && !(y.upper.upper < x.upper.lower));
    if (!x.is_point()) RC_ASSERT(a.best[k] == b.best[k]);
  }
}

/// A random rational function continuous on [0, 1]: a polynomial of degree ≤ 3 with small integer
/// coefficients over a denominator positive on [0, 1] (1, 1 + r, 2 − r or 1 + r²).
RationalFunction random_function() {
  const auto c = *rc::gen::container<std::vector<int>>(4, rc::gen::inRange(-6, 7));
  std::vector<Rational> coefficients(c.begin(), c.end());
  const RationalFunction r = RationalFunction::variable();
  const std::vector<RationalFunction> denominators{RationalFunction(1), 1 + r, 2 - r, 1 + r * r};
  return RationalFunction::polynomial(coefficients) / denominators[*rc::gen::inRange<std::size_t>(0, denominators.size())];
}

/// A random range inside [0, 1], open or closed at each end.
ParameterRange random_range() {
  const int a = *rc::gen::inRange(0, 8), b = *rc::gen::inRange(a + 1, 9);
  return ParameterRange{fraction(a, 8), fraction(b, 8), *rc::gen::arbitrary<bool>(), *rc::gen::arbitrary<bool>()};
}

std::vector<RationalFunction> distinct(std::vector<RationalFunction> fs) {
  std::vector<RationalFunction> out;
  for (auto& f : fs)
    if (std::find(out.begin(), out.end(), f) == out.end()) out.push_back(std::move(f));
  return out;
}

RC_GTEST_PROP(UpperEnvelope, EqualsTheBruteForceMaximumAndThePairwiseRoute, ()) {
  const std::size_t n = *rc::gen::inRange<std::size_t>(1, 16);
  std::vector<RationalFunction> fs;
  for (std::size_t i = 0; i < n; ++i) fs.push_back(random_function());
  fs = distinct(std::move(fs));
  const ParameterRange range = random_range();
  const Envelope e = parametric::upper_envelope(fs, range);
  RC_CLASSIFY(e.intervals > 1, "halved");
  expect_envelope(e, fs, range);
  expect_same(e, parametric::upper_envelope_pairwise(fs, range));
}

TEST(UpperEnvelope, ManyFunctionsMeetingAtOnePoint) {
  // f_i = 1 + c_i·(r² − 1/2): every f_i meets every other at 1/√2, which no halving of (0, 1)
  // reaches; left of it the smallest c_i wins, right of it the largest (by hand), so the envelope
  // has exactly two intervals around the point √2/2. Eight distinct slopes a, a + d, …, a + 7d in
  // rotated order: more than the six survivors split pairwise, so the halving runs to its limit.
  // A few fixed cases (each runs 40 halvings; a RapidCheck sweep would be slow under sanitizers).
  const RationalFunction r = RationalFunction::variable();
  const RationalFunction q = r * r - RationalFunction(fraction(1, 2));
  for (const auto& [a, d, k] : std::vector<std::array<int, 3>>{{-3, 1, 0}, {-20, 5, 3}, {2, 2, 7}}) {
    std::vector<int> c;
    for (int i = 0; i < 8; ++i) c.push_back(a + ((i + k) % 8) * d);
    std::vector<RationalFunction> fs;
    for (int ci : c) fs.push_back(1 + RationalFunction(ci) * q);
    const ParameterRange range{0, 1, true, true};
    const Envelope e = parametric::upper_envelope(fs, range);
    ASSERT_EQ(e.pieces.size(), 3u);
    EXPECT_EQ(e.pieces[1].upper.polynomial, (std::vector<Integer>{-1, 0, 2}));
    const auto lowest = std::min_element(c.begin(), c.end()) - c.begin(), highest = std::max_element(c.begin(), c.end()) - c.begin();
    EXPECT_EQ(e.best[0], static_cast<std::size_t>(lowest));
    EXPECT_EQ(e.best[2], static_cast<std::size_t>(highest));
    for (const Rational& x : {fraction(1, 3), fraction(7, 10), fraction(71, 100), fraction(9, 10)})
      EXPECT_EQ(fs[e.best[x < fraction(707, 1000) ? 0 : 2]].evaluate(x), brute_max(fs, x)) << "r = " << to_string(x);
  }
}

TEST(UpperEnvelope, HalvingSeparatesNineParabolas) {
  // f_i = −(r − i/10)², i = 1…9, on (0, 1): f_i is the largest between the midpoints of its peak and
  // its neighbours' peaks, so the breakpoints are (2i + 1)/20 (by hand) — among them 1/4 and 3/4,
  // points where the halving splits. Nine survivors at the first midpoint: the halving must run.
  const RationalFunction r = RationalFunction::variable();
  std::vector<RationalFunction> fs;
  for (int i = 1; i <= 9; ++i) fs.push_back(-(r - RationalFunction(fraction(i, 10))).pow(2));
  const Envelope e = parametric::upper_envelope(fs, ParameterRange{0, 1, true, true});
  EXPECT_GT(e.intervals, 1u);
  ASSERT_EQ(e.pieces.size(), 17u);
  for (std::size_t i = 0; i < 9; ++i) EXPECT_EQ(e.best[2 * i], i);
  for (std::size_t i = 1; i < 9; ++i)
    EXPECT_EQ(e.pieces[2 * i - 1].lower.rational(), std::optional<Rational>(fraction(2 * static_cast<long>(i) + 1, 20)));
}

TEST(UpperEnvelope, HandDerivedBreakpoints) {
  // r, 1 − r and 1/4 on [0, 1]: max is 1 − r up to 1/2, then r (1/4 never wins; by hand)
  const std::vector<RationalFunction> fs{parse_rational_function("r", "r"), parse_rational_function("1-r", "r"), RationalFunction(fraction(1, 4))};
  const ParameterRange range{0, 1, false, false};
  const Envelope e = parametric::upper_envelope(fs, range);
  ASSERT_EQ(e.pieces.size(), 3u);
  EXPECT_EQ(e.best[0], 1u);
  EXPECT_EQ(e.pieces[1].lower.rational(), std::optional<Rational>(fraction(1, 2)));
  EXPECT_EQ(e.best[2], 0u);
  EXPECT_TRUE(e.pieces[0].lower_closed && e.pieces[2].upper_closed);
  // 1/2 is itself a halving point of [0, 1]: the breakpoint must still appear once, not be merged away
  EXPECT_EQ(e.pieces[1].to_string(), "{1/2}");
}

TEST(UpperEnvelope, RefusesAPoleInsideTheRange) {
  const std::vector<RationalFunction> fs{parse_rational_function("1/(3*r-1)", "r"), RationalFunction(1)};
  try {
    parametric::upper_envelope(fs, ParameterRange{0, 1, true, true});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("denominator vanishes at 1/3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace exactdp
