// Spec files (io/spec_file.hpp): the bundled examples in spec/mechanisms/ load and give the same
// games as the C++ fixtures (THEOREMS.md D.16, E.5); every error names the file, the JSON path
// and the value.
#include "exactdp/game/engine.hpp"
#include "exactdp/io/spec_file.hpp"
#include "game/fixtures.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

namespace exactdp {
namespace {

using testing::q;

using testing::spec_dir;

void expect_same_profile(const Game& a, const Game& b) {
  auto pa = worst_case_profile(a).profile, pb = worst_case_profile(b).profile;
  EXPECT_EQ(pa.forward(), pb.forward());
  EXPECT_EQ(pa.backward(), pb.backward());
}

TEST(SpecFile, BundledMPAndMAMatchTheFixtures) {
  auto mp = load_spec_file(spec_dir() / "mp.json");
  EXPECT_EQ(mp.name, "MP");
  EXPECT_EQ(mp.horizon, 2u);
  EXPECT_EQ(mp.world_names[1], "x'");
  expect_same_profile(mp, testing::mp());
  EXPECT_EQ(worst_case_profile(mp).profile.delta(2), q(2, 5));
  auto ma = load_spec_file(spec_dir() / "ma.json");
  expect_same_profile(ma, testing::ma());
  EXPECT_EQ(worst_case_profile(ma).profile.least_lambda(q(1, 10)), ExtendedRational(q(31, 10)));
}

TEST(SpecFile, BundledStickyRRTwoRoundAndEventLevel) {
  auto sticky = load_spec_file(spec_dir() / "sticky-rr.json");
  EXPECT_EQ(sticky.horizon, 4u);
  expect_same_profile(sticky, testing::sticky_rr(3, 2, 4));
  auto two = load_spec_file(spec_dir() / "two-round-example.json");
  auto p = worst_case_profile(two).profile;  // one RR₂ answer, then halted
  EXPECT_EQ(p.delta(1), q(1, 3));
  EXPECT_EQ(p.delta(2), 0);
  auto stream = load_spec_file(spec_dir() / "event-level-rr.json");
  EXPECT_EQ(worst_case_ratio(stream).max(), ExtendedRational(3));
  EXPECT_EQ(worst_case_profile(stream).profile.delta(1), q(1, 2));
}

// Memoisation on normalised belief pairs: sticky RR at horizon 64 needs O(horizon) distinct keys
// (the naive game tree has 2^64 leaves), MP a handful.
TEST(SpecFile, MemoisationStatistics) {
  auto sticky = load_spec_file(spec_dir() / "sticky-rr.json");
  EngineOptions o;
  o.horizon = 64;
  auto [prof, stats] = worst_case_profile(sticky, o);
  EXPECT_EQ(prof.delta(1), q(1, 2));
  EXPECT_LE(stats.distinct_keys, 4u * 64u + 8u);
  std::cout << "[ stats    ] sticky RR_3, horizon 64: nodes visited " << stats.nodes_visited << ", distinct keys "
            << stats.distinct_keys << ", cache hits " << stats.cache_hits << ", naive estimate "
            << estimate_game_size(sticky, 64) << "\n";
  auto mp = worst_case_profile(load_spec_file(spec_dir() / "mp.json")).stats;
  std::cout << "[ stats    ] MP, horizon 2: nodes visited " << mp.nodes_visited << ", distinct keys " << mp.distinct_keys
            << ", cache hits " << mp.cache_hits << "\n";
}

/// parse_spec(text) must fail with exactly this field and value, naming the source.
void expect_error(const std::string& text, const std::string& field, const std::string& value) {
  try {
    parse_spec(text, "bad.json");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "bad.json") << e.what();
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_EQ(e.value(), value) << e.what();
  }
}

/// A valid static two-state spec with one rule replaced by @p rule.
std::string with_rule(const std::string& rule, const std::string& extra = "") {
  return R"({"format": "exactdp/1", "horizon": 1, )" + extra +
         R"("neighbours": {"type": "static", "worlds": ["x", "y"]},
             "mechanism": {"type": "table", "messages": ["q"], "initial": {"x": "s0", "y": "s1"},
               "states": {"s0": {"*": )" + rule + R"(},
                          "s1": {"*": [{"p": 1, "answer": "a", "next": "h"}]}, "h": {}}}})";
}

