// The game engine's scaling on this machine (issue 18), ratios measured in one run:
//
//  * parallel speed-up: check "(ln 16, 0)-DP" on the svt-counter game (spec/mechanisms/above-threshold.json,
//    HSV Alg. 3) at horizon 7 with 1 worker and with 2 (best of three each, after a warm-up run), wall time and CPU time, and the ratio
//    t(1 worker) / t(2 workers); the values, the node counts and the verdicts must agree;
//  * reach: the svt-counter game at horizons 7 and 9, the tree counter T = 16 and T = 32 (full
//    horizon) and library AboveThreshold (3 margins) at growing query counts until one run takes
//    over 60 s, each with its time, memo entries and memo bytes per entry.
//
//  * --split: the game split into subgames (split_game, docs/scaling.md): for the svt-counter game
//    at horizon 7 (or the argument), each split depth and number of batches, the memo entries summed over the
//    batches (each solved with its own memo, as one Dask task) against one whole run's — the work
//    the split duplicates — and the join checked equal to the whole run.
//
// Run: build/rel/bench/exactdp_engine_scaling [--quick] [--stats] | --split [H] | --above-threshold [Q] | --small | --estimate  (--quick:
// the speed-up only; --stats: where the time of the speed-up runs went — the phases on one thread,
// the tasks, the time with one worker busy — and the serial fraction; --above-threshold [Q]: the
// AboveThreshold rows only, from Q queries (default 8) to 20 or Q at most; --small: the CPU per
// check of a tiny game checked 2 000 times in one process; --estimate: the up-front size estimate of the bench's
// games and beyond — svt-counter to horizon 12, tree counter to T = 64 — its work, its CPU time and that of a
// refusal). A game refused on its estimate ends its sweep
// with a row giving the estimate and the limit.
// Benchmarks are not tests: this prints, it asserts only that the runs agree.
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <ctime>
#include <functional>
#include <limits>
#include <string>

namespace {

using namespace exactdp;

struct Timed {
  double wall = 0, cpu = 0;
  ClaimCheck check;
};

double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

Timed run(const Game& g, const Rational& lambda, unsigned horizon, unsigned threads, bool record_busy = false) {
  EngineOptions o;
  o.horizon = horizon;
  o.threads = threads;
  o.record_busy_time = record_busy;
  const auto w0 = std::chrono::steady_clock::now();
  const double c0 = process_cpu_seconds();
  Timed t;
  t.check = check_approximate_dp(g, lambda, 0, o);
  t.cpu = process_cpu_seconds() - c0;
  t.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  return t;
}

void row(const char* name, const Timed& t) {
  const auto& s = t.check.stats;
  std::printf("| %-38s | %8.2f | %8.2f | %10llu | %6.1f | %s |\n", name, t.wall, t.cpu, static_cast<unsigned long long>(s.distinct_keys),
              s.distinct_keys ? static_cast<double>(s.memo_bytes) / static_cast<double>(s.distinct_keys) : 0.0,
              t.check.holds ? "holds" : "refuted");
  std::fflush(stdout);
}

/// A row of a game the engine refused up front (its estimate over a limit): the estimate and the
/// limit instead of the figures of a run.
void refused_row(const char* name, const GameTooLarge& e) {
  const char* unit = e.field() == "max_bytes" ? "bytes" : "pairs";
  std::printf("| %-38s | refused: estimate %llu %s > limit %llu (EngineOptions::%s) | | | | |\n", name,
              static_cast<unsigned long long>(e.estimate()), unit, static_cast<unsigned long long>(e.limit()), e.field().c_str());
  std::fflush(stdout);
}

/// Library AboveThreshold at growing query counts, until one run takes over @p seconds, @p last
/// queries are done, or the engine refuses the game on its estimate (printed as the last row).
void above_threshold_rows(const library::SparseVectorParams& p, double seconds, unsigned first, unsigned last) {
  for (unsigned queries = first; queries <= last; ++queries) {
    const std::string name = "AboveThreshold lambda 16, " + std::to_string(queries) + " queries";
    try {
      const Timed t = run(library::above_threshold(p, -1, 1), 16, queries, 0);
      row(name.c_str(), t);
      if (t.wall > seconds) return;
    } catch (const GameTooLarge& e) {
      refused_row(name.c_str(), e);
      return;
    }
  }
}

double load_average() {
  double l = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &l) != 1) l = -1;
    std::fclose(f);
  }
  return l;
}

