/// @file
/// The parallel memoised backward induction (internal to game/; THEOREMS.md B.1–B.5).
///
/// Nodes are canonical belief pairs in primitive integer form (memo.hpp) over the bisimulation
/// classes of their level (compiled_game.hpp). The search is a dataflow over the DAG of nodes, on
/// oneTBB's work-stealing scheduler: expanding a node computes the children of every kept action,
/// claims the children not yet in the memo and spawns their expansion, and registers the node as
/// a waiter on every child not yet complete; the last child to complete (or the expansion itself,
/// if all were complete) combines the node's value, completes its entry and wakes its own
/// waiters. No worker ever blocks, and every node is expanded exactly once, so the values, the
/// argmax actions (the earliest maximising action, stop first on ties) and the node counts are the
/// same whatever the number of workers or the order in which they run.
///
/// Nodes that need no search are valued in place and not memoised: no rounds left, no allowed
/// pair, and (with reductions) one world without mass — the views then have mass in one world
/// only, where every functional here is additive over a split, so no continuation can change the
/// stop value.
#pragma once

#include "exactdp/divergence/functionals.hpp"
#include "exactdp/divergence/piecewise_linear.hpp"
#include "exactdp/game/compiled_game.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/game/memo.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"

#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <vector>

namespace exactdp::engine_detail {

// ------------------------------------------------------------------ value functionals
// Each functional gives the value of a leaf with masses (p, q) — p in the direction's own world,
// q in the other — and how values of children combine (Σ over answers, or max for the ratio) and
// rescale (by the scale z of the child's primitive form: degree-1 homogeneity, or not at all).

/// Vλ of BI-δ (B.2): leaf (p − λq)⁺, Σ over answers.
struct HockeyStickAt {
  using Value = Rational;
  static constexpr bool ordered = true;
  Rational lambda;
  Value leaf(const Rational& p, const Rational& q) const { return hockey_stick_term(p, q, lambda); }
  Value zero() const { return 0; }
  void combine(Value& acc, const Value& v, const Rational& z) const {
    if (sgn(v) != 0) acc += z * v;
  }
  Value scale(const Value& v, const Rational& z) const { return z * v; }
};

/// c·f for c > 0 (breakpoints unchanged).
PiecewiseLinear scaled(const PiecewiseLinear& f, const Rational& c);

/// BI over PL functions of λ (B.3): leaf λ ↦ (p − λq)⁺.
struct ProfileFunctional {
  using Value = PiecewiseLinear;
  static constexpr bool ordered = false;
  Value leaf(const Rational& p, const Rational& q) const;
  Value zero() const { return PiecewiseLinear(0); }
  void combine(Value& acc, const Value& v, const Rational& z) const { acc = acc + scaled(v, z); }
  Value scale(const Value& v, const Rational& z) const { return scaled(v, z); }
};

/// Wα of BI-Rényi (B.4): leaf p^α q^{1−α}, Σ over answers.
struct RenyiFunctional {
  using Value = ExtendedRational;
  static constexpr bool ordered = true;
  unsigned long alpha;
  Value leaf(const Rational& p, const Rational& q) const;
  Value zero() const { return ExtendedRational(); }
  void combine(Value& acc, const Value& v, const Rational& z) const { acc = acc + ExtendedRational(z) * v; }
  Value scale(const Value& v, const Rational& z) const { return ExtendedRational(z) * v; }
};

/// The pure-DP ratio (B.5): leaf p/q, max over answers, invariant under scaling.
struct RatioFunctional {
  using Value = ExtendedRational;
  static constexpr bool ordered = true;
  Value leaf(const Rational& p, const Rational& q) const;
  Value zero() const { return ExtendedRational(); }
  void combine(Value& acc, const Value& v, const Rational&) const { acc = std::max(acc, v); }
  Value scale(const Value& v, const Rational&) const { return v; }
};

/// Wα of BI-Rényi for a real α > 1 over certified intervals (B.4, "non-integer α").
struct CertifiedValue {
  bool infinite = false;
  Interval enclosure;
};
struct CertifiedRenyiFunctional {
  using Value = CertifiedValue;
  static constexpr bool ordered = false;  // intervals are not totally ordered: take enclosures of maxima
  Rational alpha;
  Precision precision;
  Value leaf(const Rational& p, const Rational& q) const;
  Value zero() const { return {false, Interval::zero(precision)}; }
  void combine(Value& acc, const Value& v, const Rational& z) const;
  Value scale(const Value& v, const Rational& z) const;
};
CertifiedValue max(const CertifiedValue& a, const CertifiedValue& b);

// ------------------------------------------------------------------ value encodings in the memo

/// Values written into the arena: exact numbers as bytes, other values boxed (a pointer to a copy
/// kept by the solver).
template <class V>
struct ValueCodec {
  static constexpr bool boxed = true;
};
template <>
struct ValueCodec<Rational> {
  static constexpr bool boxed = false;
  static void put(std::vector<std::uint8_t>& out, const Rational& v) { put_rational(out, v); }
  static void get(const std::uint8_t*& p, Rational& v) { get_rational(p, v); }
};
template <>
struct ValueCodec<ExtendedRational> {
  static constexpr bool boxed = false;
  static void put(std::vector<std::uint8_t>& out, const ExtendedRational& v) {
    out.push_back(v.is_infinite() ? 1 : 0);
    if (v.is_finite()) put_rational(out, v.value());
  }
  static void get(const std::uint8_t*& p, ExtendedRational& v) {
    if (*p++ == 1) {
      v = ExtendedRational::infinity();
      return;
    }
    Rational q;
    get_rational(p, q);
    v = ExtendedRational(std::move(q));
  }
};

// ------------------------------------------------------------------ nodes

/// A node in primitive integer form: rounds left, verifier state (local), beliefs over the
/// classes of its level, sorted by class, positive coprime masses.
struct Node {
  unsigned rounds = 0;
  std::uint32_t sigma = 0;
  std::array<std::vector<std::pair<std::uint32_t, Integer>>, 2> belief;
  Integer mass(int b) const {
    Integer s = 0;
    for (const auto& [c, m] : belief[b]) s += m;
    return s;
  }
};

void encode_node(const Node& n, std::vector<std::uint8_t>& out);
void decode_node(const std::uint8_t* p, Node& n);

/// A child before canonicalisation: per world, (class, mass) sorted by class, masses positive.
struct RawChild {
  AnswerId answer = 0;
  std::array<std::vector<std::pair<std::uint32_t, Rational>>, 2> belief;
};

/// The children of @p n under its verifier state's action @p action (an index into pairs[σ]):
/// m_b′(c′) = Σ_c m_b(c)·κ_r(a, c′ | c, x_b) (B.1), one per answer with positive mass, by answer.
void expand_action(const CompiledGame& g, const Node& n, std::uint32_t action, std::vector<RawChild>& out);

/// The primitive integer form of a raw child at @p rounds / @p sigma, and the scale z with
/// raw = z · canonical.
void canonicalise(const RawChild& raw, unsigned rounds, std::uint32_t sigma, Node& out, Rational& z);

/// The root with @p rounds left in primitive form and its scale (from the initial laws).
void root_node(const Game& game, const CompiledGame& g, unsigned rounds, Node& out, Rational& z);

// ------------------------------------------------------------------ the solver

/// Games whose up-front estimate is at most this many memo entries are searched on the calling
/// thread when the thread count is left to the engine (EngineOptions::threads = 0): such a search
/// takes milliseconds (a few microseconds per entry), less than waking a worker pool costs, and a
/// process that runs many small checks (an audit) would otherwise pay the pool on each.
inline constexpr std::uint64_t small_game_entries = 10'000;

/// The search's worker threads: options.threads when set; otherwise 1 for a small game (at most
/// small_game_entries estimated), else every core the process may run on.
inline unsigned search_workers(const EngineOptions& options, std::uint64_t estimate) {
  if (options.threads != 0) return options.threads;
  if (estimate <= small_game_entries) return 1;
  return static_cast<unsigned>(std::max(1, tbb::info::default_concurrency()));
}

/// Memoised backward induction with functional F over a compiled game, both directions at once.
template <class F>
class Solver {
public:
  using Value = typename F::Value;
  using Codec = ValueCodec<Value>;
  /// A node's values (for its primitive form) and argmax actions (indices into pairs[σ], −1 stop).
  struct NodeValue {
    std::array<Value, 2> value;
    std::array<int, 2> action{-1, -1};
  };

