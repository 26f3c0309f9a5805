// tests/bench/bench_rounds_test.cpp — the run's schedule (bench/run/rounds.hpp)
// with its hooks replaced: samples drawn from a seeded generator, a clock
// that advances one second per sample, microbenchmark rounds that add
// figures. No process, no wall time: what is sampled when, and why it stops.
#include <gtest/gtest.h>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/run/rounds.hpp"
#include "proc/interrupt.hpp"
#include "report/findings.hpp"
#include "stats/rng.hpp"

namespace {

using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

bench::CellPlan cell(Scenario s, const std::string& body, unsigned conns, unsigned depth) {
  bench::CellPlan cp;
  cp.cell.arm = Arm::zapbench;
  cp.cell.scenario = s;
  cp.cell.framing = Framing::http1;
  cp.cell.body = body;
  cp.cell.connections = conns;
  cp.cell.pipeline = depth;
  return cp;
}

// A run of four cells: ZAP and JSON on rpc (one finding: ZAP against the
// fastest JSON body, in requests/s and in server CPU), a hello cell no
// finding compares, and an unavailable cell.
struct Fixture {
  bench::RunPlan plan;
  bench::RunFolder folder{"/nonexistent/rounds-test"};
  std::size_t interrupt_at = SIZE_MAX;  // the sample (0-based) whose hook throws proc::Interrupted
  std::vector<bench::CellPlan> cells;
  report::Results res;
  double clock_s = 0;
  double noise = 0.05;  // a sample's log-sd
  stats::Rng rng{7};
  std::vector<std::string> sampled;  // cell ids, in the order sampled
  std::vector<std::string> micro_filters;

  Fixture() {
    plan.cfg.repeats = 3;
    plan.cfg.precision = 0.03;
    plan.cfg.budget_s = 1000;
    plan.cfg.micro_repetitions = 2;
    plan.cfg.warmup_s = 0.25;
    plan.cfg.duration_s = 0.5;
    cells = {cell(Scenario::rpc, "zap", 1, 16), cell(Scenario::rpc, "direct", 1, 16),
             cell(Scenario::hello, "", 1, 1), cell(Scenario::rpc, "nlohmann", 1, 16)};
    cells.back().cell.unavailable = "not in this build";
    res.config = plan.cfg;  // as zapbench run records it
  }

  bench::RoundsHooks hooks() {
    bench::RoundsHooks h;
    h.sample = [this](bench::CellPlan& cp, unsigned, std::string&) {
      // As a real sample's child wait does once SIGTERM came: its child ended, nothing measured.
      if (sampled.size() == interrupt_at) throw proc::Interrupted{SIGTERM};
      sampled.push_back(cp.cell.id());
      clock_s += 1;
      const double truth = cp.cell.body == "zap" ? 100000 : cp.cell.body == "direct" ? 90000 : 50000;
      report::E2ESample s;
      s.requests_per_s = truth * std::exp(noise * rng.normal());
      s.server_cpu_s = 0.75 * std::exp(noise * rng.normal());
      return s;
    };
    h.micro = [this](report::Results& r, unsigned round, const std::string& filter) {
      micro_filters.push_back(filter);
      clock_s += 1;
      for (const char* codec : {"zap", "direct"}) {
        const std::string name = std::string("Decode/") + codec;
        if (!filter.empty() && filter.find(codec) == std::string::npos) continue;
        report::MicroFigure* f = nullptr;
        for (report::MicroFigure& x : r.micro.figures)
          if (x.name == name) f = &x;
        if (!f) {
          r.micro.figures.push_back({name, "Decode", codec, {}, 0, 162});
          f = &r.micro.figures.back();
        }
        f->ns_per_op.values.push_back((std::string(codec) == "zap" ? 5 : 150) *
                                      std::exp(noise * rng.normal()));
        f->ns_per_op.rounds.push_back(round);
      }
    };
    h.arms_micro = [](report::Results&, unsigned) {};
    h.elapsed_s = [this] { return clock_s; };
    return h;
  }

  bench::SampleContext ctx() { return {plan, folder, "/bin/false"}; }

