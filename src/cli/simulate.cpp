// `exactdp simulate SPEC --lambda L [--delta D] [--method vw|lyu|lp] [--json]`: builds the
// randomized-response simulator of an interactive mechanism (THEOREMS.md B.8–B.10) and verifies
// it exactly. Exit 0: built and verified; 1: no simulator exists at these parameters (the reason
// names the witness history or the violated invariant); 2: bad input; 3: a simulator was built but
// failed verification (a bug — please report it).
#include "commands.hpp"

#include "exactdp/core/error.hpp"
#include "exactdp/io/spec_file.hpp"
#include "exactdp/reduce/lyu_decomp.hpp"
#include "exactdp/reduce/simulator_lp.hpp"
#include "exactdp/reduce/vw_sim.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

std::string message_name(const LikelihoodTree& t, const MessagePair& p) {
  const auto& ms = t.mechanism->messages();
  return p.identical() ? ms.at(p.world0) : "(" + ms.at(p.world0) + "," + ms.at(p.world1) + ")";
}

json history_json(const LikelihoodTree& t, std::size_t node) {
  json h = json::array();
  for (const auto& [pair, a] : t.history(node)) h.push_back({message_name(t, pair), t.mechanism->answer_name(a)});
  return h;
}

std::string law_text(const std::vector<Rational>& law) {
  std::string s = "(";
  for (std::size_t i = 0; i < law.size(); ++i) s += (i ? ", " : "") + to_string(law[i]);
  return s + ")";
}

json simulator_json(const LikelihoodTree& t, const Simulator& sim, const LyuDecomposition* lyu) {
  json out;
  out["systems"] = json::array();
  for (const auto& s : sim.systems)
    out["systems"].push_back({{"name", s.name}, {"rr_output", s.input.label()},
                              {"weight", {to_string(s.input.weight[0]), to_string(s.input.weight[1])}}});
  out["nodes"] = json::array();
  for (std::size_t n = 0; n < t.nodes.size(); ++n) {
    const auto& node = t.nodes[n];
    json j{{"history", history_json(t, n)},
           {"likelihood", {to_string(node.likelihood[0]), to_string(node.likelihood[1])}}};
    if (lyu) {
      j["lower"] = {to_string(lyu->lower[n][0]), to_string(lyu->lower[n][1])};
      j["bad_mass"] = {to_string(lyu->bad_mass[n][0]), to_string(lyu->bad_mass[n][1])};
    }
    json branches = json::array();
    for (std::size_t q = 0; q < node.branches.size(); ++q) {
      const auto& br = node.branches[q];
      json answers = json::array();
      for (const auto& c : br.children) answers.push_back(t.mechanism->answer_name(c.answer));
      json laws = json::object();
      for (const auto& s : sim.systems) {
        json l = json::array();
        for (const auto& p : s.conditional[n][q]) l.push_back(to_string(p));
        laws[s.name] = l;
      }
      branches.push_back({{"query", message_name(t, br.pair)}, {"answers", answers}, {"conditional", laws}});
    }
    j["branches"] = branches;
    out["nodes"].push_back(j);
  }
  return out;
}

