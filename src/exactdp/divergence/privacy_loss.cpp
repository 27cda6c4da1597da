#include "exactdp/divergence/privacy_loss.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>

namespace exactdp {
namespace {

ExtendedRational ratio_of(const Rational& p, const Rational& q) {
  if (sgn(q) == 0) return ExtendedRational::infinity();
  return ExtendedRational(Rational(p / q));
}

}  // namespace

using Traits = LossTraits<Rational>;

std::vector<LossAtom> Traits::atoms_of_masses(const std::vector<std::pair<Rational, Rational>>& masses,
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
  return atoms;
}

bool Traits::undefined_product(const Ratio& a, const Ratio& b) {
  auto zero = [](const Ratio& r) { return r.is_finite() && sgn(r.value()) == 0; };
  return (zero(a) && b.is_infinite()) || (a.is_infinite() && zero(b));
}

ExtendedRational Traits::inverse(const Ratio& r) {
  if (r.is_infinite()) return ExtendedRational();
  if (sgn(r.value()) == 0) return ExtendedRational::infinity();
  return ExtendedRational(Rational(1 / r.value()));
}

namespace {

/// The finite positive ratios of a loss as integer powers ρ^{e_i} of one base ρ > 1, when such a
/// base exists ("lattice" losses: randomized response, discrete Laplace, and all their
/// compositions). Found by the multiplicative Euclidean algorithm on the ratios (gcd of their
/// logarithms); gives up after a bounded number of steps, which only costs the fast path.
using Lattice = LossLattice;

std::optional<Rational> multiplicative_gcd(Rational a, Rational b) {
  // For incommensurable ratios (e.g. 2 and 3) the quotients never reach equality and their
  // sizes grow like Fibonacci numbers, so both the step count and the size are bounded.
  constexpr std::size_t max_bits = 4096;
  for (int steps = 0; steps < 512; ++steps) {
    if (a == b) return a;
    if (a < b) std::swap(a, b);
    a /= b;
    if (mpz_sizeinbase(a.get_num_mpz_t(), 2) + mpz_sizeinbase(a.get_den_mpz_t(), 2) > max_bits) return std::nullopt;
  }
  return std::nullopt;
}

/// e with ρ^e = r exactly, if any (|e| ≤ 4096).
std::optional<long> exponent_of(const Rational& r, const Rational& rho) {
  if (r == 1) return 0L;
  bool inverted = r < 1;
  Rational target = inverted ? Rational(1 / r) : r, x = rho;
  for (long e = 1; e <= 4096; ++e, x *= rho) {
    if (x == target) return inverted ? -e : e;
    if (x > target) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<Lattice> find_lattice(const std::vector<LossAtom>& atoms) {
  std::optional<Rational> base;
  for (const auto& a : atoms) {
    if (a.ratio.is_infinite() || sgn(a.ratio.value()) == 0 || a.ratio.value() == 1) continue;
    Rational r = a.ratio.value() > 1 ? a.ratio.value() : Rational(1 / a.ratio.value());
    base = base ? multiplicative_gcd(*base, r) : std::optional<Rational>(r);
    if (!base) return std::nullopt;
  }
  Lattice lat{base.value_or(Rational(2)), {}};
  for (const auto& a : atoms) {
    if (a.ratio.is_infinite() || sgn(a.ratio.value()) == 0) continue;
    auto e = exponent_of(a.ratio.value(), lat.base);
    if (!e) return std::nullopt;
    lat.exponent.push_back(*e);
  }
  return lat;
}

/// Packs non-negative integers c_j into Σ c_j 2^{j·w} with w = limbs·64 (Kronecker substitution).
Integer pack(const std::vector<Integer>& c, std::size_t limbs) {
  std::vector<mp_limb_t> buf(c.size() * limbs, 0);
  for (std::size_t j = 0; j < c.size(); ++j) {
    std::size_t n = mpz_size(c[j].get_mpz_t());
    for (std::size_t i = 0; i < n; ++i) buf[j * limbs + i] = mpz_getlimbn(c[j].get_mpz_t(), static_cast<mp_size_t>(i));
  }
  Integer x;
  mpz_import(x.get_mpz_t(), buf.size(), -1, sizeof(mp_limb_t), 0, 0, buf.data());
  return x;
}

/// Reads chunk j of width `limbs` limbs back as an integer.
Integer chunk(const Integer& x, std::size_t j, std::size_t limbs) {
  const std::size_t size = mpz_size(x.get_mpz_t());
  Integer c;
  if (j * limbs >= size) return c;
  std::size_t n = std::min(limbs, size - j * limbs);
  mpz_import(c.get_mpz_t(), n, -1, sizeof(mp_limb_t), 0, 0, mpz_limbs_read(x.get_mpz_t()) + j * limbs);
  return c;
}

/// k-fold self-composition of a lattice loss: the P-masses of the finite atoms form a Laurent
/// polynomial A(z) = Σ p_i z^{e_i}; the k-fold product's finite part is A(z)^k, computed as one
/// big-integer power through Kronecker substitution (GMP multiplies with FFT), and its Q-masses
/// follow from q = p/ρ^e. Atoms of ratio ∞ (resp. 0) absorb the remaining P- (resp. Q-) mass:
/// an outcome is finite-ratio iff all its factors are. Same result as repeated squaring.
std::vector<LossAtom> lattice_power(const std::vector<LossAtom>& atoms, const Lattice& lat, unsigned long k) {
  long emin = 0, emax = 0;
  bool first = true;
  for (long e : lat.exponent) {
    emin = first ? e : std::min(emin, e);
    emax = first ? e : std::max(emax, e);
    first = false;
  }
  long step = 0;
  for (long e : lat.exponent) step = std::gcd(step, e - emin);
  if (step == 0) step = 1;
  const std::size_t width = static_cast<std::size_t>((emax - emin) / step) + 1;
  // common denominator of the finite atoms' P-masses
  Integer den = 1;
  Rational finite_p, finite_q;
  std::size_t idx = 0;
  std::vector<Integer> coeff(width);
  for (const auto& a : atoms)
    if (a.ratio.is_finite() && sgn(a.ratio.value()) > 0) {
      mpz_lcm(den.get_mpz_t(), den.get_mpz_t(), a.p.get_den_mpz_t());
      finite_p += a.p;
      finite_q += a.q;
    }
  for (const auto& a : atoms)
    if (a.ratio.is_finite() && sgn(a.ratio.value()) > 0) {
      std::size_t j = static_cast<std::size_t>((lat.exponent[idx++] - emin) / step);
      coeff[j] += a.p.get_num() * (den / a.p.get_den());
    }
  std::vector<LossAtom> out;
  if (idx > 0) {
    // every coefficient of A^k is at most (Σ coeff)^k ≤ den^k
    Integer bound;
    mpz_pow_ui(bound.get_mpz_t(), den.get_mpz_t(), k);
    const std::size_t limbs = mpz_size(bound.get_mpz_t()) + 1;
    Integer packed = pack(coeff, limbs), power;
    mpz_pow_ui(power.get_mpz_t(), packed.get_mpz_t(), k);
    const Rational rho_step = pow(lat.base, static_cast<unsigned long>(step));
    const long e0 = static_cast<long>(k) * emin;
    Rational ratio = e0 >= 0 ? pow(lat.base, static_cast<unsigned long>(e0)) : Rational(1 / pow(lat.base, static_cast<unsigned long>(-e0)));
    const std::size_t terms = (width - 1) * k + 1;
    out.reserve(terms + 2);
    for (std::size_t j = 0; j < terms; ++j, ratio *= rho_step) {
      Integer c = chunk(power, j, limbs);
      if (sgn(c) == 0) continue;
      Rational p(c, bound);
      p.canonicalize();
      Rational q = p / ratio;
      out.push_back({ExtendedRational(ratio), std::move(p), std::move(q)});
    }
  }
  Rational p_inf = 1 - pow(finite_p, k), q_zero = 1 - pow(finite_q, k);
  if (sgn(q_zero) > 0) out.insert(out.begin(), {ExtendedRational(0), Rational(0), q_zero});
  if (sgn(p_inf) > 0) out.push_back({ExtendedRational::infinity(), p_inf, Rational(0)});
  return out;
}

}  // namespace

std::optional<LossLattice> Traits::lattice(const std::vector<LossAtom>& atoms) { return find_lattice(atoms); }

std::optional<std::vector<LossAtom>> Traits::lattice_power(const std::vector<LossAtom>& atoms, unsigned long k) {
  if (auto lat = find_lattice(atoms)) return exactdp::lattice_power(atoms, *lat, k);
  return std::nullopt;
}

PrivacyLoss poisson_subsample(const PrivacyLoss& loss, const Rational& q) {
  if (sgn(q) < 0 || q > 1) throw Error("poisson_subsample", "q", to_string(q), "the sampling rate must lie in [0, 1]");
  std::vector<std::pair<Rational, Rational>> masses;
  masses.reserve(loss.size());
  const Rational rest = 1 - q;
  for (const auto& a : loss.atoms()) masses.emplace_back(q * a.p + rest * a.q, a.q);
  return PrivacyLoss::from_masses(masses, "Poisson-subsampled pair");
}

std::size_t Traits::self_compose_size_bound(const std::vector<LossAtom>& atoms, unsigned long k) {
  constexpr std::size_t cap = std::numeric_limits<std::size_t>::max();
  if (k == 0) return 1;
  if (auto lat = find_lattice(atoms)) {
    long lo = 0, hi = 0;
    for (long e : lat->exponent) lo = std::min(lo, e), hi = std::max(hi, e);
    Integer n = Integer(hi - lo) * Integer(k) + 3;
    return n.fits_ulong_p() ? n.get_ui() : cap;
  }
  Integer n = binomial(k + atoms.size() - 1, atoms.size() - 1);
  return n.fits_ulong_p() ? n.get_ui() : cap;
}

}  // namespace exactdp
