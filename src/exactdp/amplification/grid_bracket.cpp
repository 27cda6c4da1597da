// The certified grid brackets of amplification/poisson.hpp: one-use laws split (upper) and merged
// (lower) onto a grid, convolutions widened by an a-priori rounding bound, composed laws re-gridded
// as they spread. The argument is stated in the header's file comment and docs/audit-subsampling.md.
#include "exactdp/amplification/poisson.hpp"

#include "exactdp/core/error.hpp"

#include <mpfi.h>
#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace exactdp {
namespace {

// ---- directed rounding of non-negative binary64 -------------------------------------------------
// A round-to-nearest result lies within half an ulp of the exact value, so the neighbouring double
// above (below) bounds it from above (below). Every mass handled here is >= 0.
constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline double next_up(double x) {
  if (x == kInfinity) return x;
  if (!(x > 0)) return std::numeric_limits<double>::denorm_min();
  return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) + 1);
}
inline double next_down(double x) { return x > 0 ? std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) - 1) : 0.0; }
/// a + b rounded up; exact 0 only when both are 0.
inline double sum_up(double a, double b) { return a + b == 0 ? 0.0 : next_up(a + b); }
inline double sum_down(double a, double b) { return next_down(a + b); }
/// a·b rounded up, also when the product underflows.
inline double prod_up(double a, double b) {
  const double r = a * b;
  if (r == 0) return a == 0 || b == 0 ? 0.0 : std::numeric_limits<double>::denorm_min();
  return next_up(r);
}
inline double prod_down(double a, double b) { return next_down(a * b); }

/// Masses below this are moved to +∞ (upper laws) or dropped (lower laws) before any product is
/// formed, so products never leave the normal range and the convolution bound needs no
/// absolute (underflow) term. Moving mass of at most 2^−500 per point is negligible.
constexpr double kFloor = 0x1p-500;

/// The widest one-use bin, in grid steps (see bin_boundaries).
constexpr long kBlock = 64;

enum class Side { upper, lower };

/// The law of a privacy loss under the pair's first distribution, on the grid step·ℤ: mass m[i]
/// at loss (offset + i)·step, mass inf at +∞; mass not stored sits at −∞ (it contributes nothing).
/// An upper law's stored masses are upper bounds of a pair that dominates the truth, a lower law's
/// lower bounds of a pair the truth dominates (header comment, facts 1–3).
struct GridLaw {
  Side side = Side::upper;
  Rational step;
  long offset = 0;
  std::vector<double> m;
  double inf = 0;
};

double step_double(const GridLaw& a) { return mpq_get_d(a.step.get_mpq_t()); }

double total(const GridLaw& a) {
  double t = 0;
  for (double x : a.m) t = a.side == Side::upper ? sum_up(t, x) : sum_down(t, x);
  return t;
}

/// The standard deviation of a law's finite part (a heuristic: it only chooses the grid).
double deviation(const GridLaw& a) {
  double w = 0, s = 0, s2 = 0;
  const double h = step_double(a);
  for (std::size_t i = 0; i < a.m.size(); ++i) {
    const double x = static_cast<double>(a.offset + static_cast<long>(i)) * h;
    w += a.m[i];
    s += a.m[i] * x;
  }
  if (!(w > 0)) return 0;
  const double mean = s / w;
  for (std::size_t i = 0; i < a.m.size(); ++i) {
    const double d = static_cast<double>(a.offset + static_cast<long>(i)) * h - mean;
    s2 += a.m[i] * d * d;
  }
  return std::sqrt(s2 / w);
}

/// Bounds of the constants of one grid step h.
struct StepBounds {
  double exp_lo = 1, exp_hi = 1;  ///< e^h
  double exp_neg_hi = 1;          ///< e^−h
  double split_low_hi = 0;        ///< 1/(1 + e^h): share of a midpoint atom moved to the lower point
  double split_high_hi = 0;       ///< e^h/(1 + e^h): share moved to the upper point
};

double lower_double(const Interval& x) {
  if (!x.lower_is_finite()) return 0.0;
  return std::max(0.0, mpfr_get_d(&x.get()->left, MPFR_RNDD));
}
// MPFI writes a zero right endpoint as −0; masses are >= 0, so a non-positive bound is +0.
double upper_double(const Interval& x) {
  if (!x.upper_is_finite()) return kInfinity;
  const double d = mpfr_get_d(&x.get()->right, MPFR_RNDU);
  return d > 0 ? d : 0.0;
}

StepBounds step_bounds(const Rational& h) {
  const Precision p = 128;
  const Interval e = exp(Interval(h, p));
  const Interval one(Rational(1), p);
  StepBounds b;
  b.exp_lo = lower_double(e);
  b.exp_hi = upper_double(e);
  b.exp_neg_hi = upper_double(one / e);
  b.split_low_hi = upper_double(one / (one + e));
  b.split_high_hi = upper_double(e / (one + e));
  return b;
}

