/// @file
/// A pair of finite distributions reduced to its likelihood ratios: the privacy-loss
/// distribution (PLD) of THEOREMS.md A.1, with both worlds' masses kept explicitly, written once
/// over the mass type (as divergence/functionals.hpp writes the divergences' terms):
///
/// | alias           | mass       | ratio                                   | for                                   |
/// |-----------------|------------|-----------------------------------------|---------------------------------------|
/// | `PrivacyLoss`   | `Rational` | `ExtendedRational` (0, p/q, +∞)         | exact pairs: every verdict            |
/// | `CertifiedLoss` | `Interval` | `SymbolicRatio` (0, c·e^s, +∞; exact)   | mechanisms given by ε (rr, krr, dlaplace) and their compositions |
///
/// The operations on the distribution — merging equal ratios, the reversed pair, composition,
/// k-fold self-composition by squaring, the hockey-stick divergence and δ(λ) — are defined once in
/// BasicPrivacyLoss; LossTraits<Mass> supplies what differs between the two: how ratios are
/// ordered (exactly for rationals; by decide_ratio_less() for c·e^s), the validation of the
/// constructors, and the fast k-th power of a loss whose ratios lie on a lattice (Kronecker
/// substitution over exact integers; certified_power over intervals).
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/dist/dist.hpp"
#include "exactdp/divergence/functionals.hpp"
#include "exactdp/divergence/neighbour_direction.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"
#include "exactdp/numeric/symbolic_ratio.hpp"

#include <algorithm>
#include <concepts>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

template <class Mass>
struct BasicLossAtom;
template <class Mass>
class BasicPrivacyLoss;

/// What a PLD needs of its mass type beyond arithmetic: the ratio type and the steps whose
/// algorithm depends on it (specialised below for Rational and Interval).
template <class Mass>
struct LossTraits;

/// The finite positive ratios of a loss as integer powers ρ^e of one rational base ρ > 1: ρ and
/// the exponents, one per atom of finite positive ratio in atom order (PrivacyLoss::lattice()).
struct LossLattice {
  Rational base;
  std::vector<long> exponent;
};

/// Exact masses: ratios are extended rationals, ordered exactly.
template <>
struct LossTraits<Rational> {
  using Ratio = ExtendedRational;
  using Atom = BasicLossAtom<Rational>;
  /// A strict weak order on ratios that identifies equal ones (here also the numeric order).
  using StorageLess = std::less<ExtendedRational>;
  static Ratio unit_ratio() { return ExtendedRational(1); }
  static Rational one(Precision) { return Rational(1); }
  static Precision precision_of(const std::vector<Atom>&) { return default_precision; }
  static bool non_negative(const Rational& x) { return sgn(x) >= 0; }
  static std::string text(const Rational& x) { return to_string(x); }
  static Rational at_most_one(Rational h) { return h; }  // exact: H_λ ≤ 1 already
  static bool undefined_product(const Ratio& a, const Ratio& b);
  static Ratio inverse(const Ratio& r);
  /// Sorts by numeric ratio (atoms merged by StorageLess, already in numeric order).
  static void sort_by_ratio(std::vector<Atom>&, const std::string&) {}
  /// The k-fold self-composition (k ≥ 2) when the ratios are integer powers of one base
  /// (PrivacyLoss::self_compose); std::nullopt otherwise.
  static std::optional<std::vector<Atom>> lattice_power(const std::vector<Atom>& atoms, unsigned long k);
  /// The atoms of the masses (P(y), Q(y)), unmerged; throws exactdp::Error (naming @p context, the
  /// index and the value) if a mass is negative or a column does not sum to exactly 1.
  static std::vector<Atom> atoms_of_masses(const std::vector<std::pair<Rational, Rational>>& masses,
                                           const std::string& context);
  static std::optional<LossLattice> lattice(const std::vector<Atom>& atoms);
  static std::size_t self_compose_size_bound(const std::vector<Atom>& atoms, unsigned long k);
};

