// The game engine against THEOREMS.md E.5 (MP, MA, R2: values computed there by two independent
// exact programs), closed forms for sticky RR and the choice IM C (E.1), and — on random small
// mechanisms — against brute-force enumeration of every deterministic adversary, written here
// without the engine's memoisation, normalisation or view code.
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/engine.hpp"
#include "game/fixtures.hpp"
#include "support/generators.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

namespace exactdp {
namespace {

using testing::q;

ExtendedRational inf() { return ExtendedRational::infinity(); }

std::vector<TradeOffVertex> vertices(std::initializer_list<std::pair<Rational, Rational>> v) {
  std::vector<TradeOffVertex> out;
  for (const auto& [a, b] : v) out.push_back({a, b});
  return out;
}

// ------------------------------------------------------------------ E.5 reference values

TEST(EngineReference, E5_MP_Profile) {
  auto g = testing::mp();
  auto [prof, stats] = worst_case_profile(g);
  const std::vector<std::tuple<long, Rational, Rational>> expected{
      {1, q(7, 15), q(7, 15)}, {2, q(2, 9), q(2, 5)}, {3, q(1, 9), q(1, 3)}, {4, 0, q(4, 15)}, {8, 0, 0}};
  for (const auto& [l, f, b] : expected) {
    EXPECT_EQ(prof.forward()(l), f) << "lambda " << l;
    EXPECT_EQ(prof.backward()(l), b) << "lambda " << l;
    auto at = worst_case_hockey_stick(g, l);
    EXPECT_EQ(at.forward, f) << "lambda " << l;
    EXPECT_EQ(at.backward, b) << "lambda " << l;
  }
  EXPECT_EQ(prof.least_lambda(0), ExtendedRational(8));
  EXPECT_EQ(prof.least_lambda(q(1, 100)), ExtendedRational(q(157, 20)));
  EXPECT_EQ(prof.least_lambda(q(1, 10)), ExtendedRational(q(13, 2)));
  EXPECT_EQ(prof.least_lambda(q(1, 5)), ExtendedRational(5));
  EXPECT_EQ(prof.least_lambda(q(1, 3)), ExtendedRational(3));
  EXPECT_GT(stats.distinct_keys, 0u);
}

TEST(EngineReference, E5_MP_RenyiRatioTradeOff) {
  auto g = testing::mp();
  auto r2 = worst_case_renyi_moment(g, 2);
  EXPECT_EQ(r2.forward, ExtendedRational(q(61, 24)));
  EXPECT_EQ(r2.backward, ExtendedRational(q(55, 12)));
  auto r3 = worst_case_renyi_moment(g, 3);
  EXPECT_EQ(r3.forward, ExtendedRational(q(1613, 192)));
  EXPECT_EQ(r3.backward, ExtendedRational(q(1651, 48)));
  auto ratio = worst_case_ratio(g);
  EXPECT_EQ(ratio.forward, ExtendedRational(4));
  EXPECT_EQ(ratio.backward, ExtendedRational(8));
  EXPECT_EQ(ratio.max(), ExtendedRational(8));
  auto env = tradeoff_envelope(worst_case_profile(g).profile);
  EXPECT_EQ(env.world0_vs_world1.vertices(),
            vertices({{0, 1}, {q(1, 15), q(7, 15)}, {q(13, 45), q(11, 45)}, {q(5, 9), q(1, 9)}, {1, 0}}));
  EXPECT_EQ(env.world1_vs_world0.vertices(),
            vertices({{0, 1}, {q(1, 9), q(5, 9)}, {q(11, 45), q(13, 45)}, {q(7, 15), q(1, 15)}, {1, 0}}));
}

TEST(EngineReference, E5_MA) {
  auto g = testing::ma();
  auto prof = worst_case_profile(g).profile;
  const std::vector<std::tuple<long, Rational, Rational>> expected{
      {1, q(1, 3), q(1, 3)}, {2, q(2, 9), q(2, 9)}, {3, q(1, 9), q(1, 9)}, {4, q(1, 15), 0}, {8, q(1, 15), 0}};
  for (const auto& [l, f, b] : expected) {
    EXPECT_EQ(prof.forward()(l), f) << "lambda " << l;
    EXPECT_EQ(prof.backward()(l), b) << "lambda " << l;
  }
  EXPECT_TRUE(prof.least_lambda(0).is_infinite());
  EXPECT_TRUE(prof.least_lambda(q(1, 100)).is_infinite());
  EXPECT_EQ(prof.least_lambda(q(1, 10)), ExtendedRational(q(31, 10)));
  EXPECT_EQ(prof.least_lambda(q(1, 5)), ExtendedRational(q(11, 5)));
  EXPECT_EQ(prof.least_lambda(q(1, 3)), ExtendedRational(1));
  auto r2 = worst_case_renyi_moment(g, 2);
  EXPECT_EQ(r2.forward, inf());
  EXPECT_EQ(r2.backward, ExtendedRational(q(9, 4)));
  auto r3 = worst_case_renyi_moment(g, 3);
  EXPECT_EQ(r3.forward, inf());
  EXPECT_EQ(r3.backward, ExtendedRational(q(121, 16)));
  EXPECT_EQ(worst_case_ratio(g).forward, inf());
  auto env = tradeoff_envelope(prof);
  EXPECT_EQ(env.world0_vs_world1.vertices(),
            vertices({{0, 1}, {q(1, 9), q(5, 9)}, {q(5, 9), q(1, 9)}, {q(14, 15), 0}, {1, 0}}));
  EXPECT_EQ(env.world1_vs_world0.vertices(), vertices({{0, q(14, 15)}, {q(1, 9), q(5, 9)}, {q(5, 9), q(1, 9)}, {1, 0}}));
}

TEST(EngineReference, E5_R2) {
  auto g = testing::r2();
  auto prof = worst_case_profile(g).profile;
  const std::vector<std::pair<long, Rational>> expected{{1, q(1, 3)}, {2, q(2, 9)}, {3, q(1, 9)}, {4, 0}};
  for (const auto& [l, d] : expected) {
    EXPECT_EQ(prof.forward()(l), d);
    EXPECT_EQ(prof.backward()(l), d);
  }
  EXPECT_EQ(prof.least_lambda(0), ExtendedRational(4));
  EXPECT_EQ(prof.least_lambda(q(1, 100)), ExtendedRational(q(391, 100)));
  EXPECT_EQ(prof.least_lambda(q(1, 10)), ExtendedRational(q(31, 10)));
  EXPECT_EQ(prof.least_lambda(q(1, 5)), ExtendedRational(q(11, 5)));
  EXPECT_EQ(prof.least_lambda(q(1, 3)), ExtendedRational(1));
  EXPECT_EQ(worst_case_renyi_moment(g, 2).max(), ExtendedRational(q(9, 4)));
  EXPECT_EQ(worst_case_renyi_moment(g, 3).max(), ExtendedRational(q(121, 16)));
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(4));
  auto env = tradeoff_envelope(prof);
  auto tv = vertices({{0, 1}, {q(1, 9), q(5, 9)}, {q(5, 9), q(1, 9)}, {1, 0}});
  EXPECT_EQ(env.world0_vs_world1.vertices(), tv);
  EXPECT_EQ(env.world1_vs_world0.vertices(), tv);
}

// Sticky RR_u answers the same bit again: repeating adds nothing, so its profile is one-shot RR_u,
// H_t = ((u − t)⁺ + (1 − tu)⁺)/(1+u) (E.1), at every horizon — and memoisation keeps the number
// of distinct belief pairs linear in the horizon.
TEST(EngineReference, StickyRRIsOneShotRR) {
  for (unsigned horizon : {1u, 2u, 8u}) {
    auto g = testing::sticky_rr(3, 2, horizon);
    auto [prof, stats] = worst_case_profile(g);
    for (long t = 1; t <= 4; ++t) {
      Rational closed = (std::max(Rational(3 - t), Rational(0)) + std::max(Rational(1 - 3 * t), Rational(0))) / 4;
      EXPECT_EQ(prof.delta(t), closed) << "horizon " << horizon << " t " << t;
    }
    EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(3));
    EXPECT_LE(stats.distinct_keys, 8u * horizon + 8u);
  }
}

