#include "exactdp/mechanism/discrete_gaussian.hpp"

#include "exactdp/core/error.hpp"

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {
namespace {

Integer floor_of(const Rational& q) {
  Integer f;
  mpz_fdiv_q(f.get_mpz_t(), q.get_num_mpz_t(), q.get_den_mpz_t());
  return f;
}

void require_sigma2(const Rational& sigma2, const char* where) {
  if (sgn(sigma2) <= 0) throw Error(where, "sigma2", to_string(sigma2), "the variance sigma^2 must be positive");
}

void require_epsilon(const Rational& epsilon, const char* where) {
  if (sgn(epsilon) < 0) throw Error(where, "epsilon", to_string(epsilon), "epsilon must be non-negative");
}

/// Number of terms B + 1 with (B+1)² ≥ 1.4·σ²·(precision + 8 + log₂(σ² + 1)) (file comment of the header).
Integer truncation_terms(const Rational& sigma2, Precision precision) {
  Integer ceil_s2 = -floor_of(Rational(-sigma2));
  Integer bits = static_cast<unsigned long>(precision) + 8 + mpz_sizeinbase(Integer(ceil_s2 + 1).get_mpz_t(), 2);
  Rational k = Rational(7, 5) * sigma2 * Rational(bits);
  Integer root;
  mpz_sqrt(root.get_mpz_t(), Integer(-floor_of(Rational(-k))).get_mpz_t());
  return root + 1;
}

Interval clamp_probability(const Interval& x) {
  const Precision p = x.precision();
  return min(max(x, Interval::zero(p)), Interval(1L, p));
}

}  // namespace

DiscreteGaussianNoise::DiscreteGaussianNoise(const Rational& sigma2, Precision precision)
    : sigma2_(sigma2), precision_(precision), terms_(0), theta0_(Interval::zero(precision)) {
  require_sigma2(sigma2, "discrete Gaussian");
  Integer terms = truncation_terms(sigma2, precision);
  if (terms > max_terms)
    throw Error("discrete Gaussian", "sigma2", to_string(sigma2),
                "sigma^2 is too large for the direct certified theta-sum (" + terms.get_str() + " terms, at most " +
                    std::to_string(max_terms) + ")");
  terms_ = terms.get_ui();
  theta0_ = theta(Rational(0));
}

Interval DiscreteGaussianNoise::shifted_tail_sum(const Rational& a) const {
  const Rational two_s2 = 2 * sigma2_;
  Interval sum = Interval::zero(precision_);
  Rational x = a;
  for (unsigned long j = 0; j < terms_; ++j, x += 1) sum += exp(Interval(Rational(-(x * x) / two_s2), precision_));
  // x = n = a + B + 1 > 0: the rest is at most e^{−n²/(2σ²)}/(1 − e^{−n/σ²}) (geometric series)
  const Interval rest = exp(Interval(Rational(-(x * x) / two_s2), precision_)) /
                        -expm1(Interval(Rational(-x / sigma2_), precision_));
  return sum + hull(Interval::zero(precision_), rest);
}

Interval DiscreteGaussianNoise::theta(const Rational& shift) const {
  const Rational f = shift - Rational(floor_of(shift));  // θ is 1-periodic: θ(s) = θ(f), 0 ≤ f < 1
  // x ≤ 0 contributes Σ_{j≥0} e^{−(f+j)²/(2σ²)}, x ≥ 1 contributes Σ_{j≥0} e^{−(1−f+j)²/(2σ²)}
  return shifted_tail_sum(f) + shifted_tail_sum(Rational(1 - f));
}

Interval DiscreteGaussianNoise::mass(long x) const {
  Integer xx = Integer(x) * x;
  return exp(Interval(Rational(-Rational(xx) / (2 * sigma2_)), precision_)) / theta0_;
}

Interval DiscreteGaussianNoise::upper_tail(long m) const {
  if (m >= 1) return shifted_tail_sum(Rational(m)) / theta0_;
  // Pr[Z ≥ m] = 1 − Pr[Z ≤ m − 1] = 1 − Pr[Z ≥ 1 − m] by symmetry, with 1 − m ≥ 1
  return (theta0_ - shifted_tail_sum(Rational(Integer(1) - m))) / theta0_;
}

Dist<long, Interval> discrete_gaussian(const Rational& sigma2, long value, long lo, long hi, Precision precision) {
  constexpr const char* where = "discrete_gaussian";
  mechanism_detail::check_window(where, value, lo, hi);
  const DiscreteGaussianNoise noise(sigma2, precision);
  if (lo == hi) return Dist<long, Interval>({{lo, Interval(1L, precision)}}, MassKind::probability, where);
  std::vector<std::pair<long, Interval>> m;
  m.emplace_back(lo, noise.upper_tail(value - lo));  // Pr[Z ≤ lo − v] = Pr[Z ≥ v − lo]
  for (long k = lo + 1; k < hi; ++k) m.emplace_back(k, noise.mass(k - value));
  m.emplace_back(hi, noise.upper_tail(hi - value));  // Pr[Z ≥ hi − v]
  return Dist<long, Interval>(m, MassKind::probability, where);
}

NeighbouringPair<long, Interval> discrete_gaussian_pair(const Rational& sigma2, unsigned long sensitivity, long lo,
                                                       long hi, Precision precision) {
  mechanism_detail::check_sensitivity("discrete_gaussian_pair", sensitivity);
  return {discrete_gaussian(sigma2, 0, lo, hi, precision),
          discrete_gaussian(sigma2, static_cast<long>(sensitivity), lo, hi, precision)};
}

namespace {

/// δ(ε) of the discrete Gaussian mechanism for a noise object built once (see the header).
Interval delta_with(const DiscreteGaussianNoise& noise, unsigned long sensitivity, const Rational& epsilon) {
  constexpr const char* where = "discrete_gaussian_delta";
  require_epsilon(epsilon, where);
  const Rational delta_q(sensitivity);
  const Rational threshold = epsilon * noise.sigma2() / delta_q - delta_q / 2;  // Pr[Y > t] = Pr[Y ≥ ⌊t⌋ + 1]
  const Integer m1 = floor_of(threshold) + 1;
  if (abs(m1) > std::numeric_limits<long>::max() / 2)
    throw Error(where, "epsilon", to_string(epsilon), "epsilon is too large for the certified tail sums");
  const long m = m1.get_si();
  const Interval d = noise.upper_tail(m) - exp(Interval(epsilon, noise.precision())) *
                                              noise.upper_tail(m + static_cast<long>(sensitivity));
  return clamp_probability(d);
}

}  // namespace

Interval discrete_gaussian_delta(const Rational& sigma2, unsigned long sensitivity, const Rational& epsilon,
                                 Precision precision) {
  constexpr const char* where = "discrete_gaussian_delta";
  require_sigma2(sigma2, where);
  mechanism_detail::check_sensitivity(where, sensitivity);
  require_epsilon(epsilon, where);
  return delta_with(DiscreteGaussianNoise(sigma2, precision), sensitivity, epsilon);
}

Interval discrete_gaussian_least_epsilon(const Rational& sigma2, unsigned long sensitivity, const Rational& delta,
                                         Precision precision) {
  constexpr const char* where = "discrete_gaussian_least_epsilon";
  require_sigma2(sigma2, where);
  mechanism_detail::check_sensitivity(where, sensitivity);
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
  if (sgn(delta) == 0) return Interval::infinity(precision);
  const DiscreteGaussianNoise noise(sigma2, precision);
  auto at = [&](const Rational& eps) { return delta_with(noise, sensitivity, eps); };
  if (at(Rational(0)).upper() <= delta) return Interval::zero(precision);
  // δ(lo) > δ is certain (or lo = 0); find hi with δ(hi) ≤ δ certain by doubling
  Rational lo(0), hi(1);
  for (;;) {
    const Interval d = at(hi);
    if (d.upper() <= delta) break;
    if (!(d.lower() > delta) || hi > Rational(1L << 40))  // undecided, or absurdly large
      return Interval::at_least(lo, precision);
    lo = hi;
    hi *= 2;
  }
  for (int step = 0; step < 200 && hi - lo > pow2(-60) * std::max(Rational(1), hi); ++step) {
    const Rational mid = (lo + hi) / 2;
    const Interval d = at(mid);
    if (d.upper() <= delta) hi = mid;
    else if (d.lower() > delta) lo = mid;
    else break;  // δ(mid) ≈ δ at this precision: the bracket cannot shrink further
  }
  return Interval::hull(lo, hi, precision);
}

Interval discrete_gaussian_delta(const Rational& sigma2, unsigned long sensitivity, const Interval& epsilon,
                                 Precision precision) {
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
    throw Error("discrete_gaussian_delta", "epsilon", epsilon.to_string(), "epsilon must be finite");
  // δ is non-increasing in ε: its range over [lo, hi] is [δ(hi), δ(lo)]
  return hull(discrete_gaussian_delta(sigma2, sensitivity, epsilon.upper(), precision),
              discrete_gaussian_delta(sigma2, sensitivity, epsilon.lower(), precision));
}

Interval discrete_gaussian_renyi(const Rational& sigma2, unsigned long sensitivity, const Rational& alpha,
                                 Precision precision) {
  constexpr const char* where = "discrete_gaussian_renyi";
  require_sigma2(sigma2, where);
  mechanism_detail::check_sensitivity(where, sensitivity);
  if (alpha <= 1) throw Error(where, "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
  const Rational delta_q(sensitivity);
  const DiscreteGaussianNoise noise(sigma2, precision);
  const Interval log_ratio = log(noise.theta((1 - alpha) * delta_q) / noise.normaliser());
  return Interval(Rational(alpha * delta_q * delta_q / (2 * sigma2)), precision) +
         log_ratio / Interval(Rational(alpha - 1), precision);
}

Rational discrete_gaussian_zcdp(const Rational& sigma2, unsigned long sensitivity) {
  require_sigma2(sigma2, "discrete_gaussian_zcdp");
  mechanism_detail::check_sensitivity("discrete_gaussian_zcdp", sensitivity);
  const Rational delta_q(sensitivity);
  return delta_q * delta_q / (2 * sigma2);
}

}  // namespace exactdp
