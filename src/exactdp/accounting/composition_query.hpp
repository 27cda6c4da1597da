/// @file
/// A composition question answered end to end: the one entry point `exactdp compose` and Python's
/// `exactdp.epsilon_at` / `delta_at` / `renyi_at` call. The front ends only parse their arguments
/// into a CompositionRequest and print the CompositionAnswer; here the components are assembled
/// (Poisson subsampling, sensitivity mixtures, replace-one pairs), the planner picks the route
/// (composition_plan.hpp), and the answer is refined until it is as narrow as asked:
///
/// | route | refinement | when the width is not met |
/// |---|---|---|
/// | grid bracket | resolutions r, 4r, … (fourfold while far from the width asked, then doubling) up to `max_grid_resolution`, intersected (each bracket encloses the value, so their intersection does and never widens) | the intersection at the finest grid is returned: the caller sees its width |
/// | fast convolution on a grid (ComposedPrivacy::fast_on_grid: a finite pair off any lattice, too many uses to compose atom by atom) | after the route's own resolutions (64 … 1024), resolutions 2048, … (fourfold while far, then doubling) up to `max_grid_resolution`, intersected; then the working precision ×4 up to `max_precision` at the finest grid | refused, naming the width argument, the bracket reached and both limits |
/// | every other route with a profile | working precision p, 4p, 16p, … up to `max_precision` | refused, naming the width argument, with the route and its bracket |
/// | Rényi only | — | refused, naming the argument that made the profile unavailable |
///
/// Before this file each front end held a copy of these choices (Python picked the grid for a
/// subsampled Gaussian, looped over precisions and resolutions, and refused combinations itself).
#pragma once

#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

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
  Precision max_precision = 2048;        ///< refinement raises the precision ×4 up to this
  /// Refinement raises the grid resolution up to this: ×4 while the width is more than 64 times the
  /// width asked (the bracket narrows about fourfold per doubling, second order in the step), ×2 after.
  unsigned max_grid_resolution = limits::max_grid_resolution;
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

private:
  /// Evaluates @p at (law, its working precision) on the first law, then on finer ones until
  /// @p relative_width is met.
  template <class At>
  CompositionAnswer refine(const At& at, const std::optional<Rational>& relative_width) const;

  std::vector<CompositionComponent> components_;
  CompositionQueryOptions options_;
  CompositionPlan plan_;
  mutable std::unique_ptr<ComposedPrivacy> first_;  ///< built on first use
};

}  // namespace exactdp
