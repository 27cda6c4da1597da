// Exact composition benchmarks (issue "Foundation", section Benchmark).
//
//  * ComposeRR / ComposeDLaplace: k-fold exact composition (self_compose) followed by building
//    the full privacy profile, k = 10 … 10 000. Counter peak_rss_MiB is the process's peak
//    resident set so far (benchmarks run in increasing k, so it is the peak of the largest case).
//  * SelfCompose{Lattice,Squaring}: the two routes of PrivacyLoss::self_compose on the same
//    input — the Kronecker-substitution lattice path against repeated squaring of compose().
//  * BinomialRR: the least ε at δ = 10⁻⁵ of k-fold RR(λ = 3/2) by the certified binomial closed form
//    of the composition planner (accounting/binomial_composition.hpp), k = 10⁴ … 10⁸ — the route
//    `exactdp compose -m rr:lambda=3/2 --times 100000000 --delta 1e-5` takes.
//  * ProductEnumeration vs PLDConvolution: the profile of k independent uses of a 3-outcome pair
//    computed by enumerating the 3^k outcomes of the product distribution, and by PLD convolution.
//
// Run: bench/run.sh (builds in Release and prints the table and the ratios).
#include "exactdp/accounting/binomial_composition.hpp"
#include "exactdp/divergence/hockey_stick.hpp"

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <vector>

namespace {

using exactdp::PrivacyLoss;
using exactdp::PrivacyProfile;
using exactdp::Rational;

double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

PrivacyLoss rr(const Rational& l) {
  Rational hi = l / (1 + l), lo = 1 / (1 + l);
  return PrivacyLoss::from_masses({{hi, lo}, {lo, hi}});
}

/// The clamped discrete Laplace pair for values 0 and Δ = 2 on [0, 2] with r = 1/2 (THEOREMS.md
/// D.3, X-CLAMP-EXACT): masses F(0), Pr[Z = 1], 1 − F(1) against F(−2), Pr[Z = −1], 1 − F(−1).
PrivacyLoss dlaplace_r_half_sensitivity_two() {
  const Rational r(1, 2);
  auto F = [&](long m) { return m >= 0 ? Rational(1 - exactdp::pow(r, static_cast<unsigned long>(m + 1)) / (1 + r)) : Rational(exactdp::pow(r, static_cast<unsigned long>(-m)) / (1 + r)); };
  Rational c = (1 - r) / (1 + r);
  return PrivacyLoss::from_masses({{F(0), F(-2)}, {c * r, c * r}, {1 - F(1), 1 - F(-1)}});
}

void ComposeRR(benchmark::State& state) {
  auto base = rr(Rational(3, 2));
  const auto k = static_cast<unsigned long>(state.range(0));
  for (auto _ : state) {
    PrivacyProfile profile(base.self_compose(k));
    benchmark::DoNotOptimize(profile);
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(ComposeRR)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(1);

void ComposeDLaplace(benchmark::State& state) {
  auto base = dlaplace_r_half_sensitivity_two();
  const auto k = static_cast<unsigned long>(state.range(0));
  for (auto _ : state) {
    PrivacyProfile profile(base.self_compose(k));
    benchmark::DoNotOptimize(profile);
  }
  state.counters["peak_rss_MiB"] = peak_rss_mib();
}
BENCHMARK(ComposeDLaplace)->Arg(10)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->Iterations(1);

void BinomialRR(benchmark::State& state) {
  const auto k = static_cast<unsigned long>(state.range(0));
  for (auto _ : state) {
    const exactdp::BinomialComposition c(exactdp::Interval(Rational(3, 2), 128), Rational(0), k);
    benchmark::DoNotOptimize(c.least_epsilon(Rational(1, 100000)));
  }
}
BENCHMARK(BinomialRR)->Arg(10000)->Arg(1000000)->Arg(100000000)->Unit(benchmark::kMillisecond);

void SelfComposeLattice(benchmark::State& state) {
  auto base = rr(Rational(3, 2));
  for (auto _ : state) benchmark::DoNotOptimize(base.self_compose(static_cast<unsigned long>(state.range(0))));
}
BENCHMARK(SelfComposeLattice)->Arg(100)->Arg(300)->Arg(1000)->Unit(benchmark::kMillisecond);

void SelfComposeSquaring(benchmark::State& state) {
  auto base = rr(Rational(3, 2));
  for (auto _ : state) benchmark::DoNotOptimize(base.self_compose_by_squaring(static_cast<unsigned long>(state.range(0))));
}
BENCHMARK(SelfComposeSquaring)->Arg(100)->Arg(300)->Arg(1000)->Unit(benchmark::kMillisecond);

/// A 3-outcome pair whose ratios (3, 3/4, 1/2) are not powers of one base, so the PLD route
/// cannot use the lattice shortcut: P = (1/2, 1/4, 1/4), Q = (1/6, 1/3, 1/2).
PrivacyLoss three_outcomes(std::vector<std::pair<Rational, Rational>>* masses) {
  *masses = {{Rational(1, 2), Rational(1, 6)}, {Rational(1, 4), Rational(1, 3)}, {Rational(1, 4), Rational(1, 2)}};
  return PrivacyLoss::from_masses(*masses);
}

void ProductEnumeration(benchmark::State& state) {
  std::vector<std::pair<Rational, Rational>> m;
  three_outcomes(&m);
  const int k = static_cast<int>(state.range(0));
  for (auto _ : state) {
    std::vector<std::pair<Rational, Rational>> prod{{Rational(1), Rational(1)}};
    for (int i = 0; i < k; ++i) {
      std::vector<std::pair<Rational, Rational>> next;
      next.reserve(prod.size() * m.size());
      for (const auto& a : prod)
        for (const auto& b : m) next.emplace_back(a.first * b.first, a.second * b.second);
      prod.swap(next);
    }
    PrivacyProfile profile(PrivacyLoss::from_masses(prod));
    benchmark::DoNotOptimize(profile);
  }
}
BENCHMARK(ProductEnumeration)->DenseRange(6, 12, 2)->Unit(benchmark::kMillisecond);

void PLDConvolution(benchmark::State& state) {
  std::vector<std::pair<Rational, Rational>> m;
  auto base = three_outcomes(&m);
  for (auto _ : state) {
    PrivacyProfile profile(base.self_compose(static_cast<unsigned long>(state.range(0))));
    benchmark::DoNotOptimize(profile);
  }
}
BENCHMARK(PLDConvolution)->DenseRange(6, 12, 2)->Unit(benchmark::kMillisecond);

}  // namespace
