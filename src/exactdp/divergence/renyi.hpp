/// @file
/// Rényi divergences, the max divergence and KL of a pair (THEOREMS.md A.1; Mironov 2017).
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"

namespace exactdp {

/// The Rényi moment Φ_α(P‖Q) = Σ_{P(y)>0} P(y)^α Q(y)^{1−α} for an integer α ≥ 2, exactly;
/// +∞ when some atom has P(y) > 0 = Q(y). Moments multiply under products of pairs.
ExtendedRational renyi_moment(const PrivacyLoss& loss, unsigned long alpha);

/// Φ_α(P‖Q) for a real α > 1 given as an exact rational, as a certified interval
/// (the point +∞ when there is a catastrophic atom).
Interval renyi_moment(const PrivacyLoss& loss, const Rational& alpha, Precision precision = default_precision);

/// D_α(P‖Q) = ln Φ_α / (α − 1), certified, for rational α > 1 (+∞ as the point +∞).
Interval renyi_divergence(const PrivacyLoss& loss, const Rational& alpha, Precision precision = default_precision);

/// The max divergence as a ratio: max_y P(y)/Q(y) over P(y) > 0 (+∞ if some Q(y) = 0 < P(y)).
/// D_∞(P‖Q) = ln of it; the pair is pure ln λ-DP in this direction iff it is ≤ λ.
ExtendedRational max_ratio(const PrivacyLoss& loss);

/// KL(P‖Q) = Σ P ln(P/Q), certified (+∞ point if some Q(y) = 0 < P(y)).
Interval kl_divergence(const PrivacyLoss& loss, Precision precision = default_precision);

}  // namespace exactdp
