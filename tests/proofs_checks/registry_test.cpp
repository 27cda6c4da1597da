// The theorem registry (proofs_checks/): every check at the small budget, the registry's own
// invariants, the checker's ability to fail, and that the committed pages are what the registry
// generates (each page from the same run as its check, so that every check runs once).
#include "proofs_checks/registry.hpp"

#include "exactdp/game/engine.hpp"
#include "exactdp/numeric/rational.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace exactdp::proofs {
namespace {

Budget small_budget() {
  Budget b;
  b.level = BudgetLevel::small;
  return b;
}

std::string param_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

std::vector<std::string> all_ids() {
  std::vector<std::string> ids;
  for (const auto& t : registry()) ids.push_back(t.id);
  return ids;
}

/// The verdict each entry must have at the small budget: its theorem confirmed (POSITIVE, REDUCTION)
/// or its counterexample reproduced (NEGATIVE); an entry without a check is documented (NOTE) or
/// not checked.
Verdict expected_verdict(const Theorem& t) {
  if (!t.check) return t.kind == Kind::note ? Verdict::documented : Verdict::not_checked;
  return t.kind == Kind::negative ? Verdict::reproduced : Verdict::confirmed;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

const std::filesystem::path root(EXACTDP_SOURCE_DIR);

class EveryTheorem : public ::testing::TestWithParam<std::string> {};

// Every registered check confirms its theorem (POSITIVE, REDUCTION, NOTE) or reproduces its
// counterexample (NEGATIVE) at the small budget; the expected values inside each check come from
// THEOREMS.md part E or from an independent route named in the check's source. The committed page
// spec/theorems/<ID>.md must be the one generated from this run (`exactdp theorems docs` writes each
// page from a run at the same budget and default seed, each check drawing from its own seed).
TEST_P(EveryTheorem, CheckSucceedsAtTheSmallBudget) {
  const Theorem* t = find_theorem(GetParam());
  ASSERT_NE(t, nullptr);
  const CheckResult r = run_check(*t, small_budget());
  EXPECT_EQ(read(root / "spec" / "theorems" / (t->id + ".md")), theorem_page(*t, r))
      << "spec/theorems/" << t->id << ".md is stale: run `exactdp theorems docs`";
  if (!t->check) {
    EXPECT_EQ(r.verdict, expected_verdict(*t));
    EXPECT_FALSE(t->not_checked_reason.empty()) << t->id << " has neither a check nor a reason";
    return;
  }
  std::string details;
  for (const auto& i : r.instances)
    if (!i.ok) details += "\n  " + i.name + ": " + i.outcome;
  for (const auto& c : r.counterexamples) details += "\n  " + c;
  EXPECT_EQ(r.verdict, expected_verdict(*t)) << t->id << details;
  EXPECT_GT(r.named_instances + r.random_instances, 0u) << t->id;
}

INSTANTIATE_TEST_SUITE_P(TheoremRegistry, EveryTheorem, ::testing::ValuesIn(all_ids()), param_name);

TEST(TheoremRegistry, IdentifiersFollowTheCatalogueScheme) {
  // THEOREMS.md 0.1: <SOURCE>-<KIND><NUMBER>, BG-<ORIGIN>-<NAME>, X-<NAME>.
  const std::regex paper(R"((VW21|LYU22|HSTVVXZ23|HSV1?)-(T|L|C|CL|P|O|D|FN|S)[0-9A-Z][0-9A-Z.\-]*)");
  const std::regex bg(R"(BG-[A-Z0-9]+(-[A-Z0-9]+)*)"), x(R"(X-[A-Z0-9]+(-[A-Z0-9]+)*)");
  std::set<std::string> seen;
  for (const auto& t : registry()) {
    EXPECT_TRUE(std::regex_match(t.id, paper) || std::regex_match(t.id, bg) || std::regex_match(t.id, x)) << t.id;
    EXPECT_TRUE(seen.insert(t.id).second) << t.id << " registered twice";
    EXPECT_FALSE(t.statement.empty()) << t.id;
    EXPECT_FALSE(t.citation.empty()) << t.id;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(EXACTDP_SOURCE_DIR) / t.source)) << t.id << ": " << t.source;
  }
}

