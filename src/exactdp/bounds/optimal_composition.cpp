#include "exactdp/bounds/optimal_composition.hpp"

#include "exactdp/core/error.hpp"

#include <limits>
#include <map>
#include <string>
#include <utility>

namespace exactdp {
namespace {

using bounds_detail::indexed;

/// The privacy-loss distribution of the pure part ⊗RR_{ε_i}: ratio r_S ↦ world-0 probability
/// (ordered by ratio, so profiles and searches read it left to right).
using LossDistribution = std::map<Rational, Rational>;

void validate(std::span<const LambdaDelta> components, const char* where) {
  if (components.empty()) throw Error(where, "components", "[]", "at least one component is required");
  for (std::size_t i = 0; i < components.size(); ++i) {
    bounds_detail::require_lambda(components[i].lambda, where, indexed("lambda", i));
    bounds_detail::require_probability(components[i].delta, where, indexed("delta", i));
  }
}

/// Π_i (1 − δ_i): the mass on which no component leaks.
Rational no_leak_mass(std::span<const LambdaDelta> components) {
  Rational c(1);
  for (const auto& comp : components) c *= 1 - comp.delta;
  return c;
}

/// λ ↦ multiplicity over the components with λ ≠ 1 (λ = 1 never changes a ratio).
std::map<Rational, unsigned long> lambda_groups(std::span<const LambdaDelta> components) {
  std::map<Rational, unsigned long> groups;
  for (const auto& comp : components)
    if (comp.lambda != 1) ++groups[comp.lambda];
  return groups;
}

std::size_t saturating_estimate(const std::map<Rational, unsigned long>& groups) {
  constexpr std::size_t cap = std::numeric_limits<std::size_t>::max();
  std::size_t n = 1;
  for (const auto& [value, count] : groups) {
    std::size_t f = count >= cap ? cap : static_cast<std::size_t>(count) + 1;
    n = n > cap / f ? cap : n * f;
  }
  return n;
}

/// The law of the ratio of one group of c equal components λ = v: Binomial(c, v/(1+v)) successes s
/// give the ratio v^{2s−c} with probability C(c,s)·v^s/(1+v)^c.
std::vector<std::pair<Rational, Rational>> group_law(const Rational& v, unsigned long c) {
  std::vector<std::pair<Rational, Rational>> law;
  law.reserve(c + 1);
  const Rational denominator = pow(Rational(1 + v), c);
  for (unsigned long s = 0; s <= c; ++s) {
    Rational ratio = 2 * s >= c ? pow(v, 2 * s - c) : Rational(1 / pow(v, c - 2 * s));
    law.emplace_back(std::move(ratio), Rational(binomial(c, s)) * pow(v, s) / denominator);
  }
  return law;
}

[[noreturn]] void refuse(const char* where, std::size_t limit, std::size_t estimate, std::size_t k) {
  throw Error(where, "components", std::to_string(k) + " components",
              "exact optimal composition needs more than max_states = " + std::to_string(limit) +
                  " distinct privacy-loss ratios (estimated number of states: up to " + std::to_string(estimate) +
                  "); exact heterogeneous optimal composition is #P-hard (MV16): raise "
                  "OptimalCompositionOptions::max_states or use a bound (basic, advanced, KOV15 Thm 3.5)");
}

/// Builds the privacy-loss distribution group by group (multiplicative convolution with merging
/// of equal ratios), refusing as soon as it would hold more than options.max_states ratios.
LossDistribution pure_loss_distribution(std::span<const LambdaDelta> components,
                                        const OptimalCompositionOptions& options, const char* where) {
  const auto groups = lambda_groups(components);
  const std::size_t estimate = saturating_estimate(groups);
  LossDistribution pld{{Rational(1), Rational(1)}};
  for (const auto& [v, c] : groups) {
    const auto law = group_law(v, c);
    LossDistribution next;
    for (const auto& [r, w] : pld)
      for (const auto& [r2, w2] : law) {
        next[r * r2] += w * w2;
        if (next.size() > options.max_states) refuse(where, options.max_states, estimate, components.size());
      }
    pld = std::move(next);
  }
  return pld;
}

/// δ_RR(λ_g) = Σ_{r > λ_g} w_r·(1 − λ_g/r) = H_{λ_g} of the pure part (THEOREMS.md A.1, PLD form).
Rational pure_delta(const LossDistribution& pld, const Rational& lambda_g) {
  Rational d(0);
  for (auto it = pld.upper_bound(lambda_g); it != pld.end(); ++it) d += it->second * (1 - lambda_g / it->first);
  return d;
}

}  // namespace

std::size_t optimal_composition_state_estimate(std::span<const LambdaDelta> components) {
  validate(components, "optimal_composition_state_estimate");
  return saturating_estimate(lambda_groups(components));
}

Rational optimal_composition_delta(const Rational& lambda, const Rational& delta, unsigned long k,
                                   const Rational& lambda_g) {
  constexpr const char* where = "optimal_composition_delta";
  bounds_detail::require_lambda(lambda, where, "lambda");
  bounds_detail::require_probability(delta, where, "delta");
  bounds_detail::require_count(k, where, "k");
  bounds_detail::require_nonnegative(lambda_g, where, "lambda_g");
  // With λ = p/q and λ_g = g/h: δ_RR = Σ_j C(k,j)·(h·p^j q^{k−j} − g·p^{k−j} q^j)⁺ / (h·(p+q)^k).
  const Integer p = lambda.get_num(), q = lambda.get_den();
  const Integer g = lambda_g.get_num(), h = lambda_g.get_den();
  Integer a, b, binom(1), sum(0);
  mpz_pow_ui(a.get_mpz_t(), q.get_mpz_t(), k);  // a_j = p^j q^{k−j}, starting at j = 0
  mpz_pow_ui(b.get_mpz_t(), p.get_mpz_t(), k);  // b_j = p^{k−j} q^j
  for (unsigned long j = 0;; ++j) {
    Integer term = h * a - g * b;
    if (sgn(term) > 0) sum += binom * term;
    if (j == k) break;
    a = a / q * p;  // exact: q^{k−j} with k − j ≥ 1 divides a
    b = b / p * q;
    binom = binom * (k - j) / (j + 1);
  }
  Integer z;
  mpz_pow_ui(z.get_mpz_t(), Integer(p + q).get_mpz_t(), k);
  Rational pure(sum, h * z);
  pure.canonicalize();
  return 1 - pow(Rational(1 - delta), k) * (1 - pure);
}

Rational optimal_composition_delta(std::span<const LambdaDelta> components, const Rational& lambda_g,
                                   const OptimalCompositionOptions& options) {
  constexpr const char* where = "optimal_composition_delta";
  validate(components, where);
  bounds_detail::require_nonnegative(lambda_g, where, "lambda_g");
  const Rational c = no_leak_mass(components);
  if (sgn(c) == 0) return Rational(1);
  return 1 - c * (1 - pure_delta(pure_loss_distribution(components, options, where), lambda_g));
}

std::vector<ProfilePiece> optimal_composition_profile(std::span<const LambdaDelta> components,
                                                      const OptimalCompositionOptions& options) {
  constexpr const char* where = "optimal_composition_profile";
  validate(components, where);
  const Rational c = no_leak_mass(components);
  const LossDistribution pld = pure_loss_distribution(components, options, where);
  // On (r_{j−1}, r_j) the pure part is A_j − λ·B_j with suffix sums A_j = Σ_{i≥j} w_i,
  // B_j = Σ_{i≥j} w_i/r_i; walk the ratios from the largest down, then reverse.
  std::vector<ProfilePiece> reversed;
  Rational a(0), b(0);
  auto push = [&](const Rational& start) {
    ProfilePiece piece{start, 1 - c + c * a, c * b};
    if (!reversed.empty() && reversed.back().a == piece.a && reversed.back().b == piece.b)
      reversed.back().start = start;  // same line continues further left
    else
      reversed.push_back(std::move(piece));
  };
  for (auto it = pld.rbegin(); it != pld.rend(); ++it) {
    push(it->first);
    a += it->second;
    b += it->second / it->first;
  }
  push(Rational(0));
  return {reversed.rbegin(), reversed.rend()};
}

Rational evaluate_profile(const std::vector<ProfilePiece>& profile, const Rational& lambda) {
  constexpr const char* where = "evaluate_profile";
  if (profile.empty() || profile.front().start != 0)
    throw Error(where, "profile", "", "a profile must be non-empty and start at 0");
  bounds_detail::require_nonnegative(lambda, where, "lambda");
  const ProfilePiece* piece = &profile.front();
  for (const auto& p : profile)
    if (p.start <= lambda) piece = &p;
  return piece->a - piece->b * lambda;
}

std::optional<Rational> optimal_composition_least_lambda(std::span<const LambdaDelta> components,
                                                         const Rational& delta_g,
                                                         const OptimalCompositionOptions& options) {
  constexpr const char* where = "optimal_composition_least_lambda";
  validate(components, where);
  bounds_detail::require_probability(delta_g, where, "delta_g");
  const Rational c = no_leak_mass(components);
  if (sgn(c) == 0) return delta_g == 1 ? std::optional<Rational>(1) : std::nullopt;  // δ_opt ≡ 1
  const Rational t = 1 - (1 - delta_g) / c;  // δ_opt(λ) ≤ δ_g ⟺ δ_RR(λ) ≤ t
  if (sgn(t) < 0) return std::nullopt;
  const LossDistribution pld = pure_loss_distribution(components, options, where);
  if (pure_delta(pld, Rational(1)) <= t) return Rational(1);
  // Ratios above 1, ascending, with suffix sums A_j = Σ_{i≥j} w_i and B_j = Σ_{i≥j} w_i/r_i.
  std::vector<std::pair<Rational, Rational>> above(pld.upper_bound(Rational(1)), pld.end());
  const std::size_t n = above.size();
  std::vector<Rational> suffix_a(n + 1, Rational(0)), suffix_b(n + 1, Rational(0));
  for (std::size_t j = n; j-- > 0;) {
    suffix_a[j] = suffix_a[j + 1] + above[j].second;
    suffix_b[j] = suffix_b[j + 1] + above[j].second / above[j].first;
  }
  for (std::size_t j = 0; j < n; ++j) {
    // δ_RR is A_j − λ·B_j on [r_{j−1}, r_j] (r_{−1} = 1), and δ_RR(r_j) = A_{j+1} − r_j·B_{j+1}.
    if (suffix_a[j + 1] - above[j].first * suffix_b[j + 1] <= t) return Rational((suffix_a[j] - t) / suffix_b[j]);
  }
  // Unreachable: δ_RR(max ratio) = 0 ≤ t.
  throw Error(where, "", "", "internal: no breakpoint reaches the target");
}

std::vector<LambdaDelta> kov_closed_form(const Rational& lambda, const Rational& delta, unsigned long k) {
  constexpr const char* where = "kov_closed_form";
  bounds_detail::require_lambda(lambda, where, "lambda");
  bounds_detail::require_probability(delta, where, "delta");
  bounds_detail::require_count(k, where, "k");
  std::vector<Rational> power(k + 1);  // λ^0 … λ^k
  power[0] = 1;
  for (unsigned long j = 1; j <= k; ++j) power[j] = power[j - 1] * lambda;
  const Rational z = pow(Rational(1 + lambda), k);
  const Rational no_leak = pow(Rational(1 - delta), k);
  std::vector<LambdaDelta> pairs;
  for (unsigned long i = 0; 2 * i <= k; ++i) {
    Rational delta_i(0);
    for (unsigned long l = 0; l < i; ++l)
      delta_i += Rational(binomial(k, l)) * (power[k - l] - power[k - 2 * i + l]);
    delta_i /= z;
    pairs.push_back({power[k - 2 * i], 1 - no_leak * (1 - delta_i)});
  }
  return pairs;
}

}  // namespace exactdp
