// The one entry point of a composition question (accounting/composition_query.hpp): how components
// are assembled, how far an answer is refined, and what a refusal names. Expected values come from
// definitions and from routes the entry point does not take (the exact subsampled pair built by
// hand, ε of a pure mechanism, the unrefined bracket), each said at the assertion.
#include "exactdp/accounting/composition_query.hpp"

#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/amplification/poisson.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>

namespace exactdp {
namespace {

using D = NeighbourDirection;

ComponentRequest spec_request(const std::string& text, unsigned long times = 1) {
  ComponentRequest r;
  r.source = text;
  r.spec = parse_mechanism_spec(text);
  r.times = times;
  return r;
}

/// The field of the exactdp::Error @p f throws ("" when it throws none).
template <class F>
std::string refused_field(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.field();
  }
  return "";
}

TEST(CompositionQuery, RatesMultiplyAndExactTablesBecomeTheirSubsampledPair) {
  // rr:lambda=3 Poisson-subsampled at 1/2, then the request's 1/2 on top: the pair subsampled at 1/4,
  // built here directly from the mechanism's exact loss (amplification/poisson.hpp)
  CompositionRequest request;
  request.components.push_back(spec_request("rr:lambda=3"));
  request.components.back().sampling_rate = Rational(1, 2);
  request.sampling_rate = Rational(1, 2);
  const auto comps = composition_components(request);
  ASSERT_EQ(comps.size(), 1u);
  ASSERT_TRUE(comps.front().pair.has_value());
  EXPECT_FALSE(comps.front().spec.has_value());
  EXPECT_EQ(*comps.front().pair, poisson_subsample(*parse_mechanism_spec("rr:lambda=3").exact_loss(), Rational(1, 4)));
}

TEST(CompositionQuery, RateOneIsNoSubsampling) {
  // a Gaussian at rate 1 keeps the GDP closed form (a rate on it would send it to the grid)
  CompositionRequest request;
  request.components.push_back(spec_request("gauss:sigma=1", 3));
  request.sampling_rate = Rational(1);
  const CompositionQuery query(composition_components(request));
  EXPECT_EQ(query.plan().route, CompositionRoute::closed_form);
  EXPECT_FALSE(query.components().front().sampling_rate.has_value());
}

TEST(CompositionQuery, RefusalsNameTheCallersArguments) {
  CompositionArgumentNames python;
  python.where = "composition", python.sampling = "sampling_rate", python.relative_width = "relative_width";
  python.what = "what", python.direction = "direction", python.times = "times";
  // a mixture that is also Poisson-sampled
  CompositionRequest mixture;
  mixture.names = python;
  mixture.components.push_back(spec_request("gauss:sigma=1"));
  mixture.components.back().mixture = "mixture:1=1/2,2=1/2";
  mixture.sampling_rate = Rational(1, 2);
  EXPECT_EQ(refused_field([&] { composition_components(mixture); }), "sampling_rate");
  // replace-one under Poisson subsampling (accounting/replace_one.hpp)
  CompositionRequest replace;
  replace.names = python;
  replace.relation.replace_one = true;
  replace.components.push_back(spec_request("laplace:b=1"));
  replace.sampling_rate = Rational(1, 2);
  EXPECT_EQ(refused_field([&] { composition_components(replace); }), "direction");
  // a subsampled Gaussian beside a pair has no profile: the sampling argument is named
  CompositionRequest mixed;
  mixed.names = python;
  mixed.components.push_back(spec_request("gauss:sigma=1"));
  mixed.components.back().sampling_rate = Rational(1, 2);
  mixed.components.push_back(spec_request("dgauss:sigma2=1"));
  CompositionQueryOptions options;
  options.names = python;
  const CompositionQuery query(composition_components(mixed), options);
  EXPECT_EQ(query.plan().route, CompositionRoute::renyi);
  EXPECT_EQ(refused_field([&] { query.least_epsilon(Rational(1, 100000), D::both); }), "sampling_rate");
  // a relative width outside (0, 1)
  CompositionRequest rr;
  rr.components.push_back(spec_request("rr:lambda=2"));
  const CompositionQuery plain(composition_components(rr), options);
  EXPECT_EQ(refused_field([&] { plain.least_epsilon(Rational(0), D::both, Rational(2)); }), "relative_width");
}

TEST(CompositionQuery, PrecisionRisesUntilTheWidthIsMet) {
  // rr:epsilon=1 (certified masses, no exact tables) at δ = 0: the least ε is the mechanism's ε = 1
  // by definition; 10^-100 relative needs more than the first 128 bits, 512 suffice
  CompositionRequest request;
  request.components.push_back(spec_request("rr:epsilon=1"));
  const CompositionQuery query(composition_components(request));
  const CompositionAnswer first = query.least_epsilon(Rational(0), D::both);
  EXPECT_EQ(first.precision, 128);
  const Rational width(Rational(1) / Rational(mpz_class("1" + std::string(100, '0'))));
  const CompositionAnswer fine = query.least_epsilon(Rational(0), D::both, width);
  EXPECT_EQ(fine.precision, 512);
  EXPECT_TRUE(fine.value.lower() <= 1 && 1 <= fine.value.upper());
  EXPECT_LE(fine.value.upper() - fine.value.lower(), width * fine.value.upper());
  // beyond what 2048 bits give: refused, naming the width and the route's bracket
  const Rational too_narrow(Rational(1) / Rational(mpz_class("1" + std::string(1000, '0'))));
  try {
    query.least_epsilon(Rational(0), D::both, too_narrow);
    ADD_FAILURE() << "a width beyond 2048 bits was not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "--relative-width");
    EXPECT_NE(e.why().find("(" + to_string(query.plan().route) + ")"), std::string::npos) << e.why();
  }
}

TEST(CompositionQuery, GridRefinementIntersectsAndNeverWidens) {
  // two uses of the Laplace mechanism take the grid bracket; refining for a width intersects finer
  // brackets with the first, so the answer lies inside the unrefined one and is no wider
  CompositionRequest request;
  request.components.push_back(spec_request("laplace:b=1", 2));
  const CompositionQuery query(composition_components(request));
  ASSERT_EQ(query.plan().route, CompositionRoute::grid_bracket);
  const CompositionAnswer first = query.delta_at_epsilon(Rational(1, 2), D::both);
  EXPECT_EQ(first.resolution, 32u);
  const CompositionAnswer fine = query.delta_at_epsilon(Rational(1, 2), D::both, Rational(1, 100000));
  EXPECT_GT(fine.resolution, 32u);
  EXPECT_LE(first.value.lower(), fine.value.lower());
  EXPECT_LE(fine.value.upper(), first.value.upper());
  EXPECT_LT(fine.value.upper() - fine.value.lower(), first.value.upper() - first.value.lower());
}

TEST(CompositionQuery, FastRouteOnAGridRefinesTheResolutionThenRefuses) {
  // three uses of a Poisson-subsampled discrete Gaussian truncated to 401 outcomes: no lattice and
  // C(403, 3) count vectors, too many to compose atom by atom, so the fast route grids it; a width
  // its own schedule (resolutions 64 … 1024) misses is met by finer grids, intersected (the answer
  // lies inside the unrefined bracket, hand-checkable from the two brackets alone)
  CompositionRequest request;
  request.components.push_back(spec_request("dgauss:sigma2=100,truncation=200", 3));
  request.sampling_rate = Rational(1, 10);
  CompositionQueryOptions options;
  options.max_grid_resolution = 2048;
  options.precision = 64;
  options.max_precision = 64;  // no precision step: the one refinement is the grid at 2048
  const CompositionQuery query(composition_components(request), options);
  ASSERT_EQ(query.plan().route, CompositionRoute::fast_convolution);
  ASSERT_TRUE(query.composed().fast_on_grid());
  const Rational delta(1, 100000);
  const CompositionAnswer first = query.least_epsilon(delta, D::remove);
  EXPECT_EQ(first.resolution, 0u);
  const Rational first_width = (first.value.upper() - first.value.lower()) / first.value.upper();
  const Rational asked = first_width * Rational(3, 4);
  const CompositionAnswer fine = query.least_epsilon(delta, D::remove, asked);
  EXPECT_EQ(fine.resolution, 2048u);
  EXPECT_LE(first.value.lower(), fine.value.lower());
  EXPECT_LE(fine.value.upper(), first.value.upper());
  EXPECT_LE(fine.value.upper() - fine.value.lower(), asked * fine.value.upper());
  // a width beyond the finest grid and precision: refused, naming the width and both limits
  try {
    query.least_epsilon(delta, D::remove, Rational(1, 1000000000));
    ADD_FAILURE() << "a width beyond resolution 2048 was not refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "--relative-width");
    EXPECT_NE(e.why().find("max_grid_resolution 2048"), std::string::npos) << e.why();
    EXPECT_NE(e.why().find("max_precision 64"), std::string::npos) << e.why();
  }
}

TEST(RefinementGoal, SeparatesMeansTheValueLiesOnOneSideOfTheEnclosure) {
  // hand-derived from the definition: value < lo, hi <= value, or the point +∞ (above every value)
  const RefinementGoal at_one = RefinementGoal::separates(Rational(1));
  const Precision p = 128;
  EXPECT_TRUE(at_one.met(Interval::hull(Rational(2), Rational(3), p)));   // 1 < lo
  EXPECT_TRUE(at_one.met(Interval::hull(Rational(0), Rational(1), p)));   // hi = 1 <= 1
  EXPECT_FALSE(at_one.met(Interval::hull(Rational(0), Rational(2), p)));  // straddles
  EXPECT_FALSE(at_one.met(Interval::hull(Rational(1), Rational(2), p)));  // lo = 1: not certainly above
  EXPECT_TRUE(at_one.met(Interval::infinity(p)));
  EXPECT_FALSE(at_one.met(Interval::at_least(Rational(1, 2), p)));       // may lie on either side
  EXPECT_TRUE(at_one.met(Interval::at_least(Rational(2), p)));
  EXPECT_FALSE(at_one.relative_width.has_value());
  // the width goal: hi − lo <= w·hi, an infinite upper end met, no width the first answer
  const RefinementGoal tenth = RefinementGoal::width(Rational(1, 10));
  EXPECT_TRUE(tenth.met(Interval::hull(Rational(9), Rational(10), p)));
  EXPECT_FALSE(tenth.met(Interval::hull(Rational(8), Rational(10), p)));
  EXPECT_TRUE(tenth.met(Interval::at_least(Rational(1), p)));
  EXPECT_TRUE(RefinementGoal::width(std::nullopt).met(Interval::hull(Rational(0), Rational(10), p)));
}

TEST(CompositionQuery, RefinesUntilAValueIsSeparated) {
  // Three uses of the Laplace mechanism (grid route) from resolution 4, doubling: the query stops at
  // the first resolution whose intersection lies on one side of the value. The second algorithm is
  // the loop written out over the grid bracket's own entry point (amplification/poisson.hpp).
  CompositionRequest request;
  request.components.push_back(spec_request("laplace:b=1", 3));
  CompositionQueryOptions o;
  o.plan.grid_resolution = 4;
  o.max_grid_resolution = 256;
  const CompositionQuery query(composition_components(request), o);
  ASSERT_EQ(query.plan().route, CompositionRoute::grid_bracket);
  const Rational delta(1, 1000);
  const ContinuousPair pair = *continuous_pair(parse_mechanism_spec("laplace:b=1"), Rational(1));
  // a value inside the resolution-4 bracket, outside its intersection with a finer one (brackets of
  // different grids need not nest): below the truth, or above it
  const GridBracket coarse = grid_epsilon_at_delta(pair, 3, delta, [] { GridOptions g; g.resolution = 4; return g; }());
  const GridBracket both = intersect(coarse, grid_epsilon_at_delta(pair, 3, delta, [] { GridOptions g; g.resolution = 64; return g; }()));
  const bool below = coarse.value.lower() < both.value.lower();
  ASSERT_TRUE(below || both.value.upper() < coarse.value.upper()) << "the resolution-64 bracket narrows neither end";
  const Rational value = below ? (coarse.value.lower() + both.value.lower()) / 2 : (coarse.value.upper() + both.value.upper()) / 2;
  const CompositionAnswer a = query.least_epsilon(delta, D::both, RefinementGoal::separates(value));
  EXPECT_TRUE(a.met);
  if (below) EXPECT_LT(value, a.value.lower());  // the value is certainly below the truth
  else EXPECT_LE(a.value.upper(), value);        // certainly at least the truth
  ASSERT_TRUE(a.grid.has_value());
  std::optional<GridBracket> loop;
  unsigned res = 4;
  for (;; res *= 2) {
    GridOptions g;
    g.resolution = res;
    const GridBracket b = grid_epsilon_at_delta(pair, 3, delta, g);
    loop = loop ? intersect(*loop, b) : b;
    if (below ? value < loop->value.lower() : loop->value.upper() <= value) break;
  }
  EXPECT_GT(res, 4u);  // refined: the first bracket does not separate the value
  EXPECT_EQ(a.resolution, res);
  EXPECT_EQ(a.value.to_string(30), loop->value.to_string(30));
  EXPECT_EQ(a.grid->step, loop->step);
}

TEST(CompositionQuery, GridPointBudgetStopsTheRefinement) {
  // A value the bracket cannot separate (the truth itself is unknown; a value at the first bracket's
  // middle is close enough for two resolutions) with a budget below the first law's points: one
  // bracket, the goal unmet, and the answer is that bracket (the loop written out: one call).
  CompositionRequest request;
  request.components.push_back(spec_request("laplace:b=1", 3));
  CompositionQueryOptions o;
  o.plan.grid_resolution = 8;
  o.grid_point_budget = 64;
  const CompositionQuery query(composition_components(request), o);
  const CompositionAnswer first = query.least_epsilon(Rational(1, 1000), D::both);
  ASSERT_TRUE(first.grid.has_value());
  ASSERT_GT(2 * first.grid->points, o.grid_point_budget);
  const Rational middle = (first.value.lower() + first.value.upper()) / 2;
  const CompositionAnswer a = query.least_epsilon(Rational(1, 1000), D::both, RefinementGoal::separates(middle));
  EXPECT_FALSE(a.met);
  EXPECT_EQ(a.resolution, 8u);
  EXPECT_EQ(a.value.to_string(30), first.value.to_string(30));
}

TEST(CompositionQuery, PrecisionDoublesUntilAValueIsSeparated) {
  // One Gaussian mechanism, σ = 1, at ε = 1 (closed form): δ = Φ(−1/2) − e·Φ(−3/2)
  // = 0.12693673750664394580082962475776688041508065… (mpmath, 80 digits). A value 10⁻⁴¹ above it is
  // not separated at 128 bits (about 10⁻³⁸) but is at 256; with the precision factor 2 the query
  // stops there, and with the default 4 at 512.
  CompositionRequest request;
  request.components.push_back(spec_request("gauss:sigma=1"));
  const Rational above(mpz_class("12693673750664394580082962475776688041509"), mpz_class("1" + std::string(41, '0')));
  const Rational truth_below(mpz_class("12693673750664394580082962475776688041508"), mpz_class("1" + std::string(41, '0')));
  CompositionQueryOptions o;
  o.precision_factor = 2;
  const CompositionQuery doubling(composition_components(request), o);
  ASSERT_FALSE(RefinementGoal::separates(above).met(doubling.delta_at_epsilon(Rational(1), D::both).value));
  const CompositionAnswer a = doubling.delta_at_epsilon(Rational(1), D::both, RefinementGoal::separates(above));
  EXPECT_TRUE(a.met);
  EXPECT_EQ(a.precision, 256);
  EXPECT_LE(a.value.upper(), above);
  EXPECT_LE(truth_below, a.value.upper());
  const CompositionQuery fourfold(composition_components(request));
  EXPECT_EQ(fourfold.delta_at_epsilon(Rational(1), D::both, RefinementGoal::separates(above)).precision, 512);
  // a value within 10⁻⁷⁰ of the truth (its 70 digits) is not separated at 192 bits (about 10⁻⁵⁸):
  // the last answer, the goal unmet, no refusal
  const Rational digits70(mpz_class("1269367375066439458008296247577668804150806501120013223306557543673419"),
                          mpz_class("1" + std::string(70, '0')));
  CompositionQueryOptions low = o;
  low.max_precision = 192;  // 128, then 192: the last step clamped to the limit
  const CompositionQuery capped(composition_components(request), low);
  const CompositionAnswer c = capped.delta_at_epsilon(Rational(1), D::both, RefinementGoal::separates(digits70));
  EXPECT_FALSE(c.met);
  EXPECT_EQ(c.precision, 192);
}

}  // namespace
}  // namespace exactdp
