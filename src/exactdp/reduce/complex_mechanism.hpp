/// @file
/// A checker of the conditions of HSV §6 on a composite mechanism P∘*ExtConComp with a
/// deterministic interactive post-processor P (THEOREMS.md A.10, B.17; HSV Def 6.2, Thm 6.1,
/// catalogue entry HSV-T6.1): destination, response and f → f′, on every input up to a horizon.
/// The checker's input, CompositeInstance, is declared with the rest of the composite vocabulary in
/// mechanism/composite.hpp, so that the mechanism library can describe its composites without
/// depending on this layer (docs/architecture.md).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/composite.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

/// A violated condition and how to reach it.
struct CompositeViolation {
  std::string condition;           ///< "destination", "response", "f -> f'" or "taint" (HSV D6.5)
  std::vector<std::string> trace;  ///< the inputs, e.g. "left (0, 1)", "right 1", then the failing step
  std::string detail;              ///< the two copies' reactions at the failing step
};

/// The checker's verdict.
struct CompositeCheck {
  bool holds = false;
  std::optional<CompositeViolation> violation;  ///< a violation reached with the fewest inputs (breadth-first)
  std::uint64_t steps_checked = 0;              ///< paired steps of P₀, P₁ examined
  std::uint64_t configurations = 0;             ///< distinct configurations explored
};

/// Runs the two copies P₀, P₁ of HSV Def 6.2 (P²) on every f-valid sequence of left message pairs
/// interleaved with every common sequence of right answers, up to @p instance.horizon received
/// messages, and checks at every step (THEOREMS.md A.10, B.17):
/// * destination — both copies send through the same port;
/// * response — when they send left, they send the same message;
/// * f → f′ — the pairs (m₀, m₁) they send right form an f′-valid sequence.
/// P starts by waiting for a left message; after sending left it waits for the next left message,
/// after sending right for the sub-mechanism's answer (any of answers_to(m₀), or of right_answers).
/// Configurations (both copies' states, both relations' states, the awaited port, the pending right
/// message and the depth) already explored are not explored again: what follows depends on nothing
/// else, so the verdict is that of the full exploration. When all three conditions hold on every
/// path, HSV Thm 6.1 transfers (ε,δ)-DP of ExtConComp w.r.t. f′ to P∘*ExtConComp w.r.t. f (scope:
/// this horizon and these alphabets). Throws exactdp::Error if the exploration exceeds max_paths
/// paired steps or a relation is missing.
CompositeCheck check_composite_conditions(const CompositeInstance& instance);

}  // namespace exactdp
