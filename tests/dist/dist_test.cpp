#include "exactdp/dist/dist.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

namespace exactdp {
namespace {

using D = Dist<int>;

TEST(Dist, ValidatesMassesAndNamesTheOutcome) {
  EXPECT_NO_THROW(D({{0, Rational(1, 3)}, {1, Rational(2, 3)}}));
  try {
    D({{0, Rational(-1, 3)}, {1, Rational(4, 3)}}, MassKind::probability, "pair.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "pair.json");
    EXPECT_EQ(e.field(), "0");
    EXPECT_EQ(e.value(), "-1/3");
  }
  try {
    D({{0, Rational(1, 3)}, {1, Rational(1, 3)}});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.value(), "2/3");  // the total is named
  }
  EXPECT_NO_THROW(D({{0, Rational(1, 3)}}, MassKind::sub_probability));
  EXPECT_THROW(D({{0, Rational(4, 3)}}, MassKind::sub_probability), Error);
}

TEST(Dist, DropsZeroMassesAndMergesDuplicates) {
  D d({{0, Rational(1, 4)}, {1, Rational(0)}, {0, Rational(1, 4)}, {2, Rational(1, 2)}});
  EXPECT_EQ(d.support(), (std::vector<int>{0, 2}));
  EXPECT_EQ(d.mass(0), Rational(1, 2));
  EXPECT_EQ(d.mass(1), Rational(0));
}

// Hand-derived: two fair coins; the sum has law (1/4, 1/2, 1/4).
TEST(Dist, ProductPushForwardConditionMixture) {
  auto coin = D::uniform({0, 1});
  auto sum = coin.product(coin).push_forward([](const std::pair<int, int>& xy) { return xy.first + xy.second; });
  EXPECT_EQ(sum, D({{0, Rational(1, 4)}, {1, Rational(1, 2)}, {2, Rational(1, 4)}}));
  auto pos = sum.condition([](int s) { return s > 0; });
  EXPECT_EQ(pos, D({{1, Rational(2, 3)}, {2, Rational(1, 3)}}));
  auto mix = D::mixture({{Rational(1, 2), D::point(0)}, {Rational(1, 2), coin}});
  EXPECT_EQ(mix.mass(0), Rational(3, 4));
  EXPECT_THROW(sum.condition([](int s) { return s > 5; }), Error);
  EXPECT_EQ(sum.probability([](int s) { return s != 1; }), Rational(1, 2));
}

TEST(Dist, CertifiedMasses) {
  Interval third(Rational(1, 3));
  Dist<int, Interval> d({{0, third}, {1, third}, {2, third}});
  EXPECT_TRUE(d.total().contains(Rational(1)));
  EXPECT_THROW((Dist<int, Interval>({{0, third}})), Error);
}

// Law: push-forward preserves total mass and never increases the support size.
RC_GTEST_PROP(Dist, PushForwardPreservesMass, (std::vector<unsigned char> weights)) {
  RC_PRE(!weights.empty());
  std::vector<std::pair<int, Rational>> m;
  int total = 0;
  for (auto w : weights) total += w;
  RC_PRE(total > 0);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    Rational r(weights[i], total);
    r.canonicalize();
    m.emplace_back(static_cast<int>(i), r);
  }
  D d(m);
  auto f = d.push_forward([](int x) { return x % 3; });
  RC_ASSERT(f.total() == 1);
  RC_ASSERT(f.size() <= d.size());
  for (int r = 0; r < 3; ++r) RC_ASSERT(f.mass(r) == d.probability([r](int x) { return x % 3 == r; }));
}

}  // namespace
}  // namespace exactdp
