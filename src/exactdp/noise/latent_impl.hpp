/// @file
/// The member definitions of BasicLatentThreshold (noise/latent.hpp), written once for every field
/// policy. Included by latent.cpp (the numeric instance) and by the parametric layer's instance
/// (parametric/parametric_field.cpp); not a public header.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/noise/dlap_closed_form.hpp"
#include "exactdp/noise/latent.hpp"
#include "exactdp/noise/noise.hpp"
#include "exactdp/noise/piecewise_exp_impl.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace exactdp::noise {

namespace latent_detail {

inline constexpr const char* where = "noise::LatentThreshold";
inline constexpr long max_margin = 1'000'000;

inline void require(bool ok, const char* field, const std::string& value, const char* why) {
  if (!ok) throw Error(where, field, value, why);
}

/// 0 < r < 1 (for a parametric policy: for every value of the parameter).
template <class F>
bool strictly_inside_unit(const typename F::Value& r) {
  return F::sign(r) > 0 && compare_with_one<F>(r) < 0;
}

template <class F>
void check_r_threshold(const typename F::Value& r) {
  require(strictly_inside_unit<F>(r), "r_threshold", F::show(r),
          "the threshold noise parameter r = e^-epsilon must lie strictly between 0 and 1");
}

template <class F>
bool is_nil(const typename F::Value& x) {
  return x == typename F::Value(0);
}

template <class F>
void check_comparison(long margin, const typename F::Value& r_query) {
  require(is_nil<F>(r_query) || strictly_inside_unit<F>(r_query), "r_query", F::show(r_query),
          "the query noise parameter must lie in [0, 1) (0: no query noise)");
  require(margin >= -max_margin && margin <= max_margin, "margin", std::to_string(margin), "|margin| must be at most 10^6");
}

inline void check_bound(const char* field, std::optional<long> b) {
  require(!b || (*b >= -max_margin - 1 && *b <= max_margin + 1), field, b ? std::to_string(*b) : "", "|bound| must be at most 10^6 + 1");
}

template <class F>
struct ValueLess {
  bool operator()(const typename F::Value& a, const typename F::Value& b) const { return F::before(a, b); }
};

/// The DLap(r) distribution function m ↦ F(m) (D.3), remembered per thread for the few scales in use.
template <class F>
const BasicPiecewiseExp<F>& dlap_cdf(const typename F::Value& r) {
  thread_local std::map<typename F::Value, BasicPiecewiseExp<F>, ValueLess<F>> known;
  auto it = known.find(r);
  if (it != known.end()) return it->second;
  if (known.size() >= 64) known.clear();
  return known.emplace(r, dlap_mass_function<F>(r).cumulative()).first->second;
}

/// j ↦ Pr[ν ≤ A + j] ("below") or Pr[ν > A + j] ("above") for ν ~ DLap(r), r > 0: the DLap
/// distribution function moved by the margin.
template <class F>
BasicPiecewiseExp<F> factor(const typename BasicLatentThreshold<F>::Comparison& c) {
  BasicPiecewiseExp<F> below = dlap_cdf<F>(c.r_query).shifted(-c.margin);
  return c.outcome == Side::below ? below : BasicPiecewiseExp<F>::constant(typename F::Value(1)) - below;
}

/// The same factor for ν = 0: an indicator (τ ≥ −A after "below", τ ≤ −A − 1 after "above").
template <class F>
BasicPiecewiseExp<F> noiseless_factor(long margin, Side o) {
  return o == Side::below ? BasicPiecewiseExp<F>::indicator(-margin, std::nullopt)
                          : BasicPiecewiseExp<F>::indicator(std::nullopt, -margin - 1);
}

inline std::optional<long> max_bound(std::optional<long> a, std::optional<long> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}
inline std::optional<long> min_bound(std::optional<long> a, std::optional<long> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

template <class F>
std::strong_ordering order_values(const typename F::Value& a, const typename F::Value& b) {
  if (F::before(a, b)) return std::strong_ordering::less;
  if (F::before(b, a)) return std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

inline std::strong_ordering order(std::optional<long> a, std::optional<long> b) {
  if (a.has_value() != b.has_value()) return a.has_value() ? std::strong_ordering::greater : std::strong_ordering::less;
  return a ? *a <=> *b : std::strong_ordering::equal;
}

template <class F>
std::strong_ordering order_comparisons(const typename BasicLatentThreshold<F>::Comparison& a,
                                       const typename BasicLatentThreshold<F>::Comparison& b) {
  if (auto c = order_values<F>(a.r_query, b.r_query); c != 0) return c;
  if (auto c = a.outcome <=> b.outcome; c != 0) return c;
  return a.margin <=> b.margin;
}

}  // namespace latent_detail

template <class F>
BasicLatentThreshold<F>::BasicLatentThreshold(const Value& r_threshold) : r_threshold_(r_threshold) {
  latent_detail::check_r_threshold<F>(r_threshold);
  derive();
}

template <class F>
BasicLatentThreshold<F>::BasicLatentThreshold(const Value& r_threshold, std::vector<Comparison> comparisons, std::optional<long> lower,
                                              std::optional<long> upper, std::vector<Value> masses)
    : r_threshold_(r_threshold), lower_(lower), upper_(upper), masses_(std::move(masses)) {
  using namespace latent_detail;
  check_r_threshold<F>(r_threshold);
  check_bound("lower", lower);
  check_bound("upper", upper);
  for (auto& c : comparisons) {
    check_comparison<F>(c.margin, c.r_query);
    if (is_nil<F>(c.r_query)) {  // no query noise: the outcome bounds τ
      if (c.outcome == Side::below) lower_ = max_bound(lower_, -c.margin);
      else upper_ = min_bound(upper_, -c.margin - 1);
    } else {
      comparisons_.push_back(std::move(c));
    }
  }
  require(!(lower_ && upper_ && *upper_ < *lower_), "upper", upper_ ? std::to_string(*upper_) : "",
          "the observations have probability 0 (the support of tau is empty)");
  if (!masses_.empty()) {
    require(comparisons_.empty(), "masses", "", "give either comparisons or the masses of a bounded posterior, not both");
    require(lower_ && upper_ && static_cast<long>(masses_.size()) == *upper_ - *lower_ + 1, "masses", std::to_string(masses_.size()),
            "the masses must give one value for each integer of [lower, upper]");
    Value total(0);
    for (const auto& m : masses_) {
      require(F::sign(m) > 0, "masses", F::show(m), "posterior masses are positive on [lower, upper]");
      total += m;
    }
    require(total == Value(1), "masses", F::show(total), "the masses must sum to exactly 1");
  }
  canonicalise();
  derive();
}

template <class F>
bool BasicLatentThreshold<F>::canonicalise() {
  using namespace latent_detail;
  auto by_order = [](const Comparison& a, const Comparison& b) { return order_comparisons<F>(a, b) < 0; };
  std::sort(comparisons_.begin(), comparisons_.end(), by_order);
  const bool bounded = lower_ && upper_;
  if (bounded && masses_.empty() && !comparisons_.empty()) {
    // bounded support with evidence: tabulate the posterior (the fourth canonical form)
    require(*upper_ - *lower_ < max_table_points, "upper", std::to_string(*upper_),
            "a bounded posterior with more than 100000 points is not tabulated");
    Density d = dlap_mass_function<F>(r_threshold_);
    for (const auto& c : comparisons_) d = d * factor<F>(c);
    const Value total = d.sum(lower_, upper_);
    for (long j = *lower_; j <= *upper_; ++j) masses_.push_back(d(j) / total);
    comparisons_.clear();
  }
  if (!masses_.empty()) {
    // the plain form when the posterior is the prior restricted to [lower, upper]
    const Density prior = dlap_mass_function<F>(r_threshold_);
    bool proportional = true;
    for (std::size_t i = 1; i < masses_.size() && proportional; ++i)
      proportional = masses_[i] * prior(*lower_) == masses_[0] * prior(*lower_ + static_cast<long>(i));
    if (proportional) masses_.clear();
    return true;
  }
  if (bounded && *lower_ == *upper_) {
    const bool changed = !comparisons_.empty();
    comparisons_.clear();
    return changed;
  }
  // half-lines: a factor that is a pure exponential on the whole support takes one representative
  // margin. "above": 1 − F(A + j) = r^{A+j+1}/(1+r) for A + j ≥ −1, pure on [lo, ∞) iff A ≥ −lo − 1.
  // "below": F(A + j) = r^{−A−j}/(1+r) for A + j ≤ 0, pure on (−∞, hi] iff A ≤ −hi.
  bool changed = false;
  for (auto& c : comparisons_) {
    if (lower_ && c.outcome == Side::above && c.margin > -*lower_ - 1) {
      c.margin = -*lower_ - 1;
      changed = true;
    }
    if (upper_ && c.outcome == Side::below && c.margin < -*upper_) {
      c.margin = -*upper_;
      changed = true;
    }
  }
  if (changed) std::sort(comparisons_.begin(), comparisons_.end(), by_order);
  return changed;
}

template <class F>
void BasicLatentThreshold<F>::set_cache(Density density, Value total) {
  cache_ = std::make_shared<const Cache>(Cache{std::move(density), std::move(total)});
}

template <class F>
void BasicLatentThreshold<F>::derive() {
  if (!masses_.empty()) {
    std::vector<long> cuts;
    std::vector<typename Density::Terms> pieces{{}};
    for (std::size_t i = 0; i < masses_.size(); ++i) {
      cuts.push_back(*lower_ + static_cast<long>(i));
      pieces.push_back({{masses_[i], Value(1)}});
    }
    cuts.push_back(*upper_ + 1);
    pieces.push_back({});
    set_cache(Density(std::move(cuts), std::move(pieces)), Value(1));
    return;
  }
  Density d = dlap_mass_function<F>(r_threshold_);
  for (const auto& c : comparisons_) d = d * latent_detail::factor<F>(c);
  if (lower_ || upper_) d = d.restricted(lower_, upper_);
  Value total = d.sum();
  set_cache(std::move(d), std::move(total));
}

template <class F>
const typename BasicLatentThreshold<F>::Density& BasicLatentThreshold<F>::density() const {
  return cache_->density;
}

template <class F>
BasicLatentThreshold<F> BasicLatentThreshold<F>::with(const Comparison& c, const Density& density, const Value& total) const {
  BasicLatentThreshold next = *this;
  if (!masses_.empty()) {
    // a tabulated posterior times the new factor, renormalised
    for (std::size_t i = 0; i < next.masses_.size(); ++i) next.masses_[i] = density(*lower_ + static_cast<long>(i)) / total;
    next.canonicalise();
    next.derive();
    return next;
  }
  next.comparisons_.push_back(c);
  if (next.canonicalise()) next.derive();
  else next.set_cache(density, total);
  return next;
}

template <class F>
std::vector<typename BasicLatentThreshold<F>::Branch> BasicLatentThreshold<F>::compare(long margin, const Value& r_query) const {
  using namespace latent_detail;
  check_comparison<F>(margin, r_query);
  std::vector<Branch> out;
  if (is_nil<F>(r_query)) {
    const Value above = cache_->density.sum(std::nullopt, -margin - 1) / cache_->total;
    if (!(above == Value(1))) out.push_back({Side::below, Value(1) - above, conditioned(-margin, std::nullopt)});
    if (!is_nil<F>(above)) out.push_back({Side::above, above, conditioned(std::nullopt, -margin - 1)});
    return out;
  }
  // Pr[below | past] = Σ_j w(j) F(A + j) / Σ_j w(j) with w the posterior density (B.13)
  const Comparison below{r_query, margin, Side::below}, above{r_query, margin, Side::above};
  const Density wb = cache_->density * factor<F>(below);
  const Value mb = wb.sum();
  const Value p_below = mb / cache_->total;
  // DLap query noise has full support, so both outcomes have positive probability
  out.push_back({Side::below, p_below, with(below, wb, mb)});
  out.push_back({Side::above, Value(1) - p_below, with(above, cache_->density - wb, cache_->total - mb)});
  return out;
}

template <class F>
typename F::Value BasicLatentThreshold<F>::probability_above(long margin, const Value& r_query) const {
  using namespace latent_detail;
  check_comparison<F>(margin, r_query);
  if (is_nil<F>(r_query)) return cache_->density.sum(std::nullopt, -margin - 1) / cache_->total;
  return Value(1) - (cache_->density * factor<F>(Comparison{r_query, margin, Side::below})).sum() / cache_->total;
}

template <class F>
typename F::Value BasicLatentThreshold<F>::probability_between(std::optional<long> lower, std::optional<long> upper) const {
  return cache_->density.sum(lower, upper) / cache_->total;
}

template <class F>
BasicLatentThreshold<F> BasicLatentThreshold<F>::conditioned(std::optional<long> lower, std::optional<long> upper) const {
  using namespace latent_detail;
  check_bound("lower", lower);
  check_bound("upper", upper);
  const auto lo = max_bound(lower_, lower), hi = min_bound(upper_, upper);
  require(!is_nil<F>(probability_between(lo, hi)), "upper", upper ? std::to_string(*upper) : "",
          "the event lower <= tau <= upper has probability 0 under this posterior");
  BasicLatentThreshold next = *this;
  next.lower_ = lo;
  next.upper_ = hi;
  if (!masses_.empty()) {
    next.masses_.assign(masses_.begin() + (*lo - *lower_), masses_.begin() + (*hi - *lower_) + 1);
    Value total(0);
    for (const auto& m : next.masses_) total += m;
    for (auto& m : next.masses_) m /= total;
    next.canonicalise();
    next.derive();
    return next;
  }
  if (next.canonicalise()) {
    next.derive();
  } else {
    Density d = cache_->density.restricted(lo, hi);
    Value total = d.sum();
    next.set_cache(std::move(d), std::move(total));
  }
  return next;
}

template <class F>
typename F::Value BasicLatentThreshold<F>::pmf(long j) const { return cache_->density(j) / cache_->total; }

template <class F>
typename F::Value BasicLatentThreshold<F>::cdf(long j) const { return cache_->density.sum(std::nullopt, j) / cache_->total; }

template <class F>
typename F::Value BasicLatentThreshold<F>::probability_of(const Value& r_threshold, const std::vector<Comparison>& comparisons) {
  using namespace latent_detail;
  check_r_threshold<F>(r_threshold);
  Density d = dlap_mass_function<F>(r_threshold);
  for (const auto& c : comparisons) {
    check_comparison<F>(c.margin, c.r_query);
    d = d * (is_nil<F>(c.r_query) ? noiseless_factor<F>(c.margin, c.outcome) : factor<F>(c));
  }
  return d.sum();
}

template <class F>
std::string BasicLatentThreshold<F>::to_string() const {
  std::string out = "DLap(" + F::show(r_threshold_) + ")";
  if (lower_ && upper_) out.append("|").append(std::to_string(*lower_)).append("<=tau<=").append(std::to_string(*upper_));
  else if (lower_) out.append("|tau>=").append(std::to_string(*lower_));
  else if (upper_) out.append("|tau<=").append(std::to_string(*upper_));
  if (!comparisons_.empty()) {
    out += "|";
    for (std::size_t i = 0; i < comparisons_.size(); ++i) {
      const auto& c = comparisons_[i];
      if (i > 0) out += ",";
      out += side_name(c.outcome) + "(" + std::to_string(c.margin) + ";" + F::show(c.r_query) + ")";
    }
  }
  if (!masses_.empty()) {
    out += "|masses(";
    for (std::size_t i = 0; i < masses_.size(); ++i) {
      if (i > 0) out += ",";
      out += F::show(masses_[i]);
    }
    out += ")";
  }
  return out;
}

template <class F>
bool BasicLatentThreshold<F>::same_description(const BasicLatentThreshold& b) const {
  return r_threshold_ == b.r_threshold_ && lower_ == b.lower_ && upper_ == b.upper_ && comparisons_ == b.comparisons_ &&
         masses_ == b.masses_;
}

template <class F>
std::strong_ordering BasicLatentThreshold<F>::order_with(const BasicLatentThreshold& b) const {
  using namespace latent_detail;
  const BasicLatentThreshold& a = *this;
  if (auto c = order_values<F>(a.r_threshold_, b.r_threshold_); c != 0) return c;
  if (auto c = order(a.lower_, b.lower_); c != 0) return c;
  if (auto c = order(a.upper_, b.upper_); c != 0) return c;
  for (std::size_t i = 0; i < std::min(a.comparisons_.size(), b.comparisons_.size()); ++i)
    if (auto c = order_comparisons<F>(a.comparisons_[i], b.comparisons_[i]); c != 0) return c;
  if (auto c = a.comparisons_.size() <=> b.comparisons_.size(); c != 0) return c;
  for (std::size_t i = 0; i < std::min(a.masses_.size(), b.masses_.size()); ++i)
    if (auto c = order_values<F>(a.masses_[i], b.masses_[i]); c != 0) return c;
  return a.masses_.size() <=> b.masses_.size();
}

template <class F>
std::size_t BasicLatentThreshold<F>::Hash::operator()(const BasicLatentThreshold& t) const noexcept {
  std::size_t h = F::hash(t.r_threshold_);
  auto mix = [&h](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(t.lower_ ? std::hash<long>{}(*t.lower_) : 1);
  mix(t.upper_ ? std::hash<long>{}(*t.upper_) : 2);
  for (const auto& c : t.comparisons_) {
    mix(F::hash(c.r_query));
    mix(std::hash<long>{}(c.margin));
    mix(c.outcome == Side::below ? 3 : 4);
  }
  for (const auto& m : t.masses_) mix(F::hash(m));
  return h;
}

}  // namespace exactdp::noise
