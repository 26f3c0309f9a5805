// report/model.hpp — the results model of `zapbench run`: every sample of
// every figure, the environment, and the configuration. results.json is this
// model serialised (model_json.cpp); report.md and report.html are written
// from it alone, so a results.json loads back and reproduces its report.
// Owns no measuring: bench (zapbench run) fills it, the writers read it.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matrix/matrix.hpp"
#include "stats/estimate.hpp"

namespace report {

inline constexpr const char* kSchema = "zapbench.results/1";

// One figure measured several times: the report shows the median and min–max,
// and compares two figures by their samples (paired by round, below).
struct Samples {
  std::vector<double> values;
  // The round each value was taken in (0-based), parallel to values: what
  // pairs two arms' samples. Empty when not recorded (a results.json from
  // before rounds were), and then nothing is paired.
  std::vector<unsigned> rounds;
  [[nodiscard]] double median() const;
  [[nodiscard]] double min() const;
  [[nodiscard]] double max() const;
  // (max - min) / median; 0 for fewer than two samples or a zero median.
  [[nodiscard]] double spread() const;
};

// One host of a multi-host run as its preflight found it (bench/hosts/ssh.hpp).
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
  std::string mode;      // "quick", "full" or "custom"
  unsigned repeats = 3;  // the first rounds: every cell runs this many
  // Adaptive rounds (zapbench run --precision, --budget): after the first
  // rounds, the cells the findings compare got more rounds until each
  // finding's interval was within ±precision (stats::precise) or the budget
  // was spent. NaN: not recorded (runs before verdicts) or not asked for.
  double precision = NAN;
  double budget_s = NAN;
  // δ of "equivalent" (stats::Method::margin). NaN in runs before verdicts:
  // the report then uses the default.
  double margin = NAN;
  double duration_s = 0;  // per e2e sample
  double warmup_s = 0;
  std::vector<int> server_cpus;
  std::vector<int> loader_cpus;
  double noisy_spread = 0.10;  // a cell whose spread exceeds this is flagged noisy
  // Open loop (zapbench run --rate): every cell's load at this total rate,
  // requests/s; 0: closed loop (written only when > 0).
  double rate_per_s = 0;
  unsigned micro_repetitions = 0;
  double micro_min_time_s = 0;
};

// One microbenchmark (Decode/zap, ...): CPU ns per op, one sample per repetition.
struct MicroFigure {
  std::string name;          // Google Benchmark name, e.g. "Decode/direct"
  std::string op;            // Decode, Encode, Serde, Handler (or the part before '/')
  std::string codec;         // the part after '/'
  Samples ns_per_op;         // a round is one `zapbench micro` process (or zapbench-go's)
  double allocs_per_op = 0;  // deterministic: the median repetition's
  double wire_bytes = 0;
};

struct Unavailable {
  std::string name;
  std::string reason;
};

// Instructions per request of one request path (Server/<framing>/<body>),
// from `zapbench instructions` (bench/run/instructions.hpp): deterministic, so one
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
  // The round it was taken in (0-based; round r of every cell runs before
  // round r + 1 of any). None in runs before rounds were recorded.
  std::optional<unsigned> round;
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
  // The server's system calls from ready to stop (perf, raw_syscalls:sys_enter
  // on its threads; proc/syscalls.hpp). NaN where not counted: a server on
  // another host, perf unavailable, a server thread started after counting
  // began, a failed sample, runs before the count.
  double server_syscalls = NAN;
  // The machine's 1-minute load average (/proc/loadavg) just before the
  // sample started; NaN when not recorded (runs before the load gate).
  double load_avg_1m = NAN;
  // Several hosts (docs/spec/hosts.md §6): one row per loader host, and the
  // bound on the spread of their windows' starts; empty / NaN on one host.
  std::vector<LoaderHostRow> loader_hosts;
  double start_skew_ns = NAN;
};

