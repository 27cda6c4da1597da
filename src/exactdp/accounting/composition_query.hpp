/// @file
/// A composition question answered end to end: the one entry point `exactdp compose` and Python's
/// `exactdp.epsilon_at` / `delta_at` / `renyi_at` call. The front ends only parse their arguments
/// into a CompositionRequest and print the CompositionAnswer; here the components are assembled
/// (Poisson subsampling, sensitivity mixtures, replace-one pairs), the planner picks the route
/// (composition_plan.hpp), and the answer is refined until it is as narrow as asked:
///
/// | route | refinement | when the goal is not met |
/// |---|---|---|
/// | grid bracket | resolutions r, 2r, 4r, … up to `max_grid_resolution` (fourfold while a width goal is more than 64 times away), intersected (each bracket encloses the value, so their intersection does and never widens); no finer grid once a law held more than half of `grid_point_budget` points | the intersection at the finest grid is returned: the caller sees its width |
/// | fast convolution on a grid (ComposedPrivacy::fast_on_grid: a finite pair off any lattice, too many uses to compose atom by atom) | after the route's own resolutions (64 … 1024), resolutions 2048, … (fourfold while far, then doubling) up to `max_grid_resolution`, intersected; then the working precision ×4 up to `max_precision` at the finest grid | a width goal: refused, naming the width argument, the bracket reached and both limits; any other goal: the last answer, `met` false |
/// | every other route with a profile | working precision p, f·p, f²·p, … (f = `precision_factor`) up to `max_precision`, the last step clamped to it | a width goal: refused, naming the width argument, with the route and its bracket; any other goal: the last answer, `met` false |
/// | Rényi only | — | refused, naming the argument that made the profile unavailable |
///
/// The goal is a test on the enclosure (RefinementGoal): a relative width (`exactdp compose
/// --relative-width`, Python's `relative_width`), or a value to separate from — the audit's "the
/// claim is decided", which the calibration's level judgement asks through the audit. One loop
/// answers all of them. Before this file each front end held a copy of these choices (Python picked
/// the grid for a subsampled Gaussian, looped over precisions and resolutions, and refused
/// combinations itself), and the audit refined with loops of its own.
#pragma once

#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace exactdp {

/// One component as a front end writes it: a library mechanism or an exact pair, its uses, and how
/// its record is sampled (Poisson at a rate, or a sensitivity mixture "mixture:C=W,…" as written).
struct ComponentRequest {
  std::string source;                  ///< as written (spec text, file name, "pair what[0]")
  std::optional<MechanismSpec> spec;   ///< a library mechanism
  std::optional<PrivacyLoss> pair;     ///< an exact pair
  unsigned long times = 1;
  std::optional<Rational> sampling_rate;  ///< Poisson subsampling of this component (1: none)
  std::optional<std::string> mixture;     ///< "mixture:C=W,…" (parse_sensitivity_mixture), gauss only
};

/// The names the caller's arguments have, so that a refusal names what the user typed (the CLI's
/// options by default; Python passes its keyword names).
struct CompositionArgumentNames {
  std::string where = "compose";                  ///< the entry point
  std::string what = "--mechanism";               ///< the components
  std::string times = "--times";
  std::string sampling = "--sampling";            ///< Poisson rates and mixtures
  std::string direction = "--direction";
  std::string relative_width = "--relative-width";
};

/// The components of a composition as the front end read them, with the neighbouring relation.
struct CompositionRequest {
  std::vector<ComponentRequest> components;
  /// Poisson subsampling at this rate on top of every component's own (rates multiply: sampling at
  /// q₁ and then at q₂ keeps a record with probability q₁q₂). Python's `sampling_rate`.
  std::optional<Rational> sampling_rate;
  NeighbourChoice relation;  ///< add/remove (a direction), or the replace-one pairs
  CompositionArgumentNames names;
};

/// The planner's components of @p request: each mechanism or pair Poisson-subsampled at its rate
/// (poisson_subsampled, gauss and laplace keeping their spec and rate), a Gaussian given its
/// sensitivity mixture (sensitivity_mixture), or, for replace-one, each component's replace-one
/// pair (replace_one.hpp: refused under Poisson subsampling, for pairs and for mixtures). A rate of
/// exactly 1 is no subsampling. Errors (exactdp::Error naming the argument in request.names): a
/// number of uses outside [1, max_composition_uses], a mixture that is also Poisson-sampled, a
/// mixture or a sampling rate the mechanism does not take, no component.
std::vector<CompositionComponent> composition_components(const CompositionRequest& request);

/// How far a question is refined, and under which budget.
struct CompositionQueryOptions {
  PlanOptions plan = grid_plan();        ///< memory budget, forced exactness, first grid resolution
  Precision precision = 128;             ///< the first working precision (bits)
  Precision max_precision = 2048;        ///< refinement raises the precision up to this (the last step clamped)
  /// Refinement multiplies the precision by this (≥ 2): 4 by default, the audit 2 (a claim is
  /// usually decided at the first precision that separates it, and a doubling finds it cheaper).
  unsigned precision_factor = 4;
  /// Refinement raises the grid resolution up to this: ×4 while the width is more than 64 times the
  /// width asked (the bracket narrows about fourfold per doubling, second order in the step), ×2
  /// otherwise (and always for a goal without a width).
  unsigned max_grid_resolution = limits::max_grid_resolution;
  /// No finer grid once a law held more than half this many points (the next would hold about
  /// twice as many, its time growing faster than its size); 0: no such stop. The audit's
  /// `--grid-points`.
  std::size_t grid_point_budget = 0;
  CompositionArgumentNames names;        ///< for refusals

