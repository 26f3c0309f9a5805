// tests/report/report_compare_test.cpp — `zapbench compare` (report/compare.hpp)
// on synthetic runs: a change of one figure found and nothing else; the
// machine's move taken from the references and the calibration only, named,
// and divided out (--absolute: not); the rule of earlier versions for runs
// without a common calibration, said; exact figures; untestable figures with
// why; the gate; keys on one side only; what differs between the runs;
// results.json figures that are no measurement; the text.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "fixtures.hpp"
#include "report/compare.hpp"

namespace {

using namespace fixtures;
using report::Change;
using report::FigureKind;

// The synthetic run with 8 samples a figure and the calibration: its micro
// rows and its ping-pongs, in the same rounds.
Results calibrated() {
  Results r = with_eight_samples(synthetic());
  constexpr double kPattern[] = {0.97, 1.0, 1.02, 0.99, 1.01, 0.98, 1.03, 1.0};
  r.calibration.version = "1";
  for (const char* name : {"Calibrate/spin", "Calibrate/memcpy-4KiB", "Calibrate/memcpy-1MiB"}) {
    report::MicroFigure f;
    f.name = name;
    f.op = "Calibrate";
    f.codec = std::string(name).substr(10);
    for (double k : kPattern) {
      f.ns_per_op.rounds.push_back(unsigned(f.ns_per_op.values.size()));
      f.ns_per_op.values.push_back(300 * k);
    }
    r.micro.figures.push_back(f);
  }
  for (unsigned depth : {1u, 16u}) {
    report::PingPong p;
    p.depth = depth;
    for (double k : kPattern) {
      p.round_trips_per_s.rounds.push_back(unsigned(p.round_trips_per_s.values.size()));
      p.round_trips_per_s.values.push_back(30000.0 * depth * k);
      p.p99_ns.values.push_back(40000 * (2 - k));
      p.server_cpu_ns.values.push_back(3000 * (2 - k));
    }
    p.p99_ns.rounds = p.server_cpu_ns.rounds = p.round_trips_per_s.rounds;
    r.calibration.ping_pongs.push_back(p);
  }
  return r;
}

// `r` with every figure of the arms in `arms` (and, with `calibration`, the
// calibration's) `factor` times slower: rates ÷ factor, times × factor.
Results slower(Results r, double factor, const std::vector<std::string>& arms, bool micro_ours,
               bool references_and_calibration) {
  for (Cell& c : r.cells) {
    const bool ours = c.arm == matrix::Arm::zapbench || c.arm == matrix::Arm::floor;
    const bool hit =
        (ours && std::find(arms.begin(), arms.end(), std::string(matrix::to_string(c.arm))) != arms.end()) ||
        (!ours && references_and_calibration);
    if (!hit) continue;
    // CPU per request is the CPU time ÷ (the rate × the sample's seconds): the same CPU time at the
    // rate ÷ factor is × factor a request.
    for (E2ESample& s : c.samples) {
      s.requests_per_s /= factor;
      s.p99_ns *= factor;
    }
  }
  for (report::MicroFigure& f : r.micro.figures) {
    const bool yard = f.name.starts_with("Calibrate/") || f.codec.starts_with("go/");
    if (yard ? references_and_calibration : micro_ours)
      for (double& v : f.ns_per_op.values) v *= factor;
  }
  if (references_and_calibration)
    for (report::PingPong& p : r.calibration.ping_pongs) {
      for (double& v : p.round_trips_per_s.values) v /= factor;
      for (double& v : p.p99_ns.values) v *= factor;
      for (double& v : p.server_cpu_ns.values) v *= factor;
    }
  return r;
}

const Change* find(const report::Comparison& c, const std::string& key, FigureKind kind) {
  for (const Change& ch : c.changes)
    if (ch.key == key && ch.kind == kind) return &ch;
  return nullptr;
}

unsigned changed(const report::Comparison& c) {
  return c.count(Change::Verdict::improved) + c.count(Change::Verdict::regressed);
}

TEST(report_compare, a_change_of_one_figure_is_found_and_nothing_else) {
  const Results a = calibrated();
  Results b = a;
  for (Cell& c : b.cells) {
    if (c.id() == "zapbench/rpc/http/direct/c10/p1")
      for (E2ESample& s : c.samples) s.requests_per_s *= 1.5;  // +50%: improved (and CPU per request down)
    if (c.id() == "zapbench/rpc/zap/zap/c10/p1")
      for (E2ESample& s : c.samples) s.p99_ns *= 2;  // p99 twice as long: regressed
  }
  const report::Comparison cmp = report::compare(a, b);
  EXPECT_TRUE(cmp.calibrated);
  const Change* up = find(cmp, "zapbench/rpc/http/direct/c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(up, nullptr);
  EXPECT_NEAR(up->judged.ratio, 1.5, 1e-9);
  EXPECT_NEAR(up->raw_ratio(), 1.5, 1e-9);
  EXPECT_GT(up->judged.lo, 1.4);
  EXPECT_LT(up->judged.p, 0.001);
  EXPECT_EQ(up->verdict, Change::Verdict::improved);
  const Change* cpu = find(cmp, "zapbench/rpc/http/direct/c10/p1", FigureKind::server_cpu);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->verdict, Change::Verdict::improved);  // the same CPU time over 1.5 times the requests
  const Change* slower_p99 = find(cmp, "zapbench/rpc/zap/zap/c10/p1", FigureKind::p99);
  ASSERT_NE(slower_p99, nullptr);
  EXPECT_EQ(slower_p99->verdict, Change::Verdict::regressed);
  EXPECT_EQ(changed(cmp), 3u);
  EXPECT_EQ(cmp.count(Change::Verdict::untestable), 0u);
  // The yardstick: the references' and the calibration's figures, which held.
  for (const report::Yardstick& y : cmp.machine) {
    EXPECT_TRUE(y.independent);
    EXPECT_EQ(y.our_figures, 0u);
    EXPECT_FALSE(y.moved());
  }
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(text, "1.500× (")) << text;
  EXPECT_TRUE(contains(text, "  The build moved: figures or groups of ours changed while the yardstick held"))
      << text;
  EXPECT_TRUE(contains(text, " figures of ours: 3 changed (2 improved, 1 regressed), ")) << text;
  EXPECT_TRUE(
      contains(text, "Benjamini–Hochberg holds the false-discovery rate of our figures' tests at 5.0%"));
}

