/// @file
/// The number type the exact closed forms of noise/ are written over (issue 19 item 1).
///
/// PiecewiseExp, the DLap closed forms and the latent threshold (noise/piecewise_exp.hpp,
/// noise/dlap_closed_form.hpp, noise/latent.hpp) are templates over a *field policy* F: a number
/// type F::Value with +, −, ·, / and the few decisions the closed forms take — the sign of a
/// value (is a base below 1, so that a geometric series converges?), a total order and a hash for
/// canonical forms. RationalField is the numeric instance (exact rationals); the parametric layer
/// supplies a second one whose values are rational functions of a noise parameter r
/// (parametric/parametric_field.hpp), so that every closed form is written once and the numeric
/// engine at a rational r is the oracle of the parametric one.
///
/// The policy's contract, for a type F:
///  - `F::Value`: regular, constructible from `long` and `Rational`, with `+ − * /` and `==`;
///  - `F::sign(x)`: −1, 0 or +1 — for the parametric policy, the sign for *every* value of the
///    parameter, and an exactdp::Error when it is not one sign (a closed form that would need a case
///    split is refused, never guessed);
///  - `F::before(a, b)`: a strict total order (used to sort terms and comparisons canonically; for
///    rationals it is <, for functions any fixed order);
///  - `F::power(x, k)`: x^k for an integer k (x ≠ 0 when k < 0);
///  - `F::hash(x)`, `F::show(x)`: a hash consistent with ==, and a readable form;
///    `F::prints_negative(x)`: whether a printed sum shows the term as " - |x|".
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <string>

namespace exactdp::noise {

/// The numeric field policy: exact rationals (GMP).
struct RationalField {
  using Value = Rational;
  static int sign(const Value& x) { return sgn(x); }
  static bool before(const Value& a, const Value& b) { return a < b; }
  static Value power(const Value& x, long k) {
    return k >= 0 ? pow(x, static_cast<unsigned long>(k)) : 1 / pow(x, static_cast<unsigned long>(-k));
  }
  static std::size_t hash(const Value& x) { return RationalHash{}(x); }
  static std::string show(const Value& x) { return to_string(x); }
  /// Whether a sum prints this term with " - " (and its absolute value).
  static bool prints_negative(const Value& x) { return sgn(x) < 0; }
};

/// The sign of x − 1 under the policy F (is a geometric base below, at or above 1?).
template <class F>
int compare_with_one(const typename F::Value& x) {
  return F::sign(x - typename F::Value(1));
}

}  // namespace exactdp::noise
