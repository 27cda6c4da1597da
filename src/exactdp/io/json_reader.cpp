#include "exactdp/io/json_reader.hpp"

#include "exactdp/core/limits.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace exactdp::io {
namespace {

/// A SAX pass that only watches the structure: it tracks the JSON Pointer of the value being read
/// and stops at the first object that repeats a key. nlohmann's DOM parser keeps the last value of
/// a repeated key without a word, so this pass runs before it.
class RepeatedKeyFinder : public nlohmann::json_sax<Json> {
public:
  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    frames_.push_back(Frame{true, {}, {}, 0});
    return true;
  }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) {
      repeated_ = true;
      pointer_ = pointer();
      key_ = k;
      return false;
    }
    return true;
  }
  bool end_object() override {
    frames_.pop_back();
    return value();
  }
  bool start_array(std::size_t) override {
    frames_.push_back(Frame{false, {}, {}, 0});
    return true;
  }
  bool end_array() override {
    frames_.pop_back();
    return value();
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error_ = e.what();
    return false;
  }

  bool repeated_ = false;
  std::string pointer_, key_, error_;

private:
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
    std::size_t index;
  };
  /// A value (scalar or container) is complete: the next one of an array has the next index.
  bool value() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    return true;
  }
  std::string pointer() const {
    std::string p;
    for (const auto& f : frames_) p += "/" + (f.object ? pointer_segment(f.key) : std::to_string(f.index));
    return p;
  }
  std::vector<Frame> frames_;
};

/// Levenshtein distance with adjacent transpositions (optimal string alignment).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::string pointer_segment(std::string_view key) {
  std::string s;
  for (char c : key) {
    if (c == '~') s += "~0";
    else if (c == '/') s += "~1";
    else s += c;
  }
  return s;
}

std::string shown(const Json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

Json parse_json(std::string_view text, const std::string& source, std::string_view what) {
  if (text.size() > limits::max_input_bytes)
    throw Error(source, "", std::to_string(text.size()) + " bytes",
                "the " + std::string(what) + " is larger than the limit of " + std::to_string(limits::max_input_bytes) + " bytes (limits.hpp)");
  RepeatedKeyFinder finder;
  bool ok = false;
  try {
    ok = Json::sax_parse(text.begin(), text.end(), &finder);
  } catch (const nlohmann::json::exception& e) {  // out_of_range for numbers beyond any type
    throw Error(source, "", "", std::string("not valid JSON: ") + e.what());
  }
  if (finder.repeated_)
    throw Error(source, finder.pointer_, finder.key_,
                "this key is repeated in its object (a JSON object must not repeat a key: one of the values would be "
                "silently dropped)");
  if (!ok) throw Error(source, "", "", "not valid JSON: " + finder.error_);
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    throw Error(source, "", "", std::string("not valid JSON: ") + e.what());
  }
}

Json read_json_file(const std::filesystem::path& file, std::string_view what) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the " + std::string(what));
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_json(buf.str(), file.string(), what);
}

// ------------------------------------------------------------------------------ JsonReader

void JsonReader::fail(const std::string& pointer, const std::string& value, const std::string& why) const {
  throw Error(source_, pointer.empty() ? "/" : pointer, value, why);
}

const Json& JsonReader::member(const Json& obj, const std::string& pointer, std::string_view key) const {
  object(obj, pointer);
  auto it = obj.find(std::string(key));
  if (it == obj.end()) fail(pointer, "", "missing required key \"" + std::string(key) + "\"");
  return *it;
}

const Json& JsonReader::object(const Json& v, const std::string& pointer) const {
  if (!v.is_object()) fail(pointer, shown(v), "expected a JSON object");
  return v;
}

const Json& JsonReader::array(const Json& v, const std::string& pointer) const {
  if (!v.is_array()) fail(pointer, shown(v), "expected a JSON array");
  return v;
}

std::string JsonReader::string(const Json& v, const std::string& pointer, bool non_empty) const {
  if (!v.is_string()) fail(pointer, shown(v), non_empty ? "expected a non-empty string" : "expected a string");
  if (non_empty && v.get_ref<const std::string&>().empty()) fail(pointer, "", "expected a non-empty string");
  return v.get<std::string>();
}

std::uint64_t JsonReader::natural(const Json& v, const std::string& pointer) const {
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<std::int64_t>() < 0)) fail(pointer, shown(v), "expected a non-negative integer");
  return v.get<std::uint64_t>();
}

std::int64_t JsonReader::integer(const Json& v, const std::string& pointer, std::int64_t lo, std::int64_t hi) const {
  bool in_range = false;
  if (v.is_number_unsigned()) {  // nlohmann reads every non-negative integer as unsigned
    const std::uint64_t u = v.get<std::uint64_t>();
    in_range = hi >= 0 && u <= static_cast<std::uint64_t>(hi) && static_cast<std::int64_t>(u) >= lo;
  } else if (v.is_number_integer()) {
    const std::int64_t i = v.get<std::int64_t>();
    in_range = i >= lo && i <= hi;
  }
  if (!in_range) fail(pointer, shown(v), "expected an integer between " + std::to_string(lo) + " and " + std::to_string(hi));
  return v.get<std::int64_t>();
}

