// Fast certified composition (the argument is in the header's file comment): one-use laws on a
// grid, powers by certified repeated squaring, evaluations in directed-rounded binary64.
#include "exactdp/compose/fast_convolution.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"
#include "exactdp/numeric/directed_rounding.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace exactdp {

using directed::lower_double;
using directed::next_down;
using directed::next_up;
using directed::prod_down;
using directed::prod_up;
using directed::sum_down;
using directed::sum_up;
using directed::upper_double;

namespace {

/// Masses below this are moved away before any product (see truncate_tails).
constexpr double kFloor = 0x1p-500;

double total(const GridLossLaw& a) {
  double t = 0;
  for (double x : a.masses) t = a.side == BoundSide::upper ? sum_up(t, x) : sum_down(t, x);
  return t;
}

long floor_of(const Rational& x) {
  mpz_class f;
  mpz_fdiv_q(f.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  if (!f.fits_slong_p()) throw Error("fast composition", "loss", to_string(x), "the grid index does not fit a long");
  return f.get_si();
}

long ceil_of(const Rational& x) {
  mpz_class c;
  mpz_cdiv_q(c.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  if (!c.fits_slong_p()) throw Error("fast composition", "loss", to_string(x), "the grid index does not fit a long");
  return c.get_si();
}

}  // namespace

void truncate_tails(GridLossLaw& a, double tail) {
  const bool upper = a.side == BoundSide::upper;
  for (double& x : a.masses)
    if (x != 0 && x < kFloor) {
      if (upper) a.infinite_mass = sum_up(a.infinite_mass, x);
      x = 0;
    }
  std::size_t first = 0, last = a.masses.size();
  while (first < last && a.masses[first] == 0) ++first;
  while (last > first && a.masses[last - 1] == 0) --last;
  if (first == last) {  // nothing finite left
    a.masses.assign(1, 0.0);
    return;
  }
  a.masses.erase(a.masses.begin() + static_cast<long>(last), a.masses.end());
  a.masses.erase(a.masses.begin(), a.masses.begin() + static_cast<long>(first));
  a.offset += static_cast<long>(first);
  // top tail: to +∞ (upper) or onto the highest kept point (lower)
  double acc = 0;
  std::size_t top = a.masses.size();
  while (top > 1 && sum_up(acc, a.masses[top - 1]) <= tail) acc = sum_up(acc, a.masses[--top]);
  if (top < a.masses.size()) {
    double moved = 0;
    for (std::size_t i = top; i < a.masses.size(); ++i) moved = upper ? sum_up(moved, a.masses[i]) : sum_down(moved, a.masses[i]);
    a.masses.resize(top);
    if (upper) a.infinite_mass = sum_up(a.infinite_mass, moved);
    else a.masses.back() = sum_down(a.masses.back(), moved);
  }
  // bottom tail: onto the lowest kept point (upper) or dropped to −∞ (lower)
  acc = 0;
  std::size_t bottom = 0;
  while (bottom + 1 < a.masses.size() && sum_up(acc, a.masses[bottom]) <= tail) acc = sum_up(acc, a.masses[bottom++]);
  if (bottom > 0) {
    double moved = 0;
    for (std::size_t i = 0; i < bottom; ++i) moved = sum_up(moved, a.masses[i]);
    a.masses.erase(a.masses.begin(), a.masses.begin() + static_cast<long>(bottom));
    a.offset += static_cast<long>(bottom);
    if (upper) a.masses.front() = sum_up(a.masses.front(), moved);
  }
}

GridLossLaw convolve(const GridLossLaw& a, const GridLossLaw& b, double tail, const ConvolutionOptions& options) {
  if (a.side != b.side) throw Error("convolve", "side", "upper and lower", "both laws must bound from the same side");
  const bool upper = a.side == BoundSide::upper;
  // the integer scale must resolve masses well below the tail, or the dust that rounding up
  // leaves at the ends of an upper law (at least 2^−F per nonzero mass) could never be truncated
  ConvolutionOptions o = options;
  if (tail > 0) o.fraction_bits = std::max<unsigned>(o.fraction_bits, static_cast<unsigned>(std::ceil(-std::log2(tail))) + 10);
  GridLossLaw c;
  c.side = a.side;
  c.offset = a.offset + b.offset;
  c.masses = a.offset == b.offset && a.masses == b.masses ? certified_square(a.masses, a.side, o)
                                                          : certified_convolution(a.masses, b.masses, a.side, o);
  // +∞ absorbs every pair with one infinite loss: a.inf·(total b + b.inf) + total a·b.inf
  const double ta = total(a), tb = total(b);
  c.infinite_mass = upper ? sum_up(prod_up(a.infinite_mass, sum_up(tb, b.infinite_mass)), prod_up(ta, b.infinite_mass))
                          : sum_down(prod_down(a.infinite_mass, sum_down(tb, b.infinite_mass)), prod_down(ta, b.infinite_mass));
  truncate_tails(c, tail);
  return c;
}

GridLossLaw self_compose(const GridLossLaw& law, unsigned long k, double tail, const ConvolutionOptions& options) {
  if (k == 0) throw Error("self_compose", "times", "0", "need at least one use");
  std::optional<GridLossLaw> result;
  GridLossLaw base = law;
  truncate_tails(base, tail);
  for (;;) {
    if (k & 1UL) result = result ? convolve(*result, base, tail, options) : base;
    k >>= 1;
    if (k == 0) break;
    base = convolve(base, base, tail, options);
  }
  return *result;
}

Rational grid_hockey_stick(const GridLossLaw& law, const Interval& step, const Rational& epsilon) {
  if (sgn(epsilon) < 0) throw Error("grid_hockey_stick", "epsilon", to_string(epsilon), "must be non-negative");
  const bool upper = law.side == BoundSide::upper;
  const Precision p = std::max<Precision>(step.precision(), 128);
  double h = law.infinite_mass;
  // indices j ≤ ε/h_hi have jh ≤ ε for every h in the enclosure: their terms are 0
  const long j0 = floor_of(epsilon / step.upper()) + 1;
  const long n = static_cast<long>(law.masses.size());
  const long i0 = std::max(0L, j0 - law.offset);
  if (i0 < n) {
    const Interval r = exp(-step);  // e^{−h}
    const double r_lo = lower_double(r), r_hi = upper_double(r);
    const Interval w = exp(Interval(epsilon, p) - Interval(law.offset + i0, p) * step);  // e^{ε − jh}
    double w_lo = lower_double(w), w_hi = upper_double(w);
    for (long i = i0; i < n; ++i) {
      const double m = law.masses[static_cast<std::size_t>(i)];
      if (m != 0) {
        // the term m·(1 − e^{ε − jh})⁺, rounded towards the law's side
        if (upper) {
          const double f = w_lo >= 1 ? 0.0 : std::min(1.0, next_up(1.0 - w_lo));
          h = sum_up(h, prod_up(m, f));
        } else if (w_hi < 1) {
          h = sum_down(h, prod_down(m, next_down(1.0 - w_hi)));
        }
      }
      w_lo = prod_down(w_lo, r_lo);
      w_hi = prod_up(w_hi, r_hi);
    }
  }
  return Rational(h);
}

Interval least_epsilon_bracket(const std::array<std::optional<Rational>, 2>& lower,
                               const std::array<std::optional<Rational>, 2>& upper, Precision precision) {
  if (!lower[0] || !lower[1]) return Interval::infinity(precision);  // a lower law's mass at +∞ exceeds δ: so does the truth's
  const Rational lo = std::max(*lower[0], *lower[1]);
  if (!upper[0] || !upper[1]) return Interval::at_least(lo, precision);
  return Interval::hull(lo, std::max({*upper[0], *upper[1], lo}), precision);
}

std::optional<Rational> grid_least_epsilon(const GridLossLaw& law, const Interval& step, const Rational& delta,
                                           Precision precision) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("grid_least_epsilon", "delta", to_string(delta), "must lie in (0, 1]");
  const Precision p = std::max<Precision>(precision, 64);  // the masses (doubles) are held exactly
  // The law is a PLD whose atom at loss jh has P-mass m_j and Q-mass m_j e^{−jh}: its least λ is
  // least_lambda_by_suffixes over the atoms from the top index down, the weights e^{−jh} advanced
  // by one factor e^{h} per index.
  Interval catastrophic = Interval::zero(p);
  mpfi_set_d(catastrophic.get(), law.infinite_mass);
  const Interval growth = exp(step);
  long i = static_cast<long>(law.masses.size());
  Interval weight = exp(-(Interval(law.offset + i, p) * step));  // e^{−jh} of the index above the top
  const Interval lambda = least_lambda_by_suffixes(catastrophic, delta, p, [&](Interval& pm, Interval& qm) {
    while (i > 0) {
      --i;
      weight *= growth;
      const double m = law.masses[static_cast<std::size_t>(i)];
      if (m == 0) continue;
      mpfi_set_d(pm.get(), m);
      mpfi_mul_d(qm.get(), weight.get(), m);
      return true;
    }
    return false;
  });
  // the law's own least λ lies in the enclosure: an upper law reports its upper end, a lower law
  // its lower end (each on the law's side of the truth)
  if (!lambda.lower_is_finite()) return std::nullopt;  // the mass at +∞ exceeds δ
  if (law.side == BoundSide::upper) {
    if (!lambda.upper_is_finite()) return std::nullopt;
    const Rational hi = lambda.upper();
    return hi <= 1 ? Rational(0) : log(Interval(hi, p)).upper();
  }
  const Rational lo = lambda.lower();
  return lo <= 1 ? Rational(0) : log(Interval(lo, p)).lower();
}

// ---- one-use laws of a finite privacy-loss distribution ----------------------------------------

namespace {

/// An atom of one direction: P-mass p at loss ℓ (enclosed), or at +∞; `index` when ℓ = index·h.
struct LossPoint {
  bool infinite = false;
  Interval loss;
  Interval p;
  std::optional<long> index;
};

struct Direction {
  std::vector<LossPoint> points;
};

/// The grid and the four one-use laws.
struct Prepared {
  Interval step;
  bool lattice = false;
  unsigned resolution = 0;
  GridLossLaw laws[4];  // remove upper, remove lower, add upper, add lower
};

void check_common(unsigned long k, const FastCompositionOptions& o) {
  if (k < 1) throw Error("fast composition", "times", "0", "need at least one use");
  if (o.resolution < 1) throw Error("fast composition", "resolution", std::to_string(o.resolution), "must be at least 1");
  if (sgn(o.tail) < 0 || o.tail > Rational(1, 1000000000000L))
    throw Error("fast composition", "tail", to_string(o.tail), "must lie in [0, 10^-12]");
  if (sgn(o.relative_width) <= 0)
    throw Error("fast composition", "relative_width", to_string(o.relative_width), "must be positive");
}

/// The upper and lower one-use laws of a direction on the grid of step @p step.
std::pair<GridLossLaw, GridLossLaw> discretise(const Direction& d, const Interval& step, std::size_t max_points) {
  long lo = std::numeric_limits<long>::max(), hi = std::numeric_limits<long>::min();
  struct Placed {
    long a, b;  // grid indices around the loss (a = b: on the grid)
    const LossPoint* point;
  };
  std::vector<Placed> placed;
  GridLossLaw U, L;
  U.side = BoundSide::upper;
  L.side = BoundSide::lower;
  for (const LossPoint& x : d.points) {
    if (x.infinite) {
      U.infinite_mass = sum_up(U.infinite_mass, upper_double(x.p));
      L.infinite_mass = sum_down(L.infinite_mass, lower_double(x.p));
      continue;
    }
    long a, b;
    if (x.index) {
      a = b = *x.index;
    } else {
      a = floor_of(x.loss.lower() / step.upper());
      if (sgn(x.loss.lower()) < 0) a = floor_of(x.loss.lower() / step.lower());
      b = ceil_of(x.loss.upper() / (sgn(x.loss.upper()) < 0 ? step.upper() : step.lower()));
      if (b < a) b = a;
    }
    lo = std::min(lo, a);
    hi = std::max(hi, b);
    placed.push_back({a, b, &x});
  }
  if (placed.empty()) {
    U.masses.assign(1, 0.0);
    L.masses.assign(1, 0.0);
    return {U, L};
  }
  if (static_cast<unsigned long>(hi - lo) + 1 > max_points)
    throw Error("fast composition", "points", std::to_string(hi - lo + 1),
                "the one-use law would need more than " + std::to_string(max_points) + " grid points");
  const std::size_t n = static_cast<std::size_t>(hi - lo + 1);
  U.offset = L.offset = lo;
  U.masses.assign(n, 0.0);
  L.masses.assign(n, 0.0);
  const Precision prec = std::max<Precision>(step.precision(), 128);
  const Interval one(1L, prec);
  for (const Placed& x : placed) {
    double& u_a = U.masses[static_cast<std::size_t>(x.a - lo)];
    double& u_b = U.masses[static_cast<std::size_t>(x.b - lo)];
    double& l_a = L.masses[static_cast<std::size_t>(x.a - lo)];
    const Interval& p = x.point->p;
    l_a = sum_down(l_a, lower_double(p));  // lower: the loss rounded down onto the grid (mass kept)
    if (x.a == x.b) {
      u_a = sum_up(u_a, upper_double(p));
      continue;
    }
    // upper: split p between a·h and b·h keeping the P- and Q-masses: β at b·h with
    // β = p(1 − e^{ah − ℓ})/(1 − e^{−(b − a)h}), α = p − β at a·h
    const Interval ah = Interval(x.a, prec) * step;
    const Interval frac = (one - exp(ah - x.point->loss)) / (one - exp(-(Interval(x.b - x.a, prec) * step)));
    const Interval beta = p * frac, alpha = p - beta;
    const double p_hi = upper_double(p);
    u_a = sum_up(u_a, std::min(p_hi, upper_double(alpha)));
    u_b = sum_up(u_b, std::min(p_hi, upper_double(beta)));
  }
  return {U, L};
}

Rational rational_gcd(const Rational& a, const Rational& b) {
  mpz_class num, den;
  mpz_gcd(num.get_mpz_t(), a.get_num_mpz_t(), b.get_num_mpz_t());
  mpz_lcm(den.get_mpz_t(), a.get_den_mpz_t(), b.get_den_mpz_t());
  Rational g(num, den);
  g.canonicalize();
  return g;
}

Direction direction_of(const PrivacyLoss& loss, const std::optional<PrivacyLoss::Lattice>& lat, Precision prec) {
  Direction d;
  std::size_t idx = 0;
  for (const auto& a : loss.atoms()) {
    const bool finite_positive = a.ratio.is_finite() && sgn(a.ratio.value()) > 0;
    const std::optional<long> e = finite_positive && lat ? std::optional<long>(lat->exponent[idx]) : std::nullopt;
    if (finite_positive) ++idx;
    if (sgn(a.p) == 0) continue;  // ratio 0: contributes nothing in this direction
    LossPoint x;
    x.p = Interval(a.p, prec);
    if (a.ratio.is_infinite()) x.infinite = true;
    else x.loss = log(Interval(a.ratio.value(), prec)), x.index = e;
    d.points.push_back(std::move(x));
  }
  return d;
}

/// A step for non-lattice losses: the largest 2^−m ≤ (largest finite |loss|)/resolution.
Rational dyadic_step(const std::vector<const Direction*>& dirs, unsigned resolution) {
  Rational L(0);
  for (const Direction* d : dirs)
    for (const LossPoint& x : d->points)
      if (!x.infinite) {
        const Rational hi = abs(x.loss.upper()), lo = abs(x.loss.lower());
        L = std::max(L, std::max(hi, lo));
      }
  if (sgn(L) == 0) return Rational(1);
  Rational h(1), target = L / resolution;
  while (h > target) h /= 2;
  while (h * 2 <= target) h *= 2;
  return h;
}

Prepared prepare(const Direction& remove, const Direction& add, const std::optional<Interval>& lattice_step,
                 unsigned resolution, const FastCompositionOptions& o) {
  Prepared out;
  if (lattice_step) {
    out.step = *lattice_step;
    out.lattice = true;
  } else {
    out.step = Interval(dyadic_step({&remove, &add}, resolution), o.precision);
    out.resolution = resolution;
  }
  auto r = discretise(remove, out.step, o.max_points);
  auto a = discretise(add, out.step, o.max_points);
  out.laws[0] = std::move(r.first);
  out.laws[1] = std::move(r.second);
  out.laws[2] = std::move(a.first);
  out.laws[3] = std::move(a.second);
  return out;
}

struct Composed {
  Prepared prepared;
  GridLossLaw laws[4];
  std::size_t points = 0;
};

Composed compose_all(Prepared p, unsigned long k, const FastCompositionOptions& o) {
  const double tail = mpq_get_d(o.tail.get_mpq_t());
  // the k-fold law spans at most k times the one-use span: refuse before allocating
  for (const GridLossLaw& l : p.laws) {
    const double span = static_cast<double>(l.masses.size()) * static_cast<double>(k);
    if (span > 4.0 * static_cast<double>(o.max_points) && !(tail > 0))
      throw Error("fast composition", "points", std::to_string(span),
                  "the composed law would need more than max_points grid points");
  }
  Composed c;
  for (int i = 0; i < 4; ++i) {
    // a symmetric pair (the PLD of (Q, P) equals that of (P, Q): rr, dlaplace) has equal laws in
    // both directions: compose them once
    const GridLossLaw& same = p.laws[i - 2 >= 0 ? i - 2 : i];
    if (i >= 2 && p.laws[i].offset == same.offset && p.laws[i].masses == same.masses &&
        p.laws[i].infinite_mass == same.infinite_mass)
      c.laws[i] = c.laws[i - 2];
    else
      c.laws[i] = self_compose(p.laws[i], k, tail, o.convolution);
    c.points = std::max(c.points, c.laws[i].masses.size());
  }
  c.prepared = std::move(p);
  return c;
}

/// Whether the laws of one side (0, 1: remove; 2, 3: add) enter the asked direction.
bool wanted(int law, NeighbourDirection d) {
  return d == NeighbourDirection::both || (law < 2) == (d == NeighbourDirection::remove);
}

FastBracket delta_bracket(const Composed& c, const Rational& epsilon, Precision precision, NeighbourDirection d) {
  const Interval& h = c.prepared.step;
  auto at = [&](int i) { return wanted(i, d) ? grid_hockey_stick(c.laws[i], h, epsilon) : Rational(0); };
  Rational hi = std::max(at(0), at(2));
  Rational lo = std::max(at(1), at(3));
  hi = std::min(Rational(1), hi);
  lo = std::max(Rational(0), std::min(lo, hi));
  return {Interval::hull(lo, hi, precision), h, c.prepared.lattice, c.points, c.prepared.resolution};
}

FastBracket epsilon_bracket(const Composed& c, const Rational& delta, Precision precision, NeighbourDirection d) {
  const Interval& h = c.prepared.step;
  // a direction not asked contributes ε = 0 (the max ignores it)
  auto e = [&](int i) { return wanted(i, d) ? grid_least_epsilon(c.laws[i], h, delta, precision) : std::optional(Rational(0)); };
  return {least_epsilon_bracket({e(1), e(3)}, {e(0), e(2)}, precision), h, c.prepared.lattice, c.points,
          c.prepared.resolution};
}

bool narrow_enough(const Interval& v, const Rational& relative_width) {
  if (!v.lower_is_finite() || !v.upper_is_finite()) return false;
  return v.upper() - v.lower() <= relative_width * v.upper();
}

/// Runs @p evaluate on the composed laws at increasing resolutions (once for a lattice).
template <class Evaluate>
FastBracket refine(const Direction& remove, const Direction& add, const std::optional<Interval>& lattice_step,
                   unsigned long k, const FastCompositionOptions& o, Evaluate evaluate) {
  check_common(k, o);
  for (unsigned res = o.resolution;; res *= 2) {
    FastBracket b = evaluate(compose_all(prepare(remove, add, lattice_step, res, o), k, o));
    if (lattice_step || narrow_enough(b.value, o.relative_width) || res > o.max_resolution / 2) return b;
  }
}

std::pair<Direction, Direction> directions(const PrivacyLoss& base, const std::optional<Rational>& q,
                                           std::optional<Interval>& lattice_step, Precision prec) {
  if (q && (sgn(*q) <= 0 || *q > 1))
    throw Error("fast composition", "sampling_rate", to_string(*q), "must lie in (0, 1]");
  const PrivacyLoss loss = q && *q != 1 ? poisson_subsample(base, *q) : base;
  const PrivacyLoss back = loss.swapped();
  auto lat = loss.lattice();
  auto lat_back = lat ? back.lattice() : std::nullopt;
  if (lat && lat_back && lat->base == lat_back->base) {
    lattice_step = log(Interval(lat->base, prec));
  } else {
    lat.reset();
    lat_back.reset();
  }
  return {direction_of(loss, lat, prec), direction_of(back, lat_back, prec)};
}

/// The directions of the Poisson-subsampled pair (q·P + (1−q)·Q, Q) of a certified loss (q < 1):
/// an atom of ratio r and masses (p, q′) has loss ln(q·r + 1 − q) with P-mass q·p + (1−q)·q′ in the
/// remove direction, and loss −ln(q·r + 1 − q) with P-mass q′ in the add direction (+∞ stays +∞
/// with P-mass q·p). The losses are only enclosed (no lattice): the grid brackets them.
std::pair<Direction, Direction> subsampled_directions(const CertifiedLoss& loss, const Rational& q, Precision prec) {
  const Interval rate(q, prec), rest(Rational(1 - q), prec);
  Direction remove, add;
  for (const auto& a : loss.atoms()) {
    LossPoint r;
    r.p = rate * a.p + rest * a.q;
    if (a.ratio.is_infinite()) {
      r.infinite = true;
      remove.points.push_back(std::move(r));
      continue;  // no Q-mass: nothing in the add direction
    }
    const Interval loss_remove = log(rate * a.ratio.enclosure(prec) + rest);
    r.loss = loss_remove;
    remove.points.push_back(std::move(r));
    LossPoint back;
    back.p = a.q;
    back.loss = -loss_remove;
    add.points.push_back(std::move(back));
  }
  return {std::move(remove), std::move(add)};
}

/// The directions of a certified loss; a lattice step s₀ when every finite ratio is e^{s} (c = 1).
/// With a sampling rate q < 1, those of its Poisson-subsampled pair (no lattice).
std::pair<Direction, Direction> directions(const CertifiedLoss& loss, const std::optional<Rational>& q,
                                           std::optional<Interval>& lattice_step, Precision prec) {
  if (q && (sgn(*q) <= 0 || *q > 1))
    throw Error("fast composition", "sampling_rate", to_string(*q), "must lie in (0, 1]");
  if (q && *q != 1) return subsampled_directions(loss, *q, prec);
  bool lattice = true;
  Rational g(0);
  for (const auto& a : loss.atoms()) {
    if (!a.ratio.is_positive_finite()) continue;
    if (a.ratio.coefficient() != 1) lattice = false;
    else if (sgn(a.ratio.exponent()) != 0) g = sgn(g) == 0 ? Rational(abs(a.ratio.exponent())) : rational_gcd(g, abs(a.ratio.exponent()));
  }
  if (lattice && sgn(g) == 0) g = 1;
  if (lattice) lattice_step = Interval(g, prec);
  auto one = [&](const CertifiedLoss& l) {
    Direction d;
    for (const auto& a : l.atoms()) {
      if (a.ratio.is_zero()) continue;
      LossPoint x;
      x.p = a.p;
      if (a.ratio.is_infinite()) {
        x.infinite = true;
      } else {
        x.loss = log(Interval(a.ratio.coefficient(), prec)) + Interval(a.ratio.exponent(), prec);
        if (lattice) {
          const Rational e = a.ratio.exponent() / g;
          x.index = e.get_num().get_si();
        }
      }
      d.points.push_back(std::move(x));
    }
    return d;
  };
  return {one(loss), one(loss.swapped())};
}

}  // namespace

FastBracket fast_delta_at_epsilon(const PrivacyLoss& loss, unsigned long k, const Rational& epsilon,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(epsilon) < 0) throw Error("fast composition", "epsilon", to_string(epsilon), "must be non-negative");
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return delta_bracket(c, epsilon, options.precision, options.direction);
  });
}

