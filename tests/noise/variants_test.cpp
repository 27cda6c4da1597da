// Sparse-vector variants written on the latent threshold primitive and played by the game engine:
// the broken variant without query noise (Lyu, Su & Li 2017; StatDP's iSVT1) is refuted exactly,
// with a hand-derived witness, and the variants that keep answering after "above" lose the
// guarantee that AboveThreshold keeps.
#include "exactdp/game/engine.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/noise/latent.hpp"
#include "support/exact.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>

namespace exactdp::noise {
namespace {

using testing::q;

/// A state: the posterior of τ, or halted (nullopt).
using State = std::optional<LatentThreshold>;

struct StateHash {
  std::size_t operator()(const State& s) const { return s ? LatentThreshold::Hash{}(*s) : 0; }
};

/// AboveThreshold on margins v ∈ [−1, 1] (message "v"; "above" iff v + ν > τ, i.e. margin −v),
/// neighbours: any pair of margins at distance ≤ 1 at every query; halting after the first "above"
/// unless @p keep_going (then the same τ is kept and compared again).
Game sparse_vector(const Rational& r_threshold, const Rational& r_query, bool keep_going, unsigned horizon) {
  std::vector<std::string> messages{"-1", "0", "1"};
  auto step = [r_query, keep_going](const State& s, const std::string& m) -> std::vector<exactdp::Outcome<State>> {
    if (!s) return {{Rational(1), halt_answer, s}};
    std::vector<exactdp::Outcome<State>> out;
    for (auto& b : s->compare(-std::stol(m), r_query)) {
      const bool stop = b.outcome == Side::above && !keep_going;
      out.push_back({b.probability, side_name(b.outcome), stop ? State() : State(b.next)});
    }
    return out;
  };
  auto show = [](const State& s) { return s ? s->to_string() : std::string("halted"); };
  auto mech = std::make_shared<LambdaMechanism<State, StateHash>>("sparse vector", messages, step, show);
  const StateId start = mech->state_id(State(LatentThreshold(r_threshold)));
  std::vector<MessagePair> pairs;
  for (MessageId a = 0; a < 3; ++a)
    for (MessageId b = 0; b < 3; ++b)
      if (a + 1 >= b && b + 1 >= a) pairs.push_back({a, b});
  Game g;
  g.name = "sparse vector";
  g.mechanism = mech;
  g.verifier = std::make_shared<PairsVerifier>(std::move(pairs), std::nullopt);
  g.initial = {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

TEST(SparseVectorVariants, NoQueryNoiseIsRefutedAtTwoQueries) {
  // ν = 0 (Lyu–Su–Li's variant after Stoddard et al.): "below" at margin v observes τ ≥ v, "above"
  // τ ≤ v − 1. World 0 sends v = (0, 1): "below, above" means τ ∈ [0, 0], probability
  // Pr[τ = 0] = (1−r)/(1+r) > 0; world 1 sends (1, 0): the same answers mean τ ≥ 1 and τ ≤ −1,
  // probability 0. So the worst ratio is infinite at horizon 2, and finite at horizon 1 (one
  // comparison is a shift of τ's CDF: ratio at most 1/r_τ).
  const Rational rt = q(1, 4);
  EXPECT_LE(worst_case_ratio(sparse_vector(rt, 0, false, 1)).max(), ExtendedRational(1 / rt));
  EXPECT_TRUE(worst_case_ratio(sparse_vector(rt, 0, false, 2)).max().is_infinite());
}

TEST(SparseVectorVariants, AboveThresholdKeepsItsClaimWhereKeepingGoingDoesNot) {
  // AboveThreshold with r_τ = 1/4, r_ν = 1/2 is ln 16-DP (Dwork–Roth Thm 3.23, HSV L7.4); the same
  // comparisons without halting (no cutoff) release more, and the worst ratio grows with the horizon
  const Rational rt = q(1, 4), rn = q(1, 2);
  const ExtendedRational at = worst_case_ratio(sparse_vector(rt, rn, false, 3)).max();
  EXPECT_LE(at, ExtendedRational(q(16)));
  const ExtendedRational free2 = worst_case_ratio(sparse_vector(rt, rn, true, 2)).max();
  const ExtendedRational free3 = worst_case_ratio(sparse_vector(rt, rn, true, 3)).max();
  EXPECT_LT(at, free3);
  EXPECT_LT(free2, free3);
}

}  // namespace
}  // namespace exactdp::noise
