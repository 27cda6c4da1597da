#include "exactdp/bounds/optimal_composition.hpp"

#include "bounds/bounds_test_support.hpp"
#include "exactdp/core/error.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <utility>
#include <vector>

namespace exactdp {
namespace {

using bounds_test::copies;
using bounds_test::gen_components;
using bounds_test::q;
using bounds_test::ratio;

// ---------------------------------------------------------------- independent route: brute force

/// The two output laws of RR_{λ,δ} on (Leak,0), (NoLeak,0), (NoLeak,1), (Leak,1), as in the table of
/// THEOREMS.md A.2.
std::array<std::pair<Rational, Rational>, 4> rr_table(const LambdaDelta& c) {
  const Rational keep = 1 - c.delta, one_plus = 1 + c.lambda;
  return {{{c.delta, Rational(0)},
           {Rational(keep * c.lambda / one_plus), Rational(keep / one_plus)},
           {Rational(keep / one_plus), Rational(keep * c.lambda / one_plus)},
           {Rational(0), c.delta}}};
}

/// The 4^k outcome table of ⊗_i RR_{λ_i,δ_i}: one (P(y), Q(y)) pair per outcome y.
std::vector<std::pair<Rational, Rational>> product_table(const std::vector<LambdaDelta>& components) {
  std::vector<std::pair<Rational, Rational>> table{{Rational(1), Rational(1)}};
  for (const auto& c : components) {
    std::vector<std::pair<Rational, Rational>> next;
    for (const auto& [p, qq] : table)
      for (const auto& [p2, q2] : rr_table(c)) next.emplace_back(p * p2, qq * q2);
    table = std::move(next);
  }
  return table;
}

/// H_λ(P‖Q) = Σ_y (P(y) − λQ(y))⁺ on the explicit product table (or H_λ(Q‖P) when @p reverse).
Rational brute_force_hockey_stick(const std::vector<LambdaDelta>& components, const Rational& lambda,
                                  bool reverse = false) {
  Rational h(0);
  for (const auto& [p, qq] : product_table(components)) {
    const Rational d = reverse ? Rational(qq - lambda * p) : Rational(p - lambda * qq);
    if (sgn(d) > 0) h += d;
  }
  return h;
}

Rational gen_lambda_g(const std::vector<LambdaDelta>& components) {
  if (*rc::gen::inRange(0, 3) == 0) {
    // a breakpoint r_S (or its neighbourhood)
    Rational r(1);
    for (const auto& c : components) {
      const int pick = *rc::gen::inRange(0, 3);
      if (pick == 0) r *= c.lambda;
      if (pick == 1) r /= c.lambda;
    }
    return r;
  }
  return ratio(*rc::gen::inRange(0, 60), *rc::gen::inRange(1, 6));
}

// ---------------------------------------------------------------- reference values (THEOREMS.md E.3)
// The values below come from the THEOREMS.md catalogue, E.3, where they were computed by two
// independent exact programs; the library reproduces them through the privacy-loss-distribution
// route, and the property tests further down re-derive the same quantity by brute force.

struct Row {
  std::vector<LambdaDelta> components;
  std::vector<std::pair<const char*, const char*>> values;  // λ_g → δ_opt
};

TEST(OptimalComposition, ReproducesCatalogueE3) {
  const Rational two(2), three(3), ln1(1);
  const std::vector<Row> rows = {
      {copies(two, 0, 2), {{"1", "1/3"}, {"3/2", "5/18"}, {"2", "2/9"}, {"4", "0"}}},
      {copies(two, 0, 3), {{"1", "13/27"}, {"3/2", "19/54"}, {"2", "2/9"}, {"4", "4/27"}, {"8", "0"}}},
      {{{two, q("1/10")}, {three, q("1/5")}},
       {{"1", "16/25"}, {"3/2", "11/20"}, {"2", "13/25"}, {"4", "2/5"}, {"8", "7/25"}}},
      {{{two, q("1/10")}, {ln1, q("1/5")}},
       {{"1", "13/25"}, {"3/2", "2/5"}, {"2", "7/25"}, {"4", "7/25"}, {"8", "7/25"}}},
      {copies(three, 0, 1), {{"1", "1/2"}, {"3", "0"}}},
      {copies(three, 0, 2), {{"1", "1/2"}, {"3", "3/8"}, {"9", "0"}}},
      {copies(three, 0, 3), {{"1", "11/16"}, {"3", "3/8"}, {"9", "9/32"}, {"27", "0"}}},
      {{{two, 0}, {three, 0}}, {{"1", "1/2"}, {"2", "1/3"}, {"3", "1/4"}, {"6", "0"}}},
      {copies(two, q("1/10"), 2), {{"4", "19/100"}}},
  };
  for (const auto& row : rows) {
    const auto profile = optimal_composition_profile(row.components);
    for (const auto& [lambda_g, expected] : row.values) {
      SCOPED_TRACE(std::string("lambda_g = ") + lambda_g);
      EXPECT_EQ(optimal_composition_delta(row.components, q(lambda_g)), q(expected));
      EXPECT_EQ(evaluate_profile(profile, q(lambda_g)), q(expected));
      EXPECT_EQ(brute_force_hockey_stick(row.components, q(lambda_g)), q(expected));
      bool homogeneous = true;
      for (const auto& c : row.components) homogeneous = homogeneous && c == row.components.front();
      if (homogeneous) {
        EXPECT_EQ(optimal_composition_delta(row.components.front().lambda, row.components.front().delta,
                                            row.components.size(), q(lambda_g)),
                  q(expected));
      }
    }
  }
}

// H3: Comp(RR_{ln 2,1/10}, RR_{0,1/5}) at λ = 2 is 1 − (9/10)(4/5), below δ + δ′ = 3/10.
TEST(OptimalComposition, TightProductFormH3) {
  const std::vector<LambdaDelta> c = {{Rational(2), q("1/10")}, {Rational(1), q("1/5")}};
  EXPECT_EQ(optimal_composition_delta(c, Rational(2)), 1 - q("9/10") * q("4/5"));
  EXPECT_LT(optimal_composition_delta(c, Rational(2)), q("3/10"));
}

TEST(OptimalComposition, KovClosedFormCatalogueE3) {
  const auto a = kov_closed_form(Rational(2), Rational(0), 3);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0], (LambdaDelta{Rational(8), Rational(0)}));
  EXPECT_EQ(a[1], (LambdaDelta{Rational(2), q("2/9")}));
  const auto b = kov_closed_form(Rational(2), q("1/10"), 2);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0], (LambdaDelta{Rational(4), q("19/100")}));
  EXPECT_EQ(b[1], (LambdaDelta{Rational(1), q("23/50")}));
}

