// exactdp._core: nanobind bindings of the exactdp library. Exact values cross into Python as
// fractions.Fraction, certified ones as (lo, hi) tuples of Fraction (the exact MPFR endpoints of
// the enclosure), +∞ as math.inf. Numbers come in as Fraction, int or exact strings ("0.1" is
// 1/10); Python floats are refused, because a binary double is not the number the user meant.
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/direction.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/accounting/calibration.hpp"
#include "exactdp/accounting/claim_check.hpp"
#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/composition_query.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/accounting/verdict.hpp"
#include "exactdp/io/calibration_report.hpp"
#include "exactdp/io/check_report.hpp"
#include "exactdp/io/claims.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/io/game_json.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/sample/random_source.hpp"
#include "exactdp/sample/session.hpp"
#include "exactdp/testing/witness.hpp"

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <nlohmann/json.hpp>

#include <string>

namespace nb = nanobind;
using namespace exactdp;

namespace {

Rational rational(nb::handle h, const char* field) {
  if (PyFloat_Check(h.ptr()))
    throw nb::type_error((std::string(field) + ": Python floats are binary approximations; pass a Fraction, an int or a "
                                               "string such as '0.1'")
                             .c_str());
  if (PyBool_Check(h.ptr())) throw nb::type_error((std::string(field) + ": expected a number, not a bool").c_str());
  return parse_rational(nb::str(h).c_str(), field);
}

unsigned long count(nb::handle h, const char* field) {
  Rational k = rational(h, field);
  if (k.get_den() != 1 || k < 1 || k > max_composition_uses)
    throw Error("exactdp", field, to_string(k), "must be an integer between 1 and " + std::to_string(max_composition_uses));
  return k.get_num().get_ui();
}

/// Fraction(p, q) built from hexadecimal digits: Python limits decimal int parsing to 4300 digits by
/// default (3.11), and exact compositions have more; power-of-two bases are not limited.
nb::object fraction(const Rational& q) {
  nb::object to_int = nb::module_::import_("builtins").attr("int");
  auto hex = [&](const mpz_class& z) {
    const std::string digits = z.get_str(16);
    return to_int(nb::str(digits.c_str()), 16);
  };
  return nb::module_::import_("fractions").attr("Fraction")(hex(q.get_num()), hex(q.get_den()));
}

nb::object infinity() { return nb::module_::import_("math").attr("inf"); }

nb::object extended(const ExtendedRational& x) { return x.is_infinite() ? infinity() : fraction(x.value()); }

/// (lo, hi) with the exact endpoints; ±math.inf for infinite ends.
nb::object interval(const Interval& x) {
  nb::object lo = x.lower_is_finite() ? fraction(x.lower()) : (x.upper_is_finite() ? -infinity() : infinity());
  nb::object hi = x.upper_is_finite() ? fraction(x.upper()) : infinity();
  return nb::make_tuple(lo, hi);
}

PrivacyLoss from_masses(nb::iterable masses) {
  std::vector<std::pair<Rational, Rational>> m;
  for (nb::handle pq : masses) {
    nb::sequence s = nb::borrow<nb::sequence>(pq);
    if (nb::len(s) != 2) throw nb::value_error("from_masses: each entry must be a pair (P mass, Q mass)");
    m.emplace_back(rational(s[0], "P mass"), rational(s[1], "Q mass"));
  }
  return PrivacyLoss::from_masses(m, "from_masses");
}

/// The report of `exactdp profile SPEC --json` for a parsed spec (path and text bindings share it).
std::string profile_json(const Game& game, const std::vector<std::string>& lambdas, const std::vector<std::string>& deltas,
                         const std::vector<std::string>& alphas, unsigned horizon, std::uint64_t max_nodes, const std::string& adversary,
                         unsigned threads) {
  ProfileQuery q;
  for (const auto& l : lambdas) q.lambdas.push_back(read_lambda(l, "lambdas"));
  for (const auto& d : deltas) q.deltas.push_back(read_delta(d, "deltas"));
  for (const auto& a : alphas) {
    const Rational x = read_renyi_order(a, "alphas", 1000);
    if (x.get_den() == 1) q.alphas.push_back(x.get_num().get_ui());
    else q.real_alphas.push_back(x);
  }
  q.adversary = parse_adversary_class(adversary, "adversary");
  if (horizon > 0) q.options.horizon = horizon;
  q.options.max_nodes = max_nodes;
  q.options.threads = threads;
  nb::gil_scoped_release release;
  return profile_report_json(game, q);
}

/// The verdict of `exactdp check SPEC --json` for a parsed spec (accounting/check_claim, the report of
/// io/check_report.hpp); with @p minimal, a refutation also carries the shrunk witness
/// ("minimal_witness") and its short account ("refutation_text").
std::string check_json(const Game& game, const std::string& source, const std::string& lambda, const std::string& epsilon,
                       const std::string& delta_text, unsigned horizon, std::uint64_t max_nodes, unsigned threads, bool minimal,
                       long max_precision, const std::string& adversary) {
  GameClaimText text;
  text.lambda = lambda, text.epsilon = epsilon, text.delta = delta_text;
  const GameClaim claim = read_game_claim(text, "");
  ClaimCheckOptions options;
  options.adversary = parse_adversary_class(adversary, "adversary");
  if (horizon > 0) options.engine.horizon = horizon;
  options.engine.max_nodes = max_nodes;
  options.engine.threads = threads;
  limits::check_range<long>("check", "max_precision", max_precision, limits::min_claim_precision, limits::max_claim_precision);
  options.max_precision = max_precision;
  ClaimVerdict verdict;
  {
    nb::gil_scoped_release release;
    verdict = check_claim(game, claim, options);
  }
  nlohmann::json out = nlohmann::json::parse(check_report_json(game, source, claim, options, verdict, false));
  if (verdict.witness) {
    out["witness_text"] = verdict.witness->describe(game);
    if (minimal) {
      // the shrunk witness and its short account (testing/witness.hpp), for exactdp.testing.assert_dp
      const Witness w = minimal_witness(game, *verdict.witness, claim.delta);
      out["minimal_witness"] = nlohmann::json::parse(witness_json(game, w));
      out["refutation_text"] = describe_refutation(game, w, claim.delta, verdict.delta(), verdict.horizon);
    }
  }
  return out.dump();
}

}  // namespace