std::string render(const json& r, const LikelihoodTree& t, const Simulator* sim, const LyuDecomposition* lyu) {
  std::ostringstream os;
  os << "exactdp simulate: " << r["name"].get<std::string>() << " — " << r["method_name"].get<std::string>() << " at λ = "
     << r["lambda"].get<std::string>() << ", δ = " << r["delta"].get<std::string>() << " (horizon " << r["horizon"] << ", "
     << t.nodes.size() << " histories)\n";
  if (!sim) {
    os << "\nNO SIMULATOR: " << r["reason"].get<std::string>() << "\n";
    return os.str();
  }
  os << "\nDraw c ← RR(b) once, then run system c. RR outputs and weights (world 0, world 1):\n";
  for (const auto& s : sim->systems)
    os << "  " << s.input.label() << " → " << s.name << "   (" << to_string(s.input.weight[0]) << ", " << to_string(s.input.weight[1])
       << ")\n";
  os << "\nConditional answer laws Pr[a | history, query], answers in the order listed:\n";
  for (std::size_t n = 0; n < t.nodes.size(); ++n) {
    const auto& node = t.nodes[n];
    if (node.branches.empty()) continue;
    os << "  history " << t.describe(n) << "   M = (" << to_string(node.likelihood[0]) << ", " << to_string(node.likelihood[1]) << ")";
    if (lyu) os << "   D = (" << to_string(lyu->bad_mass[n][0]) << ", " << to_string(lyu->bad_mass[n][1]) << ")";
    os << "\n";
    for (std::size_t q = 0; q < node.branches.size(); ++q) {
      const auto& br = node.branches[q];
      os << "    query " << message_name(t, br.pair) << ", answers (";
      for (std::size_t i = 0; i < br.children.size(); ++i) os << (i ? ", " : "") << t.mechanism->answer_name(br.children[i].answer);
      os << "):";
      for (const auto& s : sim->systems) os << "  " << s.name << " " << law_text(s.conditional[n][q]);
      os << "\n";
    }
  }
  const auto& v = r["verification"];
  if (v["verified"].get<bool>())
    os << "\nVERIFIED exactly: " << v["conditionals_checked"] << " conditional laws are probability vectors, and the RR-weighted mixture "
       << "of the systems equals the mechanism's likelihood at all " << v["nodes_checked"] << " histories (" << v["full_histories"]
       << " full) in both worlds.\n";
  else
    os << "\nVERIFICATION FAILED (a bug, please report it): " << v["failure"].get<std::string>() << "\n";
  return os.str();
}

}  // namespace

