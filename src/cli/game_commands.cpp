// `exactdp profile SPEC` (interactive mechanisms) and `exactdp check SPEC`: the game engine on a
// mechanism spec file (spec/mechanisms/README.md), against every adaptive adversary up to a horizon.
#include "commands.hpp"

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/game_json.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/numeric/decide.hpp"
#include "exactdp/numeric/interval.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

std::string show(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

/// Human-readable rendering of the engine's profile report (io/game_json.hpp).
std::string render_game_profile(const json& r, bool stats) {
  std::ostringstream os;
  os << "exactdp profile: " << show(r.value("name", json("mechanism"))) << " — every " << show(r.value("adversary", json("adaptive")))
     << " adversary up to horizon "
     << r["horizon"] << " (neighbours: " << show(r.value("neighbours", json("?"))) << ")\n";
  os << "\nPure DP: worst likelihood ratio " << show(r["pure"]["ratio"]) << " (world 0 vs 1: " << show(r["pure"]["ratio_forward"])
     << ", world 1 vs 0: " << show(r["pure"]["ratio_backward"]) << ")\n";
  if (!r["at"].empty()) {
    os << "\nWorst-case δ(λ) = max over adversaries and directions of H_λ(V₀‖V₁), H_λ(V₁‖V₀)\n";
    for (const auto& e : r["at"])
      os << "  λ = " << show(e["lambda"]) << "   δ = " << show(e["delta"]) << "   (forward " << show(e["delta_forward"])
         << ", backward " << show(e["delta_backward"]) << ")\n";
  }
  if (!r["least_lambda"].empty()) {
    os << "\nLeast λ = e^ε for a target δ (exact)\n";
    for (const auto& e : r["least_lambda"]) os << "  δ = " << show(e["delta"]) << "   λ = " << show(e["lambda"]) << "\n";
  }
  if (!r["renyi"].empty()) {
    os << "\nWorst-case Rényi moment Φ_α (max of both directions)\n";
    for (const auto& e : r["renyi"]) os << "  α = " << show(e["alpha"]) << "   Φ = " << show(e["moment"]) << "\n";
  }
  if (r.contains("tradeoff")) {
    const auto& v = r["tradeoff"]["vertices"];
    os << "\nTrade-off envelope (symmetrised, " << v.size() << " vertices):";
    for (std::size_t i = 0; i < v.size() && i < 10; ++i) os << " (" << show(v[i][0]) << ", " << show(v[i][1]) << ")";
    os << (v.size() > 10 ? " …\n" : "\n");
  }
  if (stats && r.contains("stats"))
    os << "\nStats: " << r["stats"]["nodes_visited"] << " nodes visited, " << r["stats"]["distinct_keys"]
       << " distinct belief pairs, " << r["stats"]["cache_hits"] << " cache hits, peak memory " << r["stats"]["peak_rss_kib"]
       << " KiB (process peak resident set, getrusage ru_maxrss)\n";
  return os.str();
}

std::vector<Rational> parse_all(const std::vector<std::string>& texts, const char* option) {
  std::vector<Rational> out;
  for (const auto& s : texts) out.push_back(parse_rational(s, option));
  return out;
}

/// The engine's progress on stderr, one line a second once a run has lasted two seconds.
void print_progress(const EngineProgress& p) {
  std::ostringstream os;
  os << "exactdp: " << p.phase << " " << static_cast<long>(p.seconds) << " s, ";
  if (std::string(p.phase) == "explore") {
    os << p.keys << " mechanism states to depth " << (p.keys_by_rounds.empty() ? 0 : p.keys_by_rounds.size() - 1);
  } else {
    os << p.keys << " belief pairs (by rounds left:";
    for (std::size_t r = p.keys_by_rounds.size(); r-- > 0;)
      if (p.keys_by_rounds[r] > 0) os << " " << r << ":" << p.keys_by_rounds[r];
    os << "), " << static_cast<long>(p.keys_per_second) << "/s, " << (p.bytes >> 20) << " MiB";
  }
  if (p.estimate > 0) os << ", estimate " << p.estimate << " belief pairs";
  std::cerr << os.str() << std::endl;
}

EngineOptions engine_options(unsigned horizon, std::uint64_t max_nodes, std::uint64_t max_memory_mib, unsigned threads) {
  EngineOptions o;
  if (horizon > 0) o.horizon = horizon;
  o.max_nodes = max_nodes;
  o.max_bytes = max_memory_mib << 20;
  o.threads = threads;
  o.progress = print_progress;
  return o;
}

/// What `check` was asked (the options of add_check).
struct CheckOptions {
  std::string file, lambda, epsilon, delta = "0", renyi_alpha, renyi_epsilon, adversary = "adaptive";
  unsigned horizon = 0;
  std::uint64_t max_nodes = 50'000'000, max_memory_mib = 8192;
  unsigned threads = 0;
  bool json_output = false, stats = false;
};

/// `check --adversary oblivious`: the claim against oblivious adversaries only, from the exact
/// oblivious profile (engine.hpp). No witness tree: the best sequence is reported in the verdict.
int check_oblivious(const Game& game, const CheckOptions& o, const Rational& delta, const EngineOptions& opts, json& out) {
  if (!o.renyi_alpha.empty() || o.lambda.empty())
    throw Error("check", "--adversary", "oblivious", "oblivious adversaries are checked for --lambda claims only");
  Rational lam = parse_rational(o.lambda, "--lambda");
  if (lam < 1) throw Error("--lambda", "", o.lambda, "lambda = e^epsilon must be at least 1");
  auto r = worst_case_profile_oblivious(game, opts);
  const Rational f = r.profile.forward()(lam), b = r.profile.backward()(lam);
  const Rational d = std::max(f, b);
  const bool holds = d <= delta;
  out["claim"] = {{"lambda", to_string(lam)}, {"delta", to_string(delta)}};
  out["verdict"] = holds ? "holds" : "refuted";
  out["horizon"] = opts.horizon.value_or(game.horizon);
  out["delta_forward"] = to_string(f);
  out["delta_backward"] = to_string(b);
  out["delta"] = to_string(d);
  if (o.stats)
    out["stats"] = {{"nodes_visited", r.stats.nodes_visited}, {"distinct_keys", r.stats.distinct_keys},
                    {"cache_hits", r.stats.cache_hits}, {"peak_rss_kib", peak_resident_kib()}};
  if (o.json_output) std::cout << out.dump(2) << "\n";
  else
    std::cout << (holds ? "HOLDS" : "REFUTED") << ": at λ = " << to_string(lam) << " the worst oblivious adversary up to horizon "
              << show(out["horizon"]) << " reaches δ = " << to_string(d) << " (world 0 vs 1: " << to_string(f) << ", world 1 vs 0: "
              << to_string(b) << "); the claim is δ = " << to_string(delta) << ".\n";
  return holds ? 0 : 1;
}

}  // namespace

