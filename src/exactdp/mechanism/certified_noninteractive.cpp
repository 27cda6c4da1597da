#include "exactdp/mechanism/certified_noninteractive.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <string>
#include <utility>
#include <vector>

namespace exactdp {
namespace {

void require_delta(const Rational& delta, const char* where, const char* field) {
  if (sgn(delta) < 0 || delta > 1) throw Error(where, field, to_string(delta), "delta must lie in [0, 1]");
}

void require_lambda_enclosure(const Interval& lambda, const char* where) {
  if (!lambda.lower_is_finite() || !lambda.upper_is_finite() || lambda.lower() < 1)
    throw Error(where, "lambda", lambda.to_string(), "lambda = e^epsilon must be at least 1 (and finite)");
}

void require_count(unsigned long k, const char* where) {
  if (k < 1) throw Error(where, "k", std::to_string(k), "the number of compositions must be at least 1");
}

Interval clamp_probability(const Interval& x) {
  const Precision p = x.precision();
  return min(max(x, Interval::zero(p)), Interval(1L, p));
}

/// The binomial masses of ⊗^k RR_{ln λ}: for j = number of coordinates that report the world-0
/// bit, P(j) = C(k,j)p^j(1−p)^{k−j} and Q(j) = C(k,j)p^{k−j}(1−p)^j with p = λ/(1+λ); the
/// likelihood ratio of j is λ^{2j−k}, increasing in j.
std::pair<std::vector<Interval>, std::vector<Interval>> binomial_masses(const Interval& lambda, unsigned long k) {
  const Precision prec = lambda.precision();
  const Interval one(1L, prec), p = lambda / (one + lambda), q = one / (one + lambda);
  std::vector<Interval> world0, world1;
  world0.reserve(k + 1);
  world1.reserve(k + 1);
  world0.push_back(pow(q, static_cast<long>(k)));
  world1.push_back(pow(p, static_cast<long>(k)));
  for (unsigned long j = 1; j <= k; ++j) {
    // C(k,j)/C(k,j−1) = (k−j+1)/j, and p/(1−p) = λ
    Rational ratio(k - j + 1, j);
    ratio.canonicalize();
    const Interval step(ratio, prec);
    world0.push_back(world0.back() * step * lambda);
    world1.push_back(world1.back() * step / lambda);
  }
  return {std::move(world0), std::move(world1)};
}

}  // namespace

CertifiedLoss randomized_response_loss(const Rational& epsilon, const Rational& delta, Precision precision) {
  constexpr const char* where = "randomized_response_loss";
  if (sgn(epsilon) < 0) throw Error(where, "epsilon", to_string(epsilon), "epsilon must be non-negative");
  require_delta(delta, where, "delta");
  const Interval one(1L, precision), keep_total(Rational(1 - delta), precision);
  // λ/(1+λ) = 1/(1+e^{−ε}) and 1/(1+λ) = 1/(1+e^ε)
  const Interval keep = keep_total / (one + exp(Interval(Rational(-epsilon), precision)));
  const Interval flip = keep_total / (one + exp(Interval(epsilon, precision)));
  const Interval d(delta, precision), zero = Interval::zero(precision);
  std::vector<CertifiedLossAtom> atoms{{SymbolicRatio::infinity(), d, zero},
                                       {SymbolicRatio::exponential(1, epsilon), keep, flip},
                                       {SymbolicRatio::exponential(1, Rational(-epsilon)), flip, keep},
                                       {SymbolicRatio::zero(), zero, d}};
  return CertifiedLoss::from_atoms(std::move(atoms), where);
}

Interval randomized_response_composition_delta(const Interval& lambda, const Rational& delta, unsigned long k,
                                               const Interval& lambda_g) {
  constexpr const char* where = "randomized_response_composition_delta";
  require_lambda_enclosure(lambda, where);
  require_delta(delta, where, "delta");
  require_count(k, where);
  if (!lambda_g.lower_is_finite() || lambda_g.lower() < 0)
    throw Error(where, "lambda_g", lambda_g.to_string(), "lambda_g must be non-negative");
  const Precision prec = std::max(lambda.precision(), lambda_g.precision());
  const auto [world0, world1] = binomial_masses(lambda, k);
  Interval delta_rr = Interval::zero(prec);
  for (unsigned long j = 0; j <= k; ++j) delta_rr += max(world0[j] - lambda_g * world1[j], Interval::zero(prec));
  delta_rr = clamp_probability(delta_rr);
  const Interval one(1L, prec), no_leak = pow(Interval(Rational(1 - delta), prec), static_cast<long>(k));
  return clamp_probability(one - no_leak * (one - delta_rr));
}

Interval randomized_response_composition_least_epsilon(const Interval& lambda, const Rational& delta, unsigned long k,
                                                       const Rational& delta_g) {
  constexpr const char* where = "randomized_response_composition_least_epsilon";
  require_lambda_enclosure(lambda, where);
  require_delta(delta, where, "delta");
  require_count(k, where);
  require_delta(delta_g, where, "delta_g");
  const Precision prec = lambda.precision();
  if (delta == 1) return delta_g == 1 ? Interval::zero(prec) : Interval::infinity(prec);  // always leaks
  const Interval one(1L, prec), no_leak = pow(Interval(Rational(1 - delta), prec), static_cast<long>(k));
  const Interval t = one - Interval(Rational(1 - delta_g), prec) / no_leak;  // need δ_RR(λ_g) ≤ t
  if (t.upper() < 0) return Interval::infinity(prec);
  const bool t_undecided = t.lower() < 0;
  const auto [world0, world1] = binomial_masses(lambda, k);
  Interval a = Interval::zero(prec), b = Interval::zero(prec), best = one;
  for (unsigned long m = k + 1; m-- > 0;) {  // suffixes {j ≥ m}, largest ratios first
    a += world0[m];
    b += world1[m];
    best = max(best, (a - t) / b);
  }
  if (best.upper() == 1 && !t_undecided) return Interval::zero(prec);
  const Interval epsilon = log(best);
  // t ≈ 0: if t ≥ 0 the answer lies in `epsilon`, if t < 0 it is +∞
  return t_undecided ? Interval::at_least(epsilon.lower(), prec) : epsilon;
}

CertifiedLoss discrete_laplace_loss(const Rational& epsilon, unsigned long sensitivity, Precision precision) {
  constexpr const char* where = "discrete_laplace_loss";
  if (sgn(epsilon) <= 0)
    throw Error(where, "epsilon", to_string(epsilon), "epsilon must be positive (r = e^(-epsilon/sensitivity) < 1)");
  mechanism_detail::check_sensitivity(where, sensitivity);
  const Rational step = epsilon / sensitivity;  // ε₀ = −ln r
  auto r_pow = [&](unsigned long n) { return exp(Interval(Rational(-step * n), precision)); };
  const Interval one(1L, precision), one_plus_r = one + r_pow(1);
  const Interval c = -expm1(Interval(Rational(-step), precision)) / one_plus_r;  // (1 − r)/(1 + r)
  const Interval far = r_pow(sensitivity) / one_plus_r, near = one / one_plus_r;
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(sensitivity + 1);
  atoms.push_back({SymbolicRatio::exponential(1, epsilon), near, far});  // k = 0: F(0), F(−Δ)
  for (unsigned long k = 1; k < sensitivity; ++k) {
    const Rational s = step * (static_cast<long>(sensitivity) - 2 * static_cast<long>(k));
    atoms.push_back({SymbolicRatio::exponential(1, s), c * r_pow(k), c * r_pow(sensitivity - k)});
  }
  atoms.push_back({SymbolicRatio::exponential(1, Rational(-epsilon)), far, near});  // k = Δ: tails ≥ Δ
  return CertifiedLoss::from_atoms(std::move(atoms), where);
}

CertifiedLoss truncated_discrete_gaussian_loss(const Rational& sigma2, unsigned long sensitivity, unsigned long truncation,
                                               Precision precision) {
  constexpr const char* where = "truncated_discrete_gaussian_loss";
  if (sgn(sigma2) <= 0) throw Error(where, "sigma2", to_string(sigma2), "the variance sigma2 must be positive");
  mechanism_detail::check_sensitivity(where, sensitivity);
  if (truncation > max_table_outcomes)
    throw Error(where, "truncation", std::to_string(truncation),
                "the truncation bound must be at most " + std::to_string(max_table_outcomes));
  const long T = static_cast<long>(truncation), D = static_cast<long>(sensitivity);
  // the unnormalised weights e^{−x²/(2σ²)} for |x| ≤ T, and their sum Z (certified)
  std::vector<Interval> weight;
  weight.reserve(static_cast<std::size_t>(2 * T + 1));
  Interval z = Interval::zero(precision);
  for (long x = -T; x <= T; ++x) {
    weight.push_back(x == 0 ? Interval(1L, precision) : exp(Interval(Rational(-x * x) / (2 * sigma2), precision)));
    z += weight.back();
  }
  auto w = [&](long x) { return weight[static_cast<std::size_t>(x + T)] / z; };  // the noise mass at x
  const Interval zero = Interval::zero(precision);
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(static_cast<std::size_t>(2 * T + 1 + D));
  for (long x = -T; x <= T + D; ++x) {
    const bool in_p = x <= T, in_q = x - D >= -T;
    if (!in_p && !in_q) continue;  // 2T < Δ: a gap between the two supports
    if (in_p && in_q)
      atoms.push_back({SymbolicRatio::exponential(1, Rational(D * D - 2 * x * D) / (2 * sigma2)), w(x), w(x - D)});
    else if (in_p)
      atoms.push_back({SymbolicRatio::infinity(), w(x), zero});
    else
      atoms.push_back({SymbolicRatio::zero(), zero, w(x - D)});
  }
  return CertifiedLoss::from_atoms(std::move(atoms), where);
}

}  // namespace exactdp
