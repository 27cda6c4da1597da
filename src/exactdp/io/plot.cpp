// Drawing the profile and trade-off figures (plot.hpp). Two back ends behind one small canvas:
// cairo renders the PNG; the SVG is written as text here, because cairo's SVG surface turns every
// label into glyph outlines (a reader could not search or copy "δ" or "ε" in the file).
//
// Every certified endpoint is converted to double below, and only here, to place pixels: the
// figure decides nothing, and a pixel is not a verdict.
#include "exactdp/io/plot.hpp"

#include "exactdp/core/error.hpp"

#include <cairo.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

namespace exactdp {
namespace {

struct Rgb {
  double r, g, b;
};
struct Pt {
  double x, y;
};

/// How a path is stroked or filled; css_class names it in the SVG (tests look for "band").
struct Style {
  Rgb color{0, 0, 0};
  double width = 1;
  bool dashed = false;
  double opacity = 1;
  const char* css_class = nullptr;
};

enum class Anchor { start, middle, end };

/// The few primitives the figure needs.
class Canvas {
public:
  virtual ~Canvas() = default;
  virtual void stroke(const std::vector<Pt>& pts, const Style& s) = 0;
  virtual void fill(const std::vector<Pt>& pts, const Style& s) = 0;
  virtual void dot(Pt c, double radius, const Style& s) = 0;
  /// Text with its baseline at @p p; @p rotated: turned a quarter counter-clockwise (y-axis labels).
  virtual void text(Pt p, const std::string& s, double size, Anchor a, bool rotated = false) = 0;
};

class CairoCanvas final : public Canvas {
public:
  CairoCanvas(int width, int height)
      : surface_(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)), cr_(cairo_create(surface_)) {
    cairo_set_source_rgb(cr_, 1, 1, 1);
    cairo_paint(cr_);
    cairo_select_font_face(cr_, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  }
  ~CairoCanvas() override {
    cairo_destroy(cr_);
    cairo_surface_destroy(surface_);
  }
  CairoCanvas(const CairoCanvas&) = delete;
  CairoCanvas& operator=(const CairoCanvas&) = delete;

  void stroke(const std::vector<Pt>& pts, const Style& s) override {
    if (pts.size() < 2) return;
    path(pts);
    set(s);
    cairo_set_line_width(cr_, s.width);
    const double dash[] = {6, 4};
    cairo_set_dash(cr_, dash, s.dashed ? 2 : 0, 0);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    cairo_stroke(cr_);
  }
  void fill(const std::vector<Pt>& pts, const Style& s) override {
    if (pts.size() < 3) return;
    path(pts);
    cairo_close_path(cr_);
    set(s);
    cairo_fill(cr_);
  }
  void dot(Pt c, double radius, const Style& s) override {
    cairo_new_path(cr_);
    cairo_arc(cr_, c.x, c.y, radius, 0, 2 * M_PI);
    set(s);
    cairo_fill_preserve(cr_);
    cairo_set_source_rgb(cr_, 0, 0, 0);
    cairo_set_line_width(cr_, 0.8);
    cairo_set_dash(cr_, nullptr, 0, 0);
    cairo_stroke(cr_);
  }
  void text(Pt p, const std::string& s, double size, Anchor a, bool rotated) override {
    cairo_set_font_size(cr_, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr_, s.c_str(), &e);
    const double shift = a == Anchor::start ? 0 : a == Anchor::middle ? e.x_advance / 2 : e.x_advance;
    cairo_save(cr_);
    cairo_translate(cr_, p.x, p.y);
    if (rotated) cairo_rotate(cr_, -M_PI / 2);
    cairo_move_to(cr_, -shift, 0);
    cairo_set_source_rgb(cr_, 0.1, 0.1, 0.1);
    cairo_show_text(cr_, s.c_str());
    cairo_restore(cr_);
  }
  void write(const std::string& file, const std::string& option) {
    cairo_surface_flush(surface_);
    if (cairo_surface_write_to_png(surface_, file.c_str()) != CAIRO_STATUS_SUCCESS)
      throw Error(option, "", file, "cannot write the PNG file");
  }

private:
  void path(const std::vector<Pt>& pts) {
    cairo_new_path(cr_);
    cairo_move_to(cr_, pts[0].x, pts[0].y);
    for (std::size_t i = 1; i < pts.size(); ++i) cairo_line_to(cr_, pts[i].x, pts[i].y);
  }
  void set(const Style& s) { cairo_set_source_rgba(cr_, s.color.r, s.color.g, s.color.b, s.opacity); }

  cairo_surface_t* surface_;
  cairo_t* cr_;
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string rgb(const Rgb& c) {
  return "rgb(" + std::to_string(static_cast<int>(std::lround(c.r * 255))) + "," + std::to_string(static_cast<int>(std::lround(c.g * 255))) +
         "," + std::to_string(static_cast<int>(std::lround(c.b * 255))) + ")";
}

class SvgCanvas final : public Canvas {
public:
  SvgCanvas(int width, int height) {
    os_ << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width
        << " " << height << "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
        << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  }
  void stroke(const std::vector<Pt>& pts, const Style& s) override {
    if (pts.size() < 2) return;
    os_ << "<path" << cls(s) << " d=\"" << d(pts, false) << "\" fill=\"none\" stroke=\"" << rgb(s.color) << "\" stroke-width=\"" << num(s.width)
        << "\" stroke-linejoin=\"round\"" << (s.dashed ? " stroke-dasharray=\"6,4\"" : "") << opacity(s, "stroke-opacity") << "/>\n";
  }
  void fill(const std::vector<Pt>& pts, const Style& s) override {
    if (pts.size() < 3) return;
    os_ << "<path" << cls(s) << " d=\"" << d(pts, true) << "\" fill=\"" << rgb(s.color) << "\" stroke=\"none\"" << opacity(s, "fill-opacity")
        << "/>\n";
  }
  void dot(Pt c, double radius, const Style& s) override {
    os_ << "<circle" << cls(s) << " cx=\"" << num(c.x) << "\" cy=\"" << num(c.y) << "\" r=\"" << num(radius) << "\" fill=\"" << rgb(s.color)
        << "\" stroke=\"black\" stroke-width=\"0.8\"/>\n";
  }
  void text(Pt p, const std::string& s, double size, Anchor a, bool rotated) override {
    const char* anchor = a == Anchor::start ? "start" : a == Anchor::middle ? "middle" : "end";
    os_ << "<text x=\"" << num(p.x) << "\" y=\"" << num(p.y) << "\" font-size=\"" << num(size) << "\" text-anchor=\"" << anchor
        << "\" fill=\"rgb(26,26,26)\"";
    if (rotated) os_ << " transform=\"rotate(-90 " << num(p.x) << " " << num(p.y) << ")\"";
    os_ << ">" << escape(s) << "</text>\n";
  }
  std::string finish() { return os_.str() + "</svg>\n"; }

private:
  static std::string cls(const Style& s) { return s.css_class ? std::string(" class=\"") + s.css_class + "\"" : ""; }
  static std::string opacity(const Style& s, const char* attr) {
    return s.opacity < 1 ? std::string(" ") + attr + "=\"" + num(s.opacity) + "\"" : "";
  }
  static std::string d(const std::vector<Pt>& pts, bool close) {
    std::string out;
    for (std::size_t i = 0; i < pts.size(); ++i) out += (i ? " L" : "M") + num(pts[i].x) + " " + num(pts[i].y);
    return close ? out + " Z" : out;
  }
  std::ostringstream os_;
};

// ------------------------------------------------------------------ the figure

double lo_d(const Interval& x) {
  return x.lower_is_finite() ? x.lower().get_d() : -std::numeric_limits<double>::infinity();
}
double hi_d(const Interval& x) {
  return x.upper_is_finite() ? x.upper().get_d() : std::numeric_limits<double>::infinity();
}

/// A rectangle of the canvas and the data range it shows; y may be logarithmic (base 10).
struct Panel {
  double left, top, right, bottom;
  double x0, x1, y0, y1;  // y0, y1: exponents when log_y
  bool log_y = false;
  double px(double x) const { return left + (x - x0) / (x1 - x0) * (right - left); }
  double py(double y) const {
    double v = y;
    if (log_y) v = y > 0 ? std::log10(y) : y0;
    v = std::clamp(v, y0, y1);
    return bottom - (v - y0) / (y1 - y0) * (bottom - top);
  }
};

const Rgb ink{0.1, 0.1, 0.1}, grid_rgb{0.85, 0.85, 0.85}, band_rgb{0.27, 0.51, 0.71}, exact_rgb{0.08, 0.2, 0.55},
    tradeoff_rgb{0.55, 0.1, 0.45};
const Rgb bound_rgb[] = {{0.84, 0.15, 0.16}, {1.0, 0.5, 0.05}, {0.17, 0.63, 0.17}, {0.58, 0.4, 0.74}, {0.55, 0.34, 0.29}, {0.89, 0.47, 0.76}};

/// A tick step of 1, 2 or 5 times a power of ten giving about @p n ticks over @p span.
double nice_step(double span, int n) {
  double raw = span / n, p = std::pow(10.0, std::floor(std::log10(raw))), m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

std::string tick_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

/// "10⁻⁵" for k = −5.
std::string power_of_ten(int k) {
  static const char* sup[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  if (k == 0) return "1";
  std::string s = "10";
  if (k < 0) s += "⁻";
  std::string digits = std::to_string(std::abs(k));
  for (char c : digits) s += sup[c - '0'];
  return s;
}

void frame(Canvas& c, const Panel& p) {
  c.stroke({{p.left, p.top}, {p.right, p.top}, {p.right, p.bottom}, {p.left, p.bottom}, {p.left, p.top}}, {ink, 1});
}

void x_ticks(Canvas& c, const Panel& p, double step) {
  for (double x = p.x0; x <= p.x1 + step * 1e-9; x += step) {
    double X = p.px(x);
    c.stroke({{X, p.top}, {X, p.bottom}}, {grid_rgb, 0.8});
    c.stroke({{X, p.bottom}, {X, p.bottom + 4}}, {ink, 1});
    c.text({X, p.bottom + 17}, tick_text(x), 11, Anchor::middle);
  }
}

struct LegendEntry {
  enum Kind { band, line, dashed, dot } kind;
  Rgb color;
  std::string label;
};

void legend(Canvas& c, double x, double y, const std::vector<LegendEntry>& entries) {
  for (const auto& e : entries) {
    switch (e.kind) {
      case LegendEntry::band: c.fill({{x, y - 9}, {x + 22, y - 9}, {x + 22, y + 1}, {x, y + 1}}, {e.color, 1, false, 0.35}); break;
      case LegendEntry::line: c.stroke({{x, y - 4}, {x + 22, y - 4}}, {e.color, 2}); break;
      case LegendEntry::dashed: c.stroke({{x, y - 4}, {x + 22, y - 4}}, {e.color, 1.6, true}); break;
      case LegendEntry::dot: c.dot({x + 11, y - 4}, 4.5, {e.color}); break;
    }
    c.text({x + 30, y}, e.label, 11.5, Anchor::start);
    y += 18;
  }
}

/// The lower bound on the symmetric trade-off curve implied by (ε, δ)-DP at each plotted point,
/// taken at the upper ends of ε and δ (the weakest guarantee the enclosure allows):
/// β(α) ≥ max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α)).
double implied_tradeoff(const std::vector<PlotProfilePoint>& profile, double alpha) {
  double best = 0;
  for (const auto& q : profile) {
    double e = hi_d(q.epsilon), d = hi_d(q.delta);
    if (!std::isfinite(e) || !std::isfinite(d)) continue;
    best = std::max({best, 1 - d - std::exp(e) * alpha, std::exp(-e) * (1 - d - alpha)});
  }
  return std::min(best, 1.0);
}

constexpr int width = 1100;

int height_of(const PlotFigure& f) { return 450 + 18 * static_cast<int>(std::max<std::size_t>(3, f.bounds.size() + 2)); }

void draw(Canvas& c, const PlotFigure& f) {
  if (f.profile.size() < 2) throw Error("plot", "", "", "a profile figure needs at least two points");
  c.text({width / 2.0, 26}, f.title, 15, Anchor::middle);

  // --- left panel: δ(ε), logarithmic δ
  double emax = 0, emin = hi_d(f.profile.front().epsilon), dmin = 1;
  const bool exact = f.exact;
  for (const auto& q : f.profile) {
    emax = std::max(emax, hi_d(q.epsilon));
    emin = std::min(emin, lo_d(q.epsilon));
    for (double d : {lo_d(q.delta), hi_d(q.delta)})
      if (d > 0 && std::isfinite(d)) dmin = std::min(dmin, d);
  }
  for (const auto& b : f.bounds) {
    if (std::isfinite(hi_d(b.epsilon))) emax = std::max(emax, hi_d(b.epsilon));
    if (sgn(b.delta) > 0) dmin = std::min(dmin, b.delta.get_d());
  }
  if (!(emax > 0) || !std::isfinite(emax)) emax = 1;
  if (!(emin > 0) || !(emin < emax)) emin = 0;  // the axis starts at 0 unless the profile starts later
  const double xstep = nice_step(emax - emin, 6);
  const double x0 = std::floor(emin / xstep) * xstep;
  Panel L{80, 60, 600, 400, x0, std::ceil(emax / xstep - 1e-9) * xstep, 0, 0, true};
  L.y0 = std::max(-16.0, std::min(-1.0, std::floor(std::log10(dmin))));
  L.y1 = 0;
  x_ticks(c, L, xstep);
  const int ystep = static_cast<int>(std::ceil(-L.y0 / 8));
  for (int k = 0; k >= static_cast<int>(L.y0); k -= ystep) {
    double Y = L.py(std::pow(10.0, k));
    c.stroke({{L.left, Y}, {L.right, Y}}, {grid_rgb, 0.8});
    c.stroke({{L.left - 4, Y}, {L.left, Y}}, {ink, 1});
    c.text({L.left - 7, Y + 4}, power_of_ten(k), 11, Anchor::end);
  }
  // the band: upper ends left to right, then lower ends back; a δ below the axis sits on it
  std::vector<Pt> upper, lower;
  for (const auto& q : f.profile) {
    upper.push_back({L.px(hi_d(q.epsilon)), L.py(hi_d(q.delta))});
    lower.push_back({L.px(lo_d(q.epsilon)), L.py(lo_d(q.delta))});
  }
  std::vector<LegendEntry> left_legend;
  if (exact) {
    c.stroke(upper, {exact_rgb, 2, false, 1, "exact"});
    left_legend.push_back({LegendEntry::line, exact_rgb, "δ(ε), exact"});
  } else {
    std::vector<Pt> poly = upper;
    poly.insert(poly.end(), lower.rbegin(), lower.rend());
    c.fill(poly, {band_rgb, 1, false, 0.35, "band"});
    c.stroke(upper, {band_rgb, 1, false, 1, "band-upper"});
    c.stroke(lower, {band_rgb, 1, false, 1, "band-lower"});
    double widest = 0;  // the largest relative width (hi − lo)/hi, to say how wide the band is
    for (const auto& q : f.profile)
      if (hi_d(q.delta) > 0 && std::isfinite(hi_d(q.delta))) widest = std::max(widest, (hi_d(q.delta) - lo_d(q.delta)) / hi_d(q.delta));
    char width_text[64];
    std::snprintf(width_text, sizeof width_text, " (relative width ≤ %.1e)", widest);
    left_legend.push_back({LegendEntry::band, band_rgb, std::string("δ(ε), certified enclosure [lo, hi]") + width_text});
  }
  std::size_t colour = 0;
  for (const auto& b : f.bounds) {
    const Rgb col = bound_rgb[colour++ % std::size(bound_rgb)];
    const double e = hi_d(b.epsilon);
    if (!std::isfinite(e)) continue;
    c.dot({L.px(e), L.py(b.delta.get_d())}, 5, {col, 1, false, 1, "bound"});
    std::ostringstream label;
    label << b.label << ": ε ≤ " << tick_text(e) << " at δ = " << tick_text(b.delta.get_d());
    left_legend.push_back({LegendEntry::dot, col, label.str()});
  }
  frame(c, L);
  c.text({(L.left + L.right) / 2, L.bottom + 38}, "ε", 13, Anchor::middle);
  c.text({L.left - 52, (L.top + L.bottom) / 2}, "δ(ε), the larger of both directions", 12, Anchor::middle, true);
  c.text({L.left, L.top - 10}, "privacy profile δ(ε)", 12.5, Anchor::start);
  legend(c, L.left, L.bottom + 62, left_legend);

  // --- right panel: trade-off β(α)
  Panel R{720, 60, 1060, 400, 0, 1, 0, 1, false};
  R.bottom = R.top + (R.right - R.left);
  for (int i = 0; i <= 5; ++i) {
    double v = i / 5.0, X = R.px(v), Y = R.py(v);
    c.stroke({{X, R.top}, {X, R.bottom}}, {grid_rgb, 0.8});
    c.stroke({{R.left, Y}, {R.right, Y}}, {grid_rgb, 0.8});
    c.text({X, R.bottom + 17}, tick_text(v), 11, Anchor::middle);
    c.text({R.left - 7, Y + 4}, tick_text(v), 11, Anchor::end);
  }
  std::vector<LegendEntry> right_legend;
  c.stroke({{R.px(0), R.py(1)}, {R.px(1), R.py(0)}}, {{0.5, 0.5, 0.5}, 1, true});
  right_legend.push_back({LegendEntry::dashed, {0.5, 0.5, 0.5}, "β = 1 − α (perfect privacy)"});
  std::vector<Pt> curve;
  if (!f.tradeoff.empty()) {
    for (const auto& v : f.tradeoff) curve.push_back({R.px(v.alpha.get_d()), R.py(v.beta.get_d())});
    c.stroke(curve, {tradeoff_rgb, 2, false, 1, "tradeoff"});
    right_legend.push_back({LegendEntry::line, tradeoff_rgb, f.tradeoff_label + ", exact"});
  } else {
    for (int i = 0; i <= 400; ++i) {
      double a = i / 400.0;
      curve.push_back({R.px(a), R.py(implied_tradeoff(f.profile, a))});
    }
    c.stroke(curve, {tradeoff_rgb, 2, false, 1, "tradeoff"});
    right_legend.push_back({LegendEntry::line, tradeoff_rgb, "lower bound implied by the δ(ε) upper ends"});
  }
  frame(c, R);
  c.text({(R.left + R.right) / 2, R.bottom + 38}, "α (type I error)", 13, Anchor::middle);
  c.text({R.left - 40, (R.top + R.bottom) / 2}, "β (type II error)", 13, Anchor::middle, true);
  c.text({R.left, R.top - 10}, "trade-off curve", 12.5, Anchor::start);
  legend(c, R.left, std::max(R.bottom, L.bottom) + 62, right_legend);
}

}  // namespace

PlotFormat plot_format(const std::string& file, const std::string& option) {
  auto dot = file.rfind('.');
  std::string ext = dot == std::string::npos ? "" : file.substr(dot + 1);
  for (auto& ch : ext) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (ext == "png") return PlotFormat::png;
  if (ext == "svg") return PlotFormat::svg;
  throw Error(option, "", file, "the plot file must end in .png or .svg");
}

std::string plot_svg(const PlotFigure& figure) {
  SvgCanvas c(width, height_of(figure));
  draw(c, figure);
  return c.finish();
}

void write_plot(const PlotFigure& figure, const std::string& file, const std::string& option) {
  if (plot_format(file, option) == PlotFormat::svg) {
    const std::string text = plot_svg(figure);
    std::ofstream out(file, std::ios::binary);
    if (!out || !(out << text)) throw Error(option, "", file, "cannot write the SVG file");
    return;
  }
  CairoCanvas c(width, height_of(figure));
  draw(c, figure);
  c.write(file, option);
}

}  // namespace exactdp
