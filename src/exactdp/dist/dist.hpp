/// @file
/// Finite probability distributions with exact (or certified) masses.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace exactdp {

/// Whether a Dist must have total mass exactly 1, or at most 1.
enum class MassKind {
  probability,     ///< masses sum to exactly 1
  sub_probability  ///< masses sum to at most 1 (declared explicitly, e.g. a truncated sampler)
};

namespace detail {
inline bool is_negative(const Rational& v) { return sgn(v) < 0; }
inline bool is_zero(const Rational& v) { return sgn(v) == 0; }
inline std::string show(const Rational& v) { return to_string(v); }
inline bool is_negative(const Interval& v) { return v.lower_is_finite() && v.lower() < 0 && !v.contains(0); }
inline bool is_zero(const Interval& v) { return v.lower_is_finite() && v.upper_is_finite() && v.lower() == 0 && v.upper() == 0; }
inline std::string show(const Interval& v) { return v.to_string(); }

template <class T>
std::string show_outcome(const T& t) {
  if constexpr (requires(std::ostream& os) { os << t; }) {
    std::ostringstream os;
    os << t;
    return os.str();
  } else {
    return "(outcome)";
  }
}
}  // namespace detail

/// A finite distribution over outcomes of type @p T with masses of type @p V.
///
/// @tparam T  outcome type: regular and ordered by `operator<` (outcomes are kept sorted, so
///            iteration order and equality are deterministic).
/// @tparam V  mass type: exactdp::Rational for exact work (the default), exactdp::Interval
///            for certified masses (e.g. the discrete Gaussian, whose masses are irrational).
///
/// Invariant (checked on construction, exactdp::Error otherwise, naming the outcome and the
/// total): every mass is ≥ 0 and the masses sum to exactly 1 — or, for
/// MassKind::sub_probability, to at most 1. For Interval masses "sum to 1" means the certified
/// sum contains 1 and "≥ 0" means no mass is certainly negative. Outcomes of zero mass are
/// dropped, so support() is exactly the set of stored outcomes.
template <class T, class V = Rational>
class Dist {
public:
  using outcome_type = T;
  using mass_type = V;
  using const_iterator = typename std::map<T, V>::const_iterator;

  /// Builds and validates. Duplicate outcomes in @p masses are summed.
  /// @param masses   (outcome, mass) pairs
  /// @param kind     whether the masses must sum to exactly 1 or to at most 1
  /// @param context  a name for error messages (file, option or mechanism name)
  explicit Dist(const std::vector<std::pair<T, V>>& masses, MassKind kind = MassKind::probability,
                const std::string& context = "distribution")
      : kind_(kind) {
    for (const auto& [t, v] : masses) {
      if (detail::is_negative(v))
        throw Error(context, detail::show_outcome(t), detail::show(v), "masses must be non-negative");
      auto [it, inserted] = masses_.try_emplace(t, v);
      if (!inserted) it->second += v;
    }
    std::erase_if(masses_, [](const auto& kv) { return detail::is_zero(kv.second); });
    validate_total(context);
  }

  /// The point mass at @p t.
  static Dist point(const T& t) { return Dist({{t, V(Rational(1))}}); }

  /// Uniform distribution over the given (distinct) outcomes. Precondition: non-empty.
  static Dist uniform(const std::vector<T>& outcomes) {
    if (outcomes.empty()) throw Error("uniform distribution over an empty set");
    std::vector<std::pair<T, V>> m;
    for (const auto& t : outcomes) m.emplace_back(t, V(Rational(1, outcomes.size())));
    return Dist(m);
  }

  /// Mass of @p t (zero when t is not in the support).
  V mass(const T& t) const {
    auto it = masses_.find(t);
    return it == masses_.end() ? V(Rational(0)) : it->second;
  }
  /// Sum of masses.
  V total() const {
    V s = V(Rational(0));
    for (const auto& kv : masses_) s += kv.second;
    return s;
  }
  MassKind kind() const { return kind_; }
  std::size_t size() const { return masses_.size(); }
  const_iterator begin() const { return masses_.begin(); }
  const_iterator end() const { return masses_.end(); }

