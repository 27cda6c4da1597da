// The engine's reductions and its parallel search against the plain engine (issue 18): on random
// small games built with redundancy (copies of states that no adversary can tell apart, a message
// that acts like another), the reduced engine (bisimulation quotient, duplicate pairs dropped,
// one-sided nodes valued in place) returns the same exact values and the same witnesses as the
// unreduced one, and any number of workers returns what one worker returns, node counts included.
#include "exactdp/game/engine.hpp"
#include "exactdp/library/library.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace exactdp {
namespace {

using testing::q;

/// A random mechanism with copies: `base[s]` is the behaviour class of state s; every copy of a
/// base state has the base's rows, each row leading to some copy of its target base (the copy
/// chosen per state), so copies are bisimilar. Message 2, when present, repeats message 0.
struct Redundant {
  int states = 2, bases = 1, messages = 2;
  std::vector<int> base;    // [state]
  std::vector<int> weight;  // [base][message][answer][target base]
  std::vector<int> copy;    // [state][message][answer][target base] → a state of that base
  int w(int b, int m, int a, int t) const { return weight[((b * 2 + m) * 2 + a) * bases + t]; }
};

rc::Gen<Redundant> redundant_mechanism() {
  return rc::gen::exec([] {
    Redundant r;
    r.bases = *rc::gen::inRange(1, 3);
    r.states = r.bases + *rc::gen::inRange(0, 3);
    r.messages = *rc::gen::inRange(2, 4);
    for (int s = 0; s < r.states; ++s) r.base.push_back(s < r.bases ? s : *rc::gen::inRange(0, r.bases));
    r.weight = *rc::gen::container<std::vector<int>>(std::size_t(4 * r.bases * r.bases), rc::gen::inRange(0, 3));
    for (int b = 0; b < r.bases; ++b)
      for (int m = 0; m < 2; ++m) {
        int sum = 0;
        for (int a = 0; a < 2; ++a)
          for (int t = 0; t < r.bases; ++t) sum += r.w(b, m, a, t);
        if (sum == 0) r.weight[std::size_t(((b * 2 + m) * 2) * r.bases)] = 1;
      }
    for (int s = 0; s < r.states; ++s)
      for (int i = 0; i < 4 * r.bases; ++i) {
        const int t = i % r.bases;
        std::vector<int> copies;
        for (int x = 0; x < r.states; ++x)
          if (r.base[std::size_t(x)] == t) copies.push_back(x);
        r.copy.push_back(copies[std::size_t(*rc::gen::inRange(0, int(copies.size())))]);
      }
    return r;
  });
}

std::shared_ptr<TableMechanism> table_of(const Redundant& r) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  std::vector<std::string> messages;
  for (int m = 0; m < r.messages; ++m) messages.push_back("m" + std::to_string(m));
  for (int s = 0; s < r.states; ++s) {
    TableMechanism::StateTable t;
    const int b = r.base[std::size_t(s)];
    for (int msg = 0; msg < r.messages; ++msg) {
      const int m = msg == 2 ? 0 : msg;
      int sum = 0;
      for (int a = 0; a < 2; ++a)
        for (int x = 0; x < r.bases; ++x) sum += r.w(b, m, a, x);
      for (int a = 0; a < 2; ++a)
        for (int x = 0; x < r.bases; ++x)
          if (r.w(b, m, a, x) > 0) {
            const int next = r.copy[std::size_t(s * 4 * r.bases + (m * 2 + a) * r.bases + x)];
            t.rules[messages[std::size_t(msg)]].push_back({q(r.w(b, m, a, x), sum), std::to_string(a), "s" + std::to_string(next)});
          }
    }
    states.push_back({"s" + std::to_string(s), t});
  }
  return std::make_shared<TableMechanism>("redundant", states, messages);
}

/// A game on @p r: two random initial states and a random pairs verifier, with at most k
/// differing pairs sometimes.
Game random_game(const Redundant& r) {
  auto mech = table_of(r);
  std::vector<MessagePair> pairs;
  for (MessageId a = 0; a < MessageId(r.messages); ++a)
    for (MessageId b = 0; b < MessageId(r.messages); ++b)
      if (*rc::gen::inRange(0, 3) > 0) pairs.push_back({a, b});
  if (pairs.empty()) pairs.push_back({0, 0});
  std::optional<unsigned> k;
  if (*rc::gen::arbitrary<bool>()) k = *rc::gen::inRange(0u, 2u);
  Game g;
  g.name = "redundant";
  g.mechanism = mech;
  g.verifier = std::make_shared<PairsVerifier>(pairs, k);
  g.initial = {InitialLaw{{StateId(*rc::gen::inRange(0, r.states)), Rational(1)}},
               InitialLaw{{StateId(*rc::gen::inRange(0, r.states)), Rational(1)}}};
  g.horizon = *rc::gen::inRange(1u, 5u);
  return g;
}

