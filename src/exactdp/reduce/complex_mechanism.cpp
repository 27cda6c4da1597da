#include "exactdp/reduce/complex_mechanism.hpp"

#include <algorithm>
#include <deque>
#include <unordered_set>

namespace exactdp {

namespace {

struct Config {
  std::string s0, s1, sigma, sigma_out;
  Port awaiting = Port::left;
  std::string pending;  // the right message P₀ sent last (what the answer replies to)
  unsigned depth = 0;
  std::vector<std::string> trace;
  std::string key() const {
    const char sep = '\x1f';
    return s0 + sep + s1 + sep + sigma + sep + sigma_out + sep + (awaiting == Port::left ? "L" : "R") + sep + pending + sep +
           std::to_string(depth);
  }
};

std::string port_name(Port p) { return p == Port::left ? "left" : "right"; }

std::string show(const DeterministicPostProcessor::Emit& e) { return "send " + port_name(e.to) + " \"" + e.message + "\""; }

}  // namespace

CompositeCheck check_composite_conditions(const CompositeInstance& in) {
  const auto& P = in.processor;
  if (!P.step) throw Error("check_composite_conditions", P.name, "step", "the post-processor has no step function");
  if (!in.input_relation.allowed || !in.input_relation.next)
    throw Error("check_composite_conditions", P.name, "input_relation", "the input relation f needs allowed() and next()");
  if (!in.output_relation.decide && !(in.output_relation.allowed && in.output_relation.next))
    throw Error("check_composite_conditions", P.name, "output_relation", "the output relation f' needs decide(), or allowed() and next()");
  if (in.taint_rules && !P.taint_instrumented)
    throw Error("check_composite_conditions", P.name, "taint_rules", "the post-processor is not taint-instrumented");
  CompositeCheck out;
  std::unordered_set<std::string> seen;
  // breadth first, so that the violation reported is one with the fewest inputs
  std::deque<Config> queue{Config{P.initial, P.initial, in.input_relation.initial, in.output_relation.initial, Port::left, "", 0, {}}};
  while (!queue.empty()) {
    Config c = std::move(queue.front());
    queue.pop_front();
    if (c.depth == in.horizon) continue;
    if (!seen.insert(c.key()).second) continue;
    ++out.configurations;
    // the inputs possible here: an f-allowed left pair, or a common right answer
    std::vector<std::pair<std::pair<std::string, std::string>, std::string>> inputs;  // ((m0, m1), label)
    if (c.awaiting == Port::left) {
      for (const auto& pr : in.input_relation.allowed(c.sigma))
        inputs.push_back({pr, "left (" + pr.first + ", " + pr.second + ")"});
    } else {
      for (const auto& a : in.answers_to ? in.answers_to(c.pending) : in.right_answers) inputs.push_back({{a, a}, "right " + a});
    }
    for (const auto& [pr, label] : inputs) {
      if (++out.steps_checked > in.max_paths)
        throw Error("check_composite_conditions", P.name, std::to_string(in.max_paths),
                    "more paired steps than max_paths; lower the horizon or the alphabets");
      const auto e0 = P.step(c.s0, c.awaiting, pr.first);
      const auto e1 = P.step(c.s1, c.awaiting, pr.second);
      std::vector<std::string> trace = c.trace;
      trace.push_back(label);
      auto fail = [&](const std::string& condition) {
        out.violation = CompositeViolation{condition, trace, "P0: " + show(e0) + "; P1: " + show(e1)};
        return out;
      };
      if (in.taint_rules && (!e0.taint.empty() || !e1.taint.empty())) {
        fail("taint");
        out.violation->detail = (e0.taint.empty() ? e1.taint : e0.taint) + " (" + out.violation->detail + ")";
        return out;
      }
      if (e0.to != e1.to) return fail("destination");
      if (e0.to == Port::left && e0.message != e1.message) return fail("response");
      Config next{e0.next, e1.next, c.sigma, c.sigma_out, e0.to, "", c.depth + 1, trace};
      if (c.awaiting == Port::left) next.sigma = in.input_relation.next(c.sigma, pr);
      if (e0.to == Port::right) {
        const auto after = in.output_relation.transition(c.sigma_out, {e0.message, e1.message});
        if (!after) return fail("f -> f'");
        next.sigma_out = *after;
        next.pending = e0.message;
      }
      queue.push_back(std::move(next));
    }
  }
  out.holds = true;
  return out;
}

}  // namespace exactdp
