/// @file
/// Complex continual mechanisms built from sub-mechanisms by a *deterministic* interactive
/// post-processor (HSV §6; THEOREMS.md A.10): M = P∘*ExtConComp, where P has a single initial
/// state and all randomness comes from the sub-mechanisms (a 0-DP coin source, D.15, if P needs
/// coins).
///
/// This header holds the vocabulary shared by the mechanism library (which builds such composites:
/// the HSS histogram, local protocols, the core-decomposition protocol, library/library_hsv.hpp)
/// and by reduce/complex_mechanism.hpp (which checks the conditions of HSV Thm 6.1 on P):
/// * Port, the two sides of a post-processor;
/// * DeterministicPostProcessor, P as a step function over named states and messages;
/// * PairRelation, a verification function over message pairs with finite memory (HSV D3.3);
/// * compose_deterministic(), the composite P∘*(M₁, …, M_k) as an ordinary InteractiveMechanism;
/// * CompositeInstance, a composite as the HSV §6 checker of reduce/ reads it (P, f, f′, the
///   sub-mechanisms' answers, the horizon), so that the library can describe its composites
///   without depending on the checker's layer.
///
/// Sub-mechanisms are fixed in advance and idle until P first addresses them. This is the
/// extended concurrent composition (HSV D4.1) with creations at data-independent times: creating
/// instance i when P first talks to it or at the start makes no difference to any view, because a
/// continual mechanism with a single initial state answers nothing before it is addressed.
#pragma once

#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace exactdp {

/// The two ports of an interactive post-processor (THEOREMS.md A.5): `left` faces the adversary,
/// `right` faces the mechanism (or the sub-mechanisms).
enum class Port { left, right };

/// A deterministic interactive post-processor with a single initial state (HSV Def 2.14 without
/// randomness, as HSV §6 requires). States and messages are strings so that witnesses read
/// naturally.
struct DeterministicPostProcessor {
  /// What one step does: move to `next` and send `message` through port `to`.
  struct Emit {
    std::string next;
    Port to = Port::left;
    std::string message;
    /// For a taint-instrumented P (HSV D6.5, THEOREMS.md A.10 "pseudocode form"): empty when this
    /// step obeys the taint rules, otherwise the rule broken and the statement that broke it.
    std::string taint;
  };
  std::string name;
  std::string initial;
  /// P(s, v, m) ↦ (s′, v′, m′): the reaction to message @p message arriving through port @p from.
  std::function<Emit(const std::string& state, Port from, const std::string& message)> step;
  /// True when P carries a taint bit with each of its variables (inputs tainted, sub-mechanism
  /// answers and constants untainted, anything computed from a tainted value tainted) and reports
  /// in Emit::taint every decision (where to send, which sub-mechanism) and every output to the
  /// adversary that reads a tainted value.
  bool taint_instrumented = false;
};

/// A verification function over message pairs with finite memory (HSV Def 3.3, 3.5): a state σ
/// summarising the pairs sent so far, the pairs allowed next, and the state after each.
///
/// Either form may be given: `allowed` + `next` enumerate the allowed pairs (needed where the pairs
/// are *inputs* to explore); `transition` only decides one pair (enough where pairs are *outputs*
/// to check, and much cheaper when the alphabet is large). A relation with `allowed` and `next`
/// answers transition() through them.
struct PairRelation {
  using Pair = std::pair<std::string, std::string>;
  std::string initial;
  /// The pairs allowed in state σ (an empty list: nothing more may be sent).
  std::function<std::vector<Pair>(const std::string& sigma)> allowed;
  /// The state after sending @p pair in state @p sigma (only called with allowed pairs).
  std::function<std::string(const std::string& sigma, const Pair& pair)> next;
  /// The state after @p pair in state @p sigma, or std::nullopt if the pair is not allowed there.
  std::function<std::optional<std::string>(const std::string& sigma, const Pair& pair)> decide;

  /// The state after @p pair, or std::nullopt if it is not allowed (through `decide` when set,
  /// otherwise through `allowed` and `next`). Throws exactdp::Error if neither form is set.
  std::optional<std::string> transition(const std::string& sigma, const Pair& pair) const;
};

/// One sub-mechanism of a composite: a continual mechanism and its single initial state.
struct SubMechanism {
  std::shared_ptr<const InteractiveMechanism> mechanism;
  StateId initial = 0;
};

/// The composite mechanism and its initial state.
struct CompositeMechanism {
  std::shared_ptr<const InteractiveMechanism> mechanism;
  StateId initial = 0;
};

/// The name of message @p message to sub-mechanism @p index as P writes it: "i:m" (i from 0);
/// the sub-mechanism's answer a comes back to P as "i:a".
std::string sub_message(std::size_t index, const std::string& message);

