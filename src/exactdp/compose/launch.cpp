#include "exactdp/compose/launch.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/numeric/interval.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>

namespace exactdp {

// ------------------------------------------------------------------ continuation rules

namespace {
Rational product_lambda(const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
  Rational p = proposed.lambda;
  for (const auto& d : launched) p *= d.lambda;
  return p;
}
void check_budget(const char* rule, const char* field, const Rational& v, const Rational& lo, const char* why) {
  if (v < lo) throw Error(rule, field, to_string(v), why);
}
}  // namespace

ContinuationRule basic_pure_rule(Rational lambda_budget) {
  check_budget("basic_pure_rule", "lambda_budget", lambda_budget, Rational(1), "lambda = e^epsilon must be at least 1");
  return [l = std::move(lambda_budget)](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (sgn(proposed.delta) != 0) return false;  // a pure filter launches pure mechanisms only
    for (const auto& d : launched)
      if (sgn(d.delta) != 0) return false;
    return product_lambda(launched, proposed) <= l;
  };
}

ContinuationRule basic_approximate_rule(Rational lambda_budget, Rational delta_budget) {
  check_budget("basic_approximate_rule", "lambda_budget", lambda_budget, Rational(1), "lambda = e^epsilon must be at least 1");
  check_budget("basic_approximate_rule", "delta_budget", delta_budget, Rational(0), "delta must be non-negative");
  return [l = std::move(lambda_budget), dl = std::move(delta_budget)](const std::vector<LaunchParameters>& launched,
                                                                      const LaunchParameters& proposed) {
    Rational sum = proposed.delta;
    for (const auto& d : launched) sum += d.delta;
    return product_lambda(launched, proposed) <= l && sum <= dl;
  };
}

ContinuationRule product_delta_rule(Rational lambda_budget, Rational delta_budget) {
  check_budget("product_delta_rule", "lambda_budget", lambda_budget, Rational(1), "lambda = e^epsilon must be at least 1");
  check_budget("product_delta_rule", "delta_budget", delta_budget, Rational(0), "delta must be non-negative");
  return [l = std::move(lambda_budget), dl = std::move(delta_budget)](const std::vector<LaunchParameters>& launched,
                                                                      const LaunchParameters& proposed) {
    Rational keep = 1 - proposed.delta;
    for (const auto& d : launched) keep *= 1 - d.delta;
    return product_lambda(launched, proposed) <= l && 1 - keep <= dl;
  };
}

ContinuationRule renyi_moment_rule(Rational moment_budget) {
  check_budget("renyi_moment_rule", "moment_budget", moment_budget, Rational(1), "a Renyi moment budget is at least 1");
  return [b = std::move(moment_budget)](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (!proposed.renyi_moment) return false;
    Rational p = *proposed.renyi_moment;
    for (const auto& d : launched) {
      if (!d.renyi_moment) return false;
      p *= *d.renyi_moment;
    }
    return p <= b;
  };
}

ContinuationRule whitehouse_rule(Rational epsilon, Rational delta, Rational delta_prime, DecideOptions options) {
  if (sgn(epsilon) <= 0) throw Error("whitehouse_rule", "epsilon", to_string(epsilon), "the budget epsilon must be positive");
  if (sgn(delta_prime) <= 0 || delta_prime > delta || delta > 1)
    throw Error("whitehouse_rule", "delta_prime", to_string(delta_prime), "need 0 < delta' <= delta <= 1");
  return [=](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    std::vector<Rational> lambdas{proposed.lambda};
    Rational dsum = delta_prime + proposed.delta;
    for (const auto& d : launched) {
      lambdas.push_back(d.lambda);
      dsum += d.delta;
    }
    if (dsum > delta) return false;
    if (std::all_of(lambdas.begin(), lambdas.end(), [](const Rational& l) { return l == 1; })) return true;  // S₂ = 0 < ε
    // √(2 ln(1/δ′)·S₂) + S₂/2 with S₂ = Σ (ln λ_j)², enclosed at precision p
    Enclosure lhs = [&](Precision p) {
      Interval s2 = Interval::zero(p);
      for (const auto& l : lambdas) {
        Interval e = log(Interval(l, p));
        s2 += e * e;
      }
      Interval two_log = Interval(Rational(2), p) * log(Interval(Rational(1 / delta_prime), p));
      return sqrt(two_log * s2) + s2 / Interval(Rational(2), p);
    };
    const Decision d = decide_less_equal(lhs, epsilon, options);
    return d.outcome == Tri::yes;  // undecided at the cap: halt (conservative)
  };
}

Accumulator product_lambda_accumulator(Rational lambda_threshold) {
  check_budget("product_lambda_accumulator", "lambda_threshold", lambda_threshold, Rational(1), "lambda must be at least 1");
  Accumulator a;
  a.report = [](const std::vector<LaunchParameters>& ds) {
    Rational p = 1;
    for (const auto& d : ds) p *= d.lambda;
    return "lambda=" + to_string(p);
  };
  a.within = [t = std::move(lambda_threshold)](const std::vector<LaunchParameters>& ds) {
    Rational p = 1;
    for (const auto& d : ds) p *= d.lambda;
    return p <= t;
  };
  return a;
}

// ------------------------------------------------------------------ the composed mechanism

namespace {

/// The state of a launch composition: the world's index (the dataset), whether it halted, and the
/// created instances as (menu entry, instance state).
struct LaunchState {
  int world = 0;
  bool halted = false;
  std::vector<std::pair<std::uint32_t, StateId>> instances;
  friend bool operator==(const LaunchState&, const LaunchState&) = default;
};
struct LaunchStateHash {
  std::size_t operator()(const LaunchState& s) const noexcept {
    std::size_t h = std::size_t(s.world) * 31 + std::size_t(s.halted);
    for (const auto& [j, st] : s.instances) h ^= (std::size_t(j) << 32 | st) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
  }
};

const std::string privacy_loss_message = "privacy_loss";
const std::string created_answer = "created";
const std::string refused_answer = "refused";

/// What a launch composition does beyond ExtConComp.
struct LaunchSpec {
  std::vector<MenuEntry> menu;
  LaunchOptions options;
  ContinuationRule rule;                         // filter (empty: always continue)
  std::optional<Accumulator> odometer;           // odometer with truncated view
  std::optional<std::vector<LaunchParameters>> sparse;  // parallel composition
  bool first_pair_consistent = false;
  bool sparse_by_lambda = false;  // HSV D5.3: J's multiset condition on λ only
};

std::vector<LaunchParameters> parameters_of(const std::vector<MenuEntry>& menu, const LaunchState& s) {
  std::vector<LaunchParameters> out;
  for (const auto& [j, st] : s.instances) out.push_back(menu[j].parameters);
  return out;
}

/// Multiset inclusion on (λ, δ) (HSV D5.1: the parameters of J form a sub-multiset of the budget).
bool sub_multiset(const std::vector<LaunchParameters>& part, const std::vector<LaunchParameters>& budget, bool lambda_only = false) {
  std::vector<bool> used(budget.size(), false);
  for (const auto& p : part) {
    bool found = false;
    for (std::size_t i = 0; i < budget.size() && !found; ++i)
      if (!used[i] && budget[i].lambda == p.lambda && (lambda_only || budget[i].delta == p.delta)) used[i] = found = true;
    if (!found) return false;
  }
  return true;
}

class LaunchVerifier;

/// The message alphabet: creations, then "i:m" for every instance slot and every message name of
/// the menu, then privacy_loss for odometers.
std::vector<std::string> launch_messages(const LaunchSpec& spec) {
  std::vector<std::string> ms;
  for (const auto& e : spec.menu) ms.push_back("create:" + e.name);
  std::vector<std::string> inner;
  for (const auto& e : spec.menu)
    for (const auto& m : e.game.mechanism->messages())
      if (std::find(inner.begin(), inner.end(), m) == inner.end()) inner.push_back(m);
  for (std::size_t i = 0; i < spec.options.max_instances; ++i)
    for (const auto& m : inner) ms.push_back(routed_name(i, m));
  if (spec.odometer) ms.push_back(privacy_loss_message);
  return ms;
}

using LaunchMechanism = LambdaMechanism<LaunchState, LaunchStateHash>;

std::shared_ptr<LaunchMechanism> launch_mechanism(std::shared_ptr<const LaunchSpec> spec, const std::string& name) {
  auto step = [spec](const LaunchState& s, const std::string& message) -> std::vector<Outcome<LaunchState>> {
    const auto& menu = spec->menu;
    if (s.halted) return {{Rational(1), halt_answer, s}};
    if (message == privacy_loss_message) return {{Rational(1), spec->odometer->report(parameters_of(menu, s)), s}};
    if (message.rfind("create:", 0) == 0) {
      const std::string entry = message.substr(7);
      const auto j = static_cast<std::size_t>(
          std::find_if(menu.begin(), menu.end(), [&](const MenuEntry& e) { return e.name == entry; }) - menu.begin());
      if (j == menu.size() || s.instances.size() >= spec->options.max_instances) return {{Rational(1), invalid_answer, s}};
      auto launched = parameters_of(menu, s);
      bool go = true;
      if (spec->rule) go = spec->rule(launched, menu[j].parameters);
      if (spec->odometer) {
        launched.push_back(menu[j].parameters);
        go = spec->odometer->within(launched);
      }
      if (!go && spec->rule && !spec->odometer && spec->options.refuse_and_continue) return {{Rational(1), refused_answer, s}};
      if (!go) {
        LaunchState h = s;
        h.halted = true;
        return {{Rational(1), halt_answer, h}};
      }
      std::vector<Outcome<LaunchState>> out;
      for (const auto& [st, p] : menu[j].game.initial[std::size_t(s.world)]) {
        LaunchState n = s;
        n.instances.emplace_back(static_cast<std::uint32_t>(j), st);
        out.push_back({p, created_answer, std::move(n)});
      }
      return out;
    }
    const auto routed = parse_routed_name(message);
    if (!routed || routed->first >= s.instances.size()) return {{Rational(1), invalid_answer, s}};
    const auto [j, st] = s.instances[routed->first];
    const InteractiveMechanism& m = *menu[j].game.mechanism;
    const auto id = m.message_id(routed->second);
    if (!id) return {{Rational(1), invalid_answer, s}};
    std::vector<Outcome<LaunchState>> out;
    for (const auto& t : m.step(st, *id)) {
      LaunchState n = s;
      n.instances[routed->first].second = t.next;
      out.push_back({t.probability, m.answer_name(t.answer), std::move(n)});
    }
    return out;
  };
  auto show = [spec](const LaunchState& s) {
    std::string out = std::string("w") + std::to_string(s.world) + (s.halted ? " halted" : "") + " [";
    for (std::size_t i = 0; i < s.instances.size(); ++i) {
      const auto& [j, st] = s.instances[i];
      out += (i ? ", " : "") + spec->menu[j].name + "@" + spec->menu[j].game.mechanism->state_name(st);
    }
    return out + "]";
  };
  return std::make_shared<LaunchMechanism>(name, launch_messages(*spec), step, show);
}

/// The verifier of a launch composition: creation pairs are identical; instance i receives the
/// pairs its menu entry's verifier allows, subject to the sparsity and FPC conditions.
class LaunchVerifier final : public Verifier {
public:
  LaunchVerifier(std::shared_ptr<const LaunchSpec> spec, std::shared_ptr<const InteractiveMechanism> mechanism)
      : spec_(std::move(spec)), mechanism_(std::move(mechanism)) {
    for (MessageId m = 0; m < mechanism_->messages().size(); ++m) ids_[mechanism_->messages()[m]] = m;
    initial_ = intern({});
  }
  VerifierState initial_state() const override { return initial_; }
  const std::vector<MessagePair>& allowed(VerifierState state) const override { return nodes_.at(state)->pairs; }
  VerifierState next(VerifierState state, std::size_t action) const override {
    Node& n = *nodes_.at(state);
    if (n.next[action] != unset) return n.next[action];
    std::vector<Instance> inst = n.instances;
    const Action& a = n.actions[action];
    if (a.kind == Action::create) {
      // A refused launch of the refusing variant creates no instance, so instance indices keep
      // matching the mechanism's (the rule sees parameters only, so the verifier can decide it).
      bool accepted = true;
      if (spec_->rule && !spec_->odometer && spec_->options.refuse_and_continue) {
        std::vector<LaunchParameters> launched;
        for (const auto& i : inst) launched.push_back(spec_->menu[i.menu].parameters);
        accepted = spec_->rule(launched, spec_->menu[a.index].parameters);
      }
      if (accepted) inst.push_back(Instance{a.index, spec_->menu[a.index].game.verifier->initial_state(), false, false, false});
    } else if (a.kind == Action::query) {
      Instance& i = inst[a.index];
      const auto& inner = *spec_->menu[i.menu].game.verifier;
      const bool identical = inner.allowed(i.sigma).at(a.inner).identical();
      if (!i.touched) i.first_identical = identical;
      i.touched = true;
      i.differing = i.differing || !identical;
      i.sigma = inner.next(i.sigma, a.inner);
    }
    const VerifierState out = intern(std::move(inst));
    nodes_.at(state)->next[action] = out;
    return out;
  }
  std::string describe() const override {
    std::string s = spec_->sparse ? "parallel composition (at most " + std::to_string(spec_->sparse->size()) + " instances with differing pairs" +
                                        (spec_->first_pair_consistent ? ", first-pair consistent" : "") + ")"
                                  : "extended concurrent composition";
    return s + " of a menu of " + std::to_string(spec_->menu.size());
  }

private:
  struct Instance {
    std::uint32_t menu = 0;
    VerifierState sigma = 0;
    bool differing = false, touched = false, first_identical = false;
    friend auto operator<=>(const Instance&, const Instance&) = default;
  };
  struct Action {
    enum Kind { create, query, loss } kind;
    std::uint32_t index = 0;  // menu entry (create) or instance (query)
    std::size_t inner = 0;    // the instance verifier's action
  };
  struct Node {
    std::vector<Instance> instances;
    std::vector<MessagePair> pairs;
    std::vector<Action> actions;
    std::vector<VerifierState> next;
  };
  static constexpr VerifierState unset = ~VerifierState(0);

