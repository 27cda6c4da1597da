#include "exactdp/bounds/laplace.hpp"

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/core/error.hpp"

namespace exactdp {

Rational laplace_mechanism_epsilon(const Rational& scale, const Rational& sensitivity) {
  constexpr const char* where = "laplace_mechanism_epsilon";
  bounds_detail::require_positive(scale, where, "scale");
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  return sensitivity / scale;
}

Interval laplace_dp_delta(const Rational& scale, const Rational& sensitivity, const Interval& epsilon) {
  constexpr const char* where = "laplace_dp_delta";
  bounds_detail::require_positive(scale, where, "scale");
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  const Precision p = epsilon.precision();
  const Interval eps0(Rational(sensitivity / scale), p);
  // 1 − e^{(ε−ε₀)/2} is negative exactly when ε > ε₀, where the profile is 0: take max(·, 0).
  return bounds_detail::clamp_nonnegative(-expm1((epsilon - eps0) / Interval(2L, p)));
}

Interval laplace_mechanism_rdp(const Rational& alpha, const Rational& scale, const Rational& sensitivity,
                               Precision precision) {
  constexpr const char* where = "laplace_mechanism_rdp";
  bounds_detail::require_order(alpha, where, "alpha");
  bounds_detail::require_positive(scale, where, "scale");
  bounds_detail::require_positive(sensitivity, where, "sensitivity");
  const Rational eps0 = sensitivity / scale;
  const Rational weight = alpha / (2 * alpha - 1);  // and 1 − weight = (α−1)/(2α−1)
  const Interval moment = Interval(weight, precision) * exp(Interval(Rational((alpha - 1) * eps0), precision)) +
                          Interval(Rational(1 - weight), precision) * exp(Interval(Rational(-alpha * eps0), precision));
  return log(moment) / Interval(Rational(alpha - 1), precision);
}

Interval laplace_least_epsilon(const Rational& scale, const Rational& sensitivity, const Rational& delta,
                               Precision precision) {
  const Rational eps0 = laplace_mechanism_epsilon(scale, sensitivity);  // validates b, Δ
  if (sgn(delta) < 0 || delta > 1)
    throw Error("laplace_least_epsilon", "delta", to_string(delta), "delta must lie in [0, 1]");
  if (delta == 1) return Interval::zero(precision);
  const Interval candidate = Interval(eps0, precision) +
                             Interval(2L, precision) * log1p(Interval(Rational(-delta), precision));
  return max(candidate, Interval::zero(precision));
}

}  // namespace exactdp
