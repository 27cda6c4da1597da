// The one-use profile of the Gaussian mixture mechanism: a certified bracket of the root of the
// monotone privacy loss, then the hockey-stick functional evaluated over it (the argument is in
// the header's file comment).
#include "exactdp/bounds/gaussian_mixture.hpp"

#include "exactdp/bounds/least_epsilon.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace exactdp {
namespace {

constexpr const char* kWhere = "gaussian mixture";

/// Where the strictly increasing loss L crosses a level: the root's bracket [a, b] (L(a) < level <
/// L(b) decided, or a point), or none when L > level everywhere (level ≤ ln w₀).
struct Root {
  bool none = false;
  Rational a, b;
};

/// L(x) = ln Σ w_i e^{t_i}, t_i = (c_i x − c_i²/2)/σ², enclosed as t_max + ln Σ w_i e^{t_i − t_max}
/// (the exponents are exact rationals; the sum is at least the largest-exponent weight, so far from
/// the root nothing underflows).
Interval loss_at(const GaussianMixture& m, const Rational& x, Precision p) {
  const Rational s2 = m.sigma() * m.sigma();
  std::vector<Rational> t;
  for (const auto& c : m.components()) t.push_back((c.sensitivity * x - c.sensitivity * c.sensitivity / 2) / s2);
  const Rational top = *std::max_element(t.begin(), t.end());
  Interval sum = Interval::zero(p);
  for (std::size_t i = 0; i < t.size(); ++i)
    sum += Interval(m.components()[i].weight, p) * exp(Interval(Rational(t[i] - top), p));
  return Interval(top, p) + log(sum);
}

/// -1: L(x) < level certainly; +1: L(x) > level; 0: undecided at this precision.
int compare(const GaussianMixture& m, const Rational& x, const Rational& level, Precision p) {
  const Interval l = loss_at(m, x, p);
  if (l.upper_is_finite() && l.upper() < level) return -1;
  if (l.lower_is_finite() && l.lower() > level) return 1;
  return 0;
}

Root root(const GaussianMixture& m, const Rational& level, Precision p) {
  Root r;
  const Rational w0 = m.zero_weight();
  if (sgn(w0) > 0) {  // inf L = ln w₀ (not attained): no root when level ≤ ln w₀
    if (w0 == 1) throw Error(kWhere, "sensitivities", "0", "internal: a mixture without a positive sensitivity");
    const Interval lw = log(Interval(w0, p));
    if (level <= lw.lower()) {
      r.none = true;
      return r;
    }
    if (level <= lw.upper())
      throw Error(kWhere, "epsilon", to_string(level), "too close to ln w0 to decide at this precision");
  }
  // an expanding search for a < root < b
  Rational a(-1), b(1);
  int guard = 0;
  while (compare(m, a, level, p) != -1) {
    a *= 2;
    if (++guard > 200) throw Error(kWhere, "epsilon", to_string(level), "no bracket of the loss's root found");
  }
  while (compare(m, b, level, p) != 1) {
    b *= 2;
    if (++guard > 400) throw Error(kWhere, "epsilon", to_string(level), "no bracket of the loss's root found");
  }
  // bisection to about p bits of the bracket's scale; an undecided midpoint ends it (still a bracket)
  const Rational target = (b - a) * pow2(-static_cast<long>(p) + 8);
  for (unsigned i = 0; i < 2 * p && b - a > target; ++i) {
    const Rational mid = (a + b) / 2;
    const int s = compare(m, mid, level, p);
    if (s == 0) {
      // the root is (within rounding) at mid, e.g. an exact hit: shrink a decided bracket around it
      for (Rational w = (b - a) / 4; w > target; w /= 2) {
        if (compare(m, mid - w, level, p) != -1 || compare(m, mid + w, level, p) != 1) break;
        a = mid - w;
        b = mid + w;
      }
      break;
    }
    (s < 0 ? a : b) = mid;
  }
  r.a = a;
  r.b = b;
  return r;
}

/// Σ w_i Φ(sign·(t − c_i)/σ) over an enclosure t.
Interval mixture_cdf(const GaussianMixture& m, const Interval& t, bool upper_tail, Precision p) {
  Interval sum = Interval::zero(p);
  const Interval s(m.sigma(), p);
  for (const auto& c : m.components()) {
    const Interval z = (t - Interval(c.sensitivity, p)) / s;
    sum += Interval(c.weight, p) * normal_cdf(upper_tail ? -z : z);
  }
  return sum;
}

Interval clamp_unit(const Interval& x, Precision p) {
  Rational lo = x.lower_is_finite() ? std::max(Rational(0), x.lower()) : Rational(0);
  Rational hi = x.upper_is_finite() ? std::min(Rational(1), x.upper()) : Rational(1);
  if (lo > hi) lo = hi;
  return Interval::hull(lo, hi, p);
}

Interval remove_delta(const GaussianMixture& m, const Rational& e, Precision p) {
  const Interval lambda = exp(Interval(e, p));
  const Root r = root(m, e, p);
  if (r.none) return clamp_unit(Interval(1L, p) - lambda, p);  // L > ε everywhere: the whole line
  const Interval x = Interval::hull(r.a, r.b, p);
  return clamp_unit(mixture_cdf(m, x, true, p) - lambda * normal_cdf(-x / Interval(m.sigma(), p)), p);
}

Interval add_delta(const GaussianMixture& m, const Rational& e, Precision p) {
  const Interval lambda = exp(Interval(e, p));
  const Root r = root(m, Rational(-e), p);
  if (r.none) return Interval::zero(p);  // L > −ε everywhere: the event {L < −ε} is empty
  const Interval x = Interval::hull(r.a, r.b, p);
  return clamp_unit(normal_cdf(x / Interval(m.sigma(), p)) - lambda * mixture_cdf(m, x, false, p), p);
}

}  // namespace

