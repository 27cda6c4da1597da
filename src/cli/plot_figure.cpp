#include "plot_figure.hpp"

#include "exactdp/compose/concurrent.hpp"
#include "exactdp/core/error.hpp"
#include "exactdp/divergence/hockey_stick.hpp"
#include "exactdp/divergence/renyi.hpp"
#include "exactdp/divergence/tradeoff.hpp"
#include "exactdp/game/engine.hpp"
#include "exactdp/io/plot.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace exactdp::cli {
namespace {

using json = nlohmann::json;

constexpr Precision plot_precision = 128;
constexpr int grid_points = 120, slow_grid_points = 40;

/// δ at one target ε: the point drawn (ε may come back as a tight enclosure of the ε actually used).
using Sampler = std::function<PlotProfilePoint(const Rational& epsilon)>;

/// The ε range shown, a display choice (doubles are fine: nothing is decided here): from 0 to
/// where the upper end of δ falls below 10⁻¹⁰ (doubling, then halving the gap eight times) or stops
/// falling, no further than @p eps_cap, and far enough to show every closed-form bound.
std::vector<PlotProfilePoint> sample(const Sampler& at, double eps_cap, const std::vector<PlotBound>& bounds) {
  auto upper = [&](double e) {
    Interval d = at(Rational(e)).delta;
    return d.upper_is_finite() ? d.upper().get_d() : 1.0;
  };
  // a δ that stops falling (a floor such as RR's δ) ends the search too
  const auto started = std::chrono::steady_clock::now();
  int evaluations = 0;
  double hi = 0.25, previous = 2, flat = 0;  // flat: the largest ε tried with δ still near 1
  bool floor = false;
  while (hi < eps_cap) {
    ++evaluations;
    const double d = upper(hi);
    if (d < 1e-10) break;
    if (d >= 0.999) flat = hi;
    if (d >= previous * (1 - 1e-9) && d < 0.999) {  // δ near 1 has not started falling yet
      floor = true;
      break;
    }
    previous = d, hi *= 2;
  }
  double lo = hi / 2;
  if (!floor && hi < eps_cap && hi > 0.25)
    for (int i = 0; i < 8; ++i, ++evaluations) (upper((lo + hi) / 2) < 1e-10 ? hi : lo) = (lo + hi) / 2;
  // fewer points when one evaluation is slow (the binomial route at k = 10^8 takes ~0.4 s)
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const int n = evaluations > 0 && seconds / evaluations > 0.02 ? slow_grid_points : grid_points;
  // a long composition keeps δ near 1 for most of [0, hi]: then the figure starts where δ falls
  double begin = 0;
  if (!floor && flat > 0.1 * hi) {
    double a = flat, b = hi;
    for (int i = 0; i < 8; ++i) (upper((a + b) / 2) >= 0.999 ? a : b) = (a + b) / 2;
    begin = std::max(0.0, a - 0.1 * (hi - a));
    hi += 0.1 * (hi - a);
  } else {
    hi *= 1.1;
  }
  double end = std::min(hi, eps_cap);
  for (const auto& b : bounds)
    if (b.epsilon.upper_is_finite()) end = std::max(end, b.epsilon.upper().get_d() * 1.05);
  if (!(end > 0)) end = 1;
  const Rational stop = Rational(static_cast<long>(std::ceil(end * 1000))) / 1000;  // exact rational ends
  const Rational start = Rational(static_cast<long>(std::floor(begin * 1000))) / 1000;
  std::vector<PlotProfilePoint> out;
  for (int i = 0; i <= n; ++i) out.push_back(at(start + (stop - start) * Rational(i, n)));
  return out;
}

/// The closed-form bounds of a compose report that have a finite ε and a δ.
std::vector<PlotBound> bounds_of(const json& report) {
  std::vector<PlotBound> out;
  if (!report.contains("bounds")) return out;
  for (const auto& b : report["bounds"]) {
    if (!b.contains("epsilon") || !b["epsilon"].is_object() || !b.contains("delta") || !b["delta"].is_string()) continue;
    Interval eps = Interval::hull(parse_rational(b["epsilon"]["lo"].get<std::string>(), "epsilon"),
                                  parse_rational(b["epsilon"]["hi"].get<std::string>(), "epsilon"), plot_precision);
    out.push_back({b["name"].get<std::string>(), eps, parse_rational(b["delta"].get<std::string>(), "delta")});
  }
  return out;
}

/// The exact profile at λ = the lower end of an enclosure of e^ε (a rational): δ(λ) exact and
/// ε = ln λ certified.
Sampler exact_sampler(const PrivacyProfile& profile) {
  return [&profile](const Rational& e) -> PlotProfilePoint {
    if (sgn(e) == 0) return {Interval(Rational(0), plot_precision), Interval(profile.delta(Rational(1)), plot_precision)};
    Rational lambda = exp(Interval(e, plot_precision)).lower();
    if (lambda < 1) lambda = 1;
    Interval eps = lambda == 1 ? Interval(Rational(0), plot_precision) : log(Interval(lambda, plot_precision));
    return {eps, Interval(profile.delta(lambda), plot_precision)};
  };
}

void plot_profile(const std::string& file, const PrivacyProfile& profile, const ExtendedRational& pure, const TradeOff& tradeoff,
                  const std::string& title, const json& report) {
  PlotFigure f;
  f.title = title;
  f.bounds = bounds_of(report);
  f.exact = true;
  const double cap = pure.is_infinite() ? 1e8 : std::max(0.05, log(Interval(pure.value(), plot_precision)).upper().get_d() * 1.05);
  f.profile = sample(exact_sampler(profile), cap, f.bounds);
  for (const auto& v : tradeoff.vertices()) f.tradeoff.push_back({v.alpha, v.beta});
  f.tradeoff_label = "symmetrised T(P,Q)";
  write_plot(f, file);
}

}  // namespace

