// δ(λ(r)) for every r by parametric backward induction (parametric::worst_case_delta_for_all,
// accounting/parametric_check.hpp's approximate claims): against hand-derived closed forms for
// randomized response and its k-fold compositions, and against the numeric engine
// (worst_case_hockey_stick on the spec instantiated at a random rational r) on random small
// parametric tables.
#include "exactdp/accounting/parametric_check.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/parametric_spec.hpp"
#include "exactdp/parametric/parametric_game.hpp"
#include "support/exact.hpp"
#include "support/parametric_tables.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <fstream>
#include <sstream>

namespace exactdp {
namespace {

using parametric::parse_rational_function;
using parametric::RationalFunction;

/// n/d in lowest terms (tests/support/exact.hpp).
Rational fraction(long n, long d) { return testing::q(n, d); }

RationalFunction f(const std::string& text) { return parse_rational_function(text, "r"); }

/// k answers of RR with p = r about a static secret bit, over (1/2, 1) (the adversary has one
/// message: no adaptivity).
std::string rr_static(int k) {
  std::ostringstream os;
  os << R"({"format": "exactdp/1", "name": "RR^k", "horizon": )" << k << R"(,
  "parameters": {"r": {"interval": ["1/2", "1"], "open": true}},
  "neighbours": {"type": "static", "worlds": ["x", "x'"]},
  "mechanism": {"type": "table", "initial": {"x": "b0", "x'": "b1"}, "messages": ["q"],
    "states": {"b0": {"q": [{"p": "r", "answer": "0", "next": "b0"}, {"p": "1-r", "answer": "1", "next": "b0"}]},
               "b1": {"q": [{"p": "1-r", "answer": "0", "next": "b1"}, {"p": "r", "answer": "1", "next": "b1"}]}}}})";
  return os.str();
}

