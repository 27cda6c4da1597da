/// @file
/// Writing a game as a spec file (`"format": "exactdp/1"`, spec/mechanisms/README.md): the inverse
/// of io/spec_file.hpp for finite mechanisms. `parse_spec(write_spec(g), …)` is a game with the
/// same states, messages, answers, kernels, relation and initial laws, so every engine result is
/// identical (tests/game/authoring_test.cpp checks it).
///
/// The file lists every reachable state under `states` (halted states as `{}`), every message of
/// the alphabet under `messages` and in every rule (a state whose rules are the same for every
/// message uses the key `"*"`), so it is valid under the strict loading rules (every `next` state
/// listed, no missing rule). Probabilities are written as exact strings `"p/q"`.
#pragma once

#include "exactdp/game/authoring.hpp"
#include "exactdp/game/game.hpp"

#include <cstddef>
#include <string>

namespace exactdp {

/// Options of write_spec.
struct SpecWriteOptions {
  /// Most states write_spec(const Game&) explores before it refuses (exactdp::Error).
  std::size_t max_states = limits::max_states;
  /// JSON indentation (spaces per level); 0 writes one line.
  int indent = 1;
};

/// Writes an explored Mechanism with its own state names and neighbouring relation. A mechanism
/// explored with ExploreOptions::up_to_horizon whose state space is not closed is written with
/// its unexpanded states halted (`{}`), a `"comment"` saying that the file is exact only up to
/// the horizon, and `"max_horizon"` set to that horizon, so that the loader and the engine refuse
/// an analysis at a larger horizon (Game::max_horizon).
std::string write_spec(const Mechanism& mechanism, const SpecWriteOptions& options = {});

/// Writes any game whose mechanism has finitely many reachable states: the states reachable from
/// both initial laws over the whole alphabet (named by the mechanism's state_name when those names
/// are distinct, "s0", "s1", … otherwise), and the relation as static neighbours (a
/// StaticVerifier, with the game's world names) or as an explicit automaton (any other verifier,
/// explored from its initial state). Throws exactdp::Error beyond options.max_states states, on a
/// message named `"*"`, and for a non-static game whose two worlds start from different laws (the
/// format has one shared initial law then).
std::string write_spec(const Game& game, const SpecWriteOptions& options = {});

}  // namespace exactdp
