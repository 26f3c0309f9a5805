// cli/run.cpp — `zapbench run`: the whole benchmark from one command, read as
// its table of contents. Flags become a plan (bench/plan.hpp); the
// microbenchmarks and every sample of the end-to-end matrix run in child
// processes (bench/sample.hpp), repeats interleaved across every arm; the
// results model is written as results.json, report.md and report.html
// (report). Owns the order of things and run's flag table only.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/host.hpp"
#include "bench/netns.hpp"
#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "bench/rounds.hpp"
#include "bench/run_folder.hpp"
#include "bench/sample.hpp"
#include "bench/supervisor.hpp"
#include "cli/args.hpp"
#include "cli/host_flags.hpp"
#include "cli/version.hpp"
#include "flags/flags.hpp"
#include "net/affinity.hpp"
#include "record/logs.hpp"
#include "report/model.hpp"

namespace cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kAbout =
    "The whole benchmark on this machine, from one command:\n"
    "  1. the codec microbenchmarks (zapbench micro), a process per round;\n"
    "  2. the end-to-end matrix: scenario {hello, rpc, logs of N entries} x framing\n"
    "     {HTTP/1.1, HTTP/2, gRPC, ZAP-HTTP, ZAP-RPC} x body {each JSON codec, ZAP,\n"
    "     each binary peer} (rpc, logs) x connections x depth (pipelining on\n"
    "     HTTP/1.1 and ZAP-HTTP, streams on HTTP/2 and gRPC, calls in flight on\n"
    "     ZAP-RPC), each sample a fresh server process and a fresh loader process,\n"
    "     pinned to separate CPUs, every response validated;\n"
    "  3. reference arms: the Go reference's own stack (zapbench-go: zip, fasthttp,\n"
    "     net/http, its JSON codecs; what its build lacks is listed as unavailable),\n"
    "     nginx serving /health over HTTP/1.1 and HTTP/2, a gRPC C++ server\n"
    "     (zapbench-grpc: grpc++ on the generated zapbench.Eth service), and the\n"
    "     floor: a raw TCP echo of the same byte counts driven by the same loader;\n"
    "     and a control: one cell run twice in every round, as two cells.\n"
    "Samples are taken in rounds (round r of every cell before round r+1 of any;\n"
    "odd rounds backwards), so two arms' samples pair by round and drift hits\n"
    "every arm alike. Every comparison is a verdict: the ratio (the geometric mean\n"
    "of the per-round ratios) with its 95% confidence interval, 'ahead'/'behind'\n"
    "when the interval excludes 1, 'equivalent' within +-margin, else 'undecided'.\n"
    "After --repeats first rounds of every cell, the cells and microbenchmarks the\n"
    "report's findings compare get more rounds, one at a time, until each\n"
    "finding's interval is within +-precision or the run has taken its budget: it\n"
    "stops on precision, never on a verdict. The budget is the estimate printed\n"
    "first. Writes DIR/results.json (every sample with its round, the environment;\n"
    "paths relative to DIR), DIR/report.md and DIR/report.html.\n"
    "--quick (default): connections 1,16 x depth 1,16 but not 16 x 16; 0.25 s\n"
    "samples after 0.25 s; only the cells that answer the main questions (README,\n"
    "\"What --quick measures\"): every framing on hello; on rpc the body axis on\n"
    "HTTP/1.1 (the fastest JSON codec, ZAP, the fastest binary peer), gRPC and\n"
    "ZAP-RPC each with protobuf and ZAP, ZAP-HTTP with ZAP; logs N=100 on\n"
    "HTTP/1.1+JSON and ZAP-HTTP+ZAP; the Go reference's ZAP-HTTP+ZAP and HTTP/1.1\n"
    "cells; nginx, grpc++, the floor; the Logs microbenchmarks of those bodies at\n"
    "N=1,100,10000; findings to +-3% within a 10-minute budget. Giving --framings,\n"
    "--bodies, --connections or --pipeline measures every combination of what is\n"
    "given instead.\n"
    "--full: connections 1,16,125,1000; every framing x every codec; logs\n"
    "N=1,100,10000 (a logs cell with more than 2 GiB of answers in flight is listed\n"
    "unavailable, not run); 0.5 s samples after 0.5 s; findings to +-2% within a\n"
    "3-hour budget ('zapbench run --full --dry-run' prints every cell and the\n"
    "estimate).\n"
    "Several hosts (README \"Several hosts\"): --server-host S --loader-hosts A,B runs\n"
    "every server arm on S and spreads each load over A and B (connections or rate\n"
    "shared out), all over OpenSSH with your ssh config and keys; the same zapbench\n"
    "build must be at the same path there (or --remote-zapbench). Every host is\n"
    "checked first (reachable, the same build, its CPUs); the loaders start\n"
    "together on a \"go\" after their warm-up, the start skew is reported, and their\n"
    "histograms are merged exactly. --netns N builds the hosts here instead\n"
    "(root): network namespaces joined by a bridge, each with its own sshd.";

