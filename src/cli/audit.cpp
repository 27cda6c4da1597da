// `exactdp audit`: answers each claim of a claims file (exactdp-claims/1) with the exact or
// certified truth and a verdict (the audit is exactdp/accounting/audit.hpp, shared with the Python
// package; reading claims and writing the report is exactdp/io/claims.hpp).
#include "commands.hpp"

#include "exactdp/accounting/composition_plan.hpp"
#include "exactdp/core/limits.hpp"
#include "exactdp/io/claims.hpp"
#include "exactdp/numeric/interval.hpp"
#include "exactdp/numeric/rational.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

/// An exact value as text; a rational of thousands of digits (long exact compositions) is shown by
/// a certified decimal enclosure and its size (--json prints it in full).
std::string show_exact(const std::string& value) {
  constexpr std::size_t longest = 120;
  if (value.size() <= longest) return value;
  const Interval enclosure(parse_rational(value), 64);
  return "in [" + enclosure.lower_string(10) + ", " + enclosure.upper_string(10) + "], an exact rational of " +
         std::to_string(value.size()) + " characters (in full with --json)";
}

std::string show(const json& v) {
  if (v.is_string()) return show_exact(v.get<std::string>());
  if (v.is_object() && v.contains("lo")) return "[" + v["lo"].get<std::string>() + ", " + v["hi"].get<std::string>() + "]";
  return v.dump();
}

/// One block per claim, then the summary.
std::string render_audit_text(const json& report) {
  std::string out;
  for (const auto& r : report["results"]) {
    const bool eps = r.contains("claimed_epsilon");
    out += r["id"].get<std::string>() + ": " + r["verdict"].get<std::string>() + "\n";
    if (r.contains("mechanisms")) {
      std::string parts;
      for (const auto& m : r["mechanisms"])
        parts += (parts.empty() ? "" : " + ") + m["mechanism"].get<std::string>() + " x" + std::to_string(m["times"].get<unsigned long>());
      out += "  " + parts;
    } else {
      out += "  " + r["mechanism"].get<std::string>() + ", " + std::to_string(r["times"].get<unsigned long>()) + " use(s)";
    }
    if (r.contains("neighbouring")) out += ", " + r["neighbouring"].get<std::string>() + " neighbours";
    out += "\n";
    if (r.contains("analysed")) {  // replace-one: the specs whose pairs were audited
      std::string specs;
      for (const auto& s : r["analysed"]) specs += (specs.empty() ? "" : ", ") + s.get<std::string>();
      out += "  judged on the replace-one pair" + std::string(r["analysed"].size() > 1 ? "s " : " ") + specs + "\n";
    }
    if (eps) {
      out += "  at delta = " + r["delta"].get<std::string>() + ": claimed epsilon = " + r["claimed_epsilon"].get<std::string>() +
             ", true epsilon " + (r["true_epsilon"].is_object() ? "in " : "= ") + show(r["true_epsilon"]);
      if (r.contains("true_lambda")) {
        const std::string lambda = show_exact(r["true_lambda"].get<std::string>());
        out += lambda.starts_with("in [") ? " (lambda " + lambda + ")" : " (lambda = " + lambda + " exactly)";
      }
    } else {
      out += "  at epsilon = " + r["epsilon"].get<std::string>() + ": claimed delta = " + r["claimed_delta"].get<std::string>() +
             ", true delta " + (r["true_delta"].is_object() ? "in " : "= ") + show(r["true_delta"]);
    }
    out += "\n";
    if (!r["slack"].is_null())
      out += "  slack: absolute " + show(r["slack"]["absolute"]) + ", relative " +
             (r["slack"]["relative"].is_null() ? std::string("n/a") : show(r["slack"]["relative"])) + "\n";
    const auto p = r["precision"].get<long>();
    const bool grid = r.contains("grid_resolution");
    const std::string where = grid ? "grid resolution " + std::to_string(r["grid_resolution"].get<unsigned>())
                                   : "precision " + std::to_string(p) + " bits";
    out += "  " + r["method"].get<std::string>() + "; " +
           (r["verdict"] == "undecided" ? "undecided at " + where + (grid ? " (raise --grid-resolution)" : "")
            : p == 0                    ? std::string("decided exactly")
                                        : "decided at " + where) +
           "\n";
  }
  const auto& s = report["summary"];
  out += "\n" + std::to_string(s["claims"].get<int>()) + " claim(s): " + std::to_string(s["unsound"].get<int>()) + " unsound, " +
         std::to_string(s["sound"].get<int>()) + " sound, " + std::to_string(s["undecided"].get<int>()) + " undecided\n";
  return out;
}

}  // namespace

