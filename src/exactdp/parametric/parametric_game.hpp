/// @file
/// The two-world adversary game over tables whose probabilities are rational functions of one
/// parameter, and the pure-DP claim decided for every value of the parameter at once (issue 19
/// items 2–3; docs/parametric.md).
///
/// **The lemma used** (docs/parametric.md, "For all r"). For a fixed horizon T, sup over adaptive
/// deterministic adversaries of max_S P₀(S)/P₁(S) is the maximum, over the *transcripts* — the
/// sequences of allowed message pairs and answers of length T, or shorter where the verifier
/// allows no further pair — of P₀(t)/P₁(t) (THEOREMS.md B.5: an event is a union of views, and a
/// ratio of sums is at most the largest ratio of its terms; every transcript is the view of the
/// adversary that sends its pairs along it, and a shorter view's ratio is a mediant of its
/// extensions'). Hence the claim "λ(r)-DP in both directions" holds at r iff
/// g_t(r) = λ(r)·P₁(t)(r) − P₀(t)(r) ≥ 0 and λ(r)·P₀(t)(r) − P₁(t)(r) ≥ 0 for every transcript t,
/// and P_b(t) are rational functions of r (sums of products of table entries). The finitely many
/// distinct g_t are continuous on the range (no denominator vanishes there: checked), so their
/// signs are constant on the pieces of a certified sign partition (parametric/real_roots.hpp): the
/// set of r where the claim fails is a finite union of pieces, computed exactly.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/parametric/real_roots.hpp"
#include "exactdp/parametric/rational_function.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace exactdp::parametric {

/// One row of a parametric table: with probability `probability` (a function of the parameter),
/// answer `answer` and move to `next`.
struct ParametricRow {
  RationalFunction probability;
  AnswerId answer = 0;
  StateId next = 0;
};

/// A two-world game whose mechanism is a table with rational-function probabilities. Message ids
/// are those of `verifier` (the alphabet `messages`, in order); the table semantics are those of
/// TableMechanism (THEOREMS.md A.3): a halted state answers `"halt"` and stays, a state without a
/// rule for a message may answer `"invalid"` and stay when the table says so.
struct ParametricGame {
  std::string name;
  std::string parameter = "r";  ///< the parameter's name
  ParameterRange range;
  std::vector<std::string> state_names, answer_names, messages;
  /// kernel[state][message]: the rows (non-negative on the range, summing to 1 identically), or
  /// std::nullopt where the state has no rule (an error if the game reaches it).
  std::vector<std::vector<std::optional<std::vector<ParametricRow>>>> kernel;
  std::vector<bool> halted;  ///< halted[state]: every message answers "halt" (written in kernel too)
  std::shared_ptr<const Verifier> verifier;
  std::array<std::vector<std::pair<StateId, Rational>>, 2> initial;  ///< the worlds' initial laws
  std::array<std::string, 2> world_names{"world 0", "world 1"};
  unsigned horizon = 1;
  std::optional<unsigned> max_horizon;  ///< as Game::max_horizon: the table is exact only up to this horizon
};

/// The distinct pairs (P₀(t), P₁(t)) over the transcripts t of the game up to @p horizon.
struct ViewPairs {
  std::vector<std::array<RationalFunction, 2>> pairs;
  /// Inner game nodes expanded (a round left and a pair allowed), after merging equal nodes (and,
  /// up to a factor, proportional ones); leaves are not counted: they are the pairs.
  std::uint64_t nodes = 0;
};

/// Limits of the parametric search.
struct ParametricOptions {
  std::uint64_t max_nodes = 2'000'000;  ///< refuse (exactdp::Error) beyond this many game nodes
};

/// Every transcript's pair of probabilities, merged when equal (see the file comment). Throws
/// exactdp::Error when the game reaches a state without a rule or exceeds options.max_nodes.
ViewPairs transcript_probabilities(const ParametricGame& game, unsigned horizon, const ParametricOptions& options = {});