TEST(report_compare, our_arm_slower_is_the_builds_move_not_the_machines) {
  // The case: every zapbench cell 10% slower, the references, the floor and the calibration
  // untouched.
  const Results a = calibrated();
  const Results b = slower(a, 1 / 0.9, {"zapbench"}, false, false);
  const report::Comparison cmp = report::compare(a, b);
  unsigned ours = 0, regressed = 0;
  for (const Change& c : cmp.changes) {
    if (c.key.starts_with("zapbench/") && c.kind == FigureKind::requests_per_s) {
      ++ours;
      regressed += c.verdict == Change::Verdict::regressed;
      EXPECT_NEAR(c.judged.ratio, 0.9, 1e-9) << c.key;
    }
    if (c.key.starts_with("floor/") || c.key.starts_with("micro/")) {
      EXPECT_NE(c.verdict, Change::Verdict::improved) << c.key;  // untouched: never improved
    }
  }
  EXPECT_EQ(regressed, ours);
  for (const report::Yardstick& y : cmp.machine) EXPECT_FALSE(y.moved()) << report::to_string(y.kind);
  // The arm's cells as a group: regressed on every kind, at 0.9 (1/0.9 for times); the floor's group did not
  // move.
  unsigned groups = 0;
  for (const report::Group& g : cmp.groups) {
    if (g.name == "zapbench cells") {
      ++groups;
      EXPECT_EQ(g.verdict, Change::Verdict::regressed) << report::to_string(g.kind);
      EXPECT_NEAR(g.judged.ratio, report::better(g.kind) == stats::Better::higher ? 0.9 : 1 / 0.9, 1e-9);
    }
    if (g.name == "floor cells") {
      EXPECT_NE(g.verdict, Change::Verdict::regressed);
    }
  }
  EXPECT_EQ(groups, 3u);  // requests/s, p99, server CPU per request (no logs cells)
  EXPECT_EQ(report::gate_failures(cmp).groups.size(), 3u);
}