void add_planner_memory_option(CLI::App* cmd, std::uint64_t& max_memory_mib) {
  cmd->add_option("--max-memory", max_memory_mib,
                  "The composition planner's memory budget for one composed privacy-loss distribution, in MiB; a route "
                  "estimated above it is replaced by a cheaper certified one; a SPEC whose one-use tables are estimated above "
                  "it is refused when read (default " +
                      std::to_string(default_memory_budget >> 20) + "; not the game engine's budget)")
      ->check(CLI::Range(std::uint64_t{1}, limits::max_memory_budget_mib));
}

std::function<int()> add_audit(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "audit",
      "Check privacy claims (e.g. an accountant's epsilon at a delta) against the exact or certified truth.\n\n"
      "Example:\n"
      "  exactdp audit claims.json --json\n\n"
      "File format: {\"format\": \"exactdp-claims/1\", \"claims\": [{\"id\": \"c1\", \"mechanism\": \"rr:lambda=3/2\",\n"
      "  \"times\": 10, \"delta\": \"1e-5\", \"claimed_epsilon\": \"2.1\"}, ...]} (or \"epsilon\" with \"claimed_delta\").\n"
      "\"neighbouring\": \"add-remove\" (default; the spec's sensitivity) or \"replace-one\" (each mechanism judged on its\n"
      "  replace-one pair: additive noise at twice the sensitivity, randomized response as it is; docs/audit.md).\n"
      "Verdicts: unsound (claims less privacy loss than the truth), sound (with slack), undecided.\n"
      "Exit code 1 when any claim is unsound, else 3 when any is undecided, else 0; 2 for bad input.");
  auto file = std::make_shared<std::string>();
  auto json_output = std::make_shared<bool>(false);
  auto digits = std::make_shared<int>(10);
  cmd->add_option("CLAIMS", *file, "The claims file")->required();
  cmd->add_flag("--json", *json_output, "Machine-readable output: exact values as \"p/q\", certified as {\"lo\",\"hi\"}");
  cmd->add_option("--digits", *digits, digits_help())
      ->check(CLI::Range(limits::min_digits, limits::max_digits))
      ->default_val(10);
  auto resolution = std::make_shared<unsigned>(AuditOptions{}.grid_resolution_max);
  auto budget = std::make_shared<std::size_t>(AuditOptions{}.grid_point_budget);
  auto max_memory_mib = std::make_shared<std::uint64_t>(default_memory_budget >> 20);
  add_planner_memory_option(cmd, *max_memory_mib);
  cmd->add_option("--grid-resolution", *resolution,
                  "Grid brackets (subsampled Gaussian, k-fold Laplace): the highest resolution tried, in grid points per "
                  "standard deviation of the privacy loss (4, 8, ... up to this until decided; each doubling narrows the "
                  "bracket about 4-fold and costs about 4 times the time; " +
                      range_text(limits::min_grid_resolution, limits::max_grid_resolution) + ")")
      ->check(CLI::Range(limits::min_grid_resolution, limits::max_grid_resolution))
      ->default_val(AuditOptions{}.grid_resolution_max);
  cmd->add_option("--grid-points", *budget,
                  "Grid brackets: no doubling of the resolution once a law holds more than half this many points, "
                  "and no law larger than this or " + std::to_string(AuditOptions{}.grid_max_points) +
                      ", whichever is larger (time grows with the square of the size; " +
                      range_text(limits::min_grid_point_budget, limits::max_grid_point_budget) + ")")
      ->check(CLI::Range(limits::min_grid_point_budget, limits::max_grid_point_budget))
      ->default_val(AuditOptions{}.grid_point_budget);
  return [=]() -> int {
    auto claims = load_claims_file(*file, *max_memory_mib << 20);  // every input error is raised here, before any work
    AuditOptions options;
    options.grid_resolution_max = *resolution;
    options.grid_point_budget = *budget;
    options.plan.memory_budget = *max_memory_mib << 20;
    auto results = audit_claims(claims, options);
    json report = json::parse(audit_report_json(results, *digits));
    if (*json_output) std::cout << report.dump(2) << "\n";
    else std::cout << render_audit_text(report);
    if (report["summary"]["unsound"].get<int>() > 0) return exit_code::refuted;
    return report["summary"]["undecided"].get<int>() > 0 ? exit_code::undecided : exit_code::holds;
  };
}

}  // namespace exactdp::cli
