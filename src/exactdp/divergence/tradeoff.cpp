#include "exactdp/divergence/tradeoff.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {
namespace {

std::string show(const TradeOffVertex& v) { return "(" + to_string(v.alpha) + ", " + to_string(v.beta) + ")"; }

/// Lower convex hull of points sorted by α (Andrew's monotone chain, exact).
std::vector<TradeOffVertex> lower_hull(std::vector<TradeOffVertex> pts) {
  std::sort(pts.begin(), pts.end(), [](const auto& a, const auto& b) {
    return a.alpha < b.alpha || (a.alpha == b.alpha && a.beta < b.beta);
  });
  std::vector<TradeOffVertex> h;
  for (auto& p : pts) {
    if (!h.empty() && h.back().alpha == p.alpha) continue;  // keep the lowest β at each α
    while (h.size() >= 2) {
      const auto& a = h[h.size() - 2];
      const auto& b = h.back();
      // remove b unless it lies strictly below the chord a–p
      Rational cross = (b.alpha - a.alpha) * (p.beta - a.beta) - (b.beta - a.beta) * (p.alpha - a.alpha);
      if (sgn(cross) <= 0) h.pop_back();
      else break;
    }
    h.push_back(std::move(p));
  }
  return h;
}

}  // namespace

TradeOff TradeOff::from_vertices(std::vector<TradeOffVertex> v) {
  if (v.empty()) throw Error("trade-off function: no vertices");
  if (v.front().alpha != 0) throw Error("", "vertex", show(v.front()), "the first vertex must have alpha = 0");
  if (v.back().alpha != 1 || v.back().beta != 0)
    throw Error("", "vertex", show(v.back()), "the last vertex must be (1, 0)");
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (sgn(v[i].beta) < 0 || v[i].beta > 1 - v[i].alpha)
      throw Error("", "vertex", show(v[i]), "a trade-off function satisfies 0 <= f(alpha) <= 1 - alpha");
    if (i > 0 && v[i].alpha <= v[i - 1].alpha) throw Error("", "vertex", show(v[i]), "alpha must increase");
    if (i > 0 && v[i].beta > v[i - 1].beta) throw Error("", "vertex", show(v[i]), "a trade-off function is non-increasing");
  }
  auto hull = lower_hull(v);
  if (hull.size() != v.size()) {
    // a vertex above the hull is a convexity violation; collinear vertices are merely redundant
    for (const auto& p : v) {
      auto it = std::find_if(hull.begin(), hull.end(), [&](const auto& h) { return h.alpha >= p.alpha; });
      if (it != hull.end() && it->alpha == p.alpha) continue;
      const auto& b = *it;
      const auto& a = *(it - 1);
      Rational chord = a.beta + (b.beta - a.beta) * (p.alpha - a.alpha) / (b.alpha - a.alpha);
      if (p.beta > chord) throw Error("", "vertex", show(p), "a trade-off function is convex");
    }
  }
  return TradeOff(std::move(hull));
}

TradeOff TradeOff::of(const PrivacyLoss& loss) {
  // Reject "came from P" on atoms in order of decreasing Q/P, i.e. increasing ratio P/Q.
  std::vector<TradeOffVertex> pts{{Rational(0), Rational(1)}};
  Rational a(0), b(1);
  for (const auto& atom : loss.atoms()) {
    a += atom.p;
    b -= atom.q;
    pts.push_back({a, b});
  }
  // (0,1) may lie above the curve when P(y) = 0 atoms exist: T(0) = 1 − Q(P = 0)
  if (sgn(loss.atoms().front().p) == 0) pts.erase(pts.begin());
  return TradeOff(lower_hull(std::move(pts)));
}

TradeOff TradeOff::from_profile(const PiecewiseLinear& backward) {
  std::vector<TradeOffVertex> pts;
  for (const auto& piece : backward.pieces()) pts.push_back({Rational(-piece.slope), Rational(1 - piece.intercept)});
  pts.push_back({Rational(1), Rational(0)});
  for (const auto& p : pts)
    if (sgn(p.alpha) < 0 || p.alpha > 1 || sgn(p.beta) < 0 || p.beta > 1)
      throw Error("", "profile piece", show(p), "not the profile of a pair (slopes in [-1, 0], values in [0, 1])");
  return TradeOff(lower_hull(std::move(pts)));
}

PiecewiseLinear TradeOff::to_profile() const {
  // For λ ∈ [s_i, s_{i−1}) the minimiser of λα + β is vertex i, where s_i = −slope of segment i.
  std::vector<LinearPiece> pieces;
  const auto& v = vertices_;
  for (std::size_t i = v.size(); i-- > 0;) {
    Rational start = 0;
    if (i + 1 < v.size()) start = (v[i].beta - v[i + 1].beta) / (v[i + 1].alpha - v[i].alpha);
    if (!pieces.empty() && start == pieces.back().start) pieces.pop_back();
    pieces.push_back({start, Rational(1 - v[i].beta), Rational(-v[i].alpha)});
  }
  return PiecewiseLinear::from_pieces(std::move(pieces));
}

