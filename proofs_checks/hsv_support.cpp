// Definitions of hsv_support.hpp.
#include "proofs_checks/hsv_support.hpp"

namespace exactdp::proofs::hsv {

Rational sym_hs(const PrivacyLoss& l, const Rational& lambda) {
  return std::max(hockey_stick(l, lambda), hockey_stick(l.swapped(), lambda));
}

void add_row(Rows& rows, const Rational& p, const std::string& answer, const std::string& next) {
  if (sgn(p) != 0) rows.push_back({p, answer, next});
}

Game cm_game(const std::string& name, std::shared_ptr<TableMechanism> mech, std::shared_ptr<const Verifier> verifier,
             const std::string& start, unsigned horizon) {
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = std::move(verifier);
  const StateId s = mech->state_id(start);
  g.initial = {InitialLaw{{s, Rational(1)}}, InitialLaw{{s, Rational(1)}}};
  g.horizon = horizon;
  g.validate();
  return g;
}

Rows rr_rows(const Rational& lambda, const Rational& delta, int x, const std::string& next) {
  Rows r;
  add_row(r, delta, "leak" + std::to_string(x), next);
  add_row(r, (1 - delta) * lambda / (1 + lambda), std::to_string(x), next);
  add_row(r, (1 - delta) / (1 + lambda), std::to_string(1 - x), next);
  return r;
}

Game rr_cm(const Rational& lambda, const Rational& delta) {
  TableMechanism::StateTable start;
  for (int x = 0; x < 2; ++x) start.rules[std::to_string(x)] = rr_rows(lambda, delta, x, "done");
  const std::string name = "RR_CM(" + str(lambda) + "," + str(delta) + ")";
  auto mech = std::make_shared<TableMechanism>(name, States{{"start", start}, {"done", {true, {}}}}, std::vector<std::string>{"0", "1"});
  std::vector<std::vector<Edge>> edges(2);
  for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}, MessagePair{0, 1}, MessagePair{1, 0}}) edges[0].push_back({p, 1});
  return cm_game(name, mech, std::make_shared<AutomatonVerifier>(std::vector<std::string>{"one pair", "done"}, 0, edges), "start", 1);
}

std::shared_ptr<const Verifier> secret_first_relation(unsigned queries) {
  std::vector<std::vector<Edge>> edges(queries + 2);
  for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}, MessagePair{0, 1}, MessagePair{1, 0}}) edges[0].push_back({p, 1});
  for (unsigned c = 1; c <= queries; ++c) edges[c].push_back({MessagePair{2, 2}, VerifierState(c + 1)});
  std::vector<std::string> names{"secret"};
  for (unsigned c = 1; c <= queries + 1; ++c) names.push_back(std::to_string(c - 1) + " queries");
  return std::make_shared<AutomatonVerifier>(names, 0, edges);
}

Game rr_im_cm(const Rational& lambda, const Rational& delta) {
  States st;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules[std::to_string(x)] = Rows{{Rational(1), "ok", "x=" + std::to_string(x)}};
  st.push_back({"init", init});
  for (int x = 0; x < 2; ++x) {
    TableMechanism::StateTable t;
    t.rules["q"] = rr_rows(lambda, delta, x, "done");
    st.push_back({"x=" + std::to_string(x), t});
  }
  st.push_back({"done", {true, {}}});
  const std::string name = "RR_IM(" + str(lambda) + "," + str(delta) + ")";
  auto mech = std::make_shared<TableMechanism>(name, st, std::vector<std::string>{"0", "1", "q"});
  return cm_game(name, mech, secret_first_relation(1), "init", 2);
}

