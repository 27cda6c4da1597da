/// @file
/// A pure-DP claim λ(r), or an approximate one (λ(r), δ(r)), decided for every value of a parameter
/// at once (issue 19 item 3; docs/parametric.md): the certified decision of parametric/parametric_game.hpp, plus, at a
/// rational point of every failing interval, the numeric engine's verdict and witness
/// (check_claim at that point), and optionally the numeric engine at a rational point of every
/// holding piece as a cross-check.
///
/// What is proved and what is checked: the verdict on every piece (holds / fails) is proved by
/// the parametric decision alone (exact rational functions, certified root isolation). The numeric
/// runs give the usual witness of a failure and confirm the decision at the sample points; a
/// disagreement would be a bug in one of the two engines and is an exactdp::Error, never a verdict.
#pragma once

#include "exactdp/accounting/claim_check.hpp"
#include "exactdp/accounting/verdict.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/parametric/parametric_game.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace exactdp {

/// The numeric engine at one rational point of the parameter.
struct ParametricSamplePoint {
  Rational value;         ///< the parameter's value
  Rational lambda;        ///< λ(value)
  ClaimVerdict numeric;   ///< check_claim at (value, λ(value), δ = 0)
  /// The game check_claim ran on (its witness names states and answers of this very game: a
  /// library mechanism explores its states on demand, so a game built again at the same value is
  /// not interchangeable with it).
  Game game;
};

/// The numeric engine's worst-case δ at one rational sample of a piece, equal (checked exactly) to
/// the piece's functions evaluated there.
struct ParametricDeltaSample {
  std::size_t piece = 0;   ///< the piece of the partition
  Rational value;          ///< the parameter's value (the piece's sample)
  Rational lambda;         ///< λ(value)
  Rational forward, backward;  ///< worst_case_hockey_stick at (value, λ(value)): δ⁰ and δ¹
};

/// The answer for every value of the parameter.
struct ParametricClaimVerdict {
  /// holds: for every r of the range (proved); refuted: on the failing intervals (proved), with a
  /// witness at a rational point of each.
  Verdict verdict = Verdict::undecided;
  parametric::PureForAllResult decision;
  std::vector<ParametricSamplePoint> witnesses;     ///< one per failing interval, in order
  std::vector<ParametricSamplePoint> cross_checks;  ///< one per holding region, when asked
  /// Approximate claims (δ ≠ 0): the claim's δ(r) and the piecewise worst δ(λ(r)) on the
  /// decision's partition; `delta_checks` are the numeric engine's δ at each piece's rational sample.
  parametric::RationalFunction delta_claim;
  std::optional<parametric::PiecewiseDelta> worst_delta;
  std::vector<ParametricDeltaSample> delta_checks;
};

/// Options of check_pure_dp_for_all.
struct ParametricCheckOptions {
  ClaimCheckOptions numeric;             ///< the numeric engine at the sample points
  parametric::ParametricOptions search;  ///< the parametric search's limits
  unsigned horizon = 0;                  ///< 0: the game's own horizon
  bool cross_check = true;               ///< also run the numeric engine at each holding region's sample
};

/// Decides "the game is λ(r)-DP (δ = 0) against every adaptive adversary up to the horizon" for
/// every r of game.range; @p instantiate gives the numeric game at a rational r (the same
/// mechanism with every expression evaluated there). Throws exactdp::Error on bad input, when
/// the numeric engine is asked for a non-adaptive adversary class, or when the numeric engine
/// disagrees with the parametric decision at a sample point.
ParametricClaimVerdict check_pure_dp_for_all(const parametric::ParametricGame& game,
                                             const std::function<Game(const Rational&)>& instantiate,
                                             const parametric::RationalFunction& lambda, const ParametricCheckOptions& options = {});

/// Decides "the game is (ln λ(r), δ(r))-DP against every adaptive adversary up to the horizon" for
/// every r of game.range (parametric::check_approximate_dp_for_all; docs/parametric.md, "Lemma
/// (δ(λ) for all r)"). At the rational sample of every piece the numeric engine's worst-case δ⁰, δ¹
/// (worst_case_hockey_stick on the instantiated game) must equal the piece's functions evaluated
/// there, exactly — an exactdp::Error if not (unless options.cross_check is false); at a sample of
/// every failing interval, check_claim gives the witness (and must refute). With δ = 0 this is
/// check_pure_dp_for_all.
ParametricClaimVerdict check_approximate_dp_for_all(const parametric::ParametricGame& game,
                                                    const std::function<Game(const Rational&)>& instantiate,
                                                    const parametric::RationalFunction& lambda, const parametric::RationalFunction& delta,
                                                    const ParametricCheckOptions& options = {});