/// P∘*(M₁, …, M_k) for a deterministic P (HSV Algorithm 1 with ExtConComp on the right;
/// THEOREMS.md A.5, A.10): a left message m is given to P; while P emits to the right a message
/// "i:m′", sub-mechanism i answers m′ from its current state with its own kernel and P reads "i:a"
/// from the right; the first message P emits to the left is the answer. The state is P's state with
/// the tuple of sub-mechanism states, so every engine analysis applies unchanged.
/// Errors (exactdp::Error naming P, its state and the message): P has no step function, the left
/// alphabet is empty, P addresses a sub-mechanism that does not exist or a message outside its
/// alphabet, or P does not answer left within @p max_inner_steps messages to the right
/// (non-termination, as THEOREMS.md A.5 asks).
/// @param processor        P
/// @param left_messages    the adversary's message alphabet of the composite
/// @param subs             the sub-mechanisms, addressed by their index
/// @param max_inner_steps  the most right messages P may send while answering one left message
CompositeMechanism compose_deterministic(DeterministicPostProcessor processor, std::vector<std::string> left_messages,
                                         std::vector<SubMechanism> subs, unsigned max_inner_steps = 64);

/// One answer of a sub-mechanism to a right message, over a value type V (an exact Rational, or a
/// rational function of a parameter for the parametric twins in library/).
template <class V, class SubState>
struct SubOutcome {
  V probability;
  std::string answer;
  SubState next;
};

/// One answer of P∘*(M₁, …, M_k) to a left message: its weight, P's answer to the left, and P's and
/// the sub-mechanisms' states after it.
template <class V, class SubState>
struct ProcessorOutcome {
  V weight;
  std::string answer;
  std::string processor;
  std::vector<SubState> subs;
};

/// Splits P's right message "i:m" into (i, m); std::nullopt when it is not of that form.
std::optional<std::pair<std::size_t, std::string>> split_sub_message(const std::string& message);

/// One left message through P∘*(M₁, …, M_k) (HSV Algorithm 1, THEOREMS.md A.5, A.10), written once
/// over the value type V: compose_deterministic() runs it over exact rationals and the library's
/// parametric composites (library/library_parametric.hpp) over rational functions of a parameter.
/// Every branch of the sub-mechanisms' randomness is explored with its exact weight; @p sub_step(i,
/// state, m) returns sub-mechanism i's outcomes (SubOutcome<V, SubState>) in @p state for message m,
/// or std::nullopt when m is outside its alphabet; @p sub_name(i) names it in errors. Errors as
/// compose_deterministic().
template <class V, class SubState, class SubStep, class SubName>
std::vector<ProcessorOutcome<V, SubState>> run_post_processor(const DeterministicPostProcessor& p, const std::string& state,
                                                              const std::vector<SubState>& subs, const std::string& message,
                                                              SubStep&& sub_step, SubName&& sub_name, unsigned max_inner_steps) {
  struct Branch {
    V weight;
    std::string processor;
    std::vector<SubState> subs;
    Port from;
    std::string message;
    unsigned inner;
  };
  std::vector<ProcessorOutcome<V, SubState>> out;
  std::vector<Branch> work{{V(1), state, subs, Port::left, message, 0}};
  while (!work.empty()) {
    Branch br = std::move(work.back());
    work.pop_back();
    const auto e = p.step(br.processor, br.from, br.message);
    if (e.to == Port::left) {
      out.push_back({std::move(br.weight), e.message, e.next, std::move(br.subs)});
      continue;
    }
    const std::string field = "step(" + br.processor + ")";
    if (br.inner >= max_inner_steps)
      throw Error(p.name, "max_inner_steps", std::to_string(max_inner_steps),
                  "the post-processor did not answer left within the step budget (non-termination?) on message " + message);
    const auto routed = split_sub_message(e.message);
    if (!routed || routed->first >= br.subs.size())
      throw Error(p.name, field, e.message, "a message to the right must be \"i:m\" with i the index of a sub-mechanism");
    const std::size_t i = routed->first;
    auto outcomes = sub_step(i, br.subs[i], routed->second);
    if (!outcomes) throw Error(p.name, field, e.message, "the message is outside the alphabet of sub-mechanism " + sub_name(i));
    for (auto& t : *outcomes) {
      std::vector<SubState> moved = br.subs;
      moved[i] = std::move(t.next);
      work.push_back({br.weight * t.probability, e.next, std::move(moved), Port::right, sub_message(i, t.answer), br.inner + 1});
    }
  }
  return out;
}

/// A composite mechanism as the HSV §6 checker reads it (THEOREMS.md B.17;
/// exactdp::check_composite_conditions() in reduce/complex_mechanism.hpp).
struct CompositeInstance {
  DeterministicPostProcessor processor;  ///< P
  PairRelation input_relation;           ///< f: pairs of left (adversary) messages
  PairRelation output_relation;          ///< f′: pairs of right messages P sends to the sub-mechanisms
  std::vector<std::string> right_answers;  ///< the finite alphabet of sub-mechanism answers
  /// Optional: the answers possible to one right message (e.g. the answer alphabet of the
  /// sub-mechanism it addresses); when set it replaces right_answers, called with P₀'s message.
  std::function<std::vector<std::string>(const std::string& message)> answers_to;
  unsigned horizon = 1;                  ///< messages P receives on every path (left and right together)
  /// Also check the taint rules of the pseudocode form (HSV D6.5, Cor 6.6) reported by a
  /// taint-instrumented P (DeterministicPostProcessor::taint_instrumented), on each copy at every
  /// step before the three conditions; exactdp::Error if P is not instrumented.
  bool taint_rules = false;
  std::uint64_t max_paths = 1'000'000;   ///< refuse (exactdp::Error) beyond this many explored steps
};

}  // namespace exactdp
