#include "exactdp/game/engine.hpp"

#include "exactdp/game/compiled_game.hpp"
#include "exactdp/game/oblivious.hpp"
#include "exactdp/game/search.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include <sys/resource.h>

namespace exactdp {

GameTooLarge::GameTooLarge(const std::string& where, std::uint64_t estimate, std::uint64_t limit, const std::string& what,
                           const std::string& field, const std::string& flag)
    : Error(where, field, std::to_string(limit),
            "the game needs about " + std::to_string(estimate) + " " + what + ", over the limit " + std::to_string(limit) +
                "; raise EngineOptions::" + field + " (" + flag + ") or lower the horizon"),
      estimate_(estimate), limit_(limit) {}

namespace engine_detail {

// ------------------------------------------------------------------ functionals (out of line)

PiecewiseLinear scaled(const PiecewiseLinear& f, const Rational& c) {
  std::vector<LinearPiece> pieces = f.pieces();
  for (auto& piece : pieces) {
    piece.intercept *= c;
    piece.slope *= c;
  }
  return PiecewiseLinear::from_trusted_pieces(std::move(pieces));
}

PiecewiseLinear ProfileFunctional::leaf(const Rational& p, const Rational& q) const {
  if (sgn(p) == 0) return PiecewiseLinear(0);
  if (sgn(q) == 0) return PiecewiseLinear(p);
  return PiecewiseLinear::from_trusted_pieces({{Rational(0), p, Rational(-q)}, {Rational(p / q), Rational(0), Rational(0)}});
}

ExtendedRational RenyiFunctional::leaf(const Rational& p, const Rational& q) const { return renyi_term(p, q, alpha); }

ExtendedRational RatioFunctional::leaf(const Rational& p, const Rational& q) const {
  if (sgn(p) == 0) return ExtendedRational();
  if (sgn(q) == 0) return ExtendedRational::infinity();
  return ExtendedRational(Rational(p / q));
}

CertifiedValue max(const CertifiedValue& a, const CertifiedValue& b) {
  if (a.infinite) return a;
  if (b.infinite) return b;
  return {false, exactdp::max(a.enclosure, b.enclosure)};
}

CertifiedValue CertifiedRenyiFunctional::leaf(const Rational& p, const Rational& q) const {
  if (sgn(p) == 0) return zero();
  if (sgn(q) == 0) return {true, Interval::zero(precision)};
  return {false, renyi_term(p, q, alpha, precision)};  // divergence/functionals.hpp
}

void CertifiedRenyiFunctional::combine(CertifiedValue& acc, const CertifiedValue& v, const Rational& z) const {
  if (acc.infinite || v.infinite) {
    acc.infinite = true;
    return;
  }
  acc.enclosure += Interval(z, precision) * v.enclosure;
}

CertifiedValue CertifiedRenyiFunctional::scale(const CertifiedValue& v, const Rational& z) const {
  if (v.infinite) return v;
  return {false, Interval(z, precision) * v.enclosure};
}

// ------------------------------------------------------------------ nodes

void encode_node(const Node& n, std::vector<std::uint8_t>& out) {
  put_varint(out, n.rounds);
  put_varint(out, n.sigma);
  put_varint(out, n.belief[0].size());
  put_varint(out, n.belief[1].size());
  for (int b = 0; b < 2; ++b)
    for (const auto& [c, m] : n.belief[b]) put_varint(out, c);
  for (int b = 0; b < 2; ++b)
    for (const auto& [c, m] : n.belief[b]) put_integer(out, m);
}

void decode_node(const std::uint8_t* p, Node& n) {
  n.rounds = static_cast<unsigned>(get_varint(p));
  n.sigma = static_cast<std::uint32_t>(get_varint(p));
  std::size_t size[2];
  size[0] = static_cast<std::size_t>(get_varint(p));
  size[1] = static_cast<std::size_t>(get_varint(p));
  for (int b = 0; b < 2; ++b) {
    n.belief[b].resize(size[b]);
    for (auto& [c, m] : n.belief[b]) c = static_cast<std::uint32_t>(get_varint(p));
  }
  for (int b = 0; b < 2; ++b)
    for (auto& [c, m] : n.belief[b]) get_integer(p, m);
}

void expand_action(const CompiledGame& g, const Node& n, std::uint32_t action, std::vector<RawChild>& out) {
  // one row per (world, class, kernel row); the masses live in a per-thread pool that is reused,
  // so the hot loop assigns into existing GMP numbers instead of allocating new ones
  struct Row {
    AnswerId answer;
    int world;
    std::uint32_t cls;
    std::uint32_t mass;  // index into masses
  };
  thread_local std::vector<Row> rows;
  thread_local std::vector<Rational> masses;
  thread_local Rational um;
  rows.clear();
  const MessagePair& pair = g.pairs[n.sigma][action];
  for (int b = 0; b < 2; ++b) {
    const auto slot = static_cast<std::uint32_t>(g.slot_of[b == 0 ? pair.world0 : pair.world1]);
    for (const auto& [c, u] : n.belief[b]) {
      mpq_set_z(um.get_mpq_t(), u.get_mpz_t());
      const auto [first, last] = g.rows(n.rounds, c, slot);
      for (const auto* r = first; r != last; ++r) {
        const auto i = static_cast<std::uint32_t>(rows.size());
        if (i == masses.size()) masses.emplace_back();
        mpq_mul(masses[i].get_mpq_t(), um.get_mpq_t(), g.probs[r->prob].get_mpq_t());
        rows.push_back({r->answer, b, r->next, i});
      }
    }
  }
  std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) {
    return std::tie(x.answer, x.world, x.cls) < std::tie(y.answer, y.world, y.cls);
  });
  std::size_t count = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (count == 0 || out[count - 1].answer != rows[i].answer) {
      if (count == out.size()) out.emplace_back();
      RawChild& c = out[count++];
      c.answer = rows[i].answer;
      c.belief[0].clear();
      c.belief[1].clear();
    }
    auto& belief = out[count - 1].belief[rows[i].world];
    if (!belief.empty() && belief.back().first == rows[i].cls) belief.back().second += masses[rows[i].mass];
    else belief.emplace_back(rows[i].cls, masses[rows[i].mass]);
  }
  out.resize(count);
}

