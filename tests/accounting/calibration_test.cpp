// Calibration (accounting/calibration.hpp): brackets checked against closed forms and values
// computed outside exactdp, refusals, and the law of the bisection's candidates.
#include "exactdp/accounting/calibration.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/io/calibration_report.hpp"

#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <cstdint>
#include <string>
#include <vector>
#include <rapidcheck/gtest.h>

#include <nlohmann/json.hpp>

namespace exactdp {
namespace {

CalibrationTarget target(const Rational& eps, const Rational& delta, unsigned long times = 1,
                         std::optional<Rational> rate = std::nullopt) {
  return {eps, delta, times, rate};
}

/// The two ends carry their own certified evidence: the meeting end's enclosure lies at or below
/// the target, the failing end's above it.
void expect_witnessed(const CalibrationResult& r) {
  ASSERT_TRUE(r.meets && r.fails);
  const Rational& goal = r.witness == CalibrationWitness::epsilon ? r.target.epsilon : r.target.delta;
  const TrueValue& m = r.meets->evidence.truth;
  ASSERT_FALSE(m.infinite);
  EXPECT_TRUE(m.enclosure.upper_is_finite() && m.enclosure.upper() <= goal) << r.meets->mechanism;
  const TrueValue& f = r.fails->evidence.truth;
  EXPECT_TRUE(f.infinite || f.enclosure.lower() > goal) << r.fails->mechanism;
  EXPECT_EQ(r.meets->verdict, Verdict::holds);
  EXPECT_EQ(r.fails->verdict, Verdict::refuted);
}

// Laplace, pure ε: b = k·Δ/ε exactly (k uses of a Δ/b-DP mechanism are exactly kΔ/b-DP, and no
// less: basic composition is tight for pure mechanisms). Closed form, both witnesses.
TEST(Calibration, LaplacePureEpsilonContainsTheClosedForm) {
  for (auto witness : {CalibrationWitness::epsilon, CalibrationWitness::delta}) {
    for (const auto& [tmpl, eps, k, expected] :
         {std::tuple{std::string("laplace"), Rational(1), 1ul, Rational(1)},
          std::tuple{std::string("laplace:sensitivity=3"), Rational(1, 2), 1ul, Rational(6)},
          std::tuple{std::string("laplace:sensitivity=2"), Rational(3, 2), 4ul, Rational(16, 3)}}) {
      CalibrationOptions o;
      o.witness = witness;
      o.relative_width = Rational(1, 100);
      const CalibrationResult r = calibrate(tmpl, target(eps, 0, k), o);
      ASSERT_EQ(r.status, CalibrationStatus::bracketed) << tmpl;
      expect_witnessed(r);
      EXPECT_LT(r.lo(), expected) << tmpl;
      EXPECT_GE(r.hi(), expected) << tmpl;
      EXPECT_LE(r.width(), Rational(1, 100));
    }
  }
}

// Randomized response, pure ε after k uses: k-fold RR with λ is exactly k·ln λ-DP, so the least
// noise is λ* = e^{ε/k} (closed form, irrational): the bracket must enclose it strictly.
TEST(Calibration, RandomizedResponsePureEpsilonContainsExpEpsilonOverK) {
  for (const auto& [eps, k] : {std::pair{Rational(1), 10ul}, std::pair{Rational(1, 2), 1ul}, std::pair{Rational(3), 7ul}}) {
    const CalibrationResult r = calibrate("rr", target(eps, 0, k));
    ASSERT_EQ(r.status, CalibrationStatus::bracketed);
    expect_witnessed(r);
    const Interval star = exp(Interval(eps / Rational(static_cast<long>(k)), 256));
    EXPECT_LT(r.lo(), star.lower());
    EXPECT_GT(r.hi(), star.upper());
    EXPECT_EQ(r.meets->value, r.lo()) << "for lambda, less is noisier: the meeting end is the lower one";
    EXPECT_TRUE(r.meets->evidence.exact);
  }
}

// k-ary RR, pure ε: one use of k-ary RR with λ is exactly ln λ-DP (substitution neighbours): λ* = e^ε.
TEST(Calibration, KaryRandomizedResponseSingleUse) {
  const CalibrationResult r = calibrate("krr:k=4", target(Rational(1, 2), 0));
  ASSERT_EQ(r.status, CalibrationStatus::bracketed);
  expect_witnessed(r);
  const Interval star = exp(Interval(Rational(1, 2), 256));
  EXPECT_LT(r.lo(), star.lower());
  EXPECT_GT(r.hi(), star.upper());
}

// The Gaussian mechanism used once: the analytic Gaussian mechanism's σ (the least σ with
// Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) ≤ δ), found by mpmath.findroot at 50 digits outside exactdp
// (python/tests/test_calibration.py repeats it): ε = 1, δ = 10⁻⁵: σ = 3.73063163481594183…;
// ε = 1/2, δ = 10⁻⁶: σ = 8.05761848072504425….
TEST(Calibration, GaussianSingleUseContainsTheAnalyticGaussianSigma) {
  for (const auto& [eps, delta, lo, hi] :
       {std::tuple{Rational(1), Rational(1, 100000), Rational(373063163481594183, 100000000000000000),
                   Rational(373063163481594184, 100000000000000000)},
        std::tuple{Rational(1, 2), Rational(1, 1000000), Rational(805761848072504425, 100000000000000000),
                   Rational(805761848072504426, 100000000000000000)}}) {
    for (auto witness : {CalibrationWitness::epsilon, CalibrationWitness::delta}) {
      CalibrationOptions o;
      o.witness = witness;
      o.relative_width = Rational(1, 100000);
      const CalibrationResult r = calibrate("gauss", target(eps, delta), o);
      ASSERT_EQ(r.status, CalibrationStatus::bracketed);
      expect_witnessed(r);
      EXPECT_LT(r.lo(), lo);
      EXPECT_GT(r.hi(), hi);
      EXPECT_LE(r.width(), Rational(1, 100000));
    }
  }
}

// Sensitivity scales σ: the Gaussian with sensitivity Δ and σ is the one with 1 and σ/Δ (divide the
// output by Δ, a bijection), so the bracket for Δ = 3 contains 3 times the analytic σ above.
TEST(Calibration, GaussianSensitivityScalesSigma) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 10000);
  const CalibrationResult r = calibrate("gauss:sensitivity=3", target(Rational(1), Rational(1, 100000)), o);
  ASSERT_EQ(r.status, CalibrationStatus::bracketed);
  EXPECT_LT(r.lo(), Rational(3) * Rational(373063163481594183, 100000000000000000));
  EXPECT_GT(r.hi(), Rational(3) * Rational(373063163481594184, 100000000000000000));
}

