// The subcommands of the exactdp program.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace exactdp::cli {

/// Registers `exactdp compose` on @p app; the returned function runs it after parsing and
/// returns the process exit code.
std::function<int()> add_compose(CLI::App& app);
/// Registers `exactdp profile`.
std::function<int()> add_profile(CLI::App& app);
/// Registers `exactdp audit`.
std::function<int()> add_audit(CLI::App& app);

}  // namespace exactdp::cli
