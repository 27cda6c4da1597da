#include "exactdp/io/claims.hpp"

#include "exactdp/io/json_reader.hpp"

#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

namespace exactdp {
namespace {

using json = nlohmann::json;  // the audit report (output)
using io::Json;               // the claims file (input): io/json_reader.hpp

const char* const claims_format = "exactdp-claims/1";
const std::set<std::string> documentation_keys = {"description", "source", "comment", "accountant"};
const std::set<std::string> claim_keys = {"id", "mechanism", "mechanisms", "times", "neighbouring", "sampling", "delta",
                                          "claimed_epsilon", "epsilon", "claimed_delta", "direction"};

/// An exact number (io::JsonReader::exact: a rational string or an integer; floats refused).
Rational number(const Json& v, const std::string& source, const std::string& field) { return io::JsonReader(source).exact(v, field); }

unsigned long times_of(const Json& v, const std::string& source, const std::string& field) {
  Rational t = number(v, source, field);
  if (t.get_den() != 1 || t < 1 || t > 100000000)
    throw Error(source, field, io::shown(v),
                "times must be an integer between 1 and 100000000");
  return t.get_num().get_ui();
}

std::string text_of(const Json& v, const std::string& source, const std::string& field) {
  if (!v.is_string() || v.get<std::string>().empty())
    throw Error(source, field, v.dump(), "must be a non-empty string");
  return v.get<std::string>();
}

/// "mechanism" and "times" of @p c (a claim or an entry of "mechanisms").
ClaimComponent parse_component(const Json& c, const std::string& source, const std::string& at, std::uint64_t table_budget) {
  if (!c.contains("mechanism")) throw Error(source, at + "/mechanism", "", "missing");
  std::string mechanism = text_of(c["mechanism"], source, at + "/mechanism");
  auto spec = [&] {
    try {
      return parse_mechanism_spec(mechanism, table_budget);
    } catch (const Error& e) {
      throw Error(source, at + "/mechanism", mechanism,
                  e.why() + (e.field().empty() ? "" : " (" + e.field() + (e.value().empty() ? "" : " = " + e.value()) + ")"));
    }
  }();
  unsigned long times = c.contains("times") ? times_of(c["times"], source, at + "/times") : 1;
  return {std::move(mechanism), std::move(spec), times};
}

/// "sampling": "poisson:q=R" (see claims.hpp), checked against the claim's mechanism.
void parse_sampling(Claim& claim, const Json& v, const std::string& source, const std::string& at) {
  const std::string field = at + "/sampling";
  const std::string text = text_of(v, source, field);
  Rational q;
  try {
    q = parse_sampling_rate(text);
  } catch (const Error& e) {
    throw Error(source, field, text, e.why());
  }
  if (claim.heterogeneous)
    throw Error(source, field, text, "sampling applies to a single \"mechanism\" (with \"times\"), not to \"mechanisms\"");
  const ClaimComponent& comp = claim.components.front();
  const bool gauss = comp.spec.family() == MechanismFamily::gaussian;
  // finite tables (exact or certified) are the ones table_size() counts: asked without building them
  if (!gauss && comp.spec.table_size().outcomes == 0)
    throw Error(source, at + "/mechanism", comp.mechanism,
                "Poisson subsampling is supported for finite mechanisms (rr, krr, dlaplace, truncated dgauss) "
                "and for gauss");
  claim.sampling = text;
  claim.sampling_rate = q;
}

Claim parse_claim(const Json& c, const std::string& source, const std::string& at, std::uint64_t table_budget) {
  if (!c.is_object()) throw Error(source, at, c.dump(), "a claim must be a JSON object");
  for (const auto& [k, v] : c.items())
    if (!claim_keys.count(k) && !documentation_keys.count(k))
      throw Error(source, at + "/" + k, "",
                  "unknown field (expected id, mechanism, times, neighbouring, delta and claimed_epsilon, "
                  "or epsilon and claimed_delta)");
  auto required = [&](const char* key) -> const Json& {
    if (!c.contains(key)) throw Error(source, at + "/" + key, "", "missing");
    return c.at(key);
  };
  std::string id = text_of(required("id"), source, at + "/id");
  Claim claim{std::move(id), {}, false, "", Claim::Kind::epsilon_at_delta, Rational(0), Rational(0), "", std::nullopt};
  if (c.contains("mechanisms")) {
    if (c.contains("mechanism") || c.contains("times"))
      throw Error(source, at + "/mechanisms", "", "give either \"mechanism\" (and \"times\") or \"mechanisms\", not both");
    const Json& list = c["mechanisms"];
    if (!list.is_array() || list.empty())
      throw Error(source, at + "/mechanisms", list.dump(), "must be a non-empty array of {\"mechanism\": SPEC, \"times\": k}");
    claim.heterogeneous = true;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string where = at + "/mechanisms/" + std::to_string(i);
      if (!list[i].is_object()) throw Error(source, where, list[i].dump(), "must be an object {\"mechanism\": SPEC, \"times\": k}");
      for (const auto& [k, v] : list[i].items())
        if (k != "mechanism" && k != "times") throw Error(source, where + "/" + k, "", "unknown field (expected mechanism, times)");
      claim.components.push_back(parse_component(list[i], source, where, table_budget));
      const auto& comp = claim.components.back();
      // finite tables (exact or certified), asked of the estimate without building them
      if (comp.spec.table_size().outcomes == 0)
        throw Error(source, where + "/mechanism", comp.mechanism,
                    "dgauss, laplace and gauss have no exact or certified profile in a composition with other mechanisms");
    }
  } else {
    claim.components.push_back(parse_component(c, source, at, table_budget));
    const auto& comp = claim.components.back();
    const bool grid_laplace = comp.spec.family() == MechanismFamily::laplace;  // k-fold: grid bracket
    if (!comp.spec.supports_composition(comp.times) && !grid_laplace)
      throw Error(source, at + "/times", std::to_string(comp.times),
                  "this mechanism has a certified profile for a single use only (" + comp.spec.to_string() + ")");
  }
  if (c.contains("neighbouring")) {
    claim.neighbouring = text_of(c["neighbouring"], source, at + "/neighbouring");
    if (claim.neighbouring != "add-remove" && claim.neighbouring != "replace-one")
      throw Error(source, at + "/neighbouring", claim.neighbouring, "expected \"add-remove\" or \"replace-one\"");
  }
  if (c.contains("sampling")) parse_sampling(claim, c["sampling"], source, at);
  if (c.contains("direction")) {
    const std::string text = text_of(c["direction"], source, at + "/direction");
    try {
      claim.direction = parse_direction(text, source);
    } catch (const Error& e) {
      throw Error(source, at + "/direction", text, e.why());
    }
  }
  const bool by_delta = c.contains("delta") || c.contains("claimed_epsilon");
  const bool by_epsilon = c.contains("epsilon") || c.contains("claimed_delta");
  if (by_delta == by_epsilon)
    throw Error(source, at, claim.id,
                "a claim gives either \"delta\" and \"claimed_epsilon\", or \"epsilon\" and \"claimed_delta\"");
  auto probability = [&](const char* key) {
    Rational p = number(required(key), source, at + "/" + key);
    if (sgn(p) < 0 || p > 1) throw Error(source, at + "/" + key, to_string(p), "must lie in [0, 1]");
    return p;
  };
  auto epsilon = [&](const char* key) {
    Rational e = number(required(key), source, at + "/" + key);
    if (sgn(e) < 0) throw Error(source, at + "/" + key, to_string(e), "epsilon must be non-negative");
    if (e > 100000) throw Error(source, at + "/" + key, to_string(e), "epsilon above 100000 is not supported");
    return e;
  };
  if (by_delta) {
    claim.kind = Claim::Kind::epsilon_at_delta;
    claim.given = probability("delta");
    claim.claimed = epsilon("claimed_epsilon");
  } else {
    claim.kind = Claim::Kind::delta_at_epsilon;
    claim.given = epsilon("epsilon");
    claim.claimed = probability("claimed_delta");
  }
  // the pairs the audit will analyse (replace-one: the library's replace-one pairs), refused here
  // where they are not defined, before any claim is audited
  try {
    analysed_components(claim);
  } catch (const Error& e) {
    throw Error(source, at + e.field(), e.value(), e.why());
  }
  return claim;
}

json value_json(const TrueValue& v, int digits) {
  if (v.infinite) return "inf";
  if (v.exact) return to_string(*v.exact);
  return {{"lo", v.enclosure.lower_string(digits)}, {"hi", v.enclosure.upper_string(digits)}};
}

}  // namespace

