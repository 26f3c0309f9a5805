// tests/report/report_compare_families_test.cpp — what `zapbench compare`
// claims, checked on seeded synthetic pairs of runs shaped like two quick
// runs of this machine (report::compare on report::Results): the run's
// shape (cells of 3 and of 22 samples, references, microbenchmarks of 3 and
// 11 rounds, the calibration in every round, instruction counts), its noise
// (a figure's log-sd 2–7%, p99 far noisier, a shared round effect, rare
// 30%-slow disturbed samples) and the machine between two runs (every kind
// moved by a few %, each figure a little unevenly). Each family is one case
// of the issue — nothing changed, one cell, one arm, our whole build, the
// machine, the machine and the build together, one path's instructions —
// and its detection and false-alarm rates are asserted at the simulation's
// error (3 standard errors of a binomial proportion over the family's
// figures). Deterministic (seeded); the rates go to the log as
// "[ figures  ]" lines.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "report/compare.hpp"
#include "stats/rng.hpp"

namespace {

using report::Change;
using report::FigureKind;

constexpr unsigned kTrials = 60;
constexpr unsigned kLongRounds = 22, kFirstRounds = 3, kMicroLong = 11;
constexpr double kSeconds = 0.5;  // warm-up + window

// What B's true values are multiplied by, per figure: requests/s (a rate,
// 1/x of the time), p99 and CPU per request, ns/op; instructions per request.
struct Effect {
  std::function<double(const report::Cell&)> cell = [](const report::Cell&) { return 1.0; };  // time factor
  std::function<double(const std::string& micro)> micro = [](const std::string&) { return 1.0; };
  double machine = 1;             // every figure, references and calibration included (a time factor)
  std::string instructions_path;  // this path's count
  double instructions = 1;
};

// One figure's truth: its typical value and its noise.
struct Truth {
  double base = 0;
  double sd = 0.05;
};

// A run's machine: how each kind moved this time, and each figure a little unevenly.
struct Machine {
  double rate = 0, p99 = 0, cpu = 0, ns = 0;  // log moves
  double uneven = 0.01;
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  report::Results run(const Effect& e) {
    stats::Rng& r = rng_;
    Machine m{0.03 * r.normal(), 0.03 * r.normal(), 0.03 * r.normal(), 0.03 * r.normal()};
    const double machine = std::log(e.machine);
    std::vector<double> round_effect(kLongRounds), micro_round(kMicroLong);
    for (double& x : round_effect) x = 0.02 * r.normal();
    for (double& x : micro_round) x = 0.01 * r.normal();
    report::Results res;
    res.config.mode = "quick";
    res.config.warmup_s = res.config.duration_s = kSeconds / 2;
    res.env.cpu_model = "synthetic";
    res.env.cpu_count = 2;
    res.calibration.version = "1";
    // How much slower a sample of round k ran (log): the round's effect, and
    // rarely a disturbed sample, 30% slower.
    auto slow = [&](unsigned k, const std::vector<double>& rounds) {
      return rounds[k] + (r.uniform() < 0.03 ? std::log(1.3) : 0);
    };
    for (std::size_t i = 0; i < cells_.size(); ++i) {
      report::Cell c = cells_[i];
      const double time_factor = std::log(e.cell(c)) + machine;
      const double uneven_rate = m.uneven * r.normal(), uneven_p99 = m.uneven * r.normal(),
                   uneven_cpu = m.uneven * r.normal();
      const unsigned rounds = long_[i] ? kLongRounds : i % 9 == 4 ? 7 : kFirstRounds;
      for (unsigned k = 0; k < rounds; ++k) {
        report::E2ESample s;
        s.round = k;
        const double sk = slow(k, round_effect);
        const double rate = std::exp(std::log(rate_[i].base) + rate_[i].sd * r.normal() + m.rate +
                                     uneven_rate - time_factor - sk);
        s.requests_per_s = rate;
        s.p99_ns = std::exp(std::log(p99_[i].base) + p99_[i].sd * r.normal() + m.p99 + uneven_p99 +
                            time_factor + sk);
        const double cpu_per_request_ns = std::exp(std::log(cpu_[i].base) + cpu_[i].sd * r.normal() + m.cpu +
                                                   uneven_cpu + time_factor + sk);
        s.server_cpu_s = cpu_per_request_ns * 1e-9 * rate * kSeconds;
        s.responses = std::uint64_t(rate * kSeconds);
        c.samples.push_back(s);
      }
      res.cells.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < micro_.size(); ++i) {
      report::MicroFigure f = micro_[i];
      const bool calibration = f.name.starts_with(report::kCalibrationMicroPrefix);
      const unsigned rounds = calibration || micro_long_[i] ? kMicroLong : kFirstRounds;
      const double factor = std::log(e.micro(f.name)) + machine + m.ns + m.uneven * r.normal();
      for (unsigned k = 0; k < rounds; ++k) {
        f.ns_per_op.values.push_back(
            std::exp(std::log(ns_[i].base) + factor + ns_[i].sd * r.normal() + slow(k, micro_round)));
        f.ns_per_op.rounds.push_back(k);
      }
      res.micro.figures.push_back(std::move(f));
    }
    // The ping-pong, a sample per end-to-end round, moved by the machine as every cell is.
    for (const unsigned depth : {1u, 16u}) {
      report::PingPong p;
      p.depth = depth;
      const double uneven_rate = m.uneven * r.normal(), uneven_p99 = m.uneven * r.normal(),
                   uneven_cpu = m.uneven * r.normal();
      for (unsigned k = 0; k < kLongRounds; ++k) {
        const double sk = slow(k, round_effect);
        p.round_trips_per_s.values.push_back(std::exp(
            std::log(depth == 1 ? 30e3 : 300e3) + 0.04 * r.normal() + m.rate + uneven_rate - machine - sk));
        p.round_trips_per_s.rounds.push_back(k);
        p.p99_ns.values.push_back(
            std::exp(std::log(50e3) + 0.2 * r.normal() + m.p99 + uneven_p99 + machine + sk));
        p.server_cpu_ns.values.push_back(
            std::exp(std::log(3e3) + 0.05 * r.normal() + m.cpu + uneven_cpu + machine + sk));
      }
      p.p99_ns.rounds = p.server_cpu_ns.rounds = p.round_trips_per_s.rounds;
      res.calibration.ping_pongs.push_back(std::move(p));
    }
    // Instructions: exact, but for a jitter far below the repeatability (callgrind's own).
    res.micro.instructions.requests = 16000;
    for (std::size_t i = 0; i < paths_.size(); ++i) {
      report::InstructionFigure f;
      f.name = paths_[i];
      f.callgrind_ir = (1000 + 100 * double(i)) * (paths_[i] == e.instructions_path ? e.instructions : 1) *
                       (1 + 1e-5 * r.normal());
      res.micro.instructions.figures.push_back(f);
    }
    return res;
  }