bool is_mechanism_spec_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return false;  // the pair reader reports the missing file
  json doc = json::parse(in, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() && doc.contains("format") && doc["format"] == "exactdp/1";
}

int profile_mechanism_spec(const std::string& path, const SpecProfileRequest& req) {
  Game game = load_spec_file(path);
  ProfileQuery q;
  q.lambdas = parse_all(req.lambdas, "--lambda");
  for (const auto& l : q.lambdas)
    if (l < 1) throw Error("--lambda", "", to_string(l), "lambda = e^epsilon must be at least 1");
  q.deltas = parse_all(req.deltas, "--delta");
  for (const auto& d : q.deltas)
    if (sgn(d) < 0 || d > 1) throw Error("--delta", "", to_string(d), "delta must lie in [0, 1]");
  q.adversary = parse_adversary_class(req.adversary, "--adversary");
  for (const auto& s : req.alphas) {
    Rational a = parse_rational(s, "--alpha");
    if (a <= 1 || a > 1000) throw Error("--alpha", "", s, "the engine takes Renyi orders 1 < alpha <= 1000");
    // integer orders are exact (B.4); other orders are certified intervals
    if (a.get_den() == 1) q.alphas.push_back(a.get_num().get_ui());
    else q.real_alphas.push_back(a);
  }
  if (q.lambdas.empty() && q.deltas.empty() && q.alphas.empty() && q.real_alphas.empty()) q.lambdas = {Rational(1)};
  q.options = engine_options(req.horizon, req.max_nodes, req.max_memory_mib, req.threads);
  json r = json::parse(profile_report_json(game, q));
  if (req.json_output) std::cout << r.dump(2) << "\n";
  else std::cout << render_game_profile(r, req.stats);
  return 0;
}

