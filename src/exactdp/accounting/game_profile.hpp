/// @file
/// The worst-case profile report of an interactive mechanism (`exactdp profile SPEC`,
/// `exactdp.profile` in Python) as typed values: the engine run over the adversaries of a class up
/// to the horizon — the pure ratio, δ at each λ, the least λ at each δ, Rényi moments and the
/// trade-off envelope. io/game_json.hpp writes it as JSON; nothing here prints.
#pragma once

#include "exactdp/game/adversary_class.hpp"
#include "exactdp/game/engine.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace exactdp {

/// What a profile report asks for.
struct ProfileQuery {
  std::vector<Rational> lambdas;       ///< λ = e^ε values for the "at" entries (each ≥ 0)
  std::vector<Rational> deltas;        ///< δ values for the "least_lambda" entries (each in [0, 1])
  std::vector<unsigned long> alphas;   ///< integer Rényi orders α ≥ 2 for the "renyi" entries
  EngineOptions options;
  /// Non-integer Rényi orders α > 1: "renyi" entries with a certified enclosure of the moment
  /// (worst_case_renyi_moment_certified), `"moment": "[lo, hi]"`, `"certified": true`.
  std::vector<Rational> real_alphas;
  /// The adversary class (game/adversary_class.hpp): adaptive (default); sequential wraps the
  /// verifier (sequential_adversaries); oblivious uses the oblivious routines for the profile, the
  /// integer Rényi moments and the ratio (real α is refused for oblivious adversaries).
  AdversaryClass adversary = AdversaryClass::adaptive;
};

/// The answers of one profile query.
struct GameProfileReport {
  std::string name, neighbours;      ///< the game's name and its verifier's description
  std::array<std::string, 2> worlds;  ///< the neighbouring worlds' names
  unsigned horizon = 0;
  AdversaryClass adversary = AdversaryClass::adaptive;
  DirectionalResult ratio;  ///< the pure-DP ratio in both directions
  struct AtLambda {
    Rational lambda, delta, forward, backward;
  };
  struct Least {
    Rational delta;
    ExtendedRational lambda;
  };
  struct Moment {
    unsigned long alpha;
    DirectionalResult moment;
  };
  struct CertifiedMomentEntry {
    Rational alpha;
    CertifiedDirectionalResult moment;
  };
  std::vector<AtLambda> at;
  std::vector<Least> least_lambda;
  std::vector<Moment> renyi;
  std::vector<CertifiedMomentEntry> renyi_certified;
  std::optional<TradeOffEnvelope> tradeoff;  ///< the directional envelopes (THEOREMS.md B.7); always set
  EngineStats stats;          ///< summed over the engine runs
};

/// Runs the engine on @p game for @p query. Precondition checks as in engine.hpp
/// (exactdp::Error); real α with oblivious adversaries is refused.
GameProfileReport game_profile_report(const Game& game, const ProfileQuery& query);

}  // namespace exactdp
