// Randomized response and the papers' gadgets as exact tables (THEOREMS.md D.1, D.2, D.11–D.15).
#include "exactdp/library/library.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/library/library_detail.hpp"

#include <memory>

namespace exactdp::library {

using detail::require;
using Rows = std::vector<TableMechanism::Row>;
using States = std::vector<std::pair<std::string, TableMechanism::StateTable>>;

namespace {

/// Appends a row unless its probability is 0 (TableMechanism keeps zero rows out of the kernel
/// anyway; leaving them out keeps the tables readable).
void add(Rows& rows, const Rational& p, const std::string& answer, const std::string& next) {
  if (sgn(p) != 0) rows.push_back({p, answer, next});
}

TableMechanism::StateTable rule(const std::string& message, Rows rows) {
  TableMechanism::StateTable t;
  t.rules.emplace(message, std::move(rows));
  return t;
}

const TableMechanism::StateTable halted{true, {}};

/// A static game over a table mechanism whose worlds are "b=0" and "b=1", starting in the states
/// named @p initial0 and @p initial1.
Game static_table_game(const std::string& name, States states, std::vector<std::string> messages,
                       const std::string& initial0, const std::string& initial1, unsigned horizon) {
  auto mech = std::make_shared<TableMechanism>(name, std::move(states), std::move(messages));
  Game g = static_game(name, mech, {mech->state_id(initial0), mech->state_id(initial1)}, horizon);
  g.world_names = {"b=0", "b=1"};
  return g;
}

void check_lambda(const char* where, const Rational& lambda) {
  require(lambda >= 1, where, "lambda", lambda, "lambda = e^epsilon must be at least 1");
}
void check_probability(const char* where, const char* field, const Rational& p) {
  require(sgn(p) >= 0 && p <= 1, where, field, p, "must be a probability in [0, 1]");
}

/// The two-bit gadget relation g (THEOREMS.md A.7; HSV T5.2, T13.5) over the messages "0", "1"
/// (ids 0, 1): at most two pairs of bits whose sequences differ in at most one position.
std::shared_ptr<const Verifier> gadget_relation() {
  using Edge = AutomatonVerifier::Edge;
  // states: 0 start, 1 first pair identical, 2 first pair differed, 3 done (nothing allowed)
  const std::vector<MessagePair> all{{0, 0}, {1, 1}, {0, 1}, {1, 0}};
  std::vector<std::vector<Edge>> edges(4);
  for (const auto& p : all) {
    edges[0].push_back({p, VerifierState(p.identical() ? 1 : 2)});
    edges[1].push_back({p, 3});
    if (p.identical()) edges[2].push_back({p, 3});
  }
  return std::make_shared<AutomatonVerifier>(std::vector<std::string>{"start", "first identical", "first differed", "done"}, 0,
                                             std::move(edges));
}

/// The M_δ / Rényi gadget shape: ⊤ → "bot"/⊥ with probability @p p; ⊥ answers the input bit
/// with probability @p q.
Game gadget(const std::string& name, const Rational& p, const Rational& q) {
  Rows top;
  add(top, 1 - p, "top", "top");
  add(top, p, "bot", "bot");
  TableMechanism::StateTable bot;
  for (int x = 0; x < 2; ++x) {
    Rows rows;
    add(rows, q, std::to_string(x), "bot");
    add(rows, 1 - q, std::to_string(1 - x), "bot");
    bot.rules.emplace(std::to_string(x), std::move(rows));
  }
  States states{{"top", rule("*", std::move(top))}, {"bot", std::move(bot)}};
  auto mech = std::make_shared<TableMechanism>(name, std::move(states), std::vector<std::string>{"0", "1"});
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = gadget_relation();
  const StateId start = mech->state_id("top");
  g.initial = {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}};
  g.horizon = 2;
  g.validate();
  return g;
}

}  // namespace

// ------------------------------------------------------------------ randomized response

Game randomized_response(const Rational& lambda, const Rational& delta) {
  const char* where = "library::randomized_response";
  check_lambda(where, lambda);
  check_probability(where, "delta", delta);
  States states;
  for (int b = 0; b < 2; ++b) {
    Rows rows;
    const Rational keep = (1 - delta) * lambda / (1 + lambda), flip = (1 - delta) / (1 + lambda);
    add(rows, delta, "leak" + std::to_string(b), "done");
    add(rows, keep, std::to_string(b), "done");
    add(rows, flip, std::to_string(1 - b), "done");
    states.push_back({"b=" + std::to_string(b), rule("*", std::move(rows))});
  }
  states.push_back({"done", halted});
  return static_table_game("RR(lambda=" + to_string(lambda) + ", delta=" + to_string(delta) + ")", std::move(states), {"q"},
                           "b=0", "b=1", 1);
}