GaussianMixture::GaussianMixture(const Rational& sigma, std::vector<MixtureComponent> components) : sigma_(sigma) {
  if (sgn(sigma) <= 0) throw Error(kWhere, "sigma", to_string(sigma), "the standard deviation must be positive");
  Rational total = 0;
  bool positive = false;
  std::sort(components.begin(), components.end(),
            [](const MixtureComponent& a, const MixtureComponent& b) { return a.sensitivity < b.sensitivity; });
  for (const auto& c : components) {
    if (sgn(c.sensitivity) < 0)
      throw Error(kWhere, "sensitivity", to_string(c.sensitivity), "sensitivities must be non-negative");
    if (sgn(c.weight) <= 0 || c.weight > 1)
      throw Error(kWhere, "weight", to_string(c.weight), "each probability must lie in (0, 1]");
    total += c.weight;
    positive = positive || sgn(c.sensitivity) > 0;
    if (!components_.empty() && components_.back().sensitivity == c.sensitivity) components_.back().weight += c.weight;
    else components_.push_back(c);
  }
  if (total != 1) throw Error(kWhere, "weights", to_string(total), "the probabilities must sum to exactly 1");
  if (!positive) throw Error(kWhere, "sensitivities", "0", "need at least one positive sensitivity");
}

Interval GaussianMixture::loss(const Rational& x, Precision p) const { return loss_at(*this, x, p); }

Interval GaussianMixture::cdf(const Interval& t, bool upper_tail) const {
  return mixture_cdf(*this, t, upper_tail, t.precision());
}

Rational GaussianMixture::zero_weight() const {
  return sgn(components_.front().sensitivity) == 0 ? components_.front().weight : Rational(0);
}

std::string GaussianMixture::describe() const {
  std::string s = "Gaussian mixture mechanism N(0, sigma^2) against sum of w_i N(c_i, sigma^2), sigma = " + to_string(sigma_) + ":";
  for (const auto& c : components_) s += " c = " + to_string(c.sensitivity) + " w.p. " + to_string(c.weight) + ";";
  s.pop_back();
  return s + " (certified; single use)";
}

Interval GaussianMixture::delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction, Precision p) const {
  switch (direction) {
    case NeighbourDirection::remove: return remove_delta(*this, epsilon, p);
    case NeighbourDirection::add: return add_delta(*this, epsilon, p);
    default: return max(remove_delta(*this, epsilon, p), add_delta(*this, epsilon, p));
  }
}

Interval GaussianMixture::delta_at_epsilon(const Interval& epsilon, NeighbourDirection direction) const {
  return delta_over_epsilon_enclosure([&](const Rational& e, Precision p) { return delta_at_epsilon(e, direction, p); }, epsilon, kWhere);
}

Interval GaussianMixture::least_epsilon(const Rational& delta, NeighbourDirection direction, const Rational& width,
                                        Precision p) const {
  if (sgn(delta) == 0 && direction != NeighbourDirection::add && sgn(width) > 0) return Interval::infinity(p);
  return least_epsilon_by_bisection([&](const Rational& e) { return delta_at_epsilon(e, direction, p); }, delta, width, p, kWhere);
}

}  // namespace exactdp
