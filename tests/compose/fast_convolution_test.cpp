// The fast certified composition (compose/fast_convolution.hpp) and the certified convolution
// beneath it (numeric/certified_convolution.hpp), checked against exact rational arithmetic and
// against the exact composition routes (PrivacyLoss::self_compose, CertifiedLoss::self_compose),
// which share no code with them.
#include "exactdp/compose/fast_convolution.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/numeric/certified_convolution.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <vector>

namespace exactdp {
namespace {

using testing::q;
using testing::rr_table;

/// The exact convolution of two vectors of doubles (doubles are dyadic rationals).
std::vector<Rational> exact_convolution(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<Rational> c(a.size() + b.size() - 1);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += Rational(a[i]) * Rational(b[j]);
  return c;
}

std::vector<double> small_masses() {
  // masses spread over many magnitudes, with zeros, so that both roundings are exercised
  const auto n = *rc::gen::inRange<std::size_t>(1, 24);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    const int e = *rc::gen::inRange(-200, 1);
    const double m = *rc::gen::inRange(0, 1 << 20) / double(1 << 20);
    v.push_back(std::ldexp(m, e));
  }
  return v;
}

// The law of the certified convolution: every output is on its stated side of the exact sum of
// products (independent route: exact rational arithmetic on the same doubles).
RC_GTEST_PROP(CertifiedConvolution, BoundsTheExactConvolutionFromItsSide, ()) {
  const std::vector<double> a = small_masses(), b = small_masses();
  const unsigned F = *rc::gen::inRange(8u, 200u);
  const auto up = certified_convolution(a, b, BoundSide::upper, {F});
  const auto down = certified_convolution(a, b, BoundSide::lower, {F});
  const auto exact = exact_convolution(a, b);
  RC_ASSERT(up.size() == exact.size());
  RC_ASSERT(down.size() == exact.size());
  for (std::size_t j = 0; j < exact.size(); ++j) {
    RC_ASSERT(Rational(down[j]) <= exact[j]);
    RC_ASSERT(exact[j] <= Rational(up[j]));
  }
  const auto sq = certified_square(a, BoundSide::upper, {F});
  const auto exact_sq = exact_convolution(a, a);
  for (std::size_t j = 0; j < exact_sq.size(); ++j) RC_ASSERT(exact_sq[j] <= Rational(sq[j]));
}

TEST(CertifiedConvolution, ExactWhenTheScaleHoldsEveryMass) {
  // 1/2, 1/4 and 3/8 are multiples of 2^−8: the product is exact, both sides agree with it
  const std::vector<double> a{0.5, 0.25}, b{0.375};
  for (BoundSide s : {BoundSide::lower, BoundSide::upper}) {
    const auto c = certified_convolution(a, b, s, {8});
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0], 0.1875);
    EXPECT_EQ(c[1], 0.09375);
  }
  EXPECT_THROW(certified_convolution({-1.0}, {1.0}, BoundSide::upper), Error);
  EXPECT_THROW(certified_convolution({1.0}, {1.0}, BoundSide::upper, {4}), Error);
}

/// True when the bracket contains the enclosure's points up to the enclosure's own width.
bool brackets(const Interval& bracket, const Interval& truth) {
  return bracket.lower() <= truth.upper() && truth.lower() <= bracket.upper();
}

// Randomized response is a lattice loss (ratios λ^{±1}): the fast route has no grid error and its
// bracket must contain the exact profile of the exact k-fold composition (independent algorithm:
// PrivacyLoss::self_compose, Kronecker-substituted big-integer power).
TEST(FastComposition, LatticeBracketContainsTheExactComposition) {
  const PrivacyLoss rr = rr_table(q(3), q(0));
  for (unsigned long k : {1ul, 2ul, 7ul, 40ul}) {
    const PrivacyProfile exact(rr.self_compose(k));
    for (const Rational& eps : {q(0), q(1, 3), q(2), q(5)}) {
      const FastBracket b = fast_delta_at_epsilon(rr, k, eps);
      EXPECT_TRUE(b.lattice);
      EXPECT_TRUE(brackets(b.value, exact.delta(exp(Interval(eps)))))
          << "k = " << k << ", eps = " << to_string(eps) << ": " << b.value.to_string();
      EXPECT_LE(b.value.width_upper(), q(1, 1000000000));  // only rounding error: tiny
    }
    for (const Rational& delta : {q(1, 100000), q(1, 10)}) {
      const FastBracket e = fast_epsilon_at_delta(rr, k, delta);
      EXPECT_TRUE(brackets(e.value, exact.least_epsilon(delta)))
          << "k = " << k << ", delta = " << to_string(delta) << ": " << e.value.to_string();
    }
  }
}