TEST(OptimalComposition, LeastLambdaCatalogueE3) {
  EXPECT_EQ(optimal_composition_least_lambda(copies(Rational(2), q("1/10"), 2), q("1/5")), q("35/9"));
  EXPECT_EQ(optimal_composition_least_lambda(copies(Rational(2), q("1/10"), 2), q("19/100")), Rational(4));
  EXPECT_EQ(optimal_composition_least_lambda(copies(Rational(3), 0, 3), q("1/10")), q("103/5"));
  EXPECT_EQ(optimal_composition_least_lambda(copies(q("11/10"), 0, 10), q("1/1000")),
            q("81684104240933/40000000000000"));
}

TEST(OptimalComposition, LeastLambdaEdgeCases) {
  // δ_g below the leak floor 1 − (9/10)^2 = 19/100: no λ_g works.
  EXPECT_FALSE(optimal_composition_least_lambda(copies(Rational(2), q("1/10"), 2), q("1/10")).has_value());
  // exactly at the floor: the pure level λ^k.
  EXPECT_EQ(optimal_composition_least_lambda(copies(Rational(2), q("1/10"), 2), q("19/100")), Rational(4));
  // δ_g above δ_opt(1) = TV: λ_g = 1.
  EXPECT_EQ(optimal_composition_least_lambda(copies(Rational(3), 0, 1), q("1/2")), Rational(1));
  // a component with δ = 1 leaks everything.
  const std::vector<LambdaDelta> leak = {{Rational(2), Rational(1)}};
  EXPECT_FALSE(optimal_composition_least_lambda(leak, q("99/100")).has_value());
  EXPECT_EQ(optimal_composition_least_lambda(leak, Rational(1)), Rational(1));
  EXPECT_EQ(optimal_composition_delta(leak, Rational(5)), Rational(1));
  // pure components, δ_g = 0: the pure composition Πλ_i.
  EXPECT_EQ(optimal_composition_least_lambda(std::vector<LambdaDelta>{{Rational(2), 0}, {Rational(3), 0}}, 0),
            Rational(6));
}

