/// @file
/// f-DP trade-off functions as exact convex piecewise-linear curves (THEOREMS.md A.1, B.7;
/// Dong–Roth–Su 2022).
#pragma once

#include "exactdp/divergence/piecewise_linear.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace exactdp {

/// A vertex (α, β) of a trade-off curve: type-I error α, least type-II error β.
struct TradeOffVertex {
  Rational alpha;
  Rational beta;
  friend bool operator==(const TradeOffVertex&, const TradeOffVertex&) = default;
};

/// A piecewise-linear trade-off function f: [0, 1] → [0, 1] — convex, continuous,
/// non-increasing, f(α) ≤ 1 − α — stored by its vertices.
///
/// Invariants (validated by from_vertices): first vertex at α = 0, last at (1, 0), α strictly
/// increasing, slopes strictly increasing (convexity, collinear vertices removed), β
/// non-increasing and β ≤ 1 − α at every vertex.
class TradeOff {
public:
  /// Validates and normalises; throws exactdp::Error naming the offending vertex.
  static TradeOff from_vertices(std::vector<TradeOffVertex> vertices);

  /// T(P, Q) by Neyman–Pearson: tests reject "the sample came from P", α = E_P[φ],
  /// β = 1 − E_Q[φ] (THEOREMS.md A.1, exact construction).
  static TradeOff of(const PrivacyLoss& loss);

  /// The trade-off function dual to a directional profile: if @p backward is
  /// λ ↦ H_λ(Q‖P) on [0, ∞), the result is T(P, Q)(α) = sup_λ (1 − λα − H_λ(Q‖P)); its vertices
  /// are (−slope, 1 − intercept) of the pieces (THEOREMS.md A.1, duality).
  /// Precondition: @p backward is convex, non-increasing, with value 1 at 0.
  static TradeOff from_profile(const PiecewiseLinear& backward);

  /// The dual profile δ_f(λ) = 1 − min_i (λα_i + β_i) on [0, ∞): for any pair,
  /// T(P,Q) ≥ f ⟺ H_λ(Q‖P) ≤ δ_f(λ) for all λ ≥ 0.
  PiecewiseLinear to_profile() const;

  /// f_{ε,δ}(α) = max{0, 1 − δ − λα, (1 − δ − α)/λ} with λ = e^ε (Dong–Roth–Su 2022; its
  /// canonical pair is RR_{ε,δ}). Preconditions: λ ≥ 1, 0 ≤ δ ≤ 1.
  static TradeOff epsilon_delta(const Rational& lambda, const Rational& delta);
  /// The identity trade-off α ↦ 1 − α (perfect privacy).
  static TradeOff identity();

  const std::vector<TradeOffVertex>& vertices() const { return vertices_; }

  /// f(α), exact. Precondition: 0 ≤ α ≤ 1.
  Rational operator()(const Rational& alpha) const;

  /// The inverse f⁻¹(α) = inf{t : f(t) ≤ α}; T(Q,P) = T(P,Q)⁻¹.
  TradeOff inverse() const;
  /// The tightest trade-off function g ≤ min(f, f⁻¹): the lower convex envelope of the two, i.e.
  /// the best guarantee that holds for a neighbouring pair taken in either order.
  TradeOff symmetrized() const;

  /// The canonical pair realising f (THEOREMS.md A.1): T(canonical_pair()) = f.
  PrivacyLoss canonical_pair() const;

  /// Pointwise comparison f ≥ g, exact. Returns std::nullopt when f ≥ g everywhere; otherwise
  /// an α where f(α) < g(α) (a vertex of f or of g — f − g is linear between them).
  std::optional<Rational> violation_of(const TradeOff& g) const;
  /// f ≥ g pointwise (exact).
  bool dominates(const TradeOff& g) const { return !violation_of(g).has_value(); }

  /// The tensor product f ⊗ g = T(P⊗P′, Q⊗Q′) for pairs realising f and g (DRS22; computed
  /// from the canonical pairs).
  friend TradeOff tensor(const TradeOff& f, const TradeOff& g);

  friend bool operator==(const TradeOff&, const TradeOff&) = default;

private:
  explicit TradeOff(std::vector<TradeOffVertex> v) : vertices_(std::move(v)) {}
  std::vector<TradeOffVertex> vertices_;
};

/// The outcome of a certified comparison of a piecewise-linear trade-off function with a smooth one.
struct SmoothComparison {
  Tri outcome = Tri::undecided;          ///< yes: f ≥ g everywhere; no: a violation was certified
  Precision precision = 0;               ///< the largest precision used (0: decided exactly)
  std::optional<Rational> witness_alpha;  ///< for `no`: an α with f(α) < g(α), certified
};

/// Decides f ≥ G_μ pointwise (is the pair or mechanism with trade-off f μ-GDP?), certified.
///
/// On each linear piece of f, f − G_μ is concave (G_μ is convex), so its minimum is at a vertex:
/// f ≥ G_μ iff f(α_i) ≥ G_μ(α_i) at every vertex (THEOREMS.md B.7, "f-DP for smooth f"). The
/// ends are exact (G_μ(0) = 1, G_μ(1) = 0, and G_0(α) = 1 − α); every interior vertex is decided by
/// raising the precision (exactdp::decide_less_equal) up to @p options.cap. The answer is
/// `undecided` only if some vertex could not be separated at the cap — never a guess.
/// Precondition: μ ≥ 0 (exactdp::Error naming "mu" otherwise).
SmoothComparison dominates_gaussian(const TradeOff& f, const Rational& mu, const DecideOptions& options = {});

/// Gaussian trade-off G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), certified, for 0 < α < 1 (G_μ(0) = 1 and
/// G_μ(1) = 0 exactly). Precondition: μ ≥ 0.
Interval gaussian_tradeoff(const Interval& mu, const Rational& alpha);

}  // namespace exactdp
