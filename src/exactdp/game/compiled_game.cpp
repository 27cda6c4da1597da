#include "exactdp/game/compiled_game.hpp"

#include "exactdp/game/engine.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

namespace exactdp::engine_detail {

namespace {

/// Hash of a vector of 32-bit words (signatures and table columns).
struct WordsHash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const noexcept {
    std::uint64_t h = 0xcbf29ce484222325ULL ^ v.size();
    for (std::uint32_t x : v) h = (h ^ x) * 0x100000001b3ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

/// Interns probabilities so that rows refer to them by index.
struct ProbabilityPool {
  std::vector<Rational>& values;
  std::unordered_map<Rational, std::uint32_t, RationalHash> index;
  std::uint32_t operator()(const Rational& p) {
    auto [it, inserted] = index.try_emplace(p, static_cast<std::uint32_t>(values.size()));
    if (inserted) values.push_back(p);
    return it->second;
  }
};

/// The verifier states reachable within the horizon, renumbered; the used messages.
void compile_verifier(const Game& game, unsigned horizon, CompiledGame& g) {
  const Verifier& ver = *game.verifier;
  auto& local = g.verifier_local;
  auto intern = [&](VerifierState s) {
    auto [it, inserted] = local.try_emplace(s, static_cast<std::uint32_t>(g.verifier_state.size()));
    if (inserted) g.verifier_state.push_back(s);
    return it->second;
  };
  g.verifier_initial = intern(ver.initial_state());
  std::size_t done = 0;
  for (unsigned d = 0; d < horizon && done < g.verifier_state.size(); ++d) {
    const std::size_t end = g.verifier_state.size();
    for (; done < end; ++done) {
      const VerifierState s = g.verifier_state[done];
      const auto& allowed = ver.allowed(s);
      std::vector<std::uint32_t> next(allowed.size());
      for (std::size_t i = 0; i < allowed.size(); ++i) next[i] = intern(ver.next(s, i));
      g.pairs.push_back(allowed);
      g.verifier_next.push_back(std::move(next));
    }
  }
  // states first reached at depth = horizon are never left: no pairs are needed from them
  for (; done < g.verifier_state.size(); ++done) {
    g.pairs.emplace_back();
    g.verifier_next.emplace_back();
  }
  const std::size_t alphabet = game.mechanism->messages().size();
  g.slot_of.assign(alphabet, -1);
  for (const auto& ps : g.pairs)
    for (const auto& p : ps)
      for (MessageId m : {p.world0, p.world1}) {
        if (m >= alphabet) throw Error(game.name.empty() ? "game" : game.name, "neighbours", std::to_string(m), "the verifier uses a message id outside the mechanism's alphabet");
        if (g.slot_of[m] < 0) {
          g.slot_of[m] = static_cast<std::int32_t>(g.messages.size());
          g.messages.push_back(m);
        }
      }
}

/// The mechanism's kernel as read once, by local state and message slot: rows
/// rows[offsets[s·M + k] … offsets[s·M + k + 1]) in the mechanism's order, the next state local,
/// the probability interned. The partition refinement of every level reads this table instead of
/// asking the mechanism again (and merging exact probabilities in ordered maps) for every state
/// at every level: that was most of the compilation's time.
struct RawKernel {
  std::vector<std::uint32_t> offsets{0};
  std::vector<CompiledTransition> rows;  // next: a local state
};

/// The mechanism states reachable within horizon − 1 steps (expanded) and their successors, and
/// the kernel of the expanded states.
void explore_mechanism(const Game& game, const CompileOptions& options, CompiledGame& g, ProbabilityPool& pool, RawKernel& raw) {
  const InteractiveMechanism& mech = *game.mechanism;
  auto intern = [&](StateId s, std::uint32_t d) {
    auto [it, inserted] = g.local_of.try_emplace(s, static_cast<std::uint32_t>(g.states.size()));
    if (inserted) {
      if (g.states.size() >= options.max_states)
        throw GameTooLarge("compile_game", g.states.size(), options.max_states, "mechanism states reachable within the horizon");
      g.states.push_back(s);
      g.depth.push_back(d);
    }
  };
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, p] : game.initial[b]) intern(s, 0);
  std::size_t done = 0;
  std::uint64_t steps = 0;
  for (unsigned d = 0; d + 1 <= options.horizon; ++d) {
    const std::size_t end = g.states.size();
    for (; done < end; ++done)
      for (MessageId m : g.messages) {
        if (++steps > options.max_steps)
          throw GameTooLarge("compile_game", steps, options.max_steps, "kernels read from the mechanism", "max_steps",
                             "the size estimate's compilation budget");
        for (const auto& t : mech.step(g.states[done], m)) {
          intern(t.next, d + 1);
          raw.rows.push_back({t.answer, g.local_of.at(t.next), pool(t.probability)});
        }
        if (raw.rows.size() > options.max_rows)
          throw GameTooLarge("compile_game", raw.rows.size(), options.max_rows, "kernel rows read from the mechanism", "max_rows",
                             "the size estimate's compilation budget");
        raw.offsets.push_back(static_cast<std::uint32_t>(raw.rows.size()));
      }
    if (options.on_depth) options.on_depth(d + 1, g.states.size());
  }
}

/// The rows of expanded state @p s under message slot @p k with the next states mapped to their
/// classes in @p below, sorted by (answer, class) and equal pairs merged (probabilities summed),
/// appended to @p out.
void merged_rows(const CompiledGame& g, const RawKernel& raw, std::uint32_t s, std::size_t k, const std::vector<std::uint32_t>& below,
                 ProbabilityPool& pool, std::vector<CompiledTransition>& out) {
  const std::size_t i = static_cast<std::size_t>(s) * g.messages.size() + k;
  const std::size_t first = out.size();
  for (std::uint32_t j = raw.offsets[i]; j < raw.offsets[i + 1]; ++j) out.push_back({raw.rows[j].answer, below[raw.rows[j].next], raw.rows[j].prob});
  auto key = [](const CompiledTransition& t) { return std::pair(t.answer, t.next); };
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
            [&](const CompiledTransition& a, const CompiledTransition& b) { return key(a) < key(b); });
  std::size_t w = first;
  Rational sum;
  for (std::size_t r = first; r < out.size();) {
    std::size_t e = r + 1;
    while (e < out.size() && key(out[e]) == key(out[r])) ++e;
    CompiledTransition t = out[r];
    if (e - r > 1) {
      sum = 0;
      for (std::size_t x = r; x < e; ++x) sum += g.probs[out[x].prob];
      t.prob = pool(sum);
    }
    out[w++] = t;
    r = e;
  }
  out.resize(w);
}