void canonicalise(const RawChild& raw, unsigned rounds, std::uint32_t sigma, Node& out, Rational& z) {
  out.rounds = rounds;
  out.sigma = sigma;
  thread_local Integer l, g, t;
  l = 1;
  g = 0;
  for (int b = 0; b < 2; ++b)
    for (const auto& [c, m] : raw.belief[b]) mpz_lcm(l.get_mpz_t(), l.get_mpz_t(), m.get_den_mpz_t());
  for (int b = 0; b < 2; ++b) {
    out.belief[b].resize(raw.belief[b].size());
    for (std::size_t i = 0; i < raw.belief[b].size(); ++i) {
      const auto& [c, m] = raw.belief[b][i];
      mpz_divexact(t.get_mpz_t(), l.get_mpz_t(), m.get_den_mpz_t());
      out.belief[b][i].first = c;
      mpz_mul(out.belief[b][i].second.get_mpz_t(), t.get_mpz_t(), m.get_num_mpz_t());
      mpz_gcd(g.get_mpz_t(), g.get_mpz_t(), out.belief[b][i].second.get_mpz_t());
    }
  }
  if (sgn(g) == 0) g = 1;
  for (int b = 0; b < 2; ++b)
    for (auto& [c, m] : out.belief[b]) mpz_divexact(m.get_mpz_t(), m.get_mpz_t(), g.get_mpz_t());
  z = Rational(g, l);
  z.canonicalize();
}

void root_node(const Game& game, const CompiledGame& g, unsigned rounds, Node& out, Rational& z) {
  RawChild raw;
  for (int b = 0; b < 2; ++b) {
    std::map<std::uint32_t, Rational> m;
    for (const auto& [s, p] : game.initial[b]) m[g.class_at(rounds, s)] += p;
    for (auto& [c, p] : m) raw.belief[b].emplace_back(c, p);
  }
  canonicalise(raw, rounds, g.verifier_initial, out, z);
}

/// The children of the belief pair @p belief under the message pair @p act, straight from the
/// mechanism (no compiled game): m_b′(c′) = Σ_c m_b(c)·κ(a, c′ | c, x_b) (THEOREMS.md B.1), one
/// RawChild per answer, by answer, zero masses dropped. Used by the up-front estimate and by the
/// split of a game at a depth, which both walk the unreduced game's first levels. Adds to
/// @p products (when given) the number of (state, transition) products formed.
static std::vector<RawChild> belief_children(const InteractiveMechanism& mech,
                                             const std::array<std::vector<std::pair<std::uint32_t, Integer>>, 2>& belief,
                                             const MessagePair& act, std::uint64_t* products = nullptr) {
  std::map<AnswerId, std::array<std::map<StateId, Rational>, 2>> acc;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, u] : belief[b]) {
      const auto& step = mech.step(s, b == 0 ? act.world0 : act.world1);
      if (products) *products += step.size();
      for (const auto& tr : step) acc[tr.answer][b][tr.next] += Rational(u) * tr.probability;
    }
  std::vector<RawChild> out;
  out.reserve(acc.size());
  for (auto& [a, beliefs] : acc) {
    RawChild raw;
    raw.answer = a;
    for (int b = 0; b < 2; ++b)
      for (auto& [s, p] : beliefs[b])
        if (sgn(p) != 0) raw.belief[b].emplace_back(s, std::move(p));
    out.push_back(std::move(raw));
  }
  return out;
}

