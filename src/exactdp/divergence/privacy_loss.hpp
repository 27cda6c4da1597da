/// @file
/// A pair of finite distributions reduced to its likelihood ratios: the privacy-loss
/// distribution (PLD) of THEOREMS.md A.1, with both worlds' masses kept explicitly.
#pragma once

#include "exactdp/dist/dist.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/rational.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

/// All outcomes of a pair (P, Q) that share one likelihood ratio P(y)/Q(y), merged.
struct LossAtom {
  ExtendedRational ratio;  ///< p/q; +∞ when q = 0; 0 when p = 0
  Rational p;              ///< total P-mass of the outcomes with this ratio
  Rational q;              ///< total Q-mass of the outcomes with this ratio
  friend bool operator==(const LossAtom&, const LossAtom&) = default;
};

/// The privacy-loss distribution of an ordered pair (P, Q) of finite distributions.
///
/// Merging outcomes of equal likelihood ratio loses nothing that any divergence can see (the
/// ratio is a sufficient statistic for the pair), so this is the canonical form on which every
/// functional of exactdp — hockey-stick, profile, trade-off, Rényi moments, max divergence — is
/// written once. It stores both worlds' masses, so the reverse pair (Q, P) is just swapped().
///
/// Invariants: atoms sorted by ratio ascending, ratios distinct, p and q ≥ 0 with p + q > 0,
/// ratio = p/q, Σ p = Σ q = 1.
class PrivacyLoss {
public:
  /// The loss of a pair (P, Q) given outcome by outcome as (P(y), Q(y)).
  /// Throws exactdp::Error (naming @p context, the index and the value) if a mass is negative or
  /// either column does not sum to exactly 1.
  static PrivacyLoss from_masses(const std::vector<std::pair<Rational, Rational>>& masses,
                                 const std::string& context = "pair");

  /// The loss of the pair (P, Q) of distributions over the same outcome type.
  template <class T>
  static PrivacyLoss of(const Dist<T>& P, const Dist<T>& Q) {
    std::vector<std::pair<Rational, Rational>> m;
    for (const auto& [y, p] : P) m.emplace_back(p, Q.mass(y));
    for (const auto& [y, q] : Q)
      if (sgn(P.mass(y)) == 0) m.emplace_back(Rational(0), q);
    return from_masses(m);
  }

  /// The loss of two identical distributions: a single atom of ratio 1 (the identity of compose).
  static PrivacyLoss identity();

  const std::vector<LossAtom>& atoms() const { return atoms_; }
  std::size_t size() const { return atoms_.size(); }

  /// The loss of the reversed pair (Q, P).
  PrivacyLoss swapped() const;

  /// The loss of the product pair (P₁⊗P₂, Q₁⊗Q₂): multiplicative convolution of ratios,
  /// equal products merged (THEOREMS.md A.1, "The PLD of a product pair").
  friend PrivacyLoss compose(const PrivacyLoss& a, const PrivacyLoss& b);

  /// The k-fold self-composition (k ≥ 0). When all finite likelihood ratios are integer powers
  /// of one rational base (randomized response, discrete Laplace, …) it raises the loss's
  /// Laurent polynomial to the k-th power with one FFT-based big-integer power (Kronecker
  /// substitution); otherwise it uses repeated squaring. Both give identical results.
  PrivacyLoss self_compose(unsigned long k) const;
  /// An upper bound on the number of atoms of self_compose(k), computed without composing:
  /// (span of the exponents)·k + 3 for lattice losses, the number of multisets C(k+n−1, n−1)
  /// otherwise (saturating at SIZE_MAX). Used to estimate memory before any work starts.
  std::size_t self_compose_size_bound(unsigned long k) const;
  /// The k-fold self-composition by repeated squaring of compose() — the reference route.
  PrivacyLoss self_compose_by_squaring(unsigned long k) const;

  /// When every finite positive ratio is an integer power ρ^e of one rational base ρ > 1
  /// (randomized response, the discrete Laplace mechanism and all their compositions): ρ and the
  /// exponents, one per atom of finite positive ratio in atom order. std::nullopt otherwise (or when
  /// the search for ρ gives up, which only costs the fast routes).
  struct Lattice {
    Rational base;
    std::vector<long> exponent;
  };
  std::optional<Lattice> lattice() const;

  friend bool operator==(const PrivacyLoss&, const PrivacyLoss&) = default;

private:
  explicit PrivacyLoss(std::vector<LossAtom> atoms) : atoms_(std::move(atoms)) {}
  /// Sorts by ratio and merges equal ratios.
  static PrivacyLoss normalise(std::vector<LossAtom> atoms);
  std::vector<LossAtom> atoms_;
};

/// The remove-direction pair (q·P + (1−q)·Q, Q) of Poisson subsampling at rate q, from the PLD of
/// the base pair (P, Q): an atom of ratio r and masses (p, q′) becomes one of ratio q·r + 1 − q and
/// masses (q·p + (1−q)·q′, q′) (+∞ stays +∞ with P-mass q·p); r ↦ q·r + 1 − q is injective, so atoms
/// stay distinct. Its PrivacyProfile (max of both directions) is the add/remove profile of the
/// subsampled mechanism (amplification/poisson.hpp states the argument). Exact.
///
/// Preconditions: 0 ≤ q ≤ 1 (exactdp::Error naming "q").
PrivacyLoss poisson_subsample(const PrivacyLoss& loss, const Rational& q);

}  // namespace exactdp