  /// @param g         the compiled game (outlives the solver)
  /// @param f         the value functional
  /// @param options   limits and hooks (outlive the solver)
  /// @param where     the entry point named in errors
  /// @param estimate  the up-front estimate of the memo entries (estimate_game_size)
  /// @param workers   the search's worker threads (search_workers): 1 runs every expansion on the
  ///                  calling thread from an explicit stack, with no pool and no task overhead
  /// @param before    the times of the phases before the search (estimate, compilation)
  Solver(const CompiledGame& g, F f, const EngineOptions& options, const char* where, std::uint64_t estimate, unsigned workers,
         const EngineTimings& before = {})
      : start_(std::chrono::steady_clock::now()), g_(g), f_(std::move(f)), options_(options), where_(where), estimate_(estimate),
        workers_(std::max(workers, 1u)), arena_(static_cast<int>(workers_)), arenas_([this] { return Arena(&arena_bytes_); }),
        keys_by_rounds_(g.horizon + 1), timings_(before) {
    timings_.workers = workers_;
    timings_.setup += seconds_since(start_);
  }

  const F& functional() const { return f_; }
  const CompiledGame& game() const { return g_; }
  unsigned horizon() const { return g_.horizon; }

  EngineStats stats() const {
    EngineStats s;
    for (const auto& c : counters_) {
      s.nodes_visited += c.visited;
      s.cache_hits += c.hits;
    }
    s.nodes_visited += roots_;
    s.cache_hits += root_hits_;
    s.distinct_keys = memo_.size();
    s.memo_bytes = arena_bytes_.load() + memo_.table_bytes();
    s.mechanism_states = g_.stats.states;
    s.state_classes = g_.stats.classes;
    s.estimate = estimate_;
    s.timings = timings_;
    for (const auto& c : counters_) s.timings.tasks += c.tasks;
    // the phases before the solver (estimate, compilation) and everything since it was built
    s.timings.total = timings_.estimate + timings_.compile + seconds_since(start_);
    return s;
  }

