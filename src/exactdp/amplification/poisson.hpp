/// @file
/// Poisson subsampling (each record enters the mechanism's input independently with probability
/// q) and certified brackets for mechanisms whose privacy loss has infinite support: the
/// Poisson-subsampled Gaussian (the DP-SGD step) and Laplace mechanism, and k-fold compositions of
/// the continuous Gaussian and Laplace mechanisms and of Gaussian mixtures.
///
/// **Which pair is analysed (add/remove neighbouring).** Let (P, Q) be the worst-case pair of one
/// use of the base mechanism as exactdp states it (the spec's pair: the output law when the record
/// is present, P, and when it is absent, Q — e.g. M(c + Δ) and M(c)). With Poisson subsampling at
/// rate q the record is in the sample with probability q, so on neighbouring datasets D ∋ x and
/// D′ = D ∖ {x} the subsampled mechanism's output laws are
///
///     remove direction:  (A, B) = (q·P + (1−q)·Q,  Q)     [D against D′]
///     add direction:     (B, A) = (Q,  q·P + (1−q)·Q)     [D′ against D]
///
/// and the profile of k uses is δ(ε) = max(H_{e^ε}(A^k‖B^k), H_{e^ε}(B^k‖A^k)) (Zhu, Dong & Wang,
/// "Optimal accounting of differential privacy via characteristic function", AISTATS 2022, Thm 11
/// and Prop. 30: if (P, Q) dominates the base mechanism for add and for remove, then (A, B)
/// dominates the subsampled one for remove and (B, A) for add; Balle, Barthe & Gaboardi,
/// "Privacy amplification by subsampling", NeurIPS 2018, §5 for the (ε, δ) form). The pair is
/// attained by the base mechanism applied to a counting/sum query whose record contributes Δ, so
/// for that mechanism this is the exact profile, not a bound. The base pairs of all spec families
/// are symmetric (the PLD of (Q, P) equals that of (P, Q)), so a record that subtracts Δ instead
/// gives the same profile.
///
/// **Replace-one** under Poisson subsampling is not modelled: the replaced record and its
/// replacement are sampled with the same coin, the pair is ((1−q)R + qP, (1−q)R + qQ) with R the
/// law when the record is absent, and its worst case depends on where "absent" lies relative to
/// the two records' contributions (Lebeda, Regehr, Kamath & Steinke, "Avoiding pitfalls for privacy
/// accounting of subsampled mechanisms under composition", 2024); exactdp refuses such claims.
///
/// **Certified brackets (the argument; details in docs/audit-subsampling.md).** Write a pair (P, Q)
/// as the measure of its privacy loss L = ln(dP/dQ) under P: atoms (p, ℓ) with Q-mass p·e^{−ℓ}. For
/// every λ ≥ 0, H_λ(P‖Q) = Σ p·(1 − λe^{−ℓ})⁺, and for k uses (a product pair) the sum runs over
/// k-tuples of atoms with masses multiplied and losses added. Three facts make brackets:
///  1. *Monotonicity.* The sum grows when an atom's mass or loss grows (every term is ≥ 0 and
///     increasing in each), for any number of uses.
///  2. *Splitting is pessimistic.* Replacing an atom of loss ℓ ∈ [a, b] by two atoms at a and b
///     with the same P-mass and the same Q-mass (the "connect-the-dots" split of Doroshenko,
///     Ghazi, Kamath, Kumar & Manurangsi, PETS 2022) cannot decrease the sum: as a function of
///     x = e^{−ℓ}, p·(1 − c·x)⁺ is convex (Jensen). The same holds for every number of uses, since
///     the k-use sum is, in each use separately, a sum of such terms.
///  3. *Merging is optimistic.* Replacing two atoms (or fractions of atoms) by one whose P- and
///     Q-masses are the sums cannot increase the sum (the same convexity, read backwards; it is
///     the post-processing that forgets which of the two occurred).
/// The upper law splits the loss of one use onto the grid h·ℤ (bin masses enclosed with MPFI;
/// the masses stored are upper bounds, fact 1); the lower law merges the bins into atoms whose
/// merged loss is exactly a grid point, greedily across neighbouring bins (fact 3), storing lower
/// bounds of the masses and the largest grid point certified below each merged loss (fact 1).
/// Both errors are second order in h, unlike rounding every loss up or down, which moves the
/// k-fold loss by up to k·h. Composed laws are convolutions on the grid computed by the compose
/// layer's certified convolution (compose/fast_convolution.hpp): exact integer products (FLINT) of
/// the masses scaled by 2^F, rounded up for upper laws and down for lower laws, quasi-linear in
/// the length; masses below 2^−500 are first moved to +∞ (upper) or dropped (lower).
/// When a composed law's standard deviation has grown, it is re-gridded to step 2h by the same
/// split (upper) and merge (lower) — domination is transitive — so each law keeps about
/// `resolution` grid points per standard deviation and the convolutions stay small. Tails of mass
/// at most `tail` are moved to +∞ or the window's lowest point (upper) or dropped or rounded down
/// onto the window (lower), again by fact 1. The final δ(ε) and least-ε evaluations are the
/// compose layer's grid_hockey_stick and grid_least_epsilon (directed rounding, MPFI anchors).
/// Nothing is cached between calls.
/// Both directions of the pair are bounded separately and combined by max.
#pragma once

