#include "exactdp/accounting/composition_query.hpp"

#include "exactdp/amplification/poisson.hpp"
#include "exactdp/compose/fast_convolution.hpp"
#include "exactdp/core/error.hpp"

#include <algorithm>
#include <utility>

namespace exactdp {

// ------------------------------------------------------------------ assembling the components

namespace {

/// One component as written, with its mixture parsed (errors name the sampling argument).
CompositionComponent written_component(const ComponentRequest& r, const CompositionArgumentNames& names) {
  if (r.times < 1 || r.times > max_composition_uses)
    throw Error(names.where, names.times, std::to_string(r.times),
                "must be an integer between 1 and " + std::to_string(max_composition_uses));
  if (r.spec.has_value() == r.pair.has_value())
    throw Error(names.where, names.what, r.source, "a component is a mechanism spec or a pair");
  CompositionComponent c{r.source, r.spec, r.pair, r.times, std::nullopt, {}};
  if (r.mixture) {
    try {
      c.mixture = parse_sensitivity_mixture(*r.mixture);
    } catch (const Error& e) {
      throw e.in(names.sampling);
    }
  }
  return c;
}

/// The Poisson rate of @p r with the request's rate on top, if any.
std::optional<Rational> combined_rate(const ComponentRequest& r, const std::optional<Rational>& on_top) {
  if (!r.sampling_rate) return on_top;
  if (!on_top) return r.sampling_rate;
  return Rational(*r.sampling_rate * *on_top);
}

}  // namespace

std::vector<CompositionComponent> composition_components(const CompositionRequest& request) {
  const CompositionArgumentNames& names = request.names;
  if (request.components.empty()) throw Error(names.where, names.what, "", "nothing to compose: give at least one mechanism or pair");
  std::vector<CompositionComponent> out;
  for (const ComponentRequest& r : request.components) {
    CompositionComponent c = written_component(r, names);
    const std::optional<Rational> rate = combined_rate(r, request.sampling_rate);
    if (request.relation.replace_one) {  // each mechanism's replace-one pair, asked in the direction both
      out.push_back(replace_one(c, rate, names.direction));
      continue;
    }
    if (!c.mixture.empty()) {
      if (rate)
        throw Error(names.where, names.sampling, r.source,
                    "a Gaussian mixture of sensitivities cannot be Poisson-sampled again (write the mixture of the "
                    "subsampled mechanism itself)");
      std::vector<MixtureComponent> mixture = std::move(c.mixture);
      c.mixture.clear();
      c = sensitivity_mixture(std::move(c), std::move(mixture), names.sampling);
      c.source = r.source + " with " + *r.mixture;
    } else if (rate && *rate != 1) {
      if (sgn(*rate) < 0 || *rate > 1)
        throw Error(names.where, names.sampling, to_string(*rate), "the sampling rate must lie in [0, 1]");
      c = poisson_subsampled(std::move(c), *rate, true, names.sampling);
      c.source = r.source + " Poisson-subsampled at q = " + to_string(*rate) + " (add/remove)";
      if (c.pair) c.spec.reset();  // exact tables: the subsampled pair; gauss, laplace, certified masses keep spec and rate
    }
    out.push_back(std::move(c));
  }
  return out;
}

// ------------------------------------------------------------------ answering

CompositionQuery::CompositionQuery(std::vector<CompositionComponent> components, CompositionQueryOptions options)
    : components_(std::move(components)), options_(std::move(options)), plan_(plan_composition(components_, options_.plan)) {}

const ComposedPrivacy& CompositionQuery::composed() const {
  if (!plan_.has_profile()) {
    // a subsampled or mixed component is what keeps the finite routes and the grid away
    const bool sampled = std::any_of(components_.begin(), components_.end(), [](const CompositionComponent& c) {
      return (c.sampling_rate && *c.sampling_rate != 1) || !c.mixture.empty();
    });
    throw Error(options_.names.where, sampled ? options_.names.sampling : options_.names.what, components_.front().source,
                "no exact or certified profile: " + plan_.reason);
  }
  if (!first_) first_ = std::make_unique<ComposedPrivacy>(components_, plan_, options_.precision);
  return *first_;
}

namespace {

/// Whether [lo, hi] meets hi − lo ≤ w·hi; an infinite upper end (no finite ε, or undecided) counts
/// as met, as no refinement changes it.
bool narrow_enough(const Interval& v, const std::optional<Rational>& w) {
  if (!w || !v.upper_is_finite()) return true;
  if (!v.lower_is_finite()) return false;
  const Rational hi = v.upper();
  return hi - v.lower() <= *w * hi;
}

/// A grid bracket holding only its value, for intersect().
GridBracket bracket(const Interval& value) {
  GridBracket b;
  b.value = value;
  return b;
}

/// The fast convolution on a grid (ComposedPrivacy::fast_on_grid), refined from @p answer (its own
/// schedule, which ends at FastCompositionOptions' max_resolution) until @p goal is met: finer
/// grids, intersected (each bracket encloses the value), fourfold while a width goal is more than
/// 64 times away and doubling after, up to options.max_grid_resolution; then the working precision
/// ×4 up to options.max_precision at the finest grid. A width goal neither meets is refused, naming
/// the width, the bracket reached and both limits; any other goal returns the last answer, `met`
/// false.
template <class At>
CompositionAnswer refine_fast_grid(const std::vector<CompositionComponent>& components,
                                   const CompositionQueryOptions& options, const At& at, CompositionAnswer answer,
                                   const RefinementGoal& goal) {
  const std::optional<Rational>& w = goal.relative_width;
  CompositionPlan finer = answer.plan;
  unsigned resolution = FastCompositionOptions{}.max_resolution;
  auto evaluate = [&](Precision p) {
    finer.fast_resolution = resolution;
    const ComposedPrivacy law(components, finer, p);
    answer.value = intersect(bracket(answer.value), bracket(at(law, p).value)).value;
    answer.method = law.method();
    answer.resolution = resolution;
    answer.precision = p;
  };
  while (!goal.met(answer.value) && resolution < options.max_grid_resolution) {
    const bool far = w && answer.value.lower_is_finite() && answer.value.upper_is_finite() &&
                     answer.value.upper() - answer.value.lower() > Rational(64) * *w * answer.value.upper();
    resolution = std::min(resolution * (far ? 4u : 2u), options.max_grid_resolution);
    evaluate(options.precision);
  }
  for (Precision p = options.precision * 4; !goal.met(answer.value) && p <= options.max_precision; p *= 4) evaluate(p);
  answer.met = goal.met(answer.value);
  if (answer.met || !w) return answer;
  throw Error(options.names.where, options.names.relative_width, to_string(*w),
              "the fast convolution on a grid gives " + answer.value.to_string(17) + " at resolution " +
                  std::to_string(answer.resolution) + " (max_grid_resolution " + std::to_string(options.max_grid_resolution) +
                  ") and " + std::to_string(answer.precision) + " bits (max_precision " + std::to_string(options.max_precision) +
                  "): wider than this relative width");
}

}  // namespace

RefinementGoal RefinementGoal::width(const std::optional<Rational>& w) {
  return {[w](const Interval& v) { return narrow_enough(v, w); }, w};
}

RefinementGoal RefinementGoal::separates(const Rational& value) {
  return {[value](const Interval& v) {
            if (!v.lower_is_finite()) return true;  // the point +∞: above every value
            return value < v.lower() || (v.upper_is_finite() && v.upper() <= value);
          },
          std::nullopt};
}

const ComposedPrivacy& CompositionQuery::law_at(const CompositionPlan& plan, Precision precision) const {
  const unsigned resolution = plan.route == CompositionRoute::grid_bracket ? plan.grid_resolution : 0;
  const unsigned first_resolution = plan_.route == CompositionRoute::grid_bracket ? plan_.grid_resolution : 0;
  if (resolution == first_resolution && precision == options_.precision) return composed();
  if (!refined_ || refined_resolution_ != resolution || refined_precision_ != precision) {
    refined_.reset();  // release the old law before the new one is built
    refined_ = std::make_unique<ComposedPrivacy>(components_, plan, precision);
    refined_resolution_ = resolution;
    refined_precision_ = precision;
  }
  return *refined_;
}

CompositionAnswer CompositionQuery::refine(const Evaluate& at, const RefinementGoal& goal) const {
  const CompositionArgumentNames& names = options_.names;
  const std::optional<Rational>& w = goal.relative_width;
  if (w && (sgn(*w) <= 0 || *w >= 1)) throw Error(names.where, names.relative_width, to_string(*w), "must lie in (0, 1)");
  const ComposedPrivacy& first = composed();
  Evaluation e = at(first, options_.precision);
  const bool grid = plan_.route == CompositionRoute::grid_bracket;
  CompositionAnswer answer{e.value, plan_, first.method(), options_.precision, grid ? plan_.grid_resolution : 0, e.grid, true};
  if (goal.met(answer.value)) return answer;
  if (plan_.route == CompositionRoute::fast_convolution && first.fast_on_grid())
    return refine_fast_grid(components_, options_, at, std::move(answer), goal);
  if (grid) {
    // finer grids, intersected: each bracket encloses the value (amplification/poisson.hpp, intersect)
    CompositionPlan finer = plan_;
    auto budget_spent = [&] { return options_.grid_point_budget > 0 && answer.grid && 2 * answer.grid->points > options_.grid_point_budget; };
    while (!goal.met(answer.value) && finer.grid_resolution < options_.max_grid_resolution && !budget_spent()) {
      // far from the width asked (more than 64 times it), skip a resolution: the width falls about
      // fourfold per doubling and the time grows about linearly in the resolution
      const bool far = w && answer.value.lower_is_finite() && answer.value.upper_is_finite() &&
                       answer.value.upper() - answer.value.lower() > Rational(64) * *w * answer.value.upper();
      finer.grid_resolution = std::min(finer.grid_resolution * (far ? 4u : 2u), options_.max_grid_resolution);
      const ComposedPrivacy& law = law_at(finer, options_.precision);
      e = at(law, options_.precision);
      answer.value = intersect(bracket(answer.value), bracket(e.value)).value;
      answer.grid = e.grid;
      answer.method = law.method();
      answer.resolution = finer.grid_resolution;
    }
    answer.met = goal.met(answer.value);
    return answer;  // the finest intersection, even when the goal is not met
  }
  const unsigned factor = std::max(options_.precision_factor, 2u);
  for (Precision p = options_.precision; p < options_.max_precision;) {
    p = std::min<Precision>(p * factor, options_.max_precision);
    const ComposedPrivacy& law = law_at(plan_, p);
    answer.value = at(law, p).value;
    answer.method = law.method();
    answer.precision = p;
    if (goal.met(answer.value)) return answer;
  }
  answer.met = false;
  if (w)
    throw Error(names.where, names.relative_width, to_string(*w),
                "the planner's route (" + to_string(plan_.route) + ") gives " + answer.value.to_string(17) + " at " +
                    std::to_string(answer.precision) + " bits, wider than this relative width");
  return answer;
}

CompositionAnswer CompositionQuery::least_epsilon(const Rational& delta, NeighbourDirection direction,
                                                  const std::optional<Rational>& relative_width) const {
  return least_epsilon(delta, direction, RefinementGoal::width(relative_width));
}

CompositionAnswer CompositionQuery::delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction,
                                                     const std::optional<Rational>& relative_width) const {
  return delta_at_epsilon(epsilon, direction, RefinementGoal::width(relative_width));
}