/// Moves masses below kFloor away, drops exact zeros at both ends, then moves a tail of mass at
/// most @p tail at each end: to +∞ / onto the lowest point (upper law), onto the highest point /
/// dropped (lower law). All are monotone moves (fact 1).
void truncate(GridLaw& a, double tail) {
  const Side s = a.side;
  for (double& x : a.m)
    if (x != 0 && x < kFloor) {
      if (s == Side::upper) a.inf = sum_up(a.inf, x);
      x = 0;
    }
  std::size_t first = 0, last = a.m.size();
  while (first < last && a.m[first] == 0) ++first;
  while (last > first && a.m[last - 1] == 0) --last;
  if (first == last) {  // nothing finite left
    a.m.assign(1, 0.0);
    return;
  }
  a.m.erase(a.m.begin() + static_cast<long>(last), a.m.end());
  a.m.erase(a.m.begin(), a.m.begin() + static_cast<long>(first));
  a.offset += static_cast<long>(first);
  // top tail
  double acc = 0;
  std::size_t top = a.m.size();
  while (top > 1 && sum_up(acc, a.m[top - 1]) <= tail) acc = sum_up(acc, a.m[--top]);
  if (top < a.m.size()) {
    double moved = 0;
    for (std::size_t i = top; i < a.m.size(); ++i) moved = s == Side::upper ? sum_up(moved, a.m[i]) : sum_down(moved, a.m[i]);
    a.m.resize(top);
    if (s == Side::upper) a.inf = sum_up(a.inf, moved);
    else a.m.back() = sum_down(a.m.back(), moved);
  }
  // bottom tail
  acc = 0;
  std::size_t bottom = 0;
  while (bottom + 1 < a.m.size() && sum_up(acc, a.m[bottom]) <= tail) acc = sum_up(acc, a.m[bottom++]);
  if (bottom > 0) {
    double moved = 0;
    for (std::size_t i = 0; i < bottom; ++i) moved = sum_up(moved, a.m[i]);
    a.m.erase(a.m.begin(), a.m.begin() + static_cast<long>(bottom));
    a.offset += static_cast<long>(bottom);
    if (s == Side::upper) a.m.front() = sum_up(a.m.front(), moved);  // rounded up onto the window
    // lower law: dropped (sent to −∞)
  }
}

/// The law of the sum of independent losses (same step). Each output is a sum of at most t
/// products of non-negative normal doubles, computed in round-to-nearest: with T = t + 1
/// roundings per term, |ĉ − c| <= γ_T·c, γ_T = Tu/(1 − Tu), u = 2^−53 (Higham 2002, Lemma 3.1
/// and §3.1 for non-negative terms). Hence c <= ĉ·(1 + 4Tu) and c >= ĉ·(1 − 2Tu) for Tu <= 1/4,
/// and the stored values are widened accordingly.
GridLaw convolve(const GridLaw& a, const GridLaw& b, double tail) {
  const Side s = a.side;
  GridLaw c;
  c.side = s;
  c.step = a.step;
  c.offset = a.offset + b.offset;
  const std::size_t n = a.m.size() + b.m.size() - 1;
  c.m.assign(n, 0.0);
  const double* bb = b.m.data();
  const std::size_t nb = b.m.size();
  for (std::size_t i = 0; i < a.m.size(); ++i) {
    const double x = a.m[i];
    if (x == 0) continue;
    double* out = c.m.data() + i;
    for (std::size_t j = 0; j < nb; ++j) out[j] += x * bb[j];
  }
  const double tu = static_cast<double>(std::min(a.m.size(), nb) + 1) * 0x1p-53;  // exact
  if (s == Side::upper) {
    const double f = next_up(1.0 + 4 * tu);
    for (double& x : c.m) x = prod_up(x, f);
  } else {
    const double f = next_down(1.0 - 2 * tu);
    for (double& x : c.m) x = prod_down(x, f);
  }
  if (s == Side::upper) {
    const double ta = total(a), tb = total(b);
    c.inf = sum_up(prod_up(a.inf, sum_up(tb, b.inf)), prod_up(ta, b.inf));
  } else {
    const double ta = total(a), tb = total(b);
    c.inf = sum_down(prod_down(a.inf, sum_down(tb, b.inf)), prod_down(ta, b.inf));
  }
  truncate(c, tail);
  return c;
}

// ---- merging onto a grid (lower laws) ----------------------------------------------------------

/// An atom waiting to be merged onto the grid H·ℤ: P-mass p (a lower bound), loss in
/// [low·H, high·H] (exactly high·H when on_grid, then low = high), and q̂, an upper bound of its
/// Q-mass times e^{high·H} (so p <= q̂ up to rounding).
struct Atom {
  long low = 0, high = 0;
  double p = 0;
  double qhat = 0;
  bool on_grid = false;
};

