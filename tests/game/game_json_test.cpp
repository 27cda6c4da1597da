// JSON reports (io/game_json.hpp): the profile report of MP against E.5 and a witness whose JSON
// carries the exact numbers of the Witness it was made from.
#include "exactdp/io/game_json.hpp"
#include "game/fixtures.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace exactdp {
namespace {

using testing::q;

TEST(GameJson, ProfileReportOfMP) {
  ProfileQuery query;
  query.lambdas = {1, 2, 8};
  query.deltas = {0, q(1, 10)};
  query.alphas = {2};
  auto j = nlohmann::json::parse(profile_report_json(testing::mp(), query));
  EXPECT_EQ(j["horizon"], 2);
  EXPECT_EQ(j["pure"]["ratio"], "8");
  EXPECT_EQ(j["at"][1]["lambda"], "2");
  EXPECT_EQ(j["at"][1]["delta"], "2/5");
  EXPECT_EQ(j["at"][1]["delta_forward"], "2/9");
  EXPECT_EQ(j["at"][1]["delta_backward"], "2/5");
  EXPECT_EQ(j["at"][2]["delta"], "0");
  EXPECT_EQ(j["least_lambda"][0]["lambda"], "8");
  EXPECT_EQ(j["least_lambda"][1]["lambda"], "13/2");
  EXPECT_EQ(j["renyi"][0]["moment"], "55/12");
  EXPECT_EQ(j["tradeoff"]["world0_vs_world1"][1], nlohmann::json::array({"1/15", "7/15"}));
  EXPECT_GT(j["stats"]["distinct_keys"].get<int>(), 0);
  ProfileQuery inf_query;
  inf_query.deltas = {q(1, 100)};
  auto ma = nlohmann::json::parse(profile_report_json(testing::ma(), inf_query));
  EXPECT_EQ(ma["pure"]["ratio"], "inf");
  EXPECT_EQ(ma["least_lambda"][0]["lambda"], "inf");
}

TEST(GameJson, WitnessOfMP) {
  auto g = testing::mp();
  auto w = find_violation(g, 4, q(1, 5));
  ASSERT_TRUE(w.has_value());
  auto j = nlohmann::json::parse(witness_json(g, *w));
  EXPECT_EQ(j["direction"], "world1_vs_world0");
  EXPECT_EQ(j["lambda"], "4");
  EXPECT_EQ(j["delta"], "4/15");
  EXPECT_EQ(j["probability_world0"], to_string(w->probability_world0));
  EXPECT_EQ(j["probability_world1"], to_string(w->probability_world1));
  EXPECT_EQ(j["event"].size(), w->event.size());
  EXPECT_TRUE(j["adversary"].contains("send"));
  EXPECT_TRUE(j["adversary"]["on"].contains("0"));
}

}  // namespace
}  // namespace exactdp