bool JsonReader::boolean(const Json& v, const std::string& pointer) const {
  if (!v.is_boolean()) fail(pointer, shown(v), "expected true or false");
  return v.get<bool>();
}

Rational JsonReader::exact(const Json& v, const std::string& pointer) const {
  if (v.is_number_integer()) {
    if (v.is_number_unsigned()) return Rational(mpz_class(std::to_string(v.get<std::uint64_t>())));
    return Rational(mpz_class(std::to_string(v.get<std::int64_t>())));
  }
  if (v.is_number())
    fail(pointer, shown(v),
         "write numbers that are not integers as exact strings such as \"1/3\", \"0.25\" or \"1e-5\" (a JSON number "
         "with a fraction or an exponent is binary floating point, not the number written)");
  if (!v.is_string()) fail(pointer, shown(v), "expected an exact number: a string such as \"1/3\" or \"0.25\", or an integer");
  const std::string& text = v.get_ref<const std::string&>();
  if (text.size() > 2 * limits::max_rational_bits) fail(pointer, shown(v), "the number is written with too many characters");
  Rational q;
  try {
    q = parse_rational(text, "value");
  } catch (const Error& e) {
    fail(pointer, text, e.why());
  }
  if (!limits::rational_size_ok(q))
    fail(pointer, shown(v), "numerator or denominator longer than " + std::to_string(limits::max_rational_bits) + " bits (limits.hpp)");
  return q;
}

Rational JsonReader::probability(const Json& v, const std::string& pointer) const {
  Rational q = exact(v, pointer);
  if (sgn(q) < 0) fail(pointer, shown(v), "probabilities must be non-negative");
  return q;
}

void JsonReader::only_keys(const Json& obj, const std::string& pointer, std::initializer_list<std::string_view> allowed,
                           std::initializer_list<std::string_view> extra_documentation) const {
  object(obj, pointer);
  for (const auto& item : obj.items()) {
    const std::string& k = item.key();  // not a structured binding: clang 14 cannot capture one
    auto is = [&](std::string_view a) { return k == a; };
    if (k == "description" || k == "source" || k == "comment") continue;
    if (std::any_of(extra_documentation.begin(), extra_documentation.end(), is)) continue;
    if (std::none_of(allowed.begin(), allowed.end(), is)) {
      std::string expected;
      for (auto a : allowed) expected += (expected.empty() ? "" : ", ") + std::string(a);
      fail(pointer + "/" + pointer_segment(k), k, "unknown key (expected " + expected + ")");
    }
  }
}

// ------------------------------------------------------------------------------ neighbours

namespace {

NeighbourRelation::Pair read_pair(const JsonReader& r, const Json& v, const std::string& pointer) {
  const Json& pair = r.array(v, pointer);
  if (pair.size() != 2) r.fail(pointer, shown(pair), "a pair lists exactly two messages [m0, m1]");
  NeighbourRelation::Pair p{r.string(pair[0], pointer + "/0"), r.string(pair[1], pointer + "/1")};
  if (p.first == "*" || p.second == "*") r.fail(pointer, shown(pair), "\"*\" is the wildcard rule key, not a message");
  return p;
}

}  // namespace

