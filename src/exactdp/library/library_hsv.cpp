// The complex continual mechanisms of HSV §7–9 on toy sizes (THEOREMS.md D.8–D.10), each built as
// a deterministic post-processor over its sub-mechanisms (mechanism/composite.hpp).
#include "exactdp/library/library_hsv.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/library/library_detail.hpp"
#include "exactdp/library/library_parametric.hpp"
#include "exactdp/library/parametric_detail.hpp"
#include "exactdp/noise/number_field.hpp"
#include "exactdp/mechanism/noninteractive.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace exactdp::library {

using detail::require;
using detail::continual_game;

namespace {

using Vec = std::vector<long>;
using Pair = PairRelation::Pair;

std::string join(const Vec& v, char sep = ',') {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? std::string(1, sep) : "") + std::to_string(v[i]);
  return s;
}

Vec split_longs(const std::string& s, char sep = ',') {
  Vec out;
  std::stringstream in(s);
  std::string part;
  while (std::getline(in, part, sep)) out.push_back(std::stol(part));
  return out;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::stringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  if (!s.empty() && s.back() == sep) out.emplace_back();
  return out;
}

/// Every vector in [lo, hi]^d, in lexicographic order.
std::vector<Vec> grid(unsigned d, long lo, long hi) {
  std::vector<Vec> out{Vec{}};
  for (unsigned i = 0; i < d; ++i) {
    std::vector<Vec> next;
    for (const auto& v : out)
      for (long x = lo; x <= hi; ++x) {
        Vec w = v;
        w.push_back(x);
        next.push_back(std::move(w));
      }
    out = std::move(next);
  }
  return out;
}

long max_of(const Vec& v) { return *std::max_element(v.begin(), v.end()); }