/// The level-r table of a partition: each class's rows from one representative, the next states
/// mapped to their level-(r−1) classes and merged.
LevelTable level_table(const CompiledGame& g, const RawKernel& raw, unsigned r, const std::vector<std::uint32_t>& representative,
                       ProbabilityPool& pool) {
  const auto& below = g.class_of[r - 1];
  LevelTable t;
  t.classes = static_cast<std::uint32_t>(representative.size());
  t.offsets.reserve(representative.size() * g.messages.size() + 1);
  t.offsets.push_back(0);
  for (std::uint32_t rep : representative)
    for (std::size_t k = 0; k < g.messages.size(); ++k) {
      merged_rows(g, raw, rep, k, below, pool, t.rows);
      t.offsets.push_back(static_cast<std::uint32_t>(t.rows.size()));
    }
  return t;
}

/// ≡_r from ≡_{r−1}: the class of a state is the id of its signature (its merged rows).
void refine_level(const RawKernel& raw, CompiledGame& g, unsigned r, ProbabilityPool& pool) {
  const auto& below = g.class_of[r - 1];
  auto& classes = g.class_of[r];
  classes.assign(g.states.size(), CompiledGame::no_class);
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, WordsHash> ids;
  std::vector<std::uint32_t> representative, sig;
  std::vector<CompiledTransition> rows;
  for (std::uint32_t s = 0; s < g.states.size(); ++s) {
    if (g.depth[s] + r > g.horizon) continue;
    sig.clear();
    for (std::size_t k = 0; k < g.messages.size(); ++k) {
      rows.clear();
      merged_rows(g, raw, s, k, below, pool, rows);
      sig.push_back(static_cast<std::uint32_t>(rows.size()));
      for (const auto& t : rows) sig.insert(sig.end(), {t.answer, t.next, t.prob});
    }
    auto [it, inserted] = ids.try_emplace(sig, static_cast<std::uint32_t>(representative.size()));
    if (inserted) representative.push_back(s);
    classes[s] = it->second;
  }
  g.table_store.push_back(level_table(g, raw, r, representative, pool));
}

