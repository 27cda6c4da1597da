// Merging atoms onto a grid (compose/grid_merge.hpp): the merged law is a lower law — every
// hockey-stick divergence of it is at most the true one, computed here atom by atom in interval
// arithmetic from the exact losses (no grid) — whichever way the sweep runs; and atoms already on
// the grid are kept where they are.
#include "exactdp/compose/grid_merge.hpp"

#include "exactdp/numeric/directed_rounding.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <vector>

namespace exactdp {
namespace {

using testing::q;

/// An atom with exact P-mass p (a double) and exact loss ℓ (a rational); its Q-mass is p·e^{−ℓ}.
struct ExactAtom {
  double p;
  Rational loss;
};

/// The atom as merge_onto_grid takes it on the grid H·ℤ.
GridMergeAtom to_merge(const ExactAtom& a, const Rational& H) {
  const Rational x = a.loss / H;
  mpz_class lo, hi;
  mpz_fdiv_q(lo.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  mpz_cdiv_q(hi.get_mpz_t(), x.get_num_mpz_t(), x.get_den_mpz_t());
  const Interval qhat = Interval(Rational(a.p)) * exp(Interval(H * Rational(hi)) - Interval(a.loss));
  return {lo.get_si(), hi.get_si(), a.p, directed::upper_double(qhat), lo == hi};
}

/// H_{e^ε} of the atoms, enclosed: Σ p (1 − e^{ε − ℓ})⁺.
Interval true_hockey_stick(const std::vector<ExactAtom>& atoms, const Rational& epsilon) {
  Interval h = Interval::zero(default_precision);
  for (const ExactAtom& a : atoms)
    if (a.loss > epsilon) h += Interval(Rational(a.p)) * (Interval(1L, default_precision) - exp(Interval(epsilon - a.loss)));
  return h;
}

RC_GTEST_PROP(GridMerge, MergedLawIsBelowEveryHockeyStick, ()) {
  const Rational H = q(1, 1L << *rc::gen::inRange(1, 6));
  const auto n = *rc::gen::inRange<std::size_t>(1, 12);
  std::vector<ExactAtom> atoms;
  for (std::size_t i = 0; i < n; ++i)
    atoms.push_back({*rc::gen::inRange(1, 1 << 10) / double(1 << 12), q(*rc::gen::inRange(-400, 400), 173)});
  std::sort(atoms.begin(), atoms.end(), [](const ExactAtom& a, const ExactAtom& b) { return a.loss < b.loss; });
  std::vector<GridMergeAtom> merge;
  for (const ExactAtom& a : atoms) merge.push_back(to_merge(a, H));
  const GridLossLaw laws[] = {merge_onto_grid(merge, H, 0.0, false), merge_onto_grid(merge, H, 0.0, true),
                              merged_lower_law(merge, H, 0.0)};
  for (const GridLossLaw& law : laws) {
    RC_ASSERT(law.side == BoundSide::lower);
    for (const Rational& eps : {q(0), q(1, 7), q(1, 2), q(1), q(2)})
      RC_ASSERT(grid_hockey_stick(law, Interval(H), eps) <= true_hockey_stick(atoms, eps).upper());
  }
}

TEST(GridMerge, AtomsOnTheGridStayWhereTheyAre) {
  const Rational H = q(1, 4);
  const std::vector<GridMergeAtom> atoms = {{-2, -2, 0.25, 0.25, true}, {1, 1, 0.5, 0.5, true}, {3, 3, 0.25, 0.25, true}};
  for (bool downward : {false, true}) {
    const GridLossLaw law = merge_onto_grid(atoms, H, 0.0, downward);
    for (const GridMergeAtom& a : atoms) {  // the mass, rounded down at most by the last bit
      const double m = law.masses[static_cast<std::size_t>(a.high - law.offset)];
      EXPECT_LE(m, a.p);
      EXPECT_GE(m, a.p * (1 - 0x1p-50));
    }
  }
}

}  // namespace
}  // namespace exactdp
