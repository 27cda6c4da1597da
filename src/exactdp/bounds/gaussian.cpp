#include "exactdp/bounds/gaussian.hpp"

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {
namespace {

using bounds_detail::indexed;

/// Three-valued comparison of δ_μ(ε) with δ, raising the precision until decided or capped:
/// +1 when δ_μ(ε) > δ certainly, −1 when δ_μ(ε) ≤ δ certainly, 0 when undecided at the cap.
int compare_delta(const Interval& mu, const Rational& epsilon, const Rational& delta, Precision precision,
                  Precision max_precision) {
  for (Precision p = precision; p <= max_precision; p *= 2) {
    const Interval d = gaussian_dp_delta(mu, Interval(epsilon, p));
    if (bounds_detail::certainly_greater(d, delta)) return +1;
    if (bounds_detail::certainly_at_most(d, delta)) return -1;
  }
  return 0;
}

}  // namespace

Interval gaussian_dp_delta(const Interval& mu, const Interval& epsilon) {
  constexpr const char* where = "gaussian_dp_delta";
  bounds_detail::require_positive(mu, where, "mu");
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  const Precision p = bounds_detail::max_precision(mu, epsilon);
  const Interval shift = -epsilon / mu, half_mu = mu / Interval(2L, p);
  const Interval d = normal_cdf(shift + half_mu) - exp(epsilon) * normal_cdf(shift - half_mu);
  return bounds_detail::clamp_at_most_one(bounds_detail::clamp_nonnegative(d));
}

Interval gaussian_dp_composition(std::span<const Interval> mus) {
  constexpr const char* where = "gaussian_dp_composition";
  if (mus.empty()) throw Error(where, "mu", "[]", "at least one GDP level is required");
  Precision p = mus.front().precision();
  for (std::size_t i = 0; i < mus.size(); ++i) {
    bounds_detail::require_nonnegative(mus[i], where, indexed("mu", i));
    p = std::max(p, mus[i].precision());
  }
  Interval sum = Interval::zero(p);
  for (const auto& mu : mus) sum += pow(mu, 2);
  return sqrt(sum);
}

Interval gaussian_dp_composition(std::span<const Rational> mus, Precision precision) {
  constexpr const char* where = "gaussian_dp_composition";
  if (mus.empty()) throw Error(where, "mu", "[]", "at least one GDP level is required");
  Rational sum(0);
  for (std::size_t i = 0; i < mus.size(); ++i) {
    bounds_detail::require_nonnegative(mus[i], where, indexed("mu", i));
    sum += mus[i] * mus[i];
  }
  return sqrt(Interval(sum, precision));
}

Rational gaussian_mechanism_mu(const Rational& sensitivity, const Rational& sigma) {
  constexpr const char* where = "gaussian_mechanism_mu";
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  bounds_detail::require_positive(sigma, where, "sigma");
  return sensitivity / sigma;
}

Rational gaussian_mechanism_rdp(const Rational& alpha, const Rational& sensitivity, const Rational& sigma) {
  constexpr const char* where = "gaussian_mechanism_rdp";
  bounds_detail::require_order(alpha, where, "alpha");
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  bounds_detail::require_positive(sigma, where, "sigma");
  return alpha * sensitivity * sensitivity / (2 * sigma * sigma);
}

Rational gaussian_mechanism_zcdp(const Rational& sensitivity, const Rational& sigma) {
  constexpr const char* where = "gaussian_mechanism_zcdp";
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  bounds_detail::require_positive(sigma, where, "sigma");
  return sensitivity * sensitivity / (2 * sigma * sigma);
}

Interval gaussian_dp_least_epsilon(const Interval& mu, const Rational& delta, const GaussianSearchOptions& options) {
  constexpr const char* where = "gaussian_dp_least_epsilon";
  bounds_detail::require_positive(mu, where, "mu");
  bounds_detail::require_positive_probability(delta, where, "delta");
  bounds_detail::require_positive(options.tolerance, where, "tolerance");
  const Precision p = std::max(options.precision, mu.precision());
  const Precision cap = std::max(p, options.max_precision);
  auto compare = [&](const Rational& eps) { return compare_delta(mu, eps, delta, p, cap); };
  if (compare(Rational(0)) < 0) return Interval::zero(p);
  // Invariant: lo = 0 or δ_μ(lo) > δ certainly; hi has δ_μ(hi) ≤ δ certainly.
  Rational lo(0), hi(1);
  for (int doublings = 0;; ++doublings) {
    const int c = compare(hi);
    if (c < 0) break;
    if (c > 0) lo = hi;
    if (doublings > 64) throw Error(where, "delta", to_string(delta), "no ε below 2^64 reaches this δ");
    hi *= 2;
  }
  while (hi - lo > options.tolerance) {
    const Rational mid = (lo + hi) / 2;
    const int c = compare(mid);
    if (c > 0) lo = mid;
    else if (c < 0) hi = mid;
    else break;  // undecided at the precision cap: the bracket stays valid, only wider
  }
  return Interval::hull(lo, hi, p);
}

}  // namespace exactdp
