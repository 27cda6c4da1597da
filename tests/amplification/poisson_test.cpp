// Poisson subsampling (exact, for finite pairs) and the certified grid brackets of
// amplification/poisson.hpp, checked against independent closed forms.
#include "exactdp/amplification/poisson.hpp"

#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/gaussian_mixture.hpp"
#include "exactdp/bounds/laplace.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <optional>
#include <vector>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using testing::q;
using testing::rr_table;

/// True when the two enclosures share a point (a bracket and an enclosure of the same number).
bool overlap(const Interval& a, const Interval& b) {
  return !(a.upper_is_finite() && b.lower_is_finite() && a.upper() < b.lower()) &&
         !(b.upper_is_finite() && a.lower_is_finite() && b.upper() < a.lower());
}

// Balle, Barthe & Gaboardi (2018), Thm 8/9: Poisson subsampling at rate q of an ε0-DP mechanism
// is ln(1 + q(e^{ε0} − 1))-DP under add/remove, and RR attains it. So the least λ at δ = 0 of the
// subsampled RR pair is exactly 1 + q(λ − 1).
RC_GTEST_PROP(PoissonSubsample, PureRandomizedResponseMatchesTheAmplificationFormula, ()) {
  const Rational lambda = q(*rc::gen::inRange(1, 20), 1) + q(*rc::gen::inRange(0, 7), 7);
  const Rational rate = q(*rc::gen::inRange(1, 17), 16);
  PrivacyProfile profile(poisson_subsample(rr_table(lambda, 0), rate));
  RC_ASSERT(profile.least_lambda(0).value() == 1 + rate * (lambda - 1));
}

TEST(PoissonSubsample, RateOneIsTheBasePairAndRateZeroLeaksNothing) {
  const PrivacyLoss base = rr_table(q(3), q(1, 10));
  EXPECT_EQ(poisson_subsample(base, 1), base);
  const PrivacyLoss none = poisson_subsample(base, 0);
  ASSERT_EQ(none.size(), 1u);  // both worlds equal Q: one atom of ratio 1
  EXPECT_EQ(none.atoms()[0].ratio.value(), 1);
  EXPECT_THROW(poisson_subsample(base, q(3, 2)), Error);
}

// RR_{λ,δ} subsampled: the catastrophic atom keeps ratio +∞ with P-mass q·δ, so δ(ε) for large ε
// is exactly q·δ (hand derivation: only the +∞ atom survives the hockey-stick at λ beyond every
// finite ratio, here 1 + q(λ − 1) = 2 for λ = 3, q = 1/2).
TEST(PoissonSubsample, CatastrophicMassIsScaledByTheRate) {
  PrivacyProfile profile(poisson_subsample(rr_table(q(3), q(1, 10)), q(1, 2)));
  EXPECT_EQ(profile.symmetric()(q(1000)), q(1, 20));
  // by hand: the subsampled atoms are (P, Q) = (1/20, 0), (9/20, 9/40) of ratio 2, (9/20, 27/40) and
  // (1/20, 1/10); at δ = 1/20 the remove direction needs 9/20 − λ·9/40 <= 0, i.e. λ >= 2, and the
  // add direction is already 0 at λ = 2
  EXPECT_EQ(profile.least_lambda(q(1, 20)).value(), 2);
}

// Without subsampling (q = 1) the Gaussian's k-fold profile is the GDP curve with μ = √k·Δ/σ
// (Dong, Roth & Su 2022, Cor. 2.13): the bracket must contain it.
TEST(GridBracket, GaussianContainsTheGdpCurve) {
  GridOptions o;
  o.resolution = 16;
  for (unsigned long k : {1ul, 4ul}) {
    const ContinuousPair pair = ContinuousPair::gaussian(q(2), q(1), 1);
    for (const Rational& eps : {q(0), q(1, 2), q(2)}) {
      GridBracket b = grid_delta_at_epsilon(pair, k, eps, o);
      Interval mu = sqrt(Interval(Rational(static_cast<long>(k)))) / Interval(q(2));
      Interval truth = gaussian_dp_delta(mu, Interval(eps));
      EXPECT_TRUE(overlap(b.value, truth)) << "k=" << k << " eps=" << eps << ": " << b.value.to_string(8) << " vs "
                                           << truth.to_string(12);
      EXPECT_LT(b.value.upper() - b.value.lower(), Rational(1, 1000));  // a useful bracket
    }
    GridBracket e = grid_epsilon_at_delta(pair, k, q(1, 100000), o);
    Interval mu = sqrt(Interval(Rational(static_cast<long>(k)))) / Interval(q(2));
    EXPECT_TRUE(overlap(e.value, gaussian_dp_least_epsilon(mu, q(1, 100000)))) << e.value.to_string(8);
  }
}