/// Merges atoms onto the grid H·ℤ (fact 3), sweeping upward (atoms in increasing order of loss)
/// or downward (decreasing order). Upward: a carry collects atoms whose loss may lie below its
/// target tH = the carry's first atom's `high`, then the fraction of the next atom that brings the
/// merged loss up to tH; the rest of that atom starts the next carry. Downward: symmetric, the
/// target is the first atom's `low` and later atoms pull the merged loss down to it. Each merged
/// atom is stored with a lower bound of its mass at the largest grid point certified not to exceed
/// its loss (fact 1); the fraction is chosen a little inside so that the target is certified.
/// The carry left at the end of the sweep is rounded down whole: sweeping away from the heavier
/// end of the law leaves it where the mass is small.
GridLaw merge_onto_grid(const std::vector<Atom>& atoms, const Rational& H, double inf, bool downward) {
  GridLaw out;
  out.side = Side::lower;
  out.step = H;
  out.inf = inf;
  if (atoms.empty()) {
    out.m.assign(1, 0.0);
    return out;
  }
  const StepBounds sb = step_bounds(H);
  constexpr long below = 2 * kBlock + 2;  // room for merged atoms certified only some points lower
  long first = atoms.front().low, last = atoms.front().high;
  for (const Atom& a : atoms) {
    first = std::min(first, a.low);
    last = std::max(last, a.high);
  }
  out.offset = first - below;
  out.m.assign(static_cast<std::size_t>(last - out.offset + 1), 0.0);
  auto emit_at = [&](long t, double p) {
    if (t < out.offset || p <= 0) return;  // dropped: only lowers a lower law
    double& slot = out.m[static_cast<std::size_t>(t - out.offset)];
    slot = sum_down(slot, p);
  };
  // (cp, cq) in the frame of t (cq bounds the Q-mass times e^{tH}): stored at the largest t − d,
  // d < below, with cp/cq >= e^{−dH} certified
  auto emit = [&](long t, double cp, double cq) {
    double threshold = cq;
    for (long d = 0; d < below; ++d) {
      if (cp >= threshold) return emit_at(t - d, cp);
      threshold = prod_up(threshold, sb.exp_neg_hi);
    }
  };
  // q̂ of an atom moved from frame `from` to frame `to`: times e^{(to − from)H}, an upper bound
  auto reframe = [&](double qhat, long from, long to) {
    for (long f = from; f < to; ++f) qhat = prod_up(qhat, sb.exp_hi);
    for (long f = to; f < from; ++f) qhat = prod_up(qhat, sb.exp_neg_hi);
    return qhat;
  };
  constexpr long reach = 4 * kBlock;  // a carry merges with atoms at most this many frames away
  bool carrying = false;
  long t = 0;
  double cp = 0, cq = 0;
  auto start = [&](const Atom& a) {
    if (a.p <= 0) return;
    if (a.on_grid) return emit_at(a.high, a.p);
    carrying = true;
    t = downward ? a.low : a.high;
    cp = a.p;
    cq = reframe(a.qhat, a.high, t);
  };
  auto step = [&](const Atom& a) {
    if (a.p <= 0) return;
    if (carrying && (downward ? a.high < t - reach : a.low > t + reach)) {
      emit(t, cp, cq);
      carrying = false;
    }
    if (!carrying) return start(a);
    if (a.on_grid && a.high == t) return emit_at(t, a.p);  // already on the target: keep it there
    const double q = reframe(a.qhat, a.high, t);           // in the frame of t
    // upward: the carry is below its target (cp < cq) and the atom may help if above it (p > q);
    // downward: the carry is above (cp > cq) and the atom may help if below (p < q)
    const bool carry_short = downward ? cp > cq : cq > cp;
    const bool atom_helps = downward ? a.p < q : a.p > q;
    if (!carry_short) {
      emit(t, cp, cq);
      carrying = false;
      return start(a);
    }
    if (!atom_helps) {
      cp = sum_down(cp, a.p);
      cq = sum_up(cq, q);
      return;
    }
    double beta = downward ? (cp - cq) / (q - a.p) : (cq - cp) / (a.p - q);  // brings the ratio to 1
    if (!(beta < 1)) {
      cp = sum_down(cp, a.p);
      cq = sum_up(cq, q);
      return;
    }
    beta = downward ? std::max(0.0, beta * (1 - 0x1p-30) - 0x1p-60) : std::min(1.0, beta * (1 + 0x1p-30) + 0x1p-60);
    emit(t, sum_down(cp, prod_down(beta, a.p)), sum_up(cq, prod_up(beta, q)));
    carrying = false;
    Atom rest = a;
    rest.p = prod_down(a.p, next_down(1.0 - beta));
    rest.qhat = prod_up(a.qhat, next_up(1.0 - beta));
    start(rest);
  };
  if (downward)
    for (auto it = atoms.rbegin(); it != atoms.rend(); ++it) step(*it);
  else
    for (const Atom& a : atoms) step(a);
  if (carrying) emit(t, cp, cq);
  return out;
}

/// Whether a lower law's merge should sweep downward: when its top end is heavier than its bottom.
bool heavier_top(const std::vector<Atom>& atoms) {
  double bottom = 0, top = 0;
  const std::size_t n = std::min<std::size_t>(4, atoms.size() / 2);
  for (std::size_t i = 0; i < n; ++i) {
    bottom += atoms[i].p;
    top += atoms[atoms.size() - 1 - i].p;
  }
  return top > bottom;
}

/// The same law on the grid of twice the step: a point between two coarse points is split
/// between them with its P- and Q-masses kept (upper law, fact 2), or merged with its neighbours
/// (lower law, fact 3).
GridLaw coarsen(const GridLaw& a) {
  const StepBounds sb = step_bounds(a.step);
  auto floor_half = [](long x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); };
  if (a.side == Side::upper) {
    GridLaw c;
    c.side = Side::upper;
    c.step = a.step * 2;
    c.inf = a.inf;
    c.offset = floor_half(a.offset);
    const long last = floor_half(a.offset + static_cast<long>(a.m.size())) + 1;
    c.m.assign(static_cast<std::size_t>(last - c.offset + 1), 0.0);
    for (std::size_t i = 0; i < a.m.size(); ++i) {
      const double x = a.m[i];
      if (x == 0) continue;
      const long at = a.offset + static_cast<long>(i);
      const long j = floor_half(at) - c.offset;
      double& low = c.m[static_cast<std::size_t>(j)];
      if (at % 2 == 0) {
        low = sum_up(low, x);
      } else {
        low = sum_up(low, prod_up(x, sb.split_low_hi));
        double& high = c.m[static_cast<std::size_t>(j + 1)];
        high = sum_up(high, prod_up(x, sb.split_high_hi));
      }
    }
    truncate(c, 0.0);
    return c;
  }
  std::vector<Atom> atoms;
  atoms.reserve(a.m.size());
  for (std::size_t i = 0; i < a.m.size(); ++i) {
    const double x = a.m[i];
    if (x == 0) continue;
    const long at = a.offset + static_cast<long>(i);
    const long j = floor_half(at);
    if (at % 2 == 0) atoms.push_back({j, j, x, x, true});
    else atoms.push_back({j, j + 1, x, prod_up(x, sb.exp_hi), false});  // loss = (j + 1)·2h − h
  }
  GridLaw c = merge_onto_grid(atoms, a.step * 2, a.inf, heavier_top(atoms));
  truncate(c, 0.0);
  return c;
}

// ---- one use -----------------------------------------------------------------------------------

