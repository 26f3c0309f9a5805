// bench/run/run.cpp — `zapbench run` as a library (run.hpp): the hosts made real,
// the run folder, the environment, the microbenchmarks, the first rounds and
// the rounds until precise, then results.json and the reports.
#include "bench/run/run.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "bench/hosts/netns.hpp"
#include "bench/hosts/ssh.hpp"
#include "bench/run/c100k.hpp"
#include "bench/run/calibration.hpp"
#include "bench/run/conformance.hpp"
#include "bench/run/estimate.hpp"
#include "bench/run/host.hpp"
#include "bench/run/instructions.hpp"
#include "bench/run/rounds.hpp"
#include "bench/run/run_folder.hpp"
#include "bench/run/sample.hpp"
#include "net/affinity.hpp"
#include "proc/interrupt.hpp"
#include "proc/programs.hpp"
#include "report/model.hpp"

namespace bench {
namespace {

namespace fs = std::filesystem;

// printf's formatting into a string, for the observer's lines.
// Sized to the text, as printf was: a run folder's path may be long.
[[gnu::format(printf, 1, 2)]] std::string text(const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  std::string out(n > 0 ? std::size_t(n) : 0, '\0');
  if (n > 0) std::vsnprintf(out.data(), out.size() + 1, format, again);
  va_end(again);
  return out;
}

// Where the server and loaders run, made real: the namespace mode's hosts
// built, then every host checked (preflight); what was found goes
// into the environment. Throws std::runtime_error with the message on a failure.
void set_up_hosts(RunPlan& p, report::Environment& env, std::unique_ptr<NetnsHosts>& netns,
                  const std::string& version_line, RunObserver& say) {
  RunHosts& h = p.hosts;
  if (h.netns > 0) {
    say.line("  building " + std::to_string(h.netns) + "+1 hosts as network namespaces (sshd in each)...");
    try {
      netns = std::make_unique<NetnsHosts>(NetnsOptions{h.netns, h.link_delay_ms, h.link_rate});
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("run: --netns: ") + e.what());
    }
    h.server_host = netns->server_host();
    h.loader_hosts = netns->loader_hosts();
    h.ssh = netns->ssh();
    env.link = netns->link();
  } else {
    env.link = "ssh hosts";
  }
  std::vector<HostCheck> checks = {{h.server_host, "server", p.cfg.server_cpus}};
  for (const std::string& l : h.loader_hosts) checks.push_back({l, "loader", p.cfg.loader_cpus});
  std::vector<HostInfo> found;
  try {
    found = preflight(h.ssh, checks, version_line);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("run: preflight: ") + e.what());
  }
  for (const HostInfo& i : found)
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
      if (common.empty())
        throw std::runtime_error(
            "run: preflight: the loader hosts have no CPU in common: give --loader-cpus");
      p.cfg.loader_cpus = common;
    }
  }
  for (const HostInfo& i : found)
    say.line("  " + i.role + " host " + i.host + ": " + i.cpu_model + ", " + std::to_string(i.cpu_count) +
             " CPUs, " + i.hostname);
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!f) throw std::runtime_error("run: cannot write " + path.string());
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

}  // namespace

void StdoutObserver::line(const std::string& text) {
  std::printf("%s\n", text.c_str());
  std::fflush(stdout);
}

std::string estimate_text(const RunPlan& p, const std::vector<CellPlan>& cells, double budget_s) {
  const double first_s = estimated_run_s(p, cells);
  // The c100k scenario runs after the budget, once per I/O interface: its hold, plus connecting and
  // closing at 100 µs a connection (19,000 took 0.6-5.4 s to accept here, with SYN retries), plus the
  // server's and the sample's start and stop.
  std::string c100k;
  if (p.c100k) {
    const double per_io_s = p.c100k_hold_s + 2 * 100e-6 * static_cast<double>(p.c100k_connections) + 5;
    c100k = text(
        "; then the c100k scenario, ~%s per I/O interface (%llu connections: connecting, %s held, "
        "closing)",
        duration_text(per_io_s).c_str(), static_cast<unsigned long long>(p.c100k_connections),
        duration_text(p.c100k_hold_s).c_str());
  }
  if (budget_s <= 0 || budget_s <= first_s)
    return "estimated duration: " + duration_text(first_s) +
           " (the first rounds; no more rounds fit the budget" + c100k + ")";
  return text(
      "estimated duration: %s, the budget (the first rounds ~%s, then rounds of the findings' cells until "
      "each is "
      "within +-%g%% or the budget is spent%s)",
      duration_text(budget_s).c_str(), duration_text(first_s).c_str(), p.cfg.precision * 100, c100k.c_str());
}

