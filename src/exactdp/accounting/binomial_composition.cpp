#include "exactdp/accounting/binomial_composition.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace exactdp {
namespace {

constexpr const char* where = "BinomialComposition";

/// ln n! = lnΓ(n + 1), enclosed by MPFR's correctly rounded lngamma rounded down and up (n + 1 is
/// exact in 72 bits).
Interval log_factorial(unsigned long n, Precision precision) {
  mpfr_t x, lo, hi;
  mpfr_inits2(72, x, static_cast<mpfr_ptr>(nullptr));
  mpfr_inits2(precision, lo, hi, static_cast<mpfr_ptr>(nullptr));
  mpfr_set_ui(x, n, MPFR_RNDN);
  mpfr_add_ui(x, x, 1, MPFR_RNDN);
  mpfr_lngamma(lo, x, MPFR_RNDD);
  mpfr_lngamma(hi, x, MPFR_RNDU);
  Interval out = Interval::zero(precision);
  mpfi_interv_fr(out.get(), lo, hi);
  mpfr_clears(x, lo, hi, static_cast<mpfr_ptr>(nullptr));
  return out;
}

/// Certainly a < b: the upper end of a lies below the lower end of b.
bool certainly_below(const Interval& a, const Interval& b) { return mpfr_cmp(&a.get()->right, &b.get()->left) < 0; }

/// Certainly x < 1.
bool certainly_below_one(const Interval& x) { return mpfr_cmp_ui(&x.get()->right, 1) < 0; }

/// [0, upper end of x]: a nonnegative quantity known only to be at most x.
Interval up_to(const Interval& x) {
  Interval out = x;
  mpfr_set_zero(&out.get()->left, 1);
  return out;
}

Interval clamp_probability(const Interval& x) {
  const Precision p = x.precision();
  return min(max(x, Interval::zero(p)), Interval(1L, p));
}

/// The ratio (num)/(den) of two counts as an exact rational.
Rational ratio(unsigned long num, unsigned long den) {
  Rational q(num, den);
  q.canonicalize();
  return q;
}

}  // namespace

BinomialComposition::BinomialComposition(const Interval& lambda, const Rational& delta, unsigned long k)
    : lambda_(lambda), delta_(delta), k_(k), precision_(lambda.precision()) {
  if (!lambda.lower_is_finite() || !lambda.upper_is_finite() || lambda.lower() <= 1)
    throw Error(where, "lambda", lambda.to_string(), "lambda = e^epsilon must exceed 1 and be finite");
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
  if (k < 1) throw Error(where, "k", std::to_string(k), "the number of uses must be at least 1");
  lambda_estimate_ = mpfr_get_d(&lambda.get()->right, MPFR_RNDU);
  // masses down to (1+λ)^{-k} and ratios up to λ^{±k} must stay inside MPFR's exponent range
  const double bits = static_cast<double>(k) * std::log2(1 + lambda_estimate_) + 64;
  const double range = static_cast<double>(std::min<long>(-mpfr_get_emin(), mpfr_get_emax()));
  if (!(bits < range / 2))
    throw Error(where, "k", std::to_string(k), "k·log2(1 + lambda) exceeds the floating-point exponent range");
  log_lambda_ = log(lambda_);
  log_one_plus_lambda_ = log(Interval(1L, precision_) + lambda_);
  log_factorial_k_ = log_factorial(k_, precision_);
}

unsigned long BinomialComposition::mode() const {
  const double p = lambda_estimate_ / (1 + lambda_estimate_);
  const double m = std::floor((static_cast<double>(k_) + 1) * p);
  return m <= 0 ? 0 : m >= static_cast<double>(k_) ? k_ : static_cast<unsigned long>(m);
}

Interval BinomialComposition::log_mass(unsigned long j) const {
  // ln C(k, j) + j·ln λ − k·ln(1+λ): p^j (1−p)^{k−j} = λ^j / (1+λ)^k
  return log_factorial_k_ - log_factorial(j, precision_) - log_factorial(k_ - j, precision_) +
         Interval(static_cast<long>(j), precision_) * log_lambda_ - Interval(static_cast<long>(k_), precision_) * log_one_plus_lambda_;
}

