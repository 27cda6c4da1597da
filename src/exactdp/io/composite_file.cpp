// Composite files (io/composite_file.hpp), read with the one JSON reader (io/json_reader.hpp).
#include "exactdp/io/composite_file.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/io/json_reader.hpp"
#include "exactdp/library/library_hsv.hpp"
#include "exactdp/library/library_registry.hpp"

#include <map>
#include <memory>
#include <set>

namespace exactdp {
namespace {


using json = io::Json;  // the one JSON reader (io/json_reader.hpp): repeated keys refused
using Pair = PairRelation::Pair;

/// Errors anchored in the file: Error(file, JSON Pointer, value, why).
struct Reader : io::JsonReader {
  explicit Reader(const std::string& f) : io::JsonReader(f), file(f) {}
  std::string file;
  std::string text(const json& j, const std::string& path) const { return string(j, path); }
};

/// A relation from {"type": "pairs", "allowed": [[m0, m1], …], "max_differing": k} or
/// {"type": "automaton", "initial": σ0, "states": {σ: [{"pair": [m0, m1], "next": σ′}, …]}}, read by
/// the one neighbour-relation reader (io::read_neighbour_relation) and run as a PairRelation.
PairRelation read_relation(const Reader& rd, const json& j, const std::string& path) {
  const NeighbourRelation n = io::read_neighbour_relation(rd, j, path, /*allow_static=*/false);
  PairRelation r;
  if (n.type == NeighbourRelation::Type::pairs) {
    auto all = std::make_shared<const std::vector<Pair>>(n.allowed);
    const std::optional<unsigned> k = n.max_differing;
    r.initial = "0";
    r.allowed = [all, k](const std::string& sigma) {
      std::vector<Pair> out;
      for (const auto& p : *all)
        if (p.first == p.second || !k || std::stoul(sigma) < *k) out.push_back(p);
      return out;
    };
    r.next = [](const std::string& sigma, const Pair& p) { return p.first == p.second ? sigma : std::to_string(std::stoul(sigma) + 1); };
    return r;
  }
  auto edges = std::make_shared<std::map<std::string, std::vector<NeighbourRelation::Edge>>>();
  for (const auto& [name, list] : n.automaton) (*edges)[name] = list;
  r.initial = n.initial;
  r.allowed = [edges](const std::string& sigma) {
    std::vector<Pair> out;
    for (const auto& e : edges->at(sigma)) out.push_back(e.pair);
    return out;
  };
  r.next = [edges](const std::string& sigma, const Pair& p) {
    for (const auto& e : edges->at(sigma))
      if (e.pair == p) return e.next;
    return sigma;
  };
  return r;
}

/// P from {"initial": s0, "states": {s: {"L"|"R": {m|"*": {"next", "to": "L"|"R", "message"}}}}};
/// a message "$" repeats the message received.
DeterministicPostProcessor read_processor(const Reader& rd, const json& j, const std::string& path, const std::string& name) {
  using Emit = DeterministicPostProcessor::Emit;
  const std::string initial = rd.text(rd.member(j, path, "initial"), path + "/initial");
  const json& states = rd.member(j, path, "states");
  if (!states.is_object() || states.empty()) rd.fail(path + "/states", states.dump(), "expected an object of states");
  using Rules = std::map<std::string, std::map<std::string, Emit>>;  // port → message → emit
  auto table = std::make_shared<std::map<std::string, Rules>>();
  for (const auto& [state, ports] : states.items()) {
    const std::string sp = path + "/states/" + state;
    if (!ports.is_object()) rd.fail(sp, ports.dump(), "expected {\"L\": {...}, \"R\": {...}}");
    auto& rules = (*table)[state];
    for (const auto& [port, messages] : ports.items()) {
      if (port != "L" && port != "R") rd.fail(sp + "/" + port, port, "a port is \"L\" (adversary) or \"R\" (sub-mechanisms)");
      if (!messages.is_object()) rd.fail(sp + "/" + port, messages.dump(), "expected an object message → reaction");
      for (const auto& [m, reaction] : messages.items()) {
        const std::string rp = sp + "/" + port + "/" + m;
        if (!reaction.is_object()) rd.fail(rp, reaction.dump(), "expected {\"next\", \"to\", \"message\"} (P is deterministic: one reaction)");
        const std::string to = rd.text(rd.member(reaction, rp, "to"), rp + "/to");
        if (to != "L" && to != "R") rd.fail(rp + "/to", to, "expected \"L\" or \"R\"");
        rules[port][m] = Emit{rd.text(rd.member(reaction, rp, "next"), rp + "/next"), to == "L" ? Port::left : Port::right,
                              rd.text(rd.member(reaction, rp, "message"), rp + "/message"), {}};
      }
    }
  }
  if (!table->count(initial)) rd.fail(path + "/initial", initial, "not a listed state");
  for (const auto& [state, rules] : *table)
    for (const auto& [port, messages] : rules)
      for (const auto& [m, e] : messages)
        if (!table->count(e.next)) rd.fail(path + "/states/" + state + "/" + port + "/" + m + "/next", e.next, "not a listed state");
  DeterministicPostProcessor P;
  P.name = name;
  P.initial = initial;
  const std::string file = rd.file;
  P.step = [table, path, file](const std::string& state, Port from, const std::string& message) {
    const std::string port = from == Port::left ? "L" : "R";
    const auto& rules = table->at(state);
    auto p = rules.find(port);
    const std::string where = path + "/states/" + state + "/" + port;
    if (p == rules.end()) throw Error(file, where, message, "P has no reaction to a message from this port in this state");
    auto r = p->second.find(message);
    if (r == p->second.end()) r = p->second.find("*");
    if (r == p->second.end()) throw Error(file, where, message, "P has no reaction to this message (and no \"*\")");
    Emit e = r->second;
    if (e.message == "$") e.message = message;
    return e;
  };
  return P;
}

}  // namespace

CompositeFile load_composite_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  CompositeFile out;
  std::string& name = out.name;
  CompositeInstance& ci = out.instance;
  const json j = io::read_json_file(file, "composite file");
  const Reader rd(file);
  const std::string format = rd.text(rd.member(j, "", "format"), "/format");
  if (format != "exactdp-composite/1") rd.fail("/format", format, "expected \"exactdp-composite/1\"");
  if (j.contains("library")) {
    const std::string lib = rd.text(j.at("library"), "/library");
    const auto args = io::read_library_arguments(rd, j.contains("params") ? j.at("params") : json::object(), "/params");
    const library::CompositeModel m = library::make_library_composite(lib, args, "/library");
    ci = library::checker_instance(m);
    name = m.game.name;
  } else {
    name = j.contains("name") ? rd.text(j.at("name"), "/name") : file;
    ci.processor = read_processor(rd, rd.member(j, "", "processor"), "/processor", name);
    ci.input_relation = read_relation(rd, rd.member(j, "", "input_relation"), "/input_relation");
    ci.output_relation = read_relation(rd, rd.member(j, "", "output_relation"), "/output_relation");
    const json& answers = rd.member(j, "", "answers");
    if (!answers.is_array() || answers.empty()) rd.fail("/answers", answers.dump(), "expected a non-empty list of sub-mechanism answers");
    for (std::size_t i = 0; i < answers.size(); ++i) ci.right_answers.push_back(rd.text(answers[i], "/answers/" + std::to_string(i)));
    ci.horizon = static_cast<unsigned>(rd.integer(rd.member(j, "", "horizon"), "/horizon", 1, 64));
  }
  if (j.contains("horizon") && j.contains("library")) ci.horizon = static_cast<unsigned>(rd.integer(j.at("horizon"), "/horizon", 1, 64));
  for (const auto& [key, value] : j.items())
    if (key != "format" && key != "name" && key != "description" && key != "source" && key != "comment" && key != "library" && key != "params" &&
        key != "processor" && key != "input_relation" && key != "output_relation" && key != "answers" && key != "horizon")
      rd.fail("/" + key, io::shown(value), "unknown key");
  return out;
}


}  // namespace exactdp
