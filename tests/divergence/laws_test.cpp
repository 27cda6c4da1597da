// Laws of the divergences on random small pairs (RapidCheck). Each property compares the
// library's route with an independent one: brute force over all events, explicit product
// tables, or the defining inequality.
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "support/exact.hpp"
#include "support/generators.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp {
namespace {

using testing::loss_of;
using testing::masses_of;
using testing::small_rational;
using testing::weight_table;

/// max_S P(S) − λ Q(S) by enumerating all 2^n events: the definition of H_λ.
Rational brute_force_hockey_stick(const std::vector<std::pair<Rational, Rational>>& m, const Rational& l) {
  Rational best = 0;
  for (unsigned s = 0; s < (1u << m.size()); ++s) {
    Rational v;
    for (std::size_t i = 0; i < m.size(); ++i)
      if (s & (1u << i)) v += m[i].first - l * m[i].second;
    if (v > best) best = v;
  }
  return best;
}

RC_GTEST_PROP(Profile, EqualsBruteForceOverEvents, ()) {
  auto t = *weight_table();
  auto l = *small_rational();
  auto m = masses_of(t);
  auto loss = loss_of(t);
  RC_ASSERT(hockey_stick(loss, l) == brute_force_hockey_stick(m, l));
  RC_ASSERT(directional_profile(loss)(l) == brute_force_hockey_stick(m, l));
}

RC_GTEST_PROP(Profile, ConvexNonIncreasingFromOne, ()) {
  auto f = directional_profile(loss_of(*weight_table()));
  RC_ASSERT(f(0) == 1);
  const auto& ps = f.pieces();
  for (std::size_t i = 0; i < ps.size(); ++i) {
    RC_ASSERT(sgn(ps[i].slope) <= 0);
    if (i > 0) RC_ASSERT(ps[i].slope > ps[i - 1].slope);  // strictly increasing slopes: convex
  }
  RC_ASSERT(ps.back().slope == 0);  // eventually the catastrophic mass
}

RC_GTEST_PROP(Profile, ReflectionIdentity, ()) {
  // A.1: for 0 < λ < 1, H_λ(P‖Q) = 1 − λ + λ·H_{1/λ}(Q‖P)
  auto loss = loss_of(*weight_table());
  auto l = *small_rational(1);
  RC_PRE(sgn(l) > 0 && l < 1);
  RC_ASSERT(hockey_stick(loss, l) == 1 - l + l * hockey_stick(loss.swapped(), Rational(1 / l)));
}

RC_GTEST_PROP(Profile, DataProcessingInequality, ()) {
  auto t = *weight_table(4);
  auto k = *testing::stochastic_matrix(static_cast<int>(t.size()));
  auto m = masses_of(t);
  auto before = loss_of(t), after = testing::post_process(m, k);
  auto l = *small_rational();
  RC_ASSERT(hockey_stick(after, l) <= hockey_stick(before, l));
  RC_ASSERT(TradeOff::of(after).dominates(TradeOff::of(before)));
  auto a2 = renyi_moment(after, 2), b2 = renyi_moment(before, 2);
  RC_ASSERT(a2 <= b2);
  RC_ASSERT(max_ratio(after) <= max_ratio(before));
}

RC_GTEST_PROP(Profile, LeastLambdaIsLeast, ()) {
  auto prof = PrivacyProfile(loss_of(*weight_table()));
  auto d = *small_rational(1);
  RC_PRE(d <= 1);
  auto l = prof.least_lambda(d);
  if (l.is_infinite()) {
    // the catastrophic mass exceeds δ in some direction
    RC_ASSERT(std::max(prof.forward().final_value(), prof.backward().final_value()) > d);
  } else {
    RC_ASSERT(l.value() >= 1);
    RC_ASSERT(prof.delta(l.value()) <= d);
    if (l.value() > 1) RC_ASSERT(prof.delta(l.value() - Rational(1, 1000000)) > d);
  }
}

RC_GTEST_PROP(Duality, TradeOffFromProfileEqualsNeymanPearson, ()) {
  auto loss = loss_of(*weight_table());
  auto np = TradeOff::of(loss);
  RC_ASSERT(TradeOff::from_profile(directional_profile(loss.swapped())) == np);
  // and back: δ_{T(P,Q)} = H(Q‖P)
  RC_ASSERT(np.to_profile() == directional_profile(loss.swapped()));
}

RC_GTEST_PROP(Duality, InverseIsSwappedPair, ()) {
  auto loss = loss_of(*weight_table());
  auto f = TradeOff::of(loss);
  RC_ASSERT(f.inverse() == TradeOff::of(loss.swapped()));
  RC_ASSERT(f.inverse().inverse() == f);
  auto s = f.symmetrized();
  RC_ASSERT(f.dominates(s));
  RC_ASSERT(f.inverse().dominates(s));
  RC_ASSERT(s.inverse() == s);
}

RC_GTEST_PROP(Duality, CanonicalPairRealisesTradeOff, ()) {
  auto f = TradeOff::of(loss_of(*weight_table()));
  RC_ASSERT(TradeOff::of(f.canonical_pair()) == f);
}

RC_GTEST_PROP(Composition, PLDEqualsProductTable, ()) {
  auto t1 = *weight_table(3), t2 = *weight_table(3);
  auto m1 = masses_of(t1), m2 = masses_of(t2);
  // independent route: the explicit product distribution, outcome by outcome
  std::vector<std::pair<Rational, Rational>> prod;
  for (const auto& a : m1)
    for (const auto& b : m2) prod.emplace_back(a.first * b.first, a.second * b.second);
  auto composed = compose(loss_of(t1), loss_of(t2));
  RC_ASSERT(composed == PrivacyLoss::from_masses(prod));
  auto l = *small_rational();
  RC_ASSERT(hockey_stick(composed, l) == brute_force_hockey_stick(prod, l));
}

RC_GTEST_PROP(Composition, SelfComposeBySquaringEqualsRepeatedProduct, ()) {
  auto loss = loss_of(*weight_table(3, 3));
  auto k = *rc::gen::inRange(0, 6);
  PrivacyLoss naive = PrivacyLoss::identity();
  for (int i = 0; i < k; ++i) naive = compose(naive, loss);
  RC_ASSERT(loss.self_compose(static_cast<unsigned long>(k)) == naive);
}

RC_GTEST_PROP(Composition, TensorEqualsProductPair, ()) {
  auto a = loss_of(*weight_table(3)), b = loss_of(*weight_table(3));
  RC_ASSERT(tensor(TradeOff::of(a), TradeOff::of(b)) == TradeOff::of(compose(a, b)));
}

RC_GTEST_PROP(Composition, RenyiMomentsMultiply, ()) {
  auto a = loss_of(*weight_table(3)), b = loss_of(*weight_table(3));
  for (unsigned long alpha : {2ul, 3ul}) {
    auto ma = renyi_moment(a, alpha), mb = renyi_moment(b, alpha), mab = renyi_moment(compose(a, b), alpha);
    RC_ASSERT(mab == ma * mb);
  }
}

RC_GTEST_PROP(Renyi, CertifiedRealAlphaContainsIntegerMoment, ()) {
  auto loss = loss_of(*weight_table());
  auto exact = renyi_moment(loss, 2);
  auto cert = renyi_moment(loss, Rational(2), 96);
  if (exact.is_infinite()) {
    RC_ASSERT(!cert.upper_is_finite());
  } else {
    RC_ASSERT(cert.contains(exact.value()));
  }
}

RC_GTEST_PROP(PiecewiseLinear, MaxIsPointwiseMaximum, ()) {
  auto f = directional_profile(loss_of(*weight_table()));
  auto g = directional_profile(loss_of(*weight_table()));
  auto h = max(f, g);
  for (int i = 0; i < 5; ++i) {
    auto x = *small_rational(6);
    RC_ASSERT(h(x) == std::max(f(x), g(x)));
  }
  auto s = f + g;
  auto x = *small_rational(6);
  RC_ASSERT(s(x) == f(x) + g(x));
}

RC_GTEST_PROP(Profile, CertifiedEvaluationEnclosesExact, ()) {
  auto prof = PrivacyProfile(loss_of(*weight_table()));
  auto l = *small_rational(4);
  RC_PRE(l >= 1);
  auto enc = prof.delta(Interval(l, 64));
  RC_ASSERT(enc.contains(prof.delta(l)));
}

TEST(TradeOff, GaussianTradeOffAtKnownPoints) {
  // G_1(1/2) = Φ(−1) ≈ 0.15865525393 (standard normal table)
  auto g = gaussian_tradeoff(Interval(Rational(1)), Rational(1, 2));
  EXPECT_LT(Rational(15865525, 100000000), g.lower());
  EXPECT_GT(Rational(15865526, 100000000), g.upper());
  EXPECT_TRUE(gaussian_tradeoff(Interval(Rational(1)), Rational(0)).contains(Rational(1)));
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {

using testing::rr_table;

// The lattice (Kronecker) route of self_compose against repeated squaring, on losses whose
// ratios are powers of one base and which carry catastrophic atoms of both kinds.
RC_GTEST_PROP(Composition, LatticePowerEqualsRepeatedSquaring, ()) {
  auto rho = *testing::small_rational(3);
  RC_PRE(rho > 1);
  auto d1 = *testing::small_rational(1), d2 = *testing::small_rational(1);
  RC_PRE(d1 < 1 && d2 < 1);
  auto k = static_cast<unsigned long>(*rc::gen::inRange(2, 9));
  auto loss = compose(rr_table(rho, d1), rr_table(Rational(rho * rho), d2));
  RC_ASSERT(loss.self_compose(k) == loss.self_compose_by_squaring(k));
}

TEST(Composition, LatticePowerOfAnIdenticalPair) {
  // a pair with P = Q has the single ratio 1 at every power (hand-derived)
  auto same = PrivacyLoss::from_masses({{Rational(1, 3), Rational(1, 3)}, {Rational(2, 3), Rational(2, 3)}});
  EXPECT_EQ(same.self_compose(7), PrivacyLoss::identity());
}

}  // namespace
}  // namespace exactdp

namespace exactdp {
namespace {
// Regression: incommensurable ratios (3/2 and 3/4) once made the lattice search run for minutes;
// the answer must equal repeated squaring and come back at once.
TEST(Composition, IncommensurableRatiosFallBackToSquaring) {
  auto loss = PrivacyLoss::from_masses({{Rational(1, 2), Rational(1, 3)}, {Rational(1, 2), Rational(2, 3)}});
  EXPECT_EQ(loss.self_compose(3), loss.self_compose_by_squaring(3));
  EXPECT_EQ(loss.self_compose(3).size(), 4u);  // ratios (3/2)^i (3/4)^(3−i) are all distinct
}
}  // namespace
}  // namespace exactdp
