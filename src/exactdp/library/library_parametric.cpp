// The library mechanisms that take a parameter, by name (spec files with "parameters" and a
// "type": "library" mechanism; docs/parametric.md).
#include "exactdp/library/library_parametric.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/library/parametric_detail.hpp"

#include <algorithm>

namespace exactdp::library {

namespace {

using parametric::RationalFunction;

/// A noise parameter: a number or an expression in the declared parameter.
RationalFunction noise_parameter(const LibraryArguments& a, const std::string& key, const std::string& parameter) {
  const std::string& text = a.scalar_text(key);
  try {
    return parametric::parse_rational_function(text, parameter, key);
  } catch (const Error& e) {
    a.fail(key, text, e.why());
  }
}

}  // namespace

void check_noise_parameter_for_all(const std::string& field, const parametric::RationalFunction& f, const parametric::ParameterRange& range,
                                   const std::string& parameter) {
  if (field == "lambda") return detail::check_lambda_for_all("library", field.c_str(), f, range, parameter);
  detail::check_noise_for_all("library", field.c_str(), f, range, parameter);
}

const std::vector<std::pair<std::string, std::vector<std::string>>>& parametric_library_entries() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> entries{
      {"above-threshold", {"r_threshold", "r_query"}},
      {"svt-counter", {"r_threshold", "r_query"}},
      {"tree-counter", {"r"}},
      {"noisy-increments", {"r"}},
      {"d-counter", {"r"}},
      {"ldp-threshold-protocol", {"lambda"}},
      {"core-decomposition", {"r_threshold", "r_query"}}};
  return entries;
}

parametric::ParametricGame make_parametric_library_game(const std::string& name, const LibraryArguments& args, const std::string& parameter,
                                                        const parametric::ParameterRange& range, unsigned horizon,
                                                        const std::string& name_field) {
  const auto& entries = parametric_library_entries();
  if (std::none_of(entries.begin(), entries.end(), [&](const auto& e) { return e.first == name; })) {
    std::string known;
    for (const auto& e : entries) known += (known.empty() ? "" : ", ") + e.first;
    throw Error(args.where(), name_field, name,
                "this library mechanism does not take a parameter (this version; mechanisms that do: " + known + ")");
  }
  try {
    if (name == "svt-counter" || name == "above-threshold") {
      ParametricSvtParams p;
      p.r_threshold = noise_parameter(args, "r_threshold", parameter);
      p.r_query = noise_parameter(args, "r_query", parameter);
      p.queries = static_cast<unsigned>(args.integer("queries", 3, 1, 1000));
      p.cutoff = static_cast<unsigned>(args.integer("cutoff", 1, 1, 1000));
      if (name == "above-threshold") {
        const long lo = args.integer("min_margin", -1, -1000, 1000), hi = args.integer("max_margin", 1, -1000, 1000);
        args.finish("r_threshold, r_query, queries = 3, cutoff = 1, min_margin = -1, max_margin = 1");
        return above_threshold_for_all(p, lo, hi, range, parameter, horizon);
      }
      const auto thresholds = args.integers("thresholds", -1000, 1000);
      args.finish("r_threshold, r_query, thresholds, queries = 3, cutoff = 1");
      return svt_counter_for_all(p, thresholds, range, parameter, horizon);
    }
    if (name == "d-counter") {
      if (!args.has("d")) args.fail("d", "", "missing required parameter \"d\"");
      if (!args.has("height")) args.fail("height", "", "missing required parameter \"height\"");
      const auto d = static_cast<unsigned>(args.integer("d", 1, 1, 3)), height = static_cast<unsigned>(args.integer("height", 0, 0, 3));
      const RationalFunction r = noise_parameter(args, "r", parameter);
      const long max_input = args.integer("max_input", 1, 1, 8), clamp = args.integer("clamp", 0, 0, 4);
      args.finish("d, height, r, max_input = 1, clamp = 0");
      return d_counter_for_all(d, height, r, max_input, clamp, range, parameter, horizon);
    }
    if (name == "ldp-threshold-protocol") {
      const auto users = static_cast<unsigned>(args.integer("users", 3, 1, 3));
      const RationalFunction lambda = noise_parameter(args, "lambda", parameter);
      const auto k = static_cast<unsigned>(args.integer("k", std::min(2L, static_cast<long>(users)), 1, 3));
      args.finish("users = 3, lambda, k = min(2, users)");
      return ldp_threshold_protocol_for_all(users, lambda, k, range, parameter, horizon);
    }
    if (name == "core-decomposition") {
      const auto vertices = static_cast<unsigned>(args.integer("vertices", 3, 2, 4));
      const auto rounds = static_cast<unsigned>(args.integer("rounds", 2, 1, 3));
      // the numeric protocol's defaults (CoreDecompositionParams) where a noise parameter is not given
      const RationalFunction rt = args.has("r_threshold") ? noise_parameter(args, "r_threshold", parameter) : RationalFunction(Rational(1, 4));
      const RationalFunction rq = args.has("r_query") ? noise_parameter(args, "r_query", parameter) : RationalFunction(Rational(1, 2));
      args.finish("vertices = 3, rounds = 2, r_threshold = 1/4, r_query = 1/2");
      return core_decomposition_for_all(vertices, rounds, rt, rq, range, parameter, horizon);
    }
    if (name == "noisy-increments") {
      if (!args.has("steps")) args.fail("steps", "", "missing required parameter \"steps\"");
      const auto steps = static_cast<unsigned>(args.integer("steps", 1, 1, 64));
      const RationalFunction r = noise_parameter(args, "r", parameter);
      const long max_input = args.integer("max_input", 1, 1, 16), clamp = args.integer("clamp", 0, 0, 64);
      args.finish("steps, r, max_input = 1, clamp = 0");
      return noisy_increments_counter_for_all(steps, r, max_input, clamp, range, parameter, horizon);
    }
    // tree-counter
    if (!args.has("height")) args.fail("height", "", "missing required parameter \"height\"");
    const auto height = static_cast<unsigned>(args.integer("height", 0, 0, 6));
    const RationalFunction r = noise_parameter(args, "r", parameter);
    const long max_input = args.integer("max_input", 1, 1, 16), clamp = args.integer("clamp", 0, 0, 64);
    args.finish("height, r, max_input = 1, clamp = 0");
    return binary_tree_counter_for_all(height, r, max_input, clamp, range, parameter, horizon);
  } catch (const Error& e) {
    if (e.where() == args.where()) throw;  // already anchored in the source
    // a builder's refusal names its parameter (or "range") as the field
    const std::string field = e.field() == "range" ? "/parameters/" + parameter : args.path() + (e.field().empty() ? "" : "/" + e.field());
    throw Error(args.where(), field, e.value(), e.why());
  }
}

}  // namespace exactdp::library
