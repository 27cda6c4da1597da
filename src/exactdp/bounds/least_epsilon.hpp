/// @file
/// The least ε ≥ 0 meeting δ(ε) ≤ δ for a certified, non-increasing δ(·), by bisection on rational
/// ε, and δ over an enclosure of ε: shared by the one-use closed forms that have no inverse in closed form (Gaussian mixtures,
/// the Poisson-subsampled Laplace mechanism).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <string>

namespace exactdp {

/// A certified bracket of the least ε ≥ 0 with δ(ε) ≤ @p delta, where @p delta_at (a rational ε ↦
/// an enclosure of δ(ε)) is non-increasing in ε: 0 when δ(0) ≤ δ; otherwise ε = 1, 2, 4, … until
/// one meets the target, then bisection until the bracket is at most @p width wide, or stops early
/// at a midpoint where δ(mid) cannot be told from δ at this precision (the bracket [lo, hi] stays
/// valid: lo fails, hi meets). Errors (exactdp::Error with @p where): δ outside [0, 1], width ≤ 0,
/// no ε below 2^64 meeting δ. The caller handles a δ no finite ε reaches (e.g. δ = 0 with an
/// unbounded loss) before calling.
template <class DeltaAt>
Interval least_epsilon_by_bisection(const DeltaAt& delta_at, const Rational& delta, const Rational& width, Precision precision,
                                    const char* where) {
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
  if (sgn(width) <= 0) throw Error(where, "width", to_string(width), "must be positive");
  auto meets = [&](const Rational& e) {  // +1 meets (δ(e) ≤ δ), −1 fails, 0 undecided
    const Interval d = delta_at(e);
    if (d.upper() <= delta) return 1;
    if (d.lower() > delta) return -1;
    return 0;
  };
  if (meets(Rational(0)) == 1) return Interval::zero(precision);
  Rational lo(0), hi(1);
  for (int i = 0; meets(hi) != 1; ++i) {
    lo = hi;
    hi *= 2;
    if (i > 64) throw Error(where, "delta", to_string(delta), "no epsilon meets this delta below 2^64");
  }
  while (hi - lo > width) {
    const Rational mid = (lo + hi) / 2;
    const int s = meets(mid);
    if (s == 0) break;  // δ(mid) is within the rounding of δ: the least ε is this close to mid
    (s > 0 ? hi : lo) = mid;
  }
  return Interval::hull(lo, hi, precision);
}

/// δ over an enclosure of ε for a non-increasing δ(·) given at points by @p delta_at (a rational ε
/// and a precision ↦ an enclosure): [δ₋(ε₊), δ₊(ε₋)] at the enclosure's precision. Precondition:
/// finite ends (exactdp::Error with @p where, naming "epsilon").
template <class DeltaAt>
Interval delta_over_epsilon_enclosure(const DeltaAt& delta_at, const Interval& epsilon, const char* where) {
  if (!epsilon.lower_is_finite() || !epsilon.upper_is_finite())
    throw Error(where, "epsilon", epsilon.to_string(10), "must be a finite enclosure");
  const Precision p = epsilon.precision();
  const Interval at_lo = delta_at(epsilon.lower(), p);
  if (epsilon.lower() == epsilon.upper()) return at_lo;
  const Interval at_hi = delta_at(epsilon.upper(), p);
  return Interval::hull(at_hi.lower(), at_lo.upper(), p);
}

}  // namespace exactdp