/// The piecewise worst-case δ(λ(r)) (`exactdp profile SPEC --parametric --lambda EXPR`), and the
/// numeric engine's δ at the rational sample of every piece, equal to the piece's functions there
/// (exactdp::Error otherwise; skipped when @p cross_check is false).
struct ParametricDeltaProfile {
  parametric::PiecewiseDelta worst;
  std::vector<ParametricDeltaSample> checks;
};
ParametricDeltaProfile worst_case_delta_for_all(const parametric::ParametricGame& game,
                                                const std::function<Game(const Rational&)>& instantiate,
                                                const parametric::RationalFunction& lambda, unsigned horizon = 0, bool cross_check = true,
                                                const parametric::ParametricOptions& search = {});

/// The worst-case Rényi moment at one rational sample of a piece: the piece's moments evaluated
/// there, the certified D_α = ln(max(W⁰, W¹))/(α − 1), and, when cross-checked, the numeric engine's
/// moments (worst_case_renyi_moment on the instantiated game), equal to the piece's exactly.
struct ParametricRenyiSample {
  std::size_t piece = 0;                 ///< the piece of the partition
  Rational value;                        ///< the parameter's value (the piece's sample)
  ExtendedRational forward, backward;    ///< sup Φ_α(V₀‖V₁), sup Φ_α(V₁‖V₀) at the value
  Interval divergence;                   ///< D_α at the value, certified (the point +∞ when the moment is)
  bool numeric_checked = false;          ///< the numeric engine ran at the value and agreed
};

/// The piecewise worst-case Rényi moment (`exactdp profile SPEC --parametric --alpha 2`) and the
/// samples of its pieces.
struct ParametricRenyiProfile {
  parametric::PiecewiseRenyiMoment worst;
  std::vector<ParametricRenyiSample> samples;  ///< one per piece with a rational sample, in order
};

/// sup_A Φ_α for every r of game.range (parametric::worst_case_renyi_moment_for_all; docs/parametric.md,
/// "Rényi moments for all r") and D_α at the rational sample of every piece. With @p cross_check,
/// the numeric engine's moments at each sample must equal the piece's functions evaluated there
/// (an exactdp::Error otherwise: one of the engines would be wrong). @p horizon 0: the game's own.
ParametricRenyiProfile worst_case_renyi_moment_for_all(const parametric::ParametricGame& game,
                                                       const std::function<Game(const Rational&)>& instantiate, unsigned long alpha,
                                                       unsigned horizon = 0, bool cross_check = true,
                                                       const parametric::ParametricOptions& search = {});

/// A Rényi claim's failure at a rational point: the numeric engine's exact moments there, above the
/// claim's bound.
struct ParametricRenyiWitness {
  Rational value;                      ///< the parameter's value (a sample of the failing interval)
  Rational bound;                      ///< M(value)
  ExtendedRational forward, backward;  ///< worst_case_renyi_moment at the value: sup Φ_α(V₀‖V₁), sup Φ_α(V₁‖V₀)
  Interval divergence;                 ///< D_α = ln max(forward, backward)/(α − 1) at the value, certified
  Interval claimed;                    ///< the claim's level ln M(value)/(α − 1), certified
};

/// The answer to "sup Φ_α ≤ M(r) for every r of the range" (check_renyi_moment_for_all).
struct ParametricRenyiClaimVerdict {
  /// holds: for every r of the range (proved); refuted: exactly on the failing intervals (proved), with
  /// the numeric engine's moments at a rational point of each.
  Verdict verdict = Verdict::undecided;
  unsigned long alpha = 2;
  parametric::RationalFunction bound;  ///< the claim's M(r)
  parametric::PureForAllResult decision;
  /// The piecewise sup Φ_α on the decision's partition, with D_α at every piece's rational sample
  /// (and the numeric engine's moments there when cross-checked).
  ParametricRenyiProfile worst;
  std::vector<ParametricRenyiWitness> witnesses;  ///< one per failing interval with a rational point, in order
};

/// Decides "the game's worst-case Rényi moment of integer order @p alpha ≥ 2 is at most M(r), both
/// directions, against every adaptive adversary up to the horizon" — D_α ≤ ln M(r)/(α − 1) — for every
/// r of game.range (parametric::check_renyi_moment_for_all; docs/parametric.md, "A Rényi claim for all
/// r"). At a rational point of every failing interval the numeric engine's moments must exceed M
/// there (the witness; an exactdp::Error if not: one engine would be wrong); with
/// options.cross_check, its moments at every piece's sample must equal the piece's functions.
/// options.numeric.adversary must be adaptive.
ParametricRenyiClaimVerdict check_renyi_moment_for_all(const parametric::ParametricGame& game,
                                                       const std::function<Game(const Rational&)>& instantiate, unsigned long alpha,
                                                       const parametric::RationalFunction& bound, const ParametricCheckOptions& options = {});

}  // namespace exactdp
