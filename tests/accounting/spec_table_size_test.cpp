// The estimated size of a mechanism SPEC's one-use tables (MechanismSpec::table_size()) and the
// refusal of parse_mechanism_spec() above a budget: the work that could blow up is estimated
// before anything is built.
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {
namespace {

Integer bits(const Integer& z) { return Integer(static_cast<unsigned long>(mpz_sizeinbase(z.get_mpz_t(), 2))); }
Integer bits(const Rational& x) { return bits(x.get_num()) + bits(x.get_den()); }

/// The error of parsing @p spec under @p budget bytes (fails the test when it parses).
Error refusal(const std::string& spec, std::uint64_t budget = limits::default_spec_table_budget) {
  try {
    parse_mechanism_spec(spec, budget);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << spec << " was accepted";
  return Error("", "", "", "");
}

TEST(SpecTableSize, BoundsEveryEntryOfTheBuiltExactTable) {
  // the independent route: build the exact privacy-loss distribution and measure its masses
  for (const char* r : {"1/2", "3/4", "1000/1001", "1/7"})
    for (unsigned long s : {1UL, 5UL, 40UL}) {
      const std::string text = std::string("dlaplace:r=") + r + ",sensitivity=" + std::to_string(s);
      const MechanismSpec spec = parse_mechanism_spec(text);
      const SpecTableSize size = spec.table_size();
      const PrivacyLoss loss = *spec.exact_loss();
      EXPECT_EQ(size.outcomes, Integer(s + 1)) << text;  // the ratios r^(S-2k) are distinct: no atom merges
      EXPECT_EQ(Integer(static_cast<unsigned long>(loss.atoms().size())), size.outcomes) << text;
      Integer largest = 0, total = 0;
      for (const auto& a : loss.atoms()) {
        largest = std::max({largest, bits(a.p), bits(a.q)});
        total += bits(a.p);
      }
      EXPECT_LE(largest, size.bits_per_outcome) << text;  // an upper bound on every entry...
      if (s == 40) EXPECT_GE(2 * largest + 16, size.bits_per_outcome) << text;  // ...not a loose one once r^S dominates
      EXPECT_LE(total, size.bytes) << text;  // the peak holds at least one law's digits
    }
}

TEST(SpecTableSize, DiscreteLaplaceWithAHugeSensitivityIsRefusedWhenRead) {
  // the note of stop 25: this spec built a table of ~10^11 bytes while a claims file was read
  const Error e = refusal("dlaplace:r=1/2,sensitivity=524289");
  EXPECT_EQ(e.field(), "dlaplace:sensitivity");
  EXPECT_EQ(e.value(), "524289");
  EXPECT_NE(e.why().find("estimated at"), std::string::npos) << e.why();
  EXPECT_NE(e.why().find("524290 outcomes"), std::string::npos) << e.why();
  EXPECT_NE(e.why().find("--max-memory"), std::string::npos) << e.why();
  // a budget large enough accepts it: nothing is built while parsing
  const MechanismSpec raised = parse_mechanism_spec("dlaplace:r=1/2,sensitivity=524289", std::uint64_t{1} << 50);
  EXPECT_GT(raised.table_size().bytes, Integer(static_cast<unsigned long>(limits::default_spec_table_budget)));
}

TEST(SpecTableSize, CertifiedTablesAreEstimatedToo) {
  EXPECT_EQ(refusal("dlaplace:a=1/1000,sensitivity=1048576").field(), "dlaplace:sensitivity");
  EXPECT_EQ(refusal("dgauss:sigma2=4,truncation=1048576").field(), "dgauss:truncation");
  // outcomes built: the union of [−T, T] and [S − T, S + T], counted by hand; the PLD then merges
  // the outcomes of one world only (ratios +∞, 0), so it has at most as many atoms
  const std::vector<std::pair<const char*, unsigned long>> cases{{"dgauss:sigma2=4,truncation=10,sensitivity=3", 24},
                                                                 {"dgauss:sigma2=1,truncation=0,sensitivity=524289", 2},
                                                                 {"dgauss:sigma2=1,truncation=2,sensitivity=5", 10},
                                                                 {"dgauss:sigma2=1,truncation=2,sensitivity=4", 9}};
  for (const auto& [text, union_size] : cases) {
    const MechanismSpec spec = parse_mechanism_spec(text);
    EXPECT_EQ(spec.table_size().outcomes, Integer(union_size)) << text;
    EXPECT_LE(spec.certified_loss()->atoms().size(), union_size) << text;
  }
}

TEST(SpecTableSize, ClosedFormsAndSmallTablesAreNeverRefused) {
  for (const char* s : {"gauss:sigma=1/1000", "laplace:b=1/1000,sensitivity=1000000", "dgauss:sigma2=1000000",
                        "krr:k=1000000000000,lambda=3", "rr:lambda=3,delta=1e-5", "dlaplace:r=0,sensitivity=1048576",
                        "dlaplace:r=1/2,sensitivity=0", "dgauss:sigma2=0,truncation=1048576"})
    EXPECT_NO_THROW(parse_mechanism_spec(s, 1)) << s;  // a one-byte budget (Python's max_memory=1 forces routes)
}

TEST(SpecTableSize, TheBudgetIsInclusive) {
  // just under (at) the limit is accepted, one byte less refuses it
  const std::string text = "dlaplace:r=3/4,sensitivity=300";
  const Integer bytes = parse_mechanism_spec(text).table_size().bytes;
  ASSERT_TRUE(bytes.fits_ulong_p());
  EXPECT_NO_THROW(parse_mechanism_spec(text, bytes.get_ui()));
  EXPECT_EQ(refusal(text, bytes.get_ui() - 1).field(), "dlaplace:sensitivity");
  // and the next sensitivity is estimated larger (monotone in S)
  EXPECT_GT(parse_mechanism_spec("dlaplace:r=3/4,sensitivity=301").table_size().bytes, bytes);
}

}  // namespace
}  // namespace exactdp
