// `exactdp calibrate`: the least noise that meets a target (accounting/calibration.hpp). Parses,
// calls calibrate(), prints the report of io/calibration_report.hpp.
#include "commands.hpp"

#include "exactdp/accounting/calibration.hpp"
#include "exactdp/accounting/replace_one.hpp"
#include "exactdp/accounting/verdict.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/io/calibration_report.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

std::string show(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object() && v.contains("lo")) return "[" + v["lo"].get<std::string>() + ", " + v["hi"].get<std::string>() + "]";
  return v.dump();
}

std::string render_level(const json& l, const std::string& key) {
  std::ostringstream os;
  os << "  " << l["verdict"].get<std::string>() << " at " << l["value"].get<std::string>() << " (" << l["mechanism"].get<std::string>()
     << "): " << (key == "true_epsilon" ? "epsilon(delta)" : "delta(epsilon)") << " in " << show(l[key]) << "\n"
     << "    " << l["method"].get<std::string>() << "\n";
  if (l.contains("refinement_stop")) os << "    refinement stopped: " << l["refinement_stop"].get<std::string>() << "\n";
  return os.str();
}

std::string render_text(const json& r) {
  std::ostringstream os;
  const json& t = r["target"];
  const std::string key = r["witness"] == "epsilon" ? "true_epsilon" : "true_delta";
  os << "calibration of " << r["family"].get<std::string>() << " (" << r["parameter"].get<std::string>() << "; more noise is "
     << r["noisier"].get<std::string>() << ") for (" << t["epsilon"].get<std::string>() << ", " << t["delta"].get<std::string>()
     << ")-DP after " << t["times"].get<unsigned long>() << " use(s)";
  if (t.contains("sampling_rate")) os << ", Poisson-subsampled at q = " << t["sampling_rate"].get<std::string>();
  if (t.value("neighbouring", "add-remove") == "replace-one") os << ", replace-one neighbours";
  os << "\nstatus: " << r["status"].get<std::string>() << " (" << r["levels_judged"].get<unsigned>() << " levels judged, "
     << r["refinements"].get<unsigned>() << " refinement(s)): " << r["stop_reason"].get<std::string>() << "\n";
  if (r.contains("bracket"))
    os << "least " << r["parameter"].get<std::string>() << " in [" << r["bracket"]["lo"].get<std::string>() << ", "
       << r["bracket"]["hi"].get<std::string>() << "] = [" << r["bracket_decimal"]["lo"].get<std::string>() << ", "
       << r["bracket_decimal"]["hi"].get<std::string>() << "], relative width " << r["bracket"]["width"].get<std::string>() << "\n";
  if (r.contains("probability"))
    os << "truth probability: " << r["probability"]["meets"].get<std::string>() << " meets, "
       << r["probability"]["fails"].get<std::string>() << " fails\n";
  if (!r["meets"].is_null()) os << render_level(r["meets"], key);
  if (!r["fails"].is_null()) os << render_level(r["fails"], key);
  for (const auto& l : r["probes"]) os << "  probe: " << render_level(l, key).substr(2);
  for (const auto& l : r["undecided_levels"]) os << render_level(l, key);
  os << "monotonicity: " << r["monotonicity"].get<std::string>() << "\n";
  return os.str();
}

/// One line on stderr per judgement of a level (CalibrationOptions::progress): the level, its
/// verdict, the grid budget, resolution and precision of the judgement, and its CPU time.
void print_progress(const CalibrationProgress& p, const std::string& parameter) {
  const CalibrationLevel& l = *p.level;
  const std::string verdict = l.verdict == Verdict::holds ? "meets" : l.verdict == Verdict::refuted ? "fails" : "undecided";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", p.cpu_seconds);
  std::ostringstream os;
  // the value's nearest 10-digit decimal, for reading only (the exact value comes first)
  const mpf_class approx(l.value, 256);
  char decimal[64];
  gmp_snprintf(decimal, sizeof decimal, "%.10Fg", approx.get_mpf_t());
  os << "exactdp: calibrate " << p.stage << " " << parameter << " = " << to_string(l.value) << " (~" << decimal
     << "): " << verdict;
  if (l.refinements > 0) os << " at rung " << l.refinements;
  os << ", grid budget " << l.grid_point_budget << " points";
  if (l.evidence.grid_step) os << ", resolution " << l.evidence.grid_resolution;
  os << ", precision " << l.evidence.precision << " bits, " << seconds << " s CPU";
  if (!p.last) os << "; refining";
  else if (!l.refinement_stop.empty()) os << "; " << l.refinement_stop;
  std::cerr << os.str() << std::endl;
}

}  // namespace

