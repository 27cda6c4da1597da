// `exactdp compose` and `exactdp profile`.
#include "commands.hpp"
#include "pair_file.hpp"
#include "plot_figure.hpp"
#include "report.hpp"

#include "exactdp/amplification/poisson.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/accounting/composition_query.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/accounting/verdict.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <memory>
#include <optional>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

/// The raw text of the options shared by `compose` and `profile`.
struct QueryOptions {
  std::vector<std::string> lambdas, epsilons, deltas, alphas;
  bool json_output = false;
  bool tradeoff = false;
  int digits = 10;
  std::string plot;
  std::string direction = "both";
};

void add_query_options(CLI::App* cmd, QueryOptions& q) {
  cmd->add_option("--lambda", q.lambdas, "Print δ at λ = e^ε > 0 given exactly (repeatable), e.g. 3/2; λ < 1 is ε < 0");
  cmd->add_option("--epsilon", q.epsilons,
                  "Print δ at a real ε given as an exact decimal (repeatable, any sign), e.g. 0.5 or -0.5");
  cmd->add_option("--direction", q.direction,
                  "Which divergence δ reports: both (max, default), remove H(P‖Q) or add H(Q‖P) (docs/json-output.md); "
                  "--json always carries both directions. compose: replace asks the replace-one pair of each mechanism "
                  "(additive noise at twice the sensitivity, randomized response as it is; refused with --sampling "
                  "poisson:q, mixtures and pair files: accounting/replace_one.hpp)")
      ->default_val("both");
  cmd->add_option("--delta", q.deltas, "Print the least λ and ε for this δ (repeatable), e.g. 1e-5");
  cmd->add_option("--alpha", q.alphas, "Print the Rényi divergence of order α > 1 (repeatable), e.g. 2; compose: inf for D_∞");
  cmd->add_flag("--tradeoff", q.tradeoff, "Print the vertices of the f-DP trade-off function T(P, Q)");
  cmd->add_flag("--json", q.json_output, "Machine-readable output: exact values as \"p/q\", certified as {\"lo\",\"hi\"}");
  cmd->add_option("--digits", q.digits, digits_help())
      ->check(CLI::Range(limits::min_digits, limits::max_digits))
      ->default_val(10);
  cmd->add_option("--plot", q.plot, "Draw δ(ε) and the trade-off curve into FILE.png or FILE.svg (docs/plots.md)")->check(plot_file_check());
}

/// Parses and validates every query value before any work starts.
Requests parse_requests(const QueryOptions& q) {
  Requests r;
  r.digits = q.digits;
  r.tradeoff = q.tradeoff;
  r.direction = parse_neighbour_relation(q.direction, "--direction").direction;  // replace: both, of other pairs
  for (const auto& s : q.lambdas) r.lambdas.push_back(read_profile_lambda(s, "--lambda"));
  for (const auto& s : q.epsilons) r.epsilons.push_back(read_profile_epsilon(s, "--epsilon", 100000000));
  for (const auto& s : q.deltas) r.deltas.push_back(read_delta(s, "--delta"));
  for (const auto& s : q.alphas) r.alphas.push_back(read_renyi_order(s, "--alpha", 10000));
  return r;
}

void emit(const json& report, bool as_json) {
  if (as_json) std::cout << report.dump(2) << "\n";
  else std::cout << render_text(report);
}

using Component = CompositionComponent;

/// The bounds as JSON entries: name, delta, epsilon (certified, "inf" or "0"), note.
json bounds_json(const std::vector<CompositionBound>& bounds, const Requests& req) {
  json out = json::array();
  for (const auto& b : bounds) {
    json e{{"name", b.name}};
    if (b.delta) e["delta"] = to_string(*b.delta);
    if (b.epsilon_infinite) e["epsilon"] = "inf";
    else if (b.epsilon_zero) e["epsilon"] = "0";
    else if (b.epsilon) e["epsilon"] = certified(*b.epsilon, req.digits);
    if (!b.note.empty()) e["note"] = b.note;
    out.push_back(e);
  }
  return out;
}