  /// Outcomes with positive mass, in increasing order.
  std::vector<T> support() const {
    std::vector<T> s;
    s.reserve(masses_.size());
    for (const auto& kv : masses_) s.push_back(kv.first);
    return s;
  }

  /// The law of f(X) for X ~ this (post-processing by a deterministic map).
  template <class F, class U = std::invoke_result_t<F, const T&>>
  Dist<U, V> push_forward(F f) const {
    std::vector<std::pair<U, V>> m;
    m.reserve(masses_.size());
    for (const auto& [t, v] : masses_) m.emplace_back(f(t), v);
    return Dist<U, V>(m, kind_);
  }

  /// The law of K(X) for a Markov kernel K: T → Dist<U, V> (randomised post-processing).
  template <class F, class U = typename std::invoke_result_t<F, const T&>::outcome_type>
  Dist<U, V> bind(F kernel) const {
    std::vector<std::pair<U, V>> m;
    for (const auto& [t, v] : masses_)
      for (const auto& [u, w] : kernel(t)) m.emplace_back(u, v * w);
    return Dist<U, V>(m, kind_);
  }

  /// The product law of (X, Y) with X ~ this and Y ~ @p other independent.
  template <class U>
  Dist<std::pair<T, U>, V> product(const Dist<U, V>& other) const {
    std::vector<std::pair<std::pair<T, U>, V>> m;
    m.reserve(masses_.size() * other.size());
    for (const auto& [t, v] : masses_)
      for (const auto& [u, w] : other) m.emplace_back(std::pair<T, U>(t, u), v * w);
    auto kind = kind_ == MassKind::probability && other.kind() == MassKind::probability
                    ? MassKind::probability
                    : MassKind::sub_probability;
    return Dist<std::pair<T, U>, V>(m, kind);
  }

  /// The mixture Σ w_i D_i. Preconditions: weights ≥ 0 summing to 1 (checked, as a Dist).
  static Dist mixture(const std::vector<std::pair<V, Dist>>& components) {
    std::vector<std::pair<std::size_t, V>> w;
    for (std::size_t i = 0; i < components.size(); ++i) w.emplace_back(i, components[i].first);
    Dist<std::size_t, V> weights(w, MassKind::probability, "mixture weights");
    std::vector<std::pair<T, V>> m;
    for (const auto& [i, wi] : weights)
      for (const auto& [t, v] : components[i].second) m.emplace_back(t, wi * v);
    return Dist(m);
  }

  /// The conditional law given the event {t : pred(t)}. Throws if the event has zero mass.
  template <class Pred>
  Dist condition(Pred pred) const {
    std::vector<std::pair<T, V>> m;
    V z = V(Rational(0));
    for (const auto& [t, v] : masses_)
      if (pred(t)) {
        m.emplace_back(t, v);
        z += v;
      }
    if (m.empty()) throw Error("conditioning on an event of probability zero");
    for (auto& kv : m) kv.second /= z;
    return Dist(m);
  }

  /// Probability of the event {t : pred(t)}.
  template <class Pred>
  V probability(Pred pred) const {
    V s = V(Rational(0));
    for (const auto& [t, v] : masses_)
      if (pred(t)) s += v;
    return s;
  }

  /// Exact equality of outcome sets and masses (for Rational masses).
  friend bool operator==(const Dist& a, const Dist& b)
    requires std::is_same_v<V, Rational>
  {
    return a.masses_ == b.masses_;
  }

private:
  void validate_total(const std::string& context) const {
    V s = total();
    if constexpr (std::is_same_v<V, Rational>) {
      if (kind_ == MassKind::probability && s != 1)
        throw Error(context, "total", to_string(s), "masses must sum to exactly 1");
      if (kind_ == MassKind::sub_probability && s > 1)
        throw Error(context, "total", to_string(s), "masses of a sub-distribution must sum to at most 1");
    } else {
      if (kind_ == MassKind::probability && !s.contains(Rational(1)))
        throw Error(context, "total", s.to_string(), "certified masses must sum to 1");
      if (kind_ == MassKind::sub_probability && s.lower_is_finite() && s.lower() > 1)
        throw Error(context, "total", s.to_string(), "masses of a sub-distribution must sum to at most 1");
    }
  }

  MassKind kind_ = MassKind::probability;
  std::map<T, V> masses_;
};

}  // namespace exactdp
