#include "exactdp/io/parametric_spec.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/io/json_reader.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/library/library_parametric.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace exactdp {

namespace {

using io::Json;
using parametric::ParameterRange;
using parametric::RationalFunction;

struct Declared {
  std::string name;
  ParameterRange range;
};

Declared read_parameters(const io::JsonReader& r, const Json& doc) {
  const Json& params = r.object(doc["parameters"], "/parameters");
  if (params.size() != 1)
    r.fail("/parameters", io::shown(params), "declare exactly one parameter (this version of exactdp decides one parameter at a time)");
  Declared d;
  // (not a structured binding of *params.items().begin(): that proxy is a temporary whose key()
  // refers into itself, a use after scope that AddressSanitizer reports)
  const auto first = params.begin();
  const std::string name = first.key();
  const Json& spec = first.value();
  const std::string pp = "/parameters/" + io::pointer_segment(name);
  bool identifier = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) identifier = identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!identifier) r.fail(pp, name, "a parameter's name is an identifier (letters, digits, _)");
  d.name = name;
  r.object(spec, pp);
  r.only_keys(spec, pp, {"interval", "open"});
  const Json& iv = r.array(r.member(spec, pp, "interval"), pp + "/interval");
  if (iv.size() != 2) r.fail(pp + "/interval", io::shown(iv), "the interval is a list of two exact numbers [lo, hi]");
  d.range.lower = r.exact(iv[0], pp + "/interval/0");
  d.range.upper = r.exact(iv[1], pp + "/interval/1");
  if (!(d.range.lower < d.range.upper)) r.fail(pp + "/interval", io::shown(iv), "the interval needs lo < hi");
  if (auto it = spec.find("open"); it != spec.end()) {
    if (it->is_boolean()) {
      d.range.lower_open = d.range.upper_open = it->get<bool>();
    } else {
      const Json& o = r.array(*it, pp + "/open");
      if (o.size() != 2) r.fail(pp + "/open", io::shown(*it), "open is true, false, or [open at lo, open at hi]");
      d.range.lower_open = r.boolean(o[0], pp + "/open/0");
      d.range.upper_open = r.boolean(o[1], pp + "/open/1");
    }
  }
  return d;
}

/// A row's probability: an expression string or an exact number.
RationalFunction read_probability(const io::JsonReader& r, const Json& v, const std::string& pointer, const Declared& d) {
  if (!v.is_string()) return RationalFunction(r.exact(v, pointer));
  const std::string text = v.get<std::string>();
  try {
    return parametric::parse_rational_function(text, d.name);
  } catch (const Error& e) {
    r.fail(pointer, text, e.why());
  }
}

/// Non-negative and defined on the range; a rational witness otherwise.
void validate_probability(const io::JsonReader& r, const RationalFunction& p, const std::string& pointer, const Declared& d,
                          const std::string& text) {
  std::optional<Rational> negative;
  try {
    negative = parametric::negative_point(p, d.range, d.name);
  } catch (const Error& e) {
    r.fail(pointer, text, e.why());
  }
  if (negative)
    r.fail(pointer, text,
           "a probability must be non-negative for every " + d.name + " in " + d.range.to_string() + "; at " + d.name + " = " +
               to_string(*negative) + " it is " + to_string(p.evaluate(*negative)));
}

/// A value of the range where the non-zero function @p f does not vanish (a sample of a piece
/// where its sign is not 0).
Rational nonzero_point(const RationalFunction& f, const ParameterRange& range, const std::string& name) {
  const auto partition = parametric::sign_partition({f}, range, name);
  for (std::size_t k = 0; k < partition.pieces.size(); ++k)
    if (partition.signs[0][k] != 0 && partition.pieces[k].sample) return *partition.pieces[k].sample;
  throw Error("parametric", "", f.to_string(name), "internal: a non-zero function vanishes on the whole range");
}

/// The point of the range where the ordinary strict loader checks the structure: the simplest
/// rational inside it.
Rational reference_point(const ParameterRange& range) {
  const Rational reference = parametric::simplest_rational_between(range.lower_open ? range.lower : range.lower - 1,
                                                                    range.upper_open ? range.upper : range.upper + 1);
  return range.contains(reference) ? reference : (range.lower + range.upper) / 2;
}

ParametricSpec parse_parametric_library_spec(const io::JsonReader& r, const Json& doc, const Declared& d, const std::string& source);

}  // namespace

bool is_parametric_spec_text(std::string_view text) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  return doc.is_object() && doc.contains("parameters");
}

bool is_parametric_spec_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::ostringstream buf;
  buf << in.rdbuf();
  return is_parametric_spec_text(buf.str());
}

