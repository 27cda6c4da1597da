/// @file
/// Replace-one neighbouring, decided once for every front end (`compose --direction replace`,
/// `calibrate --direction replace`, Python's `direction="replace"`).
///
/// Add/remove neighbours differ by one record present or absent; replace-one neighbours by one
/// record swapped for another. exactdp's pairs are add/remove pairs (divergence/direction.hpp),
/// and replace-one is not a third divergence of such a pair but a different pair. Where one pair
/// is the mechanism's replace-one pair, it is a library mechanism again, so every route, bound and
/// direction of the add/remove machinery answers it unchanged:
///
/// | mechanism | replace-one pair | why |
/// |---|---|---|
/// | additive noise `gauss`, `laplace`, `dgauss` (truncated or not), `dlaplace`, sensitivity S | the same noise at sensitivity 2S | the replaced record moves the query by at most 2S (from −S to +S about the rest); the noise is translation invariant, so M(x + S) against M(x − S) is M(x + 2S) against M(x) (dp-accounting's `AdjacencyType.REPLACE`) |
/// | `rr`, `krr` | the spec's own pair | randomized response compares the answers to two values of one record (RR_{ε,δ}, k-ary RR R(x) against R(x′)): it is already a replace-one pair |
/// | degenerate specs | the degenerate pair again | sensitivity 0 doubles to 0 (identical laws), no noise stays disjoint, krr with k = 1 stays identical |
///
/// A symmetric pair has one value in every direction, so a replace-one question is asked in the
/// direction `both`.
///
/// **Refused** (exactdp::Error, field "direction", value "replace"), each with its reason:
///  - Poisson subsampling at a rate q ∈ (0, 1): the replaced record and its replacement share one
///    sampling coin, the pair is ((1 − q)R + qP, (1 − q)R + qQ) with R the law without the record,
///    and the worst case depends on where R lies between P and Q, so no one pair is the
///    mechanism's (amplification/poisson.hpp). At q = 0 the record is never sampled and both laws
///    are identical under every neighbouring relation: that pair is answered.
///  - a pair of distributions (a `--pair` file, a PrivacyLoss): it is one neighbouring pair, not a
///    mechanism, so its replace-one pair is not determined by it.
///  - a Gaussian mixture of sensitivities (`--sampling mixture:…`): the mixture describes where one
///    record's contribution lies under add/remove; replacing the record is not that mixture doubled.
///
/// dp-accounting's third relation, REPLACE_SPECIAL (a record replaced by a special record ⊥ whose
/// randomized-response answer is uniform), is not offered here: for additive noise it is add/remove
/// (⊥ contributes 0), and for randomized response it is the exact pair R(x) against the uniform
/// law, which a pair file states directly (docs/acceptance.md).
#pragma once

#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/divergence/neighbour_direction.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace exactdp {

/// The neighbouring question a front end asks: one divergence of the add/remove pair, or the
/// replace-one pair (whose divergences coincide: asked in `both`). Not game/neighbour_relation.hpp's
/// NeighbourRelation (which worlds of a game are neighbours): one name for two types in one namespace
/// broke the one-definition rule, and the sanitized build crashed in code of the other type.
struct NeighbourChoice {
  NeighbourDirection direction = NeighbourDirection::both;  ///< the divergence asked (both when replace_one)
  bool replace_one = false;                                 ///< the pair is the replace-one pair
  friend bool operator==(const NeighbourChoice&, const NeighbourChoice&) = default;
};

/// Reads "both", "remove", "add" or "replace". Anything else is exactdp::Error(@p where,
/// "direction", text, why).
NeighbourChoice parse_neighbour_relation(std::string_view text, const std::string& where);

/// "both", "remove", "add" or "replace".
std::string to_string(const NeighbourChoice& relation);

/// The spec whose add/remove pair is @p spec's replace-one pair (table in the file comment): the
/// additive-noise families at twice the sensitivity (a discrete Laplace given by `epsilon`, which
/// requires sensitivity 1, becomes `a=epsilon,sensitivity=2`: the same r = e^(−epsilon)), rr and
/// krr unchanged. Throws exactdp::Error (field "sensitivity") when the doubled sensitivity of a
/// discrete mechanism exceeds max_table_outcomes.
MechanismSpec replace_one(const MechanismSpec& spec);

/// The replace-one component of @p component (as written: not yet Poisson-subsampled) when it is
/// used with Poisson subsampling at @p sampling_rate (absent or 1: none): a spec component with
/// replace_one(spec) and the same number of uses; at rate 0 the identical pair. Otherwise (a rate
/// in (0, 1), a pair, a sensitivity mixture, a component already subsampled) exactdp::Error(@p
/// where, "direction", "replace", the reason of the file comment naming @p where).
CompositionComponent replace_one(const CompositionComponent& component, const std::optional<Rational>& sampling_rate,
                                 const std::string& where);

/// The reason replace-one under Poisson subsampling is refused, one sentence (file comment).
std::string replace_one_subsampling_reason();

}  // namespace exactdp
