// `exactdp profile SPEC` (interactive mechanisms) and `exactdp check SPEC`: the game engine on a
// mechanism spec file (spec/mechanisms/README.md), against every adaptive adversary up to a horizon.
#include "commands.hpp"
#include "plot_figure.hpp"

#include "exactdp/accounting/claim_check.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/check_report.hpp"
#include "exactdp/io/game_json.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/numeric/interval.hpp"

#include <nlohmann/json.hpp>

#include <cctype>
#include <fstream>
#include <iomanip>
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

}  // namespace

void add_engine_limit_options(CLI::App* cmd, std::uint64_t& max_nodes, std::uint64_t& max_memory_mib, const std::string& scope) {
  const std::string the = scope.empty() ? "The" : scope + "the";
  cmd->add_option("--max-nodes", max_nodes,
                  the + " game engine's limit on distinct belief pairs (memo entries); a larger game is refused "
                          "(default " + std::to_string(default_engine_max_nodes) + ")");
  cmd->add_option("--max-memory", max_memory_mib,
                  the + " game engine's memory budget for its memo, in MiB; a larger game is refused (default " +
                      std::to_string(default_engine_memory_budget >> 20) + "; not the composition planner's budget)")
      ->check(CLI::Range(std::uint64_t{1}, limits::max_memory_budget_mib));
}

namespace {

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
struct CheckRequest {
  std::string file, adversary = "adaptive";
  GameClaimText claim;
  unsigned horizon = 0;
  std::uint64_t max_nodes = default_engine_max_nodes, max_memory_mib = default_engine_memory_budget >> 20;
  unsigned threads = 0;
  Precision max_precision = ClaimCheckOptions{}.max_precision;
  bool json_output = false, stats = false;
  std::string for_all;        ///< --for-all NAME: λ is an expression in the spec's parameter (parametric.cpp)
  std::string renyi_moment;   ///< --renyi-moment EXPR (with --for-all): the bound on Φ_α
  bool no_cross_check = false;
};

/// Where the run's wall time went (EngineTimings, the figures of `exactdp_engine_scaling --stats`).
std::string phase_timings(const EngineTimings& t) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << "Time: estimate " << t.estimate << " s, compile " << t.compile << " s, setup " << t.setup << " s, search " << t.search
     << " s (" << t.workers << (t.workers == 1 ? " worker" : " workers") << ", " << t.tasks << " tasks), total " << t.total << " s wall\n";
  os.precision(1);
  os << "Serial share: " << 100 * t.serial_fraction() << " % of the work ran with at most one thread working (" << std::setprecision(3)
     << t.serial() << " s: outside the search";
  if (t.busy_recorded) os << ", and " << t.one_busy + t.none_busy << " s of the search with one worker busy or none";
  os << "); Amdahl on 2 cores: " << std::setprecision(2) << t.amdahl_speedup(2) << "x\n";
  return os.str();
}