// A pair whose ratios 2 and 1/3 are incommensurable is gridded: the bracket contains the exact
// value at every resolution and narrows as the grid refines.
TEST(FastComposition, GriddedBracketContainsTheExactValueAndNarrows) {
  const PrivacyLoss loss = PrivacyLoss::from_masses({{q(1, 2), q(1, 4)}, {q(1, 4), q(3, 4)}, {q(1, 4), q(0)}});
  const unsigned long k = 6;
  const PrivacyProfile exact(loss.self_compose_by_squaring(k));
  const Rational eps(1);
  const Interval truth = exact.delta(exp(Interval(eps)));
  Rational previous(2);
  for (unsigned res : {8u, 32u, 128u, 512u}) {
    FastCompositionOptions o;
    o.resolution = res;
    o.max_resolution = res;  // one resolution only
    o.max_enumerated_atoms = 0;  // the grid, not the atom-by-atom composition
    const FastBracket b = fast_delta_at_epsilon(loss, k, eps, std::nullopt, o);
    EXPECT_FALSE(b.lattice);
    EXPECT_TRUE(brackets(b.value, truth)) << "resolution " << res << ": " << b.value.to_string();
    EXPECT_LT(b.value.width_upper(), previous) << "resolution " << res;
    previous = b.value.width_upper();
  }
  // the catastrophic atom leaves P-mass 1 − (3/4)^6 ≈ 0.82 at +∞: ε is finite only for δ above it
  FastCompositionOptions o;
  o.max_resolution = 256;
  o.max_enumerated_atoms = 0;
  const FastBracket e = fast_epsilon_at_delta(loss, k, q(9, 10), std::nullopt, o);
  EXPECT_TRUE(brackets(e.value, exact.least_epsilon(q(9, 10)))) << e.value.to_string();
  EXPECT_FALSE(fast_epsilon_at_delta(loss, k, q(1, 10), std::nullopt, o).value.upper_is_finite());
}

// Subsampling: the fast route subsamples exactly (poisson_subsample) before gridding; the truth is
// the exact profile of the exactly subsampled pair composed exactly.
TEST(FastComposition, SubsampledBracketContainsTheExactValue) {
  const PrivacyLoss rr = rr_table(q(4), q(0));
  const Rational rate = q(1, 5);
  const unsigned long k = 12;
  const PrivacyProfile exact(poisson_subsample(rr, rate).self_compose_by_squaring(k));
  FastCompositionOptions o;
  o.max_resolution = 256;
  for (const Rational& eps : {q(1, 4), q(1)}) {
    const FastBracket b = fast_delta_at_epsilon(rr, k, eps, rate, o);
    EXPECT_TRUE(brackets(b.value, exact.delta(exp(Interval(eps))))) << b.value.to_string();
  }
  EXPECT_THROW(fast_delta_at_epsilon(rr, k, q(1), q(0)), Error);
}

/// The discrete Laplace pair by ε: P(y ≤ 0) = 1/(1 + e^{−ε}) with ratio e^{ε}, else ratio e^{−ε}.
CertifiedLoss dlaplace_by_epsilon(const Rational& eps) {
  const Interval r = exp(Interval(Rational(-eps)));
  const Interval one(1L, default_precision);
  const Interval a = one / (one + r), b = r / (one + r);
  return CertifiedLoss::from_atoms({{SymbolicRatio::exponential(1, eps), a, b}, {SymbolicRatio::exponential(1, -eps), b, a}});
}