/// The pairs of transcript_probabilities() up to a positive factor and up to order: pairs
/// c·(P₀(t), P₁(t)) or c·(P₁(t), P₀(t)), one at least for every transcript t, each with some c that
/// has neither a zero nor a pole on the range (so c > 0 on all of it), and **exactly one per class**
/// of transcript pairs under that relation (a pair and its mirror image included), so that
/// pairs.size() does not depend on which nodes were merged. Game nodes whose belief
/// pairs are proportional by such a factor are merged (found by a fingerprint modulo a prime,
/// confirmed exactly), as the numeric engine merges proportional nodes; a pair and its mirror image
/// are one. For a claim in both directions — the signs of
/// λ·P₁ − P₀ and λ·P₀ − P₁, the ratios P₀/P₁ and P₁/P₀ — at every r of the range they give the same
/// answers as the exact pairs. Errors as transcript_probabilities().
ViewPairs transcript_pairs_up_to_factor(const ParametricGame& game, unsigned horizon, const ParametricOptions& options = {});

/// A maximal interval of the range where a claim fails: ends are real algebraic numbers, each
/// included or not; `samples` are rational points inside it (one per open piece it contains).
struct FailingRange {
  RealAlgebraic lower, upper;
  bool lower_closed = false, upper_closed = false;
  std::vector<Rational> samples;
  std::string to_string(std::string_view variable = "r") const;
};

/// A claim — "λ(r)-DP" (check_pure_dp_for_all) or "(ln λ(r), δ(r))-DP"
/// (check_approximate_dp_for_all), both directions, against every adaptive adversary up to the
/// horizon — decided for every r of the range at once.
struct PureForAllResult {
  unsigned horizon = 0;
  SignPartition partition;      ///< the range split where some g_t changes sign
  std::vector<bool> holds;      ///< per piece of the partition
  std::vector<FailingRange> failing;  ///< maximal failing intervals, increasing; empty: holds for all r
  std::uint64_t nodes = 0;  ///< inner game nodes after merging (ViewPairs::nodes; PiecewiseDelta::nodes)
  /// transcript pairs (P₀, P₁) up to a factor > 0 on the range and up to order (one per class), and
  /// distinct functions whose signs were decided
  std::size_t view_pairs = 0, functions = 0;
  bool holds_for_all() const { return failing.empty(); }
};

/// Decides "λ(r)-DP" for every r of game.range (the lemma of the file comment). λ must be a
/// rational function continuous on the range; throws exactdp::Error (field "lambda") otherwise.
PureForAllResult check_pure_dp_for_all(const ParametricGame& game, const RationalFunction& lambda, unsigned horizon,
                                       const ParametricOptions& options = {});

/// The worst-case hockey-stick divergence δ(λ(r)) for every r of the range, as a piecewise rational
/// function (issue 19 item 3; docs/parametric.md, "Approximate DP for all r").
///
/// **The lemma used** (docs/parametric.md, "Lemma (δ(λ) for all r)"). BI-δ (THEOREMS.md B.2) at a
/// fixed r is a finite expression in the node masses built from sums, maxima and positive parts.
/// Over rational functions of r it is one fixed rational function on every interval where each
/// comparison it makes — the sign of m₀ − λm₁ (resp. m₁ − λm₀) at a leaf, of the difference of
/// two actions' values at a node, of δ⁰ − δ¹ at the root — has a constant sign. The backward
/// induction is run piece by piece on a certified sign partition (parametric/real_roots.hpp); a
/// comparison whose function is not yet in the partition is added and the partition refined
/// (refinement keeps every decided sign, so each pass decides at least one more level of the game
/// tree: at most horizon + 2 passes).
struct PiecewiseDelta {
  unsigned horizon = 0;
  RationalFunction lambda;
  SignPartition partition;  ///< the final partition (every comparison of the induction has one sign per piece)
  /// per piece: {δ⁰, δ¹} — sup over adaptive adversaries of H_λ(V₀‖V₁) and of H_λ(V₁‖V₀) — as the
  /// rational functions equal to them on the piece
  std::vector<std::array<RationalFunction, 2>> directional;
  std::vector<RationalFunction> delta;  ///< per piece: max(δ⁰, δ¹), the function equal to it on the piece
  std::uint64_t nodes = 0;              ///< inner game nodes (after merging proportional nodes: factors > 0 on the whole range)
  std::size_t leaves = 0;               ///< leaf nodes of the merged game tree (a pair may sit at several)
  std::size_t view_pairs = 0;           ///< leaf pairs up to a factor > 0 on the range and up to order (one per class)
  std::size_t functions = 0;            ///< distinct functions whose signs were decided
  unsigned passes = 0;                  ///< refinements of the partition until every comparison was decided
  std::size_t reused = 0;               ///< pieces whose values were those of a settled piece with the same signs (statistics)
};