// The choice IM C: the adversary picks "p" (RR₃) or "a" (C(1, 1/3)) — whichever is worse at λ.
TEST(EngineReference, ChoiceIMTakesTheWorseBranchAtEachLambda) {
  auto g = testing::choice();
  auto prof = worst_case_profile(g).profile;
  EXPECT_EQ(prof.delta(1), q(1, 2));  // RR₃: TV 1/2 > 1/3
  EXPECT_EQ(prof.delta(2), q(1, 3));  // C(1, 1/3): 1/3 > RR₃'s 1/4
  EXPECT_EQ(prof.delta(3), q(1, 3));
  EXPECT_EQ(prof.least_lambda(q(1, 3)), ExtendedRational(q(5, 3)));
  auto w = worst_case_adversary(g, 1, 0);
  EXPECT_EQ(g.mechanism->messages().at(w.adversary.nodes()[0].send->world0), "p");
  auto w2 = worst_case_adversary(g, 2, 0);
  EXPECT_EQ(g.mechanism->messages().at(w2.adversary.nodes()[0].send->world0), "a");
  EXPECT_EQ(w2.delta(), q(1, 3));
  EXPECT_EQ(worst_case_ratio(g).max(), inf());
}

TEST(EngineReference, LeastLambdaByIterationMatchesE5) {
  const std::vector<std::pair<Rational, ExtendedRational>> mp{
      {0, 8}, {q(1, 100), q(157, 20)}, {q(1, 10), q(13, 2)}, {q(1, 5), 5}, {q(1, 3), 3}};
  for (const auto& [d, l] : mp) {
    EXPECT_EQ(least_lambda_by_iteration(testing::mp(), d), l) << to_string(d);
    EXPECT_EQ(worst_case_least_lambda(testing::mp(), d), l) << to_string(d);
  }
  const std::vector<std::pair<Rational, ExtendedRational>> ma{
      {0, inf()}, {q(1, 100), inf()}, {q(1, 10), q(31, 10)}, {q(1, 5), q(11, 5)}, {q(1, 3), 1}};
  for (const auto& [d, l] : ma) EXPECT_EQ(least_lambda_by_iteration(testing::ma(), d), l) << to_string(d);
}