EngineOptions with(bool reduce, unsigned threads) {
  EngineOptions o;
  o.reduce = reduce;
  o.threads = threads;
  return o;
}

void expect_same_witness(const std::optional<Witness>& a, const std::optional<Witness>& b, const Game& g) {
  RC_ASSERT(a.has_value() == b.has_value());
  if (!a) return;
  RC_ASSERT(a->describe(g) == b->describe(g));
  RC_ASSERT(a->event == b->event);
  RC_ASSERT(a->probability_world0 == b->probability_world0);
  RC_ASSERT(a->probability_world1 == b->probability_world1);
}

RC_GTEST_PROP(EngineReductions, SameValuesAndWitnessesAsTheUnreducedEngine, ()) {
  const Game g = random_game(*redundant_mechanism());
  const Rational lambda = *rc::gen::element(Rational(1), q(3, 2), Rational(2), Rational(4));
  const auto plain = with(false, 1), reduced = with(true, 1);
  const auto h0 = worst_case_hockey_stick(g, lambda, plain), h1 = worst_case_hockey_stick(g, lambda, reduced);
  RC_ASSERT(h0.forward == h1.forward);
  RC_ASSERT(h0.backward == h1.backward);
  RC_ASSERT(h1.stats.distinct_keys <= h0.stats.distinct_keys);
  const auto c0 = check_approximate_dp(g, lambda, 0, plain), c1 = check_approximate_dp(g, lambda, 0, reduced);
  RC_ASSERT(c0.holds == c1.holds);
  expect_same_witness(c0.witness, c1.witness, g);
  const auto w0 = worst_case_adversary(g, lambda, 1, plain), w1 = worst_case_adversary(g, lambda, 1, reduced);
  expect_same_witness(w0, w1, g);
  const auto r0 = worst_case_ratio(g, plain), r1 = worst_case_ratio(g, reduced);
  RC_ASSERT(r0.forward == r1.forward);
  RC_ASSERT(r0.backward == r1.backward);
  const auto m0 = worst_case_renyi_moment(g, 2, plain), m1 = worst_case_renyi_moment(g, 2, reduced);
  RC_ASSERT(m0.forward == m1.forward);
  RC_ASSERT(m0.backward == m1.backward);
  const auto p0 = worst_case_profile(g, plain), p1 = worst_case_profile(g, reduced);
  RC_ASSERT(p0.profile.forward().pieces() == p1.profile.forward().pieces());
  RC_ASSERT(p0.profile.backward().pieces() == p1.profile.backward().pieces());
}

RC_GTEST_PROP(EngineParallel, SameValuesWitnessesAndCountsWhateverTheThreads, ()) {
  const Game g = random_game(*redundant_mechanism());
  const Rational lambda = *rc::gen::element(Rational(1), q(3, 2), Rational(2));
  const bool reduce = *rc::gen::arbitrary<bool>();
  // one worker runs the expansions from a stack on the calling thread, three run them as oneTBB
  // tasks, and 0 lets the engine choose (one for these small games)
  const auto one = with(reduce, 1), many = with(reduce, 3), automatic = with(reduce, 0);
  const auto c0 = check_approximate_dp(g, lambda, 0, one), c1 = check_approximate_dp(g, lambda, 0, many);
  const auto c2 = check_approximate_dp(g, lambda, 0, automatic);
  RC_ASSERT(c1.stats.timings.workers == 3u);
  for (const auto* c : {&c1, &c2}) {
    RC_ASSERT(c0.delta_forward == c->delta_forward);
    RC_ASSERT(c0.delta_backward == c->delta_backward);
    expect_same_witness(c0.witness, c->witness, g);
    RC_ASSERT(c0.stats.nodes_visited == c->stats.nodes_visited);
    RC_ASSERT(c0.stats.distinct_keys == c->stats.distinct_keys);
    RC_ASSERT(c0.stats.cache_hits == c->stats.cache_hits);
  }
}

