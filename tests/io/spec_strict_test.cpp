// Strict spec files (issue 15 items 1-3, io/spec_file.hpp), the one JSON reader
// (io/json_reader.hpp) and lint (io/spec_lint.hpp, game/structure.hpp). Expected values are
// written by hand from the definitions in those headers; the properties are checked with RapidCheck.
#include "exactdp/game/authoring.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/game/structure.hpp"
#include "exactdp/io/claims.hpp"
#include "exactdp/io/json_reader.hpp"
#include "exactdp/io/pair_file.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/io/spec_lint.hpp"
#include "exactdp/io/spec_writer.hpp"
#include "support/paths.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <filesystem>
#include <set>

namespace exactdp {
namespace {

/// A SmartSum-like running parity over a bit stream (event-level neighbours): state nxK holds
/// the true parity K; each bit is answered with the new parity, flipped with probability 1/4.
/// @p typo replaces the two next states "nx0" of state nx1's rule "1" by "nX0".
std::string running_parity(bool typo) {
  const std::string bad = typo ? "nX0" : "nx0";
  return R"({"format": "exactdp/1", "name": "running parity", "horizon": 3,
    "neighbours": {"type": "pairs", "allowed": [["0", "1"], ["0", "0"], ["1", "1"]], "max_differing": 1},
    "mechanism": {"type": "table", "messages": ["0", "1"], "initial": "nx0",
      "states": {
        "nx0": {"0": [{"p": "3/4", "answer": "0", "next": "nx0"}, {"p": "1/4", "answer": "1", "next": "nx0"}],
                "1": [{"p": "3/4", "answer": "1", "next": "nx1"}, {"p": "1/4", "answer": "0", "next": "nx1"}]},
        "nx1": {"0": [{"p": "3/4", "answer": "1", "next": "nx1"}, {"p": "1/4", "answer": "0", "next": "nx1"}],
                "1": [{"p": "3/4", "answer": "0", "next": ")" + bad + R"("}, {"p": "1/4", "answer": "1", "next": ")" + bad + R"("}]}}}})";
}

Error error_of(const std::string& text) {
  try {
    parse_spec(text, "t.json");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "accepted: " << text;
  return Error("accepted");
}

TEST(SpecStrict, MisspeltNextStateIsAnErrorWithASuggestion) {
  EXPECT_NO_THROW(parse_spec(running_parity(false), "ok.json"));
  const Error e = error_of(running_parity(true));
  EXPECT_EQ(e.where(), "t.json");
  EXPECT_EQ(e.field(), "/mechanism/states/nx1/1/0/next");
  EXPECT_EQ(e.value(), "nX0");
  EXPECT_NE(e.why().find("did you mean `nx0`"), std::string::npos) << e.what();
  EXPECT_NE(e.why().find("1 more error"), std::string::npos) << e.what();
  // both rows are reported, in file order
  const SpecReading all = read_spec(running_parity(true), "t.json");
  ASSERT_EQ(all.errors.size(), 2u);
  EXPECT_EQ(all.errors[1].field(), "/mechanism/states/nx1/1/1/next");
  EXPECT_EQ(all.error_codes, (std::vector<std::string>{"unknown-state", "unknown-state"}));
  EXPECT_FALSE(all.game.has_value());
}

/// A static two-world table; @p s1 is the rules of state s1, @p extra goes into the mechanism.
std::string two_worlds(const std::string& s1, const std::string& extra = "") {
  return R"({"format": "exactdp/1", "horizon": 2, "neighbours": {"type": "static", "worlds": ["x", "y"]},
    "mechanism": {"type": "table", )" + extra + R"("messages": ["q", "r"], "initial": {"x": "s0", "y": "s1"},
      "states": {"s0": {"*": [{"p": 1, "answer": "a", "next": "h"}]}, "s1": )" + s1 + R"(, "h": {},
                 "lonely": {"q": [{"p": 1, "answer": "a", "next": "h"}]}}}})";
}

