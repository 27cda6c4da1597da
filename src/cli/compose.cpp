// `exactdp compose` and `exactdp profile`.
#include "commands.hpp"
#include "pair_file.hpp"
#include "report.hpp"

#include "exactdp/amplification/poisson.hpp"
#include "exactdp/bounds/composition_bounds.hpp"
#include "exactdp/bounds/gaussian.hpp"
#include "exactdp/bounds/optimal_composition.hpp"
#include "exactdp/bounds/renyi_conversions.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/accounting/mechanism_spec.hpp"

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
};

void add_query_options(CLI::App* cmd, QueryOptions& q) {
  cmd->add_option("--lambda", q.lambdas, "Print δ at λ = e^ε given exactly (repeatable), e.g. 3/2");
  cmd->add_option("--epsilon", q.epsilons, "Print δ at a real ε given as an exact decimal (repeatable), e.g. 0.5");
  cmd->add_option("--delta", q.deltas, "Print the least λ and ε for this δ (repeatable), e.g. 1e-5");
  cmd->add_option("--alpha", q.alphas, "Print the Rényi divergence of order α > 1 (repeatable), e.g. 2");
  cmd->add_flag("--tradeoff", q.tradeoff, "Print the vertices of the f-DP trade-off function T(P, Q)");
  cmd->add_flag("--json", q.json_output, "Machine-readable output: exact values as \"p/q\", certified as {\"lo\",\"hi\"}");
  cmd->add_option("--digits", q.digits, "Significant digits of certified (interval) output")
      ->check(CLI::Range(2, 200))
      ->default_val(10);
}

/// Parses and validates every query value before any work starts.
Requests parse_requests(const QueryOptions& q) {
  Requests r;
  r.digits = q.digits;
  r.tradeoff = q.tradeoff;
  for (const auto& s : q.lambdas) {
    Rational l = parse_rational(s, "--lambda");
    if (l < 1) throw Error("--lambda", "", s, "lambda = e^epsilon must be at least 1");
    r.lambdas.push_back(l);
  }
  for (const auto& s : q.epsilons) {
    Rational e = parse_rational(s, "--epsilon");
    if (sgn(e) < 0) throw Error("--epsilon", "", s, "epsilon must be non-negative");
    if (e > 100000) throw Error("--epsilon", "", s, "epsilon above 100000 is not supported");
    r.epsilons.push_back(e);
  }
  for (const auto& s : q.deltas) {
    Rational d = parse_rational(s, "--delta");
    if (sgn(d) < 0 || d > 1) throw Error("--delta", "", s, "delta must lie in [0, 1]");
    r.deltas.push_back(d);
  }
  for (const auto& s : q.alphas) {
    Rational a = parse_rational(s, "--alpha");
    if (a <= 1) throw Error("--alpha", "", s, "the Renyi order alpha must exceed 1");
    if (a > 10000) throw Error("--alpha", "", s, "Renyi orders above 10000 are not supported");
    r.alphas.push_back(a);
  }
  return r;
}

void emit(const json& report, bool as_json) {
  if (as_json) std::cout << report.dump(2) << "\n";
  else std::cout << render_text(report);
}

/// One component of a composition: a library mechanism or a pair file, used `times` times.
struct Component {
  std::string source;  // the spec text or the file name
  std::optional<MechanismSpec> spec;
  std::optional<PrivacyLoss> pair;  // from a file
  unsigned long times = 1;

  std::optional<PrivacyLoss> exact_loss() const { return pair ? pair : spec->exact_loss(); }
  std::string describe() const { return spec ? spec->describe() : "pair of distributions from " + source; }
};

