// The claims audit (accounting/audit.hpp; claims read by io/claims.hpp) on cases whose truth comes
// from a second route.
#include "exactdp/accounting/audit.hpp"
#include "exactdp/io/claims.hpp"

#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/amplification/poisson.hpp"

#include <gtest/gtest.h>

namespace exactdp {
namespace {

bool overlap(const Interval& a, const Interval& b) {
  return !(a.upper_is_finite() && b.lower_is_finite() && a.upper() < b.lower()) &&
         !(b.upper_is_finite() && a.lower_is_finite() && b.upper() < a.lower());
}

ClaimResult audit_one(const std::string& mechanism, unsigned long k, const std::string& delta, const std::string& claimed) {
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": ")" + mechanism +
                           R"(", "times": )" + std::to_string(k) + R"(, "delta": ")" + delta + R"(", "claimed_epsilon": ")" +
                           claimed + R"("}]})";
  return audit_claim(parse_claims(text, "test").front());
}

// The audit composes discrete Laplace with sensitivity 1 and RR given by ε by the binomial closed
// form (accounting/binomial_composition.hpp); CertifiedLoss::self_compose composes the certified
// loss by repeated squaring. The two routes must enclose the same least ε.
TEST(ClaimsAudit, BinomialCompositionAgreesWithRepeatedSquaring) {
  for (const auto& [mechanism, k] : {std::pair{std::string("dlaplace:epsilon=1/2,sensitivity=1"), 60ul},
                                     std::pair{std::string("rr:epsilon=0.3"), 45ul}}) {
    const ClaimResult r = audit_one(mechanism, k, "1/100000", "1000");
    ASSERT_EQ(r.verdict, Verdict::holds) << mechanism;
    const Interval squared =
        parse_mechanism_spec(mechanism).certified_loss(r.precision)->self_compose(k).least_epsilon(Rational(1, 100000));
    EXPECT_TRUE(overlap(r.truth.enclosure, squared)) << mechanism << ": " << r.truth.enclosure.to_string(12) << " vs "
                                                     << squared.to_string(12);
    EXPECT_LT(r.truth.enclosure.upper() - r.truth.enclosure.lower(), Rational(1, 1000000000));
  }
}

// RR with a λ read from a binary64 (p = 0.9): its masses have 53-bit numerators, so the exact
// k-fold composition grows by k·200 bits per atom. Under a small byte budget the audit must skip
// the exact route before composing and answer by the certified one; the exact route (the second
// algorithm, under the default budget) gives a least λ inside the certified enclosure of ε.
TEST(ClaimsAudit, ByteBudgetSendsLongExactCompositionsToTheCertifiedRoute) {
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism":
      "rr:lambda=8106479329266893/900719925474099", "times": 200, "delta": "1e-5", "claimed_epsilon": "400"}]})";
  const Claim claim = parse_claims(text, "test").front();
  const ClaimResult exact = audit_claim(claim);
  ASSERT_TRUE(exact.exact);
  ASSERT_TRUE(exact.true_lambda.has_value());
  AuditOptions small;
  small.plan.memory_budget = 100000;  // the estimate is 201 atoms × 200 uses × ~420 bits ≈ 2 MB
  const ClaimResult certified = audit_claim(claim, small);
  EXPECT_FALSE(certified.exact);
  EXPECT_EQ(certified.verdict, exact.verdict);
  const Interval lambda = exp(certified.truth.enclosure);
  EXPECT_TRUE(lambda.lower() <= *exact.true_lambda && *exact.true_lambda <= lambda.upper())
      << certified.truth.enclosure.to_string(12);
}

// A Poisson-subsampled pure mechanism is not answered by the pure shortcut (k uses of the unsampled
// mechanism are exactly k·ε₀-DP, the subsampled ones less): when the planner skips the exact route
// (here by its atom limit) the certified route must agree with the exact one (the second algorithm).
TEST(ClaimsAudit, SubsampledPureMechanismIsNotAnsweredAsPure) {
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "dlaplace:r=1/2",
      "times": 20, "sampling": "poisson:q=1/4", "delta": "0", "claimed_epsilon": "10"}]})";
  const Claim claim = parse_claims(text, "test").front();
  const ClaimResult exact = audit_claim(claim);
  ASSERT_TRUE(exact.exact);
  AuditOptions small;
  small.plan.max_exact_atoms = 5;  // the exact composition has 21 atoms
  const ClaimResult certified = audit_claim(claim, small);
  EXPECT_FALSE(certified.exact);
  // the pure shortcut would give 20·ln 2 ≈ 13.86 > 10 (unsound); the subsampled pair's largest loss per use is
  // ln(1 + q(λ − 1)) = ln(5/4), so the truth at δ = 0 is 20·ln(5/4) ≈ 4.46 and the claim holds
  EXPECT_EQ(certified.verdict, exact.verdict);
  EXPECT_EQ(exact.verdict, Verdict::holds);
  const Interval lambda = exp(certified.truth.enclosure);
  EXPECT_TRUE(lambda.lower() <= *exact.true_lambda && *exact.true_lambda <= lambda.upper()) << certified.truth.enclosure.to_string(12);
}

