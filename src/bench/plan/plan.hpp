// bench/plan/plan.hpp — what a run will measure: the user's request (flags, with
// the --quick / --full defaults filled in and checked), the cells of the
// matrix in the order they run, and for each cell the server to start and
// the load to drive. Owns the matrix's shape and the children's command
// lines; starting them is the supervisor's, measuring is theirs.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/children/supervisor.hpp"
#include "bench/hosts/ssh.hpp"
#include "bench/plan/arm.hpp"
#include "bench/plan/exchange.hpp"
#include "load/engine.hpp"
#include "matrix/matrix.hpp"
#include "report/model.hpp"
#include "stats/estimate.hpp"

namespace bench {

// The matrix's axes, as bench spells them (the types are matrix's).
using matrix::Arm;
using matrix::Framing;
using matrix::Io;
using matrix::Scenario;

// Where the server and the loaders run (docs/spec/hosts.md): this machine
// (the default), hosts over ssh, or the namespace mode's hosts built here.
struct RunHosts {
  std::string server_host;                // --server-host: an ssh destination; "" = this machine
  std::vector<std::string> loader_hosts;  // --loader-hosts; empty = this machine
  SshConfig ssh;                          // --ssh, --ssh-config, --remote-zapbench
  std::string server_addr;                // --server-addr: what loaders dial; "" = the server host's address
  unsigned netns = 0;                     // --netns N: N loader hosts as namespaces of this machine (0: off)
  double link_delay_ms = 0;               // --link-delay (namespace mode)
  std::string link_rate;                  // --link-rate (namespace mode), tc's spelling
  [[nodiscard]] bool several() const { return netns > 0 || !loader_hosts.empty(); }
  // What loaders dial the server at.
  [[nodiscard]] std::string dial_address() const {
    return !server_addr.empty() ? server_addr : host_address(server_host);
  }
};

// What the user asked for; an empty list or an unset value means the mode's default.
struct RunRequest {
  bool full = false;
  std::string out_dir;
  unsigned repeats = 3;  // the first rounds: every cell gets this many
  // After the first rounds, the findings' cells get more until each finding
  // is within ±precision (stats::precise) or the whole run has taken the
  // budget; a budget of 0 stops after the first rounds.
  std::optional<double> precision, budget_s;
  double margin = stats::kMethod.margin;  // "equivalent": within 1 ± margin
  bool control = true;                    // run the control copy (RunPlan::control)
  std::optional<double> duration_s, warmup_s, micro_min_time_s;
  // Open loop: every cell's load at this total rate (requests/s, shared over
  // its connections and loader hosts); 0: closed loop (-c × -p in flight).
  double rate_per_s = 0;
  std::vector<unsigned> connections, pipelines;
  std::vector<Scenario> scenarios;
  std::vector<unsigned> logs;  // the logs scenario's N values (--logs)
  // The c100k scenario (bench/run/c100k.hpp), only when asked (--scenarios
  // c100k): after the end-to-end rounds, once per --io. c100k_only: --scenarios
  // named no other, so the run plans no cells.
  bool c100k = false, c100k_only = false;
  std::uint64_t c100k_connections = 100'000;  // --c100k-connections
  double c100k_hold_s = 10;                   // --c100k-hold: the sample's window with all of them held
  std::vector<Framing> framings;
  std::vector<std::string> bodies;
  std::vector<Arm> arms;
  // --io: the I/O interfaces of the servers that have both (zapbench's, the floor).
  std::vector<Io> ios;
  std::vector<int> server_cpus, loader_cpus;
  double noisy_spread = 0.10;
  // The arms' own flags as given (ArmHooks::flags: "--nginx" -> "/usr/sbin/nginx").
  std::map<std::string, std::string> arm_flags;
  // Arms already found (a test's, or a caller's that probed them); the rest
  // of the run's arms are found by their row's `find` in plan_run.
  std::map<Arm, FoundArm> found;
  bool micro = true;
  bool conformance = true;  // h2spec against the HTTP/2 arms after the rounds (--no-conformance: not)
  std::string micro_filter;
  unsigned micro_repetitions = 3;
  RunHosts hosts;
};

// The run as it will happen: every default resolved.
struct RunPlan {
  report::Config
      cfg;  // mode, first rounds, precision, budget, durations, CPUs, noise threshold, micro settings
  bool budget_given = false;  // --budget was given (a default budget grows to fit the first rounds)
  // Add the control copy of one cell (plan_cells): the same server, flags
  // and load, run as another cell in every round, so the report can show
  // what the method calls a difference where there is none.
  bool control = true;
  std::string out_dir;
  std::vector<unsigned> connections, pipelines;
  std::vector<Scenario> scenarios;
  std::vector<unsigned> logs;  // the logs scenario's N values (empty when it is not run)
  // The c100k scenario, as RunRequest's (not a cell: its own pass after the rounds).
  bool c100k = false;
  std::uint64_t c100k_connections = 100'000;
  double c100k_hold_s = 10;
  std::vector<Framing> framings;
  // rpc and logs body codecs (unavailable ones stay: reported, never dropped)
  std::vector<std::string> bodies;
  std::vector<Arm> arms;
  // The server's I/O interface (report::Cell::io), for the arms whose server
  // has both (zapbench's and the floor's event core); the other arms' servers
  // are their own, on epoll, whatever this says.
  std::vector<Io> ios;
  // Why this kernel refuses io_uring (net::probe_uring's describe()), "" when
  // it allows it or the run has no io_uring: its io_uring cells are then
  // planned unavailable with this reason, never dropped. plan_run asks the
  // kernel; a test sets it to plan a kernel that refuses.
  std::string io_uring_unavailable;
  bool micro = true;
  bool conformance = true;  // h2spec against the HTTP/2 arms (bench/run/conformance.hpp)
  std::string micro_filter;
  // Each arm of the run as found (ArmHooks::find), indexed by arm; the arms
  // not in the run are left empty.
  std::array<FoundArm, matrix::kArms.size()> found;
  [[nodiscard]] const FoundArm& arm(Arm a) const { return found[static_cast<std::size_t>(a)]; }
  // quick without --framings, --bodies, --connections or --pipeline: only
  // the cells that answer the main questions (quick_cell), not every
  // framing × body, and no cell with both connections and depth above 1.
  bool chosen_cells = false;
  RunHosts hosts;
  // The address every server listens on: 127.0.0.1 on one host, 0.0.0.0
  // when the loaders are on other hosts.
  std::string listen_host = "127.0.0.1";
  // The CPU the microbenchmarks are pinned to, on this machine (the
  // loader's first CPU; with hosts over ssh, this machine's last CPU).
  int micro_cpu = 0;
};

// Fills the defaults of the mode (quick: connections 1,16 and depth 1,16 but
// not both above 1, the fastest JSON codec, ZAP, the fastest binary peer and
// protobuf, logs N = 100, every arm but go-nethttp, 0.25 s samples after
// 0.25 s, only the chosen cells of quick_cell, microbenchmarks at 50 ms, the
// request path's and Logs rows of those bodies only, findings to ±3% within
// a 10-minute budget;
// full: 1,16,125,1000, every codec and every framing × body, logs N = 1, 100,
// 10000, every arm, 0.5 s samples after 0.5 s, microbenchmarks at 200 ms,
// findings to ±2% within 3 hours; both: 3 first rounds, the control copy,
// the servers on epoll and on io_uring (io_uring asked of the kernel);
// server on the first half of the allowed CPUs, loader on the rest) and
// checks the request (--logs: N from 1 to record::kMaxLogs, and only with the
// logs scenario). Throws std::invalid_argument with the message a user should see
// ("--server-cpus: CPU 9 is not available ...").
RunPlan plan_run(const RunRequest& request);

// The codec names --bodies may give: every codec of record's registry but
// zap-fresh (a benchmark variant of zap), available or not.
std::vector<std::string> body_names();

// A logs cell may have at most this many answer bytes in flight (connections
// × depth × N logs at kLogsBytesPerLogBound each, the largest codec's size
// rounded up): past it, the answers in flight would take seconds to drain
// (past the loader's timeout) and gigabytes of buffers, so such a cell is
// planned unavailable with the figures, not run.
inline constexpr double kLogsInFlightBudgetBytes = 2.0 * 1024 * 1024 * 1024;
inline constexpr double kLogsBytesPerLogBound = 1024;

// Whether quick's chosen cells include this one (RunPlan::chosen_cells): the
// cells that answer the main questions in ten minutes (docs/commands.md, "What
// --quick measures"): every framing on hello; on rpc the body axis on HTTP/1.1 (JSON,
// ZAP, the fastest peer), gRPC with protobuf and with ZAP (body share),
// ZAP-RPC with ZAP and with protobuf (framing share), ZAP-HTTP with ZAP (the
// reference's ZAP row); logs on HTTP/1.1 + JSON and ZAP-HTTP + ZAP; the Go
// reference's ZAP-HTTP hello and rpc cells and its HTTP/1.1 + JSON rpc cell
// (go-zip; go-fasthttp its rpc cell); nginx on both HTTP versions, the grpc++
// arm, the floor.
bool quick_cell(Arm arm, Scenario s, Framing f, const std::string& body, const std::string& json_body,
                const std::string& fastest_peer);

// One cell and what it needs to run.
struct CellPlan {
  report::Cell cell;
  ExchangeBytes floor;  // the floor arm's byte counts
};

// A sample's time beyond its warm-up and window: starting the server, the
// loader's connections and drain, stopping both (0.05 s measured on a 2-core
// VM; more with 1,000 connections).
inline constexpr double kSampleOverheadS = 0.1;
// The time a microbenchmark takes in a round, beyond its --micro-min-time:
// Google Benchmark's own calibration runs (measured: about as long again).
inline constexpr double kMicroCalibrationFactor = 2.0;
// With several hosts, also the ssh sessions of the server and each loader
// and the barrier (measured in the namespace mode on the same VM).
inline constexpr double kHostsSampleOverheadS = 1.0;

// Every cell, in run order: each arm of the run in matrix::kArms's order adds
// its own through its row of the arm table (bench/plan/arm.hpp): zapbench (scenario x framing x body; logs
// also x N), the Go arms (hello and rpc: the same cells but one JSON body, the first available: the Go server
// decodes every JSON body with its own codec; what the Go build cannot serve is unavailable with its reason;
// the Go reference has no /logs, so no logs cells), nginx (hello over HTTP/1.1), floor (per scenario, and per
// N for logs), each x connections x depth. A cell that cannot run carries the reason in cell.unavailable (a
// logs body codec without the record, a logs cell over kLogsInFlightBudgetBytes). Last, with plan.control,
// the control copy of the first cell of control_order() that the plan has and can run
// (report::Cell::control). Each cell of zapbench and of the floor is planned once per I/O interface
// of plan.ios, io_uring right after epoll — with epoll too, io_uring copies of the cells the arm's
// row names (ArmRow::io_uring_copy): in quick's chosen cells the headline ones (zapbench's rpc
// ZAP cells, the floor's rpc cells), else zapbench's ZAP, fastest-JSON and hello cells and every
// floor cell. The io_uring cells carry
// plan.io_uring_unavailable when the kernel refuses it. `floor_bytes_of` measures the floor's byte
// counts (exchange.hpp).
std::vector<CellPlan> plan_cells(const RunPlan& plan,
                                 ExchangeBytes (*floor_bytes_of)(Scenario, unsigned) = floor_bytes);

// The cells a control copy is made of, in preference: the headline ZAP cells
// (ZAP-RPC + ZAP, rpc, epoll, deepest depth, fewest connections), else any
// zapbench cell that runs (on epoll first). Index into cells; cells.size() when none can run.
std::size_t control_of(const std::vector<CellPlan>& cells);

// The load that measures a cell against a server on 127.0.0.1:port (with
// several hosts, on RunHosts::dial_address()).
load::Options load_options(const RunPlan& plan, const CellPlan& cp, std::uint16_t port);

// "rpc zapbench http+simdjson c16 p1", "logs N=100 zapbench zap+zap c1 p16",
// "rpc floor tcp c1 p16 io_uring" (an io_uring cell's ends in its io),
// "rpc go-zip zap-rpc+zap c1 p1 [zap-proto/go v1.8.1 ZAP-RPC]" (its server
// when the arm does not name it): a cell in progress lines and notes.
std::string cell_label(const report::Cell& c);

}  // namespace bench
