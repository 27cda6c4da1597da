/// @file
/// Rényi DP and zCDP: conversions to (ε, δ)-DP and from pure DP (THEOREMS.md B.11,
/// BG-RDP-CONV). All results are certified intervals.
///
/// Orders α are exact rationals > 1; an RDP level ε_α or a zCDP level ρ is a certified Interval
/// (an exact rational q is passed as Interval(q)). A returned ε encloses the closed-form value, so its
/// upper end is a sound privacy parameter; a returned δ encloses the closed-form value, so its upper
/// end is a sound δ. (RDP composition is plain addition at a fixed α: (α, Σε_i).)
#pragma once

#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <span>

namespace exactdp {

/// An (α, ε_α)-RDP guarantee: D_α ≤ ε_α in both directions, α an exact rational > 1.
struct RdpGuarantee {
  Rational alpha;
  Interval epsilon;
};

/// A conversion optimised over the Rényi order: the order used and the certified value there.
struct OrderedConversion {
  Rational alpha;
  Interval value;
};

/// How the order α is searched when a conversion is an infimum over α > 1.
///
/// The search is a heuristic (geometric scan of α − 1 over powers of two, then ternary search on
/// a dyadic grid); it only decides *which* α is used. Soundness never depends on it: the value at
/// any single α is a valid bound, and it is evaluated with certified arithmetic.
struct OrderSearchOptions {
  /// Working precision of the certified evaluations.
  Precision precision = default_precision;
  /// α − 1 ranges over [2^min_log2, 2^max_log2] in the scan.
  long min_log2 = -30;
  long max_log2 = 32;
  /// Ternary-search steps after the scan.
  int refine_steps = 80;
};

/// RDP → DP (Mironov): an (α, ε_α)-RDP mechanism is (ε_α + ln(1/δ)/(α − 1), δ)-DP.
///
/// Preconditions: α > 1, ε_α ≥ 0 (every point), δ ∈ (0, 1] (exactdp::Error naming the parameter).
/// Guarantee: encloses the ε of the formula (upper end sound). Source: M17 Prop 3 (THEOREMS.md
/// B.11).
Interval rdp_to_dp_epsilon_mironov(const Rational& alpha, const Interval& rdp_epsilon, const Rational& delta);

/// RDP → DP, improved: an (α, ε_α)-RDP mechanism is (ε, δ)-DP with
/// ε = max{0, ε_α + ln(1 − 1/α) − (ln δ + ln α)/(α − 1)}. (Clamping at 0 is sound: δ(ε) is
/// non-increasing.) Never worse than Mironov's form.
///
/// Preconditions: α > 1, ε_α ≥ 0, δ ∈ (0, 1]. Guarantee: encloses that ε (upper end sound).
/// Source: CKS20 Prop 12 = Balle et al. 2020 Thm 21 (THEOREMS.md B.11).
Interval rdp_to_dp_epsilon(const Rational& alpha, const Interval& rdp_epsilon, const Rational& delta);

/// RDP → DP, improved, δ form: an (α, ε_α)-RDP mechanism is (ε, δ)-DP for every ε with
/// δ = min{1, e^{(α−1)(ε_α − ε)}·(1 − 1/α)^{α−1}/α}.
///
/// Preconditions: α > 1, ε_α ≥ 0, ε ≥ 0. Guarantee: encloses that δ (upper end sound).
/// Source: CKS20 Prop 12 (THEOREMS.md B.11).
Interval rdp_to_dp_delta(const Rational& alpha, const Interval& rdp_epsilon, const Interval& epsilon);

/// The best improved conversion over a list of RDP guarantees (an RDP curve on a grid of orders):
/// the minimum over the list of rdp_to_dp_epsilon(). Preconditions: non-empty list, each entry
/// as for rdp_to_dp_epsilon(). Guarantee: the returned value encloses the ε of the returned α
/// (upper end sound). Source: CKS20 Prop 12.
OrderedConversion best_rdp_to_dp_epsilon(std::span<const RdpGuarantee> curve, const Rational& delta);

/// zCDP → DP (Bun–Steinke): a ρ-zCDP mechanism is (ρ + 2√(ρ·ln(1/δ)), δ)-DP.
///
/// Preconditions: ρ ≥ 0, δ ∈ (0, 1]. Guarantee: encloses that ε (upper end sound).
/// Source: BS16 Prop 1.3 (THEOREMS.md B.11).
Interval zcdp_to_dp_epsilon_bun_steinke(const Interval& rho, const Rational& delta);

/// zCDP → DP, δ form: δ(ε) = inf_{α>1} e^{(α−1)(αρ − ε)}·(1 − 1/α)^α/(α − 1).
///
/// The infimum is taken over a finite set of rational orders (OrderSearchOptions), so the result is
/// the certified value at the best order found: its upper end is a sound upper bound on the
/// conversion's δ(ε) (the value at any α is ≥ the infimum), not an enclosure of the infimum itself.
/// Preconditions: ρ ≥ 0, ε ≥ 0. Source: CKS20 Cor 13 (THEOREMS.md B.11).
OrderedConversion zcdp_to_dp_delta(const Interval& rho, const Interval& epsilon, const OrderSearchOptions& options = {});

/// zCDP → DP, ε form: the least ε with CKS20 Cor 13's δ(ε) ≤ δ, up to the order search. For a
/// fixed α the condition δ_α(ε) ≤ δ solves in closed form to the improved RDP conversion with
/// ε_α = αρ, so the result is rdp_to_dp_epsilon(α, αρ, δ) at the best order found: its upper end is
/// an ε certified to achieve δ (an upper bound on the exact infimum over α).
/// Preconditions: ρ ≥ 0, δ ∈ (0, 1]. Source: CKS20 Cor 13 / Prop 12 (THEOREMS.md B.11).
OrderedConversion zcdp_to_dp_epsilon(const Interval& rho, const Rational& delta, const OrderSearchOptions& options = {});

/// Pure DP → zCDP: an ε-DP mechanism is ε²/2-zCDP.
/// Preconditions: ε ≥ 0. Guarantee: encloses ε²/2. Source: BS16 Prop 1.4 (THEOREMS.md B.11).
Interval pure_dp_to_zcdp(const Interval& epsilon);

}  // namespace exactdp
