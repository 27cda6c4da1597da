// Sparse vector / AboveThreshold with discrete Laplace noise, exact by the geometric sums of
// THEOREMS.md B.13 (D.5). The noise is never clamped: it enters a comparison (B.14). The posterior
// of the threshold noise and every probability come from noise::LatentThreshold, the one home of
// the B.13 formula.
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_detail.hpp"
#include "exactdp/noise/latent.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <set>

namespace exactdp::library {

using detail::require;
using detail::continual_game;
using noise::LatentThreshold;

namespace {

void check_noise(const char* where, const char* field, const Rational& r) {
  require(sgn(r) > 0 && r < 1, where, field, r, "a discrete Laplace parameter r = e^-epsilon must lie strictly between 0 and 1");
}

}  // namespace

Rational svt_no_stop_probability(const Rational& r_threshold, const Rational& r_query, const std::vector<long>& margins) {
  const char* where = "library::svt_no_stop_probability";
  check_noise(where, "r_threshold", r_threshold);
  check_noise(where, "r_query", r_query);
  for (long a : margins) require(a >= -1'000'000 && a <= 1'000'000, where, "margins", Rational(a), "|margin| must be at most 10^6");
  std::vector<LatentThreshold::Comparison> below;
  for (long a : margins) below.push_back({r_query, a, noise::Side::below});
  return LatentThreshold::probability_of(r_threshold, below);
}

namespace {

/// The state of an AboveThreshold instance: halted, the positive answers so far, the running count,
/// and the posterior of τ since the last (re)start — canonically the sorted multiset of margins.
struct SvtState {
  bool halted = false;
  long positives = 0;
  long count = 0;
  LatentThreshold threshold;
  friend bool operator==(const SvtState&, const SvtState&) = default;
};

struct SvtHash {
  std::size_t operator()(const SvtState& s) const {
    std::size_t h = LatentThreshold::Hash{}(s.threshold);
    for (long x : {long(s.halted), s.positives, s.count}) h ^= std::hash<long>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

SvtState fresh(const SparseVectorParams& p) { return SvtState{false, 0, 0, LatentThreshold(p.r_threshold)}; }

/// The step of a sparse-vector mechanism with cutoff c from @p s on a query of margin @p a and
/// new running count @p count: Pr[below now | below so far] and the next posterior of τ (B.13).
std::vector<Outcome<SvtState>> svt_step(const SvtState& s, long a, long count, const SparseVectorParams& p) {
  if (s.halted) return {{Rational(1), halt_answer, s}};
  std::vector<Outcome<SvtState>> out;
  for (auto& branch : s.threshold.compare(a, p.r_query)) {
    if (branch.outcome == noise::Side::below) {
      out.push_back({branch.probability, "below", SvtState{false, s.positives, count, std::move(branch.next)}});
      continue;
    }
    const long positives = s.positives + 1;
    SvtState stop{false, positives, count, LatentThreshold(p.r_threshold)};  // restart: fresh τ, no margins
    if (positives >= static_cast<long>(p.cutoff)) stop = SvtState{true, 0, 0, LatentThreshold(p.r_threshold)};  // one canonical halted state
    out.push_back({branch.probability, "above", std::move(stop)});
  }
  return out;
}

std::string show_svt(const SvtState& s) {
  if (s.halted) return "halted";
  std::string out = "above=" + std::to_string(s.positives) + ",count=" + std::to_string(s.count) + ",margins=[";
  const auto& cs = s.threshold.comparisons();
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(cs[i].margin);
  }
  return out + "]";
}

void check_svt(const char* where, const SparseVectorParams& p) {
  check_noise(where, "r_threshold", p.r_threshold);
  check_noise(where, "r_query", p.r_query);
  require(p.queries >= 1 && p.queries <= 1000, where, "queries", Rational(p.queries), "must be between 1 and 1000");
  require(p.cutoff >= 1 && p.cutoff <= 1000, where, "cutoff", Rational(p.cutoff), "must be between 1 and 1000");
}

std::string describe(const SparseVectorParams& p) {
  return "r_threshold=" + to_string(p.r_threshold) + ", r_query=" + to_string(p.r_query) + ", cutoff=" + std::to_string(p.cutoff);
}

}  // namespace

Game above_threshold(const SparseVectorParams& params, long min_margin, long max_margin) {
  const char* where = "library::above_threshold";
  check_svt(where, params);
  require(min_margin >= -1000 && min_margin <= 1000, where, "min_margin", Rational(min_margin), "must lie in [-1000, 1000]");
  require(max_margin >= min_margin && max_margin - min_margin <= 40 && max_margin <= 1000, where, "max_margin", Rational(max_margin),
          "must lie in [min_margin, min_margin + 40] and be at most 1000");
  std::vector<std::string> messages;
  for (long v = min_margin; v <= max_margin; ++v) messages.push_back(std::to_string(v));
  auto step = [params](const SvtState& s, const std::string& m) {
    const long v = std::stol(m);
    // the message is the margin v = q − Thresh; the comparison q + ν > Thresh + τ has A = −v
    return svt_step(s, -v, 0, params);
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, SvtHash>>("AboveThreshold(" + describe(params) + ")", messages, step, show_svt);
  const StateId start = mech->state_id(fresh(params));
  std::vector<MessagePair> pairs;
  for (long v0 = min_margin; v0 <= max_margin; ++v0)
    for (long v1 = std::max(min_margin, v0 - 1); v1 <= std::min(max_margin, v0 + 1); ++v1)
      pairs.push_back({MessageId(v0 - min_margin), MessageId(v1 - min_margin)});
  return continual_game(mech->name(), mech, start, std::make_shared<PairsVerifier>(std::move(pairs), std::nullopt), params.queries);
}

Game svt_counter(const SparseVectorParams& params, const std::vector<long>& thresholds) {
  const char* where = "library::svt_counter";
  check_svt(where, params);
  require(!thresholds.empty() && thresholds.size() <= 20, where, "thresholds", Rational(static_cast<unsigned long>(thresholds.size())),
          "list between 1 and 20 thresholds");
  std::set<long> seen;
  for (long t : thresholds) {
    require(t >= -1000 && t <= 1000, where, "thresholds", Rational(t), "thresholds must lie in [-1000, 1000]");
    require(seen.insert(t).second, where, "thresholds", Rational(t), "threshold listed twice");
  }
  // messages "x/T", x ∈ {0,1}, T ∈ thresholds; id = 2·(index of T) + x
  std::vector<std::string> messages;
  for (long t : thresholds)
    for (int x = 0; x < 2; ++x) messages.push_back(std::to_string(x) + "/" + std::to_string(t));
  auto step = [params](const SvtState& s, const std::string& m) {
    const auto slash = m.find('/');
    const long x = std::stol(m.substr(0, slash)), t = std::stol(m.substr(slash + 1));
    const long count = s.count + x;
    // stop iff c_t + ν > T + τ: margin A = T − c_t
    return svt_step(s, t - count, count, params);
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, SvtHash>>("SVT counter(" + describe(params) + ")", messages, step, show_svt);
  const StateId start = mech->state_id(fresh(params));
  std::vector<MessagePair> pairs;
  for (std::size_t i = 0; i < thresholds.size(); ++i)
    for (MessageId x0 = 0; x0 < 2; ++x0)
      for (MessageId x1 = 0; x1 < 2; ++x1) pairs.push_back({MessageId(2 * i) + x0, MessageId(2 * i) + x1});
  return continual_game(mech->name(), mech, start, std::make_shared<PairsVerifier>(std::move(pairs), 1u), params.queries);
}

}  // namespace exactdp::library
