/// @file
/// Unbounded latent noise without clamping: the exact posterior of a noisy threshold τ ~ DLap(r_τ)
/// given the outcomes of comparisons with fresh noisy values, as a finite canonical description
/// that can be part of a mechanism state (THEOREMS.md B.13, D.3, D.5).
///
/// AboveThreshold, Sparse and the sparse-vector variants surveyed by Lyu, Su and Li (VLDB 2017)
/// draw a threshold noise τ once and compare it, query after query, with noisy values
/// q_t + ν_t. Only the outcomes are released, so what the mechanism "knows" about τ after t
/// queries is the posterior
///
///   Pr[τ = j | outcomes] ∝ Pr[τ = j] · Π_s g_s(j),
///
/// with g_s(j) = Pr[ν_s ≤ A_s + j] = F_ν(A_s + j) after a "below" outcome and 1 − F_ν(A_s + j) after
/// an "above" outcome, where A_s = Thresh_s − q_s is the *margin* ("above" iff q_s + ν_s >
/// Thresh_s + τ iff ν_s − τ > A_s). The multiset of (scale, margin, outcome) triples is a finite
/// sufficient statistic, and every probability is a closed-form sum over ℤ (B.13, computed by
/// PiecewiseExp: the noise is never clamped or truncated, B.14). A comparison without query noise
/// (ν = 0, written r_query = 0) observes τ ≤ −A − 1 or τ ≥ −A exactly: it bounds the support.
/// Variants in the Lyu–Su–Li catalogue map to this primitive as follows: fresh query noise of any
/// scale (r_query per comparison; e.g. a scale not multiplied by the cutoff), no query noise at all
/// (r_query = 0), a threshold that is kept after an "above" outcome (keep comparing the same
/// posterior) or redrawn (start again from the prior), and a reported noisy value v + ν = y after
/// "above" (its likelihood is Pr[ν = y − v] times the bound τ ≤ y − Thresh − 1: use
/// Noise::pmf and conditioned()). A "≥" comparison q + ν ≥ Thresh + τ is the margin A − 1.
///
/// **Canonical form.** The description is normalised so that it can key a state:
///  - support ℤ: the comparisons, sorted;
///  - support a half-line [lo, ∞) (or (−∞, hi]): the bound and the comparisons, where a comparison
///    whose factor is a pure exponential on the support (an "above" with A ≥ −lo − 1, a "below" with
///    A ≤ −hi) is written with the representative margin −lo − 1 (resp. −hi) — all such margins give
///    the same posterior;
///  - bounded support [lo, hi]: the bounds alone when the posterior is the prior restricted to
///    [lo, hi] (always so for lo = hi), otherwise the bounds and the normalised posterior masses.
///
/// Equal descriptions always mean equal posteriors. Conversely, for the same prior r_τ and when all
/// comparisons of the two posteriors use one query scale, equal posteriors have equal descriptions
/// (proof in docs/noise.md: the ratios Pr[τ = j+1]/Pr[τ = j] determine the factors, from the
/// asymptotics at ±∞ and from the first j where each factor leaves its exponential region; the
/// test LatentThreshold.DescriptionIsEqualIffPosteriorIsEqual checks it exhaustively on small
/// cases, deciding posterior equality exactly). With several scales
/// an algebraic coincidence between scales could in principle give two descriptions of one
/// posterior; that costs the engine a duplicate state, never exactness.
///
/// **Over any number type.** The class is a template over a field policy (noise/number_field.hpp):
/// LatentThreshold is the numeric instance; the parametric layer instantiates the same code with
/// r_threshold, r_query and every probability rational functions of a noise parameter
/// (parametric/parametric_field.hpp). The canonical description depends only on the margins,
/// outcomes and bounds, never on the values of the parameters, so for every rational r the
/// parametric posterior evaluated at r is the numeric posterior built with r. The member
/// definitions are in latent_impl.hpp.
#pragma once

#include "exactdp/noise/piecewise_exp.hpp"
#include "exactdp/numeric/rational.hpp"

#include <compare>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace exactdp::noise {

/// The outcome of one comparison of a fresh noisy value with the latent threshold: on which side of
/// the noisy threshold the noisy value fell. (Named Side so that it does not hide
/// exactdp::Outcome, the row type of LambdaMechanism steps.)
enum class Side {
  below,  ///< ν ≤ A + τ (the query did not exceed the noisy threshold)
  above   ///< ν > A + τ (it did)
};

/// "below" or "above".
std::string side_name(Side o);

/// The posterior of a latent threshold τ ~ DLap(r_threshold) given comparison outcomes (see the
/// file comment for the model, the margin convention and the canonical form).
///
/// A regular value type: copyable, equality and a total order on the canonical description, a
/// hash (LatentThreshold::Hash), and a canonical printed form (to_string()). Each value also
/// caches its (unnormalised) density as a PiecewiseExp and its total, so compare() costs one
/// product and one closed-form sum; the cache is not part of the value.
template <class F>
class BasicLatentThreshold {
public:
  using Value = typename F::Value;
  using Density = BasicPiecewiseExp<F>;
  /// One observed comparison with query noise ν ~ DLap(r_query), r_query ∈ (0, 1).
  struct Comparison {
    Value r_query;  ///< the query noise parameter
    long margin = 0;   ///< A = Thresh − q
    Side outcome = Side::below;
    friend bool operator==(const Comparison&, const Comparison&) = default;
  };

  /// One outcome of compare(): its exact probability and the posterior after it.
  struct Branch;

