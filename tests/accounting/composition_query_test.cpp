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

}  // namespace
}  // namespace exactdp
