#include "exactdp/io/pair_file.hpp"

#include "exactdp/io/json_reader.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace exactdp {
namespace {

std::map<std::string, Rational> side(const io::JsonReader& r, const io::Json& doc, const char* name) {
  const std::string pointer = std::string("/") + name;
  const io::Json& s = r.object(r.member(doc, "", name), pointer);
  if (s.empty()) r.fail(pointer, "{}", "must be a non-empty object mapping outcome names to masses");
  std::map<std::string, Rational> out;
  for (const auto& item : s.items()) {
    const std::string p = pointer + "/" + io::pointer_segment(item.key());
    Rational m = r.exact(item.value(), p);
    if (sgn(m) < 0) r.fail(p, io::shown(item.value()), "masses must be non-negative");
    out[item.key()] = m;
  }
  return out;
}

}  // namespace

PrivacyLoss parse_pair(std::string_view text, const std::string& source) {
  const io::Json doc = io::parse_json(text, source, "pair file");
  const io::JsonReader r(source);
  r.object(doc, "");
  if (doc.contains("format") && doc["format"] != "exactdp-pair/1")
    r.fail("/format", io::shown(doc["format"]), "unsupported format (expected \"exactdp-pair/1\")");
  r.only_keys(doc, "", {"format", "P", "Q"});
  auto P = side(r, doc, "P"), Q = side(r, doc, "Q");
  std::set<std::string> outcomes;
  for (const auto& kv : P) outcomes.insert(kv.first);
  for (const auto& kv : Q) outcomes.insert(kv.first);
  std::vector<std::pair<Rational, Rational>> masses;
  for (const auto& y : outcomes) masses.emplace_back(P.count(y) ? P[y] : Rational(0), Q.count(y) ? Q[y] : Rational(0));
  try {
    return PrivacyLoss::from_masses(masses, source);
  } catch (const Error& e) {
    // re-express a column index as the outcome's pointer
    if (e.field().starts_with("P[") || e.field().starts_with("Q[")) {
      auto i = std::stoul(e.field().substr(2));
      auto it = outcomes.begin();
      std::advance(it, static_cast<long>(i));
      throw Error(source, "/" + e.field().substr(0, 1) + "/" + io::pointer_segment(*it), e.value(), e.why());
    }
    throw;
  }
}

PrivacyLoss load_pair_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the file");
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse_pair(buf.str(), file.string());
}

}  // namespace exactdp