// The (name, value) choices of a matrix axis, from its one table of names.
template <class E, std::size_t N>
std::vector<std::pair<std::string, E>> choices(const std::array<E, N>& values) {
  std::vector<std::pair<std::string, E>> out;
  for (E v : values) out.emplace_back(std::string(matrix::to_string(v)), v);
  return out;
}

bench::RunPlan parse(int argc, char** argv, bool& dry_run) {
  using flags::Problem;
  bench::RunRequest q;
  double link_delay_s = 0;
  flags::Table t("run");
  t.usage("[--quick|--full] [--out DIR] [options]");
  t.about(kAbout);
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
  t.duration("--duration", &q.duration_s, {0, 86400, true}, "recorded time per sample")
      .default_text("by mode");
  t.duration("--warmup", &q.warmup_s, {0, 86400}, "unrecorded time before each sample")
      .default_text("by mode");
  t.number_list("--connections", &q.connections, {1}, "connections, e.g. 1,16,125").default_text("by mode");
  t.number_list("--pipeline", &q.pipelines, {1, 1024}, "requests in flight per connection, e.g. 1,16")
      .default_text("1,16");
  t.choice_list("--scenarios", &q.scenarios, choices(matrix::kScenarios), "scenarios").default_text("all");
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
  t.cpu_list("--server-cpus", &q.server_cpus, "CPUs of the server process").default_text("the first half");
  t.cpu_list("--loader-cpus", &q.loader_cpus, "CPUs of the loader process").default_text("the second half");
  t.real("--noisy", &q.noisy_spread, {.min = 0, .min_exclusive = true},
         "flag cells whose (max-min)/median exceeds it (0.10 = 10%)", "FRACTION");
  t.text("--nginx", &q.nginx, "PATH", "nginx binary")
      .default_text("nginx on PATH or /usr/sbin/nginx")
      .check([](std::string_view v) -> std::optional<Problem> {
        if (access(std::string(v).c_str(), X_OK) == 0) return std::nullopt;
        return Problem{"an nginx binary", "not an executable"};
      });
  t.text("--grpc-cpp", &q.grpc_cpp, "PATH", "the grpc++ arm's binary (zapbench-grpc)")
      .default_text("zapbench-grpc beside zapbench")
      .check([](std::string_view v) -> std::optional<Problem> {
        if (access(std::string(v).c_str(), X_OK) == 0) return std::nullopt;
        return Problem{"a zapbench-grpc binary", "not an executable"};
      });
  std::string go_binary = bench::default_go_binary();
  t.text("--go", &go_binary, "PATH", "the Go reference arm's binary (zapbench-go)")
      .default_text(go_binary.empty() ? "none built" : go_binary);
  t.choice("--go-json", &q.go_json, {{"goccy", "goccy"}, {"sonic", "sonic"}, {"stdlib", "stdlib"}},
           "JSON codec of the Go arms' servers");
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
  q.hosts.link_delay_ms = link_delay_s * 1000;
  q.go = bench::probe_go(go_binary);
  try {
    return bench::plan_run(q);
  } catch (const std::invalid_argument& e) {
    t.fail(e.what());
  }
}

