// Continual counters with discrete Laplace noise (THEOREMS.md D.6, D.7): the binary-tree counter
// and the noisy-increments baseline, with the released noisy values clamped (B.14).
#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_detail.hpp"
#include "exactdp/library/library_parametric.hpp"
#include "exactdp/library/parametric_detail.hpp"
#include "exactdp/noise/dlap_closed_form.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

namespace exactdp::library {

using detail::require;

namespace {

using CounterState = std::vector<long>;
const CounterState counter_halted{-1};

void check_counter(const char* where, const Rational& r, long max_input, long clamp) {
  require(sgn(r) > 0 && r < 1, where, "r", r, "a discrete Laplace parameter r = e^-epsilon must lie strictly between 0 and 1");
  require(max_input >= 1 && max_input <= 16, where, "max_input", Rational(max_input), "must be between 1 and 16");
  require(clamp >= 0 && clamp <= 64, where, "clamp", Rational(clamp), "must be between 0 and 64");
}

std::vector<std::string> input_messages(long max_input) {
  std::vector<std::string> m;
  for (long x = 0; x <= max_input; ++x) m.push_back(std::to_string(x));
  return m;
}

/// Event-level neighbours for counters (THEOREMS.md A.7, f_C with d = 1): one input changes by at
/// most 1 — pairs (a, b) with |a − b| ≤ 1, at most one of them non-identical.
std::shared_ptr<const Verifier> event_level(long max_input) {
  std::vector<MessagePair> pairs;
  for (long a = 0; a <= max_input; ++a)
    for (long b = std::max(0L, a - 1); b <= std::min(max_input, a + 1); ++b) pairs.push_back({MessageId(a), MessageId(b)});
  return std::make_shared<PairsVerifier>(std::move(pairs), 1u);
}

Game continual(std::shared_ptr<const InteractiveMechanism> mech, StateId start, long max_input, unsigned horizon) {
  Game g;
  g.name = mech->name();
  g.mechanism = std::move(mech);
  g.verifier = event_level(max_input);
  g.initial = {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

std::string show_vector(const CounterState& s) {
  if (s == counter_halted) return "halted";
  std::string out = "t=" + std::to_string(s[0]) + "[";
  for (std::size_t i = 1; i < s.size(); ++i) out += (i > 1 ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

/// The rounds and the exploration depth of a counter's parametric table for a requested @p horizon
/// (0: the counter's @p steps), as the numeric counter with that horizon (a spec's "horizon"
/// overrides the default there too): a horizon below @p steps explores only the states it reaches;
/// from @p steps on the table is explored one step past the last, so that the halted state has its
/// rows and the table is exact at every horizon (the numeric counter halts at step @p steps as well).
struct CounterHorizon {
  unsigned rounds;
  unsigned depth;
};
CounterHorizon counter_horizon(unsigned horizon, unsigned steps) {
  const unsigned rounds = horizon == 0 ? steps : horizon;
  return {rounds, rounds >= steps ? steps + 1 : rounds};
}

/// One outcome of a counter step over the field policy F.
template <class F>
struct CounterOutcome {
  typename F::Value probability;
  std::string answer;
  CounterState next;
};

/// The binary-tree counter's step (written once over the field policy F: the numeric mechanism
/// and its parametric twin run it). State {t, slot_0, …, slot_h} after t steps. Level ℓ's slot
/// holds, when bit ℓ of t is 1, the clamped noisy value of the last completed level-ℓ node with
/// odd index (the one the outputs of times with bit ℓ set use), and when bit ℓ of t is 0, the
/// exact partial sum of the odd-index level-ℓ node containing t + 1. Even-index nodes are never
/// used by an output and never drawn.
template <class F>
std::vector<CounterOutcome<F>> tree_counter_step(const CounterState& s, const std::string& m, unsigned height, const typename F::Value& r,
                                                 long max_input, long clamp) {
  using V = typename F::Value;
  const long steps = 1L << height;
  if (s == counter_halted) return {{V(1), halt_answer, s}};
  const long x = std::stol(m), t = s[0], now = t + 1;
  CounterState next = s;
  next[0] = now;
  for (unsigned l = 0; l <= height; ++l)
    if (((t >> l) & 1) == 0) next[l + 1] += x;
  unsigned done = 0;  // the level of the used node completing at `now`: the 2-adic valuation
  while (((now >> done) & 1) == 0) ++done;
  const long exact = next[done + 1];
  for (unsigned l = 0; l < done; ++l) next[l + 1] = 0;  // fresh partial sums
  const long hi = max_input * (1L << done) + clamp;
  std::vector<CounterOutcome<F>> out;
  // the node's noisy value clamped to [−clamp, hi] (B.14): the closed form of noise/dlap_closed_form.hpp
  for (auto& [k, mass] : noise::clamped_dlap_masses<F>(r, exact, -clamp, hi)) {
    CounterState n = next;
    n[done + 1] = k;
    long answer = 0;
    for (unsigned l = 0; l <= height; ++l)
      if ((now >> l) & 1) answer += n[l + 1];
    out.push_back({std::move(mass), std::to_string(answer), now == steps ? counter_halted : n});
  }
  return out;
}

}  // namespace

Game binary_tree_counter(unsigned height, const Rational& r, long max_input, long clamp) {
  const char* where = "library::binary_tree_counter";
  require(height <= 6, where, "height", Rational(height), "must be between 0 and 6 (T = 2^height at most 64)");
  check_counter(where, r, max_input, clamp);
  const long steps = 1L << height;
  auto step = [=](const CounterState& s, const std::string& m) {
    std::vector<Outcome<CounterState>> out;
    for (auto& o : tree_counter_step<noise::RationalField>(s, m, height, r, max_input, clamp))
      out.push_back({std::move(o.probability), std::move(o.answer), std::move(o.next)});
    return out;
  };
  auto mech = std::make_shared<LambdaMechanism<CounterState, detail::VectorHash>>(
      "binary-tree counter(T=" + std::to_string(steps) + ", r=" + to_string(r) + ")", input_messages(max_input), step, show_vector);
  const StateId start = mech->state_id(CounterState(height + 2, 0));
  return continual(mech, start, max_input, static_cast<unsigned>(steps));
}

parametric::ParametricGame binary_tree_counter_for_all(unsigned height, const parametric::RationalFunction& r, long max_input, long clamp,
                                                       const parametric::ParameterRange& range, const std::string& parameter,
                                                       unsigned horizon) {
  const char* where = "library::binary_tree_counter_for_all";
  require(height <= 6, where, "height", Rational(height), "must be between 0 and 6 (T = 2^height at most 64)");
  check_counter(where, Rational(1, 2), max_input, clamp);  // the integer parameters (r is checked for every value below)
  detail::check_noise_for_all(where, "r", r, range, parameter);
  using parametric::ParametricField;
  auto step = [=](const CounterState& s, const std::string& m) { return tree_counter_step<ParametricField>(s, m, height, r, max_input, clamp); };
  const long steps = 1L << height;
  const CounterHorizon h = counter_horizon(horizon, static_cast<unsigned>(steps));
  parametric::ParametricGame g = detail::explore_parametric_game<CounterState, detail::VectorHash>(
      "binary-tree counter(T=" + std::to_string(steps) + ", r=" + r.to_string(parameter) + ")", CounterState(height + 2, 0),
      input_messages(max_input), event_level(max_input), h.rounds, step, show_vector, 200'000, h.depth);
  g.parameter = parameter;
  g.range = range;
  return g;
}

namespace {

/// Every input vector in [0, max_input]^d in lexicographic order, written "x1,x2,…" (the d-counter's
/// messages, as library::d_counter names them).
std::vector<std::vector<long>> input_grid(unsigned d, long max_input) {
  std::vector<std::vector<long>> out{{}};
  for (unsigned i = 0; i < d; ++i) {
    std::vector<std::vector<long>> next;
    for (const auto& v : out)
      for (long x = 0; x <= max_input; ++x) {
        auto w = v;
        w.push_back(x);
        next.push_back(std::move(w));
      }
    out = std::move(next);
  }
  return out;
}

}  // namespace

parametric::ParametricGame d_counter_for_all(unsigned d, unsigned height, const parametric::RationalFunction& r, long max_input, long clamp,
                                             const parametric::ParameterRange& range, const std::string& parameter, unsigned horizon) {
  const char* where = "library::d_counter_for_all";
  // the limits of library::d_counter
  require(d >= 1 && d <= 3, where, "d", Rational(d), "must be between 1 and 3");
  require(height <= 3, where, "height", Rational(height), "must be between 0 and 3");
  require(max_input >= 1 && max_input <= 8, where, "max_input", Rational(max_input), "must be between 1 and 8");
  require(clamp >= 0 && clamp <= 4, where, "clamp", Rational(clamp), "must be between 0 and 4");
  detail::check_noise_for_all(where, "r", r, range, parameter);
  using parametric::ParametricField;
  // a state is the d counters' states side by side, each written with its length first (a halted
  // counter's state is shorter); the d counters step in lockstep on the coordinates of the input
  auto step = [=](const CounterState& s, const std::string& m) {
    struct Partial {
      parametric::RationalFunction p;
      std::string answer;
      bool halted;
      CounterState next;
    };
    std::vector<long> inputs;
    for (std::size_t at = 0; at < m.size();) {
      const std::size_t comma = m.find(',', at);
      inputs.push_back(std::stol(m.substr(at, comma - at)));
      at = comma == std::string::npos ? m.size() : comma + 1;
    }
    std::vector<Partial> acc{{parametric::RationalFunction(1), "", true, {}}};
    std::size_t at = 0;
    for (unsigned i = 0; i < d; ++i) {
      const auto length = static_cast<std::size_t>(s[at]);
      const CounterState own(s.begin() + static_cast<long>(at) + 1, s.begin() + static_cast<long>(at + 1 + length));
      at += 1 + length;
      std::vector<Partial> next;
      for (const auto& part : acc)
        for (auto& o : tree_counter_step<ParametricField>(own, std::to_string(inputs[i]), height, r, max_input, clamp)) {
          Partial q{part.p * o.probability, part.answer + (i ? "," : "") + o.answer, part.halted && o.answer == halt_answer, part.next};
          q.next.push_back(static_cast<long>(o.next.size()));
          q.next.insert(q.next.end(), o.next.begin(), o.next.end());
          next.push_back(std::move(q));
        }
      acc = std::move(next);
    }
    std::vector<CounterOutcome<ParametricField>> out;
    for (auto& part : acc) out.push_back({std::move(part.p), part.halted ? std::string(halt_answer) : part.answer, std::move(part.next)});
    return out;
  };
  const auto grid = input_grid(d, max_input);
  std::vector<std::string> messages;
  for (const auto& v : grid) {
    std::string name;
    for (std::size_t i = 0; i < v.size(); ++i) name += (i ? "," : "") + std::to_string(v[i]);
    messages.push_back(name);
  }
  // f_C with d coordinates: any two input vectors at L∞ distance at most 1, at most one pair differing
  std::vector<MessagePair> pairs;
  for (std::size_t a = 0; a < grid.size(); ++a)
    for (std::size_t b = 0; b < grid.size(); ++b) {
      long dist = 0;
      for (unsigned i = 0; i < d; ++i) dist = std::max(dist, std::abs(grid[a][i] - grid[b][i]));
      if (dist <= 1) pairs.push_back({MessageId(a), MessageId(b)});
    }
  CounterState start;
  for (unsigned i = 0; i < d; ++i) {
    start.push_back(static_cast<long>(height) + 2);
    start.insert(start.end(), height + 2, 0L);
  }
  auto show = [d](const CounterState& s) {
    std::string out = "[";
    std::size_t at = 0;
    for (unsigned i = 0; i < d; ++i) {
      const auto length = static_cast<std::size_t>(s[at]);
      out += (i ? " | " : "") + show_vector(CounterState(s.begin() + static_cast<long>(at) + 1, s.begin() + static_cast<long>(at + 1 + length)));
      at += 1 + length;
    }
    return out + "]";
  };
  const unsigned steps = 1u << height;
  const CounterHorizon h = counter_horizon(horizon, steps);
  parametric::ParametricGame g = detail::explore_parametric_game<CounterState, detail::VectorHash>(
      std::to_string(d) + "-counter(T=" + std::to_string(steps) + ", r=" + r.to_string(parameter) + ")", start, messages,
      std::make_shared<PairsVerifier>(std::move(pairs), 1u), h.rounds, step, show, 200'000, h.depth);
  g.parameter = parameter;
  g.range = range;
  return g;
}

namespace {

/// The noisy-increments counter's step (written once over the field policy F: the numeric
/// mechanism and its parametric twin run it). State {t, y_t}: y_t is released, so the state is what
/// the adversary has already seen; the increment is clamp(x + Z, −clamp, max_input + clamp),
/// Z ~ DLap(r), by the closed form of noise/dlap_closed_form.hpp (B.14).
template <class F>
std::vector<CounterOutcome<F>> noisy_increments_step(const CounterState& s, const std::string& m, unsigned steps, const typename F::Value& r,
                                                     long max_input, long clamp) {
  using V = typename F::Value;
  if (s == counter_halted) return {{V(1), halt_answer, s}};
  const long x = std::stol(m), now = s[0] + 1;
  std::vector<CounterOutcome<F>> out;
  for (auto& [k, mass] : noise::clamped_dlap_masses<F>(r, x, -clamp, max_input + clamp)) {
    const long y = s[1] + k;
    out.push_back({std::move(mass), std::to_string(y), now == static_cast<long>(steps) ? counter_halted : CounterState{now, y}});
  }
  return out;
}

}  // namespace

Game noisy_increments_counter(unsigned steps, const Rational& r, long max_input, long clamp) {
  const char* where = "library::noisy_increments_counter";
  require(steps >= 1 && steps <= 64, where, "steps", Rational(steps), "must be between 1 and 64");
  check_counter(where, r, max_input, clamp);
  auto step = [=](const CounterState& s, const std::string& m) {
    std::vector<Outcome<CounterState>> out;
    for (auto& o : noisy_increments_step<noise::RationalField>(s, m, steps, r, max_input, clamp))
      if (sgn(o.probability) > 0) out.push_back({std::move(o.probability), std::move(o.answer), std::move(o.next)});
    return out;
  };
  auto mech = std::make_shared<LambdaMechanism<CounterState, detail::VectorHash>>(
      "noisy-increments counter(T=" + std::to_string(steps) + ", r=" + to_string(r) + ")", input_messages(max_input), step,
      show_vector);
  const StateId start = mech->state_id(CounterState{0, 0});
  return continual(mech, start, max_input, steps);
}

parametric::ParametricGame noisy_increments_counter_for_all(unsigned steps, const parametric::RationalFunction& r, long max_input, long clamp,
                                                            const parametric::ParameterRange& range, const std::string& parameter,
                                                            unsigned horizon) {
  const char* where = "library::noisy_increments_counter_for_all";
  require(steps >= 1 && steps <= 64, where, "steps", Rational(steps), "must be between 1 and 64");
  check_counter(where, Rational(1, 2), max_input, clamp);  // the integer parameters (r is checked for every value below)
  detail::check_noise_for_all(where, "r", r, range, parameter);
  using parametric::ParametricField;
  auto step = [=](const CounterState& s, const std::string& m) {
    return noisy_increments_step<ParametricField>(s, m, steps, r, max_input, clamp);
  };
  const CounterHorizon h = counter_horizon(horizon, steps);
  parametric::ParametricGame g = detail::explore_parametric_game<CounterState, detail::VectorHash>(
      "noisy-increments counter(T=" + std::to_string(steps) + ", r=" + r.to_string(parameter) + ")", CounterState{0, 0},
      input_messages(max_input), event_level(max_input), h.rounds, step, show_vector, 200'000, h.depth);
  g.parameter = parameter;
  g.range = range;
  return g;
}

}  // namespace exactdp::library
