#include "exactdp/amplification/subsampled_loss.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"

#include <algorithm>

namespace exactdp {

SubsampledCertifiedLoss::SubsampledCertifiedLoss(const CertifiedLoss& base, const Rational& q) : rate_(q) {
  if (sgn(q) <= 0 || q > 1) throw Error("SubsampledCertifiedLoss", "q", to_string(q), "the sampling rate must lie in (0, 1]");
  precision_ = base.precision();
  const Interval rate(q, precision_), rest(Rational(1 - q), precision_);
  // base atoms ascend by ratio r; q·r + 1 − q ascends with r (remove), its inverse descends (add)
  for (const auto& a : base.atoms()) {
    const Interval mixed = rate * a.p + rest * a.q;  // the law with the record possibly sampled
    // exact zeros: the base's ratio-0 atom has P = 0, its ratio-∞ atom Q = 0
    remove_.push_back({mixed, a.q, a.ratio.is_infinite(), q == 1 && a.ratio.is_zero()});
    add_.push_back({a.q, mixed, q == 1 && a.ratio.is_zero(), a.ratio.is_infinite()});
  }
  std::reverse(add_.begin(), add_.end());
}

Interval SubsampledCertifiedLoss::hockey_stick(const std::vector<Point>& points, const Interval& lambda) const {
  Interval h = Interval::zero(precision_);
  for (const Point& x : points) h += hockey_stick_term<Interval>(x.p, x.q, lambda);  // (p − λq)⁺
  return min(max(h, Interval::zero(precision_)), Interval(1L, precision_));
}

Interval SubsampledCertifiedLoss::delta(const Interval& lambda, NeighbourDirection direction) const {
  if (!lambda.lower_is_finite() || lambda.lower() < 0)
    throw Error("SubsampledCertifiedLoss", "lambda", lambda.to_string(), "the hockey-stick parameter must be non-negative");
  switch (direction) {
    case NeighbourDirection::remove: return hockey_stick(remove_, lambda);
    case NeighbourDirection::add: return hockey_stick(add_, lambda);
    case NeighbourDirection::both: break;
  }
  return max(hockey_stick(remove_, lambda), hockey_stick(add_, lambda));
}

Interval SubsampledCertifiedLoss::delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const {
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
    throw Error("SubsampledCertifiedLoss", "epsilon", epsilon.to_string(), "epsilon must be finite");
  return delta(exp(epsilon), direction);
}

Interval SubsampledCertifiedLoss::least_lambda(const std::vector<Point>& points, const Rational& delta) const {
  auto it = points.rbegin();
  Interval catastrophic = Interval::zero(precision_);
  for (; it != points.rend() && it->infinite; ++it) catastrophic += it->p;  // P(B = 0), at the top
  return least_lambda_by_suffixes(catastrophic, delta, precision_, [&](Interval& p, Interval& q) {
    if (it == points.rend()) return false;
    p = it->p;
    q = it->q;
    ++it;
    return true;
  });
}

Interval SubsampledCertifiedLoss::least_epsilon(const Rational& delta, NeighbourDirection direction) const {
  if (sgn(delta) < 0 || delta > 1)
    throw Error("SubsampledCertifiedLoss", "delta", to_string(delta), "delta must lie in [0, 1]");
  Interval lambda = Interval(1L, precision_);
  if (direction != NeighbourDirection::add) lambda = max(lambda, least_lambda(remove_, delta));
  if (direction != NeighbourDirection::remove) lambda = max(lambda, least_lambda(add_, delta));
  if (!lambda.lower_is_finite()) return Interval::infinity(precision_);
  if (lambda.upper_is_finite() && lambda.upper() == 1) return Interval::zero(precision_);
  return log(lambda);
}

Interval SubsampledCertifiedLoss::renyi(const std::vector<Point>& points, const Rational& alpha) const {
  Interval moment = Interval::zero(precision_);
  for (const Point& x : points) {
    if (x.null) continue;                                         // no mass in the first law: no term
    if (x.infinite) return Interval::infinity(precision_);        // first law only: D_α = +∞
    moment += renyi_term(x.p, x.q, alpha);                        // p^α q^{1−α} (functionals.hpp)
  }
  return log(moment) / Interval(Rational(alpha - 1), precision_);
}

Interval SubsampledCertifiedLoss::renyi_divergence(const Rational& alpha, NeighbourDirection direction) const {
  if (alpha <= 1)
    throw Error("SubsampledCertifiedLoss", "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
  switch (direction) {
    case NeighbourDirection::remove: return renyi(remove_, alpha);
    case NeighbourDirection::add: return renyi(add_, alpha);
    case NeighbourDirection::both: break;
  }
  const Interval r = renyi(remove_, alpha), a = renyi(add_, alpha);
  if (!r.upper_is_finite() || !a.upper_is_finite()) return Interval::infinity(precision_);
  return max(r, a);
}

}  // namespace exactdp
