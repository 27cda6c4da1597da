#include "exactdp/numeric/certified_convolution.hpp"

#include "exactdp/core/error.hpp"

#include <flint/fmpz.h>
#include <flint/fmpz_poly.h>
#include <gmp.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace exactdp {
namespace {

/// An fmpz_poly owned for the scope of one product.
struct Poly {
  fmpz_poly_t p;
  Poly() { fmpz_poly_init(p); }
  ~Poly() { fmpz_poly_clear(p); }
  Poly(const Poly&) = delete;
  Poly& operator=(const Poly&) = delete;
};

/// x·2^F rounded up or down to an integer, exactly (x is a finite double ≥ 0).
void scaled(fmpz_t out, double x, unsigned F, BoundSide side) {
  if (x == 0) {
    fmpz_zero(out);
    return;
  }
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m·2^e, m ∈ [1/2, 1)
  const auto mantissa = static_cast<std::uint64_t>(std::ldexp(m, 53));  // exact: 53 bits
  fmpz_set_ui(out, mantissa);
  const long shift = static_cast<long>(e) - 53 + static_cast<long>(F);  // x·2^F = mantissa·2^shift
  if (shift >= 0) fmpz_mul_2exp(out, out, static_cast<ulong>(shift));
  else if (side == BoundSide::upper) fmpz_cdiv_q_2exp(out, out, static_cast<ulong>(-shift));
  else fmpz_fdiv_q_2exp(out, out, static_cast<ulong>(-shift));
}

void load(fmpz_poly_t p, const std::vector<double>& a, unsigned F, BoundSide side) {
  fmpz_poly_fit_length(p, static_cast<slong>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double x = a[i];
    if (!(x >= 0) || !std::isfinite(x))
      throw Error("certified_convolution", "masses", std::to_string(x), "masses must be finite and non-negative");
    fmpz_t c;
    fmpz_init(c);
    scaled(c, x, F, side);
    fmpz_poly_set_coeff_fmpz(p, static_cast<slong>(i), c);
    fmpz_clear(c);
  }
}

/// The coefficients of @p p times 2^−2F as doubles rounded towards @p side, padded to @p n.
std::vector<double> unload(const fmpz_poly_t p, std::size_t n, unsigned F, BoundSide side) {
  std::vector<double> out(n, 0.0);
  const mpfr_rnd_t rnd = side == BoundSide::upper ? MPFR_RNDU : MPFR_RNDD;
  mpz_t z;
  mpz_init(z);
  mpfr_t t;
  mpfr_init2(t, 53);
  const slong len = fmpz_poly_length(p);
  for (slong j = 0; j < len && static_cast<std::size_t>(j) < n; ++j) {
    const fmpz* c = fmpz_poly_get_coeff_ptr(p, j);
    if (fmpz_is_zero(c)) continue;
    fmpz_get_mpz(z, c);
    mpfr_set_z(t, z, rnd);
    mpfr_mul_2si(t, t, -2 * static_cast<long>(F), rnd);
    out[static_cast<std::size_t>(j)] = mpfr_get_d(t, rnd);
  }
  mpfr_clear(t);
  mpz_clear(z);
  return out;
}

void check(const ConvolutionOptions& o) {
  if (o.fraction_bits < 8 || o.fraction_bits > 4096)
    throw Error("certified_convolution", "fraction_bits", std::to_string(o.fraction_bits), "must lie in [8, 4096]");
}

}  // namespace

std::vector<double> certified_convolution(const std::vector<double>& a, const std::vector<double>& b, BoundSide side,
                                          const ConvolutionOptions& options) {
  check(options);
  if (a.empty() || b.empty()) return {};
  const unsigned F = options.fraction_bits;
  Poly pa, pb, pc;
  load(pa.p, a, F, side);
  load(pb.p, b, F, side);
  fmpz_poly_mul(pc.p, pa.p, pb.p);  // exact
  return unload(pc.p, a.size() + b.size() - 1, F, side);
}

std::vector<double> certified_square(const std::vector<double>& a, BoundSide side, const ConvolutionOptions& options) {
  check(options);
  if (a.empty()) return {};
  const unsigned F = options.fraction_bits;
  Poly pa, pc;
  load(pa.p, a, F, side);
  fmpz_poly_sqr(pc.p, pa.p);  // exact
  return unload(pc.p, 2 * a.size() - 1, F, side);
}

