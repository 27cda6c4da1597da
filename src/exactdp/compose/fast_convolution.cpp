// Fast certified composition (the argument is in the header's file comment): one-use laws on a
// grid, powers by certified repeated squaring, evaluations in directed-rounded binary64.
#include "exactdp/compose/fast_convolution.hpp"

#include "exactdp/compose/grid_merge.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/functionals.hpp"
#include "exactdp/numeric/directed_rounding.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
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
  std::optional<Rational> dyadic;  // the step when the losses are off a lattice
  GridLossLaw laws[4];  // remove upper, remove lower, add upper, add lower
};

/// A block of a composition: the exact law of some uses (one, or several composed atom by atom),
/// used `times` times.
struct Block {
  Direction remove, add;
  unsigned long times = 1;
};

void check_common(unsigned long k, const FastCompositionOptions& o) {
  if (k < 1) throw Error("fast composition", "times", "0", "need at least one use");
  if (o.resolution < 1) throw Error("fast composition", "resolution", std::to_string(o.resolution), "must be at least 1");
  if (sgn(o.tail) < 0 || o.tail > Rational(1, 1000000000000L))
    throw Error("fast composition", "tail", to_string(o.tail), "must lie in [0, 10^-12]");
  if (sgn(o.relative_width) <= 0)
    throw Error("fast composition", "relative_width", to_string(o.relative_width), "must be positive");
}