// One cell of the matrix (matrix/matrix.hpp names the axes; results.json
// carries their stable names). The floor's framing is raw_tcp. `body`: a codec
// name for rpc and logs, "" for hello (floor: "" too).
struct Cell {
  matrix::Arm arm = matrix::Arm::zapbench;
  matrix::Scenario scenario = matrix::Scenario::hello;
  unsigned logs = 0;  // logs: N, the logs each request asks for (the floor's too); 0 for the other scenarios
  matrix::Framing framing = matrix::Framing::http1;
  std::string body;
  // The codec the server decodes and encodes the body with, when it is not
  // `body` itself: a Go arm's JSON codec ("go/goccy"); the loader still uses
  // `body`. Empty for every other arm.
  std::string server_codec;
  // What served the cell when the arm's name does not say it: a Go ZAP-RPC
  // cell is the go-zip arm's (the zip stack's place in the matrix) but
  // zap-proto/go's own transport serves it, in zapbench-go-rpc, a build of its
  // own: "zap-proto/go v1.8.1 ZAP-RPC" (go_zap_rpc_server). The report names
  // the row by it. Empty for every other cell.
  std::string server;
  // A Go arm's cell: the Go modules its server used, path -> version as its
  // binary links them (go_module_paths says which). Empty for the other
  // arms, for a Go cell that could not run, and in a results.json from before
  // it was recorded (from_json then takes them from env.libraries, which
  // recorded the same binaries' modules).
  std::map<std::string, std::string> go_modules;
  unsigned connections = 0;
  unsigned pipeline = 1;
  // The server's I/O interface (its `--io`): io_uring only for zapbench's own
  // server and the floor, whose event core has both; every other arm, and
  // every cell of a run from before the axis, is epoll. The loader is always
  // on epoll: the axis is the server's.
  matrix::Io io = matrix::Io::epoll;
  std::string server_command;  // command lines as run, paths relative to the run's folder
  std::string loader_command;
  std::string unavailable;  // non-empty: this arm could not run, and why
  // The control copy of the cell that is otherwise the same: the same
  // binary and flags, run in the same rounds at another place in each, so
  // that comparing the two shows what the method calls a difference where
  // there is none (report: "Control").
  bool control = false;
  std::vector<E2ESample> samples;

  // Stable key: "arm/scenario/framing/body/c<N>/p<D>"; a logs cell's
  // scenario part carries its N: "zapbench/logs-100/http/zap/c16/p1"; an
  // io_uring cell's ends in "/io_uring" (an epoll cell's says nothing, so
  // ids of runs from before the axis still match); the control copy's ends
  // in "/control" (after "/io_uring").
  [[nodiscard]] std::string id() const;
  // "rpc", "logs N=100": the scenario as a reader sees it.
  [[nodiscard]] std::string scenario_label() const;
  [[nodiscard]] Samples rate() const;      // requests/s per sample
  [[nodiscard]] Samples mb_per_s() const;  // MB (10^6 bytes) of responses per second, per sample
  [[nodiscard]] Samples p99() const;       // ns per sample
  // ns of the server's CPU time per request served, per sample: its CPU time
  // over the whole sample (warm-up and window) ÷ the requests it served at
  // the measured rate in that time (report: "server CPU per request").
  [[nodiscard]] Samples server_cpu_per_request_ns(const Config& c) const;
  // The server's system calls per request served, per sample, on the same
  // time basis as server_cpu_per_request_ns; NaN for a sample without a count.
  [[nodiscard]] Samples server_syscalls_per_request(const Config& c) const;
  [[nodiscard]] bool noisy(double threshold) const { return rate().spread() > threshold; }
};

// env.libraries names a module of zapbench-go-rpc (the Go ZAP-RPC server's
// own build) that differs from zapbench-go's with this after its path; the
// Go modules' versions end in " (Go module)" there.
inline constexpr std::string_view kGoRpcLibrarySuffix = " (zapbench-go-rpc, the Go ZAP-RPC cells)";
inline constexpr std::string_view kGoModuleSuffix = " (Go module)";

