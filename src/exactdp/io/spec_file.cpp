// Spec-file loading. Uses nlohmann::json (header-only); ordered_json keeps the file's key order,
// so the message alphabet and the states appear in the order the user wrote them.
#include "exactdp/io/spec_file.hpp"

#include "exactdp/io/json_reader.hpp"

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/compose/launch.hpp"
#include "exactdp/compose/postprocess.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/mechanism/interactive.hpp"
#include "exactdp/library/library_registry.hpp"
#include "exactdp/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace exactdp {
namespace {

using io::Json;
using io::shown;

std::string segment(const std::string& key) { return io::pointer_segment(key); }

/// Thrown after the errors that do not stop reading have been recorded (read_spec catches it).
struct StopReading {};

/// The reader of a spec: io::JsonReader plus the sink of read_spec, so that the errors that do
/// not stop reading (unknown next states, missing rules) are all reported.
class Reader : public io::JsonReader {
public:
  Reader(std::string source, SpecReading& out) : io::JsonReader(std::move(source)), out_(&out) {}
  /// Records an error and carries on reading.
  void problem(const char* code, const std::string& pointer, const std::string& value, const std::string& why) const {
    out_->errors.emplace_back(source(), pointer.empty() ? "/" : pointer, value, why);
    out_->error_codes.emplace_back(code);
  }
  /// Ends the reading when a problem was recorded (the game cannot be built).
  void stop_if_problems() const {
    if (!out_->errors.empty()) throw StopReading{};
  }
  void note(std::string code, std::string pointer, std::string value, std::string message) const {
    out_->notes.push_back({std::move(code), std::move(pointer), std::move(value), std::move(message)});
  }
  void table(SpecTable t) const { out_->tables.push_back(std::move(t)); }

private:
  SpecReading* out_;
};

using Neighbours = NeighbourRelation;

Neighbours read_neighbours(const Reader& r, const Json& v, const std::string& path = "/neighbours") {
  return io::read_neighbour_relation(r, v, path);
}

/// One state's rules. A rule whose rows repeat an (answer, next) pair is noted for lint (the rows
/// are merged by the mechanism, so the meaning is their sum; a repeat is usually a copy-paste slip).
TableMechanism::StateTable read_state(const Reader& r, const Json& v, const std::string& path) {
  r.object(v, path);
  TableMechanism::StateTable t;
  t.halted = v.empty();
  for (const auto& [m, rows] : v.items()) {
    const std::string mp = path + "/" + segment(m);
    const Json& list = r.array(rows, mp);
    if (list.empty()) r.fail(mp, "[]", "a rule needs at least one row (write the state as {} to halt it)");
    std::vector<TableMechanism::Row> out;
    Rational total = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string rp = mp + "/" + std::to_string(i);
      const Json& row = r.object(list[i], rp);
      r.only_keys(row, rp, {"p", "answer", "next"});
      TableMechanism::Row x{r.probability(r.member(row, rp, "p"), rp + "/p"), r.string(r.member(row, rp, "answer"), rp + "/answer"),
                            r.string(r.member(row, rp, "next"), rp + "/next")};
      for (std::size_t j = 0; j < out.size(); ++j)
        if (out[j].answer == x.answer && out[j].next == x.next)
          r.note("repeated-row", rp, x.answer + " -> " + x.next,
                 "this row repeats the answer and next state of row " + std::to_string(j) +
                     " of the same rule (the two are merged: their probabilities add up)");
      total += x.probability;
      out.push_back(std::move(x));
    }
    if (total != 1) r.fail(mp, to_string(total), "the probabilities of a rule must sum to exactly 1");
    t.rules.emplace(m, std::move(out));
  }
  return t;
}