long linf(const Vec& a, const Vec& b) {
  long m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

Vec plus(Vec a, const Vec& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

/// "i:m" → (i, m).
std::pair<std::size_t, std::string> routed(const std::string& s) {
  const auto colon = s.find(':');
  if (colon == std::string::npos) throw Error("library_hsv", "message", s, "expected \"i:m\"");
  return {static_cast<std::size_t>(std::stoul(s.substr(0, colon))), s.substr(colon + 1)};
}

/// A PairRelation and the same relation as a pairs verifier over @p messages: any pair of
/// @p pairs, at most @p k non-identical in total (state = the count so far).
PairRelation pairs_relation(std::vector<Pair> pairs, std::optional<unsigned> k) {
  auto all = std::make_shared<const std::vector<Pair>>(std::move(pairs));
  PairRelation r;
  r.initial = "0";
  r.allowed = [all, k](const std::string& sigma) {
    const unsigned used = static_cast<unsigned>(std::stoul(sigma));
    std::vector<Pair> out;
    for (const auto& p : *all)
      if (p.first == p.second || !k || used < *k) out.push_back(p);
    return out;
  };
  r.next = [](const std::string& sigma, const Pair& p) { return p.first == p.second ? sigma : std::to_string(std::stoul(sigma) + 1); };
  return r;
}

std::shared_ptr<const Verifier> pairs_verifier(const InteractiveMechanism& mech, const std::vector<Pair>& pairs, std::optional<unsigned> k) {
  std::vector<MessagePair> ids;
  for (const auto& [a, b] : pairs) ids.push_back({*mech.message_id(a), *mech.message_id(b)});
  return std::make_shared<PairsVerifier>(std::move(ids), k);
}

/// One bit of randomized response over the field policy F (noise/number_field.hpp): b with
/// probability λ/(1+λ) — a rational function of λ, so the numeric user and its parametric twin run
/// the same code.
template <class F>
std::vector<SubOutcome<typename F::Value, Vec>> rr_bit(const typename F::Value& lambda, long bit, const Vec& next) {
  using V = typename F::Value;
  const V keep = lambda / (V(1) + lambda);
  return {{keep, std::to_string(bit), next}, {V(1) - keep, std::to_string(1 - bit), next}};
}

/// A composite P∘*(M, …, M) of @p copies of one sub-mechanism whose step runs over rational
/// functions of the parameter (@p sub_step(state, message): std::nullopt outside its alphabet), as a
/// parametric game: the numeric composite's semantics (mechanism/composite.hpp's
/// run_post_processor, the same code) tabulated from P's initial state with every sub-mechanism in
/// @p sub_initial. One round by default (@p horizon 0), the neighbours @p pairs of left messages;
/// explored one step past the horizon, so that a protocol that has answered and halted is exact at
/// every horizon.
template <class SubStep, class SubShow>
parametric::ParametricGame composite_for_all(std::string name, const DeterministicPostProcessor& processor, std::size_t copies,
                                             const Vec& sub_initial, std::vector<std::string> left_messages, std::vector<MessagePair> pairs,
                                             SubStep sub_step, SubShow show_sub, const parametric::ParameterRange& range,
                                             const std::string& parameter, unsigned horizon) {
  using parametric::RationalFunction;
  struct State {
    std::string processor;
    std::vector<Vec> subs;
    bool operator==(const State&) const = default;
  };
  struct StateHash {
    std::size_t operator()(const State& s) const {
      std::size_t h = std::hash<std::string>{}(s.processor);
      for (const auto& u : s.subs) h = h * 1000003u ^ detail::VectorHash{}(u);
      return h;
    }
  };
  struct Row {
    RationalFunction probability;
    std::string answer;
    State next;
  };
  auto P = std::make_shared<const DeterministicPostProcessor>(processor);
  auto step = [P, sub_step](const State& s, const std::string& m) {
    auto routed_step = [&](std::size_t, const Vec& u, const std::string& msg) { return sub_step(u, msg); };
    auto sub_name = [&](std::size_t i) { return "sub-mechanism " + std::to_string(i); };
    std::vector<Row> out;
    for (auto& o : run_post_processor<RationalFunction, Vec>(*P, s.processor, s.subs, m, routed_step, sub_name, 64))
      out.push_back({std::move(o.weight), std::move(o.answer), State{std::move(o.processor), std::move(o.subs)}});
    return out;
  };
  auto show = [show_sub](const State& s) {
    std::string out = "(" + s.processor;
    for (const auto& u : s.subs) out += "; " + show_sub(u);
    return out + ")";
  };
  const unsigned rounds = horizon == 0 ? 1 : horizon;
  parametric::ParametricGame g = detail::explore_parametric_game<State, StateHash>(
      std::move(name), State{P->initial, std::vector<Vec>(copies, sub_initial)}, std::move(left_messages),
      std::make_shared<PairsVerifier>(std::move(pairs), std::nullopt), rounds, step, show, 200'000, rounds + 1);
  g.parameter = parameter;
  g.range = range;
  return g;
}

// ------------------------------------------------------------------ d-counter

struct DCounter {
  std::shared_ptr<const InteractiveMechanism> mechanism;
  StateId initial = 0;
  std::vector<Vec> inputs;  // the message vectors, in alphabet order
};

DCounter make_d_counter(unsigned d, unsigned height, const Rational& r, long max_input, long clamp) {
  const char* where = "library::d_counter";
  require(d >= 1 && d <= 3, where, "d", Rational(d), "must be between 1 and 3");
  require(height <= 3, where, "height", Rational(height), "must be between 0 and 3");
  require(max_input >= 1 && max_input <= 8, where, "max_input", Rational(max_input), "must be between 1 and 8");
  require(clamp >= 0 && clamp <= 4, where, "clamp", Rational(clamp), "must be between 0 and 4");
  const Game tree = binary_tree_counter(height, r, max_input, clamp);
  auto counter = tree.mechanism;
  const StateId start = tree.initial[0].front().first;
  DCounter out;
  out.inputs = grid(d, 0, max_input);
  std::vector<std::string> messages;
  for (const auto& v : out.inputs) messages.push_back(join(v));
  auto step = [counter, d](const Vec& s, const std::string& m) {
    const Vec c = split_longs(m);
    // the product of the d counters' kernels: (probability, answers, states)
    struct Partial {
      Rational p;
      std::vector<std::string> answers;
      Vec states;
    };
    std::vector<Partial> acc{{Rational(1), {}, {}}};
    for (unsigned i = 0; i < d; ++i) {
      std::vector<Partial> next;
      const auto id = counter->message_id(std::to_string(c[i]));
      for (const auto& part : acc)
        for (const auto& t : counter->step(static_cast<StateId>(s[i]), *id)) {
          Partial q = part;
          q.p *= t.probability;
          q.answers.push_back(counter->answer_name(t.answer));
          q.states.push_back(static_cast<long>(t.next));
          next.push_back(std::move(q));
        }
      acc = std::move(next);
    }
    std::vector<Outcome<Vec>> out;
    for (auto& part : acc) {
      const bool halted = std::all_of(part.answers.begin(), part.answers.end(), [](const std::string& a) { return a == halt_answer; });
      std::string answer;
      for (std::size_t i = 0; i < part.answers.size(); ++i) answer += (i ? "," : "") + part.answers[i];
      out.push_back({part.p, halted ? halt_answer : answer, part.states});
    }
    return out;
  };
  auto show = [counter](const Vec& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i) out += (i ? " | " : "") + counter->state_name(static_cast<StateId>(s[i]));
    return out + "]";
  };
  auto mech = std::make_shared<LambdaMechanism<Vec, detail::VectorHash>>(
      std::to_string(d) + "-counter(" + counter->name() + ")", messages, step, show);
  out.initial = mech->state_id(Vec(d, static_cast<long>(start)));
  out.mechanism = mech;
  return out;
}

std::vector<Pair> linf_pairs(const std::vector<Vec>& inputs) {
  std::vector<Pair> pairs;
  for (const auto& a : inputs)
    for (const auto& b : inputs)
      if (linf(a, b) <= 1) pairs.push_back({join(a), join(b)});
  return pairs;
}

}  // namespace

CompositeInstance checker_instance(const CompositeModel& m) {
  CompositeInstance in;
  in.processor = m.processor;
  in.input_relation = m.input_relation;
  in.output_relation = m.output_relation;
  in.answers_to = m.answers_to;
  in.horizon = m.processor_horizon;
  return in;
}

Game d_counter(unsigned d, unsigned height, const Rational& r, long max_input, long clamp) {
  const DCounter c = make_d_counter(d, height, r, max_input, clamp);
  return continual_game(c.mechanism->name(), c.mechanism, c.initial, pairs_verifier(*c.mechanism, linf_pairs(c.inputs), 1u),
                        1u << height);
}

// ------------------------------------------------------------------ HSS histogram

namespace {

/// The ranges the histogram's messages live in (so that every sub-mechanism's alphabet is finite).
struct HistogramRanges {
  unsigned height = 0;     // the d-counter's height, ⌈log₂ T⌉
  long h_max = 0;          // the largest counter output per coordinate (T·T with inputs ≤ T)
  std::vector<long> thresholds;  // Thresh ∈ {γ, 2γ, …, (T+1)γ}
  std::vector<Vec> rows;   // {0,1}^d
  std::vector<Vec> hs;     // [0, h_max]^d
};

HistogramRanges ranges_of(const HistogramParams& p) {
  const char* where = "library::hss_histogram";
  require(p.d >= 1 && p.d <= 2, where, "d", Rational(p.d), "must be 1 or 2");
  require(p.steps >= 1 && p.steps <= 3, where, "steps", Rational(p.steps), "must be between 1 and 3");
  for (const auto& [name, r] : {std::pair<const char*, const Rational*>{"r_threshold", &p.r_threshold}, {"r_query", &p.r_query},
                                {"r_laplace", &p.r_laplace}, {"r_node", &p.r_node}})
    require(sgn(*r) > 0 && *r < 1, where, name, *r, "a discrete Laplace parameter r = e^-epsilon must lie strictly between 0 and 1");
  require(p.gamma >= 1 && p.gamma <= 3, where, "gamma", Rational(p.gamma), "must be between 1 and 3");
  require(p.xi >= 0 && p.xi <= 3, where, "xi", Rational(p.xi), "must be between 0 and 3");
  HistogramRanges r;
  while ((1u << r.height) < p.steps) ++r.height;
  r.h_max = static_cast<long>(p.steps) * static_cast<long>(p.steps);
  for (unsigned k = 1; k <= p.steps + 1; ++k) r.thresholds.push_back(static_cast<long>(k) * p.gamma);
  r.rows = grid(p.d, 0, 1);
  r.hs = grid(p.d, 0, r.h_max);
  return r;
}

/// The state vector of an SVT instance: {phase (0 idle, 1 running, 2 halted), h…, c…, margins…}.
struct SvtInstance {
  std::shared_ptr<const InteractiveMechanism> mechanism;
  StateId idle = 0, running_from_zero = 0;
};

SvtInstance make_svt_instance(const HistogramParams& p, const HistogramRanges& rg) {
  std::vector<std::string> messages;
  for (const auto& h : rg.hs) messages.push_back("start:" + join(h));
  for (const auto& x : rg.rows)
    for (long t : rg.thresholds) messages.push_back(join(x) + "/" + std::to_string(t));
  auto no_stop = std::make_shared<std::map<Vec, Rational>>();
  const unsigned d = p.d;
  const Rational rt = p.r_threshold, rq = p.r_query;
  auto n = [no_stop, rt, rq](const Vec& ms) -> Rational {
    auto it = no_stop->find(ms);
    if (it == no_stop->end()) it = no_stop->emplace(ms, svt_no_stop_probability(rt, rq, ms)).first;
    return it->second;
  };
  auto step = [d, n](const Vec& s, const std::string& m) -> std::vector<Outcome<Vec>> {
    if (s[0] == 2) return {{Rational(1), halt_answer, s}};
    const bool start = m.rfind("start:", 0) == 0;
    if (start != (s[0] == 0)) return {{Rational(1), invalid_answer, s}};
    if (start) {
      Vec next{1};
      const Vec h = split_longs(m.substr(6));
      next.insert(next.end(), h.begin(), h.end());
      next.insert(next.end(), d, 0);
      return {{Rational(1), "ok", next}};
    }
    const auto slash = m.find('/');
    const Vec x = split_longs(m.substr(0, slash));
    const long thresh = std::stol(m.substr(slash + 1));
    Vec h(s.begin() + 1, s.begin() + 1 + d), c(s.begin() + 1 + d, s.begin() + 1 + 2 * d);
    c = plus(c, x);
    // stop ("above") iff q(h + c) + ν > Thresh + τ: margin A = Thresh − q(h + c) (B.13)
    const long margin = thresh - max_of(plus(h, c));
    const Vec before(s.begin() + 1 + 2 * d, s.end());
    Vec after = before;
    after.insert(std::upper_bound(after.begin(), after.end(), margin), margin);
    const Rational below = n(after) / n(before);
    Vec cont{1};
    cont.insert(cont.end(), h.begin(), h.end());
    cont.insert(cont.end(), c.begin(), c.end());
    cont.insert(cont.end(), after.begin(), after.end());
    return {{below, "below", cont}, {1 - below, "above", Vec{2}}};
  };
  auto show = [d](const Vec& s) {
    if (s[0] == 0) return std::string("idle");
    if (s[0] == 2) return std::string("halted");
    return "h=" + join(Vec(s.begin() + 1, s.begin() + 1 + d)) + ",c=" + join(Vec(s.begin() + 1 + d, s.begin() + 1 + 2 * d)) +
           ",margins=[" + join(Vec(s.begin() + 1 + 2 * d, s.end())) + "]";
  };
  auto mech = std::make_shared<LambdaMechanism<Vec, detail::VectorHash>>(
      "SVT(r_threshold=" + to_string(rt) + ", r_query=" + to_string(rq) + ", q=max)", messages, step, show);
  SvtInstance out;
  out.idle = mech->state_id(Vec{0});
  Vec zero{1};
  zero.insert(zero.end(), 2 * d, 0);
  out.running_from_zero = mech->state_id(zero);
  out.mechanism = mech;
  return out;
}

std::vector<long> laplace_values(const HistogramParams& p, const HistogramRanges& rg) {
  std::vector<long> v;
  for (long x = 0; x <= rg.h_max + static_cast<long>(p.steps); ++x) v.push_back(x);
  return v;
}

std::vector<long> laplace_thetas(const HistogramParams& p, const HistogramRanges& rg) {
  std::vector<long> out;
  for (long t : rg.thresholds) out.push_back(t - p.xi);
  return out;
}

/// The Laplace comparison: "v/θ" answers "above" iff v + Z > θ, Z ~ DLap(r); then halted.
std::pair<std::shared_ptr<const InteractiveMechanism>, StateId> make_laplace_instance(const HistogramParams& p, const HistogramRanges& rg) {
  std::vector<std::string> messages;
  for (long v : laplace_values(p, rg))
    for (long th : laplace_thetas(p, rg)) messages.push_back(std::to_string(v) + "/" + std::to_string(th));
  const Rational r = p.r_laplace;
  auto step = [r](const Vec& s, const std::string& m) -> std::vector<Outcome<Vec>> {
    if (s[0] == 1) return {{Rational(1), halt_answer, s}};
    const auto slash = m.find('/');
    const long v = std::stol(m.substr(0, slash)), theta = std::stol(m.substr(slash + 1));
    const Rational above = 1 - discrete_laplace_cdf(r, theta - v);  // Pr[Z > θ − v]
    return {{above, "above", Vec{1}}, {1 - above, "below", Vec{1}}};
  };
  auto show = [](const Vec& s) { return s[0] == 1 ? std::string("used") : std::string("fresh"); };
  auto mech = std::make_shared<LambdaMechanism<Vec, detail::VectorHash>>("Laplace comparison(r=" + to_string(r) + ")", messages, step, show);
  const StateId start = mech->state_id(Vec{0});
  return {mech, start};
}

/// P's state: the variables of HSV Alg 4 and the stage of the current update, each variable with
/// its taint bit of HSV D6.5 (t and j only ever change by constants, so they stay untainted).
struct HistState {
  std::string stage = "idle";  // idle, svt, lap, ctr, start, done
  long t = 0, j = 0, thresh = 0, out = 0;
  Vec h, c;
  bool thresh_t = false, out_t = false, h_t = false, c_t = false;  // taint bits

  std::string encode() const {
    const std::string taint{thresh_t ? 'T' : '-', out_t ? 'T' : '-', h_t ? 'T' : '-', c_t ? 'T' : '-'};
    return stage + "|" + std::to_string(t) + "|" + std::to_string(j) + "|" + std::to_string(thresh) + "|" + std::to_string(out) + "|" +
           join(h) + "|" + join(c) + "|" + taint;
  }
  static HistState decode(const std::string& s) {
    const auto f = split(s, '|');
    HistState h;
    h.stage = f.at(0);
    h.t = std::stol(f.at(1));
    h.j = std::stol(f.at(2));
    h.thresh = std::stol(f.at(3));
    h.out = std::stol(f.at(4));
    h.h = split_longs(f.at(5));
    h.c = split_longs(f.at(6));
    const std::string& taint = f.at(7);
    h.thresh_t = taint[0] == 'T', h.out_t = taint[1] == 'T', h.h_t = taint[2] == 'T', h.c_t = taint[3] == 'T';
    return h;
  }
};

/// The taint report of one step: empty, or the first rule of HSV D6.5 it breaks.
std::string taint_of_output(bool tainted) { return tainted ? "response: \"return out\" outputs a tainted value" : ""; }

DeterministicPostProcessor histogram_processor(const HistogramParams& p, HistogramVariant variant) {
  using Emit = DeterministicPostProcessor::Emit;
  const long T = p.steps, gamma = p.gamma, xi = p.xi;
  const std::size_t lap0 = static_cast<std::size_t>(T) + 1, counter = 2 * static_cast<std::size_t>(T) + 1;
  HistState init;
  init.thresh = gamma;
  init.h = Vec(p.d, 0);
  init.c = Vec(p.d, 0);
  init.out = 0;
  DeterministicPostProcessor P;
  P.name = std::string("HSS histogram") + (variant == HistogramVariant::raw_branch    ? " [leaky: branches on the raw count]"
                                           : variant == HistogramVariant::raw_release ? " [leaky: releases the raw count]"
                                                                                      : "");
  P.initial = init.encode();
  P.taint_instrumented = true;
  P.step = [=](const std::string& state, Port from, const std::string& message) -> Emit {
    HistState s = HistState::decode(state);
    auto to_lap = [&]() {
      s.stage = "lap";
      const long v = max_of(plus(s.c, s.h));  // q(c + h): tainted, sent only to a sub-mechanism
      return Emit{s.encode(), Port::right, sub_message(lap0 + static_cast<std::size_t>(s.j), std::to_string(v) + "/" + std::to_string(s.thresh - xi)), {}};
    };
    if (from == Port::left) {
      if (s.stage == "done" || s.t >= T) return Emit{state, Port::left, halt_answer, {}};
      if (s.stage != "idle") throw Error(P.name, "state", state, "a left message arrived while the processor waits for a sub-mechanism");
      const Vec x = split_longs(message);  // the input: tainted
      ++s.t;
      s.c = plus(s.c, x);
      s.c_t = true;
      if (variant == HistogramVariant::raw_branch) {
        // LEAKY: the decision to end the interval reads the raw count, not the SVT's answer
        const bool decision_t = s.c_t || s.h_t || s.thresh_t;
        const std::string taint = decision_t ? "destination: \"if q(c + h) > Thresh then end the interval\" branches on a tainted value" : "";
        if (max_of(plus(s.c, s.h)) > s.thresh) {
          Emit e = to_lap();
          e.taint = taint;
          return e;
        }
        s.stage = "idle";
        return Emit{s.encode(), Port::left, std::to_string(s.out), taint.empty() ? taint_of_output(s.out_t) : taint};
      }
      s.stage = "svt";
      return Emit{s.encode(), Port::right, sub_message(static_cast<std::size_t>(s.j), join(x) + "/" + std::to_string(s.thresh)), {}};
    }
    const auto [index, answer] = routed(message);  // a sub-mechanism's answer: untainted
    if (s.stage == "svt") {
      if (answer == "below") {
        s.stage = "idle";
        return Emit{s.encode(), Port::left, std::to_string(s.out), taint_of_output(s.out_t)};
      }
      if (answer == "above") return to_lap();
    } else if (s.stage == "lap") {
      if (answer == "above") s.thresh += gamma;  // Thresh ← Thresh + γ(t, j): untainted (a constant, under an untainted branch)
      s.stage = "ctr";
      return Emit{s.encode(), Port::right, sub_message(counter, join(s.c)), {}};
    } else if (s.stage == "ctr" && answer != halt_answer && answer != invalid_answer) {
      const Vec y = split_longs(answer);
      // LEAKY variant: the raw q(h + c) (old h, raw interval sum) instead of the private q(h)
      if (variant == HistogramVariant::raw_release) s.out = max_of(plus(s.h, s.c)), s.out_t = s.h_t || s.c_t;
      else s.out = max_of(y), s.out_t = false;
      s.h = y;
      s.h_t = false;
      s.stage = "start";
      return Emit{s.encode(), Port::right, sub_message(static_cast<std::size_t>(s.j) + 1, "start:" + join(s.h)), {}};
    } else if (s.stage == "start" && answer == "ok") {
      // a new interval: c ← 0, j ← j + 1; with constant γ the threshold updates of Alg 4 cancel
      s.c = Vec(s.c.size(), 0);
      s.c_t = false;
      ++s.j;
      s.stage = "idle";
      return Emit{s.encode(), Port::left, std::to_string(s.out), taint_of_output(s.out_t)};
    }
    throw Error(P.name, "state", state, "unexpected answer \"" + message + "\" from sub-mechanism " + std::to_string(index));
  };
  return P;
}

/// f′ of the histogram (HSV §7.2): state "s,l,c" = the SVT instance and the Laplace instance that
/// received a non-identical pair (−1: none yet) and whether the d-counter did.
PairRelation histogram_output_relation(const HistogramParams& p) {
  const long T = p.steps;
  PairRelation r;
  r.initial = "-1,-1,0";
  r.decide = [T](const std::string& sigma, const Pair& pr) -> std::optional<std::string> {
    const auto [i0, m0] = routed(pr.first);
    const auto [i1, m1] = routed(pr.second);
    if (i0 != i1) return std::nullopt;
    if (m0 == m1) return sigma;
    Vec st = split_longs(sigma);
    const long i = static_cast<long>(i0);
    if (i <= T) {  // an SVT instance, f_S: one row pair with identical thresholds, one instance only
      if (st[0] != -1 || m0.rfind("start:", 0) == 0 || m1.rfind("start:", 0) == 0) return std::nullopt;
      if (m0.substr(m0.find('/')) != m1.substr(m1.find('/'))) return std::nullopt;
      st[0] = i;
    } else if (i <= 2 * T) {  // a Laplace instance, f_{L,1}
      const auto s0 = m0.find('/'), s1 = m1.find('/');
      if (st[1] != -1 || m0.substr(s0) != m1.substr(s1) || std::abs(std::stol(m0.substr(0, s0)) - std::stol(m1.substr(0, s1))) > 1)
        return std::nullopt;
      st[1] = i;
    } else {  // the d-counter, f_C
      if (st[2] != 0 || linf(split_longs(m0), split_longs(m1)) > 1) return std::nullopt;
      st[2] = 1;
    }
    return join(st);
  };
  return r;
}

}  // namespace

CompositeModel hss_histogram(const HistogramParams& params, HistogramVariant variant) {
  const HistogramRanges rg = ranges_of(params);
  const long T = params.steps;
  const SvtInstance svt = make_svt_instance(params, rg);
  const auto lap = make_laplace_instance(params, rg);
  const DCounter ctr = make_d_counter(params.d, rg.height, params.r_node, T, 0);
  CompositeModel m;
  for (long j = 0; j <= T; ++j) m.subs.push_back({svt.mechanism, j == 0 ? svt.running_from_zero : svt.idle});
  for (long j = 0; j < T; ++j) m.subs.push_back({lap.first, lap.second});
  m.subs.push_back({ctr.mechanism, ctr.initial});
  m.processor = histogram_processor(params, variant);
  std::vector<std::string> rows;
  std::vector<Pair> row_pairs;
  for (const auto& x : rg.rows) rows.push_back(join(x));
  for (const auto& a : rows)
    for (const auto& b : rows) row_pairs.push_back({a, b});
  const CompositeMechanism cm = compose_deterministic(m.processor, rows, m.subs);
  m.input_relation = pairs_relation(row_pairs, 1u);
  m.output_relation = histogram_output_relation(params);
  const std::size_t counter = 2 * static_cast<std::size_t>(T) + 1;
  auto counter_answers = std::make_shared<std::vector<std::string>>();
  for (const auto& h : rg.hs) counter_answers->push_back(sub_message(counter, join(h)));
  m.answers_to = [T, counter, counter_answers](const std::string& message) -> std::vector<std::string> {
    const auto [i, body] = routed(message);
    if (i == counter) return *counter_answers;
    if (static_cast<long>(i) <= T && body.rfind("start:", 0) == 0) return {sub_message(i, "ok")};
    return {sub_message(i, "above"), sub_message(i, "below")};
  };
  m.processor_horizon = 5 * params.steps;
  m.game = continual_game(m.processor.name + " (d=" + std::to_string(params.d) + ", T=" + std::to_string(T) + ")", cm.mechanism,
                          cm.initial, pairs_verifier(*cm.mechanism, row_pairs, 1u), params.steps);
  return m;
}

Game hss_svt_instance(const HistogramParams& params) {
  const HistogramRanges rg = ranges_of(params);
  const SvtInstance svt = make_svt_instance(params, rg);
  const auto& mech = *svt.mechanism;
  // automaton: idle --start:h (identical)--> fresh --row pairs, same threshold--> used
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(3);
  for (const auto& h : rg.hs) {
    const MessageId id = *mech.message_id("start:" + join(h));
    edges[0].push_back({{id, id}, 1});
  }
  for (long t : rg.thresholds)
    for (const auto& a : rg.rows)
      for (const auto& b : rg.rows) {
        const MessageId x = *mech.message_id(join(a) + "/" + std::to_string(t)), y = *mech.message_id(join(b) + "/" + std::to_string(t));
        edges[1].push_back({{x, y}, x == y ? 1u : 2u});
        if (x == y) edges[2].push_back({{x, y}, 2});
      }
  auto verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"idle", "fresh", "used"}, 0, std::move(edges));
  return continual_game(mech.name() + " under f_S", svt.mechanism, svt.idle, verifier, params.steps + 1);
}

