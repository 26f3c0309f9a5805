// cli/micro.cpp — `zapbench micro`: the microbenchmarks (src/micro) on Google Benchmark, their summary
// tables, then the Go reference's microbenchmarks (bench/arms/go_arm.hpp) beside ours.
#include <benchmark/benchmark.h>
#include <sched.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "bench/arms/go_arm.hpp"
#include "cli/args.hpp"
#include "cli/commands.hpp"
#include "flags/flags.hpp"
#include "micro/summary.hpp"
#include "proc/interrupt.hpp"
#include "report/model.hpp"

namespace cli {
namespace {

// The Go reference's microbenchmarks after ours, as `zapbench run` runs them
// (bench/arms/go_arm.hpp), printed beside ours. Their JSON goes to `json_out`, or
// to a temporary file removed afterwards.
void micro_go(const std::string& binary, const std::string& filter, double min_time_s, unsigned repetitions,
              const std::vector<int>& cpus, std::string json_out, const std::vector<micro::Result>& cpp) {
  const bench::GoArm go = bench::probe_go(binary);
  if (!go.runs()) {
    micro::print_go_summary(stdout, cpp, {}, {{"go/*", go.unavailable}});
    return;
  }
  struct Temporary {  // removed however micro_go ends (an interrupt throws through it)
    std::string path;
    ~Temporary() {
      if (!path.empty()) unlink(path.c_str());
    }
  } tmp;
  if (json_out.empty()) {
    char path[] = "/tmp/zapbench-go-micro-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) die(std::string("micro: cannot make a temporary file: ") + std::strerror(errno));
    close(fd);
    json_out = tmp.path = path;
  }
  std::printf("\nThe Go reference's microbenchmarks (%s micro)...\n", binary.c_str());
  std::fflush(stdout);
  report::Micro figures;
  std::vector<std::string> notes;
  bench::measure_go_micro(bench::go_micro_spec(go, json_out, min_time_s, repetitions, filter, cpus, ""),
                          json_out, figures, notes);
  std::vector<micro::Result> rows;
  for (const report::MicroFigure& f : figures.figures)
    rows.push_back({f.op, f.codec, f.ns_per_op.median(), f.allocs_per_op, f.wire_bytes, ""});
  for (const std::string& n : notes) figures.unavailable_codecs.push_back({"zapbench-go", n});
  micro::print_go_summary(stdout, cpp, rows, figures.unavailable_codecs);
}

}  // namespace

int cmd_micro(int argc, char** argv) {
  std::string filter, json_out;
  std::string go_binary = bench::default_go_binary();
  bool go = true;
  std::optional<unsigned> repetitions, cpu;
  double min_time_s = 0.5;
  std::vector<std::string> passthrough;
  flags::Table t("micro");
  t.summary(std::string(summary("micro")));
  t.about(
      "Runs the microbenchmarks and prints summary tables: the codecs\n"
      "(Decode/<codec>, Encode/<codec>, Serde/<codec>, Handler/<codec>), the\n"
      "server's request path (Server/<framing>/<body>, per request: 16 pipelined\n"
      "requests answered by the server's own code in memory; framing http1,\n"
      "zap-http, zap-rpc (16 calls in flight), http2 or grpc (16 streams in\n"
      "flight), body hello (not grpc), zap or another codec)\n"
      "and HTTP/1.1 (Http/...); and the calibration (Calibrate/spin, memcpy-4KiB,\n"
      "memcpy-1MiB, chase-16MiB: src/calibrate, no product code, the yardstick\n"
      "compare judges the machine's move by). Each reports\n"
      "ns/op (Time), heap allocations per op (allocs/op), bytes allocated per op\n"
      "(alloc_bytes/op) and the wire bytes one op produces or consumes\n"
      "(wire_bytes). 'zap' reuses its builders; 'zap-fresh' makes a new builder\n"
      "per message, as the Go reference does. Then the Go reference's own\n"
      "(zapbench-go micro: <op>/go/<codec>), pinned the same way, beside their C++\n"
      "counterparts with the C++ ÷ Go ratio; --json-out FILE writes theirs to\n"
      "FILE.go.json.");
  t.text("--filter", &filter, "REGEX", "run only benchmarks whose name matches (e.g. 'Decode/')");
  t.number("--repetitions", &repetitions, {1}, "repeat each benchmark N times and add mean/median/stddev/cv");
  t.duration("--min-time", &min_time_s, {.min = 0, .min_exclusive = true},
             "minimum measuring time per benchmark");
  t.number("--cpu", &cpu, {0, flags::kMaxCpu - 1}, "pin this process to CPU N before measuring");
  t.text("--json-out", &json_out, "FILE", "also write Google Benchmark JSON to FILE");
  t.text("--go", &go_binary, "PATH", "the Go reference's binary (zapbench-go)")
      .default_text(go_binary.empty() ? "none built" : go_binary);
  t.set("--no-go", &go, false, "skip the Go reference's microbenchmarks");
  t.passthrough("--benchmark_", &passthrough, "passed to Google Benchmark unchanged (after the flags above)");
  t.parse(argc, argv);

  std::vector<std::string> bench_args = {"zapbench micro",
                                         "--benchmark_min_time=" + flags::format_number(min_time_s),
                                         "--benchmark_counters_tabular=true"};
  if (t.seen("--filter")) bench_args.push_back("--benchmark_filter=" + filter);
  if (repetitions) bench_args.push_back("--benchmark_repetitions=" + std::to_string(*repetitions));
  if (t.seen("--json-out")) {
    bench_args.push_back("--benchmark_out=" + json_out);
    bench_args.push_back("--benchmark_out_format=json");
  }
  bench_args.insert(bench_args.end(), passthrough.begin(), passthrough.end());
  if (cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(*cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0)
      die("cannot pin to CPU " + std::to_string(*cpu) + ": " + std::strerror(errno));
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
  if (!go) return 0;
  // The Go phase's child runs in a process group of its own (bench::Child), out of reach of the
  // terminal's Ctrl-C: caught here, an interrupt ends it (its wait throws) before we exit 130.
  // Not earlier: until now an interrupt's default action leaves nothing behind.
  proc::catch_interrupts();
  try {
    micro_go(go_binary, filter, min_time_s, repetitions.value_or(1),
             cpu ? std::vector<int>{int(*cpu)} : std::vector<int>{},
             json_out.empty() ? "" : json_out + ".go.json", reporter.results());
  } catch (const proc::Interrupted& i) {
    std::fprintf(stderr, "zapbench micro: interrupted (%s): the Go reference's microbenchmarks ended\n",
                 proc::signal_name(i.signal));
    return 130;
  }
  return 0;
}

}  // namespace cli
