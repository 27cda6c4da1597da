/// @file
/// Report-noisy-max over unbounded noise, exact: the law of argmax_i (v_i + Z_i) as closed-form
/// sums over ℤ (the geometric sums of THEOREMS.md B.13, via PiecewiseExp), no clamping (B.14).
#pragma once

#include "exactdp/noise/noise.hpp"
#include "exactdp/numeric/rational.hpp"

#include <vector>

namespace exactdp::noise {

/// How report_noisy_max() breaks ties between equal noisy values.
enum class TieBreak {
  lowest_index,  ///< the smallest index among the maximisers wins
  uniform        ///< each maximiser wins with equal probability
};

/// The exact law of the index argmax_i (v_i + Z_i) with Z_i ~ @p noises[i] independent.
///
/// With the lowest-index rule, Pr[i wins] = Σ_{y∈ℤ} Pr[Z_i = y − v_i] Π_{k<i} Pr[Z_k ≤ y − 1 − v_k]
/// Π_{k>i} Pr[Z_k ≤ y − v_k]; with the uniform rule the maximisers tied with i at y share, each
/// subset S of the others tied contributing the factor 1/(|S| + 1). Each term is a product of
/// piecewise exponentials in y, summed over ℤ in closed form, so the probabilities are exact
/// rationals for DLap(r), geometric, and finite noises alike; they sum to exactly 1 (checked).
/// Discrete Laplace noise DLap(r) on values of sensitivity 1 gives the discrete
/// report-noisy-max (Dwork–Roth Claim 3.9 with DLap in place of Laplace noise).
/// @param values  the integer values v_i (1 … 64 of them, |v_i| ≤ 10⁶)
/// @param noises  one noise per value (the same size as @p values)
/// @param ties    the tie-breaking rule
/// @return        Pr[i wins] for each index i
std::vector<Rational> report_noisy_max(const std::vector<long>& values, const std::vector<Noise>& noises,
                                       TieBreak ties = TieBreak::lowest_index);

/// report_noisy_max() with the same noise law @p noise for every value.
std::vector<Rational> report_noisy_max(const std::vector<long>& values, const Noise& noise, TieBreak ties = TieBreak::lowest_index);

}  // namespace exactdp::noise