  MessageId id(const std::string& name) const { return ids_.at(name); }

  VerifierState intern(std::vector<Instance> inst) const {
    auto [it, inserted] = index_.try_emplace(inst, static_cast<VerifierState>(nodes_.size()));
    if (!inserted) return it->second;
    auto node = std::make_unique<Node>();
    const auto& menu = spec_->menu;
    if (inst.size() < spec_->options.max_instances)
      for (std::uint32_t j = 0; j < menu.size(); ++j) {
        const MessageId m = id("create:" + menu[j].name);
        node->pairs.push_back({m, m});
        node->actions.push_back({Action::create, j, 0});
      }
    for (std::uint32_t i = 0; i < inst.size(); ++i) {
      const MenuEntry& e = menu[inst[i].menu];
      const auto& ps = e.game.verifier->allowed(inst[i].sigma);
      for (std::size_t a = 0; a < ps.size(); ++a) {
        if (!ps[a].identical() && !may_differ(inst, i)) continue;
        const auto& ms = e.game.mechanism->messages();
        node->pairs.push_back({id(routed_name(i, ms.at(ps[a].world0))), id(routed_name(i, ms.at(ps[a].world1)))});
        node->actions.push_back({Action::query, i, a});
      }
    }
    if (spec_->odometer) {
      const MessageId m = id(privacy_loss_message);
      node->pairs.push_back({m, m});
      node->actions.push_back({Action::loss, 0, 0});
    }
    node->next.assign(node->pairs.size(), unset);
    node->instances = std::move(inst);
    nodes_.push_back(std::move(node));
    return it->second;
  }