Game sticky_randomized_response(const Rational& lambda, unsigned answers) {
  const char* where = "library::sticky_randomized_response";
  check_lambda(where, lambda);
  require(answers >= 1 && answers <= 1000, where, "answers", Rational(answers), "must be between 1 and 1000");
  // states "z=v/k": the drawn bit v has been answered k times
  auto z = [&](int v, unsigned k) { return k == answers ? std::string("done") : "z=" + std::to_string(v) + "/" + std::to_string(k); };
  States states;
  for (int b = 0; b < 2; ++b) {
    Rows rows;
    add(rows, lambda / (1 + lambda), std::to_string(b), z(b, 1));
    add(rows, 1 / (1 + lambda), std::to_string(1 - b), z(1 - b, 1));
    states.push_back({"b=" + std::to_string(b), rule("*", std::move(rows))});
  }
  for (unsigned k = 1; k < answers; ++k)
    for (int v = 0; v < 2; ++v) states.push_back({z(v, k), rule("*", Rows{{Rational(1), std::to_string(v), z(v, k + 1)}})});
  states.push_back({"done", halted});
  return static_table_game("sticky RR(lambda=" + to_string(lambda) + ", answers=" + std::to_string(answers) + ")",
                           std::move(states), {"q"}, "b=0", "b=1", answers);
}

Game interactive_randomized_response(const Rational& lambda, const Rational& delta) {
  const char* where = "library::interactive_randomized_response";
  check_lambda(where, lambda);
  check_probability(where, "delta", delta);
  States states;
  for (int b = 0; b < 2; ++b) {
    const std::string bs = std::to_string(b), leak = "leak,b=" + bs, noleak = "noleak,b=" + bs;
    Rows first;
    add(first, delta, "leak", leak);
    add(first, 1 - delta, "noleak", noleak);
    states.push_back({"b=" + bs, rule("*", std::move(first))});
    states.push_back({leak, rule("*", Rows{{Rational(1), bs, "done"}})});
    Rows second;
    add(second, lambda / (1 + lambda), bs, "done");
    add(second, 1 / (1 + lambda), std::to_string(1 - b), "done");
    states.push_back({noleak, rule("*", std::move(second))});
  }
  states.push_back({"done", halted});
  return static_table_game("IRR(lambda=" + to_string(lambda) + ", delta=" + to_string(delta) + ")", std::move(states), {"q"},
                           "b=0", "b=1", 2);
}

// ------------------------------------------------------------------ gadgets

Game m_delta(const Rational& delta) {
  check_probability("library::m_delta", "delta", delta);
  return gadget("M_delta(delta=" + to_string(delta) + ")", delta, Rational(1));
}

Game m_delta_interactive(const Rational& delta) {
  check_probability("library::m_delta_interactive", "delta", delta);
  States states;
  TableMechanism::StateTable init;
  for (int x = 0; x < 2; ++x) init.rules.emplace(std::to_string(x), Rows{{Rational(1), "ok", "x=" + std::to_string(x)}});
  states.push_back({"init", std::move(init)});
  for (int x = 0; x < 2; ++x) {
    const std::string xs = "x=" + std::to_string(x);
    Rows first;
    add(first, 1 - delta, "top", xs + ",top");
    add(first, delta, "bot", xs + ",bot");
    states.push_back({xs, rule("q", std::move(first))});
    states.push_back({xs + ",top", rule("q", Rows{{Rational(1), "top", "done"}})});
    states.push_back({xs + ",bot", rule("q", Rows{{Rational(1), std::to_string(x), "done"}})});
  }
  states.push_back({"done", halted});
  const std::string name = "M_delta interactive(delta=" + to_string(delta) + ")";
  auto mech = std::make_shared<TableMechanism>(name, std::move(states), std::vector<std::string>{"0", "1", "q"});
  // the secret pair first (identical or differing), then identical queries only
  using Edge = AutomatonVerifier::Edge;
  const MessageId zero = 0, one = 1, query = 2;
  std::vector<std::vector<Edge>> edges(2);
  for (const MessagePair& p : {MessagePair{zero, zero}, MessagePair{one, one}, MessagePair{zero, one}, MessagePair{one, zero}})
    edges[0].push_back({p, 1});
  edges[1].push_back({MessagePair{query, query}, 1});
  Game g;
  g.name = name;
  g.mechanism = mech;
  g.verifier = std::make_shared<AutomatonVerifier>(std::vector<std::string>{"secret", "queries"}, 0, std::move(edges));
  const StateId start = mech->state_id("init");
  g.initial = {InitialLaw{{start, Rational(1)}}, InitialLaw{{start, Rational(1)}}};
  g.horizon = 3;
  g.validate();
  return g;
}

Rational renyi_gadget_moment(unsigned alpha, const Rational& q) {
  const char* where = "library::renyi_gadget_moment";
  require(alpha >= 1 && alpha <= 64, where, "alpha", Rational(alpha), "must be an integer between 1 and 64");
  require(sgn(q) > 0 && q < 1, where, "q", q, "must lie strictly between 0 and 1");
  // q^α (1−q)^{1−α} + (1−q)^α q^{1−α}
  const Rational s = 1 - q;
  return pow(q, alpha) / pow(s, alpha - 1) + pow(s, alpha) / pow(q, alpha - 1);
}

