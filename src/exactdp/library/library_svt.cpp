// Sparse vector / AboveThreshold with discrete Laplace noise, exact by the geometric sums of
// THEOREMS.md B.13 (D.5). The noise is never clamped: it enters a comparison (B.14). The posterior
// of the threshold noise and every probability come from noise::LatentThreshold, the one home of
// the B.13 formula.
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_detail.hpp"
#include "exactdp/library/library_parametric.hpp"
#include "exactdp/library/parametric_detail.hpp"
#include "exactdp/library/svt_step.hpp"
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

using SvtState = detail::SvtState<noise::RationalField>;
using SvtHash = detail::SvtHash<noise::RationalField>;

detail::SvtNoise<noise::RationalField> noise_of(const SparseVectorParams& p) { return {p.r_threshold, p.r_query, p.cutoff}; }

SvtState fresh(const SparseVectorParams& p) { return detail::fresh_svt_state(noise_of(p)); }

/// The numeric step as LambdaMechanism outcomes.
std::vector<Outcome<SvtState>> as_outcomes(std::vector<detail::SvtOutcome<noise::RationalField>> step) {
  std::vector<Outcome<SvtState>> out;
  for (auto& o : step) out.push_back({std::move(o.probability), std::move(o.answer), std::move(o.next)});
  return out;
}

/// A state's name (the same for the numeric and the parametric instance: it never shows a number).
template <class F>
std::string show_svt(const detail::SvtState<F>& s) {
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

void check_margins(const char* where, long min_margin, long max_margin) {
  require(min_margin >= -1000 && min_margin <= 1000, where, "min_margin", Rational(min_margin), "must lie in [-1000, 1000]");
  require(max_margin >= min_margin && max_margin - min_margin <= 40 && max_margin <= 1000, where, "max_margin", Rational(max_margin),
          "must lie in [min_margin, min_margin + 40] and be at most 1000");
}

/// AboveThreshold's messages: the margins v = q − Thresh from min_margin to max_margin.
std::vector<std::string> margin_messages(long min_margin, long max_margin) {
  std::vector<std::string> messages;
  for (long v = min_margin; v <= max_margin; ++v) messages.push_back(std::to_string(v));
  return messages;
}

/// Sensitivity-1 query pairs: margins differing by at most 1 in every round (no limit on how many).
std::shared_ptr<const Verifier> above_threshold_verifier(long min_margin, long max_margin) {
  std::vector<MessagePair> pairs;
  for (long v0 = min_margin; v0 <= max_margin; ++v0)
    for (long v1 = std::max(min_margin, v0 - 1); v1 <= std::min(max_margin, v0 + 1); ++v1)
      pairs.push_back({MessageId(v0 - min_margin), MessageId(v1 - min_margin)});
  return std::make_shared<PairsVerifier>(std::move(pairs), std::nullopt);
}

std::string describe(const SparseVectorParams& p) {
  return "r_threshold=" + to_string(p.r_threshold) + ", r_query=" + to_string(p.r_query) + ", cutoff=" + std::to_string(p.cutoff);
}

}  // namespace