Game mirror_cm(const Rational& p) {
  States st;
  st.push_back({"start", {false, {{"q", Rows{{q(1, 2), "a1", "a1"}, {q(1, 2), "a2", "a2"}}}}}});
  for (int a = 1; a <= 2; ++a) {
    TableMechanism::StateTable t;
    for (int x = 0; x < 2; ++x) {
      Rows r;
      if (x == a - 1) {
        add_row(r, p, "X", "done");
        add_row(r, 1 - p, "Y", "done");
      } else {
        r.push_back({Rational(1), "Y", "done"});
      }
      t.rules[std::to_string(x)] = r;
    }
    st.push_back({"a" + std::to_string(a), t});
  }
  st.push_back({"done", {true, {}}});
  const std::string name = "Mir_CM(p=" + str(p) + ")";
  auto mech = std::make_shared<TableMechanism>(name, st, std::vector<std::string>{"q", "0", "1"});
  std::vector<std::vector<Edge>> edges(3);
  edges[0].push_back({MessagePair{0, 0}, 1});
  for (const MessagePair pr : {MessagePair{1, 1}, MessagePair{2, 2}, MessagePair{1, 2}}) edges[1].push_back({pr, 2});
  return cm_game(name, mech, std::make_shared<AutomatonVerifier>(std::vector<std::string>{"first", "second", "done"}, 0, edges), "start", 2);
}

Rows random_rows(Rng& rng, int states, bool pure, const std::string& prefix) {
  std::vector<long> w;
  long total = 0;
  while (total == 0) {
    w.clear();
    for (int i = 0; i < 2 * states; ++i) {
      w.push_back(pure ? rng.range(1, 3) : rng.range(0, 3) * rng.range(0, 1));
      total += w.back();
    }
  }
  Rows r;
  for (int i = 0; i < 2 * states; ++i)
    if (w[std::size_t(i)] > 0) r.push_back({q(w[std::size_t(i)], total), std::to_string(i / states), prefix + std::to_string(i % states)});
  return r;
}

Game random_cm(Rng& rng, unsigned h, bool pure) {
  const int n = static_cast<int>(rng.range(2, 3));
  States st;
  for (int s = 0; s < n; ++s) {
    TableMechanism::StateTable t;
    for (int m = 0; m < 2; ++m) t.rules[std::to_string(m)] = random_rows(rng, n, pure, "s");
    st.push_back({"s" + std::to_string(s), t});
  }
  auto mech = std::make_shared<TableMechanism>(std::string(pure ? "random pure CM" : "random CM"), st, std::vector<std::string>{"0", "1"});
  // verifier state 2c + d: c messages sent, d = 1 once a non-identical pair was sent
  std::vector<std::vector<Edge>> edges(2 * (h + 1));
  std::vector<std::string> names;
  for (unsigned c = 0; c <= h; ++c)
    for (unsigned d = 0; d < 2; ++d) {
      names.push_back(std::to_string(c) + (d ? " sent, differed" : " sent"));
      if (c == h) continue;
      for (const MessagePair p : {MessagePair{0, 0}, MessagePair{1, 1}}) edges[2 * c + d].push_back({p, VerifierState(2 * (c + 1) + d)});
      if (d == 0)
        for (const MessagePair p : {MessagePair{0, 1}, MessagePair{1, 0}}) edges[2 * c].push_back({p, VerifierState(2 * (c + 1) + 1)});
    }
  return cm_game(mech->name() + " (horizon " + std::to_string(h) + ")", mech,
                 std::make_shared<AutomatonVerifier>(names, 0, edges), "s0", h);
}

Game random_im_cm(Rng& rng, unsigned queries, bool pure) {
  const int n = static_cast<int>(rng.range(2, 3));
  States st;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules[std::to_string(x)] = Rows{{Rational(1), "ok", "s" + std::to_string(x)}};
  st.push_back({"init", init});
  for (int s = 0; s < n; ++s) st.push_back({"s" + std::to_string(s), {false, {{"q", random_rows(rng, n, pure, "s")}}}});
  auto mech = std::make_shared<TableMechanism>(std::string(pure ? "random pure IM" : "random IM"), st, std::vector<std::string>{"0", "1", "q"});
  return cm_game(mech->name() + " (" + std::to_string(queries) + " queries)", mech, secret_first_relation(queries), "init", queries + 1);
}

Game bounded(Game g, unsigned limit) {
  g.verifier = std::make_shared<BoundedVerifier>(g.verifier, limit);
  g.horizon = limit;
  return g;
}

MenuEntry entry(const std::string& name, Game g, Rational lambda, Rational delta, std::optional<Rational> moment) {
  return MenuEntry{name, std::move(g), LaunchParameters{std::move(lambda), std::move(delta), std::move(moment)}};
}

