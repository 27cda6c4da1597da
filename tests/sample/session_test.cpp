// Live sessions (sample/session.hpp): state kept across messages, replay with a seed, the reserved
// answers, and the refusals; plus the input limits (core/limits.hpp) and the fuzzer's regression
// inputs (tests/fuzz/corpus/*/regress-*), which must be refused with exactdp::Error.
#include "exactdp/core/limits.hpp"
#include "exactdp/io/claims.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/sample/samplers.hpp"
#include "exactdp/sample/session.hpp"
#include "sample/sample_support.hpp"
#include "support/exact.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace exactdp {
namespace {

using testing::explore;
using testing::q;

std::filesystem::path repo() { return testing::source_dir(); }

const char* counter_spec = R"({"format": "exactdp/1", "name": "counter", "horizon": 3,
  "neighbours": {"type": "static", "worlds": ["x", "y"]},
  "mechanism": {"type": "table", "messages": ["inc", "read"], "missing_rules": "invalid",
    "initial": {"x": "c0", "y": {"c0": "1/2", "c1": "1/2"}},
    "states": {
      "c0": {"inc": [{"p": 1, "answer": "ok", "next": "c1"}], "read": [{"p": 1, "answer": "0", "next": "c0"}]},
      "c1": {"inc": [{"p": 1, "answer": "ok", "next": "c2"}], "read": [{"p": 1, "answer": "1", "next": "c1"}]},
      "c2": {"read": [{"p": 1, "answer": "2", "next": "stop"}]}, "stop": {}}}})";

TEST(SampleSession, KeepsStateAcrossMessages) {
  // a deterministic counter: inc, inc, read must answer 2, then the state has halted
  Game g = parse_spec(counter_spec, "counter.json");
  Session s = start_session(g, {.world = "x", .state = std::nullopt}, std::make_shared<SeededSource>("1"));
  EXPECT_EQ(s.send("inc").answer, "ok");
  EXPECT_EQ(s.send("read").answer, "1");
  EXPECT_EQ(s.send("inc").answer, "ok");
  EXPECT_EQ(s.send("inc").answer, invalid_answer);  // c2 does not accept inc; the state stays
  EXPECT_EQ(s.state_name(), "c2");
  EXPECT_EQ(s.send("read").answer, "2");
  EXPECT_EQ(s.send("read").answer, halt_answer);  // "stop" is listed as {}: halted
  EXPECT_EQ(s.steps(), 6u);
  EXPECT_THROW(s.send("dec"), Error);  // not in the alphabet; nothing changes
  EXPECT_EQ(s.steps(), 6u);
}

TEST(SampleSession, InitialLawIsSampledExactly) {
  // world y starts in c0 or c1 with probability 1/2 each: a read answers "0" or "1", exactly 1/2
  Game g = parse_spec(counter_spec, "counter.json");
  auto e = explore<std::string>(
      [&](BitSource& src) {
        std::shared_ptr<BitSource> shared(&src, [](BitSource*) {});
        Session s = start_session(g, {.world = "y", .state = std::nullopt}, shared);
        return s.send("read").answer;
      },
      4);
  EXPECT_EQ(e.unexplored, 0);
  EXPECT_EQ(e.law["0"], q(1, 2));
  EXPECT_EQ(e.law["1"], q(1, 2));
}

TEST(SampleSession, SeededSessionsReplay) {
  Game g = load_spec_file(repo() / "spec" / "mechanisms" / "mp.json");
  auto run = [&](const std::string& seed) {
    std::string out;
    for (int i = 0; i < 50; ++i) {
      Session s = start_session(g, {.world = "x", .state = std::nullopt}, std::make_shared<SeededSource>(seed + std::to_string(i)));
      out += s.send("0").answer + s.send("1").answer;
    }
    return out;
  };
  EXPECT_EQ(run("a"), run("a"));
  EXPECT_NE(run("a"), run("b"));  // 100 answers with thirds: equal with negligible probability
}