// A noninteractive mechanism wrapped as a one-round game (A.3) has the pair's profile: RR_{λ,δ}
// from the library, whose profile is H = δ + (1−δ)(λ − λ′)⁺/(1+λ) (A.2).
TEST(InteractiveWrapping, RandomizedResponseFromTheLibrary) {
  auto pair = randomized_response(3, q(1, 10));
  auto g = noninteractive_game("RR(ln 3, 1/10)", pair);
  auto prof = worst_case_profile(g).profile;
  PrivacyProfile expected(privacy_loss(pair));
  EXPECT_EQ(prof.forward(), expected.forward());
  EXPECT_EQ(prof.backward(), expected.backward());
  EXPECT_EQ(prof.delta(2), q(13, 40));  // E.2, N2
  EXPECT_EQ(g.mechanism->answer_name(g.mechanism->step(0, 0).front().answer), "(Leak, 0)");
}

TEST(EngineWitness, MPRefutedClaimHasReadableWitness) {
  auto g = testing::mp();
  auto w = find_violation(g, 4, q(1, 5));  // δ(4) = 4/15 > 1/5 (direction 1)
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->direction, 1u);
  EXPECT_EQ(w->delta(), q(4, 15));
  EXPECT_EQ(w->rounds, 2u);
  EXPECT_FALSE(find_violation(g, 4, q(4, 15)).has_value());
  auto views = view_distributions(g, w->adversary, w->rounds);
  Rational p0 = 0, p1 = 0;
  for (const auto& v : w->event) p0 += views.world0.mass(v), p1 += views.world1.mass(v);
  EXPECT_EQ(p0, w->probability_world0);
  EXPECT_EQ(p1, w->probability_world1);
  auto text = w->describe(g);
  EXPECT_NE(text.find("send"), std::string::npos);
  EXPECT_NE(text.find("4/15"), std::string::npos);
}

TEST(EngineWitness, CheckClaimGivesExactDeltaAndWitness) {
  auto g = testing::mp();
  auto holds = check_approximate_dp(g, 4, q(4, 15));
  EXPECT_TRUE(holds.holds);
  EXPECT_FALSE(holds.witness.has_value());
  EXPECT_EQ(holds.delta_forward, 0);
  EXPECT_EQ(holds.delta_backward, q(4, 15));
  auto pure = check_approximate_dp(g, 7, 0);  // pure level 8: not ln 7-DP
  EXPECT_FALSE(pure.holds);
  ASSERT_TRUE(pure.witness.has_value());
  EXPECT_EQ(pure.witness->delta(), pure.delta_backward);
  EXPECT_TRUE(check_approximate_dp(g, 8, 0).holds);
  EXPECT_THROW(check_approximate_dp(g, 2, q(3, 2)), Error);
}

TEST(EngineWitness, FewestRoundsFirst) {
  // R2 at λ = 1: one round already gives TV 1/3 > 1/4.
  auto w = find_violation(testing::r2(), 1, q(1, 4));
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->rounds, 1u);
  EXPECT_EQ(w->adversary.depth(), 1u);
  EXPECT_EQ(w->delta(), q(1, 3));
}