TEST(report_compare, the_machine_slower_moves_no_figure_of_ours_and_is_named) {
  const Results a = calibrated();
  const Results b = slower(a, 1 / 0.9, {"zapbench", "floor"}, true, true);
  const report::Comparison cmp = report::compare(a, b);
  EXPECT_EQ(changed(cmp), 0u);
  for (const report::Yardstick& y : cmp.machine) EXPECT_TRUE(y.moved()) << report::to_string(y.kind);
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(
      text, "  The machine moved: the yardstick moved, and no figure or group of ours moved beyond it."))
      << text;
  EXPECT_TRUE(contains(text, "  The machine's move, requests/s: 0.900× ")) << text;
  // --absolute: every figure against 1, and the tested rates regress.
  report::CompareOptions absolute;
  absolute.absolute = true;
  const report::Comparison abs = report::compare(a, b, absolute);
  const Change* c = find(abs, "zapbench/rpc/zap/zap/c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->verdict, Change::Verdict::regressed);
  EXPECT_TRUE(contains(report::compare_text(abs), "against 1 (--absolute)"));
  EXPECT_TRUE(contains(report::compare_text(abs),
                       "  Judged against 1 (--absolute): figures or groups of ours moved"));
}

TEST(report_compare, machine_and_build_together_are_told_apart) {
  const Results a = calibrated();
  const Results machine = slower(a, 1 / 0.9, {"zapbench", "floor"}, true, true);
  const Results b = slower(machine, 1 / 0.9, {"zapbench"}, false, false);
  const report::Comparison cmp = report::compare(a, b);
  const Change* c = find(cmp, "zapbench/rpc/zap/zap/c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(c, nullptr);
  EXPECT_NEAR(c->judged.ratio, 0.9, 1e-9);
  EXPECT_EQ(c->verdict, Change::Verdict::regressed);
  const Change* floor = find(cmp, "floor/rpc/tcp//c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(floor, nullptr);
  EXPECT_NEAR(floor->judged.ratio, 1, 1e-9);
  EXPECT_TRUE(contains(report::compare_text(cmp), "  Both moved: the machine"));
}

TEST(report_compare, without_a_common_calibration_the_rule_of_earlier_versions_says_so) {
  Results a = calibrated();
  a.calibration = {};
  std::erase_if(a.micro.figures,
                [](const report::MicroFigure& f) { return f.name.starts_with("Calibrate/"); });
  const Results b = calibrated();
  const report::Comparison cmp = report::compare(a, b);
  EXPECT_FALSE(cmp.calibrated);
  for (const report::Yardstick& y : cmp.machine) {
    EXPECT_FALSE(y.independent);
    EXPECT_GT(y.our_figures, 0u);
  }
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(text, "A has no calibration (a results.json from before it)")) << text;
  EXPECT_TRUE(contains(text, "the rule of earlier versions"));
  EXPECT_TRUE(contains(text, "cannot be told apart"));
  // Two calibrations of different versions are no common yardstick either.
  Results v2 = calibrated();
  v2.calibration.version = "2";
  const report::Comparison versions = report::compare(calibrated(), v2);
  EXPECT_FALSE(versions.calibrated);
  EXPECT_TRUE(
      contains(report::compare_text(versions), "the calibration differs (A: version 1, B: version 2)"));
}

TEST(report_compare, exact_figures_change_beyond_a_repeats_difference_with_both_counts) {
  Results a = calibrated(), b = a;
  for (report::MicroFigure& f : b.micro.figures) {
    if (f.name == "Decode/zap") f.allocs_per_op = 1;             // 0 -> 1: regressed
    if (f.name == "Encode/nlohmann") f.allocs_per_op = 11.5002;  // amortized set-up: held
  }
  b.micro.instructions.figures[0].callgrind_ir *= 1.01;  // +1%
  const report::Comparison cmp = report::compare(a, b);
  const Change* alloc = find(cmp, "micro/Decode/zap", FigureKind::allocs_per_op);
  ASSERT_NE(alloc, nullptr);
  EXPECT_EQ(alloc->verdict, Change::Verdict::regressed);
  EXPECT_EQ(find(cmp, "micro/Encode/nlohmann", FigureKind::allocs_per_op)->verdict, Change::Verdict::held);
  const Change* ins = find(cmp, "instructions/Server/zap-http/zap", FigureKind::instructions);
  ASSERT_NE(ins, nullptr);
  EXPECT_EQ(ins->verdict, Change::Verdict::regressed);
  EXPECT_NEAR(ins->judged.ratio, 1.01, 1e-12);
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(text, "552 Ir")) << text;  // both counts, before and after
  EXPECT_TRUE(contains(text, "558 Ir"));
  // Within the repeatability: held.
  Results c = a;
  c.micro.instructions.figures[0].callgrind_ir *= 1 + report::kInstructionRepeatability / 2;
  EXPECT_EQ(
      find(report::compare(a, c), "instructions/Server/zap-http/zap", FigureKind::instructions)->verdict,
      Change::Verdict::held);
}

