// The subcommands of the exactdp program.
#pragma once

#include "exactdp/core/limits.hpp"
#include "exactdp/game/engine.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace exactdp::cli {

/// "from LO to HI", the accepted range of a numeric flag as its help prints it (the bounds are
/// core/limits.hpp's constants, so the help and the check cannot disagree).
template <class T>
std::string range_text(T lo, T hi) {
  return "from " + std::to_string(lo) + " to " + std::to_string(hi);
}

/// The help of `--digits` (audit, calibrate, compose, profile), with its range.
inline std::string digits_help() {
  return "Significant digits of certified (interval) output (default 10; " + range_text(limits::min_digits, limits::max_digits) +
         ")";
}

/// Registers `exactdp compose` on @p app; the returned function runs it after parsing and
/// returns the process exit code.
std::function<int()> add_compose(CLI::App& app);
/// Registers `exactdp check` (game engine on a mechanism spec file).
std::function<int()> add_check(CLI::App& app);

/// `exactdp check SPEC --lambda EXPR --for-all NAME` (parametric.cpp): the pure-DP claim λ(NAME)
/// for every value of the spec's parameter; returns the exit code.
int check_for_all(const std::string& file, const std::string& parameter, const std::string& lambda, const std::string& epsilon,
                  const std::string& delta, unsigned horizon, bool cross_check, bool json_output, const std::string& adversary);
/// `exactdp check SPEC --renyi-alpha A --renyi-moment EXPR --for-all NAME` (parametric.cpp): the
/// Rényi claim sup Φ_A ≤ EXPR for every value of the spec's parameter (an --renyi-epsilon is
/// refused, naming --renyi-moment); returns the exit code.
int check_renyi_for_all(const std::string& file, const std::string& parameter, const std::string& alpha, const std::string& moment,
                        const std::string& epsilon, unsigned horizon, bool cross_check, bool json_output, const std::string& adversary);

/// `exactdp profile SPEC --parametric` (parametric.cpp): the worst-case pure ratio for every value
/// of the spec's parameter, the worst δ(λ(r)) with one of @p lambdas, the worst Rényi moment with
/// one of @p alphas; returns the exit code.
int profile_parametric(const std::string& file, unsigned horizon, bool json_output, const std::vector<std::string>& lambdas = {},
                       const std::vector<std::string>& alphas = {},
                       bool cross_check = true);

/// True when @p path is a mechanism spec file ("format": "exactdp/1") rather than a pair file.
bool is_mechanism_spec_file(const std::string& path);

/// What `exactdp profile SPEC` was asked (raw option texts, validated by profile_mechanism_spec).
struct SpecProfileRequest {
  std::vector<std::string> lambdas, deltas, alphas;
  unsigned horizon = 0;  ///< 0: the spec's own horizon
  std::uint64_t max_nodes = default_engine_max_nodes;                 ///< EngineOptions::max_nodes
  std::uint64_t max_memory_mib = default_engine_memory_budget >> 20;  ///< EngineOptions::max_bytes in MiB
  unsigned threads = 0;                  ///< EngineOptions::threads (0: all cores)
  bool json_output = false, stats = false;
  std::string adversary = "adaptive";  ///< adaptive | oblivious | sequential
  std::string plot;                    ///< --plot FILE (.png or .svg), empty: no figure
};

/// Registers `--max-nodes` and `--max-memory` (MiB) of the game engine on @p cmd (check, profile):
/// the help says which budget the flag bounds and its default (game/engine.hpp).
void add_engine_limit_options(CLI::App* cmd, std::uint64_t& max_nodes, std::uint64_t& max_memory_mib,
                              const std::string& scope = "");
/// Registers `--max-memory` (MiB) of the composition planner on @p cmd (compose, audit), bound to
/// @p max_memory_mib, default default_memory_budget (accounting/composition_plan.hpp).
void add_planner_memory_option(CLI::App* cmd, std::uint64_t& max_memory_mib);

/// Runs the game engine on a mechanism spec file and prints its profile report; returns the exit code.
int profile_mechanism_spec(const std::string& path, const SpecProfileRequest& request);

/// Registers `exactdp profile`.
std::function<int()> add_profile(CLI::App& app);
/// Registers `exactdp audit`.
std::function<int()> add_audit(CLI::App& app);
/// Registers `exactdp theorems` (the theorem registry of proofs_checks/: list, check, docs).
std::function<int()> add_theorems(CLI::App& app);
/// Registers `exactdp lint` (strict spec checks and warnings; lint.cpp).
std::function<int()> add_lint(CLI::App& app);
/// Registers `exactdp run` (live session of a spec file's mechanism; run.cpp).
std::function<int()> add_run(CLI::App& app);
/// Registers `exactdp simulate` (randomized-response simulators, reduce/).
std::function<int()> add_simulate(CLI::App& app);
/// Registers `exactdp calibrate` (the least noise meeting a target; calibrate.cpp).
std::function<int()> add_calibrate(CLI::App& app);
/// Registers `exactdp check-composite` (the HSV §6 conditions on a composite mechanism, reduce/).
std::function<int()> add_check_composite(CLI::App& app);

}  // namespace exactdp::cli