// A game estimated at a handful of entries starts no worker pool when the thread count is left
// to the engine; an explicit thread count is honoured.
TEST(EngineThreads, SmallGameIsSearchedOnTheCallingThread) {
  const Game g = testing::r2();
  const auto automatic = worst_case_hockey_stick(g, 1);
  EXPECT_LE(automatic.stats.estimate, 10'000u);
  EXPECT_EQ(automatic.stats.timings.workers, 1u);
  EXPECT_EQ(automatic.stats.timings.tasks, 0u);
  EngineOptions o;
  o.threads = 2;
  const auto two = worst_case_hockey_stick(g, 1, o);
  EXPECT_EQ(two.stats.timings.workers, 2u);
  EXPECT_EQ(two.forward, automatic.forward);
  EXPECT_EQ(two.stats.distinct_keys, automatic.stats.distinct_keys);
}

TEST(EngineLimits, RefusesBeyondMaxNodesWithEstimate) {
  auto g = testing::r2();
  EngineOptions o;
  o.horizon = 12;
  o.max_nodes = 5;
  try {
    worst_case_hockey_stick(g, 1, o);
    FAIL() << "expected a refusal";
  } catch (const GameTooLarge& e) {
    EXPECT_EQ(e.limit(), 5u);
    EXPECT_EQ(e.estimate(), estimate_game(g, o).entries);  // the refusal carries the engine's estimate
    EXPECT_NE(std::string(e.what()).find("max_nodes"), std::string::npos);
  }
  // R2 at horizon 12: about a hundred belief pairs, but the optimal adversary's tree at λ = 1 has
  // thousands of nodes — the witness is refused, not the evaluation
  o.max_nodes = 1000;
  EXPECT_NO_THROW(worst_case_hockey_stick(g, 1, o));
  EXPECT_THROW(worst_case_adversary(g, 1, 0, o), GameTooLarge);
  EXPECT_THROW(worst_case_renyi_moment(g, 1), Error);
  EXPECT_THROW(worst_case_hockey_stick(g, -1), Error);
}

// The engine keeps its own stack of frames: a horizon in the thousands does not overflow the
// call stack (sticky RR needs two keys per round).
TEST(EngineLimits, DeepHorizonsRunIteratively) {
  EngineOptions o;
  o.horizon = 3000;
  auto [prof, stats] = worst_case_profile(testing::sticky_rr(3, 2, 1), o);
  EXPECT_EQ(prof.delta(1), q(1, 2));
  EXPECT_LE(stats.distinct_keys, 2u * 3000u + 8u);
  auto w = find_violation(testing::sticky_rr(3, 2, 1), 1, q(1, 4), o);
  ASSERT_TRUE(w.has_value());
  EXPECT_EQ(w->rounds, 1u);
}

// ------------------------------------------------------------------ random mechanisms

/// Integer weights of a random mechanism: [state][message][answer][next] with n states,
/// 2 messages, 2 answers; each (state, message) row has a positive sum.
struct RandomMechanism {
  int n = 2;
  std::vector<int> w;
  int at(int s, int m, int a, int t) const { return w[((s * 2 + m) * 2 + a) * n + t]; }
};

rc::Gen<RandomMechanism> random_mechanism() {
  return rc::gen::mapcat(rc::gen::inRange(2, 4), [](int n) {
    return rc::gen::map(rc::gen::container<std::vector<int>>(std::size_t(4 * n * n), rc::gen::inRange(0, 4)), [n](std::vector<int> w) {
      RandomMechanism r{n, std::move(w)};
      for (int s = 0; s < n; ++s)
        for (int m = 0; m < 2; ++m) {
          int sum = 0;
          for (int a = 0; a < 2; ++a)
            for (int t = 0; t < n; ++t) sum += r.at(s, m, a, t);
          if (sum == 0) r.w[((s * 2 + m) * 2) * n] = 1;
        }
      return r;
    });
  });
}

std::shared_ptr<TableMechanism> table_of(const RandomMechanism& r, const std::array<std::string, 2>& answer = {"0", "1"}) {
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states;
  for (int s = 0; s < r.n; ++s) {
    TableMechanism::StateTable t;
    for (int m = 0; m < 2; ++m) {
      int sum = 0;
      for (int a = 0; a < 2; ++a)
        for (int x = 0; x < r.n; ++x) sum += r.at(s, m, a, x);
      for (int a = 0; a < 2; ++a)
        for (int x = 0; x < r.n; ++x)
          if (r.at(s, m, a, x) > 0) t.rules[std::to_string(m)].push_back({q(r.at(s, m, a, x), sum), answer[std::size_t(a)], "s" + std::to_string(x)});
    }
    states.push_back({"s" + std::to_string(s), t});
  }
  return std::make_shared<TableMechanism>("random", states, std::vector<std::string>{"0", "1"});
}

/// Brute force: every deterministic adversary (a decision tree choosing an allowed pair at every
/// answer history, always playing all rounds — stopping is dominated, A.4), as the list of its
/// leaves' masses (world 0, world 1).
using Leaves = std::vector<std::pair<Rational, Rational>>;
std::vector<Leaves> all_adversaries(const Game& g, VerifierState sigma, unsigned rounds,
                                    const std::array<std::map<StateId, Rational>, 2>& belief) {
  Rational m0 = 0, m1 = 0;
  for (const auto& [s, p] : belief[0]) m0 += p;
  for (const auto& [s, p] : belief[1]) m1 += p;
  const auto& acts = g.verifier->allowed(sigma);
  if (rounds == 0 || acts.empty()) return {Leaves{{m0, m1}}};
  std::vector<Leaves> out;
  for (std::size_t i = 0; i < acts.size(); ++i) {
    std::map<AnswerId, std::array<std::map<StateId, Rational>, 2>> kids;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : belief[b])
        for (const auto& t : g.mechanism->step(s, b == 0 ? acts[i].world0 : acts[i].world1)) kids[t.answer][b][t.next] += p * t.probability;
    std::vector<Leaves> combos{Leaves{}};
    for (const auto& [a, kb] : kids) {
      auto subs = all_adversaries(g, g.verifier->next(sigma, i), rounds - 1, kb);
      std::vector<Leaves> next;
      for (const auto& c : combos)
        for (const auto& s : subs) {
          Leaves l = c;
          l.insert(l.end(), s.begin(), s.end());
          next.push_back(std::move(l));
        }
      combos = std::move(next);
    }
    out.insert(out.end(), combos.begin(), combos.end());
  }
  return out;
}

