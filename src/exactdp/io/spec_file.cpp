// Spec-file loading. Uses nlohmann::json (header-only); ordered_json keeps the file's key order,
// so the message alphabet and the states appear in the order the user wrote them.
#include "exactdp/io/spec_file.hpp"

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
#include <set>
#include <sstream>

namespace exactdp {
namespace {

using Json = nlohmann::ordered_json;

/// A JSON Pointer segment (RFC 6901: "~" → "~0", "/" → "~1").
std::string segment(const std::string& key) {
  std::string s;
  for (char c : key) {
    if (c == '~') s += "~0";
    else if (c == '/') s += "~1";
    else s += c;
  }
  return s;
}

/// A value as the user wrote it, shortened for messages.
std::string shown(const Json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

/// Parsing context: the source name and the current JSON path.
class Reader {
public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& value, const std::string& why) const {
    throw Error(source_, path.empty() ? "/" : path, value, why);
  }

  const Json& member(const Json& obj, const std::string& path, const std::string& key) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(path, "", "missing required key \"" + key + "\"");
    return *it;
  }
  const Json& object(const Json& v, const std::string& path) const {
    if (!v.is_object()) fail(path, shown(v), "expected a JSON object");
    return v;
  }
  const Json& array(const Json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, shown(v), "expected a JSON array");
    return v;
  }
  std::string string(const Json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, shown(v), "expected a string");
    return v.get<std::string>();
  }
  std::uint64_t natural(const Json& v, const std::string& path) const {
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0))
      fail(path, shown(v), "expected a non-negative integer");
    return v.get<std::uint64_t>();
  }
  Rational probability(const Json& v, const std::string& path) const {
    if (v.is_number_integer()) {
      if (!v.is_number_unsigned() && v.get<std::int64_t>() < 0) fail(path, shown(v), "probabilities must be non-negative");
      return Rational(static_cast<unsigned long>(v.get<std::uint64_t>()));
    }
    if (v.is_number()) fail(path, shown(v), "write fractional probabilities as exact strings such as \"1/3\" or \"0.25\"");
    std::string text = string(v, path);
    if (text.size() > 2 * limits::max_rational_bits) fail(path, text, "the number is written with too many characters");
    Rational q;
    try {
      q = parse_rational(text, "p");
    } catch (const Error& e) {
      fail(path, text, e.why());
    }
    if (!limits::rational_size_ok(q))
      fail(path, text, "numerator or denominator longer than " + std::to_string(limits::max_rational_bits) + " bits (limits.hpp)");
    return q;
  }
  /// Rejects keys outside @p allowed (plus the documentation keys).
  void only_keys(const Json& obj, const std::string& path, std::initializer_list<const char*> allowed) const {
    for (const auto& item : obj.items()) {
      const std::string& k = item.key();  // not a structured binding: clang 14 cannot capture one
      if (k == "description" || k == "source" || k == "comment") continue;
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return k == a; }))
        fail(path + "/" + segment(k), k, "unknown key");
    }
  }
  const std::string& source() const { return source_; }

private:
  std::string source_;
};

struct AutomatonEdge {
  std::pair<std::string, std::string> pair;
  std::string next;
};

struct Neighbours {
  std::string type = "static";
  std::array<std::string, 2> worlds;
  std::vector<std::pair<std::string, std::string>> allowed;  // pairs, by message name
  std::optional<unsigned> max_differing;
  std::string automaton_initial;
  std::vector<std::pair<std::string, std::vector<AutomatonEdge>>> automaton;  // state → edges
  bool is_static() const { return type == "static"; }
};

/// A message pair [m0, m1] by name.
std::pair<std::string, std::string> read_pair(const Reader& r, const Json& v, const std::string& path) {
  const Json& pair = r.array(v, path);
  if (pair.size() != 2) r.fail(path, shown(pair), "a pair lists exactly two messages [m0, m1]");
  std::pair<std::string, std::string> p{r.string(pair[0], path + "/0"), r.string(pair[1], path + "/1")};
  if (p.first == "*" || p.second == "*") r.fail(path, shown(pair), "\"*\" is the wildcard rule key, not a message");
  return p;
}

