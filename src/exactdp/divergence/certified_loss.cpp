// The steps of the privacy-loss distribution that depend on certified masses and ratios c·e^s
// (LossTraits<Interval>, divergence/privacy_loss.hpp): ordering ratios, validation, and the
// k-th power of a loss whose ratios lie on a lattice e^{e·g}.
#include "exactdp/divergence/privacy_loss.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/numeric/certified_convolution.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <utility>

namespace exactdp {
namespace {

using Traits = LossTraits<Interval>;

bool is_exact_zero(const Interval& x) {
  return x.lower_is_finite() && x.upper_is_finite() && x.lower() == 0 && x.upper() == 0;
}
bool certainly_negative(const Interval& x) { return x.upper_is_finite() && x.upper() < 0; }

int sign_of_kind(const SymbolicRatio& r) { return r.is_zero() ? 0 : r.is_infinite() ? 2 : 1; }

}  // namespace

Precision Traits::precision_of(const std::vector<CertifiedLossAtom>& atoms) {
  Precision p = min_precision;
  for (const auto& a : atoms) p = std::max({p, a.p.precision(), a.q.precision()});
  return p;
}

/// Sorts merged atoms by numeric ratio. A 128-bit enclosure of ln(ratio) settles most pairs at
/// once; pairs whose enclosures overlap are decided exactly by decide_ratio_less().
void Traits::sort_by_ratio(std::vector<CertifiedLossAtom>& atoms, const std::string& context) {
  std::vector<std::pair<Interval, std::size_t>> keyed;
  keyed.reserve(atoms.size());
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    const auto& r = atoms[i].ratio;
    keyed.emplace_back(r.is_positive_finite()
                           ? log(Interval(r.coefficient(), default_precision)) + Interval(r.exponent(), default_precision)
                           : Interval::zero(default_precision),
                       i);
  }
  auto less = [&](const std::pair<Interval, std::size_t>& x, const std::pair<Interval, std::size_t>& y) {
    const auto &a = atoms[x.second].ratio, &b = atoms[y.second].ratio;
    if (sign_of_kind(a) != sign_of_kind(b) || !a.is_positive_finite()) return sign_of_kind(a) < sign_of_kind(b);
    if (x.first.upper() < y.first.lower()) return true;
    if (y.first.upper() < x.first.lower()) return false;
    const Decision d = decide_ratio_less(a, b);
    if (!d.decided())
      throw Error(context, "ratio", a.to_string() + " vs " + b.to_string(),
                  "the order of two likelihood ratios is " + to_string(d));
    return d.outcome == Tri::yes;
  };
  std::sort(keyed.begin(), keyed.end(), less);
  std::vector<CertifiedLossAtom> sorted;
  sorted.reserve(atoms.size());
  for (const auto& k : keyed) sorted.push_back(std::move(atoms[k.second]));
  atoms = std::move(sorted);
}

std::vector<CertifiedLossAtom> Traits::validated(std::vector<CertifiedLossAtom> atoms, const std::string& context) {
  std::vector<CertifiedLossAtom> kept;
  kept.reserve(atoms.size());
  Precision precision = min_precision;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    auto& a = atoms[i];
    const std::string field = "atom " + std::to_string(i);
    if (certainly_negative(a.p) || certainly_negative(a.q))
      throw Error(context, field, a.p.to_string() + ", " + a.q.to_string(), "masses must be non-negative");
    if (a.ratio.is_zero() && !is_exact_zero(a.p))
      throw Error(context, field, a.p.to_string(), "an atom of ratio 0 must have P-mass exactly 0");
    if (a.ratio.is_infinite() && !is_exact_zero(a.q))
      throw Error(context, field, a.q.to_string(), "an atom of ratio +inf must have Q-mass exactly 0");
    precision = std::max({precision, a.p.precision(), a.q.precision()});
    if (is_exact_zero(a.p) && is_exact_zero(a.q)) continue;
    if (a.ratio.is_positive_finite() && (is_exact_zero(a.p) || is_exact_zero(a.q)))
      throw Error(context, field, a.ratio.to_string(),
                  "an atom of finite positive ratio must have positive mass in both worlds");
    kept.push_back(std::move(a));
  }
  Interval total_p = Interval::zero(precision), total_q = Interval::zero(precision);
  for (const auto& a : kept) {
    total_p += a.p;
    total_q += a.q;
  }
  if (!total_p.contains(Rational(1)))
    throw Error(context, "total P", total_p.to_string(), "certified masses must sum to 1");
  if (!total_q.contains(Rational(1)))
    throw Error(context, "total Q", total_q.to_string(), "certified masses must sum to 1");
  return kept;
}

