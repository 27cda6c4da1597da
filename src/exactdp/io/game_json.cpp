#include "exactdp/io/game_json.hpp"

#include <nlohmann/json.hpp>

namespace exactdp {
namespace {

using Json = nlohmann::ordered_json;

Json vertices(const TradeOff& f) {
  Json v = Json::array();
  for (const auto& x : f.vertices()) v.push_back(Json::array({to_string(x.alpha), to_string(x.beta)}));
  return v;
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

std::string profile_report_json(const Game& game, const ProfileQuery& query) {
  const GameProfileReport r = game_profile_report(game, query);
  Json j;
  j["name"] = r.name;
  j["horizon"] = r.horizon;
  j["neighbours"] = r.neighbours;
  j["adversary"] = to_string(r.adversary);
  j["worlds"] = Json::array({r.worlds[0], r.worlds[1]});
  j["pure"] = {{"ratio", to_string(r.ratio.max())}, {"ratio_forward", to_string(r.ratio.forward)},
               {"ratio_backward", to_string(r.ratio.backward)}};
  Json at = Json::array();
  for (const auto& e : r.at)
    at.push_back({{"lambda", to_string(e.lambda)}, {"delta", to_string(e.delta)}, {"delta_forward", to_string(e.forward)},
                  {"delta_backward", to_string(e.backward)}});
  j["at"] = std::move(at);
  Json least = Json::array();
  for (const auto& e : r.least_lambda) least.push_back({{"delta", to_string(e.delta)}, {"lambda", to_string(e.lambda)}});
  j["least_lambda"] = std::move(least);
  Json renyi = Json::array();
  for (const auto& e : r.renyi)
    renyi.push_back({{"alpha", e.alpha}, {"moment", to_string(e.moment.max())}, {"moment_forward", to_string(e.moment.forward)},
                     {"moment_backward", to_string(e.moment.backward)}});
  for (const auto& e : r.renyi_certified) {
    const auto& m = e.moment;
    // the maximum of two enclosed reals is enclosed by the endpointwise maximum
    const std::string both = m.forward.infinite || m.backward.infinite ? "inf" : max(m.forward.enclosure, m.backward.enclosure).to_string();
    renyi.push_back({{"alpha", to_string(e.alpha)}, {"moment", both}, {"moment_forward", m.forward.to_string()},
                     {"moment_backward", m.backward.to_string()}, {"certified", true}});
  }
  j["renyi"] = std::move(renyi);
  j["tradeoff"] = {{"vertices", vertices(r.tradeoff->world0_vs_world1.symmetrized())},
                   {"world0_vs_world1", vertices(r.tradeoff->world0_vs_world1)},
                   {"world1_vs_world0", vertices(r.tradeoff->world1_vs_world0)}};
  j["stats"] = {{"nodes_visited", r.stats.nodes_visited}, {"distinct_keys", r.stats.distinct_keys}, {"cache_hits", r.stats.cache_hits},
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
