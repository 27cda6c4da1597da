#include "exactdp/noise/piecewise_exp.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <iterator>

namespace exactdp::noise {

namespace {

constexpr const char* where = "noise::PiecewiseExp";
constexpr long max_unit_pieces = 100000;

/// Sorts by base, merges equal bases, drops zero coefficients.
void tidy(PiecewiseExp::Terms& t) {
  std::sort(t.begin(), t.end(), [](const ExpTerm& a, const ExpTerm& b) { return a.base < b.base; });
  PiecewiseExp::Terms out;
  for (auto& term : t) {
    if (!out.empty() && out.back().base == term.base) out.back().coefficient += term.coefficient;
    else out.push_back(std::move(term));
  }
  std::erase_if(out, [](const ExpTerm& x) { return sgn(x.coefficient) == 0; });
  t = std::move(out);
}

PiecewiseExp::Terms times(const PiecewiseExp::Terms& x, const PiecewiseExp::Terms& y) {
  PiecewiseExp::Terms out;
  out.reserve(x.size() * y.size());
  for (const auto& a : x)
    for (const auto& b : y) out.push_back({a.coefficient * b.coefficient, a.base * b.base});
  tidy(out);
  return out;
}

PiecewiseExp::Terms plus(const PiecewiseExp::Terms& x, const PiecewiseExp::Terms& y, int sign) {
  PiecewiseExp::Terms out = x;
  for (const auto& b : y) out.push_back({sign * b.coefficient, b.base});
  tidy(out);
  return out;
}

/// An interval end: a finite integer or ±∞.
struct End {
  bool infinite = true;
  long at = 0;
};

/// The first and last j of piece @p i of a function with cuts @p cuts.
std::pair<End, End> span(const std::vector<long>& cuts, std::size_t i) {
  End lo, hi;
  if (i > 0) lo = {false, cuts[i - 1]};
  if (i < cuts.size()) hi = {false, cuts[i] - 1};
  return {lo, hi};
}

/// Σ_{j=a}^{b} c θ^j for one term, ends possibly infinite.
Rational term_sum(const ExpTerm& t, End a, End b) {
  const Rational& th = t.base;
  if (a.infinite && b.infinite)
    throw Error(where, "sum", to_string(th), "a non-zero exponential summed over all of Z diverges");
  if (a.infinite) {
    if (th <= 1) throw Error(where, "sum", to_string(th), "the sum towards -infinity diverges (base <= 1)");
    return t.coefficient * power(th, b.at + 1) / (th - 1);
  }
  if (b.infinite) {
    if (th >= 1) throw Error(where, "sum", to_string(th), "the sum towards +infinity diverges (base >= 1)");
    return t.coefficient * power(th, a.at) / (1 - th);
  }
  return t.coefficient * geometric_sum(th, a.at, b.at);
}

std::string show_terms(const PiecewiseExp::Terms& t) {
  if (t.empty()) return "0";
  std::string out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    Rational c = t[i].coefficient;
    if (i > 0) {
      out += sgn(c) < 0 ? " - " : " + ";
      if (sgn(c) < 0) c = -c;
    }
    if (t[i].base == 1) out += exactdp::to_string(c);
    else out += exactdp::to_string(c) + "*(" + exactdp::to_string(t[i].base) + ")^j";
  }
  return out;
}

}  // namespace

Rational power(const Rational& theta, long k) {
  if (k >= 0) return pow(theta, static_cast<unsigned long>(k));
  return 1 / pow(theta, static_cast<unsigned long>(-k));
}

Rational geometric_sum(const Rational& theta, long a, long b) {
  if (b < a) return 0;
  if (theta == 1) return Rational(b - a + 1);
  return (power(theta, a) - power(theta, b + 1)) / (1 - theta);
}

PiecewiseExp::PiecewiseExp() : pieces_(1) {}

PiecewiseExp::PiecewiseExp(std::vector<long> cuts, std::vector<Terms> pieces) : cuts_(std::move(cuts)), pieces_(std::move(pieces)) {
  if (pieces_.size() != cuts_.size() + 1)
    throw Error(where, "pieces", std::to_string(pieces_.size()), "there must be exactly one more piece than cuts");
  for (std::size_t i = 1; i < cuts_.size(); ++i)
    if (cuts_[i] <= cuts_[i - 1]) throw Error(where, "cuts", std::to_string(cuts_[i]), "cuts must be strictly increasing");
  for (auto& p : pieces_)
    for (const auto& t : p)
      if (sgn(t.base) <= 0) throw Error(where, "base", exactdp::to_string(t.base), "bases must be positive");
  normalise();
}

PiecewiseExp PiecewiseExp::constant(const Rational& c) { return PiecewiseExp({}, {{{c, Rational(1)}}}); }

PiecewiseExp PiecewiseExp::exponential(const Rational& c, const Rational& base) { return PiecewiseExp({}, {{{c, base}}}); }