/// Certified masses: ratios are c·e^s held exactly, ordered by decide_ratio_less().
template <>
struct LossTraits<Interval> {
  using Ratio = SymbolicRatio;
  using Atom = BasicLossAtom<Interval>;
  using StorageLess = SymbolicRatio::StorageLess;
  static Ratio unit_ratio() { return SymbolicRatio(); }
  static Interval one(Precision precision) { return Interval(1L, precision); }
  static Precision precision_of(const std::vector<Atom>& atoms);
  static bool non_negative(const Interval& x) { return x.lower_is_finite() && x.lower() >= 0; }
  static std::string text(const Interval& x) { return x.to_string(); }
  static Interval at_most_one(const Interval& h) { return min(h, Interval(1L, h.precision())); }
  static bool undefined_product(const Ratio& a, const Ratio& b) {
    return (a.is_zero() && b.is_infinite()) || (a.is_infinite() && b.is_zero());
  }
  static Ratio inverse(const Ratio& r) { return r.inverse(); }
  /// Sorts merged atoms by numeric ratio; throws exactdp::Error (naming @p context) if the order
  /// of two ratios stays undecided at the precision cap.
  static void sort_by_ratio(std::vector<Atom>& atoms, const std::string& context);
  /// See LossTraits<Rational>::lattice_power: ratios e^{e·g} for integers e and one rational g > 0.
  static std::optional<std::vector<Atom>> lattice_power(const std::vector<Atom>& atoms, unsigned long k);
  /// @p atoms without those of zero mass in both worlds; throws exactdp::Error (naming @p context
  /// and the atom) if a mass is certainly negative, the ratio-0 atom's P-mass or the ratio-∞
  /// atom's Q-mass is not exactly 0, a finite ratio has a zero mass, or a total excludes 1.
  static std::vector<Atom> validated(std::vector<Atom> atoms, const std::string& context);
};

/// All outcomes of a pair (P, Q) that share one likelihood ratio P(y)/Q(y), merged.
template <class Mass>
struct BasicLossAtom {
  typename LossTraits<Mass>::Ratio ratio;  ///< p/q; +∞ when q = 0; 0 when p = 0
  Mass p;                                  ///< total P-mass of the outcomes with this ratio
  Mass q;                                  ///< total Q-mass of the outcomes with this ratio
  friend bool operator==(const BasicLossAtom&, const BasicLossAtom&) = default;
};

/// The privacy-loss distribution of an ordered pair (P, Q) of finite distributions.
///
/// Merging outcomes of equal likelihood ratio loses nothing that any divergence can see (the
/// ratio is a sufficient statistic for the pair), so this is the canonical form on which every
/// functional of exactdp — hockey-stick, profile, trade-off, Rényi moments, max divergence — is
/// written once. It stores both worlds' masses, so the reverse pair (Q, P) is just swapped().
///
/// Invariants: atoms sorted by numeric ratio ascending, ratios distinct, p and q ≥ 0 with
/// p + q > 0 (exactly 0 on the ratio-0 atom's p and the ratio-∞ atom's q), ratio = p/q,
/// Σ p = Σ q = 1 (certified masses: the totals contain 1).
template <class Mass>
class BasicPrivacyLoss {
public:
  using Traits = LossTraits<Mass>;
  using Ratio = typename Traits::Ratio;
  using Atom = BasicLossAtom<Mass>;

  // ---- exact masses

  /// The loss of a pair (P, Q) given outcome by outcome as (P(y), Q(y)).
  /// Throws exactdp::Error (naming @p context, the index and the value) if a mass is negative or
  /// either column does not sum to exactly 1.
  static BasicPrivacyLoss from_masses(const std::vector<std::pair<Rational, Rational>>& masses,
                                      const std::string& context = "pair")
    requires std::same_as<Mass, Rational>
  {
    return normalised(Traits::atoms_of_masses(masses, context), context);
  }

  /// The loss of the pair (P, Q) of distributions over the same outcome type.
  template <class T>
  static BasicPrivacyLoss of(const Dist<T>& P, const Dist<T>& Q)
    requires std::same_as<Mass, Rational>
  {
    std::vector<std::pair<Rational, Rational>> m;
    for (const auto& [y, p] : P) m.emplace_back(p, Q.mass(y));
    for (const auto& [y, q] : Q)
      if (sgn(P.mass(y)) == 0) m.emplace_back(Rational(0), q);
    return from_masses(m);
  }