/// The human-readable verdict (the JSON report is io/check_report.hpp's).
void print_verdict(const Game& game, const GameClaim& claim, const ClaimCheckOptions& options, const ClaimVerdict& v, bool stats) {
  std::string verdict = to_string(v.verdict);
  for (auto& ch : verdict) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (claim.kind == GameClaim::Kind::renyi) {
    const ExtendedRational& m = *v.moment_forward < *v.moment_backward ? *v.moment_backward : *v.moment_forward;
    std::cout << verdict << ": worst-case Rényi moment Φ_" << claim.renyi_alpha << " = " << to_string(m)
              << (v.verdict == Verdict::holds ? " ≤ " : v.verdict == Verdict::refuted ? " > " : " ? ") << "e^{(α−1)ε} with ε = "
              << to_string(claim.renyi_epsilon) << " (" << v.decided << ")\n";
    if (v.verdict == Verdict::undecided) std::cout << "To decide: " << v.to_decide << "\n";
    return;
  }
  const std::string side = v.lambda_side == "below" ? " (≤ e^ε)" : v.lambda_side == "above" ? " (≥ e^ε)" : "";
  const std::string who = to_string(options.adversary);  // the class checked, as chosen
  if (v.verdict == Verdict::undecided) {
    std::cout << "UNDECIDED: e^ε lies in " << v.enclosure->to_string(20) << "; at λ = " << to_string(*v.lambda_used)
              << " (≤ e^ε) the worst " << who << " adversary up to horizon " << v.horizon << " reaches δ = " << to_string(v.delta())
              << " > " << to_string(claim.delta) << ", and at the upper end the claim holds.\nTo decide: " << v.to_decide << "\n";
    return;
  }
  std::cout << verdict << ": at λ = " << to_string(*v.lambda_used) << side << " the worst " << who << " adversary up to horizon "
            << v.horizon << " reaches δ = " << to_string(v.delta()) << " (world 0 vs 1: " << to_string(v.delta_forward)
            << ", world 1 vs 0: " << to_string(v.delta_backward) << "); the claim is δ = " << to_string(claim.delta) << ".\n";
  if (v.witness) std::cout << "\n" << witness_heading(v, claim.delta) << "\n" << v.witness->describe(game) << "\n";
  if (stats)
    std::cout << "\nStats: " << v.stats.nodes_visited << " nodes visited, " << v.stats.distinct_keys << " distinct belief pairs, "
              << v.stats.cache_hits << " cache hits, peak memory " << peak_resident_kib()
              << " KiB (process peak resident set, getrusage ru_maxrss); memo " << (v.stats.memo_bytes >> 10) << " KiB, "
              << v.stats.mechanism_states << " mechanism states in " << v.stats.state_classes
              << " bisimulation classes over the levels, estimate " << v.stats.estimate << " belief pairs\n"
              << phase_timings(v.stats.timings);
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
  for (const auto& l : req.lambdas) q.lambdas.push_back(read_lambda(l, "--lambda"));
  for (const auto& d : req.deltas) q.deltas.push_back(read_delta(d, "--delta"));
  q.adversary = parse_adversary_class(req.adversary, "--adversary");
  for (const auto& s : req.alphas) {
    const Rational a = read_renyi_order(s, "--alpha", 1000);
    // integer orders are exact (B.4); other orders are certified intervals
    if (a.get_den() == 1) q.alphas.push_back(a.get_num().get_ui());
    else q.real_alphas.push_back(a);
  }
  if (q.lambdas.empty() && q.deltas.empty() && q.alphas.empty() && q.real_alphas.empty()) q.lambdas = {Rational(1)};
  q.options = engine_options(req.horizon, req.max_nodes, req.max_memory_mib, req.threads);
  json r = json::parse(profile_report_json(game, q));
  if (req.json_output) std::cout << r.dump(2) << "\n";
  else std::cout << render_game_profile(r, req.stats);
  if (!req.plot.empty()) plot_game(req.plot, game, q, "exactdp profile " + path);
  return 0;
}

