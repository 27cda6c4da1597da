#include "exactdp/bounds/composition_bounds.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <numeric>
#include <string>

namespace exactdp {
namespace {

using bounds_detail::indexed;
using bounds_detail::log_inverse;

void validate(std::span<const LambdaDelta> components, const char* where) {
  if (components.empty()) throw Error(where, "components", "[]", "at least one component is required");
  for (std::size_t i = 0; i < components.size(); ++i) {
    bounds_detail::require_lambda(components[i].lambda, where, indexed("lambda", i));
    bounds_detail::require_probability(components[i].delta, where, indexed("delta", i));
  }
}

Interval tanh_of(const Interval& x) {
  Interval r = Interval::zero(x.precision());
  mpfi_tanh(r.get(), x.get());
  return r;
}

/// The ε̃ of KOV15 Thm 3.5 from its three sums S₁ = Σε_i, S_t = Σε_i·tanh(ε_i/2), S₂ = Σε_i²:
/// min{S₁, S_t + √(2S₂·ln(e + √S₂/δ̃)), S_t + √(2S₂·ln(1/δ̃))}. Thm 3.4 is the case of equal ε_i.
Interval kov_epsilon(const Interval& s1, const Interval& st, const Interval& s2, const Rational& delta_tilde) {
  const Precision p = std::max({s1.precision(), st.precision(), s2.precision()});
  const Interval two(2L, p), dt(delta_tilde, p);
  const Interval e = exp(Interval(1L, p));
  const Interval second = st + sqrt(two * s2 * log(e + sqrt(s2) / dt));
  const Interval third = st + sqrt(two * s2 * log_inverse(delta_tilde, p));
  return min(s1, min(second, third));
}

void validate_delta_tilde(const Rational& delta_tilde, const char* where) {
  bounds_detail::require_positive_probability(delta_tilde, where, "delta_tilde");
}

}  // namespace

LambdaDelta basic_composition(std::span<const LambdaDelta> components) {
  validate(components, "basic_composition");
  LambdaDelta total{Rational(1), Rational(0)};
  for (const auto& c : components) {
    total.lambda *= c.lambda;
    total.delta += c.delta;
  }
  return total;
}

EpsilonDelta advanced_composition(const Interval& epsilon, const Rational& delta, unsigned long k,
                                  const Rational& delta_prime) {
  constexpr const char* where = "advanced_composition";
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  bounds_detail::require_probability(delta, where, "delta");
  bounds_detail::require_count(k, where, "k");
  bounds_detail::require_positive_probability(delta_prime, where, "delta_prime");
  const Precision p = epsilon.precision();
  const Interval kk(Rational(k), p), two(2L, p);
  const Interval eps_prime =
      epsilon * sqrt(two * kk * log_inverse(delta_prime, p)) + kk * epsilon * expm1(epsilon);
  return {eps_prime, Rational(k) * delta + delta_prime};
}

EpsilonDelta kov_homogeneous_bound(const Interval& epsilon, const Rational& delta, unsigned long k,
                                   const Rational& delta_tilde) {
  constexpr const char* where = "kov_homogeneous_bound";
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  bounds_detail::require_probability(delta, where, "delta");
  bounds_detail::require_count(k, where, "k");
  validate_delta_tilde(delta_tilde, where);
  const Interval kk(Rational(k), epsilon.precision());
  const Interval s1 = kk * epsilon;
  const Interval st = s1 * tanh_of(epsilon / Interval(2L, epsilon.precision()));
  const Interval s2 = kk * pow(epsilon, 2);  // √(kε²) = √S₂ and ε√(2kL) = √(2S₂L)
  return {kov_epsilon(s1, st, s2, delta_tilde), 1 - pow(Rational(1 - delta), k) * (1 - delta_tilde)};
}

EpsilonDelta kov_heterogeneous_bound(std::span<const EpsilonDelta> components, const Rational& delta_tilde) {
  constexpr const char* where = "kov_heterogeneous_bound";
  if (components.empty()) throw Error(where, "components", "[]", "at least one component is required");
  validate_delta_tilde(delta_tilde, where);
  Precision p = components.front().epsilon.precision();
  for (std::size_t i = 0; i < components.size(); ++i) {
    bounds_detail::require_nonnegative(components[i].epsilon, where, indexed("epsilon", i));
    bounds_detail::require_probability(components[i].delta, where, indexed("delta", i));
    p = std::max(p, components[i].epsilon.precision());
  }
  Interval s1 = Interval::zero(p), st = Interval::zero(p), s2 = Interval::zero(p);
  Rational no_leak(1);
  for (const auto& c : components) {
    s1 += c.epsilon;
    st += c.epsilon * tanh_of(c.epsilon / Interval(2L, p));
    s2 += pow(c.epsilon, 2);
    no_leak *= 1 - c.delta;
  }
  return {kov_epsilon(s1, st, s2, delta_tilde), 1 - (1 - delta_tilde) * no_leak};
}

EpsilonDelta kov_heterogeneous_bound(std::span<const LambdaDelta> components, const Rational& delta_tilde,
                                     Precision precision) {
  validate(components, "kov_heterogeneous_bound");
  std::vector<EpsilonDelta> with_epsilon;
  with_epsilon.reserve(components.size());
  for (const auto& c : components) with_epsilon.push_back({epsilon_of(c.lambda, precision), c.delta});
  return kov_heterogeneous_bound(std::span<const EpsilonDelta>(with_epsilon), delta_tilde);
}

Rational vw_delta_for_order(std::span<const LambdaDelta> components, std::span<const std::size_t> order) {
  constexpr const char* where = "vw_delta_for_order";
  validate(components, where);
  std::vector<bool> seen(components.size(), false);
  if (order.size() != components.size())
    throw Error(where, "order", std::to_string(order.size()) + " indices",
                "must be a permutation of the " + std::to_string(components.size()) + " component indices");
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (order[i] >= components.size() || seen[order[i]])
      throw Error(where, indexed("order", i), std::to_string(order[i]),
                  "must be a permutation of the component indices");
    seen[order[i]] = true;
  }
  Rational prefix(1), delta(0);  // prefix = Π_{j<i} λ_{σ(j)}
  for (std::size_t index : order) {
    delta += prefix * components[index].delta;
    prefix *= components[index].lambda;
  }
  return delta;
}