namespace {

// ------------------------------------------------------------------ the up-front estimate

/// What one measurement of the first levels may spend. Counts, not seconds: the estimate, and so
/// whether a game is refused, is the same on every machine and under any load. Work is counted in
/// *products*: one (state or class, kernel row) pair multiplied while a node is expanded, the unit
/// of an expansion's cost.
struct LevelBudget {
  std::size_t level_nodes = 0;  ///< a level is expanded only while it has at most this many nodes ...
  std::uint64_t products = 0;   ///< ... and the products of the levels expanded stay within this
};

/// The first measurement, on the unreduced game before anything is compiled. It runs on one thread
/// before the search and repeats the search's first levels, so it is kept small: with a cap of
/// 20 000 nodes it enumerated the svt-counter game at horizon 7 almost whole, a third of the run on
/// one core (bench/engine_scaling --stats). At 2 000 nodes it costs tens of milliseconds and the
/// extrapolation is no worse on the bench's games (docs/engine.md gives the figures). The products
/// bound stops a mechanism with wide kernels (many states per belief, many transitions per state)
/// after about 0.2 s of CPU on the bench machine (about 2 µs per product through the mechanism's
/// own step function and ordered maps; the svt-counter game spends 21 000 products, the tree
/// counter 29 000, AboveThreshold 52 000 before the node cap stops them).
constexpr LevelBudget first_budget{2'000, 100'000};
/// The second measurement, on the compiled game (first_levels_compiled), is made within
/// first_budget for a game under the limits, and within this larger budget for a game over a limit
/// on the first: there the estimate decides a refusal, so it measures further.
constexpr LevelBudget recheck_budget{20'000, 800'000};
/// The compilation that allows the second measurement is bounded too, so that a refusal takes
/// under a second: at most this many mechanism states, this many kernels read from the mechanism
/// (a step of the library's sparse-vector mechanisms costs 60–170 µs on the bench machine: 10 000
/// of them about a second), and this many kernel rows times the levels refined (the partition
/// refinement reads every row once per level). Past it the unreduced estimate stands.
constexpr std::uint64_t recheck_states = 1'000'000;
constexpr std::uint64_t recheck_steps = 10'000;
constexpr std::uint64_t recheck_row_levels = 20'000'000;

/// Exact key counts of the first levels.
struct LevelCounts {
  std::vector<std::uint64_t> keys;  // keys[t]: distinct canonical nodes after t rounds
  double bytes_per_key = 0;         // mean key bytes of the last level
  std::uint64_t products = 0;       // spent on the levels kept
};

/// Whether the next level (of @p size nodes) may be expanded under @p budget: it is small enough,
/// and its products, predicted from the last level's products per node, fit in what is left.
bool may_expand(const LevelCounts& c, std::size_t size, std::uint64_t last_products, std::size_t last_size, const LevelBudget& budget) {
  if (size > budget.level_nodes) return false;
  if (last_size == 0) return c.products <= budget.products;
  const double predicted = static_cast<double>(last_products) / static_cast<double>(last_size) * static_cast<double>(size);
  return static_cast<double>(c.products) + predicted <= static_cast<double>(budget.products);
}

/// The level loop both measurements share. @p out holds the root's level count; from @p level (the
/// root's nodes) each level is expanded by @p expand(node, products, emit), which adds the node's
/// work to products and calls emit(child) with every canonical child worth counting, and its
/// distinct keys are counted, until the horizon, an empty level, or a level that does not fit
/// @p budget: such a level is dropped whole, since a partial level is no count.
template <class Expand>
void count_levels(LevelCounts& out, std::vector<Node> level, unsigned horizon, const LevelBudget& budget, const Expand& expand) {
  std::vector<std::uint8_t> bytes;
  std::uint64_t last_products = 0;
  std::size_t last_size = 0;
  for (unsigned t = 0; t + 1 < horizon && !level.empty(); ++t) {
    if (!may_expand(out, level.size(), last_products, last_size, budget)) break;
    std::unordered_set<std::string> seen;
    std::vector<Node> next;
    std::uint64_t key_bytes = 0, products = 0;
    bool whole = true;
    auto emit = [&](Node&& child) {
      bytes.clear();
      encode_node(child, bytes);
      if (seen.emplace(bytes.begin(), bytes.end()).second) {
        key_bytes += bytes.size();
        next.push_back(std::move(child));
      }
    };
    for (const Node& n : level) {
      expand(n, products, emit);
      if (out.products + products > budget.products) {
        whole = false;
        break;
      }
    }
    if (!whole) break;
    out.products += products;
    last_products = products;
    last_size = level.size();
    out.keys.push_back(next.size());
    if (!next.empty()) out.bytes_per_key = static_cast<double>(key_bytes) / static_cast<double>(next.size());
    level = std::move(next);
  }
}

/// Exact key counts of the first levels of the unreduced game: children through the mechanism's
/// own step (belief_children), canonical beliefs keyed with the verifier state.
LevelCounts first_levels(const Game& game, unsigned horizon, const LevelBudget& budget = first_budget) {
  const InteractiveMechanism& mech = *game.mechanism;
  const Verifier& ver = *game.verifier;
  std::vector<Node> level(1);
  {
    RawChild raw;
    for (int b = 0; b < 2; ++b) {
      std::map<std::uint32_t, Rational> m;
      for (const auto& [s, p] : game.initial[b]) m[s] += p;
      for (auto& [s, p] : m) raw.belief[b].emplace_back(s, p);
    }
    Rational z;
    canonicalise(raw, 0, ver.initial_state(), level[0], z);
  }
  LevelCounts out;
  out.keys.push_back(1);
  count_levels(out, std::move(level), horizon, budget, [&](const Node& o, std::uint64_t& products, const auto& emit) {
    const auto& acts = ver.allowed(o.sigma);
    for (std::size_t i = 0; i < acts.size(); ++i) {
      const VerifierState ns = ver.next(o.sigma, i);
      for (RawChild& raw : belief_children(mech, o.belief, acts[i], &products)) {
        Node n;
        Rational z;
        canonicalise(raw, 0, ns, n, z);
        emit(std::move(n));
      }
    }
  });
  return out;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

/// Σ over the levels with at least one round left (t < horizon) of the measured or extrapolated
/// key counts. Later levels grow by the smallest factor among the last four measured ones, so a
/// mechanism whose growth is already slowing is not extrapolated at its early rate.
std::uint64_t extrapolate(const LevelCounts& c, unsigned horizon) {
  std::uint64_t total = 0;
  for (unsigned t = 0; t < horizon && t < c.keys.size(); ++t) total = saturating_add(total, c.keys[t]);
  if (c.keys.size() >= horizon) return total;
  double growth = 1e300;
  for (std::size_t t = c.keys.size() - 1; t >= 1 && t + 4 >= c.keys.size(); --t)
    growth = std::min(growth, static_cast<double>(c.keys[t]) / static_cast<double>(std::max<std::uint64_t>(c.keys[t - 1], 1)));
  if (growth > 1e299) growth = 1;
  double level = static_cast<double>(c.keys.back());
  for (auto t = static_cast<unsigned>(c.keys.size()); t < horizon; ++t) {
    level *= growth;
    if (level >= 1.8e19) return std::numeric_limits<std::uint64_t>::max();
    total = saturating_add(total, static_cast<std::uint64_t>(level));
  }
  return total;
}

/// Exact memo-entry counts of the first levels of the *compiled* game, as the search will meet
/// them: children by expand_action and canonicalise over the bisimulation classes, terminal nodes
/// (valued in place) not counted. The second stage of every estimate (measure): reductions can
/// make the real game far smaller than the unreduced one (AboveThreshold's unreduced game grows
/// about tenfold a round, its classes under twofold), never larger.
LevelCounts first_levels_compiled(const CompiledGame& g, const Game& game, unsigned horizon, const LevelBudget& budget = recheck_budget) {
  auto terminal = [&](const Node& n) {
    if (n.rounds == 0) return true;
    if (g.reduced && (n.belief[0].empty() || n.belief[1].empty())) return true;
    return g.kept_actions[n.rounds][n.sigma].empty();
  };
  LevelCounts out;
  std::vector<Node> level(1);
  Rational z;
  root_node(game, g, horizon, level[0], z);
  if (terminal(level[0])) level.clear();
  out.keys.push_back(level.size());
  std::vector<RawChild> raws;
  count_levels(out, std::move(level), horizon, budget, [&](const Node& n, std::uint64_t& products, const auto& emit) {
    for (std::uint32_t a : g.kept_actions[n.rounds][n.sigma]) {
      const MessagePair& pair = g.pairs[n.sigma][a];
      for (int b = 0; b < 2; ++b) {
        const auto slot = static_cast<std::uint32_t>(g.slot_of[b == 0 ? pair.world0 : pair.world1]);
        for (const auto& [c, u] : n.belief[b]) {
          const auto [first, last] = g.rows(n.rounds, c, slot);
          products += static_cast<std::uint64_t>(last - first);
        }
      }
      expand_action(g, n, a, raws);
      for (const RawChild& raw : raws) {
        Node c;
        canonicalise(raw, n.rounds - 1, g.verifier_next[n.sigma][a], c, z);
        if (!terminal(c)) emit(std::move(c));
      }
    }
  });
  return out;
}

/// Memory of one memo entry: header, key, value, a hash slot at load ≤ 3/4.
constexpr double entry_overhead_bytes = 32 + 16 + 11;

/// The size estimate of a run and, when the game had to be compiled to make it, the compiled game.
struct Measured {
  GameSizeEstimate estimate;
  std::optional<CompiledGame> game;  // compiled for the second measurement (always, below the limits)
  double compile_seconds = 0;
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::uint64_t saturating(double x) {
  return x >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(x);
}

/// Σ over the levels with a round left of the measured key counts of the compiled game and, past
/// them, of c_t·m_t: c_t the ≡_r-classes of the level (r = horizon − t rounds left, a count the
/// compilation gives for free) and m_t the belief pairs per class, which grows about linearly with
/// the rounds played — from level 1 to the last level measured, and on at the same rate. The class
/// counts carry the mechanism's own structure, which a growth factor of the first levels cannot:
/// the tree counter's levels swell within each dyadic block and collapse where a block closes (its
/// completed nodes merge), so a factor taken early (it was the smallest of the last four) missed
/// the second half of T = 32 by 2.4× (651 854 against 1 534 516 entries), and the svt-counter's
/// growth slows as its classes do (docs/engine.md gives the figures).
std::uint64_t extrapolate_by_classes(const LevelCounts& c, const CompiledGame& g, unsigned horizon) {
  const std::size_t n = c.keys.size();
  if (n >= horizon || n < 2) return extrapolate(c, horizon);
  auto classes = [&](std::size_t t) { return static_cast<double>(g.tables[horizon - t]->classes); };
  auto per_class = [&](std::size_t t) { return classes(t) > 0 ? static_cast<double>(c.keys[t]) / classes(t) : 0.0; };
  const double last = per_class(n - 1);
  const double slope = n > 2 ? std::max(0.0, (last - per_class(1)) / static_cast<double>(n - 2)) : 0.0;
  std::uint64_t total = 0;
  for (std::size_t t = 0; t < n; ++t) total = saturating_add(total, c.keys[t]);
  for (std::size_t t = n; t < horizon; ++t) {
    const double level = (last + slope * static_cast<double>(t - (n - 1))) * classes(t);
    if (level >= 1.8e19) return std::numeric_limits<std::uint64_t>::max();
    total = saturating_add(total, static_cast<std::uint64_t>(level));
  }
  return total;
}

void fill(GameSizeEstimate& e, const LevelCounts& counts, std::uint64_t entries, const EngineOptions& options) {
  e.entries = entries;
  e.bytes = saturating(static_cast<double>(e.entries) * (counts.bytes_per_key + entry_overhead_bytes));
  e.levels = counts.keys;
  e.products += counts.products;
  e.over.clear();
  if (e.entries > options.max_nodes) e.over = "max_nodes";
  else if (e.bytes > options.max_bytes) e.over = "max_bytes";
}

/// The refusal of a game whose estimate is over a limit (GameSizeEstimate::over).
[[noreturn]] void refuse(const GameSizeEstimate& e, const EngineOptions& options, const char* where) {
  if (e.over == "max_nodes")
    throw GameTooLarge(where, e.entries, options.max_nodes, "distinct belief pairs (estimated from the growth of its first levels)");
  throw GameTooLarge(where, e.bytes, options.max_bytes, "bytes of memo (estimated from the growth of its first levels)", "max_bytes",
                     "--max-memory");
}

/// The engine's estimate (estimate_game), in two stages. First on the unreduced game, before
/// anything is compiled; when that is over a limit the game is compiled within a budget (a
/// mechanism too large to compile within it is refused on the unreduced estimate) and measured
/// again as the search will meet it, up to larger levels. Otherwise the game is compiled (the
/// search needs it) and its first levels measured again within the first budget. Either way the
/// estimate that counts is the compiled game's, extrapolated by its classes (extrapolate_by_classes).
/// @p co are the compilation's options (with the progress hook).
Measured measure(const Game& game, unsigned horizon, const EngineOptions& options, const CompileOptions& co) {
  Measured m;
  const LevelCounts unreduced = first_levels(game, horizon);
  fill(m.estimate, unreduced, extrapolate(unreduced, horizon), options);
  const bool recheck = !m.estimate.over.empty();
  if (recheck && !options.reduce) return m;
  CompileOptions bounded = co;
  if (recheck) {
    bounded.max_states = std::min<std::uint64_t>(co.max_states, recheck_states);
    bounded.max_steps = recheck_steps;
    bounded.max_rows = recheck_row_levels / std::max(horizon, 1u);
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    m.game = compile_game(game, bounded);
  } catch (const GameTooLarge& e) {
    if (!recheck || (e.field() != "max_rows" && e.field() != "max_steps" && bounded.max_states == co.max_states)) throw;
    return m;
  }
  m.compile_seconds = seconds_since(start);
  m.estimate.compiled = true;
  const LevelCounts compiled = first_levels_compiled(*m.game, game, horizon, recheck ? recheck_budget : first_budget);
  fill(m.estimate, compiled, extrapolate_by_classes(compiled, *m.game, horizon), options);
  return m;
}

// ------------------------------------------------------------------ preparation

struct Prepared {
  CompiledGame game;
  std::uint64_t estimate = 0;
  unsigned workers = 1;   // search_workers(options, estimate)
  EngineTimings timings;  // of the estimate and the compilation
};

unsigned checked_horizon(const Game& game, const EngineOptions& options, const char* where) {
  game.validate();
  const unsigned horizon = options.horizon.value_or(game.horizon);
  if (horizon == 0) throw Error(where, "horizon", "0", "the horizon must be at least 1");
  game.check_horizon(horizon);
  return horizon;
}

Prepared prepare(const Game& game, const EngineOptions& options, const char* where) {
  const unsigned horizon = checked_horizon(game, options, where);
  Prepared p;
  CompileOptions co;
  co.horizon = horizon;
  co.reduce = options.reduce;
  co.max_states = options.max_nodes;
  const auto start = std::chrono::steady_clock::now();
  double last = 0;
  if (options.progress)
    co.on_depth = [&](unsigned depth, std::uint64_t states) {
      const double t = seconds_since(start);
      if (t < 2.0 || t - last < 1.0) return;
      last = t;
      EngineProgress pr;
      pr.phase = "explore";
      pr.seconds = t;
      pr.keys = states;
      pr.keys_by_rounds.assign(depth + 1, 0);
      pr.keys_by_rounds[depth] = states;
      pr.estimate = p.estimate;
      options.progress(pr);
    };
  Measured m = measure(game, horizon, options, co);
  p.estimate = m.estimate.entries;
  p.timings.compile = m.compile_seconds;
  p.timings.estimate = seconds_since(start) - m.compile_seconds;
  if (!m.estimate.over.empty()) refuse(m.estimate, options, where);
  p.game = std::move(*m.game);  // compiled whenever the estimate is under the limits
  p.workers = search_workers(options, p.estimate);
  return p;
}

void check_lambda(const char* where, const Rational& lambda) {
  if (sgn(lambda) < 0) throw Error(where, "lambda", to_string(lambda), "lambda = e^epsilon must be non-negative");
}
void check_delta(const char* where, const Rational& delta) {
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
}
unsigned long integer_alpha(const char* where, const Rational& alpha) {
  if (alpha.get_den() != 1 || alpha < 2 || !alpha.get_num().fits_ulong_p())
    throw Error(where, "alpha", to_string(alpha), "the exact moment needs an integer alpha >= 2");
  return alpha.get_num().get_ui();
}

/// The value at the root with @p rounds left, rescaled to the initial laws.
template <class F>
std::array<typename F::Value, 2> root_value(Solver<F>& s, const Game& game, unsigned rounds) {
  Node n;
  Rational z;
  root_node(game, s.game(), rounds, n, z);
  auto v = s.solve(n);
  return {s.functional().scale(v.value[0], z), s.functional().scale(v.value[1], z)};
}

// ------------------------------------------------------------------ witnesses

/// Builds the optimal adversary of direction d below node @p n (with scale @p z) from the memo
/// (B.2), collecting the event S.
void extract(Solver<HockeyStickAt>& s, const Node& n, const Rational& z, unsigned d, Adversary& adv, std::size_t at, View& view, Witness& w,
             std::uint64_t limit) {
  const CompiledGame& g = s.game();
  const auto v = s.lookup(n);
  if (v.action[d] < 0) {
    const Rational m0 = z * n.mass(0), m1 = z * n.mass(1);
    const Rational& own = d == 0 ? m0 : m1;
    const Rational& other = d == 0 ? m1 : m0;
    if (own > s.functional().lambda * other) {
      w.event.push_back(view);
      w.probability_world0 += m0;
      w.probability_world1 += m1;
    }
    return;
  }
  const auto action = static_cast<std::uint32_t>(v.action[d]);
  adv.set_send(at, g.pairs[n.sigma][action]);
  std::vector<RawChild> raws;
  expand_action(g, n, action, raws);
  Node child;
  Rational cz;
  for (const RawChild& raw : raws) {
    if (adv.nodes().size() >= limit) throw GameTooLarge("witness", adv.nodes().size(), limit, "nodes of the witness's decision tree");
    canonicalise(raw, n.rounds - 1, g.verifier_next[n.sigma][action], child, cz);
    const std::size_t c = adv.add_node(std::nullopt);
    adv.set_child(at, raw.answer, c);
    view.push_back(raw.answer);
    extract(s, child, z * cz, d, adv, c, view, w, limit);
    view.pop_back();
  }
}

Witness witness_from(Solver<HockeyStickAt>& s, const Game& game, unsigned rounds, unsigned direction, std::uint64_t limit) {
  Witness w;
  w.direction = direction;
  w.lambda = s.functional().lambda;
  w.rounds = rounds;
  Node n;
  Rational z;
  root_node(game, s.game(), rounds, n, z);
  s.solve(n);
  View view;
  extract(s, n, z, direction, w.adversary, 0, view, w, limit);
  std::sort(w.event.begin(), w.event.end());
  return w;
}

/// A witness at the fewest rounds t ≤ T at which δ(λ) > δ (iterative deepening on one memo; keys
/// carry the rounds left, so the runs share subtrees). δ(λ) is non-decreasing in the horizon (the
/// adversary may stop), so the caller asks only when the full horizon violates.
Witness shortest_violation(Solver<HockeyStickAt>& s, const Game& game, const Rational& delta, std::uint64_t limit) {
  for (unsigned t = 1; t <= s.horizon(); ++t) {
    const auto v = root_value(s, game, t);
    if (v[0] <= delta && v[1] <= delta) continue;
    return witness_from(s, game, t, v[1] > v[0] ? 1u : 0u, limit);
  }
  throw Error("find_violation", "horizon", std::to_string(s.horizon()), "no violation below the horizon although the horizon violates");
}

// ------------------------------------------------------------------ the kinds

/// The canonical node after history @p h (with the rounds left after it) and its scale: the
/// unnormalised beliefs after h are z times the node's (B.1, forward recursion of A.3); the
/// likelihood of h in each world in @p likelihood. Errors name `histories[i]` (@p field).
void node_after(const Game& game, const CompiledGame& g, unsigned horizon, const GameHistory& h, const std::string& field,
                const char* where, std::array<Rational, 2>& likelihood, Node& n, Rational& z) {
  if (h.size() > horizon)
    throw Error(where, field, std::to_string(h.size()) + " steps", "the history is longer than the horizon " + std::to_string(horizon));
  std::array<std::map<StateId, Rational>, 2> m;
  for (int b = 0; b < 2; ++b)
    for (const auto& [st, p] : game.initial[b]) m[b][st] += p;
  VerifierState sigma = game.verifier->initial_state();
  for (std::size_t t = 0; t < h.size(); ++t) {
    const auto& [pair, answer] = h[t];
    const auto& allowed = game.verifier->allowed(sigma);
    const auto it = std::find(allowed.begin(), allowed.end(), pair);
    if (it == allowed.end()) {
      const auto& ms = game.mechanism->messages();
      auto name = [&](MessageId x) { return x < ms.size() ? ms[x] : "#" + std::to_string(x); };
      throw Error(where, field + "[" + std::to_string(t) + "]", name(pair.world0) + "/" + name(pair.world1),
                  "the verifier does not allow this pair here");
    }
    std::array<std::map<StateId, Rational>, 2> next;
    for (int b = 0; b < 2; ++b)
      for (const auto& [st, p] : m[b])
        for (const auto& tr : game.mechanism->step(st, b == 0 ? pair.world0 : pair.world1))
          if (tr.answer == answer) next[b][tr.next] += p * tr.probability;
    m = std::move(next);
    sigma = game.verifier->next(sigma, static_cast<std::size_t>(it - allowed.begin()));
  }
  for (int b = 0; b < 2; ++b) {
    likelihood[b] = 0;
    for (const auto& [st, p] : m[b]) likelihood[b] += p;
  }
  if (sgn(likelihood[0] + likelihood[1]) == 0) throw Error(where, field, "likelihood 0", "the history is unreachable in both worlds");
  const auto rounds = static_cast<unsigned>(horizon - h.size());
  RawChild raw;
  for (int b = 0; b < 2; ++b) {
    std::map<std::uint32_t, Rational> byclass;
    for (const auto& [st, p] : m[b])
      if (sgn(p) != 0) byclass[g.class_at(rounds, st)] += p;
    for (auto& [c, p] : byclass) raw.belief[b].emplace_back(c, std::move(p));
  }
  canonicalise(raw, rounds, g.verifier_local.at(sigma), n, z);
}

std::vector<NodeRenyiMoment> renyi_at(Solver<RenyiFunctional>& s, const Game& game, const std::vector<GameHistory>& histories,
                                      const char* where) {
  std::vector<NodeRenyiMoment> out;
  out.reserve(histories.size());
  for (std::size_t i = 0; i < histories.size(); ++i) {
    NodeRenyiMoment r;
    Node n;
    Rational z;
    node_after(game, s.game(), s.horizon(), histories[i], "histories[" + std::to_string(i) + "]", where, r.likelihood, n, z);
    const auto v = s.solve(n);
    r.moment.forward = s.functional().scale(v.value[0], z);
    r.moment.backward = s.functional().scale(v.value[1], z);
    r.moment.stats = s.stats();
    out.push_back(std::move(r));
  }
  return out;
}


ExtendedRational least_lambda_iterated(const Prepared& p, const Game& game, const Rational& delta, const EngineOptions& options) {
  Rational lambda = 1;
  for (;;) {
    Solver<HockeyStickAt> s(p.game, HockeyStickAt{lambda}, options, "least_lambda_by_iteration", p.estimate, p.workers, p.timings);
    const auto v = root_value(s, game, s.horizon());
    if (v[0] <= delta && v[1] <= delta) return ExtendedRational(lambda);
    const unsigned b = v[1] > v[0] ? 1u : 0u;
    const Witness w = witness_from(s, game, s.horizon(), b, options.max_nodes);
    const Rational& a = b == 0 ? w.probability_world0 : w.probability_world1;
    const Rational& c = b == 0 ? w.probability_world1 : w.probability_world0;
    if (sgn(c) == 0) return ExtendedRational::infinity();  // catastrophic mass above δ
    lambda = (a - delta) / c;
  }
}

ClaimCheck check_claim(const Prepared& p, const Game& game, const Rational& lambda, const Rational& delta, const EngineOptions& options) {
  Solver<HockeyStickAt> s(p.game, HockeyStickAt{lambda}, options, "check_approximate_dp", p.estimate, p.workers, p.timings);
  ClaimCheck c;
  c.horizon = s.horizon();
  const auto v = root_value(s, game, s.horizon());
  c.delta_forward = v[0];
  c.delta_backward = v[1];
  c.holds = v[0] <= delta && v[1] <= delta;
  if (!c.holds) c.witness = shortest_violation(s, game, delta, options.max_nodes);
  c.stats = s.stats();
  return c;
}

}  // namespace

GameAnswer solve(const Game& game, const GameQuestion& q, const EngineOptions& options) {
  using K = GameQuantity;
  if (q.adversaries == Adversaries::oblivious) {
    switch (q.quantity) {
      case K::profile: return oblivious_profile(game, options);
      case K::renyi_moment: return oblivious_renyi_moment(game, integer_alpha("worst_case_renyi_moment_oblivious", q.alpha), options);
      case K::ratio: return oblivious_ratio(game, options);
      default: throw Error("solve_game", "adversaries", "oblivious", "oblivious adversaries are offered for the profile, the Renyi moment and the ratio only");
    }
  }
  switch (q.quantity) {
    case K::hockey_stick: {
      check_lambda("worst_case_hockey_stick", q.lambda);
      const Prepared p = prepare(game, options, "worst_case_hockey_stick");
      Solver<HockeyStickAt> s(p.game, HockeyStickAt{q.lambda}, options, "worst_case_hockey_stick", p.estimate, p.workers, p.timings);
      auto v = root_value(s, game, s.horizon());
      return HockeyStickResult{std::move(v[0]), std::move(v[1]), s.stats()};
    }
    case K::profile: {
      const Prepared p = prepare(game, options, "worst_case_profile");
      Solver<ProfileFunctional> s(p.game, ProfileFunctional{}, options, "worst_case_profile", p.estimate, p.workers, p.timings);
      auto v = root_value(s, game, s.horizon());
      return ProfileResult{PrivacyProfile(std::move(v[0]), std::move(v[1])), s.stats()};
    }
    case K::renyi_moment: {
      const unsigned long alpha = integer_alpha("worst_case_renyi_moment", q.alpha);
      const Prepared p = prepare(game, options, "worst_case_renyi_moment");
      Solver<RenyiFunctional> s(p.game, RenyiFunctional{alpha}, options, "worst_case_renyi_moment", p.estimate, p.workers, p.timings);
      auto v = root_value(s, game, s.horizon());
      return DirectionalResult{std::move(v[0]), std::move(v[1]), s.stats()};
    }
    case K::renyi_moment_at: {
      const char* where = "worst_case_renyi_moment_at";
      const unsigned long alpha = integer_alpha(where, q.alpha);
      const Prepared p = prepare(game, options, where);
      Solver<RenyiFunctional> s(p.game, RenyiFunctional{alpha}, options, where, p.estimate, p.workers, p.timings);
      return renyi_at(s, game, q.histories, where);
    }
    case K::renyi_moment_certified: {
      const char* where = "worst_case_renyi_moment_certified";
      if (q.alpha <= 1) throw Error(where, "alpha", to_string(q.alpha), "the Renyi order alpha must exceed 1");
      const Prepared p = prepare(game, options, where);
      Solver<CertifiedRenyiFunctional> s(p.game, CertifiedRenyiFunctional{q.alpha, q.precision}, options, where, p.estimate, p.workers, p.timings);
      auto v = root_value(s, game, s.horizon());
      CertifiedDirectionalResult r;
      r.forward = CertifiedMoment{v[0].infinite, v[0].enclosure};
      r.backward = CertifiedMoment{v[1].infinite, v[1].enclosure};
      r.stats = s.stats();
      return r;
    }
    case K::ratio: {
      const Prepared p = prepare(game, options, "worst_case_ratio");
      Solver<RatioFunctional> s(p.game, RatioFunctional{}, options, "worst_case_ratio", p.estimate, p.workers, p.timings);
      auto v = root_value(s, game, s.horizon());
      return DirectionalResult{std::move(v[0]), std::move(v[1]), s.stats()};
    }
    case K::least_lambda: {
      check_delta("worst_case_least_lambda", q.delta);
      auto copy = q;
      copy.quantity = K::profile;
      return std::get<ProfileResult>(solve(game, copy, options)).profile.least_lambda(q.delta);
    }
    case K::least_lambda_iterated: {
      check_delta("least_lambda_by_iteration", q.delta);
      const Prepared p = prepare(game, options, "least_lambda_by_iteration");
      return least_lambda_iterated(p, game, q.delta, options);
    }
    case K::witness: {
      check_lambda("worst_case_adversary", q.lambda);
      if (q.direction > 1) throw Error("worst_case_adversary", "direction", std::to_string(q.direction), "direction must be 0 or 1");
      const Prepared p = prepare(game, options, "worst_case_adversary");
      Solver<HockeyStickAt> s(p.game, HockeyStickAt{q.lambda}, options, "worst_case_adversary", p.estimate, p.workers, p.timings);
      return witness_from(s, game, s.horizon(), q.direction, options.max_nodes);
    }
    case K::claim: {
      check_lambda("check_approximate_dp", q.lambda);
      check_delta("check_approximate_dp", q.delta);
      const Prepared p = prepare(game, options, "check_approximate_dp");
      return check_claim(p, game, q.lambda, q.delta, options);
    }
    case K::violation: {
      check_lambda("find_violation", q.lambda);
      check_delta("find_violation", q.delta);
      const Prepared p = prepare(game, options, "find_violation");
      ClaimCheck c = check_claim(p, game, q.lambda, q.delta, options);
      return std::move(c.witness);
    }
  }
  throw Error("solve_game", "quantity", std::to_string(static_cast<int>(q.quantity)), "unknown quantity");
}

}  // namespace engine_detail

GameAnswer solve_game(const Game& game, const GameQuestion& question, const EngineOptions& options) {
  return engine_detail::solve(game, question, options);
}

std::uint64_t estimate_game_size(const Game& game, unsigned horizon) {
  game.validate();
  return engine_detail::extrapolate(engine_detail::first_levels(game, horizon), horizon);
}

GameSizeEstimate estimate_game(const Game& game, const EngineOptions& options) {
  const unsigned horizon = engine_detail::checked_horizon(game, options, "estimate_game");
  engine_detail::CompileOptions co;
  co.horizon = horizon;
  co.reduce = options.reduce;
  co.max_states = options.max_nodes;
  return engine_detail::measure(game, horizon, options, co).estimate;
}

std::uint64_t peak_resident_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss);
}