LaunchOptions launch_options(std::size_t instances, unsigned horizon) {
  LaunchOptions o;
  o.max_instances = instances;
  o.horizon = horizon;
  return o;
}

Rational delta_opt(const std::vector<std::pair<Rational, Rational>>& components, const Rational& lambda_g) {
  std::vector<LambdaDelta> v;
  for (const auto& [l, d] : components) v.push_back(LambdaDelta{l, d});
  return optimal_composition_delta(std::span<const LambdaDelta>(v), lambda_g);
}

std::vector<Rational> comparison_points(const PrivacyProfile& p, const std::vector<Rational>& extra) {
  std::vector<Rational> xs = lambda_grid();
  for (const auto* f : {&p.forward(), &p.backward()})
    for (const auto& b : f->breakpoints())
      if (b >= 1) xs.push_back(b);
  for (const auto& e : extra)
    if (e >= 1) xs.push_back(e);
  Rational top = 1;
  for (const auto& x : xs) top = std::max(top, x);
  xs.push_back(top + 1);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  return xs;
}

std::string first_excess(const PrivacyProfile& p, const std::function<Rational(const Rational&)>& bound,
                         const std::vector<Rational>& bound_breaks) {
  for (const auto& x : comparison_points(p, bound_breaks)) {
    const Rational v = p.delta(x), b = bound(x);
    if (v > b) return "at λ = " + str(x) + " the engine gives " + str(v) + " > bound " + str(b);
  }
  return "";
}

std::vector<Rational> rr_breakpoints(const std::vector<Rational>& lambdas) {
  std::vector<Rational> out{Rational(1)};
  const std::size_t k = lambdas.size();
  if (k > 12) return out;
  for (std::size_t s = 0; s < (std::size_t{1} << k); ++s) {
    Rational r = 1;
    for (std::size_t i = 0; i < k; ++i) r = (s >> i & 1) ? Rational(r * lambdas[i]) : Rational(r / lambdas[i]);
    if (r >= 1) out.push_back(r);
  }
  return out;
}

std::string profile_excess(const PrivacyProfile& a, const PrivacyProfile& b) {
  std::vector<Rational> extra;
  for (const auto* f : {&b.forward(), &b.backward()})
    for (const auto& x : f->breakpoints()) extra.push_back(x);
  for (const auto& x : comparison_points(a, extra)) {
    if (a.forward()(x) > b.forward()(x))
      return "forward at λ = " + str(x) + ": " + str(a.forward()(x)) + " > " + str(b.forward()(x));
    if (a.backward()(x) > b.backward()(x))
      return "backward at λ = " + str(x) + ": " + str(a.backward()(x)) + " > " + str(b.backward()(x));
  }
  return "";
}

CompositeInstance instance_of(const CompositeModel& m) {
  CompositeInstance in = library::checker_instance(m);
  in.max_paths = 5'000'000;
  return in;
}

std::string verdict(const CompositeCheck& c, bool taint) {
  if (c.holds)
    return std::string(taint ? "taint rules, " : "") + "destination, response, f → f′ hold (" + std::to_string(c.configurations) + " configurations)";
  std::string trace;
  for (const auto& t : c.violation->trace) trace += (trace.empty() ? "" : ", ") + t;
  return c.violation->condition + " fails after " + trace + " (" + c.violation->detail + ")";
}

HistogramSplit split_of(const library::HistogramParams& p) {
  HistogramSplit s;
  s.svt = worst_case_ratio(library::hss_svt_instance(p)).max();
  s.laplace = worst_case_ratio(library::hss_laplace_instance(p)).max();
  s.counter = worst_case_ratio(library::hss_d_counter(p)).max();
  unsigned height = 0;
  while ((1u << height) < p.steps) ++height;
  s.svt_claim = 1 / (p.r_threshold * p.r_query * p.r_query);
  s.laplace_claim = 1 / p.r_laplace;
  s.counter_claim = pow(Rational(1 / p.r_node), p.d * (height + 1));
  return s;
}

}  // namespace exactdp::proofs::hsv