PiecewiseExp PiecewiseExp::indicator(std::optional<long> lo, std::optional<long> hi) {
  if (lo && hi && *hi < *lo) return PiecewiseExp();
  std::vector<long> cuts;
  std::vector<Terms> pieces;
  const Terms one{{Rational(1), Rational(1)}};
  if (lo) {
    cuts.push_back(*lo);
    pieces.push_back({});
  }
  pieces.push_back(one);
  if (hi) {
    cuts.push_back(*hi + 1);
    pieces.push_back({});
  }
  return PiecewiseExp(std::move(cuts), std::move(pieces));
}

PiecewiseExp PiecewiseExp::point(long at, const Rational& value) {
  return PiecewiseExp({at, at + 1}, {{}, {{value, Rational(1)}}, {}});
}

void PiecewiseExp::normalise() {
  for (auto& p : pieces_) tidy(p);
  std::vector<long> cuts;
  std::vector<Terms> pieces{std::move(pieces_[0])};
  for (std::size_t i = 0; i < cuts_.size(); ++i) {
    if (pieces_[i + 1] == pieces.back()) continue;
    cuts.push_back(cuts_[i]);
    pieces.push_back(std::move(pieces_[i + 1]));
  }
  cuts_ = std::move(cuts);
  pieces_ = std::move(pieces);
}

std::size_t PiecewiseExp::piece_of(long j) const {
  return static_cast<std::size_t>(std::upper_bound(cuts_.begin(), cuts_.end(), j) - cuts_.begin());
}

Rational PiecewiseExp::operator()(long j) const {
  Rational s = 0;
  for (const auto& t : pieces_[piece_of(j)]) s += t.coefficient * power(t.base, j);
  return s;
}

bool PiecewiseExp::is_zero() const { return cuts_.empty() && pieces_[0].empty(); }

bool PiecewiseExp::is_identically_zero() const {
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    const Terms& p = pieces_[i];
    if (p.empty()) continue;
    if (i == 0 || i == cuts_.size()) return false;  // an unbounded piece with terms
    const long a = cuts_[i - 1], b = cuts_[i] - 1;
    if (b - a + 1 >= static_cast<long>(p.size())) return false;
    for (long j = a; j <= b; ++j) {
      Rational v = 0;
      for (const auto& t : p) v += t.coefficient * power(t.base, j);
      if (sgn(v) != 0) return false;
    }
  }
  return true;
}

bool same_function(const PiecewiseExp& f, const PiecewiseExp& g) { return (f - g).is_identically_zero(); }

std::optional<long> PiecewiseExp::lowest_nonzero_piece() const {
  for (std::size_t i = 0; i < pieces_.size(); ++i)
    if (!pieces_[i].empty()) return i == 0 ? std::nullopt : std::optional<long>(cuts_[i - 1]);
  return std::nullopt;
}

std::optional<long> PiecewiseExp::highest_nonzero_piece() const {
  for (std::size_t i = pieces_.size(); i-- > 0;)
    if (!pieces_[i].empty()) return i == cuts_.size() ? std::nullopt : std::optional<long>(cuts_[i] - 1);
  return std::nullopt;
}

namespace {

/// Applies @p op piecewise on the common refinement of the cuts of @p f and @p g.
template <class Op>
PiecewiseExp combine(const PiecewiseExp& f, const PiecewiseExp& g, Op op) {
  std::vector<long> cuts;
  std::set_union(f.cuts().begin(), f.cuts().end(), g.cuts().begin(), g.cuts().end(), std::back_inserter(cuts));
  std::vector<PiecewiseExp::Terms> pieces;
  pieces.reserve(cuts.size() + 1);
  std::size_t i = 0, k = 0;  // the pieces of f and g that contain the current piece
  for (std::size_t p = 0; p <= cuts.size(); ++p) {
    if (p > 0) {
      const long start = cuts[p - 1];
      while (i < f.cuts().size() && f.cuts()[i] <= start) ++i;
      while (k < g.cuts().size() && g.cuts()[k] <= start) ++k;
    }
    pieces.push_back(op(f.pieces()[i], g.pieces()[k]));
  }
  return PiecewiseExp(std::move(cuts), std::move(pieces));
}

}  // namespace

PiecewiseExp PiecewiseExp::operator*(const PiecewiseExp& g) const { return combine(*this, g, times); }

PiecewiseExp PiecewiseExp::operator+(const PiecewiseExp& g) const {
  return combine(*this, g, [](const Terms& x, const Terms& y) { return plus(x, y, 1); });
}

PiecewiseExp PiecewiseExp::operator-(const PiecewiseExp& g) const {
  return combine(*this, g, [](const Terms& x, const Terms& y) { return plus(x, y, -1); });
}

PiecewiseExp PiecewiseExp::scaled(const Rational& c) const {
  auto pieces = pieces_;
  for (auto& p : pieces)
    for (auto& t : p) t.coefficient *= c;
  return PiecewiseExp(cuts_, std::move(pieces));
}

PiecewiseExp PiecewiseExp::shifted(long v) const {
  // f(j − v) = Σ c θ^{j−v} = Σ (c θ^{−v}) θ^j, with every cut moved by v
  auto cuts = cuts_;
  for (auto& b : cuts) b += v;
  auto pieces = pieces_;
  for (auto& p : pieces)
    for (auto& t : p) t.coefficient *= power(t.base, -v);
  return PiecewiseExp(std::move(cuts), std::move(pieces));
}

