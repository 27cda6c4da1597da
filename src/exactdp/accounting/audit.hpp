/// @file
/// The audit of privacy claims (issue 6): each claim — a mechanism SPEC composed `times` times
/// with a claimed ε at a δ, or a claimed δ at an ε — answered with the exact or certified truth and
/// a verdict. The claims come from a claims file (io/claims.hpp reads them, exactdp-claims/1) or
/// from code; the truth comes from the composition planner (composition_plan.hpp).
///
/// Verdicts (accounting/verdict.hpp; the audit's words in docs/verdicts.md): a claim is
/// **refuted** (written "unsound") when it promises less privacy loss than the truth (claimed
/// ε < true ε, or claimed δ < true δ; its shortfall is reported as a negative slack), **holds**
/// ("sound") otherwise, with its slack (claimed − true, absolute and relative), and **undecided**
/// only when a certified enclosure of the truth still straddles the claim at the highest precision
/// tried. When the composed privacy-loss distribution is exact (rational tables), the comparison
/// is decided exactly — by Lindemann–Weierstrass, e^ε for rational ε ≠ 0 never equals a rational
/// (THEOREMS.md B.15) — so it is never undecided.
///
/// Neighbouring: a claim's verdict is for the relation it names (`Claim::neighbouring`). Under
/// replace-one the truth is computed on each component's replace-one pair (analysed_components,
/// accounting/replace_one.hpp), never on the spec's add/remove pair; the result lists the specs
/// analysed (`ClaimResult::analysed`).
///
/// Routes: the exact composed PLD when the planner's budget allows; pure mechanisms (k uses are
/// exactly (k·ε₀, 0)-DP) exactly; otherwise the planner's certified route (binomial closed form,
/// certified PLD, fast convolution, closed form) at precisions raised until the claim is decided;
/// subsampled Gaussians and k-fold Laplace by grid brackets (amplification/poisson.hpp) at
/// resolutions raised until it is decided. Both refinements are the composition query's one loop
/// (accounting/composition_query.hpp) with the goal RefinementGoal::separates(claimed), under the
/// limits of AuditOptions; consecutive claims on one composition ask one query and share its laws.
#pragma once

#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/accounting/verdict.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <vector>

namespace exactdp {

/// One mechanism of a claim, used `times` times (an aggregate: MechanismSpec has no default value).
struct ClaimComponent {
  std::string mechanism;  ///< the SPEC text as written
  MechanismSpec spec;
  unsigned long times = 1;
};

/// One claim of a claims file: the composition of its components (one for "mechanism"/"times",
/// several for "mechanisms": [{"mechanism", "times"}, …]).
struct Claim {
  /// What the claim states: the least ε at a given δ, or δ at a given ε.
  enum class Kind { epsilon_at_delta, delta_at_epsilon };

