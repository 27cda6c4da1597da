// Composite mechanisms P∘*(M₁, …, M_k) with a deterministic post-processor P (HSV §6, A.10).
#include "exactdp/mechanism/composite.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>

namespace exactdp {

std::optional<std::string> PairRelation::transition(const std::string& sigma, const Pair& pair) const {
  if (decide) return decide(sigma, pair);
  if (!allowed || !next) throw Error("PairRelation", "transition", sigma, "the relation has neither decide() nor allowed() and next()");
  const auto pairs = allowed(sigma);
  if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) return std::nullopt;
  return next(sigma, pair);
}

std::string sub_message(std::size_t index, const std::string& message) { return std::to_string(index) + ":" + message; }

namespace {

struct CompositeState {
  std::string processor;
  std::vector<StateId> subs;
  friend bool operator==(const CompositeState&, const CompositeState&) = default;
};

struct CompositeStateHash {
  std::size_t operator()(const CompositeState& s) const noexcept {
    std::size_t h = std::hash<std::string>{}(s.processor);
    for (StateId x : s.subs) h ^= std::hash<StateId>{}(x) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

/// "i:m" → (i, m), or std::nullopt.
std::optional<std::pair<std::size_t, std::string>> split_sub_message(const std::string& s) {
  const auto colon = s.find(':');
  if (colon == 0 || colon == std::string::npos || colon > 6) return std::nullopt;
  for (std::size_t k = 0; k < colon; ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  return std::make_pair(static_cast<std::size_t>(std::stoul(s.substr(0, colon))), s.substr(colon + 1));
}

}  // namespace

CompositeMechanism compose_deterministic(DeterministicPostProcessor processor, std::vector<std::string> left_messages,
                                         std::vector<SubMechanism> subs, unsigned max_inner_steps) {
  if (!processor.step) throw Error("compose_deterministic", processor.name, "", "the post-processor has no step function");
  if (left_messages.empty()) throw Error("compose_deterministic", processor.name, "left_messages", "the left alphabet is empty");
  for (std::size_t i = 0; i < subs.size(); ++i)
    if (!subs[i].mechanism) throw Error("compose_deterministic", processor.name, "subs/" + std::to_string(i), "a sub-mechanism is missing");
  auto p = std::make_shared<const DeterministicPostProcessor>(std::move(processor));
  auto parts = std::make_shared<const std::vector<SubMechanism>>(std::move(subs));
  auto step = [p, parts, max_inner_steps](const CompositeState& s, const std::string& message) -> std::vector<Outcome<CompositeState>> {
    // HSV Algorithm 1, exploring every branch of the sub-mechanisms' randomness with exact weights.
    struct Branch {
      Rational weight;
      CompositeState state;
      Port from;
      std::string message;
      unsigned inner;
    };
    std::vector<Outcome<CompositeState>> out;
    std::vector<Branch> work{{Rational(1), s, Port::left, message, 0}};
    while (!work.empty()) {
      Branch br = std::move(work.back());
      work.pop_back();
      const auto e = p->step(br.state.processor, br.from, br.message);
      CompositeState next{e.next, br.state.subs};
      if (e.to == Port::left) {
        out.push_back({br.weight, e.message, std::move(next)});
        continue;
      }
      const std::string field = "step(" + br.state.processor + ")";
      if (br.inner >= max_inner_steps)
        throw Error(p->name, "max_inner_steps", std::to_string(max_inner_steps),
                    "the post-processor did not answer left within the step budget (non-termination?) on message " + message);
      const auto routed = split_sub_message(e.message);
      if (!routed || routed->first >= parts->size())
        throw Error(p->name, field, e.message, "a message to the right must be \"i:m\" with i the index of a sub-mechanism");
      const auto& sub = *(*parts)[routed->first].mechanism;
      const auto id = sub.message_id(routed->second);
      if (!id) throw Error(p->name, field, e.message, "the message is outside the alphabet of sub-mechanism " + sub.name());
      for (const auto& t : sub.step(br.state.subs[routed->first], *id)) {
        CompositeState moved = next;
        moved.subs[routed->first] = t.next;
        work.push_back({br.weight * t.probability, std::move(moved), Port::right, sub_message(routed->first, sub.answer_name(t.answer)),
                        br.inner + 1});
      }
    }
    return out;
  };
  auto show = [parts](const CompositeState& s) {
    std::string out = "(" + s.processor;
    for (std::size_t i = 0; i < s.subs.size(); ++i) out += "; " + (*parts)[i].mechanism->state_name(s.subs[i]);
    return out + ")";
  };
  std::string name = p->name + " ∘ (";
  for (std::size_t i = 0; i < parts->size(); ++i) name += (i ? ", " : "") + (*parts)[i].mechanism->name();
  name += ")";
  auto mech = std::make_shared<LambdaMechanism<CompositeState, CompositeStateHash>>(name, std::move(left_messages), step, show);
  CompositeState start{p->initial, {}};
  for (const auto& sub : *parts) start.subs.push_back(sub.initial);
  const StateId initial = mech->state_id(start);
  return {mech, initial};
}

}  // namespace exactdp