std::atomic<bool> g_interrupted{false};
// The namespace mode's hosts: a static, so that every way out of the run,
// die()'s exit() included, tears them down (a SIGKILL leaves them for the
// next run's sweep: bench/netns.hpp).
std::unique_ptr<bench::NetnsHosts> g_netns;

// Where the server and loaders run, made real: the namespace mode's hosts
// built, then every host checked (bench::preflight); what was found goes
// into the environment. Exits with the message on a failure.
void set_up_hosts(bench::RunPlan& p, report::Environment& env) {
  bench::RunHosts& h = p.hosts;
  if (h.netns > 0) {
    std::printf("  building %u+1 hosts as network namespaces (sshd in each)...\n", h.netns);
    std::fflush(stdout);
    try {
      g_netns =
          std::make_unique<bench::NetnsHosts>(bench::NetnsOptions{h.netns, h.link_delay_ms, h.link_rate});
    } catch (const std::exception& e) {
      die(std::string("run: --netns: ") + e.what());
    }
    h.server_host = g_netns->server_host();
    h.loader_hosts = g_netns->loader_hosts();
    h.ssh = g_netns->ssh();
    env.link = g_netns->link();
  } else {
    env.link = "ssh hosts";
  }
  std::vector<bench::HostCheck> checks = {{h.server_host, "server", p.cfg.server_cpus}};
  for (const std::string& l : h.loader_hosts) checks.push_back({l, "loader", p.cfg.loader_cpus});
  std::vector<bench::HostInfo> found;
  try {
    found = bench::preflight(h.ssh, checks, version_line());
  } catch (const std::exception& e) {
    die(std::string("run: preflight: ") + e.what());
  }
  for (const bench::HostInfo& i : found)
    env.hosts.push_back({i.role, i.host, i.version, i.hostname, i.kernel, i.cpu_model, i.cpu_count,
                         net::cpu_list_text(i.allowed_cpus)});
  // Hosts of their own get all their CPUs by default: the server host's to the
  // server, on each loader host those all of them allow to the loader.
  if (h.netns == 0) {
    if (p.cfg.server_cpus.empty()) p.cfg.server_cpus = found.front().allowed_cpus;
    if (p.cfg.loader_cpus.empty()) {
      std::vector<int> common = found[1].allowed_cpus;
      for (std::size_t k = 2; k < found.size(); ++k)
        std::erase_if(common, [&](int c) {
          return std::find(found[k].allowed_cpus.begin(), found[k].allowed_cpus.end(), c) ==
                 found[k].allowed_cpus.end();
        });
      if (common.empty()) die("run: preflight: the loader hosts have no CPU in common: give --loader-cpus");
      p.cfg.loader_cpus = common;
    }
  }
  for (const bench::HostInfo& i : found)
    std::printf("  %s host %s: %s, %u CPUs, %s\n", i.role.c_str(), i.host.c_str(), i.cpu_model.c_str(),
                i.cpu_count, i.hostname.c_str());
}
void on_interrupt(int) { g_interrupted = true; }

std::string self_exe() {
  try {
    return proc::own_executable();
  } catch (const std::exception& e) {
    die(std::string("run: ") + e.what());
  }
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) die("run: cannot write " + path.string());
}

void raise_fd_limit() {
  // 1000 connections need more than the usual soft limit of 1024 descriptors,
  // in the loader and the server alike; children inherit this.
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

// The run's budget, or the user's mistake in giving it (exits 2).
double budget_or_die(const bench::RunPlan& p, const std::vector<bench::CellPlan>& cells) {
  try {
    return bench::run_budget_s(p, cells);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "zapbench: run: %s\n", e.what());
    std::exit(2);
  }
}

// What the run will take: its budget, and how the first rounds fit in it.
void print_estimate(const bench::RunPlan& p, const std::vector<bench::CellPlan>& cells, double budget_s) {
  const double first_s = bench::estimated_run_s(p, cells);
  if (budget_s <= 0 || budget_s <= first_s)
    std::printf("estimated duration: %s (the first rounds; no more rounds fit the budget)\n",
                bench::duration_text(first_s).c_str());
  else
    std::printf(
        "estimated duration: %s, the budget (the first rounds ~%s, then rounds of the findings' cells "
        "until each is within +-%g%% or the budget is spent)\n",
        bench::duration_text(budget_s).c_str(), bench::duration_text(first_s).c_str(), p.cfg.precision * 100);
}

}  // namespace

