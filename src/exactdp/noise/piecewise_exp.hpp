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
///
/// The class is a template over a field policy (noise/number_field.hpp): PiecewiseExp is the
/// numeric instance over exact rationals; the parametric layer instantiates the same code over
/// rational functions of a noise parameter (parametric/parametric_field.hpp), where c and θ are
/// functions of r and "θ < 1" must hold for every r. The member definitions are in
/// piecewise_exp_impl.hpp, included only by the files that instantiate them.
#pragma once

#include "exactdp/noise/number_field.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <vector>

namespace exactdp::noise {

/// One term c·θ^j of a piece (θ > 0), over the field policy F.
template <class F>
struct BasicExpTerm {
  typename F::Value coefficient;  ///< c ≠ 0
  typename F::Value base;         ///< θ > 0
  friend bool operator==(const BasicExpTerm&, const BasicExpTerm&) = default;
};

/// A function f: ℤ → F::Value given on consecutive intervals ("pieces") as finite sums Σ_t c_t·θ_t^j.
///
/// With cuts b_1 < … < b_m the pieces are (−∞, b_1 − 1], [b_1, b_2 − 1], …, [b_m, +∞); piece i
/// holds its terms sorted by base (F::before), with distinct bases and non-zero coefficients (an
/// empty piece is the zero function there). The representation is normalised — adjacent pieces
/// with equal terms are merged — so two values compare equal iff their representations agree;
/// equal functions may still have different representations on bounded pieces (a point value has
/// many term lists).
///
/// All operations are exact. sum() throws exactdp::Error when a sum over an unbounded interval
/// diverges (a term with θ ≥ 1 towards +∞, or θ ≤ 1 towards −∞; under a parametric policy, also
/// when that comparison of θ with 1 is not the same for every value of the parameter); powers θ^j
/// are computed for the integers j that occur as cuts, so cuts are kept within ±10⁹.
template <class F>
class BasicPiecewiseExp {
public:
  using Value = typename F::Value;
  using Term = BasicExpTerm<F>;
  using Terms = std::vector<Term>;

  /// The zero function.
  BasicPiecewiseExp();
  /// From cuts (strictly increasing) and pieces (one more than cuts); validated and normalised.
  /// Throws exactdp::Error on a size mismatch, unsorted cuts or a base θ ≤ 0.
  BasicPiecewiseExp(std::vector<long> cuts, std::vector<Terms> pieces);

  /// The constant @p c on all of ℤ.
  static BasicPiecewiseExp constant(const Value& c);
  /// c·θ^j on all of ℤ (θ > 0).
  static BasicPiecewiseExp exponential(const Value& c, const Value& base);
  /// 1 on [lo, hi] ∩ ℤ and 0 elsewhere (an absent end is infinite).
  static BasicPiecewiseExp indicator(std::optional<long> lo, std::optional<long> hi);
  /// @p value at j = @p at and 0 elsewhere.
  static BasicPiecewiseExp point(long at, const Value& value);

  /// f(j).
  Value operator()(long j) const;
  /// The cuts b_1 < … < b_m.
  const std::vector<long>& cuts() const { return cuts_; }
  /// The pieces, one more than the cuts.
  const std::vector<Terms>& pieces() const { return pieces_; }
  /// Whether the representation is empty (the zero function in normal form).
  bool is_zero() const;
  /// Whether f(j) = 0 for every j ∈ ℤ, decided exactly: a non-empty sum of exponentials with
  /// distinct positive bases vanishes at no m consecutive integers when it has m terms (Vandermonde),
  /// so only pieces shorter than their term count are evaluated point by point. (Under a
  /// parametric policy: zero for every value of the parameter.)
  bool is_identically_zero() const;
  /// The first j of the first non-empty piece (nullopt when that piece is unbounded below; for the
  /// zero function, nullopt as well). f vanishes below it.
  std::optional<long> lowest_nonzero_piece() const;
  /// The last j of the last non-empty piece (nullopt when unbounded above). f vanishes above it.
  std::optional<long> highest_nonzero_piece() const;

  /// Pointwise product.
  BasicPiecewiseExp operator*(const BasicPiecewiseExp& g) const;
  /// Pointwise sum.
  BasicPiecewiseExp operator+(const BasicPiecewiseExp& g) const;
  /// Pointwise difference.
  BasicPiecewiseExp operator-(const BasicPiecewiseExp& g) const;
  /// c·f.
  BasicPiecewiseExp scaled(const Value& c) const;
  /// j ↦ f(j − v) (the graph moved right by v).
  BasicPiecewiseExp shifted(long v) const;
  /// j ↦ f(−j).
  BasicPiecewiseExp reflected() const;
  /// f·1[lo ≤ j ≤ hi].
  BasicPiecewiseExp restricted(std::optional<long> lo, std::optional<long> hi) const;

  /// Σ_{j=lo}^{hi} f(j) in closed form (an absent end is infinite). Throws exactdp::Error when the
  /// series diverges.
  Value sum(std::optional<long> lo = std::nullopt, std::optional<long> hi = std::nullopt) const;
  /// The running sum F(k) = Σ_{j≤k} f(j) as a function of the same kind. A term with θ = 1 on a
  /// bounded piece makes F linear there, so such pieces are first split into single points (at
  /// most 10⁵ of them; exactdp::Error beyond). Throws when f is not summable towards −∞ or has a
  /// θ = 1 term on the last, unbounded piece.
  BasicPiecewiseExp cumulative() const;

  /// A readable form, e.g. "j<=-1: 2/3*2^j; j>=0: 1 - 1/3*(1/2)^j".
  std::string to_string() const;

  /// Equality of representations (which implies equality of functions; see same_function()).
  friend bool operator==(const BasicPiecewiseExp&, const BasicPiecewiseExp&) = default;

private:
  void normalise();
  std::size_t piece_of(long j) const;
  std::vector<long> cuts_;
  std::vector<Terms> pieces_;
};

/// The numeric instance: functions ℤ → ℚ.
using ExpTerm = BasicExpTerm<RationalField>;
using PiecewiseExp = BasicPiecewiseExp<RationalField>;
extern template class BasicPiecewiseExp<RationalField>;

/// Whether @p f and @p g are the same function on ℤ, decided exactly ((f − g).is_identically_zero()).
template <class F>
bool same_function(const BasicPiecewiseExp<F>& f, const BasicPiecewiseExp<F>& g) {
  return (f - g).is_identically_zero();
}

/// θ^k for an integer k (θ ≠ 0 when k < 0).
Rational power(const Rational& theta, long k);

/// Σ_{j=a}^{b} θ^j for a ≤ b (b − a + 1 when θ = 1), in closed form, over the policy F.
template <class F>
typename F::Value geometric_sum_of(const typename F::Value& theta, long a, long b) {
  using V = typename F::Value;
  if (b < a) return V(0);
  if (theta == V(1)) return V(b - a + 1);
  return (F::power(theta, a) - F::power(theta, b + 1)) / (V(1) - theta);
}

/// Σ_{j=a}^{b} θ^j for rationals (geometric_sum_of over RationalField).
Rational geometric_sum(const Rational& theta, long a, long b);

}  // namespace exactdp::noise