NeighbourRelation read_neighbour_relation(const JsonReader& r, const Json& v, const std::string& path, bool allow_static) {
  r.object(v, path);
  const std::string type = r.string(r.member(v, path, "type"), path + "/type");
  NeighbourRelation n;
  if (type == "static" && allow_static) {
    r.only_keys(v, path, {"type", "worlds"});
    const Json& w = r.array(r.member(v, path, "worlds"), path + "/worlds");
    if (w.size() != 2) r.fail(path + "/worlds", shown(w), "static neighbours name exactly two worlds");
    n = NeighbourRelation::static_worlds(r.string(w[0], path + "/worlds/0"), r.string(w[1], path + "/worlds/1"));
    if (n.worlds[0] == n.worlds[1]) r.fail(path + "/worlds/1", n.worlds[1], "the two worlds must differ");
  } else if (type == "pairs") {
    r.only_keys(v, path, {"type", "allowed", "max_differing"});
    const Json& a = r.array(r.member(v, path, "allowed"), path + "/allowed");
    if (a.empty()) r.fail(path + "/allowed", "[]", "at least one pair must be allowed");
    std::set<NeighbourRelation::Pair> seen;
    std::vector<NeighbourRelation::Pair> allowed;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string pp = path + "/allowed/" + std::to_string(i);
      auto p = read_pair(r, a[i], pp);
      if (!seen.insert(p).second) r.fail(pp, shown(a[i]), "pair listed twice");
      allowed.push_back(std::move(p));
    }
    std::optional<unsigned> k;
    if (auto it = v.find("max_differing"); it != v.end())
      k = static_cast<unsigned>(r.integer(*it, path + "/max_differing", 0, 1'000'000));
    n = NeighbourRelation::pairs(std::move(allowed), k);
  } else if (type == "automaton") {
    r.only_keys(v, path, {"type", "initial", "states"});
    const Json& states = r.object(r.member(v, path, "states"), path + "/states");
    if (states.empty()) r.fail(path + "/states", "{}", "an automaton needs at least one state");
    std::vector<std::string> names;
    for (const auto& item : states.items()) names.push_back(item.key());
    auto known = [&](const std::string& s) { return std::find(names.begin(), names.end(), s) != names.end(); };
    const std::string initial = r.string(r.member(v, path, "initial"), path + "/initial");
    if (!known(initial))
      r.fail(path + "/initial", initial, "unknown automaton state (not a key of " + path + "/states)" + did_you_mean(nearest_names(initial, names)));
    std::vector<std::pair<std::string, std::vector<NeighbourRelation::Edge>>> out;
    for (const auto& item : states.items()) {
      const std::string sp = path + "/states/" + pointer_segment(item.key());
      const Json& list = r.array(item.value(), sp);
      std::vector<NeighbourRelation::Edge> edges;
      std::set<NeighbourRelation::Pair> seen;
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string ep = sp + "/" + std::to_string(i);
        const Json& e = r.object(list[i], ep);
        r.only_keys(e, ep, {"pair", "next"});
        NeighbourRelation::Edge edge{read_pair(r, r.member(e, ep, "pair"), ep + "/pair"), r.string(r.member(e, ep, "next"), ep + "/next")};
        if (!known(edge.next))
          r.fail(ep + "/next", edge.next, "unknown automaton state (not a key of " + path + "/states)" + did_you_mean(nearest_names(edge.next, names)));
        if (!seen.insert(edge.pair).second) r.fail(ep + "/pair", shown(e["pair"]), "pair listed twice in this state");
        edges.push_back(std::move(edge));
      }
      out.emplace_back(item.key(), std::move(edges));
    }
    n = NeighbourRelation::with_automaton(initial, std::move(out));
  } else {
    r.fail(path + "/type", type,
           allow_static ? "unknown neighbours type (expected \"static\", \"pairs\" or \"automaton\")"
                        : "expected \"pairs\" or \"automaton\"");
  }
  n.pointer = path;
  try {
    n.validate(r.source());
  } catch (const Error& e) {  // every case is caught above; this keeps a later check anchored
    r.fail(path, e.value(), e.why());
  }
  return n;
}

// ------------------------------------------------------------------------------ library parameters

library::LibraryArguments read_library_arguments(const JsonReader& r, const Json& params, const std::string& pointer) {
  r.object(params, pointer);
  auto scalar = [&](const Json& v, const std::string& path) -> std::string {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_number_integer()) return v.dump();
    if (v.is_number())
      r.fail(path, shown(v), "write numbers that are not integers as exact strings such as \"1/3\" or \"0.25\" (a JSON number "
                             "with a fraction is binary floating point)");
    r.fail(path, shown(v), "expected a string or an integer");
  };
  std::map<std::string, library::LibraryArgument> args;
  for (const auto& item : params.items()) {
    const std::string kp = pointer + "/" + pointer_segment(item.key());
    const Json& v = item.value();
    library::LibraryArgument a;
    if (v.is_array()) {
      a.is_list = true;
      a.text = shown(v);
      for (std::size_t i = 0; i < v.size(); ++i) a.items.push_back(scalar(v[i], kp + "/" + std::to_string(i)));
    } else {
      a.text = scalar(v, kp);
    }
    args.emplace(item.key(), std::move(a));
  }
  return library::LibraryArguments(r.source(), pointer, std::move(args));
}

// ------------------------------------------------------------------------------ suggestions

std::vector<std::string> nearest_names(const std::string& name, const std::vector<std::string>& candidates, std::size_t limit) {
  const std::size_t bound = std::max<std::size_t>(1, name.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // (distance, index)
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (candidates[i] == name) continue;
    // case-insensitive equality is the likeliest typo of all: distance 0 then
    std::string a = name, b = candidates[i];
    std::transform(a.begin(), a.end(), a.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::transform(b.begin(), b.end(), b.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::size_t d = a == b ? 0 : edit_distance(name, candidates[i]);
    if (d <= bound) scored.emplace_back(d, i);
  }
  std::stable_sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (const auto& [d, i] : scored) {
    if (out.size() >= limit) break;
    out.push_back(candidates[i]);
  }
  return out;
}

std::string did_you_mean(const std::vector<std::string>& suggestions) {
  if (suggestions.empty()) return "";
  std::string s = " (did you mean ";
  for (std::size_t i = 0; i < suggestions.size(); ++i) {
    if (i) s += i + 1 == suggestions.size() ? " or " : ", ";
    s += "`" + suggestions[i] + "`";
  }
  return s + "?)";
}

}  // namespace exactdp::io
