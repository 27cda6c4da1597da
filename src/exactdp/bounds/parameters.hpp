/// @file
/// Privacy parameters as the bounds/ layer takes and returns them, and their validation.
///
/// Convention (THEOREMS.md 0.3): wherever a formula allows it, a privacy parameter is held in base
/// form λ = e^ε as an exact rational ≥ 1, and δ as an exact rational in [0, 1]. Formulas that need ε
/// itself (advanced composition, KOV15 Thm 3.4/3.5, Rényi conversions, Gaussian DP) take ε as a
/// certified exactdp::Interval; epsilon_of() turns an exact λ into that interval.
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <string>

namespace exactdp {

/// An (ε, δ) guarantee in base form: λ = e^ε (exact rational, λ ≥ 1) and δ (exact, in [0, 1]).
struct LambdaDelta {
  Rational lambda;
  Rational delta;

  friend bool operator==(const LambdaDelta& a, const LambdaDelta& b) {
    return a.lambda == b.lambda && a.delta == b.delta;
  }
};

/// An (ε, δ) guarantee whose ε is a certified real: @c epsilon is an enclosure of ε (ε ≥ 0), and
/// @c delta is exact. When a bounds/ function *returns* one, the guarantee is "(ε, δ)-DP for the
/// exact ε enclosed", hence sound for every ε′ ≥ epsilon's upper end; THEOREMS.md B.15 explains how
/// to use it with exact machinery (δ_opt(λ_lo) ≤ δ for λ_lo ≤ e^ε is a proof).
struct EpsilonDelta {
  Interval epsilon;
  Rational delta;
};

/// ε = ln λ as a certified enclosure at @p precision.
///
/// Precondition: λ ≥ 1 (a privacy parameter in base form); otherwise exactdp::Error naming
/// "lambda". Guarantee: the returned interval contains ln λ (exactly [0, 0] for λ = 1).
Interval epsilon_of(const Rational& lambda, Precision precision = default_precision);

/// Validation shared by the bounds/ layer. Each function throws exactdp::Error(where, field,
/// value, why) naming the parameter and its value when the condition fails.
namespace bounds_detail {

/// "name[i]", the field name of the i-th element of a list parameter.
std::string indexed(const char* name, std::size_t i);
/// λ ≥ 1 (a privacy parameter in base form).
void require_lambda(const Rational& lambda, const char* where, const std::string& field);
/// λ ≥ 0 (the argument of a privacy profile).
void require_nonnegative(const Rational& x, const char* where, const std::string& field);
/// x > 0.
void require_positive(const Rational& x, const char* where, const std::string& field);
/// δ ∈ [0, 1].
void require_probability(const Rational& delta, const char* where, const std::string& field);
/// δ ∈ (0, 1].
void require_positive_probability(const Rational& delta, const char* where, const std::string& field);
/// k ≥ 1.
void require_count(unsigned long k, const char* where, const std::string& field);
/// α > 1 (a Rényi order).
void require_order(const Rational& alpha, const char* where, const std::string& field);
/// Every point of @p x is ≥ 0 (lower end finite and ≥ 0).
void require_nonnegative(const Interval& x, const char* where, const std::string& field);
/// Every point of @p x is > 0.
void require_positive(const Interval& x, const char* where, const std::string& field);
/// The larger of the two precisions.
Precision max_precision(const Interval& a, const Interval& b);
/// max(x, 0): the enclosure of a quantity known to be ≥ 0 (drops a rounding tail below 0).
Interval clamp_nonnegative(const Interval& x);
/// min(x, 1): the enclosure of a probability bound (a δ above 1 is vacuous).
Interval clamp_at_most_one(const Interval& x);
/// ln(1/δ) ≥ 0 for δ ∈ (0, 1], certified at @p precision.
Interval log_inverse(const Rational& delta, Precision precision);
/// Every point of @p x is > q. Compares the MPFR endpoint with q directly (never converts an
/// endpoint to a rational, which for a tiny value such as 2^(−2^29) would be enormous).
bool certainly_greater(const Interval& x, const Rational& q);
/// Every point of @p x is ≤ q (endpoint compared directly, as certainly_greater()).
bool certainly_at_most(const Interval& x, const Rational& q);
/// The upper end of @p a is strictly below the upper end of @p b (+∞ is never below).
bool upper_end_below(const Interval& a, const Interval& b);

}  // namespace bounds_detail
}  // namespace exactdp
