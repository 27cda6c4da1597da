// `exactdp check-composite FILE [--horizon N] [--json]`: the conditions of HSV §6 (destination,
// response, f → f′) on a composite mechanism P∘*ExtConComp with a deterministic post-processor P
// (THEOREMS.md A.10, B.17; reduce/complex_mechanism.hpp). The file ("format":
// "exactdp-composite/1", docs/simulate.md) gives P as a table with f, f′ and the sub-mechanisms'
// answers, or names a composite of the library. Exit 0: all three conditions hold up to the
// horizon; 1: one fails (the condition, the input trace and both copies' reactions are printed);
// 2: bad input (file, JSON path and value named).
#include "commands.hpp"

#include "exactdp/io/composite_file.hpp"
#include "exactdp/reduce/complex_mechanism.hpp"

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace exactdp::cli {

using json = nlohmann::json;

std::function<int()> add_check_composite(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check-composite",
      "Check the conditions of HSV Thm 6.1 (destination, response, f -> f') on a composite mechanism\n"
      "P o* ExtConComp with a deterministic post-processor P: two copies of P run on every f-valid pair of\n"
      "input sequences and every common sequence of sub-mechanism answers up to the horizon. When all\n"
      "three hold, privacy of the sub-mechanisms' composition w.r.t. f' carries over to the composite\n"
      "w.r.t. f. Exit 0: they hold; 1: one fails (with the input trace); 2: bad input.\n\n"
      "Examples:\n"
      "  exactdp check-composite spec/composites/forwarder.json\n"
      "  exactdp check-composite spec/composites/hss-histogram.json\n"
      "  exactdp check-composite spec/composites/hss-histogram-leaky.json   # exit 1: destination");
  struct Options {
    std::string file;
    unsigned horizon = 0;
    std::uint64_t max_steps = 5'000'000;
    bool json_output = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("FILE", o->file, "A composite file (format exactdp-composite/1, docs/simulate.md)")->required();
  cmd->add_option("--horizon", o->horizon, "Messages P receives on every path (default: the file's)");
  cmd->add_option("--max-steps", o->max_steps, "Refuse explorations of more paired steps than this");
  cmd->add_flag("--json", o->json_output, "Machine-readable output");
  return [=]() -> int {
    CompositeFile f = load_composite_file(o->file);
    const std::string& name = f.name;
    CompositeInstance& ci = f.instance;
    if (o->horizon) ci.horizon = o->horizon;
    ci.max_paths = o->max_steps;
    const CompositeCheck c = check_composite_conditions(ci);
    json r{{"file", o->file}, {"name", name}, {"horizon", ci.horizon}, {"holds", c.holds}, {"steps_checked", c.steps_checked},
           {"configurations", c.configurations}};
    if (c.violation) r["violation"] = {{"condition", c.violation->condition}, {"trace", c.violation->trace}, {"detail", c.violation->detail}};
    if (o->json_output) {
      std::cout << r.dump(2) << "\n";
    } else {
      std::cout << "exactdp check-composite: " << name << " (horizon " << ci.horizon << " received messages)\n\n";
      if (c.holds) {
        std::cout << "HOLDS: destination, response and f -> f' hold at all " << c.steps_checked << " paired steps (" << c.configurations
                  << " distinct configurations of the two copies). By HSV Thm 6.1, if the sub-mechanisms' extended concurrent\n"
                  << "composition is (eps, delta)-DP w.r.t. f', so is the composite w.r.t. f (scope: this horizon and these alphabets).\n";
      } else {
        std::cout << "VIOLATED: " << c.violation->condition << "\n\ninputs (both copies):\n";
        for (const auto& t : c.violation->trace) std::cout << "  " << t << "\n";
        std::cout << "\nat the last input: " << c.violation->detail << "\n";
      }
    }
    return c.holds ? 0 : 1;
  };
}

}  // namespace exactdp::cli
