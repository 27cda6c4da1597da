// exactdp._core: bindings of the exact noise module (src/exactdp/noise/): noise laws on the
// integers, randomized response, the latent threshold posterior and report-noisy-max. The public
// Python module is exactdp.noise (python/exactdp/noise.py), which wraps these with docstrings.
// Exact numbers cross as fractions.Fraction; inputs are Fraction, int or exact strings ("0.1" is
// 1/10); floats and bools are refused with TypeError, as everywhere in the package.
#include "exactdp/core/error.hpp"
#include "exactdp/noise/latent.hpp"
#include "exactdp/noise/noise.hpp"
#include "exactdp/noise/noisy_max.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>

namespace nb = nanobind;
using namespace exactdp;
using noise::LatentThreshold;
using noise::Noise;

namespace {

Rational exact(nb::handle h, const char* field) {
  if (PyFloat_Check(h.ptr()))
    throw nb::type_error((std::string(field) + ": Python floats are binary approximations; pass a Fraction, an int or a "
                                               "string such as '0.1'")
                             .c_str());
  if (PyBool_Check(h.ptr())) throw nb::type_error((std::string(field) + ": expected a number, not a bool").c_str());
  return parse_rational(nb::str(h).c_str(), field);
}

long integer(nb::handle h, const char* field) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr()))
    throw nb::type_error((std::string(field) + ": expected an int, got " + nb::type_name(h.type()).c_str()).c_str());
  const Rational v = parse_rational(nb::str(h).c_str(), field);
  if (v < -1'000'000'000'000L || v > 1'000'000'000'000L) throw Error("exactdp.noise", field, to_string(v), "|value| must be at most 10^12");
  return v.get_num().get_si();
}

std::optional<long> bound(nb::handle h, const char* field) {
  if (h.is_none()) return std::nullopt;
  return integer(h, field);
}

nb::object fraction(const Rational& q) {
  nb::object to_int = nb::module_::import_("builtins").attr("int");
  auto hex = [&](const mpz_class& z) { return to_int(nb::str(z.get_str(16).c_str()), 16); };
  return nb::module_::import_("fractions").attr("Fraction")(hex(q.get_num()), hex(q.get_den()));
}

nb::dict table(const Dist<long>& d) {
  nb::dict out;
  for (const auto& [k, p] : d) out[nb::int_(k)] = fraction(p);
  return out;
}

/// RR answers as Python values: 0 and 1 as ints, the leaks as the strings "leak0", "leak1".
nb::object rr_answer(const std::string& a) {
  if (a == "0" || a == "1") return nb::int_(a == "1" ? 1 : 0);
  return nb::str(a.c_str());
}

std::string rr_answer_text(nb::handle h) {
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) return nb::str(h).c_str();
  if (nb::isinstance<nb::str>(h)) return nb::cast<std::string>(h);
  throw nb::type_error("answer: expected 0, 1, 'leak0' or 'leak1'");
}

noise::Side outcome(const std::string& s) {
  if (s == "below") return noise::Side::below;
  if (s == "above") return noise::Side::above;
  throw Error("exactdp.noise", "outcome", s, "an outcome is 'below' or 'above'");
}

/// (r_threshold, ((outcome, margin, r_query), …), lower, upper, (mass, …)) with exact numbers as
/// Fraction: the canonical description, for pickling and inspection.
nb::tuple describe(const LatentThreshold& t) {
  nb::list cs, ms;
  for (const auto& c : t.comparisons()) cs.append(nb::make_tuple(noise::side_name(c.outcome), c.margin, fraction(c.r_query)));
  for (const auto& m : t.masses()) ms.append(fraction(m));
  auto opt = [](std::optional<long> b) -> nb::object { return b ? nb::object(nb::int_(*b)) : nb::none(); };
  return nb::make_tuple(fraction(t.r_threshold()), nb::tuple(cs), opt(t.lower()), opt(t.upper()), nb::tuple(ms));
}

