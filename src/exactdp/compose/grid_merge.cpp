// Merging atoms onto a grid (the argument is in the header's file comment).
#include "exactdp/compose/grid_merge.hpp"

#include "exactdp/numeric/directed_rounding.hpp"
#include "exactdp/numeric/interval.hpp"

#include <algorithm>
#include <cmath>

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

/// How far below its target a merged atom may be stored (grid points), and how far a carry reaches.
constexpr long kBelow = 130;
constexpr long kReach = 256;

}  // namespace

GridStepBounds grid_step_bounds(const Rational& h) {
  const Precision p = 128;
  const Interval e = exp(Interval(h, p));
  const Interval one(Rational(1), p);
  GridStepBounds b;
  b.exp_lo = lower_double(e);
  b.exp_hi = upper_double(e);
  b.exp_neg_hi = upper_double(one / e);
  b.split_low_hi = upper_double(one / (one + e));
  b.split_high_hi = upper_double(e / (one + e));
  return b;
}

GridLossLaw merge_onto_grid(const std::vector<GridMergeAtom>& atoms, const Rational& H, double infinite_mass,
                            bool downward) {
  GridLossLaw out;
  out.side = BoundSide::lower;
  out.infinite_mass = infinite_mass;
  if (atoms.empty()) {
    out.masses.assign(1, 0.0);
    return out;
  }
  const GridStepBounds sb = grid_step_bounds(H);
  constexpr long below = kBelow;  // room for merged atoms certified only some points lower
  long first = atoms.front().low, last = atoms.front().high;
  for (const GridMergeAtom& a : atoms) {
    first = std::min(first, a.low);
    last = std::max(last, a.high);
  }
  out.offset = first - below;
  out.masses.assign(static_cast<std::size_t>(last - out.offset + 1), 0.0);
  auto emit_at = [&](long t, double p) {
    if (t < out.offset || p <= 0) return;  // dropped: only lowers a lower law
    double& slot = out.masses[static_cast<std::size_t>(t - out.offset)];
    slot = sum_down(slot, p);
  };
  // (cp, cq) in the frame of t (cq bounds the Q-mass times e^{tH}): stored at the largest t − d,
  // d < below, with cp/cq >= e^{−dH} certified, or at `floor`, the least `low` of the merged parts,
  // if higher or if no such d is found (a merged loss is at least its least part's: the mediant
  // inequality; dropping it, as before, lost its mass)
  long floor = 0;
  auto emit = [&](long t, double cp, double cq) {
    double threshold = cq;
    for (long d = 0; d < below; ++d) {
      if (cp >= threshold) return emit_at(std::max(t - d, floor), cp);
      threshold = prod_up(threshold, sb.exp_neg_hi);
    }
    emit_at(floor, cp);
  };
  // q̂ of an atom moved from frame `from` to frame `to`: times e^{(to − from)H}, an upper bound
  auto reframe = [&](double qhat, long from, long to) {
    for (long f = from; f < to; ++f) qhat = prod_up(qhat, sb.exp_hi);
    for (long f = to; f < from; ++f) qhat = prod_up(qhat, sb.exp_neg_hi);
    return qhat;
  };
  constexpr long reach = kReach;  // a carry merges with atoms at most this many frames away
  bool carrying = false;
  long t = 0;
  double cp = 0, cq = 0;
  auto start = [&](const GridMergeAtom& a) {
    if (a.p <= 0) return;
    if (a.on_grid) return emit_at(a.high, a.p);
    carrying = true;
    floor = a.low;
    t = downward ? a.low : a.high;
    cp = a.p;
    cq = reframe(a.qhat, a.high, t);
  };
  auto step = [&](const GridMergeAtom& a) {
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
      floor = std::min(floor, a.low);
      return;
    }
    double beta = downward ? (cp - cq) / (q - a.p) : (cq - cp) / (a.p - q);  // brings the ratio to 1
    if (!(beta < 1)) {
      cp = sum_down(cp, a.p);
      cq = sum_up(cq, q);
      floor = std::min(floor, a.low);
      return;
    }
    beta = downward ? std::max(0.0, beta * (1 - 0x1p-30) - 0x1p-60) : std::min(1.0, beta * (1 + 0x1p-30) + 0x1p-60);
    floor = std::min(floor, a.low);
    emit(t, sum_down(cp, prod_down(beta, a.p)), sum_up(cq, prod_up(beta, q)));
    carrying = false;
    GridMergeAtom rest = a;
    rest.p = prod_down(a.p, next_down(1.0 - beta));
    rest.qhat = prod_up(a.qhat, next_up(1.0 - beta));
    start(rest);
  };
  if (downward)
    for (auto it = atoms.rbegin(); it != atoms.rend(); ++it) step(*it);
  else
    for (const GridMergeAtom& a : atoms) step(a);
  if (carrying) emit(t, cp, cq);
  return out;
}

bool heavier_top(const std::vector<GridMergeAtom>& atoms) {
  double bottom = 0, top = 0;
  const std::size_t n = std::min<std::size_t>(4, atoms.size() / 2);
  for (std::size_t i = 0; i < n; ++i) {
    bottom += atoms[i].p;
    top += atoms[atoms.size() - 1 - i].p;
  }
  return top > bottom;
}

const GridLossLaw& better_lower(const GridLossLaw& a, const GridLossLaw& b, const Rational& H) {
  const double h = mpq_get_d(H.get_mpq_t());
  auto score = [h](const GridLossLaw& x) {
    double s = 0;
    for (std::size_t i = 0; i < x.masses.size(); ++i) {
      const long j = x.offset + static_cast<long>(i);
      if (j > 0) s += x.masses[i] * -std::expm1(-static_cast<double>(j) * h);
    }
    return s;
  };
  return score(b) > score(a) ? b : a;
}

GridLossLaw merged_lower_law(const std::vector<GridMergeAtom>& atoms, const Rational& H, double infinite_mass) {
  GridLossLaw up = merge_onto_grid(atoms, H, infinite_mass, false);
  GridLossLaw down = merge_onto_grid(atoms, H, infinite_mass, true);
  return &better_lower(up, down, H) == &down ? std::move(down) : std::move(up);
}

}  // namespace exactdp