std::string ParametricSpec::instantiate_text(const Rational& r) const {
  if (!game.range.contains(r))
    throw Error(source, "/parameters/" + io::pointer_segment(game.parameter), to_string(r),
                "the value is outside the parameter's range " + game.range.to_string());
  Json doc = Json::parse(document);
  doc.erase("parameters");
  for (const auto& [pointer, f] : expressions) doc[Json::json_pointer(pointer)] = to_string(f.evaluate(r));
  return doc.dump();
}

Game ParametricSpec::instantiate(const Rational& r) const {
  return parse_spec(instantiate_text(r), source + " at " + game.parameter + " = " + to_string(r));
}

ParametricSpec parse_parametric_spec(std::string_view text, const std::string& source) {
  const Json doc = io::parse_json(text, source, "spec");
  const io::JsonReader r(source);
  r.object(doc, "/");
  if (!doc.contains("parameters")) r.fail("/", "", "not a parametric spec: no \"parameters\"");
  const Declared d = read_parameters(r, doc);
  const Json& m = r.object(r.member(doc, "", "mechanism"), "/mechanism");
  const std::string type = r.string(r.member(m, "/mechanism", "type"), "/mechanism/type");
  if (type == "library") return parse_parametric_library_spec(r, doc, d, source);
  if (type != "table")
    r.fail("/mechanism/type", type,
           "parameters are supported in table mechanisms and in the library mechanisms svt-counter and tree-counter only (this "
           "version; docs/parametric.md)");

  ParametricSpec out;
  out.source = source;
  out.document = doc.dump();
  // every row's p: read, check non-negative on the range, and each rule's sum ≡ 1
  const Json& states = r.object(r.member(m, "/mechanism", "states"), "/mechanism/states");
  std::map<std::string, RationalFunction> by_pointer;
  for (const auto& [s, rules] : states.items()) {
    const std::string sp = "/mechanism/states/" + io::pointer_segment(s);
    r.object(rules, sp);
    for (const auto& [msg, rows] : rules.items()) {
      const std::string rp = sp + "/" + io::pointer_segment(msg);
      r.array(rows, rp);
      RationalFunction sum;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const std::string pp = rp + "/" + std::to_string(i) + "/p";
        r.object(rows[i], rp + "/" + std::to_string(i));
        const Json& pv = r.member(rows[i], rp + "/" + std::to_string(i), "p");
        RationalFunction p = read_probability(r, pv, pp, d);
        validate_probability(r, p, pp, d, io::shown(pv));
        sum += p;
        by_pointer.emplace(pp, p);
        if (pv.is_string()) out.expressions.emplace_back(pp, p);
      }
      if (!(sum == RationalFunction(1))) {
        const Rational at = nonzero_point(sum - RationalFunction(1), d.range, d.name);
        r.fail(rp, sum.to_string(d.name),
               "the probabilities of a rule must sum to 1 for every " + d.name + " in " + d.range.to_string() + "; at " + d.name +
                   " = " + to_string(at) + " they sum to " + to_string(sum.evaluate(at)));
      }
    }
  }

  // the structure, by the ordinary strict loader at one point of the range
  out.game.name = doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : source;
  out.game.parameter = d.name;
  out.game.range = d.range;
  const Rational point = reference_point(d.range);
  out.reference_value = point;
  const Game numeric = out.instantiate(point);
  const auto* table = dynamic_cast<const TableMechanism*>(numeric.mechanism.get());
  if (!table) r.fail("/mechanism", "", "internal: a table spec did not load as a table");
  out.game.verifier = numeric.verifier;
  out.game.world_names = numeric.world_names;
  out.game.horizon = numeric.horizon;
  out.game.max_horizon = numeric.max_horizon;
  out.game.messages = table->messages();

  // the parametric kernel, with the table's semantics (TableMechanism, THEOREMS.md A.3)
  std::map<std::string, StateId> ids;
  for (const auto& [s, rules] : states.items()) {
    ids.emplace(s, static_cast<StateId>(out.game.state_names.size()));
    out.game.state_names.push_back(s);
  }
  std::map<std::string, AnswerId> answers;
  auto answer_id = [&](const std::string& a) {
    auto [it, fresh] = answers.try_emplace(a, static_cast<AnswerId>(out.game.answer_names.size()));
    if (fresh) out.game.answer_names.push_back(a);
    return it->second;
  };
  const bool missing_invalid = m.contains("missing_rules") && m["missing_rules"] == "invalid";
  for (const auto& [s, rules] : states.items()) {
    const StateId id = ids.at(s);
    const bool halted = rules.empty();
    out.game.halted.push_back(halted);
    auto& row = out.game.kernel.emplace_back(out.game.messages.size());
    for (std::size_t msg = 0; msg < out.game.messages.size(); ++msg) {
      if (halted) {
        row[msg] = std::vector<parametric::ParametricRow>{{RationalFunction(1), answer_id(halt_answer), id}};
        continue;
      }
      std::string key = out.game.messages[msg];
      if (!rules.contains(key)) key = "*";
      if (!rules.contains(key)) {
        if (missing_invalid) row[msg] = std::vector<parametric::ParametricRow>{{RationalFunction(1), answer_id(invalid_answer), id}};
        continue;  // no rule: an error only if the game reaches it (the strict loader checked reachable states)
      }
      const std::string rp = "/mechanism/states/" + io::pointer_segment(s) + "/" + io::pointer_segment(key);
      std::vector<parametric::ParametricRow> rows;
      for (std::size_t i = 0; i < rules[key].size(); ++i) {
        const Json& x = rules[key][i];
        const RationalFunction& p = by_pointer.at(rp + "/" + std::to_string(i) + "/p");
        if (p.is_zero()) continue;
        rows.push_back({p, answer_id(x["answer"].get<std::string>()), ids.at(x["next"].get<std::string>())});
      }
      row[msg] = std::move(rows);
    }
  }
  for (int b = 0; b < 2; ++b)
    for (const auto& [s, mass] : numeric.initial[b]) out.game.initial[b].push_back({ids.at(table->state_name(s)), mass});
  return out;
}

