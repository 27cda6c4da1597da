#include "proofs_checks/hstvvxz23_support.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/library/library.hpp"
#include "exactdp/numeric/interval.hpp"

#include <set>

namespace exactdp::proofs::filters {

using Row = TableMechanism::Row;
using Rows = std::vector<Row>;
using States = std::vector<std::pair<std::string, TableMechanism::StateTable>>;

EngineOptions at_horizon(unsigned horizon) {
  EngineOptions o;
  o.horizon = horizon;
  return o;
}

bool below(const PiecewiseLinear& f, const PiecewiseLinear& g) { return max(f, g) == g; }

bool profile_below(const PrivacyProfile& lower, const PrivacyProfile& upper) {
  return below(lower.forward(), upper.forward()) && below(lower.backward(), upper.backward());
}

Game one_shot_rr(const Rational& lambda, const Rational& delta) { return library::randomized_response(lambda, delta); }

Game choice_im() {
  auto bit = [](const Rational& p) { return Rows{Row{p, "0", "done"}, Row{1 - p, "1", "done"}}; };
  States s{{"b0", {false, {{"p", bit(q(3, 4))}, {"a", Rows{Row{q(1, 3), "A", "done"}, Row{q(1, 3), "+", "done"}, Row{q(1, 3), "-", "done"}}}}}},
           {"b1", {false, {{"p", bit(q(1, 4))}, {"a", Rows{Row{q(1, 3), "+", "done"}, Row{q(1, 3), "-", "done"}, Row{q(1, 3), "B", "done"}}}}}},
           {"done", {true, {}}}};
  auto mech = std::make_shared<TableMechanism>("choice C", s);
  return static_game("choice C", mech, {mech->state_id("b0"), mech->state_id("b1")}, 1);
}

Game fresh_rr3() {
  States s{{"b0", {false, {{"*", Rows{Row{q(3, 4), "0", "b0"}, Row{q(1, 4), "1", "b0"}}}}}},
           {"b1", {false, {{"*", Rows{Row{q(1, 4), "0", "b1"}, Row{q(3, 4), "1", "b1"}}}}}}};
  auto mech = std::make_shared<TableMechanism>("fresh RR3", s, std::vector<std::string>{"q"});
  return static_game("fresh RR3", mech, {0, 1}, 2);
}

PostProcessor ask_twice(bool use_and) {
  PostProcessorTable t;
  t.name = use_and ? "AND" : "XOR";
  t.initial = "idle";
  t.left_messages = {"go"};
  t.rules["idle"]["L"]["*"] = {{Rational(1), "first", Port::right, "q"}};
  for (int a = 0; a < 2; ++a) {
    t.rules["first"]["R"][std::to_string(a)] = {{Rational(1), "second" + std::to_string(a), Port::right, "q"}};
    for (int c = 0; c < 2; ++c) {
      const int answer = use_and ? (a & c) : (a ^ c);
      t.rules["second" + std::to_string(a)]["R"][std::to_string(c)] = {{Rational(1), "idle", Port::left, std::to_string(answer)}};
    }
  }
  return post_processor_from_table(std::move(t));
}

Game rr_bit_game(const Rational& lambda, const Rational& delta) {
  auto rows = [&](int bit) {
    Rows r;
    const Rational keep = (1 - delta) * lambda / (1 + lambda), flip = (1 - delta) / (1 + lambda);
    if (sgn(delta) > 0) r.push_back({delta, "leak" + std::to_string(bit), "done"});
    r.push_back({keep, std::to_string(bit), "done"});
    r.push_back({flip, std::to_string(1 - bit), "done"});
    return r;
  };
  const std::string name = "RR(" + str(lambda) + "," + str(delta) + ") of a bit";
  States s{{"ready", {false, {{"0", rows(0)}, {"1", rows(1)}}}}, {"done", {true, {}}}};
  auto mech = std::make_shared<TableMechanism>(name, s, std::vector<std::string>{"0", "1"});
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = std::make_shared<PairsVerifier>(std::vector<MessagePair>{{0, 1}}, std::nullopt);
  g.initial = {InitialLaw{{mech->state_id("ready"), Rational(1)}}, InitialLaw{{mech->state_id("ready"), Rational(1)}}};
  g.horizon = 1;
  g.validate();
  return g;
}

Game random_finite_game(Rng& rng, int states, unsigned depth) {
  States table;
  auto name = [](unsigned level, int s) { return "l" + std::to_string(level) + "s" + std::to_string(s); };
  for (unsigned level = 0; level < depth; ++level)
    for (int s = 0; s < states; ++s) {
      const TableMechanism::StateTable t = random_state_table(rng, states, [&](int n) {
        return level + 1 == depth ? std::string("done") : name(level + 1, n);
      });
      table.push_back({name(level, s), t});
    }
  table.push_back({"done", {true, {}}});
  auto mech = std::make_shared<TableMechanism>("random", table, std::vector<std::string>{"0", "1"});
  return static_game("random", mech, {mech->state_id(name(0, 0)), mech->state_id(name(0, 1))}, depth);
}

MenuEntry certified_entry(const std::string& name, const Game& game, const Rational& lambda, unsigned long alpha) {
  LaunchParameters p;
  p.lambda = lambda;
  p.delta = worst_case_hockey_stick(game, lambda).delta();
  const auto m = worst_case_renyi_moment(game, alpha).max();
  if (m.is_finite()) p.renyi_moment = m.value();
  return MenuEntry{name, game, p};
}

MenuEntry entry(const std::string& name, Game game, const Rational& lambda, const Rational& delta, std::optional<Rational> moment) {
  return MenuEntry{name, std::move(game), LaunchParameters{lambda, delta, std::move(moment)}};
}

std::string describe_menu(const std::vector<MenuEntry>& menu) {
  std::string s = "{";
  for (std::size_t i = 0; i < menu.size(); ++i) {
    const auto& p = menu[i].parameters;
    s += (i ? ", " : "") + menu[i].name + " [" + menu[i].game.name + "] (λ=" + str(p.lambda) + ", δ=" + str(p.delta) +
         (p.renyi_moment ? ", m=" + str(*p.renyi_moment) : "") + ")";
  }
  return s + "}";
}

Game canonical_pair_game(const std::string& name, const Game& game) {
  // The envelope T(V₀, V₁) of the entry; its inverse is the envelope of the reversed order (for
  // every adversary T(V₁, V₀) = T(V₀, V₁)⁻¹), so the symmetrised curve lies below both.
  const TradeOff f = tradeoff_envelope(worst_case_profile(game).profile).world0_vs_world1.symmetrized();
  std::vector<std::pair<Rational, Rational>> masses;
  const PrivacyLoss pair = f.canonical_pair();
  for (const auto& a : pair.atoms()) masses.emplace_back(a.p, a.q);
  return pair_game(name, masses);
}

PostProcessor random_post_processor(Rng& rng) {
  PostProcessorTable t;
  t.name = "P";
  t.initial = "i0";
  t.left_messages = {"0", "1"};
  // outcomes with random integer weights 0..2 (at least one positive)
  auto weights = [&](std::size_t n) {
    std::vector<long> w(n);
    long sum = 0;
    while (sum == 0) {
      sum = 0;
      for (auto& x : w) sum += (x = rng.range(0, 2));
    }
    return std::make_pair(w, sum);
  };
  for (int k = 0; k < 2; ++k) {
    const std::string idle = "i" + std::to_string(k), other = "i" + std::to_string(1 - k);
    for (const std::string m : {"0", "1"}) {
      auto [w, sum] = weights(3);
      auto& rows = t.rules[idle]["L"][m];
      if (w[0]) rows.push_back({q(w[0], sum), "w" + std::to_string(k), Port::right, "0"});
      if (w[1]) rows.push_back({q(w[1], sum), "w" + std::to_string(k), Port::right, "1"});
      if (w[2]) rows.push_back({q(w[2], sum), other, Port::left, "x"});
    }
    // first answer of M: answer left ("x"/"y", moving to either idle state) or ask once more
    for (const std::string a : {"0", "1"}) {
      auto [w, sum] = weights(3);
      auto& rows = t.rules["w" + std::to_string(k)]["R"][a];
      if (w[0]) rows.push_back({q(w[0], sum), idle, Port::left, "x"});
      if (w[1]) rows.push_back({q(w[1], sum), other, Port::left, "y"});
      if (w[2]) rows.push_back({q(w[2], sum), "v" + std::to_string(k) + a, Port::right, a == "0" ? "1" : "0"});
      // second answer: a function of both answers, drawn at random once
      for (const std::string c : {"0", "1"}) {
        const long pick = rng.range(0, 2);
        auto& second = t.rules["v" + std::to_string(k) + a]["R"][c];
        if (pick == 0) second = {{Rational(1), idle, Port::left, "x"}};
        if (pick == 1) second = {{Rational(1), other, Port::left, "y"}};
        if (pick == 2) second = {{q(1, 2), idle, Port::left, "x"}, {q(1, 2), other, Port::left, "y"}};
      }
    }
  }
  return post_processor_from_table(std::move(t));
}

std::vector<Step> transcript(const Game& game, const Adversary& adversary, const View& view) {
  std::vector<Step> out;
  std::size_t node = 0;
  const auto& m = *game.mechanism;
  for (std::size_t i = 0; i < view.size(); ++i) {
    const auto& n = adversary.nodes().at(node);
    if (!n.send) throw Error("transcript", "view", std::to_string(i), "the adversary stopped before the end of the view");
    out.push_back({m.messages().at(n.send->world0), m.messages().at(n.send->world1), m.answer_name(view[i])});
    const auto c = adversary.child(node, view[i]);
    if (!c) {
      if (i + 1 != view.size()) throw Error("transcript", "view", std::to_string(i), "the view continues after the adversary stopped");
      break;
    }
    node = *c;
  }
  return out;
}

ViewLaw view_law(const Game& game, const Adversary& adversary, unsigned horizon,
                 const std::function<std::vector<std::string>(const std::vector<Step>&)>& project) {
  const auto v = view_distributions(game, adversary, horizon);
  ViewLaw law;
  for (int b = 0; b < 2; ++b)
    for (const auto& [view, p] : (b == 0 ? v.world0 : v.world1)) {
      const auto steps = transcript(game, adversary, view);
      std::vector<std::string> key;
      if (project)
        key = project(steps);
      else
        for (const auto& s : steps) key.push_back(s.answer);
      law[key][std::size_t(b)] += p;
    }
  return law;
}

std::string describe_law(const ViewLaw& law, std::size_t limit) {
  std::string s;
  std::size_t n = 0;
  for (const auto& [view, pq] : law) {
    if (n++ == limit) return s + "…";
    s += "[";
    for (std::size_t i = 0; i < view.size(); ++i) s += (i ? " " : "") + view[i];
    s += "] (" + str(pq[0]) + ", " + str(pq[1]) + "); ";
  }
  return s;
}

PrivacyLoss loss_of(const ViewLaw& law) {
  std::vector<std::pair<Rational, Rational>> m;
  for (const auto& [view, pq] : law)
    if (sgn(pq[0]) + sgn(pq[1]) > 0) m.emplace_back(pq[0], pq[1]);
  return PrivacyLoss::from_masses(m, "view law");
}

namespace {

/// The reachable supports of a game node (mechanism states per world) and its verifier state.
struct Support {
  VerifierState sigma;
  std::array<std::set<StateId>, 2> states;
};

Support root_support(const Game& g) {
  Support s{g.verifier->initial_state(), {}};
  for (int b = 0; b < 2; ++b)
    for (const auto& [st, p] : g.initial[std::size_t(b)]) s.states[std::size_t(b)].insert(st);
  return s;
}

std::optional<std::size_t> action_of(const Game& g, VerifierState sigma, const std::string& m0, const std::string& m1) {
  const auto id0 = g.mechanism->message_id(m0), id1 = g.mechanism->message_id(m1);
  if (!id0 || !id1) return std::nullopt;
  const auto& allowed = g.verifier->allowed(sigma);
  for (std::size_t a = 0; a < allowed.size(); ++a)
    if (allowed[a].world0 == *id0 && allowed[a].world1 == *id1) return a;
  return std::nullopt;
}

/// Answer → successor support after sending allowed(σ)[action].
std::map<AnswerId, Support> successors(const Game& g, const Support& s, std::size_t action) {
  const MessagePair pair = g.verifier->allowed(s.sigma)[action];
  const VerifierState next = g.verifier->next(s.sigma, action);
  std::map<AnswerId, Support> out;
  for (int b = 0; b < 2; ++b)
    for (StateId st : s.states[std::size_t(b)])
      for (const auto& t : g.mechanism->step(st, b == 0 ? pair.world0 : pair.world1)) {
        auto [it, fresh] = out.try_emplace(t.answer, Support{next, {}});
        it->second.states[std::size_t(b)].insert(t.next);
      }
  return out;
}

void replay_node(const Game& source, const Adversary& adv, std::size_t snode, const Game& target, const MessageMap& map,
                 Adversary& out, std::size_t tnode, const Support& support, unsigned rounds, std::vector<std::string> earlier) {
  // skip dropped messages (deterministic answers: follow the single child)
  for (;;) {
    const auto& n = adv.nodes().at(snode);
    if (!n.send || rounds == 0) return;
    const std::string m0 = source.mechanism->messages().at(n.send->world0), m1 = source.mechanism->messages().at(n.send->world1);
    const auto t0 = map(earlier, m0), t1 = map(earlier, m1);
    earlier.push_back(m0);
    if (t0.has_value() != t1.has_value()) throw Error("replay", "message", m0 + "/" + m1, "dropped in one world only");
    if (!t0) {
      if (n.next.size() > 1) throw Error("replay", "message", m0, "a dropped message must have a deterministic answer");
      if (n.next.empty()) return;
      snode = n.next.front().second;
      continue;
    }
    const auto action = action_of(target, support.sigma, *t0, *t1);
    if (!action) {
      std::string path;
      for (const auto& e : earlier) path += " " + e;
      throw Error("replay", "message", *t0 + "/" + *t1, "not allowed in the target game " + target.name + " after" + path);
    }
    out.set_send(tnode, target.verifier->allowed(support.sigma)[*action]);
    if (rounds == 1) return;
    for (const auto& [answer, child_support] : successors(target, support, *action)) {
      const std::string& name = target.mechanism->answer_name(answer);
      std::optional<std::size_t> schild;
      for (const auto& [sa, c] : n.next)
        if (source.mechanism->answer_name(sa) == name) schild = c;
      if (!schild) continue;
      const std::size_t c = out.add_node(std::nullopt);
      out.set_child(tnode, answer, c);
      replay_node(source, adv, *schild, target, map, out, c, child_support, rounds - 1, earlier);
    }
    return;
  }
}

void random_below(const Game& g, Adversary& adv, std::size_t id, const Support& s, unsigned rounds, Rng& rng) {
  const std::size_t actions = g.verifier->allowed(s.sigma).size();
  if (rounds == 0 || actions == 0) return;
  const std::size_t a = static_cast<std::size_t>(rng.range(0, static_cast<long>(actions) - 1));
  adv.set_send(id, g.verifier->allowed(s.sigma)[a]);
  if (rounds == 1) return;
  for (auto& [y, child] : successors(g, s, a)) {
    if (g.verifier->allowed(child.sigma).empty()) continue;
    const std::size_t c = adv.add_node(std::nullopt);
    adv.set_child(id, y, c);
    random_below(g, adv, c, child, rounds - 1, rng);
  }
}

void policy_node(const Game& g, const std::function<std::optional<std::string>(const std::vector<Step>&)>& policy, Adversary& adv,
                 std::size_t id, const Support& s, std::vector<Step> steps, unsigned rounds) {
  if (rounds == 0) return;
  const auto m = policy(steps);
  if (!m) return;
  const auto action = action_of(g, s.sigma, *m, *m);
  if (!action) throw Error("adversary_from_policy", "message", *m, "not allowed after " + std::to_string(steps.size()) + " rounds");
  adv.set_send(id, g.verifier->allowed(s.sigma)[*action]);
  if (rounds == 1) return;
  for (auto& [y, child] : successors(g, s, *action)) {
    auto next = steps;
    next.push_back({*m, *m, g.mechanism->answer_name(y)});
    if (!policy(next)) continue;
    const std::size_t c = adv.add_node(std::nullopt);
    adv.set_child(id, y, c);
    policy_node(g, policy, adv, c, child, std::move(next), rounds - 1);
  }
}

}  // namespace

Adversary adversary_from_policy(const Game& game, const std::function<std::optional<std::string>(const std::vector<Step>&)>& policy,
                                unsigned horizon) {
  Adversary adv;
  policy_node(game, policy, adv, 0, root_support(game), {}, horizon);
  return adv;
}

Adversary replay(const Game& source, const Adversary& adversary, const Game& target, const MessageMap& map, unsigned horizon) {
  Adversary out;
  replay_node(source, adversary, 0, target, map, out, 0, root_support(target), horizon, {});
  return out;
}

std::optional<Adversary> random_adversary_from(const Game& game, const std::string& first, unsigned horizon, Rng& rng) {
  const Support r = root_support(game);
  const auto action = action_of(game, r.sigma, first, first);
  if (!action || horizon == 0) return std::nullopt;
  Adversary adv;
  adv.set_send(0, game.verifier->allowed(r.sigma)[*action]);
  for (auto& [y, child] : successors(game, r, *action)) {
    if (horizon == 1 || game.verifier->allowed(child.sigma).empty()) continue;
    const std::size_t c = adv.add_node(std::nullopt);
    adv.set_child(0, y, c);
    random_below(game, adv, c, child, horizon - 1, rng);
  }
  return adv;
}

Rational exp_lower(const Rational& epsilon) { return exp(Interval(epsilon, 128)).lower(); }

// ------------------------------------------------------------------ shared by the hstvvxz23_*.cpp checks

std::vector<Rational> comparison_points(const std::vector<const PiecewiseLinear*>& curves) {
  std::set<Rational> pts{Rational(0), Rational(1)};
  for (const auto* c : curves)
    for (const auto& x : c->breakpoints()) pts.insert(x);
  return {pts.begin(), pts.end()};
}

MenuEntry random_im_entry(Rng& rng, const std::string& name, unsigned long alpha) {
  const Rational lambda = lambda_grid()[static_cast<std::size_t>(rng.range(1, 4))];
  switch (rng.range(0, 6)) {
    case 0: return certified_entry(name, mp_game(), lambda, alpha);
    case 1: return certified_entry(name, ma_game(), lambda, alpha);
    case 2: return certified_entry(name, library::sticky_randomized_response(lambda_grid()[static_cast<std::size_t>(rng.range(1, 4))], 2), lambda, alpha);
    case 3: return certified_entry(name, library::interactive_randomized_response(q(2), std::vector<Rational>{q(1, 20), q(1, 10)}[rng.range(0, 1)]), lambda, alpha);
    case 4: return certified_entry(name, choice_im(), lambda, alpha);
    default: return certified_entry(name, random_finite_game(rng, 2, static_cast<unsigned>(rng.range(1, 2))), lambda, alpha);
  }
}

std::vector<MenuEntry> random_im_menu(Rng& rng, std::size_t size, unsigned long alpha) {
  std::vector<MenuEntry> menu;
  for (std::size_t j = 0; j < size; ++j) menu.push_back(random_im_entry(rng, "E" + std::to_string(j), alpha));
  return menu;
}

std::vector<MenuEntry> random_rr_menu(Rng& rng, std::size_t size, bool pure) {
  std::vector<MenuEntry> menu;
  const std::vector<Rational> lambdas{q(3, 2), q(2), q(3)}, deltas{q(0), q(1, 10), q(1, 20)};
  for (std::size_t j = 0; j < size; ++j) {
    const Rational l = lambdas[static_cast<std::size_t>(rng.range(0, 2))];
    const Rational d = pure ? Rational(0) : deltas[static_cast<std::size_t>(rng.range(0, 2))];
    menu.push_back(entry("R" + std::to_string(j), one_shot_rr(l, d), l, d));
  }
  return menu;
}

std::size_t slots(const CheckContext& ctx) { return ctx.budget().horizon_cap() >= 4 ? 3 : 2; }

LaunchOptions launch_options(std::size_t instances, unsigned horizon) {
  LaunchOptions o;
  o.max_instances = instances;
  o.horizon = horizon;
  return o;
}

ContinuationRule hashed_rule(std::uint64_t salt, ContinuationRule base) {
  return [salt, base](const std::vector<LaunchParameters>& launched, const LaunchParameters& proposed) {
    if (base && !base(launched, proposed)) return false;
    std::uint64_t h = 1469598103934665603ull ^ salt;
    auto mix = [&](const std::string& s) {
      for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
      h = (h ^ 0xff) * 1099511628211ull;
    };
    for (const auto& d : launched) mix(str(d.lambda) + "/" + str(d.delta));
    mix(str(proposed.lambda) + "/" + str(proposed.delta));
    return h % 3 != 0;
  };
}


/// 𝒢 = (Π λ_j, Σ δ_j) with threshold (λ_d, δ_d) (BG-RRUV16-BASIC's accumulator).
Accumulator approximate_accumulator(Rational lambda_d, Rational delta_d) {
  Accumulator a;
  a.report = [](const std::vector<LaunchParameters>& ds) {
    Rational l = 1, d = 0;
    for (const auto& x : ds) l *= x.lambda, d += x.delta;
    return "lambda=" + str(l) + ",delta=" + str(d);
  };
  a.within = [lambda_d, delta_d](const std::vector<LaunchParameters>& ds) {
    Rational l = 1, d = 0;
    for (const auto& x : ds) l *= x.lambda, d += x.delta;
    return l <= lambda_d && d <= delta_d;
  };
  return a;
}

std::string odometer_filter_identity(const Game& odo, const Game& filt, const Adversary& a, unsigned h) {
  const MessageMap drop = [](const std::vector<std::string>&, const std::string& m) -> std::optional<std::string> {
    if (m == "privacy_loss") return std::nullopt;
    return m;
  };
  const Adversary b = replay(odo, a, filt, drop, h);
  const ViewLaw lo = view_law(odo, a, h, [](const std::vector<Step>& steps) {
    std::vector<std::string> k;
    for (const auto& s : steps)
      if (s.message0 != "privacy_loss") k.push_back(s.answer);
    return k;
  });
  const ViewLaw lf = view_law(filt, b, h);
  return lo == lf ? "" : " odometer " + describe_law(lo) + " vs filter " + describe_law(lf) + ";";
}

std::string odometer_round(CheckContext& ctx, const std::vector<MenuEntry>& menu, const Accumulator& acc, const ContinuationRule& rule,
                           std::size_t instances, unsigned h, const Rational& lambda_d, const Rational& delta_d, unsigned adversaries) {
  const Game odo = odometer_truncated(menu, acc, launch_options(instances, h));
  const Game filt = filter_composition(menu, rule, launch_options(instances, h));
  std::string bad;
  const auto po = worst_case_profile(odo).profile, pf = worst_case_profile(filt).profile;
  if (!(po.forward() == pf.forward() && po.backward() == pf.backward())) bad += " odometer and filter profiles differ;";
  if (po.delta(lambda_d) > delta_d) bad += " truncated view exceeds the threshold: δ(" + str(lambda_d) + ") = " + str(po.delta(lambda_d)) + " > " + str(delta_d) + ";";
  for (unsigned i = 0; i < adversaries; ++i) bad += odometer_filter_identity(odo, filt, random_adversary(odo, h, ctx.rng()), h);
  return bad;
}

}  // namespace exactdp::proofs::filters