/// Message symmetry at level r: slots whose columns of the level table agree act identically.
std::vector<std::uint32_t> message_classes(const CompiledGame& g, unsigned r) {
  const LevelTable& t = *g.tables[r];
  const std::size_t slots = g.messages.size();
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, WordsHash> ids;
  std::vector<std::uint32_t> out(slots);
  for (std::size_t k = 0; k < slots; ++k) {
    std::vector<std::uint32_t> column;
    for (std::uint32_t c = 0; c < t.classes; ++c) {
      const auto [b, e] = g.rows(r, c, static_cast<std::uint32_t>(k));
      column.push_back(static_cast<std::uint32_t>(e - b));
      for (auto* row = b; row != e; ++row) column.insert(column.end(), {row->answer, row->next, row->prob});
    }
    out[k] = ids.try_emplace(std::move(column), static_cast<std::uint32_t>(ids.size())).first->second;
  }
  return out;
}

void keep_actions(CompiledGame& g) {
  g.kept_actions.assign(g.horizon + 1, {});
  for (unsigned r = 1; r <= g.horizon; ++r) {
    std::vector<std::uint32_t> mc;
    if (g.reduced) mc = message_classes(g, r);
    auto& level = g.kept_actions[r];
    level.resize(g.pairs.size());
    for (std::size_t s = 0; s < g.pairs.size(); ++s) {
      std::map<std::array<std::uint32_t, 3>, bool> seen;
      for (std::uint32_t i = 0; i < g.pairs[s].size(); ++i) {
        const MessagePair& p = g.pairs[s][i];
        if (g.reduced) {
          const std::array<std::uint32_t, 3> sig{g.verifier_next[s][i], mc[static_cast<std::size_t>(g.slot_of[p.world0])],
                                                 mc[static_cast<std::size_t>(g.slot_of[p.world1])]};
          if (!seen.emplace(sig, true).second) {
            ++g.stats.actions_dropped;
            continue;
          }
        }
        level[s].push_back(i);
      }
    }
  }
}

}  // namespace

std::uint32_t CompiledGame::class_at(unsigned r, StateId state) const {
  const auto it = local_of.find(state);
  const std::uint32_t c = it == local_of.end() ? no_class : class_of.at(r)[it->second];
  if (c == no_class)
    throw Error("game engine", "state", std::to_string(state), "the state is not reachable within the horizon at this depth");
  return c;
}

CompiledGame compile_game(const Game& game, const CompileOptions& options) {
  game.validate();
  CompiledGame g;
  g.horizon = options.horizon;
  g.reduced = options.reduce;
  compile_verifier(game, options.horizon, g);
  ProbabilityPool pool{g.probs, {}};
  RawKernel raw;
  explore_mechanism(game, options, g, pool, raw);
  g.class_of.assign(g.horizon + 1, {});
  g.table_store.reserve(g.horizon + 1);
  g.table_store.emplace_back();  // level 0 has no table
  if (g.reduced) {
    g.class_of[0].assign(g.states.size(), 0);
    for (unsigned r = 1; r <= g.horizon; ++r) refine_level(raw, g, r, pool);
  } else {
    // every state its own class; one table serves every level
    for (unsigned r = 0; r <= g.horizon; ++r) {
      g.class_of[r].resize(g.states.size());
      for (std::uint32_t s = 0; s < g.states.size(); ++s) g.class_of[r][s] = g.depth[s] + r <= g.horizon ? s : CompiledGame::no_class;
    }
    if (g.horizon >= 1) {
      // rows of unexpanded states (depth = horizon) are never read and left empty
      LevelTable t;
      t.classes = static_cast<std::uint32_t>(g.states.size());
      t.offsets.push_back(0);
      // the expanded states are the first ones (explored breadth first), their rows as read
      for (std::uint32_t s = 0; s < g.states.size(); ++s)
        for (std::size_t k = 0; k < g.messages.size(); ++k) {
          const std::size_t i = static_cast<std::size_t>(s) * g.messages.size() + k;
          if (g.depth[s] < g.horizon) t.rows.insert(t.rows.end(), raw.rows.begin() + raw.offsets[i], raw.rows.begin() + raw.offsets[i + 1]);
          t.offsets.push_back(static_cast<std::uint32_t>(t.rows.size()));
        }
      g.table_store.push_back(std::move(t));
    }
  }
  g.tables.assign(g.horizon + 1, nullptr);
  for (unsigned r = 1; r <= g.horizon; ++r) g.tables[r] = g.reduced ? &g.table_store[r] : &g.table_store[1];
  for (unsigned r = 1; r <= g.horizon; ++r) g.stats.classes += g.tables[r]->classes;
  g.stats.states = g.states.size();
  keep_actions(g);
  return g;
}

}  // namespace exactdp::engine_detail
