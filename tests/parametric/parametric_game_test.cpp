// The pure-DP claim for every value of a parameter (parametric/parametric_game.hpp,
// accounting/parametric_check.hpp, io/parametric_spec.hpp): against hand-derived closed forms
// for randomized response and its compositions, and against the numeric engine at many rational
// points of each piece (the oracle: the spec instantiated at that point).
#include "exactdp/accounting/parametric_check.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/parametric_spec.hpp"
#include "exactdp/parametric/parametric_game.hpp"
#include "support/exact.hpp"

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

/// k fresh answers of RR with p = r about a static secret bit (worlds x: bit 0, x': bit 1), over
/// (1/2, 1). By hand: each answer has ratio r/(1−r) or its inverse, answers are independent given
/// the bit, so the worst view (all answers equal to the bit) has ratio (r/(1−r))^k.
std::string rr_static(int k, const std::string& lo = "1/2", const std::string& hi = "1") {
  std::ostringstream os;
  os << R"({"format": "exactdp/1", "name": "RR^k", "horizon": )" << k << R"(,
  "parameters": {"r": {"interval": [")" << lo << R"(", ")" << hi << R"("], "open": true}},
  "neighbours": {"type": "static", "worlds": ["x", "x'"]},
  "mechanism": {"type": "table", "initial": {"x": "b0", "x'": "b1"}, "messages": ["q"],
    "states": {"b0": {"q": [{"p": "r", "answer": "0", "next": "b0"}, {"p": "1-r", "answer": "1", "next": "b0"}]},
               "b1": {"q": [{"p": "1-r", "answer": "0", "next": "b1"}, {"p": "r", "answer": "1", "next": "b1"}]}}}})";
  return os.str();
}

ParametricClaimVerdict check(const ParametricSpec& spec, const std::string& lambda, bool cross = true) {
  ParametricCheckOptions o;
  o.cross_check = cross;
  return check_pure_dp_for_all(spec.game, [&](const Rational& r) { return spec.instantiate(r); },
                               parse_rational_function(lambda, spec.game.parameter), o);
}

TEST(ParametricSpec, InstantiatedIsTheNumericSpec) {
  // the worst ratio of the instantiated spec is the closed form (r/(1−r))^k at every point tried
  for (int k = 1; k <= 3; ++k) {
    const ParametricSpec spec = parse_parametric_spec(rr_static(k), "rr.json");
    for (const Rational& r : {fraction(3, 5), fraction(2, 3), fraction(9, 10)}) {
      const Game g = spec.instantiate(r);
      const auto ratio = worst_case_ratio(g);
      EXPECT_EQ(ratio.max(), ExtendedRational(pow(r / (1 - r), static_cast<unsigned long>(k)))) << "k = " << k;
    }
  }
}

TEST(ParametricCheck, RandomizedResponseCompositionsClosedForm) {
  for (int k = 1; k <= 3; ++k) {
    const ParametricSpec spec = parse_parametric_spec(rr_static(k), "rr.json");
    const std::string exact = "(r/(1-r))^" + std::to_string(k);
    const auto holds = check(spec, exact);
    EXPECT_EQ(holds.verdict, Verdict::holds) << exact;
    EXPECT_FALSE(holds.cross_checks.empty());
    // a slightly smaller λ fails for every r: (r/(1−r))^k · (1 − 1/100) < the worst ratio everywhere
    // (on (3/5, 1), where it is still ≥ 1 as a λ must be)
    const ParametricSpec above = parse_parametric_spec(rr_static(k, "3/5"), "rr.json");
    const auto fails = check(above, exact + "*99/100", false);
    ASSERT_EQ(fails.verdict, Verdict::refuted);
    ASSERT_EQ(fails.decision.failing.size(), 1u);
    EXPECT_EQ(fails.decision.failing[0].lower.rational(), Rational(3, 5));
    EXPECT_EQ(fails.decision.failing[0].upper.rational(), Rational(1));
    ASSERT_EQ(fails.witnesses.size(), 1u);
    EXPECT_EQ(fails.witnesses[0].numeric.verdict, Verdict::refuted);
  }
}

