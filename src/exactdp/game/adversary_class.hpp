/// @file
/// The classes of adversaries a worst case can be taken over (THEOREMS.md A.4 taxonomy, A.8).
///
/// The name lives in the game layer, beside the engine that takes the worst case, so that the
/// layers above it (compose/, accounting/, io/) share one vocabulary; compose/concurrent.hpp
/// implements the sequential class as a verifier (exactdp::sequential_adversaries()).
#pragma once

#include <string>

namespace exactdp {

/// The class of adversaries a worst case is taken over (THEOREMS.md A.4 taxonomy, A.8).
enum class AdversaryClass {
  adaptive,    ///< every adaptive adversary (the default; the engine's worst case)
  oblivious,   ///< the message-pair sequence is fixed before the interaction
  sequential,  ///< for compositions: once the adversary leaves a component it never returns
};

/// "adaptive", "oblivious" or "sequential".
std::string to_string(AdversaryClass c);
/// Parses the names of to_string; throws exactdp::Error naming @p field and the value otherwise.
/// @param text   the name as given by the user
/// @param field  the option or JSON path to name in errors
AdversaryClass parse_adversary_class(const std::string& text, const std::string& field);

}  // namespace exactdp