namespace {

/// The exponent lattice of a certified loss: every finite ratio is e^{index·g} (coefficient 1).
struct ExponentLattice {
  Rational g;
  long min_index = 0, step = 1;
  std::vector<long> index;  // per finite atom, in atom order
};

std::optional<ExponentLattice> exponent_lattice(const std::vector<CertifiedLossAtom>& atoms) {
  ExponentLattice lat;
  for (const auto& a : atoms) {
    if (!a.ratio.is_positive_finite()) continue;
    if (a.ratio.coefficient() != 1) return std::nullopt;
    const Rational s = abs(a.ratio.exponent());
    if (sgn(s) == 0) continue;
    if (sgn(lat.g) == 0) {
      lat.g = s;
    } else {
      mpz_class num, den;
      mpz_gcd(num.get_mpz_t(), lat.g.get_num_mpz_t(), s.get_num_mpz_t());
      mpz_lcm(den.get_mpz_t(), lat.g.get_den_mpz_t(), s.get_den_mpz_t());
      lat.g = Rational(num, den);
      lat.g.canonicalize();
    }
  }
  if (sgn(lat.g) == 0) lat.g = 1;
  bool first = true;
  for (const auto& a : atoms) {
    if (!a.ratio.is_positive_finite()) continue;
    const Rational e = a.ratio.exponent() / lat.g;
    if (e.get_den() != 1 || !e.get_num().fits_slong_p()) return std::nullopt;
    const long i = e.get_num().get_si();
    lat.index.push_back(i);
    lat.min_index = first ? i : std::min(lat.min_index, i);
    first = false;
  }
  if (lat.index.empty()) return std::nullopt;
  long step = 0;
  for (long i : lat.index) step = std::gcd(step, i - lat.min_index);
  lat.step = step == 0 ? 1 : step;
  return lat;
}

/// The tighter of two enclosures of one number (the first if they do not meet, which exact
/// arithmetic excludes; both are valid).
Interval intersect(const Interval& a, const Interval& b) {
  Interval out = a;
  mpfi_intersect(out.get(), a.get(), b.get());
  if (mpfi_is_empty(out.get())) return a;
  return out;
}

}  // namespace

std::optional<std::vector<CertifiedLossAtom>> Traits::lattice_power(const std::vector<CertifiedLossAtom>& atoms,
                                                                   unsigned long k) {
  const auto lat = exponent_lattice(atoms);
  if (!lat) return std::nullopt;
  const Precision prec = precision_of(atoms);
  long max_index = lat->min_index;
  for (long i : lat->index) max_index = std::max(max_index, i);
  const std::size_t width = static_cast<std::size_t>((max_index - lat->min_index) / lat->step) + 1;
  std::vector<Interval> P(width, Interval::zero(prec)), Q(width, Interval::zero(prec));
  Interval finite_p = Interval::zero(prec), finite_q = Interval::zero(prec);
  bool has_infinite = false, has_zero = false;
  std::size_t n = 0;
  for (const auto& a : atoms) {
    if (a.ratio.is_infinite()) has_infinite = true;
    if (a.ratio.is_zero()) has_zero = true;
    if (!a.ratio.is_positive_finite()) continue;
    const std::size_t j = static_cast<std::size_t>((lat->index[n++] - lat->min_index) / lat->step);
    P[j] += a.p;
    Q[j] += a.q;
    finite_p += a.p;
    finite_q += a.q;
  }
  // P-masses of the finite k-tuples are the coefficients of (Σ p_j z^j)^k, Q-masses likewise; an
  // outcome has a finite positive ratio iff all its factors have
  const std::vector<Interval> Pk = certified_power(P, k, prec), Qk = certified_power(Q, k, prec);
  std::vector<CertifiedLossAtom> out;
  out.reserve(Pk.size() + 2);
  const Interval one(1L, prec);
  if (has_zero) out.push_back({SymbolicRatio::zero(), Interval::zero(prec), one - pow(finite_q, static_cast<long>(k))});
  const Rational s0 = lat->g * Rational(static_cast<long>(k) * lat->min_index), ds = lat->g * Rational(lat->step);
  const Interval growth = exp(Interval(ds, prec));
  Interval ratio = exp(Interval(s0, prec));  // e^{s_j}, s_j = s0 + j·ds
  for (std::size_t j = 0; j < std::max(Pk.size(), Qk.size()); ++j, ratio *= growth) {
    const Interval& pj = j < Pk.size() ? Pk[j] : Interval::zero(prec);
    const Interval& qj = j < Qk.size() ? Qk[j] : Interval::zero(prec);
    if (pj.upper() == 0 && qj.upper() == 0) continue;  // structurally absent
    out.push_back({SymbolicRatio::exponential(1, s0 + ds * Rational(static_cast<long>(j))), intersect(pj, qj * ratio),
                   intersect(qj, pj / ratio)});
  }
  if (has_infinite) out.push_back({SymbolicRatio::infinity(), one - pow(finite_p, static_cast<long>(k)), Interval::zero(prec)});
  return out;  // sorted by s_j (g > 0), distinct ratios
}

}  // namespace exactdp