// Mechanisms given by ε have ratios e^{±ε}: a lattice of step ε for the certified loss. The truth
// is CertifiedLoss::self_compose_by_squaring (repeated squaring of the interval PLD, with merging
// of equal ratios — no polynomial product, no grid).
TEST(FastComposition, CertifiedLatticeMatchesTheCertifiedComposition) {
  const CertifiedLoss dlap = dlaplace_by_epsilon(q(1, 2));
  const unsigned long k = 25;
  const CertifiedLoss exact = dlap.self_compose_by_squaring(k);
  for (const Rational& eps : {q(1), q(3)}) {
    const FastBracket f = fast_delta_at_epsilon(dlap, k, eps);
    EXPECT_TRUE(f.lattice);
    EXPECT_TRUE(brackets(f.value, exact.delta_at_epsilon(Interval(eps)))) << f.value.to_string();
  }
  const FastBracket e = fast_epsilon_at_delta(dlap, k, q(1, 100000));
  EXPECT_TRUE(brackets(e.value, exact.least_epsilon(q(1, 100000)))) << e.value.to_string();
  EXPECT_LE(e.value.width_upper(), q(1, 1000000000) * e.value.upper());
}

// CertifiedLoss::self_compose raises lattice losses to the k-th power with certified_power: the
// same ratios as repeated squaring, and every mass enclosure meets the reference one (both contain
// the true mass); RR by ε with δ > 0 adds the atoms of ratio 0 and +∞.
TEST(CertifiedLossPower, LatticePowerAgreesWithRepeatedSquaring) {
  const Interval e = exp(Interval(q(1)));
  const Interval one(1L, default_precision), d(q(1, 20), default_precision);
  // RR_{ε=1, δ=1/20}: (δ, 0), ((1−δ)e/(1+e), (1−δ)/(1+e)), the mirror, (0, δ)
  const Interval hi = (one - d) * e / (one + e), lo = (one - d) / (one + e);
  const CertifiedLoss rr = CertifiedLoss::from_atoms({{SymbolicRatio::infinity(), d, Interval::zero(default_precision)},
                                                      {SymbolicRatio::exponential(1, q(1)), hi, lo},
                                                      {SymbolicRatio::exponential(1, q(-1)), lo, hi},
                                                      {SymbolicRatio::zero(), Interval::zero(default_precision), d}});
  for (const CertifiedLoss& base : {rr, dlaplace_by_epsilon(q(2, 3))}) {
    for (unsigned long k : {2ul, 5ul, 16ul}) {
      const CertifiedLoss fast = base.self_compose(k), slow = base.self_compose_by_squaring(k);
      ASSERT_EQ(fast.size(), slow.size()) << "k = " << k;
      for (std::size_t i = 0; i < fast.size(); ++i) {
        EXPECT_EQ(fast.atoms()[i].ratio, slow.atoms()[i].ratio);
        EXPECT_TRUE(brackets(fast.atoms()[i].p, slow.atoms()[i].p)) << fast.atoms()[i].p.to_string() << " vs " << slow.atoms()[i].p.to_string();
        EXPECT_TRUE(brackets(fast.atoms()[i].q, slow.atoms()[i].q));
      }
      const Interval ef = fast.least_epsilon(q(1, 10)), es = slow.least_epsilon(q(1, 10));
      ASSERT_EQ(ef.upper_is_finite(), es.upper_is_finite()) << ef.to_string() << " vs " << es.to_string();
      if (es.upper_is_finite()) { EXPECT_TRUE(brackets(ef, es)) << ef.to_string() << " vs " << es.to_string(); }
    }
  }
}

// ---- pairs off any lattice, composed atom by atom (exact losses) -------------------------------

/// The relative width (hi − lo)/hi of a finite bracket.
double relative_width(const Interval& b) {
  return mpq_get_d(Rational((b.upper() - b.lower()) / b.upper()).get_mpq_t());
}

