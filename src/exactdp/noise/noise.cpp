#include "exactdp/noise/noise.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/noise/dlap_closed_form.hpp"

#include <map>
#include <utility>

namespace exactdp::noise {

namespace {

void require(bool ok, const char* where, const char* field, const std::string& value, const char* why) {
  if (!ok) throw Error(where, field, value, why);
}

void require_probability(const char* where, const char* field, const Rational& p) {
  require(sgn(p) >= 0 && p <= 1, where, field, to_string(p), "a probability must lie in [0, 1]");
}

void require_ratio(const char* where, const Rational& r) {
  require(sgn(r) > 0 && r < 1, where, "r", to_string(r), "the noise parameter r = e^-epsilon must lie strictly between 0 and 1");
}

/// A finite mass function from (value, mass) pairs, one single-point piece per value.
PiecewiseExp table(const std::map<long, Rational>& masses) {
  std::vector<long> cuts;
  std::vector<PiecewiseExp::Terms> pieces{{}};
  for (const auto& [k, m] : masses) {
    if (!cuts.empty() && cuts.back() == k) {
      pieces.back() = {{m, Rational(1)}};
    } else {
      cuts.push_back(k);
      pieces.push_back({{m, Rational(1)}});
    }
    cuts.push_back(k + 1);
    pieces.push_back({});
  }
  return PiecewiseExp(std::move(cuts), std::move(pieces));
}

std::string signed_suffix(long v) { return v >= 0 ? " + " + std::to_string(v) : " - " + std::to_string(-v); }

}  // namespace

Noise::Noise(PiecewiseExp pmf, std::string name, const char* where) : pmf_(std::move(pmf)), name_(std::move(name)) {
  const Rational total = pmf_.sum();
  require(total == 1, where, "total", to_string(total), "the masses of a noise distribution must sum to exactly 1");
}

Noise Noise::dlap(const Rational& r) {
  require_ratio("noise::dlap", r);
  return Noise(dlap_mass_function<RationalField>(r), "DLap(" + to_string(r) + ")", "noise::dlap");
}

Noise Noise::geometric(const Rational& r) {
  require_ratio("noise::geometric", r);
  return Noise(PiecewiseExp({0}, {{}, {{1 - r, r}}}), "Geometric(" + to_string(r) + ")", "noise::geometric");
}

Noise Noise::bernoulli(const Rational& p) {
  require_probability("noise::bernoulli", "p", p);
  return Noise(table({{0, 1 - p}, {1, p}}), "Bernoulli(" + to_string(p) + ")", "noise::bernoulli");
}

Noise Noise::uniform(long a, long b) {
  const char* where = "noise::uniform";
  require(a >= -1'000'000'000 && a <= 1'000'000'000, where, "a", std::to_string(a), "must lie in [-10^9, 10^9]");
  require(b >= a && b <= 1'000'000'000, where, "b", std::to_string(b), "must lie in [a, 10^9]");
  const Rational c(1, static_cast<unsigned long>(b - a + 1));
  return Noise(PiecewiseExp::indicator(a, b).scaled(c), "Uniform[" + std::to_string(a) + ", " + std::to_string(b) + "]", where);
}

Noise Noise::binomial(long n, const Rational& p) {
  const char* where = "noise::binomial";
  require(n >= 0 && n <= 10000, where, "n", std::to_string(n), "must lie in [0, 10000]");
  require_probability(where, "p", p);
  std::map<long, Rational> m;
  for (long k = 0; k <= n; ++k)
    m[k] = Rational(exactdp::binomial(static_cast<unsigned long>(n), static_cast<unsigned long>(k))) * pow(p, static_cast<unsigned long>(k)) *
           pow(1 - p, static_cast<unsigned long>(n - k));
  return Noise(table(m), "Binomial(" + std::to_string(n) + ", " + to_string(p) + ")", where);
}

Noise Noise::point(long v) { return Noise(PiecewiseExp::point(v, 1), "Point(" + std::to_string(v) + ")", "noise::point"); }

Noise Noise::from_dist(const Dist<long>& d, std::string name) {
  std::map<long, Rational> m(d.begin(), d.end());
  return Noise(table(m), name.empty() ? "table" : std::move(name), "noise::from_dist");
}

Rational Noise::pmf(long k) const { return pmf_(k); }
Rational Noise::cdf(long k) const { return pmf_.sum(std::nullopt, k); }
Rational Noise::sf(long k) const { return pmf_.sum(k + 1, std::nullopt); }
Rational Noise::probability(std::optional<long> lo, std::optional<long> hi) const { return pmf_.sum(lo, hi); }

// Every mass function built here has positive coefficients only (named laws, shifts, reflections
// and mixtures of them), so it is positive on each non-empty piece and the piece bounds are the
// support's bounds.
std::optional<long> Noise::min() const { return pmf_.lowest_nonzero_piece(); }
std::optional<long> Noise::max() const { return pmf_.highest_nonzero_piece(); }

std::vector<long> Noise::support() const {
  const auto lo = min(), hi = max();
  require(lo && hi, "noise::support", "noise", name_, "the support is infinite; use clamped() or truncated() for a finite table");
  require(*hi - *lo < max_table_points, "noise::support", "noise", name_, "the support has more than 100000 points");
  std::vector<long> s;
  for (long k = *lo; k <= *hi; ++k)
    if (sgn(pmf_(k)) > 0) s.push_back(k);
  return s;
}

Dist<long> Noise::to_dist() const {
  std::vector<std::pair<long, Rational>> m;
  for (long k : support()) m.emplace_back(k, pmf_(k));
  return Dist<long>(m, MassKind::probability, name_);
}

namespace {
void check_window(const char* where, long lo, long hi) {
  require(hi >= lo, where, "hi", std::to_string(hi), "the window [lo, hi] must have lo <= hi");
  require(hi - lo < max_table_points, where, "hi", std::to_string(hi), "the window [lo, hi] has more than 100000 points");
}
}  // namespace

Dist<long> Noise::clamped(long lo, long hi) const {
  check_window("noise::clamped", lo, hi);
  if (lo == hi) return Dist<long>::point(lo);
  std::vector<std::pair<long, Rational>> m{{lo, cdf(lo)}, {hi, sf(hi - 1)}};
  for (long k = lo + 1; k < hi; ++k) m.emplace_back(k, pmf(k));
  return Dist<long>(m, MassKind::probability, name_ + " clamped");
}

Dist<long> Noise::truncated(long lo, long hi) const {
  check_window("noise::truncated", lo, hi);
  const Rational z = probability(lo, hi);
  require(sgn(z) > 0, "noise::truncated", "hi", std::to_string(hi), "the window [lo, hi] has probability 0");
  std::vector<std::pair<long, Rational>> m;
  for (long k = lo; k <= hi; ++k) m.emplace_back(k, pmf(k) / z);
  return Dist<long>(m, MassKind::probability, name_ + " truncated");
}

Noise Noise::shifted(long v) const {
  require(v >= -1'000'000'000 && v <= 1'000'000'000, "noise::shifted", "v", std::to_string(v), "must lie in [-10^9, 10^9]");
  return Noise(pmf_.shifted(v), name_ + signed_suffix(v), "noise::shifted");
}

Noise Noise::negated() const { return Noise(pmf_.reflected(), "-(" + name_ + ")", "noise::negated"); }

Noise Noise::plus(const Noise& other) const {
  const char* where = "noise::plus";
  const Noise* finite = is_finite() ? this : (other.is_finite() ? &other : nullptr);
  require(finite != nullptr, where, "other", other.name_,
          "the sum of two noises with unbounded support is not closed-form in this representation (one must be finite)");
  const Noise& rest = finite == this ? other : *this;
  const std::string name = name_ + " + " + other.name_;
  const std::vector<long> points = finite->support();
  if (rest.is_finite()) {
    const std::vector<long> more = rest.support();
    require(static_cast<double>(points.size()) * static_cast<double>(more.size()) <= 1e7, where, "other", other.name_,
            "the convolution of these two tables has more than 10^7 terms");
    std::map<long, Rational> m;
    for (long a : points)
      for (long b : more) m[a + b] += finite->pmf(a) * rest.pmf(b);
    return Noise(table(m), name, where);
  }
  require(points.size() <= 10000, where, "other", other.name_, "a mixture of more than 10000 shifts is refused");
  PiecewiseExp sum;
  for (long a : points) sum = sum + rest.pmf_.shifted(a).scaled(finite->pmf(a));
  return Noise(std::move(sum), name, where);
}

// ------------------------------------------------------------------ randomized response

RandomizedResponse::RandomizedResponse(const Rational& lambda, const Rational& delta) : lambda_(lambda), delta_(delta) {
  require(lambda >= 1, "noise::rr", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  require_probability("noise::rr", "delta", delta);
}

RandomizedResponse RandomizedResponse::from_truth_probability(const Rational& p, const Rational& delta) {
  require(p * 2 >= 1 && p < 1, "noise::rr", "p", to_string(p), "the truth probability p = lambda/(1+lambda) must lie in [1/2, 1)");
  return RandomizedResponse(p / (1 - p), delta);
}

Dist<std::string> RandomizedResponse::given(long b) const {
  require(b == 0 || b == 1, "noise::rr", "b", std::to_string(b), "the secret is a bit, 0 or 1");
  const std::string bit = std::to_string(b), other = std::to_string(1 - b);
  return Dist<std::string>({{"leak" + bit, delta_}, {bit, (1 - delta_) * truth_probability()}, {other, (1 - delta_) / (1 + lambda_)}},
                           MassKind::probability, "noise::rr");
}

Rational RandomizedResponse::pmf(const std::string& answer, long b) const { return given(b).mass(answer); }

KaryRandomizedResponse::KaryRandomizedResponse(long k, const Rational& lambda) : k_(k), lambda_(lambda) {
  require(k >= 2 && k <= 100000, "noise::krr", "k", std::to_string(k), "the alphabet size must lie in [2, 100000]");
  require(lambda >= 1, "noise::krr", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
}

Dist<long> KaryRandomizedResponse::given(long v) const {
  require(v >= 0 && v < k_, "noise::krr", "v", std::to_string(v), "the input must lie in {0, ..., k-1}");
  std::vector<std::pair<long, Rational>> m;
  for (long a = 0; a < k_; ++a) m.emplace_back(a, pmf(a, v));
  return Dist<long>(m, MassKind::probability, "noise::krr");
}

Rational KaryRandomizedResponse::pmf(long answer, long v) const {
  require(v >= 0 && v < k_, "noise::krr", "v", std::to_string(v), "the input must lie in {0, ..., k-1}");
  if (answer < 0 || answer >= k_) return 0;
  return (answer == v ? lambda_ : Rational(1)) / (lambda_ + k_ - 1);
}

}  // namespace exactdp::noise
