// Mechanism SPEC strings: parsing, round trips, the documented errors, and the privacy queries
// a spec answers (cross-checked against the table constructors and the closed forms they cite).
#include "exactdp/bounds/gaussian.hpp"
#include "support/exact.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/mechanism/discrete_gaussian.hpp"
#include "exactdp/mechanism/noninteractive.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

namespace exactdp {
namespace {

using testing::q;

bool overlap(const Interval& a, const Interval& b) {
  return (!a.lower_is_finite() || !b.upper_is_finite() || a.lower() <= b.upper()) &&
         (!b.lower_is_finite() || !a.upper_is_finite() || b.lower() <= a.upper());
}

TEST(MechanismSpec, ParsesParametersExactlyWithDefaults) {
  auto rr = parse_mechanism_spec("rr:epsilon=0.5,delta=1e-5");
  EXPECT_EQ(rr.family(), MechanismFamily::randomized_response);
  EXPECT_EQ(rr.parameter("epsilon"), q(1, 2));
  EXPECT_EQ(rr.parameter("delta"), q(1, 100000));
  EXPECT_FALSE(rr.parameter("lambda").has_value());
  EXPECT_EQ(rr.to_string(), "rr:epsilon=1/2,delta=1/100000");

  auto dl = parse_mechanism_spec("dlaplace:sensitivity=2,r=1/2");
  EXPECT_EQ(dl.to_string(), "dlaplace:r=1/2,sensitivity=2");  // canonical order
  EXPECT_EQ(parse_mechanism_spec("dlaplace:r=0.25").parameter("sensitivity"), Rational(1));
  EXPECT_EQ(parse_mechanism_spec("rr:lambda=3").parameter("delta"), Rational(0));
  EXPECT_EQ(parse_mechanism_spec("laplace:b=2,sensitivity=1/2").parameter("sensitivity"), q(1, 2));
  EXPECT_EQ(parse_mechanism_spec(" krr: k = 4 , lambda = 3 ").to_string(), "krr:k=4,lambda=3");
}

TEST(MechanismSpec, GoodSpecsRoundTrip) {
  for (const char* text : {"rr:lambda=3", "rr:lambda=3/2,delta=1/10", "rr:epsilon=0.5", "rr:epsilon=0,delta=1",
                           "krr:k=4,lambda=3", "krr:k=3,epsilon=1", "dlaplace:r=1/2,sensitivity=2",
                           "dlaplace:a=1/2,sensitivity=3", "dlaplace:epsilon=1.5,sensitivity=1", "dgauss:sigma2=4", "dgauss:sigma2=1/2,sensitivity=2",
                           "laplace:b=2", "gauss:sigma=3/2,sensitivity=2"}) {
    const MechanismSpec spec = parse_mechanism_spec(text);
    EXPECT_EQ(parse_mechanism_spec(spec.to_string()), spec) << text;
    EXPECT_FALSE(spec.describe().empty()) << text;
  }
}

struct BadSpec {
  const char* text;
  const char* field;
  const char* value;
};

// Each documented error: the field names the key as "family:key", the value is the offending text.
TEST(MechanismSpec, BadSpecsNameTheFieldAndValue) {
  const std::vector<BadSpec> cases{
      {"foo:x=1", "mechanism", "foo"},
      {"", "mechanism", ""},
      {"rr:lambda=1/2", "rr:lambda", "1/2"},
      {"rr:lambda=0.5", "rr:lambda", "0.5"},
      {"rr:lambda=abc", "rr:lambda", "abc"},
      {"rr:lambda=2,lambda=3", "rr:lambda", "lambda=3"},
      {"rr:lamda=2", "rr:lamda", "lamda=2"},
      {"rr:delta=0.1", "rr:lambda", ""},
      {"rr", "rr:lambda", ""},
      {"rr:lambda", "rr", "lambda"},
      {"rr:lambda=2,", "rr", ""},
      {"rr:lambda=2,delta=1.5", "rr:delta", "1.5"},
      {"rr:lambda=2,delta=-0.1", "rr:delta", "-0.1"},
      {"rr:lambda=2,epsilon=1", "rr:epsilon", "1"},
      {"rr:epsilon=-1", "rr:epsilon", "-1"},
      {"krr:k=0,lambda=2", "krr:k", "0"},
      {"krr:k=2.5,lambda=2", "krr:k", "2.5"},
      {"krr:lambda=2", "krr:k", ""},
      {"krr:k=3,lambda=1/3", "krr:lambda", "1/3"},
      {"dlaplace:r=1", "dlaplace:r", "1"},
      {"dlaplace:r=-1/2", "dlaplace:r", "-1/2"},
      {"dlaplace:r=3/2", "dlaplace:r", "3/2"},
      {"dlaplace:epsilon=0", "dlaplace:epsilon", "0"},
      {"dlaplace:r=1/2,epsilon=1", "dlaplace:epsilon", "1"},
      {"dlaplace:a=1,epsilon=1", "dlaplace:epsilon", "1"},
      {"dlaplace:a=0", "dlaplace:a", "0"},
      {"dlaplace:epsilon=1.5,sensitivity=3", "dlaplace:epsilon", "epsilon=1.5,sensitivity=3"},
      {"dlaplace:r=1/2,sensitivity=1.5", "dlaplace:sensitivity", "1.5"},
      {"dlaplace:r=1/2,sensitivity=-2", "dlaplace:sensitivity", "-2"},
      {"dgauss:sigma2=-1", "dgauss:sigma2", "-1"},
      {"dgauss:sensitivity=1", "dgauss:sigma2", ""},
      {"laplace:b=-1", "laplace:b", "-1"},
      {"laplace:b=1,sensitivity=-1", "laplace:sensitivity", "-1"},
      {"gauss:sigma=-1", "gauss:sigma", "-1"},
      {"gauss:sigma2=1", "gauss:sigma2", "sigma2=1"},
  };
  for (const auto& c : cases) {
    try {
      parse_mechanism_spec(c.text);
      ADD_FAILURE() << "accepted: " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.field(), c.field) << c.text << " -> " << e.what();
      EXPECT_EQ(e.value(), c.value) << c.text << " -> " << e.what();
      EXPECT_EQ(e.where(), "") << c.text;
      EXPECT_FALSE(e.why().empty());
    }
  }
  try {
    parse_mechanism_spec("rr:lambda=1/2");
  } catch (const Error& e) {
    EXPECT_EQ(e.why(), "lambda = e^epsilon must be at least 1");
    EXPECT_EQ(std::string(e.in("--mechanism").what()),
              "--mechanism: field \"rr:lambda\": value \"1/2\": lambda = e^epsilon must be at least 1");
  }
}

TEST(MechanismSpec, ExactLossOnlyForRationalTables) {
  EXPECT_TRUE(parse_mechanism_spec("rr:lambda=3").exact_loss().has_value());
  EXPECT_TRUE(parse_mechanism_spec("rr:epsilon=0,delta=1/2").exact_loss().has_value());  // λ = e^0 = 1
  EXPECT_FALSE(parse_mechanism_spec("rr:epsilon=0.5").exact_loss().has_value());
  EXPECT_TRUE(parse_mechanism_spec("krr:k=4,lambda=2").exact_loss().has_value());
  EXPECT_TRUE(parse_mechanism_spec("dlaplace:r=1/2,sensitivity=2").exact_loss().has_value());
  EXPECT_FALSE(parse_mechanism_spec("dlaplace:epsilon=1").exact_loss().has_value());
  EXPECT_FALSE(parse_mechanism_spec("dgauss:sigma2=4").exact_loss().has_value());
  EXPECT_FALSE(parse_mechanism_spec("gauss:sigma=1").certified_loss().has_value());
  EXPECT_TRUE(parse_mechanism_spec("krr:k=4,epsilon=1").certified_loss().has_value());

  EXPECT_EQ(*parse_mechanism_spec("rr:lambda=3,delta=1/10").exact_loss(),
            privacy_loss(randomized_response(3, q(1, 10))));
  EXPECT_EQ(*parse_mechanism_spec("dlaplace:r=1/3,sensitivity=2").exact_loss(),
            privacy_loss(discrete_laplace_pair(q(1, 3), 2)));
  EXPECT_EQ(*parse_mechanism_spec("krr:k=6,lambda=5/2").exact_loss(), k_ary_randomized_response_loss(6, q(5, 2)));
}

TEST(MechanismSpec, DpGuarantees) {
  auto g = *parse_mechanism_spec("dlaplace:r=1/2,sensitivity=3").dp_guarantee();
  EXPECT_EQ(g.epsilon, PrivacyParameter::from_lambda(8));  // λ = r^{−Δ}
  EXPECT_EQ(g.delta, 0);
  auto rr = *parse_mechanism_spec("rr:epsilon=0.5,delta=1e-5").dp_guarantee();
  EXPECT_EQ(rr.epsilon, PrivacyParameter::from_epsilon(q(1, 2)));
  EXPECT_EQ(rr.delta, q(1, 100000));
  EXPECT_EQ(parse_mechanism_spec("laplace:b=4,sensitivity=2").dp_guarantee()->epsilon,
            PrivacyParameter::from_epsilon(q(1, 2)));
  EXPECT_FALSE(parse_mechanism_spec("gauss:sigma=1").dp_guarantee().has_value());
}

// Exact specs: the certified answers contain the exact profile and least ε of the self-composed
// table (E.3 reference: ten-fold RR_{ln(11/10)} at δ = 1/1000 has ε ≈ 0.7139800).
TEST(MechanismSpec, ExactQueriesMatchTheTables) {
  const auto spec = parse_mechanism_spec("rr:lambda=11/10");
  const Interval eps = spec.epsilon_at_delta(q(1, 1000), 10);
  EXPECT_LT(q(7139799, 10000000), eps.lower());
  EXPECT_GT(q(7139801, 10000000), eps.upper());
  const auto dl = parse_mechanism_spec("dlaplace:r=1/2,sensitivity=2");
  const PrivacyProfile p3(privacy_loss(discrete_laplace_pair(q(1, 2), 2)).self_compose(3));
  EXPECT_TRUE(dl.delta_at_epsilon(log(Interval(Rational(3))), 3).contains(p3.delta(3)));
  EXPECT_TRUE(dl.renyi(2).contains(Rational(0)) == false);
  EXPECT_TRUE(overlap(dl.renyi(2), renyi_divergence(privacy_loss(discrete_laplace_pair(q(1, 2), 2)), 2)));
  EXPECT_FALSE(parse_mechanism_spec("rr:lambda=2,delta=1/10").renyi(2).upper_is_finite());  // δ > 0 ⇒ ∞
  EXPECT_FALSE(parse_mechanism_spec("rr:lambda=2,delta=1/10").epsilon_at_delta(q(1, 20), 1).lower_is_finite());
}

// The Gaussian's least ε is a bisection whose width follows the precision asked for (the audit
// raises the precision to decide a claim close to the truth): at 256 bits the enclosure is within
// 2^-128 and inside the 128-bit one, and both ends are certified by the δ of GDP (the closed form
// of DRS22 Cor 2.13, evaluated separately): δ_μ(hi) ≤ δ < δ_μ(lo).
TEST(MechanismSpec, GaussianLeastEpsilonNarrowsWithPrecision) {
  const auto g = parse_mechanism_spec("gauss:sigma=1,sensitivity=1");
  const Rational delta = parse_rational("1e-3");
  const Interval coarse = g.epsilon_at_delta(delta, 1, 128), fine = g.epsilon_at_delta(delta, 1, 256);
  EXPECT_LE(fine.upper() - fine.lower(), pow2(-128));
  EXPECT_LE(coarse.lower(), fine.lower());
  EXPECT_GE(coarse.upper(), fine.upper());
  EXPECT_LE(gaussian_dp_delta(Interval(Rational(1), 512), Interval(fine.upper(), 512)).upper(), delta);
  EXPECT_GT(gaussian_dp_delta(Interval(Rational(1), 512), Interval(fine.lower(), 512)).lower(), delta);
}

// The command line's example: rr:epsilon=0.5, ten uses, δ = 1e-5 (mpmath reference), and the
// heterogeneous composition with dlaplace:r=1/2,sensitivity=2 through certified losses.
TEST(MechanismSpec, CertifiedRandomizedResponseByEpsilon) {
  const auto rr = parse_mechanism_spec("rr:epsilon=0.5");
  const Interval eps = rr.epsilon_at_delta(parse_rational("1e-5"), 10);
  EXPECT_LE(eps.lower(), parse_rational("4.998854120412369118294705173"));
  EXPECT_GE(eps.upper(), parse_rational("4.998854120412369118294705172"));
  EXPECT_LT(eps.width_upper(), parse_rational("1e-25"));
  const Interval d = rr.delta_at_epsilon(Interval(Rational(1)), 10);
  EXPECT_LE(d.lower(), parse_rational("0.331678482928696853594663695"));
  EXPECT_GE(d.upper(), parse_rational("0.331678482928696853594663694"));

  const auto dl = parse_mechanism_spec("dlaplace:r=1/2,sensitivity=2");
  const CertifiedLoss both = compose(rr.certified_loss()->self_compose(10), *dl.certified_loss());
  const Interval at_ln2 = both.delta_at_epsilon(log(Interval(Rational(2))));
  EXPECT_GE(at_ln2.upper(), rr.delta_at_epsilon(log(Interval(Rational(2))), 10).lower());
  EXPECT_TRUE(both.least_epsilon(parse_rational("1e-5")).upper_is_finite());
}

TEST(MechanismSpec, CertifiedContinuousAndDiscreteGaussian) {
  const auto dg = parse_mechanism_spec("dgauss:sigma2=2");
  EXPECT_EQ(dg.zcdp(), q(1, 4));
  EXPECT_TRUE(overlap(dg.delta_at_epsilon(Interval(q(1, 2))), discrete_gaussian_delta(2, 1, q(1, 2))));
  EXPECT_TRUE(dg.renyi(2).contains(Rational(1, 2)));  // (α−1)Δ ∈ ℤ ⇒ αΔ²/(2σ²) (CKS20)
  EXPECT_FALSE(dg.supports_composition(2));
  try {
    dg.delta_at_epsilon(Interval(Rational(1)), 2);
    ADD_FAILURE() << "dgauss composed";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "times");
    EXPECT_EQ(e.value(), "2");
  }