  /// The prior: τ ~ DLap(@p r_threshold), nothing observed.
  /// @param r_threshold  ∈ (0, 1)
  explicit BasicLatentThreshold(const Value& r_threshold);

  /// The posterior after observing @p comparisons (each with r_query ∈ [0, 1); r_query = 0 is a
  /// comparison without query noise and becomes a bound) and τ ∈ [lower, upper] (an absent end is
  /// infinite), canonicalised. @p masses, when non-empty, is the normalised posterior on a bounded
  /// [lower, upper] (the fourth canonical form) and then @p comparisons must be empty. Throws
  /// exactdp::Error on invalid parameters (field "r_threshold", "r_query", "margin", "lower",
  /// "upper", "masses") or when the observations have probability 0.
  BasicLatentThreshold(const Value& r_threshold, std::vector<Comparison> comparisons, std::optional<long> lower = std::nullopt,
                       std::optional<long> upper = std::nullopt, std::vector<Value> masses = {});

  /// Compares a fresh noisy value with the threshold: "above" iff ν − τ > @p margin with
  /// ν ~ DLap(@p r_query) independent of everything (ν = 0 when r_query = 0). Returns the outcomes
  /// of positive probability — "below" first — with their exact conditional probabilities (summing
  /// to 1) and the canonical posteriors after them.
  /// @param margin   A = Thresh − q, |A| ≤ 10⁶
  /// @param r_query  ∈ [0, 1)
  std::vector<Branch> compare(long margin, const Value& r_query) const;
  /// Pr["above" | the observations so far] for the comparison of compare().
  Value probability_above(long margin, const Value& r_query) const;

  /// Pr[lower ≤ τ ≤ upper | the observations so far] (an absent end is infinite).
  Value probability_between(std::optional<long> lower, std::optional<long> upper) const;
  /// The posterior after also observing lower ≤ τ ≤ upper. Throws exactdp::Error (field "upper")
  /// when that event has probability 0.
  BasicLatentThreshold conditioned(std::optional<long> lower, std::optional<long> upper) const;
  /// Pr[τ = j | the observations so far].
  Value pmf(long j) const;
  /// Pr[τ ≤ j | the observations so far].
  Value cdf(long j) const;

  /// The probability, under the prior, that @p comparisons all have their stated outcomes
  /// (independent fresh query noises): Σ_{j∈ℤ} Pr[τ = j] Π_s g_s(j) in closed form (THEOREMS.md
  /// B.13; e.g. AboveThreshold's Pr[no stop] when every outcome is "below").
  static Value probability_of(const Value& r_threshold, const std::vector<Comparison>& comparisons);

  /// The threshold noise parameter r_τ.
  const Value& r_threshold() const { return r_threshold_; }
  /// The least possible τ (nullopt: unbounded below).
  std::optional<long> lower() const { return lower_; }
  /// The largest possible τ (nullopt: unbounded above).
  std::optional<long> upper() const { return upper_; }
  /// The comparisons of the canonical description, sorted by (r_query, outcome, margin).
  const std::vector<Comparison>& comparisons() const { return comparisons_; }
  /// The normalised masses on [lower, upper] in the fourth canonical form; empty otherwise.
  const std::vector<Value>& masses() const { return masses_; }
  /// The unnormalised posterior density j ↦ Pr[τ = j]·Π_s g_s(j) on the support (its total is the
  /// probability of the observations when nothing was rescaled by canonicalisation).
  const Density& density() const;

  /// The canonical printed form, e.g. "DLap(1/4)", "DLap(1/4)|below(-1;1/2),above(0;1/2)",
  /// "DLap(1/4)|tau>=3|above(-4;1/2)", "DLap(1/4)|0<=tau<=2|masses(1/2,1/3,1/6)". below(A;r) reads
  /// "ν ≤ τ + A was observed with ν ~ DLap(r)", above(A;r) "ν > τ + A".
  std::string to_string() const;

  friend bool operator==(const BasicLatentThreshold& a, const BasicLatentThreshold& b) { return a.same_description(b); }
  friend std::strong_ordering operator<=>(const BasicLatentThreshold& a, const BasicLatentThreshold& b) { return a.order_with(b); }

  /// A hash of the canonical description.
  struct Hash {
    std::size_t operator()(const BasicLatentThreshold& t) const noexcept;
  };

private:
  struct Cache {
    Density density;
    Value total;
  };
  BasicLatentThreshold() = default;
  bool same_description(const BasicLatentThreshold& b) const;
  std::strong_ordering order_with(const BasicLatentThreshold& b) const;
  /// Canonicalises the description in place; returns false when only the order changed (so the
  /// density of the raw description is still the density of the result).
  bool canonicalise();
  void derive();
  void set_cache(Density density, Value total);
  BasicLatentThreshold with(const Comparison& c, const Density& density, const Value& total) const;

  Value r_threshold_;
  std::optional<long> lower_, upper_;
  std::vector<Comparison> comparisons_;
  std::vector<Value> masses_;
  std::shared_ptr<const Cache> cache_;
};

template <class F>
struct BasicLatentThreshold<F>::Branch {
  Side outcome;                   ///< "below" or "above"
  Value probability;              ///< its conditional probability given the observations so far
  BasicLatentThreshold next;      ///< the canonical posterior after it
};

/// The numeric instance: a latent threshold with exact rational noise parameters.
using LatentThreshold = BasicLatentThreshold<RationalField>;
extern template class BasicLatentThreshold<RationalField>;

}  // namespace exactdp::noise