/// CDFs and survival functions of the loss under the pair's two distributions, enclosed.
/// The loss law is split into point masses (exact losses, enclosed P-masses) and a continuous
/// part described by its CDFs, whose total masses are total1 (first) and total2 (second).
struct LossLaw {
  std::function<Interval(const Rational&)> cdf1, sf1;  // continuous part: Pr_first[L <= l], Pr_first[L > l]
  std::function<Interval(const Rational&)> cdf2, sf2;  // the same under the second distribution
  Interval total1{Rational(1), 64}, total2{Rational(1), 64};  // enclosures of the continuous totals
  std::vector<std::pair<Rational, Interval>> atoms;          // (loss, P-mass) of the point masses
};

Interval clamp01(const Interval& x) {
  Rational lo = x.lower_is_finite() ? std::max(Rational(0), std::min(Rational(1), x.lower())) : Rational(0);
  Rational hi = x.upper_is_finite() ? std::min(Rational(1), std::max(Rational(0), x.upper())) : Rational(1);
  if (lo > hi) lo = hi;
  return Interval::hull(lo, hi, x.precision());
}

/// Masses of consecutive bins (a, b] of one distribution: from the CDF while it is at most 1/2,
/// from the survival function beyond (small tails on both sides stay accurate).
class BinMasses {
 public:
  BinMasses(const std::function<Interval(const Rational&)>& cdf, const std::function<Interval(const Rational&)>& sf,
            const Interval& total)
      : cdf_(cdf), sf_(sf), total_(total), half_(total.lower() / 2) {}
  /// Pr[L <= l] at the first point.
  Interval start(const Rational& l) {
    c_ = clamp01(cdf_(l));
    if (c_.upper() > half_) {
      use_sf_ = true;
      s_ = clamp01(sf_(l));
      return clamp01(total_ - s_);
    }
    return c_;
  }
  /// Pr[previous < L <= l].
  Interval next(const Rational& l) {
    Interval mass;
    if (!use_sf_) {
      Interval c = clamp01(cdf_(l));
      if (c.upper() <= half_) {
        mass = c - c_;
        c_ = std::move(c);
        return clamp01(mass);
      }
      use_sf_ = true;
      s_ = clamp01(sf_(l));
      return clamp01(total_ - s_ - c_);
    }
    Interval s = clamp01(sf_(l));
    mass = s_ - s;
    s_ = std::move(s);
    return clamp01(mass);
  }
  /// Pr[L > last point].
  Interval rest() const { return use_sf_ ? s_ : clamp01(total_ - c_); }

 private:
  const std::function<Interval(const Rational&)>& cdf_;
  const std::function<Interval(const Rational&)>& sf_;
  Interval total_;
  Rational half_;
  bool use_sf_ = false;
  Interval c_, s_;
};

void check_size(std::size_t n, std::size_t max_points) {
  if (n > max_points)
    throw Error("grid", "points", std::to_string(n),
                "the privacy-loss law would need more than " + std::to_string(max_points) + " grid points");
}

/// The window [lo·h, hi·h] outside which the first distribution has mass at most tail per side.
std::pair<long, long> window(const LossLaw& law, const Rational& h, double tail, std::size_t max_points) {
  auto find = [&](bool upward) {
    auto small = [&](long j) {
      Interval v = upward ? law.sf1(h * Rational(j)) : law.cdf1(h * Rational(j));
      return upper_double(v) <= tail;
    };
    long step = 1, last_bad = 0, j = upward ? 1 : 0;
    if (!upward && small(0)) return 0L;
    while (!small(j)) {
      last_bad = j;
      step *= 2;
      j = upward ? step : -step;
      check_size(static_cast<std::size_t>(std::abs(j)), 4 * max_points);
    }
    long good = j, bad = last_bad;  // bisect between bad (not small) and good (small)
    while (std::abs(good - bad) > 1) {
      long mid = bad + (good - bad) / 2;
      if (small(mid)) good = mid;
      else bad = mid;
    }
    return good;
  };
  return {find(false), find(true)};
}

/// Bin boundaries (grid indices) over [lo, hi]: blocks of kBlock steps, cut into bins of 1, 4,
/// 16 or kBlock steps by the block's P-mass. Wide bins in the tails save most evaluations of the
/// CDFs; they cost little, because splitting and merging err to second order in the bin width
/// and the tails carry little mass. (Any partition gives a valid bracket.)

std::vector<long> bin_boundaries(const LossLaw& law, const Rational& h, long lo, long hi, Precision p) {
  BinMasses first(law.cdf1, law.sf1, law.total1);
  first.start(h * Rational(lo));
  std::vector<long> cuts{lo};
  for (long a = lo; a < hi; a += kBlock) {
    const long b = std::min(hi, a + kBlock);
    const double m = upper_double(first.next(h * Rational(b)));
    const long width = m >= 0x1p-20 ? 1 : m >= 0x1p-40 ? 4 : m >= 0x1p-60 ? 16 : kBlock;
    for (long c = a + width; c < b; c += width) cuts.push_back(c);
    cuts.push_back(b);
  }
  return cuts;
}

