// report/model.hpp — the results model of `zapbench run`: every sample of
// every figure, the environment, and the configuration. results.json is this
// model serialised (model_json.cpp); report.md and report.html are written
// from it alone, so a results.json loads back and reproduces its report.
// Owns no measuring: bench (zapbench run) fills it, the writers read it.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "bench/matrix.hpp"

namespace report {

inline constexpr const char* kSchema = "zapbench.results/1";

// One figure measured several times: the report shows the median and min–max.
struct Samples {
  std::vector<double> values;
  [[nodiscard]] double median() const;
  [[nodiscard]] double min() const;
  [[nodiscard]] double max() const;
  // (max - min) / median; 0 for fewer than two samples or a zero median.
  [[nodiscard]] double spread() const;
};

// One host of a multi-host run as its preflight found it (bench/ssh.hpp).
struct HostRow {
  std::string role;  // "server" or "loader"
  std::string host;  // the ssh destination as given
  std::string version, hostname, kernel, cpu_model;
  unsigned cpu_count = 0;
  std::string allowed_cpus;  // "0-1"
};

struct Environment {
  std::string cpu_model;
  unsigned cpu_count = 0;
  std::string kernel;  // uname -sr
  std::string hostname;
  std::string compiler;                          // e.g. "GNU 12.2.0"
  std::string build_flags;                       // CMAKE_CXX_FLAGS + build type flags
  std::string git_commit;                        // of the source tree built, "+dirty" when modified
  std::map<std::string, std::string> libraries;  // name -> version ("unavailable: ..." when missing)
  std::string command_line;  // the `zapbench run ...` invocation, paths relative to the run's folder
  std::string started_utc;   // ISO 8601
  double wall_s = 0;         // the whole run
  // CPUs online in the whole machine (what /proc/loadavg counts against);
  // 0 when not recorded (runs before the load gate), then cpu_count stands in.
  unsigned online_cpus = 0;
  // What joins the server and the loaders: "loopback" (one host), "ssh hosts",
  // or the namespace mode's "netns veth+bridge, netem delay 1ms rate 1gbit".
  // Empty in runs before several hosts (read as loopback).
  std::string link;
  std::vector<HostRow> hosts;  // empty on one host
};

struct Config {
  std::string mode;  // "quick", "full" or "custom"
  unsigned repeats = 3;
  double duration_s = 0;  // per e2e sample
  double warmup_s = 0;
  std::vector<int> server_cpus;
  std::vector<int> loader_cpus;
  double noisy_spread = 0.10;  // a cell whose spread exceeds this is flagged noisy
  unsigned micro_repetitions = 0;
  double micro_min_time_s = 0;
};

// One microbenchmark (Decode/zap, ...): CPU ns per op, one sample per repetition.
struct MicroFigure {
  std::string name;   // Google Benchmark name, e.g. "Decode/direct"
  std::string op;     // Decode, Encode, Serde, Handler (or the part before '/')
  std::string codec;  // the part after '/'
  Samples ns_per_op;
  double allocs_per_op = 0;  // deterministic: the median repetition's
  double wire_bytes = 0;
};

struct Unavailable {
  std::string name;
  std::string reason;
};

// Instructions per request of one request path (Server/<framing>/<body>),
// from `zapbench instructions` (bench/instructions.hpp): deterministic, so one
// value each. NaN: not measured (the tool is unavailable, see Instructions).
struct InstructionFigure {
  std::string name;  // "Server/zap-http/zap"
  double callgrind_ir = std::nan("");
  double perf_instructions = std::nan("");
};

struct Instructions {
  std::uint64_t requests = 0;  // per case
  std::string tools;           // e.g. "valgrind-3.19.0"
  std::string callgrind_unavailable;
  std::string perf_unavailable;
  std::vector<InstructionFigure> figures;
};

struct Micro {
  std::string command;     // the command line that ran them
  std::string go_command;  // the Go arm's (zapbench-go micro); "" when it did not run
  std::vector<MicroFigure> figures;
  std::vector<Unavailable> unavailable_codecs;
  Instructions instructions;  // figures empty: not counted in this run
};

// One end-to-end sample (one server process, one loader process).
// One loader host's part of a multi-host sample (its own figures; the
// sample's are the exact merge of all of them).
struct LoaderHostRow {
  std::string host;
  std::uint64_t responses = 0;
  double requests_per_s = 0;
  std::uint64_t errors = 0;
  double p50_ns = 0, p99_ns = 0, max_ns = 0;
  double go_to_first_send_ns = NAN;  // from reading `go` to its first recorded send, its own clock
  double go_rtt_ns = NAN;            // from writing `go` to reading its ack, the coordinator's clock
  std::string failure;               // empty: it delivered its result
};

struct E2ESample {
  double requests_per_s = 0;
  double p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0, max_ns = 0, mean_ns = 0;
  std::uint64_t responses = 0;
  std::uint64_t errors = 0;  // all kinds; by kind below
  std::map<std::string, std::uint64_t> errors_by_kind;
  double bytes_sent_per_request = 0;
  double bytes_received_per_response = 0;
  // Response bytes per second of the window, MB (10^6 bytes): the loader's
  // bytes_received / elapsed_s. NaN when not recorded (runs before the logs
  // scenario); the report derives it from the rate and the bytes then.
  double received_mb_per_s = NAN;
  double loader_cpu_s = 0;  // user + sys of the loader process
  double server_cpu_s = 0;  // user + sys of the server process over its lifetime
  // The machine's 1-minute load average (/proc/loadavg) just before the
  // sample started; NaN when not recorded (runs before the load gate).
  double load_avg_1m = NAN;
  // Several hosts (docs/spec/hosts.md §6): one row per loader host, and the
  // bound on the spread of their windows' starts; empty / NaN on one host.
  std::vector<LoaderHostRow> loader_hosts;
  double start_skew_ns = NAN;
};

// One cell of the matrix (bench/matrix.hpp names the axes; results.json
// carries their stable names). The floor's framing is raw_tcp. `body`: a codec
// name for rpc and logs, "" for hello (floor: "" too).
struct Cell {
  bench::Arm arm = bench::Arm::zapbench;
  bench::Scenario scenario = bench::Scenario::hello;
  unsigned logs = 0;  // logs: N, the logs each request asks for (the floor's too); 0 for the other scenarios
  bench::Framing framing = bench::Framing::http1;
  std::string body;
  // The codec the server decodes and encodes the body with, when it is not
  // `body` itself: a Go arm's JSON codec ("go/goccy"); the loader still uses
  // `body`. Empty for every other arm.
  std::string server_codec;
  unsigned connections = 0;
  unsigned pipeline = 1;
  std::string server_command;  // command lines as run, paths relative to the run's folder
  std::string loader_command;
  std::string unavailable;  // non-empty: this arm could not run, and why
  std::vector<E2ESample> samples;

