// Replace-one neighbouring (accounting/replace_one.hpp): each family's replace-one pair, checked
// against closed forms derived by hand for the replaced pair (not the library's add/remove route
// at a doubled sensitivity), the refusals with their reasons, and calibration under replace-one.
#include "exactdp/accounting/replace_one.hpp"

#include "exactdp/accounting/calibration.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace exactdp {
namespace {

using D = NeighbourDirection;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.field() + " | " + e.what();
  }
  return "";
}

TEST(ReplaceOne, ParsesTheFourRelations) {
  EXPECT_EQ(parse_neighbour_relation("replace", "--direction"), (NeighbourChoice{D::both, true}));
  EXPECT_EQ(parse_neighbour_relation("add", "--direction"), (NeighbourChoice{D::add, false}));
  EXPECT_EQ(parse_neighbour_relation("both", "--direction"), (NeighbourChoice{D::both, false}));
  EXPECT_EQ(to_string(NeighbourChoice{D::both, true}), "replace");
  EXPECT_NE(error_of([] { parse_neighbour_relation("swap", "--direction"); }).find("direction |"), std::string::npos);
}

TEST(ReplaceOne, AdditiveNoiseDoublesTheSensitivityRandomizedResponseStays) {
  EXPECT_EQ(replace_one(parse_mechanism_spec("gauss:sigma=2,sensitivity=3/2")).to_string(), "gauss:sigma=2,sensitivity=3");
  EXPECT_EQ(replace_one(parse_mechanism_spec("laplace:b=1")).to_string(), "laplace:b=1,sensitivity=2");
  EXPECT_EQ(replace_one(parse_mechanism_spec("dgauss:sigma2=4,truncation=5")).to_string(),
            "dgauss:sigma2=4,truncation=5,sensitivity=2");
  // dlaplace:epsilon=E is r = e^-E at sensitivity 1: the same r at sensitivity 2 is a = E
  EXPECT_EQ(replace_one(parse_mechanism_spec("dlaplace:epsilon=1/3")).to_string(), "dlaplace:a=1/3,sensitivity=2");
  for (const char* rr : {"rr:lambda=3,delta=1/10", "krr:k=4,epsilon=1", "krr:k=1,lambda=2"})
    EXPECT_EQ(replace_one(parse_mechanism_spec(rr)), parse_mechanism_spec(rr)) << rr;
  // degenerate: sensitivity 0 stays identical, no noise stays disjoint
  EXPECT_EQ(replace_one(parse_mechanism_spec("gauss:sigma=1,sensitivity=0")).degenerate(), DegeneratePair::identical);
  EXPECT_EQ(replace_one(parse_mechanism_spec("laplace:b=0")).degenerate(), DegeneratePair::disjoint);
}

// Laplace with scale b and sensitivity S, replace-one: Lap(x + S, b) against Lap(x − S, b). By hand:
// the loss L(y) = (|y − x + S| − |y − x − S|)/b is 2S/b above x + S, −2S/b below x − S and linear
// between, and δ(ε) = P(L > ε) − e^ε Q(L > ε) = 1 − e^{(ε − 2S/b)/2} for 0 ≤ ε ≤ 2S/b.
TEST(ReplaceOne, LaplaceMatchesTheHandDerivedProfile) {
  const MechanismSpec s = replace_one(parse_mechanism_spec("laplace:b=1,sensitivity=1/2"));
  const Precision p = 128;
  const Rational eps(1, 4);
  const Interval expected = Interval(1L, p) - exp(Interval(Rational(eps - 1) / 2, p));  // 2S/b = 1
  const Interval got = s.delta_at_epsilon(Interval(eps, p), 1);
  EXPECT_TRUE(got.lower() <= expected.upper() && expected.lower() <= got.upper()) << got.to_string();
  EXPECT_LT(got.width_upper(), Rational(1, 1000000));
  // pure ε of the replace-one pair: 2S/b = 1 exactly
  const Interval pure = s.epsilon_at_delta(0, 1, p);
  EXPECT_TRUE(pure.contains(1)) << pure.to_string();
}

// The discrete Laplace DLap(r) with r = 1/2 and sensitivity 1, replace-one: outputs x ± 1 apart by 2,
// so the largest likelihood ratio is r^{−2} = 4 (hand-derived): the least λ at δ = 0 is 4, ε = ln 4.
TEST(ReplaceOne, DiscreteLaplacePureEpsilonIsTwiceTheAddRemoveOne) {
  const MechanismSpec s = replace_one(parse_mechanism_spec("dlaplace:r=1/2"));
  const Interval eps = s.epsilon_at_delta(0, 1, 128);
  const Interval ln4 = log(Interval(4L, 128));
  EXPECT_TRUE(eps.lower() <= ln4.upper() && ln4.lower() <= eps.upper()) << eps.to_string();
}