// The discrete Laplace pair with r = 1/2 (the clamped pair (2/3, 1/3), (1/3, 2/3)) Poisson-subsampled
// at q = 1/10 has rational ratios 11/10 and 19/20, which share no base: no lattice. Composed atom by
// atom its bracket must contain the exact profile of the exactly subsampled pair composed exactly
// (independent route: PrivacyLoss::self_compose_by_squaring on rationals) and be as narrow as the
// working precision, not a grid step. The same pair with a ratio-1 outcome added (krr-like) has
// composed atoms of exactly equal loss, whose order the enumeration cannot certify: both sides of
// its least-ε bracket then come from merged or lowered runs.
TEST(FastComposition, EnumeratedSubsampledPairEqualsTheExactComposition) {
  const std::vector<PrivacyLoss> pairs = {
      PrivacyLoss::from_masses({{q(2, 3), q(1, 3)}, {q(1, 3), q(2, 3)}}),
      PrivacyLoss::from_masses({{q(1, 2), q(1, 4)}, {q(1, 4), q(1, 2)}, {q(1, 4), q(1, 4)}})};
  for (const PrivacyLoss& base : pairs) {
    for (const Rational& rate : {q(1, 10), q(1, 2)}) {
      for (unsigned long k : {1ul, 10ul, 30ul}) {
        const PrivacyProfile exact(poisson_subsample(base, rate).self_compose_by_squaring(k));
        for (const Rational& eps : {q(0), q(1, 10), q(1)}) {
          const FastBracket b = fast_delta_at_epsilon(base, k, eps, rate);
          EXPECT_TRUE(b.enumerated);
          const Interval truth = exact.delta(exp(Interval(eps)));
          EXPECT_TRUE(brackets(b.value, truth)) << "k = " << k << ", eps = " << to_string(eps) << ": " << b.value.to_string();
          if (sgn(truth.lower()) > 0) { EXPECT_LT(relative_width(b.value), 1e-25) << b.value.to_string(); }
        }
        for (const Rational& delta : {q(1, 100000), q(1, 100)}) {
          const FastBracket e = fast_epsilon_at_delta(base, k, delta, rate);
          if (exact.least_lambda(delta).is_infinite()) {
            EXPECT_FALSE(e.value.upper_is_finite());
            continue;
          }
          const Interval truth = exact.least_epsilon(delta);
          EXPECT_TRUE(brackets(e.value, truth)) << "k = " << k << ", delta = " << to_string(delta) << ": " << e.value.to_string();
          if (sgn(truth.lower()) > 0) { EXPECT_LT(relative_width(e.value), 1e-25) << e.value.to_string(); }
        }
      }
    }
  }
}

// The discrete Laplace mechanism with r = e^{−1} (irrational) Poisson-subsampled at q = 1/10, 10
// uses: the truth from an independent 60-digit mpmath sum over the binomial of the two subsampled
// atoms (A = (q + (1 − q)r, (q·r + 1 − q))/(1 + r) against B = (r, 1)/(1 + r); δ the sum of
// C(10, i)(A₀^i A₁^{10−i} − e·B₀^i B₁^{10−i})⁺, ε by 200 bisection steps on max(remove, add)):
// δ(1) = 3.326541598884119235664431060057638097866e−4 (add 0), ε(10⁻⁵) = 1.3240652331386600926994654030292933688…
TEST(FastComposition, EnumeratedIrrationalDiscreteLaplaceMatchesHighPrecisionSum) {
  const CertifiedLoss dlap = dlaplace_by_epsilon(q(1));
  const Rational rate = q(1, 10);
  const FastBracket d = fast_delta_at_epsilon(dlap, 10, q(1), rate);
  EXPECT_TRUE(d.enumerated);
  const Interval delta_truth = Interval::hull(Rational("3326541598884119235664431060057638097865/10000000000000000000000000000000000000000000"),
                                              Rational("3326541598884119235664431060057638097867/10000000000000000000000000000000000000000000"));
  EXPECT_TRUE(brackets(d.value, delta_truth)) << d.value.to_string(45);
  EXPECT_LT(relative_width(d.value), 1e-30) << d.value.to_string(45);
  const FastBracket e = fast_epsilon_at_delta(dlap, 10, q(1, 100000), rate);
  const Interval eps_truth = Interval::hull(Rational("13240652331386600926994654030292933688/10000000000000000000000000000000000000"),
                                            Rational("13240652331386600926994654030292933689/10000000000000000000000000000000000000"));
  EXPECT_TRUE(brackets(e.value, eps_truth)) << e.value.to_string(45);
  EXPECT_LT(relative_width(e.value), 1e-30) << e.value.to_string(45);
  // one direction at a time: the add direction's δ(1) is 0 (its largest loss, 10·ln(1/(1 − q(1 − r))),
  // is about 0.65 < 1), the remove direction's is the value above
  FastCompositionOptions add;
  add.direction = NeighbourDirection::add;
  EXPECT_EQ(fast_delta_at_epsilon(dlap, 10, q(1), rate, add).value.upper(), 0);
  FastCompositionOptions remove;
  remove.direction = NeighbourDirection::remove;
  EXPECT_TRUE(brackets(fast_delta_at_epsilon(dlap, 10, q(1), rate, remove).value, delta_truth));
  // 10⁴ uses: the Q-masses at the top losses (about 10⁻⁵·e^{−96}) must keep their relative accuracy
  // or the least ε is lost (a fixed-point product answered [0, ∞)). The same mpmath sum at 50 digits
  // gives δ(96.27383622) = 1.0000000013·10⁻⁵ > 10⁻⁵ and δ(96.27383623) = 0.99999999964·10⁻⁵, so ε(10⁻⁵)
  // lies between them.
  const FastBracket far = fast_epsilon_at_delta(dlap, 10000, q(1, 100000), rate);
  EXPECT_TRUE(far.enumerated);
  EXPECT_TRUE(far.value.subset_of(Interval::hull(q(9627383622, 100000000), q(9627383623, 100000000)))) << far.value.to_string(20);
}