/// `"mechanism": {"type": "library", "name": ..., "params": {...}}` (library/library_registry.hpp):
/// the library supplies the mechanism, its neighbouring relation and a default horizon, so
/// `neighbours` must be absent and `horizon` is optional (it overrides the default).
Game parse_library_spec(const Reader& r, const Json& doc, const std::string& name) {
  const std::string mp = "/mechanism";
  const Json& m = doc["mechanism"];
  r.only_keys(m, mp, {"type", "name", "params"});
  if (doc.contains("neighbours"))
    r.fail("/neighbours", shown(doc["neighbours"]),
           "a library mechanism carries its own neighbouring relation (spec/mechanisms/README.md); remove \"neighbours\"");
  const std::string lib = r.string(r.member(m, mp, "name"), mp + "/name");
  const Json no_params = Json::object();
  auto it = m.find("params");
  library::LibraryArguments args = io::read_library_arguments(r, it != m.end() ? *it : no_params, mp + "/params");
  Game g = library::make_library_game(lib, std::move(args), mp + "/name");
  g.name = doc.contains("name") ? name : g.name;
  if (auto it = doc.find("horizon"); it != doc.end()) {
    const auto horizon = r.natural(*it, "/horizon");
    if (horizon < 1 || horizon > 100000) r.fail("/horizon", shown(*it), "the horizon must be between 1 and 100000");
    g.horizon = static_cast<unsigned>(horizon);
  }
  return g;
}

/// A mechanism read from a spec: the mechanism, both worlds' initial laws and, for launch
/// compositions, their own verifier (null otherwise: the top-level neighbours decide).
struct Built {
  std::shared_ptr<const InteractiveMechanism> mechanism;
  std::array<InitialLaw, 2> initial;
  std::shared_ptr<const Verifier> verifier;
};

Built read_mechanism(const Reader& r, const Json& v, const std::string& mp, const Neighbours& n,
                     const std::vector<std::string>& extra_messages, const std::string& name);
std::shared_ptr<const Verifier> top_level_verifier(const Reader& r, const Neighbours& n, const InteractiveMechanism& mech);