void bind_noise(nb::module_& m);       // noise_bindings.cpp
void bind_parametric(nb::module_& m);  // parametric_bindings.cpp

namespace {

using ComponentTuple = std::tuple<nb::object, unsigned long, std::optional<std::string>>;

/// Python's names of its arguments, for the library's refusals.
CompositionArgumentNames python_names() {
  CompositionArgumentNames n;
  n.where = "composition";
  n.what = "what";
  n.times = "times";
  n.sampling = "sampling_rate";
  n.direction = "direction";
  n.relative_width = "relative_width";
  return n;
}

/// The planner's components from Python's (SPEC | PrivacyLoss, times, rate text | "mixture:…" | None)
/// tuples, Poisson-subsampled at @p sampling_rate on top, under @p relation: the library assembles
/// them (accounting/composition_query.hpp, composition_components).
std::vector<CompositionComponent> python_components(const std::vector<ComponentTuple>& components, nb::handle sampling_rate,
                                                    const NeighbourChoice& relation,
                                                    std::uint64_t table_budget = limits::default_spec_table_budget) {
  CompositionRequest request;
  request.names = python_names();
  request.relation = relation;
  if (!sampling_rate.is_none()) request.sampling_rate = rational(sampling_rate, "sampling_rate");
  for (std::size_t i = 0; i < components.size(); ++i) {
    const auto& [what, times, sampling] = components[i];
    ComponentRequest c;
    c.times = times;
    if (nb::isinstance<nb::str>(what)) {
      c.source = nb::cast<std::string>(what);
      c.spec = parse_mechanism_spec(c.source, table_budget);
    } else if (nb::isinstance<PrivacyLoss>(what)) {
      c.source = "pair what[" + std::to_string(i) + "]";
      c.pair = nb::cast<PrivacyLoss>(what);
    } else {
      throw Error("composition", "what[" + std::to_string(i) + "]", nb::cast<std::string>(nb::str(what)),
                  "expected a SPEC string or a PrivacyLoss");
    }
    if (sampling && sampling->rfind("mixture:", 0) == 0) c.mixture = *sampling;
    else if (sampling) c.sampling_rate = parse_rational(*sampling, "sampling_rate");
    request.components.push_back(std::move(c));
  }
  return composition_components(request);
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "Exact and certified privacy accounting (bindings of the exactdp C++ library)";
  nb::exception<Error>(m, "Error", PyExc_ValueError);
  bind_noise(m);
  bind_parametric(m);

  nb::class_<PrivacyLoss>(m, "PrivacyLoss",
                          "The privacy-loss distribution of an ordered pair (P, Q) of finite distributions, exact.")
      .def_static("from_masses", &from_masses, nb::arg("masses"),
                  "From a list of (P(y), Q(y)) pairs, one per outcome y (Fraction, int or exact strings).")
      .def_static("identity", [] { return PrivacyLoss::identity(); }, "The pair of two equal point masses (neutral for compose).")
      .def_prop_ro("atoms",
                   [](const PrivacyLoss& l) {
                     nb::list out;
                     for (const auto& a : l.atoms()) out.append(nb::make_tuple(extended(a.ratio), fraction(a.p), fraction(a.q)));
                     return out;
                   },
                   "The atoms as (ratio, P mass, Q mass), ratio = P/Q (math.inf when Q = 0).")
      .def("compose", [](const PrivacyLoss& a, const PrivacyLoss& b) { return compose(a, b); }, nb::arg("other"),
           "The loss of the product pair (P×P', Q×Q').")
      .def("self_compose", [](const PrivacyLoss& a, nb::handle k) { return a.self_compose(count(k, "k")); }, nb::arg("k"),
           "The k-fold composition with itself.")
      .def("swapped", &PrivacyLoss::swapped, "The loss of (Q, P).")
      .def("__len__", &PrivacyLoss::size)
      .def("__eq__", [](const PrivacyLoss& a, const PrivacyLoss& b) { return a == b; });
  m.def("compose", [](const PrivacyLoss& a, const PrivacyLoss& b) { return compose(a, b); });

  nb::class_<PrivacyProfile>(m, "PrivacyProfile", "δ(λ) = max(H_λ(P‖Q), H_λ(Q‖P)), exact.")
      .def(nb::init<const PrivacyLoss&>(), nb::arg("loss"))
      .def("delta",
           [](const PrivacyProfile& p, nb::handle lambda, const std::string& direction) {
             return fraction(delta(p, rational(lambda, "lambda"), parse_direction(direction, "delta")));
           },
           nb::arg("lambda_"), nb::arg("direction") = "both",
           "δ at an exact λ = e^ε ≥ 0 (a Fraction); direction 'both' (max), 'remove' H(P‖Q) or 'add' H(Q‖P).")
      .def("delta_at_epsilon",
           [](const PrivacyProfile& p, nb::handle eps, long precision, const std::string& direction) {
             return interval(delta(p, exp(Interval(rational(eps, "epsilon"), precision)), parse_direction(direction, "delta_at_epsilon")));
           },
           nb::arg("epsilon"), nb::arg("precision") = 128, nb::arg("direction") = "both",
           "δ at a real ε = ln λ of any sign, certified: (lo, hi).")
      .def("least_lambda",
           [](const PrivacyProfile& p, nb::handle d, const std::string& direction) {
             return extended(least_lambda(p, rational(d, "delta"), parse_direction(direction, "least_lambda")));
           },
           nb::arg("delta"), nb::arg("direction") = "both", "The least λ ≥ 1 with δ(λ) ≤ delta: a Fraction, or math.inf.")
      .def("least_epsilon",
           [](const PrivacyProfile& p, nb::handle d, long precision, const std::string& direction) {
             Rational delta = rational(d, "delta");
             const ExtendedRational l = least_lambda(p, delta, parse_direction(direction, "least_epsilon"));
             if (l.is_infinite()) return nb::make_tuple(infinity(), infinity());
             if (l.value() == 1) return nb::borrow<nb::tuple>(interval(Interval::zero(precision)));
             return nb::borrow<nb::tuple>(interval(log(Interval(l.value(), precision))));
           },
           nb::arg("delta"), nb::arg("precision") = 128, nb::arg("direction") = "both",
           "ln(least_lambda(delta)), certified: (lo, hi).");

  nb::class_<TradeOff>(m, "TradeOff", "The f-DP trade-off function T(P, Q), exact and piecewise linear.")
      .def_static("of", &TradeOff::of, nb::arg("loss"))
      .def_prop_ro("vertices",
                   [](const TradeOff& t) {
                     nb::list out;
                     for (const auto& v : t.vertices()) out.append(nb::make_tuple(fraction(v.alpha), fraction(v.beta)));
                     return out;
                   },
                   "The vertices (α, β) of the curve.")
      .def("__call__", [](const TradeOff& t, nb::handle a) { return fraction(t(rational(a, "alpha"))); }, nb::arg("alpha"));

  m.def("renyi_moment",
        [](const PrivacyLoss& l, nb::handle alpha, long precision) -> nb::object {
          Rational a = rational(alpha, "alpha");
          if (a.get_den() == 1 && a >= 2) return extended(renyi_moment(l, a.get_num().get_ui()));
          return interval(renyi_moment(l, a, precision));
        },
        nb::arg("loss"), nb::arg("alpha"), nb::arg("precision") = 128,
        "Φ_α(P‖Q) = Σ p^α q^{1−α}: exact (Fraction or math.inf) for integer α ≥ 2, certified (lo, hi) otherwise.");
  m.def("max_ratio", [](const PrivacyLoss& l) { return extended(max_ratio(l)); }, nb::arg("loss"),
        "max P(y)/Q(y) (e^{D_∞}), exact or math.inf.");

  nb::class_<MechanismSpec>(m, "MechanismSpec", "A parsed mechanism SPEC, as in `exactdp compose`.")
      .def_prop_ro("family", [](const MechanismSpec& s) { return to_string(s.family()); })
      .def_prop_ro("parameters",
                   [](const MechanismSpec& s) {
                     nb::dict d;
                     for (const auto& p : s.parameters()) d[p.key.c_str()] = fraction(p.value);
                     return d;
                   })
      .def("__str__", &MechanismSpec::to_string)
      .def("__repr__", [](const MechanismSpec& s) { return "parse_mechanism_spec('" + s.to_string() + "')"; })
      .def("describe", &MechanismSpec::describe)
      .def("table_size",
           [](const MechanismSpec& s) {
             const SpecTableSize t = s.table_size();
             auto as_int = [](const Integer& z) { return nb::module_::import_("builtins").attr("int")(nb::str(z.get_str().c_str())); };
             return nb::make_tuple(as_int(t.outcomes), as_int(t.bits_per_outcome), as_int(t.bytes));
           },
           "(outcomes, bits per outcome, estimated peak bytes) of one use's tables, from the parameters alone.")
      .def("exact_loss", [](const MechanismSpec& s) -> nb::object {
        auto l = s.exact_loss();
        return l ? nb::cast(*l) : nb::none();
      }, "The exact PrivacyLoss of one use, or None when the masses are irrational.")
      .def("supports_composition", [](const MechanismSpec& s, nb::handle k) { return s.supports_composition(count(k, "times")); },
           nb::arg("times"))
      .def("delta_at_epsilon",
           [](const MechanismSpec& s, nb::handle eps, nb::handle times, long precision, const std::string& direction) {
             const NeighbourChoice rel = parse_neighbour_relation(direction, "delta_at_epsilon");
             return interval((rel.replace_one ? replace_one(s) : s)
                                 .delta_at_epsilon(Interval(rational(eps, "epsilon"), precision), count(times, "times"), rel.direction));
           },
           nb::arg("epsilon"), nb::arg("times") = 1, nb::arg("precision") = 128, nb::arg("direction") = "both",
           "δ(ε) of the times-fold composition at ε of any sign, certified: (lo, hi). The spec's pair is symmetric:\n"
           "both, remove and add have one value; 'replace' asks the replace-one pair (replace_one()).")
      .def("epsilon_at_delta",
           [](const MechanismSpec& s, nb::handle d, nb::handle times, const std::string& direction) {
             const NeighbourChoice rel = parse_neighbour_relation(direction, "epsilon_at_delta");
             return interval((rel.replace_one ? replace_one(s) : s)
                                 .epsilon_at_delta(rational(d, "delta"), count(times, "times"), default_precision, rel.direction));
           },
           nb::arg("delta"), nb::arg("times") = 1, nb::arg("direction") = "both",
           "The least ε of the times-fold composition, certified: (lo, hi); direction as for delta_at_epsilon.")
      .def("renyi",
           [](const MechanismSpec& s, nb::handle a, long precision, const std::string& direction) {
             const NeighbourChoice rel = parse_neighbour_relation(direction, "renyi");
             return interval((rel.replace_one ? replace_one(s) : s).renyi(rational(a, "alpha"), precision));
           },
           nb::arg("alpha"), nb::arg("precision") = 128, nb::arg("direction") = "both",
           "Rényi divergence of order α of one use, certified: (lo, hi) (the pair is symmetric: one value for both,\n"
           "remove and add; 'replace' asks the replace-one pair).")
      .def("replace_one", [](const MechanismSpec& s) { return replace_one(s); },
           "The spec whose add/remove pair is this mechanism's replace-one pair: additive noise at twice the\n"
           "sensitivity, randomized response unchanged (accounting/replace_one.hpp).")
      .def("zcdp", [](const MechanismSpec& s) -> nb::object {
        auto r = s.zcdp();
        return r ? fraction(*r) : nb::none();
      });
  m.def("parse_mechanism_spec", [](const std::string& text, std::uint64_t max_memory) { return parse_mechanism_spec(text, max_memory); },
        nb::arg("text"), nb::arg("max_memory") = limits::default_spec_table_budget,
        "Parses a SPEC (accounting/mechanism_spec.hpp); one whose one-use tables are estimated above max_memory\n"
        "bytes is refused before anything is built (MechanismSpec.table_size()).");

  // ---- the adversary game engine on mechanism spec files (as `exactdp profile SPEC` / `check`) ----
  // A spec is a file (path) or spec text (e.g. exactdp.Mechanism.to_spec()); both are parsed by the
  // same io/spec_file.hpp and analysed by the same functions.
  m.def(
      "_profile_spec_json",
      [](const std::string& path, const std::vector<std::string>& lambdas, const std::vector<std::string>& deltas,
         const std::vector<std::string>& alphas, unsigned horizon, std::uint64_t max_nodes, const std::string& adversary,
         unsigned threads) {
        return profile_json(load_spec_file(path), lambdas, deltas, alphas, horizon, max_nodes, adversary, threads);
      },
      nb::arg("path"), nb::arg("lambdas"), nb::arg("deltas"), nb::arg("alphas"), nb::arg("horizon") = 0,
      nb::arg("max_nodes") = EngineOptions{}.max_nodes, nb::arg("adversary") = "adaptive", nb::arg("threads") = 0,
      "The report of `exactdp profile SPEC --json` (JSON text).");
  m.def(
      "_profile_spec_text_json",
      [](const std::string& text, const std::string& source, const std::vector<std::string>& lambdas,
         const std::vector<std::string>& deltas, const std::vector<std::string>& alphas, unsigned horizon, std::uint64_t max_nodes,
         const std::string& adversary, unsigned threads) {
        return profile_json(parse_spec(text, source), lambdas, deltas, alphas, horizon, max_nodes, adversary, threads);
      },
      nb::arg("text"), nb::arg("source"), nb::arg("lambdas"), nb::arg("deltas"), nb::arg("alphas"), nb::arg("horizon") = 0,
      nb::arg("max_nodes") = EngineOptions{}.max_nodes, nb::arg("adversary") = "adaptive", nb::arg("threads") = 0,
      "The report of `exactdp profile SPEC --json` for spec text (JSON text).");
  m.def(
      "_check_spec_json",
      [](const std::string& path, const std::string& lambda, const std::string& epsilon, const std::string& delta, unsigned horizon,
         std::uint64_t max_nodes, unsigned threads, bool minimal, long max_precision, const std::string& adversary) {
        return check_json(load_spec_file(path), path, lambda, epsilon, delta, horizon, max_nodes, threads, minimal, max_precision,
                          adversary);
      },
      nb::arg("path"), nb::arg("lambda") = "", nb::arg("epsilon") = "", nb::arg("delta") = "0", nb::arg("horizon") = 0,
      nb::arg("max_nodes") = EngineOptions{}.max_nodes, nb::arg("threads") = 0, nb::arg("minimal") = false,
      nb::arg("max_precision") = ClaimCheckOptions{}.max_precision, nb::arg("adversary") = "adaptive",
      "The verdict of `exactdp check SPEC --json` for an (ε, δ) claim (JSON text).");
  m.def(
      "_check_spec_text_json",
      [](const std::string& text, const std::string& source, const std::string& lambda, const std::string& epsilon,
         const std::string& delta, unsigned horizon, std::uint64_t max_nodes, unsigned threads, bool minimal, long max_precision,
         const std::string& adversary) {
        return check_json(parse_spec(text, source), source, lambda, epsilon, delta, horizon, max_nodes, threads, minimal,
                          max_precision, adversary);
      },
      nb::arg("text"), nb::arg("source"), nb::arg("lambda") = "", nb::arg("epsilon") = "", nb::arg("delta") = "0",
      nb::arg("horizon") = 0, nb::arg("max_nodes") = EngineOptions{}.max_nodes, nb::arg("threads") = 0, nb::arg("minimal") = false,
      nb::arg("max_precision") = ClaimCheckOptions{}.max_precision, nb::arg("adversary") = "adaptive",
      "The verdict of `exactdp check SPEC --json` for spec text and an (ε, δ) claim (JSON text).");

  // ---- the game split into independent subgames (issue 18 item 4; exactdp.distributed.solve_split).
  // Histories travel as lists of (message of world 0, message of world 1, answer) ids, values as
  // "p/q" strings: exact both ways.
  m.def(
      "_split_spec",
      [](const std::string& text, const std::string& source, unsigned horizon, unsigned depth, std::uint64_t max_nodes) {
        EngineOptions o;
        if (horizon) o.horizon = horizon;
        o.max_nodes = max_nodes;
        const GameSplit s = split_game(parse_spec(text, source), depth, o);
        std::vector<std::vector<std::vector<std::uint32_t>>> frontier;
        for (const auto& h : s.frontier) {
          auto& steps = frontier.emplace_back();
          for (const auto& [pair, answer] : h) steps.push_back({pair.world0, pair.world1, answer});
        }
        return nb::make_tuple(s.horizon, frontier, s.top_nodes);
      },
      nb::arg("text"), nb::arg("source"), nb::arg("horizon"), nb::arg("depth"), nb::arg("max_nodes") = EngineOptions{}.max_nodes,
      "split_game on spec text: (horizon, frontier histories, nodes above the frontier).");
  m.def(
      "_hockey_stick_at_spec",
      [](const std::string& text, const std::string& source, const std::vector<std::vector<std::vector<std::uint32_t>>>& histories,
         const std::string& lambda, unsigned horizon, std::uint64_t max_nodes, unsigned threads) {
        EngineOptions o;
        if (horizon) o.horizon = horizon;
        o.max_nodes = max_nodes;
        o.threads = threads;
        std::vector<GameHistory> hs;
        for (const auto& h : histories) {
          auto& steps = hs.emplace_back();
          for (const auto& st : h) {
            if (st.size() != 3) throw Error("_hockey_stick_at_spec", "histories", std::to_string(st.size()) + " ids", "a step is (message 0, message 1, answer)");
            steps.emplace_back(MessagePair{st[0], st[1]}, st[2]);
          }
        }
        const auto r = worst_case_hockey_stick_at(parse_spec(text, source), hs, parse_rational(lambda, "lambda"), o);
        std::vector<std::pair<std::string, std::string>> values;
        for (const auto& v : r.values) values.emplace_back(to_string(v[0]), to_string(v[1]));
        return nb::make_tuple(values, r.stats.distinct_keys, r.stats.nodes_visited, r.stats.cache_hits, r.stats.memo_bytes);
      },
      nb::arg("text"), nb::arg("source"), nb::arg("histories"), nb::arg("lambda"), nb::arg("horizon"),
      nb::arg("max_nodes") = EngineOptions{}.max_nodes, nb::arg("threads") = 1,
      "worst_case_hockey_stick_at on spec text: ([(forward, backward)], distinct keys, nodes visited, cache hits, memo bytes).");
  m.def(
      "_join_split_spec",
      [](const std::string& text, const std::string& source, unsigned horizon, unsigned depth, const std::string& lambda,
         const std::vector<std::pair<std::string, std::string>>& values, std::uint64_t max_nodes) {
        EngineOptions o;
        if (horizon) o.horizon = horizon;
        o.max_nodes = max_nodes;
        std::vector<std::array<Rational, 2>> vs;
        for (const auto& [f, b] : values) vs.push_back({parse_rational(f, "values"), parse_rational(b, "values")});
        const auto r = join_split(parse_spec(text, source), depth, parse_rational(lambda, "lambda"), vs, o);
        return nb::make_tuple(to_string(r.forward), to_string(r.backward));
      },
      nb::arg("text"), nb::arg("source"), nb::arg("horizon"), nb::arg("depth"), nb::arg("lambda"), nb::arg("values"),
      nb::arg("max_nodes") = EngineOptions{}.max_nodes, "join_split on spec text: (forward, backward) as \"p/q\" strings.");

  m.def(
      "grid_bracket",
      [](const std::string& mechanism, nb::handle times, nb::handle delta, nb::handle epsilon, nb::handle sampling_rate,
         unsigned resolution, nb::handle relative_width, unsigned max_resolution, std::size_t max_points,
         unsigned composition_factor, nb::handle tail, unsigned fine_bin_bits, const std::string& direction) {
        const MechanismSpec spec = parse_mechanism_spec(mechanism);
        const unsigned long k = count(times, "times");
        const Rational q = sampling_rate.is_none() ? Rational(1) : rational(sampling_rate, "sampling_rate");
        const std::optional<ContinuousPair> pair = continuous_pair(spec, q);
        if (!pair)
          throw Error("grid_bracket", "mechanism", mechanism,
                      "grid brackets cover gauss (optionally Poisson-subsampled) and laplace (not subsampled)");
        if (delta.is_none() == epsilon.is_none())
          throw Error("grid_bracket", "delta", "", "give exactly one of delta (for epsilon) or epsilon (for delta)");
        GridOptions o;
        o.resolution = resolution;
        o.max_points = max_points;
        o.composition_factor = composition_factor;
        o.fine_bin_bits = fine_bin_bits;
        if (!tail.is_none()) o.tail = rational(tail, "tail");
        o.direction = parse_direction(direction, "grid_bracket");
        GridBracket b;
        {
          const std::optional<Rational> d = delta.is_none() ? std::nullopt : std::optional(rational(delta, "delta"));
          const std::optional<Rational> e = epsilon.is_none() ? std::nullopt : std::optional(rational(epsilon, "epsilon"));
          const std::optional<Rational> w =
              relative_width.is_none() ? std::nullopt : std::optional(rational(relative_width, "relative_width"));
          if (w && !d) throw Error("grid_bracket", "relative_width", to_string(*w), "is supported with delta (epsilon brackets)");
          nb::gil_scoped_release release;
          if (d && w) b = grid_epsilon_at_delta_within(*pair, k, *d, *w, max_resolution, o);
          else if (d) b = grid_epsilon_at_delta(*pair, k, *d, o);
          else b = grid_delta_at_epsilon(*pair, k, *e, o);
        }
        nb::dict out;
        out["value"] = interval(b.value);
        out["step"] = fraction(b.step);
        out["final_step"] = fraction(b.final_step);
        out["points"] = b.points;
        out["resolution"] = b.resolution;
        return out;
      },
      nb::arg("mechanism"), nb::arg("times") = 1, nb::arg("delta") = nb::none(), nb::arg("epsilon") = nb::none(),
      nb::arg("sampling_rate") = nb::none(), nb::arg("resolution") = GridOptions{}.resolution, nb::arg("relative_width") = nb::none(),
      nb::arg("max_resolution") = 64, nb::arg("max_points") = GridOptions{}.max_points, nb::arg("composition_factor") = 1,
      nb::arg("tail") = nb::none(), nb::arg("fine_bin_bits") = GridOptions{}.fine_bin_bits, nb::arg("direction") = "both",
      "Certified bracket of the least ε at delta (or of δ at epsilon) for times uses of gauss (Poisson-subsampled at\n"
      "sampling_rate, add/remove) or laplace: {'value': (lo, hi), 'step', 'final_step', 'points', 'resolution'}.\n"
      "resolution is grid points per standard deviation of the privacy loss (time about linear in it); with\n"
      "relative_width the resolution doubles (up to max_resolution) until hi - lo <= width*hi. composition_factor\n"
      "(1..64): composed laws keep resolution*composition_factor points per deviation; tail (a Fraction in\n"
      "[0, 1/1000), default 10^-33): mass moved per truncation, each widening the bracket by at most that in delta\n"
      "fine_bin_bits b: one-step bins where 64 grid steps hold P-mass >= 2^-b, wider below (fewer Phi evaluations)\n"
      "(amplification/poisson.hpp GridOptions). direction: 'both' (max), 'remove' H(A^k||B^k) or 'add'\n"
      "H(B^k||A^k), A the subsampled law with the record.");

  m.def("_audit_json",
        [](const std::string& text, const std::string& source, int digits, unsigned grid_resolution, std::size_t grid_points,
           std::uint64_t max_memory) {
          AuditOptions options;
          options.plan.memory_budget = max_memory;
          limits::check_range("audit", "digits", digits, limits::min_digits, limits::max_digits);
          limits::check_range("audit", "grid_resolution", grid_resolution, limits::min_grid_resolution, limits::max_grid_resolution);
          limits::check_range("audit", "grid_points", grid_points, limits::min_grid_point_budget, limits::max_grid_point_budget);
          options.grid_resolution_max = grid_resolution;
          options.grid_point_budget = grid_points;
          auto claims = parse_claims(text, source, max_memory);
          nb::gil_scoped_release release;  // long audits do not block other Python threads
          return audit_report_json(audit_claims(claims, options), digits);
        },
        nb::arg("text"), nb::arg("source"), nb::arg("digits") = 10, nb::arg("grid_resolution") = AuditOptions{}.grid_resolution_max,
        nb::arg("grid_points") = AuditOptions{}.grid_point_budget, nb::arg("max_memory") = default_memory_budget,
        "The report of `exactdp audit --json` for claims text (exactdp-claims/1); max_memory is the composition\n"
        "planner's budget in bytes (accounting/composition_plan.hpp).");

  // Calibration (accounting/calibration.hpp), as `exactdp calibrate --json`.
  m.def(
      "_calibrate_json",
      [](const std::string& family, nb::handle epsilon, nb::handle delta, nb::handle times, nb::handle sampling_rate,
         nb::handle relative_width, const std::string& witness, unsigned max_levels, int digits, unsigned grid_resolution,
         std::size_t grid_points, std::uint64_t max_memory, std::size_t refine_grid_points, const std::string& direction,
         nb::handle probes, nb::handle progress) {
        CalibrationTarget target;
        const NeighbourChoice rel = parse_neighbour_relation(direction, "calibrate");
        if (rel.direction != NeighbourDirection::both)
          throw Error("calibrate", "direction", direction, "calibration targets both directions (add/remove) or replace");
        target.replace_one = rel.replace_one;
        target.epsilon = read_epsilon(to_string(rational(epsilon, "epsilon")), "epsilon", 100000);
        target.delta = read_delta(to_string(rational(delta, "delta")), "delta");
        target.times = count(times, "times");
        if (!sampling_rate.is_none()) target.sampling_rate = rational(sampling_rate, "sampling_rate");
        CalibrationOptions options;
        options.relative_width = rational(relative_width, "relative_width");
        if (witness != "epsilon" && witness != "delta") throw Error("calibrate", "witness", witness, "expected epsilon or delta");
        options.witness = witness == "delta" ? CalibrationWitness::delta : CalibrationWitness::epsilon;
        options.max_levels = max_levels;
        limits::check_range("calibrate", "digits", digits, limits::min_digits, limits::max_digits);
        limits::check_range("calibrate", "grid_resolution", grid_resolution, limits::min_grid_resolution, limits::max_grid_resolution);
        limits::check_range("calibrate", "grid_points", grid_points, limits::min_grid_point_budget, limits::max_grid_point_budget);
        limits::check_range("calibrate", "refine_grid_points", refine_grid_points, limits::min_grid_point_budget,
                            static_cast<std::size_t>((limits::max_memory_budget_mib << 20) / calibration_grid_bytes_per_point));
        if (!probes.is_none())
          for (nb::handle p : probes) options.probes.push_back(rational(p, "probes"));
        if (!progress.is_none())
          options.progress = [progress](const CalibrationProgress& p) {  // the report's words; the front end prints
            nb::gil_scoped_acquire acquire;
            const CalibrationLevel& l = *p.level;
            nb::dict d;
            d["stage"] = p.stage;
            d["value"] = to_string(l.value);
            d["verdict"] = l.verdict == Verdict::holds ? "meets" : l.verdict == Verdict::refuted ? "fails" : "undecided";
            d["rung"] = l.refinements;
            d["last"] = p.last;
            d["grid_point_budget"] = l.grid_point_budget;
            d["grid_resolution"] = l.evidence.grid_resolution;
            d["precision"] = l.evidence.precision;
            d["cpu_seconds"] = p.cpu_seconds;
            d["refinement_stop"] = l.refinement_stop;
            progress(d);
          };
        options.audit.grid_resolution_max = grid_resolution;
        options.audit.grid_point_budget = grid_points;
        options.refine_grid_point_limit = refine_grid_points;
        options.audit.plan.memory_budget = max_memory;
        nb::gil_scoped_release release;
        return calibration_report_json(calibrate(family, target, options), digits);
      },
      nb::arg("family"), nb::arg("epsilon"), nb::arg("delta"), nb::arg("times"), nb::arg("sampling_rate").none(),
      nb::arg("relative_width"), nb::arg("witness") = "epsilon", nb::arg("max_levels") = CalibrationOptions{}.max_levels,
      nb::arg("digits") = 10, nb::arg("grid_resolution") = AuditOptions{}.grid_resolution_max,
      nb::arg("grid_points") = AuditOptions{}.grid_point_budget, nb::arg("max_memory") = default_memory_budget,
      nb::arg("refine_grid_points") = CalibrationOptions{}.refine_grid_point_limit, nb::arg("direction") = "both",
      nb::arg("probes") = nb::none(), nb::arg("progress") = nb::none(),
      "The report of `exactdp calibrate --json` (docs/calibration.md) as JSON text; direction 'both' (add/remove)\n"
      "or 'replace' (replace-one, accounting/replace_one.hpp); probes: levels judged first; progress: called with a\n"
      "dict per judgement of a level (CalibrationOptions::progress).");

  m.attr("default_memory_budget") = default_memory_budget;

  // The bounds of core/limits.hpp, read by the Python layer (one number, one place).
  nb::module_ lim = m.def_submodule("limits", "The limits of src/exactdp/core/limits.hpp (each documented there), and the\n"
                                          "library's defaults of the options they bound (default_*).");
  lim.attr("max_input_bytes") = limits::max_input_bytes;
  lim.attr("max_states") = limits::max_states;
  lim.attr("max_messages") = limits::max_messages;
  lim.attr("max_table_cells") = limits::max_table_cells;
  lim.attr("max_rows") = limits::max_rows;
  lim.attr("max_horizon") = limits::max_horizon;
  lim.attr("max_rational_bits") = limits::max_rational_bits;
  lim.attr("max_memory_budget_mib") = limits::max_memory_budget_mib;
  lim.attr("min_digits") = limits::min_digits;
  lim.attr("max_digits") = limits::max_digits;
  lim.attr("min_grid_resolution") = limits::min_grid_resolution;
  lim.attr("max_grid_resolution") = limits::max_grid_resolution;
  lim.attr("min_grid_point_budget") = limits::min_grid_point_budget;
  lim.attr("max_grid_point_budget") = limits::max_grid_point_budget;
  lim.attr("min_claim_precision") = limits::min_claim_precision;
  lim.attr("max_claim_precision") = limits::max_claim_precision;
  lim.attr("max_composition_uses") = max_composition_uses;
  // The defaults of those options, kept by the library in its option structs (the CLI reads them
  // there too): Python's keyword arguments take them from here.
  lim.attr("default_grid_resolution") = AuditOptions{}.grid_resolution_max;
  lim.attr("default_grid_point_budget") = AuditOptions{}.grid_point_budget;
  lim.attr("default_grid_max_points") = GridOptions{}.max_points;
  lim.attr("default_calibration_levels") = CalibrationOptions{}.max_levels;
  lim.attr("default_claim_precision") = ClaimCheckOptions{}.max_precision;

  // The one planner binding: a composition question answered by the library's one entry point
  // (accounting/composition_query.hpp: components assembled, the route planned under max_memory,
  // refined to relative_width or refused), as `exactdp compose` asks it. components: (spec str |
  // PrivacyLoss, times, rate text | "mixture:…" | None). Returns the answer with its route.
  m.def(
      "_composition_of",
      [](const std::vector<ComponentTuple>& components, nb::handle delta, nb::handle epsilon, long precision,
         std::uint64_t max_memory, const std::string& direction, nb::handle sampling_rate, nb::handle relative_width,
         bool per_direction) {
        const NeighbourChoice relation = parse_neighbour_relation(direction, "composition");
        if (delta.is_none() == epsilon.is_none())
          throw Error("composition", "delta", "", "give exactly one of delta (for epsilon) or epsilon (for delta)");
        std::optional<Rational> width;
        if (!relative_width.is_none()) width = rational(relative_width, "relative_width");
        CompositionQueryOptions options;
        options.plan.memory_budget = max_memory;
        options.precision = precision;
        options.names = python_names();
        const CompositionQuery query(python_components(components, sampling_rate, relation, max_memory), options);
        const bool want_epsilon = !delta.is_none();
        const Rational at = want_epsilon ? read_delta(to_string(rational(delta, "delta")), "delta")
                                         : read_profile_epsilon(to_string(rational(epsilon, "epsilon")), "epsilon");
        CompositionAnswer answer;
        {
          nb::gil_scoped_release release;
          answer = want_epsilon ? query.least_epsilon(at, relation.direction, width)
                                : query.delta_at_epsilon(at, relation.direction, width);
        }
        nb::dict out;
        out["route"] = to_string(answer.plan.route);
        out["reason"] = answer.plan.reason;
        out["method"] = answer.method;
        out["precision"] = answer.precision;
        if (answer.plan.route == CompositionRoute::grid_bracket) out["resolution"] = answer.resolution;
        const char* key = want_epsilon ? "epsilon" : "delta";
        auto value = [&](const CompositionAnswer& a) -> nb::object {
          if (want_epsilon && !a.value.lower_is_finite()) return nb::make_tuple(infinity(), infinity());
          return interval(a.value);
        };
        out[key] = value(answer);
        if (per_direction) {  // the two divergences of the (replace-one) pairs, each asked of the same query
          for (const NeighbourDirection d : {NeighbourDirection::remove, NeighbourDirection::add}) {
            CompositionAnswer one;
            {
              nb::gil_scoped_release release;
              one = want_epsilon ? query.least_epsilon(at, d, width) : query.delta_at_epsilon(at, d, width);
            }
            nb::dict entry;
            entry[key] = value(one);
            out[d == NeighbourDirection::remove ? "remove" : "add"] = entry;
          }
        }
        return out;
      },
      nb::arg("components"), nb::arg("delta") = nb::none(), nb::arg("epsilon") = nb::none(), nb::arg("precision") = 128,
      nb::arg("max_memory") = default_memory_budget, nb::arg("direction") = "both", nb::arg("sampling_rate") = nb::none(),
      nb::arg("relative_width") = nb::none(), nb::arg("per_direction") = false,
      "The library's answer (accounting/composition_query.hpp) for a composition of (SPEC | PrivacyLoss, times,\n"
      "rate | 'mixture:...' | None) components, Poisson-subsampled at sampling_rate on top: {'route', 'reason',\n"
      "'method', 'precision', 'epsilon' or 'delta': (lo, hi), and 'resolution' on the grid route}. Pairs are\n"
      "estimated under max_memory like specs. direction: 'both' (max), 'remove' H(P||Q), 'add' H(Q||P), P the\n"
      "law with the record, or 'replace' (the replace-one pairs, accounting/replace_one.hpp). relative_width:\n"
      "refined until hi - lo <= width * hi (finer grids, or more precision; refused when unreachable).\n"
      "per_direction: also {'remove': {...}, 'add': {...}}, each direction's value of the same composition.");

  m.def("replace_one_subsampling_reason", &replace_one_subsampling_reason,
        "Why replace-one under Poisson subsampling is refused (accounting/replace_one.hpp), one sentence.");

  // Rényi divergence of a composition (composed_renyi: per direction, subsampled mechanisms certified).
  m.def(
      "_composed_renyi",
      [](const std::vector<ComponentTuple>& components, nb::handle alpha, long precision, const std::string& direction,
         nb::handle sampling_rate) -> nb::object {
        const NeighbourChoice relation = parse_neighbour_relation(direction, "renyi");
        const NeighbourDirection dir = relation.direction;
        const Rational a = rational(alpha, "alpha");
        const std::vector<CompositionComponent> comps = python_components(components, sampling_rate, relation);
        std::optional<Interval> d;
        {
          nb::gil_scoped_release release;
          d = composed_renyi(comps, a, precision, dir);
        }
        if (!d) return nb::make_tuple(infinity(), infinity());
        return interval(*d);
      },
      nb::arg("components"), nb::arg("alpha"), nb::arg("precision") = 128, nb::arg("direction") = "both",
      nb::arg("sampling_rate") = nb::none(),
      "D_alpha of a composition of (SPEC | PrivacyLoss, times, rate | 'mixture:...' | None) components, Poisson-\n"
      "subsampled at sampling_rate on top, in a direction ('replace': the replace-one pairs), certified: (lo, hi),\n"
      "(inf, inf) for +inf; refused (exactdp.Error) where a direction is not certified.");

  // Live sessions (sample/session.hpp), as `exactdp run`: exact sampling from the spec's tables.
  nb::class_<Session>(m, "Session",
                      "A live session of a spec file's mechanism (as `exactdp run`): send(message) returns the "
                      "answer, drawn exactly from the tables; the state persists and is secret. Randomness: the OS "
                      "CSPRNG, or the deterministic, replayable stream of `seed` (not secret).")
      .def("__init__",
           [](Session* self, const std::string& spec, std::optional<std::string> world, std::optional<std::string> state,
              std::optional<std::string> seed) {
             Game game = load_spec_file(spec);
             std::shared_ptr<BitSource> source;
             if (seed) source = std::make_shared<SeededSource>(*seed);
             else source = std::make_shared<SystemSource>();
             new (self) Session(start_session(game, SessionStart{world, state}, source));
           },
           nb::arg("spec"), nb::kw_only(), nb::arg("world") = nb::none(), nb::arg("state") = nb::none(),
           nb::arg("seed") = nb::none())
      .def("send", [](Session& s, const std::string& message) { return s.send(message).answer; }, nb::arg("message"),
           "Sends one message; returns the answer (a message outside the alphabet raises exactdp.Error).")
      .def_prop_ro("steps", [](const Session& s) { return s.steps(); }, "Messages answered so far.")
      .def("secret_state", [](const Session& s) { return s.state_name(); },
           "The current state's name. Secret in real use: for tests and debugging only.");
}