// The Gaussian composed k times is √k·Δ/σ-GDP, the same as one use with σ/√k: with k = 4 the
// bracket contains twice the one-use σ (an identity of the closed form, checked across routes).
TEST(Calibration, GaussianComposedIsSqrtKTimesOneUse) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 10000);
  const CalibrationResult r = calibrate("gauss", target(Rational(1), Rational(1, 100000), 4), o);
  ASSERT_EQ(r.status, CalibrationStatus::bracketed);
  EXPECT_LT(r.lo(), Rational(2) * Rational(373063163481594183, 100000000000000000));
  EXPECT_GT(r.hi(), Rational(2) * Rational(373063163481594184, 100000000000000000));
}

// Poisson subsampling (grid brackets at each level): the least σ of the subsampled composition is
// below the unsampled one's (amplification), and each end carries its grid witness.
TEST(Calibration, SubsampledGaussianIsWitnessedByGridBrackets) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 20);
  const CalibrationResult sub = calibrate("gauss", target(Rational(1), Rational(1, 100000), 20, Rational(1, 10)), o);
  ASSERT_EQ(sub.status, CalibrationStatus::bracketed);
  expect_witnessed(sub);
  EXPECT_TRUE(sub.meets->evidence.grid_step.has_value());
  const CalibrationResult full = calibrate("gauss", target(Rational(1), Rational(1, 100000), 20), o);
  ASSERT_EQ(full.status, CalibrationStatus::bracketed);
  EXPECT_LT(sub.hi(), full.lo());
}

