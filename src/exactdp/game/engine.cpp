#include "exactdp/game/engine.hpp"

#include <algorithm>
#include <functional>
#include <array>
#include <limits>
#include <map>
#include <unordered_map>

#include <sys/resource.h>

namespace exactdp {

GameTooLarge::GameTooLarge(const std::string& where, std::uint64_t estimate, std::uint64_t limit, const std::string& what)
    : Error(where, "max_nodes", std::to_string(limit),
            "the run needs more than max_nodes " + what + " (history-tree estimate of the game " +
                std::to_string(estimate) + " nodes); raise EngineOptions::max_nodes (--max-nodes) or lower the horizon"),
      estimate_(estimate), limit_(limit) {}

namespace {

using Belief = std::vector<std::pair<StateId, Rational>>;  // sorted by state, positive masses

/// A memo key: a canonical game node with normalised beliefs (THEOREMS.md B.1).
struct Key {
  VerifierState sigma = 0;
  unsigned rounds = 0;
  std::array<Belief, 2> belief;
  friend bool operator==(const Key&, const Key&) = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const noexcept {
    std::size_t h = std::hash<std::uint64_t>{}((std::uint64_t(k.sigma) << 32) ^ k.rounds);
    RationalHash rh;
    for (int b = 0; b < 2; ++b) {
      h ^= 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2) + std::size_t(b);
      for (const auto& [s, p] : k.belief[b]) {
        h ^= std::hash<StateId>{}(s) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h ^= rh(p) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      }
    }
    return h;
  }
};

Rational mass(const Belief& m) {
  Rational s = 0;
  for (const auto& [st, p] : m) s += p;
  return s;
}

/// A child of a node: its normaliser Z = |m₀′| + |m₁′| and its normalised key.
struct Child {
  AnswerId answer;
  Rational z;
  Key key;
};

/// The children of a (normalised) node under one message pair: for each answer a,
/// m_b′(s′) = Σ_s m_b(s)·κ(a, s′ | s, x_b) (B.1), then normalised.
std::vector<Child> children(const InteractiveMechanism& mech, const Key& k, const MessagePair& pair, VerifierState next_sigma) {
  std::map<AnswerId, std::array<std::map<StateId, Rational>, 2>> acc;
  for (int b = 0; b < 2; ++b) {
    MessageId m = b == 0 ? pair.world0 : pair.world1;
    for (const auto& [s, p] : k.belief[b])
      for (const auto& t : mech.step(s, m)) acc[t.answer][b][t.next] += p * t.probability;
  }
  std::vector<Child> out;
  out.reserve(acc.size());
  for (auto& [a, beliefs] : acc) {
    Rational z = 0;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : beliefs[b]) z += p;
    if (sgn(z) == 0) continue;  // zero-mass branches are pruned (B.1)
    Child c{a, z, Key{next_sigma, k.rounds - 1, {}}};
    for (int b = 0; b < 2; ++b) {
      c.key.belief[b].reserve(beliefs[b].size());
      for (auto& [s, p] : beliefs[b])
        if (sgn(p) != 0) c.key.belief[b].emplace_back(s, p / z);
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ------------------------------------------------------------------ value functionals
// Each functional gives the value of a leaf with masses (p, q) — p in the direction's own world,
// q in the other — and how values of children combine (Σ over answers, or max for the ratio) and
// rescale (by the normaliser Z: degree-1 homogeneity, or not at all).

/// Vλ of BI-δ (B.2): leaf (p − λq)⁺, Σ over answers.
struct HockeyStickAt {
  using Value = Rational;
  static constexpr bool ordered = true;
  Rational lambda;
  Value leaf(const Rational& p, const Rational& q) const {
    Rational v = p - lambda * q;
    return sgn(v) > 0 ? v : Rational(0);
  }
  Value zero() const { return 0; }
  void combine(Value& acc, const Value& v, const Rational& z) const { acc += z * v; }
  Value scale(const Value& v, const Rational& z) const { return z * v; }
};

/// c·f for c > 0 (breakpoints unchanged).
PiecewiseLinear scaled(const PiecewiseLinear& f, const Rational& c) {
  std::vector<LinearPiece> pieces = f.pieces();
  for (auto& piece : pieces) {
    piece.intercept *= c;
    piece.slope *= c;
  }
  return PiecewiseLinear::from_trusted_pieces(std::move(pieces));
}

/// BI over PL functions of λ (B.3): leaf λ ↦ (p − λq)⁺.
struct ProfileFunctional {
  using Value = PiecewiseLinear;
  static constexpr bool ordered = false;
  Value leaf(const Rational& p, const Rational& q) const {
    if (sgn(p) == 0) return PiecewiseLinear(0);
    if (sgn(q) == 0) return PiecewiseLinear(p);
    return PiecewiseLinear::from_trusted_pieces({{Rational(0), p, Rational(-q)}, {Rational(p / q), Rational(0), Rational(0)}});
  }
  Value zero() const { return PiecewiseLinear(0); }
  void combine(Value& acc, const Value& v, const Rational& z) const { acc = acc + scaled(v, z); }
  Value scale(const Value& v, const Rational& z) const { return scaled(v, z); }
};

/// Wα of BI-Rényi (B.4): leaf p^α q^{1−α}, Σ over answers.
struct RenyiFunctional {
  using Value = ExtendedRational;
  static constexpr bool ordered = true;
  unsigned long alpha;
  Value leaf(const Rational& p, const Rational& q) const {
    if (sgn(p) == 0) return ExtendedRational();
    if (sgn(q) == 0) return ExtendedRational::infinity();
    return ExtendedRational(Rational(pow(p, alpha) / pow(q, alpha - 1)));
  }
  Value zero() const { return ExtendedRational(); }
  void combine(Value& acc, const Value& v, const Rational& z) const { acc = acc + ExtendedRational(z) * v; }
  Value scale(const Value& v, const Rational& z) const { return ExtendedRational(z) * v; }
};

/// The pure-DP ratio (B.5): leaf p/q, max over answers, invariant under scaling.
struct RatioFunctional {
  using Value = ExtendedRational;
  static constexpr bool ordered = true;
  Value leaf(const Rational& p, const Rational& q) const {
    if (sgn(p) == 0) return ExtendedRational();
    if (sgn(q) == 0) return ExtendedRational::infinity();
    return ExtendedRational(Rational(p / q));
  }
  Value zero() const { return ExtendedRational(); }
  void combine(Value& acc, const Value& v, const Rational&) const { acc = std::max(acc, v); }
  Value scale(const Value& v, const Rational&) const { return v; }
};

/// Wα of BI-Rényi for a real α > 1 over certified intervals (B.4, "non-integer α").
struct CertifiedValue {
  bool infinite = false;
  Interval enclosure;
};
CertifiedValue max(const CertifiedValue& a, const CertifiedValue& b) {
  if (a.infinite) return a;
  if (b.infinite) return b;
  return {false, exactdp::max(a.enclosure, b.enclosure)};
}
struct CertifiedRenyiFunctional {
  using Value = CertifiedValue;
  static constexpr bool ordered = false;  // intervals are not totally ordered: take enclosures of maxima
  Rational alpha;
  Precision precision;
  Value leaf(const Rational& p, const Rational& q) const {
    if (sgn(p) == 0) return zero();
    if (sgn(q) == 0) return {true, Interval::zero(precision)};
    // p^α q^{1−α} = p · exp((α − 1) · ln(p/q))
    return {false, Interval(p, precision) * exp(Interval(Rational(alpha - 1), precision) * log(Interval(Rational(p / q), precision)))};
  }
  Value zero() const { return {false, Interval::zero(precision)}; }
  void combine(Value& acc, const Value& v, const Rational& z) const {
    if (acc.infinite || v.infinite) {
      acc.infinite = true;
      return;
    }
    acc.enclosure += Interval(z, precision) * v.enclosure;
  }
  Value scale(const Value& v, const Rational& z) const {
    if (v.infinite) return v;
    return {false, Interval(z, precision) * v.enclosure};
  }
};

/// Backward induction with memoisation on normalised belief pairs (B.1), both directions at once.
template <class F>
class Solver {
public:
  using Value = typename F::Value;
  struct Entry {
    std::array<Value, 2> value;  ///< per direction, for the normalised beliefs
    std::array<int, 2> action;   ///< argmax action per direction, −1 = stop (ordered functionals only)
  };

  Solver(const Game& game, F functional, const EngineOptions& options, const char* where)
      : game_(game), f_(std::move(functional)), options_(options), where_(where) {
    game_.validate();
    horizon_ = options.horizon.value_or(game.horizon);
  }

  unsigned horizon() const { return horizon_; }
  const EngineStats& stats() const { return stats_; }
  const F& functional() const { return f_; }
  std::uint64_t max_nodes() const { return options_.max_nodes; }
  const Game& game() const { return game_; }

  /// The root key with @p rounds left and its normaliser (Z = 2: both initial laws have mass 1).
  Key root(unsigned rounds) const {
    Key k{game_.verifier->initial_state(), rounds, {}};
    for (int b = 0; b < 2; ++b) {
      std::map<StateId, Rational> m;
      for (const auto& [s, p] : game_.initial[b]) m[s] += p;
      for (auto& [s, p] : m) k.belief[b].emplace_back(s, p / 2);
    }
    return k;
  }
  static Rational root_scale() { return 2; }

  /// The memo entry of a normalised node, computing it (and its subtree) on first request.
  /// Iterative (an explicit stack of frames, one per round), so deep horizons cannot overflow the
  /// call stack; children are requested one at a time and each distinct key is evaluated once.
  const Entry& solve(const Key& k) {
    ++stats_.nodes_visited;
    if (auto it = memo_.find(k); it != memo_.end()) {
      ++stats_.cache_hits;
      return it->second;
    }
    std::vector<Frame> stack;
    stack.push_back(open_frame(k));
    for (;;) {
      Frame& f = stack.back();
      if (f.next_child < f.children.size()) {
        const Child& c = f.children[f.next_child];
        ++stats_.nodes_visited;
        if (auto it = memo_.find(c.key); it != memo_.end()) {
          ++stats_.cache_hits;
          fold_child(f, it->second);
          continue;
        }
        Frame child = open_frame(c.key);  // may invalidate f when pushed
        stack.push_back(std::move(child));
        continue;
      }
      if (f.action_open) close_action(f);
      if (f.next_action < f.action_count) {
        f.children = expand(f.key, f.next_action);
        f.next_child = 0;
        f.acc = {f_.zero(), f_.zero()};
        f.action_open = true;
        continue;
      }
      // the node is complete
      if (memo_.size() >= options_.max_nodes)
        throw GameTooLarge(where_, estimate_game_size(game_, horizon_), options_.max_nodes);
      auto [it, inserted] = memo_.emplace(std::move(f.key), std::move(f.entry));
      stats_.distinct_keys = memo_.size();
      stack.pop_back();
      if (stack.empty()) return it->second;
      fold_child(stack.back(), it->second);
    }
  }

  /// The allowed pairs at a node, and the children of one of them.
  const std::vector<MessagePair>& actions(const Key& k) const { return game_.verifier->allowed(k.sigma); }
  std::vector<Child> expand(const Key& k, std::size_t action) const {
    const auto& pair = actions(k).at(action);
    return children(*game_.mechanism, k, pair, game_.verifier->next(k.sigma, action));
  }

private:
  /// A node under evaluation: max over actions of Σ (or max) over the children of each action.
  struct Frame {
    Key key;
    Entry entry;                  // starts as the leaf ("stop") value
    std::size_t action_count = 0;  // 0 at the horizon or when no pair is allowed
    std::size_t next_action = 0;
    bool action_open = false;
    std::vector<Child> children;   // of the open action
    std::size_t next_child = 0;
    std::array<Value, 2> acc;      // the open action's value so far
  };

  Frame open_frame(const Key& k) const {
    const Rational p0 = mass(k.belief[0]), p1 = mass(k.belief[1]);
    Frame f{k, Entry{{f_.leaf(p0, p1), f_.leaf(p1, p0)}, {-1, -1}}, 0, 0, false, {}, 0, {f_.zero(), f_.zero()}};
    if (k.rounds > 0) f.action_count = actions(k).size();
    return f;
  }

  void fold_child(Frame& f, const Entry& child) {
    const Rational& z = f.children[f.next_child].z;
    for (int d = 0; d < 2; ++d) f_.combine(f.acc[d], child.value[d], z);
    ++f.next_child;
  }

  /// Compares the finished action with the best so far. Stopping is dominated (A.4) but offered:
  /// with ties it wins, which keeps witnesses short.
  void close_action(Frame& f) {
    const std::size_t i = f.next_action;
    for (int d = 0; d < 2; ++d) {
      if constexpr (F::ordered) {
        if (f.acc[d] > f.entry.value[d]) {
          f.entry.value[d] = std::move(f.acc[d]);
          f.entry.action[d] = static_cast<int>(i);
        }
      } else {
        // PL values: the pointwise maximum; stopping is dominated, so start from the first action
        f.entry.value[d] = i == 0 ? std::move(f.acc[d]) : max(f.entry.value[d], f.acc[d]);
      }
    }
    f.action_open = false;
    f.children.clear();
    ++f.next_action;
  }

  const Game& game_;
  F f_;
  EngineOptions options_;
  const char* where_;
  unsigned horizon_ = 0;
  EngineStats stats_;
  std::unordered_map<Key, Entry, KeyHash> memo_;
};

/// Builds the optimal adversary of direction d from the memo (B.2), collecting the event S.
void extract(Solver<HockeyStickAt>& solver, const Key& k, const Rational& z, unsigned d, Adversary& adv,
             std::size_t node, View& view, Witness& w) {
  const auto& e = solver.solve(k);
  if (e.action[d] < 0) {
    const Rational m0 = z * mass(k.belief[0]), m1 = z * mass(k.belief[1]);
    const Rational& own = d == 0 ? m0 : m1;
    const Rational& other = d == 0 ? m1 : m0;
    if (own > solver.functional().lambda * other) {
      w.event.push_back(view);
      w.probability_world0 += m0;
      w.probability_world1 += m1;
    }
    return;
  }
  const auto action = static_cast<std::size_t>(e.action[d]);
  adv.set_send(node, solver.actions(k).at(action));
  for (const auto& c : solver.expand(k, action)) {
    if (adv.nodes().size() >= solver.max_nodes())
      throw GameTooLarge("witness", estimate_game_size(solver.game(), solver.horizon()), solver.max_nodes(),
                         "nodes of the witness's decision tree");
    std::size_t child = adv.add_node(std::nullopt);
    adv.set_child(node, c.answer, child);
    view.push_back(c.answer);
    extract(solver, c.key, z * c.z, d, adv, child, view, w);
    view.pop_back();
  }
}

Witness witness_from(Solver<HockeyStickAt>& solver, unsigned rounds, unsigned direction) {
  Witness w;
  w.direction = direction;
  w.lambda = solver.functional().lambda;
  w.rounds = rounds;
  View view;
  extract(solver, solver.root(rounds), Solver<HockeyStickAt>::root_scale(), direction, w.adversary, 0, view, w);
  std::sort(w.event.begin(), w.event.end());
  return w;
}

void check_lambda(const char* where, const Rational& lambda) {
  if (sgn(lambda) < 0) throw Error(where, "lambda", to_string(lambda), "lambda = e^epsilon must be non-negative");
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

}  // namespace

std::uint64_t estimate_game_size(const Game& game, unsigned horizon) {
  game.validate();
  const auto& ver = *game.verifier;
  const auto& pairs = ver.allowed(ver.initial_state());
  std::uint64_t answers = 1;
  for (const auto& pair : pairs) {
    std::map<AnswerId, int> seen;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : game.initial[b])
        for (const auto& t : game.mechanism->step(s, b == 0 ? pair.world0 : pair.world1)) seen[t.answer] = 1;
    answers = std::max<std::uint64_t>(answers, seen.size());
  }
  const std::uint64_t branching = saturating_mul(std::max<std::uint64_t>(pairs.size(), 1), answers);
  std::uint64_t total = 1, level = 1;
  const auto top = std::numeric_limits<std::uint64_t>::max();
  for (unsigned t = 1; t <= horizon; ++t) {
    level = saturating_mul(level, branching);
    total = total > top - level ? top : total + level;
  }
  return total;
}

HockeyStickResult worst_case_hockey_stick(const Game& game, const Rational& lambda, const EngineOptions& options) {
  check_lambda("worst_case_hockey_stick", lambda);
  Solver<HockeyStickAt> s(game, HockeyStickAt{lambda}, options, "worst_case_hockey_stick");
  const auto& e = s.solve(s.root(s.horizon()));
  const Rational z = Solver<HockeyStickAt>::root_scale();
  return {Rational(z * e.value[0]), Rational(z * e.value[1]), s.stats()};
}

ProfileResult worst_case_profile(const Game& game, const EngineOptions& options) {
  Solver<ProfileFunctional> s(game, ProfileFunctional{}, options, "worst_case_profile");
  const auto& e = s.solve(s.root(s.horizon()));
  const Rational z = Solver<ProfileFunctional>::root_scale();
  return {PrivacyProfile(scaled(e.value[0], z), scaled(e.value[1], z)), s.stats()};
}

DirectionalResult worst_case_renyi_moment(const Game& game, unsigned long alpha, const EngineOptions& options) {
  if (alpha < 2) throw Error("worst_case_renyi_moment", "alpha", std::to_string(alpha), "the exact moment needs an integer alpha >= 2");
  Solver<RenyiFunctional> s(game, RenyiFunctional{alpha}, options, "worst_case_renyi_moment");
  const auto& e = s.solve(s.root(s.horizon()));
  const ExtendedRational z(Solver<RenyiFunctional>::root_scale());
  return {z * e.value[0], z * e.value[1], s.stats()};
}

std::vector<NodeRenyiMoment> worst_case_renyi_moment_at(const Game& game, const std::vector<GameHistory>& histories,
                                                        unsigned long alpha, const EngineOptions& options) {
  const char* where = "worst_case_renyi_moment_at";
  if (alpha < 2) throw Error(where, "alpha", std::to_string(alpha), "the exact moment needs an integer alpha >= 2");
  Solver<RenyiFunctional> s(game, RenyiFunctional{alpha}, options, where);
  std::vector<NodeRenyiMoment> out;
  out.reserve(histories.size());
  for (std::size_t i = 0; i < histories.size(); ++i) {
    const GameHistory& h = histories[i];
    const std::string field = "histories[" + std::to_string(i) + "]";
    if (h.size() > s.horizon())
      throw Error(where, field, std::to_string(h.size()) + " steps", "the history is longer than the horizon " + std::to_string(s.horizon()));
    // the unnormalised beliefs after h (B.1), by the forward recursion of A.3
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
        auto name = [&](MessageId m) { return m < ms.size() ? ms[m] : "#" + std::to_string(m); };
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
    NodeRenyiMoment r;
    for (int b = 0; b < 2; ++b)
      for (const auto& [st, p] : m[b]) r.likelihood[b] += p;
    const Rational z = r.likelihood[0] + r.likelihood[1];
    if (sgn(z) == 0) throw Error(where, field, "likelihood 0", "the history is unreachable in both worlds");
    Key k{sigma, static_cast<unsigned>(s.horizon() - h.size()), {}};
    for (int b = 0; b < 2; ++b)
      for (const auto& [st, p] : m[b])
        if (sgn(p) != 0) k.belief[b].emplace_back(st, p / z);
    const auto& e = s.solve(k);
    r.moment.forward = ExtendedRational(z) * e.value[0];
    r.moment.backward = ExtendedRational(z) * e.value[1];
    r.moment.stats = s.stats();
    out.push_back(std::move(r));
  }
  return out;
}

DirectionalResult worst_case_ratio(const Game& game, const EngineOptions& options) {
  Solver<RatioFunctional> s(game, RatioFunctional{}, options, "worst_case_ratio");
  const auto& e = s.solve(s.root(s.horizon()));
  return {e.value[0], e.value[1], s.stats()};
}

namespace {

/// Depth-first over the oblivious sequences: @p layer maps each normalised belief pair (rounds and
/// verifier state are common to the layer) to its total weight.
/// The view masses (world 0, world 1) of one oblivious sequence, merged by belief pair.
using LeafMasses = std::vector<std::pair<Rational, Rational>>;

void oblivious_search(const Game& game, const EngineOptions& options, VerifierState sigma, unsigned rounds,
                      const std::map<std::array<Belief, 2>, Rational>& layer, const std::function<void(const LeafMasses&)>& at_leaf,
                      EngineStats& stats) {
  const auto& acts = game.verifier->allowed(sigma);
  if (rounds == 0 || acts.empty()) {
    LeafMasses masses;
    for (const auto& [beliefs, w] : layer) masses.emplace_back(w * mass(beliefs[0]), w * mass(beliefs[1]));
    at_leaf(masses);
    return;
  }
  for (std::size_t i = 0; i < acts.size(); ++i) {
    const VerifierState next = game.verifier->next(sigma, i);
    std::map<std::array<Belief, 2>, Rational> out;
    for (const auto& [beliefs, w] : layer) {
      if (++stats.nodes_visited > options.max_nodes)
        throw GameTooLarge("worst_case_profile_oblivious", estimate_game_size(game, options.horizon.value_or(game.horizon)),
                           options.max_nodes, "belief expansions over the oblivious sequences");
      const Key k{sigma, rounds, beliefs};
      for (auto& c : children(*game.mechanism, k, acts[i], next)) out[std::move(c.key.belief)] += w * c.z;
    }
    stats.distinct_keys = std::max<std::uint64_t>(stats.distinct_keys, out.size());
    oblivious_search(game, options, next, rounds - 1, out, at_leaf, stats);
  }
}

/// Runs @p at_leaf on the view masses of every oblivious pair sequence of the game's horizon.
EngineStats for_each_oblivious_sequence(const Game& game, const EngineOptions& options,
                                        const std::function<void(const LeafMasses&)>& at_leaf) {
  game.validate();
  const unsigned horizon = options.horizon.value_or(game.horizon);
  std::array<Belief, 2> root;
  for (int b = 0; b < 2; ++b) {
    std::map<StateId, Rational> m;
    for (const auto& [s, p] : game.initial[b]) m[s] += p;
    for (auto& [s, p] : m) root[b].emplace_back(s, p / 2);
  }
  EngineStats stats;
  oblivious_search(game, options, game.verifier->initial_state(), horizon, {{root, Rational(2)}}, at_leaf, stats);
  return stats;
}

}  // namespace

ProfileResult worst_case_profile_oblivious(const Game& game, const EngineOptions& options) {
  // the initial "curves" are the identity pair's profile (1 − λ)⁺, below every view pair's
  PiecewiseLinear forward = PiecewiseLinear::from_trusted_pieces({{Rational(0), Rational(1), Rational(-1)}, {Rational(1), Rational(0), Rational(0)}});
  PiecewiseLinear backward = forward;
  EngineStats stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    const PrivacyLoss loss = PrivacyLoss::from_masses(masses, "oblivious views");
    forward = max(forward, directional_profile(loss));
    backward = max(backward, directional_profile(loss.swapped()));
  });
  return {PrivacyProfile(forward, backward), stats};
}

