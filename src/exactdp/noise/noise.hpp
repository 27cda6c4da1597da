/// @file
/// Exact noise distributions on the integers: discrete Laplace, geometric, Bernoulli, uniform,
/// binomial, and randomized response — exact pmf, cdf and sf in closed form, and the two ways of
/// making unbounded noise finite, by name: clamped() and truncated().
///
/// Conventions (THEOREMS.md D, preamble; the same as library/library.hpp): parameters are exact
/// rationals; a discrete Laplace parameter is r = e^{−ε} ∈ (0, 1); a privacy parameter of
/// randomized response is λ = e^ε ≥ 1. Invalid parameters throw exactdp::Error whose `where` names
/// the constructor (e.g. "noise::dlap") and whose `field` is the parameter's name.
///
/// **Clamp or truncate** (THEOREMS.md B.14). clamped(lo, hi) moves the mass beyond each end onto
/// that end: it is the law of clamp(Z, lo, hi), a deterministic function of Z, so releasing it is
/// post-processing and keeps every guarantee of releasing v + Z (and by X-CLAMP-EXACT, with lo ≤ v
/// and hi ≥ v + Δ, exactly its profile). truncated(lo, hi) is the law of Z *conditioned* on
/// lo ≤ Z ≤ hi: the masses are renormalised by Pr[lo ≤ Z ≤ hi]. Used as the noise of v + Z with a
/// window that does not move with v, the normalising constants of neighbouring inputs differ and
/// the likelihood ratios change — truncation is not post-processing and can break pure DP; a
/// mechanism built on it must be analysed as a mechanism of its own (the game engine does that).
#pragma once

#include "exactdp/dist/dist.hpp"
#include "exactdp/noise/piecewise_exp.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <vector>

namespace exactdp::noise {

/// The largest table clamped(), truncated(), support() and to_dist() build (points).
inline constexpr long max_table_points = 100000;

/// An exact probability distribution on ℤ whose mass function is piecewise a sum of exponentials
/// (PiecewiseExp): every distribution of this header, and their shifts, negations and sums with
/// finitely supported noise.
///
/// pmf, cdf and sf are exact closed forms (finite sums of geometric series): nothing is truncated
/// and no loop runs over an unbounded support. Conventions: cdf(k) = Pr[Z ≤ k] and
/// sf(k) = Pr[Z > k] (strict), so cdf(k) + sf(k) = 1 for every k.
///
/// A regular value type; two Noise values are equal iff their mass functions are equal (decided
/// exactly, same_function()); the name is for printing only.
class Noise {
public:
  /// The discrete Laplace (two-sided geometric) distribution DLap(r) (THEOREMS.md D.3):
  /// Pr[Z = k] = (1−r)/(1+r)·r^|k|, k ∈ ℤ; F(m) = 1 − r^{m+1}/(1+r) for m ≥ 0 and r^{−m}/(1+r) for
  /// m < 0. Adding it to a sensitivity-Δ integer value is ε-DP with e^ε = r^{−Δ}.
  /// @param r  r = e^{−ε₀} ∈ (0, 1)
  static Noise dlap(const Rational& r);
  /// The one-sided geometric distribution on {0, 1, 2, …}: Pr[Z = k] = (1−r)·r^k — the number of
  /// failures before the first success of independent trials with success probability 1 − r.
  /// DLap(r) is the difference of two independent Geometric(r) (D.3).
  /// @param r  the ratio of consecutive masses, in (0, 1)
  static Noise geometric(const Rational& r);
  /// Bernoulli(p) on {0, 1}: Pr[Z = 1] = p.
  /// @param p  ∈ [0, 1]
  static Noise bernoulli(const Rational& p);
  /// The uniform distribution on the integers a, a+1, …, b.
  /// @param a  the least value
  /// @param b  the largest value, a ≤ b
  static Noise uniform(long a, long b);
  /// Binomial(n, p) on {0, …, n}: Pr[Z = k] = C(n, k) p^k (1−p)^{n−k}.
  /// @param n  the number of trials, 0 … 10000
  /// @param p  ∈ [0, 1]
  static Noise binomial(long n, const Rational& p);
  /// The point mass at @p v.
  static Noise point(long v);
  /// A finite distribution given by its table.
  /// @param d     the masses (validated by Dist: non-negative, summing to exactly 1)
  /// @param name  for printing ("table" if empty)
  static Noise from_dist(const Dist<long>& d, std::string name = "");

  /// Pr[Z = k].
  Rational pmf(long k) const;
  /// Pr[Z ≤ k].
  Rational cdf(long k) const;
  /// Pr[Z > k] = 1 − cdf(k).
  Rational sf(long k) const;
  /// Pr[lo ≤ Z ≤ hi] (an absent end is infinite).
  Rational probability(std::optional<long> lo, std::optional<long> hi) const;