// A level the planner cannot separate from the target is reported, not guessed: with grid brackets
// held at resolution 4 (no refinement), a width of 10⁻⁶ cannot be reached for the subsampled
// Gaussian; the search stops undecided, with both ends still witnessed and every undecided level's
// enclosure straddling the target.
TEST(Calibration, UnseparableLevelsEndUndecidedWithACertifiedBracket) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 1000000);
  o.audit.grid_resolution_start = 4;
  o.audit.grid_resolution_max = 4;
  o.refine_grid_point_limit = o.audit.grid_point_budget;  // no refinement
  const CalibrationResult r = calibrate("gauss", target(Rational(1), Rational(1, 100000), 10, Rational(1, 10)), o);
  EXPECT_EQ(r.status, CalibrationStatus::undecided);
  expect_witnessed(r);
  ASSERT_FALSE(r.undecided_levels.empty());
  for (const auto& l : r.undecided_levels) {
    EXPECT_LE(l.evidence.truth.enclosure.lower(), Rational(1));
    EXPECT_TRUE(!l.evidence.truth.enclosure.upper_is_finite() || l.evidence.truth.enclosure.upper() > 1);
    EXPECT_GT(l.value, r.lo());
    EXPECT_LT(l.value, r.hi());
  }
  EXPECT_GT(r.width(), Rational(1, 1000000));
  EXPECT_EQ(calibration_exit_code(r), exit_code::undecided);
}

// Refinement (CalibrationOptions::refine_grid_point_limit): with a first grid budget too small to
// separate the levels near the least σ (q = 1/10, 10 uses, (1, 10⁻⁵), width 1/200), the search
// without refinement stops undecided and says at which level; with refinement it reaches the width.
// Independent check: dp-accounting 0.6.0's PLD calibration of the same target returns
// σ = 1.7405783078 with tolerance 10⁻⁶ (docs/calibration.md, audited sound there), so the least σ
// lies within 10⁻³ of it, and the refined bracket, 1/200 wide, must contain 1.7405…
TEST(Calibration, RefinementDecidesWhatTheFirstBudgetCannot) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 200);
  o.audit.grid_point_budget = 256;
  o.refine_grid_point_limit = 256;  // no refinement
  const CalibrationTarget t = target(Rational(1), Rational(1, 100000), 10, Rational(1, 10));
  const CalibrationResult coarse = calibrate("gauss", t, o);
  ASSERT_EQ(coarse.status, CalibrationStatus::undecided);
  expect_witnessed(coarse);
  EXPECT_EQ(coarse.refinements, 0u);
  EXPECT_NE(coarse.stop_reason.find("stays undecided"), std::string::npos) << coarse.stop_reason;

  o.refine_grid_point_limit = 16384;
  const CalibrationResult fine = calibrate("gauss", t, o);
  ASSERT_EQ(fine.status, CalibrationStatus::bracketed) << fine.stop_reason;
  expect_witnessed(fine);
  EXPECT_GT(fine.refinements, 0u);
  EXPECT_LE(fine.width(), o.relative_width);
  EXPECT_LT(fine.lo(), Rational(17406, 10000));
  EXPECT_GT(fine.hi(), Rational(17405, 10000));
  // both brackets are certified brackets of the same least σ: they overlap
  EXPECT_LT(std::max(coarse.lo(), fine.lo()), std::min(coarse.hi(), fine.hi()));
  // a level's budget never exceeds the limit, and only refined levels exceed the first budget
  for (const auto* l : {&*fine.meets, &*fine.fails}) {
    EXPECT_LE(l->grid_point_budget, o.refine_grid_point_limit);
    EXPECT_EQ(l->refinements > 0, l->grid_point_budget > o.audit.grid_point_budget);
  }
}

// The refinement limit is a documented bound (core/limits.hpp); above it a limit is accepted only
// when its memory estimate (calibration_grid_memory: points × 512 bytes) fits the memory budget,
// and refused before any work otherwise, naming the estimate and the option that allows it.
TEST(Calibration, RefinementLimitAboveTheGridBudgetBoundMustFitTheMemoryBudget) {
  CalibrationOptions o;
  o.refine_grid_point_limit = 45000000;  // 45·10⁶ × 512 bytes = 21 973 MiB (hand-computed)
  o.audit.plan.memory_budget = std::uint64_t(1) << 30;
  try {
    calibrate("gauss", target(Rational(1), Rational(1, 100000)), o);
    FAIL() << "accepted a refinement limit whose estimate exceeds the memory budget";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "refine_grid_point_limit");
    EXPECT_NE(std::string(e.what()).find("21973 MiB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--max-memory"), std::string::npos) << e.what();
  }
  // with the memory named, the same limit is accepted (Laplace at pure ε is decided exactly, so no
  // rung runs: the bracket is the closed form's, b = 1)
  o.audit.plan.memory_budget = std::uint64_t(22000) << 20;
  const CalibrationResult r = calibrate("laplace", target(Rational(1), 0), o);
  EXPECT_EQ(r.status, CalibrationStatus::bracketed);
  EXPECT_EQ(calibration_grid_memory(45000000), std::uint64_t(45000000) * 512);
}