TEST(report_compare, a_figure_too_thin_to_test_says_why_and_what_would_make_it_testable) {
  Results a = calibrated(), b = a;
  for (Results* r : {&a, &b})
    for (Cell& c : r->cells)
      if (c.id() == "floor/hello/tcp//c10/p1") c.samples.resize(1);
  const report::Comparison cmp = report::compare(a, b);
  const Change* one = find(cmp, "floor/hello/tcp//c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->verdict, Change::Verdict::untestable);
  EXPECT_EQ(one->why,
            "1 sample in A, 1 in B: a test needs 2 a side (more rounds: --repeats, --micro-repetitions)");
  EXPECT_TRUE(
      contains(report::compare_text(cmp), "untestable: 1 sample in A, 1 in B: a test needs 2 a side"));
  // 3 samples a side are testable (the variance moderated over the kind's figures), with a resolution.
  const report::Comparison three = report::compare(synthetic(), synthetic());
  for (const Change& c : three.changes)
    if (!report::exact(c.kind)) {
      EXPECT_NE(c.verdict, Change::Verdict::untestable) << c.key;
      EXPECT_TRUE(std::isfinite(c.resolution)) << c.key;
    }
}

TEST(report_compare, the_gate_fails_on_a_regression_beyond_the_threshold_the_offending_lines_last) {
  const Results a = calibrated();
  Results b = a;
  for (Cell& c : b.cells)
    if (c.id() == "zapbench/rpc/zap/zap/c10/p1")
      for (E2ESample& s : c.samples) s.requests_per_s *= 0.8;  // -20%
  const report::Comparison cmp = report::compare(a, b);
  const report::GateFailures failures = report::gate_failures(cmp);
  ASSERT_FALSE(failures.figures.empty());
  for (const Change* c : failures.figures) EXPECT_EQ(c->key, "zapbench/rpc/zap/zap/c10/p1");
  const std::string text = report::compare_text(cmp, true);
  const std::size_t gate = text.find("\ngate: FAIL — ");
  ASSERT_NE(gate, std::string::npos) << text;
  EXPECT_TRUE(contains(text.substr(gate), "zapbench/rpc/zap/zap/c10/p1"));
  EXPECT_FALSE(contains(text.substr(gate), "floor/"));
  // A threshold above the regression: it passes, and says what regressed by less.
  report::CompareOptions wide;
  wide.threshold = 0.5;
  const report::Comparison lenient = report::compare(a, b, wide);
  EXPECT_FALSE(report::gate_failures(lenient).any());
  EXPECT_TRUE(contains(report::compare_text(lenient, true),
                       "gate: pass — no figure or group of ours regressed by more than 50%"));
  // The machine slower, the build not: the gate passes.
  const report::Comparison machine = report::compare(a, slower(a, 1.25, {"zapbench", "floor"}, true, true));
  EXPECT_FALSE(report::gate_failures(machine).any());
  // A new allocation per op fails the gate whatever the threshold.
  Results alloc = a;
  for (report::MicroFigure& f : alloc.micro.figures)
    if (f.name == "Decode/zap") f.allocs_per_op = 1;
  EXPECT_EQ(report::gate_failures(report::compare(a, alloc, wide)).figures.size(), 1u);
}

TEST(report_compare, lists_keys_present_on_one_side_only) {
  Results a = calibrated(), b = calibrated();
  a.cells.push_back(cell("zapbench", "rpc", "http", "direct", 1000, 1, 1, 1));
  b.cells.push_back(cell("zapbench", "rpc", "zap", "zap", 1000, 1, 1, 1));
  std::erase_if(b.micro.figures, [](const report::MicroFigure& f) { return f.name == "Http/parse/own"; });
  const report::Comparison cmp = report::compare(a, b);
  EXPECT_EQ(cmp.only_in_a,
            (std::vector<std::string>{"micro/Http/parse/own", "zapbench/rpc/http/direct/c1000/p1"}));
  EXPECT_EQ(cmp.only_in_b, (std::vector<std::string>{"zapbench/rpc/zap/zap/c1000/p1"}));
  // Unavailable cells are absent on both sides, not "only in".
  EXPECT_EQ(find(cmp, "zapbench/rpc/http/rapidjson/c1/p1", FigureKind::requests_per_s), nullptr);
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(
      text, "Only in A (2, not compared):\n  micro/Http/parse/own\n  zapbench/rpc/http/direct/c1000/p1\n"))
      << text;
  EXPECT_TRUE(contains(text, "Only in B (1, not compared):\n  zapbench/rpc/zap/zap/c1000/p1\n"));
}

