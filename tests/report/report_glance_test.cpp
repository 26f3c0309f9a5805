// tests/report/report_glance_test.cpp — what the report opens with: the
// findings at a glance (per op against the fastest JSON and binary peer,
// server CPU per request against the floor) in report.md, findings.md, the
// terminal's text and beside their charts; numbers in the unit that fits;
// charts that fit what was measured (bars for one x, lines only between
// measured neighbours); the report's files and their error.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fixtures.hpp"
#include "report/document.hpp"
#include "report/findings.hpp"
#include "report/model.hpp"

namespace {

using namespace fixtures;
using report::doc::with_unit;

std::string chart_of(const std::string& html, const std::string& id) {
  const std::size_t at = html.find("data-chart=\"" + id + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("</svg>", at) - at);
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(report_units, with_unit_picks_the_prefix_that_fits_in_three_figures) {
  EXPECT_EQ(with_unit(571556e-9, "s"), "572 µs");
  EXPECT_EQ(with_unit(2.1e9, "B/s"), "2.10 GB/s");
  EXPECT_EQ(with_unit(6.26e-9, "s"), "6.26 ns");
  EXPECT_EQ(with_unit(68.8e-9, "s"), "68.8 ns");
  EXPECT_EQ(with_unit(0.5e-9, "s"), "0.500 ns");
  EXPECT_EQ(with_unit(999.7e-9, "s"), "1.00 µs") << "rounds up into the next prefix";
  EXPECT_EQ(with_unit(2.25e-3, "s"), "2.25 ms");
  EXPECT_EQ(with_unit(232, "B"), "232 B");
  EXPECT_EQ(with_unit(1500, ""), "1.50k");
  EXPECT_EQ(with_unit(-2500, ""), "-2.50k");
  EXPECT_EQ(with_unit(0.25, ""), "0.250") << "a count takes no prefix below one";
  EXPECT_EQ(with_unit(0, "s"), "0 s");
  EXPECT_EQ(with_unit(NAN, "s"), "—");
  // Axis labels: trailing zeros trimmed.
  EXPECT_EQ(with_unit(1e-6, "s", true), "1 µs");
  EXPECT_EQ(with_unit(200000, "", true), "200k");
  EXPECT_EQ(with_unit(1.5e6, "B", true), "1.5 MB");
}

TEST(report_glance, per_op_against_the_fastest_json_and_binary_peer_with_intervals) {
  const std::string md = report::markdown(quick_shaped());
  const std::size_t found = md.find("## What it found"), words = md.find("### In words");
  ASSERT_NE(found, std::string::npos);
  ASSERT_NE(words, std::string::npos);
  const std::string glance = md.substr(found, words - found);
  EXPECT_TRUE(contains(
      glance, "| in process | ZAP | fastest JSON | ZAP against it | fastest binary | ZAP against it |"))
      << glance;
  // Decode: zap 4 ns, direct 68 ns, protobuf 40 ns (flatbuffers-trusted, 2 ns, is never the fastest peer),
  // each shown as the geometric mean of its rounds (0.99, 1 and 1.02 × it: 4.01 ns), which divide to the
  // ratio.
  EXPECT_TRUE(
      contains(glance,
               "| Decode | 4.01 ns | direct 68.2 ns | 17.00× (17.00–17.00) ▲ | protobuf 40.1 ns | 10.00× "
               "(10.00–10.00) ▲ |"))
      << glance;
  // The logs record at its largest N, in the unit that fits (100,000 ns is 100 µs).
  EXPECT_TRUE(
      contains(glance,
               "| DecodeAll, N = 10,000 | 100 µs | direct 3.01 ms | 30.00× (30.00–30.00) ▲ | protobuf "
               "602 µs | 6.00× (6.00–6.00) ▲ |"))
      << glance;
  EXPECT_TRUE(contains(glance, "In brackets the 95% confidence interval"));
  // The prose follows, in the same units.
  EXPECT_TRUE(contains(md.substr(words), "ZAP (100 µs) against the fastest JSON, direct (3.01 ms)"));
}

TEST(report_glance, server_cpu_per_request_of_each_framing_and_body_against_the_floor) {
  const std::string md = report::markdown(quick_shaped());
  const std::string glance = md.substr(md.find("## What it found"));
  // rpc at depth 16, 10 connections: CPU per request = 2.4 s ÷ (the rate × 3 s); the floor at 900k/s.
  EXPECT_TRUE(
      contains(glance, "End to end over loopback TCP, rpc, depth 16, 10 connections: the server's CPU"));
  for (const char* row : {"| HTTP/1.1 | direct (fastest JSON) | 2.67 µs | 0.33× (0.33–0.33) ▼ |",
                          "| ZAP-HTTP | ZAP | 1.33 µs | 0.67× (0.67–0.67) ▼ |",
                          "| ZAP-HTTP | direct (fastest JSON) | 2.00 µs | 0.44× (0.44–0.44) ▼ |",
                          "| ZAP-HTTP | protobuf (fastest binary) | 1.78 µs | 0.50× (0.50–0.50) ▼ |",
                          "| ZAP-RPC | ZAP | 1.29 µs | 0.69× (0.69–0.69) ▼ |",
                          "| gRPC (grpc++) | protobuf | 8.89 µs | 0.10× (0.10–0.10) ▼ |",
                          "| the floor | raw TCP echo | 889 ns | — |"})
    EXPECT_TRUE(contains(glance, row)) << row << "\n" << glance.substr(0, 4000);
  // Shown in the table only: the prose does not repeat them.
  EXPECT_FALSE(contains(glance.substr(glance.find("### In words")), "direct (fastest JSON)"));
}

// zapbench's HTTP servers against the web servers people deploy (here nginx, HTTP/1.1, hello): a row per
// depth and connection count both ran, server CPU per request, with the verdict.
TEST(report_glance, zapbench_http_servers_against_the_web_servers) {
  const std::string md = report::markdown(synthetic());
  const std::string glance = md.substr(md.find("## What it found"));
  EXPECT_TRUE(
      contains(glance, "zapbench's own HTTP/1.1 and HTTP/2 servers against the web servers people deploy"));
  EXPECT_TRUE(contains(glance, "| framing | against | hello at | zapbench | theirs | zapbench against it |"));
  for (const char* at : {"depth 1, 1 connection", "depth 1, 10 connections", "depth 1, 100 connections"})
    EXPECT_TRUE(contains(glance, std::string("| HTTP/1.1 | nginx | ") + at + " | ")) << at << "\n" << glance;
  // Both units are findings of the report, each with its verdict.
  EXPECT_TRUE(contains(md, "zapbench's HTTP/1.1 server against nginx, hello, depth 1, 10 connections"));
}

TEST(report_glance, an_undecided_comparison_is_shown_undecided_with_its_interval) {
  Results r = quick_shaped();
  // ZAP-HTTP + ZAP's server CPU: rounds that disagree with the floor's, so the interval crosses 1×.
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/zap/c10/p16") {
      c.samples[0].server_cpu_s *= 0.6;
      c.samples[2].server_cpu_s *= 0.75;
    }
  const std::string md = report::markdown(r);
  const std::string glance = md.substr(md.find("## What it found"), md.find("### In words"));
  const std::size_t row = glance.find("| ZAP-HTTP | ZAP | ");
  ASSERT_NE(row, std::string::npos) << glance;
  const std::string line = glance.substr(row, glance.find('\n', row) - row);
  EXPECT_TRUE(line.ends_with(") ? |")) << line;
}

TEST(report_glance, a_run_without_rounds_shows_ratios_without_verdicts) {
  const std::string md = report::markdown(without_rounds(quick_shaped()));
  EXPECT_TRUE(contains(md, "| Decode | 4.00 ns | direct 68.0 ns | 17.00× | protobuf 40.0 ns | 10.00× |"))
      << md;
  EXPECT_TRUE(contains(md, "ratios of medians only, no interval and no verdict"));
}

TEST(report_glance, findings_md_and_the_terminal_have_the_tables_without_prose_or_links) {
  const Results r = quick_shaped();
  std::string dir = (std::filesystem::temp_directory_path() / "report_glance_XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  std::vector<std::string> written;
  ASSERT_NO_THROW(written = report::write_reports(r, dir));
  EXPECT_EQ(written, (std::vector<std::string>{dir + "/report.md", dir + "/report.html", dir + "/findings.md",
                                               dir + "/findings-micro.svg", dir + "/findings-e2e.svg"}));
  const std::string md = read(std::filesystem::path(dir) / "findings.md");
  const std::string micro_svg = read(std::filesystem::path(dir) / "findings-micro.svg");
  const std::string e2e_svg = read(std::filesystem::path(dir) / "findings-e2e.svg");
  EXPECT_EQ(read(std::filesystem::path(dir) / "report.md"), report::markdown(r));
  std::filesystem::remove_all(dir);

  EXPECT_TRUE(contains(md, "| Decode | 4.01 ns | direct 68.2 ns | 17.00× (17.00–17.00) ▲ |")) << md;
  EXPECT_TRUE(contains(md, "| ZAP-HTTP | ZAP | 1.33 µs | 0.67× (0.67–0.67) ▼ |"));
  EXPECT_FALSE(contains(md, "](#")) << "no link to a section findings.md does not have";
  EXPECT_FALSE(contains(md, "What it found"));
  EXPECT_FALSE(contains(md, "**Decode**")) << "no prose";
  // The charts as files of their own: the SVG namespace, their style inside, a white ground.
  for (const std::string* svg : {&micro_svg, &e2e_svg}) {
    EXPECT_TRUE(svg->starts_with("<svg class=\"chart\"")) << svg->substr(0, 200);
    EXPECT_TRUE(contains(*svg, "xmlns=\"http://www.w3.org/2000/svg\""));
    EXPECT_TRUE(contains(*svg, "<style>"));
    EXPECT_TRUE(contains(*svg, "fill=\"#ffffff\""));
    EXPECT_TRUE(svg->ends_with("</svg>\n"));
  }
  EXPECT_TRUE(contains(micro_svg, ">DecodeAll, N = 10,000</text>"));
  EXPECT_TRUE(contains(e2e_svg, ">the floor (raw TCP)</text>"));

  const std::string text = report::findings_text(r);
  EXPECT_FALSE(contains(text, "|")) << text;
  EXPECT_FALSE(contains(text, "(#"));
  // Aligned columns: the numbers right-aligned under their header.
  EXPECT_TRUE(contains(text, "in process                 ZAP    fastest JSON          ZAP against it"))
      << text;
  EXPECT_TRUE(contains(text, "Decode                 4.01 ns  direct 68.2 ns  17.00× (17.00–17.00) ▲"))
      << text;
  EXPECT_TRUE(contains(text, "the floor      raw TCP echo")) << text;
  EXPECT_EQ(report::findings_text(Results{}), "") << "no finding, nothing to print";
}

TEST(report_glance, a_file_that_cannot_be_written_is_named) {
  std::string dir = (std::filesystem::temp_directory_path() / "report_glance_XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  std::filesystem::create_directory(std::filesystem::path(dir) / "findings.md");  // a directory in its place
  std::string error;
  try {
    report::write_reports(quick_shaped(), dir);
  } catch (const std::runtime_error& e) {
    error = e.what();
  }
  std::filesystem::remove_all(dir);
  EXPECT_EQ(error, dir + "/findings.md: cannot write");
}

TEST(report_charts, one_connection_count_is_a_bar_chart_several_are_lines) {
  const std::string html = report::html(quick_shaped());
  // Depth 16 ran at 10 connections only: one bar per row, titled by what was measured.
  const std::string p16 = chart_of(html, "e2e-rpc-p16-rate");
  EXPECT_TRUE(contains(p16, "data-kind=\"bars\"")) << p16.substr(0, 300);
  EXPECT_TRUE(contains(p16, "requests/s at 10 connections — rpc, pipeline depth 16"));
  EXPECT_EQ(count(p16, "<rect class=\"mark "), 7u) << "one per row";
  EXPECT_TRUE(contains(p16, "<rect class=\"mark limit\"")) << "the floor, in grey";
  EXPECT_TRUE(contains(chart_of(html, "e2e-rpc-p16-p99"), "data-kind=\"bars\""));
  // Depth 1 ran at 1, 10 and 100: lines.
  const std::string p1 = chart_of(html, "e2e-rpc-p1-rate");
  EXPECT_TRUE(contains(p1, "data-kind=\"lines\""));
  EXPECT_GT(count(p1, "class=\"mark line\""), 0u);
  // The charts at a glance.
  EXPECT_TRUE(contains(chart_of(html, "findings-micro"), "data-kind=\"bars\""));
  EXPECT_TRUE(contains(html, "<div class=\"glance\">"));
}

TEST(report_charts, the_limits_are_drawn_at_the_n_the_codecs_were_measured_at) {
  const std::string html = report::html(quick_shaped());
  const std::string encode = chart_of(html, "logs-Encode");
  ASSERT_FALSE(encode.empty());
  // memcpy ran at N = 1 … 10,000, the codecs at 1, 100 and 10,000: no N of memcpy's alone on the chart.
  EXPECT_TRUE(contains(encode, "memcpy, N 100: "));
  EXPECT_FALSE(contains(encode, "memcpy, N 10: "));
  EXPECT_FALSE(contains(encode, "memcpy, N 1k: "));
  EXPECT_FALSE(contains(encode, ">1k</text>"));
  // Its table still has every N, each time in the unit that fits its median: 100,000 ns is "100 µs".
  const std::string md = report::markdown(quick_shaped());
  EXPECT_TRUE(contains(md, "| N=1 | N=10 | N=100 | N=1,000 | N=10,000 |"));
  EXPECT_TRUE(contains(
      md, "| binary | zap | 10.0 (9.90–10.2) ns | — | 1.00 (0.990–1.02) µs | — | 100 (99.0–102) µs |"))
      << md;
}

TEST(report_charts, a_line_joins_only_points_at_neighbouring_x_values) {
  report::doc::Chart c{"t", "t", "x", "y", false, {}, {}};
  c.series.push_back({"all", {{1, 10, 10, 10}, {10, 20, 20, 20}, {100, 30, 30, 30}}});
  c.series.push_back({"gap", {{1, 5, 5, 5}, {100, 15, 15, 15}}});  // not measured at 10
  c.series.push_back({"two", {{10, 5, 5, 5}, {100, 7, 7, 7}}});
  const std::string svg = report::doc::svg(c, false);
  EXPECT_EQ(count(svg, "class=\"mark line\""), 2u) << "all and two; gap's points only";
  EXPECT_TRUE(contains(svg, "d=\"M")) << svg;
  EXPECT_EQ(count(svg, "<circle class=\"mark\""), 7u);
  // Every series at one x: bars, titled as given; several x values: the chart as it was.
  report::doc::Chart one = c;
  one.series = {{"a", {{16, 1, 1, 1}}}, {"b", {{16, 2, 1, 3}}}};
  const report::doc::Chart bars = report::doc::bars_if_one_x(one, "at 16");
  EXPECT_TRUE(bars.series.empty());
  ASSERT_EQ(bars.bars.size(), 2u);
  EXPECT_EQ(bars.bars[1].label, "b");
  EXPECT_EQ(bars.bars[1].hi, 3);
  EXPECT_EQ(bars.title, "at 16");
  EXPECT_EQ(bars.x_title, "y");
  EXPECT_EQ(report::doc::bars_if_one_x(c, "no").series.size(), 3u);
}

TEST(report_charts, margins_grow_with_the_labels_they_hold) {
  report::doc::Chart c{"t", "t", "ns", "", true, {}, {}};
  c.bars.push_back({"zap", 5, 5, 5, report::doc::Family::zap, false, ""});
  const std::string short_names = report::doc::svg(c, false);
  c.bars.push_back(
      {"a-codec-with-a-very-long-name-indeed", 50, 50, 50, report::doc::Family::peer, false, ""});
  const std::string long_names = report::doc::svg(c, false);
  auto width = [](const std::string& svg) {
    const std::size_t at = svg.find("width=\"") + 7;
    return std::stod(svg.substr(at, svg.find('"', at) - at));
  };
  EXPECT_GT(width(long_names), width(short_names) + 150);
  // The label ends where the bars begin, never left of the chart.
  EXPECT_FALSE(contains(long_names, "x=\"-"));
}

}  // namespace