// A rung whose memory estimate exceeds the budget is not run: from a budget of 256 points, the
// first rung (1024 points, 512 KiB at 512 bytes a point) is above a 256 KiB budget, so the search
// is the one without refinement (undecided, as in RefinementDecidesWhatTheFirstBudgetCannot), and
// the undecided level says what the next rung would need and which option allows it; the stop
// reason estimates the levels still to judge.
TEST(Calibration, RungAboveTheMemoryBudgetIsNotRunAndSaysWhatItNeeds) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 200);
  o.audit.grid_point_budget = 256;
  o.refine_grid_point_limit = 16384;
  o.audit.plan.memory_budget = std::uint64_t(256) << 10;
  const CalibrationResult r = calibrate("gauss", target(Rational(1), Rational(1, 100000), 10, Rational(1, 10)), o);
  ASSERT_EQ(r.status, CalibrationStatus::undecided) << r.stop_reason;
  expect_witnessed(r);
  ASSERT_FALSE(r.undecided_levels.empty());
  for (const auto& l : r.undecided_levels) {
    EXPECT_EQ(l.grid_point_budget, 256u);
    EXPECT_EQ(l.refinements, 0u);
    EXPECT_NE(l.refinement_stop.find("(1024 grid points per law)"), std::string::npos) << l.refinement_stop;
    EXPECT_NE(l.refinement_stop.find("raise --max-memory to at least 1 MiB"), std::string::npos) << l.refinement_stop;
  }
  EXPECT_NE(r.stop_reason.find("more levels"), std::string::npos) << r.stop_reason;
  // the decided ends stayed within the budget too
  EXPECT_EQ(r.refinements, 0u);

  // at the refinement limit itself, the next rung and the option are named
  o.audit.plan.memory_budget = std::uint64_t(1) << 30;
  o.refine_grid_point_limit = 256;
  const CalibrationResult at_limit = calibrate("gauss", target(Rational(1), Rational(1, 100000), 10, Rational(1, 10)), o);
  ASSERT_FALSE(at_limit.undecided_levels.empty());
  EXPECT_NE(at_limit.undecided_levels.front().refinement_stop.find("raise --refine-grid-points to at least 1024"),
            std::string::npos)
      << at_limit.undecided_levels.front().refinement_stop;
}

