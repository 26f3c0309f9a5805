// report/document.hpp — the report as a list of blocks (headings, text,
// tables, code, charts), built once from the model by document.cpp. The
// Markdown and HTML writers only render these blocks, so report.md and
// report.html cannot disagree on a number. Internal to the report component,
// but for its tables and their plain-text writer (Table, text_table), which
// micro's summary prints with (micro/summary.cpp).
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"
#include "report/select.hpp"

namespace report::doc {

// A run of text. Plain text is escaped by each writer; `code` is shown as
// code, `strong` as bold, `link` as a link to the heading whose anchor is
// `anchor` (Block::anchor).
struct Text {
  enum class Style { plain, code, strong, link };
  std::string s;
  Style style = Style::plain;
  std::string anchor;  // link only
  Text(std::string text, Style st = Style::plain) : s(std::move(text)), style(st) {}
  Text(const char* text) : s(text) {}
};
using Runs = std::vector<Text>;
inline Text code(std::string s) { return {std::move(s), Text::Style::code}; }
inline Text strong(std::string s) { return {std::move(s), Text::Style::strong}; }
inline Text link(std::string s, std::string anchor) {
  Text t{std::move(s), Text::Style::link};
  t.anchor = std::move(anchor);
  return t;
}

struct Table {
  std::vector<std::string> header;
  std::string align;  // one 'l' or 'r' per column
  std::vector<std::vector<Text>> rows;
};

// Charts are drawn only in the HTML (and findings-*.svg); the same numbers
// are in the tables. Values are in the chart's unit (Chart::unit, ::to_base).
struct Bar {  // one figure: a codec's ns/op for one op, a cell's figure
  std::string label;
  double median = 0, lo = 0, hi = 0;
  Family family = Family::json;  // ZAP, JSON and the binary peers get a colour each
  bool limit = false;            // a limit of the machine (memcpy, the floor): grey
  std::string group;             // bars of one group (an op) follow each other; its name on the first
};
struct Point {
  double x = 0, median = 0, lo = 0, hi = 0;
};
struct Series {  // one arm/framing/body across connection counts, or one codec across N
  std::string label;
  std::vector<Point> points;
  bool limit = false;  // a limit of the machine (memcpy, the floor), drawn dashed in black
  Family family = Family::json;
};
struct Chart {
  std::string id;  // data-chart attribute, unique in the report
  std::string title;
  std::string x_title, y_title;
  bool log_y = false;          // bars: the value axis; lines: the y axis (x is always log)
  std::vector<Bar> bars;       // a horizontal bar chart when non-empty
  std::vector<Series> series;  // else a line chart
  std::string x_short = "c";   // lines: the x value's name in a point's tooltip ("c 16", "N 1000")
  // The values' unit once multiplied by to_base: "s", "B", "B/s"; "" for a
  // count (requests/s: the title names it). Labels scale it (with_unit).
  std::string unit = "s";
  double to_base = 1e-9;
  bool narrow = false;  // beside a table: about half the width
};

// A line chart whose series were each measured at one x value (a quick run's
// one connection count) as the bar chart it is: one bar per series, titled
// `title`. Where several x values were measured, the chart as it is.
Chart bars_if_one_x(Chart c, std::string title);

struct Block {
  // glance: a table with its chart beside it (HTML; Markdown: the table).
  enum class Kind { heading, paragraph, bullets, table, code, chart, glance };
  Kind kind = Kind::paragraph;
  int level = 0;            // heading: 1..3
  std::string anchor;       // heading: the target of links to it ([a-z0-9-]; empty: none)
  Runs runs;                // heading, paragraph
  std::vector<Runs> items;  // bullets
  Table table;              // table, glance
  std::string summary;      // code: a one-line title (HTML: a collapsed <details>)
  std::string text;         // code
  Chart chart;              // chart, glance
};

std::vector<Block> build(const Results& r);
// What the report opens with, alone: the findings at a glance (doc_found.cpp),
// the blocks of findings.md and of the terminal's summary.
std::vector<Block> glance(const Results& r);

// The writers of the blocks (markdown.cpp, html.cpp, svg.cpp, text.cpp).
std::string markdown(const std::vector<Block>& blocks);
// One chart as SVG (svg.cpp); standalone: a file of its own, with its style inside.
std::string svg(const Chart& c, bool standalone);
// The charts' own style (svg.cpp): in report.html's <style>, and inside a standalone SVG.
extern const char* const kChartStyle;
// Text escaped for HTML and SVG: & < > " ' (svg.cpp).
std::string esc(const std::string& s);
// Plain text for a terminal: tables in aligned columns, charts left out.
std::string text(const std::vector<Block>& blocks);
// Columns padded to the widest cell by displayed characters, left- or
// right-aligned as Table::align says, a rule under the header if asked
// (compare's table too).
std::string text_table(const Table& t, bool rule = false);

// Number formatting shared with compare.cpp. Deterministic (C locale).
std::string fixed(double v, int decimals);
std::string grouped(double v);  // 158771.4 -> "158,771"
std::string sig(double v);      // 3-4 significant figures: 4.23, 68.8, 1333
int sig_decimals(double v);     // the decimals sig() uses for v
// v in `unit` with the SI prefix that fits, 3 significant figures:
// (571556e-9, "s") -> "572 µs", (2.1e9, "B/s") -> "2.10 GB/s", (1500, "") ->
// "1.50k" (a count takes no prefix below one). trim: "1 µs", not "1.00 µs" (axis labels).
std::string with_unit(double v, std::string_view unit, bool trim = false);
// Displayed characters of UTF-8 text ("µ" is two bytes, one character).
std::size_t display_width(std::string_view s);

}  // namespace report::doc
