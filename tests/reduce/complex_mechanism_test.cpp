// The HSV §6 conditions checker (THEOREMS.md A.10, B.17; HSV Def 6.2, Thm 6.1) on small
// post-processors whose verdicts are clear by reading their three lines of code: a forwarder
// satisfies all three conditions; a processor branching on the raw input violates destination
// (the negative control of HSV-T6.1 in the catalogue); one echoing the raw input violates
// response; one sending the input twice violates f → f′ for an event-level f′ but not for a
// relation allowing two differing pairs.
#include "exactdp/reduce/complex_mechanism.hpp"

#include <gtest/gtest.h>

namespace exactdp {
namespace {

using Emit = DeterministicPostProcessor::Emit;

/// Bit pairs with at most k differing pairs in total (event-level for k = 1; A.7). State = count.
PairRelation at_most_differing(int k) {
  PairRelation r;
  r.initial = "0";
  r.allowed = [k](const std::string& sigma) {
    std::vector<PairRelation::Pair> pairs{{"0", "0"}, {"1", "1"}};
    if (std::stoi(sigma) < k) pairs.insert(pairs.end(), {{"0", "1"}, {"1", "0"}});
    return pairs;
  };
  r.next = [](const std::string& sigma, const PairRelation::Pair& p) {
    return p.first == p.second ? sigma : std::to_string(std::stoi(sigma) + 1);
  };
  return r;
}

CompositeInstance instance(DeterministicPostProcessor p, int k_out) {
  CompositeInstance in;
  in.processor = std::move(p);
  in.input_relation = at_most_differing(1);
  in.output_relation = at_most_differing(k_out);
  in.right_answers = {"0", "1"};
  in.horizon = 6;
  return in;
}

TEST(CompositeConditions, ForwarderSatisfiesAllThree) {
  // left x → right x; right a → left a: destinations and outputs depend on right answers only
  DeterministicPostProcessor p{"forwarder", "idle", [](const std::string&, Port from, const std::string& m) {
                                 return from == Port::left ? Emit{"wait", Port::right, m, {}} : Emit{"idle", Port::left, m, {}};
                               }};
  const auto r = check_composite_conditions(instance(p, 1));
  EXPECT_TRUE(r.holds);
  EXPECT_FALSE(r.violation.has_value());
  EXPECT_GT(r.steps_checked, 10u);
}

TEST(CompositeConditions, BranchingOnARawInputViolatesDestination) {
  // on input 1 answer the adversary directly, otherwise ask the sub-mechanism
  DeterministicPostProcessor p{"brancher", "idle", [](const std::string&, Port from, const std::string& m) {
                                 if (from == Port::right) return Emit{"idle", Port::left, m, {}};
                                 return m == "1" ? Emit{"idle", Port::left, "skip", {}} : Emit{"wait", Port::right, m, {}};
                               }};
  const auto r = check_composite_conditions(instance(p, 1));
  ASSERT_FALSE(r.holds);
  EXPECT_EQ(r.violation->condition, "destination");
  // the only way to make the copies diverge is a differing left pair, as the last input
  const std::string last = r.violation->trace.back();
  EXPECT_TRUE(last == "left (0, 1)" || last == "left (1, 0)") << last;
}

TEST(CompositeConditions, EchoingTheRawInputViolatesResponse) {
  DeterministicPostProcessor p{"echo", "idle", [](const std::string& s, Port from, const std::string& m) {
                                 if (from == Port::left) return Emit{"x=" + m, Port::right, m, {}};
                                 return Emit{"idle", Port::left, m + "|" + s, {}};  // leaks the stored input
                               }};
  const auto r = check_composite_conditions(instance(p, 1));
  ASSERT_FALSE(r.holds);
  EXPECT_EQ(r.violation->condition, "response");
  EXPECT_EQ(r.violation->trace.size(), 2u);  // a differing left pair, then any right answer
}

TEST(CompositeConditions, SendingTheInputTwiceNeedsTwoDifferingPairsDownstream) {
  // left x → right x, then right (any) → right x again, then right a → left a
  DeterministicPostProcessor p{"duplicator", "idle", [](const std::string& s, Port from, const std::string& m) {
                                 if (from == Port::left) return Emit{"dup:" + m, Port::right, m, {}};
                                 if (s.rfind("dup:", 0) == 0) return Emit{"wait", Port::right, s.substr(4), {}};
                                 return Emit{"idle", Port::left, m, {}};
                               }};
  const auto event_level = check_composite_conditions(instance(p, 1));
  ASSERT_FALSE(event_level.holds);
  EXPECT_EQ(event_level.violation->condition, "f -> f'");
  EXPECT_EQ(event_level.violation->trace.size(), 2u);
  // with f′ allowing two differing pairs the same processor is fine (f admits one differing input)
  EXPECT_TRUE(check_composite_conditions(instance(p, 2)).holds);
}

TEST(CompositeConditions, RefusesExplorationsBeyondTheLimit) {
  DeterministicPostProcessor p{"forwarder", "idle", [](const std::string&, Port from, const std::string& m) {
                                 return from == Port::left ? Emit{"wait", Port::right, m, {}} : Emit{"idle", Port::left, m, {}};
                               }};
  auto in = instance(p, 1);
  in.max_paths = 5;
  EXPECT_THROW(check_composite_conditions(in), Error);
}

}  // namespace
}  // namespace exactdp
