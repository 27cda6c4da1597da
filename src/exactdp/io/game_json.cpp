#include "exactdp/io/game_json.hpp"

#include "exactdp/compose/concurrent.hpp"

#include <nlohmann/json.hpp>

namespace exactdp {
namespace {

using Json = nlohmann::ordered_json;

Json vertices(const TradeOff& f) {
  Json v = Json::array();
  for (const auto& x : f.vertices()) v.push_back(Json::array({to_string(x.alpha), to_string(x.beta)}));
  return v;
}

void add(EngineStats& total, const EngineStats& s) {
  total.nodes_visited += s.nodes_visited;
  total.distinct_keys += s.distinct_keys;
  total.cache_hits += s.cache_hits;
}

Json tree(const Game& game, const Adversary& adv, std::size_t node) {
  const auto& n = adv.nodes().at(node);
  if (!n.send) return "stop";
  const auto& ms = game.mechanism->messages();
  Json j;
  if (n.send->identical()) j["send"] = ms.at(n.send->world0);
  else j["send"] = Json::array({ms.at(n.send->world0), ms.at(n.send->world1)});
  Json on = Json::object();
  for (const auto& [a, c] : n.next) on[game.mechanism->answer_name(a)] = tree(game, adv, c);
  j["on"] = std::move(on);
  return j;
}

}  // namespace

std::string profile_report_json(const Game& input, const ProfileQuery& query) {
  const bool oblivious = query.adversary == AdversaryClass::oblivious;
  if (oblivious && !query.real_alphas.empty())
    throw Error("profile_report_json", "alpha", to_string(query.real_alphas.front()),
                "non-integer Renyi orders are computed for adaptive and sequential adversaries only");
  const Game game = query.adversary == AdversaryClass::sequential ? sequential_adversaries(input) : input;
  const unsigned horizon = query.options.horizon.value_or(game.horizon);
  EngineStats stats;
  auto [profile, pstats] = oblivious ? worst_case_profile_oblivious(game, query.options) : worst_case_profile(game, query.options);
  add(stats, pstats);
  auto ratio = oblivious ? worst_case_ratio_oblivious(game, query.options) : worst_case_ratio(game, query.options);
  add(stats, ratio.stats);

  Json j;
  j["name"] = game.name;
  j["horizon"] = horizon;
  j["neighbours"] = game.verifier->describe();
  j["adversary"] = to_string(query.adversary);
  j["worlds"] = Json::array({game.world_names[0], game.world_names[1]});
  j["pure"] = {{"ratio", to_string(ratio.max())}, {"ratio_forward", to_string(ratio.forward)}, {"ratio_backward", to_string(ratio.backward)}};
  Json at = Json::array();
  for (const auto& l : query.lambdas) {
    if (sgn(l) < 0) throw Error("profile_report_json", "lambda", to_string(l), "lambda = e^epsilon must be non-negative");
    at.push_back({{"lambda", to_string(l)}, {"delta", to_string(profile.delta(l))},
                  {"delta_forward", to_string(profile.forward()(l))}, {"delta_backward", to_string(profile.backward()(l))}});
  }
  j["at"] = std::move(at);
  Json least = Json::array();
  for (const auto& d : query.deltas) least.push_back({{"delta", to_string(d)}, {"lambda", to_string(profile.least_lambda(d))}});
  j["least_lambda"] = std::move(least);
  Json renyi = Json::array();
  for (auto a : query.alphas) {
    auto m = oblivious ? worst_case_renyi_moment_oblivious(game, a, query.options) : worst_case_renyi_moment(game, a, query.options);
    add(stats, m.stats);
    renyi.push_back({{"alpha", a}, {"moment", to_string(m.max())}, {"moment_forward", to_string(m.forward)},
                     {"moment_backward", to_string(m.backward)}});
  }
  for (const auto& a : query.real_alphas) {
    auto m = worst_case_renyi_moment_certified(game, a, query.options);
    add(stats, m.stats);
    // the maximum of two enclosed reals is enclosed by the endpointwise maximum
    const std::string both = m.forward.infinite || m.backward.infinite ? "inf" : max(m.forward.enclosure, m.backward.enclosure).to_string();
    renyi.push_back({{"alpha", to_string(a)}, {"moment", both}, {"moment_forward", m.forward.to_string()},
                     {"moment_backward", m.backward.to_string()}, {"certified", true}});
  }
  j["renyi"] = std::move(renyi);
  auto env = tradeoff_envelope(profile);
  j["tradeoff"] = {{"vertices", vertices(env.world0_vs_world1.symmetrized())},
                   {"world0_vs_world1", vertices(env.world0_vs_world1)},
                   {"world1_vs_world0", vertices(env.world1_vs_world0)}};
  j["stats"] = {{"nodes_visited", stats.nodes_visited}, {"distinct_keys", stats.distinct_keys}, {"cache_hits", stats.cache_hits},
                {"peak_rss_kib", peak_resident_kib()}};
  return j.dump(2);
}

std::string witness_json(const Game& game, const Witness& w) {
  Json j;
  j["direction"] = w.direction == 0 ? "world0_vs_world1" : "world1_vs_world0";
  j["lambda"] = to_string(w.lambda);
  j["delta"] = to_string(w.delta());
  j["rounds"] = w.rounds;
  j["neighbours"] = game.verifier->describe();
  j["worlds"] = Json::array({game.world_names[0], game.world_names[1]});
  j["adversary"] = tree(game, w.adversary, 0);
  Json event = Json::array();
  for (const auto& v : w.event) {
    Json view = Json::array();
    for (auto a : v) view.push_back(game.mechanism->answer_name(a));
    event.push_back(std::move(view));
  }
  j["event"] = std::move(event);
  j["probability_world0"] = to_string(w.probability_world0);
  j["probability_world1"] = to_string(w.probability_world1);
  return j.dump(2);
}

}  // namespace exactdp