// One use of the Laplace mechanism: δ(ε) = 1 − e^{(ε−ε0)/2} (laplace_dp_delta, closed form).
TEST(GridBracket, LaplaceOneUseContainsTheClosedForm) {
  GridOptions o;
  o.resolution = 64;
  const ContinuousPair pair = ContinuousPair::laplace(q(1), q(1));
  for (const Rational& eps : {q(0), q(1, 4), q(3, 4)}) {
    GridBracket b = grid_delta_at_epsilon(pair, 1, eps, o);
    Interval truth = laplace_dp_delta(q(1), q(1), Interval(eps));
    EXPECT_TRUE(overlap(b.value, truth)) << b.value.to_string(8) << " vs " << truth.to_string(12);
  }
  // k uses are k·ε0-DP (basic composition, tight for pure DP): neither law puts finite mass above
  // 3ε0 (the splits and merges stay inside [−ε0, ε0] per use), so the lower end at ε = 3 is exactly
  // 0 and the upper end is at most the tail mass moved to +∞ (below 10^−30).
  GridBracket b3 = grid_delta_at_epsilon(pair, 3, q(3), o);
  EXPECT_EQ(b3.value.lower(), 0);
  EXPECT_LT(b3.value.upper(), Rational(1, 1) / Rational(mpz_class("1000000000000000000000000000000")));
}

// One step of the subsampled Gaussian (σ = 1, Δ = 1, q = 1/10): the remove pair
// (qN(1,1) + (1−q)N(0,1), N(0,1)) has ratio q·e^{x−1/2} + 1 − q, which exceeds λ iff
// x > x* = ln((λ − 1 + q)/q) + 1/2, so H_λ = qΦ(1 − x*) + (1−q)Φ(−x*) − λΦ(−x*); the add pair's
// ratio 1/(q e^{x−1/2} + 1 − q) exceeds λ iff x < x′ = ln((1/λ − 1 + q)/q) + 1/2 (when 1/λ > 1 − q),
// so H_λ(Q‖A) = Φ(x′) − λ(qΦ(x′ − 1) + (1−q)Φ(x′)). Hand derivation, evaluated with MPFI here.
TEST(GridBracket, SubsampledGaussianOneStepContainsTheClosedForm) {
  const Rational rate = q(1, 10);
  GridOptions o;
  o.resolution = 16;
  const ContinuousPair pair = ContinuousPair::gaussian(q(1), q(1), rate);
  const Interval qi(rate), ri(1 - rate), one(Rational(1));
  for (const Rational& eps : {q(1, 10), q(1, 2)}) {
    Interval lam = exp(Interval(eps));
    Interval xs = log((lam - one + qi) / qi) + Interval(q(1, 2));
    Interval remove = qi * normal_cdf(one - xs) + ri * normal_cdf(-xs) - lam * normal_cdf(-xs);
    Interval inv = one / lam - ri;
    Interval truth = remove;
    if (sgn(inv.lower()) > 0) {
      Interval xa = log(inv / qi) + Interval(q(1, 2));
      Interval add = normal_cdf(xa) - lam * (qi * normal_cdf(xa - one) + ri * normal_cdf(xa));
      truth = max(remove, add);
    }
    GridBracket b = grid_delta_at_epsilon(pair, 1, eps, o);
    EXPECT_TRUE(overlap(b.value, truth)) << b.value.to_string(10) << " vs " << truth.to_string(12);
    EXPECT_LT(b.value.upper() - b.value.lower(), Rational(1, 100));
  }
}