/// Upper estimate of the memory of the exact composition, in bytes: distinct likelihood ratios
/// times the size of three rationals whose denominators grow linearly with the number of uses.
/// A resource estimate only (it decides nothing about privacy), so floating point is fine here.
double estimated_bytes(const std::vector<Component>& comps) {
  double atoms = 1, bits = 64;
  for (const auto& c : comps) {
    auto loss = c.exact_loss();
    atoms *= static_cast<double>(loss->self_compose_size_bound(c.times));
    std::size_t den_bits = 1;
    for (const auto& a : loss->atoms()) {
      den_bits = std::max(den_bits, mpz_sizeinbase(a.p.get_den_mpz_t(), 2));
      den_bits = std::max(den_bits, mpz_sizeinbase(a.q.get_den_mpz_t(), 2));
    }
    bits += static_cast<double>(den_bits) * static_cast<double>(c.times);
  }
  return atoms * 4 * bits / 8;  // p, q, ratio and the profile's pieces
}

std::string human_bytes(double b) {
  const char* unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  while (b >= 1024 && i < 5) b /= 1024, ++i;
  std::ostringstream os;
  os.precision(3);
  os << b << " " << unit[i];
  return os.str();
}

/// The closed-form bounds for components with a known (λ, δ) guarantee in base form.
json closed_form_bounds(const std::vector<Component>& comps, const Requests& req) {
  json out = json::array();
  std::vector<LambdaDelta> levels;
  for (const auto& c : comps) {
    if (!c.spec) return out;
    auto g = c.spec->dp_guarantee();
    if (!g || !g->epsilon.is_exact()) return out;
    for (unsigned long i = 0; i < c.times; ++i) levels.push_back({g->epsilon.lambda(), g->delta});
  }
  if (levels.empty() || levels.size() > 100000) return out;
  auto basic = basic_composition(levels);
  out.push_back({{"name", "basic composition (DKMMN06)"},
                 {"epsilon", certified(sgn(basic.lambda - 1) == 0 ? Interval(Rational(0)) : log(Interval(basic.lambda, req.precision())), req.digits)},
                 {"delta", to_string(basic.delta)}});
  bool homogeneous = std::all_of(levels.begin(), levels.end(), [&](const LambdaDelta& l) { return l == levels.front(); });
  for (const auto& d : req.deltas) {
    Rational total_delta = 0;
    for (const auto& l : levels) total_delta += l.delta;
    try {
      auto least = optimal_composition_least_lambda(levels, d);
      json e{{"name", "optimal composition (KOV15/MV16)"}, {"delta", to_string(d)}};
      e["epsilon"] = !least ? json("inf") : *least == 1 ? json("0") : certified(log(Interval(*least, req.precision())), req.digits);
      e["note"] = "the least ε over all compositions of mechanisms with these (ε, δ) guarantees";
      out.push_back(e);
    } catch (const Error& e) {
      out.push_back({{"name", "optimal composition (KOV15/MV16)"}, {"note", std::string("not computed: ") + e.why()}});
    }
    if (homogeneous && d > total_delta && sgn(levels.front().lambda - 1) > 0) {
      const auto& l = levels.front();
      Rational dprime = d - total_delta;
      auto adv = advanced_composition(log(Interval(l.lambda, req.precision())), l.delta, levels.size(), dprime);
      out.push_back({{"name", "advanced composition (DRV10)"}, {"delta", to_string(adv.delta)}, {"epsilon", certified(adv.epsilon, req.digits)}});
    }
  }
  return out;
}

json exact_composition(const std::vector<Component>& comps, const Requests& req, bool force) {
  double bytes = estimated_bytes(comps);
  const double limit = 8.0 * 1024 * 1024 * 1024;
  if (bytes > limit && !force)
    throw Error("compose", "", human_bytes(bytes),
                "the exact composition is estimated to need more than 8 GiB; refusing (use --force to try anyway)");
  PrivacyLoss loss = PrivacyLoss::identity();
  for (const auto& c : comps) loss = compose(loss, c.exact_loss()->self_compose(c.times));
  json r = exact_analysis(loss, req);
  r["exact"] = true;
  r["method"] = "exact privacy-loss distribution of the composed pair (rational arithmetic)";
  return r;
}

