// Mechanism::from_step (game/authoring.hpp), write_spec (io/spec_writer.hpp), minimal_witness and
// the GoogleTest/RapidCheck helpers (testing/). Expected values are hand-derived from the closed
// forms of RR (stated at each test) or come from an independent route (the spec file read back, the
// engine's own view distributions, an explicit enumeration of adversaries).
#include "exactdp/game/authoring.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/io/spec_writer.hpp"
#include "exactdp/testing/gtest.hpp"
#include "exactdp/testing/rapidcheck.hpp"
#include "exactdp/testing/witness.hpp"
#include "support/paths.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <tuple>

namespace exactdp {
namespace {

Rational q(long n, long d = 1) {
  Rational r(n, d);
  r.canonicalize();
  return r;
}

/// RR with keep-probability u/(u+1) on the state's bit, state unchanged: λ-RR with λ = u.
std::vector<Outcome<int>> rr_step(long u, const int& bit) {
  return {{q(u, u + 1), std::to_string(bit), bit}, {q(1, u + 1), std::to_string(1 - bit), bit}};
}

Mechanism rr_twice() {
  return Mechanism::from_step([](const int& b, const std::string&) { return rr_step(3, b); }, InitialStates<int>::per_world(0, 1),
                              NeighbourRelation::static_worlds("x", "x'"), {"q"}, 2, "RR3 twice");
}

/// A counter of the stream bits seen so far, answered exactly (not private), saturating at @p cap;
/// event-level pairs over messages "0" and "1".
Mechanism exact_counter(int cap, unsigned horizon) {
  auto step = [cap](const int& count, const std::string& m) {
    const int next = std::min(cap, count + (m == "1" ? 1 : 0));
    return std::vector<Outcome<int>>{{Rational(1), std::to_string(next), next}};
  };
  return Mechanism::from_step(step, InitialStates<int>::shared(0), NeighbourRelation::pairs({{"0", "0"}, {"1", "1"}, {"0", "1"}}, 1),
                              {}, horizon, "exact counter");
}

/// RR₃ of each stream bit under an automaton relation: one differing pair, then identical ones.
Mechanism rr_stream_automaton(unsigned horizon) {
  auto step = [](const int& s, const std::string& m) {
    const int bit = m == "1" ? 1 : 0;
    return std::vector<Outcome<int>>{{q(3, 4), std::to_string(bit), s}, {q(1, 4), std::to_string(1 - bit), s}};
  };
  using E = NeighbourRelation::Edge;
  auto relation = NeighbourRelation::with_automaton(
      "fresh", {{"fresh", {E{{"0", "0"}, "fresh"}, E{{"1", "1"}, "fresh"}, E{{"0", "1"}, "used"}}},
                {"used", {E{{"0", "0"}, "used"}, E{{"1", "1"}, "used"}}}});
  return Mechanism::from_step(step, InitialStates<int>::shared(0), relation, {}, horizon, "RR3 stream");
}

TEST(Authoring, AutomatonRelationGivesEventLevelRr) {
  // one differing bit through RR₃, the others identical: the profile of one RR₃, δ(λ) = (3 − λ)/4 for λ ≤ 3
  const Mechanism m = rr_stream_automaton(3);
  EXPECT_EQ(worst_case_hockey_stick(m, 1).delta(), q(1, 2));
  EXPECT_EQ(worst_case_hockey_stick(m, 2).delta(), q(1, 4));
  EXPECT_EQ(worst_case_hockey_stick(m, 3).delta(), 0);
}

TEST(Authoring, RrTwiceMatchesClosedForm) {
  const Mechanism m = rr_twice();
  // two independent RR₃ answers: the pair of product laws (3/4,1/4)^⊗2 and (1/4,3/4)^⊗2.
  // δ(3) = (9/16 − 3·1/16) = 3/8 (only the view 00 has P₀ > 3·P₁); δ(9) = 0 (ratio 9 at most).
  EXPECT_EQ(worst_case_hockey_stick(m, 3).delta(), q(3, 8));
  EXPECT_EQ(worst_case_hockey_stick(m, 9).delta(), 0);
  EXPECT_EQ(m.states().size(), 2u);
  EXPECT_TRUE(m.closed());
  EXPECT_EQ(m.state_name(m.states()[1]), "1");
}

TEST(Authoring, SpecRoundTripGivesIdenticalProfiles) {
  for (const Mechanism& m : {rr_twice(), exact_counter(2, 3), rr_stream_automaton(2)}) {
    const std::string text = write_spec(m);
    const Game back = parse_spec(text, "written");
    EXPECT_EQ(back.mechanism->messages(), m.game().mechanism->messages()) << text;
    const auto a = worst_case_profile(m), b = worst_case_profile(back);
    for (const Rational& l : {q(1), q(2), q(3), q(9), q(100)}) {
      EXPECT_EQ(a.profile.forward()(l), b.profile.forward()(l)) << text;
      EXPECT_EQ(a.profile.backward()(l), b.profile.backward()(l)) << text;
    }
  }
}

TEST(Authoring, ExactCounterIsNotPrivate) {
  // the counts of the two worlds differ with certainty after the differing pair: δ(λ) = 1 for every λ
  const Mechanism m = exact_counter(2, 2);
  EXPECT_EQ(worst_case_hockey_stick(m, 1000).delta(), 1);
  EXPECT_EQ(m.states().size(), 3u);  // counts 0, 1, 2 (saturated)
}

TEST(Authoring, WriteSpecOfBundledGamesRoundTrips) {
  // a static table (MP), a pairs relation (written as an automaton) and a library mechanism
  for (const char* file : {"mp.json", "event-level-rr.json", "m-delta.json"}) {
    const Game g = load_spec_file(testing::spec_dir() / file);
    const Game back = parse_spec(write_spec(g), file);
    const auto a = worst_case_profile(g), b = worst_case_profile(back);
    for (const Rational& l : {q(1), q(3, 2), q(2), q(4), q(8)}) {
      EXPECT_EQ(a.profile.forward()(l), b.profile.forward()(l)) << file;
      EXPECT_EQ(a.profile.backward()(l), b.profile.backward()(l)) << file;
    }
  }
}

TEST(Authoring, HaltedStatesAreWrittenEmpty) {
  // answers once, then halts: the second state is written {} and reads back as halted
  auto step = [](const int& s, const std::string&) {
    if (s >= 2) return std::vector<Outcome<int>>{{Rational(1), halt_answer, s}};
    return std::vector<Outcome<int>>{{q(1, 2), "a", 2}, {q(1, 2), "b", 3}};
  };
  const Mechanism m = Mechanism::from_step(step, InitialStates<int>::per_world(0, 1), NeighbourRelation::static_worlds("x", "y"),
                                           {"go"}, 2, "once");
  const std::string text = write_spec(m);
  EXPECT_NE(text.find("\"2\": {}"), std::string::npos) << text;
  EXPECT_NE(text.find("\"3\": {}"), std::string::npos) << text;
}

TEST(Authoring, StepErrorsNameTheStateAndTheMessage) {
  auto bad_sum = [](const int& s, const std::string&) { return std::vector<Outcome<int>>{{q(1, 3), "a", s}, {q(1, 3), "b", s}}; };
  try {
    Mechanism::from_step(bad_sum, InitialStates<int>::per_world(0, 1), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 1, "bad");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("step(0, q)"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("2/3"), std::string::npos) << e.what();
  }
  auto negative = [](const int& s, const std::string&) { return std::vector<Outcome<int>>{{q(3, 2), "a", s}, {q(-1, 2), "b", s}}; };
  EXPECT_THROW(Mechanism::from_step(negative, InitialStates<int>::per_world(0, 1), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 1, "neg"),
               Error);
}

TEST(Authoring, RefusesTooManyStatesWithTheCountAndTheOption) {
  // an unbounded counter: every query moves to a new state
  auto step = [](const int& s, const std::string&) { return std::vector<Outcome<int>>{{Rational(1), "tick", s + 1}}; };
  ExploreOptions o;
  o.max_states = 50;
  try {
    Mechanism::from_step(step, InitialStates<int>::per_world(0, 1), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 3, "ticker", o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("51 states"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_states"), std::string::npos) << e.what();
  }
  // up to the horizon it is finite: states 0 … 4 (x starts at 0, x' at 1, three rounds)
  o.up_to_horizon = true;
  const Mechanism m =
      Mechanism::from_step(step, InitialStates<int>::per_world(0, 1), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 3, "ticker", o);
  EXPECT_FALSE(m.closed());
  const std::string text = write_spec(m);
  EXPECT_NE(text.find("exact for horizons up to 3"), std::string::npos) << text;
  const Game back = parse_spec(text, "ticker");
  EXPECT_EQ(worst_case_hockey_stick(back, 1).delta(), worst_case_hockey_stick(m, 1).delta());
}

TEST(Authoring, RejectsInvalidInput) {
  auto step = [](const int& s, const std::string&) { return rr_step(2, s); };
  using R = NeighbourRelation;
  auto make = [&](InitialStates<int> init, R n, std::vector<std::string> msgs, unsigned horizon) {
    return Mechanism::from_step(step, init, std::move(n), std::move(msgs), horizon, "m");
  };
  EXPECT_THROW(make(InitialStates<int>::per_world(0, 1), R::static_worlds("x", "x"), {"q"}, 1), Error);                    // same worlds
  EXPECT_THROW(make(InitialStates<int>::per_world(0, 1), R::static_worlds("x", "y"), {"*"}, 1), Error);                    // wildcard
  EXPECT_THROW(make(InitialStates<int>::per_world(0, 1), R::static_worlds("x", "y"), {}, 1), Error);                       // no message
  EXPECT_THROW(make(InitialStates<int>::per_world(0, 1), R::static_worlds("x", "y"), {"q"}, 0), Error);                    // horizon
  EXPECT_THROW(make(InitialStates<int>::per_world(0, 1), R::pairs({{"a", "b"}}), {}, 1), Error);                           // not shared
  EXPECT_THROW(make(InitialStates<int>::shared(0), R::pairs({{"a", "b"}, {"a", "b"}}), {}, 1), Error);                     // repeated pair
  EXPECT_THROW(make(InitialStates<int>::shared_law({{0, q(1, 2)}}), R::pairs({{"a", "b"}}), {}, 1), Error);                 // law sums to 1/2
  EXPECT_THROW(make(InitialStates<int>::shared(0), R::with_automaton("s", {{"s", {{{"a", "b"}, "t"}}}}), {}, 1), Error);        // unknown next
}

struct Pt {
  int v;
  friend bool operator==(const Pt&, const Pt&) = default;
};
std::ostream& operator<<(std::ostream& os, const Pt&) { return os << "same"; }
struct PtHash {
  std::size_t operator()(const Pt& p) const { return std::hash<int>()(p.v); }
};

TEST(Authoring, RefusesStateNamesThatCollide) {
  auto step = [](const Pt& p, const std::string&) { return std::vector<Outcome<Pt>>{{Rational(1), "a", p}}; };
  try {
    Mechanism::from_step<Pt, PtHash>(step, InitialStates<Pt>::per_world({0}, {1}), NeighbourRelation::static_worlds("x", "x'"), {"q"}, 1, "m");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("\"same\""), std::string::npos) << e.what();
  }
}

struct Named {
  int v;
  friend bool operator==(const Named&, const Named&) = default;
  std::string to_string() const { return "n" + std::to_string(v); }
};
struct NamedHash {
  std::size_t operator()(const Named& n) const { return std::hash<int>()(n.v); }
};

TEST(Authoring, StatesAreNamedByShowToStringOrIndex) {
  auto step = [](const Named& n, const std::string&) { return std::vector<Outcome<Named>>{{Rational(1), "a", Named{1 - n.v}}}; };
  const auto init = InitialStates<Named>::per_world({0}, {1});
  const auto rel = NeighbourRelation::static_worlds("x", "y");
  const Mechanism by_member = Mechanism::from_step<Named, NamedHash>(step, init, rel, {"q"}, 1, "m");
  EXPECT_EQ(by_member.state_name(by_member.states()[1]), "n1");
  const Mechanism by_show =
      Mechanism::from_step<Named, NamedHash>(step, init, rel, {"q"}, 1, "m", {}, [](const Named& n) { return "v=" + std::to_string(n.v); });
  EXPECT_EQ(by_show.state_name(by_show.states()[0]), "v=0");
  auto tuple_step = [](const std::pair<int, int>& p, const std::string&) { return std::vector<Outcome<std::pair<int, int>>>{{Rational(1), "a", p}}; };
  struct PairHash {
    std::size_t operator()(const std::pair<int, int>& p) const { return std::hash<int>()(p.first * 31 + p.second); }
  };
  const Mechanism by_index = Mechanism::from_step<std::pair<int, int>, PairHash>(
      tuple_step, InitialStates<std::pair<int, int>>::per_world({0, 0}, {0, 1}), rel, {"q"}, 1, "m");
  EXPECT_EQ(by_index.state_name(by_index.states()[1]), "s1");
}

// ------------------------------------------------------------------ witnesses and test helpers

/// A buggy "noisy max" over two candidates: the noise is RR₃ on which candidate wins, but the
/// bug releases the true winner's score with the answer on the second query.
Mechanism leaky_max() {
  auto step = [](const std::tuple<int, int>& s, const std::string&) {
    const auto [winner, asked] = s;
    if (asked == 0)
      return std::vector<Outcome<std::tuple<int, int>>>{{q(3, 4), "c" + std::to_string(winner), {winner, 1}},
                                                        {q(1, 4), "c" + std::to_string(1 - winner), {winner, 1}}};
    return std::vector<Outcome<std::tuple<int, int>>>{{Rational(1), "leak" + std::to_string(winner), {winner, 1}}};
  };
  struct Hash {
    std::size_t operator()(const std::tuple<int, int>& t) const { return std::hash<int>()(std::get<0>(t) * 7 + std::get<1>(t)); }
  };
  return Mechanism::from_step<std::tuple<int, int>, Hash>(step, InitialStates<std::tuple<int, int>>::per_world({0, 0}, {1, 0}),
                                                          NeighbourRelation::static_worlds("x", "x'"), {"q"}, 3, "leaky max");
}

TEST(MinimalWitness, LeakyMaxFailsFromRoundTwoWithOneView) {
  const Mechanism m = leaky_max();
  // round 1 alone is RR₃: ratio 3 ≤ λ = 4, so the claim holds for one round; round 2 leaks.
  EngineOptions one;
  one.horizon = 1;
  EXPECT_TRUE(check_approximate_dp(m, 4, 0, one).holds);
  const ClaimCheck c = check_approximate_dp(m, 4, 0);
  ASSERT_FALSE(c.holds);
  EXPECT_EQ(c.witness->rounds, 2u);
  const Witness w = minimal_witness(m, *c.witness, 0);
  EXPECT_EQ(w.rounds, 2u);
  EXPECT_GT(w.delta(), 0);
  EXPECT_LE(w.event.size(), c.witness->event.size());
  EXPECT_LE(w.adversary.nodes().size(), c.witness->adversary.nodes().size());
  // one view suffices: (c0, leak0) has mass 3/4 in x and 0 in x'
  ASSERT_EQ(w.event.size(), 1u);
  const auto& mech = *m.game().mechanism;
  EXPECT_EQ(describe_view(mech, w.event[0]), "c0 leak0");
  EXPECT_EQ(w.probability_world0, q(3, 4));
  EXPECT_EQ(w.probability_world1, 0);
  const std::string text = describe_refutation(m, w, 0, c.delta_forward, 3);
  EXPECT_NE(text.find("fails from round 2 (holds for 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("[\"c0\", \"leak0\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("P[x](S)    = 3/4"), std::string::npos) << text;
}

RC_GTEST_PROP(MinimalWitness, StillRefutesAtTheLeastHorizon, ()) {
  // worlds that start in different states (identical worlds never refute anything)
  const auto table = *rc::gen::suchThat(testing::gen::small_table(), [](const testing::SmallTable& t) { return t.initial0 != t.initial1; });
  const Mechanism m = testing::mechanism_of(table);
  const Rational lambda = *testing::gen::privacy_lambda(1);
  const Rational delta = *rc::gen::element(q(0), q(1, 10), q(1, 4));
  const ClaimCheck c = check_approximate_dp(m, lambda, delta);
  RC_CLASSIFY(c.holds);
  if (c.holds) return;
  const Witness w = minimal_witness(m, *c.witness, delta);
  // recomputed independently from the engine's view distributions of the shrunk adversary
  const auto views = view_distributions(m, w.adversary, w.rounds);
  Rational p0 = 0, p1 = 0;
  for (const auto& v : w.event) p0 += views.world0.mass(v), p1 += views.world1.mass(v);
  RC_ASSERT(p0 == w.probability_world0);
  RC_ASSERT(p1 == w.probability_world1);
  RC_ASSERT(w.delta() > delta);
  RC_ASSERT(w.event.size() <= c.witness->event.size());
  RC_ASSERT(w.adversary.nodes().size() <= c.witness->adversary.nodes().size());
  // the least horizon: one round fewer satisfies the claim
  if (w.rounds > 1) {
    EngineOptions fewer;
    fewer.horizon = w.rounds - 1;
    RC_ASSERT(check_approximate_dp(m, lambda, delta, fewer).holds);
  }
}

RC_GTEST_PROP(Authoring, WrittenSpecHasTheSameDelta, ()) {
  const Mechanism m = *testing::gen::small_mechanism();
  const Rational lambda = *testing::gen::privacy_lambda(2);
  const Game back = parse_spec(write_spec(m), "written");
  const auto a = worst_case_hockey_stick(m, lambda), b = worst_case_hockey_stick(back, lambda);
  RC_ASSERT(a.forward == b.forward);
  RC_ASSERT(a.backward == b.backward);
}

TEST(GTestHelper, PassesAndFailsWithTheWitness) {
  EXACTDP_EXPECT_DP(rr_twice(), 9, 0);
  EXACTDP_EXPECT_DP(rr_twice().game(), "3", "3/8");
  EXPECT_NONFATAL_FAILURE(EXACTDP_EXPECT_DP(leaky_max(), 4, "1/2"), "[\"c0\", \"leak0\"]");
  EXPECT_NONFATAL_FAILURE(EXACTDP_EXPECT_DP(rr_twice(), 3, 0), "fails from round 2 (holds for 1)");
}

}  // namespace
}  // namespace exactdp
