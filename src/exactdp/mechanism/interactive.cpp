#include "exactdp/mechanism/interactive.hpp"

#include <algorithm>

namespace exactdp {

namespace interactive_detail {
std::vector<Transition> merge_transitions(std::vector<std::pair<std::pair<AnswerId, StateId>, Rational>> rows) {
  std::map<std::pair<AnswerId, StateId>, Rational> m;
  for (auto& [k, p] : rows) m[k] += p;
  std::vector<Transition> out;
  out.reserve(m.size());
  for (auto& [k, p] : m)
    if (sgn(p) != 0) out.push_back({k.first, k.second, p});
  return out;
}
}  // namespace interactive_detail

std::optional<MessageId> InteractiveMechanism::message_id(const std::string& message) const {
  const auto& ms = messages();
  auto it = std::find(ms.begin(), ms.end(), message);
  if (it == ms.end()) return std::nullopt;
  return static_cast<MessageId>(it - ms.begin());
}

AnswerId TableMechanism::intern_answer(const std::string& answer) {
  auto [it, inserted] = answer_ids_.try_emplace(answer, static_cast<AnswerId>(answers_.size()));
  if (inserted) answers_.push_back(answer);
  return it->second;
}

TableMechanism::TableMechanism(std::string name, std::vector<std::pair<std::string, StateTable>> states,
                               std::vector<std::string> messages)
    : name_(std::move(name)) {
  if (states.empty()) throw Error(name_, "states", "", "a mechanism needs at least one state");
  for (const auto& [s, table] : states) {
    if (!state_ids_.try_emplace(s, static_cast<StateId>(state_names_.size())).second)
      throw Error(name_, "states", s, "state listed twice");
    state_names_.push_back(s);
  }
  // The alphabet: the declared messages, then every message key of a rule, in first-seen order.
  for (auto& m : messages) {
    if (m == "*") throw Error(name_, "messages", m, "\"*\" is the wildcard key, not a message");
    if (std::find(messages_.begin(), messages_.end(), m) == messages_.end()) messages_.push_back(m);
  }
  for (const auto& [s, table] : states)
    for (const auto& [m, rows] : table.rules)
      if (m != "*" && std::find(messages_.begin(), messages_.end(), m) == messages_.end()) messages_.push_back(m);
  if (messages_.empty()) messages_.push_back("*");
  intern_answer(invalid_answer);
  intern_answer(halt_answer);

  steps_.resize(state_names_.size());
  for (const auto& [s, table] : states) {
    StateId id = state_ids_.at(s);
    const std::string field = "states/" + s;
    if (table.halted && !table.rules.empty())
      throw Error(name_, field, "", "a halted state has no rules");
    // Validate every rule once, even when no message of the alphabet uses it.
    std::map<std::string, std::vector<Transition>> compiled;
    for (const auto& [m, rows] : table.rules) {
      Rational total = 0;
      std::vector<std::pair<std::pair<AnswerId, StateId>, Rational>> raw;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& row = rows[i];
        const std::string rf = field + "/" + m + "/" + std::to_string(i);
        if (sgn(row.probability) < 0) throw Error(name_, rf + "/p", to_string(row.probability), "probabilities must be non-negative");
        auto next = state_ids_.find(row.next);
        if (next == state_ids_.end()) throw Error(name_, rf + "/next", row.next, "unknown state");
        total += row.probability;
        raw.push_back({{intern_answer(row.answer), next->second}, row.probability});
      }
      if (total != 1) throw Error(name_, field + "/" + m, to_string(total), "the probabilities of a rule must sum to exactly 1");
      compiled.emplace(m, interactive_detail::merge_transitions(std::move(raw)));
    }
    auto& row = steps_[id];
    row.resize(messages_.size());
    for (MessageId q = 0; q < messages_.size(); ++q) {
      if (table.halted) {
        row[q] = {{answer_ids_.at(halt_answer), id, Rational(1)}};
      } else if (auto it = compiled.find(messages_[q]); it != compiled.end()) {
        row[q] = it->second;
      } else if (auto star = compiled.find("*"); star != compiled.end()) {
        row[q] = star->second;
      } else {
        row[q] = {{answer_ids_.at(invalid_answer), id, Rational(1)}};
      }
    }
  }
}

StateId TableMechanism::state_id(const std::string& state) const {
  auto it = state_ids_.find(state);
  if (it == state_ids_.end()) throw Error(name_, "state", state, "unknown state");
  return it->second;
}

}  // namespace exactdp