std::function<int()> add_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "simulate",
      "Build the randomized-response simulator of an interactive mechanism (VW21 Thm 5.2, LYU22 Thm 3,\n"
      "HSV Lemma 4.7) and verify it exactly: draw c <- RR_{eps,delta}(b) once, then answer every query\n"
      "with a system T^c that does not depend on b. Exit 0: built and verified; 1: none exists at these\n"
      "parameters (with the witness history or violated invariant); 2: bad input; 3: built but not\n"
      "verified (a bug).\n\n"
      "Methods: vw (pure, delta = 0), lyu (LYU-DECOMP, lambda > 1), lp (the exact LP of HSV Lemma 4.7,\n"
      "solved by exact polygons up the history tree or by cddlib, see --lp-solver; --irr adds the\n"
      "constraints of HSV Lemma 5.6(2)).\n\n"
      "Examples:\n"
      "  exactdp simulate spec/mechanisms/mp.json --lambda 8\n"
      "  exactdp simulate spec/mechanisms/ma.json --lambda 4 --delta 1/15\n"
      "  exactdp simulate spec/mechanisms/mir-half.json --lambda 2 --delta 1/4 --method lp --irr");
  struct Options {
    std::string file, lambda, delta = "0", method, lp_solver = "subtree";
    unsigned horizon = 0;
    std::uint64_t max_nodes = 200'000;
    bool json_output = false, irr = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("SPEC", o->file, "A mechanism spec file (format exactdp/1)")->required();
  cmd->add_option("--lambda", o->lambda, "λ = e^ε, an exact rational ≥ 1 (e.g. 4 or 3/2)")->required();
  cmd->add_option("--delta", o->delta, "δ in [0, 1] (default 0)");
  cmd->add_option("--method", o->method, "vw | lyu | lp (default: vw when δ = 0, lyu otherwise)");
  cmd->add_flag("--irr", o->irr, "With --method lp: add the IRR constraints (S3) of HSV Lemma 5.6(2)");
  cmd->add_option("--lp-solver", o->lp_solver,
                  "With --method lp: subtree (exact polygons up the history tree, default) or dense (cddlib on the whole LP)");
  cmd->add_option("--horizon", o->horizon, "Rounds (default: the spec's horizon)");
  cmd->add_option("--max-nodes", o->max_nodes, "Refuse history trees with more nodes than this");
  cmd->add_flag("--json", o->json_output, "Machine-readable output");
  return [=]() -> int {
    const Rational lambda = parse_rational(o->lambda, "--lambda");
    if (lambda < 1) throw Error("--lambda", "", o->lambda, "lambda = e^epsilon must be at least 1");
    const Rational delta = parse_rational(o->delta, "--delta");
    if (sgn(delta) < 0 || delta > 1) throw Error("--delta", "", o->delta, "delta must lie in [0, 1]");
    std::string method = o->method.empty() ? (sgn(delta) == 0 ? "vw" : "lyu") : o->method;
    if (method != "vw" && method != "lyu" && method != "lp") throw Error("--method", "", method, "expected vw, lyu or lp");
    if (method == "vw" && sgn(delta) != 0)
      throw Error("--delta", "", o->delta, "VW-SIM simulates pure mechanisms by RR_eps: use --delta 0, or --method lyu / lp");
    if (method == "lyu" && lambda == 1)
      throw Error("--lambda", "", o->lambda, "LYU-DECOMP needs lambda > 1; use --method lp at lambda = 1");
    if (o->irr && method != "lp") throw Error("--irr", "", method, "the IRR constraints belong to --method lp");
    if (o->lp_solver != "subtree" && o->lp_solver != "dense") throw Error("--lp-solver", "", o->lp_solver, "expected subtree or dense");
    Game game = load_spec_file(o->file);
    const LikelihoodTree tree = likelihood_tree(game, o->horizon ? std::optional<unsigned>(o->horizon) : std::nullopt, o->max_nodes);

    std::optional<Simulator> sim;
    std::optional<LyuDecomposition> lyu;
    std::optional<SimulatorRefusal> refusal;
    std::string method_name;
    if (method == "vw") {
      method_name = "VW-SIM (VW21 Thm 5.2)";
      auto b = vw_simulator(tree, lambda);
      if (auto* s = std::get_if<Simulator>(&b)) sim = *s;
      else refusal = std::get<SimulatorRefusal>(b);
    } else if (method == "lyu") {
      method_name = "LYU-DECOMP (LYU22 Thm 3)";
      auto b = lyu_decomposition(tree, lambda, delta);
      if (auto* d = std::get_if<LyuDecomposition>(&b)) lyu = *d, sim = d->simulator;
      else refusal = std::get<SimulatorRefusal>(b);
    } else {
      method_name = o->irr ? "exact LP of HSV Lemma 4.7 with the IRR constraints of Lemma 5.6(2)" : "exact LP of HSV Lemma 4.7";
      SimulatorLpOptions lo;
      lo.irr_constraints = o->irr;
      lo.solver = o->lp_solver == "dense" ? LpSolver::dense : LpSolver::subtree;
      lo.max_nodes = static_cast<std::size_t>(o->max_nodes);
      auto b = lp_simulator(tree, lambda, delta, lo);
      if (auto* s = std::get_if<Simulator>(&b)) sim = *s;
      else refusal = std::get<SimulatorRefusal>(b);
    }

    json r{{"spec", o->file}, {"name", game.name}, {"method", method}, {"method_name", method_name},
           {"lambda", to_string(lambda)}, {"delta", to_string(delta)}, {"horizon", tree.horizon}, {"irr_constraints", o->irr}};
    int code = 0;
    if (refusal) {
      r["built"] = false;
      r["reason"] = refusal->reason;
      if (refusal->node) r["witness_history"] = history_json(tree, *refusal->node);
      code = 1;
    } else {
      r["built"] = true;
      const auto v = verify_simulator(tree, *sim);
      r["verification"] = {{"verified", v.verified}, {"failure", v.failure}, {"nodes_checked", v.nodes_checked},
                           {"full_histories", v.full_histories}, {"conditionals_checked", v.conditionals_checked}};
      r["simulator"] = simulator_json(tree, *sim, lyu ? &*lyu : nullptr);
      code = v.verified ? 0 : 3;
    }
    if (o->json_output) std::cout << r.dump(2) << "\n";
    else std::cout << render(r, tree, sim ? &*sim : nullptr, lyu ? &*lyu : nullptr);
    return code;
  };
}

}  // namespace exactdp::cli