TEST(SpecStrict, MissingRuleIsAnErrorUnlessTheTableOptsIn) {
  const std::string s1 = R"({"q": [{"p": 1, "answer": "a", "next": "h"}]})";
  const Error e = error_of(two_worlds(s1));
  EXPECT_EQ(e.field(), "/mechanism/states/s1");
  EXPECT_EQ(e.value(), "r");  // "lonely" lacks r too but is unreachable: no error for it
  const Game g = parse_spec(two_worlds(s1, R"("missing_rules": "invalid", )"), "t.json");
  // opted in: s1 answers r with "invalid", so the first answer tells the worlds apart
  const auto r = *g.mechanism->message_id("r");
  const auto s1_id = g.initial[1].front().first;
  EXPECT_EQ(g.mechanism->answer_name(g.mechanism->step(s1_id, r).front().answer), invalid_answer);
  EXPECT_EQ(worst_case_profile(g).profile.delta(1), 1);
  EXPECT_EQ(error_of(two_worlds(s1, R"("missing_rules": "never", )")).field(), "/mechanism/missing_rules");
}

TEST(SpecStrict, RuleForAnUndeclaredMessageAndEmptyAlphabet) {
  const Error e = error_of(two_worlds(R"({"*": [{"p": 1, "answer": "a", "next": "h"}], "R": [{"p": 1, "answer": "b", "next": "h"}]})"));
  EXPECT_EQ(e.field(), "/mechanism/states/s1/R");
  EXPECT_NE(e.why().find("did you mean `r`"), std::string::npos) << e.what();
  const Error none = error_of(R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
    "mechanism": {"type": "table", "initial": {"x": "s", "y": "s"}, "states": {"s": {"*": [{"p": 1, "answer": "a", "next": "s"}]}}}})");
  EXPECT_EQ(none.field(), "/mechanism");
  EXPECT_NE(none.why().find("\"messages\""), std::string::npos) << none.what();
}

TEST(SpecStrict, RepeatedKeysAreErrorsInEveryReader) {
  // in a spec, deep inside an array
  std::string spec = running_parity(false);
  spec.replace(spec.find(R"("answer": "1", "next": "nx0")"), 0, R"("p": "1/2", )");
  const Error e = error_of(spec);
  EXPECT_EQ(e.field(), "/mechanism/states/nx0/0/1/p");
  EXPECT_EQ(e.value(), "p");
  EXPECT_NE(e.why().find("repeated"), std::string::npos);
  // at the top level
  EXPECT_EQ(error_of(R"({"format": "exactdp/1", "format": "exactdp/1"})").field(), "/format");
  // a pair file
  try {
    parse_pair(R"({"P": {"a": "1/2", "b": "1/2"}, "Q": {"a": "1", "a": "0"}})", "pair.json");
    ADD_FAILURE();
  } catch (const Error& e2) {
    EXPECT_EQ(e2.where(), "pair.json");
    EXPECT_EQ(e2.field(), "/Q/a");
  }
  // a claims file
  try {
    parse_claims(R"({"format": "exactdp-claims/1", "claims": [{"id": "c", "mechanism": "rr:lambda=2", "delta": "0",
                    "claimed_epsilon": "1", "claimed_epsilon": "9"}]})", "claims.json");
    ADD_FAILURE();
  } catch (const Error& e3) {
    EXPECT_EQ(e3.field(), "/claims/0/claimed_epsilon");
  }
  // keys equal after JSON escapes are the same key
  EXPECT_EQ(error_of(R"({"format": "exactdp/1", "form\u0061t": "x"})").field(), "/format");
}

TEST(JsonReader, ExactNumbersRefuseFloatsNamingPointerAndValue) {
  const io::JsonReader r("f.json");
  const io::Json doc = io::parse_json(R"({"a": [1, "1/3", 0.5, 1e3, "0.25", -2, 18446744073709551615]})", "f.json");
  EXPECT_EQ(r.exact(doc["a"][0], "/a/0"), 1);
  EXPECT_EQ(r.exact(doc["a"][1], "/a/1"), Rational(1, 3));
  EXPECT_EQ(r.exact(doc["a"][4], "/a/4"), Rational(1, 4));
  EXPECT_EQ(r.exact(doc["a"][5], "/a/5"), -2);
  EXPECT_EQ(r.exact(doc["a"][6], "/a/6"), Rational(mpz_class("18446744073709551615")));
  for (int i : {2, 3}) {
    try {
      r.exact(doc["a"][static_cast<std::size_t>(i)], "/a/" + std::to_string(i));
      ADD_FAILURE();
    } catch (const Error& e) {
      EXPECT_EQ(e.field(), "/a/" + std::to_string(i));
      EXPECT_EQ(e.value(), i == 2 ? "0.5" : "1000.0");
    }
  }
  EXPECT_THROW(r.probability(doc["a"][5], "/a/5"), Error);
}

