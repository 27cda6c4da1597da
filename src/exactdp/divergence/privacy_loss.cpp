#include "exactdp/divergence/privacy_loss.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {
namespace {

ExtendedRational ratio_of(const Rational& p, const Rational& q) {
  if (sgn(q) == 0) return ExtendedRational::infinity();
  return ExtendedRational(Rational(p / q));
}

}  // namespace

PrivacyLoss PrivacyLoss::from_masses(const std::vector<std::pair<Rational, Rational>>& masses,
                                     const std::string& context) {
  Rational sp, sq;
  std::vector<LossAtom> atoms;
  atoms.reserve(masses.size());
  for (std::size_t i = 0; i < masses.size(); ++i) {
    const auto& [p, q] = masses[i];
    if (sgn(p) < 0) throw Error(context, "P[" + std::to_string(i) + "]", to_string(p), "masses must be non-negative");
    if (sgn(q) < 0) throw Error(context, "Q[" + std::to_string(i) + "]", to_string(q), "masses must be non-negative");
    sp += p;
    sq += q;
    if (sgn(p) == 0 && sgn(q) == 0) continue;
    atoms.push_back({ratio_of(p, q), p, q});
  }
  if (sp != 1) throw Error(context, "P total", to_string(sp), "masses must sum to exactly 1");
  if (sq != 1) throw Error(context, "Q total", to_string(sq), "masses must sum to exactly 1");
  return normalise(std::move(atoms));
}

PrivacyLoss PrivacyLoss::identity() { return PrivacyLoss({{ExtendedRational(1), Rational(1), Rational(1)}}); }

PrivacyLoss PrivacyLoss::normalise(std::vector<LossAtom> atoms) {
  std::sort(atoms.begin(), atoms.end(), [](const LossAtom& a, const LossAtom& b) { return a.ratio < b.ratio; });
  std::vector<LossAtom> merged;
  merged.reserve(atoms.size());
  for (auto& a : atoms) {
    if (!merged.empty() && merged.back().ratio == a.ratio) {
      merged.back().p += a.p;
      merged.back().q += a.q;
    } else {
      merged.push_back(std::move(a));
    }
  }
  return PrivacyLoss(std::move(merged));
}

PrivacyLoss PrivacyLoss::swapped() const {
  std::vector<LossAtom> out;
  out.reserve(atoms_.size());
  for (auto it = atoms_.rbegin(); it != atoms_.rend(); ++it) out.push_back({ratio_of(it->q, it->p), it->q, it->p});
  return PrivacyLoss(std::move(out));  // ratios reverse their order under inversion: already sorted
}

PrivacyLoss compose(const PrivacyLoss& a, const PrivacyLoss& b) {
  std::vector<LossAtom> out;
  out.reserve(a.atoms_.size() * b.atoms_.size());
  for (const auto& x : a.atoms_)
    for (const auto& y : b.atoms_) {
      Rational p = x.p * y.p, q = x.q * y.q;
      if (sgn(p) == 0 && sgn(q) == 0) continue;  // 0·∞: an outcome impossible in both worlds
      out.push_back({x.ratio * y.ratio, std::move(p), std::move(q)});
    }
  return PrivacyLoss::normalise(std::move(out));
}

PrivacyLoss PrivacyLoss::self_compose(unsigned long k) const {
  PrivacyLoss result = identity(), base = *this;
  while (k) {
    if (k & 1) result = compose(result, base);
    k >>= 1;
    if (k) base = compose(base, base);
  }
  return result;
}

}  // namespace exactdp