std::function<int()> add_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Find the least noise that makes a composition (epsilon, delta)-DP, as a certified bracket.\n\n"
      "Examples:\n"
      "  exactdp calibrate gauss --epsilon 1 --delta 1e-5\n"
      "  exactdp calibrate gauss --epsilon 1 --delta 1e-5 --times 1000 --sampling-rate 0.01 --relative-width 0.01\n"
      "  exactdp calibrate rr --epsilon 1 --delta 0 --times 10 --json\n\n"
      "FAMILY: gauss (sigma) | laplace (b) | dlaplace (r) | rr (lambda) | krr:k=K (lambda), optionally with fixed\n"
      "keys: gauss:sensitivity=2, dlaplace:sensitivity=3, rr:delta=1/100. The noisier end of the bracket meets the\n"
      "target (certified upper bound on epsilon(delta) or delta(epsilon) at it), the other end fails it (certified\n"
      "lower bound). docs/calibration.md. Exit code 0 bracketed, 3 undecided or not found, 2 bad input.");
  auto family = std::make_shared<std::string>();
  auto epsilon = std::make_shared<std::string>();
  auto delta = std::make_shared<std::string>();
  auto times = std::make_shared<unsigned long>(1);
  auto rate = std::make_shared<std::string>();
  auto width = std::make_shared<std::string>("1/1000");
  auto witness = std::make_shared<std::string>("epsilon");
  auto json_output = std::make_shared<bool>(false);
  auto digits = std::make_shared<int>(10);
  auto max_levels = std::make_shared<unsigned>(CalibrationOptions{}.max_levels);
  auto resolution = std::make_shared<unsigned>(AuditOptions{}.grid_resolution_max);
  auto budget = std::make_shared<std::size_t>(AuditOptions{}.grid_point_budget);
  auto refine_limit = std::make_shared<std::size_t>(CalibrationOptions{}.refine_grid_point_limit);
  auto max_memory_mib = std::make_shared<std::uint64_t>(default_memory_budget >> 20);
  cmd->add_option("FAMILY", *family, "gauss, laplace, dlaplace, rr or krr:k=K, optionally with fixed keys")->required();
  cmd->add_option("--epsilon", *epsilon, "The target epsilon (exact decimal, e.g. 1 or 0.5)")->required();
  cmd->add_option("--delta", *delta, "The target delta, e.g. 1e-5 (0: pure DP)")->required();
  cmd->add_option("--times,-k", *times, "Number of uses (default 1; " + range_text(1ul, max_composition_uses) + ")")
      ->check(CLI::Range(1ul, max_composition_uses));
  cmd->add_option("--sampling-rate", *rate, "Poisson subsampling at this rate before each use (add/remove), e.g. 0.01");
  auto direction = std::make_shared<std::string>("both");
  cmd->add_option("--direction", *direction,
                  "Neighbouring relation of the target: both (add/remove, default; its two directions coincide for every "
                  "calibrated family) or replace (replace-one: additive noise at twice the sensitivity, randomized "
                  "response as it is; refused with --sampling-rate below 1, accounting/replace_one.hpp)")
      ->check(CLI::IsMember({"both", "replace"}));
  cmd->add_option("--relative-width", *width, "Stop when (hi - lo)/lo is at most this (default 1/1000)");
  cmd->add_option("--witness", *witness, "Judge each level by epsilon(delta) (default) or delta(epsilon)")
      ->check(CLI::IsMember({"epsilon", "delta"}));
  cmd->add_option("--max-levels", *max_levels, "The most noise levels judged (default " + std::to_string(CalibrationOptions{}.max_levels) + ")")->check(CLI::Range(2u, 100000u));
  cmd->add_flag("--json", *json_output, "Machine-readable output (docs/calibration.md)");
  cmd->add_option("--digits", *digits, digits_help())
      ->check(CLI::Range(limits::min_digits, limits::max_digits))
      ->default_val(10);
  cmd->add_option("--max-memory", *max_memory_mib, "Memory budget in MiB of a composed privacy-loss distribution (default 1024)")
      ->check(CLI::Range(std::uint64_t{1}, limits::max_memory_budget_mib));
  cmd->add_option("--grid-resolution", *resolution,
                  "Grid brackets: the highest resolution tried at each level (as exactdp audit; " +
                      range_text(limits::min_grid_resolution, limits::max_grid_resolution) + ")")
      ->check(CLI::Range(limits::min_grid_resolution, limits::max_grid_resolution));
  cmd->add_option("--grid-points", *budget,
                  "Grid brackets: the size budget at each level (as exactdp audit; " +
                      range_text(limits::min_grid_point_budget, limits::max_grid_point_budget) + ")")
      ->check(CLI::Range(limits::min_grid_point_budget, limits::max_grid_point_budget));
  cmd->add_option("--refine-grid-points", *refine_limit,
                  "A level still undecided is judged again with 4 times the grid budget, twice the resolution and twice "
                  "the precision, until decided or the budget reaches this (default " +
                      std::to_string(CalibrationOptions{}.refine_grid_point_limit) + "; at least " +
                      std::to_string(limits::min_grid_point_budget) + "; at most --grid-points: no refinement). A rung whose "
                      "memory estimate (" + std::to_string(calibration_grid_bytes_per_point) +
                      " bytes per point) exceeds --max-memory is not run; above " + std::to_string(limits::max_grid_point_budget) +
                      " the limit itself must fit --max-memory (e.g. 45000000 with --max-memory 22000)")
      ->check(CLI::Range(limits::min_grid_point_budget,
                         static_cast<std::size_t>((limits::max_memory_budget_mib << 20) / calibration_grid_bytes_per_point)));
  auto probes = std::make_shared<std::vector<std::string>>();
  cmd->add_option("--probe", *probes,
                  "Judge this level first (repeatable; exact decimal or p/q), e.g. another accountant's answer: the "
                  "report says whether it meets the target (\"probes\"), and the bracket starts from it");
  auto progress = std::make_shared<bool>(false);
  cmd->add_flag("--progress", *progress,
                "One line on stderr per judgement of a level (value, verdict, grid budget, resolution, precision, CPU "
                "time); on by default when stderr is a terminal");
  return [=]() -> int {
    CalibrationTarget target;
    target.epsilon = read_epsilon(*epsilon, "--epsilon", 100000);
    target.delta = read_delta(*delta, "--delta");
    target.times = *times;
    target.replace_one = parse_neighbour_relation(*direction, "--direction").replace_one;
    if (!rate->empty()) {
      try {
        target.sampling_rate = parse_rational(*rate, "--sampling-rate");
      } catch (const Error& e) {
        throw Error("--sampling-rate", "", *rate, e.why());
      }
    }
    CalibrationOptions options;
    try {
      options.relative_width = parse_rational(*width, "--relative-width");
    } catch (const Error& e) {
      throw Error("--relative-width", "", *width, e.why());
    }
    options.witness = *witness == "delta" ? CalibrationWitness::delta : CalibrationWitness::epsilon;
    options.max_levels = *max_levels;
    options.audit.grid_resolution_max = *resolution;
    options.audit.grid_point_budget = *budget;
    options.refine_grid_point_limit = *refine_limit;
    options.audit.plan.memory_budget = *max_memory_mib << 20;
    for (const std::string& p : *probes) {
      try {
        options.probes.push_back(parse_rational(p, "--probe"));
      } catch (const Error& e) {
        throw Error("--probe", "", p, e.why());
      }
    }
    if (*progress || isatty(STDERR_FILENO)) {
      const std::string parameter = calibration_family(*family).parameter;
      options.progress = [parameter](const CalibrationProgress& p) { print_progress(p, parameter); };
    }
    const CalibrationResult result = calibrate(*family, target, options);
    const json report = json::parse(calibration_report_json(result, *digits));
    if (*json_output) std::cout << report.dump(2) << "\n";
    else std::cout << render_text(report);
    return calibration_exit_code(result);
  };
}

}  // namespace exactdp::cli
