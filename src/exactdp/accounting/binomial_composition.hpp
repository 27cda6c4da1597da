/// @file
/// The k-fold composition of randomized response in closed form, for k far beyond what a
/// privacy-loss distribution can hold (k = 10⁸ in a fraction of a second).
///
/// The k-fold product of the pair (RR_{ln λ}(0), RR_{ln λ}(1)) is a binomial law: if J counts the
/// coordinates that report the world-0 bit, P(J = j) = C(k, j)·p^j·(1−p)^{k−j} with
/// p = λ/(1+λ), Q(J = j) = C(k, j)·p^{k−j}·(1−p)^j, and the privacy loss of j is
/// ℓ_j = (2j − k)·ln λ. So
///
///     δ_RR(e^ε) = Σ_j P(j)·[1 − e^{ε − ℓ_j}]₊,   δ_opt(e^ε) = 1 − (1−δ)^k·(1 − δ_RR(e^ε))
///
/// for RR_{ln λ, δ} (KOV15 Thm 3.3; THEOREMS.md B.11 OPT-COMP, equal λ_i — the same formula as
/// exactdp::randomized_response_composition_delta(), which sums all k + 1 terms). Here only the
/// terms that matter are summed: P(j) at the first summed index comes from log-gamma
/// (ln C(k, j) = lnΓ(k+1) − lnΓ(j+1) − lnΓ(k−j+1), MPFR's correctly rounded lngamma rounded
/// outward), the next ones from the exact ratio P(j+1)/P(j) = λ(k−j)/(j+1), and the summation
/// stops once the rest is certified negligible: that ratio decreases in j, so once it is r < 1 the
/// remaining mass is at most P(j)·r/(1−r) (a geometric series), which is added as the interval
/// [0, P(j)·r/(1−r)]. Below the mode the same holds downwards. The number of terms is about
/// 30·√(k·p(1−p)) at 128 bits.
///
/// The discrete Laplace mechanism with sensitivity 1 is the same pair with λ = 1/r (its clamped
/// worst-case pair has two outcomes, THEOREMS.md D.3), so it composes by this form too.
///
/// Every result is an enclosure; which terms are summed is chosen from double-precision
/// estimates of the mode, which affects only the time, never the enclosure.
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

namespace exactdp {

/// ⊗^k RR_{ln λ, δ}: δ(ε) and the least ε at a δ, certified, in time about √k.
class BinomialComposition {
public:
  /// @param lambda an enclosure of λ = e^ε₀ of one use (a point for a rational λ); its lower end
  ///               must exceed 1 (λ = 1 is the identity: compose it exactly instead)
  /// @param delta  the δ₀ of RR_{ε₀, δ₀}, in [0, 1]
  /// @param k      the number of uses, at least 1
  /// The working precision is the precision of @p lambda. Throws exactdp::Error (fields "lambda",
  /// "delta", "k") on a violated precondition, and when k·log₂(1+λ) would leave MPFR's exponent
  /// range (field "k"; far beyond λ = 10⁶ at k = 10⁸).
  BinomialComposition(const Interval& lambda, const Rational& delta, unsigned long k);

  /// δ_opt(λ_g) = max(H_{λ_g}(P‖Q), H_{λ_g}(Q‖P)) of the k-fold composition (both directions
  /// agree: the pair is symmetric), for every λ_g ≥ 1 in the enclosure: contains the exact value.
  Interval delta_at_lambda(const Interval& lambda_g) const;
  /// δ at a real ε ≥ 0 (λ_g = e^ε).
  Interval delta_at_epsilon(const Interval& epsilon) const;
  /// The least ε ≥ 0 with δ_opt(e^ε) ≤ δ_g, certified: the point +∞ when no finite ε exists
  /// (δ_g < 1 − (1−δ₀)^k), an interval with upper end +∞ when that cannot be decided at this
  /// precision. Precondition: 0 ≤ δ_g ≤ 1.
  Interval least_epsilon(const Rational& delta_g) const;

  unsigned long times() const { return k_; }
  Precision precision() const { return precision_; }

private:
  Interval log_mass(unsigned long j) const;  ///< ln P(J = j)
  Interval delta_rr(const Interval& lambda_g) const;
  unsigned long mode() const;

  Interval lambda_, log_lambda_, log_one_plus_lambda_, log_factorial_k_;
  Rational delta_;
  unsigned long k_;
  Precision precision_;
  double lambda_estimate_;  ///< for choosing where to start summing only
};

}  // namespace exactdp
