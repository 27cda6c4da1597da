#include "exactdp/io/check_report.hpp"

#include "exactdp/io/game_json.hpp"

#include <nlohmann/json.hpp>

namespace exactdp {

std::string check_report_json(const Game& game, const std::string& source, const GameClaim& claim,
                              const ClaimCheckOptions& options, const ClaimVerdict& v, bool with_stats) {
  using json = nlohmann::json;
  json out{{"spec", source}, {"adversary", to_string(options.adversary)}};
  if (claim.kind == GameClaim::Kind::renyi) {
    out["claim"] = {{"renyi_alpha", std::to_string(claim.renyi_alpha)}, {"renyi_epsilon", to_string(claim.renyi_epsilon)}};
  } else if (claim.lambda) {
    out["claim"] = {{"lambda", to_string(*claim.lambda)}, {"delta", to_string(claim.delta)}};
  } else {
    out["claim"] = {{"epsilon", to_string(*claim.epsilon)}, {"delta", to_string(claim.delta)}};
  }
  out["verdict"] = to_string(v.verdict);
  out["horizon"] = v.horizon;
  if (claim.kind == GameClaim::Kind::renyi) {
    const ExtendedRational& m = v.moment_forward < v.moment_backward ? *v.moment_backward : *v.moment_forward;
    out["moment"] = to_string(m);
    out["moment_forward"] = to_string(*v.moment_forward);
    out["moment_backward"] = to_string(*v.moment_backward);
    out["decided"] = v.decided;
  } else {
    out["lambda_used"] = to_string(*v.lambda_used);
    out["lambda_side"] = v.lambda_side;
    out["delta_forward"] = to_string(v.delta_forward);
    out["delta_backward"] = to_string(v.delta_backward);
    out["delta"] = to_string(v.delta());
  }
  if (v.verdict == Verdict::undecided) {
    out["enclosure"] = {{"lo", v.enclosure->lower_string(20)}, {"hi", v.enclosure->upper_string(20)}};
    out["precision"] = v.precision;
    out["to_decide"] = v.to_decide;
  }
  if (with_stats)
    out["stats"] = {{"nodes_visited", v.stats.nodes_visited}, {"distinct_keys", v.stats.distinct_keys},
                    {"cache_hits", v.stats.cache_hits}, {"peak_rss_kib", peak_resident_kib()},
                    {"memo_bytes", v.stats.memo_bytes}, {"mechanism_states", v.stats.mechanism_states},
                    {"state_classes", v.stats.state_classes}, {"estimate", v.stats.estimate},
                    {"timings",
                     {{"estimate", v.stats.timings.estimate}, {"compile", v.stats.timings.compile}, {"setup", v.stats.timings.setup},
                      {"search", v.stats.timings.search}, {"total", v.stats.timings.total}, {"workers", v.stats.timings.workers},
                      {"tasks", v.stats.timings.tasks}, {"serial_fraction", v.stats.timings.serial_fraction()}}}};
  if (v.witness) out["witness"] = json::parse(witness_json(game, *v.witness));
  return out.dump();
}

}  // namespace exactdp