Interval BinomialComposition::delta_rr(const Interval& lambda_g) const {
  const Precision p = precision_;
  const Interval zero = Interval::zero(p), one(1L, p);
  const Interval log_g = log(lambda_g);
  // term j is P(j)·[1 − λ_g·λ^{k−2j}]₊, zero unless (2j − k)·ln λ > ln λ_g; with x ≤ ln λ_g / ln λ
  // every j ≤ (k + x)/2 contributes nothing
  const Interval x = log_g / log_lambda_;
  if (!x.lower_is_finite()) throw Error(where, "lambda_g", lambda_g.to_string(), "lambda_g must be at least 1");
  const Rational half = (Rational(static_cast<long>(k_)) + x.lower()) / 2;
  Integer floor_half;
  mpz_fdiv_q(floor_half.get_mpz_t(), half.get_num_mpz_t(), half.get_den_mpz_t());
  if (floor_half >= Integer(k_)) return zero;
  const unsigned long first = sgn(floor_half) < 0 ? 0 : floor_half.get_ui() + 1;
  const unsigned long start = std::max(first, mode());
  const Interval negligible = Interval(pow2(-static_cast<long>(p) - 4), p);
  const Interval lambda2 = lambda_ * lambda_;

  Interval sum = zero;
  // upwards from start: P(j+1)/P(j) = λ(k−j)/(j+1), decreasing in j
  Interval mass = exp(log_mass(start));
  Interval w = exp(log_g - Interval(2 * static_cast<long>(start) - static_cast<long>(k_), p) * log_lambda_);
  for (unsigned long j = start;; ++j) {
    sum += mass * max(one - w, zero);
    if (j == k_) break;
    const Interval r = Interval(ratio(k_ - j, j + 1), p) * lambda_;
    if (certainly_below_one(r)) {
      const Interval rest = mass * r / (one - r);  // Σ_{i>j} P(i) ≤ P(j)·r/(1−r)
      if (certainly_below(rest, sum * negligible)) {
        sum += up_to(rest);
        break;
      }
    }
    mass *= r;
    w /= lambda2;
  }
  // downwards from start − 1 to first: P(j−1)/P(j) = j/((k−j+1)λ), decreasing as j decreases
  if (first < start) {
    mass = exp(log_mass(start - 1));
    w = exp(log_g - Interval(2 * static_cast<long>(start - 1) - static_cast<long>(k_), p) * log_lambda_);
    for (unsigned long j = start - 1;; --j) {
      sum += mass * max(one - w, zero);
      if (j == first) break;
      const Interval s = Interval(ratio(j, k_ - j + 1), p) / lambda_;
      if (certainly_below_one(s)) {
        const Interval rest = mass * s / (one - s);  // Σ_{first≤i<j} P(i) ≤ P(j)·s/(1−s)
        if (certainly_below(rest, sum * negligible)) {
          sum += up_to(rest);
          break;
        }
      }
      mass *= s;
      w *= lambda2;
    }
  }
  return clamp_probability(sum);
}

Interval BinomialComposition::delta_at_lambda(const Interval& lambda_g) const {
  if (!lambda_g.lower_is_finite() || lambda_g.lower() < 1)
    throw Error(where, "lambda_g", lambda_g.to_string(), "lambda_g = e^epsilon must be at least 1");
  const Interval rr = delta_rr(lambda_g);
  if (sgn(delta_) == 0) return rr;
  // 1 − (1−δ)^k(1 − δ_RR) = L + (1−δ)^k·δ_RR with L = 1 − (1−δ)^k = −expm1(k·ln(1−δ))
  const Precision p = precision_;
  if (delta_ == 1) return Interval(1L, p);
  const Interval log_keep = Interval(static_cast<long>(k_), p) * log1p(Interval(Rational(-delta_), p));
  return clamp_probability(-expm1(log_keep) + exp(log_keep) * rr);
}

Interval BinomialComposition::delta_at_epsilon(const Interval& epsilon) const {
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite() || epsilon.lower() < 0)
    throw Error(where, "epsilon", epsilon.to_string(), "epsilon must be finite and non-negative");
  return delta_at_lambda(exp(epsilon));
}