std::vector<PrivacyLoss> brute_force(const Game& g, unsigned horizon) {
  std::array<std::map<StateId, Rational>, 2> root;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : g.initial[b]) root[b][s] += p;
  std::vector<PrivacyLoss> out;
  for (const auto& leaves : all_adversaries(g, g.verifier->initial_state(), horizon, root)) out.push_back(PrivacyLoss::from_masses(leaves));
  return out;
}

Game random_static_game(const RandomMechanism& r, unsigned horizon) {
  auto mech = table_of(r);
  return static_game("random", mech, {0, 1}, horizon);
}

Game random_pairs_game(const RandomMechanism& r, const std::vector<MessagePair>& allowed, std::optional<unsigned> k, unsigned horizon) {
  Game g;
  g.name = "random pairs";
  g.mechanism = table_of(r);
  g.verifier = std::make_shared<PairsVerifier>(allowed, k);
  g.initial = {InitialLaw{{0, Rational(1)}}, InitialLaw{{0, Rational(1)}}};
  g.horizon = horizon;
  return g;
}

void check_against_brute_force(const Game& g, unsigned horizon) {
  EngineOptions o;
  o.horizon = horizon;
  auto losses = brute_force(g, horizon);
  RC_ASSERT(!losses.empty());
  // profiles: the engine's PL profile is the upper envelope of every adversary's H_λ curve
  PiecewiseLinear fwd = directional_profile(losses[0]), bwd = directional_profile(losses[0].swapped());
  ExtendedRational r2f, r2b, ratf, ratb;
  for (const auto& l : losses) {
    fwd = max(fwd, directional_profile(l));
    bwd = max(bwd, directional_profile(l.swapped()));
    r2f = std::max(r2f, renyi_moment(l, 2));
    r2b = std::max(r2b, renyi_moment(l.swapped(), 2));
    ratf = std::max(ratf, max_ratio(l));
    ratb = std::max(ratb, max_ratio(l.swapped()));
  }
  auto prof = worst_case_profile(g, o).profile;
  RC_ASSERT(prof.forward() == fwd);
  RC_ASSERT(prof.backward() == bwd);
  for (const Rational& lambda : {Rational(1), q(3, 2), Rational(2), Rational(3), q(1, 2)}) {
    auto at = worst_case_hockey_stick(g, lambda, o);
    RC_ASSERT(at.forward == fwd(lambda));
    RC_ASSERT(at.backward == bwd(lambda));
  }
  auto r2 = worst_case_renyi_moment(g, 2, o);
  RC_ASSERT(r2.forward == r2f);
  RC_ASSERT(r2.backward == r2b);
  auto rat = worst_case_ratio(g, o);
  RC_ASSERT(rat.forward == ratf);
  RC_ASSERT(rat.backward == ratb);
  // B.7: every adversary's Neyman–Pearson curve lies above the envelope, and the envelope touches
  // the lower hull of their union (its vertices are vertices of some adversary's curve)
  auto env = tradeoff_envelope(prof);
  RC_ASSERT(env.world0_vs_world1.inverse() == env.world1_vs_world0);
  for (const auto& l : losses) {
    RC_ASSERT(TradeOff::of(l).dominates(env.world0_vs_world1));
    RC_ASSERT(TradeOff::of(l.swapped()).dominates(env.world1_vs_world0));
  }
  for (const auto& v : env.world0_vs_world1.vertices()) {
    bool touched = false;
    for (const auto& l : losses) touched = touched || TradeOff::of(l)(v.alpha) == v.beta;
    RC_ASSERT(touched);
  }
  // B.6: the Newton iteration over BI-δ runs agrees with the PL profile
  for (const Rational& delta : {Rational(0), q(1, 20), q(1, 5), q(1, 2)})
    RC_ASSERT(least_lambda_by_iteration(g, delta, o) == prof.least_lambda(delta));
}