// The server of a Go ZAP-RPC cell as the report names it (Cell::server):
// "zap-proto/go v1.8.1 ZAP-RPC"; "zap-proto/go ZAP-RPC" when the version is
// unknown ("").
std::string go_zap_rpc_server(const std::string& version);
// The Go modules a Go arm's cell serves with: its framework's (fasthttp,
// zap-proto/zip; net/http is the standard library, ZAP-RPC has none),
// zap-proto/http for ZAP-HTTP, zap-proto/go for ZAP-HTTP, ZAP-RPC or a ZAP
// body, and its JSON codec's (server_codec go/goccy, go/sonic; go/stdlib is
// the standard library). Empty for other arms.
std::vector<std::string> go_module_paths(const Cell& c);
// A Go arm's cell as built, from the versions its server's binary links
// (`linked`: zapbench-go's, or zapbench-go-rpc's for ZAP-RPC): `server` for a
// ZAP-RPC cell, `go_modules` (those of go_module_paths that `linked` has)
// when the cell can run. Nothing for other arms.
void describe_go_cell(Cell& c, const std::map<std::string, std::string>& linked);

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
  // ZAP, JSON or a binary peer, as record's registry has it (written since
  // issue 33; none in earlier results.json).
  std::optional<matrix::Family> family;
  // The family; for a results.json without one, what its content type says
  // (matrix::family_of: earlier runs had one content type for ZAP and one for JSON).
  [[nodiscard]] matrix::Family effective_family() const {
    return family.value_or(matrix::family_of(content_type));
  }
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

// The calibration (src/calibrate): figures that no change to zapbench's
// product code can move, measured in every round of the run, so that
// `zapbench compare` can tell how the machine moved between two runs apart
// from how the build did. Its microbenchmark rows are in Micro (named
// "Calibrate/..."); the loopback ping-pong, one per depth, is here: a tiny
// TCP echo of its own (no code shared with src/net), its server and client
// pinned as a sample's server and loader, a sample per end-to-end round.
struct PingPong {
  unsigned depth = 1;           // messages in flight
  unsigned message_bytes = 64;  // each way
  // Per sample: round trips per second, the p99 of a round trip, and the
  // server thread's CPU time per round trip (ns); `round_trips_per_s.rounds`
  // holds the rounds of all three.
  Samples round_trips_per_s, p99_ns, server_cpu_ns;
};
struct Calibration {
  // calibrate::kVersion of the build that measured it: two runs' calibrations
  // are one yardstick only when equal. "" for a run without one (runs before
  // it, or one that measured no end-to-end round).
  std::string version;
  // Why the run has no ping-pong although it has a version (several hosts:
  // it would measure this machine, not theirs); "" otherwise.
  std::string unavailable;
  std::vector<PingPong> ping_pongs;
};

// The c100k scenario (bench/run/c100k.hpp): N idle connections held open on
// one zapbench server (one backend), a small sample of other connections
// answered the whole time. Since c100k; absent from earlier results.json.
struct C100k {
  std::string io;                    // "epoll", "io_uring" (matrix::to_string)
  std::uint64_t asked = 0;           // connections asked for (--c100k-connections)
  std::uint64_t reached = 0;         // connected and accepted by the server
  std::string limit;                 // "" when every one was; else the limit hit, named, with its value
  std::string error;                 // a failure that is no limit ("" when none)
  double connect_s = 0;              // the first connect() to the last one established (client side)
  double accept_s = 0;               // the first connect() to the server holding all (its descriptors)
  double server_rss_before_kib = 0;  // VmRSS of the server before the connections and with them held
  double server_rss_held_kib = 0;
  double user_bytes_per_connection = 0;    // (held - before) RSS / reached
  double kernel_bytes_per_connection = 0;  // (Slab + TCP mem pages) delta / reached: both ends' sockets
  std::uint64_t sockets_before = 0, sockets_held = 0;              // /proc/net/sockstat "sockets: used"
  std::uint64_t tcp_mem_pages_before = 0, tcp_mem_pages_held = 0;  // sockstat "TCP: ... mem"
  std::uint64_t slab_kib_before = 0, slab_kib_held = 0;            // /proc/meminfo Slab
  // The sample: `zapbench load` on other connections of the same server, the whole hold.
  unsigned sample_connections = 0;
  double sample_rate_per_s = 0;  // its open-loop rate
  double hold_s = 0;             // how long it ran with the N held
  std::uint64_t sample_responses = 0, sample_errors = 0;
  double sample_p50_ns = 0, sample_p99_ns = 0, sample_max_ns = 0;
  bool server_answered = false;  // the sample got valid answers (also after a refusal)
  bool all_closed = false;       // every connection closed, the server's descriptors back to before
  int fds_left = 0;              // this process's descriptors after minus before (0: none left)
  std::string limits_changed;    // what the run raised and restored ("RLIMIT_NOFILE ... -> ...")
  std::string server_command, loader_command;
};