Game hss_laplace_instance(const HistogramParams& params) {
  const HistogramRanges rg = ranges_of(params);
  const auto lap = make_laplace_instance(params, rg);
  std::vector<Pair> pairs;
  const auto values = laplace_values(params, rg);
  for (long th : laplace_thetas(params, rg))
    for (long v : values)
      for (long w : values)
        if (std::abs(v - w) <= 1) pairs.push_back({std::to_string(v) + "/" + std::to_string(th), std::to_string(w) + "/" + std::to_string(th)});
  return continual_game(lap.first->name() + " under f_{L,1}", lap.first, lap.second, pairs_verifier(*lap.first, pairs, std::nullopt), 1);
}

Game hss_d_counter(const HistogramParams& params) {
  const HistogramRanges rg = ranges_of(params);
  Game g = d_counter(params.d, rg.height, params.r_node, params.steps, 0);
  g.horizon = params.steps;
  return g;
}

// ------------------------------------------------------------------ local protocols (D.10)

namespace {

void check_user_lambda(const char* where, const Rational& lambda) {
  require(lambda > 1 && lambda <= 1000, where, "lambda", lambda, "must be greater than 1 (and at most 1000)");
}

/// The shape of the toy LDP protocols of D.10: 1 to 3 users (the composite's datasets are all
/// 3^users value vectors and their pairs), k of them differing, 1 <= k <= users.
void check_ldp_shape(const char* where, unsigned users, unsigned k) {
  require(users >= 1 && users <= 3, where, "users", Rational(users), "must be between 1 and 3");
  require(k >= 1 && k <= users, where, "k", Rational(k), "must be between 1 and the number of users");
}

const std::vector<std::string>& threshold_user_messages() {
  static const std::vector<std::string> m{"data:0", "data:1", "data:2", "r1", "r2"};
  return m;
}

std::string show_threshold_user(const Vec& s) { return "phase=" + std::to_string(s[0]) + (s.size() > 1 ? ",v=" + std::to_string(s[1]) : ""); }

/// The two-round threshold user's step over the field policy F (the numeric user and the
/// parametric protocol run it): state {phase (0 idle, 1 has data, 2 answered r1, 3 done), v}.
template <class F>
std::vector<SubOutcome<typename F::Value, Vec>> threshold_user_step(const Vec& s, const std::string& m, const typename F::Value& lambda) {
  using V = typename F::Value;
  if (s[0] == 3) return {{V(1), halt_answer, s}};
  if (m.rfind("data:", 0) == 0) {
    if (s[0] != 0) return {{V(1), invalid_answer, s}};
    return {{V(1), "ok", Vec{1, std::stol(m.substr(5))}}};
  }
  if (m == "r1" && s[0] == 1) return rr_bit<F>(lambda, s[1] >= 1 ? 1 : 0, Vec{2, s[1]});
  if (m == "r2" && s[0] == 2) return rr_bit<F>(lambda, s[1] >= 2 ? 1 : 0, Vec{3, s[1]});
  return {{V(1), invalid_answer, s}};
}

/// The two-round threshold user as a mechanism with its initial state.
std::pair<std::shared_ptr<const InteractiveMechanism>, StateId> make_threshold_user(const Rational& lambda) {
  auto step = [lambda](const Vec& s, const std::string& m) {
    std::vector<Outcome<Vec>> out;
    for (auto& o : threshold_user_step<noise::RationalField>(s, m, lambda))
      out.push_back({std::move(o.probability), std::move(o.answer), std::move(o.next)});
    return out;
  };
  auto mech = std::make_shared<LambdaMechanism<Vec, detail::VectorHash>>("threshold user(lambda=" + to_string(lambda) + ")",
                                                                         threshold_user_messages(), step, show_threshold_user);
  const StateId start = mech->state_id(Vec{0});
  return {mech, start};
}

/// Every dataset in {0,1,2}^n as a digit string.
std::vector<std::string> datasets(unsigned n) {
  std::vector<std::string> out;
  for (const auto& v : grid(n, 0, 2)) {
    std::string s;
    for (long x : v) s += static_cast<char>('0' + x);
    out.push_back(s);
  }
  return out;
}

/// ∼_{k,∼*} on digit strings: at most k positions differ, each by 1.
bool k_sparse_neighbours(const std::string& a, const std::string& b, unsigned k) {
  unsigned differing = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] == b[i]) continue;
    if (std::abs(a[i] - b[i]) > 1) return false;
    ++differing;
  }
  return differing <= k;
}

