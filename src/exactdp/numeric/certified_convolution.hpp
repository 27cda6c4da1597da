/// @file
/// Certified quasi-linear convolution of non-negative mass vectors: exact integer products
/// (FLINT's fmpz_poly_mul, Schönhage–Strassen / Kronecker substitution) of masses scaled to
/// integers, with the only rounding done in one stated direction.
///
/// Each mass x ≥ 0 is replaced by the integer ⌈x·2^F⌉ (upper side) or ⌊x·2^F⌋ (lower side), the
/// integer polynomials are multiplied exactly, and each coefficient is converted back to binary64
/// rounded the same way. So every output bounds the exact convolution from the stated side, and
/// the error of one product is at most 2^−F·(Σa + Σb) + n·2^−2F in total mass (plus the final
/// rounding to binary64, relative 2^−52). Repeated squaring (k-fold self-convolution) applies it
/// at each step, each step's output bounding the next step's input from the same side.
#pragma once

#include "exactdp/numeric/interval.hpp"

#include <cstddef>
#include <vector>

namespace exactdp {

/// Which side of the exact value a certified result lies on.
enum class BoundSide { lower, upper };

/// Options of the certified convolution.
struct ConvolutionOptions {
  /// F: masses are held as multiples of 2^−F during the product (8 ≤ F ≤ 4096). The default 60
  /// keeps each scaled mass a single machine word (FLINT's inline integers, no allocation) and
  /// the error of one product below 2^−59 of the total mass.
  unsigned fraction_bits = 60;
};

/// c with c_j ≥ Σ_i a_i b_{j−i} (BoundSide::upper) or ≤ it (BoundSide::lower) for every j, for
/// vectors of finite non-negative doubles (|c| = |a| + |b| − 1; empty if either is empty).
/// Cost: one FLINT integer-polynomial product, O(n log n) in the length for fixed F.
/// Throws exactdp::Error (field "masses") on a negative, infinite or NaN entry.
std::vector<double> certified_convolution(const std::vector<double>& a, const std::vector<double>& b, BoundSide side,
                                          const ConvolutionOptions& options = {});

/// certified_convolution(a, a, side) computed with one squaring (about half the work).
std::vector<double> certified_square(const std::vector<double>& a, BoundSide side, const ConvolutionOptions& options = {});

/// Enclosures of the coefficients of A(z)^k, A(z) = Σ_i a_i z^i with non-negative coefficients
/// given by enclosures (k ≥ 1). Two integer polynomials are raised to the k-th power by repeated
/// squaring: one from the lower ends rounded down, one from the upper ends rounded up, each
/// rescaled after every product with the rounding of its side, so coefficient j of the result
/// encloses the true one for every choice of the a_i in their enclosures. The scale is 2^−F with
/// F = max(fraction_bits, precision + 32), an absolute error per coefficient of about k·2^−F
/// (relative accuracy is kept only for coefficients well above that). A coefficient that is
/// structurally zero (no product of nonzero a_i reaches it) is the exact point 0.
/// Throws exactdp::Error (field "coefficients") on a negative lower end or an infinite end.
std::vector<Interval> certified_power(const std::vector<Interval>& coefficients, unsigned long k, Precision precision,
                                      const ConvolutionOptions& options = {});

}  // namespace exactdp