  std::string id;
  std::vector<ClaimComponent> components;  ///< never empty
  bool heterogeneous = false;              ///< given as "mechanisms" (a list)
  /// "add-remove", "replace-one" or "" (not given: add-remove). Under replace-one every component
  /// is judged on its replace-one pair (analysed_components).
  std::string neighbouring;
  Kind kind = Kind::epsilon_at_delta;
  Rational given;    ///< δ (epsilon_at_delta) or ε (delta_at_epsilon)
  Rational claimed;  ///< the claimed ε or δ
  std::string sampling;                 ///< the "sampling" text as written, "" when absent
  std::optional<Rational> sampling_rate;  ///< q of "poisson:q=…" (absent: no subsampling)
  /// Which divergence the claim concerns (divergence/direction.hpp): both (the max, the default),
  /// remove H(P‖Q) or add H(Q‖P) — of the pairs analysed (under replace-one the replace-one pairs,
  /// whose two divergences coincide).
  NeighbourDirection direction = NeighbourDirection::both;
};

/// A true value: an exact rational, the point +∞, or a certified enclosure.
struct TrueValue {
  std::optional<Rational> exact;  ///< set when the value is an exact rational
  bool infinite = false;          ///< no finite value (e.g. δ below the catastrophic mass)
  Interval enclosure;             ///< always contains the value (the point for an exact one)
};

/// The answer to one claim.
struct ClaimResult {
  Claim claim;
  Verdict verdict = Verdict::undecided;
  TrueValue truth;                    ///< the true ε (epsilon_at_delta) or δ (delta_at_epsilon)
  std::optional<Rational> true_lambda;  ///< exact least λ = e^ε when known (epsilon_at_delta)
  bool exact = false;  ///< whether the truth came from the exact privacy-loss distribution
  /// The precision (bits) of the enclosure that decided (0 when decided exactly), or the highest
  /// precision tried when undecided.
  Precision precision = 0;
  std::string method;  ///< how the truth was computed, one line
  /// For decided claims with a finite truth: claimed − true (absolute) and (claimed − true)/true
  /// (relative; absent when the truth is 0), exact when both are exact, certified otherwise;
  /// negative for an unsound claim (its shortfall).
  std::optional<TrueValue> slack_absolute, slack_relative;
  /// The one-use grid step h of the privacy-loss discretisation that produced a grid bracket
  /// (absent for exact and closed-form truths), and the resolution (grid points per standard
  /// deviation, GridOptions::resolution) it used.
  std::optional<Rational> grid_step;
  unsigned grid_resolution = 0;
  /// The spec of each component whose add/remove pair the truth is computed on: the components as
  /// written, or under replace-one neighbouring their replace-one specs (analysed_components).
  std::vector<std::string> analysed;
};

/// Options of the audit.
struct AuditOptions {
  /// Precisions (bits) tried for certified truths: start, 2·start, … up to cap (the last step
  /// clamped to cap; CompositionQueryOptions precision, max_precision, precision_factor 2).
  Precision start = 128;
  Precision cap = 1024;
  /// The composition planner's budget and limits (accounting/composition_plan.hpp): above them
  /// the exact composition is not attempted and a certified route answers (the k-fold masses have
  /// up to k times the bits of one use's, so RR with a λ read from a binary64 costs gigabytes at
  /// k = 10 000). The audit always allows grid brackets.
  PlanOptions plan;
  /// Grid brackets (subsampled Gaussian, k-fold Laplace): resolutions tried (GridOptions::resolution,
  /// grid points per standard deviation of the loss), from grid_resolution_start doubling up to
  /// grid_resolution_max, until the claim is decided — but no doubling once the largest law held
  /// exceeds grid_point_budget / 2 points (the next one would exceed the budget: its time grows
  /// with the square of the size). The bracket's width falls about 4-fold per doubling.
  /// grid_max_points bounds each law's size (a larger law is re-gridded coarser); a grid_point_budget
  /// above it raises the bound to the budget, so a larger budget always allows finer laws, and the
  /// planner's grid route allows at least 64 points per unit of resolution (PlanOptions::grid_max_points:
  /// above resolution 3125 that exceeds the default 200 000).
  unsigned grid_resolution_start = 4;
  unsigned grid_resolution_max = 1024;
  std::size_t grid_point_budget = 40000;
  std::size_t grid_max_points = 200000;
};

/// The neighbouring relation a claim's verdict is for: "replace-one" when the claim says so,
/// otherwise "add-remove" (the relation of every spec's own pair, also when the claim names none).
std::string neighbouring_of(const Claim& claim);

/// The components whose add/remove pairs the audit analyses for @p claim — the one place where a
/// claim's neighbouring relation is applied, by the reader (io/claims.cpp, to refuse before any
/// work) and by the audit alike. Under add/remove neighbouring (or none given) the components as
/// written. Under "replace-one" each component's replace-one spec from accounting/replace_one.hpp
/// (additive noise at twice the sensitivity, randomized response as it is), with the same uses and
/// its text as `mechanism`. Where replace-one is not defined, exactdp::Error whose `where` is
/// "claim ID", whose `field` is a JSON Pointer relative to the claim — "/neighbouring" (value
/// "replace-one") under Poisson subsampling, "/mechanism" or "/mechanisms/I/mechanism" (value the
/// SPEC as written) for a component whose replace-one pair is refused — and whose message gives the
/// library's reason.
std::vector<ClaimComponent> analysed_components(const Claim& claim);

/// Evaluates one claim (see the file comment for the verdict rules).
ClaimResult audit_claim(const Claim& claim, const AuditOptions& options = {});

/// Evaluates every claim, in order.
std::vector<ClaimResult> audit_claims(const std::vector<Claim>& claims, const AuditOptions& options = {});

}  // namespace exactdp