/// δ(ε) of one use of the Poisson-subsampled Gaussian (σ, Δ, q), add/remove, as a closed form
/// (independent of the grid): with μ = Δ/σ the pair is N(μ,1) vs N(0,1), the loss is monotone in
/// x, and each direction's hockey stick is a difference of normal CDFs at the threshold x*.
Interval subsampled_gaussian_delta(const Rational& sigma, const Rational& sens, const Rational& rate,
                                   const Rational& eps) {
  const Interval mu(sens / sigma), qi(rate), ri(1 - rate), one(Rational(1)), half_mu2 = Interval(sens / sigma) * Interval(sens / sigma) / Interval(Rational(2));
  const Interval lam = exp(Interval(eps));
  const Interval xs = (log((lam - one + qi) / qi) + half_mu2) / mu;
  Interval truth = qi * normal_cdf(mu - xs) + ri * normal_cdf(-xs) - lam * normal_cdf(-xs);
  const Interval inv = one / lam - ri;
  if (sgn(inv.lower()) > 0) {
    const Interval xa = (log(inv / qi) + half_mu2) / mu;
    truth = max(truth, normal_cdf(xa) - lam * (qi * normal_cdf(xa - mu) + ri * normal_cdf(xa)));
  }
  return truth;
}

// Issue 20 item 5: refining never widens the bracket. The intersection of the brackets at N and 2N
// (what the audit and grid_epsilon_at_delta_within return) is never wider than either and still
// contains the closed form of one subsampled Gaussian use (expected value: the closed form above).
RC_GTEST_PROP(GridBracket, RefiningNeverWidensAndStillContainsTheClosedForm, ()) {
  const Rational sigma = q(*rc::gen::inRange(2, 9), 4);        // 1/2 .. 2
  const Rational sens = q(*rc::gen::inRange(1, 4));            // 1 .. 3
  const Rational rate = q(*rc::gen::inRange(1, 10), 10);       // 1/10 .. 9/10
  const Rational eps = q(*rc::gen::inRange(1, 11), 10);        // 1/10 .. 1
  const unsigned n = 1u << *rc::gen::inRange(2, 4);            // 4 .. 8
  const ContinuousPair pair = ContinuousPair::gaussian(sigma, sens, rate);
  GridOptions o;
  o.resolution = n;
  const GridBracket coarse = grid_delta_at_epsilon(pair, 1, eps, o);
  o.resolution = 2 * n;
  const GridBracket fine = grid_delta_at_epsilon(pair, 1, eps, o);
  const GridBracket both = intersect(coarse, fine);
  const Rational w = both.value.upper() - both.value.lower();
  RC_ASSERT(w <= coarse.value.upper() - coarse.value.lower());
  RC_ASSERT(w <= fine.value.upper() - fine.value.lower());
  const Interval truth = subsampled_gaussian_delta(sigma, sens, rate, eps);
  RC_ASSERT(overlap(both.value, truth));
}

// The cases of issue 20: single brackets got wider at higher resolutions (σ = 1/2, q = 1/5, 3
// uses, ε = 1; and σ = 1, Δ = 3, q = 0.7). The refinement loop's bracket must be non-increasing in
// width and must always overlap a much finer reference bracket (same question, resolution 512).
TEST(GridBracket, RefinementLoopIsMonotoneOnTheIssueCases) {
  struct Case {
    ContinuousPair pair;
    unsigned long k;
  };
  const std::vector<Case> cases = {{ContinuousPair::gaussian(q(1, 2), q(1), q(1, 5)), 3},
                                   {ContinuousPair::gaussian(q(1), q(3), q(7, 10)), 1}};
  for (const Case& c : cases) {
    GridOptions o;
    o.resolution = 512;
    const GridBracket reference = grid_delta_at_epsilon(c.pair, c.k, q(1), o);
    std::optional<GridBracket> best;
    Rational last_width(2);
    for (unsigned res = 16; res <= 256; res *= 2) {
      o.resolution = res;
      GridBracket b = grid_delta_at_epsilon(c.pair, c.k, q(1), o);
      if (best) b = intersect(*best, b);
      best = b;
      const Rational w = b.value.upper() - b.value.lower();
      EXPECT_LE(w, last_width) << c.pair.describe() << " at resolution " << res;
      EXPECT_TRUE(overlap(b.value, reference.value)) << b.value.to_string(10) << " vs " << reference.value.to_string(10);
      last_width = w;
    }
  }
  // k = 1: also against the closed form.
  const Interval truth = subsampled_gaussian_delta(q(1), q(3), q(7, 10), q(1));
  GridOptions o;
  o.resolution = 64;
  EXPECT_TRUE(overlap(grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(3), q(7, 10)), 1, q(1), o).value, truth));
}

