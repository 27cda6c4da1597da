#include "exactdp/divergence/piecewise_linear.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {

PiecewiseLinear::PiecewiseLinear(const Rational& c) : pieces_{{Rational(0), c, Rational(0)}} {}

PiecewiseLinear PiecewiseLinear::from_pieces(std::vector<LinearPiece> pieces) {
  if (pieces.empty() || pieces.front().start != 0)
    throw Error("piecewise-linear function: the first piece must start at 0");
  PiecewiseLinear f;
  f.pieces_.clear();
  for (auto& piece : pieces) {
    if (!f.pieces_.empty()) {
      const auto& last = f.pieces_.back();
      if (piece.start <= last.start) throw Error("piecewise-linear function: breakpoints must increase");
      if (last.at(piece.start) != piece.at(piece.start))
        throw Error("", "breakpoint", to_string(piece.start), "piecewise-linear function is discontinuous");
      if (last.intercept == piece.intercept && last.slope == piece.slope) continue;
    }
    f.pieces_.push_back(std::move(piece));
  }
  return f;
}

PiecewiseLinear PiecewiseLinear::from_trusted_pieces(std::vector<LinearPiece> pieces) {
  PiecewiseLinear f;
  f.pieces_.clear();
  f.pieces_.reserve(pieces.size());
  for (auto& piece : pieces) {
    if (!f.pieces_.empty() && f.pieces_.back().slope == piece.slope && f.pieces_.back().intercept == piece.intercept)
      continue;
    f.pieces_.push_back(std::move(piece));
  }
  return f;
}

std::vector<Rational> PiecewiseLinear::breakpoints() const {
  std::vector<Rational> b;
  for (std::size_t i = 1; i < pieces_.size(); ++i) b.push_back(pieces_[i].start);
  return b;
}

std::size_t PiecewiseLinear::piece_index(const Rational& x) const {
  // last piece whose start ≤ x
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), x,
                             [](const Rational& v, const LinearPiece& p) { return v < p.start; });
  return it == pieces_.begin() ? 0 : static_cast<std::size_t>(it - pieces_.begin()) - 1;
}

Rational PiecewiseLinear::operator()(const Rational& x) const { return pieces_[piece_index(x)].at(x); }

Interval PiecewiseLinear::operator()(const Interval& x) const {
  const Precision prec = x.precision();
  if (!x.lower_is_finite()) throw Error("piecewise-linear function evaluated on an unbounded interval");
  Rational lo = x.lower();
  if (lo < 0) lo = 0;
  Rational vlo = (*this)(lo);
  Interval out = Interval::hull(vlo, vlo, prec);
  if (!x.upper_is_finite()) {
    // sup over [lo, ∞): depends on the final slope
    if (final_slope() > 0) return Interval::at_least(vlo, prec);
    Interval tail(final_value(), prec);
    if (final_slope() < 0) throw Error("piecewise-linear function is unbounded below on the interval");
    out = hull(out, tail);
    for (const auto& b : breakpoints())
      if (b > lo) out = hull(out, Interval((*this)(b), prec));
    return out;
  }
  Rational hi = x.upper();
  out = hull(out, Interval((*this)(hi), prec));
  for (const auto& b : breakpoints())
    if (b > lo && b < hi) out = hull(out, Interval((*this)(b), prec));
  return out;
}

ExtendedRational PiecewiseLinear::least_argument_at_most(const Rational& y, const Rational& from) const {
  if ((*this)(from) <= y) return ExtendedRational(from);
  for (std::size_t i = piece_index(from); i < pieces_.size(); ++i) {
    const auto& p = pieces_[i];
    bool last = i + 1 == pieces_.size();
    // On this piece f is linear and non-increasing; f(start) > y so far.
    if (!last && pieces_[i + 1].at(pieces_[i + 1].start) > y) continue;
    if (sgn(p.slope) >= 0) {
      if (last) return ExtendedRational::infinity();
      continue;
    }
    Rational x = (y - p.intercept) / p.slope;  // the crossing of the line with height y
    return ExtendedRational(std::max(x, from));
  }
  return ExtendedRational::infinity();
}

namespace {

/// The merged, sorted union of breakpoints of f and g, starting with 0.
std::vector<Rational> merged_starts(const PiecewiseLinear& f, const PiecewiseLinear& g) {
  std::vector<Rational> s{Rational(0)};
  for (const auto& b : f.breakpoints()) s.push_back(b);
  for (const auto& b : g.breakpoints()) s.push_back(b);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

LinearPiece line_at(const PiecewiseLinear& f, const Rational& start) {
  // the piece of f active just to the right of start
  const auto& ps = f.pieces();
  auto it = std::upper_bound(ps.begin(), ps.end(), start,
                             [](const Rational& v, const LinearPiece& p) { return v < p.start; });
  const auto& p = *(it - 1);
  return {start, p.intercept, p.slope};
}

}  // namespace

PiecewiseLinear max(const PiecewiseLinear& f, const PiecewiseLinear& g) {
  auto starts = merged_starts(f, g);
  std::vector<LinearPiece> out;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    LinearPiece a = line_at(f, starts[i]), b = line_at(g, starts[i]);
    const Rational& s = starts[i];
    bool has_end = i + 1 < starts.size();
    // Which line is above at the start (ties broken by the slope to the right)?
    Rational da = a.at(s) - b.at(s);
    bool a_first = sgn(da) > 0 || (sgn(da) == 0 && a.slope >= b.slope);
    LinearPiece first = a_first ? a : b, second = a_first ? b : a;
    out.push_back(first);
    if (first.slope < second.slope) {
      // the lines cross at x = (i₁ − i₂)/(s₂ − s₁), if that lies inside this piece
      Rational x = (first.intercept - second.intercept) / (second.slope - first.slope);
      if (x > s && (!has_end || x < starts[i + 1])) out.push_back({x, second.intercept, second.slope});
    }
  }
  return PiecewiseLinear::from_pieces(std::move(out));
}

PiecewiseLinear operator+(const PiecewiseLinear& f, const PiecewiseLinear& g) {
  std::vector<LinearPiece> out;
  for (const auto& s : merged_starts(f, g)) {
    LinearPiece a = line_at(f, s), b = line_at(g, s);
    out.push_back({s, a.intercept + b.intercept, a.slope + b.slope});
  }
  return PiecewiseLinear::from_pieces(std::move(out));
}

}  // namespace exactdp
