/// @file
/// The step of a sparse-vector mechanism, written once over the field policy of
/// noise/number_field.hpp (internal to the library): the numeric mechanisms (library_svt.cpp) run
/// it over exact rationals, their parametric twins (library_parametric.cpp) over rational
/// functions of the noise parameter. Every probability comes from noise::BasicLatentThreshold,
/// the one home of the B.13 formula.
#pragma once

#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/noise/latent.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace exactdp::library::detail {

/// The noise of a sparse-vector mechanism over the policy F: τ ~ DLap(r_threshold) per instance,
/// ν ~ DLap(r_query) per query; halt after `cutoff` "above" answers.
template <class F>
struct SvtNoise {
  typename F::Value r_threshold, r_query;
  unsigned cutoff = 1;
};

/// The state of an AboveThreshold instance: halted, the positive answers so far, the running count,
/// and the posterior of τ since the last (re)start — canonically the sorted multiset of margins.
template <class F>
struct SvtState {
  bool halted = false;
  long positives = 0;
  long count = 0;
  noise::BasicLatentThreshold<F> threshold;
  friend bool operator==(const SvtState&, const SvtState&) = default;
};

template <class F>
struct SvtHash {
  std::size_t operator()(const SvtState<F>& s) const {
    std::size_t h = typename noise::BasicLatentThreshold<F>::Hash{}(s.threshold);
    for (long x : {long(s.halted), s.positives, s.count}) h ^= std::hash<long>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

template <class F>
SvtState<F> fresh_svt_state(const SvtNoise<F>& p) {
  return SvtState<F>{false, 0, 0, noise::BasicLatentThreshold<F>(p.r_threshold)};
}

/// One outcome of an SVT step: its probability, the answer and the next state.
template <class F>
struct SvtOutcome {
  typename F::Value probability;
  std::string answer;
  SvtState<F> next;
};

/// The step of a sparse-vector mechanism with cutoff c from @p s on a query of margin @p a and
/// new running count @p count: Pr[below now | below so far] and the next posterior of τ (B.13).
template <class F>
std::vector<SvtOutcome<F>> svt_step(const SvtState<F>& s, long a, long count, const SvtNoise<F>& p) {
  using V = typename F::Value;
  if (s.halted) return {{V(1), halt_answer, s}};
  std::vector<SvtOutcome<F>> out;
  for (auto& branch : s.threshold.compare(a, p.r_query)) {
    if (branch.outcome == noise::Side::below) {
      out.push_back({branch.probability, "below", SvtState<F>{false, s.positives, count, std::move(branch.next)}});
      continue;
    }
    const long positives = s.positives + 1;
    SvtState<F> stop{false, positives, count, noise::BasicLatentThreshold<F>(p.r_threshold)};  // restart: fresh τ, no margins
    if (positives >= static_cast<long>(p.cutoff))
      stop = SvtState<F>{true, 0, 0, noise::BasicLatentThreshold<F>(p.r_threshold)};  // one canonical halted state
    out.push_back({branch.probability, "above", std::move(stop)});
  }
  return out;
}

/// The svt-counter's step on message "x/T" (bit x, threshold T): stop iff c_t + ν > T + τ, margin
/// A = T − c_t with c_t the new running count.
template <class F>
std::vector<SvtOutcome<F>> svt_counter_step(const SvtState<F>& s, const std::string& m, const SvtNoise<F>& p) {
  const auto slash = m.find('/');
  const long x = std::stol(m.substr(0, slash)), t = std::stol(m.substr(slash + 1));
  const long count = s.count + x;
  return svt_step(s, t - count, count, p);
}

}  // namespace exactdp::library::detail