TEST(ParametricCheck, ConstantLambdaFailsBeyondARationalOrAlgebraicThreshold) {
  // RR²: worst ratio (r/(1−r))². λ = 4 fails iff r/(1−r) > 2 iff r > 2/3 (rational end);
  // λ = 2 fails iff r/(1−r) > √2 iff r > 2 − √2 ≈ 0.585786, the root of r² − 4r + 2 (by hand)
  const ParametricSpec spec = parse_parametric_spec(rr_static(2), "rr.json");
  const auto four = check(spec, "4");
  ASSERT_EQ(four.decision.failing.size(), 1u);
  EXPECT_EQ(four.decision.failing[0].lower.rational(), Rational(2, 3));
  EXPECT_FALSE(four.decision.failing[0].lower_closed);  // at r = 2/3 the ratio is exactly 4: holds
  EXPECT_EQ(four.decision.failing[0].upper.rational(), Rational(1));
  const auto two = check(spec, "2");
  ASSERT_EQ(two.decision.failing.size(), 1u);
  const auto& end = two.decision.failing[0].lower;
  EXPECT_FALSE(end.is_rational());
  EXPECT_EQ(end.polynomial, (std::vector<Integer>{2, -4, 1}));
  EXPECT_LT(end.lower, fraction(585787, 1000000));
  EXPECT_GT(end.upper, fraction(585785, 1000000));
  ASSERT_EQ(two.witnesses.size(), 1u);
  EXPECT_EQ(two.witnesses[0].numeric.verdict, Verdict::refuted);
}

TEST(ParametricCheck, EventLevelStreamUsesTheRelation) {
  // the bundled event-level RR stream: one differing pair in total, so the ratio is r/(1−r) at every
  // horizon (by hand: the other answers have equal laws in both worlds)
  std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/spec/mechanisms/rr-parametric.json");
  std::stringstream buf;
  buf << in.rdbuf();
  const ParametricSpec spec = parse_parametric_spec(buf.str(), "rr-parametric.json");
  EXPECT_EQ(check(spec, "r/(1-r)").verdict, Verdict::holds);
  const auto three = check(spec, "3");
  ASSERT_EQ(three.decision.failing.size(), 1u);
  EXPECT_EQ(three.decision.failing[0].lower.rational(), Rational(3, 4));
}

TEST(ParametricStats, NodesAndViewPairsCountedByHand) {
  // docs/parametric.md "JSON": `nodes` are inner nodes after merging proportional belief pairs,
  // `view_pairs` the transcript pairs up to a factor > 0 on the range and up to order; the same
  // counts in the pure decision, the worst ratio and the δ induction.
  // By hand, k answers of RR with p = r about a static bit: after j answers the belief pairs are
  // (r^a(1−r)^{j−a}, r^{j−a}(1−r)^a), a = 0 … j, proportional exactly when their ratios
  // (r/(1−r))^{2a−j} are equal: j + 1 inner nodes at depth j, k(k+1)/2 in all; a transcript's ratio is
  // (r/(1−r))^{2a−k}, one class per value of |2a − k|: ⌊k/2⌋ + 1 classes.
  for (int k = 1; k <= 4; ++k) {
    const ParametricSpec spec = parse_parametric_spec(rr_static(k), "rr.json");
    const auto pure = check(spec, "(r/(1-r))^" + std::to_string(k), false).decision;
    const auto ratio = parametric::worst_case_ratio_for_all(spec.game, spec.game.horizon);
    const auto delta = parametric::worst_case_delta_for_all(spec.game, RationalFunction(2), spec.game.horizon);
    for (const auto& [nodes, pairs] : {std::pair{pure.nodes, pure.view_pairs}, std::pair{ratio.nodes, ratio.view_pairs},
                                       std::pair{delta.nodes, delta.view_pairs}}) {
      EXPECT_EQ(nodes, static_cast<std::uint64_t>(k * (k + 1) / 2)) << "k = " << k;
      EXPECT_EQ(pairs, static_cast<std::size_t>(k / 2 + 1)) << "k = " << k;
    }
  }
  // By hand, the event-level stream of rr-parametric.json (one differing pair in total): after
  // identical pairs one node ((r, r) ∝ (1−r, 1−r)), after the differing pair two ((r, 1−r) and
  // (1−r, r), not proportional) whatever came before: 1 + 3(T − 1) inner nodes; two classes of
  // transcripts (ratio 1, and r/(1−r) or its inverse) at every horizon.
  std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/spec/mechanisms/rr-parametric.json");
  std::stringstream buf;
  buf << in.rdbuf();
  const ParametricSpec stream = parse_parametric_spec(buf.str(), "rr-parametric.json");
  for (unsigned horizon = 1; horizon <= 3; ++horizon) {
    const auto pure = parametric::check_pure_dp_for_all(stream.game, parse_rational_function("r/(1-r)", "r"), horizon);
    EXPECT_EQ(pure.nodes, 1u + 3u * (horizon - 1)) << "horizon " << horizon;
    EXPECT_EQ(pure.view_pairs, 2u) << "horizon " << horizon;
    const auto delta = parametric::worst_case_delta_for_all(stream.game, RationalFunction(2), horizon);
    EXPECT_EQ(delta.nodes, pure.nodes) << "horizon " << horizon;
    EXPECT_EQ(delta.view_pairs, 2u) << "horizon " << horizon;
  }
}