TEST(report_compare, says_what_differs_between_the_runs_besides_the_build) {
  Results a = calibrated(), b = a;
  b.env.cpu_model = "Intel(R) Xeon(R) Processor";
  b.config.duration_s = 0.25;
  b.interrupted = "SIGINT during the end-to-end samples";
  const std::string text = report::compare_text(report::compare(a, b));
  EXPECT_TRUE(
      contains(text, "the machines differ (A: AMD EPYC 7B13, 2 CPUs; B: Intel(R) Xeon(R) Processor, 2 CPUs)"))
      << text;
  EXPECT_TRUE(contains(text, "the samples differ in length"));
  EXPECT_TRUE(contains(text, "B was interrupted (SIGINT during the end-to-end samples)"));
}

TEST(report_compare, a_wider_margin_holds_what_a_narrow_one_leaves_undecided) {
  const Results a = calibrated();
  report::CompareOptions wide, narrow;
  wide.margin = 0.2;
  narrow.margin = 0.001;
  // The fixture's samples vary by one pattern shared by every figure, all of it the rounds' effect: kept,
  // so each figure has a spread to judge by.
  wide.round_effects = narrow.round_effects = false;
  const report::Comparison w = report::compare(a, a, wide), n = report::compare(a, a, narrow);
  unsigned non_exact = 0;
  for (const Change& c : w.changes) non_exact += !report::exact(c.kind);
  EXPECT_EQ(w.count(Change::Verdict::held), w.changes.size());
  EXPECT_EQ(n.count(Change::Verdict::held),
            w.changes.size() - non_exact);  // the exact ones: held at any margin
}