#include "exactdp/bounds/gaussian_mixture.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace exactdp {

// poisson_subsample(loss, q), the remove-direction pair of a finite PLD, is a transform of the PLD
// and lives with it in divergence/privacy_loss.hpp.

/// A one-use neighbouring pair with infinite-support privacy loss, described by the laws of its loss.
struct ContinuousPair {
  /// Which mechanism.
  enum class Kind { gaussian, laplace, mixture };
  Kind kind = Kind::gaussian;
  Rational sigma_or_scale{1};  ///< σ (gaussian, mixture) or b (laplace)
  Rational sensitivity{1};     ///< Δ (mixture: the largest contribution c_i, for reports)
  Rational q{1};               ///< Poisson sampling rate (1: not subsampled; a mixture carries its weights instead)
  std::vector<MixtureComponent> mixture;  ///< the components (c_i, w_i) of a Gaussian mixture, else empty

  /// The Gaussian mechanism N(0, σ²) with sensitivity Δ, Poisson-subsampled at rate q (q = 1: not
  /// subsampled), add/remove. Preconditions: σ, Δ > 0, 0 < q ≤ 1 (exactdp::Error naming the field).
  static ContinuousPair gaussian(const Rational& sigma, const Rational& sensitivity, const Rational& q = 1);
  /// The Laplace mechanism with scale b and sensitivity Δ, Poisson-subsampled at rate q (q = 1:
  /// not subsampled), add/remove. Subsampled, its loss g(L) = ln(q e^L + 1 − q) has point masses at
  /// the irrational g(±Δ/b); they are carried inside the bins that contain them.
  /// Preconditions: b, Δ > 0, 0 < q ≤ 1 (exactdp::Error naming the field).
  static ContinuousPair laplace(const Rational& scale, const Rational& sensitivity, const Rational& q = 1);
  /// The Gaussian mixture mechanism (bounds/gaussian_mixture.hpp): Σ w_i N(c_i, σ²) against
  /// N(0, σ²), remove, and the reverse, add. Its loss L(x) = ln Σ w_i e^{(c_i x − c_i²/2)/σ²} is
  /// strictly increasing in the output x, so Pr[L ≤ l] = Pr[X ≤ L⁻¹(l)] under both laws; the root
  /// L⁻¹(l) at each bin boundary is proposed by Newton's method (binary64, then one step at 96
  /// bits) and certified by two MPFI evaluations of L a few units of L's enclosure around it (a
  /// wider bracket, never a wrong one, when that fails): a root only as close as binary64 puts it
  /// made the bracket widen with the resolution (docs/composition.md). The Poisson-subsampled
  /// Gaussian is the mixture {(0, 1 − q), (Δ, q)}.
  static ContinuousPair gaussian_mixture(const GaussianMixture& mixture);
  /// One line for reports.
  std::string describe() const;
};

/// Options of the grid bracket. A higher resolution gives a narrower bracket (for one use about
/// like 1/resolution²; for long compositions more slowly, see bench/README.md) and its time grows
/// about linearly (the one-use discretisation dominates since the convolutions are quasi-linear);
/// every choice gives a valid bracket.
struct GridOptions {
  /// Grid points per standard deviation of the privacy loss (≥ 1): the one-use step is the
  /// largest s·2^−m (s = 1, or ε₀ = Δ/b for Laplace so that its atoms ±ε₀ are grid points) at
  /// most σ₁/resolution, σ₁ an estimate of the one-use loss's standard deviation; composed laws
  /// are re-gridded to twice the step whenever that keeps this many points per deviation.
  unsigned resolution = 8;
  /// The composed laws keep resolution × composition_factor grid points per standard deviation
  /// (≥ 1) before they are re-gridded. The convolutions are quasi-linear (compose/fast_convolution.hpp),
  /// so a factor of 4 costs little beside the one-use discretisation and narrows the bracket
  /// several-fold for long compositions (bench/README.md); 1 keeps the historical grids.
  unsigned composition_factor = 1;
  /// Tail mass moved per truncation (to +∞ for the upper law, dropped for the lower law); each
  /// truncation widens the bracket by at most this much in δ.
  Rational tail{Rational(1, 1) / Rational(mpz_class("1000000000000000000000000000000000"))};
  /// The most grid points a law may hold (≥ 16): a law that would be larger is re-gridded to a
  /// coarser step first (a looser bracket, never an invalid one).
  std::size_t max_points = 200000;
  /// How finely the one-use law is cut into bins, whose masses are the enclosures of Φ computed (the
  /// discretisation's cost): each block of 64 grid steps is cut into bins of 1 step when its P-mass
  /// is at least 2^−b, 4 steps when at least 2^−2b, 16 when at least 2^−3b, else one bin (b this
  /// value, 1 … 340). Any partition gives a valid bracket; wider bins where the mass is small cost
  /// little width for long compositions (b = 10 for DP-SGD at 10⁴ steps: 1.4× faster, width
  /// 6.5·10⁻⁵ → 6.7·10⁻⁵) but more for few uses, whose ε(δ) is decided in the tail (one use:
  /// 6·10⁻⁶ → 10⁻⁴; bench/README.md).
  unsigned fine_bin_bits = 20;
  Precision precision = 128;  ///< MPFI precision of the bin masses' final evaluations
  /// Which divergence is bracketed (divergence/direction.hpp): remove H(A^k‖B^k), add H(B^k‖A^k),
  /// or both (their maximum, the default).
  NeighbourDirection direction = NeighbourDirection::both;
};