RC_GTEST_PROP(ParametricCheck, AgreesWithTheNumericEngineAtRationalPoints, ()) {
  // a random polynomial λ and random rational points: the parametric decision at the point's
  // piece equals check_claim on the spec instantiated there (the numeric engine as the oracle)
  const int k = *rc::gen::inRange(1, 3);
  static const ParametricSpec specs[2] = {parse_parametric_spec(rr_static(1), "rr1"), parse_parametric_spec(rr_static(2), "rr2")};
  const ParametricSpec& spec = specs[k - 1];
  const int a = *rc::gen::inRange(1, 6), b = *rc::gen::inRange(0, 30);
  const std::string lambda = std::to_string(a) + "+" + std::to_string(b) + "*r^2";
  const auto v = check(spec, lambda, false);
  for (int trial = 0; trial < 8; ++trial) {
    const Rational r = fraction(*rc::gen::inRange(501, 1000), 1000);
    std::optional<bool> holds;
    const auto& pieces = v.decision.partition.pieces;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].is_point()) {
        if (pieces[i].sample == r) holds = v.decision.holds[i];
        continue;
      }
      if (r > pieces[i].lower.upper && r < pieces[i].upper.lower) holds = v.decision.holds[i];
    }
    if (!holds) continue;  // r inside an isolating interval: not decided by this simple lookup
    GameClaim claim;
    claim.lambda = parse_rational_function(lambda, "r").evaluate(r);
    const auto numeric = check_claim(spec.instantiate(r), claim);
    RC_ASSERT((numeric.verdict == Verdict::holds) == *holds);
  }
}

RC_GTEST_PROP(ParametricCheck, AgreesWithTheNumericEngineOnClampedSvt, ()) {
  // AboveThreshold with DLap(r) noise clamped to [−1, 1], horizon 3 (bench/parametric/svt_table.py
  // --clamp 1 --horizon 3): hidden thresholds give belief pairs over several states. λ = c/r^k
  // with random c, k; at random rational r the parametric decision equals check_claim's
  static const ParametricSpec spec = [] {
    std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/tests/parametric/svt-clamped-1.json");
    std::stringstream buf;
    buf << in.rdbuf();
    return parse_parametric_spec(buf.str(), "svt-clamped-1.json");
  }();
  const std::string lambda = std::to_string(*rc::gen::inRange(1, 9)) + "/r^" + std::to_string(*rc::gen::inRange(2, 6));
  const auto v = check(spec, lambda, false);
  for (int trial = 0; trial < 4; ++trial) {
    const Rational r = fraction(*rc::gen::inRange(1, 100), 100);
    std::optional<bool> holds;
    const auto& pieces = v.decision.partition.pieces;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].is_point()) {
        if (pieces[i].sample == r) holds = v.decision.holds[i];
        continue;
      }
      if (r > pieces[i].lower.upper && r < pieces[i].upper.lower) holds = v.decision.holds[i];
    }
    if (!holds) continue;
    GameClaim claim;
    claim.lambda = parse_rational_function(lambda, "r").evaluate(r);
    RC_ASSERT((check_claim(spec.instantiate(r), claim).verdict == Verdict::holds) == *holds);
  }
}

