#include "exactdp/compose/concurrent.hpp"

#include "exactdp/core/error.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace exactdp {

std::string routed_name(std::size_t component, const std::string& message) {
  return std::to_string(component) + ":" + message;
}

std::optional<std::pair<std::size_t, std::string>> parse_routed_name(const std::string& name) {
  std::size_t i = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i]))) ++i;
  if (i == 0 || i > 9 || i >= name.size() || name[i] != ':') return std::nullopt;
  return std::make_pair(static_cast<std::size_t>(std::stoul(name.substr(0, i))), name.substr(i + 1));
}

// ------------------------------------------------------------------ ConcurrentMechanism

std::size_t ConcurrentMechanism::TupleHash::operator()(const std::vector<StateId>& t) const noexcept {
  std::size_t h = t.size();
  for (StateId s : t) h ^= std::hash<StateId>{}(s) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h;
}

ConcurrentMechanism::ConcurrentMechanism(std::vector<std::shared_ptr<const InteractiveMechanism>> components, std::string name)
    : components_(std::move(components)), name_(std::move(name)) {
  if (components_.empty()) throw Error("concurrent composition", "components", "[]", "needs at least one component");
  std::string joined;
  for (std::size_t i = 0; i < components_.size(); ++i) {
    if (!components_[i]) throw Error("concurrent composition", "components/" + std::to_string(i), "null", "a component is missing");
    joined += (i ? " ⊗ " : "") + components_[i]->name();
    offsets_.push_back(static_cast<MessageId>(messages_.size()));
    const auto& ms = components_[i]->messages();
    for (MessageId m = 0; m < ms.size(); ++m) {
      messages_.push_back(routed_name(i, ms[m]));
      routes_.emplace_back(i, m);
    }
  }
  if (name_.empty()) name_ = joined;
  answers_ = {invalid_answer, halt_answer};
}

StateId ConcurrentMechanism::state_id(const std::vector<StateId>& tuple) const {
  if (tuple.size() != components_.size())
    throw Error(name_, "state", std::to_string(tuple.size()), "a composed state has one coordinate per component");
  auto [it, inserted] = tuple_ids_.try_emplace(tuple, static_cast<StateId>(tuples_.size()));
  if (inserted) {
    tuples_.push_back(tuple);
    cache_.emplace_back(messages_.size());
  }
  return it->second;
}

std::string ConcurrentMechanism::state_name(StateId state) const {
  const auto& t = tuples_.at(state);
  std::string s = "(";
  for (std::size_t i = 0; i < t.size(); ++i) s += (i ? ", " : "") + components_[i]->state_name(t[i]);
  return s + ")";
}

AnswerId ConcurrentMechanism::intern_answer(std::size_t component, AnswerId inner) const {
  auto [it, inserted] = answer_ids_.try_emplace({component, inner}, static_cast<AnswerId>(answers_.size()));
  if (inserted) answers_.push_back(routed_name(component, components_[component]->answer_name(inner)));
  return it->second;
}

const std::vector<Transition>& ConcurrentMechanism::step(StateId state, MessageId message) const {
  auto& slot = cache_.at(state).at(message);
  if (slot) return *slot;
  const auto [i, inner] = routes_.at(message);
  std::vector<StateId> tuple = tuples_.at(state);  // copy: interning may reallocate
  const StateId own = tuple[i];
  std::vector<std::pair<std::pair<AnswerId, StateId>, Rational>> rows;
  for (const auto& t : components_[i]->step(own, inner)) {
    tuple[i] = t.next;
    rows.push_back({{intern_answer(i, t.answer), state_id(tuple)}, t.probability});
  }
  auto merged = interactive_detail::merge_transitions(std::move(rows));
  auto& fresh = cache_.at(state).at(message);  // cache_ may have grown
  fresh = std::make_unique<std::vector<Transition>>(std::move(merged));
  return *fresh;
}

// ------------------------------------------------------------------ ProductVerifier

ProductVerifier::ProductVerifier(std::vector<std::shared_ptr<const Verifier>> components,
                                 std::shared_ptr<const ConcurrentMechanism> mechanism, std::vector<unsigned> limits)
    : components_(std::move(components)), mechanism_(std::move(mechanism)), limits_(std::move(limits)) {
  if (!mechanism_) throw Error("product verifier", "mechanism", "null", "the composition is missing");
  if (components_.size() != mechanism_->size())
    throw Error("product verifier", "components", std::to_string(components_.size()),
                "one verifier per component of the composition (" + std::to_string(mechanism_->size()) + ")");
  std::vector<VerifierState> init;
  for (std::size_t i = 0; i < components_.size(); ++i) {
    if (!components_[i]) throw Error("product verifier", "components/" + std::to_string(i), "null", "a verifier is missing");
    init.push_back(components_[i]->initial_state());
  }
  if (!limits_.empty()) {
    if (limits_.size() != components_.size())
      throw Error("product verifier", "limits", std::to_string(limits_.size()), "one round limit per component");
    init.resize(2 * components_.size(), 0);  // the second half counts the messages per component
  }
  initial_ = intern(std::move(init));
}

VerifierState ProductVerifier::intern(std::vector<VerifierState> tuple) const {
  auto [it, inserted] = ids_.try_emplace(tuple, static_cast<VerifierState>(nodes_.size()));
  if (!inserted) return it->second;
  auto node = std::make_unique<Node>();
  for (std::size_t i = 0; i < components_.size(); ++i) {
    if (!limits_.empty() && tuple[components_.size() + i] >= limits_[i]) continue;
    const auto& ps = components_[i]->allowed(tuple[i]);
    for (std::size_t a = 0; a < ps.size(); ++a) {
      node->pairs.push_back({mechanism_->message_of(i, ps[a].world0), mechanism_->message_of(i, ps[a].world1)});
      node->origin.emplace_back(i, a);
    }
  }
  node->tuple = std::move(tuple);
  nodes_.push_back(std::move(node));
  return it->second;
}

