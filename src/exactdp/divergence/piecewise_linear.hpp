/// @file
/// Exact continuous piecewise-linear functions on [0, ∞) with rational breakpoints — the
/// representation of privacy profiles λ ↦ δ(λ) (THEOREMS.md B.3).
#pragma once

#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <vector>

namespace exactdp {

/// One linear piece x ↦ intercept + slope·x, valid from `start` up to the next piece's start.
struct LinearPiece {
  Rational start;
  Rational intercept;
  Rational slope;
  Rational at(const Rational& x) const { return intercept + slope * x; }
  friend bool operator==(const LinearPiece&, const LinearPiece&) = default;
};

/// A continuous piecewise-linear function f: [0, ∞) → ℚ with finitely many rational
/// breakpoints, stored exactly. The last piece extends to +∞.
///
/// Invariants: pieces sorted by strictly increasing start, the first starts at 0, adjacent
/// pieces have different lines (merged otherwise) and agree at their common breakpoint.
class PiecewiseLinear {
public:
  /// The constant function c.
  explicit PiecewiseLinear(const Rational& c = 0);
  /// From pieces (validated: first start 0, increasing starts, continuity); merges collinear
  /// neighbours. Throws exactdp::Error on a violation.
  static PiecewiseLinear from_pieces(std::vector<LinearPiece> pieces);
  /// From pieces already known to satisfy the invariants (built by exactdp itself, e.g. from the
  /// atoms of a PrivacyLoss); only collinear neighbours are merged, continuity is not re-checked.
  static PiecewiseLinear from_trusted_pieces(std::vector<LinearPiece> pieces);

  const std::vector<LinearPiece>& pieces() const { return pieces_; }
  /// The breakpoints x > 0 where the slope changes, increasing.
  std::vector<Rational> breakpoints() const;

  /// f(x) for x ≥ 0 (exact).
  Rational operator()(const Rational& x) const;
  /// An enclosure of {f(x) : x ∈ X} for an interval X ⊆ [0, ∞): the hull of f at the
  /// endpoints of X (rounded outward to rationals) and at the breakpoints inside X.
  Interval operator()(const Interval& x) const;
  /// The slope of the last piece (the behaviour as x → ∞).
  const Rational& final_slope() const { return pieces_.back().slope; }
  /// lim_{x→∞} f(x) when the final slope is 0.
  const Rational& final_value() const { return pieces_.back().intercept; }

  /// The least x ≥ @p from with f(x) ≤ @p y, for a non-increasing f; +∞ if there is none.
  /// Exact: solved on the right piece. Precondition: f non-increasing on [from, ∞).
  ExtendedRational least_argument_at_most(const Rational& y, const Rational& from = 0) const;

  /// The pointwise maximum (upper envelope), exact: breakpoints of both plus the rational
  /// crossing points of the two lines on each common piece.
  friend PiecewiseLinear max(const PiecewiseLinear& f, const PiecewiseLinear& g);
  /// The pointwise sum.
  friend PiecewiseLinear operator+(const PiecewiseLinear& f, const PiecewiseLinear& g);

  friend bool operator==(const PiecewiseLinear&, const PiecewiseLinear&) = default;

private:
  std::vector<LinearPiece> pieces_;
  std::size_t piece_index(const Rational& x) const;
};

}  // namespace exactdp
