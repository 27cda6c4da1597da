#include "exactdp/game/structure.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace exactdp {
namespace {

/// One state's behaviour against a partition: per message, the mass of every (answer, class).
using Signature = std::vector<std::tuple<MessageId, AnswerId, std::uint32_t, Rational>>;

Signature signature(const InteractiveMechanism& m, StateId s, const std::vector<std::uint32_t>& class_of) {
  Signature sig;
  for (MessageId q = 0; q < m.messages().size(); ++q) {
    std::map<std::pair<AnswerId, std::uint32_t>, Rational> mass;
    for (const auto& t : m.step(s, q)) mass[{t.answer, class_of.at(t.next)}] += t.probability;
    for (const auto& [key, p] : mass)
      if (sgn(p) != 0) sig.emplace_back(q, key.first, key.second, p);
  }
  return sig;
}

}  // namespace

MechanismStructure analyse_structure(const InteractiveMechanism& m, std::size_t state_count, const std::array<InitialLaw, 2>& initial,
                                     std::size_t max_work) {
  MechanismStructure out;
  // reachability, breadth-first over every message of the alphabet
  std::vector<bool> seen(state_count, false);
  auto discover = [&](StateId s) {
    if (!seen.at(s)) {
      seen[s] = true;
      out.reachable.push_back(s);
    }
  };
  for (const auto& law : initial)
    for (const auto& [s, p] : law) discover(s);
  for (std::size_t i = 0; i < out.reachable.size(); ++i)
    for (MessageId q = 0; q < m.messages().size(); ++q)
      for (const auto& t : m.step(out.reachable[i], q))
        if (sgn(t.probability) != 0) discover(t.next);
  for (StateId s = 0; s < state_count; ++s)
    if (!seen[s]) out.unreachable.push_back(s);
  out.halted.assign(state_count, false);
  for (StateId s = 0; s < state_count; ++s) {
    bool h = !m.messages().empty();
    for (MessageId q = 0; q < m.messages().size() && h; ++q) {
      const auto& row = m.step(s, q);
      h = row.size() == 1 && row[0].next == s && m.answer_name(row[0].answer) == halt_answer;
    }
    out.halted[s] = h;
  }

  // bisimulation: refine the one-class partition until it is stable
  constexpr std::uint32_t none = 0xffffffffu;
  std::vector<std::uint32_t> class_of(state_count, none);
  for (StateId s : out.reachable) class_of[s] = 0;
  std::size_t rows = 0;
  for (StateId s : out.reachable)
    for (MessageId q = 0; q < m.messages().size(); ++q) rows += m.step(s, q).size();
  std::size_t classes = 1, work = 0;
  for (;;) {
    work += rows;
    if (work > max_work) {
      out.complete = false;
      return out;
    }
    std::map<std::pair<std::uint32_t, Signature>, std::uint32_t> ids;
    std::vector<std::uint32_t> next(state_count, none);
    for (StateId s : out.reachable) {
      auto key = std::make_pair(class_of[s], signature(m, s, class_of));
      auto [it, fresh] = ids.emplace(std::move(key), static_cast<std::uint32_t>(ids.size()));
      next[s] = it->second;
    }
    class_of = std::move(next);
    if (ids.size() == classes) break;
    classes = ids.size();
  }
  std::map<std::uint32_t, std::vector<StateId>> members;
  for (StateId s : out.reachable) members[class_of[s]].push_back(s);
  for (auto& [c, list] : members)
    if (list.size() > 1) {
      std::sort(list.begin(), list.end());
      out.bisimilar.push_back(std::move(list));
    }
  std::sort(out.bisimilar.begin(), out.bisimilar.end());

  // answers: each answer's masses per (message, state, class), scaled so that the first non-zero
  // one is 1; equal scaled tables are indistinguishable (see the header). One factor for all
  // messages: with pair relations the two worlds receive different messages in one round, and a
  // factor that depended on the message would not cancel between them.
  std::map<AnswerId, std::map<MessageId, std::vector<std::tuple<StateId, std::uint32_t, Rational>>>> by_answer;
  for (StateId s : out.reachable)
    for (MessageId q = 0; q < m.messages().size(); ++q) {
      std::map<std::pair<AnswerId, std::uint32_t>, Rational> mass;
      for (const auto& t : m.step(s, q)) mass[{t.answer, class_of.at(t.next)}] += t.probability;
      for (const auto& [key, p] : mass)
        if (sgn(p) != 0) by_answer[key.first][q].emplace_back(s, key.second, p);
    }
  std::map<std::vector<std::tuple<MessageId, StateId, std::uint32_t, Rational>>, std::vector<AnswerId>> groups;
  for (auto& [a, per_message] : by_answer) {
    std::vector<std::tuple<MessageId, StateId, std::uint32_t, Rational>> scaled;
    for (auto& [q, entries] : per_message) {
      std::sort(entries.begin(), entries.end());
      for (const auto& [s, c, p] : entries) scaled.emplace_back(q, s, c, p);
    }
    const Rational first = std::get<3>(scaled.front());
    for (auto& e : scaled) std::get<3>(e) /= first;
    groups[std::move(scaled)].push_back(a);
  }
  for (auto& [key, answers] : groups)
    if (answers.size() > 1) {
      std::sort(answers.begin(), answers.end());
      out.indistinguishable.push_back(std::move(answers));
    }
  std::sort(out.indistinguishable.begin(), out.indistinguishable.end());
  return out;
}

}  // namespace exactdp
