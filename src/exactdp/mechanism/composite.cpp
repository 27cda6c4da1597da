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

std::optional<std::pair<std::size_t, std::string>> split_sub_message(const std::string& s) {
  const auto colon = s.find(':');
  if (colon == 0 || colon == std::string::npos || colon > 6) return std::nullopt;
  for (std::size_t k = 0; k < colon; ++k)
    if (s[k] < '0' || s[k] > '9') return std::nullopt;
  return std::make_pair(static_cast<std::size_t>(std::stoul(s.substr(0, colon))), s.substr(colon + 1));
}

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
    auto sub_step = [&](std::size_t i, StateId state, const std::string& m) -> std::optional<std::vector<SubOutcome<Rational, StateId>>> {
      const auto& sub = *(*parts)[i].mechanism;
      const auto id = sub.message_id(m);
      if (!id) return std::nullopt;
      std::vector<SubOutcome<Rational, StateId>> out;
      for (const auto& t : sub.step(state, *id)) out.push_back({t.probability, sub.answer_name(t.answer), t.next});
      return out;
    };
    auto sub_name = [&](std::size_t i) { return (*parts)[i].mechanism->name(); };
    std::vector<Outcome<CompositeState>> out;
    for (auto& o : run_post_processor<Rational, StateId>(*p, s.processor, s.subs, message, sub_step, sub_name, max_inner_steps))
      out.push_back({std::move(o.weight), std::move(o.answer), CompositeState{std::move(o.processor), std::move(o.subs)}});
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
