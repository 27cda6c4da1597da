// exactdp._core: bindings for claims and noise for every value of a parameter (docs/parametric.md).
// The public Python side is exactdp.parametric (exactdp.symbol) and the parametric branches of
// exactdp.check / exactdp.profile / exactdp.noise. Expressions cross as text in the grammar of
// parametric/rational_function.hpp, reports as the JSON of io/parametric_report.hpp; every
// decision is the library's.
#include "exactdp/core/error.hpp"
#include "exactdp/io/parametric_report.hpp"
#include "exactdp/io/parametric_spec.hpp"
#include "exactdp/library/library_parametric.hpp"
#include "exactdp/noise/dlap_closed_form.hpp"
#include "exactdp/parametric/parametric_field.hpp"
#include "exactdp/parametric/rational_function.hpp"
#include "exactdp/parametric/real_roots.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

namespace nb = nanobind;
using namespace exactdp;
using parametric::ParameterRange;
using parametric::RationalFunction;

namespace {

/// A parameter as Python's exactdp.parametric passes it: (name, lower, upper, lower_open, upper_open).
struct Parameter {
  std::string name;
  ParameterRange range;
};

Parameter parameter(const std::tuple<std::string, std::string, std::string, bool, bool>& p) {
  const auto& [name, lo, hi, lo_open, hi_open] = p;
  return {name, ParameterRange{parse_rational(lo, "interval"), parse_rational(hi, "interval"), lo_open, hi_open}};
}

using ParameterTuple = std::tuple<std::string, std::string, std::string, bool, bool>;

RationalFunction function(const std::string& text, const Parameter& p, const std::string& field) {
  return parametric::parse_rational_function(text, p.name, field);
}

/// A DLap noise parameter: a function in (0, 1) for every value of the range (errors name @p where and @p field).
RationalFunction noise_parameter(const std::string& where, const std::string& text, const Parameter& p, const std::string& field) {
  const RationalFunction f = function(text, p, field);
  try {
    library::check_noise_parameter_for_all(field, f, p.range, p.name);
  } catch (const Error& e) {
    throw Error(where, e.field() == "range" ? p.name : field, e.value(), e.why());
  }
  return f;
}

nb::object fraction(const Rational& q) {
  nb::object to_int = nb::module_::import_("builtins").attr("int");
  auto hex = [&](const mpz_class& z) { return to_int(nb::str(z.get_str(16).c_str()), 16); };
  return nb::module_::import_("fractions").attr("Fraction")(hex(q.get_num()), hex(q.get_den()));
}

Rational exact(nb::handle h, const char* field) {
  if (PyFloat_Check(h.ptr()) || PyBool_Check(h.ptr()))
    throw nb::type_error((std::string(field) + ": pass a Fraction, an int or an exact string, not a float or a bool").c_str());
  return parse_rational(nb::str(h).c_str(), field);
}

ParametricSpec read_spec(const std::string& spec, bool is_text, const std::string& source) {
  return is_text ? parse_parametric_spec(spec, source) : load_parametric_spec_file(spec);
}

/// The parametric latent threshold with the parameter it is written in (for the names of its functions).
struct LatentFor {
  parametric::ParametricLatentThreshold threshold;
  Parameter parameter;
};

std::string show(const LatentFor& t) {
  // the canonical form prints each function in the parameter's name (ParametricField::show writes r)
  return t.threshold.to_string() + (t.parameter.name == "r" ? "" : " [in " + t.parameter.name + "]");
}

}  // namespace