/// Extra comparisons decided with the induction: functions of the root values δ⁰, δ¹ whose sign
/// is wanted on every piece (e.g. δ_claim − δ^b). Each is given δ⁰ and δ¹ on a piece and returns
/// the function whose sign is wanted.
using RootComparison = std::function<RationalFunction(const std::array<RationalFunction, 2>&)>;

/// δ(λ(r)) = max(δ⁰, δ¹) for every r of game.range by parametric backward induction (see
/// PiecewiseDelta). λ must be a rational function continuous and ≥ 0 on the range (exactdp::Error,
/// field "--lambda", otherwise). @p comparisons: extra root comparisons whose signs are decided on
/// the final partition (returned in @p comparison_signs[i][piece] when not null).
PiecewiseDelta worst_case_delta_for_all(const ParametricGame& game, const RationalFunction& lambda, unsigned horizon,
                                        const ParametricOptions& options = {}, const std::vector<RootComparison>& comparisons = {},
                                        std::vector<std::vector<int>>* comparison_signs = nullptr);

/// The claim "(ln λ(r), δ(r))-DP, both directions, against every adaptive adversary up to the
/// horizon" for every r of the range: holds on a piece iff δ_claim − δ⁰ ≥ 0 and δ_claim − δ¹ ≥ 0
/// there (signs decided on the partition of worst_case_delta_for_all). λ must be continuous and
/// ≥ 1 on the range, δ_claim continuous and in [0, 1] (exactdp::Error otherwise). @p worst receives
/// the piecewise δ(λ(r)) (its partition is the result's).
PureForAllResult check_approximate_dp_for_all(const ParametricGame& game, const RationalFunction& lambda,
                                              const RationalFunction& delta, unsigned horizon, const ParametricOptions& options = {},
                                              PiecewiseDelta* worst = nullptr);

/// A value of the parametric Rényi induction on one piece: +∞ on the whole piece, or the rational
/// function equal to it there.
struct ExtendedFunction {
  bool infinite = false;
  RationalFunction value;  ///< when finite
  friend bool operator==(const ExtendedFunction& a, const ExtendedFunction& b) {
    return a.infinite == b.infinite && (a.infinite || a.value == b.value);
  }
  /// The value at @p r (+∞ as ExtendedRational::infinity()): exact.
  ExtendedRational evaluate(const Rational& r) const { return infinite ? ExtendedRational::infinity() : ExtendedRational(value.evaluate(r)); }
  /// "inf" or the function written with @p variable.
  std::string to_string(std::string_view variable = "r") const { return infinite ? "inf" : value.to_string(variable); }
};

/// The worst-case Rényi moment sup_A Φ_α for an integer order α ≥ 2 and every r of the range, as a
/// piecewise rational function (issue 19; docs/parametric.md, "Rényi moments for all r").
///
/// **The lemma used** (docs/parametric.md, "Lemma (Φ_α for all r)"). BI-Rényi (THEOREMS.md B.4) at
/// a fixed r is a finite expression in the node masses built from sums and maxima of the leaf terms
/// |m_b|^α·|m_{1−b}|^{1−α} — for an integer α a rational function of r wherever |m_{1−b}| ≠ 0, +∞
/// where |m_{1−b}| = 0 < |m_b|, and 0 where |m_b| = 0. On a piece where every leaf mass has one sign
/// and every comparison of two actions' values has one sign, the induction is one fixed expression:
/// the leaf terms are fixed (finite and continuous, +∞ or 0 on the whole piece) and so are the
/// maximising actions. The leaves' masses are decided first (so the points where a mass vanishes —
/// where a term is +∞ or 0 instead of the rational function's value — are pieces of their own), then
/// the comparisons as the induction asks for them, refining the partition as for δ(λ). A compared
/// function may have a pole in the range (at a point where some leaf's mass vanishes), never on the
/// piece where it is compared: its sign there is the sign of its numerator times its denominator's,
/// both decided by the same certified partition.
struct PiecewiseRenyiMoment {
  unsigned horizon = 0;
  unsigned long alpha = 2;
  SignPartition partition;  ///< every comparison of the induction has one sign per piece
  /// per piece: {W⁰, W¹} — sup over adaptive adversaries of Φ_α(V₀‖V₁) and of Φ_α(V₁‖V₀) — on the piece
  std::vector<std::array<ExtendedFunction, 2>> directional;
  std::vector<ExtendedFunction> moment;  ///< per piece: max(W⁰, W¹)
  std::uint64_t nodes = 0;               ///< inner game nodes (proportional nodes merged; leaves not counted)
  std::size_t leaves = 0;                ///< leaf nodes
  std::size_t functions = 0;             ///< distinct functions whose signs were decided
  unsigned passes = 0;                   ///< refinements of the partition until every comparison was decided
  std::size_t reused = 0;                ///< pieces whose values were those of a settled piece with the same signs
};

