#include "exactdp/bounds/parameters.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {

Interval epsilon_of(const Rational& lambda, Precision precision) {
  bounds_detail::require_lambda(lambda, "epsilon_of", "lambda");
  if (lambda == 1) return Interval::zero(precision);
  return log(Interval(lambda, precision));
}

namespace bounds_detail {

std::string indexed(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

void require_lambda(const Rational& lambda, const char* where, const std::string& field) {
  if (lambda < 1)
    throw Error(where, field, to_string(lambda), "a privacy parameter in base form λ = e^ε must be at least 1");
}

void require_nonnegative(const Rational& x, const char* where, const std::string& field) {
  if (sgn(x) < 0) throw Error(where, field, to_string(x), "must be non-negative");
}

void require_positive(const Rational& x, const char* where, const std::string& field) {
  if (sgn(x) <= 0) throw Error(where, field, to_string(x), "must be positive");
}

void require_probability(const Rational& delta, const char* where, const std::string& field) {
  if (sgn(delta) < 0 || delta > 1) throw Error(where, field, to_string(delta), "must lie in [0, 1]");
}

void require_positive_probability(const Rational& delta, const char* where, const std::string& field) {
  if (sgn(delta) <= 0 || delta > 1) throw Error(where, field, to_string(delta), "must lie in (0, 1]");
}

void require_count(unsigned long k, const char* where, const std::string& field) {
  if (k == 0) throw Error(where, field, "0", "the number of composed mechanisms must be at least 1");
}

void require_order(const Rational& alpha, const char* where, const std::string& field) {
  if (alpha <= 1) throw Error(where, field, to_string(alpha), "a Rényi order α must exceed 1");
}

void require_nonnegative(const Interval& x, const char* where, const std::string& field) {
  if (!x.lower_is_finite() || mpfr_sgn(&x.get()->left) < 0)
    throw Error(where, field, x.to_string(), "must be non-negative (every point of the interval)");
}

void require_positive(const Interval& x, const char* where, const std::string& field) {
  if (!x.lower_is_finite() || mpfr_sgn(&x.get()->left) <= 0)
    throw Error(where, field, x.to_string(), "must be positive (every point of the interval)");
}

Precision max_precision(const Interval& a, const Interval& b) { return std::max(a.precision(), b.precision()); }

Interval clamp_nonnegative(const Interval& x) { return max(x, Interval::zero(x.precision())); }

Interval clamp_at_most_one(const Interval& x) { return min(x, Interval(1L, x.precision())); }

Interval log_inverse(const Rational& delta, Precision precision) {
  return clamp_nonnegative(-log(Interval(delta, precision)));
}

bool certainly_greater(const Interval& x, const Rational& q) {
  return mpfr_cmp_q(&x.get()->left, q.get_mpq_t()) > 0;
}

bool certainly_at_most(const Interval& x, const Rational& q) {
  return mpfr_cmp_q(&x.get()->right, q.get_mpq_t()) <= 0;
}

bool upper_end_below(const Interval& a, const Interval& b) { return mpfr_less_p(&a.get()->right, &b.get()->right) != 0; }

}  // namespace bounds_detail
}  // namespace exactdp
