/// @file
/// The profile report of an exact pair (P, Q) — what `exactdp profile PAIR` and the exact route of
/// `exactdp compose` print — as typed values: the pure-DP level, δ at exact λ and at real ε, the
/// least λ and ε at each δ, Rényi divergences and the trade-off function. δ is the max of both
/// directions, δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)), unless the request names one direction
/// (divergence/direction.hpp); every δ and least λ also comes per direction. The front ends only
/// print it (cli/report.cpp).
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <vector>

namespace exactdp {

/// What a profile report evaluates.
struct ProfileRequest {
  std::vector<Rational> lambdas;   ///< δ at these exact λ = e^ε (each ≥ 0; λ < 1 is ε < 0)
  std::vector<Rational> epsilons;  ///< δ at these real ε of any sign (λ = e^ε certified)
  std::vector<Rational> deltas;    ///< least λ and ε at these δ ∈ [0, 1]
  std::vector<Rational> alphas;    ///< Rényi orders α > 1
  bool tradeoff = false;           ///< include the trade-off vertices
  Precision precision = default_precision;  ///< of every certified value
  /// Which divergence "delta" and "lambda" concern (both: the max, the default).
  NeighbourDirection direction = NeighbourDirection::both;
};

/// ε = ln λ of an exact λ: exactly 0 for λ = 1, +∞ for λ = +∞, else a certified enclosure.
struct LogOfLambda {
  bool zero = false, infinite = false;
  std::optional<Interval> value;  ///< when neither zero nor infinite
};

/// The typed profile report (see the file comment).
struct ProfileReport {
  std::size_t atoms = 0;       ///< distinct likelihood ratios of the pair
  NeighbourDirection direction = NeighbourDirection::both;  ///< as requested
  ExtendedRational pure;       ///< the largest likelihood ratio over both directions (e^{D_∞})
  LogOfLambda pure_epsilon;
  struct AtLambda {
    Rational lambda, delta;  ///< exact; delta in the asked direction
    Rational remove, add;    ///< H_λ(P‖Q) and H_λ(Q‖P), exact
  };
  struct AtEpsilon {
    Rational epsilon;
    Interval delta;        ///< certified; a point when the enclosure collapses
    Interval remove, add;  ///< H_{e^ε}(P‖Q) and H_{e^ε}(Q‖P), certified
  };
  /// The least λ and its ε for one direction.
  struct LeastOne {
    ExtendedRational lambda;
    LogOfLambda epsilon;
  };
  struct Least {
    Rational delta;
    ExtendedRational lambda;  ///< the exact least λ in the asked direction (+∞ when none)
    LogOfLambda epsilon;
    LeastOne remove, add;     ///< per direction
  };
  struct RenyiEntry {
    Rational alpha;
    std::optional<ExtendedRational> exact_moment;  ///< integer α ≥ 2: Φ_α exact (max of both directions)
    std::optional<Interval> moment;                ///< otherwise certified (absent when +∞)
    bool infinite = false;                         ///< D_α = +∞
    std::optional<Interval> epsilon;               ///< D_α certified (absent when +∞)
  };
  std::vector<AtLambda> at_lambda;
  std::vector<AtEpsilon> at_epsilon;
  std::vector<Least> least;
  std::vector<RenyiEntry> renyi;
  std::vector<TradeOffVertex> tradeoff;  ///< when asked
};

/// The report of @p loss for @p request, exact where the values are rational and certified where
/// a logarithm or exponential enters (THEOREMS.md B.15: δ over an enclosure of e^ε encloses δ(e^ε)
/// because δ is non-increasing in λ).
ProfileReport profile_report(const PrivacyLoss& loss, const ProfileRequest& request);

}  // namespace exactdp
