// Composition combinators (compose/) against independent routes: the hand-derived reference values
// of THEOREMS.md E.7 and E.9, PLD composition of the noninteractive pairs (a second algorithm),
// the closed form 1 − (1 − δ)^ℓ of HSV T5.2, and the laws "oblivious ≤ sequential ≤ adaptive",
// "post-processing never increases the profile" and "a valid filter never exceeds its budget".
#include "compose/compose_fixtures.hpp"
#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/compose/postprocess.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/game/engine.hpp"
#include "game/fixtures.hpp"
#include "proofs_checks/hstvvxz23_support.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

namespace exactdp::testing {
namespace {

using proofs::filters::ask_twice;  // E.9 F3, shared with the theorem checks
using proofs::filters::fresh_rr3;

EngineOptions at_horizon(unsigned t) {
  EngineOptions o;
  o.horizon = t;
  return o;
}

/// f ≤ g pointwise for convex PL profiles: the upper envelope of the two is g.
bool below(const PiecewiseLinear& f, const PiecewiseLinear& g) { return max(f, g) == g; }

// ------------------------------------------------------------------ concurrent composition

TEST(ConcurrentReference, E7_MPxMPProfileRenyiAndRatio) {
  // THEOREMS.md E.7 (hand-derived table for C1 = MP ⊗ MP): (direction 0, direction 1) per λ.
  const Game g = concurrent({mp(), mp()});
  ASSERT_EQ(g.horizon, 4u);
  const auto prof = worst_case_profile(g).profile;
  const std::vector<std::tuple<long, Rational, Rational>> table{
      {1, q(49, 75), q(49, 75)},   {2, q(982, 2025), q(118, 225)}, {3, q(761, 2025), q(307, 675)},
      {8, q(8, 81), q(56, 225)},   {9, q(7, 81), q(11, 45)},       {12, q(4, 81), q(52, 225)},
      {16, q(0), q(16, 75)},       {32, q(0), q(32, 225)},         {64, q(0), q(0)}};
  for (const auto& [l, fwd, bwd] : table) {
    EXPECT_EQ(prof.forward()(Rational(l)), fwd) << "lambda " << l;
    EXPECT_EQ(prof.backward()(Rational(l)), bwd) << "lambda " << l;
  }
  // X-RENYI-PRODUCT (B.12), E.7: Φ₂ = ((61/24)², (55/12)²), the product of the single moments
  const auto r2 = worst_case_renyi_moment(g, 2);
  EXPECT_EQ(r2.forward, ExtendedRational(q(3721, 576)));
  EXPECT_EQ(r2.backward, ExtendedRational(q(3025, 144)));
  const auto single = worst_case_renyi_moment(mp(), 2);
  EXPECT_EQ(r2.forward, single.forward * single.forward);
  EXPECT_EQ(r2.backward, single.backward * single.backward);
  // X-PURE-PRODUCT: pure level 64 = 8 · 8
  EXPECT_EQ(worst_case_ratio(g).max(), ExtendedRational(Rational(64)));
  // E.7: "for this pair the sequential composition gives the same values"
  const auto seq = worst_case_profile(sequential_adversaries(g)).profile;
  EXPECT_EQ(seq.forward(), prof.forward());
  EXPECT_EQ(seq.backward(), prof.backward());
}

TEST(ConcurrentReference, E9_F1_StickyRRsEqualTheProductOfRR) {
  // E.9 F1: ConComp(sticky RR₂, sticky RR₃) at depth 3 equals one-shot RR₂ ⊗ RR₃; the second
  // route is the PLD composition of the two RR tables (divergence/, no game engine).
  const Game g = concurrent({sticky_rr(2, 2, 2), sticky_rr(3, 2, 2)});
  const auto prof = worst_case_profile(g, at_horizon(3)).profile;
  const std::vector<std::pair<long, Rational>> table{{1, q(1, 2)}, {2, q(1, 3)}, {3, q(1, 4)}, {4, q(1, 6)}, {5, q(1, 12)}, {6, q(0)}};
  for (const auto& [l, v] : table) {
    EXPECT_EQ(prof.forward()(Rational(l)), v);
    EXPECT_EQ(prof.backward()(Rational(l)), v);
  }
  const PrivacyProfile pld(compose(rr_table(2, 0), rr_table(3, 0)));
  EXPECT_EQ(prof.forward(), pld.forward());
  EXPECT_EQ(prof.backward(), pld.backward());
  EXPECT_EQ(worst_case_renyi_moment(g, 2, at_horizon(3)).max(), ExtendedRational(q(7, 2)));
  EXPECT_EQ(worst_case_ratio(g, at_horizon(3)).max(), ExtendedRational(Rational(6)));
}

TEST(ConcurrentReference, E9_F2_QueryingRRFirstThenChoosing) {
  // E.9 F2: ConComp(one-shot RR₂, choice IM C): sup_A H₂ = 4/9 (query RR₂, then pick C's query from
  // its answer) — the tensor bound δ_{f_RR₂ ⊗ f_C}(2) = (2/3)(1/2) + (1/3)(1/3), attained.
  const Game g = concurrent({rr_game(2), choice()});
  EXPECT_EQ(worst_case_hockey_stick(g, Rational(2)).delta(), q(4, 9));
  // sequential adversaries may choose the order, so they find the same value
  EXPECT_EQ(worst_case_hockey_stick(sequential_adversaries(g), Rational(2)).delta(), q(4, 9));
}

RC_GTEST_PROP(ConcurrentLaws, NoninteractiveRRComposesLikeThePLD, ()) {
  // Concurrent composition of one-shot RR_{λ,δ} pairs is the product pair: compare the engine's
  // exact profile with PrivacyLoss composition (a second algorithm, divergence/).
  const std::vector<Rational> lambdas{q(1), q(3, 2), q(2), q(3)}, deltas{q(0), q(1, 10), q(1, 4)};
  const auto i = *rc::gen::inRange<std::size_t>(0, 4), j = *rc::gen::inRange<std::size_t>(0, 4);
  const auto a = *rc::gen::inRange<std::size_t>(0, 3), b = *rc::gen::inRange<std::size_t>(0, 3);
  const Game g = concurrent({rr_delta_game(lambdas[i], deltas[a], "A"), rr_delta_game(lambdas[j], deltas[b], "B")});
  const auto prof = worst_case_profile(g).profile;
  const PrivacyProfile pld(compose(rr_table(lambdas[i], deltas[a]), rr_table(lambdas[j], deltas[b])));
  RC_ASSERT(prof.forward() == pld.forward());
  RC_ASSERT(prof.backward() == pld.backward());
}

// ------------------------------------------------------------------ adversary classes

RC_GTEST_PROP(AdversaryClasses, ObliviousAtMostSequentialAtMostAdaptive, ()) {
  // A.4/A.8: every oblivious sequence is a sequential strategy only when it finishes components in
  // order; the law compared here is oblivious-sequential ≤ sequential ≤ adaptive, and
  // oblivious ≤ adaptive (each class contains the previous one).
  const auto t1 = *random_table(), t2 = *random_table();
  const unsigned h1 = *rc::gen::inRange(1u, 3u), h2 = *rc::gen::inRange(1u, 3u);
  const Game g = concurrent({static_game_of(t1, h1, "A"), static_game_of(t2, h2, "B")});
  const Game s = sequential_adversaries(g);
  const auto adaptive = worst_case_profile(g).profile;
  const auto sequential = worst_case_profile(s).profile;
  const auto oblivious = worst_case_profile_oblivious(g).profile;
  const auto oblivious_seq = worst_case_profile_oblivious(s).profile;
  RC_ASSERT(below(sequential.forward(), adaptive.forward()));
  RC_ASSERT(below(sequential.backward(), adaptive.backward()));
  RC_ASSERT(below(oblivious.forward(), adaptive.forward()));
  RC_ASSERT(below(oblivious.backward(), adaptive.backward()));
  RC_ASSERT(below(oblivious_seq.forward(), sequential.forward()));
  RC_ASSERT(below(oblivious_seq.backward(), sequential.backward()));
  RC_ASSERT(below(oblivious_seq.forward(), oblivious.forward()));
  // X-RENYI-PRODUCT and X-PURE-PRODUCT hold for sequential adversaries too (the "≥" half runs the
  // components' optimal adversaries one after the other)
  RC_ASSERT(worst_case_renyi_moment(s, 2).forward == worst_case_renyi_moment(g, 2).forward);
  RC_ASSERT(worst_case_ratio(s).max() == worst_case_ratio(g).max());
  // oblivious Rényi ≤ adaptive; the oblivious ratio equals the adaptive one (B.5 argument)
  const auto ro = worst_case_renyi_moment_oblivious(g, 2), ra = worst_case_renyi_moment(g, 2);
  RC_ASSERT(!(ra.forward < ro.forward));
  RC_ASSERT(!(ra.backward < ro.backward));
  const auto po = worst_case_ratio_oblivious(g), pa = worst_case_ratio(g);
  RC_ASSERT(po.forward == pa.forward);
  RC_ASSERT(po.backward == pa.backward);
}

/// The instance found by a random search (seeded, outside the test suite) over pairs of 2-state
/// mechanisms: A answers one query, B answers two; B's hidden state moves after its first answer.
Game interleaving_instance() {
  using Row = TableMechanism::Row;
  std::vector<std::pair<std::string, TableMechanism::StateTable>> a{
      {"s0", {false, {{"0", {Row{q(3, 7), "0", "s0"}, Row{q(1, 7), "1", "s0"}, Row{q(3, 7), "1", "s1"}}},
                      {"1", {Row{q(1, 5), "0", "s1"}, Row{q(3, 5), "1", "s0"}, Row{q(1, 5), "1", "s1"}}}}}},
      {"s1", {false, {{"0", {Row{q(3, 8), "0", "s0"}, Row{q(1, 4), "0", "s1"}, Row{q(1, 4), "1", "s0"}, Row{q(1, 8), "1", "s1"}}},
                      {"1", {Row{q(1, 3), "1", "s0"}, Row{q(2, 3), "1", "s1"}}}}}}};
  std::vector<std::pair<std::string, TableMechanism::StateTable>> b{
      {"s0", {false, {{"0", {Row{q(3, 4), "0", "s1"}, Row{q(1, 4), "1", "s0"}}},
                      {"1", {Row{q(1, 7), "0", "s0"}, Row{q(3, 7), "1", "s0"}, Row{q(3, 7), "1", "s1"}}}}}},
      {"s1", {false, {{"0", {Row{q(1, 2), "0", "s0"}, Row{q(1, 2), "1", "s0"}}}, {"1", {Row{Rational(1), "1", "s1"}}}}}}};
  auto ma = std::make_shared<TableMechanism>("A", a, std::vector<std::string>{"0", "1"});
  auto mb = std::make_shared<TableMechanism>("B", b, std::vector<std::string>{"0", "1"});
  return concurrent({static_game("A", ma, {0, 1}, 1), static_game("B", mb, {0, 1}, 2)});
}

/// The composition restricted to one fixed order of components (a second implementation of
/// "sequential": an explicit automaton over the composed pairs, one state per round).
Game fixed_order(const Game& g, const std::vector<std::size_t>& order) {
  const auto& mech = dynamic_cast<const ConcurrentMechanism&>(*g.mechanism);
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(order.size() + 1);
  std::vector<std::string> names;
  for (std::size_t t = 0; t <= order.size(); ++t) {
    names.push_back("round " + std::to_string(t));
    if (t == order.size()) continue;
    for (MessageId m = 0; m < mech.component(order[t]).messages().size(); ++m) {
      const MessageId id = mech.message_of(order[t], m);
      edges[t].push_back({MessagePair{id, id}, static_cast<VerifierState>(t + 1)});
    }
  }
  Game out = g;
  out.verifier = std::make_shared<AutomatonVerifier>(names, 0, edges);
  return out;
}

TEST(AdversaryClasses, InterleavingStrictlyBeatsEverySequentialOrder) {
  // A (one query) and B (two queries): the best adversary asks B, then A with the query chosen
  // from B's first answer, then B again with the query chosen from both answers. A sequential
  // adversary must either ask A before seeing anything from B (order A, B, B) or choose B's second
  // query without A's answer (order B, B, A); both lose. Engine values at λ = 1 (exact):
  const Game g = interleaving_instance();
  const Rational adaptive = worst_case_hockey_stick(g, Rational(1)).delta();
  const Rational sequential = worst_case_hockey_stick(sequential_adversaries(g), Rational(1)).delta();
  EXPECT_EQ(adaptive, q(897, 2240));
  EXPECT_EQ(sequential, q(3, 8));
  // second route for the sequential class: the maximum over the fixed orders, each an explicit
  // automaton verifier (stopping is dominated, so the full orders suffice)
  Rational best = 0;
  for (const auto& order : std::vector<std::vector<std::size_t>>{{0, 1, 1}, {1, 1, 0}})
    best = std::max(best, worst_case_hockey_stick(fixed_order(g, order), Rational(1)).delta());
  EXPECT_EQ(best, sequential);
  // second route for the adaptive value: replay the optimal decision tree (forward recursion of
  // view_distributions) and read off H₁; its root asks B and its second round asks A
  const Witness w = worst_case_adversary(g, Rational(1), 0);
  const auto views = view_distributions(g, w.adversary);
  EXPECT_EQ(directional_profile(privacy_loss(views))(Rational(1)), adaptive);
  const auto& mech = dynamic_cast<const ConcurrentMechanism&>(*g.mechanism);
  const auto& root = w.adversary.nodes().at(0);
  ASSERT_TRUE(root.send.has_value());
  EXPECT_EQ(mech.route(root.send->world0).first, 1u);
  bool b_a_b = false;
  for (const auto& [answer, child] : root.next) {
    const auto& c = w.adversary.nodes().at(child);
    if (!c.send || mech.route(c.send->world0).first != 0) continue;
    for (const auto& [a2, grandchild] : c.next) {
      const auto& gc = w.adversary.nodes().at(grandchild);
      b_a_b = b_a_b || (gc.send && mech.route(gc.send->world0).first == 1);
    }
  }
  EXPECT_TRUE(b_a_b);
}

// ------------------------------------------------------------------ post-processing

/// A random post-processor with at most one call to M per left message: in state k ∈ {0, 1} a left
/// message either goes to M as "0"/"1" or is answered directly; M's answer is turned into "x"/"y".
PostProcessor random_post_processor(const std::vector<int>& w) {
  PostProcessorTable t;
  t.name = "P";
  t.initial = "i0";
  t.left_messages = {"0", "1"};
  std::size_t at = 0;
  auto weight = [&]() { return w[at++ % w.size()]; };
  for (int k = 0; k < 2; ++k) {
    const std::string idle = "i" + std::to_string(k);
    for (const std::string m : {"0", "1"}) {
      // outcomes: to R with "0", to R with "1", to L with "x"; next states vary with k
      int a = weight(), b = weight(), c = weight();
      if (a + b + c == 0) a = 1;
      const int sum = a + b + c;
      auto& rows = t.rules[idle]["L"][m];
      if (a) rows.push_back({q(a, sum), "w0", Port::right, "0"});
      if (b) rows.push_back({q(b, sum), "w1", Port::right, "1"});
      if (c) rows.push_back({q(c, sum), "i" + std::to_string(1 - k), Port::left, "x"});
    }
  }
  for (int k = 0; k < 2; ++k) {
    const std::string wait = "w" + std::to_string(k);
    for (const std::string& ans : std::vector<std::string>{"0", "1", halt_answer, invalid_answer}) {
      int a = weight(), b = weight();
      if (a + b == 0) a = 1;
      auto& rows = t.rules[wait]["R"][ans];
      if (a) rows.push_back({q(a, a + b), "i" + std::to_string(k), Port::left, "x"});
      if (b) rows.push_back({q(b, a + b), "i" + std::to_string(1 - k), Port::left, "y"});
    }
  }
  return post_processor_from_table(std::move(t));
}

RC_GTEST_PROP(PostProcessing, NeverIncreasesTheProfile, ()) {
  // HSV L2.16 / HSTVVXZ23 T2.17: each left message of P∘*M uses M at most once, so T rounds of
  // P∘*M are simulated by T rounds against M; the worst case cannot grow.
  const auto t = *random_table();
  const unsigned horizon = *rc::gen::inRange(1u, 3u);
  const auto w = *rc::gen::container<std::vector<int>>(28, rc::gen::inRange(0, 3));
  const Game m = static_game_of(t, horizon, "M");
  const Game pm = postprocess(m, random_post_processor(w));
  const auto before = worst_case_profile(m).profile, after = worst_case_profile(pm).profile;
  RC_ASSERT(below(after.forward(), before.forward()));
  RC_ASSERT(below(after.backward(), before.backward()));
  RC_ASSERT(!(worst_case_renyi_moment(m, 2).max() < worst_case_renyi_moment(pm, 2).max()));
}

TEST(PostProcessing, E9_F3_AndKeepsXorErases) {
  // E.9 F3 (hand-derived): sup_A H₃(V₁‖V₀) = 3/8 for two RR₃ answers (outcome (1,1): 9/16 − 3/16);
  // AND attains it with one left message; XOR makes the output independent of b.
  const Game m = fresh_rr3();
  EXPECT_EQ(worst_case_hockey_stick(m, Rational(3)).backward, q(3, 8));
  Game and_game = postprocess(m, ask_twice(true));
  and_game.horizon = 1;
  EXPECT_EQ(worst_case_hockey_stick(and_game, Rational(3)).backward, q(3, 8));
  Game xor_game = postprocess(m, ask_twice(false));
  xor_game.horizon = 1;
  EXPECT_EQ(worst_case_profile(xor_game).profile.delta(Rational(1)), q(0));
}

TEST(PostProcessing, NonTerminationIsReported) {
  PostProcessorTable t;
  t.name = "loop";
  t.initial = "s";
  t.left_messages = {"go"};
  t.rules["s"]["L"]["*"] = {{Rational(1), "s", Port::right, "q"}};
  t.rules["s"]["R"]["*"] = {{Rational(1), "s", Port::right, "q"}};
  t.max_inner_steps = 5;
  const Game pm = postprocess(fresh_rr3(), post_processor_from_table(std::move(t)));
  EXPECT_THROW(worst_case_profile(pm), Error);
}

// ------------------------------------------------------------------ launch compositions

MenuEntry entry(const std::string& name, Game g, Rational lambda, Rational delta = 0, std::optional<Rational> moment = std::nullopt) {
  return MenuEntry{name, std::move(g), LaunchParameters{std::move(lambda), std::move(delta), std::move(moment)}};
}

TEST(ExtendedConcurrent, TwoCreatedRRsAreTheProductPair) {
  // Creating two RR₂ instances and querying both is RR₂ ⊗ RR₂ (creation reveals nothing);
  // second route: PLD composition.
  LaunchOptions o;
  o.max_instances = 2;
  o.horizon = 4;
  const Game g = extended_concurrent({entry("RR2", rr_game(2), Rational(2))}, o);
  const PrivacyProfile pld(compose(rr_table(2, 0), rr_table(2, 0)));
  const auto prof = worst_case_profile(g).profile;
  EXPECT_EQ(prof.forward(), pld.forward());
  EXPECT_EQ(prof.backward(), pld.backward());
}

TEST(ParallelComposition, HSV_T5_2_CopiesOfMDeltaGiveOneMinusProduct) {
  // HSV Thm 5.2 (THEOREMS.md D.11, E.10): ℓ copies of M_δ, each (0, δ)-DP w.r.t. g, under 1-sparse
  // parallel composition with budget {(0, δ)}: the adaptive adversary creates copies one at a time
  // and sends the differing pair to the first that answered ⊥, so δ(λ = 1) = 1 − (1 − δ)^ℓ
  // (closed form of the paper), strictly more than the claimed δ for ℓ ≥ 2.
  const Rational delta = q(1, 4);
  for (unsigned l = 1; l <= 3; ++l) {
    LaunchOptions o;
    o.max_instances = l;
    o.horizon = 2 * l + 1;
    const Game g = parallel_composition({entry("M", m_delta_game(delta), Rational(1), delta)}, {LaunchParameters{Rational(1), delta, {}}},
                                        false, o);
    EXPECT_EQ(worst_case_hockey_stick(g, Rational(1)).delta(), 1 - pow(1 - delta, l)) << "l = " << l;
    // with first-pair consistency the attack is gone: M_δ's first answer ignores the bit, and after
    // an identical first pair no differing pair may follow (hand-derived: δ = 0)
    const Game fpc = parallel_composition({entry("M", m_delta_game(delta), Rational(1), delta)}, {LaunchParameters{Rational(1), delta, {}}},
                                          true, o);
    EXPECT_EQ(worst_case_hockey_stick(fpc, Rational(1)).delta(), q(0)) << "l = " << l;
  }
}

std::vector<MenuEntry> rr_menu() {
  return {entry("RR2", rr_game(2), Rational(2), 0, q(3, 2)), entry("RR3", rr_game(3), Rational(3), 0, q(7, 3)),
          entry("RR4", rr_game(4), Rational(4), 0, q(13, 4))};
}

TEST(Filter, E9_F4_BasicPureFilter) {
  // E.9 F4 (hand-derived table): budget λ = 6, menu {RR₂, RR₃, RR₄}, rule Πλ ≤ 6, depth 3 (three
  // launches; each launch is a creation round and a query round here, so horizon 6).
  LaunchOptions o;
  o.max_instances = 3;
  o.horizon = 6;
  const Game g = filter_composition(rr_menu(), basic_pure_rule(Rational(6)), o);
  const auto prof = worst_case_profile(g).profile;
  const std::vector<std::pair<long, Rational>> table{{6, q(0)}, {5, q(1, 12)}, {4, q(1, 6)}, {3, q(1, 4)}, {2, q(2, 5)}, {1, q(3, 5)}};
  for (const auto& [l, v] : table) {
    EXPECT_EQ(prof.forward()(Rational(l)), v) << "lambda " << l;
    EXPECT_EQ(prof.backward()(Rational(l)), v) << "lambda " << l;
  }
}

TEST(Filter, E9_F5_RenyiMomentFilter) {
  // E.9 F5: moments {3/2, 7/3, 13/4}, budget B = 7/2, rule Π m ≤ B: sup Φ₂ by depth 13/4, 7/2, 7/2.
  const std::vector<std::pair<unsigned, Rational>> by_depth{{1, q(13, 4)}, {2, q(7, 2)}, {3, q(7, 2)}};
  for (const auto& [depth, moment] : by_depth) {
    LaunchOptions o;
    o.max_instances = 3;
    o.horizon = 2 * depth;  // each launched RR needs a creation and a query
    const Game g = filter_composition(rr_menu(), renyi_moment_rule(q(7, 2)), o);
    EXPECT_EQ(worst_case_renyi_moment(g, 2).max(), ExtendedRational(moment)) << "depth " << depth;
  }
}

TEST(Filter, E9_F6_WhitehouseRuleDecisions) {
  // E.9 F6 (numbers from the closed form, certified): ε = 2, δ′ = δ = 1/4: one RR₂ passes (≈ 1.394),
  // two fail (≈ 2.113), RR₃ fails (≈ 2.433); ε = 3, δ′ = 1/20: two RR₂ pass (≈ 2.880), three fail.
  const LaunchParameters rr2{Rational(2), 0, {}}, rr3{Rational(3), 0, {}};
  const auto rule = whitehouse_rule(Rational(2), q(1, 4), q(1, 4));
  EXPECT_TRUE(rule({}, rr2));
  EXPECT_FALSE(rule({rr2}, rr2));
  EXPECT_FALSE(rule({}, rr3));
  const auto rule3 = whitehouse_rule(Rational(3), q(1, 20), q(1, 20));
  EXPECT_TRUE(rule3({rr2}, rr2));
  EXPECT_FALSE(rule3({rr2, rr2}, rr2));
  // the filtered composition: H at λ = 7 < e² is 0 (one RR₂ at most), so H at e² is 0 ≤ 1/4
  LaunchOptions o;
  o.max_instances = 2;
  o.horizon = 4;
  const Game g = filter_composition({entry("RR2", rr_game(2), Rational(2)), entry("RR3", rr_game(3), Rational(3))}, rule, o);
  EXPECT_EQ(worst_case_hockey_stick(g, Rational(7)).delta(), q(0));
  EXPECT_EQ(worst_case_hockey_stick(g, Rational(2)).delta(), q(0));  // only RR₂ ever runs
}

RC_GTEST_PROP(Filter, ValidRulesNeverExceedTheirBudget, ()) {
  // HSTVVXZ23 C3.5 / HSV D5.3: for menus of canonical (λ_j, δ_j) pairs, the basic approximate and
  // product-δ filters keep sup_A H_Λ ≤ Δ, and the pure filter keeps H_Λ = 0 for pure menus.
  const std::vector<Rational> lambdas{q(1), q(3, 2), q(2), q(3)}, deltas{q(0), q(1, 10), q(1, 5)};
  std::vector<MenuEntry> menu, pure_menu;
  const auto size = *rc::gen::inRange<std::size_t>(1, 3);
  for (std::size_t j = 0; j < size; ++j) {
    const auto& l = lambdas[*rc::gen::inRange<std::size_t>(0, 4)];
    const auto& d = deltas[*rc::gen::inRange<std::size_t>(0, 3)];
    menu.push_back(entry("E" + std::to_string(j), rr_delta_game(l, d, "E"), l, d));
    pure_menu.push_back(entry("P" + std::to_string(j), rr_delta_game(l, 0, "P"), l, 0));
  }
  const Rational budget_lambda = std::vector<Rational>{q(2), q(3), q(9, 2), q(6)}[*rc::gen::inRange<std::size_t>(0, 4)];
  const Rational budget_delta = std::vector<Rational>{q(0), q(1, 10), q(1, 5), q(3, 10)}[*rc::gen::inRange<std::size_t>(0, 4)];
  LaunchOptions o;
  o.max_instances = 3;
  o.horizon = 5;
  const Game basic = filter_composition(menu, basic_approximate_rule(budget_lambda, budget_delta), o);
  RC_ASSERT(worst_case_hockey_stick(basic, budget_lambda).delta() <= budget_delta);
  const Game product = filter_composition(menu, product_delta_rule(budget_lambda, budget_delta), o);
  RC_ASSERT(worst_case_hockey_stick(product, budget_lambda).delta() <= budget_delta);
  const Game pure = filter_composition(pure_menu, basic_pure_rule(budget_lambda), o);
  RC_ASSERT(worst_case_hockey_stick(pure, budget_lambda).delta() == 0);
}

TEST(Odometer, TruncatedViewEqualsTheFilter) {
  // HSTVVXZ23 L2.19: the truncated view of the Πλ odometer at threshold 6 is the view of the
  // basic pure filter with budget 6 plus deterministic privacy_loss answers, so the profiles agree.
  LaunchOptions o;
  o.max_instances = 3;
  o.horizon = 4;
  const Game odo = odometer_truncated(rr_menu(), product_lambda_accumulator(Rational(6)), o);
  const Game filt = filter_composition(rr_menu(), basic_pure_rule(Rational(6)), o);
  const auto a = worst_case_profile(odo).profile, b = worst_case_profile(filt).profile;
  EXPECT_EQ(a.forward(), b.forward());
  EXPECT_EQ(a.backward(), b.backward());
  EXPECT_EQ(a.delta(Rational(6)), q(0));
}

// ------------------------------------------------------------------ real-α Rényi

TEST(CertifiedRenyi, OneShotRRAtThreeHalves) {
  // Φ_{3/2}(RR₃) = (3^{3/2} + 3^{−1/2})/4 = 5/(2√3), so Φ² = 25/12 exactly (closed form).
  const auto r = worst_case_renyi_moment_certified(rr_game(3), q(3, 2));
  ASSERT_FALSE(r.forward.infinite);
  const Interval sq = r.forward.enclosure * r.forward.enclosure;
  EXPECT_TRUE(sq.contains(q(25, 12))) << sq.to_string();
  EXPECT_LT(r.forward.enclosure.width_upper(), q(1, 1000000));
}

RC_GTEST_PROP(CertifiedRenyi, IntegerOrdersAgreeWithTheExactEngine, ()) {
  const auto t = *random_table();
  const Game g = static_game_of(t, *rc::gen::inRange(1u, 3u), "M");
  for (unsigned long a : {2ul, 3ul}) {
    const auto exact = worst_case_renyi_moment(g, a);
    const auto cert = worst_case_renyi_moment_certified(g, Rational(a));
    RC_ASSERT(cert.forward.infinite == !exact.forward.is_finite());
    if (exact.forward.is_finite()) RC_ASSERT(cert.forward.enclosure.contains(exact.forward.value()));
    RC_ASSERT(cert.backward.infinite == !exact.backward.is_finite());
    if (exact.backward.is_finite()) RC_ASSERT(cert.backward.enclosure.contains(exact.backward.value()));
  }
}

}  // namespace
}  // namespace exactdp::testing