/// sup_A Φ_α (both directions) for every r of game.range by parametric BI-Rényi (see
/// PiecewiseRenyiMoment). @p alpha must be an integer ≥ 2 (exactdp::Error, field "alpha", otherwise:
/// for a non-integer α the leaf terms are not rational functions of r).
PiecewiseRenyiMoment worst_case_renyi_moment_for_all(const ParametricGame& game, unsigned long alpha, unsigned horizon,
                                                     const ParametricOptions& options = {});

/// The Rényi claim "sup over adaptive adversaries of Φ_α ≤ M(r), both directions" — equivalently
/// D_α ≤ ln M(r)/(α − 1), i.e. (α, ln M(r)/(α − 1))-RDP up to the horizon — for every r of the range
/// at once (docs/parametric.md, "A Rényi claim for all r"): it holds on a piece iff M − W⁰ ≥ 0 and
/// M − W¹ ≥ 0 there (W^b = +∞ fails), signs decided on the partition of the parametric BI-Rényi
/// induction (worst_case_renyi_moment_for_all) refined by these two comparisons. M must be a rational
/// function continuous and ≥ 1 on the range (exactdp::Error, field "--renyi-moment", otherwise: Φ_α ≥ 1
/// always), α an integer ≥ 2 (field "alpha"). @p worst receives the piecewise moment (its partition
/// is the result's). `view_pairs` is not counted (0).
PureForAllResult check_renyi_moment_for_all(const ParametricGame& game, unsigned long alpha, const RationalFunction& bound, unsigned horizon,
                                            const ParametricOptions& options = {}, PiecewiseRenyiMoment* worst = nullptr);

/// The worst-case pure-DP ratio as a piecewise rational function of the parameter: on each piece
/// of the range, the largest of the candidate ratios P₀(t)/P₁(t) and P₁(t)/P₀(t) over the
/// transcripts t (THEOREMS.md B.5 at every r) — their upper envelope (parametric/envelope.hpp),
/// every comparison certified.
struct PiecewiseRatio {
  unsigned horizon = 0;
  /// True when some transcript has probability identically 0 in one world and not in the other:
  /// the ratio is +∞ at every r where the other world's probability is positive (all r of the
  /// range but finitely many); `pieces` is then empty.
  bool infinite = false;
  std::vector<RationalFunction> candidates;  ///< the distinct ratio functions
  /// The range split where the largest candidate changes (`partition.pieces`; `partition.signs` is
  /// empty: the envelope decides only the comparisons it needs).
  SignPartition partition;
  std::vector<std::size_t> best;             ///< per piece: the index of the largest candidate there
  std::uint64_t nodes = 0;      ///< inner game nodes after merging (as PureForAllResult::nodes)
  std::size_t view_pairs = 0;   ///< transcript pairs up to a factor > 0 on the range and order (as PureForAllResult)
  std::size_t comparisons = 0;  ///< certified comparisons of two candidates on an interval (statistics)
  std::size_t intervals = 0;    ///< rational sub-intervals of the range examined (statistics)
};

/// Computes the piecewise worst-case ratio (see PiecewiseRatio). Throws exactdp::Error when a
/// candidate has a pole inside the range (a view whose probability in one world vanishes at an
/// isolated value only: the worst ratio is unbounded near it; check --for-all still decides claims
/// there).
PiecewiseRatio worst_case_ratio_for_all(const ParametricGame& game, unsigned horizon, const ParametricOptions& options = {});

}  // namespace exactdp::parametric