  /// The value of node @p n (primitive form), searching its subtree on first request.
  NodeValue solve(const Node& n) {
    ++roots_;
    if (terminal(n)) return leaf_value(n);
    std::vector<std::uint8_t> key;
    encode_node(n, key);
    const std::uint64_t h = hash_bytes(key.data(), key.size());
    // not a structured binding: clang before 16 cannot capture one in the lambda below
    const auto found = memo_.find_or_insert(key.data(), key.size(), h, arenas_.local());
    auto* const e = found.first;
    const bool inserted = found.second;
    if (inserted) {
      keys_by_rounds_[n.rounds].fetch_add(1, std::memory_order_relaxed);
      if (workers_ == 1) {
        const auto t0 = std::chrono::steady_clock::now();
        stack_.push_back(e);
        while (!stack_.empty()) {
          Entry* next = stack_.back();
          stack_.pop_back();
          expand(next);
        }
        timings_.search += seconds_since(t0);
      } else {
        const auto t0 = std::chrono::steady_clock::now();
        std::chrono::steady_clock::time_point t1;
        arena_.execute([&] {
          t1 = std::chrono::steady_clock::now();  // the pool has started (the first request pays it)
          tbb::task_group tg;
          group_ = &tg;
          tg.run([this, e] { expand(e); });
          tg.wait();
          group_ = nullptr;
        });
        const auto t2 = std::chrono::steady_clock::now();
        timings_.setup += std::chrono::duration<double>(t1 - t0).count();
        timings_.search += std::chrono::duration<double>(t2 - t1).count();
        if (options_.record_busy_time) sweep_busy_intervals(t1, t2);
      }
    }
    if (!e->is_done()) throw Error(where_, "search", "", "a previous run on this solver was interrupted");
    if (!inserted) ++root_hits_;
    return read(e);
  }

