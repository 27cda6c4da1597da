// The latent threshold primitive (noise/latent.hpp) against independent routes: a certified
// bracket from direct summation of the noise laws over a window with a closed tail bound (B.14),
// the hand values of THEOREMS.md E.10 H12, an exact decision of posterior equality (to test that
// the canonical description is equal iff the posteriors are), and the library's AboveThreshold.
#include "exactdp/core/error.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/noise/latent.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <unordered_set>

namespace exactdp::noise {
namespace {

using testing::q;
using C = LatentThreshold::Comparison;

Rational slow_power(const Rational& theta, long j) {
  Rational x = 1;
  for (long i = 0; i < (j < 0 ? -j : j); ++i) x *= theta;
  return j < 0 ? 1 / x : x;
}
Rational dlap_pmf(const Rational& r, long k) { return (1 - r) / (1 + r) * slow_power(r, k < 0 ? -k : k); }

/// A certified bracket for Pr[all of @p cs] = Σ_j Pr[τ = j] Π_s g_s(j) by direct summation: τ over
/// |j| ≤ B (the rest has mass 2 r_τ^{B+1}/(1+r_τ), D.3) and each factor as a sum of the query
/// noise's pmf over |k| ≤ L (short by at most r^{L+1}/(1+r)). Nothing here uses PiecewiseExp.
std::pair<Rational, Rational> bracket(const Rational& rt, const std::vector<C>& cs, long B, long L) {
  // the factor of each comparison at j ∈ [−B, B], from running sums of the query noise's pmf
  std::vector<std::vector<Rational>> factor;
  for (const auto& c : cs) {
    std::vector<Rational> running;  // running[i] = Σ_{k=−L}^{−L+i} pmf(k)
    Rational s = 0;
    for (long k = -L; k <= L; ++k) running.push_back(s += sgn(c.r_query) == 0 ? Rational(k == 0 ? 1 : 0) : dlap_pmf(c.r_query, k));
    auto below = [&](long m) { return m < -L ? Rational(0) : running[std::size_t(std::min(m, L) + L)]; };  // Σ_{k≤m}
    std::vector<Rational> f;
    for (long j = -B; j <= B; ++j) f.push_back(c.outcome == Side::below ? below(c.margin + j) : s - below(c.margin + j));
    factor.push_back(f);
  }
  Rational lo = 0, hi = 0;
  for (long j = -B; j <= B; ++j) {
    Rational a = dlap_pmf(rt, j), b = a;
    for (std::size_t s = 0; s < cs.size(); ++s) {
      const Rational& f = factor[s][std::size_t(j + B)];
      a *= f;
      Rational up = sgn(cs[s].r_query) == 0 ? f : f + slow_power(cs[s].r_query, L + 1) / (1 + cs[s].r_query);
      b *= up < 1 ? up : Rational(1);
    }
    lo += a;
    hi += b;
  }
  return {lo, hi + 2 * slow_power(rt, B + 1) / (1 + rt)};
}

/// Follows every outcome sequence of the queries (margin, r_query) and calls @p leaf with the
/// observed comparisons and the product of the branch probabilities (the chain rule).
template <class F>
void walk(const LatentThreshold& t, const std::vector<std::pair<long, Rational>>& queries, std::size_t i, std::vector<C>& seen,
          const Rational& p, F leaf) {
  if (i == queries.size()) return leaf(seen, p, t);
  for (const auto& b : t.compare(queries[i].first, queries[i].second)) {
    seen.push_back({queries[i].second, queries[i].first, b.outcome});
    walk(b.next, queries, i + 1, seen, p * b.probability, leaf);
    seen.pop_back();
  }
}

/// Whether a PiecewiseExp is the zero function, decided exactly: on an unbounded piece a non-empty
/// sum of exponentials with distinct bases never vanishes identically; on a bounded piece with at
/// least as many points as terms the Vandermonde matrix is invertible; shorter pieces are evaluated.
bool is_zero_function(const PiecewiseExp& f) {
  for (std::size_t i = 0; i < f.pieces().size(); ++i) {
    const auto& p = f.pieces()[i];
    if (p.empty()) continue;
    if (i == 0 || i == f.cuts().size()) return false;
    const long a = f.cuts()[i - 1], b = f.cuts()[i] - 1;
    if (b - a + 1 >= static_cast<long>(p.size())) return false;
    for (long j = a; j <= b; ++j)
      if (sgn(f(j)) != 0) return false;
  }
  return true;
}

bool same_posterior(const LatentThreshold& a, const LatentThreshold& b) {
  return is_zero_function(a.density().scaled(1 / a.density().sum()) - b.density().scaled(1 / b.density().sum()));
}

TEST(LatentThreshold, ReferenceValuesOfE10H12) {
  // r_τ = 1/4, r_ν = 1/2, margin 0 twice (x = (1,0), Thr = (1,1)): Pr[stop at 1] = 13/35,
  // Pr[stop at 2] = 62/315, Pr[no stop] = 136/315 (E.10 H12, and by hand in tests/library)
  const LatentThreshold prior(q(1, 4));
  const auto first = prior.compare(0, q(1, 2));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].outcome, Side::below);
  EXPECT_EQ(first[1].probability, q(13, 35));
  const auto second = first[0].next.compare(0, q(1, 2));
  EXPECT_EQ(first[0].probability * second[1].probability, q(62, 315));
  EXPECT_EQ(first[0].probability * second[0].probability, q(136, 315));
  EXPECT_EQ(LatentThreshold::probability_of(q(1, 4), {{q(1, 2), 0, Side::below}, {q(1, 2), 0, Side::below}}), q(136, 315));
}