Rational renyi_gadget_p(unsigned alpha, const Rational& lambda, const Rational& q) {
  const char* where = "library::renyi_gadget_p";
  require(alpha >= 2 && alpha <= 64, where, "alpha", Rational(alpha), "must be an integer between 2 and 64");
  require(lambda > 1, where, "lambda", lambda, "lambda = e^epsilon must exceed 1");
  require(q > Rational(1, 2) && q < 1, where, "q", q, "must lie strictly between 1/2 and 1");
  const Rational p = (pow(lambda, alpha - 1) - 1) / (renyi_gadget_moment(alpha, q) - 1);
  return p < Rational(1, 2) ? p : Rational(1, 2);
}

Game renyi_gadget(const Rational& p, const Rational& q) {
  const char* where = "library::renyi_gadget";
  require(sgn(p) > 0 && p <= Rational(1, 2), where, "p", p, "must lie in (0, 1/2]");
  require(q > Rational(1, 2) && q < 1, where, "q", q, "must lie strictly between 1/2 and 1");
  return gadget("Renyi gadget(p=" + to_string(p) + ", q=" + to_string(q) + ")", p, q);
}

Game mirror(const Rational& p) {
  const char* where = "library::mirror";
  require(sgn(p) > 0 && p <= 1, where, "p", p, "must lie in (0, 1]");
  States states;
  for (int b = 0; b < 2; ++b) {
    const std::string bs = "b=" + std::to_string(b);
    states.push_back({bs, rule("*", Rows{{Rational(1, 2), "a1", bs + ",a1"}, {Rational(1, 2), "a2", bs + ",a2"}})});
    for (int a = 1; a <= 2; ++a) {
      Rows rows;
      if (a == b + 1) {  // world 0 after a1, world 1 after a2: the secret may show
        add(rows, p, "X", "done");
        add(rows, 1 - p, "Y", "done");
      } else {
        add(rows, Rational(1), "Y", "done");
      }
      states.push_back({bs + ",a" + std::to_string(a), rule("*", std::move(rows))});
    }
  }
  states.push_back({"done", halted});
  return static_table_game("Mir(p=" + to_string(p) + ")", std::move(states), {"q"}, "b=0", "b=1", 2);
}

unsigned long lottery_size(const Rational& delta) {
  require(sgn(delta) > 0 && delta <= 1, "library::lottery_size", "delta", delta, "must lie in (0, 1]");
  const Rational inv = 1 / delta;
  Integer n = inv.get_num() / inv.get_den();  // floor
  if (n * inv.get_den() != inv.get_num()) n += 1;
  require(n <= 1000, "library::lottery_size", "delta", delta, "1/delta must be at most 1000");
  return n.get_ui();
}

Game lottery(unsigned long n) {
  const char* where = "library::lottery";
  require(n >= 1 && n <= 1000, where, "n", Rational(n), "must be between 1 and 1000");
  std::vector<std::string> messages;
  for (unsigned long k = 1; k <= n; ++k) messages.push_back(std::to_string(k));
  States states;
  for (int b = 0; b < 2; ++b) {
    const std::string bs = "b=" + std::to_string(b);
    Rows draw;
    for (unsigned long k = 1; k <= n; ++k) add(draw, Rational(1, n), "r=" + std::to_string(k), bs + ",r=" + std::to_string(k));
    states.push_back({bs, rule("*", std::move(draw))});
    for (unsigned long k = 1; k <= n; ++k) {
      TableMechanism::StateTable t;
      t.rules.emplace(std::to_string(k), Rows{{Rational(1), "secret=" + std::to_string(b), "done"}});
      t.rules.emplace("*", Rows{{Rational(1), "miss", "done"}});
      states.push_back({bs + ",r=" + std::to_string(k), std::move(t)});
    }
  }
  states.push_back({"done", halted});
  return static_table_game("lottery(N=" + std::to_string(n) + ")", std::move(states), messages, "b=0", "b=1", 2);
}

Game coin_source(const std::vector<Rational>& pmf, unsigned horizon) {
  const char* where = "library::coin_source";
  require(!pmf.empty() && pmf.size() <= 64, where, "pmf", Rational(static_cast<unsigned long>(pmf.size())),
          "must list between 1 and 64 masses");
  require(horizon >= 1 && horizon <= 1000, where, "horizon", Rational(horizon), "must be between 1 and 1000");
  Rational total = 0;
  Rows rows;
  for (std::size_t i = 0; i < pmf.size(); ++i) {
    require(sgn(pmf[i]) >= 0, where, "pmf", pmf[i], "masses must be non-negative");
    total += pmf[i];
    add(rows, pmf[i], "c" + std::to_string(i), "coin");
  }
  require(total == 1, where, "pmf", total, "the masses must sum to exactly 1");
  States states{{"coin", rule("*", std::move(rows))}};
  return static_table_game("coin source", std::move(states), {"coin"}, "coin", "coin", horizon);
}

}  // namespace exactdp::library