TEST(JsonReader, NearestNames) {
  // nx0 differs by case only (distance 0); nx1 is two edits away, beyond the bound max(1, 3/3)
  EXPECT_EQ(io::nearest_names("nX0", {"nx1", "nx0", "h"}), (std::vector<std::string>{"nx0"}));
  EXPECT_EQ(io::nearest_names("count_1", {"count_2", "count_12", "other"}), (std::vector<std::string>{"count_2", "count_12"}));
  EXPECT_EQ(io::nearest_names("sOs", {"s0s"}), (std::vector<std::string>{"s0s"}));  // one substitution
  EXPECT_EQ(io::nearest_names("ab", {"ba"}), (std::vector<std::string>{"ba"}));     // a transposition counts 1
  EXPECT_TRUE(io::nearest_names("completely", {"different", "x"}).empty());
  EXPECT_EQ(io::did_you_mean({"a", "b"}), " (did you mean `a` or `b`?)");
}

TEST(SpecStrict, MaxHorizonIsEnforcedBeforeAnyWork) {
  std::string spec = running_parity(false);
  spec.replace(spec.find(R"("horizon": 3)"), 12, R"("horizon": 2, "max_horizon": 2)");
  const Game g = parse_spec(spec, "t.json");
  ASSERT_TRUE(g.max_horizon.has_value());
  EXPECT_EQ(*g.max_horizon, 2u);
  EXPECT_NO_THROW(worst_case_profile(g));
  EngineOptions o;
  o.horizon = 3;
  try {
    worst_case_profile(g, o);
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.field(), "max_horizon");
    EXPECT_EQ(e.value(), "3");
  }
  EXPECT_THROW(worst_case_profile_oblivious(g, o), Error);
  // a file whose own horizon exceeds its max_horizon
  std::string over = running_parity(false);
  over.replace(over.find(R"("horizon": 3)"), 12, R"("horizon": 3, "max_horizon": 2)");
  EXPECT_EQ(error_of(over).field(), "/horizon");
}

// The safety bug of issue 15: a mechanism explored up to horizon 2 (its frontier written halted)
// must not be analysed at horizon 3 from its file. State (b, n): the secret bit b answered by RR_3,
// n counts the queries (unbounded). k answers have pure level 3^k (hand-derived).
TEST(SpecStrict, HorizonBoundedExportCarriesMaxHorizon) {
  using State = std::pair<int, int>;
  struct Hash {
    std::size_t operator()(const State& s) const { return std::hash<int>()(s.first * 1000003 + s.second); }
  };
  auto step = [](const State& s, const std::string&) {
    return std::vector<Outcome<State>>{{Rational(3, 4), std::to_string(s.first), {s.first, s.second + 1}},
                                       {Rational(1, 4), std::to_string(1 - s.first), {s.first, s.second + 1}}};
  };
  ExploreOptions o;
  o.up_to_horizon = true;
  const Mechanism m = Mechanism::from_step<State, Hash>(
      step, InitialStates<State>::per_world({0, 0}, {1, 0}), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 2, "counting RR3", o,
      [](const State& s) { return std::to_string(s.first) + "/" + std::to_string(s.second); });
  ASSERT_FALSE(m.closed());
  const std::string text = write_spec(m);
  EXPECT_NE(text.find("\"max_horizon\": 2"), std::string::npos) << text;
  const Game file = parse_spec(text, "counter.json");
  EXPECT_EQ(worst_case_ratio(file).max(), ExtendedRational(9));
  EngineOptions three;
  three.horizon = 3;
  EXPECT_THROW(worst_case_ratio(file, three), Error);              // the file: refused, not 9
  EXPECT_EQ(worst_case_ratio(m, three).max(), ExtendedRational(27));  // the mechanism itself: the truth
}