TradeOffEnvelope tradeoff_envelope(const PrivacyProfile& profile) {
  return {TradeOff::from_profile(profile.backward()), TradeOff::from_profile(profile.forward())};
}

Rational Witness::delta() const {
  return direction == 0 ? Rational(probability_world0 - lambda * probability_world1)
                        : Rational(probability_world1 - lambda * probability_world0);
}

std::string Witness::describe(const Game& game) const {
  const auto& mech = *game.mechanism;
  std::ostringstream os;
  const auto& own = game.world_names[direction];
  const auto& other = game.world_names[1 - direction];
  os << "neighbouring worlds: " << game.world_names[0] << " and " << game.world_names[1] << " ("
     << game.verifier->describe() << ")\n";
  os << "adversary (" << rounds << " round" << (rounds == 1 ? "" : "s") << "):\n" << adversary.describe(mech);
  os << "event S (views where P[" << own << "] > lambda * P[" << other << "]):\n";
  for (const auto& v : event) os << "  " << describe_view(mech, v) << "\n";
  os << "P[" << game.world_names[0] << "](S) = " << to_string(probability_world0) << "\n";
  os << "P[" << game.world_names[1] << "](S) = " << to_string(probability_world1) << "\n";
  os << "P[" << own << "](S) - " << to_string(lambda) << " * P[" << other << "](S) = " << to_string(delta()) << "\n";
  return os.str();
}