  /// The least value of positive mass, or nullopt when the support is unbounded below.
  std::optional<long> min() const;
  /// The largest value of positive mass, or nullopt when the support is unbounded above.
  std::optional<long> max() const;
  /// Whether the support is finite.
  bool is_finite() const { return min() && max(); }
  /// The support in increasing order. Precondition: is_finite() and at most max_table_points
  /// points (exactdp::Error otherwise).
  std::vector<long> support() const;
  /// The distribution as a finite table. Same precondition as support().
  Dist<long> to_dist() const;

  /// The law of clamp(Z, lo, hi): Pr[lo] = cdf(lo), Pr[hi] = sf(hi − 1), pmf in between
  /// (THEOREMS.md B.14 "Clamp"; post-processing). Precondition: lo ≤ hi, hi − lo < max_table_points.
  Dist<long> clamped(long lo, long hi) const;
  /// The law of Z given lo ≤ Z ≤ hi: pmf(k)/Pr[lo ≤ Z ≤ hi] on [lo, hi] (THEOREMS.md B.14 "Never
  /// truncate-and-renormalise": not post-processing; it changes the privacy of a mechanism that
  /// uses it). Preconditions: lo ≤ hi, hi − lo < max_table_points, Pr[lo ≤ Z ≤ hi] > 0.
  Dist<long> truncated(long lo, long hi) const;

  /// The law of Z + v.
  Noise shifted(long v) const;
  /// The law of −Z.
  Noise negated() const;
  /// The law of Z + W for W ~ @p other independent, in closed form when one of the two is finite
  /// (a mixture of shifts of the other, at most max_table_points of them); two unbounded noises
  /// throw exactdp::Error (their sum is not of this form in general, e.g. DLap(r) + DLap(r) has
  /// masses (a + b|k|)r^|k|).
  Noise plus(const Noise& other) const;

  /// The mass function as a PiecewiseExp.
  const PiecewiseExp& mass_function() const { return pmf_; }
  /// The distribution function k ↦ Pr[Z ≤ k] as a PiecewiseExp (constant pieces of a finite
  /// distribution are split into single points first, see PiecewiseExp::cumulative(), so a
  /// uniform noise wider than 10⁵ points throws exactdp::Error here; cdf() has no such limit).
  PiecewiseExp distribution_function() const { return pmf_.cumulative(); }
  /// A readable name, e.g. "DLap(1/2)", "Geometric(1/3) + 2".
  const std::string& name() const { return name_; }

  friend bool operator==(const Noise& a, const Noise& b) { return same_function(a.pmf_, b.pmf_); }

private:
  Noise(PiecewiseExp pmf, std::string name, const char* where);
  PiecewiseExp pmf_;
  std::string name_;
};

/// Randomized response RR_{λ,δ} on a secret bit b (THEOREMS.md A.2, D.1; KOV15, HSV D2.3): with
/// probability δ the answer is (Leak, b), written "leak0"/"leak1"; otherwise "0"/"1", equal to b
/// with probability λ/(1+λ). The answers are those of library::randomized_response. The answers
/// are unordered, so there is no cdf; for δ = 0 the flip b ⊕ answer is Bernoulli(1/(1+λ)).
class RandomizedResponse {
public:
  /// @param lambda  λ = e^ε ≥ 1
  /// @param delta   δ ∈ [0, 1]
  explicit RandomizedResponse(const Rational& lambda, const Rational& delta = 0);
  /// The "p form": the truth is told with probability p = λ/(1+λ) ∈ [1/2, 1) (given no leak).
  static RandomizedResponse from_truth_probability(const Rational& p, const Rational& delta = 0);

  /// The law of the answer given the secret bit @p b ∈ {0, 1}.
  Dist<std::string> given(long b) const;
  /// Pr[answer | b]; 0 for an answer that is not one of "0", "1", "leak0", "leak1".
  Rational pmf(const std::string& answer, long b) const;

  const Rational& lambda() const { return lambda_; }
  const Rational& delta() const { return delta_; }
  /// λ/(1+λ).
  Rational truth_probability() const { return lambda_ / (1 + lambda_); }

private:
  Rational lambda_, delta_;
};

/// k-ary randomized response (THEOREMS.md A.2): input v ∈ {0, …, k−1}; the answer is v with
/// probability λ/(λ+k−1) and each other value with probability 1/(λ+k−1); ln λ-DP under
/// substitution.
class KaryRandomizedResponse {
public:
  /// @param k       the alphabet size, 2 … 100000
  /// @param lambda  λ = e^ε ≥ 1
  KaryRandomizedResponse(long k, const Rational& lambda);
  /// The law of the answer given the input @p v ∈ {0, …, k−1}.
  Dist<long> given(long v) const;
  /// Pr[answer | v].
  Rational pmf(long answer, long v) const;
  long k() const { return k_; }
  const Rational& lambda() const { return lambda_; }

private:
  long k_;
  Rational lambda_;
};

}  // namespace exactdp::noise
