// bench/run/run.hpp — `zapbench run` as a library: run() takes a planned run
// (plan.hpp) from its hosts to its reports — the hosts made real (the
// namespace mode's built and torn down, every host checked), the run folder
// and environment, the microbenchmarks, the first rounds of every cell and
// the rounds of the findings' cells until precise (rounds.hpp), then
// results.json, report.md and report.html. cli/run.cpp is flags -> plan ->
// run -> exit code. Progress goes to an observer, one line at a time (the
// samples' own lines are the rounds' hooks').
#pragma once

#include <string>
#include <vector>

#include "bench/plan/plan.hpp"

namespace bench {

// Where the run's progress lines go.
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  virtual void line(const std::string& text) = 0;  // one line, without its '\n'
};
// The CLI's: each line on stdout, flushed.
class StdoutObserver final : public RunObserver {
 public:
  void line(const std::string& text) override;
};

struct RunContext {
  std::vector<std::string> command;  // as the user typed it: "zapbench run --quick ..." (results.json)
  std::string version_line;          // `zapbench --version`'s line: the hosts must run the same build
};

// Runs `cells` (plan_cells(p), p.cfg.budget_s set: run_budget_s) and writes
// the run folder. Returns the exit code: 0, or 130 when interrupted — SIGINT
// or SIGTERM, caught by proc::catch_interrupts(), which the caller installs:
// in any phase the running children end at once (bench/children), and what
// was measured before is written, marked interrupted (results.json's
// "interrupted", the report's first lines). Throws std::runtime_error with
// the message for the user ("run: preflight: host a: ...") when the hosts or
// the folder fail; nothing is left running either way.
int run(RunPlan& p, std::vector<CellPlan>& cells, const RunContext& context, RunObserver& observer);

// "estimated duration: 10m00s, the budget (the first rounds ~6m, ...)".
std::string estimate_text(const RunPlan& p, const std::vector<CellPlan>& cells, double budget_s);
// --dry-run: every cell (unavailable ones with the reason), the samples and the estimate.
std::string dry_run_text(const RunPlan& p, const std::vector<CellPlan>& cells, double budget_s);

}  // namespace bench