std::vector<Claim> parse_claims(std::string_view text, const std::string& source, std::uint64_t table_budget) {
  const Json doc = io::parse_json(text, source, "claims file");
  if (!doc.is_object()) throw Error(source, "", "", "the top level must be a JSON object");
  if (!doc.contains("format")) throw Error(source, "/format", "", std::string("missing (expected \"") + claims_format + "\")");
  if (doc["format"] != claims_format)
    throw Error(source, "/format", io::shown(doc["format"]), std::string("unsupported format (expected \"") + claims_format + "\")");
  for (const auto& [k, v] : doc.items())
    if (k != "format" && k != "claims" && !documentation_keys.count(k))
      throw Error(source, "/" + k, "", "unknown field (expected format, claims, description, source, comment, accountant)");
  if (!doc.contains("claims")) throw Error(source, "/claims", "", "missing");
  const Json& list = doc["claims"];
  if (!list.is_array() || list.empty()) throw Error(source, "/claims", io::shown(list), "must be a non-empty array of claims");
  std::vector<Claim> claims;
  std::set<std::string> ids;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = "/claims/" + std::to_string(i);
    claims.push_back(parse_claim(list[i], source, at, table_budget));
    if (!ids.insert(claims.back().id).second) throw Error(source, at + "/id", claims.back().id, "duplicate claim id");
  }
  return claims;
}