// Composition can only increase δ(ε) and subsampling at a smaller rate can only decrease it:
// the brackets must not contradict these orders (an upper end below another bracket's lower end).
TEST(GridBracket, OrdersBetweenBracketsAreRespected) {
  GridOptions o;
  o.resolution = 8;
  const Rational eps = q(1, 2);
  GridBracket k1 = grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(1), q(1, 5)), 1, eps, o);
  GridBracket k8 = grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(1), q(1, 5)), 8, eps, o);
  GridBracket small = grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(1), q(1, 50)), 8, eps, o);
  EXPECT_FALSE(k8.value.upper() < k1.value.lower());
  EXPECT_FALSE(k8.value.upper() < small.value.lower());
  EXPECT_LT(small.value.lower(), k8.value.upper());
}

// Many uses of the unsubsampled Gaussian: k = 1000 uses at σ = 20 are μ-GDP with μ = √1000/20
// (Dong, Roth & Su 2022, Cor. 2.13) — a closed form independent of the grid, which must lie in the
// bracket; the bracket is also narrow (the split/merge errors are second order in the step, so
// the width does not grow like k·h).
TEST(GridBracket, ThousandGaussianUsesMatchTheGdpCurveTightly) {
  const ContinuousPair pair = ContinuousPair::gaussian(q(20), q(1), 1);
  const Interval mu = sqrt(Interval(Rational(1000))) / Interval(q(20));
  GridOptions o;
  o.resolution = 16;
  GridBracket e = grid_epsilon_at_delta(pair, 1000, q(1, 100000), o);
  const Interval truth = gaussian_dp_least_epsilon(mu, q(1, 100000));
  EXPECT_TRUE(overlap(e.value, truth)) << e.value.to_string(10) << " vs " << truth.to_string(12);
  EXPECT_LE(e.value.upper() - e.value.lower(), e.value.upper() / 200) << e.value.to_string(10);
  GridBracket d = grid_delta_at_epsilon(pair, 1000, q(1), o);
  const Interval truth_d = gaussian_dp_delta(mu, Interval(q(1)));
  EXPECT_TRUE(overlap(d.value, truth_d)) << d.value.to_string(10) << " vs " << truth_d.to_string(12);
}

// Raising the resolution narrows the bracket (about 4-fold per doubling: the split and merge err
// to second order in the step) and never contradicts the coarser one: both are valid, so they
// overlap. DP-SGD-like: σ = 1, q = 1/100, 300 steps, δ = 10^−5.
TEST(GridBracket, HigherResolutionNarrowsAndOverlaps) {
  const ContinuousPair pair = ContinuousPair::gaussian(q(1), q(1), q(1, 100));
  GridOptions o;
  o.resolution = 4;
  GridBracket coarse = grid_epsilon_at_delta(pair, 300, q(1, 100000), o);
  o.resolution = 8;
  GridBracket fine = grid_epsilon_at_delta(pair, 300, q(1, 100000), o);
  EXPECT_TRUE(overlap(coarse.value, fine.value)) << coarse.value.to_string(8) << " vs " << fine.value.to_string(8);
  const Rational wc = coarse.value.upper() - coarse.value.lower(), wf = fine.value.upper() - fine.value.lower();
  EXPECT_LT(wf * 3, wc) << coarse.value.to_string(8) << " vs " << fine.value.to_string(8);
  // the refinement loop stops at the first resolution whose bracket is within 1 % of ε
  GridBracket within = grid_epsilon_at_delta_within(pair, 300, q(1, 100000), q(1, 100), 8, GridOptions{4});
  EXPECT_LE(within.value.upper() - within.value.lower(), within.value.upper() / 100) << within.value.to_string(8);
  EXPECT_EQ(within.resolution, wc <= coarse.value.upper() / 100 ? 4u : 8u);
}

// Keeping more grid points per deviation while composing (composition_factor) gives another valid
// bracket — so it overlaps the default one — and a narrower one, since re-gridding is where long
// compositions lose most (bench/README.md).
TEST(GridBracket, FinerCompositionGridNarrowsAndOverlaps) {
  const ContinuousPair pair = ContinuousPair::gaussian(q(1), q(1), q(1, 100));
  GridOptions o;
  o.resolution = 4;
  const GridBracket plain = grid_epsilon_at_delta(pair, 300, q(1, 100000), o);
  o.composition_factor = 4;
  const GridBracket finer = grid_epsilon_at_delta(pair, 300, q(1, 100000), o);
  EXPECT_TRUE(overlap(plain.value, finer.value)) << plain.value.to_string(8) << " vs " << finer.value.to_string(8);
  EXPECT_LT(finer.value.width_upper(), plain.value.width_upper()) << plain.value.to_string(8) << " vs " << finer.value.to_string(8);
  o.composition_factor = 0;
  EXPECT_THROW(grid_epsilon_at_delta(pair, 3, q(1, 100000), o), Error);
}

