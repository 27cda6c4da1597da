/// @file
/// Helpers shared by the bounds/ tests: exact literals, small random components, and comparison of
/// certified intervals with high-precision reference decimals.
#pragma once

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <string>
#include <vector>

namespace exactdp::bounds_test {

/// An exact literal such as "5/18" or "0.1".
inline Rational q(const char* text) { return parse_rational(text); }

/// n/d in lowest terms.
inline Rational ratio(long n, long d) {
  Rational r(n, d);
  r.canonicalize();
  return r;
}

/// k copies of (λ, δ).
inline std::vector<LambdaDelta> copies(const Rational& lambda, const Rational& delta, std::size_t k) {
  return std::vector<LambdaDelta>(k, LambdaDelta{lambda, delta});
}

/// A small random component: λ = 1 + n/d with n ∈ [0, 6], d ∈ [1, 4]; δ = m/20 with m ∈ [0, 6]
/// (δ = 0 when @p pure).
inline LambdaDelta gen_component(bool pure = false) {
  const long n = *rc::gen::inRange(0, 7);
  const long d = *rc::gen::inRange(1, 5);
  const long m = pure ? 0 : *rc::gen::inRange(0, 7);
  return {ratio(d + n, d), ratio(m, 20)};
}

/// 1 to max_k small random components.
inline std::vector<LambdaDelta> gen_components(int max_k, bool pure = false) {
  const int k = *rc::gen::inRange(1, max_k + 1);
  std::vector<LambdaDelta> c;
  for (int i = 0; i < k; ++i) c.push_back(gen_component(pure));
  return c;
}

/// The interval is within @p slack of the reference decimal @p reference (which must carry more
/// correct digits than the slack), and not wider than @p max_width.
inline ::testing::AssertionResult encloses_reference(const Interval& x, const char* reference,
                                                     const char* slack = "1e-35", const char* max_width = "1e-30") {
  const Rational ref = parse_rational(reference), s = parse_rational(slack);
  if (!x.lower_is_finite() || !x.upper_is_finite()) return ::testing::AssertionFailure() << x.to_string() << " is unbounded";
  if (x.lower() > ref + s || x.upper() < ref - s)
    return ::testing::AssertionFailure() << x.to_string(40) << " does not contain " << reference;
  if (x.width_upper() > parse_rational(max_width))
    return ::testing::AssertionFailure() << x.to_string(40) << " is wider than " << max_width;
  return ::testing::AssertionSuccess();
}

}  // namespace exactdp::bounds_test