TEST(SpecLint, WarningsOnAHandWrittenTable) {
  // u is unreachable; s0 and t0 behave identically (bisimilar); answers "yes" and "Yes" are
  // emitted in the ratio 1 : 1 everywhere with the same next states (indistinguishable); the rule
  // of t0 repeats a row.
  const std::string spec = R"({"format": "exactdp/1", "horizon": 2, "neighbours": {"type": "static", "worlds": ["x", "y"]},
    "mechanism": {"type": "table", "messages": ["q"], "initial": {"x": "s0", "y": {"t0": "1/2", "w": "1/2"}},
      "states": {"s0": {"q": [{"p": "1/4", "answer": "yes", "next": "h"}, {"p": "1/4", "answer": "Yes", "next": "h"}, {"p": "1/2", "answer": "no", "next": "h"}]},
                 "t0": {"q": [{"p": "1/4", "answer": "yes", "next": "h"}, {"p": "1/8", "answer": "Yes", "next": "h"}, {"p": "1/8", "answer": "Yes", "next": "h"}, {"p": "1/2", "answer": "no", "next": "h"}]},
                 "w": {"q": [{"p": "1/2", "answer": "yes", "next": "h"}, {"p": "1/2", "answer": "Yes", "next": "h"}]},
                 "u": {"q": [{"p": 1, "answer": "no", "next": "u"}]}, "h": {}}}})";
  const LintReport r = lint_spec(spec, "w.json");
  std::multiset<std::string> codes;
  for (const auto& d : r.diagnostics) {
    codes.insert(d.code);
    EXPECT_EQ(d.severity, LintDiagnostic::Severity::warning) << d.message;
  }
  EXPECT_EQ(codes, (std::multiset<std::string>{"repeated-row", "unreachable-state", "bisimilar-states", "indistinguishable-answers"}));
  for (const auto& d : r.diagnostics) {
    if (d.code == "repeated-row") { EXPECT_EQ(d.pointer, "/mechanism/states/t0/q/2"); }
    if (d.code == "unreachable-state") { EXPECT_EQ(d.pointer, "/mechanism/states/u"); }
    if (d.code == "bisimilar-states") { EXPECT_EQ(d.value, "s0, t0"); }
    if (d.code == "indistinguishable-answers") { EXPECT_EQ(d.value, "yes, Yes"); }
  }
  EXPECT_EQ(r.exit_code(), 1);
  EXPECT_EQ(lint_spec(running_parity(true), "t.json").exit_code(), 2);
  EXPECT_EQ(lint_spec(running_parity(true), "t.json").errors(), 2u);
  EXPECT_EQ(lint_spec(running_parity(false), "t.json").exit_code(), 0);
}

// Every bundled spec lints without errors (warnings are listed in spec/mechanisms/README.md).
TEST(SpecLint, BundledSpecsHaveNoErrors) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::spec_dir())) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    const LintReport r = lint_spec_file(entry.path());
    EXPECT_EQ(r.errors(), 0u) << entry.path() << ": " << lint_report_text({r});
  }
  EXPECT_GE(files, 15u);
}

