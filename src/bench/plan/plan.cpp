// bench/plan/plan.cpp — defaults, checks, cells and the children's command lines
// of a run (plan.hpp).
#include "bench/plan/plan.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "bench/plan/arm.hpp"
#include "bench/plan/cells.hpp"
#include "net/affinity.hpp"
#include "net/uring.hpp"
#include "proc/machine.hpp"
#include "record/logs.hpp"
#include "record/registry.hpp"

namespace bench {
namespace {

void check_cpus(const char* flag, const std::vector<int>& asked, const std::vector<int>& allowed) {
  for (int c : asked)
    if (std::find(allowed.begin(), allowed.end(), c) == allowed.end())
      throw std::invalid_argument(std::string(flag) + ": CPU " + std::to_string(c) +
                                  " is not available to this process (" + net::cpu_list_text(allowed) + ")");
}

// Why a logs cell of n logs at c connections and depth d is not run ("" when it is).
std::string logs_over_budget(unsigned n, unsigned c, unsigned d) {
  const double bytes = double(n) * kLogsBytesPerLogBound * double(c) * double(d);
  if (bytes <= kLogsInFlightBudgetBytes) return "";
  char b[200];
  std::snprintf(
      b, sizeof b,
      "c %u x depth %u x %u logs: up to %.2g GB of answers in flight (~%g bytes a log), over the %g "
      "GiB a logs cell may hold",
      c, d, n, bytes / 1e9, kLogsBytesPerLogBound, kLogsInFlightBudgetBytes / (1024.0 * 1024 * 1024));
  return b;
}

}  // namespace

std::vector<std::string> body_names() {
  std::vector<std::string> known;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.name != "zap-fresh") known.emplace_back(c.name);
  return known;
}

// Where the server and the loaders run: their CPUs here (by default the
// first and the second half of the allowed ones, checked), or the hosts'
// (checked there by the preflight), the hosts' flags checked together.
namespace {
void place(RunPlan& p, const RunRequest& q) {
  const std::vector<int> cpus = proc::allowed_cpus();
  p.cfg.server_cpus = q.server_cpus;
  p.cfg.loader_cpus = q.loader_cpus;
  const std::size_t half = std::max<std::size_t>(1, cpus.size() / 2);
  if (p.cfg.server_cpus.empty())
    p.cfg.server_cpus.assign(cpus.begin(), cpus.begin() + static_cast<long>(half));
  if (p.cfg.loader_cpus.empty())
    p.cfg.loader_cpus =
        cpus.size() > 1 ? std::vector<int>(cpus.begin() + static_cast<long>(half), cpus.end()) : cpus;
  p.hosts = q.hosts;
  const RunHosts& h = q.hosts;
  if (h.netns > 0 && (!h.server_host.empty() || !h.loader_hosts.empty() || !h.server_addr.empty()))
    throw std::invalid_argument(
        "--netns builds its own hosts: it takes no --server-host, --loader-hosts or --server-addr");
  if ((h.link_delay_ms > 0 || !h.link_rate.empty()) && h.netns == 0)
    throw std::invalid_argument(
        "--link-delay and --link-rate shape the namespace mode's link: give --netns N");
  if (h.server_host.empty() != h.loader_hosts.empty())
    throw std::invalid_argument(
        "--server-host and --loader-hosts go together: the server on one host, the loaders on others");
  const bool over_ssh = !h.loader_hosts.empty();
  if (!over_ssh && !h.server_addr.empty())
    throw std::invalid_argument("--server-addr is for --server-host (what the loader hosts dial)");
  if (over_ssh) {
    // The CPUs are the hosts', checked there by the preflight; by default
    // all of each host's (apply_host_cpus, after the preflight).
    p.cfg.server_cpus = q.server_cpus;
    p.cfg.loader_cpus = q.loader_cpus;
    p.micro_cpu = cpus.back();
  } else {
    check_cpus("--server-cpus", p.cfg.server_cpus, cpus);
    check_cpus("--loader-cpus", p.cfg.loader_cpus, cpus);
    p.micro_cpu = p.cfg.loader_cpus.front();
  }
  if (p.hosts.several()) p.listen_host = "0.0.0.0";
}
}  // namespace

