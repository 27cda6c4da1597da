#include "exactdp/accounting/game_profile.hpp"

#include "exactdp/compose/concurrent.hpp"

namespace exactdp {
namespace {

void add(EngineStats& total, const EngineStats& s) {
  total.nodes_visited += s.nodes_visited;
  total.distinct_keys += s.distinct_keys;
  total.cache_hits += s.cache_hits;
}

}  // namespace

GameProfileReport game_profile_report(const Game& input, const ProfileQuery& query) {
  const bool oblivious = query.adversary == AdversaryClass::oblivious;
  if (oblivious && !query.real_alphas.empty())
    throw Error("profile_report_json", "alpha", to_string(query.real_alphas.front()),
                "non-integer Renyi orders are computed for adaptive and sequential adversaries only");
  for (const auto& l : query.lambdas)
    if (sgn(l) < 0) throw Error("profile_report_json", "lambda", to_string(l), "lambda = e^epsilon must be non-negative");
  const Game game = query.adversary == AdversaryClass::sequential ? sequential_adversaries(input) : input;
  GameProfileReport r;
  r.name = game.name;
  r.neighbours = game.verifier->describe();
  r.worlds = {game.world_names[0], game.world_names[1]};
  r.horizon = query.options.horizon.value_or(game.horizon);
  r.adversary = query.adversary;
  auto [profile, pstats] = oblivious ? worst_case_profile_oblivious(game, query.options) : worst_case_profile(game, query.options);
  add(r.stats, pstats);
  r.ratio = oblivious ? worst_case_ratio_oblivious(game, query.options) : worst_case_ratio(game, query.options);
  add(r.stats, r.ratio.stats);
  for (const auto& l : query.lambdas) r.at.push_back({l, profile.delta(l), profile.forward()(l), profile.backward()(l)});
  for (const auto& d : query.deltas) r.least_lambda.push_back({d, profile.least_lambda(d)});
  for (auto a : query.alphas) {
    auto m = oblivious ? worst_case_renyi_moment_oblivious(game, a, query.options) : worst_case_renyi_moment(game, a, query.options);
    add(r.stats, m.stats);
    r.renyi.push_back({a, std::move(m)});
  }
  for (const auto& a : query.real_alphas) {
    auto m = worst_case_renyi_moment_certified(game, a, query.options);
    add(r.stats, m.stats);
    r.renyi_certified.push_back({a, std::move(m)});
  }
  r.tradeoff = tradeoff_envelope(profile);
  return r;
}

}  // namespace exactdp