  /// Whether @p n is valued in place (no search below it).
  bool terminal(const Node& n) const {
    if (n.rounds == 0) return true;
    if (g_.reduced && (n.belief[0].empty() || n.belief[1].empty())) return true;
    return g_.kept_actions[n.rounds][n.sigma].empty();
  }
  NodeValue leaf_value(const Node& n) const {
    const Rational p0(n.mass(0)), p1(n.mass(1));
    return NodeValue{{f_.leaf(p0, p1), f_.leaf(p1, p0)}, {-1, -1}};
  }

private:
  struct Child {
    Entry* entry = nullptr;  // nullptr: valued in place
    std::array<Value, 2> value;
    Rational z;
  };

public:
  /// A node being combined: its children per kept action and the count of children not complete.
  struct Work {
    Entry* entry = nullptr;
    Rational mass[2];
    std::vector<std::uint32_t> actions;   // the kept actions, in order
    std::vector<std::size_t> begin;       // children of actions[k]: [begin[k], begin[k+1])
    std::vector<Child> children;
    std::vector<Waiter> links;
    std::atomic<int> remaining{0};
  };

private:
  struct Counters {
    std::uint64_t visited = 0, hits = 0, tasks = 0;
    std::vector<std::pair<std::chrono::steady_clock::time_point, std::chrono::steady_clock::time_point>> busy;  // record_busy_time
    std::deque<std::array<Value, 2>> boxes;  // boxed values of completed entries
    std::deque<Work> works;
    std::vector<Work*> free_works;
    std::vector<RawChild> raw;
    std::vector<std::uint8_t> bytes;
    Node node, child;
  };

  Work* acquire_work(Counters& c) {
    if (!c.free_works.empty()) {
      Work* w = c.free_works.back();
      c.free_works.pop_back();
      return w;
    }
    return &c.works.emplace_back();
  }

  void expand(Entry* e) {
    Counters& c = counters_.local();
    if (options_.record_busy_time && workers_ > 1) {
      const auto t0 = std::chrono::steady_clock::now();
      expand_node(e, c);
      c.busy.emplace_back(t0, std::chrono::steady_clock::now());
      return;
    }
    expand_node(e, c);
  }

  /// Expands one claimed entry: computes and claims its children, spawns the new ones, registers
  /// as their waiter, and combines at once if none is pending.
  void expand_node(Entry* e, Counters& c) {
    Node& n = c.node;
    decode_node(e->key(), n);
    Work* w = acquire_work(c);
    w->entry = e;
    w->mass[0] = n.mass(0);
    w->mass[1] = n.mass(1);
    w->actions.clear();
    w->begin.clear();
    w->children.clear();
    std::size_t pending = 0;
    for (std::uint32_t a : g_.kept_actions[n.rounds][n.sigma]) {
      w->actions.push_back(a);
      w->begin.push_back(w->children.size());
      expand_action(g_, n, a, c.raw);
      const std::uint32_t next_sigma = g_.verifier_next[n.sigma][a];
      for (const RawChild& raw : c.raw) {
        ++c.visited;
        Child& ch = w->children.emplace_back();
        canonicalise(raw, n.rounds - 1, next_sigma, c.child, ch.z);
        if (terminal(c.child)) {
          auto v = leaf_value(c.child);
          ch.value = std::move(v.value);
          continue;
        }
        c.bytes.clear();
        encode_node(c.child, c.bytes);
        const std::uint64_t h = hash_bytes(c.bytes.data(), c.bytes.size());
        auto [ce, inserted] = memo_.find_or_insert(c.bytes.data(), c.bytes.size(), h, arenas_.local());
        ch.entry = ce;
        ++pending;
        if (!inserted) {
          ++c.hits;
          continue;
        }
        keys_by_rounds_[c.child.rounds].fetch_add(1, std::memory_order_relaxed);
        check_limits();
        if (workers_ == 1) {
          stack_.push_back(ce);
        } else {
          ++c.tasks;
          group_->run([this, ce = ce] { expand(ce); });
        }
      }
    }
    w->begin.push_back(w->children.size());
    // wait for the children not complete; the extra count keeps the node until all are registered
    w->links.assign(pending, Waiter{});
    w->remaining.store(static_cast<int>(pending) + 1, std::memory_order_relaxed);
    std::size_t k = 0;
    for (Child& ch : w->children) {
      if (!ch.entry) continue;
      Waiter* link = &w->links[k++];
      link->parent = w;
      Waiter* head = ch.entry->waiters.load(std::memory_order_acquire);
      bool registered = true;
      do {
        if (head == Entry::done()) {
          registered = false;
          break;
        }
        link->next = head;
      } while (!ch.entry->waiters.compare_exchange_weak(head, link, std::memory_order_acq_rel, std::memory_order_acquire));
      if (!registered) w->remaining.fetch_sub(1, std::memory_order_acq_rel);
    }
    if (w->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) combine(w);
  }

