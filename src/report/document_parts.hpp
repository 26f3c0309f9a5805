// report/document_parts.hpp — what the report's sections share (document.cpp
// builds the document from them): the blocks being written (Out), number and
// verdict formatting, and one entry per section, each in its own file:
// doc_run.cpp (when and where, how it was measured, fairness, command lines,
// caveats), doc_found.cpp (what it found), doc_micro.cpp (microbenchmarks,
// the request path, the logs record), doc_go.cpp (the Go reference's stack),
// doc_end_to_end.cpp (the end-to-end tables, ratios and charts, loader hosts), doc_c100k.cpp (the
// c100k scenario).
// Internal to the report component.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "report/document.hpp"
#include "report/paired_figures.hpp"
#include "report/select.hpp"
#include "stats/estimate.hpp"

namespace report::doc {

struct Out {
  std::vector<Block> blocks;
  void heading(int level, std::string text, std::string anchor = "") {
    Block b;
    b.kind = Block::Kind::heading;
    b.level = level;
    b.anchor = std::move(anchor);
    b.runs = {Text(std::move(text))};
    blocks.push_back(std::move(b));
  }
  void para(Runs runs) {
    Block b;
    b.runs = std::move(runs);
    blocks.push_back(std::move(b));
  }
  void bullets(std::vector<Runs> items) {
    Block b;
    b.kind = Block::Kind::bullets;
    b.items = std::move(items);
    blocks.push_back(std::move(b));
  }
  void table(Table t) {
    Block b;
    b.kind = Block::Kind::table;
    b.table = std::move(t);
    blocks.push_back(std::move(b));
  }
  void code(std::string summary, std::string text) {
    Block b;
    b.kind = Block::Kind::code;
    b.summary = std::move(summary);
    b.text = std::move(text);
    blocks.push_back(std::move(b));
  }
  void chart(Chart c) {
    Block b;
    b.kind = Block::Kind::chart;
    b.chart = std::move(c);
    blocks.push_back(std::move(b));
  }
};

// ---- formatting shared by the sections (document.cpp)

// "median (min–max)", each number formatted like the median; one sample: the value alone.
std::string med_range(const Samples& s, double scale, bool group);
// The same in the unit that fits the median (values × to_base in `unit`): "2.25 (2.20–2.31) ms".
std::string med_range_in(const Samples& s, double to_base, std::string_view unit);
std::string times(double ratio);  // "1.24×"; "—" when not finite
std::string count(double v);      // whole numbers without decimals
std::string cpu_list(const std::vector<int>& cpus);
std::string seconds(double s);  // "42 s", "1234 s (20 min 34 s)"
// What joins the server and the loaders (Environment::link), and whether it was one machine.
std::string link_of(const Environment& e);
bool one_host(const Environment& e);
std::string transport(const Environment& e);  // "loopback TCP", "TCP between hosts (...)"
std::string version_commit(const std::string& version);

// ---- figures beside a ratio, and modes (paired_figures.hpp; document.cpp)

// The mark after a figure whose rounds fall in separate modes; a note under
// its table names them.
inline constexpr const char* kModesMark = "¦";
// The mark after a ratio whose figures beside it divide to something outside
// its interval (figures that are not the geometric means over its rounds); a
// note under its table says why, with the figures it is of.
inline constexpr const char* kOutsideMark = "†";
// "rounds 0–3", "round 5", "rounds 0, 3, 5–7" (0-based, as results.json numbers them).
std::string rounds_text(std::vector<unsigned> rounds);
// "two modes: 32.1 ns in rounds 0–3; 52.0 ns in rounds 4–16", each median as `value` says it.
std::string modes_text(const std::vector<Mode>& modes, const std::function<std::string(double)>& value);
// " ¦" after a figure whose rounds fall in separate modes; "" otherwise.
std::string modes_mark(const std::vector<Mode>& modes);
// A table's cell for the figure `s` (its text `cell`), with the modes mark
// when its rounds fall in separate modes, and then a note for under the
// table, "¦ <what>: two modes: ...", each median as `value` says it.
std::string with_modes(std::string cell, const Samples& s, const std::string& what,
                       const std::function<std::string(double)>& value, std::vector<Runs>& notes);
// How the notes on modes read: a time in ns ("23.7 ns"), in µs, and so on.
std::string ns_text(double ns);

// ---- verdicts (document.cpp): every comparison shown the same way

// An estimate turned the way the report reads it: x above 1 = the subject better.
struct Shown {
  double x = NAN, lo = NAN, hi = NAN;
  const stats::Estimate* e = nullptr;
};
Shown shown(const stats::Estimate& e, stats::Better better);
const char* mark(stats::Verdict v);  // ▲ ▼ ≈ ?
bool rounds_recorded(const Results& r);
std::string margin_text(const Results& r);
std::string verdict_cell(const stats::Estimate& e, stats::Better better);  // "1.24× (1.15–1.33) ▲"
std::string verdict_text(const stats::Estimate& e,
                         stats::Better better);  // "ahead, 1.24× (1.15–1.33×), 12 rounds"
std::string interval_text(const stats::Estimate& e, bool percent);  // "41% (39–43%)"
Runs mark_legend(const Results& r);
// The cell a finding's key (Cell::id) names; null for none (doc_found.cpp).
const Cell* cell_of(const Results& r, const std::string& key);

// A row of the end-to-end tables by name: "zapbench ZAP-RPC + ZAP", the floor
// with its byte counts (doc_end_to_end.cpp; the command lines name rows alike).
std::string row_label(const Results& r, const RowKey& k, const std::vector<const Cell*>& cells);

// ---- the sections, in the report's order (build() in document.cpp)

void when_where(const Results& r, Out& out);    // doc_run.cpp; opens with found()
void found(const Results& r, Out& out);         // doc_found.cpp
void how_measured(const Results& r, Out& out);  // doc_run.cpp
void fairness(const Results& r, Out& out);      // doc_run.cpp
void micro(const Results& r, Out& out);         // doc_micro.cpp, with go_reference()
void go_reference(const Results& r, Out& out);  // doc_go.cpp
void end_to_end(const Results& r, Out& out);    // doc_end_to_end.cpp
void loader_hosts(const Results& r, Out& out);  // doc_end_to_end.cpp
void c100k(const Results& r, Out& out);         // doc_c100k.cpp: absent without the scenario
void conformance(const Results& r, Out& out);   // doc_conformance.cpp: absent when h2spec did not run
void commands(const Results& r, Out& out);      // doc_run.cpp
void caveats(const Results& r, Out& out);       // doc_run.cpp

}  // namespace report::doc
