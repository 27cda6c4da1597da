#include "pair_file.hpp"

#include "exactdp/core/error.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

Rational mass_of(const json& v, const std::string& path, const std::string& field) {
  if (v.is_string()) {
    try {
      return parse_rational(v.get<std::string>(), field);
    } catch (const Error& e) {
      throw e.in(path);
    }
  }
  if (v.is_number_integer()) return Rational(v.get<long>());
  if (v.is_number())
    throw Error(path, field, v.dump(),
                "write non-integer masses as strings such as \"1/3\" or \"0.1\" (JSON numbers are binary floating point)");
  throw Error(path, field, v.dump(), "a mass must be a string such as \"1/3\" or an integer");
}

std::map<std::string, Rational> side(const json& doc, const char* name, const std::string& path) {
  if (!doc.contains(name)) throw Error(path, name, "", "missing: the pair needs objects \"P\" and \"Q\"");
  const json& s = doc.at(name);
  if (!s.is_object() || s.empty())
    throw Error(path, name, s.dump(), "must be a non-empty object mapping outcome names to masses");
  std::map<std::string, Rational> out;
  for (const auto& [k, v] : s.items()) out[k] = mass_of(v, path, std::string(name) + "/" + k);
  return out;
}

}  // namespace

PrivacyLoss read_pair_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(path, "", "", "cannot open the file");
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw Error(path, "", "", std::string("malformed JSON: ") + e.what());
  }
  if (!doc.is_object()) throw Error(path, "", "", "the top level must be a JSON object");
  if (doc.contains("format") && doc["format"] != "exactdp-pair/1")
    throw Error(path, "format", doc["format"].dump(), "unsupported format (expected \"exactdp-pair/1\")");
  for (const auto& [k, v] : doc.items())
    if (k != "format" && k != "P" && k != "Q" && k != "description")
      throw Error(path, k, "", "unknown field (expected format, description, P, Q)");
  auto P = side(doc, "P", path), Q = side(doc, "Q", path);
  std::set<std::string> outcomes;
  for (const auto& kv : P) outcomes.insert(kv.first);
  for (const auto& kv : Q) outcomes.insert(kv.first);
  std::vector<std::pair<Rational, Rational>> masses;
  for (const auto& y : outcomes) masses.emplace_back(P.count(y) ? P[y] : Rational(0), Q.count(y) ? Q[y] : Rational(0));
  try {
    return PrivacyLoss::from_masses(masses, path);
  } catch (const Error& e) {
    // re-express the column index as the outcome name when a mass is negative
    if (e.field().starts_with("P[") || e.field().starts_with("Q[")) {
      auto i = std::stoul(e.field().substr(2));
      auto it = outcomes.begin();
      std::advance(it, static_cast<long>(i));
      throw Error(path, e.field().substr(0, 1) + "/" + *it, e.value(), e.why());
    }
    throw;
  }
}

}  // namespace exactdp::cli
