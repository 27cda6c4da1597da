#include "exactdp/divergence/direction.hpp"

#include "exactdp/core/error.hpp"

namespace exactdp {

std::string to_string(NeighbourDirection direction) {
  switch (direction) {
    case NeighbourDirection::both: return "both";
    case NeighbourDirection::remove: return "remove";
    case NeighbourDirection::add: return "add";
  }
  return "both";
}

NeighbourDirection parse_direction(std::string_view text, const std::string& where) {
  if (text == "both") return NeighbourDirection::both;
  if (text == "remove") return NeighbourDirection::remove;
  if (text == "add") return NeighbourDirection::add;
  if (text == "replace")
    throw Error(where, "direction", std::string(text),
                "replace-one is not a divergence of a pair but a different pair: it is asked of a mechanism (compose or "
                "calibrate --direction replace, accounting/replace_one.hpp), not here; expected both, remove or add");
  throw Error(where, "direction", std::string(text), "expected both, remove or add");
}

NeighbourDirection reversed(NeighbourDirection direction) {
  switch (direction) {
    case NeighbourDirection::remove: return NeighbourDirection::add;
    case NeighbourDirection::add: return NeighbourDirection::remove;
    case NeighbourDirection::both: return NeighbourDirection::both;
  }
  return NeighbourDirection::both;
}

PiecewiseLinear directional_curve(const PrivacyProfile& profile, NeighbourDirection direction) {
  switch (direction) {
    case NeighbourDirection::remove: return profile.forward();
    case NeighbourDirection::add: return profile.backward();
    case NeighbourDirection::both: return profile.symmetric();
  }
  return profile.symmetric();
}

Rational delta(const PrivacyProfile& profile, const Rational& lambda, NeighbourDirection direction) {
  if (direction == NeighbourDirection::both) return profile.delta(lambda);
  return directional_curve(profile, direction)(lambda);
}

Interval delta(const PrivacyProfile& profile, const Interval& lambda, NeighbourDirection direction) {
  if (direction == NeighbourDirection::both) return profile.delta(lambda);
  return directional_curve(profile, direction)(lambda);
}

ExtendedRational least_lambda(const PrivacyProfile& profile, const Rational& delta, NeighbourDirection direction) {
  if (direction == NeighbourDirection::both) return profile.least_lambda(delta);
  if (sgn(delta) < 0 || delta > 1) throw Error("least_lambda", "delta", to_string(delta), "delta must lie in [0, 1]");
  return directional_curve(profile, direction).least_argument_at_most(delta, Rational(1));
}

Interval delta_from_reversed(const Interval& lambda, const Interval& reversed_at_inverse) {
  const Precision p = std::max(lambda.precision(), reversed_at_inverse.precision());
  const Interval one(1L, p);
  // λ enters once, so the enclosure is as tight as the two inputs allow
  const Interval value = one - lambda * (one - reversed_at_inverse);
  return max(Interval::zero(p), min(value, one));
}

Interval delta_at_any_epsilon(const Interval& epsilon, NeighbourDirection direction,
                              const std::function<Interval(const Interval&, NeighbourDirection)>& at_nonnegative) {
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
    throw Error("delta", "epsilon", epsilon.to_string(10), "epsilon must be finite");
  const Precision p = epsilon.precision();
  const Rational lo = epsilon.lower(), hi = epsilon.upper();
  if (sgn(lo) >= 0) return at_nonnegative(epsilon, direction);
  // ε ∈ [lo, min(hi, 0)]: H at λ = e^ε from the reversed direction at −ε ∈ [max(−hi, 0), −lo]
  const Rational neg_hi = sgn(hi) < 0 ? hi : Rational(0);
  const Interval negative = Interval::hull(lo, neg_hi, p);
  const Interval mirrored = Interval::hull(-neg_hi, -lo, p);
  const Interval below = delta_from_reversed(exp(negative), at_nonnegative(mirrored, reversed(direction)));
  if (sgn(hi) <= 0) return below;
  return hull(below, at_nonnegative(Interval::hull(Rational(0), hi, p), direction));
}

}  // namespace exactdp