std::string dry_run_text(const RunPlan& p, const std::vector<CellPlan>& cells, double budget_s) {
  std::size_t runnable = 0;
  std::string s = "zapbench run (" + p.cfg.mode + "), dry run: nothing is measured or written\n";
  for (const CellPlan& cp : cells) {
    runnable += cp.cell.unavailable.empty();
    s += "  " + cell_label(cp.cell) + (cp.cell.unavailable.empty() ? "" : ": unavailable: ") +
         cp.cell.unavailable + "\n";
  }
  s += text(
      "%zu cells (%zu unavailable) x %u first rounds = %zu samples of %.2f s + %.2f s warm-up; %s\n",
      cells.size(), cells.size() - runnable, p.cfg.repeats, runnable * p.cfg.repeats, p.cfg.duration_s,
      p.cfg.warmup_s,
      p.micro ? ("the microbenchmarks first, " + std::to_string(p.cfg.micro_repetitions) + " rounds").c_str()
              : "no microbenchmarks");
  return s + estimate_text(p, cells, budget_s);
}

namespace {

// Steps 2 and 3 (what run() measures, after the hosts): the microbenchmarks
// and the instruction counts, then the end-to-end rounds. `phase` names the
// step running, for the note of an interrupt (proc::Interrupted, thrown out
// of whichever child's wait it came in).
void measure(const RunPlan& p, const SampleContext& ctx, std::vector<CellPlan>& cells, report::Results& res,
             Rounds& rounds, std::string& phase, RunObserver& say) {
  // 2. The microbenchmarks, a process per round.
  if (p.micro) {
    phase = "the microbenchmarks";
    say.line(text("[micro] codec microbenchmarks, %u rounds of %g s each (logs: %s/micro-r*.log)...",
                  p.cfg.micro_repetitions, p.cfg.micro_min_time_s, p.out_dir.c_str()));
    rounds.micro();
    for (const std::string& n : res.notes) say.line("[micro] " + n);
    say.line(text("[micro] %zu figures in %s", res.micro.figures.size(),
                  duration_text(rounds.elapsed_s()).c_str()));
    phase = "the instruction counts";
    say.line("[micro] instructions per request of the request paths, per op of the codecs (callgrind)...");
    run_instructions(ctx, res);
    const report::Instructions& ins = res.micro.instructions;
    if (!ins.callgrind_unavailable.empty())
      say.line("[micro] callgrind unavailable: " + ins.callgrind_unavailable);
    if (!ins.figures.empty())
      say.line(text("[micro] %zu request paths and codec ops counted", ins.figures.size()));
  }

  // 3. The end-to-end matrix: the first rounds of every cell, then rounds of
  // what the findings compare until each is precise or the budget is spent.
  phase = "the end-to-end samples";
  for (const CellPlan& cp : cells)
    if (!cp.cell.unavailable.empty())
      say.line("[e2e] " + cell_label(cp.cell) + ": unavailable: " + cp.cell.unavailable);
  rounds.first();
  say.line(text("[e2e] more rounds of the findings' cells until each is within +-%g%% (budget %s, %s left)",
                p.cfg.precision * 100, duration_text(p.cfg.budget_s).c_str(),
                duration_text(std::max(0.0, p.cfg.budget_s - rounds.elapsed_s())).c_str()));
  const ExtraRounds extra = rounds.until_precise();
  say.line(text("[e2e] %u more rounds (%zu samples, %u with microbenchmarks)%s", extra.rounds, extra.samples,
                extra.micro_rounds,
                extra.budget_spent        ? "; the budget is spent"
                : extra.imprecise.empty() ? "; every finding within its precision"
                                          : ""));
  if (!extra.imprecise.empty()) {
    char precision[32];
    std::snprintf(precision, sizeof precision, "%g%%", p.cfg.precision * 100);
    std::string what = std::to_string(extra.imprecise.size()) + " findings not within ±" + precision +
                       " when the run ended" + (extra.budget_spent ? " (the budget was spent)" : "") + ": ";
    for (std::size_t i = 0; i < extra.imprecise.size(); ++i) what += (i ? "; " : "") + extra.imprecise[i];
    res.notes.push_back(what);
  }
  // h2spec against every HTTP/2 arm, after the samples so it moves none of them.
  phase = "the HTTP/2 conformance suite";
  if (p.conformance) run_conformance(ctx, cells, res);
  for (const report::Conformance& c : res.conformance)
    say.line("[h2spec] " + c.arm + ": " +
             (c.unavailable.empty()
                  ? std::to_string(c.passed) + " of " + std::to_string(c.cases) + " passed, " +
                        std::to_string(c.skipped) + " skipped, " + std::to_string(c.failed) + " failed"
                  : "not run: " + c.unavailable));
}

// After the rounds, the c100k scenario (c100k.hpp), when asked: once per I/O interface, the
// server on the first server CPU, the connecting side and the sample on the
// loader CPUs. Each row is printed and kept, a refusal as much as a success.
void measure_c100k(const RunPlan& p, const SampleContext& ctx, report::Results& res, std::string& phase,
                   RunObserver& say) {
  phase = "the c100k scenario";
  for (const Io io : p.ios) {
    C100kOptions o;
    o.io = io;
    o.connections = p.c100k_connections;
    o.hold_s = p.c100k_hold_s;
    if (!p.cfg.server_cpus.empty()) o.server_cpus = {p.cfg.server_cpus.front()};
    o.loader_cpus = p.cfg.loader_cpus;
    o.zapbench = ctx.zapbench_exe;
    o.dir = ctx.folder.file("c100k").string();
    if (io == Io::io_uring && !p.io_uring_unavailable.empty()) {
      report::C100k c;
      c.io = std::string(matrix::to_string(io));
      c.asked = o.connections;
      c.error = "io_uring unavailable: " + p.io_uring_unavailable;
      say.line("[c100k] " + c100k_summary(c));
      res.c100k.push_back(std::move(c));
      continue;
    }
    say.line(text("[c100k] %s: %llu connections held, a sample answered for %s...",
                  std::string(matrix::to_string(io)).c_str(), (unsigned long long)o.connections,
                  duration_text(o.hold_s).c_str()));
    report::C100k c = run_c100k(o);
    say.line("[c100k] " + c100k_summary(c));
    say.line("[c100k]   " + c.limits_changed);
    res.c100k.push_back(std::move(c));
  }
}

}  // namespace