/// `"type": "table"`: states, rules and initial laws (THEOREMS.md A.3), read strictly (issue 15):
/// every `next` state is listed, every reachable state has a rule for every message unless the
/// table opts in with `"missing_rules": "invalid"`, and the alphabet is named.
Built read_table(const Reader& r, const Json& m, const std::string& mp, const Neighbours& n,
                 const std::vector<std::string>& extra_messages, const std::string& mech_name) {
  r.only_keys(m, mp, {"type", "initial", "states", "messages", "missing_rules"});
  // messages: declared order first, then those of the allowed pairs
  std::vector<std::string> messages;
  const bool declared = m.contains("messages");
  if (declared) {
    const Json& list = r.array(m["messages"], mp + "/messages");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string ip = mp + "/messages/" + std::to_string(i);
      auto s = r.string(list[i], ip);
      if (s == "*") r.fail(ip, s, "\"*\" is the wildcard rule key, not a message");
      if (std::find(messages.begin(), messages.end(), s) != messages.end()) r.fail(ip, s, "message listed twice");
      messages.push_back(std::move(s));
    }
  }
  for (const auto& x : extra_messages)
    if (std::find(messages.begin(), messages.end(), x) == messages.end()) {
      if (declared)
        r.problem("unknown-message", n.pointer.empty() ? "/neighbours" : n.pointer, x,
                  "the relation names a message that is not in " + mp + "/messages" + io::did_you_mean(io::nearest_names(x, messages)));
      messages.push_back(x);
    }
  bool missing_invalid = false;
  if (auto it = m.find("missing_rules"); it != m.end()) {
    const std::string v = r.string(*it, mp + "/missing_rules");
    if (v != "invalid" && v != "error")
      r.fail(mp + "/missing_rules", v, "expected \"error\" (the default: a missing rule is an error) or \"invalid\" (a message "
                                       "without a rule is answered \"invalid\" and the state stays)");
    missing_invalid = v == "invalid";
  }

  const Json& states = r.object(r.member(m, mp, "states"), mp + "/states");
  if (states.empty()) r.fail(mp + "/states", "{}", "a mechanism needs at least one state");
  std::vector<std::pair<std::string, TableMechanism::StateTable>> tables;
  std::vector<std::string> names;
  for (const auto& item : states.items()) names.push_back(item.key());
  const std::set<std::string> known(names.begin(), names.end());
  for (const auto& [s, v] : states.items()) {
    const std::string sp = mp + "/states/" + segment(s);
    auto t = read_state(r, v, sp);
    for (const auto& [msg, rows] : t.rules) {
      const std::string rp = sp + "/" + segment(msg);
      if (msg != "*" && declared && std::find(messages.begin(), messages.end(), msg) == messages.end())
        r.problem("unknown-message", rp, msg, "a rule for a message that is not in " + mp + "/messages" + io::did_you_mean(io::nearest_names(msg, messages)));
      // a next state must be listed: a misspelt name must not silently become a halted state
      for (std::size_t i = 0; i < rows.size(); ++i)
        if (!known.count(rows[i].next))
          r.problem("unknown-state", rp + "/" + std::to_string(i) + "/next", rows[i].next,
                    "unknown state (not a key of " + mp + "/states)" + io::did_you_mean(io::nearest_names(rows[i].next, names)) +
                        "; a state that has halted is listed as {}");
    }
    tables.emplace_back(s, std::move(t));
  }
  if (!declared)
    for (const auto& [s, t] : tables)
      for (const auto& [msg, rows] : t.rules)
        if (msg != "*" && std::find(messages.begin(), messages.end(), msg) == messages.end()) messages.push_back(msg);
  if (messages.empty())
    r.problem("no-alphabet", mp, "", "the table names no message: declare the alphabet with \"messages\": [...] (a table whose rules are all "
                      "\"*\" would otherwise accept any message at all)");

  // initial laws, by name
  const Json& init = r.member(m, mp, "initial");
  using NamedLaw = std::vector<std::pair<std::string, Rational>>;
  auto state_of = [&](const Json& v, const std::string& path) {
    const std::string s = r.string(v, path);
    if (!known.count(s)) r.fail(path, s, "unknown state (not a key of " + mp + "/states)" + io::did_you_mean(io::nearest_names(s, names)));
    return s;
  };
  auto law_of = [&](const Json& v, const std::string& path) {
    NamedLaw law;
    if (v.is_string()) {
      law.push_back({state_of(v, path), Rational(1)});
      return law;
    }
    r.object(v, path);
    Rational total = 0;
    for (const auto& [s, p] : v.items()) {
      const std::string lp = path + "/" + segment(s);
      if (!known.count(s)) r.fail(lp, s, "unknown state (not a key of " + mp + "/states)" + io::did_you_mean(io::nearest_names(s, names)));
      Rational x = r.probability(p, lp);
      total += x;
      if (sgn(x) > 0) law.push_back({s, x});
    }
    if (total != 1) r.fail(path, to_string(total), "the initial law must sum to exactly 1");
    return law;
  };
  std::array<NamedLaw, 2> laws;
  if (n.is_static()) {
    r.object(init, mp + "/initial");
    for (const auto& [k, v] : init.items())
      if (k != n.worlds[0] && k != n.worlds[1])
        r.fail(mp + "/initial/" + segment(k), k, "not one of the worlds named in /neighbours/worlds");
    for (int w = 0; w < 2; ++w) {
      const std::string ip = mp + "/initial/" + segment(n.worlds[w]);
      auto it = init.find(n.worlds[w]);
      if (it == init.end()) r.fail(mp + "/initial", "", "missing the initial state of world \"" + n.worlds[w] + "\"");
      laws[w] = law_of(*it, ip);
    }
  } else {
    laws[0] = law_of(init, mp + "/initial");
    laws[1] = laws[0];
  }

  // every reachable state answers every message of the alphabet, unless the table opts in
  if (!missing_invalid) {
    std::map<std::string, const TableMechanism::StateTable*> by_name;
    for (const auto& [s, t] : tables) by_name.emplace(s, &t);
    std::vector<std::string> order;
    std::set<std::string> seen;
    for (const auto& law : laws)
      for (const auto& [s, p] : law)
        if (seen.insert(s).second) order.push_back(s);
    for (std::size_t i = 0; i < order.size(); ++i) {
      const auto* t = by_name.at(order[i]);
      if (t->halted) continue;
      const bool star = t->rules.count("*") > 0;
      std::vector<std::string> missing;
      for (const auto& q : messages)
        if (!star && !t->rules.count(q)) missing.push_back(q);
      if (!missing.empty()) {
        std::string list;
        for (const auto& q : missing) list += (list.empty() ? "" : ", ") + q;
        r.problem("missing-rule", mp + "/states/" + segment(order[i]), list,
                  "a reachable state has no rule for message" + std::string(missing.size() > 1 ? "s " : " ") + list +
                      ": add a rule (or a \"*\" rule), write the state as {} if it has halted, or set \"missing_rules\": "
                      "\"invalid\" on the table to answer such messages \"invalid\"");
      }
      for (const auto& [msg, rows] : t->rules) {
        if (msg == "*" && std::all_of(messages.begin(), messages.end(), [&](const std::string& q) { return t->rules.count(q) > 0; }))
          continue;  // a "*" rule that no message of the alphabet reaches
        if (msg != "*" && std::find(messages.begin(), messages.end(), msg) == messages.end()) continue;
        for (const auto& row : rows)
          if (by_name.count(row.next) && seen.insert(row.next).second) order.push_back(row.next);
      }
    }
  }
  r.stop_if_problems();

  {  // limits.hpp: refuse tables whose transition array would be too large, before building it
    std::size_t rows = 0;
    for (const auto& [s, t] : tables)
      for (const auto& [msg, list] : t.rules) rows += list.size();
    const std::size_t cells = tables.size() * std::max<std::size_t>(messages.size(), 1);
    if (tables.size() > limits::max_states)
      r.fail(mp + "/states", std::to_string(tables.size()) + " states", "more states than the limit of " + std::to_string(limits::max_states));
    if (messages.size() > limits::max_messages)
      r.fail(mp + "/messages", std::to_string(messages.size()) + " messages", "more messages than the limit of " + std::to_string(limits::max_messages));
    if (cells > limits::max_table_cells)
      r.fail(mp + "/states", std::to_string(cells) + " state-message cells", "the transition table would exceed the limit of " +
             std::to_string(limits::max_table_cells) + " cells (states x messages)");
    if (rows > limits::max_rows)
      r.fail(mp + "/states", std::to_string(rows) + " rows", "more table rows than the limit of " + std::to_string(limits::max_rows));
  }
  std::shared_ptr<TableMechanism> mech;
  try {
    mech = std::make_shared<TableMechanism>(mech_name, std::move(tables), messages);
  } catch (const Error& e) {
    // every table problem is caught above; this re-anchors anything the constructor adds later
    throw Error(r.source(), mp + "/" + e.field(), e.value(), e.why());
  }
  Built b;
  for (int w = 0; w < 2; ++w)
    for (const auto& [s, p] : laws[w]) b.initial[w].push_back({mech->state_id(s), p});
  b.mechanism = mech;
  r.table(SpecTable{mp, mech, b.initial, missing_invalid});
  return b;
}