/// A random pair on 2 or 3 outcomes with rational masses (possibly an outcome of one world only).
PrivacyLoss random_pair() {
  const auto n = *rc::gen::inRange<std::size_t>(2, 4);
  std::vector<long> p, qq;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(*rc::gen::inRange(0, 6));
    qq.push_back(*rc::gen::inRange(0, 6));
  }
  p[0] += 1;  // both totals positive
  qq[n - 1] += 1;
  long sp = 0, sq = 0;
  for (std::size_t i = 0; i < n; ++i) sp += p[i], sq += qq[i];
  std::vector<std::pair<Rational, Rational>> masses;
  for (std::size_t i = 0; i < n; ++i) masses.push_back({q(p[i], sp), q(qq[i], sq)});
  return PrivacyLoss::from_masses(masses);
}

// Laws over random small pairs, rates and numbers of uses: the atom-by-atom bracket and the grid
// bracket both contain the exact value (exact subsampling and composition on rationals), and the
// grid's refinement never widens its bracket (brackets are intersected across resolutions).
RC_GTEST_PROP(FastComposition, EveryRouteContainsTheExactValueAndRefiningNeverWidens, ()) {
  const PrivacyLoss base = random_pair();
  const Rational rate = q(*rc::gen::inRange(1, 10), 10);
  const unsigned long k = *rc::gen::inRange<unsigned long>(1, 7);
  const Rational eps = q(*rc::gen::inRange(0, 12), 4);
  const PrivacyProfile exact(poisson_subsample(base, rate).self_compose_by_squaring(k));
  const Interval truth = exact.delta(exp(Interval(eps)));
  const FastBracket enumerated = fast_delta_at_epsilon(base, k, eps, rate);
  RC_ASSERT(brackets(enumerated.value, truth));
  Interval previous = Interval::hull(Rational(0), Rational(1));
  for (unsigned res : {8u, 16u, 32u}) {
    FastCompositionOptions o;
    o.resolution = 8;
    o.max_resolution = res;
    o.relative_width = Rational(1, 1000000000);  // never reached: every resolution up to res is used
    o.max_enumerated_atoms = 0;
    const FastBracket grid = fast_delta_at_epsilon(base, k, eps, rate, o);
    RC_ASSERT(brackets(grid.value, truth));
    if (!grid.lattice) RC_ASSERT(grid.value.subset_of(previous));
    previous = grid.value;
  }
}

// The least ε on the grid, from the one-use laws (max_block_atoms = 0) and from blocks of uses
// composed atom by atom and merged onto the grid (the default): both contain the exact least ε of
// the exactly subsampled pair composed exactly (PrivacyProfile on rationals, which shares no code
// with the grid), and refining the grid never widens the bracket (brackets are intersected).
RC_GTEST_PROP(FastComposition, GridLeastEpsilonContainsTheExactValueWithOrWithoutBlocks, ()) {
  const PrivacyLoss base = random_pair();
  const Rational rate = q(*rc::gen::inRange(1, 10), 10);
  const unsigned long k = *rc::gen::inRange<unsigned long>(2, 7);
  const Rational delta = q(*rc::gen::inRange(1, 200), 1000);
  const PrivacyProfile exact(poisson_subsample(base, rate).self_compose_by_squaring(k));
  const bool infinite = exact.least_lambda(delta).is_infinite();
  const Interval truth = infinite ? Interval::infinity(default_precision) : exact.least_epsilon(delta);
  for (std::size_t block_atoms : {std::size_t(0), std::size_t(1) << 16}) {
    Interval previous = Interval::at_least(Rational(0), default_precision);
    for (unsigned res : {8u, 16u, 32u}) {
      FastCompositionOptions o;
      o.resolution = 8;
      o.max_resolution = res;
      o.relative_width = Rational(1, 1000000000);  // never reached: every resolution up to res is used
      o.max_enumerated_atoms = 0;                  // the grid
      o.max_block_atoms = block_atoms;
      const FastBracket grid = fast_epsilon_at_delta(base, k, delta, rate, o);
      if (infinite) {
        RC_ASSERT(!grid.value.upper_is_finite());  // no finite ε: the bracket reaches +∞
        continue;
      }
      RC_ASSERT(brackets(grid.value, truth));
      if (!grid.lattice && previous.upper_is_finite() && grid.value.upper_is_finite())
        RC_ASSERT(grid.value.subset_of(previous));
      previous = grid.value;
    }
  }
}