TEST(GridBracket, RefusesBadInput) {
  EXPECT_THROW(ContinuousPair::gaussian(q(0), q(1)), Error);
  EXPECT_THROW(ContinuousPair::gaussian(q(1), q(1), q(0)), Error);
  EXPECT_THROW(ContinuousPair::laplace(q(1), q(-1)), Error);
  EXPECT_THROW(grid_epsilon_at_delta(ContinuousPair::gaussian(q(1), q(1)), 1, q(0)), Error);
  EXPECT_THROW(grid_epsilon_at_delta(ContinuousPair::gaussian(q(1), q(1)), 0, q(1, 10)), Error);
  GridOptions o;
  o.resolution = 0;
  EXPECT_THROW(grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(1), q(1, 2)), 4, q(1), o), Error);
  o.resolution = 8;
  o.max_points = 8;
  EXPECT_THROW(grid_delta_at_epsilon(ContinuousPair::gaussian(q(1), q(1), q(1, 2)), 4, q(1), o), Error);
  EXPECT_THROW(grid_epsilon_at_delta_within(ContinuousPair::gaussian(q(1), q(1)), 1, q(1, 10), q(0), 8), Error);
}

// A small max_points coarsens the grids instead of refusing: the bracket is looser, still valid
// (it overlaps the one computed with ample room).
TEST(GridBracket, SmallMaxPointsCoarsensInsteadOfRefusing) {
  const ContinuousPair pair = ContinuousPair::gaussian(q(1), q(1), q(1, 10));
  GridOptions roomy, tight;
  tight.max_points = 64;
  GridBracket a = grid_epsilon_at_delta(pair, 20, q(1, 100000), roomy);
  GridBracket b = grid_epsilon_at_delta(pair, 20, q(1, 100000), tight);
  EXPECT_LE(b.points, 64u);
  EXPECT_TRUE(overlap(a.value, b.value)) << a.value.to_string(8) << " vs " << b.value.to_string(8);
  EXPECT_GE(b.value.upper() - b.value.lower(), a.value.upper() - a.value.lower());
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

// One use of the Laplace mechanism (Δ = 1) Poisson-subsampled at rate q, against the hockey-stick
// integral max(H_λ(A‖B), H_λ(B‖A)) with A = q·Lap(1, b) + (1 − q)·Lap(0, b), B = Lap(0, b),
// evaluated by mpmath.quad at 40 digits with breakpoints at 0, 1 and the crossing of A and λB (an
// independent route: no privacy-loss law, no grid). dp-accounting's PLD (interval 1e-6) gives
// 0.0131218308858 and 0.0403311305260.
TEST(GridBracket, SubsampledLaplaceContainsTheIntegral) {
  struct Case {
    Rational b, q, eps;
    const char* truth;
  };
  const Case cases[] = {{q(1), q(1, 10), q(1, 10), "0.01312183088583126543727121655627722302525"},
                        {q(1), q(1, 2), q(1, 2), "0.04033113052605342719174498732637206274538"}};
  GridOptions o;
  o.resolution = 64;
  for (const Case& c : cases) {
    const GridBracket g = grid_delta_at_epsilon(ContinuousPair::laplace(c.b, q(1), c.q), 1, c.eps, o);
    const Rational truth = parse_rational(c.truth, "truth");
    EXPECT_LE(g.value.lower(), truth) << g.value.to_string(12);
    EXPECT_GE(g.value.upper(), truth) << g.value.to_string(12);
    // a point mass inside a bin costs more than the smooth parts (its split is first order in the
    // bin's width), so the bracket is a few percent wide at this resolution
    EXPECT_LT(g.value.upper() - g.value.lower(), truth / 20) << g.value.to_string(12);
  }
  // the subsampled loss is at most g(Δ/b) = ln(q e^{Δ/b} + 1 − q) (Balle et al. 2018, Thm 8), here
  // ln(e²/5 + 4/5) ≈ 0.8232 for b = 1/2, q = 1/5: three uses are 2.4696-DP, so δ(3) = 0 and the
  // lower end is exactly 0 (the lower law never moves a loss up)
  const GridBracket top = grid_delta_at_epsilon(ContinuousPair::laplace(q(1, 2), q(1), q(1, 5)), 3, q(3), o);
  EXPECT_EQ(top.value.lower(), 0);
  EXPECT_LT(top.value.upper(), Rational(1, 1000000));
  EXPECT_THROW(ContinuousPair::laplace(q(1), q(1), q(0)), Error);
  EXPECT_THROW(ContinuousPair::laplace(q(1), q(1), q(3, 2)), Error);
}

// A Gaussian mixture on the grid (ContinuousPair::gaussian_mixture: the loss's root located in
// binary64 and certified by MPFI at every bin boundary). One use against the mixture's closed form
// (bounds/gaussian_mixture: a certified root and the half-line formula, a second algorithm), each
// direction and ε < 0 included.
TEST(GridBracket, MixtureOneUseContainsTheClosedForm) {
  const GaussianMixture m(Rational(1), {{Rational(0), q(1, 5)}, {Rational(1), q(3, 5)}, {Rational(2), q(1, 5)}});
  GridOptions o;
  o.resolution = 16;
  for (const auto d : {NeighbourDirection::remove, NeighbourDirection::add, NeighbourDirection::both}) {
    o.direction = d;
    for (const Rational& eps : {q(-1, 2), q(1, 2), Rational(2)}) {
      const GridBracket b = grid_delta_at_epsilon(ContinuousPair::gaussian_mixture(m), 1, eps, o);
      const Interval truth = m.delta_at_epsilon(eps, d, 128);
      EXPECT_TRUE(overlap(b.value, truth)) << to_string(eps) << ": " << b.value.to_string(12) << " vs " << truth.to_string(12);
      EXPECT_LT(b.value.upper() - b.value.lower(), Rational(1, 200));  // about 10⁻³ at this resolution
    }
  }
}

// The cause of the stall (issue 20): the mixture's loss root was certified only as closely as
// binary64 locates it, and the split divides the CDFs' enclosure width by a bin's loss width, so the
// upper end rose above the truth about fourfold per doubling of the resolution (one use at ε = 4:
// 9·10⁻¹¹ above the closed form at resolution 256, 3.7·10⁻¹⁰ at 512, 1.5·10⁻⁹ at 1024). With the
// root refined, the upper end stays within 10⁻¹² of the closed form (bounds/gaussian_mixture: a
// bisected root and the half-line formula, a second algorithm) and the width falls about fourfold
// per doubling (second order in the step).
TEST(GridBracket, MixtureUpperEndStaysAtTheClosedFormAsTheGridRefines) {
  const GaussianMixture m(Rational(1), {{Rational(0), q(1, 5)}, {Rational(1), q(3, 5)}, {Rational(2), q(1, 5)}});
  const Interval truth = m.delta_at_epsilon(Rational(4), NeighbourDirection::remove, 128);
  GridOptions o;
  o.direction = NeighbourDirection::remove;
  std::vector<Rational> widths;
  for (unsigned res : {256u, 512u}) {
    o.resolution = res;
    const GridBracket b = grid_delta_at_epsilon(ContinuousPair::gaussian_mixture(m), 1, Rational(4), o);
    EXPECT_TRUE(overlap(b.value, truth)) << b.value.to_string(15) << " vs " << truth.to_string(15);
    EXPECT_LT(b.value.upper() - truth.upper(), Rational(1, 1000000000000)) << "at resolution " << res << ": " << b.value.to_string(15);
    widths.push_back(b.value.upper() - b.value.lower());
  }
  EXPECT_LT(3 * widths[1], widths[0]);
}

// Both directions: when a sixteenth of the resolution already shows the add direction below the
// remove direction (here the add loss is at most ln 5 per use, so δ_add(2) = 0 for one use), only
// the remove direction is refined, and the bracket is the remove direction's own, containing the
// closed form of the maximum.
TEST(GridBracket, BothDirectionsRefineOnlyTheLargerWhenSeparated) {
  const GaussianMixture m(Rational(1), {{Rational(0), q(1, 5)}, {Rational(1), q(3, 5)}, {Rational(2), q(1, 5)}});
  GridOptions o;
  o.resolution = 128;
  const GridBracket both = grid_delta_at_epsilon(ContinuousPair::gaussian_mixture(m), 1, Rational(2), o);
  o.direction = NeighbourDirection::remove;
  const GridBracket remove = grid_delta_at_epsilon(ContinuousPair::gaussian_mixture(m), 1, Rational(2), o);
  EXPECT_EQ(both.value.upper(), remove.value.upper());
  EXPECT_GE(both.value.lower(), remove.value.lower());
  const Interval truth = m.delta_at_epsilon(Rational(2), NeighbourDirection::both, 128);
  EXPECT_TRUE(overlap(both.value, truth)) << both.value.to_string(15) << " vs " << truth.to_string(15);
  // ε(δ) the same way: the least ε of the maximum is the remove direction's
  o.direction = NeighbourDirection::both;
  const GridBracket e_both = grid_epsilon_at_delta(ContinuousPair::gaussian_mixture(m), 1, q(1, 100000), o);
  o.direction = NeighbourDirection::remove;
  const GridBracket e_remove = grid_epsilon_at_delta(ContinuousPair::gaussian_mixture(m), 1, q(1, 100000), o);
  EXPECT_EQ(e_both.value.upper(), e_remove.value.upper());
  EXPECT_GE(e_both.value.lower(), e_remove.value.lower());
}

// The mixture {(0, 1 − q), (Δ, q)} is the Poisson-subsampled Gaussian: three uses through the
// mixture's root-finding law and through the subsampled Gaussian's closed-form inverse g⁻¹ (two
// algorithms for the same loss law) give overlapping brackets, the mixture's no wider than 10⁻⁴.
TEST(GridBracket, TwoPointMixtureIsTheSubsampledGaussian) {
  const Rational rate = q(1, 5), sigma = q(3, 4);
  const GaussianMixture m(sigma, {{Rational(0), Rational(1 - rate)}, {Rational(1), rate}});
  GridOptions o;
  o.resolution = 16;
  const GridBracket mixture = grid_delta_at_epsilon(ContinuousPair::gaussian_mixture(m), 3, Rational(1), o);
  const GridBracket sampled = grid_delta_at_epsilon(ContinuousPair::gaussian(sigma, Rational(1), rate), 3, Rational(1), o);
  EXPECT_TRUE(overlap(mixture.value, sampled.value)) << mixture.value.to_string(12) << " vs " << sampled.value.to_string(12);
  EXPECT_LT(mixture.value.upper() - mixture.value.lower(), Rational(1, 10000));
  const GridBracket eps = grid_epsilon_at_delta(ContinuousPair::gaussian_mixture(m), 3, q(1, 100000), o);
  const GridBracket eps_sampled = grid_epsilon_at_delta(ContinuousPair::gaussian(sigma, Rational(1), rate), 3, q(1, 100000), o);
  EXPECT_TRUE(overlap(eps.value, eps_sampled.value)) << eps.value.to_string(12) << " vs " << eps_sampled.value.to_string(12);
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

// Re-gridding a lower law keeps the better of two sweep rules (amplification/grid_bracket.cpp,
// composed_laws): ten uses of the Laplace mechanism at resolution 32 are re-gridded as the law
// spreads, and the heavier-end rule alone left δ(1) 4.4·10⁻³ wide (bench/README.md "Coarsening
// sweeps"); with both rules it is 1.9·10⁻⁴. The bracket still overlaps one of a finer grid (a
// second discretisation of the same value) — GridBracket.TwoPointMixtureIsTheSubsampledGaussian
// guards the other rule (the H₁ rule alone is wider there).
TEST(GridBracket, RegriddedLowerLawsKeepTheBetterSweep) {
  const ContinuousPair laplace = ContinuousPair::laplace(Rational(1), Rational(1), Rational(1));
  GridOptions o;
  o.resolution = 32;
  const GridBracket b = grid_delta_at_epsilon(laplace, 10, Rational(1), o);
  EXPECT_LT(b.value.upper() - b.value.lower(), Rational(1, 1000)) << b.value.to_string(12);
  o.resolution = 64;
  const GridBracket finer = grid_delta_at_epsilon(laplace, 10, Rational(1), o);
  EXPECT_TRUE(overlap(b.value, finer.value)) << b.value.to_string(12) << " vs " << finer.value.to_string(12);
}

}  // namespace
}  // namespace exactdp