  // GDP composes exactly: four uses of σ = 2 are one use of σ = 1 (μ = √4·1/2 = 1)
  const auto g2 = parse_mechanism_spec("gauss:sigma=2"), g1 = parse_mechanism_spec("gauss:sigma=1");
  EXPECT_TRUE(overlap(g2.delta_at_epsilon(Interval(Rational(1)), 4), g1.delta_at_epsilon(Interval(Rational(1)))));
  EXPECT_TRUE(overlap(g1.delta_at_epsilon(Interval(Rational(1))), gaussian_dp_delta(Interval(Rational(1)), Interval(Rational(1)))));
  EXPECT_TRUE(g1.renyi(3).contains(q(3, 2)));
  const Interval geps = g1.epsilon_at_delta(parse_rational("1e-5"));
  EXPECT_LE(gaussian_dp_delta(Interval(Rational(1)), Interval(geps.upper())).upper(), parse_rational("1e-5"));
  EXPECT_FALSE(g1.epsilon_at_delta(0).lower_is_finite());

  const auto lap = parse_mechanism_spec("laplace:b=2,sensitivity=3");
  const Interval leps = lap.epsilon_at_delta(q(1, 10));
  EXPECT_TRUE(overlap(lap.delta_at_epsilon(leps), Interval(q(1, 10))));
  EXPECT_TRUE(lap.delta_at_epsilon(Interval(Rational(2))).contains(Rational(0)));  // ε ≥ ε₀ = 3/2
  EXPECT_THROW(lap.epsilon_at_delta(q(1, 10), 2), Error);
}