// The truncated discrete Gaussian on [−3, 3] with σ² = 1 and sensitivity 1, replace-one: the laws are
// the noise shifted by 2 apart, so the outputs 4 and 5 (noise 2 and 3 of the shifted law) have no mass
// in the other: δ at a large ε is exactly their mass (e^{−2} + e^{−9/2})/Z, Z = Σ_{|x|≤3} e^{−x²/2}
// (hand-derived; every other ratio is e^{2y−2} ≤ e^4 < e^{50}).
TEST(ReplaceOne, TruncatedDiscreteGaussianCatastrophicMass) {
  const MechanismSpec s = replace_one(parse_mechanism_spec("dgauss:sigma2=1,truncation=3"));
  const Precision p = 128;
  Interval z = Interval::zero(p);
  for (long x = -3; x <= 3; ++x) z += exp(Interval(Rational(-x * x, 2), p));
  const Interval expected = (exp(Interval(-2L, p)) + exp(Interval(Rational(-9, 2), p))) / z;
  const Interval got = s.delta_at_epsilon(Interval(50L, p), 1);
  EXPECT_TRUE(got.lower() <= expected.upper() && expected.lower() <= got.upper()) << got.to_string();
}

TEST(ReplaceOne, RefusesWhatIsNotOnePair) {
  const CompositionComponent gauss{"gauss:sigma=1", parse_mechanism_spec("gauss:sigma=1"), std::nullopt, 3, std::nullopt};
  // unsampled: the replace-one spec, the same uses
  const CompositionComponent r = replace_one(gauss, std::nullopt, "--direction");
  EXPECT_EQ(r.spec->to_string(), "gauss:sigma=1,sensitivity=2");
  EXPECT_EQ(r.times, 3u);
  EXPECT_EQ(replace_one(gauss, Rational(1), "--direction").spec->to_string(), "gauss:sigma=1,sensitivity=2");
  // never sampled: identical laws
  const CompositionComponent never = replace_one(gauss, Rational(0), "--direction");
  ASSERT_TRUE(never.pair.has_value());
  EXPECT_EQ(*never.pair, PrivacyLoss::identity());
  // Poisson subsampling: refused with the documented reason, naming the front end's flag
  const std::string sampled = error_of([&] { replace_one(gauss, Rational(1, 100), "--direction"); });
  EXPECT_NE(sampled.find("direction |"), std::string::npos) << sampled;
  EXPECT_NE(sampled.find(replace_one_subsampling_reason()), std::string::npos) << sampled;
  EXPECT_NE(sampled.find("--direction"), std::string::npos) << sampled;
  // a pair is not a mechanism; a sensitivity mixture is not doubled
  const CompositionComponent pair{"pair.json", std::nullopt, PrivacyLoss::identity(), 1, std::nullopt};
  EXPECT_NE(error_of([&] { replace_one(pair, std::nullopt, "--direction"); }).find("not a mechanism"), std::string::npos);
  CompositionComponent mixed = gauss;
  mixed.mixture = parse_sensitivity_mixture("mixture:1=1/2");
  EXPECT_NE(error_of([&] { replace_one(mixed, std::nullopt, "--direction"); }).find("mixture"), std::string::npos);
  // a discrete sensitivity whose double exceeds the table limit
  const std::string big = "dlaplace:r=1/2,sensitivity=" + std::to_string(max_table_outcomes);
  EXPECT_NE(error_of([&] { replace_one(parse_mechanism_spec(big)); }).find("sensitivity |"), std::string::npos);
}

// Calibration under replace-one: one use of the Laplace mechanism is 2S/b-DP under replace-one
// (hand-derived above), so at ε = 1, δ = 0 and S = 1 the least b is 2, twice the add/remove b = 1.
TEST(ReplaceOne, CalibrationOfLaplaceFindsTwiceTheScale) {
  CalibrationTarget t{Rational(1), Rational(0), 1, std::nullopt};
  t.replace_one = true;
  CalibrationOptions o;
  o.relative_width = Rational(1, 100);
  const CalibrationResult r = calibrate("laplace", t, o);
  ASSERT_EQ(r.status, CalibrationStatus::bracketed);
  EXPECT_LT(r.lo(), 2);
  EXPECT_GE(r.hi(), 2);
  t.sampling_rate = Rational(1, 2);
  EXPECT_NE(error_of([&] { calibrate("laplace", t, o); }).find(replace_one_subsampling_reason()), std::string::npos);
}

}  // namespace
}  // namespace exactdp
