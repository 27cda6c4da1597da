// The certified grid brackets of amplification/poisson.hpp: one-use laws split (upper) and merged
// (lower) onto a grid, composed by the compose layer's certified convolution and re-gridded as
// they spread, evaluated by its grid functionals; Φ, exp and log are the numeric layer's. The argument is stated in the header's file comment and docs/audit-subsampling.md.
#include "exactdp/amplification/poisson.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/compose/fast_convolution.hpp"
#include "exactdp/compose/grid_merge.hpp"
#include "exactdp/numeric/certified_convolution.hpp"
#include "exactdp/numeric/directed_rounding.hpp"

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
#include <optional>
#include <vector>

namespace exactdp {
namespace {

// Directed rounding of non-negative binary64 comes from the numeric layer.
using directed::next_down;
using directed::next_up;
using directed::prod_down;
using directed::prod_up;
using directed::sum_down;
using directed::sum_up;

/// The widest one-use bin, in grid steps (see bin_boundaries).
constexpr long kBlock = 64;


/// A grid law (compose/fast_convolution.hpp: masses bounded towards its side, mass at +∞) with
/// its exact rational step, which the re-gridding below needs.
struct GridLaw : GridLossLaw {
  Rational step;
};

double step_double(const GridLaw& a) { return mpq_get_d(a.step.get_mpq_t()); }

/// The standard deviation of a law's finite part (a heuristic: it only chooses the grid).
double deviation(const GridLaw& a) {
  double w = 0, s = 0, s2 = 0;
  const double h = step_double(a);
  for (std::size_t i = 0; i < a.masses.size(); ++i) {
    const double x = static_cast<double>(a.offset + static_cast<long>(i)) * h;
    w += a.masses[i];
    s += a.masses[i] * x;
  }
  if (!(w > 0)) return 0;
  const double mean = s / w;
  for (std::size_t i = 0; i < a.masses.size(); ++i) {
    const double d = static_cast<double>(a.offset + static_cast<long>(i)) * h - mean;
    s2 += a.masses[i] * d * d;
  }
  return std::sqrt(s2 / w);
}

/// The constants of one grid step are the compose layer's (compose/grid_merge.hpp).
using StepBounds = GridStepBounds;
StepBounds step_bounds(const Rational& h) { return grid_step_bounds(h); }

using directed::lower_double;
using directed::upper_double;

/// Tails and composition are the compose layer's (truncate_tails, convolve); these keep the step.
void truncate(GridLaw& a, double tail) { truncate_tails(a, tail); }

GridLaw convolve(const GridLaw& a, const GridLaw& b, double tail) {
  GridLaw c;
  static_cast<GridLossLaw&>(c) = exactdp::convolve(a, b, tail);
  c.step = a.step;
  return c;
}

// ---- merging onto a grid (lower laws): the compose layer's (compose/grid_merge.hpp) -------------

using Atom = GridMergeAtom;

/// A lower law merged onto the grid H·ℤ with its step (merge_onto_grid of compose/grid_merge.hpp).
GridLaw with_step(GridLossLaw law, const Rational& H) {
  GridLaw out;
  static_cast<GridLossLaw&>(out) = std::move(law);
  out.step = H;
  return out;
}

/// How a lower law is merged onto twice its step (any merge order gives a valid lower law; which
/// loses less depends on where the law's mass lies relative to where its value is decided).
enum class Sweep {
  away_from_heavier_end,  ///< downward when the top four atoms outweigh the bottom four (heavier_top)
  better_of_both,         ///< both sweeps, the larger H₁ kept (better_lower)
};

/// The same law on the grid of twice the step: a point between two coarse points is split
/// between them with its P- and Q-masses kept (upper law, fact 2), or merged with its neighbours
/// (lower law, fact 3) by @p sweep. With @p rules_differ (heavier-end rule only), both sweeps are
/// merged and *rules_differ set when the other rule would have kept the other one.
GridLaw coarsen(const GridLaw& a, Sweep sweep, bool* rules_differ = nullptr) {
  const StepBounds sb = step_bounds(a.step);
  auto floor_half = [](long x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); };
  if (a.side == BoundSide::upper) {
    GridLaw c;
    c.side = BoundSide::upper;
    c.step = a.step * 2;
    c.infinite_mass = a.infinite_mass;
    c.offset = floor_half(a.offset);
    const long last = floor_half(a.offset + static_cast<long>(a.masses.size())) + 1;
    c.masses.assign(static_cast<std::size_t>(last - c.offset + 1), 0.0);
    for (std::size_t i = 0; i < a.masses.size(); ++i) {
      const double x = a.masses[i];
      if (x == 0) continue;
      const long at = a.offset + static_cast<long>(i);
      const long j = floor_half(at) - c.offset;
      double& low = c.masses[static_cast<std::size_t>(j)];
      if (at % 2 == 0) {
        low = sum_up(low, x);
      } else {
        low = sum_up(low, prod_up(x, sb.split_low_hi));
        double& high = c.masses[static_cast<std::size_t>(j + 1)];
        high = sum_up(high, prod_up(x, sb.split_high_hi));
      }
    }
    truncate(c, 0.0);
    return c;
  }
  std::vector<Atom> atoms;
  atoms.reserve(a.masses.size());
  for (std::size_t i = 0; i < a.masses.size(); ++i) {
    const double x = a.masses[i];
    if (x == 0) continue;
    const long at = a.offset + static_cast<long>(i);
    const long j = floor_half(at);
    if (at % 2 == 0) atoms.push_back({j, j, x, x, true});
    else atoms.push_back({j, j + 1, x, prod_up(x, sb.exp_hi), false});  // loss = (j + 1)·2h − h
  }
  if (sweep == Sweep::away_from_heavier_end && !rules_differ) {
    GridLaw c = with_step(merge_onto_grid(atoms, a.step * 2, a.infinite_mass, heavier_top(atoms)), a.step * 2);
    truncate(c, 0.0);
    return c;
  }
  GridLaw up = with_step(merge_onto_grid(atoms, a.step * 2, a.infinite_mass, false), a.step * 2);
  GridLaw down = with_step(merge_onto_grid(atoms, a.step * 2, a.infinite_mass, true), a.step * 2);
  truncate(up, 0.0);
  truncate(down, 0.0);
  const bool h1_down = &better_lower(up, down, up.step) == &down;
  const bool down_kept = sweep == Sweep::away_from_heavier_end ? heavier_top(atoms) : h1_down;
  if (rules_differ) *rules_differ = down_kept != h1_down;
  return down_kept ? std::move(down) : std::move(up);
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

/// x intersected with [0, 1] (a finite end outside is moved to the nearer of 0 and 1, an infinite
/// lower end to 0 and upper end to 1; an empty result becomes the point at the upper end), on the
/// MPFR ends directly: it runs once per bin and CDF.
Interval clamp01(const Interval& x) {
  Interval r = x;
  mpfr_ptr lo = &r.get()->left, hi = &r.get()->right;
  auto clamp = [](mpfr_ptr e) {  // false for an end that is not a number (then as the old rule: 0 below, 1 above)
    if (!mpfr_number_p(e)) return false;
    if (mpfr_sgn(e) < 0) mpfr_set_zero(e, 1);
    else if (mpfr_cmp_ui(e, 1) > 0) mpfr_set_ui(e, 1, MPFR_RNDN);
    return true;
  };
  if (!clamp(lo)) mpfr_set_zero(lo, 1);
  if (!clamp(hi)) mpfr_set_ui(hi, 1, MPFR_RNDN);
  if (mpfr_cmp(lo, hi) > 0) mpfr_set(lo, hi, MPFR_RNDN);
  return r;
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
/// 16 or kBlock steps by the block's P-mass m (1 step for m ≥ 2^−b, 4 for m ≥ 2^−2b, 16 for
/// m ≥ 2^−3b, b = GridOptions::fine_bin_bits). Wide bins in the tails save most evaluations of the
/// CDFs; they cost little, because splitting and merging err to second order in the bin width
/// and the tails carry little mass. (Any partition gives a valid bracket.)

std::vector<long> bin_boundaries(const LossLaw& law, const Rational& h, long lo, long hi, unsigned fine_bin_bits) {
  const double fine = std::ldexp(1.0, -static_cast<int>(fine_bin_bits));
  BinMasses first(law.cdf1, law.sf1, law.total1);
  first.start(h * Rational(lo));
  std::vector<long> cuts{lo};
  for (long a = lo; a < hi; a += kBlock) {
    const long b = std::min(hi, a + kBlock);
    const double m = upper_double(first.next(h * Rational(b)));
    const long width = m >= fine ? 1 : m >= fine * fine ? 4 : m >= fine * fine * fine ? 16 : kBlock;
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

std::pair<GridLaw, GridLaw> discretise(const LossLaw& law, const Rational& h, double tail, std::size_t max_points,
                                       unsigned fine_bin_bits) {
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
  const std::vector<long> cuts = bin_boundaries(law, h, lo, hi, fine_bin_bits);
  GridLaw U;
  U.side = BoundSide::upper;
  U.step = h;
  U.offset = lo;
  U.masses.assign(static_cast<std::size_t>(hi - lo + 1), 0.0);
  std::vector<Atom> atoms;
  atoms.reserve(cuts.size() + law.atoms.size() + 1);
  BinMasses first(law.cdf1, law.sf1, law.total1), second(law.cdf2, law.sf2, law.total2);
  const Rational l0 = h * Rational(lo);
  U.masses[0] = upper_double(first.start(l0));  // everything at or below lo·h, rounded up to lo·h
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
    double& low = U.masses[static_cast<std::size_t>(a - lo)];
    double& high = U.masses[static_cast<std::size_t>(b - lo)];
    low = sum_up(low, std::min(p_hi, upper_double(clamp01(alpha))));
    high = sum_up(high, std::min(p_hi, upper_double(clamp01(beta))));
  };
  // the point masses, each on its grid point or between two
  std::vector<Atom> points;
  for (const auto& [loss, mass] : law.atoms) {
    const Rational x = loss / h;
    const long b = ceil_of(x);
    if (x.get_den() == 1) {
      U.masses[static_cast<std::size_t>(b - lo)] = sum_up(U.masses[static_cast<std::size_t>(b - lo)], upper_double(mass));
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
  U.infinite_mass = upper_double(above);
  atoms.push_back({hi, hi, lower_double(above), lower_double(above), true});  // above hi·h, rounded down
  GridLaw L = with_step(merged_lower_law(atoms, h, 0.0), h);
  truncate(U, tail);
  truncate(L, tail);
  return {U, L};
}

/// The laws of a base loss L over the whole line (point masses included): Pr_P[L <= t], Pr_P[L > t],
/// Pr_Q[L <= t], Pr_Q[L > t] at every t in an enclosure (each contains the function's range there).
struct BaseLaws {
  std::function<Interval(const Interval&)> FP, SFP, FQ, SFQ;
};

std::pair<LossLaw, LossLaw> subsampled_laws(const BaseLaws& base, const Rational& q, Precision p);

/// Where a strictly increasing loss ℓ = g(t) of a base variable t reaches a level l.
struct Inv {
  bool none = false;       // g > l everywhere
  bool unbounded = false;  // g⁻¹(l) ∈ [−∞, t.upper()]
  Interval t;              // encloses g⁻¹(l) (its upper end only, when unbounded)
};

/// The remove and add loss laws of the pair (qP + (1 − q)Q, Q) whose loss is a strictly increasing
/// function g of a base variable with laws @p base (P: FP, SFP; Q: FQ, SFQ), g⁻¹ given by @p inverse.
std::pair<LossLaw, LossLaw> mixed_laws(const BaseLaws& base, const Rational& q, std::function<Inv(const Rational&)> inverse,
                                       Precision p);

/// The base laws of the Laplace pair P = Lap(0, b), Q = Lap(Δ, b) (loss ε₀ on x <= 0, (Δ − 2x)/b
/// inside, −ε₀ on x >= Δ; ε₀ = Δ/b), point masses included, on enclosures: every function is
/// monotone, so its range over [t₁, t₂] is the hull of its exact values at the two rational ends
/// (the jumps at ±ε₀ are decided exactly there).
BaseLaws laplace_base_laws(const Rational& eps0, Precision p) {
  auto half_exp = [p](const Rational& x) { return exp(Interval(x, p)) / Interval(Rational(2), p); };
  const Interval zero(Rational(0), p), one(Rational(1), p);
  // Pr_P[L <= t] = e^{(t − ε₀)/2}/2 and Pr_Q[L > t] = e^{−(t + ε₀)/2}/2 on [−ε₀, ε₀)
  auto fp = [=](const Rational& t) { return t < -eps0 ? zero : t >= eps0 ? one : half_exp((t - eps0) / 2); };
  auto sfq = [=](const Rational& t) { return t < -eps0 ? one : t >= eps0 ? zero : half_exp((-t - eps0) / 2); };
  auto over = [p](const Interval& t, const std::function<Interval(const Rational&)>& f, bool increasing) {
    Interval a = f(t.lower()), b = f(t.upper());
    if (!increasing) std::swap(a, b);
    return Interval::hull(a.lower(), b.upper(), p);
  };
  BaseLaws base;
  base.FP = [=](const Interval& t) { return over(t, fp, true); };
  base.SFP = [=](const Interval& t) { return over(t, [&](const Rational& x) { return one - fp(x); }, false); };
  base.SFQ = [=](const Interval& t) { return over(t, sfq, false); };
  base.FQ = [=](const Interval& t) { return over(t, [&](const Rational& x) { return one - sfq(x); }, true); };
  return base;
}

/// L⁻¹(l) of a Gaussian mixture's loss (ContinuousPair::gaussian_mixture), L(x) = ln Σ e^{a_i + b_i x}
/// with a_i = ln w_i − c_i²/(2σ²), b_i = c_i/σ².
///
/// How wide the certified root is matters: a bin's mass is a difference of CDFs at two roots, and
/// the upper law's split divides the bin's P- and Q-masses' difference by e^{wh} − 1 (w steps of
/// h), so a CDF enclosed within e adds about e/h to a bin and e/h² to the law. With the root only as
/// close as binary64 locates it (relative 2^−46 after widening), that excess grew fourfold per
/// doubling of the resolution and overtook the discretisation's own h² error above resolution 512
/// (dp-accounting's five mixtures: a single bracket wider at 4096 than at 2048). So the binary64
/// root is refined by a Newton step at precision p + 32 and the bracket is sized from the slope to
/// a few units of L's enclosure at precision p: the excess then stays below the discretisation
/// error up to resolutions far beyond max_points (docs/composition.md, "Compositions of Gaussian
/// mixtures").
class MixtureRoot {
 public:
  MixtureRoot(GaussianMixture m, Precision p) : m_(std::move(m)), p_(p), fine_(p + 32) {
    const Rational s2 = m_.sigma() * m_.sigma();
    for (const auto& c : m_.components()) {
      const Rational shift = c.sensitivity * c.sensitivity / (2 * s2), slope = c.sensitivity / s2;
      a_.push_back(std::log(mpq_get_d(c.weight.get_mpq_t())) - mpq_get_d(shift.get_mpq_t()));
      b_.push_back(mpq_get_d(slope.get_mpq_t()));
      fine_a_.push_back(log(Interval(c.weight, fine_)) - Interval(shift, fine_));
      fine_b_.push_back(Interval(slope, fine_));
    }
  }

  /// L is convex and increasing in x (a log-sum-exp of increasing linear functions), so Newton's
  /// method in binary64 started to the right of the root (where the top component alone reaches
  /// e^l) descends to it monotonically; one Newton step at precision p + 32 from there squares its
  /// error. Both only propose: the bracket [a, b] is certified by MPFI (L(a) < l < L(b)) at
  /// precision p, widened 4-fold up to 24 times from a few units of L's enclosure over the slope.
  /// A lower end that stays uncertified leaves the root unbounded below (F is then enclosed by
  /// [0, F(b)]: wider, still sound).
  Inv operator()(const Rational& l) const {
    Inv r;
    const Rational w0 = m_.zero_weight();
    if (sgn(w0) > 0 && exp(Interval(l, p_)).upper() <= w0) {  // L > ln w₀ ≥ l everywhere
      r.none = true;
      return r;
    }
    const double level = mpq_get_d(l.get_mpq_t());
    double x = (level - a_.back()) / b_.back();
    for (int i = 0; i < 200 && std::isfinite(x); ++i) {
      double top = -std::numeric_limits<double>::infinity(), sum = 0, slope = 0;
      for (std::size_t j = 0; j < a_.size(); ++j) top = std::max(top, a_[j] + b_[j] * x);
      for (std::size_t j = 0; j < a_.size(); ++j) {
        const double e = std::exp(a_[j] + b_[j] * x - top);
        sum += e;
        slope += e * b_[j];
      }
      const double step = (top + std::log(sum) - level) / (slope / sum);
      x -= step;
      if (!(std::abs(step) > 0x1p-50 * (1 + std::abs(x)))) break;
    }
    if (!std::isfinite(x)) x = 0;  // only a worse starting bracket
    auto [centre, slope] = refine(Rational(x), l);
    std::optional<Rational> lo, hi;
    double eta = slope > 0 ? std::ldexp(8 + std::abs(level), 4 - static_cast<int>(p_)) / slope : 0x1p-46 * (1 + std::abs(x));
    for (int k = 0; k < 24 && !(lo && hi); ++k, eta *= 4) {
      if (!hi) {
        const Rational cand = centre + Rational(eta);
        const Interval v = m_.loss(cand, p_);
        if (v.lower_is_finite() && v.lower() > l) hi = cand;
      }
      if (!lo) {
        const Rational cand = centre - Rational(eta);
        const Interval v = m_.loss(cand, p_);
        if (v.upper_is_finite() && v.upper() < l) lo = cand;
      }
    }
    for (Rational step(1); !hi; step *= 2) {  // far from the proposal: an expanding search
      const Rational cand = centre + step;
      const Interval v = m_.loss(cand, p_);
      if (v.lower_is_finite() && v.lower() > l) hi = cand;
      if (step > Rational(1L << 40))
        throw Error("grid bracket", "loss", to_string(l), "the Gaussian mixture's loss root could not be bracketed");
    }
    if (!lo) {
      r.unbounded = true;
      r.t = Interval(*hi, p_);
      return r;
    }
    r.t = Interval::hull(*lo, *hi, p_);
    return r;
  }

 private:
  /// One Newton step x − (L(x) − l)/L′(x) at precision p + 32, and the slope L′ (binary64, 0 when
  /// the step is not finite: then x is kept and the bracket starts wide).
  std::pair<Rational, double> refine(const Rational& x, const Rational& l) const {
    const Interval X(x, fine_);
    Interval sum = Interval::zero(fine_), weighted = Interval::zero(fine_);
    for (std::size_t j = 0; j < fine_a_.size(); ++j) {
      const Interval e = exp(fine_a_[j] + fine_b_[j] * X);
      sum += e;
      weighted += fine_b_[j] * e;
    }
    const Interval slope = weighted / sum;
    const Interval step = (log(sum) - Interval(l, fine_)) / slope;
    if (!step.lower_is_finite() || !step.upper_is_finite() || !slope.lower_is_finite() || sgn(slope.lower()) <= 0)
      return {x, 0.0};
    return {x - (step.lower() + step.upper()) / 2, mpq_get_d(slope.lower().get_mpq_t())};
  }

  GaussianMixture m_;
  Precision p_, fine_;
  std::vector<double> a_, b_;               // binary64 coefficients (the first proposal)
  std::vector<Interval> fine_a_, fine_b_;  // at precision p + 32 (the refining step)
};

/// The laws of a Gaussian mixture's loss: M = Σ w_i N(c_i, σ²) is (1 − w₀)·P + w₀·N(0, σ²) with P
/// the mixture of the positive components renormalised, so the subsampled pair's laws apply with
/// the output x as the base variable and L⁻¹ in place of g⁻¹.
std::pair<LossLaw, LossLaw> mixture_laws(const GaussianMixture& m, Precision p) {
  const Rational w0 = m.zero_weight(), q = 1 - w0;
  std::vector<MixtureComponent> positive;
  for (const auto& c : m.components())
    if (sgn(c.sensitivity) > 0) positive.push_back({c.sensitivity, Rational(c.weight / q)});
  const GaussianMixture P(m.sigma(), positive);
  const Interval sigma(m.sigma(), p);
  BaseLaws base;
  base.FP = [P](const Interval& t) { return P.cdf(t); };
  base.SFP = [P](const Interval& t) { return P.cdf(t, true); };
  base.FQ = [sigma](const Interval& t) { return normal_cdf(t / sigma); };
  base.SFQ = [sigma](const Interval& t) { return normal_cdf(-t / sigma); };
  const auto root = std::make_shared<const MixtureRoot>(m, p);
  return mixed_laws(base, q, [root](const Rational& l) { return (*root)(l); }, p);
}

/// The loss laws of the two directions of a pair: remove (L under A against B) and add (−L under
/// B against A).
std::pair<LossLaw, LossLaw> loss_laws(const ContinuousPair& pair, Precision p) {
  if (pair.kind == ContinuousPair::Kind::mixture) return mixture_laws(GaussianMixture(pair.sigma_or_scale, pair.mixture), p);
  if (pair.kind == ContinuousPair::Kind::laplace && pair.q != 1)
    // subsampled: the losses g(±ε₀) of the point masses are irrational, so the point masses ride in
    // the base laws and fall into the bins that contain them (any bin content splits and merges
    // soundly, facts 2 and 3)
    return subsampled_laws(laplace_base_laws(pair.sensitivity / pair.sigma_or_scale, p), pair.q, p);
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
  // the constants as enclosures once (the arguments t below are at precision p)
  const Interval half_i(half, p), mu_i(mu, p);
  BaseLaws base;
  base.FP = [half_i, mu_i](const Interval& t) { return normal_cdf((t - half_i) / mu_i); };
  base.SFP = [half_i, mu_i](const Interval& t) { return normal_cdf(-(t - half_i) / mu_i); };
  base.FQ = [half_i, mu_i](const Interval& t) { return normal_cdf((t + half_i) / mu_i); };
  base.SFQ = [half_i, mu_i](const Interval& t) { return normal_cdf(-(t + half_i) / mu_i); };
  return subsampled_laws(base, pair.q, p);
}

/// The remove and add loss laws of the pair (qP + (1 − q)Q, Q) whose base loss has @p base.
std::pair<LossLaw, LossLaw> subsampled_laws(const BaseLaws& base, const Rational& q, Precision p) {
  // g(L) = ln(q e^L + 1 − q) is the subsampled loss; g⁻¹(l) = ln((e^l − (1 − q))/q) for e^l > 1 − q
  // (none: e^l <= 1 − q; unbounded: e^l − (1 − q) straddles 0)
  auto inverse = [q, p](const Rational& l) {
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
  return mixed_laws(base, q, inverse, p);
}

std::pair<LossLaw, LossLaw> mixed_laws(const BaseLaws& base, const Rational& q, std::function<Inv(const Rational&)> inverse_uncached,
                                       Precision p) {
  const auto FP = base.FP, SFP = base.SFP, FQ = base.FQ, SFQ = base.SFQ;
  // The first and second distributions' CDFs are evaluated at the same point one after the other
  // (BinMasses), and both need Φ at the same arguments: remember the last point's inverse and the
  // Φ values computed there (each is computed at most once per point).
  struct AtPoint {
    std::optional<Rational> l;
    Inv v;
    std::optional<Interval> fp, fq, sfp, sfq;
  };
  auto memo = std::make_shared<AtPoint>();
  auto at = [inverse_uncached, memo](const Rational& l) -> AtPoint& {
    if (!memo->l || *memo->l != l) {
      *memo = AtPoint{};
      memo->l = l;
      memo->v = inverse_uncached(l);
    }
    return *memo;
  };
  auto once = [](std::optional<Interval>& slot, auto f, const Interval& t) -> const Interval& {
    if (!slot) slot = f(t);
    return *slot;
  };
  auto fp = [=](AtPoint& m) { return once(m.fp, FP, m.v.t); };
  auto fq = [=](AtPoint& m) { return once(m.fq, FQ, m.v.t); };
  auto sfp = [=](AtPoint& m) { return once(m.sfp, SFP, m.v.t); };
  auto sfq = [=](AtPoint& m) { return once(m.sfq, SFQ, m.v.t); };
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
    AtPoint& m = at(l);
    return increasing(m.v, m.v.none ? zero : qi * fp(m) + ri * fq(m));
  };
  remove.sf1 = [=](const Rational& l) {
    AtPoint& m = at(l);
    return decreasing(m.v, m.v.none ? one : qi * sfp(m) + ri * sfq(m));
  };
  remove.cdf2 = [=](const Rational& l) {
    AtPoint& m = at(l);
    return increasing(m.v, m.v.none ? zero : fq(m));
  };
  remove.sf2 = [=](const Rational& l) {
    AtPoint& m = at(l);
    return decreasing(m.v, m.v.none ? one : sfq(m));
  };
  // add: loss −ℓ, first distribution B = Q, second A; Pr[−g(L) <= l] = Pr[L >= g⁻¹(−l)].
  add.cdf1 = [=](const Rational& l) {
    AtPoint& m = at(-l);
    return decreasing(m.v, m.v.none ? one : sfq(m));
  };
  add.sf1 = [=](const Rational& l) {
    AtPoint& m = at(-l);
    return increasing(m.v, m.v.none ? zero : fq(m));
  };
  add.cdf2 = [=](const Rational& l) {
    AtPoint& m = at(-l);
    return decreasing(m.v, m.v.none ? one : qi * sfp(m) + ri * sfq(m));
  };
  add.sf2 = [=](const Rational& l) {
    AtPoint& m = at(-l);
    return increasing(m.v, m.v.none ? zero : qi * fp(m) + ri * fq(m));
  };
  return {remove, add};
}

/// An estimate of the one-use loss's standard deviation (a heuristic: it only chooses the grid),
/// and the scale s of the grid steps s·2^−m.
std::pair<double, Rational> deviation_and_scale(const ContinuousPair& pair) {
  if (pair.kind == ContinuousPair::Kind::laplace) {
    const Rational eps0 = pair.sensitivity / pair.sigma_or_scale;
    if (pair.q == 1) return {mpq_get_d(eps0.get_mpq_t()), eps0};  // the loss lies in [−ε₀, ε₀], half its mass at ε₀
    // subsampled: about q·(e^{ε₀} − 1)/√2 (the deviation of q(e^L − 1) under Q, L about ±ε₀)
    const double e0 = mpq_get_d(eps0.get_mpq_t()), q = mpq_get_d(pair.q.get_mpq_t());
    return {std::min(e0, q * std::expm1(e0) / std::sqrt(2.0)), Rational(1)};
  }
  if (pair.kind == ContinuousPair::Kind::mixture) {
    // at most the largest c/σ (the deviation of the unmixed Gaussian's loss); about the χ² divergence's
    // square root sqrt(Σ w_i w_j e^{c_i c_j/σ²} − 1) when that is smaller (as for the subsampled Gaussian)
    const double s2 = mpq_get_d(Rational(pair.sigma_or_scale * pair.sigma_or_scale).get_mpq_t());
    double chi2 = -1;
    for (const auto& ci : pair.mixture)
      for (const auto& cj : pair.mixture)
        chi2 += mpq_get_d(ci.weight.get_mpq_t()) * mpq_get_d(cj.weight.get_mpq_t()) *
                std::exp(mpq_get_d(ci.sensitivity.get_mpq_t()) * mpq_get_d(cj.sensitivity.get_mpq_t()) / s2);
    const double top = mpq_get_d(pair.sensitivity.get_mpq_t()) / std::sqrt(s2);
    return {std::min(top, std::sqrt(std::max(chi2, 0.0))), Rational(1)};
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
  Sweep sweep = Sweep::away_from_heavier_end;  ///< how lower laws are re-gridded
  /// Heavier-end rule: lower laws re-gridded where the H₁ rule would have kept the other sweep.
  /// While there are none, composing under the H₁ rule gives the same laws.
  std::size_t rule_disagreements = 0;

  GridLaw regrid(const GridLaw& a) {
    if (a.side == BoundSide::upper || sweep != Sweep::away_from_heavier_end) return coarsen(a, sweep);
    bool differ = false;
    GridLaw c = coarsen(a, sweep, &differ);
    if (differ) ++rule_disagreements;
    return c;
  }

  void note(const GridLaw& a) {
    points = std::max(points, a.masses.size());
    if (a.step > coarsest) coarsest = a.step;
  }
  /// Coarsens while a step of twice the size still leaves `resolution` points per deviation, or
  /// while the law is larger than max_points.
  GridLaw fit(GridLaw a) {
    while (a.masses.size() > 1 && (2 * step_double(a) * resolution <= deviation(a) || a.masses.size() > max_points)) a = regrid(a);
    note(a);
    return a;
  }
  GridLaw convolve_fitted(GridLaw a, GridLaw b) {
    while (a.step < b.step) a = regrid(a);
    while (b.step < a.step) b = regrid(b);
    while (a.masses.size() + b.masses.size() - 1 > max_points) {
      a = regrid(a);
      b = regrid(b);
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

struct Laws {
  GridLaw remove_upper, remove_lower, add_upper, add_lower;
  /// The lower laws again, re-gridded by the other sweep rule (Sweep::better_of_both), when the
  /// two rules chose differently at some re-gridding (else they would be the same laws): both are lower laws,
  /// so the larger of their lower ends is a lower end.
  std::optional<GridLaw> remove_lower_alt, add_lower_alt;
  Rational step, final_step;
  std::size_t points = 0;
};

void check_options(const GridOptions& o) {
  if (o.resolution < 1) throw Error("grid bracket", "resolution", std::to_string(o.resolution), "must be at least 1");
  if (o.max_points < 16) throw Error("grid bracket", "max_points", std::to_string(o.max_points), "must be at least 16");
  if (o.composition_factor < 1 || o.composition_factor > 64)
    throw Error("grid bracket", "composition_factor", std::to_string(o.composition_factor), "must lie in [1, 64]");
  if (o.fine_bin_bits < 1 || o.fine_bin_bits > 340)
    throw Error("grid bracket", "fine_bin_bits", std::to_string(o.fine_bin_bits), "must lie in [1, 340]");
  if (sgn(o.tail) < 0 || o.tail >= Rational(1, 1000))
    throw Error("grid bracket", "tail", to_string(o.tail), "must lie in [0, 1/1000)");
}

/// Whether a / b is 2^j for an integer j (so that grids s·2^−m of both scales nest).
bool power_of_two_ratio(const Rational& a, const Rational& b) {
  const Rational r = a / b;
  auto power = [](const mpz_class& z) { return z > 0 && mpz_popcount(z.get_mpz_t()) == 1; };
  return power(r.get_num()) && power(r.get_den());
}

/// The one-use step of @p pair on a grid of scale @p scale: the largest scale·2^−m at most the
/// loss's deviation / resolution.
Rational one_use_step(const ContinuousPair& pair, const Rational& scale, const GridOptions& o) {
  const double sigma1 = deviation_and_scale(pair).first;
  const double target = sigma1 / o.resolution;
  if (!(target > 1e-12) || !std::isfinite(target))
    throw Error("grid", "deviation", std::to_string(sigma1),
                "the privacy loss of one use is too concentrated (or too spread) for a grid bracket");
  Rational h = scale;
  while (mpq_get_d(h.get_mpq_t()) > target) h /= 2;
  while (mpq_get_d(h.get_mpq_t()) * 2 <= target) h *= 2;
  return h;
}

/// Which directions' laws to compute.
struct Wanted {
  bool remove = true, add = true;
};

/// The one-use upper and lower laws of the wanted directions of @p pair on the grid of step @p h
/// (coarser when the window would exceed max_points), and the step: {remove upper, remove lower, add
/// upper, add lower}, a direction not wanted left empty (a symmetric pair's add laws are its remove
/// laws).
std::pair<Rational, std::array<GridLaw, 4>> one_use_laws(const ContinuousPair& pair, Rational h, const GridOptions& o,
                                                         double tail, Wanted wanted) {
  auto [remove, add] = loss_laws(pair, 64);
  const bool symmetric = pair.kind == ContinuousPair::Kind::laplace && pair.q == 1;
  for (int tries = 0;; ++tries, h *= 2) {  // coarser when the window would exceed max_points
    try {
      std::pair<GridLaw, GridLaw> r, a;
      if (wanted.remove || symmetric) r = discretise(remove, h, tail, o.max_points, o.fine_bin_bits);
      if (symmetric) return {h, {r.first, r.second, r.first, r.second}};
      if (wanted.add) a = discretise(add, h, tail, o.max_points, o.fine_bin_bits);
      return {h, {r.first, r.second, a.first, a.second}};
    } catch (const Error& e) {
      if (e.where() != "grid" || tries >= 40) throw;
    }
  }
}

Laws composed_laws(const std::vector<GridComponent>& comps, const GridOptions& o, Wanted wanted) {
  if (comps.empty()) throw Error("grid bracket", "components", "", "need at least one component");
  for (const auto& c : comps)
    if (c.times < 1) throw Error("grid bracket", "times", "0", "need at least one use");
  check_options(o);
  const double tail = mpq_get_d(o.tail.get_mpq_t());
  // Computed afresh on every call: no process-wide cache (a cache keyed on the pair would be
  // shared mutable state between unrelated callers); the convolutions are quasi-linear, so the
  // one-use discretisation and the final evaluations dominate.
  Rational scale = deviation_and_scale(comps.front().pair).second;
  for (const auto& c : comps)
    if (!power_of_two_ratio(deviation_and_scale(c.pair).second, scale)) scale = 1;
  // Every component on the coarsest of their one-use steps: composing two laws re-grids the finer
  // onto the coarser anyway (Composer::convolve_fitted), so a finer one-use law would only cost its
  // discretisation (the dominant cost) and a second rounding.
  Rational common;
  for (const auto& c : comps) common = std::max(common, one_use_step(c.pair, scale, o));
  std::optional<Composer> composer;
  std::optional<std::array<GridLaw, 4>> total;
  const std::array<bool, 4> want{wanted.remove, wanted.remove, wanted.add, wanted.add};
  std::vector<std::array<GridLaw, 2>> one_lower;  // each component's one-use lower laws (remove, add)
  Laws out;
  for (const auto& c : comps) {
    auto one = one_use_laws(c.pair, common, o, tail, wanted);
    one_lower.push_back({one.second[1], one.second[3]});
    if (!composer) {
      composer = Composer{tail, o.max_points, o.resolution * o.composition_factor, 0, one.first};
      out.step = one.first;
    }
    out.step = std::min(out.step, one.first);
    const bool symmetric = c.pair.kind == ContinuousPair::Kind::laplace && c.pair.q == 1;
    std::array<GridLaw, 4> k;
    for (int i = 0; i < 4; ++i) {
      if (!want[i]) continue;
      if (symmetric && i >= 2 && want[i - 2]) k[i] = k[i - 2];  // the add laws are the remove laws
      else k[i] = composer->self_compose(one.second[i], c.times);
    }
    if (!total) {
      total = std::move(k);
      continue;
    }
    for (int i = 0; i < 4; ++i)
      if (want[i]) (*total)[i] = composer->convolve_fitted((*total)[i], k[i]);
  }
  out.remove_upper = (*total)[0];
  out.remove_lower = (*total)[1];
  out.add_upper = (*total)[2];
  out.add_lower = (*total)[3];
  out.points = composer->points;
  out.final_step = composer->coarsest;
  if (composer->rule_disagreements > 0) {
    // The lower laws again under the other sweep rule. Neither rule is better for every law (the
    // heavier-end rule picked the worse sweep for dp-accounting's composed Gaussian mixtures at the
    // point cap, 2.2·10⁻⁴ instead of 6.5·10⁻⁷ relative at resolution 8192; the H₁ rule is worse for
    // some subsampled Gaussians, bench/README.md), and the larger lower end of two lower laws is
    // never below either's: the bracket is never wider than with either rule alone.
    Composer alt{tail, o.max_points, o.resolution * o.composition_factor, 0, out.step,
                 Sweep::better_of_both};
    alt.coarsest = composer->coarsest;
    std::optional<std::array<GridLaw, 2>> lower;
    for (std::size_t n = 0; n < comps.size(); ++n) {
      const bool symmetric = comps[n].pair.kind == ContinuousPair::Kind::laplace && comps[n].pair.q == 1;
      std::array<GridLaw, 2> k;
      if (wanted.remove) k[0] = alt.self_compose(one_lower[n][0], comps[n].times);
      if (wanted.add) k[1] = symmetric && wanted.remove ? k[0] : alt.self_compose(one_lower[n][1], comps[n].times);
      if (!lower) {
        lower = std::move(k);
        continue;
      }
      if (wanted.remove) (*lower)[0] = alt.convolve_fitted((*lower)[0], k[0]);
      if (wanted.add) (*lower)[1] = alt.convolve_fitted((*lower)[1], k[1]);
    }
    if (wanted.remove) out.remove_lower_alt = (*lower)[0];
    if (wanted.add) out.add_lower_alt = (*lower)[1];
    out.points = std::max(out.points, alt.points);
    out.final_step = std::max(out.final_step, alt.coarsest);
  }
  return out;
}

/// One direction's bracket [lo, hi] of δ(ε) or of the least ε (std::nullopt: +∞).
struct Ends {
  std::optional<Rational> lo, hi;
};

/// The bracket of the larger of two directions' values from a bracket of each: [max of the lower
/// ends, max of the upper ends] (+∞ dominating).
Ends larger(const Ends& a, const Ends& b) {
  auto top = [](const std::optional<Rational>& x, const std::optional<Rational>& y) -> std::optional<Rational> {
    if (!x || !y) return std::nullopt;
    return std::max(*x, *y);
  };
  return {top(a.lo, b.lo), top(a.hi, b.hi)};
}

/// Whether @p a's value is certainly at most @p b's (a's upper end at most b's lower end).
bool at_most(const Ends& a, const Ends& b) { return a.hi && (!b.lo || *a.hi <= *b.lo); }

/// The brackets of both directions of @p comps at options.resolution: {remove, add} (a direction not
/// in @p wanted is left as the point 0), with the grid that produced them.
struct DirectionEnds {
  Ends remove{Rational(0), Rational(0)}, add{Rational(0), Rational(0)};
  Laws laws;
};

using Evaluate = std::function<Ends(const GridLaw& lower, const GridLaw& upper)>;

DirectionEnds direction_ends(const std::vector<GridComponent>& comps, const GridOptions& o, Wanted wanted,
                             const Evaluate& evaluate) {
  DirectionEnds out;
  out.laws = composed_laws(comps, o, wanted);
  // the larger lower end of the two lower laws (std::nullopt, +∞, the largest), never above the upper end
  auto ends = [&](const GridLaw& lower, const std::optional<GridLaw>& alt, const GridLaw& upper) {
    Ends e = evaluate(lower, upper);
    if (!alt || !e.lo) return e;
    const std::optional<Rational> lo = evaluate(*alt, *alt).lo;
    if (!lo) e.lo = e.hi ? e.hi : std::nullopt;
    else if (*lo > *e.lo) e.lo = e.hi ? std::min(*lo, *e.hi) : *lo;
    return e;
  };
  if (wanted.remove) out.remove = ends(out.laws.remove_lower, out.laws.remove_lower_alt, out.laws.remove_upper);
  if (wanted.add) out.add = ends(out.laws.add_lower, out.laws.add_lower_alt, out.laws.add_upper);
  return out;
}

/// The bracket of the value in options.direction (both: the larger of the two), with its grid.
/// For both directions of an asymmetric pair at resolution ≥ 128, both are first bracketed at a
/// sixteenth of the resolution (about an eighth of the work); when one direction's upper end is
/// then at most the other's lower end, only the larger direction is refined, and the smaller keeps
/// its coarse bracket: the maximum's bracket [max of the lower ends, max of the upper ends] is valid
/// for any bracket of each direction, and the smaller's coarse upper end lies below the larger's
/// value, so it changes nothing there. The subsampled Gaussian's add direction, or a Gaussian
/// mixture's whose loss is bounded, cost almost nothing that way.
std::pair<Ends, Laws> bracket(const std::vector<GridComponent>& comps, const GridOptions& options, const Evaluate& evaluate) {
  const bool remove = options.direction != NeighbourDirection::add, add = options.direction != NeighbourDirection::remove;
  bool symmetric = true;
  for (const auto& c : comps) symmetric = symmetric && c.pair.kind == ContinuousPair::Kind::laplace && c.pair.q == 1;
  if (remove && add && !symmetric && options.resolution >= 128) {
    check_options(options);
    GridOptions coarse = options;
    coarse.resolution = options.resolution / 16;
    const DirectionEnds c = direction_ends(comps, coarse, {true, true}, evaluate);
    if (at_most(c.add, c.remove) || at_most(c.remove, c.add)) {
      const bool remove_larger = at_most(c.add, c.remove);
      const DirectionEnds f = direction_ends(comps, options, {remove_larger, !remove_larger}, evaluate);
      return {remove_larger ? larger(f.remove, c.add) : larger(f.add, c.remove), f.laws};
    }
  }
  const DirectionEnds f = direction_ends(comps, options, {remove, add}, evaluate);
  if (remove && add) return {larger(f.remove, f.add), f.laws};
  return {remove ? f.remove : f.add, f.laws};
}

}  // namespace

/// The step of a law as an enclosure, for the compose layer's evaluations.
Interval step_of(const GridLaw& a, Precision p) { return Interval(a.step, p); }

GridBracket grid_delta_at_epsilon(const ContinuousPair& pair, unsigned long k, const Rational& epsilon,
                                  const GridOptions& options) {
  return grid_delta_at_epsilon(std::vector<GridComponent>{{pair, k}}, epsilon, options);
}

GridBracket grid_epsilon_at_delta(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                  const GridOptions& options) {
  return grid_epsilon_at_delta(std::vector<GridComponent>{{pair, k}}, delta, options);
}

GridBracket grid_delta_at_epsilon(const std::vector<GridComponent>& comps, const Rational& epsilon,
                                  const GridOptions& options) {
  if (sgn(epsilon) < 0) {  // H_λ(A‖B) = 1 − λ + λ·H_{1/λ}(B‖A) (divergence/direction.hpp)
    GridOptions reverse = options;
    reverse.direction = reversed(options.direction);
    GridBracket b = grid_delta_at_epsilon(comps, -epsilon, reverse);
    b.value = delta_from_reversed(exp(Interval(epsilon, options.precision)), b.value);
    return b;
  }
  const Precision p = options.precision;
  const auto [ends, l] = bracket(comps, options, [&](const GridLaw& lower, const GridLaw& upper) {
    const Rational lo = std::max(Rational(0), grid_hockey_stick(lower, step_of(lower, p), epsilon));
    const Rational hi = std::min(Rational(1), grid_hockey_stick(upper, step_of(upper, p), epsilon));
    return Ends{std::min(lo, hi), hi};  // lo <= hi for exact masses; min kept for safety of the hull
  });
  return {Interval::hull(*ends.lo, *ends.hi, p), l.step, l.final_step, l.points, options.resolution};
}

GridBracket grid_epsilon_at_delta(const std::vector<GridComponent>& comps, const Rational& delta,
                                  const GridOptions& options) {
  if (sgn(delta) <= 0 || delta > 1) throw Error("grid bracket", "delta", to_string(delta), "must lie in (0, 1]");
  const Precision p = options.precision;
  const auto [ends, l] = bracket(comps, options, [&](const GridLaw& lower, const GridLaw& upper) {
    return Ends{grid_least_epsilon(lower, step_of(lower, p), delta, p), grid_least_epsilon(upper, step_of(upper, p), delta, p)};
  });
  // lower end +∞: the truth has no finite ε either; upper end +∞: at least the lower end
  Interval value = !ends.lo ? Interval::infinity(p)
                   : !ends.hi ? Interval::at_least(*ends.lo, p)
                              : Interval::hull(*ends.lo, std::max(*ends.hi, *ends.lo), p);
  return {value, l.step, l.final_step, l.points, options.resolution};
}

GridBracket intersect(const GridBracket& coarser, const GridBracket& finer) {
  GridBracket out = finer;
  const Interval& a = coarser.value;
  const Interval& b = finer.value;
  const Precision p = std::max(a.precision(), b.precision());
  // Interval::infinity() is the point +∞: lower end not finite, upper end not finite.
  const bool a_inf = !a.lower_is_finite() && !a.upper_is_finite();
  const bool b_inf = !b.lower_is_finite() && !b.upper_is_finite();
  if (a_inf || b_inf) {
    out.value = Interval::infinity(p);
    return out;
  }
  const Rational lo = std::max(a.lower(), b.lower());
  if (!a.upper_is_finite() && !b.upper_is_finite()) {
    out.value = Interval::at_least(lo, p);
    return out;
  }
  Rational hi = !a.upper_is_finite() ? b.upper() : !b.upper_is_finite() ? a.upper() : std::min(a.upper(), b.upper());
  // Both enclose the same number, so lo <= hi unless one of them is unsound; say so loudly.
  if (lo > hi)
    throw Error("grid bracket", "intersect", to_string(lo) + " > " + to_string(hi),
                "two brackets of the same value are disjoint (a bracket is unsound)");
  out.value = Interval::hull(lo, hi, p);
  return out;
}

GridBracket grid_epsilon_at_delta_within(const ContinuousPair& pair, unsigned long k, const Rational& delta,
                                         const Rational& relative_width, unsigned max_resolution, GridOptions options) {
  if (sgn(relative_width) <= 0)
    throw Error("grid bracket", "relative_width", to_string(relative_width), "must be positive");
  check_options(options);
  std::optional<GridBracket> best;
  for (;;) {
    GridBracket b = grid_epsilon_at_delta(pair, k, delta, options);
    if (best) b = intersect(*best, b);
    best = b;
    const Interval& v = b.value;
    if (v.lower_is_finite() && v.upper_is_finite() && v.upper() - v.lower() <= relative_width * v.upper()) return b;
    if (options.resolution * 2 > max_resolution) return b;
    options.resolution *= 2;
  }
}

}  // namespace exactdp