/// Where one run's wall time went (EngineTimings), as a table row.
void timings_row(unsigned workers, const Timed& t) {
  const EngineTimings& x = t.check.stats.timings;
  const double other = x.total - x.estimate - x.compile - x.setup - x.search;
  std::printf("| %u | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %llu | %.1f | %.3f | %.3f | %.3f |\n", workers, t.wall, t.cpu,
              x.estimate, x.compile, x.setup, x.search, other, t.wall - x.total, static_cast<unsigned long long>(x.tasks),
              x.tasks ? 1e6 * x.busy / static_cast<double>(x.tasks) : 0.0, x.busy, x.one_busy, x.none_busy);
}

/// The serial fraction of the 2-worker run by instrumentation (EngineTimings::serial_fraction,
/// the figure `exactdp check --stats` prints): the time with at most one thread busy — the phases
/// on the calling thread and the search time with one worker or none expanding nodes — against
/// the work, that serial time plus twice the time both workers were busy; Amdahl's prediction on
/// 2 cores follows. From the 1-worker run's phases, the prediction with a perfectly parallel search.
void serial_fraction(const Timed& one, const Timed& two) {
  const EngineTimings& a = one.check.stats.timings;
  const EngineTimings& b = two.check.stats.timings;
  const double outside = b.total - b.search, starved = b.one_busy + b.none_busy;
  std::printf("\n2 workers: %.3f s with at most one thread working (%.3f s outside the search, %.3f s of the search with one "
              "worker busy, %.3f s with none), %.3f s with both\n",
              b.serial(), outside, b.one_busy, b.none_busy, b.search - starved);
  std::printf("serial fraction f = %.1f %%; Amdahl on 2 cores: 1 / (f + (1 - f)/2) = %.2f\n", 100 * b.serial_fraction(), b.amdahl_speedup(2));
  // with one worker everything runs on one thread, so the share of the phases outside the search
  // is a ratio within one run (load inflates them alike)
  std::printf("1 worker: %.3f s outside the search, %.3f s of search (f1 = %.1f %%); 1 / (f1 + (1 - f1)/2) = %.2f\n", a.total - a.search,
              a.search, 100 * a.serial_fraction(), a.amdahl_speedup(2));
}

}  // namespace