// Blocks composed atom by atom and merged onto the grid narrow the bracket of a pair whose one-use
// atoms are isolated on the grid: ten uses of a subsampled pair on 3 outcomes, δ(1/2) at one
// resolution, against the one-use laws (whose lower law can only round each isolated loss down).
TEST(FastComposition, BlocksNarrowTheBracketOfIsolatedAtoms) {
  const PrivacyLoss base = PrivacyLoss::from_masses({{q(1, 2), q(1, 5)}, {q(3, 10), q(3, 10)}, {q(1, 5), q(1, 2)}});
  const Rational rate = q(1, 3), eps = q(1, 2);
  const unsigned long k = 10;
  const Interval truth = PrivacyProfile(poisson_subsample(base, rate).self_compose_by_squaring(k)).delta(exp(Interval(eps)));
  FastCompositionOptions o;
  o.resolution = o.max_resolution = 256;
  o.max_enumerated_atoms = 0;
  o.max_block_atoms = 0;
  const FastBracket one_use = fast_delta_at_epsilon(base, k, eps, rate, o);
  o.max_block_atoms = std::size_t(1) << 12;
  const FastBracket blocks = fast_delta_at_epsilon(base, k, eps, rate, o);
  EXPECT_TRUE(brackets(one_use.value, truth)) << one_use.value.to_string();
  EXPECT_TRUE(brackets(blocks.value, truth)) << blocks.value.to_string();
  EXPECT_LT(blocks.value.width_upper() * 4, one_use.value.width_upper())
      << blocks.value.to_string(20) << " vs " << one_use.value.to_string(20);
}

// Which pairs a finer resolution narrows: a lattice (rr) and an enumerable composition are not
// gridded; a subsampled pair with too many uses to enumerate is.
TEST(FastComposition, OnGridOnlyOffALatticeBeyondEnumeration) {
  const PrivacyLoss rr = rr_table(q(3), q(0));
  EXPECT_FALSE(fast_composition_on_grid(rr, 1000));
  EXPECT_FALSE(fast_composition_on_grid(rr, 10, q(1, 10)));  // 2 atoms, 10 uses: 11 count vectors
  FastCompositionOptions o;
  o.max_enumerated_atoms = 5;
  EXPECT_TRUE(fast_composition_on_grid(rr, 10, q(1, 10), o));
}

TEST(FastComposition, RejectsBadArguments) {
  const PrivacyLoss rr = rr_table(q(3), q(0));
  EXPECT_THROW(fast_delta_at_epsilon(rr, 0, q(1)), Error);
  EXPECT_THROW(fast_delta_at_epsilon(rr, 3, q(-1)), Error);
  EXPECT_THROW(fast_epsilon_at_delta(rr, 3, q(0)), Error);
  EXPECT_THROW(fast_epsilon_at_delta(rr, 3, q(2)), Error);
}

// A catastrophic atom (ratio +∞, mass δ₀ per use) makes ε infinite below 1 − (1 − δ₀)^k: the fast
// route says so (the exact route computes the same threshold).
TEST(FastComposition, CatastrophicMassGivesInfiniteEpsilon) {
  const PrivacyLoss rr = rr_table(q(3), q(1, 100));
  const FastBracket e = fast_epsilon_at_delta(rr, 10, q(1, 1000));
  EXPECT_FALSE(e.value.lower_is_finite() && e.value.upper_is_finite());
  const PrivacyProfile exact(rr.self_compose(10));
  EXPECT_TRUE(exact.least_lambda(q(1, 1000)).is_infinite());
}

}  // namespace
}  // namespace exactdp