int run(RunPlan& p, std::vector<CellPlan>& cells, const RunContext& run_ctx, RunObserver& say) {
  const std::string& version_line = run_ctx.version_line;
  const std::vector<std::string>& command = run_ctx.command;
  const auto t_start = std::chrono::steady_clock::now();
  say.line("zapbench run (" + p.cfg.mode + "): results in " + p.out_dir);
  // The hosts first: a host that fails its preflight stops the run before
  // anything is written. An interrupt there still writes the (empty) results,
  // marked interrupted.
  std::string phase = "the hosts' set-up";
  bool interrupted = false;
  report::Environment hosts;
  hosts.link = "loopback";
  std::unique_ptr<NetnsHosts> netns;  // the namespace mode's hosts, torn down however the run ends
  try {
    if (p.hosts.several()) set_up_hosts(p, hosts, netns, version_line, say);
  } catch (const proc::Interrupted&) {
    interrupted = true;
  }
  const RunFolder folder(p.out_dir);
  const SampleContext ctx{p, folder, proc::own_executable()};
  raise_fd_limit();
  std::error_code ec;
  fs::create_directories(folder.file("samples"), ec);
  if (ec) throw std::runtime_error("run: cannot create " + p.out_dir + ": " + ec.message());

  // 1. What and where: the environment, the configuration, the codecs.
  report::Results res;
  res.env = environment(command, folder);
  res.env.link = hosts.link;
  res.env.hosts = hosts.hosts;
  res.config = p.cfg;
  res.codecs = codecs();
  start_calibration(p, res);
  for (const FoundArm& found :
       p.found)  // each arm's versions (the Go modules as built), or why it cannot run
    for (const auto& [name, version] : found.libraries) res.env.libraries[name] = version;
  if (p.cfg.server_cpus == p.cfg.loader_cpus && (p.hosts.netns > 0 || !p.hosts.several()))
    res.notes.push_back("server and loader share CPUs " + net::cpu_list_text(p.cfg.server_cpus) +
                        ": this machine has one CPU for both, so their work is not separated");
  say.line("  " + estimate_text(p, cells, p.cfg.budget_s));
  say.line(text("  server CPUs %s, loader CPUs %s, %u first rounds, %.2f s + %.2f s warm-up per sample",
                net::cpu_list_text(p.cfg.server_cpus).c_str(), net::cpu_list_text(p.cfg.loader_cpus).c_str(),
                p.cfg.repeats, p.cfg.duration_s, p.cfg.warmup_s));
  Rounds rounds(ctx, cells, res, real_hooks(ctx, t_start));
  try {
    if (!interrupted) measure(p, ctx, cells, res, rounds, phase, say);
    if (!interrupted && p.c100k) measure_c100k(p, ctx, res, phase, say);
  } catch (const proc::Interrupted&) {
    interrupted = true;
  }
  // An interrupt after the last child ended cut nothing short: the results
  // are whole, not marked; the exit code still says the signal came.
  if (interrupted) {
    if (isatty(STDOUT_FILENO)) say.line("");  // ends the progress bar's line
    res.interrupted = std::string(proc::signal_name(proc::interrupt_signal())) + " during " + phase;
    say.line("zapbench run: interrupted (" + res.interrupted +
             "): every child ended; writing what was measured");
  }
  rounds.publish();
  res.env.wall_s = rounds.elapsed_s();

  // 4. The results and the reports.
  write_text(folder.file("results.json"), report::to_json(res));
  // The reports, then what they found as the terminal's last word, and where to read the rest.
  report::write_reports(res, folder.dir().string());
  if (const std::string found = report::findings_text(res); !found.empty()) say.line("\n" + found);
  say.line(text("zapbench run: %s in %s\n  %s/results.json\n  %s/report.md\n  %s/report.html",
                res.interrupted.empty() ? "done" : "interrupted", duration_text(res.env.wall_s).c_str(),
                p.out_dir.c_str(), p.out_dir.c_str(), p.out_dir.c_str()));
  if (proc::interrupted()) return 130;
  // The c100k scenario short of its target (a limit, an error, an error of the
  // sample, something left open): said above and in the report, and exit 3.
  for (const report::C100k& c : res.c100k)
    if (!c100k_ok(c)) return 3;
  return 0;
}

}  // namespace bench