/// `"type": "concurrent"`: ConComp of the components (compose/concurrent.hpp); messages "i:m".
Built read_concurrent(const Reader& r, const Json& m, const std::string& mp, const Neighbours& n,
                      const std::vector<std::string>& extra_messages, const std::string& name) {
  r.only_keys(m, mp, {"type", "components"});
  const Json& list = r.array(r.member(m, mp, "components"), mp + "/components");
  if (list.empty()) r.fail(mp + "/components", "[]", "a concurrent composition needs at least one component");
  for (const auto& x : extra_messages) {
    auto routed = parse_routed_name(x);
    if (!routed || routed->first >= list.size())
      r.fail("/neighbours", x, "messages of a concurrent composition are written \"i:m\" with i a component index (0.." +
                                   std::to_string(list.size() - 1) + ")");
  }
  std::vector<std::shared_ptr<const InteractiveMechanism>> mechs;
  std::vector<std::array<InitialLaw, 2>> laws;
  for (std::size_t i = 0; i < list.size(); ++i) {
    std::vector<std::string> own;
    for (const auto& x : extra_messages)
      if (auto routed = parse_routed_name(x); routed->first == i) own.push_back(routed->second);
    const std::string cp = mp + "/components/" + std::to_string(i);
    Built c = read_mechanism(r, list[i], cp, n, own, name + "[" + std::to_string(i) + "]");
    if (c.verifier) r.fail(cp + "/type", shown(list[i]["type"]), "a launch composition cannot be a component of a concurrent composition");
    mechs.push_back(c.mechanism);
    laws.push_back(c.initial);
  }
  auto mech = std::make_shared<ConcurrentMechanism>(std::move(mechs), name);
  Built b;
  for (int w = 0; w < 2; ++w) {
    std::vector<std::pair<std::vector<StateId>, Rational>> law{{{}, Rational(1)}};
    for (const auto& l : laws) {
      std::vector<std::pair<std::vector<StateId>, Rational>> next;
      for (const auto& [t, p] : law)
        for (const auto& [s, q] : l[std::size_t(w)]) {
          auto u = t;
          u.push_back(s);
          next.emplace_back(std::move(u), p * q);
        }
      law = std::move(next);
    }
    for (const auto& [t, p] : law) b.initial[std::size_t(w)].push_back({mech->state_id(t), p});
  }
  b.mechanism = mech;
  return b;
}