// --dry-run: the plan as it would run, and nothing measured or written.
int print_plan(const bench::RunPlan& p) {
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p);
  const double budget_s = budget_or_die(p, cells);
  std::size_t runnable = 0;
  std::printf("zapbench run (%s), dry run: nothing is measured or written\n", p.cfg.mode.c_str());
  for (const bench::CellPlan& cp : cells) {
    runnable += cp.cell.unavailable.empty();
    std::printf("  %s%s%s\n", bench::cell_label(cp.cell).c_str(),
                cp.cell.unavailable.empty() ? "" : ": unavailable: ", cp.cell.unavailable.c_str());
  }
  std::printf(
      "%zu cells (%zu unavailable) x %u first rounds = %zu samples of %.2f s + %.2f s warm-up; %s\n",
      cells.size(), cells.size() - runnable, p.cfg.repeats, runnable * p.cfg.repeats, p.cfg.duration_s,
      p.cfg.warmup_s,
      p.micro ? ("the microbenchmarks first, " + std::to_string(p.cfg.micro_repetitions) + " rounds").c_str()
              : "no microbenchmarks");
  print_estimate(p, cells, budget_s);
  return 0;
}

int cmd_run(int argc, char** argv) {
  bool dry_run = false;
  bench::RunPlan p = parse(argc, argv, dry_run);
  if (dry_run) return print_plan(p);
  const auto t_start = Clock::now();
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  std::vector<bench::CellPlan> cells = bench::plan_cells(p);
  p.cfg.budget_s = budget_or_die(p, cells);
  std::printf("zapbench run (%s): results in %s\n", p.cfg.mode.c_str(), p.out_dir.c_str());
  std::fflush(stdout);
  // The hosts first: a host that fails its preflight stops the run before
  // anything is written.
  report::Environment hosts;
  hosts.link = "loopback";
  if (p.hosts.several()) set_up_hosts(p, hosts);
  const bench::RunFolder folder(p.out_dir);
  const bench::SampleContext ctx{p, folder, self_exe(), &g_interrupted};
  raise_fd_limit();
  std::error_code ec;
  fs::create_directories(folder.file("samples"), ec);
  if (ec) die("run: cannot create " + p.out_dir + ": " + ec.message());

  // 1. What and where: the environment, the configuration, the codecs.
  report::Results res;
  std::vector<std::string> command = {"zapbench", "run"};  // the user's name for it, not /proc/self/exe
  command.insert(command.end(), argv, argv + argc);
  res.env = bench::environment(command, folder);
  res.env.link = hosts.link;
  res.env.hosts = hosts.hosts;
  res.config = p.cfg;
  res.codecs = bench::codecs();
  if (p.go.runs()) {
    res.env.libraries["go (the Go arms)"] = p.go.go_version;
    for (const auto& [module, version] : p.go.modules) res.env.libraries[module] = version + " (Go module)";
    // The ZAP-RPC server's own build: the same module at another version, named as such.
    for (const auto& [module, version] : p.go.rpc_modules)
      if (!module.starts_with("zapbench/") &&
          (p.go.modules.count(module) == 0 || p.go.modules.at(module) != version))
        res.env.libraries[module + " (zapbench-go-rpc, the Go ZAP-RPC cells)"] = version + " (Go module)";
  } else {
    res.env.libraries["go (the Go arms)"] = "unavailable: " + p.go.unavailable;
  }
  if (p.cfg.server_cpus == p.cfg.loader_cpus && (p.hosts.netns > 0 || !p.hosts.several()))
    res.notes.push_back("server and loader share CPUs " + net::cpu_list_text(p.cfg.server_cpus) +
                        ": this machine has one CPU for both, so their work is not separated");
  std::printf("  ");
  print_estimate(p, cells, p.cfg.budget_s);
  std::printf("  server CPUs %s, loader CPUs %s, %u first rounds, %.2f s + %.2f s warm-up per sample\n",
              net::cpu_list_text(p.cfg.server_cpus).c_str(), net::cpu_list_text(p.cfg.loader_cpus).c_str(),
              p.cfg.repeats, p.cfg.duration_s, p.cfg.warmup_s);
  std::fflush(stdout);
  bench::Rounds rounds(ctx, cells, res, bench::real_hooks(ctx, t_start));

  // 2. The microbenchmarks, a process per round.
  if (p.micro && !g_interrupted) {
    std::printf("[micro] codec microbenchmarks, %u rounds of %g s each (logs: %s/micro-r*.log)...\n",
                p.cfg.micro_repetitions, p.cfg.micro_min_time_s, p.out_dir.c_str());
    std::fflush(stdout);
    rounds.micro();
    for (const std::string& n : res.notes) std::printf("[micro] %s\n", n.c_str());
    std::printf("[micro] %zu figures in %s\n", res.micro.figures.size(),
                bench::duration_text(rounds.elapsed_s()).c_str());
    if (!g_interrupted) {
      std::printf("[micro] instructions per request of the request paths (callgrind)...\n");
      std::fflush(stdout);
      bench::run_instructions(ctx, res);
      const report::Instructions& ins = res.micro.instructions;
      if (!ins.callgrind_unavailable.empty())
        std::printf("[micro] callgrind unavailable: %s\n", ins.callgrind_unavailable.c_str());
      if (!ins.figures.empty()) std::printf("[micro] %zu request paths counted\n", ins.figures.size());
    }
  }

  // 3. The end-to-end matrix: the first rounds of every cell, then rounds of
  // what the findings compare until each is precise or the budget is spent.
  for (const bench::CellPlan& cp : cells)
    if (!cp.cell.unavailable.empty())
      std::printf("[e2e] %s: unavailable: %s\n", bench::cell_label(cp.cell).c_str(),
                  cp.cell.unavailable.c_str());
  rounds.first();
  if (!g_interrupted) {
    std::printf("[e2e] more rounds of the findings' cells until each is within +-%g%% (budget %s, %s left)\n",
                p.cfg.precision * 100, bench::duration_text(p.cfg.budget_s).c_str(),
                bench::duration_text(std::max(0.0, p.cfg.budget_s - rounds.elapsed_s())).c_str());
    std::fflush(stdout);
  }
  const bench::ExtraRounds extra = rounds.until_precise();
  std::printf("[e2e] %u more rounds (%zu samples, %u with microbenchmarks)%s\n", extra.rounds, extra.samples,
              extra.micro_rounds,
              extra.budget_spent        ? "; the budget is spent"
              : extra.interrupted       ? "; interrupted"
              : extra.imprecise.empty() ? "; every finding within its precision"
                                        : "");
  if (!extra.imprecise.empty()) {
    char precision[32];
    std::snprintf(precision, sizeof precision, "%g%%", p.cfg.precision * 100);
    std::string what = std::to_string(extra.imprecise.size()) + " findings not within ±" + precision +
                       " when the run ended" + (extra.budget_spent ? " (the budget was spent)" : "") + ": ";
    for (std::size_t i = 0; i < extra.imprecise.size(); ++i) what += (i ? "; " : "") + extra.imprecise[i];
    res.notes.push_back(what);
  }
  if (g_interrupted) res.notes.push_back("interrupted: the run was stopped before every sample was taken");
  rounds.publish();
  res.env.wall_s = rounds.elapsed_s();

  // 4. The results and the reports.
  write_text(folder.file("results.json"), report::to_json(res));
  write_text(folder.file("report.md"), report::markdown(res));
  write_text(folder.file("report.html"), report::html(res));
  std::printf("zapbench run: done in %s\n  %s/results.json\n  %s/report.md\n  %s/report.html\n",
              bench::duration_text(res.env.wall_s).c_str(), p.out_dir.c_str(), p.out_dir.c_str(),
              p.out_dir.c_str());
  if (g_netns) g_netns->teardown();
  return g_interrupted ? 130 : 0;
}

}  // namespace cli