/// S_P of the toy two-round protocol over @p n users (HSV §8, D.10): see ldp_threshold_protocol().
DeterministicPostProcessor ldp_processor(unsigned users) {
  const std::size_t n = users;
  // P's state: stage|i|x|round-1 bits|round-2 bits ('?' unknown, '-' not asked)
  using Emit = DeterministicPostProcessor::Emit;
  auto enc = [](const std::string& stage, std::size_t i, const std::string& x, const std::string& b1, const std::string& b2) {
    return stage + "|" + std::to_string(i) + "|" + x + "|" + b1 + "|" + b2;
  };
  DeterministicPostProcessor P;
  P.name = "S_P (two-round threshold protocol)";
  P.initial = enc("start", 0, "", std::string(n, '?'), std::string(n, '-'));
  P.step = [n, enc](const std::string& state, Port from, const std::string& message) -> Emit {
    const auto f = split(state, '|');
    const std::string& stage = f.at(0);
    std::size_t i = std::stoul(f.at(1));
    std::string x = f.at(2), b1 = f.at(3), b2 = f.at(4);
    // the next user at or after `from` who answered 1 in round 1 (the only ones asked "r2")
    auto next_r2 = [&](std::size_t from_user) -> Emit {
      for (std::size_t u = from_user; u < n; ++u)
        if (b1[u] == '1') return Emit{enc("r2", u, x, b1, b2), Port::right, sub_message(u, "r2"), {}};
      return Emit{enc("done", 0, x, b1, b2), Port::left, b1 + "|" + b2, {}};  // the server's view
    };
    if (from == Port::left) {
      if (stage != "start") return Emit{state, Port::left, halt_answer, {}};
      return Emit{enc("data", 0, message, b1, b2), Port::right, sub_message(0, std::string("data:") + message[0]), {}};
    }
    const auto [u, answer] = routed(message);
    if (stage == "data") {
      if (i + 1 < n) return Emit{enc("data", i + 1, x, b1, b2), Port::right, sub_message(i + 1, std::string("data:") + x[i + 1]), {}};
      return Emit{enc("r1", 0, x, b1, b2), Port::right, sub_message(0, "r1"), {}};
    }
    if (stage == "r1") {
      b1[i] = answer.at(0);
      if (i + 1 < n) return Emit{enc("r1", i + 1, x, b1, b2), Port::right, sub_message(i + 1, "r1"), {}};
      return next_r2(0);
    }
    if (stage == "r2") {
      b2[i] = answer.at(0);
      return next_r2(i + 1);
    }
    throw Error("S_P", "state", state, "unexpected message " + message);
  };
  return P;
}

}  // namespace