FastBracket fast_epsilon_at_delta(const PrivacyLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("fast composition", "delta", to_string(delta), "must lie in (0, 1]");
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return epsilon_bracket(c, delta, options.precision, options.direction);
  });
}

FastBracket fast_delta_at_epsilon(const CertifiedLoss& loss, unsigned long k, const Rational& epsilon,
                                  const FastCompositionOptions& options) {
  return fast_delta_at_epsilon(loss, k, epsilon, std::nullopt, options);
}

FastBracket fast_epsilon_at_delta(const CertifiedLoss& loss, unsigned long k, const Rational& delta,
                                  const FastCompositionOptions& options) {
  return fast_epsilon_at_delta(loss, k, delta, std::nullopt, options);
}

FastBracket fast_delta_at_epsilon(const CertifiedLoss& loss, unsigned long k, const Rational& epsilon,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(epsilon) < 0) throw Error("fast composition", "epsilon", to_string(epsilon), "must be non-negative");
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return delta_bracket(c, epsilon, options.precision, options.direction);
  });
}

FastBracket fast_epsilon_at_delta(const CertifiedLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("fast composition", "delta", to_string(delta), "must lie in (0, 1]");
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return epsilon_bracket(c, delta, options.precision, options.direction);
  });
}

}  // namespace exactdp
