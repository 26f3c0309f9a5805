// cli/run.cpp — `zapbench run`: the whole benchmark from one command, read as
// its table of contents. Flags become a plan (bench/plan.hpp); the
// microbenchmarks and every sample of the end-to-end matrix run in child
// processes (bench/sample.hpp), repeats interleaved across every arm; the
// results model is written as results.json, report.md and report.html
// (report). Owns the order of things only.
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/host.hpp"
#include "bench/plan.hpp"
#include "bench/progress.hpp"
#include "bench/run_folder.hpp"
#include "bench/sample.hpp"
#include "cli/args.hpp"
#include "report/model.hpp"

namespace cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: zapbench run [--quick|--full] [--out DIR] [options]\n"
    "\n"
    "The whole benchmark on this machine, from one command:\n"
    "  1. the codec microbenchmarks (zapbench micro) with repetitions;\n"
    "  2. the end-to-end matrix: scenario {hello, rpc} x framing {HTTP/1.1, ZAP-HTTP}\n"
    "     x body {each JSON codec, ZAP} (rpc) x connections x pipelining, each\n"
    "     sample a fresh server process and a fresh loader process, pinned to\n"
    "     separate CPUs, every response validated;\n"
    "  3. reference arms: nginx serving /health (when installed), and the floor:\n"
    "     a raw TCP echo of the same byte counts driven by the same loader.\n"
    "Repeats are interleaved across arms (round r runs every cell once), so drift\n"
    "hits every arm alike; medians and min-max are reported and a cell whose\n"
    "spread exceeds --noisy is flagged. The load average is read before every\n"
    "sample, and samples taken while the machine was busy are flagged. Writes\n"
    "DIR/results.json (every sample and the environment; paths relative to DIR),\n"
    "DIR/report.md and DIR/report.html.\n"
    "\n"
    "  --quick               (default) connections 1,16,125; pipelining 1,16; rpc bodies\n"
    "                        the fastest JSON codec and ZAP; 1.5 s samples; ~7 minutes on 2 cores\n"
    "  --full                connections 1,16,125,1000; pipelining 1,16; every JSON codec;\n"
    "                        5 s samples; ~45 minutes on 2 cores\n"
    "  --out DIR             results directory (default results/<UTC date-time>)\n"
    "  --repeats N           samples per cell (default 3)\n"
    "  --duration SECONDS    recorded time per sample\n"
    "  --warmup SECONDS      unrecorded time before each sample\n"
    "  --connections LIST    e.g. 1,16,125\n"
    "  --pipeline LIST       e.g. 1,16\n"
    "  --scenarios LIST      hello,rpc\n"
    "  --framings LIST       http,zap\n"
    "  --bodies LIST         rpc body codecs, e.g. direct,simdjson,zap (default by mode)\n"
    "  --arms LIST           zapbench,nginx,floor (default all)\n"
    "  --server-cpus LIST    CPUs of the server process (default: the first half)\n"
    "  --loader-cpus LIST    CPUs of the loader process (default: the second half)\n"
    "  --noisy FRACTION      flag cells whose (max-min)/median exceeds it (default 0.10)\n"
    "  --nginx PATH          nginx binary (default: nginx on PATH or /usr/sbin/nginx)\n"
    "  --no-micro            skip the microbenchmarks\n"
    "  --micro-filter REGEX  run only these microbenchmarks\n"
    "  --micro-repetitions N (default 3)\n"
    "  --micro-min-time S    per benchmark repetition (quick 0.2, full 0.5)\n";

double seconds(const std::string& flag, const std::string& v, bool zero_ok = false) {
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(zero_ok ? s >= 0 : s > 0) || s > 86400)
    die(flag + " wants seconds " + (zero_ok ? ">= 0" : "> 0") + ", got '" + v + "'");
  return s;
}

