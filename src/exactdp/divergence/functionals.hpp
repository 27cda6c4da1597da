/// @file
/// The divergences of a pair written once over the mass type: each is a sum over outcomes (or
/// over the atoms of a privacy-loss distribution) of one term, (p − λq)⁺ for the hockey-stick
/// divergence and p^α q^{1−α} for the Rényi moment (THEOREMS.md A.1). The mass type is an exact
/// Rational (verdicts), or a certified Interval (masses or parameters that are transcendental);
/// MassTraits says what each type needs. Every routine that evaluates one of these functionals —
/// the PLD of exact pairs (hockey_stick.hpp, renyi.hpp), the PLD with certified masses
/// (divergence/privacy_loss.hpp), the leaves of the adversary game (game/search.hpp) — calls
/// the term defined here, so a formula has one home. The inverse of the hockey-stick divergence,
/// the least λ with H_λ ≤ δ, is here too (least_lambda_by_suffixes), for the certified PLD and the
/// grid laws of the fast composition.
#pragma once

#include "exactdp/numeric/extended_rational.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <mpfi.h>

namespace exactdp {

/// What the divergences need of a mass type.
template <class Mass>
struct MassTraits;

/// Exact rationals: the positive part is exact.
template <>
struct MassTraits<Rational> {
  static Rational positive_part(const Rational& x) { return sgn(x) > 0 ? x : Rational(0); }
  static Rational zero_like(const Rational&) { return Rational(0); }
};

/// Certified intervals: the positive part of an enclosure is the enclosure of the positive parts.
template <>
struct MassTraits<Interval> {
  static Interval positive_part(const Interval& x) { return max(x, Interval::zero(x.precision())); }
  static Interval zero_like(const Interval& x) { return Interval::zero(x.precision()); }
};

/// (p − λq)⁺: the term of one outcome (or atom) in H_λ(P‖Q) = Σ_y (P(y) − λQ(y))⁺ (THEOREMS.md
/// A.1). An atom of ratio +∞ (q = 0) contributes p, one of ratio 0 (p = 0) nothing.
template <class Mass>
Mass hockey_stick_term(const Mass& p, const Mass& q, const Mass& lambda) {
  return MassTraits<Mass>::positive_part(Mass(p - lambda * q));
}

/// H_λ(P‖Q) = Σ (p − λq)⁺ over a range of atoms with members `p` and `q` of type Mass.
template <class Mass, class Atoms>
Mass hockey_stick_sum(const Atoms& atoms, const Mass& lambda) {
  Mass h = MassTraits<Mass>::zero_like(lambda);
  for (const auto& a : atoms) h += hockey_stick_term<Mass>(a.p, a.q, lambda);
  return h;
}

/// p^α q^{1−α} for an integer order α ≥ 2, exactly: 0 when p = 0, +∞ when q = 0 < p (the term of
/// the Rényi moment Φ_α(P‖Q) = Σ_{P(y)>0} P(y)^α Q(y)^{1−α}; moments multiply under products).
inline ExtendedRational renyi_term(const Rational& p, const Rational& q, unsigned long alpha) {
  if (sgn(p) == 0) return ExtendedRational();
  if (sgn(q) == 0) return ExtendedRational::infinity();
  return ExtendedRational(Rational(pow(p, alpha) / pow(q, alpha - 1)));
}

/// p^α q^{1−α} for exact masses p, q > 0 and a real order α > 1 given exactly, certified as
/// p·exp((α − 1)·ln(p/q)) at @p precision (exactly p when p = q).
inline Interval renyi_term(const Rational& p, const Rational& q, const Rational& alpha, Precision precision) {
  const Rational ratio = p / q;
  if (ratio == 1) return Interval(p, precision);
  return Interval(p, precision) * exp(Interval(Rational(alpha - 1), precision) * log(Interval(ratio, precision)));
}

/// p^α q^{1−α} for certified masses p ≥ 0, q > 0 (enclosures) and a rational order α > 1: by
/// integer powers when α is an integer (q may then touch 0 only if p is exactly 0), else by real
/// powers.
inline Interval renyi_term(const Interval& p, const Interval& q, const Rational& alpha) {
  if (alpha.get_den() == 1 && alpha.get_num().fits_slong_p()) {
    const long a = alpha.get_num().get_si();
    return pow(p, a) * pow(q, 1 - a);
  }
  const Precision prec = std::max(p.precision(), q.precision());
  return pow(p, Interval(alpha, prec)) * pow(q, Interval(Rational(1 - alpha), prec));
}

/// The least λ ≥ 1 with H_λ(P‖Q) ≤ δ, certified, from the atoms of one direction (P, Q) taken from
/// the largest likelihood ratio down (THEOREMS.md A.1). Since H_λ(P‖Q) = max(0, max over suffixes
/// S of the ratio order of P(S) − λQ(S)), the least λ is max(1, max_S (P(S) − δ)/Q(S)) over the
/// suffixes with Q(S) > 0, and +∞ when the catastrophic mass P(Q = 0) exceeds δ.
///
/// @p catastrophic encloses P(Q = 0); @p next(p, q) assigns the enclosed masses of the next atom
/// of finite ratio and returns false after the last. Returns the point +∞ when the catastrophic
/// mass certainly exceeds δ, and an interval with upper end +∞ when it cannot be told apart from δ
/// or a Q-mass that matters is not certainly positive (underflow) at @p precision. Written once for
/// the PLD with certified masses (CertifiedLoss::least_epsilon) and the grid laws of the fast
/// composition (compose/fast_convolution.hpp, grid_least_epsilon).
template <class Next>
Interval least_lambda_by_suffixes(const Interval& catastrophic, const Rational& delta, Precision precision, Next&& next) {
  const Interval d(delta, precision);
  Interval p_sum = catastrophic, q_sum = Interval::zero(precision), excess = catastrophic - d;
  if (mpfi_is_strictly_pos(excess.get())) return Interval::infinity(precision);
  const bool catastrophic_undecided = !(catastrophic.upper_is_finite() && catastrophic.upper() <= delta);
  Interval best(1L, precision), p = Interval::zero(precision), q = Interval::zero(precision);
  while (next(p, q)) {
    p_sum += p;
    q_sum += q;
    excess = p_sum;
    excess -= d;
    // a suffix with P(S) ≤ δ gives (P(S) − δ)/Q(S) ≤ 0 < best: it cannot matter, whatever Q(S) is
    if (mpfi_is_nonpos(excess.get())) continue;
    if (!mpfi_is_strictly_pos(q_sum.get())) return Interval::at_least(best.lower(), precision);  // underflowed Q-mass
    excess /= q_sum;
    // best = max(best, excess), endpoint by endpoint, rounded outward into best's precision
    mpfr_max(&best.get()->left, &best.get()->left, &excess.get()->left, MPFR_RNDD);
    mpfr_max(&best.get()->right, &best.get()->right, &excess.get()->right, MPFR_RNDU);
  }
  if (catastrophic_undecided) return Interval::at_least(best.lower(), precision);
  return best;
}

}  // namespace exactdp