  /// Whether instance i may receive a non-identical pair now (HSV D5.1, D5.13).
  bool may_differ(const std::vector<Instance>& inst, std::uint32_t i) const {
    if (spec_->first_pair_consistent && inst[i].touched && inst[i].first_identical) return false;
    if (!spec_->sparse || inst[i].differing) return true;
    std::vector<LaunchParameters> j;
    for (std::uint32_t x = 0; x < inst.size(); ++x)
      if (inst[x].differing || x == i) j.push_back(spec_->menu[inst[x].menu].parameters);
    return sub_multiset(j, *spec_->sparse, spec_->sparse_by_lambda);
  }

  std::shared_ptr<const LaunchSpec> spec_;
  std::shared_ptr<const InteractiveMechanism> mechanism_;
  std::map<std::string, MessageId> ids_;
  VerifierState initial_ = 0;
  mutable std::vector<std::unique_ptr<Node>> nodes_;
  mutable std::map<std::vector<Instance>, VerifierState> index_;
};

Game launch_game(LaunchSpec spec, const std::string& kind) {
  if (spec.menu.empty()) throw Error(kind, "menu", "[]", "the menu needs at least one mechanism");
  if (spec.options.max_instances == 0) throw Error(kind, "max_instances", "0", "must be at least 1");
  if (spec.options.max_instances > 64) throw Error(kind, "max_instances", std::to_string(spec.options.max_instances), "at most 64 instances");
  if (spec.options.horizon == 0) throw Error(kind, "horizon", "0", "the horizon must be at least 1");
  std::set<std::string> names;
  for (std::size_t j = 0; j < spec.menu.size(); ++j) {
    const auto& e = spec.menu[j];
    const std::string field = "menu/" + std::to_string(j);
    if (e.name.empty() || e.name.find(':') != std::string::npos) throw Error(kind, field + "/name", e.name, "a menu name is non-empty and has no ':'");
    if (!names.insert(e.name).second) throw Error(kind, field + "/name", e.name, "two menu entries have this name");
    try {
      e.game.validate();
    } catch (const Error& err) {
      throw Error(kind, field, e.name, err.what());
    }
    if (e.parameters.lambda < 1) throw Error(kind, field + "/lambda", to_string(e.parameters.lambda), "lambda = e^epsilon is at least 1");
    if (sgn(e.parameters.delta) < 0 || e.parameters.delta > 1) throw Error(kind, field + "/delta", to_string(e.parameters.delta), "delta lies in [0, 1]");
  }
  std::string name = spec.options.name;
  if (name.empty()) {
    name = kind + " of {";
    for (std::size_t j = 0; j < spec.menu.size(); ++j) name += (j ? ", " : "") + spec.menu[j].name;
    name += "}";
  }
  auto shared = std::make_shared<const LaunchSpec>(std::move(spec));
  auto mech = launch_mechanism(shared, name);
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = std::make_shared<LaunchVerifier>(shared, mech);
  g.world_names = shared->menu.front().game.world_names;
  g.horizon = shared->options.horizon;
  const bool empty_view = shared->odometer && !shared->odometer->within({});
  for (int b = 0; b < 2; ++b) g.initial[std::size_t(b)] = {{mech->state_id(LaunchState{b, empty_view, {}}), Rational(1)}};
  g.validate();
  return g;
}

}  // namespace

Game extended_concurrent(std::vector<MenuEntry> menu, const LaunchOptions& options) {
  LaunchSpec s;
  s.menu = std::move(menu);
  s.options = options;
  return launch_game(std::move(s), "extended concurrent composition");
}

Game parallel_composition(std::vector<MenuEntry> menu, std::vector<LaunchParameters> sparse_budget, bool first_pair_consistent,
                          const LaunchOptions& options) {
  LaunchSpec s;
  s.menu = std::move(menu);
  s.options = options;
  s.sparse = std::move(sparse_budget);
  s.first_pair_consistent = first_pair_consistent;
  return launch_game(std::move(s), "parallel composition");
}

Game approximate_parallel_composition(std::vector<MenuEntry> menu, std::vector<Rational> sparse_lambdas, Rational delta_budget,
                                      const LaunchOptions& options) {
  const char* kind = "approximate parallel composition";
  if (sgn(delta_budget) < 0 || delta_budget > 1) throw Error(kind, "delta_budget", to_string(delta_budget), "delta' lies in [0, 1]");
  LaunchSpec s;
  s.menu = std::move(menu);
  s.options = options;
  std::vector<LaunchParameters> sparse;
  for (std::size_t i = 0; i < sparse_lambdas.size(); ++i) {
    if (sparse_lambdas[i] < 1)
      throw Error(kind, "sparse_lambdas/" + std::to_string(i), to_string(sparse_lambdas[i]), "lambda = e^epsilon is at least 1");
    sparse.push_back(LaunchParameters{std::move(sparse_lambdas[i]), Rational(0), std::nullopt});
  }
  s.sparse = std::move(sparse);
  s.sparse_by_lambda = true;
  // the product budget over every created instance (HSV D5.3): 1 − Π(1 − δ_j) ≤ δ′
  s.rule = [budget = std::move(delta_budget)](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    Rational keep = 1 - proposed.delta;
    for (const auto& d : launched) keep *= 1 - d.delta;
    return 1 - keep <= budget;
  };
  return launch_game(std::move(s), kind);
}

Game filter_composition(std::vector<MenuEntry> menu, ContinuationRule rule, const LaunchOptions& options) {
  if (!rule) throw Error("filter composition", "rule", "empty", "a filter needs a continuation rule");
  LaunchSpec s;
  s.menu = std::move(menu);
  s.options = options;
  s.rule = std::move(rule);
  return launch_game(std::move(s), "filter");
}

Game odometer_truncated(std::vector<MenuEntry> menu, Accumulator accumulator, const LaunchOptions& options) {
  if (!accumulator.report || !accumulator.within) throw Error("odometer", "accumulator", "empty", "an odometer needs report and within");
  LaunchSpec s;
  s.menu = std::move(menu);
  s.options = options;
  s.odometer = std::move(accumulator);
  return launch_game(std::move(s), "odometer");
}

}  // namespace exactdp