// Probes are judged first and become ends. Laplace at pure ε = 1, sensitivity 1: the least b is 1
// exactly (closed form: one use is Δ/b-DP and no less). Probes 3/2 (meets) and 1/2 (fails) at a
// relative width of 2 give the bracket [1/2, 3/2] with no other level judged; a probe at b = 1
// meets (decided exactly) and stays the meeting end, since every level below 1 fails.
TEST(Calibration, ProbesAreJudgedFirstAndBecomeEnds) {
  CalibrationOptions o;
  o.relative_width = Rational(2);
  o.probes = {Rational(3, 2), Rational(1, 2)};
  const CalibrationResult r = calibrate("laplace", target(Rational(1), 0), o);
  ASSERT_EQ(r.status, CalibrationStatus::bracketed);
  EXPECT_EQ(r.levels_judged, 2u);
  ASSERT_EQ(r.probes.size(), 2u);
  EXPECT_EQ(r.probes[0].verdict, Verdict::holds);
  EXPECT_EQ(r.probes[1].verdict, Verdict::refuted);
  EXPECT_EQ(r.lo(), Rational(1, 2));
  EXPECT_EQ(r.hi(), Rational(3, 2));

  o.relative_width = Rational(1, 100);
  o.probes = {Rational(1)};
  const CalibrationResult exact = calibrate("laplace", target(Rational(1), 0), o);
  ASSERT_EQ(exact.status, CalibrationStatus::bracketed);
  expect_witnessed(exact);
  EXPECT_EQ(exact.probes.front().verdict, Verdict::holds);
  EXPECT_EQ(exact.hi(), Rational(1));
  const auto j = nlohmann::json::parse(calibration_report_json(exact));
  EXPECT_EQ(j["probes"][0]["verdict"], "meets");
  EXPECT_EQ(j["probes"][0]["value"], "1");

  // λ of randomized response: noisier is smaller; a probe at λ = 1 (no information) is outside the
  // open domain, as σ = 0 and r = 1 are
  for (const auto& [tmpl, bad] : {std::pair{std::string("rr"), Rational(1)}, std::pair{std::string("gauss"), Rational(0)},
                                  std::pair{std::string("dlaplace"), Rational(1)}}) {
    CalibrationOptions b;
    b.probes = {bad};
    try {
      calibrate(tmpl, target(Rational(1), Rational(1, 100000)), b);
      ADD_FAILURE() << tmpl << " accepted the probe " << to_string(bad);
    } catch (const Error& e) {
      EXPECT_EQ(e.field(), "probes") << tmpl;
    }
  }
}

// Progress: one call per judgement, in order, the probes first; every call but a level's last says
// a rung follows, and the counts match the result's (levels_judged + refinements).
TEST(Calibration, ProgressReportsEveryJudgementInOrder) {
  CalibrationOptions o;
  o.relative_width = Rational(1, 200);
  o.audit.grid_point_budget = 256;
  o.refine_grid_point_limit = 4096;
  o.probes = {Rational(2)};
  std::vector<std::string> stages;
  unsigned lasts = 0, calls = 0;
  o.progress = [&](const CalibrationProgress& p) {
    ++calls;
    stages.emplace_back(p.stage);
    ASSERT_NE(p.level, nullptr);
    EXPECT_GE(p.cpu_seconds, 0.0);
    if (p.last) ++lasts;
    else EXPECT_EQ(p.level->verdict, Verdict::undecided);
  };
  const CalibrationResult r = calibrate("gauss", target(Rational(1), Rational(1, 100000), 10, Rational(1, 10)), o);
  EXPECT_EQ(calls, r.levels_judged + r.refinements);
  EXPECT_EQ(lasts, r.levels_judged);
  ASSERT_FALSE(stages.empty());
  EXPECT_EQ(stages.front(), "probe");
  EXPECT_EQ(stages.back(), "bisect");
}

// Randomized response with δ fixed in the template: RR_{ε₀,δ₀} k times can never reach a target
// δ below... the target δ = δ₀/2 is met by no λ when k = 1 (δ(ε) ≥ δ₀ for every ε).
TEST(Calibration, UnreachableTargetIsReportedNotGuessed) {
  CalibrationOptions o;
  o.max_levels = 30;
  const CalibrationResult r = calibrate("rr:delta=1/10", target(Rational(1), Rational(1, 20)), o);
  EXPECT_EQ(r.status, CalibrationStatus::no_level_meets);
  EXPECT_FALSE(r.meets.has_value());
}

TEST(Calibration, RefusesWhatItCannotJustify) {
  auto refused = [](const std::string& tmpl, const CalibrationTarget& t, const std::string& field) {
    try {
      calibrate(tmpl, t);
      ADD_FAILURE() << tmpl << " was accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.field(), field) << tmpl << ": " << e.what();
    }
  };
  const CalibrationTarget ok = target(Rational(1), Rational(1, 100000));
  refused("dgauss", ok, "family");         // monotonicity not known
  refused("gauss:sigma=1", ok, "family");  // the template sets the noise parameter
  refused("dlaplace:epsilon=1", ok, "family");
  refused("krr", ok, "family");            // k missing
  refused("rr:k=3", ok, "family");         // a key rr does not take
  refused("pareto", ok, "family");
  refused("gauss", target(Rational(1), Rational(0)), "delta");  // never (ε, 0)-DP
  refused("gauss", target(Rational(1), Rational(1)), "delta");
  refused("gauss", target(Rational(-1), Rational(1, 10)), "epsilon");
  refused("gauss", target(Rational(1), Rational(1, 10), 1, Rational(3, 2)), "sampling_rate");
}