/// The upper and lower one-use laws of a direction on the grid of step @p step (the rational
/// @p dyadic when the losses are off the grid, else a lattice step). Upper: each off-grid atom
/// split between the grid points around it with its P- and Q-masses kept. Lower: on a lattice the
/// masses rounded down; off it, the atoms merged onto the grid (compose/grid_merge.hpp, a
/// post-processing: second order in the step where the atoms are dense, where a loss rounded down
/// would err by up to a step per use).
std::pair<GridLossLaw, GridLossLaw> discretise(const Direction& d, const Interval& step, std::size_t max_points,
                                               const std::optional<Rational>& dyadic, double tail) {
  long lo = std::numeric_limits<long>::max(), hi = std::numeric_limits<long>::min();
  struct Placed {
    long a, b;  // grid indices around the loss (a = b: on the grid)
    const LossPoint* point;
  };
  std::vector<Placed> placed;
  GridLossLaw U, L;
  U.side = BoundSide::upper;
  L.side = BoundSide::lower;
  // Tails of P-mass at most `tail` at each end are moved before the law is laid out, as
  // truncate_tails would move them after: the top to +∞ (upper law), the bottom up onto the lowest
  // kept atom (upper law; a loss raised), both dropped from the lower law. A block of many uses
  // then spans its bulk, not k0 times the one-use span.
  std::vector<const LossPoint*> finite;
  for (const LossPoint& x : d.points)
    if (!x.infinite) finite.push_back(&x);
  std::sort(finite.begin(), finite.end(), [](const LossPoint* u, const LossPoint* v) {
    return mpfr_cmp(&u->loss.get()->left, &v->loss.get()->left) < 0;
  });
  std::size_t first = 0, last = finite.size();
  double bottom_mass = 0, top_mass = 0;
  while (first + 1 < last && sum_up(bottom_mass, upper_double(finite[first]->p)) <= tail)
    bottom_mass = sum_up(bottom_mass, upper_double(finite[first++]->p));
  while (last > first + 1 && sum_up(top_mass, upper_double(finite[last - 1]->p)) <= tail)
    top_mass = sum_up(top_mass, upper_double(finite[--last]->p));
  U.infinite_mass = top_mass;
  for (const LossPoint& x : d.points) {
    if (x.infinite) {
      U.infinite_mass = sum_up(U.infinite_mass, upper_double(x.p));
      L.infinite_mass = sum_down(L.infinite_mass, lower_double(x.p));
    }
  }
  // the grid indices a ≤ b with a·h ≤ ℓ ≤ b·h (a = b on a lattice)
  auto around = [&](const LossPoint& x) -> std::pair<long, long> {
    if (x.index) return {*x.index, *x.index};
    long a = floor_of(x.loss.lower() / step.upper());
    if (sgn(x.loss.lower()) < 0) a = floor_of(x.loss.lower() / step.lower());
    const long b = ceil_of(x.loss.upper() / (sgn(x.loss.upper()) < 0 ? step.upper() : step.lower()));
    return {a, std::max(a, b)};
  };
  for (std::size_t i = first; i < last; ++i) {
    const auto [a, b] = around(*finite[i]);
    lo = std::min(lo, a);
    hi = std::max(hi, b);
    placed.push_back({a, b, finite[i]});
  }
  long bottom_at = lo;  // at or above every moved bottom atom's loss
  for (std::size_t i = 0; i < first; ++i) bottom_at = std::max(bottom_at, around(*finite[i]).second);
  hi = std::max(hi, bottom_at);
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
  U.masses[static_cast<std::size_t>(bottom_at - lo)] = bottom_mass;  // the bottom tail, its losses raised
  const Precision prec = std::max<Precision>(step.precision(), 128);
  const Interval one(1L, prec);
  std::vector<GridMergeAtom> atoms;
  if (dyadic) atoms.reserve(placed.size());
  // e^{wh} and 1 − e^{−wh} by the width w of the gap around an atom (almost always 1)
  std::map<long, std::pair<Interval, Interval>> widths;
  auto width = [&](long w) -> const std::pair<Interval, Interval>& {
    auto it = widths.find(w);
    if (it == widths.end()) {
      const Interval wh = Interval(w, prec) * step;
      it = widths.emplace(w, std::pair{exp(wh), one - exp(-wh)}).first;
    }
    return it->second;
  };
  for (const Placed& x : placed) {
    double& u_a = U.masses[static_cast<std::size_t>(x.a - lo)];
    double& u_b = U.masses[static_cast<std::size_t>(x.b - lo)];
    double& l_a = L.masses[static_cast<std::size_t>(x.a - lo)];
    const Interval& p = x.point->p;
    l_a = sum_down(l_a, lower_double(p));  // the loss rounded down onto the grid (mass kept; exact on a lattice)
    if (x.a == x.b) {
      u_a = sum_up(u_a, upper_double(p));
      if (dyadic) atoms.push_back({x.a, x.a, lower_double(p), lower_double(p), true});
      continue;
    }
    // upper: split p between a·h and b·h keeping the P- and Q-masses: β at b·h with
    // β = p(1 − e^{ah − ℓ})/(1 − e^{−(b − a)h}), α = p − β at a·h
    const Interval below = exp(Interval(x.a, prec) * step - x.point->loss);  // e^{ah − ℓ}
    const auto& [up, down] = width(x.b - x.a);
    const Interval beta = p * ((one - below) / down), alpha = p - beta;
    const double p_hi = upper_double(p);
    u_a = sum_up(u_a, std::min(p_hi, upper_double(alpha)));
    u_b = sum_up(u_b, std::min(p_hi, upper_double(beta)));
    // lower: an atom with loss in (ah, bh] and Q-mass·e^{bh} = p·e^{bh − ℓ}, to be merged
    if (dyadic) atoms.push_back({x.a, x.b, lower_double(p), upper_double(p * below * up), false});
  }
  if (dyadic) {
    std::stable_sort(atoms.begin(), atoms.end(), [](const GridMergeAtom& u, const GridMergeAtom& v) {
      return u.low != v.low ? u.low < v.low : u.high < v.high;
    });
    // atoms far apart on a fine grid (farther than a carry reaches, or pulled together by fractions of
    // distant atoms) can merge worse than their losses rounded down: keep the better of the two
    GridLossLaw merged = merged_lower_law(atoms, *dyadic, L.infinite_mass);
    if (&better_lower(L, merged, *dyadic) == &merged) L = std::move(merged);
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

/// A step for non-lattice losses: the largest 2^−m ≤ L/resolution, L the largest finite |loss| of
/// an atom with P-mass above @p tail. Lighter atoms are gridded too, but the first truncation of
/// the tails moves them (at most @p tail at each end): spending the resolution on their losses
/// left a truncated discrete Gaussian under subsampling (losses up to ~13, its mass within ~2)
/// a few points across its bulk. Only the grid depends on this choice, not the soundness.
Rational dyadic_step(const std::vector<const Direction*>& dirs, unsigned resolution, double tail) {
  Rational L(0);
  for (const Direction* d : dirs)
    for (const LossPoint& x : d->points)
      if (!x.infinite && upper_double(x.p) > tail) {
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
  std::optional<Rational>& dyadic = out.dyadic;
  if (lattice_step) {
    out.step = *lattice_step;
    out.lattice = true;
  } else {
    dyadic = dyadic_step({&remove, &add}, resolution, mpq_get_d(o.tail.get_mpq_t()));
    out.step = Interval(*dyadic, o.precision);
    out.resolution = resolution;
  }
  const double tail = mpq_get_d(o.tail.get_mpq_t());
  auto r = discretise(remove, out.step, o.max_points, dyadic, tail);
  auto a = discretise(add, out.step, o.max_points, dyadic, tail);
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

/// The composition of @p blocks on the grid of @p grid (each block's laws discretised on that grid,
/// composed its number of times, and the blocks convolved): laws of a block of uses composed atom
/// by atom are dense where a one-use law of isolated atoms is not, so their merge onto the grid
/// (the lower law) is second order in the step.
Composed compose_blocks(Prepared grid, const std::vector<Block>& blocks, const FastCompositionOptions& o) {
  const double tail = mpq_get_d(o.tail.get_mpq_t());
  Composed c;
  bool first = true;
  for (const Block& b : blocks) {
    Prepared laws;
    laws.step = grid.step;
    auto r = discretise(b.remove, grid.step, o.max_points, grid.dyadic, tail);
    auto a = discretise(b.add, grid.step, o.max_points, grid.dyadic, tail);
    laws.laws[0] = std::move(r.first);
    laws.laws[1] = std::move(r.second);
    laws.laws[2] = std::move(a.first);
    laws.laws[3] = std::move(a.second);
    Composed part = compose_all(std::move(laws), b.times, o);
    for (int i = 0; i < 4; ++i) {
      c.laws[i] = first ? std::move(part.laws[i]) : convolve(c.laws[i], part.laws[i], tail, o.convolution);
      c.points = std::max(c.points, c.laws[i].masses.size());
    }
    first = false;
  }
  c.prepared = std::move(grid);
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

/// The intersection of two brackets of one true value (each may have an upper end +∞; the point
/// +∞ only when the truth is +∞). A finer grid does not always give a narrower single bracket (a
/// lower law's rounding can land worse), so the refinement keeps the intersection: it never widens.
Interval intersect_brackets(const Interval& a, const Interval& b, Precision precision) {
  const bool a_point_inf = !a.lower_is_finite(), b_point_inf = !b.lower_is_finite();
  if (a_point_inf || b_point_inf) return a_point_inf ? a : b;
  const Rational lo = std::max(a.lower(), b.lower());
  if (!a.upper_is_finite() && !b.upper_is_finite()) return Interval::at_least(lo, precision);
  const Rational hi = !a.upper_is_finite() ? b.upper() : !b.upper_is_finite() ? a.upper() : std::min(a.upper(), b.upper());
  return Interval::hull(lo, std::max(lo, hi), precision);
}

bool narrow_enough(const Interval& v, const Rational& relative_width) {
  if (!v.lower_is_finite() || !v.upper_is_finite()) return false;
  return v.upper() - v.lower() <= relative_width * v.upper();
}

/// Runs @p evaluate on the composed laws at increasing resolutions (once for a lattice): the k-fold
/// power of the one-use laws, or, with @p blocks, their composition (compose_blocks) on the grid the
/// one-use losses choose.
template <class Evaluate>
FastBracket refine(const Direction& remove, const Direction& add, const std::optional<Interval>& lattice_step,
                   unsigned long k, const FastCompositionOptions& o, Evaluate evaluate, const std::vector<Block>& blocks = {}) {
  check_common(k, o);
  std::optional<Interval> seen;  // the intersection of the brackets so far: each contains the truth
  for (unsigned res = o.resolution;; res *= 2) {
    Prepared grid = prepare(remove, add, lattice_step, res, o);
    FastBracket b = evaluate(blocks.empty() || lattice_step ? compose_all(std::move(grid), k, o)
                                                            : compose_blocks(std::move(grid), blocks, o));
    if (seen) b.value = intersect_brackets(*seen, b.value, o.precision);
    seen = b.value;
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

// ---- small finite pairs: composed atom by atom, losses exact ----------------------------------

/// One outcome class of a finite one-use pair with both masses positive: A its mass in the first
/// law of the remove direction (P, or q·P + (1 − q)·Q when subsampled), B in the second.
struct PairAtom {
  Interval a, b;
};

/// A finite one-use pair as the enumeration needs it: the atoms with A, B > 0, and the total
/// masses of the outcomes of one law only (ratio +∞ in the remove direction: A with B = 0; in the
/// add direction: B with A = 0).
struct FinitePair {
  std::vector<PairAtom> atoms;
  Interval a_only, b_only;
};

FinitePair finite_pair(const PrivacyLoss& base, const std::optional<Rational>& q, Precision prec) {
  const PrivacyLoss loss = q && *q != 1 ? poisson_subsample(base, *q) : base;
  FinitePair f{{}, Interval::zero(prec), Interval::zero(prec)};
  for (const auto& a : loss.atoms()) {
    if (a.ratio.is_infinite()) f.a_only += Interval(a.p, prec);
    else if (sgn(a.ratio.value()) == 0) f.b_only += Interval(a.q, prec);
    else f.atoms.push_back({Interval(a.p, prec), Interval(a.q, prec)});
  }
  return f;
}

/// The same for a certified loss, Poisson-subsampled at @p q < 1 if given: an atom with masses
/// (p, q′) becomes (q·p + (1 − q)·q′, q′) (the ratio-0 atoms then have both masses positive).
FinitePair finite_pair(const CertifiedLoss& loss, const std::optional<Rational>& q, Precision prec) {
  const bool sampled = q && *q != 1;
  const Interval rate(sampled ? *q : Rational(1), prec), rest(sampled ? Rational(1 - *q) : Rational(0), prec);
  FinitePair f{{}, Interval::zero(prec), Interval::zero(prec)};
  for (const auto& a : loss.atoms()) {
    if (a.ratio.is_infinite()) f.a_only += rate * a.p;  // no Q-mass: B = 0 exactly
    else if (a.ratio.is_zero() && !sampled) f.b_only += a.q;
    else f.atoms.push_back({sampled ? rate * a.p + rest * a.q : a.p, a.q});
  }
  return f;
}

bool is_exact_zero(const Interval& x) { return mpfr_zero_p(&x.get()->left) && mpfr_zero_p(&x.get()->right); }

/// The k-fold composition of a finite pair, atom by atom: for every count vector n (n_i uses
/// fall on atom i, Σ n_i = k) the masses A(n) = (k; n)·Π A_i^{n_i} and B(n) likewise, and the
/// loss Σ n_i·ln(A_i/B_i), all enclosed in interval arithmetic at the working precision. The
/// vectors are walked so that each follows from a neighbour by one step n_d + 1, n_last − 1, which
/// multiplies A by n_last/(n_d + 1)·A_d/A_last (B likewise) and adds ln(A_d/B_d) − ln(A_last/B_last)
/// to the loss: floating enclosures keep their relative accuracy however small a mass gets (a
/// fixed-point product would lose the Q-masses of the top losses, which the least ε needs), and
/// losses are never rounded onto a grid, so the brackets are as narrow as the working precision.
struct Enumerated {
  std::vector<Interval> a, b, loss;  ///< the composed atoms with A, B > 0, ascending loss (enclosures ordered by lower end)
  /// Consecutive runs of atoms whose loss enclosures overlap (their order undecided): [begin, end)
  /// of each run, in order; a run of one atom is certainly ordered.
  std::vector<std::pair<std::size_t, std::size_t>> runs;
  Interval remove_catastrophic, add_catastrophic;  ///< 1 − (1 − a_only)^k, 1 − (1 − b_only)^k
};

/// C(k + m − 1, m − 1), the number of count vectors of k uses on m atoms, or 0 above @p cap.
std::size_t count_vectors(std::size_t m, unsigned long k, std::size_t cap) {
  if (m <= 1) return 1;
  long double c = 1;  // C(k + j, j) for j = 1 … m − 1, exact while it stays below 2^64
  for (std::size_t j = 1; j < m; ++j) {
    c = c * (static_cast<long double>(k) + static_cast<long double>(j)) / static_cast<long double>(j);
    if (c > static_cast<long double>(cap)) return 0;
  }
  return static_cast<std::size_t>(c + 0.5L);
}

std::optional<Enumerated> enumerate(const FinitePair& f, unsigned long k, const FastCompositionOptions& o) {
  const std::size_t m = f.atoms.size();
  if (o.max_enumerated_atoms == 0) return std::nullopt;
  const std::size_t count = count_vectors(m, k, o.max_enumerated_atoms);
  if (count == 0) return std::nullopt;
  const Precision prec = o.precision;
  const Interval one(1L, prec);
  Enumerated e;
  auto catastrophic = [&](const Interval& only) {
    return is_exact_zero(only) ? Interval::zero(prec) : one - pow(one - only, static_cast<long>(k));
  };
  e.remove_catastrophic = catastrophic(f.a_only);
  e.add_catastrophic = catastrophic(f.b_only);
  if (m == 0) return e;
  const PairAtom& last = f.atoms[m - 1];
  const Interval last_loss = log(last.a) - log(last.b);
  std::vector<Interval> step_a, step_b, step_loss;  // per dimension d < m − 1
  for (std::size_t d = 0; d + 1 < m; ++d) {
    step_a.push_back(f.atoms[d].a / last.a);
    step_b.push_back(f.atoms[d].b / last.b);
    step_loss.push_back(log(f.atoms[d].a) - log(f.atoms[d].b) - last_loss);
  }
  std::vector<Interval> a, b, loss;
  a.reserve(count);
  b.reserve(count);
  loss.reserve(count);
  const long kk = static_cast<long>(k);
  // depth-first over d = 0 … m − 2; `rest` uses are still on the last atom
  auto walk = [&](auto&& self, std::size_t d, Interval x, Interval y, Interval l, unsigned long rest) -> void {
    if (d + 1 == m) {
      a.push_back(std::move(x));
      b.push_back(std::move(y));
      loss.push_back(std::move(l));
      return;
    }
    for (unsigned long c = 0;; ++c) {
      self(self, d + 1, x, y, l, rest - c);
      if (c == rest) break;
      const Interval factor = Interval(static_cast<long>(rest - c), prec) / Interval(static_cast<long>(c + 1), prec);
      x *= factor * step_a[d];
      y *= factor * step_b[d];
      l += step_loss[d];
    }
  };
  walk(walk, 0, pow(last.a, kk), pow(last.b, kk), Interval(kk, prec) * last_loss, k);
  std::vector<std::size_t> order(a.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return mpfr_cmp(&loss[x].get()->left, &loss[y].get()->left) < 0;
  });
  // permute in place by swapping MPFI values (no allocation: the three vectors are most of the memory)
  std::vector<bool> placed(order.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (placed[i]) continue;
    for (std::size_t j = i;;) {
      placed[j] = true;
      const std::size_t next = order[j];
      if (next == i) break;
      mpfi_swap(a[j].get(), a[next].get());
      mpfi_swap(b[j].get(), b[next].get());
      mpfi_swap(loss[j].get(), loss[next].get());
      j = next;
    }
  }
  e.a = std::move(a);
  e.b = std::move(b);
  e.loss = std::move(loss);
  // runs: an atom starts a new run when its loss is certainly above every loss before it
  for (std::size_t i = 0; i < e.loss.size();) {
    std::size_t end = i + 1;
    mpfr_srcptr reach = &e.loss[i].get()->right;
    while (end < e.loss.size() && mpfr_cmp(&e.loss[end].get()->left, reach) <= 0) {
      if (mpfr_cmp(&e.loss[end].get()->right, reach) > 0) reach = &e.loss[end].get()->right;
      ++end;
    }
    e.runs.emplace_back(i, end);
    i = end;
  }
  return e;
}

/// H_λ of the composed pair in one direction (remove: Σ (A − λB)⁺, add: Σ (B − λA)⁺, plus the
/// mass of that direction's first law only), certified.
Interval enumerated_hockey_stick(const Enumerated& e, const Interval& lambda, bool add) {
  Interval h = add ? e.add_catastrophic : e.remove_catastrophic;
  for (std::size_t i = 0; i < e.a.size(); ++i)
    h += add ? hockey_stick_term(e.b[i], e.a[i], lambda) : hockey_stick_term(e.a[i], e.b[i], lambda);
  return h;
}

/// The least λ of one direction, bounded from @p side, by least_lambda_by_suffixes over the atoms
/// from the highest loss of that direction down. A run of atoms whose order is undecided is
/// replaced by one atom: for the lower bound their merge (ΣA, ΣB) — a post-processing of the pair,
/// which lowers every H_λ and so the least λ; for the upper bound (ΣA, ΣA·e^{−t}) with t the top of
/// the run's losses — Q-masses lowered, which raises every H_λ. Either way the order is certain.
/// Returns least_lambda_by_suffixes's enclosure: its lower end bounds the least λ from below (both
/// sides), its upper end from above (for side = upper, or when no run has two atoms).
Interval enumerated_least_lambda(const Enumerated& e, const Rational& delta, bool add, BoundSide side, Precision prec) {
  const std::size_t n = e.runs.size();
  std::size_t r = 0;
  const Interval lambda = least_lambda_by_suffixes(add ? e.add_catastrophic : e.remove_catastrophic, delta, prec,
                                                   [&](Interval& pm, Interval& qm) {
    if (r == n) return false;
    // remove: runs from the top loss down; add: losses negated, so from the bottom up
    const auto [begin, end] = e.runs[add ? r : n - 1 - r];
    ++r;
    const std::vector<Interval>& first = add ? e.b : e.a;
    const std::vector<Interval>& second = add ? e.a : e.b;
    pm = first[begin];
    qm = second[begin];
    if (end - begin == 1) return true;
    for (std::size_t i = begin + 1; i < end; ++i) {
      pm += first[i];
      qm += second[i];
    }
    if (side == BoundSide::upper) {
      // the run's top loss in this direction: remove the largest upper end, add minus the least lower end
      Interval top(add ? Rational(-e.loss[begin].lower()) : e.loss[begin].upper(), prec);
      for (std::size_t i = begin + 1; i < end; ++i)
        top = max(top, Interval(add ? Rational(-e.loss[i].lower()) : e.loss[i].upper(), prec));
      qm = pm * exp(-top);
    }
    return true;
  });
  return lambda;
}

/// ε = ln λ from the lower (side = lower) or upper end of an enclosure of the least λ, on that
/// side of the true ε (0 where λ ≤ 1); std::nullopt for +∞.
std::optional<Rational> epsilon_of(const Interval& lambda, BoundSide side, Precision prec) {
  if (!lambda.lower_is_finite()) return std::nullopt;  // the point +∞
  if (side == BoundSide::upper && !lambda.upper_is_finite()) return std::nullopt;
  const Rational l = side == BoundSide::upper ? lambda.upper() : lambda.lower();
  if (l <= 1) return Rational(0);
  const Interval e = log(Interval(l, prec));
  return side == BoundSide::upper ? e.upper() : e.lower();
}

bool has_undecided_run(const Enumerated& e) {
  return std::any_of(e.runs.begin(), e.runs.end(), [](const auto& r) { return r.second - r.first > 1; });
}

FastBracket enumerated_bracket(const Enumerated& e, Interval value, Precision prec) {
  FastBracket b{std::move(value), Interval::zero(prec), false, e.a.size(), 0};
  b.enumerated = true;
  return b;
}

/// The exact law of a block composed atom by atom, as the two directions of its loss: remove
/// (P-mass A at loss ℓ, A-only mass at +∞), add (B at −ℓ, B-only mass at +∞).
Block block_of(const Enumerated& e, unsigned long times) {
  Block b;
  b.times = times;
  b.remove.points.reserve(e.a.size() + 1);
  b.add.points.reserve(e.a.size() + 1);
  for (std::size_t i = 0; i < e.a.size(); ++i) {
    LossPoint r;
    r.p = e.a[i];
    r.loss = e.loss[i];
    b.remove.points.push_back(std::move(r));
    LossPoint a;
    a.p = e.b[i];
    a.loss = -e.loss[i];
    b.add.points.push_back(std::move(a));
  }
  auto catastrophic = [](Direction& d, const Interval& mass) {
    if (is_exact_zero(mass)) return;
    LossPoint x;
    x.infinite = true;
    x.p = mass;
    d.points.push_back(std::move(x));
  };
  catastrophic(b.remove, e.remove_catastrophic);
  catastrophic(b.add, e.add_catastrophic);
  return b;
}

/// The blocks of a k-fold composition of @p f too long to compose atom by atom: k0 uses composed
/// atom by atom (the largest k0 < k whose count vectors number at most
/// FastCompositionOptions::max_block_atoms), used ⌊k/k0⌋ times, and the k mod k0 uses left, once.
/// Empty when k0 would be 1 (the one-use laws are the blocks).
std::vector<Block> composition_blocks(const FinitePair& f, unsigned long k, const FastCompositionOptions& o) {
  const std::size_t m = f.atoms.size();
  if (o.max_block_atoms == 0 || m < 2) return {};
  unsigned long k0 = 1;
  while (k0 + 1 < k && count_vectors(m, k0 + 1, o.max_block_atoms) != 0) ++k0;
  if (k0 < 2) return {};
  FastCompositionOptions block = o;
  block.max_enumerated_atoms = o.max_block_atoms;
  std::vector<Block> blocks;
  blocks.push_back(block_of(*enumerate(f, k0, block), k / k0));
  if (k % k0 != 0) blocks.push_back(block_of(*enumerate(f, k % k0, block), 1));
  return blocks;
}

FastBracket enumerated_delta(const Enumerated& e, const Rational& epsilon, const FastCompositionOptions& o) {
  const Interval lambda = exp(Interval(epsilon, o.precision));
  const bool remove = o.direction != NeighbourDirection::add, add = o.direction != NeighbourDirection::remove;
  Interval h = Interval::zero(o.precision);
  if (remove) h = enumerated_hockey_stick(e, lambda, false);
  if (add) h = remove ? max(h, enumerated_hockey_stick(e, lambda, true)) : enumerated_hockey_stick(e, lambda, true);
  Rational lo = std::max(Rational(0), h.lower()), hi = std::min(Rational(1), h.upper());
  if (lo > hi) lo = hi;
  return enumerated_bracket(e, Interval::hull(lo, hi, o.precision), o.precision);
}

FastBracket enumerated_epsilon(const Enumerated& e, const Rational& delta, const FastCompositionOptions& o) {
  const Precision p = o.precision;
  const bool split = has_undecided_run(e);
  auto bounds = [&](bool add) -> std::pair<std::optional<Rational>, std::optional<Rational>> {
    if (!wanted(add ? 2 : 0, o.direction)) return {Rational(0), Rational(0)};  // a direction not asked: ε = 0
    // one pass when every run is a single atom (the order is certain); else one per side
    const Interval lo = enumerated_least_lambda(e, delta, add, BoundSide::lower, p);
    const Interval hi = split ? enumerated_least_lambda(e, delta, add, BoundSide::upper, p) : lo;
    return {epsilon_of(lo, BoundSide::lower, p), epsilon_of(hi, BoundSide::upper, p)};
  };
  const auto r = bounds(false), a = bounds(true);
  return enumerated_bracket(e, least_epsilon_bracket({r.first, a.first}, {r.second, a.second}, p), p);
}

}  // namespace

namespace {

/// fast_composition_on_grid for either kind of loss.
template <class Loss>
bool on_grid(const Loss& loss, unsigned long k, const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  std::optional<Interval> lattice_step;
  directions(loss, sampling_rate, lattice_step, options.precision);
  if (lattice_step) return false;
  const FinitePair f = finite_pair(loss, sampling_rate, options.precision);
  return options.max_enumerated_atoms == 0 || count_vectors(f.atoms.size(), k, options.max_enumerated_atoms) == 0;
}

}  // namespace

bool fast_composition_on_grid(const PrivacyLoss& loss, unsigned long k, const std::optional<Rational>& sampling_rate,
                              const FastCompositionOptions& options) {
  return on_grid(loss, k, sampling_rate, options);
}

bool fast_composition_on_grid(const CertifiedLoss& loss, unsigned long k, const std::optional<Rational>& sampling_rate,
                              const FastCompositionOptions& options) {
  return on_grid(loss, k, sampling_rate, options);
}

namespace {

/// One question of k uses of @p loss: a finite pair off any lattice is enumerated atom by atom when
/// it is small enough (@p exact answers it) or composed in blocks; every other law on the grid,
/// where @p bracket answers each composed law.
template <class Exact, class Bracket>
FastBracket fast_answer(const PrivacyLoss& loss, unsigned long k, const std::optional<Rational>& sampling_rate,
                        const FastCompositionOptions& options, const Exact& exact, const Bracket& bracket) {
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  std::vector<Block> blocks;
  if (!lattice_step) {
    check_common(k, options);
    const FinitePair f = finite_pair(loss, sampling_rate, options.precision);
    if (auto e = enumerate(f, k, options)) return exact(*e);
    blocks = composition_blocks(f, k, options);
  }
  return refine(remove, add, lattice_step, k, options, bracket, blocks);
}

}  // namespace

FastBracket fast_delta_at_epsilon(const PrivacyLoss& loss, unsigned long k, const Rational& epsilon,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(epsilon) < 0) throw Error("fast composition", "epsilon", to_string(epsilon), "must be non-negative");
  return fast_answer(
      loss, k, sampling_rate, options, [&](const auto& e) { return enumerated_delta(e, epsilon, options); },
      [&](const Composed& c) { return delta_bracket(c, epsilon, options.precision, options.direction); });
}

FastBracket fast_epsilon_at_delta(const PrivacyLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("fast composition", "delta", to_string(delta), "must lie in (0, 1]");
  return fast_answer(
      loss, k, sampling_rate, options, [&](const auto& e) { return enumerated_epsilon(e, delta, options); },
      [&](const Composed& c) { return epsilon_bracket(c, delta, options.precision, options.direction); });
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
  std::vector<Block> blocks;
  if (!lattice_step) {
    check_common(k, options);
    const FinitePair f = finite_pair(loss, sampling_rate, options.precision);
    if (auto e = enumerate(f, k, options)) return enumerated_delta(*e, epsilon, options);
    blocks = composition_blocks(f, k, options);
  }
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return delta_bracket(c, epsilon, options.precision, options.direction);
  }, blocks);
}

FastBracket fast_epsilon_at_delta(const CertifiedLoss& loss, unsigned long k, const Rational& delta,
                                  const std::optional<Rational>& sampling_rate, const FastCompositionOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("fast composition", "delta", to_string(delta), "must lie in (0, 1]");
  std::optional<Interval> lattice_step;
  const auto [remove, add] = directions(loss, sampling_rate, lattice_step, options.precision);
  std::vector<Block> blocks;
  if (!lattice_step) {
    check_common(k, options);
    const FinitePair f = finite_pair(loss, sampling_rate, options.precision);
    if (auto e = enumerate(f, k, options)) return enumerated_epsilon(*e, delta, options);
    blocks = composition_blocks(f, k, options);
  }
  return refine(remove, add, lattice_step, k, options, [&](const Composed& c) {
    return epsilon_bracket(c, delta, options.precision, options.direction);
  }, blocks);
}

}  // namespace exactdp