std::function<int()> add_check(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check",
      "Check a privacy claim for an interactive mechanism against every adaptive adversary up to the\n"
      "horizon; print the exact δ and, when the claim is false, a witness (the adversary as a decision\n"
      "tree, the event, both exact probabilities). Exit 0: holds, 1: refuted, 2: bad input.\n\n"
      "Examples:\n"
      "  exactdp check spec/mechanisms/mp.json --lambda 4 --delta 1/4\n"
      "  exactdp check spec/mechanisms/sticky-rr.json --epsilon 1.1 --horizon 5\n"
      "  exactdp check spec/mechanisms/mp.json --renyi-alpha 2 --renyi-epsilon 2");
  auto o = std::make_shared<CheckOptions>();
  cmd->add_option("SPEC", o->file, "A mechanism spec file (format exactdp/1)")->required();
  auto* l = cmd->add_option("--lambda", o->lambda, "The claim's λ = e^ε, exact (e.g. 3/2)");
  auto* e = cmd->add_option("--epsilon", o->epsilon, "The claim's ε, an exact decimal (λ = e^ε is certified)");
  l->excludes(e);
  cmd->add_option("--delta", o->delta, "The claim's δ (default 0: pure DP)");
  auto* ra = cmd->add_option("--renyi-alpha", o->renyi_alpha, "Check (α, ε)-RDP instead: the integer order α");
  auto* re = cmd->add_option("--renyi-epsilon", o->renyi_epsilon, "… and the RDP ε");
  ra->needs(re);
  re->needs(ra);
  cmd->add_option("--horizon", o->horizon, "Rounds to play (default: the spec's horizon)");
  cmd->add_option("--max-nodes", o->max_nodes, "Refuse games with more distinct belief pairs than this");
  cmd->add_option("--max-memory", o->max_memory_mib, "The engine's memory budget in MiB (default 8192)");
  cmd->add_option("--threads", o->threads, "Worker threads of the search (default 0: all cores)");
  cmd->add_flag("--json", o->json_output, "Machine-readable output");
  cmd->add_flag("--stats", o->stats, "Print engine statistics (with the process's peak memory)");
  cmd->add_option("--adversary", o->adversary, "adaptive (default), oblivious or sequential (compositions)");
  return [=]() -> int {
    const bool renyi = !o->renyi_alpha.empty();
    if (!renyi && o->lambda.empty() && o->epsilon.empty())
      throw Error("check", "--lambda/--epsilon", "", "give the claim: --lambda L or --epsilon E (with --delta D), or --renyi-alpha/--renyi-epsilon");
    const Rational delta = parse_rational(o->delta, "--delta");
    if (sgn(delta) < 0 || delta > 1) throw Error("--delta", "", o->delta, "delta must lie in [0, 1]");
    const AdversaryClass adversary = parse_adversary_class(o->adversary, "--adversary");
    Game game = load_spec_file(o->file);
    if (adversary == AdversaryClass::sequential) game = sequential_adversaries(game);
    const EngineOptions opts = engine_options(o->horizon, o->max_nodes, o->max_memory_mib, o->threads);
    json out{{"spec", o->file}, {"adversary", to_string(adversary)}};
    if (adversary == AdversaryClass::oblivious) return check_oblivious(game, *o, delta, opts, out);

    if (renyi) {
      Rational a = parse_rational(o->renyi_alpha, "--renyi-alpha");
      if (a.get_den() != 1 || a < 2 || a > 1000) throw Error("--renyi-alpha", "", o->renyi_alpha, "an integer order 2 <= alpha <= 1000");
      Rational eps = parse_rational(o->renyi_epsilon, "--renyi-epsilon");
      if (sgn(eps) < 0) throw Error("--renyi-epsilon", "", o->renyi_epsilon, "must be non-negative");
      auto m = worst_case_renyi_moment(game, a.get_num().get_ui(), opts);
      // claim: Φ_α ≤ e^{(α−1)ε} in both directions, i.e. ln Φ_α ≤ (α−1)ε (decided with certified logs)
      bool holds = false;
      std::string how = "exact";
      if (m.max().is_finite()) {
        Decision d = decide_log_less_equal(m.max().value(), Rational((a - 1) * eps));
        if (d.outcome == Tri::undecided) throw Error("check", "--renyi-epsilon", o->renyi_epsilon, to_string(d));
        holds = d.outcome == Tri::yes;
        how = to_string(d);
      }
      out["claim"] = {{"renyi_alpha", to_string(a)}, {"renyi_epsilon", to_string(eps)}};
      out["verdict"] = holds ? "holds" : "refuted";
      out["moment"] = to_string(m.max());
      out["moment_forward"] = to_string(m.forward);
      out["moment_backward"] = to_string(m.backward);
      out["decided"] = how;
      if (o->json_output) std::cout << out.dump(2) << "\n";
      else
        std::cout << (holds ? "HOLDS" : "REFUTED") << ": worst-case Rényi moment Φ_" << to_string(a) << " = " << to_string(m.max())
                  << (holds ? " ≤ " : " > ") << "e^{(α−1)ε} with ε = " << to_string(eps) << " (" << how << ")\n";
      return holds ? 0 : 1;
    }

    // (ε, δ) claim. A real ε: δ(λ) is non-increasing, so for rational λ_lo ≤ e^ε ≤ λ_hi the claim
    // holds if it holds at λ_lo and is refuted if it fails at λ_hi (THEOREMS.md B.15).
    ClaimCheck verdict;
    std::string lambda_text;
    if (!o->lambda.empty()) {
      Rational lam = parse_rational(o->lambda, "--lambda");
      if (lam < 1) throw Error("--lambda", "", o->lambda, "lambda = e^epsilon must be at least 1");
      verdict = check_approximate_dp(game, lam, delta, opts);
      lambda_text = to_string(lam);
      out["claim"] = {{"lambda", lambda_text}, {"delta", to_string(delta)}};
    } else {
      Rational eps = parse_rational(o->epsilon, "--epsilon");
      if (sgn(eps) < 0) throw Error("--epsilon", "", o->epsilon, "epsilon must be non-negative");
      out["claim"] = {{"epsilon", to_string(eps)}, {"delta", to_string(delta)}};
      bool decided = false;
      for (Precision p = 64; p <= 4096 && !decided; p *= 2) {
        Interval lam = sgn(eps) == 0 ? Interval(Rational(1), p) : exp(Interval(eps, p));
        ClaimCheck at_lo = check_approximate_dp(game, lam.lower(), delta, opts);
        if (at_lo.holds) {
          verdict = at_lo, decided = true, lambda_text = to_string(lam.lower()) + " (≤ e^ε)";
          break;
        }
        ClaimCheck at_hi = check_approximate_dp(game, lam.upper(), delta, opts);
        if (!at_hi.holds) verdict = at_hi, decided = true, lambda_text = to_string(lam.upper()) + " (≥ e^ε)";
      }
      if (!decided) throw Error("check", "--epsilon", o->epsilon, "undecided at precision 4096 (the claim is on the boundary)");
    }
    out["verdict"] = verdict.holds ? "holds" : "refuted";
    out["horizon"] = verdict.horizon;
    out["lambda_used"] = lambda_text;
    out["delta_forward"] = to_string(verdict.delta_forward);
    out["delta_backward"] = to_string(verdict.delta_backward);
    out["delta"] = to_string(std::max(verdict.delta_forward, verdict.delta_backward));
    if (o->stats)
      out["stats"] = {{"nodes_visited", verdict.stats.nodes_visited}, {"distinct_keys", verdict.stats.distinct_keys},
                      {"cache_hits", verdict.stats.cache_hits}, {"peak_rss_kib", peak_resident_kib()},
                      {"memo_bytes", verdict.stats.memo_bytes}, {"mechanism_states", verdict.stats.mechanism_states},
                      {"state_classes", verdict.stats.state_classes}, {"estimate", verdict.stats.estimate}};
    if (verdict.witness) out["witness"] = json::parse(witness_json(game, *verdict.witness));
    if (o->json_output) {
      std::cout << out.dump(2) << "\n";
    } else {
      std::cout << (verdict.holds ? "HOLDS" : "REFUTED") << ": at λ = " << lambda_text << " the worst " << to_string(adversary)
                << " adversary up to horizon " << verdict.horizon << " reaches δ = " << show(out["delta"]) << " (world 0 vs 1: " << show(out["delta_forward"])
                << ", world 1 vs 0: " << show(out["delta_backward"]) << "); the claim is δ = " << to_string(delta) << ".\n";
      if (verdict.witness) std::cout << "\nWitness\n" << verdict.witness->describe(game) << "\n";
      if (o->stats)
        std::cout << "\nStats: " << verdict.stats.nodes_visited << " nodes visited, " << verdict.stats.distinct_keys
                  << " distinct belief pairs, " << verdict.stats.cache_hits << " cache hits, peak memory " << peak_resident_kib()
                  << " KiB (process peak resident set, getrusage ru_maxrss); memo " << (verdict.stats.memo_bytes >> 10) << " KiB, "
                  << verdict.stats.mechanism_states << " mechanism states in " << verdict.stats.state_classes
                  << " bisimulation classes over the levels, estimate " << verdict.stats.estimate << " belief pairs\n";
    }
    return verdict.holds ? 0 : 1;
  };
}

}  // namespace exactdp::cli
