#include "exactdp/noise/latent.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/noise/noise.hpp"

#include <algorithm>
#include <functional>
#include <map>

namespace exactdp::noise {

namespace {

constexpr const char* where = "noise::LatentThreshold";
constexpr long max_margin = 1'000'000;

void require(bool ok, const char* field, const std::string& value, const char* why) {
  if (!ok) throw Error(where, field, value, why);
}

void check_r_threshold(const Rational& r) {
  require(sgn(r) > 0 && r < 1, "r_threshold", exactdp::to_string(r),
          "the threshold noise parameter r = e^-epsilon must lie strictly between 0 and 1");
}

void check_comparison(long margin, const Rational& r_query) {
  require(sgn(r_query) >= 0 && r_query < 1, "r_query", exactdp::to_string(r_query),
          "the query noise parameter must lie in [0, 1) (0: no query noise)");
  require(margin >= -max_margin && margin <= max_margin, "margin", std::to_string(margin), "|margin| must be at most 10^6");
}

void check_bound(const char* field, std::optional<long> b) {
  require(!b || (*b >= -max_margin - 1 && *b <= max_margin + 1), field, b ? std::to_string(*b) : "", "|bound| must be at most 10^6 + 1");
}

/// The DLap(r) distribution function m ↦ F(m) (D.3), remembered per thread for the few scales in use.
const PiecewiseExp& dlap_cdf(const Rational& r) {
  thread_local std::map<Rational, PiecewiseExp> known;
  auto it = known.find(r);
  if (it != known.end()) return it->second;
  if (known.size() >= 64) known.clear();
  return known.emplace(r, Noise::dlap(r).distribution_function()).first->second;
}

/// j ↦ Pr[ν ≤ A + j] ("below") or Pr[ν > A + j] ("above") for ν ~ DLap(r), r > 0: the DLap
/// distribution function moved by the margin.
PiecewiseExp factor(const LatentThreshold::Comparison& c) {
  PiecewiseExp below = dlap_cdf(c.r_query).shifted(-c.margin);
  return c.outcome == Side::below ? below : PiecewiseExp::constant(1) - below;
}

/// The same factor for ν = 0: an indicator (τ ≥ −A after "below", τ ≤ −A − 1 after "above").
PiecewiseExp noiseless_factor(long margin, Side o) {
  return o == Side::below ? PiecewiseExp::indicator(-margin, std::nullopt) : PiecewiseExp::indicator(std::nullopt, -margin - 1);
}

std::optional<long> max_bound(std::optional<long> a, std::optional<long> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}
std::optional<long> min_bound(std::optional<long> a, std::optional<long> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

std::strong_ordering order(const Rational& a, const Rational& b) {
  const int c = cmp(a, b);
  return c < 0 ? std::strong_ordering::less : (c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal);
}

std::strong_ordering order(std::optional<long> a, std::optional<long> b) {
  if (a.has_value() != b.has_value()) return a.has_value() ? std::strong_ordering::greater : std::strong_ordering::less;
  return a ? *a <=> *b : std::strong_ordering::equal;
}

std::strong_ordering order(const LatentThreshold::Comparison& a, const LatentThreshold::Comparison& b) {
  if (auto c = order(a.r_query, b.r_query); c != 0) return c;
  if (auto c = a.outcome <=> b.outcome; c != 0) return c;
  return a.margin <=> b.margin;
}

}  // namespace

std::string side_name(Side o) { return o == Side::below ? "below" : "above"; }

LatentThreshold::LatentThreshold(const Rational& r_threshold) : r_threshold_(r_threshold) {
  check_r_threshold(r_threshold);
  derive();
}

LatentThreshold::LatentThreshold(const Rational& r_threshold, std::vector<Comparison> comparisons, std::optional<long> lower,
                                 std::optional<long> upper, std::vector<Rational> masses)
    : r_threshold_(r_threshold), lower_(lower), upper_(upper), masses_(std::move(masses)) {
  check_r_threshold(r_threshold);
  check_bound("lower", lower);
  check_bound("upper", upper);
  for (auto& c : comparisons) {
    check_comparison(c.margin, c.r_query);
    if (sgn(c.r_query) == 0) {  // no query noise: the outcome bounds τ
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
    Rational total = 0;
    for (const auto& m : masses_) {
      require(sgn(m) > 0, "masses", exactdp::to_string(m), "posterior masses are positive on [lower, upper]");
      total += m;
    }
    require(total == 1, "masses", exactdp::to_string(total), "the masses must sum to exactly 1");
  }
  canonicalise();
  derive();
}

bool LatentThreshold::canonicalise() {
  std::sort(comparisons_.begin(), comparisons_.end(), [](const Comparison& a, const Comparison& b) { return order(a, b) < 0; });
  const bool bounded = lower_ && upper_;
  if (bounded && masses_.empty() && !comparisons_.empty()) {
    // bounded support with evidence: tabulate the posterior (the fourth canonical form)
    require(*upper_ - *lower_ < max_table_points, "upper", std::to_string(*upper_),
            "a bounded posterior with more than 100000 points is not tabulated");
    PiecewiseExp d = Noise::dlap(r_threshold_).mass_function();
    for (const auto& c : comparisons_) d = d * factor(c);
    const Rational total = d.sum(lower_, upper_);
    for (long j = *lower_; j <= *upper_; ++j) masses_.push_back(d(j) / total);
    comparisons_.clear();
  }
  if (!masses_.empty()) {
    // the plain form when the posterior is the prior restricted to [lower, upper]
    const PiecewiseExp prior = Noise::dlap(r_threshold_).mass_function();
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
  if (changed) std::sort(comparisons_.begin(), comparisons_.end(), [](const Comparison& a, const Comparison& b) { return order(a, b) < 0; });
  return changed;
}

void LatentThreshold::set_cache(PiecewiseExp density, Rational total) {
  cache_ = std::make_shared<const Cache>(Cache{std::move(density), std::move(total)});
}

void LatentThreshold::derive() {
  if (!masses_.empty()) {
    std::vector<long> cuts;
    std::vector<PiecewiseExp::Terms> pieces{{}};
    for (std::size_t i = 0; i < masses_.size(); ++i) {
      cuts.push_back(*lower_ + static_cast<long>(i));
      pieces.push_back({{masses_[i], Rational(1)}});
    }
    cuts.push_back(*upper_ + 1);
    pieces.push_back({});
    set_cache(PiecewiseExp(std::move(cuts), std::move(pieces)), Rational(1));
    return;
  }
  PiecewiseExp d = Noise::dlap(r_threshold_).mass_function();
  for (const auto& c : comparisons_) d = d * factor(c);
  if (lower_ || upper_) d = d.restricted(lower_, upper_);
  Rational total = d.sum();
  set_cache(std::move(d), std::move(total));
}

const PiecewiseExp& LatentThreshold::density() const { return cache_->density; }

LatentThreshold LatentThreshold::with(const Comparison& c, const PiecewiseExp& density, const Rational& total) const {
  LatentThreshold next = *this;
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

std::vector<LatentThreshold::Branch> LatentThreshold::compare(long margin, const Rational& r_query) const {
  check_comparison(margin, r_query);
  std::vector<Branch> out;
  if (sgn(r_query) == 0) {
    const Rational above = cache_->density.sum(std::nullopt, -margin - 1) / cache_->total;
    if (above < 1) out.push_back({Side::below, 1 - above, conditioned(-margin, std::nullopt)});
    if (sgn(above) > 0) out.push_back({Side::above, above, conditioned(std::nullopt, -margin - 1)});
    return out;
  }
  // Pr[below | past] = Σ_j w(j) F(A + j) / Σ_j w(j) with w the posterior density (B.13)
  const Comparison below{r_query, margin, Side::below}, above{r_query, margin, Side::above};
  const PiecewiseExp wb = cache_->density * factor(below);
  const Rational mb = wb.sum();
  const Rational p_below = mb / cache_->total;
  // DLap query noise has full support, so both outcomes have positive probability
  out.push_back({Side::below, p_below, with(below, wb, mb)});
  out.push_back({Side::above, 1 - p_below, with(above, cache_->density - wb, cache_->total - mb)});
  return out;
}

Rational LatentThreshold::probability_above(long margin, const Rational& r_query) const {
  check_comparison(margin, r_query);
  if (sgn(r_query) == 0) return cache_->density.sum(std::nullopt, -margin - 1) / cache_->total;
  return 1 - (cache_->density * factor({r_query, margin, Side::below})).sum() / cache_->total;
}

Rational LatentThreshold::probability_between(std::optional<long> lower, std::optional<long> upper) const {
  return cache_->density.sum(lower, upper) / cache_->total;
}

LatentThreshold LatentThreshold::conditioned(std::optional<long> lower, std::optional<long> upper) const {
  check_bound("lower", lower);
  check_bound("upper", upper);
  const auto lo = max_bound(lower_, lower), hi = min_bound(upper_, upper);
  require(sgn(probability_between(lo, hi)) > 0, "upper", upper ? std::to_string(*upper) : "",
          "the event lower <= tau <= upper has probability 0 under this posterior");
  LatentThreshold next = *this;
  next.lower_ = lo;
  next.upper_ = hi;
  if (!masses_.empty()) {
    next.masses_.assign(masses_.begin() + (*lo - *lower_), masses_.begin() + (*hi - *lower_) + 1);
    Rational total = 0;
    for (const auto& m : next.masses_) total += m;
    for (auto& m : next.masses_) m /= total;
    next.canonicalise();
    next.derive();
    return next;
  }
  if (next.canonicalise()) {
    next.derive();
  } else {
    PiecewiseExp d = cache_->density.restricted(lo, hi);
    Rational total = d.sum();
    next.set_cache(std::move(d), std::move(total));
  }
  return next;
}

Rational LatentThreshold::pmf(long j) const { return cache_->density(j) / cache_->total; }

Rational LatentThreshold::cdf(long j) const { return cache_->density.sum(std::nullopt, j) / cache_->total; }

Rational LatentThreshold::probability_of(const Rational& r_threshold, const std::vector<Comparison>& comparisons) {
  check_r_threshold(r_threshold);
  PiecewiseExp d = Noise::dlap(r_threshold).mass_function();
  for (const auto& c : comparisons) {
    check_comparison(c.margin, c.r_query);
    d = d * (sgn(c.r_query) == 0 ? noiseless_factor(c.margin, c.outcome) : factor(c));
  }
  return d.sum();
}

std::string LatentThreshold::to_string() const {
  std::string out = "DLap(" + exactdp::to_string(r_threshold_) + ")";
  if (lower_ && upper_) out.append("|").append(std::to_string(*lower_)).append("<=tau<=").append(std::to_string(*upper_));
  else if (lower_) out.append("|tau>=").append(std::to_string(*lower_));
  else if (upper_) out.append("|tau<=").append(std::to_string(*upper_));
  if (!comparisons_.empty()) {
    out += "|";
    for (std::size_t i = 0; i < comparisons_.size(); ++i) {
      const auto& c = comparisons_[i];
      if (i > 0) out += ",";
      out += side_name(c.outcome) + "(" + std::to_string(c.margin) + ";" + exactdp::to_string(c.r_query) + ")";
    }
  }
  if (!masses_.empty()) {
    out += "|masses(";
    for (std::size_t i = 0; i < masses_.size(); ++i) {
      if (i > 0) out += ",";
      out += exactdp::to_string(masses_[i]);
    }
    out += ")";
  }
  return out;
}

bool operator==(const LatentThreshold& a, const LatentThreshold& b) {
  return a.r_threshold_ == b.r_threshold_ && a.lower_ == b.lower_ && a.upper_ == b.upper_ && a.comparisons_ == b.comparisons_ &&
         a.masses_ == b.masses_;
}

std::strong_ordering operator<=>(const LatentThreshold& a, const LatentThreshold& b) {
  if (auto c = order(a.r_threshold_, b.r_threshold_); c != 0) return c;
  if (auto c = order(a.lower_, b.lower_); c != 0) return c;
  if (auto c = order(a.upper_, b.upper_); c != 0) return c;
  for (std::size_t i = 0; i < std::min(a.comparisons_.size(), b.comparisons_.size()); ++i)
    if (auto c = order(a.comparisons_[i], b.comparisons_[i]); c != 0) return c;
  if (auto c = a.comparisons_.size() <=> b.comparisons_.size(); c != 0) return c;
  for (std::size_t i = 0; i < std::min(a.masses_.size(), b.masses_.size()); ++i)
    if (auto c = order(a.masses_[i], b.masses_[i]); c != 0) return c;
  return a.masses_.size() <=> b.masses_.size();
}

std::size_t LatentThreshold::Hash::operator()(const LatentThreshold& t) const noexcept {
  std::size_t h = RationalHash{}(t.r_threshold_);
  auto mix = [&h](std::size_t x) { h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
  mix(t.lower_ ? std::hash<long>{}(*t.lower_) : 1);
  mix(t.upper_ ? std::hash<long>{}(*t.upper_) : 2);
  for (const auto& c : t.comparisons_) {
    mix(RationalHash{}(c.r_query));
    mix(std::hash<long>{}(c.margin));
    mix(c.outcome == Side::below ? 3 : 4);
  }
  for (const auto& m : t.masses_) mix(RationalHash{}(m));
  return h;
}

}  // namespace exactdp::noise