namespace {

/// `"mechanism": {"type": "library", "name": ..., "params": {...}}` with noise parameters written
/// as expressions in the declared parameter (library/library_parametric.hpp): the game is the
/// library's parametric twin of the mechanism; the structure and every other parameter are checked
/// by the ordinary loader on the spec instantiated at a point of the range.
ParametricSpec parse_parametric_library_spec(const io::JsonReader& r, const Json& doc, const Declared& d, const std::string& source) {
  const Json& m = doc["mechanism"];
  const std::string name = r.string(r.member(m, "/mechanism", "name"), "/mechanism/name");
  const auto& entries = library::parametric_library_entries();
  const auto entry = std::find_if(entries.begin(), entries.end(), [&](const auto& e) { return e.first == name; });
  if (entry == entries.end()) {
    std::string known;
    for (const auto& e : entries) known += (known.empty() ? "" : ", ") + e.first;
    r.fail("/mechanism/name", name, "this library mechanism does not take a parameter (this version; mechanisms that do: " + known + ")");
  }
  const Json no_params = Json::object();
  const Json& params = m.contains("params") ? m["params"] : no_params;
  r.object(params, "/mechanism/params");
  ParametricSpec out;
  out.source = source;
  out.document = doc.dump();
  // the noise parameters written as strings may be expressions in the parameter
  bool uses_parameter = false;
  for (const std::string& key : entry->second) {
    const std::string pointer = "/mechanism/params/" + io::pointer_segment(key);
    if (!params.contains(key) || !params[key].is_string()) continue;
    const std::string text = params[key].get<std::string>();
    RationalFunction f;
    try {
      f = parametric::parse_rational_function(text, d.name, key);
    } catch (const Error& e) {
      r.fail(pointer, text, e.why());
    }
    uses_parameter = uses_parameter || !f.is_constant();
    try {  // DLap(f(r)) for every r of the range, before the spec is instantiated at any point
      library::check_noise_parameter_for_all(key, f, d.range, d.name);
    } catch (const Error& e) {
      if (e.field() == "range") r.fail("/parameters/" + io::pointer_segment(d.name), d.range.to_string(), e.why());
      r.fail(pointer, text, e.why());
    }
    out.expressions.emplace_back(pointer, f);
  }
  if (!uses_parameter)
    r.fail("/mechanism/params", io::shown(params),
           "no noise parameter of this mechanism uses the declared parameter " + d.name + " (write e.g. \"" + entry->second.front() +
               "\": \"" + d.name + "\")");
  out.reference_value = reference_point(d.range);
  out.game.range = d.range;
  out.game.parameter = d.name;
  // the structure and the other parameters by the ordinary strict loader at one point, then the
  // parametric twin up to the same horizon (a spec's horizon overrides the mechanism's default)
  const Game numeric = out.instantiate(out.reference_value);
  out.game = library::make_parametric_library_game(name, io::read_library_arguments(r, params, "/mechanism/params"), d.name, d.range,
                                                   numeric.horizon, "/mechanism/name");
  out.game.name = doc.contains("name") && doc["name"].is_string() ? doc["name"].get<std::string>() : out.game.name;
  out.game.world_names = numeric.world_names;
  return out;
}

}  // namespace

ParametricSpec load_parametric_spec_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the spec file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_parametric_spec(buf.str(), file.string());
}

}  // namespace exactdp