// Hand-built: the first answer moves each world to one of two copies (a, b in world 0; a′, b′ in
// world 1) whose rows are equal, so the copies are bisimilar and the reduced engine keys the two
// histories as one node.
TEST(EngineReductions, BisimilarCopiesShareOneClass) {
  using Row = TableMechanism::Row;
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  states.push_back({"x", {false, {{"*", {Row{q(1, 2), "0", "a"}, Row{q(1, 2), "1", "b"}}}}}});
  states.push_back({"x'", {false, {{"*", {Row{q(1, 2), "0", "a'"}, Row{q(1, 2), "1", "b'"}}}}}});
  for (const char* s : {"a", "b"}) states.push_back({s, {false, {{"*", {Row{q(2, 3), "0", "done"}, Row{q(1, 3), "1", "done"}}}}}});
  for (const char* s : {"a'", "b'"}) states.push_back({s, {false, {{"*", {Row{q(1, 3), "0", "done"}, Row{q(2, 3), "1", "done"}}}}}});
  states.push_back({"done", {true, {}}});
  auto mech = std::make_shared<TableMechanism>("copies", states);
  Game g = static_game("copies", mech, {mech->state_id("x"), mech->state_id("x'")}, 2);
  const auto plain = worst_case_hockey_stick(g, 1, with(false, 1));
  const auto reduced = worst_case_hockey_stick(g, 1, with(true, 1));
  // hand-derived: the first answer is uninformative, the second is RR(2/3) against RR(1/3): TV = 1/3
  EXPECT_EQ(plain.forward, q(1, 3));
  EXPECT_EQ(reduced.forward, q(1, 3));
  EXPECT_EQ(reduced.stats.mechanism_states, 7u);
  EXPECT_LT(reduced.stats.state_classes, plain.stats.state_classes);
  EXPECT_EQ(plain.stats.distinct_keys, 3u);    // the root, (a | a′) and (b | b′)
  EXPECT_EQ(reduced.stats.distinct_keys, 2u);  // the root and one class pair
}

// Item 3: a game that will not fit is refused before the search, with the estimate and the flag.
TEST(EngineEstimate, RefusesAnOversizedGameBeforeSearching) {
  library::SparseVectorParams p;
  p.r_threshold = q(1, 4);
  p.r_query = q(1, 2);
  p.queries = 16;
  const Game g = library::svt_counter(p, {0, 1, 2});
  // at 6 of its 16 rounds the game has 20 758 memo entries (measured) and compiles in about
  // a second, so the refusal goes through both estimates (unreduced, then compiled) without
  // the 3-second compilation budget that the full horizon exhausts
  EngineOptions o;
  o.horizon = 6;
  o.max_nodes = 5'000;
  try {
    (void)worst_case_hockey_stick(g, 16, o);
    FAIL() << "expected GameTooLarge";
  } catch (const GameTooLarge& e) {
    EXPECT_GT(e.estimate(), o.max_nodes);
    EXPECT_NE(std::string(e.what()).find("--max-nodes"), std::string::npos) << e.what();
  }
}

// Item 3: the estimate is made within budgets of work (counts), never of seconds, so the same
// game and limits give the same estimate every time, whatever the load and the thread count, and
// whether a game is refused does not depend on the machine.
TEST(EngineEstimate, SameEstimateEveryTimeAndForAnyThreadCount) {
  library::SparseVectorParams p;
  p.r_threshold = q(1, 4);
  p.r_query = q(1, 2);
  p.queries = 16;
  const Game g = library::svt_counter(p, {0, 1, 2});
  EngineOptions o;
  o.horizon = 5;
  const GameSizeEstimate first = estimate_game(g, o), second = estimate_game(g, o);
  EXPECT_EQ(first.entries, second.entries);
  EXPECT_EQ(first.bytes, second.bytes);
  EXPECT_EQ(first.levels, second.levels);
  EXPECT_EQ(first.products, second.products);
  EXPECT_GT(first.products, 0u);
  EXPECT_TRUE(first.over.empty());
  EXPECT_TRUE(first.compiled);
  // the search reports the same estimate with one worker and with two; at this horizon the first
  // levels are enumerated whole (the estimate is exact), so it is the search's own count
  o.threads = 1;
  const auto one = worst_case_hockey_stick(g, 16, o);
  o.threads = 2;
  const auto two = worst_case_hockey_stick(g, 16, o);
  EXPECT_EQ(one.stats.estimate, first.entries);
  EXPECT_EQ(two.stats.estimate, first.entries);
  EXPECT_EQ(first.levels.size(), 5u);
  EXPECT_EQ(first.entries, one.stats.distinct_keys);
  EXPECT_EQ(first.entries, two.stats.distinct_keys);
  // a game over a limit is measured again on the compiled game; that estimate, too, is the same
  // every time, and it is the one the refusal carries
  o.max_nodes = 2'000;  // above the 1 066 mechanism states, below the 4 794 entries
  const GameSizeEstimate over = estimate_game(g, o), again = estimate_game(g, o);
  EXPECT_TRUE(over.compiled);
  EXPECT_EQ(over.over, "max_nodes");
  EXPECT_EQ(over.entries, again.entries);
  EXPECT_EQ(over.levels, again.levels);
  for (unsigned threads : {1u, 2u}) {
    o.threads = threads;
    try {
      (void)worst_case_hockey_stick(g, 16, o);
      ADD_FAILURE() << "expected GameTooLarge";
    } catch (const GameTooLarge& e) {
      EXPECT_EQ(e.estimate(), over.entries);
    }
  }
}