// ------------------------------------------------------------------ the game split into subgames

namespace engine_detail {
namespace {

/// A distinct node of the first rounds: its canonical belief pair over mechanism states (no
/// reduction: the split is a function of the game alone, so the client and every task agree on
/// it), one history that reaches it and the scale of that history's beliefs.
struct TopNode {
  VerifierState sigma = 0;
  std::array<std::vector<std::pair<std::uint32_t, Integer>>, 2> belief;
  GameHistory history;
  Rational weight;  // the unnormalised beliefs after `history` are weight × belief
  /// per allowed action (in the verifier's order): the children (index in the next level, scale)
  std::vector<std::vector<std::pair<std::size_t, Rational>>> children;
};

/// Levels 0..depth of the game's tree of distinct canonical belief pairs, breadth first in a
/// deterministic order (parents, then actions, then answers).
std::vector<std::vector<TopNode>> top_levels(const Game& game, unsigned depth, std::uint64_t max_nodes, const char* where) {
  const InteractiveMechanism& mech = *game.mechanism;
  const Verifier& ver = *game.verifier;
  std::vector<std::vector<TopNode>> levels(1);
  {
    RawChild raw;
    for (int b = 0; b < 2; ++b) {
      std::map<std::uint32_t, Rational> m;
      for (const auto& [s, p] : game.initial[b]) m[s] += p;
      for (auto& [s, p] : m)
        if (sgn(p) != 0) raw.belief[b].emplace_back(s, p);
    }
    Node n;
    TopNode root;
    canonicalise(raw, 0, 0, n, root.weight);
    root.sigma = ver.initial_state();
    root.belief = std::move(n.belief);
    levels[0].push_back(std::move(root));
  }
  std::uint64_t total = 1;
  std::vector<std::uint8_t> bytes;
  for (unsigned t = 0; t < depth; ++t) {
    std::unordered_map<std::string, std::size_t> seen;
    std::vector<TopNode> next;
    for (TopNode& o : levels[t]) {
      const auto& acts = ver.allowed(o.sigma);
      o.children.resize(acts.size());
      for (std::size_t i = 0; i < acts.size(); ++i) {
        const VerifierState ns = ver.next(o.sigma, i);
        for (RawChild& raw : belief_children(mech, o.belief, acts[i])) {
          const AnswerId a = raw.answer;
          if (raw.belief[0].empty() && raw.belief[1].empty()) continue;
          Node n;
          Rational z;
          canonicalise(raw, 0, ns, n, z);
          bytes.clear();
          encode_node(n, bytes);
          auto [it, fresh] = seen.emplace(std::string(bytes.begin(), bytes.end()), next.size());
          if (fresh) {
            if (++total > max_nodes) throw GameTooLarge(where, total, max_nodes, "nodes above the split depth");
            TopNode c;
            c.sigma = ns;
            c.belief = std::move(n.belief);
            c.history = o.history;
            c.history.emplace_back(acts[i], a);
            c.weight = o.weight * z;
            next.push_back(std::move(c));
          }
          o.children[i].emplace_back(it->second, std::move(z));
        }
      }
    }
    levels.push_back(std::move(next));
  }
  return levels;
}

unsigned split_horizon(const Game& game, const EngineOptions& options, unsigned depth, const char* where) {
  game.validate();
  const unsigned horizon = options.horizon.value_or(game.horizon);
  if (horizon == 0) throw Error(where, "horizon", "0", "the horizon must be at least 1");
  game.check_horizon(horizon);
  if (depth >= horizon)
    throw Error(where, "depth", std::to_string(depth), "the split depth must be below the horizon " + std::to_string(horizon));
  return horizon;
}

}  // namespace
}  // namespace engine_detail