/// The report of a composition along a plan with a profile (accounting/composition_query.hpp).
json profile_report(const CompositionQuery& query, const Requests& req, const std::optional<Rational>& width) {
  const ComposedPrivacy& composed = query.composed();
  json r;
  if (const PrivacyLoss* loss = composed.exact_loss()) {
    r = exact_analysis(*loss, req);
    r["exact"] = true;
    r["method"] = composed.method();
    return r;
  }
  r["exact"] = false;
  r["method"] = composed.method();
  r["direction"] = to_string(req.direction);
  // per direction: the asked value is reused where the directions coincide (symmetric pairs)
  const bool symmetric = composed.symmetric();
  using D = NeighbourDirection;
  // --relative-width refines the asked direction; the other directions are reported as the route
  // gives them (a direction nobody asked for must not refuse the command: the add direction's δ of
  // a subsampled pair may be ~10⁻¹⁵ with a lower end of 0, never within a relative width)
  auto per_direction = [&](json& entry, const char* key, auto value_of, auto to_json) {
    const auto asked = value_of(req.direction, width);
    entry[key] = to_json(asked);
    for (D d : {D::remove, D::add})
      entry[to_string(d)] = {{key, to_json(symmetric || d == req.direction ? asked : value_of(d, std::nullopt))}};
  };
  auto interval_json = [&](const Interval& v) { return certified(v, req.digits); };
  // with --relative-width, "method" names the finest law any answer needed
  std::string method = composed.method();
  std::pair<unsigned, Precision> finest{0, 0};
  auto value = [&](const CompositionAnswer& a) {
    if (std::pair{a.resolution, a.precision} > finest) finest = {a.resolution, a.precision}, method = a.method;
    return a.value;
  };
  r["at"] = json::array();
  for (const auto& l : req.lambdas) {
    json e{{"lambda", to_string(l)}};
    per_direction(e, "delta", [&](D d, const std::optional<Rational>& w) { return value(query.delta_at_lambda(l, d, w)); }, interval_json);
    r["at"].push_back(e);
  }
  for (const auto& x : req.epsilons) {
    json e{{"epsilon", to_string(x)}};
    per_direction(e, "delta", [&](D d, const std::optional<Rational>& w) { return value(query.delta_at_epsilon(x, d, w)); }, interval_json);
    r["at"].push_back(e);
  }
  r["least"] = json::array();
  for (const auto& d : req.deltas) {
    json e{{"delta", to_string(d)}};
    // the point +∞: no finite ε; an upper end of +∞ alone: undecided at this precision
    per_direction(e, "epsilon", [&](D dir, const std::optional<Rational>& w) { return value(query.least_epsilon(d, dir, w)); },
                  [&](const Interval& eps) { return eps.lower_is_finite() ? certified(eps, req.digits) : json("inf"); });
    r["least"].push_back(e);
  }
  r["method"] = method;
  return r;
}

/// Labels a report of replace-one pairs: "direction" is "replace", and each entry of "at" and
/// "least" also carries its value under "replace" (the remove and add values of the replace-one
/// pair, which coincide for every spec family, stay under "remove" and "add").
void mark_replace_one(json& r) {
  r["direction"] = "replace";
  r["neighbouring"] = "replace-one";
  if (r.contains("at"))
    for (auto& e : r["at"]) e["replace"] = {{"delta", e["delta"]}};
  if (r.contains("least"))
    for (auto& e : r["least"]) {
      e["replace"] = {{"epsilon", e["epsilon"]}};
      if (e.contains("lambda")) e["replace"]["lambda"] = e["lambda"];
    }
}

/// For compositions without a certified profile (discrete Gaussian or Laplace used several times,
/// or mixed with other mechanisms): only Rényi composition, and for each requested δ the RDP
/// conversion of CKS20 Prop 12 — an upper bound on the least ε, reported among the bounds.
json renyi_only_composition(const CompositionQuery& query, const Requests& req, bool user_asked_profile) {
  const CompositionPlan& plan = query.plan();
  if (user_asked_profile)
    throw Error("compose", "--lambda/--epsilon", "",
                "this composition has no exact or certified profile here (" + plan.reason +
                    "); ask for --alpha (Renyi composition) and --delta (an RDP upper bound on epsilon), or raise --max-memory");
  json r;
  r["exact"] = false;
  r["method"] = "Rényi composition (divergences add); no exact or certified profile exists here for this composition";
  const json bounds = bounds_json(renyi_conversion_bounds(query.components(), req.alphas, req.deltas, req.precision()), req);
  if (!bounds.empty()) r["bounds"] = bounds;
  r["notes"] = json::array({"no profile: δ(ε) and the least ε are not available for this composition; the RDP bound is sound but not tight"});
  return r;
}