  std::size_t samples_of(const std::string& id) const {
    for (const bench::CellPlan& cp : cells)
      if (cp.cell.id() == id) return cp.cell.samples.size();
    return 0;
  }
};

TEST(rounds, the_first_rounds_run_every_available_cell_odd_rounds_backwards) {
  Fixture f;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.first();
  const std::string zap = f.cells[0].cell.id(), json = f.cells[1].cell.id(), hello = f.cells[2].cell.id();
  EXPECT_EQ(f.sampled, (std::vector<std::string>{zap, json, hello, hello, json, zap, zap, json, hello}));
  for (std::size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(f.cells[i].cell.samples.size(), 3u);
    for (unsigned r = 0; r < 3; ++r) EXPECT_EQ(f.cells[i].cell.samples[r].round, r);
  }
  EXPECT_TRUE(f.cells[3].cell.samples.empty()) << "unavailable: never run";
}

TEST(rounds, more_rounds_go_to_what_the_findings_compare_until_each_is_precise) {
  Fixture f;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.micro();
  rounds.first();
  const bench::ExtraRounds extra = rounds.until_precise();
  EXPECT_FALSE(extra.budget_spent);
  EXPECT_TRUE(extra.imprecise.empty()) << extra.imprecise.front() << " after " << extra.rounds << " rounds";
  EXPECT_GT(extra.rounds, 0u);
  // The finding's two cells got every extra round; the hello cell none.
  EXPECT_EQ(f.samples_of(f.cells[0].cell.id()), 3 + extra.rounds);
  EXPECT_EQ(f.samples_of(f.cells[1].cell.id()), 3 + extra.rounds);
  EXPECT_EQ(f.samples_of(f.cells[2].cell.id()), 3u);
  // Rounds keep counting: the extra ones are rounds 3, 4, ...
  EXPECT_EQ(f.cells[0].cell.samples.back().round, 2 + extra.rounds);
  // The microbenchmarks the findings compare, by their exact names, until precise too.
  ASSERT_GE(f.micro_filters.size(), 2u);
  EXPECT_EQ(f.micro_filters[0], "");
  for (std::size_t i = 2; i < f.micro_filters.size(); ++i)
    EXPECT_EQ(f.micro_filters[i], "^(Decode/zap|Decode/direct)$");
  rounds.publish();
  const std::vector<report::Finding> found = report::findings(f.res);
  ASSERT_FALSE(found.empty());
  for (const report::Finding& x : found) EXPECT_TRUE(stats::precise(x.estimate, 0.03)) << x.title;
}

TEST(rounds, the_budget_stops_them_before_it_is_passed) {
  Fixture f;
  f.noise = 0.2;  // far from ±3% in the budget
  f.plan.cfg.budget_s = 40;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.first();
  const bench::ExtraRounds extra = rounds.until_precise();
  EXPECT_TRUE(extra.budget_spent);
  EXPECT_LE(f.clock_s, 40);
  EXPECT_GT(f.clock_s, 40 - 2 - 1) << "stops only when the next round (2 samples) would not fit";
  EXPECT_FALSE(extra.imprecise.empty());
  EXPECT_NE(extra.imprecise[0].find("ZAP against the fastest JSON body, direct"), std::string::npos)
      << extra.imprecise[0];
}

TEST(rounds, a_budget_of_zero_is_the_first_rounds_only) {
  Fixture f;
  f.plan.cfg.budget_s = 0;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.first();
  const bench::ExtraRounds extra = rounds.until_precise();
  EXPECT_EQ(extra.rounds, 0u);
  EXPECT_EQ(f.sampled.size(), 9u);
  EXPECT_FALSE(extra.imprecise.empty()) << "3 rounds do not make ±3%: said so";
}

TEST(rounds, no_finding_no_extra_round) {
  Fixture f;
  f.cells.erase(f.cells.begin(), f.cells.begin() + 2);  // hello and the unavailable cell only
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.first();
  const bench::ExtraRounds extra = rounds.until_precise();
  EXPECT_EQ(extra.rounds, 0u);
  EXPECT_TRUE(extra.imprecise.empty());
}

// An interrupt is the sample hook's proc::Interrupted: it unwinds the rounds
// at once; the samples before it are kept, the one it cut short is not.
TEST(rounds, an_interrupt_unwinds_them_keeping_the_samples_before_it) {
  Fixture f;
  f.interrupt_at = 4;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  EXPECT_THROW(rounds.first(), proc::Interrupted);
  EXPECT_EQ(f.sampled.size(), 4u);
  std::size_t kept = 0;
  for (const bench::CellPlan& cp : f.cells) kept += cp.cell.samples.size();
  EXPECT_EQ(kept, 4u);
  rounds.publish();
  std::size_t published = 0;
  for (const report::Cell& c : f.res.cells) published += c.samples.size();
  EXPECT_EQ(published, 4u);
}

TEST(rounds, no_cell_gets_more_than_the_cap) {
  Fixture f;
  f.noise = 1.5;  // never precise
  f.plan.cfg.budget_s = 1e9;
  const bench::SampleContext ctx = f.ctx();
  bench::Rounds rounds(ctx, f.cells, f.res, f.hooks());
  rounds.first();
  const bench::ExtraRounds extra = rounds.until_precise();
  EXPECT_FALSE(extra.budget_spent);
  EXPECT_EQ(f.samples_of(f.cells[0].cell.id()), bench::kMaxRounds);
  EXPECT_FALSE(extra.imprecise.empty());
}

TEST(rounds, exact_filter_matches_the_names_and_nothing_else) {
  EXPECT_EQ(bench::exact_filter({"Decode/zap", "Logs/DecodeAll/zap/100"}),
            "^(Decode/zap|Logs/DecodeAll/zap/100)$");
  EXPECT_EQ(bench::exact_filter({"a.b+c(d)"}), "^(a\\.b\\+c\\(d\\))$");
}

}  // namespace