Neighbours read_neighbours(const Reader& r, const Json& v, const std::string& path = "/neighbours") {
  r.object(v, path);
  const std::string type = r.string(r.member(v, path, "type"), path + "/type");
  Neighbours n;
  if (type == "static") {
    r.only_keys(v, path, {"type", "worlds"});
    const Json& w = r.array(r.member(v, path, "worlds"), path + "/worlds");
    if (w.size() != 2) r.fail(path + "/worlds", shown(w), "static neighbours name exactly two worlds");
    for (int b = 0; b < 2; ++b) n.worlds[b] = r.string(w[std::size_t(b)], path + "/worlds/" + std::to_string(b));
    if (n.worlds[0] == n.worlds[1]) r.fail(path + "/worlds/1", n.worlds[1], "the two worlds must differ");
    return n;
  }
  n.type = type;
  if (type == "pairs") {
    r.only_keys(v, path, {"type", "allowed", "max_differing"});
    n.worlds = {"world 0", "world 1"};
    const Json& a = r.array(r.member(v, path, "allowed"), path + "/allowed");
    if (a.empty()) r.fail(path + "/allowed", "[]", "at least one pair must be allowed");
    std::set<std::pair<std::string, std::string>> seen;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string pp = path + "/allowed/" + std::to_string(i);
      auto p = read_pair(r, a[i], pp);
      if (!seen.insert(p).second) r.fail(pp, shown(a[i]), "pair listed twice");
      n.allowed.push_back(p);
    }
    if (auto k = v.find("max_differing"); k != v.end()) {
      auto kv = r.natural(*k, path + "/max_differing");
      if (kv > 1'000'000) r.fail(path + "/max_differing", shown(*k), "max_differing is too large");
      n.max_differing = static_cast<unsigned>(kv);
    }
    return n;
  }
  if (type == "automaton") {
    r.only_keys(v, path, {"type", "initial", "states"});
    n.worlds = {"world 0", "world 1"};
    const Json& states = r.object(r.member(v, path, "states"), path + "/states");
    if (states.empty()) r.fail(path + "/states", "{}", "an automaton needs at least one state");
    std::set<std::string> names;
    for (const auto& [name, edges] : states.items()) names.insert(name);
    n.automaton_initial = r.string(r.member(v, path, "initial"), path + "/initial");
    if (!names.count(n.automaton_initial))
      r.fail(path + "/initial", n.automaton_initial, "unknown automaton state (not a key of /neighbours/states)");
    for (const auto& [name, edges] : states.items()) {
      const std::string sp = path + "/states/" + segment(name);
      const Json& list = r.array(edges, sp);
      std::vector<AutomatonEdge> out;
      std::set<std::pair<std::string, std::string>> seen;
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string ep = sp + "/" + std::to_string(i);
        const Json& e = r.object(list[i], ep);
        r.only_keys(e, ep, {"pair", "next"});
        AutomatonEdge edge{read_pair(r, r.member(e, ep, "pair"), ep + "/pair"), r.string(r.member(e, ep, "next"), ep + "/next")};
        if (!names.count(edge.next)) r.fail(ep + "/next", edge.next, "unknown automaton state (not a key of /neighbours/states)");
        if (!seen.insert(edge.pair).second) r.fail(ep + "/pair", shown(e["pair"]), "pair listed twice in this state");
        out.push_back(std::move(edge));
      }
      n.automaton.emplace_back(name, std::move(out));
    }
    return n;
  }
  r.fail(path + "/type", type, "unknown neighbours type (expected \"static\", \"pairs\" or \"automaton\")");
}

