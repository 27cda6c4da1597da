#include "exactdp/noise/noisy_max.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/noise/piecewise_exp.hpp"

#include <string>

namespace exactdp::noise {

std::vector<Rational> report_noisy_max(const std::vector<long>& values, const std::vector<Noise>& noises, TieBreak ties) {
  const char* where = "noise::report_noisy_max";
  const std::size_t n = values.size();
  if (n == 0 || n > 64) throw Error(where, "values", std::to_string(n), "give between 1 and 64 values");
  if (noises.size() != n) throw Error(where, "noises", std::to_string(noises.size()), "give one noise per value");
  for (long v : values)
    if (v < -1'000'000 || v > 1'000'000) throw Error(where, "values", std::to_string(v), "|value| must be at most 10^6");
  // as functions of the noisy value y: f_k(y) = Pr[v_k + Z_k = y], at_most_k(y) = Pr[v_k + Z_k ≤ y],
  // below_k(y) = Pr[v_k + Z_k ≤ y − 1]
  std::vector<PiecewiseExp> f, at_most, below;
  for (std::size_t k = 0; k < n; ++k) {
    f.push_back(noises[k].mass_function().shifted(values[k]));
    at_most.push_back(noises[k].distribution_function().shifted(values[k]));
    below.push_back(at_most.back().shifted(1));
  }
  std::vector<Rational> out(n);
  if (ties == TieBreak::lowest_index) {
    // prefix[i] = Π_{k<i} below_k, suffix[i] = Π_{k>i} at_most_k
    std::vector<PiecewiseExp> prefix(n + 1, PiecewiseExp::constant(1)), suffix(n + 1, PiecewiseExp::constant(1));
    for (std::size_t k = 0; k < n; ++k) prefix[k + 1] = prefix[k] * below[k];
    for (std::size_t k = n; k-- > 0;) suffix[k] = suffix[k + 1] * at_most[k];
    for (std::size_t i = 0; i < n; ++i) out[i] = (f[i] * prefix[i] * suffix[i + 1]).sum();
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      // tied[t](y) = Σ_{S ⊆ others, |S| = t} Π_{k∈S} f_k(y) Π_{k∉S, k≠i} below_k(y)
      std::vector<PiecewiseExp> tied{f[i]};
      for (std::size_t k = 0; k < n; ++k) {
        if (k == i) continue;
        std::vector<PiecewiseExp> next(tied.size() + 1);
        for (std::size_t t = 0; t < tied.size(); ++t) {
          next[t] = next[t] + tied[t] * below[k];
          next[t + 1] = next[t + 1] + tied[t] * f[k];
        }
        tied = std::move(next);
      }
      for (std::size_t t = 0; t < tied.size(); ++t) out[i] += tied[t].sum() / Rational(static_cast<unsigned long>(t + 1));
    }
  }
  Rational total = 0;
  for (const auto& p : out) total += p;
  if (total != 1) throw Error(where, "total", to_string(total), "internal error: the winning probabilities do not sum to 1");
  return out;
}

std::vector<Rational> report_noisy_max(const std::vector<long>& values, const Noise& noise, TieBreak ties) {
  return report_noisy_max(values, std::vector<Noise>(values.size(), noise), ties);
}

}  // namespace exactdp::noise
