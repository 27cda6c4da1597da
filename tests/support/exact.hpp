// Small helpers shared by the tests: canonical rationals from integers, and the randomized
// response pair written out from THEOREMS.md A.2 (deliberately not the library's own table, so
// tests that use it are independent of mechanism/).
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/rational.hpp"

namespace exactdp::testing {

/// n/d in lowest terms (gmpxx's two-argument constructor does not canonicalise).
inline Rational q(long n, long d = 1) {
  Rational r(n, d);
  r.canonicalize();
  return r;
}

/// RR_{λ,δ} on atoms (Leak,0), (NoLeak,0), (NoLeak,1), (Leak,1): world 0 against world 1.
inline PrivacyLoss rr_table(const Rational& lambda, const Rational& delta) {
  Rational hi = (1 - delta) * lambda / (1 + lambda), lo = (1 - delta) / (1 + lambda);
  return PrivacyLoss::from_masses({{delta, 0}, {hi, lo}, {lo, hi}, {0, delta}});
}

}  // namespace exactdp::testing