Rational read_parameter(const Reader& r, const Json& obj, const std::string& path, const std::string& key, const Rational& lo) {
  const std::string kp = path + "/" + key;
  const Json& v = r.member(obj, path, key);
  const Rational x = r.exact(v, kp);
  if (x < lo) r.fail(kp, shown(v), "must be at least " + to_string(lo));
  return x;
}

/// The continuation rule of a filter: {"type": "basic_pure" | "basic_approximate" |
/// "product_delta" | "renyi_moment" | "whitehouse", ...budget keys}.
ContinuationRule read_rule(const Reader& r, const Json& v, const std::string& path) {
  r.object(v, path);
  const std::string type = r.string(r.member(v, path, "type"), path + "/type");
  if (type == "basic_pure") {
    r.only_keys(v, path, {"type", "lambda"});
    return basic_pure_rule(read_parameter(r, v, path, "lambda", Rational(1)));
  }
  if (type == "basic_approximate" || type == "product_delta") {
    r.only_keys(v, path, {"type", "lambda", "delta"});
    const Rational l = read_parameter(r, v, path, "lambda", Rational(1)), d = read_parameter(r, v, path, "delta", Rational(0));
    if (d > 1) r.fail(path + "/delta", to_string(d), "delta lies in [0, 1]");
    return type == "basic_pure" ? basic_pure_rule(l) : type == "basic_approximate" ? basic_approximate_rule(l, d) : product_delta_rule(l, d);
  }
  if (type == "renyi_moment") {
    r.only_keys(v, path, {"type", "moment"});
    return renyi_moment_rule(read_parameter(r, v, path, "moment", Rational(1)));
  }
  if (type == "whitehouse") {
    r.only_keys(v, path, {"type", "epsilon", "delta", "delta_prime"});
    const Rational e = read_parameter(r, v, path, "epsilon", Rational(0)), d = read_parameter(r, v, path, "delta", Rational(0)),
                   dp = read_parameter(r, v, path, "delta_prime", Rational(0));
    if (sgn(e) <= 0 || sgn(dp) <= 0 || dp > d || d > 1) r.fail(path, shown(v), "need epsilon > 0 and 0 < delta_prime <= delta <= 1");
    return whitehouse_rule(e, d, dp);
  }
  r.fail(path + "/type", type, "unknown rule (expected basic_pure, basic_approximate, product_delta, renyi_moment or whitehouse)");
}

