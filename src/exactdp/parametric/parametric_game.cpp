#include "exactdp/parametric/parametric_game.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/parametric/envelope.hpp"

#include <flint/fmpz_poly_q.h>
#include <flint/ulong_extras.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace exactdp::parametric {

namespace {

/// An unnormalised belief over mechanism states: state → mass (a function of the parameter).
using Belief = std::map<StateId, RationalFunction>;

/// A game node, compared exactly (equal beliefs as rational functions) and hashed without printing.
struct NodeKey {
  VerifierState verifier;
  unsigned left;
  std::array<Belief, 2> beliefs;
  friend bool operator==(const NodeKey&, const NodeKey&) = default;
};

struct NodeHash {
  std::size_t operator()(const NodeKey& k) const {
    std::size_t h = std::hash<std::size_t>{}(static_cast<std::size_t>(k.verifier) * 1000003u + k.left);
    for (const auto& b : k.beliefs) {
      h = h * 31 + 7;
      for (const auto& [s, p] : b) h = (h * 1000003u) ^ (static_cast<std::size_t>(s) * 0x9e3779b97f4a7c15ULL) ^ p.hash();
    }
    return h;
  }
};

struct PairHash {
  std::size_t operator()(const std::array<RationalFunction, 2>& p) const { return p[0].hash() * 1000003u ^ p[1].hash(); }
};

/// The forward recursion of the view probabilities (THEOREMS.md A.3, the system likelihoods of
/// LYU22 (14)–(16)) over rational functions: the one step both tree walks below take.
class ForwardStep {
public:
  ForwardStep(const ParametricGame& game, unsigned horizon, const ParametricOptions& options)
      : game_(game), horizon_(horizon), options_(options) {}

  /// The beliefs before the first round: the initial laws of the two worlds.
  std::array<Belief, 2> root() const {
    std::array<Belief, 2> r;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : game_.initial[b]) r[b][s] += RationalFunction(p);
    return r;
  }
  /// Counts one more expanded node, refusing past the node limit.
  void count_node(std::uint64_t& nodes) const {
    if (++nodes > options_.max_nodes)
      throw Error(game_.name, "horizon", std::to_string(horizon_),
                  "the parametric game has more than " + std::to_string(options_.max_nodes) + " nodes; lower the horizon");
  }
  /// A leaf: no round left, no allowed pair, or halted in both worlds (every further answer is
  /// "halt" with probability 1, which changes no mass).
  bool is_leaf(VerifierState v, const std::array<Belief, 2>& beliefs, unsigned left) const {
    return left == 0 || game_.verifier->allowed(v).empty() || (all_halted(beliefs[0]) && all_halted(beliefs[1]));
  }
  /// The views' total masses in the two worlds.
  static std::array<RationalFunction, 2> masses(const std::array<Belief, 2>& beliefs) { return {total(beliefs[0]), total(beliefs[1])}; }
  /// The beliefs after sending allowed(v)[action], one entry per answer possible in some world
  /// (zero masses dropped).
  std::map<AnswerId, std::array<Belief, 2>> after(VerifierState v, std::size_t action, const std::array<Belief, 2>& beliefs) const {
    const auto& pair = game_.verifier->allowed(v)[action];
    const std::array<MessageId, 2> m{pair.world0, pair.world1};
    std::map<AnswerId, std::array<Belief, 2>> out;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, mass] : beliefs[b]) {
        const auto& rule = game_.kernel.at(s).at(m[b]);
        if (!rule)
          throw Error(game_.name, "/mechanism/states/" + game_.state_names.at(s), game_.messages.at(m[b]),
                      "the state has no rule for this message");
        for (const auto& row : *rule) {
          RationalFunction add = mass * row.probability;
          if (add.is_zero()) continue;
          out[row.answer][b][row.next] += add;
        }
      }
    for (auto it = out.begin(); it != out.end();) {
      for (auto& belief : it->second) std::erase_if(belief, [](const auto& e) { return e.second.is_zero(); });
      it = it->second[0].empty() && it->second[1].empty() ? out.erase(it) : std::next(it);
    }
    return out;
  }

  /// The children's total masses (|m₀|, |m₁|) per answer after sending allowed(v)[action], without
  /// their beliefs (for children that are leaves): Σ_s β_b(s)·Pr[answer | s], the rows of each
  /// answer summed once per state and message. Equal to masses(after(v, action, beliefs)[answer]).
  std::map<AnswerId, std::array<RationalFunction, 2>> masses_after(VerifierState v, std::size_t action,
                                                                   const std::array<Belief, 2>& beliefs) const {
    const auto& pair = game_.verifier->allowed(v)[action];
    const std::array<MessageId, 2> m{pair.world0, pair.world1};
    std::map<AnswerId, std::array<RationalFunction, 2>> out;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, mass] : beliefs[b])
        for (const auto& [answer, probability] : answer_rows(s, m[b])) out[answer][b] += mass * probability;
    std::erase_if(out, [](const auto& e) { return e.second[0].is_zero() && e.second[1].is_zero(); });
    return out;
  }

  const ParametricGame& game() const { return game_; }

private:
  /// Per answer, the summed probability of the rows of state @p s for message @p m (non-zero sums).
  const std::vector<std::pair<AnswerId, RationalFunction>>& answer_rows(StateId s, MessageId m) const {
    auto it = answer_rows_.find({s, m});
    if (it != answer_rows_.end()) return it->second;
    const auto& rule = game_.kernel.at(s).at(m);
    if (!rule)
      throw Error(game_.name, "/mechanism/states/" + game_.state_names.at(s), game_.messages.at(m), "the state has no rule for this message");
    std::map<AnswerId, RationalFunction> sums;
    for (const auto& row : *rule) sums[row.answer] += row.probability;
    std::vector<std::pair<AnswerId, RationalFunction>> rows;
    for (auto& [answer, p] : sums)
      if (!p.is_zero()) rows.emplace_back(answer, std::move(p));
    return answer_rows_.emplace(std::make_pair(s, m), std::move(rows)).first->second;
  }

  static RationalFunction total(const Belief& b) {
    RationalFunction t;
    for (const auto& [s, p] : b) t += p;
    return t;
  }
  bool all_halted(const Belief& b) const {
    for (const auto& [s, p] : b)
      if (!game_.halted.at(s)) return false;
    return true;
  }

  const ParametricGame& game_;
  unsigned horizon_;
  ParametricOptions options_;
  mutable std::map<std::pair<StateId, MessageId>, std::vector<std::pair<AnswerId, RationalFunction>>> answer_rows_;
};

struct FunctionHash {
  std::size_t operator()(const RationalFunction& f) const { return f.hash(); }
};

/// Divides belief pairs by a factor with neither zero nor pole on the range — their first non-zero
/// entry — so that proportional pairs become equal (the numeric engine's normalisation, sound for
/// every r only for such factors: they are > 0 on the whole range).
class Normaliser {
public:
  explicit Normaliser(const ParameterRange& range) : range_(range) {}

