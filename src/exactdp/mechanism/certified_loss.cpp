#include "exactdp/mechanism/certified_loss.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"
#include "exactdp/numeric/certified_convolution.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <utility>

namespace exactdp {
namespace {

bool is_exact_zero(const Interval& x) {
  return x.lower_is_finite() && x.upper_is_finite() && x.lower() == 0 && x.upper() == 0;
}
bool certainly_negative(const Interval& x) { return x.upper_is_finite() && x.upper() < 0; }
bool certainly_positive(const Interval& x) { return x.lower_is_finite() && x.lower() > 0; }

int sign_of_kind(const SymbolicRatio& r) { return r.is_zero() ? 0 : r.is_infinite() ? 2 : 1; }

/// Sorts merged atoms by numeric ratio. A 128-bit enclosure of ln(ratio) settles most pairs at
/// once; pairs whose enclosures overlap are decided exactly by decide_ratio_less().
void sort_by_ratio(std::vector<CertifiedLossAtom>& atoms, const std::string& context) {
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

using AtomMap = std::map<SymbolicRatio, std::pair<Interval, Interval>, SymbolicRatio::StorageLess>;

std::vector<CertifiedLossAtom> atoms_of(AtomMap&& merged) {
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(merged.size());
  for (auto& [r, pq] : merged) atoms.push_back({r, std::move(pq.first), std::move(pq.second)});
  return atoms;
}

void add_to(AtomMap& merged, const SymbolicRatio& r, const Interval& p, const Interval& q) {
  auto [it, inserted] = merged.try_emplace(r, p, q);
  if (!inserted) {
    it->second.first += p;
    it->second.second += q;
  }
}

}  // namespace

// ------------------------------------------------------------------ SymbolicRatio

SymbolicRatio SymbolicRatio::zero() {
  SymbolicRatio r;
  r.kind_ = Kind::zero;
  r.c_ = 0;
  return r;
}

SymbolicRatio SymbolicRatio::infinity() {
  SymbolicRatio r;
  r.kind_ = Kind::infinite;
  r.c_ = 0;
  return r;
}

SymbolicRatio SymbolicRatio::exponential(const Rational& c, const Rational& s) {
  if (sgn(c) <= 0) throw Error("SymbolicRatio", "c", exactdp::to_string(c), "the coefficient of c*e^s must be positive");
  SymbolicRatio r;
  r.c_ = c;
  r.s_ = s;
  return r;
}

SymbolicRatio SymbolicRatio::of(const ExtendedRational& ratio) {
  if (ratio.is_infinite()) return infinity();
  if (sgn(ratio.value()) == 0) return zero();
  return exponential(ratio.value());
}

Interval SymbolicRatio::enclosure(Precision precision) const {
  switch (kind_) {
    case Kind::zero: return Interval::zero(precision);
    case Kind::infinite: return Interval::infinity(precision);
    case Kind::finite: break;
  }
  if (sgn(s_) == 0) return Interval(c_, precision);
  return Interval(c_, precision) * exp(Interval(s_, precision));
}

SymbolicRatio operator*(const SymbolicRatio& a, const SymbolicRatio& b) {
  if ((a.is_zero() && b.is_infinite()) || (a.is_infinite() && b.is_zero()))
    throw Error("SymbolicRatio", "product", "0*inf", "the product of the ratios 0 and +inf is undefined");
  if (a.is_zero() || b.is_zero()) return SymbolicRatio::zero();
  if (a.is_infinite() || b.is_infinite()) return SymbolicRatio::infinity();
  return SymbolicRatio::exponential(a.c_ * b.c_, a.s_ + b.s_);
}

bool SymbolicRatio::StorageLess::operator()(const SymbolicRatio& a, const SymbolicRatio& b) const {
  if (a.kind_ != b.kind_) return a.kind_ < b.kind_;
  if (a.c_ != b.c_) return a.c_ < b.c_;
  return a.s_ < b.s_;
}

std::string SymbolicRatio::to_string() const {
  if (is_zero()) return "0";
  if (is_infinite()) return "inf";
  if (sgn(s_) == 0) return exactdp::to_string(c_);
  std::string e = "e^(" + exactdp::to_string(s_) + ")";
  return c_ == 1 ? e : exactdp::to_string(c_) + "*" + e;
}

Decision decide_ratio_less(const SymbolicRatio& a, const SymbolicRatio& b, const DecideOptions& options) {
  const int ka = sign_of_kind(a), kb = sign_of_kind(b);
  if (ka != kb || ka != 1) return Decision{to_tri(ka < kb), 0};
  const Rational &ca = a.coefficient(), &cb = b.coefficient(), &sa = a.exponent(), &sb = b.exponent();
  if (ca == cb) return Decision{to_tri(sa < sb), 0};
  if (sa == sb) return Decision{to_tri(ca < cb), 0};
  if (ca <= cb && sa <= sb) return Decision{Tri::yes, 0};  // both factors no larger, one smaller
  if (ca >= cb && sa >= sb) return Decision{Tri::no, 0};
  // c_a e^{s_a} < c_b e^{s_b} ⇔ ln(c_a/c_b) < s_b − s_a (never equal: Lindemann–Weierstrass)
  return decide_log(Rational(ca / cb), Relation::less, Rational(sb - sa), options);
}

// ------------------------------------------------------------------ CertifiedLoss

CertifiedLoss CertifiedLoss::from_exact(const PrivacyLoss& loss, Precision precision) {
  std::vector<CertifiedLossAtom> atoms;
  atoms.reserve(loss.size());
  for (const auto& a : loss.atoms())
    atoms.push_back({SymbolicRatio::of(a.ratio), Interval(a.p, precision), Interval(a.q, precision)});
  return CertifiedLoss(std::move(atoms));  // already sorted by ratio, merged and validated
}

CertifiedLoss CertifiedLoss::from_atoms(std::vector<CertifiedLossAtom> atoms, const std::string& context) {
  AtomMap merged;
  Precision precision = min_precision;
  for (std::size_t i = 0; i < atoms.size(); ++i) {
    const auto& a = atoms[i];
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
    add_to(merged, a.ratio, a.p, a.q);
  }
  Interval total_p = Interval::zero(precision), total_q = Interval::zero(precision);
  for (const auto& [r, pq] : merged) {
    total_p += pq.first;
    total_q += pq.second;
  }
  if (!total_p.contains(Rational(1)))
    throw Error(context, "total P", total_p.to_string(), "certified masses must sum to 1");
  if (!total_q.contains(Rational(1)))
    throw Error(context, "total Q", total_q.to_string(), "certified masses must sum to 1");
  std::vector<CertifiedLossAtom> result = atoms_of(std::move(merged));
  sort_by_ratio(result, context);
  return CertifiedLoss(std::move(result));
}

Precision CertifiedLoss::precision() const {
  Precision p = min_precision;
  for (const auto& a : atoms_) p = std::max({p, a.p.precision(), a.q.precision()});
  return p;
}

CertifiedLoss CertifiedLoss::swapped() const {
  std::vector<CertifiedLossAtom> out;
  out.reserve(atoms_.size());
  // 1/(c·e^s) = (1/c)·e^{−s}: the order reverses
  for (auto it = atoms_.rbegin(); it != atoms_.rend(); ++it) {
    const SymbolicRatio& r = it->ratio;
    SymbolicRatio inv = r.is_zero()       ? SymbolicRatio::infinity()
                        : r.is_infinite() ? SymbolicRatio::zero()
                                          : SymbolicRatio::exponential(1 / r.coefficient(), -r.exponent());
    out.push_back({inv, it->q, it->p});
  }
  return CertifiedLoss(std::move(out));
}

CertifiedLoss compose(const CertifiedLoss& a, const CertifiedLoss& b) {
  AtomMap merged;
  for (const auto& x : a.atoms_)
    for (const auto& y : b.atoms_) {
      if ((x.ratio.is_zero() && y.ratio.is_infinite()) || (x.ratio.is_infinite() && y.ratio.is_zero()))
        continue;  // P- and Q-mass both 0: not an outcome of the product pair
      add_to(merged, x.ratio * y.ratio, x.p * y.p, x.q * y.q);
    }
  std::vector<CertifiedLossAtom> atoms = atoms_of(std::move(merged));
  sort_by_ratio(atoms, "composition");
  return CertifiedLoss(std::move(atoms));
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

CertifiedLoss CertifiedLoss::self_compose(unsigned long k) const {
  const auto lat = k >= 2 ? exponent_lattice(atoms_) : std::nullopt;
  if (!lat) return self_compose_by_squaring(k);
  const Precision prec = precision();
  long max_index = lat->min_index;
  for (long i : lat->index) max_index = std::max(max_index, i);
  const std::size_t width = static_cast<std::size_t>((max_index - lat->min_index) / lat->step) + 1;
  std::vector<Interval> P(width, Interval::zero(prec)), Q(width, Interval::zero(prec));
  Interval finite_p = Interval::zero(prec), finite_q = Interval::zero(prec);
  bool has_infinite = false, has_zero = false;
  std::size_t n = 0;
  for (const auto& a : atoms_) {
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
  return CertifiedLoss(std::move(out));  // sorted by s_j (g > 0), distinct ratios
}

CertifiedLoss CertifiedLoss::self_compose_by_squaring(unsigned long k) const {
  const Precision p = precision();
  std::vector<CertifiedLossAtom> identity;
  identity.push_back({SymbolicRatio(), Interval(1L, p), Interval(1L, p)});
  CertifiedLoss result(std::move(identity));  // the identity pair: one atom of ratio 1
  CertifiedLoss base = *this;
  for (; k > 0; k >>= 1) {
    if (k & 1UL) result = compose(result, base);
    if (k > 1) base = compose(base, base);
  }
  return result;
}

Interval CertifiedLoss::hockey_stick(const Interval& lambda) const {
  if (!lambda.lower_is_finite() || lambda.lower() < 0)
    throw Error("CertifiedLoss::hockey_stick", "lambda", lambda.to_string(), "lambda must be non-negative");
  Interval h = Interval::zero(std::max(precision(), lambda.precision()));
  h += hockey_stick_sum(atoms_, lambda);  // Σ (p − λq)⁺ (divergence/functionals.hpp)
  return min(h, Interval(1L, h.precision()));
}

Interval CertifiedLoss::delta(const Interval& lambda) const {
  return max(hockey_stick(lambda), swapped().hockey_stick(lambda));
}

Interval CertifiedLoss::delta_at_epsilon(const Interval& epsilon) const {
  if (!epsilon.lower_is_finite() || epsilon.lower() < 0)
    throw Error("CertifiedLoss::delta_at_epsilon", "epsilon", epsilon.to_string(), "epsilon must be non-negative");
  return delta(exp(epsilon));
}

Interval CertifiedLoss::least_lambda_one_direction(const Rational& delta) const {
  const Precision prec = precision();
  Interval p_sum = Interval::zero(prec), q_sum = Interval::zero(prec);
  auto it = atoms_.rbegin();
  if (it != atoms_.rend() && it->ratio.is_infinite()) {
    p_sum = it->p;  // the catastrophic mass P(Q = 0): H_λ ≥ it for every λ
    if (certainly_positive(p_sum - Interval(delta, prec))) return Interval::infinity(prec);
    ++it;
  }
  const bool catastrophic_undecided = !(p_sum.upper() <= delta);
  Interval best(1L, prec);
  for (; it != atoms_.rend(); ++it) {
    p_sum += it->p;
    q_sum += it->q;
    // a suffix with P(S) ≤ δ gives (P(S) − δ)/Q(S) ≤ 0 < best: it cannot matter, whatever Q(S) is
    const Interval excess = p_sum - Interval(delta, prec);
    if (excess.upper_is_finite() && !(excess.upper() > 0)) continue;
    if (!certainly_positive(q_sum)) return Interval::at_least(best.lower(), prec);  // underflowed Q-mass
    best = max(best, (p_sum - Interval(delta, prec)) / q_sum);
  }
  if (catastrophic_undecided) return Interval::at_least(best.lower(), prec);
  return best;
}

Interval CertifiedLoss::least_epsilon(const Rational& delta) const {
  if (sgn(delta) < 0 || delta > 1)
    throw Error("CertifiedLoss::least_epsilon", "delta", to_string(delta), "delta must lie in [0, 1]");
  const Interval forward = least_lambda_one_direction(delta), backward = swapped().least_lambda_one_direction(delta);
  if (!forward.lower_is_finite() || !backward.lower_is_finite()) return Interval::infinity(precision());
  const Interval lambda = max(forward, backward);
  if (lambda.upper_is_finite() && lambda.upper() == 1) return Interval::zero(lambda.precision());
  return log(lambda);
}

Interval CertifiedLoss::least_epsilon(const Rational& delta, NeighbourDirection direction) const {
  if (direction == NeighbourDirection::both) return least_epsilon(delta);
  if (sgn(delta) < 0 || delta > 1)
    throw Error("CertifiedLoss::least_epsilon", "delta", to_string(delta), "delta must lie in [0, 1]");
  const Interval lambda = direction == NeighbourDirection::remove ? least_lambda_one_direction(delta)
                                                         : swapped().least_lambda_one_direction(delta);
  if (!lambda.lower_is_finite()) return Interval::infinity(precision());
  if (lambda.upper_is_finite() && lambda.upper() == 1) return Interval::zero(lambda.precision());
  return log(lambda);
}

Interval CertifiedLoss::renyi_divergence(const Rational& alpha) const {
  if (alpha <= 1)
    throw Error("CertifiedLoss::renyi_divergence", "alpha", to_string(alpha), "the Renyi order alpha must exceed 1");
  const Precision prec = precision();
  Interval moment = Interval::zero(prec);
  for (const auto& atom : atoms_) {
    if (atom.ratio.is_zero()) continue;  // P = 0: no contribution
    if (atom.ratio.is_infinite()) return Interval::infinity(prec);
    moment += renyi_term(atom.p, atom.q, alpha);  // p^α q^{1−α} (divergence/functionals.hpp)
  }
  return log(moment) / Interval(Rational(alpha - 1), prec);
}

}  // namespace exactdp