CLI::Validator plot_file_check() {
  return CLI::Validator(
      [](std::string& file) -> std::string {
        try {
          plot_format(file);
          return "";
        } catch (const Error& e) {
          return "'" + file + "': " + e.why();
        }
      },
      "FILE.png|FILE.svg");
}

std::string plot_title(const json& report, const std::string& fallback) {
  if (!report.contains("components")) return fallback;
  std::string t = "exactdp compose:";
  for (const auto& c : report["components"]) {
    t += (t.back() == ':' ? " " : " ∘ ") + std::to_string(c["times"].get<unsigned long>()) + " × " + c["source"].get<std::string>();
  }
  return t;
}

void plot_exact_pair(const std::string& file, const PrivacyLoss& loss, const std::string& title, const json& report) {
  PrivacyProfile profile(loss);
  const ExtendedRational pure = std::max(max_ratio(loss), max_ratio(loss.swapped()));
  plot_profile(file, profile, pure, TradeOff::of(loss).symmetrized(), title, report);
}

void plot_certified(const std::string& file, const std::function<Interval(const Interval&)>& delta_at, const std::string& title,
                    const json& report) {
  PlotFigure f;
  f.title = title;
  f.bounds = bounds_of(report);
  Sampler at = [&](const Rational& e) -> PlotProfilePoint {
    Interval eps(e, plot_precision);
    return {eps, delta_at(eps)};
  };
  f.profile = sample(at, 1e12, f.bounds);
  write_plot(f, file);
}

void plot_game(const std::string& file, const Game& input, const ProfileQuery& query, const std::string& title) {
  const Game game = query.adversary == AdversaryClass::sequential ? sequential_adversaries(input) : input;
  const bool oblivious = query.adversary == AdversaryClass::oblivious;
  auto result = oblivious ? worst_case_profile_oblivious(game, query.options) : worst_case_profile(game, query.options);
  auto ratio = oblivious ? worst_case_ratio_oblivious(game, query.options) : worst_case_ratio(game, query.options);
  plot_profile(file, result.profile, ratio.max(), tradeoff_envelope(result.profile).world0_vs_world1.symmetrized(), title, json::object());
}

}  // namespace exactdp::cli