// Strict specs name their alphabet (issue 15): the two-round example declares "q", so another
// message is refused and the state does not move; after one answer the state has halted.
TEST(SampleSession, DeclaredAlphabetOnly) {
  Game g = load_spec_file(repo() / "spec" / "mechanisms" / "two-round-example.json");
  ASSERT_EQ(g.mechanism->messages(), std::vector<std::string>{"q"});
  Session s = start_session(g, {.world = std::nullopt, .state = "s0"}, std::make_shared<SeededSource>("w"));
  EXPECT_THROW(s.send("anything"), Error);
  EXPECT_EQ(s.steps(), 0u);
  const std::string a = s.send("q").answer;
  EXPECT_TRUE(a == "0" || a == "1");
  EXPECT_EQ(s.send("q").answer, halt_answer);
}

TEST(SampleSession, BadStartsAreRefused) {
  Game g = parse_spec(counter_spec, "counter.json");
  auto src = std::make_shared<SeededSource>("s");
  EXPECT_THROW(start_session(g, {.world = "z", .state = std::nullopt}, src), Error);
  EXPECT_THROW(start_session(g, {.world = std::nullopt, .state = "nope"}, src), Error);
  EXPECT_THROW(start_session(g, {.world = "x", .state = "c0"}, src), Error);
  EXPECT_THROW(start_session(g, {}, src), Error);
  EXPECT_THROW(Session(g.mechanism, 0, nullptr), Error);
  try {
    start_session(g, {.world = "z", .state = std::nullopt}, src);
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "--world");
    EXPECT_EQ(e.value(), "z");
  }
}

// ------------------------------------------------------------------ limits and fuzz regressions

std::string field_of(const std::string& text) {
  try {
    parse_spec(text, "t.json");
  } catch (const Error& e) {
    return e.field();
  }
  return "<accepted>";
}

TEST(SampleLimits, SpecRefusesOversizedNumbersAndTables) {
  std::string huge = counter_spec;
  huge.replace(huge.find("\"1/2\""), 5, "\"1e-999999\"");
  EXPECT_EQ(field_of(huge), "/mechanism/initial/y/c0");
  // 2100 declared messages × 2100 halted states = 4.41M cells > max_table_cells (4M)
  std::ostringstream big;
  big << R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},)"
      << R"("mechanism": {"type": "table", "initial": {"x": "s0", "y": "s0"}, "messages": [)";
  for (int i = 0; i < 2100; ++i) big << (i ? "," : "") << "\"m" << i << "\"";
  big << R"(], "states": {)";
  for (int i = 0; i < 2100; ++i) big << (i ? "," : "") << "\"s" << i << "\": {}";
  big << "}}}";
  static_assert(2100UL * 2100UL > limits::max_table_cells);
  EXPECT_EQ(field_of(big.str()), "/mechanism/states");
  EXPECT_EQ(field_of(R"({"format": "exactdp/1", "horizon": 1e999})"), "");  // JSON number overflow: refused
}

TEST(SampleLimits, FuzzerRegressionInputsAreRefusedCleanly) {
  // inputs that crashed the parsers (uncaught nlohmann out_of_range) before they were hardened
  for (const char* dir : {"spec_file", "claims"}) {
    for (const auto& entry : std::filesystem::directory_iterator(repo() / "tests" / "fuzz" / "corpus" / dir)) {
      if (entry.path().filename().string().rfind("regress-", 0) != 0) continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      SCOPED_TRACE(entry.path().string());
      if (std::string(dir) == "spec_file") EXPECT_THROW(parse_spec(text.str(), "r"), Error);
      else EXPECT_THROW(parse_claims(text.str(), "r"), Error);
    }
  }
}

TEST(SampleLimits, ClaimsRefuseOversizedNumbers) {
  const std::string text = R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "rr:lambda=2",
    "delta": "1e-999999", "claimed_epsilon": "1"}]})";
  try {
    parse_claims(text, "c.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "/claims/0/delta");
  }
}

}  // namespace
}  // namespace exactdp
