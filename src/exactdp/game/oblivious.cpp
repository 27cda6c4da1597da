#include "exactdp/game/oblivious.hpp"

#include "exactdp/game/search.hpp"

#include <functional>
#include <map>

namespace exactdp::engine_detail {

namespace {

using Belief = std::vector<std::pair<StateId, Rational>>;  // sorted by state, positive masses
using LeafMasses = std::vector<std::pair<Rational, Rational>>;  // per merged view: (world 0, world 1)

Rational mass(const Belief& m) {
  Rational s = 0;
  for (const auto& [st, p] : m) s += p;
  return s;
}

/// The children of normalised beliefs under one pair: per answer, the normaliser and the
/// normalised beliefs m_b′(s′) = Σ_s m_b(s)·κ(a, s′ | s, x_b) / Z (B.1).
std::vector<std::pair<Rational, std::array<Belief, 2>>> children(const InteractiveMechanism& mech, const std::array<Belief, 2>& belief,
                                                                   const MessagePair& pair) {
  std::map<AnswerId, std::array<std::map<StateId, Rational>, 2>> acc;
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : belief[b])
      for (const auto& t : mech.step(s, b == 0 ? pair.world0 : pair.world1)) acc[t.answer][b][t.next] += p * t.probability;
  std::vector<std::pair<Rational, std::array<Belief, 2>>> out;
  for (auto& [a, beliefs] : acc) {
    Rational z = 0;
    for (int b = 0; b < 2; ++b)
      for (const auto& [s, p] : beliefs[b]) z += p;
    if (sgn(z) == 0) continue;
    auto& c = out.emplace_back(z, std::array<Belief, 2>{});
    for (int b = 0; b < 2; ++b)
      for (auto& [s, p] : beliefs[b])
        if (sgn(p) != 0) c.second[b].emplace_back(s, p / z);
  }
  return out;
}

/// Depth-first over the oblivious sequences: @p layer maps each normalised belief pair (rounds and
/// verifier state are common to the layer) to its total weight.
void oblivious_search(const Game& game, const EngineOptions& options, VerifierState sigma, unsigned rounds,
                      const std::map<std::array<Belief, 2>, Rational>& layer, const std::function<void(const LeafMasses&)>& at_leaf,
                      EngineStats& stats) {
  const auto& acts = game.verifier->allowed(sigma);
  if (rounds == 0 || acts.empty()) {
    LeafMasses masses;
    for (const auto& [beliefs, w] : layer) masses.emplace_back(w * mass(beliefs[0]), w * mass(beliefs[1]));
    at_leaf(masses);
    return;
  }
  for (std::size_t i = 0; i < acts.size(); ++i) {
    const VerifierState next = game.verifier->next(sigma, i);
    std::map<std::array<Belief, 2>, Rational> out;
    for (const auto& [beliefs, w] : layer) {
      if (++stats.nodes_visited > options.max_nodes)
        throw GameTooLarge("oblivious adversaries", stats.nodes_visited, options.max_nodes, "belief expansions over the oblivious sequences");
      for (auto& [z, c] : children(*game.mechanism, beliefs, acts[i])) out[std::move(c)] += w * z;
    }
    stats.distinct_keys = std::max<std::uint64_t>(stats.distinct_keys, out.size());
    oblivious_search(game, options, next, rounds - 1, out, at_leaf, stats);
  }
}

/// Runs @p at_leaf on the view masses of every oblivious pair sequence of the horizon.
EngineStats for_each_oblivious_sequence(const Game& game, const EngineOptions& options, const std::function<void(const LeafMasses&)>& at_leaf) {
  game.validate();
  const unsigned horizon = options.horizon.value_or(game.horizon);
  game.check_horizon(horizon);
  std::array<Belief, 2> root;
  for (int b = 0; b < 2; ++b) {
    std::map<StateId, Rational> m;
    for (const auto& [s, p] : game.initial[b]) m[s] += p;
    for (auto& [s, p] : m) root[b].emplace_back(s, p / 2);
  }
  EngineStats stats;
  oblivious_search(game, options, game.verifier->initial_state(), horizon, {{root, Rational(2)}}, at_leaf, stats);
  return stats;
}

}  // namespace

ProfileResult oblivious_profile(const Game& game, const EngineOptions& options) {
  // the initial "curves" are the identity pair's profile (1 − λ)⁺, below every view pair's
  PiecewiseLinear forward = PiecewiseLinear::from_trusted_pieces({{Rational(0), Rational(1), Rational(-1)}, {Rational(1), Rational(0), Rational(0)}});
  PiecewiseLinear backward = forward;
  EngineStats stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    const PrivacyLoss loss = PrivacyLoss::from_masses(masses, "oblivious views");
    forward = max(forward, directional_profile(loss));
    backward = max(backward, directional_profile(loss.swapped()));
  });
  return {PrivacyProfile(forward, backward), stats};
}

DirectionalResult oblivious_renyi_moment(const Game& game, unsigned long alpha, const EngineOptions& options) {
  const RenyiFunctional f{alpha};
  DirectionalResult r;
  r.stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    ExtendedRational fwd, bwd;
    for (const auto& [p, q] : masses) {
      fwd = fwd + f.leaf(p, q);
      bwd = bwd + f.leaf(q, p);
    }
    r.forward = std::max(r.forward, fwd);
    r.backward = std::max(r.backward, bwd);
  });
  return r;
}

DirectionalResult oblivious_ratio(const Game& game, const EngineOptions& options) {
  const RatioFunctional f;
  DirectionalResult r;
  r.stats = for_each_oblivious_sequence(game, options, [&](const LeafMasses& masses) {
    for (const auto& [p, q] : masses) {
      r.forward = std::max(r.forward, f.leaf(p, q));
      r.backward = std::max(r.backward, f.leaf(q, p));
    }
  });
  return r;
}

}  // namespace exactdp::engine_detail