RC_GTEST_PROP(EngineBruteForce, StaticGamesEqualEnumerationOfAllAdversaries, ()) {
  auto r = *random_mechanism();
  unsigned horizon = *rc::gen::inRange(1u, 4u);
  check_against_brute_force(random_static_game(r, horizon), horizon);
}

RC_GTEST_PROP(EngineBruteForce, PairGamesEqualEnumerationOfAllAdversaries, ()) {
  auto r = *random_mechanism();
  unsigned horizon = *rc::gen::inRange(1u, 3u);
  const std::vector<MessagePair> all{{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  auto mask = *rc::gen::inRange(1, 16);
  std::vector<MessagePair> allowed;
  for (int i = 0; i < 4; ++i)
    if (mask & (1 << i)) allowed.push_back(all[std::size_t(i)]);
  std::optional<unsigned> k;
  if (*rc::gen::arbitrary<bool>()) k = *rc::gen::inRange(0u, 2u);
  check_against_brute_force(random_pairs_game(r, allowed, k, horizon), horizon);
}

RC_GTEST_PROP(EngineBruteForce, AutomatonGamesEqualEnumerationOfAllAdversaries, ()) {
  auto r = *random_mechanism();
  const unsigned horizon = *rc::gen::inRange(1u, 3u);
  const std::vector<MessagePair> all{{0, 0}, {0, 1}, {1, 0}, {1, 1}};
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(2);
  for (int st = 0; st < 2; ++st)
    for (const auto& p : all)
      if (*rc::gen::inRange(0, 3) > 0) edges[std::size_t(st)].push_back({p, VerifierState(*rc::gen::inRange(0, 2))});
  Game g = random_pairs_game(r, all, std::nullopt, horizon);
  g.verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"a", "b"}, 0, edges);
  check_against_brute_force(g, horizon);
}

// Post-processing never increases the profile (data processing, A.1; HSV L2.16 for interactive
// post-processing): relabelling answers by a fixed map (possibly merging them) can only lower
// both directional worst-case profiles.
RC_GTEST_PROP(EngineBruteForce, PostProcessingAnswersNeverIncreasesTheProfile, ()) {
  auto r = *random_mechanism();
  const unsigned horizon = *rc::gen::inRange(1u, 4u);
  const std::array<std::string, 2> merged{"a", *rc::gen::element<std::string>("a", "b")};
  auto original = worst_case_profile(static_game("original", table_of(r), {0, 1}, horizon)).profile;
  auto processed = worst_case_profile(static_game("processed", table_of(r, merged), {0, 1}, horizon)).profile;
  RC_ASSERT(max(original.forward(), processed.forward()) == original.forward());
  RC_ASSERT(max(original.backward(), processed.backward()) == original.backward());
  if (merged[1] == "a") RC_ASSERT(processed.delta(0) == 1 && processed.delta(1) == 0);  // one answer: no information
}

