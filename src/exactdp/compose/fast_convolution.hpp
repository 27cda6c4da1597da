/// @file
/// Fast certified composition: the k-fold composition of a privacy-loss distribution bracketed
/// by quasi-linear convolution, for compositions far too long for exact arithmetic.
///
/// **The argument.** Write a pair (P, Q) as the law of its privacy loss ℓ = ln(P/Q) under P: atoms
/// (p, ℓ) whose Q-mass is p·e^{−ℓ}. Then H_λ(P‖Q) = Σ p·(1 − λe^{−ℓ})⁺ (THEOREMS.md A.1), and for k
/// uses the sum runs over k-tuples with masses multiplied and losses added. The sum grows when a
/// mass or a loss grows (every term is ≥ 0 and increasing in both), for any number of uses, and
/// splitting an atom between two grid points with its P- and Q-masses kept cannot decrease it
/// (convexity; the "connect-the-dots" split of Doroshenko, Ghazi, Kamath, Kumar & Manurangsi,
/// PETS 2022). So a law on a grid h·ℤ whose masses are rounded up (and whose off-grid atoms are
/// split) gives an upper bound of every H_λ of every power, and one whose masses are rounded
/// down (and whose losses are rounded down onto the grid) a lower bound. Powers are computed by
/// repeated squaring with numeric/certified_convolution.hpp: exact integer products of the masses
/// scaled by 2^F, rounded towards the law's side after each product, so the only errors are the
/// grid (none for lattice losses: ratios that are integer powers of one base, such as randomized
/// response and the discrete Laplace mechanism) and that controlled rounding. Tails of mass at most
/// `tail` are moved outward (upper law: to +∞ or onto the lowest point) or inward/dropped (lower law).
///
/// Both directions are bracketed (H_λ(P‖Q) from the loss of (P, Q), H_λ(Q‖P) from that of (Q, P))
/// and combined by max, so δ(ε) and the least ε at δ are those of the symmetric profile, as
/// PrivacyProfile::delta and PrivacyProfile::least_epsilon define them.
///
/// A finite pair whose losses are on no lattice (a Poisson-subsampled pair, ratios c·e^s with
/// several coefficients) has no grid that holds its losses. Such a pair is composed atom by atom
/// when its k-fold composition is small enough (FastCompositionOptions::max_enumerated_atoms):
/// every count vector of the multinomial with its masses and its loss enclosed in interval
/// arithmetic, δ(ε) summed and the least ε scanned over suffixes with no grid at all
/// (FastBracket::enumerated; docs/composition.md). Otherwise it is gridded, and its lower law
/// merges atoms onto the grid (compose/grid_merge.hpp: a post-processing, second order in the step
/// where the atoms are dense) rather than rounding each loss down (first order, an error of order
/// k·h); to make the atoms dense, a block of k0 uses is composed atom by atom before it is gridded
/// (FastCompositionOptions::max_block_atoms). Isolated atoms (the far tail of a block) still cost
/// first order: an isolated off-grid atom has nothing to merge with.
///
/// Evaluation on a grid law is linear in its length and runs in binary64 with directed rounding
/// (numeric/directed_rounding.hpp), anchored by MPFI enclosures of e^{−jh}; its relative error is
/// about (length)·2^−52, far below the grid's.
#pragma once

#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/certified_convolution.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <vector>

