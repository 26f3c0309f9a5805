// bench/run/rounds.hpp — the run's rounds: what is sampled when. First the
// microbenchmarks' rounds (a `zapbench micro` process, then a `zapbench-go
// micro` one, per round) and the first rounds of every end-to-end cell; then,
// while the budget allows, one more round at a time of only the cells and
// microbenchmarks that the run's findings (report/findings.hpp) compare and
// that are not yet precise (stats::precise at the plan's precision). Round r
// of every cell it runs comes before round r + 1 of any, odd rounds run
// backwards, so drift hits every arm alike and each round pairs. Stops on
// precision or on the budget, never on a verdict. An interrupt is a hook's
// proc::Interrupted unwinding through: what was sampled before it stays in
// the cells and the results, the sample it cut short is not recorded.
// Owns the schedule: a sample is sample.hpp's, a finding report's.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/plan/plan.hpp"
#include "bench/run/progress.hpp"
#include "bench/run/sample.hpp"
#include "report/model.hpp"

namespace bench {

// At most this many rounds of any cell or microbenchmark, whatever the
// budget: a finding that 200 rounds did not make precise will not be made
// so by more (its figure is broken, or the machine is).
inline constexpr unsigned kMaxRounds = 200;

// What the extra rounds did (for the run's log and its notes).
struct ExtraRounds {
  unsigned rounds = 0;                 // rounds added after the first
  unsigned micro_rounds = 0;           // of them, with microbenchmarks
  std::size_t samples = 0;             // end-to-end samples they took
  bool budget_spent = false;           // stopped by the budget, not by precision
  std::vector<std::string> imprecise;  // findings not within the precision at the end ("title: figure")
};

// How the work of a round is done: by default (real_hooks) run_sample, a
// `zapbench micro` round, a `zapbench-go micro` round, the calibration and
// the steady clock;
// the unit tests give their own, so the schedule is tested without processes
// or time.
struct RoundsHooks {
  std::function<report::E2ESample(CellPlan& cp, unsigned round, std::string& failure)> sample;
  // A round of the microbenchmarks into res.micro; `filter` "" for the plan's.
  std::function<void(report::Results& res, unsigned round, const std::string& filter)> micro;
  std::function<void(report::Results& res, unsigned round)> arms_micro;
  // The calibration's ping-pongs of an end-to-end round, before its samples
  // (calibration.hpp); none in the unit tests.
  std::function<void(report::Results& res, unsigned round)> calibrate;
  std::function<double()> elapsed_s;  // since the run began: what the budget counts
};
RoundsHooks real_hooks(const SampleContext& ctx, std::chrono::steady_clock::time_point started);

class Rounds {
 public:
  // `cells`: the plan's (unavailable ones are skipped).
  Rounds(const SampleContext& ctx, std::vector<CellPlan>& cells, report::Results& res, RoundsHooks hooks);

  // The microbenchmarks' first rounds (plan.cfg.micro_repetitions of them).
  void micro();
  // Every available cell, plan.cfg.repeats times (printing how many samples
  // that is, and the progress of each).
  void first();
  // Rounds of what the findings still need, until every finding is precise
  // or the next round would not fit the budget.
  ExtraRounds until_precise();

  // The run's cells as results: res.cells set from the cells' current samples.
  void publish();

  [[nodiscard]] double elapsed_s() const;

 private:
  // One round of these cells (indices into cells_), in round `round`.
  void e2e_round(const std::vector<std::size_t>& which, unsigned round);
  double sample_s() const;  // the time one sample takes, measured (the plan's guess before)

  const SampleContext& ctx_;
  std::vector<CellPlan>& cells_;
  report::Results& res_;
  RoundsHooks hooks_;
  unsigned next_round_ = 0, next_micro_round_ = 0;
  double e2e_s_ = 0;  // time spent in end-to-end samples
  std::size_t e2e_samples_ = 0;
  double micro_s_per_benchmark_ = 0;  // of a microbenchmark in a round, measured
  std::optional<Progress> progress_;  // from the first end-to-end round on
};

// A Google Benchmark (and Go regexp) filter matching exactly these names.
std::string exact_filter(const std::vector<std::string>& names);

}  // namespace bench
