/// @file
/// The discrete Laplace law as a closed form (THEOREMS.md D.3), written once for every field policy
/// (noise/number_field.hpp): Noise::dlap, the latent threshold and the parametric library
/// mechanisms all take it from here.
#pragma once

#include "exactdp/noise/piecewise_exp.hpp"

#include <utility>
#include <vector>

namespace exactdp::noise {

/// The mass function of DLap(r): Pr[Z = j] = (1−r)/(1+r)·r^|j|, written as (1/r)^j below 0 and r^j
/// from 0 on. (Its running sum, cumulative(), is F(m) = 1 − r^{m+1}/(1+r) for m ≥ 0 and
/// r^{−m}/(1+r) for m < 0.) The caller checks 0 < r < 1.
template <class F>
BasicPiecewiseExp<F> dlap_mass_function(const typename F::Value& r) {
  using V = typename F::Value;
  const V c = (V(1) - r) / (V(1) + r);
  return BasicPiecewiseExp<F>({0}, {{{c, V(1) / r}}, {{c, r}}});
}

/// F(m) = Pr[Z ≤ m] for Z ~ DLap(r): 1 − r^{m+1}/(1+r) for m ≥ 0 and r^{−m}/(1+r) for m < 0
/// (THEOREMS.md D.3). The caller checks 0 < r < 1 and |m| small enough for an exact power.
template <class F>
typename F::Value dlap_cdf_value(const typename F::Value& r, long m) {
  using V = typename F::Value;
  if (m >= 0) return V(1) - F::power(r, m + 1) / (V(1) + r);
  return F::power(r, -m) / (V(1) + r);
}

/// The law of clamp(v + Z, lo, hi) for Z ~ DLap(r) as (value, mass) pairs in increasing order
/// (THEOREMS.md B.14 "Clamp": Pr[lo] = F(lo − v), Pr[hi] = Pr[Z ≥ hi − v] = 1 − F(hi − v − 1), and
/// c·r^|k−v| with c = (1−r)/(1+r) in between). Preconditions (checked by the caller): 0 < r < 1,
/// lo < hi, a window of manageable size.
template <class F>
std::vector<std::pair<long, typename F::Value>> clamped_dlap_masses(const typename F::Value& r, long value, long lo, long hi) {
  using V = typename F::Value;
  std::vector<std::pair<long, V>> m;
  m.reserve(static_cast<std::size_t>(hi - lo) + 1);
  m.emplace_back(lo, dlap_cdf_value<F>(r, lo - value));  // Pr[Z ≤ lo − v]
  // interior: Pr[Z = k − v] = c·r^|k−v|, the power updated by one factor of r per step
  const V c = (V(1) - r) / (V(1) + r), inv_r = V(1) / r;
  long k = lo + 1;
  V power = k < hi ? F::power(r, k >= value ? k - value : value - k) : V(0);
  for (; k < hi; ++k) {
    m.emplace_back(k, c * power);
    power *= k < value ? inv_r : r;  // |k+1−v| = |k−v| − 1 while k < v, + 1 afterwards
  }
  m.emplace_back(hi, V(1) - dlap_cdf_value<F>(r, hi - value - 1));  // Pr[Z ≥ hi − v]
  return m;
}

}  // namespace exactdp::noise
