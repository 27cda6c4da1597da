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

/// q ≤ the upper end of @p x, compared on the MPFR endpoint (no conversion of a possibly tiny
/// endpoint to a huge rational).
inline bool upper_at_least(const Interval& x, const Rational& q) {
  return mpfr_cmp_q(&x.get()->right, q.get_mpq_t()) >= 0;
}

/// A decimal reference value such as "0.95310179804" or "1e-35", parsed exactly in base 10.
/// (Kept separate from parse_rational so that these tests do not depend on its decimal path.)
inline Rational decimal(const std::string& text) {
  std::string mantissa = text;
  long exponent = 0;
  if (auto e = text.find_first_of("eE"); e != std::string::npos) {
    mantissa = text.substr(0, e);
    exponent = std::stol(text.substr(e + 1));
  }
  const bool negative = !mantissa.empty() && mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits = mantissa;
  if (auto dot = mantissa.find('.'); dot != std::string::npos) {
    digits = mantissa.substr(0, dot) + mantissa.substr(dot + 1);
    exponent -= static_cast<long>(mantissa.size() - dot - 1);
  }
  Integer n(digits, 10), p;
  mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
  Rational r = exponent < 0 ? Rational(n, p) : Rational(n * p);
  r.canonicalize();
  return negative ? Rational(-r) : r;
}

/// The interval is within @p slack of the reference decimal @p reference (which must carry more
/// correct digits than the slack), and not wider than @p max_width.
inline ::testing::AssertionResult encloses_reference(const Interval& x, const char* reference,
                                                     const char* slack = "1e-35", const char* max_width = "1e-30") {
  const Rational ref = decimal(reference), s = decimal(slack);
  if (!x.lower_is_finite() || !x.upper_is_finite()) return ::testing::AssertionFailure() << x.to_string() << " is unbounded";
  if (x.lower() > ref + s || x.upper() < ref - s)
    return ::testing::AssertionFailure() << x.to_string(40) << " does not contain " << reference;
  if (x.width_upper() > decimal(max_width))
    return ::testing::AssertionFailure() << x.to_string(40) << " is wider than " << max_width;
  return ::testing::AssertionSuccess();
}

}  // namespace exactdp::bounds_test
