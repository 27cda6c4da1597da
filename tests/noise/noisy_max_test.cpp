// Report-noisy-max (noise/noisy_max.hpp) against a hand-derived value, exhaustive enumeration of
// finite noise, and a certified bracket by enumeration of unbounded noise over a window.
#include "exactdp/core/error.hpp"
#include "exactdp/noise/noisy_max.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

namespace exactdp::noise {
namespace {

using testing::q;

/// Enumerates Z_k over @p window (a list of (value, mass)) for every k and accumulates the
/// winner's mass under @p ties; returns the winners' masses and the enumerated total.
std::pair<std::vector<Rational>, Rational> enumerate(const std::vector<long>& v, const std::vector<std::vector<std::pair<long, Rational>>>& window,
                                                     TieBreak ties) {
  const std::size_t n = v.size();
  std::vector<Rational> win(n);
  Rational seen = 0;
  std::vector<std::size_t> at(n, 0);
  while (true) {
    Rational p = 1;
    long best = 0;
    std::vector<std::size_t> top;
    for (std::size_t k = 0; k < n; ++k) {
      const auto& [z, m] = window[k][at[k]];
      p *= m;
      const long y = v[k] + z;
      if (top.empty() || y > best) {
        best = y;
        top = {k};
      } else if (y == best) {
        top.push_back(k);
      }
    }
    seen += p;
    if (ties == TieBreak::lowest_index) win[top.front()] += p;
    else
      for (std::size_t k : top) win[k] += p / Rational(static_cast<unsigned long>(top.size()));
    std::size_t k = 0;
    while (k < n && ++at[k] == window[k].size()) at[k++] = 0;
    if (k == n) break;
  }
  return {win, seen};
}

std::vector<std::pair<long, Rational>> table(const Noise& z, long lo, long hi) {
  std::vector<std::pair<long, Rational>> t;
  for (long k = lo; k <= hi; ++k)
    if (sgn(z.pmf(k)) > 0) t.emplace_back(k, z.pmf(k));
  return t;
}

TEST(ReportNoisyMax, TwoEqualValuesByHand) {
  // v = (0, 0), DLap(1/2): Pr[Z₀ = Z₁] = Σ_k c² r^{2|k|} = (1/9)(1 + 2·(1/4)/(3/4)) = 5/27, so with
  // the lowest index winning ties Pr[0 wins] = (1 + 5/27)/2 = 16/27; uniform ties split evenly
  const auto low = report_noisy_max({0, 0}, Noise::dlap(q(1, 2)));
  EXPECT_EQ(low[0], q(16, 27));
  EXPECT_EQ(low[1], q(11, 27));
  const auto fair = report_noisy_max({0, 0}, Noise::dlap(q(1, 2)), TieBreak::uniform);
  EXPECT_EQ(fair[0], q(1, 2));
  EXPECT_EQ(fair[1], q(1, 2));
}

TEST(ReportNoisyMax, FiniteNoiseIsTheExhaustiveEnumeration) {
  const std::vector<long> v{0, 1, 1, -1};
  const std::vector<Noise> z{Noise::uniform(-1, 2), Noise::binomial(3, q(1, 3)), Noise::bernoulli(q(1, 4)), Noise::uniform(0, 3)};
  std::vector<std::vector<std::pair<long, Rational>>> w;
  for (const auto& x : z) w.push_back(table(x, -5, 5));
  for (TieBreak t : {TieBreak::lowest_index, TieBreak::uniform}) {
    const auto [win, seen] = enumerate(v, w, t);
    EXPECT_EQ(seen, 1);
    EXPECT_EQ(report_noisy_max(v, z, t), win);
  }
}

RC_GTEST_PROP(ReportNoisyMax, UnboundedNoiseLiesInTheCertifiedBracket, ()) {
  const auto n = std::size_t(*rc::gen::inRange(2, 4));
  std::vector<long> v;
  std::vector<Noise> z;
  std::vector<std::vector<std::pair<long, Rational>>> w;
  const long L = 9;
  for (std::size_t k = 0; k < n; ++k) {
    v.push_back(*rc::gen::inRange(-2L, 3L));
    const Rational r = *rc::gen::element(q(1, 3), q(1, 4), q(1, 5));
    z.push_back(*rc::gen::element(0, 1) ? Noise::dlap(r) : Noise::geometric(r));
    w.push_back(table(z.back(), -L, L));
  }
  const TieBreak t = *rc::gen::element(TieBreak::lowest_index, TieBreak::uniform);
  const auto [win, seen] = enumerate(v, w, t);
  const auto exact = report_noisy_max(v, z, t);
  for (std::size_t k = 0; k < n; ++k) {
    // the unenumerated mass 1 − seen can only add to a winner
    RC_ASSERT(win[k] <= exact[k]);
    RC_ASSERT(exact[k] <= win[k] + (1 - seen));
  }
  RC_ASSERT(1 - seen < q(1, 1000));
}

TEST(ReportNoisyMax, InvalidInputsAreErrors) {
  EXPECT_THROW(report_noisy_max({}, Noise::dlap(q(1, 2))), Error);
  EXPECT_THROW(report_noisy_max({0, 1}, std::vector<Noise>{Noise::dlap(q(1, 2))}), Error);
  EXPECT_THROW(report_noisy_max({0, 2'000'000}, Noise::dlap(q(1, 2))), Error);
}

}  // namespace
}  // namespace exactdp::noise