TEST(MechanismSpec, QueriesRejectBadArguments) {
  const auto rr = parse_mechanism_spec("rr:lambda=2");
  EXPECT_THROW(rr.delta_at_epsilon(Interval(Rational(1)), 0), Error);
  EXPECT_THROW(rr.delta_at_epsilon(Interval::infinity(), 1), Error);
  EXPECT_THROW(rr.epsilon_at_delta(Rational(2), 1), Error);
  // ε < 0 is answered (issue 20): RR_λ=2 is P = (2/3, 1/3), Q = (1/3, 2/3); at λ = e^{−1} < 1/2 every
  // outcome has p > λq, so δ = 1 − e^{−1} = 0.632120558828558 (the identity's lower bound, reached)
  EXPECT_LT(rr.delta_at_epsilon(Interval(Rational(-1)), 1).lower(), Rational(mpz_class("632120558828559"), mpz_class("1000000000000000")));
  EXPECT_GT(rr.delta_at_epsilon(Interval(Rational(-1)), 1).upper(), Rational(mpz_class("632120558828557"), mpz_class("1000000000000000")));
  EXPECT_THROW(rr.renyi(1), Error);
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

// dlaplace:epsilon=E,sensitivity=S meant r = e^(−E/S), so E was a·S and not dp-accounting's a:
// the spelling is refused with both readings, and a= names dp-accounting's parameter (issue 20).
TEST(MechanismSpec, DiscreteLaplaceParameterCannotHideAFactor) {
  try {
    parse_mechanism_spec("dlaplace:epsilon=3,sensitivity=2");
    FAIL() << "the ambiguous spelling was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dlaplace:a=3/2,sensitivity=2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dlaplace:a=3,sensitivity=2"), std::string::npos) << e.what();
  }
  // a = 1 with sensitivity 2: r = e^(−1), a 2-DP mechanism (hand-derived: ε = a·S)
  const auto dl = parse_mechanism_spec("dlaplace:a=1,sensitivity=2");
  EXPECT_EQ(dl.to_string(), "dlaplace:a=1,sensitivity=2");
  EXPECT_EQ(*dl.dp_guarantee()->epsilon.exact_epsilon(), Rational(2));
  // δ(0) is the total variation of DLap(r) and its shift by 2: p(0) + p(−1) = 1 − r (hand-derived
  // from the pmf (1 − r)/(1 + r)·r^|x|), here 1 − e^(−1)
  const Interval tv = dl.delta_at_epsilon(Interval::zero(128));
  const Interval expected = Interval(Rational(1), 128) - exp(Interval(Rational(-1), 128));
  EXPECT_LE(tv.lower(), expected.upper());
  EXPECT_GE(tv.upper(), expected.lower());
  EXPECT_LT(tv.upper() - tv.lower(), Rational(1, 1000000));
  // with sensitivity 1, a and epsilon are the same parameter
  EXPECT_EQ(*parse_mechanism_spec("dlaplace:a=1/2").dp_guarantee()->epsilon.exact_epsilon(), Rational(1, 2));
  EXPECT_EQ(parse_mechanism_spec("dlaplace:a=1/2").epsilon_at_delta(Rational(1, 1000)).upper(),
            parse_mechanism_spec("dlaplace:epsilon=1/2").epsilon_at_delta(Rational(1, 1000)).upper());
}

}  // namespace
}  // namespace exactdp