long binomial(int n, int k) {
  long c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

/// By hand (the views of RR^k are the answer strings; a string with i answers different from the
/// bit has probability r^(k−i)(1−r)^i in the bit's world and r^i(1−r)^(k−i) in the other, and the
/// C(k, i) strings with the same i have equal terms):
///   δ(λ) = Σ_i C(k, i)·(r^(k−i)(1−r)^i − λ·r^i(1−r)^(k−i))⁺,
/// the same in both directions. On a piece, the function is the sum of the terms positive at the
/// piece's sample (their signs are constant on the piece when the partition is right).
RationalFunction rr_closed_form_at(int k, const RationalFunction& lambda, const Rational& sample) {
  const RationalFunction r = RationalFunction::variable(), q = RationalFunction(1) - r;
  RationalFunction sum;
  for (int i = 0; i <= k; ++i) {
    const RationalFunction term = RationalFunction(binomial(k, i)) * (r.pow(k - i) * q.pow(i) - lambda * r.pow(i) * q.pow(k - i));
    if (sgn(term.evaluate(sample)) > 0) sum += term;
  }
  return sum;
}

TEST(ParametricDelta, RandomizedResponseOneUseClosedForm) {
  // one use: δ(λ) = max(0, r − λ(1−r)) on each side (the other term (1−r) − λr is negative for
  // r > 1/2, λ ≥ 1). At λ = 2: 0 on (1/2, 2/3], 3r − 2 on (2/3, 1) — one rational breakpoint.
  const ParametricSpec spec = parse_parametric_spec(rr_static(1), "rr1");
  const auto w = parametric::worst_case_delta_for_all(spec.game, f("2"), 1);
  for (std::size_t k = 0; k < w.partition.pieces.size(); ++k) {
    const auto& p = w.partition.pieces[k];
    ASSERT_TRUE(p.sample.has_value());  // every end is rational here
    const RationalFunction expected = *p.sample > fraction(2, 3) ? f("3*r-2") : RationalFunction();
    EXPECT_EQ(w.delta[k], expected) << p.to_string();
    EXPECT_EQ(w.directional[k][0], w.directional[k][1]) << "RR is symmetric in the two worlds";
  }
  bool breakpoint = false;
  for (const auto& p : w.partition.pieces) breakpoint = breakpoint || (p.is_point() && p.sample == fraction(2, 3));
  EXPECT_TRUE(breakpoint);
}

TEST(ParametricDelta, RandomizedResponseCompositionsClosedForm) {
  // k = 1, 2, 3 and λ constant, rational in r, and the KOV points λ = (r/(1−r))^j: the function of
  // every piece is the hand-derived sum of its positive terms
  for (int k = 1; k <= 3; ++k) {
    const ParametricSpec spec = parse_parametric_spec(rr_static(k), "rr");
    for (const std::string lambda : {"1", "2", "1+r", "3/2+r^2", "r/(1-r)", "(r/(1-r))^2"}) {
      const RationalFunction l = f(lambda);
      const auto w = parametric::worst_case_delta_for_all(spec.game, l, static_cast<unsigned>(k));
      std::size_t open = 0;
      for (std::size_t i = 0; i < w.partition.pieces.size(); ++i) {
        const auto& p = w.partition.pieces[i];
        if (p.is_point() || !p.sample) continue;
        ++open;
        EXPECT_EQ(w.delta[i], rr_closed_form_at(k, l, *p.sample)) << "k = " << k << ", λ = " << lambda << ", piece " << p.to_string();
      }
      EXPECT_GT(open, 0u);
    }
  }
}

TEST(ParametricDelta, RandomizedResponseSquaredBreaksAtAnAlgebraicPoint) {
  // RR², λ = 2: δ = (r² − 2(1−r)²)⁺ (the middle term 2r(1−r)(1 − λ) is negative), which turns
  // positive at the root of r² − 4r + 2 = 0 in (1/2, 1), r = 2 − √2 ≈ 0.585786 (by hand)
  const ParametricSpec spec = parse_parametric_spec(rr_static(2), "rr2");
  const auto w = parametric::worst_case_delta_for_all(spec.game, f("2"), 2);
  bool found = false;
  for (std::size_t i = 0; i < w.partition.pieces.size(); ++i) {
    const auto& p = w.partition.pieces[i];
    if (!p.is_point() || p.lower.polynomial != std::vector<Integer>{2, -4, 1}) continue;
    found = true;
    EXPECT_LT(p.lower.lower, fraction(585787, 1000000));
    EXPECT_GT(p.lower.upper, fraction(585785, 1000000));
    EXPECT_EQ(w.delta[i - 1], RationalFunction());
    EXPECT_EQ(w.delta[i + 1], f("r^2-2*(1-r)^2"));
  }
  EXPECT_TRUE(found);
}

TEST(ParametricDelta, EventLevelStreamIsOneUseAtEveryHorizon) {
  // the bundled event-level RR stream (adaptive: four message pairs per round, one differing pair
  // in total): the rounds with equal messages have equal laws in both worlds, so the hockey-stick
  // is that of the single differing use, max(0, r − λ(1−r)), at every horizon (by hand)
  std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/spec/mechanisms/rr-parametric.json");
  std::stringstream buf;
  buf << in.rdbuf();
  const ParametricSpec spec = parse_parametric_spec(buf.str(), "rr-parametric.json");
  for (unsigned horizon = 1; horizon <= 3; ++horizon)
    for (const std::string lambda : {"2", "1+r", "4/3"}) {
      const RationalFunction l = f(lambda);
      const auto w = parametric::worst_case_delta_for_all(spec.game, l, horizon);
      for (std::size_t i = 0; i < w.partition.pieces.size(); ++i) {
        const auto& p = w.partition.pieces[i];
        if (p.is_point() || !p.sample) continue;
        const RationalFunction one = RationalFunction::variable() - l * (RationalFunction(1) - RationalFunction::variable());
        EXPECT_EQ(w.delta[i], sgn(one.evaluate(*p.sample)) > 0 ? one : RationalFunction())
            << "horizon " << horizon << ", λ = " << lambda << ", " << p.to_string();
      }
    }
}

TEST(ParametricDelta, ApproximateClaimFailsExactlyWhereTheClosedFormExceedsDelta) {
  // event-level RR, λ = 2, δ = r/4: 3r − 2 ≤ r/4 iff r ≤ 8/11 (by hand); fails exactly on (8/11, 1)
  std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/spec/mechanisms/rr-parametric.json");
  std::stringstream buf;
  buf << in.rdbuf();
  const ParametricSpec spec = parse_parametric_spec(buf.str(), "rr-parametric.json");
  ParametricCheckOptions o;
  const auto v = check_approximate_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, f("2"), f("r/4"), o);
  ASSERT_EQ(v.verdict, Verdict::refuted);
  ASSERT_EQ(v.decision.failing.size(), 1u);
  EXPECT_EQ(v.decision.failing[0].lower.rational(), fraction(8, 11));
  EXPECT_FALSE(v.decision.failing[0].lower_closed);  // at 8/11 δ equals the claim: holds
  EXPECT_EQ(v.decision.failing[0].upper.rational(), Rational(1));
  ASSERT_EQ(v.witnesses.size(), 1u);
  EXPECT_EQ(v.witnesses[0].numeric.verdict, Verdict::refuted);
  EXPECT_FALSE(v.delta_checks.empty());
  // δ = r holds for every r: 3r − 2 ≤ r iff r ≤ 1 (by hand)
  const auto holds = check_approximate_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, f("2"), f("r"), o);
  EXPECT_EQ(holds.verdict, Verdict::holds);
  // δ = 0 is the pure decision (the same verdict as check_pure_dp_for_all: λ = 2 fails above 2/3)
  const auto pure = check_approximate_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, f("2"), f("0"), o);
  ASSERT_EQ(pure.decision.failing.size(), 1u);
  EXPECT_EQ(pure.decision.failing[0].lower.rational(), fraction(2, 3));
}