  /// All children complete: the node's value, then its entry completes and wakes its waiters.
  void combine(Work* w) {
    Counters& c = counters_.local();
    for (Child& ch : w->children)
      if (ch.entry) ch.value = read(ch.entry).value;
    NodeValue out{{f_.leaf(w->mass[0], w->mass[1]), f_.leaf(w->mass[1], w->mass[0])}, {-1, -1}};
    for (std::size_t k = 0; k < w->actions.size(); ++k) {
      std::array<Value, 2> acc{f_.zero(), f_.zero()};
      for (std::size_t i = w->begin[k]; i < w->begin[k + 1]; ++i)
        for (int d = 0; d < 2; ++d) f_.combine(acc[d], w->children[i].value[d], w->children[i].z);
      for (int d = 0; d < 2; ++d) {
        if constexpr (F::ordered) {
          // stopping is dominated (A.4) but offered: with ties it wins, which keeps witnesses short
          if (acc[d] > out.value[d]) {
            out.value[d] = std::move(acc[d]);
            out.action[d] = static_cast<int>(w->actions[k]);
          }
        } else {
          // PL values and enclosures: the pointwise maximum over the actions (stopping is dominated)
          out.value[d] = k == 0 ? std::move(acc[d]) : max(out.value[d], acc[d]);
        }
      }
    }
    Entry* e = w->entry;
    write(e, out, c);
    w->children.clear();
    c.free_works.push_back(w);
    complete(e);
  }

  void complete(Entry* e) {
    Waiter* w = e->waiters.exchange(Entry::done(), std::memory_order_acq_rel);
    while (w) {
      Waiter* next = w->next;
      Work* parent = static_cast<Work*>(w->parent);
      if (parent->remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) combine(parent);
      w = next;
    }
  }

  void write(Entry* e, NodeValue& v, Counters& c) {
    e->action[0] = v.action[0];
    e->action[1] = v.action[1];
    if constexpr (Codec::boxed) {
      auto& box = c.boxes.emplace_back(std::move(v.value));
      const auto* ptr = &box;
      e->value = arenas_.local().copy(reinterpret_cast<const std::uint8_t*>(&ptr), sizeof ptr);
    } else {
      c.bytes.clear();
      Codec::put(c.bytes, v.value[0]);
      Codec::put(c.bytes, v.value[1]);
      e->value = arenas_.local().copy(c.bytes.data(), c.bytes.size());
    }
  }