  /// Divides @p beliefs by their first non-zero entry when it qualifies; returns the factor (1 when not).
  RationalFunction scale_down(std::array<Belief, 2>& beliefs) {
    const Belief& first = beliefs[0].empty() ? beliefs[1] : beliefs[0];
    if (first.empty()) return RationalFunction(1);
    const RationalFunction n = first.begin()->second;
    if (n == RationalFunction(1) || !positive(n)) return RationalFunction(1);
    for (auto& b : beliefs)
      for (auto& [s, p] : b) p /= n;
    return n;
  }

  /// True when @p f has neither a zero nor a pole on the range (remembered per function).
  bool positive(const RationalFunction& f) {
    if (f.is_constant()) return !f.is_zero();
    auto it = known_.find(f);
    if (it == known_.end()) it = known_.emplace(f, zero_and_pole_free(f, range_)).first;
    return it->second;
  }

private:
  ParameterRange range_;
  std::unordered_map<RationalFunction, bool, FunctionHash> known_;
};

/// The values of a belief pair at a fixed point modulo a 64-bit prime, divided by the first one:
/// equal for belief pairs proportional by any factor (that has neither zero nor pole at the point),
/// a cheap key under which proportionality is then checked exactly. std::nullopt when a value is
/// undefined modulo the prime or the first one vanishes there (the node is then not merged).
std::optional<std::vector<std::uint64_t>> fingerprint(VerifierState v, unsigned left, const std::array<Belief, 2>& beliefs) {
  constexpr ulong prime = 18446744073709551557ULL;  // 2^64 − 59
  constexpr ulong point = 1234567891ULL;
  static const ulong inverse = n_preinvert_limb(prime);
  std::vector<std::uint64_t> out{v, left, beliefs[0].size(), beliefs[1].size()};
  ulong first = 0;
  for (const auto& b : beliefs)
    for (const auto& [state, p] : b) {
      auto* q = static_cast<fmpz_poly_q_struct*>(p.flint());
      const ulong den = fmpz_poly_evaluate_mod(fmpz_poly_q_denref(q), point, prime);
      if (den == 0) return std::nullopt;
      ulong value = n_mulmod2_preinv(fmpz_poly_evaluate_mod(fmpz_poly_q_numref(q), point, prime), n_invmod(den, prime), prime, inverse);
      if (out.size() == 4) {
        if (value == 0) return std::nullopt;
        first = n_invmod(value, prime);
      }
      out.push_back(state);
      out.push_back(n_mulmod2_preinv(value, first, prime, inverse));
    }
  return out;
}

/// The value of @p f at the fingerprint point modulo the fingerprint prime; std::nullopt when its
/// denominator vanishes there.
std::optional<ulong> value_mod_prime(const RationalFunction& f) {
  constexpr ulong prime = 18446744073709551557ULL;  // 2^64 − 59, as fingerprint()
  constexpr ulong point = 1234567891ULL;
  static const ulong inverse = n_preinvert_limb(prime);
  auto* q = static_cast<fmpz_poly_q_struct*>(f.flint());
  const ulong den = fmpz_poly_evaluate_mod(fmpz_poly_q_denref(q), point, prime);
  if (den == 0) return std::nullopt;
  return n_mulmod2_preinv(fmpz_poly_evaluate_mod(fmpz_poly_q_numref(q), point, prime), n_invmod(den, prime), prime, inverse);
}

/// Transcript pairs counted up to a factor with neither zero nor pole on the range and up to order
/// (the `view_pairs` of the statistics, docs/parametric.md "JSON"): (a, b) and (a′, b′) are one
/// class when (a′, b′) = c·(a, b) or c·(b, a) for such a c. The class does not depend on how the
/// search merged nodes, so the count is a property of the game, the horizon and the range. A key
/// (the ratio a/b at the fingerprint point modulo the prime, taken with its inverse, the smaller of
/// the two) proposes; exact cross-multiplication and the certified sign of c decide.
class PairClasses {
public:
  explicit PairClasses(Normaliser& normaliser) : normaliser_(normaliser) {}

  /// True when @p pair starts a new class (it is then remembered as its representative).
  bool insert(const std::array<RationalFunction, 2>& pair) {
    auto& bucket = buckets_[key(pair)];
    for (const auto& other : bucket)
      if (same_class(pair, other)) return false;
    bucket.push_back(pair);
    ++size_;
    return true;
  }
  std::size_t size() const { return size_; }

private:
  static std::uint64_t key(const std::array<RationalFunction, 2>& pair) {
    constexpr ulong prime = 18446744073709551557ULL;
    const auto a = value_mod_prime(pair[0]), b = value_mod_prime(pair[1]);
    if (!a || !b) return 0;  // undefined at the point: one bucket for all such pairs (exact checks decide)
    if (*a == 0 && *b == 0) return 0;
    const std::uint64_t infinity = ~std::uint64_t{0};
    static const ulong inverse = n_preinvert_limb(prime);
    const std::uint64_t ab = *b == 0 ? infinity : n_mulmod2_preinv(*a, n_invmod(*b, prime), prime, inverse);
    const std::uint64_t ba = *a == 0 ? infinity : n_mulmod2_preinv(*b, n_invmod(*a, prime), prime, inverse);
    return 1 + std::min(ab, ba);  // 0 is the bucket above
  }
  /// (a′, b′) = c·(a, b) for a c with neither zero nor pole on the range.
  bool proportional(const std::array<RationalFunction, 2>& x, const std::array<RationalFunction, 2>& y) {
    if (x[0].is_zero() != y[0].is_zero() || x[1].is_zero() != y[1].is_zero()) return false;
    if (!(x[0] * y[1] == x[1] * y[0])) return false;
    const std::size_t i = x[0].is_zero() ? 1 : 0;
    if (x[i].is_zero()) return false;  // (0, 0): never a transcript's pair
    return normaliser_.positive(y[i] / x[i]);
  }
  bool same_class(const std::array<RationalFunction, 2>& x, const std::array<RationalFunction, 2>& y) {
    return proportional(x, y) || proportional({x[1], x[0]}, y);
  }

  Normaliser& normaliser_;
  std::unordered_map<std::uint64_t, std::vector<std::array<RationalFunction, 2>>> buckets_;
  std::size_t size_ = 0;
};

struct WordsHash {
  std::size_t operator()(const std::vector<std::uint64_t>& w) const {
    std::size_t h = w.size();
    for (auto x : w) h = (h ^ x) * 0x9e3779b97f4a7c15ULL + (h >> 29);
    return h;
  }
};

/// Every transcript's pair (P₀, P₁), by the forward recursion (ForwardStep). With @p up_to_factor,
/// a node whose belief pair is c times that of a node already expanded, for a c with neither zero
/// nor pole on the range (c > 0 on all of it), is not expanded: its transcripts' pairs are c times
/// those found below the other (the forward recursion is linear), so they have the same signs of
/// λ·P₁ − P₀ and the same ratios at every r (the numeric engine's normalisation). Candidates are
/// found by fingerprint() and confirmed exactly. Leaf pairs are put in canonical order. Each pair
/// found is c·(P₀(t), P₁(t)) or c·(P₁(t), P₀(t)) for some transcript t and some c > 0 on the whole
/// range.
class TranscriptSearch {
public:
  TranscriptSearch(const ParametricGame& game, unsigned horizon, const ParametricOptions& options, bool up_to_factor)
      : step_(game, horizon, options), horizon_(horizon), up_to_factor_(up_to_factor), normaliser_(game.range) {}