// A conformance suite run against one arm's server (h2spec on HTTP/2): the
// same suite against zapbench's HTTP/2 server and each HTTP/2 arm beside it
// (bench/run/conformance.hpp). Since issue 48; absent from earlier results.json.
struct Conformance {
  std::string arm;          // matrix::to_string of the arm
  std::string framing;      // "http2"
  std::string tool;         // "h2spec"
  std::string unavailable;  // why it did not run ("" when it ran)
  unsigned cases = 0, passed = 0, skipped = 0, failed = 0;
  std::vector<std::string> failures;  // each failed case: "http2/3.5: Sends invalid connection preface"
  std::string command;                // how to rerun it (the server's and h2spec's command lines)
};

struct Results {
  std::string schema = kSchema;
  Environment env;
  Config config;
  std::vector<Codec> codecs;
  Micro micro;
  std::vector<Cell> cells;
  Calibration calibration;
  std::vector<std::string> notes;        // caveats the run itself found (e.g. "nginx unavailable: ...")
  std::vector<C100k> c100k;              // the c100k scenario, one per backend; empty when not run
  std::vector<Conformance> conformance;  // h2spec against each HTTP/2 arm; empty when not run
  // Why the run ended early ("SIGTERM during the microbenchmarks"): its
  // results are partial, only what was measured before. "" for a run that
  // ran to its end (and absent from results.json then).
  std::string interrupted;
  // Whether its cells carry "io" in results.json: true for every run since
  // the io axis; false for one read from an earlier results.json (no cell had
  // it), which then writes back byte for byte (an io_uring cell says it anyway).
  bool io_recorded = true;
};

// Two figures compared (stats/estimate.hpp), with the run's margin:
// paired by round when both carry rounds (the values of a round one of them
// lacks are left out); otherwise not computed, and `why` says the rounds
// were not recorded. Seeded from the samples themselves, so the same
// results.json gives the same intervals.
stats::Estimate paired(const Samples& subject, const Samples& baseline, stats::Better better,
                       const Config& c);
// Two figures of different runs (compare), or of different kinds of
// measurement: unpaired; `alpha` as stats::unpaired's.
stats::Estimate unpaired(const Samples& subject, const Samples& baseline, stats::Better better,
                         const Config& c, double alpha = NAN);
// The method a run's comparisons use: the defaults, with its margin.
stats::Method method(const Config& c);
// Whether a figure carries rounds to pair (runs before verdicts do not).
[[nodiscard]] inline bool has_rounds(const Samples& s) {
  return !s.values.empty() && s.rounds.size() == s.values.size();
}

// The first figure of r that is not a measurement — a negative or infinite
// rate, time or count, a NaN where a sample must have a value, an empty
// sample list of a cell that ran — as "cells[3].samples[0].requests_per_s:
// -5 is not a rate (expected a finite number >= 0)", with the member's path
// in results.json; "" when every figure is one (model.cpp). What a reader of
// two runs checks before it reads any (compare).
std::string nonsense(const Results& r);

// The microbenchmark rows of the calibration (src/calibrate) are named so.
inline constexpr std::string_view kCalibrationMicroPrefix = "Calibrate/";

// results.json (model_json.cpp). load throws std::runtime_error with a clear
// message (file, what is wrong) on anything it cannot read.
std::string to_json(const Results& r);
Results from_json(const std::string& text);
Results load_file(const std::string& path);

// report.md and report.html (markdown.cpp, html.cpp): pure functions of the model.
std::string markdown(const Results& r);
std::string html(const Results& r);

// The report's files in `dir` (files.cpp): report.md, report.html,
// findings.md (the tables What it found opens with, in Markdown, no prose)
// and the charts beside them as findings-micro.svg and findings-e2e.svg
// (those the run has), for a README to show. Returns the paths written, in
// that order; throws std::runtime_error naming a file it cannot write.
std::vector<std::string> write_reports(const Results& r, const std::string& dir);
// The same tables as plain text for a terminal: what `zapbench run` ends with
// ("" when the run has no finding).
std::string findings_text(const Results& r);

}  // namespace report