TEST(Calibration, ReportJsonCarriesBothEndsAndTheExitCode) {
  const CalibrationResult r = calibrate("rr", target(Rational(1), 0, 10));
  const auto j = nlohmann::json::parse(calibration_report_json(r));
  EXPECT_EQ(j["format"], "exactdp-calibration/1");
  EXPECT_EQ(j["status"], "bracketed");
  EXPECT_EQ(j["meets"]["verdict"], "meets");
  EXPECT_EQ(j["fails"]["verdict"], "fails");
  EXPECT_EQ(j["bracket"]["lo"], to_string(r.lo()));
  // p = λ/(1 + λ) at each end, exact
  EXPECT_EQ(j["probability"]["meets"], to_string(r.meets->value / (r.meets->value + 1)));
  EXPECT_EQ(calibration_exit_code(r), exit_code::holds);
}

// The bisection's candidates: simplest_between returns a point of [a, b], and no rational of smaller
// denominator lies in [a, b] (checked by brute force over the denominators below).
RC_GTEST_PROP(Calibration, SimplestBetweenIsInsideAndHasTheLeastDenominator, ()) {
  const long an = *rc::gen::inRange(0L, 2000L), ad = *rc::gen::inRange(1L, 300L);
  const long wn = *rc::gen::inRange(0L, 50L), wd = *rc::gen::inRange(1L, 300L);
  Rational a(an, ad), w(wn, wd);
  a.canonicalize();  // mpq_class(n, d) is not canonical until told
  w.canonicalize();
  const Rational b = a + w;
  const Rational x = simplest_between(a, b);
  RC_ASSERT(a <= x && x <= b);
  for (long d = 1; Integer(d) < x.get_den(); ++d) {
    // the least multiple of 1/d at or above a
    Integer n = (a.get_num() * d + a.get_den() - 1) / a.get_den();
    Rational m(n, Integer(d));
    m.canonicalize();
    RC_ASSERT(m > b);
  }
}

// The truncated discrete Gaussian is refused because its privacy is not monotone in σ²: with T = 1,
// S = 1 the pair is (t, 1, t)/(1 + 2t) on {0, 1, 2} against {−1, 0, 1}, t = e^{−1/(2σ²)}, whose δ(1) is
// (t + (1 − e·t)⁺)/(1 + 2t) (hand-derived from the tables). The library's own δ agrees with that closed
// form at σ² = 1/2 (1/(e + 2)) and σ² = 2, and the noisier level is the less private one.
TEST(Calibration, TruncatedDiscreteGaussianIsNotMonotone) {
  const Precision p = 128;
  auto closed_form = [&](const Rational& sigma2) {
    const Interval t = exp(Interval(Rational(-1 / (2 * sigma2)), p));
    const Interval e = exp(Interval(1L, p));
    Interval rest = Interval(1L, p) - e * t;
    if (rest.upper() <= 0) rest = Interval::zero(p);  // (1 − e·t)⁺, decided for the two levels below
    return (t + rest) / (Interval(1L, p) + Interval(2L, p) * t);
  };
  auto library = [&](const Rational& sigma2) {
    return parse_mechanism_spec("dgauss:sigma2=" + to_string(sigma2) + ",truncation=1").delta_at_epsilon(Interval(1L, p), 1);
  };
  for (const Rational& v : {Rational(1, 2), Rational(2)}) {
    const Interval a = closed_form(v), b = library(v);
    EXPECT_TRUE(a.lower() <= b.upper() && b.lower() <= a.upper()) << to_string(v) << " " << b.to_string();
  }
  EXPECT_LT(library(Rational(1, 2)).upper(), Rational(1, 4));  // 0.212: meets (1, 1/4)
  EXPECT_GT(library(Rational(2)).lower(), Rational(1, 4));     // 0.304: more noise, fails it
  try {
    calibrate("dgauss:truncation=1", target(1, Rational(1, 4)));
    ADD_FAILURE() << "truncated dgauss calibrated";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "family");
    EXPECT_NE(e.why().find("not monotone"), std::string::npos) << e.why();
  }
}

}  // namespace
}  // namespace exactdp