TradeOff TradeOff::epsilon_delta(const Rational& lambda, const Rational& delta) {
  if (lambda < 1) throw Error("", "lambda", to_string(lambda), "lambda = e^epsilon must be at least 1");
  if (sgn(delta) < 0 || delta > 1) throw Error("", "delta", to_string(delta), "delta must lie in [0, 1]");
  Rational m = (1 - delta) / (1 + lambda);
  std::vector<TradeOffVertex> v{{0, Rational(1 - delta)}, {m, m}, {Rational(1 - delta), 0}, {1, 0}};
  // δ = 0 or δ = 1 make some of the four vertices coincide
  v.erase(std::unique(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.alpha == b.alpha; }), v.end());
  return from_vertices(std::move(v));
}

TradeOff TradeOff::identity() { return TradeOff({{0, 1}, {1, 0}}); }

Rational TradeOff::operator()(const Rational& alpha) const {
  if (sgn(alpha) < 0 || alpha > 1) throw Error("", "alpha", to_string(alpha), "alpha must lie in [0, 1]");
  auto it = std::lower_bound(vertices_.begin(), vertices_.end(), alpha,
                             [](const TradeOffVertex& v, const Rational& a) { return v.alpha < a; });
  if (it->alpha == alpha) return it->beta;
  const auto& b = *it;
  const auto& a = *(it - 1);
  return a.beta + (b.beta - a.beta) * (alpha - a.alpha) / (b.alpha - a.alpha);
}

PrivacyLoss TradeOff::canonical_pair() const {
  // atoms: start (0, 1 − f(0)); segment j (α_j − α_{j−1}, β_{j−1} − β_j); end (1 − α_m, 0) where
  // α_m is where f first reaches 0. Masses are given as (P, Q).
  std::vector<std::pair<Rational, Rational>> m;
  m.emplace_back(Rational(0), Rational(1 - vertices_.front().beta));
  for (std::size_t j = 1; j < vertices_.size(); ++j)
    m.emplace_back(Rational(vertices_[j].alpha - vertices_[j - 1].alpha), Rational(vertices_[j - 1].beta - vertices_[j].beta));
  return PrivacyLoss::from_masses(m, "canonical pair");
}

TradeOff TradeOff::inverse() const { return of(canonical_pair().swapped()); }

TradeOff TradeOff::symmetrized() const {
  std::vector<TradeOffVertex> pts = vertices_;
  for (const auto& v : inverse().vertices_) pts.push_back(v);
  return TradeOff(lower_hull(std::move(pts)));
}

std::optional<Rational> TradeOff::violation_of(const TradeOff& g) const {
  for (const auto& v : vertices_)
    if (v.beta < g(v.alpha)) return v.alpha;
  for (const auto& v : g.vertices_)
    if ((*this)(v.alpha) < v.beta) return v.alpha;
  return std::nullopt;
}

TradeOff tensor(const TradeOff& f, const TradeOff& g) { return TradeOff::of(compose(f.canonical_pair(), g.canonical_pair())); }

Interval gaussian_tradeoff(const Interval& mu, const Rational& alpha) {
  if (sgn(alpha) < 0 || alpha > 1) throw Error("", "alpha", to_string(alpha), "alpha must lie in [0, 1]");
  const Precision prec = mu.precision();
  if (sgn(alpha) == 0) return Interval(Rational(1), prec);
  if (alpha == 1) return Interval(Rational(0), prec);
  return normal_cdf(normal_quantile(Interval(Rational(1 - alpha), prec)) - mu);
}

}  // namespace exactdp

namespace exactdp {

SmoothComparison dominates_gaussian(const TradeOff& f, const Rational& mu, const DecideOptions& options) {
  if (sgn(mu) < 0) throw Error("", "mu", to_string(mu), "the Gaussian DP parameter mu must be non-negative");
  SmoothComparison result{Tri::yes, 0, std::nullopt};
  for (const auto& v : f.vertices()) {
    if (v.alpha == 1) continue;  // f(1) = 0 = G_μ(1)
    // exact cases: G_μ(0) = 1 and G_0(α) = 1 − α
    if (sgn(v.alpha) == 0 || sgn(mu) == 0) {
      if (v.beta < 1 - v.alpha) return {Tri::no, 0, v.alpha};
      continue;
    }
    const Rational alpha = v.alpha;
    Decision d = decide_less_equal([&](Precision p) { return gaussian_tradeoff(Interval(mu, p), alpha); }, v.beta, options);
    result.precision = std::max(result.precision, d.precision);
    if (d.outcome == Tri::no) return {Tri::no, result.precision, v.alpha};
    if (d.outcome == Tri::undecided) result.outcome = Tri::undecided;
  }
  return result;
}

}  // namespace exactdp