/// --plot: the composed privacy along the same law as the text output, sampled for the figure
/// (plot_figure.hpp).
void plot_composition(const std::string& file, const CompositionQuery& query, const json& r, NeighbourDirection direction) {
  if (!query.plan().has_profile())
    throw Error("--plot", "", file, "this composition has no certified profile to draw (" + query.plan().reason + ")");
  const ComposedPrivacy& composed = query.composed();
  const std::string title = plot_title(r, "exactdp compose");
  if (const PrivacyLoss* loss = composed.exact_loss()) return plot_exact_pair(file, *loss, title, r);
  plot_certified(file, [&](const Interval& e) { return composed.delta_at_epsilon(e, direction); }, title, r);
}

}  // namespace

std::function<int()> add_compose(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "compose",
      "Compose mechanisms (k-fold or heterogeneous) and print their exact privacy.\n\n"
      "Examples:\n"
      "  exactdp compose --mechanism rr:lambda=3/2 --times 100 --delta 1e-5 --epsilon 1\n"
      "  exactdp compose --mechanism rr:lambda=2,delta=1/10 --mechanism rr:lambda=3,delta=1/5 --lambda 2 --tradeoff\n"
      "  exactdp compose --mechanism dlaplace:r=1/2,sensitivity=2 --times 10 --delta 1e-6 --alpha 2 --json\n\n"
      "Mechanisms: rr:lambda=L[,delta=D] | rr:epsilon=E[,delta=D] | krr:k=K,lambda=L |\n"
      "  dlaplace:r=R[,sensitivity=S] | dlaplace:a=A[,sensitivity=S] (r = e^-A) | dlaplace:epsilon=E (sensitivity 1) |\n  dgauss:sigma2=V[,truncation=T][,sensitivity=S] |\n"
      "  laplace:b=B[,sensitivity=S] | gauss:sigma=V[,sensitivity=S]. Numbers are exact: 0.1 means 1/10.\n"
      "--times K applies to the --mechanism or --pair just before it.");
  auto opts = std::make_shared<QueryOptions>();
  auto mechanisms = std::make_shared<std::vector<std::string>>();
  auto pairs = std::make_shared<std::vector<std::string>>();
  auto times = std::make_shared<std::vector<unsigned long>>();
  auto force = std::make_shared<bool>(false);
  auto max_memory_mib = std::make_shared<std::uint64_t>(default_memory_budget >> 20);
  auto* mech_opt = cmd->add_option("--mechanism,-m", *mechanisms, "A library mechanism SPEC (repeatable)");
  auto* pair_opt = cmd->add_option("--pair", *pairs, "A JSON file with a pair of distributions {\"P\": {...}, \"Q\": {...}} (repeatable)");
  auto* times_opt = cmd->add_option("--times,-k", *times, "Number of uses of the preceding mechanism (default 1)")
                        ->check(CLI::Range(1ul, max_composition_uses));
  cmd->add_flag("--force", *force, "Compose exactly whenever the tables are rational, even above the memory budget");
  add_planner_memory_option(cmd, *max_memory_mib);
  auto width_text = std::make_shared<std::string>();
  cmd->add_option("--relative-width", *width_text,
                  "Refine each delta and epsilon until hi - lo <= W * hi, 0 < W < 1 (finer grid brackets intersected, or more "
                  "working precision; refused when the route cannot reach it: accounting/composition_query.hpp)");
  auto samplings = std::make_shared<std::vector<std::string>>();
  auto* sampling_opt = cmd->add_option("--sampling", *samplings,
                                       "poisson:q=R: Poisson subsampling at rate R of the preceding mechanism (exact tables, gauss or "
                                       "laplace; add/remove pair of exactdp/amplification/poisson.hpp); "
                                       "mixture:C=W,...: the record contributes C times the gauss sensitivity with "
                                       "probability W (the rest 0; bounds/gaussian_mixture.hpp)");
  add_query_options(cmd, *opts);
  return [=]() -> int {
    // --alpha inf: the max divergence (composed_max_divergence); the finite orders as for profile
    QueryOptions finite_orders = *opts;
    std::erase_if(finite_orders.alphas, [](const std::string& a) { return a == "inf" || a == "∞"; });
    const bool alpha_infinity = finite_orders.alphas.size() != opts->alphas.size();
    Requests req = parse_requests(finite_orders);
    const bool user_asked_profile = !req.lambdas.empty() || !req.epsilons.empty();
    if (req.lambdas.empty() && req.epsilons.empty() && req.deltas.empty() && req.alphas.empty() && !alpha_infinity) {
      req.lambdas.push_back(1);                           // total variation
      req.deltas.push_back(Rational(1, 100000));          // a conventional δ
    }
    // Each --times and --sampling belongs to the mechanism or pair before it, in command-line order;
    // the library assembles the components (accounting/composition_query.hpp).
    CompositionRequest request;
    request.relation = parse_neighbour_relation(opts->direction, "--direction");
    std::vector<ComponentRequest>& written = request.components;
    std::size_t mi = 0, pi = 0, ti = 0, si = 0;
    bool times_given = false;
    for (const CLI::Option* o : cmd->parse_order()) {
      if (o == mech_opt) {
        const std::string& s = (*mechanisms)[mi++];
        try {
          written.push_back({s, parse_mechanism_spec(s, *max_memory_mib << 20), std::nullopt, 1, std::nullopt, std::nullopt});
        } catch (const Error& e) {
          throw e.in("--mechanism");
        }
        times_given = false;
      } else if (o == pair_opt) {
        const std::string& f = (*pairs)[pi++];
        written.push_back({f, std::nullopt, read_pair_file(f), 1, std::nullopt, std::nullopt});
        times_given = false;
      } else if (o == sampling_opt) {
        const std::string& text = (*samplings)[si++];
        if (written.empty()) throw Error("--sampling", "", text, "--sampling must follow a --mechanism or --pair");
        ComponentRequest& c = written.back();
        const bool mixture = text.rfind("mixture:", 0) == 0;  // the record contributes C times the sensitivity with probability W
        if (mixture ? c.mixture.has_value() : c.sampling_rate.has_value())
          throw Error("--sampling", "", text, "two --sampling of the same kind for the same mechanism");
        if (mixture) {
          c.mixture = text;
          continue;
        }
        try {
          c.sampling_rate = parse_sampling_rate(text);
        } catch (const Error& e) {
          throw e.in("--sampling");
        }
      } else if (o == times_opt) {
        unsigned long k = (*times)[ti++];
        if (written.empty()) throw Error("--times", "", std::to_string(k), "--times must follow a --mechanism or --pair");
        if (times_given) throw Error("--times", "", std::to_string(k), "two --times for the same mechanism");
        written.back().times = k;
        times_given = true;
      }
    }
    if (written.empty()) throw Error("compose", "", "", "nothing to compose: give at least one --mechanism or --pair");
    CompositionQueryOptions options;
    options.plan.memory_budget = *max_memory_mib << 20;
    options.plan.force_exact = *force;
    options.precision = req.precision();
    const CompositionQuery query(composition_components(request), options);
    const CompositionPlan& plan = query.plan();
    const std::vector<Component>& comps = query.components();
    std::optional<Rational> width;
    if (!width_text->empty()) {
      try {
        width = parse_rational(*width_text, "--relative-width");
      } catch (const Error& e) {
        throw Error("--relative-width", "", *width_text, e.why());
      }
    }
    json r = plan.has_profile() ? profile_report(query, req, width) : renyi_only_composition(query, req, user_asked_profile);
    r["plan"] = {{"route", to_string(plan.route)}, {"reason", plan.reason}};
    if (plan.route != CompositionRoute::exact) {
      r["renyi"] = json::array();
      for (const auto& a : req.alphas) {
        auto d = composed_renyi(comps, a, req.precision(), req.direction);
        if (!d) {
          r["renyi"].push_back({{"alpha", to_string(a)}, {"moment", "inf"}, {"epsilon", "inf"}});
          continue;
        }
        r["renyi"].push_back({{"alpha", to_string(a)},
                              {"moment", certified(exp(*d * Interval(Rational(a - 1), req.precision())), req.digits)},  // Φ_α = e^{(α−1)D_α}
                              {"epsilon", certified(*d, req.digits)}});
      }
    }
    if (alpha_infinity) {
      if (!r.contains("renyi")) r["renyi"] = json::array();
      const auto d = composed_max_divergence(comps, req.precision());
      r["renyi"].push_back({{"alpha", "inf"}, {"epsilon", d ? certified(*d, req.digits) : json("inf")}});
    }
    if (request.relation.replace_one) mark_replace_one(r);
    r["command"] = "compose";
    r["digits"] = req.digits;
    r["title"] = "exactdp compose";
    r["components"] = json::array();
    for (const auto& c : comps)
      r["components"].push_back({{"source", c.source}, {"times", c.times}, {"description", c.describe()}});
    json bounds = bounds_json(closed_form_bounds(comps, req.deltas, req.precision()), req);
    if (r.contains("bounds"))
      for (const auto& b : r["bounds"]) bounds.push_back(b);
    if (!bounds.empty()) r["bounds"] = bounds;
    emit(r, opts->json_output);
    if (!opts->plot.empty()) plot_composition(opts->plot, query, r, req.direction);
    return 0;
  };
}