LatentThreshold from_description(nb::tuple s) {
  if (nb::len(s) != 5) throw nb::value_error("LatentThreshold state: expected a 5-tuple");
  std::vector<LatentThreshold::Comparison> cs;
  for (nb::handle c : nb::borrow<nb::iterable>(s[1])) {
    nb::sequence t = nb::borrow<nb::sequence>(c);
    cs.push_back({exact(t[2], "r_query"), integer(t[1], "margin"), outcome(nb::cast<std::string>(t[0]))});
  }
  std::vector<Rational> ms;
  for (nb::handle m : nb::borrow<nb::iterable>(s[4])) ms.push_back(exact(m, "masses"));
  return LatentThreshold(exact(s[0], "r_threshold"), std::move(cs), bound(s[2], "lower"), bound(s[3], "upper"), std::move(ms));
}

}  // namespace

void bind_noise(nb::module_& m) {
  nb::class_<Noise>(m, "_Noise")
      .def_static("dlap", [](nb::handle r) { return Noise::dlap(exact(r, "r")); })
      .def_static("geometric", [](nb::handle r) { return Noise::geometric(exact(r, "r")); })
      .def_static("bernoulli", [](nb::handle p) { return Noise::bernoulli(exact(p, "p")); })
      .def_static("uniform", [](nb::handle a, nb::handle b) { return Noise::uniform(integer(a, "a"), integer(b, "b")); })
      .def_static("binomial", [](nb::handle n, nb::handle p) { return Noise::binomial(integer(n, "n"), exact(p, "p")); })
      .def_static("point", [](nb::handle v) { return Noise::point(integer(v, "v")); })
      .def_static("from_table",
                  [](nb::dict masses, const std::string& name) {
                    std::vector<std::pair<long, Rational>> m;
                    for (auto [k, p] : masses) m.emplace_back(integer(k, "value"), exact(p, "mass"));
                    return Noise::from_dist(Dist<long>(m, MassKind::probability, "exactdp.noise.from_table"), name);
                  })
      .def("pmf", [](const Noise& z, nb::handle k) { return fraction(z.pmf(integer(k, "k"))); })
      .def("cdf", [](const Noise& z, nb::handle k) { return fraction(z.cdf(integer(k, "k"))); })
      .def("sf", [](const Noise& z, nb::handle k) { return fraction(z.sf(integer(k, "k"))); })
      .def("probability", [](const Noise& z, nb::handle lo, nb::handle hi) { return fraction(z.probability(bound(lo, "lo"), bound(hi, "hi"))); },
           nb::arg("lo").none(), nb::arg("hi").none())
      .def_prop_ro("min", [](const Noise& z) { return z.min(); })
      .def_prop_ro("max", [](const Noise& z) { return z.max(); })
      .def("support", &Noise::support)
      .def("table", [](const Noise& z) { return table(z.to_dist()); })
      .def("clamped", [](const Noise& z, nb::handle lo, nb::handle hi) { return table(z.clamped(integer(lo, "lo"), integer(hi, "hi"))); })
      .def("truncated", [](const Noise& z, nb::handle lo, nb::handle hi) { return table(z.truncated(integer(lo, "lo"), integer(hi, "hi"))); })
      .def("shifted", [](const Noise& z, nb::handle v) { return z.shifted(integer(v, "v")); })
      .def("negated", &Noise::negated)
      .def("plus", &Noise::plus)
      .def_prop_ro("name", &Noise::name)
      .def("__eq__", [](const Noise& a, const Noise& b) { return a == b; });

  nb::class_<noise::RandomizedResponse>(m, "_RandomizedResponse")
      .def_static("make",
                  [](nb::handle lam, nb::handle p, nb::handle delta) {
                    const Rational d = exact(delta, "delta");
                    if (lam.is_none() == p.is_none()) throw Error("exactdp.noise.rr", "lam", "", "give exactly one of lam and p");
                    return lam.is_none() ? noise::RandomizedResponse::from_truth_probability(exact(p, "p"), d)
                                         : noise::RandomizedResponse(exact(lam, "lam"), d);
                  },
                  nb::arg("lam").none(), nb::arg("p").none(), nb::arg("delta"))
      .def("given",
           [](const noise::RandomizedResponse& rr, nb::handle b) {
             nb::dict out;
             for (const auto& [a, p] : rr.given(integer(b, "b"))) out[rr_answer(a)] = fraction(p);
             return out;
           })
      .def("pmf", [](const noise::RandomizedResponse& rr, nb::handle a, nb::handle b) { return fraction(rr.pmf(rr_answer_text(a), integer(b, "b"))); })
      .def_prop_ro("lam", [](const noise::RandomizedResponse& rr) { return fraction(rr.lambda()); })
      .def_prop_ro("delta", [](const noise::RandomizedResponse& rr) { return fraction(rr.delta()); })
      .def_prop_ro("p", [](const noise::RandomizedResponse& rr) { return fraction(rr.truth_probability()); });

  nb::class_<noise::KaryRandomizedResponse>(m, "_KaryRandomizedResponse")
      .def_static("make", [](nb::handle k, nb::handle lam) { return noise::KaryRandomizedResponse(integer(k, "k"), exact(lam, "lam")); })
      .def("given", [](const noise::KaryRandomizedResponse& rr, nb::handle v) { return table(rr.given(integer(v, "v"))); })
      .def("pmf", [](const noise::KaryRandomizedResponse& rr, nb::handle a, nb::handle v) {
        return fraction(rr.pmf(integer(a, "answer"), integer(v, "v")));
      })
      .def_prop_ro("k", &noise::KaryRandomizedResponse::k)
      .def_prop_ro("lam", [](const noise::KaryRandomizedResponse& rr) { return fraction(rr.lambda()); });

  nb::class_<LatentThreshold>(m, "_LatentThreshold")
      .def_static("prior", [](nb::handle r) { return LatentThreshold(exact(r, "r_threshold")); })
      .def_static("from_description", &from_description)
      .def("describe", &describe)
      .def("compare",
           [](const LatentThreshold& t, nb::handle margin, nb::handle r_query) {
             nb::list out;
             for (auto& b : t.compare(integer(margin, "margin"), exact(r_query, "r_query")))
               out.append(nb::make_tuple(noise::side_name(b.outcome), fraction(b.probability), b.next));
             return out;
           })
      .def("probability_above",
           [](const LatentThreshold& t, nb::handle margin, nb::handle r_query) {
             return fraction(t.probability_above(integer(margin, "margin"), exact(r_query, "r_query")));
           })
      .def("probability_between",
           [](const LatentThreshold& t, nb::handle lo, nb::handle hi) { return fraction(t.probability_between(bound(lo, "lower"), bound(hi, "upper"))); },
           nb::arg("lower").none(), nb::arg("upper").none())
      .def("conditioned", [](const LatentThreshold& t, nb::handle lo, nb::handle hi) { return t.conditioned(bound(lo, "lower"), bound(hi, "upper")); },
           nb::arg("lower").none(), nb::arg("upper").none())
      .def("pmf", [](const LatentThreshold& t, nb::handle j) { return fraction(t.pmf(integer(j, "j"))); })
      .def("cdf", [](const LatentThreshold& t, nb::handle j) { return fraction(t.cdf(integer(j, "j"))); })
      .def("__str__", &LatentThreshold::to_string)
      .def("__eq__", [](const LatentThreshold& a, const LatentThreshold& b) { return a == b; })
      .def("__lt__", [](const LatentThreshold& a, const LatentThreshold& b) { return a < b; })
      .def("__hash__", [](const LatentThreshold& t) { return static_cast<Py_ssize_t>(LatentThreshold::Hash{}(t) >> 1); });

  m.def("_latent_probability_of", [](nb::handle r_threshold, nb::iterable comparisons) {
    std::vector<LatentThreshold::Comparison> cs;
    for (nb::handle c : comparisons) {
      nb::sequence t = nb::borrow<nb::sequence>(c);
      if (nb::len(t) != 3) throw nb::value_error("comparisons: each entry is (outcome, margin, r_query)");
      cs.push_back({exact(t[2], "r_query"), integer(t[1], "margin"), outcome(nb::cast<std::string>(t[0]))});
    }
    return fraction(LatentThreshold::probability_of(exact(r_threshold, "r_threshold"), cs));
  });

  m.def("_report_noisy_max", [](nb::iterable values, nb::iterable noises, const std::string& ties) {
    std::vector<long> v;
    for (nb::handle x : values) v.push_back(integer(x, "values"));
    std::vector<Noise> z;
    for (nb::handle x : noises) z.push_back(nb::cast<Noise>(x));
    if (ties != "lowest_index" && ties != "uniform") throw Error("exactdp.noise.report_noisy_max", "ties", ties, "ties is 'lowest_index' or 'uniform'");
    nb::list out;
    for (const auto& p : noise::report_noisy_max(v, z, ties == "uniform" ? noise::TieBreak::uniform : noise::TieBreak::lowest_index))
      out.append(fraction(p));
    return out;
  });
}