/// Σ_i times_i·D_α(component i) (Rényi divergences add under composition), certified; nullopt if
/// some component has D_α = ∞.
std::optional<Interval> composed_renyi(const std::vector<Component>& comps, const Rational& alpha, Precision prec) {
  Interval total = Interval::zero(prec);
  for (const auto& c : comps) {
    Interval one = c.pair ? CertifiedLoss::from_exact(*c.pair, prec).renyi_divergence(alpha) : c.spec->renyi(alpha, prec);
    if (!one.lower_is_finite() || !one.upper_is_finite()) return std::nullopt;
    total += one * Interval(static_cast<long>(c.times), prec);
  }
  return total;
}

/// Whether a certified profile exists: every component is finite (certified PLD), or there is a
/// single component whose family answers for this many uses.
bool has_certified_profile(const std::vector<Component>& comps, Precision prec) {
  bool finite = std::all_of(comps.begin(), comps.end(),
                            [&](const Component& c) { return c.pair || c.spec->certified_loss(prec).has_value(); });
  return finite || (comps.size() == 1 && comps.front().spec->supports_composition(comps.front().times));
}

json certified_composition(const std::vector<Component>& comps, const Requests& req) {
  json r;
  r["exact"] = false;
  const Precision prec = req.precision();
  bool finite = std::all_of(comps.begin(), comps.end(),
                            [&](const Component& c) { return c.pair || c.spec->certified_loss(prec).has_value(); });
  std::optional<CertifiedLoss> loss;
  if (finite) {
    r["method"] = "privacy-loss distribution with exact likelihood ratios and certified masses";
    for (const auto& c : comps) {
      CertifiedLoss one = c.pair ? CertifiedLoss::from_exact(*c.pair, prec) : *c.spec->certified_loss(prec);
      CertifiedLoss k = one.self_compose(c.times);
      loss = loss ? compose(*loss, k) : k;
    }
  } else {
    r["method"] = "certified closed form (" + comps.front().spec->describe() + ")";
  }
  const auto& only = comps.front();
  auto delta_at = [&](const Interval& eps) {
    return loss ? loss->delta_at_epsilon(eps) : only.spec->delta_at_epsilon(eps, only.times);
  };
  r["at"] = json::array();
  for (const auto& l : req.lambdas)
    r["at"].push_back({{"lambda", to_string(l)},
                       {"delta", certified(delta_at(l == 1 ? Interval(Rational(0), prec) : log(Interval(l, prec))), req.digits)}});
  for (const auto& e : req.epsilons)
    r["at"].push_back({{"epsilon", to_string(e)}, {"delta", certified(delta_at(Interval(e, prec)), req.digits)}});
  r["least"] = json::array();
  for (const auto& d : req.deltas) {
    Interval eps = loss ? loss->least_epsilon(d) : only.spec->epsilon_at_delta(d, only.times);
    json e{{"delta", to_string(d)}};
    // the point +∞: no finite ε; an upper end of +∞ alone: undecided at this precision
    if (!eps.lower_is_finite()) e["epsilon"] = "inf";
    else e["epsilon"] = certified(eps, req.digits);
    r["least"].push_back(e);
  }
  return r;
}

