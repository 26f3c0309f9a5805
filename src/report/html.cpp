// report/html.cpp — report.html: the report's blocks (document.cpp) as one
// self-contained page (inline CSS, inline SVG charts, no external resource;
// a table at a glance with its chart beside it), plus a small script that
// records on each chart how many marks rendered, their bounding box, the
// texts outside it and the lines it drew, so a headless browser can check the
// charts are real and clip nothing. Each chart also as a standalone SVG
// (svg.cpp). All text from the model is HTML-escaped.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/document.hpp"

namespace report {
namespace {

using doc::Block;
using doc::Text;

using doc::esc;

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

const std::string kStyle = R"(
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1a1a1a;max-width:1180px;margin:2em auto;padding:0 1em}
h1{font-size:1.7em}h2{margin-top:2em;border-bottom:1px solid #ddd;padding-bottom:.2em}h3{margin-top:1.6em}
table{border-collapse:collapse;margin:.6em 0 1.2em;font-size:13.5px;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #d6d6d6;padding:3px 8px;vertical-align:top;text-align:left}
th{background:#f3f3f3}td.r,th.r{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,pre{font:12.5px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;background:#f5f5f5}
code{padding:0 3px;word-break:break-all}pre{padding:.6em;overflow-x:auto;white-space:pre-wrap}
details{margin:.3em 0}summary{cursor:pointer}figure{margin:1em 0}
svg.chart{display:block;max-width:100%;height:auto;font-size:12px;font-family:inherit}
.glance{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}.glance table{margin:0}
.glance figure{margin:0;flex:1 1 280px;min-width:260px}
)" + std::string(doc::kChartStyle);

// Runs once the charts above it are parsed, and again on load: getBBox of the
// marks proves they were laid out with a real size; data-text-outside counts
// the texts whose box is not inside their chart's (clipped: the report test
// wants none), data-lines the lines a line chart drew; the body's
// data-overflow-x how many pixels the page scrolls sideways (a wide table
// scrolls in its own box instead: the report test wants 0).
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
      var box = svg.getBoundingClientRect(), outside = [];
      svg.querySelectorAll('text').forEach(function (t) {
        var b = t.getBoundingClientRect();
        if (b.left < box.left - 0.5 || b.top < box.top - 0.5 || b.right > box.right + 0.5 || b.bottom > box.bottom + 0.5)
          outside.push(t.textContent);
      });
      svg.setAttribute('data-text-outside', String(outside.length));
      if (outside.length) svg.setAttribute('data-outside', outside.join(' | '));
      svg.setAttribute('data-lines', String(svg.querySelectorAll('path.line').length));
    });
    document.body.dataset.charts = String(charts.length);
    var root = document.documentElement;
    document.body.dataset.overflowX = String(Math.max(0, root.scrollWidth - root.clientWidth));
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
        out += "<figure>\n" + doc::svg(b.chart, false) + "</figure>\n";
        break;
      case Block::Kind::glance:
        out += "<div class=\"glance\">\n" + table(b.table) + "<figure>\n" + doc::svg(b.chart, false) +
               "</figure>\n</div>\n";
        break;
    }
  }
  out += "<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
  return out;
}

}  // namespace report