  NodeValue read(const Entry* e) const {
    NodeValue v;
    v.action = {e->action[0], e->action[1]};
    if constexpr (Codec::boxed) {
      const std::array<Value, 2>* ptr = nullptr;
      std::memcpy(&ptr, e->value, sizeof ptr);
      v.value = *ptr;
    } else {
      const std::uint8_t* p = e->value;
      Codec::get(p, v.value[0]);
      Codec::get(p, v.value[1]);
    }
    return v;
  }

public:
  /// The memo entry's value of a node that was solved (or is terminal).
  NodeValue lookup(const Node& n) const {
    if (terminal(n)) return leaf_value(n);
    std::vector<std::uint8_t> key;
    encode_node(n, key);
    const Entry* e = memo_.find(key.data(), key.size(), hash_bytes(key.data(), key.size()));
    if (!e || !e->is_done()) throw Error(where_, "search", "", "a node below a solved node is missing from the memo");
    return read(e);
  }

private:
  static double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }

  /// The busy intervals the workers recorded during one search [from, to], swept in time order:
  /// how long no worker, exactly one, and more were expanding nodes (EngineTimings).
  void sweep_busy_intervals(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
    timings_.busy_recorded = true;
    std::vector<std::pair<std::chrono::steady_clock::time_point, int>> events;
    for (auto& c : counters_) {
      for (const auto& [b, e] : c.busy) {
        events.emplace_back(b, +1);
        events.emplace_back(e, -1);
        timings_.busy += std::chrono::duration<double>(e - b).count();
      }
      c.busy.clear();
    }
    std::sort(events.begin(), events.end());
    int busy = 0;
    auto at = from;
    auto account = [&](std::chrono::steady_clock::time_point t) {
      const double d = std::chrono::duration<double>(t - at).count();
      if (busy == 0) timings_.none_busy += d;
      else if (busy == 1) timings_.one_busy += d;
      at = t;
    };
    for (const auto& [t, step] : events) {
      account(t);
      busy += step;
    }
    account(to);
  }

  void check_limits() {
    const std::uint64_t keys = memo_.size();
    if (keys > options_.max_nodes) throw GameTooLarge(where_, estimate_, options_.max_nodes);
    if ((keys & 1023) == 0) {
      const std::uint64_t bytes = arena_bytes_.load(std::memory_order_relaxed) + memo_.table_bytes();
      if (bytes > options_.max_bytes)
        throw GameTooLarge(where_, bytes, options_.max_bytes, "bytes of memo (the run reached the memory budget)", "max_bytes", "--max-memory");
      if ((keys & 8191) == 0 && options_.progress) report(keys, bytes);
    }
  }

  void report(std::uint64_t keys, std::uint64_t bytes) {
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    if (t < 2.0 || t - last_report_.load() < 1.0) return;
    std::unique_lock<std::mutex> lock(report_lock_, std::try_to_lock);
    if (!lock.owns_lock() || t - last_report_.load() < 1.0) return;
    last_report_.store(t);
    EngineProgress p;
    p.seconds = t;
    p.keys = keys;
    for (const auto& k : keys_by_rounds_) p.keys_by_rounds.push_back(k.load(std::memory_order_relaxed));
    p.keys_per_second = static_cast<double>(keys) / t;
    p.bytes = bytes;
    p.estimate = estimate_;
    options_.progress(p);
  }

  std::chrono::steady_clock::time_point start_;
  const CompiledGame& g_;
  F f_;
  const EngineOptions& options_;
  const char* where_;
  std::uint64_t estimate_;
  unsigned workers_;
  std::vector<Entry*> stack_;  // the claimed entries not yet expanded, with one worker
  tbb::task_arena arena_;
  tbb::task_group* group_ = nullptr;
  std::atomic<std::uint64_t> arena_bytes_{0};
  tbb::enumerable_thread_specific<Arena> arenas_;
  tbb::enumerable_thread_specific<Counters> counters_;
  Memo memo_;
  std::vector<std::atomic<std::uint64_t>> keys_by_rounds_;
  std::uint64_t roots_ = 0, root_hits_ = 0;
  EngineTimings timings_;
  std::atomic<double> last_report_{0};
  std::mutex report_lock_;
};

}  // namespace exactdp::engine_detail
