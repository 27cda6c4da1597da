/// @file
/// Functions ℤ → ℚ that are piecewise sums of exponentials, and their sums over ℤ in closed form
/// — the one home of the geometric-series evaluation of THEOREMS.md B.13.
///
/// Every exact event probability of integer noise in exactdp — a DLap CDF (D.3), the
/// no-stop probability of AboveThreshold (B.13, D.5), the posterior of a latent threshold
/// (noise/latent.hpp), the winner of report-noisy-max (noise/noisy_max.hpp) — is a sum
/// Σ_{j∈ℤ} Π_i g_i(j) in which every factor g_i is, on each of finitely many consecutive intervals
/// of ℤ, a finite sum of terms c·θ^j with rational c and θ > 0. Such functions are closed under
/// products, sums, shifts and reflection, and their sums over an interval are finite sums of
/// geometric series, Σ_{j=a}^{b} θ^j = (θ^a − θ^{b+1})/(1 − θ), Σ_{j≥a} θ^j = θ^a/(1 − θ) for θ < 1
/// and Σ_{j≤b} θ^j = θ^{b+1}/(θ − 1) for θ > 1. Nothing is truncated: the sum over ℤ is exact.
#pragma once

#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <vector>

namespace exactdp::noise {

/// One term c·θ^j of a piece (θ > 0).
struct ExpTerm {
  Rational coefficient;  ///< c ≠ 0
  Rational base;         ///< θ > 0
  friend bool operator==(const ExpTerm&, const ExpTerm&) = default;
};

/// A function f: ℤ → ℚ given on consecutive intervals ("pieces") as finite sums Σ_t c_t·θ_t^j.
///
/// With cuts b_1 < … < b_m the pieces are (−∞, b_1 − 1], [b_1, b_2 − 1], …, [b_m, +∞); piece i
/// holds its terms sorted by base, with distinct bases and non-zero coefficients (an empty piece is
/// the zero function there). The representation is normalised — adjacent pieces with equal terms
/// are merged — so two values compare equal iff their representations agree; equal functions may
/// still have different representations on bounded pieces (a point value has many term lists).
///
/// All operations are exact. sum() throws exactdp::Error when a sum over an unbounded interval
/// diverges (a term with θ ≥ 1 towards +∞, or θ ≤ 1 towards −∞); powers θ^j are computed for the
/// integers j that occur as cuts, so cuts are kept within ±10⁹.
class PiecewiseExp {
public:
  using Terms = std::vector<ExpTerm>;

  /// The zero function.
  PiecewiseExp();
  /// From cuts (strictly increasing) and pieces (one more than cuts); validated and normalised.
  /// Throws exactdp::Error on a size mismatch, unsorted cuts or a base θ ≤ 0.
  PiecewiseExp(std::vector<long> cuts, std::vector<Terms> pieces);

  /// The constant @p c on all of ℤ.
  static PiecewiseExp constant(const Rational& c);
  /// c·θ^j on all of ℤ (θ > 0).
  static PiecewiseExp exponential(const Rational& c, const Rational& base);
  /// 1 on [lo, hi] ∩ ℤ and 0 elsewhere (an absent end is infinite).
  static PiecewiseExp indicator(std::optional<long> lo, std::optional<long> hi);
  /// @p value at j = @p at and 0 elsewhere.
  static PiecewiseExp point(long at, const Rational& value);

  /// f(j).
  Rational operator()(long j) const;
  /// The cuts b_1 < … < b_m.
  const std::vector<long>& cuts() const { return cuts_; }
  /// The pieces, one more than the cuts.
  const std::vector<Terms>& pieces() const { return pieces_; }
  /// Whether the representation is empty (the zero function in normal form).
  bool is_zero() const;
  /// Whether f(j) = 0 for every j ∈ ℤ, decided exactly: a non-empty sum of exponentials with
  /// distinct positive bases vanishes at no m consecutive integers when it has m terms (Vandermonde),
  /// so only pieces shorter than their term count are evaluated point by point.
  bool is_identically_zero() const;
  /// The first j of the first non-empty piece (nullopt when that piece is unbounded below; for the
  /// zero function, nullopt as well). f vanishes below it.
  std::optional<long> lowest_nonzero_piece() const;
  /// The last j of the last non-empty piece (nullopt when unbounded above). f vanishes above it.
  std::optional<long> highest_nonzero_piece() const;

  /// Pointwise product.
  PiecewiseExp operator*(const PiecewiseExp& g) const;
  /// Pointwise sum.
  PiecewiseExp operator+(const PiecewiseExp& g) const;
  /// Pointwise difference.
  PiecewiseExp operator-(const PiecewiseExp& g) const;
  /// c·f.
  PiecewiseExp scaled(const Rational& c) const;
  /// j ↦ f(j − v) (the graph moved right by v).
  PiecewiseExp shifted(long v) const;
  /// j ↦ f(−j).
  PiecewiseExp reflected() const;
  /// f·1[lo ≤ j ≤ hi].
  PiecewiseExp restricted(std::optional<long> lo, std::optional<long> hi) const;

  /// Σ_{j=lo}^{hi} f(j) in closed form (an absent end is infinite). Throws exactdp::Error when the
  /// series diverges.
  Rational sum(std::optional<long> lo = std::nullopt, std::optional<long> hi = std::nullopt) const;
  /// The running sum F(k) = Σ_{j≤k} f(j) as a function of the same kind. A term with θ = 1 on a
  /// bounded piece makes F linear there, so such pieces are first split into single points (at
  /// most 10⁵ of them; exactdp::Error beyond). Throws when f is not summable towards −∞ or has a
  /// θ = 1 term on the last, unbounded piece.
  PiecewiseExp cumulative() const;

  /// A readable form, e.g. "j<=-1: 2/3*2^j; j>=0: 1 - 1/3*(1/2)^j".
  std::string to_string() const;

  /// Equality of representations (which implies equality of functions; see same_function()).
  friend bool operator==(const PiecewiseExp&, const PiecewiseExp&) = default;

private:
  void normalise();
  std::size_t piece_of(long j) const;
  std::vector<long> cuts_;
  std::vector<Terms> pieces_;
};

/// Whether @p f and @p g are the same function on ℤ, decided exactly ((f − g).is_identically_zero()).
bool same_function(const PiecewiseExp& f, const PiecewiseExp& g);

/// θ^k for an integer k (θ ≠ 0 when k < 0).
Rational power(const Rational& theta, long k);

/// Σ_{j=a}^{b} θ^j for a ≤ b (b − a + 1 when θ = 1), in closed form.
Rational geometric_sum(const Rational& theta, long a, long b);

}  // namespace exactdp::noise