PiecewiseExp PiecewiseExp::reflected() const {
  // f(−j): the piece [a, b] becomes [−b, −a] and c θ^{−j} = c (1/θ)^j
  std::vector<long> cuts;
  for (auto it = cuts_.rbegin(); it != cuts_.rend(); ++it) cuts.push_back(1 - *it);
  std::vector<Terms> pieces(pieces_.rbegin(), pieces_.rend());
  for (auto& p : pieces)
    for (auto& t : p) t.base = 1 / t.base;
  return PiecewiseExp(std::move(cuts), std::move(pieces));
}

PiecewiseExp PiecewiseExp::restricted(std::optional<long> lo, std::optional<long> hi) const {
  return *this * indicator(lo, hi);
}

Rational PiecewiseExp::sum(std::optional<long> lo, std::optional<long> hi) const {
  Rational total = 0;
  if (lo && hi && *hi < *lo) return total;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    if (pieces_[i].empty()) continue;
    auto [a, b] = span(cuts_, i);
    if (lo && (a.infinite || a.at < *lo)) a = {false, *lo};
    if (hi && (b.infinite || b.at > *hi)) b = {false, *hi};
    if (!a.infinite && !b.infinite && b.at < a.at) continue;
    for (const auto& t : pieces_[i]) total += term_sum(t, a, b);
  }
  return total;
}

PiecewiseExp PiecewiseExp::cumulative() const {
  // first split every bounded piece with a θ = 1 term and more than one point into single points,
  // since Σ_{j=a}^{k} 1 = k − a + 1 is linear in k
  std::vector<long> cuts;
  std::vector<Terms> pieces{pieces_[0]};
  for (std::size_t i = 0; i < cuts_.size(); ++i) {
    const Terms& p = pieces_[i + 1];
    const bool bounded = i + 1 < cuts_.size();
    const bool has_one = std::any_of(p.begin(), p.end(), [](const ExpTerm& t) { return t.base == 1; });
    if (has_one && !bounded) throw Error(where, "cumulative", show_terms(p), "a constant term on an unbounded piece is not summable");
    if (has_one && cuts_[i + 1] - cuts_[i] > 1) {
      if (cuts_[i + 1] - cuts_[i] > max_unit_pieces)
        throw Error(where, "cumulative", std::to_string(cuts_[i + 1] - cuts_[i]),
                    "a constant piece longer than 100000 points has no closed-form running sum here");
      for (long j = cuts_[i]; j < cuts_[i + 1]; ++j) {
        cuts.push_back(j);
        pieces.push_back(p);
      }
      continue;
    }
    cuts.push_back(cuts_[i]);
    pieces.push_back(p);
  }
  if (!pieces[0].empty() && cuts.empty())
    throw Error(where, "cumulative", show_terms(pieces[0]), "a function non-zero on all of Z with one formula is not a mass function");
  std::vector<Terms> out;
  Rational before = 0;  // F(start − 1) of the current piece
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    const Terms& p = pieces[i];
    Terms f;
    if (i == 0) {
      // F(k) = Σ_{j≤k} c θ^j = c θ^{k+1}/(θ − 1), θ > 1
      for (const auto& t : p) {
        if (t.base <= 1) throw Error(where, "cumulative", exactdp::to_string(t.base), "not summable towards -infinity (base <= 1)");
        f.push_back({t.coefficient * t.base / (t.base - 1), t.base});
      }
    } else {
      // F(k) = F(a − 1) + Σ_{j=a}^{k} c θ^j = F(a − 1) + c θ^a/(1 − θ) − (c θ/(1 − θ)) θ^k
      const long a = cuts[i - 1];
      Rational constant = before;
      for (const auto& t : p) {
        if (t.base == 1) {
          constant += t.coefficient;  // a single point (split above)
          continue;
        }
        constant += t.coefficient * power(t.base, a) / (1 - t.base);
        f.push_back({-t.coefficient * t.base / (1 - t.base), t.base});
      }
      f.push_back({constant, Rational(1)});
    }
    tidy(f);
    if (i < cuts.size()) {
      before = 0;
      for (const auto& t : f) before += t.coefficient * power(t.base, cuts[i] - 1);
    }
    out.push_back(std::move(f));
  }
  return PiecewiseExp(std::move(cuts), std::move(out));
}

std::string PiecewiseExp::to_string() const {
  std::string out;
  for (std::size_t i = 0; i < pieces_.size(); ++i) {
    auto [a, b] = span(cuts_, i);
    if (!out.empty()) out += "; ";
    if (a.infinite && b.infinite) out += "all j";
    else if (a.infinite) out += "j<=" + std::to_string(b.at);
    else if (b.infinite) out += "j>=" + std::to_string(a.at);
    else if (a.at == b.at) out += "j=" + std::to_string(a.at);
    else out += std::to_string(a.at) + "<=j<=" + std::to_string(b.at);
    out += ": " + show_terms(pieces_[i]);
  }
  return out;
}

}  // namespace exactdp::noise
