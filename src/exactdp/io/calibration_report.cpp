#include "exactdp/io/calibration_report.hpp"

#include "exactdp/accounting/mechanism_spec.hpp"

#include <nlohmann/json.hpp>

namespace exactdp {
namespace {

using json = nlohmann::json;

json value_json(const TrueValue& v, int digits) {
  if (v.infinite) return "inf";
  if (v.exact) return to_string(*v.exact);
  json out{{"lo", v.enclosure.lower_string(digits)}};
  out["hi"] = v.enclosure.upper_is_finite() ? json(v.enclosure.upper_string(digits)) : json("inf");
  return out;
}

std::string word(Verdict v) {
  return v == Verdict::holds ? "meets" : v == Verdict::refuted ? "fails" : "undecided";
}

json level_json(const CalibrationLevel& l, CalibrationWitness witness, int digits) {
  const ClaimResult& e = l.evidence;
  json out{{"value", to_string(l.value)}, {"mechanism", l.mechanism}, {"verdict", word(l.verdict)}};
  out[witness == CalibrationWitness::epsilon ? "true_epsilon" : "true_delta"] = value_json(e.truth, digits);
  if (e.true_lambda) out["true_lambda"] = to_string(*e.true_lambda);
  out["exact"] = e.exact;
  out["method"] = e.method;
  out["precision"] = e.precision;
  out["refinements"] = l.refinements;
  out["grid_point_budget"] = l.grid_point_budget;
  out["precision_cap"] = l.precision_cap;
  if (e.grid_step) {
    out["grid_step"] = to_string(*e.grid_step);
    out["grid_resolution"] = e.grid_resolution;
  }
  if (!l.refinement_stop.empty()) out["refinement_stop"] = l.refinement_stop;
  return out;
}

/// The truth probability of k-ary RR at λ: λ/(λ + k − 1) (rr: k = 2), when δ = 0.
std::optional<Rational> truth_probability(const CalibrationLevel& l) {
  const MechanismSpec s = parse_mechanism_spec(l.mechanism);
  if (s.family() == MechanismFamily::randomized_response && s.parameter("delta") == Rational(0))
    return l.value / (l.value + 1);
  if (s.family() == MechanismFamily::k_ary_randomized_response) return l.value / (l.value + *s.parameter("k") - 1);
  return std::nullopt;
}

}  // namespace

std::string calibration_report_json(const CalibrationResult& r, int digits) {
  json out{{"format", "exactdp-calibration/1"},
           {"status", to_string(r.status)},
           {"family", r.family_template},
           {"parameter", r.family.parameter},
           {"noisier", r.family.noisier_is_larger ? "larger" : "smaller"}};
  json target{{"epsilon", to_string(r.target.epsilon)}, {"delta", to_string(r.target.delta)}, {"times", r.target.times}};
  if (r.target.sampling_rate) target["sampling_rate"] = to_string(*r.target.sampling_rate);
  target["neighbouring"] = r.target.replace_one ? "replace-one" : "add-remove";
  out["target"] = target;
  out["witness"] = r.witness == CalibrationWitness::epsilon ? "epsilon" : "delta";
  out["relative_width"] = to_string(r.relative_width);
  if (r.meets && r.fails) {
    out["bracket"] = {{"lo", to_string(r.lo())}, {"hi", to_string(r.hi())}, {"width", to_string(r.width())}};
    out["bracket_decimal"] = {{"lo", Interval(r.lo()).lower_string(digits)}, {"hi", Interval(r.hi()).upper_string(digits)}};
    const auto p_meets = truth_probability(*r.meets), p_fails = truth_probability(*r.fails);
    if (p_meets && p_fails) out["probability"] = {{"meets", to_string(*p_meets)}, {"fails", to_string(*p_fails)}};
  }
  out["meets"] = r.meets ? level_json(*r.meets, r.witness, digits) : json(nullptr);
  out["fails"] = r.fails ? level_json(*r.fails, r.witness, digits) : json(nullptr);
  out["probes"] = json::array();
  for (const auto& l : r.probes) out["probes"].push_back(level_json(l, r.witness, digits));
  out["undecided_levels"] = json::array();
  for (const auto& l : r.undecided_levels) out["undecided_levels"].push_back(level_json(l, r.witness, digits));
  out["levels_judged"] = r.levels_judged;
  out["refinements"] = r.refinements;
  out["stop_reason"] = r.stop_reason;
  out["monotonicity"] = r.family.monotonicity;
  return out.dump(2);
}

int calibration_exit_code(const CalibrationResult& r) {
  return r.status == CalibrationStatus::bracketed ? exit_code::holds : exit_code::undecided;
}

}  // namespace exactdp
