// report/html.cpp — report.html: the report's blocks (document.cpp) as one
// self-contained page (inline CSS, inline SVG charts, no external resource),
// plus a small script that records on each chart how many marks rendered and
// their bounding box, so a headless browser can check the charts are real.
// All text from the model is HTML-escaped.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/document.hpp"

namespace report {
namespace {

using doc::Block;
using doc::Text;

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

std::string runs(const doc::Runs& rs) {
  std::string out;
  for (const Text& t : rs) {
    switch (t.style) {
      case Text::Style::plain:
        out += esc(t.s);
        break;
      case Text::Style::code:
        out += "<code>" + esc(t.s) + "</code>";
        break;
      case Text::Style::strong:
        out += "<strong>" + esc(t.s) + "</strong>";
        break;
      case Text::Style::link:
        out += "<a href=\"#" + esc(t.anchor) + "\">" + esc(t.s) + "</a>";
        break;
    }
  }
  return out;
}

std::string table(const doc::Table& t) {
  auto cls = [&](std::size_t i) { return i < t.align.size() && t.align[i] == 'r' ? " class=\"r\"" : ""; };
  std::string out = "<table>\n<thead><tr>";
  for (std::size_t i = 0; i < t.header.size(); ++i)
    out += "<th" + std::string(cls(i)) + ">" + esc(t.header[i]) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i)
      out += "<td" + std::string(cls(i)) + ">" + runs({row[i]}) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

// --- SVG charts ------------------------------------------------------------------

const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
                                "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79", "#637939"};

std::string px(double v) { return doc::fixed(v, 1); }

// 1500 -> "1.5k", 2000000 -> "2M": axis labels only; tables carry full figures.
std::string short_num(double v) {
  auto trim = [](std::string s) {
    if (s.find('.') != std::string::npos) {
      while (s.back() == '0') s.pop_back();
      if (s.back() == '.') s.pop_back();
    }
    return s;
  };
  const double a = std::fabs(v);
  if (a >= 1e6) return trim(doc::fixed(v / 1e6, 2)) + "M";
  if (a >= 1e3) return trim(doc::fixed(v / 1e3, 2)) + "k";
  return trim(doc::fixed(v, 2));
}

std::string ns_label(double ns) {
  if (ns >= 1e6) return short_num(ns / 1e6) + " ms";
  if (ns >= 1e3) return short_num(ns / 1e3) + " µs";
  return short_num(ns) + " ns";
}

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

std::string svg_open(const doc::Chart& c, double w, double h) {
  return "<figure>\n<svg class=\"chart\" data-chart=\"" + esc(c.id) +
         "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + px(w) + "\" height=\"" + px(h) +
         "\" viewBox=\"0 0 " + px(w) + " " + px(h) + "\" role=\"img\" aria-label=\"" + esc(c.title) +
         "\">\n<text class=\"title\" x=\"4\" y=\"16\">" + esc(c.title) + "</text>\n";
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

// Horizontal bars, one per codec, on a log axis: the fastest and slowest
// codecs differ by ~300×, which a linear axis would flatten to one bar.
std::string bar_chart(const doc::Chart& c) {
  const double label_w = 110, right_w = 90, row_h = 24, top = 30, width = 760;
  const double plot_w = width - label_w - right_w, height = top + row_h * double(c.bars.size()) + 44;
  double lo = INFINITY, hi = 0;
  for (const doc::Bar& b : c.bars)
    for (double v : {b.median, b.lo, b.hi})
      if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  const LogAxis x(std::isfinite(lo) ? lo : 1, hi, label_w, label_w + plot_w);
  const double axis_y = top + row_h * double(c.bars.size());
  std::string s = svg_open(c, width, height);
  for (int d = x.d0; d <= x.d1; ++d) {
    const double v = std::pow(10.0, d), gx = x.at(v);
    s += line(gx, top - 4, gx, axis_y, "grid");
    s += text(gx, axis_y + 14, ns_label(v), "middle", "tick");
  }
  s += text(label_w + plot_w / 2, axis_y + 34, c.x_title, "middle", "axis");
  for (std::size_t i = 0; i < c.bars.size(); ++i) {
    const doc::Bar& b = c.bars[i];
    const double y = top + row_h * double(i), x0 = x.at(std::pow(10.0, x.d0));
    const double x1 = std::max(x.at(b.median), x0 + 1);
    s += text(label_w - 6, y + row_h * 0.65, b.label, "end", "label");
    s += "<rect class=\"mark " + std::string(b.zap ? "zap" : "json") + "\" x=\"" + px(x0) + "\" y=\"" +
         px(y + 4) + "\" width=\"" + px(x1 - x0) + "\" height=\"" + px(row_h - 8) + "\"><title>" +
         esc(b.label + ": " + doc::sig(b.median) + " ns/op (min " + doc::sig(b.lo) + ", max " +
             doc::sig(b.hi) + ")") +
         "</title></rect>\n";
    if (b.hi > b.lo) {
      const double ym = y + row_h / 2;
      s += line(x.at(b.lo), ym, x.at(b.hi), ym, "whisker");
      s += line(x.at(b.lo), ym - 4, x.at(b.lo), ym + 4, "whisker");
      s += line(x.at(b.hi), ym - 4, x.at(b.hi), ym + 4, "whisker");
    }
    s += text(std::max(x1, x.at(b.hi)) + 4, y + row_h * 0.65, doc::sig(b.median) + " ns", "start", "value");
  }
  return s + "</svg>\n</figure>\n";
}

// One line per series against connections (log x); y linear from 0, or log.
std::string line_chart(const doc::Chart& c) {
  const double width = 760, left = 70, right = 20, top = 30, plot_h = 240, legend_row = 18;
  const double plot_w = width - left - right, axis_y = top + plot_h;
  const double height = axis_y + 44 + legend_row * double(c.series.size());
  double xlo = INFINITY, xhi = 0, ylo = INFINITY, yhi = 0;
  for (const doc::Series& se : c.series)
    for (const doc::Point& p : se.points) {
      xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
      for (double v : {p.median, p.lo, p.hi})
        if (v > 0) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
    }
  const LogAxis x(xlo, xhi, left, left + plot_w);
  std::string s = svg_open(c, width, height);
  // y axis: log decades, or linear 0..a round maximum with ~5 steps.
  const LogAxis ylog(std::isfinite(ylo) ? ylo : 1, yhi, axis_y, top);
  double step = 1;
  if (yhi > 0) {
    const double raw = yhi / 5, mag = std::pow(10.0, std::floor(std::log10(raw)));
    step = raw / mag <= 1 ? mag : raw / mag <= 2 ? 2 * mag : raw / mag <= 5 ? 5 * mag : 10 * mag;
  }
  const double ymax = std::max(step, std::ceil(yhi / step) * step);
  auto y = [&](double v) { return c.log_y ? ylog.at(v) : axis_y - v / ymax * plot_h; };
  if (c.log_y) {
    for (int d = ylog.d0; d <= ylog.d1; ++d) {
      const double v = std::pow(10.0, d);
      s += line(left, y(v), left + plot_w, y(v), "grid");
      // Log ticks are latencies in µs: "1,000", not "1k" (which reads as a count).
      s += text(left - 6, y(v) + 4, v >= 1 ? doc::grouped(v) : short_num(v), "end", "tick");
    }
  } else {
    for (double v = 0; v <= ymax * 1.0001; v += step) {
      s += line(left, y(v), left + plot_w, y(v), "grid");
      s += text(left - 6, y(v) + 4, short_num(v), "end", "tick");
    }
  }
  std::vector<double> xs;
  for (const doc::Series& se : c.series)
    for (const doc::Point& p : se.points) xs.push_back(p.x);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  for (double v : xs) {
    s += line(x.at(v), top, x.at(v), axis_y, "grid");
    s += text(x.at(v), axis_y + 14, short_num(v), "middle", "tick");
  }
  s += text(left + plot_w / 2, axis_y + 32, c.x_title, "middle", "axis");
  s += "<text class=\"axis\" transform=\"translate(14 " + px(top + plot_h / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + esc(c.y_title) + "</text>\n";
  for (std::size_t i = 0; i < c.series.size(); ++i) {
    const doc::Series& se = c.series[i];
    const std::string colour = se.limit ? "#000000" : kPalette[i % std::size(kPalette)];
    std::string d;
    for (const doc::Point& p : se.points) {
      d += d.empty() ? 'M' : 'L';
      d.append(px(x.at(p.x))).append(" ").append(px(y(p.median)));
    }
    s += "<g style=\"color:" + colour + "\">\n";
    if (se.points.size() > 1)
      s += "<path class=\"mark line\"" + std::string(se.limit ? " stroke-dasharray=\"6 4\"" : "") + " d=\"" +
           d + "\"/>\n";
    for (const doc::Point& p : se.points) {
      if (p.hi > p.lo) s += line(x.at(p.x), y(p.lo), x.at(p.x), y(p.hi), "whisker");
      s += "<circle class=\"mark\" cx=\"" + px(x.at(p.x)) + "\" cy=\"" + px(y(p.median)) +
           "\" r=\"3.5\"><title>" +
           esc(se.label + ", " + c.x_short + " " + short_num(p.x) + ": " + doc::sig(p.median) + " (min " +
               doc::sig(p.lo) + ", max " + doc::sig(p.hi) + ")") +
           "</title></circle>\n";
    }
    const double ly = axis_y + 44 + legend_row * double(i);
    s += "<rect class=\"swatch\" x=\"" + px(left) + "\" y=\"" + px(ly - 9) +
         "\" width=\"14\" height=\"10\"/>\n";
    s += text(left + 20, ly, se.label, "start", "legend");
    s += "</g>\n";
  }
  return s + "</svg>\n</figure>\n";
}

constexpr const char* kStyle = R"(
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;max-width:1180px;margin:2em auto;padding:0 1em}
h1{font-size:1.7em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:13.5px}
th,td{border:1px solid #d6d6d6;padding:3px 8px;vertical-align:top;text-align:left}
th{background:#f3f3f3}td.r,th.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;background:#f5f5f5}
code{padding:0 3px;word-break:break-all}pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}figure{margin:1em 0}
svg.chart{display:block;max-width:100%;height:auto;font-size:12px;font-family:inherit}
svg .title{font-weight:600;font-size:13px}svg .grid{stroke:#e4e4e4;fill:none}svg .tick,svg .axis{fill:#555}
svg rect.json{fill:#4c78a8}svg rect.zap{fill:#f58518}svg .whisker{stroke:#222;stroke-width:1.2;fill:none}
svg .line{fill:none;stroke:currentColor;stroke-width:2}svg circle.mark,svg .swatch{fill:currentColor}
svg g .whisker{stroke:currentColor}
)";

// Runs once the charts above it are parsed, and again on load: getBBox of the
// marks proves they were laid out with a real size.
constexpr const char* kScript = R"(
(function () {
  function measure() {
    var charts = document.querySelectorAll('svg.chart');
    charts.forEach(function (svg) {
      var marks = svg.querySelectorAll('.mark'), x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      marks.forEach(function (m) {
        var b = m.getBBox();
        x0 = Math.min(x0, b.x); y0 = Math.min(y0, b.y);
        x1 = Math.max(x1, b.x + b.width); y1 = Math.max(y1, b.y + b.height);
      });
      svg.setAttribute('data-marks', String(marks.length));
      svg.setAttribute('data-bbox', marks.length ? Math.round(x1 - x0) + '\u00d7' + Math.round(y1 - y0) : '0\u00d70');
    });
    document.body.dataset.charts = String(charts.length);
  }
  measure();
  window.addEventListener('load', measure);
})();
)";

}  // namespace

std::string html(const Results& r) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
      esc("zapbench results — " + r.env.hostname + ", " + r.env.started_utc) + "</title>\n<style>" + kStyle +
      "</style>\n</head>\n<body>\n";
  for (const Block& b : doc::build(r)) {
    switch (b.kind) {
      case Block::Kind::heading: {
        const std::string h = "h" + std::to_string(std::clamp(b.level, 1, 6));
        const std::string id = b.anchor.empty() ? "" : " id=\"" + esc(b.anchor) + "\"";
        out += "<" + h + id + ">" + runs(b.runs) + "</" + h + ">\n";
        break;
      }
      case Block::Kind::paragraph:
        out += "<p>" + runs(b.runs) + "</p>\n";
        break;
      case Block::Kind::bullets:
        out += "<ul>\n";
        for (const doc::Runs& item : b.items) out += "<li>" + runs(item) + "</li>\n";
        out += "</ul>\n";
        break;
      case Block::Kind::table:
        out += table(b.table);
        break;
      case Block::Kind::code:
        out += "<details><summary>" + esc(b.summary) + "</summary><pre><code>" + esc(b.text) +
               "</code></pre></details>\n";
        break;
      case Block::Kind::chart:
        out += b.chart.bars.empty() ? line_chart(b.chart) : bar_chart(b.chart);
        break;
    }
  }
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace report
