// One use of the Poisson-subsampled Laplace mechanism: the closed forms of the header, evaluated in
// interval arithmetic (every operation an enclosure, the min and max endpointwise).
#include "exactdp/bounds/subsampled_laplace.hpp"

#include "exactdp/bounds/least_epsilon.hpp"
#include "exactdp/core/error.hpp"

namespace exactdp {
namespace {

constexpr const char* kWhere = "subsampled laplace";

}  // namespace

SubsampledLaplace::SubsampledLaplace(const Rational& b, const Rational& sensitivity, const Rational& q)
    : b_(b), sensitivity_(sensitivity), q_(q) {
  if (sgn(b) <= 0) throw Error(kWhere, "b", to_string(b), "the scale must be positive");
  if (sgn(sensitivity) <= 0) throw Error(kWhere, "sensitivity", to_string(sensitivity), "must be positive");
  if (sgn(q) <= 0 || q > 1) throw Error(kWhere, "q", to_string(q), "the sampling rate must lie in (0, 1]");
}

std::string SubsampledLaplace::describe() const {
  return "Laplace mechanism (b = " + to_string(b_) + ", sensitivity " + to_string(sensitivity_) + ") Poisson-subsampled at q = " +
         to_string(q_);
}

Interval SubsampledLaplace::delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction, Precision p) const {
  if (direction == NeighbourDirection::both)
    return max(delta_at_epsilon(epsilon, NeighbourDirection::remove, p), delta_at_epsilon(epsilon, NeighbourDirection::add, p));
  const Interval zero = Interval::zero(p), one(Rational(1), p), q(q_, p);
  const Interval corner = exp(Interval(Rational(-sensitivity_ / b_), p));  // e^{−ε₀}
  const Interval lambda = exp(Interval(epsilon, p));
  if (direction == NeighbourDirection::remove) {
    const Interval c = (lambda - one + q) / q;
    return q * max(zero, one - min(c, sqrt(max(c, zero) * corner)));
  }
  const Interval cp = max((one / lambda - one + q) / q, zero);
  return lambda * q * max(zero, cp - min(one, sqrt(cp * corner)));
}

Interval SubsampledLaplace::delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const {
  return delta_over_epsilon_enclosure([&](const Rational& e, Precision p) { return delta_at_epsilon(e, direction, p); }, epsilon, kWhere);
}

Interval SubsampledLaplace::least_epsilon(const Rational& delta, NeighbourDirection direction, const Rational& width, Precision p) const {
  return least_epsilon_by_bisection([&](const Rational& e) { return delta_at_epsilon(e, direction, p); }, delta, width, p, kWhere);
}

}  // namespace exactdp