Interval BinomialComposition::least_epsilon(const Rational& delta_g) const {
  if (sgn(delta_g) < 0 || delta_g > 1) throw Error(where, "delta", to_string(delta_g), "delta must lie in [0, 1]");
  const Precision p = precision_;
  const Interval zero = Interval::zero(p), one(1L, p);
  if (delta_ == 1) return delta_g == 1 ? zero : Interval::infinity(p);  // always leaks
  if (delta_g == 1) return zero;
  // need δ_RR(λ_g) ≤ t with t = 1 − (1−δ_g)/(1−δ)^k = (δ_g − L)/(1−δ)^k, L = 1 − (1−δ)^k
  Interval t(delta_g, p);
  if (sgn(delta_) != 0) {
    const Interval log_keep = Interval(static_cast<long>(k_), p) * log1p(Interval(Rational(-delta_), p));
    t = (t + expm1(log_keep)) / exp(log_keep);
  }
  if (t.upper_is_finite() && t.upper() < 0) return Interval::infinity(p);
  const bool t_undecided = t.lower() < 0;
  if (t_undecided && sgn(t.upper()) == 0) return Interval::at_least(Rational(0), p);  // t ≈ 0: nothing to sum against
  if (sgn(delta_) == 0 && sgn(delta_g) == 0)  // pure: the largest loss k·ln λ, attained at j = k
    return Interval(static_cast<long>(k_), p) * log_lambda_;
  if (!t_undecided && certainly_below(delta_rr(one), t)) return zero;

  // δ_RR(λ_g) = max_m (A_m − λ_g·B_m) over the suffixes {j ≥ m} (A_m, B_m their P and Q masses),
  // so the least λ_g is max(1, max_m (A_m − t)/B_m) (THEOREMS.md B.11 "Least λ_g"), attained at
  // the m whose piece [λ^{2(m−1)−k}, λ^{2m−k}] contains it. Every (A_m − t)/B_m is a lower
  // bound on it; the maximiser has A_m > t, so only m at or below the index where the P-mass
  // above falls under t needs a visit, and none once λ^{2m−k} is below the best lower bound.
  const Interval threshold = (t_undecided ? Interval(t.upper(), p) : t) * Interval(pow2(-static_cast<long>(p) - 4), p);
  unsigned long top = k_;
  Interval tail_above = zero;
  {
    Interval mass = exp(log_mass(mode()));
    for (unsigned long j = mode(); j < k_; ++j) {
      const Interval r = Interval(ratio(k_ - j, j + 1), p) * lambda_;
      if (certainly_below_one(r)) {
        const Interval rest = mass * r / (one - r);
        if (certainly_below(rest, threshold)) {
          top = j;
          tail_above = up_to(rest);
          break;
        }
      }
      mass *= r;
    }
  }
  const Interval lambda2 = lambda_ * lambda_;
  Interval mass = exp(log_mass(top));
  Interval q_over_p = exp(Interval(static_cast<long>(k_) - 2 * static_cast<long>(top), p) * log_lambda_);  // λ^{k−2j}
  Interval breakpoint = one / q_over_p;                                                                     // λ^{2j−k}
  // above top, Q(i) = P(i)·λ^{k−2i} ≤ P(i)·λ^{k−2·top}
  Interval a = tail_above, b = up_to(tail_above * q_over_p), best = one;
  for (unsigned long j = top;; --j) {
    a += mass;
    b += mass * q_over_p;
    best = max(best, (a - t) / b);
    if (j == 0) break;
    breakpoint /= lambda2;
    if (certainly_below(breakpoint, best)) break;  // λ^{2(j−1)−k} < λ* for every smaller index
    mass *= Interval(ratio(j, k_ - j + 1), p) / lambda_;
    q_over_p *= lambda2;
  }
  if (!t_undecided && best.upper_is_finite() && best.upper() == 1) return zero;
  const Interval epsilon = log(best);
  return t_undecided ? Interval::at_least(epsilon.lower(), p) : epsilon;
}

}  // namespace exactdp