int split_bench(const Game& svt, unsigned horizon) {
  EngineOptions o;
  o.horizon = horizon;
  o.threads = 1;
  const Timed whole = run(svt, 16, horizon, 1);
  const auto& ws = whole.check.stats;
  std::printf("svt-counter lambda 16, horizon %u, whole run: %llu memo entries, %llu nodes visited, %.2f s CPU\n\n", horizon,
              static_cast<unsigned long long>(ws.distinct_keys), static_cast<unsigned long long>(ws.nodes_visited), whole.cpu);
  std::printf("| depth | frontier | above | batches | grouping | entries summed over batches | duplication | largest batch | CPU s summed |\n"
              "|---|---|---|---|---|---|---|---|---|\n");
  for (unsigned depth = 1; depth <= 3; ++depth) {
    const GameSplit split = split_game(svt, depth, o);
    // one task per frontier node only while that is cheap: each task pays the mechanism's compilation
    std::vector<std::size_t> counts{2, 8, 32};
    if (split.frontier.size() <= 200) counts.push_back(split.frontier.size());
    for (std::size_t batches : counts) {
      if (batches > split.frontier.size()) continue;
      for (int grouping = 0; grouping < (batches == split.frontier.size() ? 1 : 2); ++grouping) {
        std::vector<std::vector<GameHistory>> groups(batches);
        const std::size_t size = (split.frontier.size() + batches - 1) / batches;
        for (std::size_t i = 0; i < split.frontier.size(); ++i) groups[grouping == 0 ? i / size : i % batches].push_back(split.frontier[i]);
        std::uint64_t sum = 0, largest = 0;
        std::vector<std::array<Rational, 2>> values(split.frontier.size());
        const double c0 = process_cpu_seconds();
        for (std::size_t b = 0; b < groups.size(); ++b) {
          if (groups[b].empty()) continue;
          const auto r = worst_case_hockey_stick_at(svt, groups[b], 16, o);
          sum += r.stats.distinct_keys;
          largest = std::max<std::uint64_t>(largest, r.stats.distinct_keys);
          for (std::size_t k = 0; k < groups[b].size(); ++k) values[grouping == 0 ? b * size + k : k * batches + b] = r.values[k];
        }
        const double cpu = process_cpu_seconds() - c0;
        const auto joined = join_split(svt, depth, 16, values, o);
        if (joined.forward != whole.check.delta_forward || joined.backward != whole.check.delta_backward) {
          std::printf("ERROR: the split at depth %u disagrees with the whole run\n", depth);
          return 1;
        }
        std::printf("| %u | %zu | %llu | %zu | %s | %llu | %.2f | %llu | %.2f |\n", depth, split.frontier.size(),
                    static_cast<unsigned long long>(split.top_nodes), batches, grouping == 0 ? "contiguous" : "round robin",
                    static_cast<unsigned long long>(sum), static_cast<double>(sum) / static_cast<double>(ws.distinct_keys),
                    static_cast<unsigned long long>(largest), cpu);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

/// The cost of many small checks in one process (an audit's pattern): 2 000 checks of sticky RR at
/// horizon 3 (5 memo entries), CPU per check, with the thread count left to the engine (one, no
/// pool) and with a pool of two forced.
int small_bench() {
  const Game g = library::sticky_randomized_response(Rational(3), 2);
  for (unsigned threads : {0u, 2u}) {
    EngineOptions o;
    o.horizon = 3;
    o.threads = threads;
    const ClaimCheck first = check_approximate_dp(g, 8, 0, o);
    const double c0 = process_cpu_seconds();
    const auto w0 = std::chrono::steady_clock::now();
    for (int i = 0; i < 2000; ++i) (void)check_approximate_dp(g, 8, 0, o);
    const double cpu = process_cpu_seconds() - c0;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    std::printf("sticky RR, horizon 3, --threads %u: %llu memo entries, %u worker(s); 2000 checks %.3f s CPU, %.3f s wall: "
                "%.1f us CPU per check (load average %.2f)\n",
                threads, static_cast<unsigned long long>(first.stats.distinct_keys), first.stats.timings.workers, cpu, wall,
                1e6 * cpu / 2000, load_average());
  }
  return 0;
}

/// The up-front estimate (estimate_game, default limits) of the bench's games, with the work it
/// spent and its CPU time (with the compilation, for a game below the limits), and for a game it
/// refuses the CPU time of the refusal itself (a check that stops with GameTooLarge before
/// searching). Each game is built afresh, so the mechanism's lazily filled step cache is paid as a
/// first run pays it. The real entries of the games that fit
/// are those of the table of the full run (bench/README.md).
int estimate_bench() {
  library::SparseVectorParams p;
  p.r_threshold = Rational(1, 4);
  p.r_query = Rational(1, 2);
  struct Case {
    std::string name;
    std::function<Game()> make;
    unsigned horizon;
    Rational lambda;
  };
  std::vector<Case> cases;
  // games that fit are compiled by the estimate (its second stage): the larger ones (svt-counter
  // horizons 9–10, T = 32: 20–80 s of kernels) are left to the full table
  for (unsigned h : {7u, 11u, 12u})
    cases.push_back({"svt-counter lambda 16, horizon " + std::to_string(h), [p] { return library::svt_counter(p, {0, 1, 2}); }, h, 16});
  for (unsigned height : {4u, 6u})
    cases.push_back({"tree counter T = " + std::to_string(1u << height), [height] { return library::binary_tree_counter(height, Rational(1, 2)); },
                     1u << height, Rational(2u << height)});
  cases.push_back({"AboveThreshold, 16 queries", [p] { return library::above_threshold(p, -1, 1); }, 16, 16});
  std::printf("load average before: %.2f\n\n| game | estimate | levels measured | products | compiled | over | CPU s of the estimate | CPU s of the refusal |\n"
              "|---|---|---|---|---|---|---|---|\n", load_average());
  for (const Case& c : cases) {
    EngineOptions o;
    o.horizon = c.horizon;
    double c0 = process_cpu_seconds();
    const GameSizeEstimate e = estimate_game(c.make(), o);
    const double estimate_cpu = process_cpu_seconds() - c0;
    std::string levels;
    for (std::size_t t = 0; t < e.levels.size(); ++t) levels += (t ? " " : "") + std::to_string(e.levels[t]);
    std::string refusal = "-";
    if (!e.over.empty()) {
      c0 = process_cpu_seconds();
      try {
        (void)check_approximate_dp(c.make(), c.lambda, 0, o);
        refusal = "not refused";
      } catch (const GameTooLarge&) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3f", process_cpu_seconds() - c0);
        refusal = buf;
      }
    }
    std::printf("| %s | %llu | %s | %llu | %s | %s | %.3f | %s |\n", c.name.c_str(), static_cast<unsigned long long>(e.entries), levels.c_str(),
                static_cast<unsigned long long>(e.products), e.compiled ? "yes" : "no", e.over.empty() ? "-" : e.over.c_str(), estimate_cpu,
                refusal.c_str());
    std::fflush(stdout);
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--small") == 0) return small_bench();
  if (argc > 1 && std::strcmp(argv[1], "--estimate") == 0) return estimate_bench();
  bool quick = false, stats = false;
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    stats = stats || std::strcmp(argv[i], "--stats") == 0;
  }
  library::SparseVectorParams p;
  p.r_threshold = Rational(1, 4);
  p.r_query = Rational(1, 2);
  const Game svt = library::svt_counter(p, {0, 1, 2});
  if (argc > 1 && std::strcmp(argv[1], "--split") == 0) return split_bench(svt, argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 7);

  const bool only_at = argc > 1 && std::strcmp(argv[1], "--above-threshold") == 0;
  if (only_at) {
    std::printf("| game | wall s | CPU s | memo entries | bytes/entry | verdict |\n|---|---|---|---|---|---|\n");
    const unsigned first = argc > 2 ? static_cast<unsigned>(std::atoi(argv[2])) : 8;
    above_threshold_rows(p, 60, first, std::max(first, 20u));
    return 0;
  }
  std::printf("load average before: %.2f (other processes share the cores; CPU time is the steadier figure)\n\n", load_average());
  // a first untimed run fills the mechanism's own step cache (library mechanisms compute their
  // kernels lazily), so both timed runs explore the same cached mechanism; best of three each
  (void)run(svt, 16, 7, 1);
  Timed one = run(svt, 16, 7, 1), two = run(svt, 16, 7, 2);
  for (int i = 0; i < 2; ++i) {
    Timed a = run(svt, 16, 7, 1), b = run(svt, 16, 7, 2);
    if (a.wall < one.wall) one = a;
    if (b.wall < two.wall) two = b;
  }
  if (one.check.delta_forward != two.check.delta_forward || one.check.stats.distinct_keys != two.check.stats.distinct_keys ||
      one.check.stats.nodes_visited != two.check.stats.nodes_visited) {
    std::printf("ERROR: 1 and 2 workers disagree\n");
    return 1;
  }
  std::printf("svt-counter, lambda 16, horizon 7: 1 worker %.2f s wall (%.2f s CPU), 2 workers %.2f s wall (%.2f s CPU)\n", one.wall,
              one.cpu, two.wall, two.cpu);
  std::printf("speed-up t(1 worker) / t(2 workers) = %.2f (wall); work inflation CPU(2) / CPU(1) = %.2f\n", one.wall / two.wall,
              two.cpu / one.cpu);
  std::printf("load average after: %.2f\n", load_average());
  if (stats) {
    // three more runs each with the workers' busy intervals recorded (two clock reads per task);
    // the fastest of each is shown, the least disturbed by other processes
    Timed a = run(svt, 16, 7, 1, true), b = run(svt, 16, 7, 2, true);
    for (int i = 0; i < 2; ++i) {
      Timed x = run(svt, 16, 7, 1, true), y = run(svt, 16, 7, 2, true);
      if (x.wall < a.wall) a = x;
      if (y.wall < b.wall) b = y;
    }
    std::printf("\nwhere the time went (seconds; other = the run's total - the phases: the root, reading the values; after = wall - "
                "the run's total: freeing the memo)\n\n"
                "| workers | wall | CPU | estimate | compile | setup | search | other | after | tasks | us/task | busy | one busy | none busy |\n"
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    timings_row(1, a);
    timings_row(2, b);
    serial_fraction(a, b);
    std::printf("load average after: %.2f\n", load_average());
  }
  if (quick) return 0;

  std::printf("\n| game | wall s | CPU s | memo entries | bytes/entry | verdict |\n|---|---|---|---|---|---|\n");
  row("svt-counter lambda 16, horizon 7", run(svt, 16, 7, 0));
  row("svt-counter lambda 16, horizon 9", run(svt, 16, 9, 0));
  row("tree counter T = 16, lambda 32", run(library::binary_tree_counter(4, Rational(1, 2)), 32, 16, 0));
  row("tree counter T = 32, lambda 64", run(library::binary_tree_counter(5, Rational(1, 2)), 64, 32, 0));
  above_threshold_rows(p, 60, 8, std::numeric_limits<unsigned>::max());
  return 0;
}
