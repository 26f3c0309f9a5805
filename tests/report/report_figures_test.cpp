// tests/report/report_figures_test.cpp — the figures printed beside a ratio
// divide to it (issue 46, item 7): the issue's Encode reconstructed (ZAP's 17
// rounds in two modes, the binary peer's 4), and the committed quick run
// (docs/results/results.json): for every finding, its two figures' quotient
// inside its interval; in every findings table as printed (findings.md, the
// terminal's text, report.md's glance and its lines in words), the printed
// figures' quotient inside the printed interval, as a reader dividing them
// would find it up to their rounding; and a figure whose rounds fall in
// separate modes marked, its modes named with their rounds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "report/findings.hpp"
#include "report/model.hpp"

namespace {

using namespace fixtures;
using report::Finding;

// --- reading a printed table as a reader would -------------------------------------------

// A printed figure in its base unit (s, B/s, requests/s), and half its last printed digit: the
// value it stands for lies within ± half of it.
struct Printed {
  double value = NAN, half = NAN;
};

// "4.91 ns", "1.56 ms", "120 µs", "262,723", "3.53 GB/s"; a modes mark after it is not part of it.
std::optional<Printed> figure_of(std::string s) {
  if (const auto mark = s.find(" ¦"); mark != std::string::npos) s.erase(mark);
  static const std::regex re(R"(^([0-9][0-9,]*)(?:\.([0-9]+))?(?: (n|µ|m|k|M|G)?(s|B/s))?$)");
  std::smatch m;
  if (!std::regex_match(s, m, re)) return std::nullopt;
  std::string digits = m[1].str() + (m[2].matched ? "." + m[2].str() : "");
  std::erase(digits, ',');
  const std::string prefix = m[3].str();
  const double scale = prefix == "n"   ? 1e-9
                       : prefix == "µ" ? 1e-6
                       : prefix == "m" ? 1e-3
                       : prefix == "k" ? 1e3
                       : prefix == "M" ? 1e6
                       : prefix == "G" ? 1e9
                                       : 1;
  const int decimals = m[2].matched ? int(m[2].length()) : 0;
  return Printed{std::stod(digits) * scale, 0.5 * std::pow(10.0, -decimals) * scale};
}

// A printed ratio with its interval: "17.29× (17.11–17.47) ▲" (a table) or "17.29× (17.11–17.47×)"
// (a line in words); none when it has no interval ("1.24× ? (2 rounds)", "—").
struct Interval {
  double lo = NAN, hi = NAN;
};
std::optional<Interval> interval_of(const std::string& s) {
  static const std::regex re(R"(^[0-9.]+× \(([0-9.]+)–([0-9.]+)(?:×)?\))");  // × is two bytes: (?:×)?
  std::smatch m;
  if (!std::regex_search(s, m, re)) return std::nullopt;
  return Interval{std::stod(m[1]), std::stod(m[2])};
}

// Whether num ÷ den, as printed, can be inside the printed interval: the figures' rounding
// widens their quotient, the interval's (two decimals) widens it.
bool divides_inside(const Printed& num, const Printed& den, const Interval& in) {
  const double q_lo = (num.value - num.half) / (den.value + den.half);
  const double q_hi = (num.value + num.half) / (den.value - den.half);
  return q_hi >= in.lo - 0.005 && q_lo <= in.hi + 0.005;
}

std::vector<std::string> cells_of(const std::string& row) {  // "| a | b |" -> {"a", "b"}
  std::vector<std::string> out;
  std::size_t at = row.find("| ");
  while (at != std::string::npos) {
    const std::size_t end = row.find(" |", at + 2);
    if (end == std::string::npos) break;
    out.push_back(row.substr(at + 2, end - at - 2));
    at = row.find("| ", end + 1);
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// "direct 84.9 ns ¦ (ZAP 4.83 ns)" -> the figure after the codec, and the one in brackets after
// `who` when there is one.
struct Cell {
  std::optional<Printed> figure, beside;
};
Cell cell_figures(const std::string& cell, const std::string& who) {
  Cell c;
  std::string main = cell;
  if (const auto open = cell.find(" (" + who + " "); open != std::string::npos && cell.ends_with(")")) {
    c.beside = figure_of(cell.substr(open + 3 + who.size(), cell.size() - open - 4 - who.size()));
    main = cell.substr(0, open);
  }
  if (const auto space = main.find(' '); space != std::string::npos && !std::isdigit(main[0]))
    main = main.substr(space + 1);  // after the codec's name
  c.figure = figure_of(main);
  return c;
}

// Every ratio with an interval in a findings document's tables at a glance (Markdown: findings.md
// or report.md's), checked against the figures printed beside it. Returns how many were checked.
int check_glance_tables(const std::string& md, const std::string& what) {
  int checked = 0;
  std::optional<Printed> floor;  // the floor's row comes last: the rows are checked once it is read
  std::vector<std::pair<std::vector<std::string>, std::string>> floor_rows;
  bool micro = false, e2e = false;
  for (const std::string& line : lines_of(md)) {
    if (line.starts_with("| in process |")) micro = true, e2e = false;
    if (line.starts_with("| framing | body | server CPU per request |")) e2e = true, micro = false;
    if (!line.starts_with("| ") || line.starts_with("|---")) {
      if (!line.starts_with("|")) micro = e2e = false;
      continue;
    }
    const std::vector<std::string> c = cells_of(line);
    // ZAP, then the fastest JSON, the fastest binary and (with the limit rows) the limit, each with its
    // ratio.
    if (micro && (c.size() == 6 || c.size() == 8) && c[0] != "in process") {
      const std::optional<Printed> zap = figure_of(c[1]);
      for (int k : {2, 4, 6}) {
        if (std::size_t(k) + 1 >= c.size()) break;
        const std::optional<Interval> in = interval_of(c[std::size_t(k) + 1]);
        if (!in) continue;
        const Cell base = cell_figures(c[std::size_t(k)], "ZAP");
        const std::optional<Printed> z = base.beside ? base.beside : zap;
        EXPECT_TRUE(z && base.figure) << what << ": " << line;
        if (!z || !base.figure) continue;
        // Time per op: ZAP against it = the other's time ÷ ZAP's.
        EXPECT_TRUE(divides_inside(*base.figure, *z, *in))
            << what << ": " << c[std::size_t(k)] << " ÷ ZAP's " << (base.beside ? "bracket" : c[1])
            << " is outside " << c[std::size_t(k) + 1] << "\n"
            << line;
        ++checked;
      }
    }
    if (e2e && c.size() == 4 && c[0] != "framing") {
      if (c[0] == "the floor")
        floor = figure_of(c[2]);
      else
        floor_rows.push_back({c, line});
    }
  }
  for (const auto& [c, line] : floor_rows) {
    const std::optional<Interval> in = interval_of(c[3]);
    if (!in) continue;
    const Cell row = cell_figures(c[2], "the floor");
    const std::optional<Printed> echo = row.beside ? row.beside : floor;
    // A figure alone in its cell: its text is the figure (cell_figures reads after a codec's name).
    const std::optional<Printed> mine = row.figure ? row.figure : figure_of(c[2]);
    EXPECT_TRUE(echo && mine) << what << ": " << line;
    if (!echo || !mine) continue;
    // Server CPU per request: against the floor = the floor's ÷ the row's.
    EXPECT_TRUE(divides_inside(*echo, *mine, *in))
        << what << ": the floor ÷ " << c[2] << " is outside " << c[3] << "\n"
        << line;
    ++checked;
  }
  return checked;
}

// The other tables that print figures beside a ratio with its interval: the Go reference's (Go
// ns/op and its C++ counterpart's beside C++ ÷ Go = Go ÷ C++), and the request path's (Handler ns
// and the path's beside the codec's share = Handler ÷ path, in percent, or a † and its note saying
// why its medians divide outside it). Returns how many were checked.
int check_beside_tables(const std::string& md) {
  int checked = 0;
  bool go = false, path = false;
  static const std::regex share_re(R"(^([0-9.]+)% \(([0-9.]+)–([0-9.]+)%\)( †)?$)");
  auto first_figure = [](const std::string& cell) { return figure_of(cell.substr(0, cell.find(" ("))); };
  for (const std::string& line : lines_of(md)) {
    if (line.starts_with("| Go codec | op | Go ns/op |")) go = true;
    if (line.starts_with("| request path | ns/request |")) path = true;
    if (!line.starts_with("|")) go = path = false;
    if (!line.starts_with("| ") || line.starts_with("| Go codec") || line.starts_with("| request path"))
      continue;
    const std::vector<std::string> c = cells_of(line);
    if (go && c.size() == 8) {
      const std::optional<Interval> in = interval_of(c[6]);
      const std::optional<Printed> g = first_figure(c[2]), cpp = figure_of(c[5]);
      if (!in) continue;
      EXPECT_TRUE(g && cpp) << line;
      if (!g || !cpp) continue;
      EXPECT_TRUE(divides_inside(*g, *cpp, *in)) << "Go ÷ C++ outside C++ ÷ Go\n" << line;
      ++checked;
    }
    std::smatch m;
    if (path && c.size() == 10 && std::regex_match(c[5], m, share_re)) {
      if (m[4].matched) {  // the row says why: a note under the table names it
        EXPECT_NE(md.find("- † " + c[0] + ": the medians beside the share divide to"), std::string::npos)
            << line;
        continue;
      }
      const std::optional<Printed> handler = figure_of(c[3]), whole = first_figure(c[1]);
      EXPECT_TRUE(handler && whole) << line;
      if (!handler || !whole) continue;
      // In whole percent: the printed interval stands for one up to half a percent wider either side.
      const double lo = (std::stod(m[2]) - 0.5) / 100, hi = (std::stod(m[3]) + 0.5) / 100;
      const double q_lo = (handler->value - handler->half) / (whole->value + whole->half),
                   q_hi = (handler->value + handler->half) / (whole->value - whole->half);
      EXPECT_TRUE(q_hi >= lo && q_lo <= hi) << "Handler ÷ path outside the share\n" << line;
      ++checked;
    }
  }
  return checked;
}

// Every finding in words with an interval: "— FIGURE: S (V1) against B (V2): **verdict, X× (LO–HI×)".
// Returns how many were checked.
int check_in_words(const std::string& md) {
  static const std::regex re(
      R"(— (time per op|requests/s|server CPU per request|MB/s of responses): .*\(([^()]*)\) against .*\(([^()]*)\): \*\*\w+, ([0-9.]+×[^*]*)\*\*)");
  int checked = 0;
  for (const std::string& line : lines_of(md)) {
    std::smatch m;
    if (!line.starts_with("- **") || !std::regex_search(line, m, re)) continue;
    const std::optional<Interval> in = interval_of(m[4]);
    if (!in) continue;
    const std::optional<Printed> s = figure_of(m[2]), b = figure_of(m[3]);
    EXPECT_TRUE(s && b) << line;
    if (!s || !b) continue;
    const bool lower_better = m[1] == "time per op" || m[1] == "server CPU per request";
    EXPECT_TRUE(lower_better ? divides_inside(*b, *s, *in) : divides_inside(*s, *b, *in)) << line;
    ++checked;
  }
  return checked;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// findings.md as `zapbench run` and `zapbench report` write it.
std::string findings_md(const report::Results& r) {
  std::string dir = (std::filesystem::temp_directory_path() / "report_figures_XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) return "";
  report::write_reports(r, dir);
  const std::string md = read(std::filesystem::path(dir) / "findings.md");
  std::filesystem::remove_all(dir);
  return md;
}

const Finding* find(const std::vector<Finding>& all, const std::string& title, Finding::Against against) {
  for (const Finding& f : all)
    if (f.title == title && f.against == against) return &f;
  return nullptr;
}

// --- the issue's Encode --------------------------------------------------------------------

// A round's noise, fixed: within ±1%, so that each level reads as itself.
constexpr double kNoise[] = {1.004, 0.993, 1.008, 0.997, 1.002, 0.991, 1.006, 0.998, 1.003,
                             0.995, 1.009, 0.996, 1.001, 0.994, 1.007, 0.999, 1.005};

// A quick run whose Encode is the issue's: ZAP took 32 ns in rounds 0–3 and 52 ns in rounds 4–16
// (the machine changed state mid-run), the fastest JSON (direct) 93 and 189 ns in the same rounds;
// the fastest binary peer (protobuf) got only rounds 0–3, at 56.7 ns. The medians of all each
// side's rounds (52, 189 and 56.7 ns) divide to 1.09×, while ZAP against protobuf is 1.77×.
report::Results issue_encode() {
  report::Results r = quick_shaped();
  auto set = [&](const std::string& name, unsigned rounds, auto level, unsigned shift) {
    for (report::MicroFigure& f : r.micro.figures)
      if (f.name == name) {
        f.ns_per_op = {};
        for (unsigned k = 0; k < rounds; ++k) {
          f.ns_per_op.values.push_back(level(k) * kNoise[(k + shift) % std::size(kNoise)]);
          f.ns_per_op.rounds.push_back(k);
        }
      }
  };
  set(
      "Encode/zap", 17, [](unsigned k) { return k < 4 ? 32.0 : 52.0; }, 0);
  set(
      "Encode/direct", 17, [](unsigned k) { return k < 4 ? 93.0 : 189.0; }, 5);
  set(
      "Encode/protobuf", 4, [](unsigned) { return 56.7; }, 9);
  return r;
}

TEST(report_figures, the_issues_encode_divides_to_its_ratios_and_names_its_modes) {
  const report::Results r = issue_encode();
  const std::vector<Finding> all = report::findings(r);
  const Finding* json = find(all, "Encode", Finding::Against::fastest_json);
  const Finding* peer = find(all, "Encode", Finding::Against::fastest_peer);
  ASSERT_TRUE(json && peer);
  ASSERT_EQ(peer->baseline_codec, "protobuf");

  // Against protobuf: the 4 rounds both ran, where ZAP took 32 ns, not the 52 ns of its median.
  EXPECT_EQ(peer->rounds, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_NEAR(peer->subject_value, 32.0, 0.5);
  EXPECT_NEAR(peer->baseline_value, 56.7, 0.5);
  EXPECT_TRUE(peer->subject_modes.empty()) << "one level in rounds 0–3";
  // Against direct: all 17 rounds, in which both fall in two modes, with their rounds.
  EXPECT_EQ(json->rounds.size(), 17u);
  for (const auto* modes : {&json->subject_modes, &json->baseline_modes}) {
    ASSERT_EQ(modes->size(), 2u);
    EXPECT_EQ((*modes)[0].rounds, (std::vector<unsigned>{0, 1, 2, 3}));
    EXPECT_EQ((*modes)[1].rounds.size(), 13u);
  }
  EXPECT_NEAR(json->subject_modes[0].median, 32.0, 0.5);
  EXPECT_NEAR(json->subject_modes[1].median, 52.0, 0.5);
  // Each finding's figures divide to its ratio exactly, so inside its interval.
  for (const Finding* f : {json, peer}) {
    ASSERT_TRUE(f->estimate.computed());
    const double q = f->subject_value / f->baseline_value;
    EXPECT_NEAR(q, f->estimate.ratio, 1e-12 * q);
    EXPECT_LE(f->estimate.lo, q);
    EXPECT_GE(f->estimate.hi, q);
  }

  const std::string md = report::markdown(r);
  const std::string glance =
      md.substr(md.find("## What it found"), md.find("### In words") - md.find("## What it found"));
  const std::size_t at = glance.find("| Encode | ");
  ASSERT_NE(at, std::string::npos) << glance;
  const std::string row = glance.substr(at, glance.find('\n', at) - at);
  const std::vector<std::string> c = cells_of(row);
  ASSERT_EQ(c.size(), 8u) << row;  // the limit's two columns: the logs Encode's memcpy
  // ZAP and direct over the 17 rounds, marked; protobuf beside ZAP's time in its own 4 rounds.
  EXPECT_TRUE(c[1].ends_with(" ns ¦")) << row;
  EXPECT_TRUE(c[2].starts_with("direct ") && c[2].ends_with(" ns ¦")) << row;
  EXPECT_TRUE(c[4].starts_with("protobuf 56.") && c[4].ends_with("(ZAP 32.0 ns)")) << row;
  EXPECT_TRUE(c[5].starts_with("1.77× (")) << row;
  // 5 ops × 2 comparisons, the logs Encode against memcpy (its limit), and 6 rows against the floor.
  EXPECT_EQ(check_glance_tables(glance, "the issue's Encode"), 17);
  // The modes, named with their rounds, under the table and in words.
  EXPECT_NE(glance.find("- ¦ Encode, ZAP: two modes: 32.0 ns in rounds 0–3; 52.1 ns in rounds 4–16\n"),
            std::string::npos)
      << glance;
  EXPECT_NE(glance.find("- ¦ Encode, direct: two modes: 93.0 ns in rounds 0–3; 189 ns in rounds 4–16\n"),
            std::string::npos)
      << glance;
  const std::string words = md.substr(md.find("### In words"));
  EXPECT_NE(words.find("— ¦ ZAP: two modes: 32.0 ns in rounds 0–3; 52.1 ns in rounds 4–16"),
            std::string::npos)
      << words.substr(0, 3000);
  EXPECT_GT(check_in_words(words), 0);
  // The microbenchmarks' table, over all of each codec's rounds, says so of ZAP's too.
  EXPECT_NE(md.find("- ¦ Encode/zap: two modes: 32.0 ns in rounds 0–3; 52.1 ns in rounds 4–16\n"),
            std::string::npos);

  // findings.md and the terminal's text carry the same, mark and note.
  const std::string found = findings_md(r);
  EXPECT_EQ(check_glance_tables(found, "findings.md"), 17);
  EXPECT_NE(found.find("- ¦ Encode, ZAP: two modes: 32.0 ns in rounds 0–3; 52.1 ns in rounds 4–16"),
            std::string::npos)
      << found;
  const std::string text = report::findings_text(r);
  const std::size_t encode = text.find("\nEncode ");
  ASSERT_NE(encode, std::string::npos) << text;
  const std::string line = text.substr(encode + 1, text.find('\n', encode + 1) - encode - 1);
  EXPECT_NE(line.find("protobuf 56.7 ns (ZAP 32.0 ns)"), std::string::npos) << line;
  EXPECT_NE(line.find("1.77× ("), std::string::npos) << line;
  EXPECT_NE(line.find("46.4 ns ¦"), std::string::npos) << line;  // ZAP over the 17 rounds, in two modes
  EXPECT_NE(line.find("direct 160 ns ¦"), std::string::npos) << line;
  EXPECT_NE(text.find("- ¦ Encode, ZAP: two modes: 32.0 ns in rounds 0–3; 52.1 ns in rounds 4–16"),
            std::string::npos)
      << text;
}

TEST(report_figures, one_level_is_never_called_modes) {
  // quick_shaped's figures: three rounds each, one level: no mark anywhere.
  const std::string md = report::markdown(quick_shaped());
  EXPECT_EQ(md.find("¦ "), md.find("¦ where its rounds fall in separate modes")) << "only the caption's";
  EXPECT_EQ(md.find(" ¦ |"), std::string::npos);
}

// --- the committed quick run -------------------------------------------------------------

TEST(report_figures, every_finding_of_the_committed_quick_run_divides_inside_its_interval) {
  const report::Results r = report::load_file(ZAPBENCH_QUICK_RESULTS);
  const std::vector<Finding> all = report::findings(r);
  ASSERT_FALSE(all.empty());
  std::size_t computed = 0, in_words = 0;
  for (const Finding& f : all) {
    if (!f.estimate.computed()) continue;
    ++computed;
    in_words += f.section != Finding::Section::floor;
    // subject_value ÷ baseline_value as the ratio is (subject ÷ baseline), whichever way it is shown.
    const double q = f.subject_value / f.baseline_value;
    EXPECT_LE(f.estimate.lo, q * (1 + 1e-12)) << f.title << ", " << f.subject << " against " << f.baseline;
    EXPECT_GE(f.estimate.hi, q * (1 - 1e-12)) << f.title << ", " << f.subject << " against " << f.baseline;
    EXPECT_FALSE(f.rounds.empty()) << f.title << ": a run with rounds names the rounds its figures are over";
  }
  ASSERT_GT(computed, 0u);
  // As printed: report.md's tables at a glance and its findings in words, findings.md, the terminal.
  const std::string md = report::markdown(r);
  const std::string glance =
      md.substr(md.find("## What it found"), md.find("### In words") - md.find("## What it found"));
  const int tables = check_glance_tables(glance, "report.md");
  EXPECT_GT(tables, 0);
  EXPECT_EQ(check_glance_tables(findings_md(r), "findings.md"), tables);
  EXPECT_EQ(std::size_t(check_in_words(md.substr(md.find("### In words")))), in_words);
  EXPECT_GT(check_beside_tables(md), 0) << "the Go reference's and the request path's tables";
  const std::string text = report::findings_text(r);
  for (const std::string& line : lines_of(glance))
    if (line.starts_with("| ") && !line.starts_with("|---")) {
      for (const std::string& cell : cells_of(line)) EXPECT_NE(text.find(cell), std::string::npos) << cell;
    }
  // A finding whose rounds fall in modes says so in words, mark and note.
  for (const Finding& f : all) {
    if (f.section == Finding::Section::floor) continue;
    for (const auto* modes : {&f.subject_modes, &f.baseline_modes}) {
      if (modes->empty()) continue;
      const std::string who = modes == &f.subject_modes ? f.subject : f.baseline;
      EXPECT_NE(md.find("— ¦ " + who + ": " + (modes->size() == 2 ? "two" : "three") + " modes: "),
                std::string::npos)
          << f.title;
    }
  }
}

}  // namespace
