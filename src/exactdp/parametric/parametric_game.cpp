#include "exactdp/parametric/parametric_game.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <map>
#include <set>
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
/// LYU22 (14)–(16)) over rational functions, collecting every transcript's pair (P₀, P₁).
class TranscriptSearch {
public:
  TranscriptSearch(const ParametricGame& game, unsigned horizon, const ParametricOptions& options)
      : game_(game), horizon_(horizon), options_(options) {}

  ViewPairs run() {
    std::array<Belief, 2> root;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : game_.initial[b]) root[b][s] += RationalFunction(p);
    visit(game_.verifier->initial_state(), root, horizon_);
    return std::move(out_);
  }

private:
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
  void leaf(const std::array<Belief, 2>& beliefs) {
    std::array<RationalFunction, 2> pair{total(beliefs[0]), total(beliefs[1])};
    if (seen_pairs_.insert(pair).second) out_.pairs.push_back(std::move(pair));
  }
  void visit(VerifierState v, const std::array<Belief, 2>& beliefs, unsigned left) {
    if (!seen_nodes_.insert(NodeKey{v, left, beliefs}).second) return;  // an equal node: the same transcripts' pairs
    if (++out_.nodes > options_.max_nodes)
      throw Error(game_.name, "horizon", std::to_string(horizon_),
                  "the parametric game has more than " + std::to_string(options_.max_nodes) + " nodes; lower the horizon");
    const auto& pairs = game_.verifier->allowed(v);
    // halted in both worlds: every further answer is "halt" with probability 1, nothing changes
    if (left == 0 || pairs.empty() || (all_halted(beliefs[0]) && all_halted(beliefs[1]))) return leaf(beliefs);
    for (std::size_t action = 0; action < pairs.size(); ++action) {
      const std::array<MessageId, 2> m{pairs[action].world0, pairs[action].world1};
      std::map<AnswerId, std::array<Belief, 2>> after;
      for (int b = 0; b < 2; ++b)
        for (const auto& [s, mass] : beliefs[b]) {
          const auto& rule = game_.kernel.at(s).at(m[b]);
          if (!rule)
            throw Error(game_.name, "/mechanism/states/" + game_.state_names.at(s), game_.messages.at(m[b]),
                        "the state has no rule for this message");
          for (const auto& row : *rule) {
            RationalFunction add = mass * row.probability;
            if (add.is_zero()) continue;
            after[row.answer][b][row.next] += add;
          }
        }
      for (auto& [answer, next] : after) {
        for (auto& belief : next)
          std::erase_if(belief, [](const auto& e) { return e.second.is_zero(); });
        if (next[0].empty() && next[1].empty()) continue;
        visit(game_.verifier->next(v, action), next, left - 1);
      }
    }
  }

  const ParametricGame& game_;
  unsigned horizon_;
  ParametricOptions options_;
  ViewPairs out_;
  std::unordered_set<NodeKey, NodeHash> seen_nodes_;
  std::unordered_set<std::array<RationalFunction, 2>, PairHash> seen_pairs_;
};

}  // namespace