  ViewPairs run() {
    visit(step_.game().verifier->initial_state(), step_.root(), horizon_);
    return std::move(out_);
  }

private:
  void visit(VerifierState v, std::array<Belief, 2> beliefs, unsigned left) {
    const auto [node, fresh] = seen_nodes_.insert(NodeKey{v, left, std::move(beliefs)});
    if (!fresh) return;  // an equal node: the same transcripts' pairs
    if (up_to_factor_ && proportional_to_expanded(*node)) return;
    const auto& b = node->beliefs;
    step_.count_node(visited_);
    if (step_.is_leaf(v, b, left)) {
      add_pair(ForwardStep::masses(b));
      return;
    }
    ++out_.nodes;  // an inner node (docs/parametric.md "JSON": leaves are counted as view pairs)
    if (left == 1) {
      // every child is a leaf (no round left): its masses are all that is needed
      for (std::size_t action = 0; action < step_.game().verifier->allowed(v).size(); ++action)
        for (auto& [answer, pair] : step_.masses_after(v, action, b)) {
          step_.count_node(visited_);
          add_pair(std::move(pair));
        }
      return;
    }
    for (std::size_t action = 0; action < step_.game().verifier->allowed(v).size(); ++action)
      for (auto& [answer, next] : step_.after(v, action, b)) visit(step_.game().verifier->next(v, action), std::move(next), left - 1);
  }

  /// True when @p key's belief pair is c times that of an expanded node with the same fingerprint,
  /// c > 0 on the whole range (checked exactly); otherwise @p key is remembered as expanded.
  bool proportional_to_expanded(const NodeKey& key) {
    auto print = fingerprint(key.verifier, key.left, key.beliefs);
    if (!print) return false;
    auto& same = by_fingerprint_[std::move(*print)];
    const RationalFunction& n = first_entry(key.beliefs);
    for (const NodeKey* other : same) {
      const RationalFunction& m = first_entry(other->beliefs);
      // β = (n/m)·β' iff m·β(s) = n·β'(s) for every state s of both worlds (same supports: same fingerprint)
      bool proportional = true;
      for (int w = 0; w < 2 && proportional; ++w)
        for (auto a = key.beliefs[w].begin(), c = other->beliefs[w].begin(); a != key.beliefs[w].end() && proportional; ++a, ++c)
          proportional = a->first == c->first && m * a->second == n * c->second;
      if (proportional && normaliser_.positive(n / m)) return true;
    }
    same.push_back(&key);
    return false;
  }
  /// Keeps @p pair unless an equal one was kept — with up_to_factor_, unless one of its class
  /// (PairClasses: the same up to a factor > 0 on the range and up to order) was kept.
  void add_pair(std::array<RationalFunction, 2> pair) {
    if (up_to_factor_) unordered(pair);
    if (!seen_pairs_.insert(pair).second) return;
    if (up_to_factor_ && !classes_.insert(pair)) return;
    out_.pairs.push_back(std::move(pair));
  }
  /// The pair in canonical order: a pair and its mirror image (P₁, P₀) become one (a claim in both
  /// directions asks the same of both).
  static void unordered(std::array<RationalFunction, 2>& pair) {
    if (canonical_less(pair[1], pair[0])) std::swap(pair[0], pair[1]);
  }
  static const RationalFunction& first_entry(const std::array<Belief, 2>& b) {
    return b[0].empty() ? b[1].begin()->second : b[0].begin()->second;
  }

  ForwardStep step_;
  unsigned horizon_;
  bool up_to_factor_;
  Normaliser normaliser_;
  ViewPairs out_;
  std::uint64_t visited_ = 0;  // nodes and last-round children, for the node limit
  PairClasses classes_{normaliser_};
  std::unordered_set<NodeKey, NodeHash> seen_nodes_;
  std::unordered_map<std::vector<std::uint64_t>, std::vector<const NodeKey*>, WordsHash> by_fingerprint_;
  std::unordered_set<std::array<RationalFunction, 2>, PairHash> seen_pairs_;
};

/// Consecutive failing pieces merged into maximal intervals, each with the samples of its open
/// pieces (or its value, for a lone rational point).
std::vector<FailingRange> failing_ranges(const std::vector<Piece>& pieces, const std::vector<bool>& holds) {
  std::vector<FailingRange> out;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (holds[k]) continue;
    const bool extends = k > 0 && !holds[k - 1];
    if (!extends) {
      FailingRange f;
      f.lower = pieces[k].lower;
      f.lower_closed = pieces[k].lower_closed;
      out.push_back(f);
    }
    FailingRange& f = out.back();
    f.upper = pieces[k].upper;
    f.upper_closed = pieces[k].upper_closed;
    if (!pieces[k].is_point() && pieces[k].sample) f.samples.push_back(*pieces[k].sample);
  }
  for (auto& f : out)
    if (f.samples.empty() && f.lower.is_rational()) f.samples.push_back(f.lower.lower);  // a lone rational point
  return out;
}

/// Throws (field @p field) unless @p f is continuous on the range and at least @p least there.
void require_at_least(const ParametricGame& game, const RationalFunction& f, const Rational& least, const std::string& field,
                      const std::string& what) {
  try {
    sign_partition({f}, game.range, game.parameter);
  } catch (const Error& e) {
    throw Error(field, "", f.to_string(game.parameter), e.why());
  }
  if (auto r = negative_point(f - RationalFunction(least), game.range, game.parameter))
    throw Error(field, "", f.to_string(game.parameter),
                what + " must be at least " + to_string(least) + " on the whole range; at " + game.parameter + " = " + to_string(*r) +
                    " it is " + to_string(f.evaluate(*r)));
}

/// Refuses a game the searches cannot play at @p horizon: no verifier, horizon 0, or a horizon past
/// the spec's max_horizon (where its table is no longer exact).
void require_playable(const ParametricGame& game, unsigned horizon) {
  if (!game.verifier) throw Error(game.name, "neighbours", "", "the game has no verifier");
  if (horizon == 0) throw Error(game.name, "horizon", "0", "the horizon must be at least 1");
  if (game.max_horizon && horizon > *game.max_horizon)
    throw Error(game.name, "max_horizon", std::to_string(*game.max_horizon),
                "the spec is exact only up to this horizon; " + std::to_string(horizon) + " rounds were asked");
}

}  // namespace

ViewPairs transcript_probabilities(const ParametricGame& game, unsigned horizon, const ParametricOptions& options) {
  require_playable(game, horizon);
  return TranscriptSearch(game, horizon, options, false).run();
}

ViewPairs transcript_pairs_up_to_factor(const ParametricGame& game, unsigned horizon, const ParametricOptions& options) {
  require_playable(game, horizon);
  return TranscriptSearch(game, horizon, options, true).run();
}

std::string FailingRange::to_string(std::string_view variable) const {
  if (lower_closed && upper_closed && lower.lower == upper.lower && lower.upper == upper.upper)
    return "{" + lower.to_string(variable) + "}";
  return std::string(lower_closed ? "[" : "(") + lower.to_string(variable) + ", " + upper.to_string(variable) +
         (upper_closed ? "]" : ")");
}