TEST(SpecFile, ErrorsNameFilePathAndValue) {
  EXPECT_NO_THROW(parse_spec(with_rule(R"([{"p": "1/3", "answer": "a", "next": "h"}, {"p": "2/3", "answer": "b", "next": "h"}])"), "ok.json"));
  expect_error(with_rule(R"([{"p": "1/2", "answer": "a", "next": "h"}])"), "/mechanism/states/s0/*", "1/2");
  expect_error(with_rule(R"([{"p": "abc", "answer": "a", "next": "h"}])"), "/mechanism/states/s0/*/0/p", "abc");
  expect_error(with_rule(R"([{"p": 0.5, "answer": "a", "next": "h"}, {"p": "1/2", "answer": "b", "next": "h"}])"),
               "/mechanism/states/s0/*/0/p", "0.5");
  expect_error(with_rule(R"([{"p": "-1/2", "answer": "a", "next": "h"}, {"p": "3/2", "answer": "b", "next": "h"}])"),
               "/mechanism/states/s0/*/0/p", "-1/2");
  expect_error(with_rule(R"([{"p": 1, "answer": "a", "nxt": "h"}])"), "/mechanism/states/s0/*/0/nxt", "nxt");
  expect_error(with_rule(R"([{"p": 1, "answer": 7, "next": "h"}])"), "/mechanism/states/s0/*/0/answer", "7");
  expect_error(with_rule("[]"), "/mechanism/states/s0/*", "[]");
  expect_error(with_rule(R"([{"p": 1, "answer": "a", "next": "h"}])", R"("colour": "blue", )"), "/colour", "colour");
  expect_error(R"({"format": "exactdp/2"})", "/format", "exactdp/2");
  expect_error(R"({"horizon": 1})", "/", "");
  expect_error(R"([1, 2])", "/", "[1,2]");
  // horizon
  auto h0 = with_rule(R"([{"p": 1, "answer": "a", "next": "h"}])");
  h0.replace(h0.find("\"horizon\": 1"), 12, "\"horizon\": 0");
  expect_error(h0, "/horizon", "0");
  // neighbours
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "graph"}, "mechanism": {}})", "/neighbours/type", "graph");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "automaton", "initial": "a",
                 "states": {"a": [{"pair": ["0", "1"], "next": "b"}]}}, "mechanism": {}})", "/neighbours/states/a/0/next", "b");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "automaton", "initial": "z",
                 "states": {"a": []}}, "mechanism": {}})", "/neighbours/initial", "z");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "automaton", "initial": "a",
                 "states": {"a": [{"pair": ["0", "1"], "next": "a"}, {"pair": ["0", "1"], "next": "a"}]}}, "mechanism": {}})",
               "/neighbours/states/a/1/pair", R"(["0","1"])");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x"]}, "mechanism": {}})",
               "/neighbours/worlds", R"(["x"])");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
                 "mechanism": {"type": "library", "name": "svt"}})", "/neighbours", R"({"type":"static","worlds":["x","y"]})");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
                 "mechanism": {"type": "table", "initial": {"x": "s", "z": "s"}, "states": {"s": {}}}})", "/mechanism/initial/z", "z");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
                 "mechanism": {"type": "table", "initial": {"x": "s", "y": "t"}, "states": {"s": {}}}})", "/mechanism/initial/y", "t");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "pairs", "allowed": [["0", "1"], ["0", "1"]]},
                 "mechanism": {"type": "table", "initial": "s", "states": {"s": {}}}})", "/neighbours/allowed/1", R"(["0","1"])");
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "pairs", "allowed": [["0", "1"]], "max_differing": -1},
                 "mechanism": {"type": "table", "initial": "s", "states": {"s": {}}}})", "/neighbours/max_differing", "-1");
  // JSON syntax and missing files
  try {
    parse_spec("{\"format\": ", "broken.json");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "broken.json");
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos);
  }
  try {
    load_spec_file("/nonexistent/spec.json");
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "/nonexistent/spec.json");
  }
}