TableMechanism::StateTable read_state(const Reader& r, const Json& v, const std::string& path) {
  r.object(v, path);
  TableMechanism::StateTable t;
  t.halted = v.empty();
  for (const auto& [m, rows] : v.items()) {
    const std::string mp = path + "/" + segment(m);
    const Json& list = r.array(rows, mp);
    if (list.empty()) r.fail(mp, "[]", "a rule needs at least one row (list the state as {} to halt it)");
    std::vector<TableMechanism::Row> out;
    Rational total = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string rp = mp + "/" + std::to_string(i);
      const Json& row = r.object(list[i], rp);
      r.only_keys(row, rp, {"p", "answer", "next"});
      TableMechanism::Row x{r.probability(r.member(row, rp, "p"), rp + "/p"), r.string(r.member(row, rp, "answer"), rp + "/answer"),
                            r.string(r.member(row, rp, "next"), rp + "/next")};
      if (sgn(x.probability) < 0) r.fail(rp + "/p", to_string(x.probability), "probabilities must be non-negative");
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
  std::map<std::string, library::LibraryArgument> args;
  if (auto it = m.find("params"); it != m.end()) {
    const std::string pp = mp + "/params";
    r.object(*it, pp);
    auto scalar = [&](const Json& v, const std::string& path) {
      if (v.is_number_integer() || v.is_string()) return v.is_string() ? v.get<std::string>() : v.dump();
      if (v.is_number()) r.fail(path, shown(v), "write fractional parameters as exact strings such as \"1/3\" or \"0.25\"");
      r.fail(path, shown(v), "expected a string or an integer");
    };
    for (const auto& [k, v] : it->items()) {
      const std::string kp = pp + "/" + segment(k);
      library::LibraryArgument a;
      if (v.is_array()) {
        a.is_list = true;
        a.text = shown(v);
        for (std::size_t i = 0; i < v.size(); ++i) a.items.push_back(scalar(v[i], kp + "/" + std::to_string(i)));
      } else {
        a.text = scalar(v, kp);
      }
      args.emplace(k, std::move(a));
    }
  }
  Game g = library::make_library_game(lib, library::LibraryArguments(r.source(), mp + "/params", std::move(args)), mp + "/name");
  g.name = doc.contains("name") ? name : g.name;
  if (auto it = doc.find("horizon"); it != doc.end()) {
    const auto horizon = r.natural(*it, "/horizon");
    if (horizon < 1 || horizon > 100000) r.fail("/horizon", shown(*it), "the horizon must be between 1 and 100000");
    g.horizon = static_cast<unsigned>(horizon);
  }
  return g;
}

/// The messages named by the neighbour relation's pairs, in first-seen order.
std::vector<std::string> pair_messages(const Neighbours& n) {
  std::vector<std::string> out;
  auto declare = [&](const std::pair<std::string, std::string>& p) {
    for (const auto& x : {p.first, p.second})
      if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  };
  for (const auto& p : n.allowed) declare(p);
  for (const auto& [name, edges] : n.automaton)
    for (const auto& e : edges) declare(e.pair);
  return out;
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

/// `"type": "table"`: states, rules and initial laws (THEOREMS.md A.3).
Built read_table(const Reader& r, const Json& m, const std::string& mp, const Neighbours& n,
                 const std::vector<std::string>& extra_messages, const std::string& mech_name) {
  r.only_keys(m, mp, {"type", "initial", "states", "messages"});
  // messages: declared order first, then those of the allowed pairs
  std::vector<std::string> messages;
  if (auto it = m.find("messages"); it != m.end()) {
    const Json& list = r.array(*it, mp + "/messages");
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto s = r.string(list[i], mp + "/messages/" + std::to_string(i));
      if (s == "*") r.fail(mp + "/messages/" + std::to_string(i), s, "\"*\" is the wildcard rule key, not a message");
      messages.push_back(std::move(s));
    }
  }
  for (const auto& x : extra_messages)
    if (std::find(messages.begin(), messages.end(), x) == messages.end()) messages.push_back(x);

  const Json& states = r.object(r.member(m, mp, "states"), mp + "/states");
  if (states.empty()) r.fail(mp + "/states", "{}", "a mechanism needs at least one state");
  std::vector<std::pair<std::string, TableMechanism::StateTable>> tables;
  std::set<std::string> names;
  for (const auto& [s, v] : states.items()) names.insert(s);
  // A next state that is not a key of `states` has halted, as if listed with {} (the example of
  // issue 3 relies on it); an initial state must be listed.
  std::vector<std::string> implicit;
  for (const auto& [s, v] : states.items()) {
    const std::string sp = mp + "/states/" + segment(s);
    auto t = read_state(r, v, sp);
    for (const auto& [msg, rows] : t.rules)
      for (const auto& row : rows)
        if (!names.count(row.next) && std::find(implicit.begin(), implicit.end(), row.next) == implicit.end())
          implicit.push_back(row.next);
    tables.emplace_back(s, std::move(t));
  }
  for (const auto& s : implicit) tables.emplace_back(s, TableMechanism::StateTable{true, {}});
  {  // limits.hpp: refuse tables whose transition array would be too large, before building it
    std::set<std::string> alphabet(messages.begin(), messages.end());
    std::size_t rows = 0;
    for (const auto& [s, t] : tables)
      for (const auto& [msg, list] : t.rules) {
        if (msg != "*") alphabet.insert(msg);
        rows += list.size();
      }
    const std::size_t cells = tables.size() * std::max<std::size_t>(alphabet.size(), 1);
    if (tables.size() > limits::max_states)
      r.fail(mp + "/states", std::to_string(tables.size()) + " states", "more states than the limit of " + std::to_string(limits::max_states));
    if (alphabet.size() > limits::max_messages)
      r.fail(mp + "/messages", std::to_string(alphabet.size()) + " messages", "more messages than the limit of " + std::to_string(limits::max_messages));
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

  // initial laws
  const Json& init = r.member(m, mp, "initial");
  auto state_of = [&](const Json& v, const std::string& path) {
    const std::string s = r.string(v, path);
    if (!names.count(s)) r.fail(path, s, "unknown state (not a key of " + mp + "/states)");
    return mech->state_id(s);
  };
  auto law_of = [&](const Json& v, const std::string& path) {
    InitialLaw law;
    if (v.is_string()) {
      law.push_back({state_of(v, path), Rational(1)});
      return law;
    }
    r.object(v, path);
    Rational total = 0;
    for (const auto& [s, p] : v.items()) {
      const std::string lp = path + "/" + segment(s);
      if (!names.count(s)) r.fail(lp, s, "unknown state (not a key of " + mp + "/states)");
      Rational x = r.probability(p, lp);
      if (sgn(x) < 0) r.fail(lp, to_string(x), "probabilities must be non-negative");
      total += x;
      if (sgn(x) > 0) law.push_back({mech->state_id(s), x});
    }
    if (total != 1) r.fail(path, to_string(total), "the initial law must sum to exactly 1");
    return law;
  };
  Built b;
  if (n.is_static()) {
    r.object(init, mp + "/initial");
    for (const auto& [k, v] : init.items())
      if (k != n.worlds[0] && k != n.worlds[1])
        r.fail(mp + "/initial/" + segment(k), k, "not one of the worlds named in /neighbours/worlds");
    for (int w = 0; w < 2; ++w) {
      const std::string ip = mp + "/initial/" + segment(n.worlds[w]);
      auto it = init.find(n.worlds[w]);
      if (it == init.end()) r.fail(mp + "/initial", "", "missing the initial state of world \"" + n.worlds[w] + "\"");
      b.initial[w] = law_of(*it, ip);
    }
  } else {
    b.initial[0] = law_of(init, mp + "/initial");
    b.initial[1] = b.initial[0];
  }
  b.mechanism = mech;
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
  const Json& v = r.member(obj, path, key);
  if (v.is_number_integer()) return r.probability(v, path + "/" + key) ;
  const std::string text = r.string(v, path + "/" + key);
  Rational x;
  try {
    x = parse_rational(text, key.c_str());
  } catch (const Error& e) {
    r.fail(path + "/" + key, text, e.why());
  }
  if (x < lo) r.fail(path + "/" + key, text, "must be at least " + to_string(lo));
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
    Built b = read_mechanism(r, r.member(e, ep, "mechanism"), ep + "/mechanism", en, pair_messages(en), entry.name);
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
  if (!n.is_static()) r.fail("/neighbours/type", n.type, "post-processing is supported with static neighbours only");
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
  if (n.is_static()) return std::make_shared<StaticVerifier>(mech.messages().size());
  auto pair_of = [&](const std::pair<std::string, std::string>& p) {
    const auto a = mech.message_id(p.first), b = mech.message_id(p.second);
    if (!a || !b) r.fail("/neighbours", !a ? p.first : p.second, "not a message of the mechanism");
    return MessagePair{*a, *b};
  };
  if (n.type == "pairs") {
    std::vector<MessagePair> pairs;
    for (const auto& p : n.allowed) pairs.push_back(pair_of(p));
    return std::make_shared<PairsVerifier>(std::move(pairs), n.max_differing);
  }
  std::vector<std::string> names;
  for (const auto& [name, edges] : n.automaton) names.push_back(name);
  auto index = [&](const std::string& name) {
    return static_cast<VerifierState>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  std::vector<std::vector<AutomatonVerifier::Edge>> edges;
  for (const auto& [name, list] : n.automaton) {
    edges.emplace_back();
    for (const auto& e : list) edges.back().push_back({pair_of(e.pair), index(e.next)});
  }
  return std::make_shared<AutomatonVerifier>(names, index(n.automaton_initial), std::move(edges));
}

}  // namespace

Game parse_spec(std::string_view text, const std::string& source) {
  Reader r(source);
  Json doc;
  if (text.size() > limits::max_input_bytes)
    throw Error(source, "", std::to_string(text.size()) + " bytes", "the spec is larger than the limit of " +
                std::to_string(limits::max_input_bytes) + " bytes (limits.hpp)");
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {  // parse_error, and out_of_range for huge numbers
    throw Error(source, "", "", std::string("not valid JSON: ") + e.what());
  }
  r.object(doc, "");
  r.only_keys(doc, "", {"format", "name", "horizon", "neighbours", "mechanism"});
  const std::string format = r.string(r.member(doc, "", "format"), "/format");
  if (format != "exactdp/1") r.fail("/format", format, "unsupported format (this version reads \"exactdp/1\")");
  Game g;
  g.name = doc.contains("name") ? r.string(doc["name"], "/name") : source;
  if (auto it = doc.find("mechanism"); it != doc.end() && it->is_object() && it->value("type", Json()) == Json("library"))
    return parse_library_spec(r, doc, g.name);
  const auto horizon = r.natural(r.member(doc, "", "horizon"), "/horizon");
  if (horizon < 1 || horizon > limits::max_horizon) r.fail("/horizon", shown(doc["horizon"]), "the horizon must be between 1 and 100000");
  g.horizon = static_cast<unsigned>(horizon);
  const Neighbours n = read_neighbours(r, r.member(doc, "", "neighbours"));
  g.world_names = n.worlds;

  Built built = read_mechanism(r, r.member(doc, "", "mechanism"), "/mechanism", n, pair_messages(n), g.name);
  g.mechanism = built.mechanism;
  g.initial = built.initial;
  if (built.verifier) {
    // launch compositions carry their own verifier (compose/launch.hpp); the top level names the worlds
    if (!n.is_static())
      r.fail("/neighbours/type", n.type, "a launch composition (parallel, filter, odometer) takes static top-level neighbours that name the worlds; give each menu entry its own \"neighbours\"");
    g.verifier = built.verifier;
  } else {
    g.verifier = top_level_verifier(r, n, *g.mechanism);
  }
  try {
    g.validate();
  } catch (const Error& e) {
    throw e.in(source);
  }
  return g;
}

Game load_spec_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the spec file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_spec(buf.str(), file.string());
}

}  // namespace exactdp