bench::RunPlan parse(int argc, char** argv) {
  bench::RunRequest q;
  try {
    for (int i = 0; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&] { return flag_value(argc, argv, i, "run"); };
      auto cpus = [&](const char* example) {
        std::vector<int> out;
        const std::string v = value();
        if (!parse_cpu_list(v, out)) die(a + " wants a CPU list like " + example + ", got '" + v + "'");
        return out;
      };
      if (a == "-h" || a == "--help") {
        std::fputs(kUsage, stdout);
        std::exit(0);
      } else if (a == "--quick" || a == "--full") {
        q.full = a == "--full";
      } else if (a == "--out") {
        q.out_dir = value();
      } else if (a == "--repeats") {
        q.repeats = flag_uint<unsigned>(argc, argv, i, "run");
        if (q.repeats == 0 || q.repeats > 100) die("--repeats wants 1..100");
      } else if (a == "--duration") {
        q.duration_s = seconds(a, value());
      } else if (a == "--warmup") {
        q.warmup_s = seconds(a, value(), true);
      } else if (a == "--connections") {
        q.connections = bench::parse_counts(a, value());
      } else if (a == "--pipeline") {
        q.pipelines = bench::parse_counts(a, value());
      } else if (a == "--scenarios") {
        q.scenarios = bench::parse_scenarios(a, value());
      } else if (a == "--framings") {
        q.framings = bench::parse_framings(a, value());
      } else if (a == "--bodies") {
        q.bodies = bench::parse_bodies(a, value());
      } else if (a == "--arms") {
        q.arms = bench::parse_arms(a, value());
      } else if (a == "--server-cpus") {
        q.server_cpus = cpus("0 or 0-1");
      } else if (a == "--loader-cpus") {
        q.loader_cpus = cpus("1 or 2-3");
      } else if (a == "--noisy") {
        const std::string v = value();
        char* end = nullptr;
        q.noisy_spread = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !(q.noisy_spread > 0))
          die("--noisy wants a fraction > 0 (0.10 = 10%), got '" + v + "'");
      } else if (a == "--nginx") {
        q.nginx = value();
        if (access(q.nginx.c_str(), X_OK) != 0) die("--nginx " + q.nginx + ": not an executable");
      } else if (a == "--no-micro") {
        q.micro = false;
      } else if (a == "--micro-filter") {
        q.micro_filter = value();
      } else if (a == "--micro-repetitions") {
        q.micro_repetitions = flag_uint<unsigned>(argc, argv, i, "run");
        if (q.micro_repetitions == 0 || q.micro_repetitions > 100) die("--micro-repetitions wants 1..100");
      } else if (a == "--micro-min-time") {
        q.micro_min_time_s = seconds(a, value());
      } else {
        die("run: unknown option '" + a + "' (see 'zapbench run --help')");
      }
    }
    return bench::plan_run(q);
  } catch (const std::invalid_argument& e) {
    die(e.what());
  }
}

std::atomic<bool> g_interrupted{false};
void on_interrupt(int) { g_interrupted = true; }

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) die("run: cannot find my own binary (/proc/self/exe): " + ec.message());
  return p.string();
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

}  // namespace