// Claims that share a composition reuse it; the answers do not depend on the order of the claims.
TEST(ClaimsAudit, SharedCompositionsGiveTheSameAnswers) {
  const ClaimResult a = audit_one("dlaplace:epsilon=1", 200, "1/1000", "200");  // k·ε₀ = 200 bounds ε
  const ClaimResult b = audit_one("dlaplace:epsilon=1", 200, "1/1000", "1");
  EXPECT_EQ(a.truth.enclosure.to_string(20), b.truth.enclosure.to_string(20));
  EXPECT_EQ(a.verdict, Verdict::holds);
  EXPECT_EQ(b.verdict, Verdict::refuted);
}

/// The points of the largest law of a grid bracket, read from the method line ("…, N points) for …").
std::size_t grid_points_of(const ClaimResult& r) {
  const auto end = r.method.find(" points)");
  const auto start = r.method.rfind(", ", end);
  return std::stoul(r.method.substr(start + 2, end - start - 2));
}

// A grid budget above the per-law cap raises the cap (issue 20: `audit --grid-points` above twice the
// cap used to change nothing, every law being re-gridded at the cap): with the budget above a small cap,
// the law is as large as with the cap raised by hand, and larger than the cap.
TEST(ClaimsAudit, GridBudgetAboveThePerLawCapRaisesIt) {
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "laplace:b=1",
      "times": 3, "delta": "1/1000", "claimed_epsilon": "10"}]})";
  const Claim claim = parse_claims(text, "test").front();
  AuditOptions o;
  o.grid_resolution_start = o.grid_resolution_max = 256;  // one resolution, whose law is larger than the cap
  o.grid_max_points = 100;
  o.grid_point_budget = 20000;
  const ClaimResult budget = audit_claim(claim, o);
  o.grid_max_points = 20000;
  const ClaimResult raised = audit_claim(claim, o);
  ASSERT_TRUE(budget.grid_step.has_value());
  EXPECT_GT(grid_points_of(budget), 100u) << budget.method;
  EXPECT_EQ(budget.method, raised.method);
  EXPECT_EQ(budget.truth.enclosure.to_string(), raised.truth.enclosure.to_string());
}

// AuditOptions' grid schedule, as documented (resolutions from grid_resolution_start doubling, the
// brackets intersected, no doubling once a law held more than half of grid_point_budget points),
// now run by the composition query: the loop written out over the grid bracket's own entry point
// (amplification/poisson.hpp) gives the same resolution, enclosure and one-use step. The claim is the
// middle of the first bracket, decided only by a finer one.
TEST(ClaimsAudit, GridScheduleIsTheDocumentedOne) {
  const ContinuousPair pair = *continuous_pair(parse_mechanism_spec("laplace:b=1"), Rational(1));
  const Rational delta(1, 1000);
  GridOptions g;
  g.resolution = 4;
  const GridBracket first = grid_epsilon_at_delta(pair, 3, delta, g);
  const Rational middle = (first.value.lower() + first.value.upper()) / 2;
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "laplace:b=1", "times": 3,
      "delta": "1/1000", "claimed_epsilon": ")" + to_string(middle) + R"("}]})";
  AuditOptions o;
  o.grid_point_budget = 400;
  const ClaimResult r = audit_claim(parse_claims(text, "test").front(), o);
  std::optional<GridBracket> loop;
  for (unsigned res = o.grid_resolution_start; res <= o.grid_resolution_max; res *= 2) {
    g.resolution = res;
    g.max_points = std::max(o.grid_max_points, o.grid_point_budget);
    const GridBracket b = grid_epsilon_at_delta(pair, 3, delta, g);
    loop = loop ? intersect(*loop, b) : b;
    const Interval& v = loop->value;
    if (middle < v.lower() || v.upper() <= middle) break;  // decided
    if (2 * b.points > o.grid_point_budget) break;           // the next law would exceed the budget
  }
  ASSERT_TRUE(loop.has_value());
  EXPECT_GT(loop->resolution, 4u);  // refined at least once
  EXPECT_NE(r.verdict, Verdict::undecided);  // decided within the budget, as the loop was
  EXPECT_EQ(r.grid_resolution, loop->resolution);
  EXPECT_EQ(r.truth.enclosure.to_string(30), loop->value.to_string(30));
  ASSERT_TRUE(r.grid_step.has_value());
  EXPECT_EQ(*r.grid_step, loop->step);
}

}  // namespace
}  // namespace exactdp
