// The view tools of the HSTVVXZ23 checks (proofs_checks/hstvvxz23_support.*): replaying a
// decision tree on a second game, view laws by answer names, policies, canonical pairs of
// envelopes and the certified lower end of e^ε — each against a hand-derived or second route.
#include "proofs_checks/hstvvxz23_support.hpp"

#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/numeric/interval.hpp"

#include <gtest/gtest.h>

namespace exactdp::proofs::filters {
namespace {

TEST(FilterSupport, ReplayOnTheSameGameKeepsTheViewLaw) {
  // identity renaming: the replayed tree is the same adversary, so its view law is unchanged
  Rng rng(7);
  const MessageMap same = [](const std::vector<std::string>&, const std::string& m) { return std::optional<std::string>(m); };
  for (int i = 0; i < 20; ++i) {
    const Game g = random_table_game(rng, 3, 3);
    const Adversary a = random_adversary(g, 3, rng);
    EXPECT_EQ(view_law(g, a, 3), view_law(g, replay(g, a, g, same, 3), 3));
  }
}

TEST(FilterSupport, PolicyOnFreshRR3GivesTheProductLaw) {
  // two queries to fresh RR₃: world 0 answers "0" w.p. 3/4 each time, independently (hand-derived)
  const Game g = fresh_rr3();
  const Adversary a = adversary_from_policy(g, [](const std::vector<Step>& s) -> std::optional<std::string> {
    return s.size() < 2 ? std::optional<std::string>("q") : std::nullopt;
  }, 2);
  const ViewLaw law = view_law(g, a, 2);
  ASSERT_EQ(law.size(), 4u);
  EXPECT_EQ(law.at({"0", "0"})[0], q(9, 16));
  EXPECT_EQ(law.at({"0", "0"})[1], q(1, 16));
  EXPECT_EQ(law.at({"0", "1"})[0], q(3, 16));
  EXPECT_EQ(law.at({"1", "1"})[1], q(9, 16));
}

TEST(FilterSupport, DroppedPrivacyLossQueriesAreSkipped) {
  // an odometer adversary that asks privacy_loss before each launch, replayed on the filter
  // without those queries: same launches, so the same view once privacy_loss answers are deleted
  LaunchOptions o;
  o.max_instances = 2;
  o.horizon = 6;
  const std::vector<MenuEntry> menu{entry("RR2", one_shot_rr(q(2)), q(2)), entry("RR3", one_shot_rr(q(3)), q(3))};
  const Game odo = odometer_truncated(menu, product_lambda_accumulator(q(6)), o);
  const Game filt = filter_composition(menu, basic_pure_rule(q(6)), o);
  const std::vector<std::string> script{"privacy_loss", "create:RR2", "0:q", "privacy_loss", "create:RR3", "1:q"};
  const Adversary a = adversary_from_policy(odo, [&](const std::vector<Step>& s) -> std::optional<std::string> {
    return s.size() < script.size() ? std::optional<std::string>(script[s.size()]) : std::nullopt;
  }, 6);
  const MessageMap drop = [](const std::vector<std::string>&, const std::string& m) -> std::optional<std::string> {
    return m == "privacy_loss" ? std::nullopt : std::optional<std::string>(m);
  };
  const Adversary b = replay(odo, a, filt, drop, 6);
  const ViewLaw lo = view_law(odo, a, 6, [](const std::vector<Step>& steps) {
    std::vector<std::string> k;
    for (const auto& s : steps)
      if (s.message0 != "privacy_loss") k.push_back(s.answer);
    return k;
  });
  EXPECT_EQ(lo, view_law(filt, b, 6));
  EXPECT_EQ(lo.size(), 4u);  // (created, bit, created, bit) with two bits
}

TEST(FilterSupport, CanonicalPairRealisesTheSymmetrisedEnvelope) {
  // MA has a catastrophic event (D.16); the canonical pair of its symmetrised envelope must be a
  // valid pair whose trade-off is that curve in both orders
  for (const Game& g : {mp_game(), ma_game()}) {
    const TradeOff f = tradeoff_envelope(worst_case_profile(g).profile).world0_vs_world1.symmetrized();
    const Game c = canonical_pair_game("c", g);
    const auto env = tradeoff_envelope(worst_case_profile(c).profile);
    EXPECT_EQ(env.world0_vs_world1, f);
    EXPECT_EQ(env.world1_vs_world0, f);
  }
}

TEST(FilterSupport, ExpLowerIsBelowEToTheEpsilon) {
  const Rational lo = exp_lower(q(1));
  EXPECT_LT(lo, q(271829, 100000));
  EXPECT_GT(lo, q(271828, 100000));
  EXPECT_EQ(exp_lower(q(0)), q(1));
}

}  // namespace
}  // namespace exactdp::proofs::filters