TEST(OptimalComposition, ProfileShape) {
  const std::vector<LambdaDelta> c = {{Rational(2), q("1/10")}, {Rational(3), q("1/5")}};
  const auto profile = optimal_composition_profile(c);
  ASSERT_FALSE(profile.empty());
  EXPECT_EQ(profile.front().start, 0);
  EXPECT_EQ(evaluate_profile(profile, 0), 1);
  // last piece: the leak floor 1 − (9/10)(4/5) = 7/25, constant
  EXPECT_EQ(profile.back().a, q("7/25"));
  EXPECT_EQ(profile.back().b, 0);
  EXPECT_EQ(profile.back().start, 6);
  for (std::size_t i = 1; i < profile.size(); ++i) {
    EXPECT_LT(profile[i - 1].start, profile[i].start);
    EXPECT_GT(profile[i - 1].b, profile[i].b);  // convex: slopes −b increase
    // continuity at the breakpoint
    EXPECT_EQ(profile[i - 1].a - profile[i - 1].b * profile[i].start, profile[i].a - profile[i].b * profile[i].start);
  }
}

TEST(OptimalComposition, EqualComponentsCollapseToFewStates) {
  // 200 equal components: 201 ratios; a mix of 2, 4 and 8 shares ratios (powers of 2).
  EXPECT_EQ(optimal_composition_state_estimate(copies(Rational(2), 0, 200)), 201u);
  const auto profile = optimal_composition_profile(copies(q("11/10"), q("1/1000"), 60));
  EXPECT_LE(profile.size(), 62u);
  std::vector<LambdaDelta> powers;
  for (int i = 0; i < 6; ++i) {
    powers.push_back({Rational(2), 0});
    powers.push_back({Rational(4), 0});
    powers.push_back({Rational(8), 0});
  }
  OptimalCompositionOptions small;
  small.max_states = 100;  // the estimate is 7^3 = 343, but only 73 distinct ratios 2^{−36..36} occur
  EXPECT_EQ(optimal_composition_state_estimate(powers), 343u);
  EXPECT_NO_THROW(optimal_composition_delta(powers, Rational(16), small));
}

TEST(OptimalComposition, RefusesAboveTheStateLimitStatingTheEstimate) {
  const long primes[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
  std::vector<LambdaDelta> c;
  for (long p : primes) c.push_back({Rational(p), 0});
  OptimalCompositionOptions options;
  options.max_states = 1000;
  try {
    optimal_composition_delta(c, Rational(10), options);
    ADD_FAILURE() << "computed 4096 states with a limit of 1000";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("4096"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("#P-hard"), std::string::npos) << e.what();
  }
  EXPECT_THROW(optimal_composition_least_lambda(c, q("1/10"), options), Error);
  EXPECT_THROW(optimal_composition_profile(c, options), Error);
  options.max_states = 4096;
  EXPECT_NO_THROW(optimal_composition_delta(c, Rational(10), options));
}

TEST(OptimalComposition, RejectsBadParametersNamingThem) {
  auto field_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.field() + "=" + e.value();
    }
    return std::string("no error");
  };
  EXPECT_EQ(field_of([] { optimal_composition_delta(q("1/2"), 0, 2, Rational(1)); }), "lambda=1/2");
  EXPECT_EQ(field_of([] { optimal_composition_delta(Rational(2), q("3/2"), 2, Rational(1)); }), "delta=3/2");
  EXPECT_EQ(field_of([] { optimal_composition_delta(Rational(2), 0, 0, Rational(1)); }), "k=0");
  EXPECT_EQ(field_of([] { optimal_composition_delta(Rational(2), 0, 1, Rational(-1)); }), "lambda_g=-1");
  const std::vector<LambdaDelta> bad = {{Rational(2), 0}, {Rational(2), Rational(-1, 3)}};
  EXPECT_EQ(field_of([&] { optimal_composition_delta(bad, Rational(1)); }), "delta[1]=-1/3");
  EXPECT_EQ(field_of([] { optimal_composition_delta(std::vector<LambdaDelta>{}, Rational(1)); }), "components=[]");
  EXPECT_EQ(field_of([] { optimal_composition_least_lambda(copies(Rational(2), 0, 1), Rational(2)); }),
            "delta_g=2");
  EXPECT_EQ(field_of([] { kov_closed_form(Rational(2), 0, 0); }), "k=0");
}