TEST(LatentThreshold, PathProbabilitiesLieInTheCertifiedBracket) {
  // mixed outcomes, two query scales and a comparison without query noise
  const Rational rt = q(1, 3);
  const std::vector<std::pair<long, Rational>> queries{{0, q(1, 2)}, {-1, q(2, 3)}, {1, 0}, {2, q(1, 2)}};
  Rational total = 0;
  std::size_t leaves = 0;
  std::vector<C> seen;
  walk(LatentThreshold(rt), queries, 0, seen, Rational(1), [&](const std::vector<C>& cs, const Rational& p, const LatentThreshold&) {
    const auto [lo, hi] = bracket(rt, cs, 40, 40);
    EXPECT_LE(lo, p);
    EXPECT_LE(p, hi);
    EXPECT_LT(hi - lo, q(1, 100000));
    EXPECT_EQ(p, LatentThreshold::probability_of(rt, cs));  // the chain rule against the joint sum
    total += p;
    ++leaves;
  });
  EXPECT_EQ(total, 1);
  EXPECT_EQ(leaves, 16u);
}

RC_GTEST_PROP(LatentThreshold, RandomPathsLieInTheCertifiedBracket, ()) {
  const std::vector<Rational> rs{q(1, 2), q(1, 3), q(1, 4), q(2, 5)};
  const Rational rt = rs[std::size_t(*rc::gen::inRange(0, 4))];
  const auto n = std::size_t(*rc::gen::inRange(1, 4));
  std::vector<std::pair<long, Rational>> queries;
  for (std::size_t i = 0; i < n; ++i) {
    const int k = *rc::gen::inRange(0, 5);
    queries.push_back({*rc::gen::inRange(-3L, 4L), k == 4 ? Rational(0) : rs[std::size_t(k)]});
  }
  Rational total = 0;
  std::vector<C> seen;
  walk(LatentThreshold(rt), queries, 0, seen, Rational(1), [&](const std::vector<C>& cs, const Rational& p, const LatentThreshold&) {
    const auto [lo, hi] = bracket(rt, cs, 20, 20);
    RC_ASSERT(lo <= p);
    RC_ASSERT(p <= hi);
    total += p;
  });
  RC_ASSERT(total == 1);
}

TEST(LatentThreshold, AllBelowIsTheSvtNoStopProbability) {
  // the incremental posteriors of compare() against the joint sum written from scratch
  const std::vector<long> margins{1, -2, 0, 0, 3};
  LatentThreshold t(q(1, 4));
  Rational p = 1;
  std::vector<long> so_far;
  for (long a : margins) {
    p *= t.compare(a, q(1, 2))[0].probability;
    t = t.compare(a, q(1, 2))[0].next;
    so_far.push_back(a);
    EXPECT_EQ(p, library::svt_no_stop_probability(q(1, 4), q(1, 2), so_far));
  }
  EXPECT_EQ(t.to_string(), "DLap(1/4)|below(-2;1/2),below(0;1/2),below(0;1/2),below(1;1/2),below(3;1/2)");
}

