// Rényi divergences of Poisson-subsampled pairs with certified masses (amplification/subsampled_loss):
// the direct sum over the subsampled atoms, checked against two other algorithms — the exact
// rational pair built by poisson_subsample() where r is rational, and MTZ19's binomial expansion
// over the base moments (bounds/subsampled_renyi) where it is not.
#include "exactdp/amplification/subsampled_loss.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/bounds/subsampled_renyi.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/mechanism/certified_noninteractive.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace exactdp {
namespace {

using testing::q;

constexpr Precision kPrec = 192;

bool overlap(const Interval& a, const Interval& b) { return a.lower() <= b.upper() && b.lower() <= a.upper(); }
bool narrow(const Interval& x) { return x.upper() - x.lower() <= Rational(1, 1000000000) * abs(x.upper()); }
bool infinite(const Interval& x) { return !x.lower_is_finite(); }

CertifiedLoss base_of(const std::string& spec) { return *parse_mechanism_spec(spec).certified_loss(kPrec); }

// Second algorithm, rational r: the subsampled pair (qP + (1 − q)Q, Q) built exactly over the
// rationals by poisson_subsample(), and its Rényi divergence by divergence/renyi (both directions).
TEST(SubsampledCertifiedLoss, RenyiMatchesTheExactSubsampledPair) {
  const PrivacyLoss exact = *parse_mechanism_spec("dlaplace:r=1/3,sensitivity=2").exact_loss();
  const Rational rate = q(1, 5);
  const PrivacyLoss sampled = poisson_subsample(exact, rate);
  const SubsampledCertifiedLoss certified(CertifiedLoss::from_exact(exact, kPrec), rate);
  for (const Rational& alpha : {Rational(2), Rational(3), q(5, 2), q(41, 4), Rational(7)}) {
    const Interval remove = certified.renyi_divergence(alpha, NeighbourDirection::remove);
    const Interval add = certified.renyi_divergence(alpha, NeighbourDirection::add);
    EXPECT_TRUE(overlap(remove, renyi_divergence(sampled, alpha, kPrec))) << to_string(alpha);
    EXPECT_TRUE(overlap(add, renyi_divergence(sampled.swapped(), alpha, kPrec))) << to_string(alpha);
    EXPECT_TRUE(narrow(remove) && narrow(add)) << remove.to_string() << " " << add.to_string();
    const Interval both = certified.renyi_divergence(alpha, NeighbourDirection::both);
    EXPECT_TRUE(overlap(both, max(remove, add)));
  }
}

// Second algorithm, irrational masses: at an integer order the remove moment is MTZ19's binomial
// sum Σ C(α, k)(1 − q)^{α−k} q^k M_k over the base moments M_k = E_Q[(P/Q)^k] (taken from the base
// pair's own Rényi divergences, M_k = e^{(k−1)D_k}); the direct sum never expands the power.
TEST(SubsampledCertifiedLoss, RenyiIntegerOrdersMatchTheBinomialExpansion) {
  for (const char* spec : {"dlaplace:a=1/2,sensitivity=2", "dlaplace:a=2/3,sensitivity=3", "rr:epsilon=1",
                           "krr:epsilon=3/2,k=4"}) {
    const CertifiedLoss base = base_of(spec);
    const Rational rate = q(3, 10);
    const SubsampledCertifiedLoss sampled(base, rate);
    auto moment = [&](unsigned long k) {
      return exp(Interval(Rational(static_cast<long>(k - 1)), kPrec) * base.renyi_divergence(Rational(static_cast<long>(k))));
    };
    for (unsigned long alpha : {2UL, 3UL, 6UL}) {
      const Interval expected =
          subsampled_log_moment(alpha, rate, moment, kPrec) / Interval(Rational(static_cast<long>(alpha - 1)), kPrec);
      const Interval direct = sampled.renyi_divergence(Rational(static_cast<long>(alpha)), NeighbourDirection::remove);
      EXPECT_TRUE(overlap(direct, expected)) << spec << " alpha " << alpha << ": " << direct.to_string() << " vs "
                                             << expected.to_string();
      EXPECT_TRUE(narrow(direct)) << direct.to_string();
    }
  }
}

// An outcome of the sampled record's law only (RR_{ε,δ}'s ratio-∞ atom) makes the remove divergence
// +∞ at every rate; the add direction stays finite below rate 1, since (1 − q)·Q covers every outcome.
TEST(SubsampledCertifiedLoss, RenyiIsInfiniteExactlyWhereAnOutcomeIsOneSided) {
  const CertifiedLoss base = randomized_response_loss(Rational(1), q(1, 10), kPrec);
  const SubsampledCertifiedLoss half(base, q(1, 2));
  EXPECT_TRUE(infinite(half.renyi_divergence(Rational(2), NeighbourDirection::remove)));
  EXPECT_TRUE(infinite(half.renyi_divergence(Rational(2), NeighbourDirection::both)));
  const Interval add = half.renyi_divergence(Rational(2), NeighbourDirection::add);
  EXPECT_TRUE(add.upper_is_finite());
  EXPECT_TRUE(infinite(SubsampledCertifiedLoss(base, Rational(1)).renyi_divergence(Rational(2), NeighbourDirection::add)));
  EXPECT_THROW(half.renyi_divergence(Rational(1)), Error);
}

// Laws over random discrete Laplace pairs: rate 1 is the base pair itself (both directions), D_α
// does not decrease in α (van Erven & Harremoës 2014, Thm 3), and subsampling never increases it
// (the subsampled pair is a post-processing of the sampled one).
RC_GTEST_PROP(SubsampledCertifiedLoss, RenyiRateOneMonotoneOrderAndAmplification, ()) {
  const long a_num = *rc::gen::inRange(1L, 12L), sens = *rc::gen::inRange(1L, 4L);
  const long q_num = *rc::gen::inRange(1L, 10L), order = *rc::gen::inRange(3L, 16L);
  const CertifiedLoss base =
      *parse_mechanism_spec("dlaplace:a=" + std::to_string(a_num) + "/4,sensitivity=" + std::to_string(sens)).certified_loss(128);
  const Rational alpha = q(order, 2);
  const SubsampledCertifiedLoss same(base, Rational(1));
  RC_ASSERT(overlap(same.renyi_divergence(alpha, NeighbourDirection::remove), base.renyi_divergence(alpha)));
  RC_ASSERT(overlap(same.renyi_divergence(alpha, NeighbourDirection::add), base.swapped().renyi_divergence(alpha)));
  const SubsampledCertifiedLoss sub(base, q(q_num, 10));
  for (const auto d : {NeighbourDirection::remove, NeighbourDirection::add}) {
    const Interval at = sub.renyi_divergence(alpha, d), above = sub.renyi_divergence(alpha + q(1, 3), d);
    RC_ASSERT(at.lower() <= above.upper());
    RC_ASSERT(at.lower() <= same.renyi_divergence(alpha, d).upper());
  }
}

}  // namespace
}  // namespace exactdp