DirectionalResult worst_case_renyi_moment_oblivious(const Game& game, unsigned long alpha, const EngineOptions& options) {
  if (alpha < 2)
    throw Error("worst_case_renyi_moment_oblivious", "alpha", std::to_string(alpha), "the exact moment needs an integer alpha >= 2");
  const RenyiFunctional f{alpha};
  DirectionalResult r;
  r.stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    ExtendedRational fwd, bwd;
    for (const auto& [p, q] : masses) {
      fwd = fwd + f.leaf(p, q);
      bwd = bwd + f.leaf(q, p);
    }
    r.forward = std::max(r.forward, fwd);
    r.backward = std::max(r.backward, bwd);
  });
  return r;
}

DirectionalResult worst_case_ratio_oblivious(const Game& game, const EngineOptions& options) {
  const RatioFunctional f;
  DirectionalResult r;
  r.stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    for (const auto& [p, q] : masses) {
      r.forward = std::max(r.forward, f.leaf(p, q));
      r.backward = std::max(r.backward, f.leaf(q, p));
    }
  });
  return r;
}

CertifiedDirectionalResult worst_case_renyi_moment_certified(const Game& game, const Rational& alpha, const EngineOptions& options,
                                                             Precision precision) {
  if (alpha <= 1)
    throw Error("worst_case_renyi_moment_certified", "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
  Solver<CertifiedRenyiFunctional> s(game, CertifiedRenyiFunctional{alpha, precision}, options, "worst_case_renyi_moment_certified");
  const auto& e = s.solve(s.root(s.horizon()));
  const Rational z = Solver<CertifiedRenyiFunctional>::root_scale();
  CertifiedDirectionalResult r;
  const CertifiedRenyiFunctional& f = s.functional();
  auto out = [&](const CertifiedValue& v) { return CertifiedMoment{v.infinite, f.scale(v, z).enclosure}; };
  r.forward = out(e.value[0]);
  r.backward = out(e.value[1]);
  r.stats = s.stats();
  return r;
}

std::uint64_t peak_resident_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss);
}