Game ldp_threshold_user(const Rational& lambda) {
  check_user_lambda("library::ldp_threshold_user", lambda);
  // (not a structured binding: clang before 16 cannot capture one in a lambda)
  const auto user = make_threshold_user(lambda);
  const auto& mech = user.first;
  const auto& start = user.second;
  auto id = [&](const std::string& m) { return *mech->message_id(m); };
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(4);
  for (long v = 0; v <= 2; ++v)
    for (long w = std::max(0L, v - 1); w <= std::min(2L, v + 1); ++w)
      edges[0].push_back({{id("data:" + std::to_string(v)), id("data:" + std::to_string(w))}, 1});
  edges[1].push_back({{id("r1"), id("r1")}, 2});
  edges[2].push_back({{id("r2"), id("r2")}, 3});
  auto verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"idle", "ready", "asked", "done"}, 0, std::move(edges));
  return continual_game(mech->name() + " under f_{~*,prop*}", mech, start, verifier, 3);
}

CompositeModel ldp_threshold_protocol(unsigned users, const Rational& lambda, unsigned k) {
  const char* where = "library::ldp_threshold_protocol";
  check_ldp_shape(where, users, k);
  check_user_lambda(where, lambda);
  const auto [user, start] = make_threshold_user(lambda);
  CompositeModel m;
  for (unsigned i = 0; i < users; ++i) m.subs.push_back({user, start});
  m.processor = ldp_processor(users);
  const DeterministicPostProcessor& P = m.processor;
  const auto xs = datasets(users);
  std::vector<Pair> pairs;
  for (const auto& a : xs)
    for (const auto& b : xs)
      if (k_sparse_neighbours(a, b, k)) pairs.push_back({a, b});
  const CompositeMechanism cm = compose_deterministic(P, xs, m.subs);
  m.input_relation = pairs_relation(pairs, std::nullopt);
  {  // f: a single dataset pair
    auto base = m.input_relation.allowed;
    m.input_relation.allowed = [base](const std::string& sigma) { return sigma == "0" ? base(sigma) : std::vector<Pair>{}; };
    m.input_relation.next = [](const std::string&, const Pair&) { return std::string("1"); };
  }
  m.output_relation.initial = "0";
  m.output_relation.decide = [k](const std::string& sigma, const Pair& pr) -> std::optional<std::string> {
    const auto [i0, m0] = routed(pr.first);
    const auto [i1, m1] = routed(pr.second);
    if (i0 != i1) return std::nullopt;
    if (m0 == m1) return sigma;
    const unsigned used = static_cast<unsigned>(std::stoul(sigma));
    if (m0.rfind("data:", 0) != 0 || m1.rfind("data:", 0) != 0 || used >= k || std::abs(std::stol(m0.substr(5)) - std::stol(m1.substr(5))) > 1)
      return std::nullopt;
    return std::to_string(used + 1);
  };
  m.answers_to = [](const std::string& message) -> std::vector<std::string> {
    const auto [i, body] = routed(message);
    if (body.rfind("data:", 0) == 0) return {sub_message(i, "ok")};
    return {sub_message(i, "0"), sub_message(i, "1")};
  };
  m.processor_horizon = 1 + 3 * users;
  m.game = continual_game("toy LDP protocol (n=" + std::to_string(users) + ", lambda=" + to_string(lambda) + ", k=" + std::to_string(k) + ")",
                          cm.mechanism, cm.initial, pairs_verifier(*cm.mechanism, pairs, std::nullopt), 1);
  return m;
}