// The estimate of a game whose levels stop growing is finite (the old root-branching estimate
// overflowed to 2^64 − 1 on the tree counter with T = 32).
TEST(EngineEstimate, TreeCounterEstimateDoesNotOverflow) {
  const Game g = library::binary_tree_counter(5, q(1, 2));
  EXPECT_LT(estimate_game_size(g, 32), std::numeric_limits<std::uint64_t>::max());
}

// Item 4: the game split at a depth into independent subgames (split_game, one
// worst_case_hockey_stick_at per batch of frontier nodes, join_split) gives exactly the values of
// the unreduced engine run whole, for every depth below the horizon and any batching.
RC_GTEST_PROP(EngineSplit, SubgamesJoinToTheWholeGamesValues, ()) {
  const Game g = random_game(*redundant_mechanism());
  const Rational lambda = *rc::gen::element(Rational(1), q(3, 2), Rational(2), Rational(4));
  const unsigned depth = *rc::gen::inRange(0u, g.horizon);
  const auto whole = worst_case_hockey_stick(g, lambda, with(false, 1));
  const GameSplit split = split_game(g, depth);
  RC_ASSERT(split.depth == depth);
  RC_ASSERT(split.horizon == g.horizon);
  // batches of random sizes, each solved with its own memo (as one Dask task would)
  const auto reduce = *rc::gen::arbitrary<bool>();
  std::vector<std::array<Rational, 2>> values;
  for (std::size_t i = 0; i < split.frontier.size();) {
    const std::size_t n = std::min(split.frontier.size() - i, std::size_t(*rc::gen::inRange(1, 4)));
    const std::vector<GameHistory> batch(split.frontier.begin() + long(i), split.frontier.begin() + long(i + n));
    const auto r = worst_case_hockey_stick_at(g, batch, lambda, with(reduce, 1));
    RC_ASSERT(r.values.size() == n);
    for (const auto& v : r.values) values.push_back(v);
    i += n;
  }
  const auto joined = join_split(g, depth, lambda, values);
  RC_ASSERT(joined.forward == whole.forward);
  RC_ASSERT(joined.backward == whole.backward);
}

TEST(EngineSplit, RejectsADepthAtTheHorizonAndAWrongValueCount) {
  library::SparseVectorParams p;
  p.r_threshold = q(1, 4);
  p.r_query = q(1, 2);
  const Game g = library::svt_counter(p, {0, 1, 2});
  EngineOptions o;
  o.horizon = 3;
  EXPECT_THROW((void)split_game(g, 3, o), Error);
  const GameSplit s = split_game(g, 1, o);
  ASSERT_FALSE(s.frontier.empty());
  EXPECT_EQ(s.top_nodes, 1u);  // the root
  EXPECT_THROW((void)join_split(g, 1, 16, {}, o), Error);
  // the frontier's values joined give the whole game's (a second route: the ordinary search)
  const auto at = worst_case_hockey_stick_at(g, s.frontier, 16, o);
  const auto joined = join_split(g, 1, 16, at.values, o);
  const auto whole = worst_case_hockey_stick(g, 16, o);
  EXPECT_EQ(joined.forward, whole.forward);
  EXPECT_EQ(joined.backward, whole.backward);
}

}  // namespace
}  // namespace exactdp