void bind_parametric(nb::module_& m) {
  m.def(
      "_rf_canonical",
      [](const std::string& text, const std::string& name, const std::string& field) {
        return parametric::parse_rational_function(text, name, field).to_string(name);
      },
      nb::arg("text"), nb::arg("parameter"), nb::arg("field"));
  m.def(
      "_rf_evaluate",
      [](const std::string& text, const std::string& name, nb::handle value) {
        return fraction(parametric::parse_rational_function(text, name, "expression").evaluate(exact(value, "value")));
      },
      nb::arg("text"), nb::arg("parameter"), nb::arg("value"));
  m.def("_range_text", [](const ParameterTuple& p) { return parameter(p).range.to_string(); });

  m.def(
      "_check_for_all_json",
      [](const std::string& spec, bool is_text, const std::string& source, const std::string& name, const std::string& lambda,
         const std::string& delta, unsigned horizon, bool cross_check, const std::string& adversary) {
        const ParametricSpec s = read_spec(spec, is_text, source);
        ParametricCheckOptions options;
        options.horizon = horizon;
        options.cross_check = cross_check;
        options.numeric.adversary = parse_adversary_class(adversary, "adversary");
        ParametricClaimFields fields{"for_all", "lam", "epsilon", "delta"};
        std::string out;
        {
          nb::gil_scoped_release release;
          const auto [v, l] = check_parametric_claim(s, name, lambda, "", delta, options, fields);
          out = parametric_check_json(s, l, options, v);
        }
        return out;
      },
      nb::arg("spec"), nb::arg("is_text"), nb::arg("source"), nb::arg("parameter"), nb::arg("lam"), nb::arg("delta"), nb::arg("horizon"),
      nb::arg("cross_check"), nb::arg("adversary"));
  m.def(
      "_check_renyi_for_all_json",
      [](const std::string& spec, bool is_text, const std::string& source, const std::string& name, const std::string& alpha,
         const std::string& moment, unsigned horizon, bool cross_check, const std::string& adversary) {
        const ParametricSpec s = read_spec(spec, is_text, source);
        ParametricCheckOptions options;
        options.horizon = horizon;
        options.cross_check = cross_check;
        options.numeric.adversary = parse_adversary_class(adversary, "adversary");
        const ParametricRenyiFields fields{"for_all", "renyi_alpha", "renyi_moment", "renyi_epsilon"};
        nb::gil_scoped_release release;
        return parametric_renyi_check_json(s, check_parametric_renyi_claim(s, name, alpha, moment, "", options, fields));
      },
      nb::arg("spec"), nb::arg("is_text"), nb::arg("source"), nb::arg("parameter"), nb::arg("alpha"), nb::arg("moment"), nb::arg("horizon"),
      nb::arg("cross_check"), nb::arg("adversary"));
  m.def(
      "_profile_for_all_json",
      [](const std::string& spec, bool is_text, const std::string& source, const std::string& lambda, unsigned horizon, bool cross_check) {
        const ParametricSpec s = read_spec(spec, is_text, source);
        nb::gil_scoped_release release;
        return parametric_profile_report(s, lambda, horizon, cross_check, true, "lam");
      },
      nb::arg("spec"), nb::arg("is_text"), nb::arg("source"), nb::arg("lam"), nb::arg("horizon"), nb::arg("cross_check"));
  m.def(
      "_profile_renyi_for_all_json",
      [](const std::string& spec, bool is_text, const std::string& source, const std::string& alpha, unsigned horizon, bool cross_check) {
        const ParametricSpec s = read_spec(spec, is_text, source);
        nb::gil_scoped_release release;
        return parametric_renyi_report(s, alpha, horizon, cross_check, true, "alphas");
      },
      nb::arg("spec"), nb::arg("is_text"), nb::arg("source"), nb::arg("alpha"), nb::arg("horizon"), nb::arg("cross_check"));
  m.def("_parametric_library_entries", [] { return library::parametric_library_entries(); });

  // DLap(f(r)): its mass function, distribution function and clamped table as functions of r, by
  // the closed forms of noise/dlap_closed_form.hpp over the parametric field policy
  m.def(
      "_parametric_dlap",
      [](const std::string& r_text, const ParameterTuple& p, const std::string& what, nb::handle a, nb::handle b) {
        const Parameter par = parameter(p);
        const RationalFunction r = noise_parameter("exactdp.noise.dlap", r_text, par, "r");
        using F = parametric::ParametricField;
        auto text = [&](const RationalFunction& f) { return nb::cast(f.to_string(par.name)); };
        // |k| ≤ 1000: a power r^k of a rational function is exact but its size grows with k
        auto bound = [](nb::handle h, const char* field) -> std::optional<long> {
          if (h.is_none()) return std::nullopt;
          const Rational v = exact(h, field);
          if (v.get_den() != 1 || v < -1000 || v > 1000)
            throw Error("exactdp.noise.dlap", field, to_string(v), "with a parameter, an integer with |k| ≤ 1000");
          return v.get_num().get_si();
        };
        auto need = [&](nb::handle h, const char* field) {
          const auto v = bound(h, field);
          if (!v) throw Error("exactdp.noise.dlap", field, "None", "an integer is needed here");
          return *v;
        };
        const auto mass = noise::dlap_mass_function<F>(r);
        if (what == "pmf") return text(mass(need(a, "k")));
        if (what == "cdf") return text(noise::dlap_cdf_value<F>(r, need(a, "k")));
        if (what == "sf") return text(RationalFunction(1) - noise::dlap_cdf_value<F>(r, need(a, "k")));
        if (what == "probability") return text(mass.sum(bound(a, "lo"), bound(b, "hi")));
        if (what == "clamped") {
          const long lo = need(a, "lo"), hi = need(b, "hi");
          if (hi < lo) throw Error("exactdp.noise.dlap", "hi", std::to_string(hi), "lo ≤ hi");
          nb::dict out;
          if (lo == hi) out[nb::int_(lo)] = nb::str("1");
          else
            for (const auto& [k, f] : noise::clamped_dlap_masses<F>(r, 0, lo, hi)) out[nb::int_(k)] = text(f);
          return nb::object(out);
        }
        throw Error("exactdp.noise", "what", what, "internal: unknown query");
      },
      nb::arg("r"), nb::arg("parameter"), nb::arg("what"), nb::arg("a").none(), nb::arg("b").none());

  m.def("_parametric_probability_of",
        [](const std::string& r_text, const ParameterTuple& p, const std::vector<std::tuple<std::string, long, std::string>>& comparisons) {
          const Parameter par = parameter(p);
          const RationalFunction r = noise_parameter("exactdp.noise.probability_of", r_text, par, "r_threshold");
          std::vector<parametric::ParametricLatentThreshold::Comparison> cs;
          for (const auto& [outcome, margin, q] : comparisons) {
            if (outcome != "below" && outcome != "above") throw Error("exactdp.noise.probability_of", "outcome", outcome, "'below' or 'above'");
            cs.push_back({noise_parameter("exactdp.noise.probability_of", q, par, "r_query"), margin,
                          outcome == "below" ? noise::Side::below : noise::Side::above});
          }
          return parametric::ParametricLatentThreshold::probability_of(r, cs).to_string(par.name);
        });

  nb::class_<LatentFor>(m, "_ParametricLatentThreshold")
      .def_static("prior",
                  [](const std::string& r_text, const ParameterTuple& p) {
                    const Parameter par = parameter(p);
                    return LatentFor{parametric::ParametricLatentThreshold(noise_parameter("exactdp.noise.latent_threshold", r_text, par, "r_threshold")),
                                     par};
                  })
      .def("compare",
           [](const LatentFor& t, long margin, const std::string& r_query) {
             const RationalFunction q = noise_parameter("LatentThreshold.compare", r_query, t.parameter, "r_query");
             nb::list out;
             for (auto& b : t.threshold.compare(margin, q))
               out.append(nb::make_tuple(noise::side_name(b.outcome), b.probability.to_string(t.parameter.name), LatentFor{b.next, t.parameter}));
             return out;
           })
      .def("probability_above",
           [](const LatentFor& t, long margin, const std::string& r_query) {
             const RationalFunction q = noise_parameter("LatentThreshold.probability_above", r_query, t.parameter, "r_query");
             return t.threshold.probability_above(margin, q).to_string(t.parameter.name);
           })
      .def("pmf", [](const LatentFor& t, long j) { return t.threshold.pmf(j).to_string(t.parameter.name); })
      .def("cdf", [](const LatentFor& t, long j) { return t.threshold.cdf(j).to_string(t.parameter.name); })
      .def("__str__", &show)
      .def("__eq__", [](const LatentFor& a, const LatentFor& b) { return a.parameter.name == b.parameter.name && a.threshold == b.threshold; })
      .def("__hash__", [](const LatentFor& t) {
        return static_cast<Py_ssize_t>(parametric::ParametricLatentThreshold::Hash{}(t.threshold) >> 1);
      });
}
