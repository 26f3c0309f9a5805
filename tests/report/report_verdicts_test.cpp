// tests/report/report_verdicts_test.cpp — verdicts in the report (decided,
// undecided, too few rounds, the control copy, the method stated), and the io
// axis's findings (io_uring against epoll; the others unchanged by it).
// compare's are report_compare_test.cpp's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fixtures.hpp"
#include "report/findings.hpp"
#include "report/gbench.hpp"
#include "report/model.hpp"
#include "report/select.hpp"

namespace {

using namespace fixtures;

TEST(report_verdicts, an_undecided_finding_is_listed_apart_with_its_interval) {
  Results r = with_peers();
  // ZAP-HTTP + ZAP at depth 16 and 100 connections, against protobuf: rounds that disagree (1.4, 0.8, 1.1).
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/protobuf/c100/p16") {
      c.samples[0].requests_per_s = 6'000'000 / 1.4;
      c.samples[1].requests_per_s = 6'000'000 / 0.8;
      c.samples[2].requests_per_s = 6'000'000 / 1.1;
    }
  const std::string md = report::markdown(r);
  const std::size_t undecided = md.find("Undecided — the interval crosses 1× and reaches beyond ±3%");
  ASSERT_NE(undecided, std::string::npos) << md.substr(md.find("## What it found"), 6000);
  const std::size_t line = md.find(
      "- **ZAP-HTTP, rpc, depth 16, 100 connections** — requests/s: ZAP (5,979,530) against the fastest "
      "binary "
      "peer body, protobuf (5,596,902): **undecided, ");
  EXPECT_NE(line, std::string::npos);
  EXPECT_GT(line, undecided) << "listed after the decided ones, not among them";
  EXPECT_LT(line, md.find("## The run"));
}

// io_uring against epoll: on rpc at the deepest depth and at depth 1, each framing's ZAP cell where ZAP
// peaks on epoll and the floor at the same connections, server CPU per request on io_uring against on
// epoll, paired by round, with verdicts; every other finding is the same as without the io_uring cells.
TEST(report_verdicts, io_uring_against_epoll_per_framing_and_for_the_floor) {
  const Results r = with_io_uring();
  const std::vector<report::Finding> all = report::findings(r), before = report::findings(synthetic());
  std::vector<const report::Finding*> io, others;
  for (const report::Finding& f : all)
    (f.section == report::Finding::Section::io ? io : others).push_back(&f);
  ASSERT_EQ(others.size(), before.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    SCOPED_TRACE(before[i].title);
    EXPECT_EQ(others[i]->title, before[i].title);
    EXPECT_EQ(others[i]->subject, before[i].subject);
    EXPECT_EQ(others[i]->baseline, before[i].baseline);
    EXPECT_EQ(others[i]->keys, before[i].keys);
    EXPECT_EQ(others[i]->estimate.ratio, before[i].estimate.ratio);
  }
  // Depth 16: ZAP-HTTP + ZAP (HTTP/1.1 has no depth-16 ZAP cell), ZAP peaking at 100 connections; depth 1:
  // HTTP/1.1 and ZAP-HTTP, at 100 connections too; the floor at those.
  std::vector<std::string> titles;
  for (const report::Finding* f : io) {
    titles.push_back(f->title);
    SCOPED_TRACE(f->title);
    EXPECT_EQ(f->unit, report::Finding::Unit::cpu_ns);
    EXPECT_EQ(f->better, stats::Better::lower);
    EXPECT_EQ(f->subject, "io_uring");
    EXPECT_EQ(f->baseline, "epoll");
    ASSERT_EQ(f->keys.size(), 2u);
    EXPECT_EQ(f->keys[0], f->keys[1] + "/io_uring");
    // The server's CPU time × 0.9 (zapbench) or × 0.8 (the floor) in every round, at the same rate.
    EXPECT_NEAR(f->estimate.ratio, f->keys[1].starts_with("floor/") ? 0.8 : 0.9, 1e-9);
    EXPECT_EQ(f->estimate.verdict, stats::Verdict::ahead);
  }
  EXPECT_EQ(titles, (std::vector<std::string>{
                        "ZAP-HTTP + ZAP, rpc, depth 16, 100 connections",
                        "the floor, a raw TCP echo, rpc, depth 16, 100 connections",
                        "HTTP/1.1 + ZAP, rpc, depth 1, 100 connections",
                        "ZAP-HTTP + ZAP, rpc, depth 1, 100 connections",
                        "the floor, a raw TCP echo, rpc, depth 1, 100 connections",
                    }));
  EXPECT_EQ(io[0]->keys[0], "zapbench/rpc/zap/zap/c100/p16/io_uring");
  EXPECT_EQ(io[1]->keys[1], "floor/rpc/tcp//c100/p16");

  // In words, in a group of their own.
  const std::string md = report::markdown(r);
  const std::size_t group = md.find("io\\_uring against epoll, end to end over loopback TCP: ");
  ASSERT_NE(group, std::string::npos) << md.substr(md.find("## What it found"), 8000);
  const std::size_t line = md.find(
      "- **ZAP-HTTP + ZAP, rpc, depth 16, 100 connections** — server CPU per request: io\\_uring (", group);
  ASSERT_NE(line, std::string::npos) << md.substr(group, 3000);
  EXPECT_TRUE(contains(md.substr(line, md.find('\n', line) - line), ") against epoll ("));
  EXPECT_TRUE(
      contains(md.substr(line, md.find('\n', line) - line), ": **ahead, 1.11× (1.11–1.11×), 3 rounds**"))
      << md.substr(line, 400);
  EXPECT_TRUE(contains(md,
                       "- **the floor, a raw TCP echo, rpc, depth 1, 100 connections** — server CPU per "
                       "request: io\\_uring ("));
  EXPECT_LT(group, md.find("## The run"));
  // Without io_uring cells, no such group.
  EXPECT_FALSE(contains(report::markdown(synthetic()), "against epoll"));
  // Only the floor on both: its finding alone, at its fewest connections.
  Results floor_only = synthetic();
  for (const Cell& c : synthetic().cells)
    if (c.arm == matrix::Arm::floor && c.scenario == matrix::Scenario::rpc)
      floor_only.cells.push_back(io_uring_of(c, 0.8));
  titles.clear();
  for (const report::Finding& f : report::findings(floor_only))
    if (f.section == report::Finding::Section::io) titles.push_back(f.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"the floor, a raw TCP echo, rpc, depth 16, 10 connections",
                                              "the floor, a raw TCP echo, rpc, depth 1, 1 connection"}));
}

