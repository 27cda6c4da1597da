/// @file
/// Directions of a neighbouring pair, and δ(ε) at negative ε (λ = e^ε < 1) (THEOREMS.md A.1).
///
/// exactdp orients every pair it analyses as (P, Q) = (law with the record, law without it): the
/// spec's pair M(c + Δ) against M(c), a pair file's "P" against its "Q", the Poisson-subsampled
/// pair (q·P + (1−q)·Q, Q) of amplification/poisson.hpp. Products keep the orientation, so a
/// composition's pair is oriented the same way. The two hockey-stick divergences are then
///
/// | direction | divergence | neighbouring datasets | dp-accounting 0.6.0 |
/// |---|---|---|---|
/// | `remove` | H_λ(P‖Q) | D against D′ = D ∖ {x} | the "remove" PMF of a PrivacyLossDistribution (`pmf_remove`) |
/// | `add` | H_λ(Q‖P) | D′ against D = D′ ∪ {x} | the "add" PMF (`pmf_add`) |
/// | `both` | max of the two | add-or-remove-one | `get_delta_for_epsilon` of a PLD with both PMFs (ADD_OR_REMOVE_ONE) |
///
/// `both` is the default everywhere and is the profile exactdp reported before directions existed.
/// Replace-one neighbouring is not a third direction: for an unsampled mechanism it is the spec's
/// own pair with the replace-one sensitivity (every spec family's pair is symmetric, so all three
/// values coincide), and under Poisson subsampling it is refused (amplification/poisson.hpp says why).
///
/// **Negative ε.** For every λ > 0, (p − λq)⁺ = p − λq + λ(q − p/λ)⁺, and summing over outcomes
///
///     H_λ(P‖Q) = 1 − λ + λ·H_{1/λ}(Q‖P),
///
/// so δ at ε < 0 in one direction is fixed by δ at −ε in the other, and δ_both(ε) = 1 − e^ε +
/// e^ε·δ_both(−ε). In particular δ(ε) ≥ 1 − e^ε for ε < 0: no pair is (ε, δ)-DP with ε < 0 and
/// δ < 1 − e^ε, and identical laws attain the bound.
#pragma once

#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/neighbour_direction.hpp"
#include "exactdp/divergence/piecewise_linear.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <string>
#include <string_view>

namespace exactdp {

// NeighbourDirection (both, remove, add) is declared in neighbour_direction.hpp; its meaning: file comment.

/// "both", "remove", "add".
std::string to_string(NeighbourDirection direction);

/// Reads "both", "remove" or "add". Anything else (including "replace", which is named in the
/// message with where it is defined) is exactdp::Error(@p where, "direction", text, why).
NeighbourDirection parse_direction(std::string_view text, const std::string& where);

/// remove ↔ add; both stays both. H_λ in direction d of (P, Q) is H_λ in reversed(d) of (Q, P).
NeighbourDirection reversed(NeighbourDirection direction);

/// The curve λ ↦ δ_d(λ) on [0, ∞) of an exact profile: forward (remove), backward (add) or their
/// maximum (both), exact.
PiecewiseLinear directional_curve(const PrivacyProfile& profile, NeighbourDirection direction);

/// δ_d(λ) of an exact profile at an exact λ ≥ 0 (any λ: the curves cover [0, ∞)).
Rational delta(const PrivacyProfile& profile, const Rational& lambda, NeighbourDirection direction);

/// δ_d at every λ in the enclosure @p lambda ⊆ [0, ∞), certified (δ_d is non-increasing).
Interval delta(const PrivacyProfile& profile, const Interval& lambda, NeighbourDirection direction);

/// The least λ ≥ 1 with δ_d(λ) ≤ @p delta: exact, or +∞. Precondition: 0 ≤ δ ≤ 1.
ExtendedRational least_lambda(const PrivacyProfile& profile, const Rational& delta, NeighbourDirection direction);

/// H_λ(P‖Q) at λ < 1 from the reversed direction at 1/λ: 1 − λ·(1 − H_{1/λ}(Q‖P)) (file
/// comment), certified for every λ in @p lambda given an enclosure @p reversed_at_inverse of the
/// reversed divergence over 1/λ. The result is clipped to [0, 1].
Interval delta_from_reversed(const Interval& lambda, const Interval& reversed_at_inverse);

/// δ_d(ε) for every ε in a finite enclosure of any sign, from @p at_nonnegative(e, d′), which must
/// enclose δ_{d′} over an enclosure e ⊆ [0, ∞): the part of @p epsilon at or above 0 is asked
/// directly, the part below 0 through delta_from_reversed with the reversed direction at −ε, and
/// the two are joined by their hull. Throws exactdp::Error (field "epsilon") for an infinite end.
Interval delta_at_any_epsilon(const Interval& epsilon, NeighbourDirection direction,
                              const std::function<Interval(const Interval&, NeighbourDirection)>& at_nonnegative);

}  // namespace exactdp