CompositionAnswer CompositionQuery::delta_at_lambda(const Rational& lambda, NeighbourDirection direction,
                                                    const std::optional<Rational>& relative_width) const {
  return delta_at_lambda(lambda, direction, RefinementGoal::width(relative_width));
}

CompositionAnswer CompositionQuery::least_epsilon(const Rational& delta, NeighbourDirection direction,
                                                  const RefinementGoal& goal) const {
  return refine(
      [&](const ComposedPrivacy& law, Precision) -> Evaluation {
        if (law.plan().route != CompositionRoute::grid_bracket) return {law.least_epsilon(delta, direction), std::nullopt};
        GridBracket b = law.grid_least_epsilon_bracket(delta, direction);
        return {b.value, b};
      },
      goal);
}

CompositionAnswer CompositionQuery::delta_at_epsilon(const Rational& epsilon, NeighbourDirection direction,
                                                     const RefinementGoal& goal) const {
  return refine(
      [&](const ComposedPrivacy& law, Precision p) -> Evaluation {
        // the grid brackets the rational ε itself; elsewhere ε is exact: the point, at the law's precision
        if (law.plan().route != CompositionRoute::grid_bracket) return {law.delta_at_epsilon(Interval(epsilon, p), direction), std::nullopt};
        GridBracket b = law.grid_delta_at_epsilon_bracket(epsilon, direction);
        return {b.value, b};
      },
      goal);
}

CompositionAnswer CompositionQuery::delta_at_lambda(const Rational& lambda, NeighbourDirection direction,
                                                    const RefinementGoal& goal) const {
  return refine([&](const ComposedPrivacy& law, Precision) -> Evaluation { return {law.delta_at_lambda(lambda, direction), std::nullopt}; },
                goal);
}

}  // namespace exactdp