// ---------------------------------------------------------------- properties (independent routes)

// OPT-COMP equals the hockey-stick divergence of the explicit 4^k product table of ⊗RR_{λ_i,δ_i},
// in both directions (BG-KOV15-OPT check).
RC_GTEST_PROP(OptimalComposition, EqualsBruteForceProductOfRRTables, ()) {
  const auto components = gen_components(4);
  const Rational lambda_g = gen_lambda_g(components);
  const Rational expected = brute_force_hockey_stick(components, lambda_g);
  RC_ASSERT(optimal_composition_delta(components, lambda_g) == expected);
  RC_ASSERT(brute_force_hockey_stick(components, lambda_g, true) == expected);
  RC_ASSERT(evaluate_profile(optimal_composition_profile(components), lambda_g) == expected);
}

RC_GTEST_PROP(OptimalComposition, HomogeneousBinomialSumEqualsGroupedComputation, ()) {
  const auto c = bounds_test::gen_component();
  const unsigned long k = static_cast<unsigned long>(*rc::gen::inRange(1, 9));
  const Rational lambda_g = ratio(*rc::gen::inRange(0, 200), *rc::gen::inRange(1, 7));
  RC_ASSERT(optimal_composition_delta(c.lambda, c.delta, k, lambda_g) ==
            optimal_composition_delta(copies(c.lambda, c.delta, k), lambda_g));
}

// KOV15 Thm 3.3: the closed-form pairs are exactly δ_opt at λ^{k−2i}.
RC_GTEST_PROP(KovClosedForm, EqualsOptimalCompositionAtItsBreakpoints, ()) {
  const auto c = bounds_test::gen_component();
  const unsigned long k = static_cast<unsigned long>(*rc::gen::inRange(1, 9));
  const auto pairs = kov_closed_form(c.lambda, c.delta, k);
  RC_ASSERT(pairs.size() == k / 2 + 1);
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    RC_ASSERT(pairs[i].lambda == pow(c.lambda, k - 2 * i));
    RC_ASSERT(pairs[i].delta == optimal_composition_delta(c.lambda, c.delta, k, pairs[i].lambda));
  }
}

// The least λ_g achieves δ_g, nothing slightly smaller does, and a bisection over rationals on the
// brute-force table brackets it.
RC_GTEST_PROP(OptimalComposition, LeastLambdaIsTheLeastAndMatchesBisection, ()) {
  const auto components = gen_components(3);
  const Rational delta_g = ratio(*rc::gen::inRange(0, 21), 20);
  const auto least = optimal_composition_least_lambda(components, delta_g);
  Rational top(1);
  for (const auto& c : components) top *= c.lambda;  // beyond Πλ_i only the leak floor remains
  if (!least) {
    RC_ASSERT(brute_force_hockey_stick(components, top) > delta_g);
    return;
  }
  RC_ASSERT(*least >= 1);
  RC_ASSERT(optimal_composition_delta(components, *least) <= delta_g);
  RC_ASSERT(brute_force_hockey_stick(components, *least) <= delta_g);
  if (*least == 1) return;
  RC_ASSERT(optimal_composition_delta(components, *least - pow2(-40)) > delta_g);
  Rational lo(1), hi = top;  // H(lo) > δ_g ≥ H(hi)
  for (int i = 0; i < 30; ++i) {
    const Rational mid = (lo + hi) / 2;
    if (brute_force_hockey_stick(components, mid) > delta_g) lo = mid;
    else hi = mid;
  }
  RC_ASSERT(lo < *least);
  RC_ASSERT(*least <= hi);
}

}  // namespace
}  // namespace exactdp