Game above_threshold(const SparseVectorParams& params, long min_margin, long max_margin) {
  const char* where = "library::above_threshold";
  check_svt(where, params);
  check_margins(where, min_margin, max_margin);
  const std::vector<std::string> messages = margin_messages(min_margin, max_margin);
  auto step = [params](const SvtState& s, const std::string& m) {
    const long v = std::stol(m);
    // the message is the margin v = q − Thresh; the comparison q + ν > Thresh + τ has A = −v
    return as_outcomes(detail::svt_step(s, -v, 0, noise_of(params)));
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, SvtHash>>("AboveThreshold(" + describe(params) + ")", messages, step, show_svt<noise::RationalField>);
  const StateId start = mech->state_id(fresh(params));
  return continual_game(mech->name(), mech, start, above_threshold_verifier(min_margin, max_margin), params.queries);
}

parametric::ParametricGame above_threshold_for_all(const ParametricSvtParams& params, long min_margin, long max_margin,
                                                   const parametric::ParameterRange& range, const std::string& parameter, unsigned horizon) {
  const char* where = "library::above_threshold_for_all";
  using parametric::ParametricField;
  detail::check_noise_for_all(where, "r_threshold", params.r_threshold, range, parameter);
  detail::check_noise_for_all(where, "r_query", params.r_query, range, parameter);
  require(params.queries >= 1 && params.queries <= 1000, where, "queries", Rational(params.queries), "must be between 1 and 1000");
  require(params.cutoff >= 1 && params.cutoff <= 1000, where, "cutoff", Rational(params.cutoff), "must be between 1 and 1000");
  check_margins(where, min_margin, max_margin);
  const detail::SvtNoise<ParametricField> noise{params.r_threshold, params.r_query, params.cutoff};
  using State = detail::SvtState<ParametricField>;
  auto step = [&noise](const State& s, const std::string& m) { return detail::svt_step(s, -std::stol(m), 0, noise); };
  const std::string name = "AboveThreshold(r_threshold=" + params.r_threshold.to_string(parameter) +
                           ", r_query=" + params.r_query.to_string(parameter) + ", cutoff=" + std::to_string(params.cutoff) + ")";
  parametric::ParametricGame g = detail::explore_parametric_game<State, detail::SvtHash<ParametricField>>(
      name, detail::fresh_svt_state(noise), margin_messages(min_margin, max_margin), above_threshold_verifier(min_margin, max_margin),
      horizon == 0 ? params.queries : horizon, step, show_svt<ParametricField>);
  g.parameter = parameter;
  g.range = range;
  return g;
}

namespace {

void check_thresholds(const char* where, const std::vector<long>& thresholds) {
  require(!thresholds.empty() && thresholds.size() <= 20, where, "thresholds", Rational(static_cast<unsigned long>(thresholds.size())),
          "list between 1 and 20 thresholds");
  std::set<long> seen;
  for (long t : thresholds) {
    require(t >= -1000 && t <= 1000, where, "thresholds", Rational(t), "thresholds must lie in [-1000, 1000]");
    require(seen.insert(t).second, where, "thresholds", Rational(t), "threshold listed twice");
  }
}

/// The svt-counter's messages "x/T", x ∈ {0,1}, T ∈ thresholds; id = 2·(index of T) + x.
std::vector<std::string> svt_counter_messages(const std::vector<long>& thresholds) {
  std::vector<std::string> messages;
  for (long t : thresholds)
    for (int x = 0; x < 2; ++x) messages.push_back(std::to_string(x) + "/" + std::to_string(t));
  return messages;
}

/// f_S: the thresholds identical in both worlds, the bits free, at most one differing pair.
std::shared_ptr<const Verifier> svt_counter_verifier(const std::vector<long>& thresholds) {
  std::vector<MessagePair> pairs;
  for (std::size_t i = 0; i < thresholds.size(); ++i)
    for (MessageId x0 = 0; x0 < 2; ++x0)
      for (MessageId x1 = 0; x1 < 2; ++x1) pairs.push_back({MessageId(2 * i) + x0, MessageId(2 * i) + x1});
  return std::make_shared<PairsVerifier>(std::move(pairs), 1u);
}

}  // namespace

Game svt_counter(const SparseVectorParams& params, const std::vector<long>& thresholds) {
  const char* where = "library::svt_counter";
  check_svt(where, params);
  check_thresholds(where, thresholds);
  auto step = [params](const SvtState& s, const std::string& m) {
    return as_outcomes(detail::svt_counter_step(s, m, noise_of(params)));  // stop iff c_t + ν > T + τ
  };
  auto mech = std::make_shared<LambdaMechanism<SvtState, SvtHash>>("SVT counter(" + describe(params) + ")", svt_counter_messages(thresholds),
                                                                   step, show_svt<noise::RationalField>);
  const StateId start = mech->state_id(fresh(params));
  return continual_game(mech->name(), mech, start, svt_counter_verifier(thresholds), params.queries);
}

parametric::ParametricGame svt_counter_for_all(const ParametricSvtParams& params, const std::vector<long>& thresholds,
                                               const parametric::ParameterRange& range, const std::string& parameter, unsigned horizon) {
  const char* where = "library::svt_counter_for_all";
  using parametric::ParametricField;
  detail::check_noise_for_all(where, "r_threshold", params.r_threshold, range, parameter);
  detail::check_noise_for_all(where, "r_query", params.r_query, range, parameter);
  require(params.queries >= 1 && params.queries <= 1000, where, "queries", Rational(params.queries), "must be between 1 and 1000");
  require(params.cutoff >= 1 && params.cutoff <= 1000, where, "cutoff", Rational(params.cutoff), "must be between 1 and 1000");
  check_thresholds(where, thresholds);
  const detail::SvtNoise<ParametricField> noise{params.r_threshold, params.r_query, params.cutoff};
  using State = detail::SvtState<ParametricField>;
  auto step = [&noise](const State& s, const std::string& m) { return detail::svt_counter_step(s, m, noise); };
  const std::string name = "SVT counter(r_threshold=" + params.r_threshold.to_string(parameter) +
                           ", r_query=" + params.r_query.to_string(parameter) + ", cutoff=" + std::to_string(params.cutoff) + ")";
  parametric::ParametricGame g = detail::explore_parametric_game<State, detail::SvtHash<ParametricField>>(
      name, detail::fresh_svt_state(noise), svt_counter_messages(thresholds), svt_counter_verifier(thresholds),
      horizon == 0 ? params.queries : horizon, step, show_svt<ParametricField>);
  g.parameter = parameter;
  g.range = range;
  return g;
}

}  // namespace exactdp::library