// Bisimulation, derived by hand: in a chain c0 → … → c4 → h every cᵢ answers "a", but cᵢ is told
// apart from cⱼ by the number of "a"s before "halt", so each is its own class; the five states of a
// loop l0 → … → l4 → l0 answer "a" forever and are one class.
TEST(MechanismStructure, BisimulationSeparatesByDistanceToHalting) {
  std::string states;
  const int n = 5;
  for (int i = 0; i < n; ++i)
    states += "\"c" + std::to_string(i) + R"(": {"q": [{"p": 1, "answer": "a", "next": ")" + (i + 1 < n ? "c" + std::to_string(i + 1) : "h") + "\"}]}, ";
  for (int i = 0; i < n; ++i)
    states += "\"l" + std::to_string(i) + R"(": {"q": [{"p": 1, "answer": "a", "next": "l)" + std::to_string((i + 1) % n) + "\"}]}, ";
  const std::string spec = R"({"format": "exactdp/1", "horizon": 1, "neighbours": {"type": "static", "worlds": ["x", "y"]},
    "mechanism": {"type": "table", "messages": ["q"], "initial": {"x": "c0", "y": "l0"}, "states": {)" + states + R"("h": {}}}})";
  const SpecReading reading = read_spec(spec, "chain.json");
  ASSERT_TRUE(reading.game) << reading.errors.front().what();
  const SpecTable& t = reading.tables.front();
  const MechanismStructure st = analyse_structure(*t.mechanism, t.mechanism->state_count(), t.initial);
  EXPECT_TRUE(st.unreachable.empty());
  ASSERT_EQ(st.bisimilar.size(), 1u);  // the loop; the chain's states are pairwise different
  std::vector<std::string> names;
  for (StateId s : st.bisimilar.front()) names.push_back(t.mechanism->state_name(s));
  EXPECT_EQ(names, (std::vector<std::string>{"l0", "l1", "l2", "l3", "l4"}));
  // beyond the work budget the refinement stops and says so (lint then notes it)
  const MechanismStructure partial = analyse_structure(*t.mechanism, t.mechanism->state_count(), t.initial, 20);
  EXPECT_FALSE(partial.complete);
  EXPECT_TRUE(partial.bisimilar.empty());
  EXPECT_EQ(partial.reachable.size(), st.reachable.size());
}

// ----------------------------------------------------------------------------- properties

/// A random small valid table (states st0 … st(n−1), messages a and b, "*" rules or one rule
/// per message, one or two rows each) as spec text, with the pointers of its next fields.
struct RandomSpec {
  std::string text;
  std::vector<std::pair<std::string, std::string>> next_fields;  // pointer, name
  std::vector<std::string> names;
};

RandomSpec random_spec(const std::vector<std::vector<std::size_t>>& targets) {
  RandomSpec out;
  const std::size_t n = targets.size();
  for (std::size_t i = 0; i < n; ++i) out.names.push_back("st" + std::to_string(i));
  std::string states;
  for (std::size_t i = 0; i < n; ++i) {
    states += (i ? ", " : "") + std::string("\"") + out.names[i] + "\": {\"*\": [";
    const auto& ts = targets[i];
    for (std::size_t k = 0; k < ts.size(); ++k) {
      const std::string next = out.names[ts[k] % n];
      states += (k ? ", " : "") + std::string(R"({"p": ")") + (ts.size() == 1 ? "1" : "1/2") + R"(", "answer": ")" +
                std::to_string(k) + R"(", "next": ")" + next + "\"}";
      out.next_fields.emplace_back("/mechanism/states/" + out.names[i] + "/*/" + std::to_string(k) + "/next", next);
    }
    states += "]}";
  }
  out.text = R"({"format": "exactdp/1", "horizon": 2, "neighbours": {"type": "static", "worlds": ["x", "y"]},
    "mechanism": {"type": "table", "messages": ["a", "b"], "initial": {"x": "st0", "y": ")" + out.names[n - 1] + R"("},
      "states": {)" + states + "}}}";
  return out;
}

rc::Gen<std::vector<std::vector<std::size_t>>> gen_targets() {
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(1, 6), [](std::size_t n) {
    return rc::gen::container<std::vector<std::vector<std::size_t>>>(
        n, rc::gen::mapcat(rc::gen::inRange<std::size_t>(1, 3), [n](std::size_t rows) {
          return rc::gen::container<std::vector<std::size_t>>(rows, rc::gen::inRange<std::size_t>(0, n));
        }));
  });
}

RC_GTEST_PROP(SpecStrictProperty, RandomValidTablesLoadAndLintWithoutErrors, ()) {
  const RandomSpec s = random_spec(*gen_targets());
  const LintReport r = lint_spec(s.text, "random.json");
  RC_ASSERT(r.errors() == 0u);
}

RC_GTEST_PROP(SpecStrictProperty, ASingleCharacterMutationOfANextStateIsAnError, ()) {
  const RandomSpec s = random_spec(*gen_targets());
  const std::size_t which = *rc::gen::inRange<std::size_t>(0, s.next_fields.size());
  const auto& [pointer, name] = s.next_fields[which];
  const std::size_t at = *rc::gen::inRange<std::size_t>(0, name.size());
  const char c = *rc::gen::element('a', 'z', 'S', 'T', '0', '7', '_', '-');
  std::string mutated = name;
  mutated[at] = c;
  RC_PRE(std::find(s.names.begin(), s.names.end(), mutated) == s.names.end());
  // replace exactly that occurrence: the which-th "next" value in the text
  std::string text = s.text;
  std::size_t pos = 0;
  for (std::size_t k = 0; k <= which; ++k) pos = text.find("\"next\": \"", pos) + 9;
  text.replace(pos, name.size(), mutated);
  const SpecReading reading = read_spec(text, "mutated.json");
  RC_ASSERT(!reading.game.has_value());
  bool named = false;
  for (std::size_t i = 0; i < reading.errors.size(); ++i)
    named = named || (reading.error_codes[i] == "unknown-state" && reading.errors[i].field() == pointer && reading.errors[i].value() == mutated);
  RC_ASSERT(named);
}

}  // namespace
}  // namespace exactdp
