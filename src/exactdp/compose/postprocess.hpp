/// @file
/// Interactive post-processing P∘*M of a mechanism by a finite post-processor (THEOREMS.md A.5;
/// HSV D2.14–D2.15, Algorithm 1; HSTVVXZ23 D2.15–D2.16, Algorithm 7).
///
/// The post-processor P is a randomised state machine with two ports: it reads a message from the
/// left (the adversary) or from the right (the mechanism) and emits one message to the left or to
/// the right. On a left message, P may talk to M as often as it likes before it answers left;
/// P never sees M's state or the data. The result is an ordinary mechanism (state = (P's state,
/// M's state)), so the engine analyses it unchanged; by the post-processing lemma (HSV L2.16,
/// HSTVVXZ23 T2.17) its worst case never exceeds M's.
#pragma once

#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/composite.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace exactdp {

// Port (left faces the adversary, right the mechanism) is shared with the deterministic
// composites of mechanism/composite.hpp.

/// One outcome of a post-processor step: with probability `probability`, move to `next` and emit
/// `message` on port `to`.
struct PostProcessorOutcome {
  Rational probability;
  std::string next;
  Port to = Port::left;
  std::string message;
};

/// A finite post-processor (HSV D2.14): states named by strings, a single initial state, and a
/// step function (state, port the message came from, message) ↦ distribution over outcomes.
struct PostProcessor {
  std::string name;
  std::string initial;                 ///< P's initial state
  std::vector<std::string> left_messages;  ///< the adversary's message alphabet of P∘*M
  std::function<std::vector<PostProcessorOutcome>(const std::string& state, Port from, const std::string& message)> step;
  /// Most messages P may send to M while answering one left message; more is reported as
  /// non-termination (exactdp::Error), as A.5 asks.
  unsigned max_inner_steps = 64;
};

/// P∘*M as a mechanism over (P state, M state) (HSV Algorithm 1): a left message m is given to P;
/// while P emits to the right, M answers and P reads the answer from the right; the first message
/// P emits to the left is the answer. Every step is validated (probabilities ≥ 0 summing to 1;
/// messages P sends right belong to M's alphabet) with exactdp::Error naming P, the state and the
/// message.
/// @param processor  P  @param mechanism  M (kept alive)
std::shared_ptr<InteractiveMechanism> postprocess_mechanism(PostProcessor processor, std::shared_ptr<const InteractiveMechanism> mechanism);

/// The game P∘*M for a game with static neighbours (the worlds differ in M's initial law): world
/// b starts in (P.initial, M's world-b law), and every message of P's left alphabet may be sent
/// (identically). Throws exactdp::Error if @p game's verifier is not static (then P's paired inputs
/// would need HSV §6's f → f′ conditions, which this function does not check).
/// @param game  a valid static game  @param processor  P
Game postprocess(const Game& game, PostProcessor processor);

/// A post-processor given as a table: `rules[state][port][message]` lists the outcomes; the key
/// `"*"` matches any message of that port. Missing entries are an error at the step that needs
/// them. A convenience for tests and spec files.
struct PostProcessorTable {
  std::string name;
  std::string initial;
  std::vector<std::string> left_messages;
  /// state → ("L" or "R") → message (or "*") → outcomes
  std::map<std::string, std::map<std::string, std::map<std::string, std::vector<PostProcessorOutcome>>>> rules;
  unsigned max_inner_steps = 64;
};
/// The PostProcessor of a table. @param table  the rules (see PostProcessorTable)
PostProcessor post_processor_from_table(PostProcessorTable table);

}  // namespace exactdp
