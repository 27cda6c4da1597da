#include "exactdp/divergence/hockey_stick.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"

namespace exactdp {

std::pair<Rational, Rational> hockey_stick_event(const PrivacyLoss& loss, const Rational& lambda) {
  if (sgn(lambda) < 0) throw Error("", "lambda", to_string(lambda), "the hockey-stick parameter must be non-negative");
  Rational p, q;
  const ExtendedRational l(lambda);
  // atoms are sorted by ratio: S* is a suffix
  const auto& atoms = loss.atoms();
  for (auto it = atoms.rbegin(); it != atoms.rend() && it->ratio > l; ++it) {
    p += it->p;
    q += it->q;
  }
  return {p, q};
}

Rational hockey_stick(const PrivacyLoss& loss, const Rational& lambda) { return loss.hockey_stick(lambda); }

PiecewiseLinear directional_profile(const PrivacyLoss& loss) {
  // Walking the ratios downwards, the active set grows by one atom at each ratio r:
  // on [r_{j}, r_{j+1}) the value is P(S) − λ·Q(S) with S = atoms of ratio > λ.
  const auto& atoms = loss.atoms();
  std::vector<LinearPiece> pieces;
  RationalSum p, q;
  // Pieces are built from the right (large λ) to the left, then reversed.
  std::vector<LinearPiece> rev;
  rev.reserve(atoms.size() + 1);
  for (auto it = atoms.rbegin(); it != atoms.rend(); ++it) {
    if (sgn(it->p) == 0) continue;  // ratio 0: (0 − λq)⁺ = 0 for every λ ≥ 0
    if (it->ratio.is_finite()) rev.push_back({it->ratio.value(), p.value(), Rational(-q.value())});  // inactive for λ ≥ r
    p.add(it->p);
    q.add(it->q);
  }
  rev.push_back({Rational(0), p.value(), Rational(-q.value())});
  pieces.assign(std::make_move_iterator(rev.rbegin()), std::make_move_iterator(rev.rend()));
  // continuity holds by construction: at λ = r both sides equal P(S) − r·Q(S) since the
  // entering atom contributes p − r·q = 0
  return PiecewiseLinear::from_trusted_pieces(std::move(pieces));
}

PrivacyProfile::PrivacyProfile(const PrivacyLoss& loss)
    : forward_(directional_profile(loss)), backward_(directional_profile(loss.swapped())) {}

PrivacyProfile::PrivacyProfile(PiecewiseLinear forward, PiecewiseLinear backward)
    : forward_(std::move(forward)), backward_(std::move(backward)) {}

Rational PrivacyProfile::delta(const Rational& lambda) const {
  if (sgn(lambda) < 0) throw Error("", "lambda", to_string(lambda), "must be non-negative");
  return std::max(forward_(lambda), backward_(lambda));
}

Interval PrivacyProfile::delta(const Interval& lambda) const { return max(forward_(lambda), backward_(lambda)); }

ExtendedRational PrivacyProfile::least_lambda(const Rational& delta) const {
  if (sgn(delta) < 0 || delta > 1) throw Error("", "delta", to_string(delta), "delta must lie in [0, 1]");
  return std::max(forward_.least_argument_at_most(delta, 1), backward_.least_argument_at_most(delta, 1));
}

Interval PrivacyProfile::least_epsilon(const Rational& delta, Precision precision) const {
  ExtendedRational l = least_lambda(delta);
  if (l.is_infinite())
    throw Error("", "delta", to_string(delta), "no finite epsilon: delta is below the catastrophic mass");
  if (l.value() == 1) return Interval(Rational(0), precision);
  return log(Interval(l.value(), precision));
}

PrivacyProfile max(const PrivacyProfile& a, const PrivacyProfile& b) {
  return PrivacyProfile(max(a.forward_, b.forward_), max(a.backward_, b.backward_));
}

}  // namespace exactdp
