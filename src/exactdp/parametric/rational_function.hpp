/// @file
/// Rational functions of one parameter with integer-polynomial numerator and denominator (FLINT's
/// `fmpz_poly_q`), the value type of the parametric engine (issue 19; docs/parametric.md).
///
/// A finite mechanism whose tables are rational functions of a noise parameter r (RR with
/// p = r, DLap(r) clamped to a finite range, geometric noise) has view probabilities, likelihood
/// ratios and claims λ(r)·P₁ − P₀ that are again rational functions of r; deciding a claim for
/// every r of a range is deciding the sign of finitely many such functions on it
/// (parametric/real_roots.hpp).
///
/// No public header includes FLINT: RationalFunction keeps its `fmpz_poly_q` behind a pointer.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace exactdp::parametric {

/// An exact rational function p(r)/q(r) with p, q ∈ ℤ[r], q ≠ 0, kept in canonical form (gcd 1,
/// q with positive leading coefficient), so that equal functions compare equal.
///
/// A regular value type (copyable, comparable); arithmetic is FLINT's, exact. Division by the
/// zero function throws exactdp::Error.
class RationalFunction {
public:
  /// The zero function.
  RationalFunction();
  /// The constant @p c.
  RationalFunction(const Rational& c);  // NOLINT(google-explicit-constructor): constants read as functions
  RationalFunction(long c) : RationalFunction(Rational(c)) {}  // NOLINT
  /// The identity function r ↦ r.
  static RationalFunction variable();
  /// The polynomial Σ coefficients[i]·r^i with rational coefficients.
  static RationalFunction polynomial(const std::vector<Rational>& coefficients);

  RationalFunction(const RationalFunction& other);
  RationalFunction(RationalFunction&& other) noexcept;
  RationalFunction& operator=(const RationalFunction& other);
  RationalFunction& operator=(RationalFunction&& other) noexcept;
  ~RationalFunction();

  RationalFunction& operator+=(const RationalFunction& other);
  RationalFunction& operator-=(const RationalFunction& other);
  RationalFunction& operator*=(const RationalFunction& other);
  /// Throws exactdp::Error when @p other is the zero function.
  RationalFunction& operator/=(const RationalFunction& other);
  friend RationalFunction operator+(RationalFunction a, const RationalFunction& b) { return a += b; }
  friend RationalFunction operator-(RationalFunction a, const RationalFunction& b) { return a -= b; }
  friend RationalFunction operator*(RationalFunction a, const RationalFunction& b) { return a *= b; }
  friend RationalFunction operator/(RationalFunction a, const RationalFunction& b) { return a /= b; }
  RationalFunction operator-() const;
  /// this^k for an integer k (k < 0 inverts; throws exactdp::Error for 0^k with k < 0).
  RationalFunction pow(long k) const;

  bool is_zero() const;
  /// True when the function is a constant (numerator and denominator of degree 0).
  bool is_constant() const;
  friend bool operator==(const RationalFunction& a, const RationalFunction& b);

  /// The exact value at @p r. Throws exactdp::Error when the denominator vanishes at r.
  Rational evaluate(const Rational& r) const;
  /// The numerator's and denominator's integer coefficients, lowest degree first (canonical form).
  std::vector<Integer> numerator() const;
  std::vector<Integer> denominator() const;

  /// The function written with @p variable, e.g. "(1-r)/(1+r)" or "r^2-2*r+1" (readable back by
  /// parse_rational_function).
  std::string to_string(std::string_view variable = "r") const;
  /// A canonical key (for hashing and memoisation): equal functions give equal keys.
  std::string key() const;
  /// A hash of the canonical form (equal functions hash equally); cheaper than key().
  std::size_t hash() const;
  /// A fixed strict total order on functions (by the canonical form's coefficients; not the order
  /// of values), for sorting and ordered containers without printing.
  friend bool canonical_less(const RationalFunction& a, const RationalFunction& b);

  /// The FLINT object (an `fmpz_poly_q_struct*`), for the .cpp files of this layer only.
  void* flint() const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Limits of parse_rational_function(), each refused with an exactdp::Error naming the field and
/// the size: the whole text (characters), one number (digits), the nesting of parentheses and signs
/// (the parser recurses once per level), and the degree of a power's result. They bound memory and
/// stack, never a value that fits: a canonical form (RationalFunction::to_string) of degree up to
/// max_expression_degree always parses back when it fits in max_expression_length characters.
inline constexpr std::size_t max_expression_length = 10'000'000;
inline constexpr std::size_t max_number_digits = max_expression_length;
inline constexpr std::size_t max_expression_nesting = 1000;
inline constexpr long max_expression_degree = 100'000;

/// Parses @p text as a rational function of @p variable. Grammar (docs/parametric.md):
///
///     expr    := term (('+' | '-') term)*
///     term    := unary (('*' | '/') unary)*
///     unary   := ('+' | '-') unary | power
///     power   := primary ('^' ['-'] integer)?
///     primary := number | variable | '(' expr ')'
///     number  := digits ['.' digits]   (an exact decimal; write 1/3 as a quotient)
///
/// Spaces are ignored; `-r^2` is −(r²); `^` binds tighter than unary minus and takes an integer
/// exponent (the power's degree at most max_expression_degree). Throws exactdp::Error(@p field, "", text, why) naming the position
/// (counted from 1) of the first problem: an unknown name (with the declared parameter), a
/// missing operand or parenthesis, a division by the zero function, a limit above exceeded.
RationalFunction parse_rational_function(std::string_view text, std::string_view variable, std::string_view field = "expression");

}  // namespace exactdp::parametric