parametric::ParametricGame ldp_threshold_protocol_for_all(unsigned users, const parametric::RationalFunction& lambda, unsigned k,
                                                          const parametric::ParameterRange& range, const std::string& parameter,
                                                          unsigned horizon) {
  const char* where = "library::ldp_threshold_protocol_for_all";
  check_ldp_shape(where, users, k);
  detail::check_lambda_for_all(where, "lambda", lambda, range, parameter);
  auto user_step = [lambda](const Vec& u, const std::string& msg) -> std::optional<std::vector<SubOutcome<parametric::RationalFunction, Vec>>> {
    const auto& alphabet = threshold_user_messages();
    if (std::find(alphabet.begin(), alphabet.end(), msg) == alphabet.end()) return std::nullopt;
    return threshold_user_step<parametric::ParametricField>(u, msg, lambda);
  };
  const auto xs = datasets(users);
  std::vector<MessagePair> pairs;
  for (std::size_t a = 0; a < xs.size(); ++a)
    for (std::size_t b = 0; b < xs.size(); ++b)
      if (k_sparse_neighbours(xs[a], xs[b], k)) pairs.push_back({MessageId(a), MessageId(b)});
  return composite_for_all(
      "toy LDP protocol (n=" + std::to_string(users) + ", lambda=" + lambda.to_string(parameter) + ", k=" + std::to_string(k) + ")",
      ldp_processor(users), users, Vec{0}, xs, std::move(pairs), user_step, show_threshold_user, range, parameter, horizon);
}

Game ldp_users_composition(unsigned users, const Rational& lambda, unsigned k) {
  const char* where = "library::ldp_users_composition";
  check_ldp_shape(where, users, k);
  check_user_lambda(where, lambda);
  const auto [user, start] = make_threshold_user(lambda);
  std::vector<SubMechanism> subs(users, SubMechanism{user, start});
  std::vector<std::string> left;
  for (unsigned i = 0; i < users; ++i)
    for (const auto& m : user->messages()) left.push_back(sub_message(i, m));
  // ExtConComp of fixed instances: P forwards "i:m" to instance i and its answer back
  DeterministicPostProcessor forward{"ConComp", "ready", [](const std::string&, Port from, const std::string& m) {
                                       return DeterministicPostProcessor::Emit{"ready", from == Port::left ? Port::right : Port::left, m, {}};
                                     }};
  const CompositeMechanism cm = compose_deterministic(forward, left, subs);
  const auto& mech = *cm.mechanism;
  auto id = [&](unsigned i, const std::string& m) { return *mech.message_id(sub_message(i, m)); };
  // f_{P,∼}: states (data given to the first `given` users, `differing` of them non-identical);
  // then the query phase, one stage per user (0: nothing asked, 1: r1 asked, 2: r2 asked).
  std::map<std::string, VerifierState> index;
  std::vector<std::string> names;
  std::vector<std::vector<AutomatonVerifier::Edge>> edges;
  std::vector<std::string> todo;
  auto intern = [&](const std::string& s) {
    auto [it, fresh] = index.try_emplace(s, static_cast<VerifierState>(names.size()));
    if (fresh) {
      names.push_back(s);
      edges.emplace_back();
      todo.push_back(s);
    }
    return it->second;
  };
  intern("data:0:0");
  while (!todo.empty()) {
    const std::string s = todo.back();
    todo.pop_back();
    const VerifierState here = index.at(s);
    std::vector<AutomatonVerifier::Edge> out;
    if (s.rfind("data:", 0) == 0) {
      const auto f = split(s, ':');
      const unsigned given = static_cast<unsigned>(std::stoul(f[1])), differing = static_cast<unsigned>(std::stoul(f[2]));
      for (long v = 0; v <= 2; ++v)
        for (long w = std::max(0L, v - 1); w <= std::min(2L, v + 1); ++w) {
          if (v != w && differing >= k) continue;
          const unsigned d2 = differing + (v != w ? 1 : 0);
          const std::string next = given + 1 < users ? "data:" + std::to_string(given + 1) + ":" + std::to_string(d2) : "query:" + std::string(users, '0');
          out.push_back({{id(given, "data:" + std::to_string(v)), id(given, "data:" + std::to_string(w))}, intern(next)});
        }
    } else {
      std::string stages = s.substr(6);
      for (unsigned i = 0; i < users; ++i) {
        if (stages[i] == '2') continue;
        std::string next = stages;
        next[i] = static_cast<char>(stages[i] + 1);
        const MessageId q = id(i, stages[i] == '0' ? "r1" : "r2");
        out.push_back({{q, q}, intern("query:" + next)});
      }
    }
    edges[here] = std::move(out);
  }
  auto verifier = std::make_shared<AutomatonVerifier>(names, 0, std::move(edges));
  return continual_game("users of the toy LDP protocol under f_{P,~} (n=" + std::to_string(users) + ", k=" + std::to_string(k) + ")",
                        cm.mechanism, cm.initial, verifier, 3 * users);
}

// ------------------------------------------------------------------ core decomposition (HSV §9)