std::vector<std::size_t> vw_optimal_order(std::span<const LambdaDelta> components) {
  validate(components, "vw_optimal_order");
  // Sort key δ_i/(λ_i − 1) descending, +∞ for λ_i = 1 with δ_i > 0. A component (1, 0) adds
  // nothing and multiplies by 1, so its place is irrelevant (key 0).
  struct Key {
    bool infinite;
    Rational value;
  };
  std::vector<Key> keys;
  keys.reserve(components.size());
  for (const auto& c : components) {
    if (c.lambda == 1) keys.push_back({sgn(c.delta) > 0, Rational(0)});
    else keys.push_back({false, c.delta / (c.lambda - 1)});
  }
  std::vector<std::size_t> order(components.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    if (keys[i].infinite != keys[j].infinite) return keys[i].infinite;
    return !keys[i].infinite && keys[i].value > keys[j].value;
  });
  return order;
}

LambdaDelta vw_concurrent_bound(std::span<const LambdaDelta> components) {
  const auto order = vw_optimal_order(components);
  return {basic_composition(components).lambda, vw_delta_for_order(components, order)};
}

LambdaDelta vw_concurrent_bound_by_enumeration(std::span<const LambdaDelta> components, std::size_t max_k) {
  constexpr const char* where = "vw_concurrent_bound_by_enumeration";
  validate(components, where);
  if (components.size() > max_k)
    throw Error(where, "components", std::to_string(components.size()) + " components",
                "enumerating all orders is limited to k <= " + std::to_string(max_k));
  std::vector<std::size_t> order(components.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rational best = vw_delta_for_order(components, order);
  while (std::next_permutation(order.begin(), order.end()))
    best = std::min(best, vw_delta_for_order(components, order));
  return {basic_composition(components).lambda, best};
}

}  // namespace exactdp
