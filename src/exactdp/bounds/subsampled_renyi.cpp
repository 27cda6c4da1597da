// Rényi divergences of Poisson-subsampled mechanisms: the binomial sum at integer orders and the
// convexity enclosure between them (the argument is in the header's file comment).
#include "exactdp/bounds/subsampled_renyi.hpp"

#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/core/error.hpp"

#include <string>

namespace exactdp {
namespace {

/// The largest order accepted (the sum has α + 1 terms).
constexpr unsigned long kMaxOrder = 10000;

void check_rate(const Rational& q, const char* where) {
  if (sgn(q) <= 0 || q > 1) throw Error(where, "q", to_string(q), "the sampling rate must lie in (0, 1]");
}

/// D_α from F(m) = ln E_B[(A/B)^m] at the integers around α (header: exact at integers, the
/// convexity and monotonicity enclosure between them).
Interval renyi_from_log_moments(const Rational& alpha, const std::function<Interval(unsigned long)>& F,
                                Precision p, const char* where) {
  if (alpha <= 1) throw Error(where, "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
  if (alpha > Rational(static_cast<long>(kMaxOrder)))
    throw Error(where, "alpha", to_string(alpha), "orders above " + std::to_string(kMaxOrder) + " are not supported");
  const Interval a1(Rational(alpha - 1), p);
  if (alpha.get_den() == 1) return F(alpha.get_num().get_ui()) / a1;
  mpz_class floor;
  mpz_fdiv_q(floor.get_mpz_t(), alpha.get_num_mpz_t(), alpha.get_den_mpz_t());
  const unsigned long n = floor.get_ui();
  const Rational t = alpha - Rational(static_cast<long>(n));  // in (0, 1)
  const Interval Fn1 = F(n + 1);
  const Interval Fn = n >= 2 ? F(n) : Interval::zero(p);  // F(1) = 0
  // upper end: the chord between n and n + 1, and D_α ≤ D_{n+1}
  Interval upper = Fn * Interval(Rational(1 - t), p) + Fn1 * Interval(t, p);
  upper = min(upper, a1 * Fn1 / Interval(Rational(static_cast<long>(n)), p));
  Interval lower = Interval::zero(p);
  if (n >= 2) {
    const Interval Fm = n >= 3 ? F(n - 1) : Interval::zero(p);
    lower = max(Fn + Interval(t, p) * (Fn - Fm), a1 * Fn / Interval(Rational(static_cast<long>(n - 1)), p));
  }
  const Interval lo = lower / a1, hi = upper / a1;
  return Interval::hull(lo.lower(), hi.upper(), p);
}

}  // namespace

Interval subsampled_log_moment(unsigned long alpha, const Rational& q,
                               const std::function<Interval(unsigned long)>& base_moment, Precision p) {
  constexpr const char* where = "subsampled_log_moment";
  if (alpha < 2 || alpha > kMaxOrder) throw Error(where, "alpha", std::to_string(alpha), "must be an integer in [2, 10000]");
  check_rate(q, where);
  if (q == 1) return log(base_moment(alpha));
  const Interval qi(q, p), ri(Rational(1 - q), p);
  Interval sum = Interval::zero(p);
  for (unsigned long k = 0; k <= alpha; ++k) {
    const Interval m = k < 2 ? Interval(1L, p) : base_moment(k);
    sum += Interval(Rational(binomial(alpha, k)), p) * pow(ri, static_cast<long>(alpha - k)) * pow(qi, static_cast<long>(k)) * m;
  }
  return log(sum);
}

Interval subsampled_gaussian_renyi(const Rational& alpha, const Rational& sigma, const Rational& sensitivity,
                                   const Rational& q, NeighbourDirection direction, Precision p) {
  constexpr const char* where = "subsampled_gaussian_renyi";
  check_rate(q, where);
  const Rational mu = gaussian_mechanism_mu(sensitivity, sigma);  // validates σ, Δ
  if (q == 1) {  // the Gaussian mechanism: symmetric, every direction αμ²/2
    if (alpha <= 1) throw Error(where, "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
    return Interval(gaussian_mechanism_rdp(alpha, sensitivity, sigma), p);
  }
  if (direction == NeighbourDirection::add)
    throw Error(where, "direction", "add",
                "the add direction D(B||A) of the subsampled Gaussian has no finite sum here (it is at most the remove "
                "value, MTZ19); ask remove or both");
  const Rational half = mu * mu / 2;
  auto F = [&](unsigned long m) {
    return subsampled_log_moment(m, q, [&](unsigned long k) {
      return exp(Interval(Rational(half * Rational(static_cast<long>(k * (k - 1)))), p));
    }, p);
  };
  return renyi_from_log_moments(alpha, F, p, where);
}

Interval subsampled_laplace_renyi(const Rational& alpha, const Rational& scale, const Rational& sensitivity,
                                  const Rational& q, NeighbourDirection direction, Precision p) {
  constexpr const char* where = "subsampled_laplace_renyi";
  check_rate(q, where);
  const Rational eps0 = laplace_mechanism_epsilon(scale, sensitivity);  // validates b, Δ
  if (q == 1) return laplace_mechanism_rdp(alpha, scale, sensitivity, p);  // symmetric pair
  if (direction != NeighbourDirection::remove)
    throw Error(where, "direction", to_string(direction),
                "only the remove direction D(A||B) of the subsampled Laplace mechanism has a finite sum here (no "
                "dominance between its two directions is proved); ask direction remove");
  auto F = [&](unsigned long m) {
    return subsampled_log_moment(m, q, [&](unsigned long k) {
      const long kk = static_cast<long>(k);
      const Rational w = Rational(kk) / Rational(2 * kk - 1);
      return Interval(w, p) * exp(Interval(Rational(eps0 * Rational(kk - 1)), p)) +
             Interval(Rational(1 - w), p) * exp(Interval(Rational(-eps0 * Rational(kk)), p));
    }, p);
  };
  return renyi_from_log_moments(alpha, F, p, where);
}

}  // namespace exactdp
