// `exactdp theorems`: the theorem registry of proofs_checks/ — list, check, and generate the pages.
#include "commands.hpp"

#include "exactdp/core/error.hpp"
#include "proofs_checks/registry.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;
using namespace exactdp::proofs;

std::string pad(const std::string& s, std::size_t width) {
  // width in code points (the ids and kinds are ASCII; results may carry none)
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n >= width ? s + " " : s + std::string(width - n, ' ');
}

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2fs", s);
  return buf;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!f) throw Error(path.string(), "", "", "cannot write this file");
  f << text;
}

}  // namespace

std::function<int()> add_theorems(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "theorems",
      "The theorem registry: every checkable theorem of the catalogue (THEOREMS.md part C), its\n"
      "statement and its machine-check. Without a subcommand, lists the registry.\n\n"
      "Examples:\n"
      "  exactdp theorems\n"
      "  exactdp theorems check\n"
      "  exactdp theorems check BG-KOV15-OPT --random 200 --seed 7 --json\n"
      "  exactdp theorems docs --out spec/theorems --doxygen docs/theorems.md");
  cmd->require_subcommand(0, 1);
  auto* check = cmd->add_subcommand(
      "check",
      "Run the checks (all, or the named IDs) and print one row per theorem: ID, kind, instances\n"
      "checked, largest horizon, result, time. Counterexamples are printed in full.\n"
      "Exit 0: every POSITIVE check held and every NEGATIVE check reproduced its counterexample;\n"
      "1: a violation or a counterexample not reproduced; 2: bad input (e.g. an unknown ID, or a\n"
      "--max-horizon whose games exceed the engine's limit: the row says REFUSED).");
  auto* docs = cmd->add_subcommand(
      "docs",
      "Generate spec/theorems/<ID>.md for every registered theorem, the index README.md, and the\n"
      "Doxygen theorem index page, from the registry (outcomes at the small budget, default seed).");
  struct Options {
    std::vector<std::string> ids;
    unsigned random = 0, max_horizon = 0;
    std::uint64_t seed = Budget{}.seed;
    std::string budget = "default", out = "spec/theorems", doxygen = "docs/theorems.md";
    bool json_output = false, verbose = false;
  };
  auto o = std::make_shared<Options>();
  check->add_option("ID", o->ids, "Theorem IDs (default: all)");
  check->add_option("--random", o->random, "Random instances per check (default: the budget's)");
  check->add_option("--seed", o->seed, "Seed of the random instances");
  check->add_option("--max-horizon", o->max_horizon, "Largest horizon / number of components (default: the budget's)");
  check->add_option("--budget", o->budget, "small | default | long")->check(CLI::IsMember({"small", "default", "long"}));
  check->add_flag("--json", o->json_output, "Machine-readable output");
  check->add_flag("--verbose", o->verbose, "Also print every named instance and its exact outcome");
  docs->add_option("--out", o->out, "Directory of the theorem pages (default spec/theorems)");
  docs->add_option("--doxygen", o->doxygen, "The Doxygen index page to write (default docs/theorems.md)");

  return [=]() -> int {
    if (docs->parsed()) {
      Budget b;
      b.level = BudgetLevel::small;
      std::vector<CheckResult> results;
      for (const auto& t : registry()) results.push_back(run_check(t, b));
      std::filesystem::create_directories(o->out);
      for (const auto& r : results) write_file(std::filesystem::path(o->out) / (r.theorem->id + ".md"), theorem_page(*r.theorem, r));
      write_file(std::filesystem::path(o->out) / "README.md", theorem_index(results));
      if (!o->doxygen.empty()) write_file(o->doxygen, doxygen_index(results));
      std::cout << "wrote " << results.size() << " theorem pages to " << o->out << "\n";
      return 0;
    }
    if (!check->parsed()) {
      for (const auto& t : registry())
        std::cout << pad(t.id, 22) << pad(to_string(t.kind), 10) << pad(t.check ? "checkable" : t.kind == Kind::note ? "documented only" : "not yet checked", 17)
                  << t.title << "\n";
      return 0;
    }
    std::vector<const Theorem*> selected;
    for (const auto& id : o->ids) {
      const Theorem* t = find_theorem(id);
      if (!t) throw Error("theorems check", "ID", id, "no theorem with this ID is registered (see `exactdp theorems`)");
      selected.push_back(t);
    }
    if (o->ids.empty())
      for (const auto& t : registry()) selected.push_back(&t);
    Budget b;
    b.level = o->budget == "small" ? BudgetLevel::small : o->budget == "long" ? BudgetLevel::extended : BudgetLevel::standard;
    b.random = o->random;
    b.seed = o->seed;
    b.max_horizon = o->max_horizon;

    int exit_code = 0;
    bool refused = false;
    json rows = json::array();
    if (!o->json_output)
      std::cout << pad("ID", 22) << pad("kind", 10) << pad("instances", 18) << pad("horizon", 8) << pad("result", 16)
                << "time\n";
    for (const Theorem* t : selected) {
      const CheckResult r = run_check(*t, b);
      if (r.failed()) exit_code = 1;
      if (r.verdict == Verdict::refused) refused = true;
      if (o->json_output) {
        json inst = json::array();
        for (const auto& i : r.instances) inst.push_back({{"name", i.name}, {"outcome", i.outcome}, {"ok", i.ok}});
        rows.push_back({{"id", t->id},
                        {"kind", to_string(t->kind)},
                        {"status", to_string(t->status)},
                        {"result", to_string(r.verdict)},
                        {"named_instances", r.named_instances},
                        {"random_instances", r.random_instances},
                        {"largest_horizon", r.largest_horizon},
                        {"summary", r.summary},
                        {"seconds", r.seconds},
                        {"instances", inst},
                        {"counterexamples", r.counterexamples},
                        {"notes", r.notes}});
        continue;
      }
      const bool unchecked = r.verdict == Verdict::not_checked || r.verdict == Verdict::documented;
      const std::string inst = unchecked
                                   ? "-"
                                   : std::to_string(r.named_instances) + "+" + std::to_string(r.random_instances) + " random";
      std::cout << pad(t->id, 22) << pad(to_string(t->kind), 10) << pad(inst, 18)
                << pad(r.largest_horizon ? std::to_string(r.largest_horizon) : "-", 8) << pad(to_string(r.verdict), 16)
                << (unchecked ? "-" : seconds(r.seconds)) << "\n";
      if (unchecked || r.verdict == Verdict::refused) std::cout << "    " << r.summary << "\n";
      if (o->verbose)
        for (const auto& i : r.instances) std::cout << "    " << (i.ok ? "ok  " : "FAIL") << " " << i.name << ": " << i.outcome << "\n";
      for (const auto& i : r.instances)
        if (!i.ok && !o->verbose) std::cout << "    FAIL " << i.name << ": " << i.outcome << "\n";
      for (const auto& c : r.counterexamples) std::cout << "    COUNTEREXAMPLE\n" << "      " << c << "\n";
    }
    if (o->json_output)
      std::cout << json{{"seed", b.seed}, {"budget", o->budget}, {"theorems", rows}}.dump(2) << "\n";
    return exit_code == 0 && refused ? 2 : exit_code;
  };
}

}  // namespace exactdp::cli