namespace {

void check_core(const CoreDecompositionParams& p) {
  const char* where = "library::core_decomposition";
  require(p.vertices >= 2 && p.vertices <= 4, where, "vertices", Rational(p.vertices), "must be between 2 and 4");
  require(p.rounds >= 1 && p.rounds <= 3, where, "rounds", Rational(p.rounds), "must be between 1 and 3");
  require(sgn(p.r_threshold) > 0 && p.r_threshold < 1, where, "r_threshold", p.r_threshold, "must lie strictly between 0 and 1");
  require(sgn(p.r_query) > 0 && p.r_query < 1, where, "r_query", p.r_query, "must lie strictly between 0 and 1");
}

std::string bits(unsigned long mask, unsigned n) {
  std::string s;
  for (unsigned i = 0; i < n; ++i) s += ((mask >> i) & 1) ? '1' : '0';
  return s;
}

unsigned long mask_of(const std::string& bits) {
  unsigned long m = 0;
  for (std::size_t i = 0; i < bits.size(); ++i)
    if (bits[i] == '1') m |= 1ul << i;
  return m;
}

/// The core user's messages: its neighbour set "data:N", then queries "ask:A:d".
std::vector<std::string> core_user_messages(unsigned n, unsigned rounds) {
  std::vector<std::string> messages;
  for (unsigned long m = 0; m < (1ul << n); ++m) messages.push_back("data:" + bits(m, n));
  for (unsigned long a = 0; a < (1ul << n); ++a)
    for (unsigned d = 1; d <= rounds; ++d) messages.push_back("ask:" + bits(a, n) + ":" + std::to_string(d));
  return messages;
}

/// The core user's step over the field policy F (the numeric user and its parametric twin run it):
/// AboveThreshold on abs(N ∩ A) against the level; state {phase, N, margins…}. @p no_stop caches
/// Pr[every comparison of a margin multiset is "below"] (B.13, noise::BasicLatentThreshold).
template <class F>
std::vector<SubOutcome<typename F::Value, Vec>> core_user_step(const Vec& s, const std::string& m, const typename F::Value& rt,
                                                               const typename F::Value& rq, std::map<Vec, typename F::Value>& no_stop) {
  using V = typename F::Value;
  if (s[0] == 2) return {{V(1), halt_answer, s}};
  if (m.rfind("data:", 0) == 0) {
    if (s[0] != 0) return {{V(1), invalid_answer, s}};
    return {{V(1), "ok", Vec{1, static_cast<long>(mask_of(m.substr(5)))}}};
  }
  if (s[0] != 1) return {{V(1), invalid_answer, s}};
  const auto f = split(m, ':');
  const unsigned long a = mask_of(f.at(1));
  const long level = std::stol(f.at(2));
  // "top" iff ν − τ > |N ∩ A| − d: the stop event of B.13 with margin |N ∩ A| − d
  const long margin = static_cast<long>(__builtin_popcountl(static_cast<unsigned long>(s[1]) & a)) - level;
  auto N = [&](const Vec& ms) -> V {
    auto it = no_stop.find(ms);
    if (it == no_stop.end()) {
      std::vector<typename noise::BasicLatentThreshold<F>::Comparison> below;
      for (long x : ms) below.push_back({rq, x, noise::Side::below});
      it = no_stop.emplace(ms, noise::BasicLatentThreshold<F>::probability_of(rt, below)).first;
    }
    return it->second;
  };
  const Vec before(s.begin() + 2, s.end());
  Vec after = before;
  after.insert(std::upper_bound(after.begin(), after.end(), margin), margin);
  const V bot = N(after) / N(before);
  Vec cont{1, s[1]};
  cont.insert(cont.end(), after.begin(), after.end());
  return {{bot, "bot", cont}, {V(1) - bot, "top", Vec{2}}};
}

std::string show_core_user(const Vec& s, unsigned n) {
  if (s[0] == 0) return std::string("idle");
  if (s[0] == 2) return std::string("removed");
  return "N=" + bits(static_cast<unsigned long>(s[1]), n) + ",margins=[" + join(Vec(s.begin() + 2, s.end())) + "]";
}

/// The user as a mechanism with its initial state.
std::pair<std::shared_ptr<const InteractiveMechanism>, StateId> make_core_user(const CoreDecompositionParams& p) {
  const unsigned n = p.vertices;
  auto no_stop = std::make_shared<std::map<Vec, Rational>>();
  const Rational rt = p.r_threshold, rq = p.r_query;
  auto step = [no_stop, rt, rq](const Vec& s, const std::string& m) {
    std::vector<Outcome<Vec>> out;
    for (auto& o : core_user_step<noise::RationalField>(s, m, rt, rq, *no_stop))
      out.push_back({std::move(o.probability), std::move(o.answer), std::move(o.next)});
    return out;
  };
  auto show = [n](const Vec& s) { return show_core_user(s, n); };
  auto mech = std::make_shared<LambdaMechanism<Vec, detail::VectorHash>>(
      "core user(r_threshold=" + to_string(rt) + ", r_query=" + to_string(rq) + ")", core_user_messages(n, p.rounds), step, show);
  const StateId start = mech->state_id(Vec{0});
  return {mech, start};
}

/// The edges of K_n in lexicographic order.
std::vector<std::pair<unsigned, unsigned>> all_edges(unsigned n) {
  std::vector<std::pair<unsigned, unsigned>> e;
  for (unsigned u = 0; u < n; ++u)
    for (unsigned v = u + 1; v < n; ++v) e.push_back({u, v});
  return e;
}

/// S_P of the core-decomposition protocol on @p n vertices and @p R rounds (HSV §9): see core_decomposition().
DeterministicPostProcessor core_processor(unsigned n, unsigned R) {
  const auto E = all_edges(n);
  using Emit = DeterministicPostProcessor::Emit;
  // P's state: stage|i|round|graph|active set at the round's start|removal rounds
  auto enc = [](const std::string& stage, unsigned i, unsigned round, const std::string& g, unsigned long active, const Vec& removed) {
    return stage + "|" + std::to_string(i) + "|" + std::to_string(round) + "|" + g + "|" + std::to_string(active) + "|" + join(removed);
  };
  DeterministicPostProcessor P;
  P.name = "S_P (core decomposition server, d_r = r)";
  P.initial = enc("start", 0, 0, "-", 0, Vec(n, 0));
  P.step = [n, R, E, enc](const std::string& state, Port from, const std::string& message) -> Emit {
    const auto f = split(state, '|');
    const std::string& stage = f.at(0);
    const unsigned i = static_cast<unsigned>(std::stoul(f.at(1))), round = static_cast<unsigned>(std::stoul(f.at(2)));
    const std::string g = f.at(3);
    const unsigned long active = std::stoul(f.at(4));
    Vec removed = split_longs(f.at(5));
    auto neighbours = [&](const std::string& graph, unsigned v) {
      unsigned long mask = 0;
      for (std::size_t e = 0; e < E.size(); ++e)
        if (graph[e] == '1' && (E[e].first == v || E[e].second == v)) mask |= 1ul << (E[e].first == v ? E[e].second : E[e].first);
      return mask;
    };
    auto view = [&]() { return Emit{enc("done", 0, 0, g, 0, removed), Port::left, join(removed), {}}; };
    // ask the first vertex ≥ v of the active set A in round r, or close the round
    std::function<Emit(unsigned, unsigned, unsigned long)> ask = [&](unsigned v, unsigned r, unsigned long A) -> Emit {
      for (unsigned u = v; u < n; ++u)
        if ((A >> u) & 1)
          return Emit{enc("ask", u, r, g, A, removed), Port::right, sub_message(u, "ask:" + bits(A, n) + ":" + std::to_string(r)), {}};
      unsigned long next = A;  // A ← A \ S
      for (unsigned u = 0; u < n; ++u)
        if (removed[u] == static_cast<long>(r)) next &= ~(1ul << u);
      if (r == R || next == 0) return view();
      return ask(0, r + 1, next);
    };
    if (from == Port::left) {
      if (stage != "start") return Emit{state, Port::left, halt_answer, {}};
      return Emit{enc("data", 0, 0, message, 0, removed), Port::right, sub_message(0, "data:" + bits(neighbours(message, 0), n)), {}};
    }
    const auto [u, answer] = routed(message);
    if (stage == "data") {
      if (i + 1 < n) return Emit{enc("data", i + 1, 0, g, 0, removed), Port::right, sub_message(i + 1, "data:" + bits(neighbours(g, i + 1), n)), {}};
      return ask(0, 1, (1ul << n) - 1);
    }
    if (stage == "ask") {
      if (answer == "top") removed[i] = round;
      return ask(i + 1, round, active);
    }
    throw Error("S_P", "state", state, "unexpected message " + message);
  };
  return P;
}

/// Every graph on @p n vertices as its edge bits, and the pairs differing in at most one edge.
std::vector<std::string> core_graphs(unsigned n) {
  const std::size_t edges = all_edges(n).size();
  std::vector<std::string> graphs;
  for (unsigned long mask = 0; mask < (1ul << edges); ++mask) graphs.push_back(bits(mask, static_cast<unsigned>(edges)));
  return graphs;
}

}  // namespace

