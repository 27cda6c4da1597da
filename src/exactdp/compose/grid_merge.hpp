/// @file
/// Merging atoms of a privacy-loss law onto a grid: the lower laws of the certified grid brackets
/// (amplification/poisson.hpp's grid_bracket and the fast composition of compose/fast_convolution.hpp).
///
/// **Why merging gives a lower bound.** Replacing two outcomes of a pair (P, Q) by one that carries
/// the sum of their P-masses and the sum of their Q-masses is post-processing (the function that
/// maps both to one outcome), so every H_λ of the merged pair, and of any number of its uses, is at
/// most the original's (docs/audit-subsampling.md, fact 3; THEOREMS.md A.1). A merged atom's loss
/// ln(ΣP/ΣQ) lies between its parts' losses; when the parts are chosen (a fraction of the next atom
/// taken in, keeping that fraction's P- and Q-masses) so that the merged loss lands on a grid
/// point, nothing is rounded: the only error is what the merge forgets, of second order in the
/// spread of the merged losses. A merged atom whose loss is only certified some points above a grid
/// point is stored at that point with its P-mass kept (the loss rounded down: a lower law, fact 1).
///
/// Rounding each loss down onto the grid instead (P-mass kept, Q-mass raised) is not a
/// post-processing and errs by up to a step per use: first order.
#pragma once

#include "exactdp/compose/fast_convolution.hpp"
#include "exactdp/numeric/rational.hpp"

#include <vector>

namespace exactdp {

/// An atom waiting to be merged onto the grid H·ℤ: P-mass `p` (a lower bound), loss in
/// [low·H, high·H] (exactly high·H when `on_grid`, then low = high), and `qhat`, an upper bound of
/// its Q-mass times e^{high·H} (so p ≤ qhat up to rounding).
struct GridMergeAtom {
  long low = 0, high = 0;
  double p = 0;
  double qhat = 0;
  bool on_grid = false;
};

/// Binary64 bounds of the constants of one grid step h (from MPFI enclosures at 128 bits).
struct GridStepBounds {
  double exp_lo = 1, exp_hi = 1;  ///< e^h
  double exp_neg_hi = 1;          ///< e^−h
  double split_low_hi = 0;        ///< 1/(1 + e^h): share of a midpoint atom moved to the lower point
  double split_high_hi = 0;       ///< e^h/(1 + e^h): share moved to the upper point
};

/// The bounds of GridStepBounds for the step @p h > 0.
GridStepBounds grid_step_bounds(const Rational& h);

/// Merges @p atoms (in increasing order of loss) onto the grid @p H·ℤ as a lower law with
/// @p infinite_mass at +∞, sweeping upward (atoms in increasing order of loss) or @p downward.
/// Upward: a carry collects atoms whose loss may lie below its target tH = the carry's first atom's
/// `high`, then the fraction of the next atom that brings the merged loss up to tH; the rest of
/// that atom starts the next carry. Downward: symmetric, the target is the first atom's `low` and
/// later atoms pull the merged loss down to it. A carry takes in atoms at most 256 points away.
/// Each merged atom is stored with a lower bound of its P-mass at the largest grid point certified
/// not to exceed its loss: searched down to 130 points below its target, and never below the least
/// `low` of its parts (the merged loss is at least its least part's); the fraction is chosen a
/// little inside so that the target is certified. The carry left at the end of the sweep is rounded down whole: sweeping away from the
/// heavier end of the law leaves it where the mass is small. Any order of the atoms gives a valid
/// lower law (every merge is a post-processing); the order only decides how good it is.
GridLossLaw merge_onto_grid(const std::vector<GridMergeAtom>& atoms, const Rational& H, double infinite_mass,
                            bool downward);

/// Whether a merge should sweep downward: when the top end of @p atoms (its four heaviest-placed
/// atoms at each end) is heavier than its bottom. A heuristic: it only chooses.
bool heavier_top(const std::vector<GridMergeAtom>& atoms);

/// Of two lower laws on the grid @p H·ℤ (both valid), the one with the larger
/// Σ_j m_j (1 − e^{−jH})⁺, i.e. H_1 of its finite part — a binary64 heuristic that only chooses.
const GridLossLaw& better_lower(const GridLossLaw& a, const GridLossLaw& b, const Rational& H);

/// The lower law of @p atoms merged in both sweep directions, the better one kept (better_lower):
/// an upward sweep fails to reach its targets in a steeply falling upper tail (the last carry is
/// rounded down by up to a bin, where ε(δ) is decided for few uses), a downward sweep the same way
/// at the bottom; which matters depends on the law and the step.
GridLossLaw merged_lower_law(const std::vector<GridMergeAtom>& atoms, const Rational& H, double infinite_mass);

}  // namespace exactdp