TEST(LatentThreshold, NoiselessComparisonsBoundTheSupport) {
  // ν = 0: "above" iff τ ≤ −A − 1, so after "above" at A = −3 and "below" at A = 0: 0 ≤ τ ≤ 2
  const LatentThreshold prior(q(1, 2));
  EXPECT_EQ(prior.probability_above(-3, 0), prior.cdf(2));
  const auto a = prior.compare(-3, 0);
  EXPECT_EQ(a[1].next.to_string(), "DLap(1/2)|tau<=2");
  const auto b = a[1].next.compare(0, 0);
  EXPECT_EQ(b[0].next.to_string(), "DLap(1/2)|0<=tau<=2");
  // the prior restricted to {0, 1, 2} ∝ (1, 1/2, 1/4)
  EXPECT_EQ(b[0].next.pmf(0), q(4, 7));
  EXPECT_EQ(b[0].next.pmf(2), q(1, 7));
  EXPECT_EQ(b[0].next.pmf(3), 0);
  // a noisy comparison on the bounded support tabulates the posterior
  const auto c = b[0].next.compare(-1, q(1, 2));
  EXPECT_EQ(c[0].next.to_string().substr(0, 26), "DLap(1/2)|0<=tau<=2|masses");
  EXPECT_EQ(c[0].next.masses().size(), 3u);
  // a single point is the plain form whatever was observed
  const auto point = c[0].next.conditioned(1, 1);
  EXPECT_EQ(point.to_string(), "DLap(1/2)|1<=tau<=1");
  EXPECT_EQ(point.pmf(1), 1);
  EXPECT_THROW(point.conditioned(2, std::nullopt), Error);  // probability 0
}

TEST(LatentThreshold, PureFactorsOnAHalfLineHaveOneRepresentative) {
  // on τ ≥ 0 every "above" with A ≥ −1 is ∝ r^j: all such margins give the same posterior
  const LatentThreshold half = LatentThreshold(q(1, 3)).conditioned(0, std::nullopt);
  const auto x = half.compare(4, q(1, 2))[1].next, y = half.compare(-1, q(1, 2))[1].next, z = half.compare(-2, q(1, 2))[1].next;
  EXPECT_EQ(x, y);
  EXPECT_EQ(x.to_string(), "DLap(1/3)|tau>=0|above(-1;1/2)");
  EXPECT_TRUE(same_posterior(x, y));
  EXPECT_NE(x, z);
  EXPECT_FALSE(same_posterior(x, z));
  // and the probabilities of the next comparisons agree
  EXPECT_EQ(x.probability_above(0, q(1, 2)), y.probability_above(0, q(1, 2)));
}

TEST(LatentThreshold, DescriptionIsEqualIffPosteriorIsEqual) {
  // every posterior reachable in ≤ 3 comparisons with margins −1..1, query scale 1/2 or none:
  // equal descriptions ⟺ equal posteriors, the latter decided exactly on PiecewiseExp
  const Rational rt = q(1, 3), rn = q(1, 2);
  std::vector<LatentThreshold> all{LatentThreshold(rt)};
  for (std::size_t begin = 0, depth = 0; depth < 3; ++depth) {
    const std::size_t end = all.size();
    for (std::size_t i = begin; i < end; ++i)
      for (long a = -1; a <= 1; ++a)
        for (const Rational& r : {rn, Rational(0)})
          for (auto& b : all[i].compare(a, r)) all.push_back(b.next);
    begin = end;
  }
  // group by the masses at −6..6; decide equality exactly within a group
  std::map<std::vector<Rational>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::vector<Rational> key;
    for (long j = -6; j <= 6; ++j) key.push_back(all[i].pmf(j));
    groups[key].push_back(i);
  }
  std::size_t pairs = 0, descriptions = 0;
  std::unordered_set<LatentThreshold, LatentThreshold::Hash> distinct(all.begin(), all.end());
  for (const auto& [key, members] : groups)
    for (std::size_t u = 0; u < members.size(); ++u)
      for (std::size_t v = u + 1; v < members.size(); ++v) {
        const auto &a = all[members[u]], &b = all[members[v]];
        ++pairs;
        EXPECT_EQ(a == b, same_posterior(a, b)) << a.to_string() << " vs " << b.to_string();
        if (a == b) {
          EXPECT_EQ(LatentThreshold::Hash{}(a), LatentThreshold::Hash{}(b));
        }
      }
  descriptions = distinct.size();
  EXPECT_GT(pairs, 1000u);
  EXPECT_GT(descriptions, 150u);
}

