/// @file
/// Compositions in which the adversary *creates* mechanisms from a finite menu during the
/// interaction: the extended concurrent composition (HSV D4.1–D4.5), k-sparse parallel
/// composition (HSV D5.1, D5.13), filters with adaptively chosen parameters (HSTVVXZ23 D2.7,
/// Alg 3; HSV D12.2) and odometers seen through the truncated view (HSTVVXZ23 D2.13, A.9).
///
/// All of them are built as one ordinary Game: a mechanism whose state is the world (which of the
/// two neighbouring datasets it holds) together with the list of created instances, and a verifier
/// that offers the creation queries and, per instance, the pairs allowed by that instance's own
/// neighbouring relation. Messages:
///  * `"create:<name>"` — create an instance of the menu entry `<name>` (answered `"created"`);
///    creations beyond `max_instances` are answered `"invalid"` (a data-independent refusal); a
///    launch a filter's rule refuses halts the composition (`"halt"`), or is answered `"refused"`
///    with LaunchOptions::refuse_and_continue;
///  * `"i:m"` — message m to the i-th created instance (i from 0); `"invalid"` if there is no
///    such instance or it does not accept m;
///  * `"privacy_loss"` (odometers only) — answered with the accumulator's report, no state change.
///
/// The world is part of the state only so that a created instance starts from that world's
/// initial law (the dataset); the decision to create, continue or halt never looks at it.
#pragma once

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/rational.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace exactdp {

/// The privacy parameters a launched mechanism is asserted to satisfy (the d of HSTVVXZ23, the
/// (ε, δ) of an HSV creation query): λ = e^ε exact, δ, and optionally its Rényi moment
/// e^{(α−1)ε_α} at one integer order α (moment form, THEOREMS.md A.8 last paragraph).
struct LaunchParameters {
  Rational lambda = 1;                 ///< e^ε ≥ 1
  Rational delta = 0;                  ///< δ ∈ [0, 1]
  std::optional<Rational> renyi_moment;  ///< sup Φ_α ≥ 1 at the composition's α, if asserted
  friend bool operator==(const LaunchParameters&, const LaunchParameters&) = default;
};

/// One entry of the menu: a mechanism with its neighbouring relation and the two worlds' initial
/// laws (a Game; its horizon is ignored), and its asserted parameters. The engine never trusts the
/// parameters when it computes a worst case: they only drive the rules and sparsity conditions.
struct MenuEntry {
  std::string name;  ///< used in `"create:<name>"`; non-empty, no two entries alike
  Game game;
  LaunchParameters parameters;
};

/// A continuation rule ℱ (HSTVVXZ23 D1.10): given the parameters of the mechanisms launched so
/// far and the proposed one, continue (true) or halt (false). It sees parameters only, never the
/// data (A.9).
using ContinuationRule = std::function<bool(const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed)>;

/// Basic pure filter (HSTVVXZ23 Cor 3.5 with δ = 0): Π λ_j ≤ λ_budget, i.e. Σ ε_j ≤ ε, kept as a
/// product of λ's so the test is exact. @param lambda_budget  e^ε of the budget (≥ 1)
ContinuationRule basic_pure_rule(Rational lambda_budget);
/// Basic approximate filter: Π λ_j ≤ λ_budget and Σ δ_j ≤ δ_budget.
/// @param lambda_budget  e^ε of the budget  @param delta_budget  δ of the budget
ContinuationRule basic_approximate_rule(Rational lambda_budget, Rational delta_budget);
/// The product-δ rule (HSV D5.3, D5.8): Π λ_j ≤ λ_budget and 1 − Π(1 − δ_j) ≤ δ′.
/// @param lambda_budget  e^ε of the budget  @param delta_budget  δ′
ContinuationRule product_delta_rule(Rational lambda_budget, Rational delta_budget);
/// The Rényi filter at an integer α in moment form (HSTVVXZ23 T4.6; THEOREMS.md A.8): Π m_j ≤ B
/// with m_j the launched mechanisms' asserted moments and B = e^{(α−1)ε}. A launch without an
/// asserted moment is refused. @param moment_budget  B ≥ 1
ContinuationRule renyi_moment_rule(Rational moment_budget);
/// The filter of Whitehouse, Ramdas, Rogers and Wu as stated in HSTVVXZ23 T3.7 (appendix form):
/// continue iff √(2 ln(1/δ′)·S₂) + S₂/2 ≤ ε and δ′ + Σ δ_j ≤ δ, with S₂ = Σ ε_j² over the launched
/// and proposed mechanisms and ε_j = ln λ_j. Decided with certified intervals (B.15); an undecided
/// comparison at the precision cap halts (the conservative answer) — never a guess.
/// @param epsilon  the budget ε (rational, > 0)  @param delta  the budget δ
/// @param delta_prime  δ′ ∈ (0, δ]  @param options  precision escalation limits
ContinuationRule whitehouse_rule(Rational epsilon, Rational delta, Rational delta_prime, DecideOptions options = {});

/// The options shared by the launch compositions.
struct LaunchOptions {
  /// At most this many instances (the bounded rule ℱ_K); also bounds the game's state space.
  std::size_t max_instances = 2;
  /// The rounds the adversary plays (creations count as rounds).
  unsigned horizon = 4;
  /// The game's name (default: built from the menu).
  std::string name;
  /// What a filter does when its rule refuses a launch (THEOREMS.md A.9 "halting variants",
  /// X-FILTER-HALT): false (HSTVVXZ23 Alg 3) halts the composition permanently; true answers
  /// `"refused"` — a data-independent answer — keeps the state and lets the adversary go on.
  /// Only filter_composition reads it (an odometer's truncated view always ends).
  bool refuse_and_continue = false;
};

/// ExtConComp restricted to a finite menu (HSV D4.1–D4.5): the adversary creates instances from
/// the menu and talks to them in any interleaving; each instance i obeys its menu entry's
/// neighbouring relation f_i on the pairs sent to it (the "suitable sequence" condition).
/// Throws exactdp::Error (naming the entry) on an empty menu, a duplicate or empty name, an
/// invalid entry game, or max_instances = 0.
/// @param menu  the mechanisms that may be created  @param options  limits
Game extended_concurrent(std::vector<MenuEntry> menu, const LaunchOptions& options);

/// Concurrent k-sparse parallel composition (HSV D5.1 f_∞^{ε₁,δ₁,…,ε_k,δ_k}): as
/// extended_concurrent, and in addition the instances that ever receive a non-identical pair
/// (the set J) must have parameters forming a sub-multiset of @p sparse_budget (so ∣J∣ ≤ k). With
/// @p first_pair_consistent (HSV D5.12–D5.13) an instance whose first pair was identical never
/// receives a non-identical pair later.
/// @param menu  the mechanisms that may be created  @param sparse_budget  the multiset {(ε_i, δ_i)}
/// @param first_pair_consistent  enforce FPC on every instance  @param options  limits
Game parallel_composition(std::vector<MenuEntry> menu, std::vector<LaunchParameters> sparse_budget,
                          bool first_pair_consistent, const LaunchOptions& options);

/// Approximate parallel composition with a product budget (HSV D5.3 f_{∞,δ′}^{ε₁,…,ε_k}): as
/// parallel_composition, except that (1) the sparsity condition compares privacy parameters λ only
/// — the λ's of the instances that ever receive a non-identical pair (the set J) must form a
/// sub-multiset of @p sparse_lambdas, whatever their δ's — and (2) a creation is accepted only while
/// 1 − Π_j(1 − δ_j) ≤ @p delta_budget over *all* created instances, exceptional or not (HSV D5.3;
/// THEOREMS.md A.8 last paragraph); a refused creation halts the composition (answer `"halt"`,
/// data-independent, as a verifier V[f] halts on an invalid sequence). Used by the check of HSV
/// Thm 5.4 (THEOREMS.md C.5.3). Throws exactdp::Error as parallel_composition, and if @p delta_budget
/// lies outside [0, 1] or a λ of @p sparse_lambdas is below 1.
/// @param menu  the mechanisms that may be created  @param sparse_lambdas  the multiset {e^{ε_i}}
/// @param delta_budget  δ′  @param options  limits
Game approximate_parallel_composition(std::vector<MenuEntry> menu, std::vector<Rational> sparse_lambdas, Rational delta_budget,
                                      const LaunchOptions& options);

/// ℱ-FiltCon (HSTVVXZ23 D2.7, Alg 3): a creation request is accepted iff @p rule continues on the
/// parameters of the instances launched so far and the proposed entry's parameters; otherwise the
/// composition halts permanently (answer `"halt"`, data-independent). The budget is paid once,
/// at launch; launched instances are queried in any interleaving.
/// @param menu  the mechanisms that may be launched  @param rule  the continuation rule
/// @param options  limits
Game filter_composition(std::vector<MenuEntry> menu, ContinuationRule rule, const LaunchOptions& options);

/// An accumulator 𝒢 (HSTVVXZ23 D1.12) with a threshold test: `report` renders 𝒢(d₁..d_k) for the
/// `privacy_loss` query; `within` decides 𝒢(d₁..d_k) ⪯ d for the fixed threshold d.
struct Accumulator {
  std::function<std::string(const std::vector<LaunchParameters>&)> report;
  std::function<bool(const std::vector<LaunchParameters>&)> within;
};
/// The pure accumulator 𝒢 = Π λ_j (reported as "lambda=<Πλ_j>") with threshold λ_d: within iff
/// Π λ_j ≤ λ_d. @param lambda_threshold  e^ε of the threshold d
Accumulator product_lambda_accumulator(Rational lambda_threshold);

/// The truncated view Trunc_d of 𝒢-OdomCon (HSTVVXZ23 D2.13 with the normalised D1.13 of A.9):
/// launches are always accepted and `privacy_loss` answers 𝒢 of the launched parameters; the view
/// ends (the mechanism halts, answering `"halt"`) at the first launch request (M′, d′) with
/// 𝒢(d₁,…,d_k,d′) ⋠ d, excluding its answer. If 𝒢 of the empty list is already ⋠ d, every
/// message is answered `"halt"` (the empty truncated view).
/// @param menu  the mechanisms that may be launched  @param accumulator  𝒢 and the threshold test
/// @param options  limits
Game odometer_truncated(std::vector<MenuEntry> menu, Accumulator accumulator, const LaunchOptions& options);

}  // namespace exactdp