int cmd_run(int argc, char** argv) {
  const bench::RunPlan p = parse(argc, argv);
  const auto t_start = Clock::now();
  const bench::RunFolder folder(p.out_dir);
  const bench::SampleContext ctx{p, folder, self_exe()};
  raise_fd_limit();
  std::error_code ec;
  fs::create_directories(folder.file("samples"), ec);
  if (ec) die("run: cannot create " + p.out_dir + ": " + ec.message());
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // 1. What and where: the environment, the configuration, the codecs.
  report::Results res;
  std::vector<std::string> command = {"zapbench", "run"};  // the user's name for it, not /proc/self/exe
  command.insert(command.end(), argv, argv + argc);
  res.env = bench::environment(command, folder);
  res.config = p.cfg;
  res.codecs = bench::codecs();
  if (p.cfg.server_cpus == p.cfg.loader_cpus)
    res.notes.push_back("server and loader share CPUs " + bench::cpu_list_text(p.cfg.server_cpus) +
                        ": this machine has one CPU for both, so their work is not separated");
  std::printf("zapbench run (%s): results in %s\n", p.cfg.mode.c_str(), p.out_dir.c_str());
  std::printf("  server CPUs %s, loader CPUs %s, %u repeats, %.1f s + %.1f s warm-up per sample\n",
              bench::cpu_list_text(p.cfg.server_cpus).c_str(),
              bench::cpu_list_text(p.cfg.loader_cpus).c_str(), p.cfg.repeats, p.cfg.duration_s,
              p.cfg.warmup_s);
  std::fflush(stdout);

  // 2. The microbenchmarks.
  if (p.micro) {
    std::printf("[micro] codec microbenchmarks, %u repetitions of %g s each (log: %s/micro.log)...\n",
                p.cfg.micro_repetitions, p.cfg.micro_min_time_s, p.out_dir.c_str());
    std::fflush(stdout);
    bench::run_micro(ctx, res);
    for (const std::string& n : res.notes) std::printf("[micro] %s\n", n.c_str());
    std::printf("[micro] %zu figures in %s\n", res.micro.figures.size(),
                bench::duration_text(std::chrono::duration<double>(Clock::now() - t_start).count()).c_str());
  }

  // 3. The end-to-end matrix: every cell once per round; odd rounds run
  // backwards so no arm always follows the same neighbour.
  std::vector<bench::CellPlan> cells = bench::plan_cells(p);
  std::size_t runnable = 0;
  for (const bench::CellPlan& cp : cells) {
    if (cp.cell.unavailable.empty())
      ++runnable;
    else
      std::printf("[e2e] %s: unavailable: %s\n", bench::cell_label(cp.cell).c_str(),
                  cp.cell.unavailable.c_str());
  }
  bench::Progress progress(runnable * p.cfg.repeats, p.cfg.warmup_s + p.cfg.duration_s + 0.4,
                           isatty(STDOUT_FILENO) != 0);
  std::printf("[e2e] %zu cells x %u repeats = %zu samples, ~%s\n", runnable, p.cfg.repeats, progress.total(),
              bench::duration_text(progress.eta_s()).c_str());
  std::fflush(stdout);
  for (unsigned r = 0; r < p.cfg.repeats && !g_interrupted; ++r)
    for (std::size_t k = 0; k < cells.size() && !g_interrupted; ++k) {
      bench::CellPlan& cp = cells[r % 2 == 0 ? k : cells.size() - 1 - k];
      if (!cp.cell.unavailable.empty()) continue;
      progress.starting(cp.cell, r, p.cfg.repeats);
      std::string failure;
      cp.cell.samples.push_back(bench::run_sample(ctx, cp, r, failure));
      progress.finished(cp.cell, cp.cell.samples.back(), failure);
      if (!failure.empty())
        res.notes.push_back(bench::cell_label(cp.cell) + ", round " + std::to_string(r + 1) + ": " + failure);
    }
  if (g_interrupted) res.notes.push_back("interrupted: the run was stopped before every sample was taken");
  for (bench::CellPlan& cp : cells) res.cells.push_back(std::move(cp.cell));
  res.env.wall_s = std::chrono::duration<double>(Clock::now() - t_start).count();

  // 4. The results and the reports.
  write_text(folder.file("results.json"), report::to_json(res));
  write_text(folder.file("report.md"), report::markdown(res));
  write_text(folder.file("report.html"), report::html(res));
  std::printf("zapbench run: done in %s\n  %s/results.json\n  %s/report.md\n  %s/report.html\n",
              bench::duration_text(res.env.wall_s).c_str(), p.out_dir.c_str(), p.out_dir.c_str(),
              p.out_dir.c_str());
  return g_interrupted ? 130 : 0;
}

}  // namespace cli
