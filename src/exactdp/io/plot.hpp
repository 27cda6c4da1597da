/// @file
/// Pictures of a privacy analysis: the privacy profile δ(ε) and the trade-off curve, written as a
/// PNG (rendered by cairo) or an SVG (written as text, so labels stay searchable), chosen by the
/// file's extension.
///
/// The figure has two panels side by side in one file: on the left δ(ε) on a logarithmic δ axis,
/// with every certified enclosure [lo, hi] of δ drawn as a shaded band (exact values, lo = hi,
/// as a line) and closed-form bounds (ε, δ) as labelled markers; on the right the trade-off curve
/// β(α) of type-I/type-II errors, either exact (given vertices) or, when no vertices are given,
/// the lower bound on it that the plotted upper ends of δ imply.
///
/// Drawing takes already-computed certified data and decides nothing: endpoints are converted to
/// double only to place pixels. A picture is never a verdict; the numbers live in the text and
/// JSON output of the same run.
#pragma once

#include "exactdp/numeric/interval.hpp"  // Interval, and Rational through it

#include <string>
#include <vector>

namespace exactdp {

/// One point of a privacy profile: an enclosure of ε (a point for exact ε) and an enclosure of
/// δ(ε) (lo = hi when δ is exact).
struct PlotProfilePoint {
  Interval epsilon;
  Interval delta;
};

/// A closed-form (ε, δ) guarantee shown beside the profile, e.g. "basic composition (DKMMN06)".
struct PlotBound {
  std::string label;
  Interval epsilon;  ///< the bound's ε (its upper end is drawn)
  Rational delta;
};

/// A vertex (α, β) of an exact trade-off curve.
struct PlotTradeoffVertex {
  Rational alpha;
  Rational beta;
};

/// Everything one figure shows.
struct PlotFigure {
  std::string title;                        ///< drawn above both panels
  std::vector<PlotProfilePoint> profile;    ///< in increasing ε; at least two points
  bool exact = false;                       ///< every δ is exact: drawn as a line, not a band
  std::vector<PlotBound> bounds;            ///< may be empty
  std::vector<PlotTradeoffVertex> tradeoff; ///< exact vertices in increasing α; empty: derived from the profile
  std::string tradeoff_label = "trade-off T";  ///< legend text of the exact trade-off curve
};

/// The two file formats.
enum class PlotFormat { png, svg };

/// The format named by @p file's extension (".png" or ".svg", any case); throws exactdp::Error
/// naming @p option and the file for anything else.
PlotFormat plot_format(const std::string& file, const std::string& option = "--plot");

/// Draws @p figure into @p file (format by extension, see plot_format). Throws exactdp::Error when
/// the figure has fewer than two profile points or the file cannot be written.
void write_plot(const PlotFigure& figure, const std::string& file, const std::string& option = "--plot");

/// The figure as SVG text (what write_plot writes for ".svg").
std::string plot_svg(const PlotFigure& figure);

}  // namespace exactdp