TEST(report_compare, each_runs_round_effects_are_removed_first) {
  // Every figure of the fixture varies by one pattern over its 8 rounds: all of it the rounds' effect.
  // Removed, every figure is exact in each run (no spread), and B = A 5% slower on our arm is decided at 0.95
  // exactly.
  const Results a = calibrated();
  Results b = a;
  for (Cell& c : b.cells)
    if (c.arm == matrix::Arm::zapbench)
      for (E2ESample& s : c.samples) s.requests_per_s *= 0.95;
  const report::Comparison cmp = report::compare(a, b);
  const Change* c = find(cmp, "zapbench/rpc/zap/zap/c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(c, nullptr);
  EXPECT_NEAR(c->judged.ratio, 0.95, 1e-9);
  EXPECT_EQ(c->verdict, Change::Verdict::regressed);
  EXPECT_GT(cmp.round_effects_a.at("end to end, requests/s"), 0.01);
  EXPECT_TRUE(contains(report::compare_text(cmp),
                       "Within each run, each round's effect on the figures measured in it"));
  // Kept (--no-round-effects): the pattern is each figure's noise, and a 5% move of 8 samples at ±3% is less
  // sure.
  report::CompareOptions raw;
  raw.round_effects = false;
  const report::Comparison kept = report::compare(a, b, raw);
  const Change* k = find(kept, "zapbench/rpc/zap/zap/c10/p1", FigureKind::requests_per_s);
  ASSERT_NE(k, nullptr);
  EXPECT_GT(k->judged.hi - k->judged.lo, 0.01);
  EXPECT_TRUE(kept.round_effects_a.empty());
  EXPECT_TRUE(
      contains(report::compare_text(kept), "Each figure's samples as measured (--no-round-effects)."));
}

TEST(report_compare, text_is_an_aligned_table_with_units) {
  const std::string text = report::compare_text(report::compare(calibrated(), calibrated()));
  const std::size_t header = text.find("our figure ");
  ASSERT_NE(header, std::string::npos) << text;
  for (const char* unit : {" req/s", " µs", " ns", " Ir", " allocs"})
    EXPECT_TRUE(contains(text, unit)) << unit;
  // Every row has its "kind" column at the same character position.
  const std::size_t kind_col = text.find("kind", header) - header;
  std::size_t rows = 0;
  for (std::size_t at = text.find('\n', header) + 1; at < text.size() && text[at] != '\n';
       at = text.find('\n', at) + 1, ++rows) {
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_EQ(line[kind_col - 1], ' ') << line;
    EXPECT_NE(line[kind_col], ' ') << line;
  }
  EXPECT_GT(rows, 50u);
}

TEST(report_compare, a_figure_that_is_no_measurement_is_named_with_its_path) {
  EXPECT_EQ(report::nonsense(calibrated()), "");
  Results r = calibrated();
  r.cells[2].samples[1].requests_per_s = -5;
  EXPECT_EQ(report::nonsense(r),
            "cells[2].samples[1].requests_per_s: -5 is not a rate (expected a finite number >= 0)");
  r = calibrated();
  r.cells[0].samples[0].p99_ns = NAN;
  EXPECT_EQ(report::nonsense(r),
            "cells[0].samples[0].p99_ns: NaN (null) is not a latency (expected a finite number >= 0)");
  r = calibrated();
  r.cells[3].samples.clear();
  EXPECT_TRUE(contains(report::nonsense(r), "cells[3].samples: empty, though the cell ran"));
  r.interrupted = "SIGTERM during the end-to-end samples";  // an interrupted run's cells may not have run
  EXPECT_EQ(report::nonsense(r), "");
  r = calibrated();
  r.micro.figures[1].ns_per_op.values[2] = INFINITY;
  EXPECT_EQ(report::nonsense(r),
            "micro.figures[1].ns_per_op[2]: inf is not a time (expected a finite number >= 0)");
  r = calibrated();
  r.micro.figures[1].ns_per_op = {};
  EXPECT_TRUE(contains(report::nonsense(r), "micro.figures[1].ns_per_op: empty"));
  r = calibrated();
  r.calibration.ping_pongs[1].server_cpu_ns.values[0] = -1;
  EXPECT_TRUE(
      contains(report::nonsense(r), "calibration.ping_pongs[1].server_cpu_ns[0]: -1 is not a CPU time"));
  r = calibrated();
  r.micro.instructions.figures[0].callgrind_ir = -3;
  EXPECT_TRUE(contains(report::nonsense(r), "micro.instructions.figures[0].callgrind_ir: -3 is not a count"));
}

TEST(report_compare, the_calibration_round_trips_through_results_json) {
  const Results r = calibrated();
  const Results back = report::from_json(report::to_json(r));
  ASSERT_EQ(back.calibration.ping_pongs.size(), 2u);
  EXPECT_EQ(back.calibration.version, "1");
  EXPECT_EQ(back.calibration.ping_pongs[1].depth, 16u);
  EXPECT_EQ(back.calibration.ping_pongs[1].round_trips_per_s.values,
            r.calibration.ping_pongs[1].round_trips_per_s.values);
  EXPECT_EQ(back.calibration.ping_pongs[1].server_cpu_ns.rounds,
            r.calibration.ping_pongs[1].round_trips_per_s.rounds);
  EXPECT_EQ(report::to_json(back), report::to_json(r));
  // A run without one writes none.
  EXPECT_FALSE(contains(report::to_json(synthetic()), "\"calibration\""));
  // Lengths that disagree are an error naming the member.
  std::string text = report::to_json(r);
  const std::size_t at = text.find("\"p99_ns\": [", text.find("\"ping_pongs\""));
  ASSERT_NE(at, std::string::npos);
  text.insert(text.find('[', at) + 1, "1,");
  EXPECT_TRUE(contains(
      error_of(text),
      "calibration.ping_pongs[0].p99_ns: expected one value per value of round_trips_per_s (8), got 9"))
      << error_of(text);
}

}  // namespace