PureForAllResult check_pure_dp_for_all(const ParametricGame& game, const RationalFunction& lambda, unsigned horizon,
                                       const ParametricOptions& options) {
  // λ itself must be a continuous function ≥ 1 of the parameter on the range (as a numeric λ ≥ 1)
  try {
    sign_partition({lambda}, game.range, game.parameter);
  } catch (const Error& e) {
    throw Error("--lambda", "", lambda.to_string(game.parameter), e.why());
  }
  if (auto r = negative_point(lambda - RationalFunction(1), game.range, game.parameter))
    throw Error("--lambda", "", lambda.to_string(game.parameter),
                "λ must be at least 1 on the whole range; at " + game.parameter + " = " + to_string(*r) + " it is " +
                    to_string(lambda.evaluate(*r)));

  PureForAllResult out;
  out.horizon = horizon;
  // pairs up to a factor with neither zero nor pole on the range: it multiplies g and keeps its sign
  const ViewPairs views = transcript_pairs_up_to_factor(game, horizon, options);
  out.nodes = views.nodes;
  out.view_pairs = views.pairs.size();
  // g = λ·P₁ − P₀ (world 0 against 1) and λ·P₀ − P₁ (1 against 0), each once
  std::vector<RationalFunction> functions;
  std::unordered_set<RationalFunction, FunctionHash> seen;
  for (const auto& [p0, p1] : views.pairs)
    for (RationalFunction g : {lambda * p1 - p0, lambda * p0 - p1})
      if (seen.insert(g).second) functions.push_back(std::move(g));
  out.functions = functions.size();
  out.partition = sign_partition(functions, game.range, game.parameter);
  const auto& pieces = out.partition.pieces;
  out.holds.assign(pieces.size(), true);
  for (std::size_t i = 0; i < functions.size(); ++i)
    for (std::size_t k = 0; k < pieces.size(); ++k)
      if (out.partition.signs[i][k] < 0) out.holds[k] = false;
  out.failing = failing_ranges(pieces, out.holds);
  return out;
}

PiecewiseRatio worst_case_ratio_for_all(const ParametricGame& game, unsigned horizon, const ParametricOptions& options) {
  PiecewiseRatio out;
  out.horizon = horizon;
  // pairs up to a factor with neither zero nor pole on the range: the ratios are the same
  const ViewPairs views = transcript_pairs_up_to_factor(game, horizon, options);
  out.nodes = views.nodes;
  out.view_pairs = views.pairs.size();
  std::unordered_set<RationalFunction, FunctionHash> seen;
  for (const auto& [p0, p1] : views.pairs)
    for (const auto& [a, b] : {std::pair{&p0, &p1}, std::pair{&p1, &p0}}) {
      if (b->is_zero()) {
        if (!a->is_zero()) out.infinite = true;
        continue;
      }
      RationalFunction ratio = *a / *b;
      if (seen.insert(ratio).second) out.candidates.push_back(std::move(ratio));
    }
  if (out.infinite) return out;
  if (out.candidates.empty()) throw Error(game.name, "horizon", std::to_string(horizon), "internal: no transcript");
  Envelope envelope;
  try {
    envelope = upper_envelope(out.candidates, game.range, game.parameter);
  } catch (const Error& e) {
    if (e.why().find("denominator vanishes") == std::string::npos) throw;
    throw Error(game.name, "", e.value(),
                "a candidate ratio is unbounded inside the range (" + e.why() +
                    "); the piecewise worst ratio is not a continuous function there — decide claims with check --for-all");
  }
  out.partition.range = game.range;
  out.partition.pieces = std::move(envelope.pieces);
  out.partition.distinct_factors = envelope.distinct_factors;
  out.best = std::move(envelope.best);
  out.comparisons = envelope.comparisons;
  out.intervals = envelope.intervals;
  return out;
}

// ---------------------------------------------------------------- δ(λ(r)): parametric BI-δ

namespace {

/// The game tree of the parametric game with proportional nodes merged, children before parents:
/// a leaf keeps its masses (|m₀|, |m₁|), an inner node its actions, each the list of its answers'
/// children. A node holds its belief pair divided by a factor c > 0 on the whole range (Normaliser);
/// an edge to it carries c (an index into `scales`, 0 for c = 1), and the value of the edge's end is
/// c times the node's: every value of BI-δ — sums, maxima, positive parts of m_b − λ·m_{1−b} — is
/// positively homogeneous in the masses.
struct GameDag {
  struct Child {
    std::size_t node = 0, scale = 0;
  };
  struct Node {
    std::array<RationalFunction, 2> mass;   ///< |m₀|, |m₁| (leaves)
    std::vector<std::vector<Child>> actions;  ///< empty: a leaf
  };
  std::vector<Node> nodes;
  std::vector<RationalFunction> scales{RationalFunction(1)};
  Child root;
};

/// Builds the merged game tree (proportional nodes shared) by the forward recursion (ForwardStep,
/// THEOREMS.md A.3).
class DagBuilder {
public:
  DagBuilder(const ParametricGame& game, unsigned horizon, const ParametricOptions& options)
      : step_(game, horizon, options), horizon_(horizon), normaliser_(game.range) {}

  GameDag run() {
    out_.root = visit(step_.game().verifier->initial_state(), step_.root(), horizon_);
    return std::move(out_);
  }

private:
  GameDag::Child visit(VerifierState v, std::array<Belief, 2> beliefs, unsigned left) {
    const std::size_t scale = scale_index(normaliser_.scale_down(beliefs));
    NodeKey key{v, left, beliefs};
    if (auto it = seen_.find(key); it != seen_.end()) return {it->second, scale};
    step_.count_node(expanded_);
    GameDag::Node node;
    if (step_.is_leaf(v, beliefs, left)) {
      node.mass = ForwardStep::masses(beliefs);
    } else {
      for (std::size_t action = 0; action < step_.game().verifier->allowed(v).size(); ++action) {
        std::vector<GameDag::Child> children;
        for (auto& [answer, next] : step_.after(v, action, beliefs))
          children.push_back(visit(step_.game().verifier->next(v, action), std::move(next), left - 1));
        node.actions.push_back(std::move(children));
      }
    }
    out_.nodes.push_back(std::move(node));
    seen_.emplace(std::move(key), out_.nodes.size() - 1);
    return {out_.nodes.size() - 1, scale};
  }
  std::size_t scale_index(RationalFunction c) {
    if (c == RationalFunction(1)) return 0;
    auto [it, fresh] = scale_ids_.try_emplace(c, out_.scales.size());
    if (fresh) out_.scales.push_back(std::move(c));
    return it->second;
  }

  ForwardStep step_;
  unsigned horizon_;
  Normaliser normaliser_;
  GameDag out_;
  std::uint64_t expanded_ = 0;
  std::unordered_map<NodeKey, std::size_t, NodeHash> seen_;
  std::unordered_map<RationalFunction, std::size_t, FunctionHash> scale_ids_;
};

/// The rational functions the parametric inductions build, each stored once and named by an id,
/// with every product, sum and difference they take remembered by its operands' ids. The
/// inductions run on every piece of a partition (10³ pieces and more), and most pieces' nodes see
/// the very functions an earlier piece saw: there a node costs lookups, not FLINT arithmetic
/// (canonical forms are unique, so the function of a sum does not depend on the order of its terms).
class FunctionTable {
public:
  using Id = std::uint32_t;
  static constexpr Id zero = 0;  ///< the zero function

