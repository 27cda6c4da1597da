// The memoised game engine against naive enumeration of every deterministic adversary, on library
// mechanisms (issue 3, "Benchmarks"): AboveThreshold with 3–6 queries and the binary-tree counter.
//
//  * Engine<Game>/T: worst_case_hockey_stick at λ = 2 over every adaptive adversary up to horizon
//    T (backward induction memoised on normalised belief pairs, THEOREMS.md B.1–B.2). Counters:
//    nodes (node values requested, EngineStats::nodes_visited) and keys (distinct belief pairs).
//  * Naive<Game>/T: the same two numbers sup_A H₂(V₀‖V₁), sup_A H₂(V₁‖V₀) by listing every
//    deterministic adversary (a decision tree: at each history stop or send an allowed pair, then a
//    sub-adversary per answer) with its two hockey-stick values, which add over answer branches.
//    Counters: adversaries (listed at the root) and nodes (sub-adversary values produced, summed
//    over all histories). It checks that both routes give the same values.
//
// Run: bench/run.sh --benchmark_filter='Engine|Naive' (prints the ratios of nodes and of time).
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"

#include <benchmark/benchmark.h>

#include <map>
#include <stdexcept>
#include <utility>
#include <vector>

namespace {

using namespace exactdp;

using Belief = std::map<StateId, Rational>;
using Values = std::vector<std::pair<Rational, Rational>>;  // per adversary: (H_λ(V₀‖V₁), H_λ(V₁‖V₀)) of its subtree

Rational positive(const Rational& x) { return sgn(x) > 0 ? x : Rational(0); }

struct Naive {
  const Game& game;
  Rational lambda;
  std::uint64_t nodes = 0;
  std::uint64_t limit = 5'000'000;

  Values all(VerifierState sigma, unsigned rounds, const Belief& b0, const Belief& b1) {
    Rational m0 = 0, m1 = 0;
    for (const auto& [s, p] : b0) m0 += p;
    for (const auto& [s, p] : b1) m1 += p;
    Values out{{positive(m0 - lambda * m1), positive(m1 - lambda * m0)}};  // stop here
    const auto& acts = game.verifier->allowed(sigma);
    if (rounds > 0)
      for (std::size_t i = 0; i < acts.size(); ++i) {
        std::map<AnswerId, std::pair<Belief, Belief>> kids;
        for (const auto& [s, p] : b0)
          for (const auto& t : game.mechanism->step(s, acts[i].world0)) kids[t.answer].first[t.next] += p * t.probability;
        for (const auto& [s, p] : b1)
          for (const auto& t : game.mechanism->step(s, acts[i].world1)) kids[t.answer].second[t.next] += p * t.probability;
        Values combos{{Rational(0), Rational(0)}};
        for (const auto& [a, kb] : kids) {
          const Values subs = all(game.verifier->next(sigma, i), rounds - 1, kb.first, kb.second);
          if (combos.size() * subs.size() > limit) throw std::length_error("naive enumeration beyond the limit");
          Values next;
          next.reserve(combos.size() * subs.size());
          for (const auto& c : combos)
            for (const auto& s : subs) next.emplace_back(c.first + s.first, c.second + s.second);
          combos = std::move(next);
        }
        out.insert(out.end(), combos.begin(), combos.end());
      }
    nodes += out.size();
    if (out.size() > limit) throw std::length_error("naive enumeration beyond the limit");
    return out;
  }
};

Game above_threshold_game() {
  library::SparseVectorParams p;
  p.r_threshold = Rational(1, 4);
  p.r_query = Rational(1, 2);
  return library::above_threshold(p, -1, 1);
}

Game tree_counter_game(unsigned height) { return library::binary_tree_counter(height, Rational(1, 2)); }

void run_engine(benchmark::State& state, const Game& g) {
  EngineOptions o;
  o.horizon = static_cast<unsigned>(state.range(0));
  o.max_nodes = 50'000'000;
  EngineStats stats;
  for (auto _ : state) {
    auto r = worst_case_hockey_stick(g, Rational(2), o);
    stats = r.stats;
    benchmark::DoNotOptimize(r);
  }
  state.counters["nodes"] = static_cast<double>(stats.nodes_visited);
  state.counters["keys"] = static_cast<double>(stats.distinct_keys);
}

void run_naive(benchmark::State& state, const Game& g) {
  const unsigned horizon = static_cast<unsigned>(state.range(0));
  Belief b0, b1;
  for (const auto& [s, p] : g.initial[0]) b0[s] += p;
  for (const auto& [s, p] : g.initial[1]) b1[s] += p;
  std::uint64_t nodes = 0, adversaries = 0;
  for (auto _ : state) {
    Naive n{g, Rational(2)};
    Values v;
    try {
      v = n.all(g.verifier->initial_state(), horizon, b0, b1);
    } catch (const std::length_error& e) {
      state.SkipWithError(e.what());
      return;
    }
    Rational f = 0, b = 0;
    for (const auto& [x, y] : v) {
      if (x > f) f = x;
      if (y > b) b = y;
    }
    state.PauseTiming();
    EngineOptions o;
    o.horizon = horizon;
    auto e = worst_case_hockey_stick(g, Rational(2), o);
    if (e.forward != f || e.backward != b) state.SkipWithError("naive and memoised values differ");
    state.ResumeTiming();
    nodes = n.nodes;
    adversaries = v.size();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["adversaries"] = static_cast<double>(adversaries);
}

void EngineAboveThreshold(benchmark::State& state) { run_engine(state, above_threshold_game()); }
void NaiveAboveThreshold(benchmark::State& state) { run_naive(state, above_threshold_game()); }
void EngineTreeCounterT4(benchmark::State& state) { run_engine(state, tree_counter_game(2)); }
void NaiveTreeCounterT4(benchmark::State& state) { run_naive(state, tree_counter_game(2)); }
void EngineTreeCounterT8(benchmark::State& state) { run_engine(state, tree_counter_game(3)); }
void NaiveTreeCounterT8(benchmark::State& state) { run_naive(state, tree_counter_game(3)); }
void EngineTreeCounterT16(benchmark::State& state) { run_engine(state, tree_counter_game(4)); }

}  // namespace

BENCHMARK(EngineAboveThreshold)->DenseRange(3, 10)->Unit(benchmark::kMillisecond);
// the engine's reach on AboveThreshold (one iteration each)
BENCHMARK(EngineAboveThreshold)->Arg(12)->Arg(13)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(NaiveAboveThreshold)->DenseRange(3, 6)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(EngineTreeCounterT4)->DenseRange(2, 4)->Unit(benchmark::kMillisecond);
BENCHMARK(NaiveTreeCounterT4)->DenseRange(2, 4)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(EngineTreeCounterT8)->Arg(2)->Arg(3)->Arg(4)->Arg(6)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(NaiveTreeCounterT8)->DenseRange(2, 3)->Unit(benchmark::kMillisecond)->Iterations(1);
// the engine's reach: the counter with T = 16 (height 4) at growing horizons
BENCHMARK(EngineTreeCounterT16)->Arg(8)->Arg(12)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(1);
