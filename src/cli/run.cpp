// cli/run.cpp — `zapbench run`: flags -> plan (bench/plan/plan.hpp) -> run
// (bench/run/run.hpp) -> exit code. Owns run's flag table only.
#include "bench/run/run.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/plan/arm.hpp"
#include "bench/plan/plan.hpp"
#include "bench/run/c100k.hpp"
#include "bench/run/estimate.hpp"
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "cli/host_flags.hpp"
#include "cli/identity.hpp"
#include "cli/matrix_choices.hpp"
#include "cli/run_about.hpp"
#include "flags/flags.hpp"
#include "proc/interrupt.hpp"
#include "record/logs.hpp"

namespace cli {
namespace {

bench::RunPlan parse(int argc, char** argv, bool& dry_run) {
  bench::RunRequest q;
  double link_delay_s = 0;
  flags::Table t("run");
  t.summary(std::string(summary("run")));
  t.usage("[--quick|--full] [--out DIR] [options]");
  t.about(kRunAbout);
  t.set("--quick", &q.full, false, "the quick matrix (default)");
  t.set("--full", &q.full, true, "the full matrix");
  t.set("--dry-run", &dry_run, true,
        "print the cells, the samples and the estimated duration; measure nothing");
  t.text("--out", &q.out_dir, "DIR", "results directory").default_text("results/<UTC date-time>");
  t.number("--repeats", &q.repeats, {1, 100}, "first rounds: the samples every cell gets");
  t.real("--precision", &q.precision, {.min = 0, .max = 1, .min_exclusive = true},
         "more rounds for a finding until its interval is within +-this (0.03 = 3%)", "FRACTION")
      .default_text("quick 0.03, full 0.02");
  t.duration("--budget", &q.budget_s, {0, 7 * 86400}, "the whole run's time; 0: the first rounds only")
      .default_text("quick 10m, full 3h");
  t.real("--margin", &q.margin, {.min = 0, .max = 0.5, .min_exclusive = true},
         "'equivalent' is an interval within 1 +- this (0.03 = 3%)", "FRACTION");
  t.set("--no-control", &q.control, false, "no control copy of a cell");
  t.set("--no-conformance", &q.conformance, false, "no h2spec against the HTTP/2 arms after the rounds");
  t.duration("--duration", &q.duration_s, {0, 86400, true}, "recorded time per sample")
      .default_text("by mode");
  t.duration("--warmup", &q.warmup_s, {0, 86400}, "unrecorded time before each sample")
      .default_text("by mode");
  t.rate("-R, --rate", &q.rate_per_s, {.min = 0},
         "open loop: every cell's load at this total rate (requests/s), latency from each request's "
         "intended send time (coordinated omission corrected, as wrk2); 0: closed loop")
      .default_text("closed loop");
  t.number_list("--connections", &q.connections, {1}, "connections, e.g. 1,16,125").default_text("by mode");
  t.number_list("--pipeline", &q.pipelines, {1, 1024}, "requests in flight per connection, e.g. 1,16")
      .default_text("1,16");
  // The matrix's scenarios, and c100k (bench/run/c100k.hpp: no cells of its own, -1 here).
  std::vector<int> scenarios;
  std::vector<std::pair<std::string, int>> scenario_choices;
  for (const auto& [name, s] : choices(matrix::kScenarios)) scenario_choices.emplace_back(name, int(s));
  scenario_choices.emplace_back(std::string(bench::kC100kScenario), -1);
  t.choice_list("--scenarios", &scenarios, scenario_choices,
                "scenarios; c100k (100,000 held connections, after the others, on each --io) only when named")
      .default_text("all but c100k");
  t.number("--c100k-connections", &q.c100k_connections, {1, 1'000'000}, "c100k: the connections held", "N");
  t.duration("--c100k-hold", &q.c100k_hold_s, {0, 86400, true},
             "c100k: the answered sample's window while they are held");
  t.number_list("--logs", &q.logs, {1, record::kMaxLogs}, "the logs scenario's N values, e.g. 1,100,10000")
      .default_text("quick 100, full 1,100,10000");
  std::vector<std::pair<std::string, matrix::Framing>> framings = choices(matrix::kFramings);
  std::erase_if(framings, [](const auto& f) { return f.second == matrix::Framing::raw_tcp; });  // the floor's
  t.choice_list("--framings", &q.framings, framings, "framings").default_text("all");
  std::vector<std::pair<std::string, std::string>> bodies;
  for (const std::string& b : bench::body_names()) bodies.emplace_back(b, b);
  t.choice_list("--bodies", &q.bodies, bodies, "rpc and logs body codecs").default_text("by mode");
  t.choice_list("--arms", &q.arms, choices(matrix::kArms), "servers to measure")
      .default_text("all; quick: all but go-nethttp");
  t.choice_list("--io", &q.ios, choices(matrix::kIos),
                "the I/O interface of zapbench's server and the floor (the other arms' are epoll); io_uring "
                "cells are listed unavailable, with the kernel's reason, where it refuses io_uring")
      .default_text("epoll,io_uring; quick: io_uring for the headline ZAP rpc cells and the floor's");
  t.cpu_list("--server-cpus", &q.server_cpus, "CPUs of the server process").default_text("the first half");
  t.cpu_list("--loader-cpus", &q.loader_cpus, "CPUs of the loader process").default_text("the second half");
  t.real("--noisy", &q.noisy_spread, {.min = 0, .min_exclusive = true},
         "flag cells whose (max-min)/median exceeds it (0.10 = 10%)", "FRACTION");
  // Each arm's own flags (bench/plan/arm.hpp: ArmHooks::flags), its value handed to the arm as given.
  t.section("arms:");
  std::map<std::string, std::string> arm_flags;
  std::vector<const bench::ArmHooks*> listed;  // rows that share hooks (the Go arms) list theirs once
  for (const matrix::Arm a : matrix::kArms) {
    const bench::ArmHooks& hooks = bench::arm_hooks(a);
    if (std::find(listed.begin(), listed.end(), &hooks) != listed.end()) continue;
    listed.push_back(&hooks);
    for (const bench::ArmFlag& f : hooks.flags) {
      flags::Flag& flag = t.text(std::string(f.flag), &arm_flags[std::string(f.flag)], std::string(f.meta),
                                 std::string(f.help))
                              .default_text(std::string(f.default_text));
      if (f.choices.empty()) {
        flag.check(flags::executable(std::string(f.help)));
        continue;
      }
      std::string wants = "one of " + std::string(f.choices);
      for (std::size_t at = 0; (at = wants.find(',', at)) != std::string::npos; at += 2)
        wants.replace(at, 1, ", ");
      flag.check(
          [choices = std::string(f.choices), wants](std::string_view v) -> std::optional<flags::Problem> {
            for (std::size_t at = 0; at <= choices.size();) {
              const std::size_t end = std::min(choices.find(',', at), choices.size());
              if (choices.compare(at, end - at, v) == 0) return std::nullopt;
              at = end + 1;
            }
            return flags::Problem{wants, ""};
          });
    }
  }
  t.section("several hosts:");
  t.text("--server-host", &q.hosts.server_host, "HOST", "run the server arms on HOST (an ssh destination)")
      .no_default();
  host_list_flag(t, "--loader-hosts", &q.hosts.loader_hosts,
                 "spread each load over these hosts (one loader each)")
      .no_default();
  t.text("--server-addr", &q.hosts.server_addr, "HOST", "the address loaders dial the server at")
      .default_text("--server-host's host part");
  ssh_flags(t, &q.hosts.ssh);
  t.number("--netns", &q.hosts.netns, {1, 16},
           "build 1 server + N loader hosts here as network namespaces with sshd (root)", "N")
      .no_default();
  t.duration("--link-delay", &link_delay_s, {0, 10}, "--netns: one-way delay on each host's link (tc netem)")
      .no_default();
  t.text("--link-rate", &q.hosts.link_rate, "RATE",
         "--netns: each host's link rate, tc's spelling (1gbit, 100mbit)")
      .no_default();
  t.section("microbenchmarks:");
  t.set("--no-micro", &q.micro, false, "skip the microbenchmarks");
  t.text("--micro-filter", &q.micro_filter, "REGEX", "run only these microbenchmarks").no_default();
  t.number("--micro-repetitions", &q.micro_repetitions, {1, 100},
           "rounds of the microbenchmarks (a process each)");
  t.duration("--micro-min-time", &q.micro_min_time_s, {0, 86400, true}, "per benchmark and round")
      .default_text("quick 50ms, full 200ms");
  t.parse(argc, argv);
  for (const int s : scenarios)
    if (s < 0)
      q.c100k = true;
    else
      q.scenarios.push_back(static_cast<matrix::Scenario>(s));
  q.c100k_only = q.c100k && q.scenarios.empty();
  q.hosts.link_delay_ms = link_delay_s * 1000;
  for (auto& [flag, value] : arm_flags)
    if (!value.empty()) q.arm_flags[flag] = value;
  try {
    return bench::plan_run(q);
  } catch (const std::invalid_argument& e) {
    t.fail(e.what());
  }
}

}  // namespace

int cmd_run(int argc, char** argv) {
  bool dry_run = false;
  bench::RunPlan p = parse(argc, argv, dry_run);
  std::vector<bench::CellPlan> cells = bench::plan_cells(p);
  try {
    p.cfg.budget_s = bench::run_budget_s(p, cells);
  } catch (const std::invalid_argument& e) {
    die(std::string("run: ") + e.what());  // the user's budget is too small for the first rounds
  }
  if (dry_run) {
    std::printf("%s\n", bench::dry_run_text(p, cells, p.cfg.budget_s).c_str());
    return 0;
  }
  // Ctrl-C or SIGTERM in any phase: its children end at once, what was
  // measured is written, marked interrupted, and the exit code is 130.
  proc::catch_interrupts();
  bench::RunContext context{{"zapbench", "run"}, version_line()};  // the user's name for it
  context.command.insert(context.command.end(), argv, argv + argc);
  bench::StdoutObserver out;
  try {
    return bench::run(p, cells, context, out);
  } catch (const std::exception& e) {
    die(e.what());
  }
}

}  // namespace cli