namespace exactdp {

/// A privacy-loss law on the grid h·ℤ held as one-sided bounds: P-mass masses[i] at loss
/// (offset + i)·h and infinite_mass at +∞; mass not stored sits at −∞ (it contributes nothing to
/// any H_λ). For side = upper every stored mass bounds from above that of a law dominating the
/// truth; for side = lower from below that of a law the truth dominates (see the file comment).
/// The step h is not stored: it is passed to the evaluations as an enclosure.
struct GridLossLaw {
  BoundSide side = BoundSide::upper;
  long offset = 0;
  std::vector<double> masses;
  double infinite_mass = 0;
};

/// Moves masses below 2^−500 away (upper: to +∞; lower: dropped), trims zero ends, and moves a
/// tail of mass at most @p tail at each end: upper laws to +∞ (top) and onto the lowest kept point
/// (bottom), lower laws onto the highest kept point (top) and away (bottom). Every move keeps the
/// law on its side (monotonicity in mass and loss).
void truncate_tails(GridLossLaw& law, double tail);

/// The law of the sum of the two losses (both on the same grid and side), certified towards the
/// side (with F raised to log₂(1/tail) + 10 if @p options asks for less), then
/// truncate_tails(·, @p tail). Throws exactdp::Error (field "side") if the sides differ.
GridLossLaw convolve(const GridLossLaw& a, const GridLossLaw& b, double tail, const ConvolutionOptions& options = {});

/// The k-fold sum (k ≥ 1) by repeated squaring of convolve(), on the law's own grid (no
/// re-gridding: length about k times the one-use length). Throws exactdp::Error (field "times")
/// if k = 0.
GridLossLaw self_compose(const GridLossLaw& law, unsigned long k, double tail, const ConvolutionOptions& options = {});

/// H_{λ}(law) = infinite_mass + Σ_j m_j (1 − λ e^{−jh})⁺ for λ = e^{ε}, bounded from the law's
/// side: an upper bound for an upper law, a lower bound for a lower law (the true value of the law
/// lies on the returned side of the number). @p step encloses h > 0; ε ≥ 0.
Rational grid_hockey_stick(const GridLossLaw& law, const Interval& step, const Rational& epsilon);

/// The least ε ≥ 0 with H_{e^ε}(law) ≤ δ, bounded from the law's side (upper law: a number ≥ it;
/// lower law: ≤ it), as ln of max(1, max over suffixes S of (A_S − δ)/B_S), A_S the P-mass and B_S
/// the Q-mass of S (CertifiedLoss::least_epsilon). The upper end is +∞ (std::nullopt) when the
/// upper law's mass at +∞ exceeds δ, or the lower law's does (then the true ε is infinite too).
/// Precondition: 0 < δ ≤ 1.
std::optional<Rational> grid_least_epsilon(const GridLossLaw& law, const Interval& step, const Rational& delta,
                                           Precision precision = default_precision);

/// The bracket of the least ε of the symmetric profile max(H(P‖Q), H(Q‖P)) from grid_least_epsilon
/// of both directions' lower laws (@p lower) and upper laws (@p upper): the least ε of the maximum
/// is the larger of the two directions', so [max of the lower bounds, max of the upper bounds]. The
/// point +∞ when a lower law has no finite ε (the truth has none either); upper end +∞ when an upper
/// law has none. Used by the fast composition and amplification/grid_bracket.cpp alike.
Interval least_epsilon_bracket(const std::array<std::optional<Rational>, 2>& lower,
                               const std::array<std::optional<Rational>, 2>& upper, Precision precision);

/// Options of the fast composition.
struct FastCompositionOptions {
  /// For losses that are not on a lattice: the grid step is the largest 2^−m at most L/resolution,
  /// L the largest finite |loss| of a one-use atom with P-mass above `tail` (lighter ones are moved
  /// by the first truncation); doubled until the brackets are narrow enough (see relative_width)
  /// or max_resolution is passed. Ignored for lattice losses (their grid is exact).
  unsigned resolution = 64;
  unsigned max_resolution = 1024;
  /// The bracket's target width relative to its upper end (δ or ε) — reached or the last
  /// resolution's bracket is returned (check FastBracket::value).
  Rational relative_width{1, 1000000};
  /// Mass moved per truncation of a tail; the bracket widens by at most this much in δ per
  /// squaring (default 2^−50, so about 60 truncations move at most 6·10^−14 of mass). The
  /// integer scale of the products is at least 2^−(log₂(1/tail) + 10). Must lie in [0, 10^−12].
  Rational tail{pow2(-50)};
  /// The most grid points a composed law may hold (memory: 8 bytes each, plus the product).
  std::size_t max_points = std::size_t(1) << 24;
  ConvolutionOptions convolution;       ///< F, the integer scale of the masses in products
  Precision precision = default_precision;  ///< of the MPFI anchors and the final logarithm
  /// A pair that is not on a lattice is composed atom by atom, with exact losses and no grid
  /// (brackets as narrow as the working precision), when its k-fold composition has at most this
  /// many atoms: C(k + m − 1, m − 1) for m one-use atoms with both masses positive. Above it, the
  /// grid. 0: always the grid. Memory: three MPFI enclosures per atom (about 0.45 KB at the
  /// default precision), so the default 2^19 holds at most about 240 MB.
  std::size_t max_enumerated_atoms = std::size_t(1) << 19;
  /// Above max_enumerated_atoms, the grid composes blocks: k0 uses composed atom by atom (the
  /// largest k0 < k with at most this many count vectors), discretised onto the grid and used
  /// ⌊k/k0⌋ times, then the k mod k0 uses left. The block's atoms are dense where one use's few
  /// atoms are isolated, so merging them onto the grid (the lower law) errs to second order in the
  /// step where a one-use law of isolated atoms can only round each loss down (first order).
  /// 0 or a k0 of 1: the one-use laws. Memory as max_enumerated_atoms.
  std::size_t max_block_atoms = std::size_t(1) << 16;
  /// Which divergence of the pair is bracketed (divergence/direction.hpp): remove H(P‖Q), add
  /// H(Q‖P), or both (their maximum, the default).
  NeighbourDirection direction = NeighbourDirection::both;
};

/// A certified bracket with the grid that produced it.
struct FastBracket {
  Interval value;            ///< contains the true value (upper end +∞ when not bounded)
  Interval step;             ///< the grid step h (exact lattice step, or the rational 2^−m)
  bool lattice = false;      ///< true when the losses lie on the grid exactly (no grid error)
  std::size_t points = 0;    ///< the largest composed law's length
  unsigned resolution = 0;   ///< the resolution used (0 for a lattice)
  /// true when the pair was composed atom by atom with exact losses (no grid; `step` is 0 and
  /// `points` the number of composed atoms): FastCompositionOptions::max_enumerated_atoms.
  bool enumerated = false;
};

/// Whether the fast composition of @p k uses of @p loss (Poisson-subsampled at @p sampling_rate if
/// given) is computed on a grid — its losses lie on no lattice and its k-fold composition has more
/// count vectors than FastCompositionOptions::max_enumerated_atoms — so that a finer
/// FastCompositionOptions::resolution narrows its bracket. False for a lattice (exact grid) and for
/// the atom-by-atom route (no grid). Preconditions as fast_delta_at_epsilon's.
bool fast_composition_on_grid(const PrivacyLoss& loss, unsigned long k,
                              const std::optional<Rational>& sampling_rate = std::nullopt,
                              const FastCompositionOptions& options = {});
/// The same for a certified loss.
bool fast_composition_on_grid(const CertifiedLoss& loss, unsigned long k, const std::optional<Rational>& sampling_rate,
                              const FastCompositionOptions& options = {});

/// δ(ε) = max(H_{e^ε}(P^k‖Q^k), H_{e^ε}(Q^k‖P^k)) of the k-fold composition of @p loss,
/// bracketed; with @p sampling_rate q < 1, of the Poisson-subsampled pair (q·P + (1−q)·Q, Q)
/// (add/remove, amplification/poisson.hpp) instead. Preconditions: k ≥ 1, ε ≥ 0, 0 < q ≤ 1
/// (exactdp::Error naming "times", "epsilon", "sampling_rate").
FastBracket fast_delta_at_epsilon(const PrivacyLoss& loss, unsigned long k, const Rational& epsilon,
                                  const std::optional<Rational>& sampling_rate = std::nullopt,
                                  const FastCompositionOptions& options = {});
/// The least ε ≥ 0 with δ(ε) ≤ δ of the k-fold composition, bracketed (as above).
/// Preconditions: k ≥ 1, 0 < δ ≤ 1.
FastBracket fast_epsilon_at_delta(const PrivacyLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate = std::nullopt,
                                  const FastCompositionOptions& options = {});

/// The same for a loss with certified masses (mechanisms given by ε: rr, krr, dlaplace). Ratios
/// e^{s} with rational s (coefficient 1) form a lattice with step gcd(s); other ratios are
/// gridded as above. Subsampled: the overloads with a sampling rate below.
FastBracket fast_delta_at_epsilon(const CertifiedLoss& loss, unsigned long k, const Rational& epsilon,
                                  const FastCompositionOptions& options = {});
/// See above.
FastBracket fast_epsilon_at_delta(const CertifiedLoss& loss, unsigned long k, const Rational& delta,
                                  const FastCompositionOptions& options = {});
/// The same for the Poisson-subsampled pair (q·P + (1−q)·Q, Q) of a certified loss at
/// @p sampling_rate q (add/remove, amplification/poisson.hpp): its ratios q·c·e^s + 1 − q leave the
/// form c·e^s, so they are gridded from their enclosures (no lattice). Preconditions as above and
/// 0 < q ≤ 1 ("sampling_rate"); q = 1 (or none) is the base pair.
FastBracket fast_delta_at_epsilon(const CertifiedLoss& loss, unsigned long k, const Rational& epsilon,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options = {});
/// See above.
FastBracket fast_epsilon_at_delta(const CertifiedLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options = {});

}  // namespace exactdp