std::vector<Claim> load_claims_file(const std::filesystem::path& file, std::uint64_t table_budget) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(file.string(), "", "", "cannot open the file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_claims(text.str(), file.string(), table_budget);
}

std::string audit_report_json(const std::vector<ClaimResult>& results, int digits) {
  json out{{"format", "exactdp-audit/1"}, {"results", json::array()}};
  std::size_t counts[3] = {0, 0, 0};  // by Verdict: holds (sound), refuted (unsound), undecided
  for (const auto& r : results) {
    const Claim& c = r.claim;
    const bool eps = c.kind == Claim::Kind::epsilon_at_delta;
    json e{{"id", c.id}, {"verdict", audit_word(r.verdict)}};
    if (c.heterogeneous) {
      e["mechanisms"] = json::array();
      for (const auto& comp : c.components) e["mechanisms"].push_back({{"mechanism", comp.mechanism}, {"times", comp.times}});
    } else {
      e["mechanism"] = c.components.front().mechanism;
      e["times"] = c.components.front().times;
    }
    e["neighbouring"] = neighbouring_of(c);  // the relation the verdict is for, also when the claim names none
    if (c.neighbouring == "replace-one") e["analysed"] = r.analysed;
    if (!c.sampling.empty()) e["sampling"] = c.sampling;
    if (c.direction != NeighbourDirection::both) e["direction"] = to_string(c.direction);
    if (r.grid_step) {
      e["grid_step"] = to_string(*r.grid_step);
      e["grid_resolution"] = r.grid_resolution;
    }
    e[eps ? "delta" : "epsilon"] = to_string(c.given);
    e[eps ? "claimed_epsilon" : "claimed_delta"] = to_string(c.claimed);
    e[eps ? "true_epsilon" : "true_delta"] = value_json(r.truth, digits);
    if (r.true_lambda) e["true_lambda"] = to_string(*r.true_lambda);
    e["exact"] = r.exact;
    e["precision"] = r.precision;
    e["method"] = r.method;
    if (r.slack_absolute)
      e["slack"] = {{"absolute", value_json(*r.slack_absolute, digits)},
                    {"relative", r.slack_relative ? value_json(*r.slack_relative, digits) : json(nullptr)}};
    else e["slack"] = nullptr;
    out["results"].push_back(e);
    ++counts[static_cast<int>(r.verdict)];
  }
  out["summary"] = {{"claims", results.size()},
                    {"sound", counts[static_cast<int>(Verdict::holds)]},
                    {"unsound", counts[static_cast<int>(Verdict::refuted)]},
                    {"undecided", counts[static_cast<int>(Verdict::undecided)]}};
  return out.dump(2);
}

}  // namespace exactdp