std::function<int()> add_check(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check",
      "Check a privacy claim for an interactive mechanism against every adaptive adversary up to the\n"
      "horizon; print the exact δ and, when the claim is false, a witness (the adversary as a decision\n"
      "tree, the event, both exact probabilities). Exit 0: holds, 1: refuted, 2: bad input, 3: undecided.\n\n"
      "Examples:\n"
      "  exactdp check spec/mechanisms/mp.json --lambda 4 --delta 1/4\n"
      "  exactdp check spec/mechanisms/sticky-rr.json --epsilon 1.1 --horizon 5\n"
      "  exactdp check spec/mechanisms/mp.json --renyi-alpha 2 --renyi-epsilon 2");
  auto o = std::make_shared<CheckRequest>();
  cmd->add_option("SPEC", o->file, "A mechanism spec file (format exactdp/1)")->required();
  auto* l = cmd->add_option("--lambda", o->claim.lambda, "The claim's λ = e^ε, exact (e.g. 3/2)");
  auto* e = cmd->add_option("--epsilon", o->claim.epsilon, "The claim's ε, an exact decimal (λ = e^ε is certified)");
  l->excludes(e);
  cmd->add_option("--delta", o->claim.delta, "The claim's δ (default 0: pure DP)");
  auto* ra = cmd->add_option("--renyi-alpha", o->claim.renyi_alpha, "Check (α, ε)-RDP instead: the integer order α");
  auto* re = cmd->add_option("--renyi-epsilon", o->claim.renyi_epsilon, "… and the RDP ε");
  auto* rm = cmd->add_option("--renyi-moment", o->renyi_moment,
                             "With --for-all and --renyi-alpha: the claim sup Φ_α ≤ EXPR, a bound on the Rényi moment as an expression\n"
                             "in the parameter (D_α ≤ ln EXPR/(α−1)), e.g. --renyi-alpha 2 --renyi-moment \"1/r\" --for-all r");
  re->needs(ra);
  rm->needs(ra);
  cmd->add_option("--horizon", o->horizon, "Rounds to play (default: the spec's horizon)");
  add_engine_limit_options(cmd, o->max_nodes, o->max_memory_mib);
  cmd->add_option("--max-precision", o->max_precision,
                  "Bits of e^ε (and of the RDP comparison) beyond which a claim is reported undecided (default " +
                      std::to_string(ClaimCheckOptions{}.max_precision) + "; " +
                      range_text(limits::min_claim_precision, limits::max_claim_precision) + ")")
      ->check(CLI::Range(limits::min_claim_precision, limits::max_claim_precision));
  cmd->add_option("--threads", o->threads, "Worker threads of the search (default 0: all cores)");
  cmd->add_flag("--json", o->json_output, "Machine-readable output");
  cmd->add_flag("--stats", o->stats, "Print engine statistics (with the process's peak memory)");
  cmd->add_option("--adversary", o->adversary, "adaptive (default), oblivious or sequential (compositions)");
  cmd->add_option("--for-all", o->for_all,
                  "Decide the claim for every value of the spec's parameter (docs/parametric.md); --lambda and --delta\n"
                  "are then expressions in it, e.g. --lambda \"r/(1-r)\" --for-all r, or --lambda 2 --delta \"r/10\" --for-all r");
  cmd->add_flag("--no-cross-check", o->no_cross_check,
                "With --for-all: skip the numeric engine at the pieces' samples (pure: holding regions; with δ: every piece's δ)");
  return [=]() -> int {
    if (!o->for_all.empty() && !o->claim.renyi_alpha.empty()) {
      if (!o->claim.lambda.empty() || !o->claim.epsilon.empty() || o->claim.delta != "0")
        throw Error("--renyi-alpha", "", o->claim.renyi_alpha, "give either an (epsilon, delta) claim or a Renyi claim, not both");
      return check_renyi_for_all(o->file, o->for_all, o->claim.renyi_alpha, o->renyi_moment, o->claim.renyi_epsilon, o->horizon,
                                 !o->no_cross_check, o->json_output, o->adversary);
    }
    if (!o->renyi_moment.empty())
      throw Error("--renyi-moment", "", o->renyi_moment,
                  "a bound on the Rényi moment as an expression is a claim for every value of a parameter: add --for-all NAME "
                  "(for one instance, give --renyi-epsilon)");
    if (!o->for_all.empty())
      return check_for_all(o->file, o->for_all, o->claim.lambda, o->claim.epsilon, o->claim.delta, o->horizon, !o->no_cross_check,
                           o->json_output, o->adversary);
    const GameClaim claim = read_game_claim(o->claim, "--");
    ClaimCheckOptions options;
    options.adversary = parse_adversary_class(o->adversary, "--adversary");
    options.engine = engine_options(o->horizon, o->max_nodes, o->max_memory_mib, o->threads);
    // --stats times the workers' busy intervals too (two clock reads per node), for the serial share
    options.engine.record_busy_time = o->stats;
    options.max_precision = o->max_precision;
    const Game game = load_spec_file(o->file);
    const ClaimVerdict verdict = check_claim(game, claim, options);
    if (o->json_output)
      std::cout << json::parse(check_report_json(game, o->file, claim, options, verdict, o->stats)).dump(2) << "\n";
    else print_verdict(game, claim, options, verdict, o->stats);
    return exit_code_of(verdict.verdict);
  };
}

}  // namespace exactdp::cli
