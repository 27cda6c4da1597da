#include "exactdp/numeric/rational.hpp"

#include "exactdp/core/error.hpp"

#include <cctype>
#include <limits>

namespace exactdp {
namespace {

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// The integer written in decimal by @p digits (all_digits holds). Base 10 must be explicit:
/// mpz_class(std::string) defaults to base 0, where a leading 0 means octal, so "0.17" would
/// become 017 = 15 hundredths and "010" would be 8.
Integer decimal_integer(std::string_view digits) { return Integer(std::string(digits), 10); }

[[noreturn]] void reject(std::string_view text, std::string_view field, const std::string& why) {
  throw Error("", std::string(field), std::string(text), why);
}

}  // namespace

Rational parse_rational(std::string_view text, std::string_view field) {
  const std::string_view original = text;
  const char* expected =
      "expected an exact number: an integer, p/q, a decimal like 0.1 or scientific notation like 1e-5";
  if (text.empty()) reject(original, field, expected);
  bool negative = false;
  if (text.front() == '+' || text.front() == '-') {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  Rational result;
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    std::string_view num = text.substr(0, slash), den = text.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den)) reject(original, field, expected);
    Integer d = decimal_integer(den);
    if (d == 0) reject(original, field, "the denominator is zero");
    result = Rational(decimal_integer(num), d);
    result.canonicalize();
  } else {
    // decimal with optional fraction part and optional exponent
    std::string_view mantissa = text, exponent;
    if (auto e = text.find_first_of("eE"); e != std::string_view::npos) {
      mantissa = text.substr(0, e);
      exponent = text.substr(e + 1);
      if (exponent.empty()) reject(original, field, expected);
    }
    std::string_view int_part = mantissa, frac_part;
    if (auto dot = mantissa.find('.'); dot != std::string_view::npos) {
      int_part = mantissa.substr(0, dot);
      frac_part = mantissa.substr(dot + 1);
      if (frac_part.empty() && int_part.empty()) reject(original, field, expected);
      if (!frac_part.empty() && !all_digits(frac_part)) reject(original, field, expected);
    }
    if (!int_part.empty() && !all_digits(int_part)) reject(original, field, expected);
    if (int_part.empty() && frac_part.empty()) reject(original, field, expected);
    long exp10 = 0;
    if (!exponent.empty()) {
      bool eneg = false;
      if (exponent.front() == '+' || exponent.front() == '-') {
        eneg = exponent.front() == '-';
        exponent.remove_prefix(1);
      }
      if (!all_digits(exponent) || exponent.size() > 6)
        reject(original, field, "the exponent must be an integer of at most 6 digits");
      exp10 = std::stol(std::string(exponent));
      if (eneg) exp10 = -exp10;
    }
    std::string digits = std::string(int_part) + std::string(frac_part);
    if (digits.empty()) digits = "0";
    exp10 -= static_cast<long>(frac_part.size());
    Integer n = decimal_integer(digits), p;
    mpz_ui_pow_ui(p.get_mpz_t(), 10, static_cast<unsigned long>(exp10 < 0 ? -exp10 : exp10));
    result = exp10 < 0 ? Rational(n, p) : Rational(n * p);
    result.canonicalize();
  }
  return negative ? Rational(-result) : result;
}

std::string to_string(const Rational& q) { return q.get_str(10); }

Rational pow2(long e) {
  Rational r(1);
  if (e >= 0)
    mpq_mul_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(e));
  else
    mpq_div_2exp(r.get_mpq_t(), r.get_mpq_t(), static_cast<mp_bitcnt_t>(-e));
  return r;
}

Rational pow(const Rational& q, unsigned long k) {
  Rational r;
  mpz_pow_ui(mpq_numref(r.get_mpq_t()), mpq_numref(q.get_mpq_t()), k);
  mpz_pow_ui(mpq_denref(r.get_mpq_t()), mpq_denref(q.get_mpq_t()), k);
  r.canonicalize();  // a no-op for canonical q; callers may pass a raw mpq_class(n, d)
  return r;
}

Integer binomial(unsigned long n, unsigned long k) {
  Integer r;
  mpz_bin_uiui(r.get_mpz_t(), n, k);
  return r;
}

void RationalSum::add(const Rational& x) {
  mpz_srcptr d = x.get_den_mpz_t();
  if (mpz_divisible_p(den_.get_mpz_t(), d)) {
    Integer f;
    mpz_divexact(f.get_mpz_t(), den_.get_mpz_t(), d);
    num_ += x.get_num() * f;
    return;
  }
  Integer g;
  mpz_gcd(g.get_mpz_t(), den_.get_mpz_t(), d);
  Integer a = x.get_den() / g;  // the factor the common denominator gains
  num_ = num_ * a + x.get_num() * (den_ / g);
  den_ *= a;
}

Rational RationalSum::value() const {
  Rational r(num_, den_);
  r.canonicalize();
  return r;
}

std::size_t RationalHash::operator()(const Rational& q) const noexcept {
  auto h = [](mpz_srcptr z) {
    std::size_t s = static_cast<std::size_t>(mpz_size(z)) * 0x9e3779b97f4a7c15ULL;
    if (mpz_size(z) > 0) s ^= static_cast<std::size_t>(mpz_getlimbn(z, 0));
    return s ^ static_cast<std::size_t>(mpz_sgn(z) + 1);
  };
  return h(mpq_numref(q.get_mpq_t())) * 31 + h(mpq_denref(q.get_mpq_t()));
}

}  // namespace exactdp