  FunctionTable() { intern(RationalFunction()); }

  /// The id of @p f (a new one when f was not seen).
  Id intern(const RationalFunction& f) {
    const auto [it, fresh] = ids_.try_emplace(f, static_cast<Id>(functions_.size()));
    if (fresh) functions_.push_back(&it->first);
    return it->second;
  }
  const RationalFunction& operator[](Id id) const { return *functions_[id]; }

  Id product(Id a, Id b) {
    if (a == zero || b == zero) return zero;
    return remembered(products_, a, b, [&] { return (*this)[a] * (*this)[b]; });
  }
  Id difference(Id a, Id b) {
    if (a == b) return zero;
    return remembered(differences_, a, b, [&] { return (*this)[a] - (*this)[b]; });
  }
  /// Σ terms (in any order: the result is one canonical function).
  Id sum(const std::vector<Id>& terms) {
    if (terms.empty()) return zero;
    if (terms.size() == 1) return terms.front();
    if (const auto it = sums_.find(terms); it != sums_.end()) return it->second;
    RationalFunction s;
    for (const Id t : terms) s += (*this)[t];
    const Id id = intern(s);
    sums_.emplace(terms, id);
    return id;
  }

private:
  struct IdsHash {
    std::size_t operator()(const std::vector<Id>& ids) const {
      std::size_t h = ids.size();
      for (const Id x : ids) h = (h ^ x) * 0x9e3779b97f4a7c15ULL + (h >> 29);
      return h;
    }
  };
  template <class Compute>
  Id remembered(std::unordered_map<std::uint64_t, Id>& memo, Id a, Id b, Compute&& compute) {
    const std::uint64_t key = (static_cast<std::uint64_t>(a) << 32) | b;
    if (const auto it = memo.find(key); it != memo.end()) return it->second;
    const Id id = intern(compute());
    memo.emplace(key, id);
    return id;
  }

  std::unordered_map<RationalFunction, Id, FunctionHash> ids_;  // node-based: the keys stay where they are
  std::vector<const RationalFunction*> functions_;
  std::unordered_map<std::uint64_t, Id> products_, differences_;
  std::unordered_map<std::vector<Id>, Id, IdsHash> sums_;
};

/// The functions whose signs the induction has asked for, and the partition that decides those
/// known when it was computed. A sign asked for a function not yet decided is recorded as pending.
class SignOracle {
public:
  /// With @p split_poles, a function with a non-constant denominator D is decided as its numerator
  /// f·D and D, each a polynomial (continuous everywhere), and its sign on a piece is their
  /// product's: for functions that may have poles in the range but never on a piece where their sign
  /// is asked (an internal error if they do).
  SignOracle(const ParameterRange& range, std::string variable, bool split_poles = false)
      : range_(range), variable_(std::move(variable)), split_poles_(split_poles) {}

  /// Adds @p f to the functions to decide (at the next refinement).
  void want(const RationalFunction& f) {
    if (f.is_zero()) return;
    if (split_poles_)
      if (const auto& parts = split(f)) {
        want_continuous(parts->first);
        want_continuous(parts->second);
        return;
      }
    want_continuous(f);
  }
  /// The sign of @p f on piece @p k, or std::nullopt when the partition does not decide it yet
  /// (then it is wanted for the next refinement).
  std::optional<int> sign(const RationalFunction& f, std::size_t k) {
    if (f.is_zero()) return 0;
    if (split_poles_)
      if (const auto& parts = split(f)) {
        const auto n = sign_continuous(parts->first, k), d = sign_continuous(parts->second, k);
        if (!n || !d) return std::nullopt;
        if (*d == 0)
          throw Error(variable_, "", f.to_string(variable_), "internal: a compared function has a pole on the piece where it is compared");
        return *n * *d;
      }
    return sign_continuous(f, k);
  }
  /// sign(table[id], k), the same functions wanted in the same order, with the places of the
  /// function (or of its numerator and denominator) among the oracle's functions remembered per id:
  /// after the first call for an id, two vector lookups.
  std::optional<int> sign(const FunctionTable& table, FunctionTable::Id id, std::size_t k) {
    if (id == FunctionTable::zero) return 0;
    if (id >= slots_.size()) slots_.resize(id + 1);
    Slot& slot = slots_[id];
    if (!slot.resolved) resolve(table[id], slot);
    const auto n = sign_at(slot.parts[0], k);
    if (!slot.split) return n;
    const auto d = sign_at(slot.parts[1], k);
    if (!n || !d) return std::nullopt;
    if (*d == 0)
      throw Error(variable_, "", table[id].to_string(variable_), "internal: a compared function has a pole on the piece where it is compared");
    return *n * *d;
  }

private:
  /// Where a function of a FunctionTable sits among the oracle's functions: itself, or (split) its
  /// numerator and denominator.
  struct Slot {
    bool resolved = false, split = false;
    std::array<std::size_t, 2> parts{};
  };
  void resolve(const RationalFunction& f, Slot& slot) {
    slot.resolved = true;
    if (split_poles_)
      if (const auto& parts = split(f)) {
        slot.split = true;
        slot.parts = {place(parts->first), place(parts->second)};
        return;
      }
    slot.parts[0] = place(f);
  }
  /// The index of @p f (not zero) among the functions, appended when new.
  std::size_t place(const RationalFunction& f) {
    const auto [it, fresh] = index_.emplace(f, functions_.size());
    if (fresh) functions_.push_back(f);
    return it->second;
  }
  std::optional<int> sign_at(std::size_t index, std::size_t k) {
    if (index < decided_) return partition_.signs[index][k];
    ++misses_;
    return std::nullopt;
  }

