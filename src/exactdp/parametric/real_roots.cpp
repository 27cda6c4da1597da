#include "exactdp/parametric/real_roots.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/parametric/flint_poly.hpp"

#include <flint/fmpq_poly.h>
#include <flint/fmpz_poly.h>
#include <flint/fmpz_poly_factor.h>
#include <flint/fmpz_poly_q.h>


#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <sstream>

namespace exactdp::parametric {

using detail::Poly;
using detail::descartes_bound;

namespace {

/// The irreducible factors of @p p (primitive, positive leading coefficient), without repetition.
std::vector<Poly> irreducible_factors(const fmpz_poly_struct* p) {
  std::vector<Poly> out;
  if (fmpz_poly_degree(p) <= 0) return out;
  fmpz_poly_factor_t fac;
  fmpz_poly_factor_init(fac);
  fmpz_poly_factor(fac, p);
  for (slong i = 0; i < fac->num; ++i) {
    Poly f(fac->p + i);
    if (fmpz_sgn(fmpz_poly_lead(f.get())) < 0) fmpz_poly_neg(f.get(), f.get());
    out.push_back(f);
  }
  fmpz_poly_factor_clear(fac);
  return out;
}

/// p = unit · c · Π fᵢ^eᵢ with c > 0 and the fᵢ irreducible, primitive, with positive leading
/// coefficients; so sign p(x) = unit · Π sign fᵢ(x)^eᵢ.
struct SignedFactorization {
  int unit = 1;
  std::vector<std::pair<Poly, slong>> factors;
};

SignedFactorization signed_factorization(const fmpz_poly_struct* p) {
  SignedFactorization out;
  fmpz_poly_factor_t fac;
  fmpz_poly_factor_init(fac);
  fmpz_poly_factor(fac, p);
  out.unit = fmpz_sgn(&fac->c);
  for (slong i = 0; i < fac->num; ++i) {
    Poly f(fac->p + i);
    if (fmpz_sgn(fmpz_poly_lead(f.get())) < 0) {
      fmpz_poly_neg(f.get(), f.get());
      if (fac->exp[i] % 2 == 1) out.unit = -out.unit;
    }
    out.factors.emplace_back(f, fac->exp[i]);
  }
  fmpz_poly_factor_clear(fac);
  return out;
}

/// Halves the isolating interval of an irrational root, keeping the half with the sign change.
void bisect(RealAlgebraic& a) {
  const Poly q(a.polynomial);
  const Rational mid = (a.lower + a.upper) / 2;
  const int s = q.sign_at(mid);
  if (s == 0) throw Error("parametric::bisect", "", to_string(mid), "internal: an irreducible factor of degree ≥ 2 has a rational root");
  if (s == q.sign_at(a.lower)) a.lower = mid;
  else a.upper = mid;
}

RealAlgebraic rational_point(const Rational& x) {
  RealAlgebraic a;
  a.polynomial = {-Integer(x.get_num()), Integer(x.get_den())};
  a.lower = a.upper = x;
  return a;
}


/// The real roots of a squarefree polynomial @p q of degree ≥ 2 without rational roots (an
/// irreducible factor) inside the open interval (lo, hi), by exact bisection with Descartes' rule
/// of signs (the Vincent–Collins–Akritas method): an interval whose bound is 0 holds no root, one
/// whose bound is 1 holds exactly one (Descartes' bound has the parity of the root count and
/// bounds it), anything else is halved. Midpoints are rational, so never roots. Terminates for a
/// squarefree q (the bound drops to 0 or 1 on short enough intervals).
std::vector<RealAlgebraic> isolate_irreducible(const Poly& q, const Rational& lo, const Rational& hi) {
  std::vector<RealAlgebraic> out;
  std::vector<std::pair<Rational, Rational>> todo{{lo, hi}};
  while (!todo.empty()) {
    auto [a, b] = todo.back();
    todo.pop_back();
    const slong v = descartes_bound(q, a, b);
    if (v == 0) continue;
    if (v == 1) {
      RealAlgebraic r;
      r.polynomial = q.coefficients();
      r.lower = a;
      r.upper = b;
      // the exact check of the claim "exactly one root": a sign change at the (rational, non-root) ends
      if (q.sign_at(a) * q.sign_at(b) >= 0)
        throw Error("parametric::real_roots_in", "", "", "internal: an isolating interval without a sign change");
      out.push_back(r);
      continue;
    }
    const Rational m = (a + b) / 2;
    if (q.sign_at(m) == 0) throw Error("parametric::real_roots_in", "", to_string(m), "internal: a rational root of an irreducible factor");
    todo.push_back({m, b});
    todo.push_back({a, m});
  }
  std::sort(out.begin(), out.end(), [](const RealAlgebraic& x, const RealAlgebraic& y) { return x.lower < y.lower; });
  return out;
}

std::string decimal(const Rational& x, int digits) {
  Integer scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  Rational y = x * scale;
  Integer n = y.get_num() / y.get_den();  // truncation towards zero
  const bool negative = sgn(y) < 0;
  Integer m = abs(n);
  std::string s = m.get_str();
  if (s.size() <= static_cast<std::size_t>(digits)) s = std::string(static_cast<std::size_t>(digits) + 1 - s.size(), '0') + s;
  s.insert(s.size() - static_cast<std::size_t>(digits), ".");
  return (negative ? "-" : "") + s;
}

/// True when @p p (not zero) certainly has no root in @p range: a constant, or Descartes' bound 0 on
/// the open interval and no root at an included end. False says nothing (the bound may exceed the
/// number of roots).
bool no_root_in(const Poly& p, const ParameterRange& range) {
  return p.degree() <= 0 || (descartes_bound(p, range.lower, range.upper) == 0 && (range.lower_open || p.sign_at(range.lower) != 0) &&
                             (range.upper_open || p.sign_at(range.upper) != 0));
}

std::string poly_text(const std::vector<Integer>& c, std::string_view variable) {
  return RationalFunction::polynomial(std::vector<Rational>(c.begin(), c.end())).to_string(variable);
}

}  // namespace

/// Descartes' rule of signs on (lo, hi): an upper bound on the number of roots of @p q there
/// (exact; 0 proves there is none). q(lo + (hi − lo)·y) has its roots of (0, 1) at the positive
/// roots of (1 + x)^d · q₁(1/(1 + x)), i.e. of the Taylor shift by 1 of q₁ reversed.
slong detail::descartes_bound(const Poly& q, const Rational& lo, const Rational& hi) {
  fmpq_poly_t f, map;
  fmpq_poly_init(f), fmpq_poly_init(map);
  fmpq_poly_set_fmpz_poly(f, q.get());
  fmpq_t c;
  fmpq_init(c);
  fmpq_set_mpq(c, lo.get_mpq_t());
  fmpq_poly_set_coeff_fmpq(map, 0, c);
  const Rational width = hi - lo;
  fmpq_set_mpq(c, width.get_mpq_t());
  fmpq_poly_set_coeff_fmpq(map, 1, c);
  fmpq_poly_compose(f, f, map);
  Poly p;
  fmpq_poly_get_numerator(p.get(), f);
  fmpz_poly_reverse(p.get(), p.get(), q.degree() + 1);
  fmpz_t one;
  fmpz_init_set_ui(one, 1);
  fmpz_poly_taylor_shift(p.get(), p.get(), one);
  slong variations = 0;
  int last = 0;
  for (slong i = 0; i <= p.degree(); ++i) {
    const int s = fmpz_sgn(p.get()->coeffs + i);
    if (s != 0 && last != 0 && s != last) ++variations;
    if (s != 0) last = s;
  }
  fmpz_clear(one);
  fmpq_clear(c);
  fmpq_poly_clear(f), fmpq_poly_clear(map);
  return variations;
}

// ---------------------------------------------------------------- ranges and algebraic numbers

bool ParameterRange::contains(const Rational& r) const {
  return (lower_open ? r > lower : r >= lower) && (upper_open ? r < upper : r <= upper);
}

std::string ParameterRange::to_string() const {
  return std::string(lower_open ? "(" : "[") + exactdp::to_string(lower) + ", " + exactdp::to_string(upper) + (upper_open ? ")" : "]");
}

std::optional<Rational> RealAlgebraic::rational() const {
  if (is_rational()) return lower;
  return std::nullopt;
}

std::string RealAlgebraic::to_string(std::string_view variable) const {
  if (is_rational()) return exactdp::to_string(lower);
  RealAlgebraic fine = *this;
  while (fine.upper - fine.lower > Rational(1, 1'000'000'000)) bisect(fine);
  std::ostringstream os;
  os << "the root of " << poly_text(polynomial, variable) << " in [" << exactdp::to_string(lower) << ", "
     << exactdp::to_string(upper) << "] (≈ " << decimal((fine.lower + fine.upper) / 2, 6) << ")";
  return os.str();
}

std::string RealAlgebraic::to_json() const {
  if (is_rational()) return "{\"rational\": \"" + exactdp::to_string(lower) + "\"}";
  RealAlgebraic fine = *this;
  while (fine.upper - fine.lower > Rational(1, 1'000'000'000)) bisect(fine);
  std::ostringstream os;
  os << "{\"polynomial\": [";
  for (std::size_t i = 0; i < polynomial.size(); ++i) os << (i ? ", " : "") << "\"" << polynomial[i].get_str() << "\"";
  os << "], \"interval\": [\"" << exactdp::to_string(lower) << "\", \"" << exactdp::to_string(upper) << "\"], \"approx\": \""
     << decimal((fine.lower + fine.upper) / 2, 9) << "\"}";
  return os.str();
}

std::string Piece::to_string(std::string_view variable) const {
  if (is_point()) return "{" + lower.to_string(variable) + "}";
  return std::string(lower_closed ? "[" : "(") + lower.to_string(variable) + ", " + upper.to_string(variable) + (upper_closed ? "]" : ")");
}

// ---------------------------------------------------------------- isolation

std::vector<RealAlgebraic> real_roots_in(const std::vector<Integer>& polynomial, const ParameterRange& range) {
  Poly p(polynomial);
  if (fmpz_poly_is_zero(p.get())) throw Error("parametric::real_roots_in", "", "0", "the zero polynomial has every number as a root");
  std::vector<RealAlgebraic> out;
  for (const Poly& q : irreducible_factors(p.get())) {
    if (q.degree() == 1) {
      const std::vector<Integer> c = q.coefficients();
      Rational root(-c[0], c[1]);
      root.canonicalize();
      if (range.contains(root)) out.push_back(rational_point(root));
      continue;
    }
    // the range ends are rational, hence never a root of q: isolate inside the open range
    for (RealAlgebraic& r : isolate_irreducible(q, range.lower, range.upper)) {
      // keep the range ends outside the interval, so that every piece between has a rational inside
      while (r.lower == range.lower || r.upper == range.upper) bisect(r);
      out.push_back(std::move(r));
    }
  }
  // distinct factors have distinct roots: refine until the intervals are disjoint, then sort
  for (bool overlap = true; overlap;) {
    std::sort(out.begin(), out.end(), [](const RealAlgebraic& x, const RealAlgebraic& y) { return x.lower < y.lower; });
    overlap = false;
    for (std::size_t i = 0; i + 1 < out.size(); ++i) {
      if (out[i].upper < out[i + 1].lower) continue;
      overlap = true;
      if (!out[i].is_rational()) bisect(out[i]);
      if (!out[i + 1].is_rational()) bisect(out[i + 1]);
    }
  }
  return out;
}

Rational simplest_rational_between(const Rational& a, const Rational& b) {
  if (!(a < b)) throw Error("parametric::simplest_rational_between", "", to_string(a), "the interval is empty");
  if (sgn(a) < 0 && sgn(b) > 0) return 0;
  if (sgn(b) <= 0) return -simplest_rational_between(-b, -a);
  // 0 ≤ a < b: continued-fraction descent (Stern–Brocot)
  Integer fl = a.get_num() / a.get_den();  // floor, a ≥ 0
  if (Rational(fl + 1) < b) return Rational(fl + 1);
  if (Rational(fl) == a) {  // a integer, b ≤ a + 1: take a + 1/k with the least k
    const Rational t = 1 / (b - a);  // need 1/k < b − a
    Integer k = t.get_num() / t.get_den() + 1;
    return Rational(fl) + Rational(1, k);
  }
  // a, b in (fl, fl + 1]: fl + 1/(simplest in (1/(b − fl), 1/(a − fl)))
  if (b == Rational(fl + 1)) {
    const Rational t = 1 / (a - fl);  // need x with 1/x ∈ (a − fl, 1): x ∈ (1, t)
    return Rational(fl) + 1 / simplest_rational_between(Rational(1), t);
  }
  return Rational(fl) + 1 / simplest_rational_between(1 / (b - fl), 1 / (a - fl));
}

/// A numerator's part of sign_partition(): no root in the range (the sign is then constant), or its
/// signed factorisation.
struct NumeratorFactors {
  bool no_root = false;
  SignedFactorization factorization;
};

struct SignPartitionCache::Impl {
  std::optional<ParameterRange> range;
  std::unordered_map<std::string, NumeratorFactors> numerators;
  std::unordered_map<std::string, std::vector<RealAlgebraic>> roots;  // per irreducible factor
  std::unordered_set<std::string> denominators;                      // checked: no root in the range
};

SignPartitionCache::SignPartitionCache() : impl_(std::make_unique<Impl>()) {}
SignPartitionCache::~SignPartitionCache() = default;

namespace {

std::string poly_key(const fmpz_poly_struct* p) {
  char* key = fmpz_poly_get_str(p);
  std::string k(key);
  flint_free(key);
  return k;
}

SignPartition sign_partition_impl(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable,
                                  SignPartitionCache::Impl* cache);

}  // namespace

SignPartition sign_partition(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable) {
  return sign_partition_impl(functions, range, variable, nullptr);  // one call: nothing to keep (and no keys to print)
}

SignPartition sign_partition(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable,
                             SignPartitionCache& cache) {
  auto& c = cache.impl();
  if (c.range && (c.range->lower != range.lower || c.range->upper != range.upper || c.range->lower_open != range.lower_open ||
                  c.range->upper_open != range.upper_open))
    throw Error("parametric::sign_partition", "", range.to_string(), "internal: a sign partition cache used with another range");
  c.range = range;
  return sign_partition_impl(functions, range, variable, &c);
}

namespace {

SignPartition sign_partition_impl(const std::vector<RationalFunction>& functions, const ParameterRange& range, std::string_view variable,
                                  SignPartitionCache::Impl* cache) {
  SignPartitionCache::Impl local;  // without a cache: this call's own (its denominators, numerators and roots)
  if (!cache) cache = &local;
  if (!(range.lower < range.upper)) throw Error("parametric::sign_partition", "", range.to_string(), "the range is empty or a single point");
  SignPartition out;
  out.range = range;
  // distinct irreducible factors of all numerators (a function's roots are roots of its factors)
  std::map<std::string, std::size_t> factor_index;
  std::vector<Poly> factors;
  std::vector<std::vector<std::size_t>> factors_of(functions.size());
  std::vector<std::vector<slong>> exponents_of(functions.size());
  std::vector<int> unit_of(functions.size(), 0);
  std::vector<std::optional<int>> constant_sign(functions.size());  // functions without a root in the range
  const Rational inside = simplest_rational_between(range.lower, range.upper);
  for (std::size_t i = 0; i < functions.size(); ++i) {
    auto* q = static_cast<fmpz_poly_q_struct*>(functions[i].flint());
    const Poly den(fmpz_poly_q_denref(q));
    if (!no_root_in(den, range)) {
      std::string k = poly_key(den.get());
      if (!cache->denominators.count(k)) {
        auto poles = real_roots_in(den.coefficients(), range);
        if (!poles.empty())
          throw Error("", "", functions[i].to_string(variable),
                      "the denominator vanishes at " + poles.front().to_string(variable) + ", inside the parameter range " +
                          range.to_string());
        cache->denominators.insert(std::move(k));
      }
    }
    if (functions[i].is_zero()) continue;
    // a numerator with no root in the range (Descartes' bound 0 on the open interval, non-zero at
    // an included end) has one sign on all of it: no factorisation, no piece
    NumeratorFactors fresh_factors;
    bool fresh_numerator = true;
    NumeratorFactors* entry = &fresh_factors;
    if (cache != &local) {  // kept between calls: keyed by the numerator
      auto [it, fresh] = cache->numerators.try_emplace(poly_key(fmpz_poly_q_numref(q)));
      entry = &it->second;
      fresh_numerator = fresh;
    }
    NumeratorFactors& nf = *entry;
    if (fresh_numerator) {
      const Poly numerator(fmpz_poly_q_numref(q));
      nf.no_root = no_root_in(numerator, range);
      if (!nf.no_root) nf.factorization = signed_factorization(fmpz_poly_q_numref(q));
    }
    if (nf.no_root) {
      constant_sign[i] = sgn(functions[i].evaluate(inside));
      continue;
    }
    const SignedFactorization& sf = nf.factorization;
    unit_of[i] = sf.unit;
    for (const auto& [f, e] : sf.factors) {
      if (f.degree() <= 0) continue;  // a constant factor carries no sign change (its sign is in unit)
      auto [it, fresh] = factor_index.try_emplace(poly_key(f.get()), factors.size());
      if (fresh) factors.push_back(f);
      factors_of[i].push_back(it->second);
      exponents_of[i].push_back(e);
    }
  }
  out.distinct_factors = factors.size();
  // every root of every factor in the range, each tagged with its factor
  std::vector<std::pair<RealAlgebraic, std::size_t>> roots;
  std::vector<const std::vector<RealAlgebraic>*> roots_of(factors.size());
  for (const auto& [key, k] : factor_index) {
    auto [it, fresh] = cache->roots.try_emplace(key);
    if (fresh) it->second = real_roots_in(factors[k].coefficients(), range);
    roots_of[k] = &it->second;
  }
  for (std::size_t k = 0; k < factors.size(); ++k)
    for (const auto& r : *roots_of[k]) roots.push_back({r, k});
  for (bool overlap = true; overlap;) {
    std::sort(roots.begin(), roots.end(), [](const auto& x, const auto& y) { return x.first.lower < y.first.lower; });
    overlap = false;
    for (std::size_t i = 0; i + 1 < roots.size(); ++i) {
      if (roots[i].first.upper < roots[i + 1].first.lower) continue;
      overlap = true;
      if (!roots[i].first.is_rational()) bisect(roots[i].first);
      if (!roots[i + 1].first.is_rational()) bisect(roots[i + 1].first);
    }
  }
  // the pieces: regions between consecutive roots, and the roots
  const RealAlgebraic lo_end = rational_point(range.lower), hi_end = rational_point(range.upper);
  std::vector<std::optional<std::size_t>> piece_factor;  // the factor of a point piece
  RealAlgebraic left = lo_end;
  bool left_closed = !range.lower_open;
  Rational left_gap = range.lower;
  std::size_t start = 0;
  if (!roots.empty() && roots.front().first.is_rational() && roots.front().first.lower == range.lower) {
    Piece p{roots.front().first, roots.front().first, true, true, range.lower};  // the closed lower end is a root
    out.pieces.push_back(p);
    piece_factor.push_back(roots.front().second);
    left_closed = false;
    start = 1;
  }
  for (std::size_t i = start; i <= roots.size(); ++i) {
    const bool last = i == roots.size();
    const bool end_root = !last && roots[i].first.is_rational() && roots[i].first.lower == range.upper;
    const RealAlgebraic right = (last || end_root) ? hi_end : roots[i].first;
    const bool right_closed = last ? !range.upper_open : false;
    const Rational right_gap = (last || end_root) ? range.upper : roots[i].first.lower;
    Piece region{left, right, left_closed, right_closed, simplest_rational_between(left_gap, right_gap)};
    out.pieces.push_back(region);
    piece_factor.push_back(std::nullopt);
    if (last) break;
    Piece point{roots[i].first, roots[i].first, true, true, roots[i].first.rational()};
    out.pieces.push_back(point);
    piece_factor.push_back(roots[i].second);
    if (end_root) break;
    left = roots[i].first;
    left_closed = false;
    left_gap = roots[i].first.upper;
  }
  // the signs: exact at each region's sample; at a root ρ of factor k, 0 when k divides the
  // numerator, else the sign of a neighbouring region (f is continuous and has no root between)
  // On an open piece: sign g = unit · sign(denominator) · Π sign fᵢ(sample)^eᵢ — each distinct
  // factor evaluated once per piece; a denominator has no root in the range, so its sign is that
  // at any point of the range
  out.signs.assign(functions.size(), std::vector<int>(out.pieces.size(), 0));
  // A factor is evaluated at the first region's sample only: it is irreducible, hence squarefree,
  // so each of its roots is simple and its sign flips exactly at its own point pieces (and nowhere
  // else: every root of every factor in the range is a piece).
  std::vector<std::vector<int>> factor_sign(factors.size(), std::vector<int>(out.pieces.size(), 0));
  std::size_t first_region = 0;
  while (piece_factor[first_region]) ++first_region;
  for (std::size_t f = 0; f < factors.size(); ++f) {
    int s = factors[f].sign_at(*out.pieces[first_region].sample);
    for (std::size_t k = first_region; k < out.pieces.size(); ++k) {
      if (piece_factor[k]) {
        if (*piece_factor[k] == f) s = -s;
        continue;
      }
      factor_sign[f][k] = s;
    }
  }
  const Rational& anywhere = *out.pieces[first_region].sample;
  for (std::size_t i = 0; i < functions.size(); ++i) {
    if (functions[i].is_zero()) continue;  // sign 0 everywhere
    if (constant_sign[i]) {
      std::fill(out.signs[i].begin(), out.signs[i].end(), *constant_sign[i]);
      continue;
    }
    auto* q = static_cast<fmpz_poly_q_struct*>(functions[i].flint());
    const int den_sign = Poly(fmpz_poly_q_denref(q)).sign_at(anywhere);
    for (std::size_t k = 0; k < out.pieces.size(); ++k) {
      if (piece_factor[k]) continue;
      int s = unit_of[i] * den_sign;
      for (std::size_t j = 0; j < factors_of[i].size() && s != 0; ++j)
        if (exponents_of[i][j] % 2 == 1) s *= factor_sign[factors_of[i][j]][k];
      out.signs[i][k] = s;
    }
    for (std::size_t k = 0; k < out.pieces.size(); ++k) {
      if (!piece_factor[k]) continue;
      const auto& fs = factors_of[i];
      if (std::find(fs.begin(), fs.end(), *piece_factor[k]) != fs.end()) out.signs[i][k] = 0;
      else out.signs[i][k] = k > 0 ? out.signs[i][k - 1] : out.signs[i][k + 1];
    }
  }
  return out;
}

}  // namespace

std::optional<Rational> negative_point(const RationalFunction& f, const ParameterRange& range, std::string_view variable) {
  const SignPartition p = sign_partition({f}, range, variable);
  for (std::size_t k = 0; k < p.pieces.size(); ++k)
    if (p.signs[0][k] < 0) {
      if (p.pieces[k].sample) return p.pieces[k].sample;
      // an irrational point piece is never alone negative: its neighbours share its sign
      return p.pieces[k > 0 ? k - 1 : k + 1].sample;
    }
  return std::nullopt;
}

bool zero_and_pole_free(const RationalFunction& f, const ParameterRange& range) {
  if (f.is_zero()) return false;
  auto* q = static_cast<fmpz_poly_q_struct*>(f.flint());
  for (const Poly& p : {Poly(fmpz_poly_q_numref(q)), Poly(fmpz_poly_q_denref(q))})
    if (!no_root_in(p, range) && !real_roots_in(p.coefficients(), range).empty()) return false;
  return true;
}

}  // namespace exactdp::parametric