RunPlan plan_run(const RunRequest& q) {
  RunPlan p;
  const bool full = q.full;
  p.cfg.mode = full ? "full" : "quick";
  p.cfg.repeats = q.repeats;
  // Short samples, many rounds: a sample's noise on a shared VM is the same
  // at 0.25 s as at 0.5 s and at 3 s (measured, issue 31's note), so rounds,
  // not length, are what narrows an interval. The full run's 1,000
  // connections take the longer window and warm-up.
  p.cfg.duration_s = q.duration_s.value_or(full ? 0.5 : 0.25);
  p.cfg.warmup_s = q.warmup_s.value_or(full ? 0.5 : 0.25);
  p.cfg.precision = q.precision.value_or(full ? 0.02 : 0.03);
  p.budget_given = q.budget_s.has_value();
  p.cfg.budget_s = q.budget_s.value_or(full ? 3 * 3600.0 : 600.0);
  p.cfg.margin = q.margin;
  p.control = q.control;
  p.cfg.noisy_spread = q.noisy_spread;
  p.cfg.rate_per_s = q.rate_per_s;
  p.micro = q.micro;
  p.conformance = q.conformance;
  p.micro_filter = q.micro_filter;  // quick's default is set below, from its bodies
  p.cfg.micro_repetitions = q.micro ? q.micro_repetitions : 0;
  p.cfg.micro_min_time_s = q.micro_min_time_s.value_or(full ? 0.2 : 0.05);
  p.connections = !q.connections.empty() ? q.connections
                  : full                 ? std::vector<unsigned>{1, 16, 125, 1000}
                                         : std::vector<unsigned>{1, 16};
  p.pipelines = !q.pipelines.empty() ? q.pipelines : std::vector<unsigned>{1, 16};
  for (unsigned d : p.pipelines)
    if (d > 1024) throw std::invalid_argument("--pipeline wants depths of 1..1024");
  p.scenarios = !q.scenarios.empty() ? q.scenarios
                : q.c100k_only       ? std::vector<Scenario>{}
                               : std::vector<Scenario>(matrix::kScenarios.begin(), matrix::kScenarios.end());
  p.c100k = q.c100k || q.c100k_only;
  p.c100k_connections = q.c100k_connections;
  p.c100k_hold_s = q.c100k_hold_s;
  const bool logs_on = std::find(p.scenarios.begin(), p.scenarios.end(), Scenario::logs) != p.scenarios.end();
  if (!q.logs.empty() && !logs_on)
    throw std::invalid_argument("--logs is for the logs scenario, which --scenarios leaves out");
  for (unsigned n : q.logs)
    if (n < 1 || n > record::kMaxLogs)
      throw std::invalid_argument("--logs wants N from 1 to " + std::to_string(record::kMaxLogs) + ", got " +
                                  std::to_string(n));
  if (logs_on)
    p.logs = !q.logs.empty() ? q.logs
             : full          ? std::vector<unsigned>{1, 100, 10'000}
                             : std::vector<unsigned>{100};
  p.framings = !q.framings.empty() ? q.framings
                                   : std::vector<Framing>{Framing::http1, Framing::http2, Framing::grpc,
                                                          Framing::zap_http, Framing::zap_rpc};
  p.chosen_cells =
      !full && q.framings.empty() && q.bodies.empty() && q.connections.empty() && q.pipelines.empty();
  // Both I/O interfaces by default (quick: io_uring for the headline cells only, io_uring_copy); in
  // matrix order whatever the order given (an io_uring cell right after its epoll one), each once.
  for (Io io : matrix::kIos)
    if (q.ios.empty() || std::find(q.ios.begin(), q.ios.end(), io) != q.ios.end()) p.ios.push_back(io);
  if (std::find(p.ios.begin(), p.ios.end(), Io::io_uring) != p.ios.end())
    if (const net::UringSupport uring = net::probe_uring(); !uring.available)
      p.io_uring_unavailable = uring.describe();
  if (!q.arms.empty()) {
    p.arms = q.arms;
  } else {
    // quick keeps the reference's own two frameworks; net/http is the full run's third Go row.
    for (Arm a : matrix::kArms)
      if (full || matrix::facts(a).quick) p.arms.push_back(a);
  }
  if (!q.bodies.empty())
    p.bodies = q.bodies;
  else if (full)
    p.bodies = body_names();  // unavailable ones too: they are reported as unavailable, never dropped
  else {
    p.bodies = {std::string(record::default_json_codec().name), "zap"};
    // And the fastest binary peer (codecs.table's rank: Handler/<codec> as
    // micro measures it), and protobuf: gRPC's own body.
    if (const record::CodecInfo* peer = record::fastest_binary_peer()) p.bodies.emplace_back(peer->name);
    if (std::find(p.bodies.begin(), p.bodies.end(), "protobuf") == p.bodies.end())
      p.bodies.emplace_back("protobuf");
  }

  if (!full && p.micro_filter.empty()) {
    // quick: every codec row (and each op's limit) and the HTTP/1.1 rows;
    // the request path's rows for the run's bodies only; the Logs rows (five
    // ops at five N per codec: two thirds of all microbenchmarks) at N = 1,
    // 100 and 10 000, with their limits, for the run's bodies and every binary
    // peer (ZAP against each of them on every op is a question quick answers).
    // A regex Google Benchmark and Go's regexp both read (no lookahead).
    std::string bodies, logs_codecs;
    for (const std::string& b : p.bodies) bodies += (bodies.empty() ? "" : "|") + b;
    logs_codecs = bodies;
    for (const record::CodecInfo& c : record::all_codecs())
      if (c.available && c.family() == matrix::Family::peer &&
          std::find(p.bodies.begin(), p.bodies.end(), c.name) == p.bodies.end())
        logs_codecs += "|" + std::string(c.name);
    p.micro_filter = "^(Decode|Encode|Serde|Handler|Http)/|^Server/[a-z0-9-]+/(hello|" + bodies +
                     ")$|^Logs/(Copy|ScanField/structs)/|^Logs/[A-Za-z]+/(go/)?(" + logs_codecs +
                     ")/(1|100|10000)$";
  }

  place(p, q);

  // Every arm found once, in the run or not (results.json records each one's versions, or why it
  // cannot run); rows that share hooks (the Go arms) share what was found.
  std::map<const ArmHooks*, FoundArm> found_by_hooks;
  for (Arm a : matrix::kArms) {
    FoundArm& f = p.found[static_cast<std::size_t>(a)];
    if (const auto given = q.found.find(a); given != q.found.end()) {
      f = given->second;
      continue;
    }
    const ArmHooks& hooks = arm_hooks(a);
    auto it = found_by_hooks.find(&hooks);
    if (it == found_by_hooks.end()) it = found_by_hooks.emplace(&hooks, hooks.find(q.arm_flags)).first;
    f = it->second;
  }
  p.out_dir = !q.out_dir.empty() ? q.out_dir : "results/" + proc::utc_now("%Y-%m-%dT%H%M%SZ");
  return p;
}

std::string codec_unavailable(const std::string& name) {
  const record::CodecInfo* c = record::find_codec(name);
  if (c == nullptr) return "unknown codec";
  if (!c->available) return std::string(c->unavailable_reason);
  if (c->trusted_input_only)
    return "for trusted input only: its decoder does not verify, so a server never answers with it";
  return "";
}

std::string logs_unavailable(const std::string& name) {
  if (std::string why = codec_unavailable(name); !why.empty()) return why;
  if (!record::find_codec(name)->has_logs) return "no logs record in this codec yet (record::LogsCodec)";
  return "";
}

CellPlanner::CellPlanner(const RunPlan& plan, std::vector<CellPlan>& cells,
                         ExchangeBytes (*floor_bytes_of)(Scenario, unsigned))
    : p_(plan), out_(cells), floor_bytes_of_(floor_bytes_of), json_body_(record::default_json_codec().name) {
  const record::CodecInfo* peer = record::fastest_binary_peer();
  peer_body_ = peer != nullptr ? std::string(peer->name) : "";
}

bool CellPlanner::arm_on(Arm a) const {
  return std::find(p_.arms.begin(), p_.arms.end(), a) != p_.arms.end();
}
bool CellPlanner::scenario_on(Scenario s) const {
  return std::find(p_.scenarios.begin(), p_.scenarios.end(), s) != p_.scenarios.end();
}
bool CellPlanner::framing_on(Framing f) const {
  return std::find(p_.framings.begin(), p_.framings.end(), f) != p_.framings.end();
}

bool CellPlanner::chosen(Arm a, Scenario s, Framing f, const std::string& b) const {
  return !p_.chosen_cells || quick_cell(a, s, f, b, json_body_, peer_body_);
}

std::vector<Io> CellPlanner::ios(Arm arm, Scenario scenario, const std::string& body) const {
  // The other arms' servers are not ours: epoll, their only one.
  const ArmHooks& row = arm_hooks(arm);
  if (row.io_uring_copy == nullptr) return {Io::epoll};
  const bool epoll = std::find(p_.ios.begin(), p_.ios.end(), Io::epoll) != p_.ios.end();
  std::vector<Io> out;
  for (Io io : p_.ios)
    // Beside their epoll originals, io_uring copies of the cells the row names; io_uring alone: all.
    if (io == Io::epoll || !epoll || row.io_uring_copy(scenario, body, p_.chosen_cells, json_body_))
      out.push_back(io);
  return out;
}

void CellPlanner::add(Arm arm, Scenario scenario, Framing framing, const std::string& body,
                      const std::string& unavailable, ExchangeBytes floor, unsigned logs,
                      const std::string& server_codec) {
  const std::vector<Io> ios = this->ios(arm, scenario, body);
  for (unsigned c : p_.connections)
    for (unsigned d : p_.pipelines) {
      // quick's chosen cells: depth 16 on one connection only (what pipelining and multiplexing win
      // on a connection); 16 connections at depth 1 (what concurrency does).
      if (p_.chosen_cells && c > 1 && d > 1) continue;
      for (Io io : ios) {  // io_uring right after epoll: the pair a finding compares runs side by side
        CellPlan cp;
        cp.cell.io = io;
        cp.cell.arm = arm;
        cp.cell.scenario = scenario;
        cp.cell.logs = logs;
        cp.cell.framing = framing;
        cp.cell.body = body;
        cp.cell.connections = c;
        cp.cell.pipeline = d;
        cp.cell.unavailable = unavailable;
        cp.cell.server_codec = server_codec;
        if (cp.cell.unavailable.empty() && scenario == Scenario::logs)
          cp.cell.unavailable = logs_over_budget(logs, c, d);
        if (cp.cell.unavailable.empty() && io == Io::io_uring) cp.cell.unavailable = p_.io_uring_unavailable;
        cp.floor = floor;
        out_.push_back(std::move(cp));
      }
    }
}

std::vector<CellPlan> plan_cells(const RunPlan& p, ExchangeBytes (*floor_bytes_of)(Scenario, unsigned)) {
  std::vector<CellPlan> out;
  CellPlanner planner(p, out, floor_bytes_of);
  for (Arm a : matrix::kArms)
    if (planner.arm_on(a)) arm_hooks(a).cells(planner, a);
  // The control copy last: the original runs elsewhere in every round.
  if (p.control)
    if (const std::size_t k = control_of(out); k < out.size()) {
      CellPlan copy = out[k];
      copy.cell.control = true;
      out.push_back(std::move(copy));
    }
  return out;
}

std::size_t control_of(const std::vector<CellPlan>& cells) {
  std::size_t best = cells.size();
  auto better = [&](const report::Cell& c, const report::Cell& b) {
    // The headline first: ZAP-RPC + ZAP on rpc, on epoll, then the deepest depth, then the fewest
    // connections.
    auto key = [](const report::Cell& x) {
      return std::make_tuple(
          !(x.framing == Framing::zap_rpc && x.body == "zap" && x.scenario == Scenario::rpc),
          x.io != Io::epoll, -int(x.pipeline), x.connections);
    };
    return key(c) < key(b);
  };
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const report::Cell& c = cells[i].cell;
    if (c.arm != matrix::kSubject || c.control || !c.unavailable.empty()) continue;
    if (best == cells.size() || better(c, cells[best].cell)) best = i;
  }
  return best;
}

