// Claims with "neighbouring": "replace-one" (io/claims.hpp, accounting/audit.hpp): the audit judges
// them on each component's replace-one pair (accounting/replace_one.hpp), never on the spec's
// add/remove pair. Expected values are derived by hand for the replaced pair (comments), not taken
// from the library's add/remove route at a doubled sensitivity.
#include "exactdp/accounting/audit.hpp"
#include "exactdp/io/claims.hpp"

#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <gtest/gtest.h>

#include <string>

namespace exactdp {
namespace {

/// One claim of a claims file, the given keys spliced into {"id": "c", …}.
std::string claims_text(const std::string& keys) {
  return R"({"format": "exactdp-claims/1", "claims": [{"id": "c", )" + keys + "}]}";
}

ClaimResult audit_text(const std::string& keys) { return audit_claim(parse_claims(claims_text(keys), "claims.json").front()); }

bool encloses(const TrueValue& t, const Interval& expected) {
  return t.enclosure.lower() <= expected.upper() && expected.lower() <= t.enclosure.upper();
}

// Laplace with scale b and sensitivity S under replace-one: Lap(x + S, b) against Lap(x − S, b), whose
// largest privacy loss is 2S/b (the loss is (|y − x + S| − |y − x − S|)/b, at most 2S/b, reached
// above x + S). With b = 1 and S = 1 the claim "1-DP" is the add/remove value and false here: the
// true least ε at δ = 0 is 2S/b = 2, exactly.
TEST(ReplaceOneClaims, LaplaceIsJudgedOnTheReplaceOnePair) {
  const std::string spec = R"("mechanism": "laplace:b=1,sensitivity=1", "delta": "0", )";
  const ClaimResult wrong = audit_text(spec + R"("neighbouring": "replace-one", "claimed_epsilon": "1")");
  EXPECT_EQ(wrong.verdict, Verdict::refuted);
  ASSERT_TRUE(wrong.truth.exact.has_value());
  EXPECT_EQ(*wrong.truth.exact, Rational(2));  // 2S/b
  const ClaimResult right = audit_text(spec + R"("neighbouring": "replace-one", "claimed_epsilon": "2")");
  EXPECT_EQ(right.verdict, Verdict::holds);
  // the same claim under add/remove (given or not) holds: ε = S/b = 1
  EXPECT_EQ(audit_text(spec + R"("neighbouring": "add-remove", "claimed_epsilon": "1")").verdict, Verdict::holds);
  EXPECT_EQ(audit_text(spec + R"("claimed_epsilon": "1")").verdict, Verdict::holds);
  // the result names the spec whose pair was analysed, and keeps the claim as written
  EXPECT_EQ(wrong.claim.components.front().mechanism, "laplace:b=1,sensitivity=1");
  ASSERT_EQ(wrong.analysed.size(), 1u);
  EXPECT_EQ(wrong.analysed.front(), "laplace:b=1,sensitivity=2");
}

// δ at ε < 2S/b of the same pair, by hand: δ(ε) = P(L > ε) − e^ε Q(L > ε) = 1 − e^{(ε − 2S/b)/2}.
// b = 1, S = 1/2 (2S/b = 1), ε = 1/4: 1 − e^{−3/8}.
TEST(ReplaceOneClaims, LaplaceDeltaMatchesTheHandDerivedProfile) {
  const ClaimResult r = audit_text(
      R"("mechanism": "laplace:b=1,sensitivity=1/2", "neighbouring": "replace-one", "epsilon": "1/4", "claimed_delta": "1/4")");
  const Precision p = 128;
  const Interval expected = Interval(1L, p) - exp(Interval(Rational(-3, 8), p));  // 0.3127…
  EXPECT_TRUE(encloses(r.truth, expected)) << r.truth.enclosure.to_string(20);
  EXPECT_EQ(r.verdict, Verdict::refuted);  // 1/4 < 0.3127
  // the add/remove value (S/b = 1/2): 1 − e^{(1/4 − 1/2)/2} = 1 − e^{−1/8} = 0.1175 ≤ 1/4
  EXPECT_EQ(audit_text(R"("mechanism": "laplace:b=1,sensitivity=1/2", "epsilon": "1/4", "claimed_delta": "1/4")").verdict,
            Verdict::holds);
}

// Randomized response compares two values of one record: its replace-one pair is its own pair. With
// λ = 3, P = (3/4, 1/4) and Q = (1/4, 3/4): δ(λ = 2) = 3/4 − 2·1/4 = 1/4, so at δ = 1/4 the least λ
// is 2 exactly (hand-derived), under either relation.
TEST(ReplaceOneClaims, RandomizedResponseIsUnchanged) {
  for (const char* relation : {"replace-one", "add-remove"}) {
    const ClaimResult r = audit_text(std::string(R"("mechanism": "rr:lambda=3", "delta": "1/4", "claimed_epsilon": "0.7", )") +
                                     R"("neighbouring": ")" + relation + R"(")");
    ASSERT_TRUE(r.true_lambda.has_value()) << relation;
    EXPECT_EQ(*r.true_lambda, Rational(2)) << relation;
    EXPECT_EQ(r.verdict, Verdict::holds) << relation;  // ln 2 = 0.693 ≤ 0.7
  }
}

// The Gaussian with σ and sensitivity S under replace-one: N(S, σ²) against N(−S, σ²), the Gaussian
// closed form (Balle & Wang 2018) at μ = 2S/σ: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2). With σ = 2,
// S = 1, ε = 1/2: μ = 1, δ = Φ(0) − e^{1/2} Φ(−1).
TEST(ReplaceOneClaims, GaussianMatchesTheClosedFormAtTwiceTheSensitivity) {
  const ClaimResult r = audit_text(
      R"("mechanism": "gauss:sigma=2", "times": 1, "neighbouring": "replace-one", "epsilon": "1/2", "claimed_delta": "1/10")");
  const Precision p = 128;
  const Interval expected = normal_cdf(Interval(0L, p)) - exp(Interval(Rational(1, 2), p)) * normal_cdf(Interval(-1L, p));
  EXPECT_TRUE(encloses(r.truth, expected)) << r.truth.enclosure.to_string(20) << " vs " << expected.to_string(20);
  EXPECT_EQ(r.verdict, Verdict::refuted);  // δ = 0.2384 > 1/10; at sensitivity 1 (μ = 1/2) δ = 0.0524 ≤ 1/10
  EXPECT_EQ(audit_text(R"("mechanism": "gauss:sigma=2", "epsilon": "1/2", "claimed_delta": "1/10")").verdict, Verdict::holds);
}

// A claim built in code (not read from a file) is judged on the replace-one pair too: the audit, not
// the reader, applies the relation. Two components, each replaced: the discrete Laplace DLap(1/2)
// with sensitivity 1 (largest likelihood ratio r^-1 = 2 under add/remove, r^-2 = 4 under replace-one,
// the outputs moving 1 and 2 apart) and rr λ = 3 (ratio 3 under both). The composition's largest
// ratio is 6 under add/remove and 12 under replace-one (hand-derived), so δ(ε = 2) is 0 under
// add/remove (e² = 7.39 > 6) and positive under replace-one (e² < 12).
TEST(ReplaceOneClaims, ClaimsBuiltInCodeAreJudgedOnTheReplaceOnePair) {
  Claim c;
  c.id = "code";
  c.components = {{"dlaplace:r=1/2", parse_mechanism_spec("dlaplace:r=1/2"), 1}, {"rr:lambda=3", parse_mechanism_spec("rr:lambda=3"), 1}};
  c.heterogeneous = true;
  c.kind = Claim::Kind::delta_at_epsilon;
  c.given = 2;
  c.claimed = 0;
  c.neighbouring = "add-remove";
  EXPECT_EQ(audit_claim(c).verdict, Verdict::holds);
  c.neighbouring = "replace-one";
  const ClaimResult r = audit_claim(c);
  EXPECT_EQ(r.verdict, Verdict::refuted);
  ASSERT_EQ(r.analysed.size(), 2u);
  EXPECT_EQ(r.analysed[0], "dlaplace:r=1/2,sensitivity=2");
  EXPECT_EQ(r.analysed[1], "rr:lambda=3,delta=0");
}

/// The error of parsing @p keys as one claim: "file | pointer | value | message".
std::string parse_error(const std::string& keys) {
  try {
    parse_claims(claims_text(keys), "claims.json");
  } catch (const Error& e) {
    return e.where() + " | " + e.field() + " | " + e.value() + " | " + e.why();
  }
  return "";
}

// Where replace-one is not defined, the claims file is refused before any work, naming the file, the
// JSON pointer and the value, with the library's reason.
TEST(ReplaceOneClaims, RefusalsNameFilePointerAndValue) {
  // a discrete sensitivity within the table limit whose double exceeds it (the discrete Gaussian:
  // its one-use profile is not a table, so the spec itself is cheap to read)
  const std::string big = "dgauss:sigma2=1,sensitivity=" + std::to_string(max_table_outcomes / 2 + 1);
  const std::string e1 = parse_error(R"("mechanism": ")" + big + R"(", "neighbouring": "replace-one", "delta": "0", "claimed_epsilon": "1")");
  EXPECT_EQ(e1.rfind("claims.json | /claims/0/mechanism | " + big + " | ", 0), 0u) << e1;
  EXPECT_NE(e1.find("replace-one pair of " + big + " has twice its sensitivity"), std::string::npos) << e1;
  // in a list of mechanisms, the pointer names the entry (a truncated discrete Gaussian, which
  // composes with others; truncation 0 keeps its table to two outcomes)
  const std::string point = "dgauss:sigma2=1,truncation=0,sensitivity=" + std::to_string(max_table_outcomes / 2 + 1);
  const std::string e2 = parse_error(R"("mechanisms": [{"mechanism": "rr:lambda=2"}, {"mechanism": ")" + point +
                                     R"("}], "neighbouring": "replace-one", "delta": "0", "claimed_epsilon": "1")");
  EXPECT_EQ(e2.rfind("claims.json | /claims/0/mechanisms/1/mechanism | " + point + " | ", 0), 0u) << e2;
  EXPECT_NE(e2.find("twice its sensitivity"), std::string::npos) << e2;
  // the same list under add/remove is read
  EXPECT_EQ(parse_error(R"("mechanisms": [{"mechanism": "rr:lambda=2"}, {"mechanism": ")" + point +
                        R"("}], "delta": "0", "claimed_epsilon": "1")"),
            "");
  // Poisson subsampling: the library's reason
  const std::string e3 = parse_error(
      R"("mechanism": "rr:lambda=2", "sampling": "poisson:q=1/2", "neighbouring": "replace-one", "delta": "0", "claimed_epsilon": "1")");
  EXPECT_EQ(e3.rfind("claims.json | /claims/0/neighbouring | replace-one | ", 0), 0u) << e3;
  EXPECT_NE(e3.find(replace_one_subsampling_reason()), std::string::npos) << e3;
}

}  // namespace
}  // namespace exactdp