/// The one-use upper law (bins split onto their end points, fact 2) and lower law (bins merged
/// onto grid points, fact 3) of a loss law, on the grid h·ℤ.
long floor_of(const Rational& x) {
  mpz_class f;
  mpz_fdiv_q(f.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  return f.get_si();
}
long ceil_of(const Rational& x) {
  mpz_class c;
  mpz_cdiv_q(c.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  return c.get_si();
}

std::pair<GridLaw, GridLaw> discretise(const LossLaw& law, const Rational& h, double tail, std::size_t max_points) {
  const Precision p = 64;  // bin masses end as binary64 bounds (the split's cancellation costs ~log2(1/h) bits)
  // plain variables, not a structured binding: the lambdas below capture lo (C++20 allows capturing
  // a binding, clang 14 does not)
  const auto range = window(law, h, tail, max_points);
  long lo = range.first, hi = range.second;
  for (const auto& [loss, mass] : law.atoms) {  // the window holds every point mass
    const Rational x = loss / h;
    lo = std::min(lo, floor_of(x));
    hi = std::max(hi, ceil_of(x));
  }
  check_size(static_cast<std::size_t>(hi - lo + 1), max_points);
  const std::vector<long> cuts = bin_boundaries(law, h, lo, hi, p);
  GridLaw U;
  U.side = Side::upper;
  U.step = h;
  U.offset = lo;
  U.m.assign(static_cast<std::size_t>(hi - lo + 1), 0.0);
  std::vector<Atom> atoms;
  atoms.reserve(cuts.size() + law.atoms.size() + 1);
  BinMasses first(law.cdf1, law.sf1, law.total1), second(law.cdf2, law.sf2, law.total2);
  const Rational l0 = h * Rational(lo);
  U.m[0] = upper_double(first.start(l0));  // everything at or below lo·h, rounded up to lo·h
  second.start(l0);
  std::map<long, std::pair<Interval, Interval>> widths;  // e^{wh} and e^{wh} − 1 by bin width w
  auto width = [&](long w) -> const std::pair<Interval, Interval>& {
    auto it = widths.find(w);
    if (it == widths.end()) it = widths.emplace(w, std::pair{exp(Interval(h * w, p)), expm1(Interval(h * w, p))}).first;
    return it->second;
  };
  // split of a piece with P-mass P and Q-mass·e^{bh} = Q̂ over (a, b]: α at ah and β at bh with
  // α + β = P and α e^{(b−a)h} + β = Q̂ (fact 2)
  auto split = [&](long a, long b, const Interval& P, const Interval& Qhat) {
    const Interval alpha = (Qhat - P) / width(b - a).second;
    const Interval beta = P - alpha;
    const double p_hi = upper_double(P);
    double& low = U.m[static_cast<std::size_t>(a - lo)];
    double& high = U.m[static_cast<std::size_t>(b - lo)];
    low = sum_up(low, std::min(p_hi, upper_double(clamp01(alpha))));
    high = sum_up(high, std::min(p_hi, upper_double(clamp01(beta))));
  };
  // the point masses, each on its grid point or between two
  std::vector<Atom> points;
  for (const auto& [loss, mass] : law.atoms) {
    const Rational x = loss / h;
    const long b = ceil_of(x);
    if (x.get_den() == 1) {
      U.m[static_cast<std::size_t>(b - lo)] = sum_up(U.m[static_cast<std::size_t>(b - lo)], upper_double(mass));
      points.push_back({b, b, lower_double(mass), lower_double(mass), true});
    } else {
      const Interval Qhat = mass * exp(Interval(h * b - loss, p));
      split(b - 1, b, mass, Qhat);
      points.push_back({b - 1, b, lower_double(mass), upper_double(Qhat), false});
    }
  }
  std::sort(points.begin(), points.end(), [](const Atom& a, const Atom& b) { return a.high < b.high; });
  auto next_point = points.begin();
  Interval e_top = exp(Interval(l0, p));  // e^{bh} for the bin's top point b
  for (std::size_t c = 1; c < cuts.size(); ++c) {
    const long a = cuts[c - 1], b = cuts[c];
    for (; next_point != points.end() && next_point->high <= b; ++next_point) atoms.push_back(*next_point);
    const Rational at = h * Rational(b);
    e_top *= width(b - a).first;
    const Interval P = first.next(at);
    const Interval Qhat = second.next(at) * e_top;  // Q-mass of the bin times e^{bh}
    split(a, b, P, Qhat);
    // the bin's merged loss lies in (ah, bh]; point masses at bh come after it (higher or equal)
    atoms.insert(atoms.end() - (atoms.empty() || atoms.back().high < b || !atoms.back().on_grid ? 0 : 1),
                 Atom{a, b, lower_double(P), upper_double(Qhat), false});
  }
  for (; next_point != points.end(); ++next_point) atoms.push_back(*next_point);
  const Interval above = first.rest();
  U.inf = upper_double(above);
  atoms.push_back({hi, hi, lower_double(above), lower_double(above), true});  // above hi·h, rounded down
  GridLaw L = merge_onto_grid(atoms, h, 0.0, heavier_top(atoms));
  truncate(U, tail);
  truncate(L, tail);
  return {U, L};
}

/// Φ(x) through erfc at a non-negative argument: MPFR's erfc of a negative argument goes through
/// the erf series, which is slow for large |x|; 1 − Φ(−x) is as accurate for x >= 0.
Interval phi(const Interval& x) {
  if (mpfr_sgn(&x.get()->left) >= 0 && mpfr_number_p(&x.get()->left))
    return Interval(Rational(1), x.precision()) - normal_cdf(-x);
  return normal_cdf(x);
}

/// The loss laws of the two directions of a pair: remove (L under A against B) and add (−L under
/// B against A).
std::pair<LossLaw, LossLaw> loss_laws(const ContinuousPair& pair, Precision p) {
  if (pair.kind == ContinuousPair::Kind::laplace) {
    const Rational eps0 = pair.sensitivity / pair.sigma_or_scale;
    // P = Lap(0, b), Q = Lap(Δ, b): L = ε₀ on x <= 0 (P-mass 1/2), (Δ − 2x)/b inside, −ε₀ on x >= Δ
    // (P-mass e^{−ε₀}/2). The continuous part has Pr_P[L <= l] = e^{(l − ε₀)/2}/2 − e^{−ε₀}/2 on
    // [−ε₀, ε₀] and total T = (1 − e^{−ε₀})/2. The map x ↦ Δ − x swaps P and Q and negates L, so
    // under Q it has Pr_Q[L > l] = e^{(−l − ε₀)/2}/2 − e^{−ε₀}/2 on [−ε₀, ε₀], the same total.
    auto half_exp = [p](const Rational& x) { return exp(Interval(x, p)) / Interval(Rational(2), p); };
    const Interval corner = half_exp(-eps0);
    const Interval total = Interval(Rational(1, 2), p) - corner;
    const Interval zero(Rational(0), p);
    LossLaw law;
    // outside [−ε₀, ε₀] the values are exactly 0 or the total (an enclosure's subtraction would not
    // be exactly 0 there, and the window search needs the exact tails)
    law.cdf1 = [=](const Rational& l) { return l <= -eps0 ? zero : l >= eps0 ? total : half_exp((l - eps0) / 2) - corner; };
    law.sf1 = [=](const Rational& l) {
      return l <= -eps0 ? total : l >= eps0 ? zero : total - (half_exp((l - eps0) / 2) - corner);
    };
    law.sf2 = [=](const Rational& l) { return l <= -eps0 ? total : l >= eps0 ? zero : half_exp((-l - eps0) / 2) - corner; };
    law.cdf2 = [=](const Rational& l) {
      return l <= -eps0 ? zero : l >= eps0 ? total : total - (half_exp((-l - eps0) / 2) - corner);
    };
    law.total1 = law.total2 = total;
    law.atoms = {{-eps0, corner}, {eps0, Interval(Rational(1, 2), p)}};
    return {law, law};  // symmetric: the add direction has the same laws
  }
  // Gaussian: with μ = Δ/σ the base loss L is N(μ²/2, μ²) under P and N(−μ²/2, μ²) under Q.
  const Rational mu = pair.sensitivity / pair.sigma_or_scale;
  const Rational half = mu * mu / 2;
  const Rational q = pair.q;
  auto FP = [mu, half](const Interval& t) { return phi((t - Interval(half, t.precision())) / Interval(mu, t.precision())); };
  auto SFP = [mu, half](const Interval& t) { return phi(-(t - Interval(half, t.precision())) / Interval(mu, t.precision())); };
  auto FQ = [mu, half](const Interval& t) { return phi((t + Interval(half, t.precision())) / Interval(mu, t.precision())); };
  auto SFQ = [mu, half](const Interval& t) { return phi(-(t + Interval(half, t.precision())) / Interval(mu, t.precision())); };
  // g(L) = ln(q e^L + 1 − q) is the subsampled loss; g⁻¹(l) = ln((e^l − (1 − q))/q) for e^l > 1 − q.
  struct Inv {
    bool none = false;       // e^l <= 1 − q: g > l everywhere
    bool unbounded = false;  // e^l − (1 − q) straddles 0: g⁻¹(l) ∈ [−∞, hi]
    Interval t;
  };
  auto inverse_uncached = [q, p](const Rational& l) {
    Inv r;
    if (q == 1) {
      r.t = Interval(l, p);
      return r;
    }
    Interval arg = exp(Interval(l, p)) - Interval(1 - q, p);
    if (!(sgn(arg.upper()) > 0)) {
      r.none = true;
      return r;
    }
    if (!(sgn(arg.lower()) > 0)) {
      r.unbounded = true;
      r.t = log(Interval(arg.upper(), p) / Interval(q, p));
      return r;
    }
    r.t = log(arg / Interval(q, p));
    return r;
  };
  // cdf1 and cdf2 are evaluated at the same point one after the other: remember the last inverse
  auto last = std::make_shared<std::optional<std::pair<Rational, Inv>>>();
  auto inverse = [inverse_uncached, last](const Rational& l) {
    if (*last && (*last)->first == l) return (*last)->second;
    Inv r = inverse_uncached(l);
    *last = std::pair{l, r};
    return r;
  };
  const Interval qi(q, p), ri(1 - q, p), zero(Rational(0), p), one(Rational(1), p);
  // An increasing-in-t probability F(g⁻¹(l)) (none: F(−∞) = 0; unbounded: between 0 and F(hi)),
  // and a decreasing one S(g⁻¹(l)) (none: 1; unbounded: between S(hi) and 1).
  auto increasing = [=](const Inv& v, const Interval& value) {
    return v.none ? zero : v.unbounded ? Interval::hull(Rational(0), value.upper(), p) : value;
  };
  auto decreasing = [=](const Inv& v, const Interval& value) {
    return v.none ? one : v.unbounded ? Interval::hull(value.lower(), Rational(1), p) : value;
  };
  LossLaw remove, add;
  // remove: ℓ = g(L), increasing in L; first distribution A = qP + (1−q)Q, second B = Q.
  remove.cdf1 = [=](const Rational& l) {
    Inv v = inverse(l);
    return increasing(v, v.none ? zero : qi * FP(v.t) + ri * FQ(v.t));
  };
  remove.sf1 = [=](const Rational& l) {
    Inv v = inverse(l);
    return decreasing(v, v.none ? one : qi * SFP(v.t) + ri * SFQ(v.t));
  };
  remove.cdf2 = [=](const Rational& l) {
    Inv v = inverse(l);
    return increasing(v, v.none ? zero : FQ(v.t));
  };
  remove.sf2 = [=](const Rational& l) {
    Inv v = inverse(l);
    return decreasing(v, v.none ? one : SFQ(v.t));
  };
  // add: loss −ℓ, first distribution B = Q, second A; Pr[−g(L) <= l] = Pr[L >= g⁻¹(−l)].
  add.cdf1 = [=](const Rational& l) {
    Inv v = inverse(-l);
    return decreasing(v, v.none ? one : SFQ(v.t));
  };
  add.sf1 = [=](const Rational& l) {
    Inv v = inverse(-l);
    return increasing(v, v.none ? zero : FQ(v.t));
  };
  add.cdf2 = [=](const Rational& l) {
    Inv v = inverse(-l);
    return decreasing(v, v.none ? one : qi * SFP(v.t) + ri * SFQ(v.t));
  };
  add.sf2 = [=](const Rational& l) {
    Inv v = inverse(-l);
    return increasing(v, v.none ? zero : qi * FP(v.t) + ri * FQ(v.t));
  };
  return {remove, add};
}

/// An estimate of the one-use loss's standard deviation (a heuristic: it only chooses the grid),
/// and the scale s of the grid steps s·2^−m.
std::pair<double, Rational> deviation_and_scale(const ContinuousPair& pair) {
  if (pair.kind == ContinuousPair::Kind::laplace) {
    const Rational eps0 = pair.sensitivity / pair.sigma_or_scale;
    return {mpq_get_d(eps0.get_mpq_t()), eps0};  // the loss lies in [−ε₀, ε₀], half its mass at ε₀
  }
  const Rational mu_q = pair.sensitivity / pair.sigma_or_scale;
  const double mu = mpq_get_d(mu_q.get_mpq_t()), q = mpq_get_d(pair.q.get_mpq_t());
  // unsubsampled: exactly μ; subsampled: about q·sqrt(e^{μ²} − 1), the deviation of q(e^L − 1) under Q
  return {std::min(mu, q * std::sqrt(std::expm1(mu * mu))), Rational(1)};
}

// ---- composition -------------------------------------------------------------------------------

struct Composer {
  double tail;
  std::size_t max_points;
  unsigned resolution;
  std::size_t points = 0;
  Rational coarsest;

  void note(const GridLaw& a) {
    points = std::max(points, a.m.size());
    if (a.step > coarsest) coarsest = a.step;
  }
  /// Coarsens while a step of twice the size still leaves `resolution` points per deviation, or
  /// while the law is larger than max_points.
  GridLaw fit(GridLaw a) {
    while (a.m.size() > 1 && (2 * step_double(a) * resolution <= deviation(a) || a.m.size() > max_points)) a = coarsen(a);
    note(a);
    return a;
  }
  GridLaw convolve_fitted(GridLaw a, GridLaw b) {
    while (a.step < b.step) a = coarsen(a);
    while (b.step < a.step) b = coarsen(b);
    while (a.m.size() + b.m.size() - 1 > max_points) {
      a = coarsen(a);
      b = coarsen(b);
    }
    return fit(convolve(a, b, tail));
  }
  GridLaw self_compose(const GridLaw& one, unsigned long k) {
    std::optional<GridLaw> result;
    GridLaw base = fit(one);
    while (k > 0) {
      if (k & 1) result = result ? convolve_fitted(*result, base) : base;
      k >>= 1;
      if (k > 0) base = convolve_fitted(base, base);
    }
    return *result;
  }
};

// ---- evaluation --------------------------------------------------------------------------------

Interval from_double(double x, Precision p) {
  Interval r = Interval::zero(std::max<Precision>(p, 64));
  mpfi_set_d(r.get(), x);
  return r;
}

/// H_{e^ε} of a law: inf + Σ_{jh > ε} m_j (1 − e^{ε − jh}), enclosed (for the law's own masses).
Interval hockey_stick(const GridLaw& a, const Rational& eps, Precision p) {
  Interval sum = from_double(a.inf, p);
  const Interval one(Rational(1), p);
  const Interval step = exp(-Interval(a.step, p));
  std::optional<Interval> w;  // e^{ε − jh} for the current j
  for (std::size_t i = 0; i < a.m.size(); ++i) {
    const Rational loss = a.step * Rational(a.offset + static_cast<long>(i));
    if (loss <= eps) continue;
    w = w ? *w * step : exp(Interval(eps - loss, p));
    if (a.m[i] != 0) sum += from_double(a.m[i], p) * (one - *w);
  }
  return sum;
}

/// The least λ >= 1 with H_λ <= δ: max(1, max over suffixes S of (A_S − δ)/B_S) (see
/// CertifiedLoss::least_epsilon); the point +∞ when the mass at +∞ exceeds δ.
Interval least_lambda(const GridLaw& a, const Rational& delta, Precision p) {
  const Interval d(delta, p);
  Interval A = from_double(a.inf, p), B = Interval::zero(p);
  if (Rational(a.inf) > delta) return Interval::infinity(p);
  Interval best(Rational(1), p);
  if (a.m.empty()) return best;
  const Interval step = exp(Interval(a.step, p));
  Interval w = exp(-Interval(a.step * Rational(a.offset + static_cast<long>(a.m.size()) - 1), p));  // e^{−jh}
  for (std::size_t r = a.m.size(); r-- > 0;) {
    if (a.m[r] != 0) {
      Interval x = from_double(a.m[r], p);
      A += x;
      B += x * w;
      if (sgn(B.lower()) > 0) best = max(best, (A - d) / B);
    }
    w *= step;
  }
  return best;
}

struct Laws {
  GridLaw remove_upper, remove_lower, add_upper, add_lower;
  Rational step, final_step;
  std::size_t points = 0;
};

void check_options(const GridOptions& o) {
  if (o.resolution < 1) throw Error("grid bracket", "resolution", std::to_string(o.resolution), "must be at least 1");
  if (o.max_points < 16) throw Error("grid bracket", "max_points", std::to_string(o.max_points), "must be at least 16");
  if (sgn(o.tail) < 0 || o.tail >= Rational(1, 1000))
    throw Error("grid bracket", "tail", to_string(o.tail), "must lie in [0, 1/1000)");
}

Laws composed_laws(const ContinuousPair& pair, unsigned long k, const GridOptions& o) {
  if (k < 1) throw Error("grid bracket", "times", "0", "need at least one use");
  check_options(o);
  const double tail = mpq_get_d(o.tail.get_mpq_t());
  // the composed laws depend only on (pair, k, options): claims that share them reuse them
  const std::string one_key = pair.describe() + "|" + std::to_string(o.resolution) + "|" + to_string(o.tail) + "|" +
                              std::to_string(o.max_points);
  const std::string key = one_key + "|" + std::to_string(k);
  static std::mutex mutex;
  static std::map<std::string, Laws> cache;
  static std::map<std::string, std::pair<Rational, std::array<GridLaw, 4>>> one_cache;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  // the one-use laws do not depend on k: shared by the claims of every k
  std::optional<std::pair<Rational, std::array<GridLaw, 4>>> one;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = one_cache.find(one_key); it != one_cache.end()) one = it->second;
  }
  if (!one) {
    const auto [sigma1, scale] = deviation_and_scale(pair);
    // the largest h = scale·2^−m with h <= σ₁/resolution
    const double target = sigma1 / o.resolution;
    if (!(target > 1e-12) || !std::isfinite(target))
      throw Error("grid", "deviation", std::to_string(sigma1),
                  "the privacy loss of one use is too concentrated (or too spread) for a grid bracket");
    Rational h = scale;
    while (mpq_get_d(h.get_mpq_t()) > target) h /= 2;
    while (mpq_get_d(h.get_mpq_t()) * 2 <= target) h *= 2;
    auto [remove, add] = loss_laws(pair, 64);
    for (int tries = 0;; ++tries, h *= 2) {  // coarser when the window would exceed max_points
      try {
        auto r = discretise(remove, h, tail, o.max_points);
        if (pair.kind == ContinuousPair::Kind::laplace) {
          one = {h, {r.first, r.second, r.first, r.second}};
        } else {
          auto a = discretise(add, h, tail, o.max_points);
          one = {h, {r.first, r.second, a.first, a.second}};
        }
        break;
      } catch (const Error& e) {
        if (e.where() != "grid" || tries >= 40) throw;
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    if (one_cache.size() >= 8) one_cache.clear();
    one_cache.emplace(one_key, *one);
  }
  Composer c{tail, o.max_points, o.resolution, 0, one->first};
  Laws out;
  out.step = one->first;
  const auto& laws = one->second;
  out.remove_upper = c.self_compose(laws[0], k);
  out.remove_lower = c.self_compose(laws[1], k);
  if (pair.kind == ContinuousPair::Kind::laplace) {
    out.add_upper = out.remove_upper;
    out.add_lower = out.remove_lower;
  } else {
    out.add_upper = c.self_compose(laws[2], k);
    out.add_lower = c.self_compose(laws[3], k);
  }
  out.points = c.points;
  out.final_step = c.coarsest;
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 8) cache.clear();
  cache.emplace(key, out);
  return out;
}

}  // namespace