bool quick_cell(Arm arm, Scenario s, Framing f, const std::string& b, const std::string& json,
                const std::string& peer) {
  return arm_hooks(arm).quick(arm, s, f, b, json, peer);
}

load::Options load_options(const RunPlan& p, const CellPlan& cp, std::uint16_t port) {
  const report::Cell& c = cp.cell;
  load::Options o;
  o.host = p.hosts.several() ? p.hosts.dial_address() : "127.0.0.1";
  o.port = port;
  o.connections = c.connections;
  o.pipeline = c.pipeline;
  o.threads = std::min<unsigned>(static_cast<unsigned>(p.cfg.loader_cpus.size()), c.connections);
  o.cpus = p.cfg.loader_cpus;
  o.duration_s = p.cfg.duration_s;
  o.warmup_s = p.cfg.warmup_s;
  o.rate_per_s = p.cfg.rate_per_s;
  if (c.framing == Framing::raw_tcp) {  // the floor: byte counts, no protocol
    o.framing = Framing::raw_tcp;
    o.floor_request_bytes = cp.floor.request;
    o.floor_response_bytes = cp.floor.response;
    return o;
  }
  o.framing = c.framing;
  o.scenario = c.scenario;
  if (c.scenario != Scenario::hello) o.body = record::find_codec(c.body);
  if (c.scenario == Scenario::logs) o.logs = c.logs;
  return o;
}

std::string cell_label(const report::Cell& c) {
  std::string s =
      c.scenario_label() + " " + std::string(to_string(c.arm)) + " " + std::string(to_string(c.framing));
  if (!c.body.empty()) s += "+" + c.body;
  return s + " c" + std::to_string(c.connections) + " p" + std::to_string(c.pipeline) +
         (c.io != Io::epoll ? " " + std::string(to_string(c.io)) : "") + (c.control ? " (control)" : "") +
         (c.server.empty() ? "" : " [" + c.server + "]");
}

}  // namespace bench