TEST(TheoremRegistry, UnknownIdIsNotFound) { EXPECT_EQ(find_theorem("HSV-T99.9"), nullptr); }

// The checker must be able to fail: a POSITIVE "theorem" that is false (H₁ of RR₂ is 1/3, not ≤ 1/4)
// is reported violated with its counterexample; a NEGATIVE whose violation does not occur is "not
// reproduced"; a check that throws or checks nothing fails.
TEST(TheoremRegistry, FalseTheoremsAreCaught) {
  Theorem t;
  t.id = "X-FALSE";
  t.kind = Kind::positive;
  t.check = [](CheckContext& ctx) {
    const Rational tv(1, 3);  // TV of RR₂: (2 − 1)/(2 + 1)
    ctx.random_instance(tv <= Rational(1, 4), "RR₂: TV = 1/3 > 1/4");
  };
  CheckResult r = run_check(t, small_budget());
  EXPECT_EQ(r.verdict, Verdict::violated);
  ASSERT_EQ(r.counterexamples.size(), 1u);
  EXPECT_EQ(r.counterexamples[0], "RR₂: TV = 1/3 > 1/4");
  EXPECT_TRUE(r.failed());

  t.kind = Kind::negative;
  t.check = [](CheckContext& ctx) { ctx.instance("a violation that does not occur", "1/3 ≤ 1/2", false); };
  EXPECT_EQ(run_check(t, small_budget()).verdict, Verdict::not_reproduced);

  t.kind = Kind::positive;
  t.check = [](CheckContext&) { throw std::runtime_error("boom"); };
  r = run_check(t, small_budget());
  EXPECT_EQ(r.verdict, Verdict::violated);
  EXPECT_NE(r.counterexamples.at(0).find("boom"), std::string::npos);

  t.check = [](CheckContext&) {};
  EXPECT_EQ(run_check(t, small_budget()).verdict, Verdict::violated) << "a check that ran no instance must not pass";

  // A game beyond the engine's limit is a refusal, reported as such: neither a pass nor a violation.
  t.check = [](CheckContext&) { throw GameTooLarge("test", 10, 5); };
  r = run_check(t, small_budget());
  EXPECT_EQ(r.verdict, Verdict::refused);
  EXPECT_FALSE(r.failed());
}

TEST(TheoremRegistry, SeedMakesRandomInstancesReproducible) {
  const Theorem* t = find_theorem("BG-KOV15-OPT");
  ASSERT_NE(t, nullptr);
  Rng a(7), b(7), c(8);
  std::vector<long> xa, xb, xc;
  for (int i = 0; i < 20; ++i) xa.push_back(a.range(0, 1000)), xb.push_back(b.range(0, 1000)), xc.push_back(c.range(0, 1000));
  EXPECT_EQ(xa, xb);
  EXPECT_NE(xa, xc);
  Budget bud = small_budget();
  bud.random = 3;
  const CheckResult r1 = run_check(*t, bud), r2 = run_check(*t, bud);
  EXPECT_EQ(r1.random_instances, 3u);
  EXPECT_EQ(r1.summary, r2.summary);
}

// The two committed indexes are generated from the registry (`exactdp theorems docs`); regenerate
// and diff. They show each entry's verdict and nothing else of its run, and EveryTheorem fails
// unless that verdict is expected_verdict(entry): so the indexes are generated here from the
// expected verdicts rather than by running every check a second time (each page, which shows the
// outcomes, is compared by EveryTheorem with the run it just made).
TEST(TheoremPages, UpToDate) {
  std::vector<CheckResult> results;
  for (const auto& t : registry()) {
    CheckResult r;
    r.theorem = &t;
    r.verdict = expected_verdict(t);
    results.push_back(r);
  }
  EXPECT_EQ(read(root / "spec" / "theorems" / "README.md"), theorem_index(results)) << "run `exactdp theorems docs`";
  EXPECT_EQ(read(root / "docs" / "theorems.md"), doxygen_index(results)) << "run `exactdp theorems docs`";
}

}  // namespace
}  // namespace exactdp::proofs