/// `"parallel" | "filter" | "odometer"`: a launch composition over a menu (compose/launch.hpp).
Built read_launch(const Reader& r, const Json& m, const std::string& mp, const Neighbours& n, const std::string& type,
                  const std::string& name) {
  if (type == "parallel") r.only_keys(m, mp, {"type", "menu", "max_instances", "budget", "first_pair_consistent"});
  if (type == "filter") r.only_keys(m, mp, {"type", "menu", "max_instances", "rule"});
  if (type == "odometer") r.only_keys(m, mp, {"type", "menu", "max_instances", "threshold"});
  const Json& list = r.array(r.member(m, mp, "menu"), mp + "/menu");
  if (list.empty()) r.fail(mp + "/menu", "[]", "the menu needs at least one mechanism");
  std::vector<MenuEntry> menu;
  for (std::size_t j = 0; j < list.size(); ++j) {
    const std::string ep = mp + "/menu/" + std::to_string(j);
    const Json& e = r.object(list[j], ep);
    r.only_keys(e, ep, {"name", "lambda", "delta", "renyi_moment", "neighbours", "mechanism"});
    MenuEntry entry;
    entry.name = r.string(r.member(e, ep, "name"), ep + "/name");
    if (entry.name.empty() || entry.name.find(':') != std::string::npos) r.fail(ep + "/name", entry.name, "a menu name is non-empty and has no ':'");
    for (const auto& other : menu)
      if (other.name == entry.name) r.fail(ep + "/name", entry.name, "two menu entries have this name");
    entry.parameters.lambda = e.contains("lambda") ? read_parameter(r, e, ep, "lambda", Rational(1)) : Rational(1);
    entry.parameters.delta = e.contains("delta") ? read_parameter(r, e, ep, "delta", Rational(0)) : Rational(0);
    if (entry.parameters.delta > 1) r.fail(ep + "/delta", to_string(entry.parameters.delta), "delta lies in [0, 1]");
    if (e.contains("renyi_moment")) entry.parameters.renyi_moment = read_parameter(r, e, ep, "renyi_moment", Rational(1));
    const Neighbours en = e.contains("neighbours") ? read_neighbours(r, e["neighbours"], ep + "/neighbours") : n;
    if (en.is_static() && en.worlds != n.worlds) r.fail(ep + "/neighbours/worlds", en.worlds[0], "a static menu entry uses the top-level worlds");
    Built b = read_mechanism(r, r.member(e, ep, "mechanism"), ep + "/mechanism", en, en.messages(), entry.name);
    if (b.verifier) r.fail(ep + "/mechanism/type", "", "a launch composition cannot be a menu entry");
    entry.game.name = entry.name;
    entry.game.mechanism = b.mechanism;
    entry.game.initial = b.initial;
    entry.game.world_names = n.worlds;
    entry.game.verifier = top_level_verifier(r, en, *b.mechanism);
    menu.push_back(std::move(entry));
  }
  LaunchOptions o;
  o.name = name;
  o.max_instances = m.contains("max_instances") ? r.natural(m["max_instances"], mp + "/max_instances") : 2;
  if (o.max_instances < 1 || o.max_instances > 64) r.fail(mp + "/max_instances", shown(m["max_instances"]), "between 1 and 64");
  o.horizon = 1;  // the top-level horizon governs the game
  Game g;
  if (type == "parallel") {
    std::vector<LaunchParameters> budget;
    const Json& bl = r.array(r.member(m, mp, "budget"), mp + "/budget");
    for (std::size_t i = 0; i < bl.size(); ++i) {
      const std::string bp = mp + "/budget/" + std::to_string(i);
      r.object(bl[i], bp);
      r.only_keys(bl[i], bp, {"lambda", "delta"});
      budget.push_back({bl[i].contains("lambda") ? read_parameter(r, bl[i], bp, "lambda", Rational(1)) : Rational(1),
                        bl[i].contains("delta") ? read_parameter(r, bl[i], bp, "delta", Rational(0)) : Rational(0), std::nullopt});
    }
    bool fpc = false;
    if (auto it = m.find("first_pair_consistent"); it != m.end()) {
      if (!it->is_boolean()) r.fail(mp + "/first_pair_consistent", shown(*it), "expected true or false");
      fpc = it->get<bool>();
    }
    g = parallel_composition(std::move(menu), std::move(budget), fpc, o);
  } else if (type == "filter") {
    g = filter_composition(std::move(menu), read_rule(r, r.member(m, mp, "rule"), mp + "/rule"), o);
  } else {
    const std::string tp = mp + "/threshold";
    const Json& t = r.object(r.member(m, mp, "threshold"), tp);
    r.only_keys(t, tp, {"lambda"});
    g = odometer_truncated(std::move(menu), product_lambda_accumulator(read_parameter(r, t, tp, "lambda", Rational(1))), o);
  }
  return Built{g.mechanism, g.initial, g.verifier};
}