/// For compositions without a certified profile (discrete Gaussian or Laplace used several times,
/// or mixed with other mechanisms): only Rényi composition, and for each requested δ the RDP
/// conversion of CKS20 Prop 12 — an upper bound on the least ε, reported among the bounds.
json renyi_only_composition(const std::vector<Component>& comps, const Requests& req, bool user_asked_profile) {
  if (user_asked_profile)
    throw Error("compose", "--lambda/--epsilon", "",
                "this composition (dgauss or laplace used more than once, or mixed with other mechanisms) has no exact "
                "or certified profile here; ask for --alpha (Renyi composition) and --delta (an RDP upper bound on epsilon)");
  const Precision prec = req.precision();
  json r;
  r["exact"] = false;
  r["method"] = "Rényi composition (divergences add); no exact or certified profile exists here for this composition";
  std::vector<Rational> grid = req.alphas;
  if (grid.empty())
    for (long a : {2L, 3L, 4L, 6L, 8L, 12L, 16L, 24L, 32L, 48L, 64L}) grid.push_back(Rational(a));
  std::vector<RdpGuarantee> curve;
  for (const auto& a : grid) {
    auto d = composed_renyi(comps, a, prec);
    if (d) curve.push_back({a, *d});
  }
  json bounds = json::array();
  for (const auto& d : req.deltas) {
    if (curve.empty() || sgn(d) == 0) continue;
    auto best = best_rdp_to_dp_epsilon(curve, d);
    bounds.push_back({{"name", "RDP conversion (CKS20 Prop 12)"},
                      {"delta", to_string(d)},
                      {"epsilon", certified(best.value, req.digits)},
                      {"note", "an upper bound on the least epsilon at alpha = " + to_string(best.alpha) + ", not the exact value"}});
  }
  if (!bounds.empty()) r["bounds"] = bounds;
  r["notes"] = json::array({"no profile: δ(ε) and the least ε are not available for this composition; the RDP bound is sound but not tight"});
  return r;
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
      "  dlaplace:r=R[,sensitivity=S] | dlaplace:epsilon=E[,sensitivity=S] | dgauss:sigma2=V[,sensitivity=S] |\n"
      "  laplace:b=B[,sensitivity=S] | gauss:sigma=V[,sensitivity=S]. Numbers are exact: 0.1 means 1/10.\n"
      "--times K applies to the --mechanism or --pair just before it.");
  auto opts = std::make_shared<QueryOptions>();
  auto mechanisms = std::make_shared<std::vector<std::string>>();
  auto pairs = std::make_shared<std::vector<std::string>>();
  auto times = std::make_shared<std::vector<unsigned long>>();
  auto force = std::make_shared<bool>(false);
  auto* mech_opt = cmd->add_option("--mechanism,-m", *mechanisms, "A library mechanism SPEC (repeatable)");
  auto* pair_opt = cmd->add_option("--pair", *pairs, "A JSON file with a pair of distributions {\"P\": {...}, \"Q\": {...}} (repeatable)");
  auto* times_opt = cmd->add_option("--times,-k", *times, "Number of uses of the preceding mechanism (default 1)")
                        ->check(CLI::Range(1ul, 100000000ul));
  cmd->add_flag("--force", *force, "Run even when the exact composition is estimated to exceed 8 GiB");
  auto samplings = std::make_shared<std::vector<std::string>>();
  auto* sampling_opt = cmd->add_option("--sampling", *samplings,
                                       "poisson:q=R: Poisson subsampling at rate R of the preceding mechanism (exact tables only; "
                                       "add/remove pair of exactdp/amplification/poisson.hpp)");
  add_query_options(cmd, *opts);
  return [=]() -> int {
    Requests req = parse_requests(*opts);
    const bool user_asked_profile = !req.lambdas.empty() || !req.epsilons.empty();
    if (req.lambdas.empty() && req.epsilons.empty() && req.deltas.empty() && req.alphas.empty()) {
      req.lambdas.push_back(1);                           // total variation
      req.deltas.push_back(Rational(1, 100000));          // a conventional δ
    }
    // Pair each --times with the mechanism or pair before it, in command-line order.
    std::vector<Component> comps;
    std::size_t mi = 0, pi = 0, ti = 0, si = 0;
    bool times_given = false;
    for (const CLI::Option* o : cmd->parse_order()) {
      if (o == mech_opt) {
        const std::string& s = (*mechanisms)[mi++];
        try {
          comps.push_back({s, parse_mechanism_spec(s), std::nullopt, 1});
        } catch (const Error& e) {
          throw e.in("--mechanism");
        }
        times_given = false;
      } else if (o == pair_opt) {
        const std::string& f = (*pairs)[pi++];
        comps.push_back({f, std::nullopt, read_pair_file(f), 1});
        times_given = false;
      } else if (o == sampling_opt) {
        const std::string& text = (*samplings)[si++];
        if (comps.empty()) throw Error("--sampling", "", text, "--sampling must follow a --mechanism or --pair");
        const std::string prefix = "poisson:q=";
        if (text.rfind(prefix, 0) != 0) throw Error("--sampling", "", text, "expected poisson:q=R with 0 < R <= 1");
        Rational rate;
        try {
          rate = parse_rational(text.substr(prefix.size()), "q");
        } catch (const Error& e) {
          throw Error("--sampling", "q", text, e.why());
        }
        if (sgn(rate) <= 0 || rate > 1) throw Error("--sampling", "q", text, "the sampling rate must lie in (0, 1]");
        Component& c = comps.back();
        auto loss = c.exact_loss();
        if (!loss)
          throw Error("--sampling", "", c.source,
                      "Poisson subsampling needs exact tables here (rr:lambda, krr:lambda, dlaplace:r or a pair file); "
                      "for gauss use exactdp audit with \"sampling\"");
        if (!(loss->swapped() == *loss))
          throw Error("--sampling", "", c.source, "Poisson subsampling of an asymmetric pair is not supported");
        c.pair = poisson_subsample(*loss, rate);
        c.source += " Poisson-subsampled at q = " + to_string(rate) + " (add/remove)";
        c.spec.reset();
      } else if (o == times_opt) {
        unsigned long k = (*times)[ti++];
        if (comps.empty()) throw Error("--times", "", std::to_string(k), "--times must follow a --mechanism or --pair");
        if (times_given) throw Error("--times", "", std::to_string(k), "two --times for the same mechanism");
        comps.back().times = k;
        times_given = true;
      }
    }
    if (comps.empty()) throw Error("compose", "", "", "nothing to compose: give at least one --mechanism or --pair");
    bool all_exact = std::all_of(comps.begin(), comps.end(), [](const Component& c) { return c.exact_loss().has_value(); });
    json r;
    if (all_exact) {
      r = exact_composition(comps, req, *force);
    } else if (has_certified_profile(comps, req.precision())) {
      r = certified_composition(comps, req);
    } else {
      r = renyi_only_composition(comps, req, user_asked_profile);
    }
    if (!all_exact) {
      r["renyi"] = json::array();
      for (const auto& a : req.alphas) {
        auto d = composed_renyi(comps, a, req.precision());
        if (!d) {
          r["renyi"].push_back({{"alpha", to_string(a)}, {"moment", "inf"}, {"epsilon", "inf"}});
          continue;
        }
        r["renyi"].push_back({{"alpha", to_string(a)},
                              {"moment", certified(exp(*d * Interval(Rational(a - 1), req.precision())), req.digits)},  // Φ_α = e^{(α−1)D_α}
                              {"epsilon", certified(*d, req.digits)}});
      }
    }
    r["command"] = "compose";
    r["digits"] = req.digits;
    r["title"] = "exactdp compose";
    r["components"] = json::array();
    for (const auto& c : comps)
      r["components"].push_back({{"source", c.source}, {"times", c.times}, {"description", c.describe()}});
    json bounds = closed_form_bounds(comps, req);
    if (r.contains("bounds"))
      for (const auto& b : r["bounds"]) bounds.push_back(b);
    if (!bounds.empty()) r["bounds"] = bounds;
    emit(r, opts->json_output);
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
  cmd->add_option("--max-nodes", game->max_nodes, "(mechanism specs) refuse games with more distinct belief pairs");
  cmd->add_option("--max-memory", game->max_memory_mib, "(mechanism specs) the engine's memory budget in MiB (default 8192)");
  cmd->add_option("--threads", game->threads, "(mechanism specs) worker threads of the search (default 0: all cores)");
  cmd->add_flag("--stats", game->stats, "(mechanism specs) print engine statistics");
  cmd->add_option("--adversary", game->adversary, "(mechanism specs) adaptive (default), oblivious or sequential");
  return [=]() -> int {
    if (is_mechanism_spec_file(*file)) {
      if (!opts->epsilons.empty())
        throw Error("--epsilon", "", opts->epsilons.front(),
                    "for mechanism specs give --lambda (exact), or use `exactdp check --epsilon`");
      SpecProfileRequest r = *game;
      r.lambdas = opts->lambdas;
      r.deltas = opts->deltas;
      r.alphas = opts->alphas;
      r.json_output = opts->json_output;
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
    return 0;
  };
}

}  // namespace exactdp::cli
