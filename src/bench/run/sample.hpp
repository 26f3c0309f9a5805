// bench/run/sample.hpp — one measurement in child processes: an end-to-end
// sample (a fresh server, a fresh loader, both pinned; the load average read
// first) or the microbenchmarks (`zapbench micro` pinned to the loader's
// first CPU; the Go arm's the same way). Owns the sequence start -> ready -> measure -> stop -> read;
// what to start is plan.hpp's, the processes are supervisor.hpp's. An
// interrupt (proc/interrupt.hpp) ends the running children and throws
// proc::Interrupted out of any of these: what it cut short is not recorded.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "bench/plan/plan.hpp"
#include "bench/run/run_folder.hpp"
#include "report/model.hpp"

namespace bench {

// Hang bounds, never expectations: how long a server may take to announce
// its listeners, and the slack beyond every expected duration. Generous for
// a slow or busy machine (a sanitizer build, other work on the CPUs).
inline constexpr double kStartTimeoutS = 30;
inline constexpr double kHangS = 30;

struct SampleContext {
  const RunPlan& plan;
  const RunFolder& folder;
  std::string zapbench_exe;  // absolute: children run it
};

// Round `round` (0-based) of one cell. Records the server's and loader's
// command lines in cp.cell (paths relative to the run's folder). With
// several hosts (plan.hosts), the server runs on its host under `zapbench
// child` and the load is spread over the loader hosts (loaders.hpp): the
// sample's figures are the exact merge, with a row per loader host and the
// start skew; a host that fails fails the sample, naming it. On failure
// returns a sample with one "run_failed" error and sets `failure` to why
// (naming the log to read).
report::E2ESample run_sample(const SampleContext& ctx, CellPlan& cp, unsigned round, std::string& failure);

// The server of `cp` started here as a sample starts it (its arm's launch,
// pinned, ready), `use(port)` called once it is, then stopped and reaped;
// its output in `log`. `command`: how to rerun it (paths relative to the run's
// folder). Returns why it did not become ready ("" when it did and `use` ran).
// Not over several hosts.
std::string with_server(const SampleContext& ctx, const CellPlan& cp, const std::string& log,
                        std::string& command, const std::function<void(std::uint16_t port)>& use);

// One round of the microbenchmarks: `zapbench micro` with one repetition of
// each (pinned to the loader's first CPU), its figures ingested into
// res.micro as round `round`'s; `filter` (a Google Benchmark regex) narrows
// it, "" runs the plan's. A failure is a note; the unavailable codecs are
// listed once.
void run_micro(const SampleContext& ctx, report::Results& res, unsigned round,
               const std::string& filter = "");

// The arms' own microbenchmarks, one round each (ArmHooks::micro_round: the
// Go reference's `zapbench-go micro`, pinned like the C++ ones: rows
// <op>/go/<codec> in res.micro, round `round`'s; what the Go build lacks is
// listed among the unavailable codecs with the Go side's reason).
// Independent of run_micro: either one failing leaves the other's figures.
void run_arms_micro(const SampleContext& ctx, report::Results& res, unsigned round);

// Counts the instructions per request of every Server/<framing>/<body> path
// the microbenchmarks ran (bench/run/instructions.hpp) into
// res.micro.instructions, working in the run folder and removing what it
// wrote there; a tool that is missing is recorded with the reason, a failure
// is a note.
void run_instructions(const SampleContext& ctx, report::Results& res);

}  // namespace bench