/// `"type": "postprocess"`: P∘*M with a table post-processor (compose/postprocess.hpp).
Built read_postprocess(const Reader& r, const Json& m, const std::string& mp, const Neighbours& n, const std::string& name) {
  r.only_keys(m, mp, {"type", "processor", "mechanism"});
  if (!n.is_static()) r.fail("/neighbours/type", n.type_name(), "post-processing is supported with static neighbours only");
  Built inner = read_mechanism(r, r.member(m, mp, "mechanism"), mp + "/mechanism", n, {}, name + " (inner)");
  if (inner.verifier) r.fail(mp + "/mechanism/type", "", "post-processing of a launch composition is not supported in spec files");
  const std::string pp = mp + "/processor";
  const Json& p = r.object(r.member(m, mp, "processor"), pp);
  r.only_keys(p, pp, {"initial", "left_messages", "states", "max_inner_steps"});
  PostProcessorTable t;
  t.name = name + " processor";
  t.initial = r.string(r.member(p, pp, "initial"), pp + "/initial");
  const Json& lm = r.array(r.member(p, pp, "left_messages"), pp + "/left_messages");
  if (lm.empty()) r.fail(pp + "/left_messages", "[]", "the adversary's alphabet is empty");
  for (std::size_t i = 0; i < lm.size(); ++i) t.left_messages.push_back(r.string(lm[i], pp + "/left_messages/" + std::to_string(i)));
  if (p.contains("max_inner_steps")) t.max_inner_steps = static_cast<unsigned>(std::min<std::uint64_t>(r.natural(p["max_inner_steps"], pp + "/max_inner_steps"), 100000));
  const Json& states = r.object(r.member(p, pp, "states"), pp + "/states");
  if (!states.contains(t.initial)) r.fail(pp + "/initial", t.initial, "unknown processor state (not a key of " + pp + "/states)");
  for (const auto& [st, ports] : states.items()) {
    const std::string sp = pp + "/states/" + segment(st);
    r.object(ports, sp);
    r.only_keys(ports, sp, {"L", "R"});
    for (const auto& [port, rules] : ports.items()) {
      const std::string portp = sp + "/" + port;
      r.object(rules, portp);
      for (const auto& [msg, rows] : rules.items()) {
        const std::string rp = portp + "/" + segment(msg);
        const Json& rl = r.array(rows, rp);
        Rational total = 0;
        auto& out = t.rules[st][port][msg];
        for (std::size_t i = 0; i < rl.size(); ++i) {
          const std::string op = rp + "/" + std::to_string(i);
          const Json& o = r.object(rl[i], op);
          r.only_keys(o, op, {"p", "next", "to", "message"});
          PostProcessorOutcome x{r.probability(r.member(o, op, "p"), op + "/p"), r.string(r.member(o, op, "next"), op + "/next"), Port::left,
                                 r.string(r.member(o, op, "message"), op + "/message")};
          const std::string to = r.string(r.member(o, op, "to"), op + "/to");
          if (to != "L" && to != "R") r.fail(op + "/to", to, "expected \"L\" (the adversary) or \"R\" (the mechanism)");
          x.to = to == "L" ? Port::left : Port::right;
          if (!states.contains(x.next)) r.fail(op + "/next", x.next, "unknown processor state (not a key of " + pp + "/states)");
          if (x.to == Port::right && !inner.mechanism->message_id(x.message)) r.fail(op + "/message", x.message, "not a message of the inner mechanism");
          total += x.probability;
          out.push_back(std::move(x));
        }
        if (total != 1) r.fail(rp, to_string(total), "the probabilities of a rule must sum to exactly 1");
      }
    }
  }
  Game inner_game;
  inner_game.name = name;
  inner_game.mechanism = inner.mechanism;
  inner_game.initial = inner.initial;
  inner_game.verifier = std::make_shared<StaticVerifier>(inner.mechanism->messages().size());
  Game g = postprocess(inner_game, post_processor_from_table(std::move(t)));
  return Built{g.mechanism, g.initial, nullptr};
}

Built read_mechanism(const Reader& r, const Json& v, const std::string& mp, const Neighbours& n,
                     const std::vector<std::string>& extra_messages, const std::string& name) {
  const Json& m = r.object(v, mp);
  const std::string type = r.string(r.member(m, mp, "type"), mp + "/type");
  if (type == "table") return read_table(r, m, mp, n, extra_messages, name);
  if (type == "concurrent") return read_concurrent(r, m, mp, n, extra_messages, name);
  if (type == "parallel" || type == "filter" || type == "odometer") {
    if (!extra_messages.empty()) r.fail("/neighbours", extra_messages.front(), "a launch composition takes its relations from its menu entries");
    return read_launch(r, m, mp, n, type, name);
  }
  if (type == "postprocess") return read_postprocess(r, m, mp, n, name);
  if (type == "library")
    r.fail(mp + "/type", type, "a library mechanism carries its own neighbouring relation and can only be the top-level mechanism of a spec");
  r.fail(mp + "/type", type, "unknown mechanism type (expected table, concurrent, parallel, filter, odometer or postprocess)");
}

/// The verifier of the top-level (or a menu entry's) neighbours over @p mech's messages.
std::shared_ptr<const Verifier> top_level_verifier(const Reader& r, const Neighbours& n, const InteractiveMechanism& mech) {
  try {
    return n.verifier(mech, r.source());
  } catch (const Error& e) {
    r.fail(n.pointer.empty() ? "/neighbours" : n.pointer, e.value(), e.why());
  }
}

}  // namespace