/// A random decision tree over the static game's messages up to @p rounds.
Adversary random_adversary(const Game& g, unsigned rounds) {
  Adversary adv;
  std::vector<std::pair<std::size_t, unsigned>> open{{0, rounds}};
  const auto& acts = g.verifier->allowed(0);
  while (!open.empty()) {
    auto [n, r] = open.back();
    open.pop_back();
    if (r == 0 || *rc::gen::inRange(0, 8) == 0) continue;  // stop
    adv.set_send(n, acts[*rc::gen::inRange<std::size_t>(0, acts.size())]);
    for (AnswerId a = 0; a < 4; ++a) {  // answers of the random tables: "invalid", "halt", "0", "1"
      auto c = adv.add_node(std::nullopt);
      adv.set_child(n, a, c);
      open.push_back({c, r - 1});
    }
  }
  return adv;
}

/// The oblivious adversary that sends @p sequence whatever the answers (answer ids 0..3 cover the
/// random tables: "invalid", "halt", "0", "1").
Adversary fixed_sequence(const std::vector<MessagePair>& sequence) {
  Adversary adv;
  std::vector<std::size_t> level{0};
  for (const auto& pair : sequence) {
    std::vector<std::size_t> next;
    for (auto n : level) {
      adv.set_send(n, pair);
      for (AnswerId a = 0; a < 4; ++a) {
        auto c = adv.add_node(std::nullopt);
        adv.set_child(n, a, c);
        next.push_back(c);
      }
    }
    level = std::move(next);
  }
  return adv;
}

void all_sequences(const Game& g, VerifierState sigma, unsigned rounds, std::vector<MessagePair>& prefix,
                   std::vector<std::vector<MessagePair>>& out) {
  const auto& acts = g.verifier->allowed(sigma);
  if (rounds == 0 || acts.empty()) {
    out.push_back(prefix);
    return;
  }
  for (std::size_t i = 0; i < acts.size(); ++i) {
    prefix.push_back(acts[i]);
    all_sequences(g, g.verifier->next(sigma, i), rounds - 1, prefix, out);
    prefix.pop_back();
  }
}

// Oblivious adversaries (A.4): the engine's oblivious profile equals the maximum over every fixed
// sequence of the views' profile (computed by view_distributions, without merging), and it is
// never above the adaptive profile.
RC_GTEST_PROP(EngineBruteForce, ObliviousEqualsEnumerationOfSequencesAndIsAtMostAdaptive, ()) {
  auto r = *random_mechanism();
  const unsigned horizon = *rc::gen::inRange(1u, 4u);
  const bool pairs = *rc::gen::arbitrary<bool>();
  Game g = pairs ? random_pairs_game(r, {{0, 0}, {0, 1}, {1, 1}}, 1u, horizon) : random_static_game(r, horizon);
  std::vector<std::vector<MessagePair>> seqs;
  std::vector<MessagePair> prefix;
  all_sequences(g, g.verifier->initial_state(), horizon, prefix, seqs);
  std::optional<PrivacyProfile> expected;
  for (const auto& seq : seqs) {
    auto views = view_distributions(g, fixed_sequence(seq), horizon);
    PrivacyProfile p(PrivacyLoss::of(views.world0, views.world1));
    expected = expected ? max(*expected, p) : p;
  }
  auto obl = worst_case_profile_oblivious(g).profile;
  RC_ASSERT(obl.forward() == expected->forward());
  RC_ASSERT(obl.backward() == expected->backward());
  auto ad = worst_case_profile(g).profile;
  RC_ASSERT(max(obl.forward(), ad.forward()) == ad.forward());
  RC_ASSERT(max(obl.backward(), ad.backward()) == ad.backward());
}

// MP: adapting the second query to the first answer is worth something — at λ = 3/2, direction
// 0, the best oblivious adversary reaches 5/18 (always q = 0: only leaf (0,0,0), 4/9 − (3/2)(1/9),
// counts; always q = 1 gives 7/30), the adaptive one 31/90 (q = 0 after a₀ = 0, 5/18, plus q = 1
// after a₀ = 1, where leaf (1,1,0) adds 4/15 − (3/2)(2/15) = 1/15; hand-checked from the D.16
// leaf table). On MA adaptivity buys nothing.
TEST(EngineReference, AdaptivityHelpsOnMP) {
  auto obl = worst_case_profile_oblivious(testing::mp()).profile;
  auto ad = worst_case_profile(testing::mp()).profile;
  EXPECT_EQ(obl.forward()(q(3, 2)), q(5, 18));
  EXPECT_EQ(ad.forward()(q(3, 2)), q(31, 90));
  EXPECT_EQ(obl.backward()(2), ad.backward()(2));
  auto obl_ma = worst_case_profile_oblivious(testing::ma()).profile;
  auto ad_ma = worst_case_profile(testing::ma()).profile;
  EXPECT_EQ(obl_ma.forward(), ad_ma.forward());
  EXPECT_EQ(obl_ma.backward(), ad_ma.backward());
}