TEST(report_verdicts, a_decided_finding_beyond_the_precision_asked_says_so) {
  Results r = with_peers();  // asked for ±3%
  // ZAP-HTTP + ZAP at depth 16 and 100 connections, against protobuf: ahead in every round, but by
  // 1.25 to 1.35 — decided, not within ±3%.
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/protobuf/c100/p16") {
      c.samples[0].requests_per_s = 6'000'000 / 1.35;
      c.samples[1].requests_per_s = 6'000'000 / 1.25;
      c.samples[2].requests_per_s = 6'000'000 / 1.3;
    }
  const std::string md = report::markdown(r);
  const std::string found =
      md.substr(md.find("## What it found"), md.find("## The run") - md.find("## What it found"));
  const std::size_t line = found.find(
      "- **ZAP-HTTP, rpc, depth 16, 100 connections** — requests/s: ZAP (5,979,530) against the fastest "
      "binary peer body, protobuf (");
  ASSERT_NE(line, std::string::npos) << found;
  const std::string item = found.substr(line, found.find('\n', line) - line);
  EXPECT_TRUE(contains(item, "**ahead, ")) << item;
  EXPECT_TRUE(contains(item, " — not within the ±3.0% asked: ±")) << item;
  EXPECT_TRUE(contains(found, "findings are within the ±3.0% the run asked for; the others are listed apart"))
      << found;
  // Listed apart, after the findings that reached the precision, before the undecided ones.
  const std::size_t apart = found.find("Not within the precision asked — the interval excludes 1×");
  ASSERT_NE(apart, std::string::npos) << found;
  EXPECT_GT(line, apart);
  EXPECT_LT(line, found.find("Undecided —"));
  // The findings whose rounds agree say nothing of the kind.
  const std::size_t decode = found.find("- **Decode** — time per op");
  ASSERT_NE(decode, std::string::npos);
  EXPECT_FALSE(contains(found.substr(decode, found.find('\n', decode) - decode), "not within"));
}