namespace {

/// x·2^F rounded towards @p side to an integer, for an MPFR value x ≥ 0.
void scaled_fr(fmpz_t out, mpfr_srcptr x, unsigned F, BoundSide side) {
  mpfr_t t;
  mpfr_init2(t, mpfr_get_prec(x));
  mpfr_mul_2ui(t, x, F, MPFR_RNDN);  // exact: only the exponent changes
  mpz_t z;
  mpz_init(z);
  mpfr_get_z(z, t, side == BoundSide::upper ? MPFR_RNDU : MPFR_RNDD);
  fmpz_set_mpz(out, z);
  mpz_clear(z);
  mpfr_clear(t);
}

/// p ← p·q (or p², when q is null) rescaled by 2^−F towards @p side.
void multiply_scaled(fmpz_poly_t p, const fmpz_poly_t q, unsigned F, BoundSide side) {
  if (q) fmpz_poly_mul(p, p, q);
  else fmpz_poly_sqr(p, p);
  const slong len = fmpz_poly_length(p);
  for (slong j = 0; j < len; ++j) {
    fmpz* c = p->coeffs + j;
    if (side == BoundSide::upper) fmpz_cdiv_q_2exp(c, c, F);
    else fmpz_fdiv_q_2exp(c, c, F);
  }
  _fmpz_poly_normalise(p);
}

}  // namespace

std::vector<Interval> certified_power(const std::vector<Interval>& coefficients, unsigned long k, Precision precision,
                                      const ConvolutionOptions& options) {
  check(options);
  if (k < 1) throw Error("certified_power", "k", "0", "the exponent must be at least 1");
  if (coefficients.empty()) return {};
  const unsigned F = std::max<unsigned>(options.fraction_bits, static_cast<unsigned>(precision) + 32);
  Poly lo, hi, lo_base, hi_base;
  // a coefficient of the upper polynomial is 0 exactly when the true one is structurally 0:
  // rounding up keeps every positive value ≥ 1 and products of zeros stay 0
  for (std::size_t i = 0; i < coefficients.size(); ++i) {
    const Interval& c = coefficients[i];
    if (!c.lower_is_finite() || !c.upper_is_finite() || mpfr_sgn(&c.get()->left) < 0)
      throw Error("certified_power", "coefficients", c.to_string(), "enclosures must be finite and non-negative");
    fmpz_t x;
    fmpz_init(x);
    scaled_fr(x, &c.get()->left, F, BoundSide::lower);
    fmpz_poly_set_coeff_fmpz(lo_base.p, static_cast<slong>(i), x);
    scaled_fr(x, &c.get()->right, F, BoundSide::upper);
    fmpz_poly_set_coeff_fmpz(hi_base.p, static_cast<slong>(i), x);
    fmpz_clear(x);
  }
  bool started = false;
  for (;;) {
    if (k & 1UL) {
      if (!started) {
        fmpz_poly_set(lo.p, lo_base.p);
        fmpz_poly_set(hi.p, hi_base.p);
        started = true;
      } else {
        multiply_scaled(lo.p, lo_base.p, F, BoundSide::lower);
        multiply_scaled(hi.p, hi_base.p, F, BoundSide::upper);
      }
    }
    k >>= 1;
    if (k == 0) break;
    multiply_scaled(lo_base.p, nullptr, F, BoundSide::lower);
    multiply_scaled(hi_base.p, nullptr, F, BoundSide::upper);
  }
  const slong n = fmpz_poly_length(hi.p);
  std::vector<Interval> out;
  out.reserve(static_cast<std::size_t>(n));
  mpz_t z;
  mpz_init(z);
  for (slong j = 0; j < n; ++j) {
    Interval c = Interval::zero(precision);
    if (!fmpz_is_zero(fmpz_poly_get_coeff_ptr(hi.p, j))) {
      const fmpz* l = j < fmpz_poly_length(lo.p) ? fmpz_poly_get_coeff_ptr(lo.p, j) : nullptr;
      const fmpz* h = j < fmpz_poly_length(hi.p) ? fmpz_poly_get_coeff_ptr(hi.p, j) : nullptr;
      if (l) {
        fmpz_get_mpz(z, l);
        mpfr_set_z(&c.get()->left, z, MPFR_RNDD);
        mpfr_div_2ui(&c.get()->left, &c.get()->left, F, MPFR_RNDD);
      }
      if (h) {
        fmpz_get_mpz(z, h);
        mpfr_set_z(&c.get()->right, z, MPFR_RNDU);
        mpfr_div_2ui(&c.get()->right, &c.get()->right, F, MPFR_RNDU);
      }
    }
    out.push_back(std::move(c));
  }
  mpz_clear(z);
  return out;
}

}  // namespace exactdp