  /// f = N/D with D not constant: {N, D} as polynomials; std::nullopt when D is constant
  /// (remembered per function: the induction asks for the same signs on every piece).
  const std::optional<std::pair<RationalFunction, RationalFunction>>& split(const RationalFunction& f) {
    auto it = splits_.find(f);
    if (it != splits_.end()) return it->second;
    std::optional<std::pair<RationalFunction, RationalFunction>> parts;
    const std::vector<Integer> den = f.denominator();
    if (den.size() > 1) {
      std::vector<Rational> d(den.begin(), den.end());
      RationalFunction dp = RationalFunction::polynomial(d);
      RationalFunction np = f * dp;
      parts = std::make_pair(std::move(np), std::move(dp));
    }
    return splits_.emplace(f, std::move(parts)).first->second;
  }
  void want_continuous(const RationalFunction& f) {
    if (f.is_zero()) return;
    if (index_.emplace(f, functions_.size()).second) functions_.push_back(f);
  }
  std::optional<int> sign_continuous(const RationalFunction& f, std::size_t k) {
    if (f.is_zero()) return 0;
    const auto it = index_.find(f);
    if (it != index_.end() && it->second < decided_) return partition_.signs[it->second][k];
    ++misses_;
    if (it == index_.end()) {
      index_.emplace(f, functions_.size());
      functions_.push_back(f);
    }
    return std::nullopt;
  }

public:
  /// True when some function is wanted that the partition does not decide.
  bool pending() const { return functions_.size() > decided_; }
  /// Recomputes the partition over every function wanted so far (reusing the factorisations and
  /// roots of the earlier passes).
  void refine() {
    partition_ = sign_partition(functions_, range_, variable_, cache_);
    decided_ = functions_.size();
  }
  const SignPartition& partition() const { return partition_; }
  std::size_t size() const { return functions_.size(); }
  /// How many sign() calls so far found their function undecided.
  std::size_t misses() const { return misses_; }

private:
  ParameterRange range_;
  std::string variable_;
  std::vector<RationalFunction> functions_;
  std::unordered_map<RationalFunction, std::size_t, FunctionHash> index_;
  std::size_t decided_ = 0;
  std::size_t misses_ = 0;
  SignPartition partition_;
  SignPartitionCache cache_;  // the passes' function lists grow: factorisations and roots are kept
  bool split_poles_ = false;
  std::vector<Slot> slots_;
  std::unordered_map<RationalFunction, std::optional<std::pair<RationalFunction, RationalFunction>>, FunctionHash> splits_;
};

/// The maximum of @p candidates (ids of @p table) on piece @p k, or std::nullopt when a comparison
/// is not decided (every undecided pairwise difference is then wanted, so that the next partition
/// decides all).
std::optional<FunctionTable::Id> maximum_on(const std::vector<FunctionTable::Id>& candidates, std::size_t k, SignOracle& oracle,
                                            FunctionTable& table) {
  std::size_t best = 0;
  bool decided = true;
  for (std::size_t j = 1; j < candidates.size(); ++j) {
    const auto s = oracle.sign(table, table.difference(candidates[j], candidates[best]), k);
    if (!s) {
      decided = false;
      break;
    }
    if (*s > 0) best = j;
  }
  if (decided) return candidates[best];
  for (std::size_t i = 0; i < candidates.size(); ++i)
    for (std::size_t j = i + 1; j < candidates.size(); ++j) oracle.sign(table, table.difference(candidates[j], candidates[i]), k);
  return std::nullopt;
}

/// The merged game tree's edges as the inductions read them: the id of every scale factor.
std::vector<FunctionTable::Id> scale_ids(const GameDag& dag, FunctionTable& table) {
  std::vector<FunctionTable::Id> out;
  for (const auto& c : dag.scales) out.push_back(table.intern(c));
  return out;
}

/// The value of an edge's end: c times the node's value @p v (c = 1 for scale 0).
FunctionTable::Id scaled(const std::vector<FunctionTable::Id>& scales, const GameDag::Child& c, FunctionTable::Id v,
                         FunctionTable& table) {
  return c.scale == 0 ? v : table.product(scales[c.scale], v);
}

/// BI-δ (THEOREMS.md B.2) in direction @p b on piece @p k: the value of every node as the rational
/// function equal to it on the piece (its id in @p table), std::nullopt where a comparison below is
/// not decided yet. @p leaf_terms: per leaf, the ids of m_b − λ·m_{1−b}.
std::optional<FunctionTable::Id> induction_on_piece(const GameDag& dag, const std::vector<std::array<FunctionTable::Id, 2>>& leaf_terms,
                                                    const std::vector<FunctionTable::Id>& scales, int b, std::size_t k,
                                                    SignOracle& oracle, FunctionTable& table) {
  std::vector<std::optional<FunctionTable::Id>> value(dag.nodes.size());
  std::vector<FunctionTable::Id> sums, terms;
  for (std::size_t n = 0; n < dag.nodes.size(); ++n) {
    const auto& node = dag.nodes[n];
    if (node.actions.empty()) {
      // (|m_b| − λ·|m_{1−b}|)⁺
      const FunctionTable::Id term = leaf_terms[n][b];
      const auto s = oracle.sign(table, term, k);
      if (s) value[n] = *s > 0 ? term : FunctionTable::zero;
      continue;
    }
    sums.clear();
    bool known = true;
    for (const auto& children : node.actions) {
      terms.clear();
      for (const GameDag::Child& c : children) {
        const auto& v = value[c.node];
        if (!v) {
          known = false;
          break;
        }
        if (*v != FunctionTable::zero) terms.push_back(scaled(scales, c, *v, table));
      }
      if (!known) break;
      sums.push_back(table.sum(terms));
    }
    if (known) value[n] = maximum_on(sums, k, oracle, table);
  }
  const auto& root = value[dag.root.node];
  if (!root) return root;
  return scaled(scales, dag.root, *root, table);
}

/// Runs @p settle(k) on every piece k of @p oracle's partition, refining the partition until one
/// pass decides every sign asked for (the parametric inductions: δ(λ), Φ_α). @p settle computes a
/// piece's values from the oracle's signs and asks for the signs it needs; a sign not yet decided
/// is wanted for the next pass. A refinement keeps every decided sign on the sub-pieces, so each
/// pass decides at least one more level of the game tree; more than @p max_passes is an internal
/// error.
///
/// The induction on a piece reads nothing but the signs the oracle gives it: a piece whose signs
/// (of the functions decided at some pass) equal those of a piece settled then — every sign it
/// asked for decided — has the same values, so it takes them without running @p settle (a sub-piece
/// of a settled piece after a refinement, or a piece with the same signs elsewhere; @p reused
/// counts them). Returns the values per piece of the final partition.
template <class Settled, class Settle>
std::vector<Settled> settle_every_piece(SignOracle& oracle, unsigned max_passes, const std::string& name, unsigned& passes,
                                        std::size_t& reused, Settle&& settle) {
  auto sign_key = [&](std::size_t k, std::size_t count) {
    std::string key(count, '\0');
    for (std::size_t i = 0; i < count; ++i) key[i] = static_cast<char>(oracle.partition().signs[i][k] + 1);
    return key;
  };
  std::unordered_map<std::string, Settled> previous, current;
  std::size_t previous_decided = 0;
  std::vector<Settled> out;
  for (;;) {
    oracle.refine();
    ++passes;
    const std::size_t decided = oracle.size();
    const std::size_t pieces = oracle.partition().pieces.size();
    out.assign(pieces, Settled{});
    current.clear();
    for (std::size_t k = 0; k < pieces; ++k) {
      std::string key = sign_key(k, decided);
      const Settled* known = nullptr;
      if (auto it = current.find(key); it != current.end()) known = &it->second;
      else if (auto old = previous.find(sign_key(k, previous_decided)); old != previous.end())
        known = &current.emplace(std::move(key), old->second).first->second;
      if (known) {
        out[k] = *known;
        ++reused;
        continue;
      }
      const std::size_t misses = oracle.misses();
      out[k] = settle(k);
      if (oracle.misses() == misses) current.emplace(std::move(key), out[k]);
    }
    if (!oracle.pending()) break;
    if (passes >= max_passes)
      throw Error(name, "", "", "internal: the parametric backward induction did not settle after " + std::to_string(passes) + " passes");
    previous = std::move(current);
    current = {};
    previous_decided = decided;
  }
  return out;
}

}  // namespace