GameSplit split_game(const Game& game, unsigned depth, const EngineOptions& options) {
  using namespace engine_detail;
  GameSplit out;
  out.horizon = split_horizon(game, options, depth, "split_game");
  out.depth = depth;
  auto levels = top_levels(game, depth, options.max_nodes, "split_game");
  for (unsigned t = 0; t < depth; ++t) out.top_nodes += levels[t].size();
  out.frontier.reserve(levels[depth].size());
  for (TopNode& n : levels[depth]) out.frontier.push_back(std::move(n.history));
  return out;
}

HockeyStickAtResult worst_case_hockey_stick_at(const Game& game, const std::vector<GameHistory>& histories, const Rational& lambda,
                                               const EngineOptions& options) {
  using namespace engine_detail;
  const char* where = "worst_case_hockey_stick_at";
  check_lambda(where, lambda);
  const Prepared p = prepare(game, options, where);
  Solver<HockeyStickAt> s(p.game, HockeyStickAt{lambda}, options, where, p.estimate, p.workers, p.timings);
  HockeyStickAtResult out;
  out.values.reserve(histories.size());
  for (std::size_t i = 0; i < histories.size(); ++i) {
    std::array<Rational, 2> likelihood;
    Node n;
    Rational z;
    node_after(game, s.game(), s.horizon(), histories[i], "histories[" + std::to_string(i) + "]", where, likelihood, n, z);
    const auto v = s.solve(n);
    out.values.push_back({Rational(z * v.value[0]), Rational(z * v.value[1])});
  }
  out.stats = s.stats();
  return out;
}

