// `--plot FILE` of `exactdp profile` and `exactdp compose`: samples the same library calls the text
// output uses (PrivacyProfile, CertifiedLoss, MechanismSpec, the game engine) on a grid of ε and
// hands the certified points to io/plot.hpp, which draws them (docs/plots.md).
#pragma once

#include "exactdp/divergence/privacy_loss.hpp"
#include "exactdp/game/game.hpp"
#include "exactdp/io/game_json.hpp"
#include "exactdp/numeric/interval.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace exactdp::cli {

/// The CLI11 check of --plot: the file name ends in .png or .svg (a usage error, exit 2, otherwise).
CLI::Validator plot_file_check();

/// The figure of an exact pair (profile PAIR.json, exact compositions): δ exact at rational λ near
/// e^ε, the symmetrised trade-off curve exact; closed-form bounds taken from @p report["bounds"].
void plot_exact_pair(const std::string& file, const PrivacyLoss& loss, const std::string& title, const nlohmann::json& report);

/// The figure of a certified composition: @p delta_at encloses δ at an enclosure of ε.
void plot_certified(const std::string& file, const std::function<Interval(const Interval&)>& delta_at, const std::string& title,
                    const nlohmann::json& report);

/// The figure of a mechanism spec's worst-case profile over the adversaries of @p query (the
/// engine runs again: the text report keeps only the asked λ).
void plot_game(const std::string& file, const Game& game, const ProfileQuery& query, const std::string& title);

/// "exactdp compose: 100 × …" from a compose report's components.
std::string plot_title(const nlohmann::json& report, const std::string& fallback);

}  // namespace exactdp::cli
