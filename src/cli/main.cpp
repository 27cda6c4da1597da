// exactdp — exact and certified privacy accounting. Entry point: parses the command line,
// runs one subcommand, and turns every exactdp::Error into one line on stderr and exit code 2.
// Exit codes (accounting/verdict.hpp, docs/verdicts.md): 0 holds / sound / success, 1 refuted /
// unsound, 2 usage or input error, 3 undecided, 4 internal failure.
#include "commands.hpp"

#include "exactdp/accounting/verdict.hpp"
#include "exactdp/core/error.hpp"

#include <iostream>

int main(int argc, char** argv) {
  CLI::App app{
      "exactdp computes the privacy of differentially private mechanisms exactly (rational\n"
      "arithmetic) or as certified intervals, never by floating-point approximation.\n\n"
      "Example:\n"
      "  exactdp compose --mechanism rr:lambda=3/2 --times 100 --delta 1e-5 --epsilon 1\n",
      "exactdp"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "exactdp 0.1.0");
  auto run_compose = exactdp::cli::add_compose(app);
  auto run_profile = exactdp::cli::add_profile(app);
  auto run_audit = exactdp::cli::add_audit(app);
  auto run_check = exactdp::cli::add_check(app);
  auto run_theorems = exactdp::cli::add_theorems(app);
  auto run_run = exactdp::cli::add_run(app);
  auto run_lint = exactdp::cli::add_lint(app);
  auto run_simulate = exactdp::cli::add_simulate(app);
  auto run_check_composite = exactdp::cli::add_check_composite(app);
  auto run_calibrate = exactdp::cli::add_calibrate(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return exactdp::exit_code::bad_input;
  } catch (const exactdp::Error& e) {
    std::cerr << "exactdp: " << e.what() << "\n";
    return exactdp::exit_code::bad_input;
  }
  try {
    if (app.got_subcommand("compose")) return run_compose();
    if (app.got_subcommand("profile")) return run_profile();
    if (app.got_subcommand("check")) return run_check();
    if (app.got_subcommand("audit")) return run_audit();
    if (app.got_subcommand("theorems")) return run_theorems();
    if (app.got_subcommand("run")) return run_run();
    if (app.got_subcommand("lint")) return run_lint();
    if (app.got_subcommand("simulate")) return run_simulate();
    if (app.got_subcommand("check-composite")) return run_check_composite();
    if (app.got_subcommand("calibrate")) return run_calibrate();
  } catch (const exactdp::Error& e) {
    std::cerr << "exactdp: " << e.what() << "\n";
    return exactdp::exit_code::bad_input;
  } catch (const std::bad_alloc&) {
    std::cerr << "exactdp: out of memory (the estimate did not foresee this; please report it)\n";
    return exactdp::exit_code::internal;
  }
  return exactdp::exit_code::bad_input;
}
