// report/document.hpp — the report as a list of blocks (headings, text,
// tables, code, charts), built once from the model by document.cpp. The
// Markdown and HTML writers only render these blocks, so report.md and
// report.html cannot disagree on a number. Internal to the report component.
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"

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

// Charts are drawn only in the HTML; the same numbers are in the tables.
struct Bar {  // one codec's ns/op for one op
  std::string label;
  double median = 0, lo = 0, hi = 0;
  bool zap = false;  // ZAP bars get their own colour
};
struct Point {
  double x = 0, median = 0, lo = 0, hi = 0;
};
struct Series {  // one arm/framing/body across connection counts, or one codec across N
  std::string label;
  std::vector<Point> points;
  bool limit = false;  // a limit of the machine (memcpy), drawn dashed in black
};
struct Chart {
  std::string id;  // data-chart attribute, unique in the report
  std::string title;
  std::string x_title, y_title;
  bool log_y = false;          // bars: the value axis; lines: the y axis (x is always log)
  std::vector<Bar> bars;       // a horizontal bar chart when non-empty
  std::vector<Series> series;  // else a line chart
  std::string x_short = "c";   // lines: the x value's name in a point's tooltip ("c 16", "N 1000")
};

struct Block {
  enum class Kind { heading, paragraph, bullets, table, code, chart };
  Kind kind = Kind::paragraph;
  int level = 0;            // heading: 1..3
  std::string anchor;       // heading: the target of links to it ([a-z0-9-]; empty: none)
  Runs runs;                // heading, paragraph
  std::vector<Runs> items;  // bullets
  Table table;              // table
  std::string summary;      // code: a one-line title (HTML: a collapsed <details>)
  std::string text;         // code
  Chart chart;              // chart
};

std::vector<Block> build(const Results& r);

// Number formatting shared with compare.cpp. Deterministic (C locale).
std::string fixed(double v, int decimals);
std::string grouped(double v);  // 158771.4 -> "158,771"
std::string sig(double v);      // 3-4 significant figures: 4.23, 68.8, 1333
int sig_decimals(double v);     // the decimals sig() uses for v

}  // namespace report::doc
