#include "exactdp/divergence/renyi.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"

namespace exactdp {
namespace {

bool catastrophic(const PrivacyLoss& loss) {
  return !loss.atoms().empty() && loss.atoms().back().ratio.is_infinite();
}

void require_alpha(const Rational& alpha) {
  if (alpha <= 1) throw Error("", "alpha", to_string(alpha), "the Renyi order must exceed 1");
}

}  // namespace

ExtendedRational renyi_moment(const PrivacyLoss& loss, unsigned long alpha) {
  if (alpha < 2) throw Error("", "alpha", std::to_string(alpha), "the integer Renyi order must be at least 2");
  if (catastrophic(loss)) return ExtendedRational::infinity();
  ExtendedRational s;
  for (const auto& a : loss.atoms()) s = s + renyi_term(a.p, a.q, alpha);  // functionals.hpp
  return s;
}

Interval renyi_moment(const PrivacyLoss& loss, const Rational& alpha, Precision precision) {
  require_alpha(alpha);
  if (catastrophic(loss)) return Interval::infinity(precision);
  Interval s = Interval::zero(precision);
  for (const auto& a : loss.atoms()) {
    if (sgn(a.p) == 0) continue;
    s += renyi_term(a.p, a.q, alpha, precision);  // functionals.hpp
  }
  return s;
}

Interval renyi_divergence(const PrivacyLoss& loss, const Rational& alpha, Precision precision) {
  require_alpha(alpha);
  if (catastrophic(loss)) return Interval::infinity(precision);
  Interval m = renyi_moment(loss, alpha, precision + 8);
  if (m.contains(Rational(1)) && m.lower() == 1 && m.upper() == 1) return Interval(Rational(0), precision);
  // Φ_α ≥ 1 always (Jensen); clip the lower end at 1 so rounding cannot make log negative
  Interval lo_one = max(m, Interval(Rational(1), precision + 8));
  Interval r = log(lo_one) / Interval(Rational(alpha - 1), precision + 8);
  Interval out = Interval::zero(precision);
  mpfi_set(out.get(), r.get());
  return out;
}

ExtendedRational max_ratio(const PrivacyLoss& loss) {
  // atoms are sorted by ratio; the largest with P > 0 is the last one (ratio 0 atoms have P = 0)
  return loss.atoms().back().ratio;
}

Interval kl_divergence(const PrivacyLoss& loss, Precision precision) {
  if (catastrophic(loss)) return Interval::infinity(precision);
  Interval s = Interval::zero(precision + 8);
  for (const auto& a : loss.atoms()) {
    if (sgn(a.p) == 0 || a.ratio.value() == 1) continue;
    s += Interval(a.p, precision + 8) * log(Interval(a.ratio.value(), precision + 8));
  }
  Interval out = Interval::zero(precision);
  mpfi_set(out.get(), s.get());
  return max(out, Interval::zero(precision));  // KL ≥ 0 (Gibbs)
}

}  // namespace exactdp