namespace {

Game read_document(const Reader& r, const Json& doc, const std::string& source) {
  r.object(doc, "");
  if (doc.contains("parameters"))  // a spec with a parameter (io/parametric_spec.hpp) is decided for all values at once
    r.fail("/parameters", io::shown(doc["parameters"]),
           "this spec has a parameter: decide a claim for every value with `exactdp check SPEC --lambda EXPR --for-all NAME`, or "
           "print the worst ratio with `exactdp profile SPEC --parametric` (docs/parametric.md)");
  r.only_keys(doc, "", {"format", "name", "horizon", "max_horizon", "neighbours", "mechanism"});
  const std::string format = r.string(r.member(doc, "", "format"), "/format");
  if (format != "exactdp/1") r.fail("/format", format, "unsupported format (this version reads \"exactdp/1\")");
  Game g;
  g.name = doc.contains("name") ? r.string(doc["name"], "/name") : source;
  std::optional<unsigned> max_horizon;
  if (auto it = doc.find("max_horizon"); it != doc.end())
    max_horizon = static_cast<unsigned>(r.integer(*it, "/max_horizon", 1, limits::max_horizon));
  if (auto it = doc.find("mechanism"); it != doc.end() && it->is_object() && it->value("type", Json()) == Json("library")) {
    g = parse_library_spec(r, doc, g.name);
  } else {
    const auto horizon = r.natural(r.member(doc, "", "horizon"), "/horizon");
    if (horizon < 1 || horizon > limits::max_horizon) r.fail("/horizon", shown(doc["horizon"]), "the horizon must be between 1 and 100000");
    g.horizon = static_cast<unsigned>(horizon);
    const Neighbours n = read_neighbours(r, r.member(doc, "", "neighbours"));
    g.world_names = n.world_names();

    Built built = read_mechanism(r, r.member(doc, "", "mechanism"), "/mechanism", n, n.messages(), g.name);
    g.mechanism = built.mechanism;
    g.initial = built.initial;
    if (built.verifier) {
      // launch compositions carry their own verifier (compose/launch.hpp); the top level names the worlds
      if (!n.is_static())
        r.fail("/neighbours/type", n.type_name(), "a launch composition (parallel, filter, odometer) takes static top-level neighbours that name the worlds; give each menu entry its own \"neighbours\"");
      g.verifier = built.verifier;
    } else {
      g.verifier = top_level_verifier(r, n, *g.mechanism);
    }
  }
  if (max_horizon) {
    if (g.horizon > *max_horizon)
      r.fail("/horizon", std::to_string(g.horizon),
             "the horizon exceeds the spec's \"max_horizon\" of " + std::to_string(*max_horizon) + " (the file is exact only up to it)");
    g.max_horizon = max_horizon;
  }
  try {
    g.validate();
  } catch (const Error& e) {
    throw e.in(source);
  }
  return g;
}

}  // namespace

SpecReading read_spec(std::string_view text, const std::string& source) {
  SpecReading out;
  try {
    const Reader r(source, out);
    const Json doc = io::parse_json(text, source, "spec");
    Game g = read_document(r, doc, source);
    if (out.errors.empty()) out.game = std::move(g);
  } catch (const StopReading&) {
  } catch (const Error& e) {
    // the error that stopped the reading comes first: the ones recorded before it may be its echo
    out.errors.insert(out.errors.begin(), e);
    out.error_codes.insert(out.error_codes.begin(), e.why().find("key is repeated") != std::string::npos ? "repeated-key" : "invalid");
  }
  if (!out.errors.empty()) out.game.reset();
  return out;
}

Game parse_spec(std::string_view text, const std::string& source) {
  SpecReading reading = read_spec(text, source);
  if (!reading.errors.empty()) {
    const Error& first = reading.errors.front();
    if (reading.errors.size() == 1) throw first;
    throw Error(first.where(), first.field(), first.value(),
                first.why() + " (and " + std::to_string(reading.errors.size() - 1) + " more error" +
                    (reading.errors.size() > 2 ? "s" : "") + "; exactdp lint lists them all)");
  }
  return std::move(*reading.game);
}

Game load_spec_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the spec file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_spec(buf.str(), file.string());
}

}  // namespace exactdp
