// `exactdp lint SPEC...`: the strict loader's errors (all of them) and the warnings that change no
// verdict (io/spec_lint.hpp). Exit 0: clean; 1: warnings only; 2: an error in some file.
#include "commands.hpp"

#include "exactdp/io/spec_lint.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace exactdp::cli {

std::function<int()> add_lint(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "lint",
      "Check mechanism spec files (format exactdp/1) without analysing them. Errors (exit 2) are what\n"
      "check and profile refuse: a next state that is not listed (with the nearest names), a reachable\n"
      "state without a rule for a message, a rule for an undeclared message, a repeated JSON key, a float\n"
      "where an exact number belongs. Warnings (exit 1) never change a verdict: unreachable states,\n"
      "bisimilar states, answers no adversary can tell apart, repeated rows. Exit 0: clean.\n\n"
      "Examples:\n"
      "  exactdp lint spec/mechanisms/*.json\n"
      "  exactdp lint my-mechanism.json --json");
  struct Options {
    std::vector<std::string> files;
    bool json_output = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("SPEC", o->files, "Mechanism spec files")->required();
  cmd->add_flag("--json", o->json_output, "Machine-readable output (docs/json-output.md, \"lint\")");
  return [=]() -> int {
    std::vector<LintReport> reports;
    int code = 0;
    for (const auto& f : o->files) {
      reports.push_back(lint_spec_file(f));
      code = std::max(code, reports.back().exit_code());
    }
    if (o->json_output) std::cout << lint_report_json(reports) << "\n";
    else std::cout << lint_report_text(reports);
    return code;
  };
}

}  // namespace exactdp::cli