  /// An upper bound on the number of atoms of self_compose(k), computed without composing:
  /// (span of the exponents)·k + 3 for lattice losses, the number of multisets C(k+n−1, n−1)
  /// otherwise (saturating at SIZE_MAX). Used to estimate memory before any work starts.
  std::size_t self_compose_size_bound(unsigned long k) const
    requires std::same_as<Mass, Rational>
  {
    return Traits::self_compose_size_bound(atoms_, k);
  }

  /// When every finite positive ratio is an integer power ρ^e of one rational base ρ > 1
  /// (randomized response, the discrete Laplace mechanism and all their compositions): ρ and the
  /// exponents, one per atom of finite positive ratio in atom order. std::nullopt otherwise (or when
  /// the search for ρ gives up, which only costs the fast routes).
  using Lattice = LossLattice;
  std::optional<Lattice> lattice() const
    requires std::same_as<Mass, Rational>
  {
    return Traits::lattice(atoms_);
  }

  // ---- certified masses

  /// The same pair with its exact masses enclosed at @p precision (ratios kept exactly).
  static BasicPrivacyLoss from_exact(const BasicPrivacyLoss<Rational>& loss, Precision precision = default_precision)
    requires std::same_as<Mass, Interval>
  {
    std::vector<Atom> atoms;
    atoms.reserve(loss.size());
    for (const auto& a : loss.atoms())
      atoms.push_back({SymbolicRatio::of(a.ratio), Interval(a.p, precision), Interval(a.q, precision)});
    return BasicPrivacyLoss(std::move(atoms));  // already sorted by ratio, merged and validated
  }
  /// From atoms in any order; equal ratios are merged, then sorted. Throws exactdp::Error
  /// (naming @p context) if an invariant fails or a ratio comparison stays undecided at the
  /// precision cap.
  static BasicPrivacyLoss from_atoms(std::vector<Atom> atoms, const std::string& context = "pair")
    requires std::same_as<Mass, Interval>
  {
    return normalised(Traits::validated(std::move(atoms), context), context);
  }
  /// The largest precision of the masses.
  Precision precision() const
    requires std::same_as<Mass, Interval>
  {
    return Traits::precision_of(atoms_);
  }
  /// δ(e^ε) for every ε in the enclosure (ε ≥ 0), certified.
  Interval delta_at_epsilon(const Interval& epsilon) const
    requires std::same_as<Mass, Interval>
  {
    if (!epsilon.lower_is_finite() || epsilon.lower() < 0)
      throw Error("CertifiedLoss::delta_at_epsilon", "epsilon", epsilon.to_string(), "epsilon must be non-negative");
    return delta(exp(epsilon));
  }
  /// The least λ ≥ 1 with H_λ(P‖Q) ≤ @p delta for this direction (P, Q), certified by
  /// least_lambda_by_suffixes() (functionals.hpp): the point +∞ when the catastrophic mass
  /// P(Q = 0) exceeds δ, an interval with upper end +∞ when that cannot be told apart.
  Interval least_lambda_one_direction(const Rational& delta) const
    requires std::same_as<Mass, Interval>
  {
    const Precision prec = precision();
    auto it = atoms_.rbegin();
    Interval catastrophic = Interval::zero(prec);
    if (it != atoms_.rend() && it->ratio.is_infinite()) catastrophic = (it++)->p;  // P(Q = 0)
    return least_lambda_by_suffixes(catastrophic, delta, prec, [&](Interval& p, Interval& q) {
      if (it == atoms_.rend()) return false;
      p = it->p;
      q = it->q;
      ++it;
      return true;
    });
  }
  /// The least ε ≥ 0 with δ(e^ε) ≤ @p delta, certified: ln of the larger of both directions'
  /// least λ. Returns the point +∞ when no finite ε exists, and an interval with upper end +∞
  /// when that cannot be told apart at this precision (catastrophic mass ≈ δ).
  /// Precondition: 0 ≤ δ ≤ 1 (exactdp::Error naming "delta").
  Interval least_epsilon(const Rational& delta) const
    requires std::same_as<Mass, Interval>
  {
    if (sgn(delta) < 0 || delta > 1)
      throw Error("CertifiedLoss::least_epsilon", "delta", to_string(delta), "delta must lie in [0, 1]");
    const Interval forward = least_lambda_one_direction(delta), backward = swapped().least_lambda_one_direction(delta);
    if (!forward.lower_is_finite() || !backward.lower_is_finite()) return Interval::infinity(precision());
    const Interval lambda = max(forward, backward);
    if (lambda.upper_is_finite() && lambda.upper() == 1) return Interval::zero(lambda.precision());
    return log(lambda);
  }
  /// The same for one direction (direction.hpp): remove is H(P‖Q), add is H(Q‖P), both is
  /// least_epsilon(delta). Precondition: 0 ≤ δ ≤ 1 (exactdp::Error naming "delta").
  Interval least_epsilon(const Rational& delta, NeighbourDirection direction) const
    requires std::same_as<Mass, Interval>
  {
    if (direction == NeighbourDirection::both) return least_epsilon(delta);
    if (sgn(delta) < 0 || delta > 1)
      throw Error("CertifiedLoss::least_epsilon", "delta", to_string(delta), "delta must lie in [0, 1]");
    const Interval lambda = direction == NeighbourDirection::remove ? least_lambda_one_direction(delta)
                                                                    : swapped().least_lambda_one_direction(delta);
    if (!lambda.lower_is_finite()) return Interval::infinity(precision());
    if (lambda.upper_is_finite() && lambda.upper() == 1) return Interval::zero(lambda.precision());
    return log(lambda);
  }
  /// D_α(P‖Q) = ln(Σ_{P>0} P^α Q^{1−α})/(α − 1) for rational α > 1, certified; the point +∞ if
  /// some atom has P > 0 = Q. Precondition: α > 1 (exactdp::Error naming "alpha").
  Interval renyi_divergence(const Rational& alpha) const
    requires std::same_as<Mass, Interval>
  {
    if (alpha <= 1)
      throw Error("CertifiedLoss::renyi_divergence", "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
    const Precision prec = precision();
    Interval moment = Interval::zero(prec);
    for (const auto& atom : atoms_) {
      if (atom.ratio.is_zero()) continue;  // P = 0: no contribution
      if (atom.ratio.is_infinite()) return Interval::infinity(prec);
      moment += renyi_term(atom.p, atom.q, alpha);  // p^α q^{1−α} (functionals.hpp)
    }
    return log(moment) / Interval(Rational(alpha - 1), prec);
  }

  // ---- both

  /// The loss of two identical distributions: a single atom of ratio 1 (the identity of compose).
  static BasicPrivacyLoss identity(Precision precision = default_precision) {
    std::vector<Atom> unit;
    unit.push_back({Traits::unit_ratio(), Traits::one(precision), Traits::one(precision)});
    return BasicPrivacyLoss(std::move(unit));
  }

  const std::vector<Atom>& atoms() const { return atoms_; }
  std::size_t size() const { return atoms_.size(); }

  /// The loss of the reversed pair (Q, P).
  BasicPrivacyLoss swapped() const {
    std::vector<Atom> out;
    out.reserve(atoms_.size());
    for (auto it = atoms_.rbegin(); it != atoms_.rend(); ++it) out.push_back({Traits::inverse(it->ratio), it->q, it->p});
    return BasicPrivacyLoss(std::move(out));  // ratios reverse their order under inversion: already sorted
  }

  /// The loss of the product pair (P₁⊗P₂, Q₁⊗Q₂): ratios multiply exactly, masses multiply,
  /// equal products merged (THEOREMS.md A.1, "The PLD of a product pair").
  friend BasicPrivacyLoss compose(const BasicPrivacyLoss& a, const BasicPrivacyLoss& b) {
    Merged merged;
    for (const auto& x : a.atoms_)
      for (const auto& y : b.atoms_) {
        if (Traits::undefined_product(x.ratio, y.ratio)) continue;  // 0·∞: an outcome impossible in both worlds
        add_to(merged, Ratio(x.ratio * y.ratio), Mass(x.p * y.p), Mass(x.q * y.q));
      }
    return sorted(std::move(merged), "composition");
  }

  /// The k-fold self-composition (k ≥ 0). When the ratios lie on a lattice (exact: integer powers
  /// of one rational base, as for randomized response and the discrete Laplace mechanism;
  /// certified: e^{e·g} for integers e) the loss's polynomial is raised to the k-th power in one
  /// quasi-linear step (LossTraits::lattice_power); otherwise repeated squaring. Both give the
  /// same result (exact) or enclose the same masses (certified).
  BasicPrivacyLoss self_compose(unsigned long k) const {
    if (k >= 2)
      if (auto power = Traits::lattice_power(atoms_, k)) return BasicPrivacyLoss(std::move(*power));
    return self_compose_by_squaring(k);
  }
  /// The k-fold self-composition by repeated squaring of compose() — the reference route.
  BasicPrivacyLoss self_compose_by_squaring(unsigned long k) const {
    BasicPrivacyLoss result = identity(Traits::precision_of(atoms_)), base = *this;
    for (; k > 0; k >>= 1) {
      if (k & 1UL) result = compose(result, base);
      if (k > 1) base = compose(base, base);
    }
    return result;
  }

  /// H_λ(P‖Q) = Σ (P(y) − λQ(y))⁺ (THEOREMS.md A.1): exact, or certified for every λ in the
  /// enclosure. Precondition: λ ≥ 0 (exactdp::Error naming "lambda").
  Mass hockey_stick(const Mass& lambda) const {
    if (!Traits::non_negative(lambda))
      throw Error("hockey_stick", "lambda", Traits::text(lambda), "the hockey-stick parameter must be non-negative");
    return Traits::at_most_one(hockey_stick_sum<Mass>(atoms_, lambda));  // Σ (p − λq)⁺ (functionals.hpp)
  }
  /// δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)), exact or certified.
  Mass delta(const Mass& lambda) const {
    using std::max;
    return max(hockey_stick(lambda), swapped().hockey_stick(lambda));
  }

  friend bool operator==(const BasicPrivacyLoss&, const BasicPrivacyLoss&) = default;

private:
  using Merged = std::map<Ratio, std::pair<Mass, Mass>, typename Traits::StorageLess>;

  explicit BasicPrivacyLoss(std::vector<Atom> atoms) : atoms_(std::move(atoms)) {}
  static void add_to(Merged& merged, const Ratio& r, const Mass& p, const Mass& q) {
    auto [it, inserted] = merged.try_emplace(r, p, q);
    if (!inserted) {
      it->second.first += p;
      it->second.second += q;
    }
  }
  /// @p atoms with equal ratios merged, in numeric order of their ratios.
  static BasicPrivacyLoss normalised(std::vector<Atom> atoms, const std::string& context) {
    Merged merged;
    for (auto& a : atoms) add_to(merged, a.ratio, a.p, a.q);
    return sorted(std::move(merged), context);
  }
  /// The merged atoms in numeric order of their ratios.
  static BasicPrivacyLoss sorted(Merged&& merged, const std::string& context) {
    std::vector<Atom> atoms;
    atoms.reserve(merged.size());
    for (auto& [r, pq] : merged) atoms.push_back({r, std::move(pq.first), std::move(pq.second)});
    Traits::sort_by_ratio(atoms, context);
    return BasicPrivacyLoss(std::move(atoms));
  }
  std::vector<Atom> atoms_;
};

/// The PLD of a pair with exact masses (every verdict).
using PrivacyLoss = BasicPrivacyLoss<Rational>;
/// The PLD of a pair with exact likelihood ratios c·e^s and certified masses (mechanisms given by ε).
using CertifiedLoss = BasicPrivacyLoss<Interval>;
using LossAtom = BasicLossAtom<Rational>;
using CertifiedLossAtom = BasicLossAtom<Interval>;

/// The remove-direction pair (q·P + (1−q)·Q, Q) of Poisson subsampling at rate q, from the PLD of
/// the base pair (P, Q): an atom of ratio r and masses (p, q′) becomes one of ratio q·r + 1 − q and
/// masses (q·p + (1−q)·q′, q′) (+∞ stays +∞ with P-mass q·p); r ↦ q·r + 1 − q is injective, so atoms
/// stay distinct. Its PrivacyProfile (max of both directions) is the add/remove profile of the
/// subsampled mechanism (amplification/poisson.hpp states the argument). Exact.
///
/// Preconditions: 0 ≤ q ≤ 1 (exactdp::Error naming "q").
PrivacyLoss poisson_subsample(const PrivacyLoss& loss, const Rational& q);

}  // namespace exactdp
