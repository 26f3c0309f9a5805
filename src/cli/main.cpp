// cli/main.cpp — the zapbench binary: argument parsing and dispatch to the
// subcommands. Owns no protocol or codec logic; each subcommand lives in its
// component and is reached from here.
#include <benchmark/benchmark.h>
#include <sched.h>

#include <charconv>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cli/args.hpp"
#include "micro/summary.hpp"
#include "record/registry.hpp"

namespace {

constexpr const char* kUsage =
    "usage: zapbench <command> [options]\n"
    "\n"
    "commands:\n"
    "  serve     serve /health and /rpc over HTTP/1.1 and ZAP-HTTP\n"
    "  load      drive a server on either wire; validated responses, honest latency\n"
    "  micro     in-process microbenchmarks of every codec (Google Benchmark)\n"
    "  run       the whole benchmark: micro, the end-to-end matrix, nginx and floor arms, report\n"
    "  compare   two result sets: the change per cell against the noise of both\n"
    "  report    rewrite report.md and report.html from a results.json\n"
    "  floor     raw TCP echo of fixed byte counts (the floor arm's server)\n"
    "  codecs    list every codec, available or not, and why\n"
    "\n"
    "Run 'zapbench <command> --help' for the options of a command.\n";

constexpr const char* kMicroUsage =
    "usage: zapbench micro [--filter REGEX] [--repetitions N] [--min-time SECONDS]\n"
    "                      [--cpu N] [--json-out FILE] [--benchmark_<flag>=...]\n"
    "\n"
    "Runs the codec microbenchmarks — Decode/<codec>, Encode/<codec>,\n"
    "Serde/<codec>, Handler/<codec> — and prints a summary table. Each reports\n"
    "ns/op (Time), heap allocations per op (allocs/op), bytes allocated per op\n"
    "(alloc_bytes/op) and the wire bytes one op produces or consumes\n"
    "(wire_bytes). 'zap' reuses its builders; 'zap-fresh' makes a new builder\n"
    "per message, as the Go reference does.\n"
    "\n"
    "  --filter REGEX       run only benchmarks whose name matches (e.g. 'Decode/')\n"
    "  --repetitions N      repeat each benchmark N times and add mean/median/stddev/cv\n"
    "  --min-time SECONDS   minimum measuring time per benchmark (default 0.5)\n"
    "  --cpu N              pin this process to CPU N before measuring\n"
    "  --json-out FILE      also write Google Benchmark JSON to FILE\n"
    "  --benchmark_*        passed to Google Benchmark unchanged\n";

using cli::die;
using cli::parse_uint;

int cmd_micro(int argc, char** argv) {
  std::vector<std::string> bench_args = {"zapbench micro", "--benchmark_min_time=0.5",
                                         "--benchmark_counters_tabular=true"};
  auto value = [&](int& i, std::string_view flag) -> std::string {
    if (i + 1 >= argc) die(std::string(flag) + " needs a value (see 'zapbench micro --help')");
    return argv[++i];
  };
  for (int i = 0; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kMicroUsage, stdout);
      return 0;
    } else if (a == "--filter") {
      bench_args.push_back("--benchmark_filter=" + value(i, a));
    } else if (a == "--repetitions") {
      unsigned n = 0;
      std::string v = value(i, a);
      if (!parse_uint(v, n) || n == 0) die("--repetitions wants a positive integer, got '" + v + "'");
      bench_args.push_back("--benchmark_repetitions=" + v);
    } else if (a == "--min-time") {
      std::string v = value(i, a);
      char* end = nullptr;
      double s = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != '\0' || !(s > 0)) die("--min-time wants seconds > 0, got '" + v + "'");
      bench_args.push_back("--benchmark_min_time=" + v);
    } else if (a == "--cpu") {
      unsigned cpu = 0;
      std::string v = value(i, a);
      if (!parse_uint(v, cpu) || cpu >= CPU_SETSIZE) die("--cpu wants a CPU number, got '" + v + "'");
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(cpu, &set);
      if (sched_setaffinity(0, sizeof set, &set) != 0)
        die("cannot pin to CPU " + v + ": " + std::strerror(errno));
    } else if (a == "--json-out") {
      bench_args.push_back("--benchmark_out=" + value(i, a));
      bench_args.push_back("--benchmark_out_format=json");
    } else if (a.starts_with("--benchmark_")) {
      bench_args.emplace_back(a);
    } else {
      die("micro: unknown option '" + std::string(a) + "' (see 'zapbench micro --help')");
    }
  }
  std::vector<char*> bargv;
  for (auto& s : bench_args) bargv.push_back(s.data());
  int bargc = static_cast<int>(bargv.size());
  benchmark::Initialize(&bargc, bargv.data());
  if (benchmark::ReportUnrecognizedArguments(bargc, bargv.data())) return 2;
  micro::CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  micro::print_summary(stdout, reporter.results());
  benchmark::Shutdown();
  return 0;
}

int cmd_codecs(int argc, char** argv) {
  for (int i = 0; i < argc; ++i) {
    std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(
          "usage: zapbench codecs\n\n"
          "Lists every codec zapbench knows, in src/record/codecs.table's order: its\n"
          "content type, whether this build has it (and why not), the exact encode and\n"
          "decode path it uses, and the Debian package of its library.\n",
          stdout);
      return 0;
    }
    die("codecs: unknown option '" + std::string(a) + "' (see 'zapbench codecs --help')");
  }
  for (const record::CodecInfo& c : record::all_codecs()) {
    std::printf("%-10.*s %-17.*s ", int(c.name.size()), c.name.data(), int(c.content_type.size()),
                c.content_type.data());
    if (!c.available) {
      std::printf("unavailable: %.*s\n", int(c.unavailable_reason.size()), c.unavailable_reason.data());
    } else {
      std::printf("available%s\n",
                  c.name == record::default_json_codec().name ? " (default JSON codec)" : "");
      std::printf("%-28s encode: %.*s\n", "", int(c.encode_path.size()), c.encode_path.data());
      std::printf("%-28s decode: %.*s\n", "", int(c.decode_path.size()), c.decode_path.data());
    }
    if (!c.debian_package.empty())
      std::printf("%-28s package: %.*s (Debian)\n", "", int(c.debian_package.size()),
                  c.debian_package.data());
  }
  return 0;
}

}  // namespace

namespace cli {
int cmd_serve(int argc, char** argv);
int cmd_load(int argc, char** argv);
int cmd_floor(int argc, char** argv);
int cmd_run(int argc, char** argv);
int cmd_compare(int argc, char** argv);
int cmd_report(int argc, char** argv);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  std::string_view cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (cmd == "serve") return cli::cmd_serve(argc - 2, argv + 2);
  if (cmd == "load") return cli::cmd_load(argc - 2, argv + 2);
  if (cmd == "micro") return cmd_micro(argc - 2, argv + 2);
  if (cmd == "floor") return cli::cmd_floor(argc - 2, argv + 2);
  if (cmd == "run") return cli::cmd_run(argc - 2, argv + 2);
  if (cmd == "compare") return cli::cmd_compare(argc - 2, argv + 2);
  if (cmd == "report") return cli::cmd_report(argc - 2, argv + 2);
  if (cmd == "codecs") return cmd_codecs(argc - 2, argv + 2);
  std::fprintf(stderr, "zapbench: unknown command '%s'\n\n%s", argv[1], kUsage);
  return 2;
}