RC_GTEST_PROP(PiecewiseRatio, EqualsTheNumericWorstRatioAtRationalPoints, ()) {
  // the piecewise worst ratio evaluated at a random rational r equals the numeric engine's
  // worst_case_ratio on the spec instantiated at r (clamped AboveThreshold, horizon 3, and RR^k)
  static const std::vector<ParametricSpec> specs = [] {
    std::ifstream in(std::string(EXACTDP_SOURCE_DIR) + "/tests/parametric/svt-clamped-1.json");
    std::stringstream buf;
    buf << in.rdbuf();
    return std::vector<ParametricSpec>{parse_parametric_spec(buf.str(), "svt"), parse_parametric_spec(rr_static(2), "rr2")};
  }();
  static const std::vector<parametric::PiecewiseRatio> ratios = [] {
    std::vector<parametric::PiecewiseRatio> out;
    for (const auto& s : specs) out.push_back(parametric::worst_case_ratio_for_all(s.game, s.game.horizon));
    return out;
  }();
  const std::size_t which = *rc::gen::inRange<std::size_t>(0, specs.size());
  const auto& ratio = ratios[which];
  RC_ASSERT(!ratio.infinite);
  const Rational r = which == 0 ? fraction(*rc::gen::inRange(1, 100), 100) : fraction(*rc::gen::inRange(51, 100), 100);
  const auto& pieces = ratio.partition.pieces;
  std::optional<std::size_t> piece;
  for (std::size_t k = 0; k < pieces.size(); ++k) {
    if (pieces[k].is_point() ? pieces[k].sample == r : (r > pieces[k].lower.upper && r < pieces[k].upper.lower)) piece = k;
  }
  RC_PRE(piece.has_value());
  const Rational expected = worst_case_ratio(specs[which].instantiate(r)).max().value();
  RC_ASSERT(ratio.candidates[ratio.best[*piece]].evaluate(r) == expected);
}

TEST(PiecewiseRatio, RandomizedResponseClosedForm) {
  // RR^k with p = r: the worst ratio is (r/(1−r))^k on the whole range (by hand)
  for (int k = 1; k <= 3; ++k) {
    const ParametricSpec spec = parse_parametric_spec(rr_static(k), "rr.json");
    const auto ratio = parametric::worst_case_ratio_for_all(spec.game, spec.game.horizon);
    const RationalFunction expected = parse_rational_function("(r/(1-r))^" + std::to_string(k), "r");
    for (std::size_t piece = 0; piece < ratio.best.size(); ++piece) EXPECT_EQ(ratio.candidates[ratio.best[piece]], expected);
  }
}

std::string validation_error(const std::string& p0, const std::string& p1, const std::string& range = R"(["0", "1"])") {
  const std::string text = R"({"format": "exactdp/1", "horizon": 1, "parameters": {"r": {"interval": )" + range + R"(}},
    "neighbours": {"type": "static", "worlds": ["x", "x'"]},
    "mechanism": {"type": "table", "initial": {"x": "s", "x'": "h"}, "messages": ["q"],
      "states": {"s": {"q": [{"p": ")" + p0 + R"(", "answer": "0", "next": "h"}, {"p": ")" + p1 + R"(", "answer": "1", "next": "h"}]}, "h": {}}}})";
  try {
    parse_parametric_spec(text, "bad.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ParametricSpec, ValidationNamesPointerAndAWitnessValue) {
  // negative on part of the range: 2r − 1/2 < 0 for r < 1/4; the simplest such point is 1/5
  EXPECT_NE(validation_error("2*r-1/2", "3/2-2*r").find("/mechanism/states/s/q/0/p"), std::string::npos);
  EXPECT_NE(validation_error("2*r-1/2", "3/2-2*r").find("non-negative"), std::string::npos);
  // rows summing to 1 + r
  const std::string sum = validation_error("r", "1");
  EXPECT_NE(sum.find("/mechanism/states/s/q"), std::string::npos) << sum;
  EXPECT_NE(sum.find("sum to 1 for every r"), std::string::npos) << sum;
  EXPECT_NE(sum.find("at r = 1/2 they sum to 3/2"), std::string::npos) << sum;
  // a pole inside the range
  EXPECT_NE(validation_error("1/(3*r-1)", "1-1/(3*r-1)").find("denominator vanishes at 1/3"), std::string::npos);
  // an unknown name, with its position
  EXPECT_NE(validation_error("q", "1-q").find("position 1: unknown name `q`"), std::string::npos);
  // a valid spec loads
  EXPECT_EQ(validation_error("r", "1-r"), "no error");
}

}  // namespace
}  // namespace exactdp