// An automaton that allows one differing pair and then only identical ones is the pairs relation
// with max_differing 1 (event-level, THEOREMS.md A.7): same profile on the bundled stream.
TEST(SpecFile, AutomatonExpressesEventLevel) {
  auto pairs = load_spec_file(spec_dir() / "event-level-rr.json");
  auto automaton = load_spec_file(spec_dir() / "event-level-rr-automaton.json");
  EXPECT_EQ(automaton.verifier->describe(), "automaton with 2 states");
  expect_same_profile(pairs, automaton);
  // a user-level relation: differing pairs only while the same user's bit is being reported
  auto g = parse_spec(R"({"format": "exactdp/1", "horizon": 2,
      "neighbours": {"type": "automaton", "initial": "clean",
        "states": {"clean": [{"pair": ["0", "0"], "next": "clean"}, {"pair": ["0", "1"], "next": "used"}],
                   "used": []}},
      "mechanism": {"type": "table", "initial": "s",
        "states": {"s": {"0": [{"p": "3/4", "answer": "0", "next": "s"}, {"p": "1/4", "answer": "1", "next": "s"}],
                         "1": [{"p": "1/4", "answer": "0", "next": "s"}, {"p": "3/4", "answer": "1", "next": "s"}]}}}})",
                      "user.json");
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(3));
}

// The example of issue 3, verbatim, relied on unlisted next states being halted; under the strict
// rules (issue 15) each unlisted next state is an error, and the bundled file lists them as {}.
TEST(SpecFile, IssueExampleVerbatimIsNowAnError) {
  const std::string verbatim = R"({ "format": "exactdp/1", "name": "two-round example", "horizon": 2,
  "neighbours": { "type": "static", "worlds": ["x", "x'"] },
  "mechanism": { "type": "table",
    "initial": { "x": "s0", "x'": "s1" },
    "states": {
      "s0": { "*": [ { "p": "2/3", "answer": "0", "next": "a0" }, { "p": "1/3", "answer": "1", "next": "a1" } ] },
      "s1": { "*": [ { "p": "1/3", "answer": "0", "next": "b0" }, { "p": "2/3", "answer": "1", "next": "b1" } ] } } } })";
  expect_error(verbatim, "/mechanism/states/s0/*/0/next", "a0");
  const SpecReading all = read_spec(verbatim, "issue.json");
  ASSERT_EQ(all.errors.size(), 5u);  // four unlisted next states, and no named message
  EXPECT_EQ(all.error_codes[3], "unknown-state");
  EXPECT_EQ(all.error_codes[4], "no-alphabet");
  auto two = load_spec_file(spec_dir() / "two-round-example.json");
  auto p = worst_case_profile(two).profile;
  EXPECT_EQ(p.delta(1), q(1, 3));
  EXPECT_EQ(p.delta(2), 0);
  // an unlisted initial state is an error too
  expect_error(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
                 "mechanism": {"type": "table", "initial": {"x": "s", "y": "nowhere"}, "states": {"s": {}}}})",
               "/mechanism/initial/y", "nowhere");
}

TEST(SpecFile, PairsWithInitialLawAndDeclaredMessages) {
  auto g = parse_spec(R"({"format": "exactdp/1", "horizon": 2,
      "neighbours": {"type": "pairs", "allowed": [["lo", "hi"], ["hi", "hi"]], "max_differing": 1},
      "mechanism": {"type": "table", "messages": ["hi", "lo"], "initial": {"s": "1/2", "t": "1/2"},
        "states": {"s": {"lo": [{"p": 1, "answer": "0", "next": "s"}], "hi": [{"p": 1, "answer": "1", "next": "s"}]},
                   "t": {"*": [{"p": "1/2", "answer": "0", "next": "t"}, {"p": "1/2", "answer": "1", "next": "t"}]}}}})",
                      "pairs.json");
  EXPECT_EQ(g.mechanism->messages(), (std::vector<std::string>{"hi", "lo"}));
  EXPECT_EQ(g.initial[0].size(), 2u);
  // one differing pair, then an identical one that tells s from t: e.g. views ("0", "1") after
  // ("lo", "hi"), ("hi", "hi") have masses 5/8 and 1/8
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(5));
  EXPECT_EQ(worst_case_hockey_stick(g, 100).delta(), 0);
}

}  // namespace
}  // namespace exactdp