ExtendedRational worst_case_least_lambda(const Game& game, const Rational& delta, const EngineOptions& options) {
  if (sgn(delta) < 0 || delta > 1) throw Error("worst_case_least_lambda", "delta", to_string(delta), "delta must lie in [0, 1]");
  return worst_case_profile(game, options).profile.least_lambda(delta);
}

ExtendedRational least_lambda_by_iteration(const Game& game, const Rational& delta, const EngineOptions& options) {
  if (sgn(delta) < 0 || delta > 1) throw Error("least_lambda_by_iteration", "delta", to_string(delta), "delta must lie in [0, 1]");
  Rational lambda = 1;
  for (;;) {
    Solver<HockeyStickAt> s(game, HockeyStickAt{lambda}, options, "least_lambda_by_iteration");
    const auto& e = s.solve(s.root(s.horizon()));
    const Rational z = Solver<HockeyStickAt>::root_scale();
    const Rational d0 = z * e.value[0], d1 = z * e.value[1];
    if (d0 <= delta && d1 <= delta) return ExtendedRational(lambda);
    const unsigned b = d1 > d0 ? 1u : 0u;
    const Witness w = witness_from(s, s.horizon(), b);
    const Rational& a = b == 0 ? w.probability_world0 : w.probability_world1;
    const Rational& c = b == 0 ? w.probability_world1 : w.probability_world0;
    if (sgn(c) == 0) return ExtendedRational::infinity();  // catastrophic mass above δ
    lambda = (a - delta) / c;
  }
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

Witness worst_case_adversary(const Game& game, const Rational& lambda, unsigned direction, const EngineOptions& options) {
  check_lambda("worst_case_adversary", lambda);
  if (direction > 1) throw Error("worst_case_adversary", "direction", std::to_string(direction), "direction must be 0 or 1");
  Solver<HockeyStickAt> s(game, HockeyStickAt{lambda}, options, "worst_case_adversary");
  return witness_from(s, s.horizon(), direction);
}

namespace {
/// Iterative deepening on one memo (keys carry the rounds left, so the runs share subtrees).
std::optional<Witness> shortest_violation(Solver<HockeyStickAt>& s, const Rational& delta) {
  const Rational z = Solver<HockeyStickAt>::root_scale();
  for (unsigned t = 1; t <= s.horizon(); ++t) {
    const auto& e = s.solve(s.root(t));
    const Rational d0 = z * e.value[0], d1 = z * e.value[1];
    if (d0 <= delta && d1 <= delta) continue;
    return witness_from(s, t, d1 > d0 ? 1u : 0u);
  }
  return std::nullopt;
}

void check_claim(const char* where, const Rational& lambda, const Rational& delta) {
  check_lambda(where, lambda);
  if (sgn(delta) < 0 || delta > 1) throw Error(where, "delta", to_string(delta), "delta must lie in [0, 1]");
}
}  // namespace

std::optional<Witness> find_violation(const Game& game, const Rational& lambda, const Rational& delta,
                                      const EngineOptions& options) {
  check_claim("find_violation", lambda, delta);
  Solver<HockeyStickAt> s(game, HockeyStickAt{lambda}, options, "find_violation");
  return shortest_violation(s, delta);
}

ClaimCheck check_approximate_dp(const Game& game, const Rational& lambda, const Rational& delta, const EngineOptions& options) {
  check_claim("check_approximate_dp", lambda, delta);
  Solver<HockeyStickAt> s(game, HockeyStickAt{lambda}, options, "check_approximate_dp");
  ClaimCheck c;
  c.horizon = s.horizon();
  c.witness = shortest_violation(s, delta);
  const auto& e = s.solve(s.root(s.horizon()));
  const Rational z = Solver<HockeyStickAt>::root_scale();
  c.delta_forward = z * e.value[0];
  c.delta_backward = z * e.value[1];
  c.holds = !c.witness.has_value();
  c.stats = s.stats();
  return c;
}

}  // namespace exactdp