std::function<int()> add_profile(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "profile",
      "Print the exact privacy of a pair of distributions (P, Q), or of an interactive mechanism against\n"
      "every adaptive adversary up to a horizon, read from a JSON file.\n\n"
      "Examples:\n"
      "  exactdp profile spec/mechanisms/examples/rr-pair.json --lambda 2 --delta 1/10 --alpha 2 --tradeoff\n"
      "  exactdp profile spec/mechanisms/mp.json --lambda 2 --delta 1/10 --alpha 2 --stats\n\n"
      "Pair file: {\"format\": \"exactdp-pair/1\", \"P\": {\"yes\": \"3/4\", \"no\": \"1/4\"}, \"Q\": {...}}\n"
      "Mechanism spec file: {\"format\": \"exactdp/1\", ...} (see spec/mechanisms/README.md)");
  auto opts = std::make_shared<QueryOptions>();
  auto file = std::make_shared<std::string>();
  auto game = std::make_shared<SpecProfileRequest>();
  cmd->add_option("FILE", *file, "A pair file or a mechanism spec file")->required();
  add_query_options(cmd, *opts);
  cmd->add_option("--horizon", game->horizon, "(mechanism specs) rounds to play; default: the spec's horizon");
  add_engine_limit_options(cmd, game->max_nodes, game->max_memory_mib, "(mechanism specs) ");
  cmd->add_option("--threads", game->threads, "(mechanism specs) worker threads of the search (default 0: all cores)");
  cmd->add_flag("--stats", game->stats, "(mechanism specs) print engine statistics");
  cmd->add_option("--adversary", game->adversary, "(mechanism specs) adaptive (default), oblivious or sequential");
  auto parametric = std::make_shared<bool>(false);
  cmd->add_flag("--parametric", *parametric,
                "(specs with a parameter) the worst-case pure ratio as a piecewise rational function; with --lambda EXPR\n"
                "(an expression in the parameter) the worst δ(λ(r)) instead; with --alpha A (an integer >= 2) the worst\n"
                "Rényi moment (docs/parametric.md)");
  auto no_cross_check = std::make_shared<bool>(false);
  cmd->add_flag("--no-cross-check", *no_cross_check,
                "With --parametric --lambda/--alpha: skip the numeric engine at each piece's rational sample");
  return [=]() -> int {
    if (opts->direction == "replace")
      throw Error("--direction", "direction", "replace",
                  "profile analyses a given pair (a pair file, or the pairs a spec file's verifier defines), not a "
                  "mechanism: replace-one is asked of a library mechanism, with exactdp compose --direction replace");
    if (*parametric) return profile_parametric(*file, game->horizon, opts->json_output, opts->lambdas, opts->alphas, !*no_cross_check);
    if (is_mechanism_spec_file(*file)) {
      if (!opts->epsilons.empty())
        throw Error("--epsilon", "", opts->epsilons.front(),
                    "for mechanism specs give --lambda (exact), or use `exactdp check --epsilon`");
      if (opts->direction != "both")
        throw Error("--direction", "", opts->direction,
                    "mechanism spec files are profiled over both directions only (the game's verifier defines the pairs)");
      SpecProfileRequest r = *game;
      r.lambdas = opts->lambdas;
      r.deltas = opts->deltas;
      r.alphas = opts->alphas;
      r.json_output = opts->json_output;
      r.plot = opts->plot;
      return profile_mechanism_spec(*file, r);
    }
    Requests req = parse_requests(*opts);
    if (req.lambdas.empty() && req.epsilons.empty() && req.deltas.empty() && req.alphas.empty()) {
      req.lambdas.push_back(1);
      req.tradeoff = true;
    }
    PrivacyLoss loss = read_pair_file(*file);
    json r = exact_analysis(loss, req);
    r["command"] = "profile";
    r["exact"] = true;
    r["digits"] = req.digits;
    r["title"] = "exactdp profile " + *file;
    emit(r, opts->json_output);
    if (!opts->plot.empty()) plot_exact_pair(opts->plot, loss, r["title"].get<std::string>(), r);
    return 0;
  };
}

}  // namespace exactdp::cli