RC_GTEST_PROP(LatentThreshold, OrderOfObservationsDoesNotMatter, ()) {
  const auto n = std::size_t(*rc::gen::inRange(1, 5));
  std::vector<C> cs;
  for (std::size_t i = 0; i < n; ++i)
    cs.push_back({*rc::gen::element(q(1, 2), q(1, 3), Rational(0)), *rc::gen::inRange(-2L, 3L),
                  *rc::gen::element(Side::below, Side::above)});
  auto shuffled = cs;
  std::reverse(shuffled.begin(), shuffled.end());
  // build by compare() along the given order, and by the constructor from the reversed list
  LatentThreshold t(q(1, 4));
  for (const auto& c : cs) {
    bool found = false;
    for (const auto& b : t.compare(c.margin, c.r_query))
      if (b.outcome == c.outcome) {
        t = b.next;
        found = true;
      }
    RC_PRE(found);  // a noiseless comparison may contradict an earlier one
  }
  const LatentThreshold u(q(1, 4), shuffled);
  RC_ASSERT(t == u);
  RC_ASSERT(LatentThreshold::Hash{}(t) == LatentThreshold::Hash{}(u));
  RC_ASSERT(t.to_string() == u.to_string());
  RC_ASSERT(std::is_eq(t <=> u));
}

RC_GTEST_PROP(LatentThreshold, ABiggerMarginIsLessOftenAbove, ()) {
  LatentThreshold t(q(1, 3));
  const auto n = std::size_t(*rc::gen::inRange(0, 3));
  for (std::size_t i = 0; i < n; ++i) t = t.compare(*rc::gen::inRange(-2L, 3L), q(1, 2))[std::size_t(*rc::gen::inRange(0, 2))].next;
  const long a = *rc::gen::inRange(-3L, 3L);
  RC_ASSERT(t.probability_above(a + 1, q(1, 2)) < t.probability_above(a, q(1, 2)));
  RC_ASSERT(t.probability_above(a + 1, 0) <= t.probability_above(a, 0));
  Rational s = 0;
  for (const auto& b : t.compare(a, q(1, 2))) s += b.probability;
  RC_ASSERT(s == 1);
}

TEST(LatentThreshold, TotalOrderAndErrors) {
  const LatentThreshold a(q(1, 4)), b = a.compare(0, q(1, 2))[0].next, c = a.compare(0, q(1, 2))[1].next;
  EXPECT_LT(a, b);  // fewer comparisons first
  EXPECT_LT(b, c);  // below before above
  EXPECT_EQ(c.to_string(), "DLap(1/4)|above(0;1/2)");
  EXPECT_THROW(LatentThreshold(q(1)), Error);
  EXPECT_THROW(a.compare(0, q(1)), Error);
  EXPECT_THROW(a.compare(2'000'000, q(1, 2)), Error);
  EXPECT_THROW(LatentThreshold(q(1, 4), {}, 3, 2), Error);
  EXPECT_THROW(LatentThreshold(q(1, 4), {}, 0, 1, {q(1, 3), q(1, 3)}), Error);  // masses sum to 2/3
  try {
    LatentThreshold(q(1, 4)).compare(0, q(-1, 2));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "r_query");
    EXPECT_EQ(e.value(), "-1/2");
  }
  // a tabulated description round-trips through the constructor
  const auto t = LatentThreshold(q(1, 2), {{0, 0, Side::below}, {0, -2, Side::above}}).compare(-1, q(1, 3))[1].next;
  ASSERT_FALSE(t.masses().empty());
  EXPECT_EQ(LatentThreshold(t.r_threshold(), {}, t.lower(), t.upper(), t.masses()), t);
}

}  // namespace
}  // namespace exactdp::noise
