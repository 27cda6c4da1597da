#include "exactdp/bounds/renyi_conversions.hpp"

#include "exactdp/bounds/parameters.hpp"
#include "exactdp/core/error.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace exactdp {
namespace {

using bounds_detail::clamp_nonnegative;

/// a is a better (smaller) certified upper bound than b.
bool smaller_upper(const Interval& a, const Interval& b) { return bounds_detail::upper_end_below(a, b); }

/// Heuristic minimisation of value_at(α) over rational α > 1 (see OrderSearchOptions): a scan of
/// α − 1 = 2^j, then a ternary search on the dyadic grid α − 1 = 2^{j−1}·(1 + t/2^20),
/// t ∈ [0, 3·2^20], around the best scanned j. Returns the best certified value seen.
template <class F>
OrderedConversion minimise_over_orders(F value_at, const OrderSearchOptions& options) {
  if (options.min_log2 > options.max_log2)
    throw Error("order search", "min_log2", std::to_string(options.min_log2), "must not exceed max_log2");
  OrderedConversion best{Rational(1) + pow2(options.min_log2), Interval()};
  best.value = value_at(best.alpha);
  long best_j = options.min_log2;
  auto consider = [&](const Rational& alpha) {
    Interval v = value_at(alpha);
    bool improved = smaller_upper(v, best.value);
    if (improved) best = {alpha, std::move(v)};
    return improved;
  };
  for (long j = options.min_log2 + 1; j <= options.max_log2; ++j)
    if (consider(Rational(1) + pow2(j))) best_j = j;
  const long grain = 20;
  auto alpha_at = [&](long t) { return Rational(1 + pow2(best_j - 1) * (1 + Rational(t) * pow2(-grain))); };
  auto value_of_step = [&](long t) { return value_at(alpha_at(t)); };
  long lo = 0, hi = 3L << grain;
  for (int step = 0; step < options.refine_steps && hi - lo > 2; ++step) {
    const long m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    const Interval v1 = value_of_step(m1), v2 = value_of_step(m2);
    if (smaller_upper(v2, v1)) lo = m1;
    else hi = m2;
  }
  for (long t = lo; t <= hi; ++t) consider(alpha_at(t));
  return best;
}

}  // namespace

Interval rdp_to_dp_epsilon_mironov(const Rational& alpha, const Interval& rdp_epsilon, const Rational& delta) {
  constexpr const char* where = "rdp_to_dp_epsilon_mironov";
  bounds_detail::require_order(alpha, where, "alpha");
  bounds_detail::require_nonnegative(rdp_epsilon, where, "rdp_epsilon");
  bounds_detail::require_positive_probability(delta, where, "delta");
  const Precision p = rdp_epsilon.precision();
  return rdp_epsilon + bounds_detail::log_inverse(delta, p) / Interval(Rational(alpha - 1), p);
}

Interval rdp_to_dp_epsilon(const Rational& alpha, const Interval& rdp_epsilon, const Rational& delta) {
  constexpr const char* where = "rdp_to_dp_epsilon";
  bounds_detail::require_order(alpha, where, "alpha");
  bounds_detail::require_nonnegative(rdp_epsilon, where, "rdp_epsilon");
  bounds_detail::require_positive_probability(delta, where, "delta");
  const Precision p = rdp_epsilon.precision();
  const Interval ln_one_minus = log(Interval(Rational((alpha - 1) / alpha), p));  // ln(1 − 1/α)
  const Interval eps = rdp_epsilon + ln_one_minus -
                       (log(Interval(delta, p)) + log(Interval(alpha, p))) / Interval(Rational(alpha - 1), p);
  return clamp_nonnegative(eps);
}

Interval rdp_to_dp_delta(const Rational& alpha, const Interval& rdp_epsilon, const Interval& epsilon) {
  constexpr const char* where = "rdp_to_dp_delta";
  bounds_detail::require_order(alpha, where, "alpha");
  bounds_detail::require_nonnegative(rdp_epsilon, where, "rdp_epsilon");
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  const Precision p = bounds_detail::max_precision(rdp_epsilon, epsilon);
  const Interval am1(Rational(alpha - 1), p);
  // ln δ = (α−1)(ε_α − ε) + (α−1)·ln(1 − 1/α) − ln α
  const Interval ln_delta =
      am1 * (rdp_epsilon - epsilon) + am1 * log(Interval(Rational((alpha - 1) / alpha), p)) - log(Interval(alpha, p));
  return bounds_detail::clamp_at_most_one(exp(ln_delta));
}

OrderedConversion best_rdp_to_dp_epsilon(std::span<const RdpGuarantee> curve, const Rational& delta) {
  constexpr const char* where = "best_rdp_to_dp_epsilon";
  if (curve.empty()) throw Error(where, "curve", "[]", "at least one (alpha, epsilon) guarantee is required");
  std::optional<OrderedConversion> best;
  for (const auto& point : curve) {
    Interval eps = rdp_to_dp_epsilon(point.alpha, point.epsilon, delta);
    if (!best || smaller_upper(eps, best->value)) best = OrderedConversion{point.alpha, std::move(eps)};
  }
  return *best;
}

Interval zcdp_to_dp_epsilon_bun_steinke(const Interval& rho, const Rational& delta) {
  constexpr const char* where = "zcdp_to_dp_epsilon_bun_steinke";
  bounds_detail::require_nonnegative(rho, where, "rho");
  bounds_detail::require_positive_probability(delta, where, "delta");
  const Precision p = rho.precision();
  return rho + Interval(2L, p) * sqrt(clamp_nonnegative(rho * bounds_detail::log_inverse(delta, p)));
}

OrderedConversion zcdp_to_dp_delta(const Interval& rho, const Interval& epsilon, const OrderSearchOptions& options) {
  constexpr const char* where = "zcdp_to_dp_delta";
  bounds_detail::require_nonnegative(rho, where, "rho");
  bounds_detail::require_nonnegative(epsilon, where, "epsilon");
  const Precision p = std::max({options.precision, rho.precision(), epsilon.precision()});
  // CKS20 Cor 13 at a fixed α is CKS20 Prop 12 with ε_α = αρ: (1 − 1/α)^α/(α − 1) = (1 − 1/α)^{α−1}/α.
  return minimise_over_orders(
      [&](const Rational& alpha) { return rdp_to_dp_delta(alpha, Interval(alpha, p) * rho, epsilon); }, options);
}

OrderedConversion zcdp_to_dp_epsilon(const Interval& rho, const Rational& delta, const OrderSearchOptions& options) {
  constexpr const char* where = "zcdp_to_dp_epsilon";
  bounds_detail::require_nonnegative(rho, where, "rho");
  bounds_detail::require_positive_probability(delta, where, "delta");
  const Precision p = std::max(options.precision, rho.precision());
  return minimise_over_orders(
      [&](const Rational& alpha) { return rdp_to_dp_epsilon(alpha, Interval(alpha, p) * rho, delta); }, options);
}

Interval pure_dp_to_zcdp(const Interval& epsilon) {
  bounds_detail::require_nonnegative(epsilon, "pure_dp_to_zcdp", "epsilon");
  return pow(epsilon, 2) / Interval(2L, epsilon.precision());
}

}  // namespace exactdp