TEST(report_verdicts, without_a_precision_asked_no_finding_is_held_to_one) {
  Results r = with_peers();
  r.config.precision = NAN;
  const std::string md = report::markdown(r);
  EXPECT_FALSE(contains(md, "not within the ±"));
  EXPECT_FALSE(contains(md, "the run asked for"));
}

TEST(report_verdicts, too_few_rounds_show_their_count_not_an_interval) {
  Results r = synthetic();
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/http/zap/c10/p1") c.samples.resize(2);
  const std::string md = report::markdown(r);
  // HTTP/1.1 + ZAP at c 10 against direct: 2 rounds.
  EXPECT_TRUE(contains(
      md, "| zapbench HTTP/1.1 + ZAP | 1.60× (1.60–1.60) ▲ | 0.40× (0.40–0.40) ▼ | 1.60× ? (2 rounds) |"))
      << md;
}

TEST(report_verdicts, results_without_rounds_fall_back_to_ratios_of_medians_labelled) {
  const std::string md = report::markdown(without_rounds(with_peers()));
  EXPECT_TRUE(contains(md,
                       "This results.json records no rounds (a run from before verdicts), so no comparison "
                       "has an interval or a verdict"));
  EXPECT_TRUE(
      contains(md,
               "- **Decode** — time per op: ZAP (4.00 ns) against the fastest JSON, direct (68.0 ns): "
               "17.00× (16.50–17.52×, min–max) (no verdict: no rounds recorded) — [table](#micro)."))
      << md.substr(md.find("## What it found"), 3000);
  EXPECT_TRUE(contains(md, "| binary | zap | 17.00× | 10.00× |"));
  EXPECT_TRUE(contains(md,
                       "This results.json records no rounds (a run from before verdicts): ratios of medians "
                       "only, no interval and no verdict."));
  EXPECT_TRUE(contains(md, "Comparisons: this results.json records no rounds"));
  EXPECT_FALSE(contains(md, "▲"));
  EXPECT_FALSE(contains(md, "Undecided —"));
}

TEST(report_verdicts, the_control_copy_is_its_own_row_and_its_own_finding) {
  Results r = synthetic();
  Cell copy = cell("zapbench", "rpc", "zap", "zap", 10, 16, 600000, 300, 1.0, 0.99);
  copy.control = true;
  r.cells.push_back(copy);
  EXPECT_EQ(copy.id(), "zapbench/rpc/zap/zap/c10/p16/control");
  const std::string md = report::markdown(r);
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP + ZAP — control copy | 600,000 (594,000–600,000) |")) << md;
  EXPECT_TRUE(contains(md, "The control: one cell run twice in every round, as two cells"));
  EXPECT_TRUE(contains(md,
                       "- **zapbench ZAP-HTTP + ZAP, rpc, depth 16, 10 connections** — requests/s: the copy "
                       "(597,993) against the original (597,953): **"))
      << md.substr(md.find("## What it found"), 6000);
  // Never "the fastest body" of anything: the original is.
  const Results back = report::from_json(report::to_json(r));
  EXPECT_TRUE(back.cells.back().control);
  EXPECT_EQ(report::to_json(back), report::to_json(r));
}

TEST(report_verdicts, rounds_beyond_the_first_are_counted_per_cell) {
  Results r = synthetic();
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/zap/c10/p16")
      for (unsigned k = 3; k < 7; ++k) {
        E2ESample s = c.samples[1];
        s.round = k;
        c.samples.push_back(s);
      }
  const std::string md = report::markdown(r);
  EXPECT_TRUE(
      contains(md,
               "Rounds: 3 for every cell; more where a finding needed them — zapbench ZAP-HTTP + ZAP, "
               "c 10: 7."))
      << md;
  EXPECT_TRUE(contains(md, "Rounds: 3 for every cell.\n"));
}

TEST(report_verdicts, how_it_was_measured_states_the_method_and_the_runs_settings) {
  const std::string md = report::markdown(synthetic());
  for (const char* s :
       {"**A comparison is a verdict.**", "bootstrap-t, 2000 resamples", "never narrower than Student's t",
        "equivalent when it lies within ±3%", "until each finding's interval was within ±3.0%",
        "its budget of 600.0 s (10 min 0 s)", "**The control.**", "Benjamini–Hochberg"})
    EXPECT_TRUE(contains(md, s)) << s;
}

}  // namespace
