/// @file
/// Worst cases over **oblivious** adversaries (internal to game/; THEOREMS.md A.4 taxonomy): the
/// message-pair sequence is fixed in advance and the view is the whole answer history. For each of
/// the |pairs|^T sequences allowed by the verifier, the pair of view distributions is computed by
/// forward propagation of beliefs, merging histories with proportional belief pairs (their
/// likelihood ratios and futures agree, a sufficient-statistic merge).
#pragma once

#include "exactdp/game/engine.hpp"

namespace exactdp::engine_detail {

/// Both directional profiles, the maximum over the sequences (always ≤ the adaptive profile).
ProfileResult oblivious_profile(const Game& game, const EngineOptions& options);
/// sup over the sequences of Φ_α in both directions, integer α ≥ 2, exact.
DirectionalResult oblivious_renyi_moment(const Game& game, unsigned long alpha, const EngineOptions& options);
/// The pure-DP ratio over the sequences; equals the adaptive one (every adaptive view is reached by
/// the oblivious adversary that sends its pair sequence), an independent check of the engine.
DirectionalResult oblivious_ratio(const Game& game, const EngineOptions& options);

}  // namespace exactdp::engine_detail