const std::vector<MessagePair>& ProductVerifier::allowed(VerifierState state) const { return nodes_.at(state)->pairs; }

VerifierState ProductVerifier::next(VerifierState state, std::size_t action) const {
  const auto [i, a] = nodes_.at(state)->origin.at(action);
  std::vector<VerifierState> tuple = nodes_.at(state)->tuple;
  tuple[i] = components_[i]->next(tuple[i], a);
  if (!limits_.empty()) ++tuple[components_.size() + i];
  return intern(std::move(tuple));
}

std::string ProductVerifier::describe() const {
  std::string s = "concurrent composition of [";
  for (std::size_t i = 0; i < components_.size(); ++i) s += (i ? "; " : "") + components_[i]->describe();
  return s + "]";
}

// ------------------------------------------------------------------ concurrent games

Game concurrent(const std::vector<Game>& components, std::string name) {
  if (components.empty()) throw Error("concurrent", "components", "[]", "needs at least one component");
  std::vector<std::shared_ptr<const InteractiveMechanism>> mechs;
  std::vector<std::shared_ptr<const Verifier>> verifiers;
  std::vector<unsigned> limits;
  unsigned horizon = 0;
  for (const auto& g : components) {
    g.validate();
    mechs.push_back(g.mechanism);
    verifiers.push_back(g.verifier);
    limits.push_back(g.horizon);
    horizon += g.horizon;
  }
  auto mech = std::make_shared<ConcurrentMechanism>(std::move(mechs), name);
  Game out;
  out.name = mech->name();
  out.mechanism = mech;
  out.verifier = std::make_shared<ProductVerifier>(std::move(verifiers), mech, std::move(limits));
  out.world_names = components.front().world_names;
  out.horizon = horizon;
  // world b: the product of the components' world-b laws (independent coins)
  for (int b = 0; b < 2; ++b) {
    std::vector<std::pair<std::vector<StateId>, Rational>> law{{{}, Rational(1)}};
    for (const auto& g : components) {
      std::vector<std::pair<std::vector<StateId>, Rational>> next;
      for (const auto& [t, p] : law)
        for (const auto& [s, q] : g.initial[std::size_t(b)]) {
          auto u = t;
          u.push_back(s);
          next.emplace_back(std::move(u), p * q);
        }
      law = std::move(next);
    }
    for (const auto& [t, p] : law) out.initial[std::size_t(b)].push_back({mech->state_id(t), p});
  }
  out.validate();
  return out;
}

// ------------------------------------------------------------------ sequential adversaries

SequentialVerifier::SequentialVerifier(std::shared_ptr<const Verifier> inner, std::shared_ptr<const InteractiveMechanism> mechanism)
    : inner_(std::move(inner)), mechanism_(std::move(mechanism)) {
  if (!inner_ || !mechanism_) throw Error("sequential verifier", "inner", "null", "the verifier and the mechanism are required");
  for (const auto& m : mechanism_->messages()) {
    auto r = parse_routed_name(m);
    if (r && r->first >= 64) throw Error("sequential verifier", "messages", m, "at most 64 components are supported");
    component_.push_back(r ? std::optional<std::size_t>(r->first) : std::nullopt);
  }
  initial_ = intern(inner_->initial_state(), -1, 0);
}

VerifierState SequentialVerifier::intern(VerifierState inner, int current, std::uint64_t finished) const {
  auto [it, inserted] = ids_.try_emplace({inner, current, finished}, static_cast<VerifierState>(nodes_.size()));
  if (!inserted) return it->second;
  auto node = std::make_unique<Node>();
  node->inner = inner;
  node->current = current;
  node->finished = finished;
  const auto& ps = inner_->allowed(inner);
  for (std::size_t a = 0; a < ps.size(); ++a) {
    const auto c0 = component_.at(ps[a].world0), c1 = component_.at(ps[a].world1);
    if (c0 != c1) continue;  // a pair split over two components is not sequential
    if (c0 && (finished >> *c0) & 1U) continue;
    node->pairs.push_back(ps[a]);
    node->inner_action.push_back(a);
  }
  node->next.assign(node->pairs.size(), std::numeric_limits<VerifierState>::max());
  nodes_.push_back(std::move(node));
  return it->second;
}

const std::vector<MessagePair>& SequentialVerifier::allowed(VerifierState state) const { return nodes_.at(state)->pairs; }

VerifierState SequentialVerifier::next(VerifierState state, std::size_t action) const {
  Node& n = *nodes_.at(state);
  if (n.next.at(action) != std::numeric_limits<VerifierState>::max()) return n.next[action];
  const VerifierState inner = inner_->next(n.inner, n.inner_action[action]);
  int current = n.current;
  std::uint64_t finished = n.finished;
  if (const auto c = component_.at(n.pairs[action].world0); c && static_cast<int>(*c) != current) {
    if (current >= 0) finished |= std::uint64_t(1) << current;  // leaving a component finishes it
    current = static_cast<int>(*c);
  }
  const VerifierState out = intern(inner, current, finished);
  nodes_.at(state)->next[action] = out;  // nodes_ may have grown; the node itself did not move
  return out;
}

Game sequential_adversaries(const Game& game) {
  game.validate();
  Game g = game;
  g.verifier = std::make_shared<SequentialVerifier>(game.verifier, game.mechanism);
  return g;
}

}  // namespace exactdp
