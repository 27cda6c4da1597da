/// @file
/// The enumeration of the two hockey-stick divergences of an oriented pair, on its own so that the
/// privacy-loss distribution (privacy_loss.hpp) can take it without including the functions of
/// direction.hpp, which are written over that distribution. Its meaning, the parser and the
/// identities are in direction.hpp.
#pragma once

namespace exactdp {

/// Which hockey-stick divergence of an oriented pair (P, Q) a question concerns (direction.hpp).
enum class NeighbourDirection {
  both,    ///< max(H_λ(P‖Q), H_λ(Q‖P)): add-or-remove-one (the default)
  remove,  ///< H_λ(P‖Q): the record present against absent
  add      ///< H_λ(Q‖P): the record absent against present
};

}  // namespace exactdp