PiecewiseDelta worst_case_delta_for_all(const ParametricGame& game, const RationalFunction& lambda, unsigned horizon,
                                        const ParametricOptions& options, const std::vector<RootComparison>& comparisons,
                                        std::vector<std::vector<int>>* comparison_signs) {
  require_at_least(game, lambda, 0, "--lambda", "λ");
  require_playable(game, horizon);
  PiecewiseDelta out;
  out.horizon = horizon;
  out.lambda = lambda;
  const GameDag dag = DagBuilder(game, horizon, options).run();
  // the leaves' terms m_b − λ·m_{1−b}, whose positive parts are taken
  FunctionTable table;
  const std::vector<FunctionTable::Id> scales = scale_ids(dag, table);
  std::vector<std::array<FunctionTable::Id, 2>> leaf_terms(dag.nodes.size());
  SignOracle oracle(game.range, game.parameter);
  Normaliser normaliser(game.range);
  PairClasses classes(normaliser);
  for (std::size_t n = 0; n < dag.nodes.size(); ++n) {
    if (!dag.nodes[n].actions.empty()) {
      ++out.nodes;
      continue;
    }
    ++out.leaves;
    const auto& m = dag.nodes[n].mass;
    classes.insert(m);
    const std::array<RationalFunction, 2> terms{m[0] - lambda * m[1], m[1] - lambda * m[0]};
    for (int b = 0; b < 2; ++b) {
      oracle.want(terms[b]);
      leaf_terms[n][b] = table.intern(terms[b]);
    }
  }
  // refine until one pass decides every comparison on every piece; each pass decides at least one
  // more level of the tree (a decided sign stays decided on the sub-pieces of a refinement), and
  // the root comparisons take one more
  struct Settled {
    std::array<FunctionTable::Id, 2> directional{};
    FunctionTable::Id delta = FunctionTable::zero;
    std::vector<int> comparison_signs;
  };
  // the root comparisons' functions, remembered per (comparison, δ⁰, δ¹)
  std::map<std::tuple<std::size_t, FunctionTable::Id, FunctionTable::Id>, FunctionTable::Id> compared;
  const auto comparison = [&](std::size_t c, const std::array<FunctionTable::Id, 2>& d) {
    const auto [it, fresh] = compared.try_emplace({c, d[0], d[1]}, FunctionTable::zero);
    if (fresh) it->second = table.intern(comparisons[c]({table[d[0]], table[d[1]]}));
    return it->second;
  };
  const std::vector<Settled> settled =
      settle_every_piece<Settled>(oracle, horizon + 3, game.name, out.passes, out.reused, [&](std::size_t k) {
        Settled s;
        s.comparison_signs.assign(comparisons.size(), 0);
        const auto d0 = induction_on_piece(dag, leaf_terms, scales, 0, k, oracle, table);
        const auto d1 = induction_on_piece(dag, leaf_terms, scales, 1, k, oracle, table);
        if (!d0 || !d1) return s;
        s.directional = {*d0, *d1};
        if (const auto larger = maximum_on({*d0, *d1}, k, oracle, table)) s.delta = *larger;
        for (std::size_t c = 0; c < comparisons.size(); ++c)
          if (const auto sign = oracle.sign(table, comparison(c, s.directional), k)) s.comparison_signs[c] = *sign;
        return s;
      });
  const std::size_t pieces = oracle.partition().pieces.size();
  out.directional.resize(pieces);
  out.delta.resize(pieces);
  if (comparison_signs) comparison_signs->assign(comparisons.size(), std::vector<int>(pieces, 0));
  for (std::size_t k = 0; k < pieces; ++k) {
    out.directional[k] = {table[settled[k].directional[0]], table[settled[k].directional[1]]};
    out.delta[k] = table[settled[k].delta];
    if (comparison_signs)
      for (std::size_t c = 0; c < comparisons.size(); ++c) (*comparison_signs)[c][k] = settled[k].comparison_signs[c];
  }
  out.partition = oracle.partition();
  out.functions = oracle.size();
  out.view_pairs = classes.size();
  return out;
}

PureForAllResult check_approximate_dp_for_all(const ParametricGame& game, const RationalFunction& lambda, const RationalFunction& delta,
                                              unsigned horizon, const ParametricOptions& options, PiecewiseDelta* worst) {
  require_at_least(game, lambda, 1, "--lambda", "λ");
  require_at_least(game, delta, 0, "--delta", "δ");
  require_at_least(game, RationalFunction(1) - delta, 0, "--delta", "1 − δ");
  std::vector<std::vector<int>> signs;
  const std::vector<RootComparison> claim = {[&](const std::array<RationalFunction, 2>& d) { return delta - d[0]; },
                                             [&](const std::array<RationalFunction, 2>& d) { return delta - d[1]; }};
  PiecewiseDelta w = worst_case_delta_for_all(game, lambda, horizon, options, claim, &signs);
  PureForAllResult out;
  out.horizon = horizon;
  out.partition = w.partition;
  out.nodes = w.nodes;
  out.view_pairs = w.view_pairs;
  out.functions = w.functions;
  out.holds.assign(out.partition.pieces.size(), true);
  for (std::size_t k = 0; k < out.holds.size(); ++k) out.holds[k] = signs[0][k] >= 0 && signs[1][k] >= 0;
  out.failing = failing_ranges(out.partition.pieces, out.holds);
  if (worst) *worst = std::move(w);
  return out;
}

// ---------------------------------------------------------------- Φ_α(r): parametric BI-Rényi