/// A certified bracket with the grid that produced it.
struct GridBracket {
  Interval value;             ///< contains the true value
  Rational step;              ///< the grid step of one use (the finest)
  Rational final_step;        ///< the coarsest step the composed laws reached
  std::size_t points = 0;     ///< the largest number of grid points held
  unsigned resolution = 0;    ///< GridOptions::resolution used
};

/// δ(ε) = max(H_{e^ε}(A^k‖B^k), H_{e^ε}(B^k‖A^k)) of k uses of @p pair, bracketed (see the file
/// comment); ε < 0 through the reversed direction at −ε (divergence/direction.hpp). For both
/// directions of an asymmetric pair at resolution ≥ 128, both are first bracketed at a sixteenth of
/// the resolution, and when one is then certainly the smaller only the other is refined (the
/// maximum's bracket [max of lower ends, max of upper ends] holds for any bracket of each; this
/// halves the work when the directions are apart, and costs about an eighth more when not). The
/// same holds for grid_epsilon_at_delta. Preconditions:
/// k ≥ 1, resolution ≥ 1, max_points ≥ 16 (exactdp::Error naming
/// "times", "epsilon", "resolution", "max_points").
GridBracket grid_delta_at_epsilon(const ContinuousPair& pair, unsigned long k, const Rational& epsilon,
                                  const GridOptions& options = {});

/// The least ε ≥ 0 with δ(ε) ≤ δ for k uses of @p pair, bracketed: the lower end from the lower
/// laws, the upper end from the upper laws (+∞ when the upper law's mass at +∞ exceeds δ).
/// Preconditions: k ≥ 1, 0 < δ ≤ 1 (exactdp::Error naming "times", "delta"), as above.
GridBracket grid_epsilon_at_delta(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                  const GridOptions& options = {});

/// One component of a heterogeneous composition: a pair used `times` times.
struct GridComponent {
  ContinuousPair pair;
  unsigned long times = 1;
};

/// δ(ε) of the composition of every component (each used its `times`), bracketed: the upper laws
/// of the components are convolved with each other, and so are the lower laws (the product of
/// dominating pairs dominates the product; facts 1–3 hold use by use), on one grid: the coarsest of
/// the components' one-use steps s·2^−m (s the first component's scale when every other scale is a
/// power-of-two multiple of it, else 1; composing re-grids a finer law onto a coarser one anyway;
/// point masses between grid points are split and merged like any bin). One component is
/// grid_delta_at_epsilon(pair, times, …) exactly. Heterogeneous
/// Laplace mechanisms, Gaussians with and without subsampling, mixed. Preconditions as
/// grid_delta_at_epsilon, and at least one component (exactdp::Error naming "components").
GridBracket grid_delta_at_epsilon(const std::vector<GridComponent>& components, const Rational& epsilon,
                                  const GridOptions& options = {});

/// The least ε of the composition of every component, bracketed (as grid_epsilon_at_delta).
GridBracket grid_epsilon_at_delta(const std::vector<GridComponent>& components, const Rational& delta,
                                  const GridOptions& options = {});

/// The intersection of two brackets of the same question (e.g. at two resolutions): both enclose
/// the true value, so their intersection does too, and it is never wider than either. The step,
/// points and resolution reported are @p finer's. Refinement loops (grid_epsilon_at_delta_within,
/// the audit) return this running intersection, so a finer resolution never widens the answer
/// (a single grid_*_at_* call at a higher resolution can be wider: its composed laws are
/// re-gridded and truncated at different points; docs/audit-subsampling.md).
GridBracket intersect(const GridBracket& coarser, const GridBracket& finer);

/// grid_epsilon_at_delta at resolutions options.resolution, twice that, … up to @p max_resolution,
/// stopping at the first bracket [lo, hi] with hi − lo ≤ @p relative_width · hi (the bracket of
/// the last resolution tried otherwise; check its width). The bracket returned is the intersection
/// of those of every resolution tried, so raising @p max_resolution never widens it. Preconditions as above, and
/// relative_width > 0 (exactdp::Error naming "relative_width").
GridBracket grid_epsilon_at_delta_within(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                         const Rational& relative_width, unsigned max_resolution,
                                         GridOptions options = {});

}  // namespace exactdp