GridBracket grid_delta_at_epsilon(const ContinuousPair& pair, unsigned long k, const Rational& epsilon,
                                  const GridOptions& options) {
  if (sgn(epsilon) < 0) throw Error("grid bracket", "epsilon", to_string(epsilon), "must be non-negative");
  const Laws l = composed_laws(pair, k, options);
  const Precision p = options.precision;
  Rational lo = std::max(hockey_stick(l.remove_lower, epsilon, p).lower(), hockey_stick(l.add_lower, epsilon, p).lower());
  Rational hi = std::max(hockey_stick(l.remove_upper, epsilon, p).upper(), hockey_stick(l.add_upper, epsilon, p).upper());
  lo = std::max(Rational(0), lo);
  hi = std::min(Rational(1), hi);
  if (lo > hi) lo = hi;  // cannot happen for exact masses; kept for safety of the hull
  return {Interval::hull(lo, hi, p), l.step, l.final_step, l.points, options.resolution};
}

GridBracket grid_epsilon_at_delta(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                  const GridOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("grid bracket", "delta", to_string(delta), "must lie in (0, 1]");
  const Laws l = composed_laws(pair, k, options);
  const Precision p = options.precision;
  GridBracket out{Interval(), l.step, l.final_step, l.points, options.resolution};
  Interval lam_lo = max(least_lambda(l.remove_lower, delta, p), least_lambda(l.add_lower, delta, p));
  Interval lam_hi = max(least_lambda(l.remove_upper, delta, p), least_lambda(l.add_upper, delta, p));
  if (!lam_lo.lower_is_finite()) {
    out.value = Interval::infinity(p);
    return out;
  }
  const Rational eps_lo = std::max(Rational(0), log(Interval(lam_lo.lower(), p)).lower());
  if (!lam_hi.upper_is_finite()) {
    out.value = Interval::at_least(eps_lo, p);
    return out;
  }
  Rational eps_hi = log(Interval(lam_hi.upper(), p)).upper();
  if (eps_hi < eps_lo) eps_hi = eps_lo;
  out.value = Interval::hull(eps_lo, eps_hi, p);
  return out;
}

GridBracket grid_epsilon_at_delta_within(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                         const Rational& relative_width, unsigned max_resolution, GridOptions options) {
  if (sgn(relative_width) <= 0)
    throw Error("grid bracket", "relative_width", to_string(relative_width), "must be positive");
  check_options(options);
  for (;;) {
    GridBracket b = grid_epsilon_at_delta(pair, k, delta, options);
    const Interval& v = b.value;
    if (v.lower_is_finite() && v.upper_is_finite() && v.upper() - v.lower() <= relative_width * v.upper()) return b;
    if (options.resolution * 2 > max_resolution) return b;
    options.resolution *= 2;
  }
}

}  // namespace exactdp