RC_GTEST_PROP(EngineBruteForce, OneAdversaryNeverBeatsTheSupremum, ()) {
  auto r = *random_mechanism();
  unsigned horizon = *rc::gen::inRange(1u, 4u);
  auto g = random_static_game(r, horizon);
  auto adv = random_adversary(g, horizon);
  auto views = view_distributions(g, adv, horizon);
  auto loss = PrivacyLoss::of(views.world0, views.world1);
  auto prof = worst_case_profile(g).profile;
  for (const Rational& lambda : {Rational(0), Rational(1), q(3, 2), Rational(2), Rational(4)}) {
    RC_ASSERT(hockey_stick(loss, lambda) <= prof.forward()(lambda));
    RC_ASSERT(hockey_stick(loss.swapped(), lambda) <= prof.backward()(lambda));
  }
  RC_ASSERT(renyi_moment(loss, 2) <= worst_case_renyi_moment(g, 2).forward);
  RC_ASSERT(max_ratio(loss.swapped()) <= worst_case_ratio(g).backward);
}

RC_GTEST_PROP(EngineWitness, WitnessReproducesItsProbabilitiesWhenReplayed, ()) {
  auto r = *random_mechanism();
  unsigned horizon = *rc::gen::inRange(1u, 4u);
  auto g = random_static_game(r, horizon);
  const Rational lambda = 1 + *testing::small_rational(2);
  auto at = worst_case_hockey_stick(g, lambda);
  for (unsigned d = 0; d < 2; ++d) {
    auto w = worst_case_adversary(g, lambda, d);
    RC_ASSERT(w.delta() == (d == 0 ? at.forward : at.backward));
    auto views = view_distributions(g, w.adversary, horizon);
    Rational p0 = 0, p1 = 0;
    for (const auto& v : w.event) p0 += views.world0.mass(v), p1 += views.world1.mass(v);
    RC_ASSERT(p0 == w.probability_world0);
    RC_ASSERT(p1 == w.probability_world1);
    // and the replayed adversary's own hockey-stick is the supremum
    auto loss = PrivacyLoss::of(views.world0, views.world1);
    RC_ASSERT(hockey_stick(d == 0 ? loss : loss.swapped(), lambda) == w.delta());
  }
  if (sgn(at.delta()) > 0) {
    auto v = find_violation(g, lambda, Rational(at.delta() - q(1, 1000000)));
    RC_ASSERT(v.has_value());
    RC_ASSERT(v->delta() > at.delta() - q(1, 1000000));
    RC_ASSERT(!find_violation(g, lambda, at.delta()).has_value());
  }
}

// A noninteractive mechanism is the one-round interactive mechanism that ignores its query
// (THEOREMS.md A.3): its worst-case profile is the pair's profile.
RC_GTEST_PROP(InteractiveWrapping, OneRoundNoninteractiveHasThePairProfile, ()) {
  auto table = *testing::weight_table(4, 4);
  auto masses = testing::masses_of(table);
  std::vector<std::pair<std::string, TableMechanism::StateTable>> states(3);
  states[0].first = "x";
  states[1].first = "x'";
  states[2] = {"done", {true, {}}};
  for (std::size_t y = 0; y < masses.size(); ++y) {
    if (sgn(masses[y].first) > 0) states[0].second.rules["*"].push_back({masses[y].first, "y" + std::to_string(y), "done"});
    if (sgn(masses[y].second) > 0) states[1].second.rules["*"].push_back({masses[y].second, "y" + std::to_string(y), "done"});
  }
  auto mech = std::make_shared<TableMechanism>("nim", states);
  auto g = static_game("nim", mech, {0, 1}, 1);
  PrivacyProfile expected(PrivacyLoss::from_masses(masses));
  auto got = worst_case_profile(g).profile;
  RC_ASSERT(got.forward() == expected.forward());
  RC_ASSERT(got.backward() == expected.backward());
  // more rounds only add "halt" answers, which change nothing
  EngineOptions o;
  o.horizon = 3;
  RC_ASSERT(worst_case_profile(g, o).profile.forward() == expected.forward());
}

}  // namespace
}  // namespace exactdp
