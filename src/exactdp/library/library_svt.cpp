// Sparse vector / AboveThreshold with discrete Laplace noise, exact by the geometric sums of
// THEOREMS.md B.13 (D.5). The noise is never clamped: it enters a comparison (B.14).
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_detail.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace exactdp::library {

using detail::power;
using detail::require;
using detail::continual_game;

namespace {

/// A Laurent polynomial Σ_a c_a X^a in X = r_ν^j (the factors F_ν(A + j) on one piece of ℤ).
using Laurent = std::map<long, Rational>;

Laurent multiply(const Laurent& x, const Laurent& y) {
  Laurent out;
  for (const auto& [a, c] : x)
    for (const auto& [b, d] : y) out[a + b] += c * d;
  return out;
}

/// Σ_{j=lo}^{hi} θ^j over a finite range.
Rational geometric_sum(const Rational& theta, long lo, long hi) {
  if (theta == 1) return Rational(hi - lo + 1);
  return (power(theta, lo) - power(theta, hi + 1)) / (1 - theta);
}

void check_noise(const char* where, const char* field, const Rational& r) {
  require(sgn(r) > 0 && r < 1, where, field, r, "a discrete Laplace parameter r = e^-epsilon must lie strictly between 0 and 1");
}

}  // namespace

Rational svt_no_stop_probability(const Rational& r_threshold, const Rational& r_query, const std::vector<long>& margins) {
  const char* where = "library::svt_no_stop_probability";
  check_noise(where, "r_threshold", r_threshold);
  check_noise(where, "r_query", r_query);
  for (long a : margins) require(a >= -1'000'000 && a <= 1'000'000, where, "margins", Rational(a), "|margin| must be at most 10^6");
  // Break points of the piecewise form: j = 0 (the weight r_τ^{|j|}) and j = −A_s (F_ν(A_s + j)
  // changes form where A_s + j becomes ≥ 0).
  std::set<long> cuts{0};
  for (long a : margins) cuts.insert(-a);
  const std::vector<long> b(cuts.begin(), cuts.end());
  const Rational& rq = r_query;
  const Rational weight = (1 - r_threshold) / (1 + r_threshold);

  // The product Π_s F_ν(A_s + j) on a piece, as a Laurent polynomial in X = r_ν^j, with the form of
  // each factor read off at a representative j of the piece (D.3):
  //   A + j ≥ 0:  F = 1 − (r^{A+1}/(1+r)) X,      A + j < 0:  F = (r^{−A}/(1+r)) X^{−1}.
  auto product_at = [&](long j) {
    Laurent p{{0, Rational(1)}};
    for (long a : margins) {
      Laurent f;
      if (a + j >= 0) f = {{0, Rational(1)}, {1, -power(rq, a + 1) / (1 + rq)}};
      else f = {{-1, power(rq, -a) / (1 + rq)}};
      p = multiply(p, f);
    }
    return p;
  };
  // Σ_{j in piece} r_τ^{|j|} Σ_a c_a r_ν^{a j} = Σ_a c_a Σ_j θ_a^j, θ_a = r_ν^a r_τ^{±1}.
  Rational total = 0;
  // the lower half-line (−∞, b₀ − 1]: every j < 0 and every A + j < 0, so θ > 1
  {
    const long hi = b.front() - 1;
    for (const auto& [a, c] : product_at(hi)) {
      const Rational theta = power(rq, a) / r_threshold;
      // Σ_{j ≤ hi} θ^j = θ^{hi+1}/(θ − 1) for θ > 1
      total += c * power(theta, hi + 1) / (theta - 1);
    }
  }
  // the finite pieces [b_i, b_{i+1} − 1]
  for (std::size_t i = 0; i + 1 < b.size(); ++i) {
    const long lo = b[i], hi = b[i + 1] - 1;
    const Rational rt = lo >= 0 ? r_threshold : 1 / r_threshold;
    for (const auto& [a, c] : product_at(lo)) total += c * geometric_sum(power(rq, a) * rt, lo, hi);
  }
  // the upper half-line [b_last, ∞): every j ≥ 0 and every A + j ≥ 0, so θ = r_ν^a r_τ < 1
  {
    const long lo = b.back();
    for (const auto& [a, c] : product_at(lo)) {
      const Rational theta = power(rq, a) * r_threshold;
      total += c * power(theta, lo) / (1 - theta);
    }
  }
  return weight * total;
}

namespace {

/// The state of an AboveThreshold instance: {halted, positives so far, running count, margins…}
/// with the margins since the last (re)start sorted (their multiset is the sufficient statistic
/// of the posterior of τ).
using SvtState = std::vector<long>;

constexpr std::size_t margins_begin = 3;

/// The step of a sparse-vector mechanism with cutoff c from @p s on a query of margin @p a and
/// new running count @p count. @p no_stop memoises svt_no_stop_probability by multiset.
std::vector<Outcome<SvtState>> svt_step(const SvtState& s, long a, long count, const SparseVectorParams& p,
                                        std::map<std::vector<long>, Rational>& no_stop) {
  if (s[0] == 1) return {{Rational(1), halt_answer, s}};
  auto n = [&](const std::vector<long>& ms) -> const Rational& {
    auto it = no_stop.find(ms);
    if (it == no_stop.end()) it = no_stop.emplace(ms, svt_no_stop_probability(p.r_threshold, p.r_query, ms)).first;
    return it->second;
  };
  std::vector<long> before(s.begin() + margins_begin, s.end()), after = before;
  after.insert(std::upper_bound(after.begin(), after.end(), a), a);
  // Pr[below now | below so far] = N(before ∪ {A}) / N(before), both exact (B.13)
  const Rational below = n(after) / n(before);
  SvtState cont{0, s[1], count};
  cont.insert(cont.end(), after.begin(), after.end());
  const long positives = s[1] + 1;
  SvtState stop{positives >= static_cast<long>(p.cutoff) ? 1 : 0, positives, count};  // restart: fresh τ, no margins
  if (stop[0] == 1) stop = {1, 0, 0};  // one canonical halted state
  return {{below, "below", cont}, {1 - below, "above", stop}};
}

std::string show_svt(const SvtState& s) {
  if (s[0] == 1) return "halted";
  std::string out = "above=" + std::to_string(s[1]) + ",count=" + std::to_string(s[2]) + ",margins=[";
  for (std::size_t i = margins_begin; i < s.size(); ++i) out += (i > margins_begin ? "," : "") + std::to_string(s[i]);
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
  auto no_stop = std::make_shared<std::map<std::vector<long>, Rational>>();
  auto step = [params, no_stop](const SvtState& s, const std::string& m) {
    const long v = std::stol(m);
    // the message is the margin v = q − Thresh; the comparison q + ν > Thresh + τ has A = −v
    return svt_step(s, -v, 0, params, *no_stop);
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, detail::VectorHash>>("AboveThreshold(" + describe(params) + ")", messages,
                                                                             step, show_svt);
  const StateId start = mech->state_id(SvtState{0, 0, 0});
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
  auto no_stop = std::make_shared<std::map<std::vector<long>, Rational>>();
  auto step = [params, no_stop](const SvtState& s, const std::string& m) {
    const auto slash = m.find('/');
    const long x = std::stol(m.substr(0, slash)), t = std::stol(m.substr(slash + 1));
    const long count = s[2] + x;
    // stop iff c_t + ν > T + τ: margin A = T − c_t
    return svt_step(s, t - count, count, params, *no_stop);
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, detail::VectorHash>>("SVT counter(" + describe(params) + ")", messages,
                                                                             step, show_svt);
  const StateId start = mech->state_id(SvtState{0, 0, 0});
  std::vector<MessagePair> pairs;
  for (std::size_t i = 0; i < thresholds.size(); ++i)
    for (MessageId x0 = 0; x0 < 2; ++x0)
      for (MessageId x1 = 0; x1 < 2; ++x1) pairs.push_back({MessageId(2 * i) + x0, MessageId(2 * i) + x1});
  return continual_game(mech->name(), mech, start, std::make_shared<PairsVerifier>(std::move(pairs), 1u), params.queries);
}

}  // namespace exactdp::library