Game core_decomposition_user(const CoreDecompositionParams& params) {
  check_core(params);
  const unsigned n = params.vertices;
  const auto [mech, start] = make_core_user(params);
  std::vector<std::vector<AutomatonVerifier::Edge>> edges(2);
  for (unsigned long a = 0; a < (1ul << n); ++a)
    for (unsigned long b = 0; b < (1ul << n); ++b)
      if (__builtin_popcountl(a ^ b) <= 1)
        edges[0].push_back({{*mech->message_id("data:" + bits(a, n)), *mech->message_id("data:" + bits(b, n))}, 1});
  for (unsigned long a = 0; a < (1ul << n); ++a)
    for (unsigned d = 1; d <= params.rounds; ++d) {
      const MessageId q = *mech->message_id("ask:" + bits(a, n) + ":" + std::to_string(d));
      edges[1].push_back({{q, q}, 1});
    }
  auto verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"idle", "ready"}, 0, std::move(edges));
  return continual_game(mech->name() + " under g_user", mech, start, verifier, params.rounds + 1);
}

CompositeModel core_decomposition(const CoreDecompositionParams& params) {
  check_core(params);
  const unsigned n = params.vertices, R = params.rounds;
  const auto [user, start] = make_core_user(params);
  CompositeModel m;
  for (unsigned i = 0; i < n; ++i) m.subs.push_back({user, start});
  m.processor = core_processor(n, R);
  const DeterministicPostProcessor& P = m.processor;
  const std::vector<std::string> graphs = core_graphs(n);
  std::vector<Pair> pairs;
  for (const auto& a : graphs)
    for (const auto& b : graphs)
      if (__builtin_popcountl(mask_of(a) ^ mask_of(b)) <= 1) pairs.push_back({a, b});
  const CompositeMechanism cm = compose_deterministic(P, graphs, m.subs);
  m.input_relation = pairs_relation(pairs, std::nullopt);
  {  // f: a single graph pair
    auto base = m.input_relation.allowed;
    m.input_relation.allowed = [base](const std::string& sigma) { return sigma == "0" ? base(sigma) : std::vector<Pair>{}; };
    m.input_relation.next = [](const std::string&, const Pair&) { return std::string("1"); };
  }
  m.output_relation.initial = "0";
  m.output_relation.decide = [](const std::string& sigma, const Pair& pr) -> std::optional<std::string> {
    const auto [i0, m0] = routed(pr.first);
    const auto [i1, m1] = routed(pr.second);
    if (i0 != i1) return std::nullopt;
    if (m0 == m1) return sigma;
    const unsigned used = static_cast<unsigned>(std::stoul(sigma));
    // ∼_{2,∼*}: at most two users' neighbour sets differ, each in one vertex
    if (m0.rfind("data:", 0) != 0 || m1.rfind("data:", 0) != 0 || used >= 2 ||
        __builtin_popcountl(mask_of(m0.substr(5)) ^ mask_of(m1.substr(5))) > 1)
      return std::nullopt;
    return std::to_string(used + 1);
  };
  m.answers_to = [](const std::string& message) -> std::vector<std::string> {
    const auto [i, body] = routed(message);
    if (body.rfind("data:", 0) == 0) return {sub_message(i, "ok")};
    return {sub_message(i, "top"), sub_message(i, "bot")};
  };
  m.processor_horizon = 1 + n + n * R;
  m.game = continual_game("core decomposition (n=" + std::to_string(n) + ", R=" + std::to_string(R) + ")", cm.mechanism, cm.initial,
                          pairs_verifier(*cm.mechanism, pairs, std::nullopt), 1);
  return m;
}

parametric::ParametricGame core_decomposition_for_all(unsigned vertices, unsigned rounds, const parametric::RationalFunction& r_threshold,
                                                      const parametric::RationalFunction& r_query, const parametric::ParameterRange& range,
                                                      const std::string& parameter, unsigned horizon) {
  const char* where = "library::core_decomposition_for_all";
  CoreDecompositionParams numeric;  // the integer parameters, checked as for the numeric protocol
  numeric.vertices = vertices;
  numeric.rounds = rounds;
  check_core(numeric);
  detail::check_noise_for_all(where, "r_threshold", r_threshold, range, parameter);
  detail::check_noise_for_all(where, "r_query", r_query, range, parameter);
  const unsigned n = vertices;
  auto alphabet = std::make_shared<const std::vector<std::string>>(core_user_messages(n, rounds));
  auto no_stop = std::make_shared<std::map<Vec, parametric::RationalFunction>>();
  auto user_step = [alphabet, no_stop, r_threshold, r_query](const Vec& u, const std::string& msg)
      -> std::optional<std::vector<SubOutcome<parametric::RationalFunction, Vec>>> {
    if (std::find(alphabet->begin(), alphabet->end(), msg) == alphabet->end()) return std::nullopt;
    return core_user_step<parametric::ParametricField>(u, msg, r_threshold, r_query, *no_stop);
  };
  const std::vector<std::string> graphs = core_graphs(n);
  std::vector<MessagePair> pairs;  // graphs differing in at most one edge
  for (std::size_t a = 0; a < graphs.size(); ++a)
    for (std::size_t b = 0; b < graphs.size(); ++b)
      if (__builtin_popcountl(mask_of(graphs[a]) ^ mask_of(graphs[b])) <= 1) pairs.push_back({MessageId(a), MessageId(b)});
  return composite_for_all("core decomposition (n=" + std::to_string(n) + ", R=" + std::to_string(rounds) + ", r_threshold=" +
                               r_threshold.to_string(parameter) + ", r_query=" + r_query.to_string(parameter) + ")",
                           core_processor(n, rounds), n, Vec{0}, graphs, std::move(pairs), user_step,
                           [n](const Vec& u) { return show_core_user(u, n); }, range, parameter, horizon);
}

}  // namespace exactdp::library