ViewPairs transcript_probabilities(const ParametricGame& game, unsigned horizon, const ParametricOptions& options) {
  if (!game.verifier) throw Error(game.name, "neighbours", "", "the game has no verifier");
  if (horizon == 0) throw Error(game.name, "horizon", "0", "the horizon must be at least 1");
  if (game.max_horizon && horizon > *game.max_horizon)
    throw Error(game.name, "max_horizon", std::to_string(*game.max_horizon),
                "the spec is exact only up to this horizon; " + std::to_string(horizon) + " rounds were asked");
  return TranscriptSearch(game, horizon, options).run();
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
  const ViewPairs views = transcript_probabilities(game, horizon, options);
  out.nodes = views.nodes;
  out.view_pairs = views.pairs.size();
  // g = λ·P₁ − P₀ (world 0 against 1) and λ·P₀ − P₁ (1 against 0), each once
  std::vector<RationalFunction> functions;
  std::unordered_set<std::string> seen;
  for (const auto& [p0, p1] : views.pairs)
    for (RationalFunction g : {lambda * p1 - p0, lambda * p0 - p1})
      if (seen.insert(g.key()).second) functions.push_back(std::move(g));
  out.functions = functions.size();
  out.partition = sign_partition(functions, game.range, game.parameter);
  const auto& pieces = out.partition.pieces;
  out.holds.assign(pieces.size(), true);
  for (std::size_t i = 0; i < functions.size(); ++i)
    for (std::size_t k = 0; k < pieces.size(); ++k)
      if (out.partition.signs[i][k] < 0) out.holds[k] = false;
  // merge consecutive failing pieces into maximal intervals
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (out.holds[k]) continue;
    const bool extends = k > 0 && !out.holds[k - 1];
    if (!extends) {
      FailingRange f;
      f.lower = pieces[k].lower;
      f.lower_closed = pieces[k].lower_closed;
      out.failing.push_back(f);
    }
    FailingRange& f = out.failing.back();
    f.upper = pieces[k].upper;
    f.upper_closed = pieces[k].upper_closed;
    if (!pieces[k].is_point() && pieces[k].sample) f.samples.push_back(*pieces[k].sample);
  }
  for (auto& f : out.failing)
    if (f.samples.empty() && f.lower.is_rational()) f.samples.push_back(f.lower.lower);  // a lone rational point
  return out;
}

PiecewiseRatio worst_case_ratio_for_all(const ParametricGame& game, unsigned horizon, const ParametricOptions& options,
                                        std::size_t max_candidates) {
  PiecewiseRatio out;
  out.horizon = horizon;
  const ViewPairs views = transcript_probabilities(game, horizon, options);
  out.nodes = views.nodes;
  out.view_pairs = views.pairs.size();
  std::unordered_set<std::string> seen;
  for (const auto& [p0, p1] : views.pairs)
    for (const auto& [a, b] : {std::pair{&p0, &p1}, std::pair{&p1, &p0}}) {
      if (b->is_zero()) {
        if (!a->is_zero()) out.infinite = true;
        continue;
      }
      RationalFunction ratio = *a / *b;
      if (seen.insert(ratio.key()).second) out.candidates.push_back(std::move(ratio));
    }
  if (out.infinite) return out;
  if (out.candidates.empty()) throw Error(game.name, "horizon", std::to_string(horizon), "internal: no transcript");
  if (out.candidates.size() > max_candidates)
    throw Error(game.name, "horizon", std::to_string(horizon),
                std::to_string(out.candidates.size()) + " distinct ratio functions (more than " + std::to_string(max_candidates) +
                    "): the piecewise maximum compares every pair; decide a claim with check --for-all instead");
  // the candidates themselves (their poles are refused), then every pairwise difference
  const std::size_t n = out.candidates.size();
  std::vector<RationalFunction> functions = out.candidates;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) functions.push_back(out.candidates[i] - out.candidates[j]);
  try {
    out.partition = sign_partition(functions, game.range, game.parameter);
  } catch (const Error& e) {
    throw Error(game.name, "", e.value(),
                "a candidate ratio is unbounded inside the range (" + e.why() +
                    "); the piecewise worst ratio is not a continuous function there — decide claims with check --for-all");
  }
  // sign of R_i − R_j on piece k, from the difference with i < j
  auto compare = [&](std::size_t i, std::size_t j, std::size_t k) {
    if (i == j) return 0;
    const std::size_t lo = std::min(i, j), hi = std::max(i, j);
    const std::size_t index = n + lo * n - lo * (lo + 1) / 2 + (hi - lo - 1);
    const int s = out.partition.signs[index][k];
    return i < j ? s : -s;
  };
  for (std::size_t k = 0; k < out.partition.pieces.size(); ++k) {
    std::size_t best = 0;
    for (std::size_t j = 1; j < n; ++j)
      if (compare(best, j, k) < 0) best = j;
    // on a tie, keep the previous piece's function, so that equal neighbours merge in reports
    if (k > 0 && compare(out.best[k - 1], best, k) == 0) best = out.best[k - 1];
    out.best.push_back(best);
  }
  return out;
}

}  // namespace exactdp::parametric