  /// The planner's options with grid brackets allowed (every front end asks for them).
  static PlanOptions grid_plan() {
    PlanOptions o;
    o.grid_brackets = true;
    return o;
  }
};

/// One answer: the value, how it was computed, and how far it was refined.
struct CompositionAnswer {
  /// ε (least ε at δ: the point +∞ when no finite ε exists, an upper end +∞ when undecided) or δ.
  Interval value;
  CompositionPlan plan;      ///< the route and why
  std::string method;        ///< ComposedPrivacy::method() of the last law evaluated
  Precision precision = 0;   ///< the working precision of the answer
  /// grid bracket, and the fast convolution once refined past its own schedule: the finest
  /// resolution intersected (0 otherwise)
  unsigned resolution = 0;
  /// Grid bracket: the finest grid evaluated (its one-use step, coarsest step and points held; its
  /// value is `value`, the intersection). Absent on other routes.
  std::optional<GridBracket> grid;
  bool met = true;  ///< whether the goal was met (false: the limits were reached first)
};

/// When a question's refinement stops: a test on the enclosure of the answer, met by the first
/// law's answer or by a refined one (see the file comment). Build one with width() or separates().
struct RefinementGoal {
  /// Whether the enclosure answers the caller.
  std::function<bool(const Interval&)> met;
  /// The relative width asked, when that is the goal: the grid skips a resolution while the
  /// enclosure is more than 64 times wider, and a route that cannot meet it refuses.
  std::optional<Rational> relative_width;

  /// hi − lo ≤ w·hi, an infinite upper end counting as met (no refinement changes it); without
  /// @p w the first law's answer. Error (names.relative_width) unless 0 < w < 1, at the question.
  static RefinementGoal width(const std::optional<Rational>& w);
  /// The enclosure lies on one side of @p value: value < lo (the value is certainly below the
  /// truth), hi ≤ value (certainly at least it), or the enclosure is the point +∞ (no finite
  /// truth). The audit's "decided": a claimed ε or δ against the true one.
  static RefinementGoal separates(const Rational& value);
};

/// A composition planned once and asked any number of questions. The law at the first precision
/// and resolution is built once and shared by every question that needs no refinement (what
/// `exactdp compose` prints); a question with a relative width builds finer laws as the table in
/// the file comment says.
class CompositionQuery {
public:
  /// Plans @p components (at least one) under options.plan.
  CompositionQuery(std::vector<CompositionComponent> components, CompositionQueryOptions options = {});

  const CompositionPlan& plan() const { return plan_; }
  const std::vector<CompositionComponent>& components() const { return components_; }

  /// The composed law at the first precision and resolution. When the plan has no profile (Rényi
  /// only): exactdp::Error(names.where, the argument responsible — names.sampling when a component
  /// is Poisson-subsampled or a mixture, else names.what —, the first component, "no exact or
  /// certified profile: " + the plan's reason).
  const ComposedPrivacy& composed() const;

  /// The least ε ≥ 0 with δ(ε) ≤ @p delta in @p direction. With @p relative_width w (0 < w < 1),
  /// refined until hi − lo ≤ w·hi (an infinite upper end counts as met), per the file comment.
  CompositionAnswer least_epsilon(const Rational& delta, NeighbourDirection direction,
                                  const std::optional<Rational>& relative_width = std::nullopt) const;
  /// δ at the exact ε = @p epsilon (any sign) in @p direction, refined as least_epsilon.
  CompositionAnswer delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction,
                                     const std::optional<Rational>& relative_width = std::nullopt) const;
  /// δ at an exact λ = e^ε > 0 in @p direction, refined as least_epsilon.
  CompositionAnswer delta_at_lambda(const Rational& lambda, NeighbourDirection direction,
                                    const std::optional<Rational>& relative_width = std::nullopt) const;

  /// The least ε ≥ 0 with δ(ε) ≤ @p delta in @p direction, refined until @p goal is met or the
  /// limits are reached (CompositionAnswer::met says which; a width goal the route cannot meet is
  /// refused as above). Questions on one query share its laws: the first, and the last refined one.
  CompositionAnswer least_epsilon(const Rational& delta, NeighbourDirection direction, const RefinementGoal& goal) const;
  /// δ at the exact ε = @p epsilon (any sign) in @p direction, refined until @p goal is met.
  CompositionAnswer delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction, const RefinementGoal& goal) const;
  /// δ at an exact λ = e^ε > 0 in @p direction, refined until @p goal is met.
  CompositionAnswer delta_at_lambda(const Rational& lambda, NeighbourDirection direction, const RefinementGoal& goal) const;

private:
  /// What one law answers: the value, and the grid that bracketed it (grid route).
  struct Evaluation {
    Interval value;
    std::optional<GridBracket> grid;
  };
  using Evaluate = std::function<Evaluation(const ComposedPrivacy& law, Precision precision)>;

  /// Evaluates @p at on the first law, then on finer ones until @p goal is met (file comment).
  CompositionAnswer refine(const Evaluate& at, const RefinementGoal& goal) const;
  /// The law at @p plan and @p precision: the first law or the last refined one when they match,
  /// else a new one, kept as the last refined.
  const ComposedPrivacy& law_at(const CompositionPlan& plan, Precision precision) const;

  std::vector<CompositionComponent> components_;
  CompositionQueryOptions options_;
  CompositionPlan plan_;
  mutable std::unique_ptr<ComposedPrivacy> first_;  ///< built on first use
  /// The last refined law, with its resolution and precision (certified routes build it at a cost
  /// a second question would otherwise pay again).
  mutable std::unique_ptr<ComposedPrivacy> refined_;
  mutable unsigned refined_resolution_ = 0;
  mutable Precision refined_precision_ = 0;
};

}  // namespace exactdp