  // The run's fixed shape and truths (the same in A and in B).
  void shape() {
    stats::Rng& r = rng_;
    auto add_cell = [&](const char* arm, unsigned i, bool is_long) {
      report::Cell c;
      c.arm = *matrix::arm_from(arm);
      c.scenario = matrix::Scenario::rpc;
      c.framing = matrix::Framing::http1;
      c.body = "b" + std::to_string(i);
      c.connections = 1;
      c.pipeline = 16;
      cells_.push_back(c);
      long_.push_back(is_long);
      rate_.push_back({1e5 * (1 + r.uniform()), 0.02 + 0.05 * r.uniform()});
      p99_.push_back({1e5 * (1 + r.uniform()), 0.05 + 0.35 * r.uniform()});
      cpu_.push_back({2e3 * (1 + r.uniform()), 0.03 + 0.04 * r.uniform()});
    };
    unsigned i = 0;
    for (; i < 25; ++i) add_cell("zapbench", i, true);
    for (; i < 65; ++i) add_cell("zapbench", i, false);
    for (; i < 71; ++i) add_cell("floor", i, i < 68);
    for (; i < 77; ++i) add_cell("nginx", i, false);
    for (; i < 83; ++i) add_cell("go-fasthttp", i, i < 80);
    for (; i < 86; ++i) add_cell("grpc-cpp", i, i < 85);
    auto add_micro = [&](std::string name, bool is_long, double sd) {
      report::MicroFigure f;
      f.name = std::move(name);
      const auto slash = f.name.find('/');
      f.op = f.name.substr(0, slash);
      f.codec = f.name.substr(slash + 1);
      micro_.push_back(f);
      micro_long_.push_back(is_long);
      ns_.push_back({10 + 100 * r.uniform(), sd});
    };
    for (unsigned k = 0; k < 150; ++k)
      add_micro("Op" + std::to_string(k % 6) + "/c" + std::to_string(k), k < 12, 0.02);
    for (unsigned k = 0; k < 20; ++k)
      add_micro("Op" + std::to_string(k % 4) + "/go/c" + std::to_string(k), false, 0.03);
    for (const char* c : {"Calibrate/spin", "Calibrate/memcpy-4KiB", "Calibrate/memcpy-1MiB"})
      add_micro(c, true, 0.02);
    for (unsigned k = 0; k < 24; ++k)
      paths_.push_back("Server/f" + std::to_string(k % 6) + "/b" + std::to_string(k));
  }

