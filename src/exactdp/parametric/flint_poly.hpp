/// @file
/// Integer polynomials (FLINT's `fmpz_poly`) and Descartes' rule of signs on an interval, shared by
/// the .cpp files of this layer (real_roots.cpp, envelope.cpp). Internal: the public headers of
/// the layer do not include FLINT, and nothing outside src/exactdp/parametric includes this one.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <flint/fmpz_poly.h>

#include <vector>

namespace exactdp::parametric::detail {

/// An owned fmpz_poly (RAII).
class Poly {
public:
  Poly() { fmpz_poly_init(p_); }
  explicit Poly(const fmpz_poly_t other) {
    fmpz_poly_init(p_);
    fmpz_poly_set(p_, other);
  }
  explicit Poly(const std::vector<Integer>& c) {
    fmpz_poly_init(p_);
    for (std::size_t i = 0; i < c.size(); ++i) fmpz_poly_set_coeff_mpz(p_, static_cast<slong>(i), c[i].get_mpz_t());
  }
  Poly(const Poly& o) : Poly(o.p_) {}
  Poly& operator=(const Poly& o) {
    fmpz_poly_set(p_, o.p_);
    return *this;
  }
  ~Poly() { fmpz_poly_clear(p_); }
  fmpz_poly_struct* get() { return p_; }
  const fmpz_poly_struct* get() const { return p_; }
  slong degree() const { return fmpz_poly_degree(p_); }
  std::vector<Integer> coefficients() const {
    std::vector<Integer> out(static_cast<std::size_t>(fmpz_poly_length(p_)));
    for (std::size_t i = 0; i < out.size(); ++i) fmpz_poly_get_coeff_mpz(out[i].get_mpz_t(), p_, static_cast<slong>(i));
    return out;
  }
  /// The exact sign of the polynomial at @p r.
  int sign_at(const Rational& r) const {
    Rational v;
    fmpz_poly_evaluate_mpq(v.get_mpq_t(), p_, r.get_mpq_t());
    return sgn(v);
  }

private:
  fmpz_poly_t p_;
};

/// Descartes' rule of signs on the open interval (lo, hi): an upper bound on the number of roots of
/// @p q there, counted with multiplicity, with the parity of that number (exact; 0 proves there is
/// none). Roots at lo or hi themselves are not counted.
slong descartes_bound(const Poly& q, const Rational& lo, const Rational& hi);

}  // namespace exactdp::parametric::detail