HockeyStickResult join_split(const Game& game, unsigned depth, const Rational& lambda, const std::vector<std::array<Rational, 2>>& values,
                             const EngineOptions& options) {
  using namespace engine_detail;
  const char* where = "join_split";
  check_lambda(where, lambda);
  (void)split_horizon(game, options, depth, where);
  auto levels = top_levels(game, depth, options.max_nodes, where);
  if (values.size() != levels[depth].size())
    throw Error(where, "values", std::to_string(values.size()) + " values",
                "the split at depth " + std::to_string(depth) + " has " + std::to_string(levels[depth].size()) + " frontier nodes");
  const HockeyStickAt f{lambda};
  // the value of each canonical node, from the frontier's values at their histories (homogeneous of
  // degree 1: the value at weight × belief is weight × the value at belief)
  std::vector<std::array<Rational, 2>> below(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    for (int d = 0; d < 2; ++d) below[i][d] = values[i][d] / levels[depth][i].weight;
  for (unsigned t = depth; t-- > 0;) {
    std::vector<std::array<Rational, 2>> here(levels[t].size());
    for (std::size_t j = 0; j < levels[t].size(); ++j) {
      const TopNode& n = levels[t][j];
      Rational m[2];
      for (int b = 0; b < 2; ++b)
        for (const auto& [s, u] : n.belief[b]) m[b] += Rational(u);
      here[j] = {f.leaf(m[0], m[1]), f.leaf(m[1], m[0])};  // stopping; dominated, as in the search
      for (const auto& kids : n.children) {
        std::array<Rational, 2> acc{f.zero(), f.zero()};
        for (const auto& [c, z] : kids)
          for (int d = 0; d < 2; ++d) f.combine(acc[d], below[c][d], z);
        for (int d = 0; d < 2; ++d)
          if (acc[d] > here[j][d]) here[j][d] = acc[d];
      }
    }
    below = std::move(here);
  }
  HockeyStickResult r;
  r.forward = levels[0][0].weight * below[0][0];
  r.backward = levels[0][0].weight * below[0][1];
  return r;
}

}  // namespace exactdp
