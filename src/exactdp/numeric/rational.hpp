/// @file
/// Exact rational numbers (GMP) and their parsing and printing.
#pragma once

#include "exactdp/core/limits.hpp"

#include <gmpxx.h>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace exactdp {

/// An exact rational number, always kept in lowest terms with a positive denominator.
using Rational = mpq_class;
/// An exact integer.
using Integer = mpz_class;

/// Parses an exact rational from text.
///
/// Accepted forms (optionally signed, no spaces): an integer `"12"`, a fraction `"3/4"`
/// (denominator non-zero), a decimal `"0.1"` (exactly 1/10, not the binary double), and
/// scientific notation `"1e-5"`, `"2.5E3"` (exactly 1/100000 and 2500). Anything else — empty
/// strings, `"1/0"`, `"0x10"`, `"nan"`, `"1.2.3"`, trailing garbage — throws exactdp::Error naming
/// @p field and the text.
///
/// @param text   the text to parse
/// @param field  a name for the value, used in error messages (e.g. `"lambda"`)
Rational parse_rational(std::string_view text, std::string_view field = "value");

/// "p/q" in lowest terms, or "p" when the denominator is 1 (the JSON format of exact values).
std::string to_string(const Rational& q);

/// 2^e as an exact rational (e may be negative).
Rational pow2(long e);

/// q^k for an exact rational and a non-negative integer exponent (by repeated squaring).
Rational pow(const Rational& q, unsigned long k);

/// The binomial coefficient C(n, k) as an exact integer.
Integer binomial(unsigned long n, unsigned long k);

/// A running sum of rationals kept over a common denominator: adding a term whose denominator
/// divides the current one costs an exact division and a multiplication instead of the two gcds
/// of a canonical rational addition. Used where many terms share a denominator (the atoms of a
/// k-fold composition). value() returns the canonical sum.
class RationalSum {
public:
  void add(const Rational& x);
  Rational value() const;

private:
  Integer num_ = 0;
  Integer den_ = 1;
};

/// Hash of a rational, so that rationals can be keys of unordered containers.
struct RationalHash {
  std::size_t operator()(const Rational& q) const noexcept;
};

namespace limits {

/// Whether both the numerator and the denominator of @p q have at most max_rational_bits bits
/// (core/limits.hpp): the size test every reader of user input applies to an exact number.
inline bool rational_size_ok(const Rational& q) {
  return mpz_sizeinbase(q.get_num_mpz_t(), 2) <= max_rational_bits &&
         mpz_sizeinbase(q.get_den_mpz_t(), 2) <= max_rational_bits;
}

}  // namespace limits

}  // namespace exactdp