namespace {

/// A leaf of BI-Rényi (THEOREMS.md B.4), as ids of a FunctionTable: its masses |m₀|, |m₁| and per
/// direction b the term |m_b|^α·|m_{1−b}|^{1−α} as a rational function where both masses are not
/// identically zero (its value wherever |m_{1−b}| ≠ 0; zero, and unused, otherwise).
struct RenyiLeaf {
  std::array<FunctionTable::Id, 2> mass{}, term{};
};

/// A value of the induction on a piece: +∞ on the whole piece, or a function (an id).
struct ExtendedId {
  bool infinite = false;
  FunctionTable::Id value = FunctionTable::zero;
};

/// The value of leaf @p leaf in direction @p b on piece @p k: 0 where |m_b| = 0, +∞ where
/// |m_{1−b}| = 0 < |m_b|, the rational term otherwise (each decided on the whole piece by the
/// masses' signs); std::nullopt while a mass's sign is undecided.
std::optional<ExtendedId> renyi_leaf_on_piece(const RenyiLeaf& leaf, int b, std::size_t k, SignOracle& oracle, FunctionTable& table) {
  const FunctionTable::Id p = leaf.mass[b], q = leaf.mass[1 - b];
  if (p == FunctionTable::zero) return ExtendedId{};
  const auto sp = oracle.sign(table, p, k);
  const auto sq = q == FunctionTable::zero ? std::optional<int>(0) : oracle.sign(table, q, k);
  if (!sp || !sq) return std::nullopt;
  if (*sp == 0) return ExtendedId{};
  if (*sq == 0) return ExtendedId{true};
  return ExtendedId{false, leaf.term[b]};
}

/// BI-Rényi in direction @p b on piece @p k: the value of the root as +∞ or the rational function
/// equal to it on the piece; std::nullopt where a sign below is not decided yet. Stopping at an inner
/// node is never better than continuing (A.4: the term is subadditive over a split of the masses),
/// so a node's value is the largest action's sum over its answers.
std::optional<ExtendedId> renyi_on_piece(const GameDag& dag, const std::vector<RenyiLeaf>& leaves, const std::vector<FunctionTable::Id>& scales,
                                         int b, std::size_t k, SignOracle& oracle, FunctionTable& table) {
  std::vector<std::optional<ExtendedId>> value(dag.nodes.size());
  std::vector<FunctionTable::Id> sums, terms;
  for (std::size_t n = 0; n < dag.nodes.size(); ++n) {
    const auto& node = dag.nodes[n];
    if (node.actions.empty()) {
      value[n] = renyi_leaf_on_piece(leaves[n], b, k, oracle, table);
      continue;
    }
    sums.clear();
    bool known = true, infinite = false;
    for (const auto& children : node.actions) {
      terms.clear();
      bool action_infinite = false;
      for (const GameDag::Child& c : children) {
        const auto& v = value[c.node];
        if (!v) {
          known = false;
          break;
        }
        if (v->infinite) action_infinite = true;  // c·∞ = ∞ for the factor c > 0
        else if (!action_infinite && v->value != FunctionTable::zero) terms.push_back(scaled(scales, c, v->value, table));
      }
      if (!known) break;
      if (action_infinite) infinite = true;
      else sums.push_back(table.sum(terms));
    }
    if (!known) continue;
    if (infinite) value[n] = ExtendedId{true};
    else if (auto m = maximum_on(sums, k, oracle, table)) value[n] = ExtendedId{false, *m};
  }
  auto root = value[dag.root.node];
  if (root && !root->infinite) root->value = scaled(scales, dag.root, root->value, table);
  return root;
}

/// Parametric BI-Rényi (PiecewiseRenyiMoment) and, with @p bound, the sign of M − W^b in both
/// directions on every piece (−1 where W^b = +∞), the smaller of the two in @p bound_signs.
PiecewiseRenyiMoment renyi_induction(const ParametricGame& game, unsigned long alpha, unsigned horizon, const ParametricOptions& options,
                                     const RationalFunction* bound, std::vector<int>* bound_signs) {
  if (alpha < 2)
    throw Error(game.name, "alpha", std::to_string(alpha),
                "the parametric Rényi moment needs an integer order α ≥ 2 (for other α the moment is not a rational function of " +
                    game.parameter + ")");
  if (alpha > 1000) throw Error(game.name, "alpha", std::to_string(alpha), "the order α is at most 1000 here");
  require_playable(game, horizon);
  PiecewiseRenyiMoment out;
  out.horizon = horizon;
  out.alpha = alpha;
  const GameDag dag = DagBuilder(game, horizon, options).run();
  // the leaves' masses are decided first: where one vanishes, a term is 0 or +∞ instead of the
  // rational function's value, so those points are pieces of their own
  SignOracle oracle(game.range, game.parameter, true);
  FunctionTable table;
  const std::vector<FunctionTable::Id> scales = scale_ids(dag, table);
  std::vector<RenyiLeaf> leaves(dag.nodes.size());
  const long a = static_cast<long>(alpha);
  for (std::size_t n = 0; n < dag.nodes.size(); ++n) {
    if (!dag.nodes[n].actions.empty()) {
      ++out.nodes;  // inner nodes, as the δ report counts them
      continue;
    }
    ++out.leaves;
    const auto& mass = dag.nodes[n].mass;
    RenyiLeaf& leaf = leaves[n];
    for (int b = 0; b < 2; ++b) {
      oracle.want(mass[b]);
      leaf.mass[b] = table.intern(mass[b]);
      if (!mass[0].is_zero() && !mass[1].is_zero()) leaf.term[b] = table.intern(mass[b].pow(a) / mass[1 - b].pow(a - 1));
    }
  }
  struct Settled {
    std::array<ExtendedId, 2> directional;
    ExtendedId moment;
    int bound_sign = 0;
  };
  // M − W^b, remembered per W^b
  std::unordered_map<FunctionTable::Id, FunctionTable::Id> below_bound;
  const auto bound_sign = [&](const ExtendedId& w, std::size_t k) -> std::optional<int> {
    if (w.infinite) return -1;
    const auto [it, fresh] = below_bound.try_emplace(w.value, FunctionTable::zero);
    if (fresh) it->second = table.intern(*bound - table[w.value]);
    return oracle.sign(table, it->second, k);
  };
  const std::vector<Settled> settled =
      settle_every_piece<Settled>(oracle, horizon + 3, game.name, out.passes, out.reused, [&](std::size_t k) {
        Settled s;
        const auto w0 = renyi_on_piece(dag, leaves, scales, 0, k, oracle, table);
        const auto w1 = renyi_on_piece(dag, leaves, scales, 1, k, oracle, table);
        if (!w0 || !w1) return s;
        s.directional = {*w0, *w1};
        if (w0->infinite || w1->infinite) s.moment = ExtendedId{true};
        else if (const auto larger = maximum_on({w0->value, w1->value}, k, oracle, table)) s.moment = ExtendedId{false, *larger};
        if (bound) {
          const auto s0 = bound_sign(*w0, k), s1 = bound_sign(*w1, k);
          if (s0 && s1) s.bound_sign = std::min(*s0, *s1);
        }
        return s;
      });
  out.partition = oracle.partition();
  out.functions = oracle.size();
  const auto extended = [&](const ExtendedId& e) { return e.infinite ? ExtendedFunction{true, {}} : ExtendedFunction{false, table[e.value]}; };
  for (const auto& s : settled) {
    out.directional.push_back({extended(s.directional[0]), extended(s.directional[1])});
    out.moment.push_back(extended(s.moment));
    if (bound_signs) bound_signs->push_back(s.bound_sign);
  }
  return out;
}

}  // namespace

PiecewiseRenyiMoment worst_case_renyi_moment_for_all(const ParametricGame& game, unsigned long alpha, unsigned horizon,
                                                     const ParametricOptions& options) {
  return renyi_induction(game, alpha, horizon, options, nullptr, nullptr);
}

PureForAllResult check_renyi_moment_for_all(const ParametricGame& game, unsigned long alpha, const RationalFunction& bound, unsigned horizon,
                                            const ParametricOptions& options, PiecewiseRenyiMoment* worst) {
  require_at_least(game, bound, 1, "--renyi-moment", "the bound M on Φ_α");
  std::vector<int> signs;
  PiecewiseRenyiMoment w = renyi_induction(game, alpha, horizon, options, &bound, &signs);
  PureForAllResult out;
  out.horizon = horizon;
  out.partition = w.partition;
  out.nodes = w.nodes;
  out.functions = w.functions;
  out.holds.assign(out.partition.pieces.size(), true);
  for (std::size_t k = 0; k < out.holds.size(); ++k) out.holds[k] = signs[k] >= 0;
  out.failing = failing_ranges(out.partition.pieces, out.holds);
  if (worst) *worst = std::move(w);
  return out;
}

}  // namespace exactdp::parametric