TEST(ParametricDelta, BadClaimsAreErrors) {
  const ParametricSpec spec = parse_parametric_spec(rr_static(1), "rr1");
  auto run = [&](const std::string& lambda, const std::string& delta) {
    try {
      check_approximate_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); }, f(lambda), f(delta), {});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(run("2", "r-3/4").find("δ must be at least 0"), std::string::npos);
  EXPECT_NE(run("2", "2*r").find("1 − δ must be at least 0"), std::string::npos);
  EXPECT_NE(run("r", "1/10").find("λ must be at least 1"), std::string::npos);
  EXPECT_NE(run("1/(4*r-3)", "1/10").find("denominator vanishes"), std::string::npos);
}

// ---------------------------------------------------------------- random small parametric tables (support/parametric_tables.hpp)

RC_GTEST_PROP(ParametricDelta, EqualsTheNumericEngineAtRandomRationalPoints, ()) {
  // the piecewise δ(λ(r)) at a random rational r (in the interior of its piece, or a rational
  // point piece) equals worst_case_hockey_stick on the table instantiated at r, in both directions
  const std::string text = testing::random_parametric_table_spec();
  const ParametricSpec spec = parse_parametric_spec(text, "random.json");
  const std::vector<std::string> lambdas = {"1", "2", "1+r", "1/r", "3/2+r^2", "(2-r)/(1-r/2)"};
  const std::string lambda = lambdas[*rc::gen::inRange<std::size_t>(0, lambdas.size())];
  const auto w = parametric::worst_case_delta_for_all(spec.game, f(lambda), spec.game.horizon);
  for (int trial = 0; trial < 6; ++trial) {
    const Rational r = fraction(*rc::gen::inRange(1, 200), 200);
    const auto& pieces = w.partition.pieces;
    std::optional<std::size_t> piece;
    for (std::size_t k = 0; k < pieces.size(); ++k)
      if (pieces[k].is_point() ? pieces[k].sample == r : (r > pieces[k].lower.upper && r < pieces[k].upper.lower)) piece = k;
    if (!piece) continue;  // inside an isolating interval: not located by this simple lookup
    EngineOptions o;
    o.horizon = spec.game.horizon;
    const auto numeric = worst_case_hockey_stick(spec.instantiate(r), f(lambda).evaluate(r), o);
    RC_ASSERT(w.directional[*piece][0].evaluate(r) == numeric.forward);
    RC_ASSERT(w.directional[*piece][1].evaluate(r) == numeric.backward);
    RC_ASSERT(w.delta[*piece].evaluate(r) == numeric.delta());
  }
}

}  // namespace
}  // namespace exactdp