  // Stable key: "arm/scenario/framing/body/c<N>/p<D>"; a logs cell's
  // scenario part carries its N: "zapbench/logs-100/http/zap/c16/p1".
  [[nodiscard]] std::string id() const;
  // "rpc", "logs N=100": the scenario as a reader sees it.
  [[nodiscard]] std::string scenario_label() const;
  [[nodiscard]] Samples rate() const;      // requests/s per sample
  [[nodiscard]] Samples mb_per_s() const;  // MB (10^6 bytes) of responses per second, per sample
  [[nodiscard]] Samples p99() const;       // ns per sample
  [[nodiscard]] bool noisy(double threshold) const { return rate().spread() > threshold; }
};

// A codec as the registry describes it (`zapbench codecs`): the report states
// each one's encode and decode path.
struct Codec {
  std::string name;
  std::string content_type;
  bool available = false;
  std::string unavailable_reason;
  std::string encode_path;
  std::string decode_path;
  // Its decoder does not verify its input (flatbuffers-trusted): never served,
  // and never "the fastest binary peer" the report compares ZAP with.
  bool trusted_input_only = false;
};

// The load gate. The run's own processes are pinned to the CPUs it uses (U of
// them) and keep at most one thread per such CPU runnable, so they add at most
// U to the load average; the machine has N CPUs online. A 1-minute load
// average above N therefore means other work wanted more than the N - U CPUs
// the run left free, and so competed with the run's own: the sample was taken
// while the machine was busy. The report flags such samples; it never drops
// them. Returns N (env.online_cpus, or env.cpu_count for older runs).
struct Results;
[[nodiscard]] double busy_load_threshold(const Results& r);
[[nodiscard]] inline bool busy(const E2ESample& s, double threshold) {
  return std::isfinite(s.load_avg_1m) && s.load_avg_1m > threshold;
}

struct Results {
  std::string schema = kSchema;
  Environment env;
  Config config;
  std::vector<Codec> codecs;
  Micro micro;
  std::vector<Cell> cells;
  std::vector<std::string> notes;  // caveats the run itself found (e.g. "nginx unavailable: ...")
};

// results.json (model_json.cpp). load throws std::runtime_error with a clear
// message (file, what is wrong) on anything it cannot read.
std::string to_json(const Results& r);
Results from_json(const std::string& text);
Results load_file(const std::string& path);

// report.md and report.html (markdown.cpp, html.cpp): pure functions of the model.
std::string markdown(const Results& r);
std::string html(const Results& r);

// `zapbench compare A B` (compare.cpp): per cell and micro figure, the change of
// the median from A to B and whether it exceeds the noise (spread) of both runs.
struct Change {
  std::string key;           // cell id or "micro/<name>"
  std::string figure;        // "requests/s", "p99", "ns/op"
  double a = 0, b = 0;       // medians
  double change = 0;         // b / a - 1
  double noise = 0;          // max(spread A, spread B)
  bool significant = false;  // |change| exceeds the spread of A and of B
  // Sample counts; with fewer than two on either side there is no noise
  // estimate and `significant` stays false.
  unsigned samples_a = 0, samples_b = 0;
};
struct Comparison {
  std::vector<Change> changes;
  std::vector<std::string> only_in_a, only_in_b;
};
Comparison compare(const Results& a, const Results& b);
std::string compare_text(const Comparison& c);  // the table `zapbench compare` prints

}  // namespace report
