// report/svg.cpp — the report's charts as SVG (doc::svg): horizontal bars
// (grouped; log or linear value axis) and lines against a log x axis, every
// margin sized from the text it holds so no label is clipped, bars where one
// x was measured (document.cpp decides), lines only between measured
// neighbours. Inline in report.html, or standalone with its style inside
// (findings-*.svg). Also the one escape of text for HTML and SVG.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/document.hpp"

namespace report::doc {

std::string esc(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// The charts' own style: in the page's <style>, and inside a standalone SVG.
const char* const kChartStyle = R"(
svg .title{font-weight:600;font-size:13px}svg .group{font-weight:600}svg .grid{stroke:#e4e4e4;fill:none}
svg .tick,svg .axis{fill:#555}svg .zap{fill:#f58518}svg .json{fill:#4c78a8}svg .peer{fill:#54a24b}
svg .limit{fill:#9a9a9a}svg .whisker{stroke:#222;stroke-width:1.2;fill:none}
svg .line{fill:none;stroke:currentColor;stroke-width:2}svg circle.mark,svg g .swatch{fill:currentColor}
svg g .whisker{stroke:currentColor}
)";

namespace {

// --- SVG charts ------------------------------------------------------------------
// Every margin is sized from the text it holds (text_px), so no label is
// clipped however long a codec's name or a value; the report test checks it
// in Chromium (every text's box inside its chart's).

const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

constexpr double kFontPx = 12, kTitlePx = 13;

std::string px(double v) { return doc::fixed(v, 1); }

// The width a line of text takes, from above: 0.64 em a character (DejaVu
// Sans, the widest of the fonts the page may fall back to, averages ~0.6 em;
// digits 0.64), 0.72 em in bold.
double text_px(std::string_view s, double font_px = kFontPx, bool bold = false) {
  return double(doc::display_width(s)) * font_px * (bold ? 0.72 : 0.64);
}

// An axis label in the chart's unit: "1 µs", "200k", "10 MB".
std::string label(const doc::Chart& c, double v) { return doc::with_unit(v * c.to_base, c.unit, true); }
// A value beside its mark: three figures, "572 µs".
std::string value(const doc::Chart& c, double v) { return doc::with_unit(v * c.to_base, c.unit); }

// A log10 axis over whole decades covering [lo, hi].
struct LogAxis {
  int d0 = 0, d1 = 1;
  double a = 0, b = 1;  // pixel range
  LogAxis(double lo, double hi, double a_px, double b_px) : a(a_px), b(b_px) {
    lo = lo > 0 ? lo : 1;
    hi = std::max(hi, lo);
    d0 = int(std::floor(std::log10(lo)));
    d1 = int(std::ceil(std::log10(hi)));
    if (d1 <= d0) d1 = d0 + 1;
  }
  [[nodiscard]] double at(double v) const {
    const double l = v > 0 ? std::log10(v) : d0;
    return a + (std::clamp(l, double(d0), double(d1)) - d0) / (d1 - d0) * (b - a);
  }
};

// A value axis, log (decades) or linear (0 to a round maximum in ~5 steps),
// mapping values to [a, b] pixels.
struct ValueAxis {
  bool log = false;
  LogAxis decades;
  double step = 1, max = 1, a = 0, b = 1;
  ValueAxis(bool log_scale, double lo, double hi, double a_px, double b_px)
      : log(log_scale), decades(std::isfinite(lo) ? lo : 1, hi, a_px, b_px), a(a_px), b(b_px) {
    if (hi > 0) {
      const double raw = hi / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
      step = raw / mag <= 1 ? mag : raw / mag <= 2 ? 2 * mag : raw / mag <= 5 ? 5 * mag : 10 * mag;
    }
    max = std::max(step, std::ceil(hi / step - 1e-9) * step);
  }
  [[nodiscard]] double at(double v) const { return log ? decades.at(v) : a + v / max * (b - a); }
  [[nodiscard]] std::vector<double> ticks() const {
    std::vector<double> t;
    if (log)
      for (int d = decades.d0; d <= decades.d1; ++d) t.push_back(std::pow(10.0, d));
    else
      for (double v = 0; v <= max * 1.0001; v += step) t.push_back(v);
    return t;
  }
};

// The chart's <svg> element and its title; standalone: with the style and a white ground inside.
std::string svg_open(const doc::Chart& c, const char* kind, double w, double h, bool standalone) {
  std::string s = "<svg class=\"chart\" data-chart=\"" + esc(c.id) + "\" data-kind=\"" + kind +
                  "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(w) + "\" height=\"" + px(h) +
                  "\" viewBox=\"0 0 " + px(w) + " " + px(h) + "\" role=\"img\" aria-label=\"" + esc(c.title) +
                  "\"";
  if (standalone)
    s += " font-family=\"DejaVu Sans,Verdana,sans-serif\" font-size=\"12\">\n<style>" +
         std::string(kChartStyle) + "</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  else
    s += ">\n";
  return s + "<text class=\"title\" x=\"4\" y=\"16\">" + esc(c.title) + "</text>\n";
}

std::string text(double x, double y, const std::string& s, const char* anchor = "start",
                 const char* cls = "") {
  return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" text-anchor=\"" + anchor + "\"" +
         (*cls ? std::string(" class=\"") + cls + "\"" : "") + ">" + esc(s) + "</text>\n";
}

std::string line(double x1, double y1, double x2, double y2, const char* cls) {
  return "<path class=\"" + std::string(cls) + "\" d=\"M" + px(x1) + " " + px(y1) + "L" + px(x2) + " " +
         px(y2) + "\"/>\n";
}

const char* family_class(matrix::Family f, bool limit) {
  if (limit) return "limit";
  return f == matrix::Family::zap ? "zap" : f == matrix::Family::json ? "json" : "peer";
}

// Horizontal bars, one per figure, grouped (an op's bars under its name); on
// a log axis for ns per op (the fastest and slowest codecs differ by ~300×,
// which a linear axis would flatten to one bar), linear from 0 otherwise.
std::string bar_chart(const doc::Chart& c, bool standalone) {
  const double row_h = 22, top = 30, plot_w = c.narrow ? 200 : 520;
  // Each bar's row, a group's name taking a row of its own above its bars.
  std::vector<double> bar_y;
  double y = top, label_w = 0, group_w = 0, lo = INFINITY, hi = 0;
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const doc::Bar& b = c.bars[i];
    if (!b.group.empty() && (i == 0 || c.bars[i - 1].group != b.group)) {
      group_w = std::max(group_w, text_px(b.group, kFontPx, true));
      y += row_h;
    }
    bar_y.push_back(y);
    y += row_h;
    label_w = std::max(label_w, text_px(b.label));
    for (double v : {b.median, b.lo, b.hi})
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  const double axis_y = y;
  const double label_end = 6 + label_w + 6;
  const ValueAxis x(c.log_y, lo, hi, label_end, label_end + plot_w);
  const std::vector<double> ticks = x.ticks();
  double right_w = 12;
  for (const doc::Bar& b : c.bars)
    right_w = std::max(right_w, std::max(x.at(b.median), x.at(b.hi)) - (label_end + plot_w) + 4 +
                                    text_px(value(c, b.median)) + 8);
  right_w = std::max(right_w, text_px(label(c, ticks.back())) / 2 + 8);
  // One legend entry per kind of bar shown.
  std::vector<std::pair<const char*, const char*>> legend;
  for (auto [cls, name] : {std::pair{"zap", "ZAP"}, std::pair{"json", "JSON"},
                           std::pair{"peer", "binary peer"}, std::pair{"limit", "limit of the machine"}})
    for (const doc::Bar& b : c.bars)
      if (std::string_view(family_class(b.family, b.limit)) == cls) {
        legend.emplace_back(cls, name);
        break;
      }
  double legend_w = 0;
  for (auto [cls, name] : legend) legend_w += 14 + 4 + text_px(name) + 12;
  const double width =
      std::max({label_end + plot_w + right_w, 6 + group_w + 8, text_px(c.title, kTitlePx, true) + 12,
                label_end + plot_w / 2 + text_px(c.x_title) / 2 + 8, 6 + legend_w + 8});
  const double height = axis_y + 40 + (legend.empty() ? 0 : 20);
  std::string s = svg_open(c, "bars", width, height, standalone);
  // A tick label is centred on its tick: thin the ticks until neighbours' labels do not meet.
  double last_end = -INFINITY;
  for (double v : ticks) {
    s += line(x.at(v), top - 4, x.at(v), axis_y, "grid");
    const double half = text_px(label(c, v)) / 2;
    if (x.at(v) - half < last_end + 4) continue;
    s += text(x.at(v), axis_y + 14, label(c, v), "middle", "tick");
    last_end = x.at(v) + half;
  }
  s += text(label_end + plot_w / 2, axis_y + 30, c.x_title, "middle", "axis");
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const doc::Bar& b = c.bars[i];
    const double y0 = bar_y[i], x0 = x.at(x.log ? ticks.front() : 0);
    const double x1 = std::max(x.at(b.median), x0 + 1);
    if (!b.group.empty() && (i == 0 || c.bars[i - 1].group != b.group))
      s += text(6, y0 - row_h * 0.32, b.group, "start", "group");
    s += text(label_end - 6, y0 + row_h * 0.68, b.label, "end", "label");
    s += "<rect class=\"mark " + std::string(family_class(b.family, b.limit)) + "\" x=\"" + px(x0) +
         "\" y=\"" + px(y0 + 4) + "\" width=\"" + px(x1 - x0) + "\" height=\"" + px(row_h - 8) +
         "\"><title>" +
         esc((b.group.empty() ? "" : b.group + ", ") + b.label + ": " + value(c, b.median) + " (min " +
             value(c, b.lo) + ", max " + value(c, b.hi) + ")") +
         "</title></rect>\n";
    if (b.hi > b.lo) {
      const double ym = y0 + row_h / 2;
      s += line(x.at(b.lo), ym, x.at(b.hi), ym, "whisker");
      s += line(x.at(b.lo), ym - 4, x.at(b.lo), ym + 4, "whisker");
      s += line(x.at(b.hi), ym - 4, x.at(b.hi), ym + 4, "whisker");
    }
    s += text(std::max(x1, x.at(b.hi)) + 4, y0 + row_h * 0.68, value(c, b.median), "start", "value");
  }
  double lx = 6;
  for (auto [cls, name] : legend) {
    s += "<rect class=\"swatch " + std::string(cls) + "\" x=\"" + px(lx) + "\" y=\"" + px(axis_y + 40) +
         "\" width=\"14\" height=\"10\"/>\n";
    s += text(lx + 18, axis_y + 49, name, "start", "legend");
    lx += 14 + 4 + text_px(name) + 12;
  }
  return s + "</svg>\n";
}

// One line per series against connections or N (log x); y linear from 0, or
// log. A line joins only points at neighbouring x values of the chart: where
// a series was not measured at an x another series was, its line breaks
// rather than pass over it.
std::string line_chart(const doc::Chart& c, bool standalone) {
  const double top = 30, legend_row = 18, plot_w = c.narrow ? 260 : 560;
  double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
  std::vector<double> xs;
  for (const doc::Series& se : c.series)
    for (const doc::Point& p : se.points) {
      xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
      xs.push_back(p.x);
      for (double v : {p.median, p.lo, p.hi})
        if (v > 0) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
    }
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const double plot_h = std::max(240.0, text_px(c.y_title) + 16);
  const double axis_y = top + plot_h;
  const ValueAxis yaxis(c.log_y, ylo, yhi, axis_y, top);
  const std::vector<double> yticks = yaxis.ticks();
  double tick_w = 0, legend_w = 0;
  for (double v : yticks) tick_w = std::max(tick_w, text_px(label(c, v)));
  for (const doc::Series& se : c.series) legend_w = std::max(legend_w, text_px(se.label));
  const double left = 6 + kFontPx + 8 + tick_w + 6;  // the y title, rotated; then the ticks
  const LogAxis x(xlo, xhi, left, left + plot_w);
  const double right = std::max(20.0, xs.empty() ? 0 : text_px(doc::with_unit(xs.back(), "", true)) / 2 + 8);
  const double width =
      std::max({left + plot_w + right, left + 20 + legend_w + 8, text_px(c.title, kTitlePx, true) + 12,
                left + plot_w / 2 + text_px(c.x_title) / 2 + 8});
  const double height = axis_y + 44 + legend_row * double(c.series.size());
  std::string s = svg_open(c, "lines", width, height, standalone);
  for (double v : yticks) {
    s += line(left, yaxis.at(v), left + plot_w, yaxis.at(v), "grid");
    s += text(left - 6, yaxis.at(v) + 4, label(c, v), "end", "tick");
  }
  for (double v : xs) {
    s += line(x.at(v), top, x.at(v), axis_y, "grid");
    s += text(x.at(v), axis_y + 14, doc::with_unit(v, "", true), "middle", "tick");
  }
  s += text(left + plot_w / 2, axis_y + 32, c.x_title, "middle", "axis");
  s += "<text class=\"axis\" transform=\"translate(" + px(6 + kFontPx) + " " + px(top + plot_h / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + esc(c.y_title) + "</text>\n";
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const doc::Series& se = c.series[i];
    const std::string colour = se.limit ? "#000000" : kPalette[i % std::size(kPalette)];
    std::vector<doc::Point> points = se.points;
    std::sort(points.begin(), points.end(),
              [](const doc::Point& a, const doc::Point& b) { return a.x < b.x; });
    std::string d;
    bool joined = false;
    for (std::size_t k = 0; k < points.size(); ++k) {
      const auto between = std::upper_bound(xs.begin(), xs.end(), k ? points[k - 1].x : 0.0);
      const bool join = k > 0 && between != xs.end() && *between == points[k].x;
      joined = joined || join;
      d += join ? 'L' : 'M';
      d.append(px(x.at(points[k].x))).append(" ").append(px(yaxis.at(points[k].median)));
    }
    s += "<g style=\"color:" + colour + "\">\n";
    if (joined)
      s += "<path class=\"mark line\"" + std::string(se.limit ? " stroke-dasharray=\"6 4\"" : "") + " d=\"" +
           d + "\"/>\n";
    for (const doc::Point& p : points) {
      if (p.hi > p.lo) s += line(x.at(p.x), yaxis.at(p.lo), x.at(p.x), yaxis.at(p.hi), "whisker");
      s += "<circle class=\"mark\" cx=\"" + px(x.at(p.x)) + "\" cy=\"" + px(yaxis.at(p.median)) +
           "\" r=\"3.5\"><title>" +
           esc(se.label + ", " + c.x_short + " " + doc::with_unit(p.x, "", true) + ": " + value(c, p.median) +
               " (min " + value(c, p.lo) + ", max " + value(c, p.hi) + ")") +
           "</title></circle>\n";
    }
    const double ly = axis_y + 44 + legend_row * double(i);
    s += "<rect class=\"swatch\" x=\"" + px(left) + "\" y=\"" + px(ly - 9) +
         "\" width=\"14\" height=\"10\"/>\n";
    s += text(left + 20, ly, se.label, "start", "legend");
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace

std::string svg(const Chart& c, bool standalone) {
  return c.bars.empty() ? line_chart(c, standalone) : bar_chart(c, standalone);
}

}  // namespace report::doc