 private:
  stats::Rng rng_;
  std::vector<report::Cell> cells_;
  std::vector<bool> long_;
  std::vector<Truth> rate_, p99_, cpu_;
  std::vector<report::MicroFigure> micro_;
  std::vector<bool> micro_long_;
  std::vector<Truth> ns_;
  std::vector<std::string> paths_;
};

// Over a family's trials, of the figures of ours an effect touched and of
// those it did not. Resolved: touched figures whose resolution (the change
// compare says they find 4 times in 5) is within the effect: the claim the
// detection among them checks.
struct Rates {
  unsigned touched = 0, found = 0, wrong_way = 0;  // found: called changed the right way
  unsigned resolved = 0, resolved_found = 0;
  unsigned untouched = 0, false_alarms = 0;
  // The same of the groups (an arm's cells, an op's microbenchmarks).
  unsigned groups_touched = 0, groups_found = 0, groups_untouched = 0, groups_false = 0;
  unsigned trials_with_false_group = 0;  // comparisons that called any untouched group changed
  unsigned machine_moved = 0, trials = 0;
  double detection() const { return touched ? double(found) / touched : NAN; }
  double detection_resolved() const { return resolved ? double(resolved_found) / resolved : NAN; }
  double false_alarm() const { return untouched ? double(false_alarms) / untouched : NAN; }
  double group_detection() const { return groups_touched ? double(groups_found) / groups_touched : NAN; }
  double group_false_alarm() const {
    return groups_untouched ? double(groups_false) / groups_untouched : NAN;
  }
};

// 3 standard errors of a proportion p over n.
double three_se(double p, unsigned n) { return 3 * std::sqrt(p * (1 - p) / std::max(1u, n)); }

// What an effect did to a figure of ours: nothing, made it worse or better,
// or moved it in a way the family does not count (p99 beside a rate).
enum Way { untouched, worse, better, uncounted };

// `way(change)` says what the effect did; `effect` is its size (0.1: 10%);
// `group_way` the same of a group (by default: touched if any figure of it is counted touched is not
// known here, so every group is untouched unless said).
Rates family(
    const char* name, std::uint64_t seed, const Effect& effect, double size,
    const std::function<Way(const Change&)>& way, report::CompareOptions o = {},
    const std::function<Way(const report::Group&)>& group_way = [](const report::Group&) {
      return untouched;
    }) {
  Rates out;
  for (unsigned t = 0; t < kTrials; ++t) {
    Generator g(seed * 1000 + t);
    g.shape();
    const report::Results a = g.run({}), b = g.run(effect);
    const report::Comparison c = report::compare(a, b, o);
    ++out.trials;
    for (const report::Yardstick& y : c.machine) out.machine_moved += y.moved();
    for (const Change& ch : c.changes) {
      const Way w = way(ch);
      const bool changed =
          ch.verdict == Change::Verdict::improved || ch.verdict == Change::Verdict::regressed;
      if (w == uncounted) continue;
      if (w == untouched) {
        ++out.untouched;
        out.false_alarms += changed;
        continue;
      }
      ++out.touched;
      const bool right = changed && (ch.verdict == Change::Verdict::regressed) == (w == worse);
      out.found += right;
      out.wrong_way += changed && !right;
      if (ch.resolution <= size) {
        ++out.resolved;
        out.resolved_found += right;
      }
    }
    const unsigned false_before = out.groups_false;
    for (const report::Group& group : c.groups) {
      const Way w = group_way(group);
      const bool changed =
          group.verdict == Change::Verdict::improved || group.verdict == Change::Verdict::regressed;
      if (w == uncounted) continue;
      if (w == untouched) {
        ++out.groups_untouched;
        out.groups_false += changed;
      } else {
        ++out.groups_touched;
        out.groups_found += changed && (group.verdict == Change::Verdict::regressed) == (w == worse);
      }
    }
    out.trials_with_false_group += out.groups_false > false_before;
  }
  std::printf(
      "[ figures  ] %-30s found %5.1f%% of %5u touched (%5.1f%% of the %5u resolving it), false alarms "
      "%5.2f%% of "
      "%5u untouched\n",
      name, 100 * out.detection(), out.touched, 100 * out.detection_resolved(), out.resolved,
      100 * out.false_alarm(), out.untouched);
  std::printf(
      "[ figures  ] %-30s groups: found %5.1f%% of %4u touched, false alarms %5.2f%% of %4u untouched (in %u "
      "of "
      "%u comparisons)\n",
      name, 100 * out.group_detection(), out.groups_touched, 100 * out.group_false_alarm(),
      out.groups_untouched, out.trials_with_false_group, out.trials);
  return out;
}

const Effect kNone{};

// Every family: (almost) no figure called the wrong way — a rare 30%-slow
// sample can flip a 3-sample figure, and a false discovery may fall either
// way: at most 1 in 2,000 — and the figures that say they resolve the effect
// find it at least 4 times in 5 (the resolution's claim).
void expect_claims_hold(const Rates& r) {
  EXPECT_LE(r.wrong_way, r.touched / 2000);
  if (r.resolved > 0) {
    EXPECT_GE(r.detection_resolved(), 0.80 - three_se(0.80, r.resolved));
  }
}

TEST(compare_families, nothing_changed_is_rarely_called_changed) {
  const Rates r = family("A/A", 1, kNone, 0, [](const Change&) { return untouched; });
  // Benjamini–Hochberg: the chance of any call in a comparison is about q; per figure far less.
  EXPECT_LE(r.false_alarm(), 0.01);
  EXPECT_LE(r.group_false_alarm(), 0.05 + three_se(0.05, r.groups_untouched));
}

TEST(compare_families, one_cell_regressed_by_20_percent_is_found_alone) {
  // A 22-sample cell and a 7-sample one each 20% slower, nothing else: found, though alone.
  Effect e;
  e.cell = [](const report::Cell& c) { return c.body == "b3" || c.body == "b31" ? 1.25 : 1.0; };
  const Rates r = family("one cell -20%", 2, e, 0.2, [](const Change& c) {
    const bool cell =
        c.key.starts_with("zapbench/rpc/http/b3/") || c.key.starts_with("zapbench/rpc/http/b31/");
    return !cell ? untouched : c.kind == FigureKind::p99 ? uncounted : worse;
  });
  expect_claims_hold(r);
  EXPECT_GE(r.detection(), 0.90 - three_se(0.90, r.touched));
  EXPECT_LE(r.false_alarm(), 0.01);
}

// The effect of our arm or build: p99 moves too, but too noisy to count on.
Way ours_moved(const Change& c, bool moved) {
  if (!moved) return untouched;
  return c.kind == FigureKind::p99 ? uncounted : worse;
}

TEST(compare_families, one_arm_10_percent_slower_is_found_and_nothing_else_moves) {
  Effect e;
  e.cell = [](const report::Cell& c) { return c.arm == matrix::Arm::zapbench ? 1.0 / 0.9 : 1.0; };
  const Rates r = family(
      "the zapbench arm -10%", 3, e, 0.1,
      [](const Change& c) { return ours_moved(c, c.key.starts_with("zapbench/")); }, {},
      [](const report::Group& g) {
        return g.name != "zapbench cells" ? untouched : g.kind == FigureKind::p99 ? uncounted : worse;
      });
  expect_claims_hold(r);
  EXPECT_GE(r.detection(), 0.40);
  // As a group, the arm's cells: found (nearly) always; every other group not called.
  EXPECT_GE(r.group_detection(), 0.95);
  EXPECT_LE(r.group_false_alarm(), 0.05 + three_se(0.05, r.groups_untouched));
  // The floor and the microbenchmarks, untouched, are not called changed: the yardstick holds.
  EXPECT_LE(r.false_alarm(), 0.02);
}

TEST(compare_families, the_whole_build_10_percent_slower_is_the_build_not_the_machine) {
  Effect e;
  e.cell = [](const report::Cell& c) {
    return c.arm == matrix::Arm::zapbench || c.arm == matrix::Arm::floor ? 1.0 / 0.9 : 1.0;
  };
  e.micro = [](const std::string& n) {
    return n.starts_with("Calibrate/") || n.find("/go/") != std::string::npos ? 1.0 : 1.0 / 0.9;
  };
  const Rates r = family(
      "our whole build -10%", 4, e, 0.1,
      [](const Change& c) {
        return ours_moved(c, c.kind != FigureKind::instructions && c.kind != FigureKind::allocs_per_op);
      },
      {}, [](const report::Group& g) { return g.kind == FigureKind::p99 ? uncounted : worse; });
  expect_claims_hold(r);
  EXPECT_GE(r.detection(), 0.40);
  EXPECT_GE(r.group_detection(), 0.95);
  EXPECT_LE(r.false_alarm(), 0.01);
}

TEST(compare_families, the_machine_10_percent_slower_changes_no_figure_of_ours) {
  Effect e;
  e.machine = 1.0 / 0.9;
  const Rates r = family("the machine -10%", 5, e, 0.1, [](const Change&) { return untouched; });
  EXPECT_LE(r.false_alarm(), 0.01);
  EXPECT_LE(r.group_false_alarm(), 0.05 + three_se(0.05, r.groups_untouched));
  // The machine's move is named: every kind's yardstick moved, in (nearly) every trial.
  EXPECT_GE(double(r.machine_moved) / (4.0 * r.trials), 0.9);
  // --absolute: judged against 1, they regress (the machine's own
  // run-to-run move, which --absolute keeps, can hide or flip a few).
  report::CompareOptions absolute;
  absolute.absolute = true;
  const Rates abs = family(
      "the machine -10%, --absolute", 5, e, 0.1,
      [](const Change& c) { return ours_moved(c, !report::exact(c.kind)); }, absolute);
  EXPECT_GE(abs.detection(), 0.30);
  EXPECT_LE(abs.wrong_way, abs.touched / 100);
}

TEST(compare_families, the_machine_and_the_build_together_are_told_apart) {
  Effect e;
  e.machine = 1.0 / 0.9;
  e.cell = [](const report::Cell& c) { return c.arm == matrix::Arm::zapbench ? 1.0 / 0.9 : 1.0; };
  const Rates r = family(
      "machine -10% and arm -10%", 6, e, 0.1,
      [](const Change& c) { return ours_moved(c, c.key.starts_with("zapbench/")); }, {},
      [](const report::Group& g) {
        return g.name != "zapbench cells" ? untouched : g.kind == FigureKind::p99 ? uncounted : worse;
      });
  EXPECT_GE(r.group_detection(), 0.95);
  EXPECT_LE(r.group_false_alarm(), 0.05 + three_se(0.05, r.groups_untouched));
  expect_claims_hold(r);
  EXPECT_GE(r.detection(), 0.40);
  EXPECT_LE(r.false_alarm(), 0.02);
  EXPECT_GE(double(r.machine_moved) / (4.0 * r.trials), 0.9);
}

TEST(compare_families, one_paths_instructions_one_percent_more_is_changed_with_both_counts) {
  Effect e;
  e.instructions_path = "Server/f2/b2";
  e.instructions = 1.01;
  const Rates r = family("instructions +1%", 7, e, 0.01, [](const Change& c) {
    return c.key == "instructions/Server/f2/b2" ? worse : untouched;
  });
  EXPECT_EQ(r.found, r.touched);
  EXPECT_EQ(r.wrong_way, 0u);
  // No other count moved beyond the repeatability; no time figure either.
  EXPECT_LE(r.false_alarm(), 0.01);
}

}  // namespace
