#include "exactdp/accounting/replace_one.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/divergence/direction.hpp"

namespace exactdp {

NeighbourChoice parse_neighbour_relation(std::string_view text, const std::string& where) {
  if (text == "replace") return {NeighbourDirection::both, true};
  if (text == "both" || text == "remove" || text == "add") return {parse_direction(text, where), false};
  throw Error(where, "direction", std::string(text), "expected both, remove, add or replace");
}

std::string to_string(const NeighbourChoice& relation) {
  return relation.replace_one ? "replace" : to_string(relation.direction);
}

std::string replace_one_subsampling_reason() {
  return "replace-one under Poisson subsampling is refused by design: the replaced record and its replacement share one "
         "sampling coin, the pair is ((1-q)R + qP, (1-q)R + qQ) with R the law without the record, and its worst case "
         "depends on where R lies between P and Q, so no one pair is the mechanism's (amplification/poisson.hpp; "
         "Lebeda, Regehr, Kamath & Steinke 2024)";
}

MechanismSpec replace_one(const MechanismSpec& spec) {
  switch (spec.family()) {
    case MechanismFamily::randomized_response:
    case MechanismFamily::k_ary_randomized_response: return spec;  // already the pair of two values of one record
    default: break;
  }
  // additive noise: the replaced record moves the query by up to 2S; the noise is translation invariant
  const Rational doubled = 2 * *spec.parameter("sensitivity");
  std::string text = to_string(spec.family()) + ":";
  for (const auto& p : spec.parameters()) {
    if (p.key == "sensitivity") continue;
    // dlaplace:epsilon=E means r = e^(-E) at sensitivity 1 only: the same r at sensitivity 2 is a = E
    const std::string key = p.key == "epsilon" ? "a" : p.key;
    text += key + "=" + to_string(p.value) + ",";
  }
  text += "sensitivity=" + to_string(doubled);
  try {
    return parse_mechanism_spec(text);
  } catch (const Error& e) {
    throw Error("", "sensitivity", to_string(doubled),
                "the replace-one pair of " + spec.to_string() + " has twice its sensitivity, which is refused: " + e.why());
  }
}

CompositionComponent replace_one(const CompositionComponent& c, const std::optional<Rational>& rate, const std::string& where) {
  auto refuse = [&](const std::string& why) -> CompositionComponent {
    throw Error(where, "direction", "replace", c.source + ": " + why);
  };
  if (rate && sgn(*rate) == 0) {  // never sampled: identical laws under every neighbouring relation
    CompositionComponent out = c;
    out.source += " Poisson-subsampled at q = 0 (never sampled: identical laws)";
    out.spec.reset();
    out.mixture.clear();
    out.sampling_rate.reset();
    out.pair = PrivacyLoss::identity();
    return out;
  }
  if ((rate && *rate != 1) || (c.sampling_rate && *c.sampling_rate != 1)) return refuse(replace_one_subsampling_reason());
  if (!c.mixture.empty())
    return refuse("replace-one of a Gaussian mixture of sensitivities is not defined here: the mixture says where one "
                  "record's contribution lies under add/remove, and replacing the record is not that mixture doubled");
  if (c.pair || !c.spec)
    return refuse("a pair of distributions is one neighbouring pair, not a mechanism: its replace-one pair is not "
                  "determined by it (give the replace-one pair itself, with direction both)");
  CompositionComponent out = c;
  try {
    out.spec = replace_one(*c.spec);
  } catch (const Error& e) {
    throw e.in(where);
  }
  out.sampling_rate.reset();
  out.source = c.source + " (replace-one: " + out.spec->to_string() + ")";
  return out;
}

}  // namespace exactdp
