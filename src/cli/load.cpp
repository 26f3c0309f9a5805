// cli/load.cpp — `zapbench load`: its flag table to load::Options, a live
// progress line on a terminal, the report, and --json-out (the file is
// bench/children/load_result.hpp's, the module `zapbench run` reads it back with).
// Three more forms share the flags and the one report printer: the
// coordinated loader (--coordinated, docs/spec/hosts.md §4: the line
// protocol on stdin/stdout), the load over several loader hosts
// (--loader-hosts, bench/hosts/loaders.hpp) and the merge of result files
// (--merge). Owns no protocol: the coordinated loader's is
// bench/hosts/coordinated_loader.hpp's.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "bench/hosts/coordinated_loader.hpp"
#include "bench/hosts/loaders.hpp"
#include "bench/hosts/ssh.hpp"
#include "cli/args.hpp"
#include "cli/codec_flags.hpp"
#include "cli/commands.hpp"
#include "cli/host_flags.hpp"
#include "cli/identity.hpp"
#include "cli/matrix_choices.hpp"
#include "flags/flags.hpp"
#include "load/engine.hpp"

namespace cli {
namespace {

std::string us(std::uint64_t ns) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", double(ns) / 1000.0);
  return b;
}

// Set by SIGINT/SIGTERM; the engine's threads poll it (Options::stop).
std::atomic<bool> g_stop{false};
volatile std::sig_atomic_t g_stop_signal = 0;
static_assert(std::atomic<bool>::is_always_lock_free, "g_stop is set from a signal handler");

void on_stop_signal(int sig) {
  g_stop_signal = sig;
  g_stop.store(true, std::memory_order_relaxed);
}

// The coordinator's `stop` (--coordinated): as SIGINT, exit 130.
void stop_as_sigint() {
  if (g_stop_signal == 0) g_stop_signal = SIGINT;
  g_stop.store(true, std::memory_order_relaxed);
}

std::string addr_text(const load::Options& o) { return flags::to_string(flags::HostPort{o.host, o.port}); }

// The report of one load, a merge of several, or a coordinated loader's (on
// stderr): every path prints it here. `stopped_by` names what stopped a
// stopped window.
void print_report(std::FILE* f, const load::Options& o, const load::Result& r,
                  const std::string& stopped_by) {
  const bool floor = o.framing == matrix::Framing::raw_tcp;
  const std::string framing(matrix::to_string(o.framing));
  const bool rpc = !floor && o.scenario == matrix::Scenario::rpc;
  const bool logs = !floor && o.scenario == matrix::Scenario::logs;
  const std::string scenario = floor ? "" : std::string(matrix::to_string(o.scenario));
  const std::string body_name = (rpc || logs) && o.body != nullptr ? std::string(o.body->name) : "";
  std::string what = rpc || logs ? scenario + " body " + body_name : scenario;
  if (logs) what = "logs N=" + std::to_string(o.logs) + " body " + body_name;
  if (floor)
    what = std::to_string(o.floor_request_bytes) + " B requests, " + std::to_string(o.floor_response_bytes) +
           " B responses";
  std::fprintf(
      f, "zapbench load: %s %s at %s, %u connections, %u threads, pipeline %u, %.1f s (+%.1f s warm-up)\n",
      framing.c_str(), what.c_str(), addr_text(o).c_str(), o.connections, o.threads, o.pipeline, o.duration_s,
      o.warmup_s);
  // Per second of the window; 0 for an empty one (stopped in the warm-up).
  const auto per_s = [&](double n) { return r.elapsed_s > 0 ? n / r.elapsed_s : 0.0; };
  if (r.stopped)
    std::fprintf(f, "  STOPPED by %s after %.2f s of the window: the figures cover that part only\n",
                 stopped_by.c_str(), r.elapsed_s);
  std::fprintf(f,
               "  requests/s   %.1f (%llu responses, %llu requests sent, %llu of %u connections answered)\n",
               r.rate_per_s(), static_cast<unsigned long long>(r.responses),
               static_cast<unsigned long long>(r.requests),
               static_cast<unsigned long long>(r.connections_answered), o.connections);
  if (o.rate_per_s > 0) {
    const double achieved = per_s(double(r.requests));
    std::fprintf(f, "  rate         intended %.1f/s, achieved %.1f/s\n", o.rate_per_s, achieved);
    if (achieved < 0.95 * o.rate_per_s)
      std::fprintf(
          f,
          "  WARNING: the loader could NOT keep the intended rate (%.0f%% of it): latencies include the "
          "backlog\n",
          100.0 * achieved / o.rate_per_s);
  }
  std::fprintf(f, "  bytes/s      sent %.0f, received %.0f\n", per_s(double(r.bytes_sent)),
               per_s(double(r.bytes_received)));
  std::fprintf(f, "  MB/s         %.1f of responses (10^6 bytes received per second)\n",
               r.received_mb_per_s());
  const load::Histogram& h = r.latency;
  std::fprintf(f, "  latency us   p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %.1f  stdev %.1f%s\n",
               us(h.value_at_percentile(50)).c_str(), us(h.value_at_percentile(90)).c_str(),
               us(h.value_at_percentile(99)).c_str(), us(h.value_at_percentile(99.9)).c_str(),
               us(h.max()).c_str(), h.mean() / 1000, h.stdev() / 1000,
               o.rate_per_s > 0 ? "  (from intended send times)" : "");
  if (o.rate_per_s > 0) {
    const load::Histogram& u = r.latency_actual;
    std::fprintf(f, "  uncorrected  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (from actual send times)\n",
                 us(u.value_at_percentile(50)).c_str(), us(u.value_at_percentile(90)).c_str(),
                 us(u.value_at_percentile(99)).c_str(), us(u.value_at_percentile(99.9)).c_str(),
                 us(u.max()).c_str());
  }
  std::fprintf(f, "  errors       %llu", static_cast<unsigned long long>(r.error_total()));
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k)
    if (r.errors[k] != 0)
      std::fprintf(f, "  %.*s %llu", int(load::describe(load::ErrorKind(k)).size()),
                   load::describe(load::ErrorKind(k)).data(), static_cast<unsigned long long>(r.errors[k]));
  std::fprintf(f, "\n  loader CPU   user %.2f s, sys %.2f s\n", r.cpu_user_s, r.cpu_sys_s);
}

void write_result(const std::string& path, const load::Options& o, const load::Result& r) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bench::load_result_json(o, r);
  if (!f) die("--json-out: cannot write " + path);
}

// `zapbench load --merge FILE...`: the files' exact merge, reported as a load.
int merge_files(const std::vector<std::string>& files, const std::string& json_out) {
  std::vector<bench::LoadReport> reports;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) die("load --merge: cannot read " + file);
    try {
      reports.push_back(bench::parse_load_result(proc::read_file(file)));
    } catch (const std::exception& e) {
      die("load --merge: " + file + ": " + e.what());
    }
  }
  bench::LoadReport m;
  try {
    m = bench::merge_load_reports(reports, files);
  } catch (const std::exception& e) {
    die(std::string("load --merge: ") + e.what());
  }
  std::printf("merged %zu load results\n", files.size());
  print_report(stdout, m.options, m.result, "a signal on one of the loaders");
  if (!json_out.empty()) write_result(json_out, m.options, m.result);
  return 0;
}

// `zapbench load --loader-hosts H,...`: the whole load `o` over those hosts.
int load_on_hosts(const load::Options& o, const std::vector<std::string>& hosts, const bench::SshConfig& ssh,
                  const std::string& json_out) {
  // Every host checked before anything is measured (docs/spec/hosts.md §2):
  // reachable, the same build, the CPUs --cpus pins to.
  std::vector<bench::HostCheck> checks;
  for (const std::string& h : hosts) checks.push_back({h, "loader", o.cpus});
  try {
    for (const bench::HostInfo& i : bench::preflight(ssh, checks, version_line()))
      std::printf("  loader host %s: %s, %u CPUs\n", i.host.c_str(), i.cpu_model.c_str(), i.cpu_count);
  } catch (const std::exception& e) {
    die(std::string("load: preflight: ") + e.what());
  }
  bench::LoaderRun run;
  run.ssh = ssh;
  run.hosts = hosts;
  run.options = o;
  run.options.stop = nullptr;
  run.stop = &g_stop;
  // The loaders' logs beside the result file; without one, in a private
  // directory removed at the end (a failure's reason already carries the
  // last line of its host's log).
  std::optional<proc::TempDir> scratch;
  if (json_out.empty()) {
    try {
      scratch.emplace("zapbench-load-");
    } catch (const std::exception& e) {
      die(std::string("load: ") + e.what());
    }
  }
  run.log_prefix = json_out.empty() ? (scratch->path() / "host").string() : json_out + ".host";
  bench::MultiLoad m;
  try {
    m = bench::run_loaders(run);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "zapbench: load: %s\n", e.what());
    return 1;
  }
  if (m.merged) print_report(stdout, m.merged->options, m.merged->result, "a signal on one of the loaders");
  std::printf("  loader hosts %zu, start skew <= %s us%s\n", hosts.size(),
              m.start_skew_ns >= 0 ? us(std::uint64_t(m.start_skew_ns)).c_str() : "-",
              json_out.empty() ? "" : (" (logs: " + run.log_prefix + "<i>.log)").c_str());
  for (std::size_t i = 0; i < m.hosts.size(); ++i) {
    const bench::LoaderHostResult& h = m.hosts[i];
    if (h.report) {
      const load::Result& r = h.report->result;
      std::printf(
          "  host %-16s responses %llu  requests/s %.1f  p99 %s us  go->first send %s us  go RTT %s us%s%s\n",
          h.host.c_str(), static_cast<unsigned long long>(r.responses), r.rate_per_s(),
          us(r.latency.value_at_percentile(99)).c_str(),
          h.go_to_first_send_ns >= 0 ? us(std::uint64_t(h.go_to_first_send_ns)).c_str() : "-",
          h.go_rtt_ns >= 0 ? us(std::uint64_t(h.go_rtt_ns)).c_str() : "-",
          h.failure.empty() ? "" : "  FAILED: ", h.failure.c_str());
      if (!json_out.empty())
        write_result(json_out + ".host" + std::to_string(i + 1) + ".json", h.report->options, r);
    } else {
      std::printf("  host %-16s %s\n", h.host.c_str(),
                  h.failure.empty() ? "did not run" : ("FAILED: " + h.failure).c_str());
    }
  }
  for (const std::string& n : m.notes) std::printf("  note: %s\n", n.c_str());
  if (m.merged && !json_out.empty()) write_result(json_out, m.merged->options, m.merged->result);
  if (g_stop.load()) return 128 + int(g_stop_signal);
  if (!m.failure.empty()) {
    std::fprintf(stderr, "zapbench load: %s\n", m.failure.c_str());
    return 1;
  }
  return 0;
}

// The engine run with a progress line on a terminal (stdout).
load::Result run_with_progress(const load::Options& o) {
  load::Progress progress;
  std::atomic<bool> done{false};
  std::thread ticker;
  if (isatty(STDOUT_FILENO)) {
    ticker = std::thread([&] {
      const auto t0 = std::chrono::steady_clock::now();
      while (!done.load()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("\r  %5.1f s / %.1f s  responses %llu  errors %llu   ", s, o.warmup_s + o.duration_s,
                    static_cast<unsigned long long>(progress.responses.load()),
                    static_cast<unsigned long long>(progress.errors.load()));
        std::fflush(stdout);
      }
      std::printf("\r%72s\r", "");
    });
  }
  load::Result r;
  try {
    r = load::run(o, &progress);
  } catch (...) {
    done = true;
    if (ticker.joinable()) ticker.join();
    throw;
  }
  done = true;
  if (ticker.joinable()) ticker.join();
  return r;
}

// `zapbench load` from this machine, or as one coordinated loader host's part
// (bench/hosts/coordinated_loader.hpp: its report on stderr, the result file
// on stdout); the report, the result file, the exit code.
int load_here(load::Options o, bool coordinated, const std::string& json_out) {
  o.stop = &g_stop;
  load::Result r;
  try {
    r = coordinated ? bench::run_coordinated_load(o, stop_as_sigint) : run_with_progress(o);
  } catch (const std::exception& e) {
    die(std::string("load: ") + e.what());
  }
  const int stop_signal = r.stopped ? int(g_stop_signal) : 0;
  print_report(coordinated ? stderr : stdout, o, r, stop_signal == SIGTERM ? "SIGTERM" : "SIGINT");
  if (!json_out.empty()) write_result(json_out, o, r);
  if (coordinated) bench::send_load_result(o, r);
  return r.stopped ? 128 + stop_signal : 0;
}

}  // namespace

int cmd_load(int argc, char** argv) {
  // --merge FILE...: its files are taken here (the table has no list of
  // positionals); what is left is parsed with the table, to refuse any flag
  // of a load beside it.
  std::vector<std::string> merge_files_given;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    args.push_back(argv[i]);
    if (std::string_view(argv[i]) == "--merge")
      while (i + 1 < argc && argv[i + 1][0] != '-') merge_files_given.emplace_back(argv[++i]);
  }
  args.push_back(nullptr);
  argc = int(args.size()) - 1;
  argv = args.data();

  load::Options o;
  flags::HostPort addr;
  std::string body, json_name, json_out;
  std::vector<std::string> hosts;
  bool coordinated = false, merge = false;
  bench::SshConfig ssh;
  flags::Table t("load");
  t.summary(std::string(summary("load")));
  t.usage("--framing http|zap|zap-rpc|http2 --addr HOST:PORT --scenario hello|rpc [--body CODEC] [options]");
  t.usage(
      "--framing http|zap|zap-rpc|http2 --addr HOST:PORT --scenario logs [--logs N] [--body CODEC] "
      "[options]");
  t.usage("--framing grpc --addr HOST:PORT --scenario rpc [--body CODEC] [options]");
  t.usage("--framing tcp --addr HOST:PORT --request-bytes N --response-bytes M [options]");
  t.usage(
      "<a load's flags> --loader-hosts HOST,HOST... [--ssh PROGRAM] [--ssh-config FILE] [--remote-zapbench "
      "PATH]");
  t.usage("--merge FILE FILE... [--json-out FILE]");
  t.about(
      "One load engine for every framing. Every response is parsed and validated (status\n"
      "200; hello: body 'ok'; rpc: the body decodes with the same codec, echoes the\n"
      "request id and carries the balance the record's compute gives; logs: the\n"
      "codec's content type (zap-rpc has none: the method names the codec), and\n"
      "every field of every log read with the codec and folded into a digest equal\n"
      "to that of the N logs asked for); every latency is recorded (no sampling) in\n"
      "a log-linear histogram (relative error < 1/2048).\n"
      "Closed loop by default: -c connections, each keeping -p requests in flight.\n"
      "With --rate, an open loop: requests on a fixed schedule spread over the\n"
      "connections, latency measured from each request's intended send time\n"
      "(coordinated omission corrected, as wrk2 does); the uncorrected latency is\n"
      "reported beside it. Connections open before the warm-up; nothing in the\n"
      "warm-up is recorded. Errors are counted by kind: connect, read, write,\n"
      "timeout, status, validation, closed (requests left unanswered when the\n"
      "server closed the connection), and unknown_promise (zap-rpc: an answer to no\n"
      "call in flight; the connection goes on); the loader reconnects after the\n"
      "others. After the window, the requests still in flight are waited for until\n"
      "answered or timed out (--timeout-ms), so every request of the window is\n"
      "accounted for.\n"
      "SIGINT (Ctrl-C) or SIGTERM ends the window early: the results so far are\n"
      "printed and written as usual (marked stopped), and the exit code is 130 or 143;\n"
      "a second one ends the process at once.\n"
      "With --framing zap-rpc (ZAP-RPC, against 'zapbench serve --zap-rpc'), calls are\n"
      "matched to their answers by PromiseID, in any order.\n"
      "With --framing http2 (HTTP/2 in cleartext, prior knowledge, against 'zapbench serve\n"
      "--http2'), each request is a stream and -p is the streams open at once per\n"
      "connection: the first request waits for the server's SETTINGS, and a depth above\n"
      "its SETTINGS_MAX_CONCURRENT_STREAMS refuses the run. With --framing grpc, every\n"
      "call is the gRPC method zapbench.Eth/Call on that framing (--scenario rpc only;\n"
      "the body codec is named by the content-subtype, application/grpc for protobuf);\n"
      "an answer must carry one message and grpc-status 0. A stream the server resets\n"
      "counts its call as closed; the connection goes on. Bytes are the connection's\n"
      "HTTP/2 bytes (frames, HPACK, settings, window updates) shared over the answers.\n"
      "With --framing tcp (or floor, its older name; against 'zapbench floor'), the floor\n"
      "arm, raw TCP: every request is\n"
      "the same N bytes and every M bytes received count as one valid response, with\n"
      "no parsing or validation; --scenario and --body do not apply.\n"
      "Durations take a unit (10s, 500ms, 1m; a plain number is seconds), rates a\n"
      "count per second (1000 or 1000/s).\n"
      "With --loader-hosts, the load (its flags describe the whole load) is spread over\n"
      "those hosts, each running 'zapbench load --coordinated' with its share over ssh\n"
      "(docs/spec/hosts.md): connections, and the rate of an open loop, split as evenly\n"
      "as possible, the first hosts taking the remainder; threads per host at most its\n"
      "connections. All windows start together (a start barrier; the start skew printed\n"
      "is a bound, no clock sync), and the results (histograms included) are merged\n"
      "exactly. It prints the merged report, one line per host and the start skew; a host\n"
      "that fails is named with its reason, the others' lines still printed (exit 1).\n"
      "--json-out FILE writes the merged result to FILE, each host's to FILE.hostI.json\n"
      "and its log (the loader's report, ssh's messages) to FILE.hostI.log, I from 1 in\n"
      "--loader-hosts' order (without --json-out, the logs are not kept).\n"
      "SIGINT stops every loader at once.\n"
      "With --merge, the result files of one load's loaders (from --json-out) are merged\n"
      "exactly and reported as one load; every option but connections, threads and rate\n"
      "must be equal.");
  t.choice("--framing", &o.framing, framing_choices_with_older_names(),
           "HTTP/1.1, ZAP-HTTP (wire A), ZAP-RPC (wire B, multiplexed), HTTP/2 (h2c), gRPC on HTTP/2, or "
           "raw TCP byte counts against 'zapbench floor'")
      .deprecated_alias("--wire")
      .no_default();
  t.host_port("--addr", &addr, "the server", /*port_zero_ok=*/false);
  t.choice("--scenario", &o.scenario, choices(matrix::kScenarios),
           "GET /health, POST /rpc with the eth record, or POST /logs asking for N logs")
      .no_default();
  t.number("--logs", &o.logs, {1, record::kMaxLogs}, "the logs scenario's N: the logs each request asks for",
           "N");
  t.text("--body", &body, "CODEC",
         "rpc and logs body codec: zap, json (the default JSON codec), a JSON codec or a binary peer by "
         "name")
      .check(body_codec_check())
      .default_text("json = " + std::string(record::default_json_codec().name));
  t.text("--json", &json_name, "CODEC", "").check(json_codec_check()).deprecated("--body CODEC");
  t.number("--request-bytes", &o.floor_request_bytes, {1}, "floor: bytes of one request").no_default();
  t.number("--response-bytes", &o.floor_response_bytes, {1}, "floor: bytes of one response", "M")
      .no_default();
  t.number("-c, --connections", &o.connections, {1}, "connections");
  t.number("-t, --threads", &o.threads, {1, 1024}, "threads / event loops");
  t.duration("-d, --duration", &o.duration_s, {.min = 0, .min_exclusive = true}, "recorded time");
  t.duration("--warmup", &o.warmup_s, {.min = 0}, "run before recording, not recorded");
  t.number("-p, --pipeline", &o.pipeline, {1, 1024}, "requests in flight per connection", "DEPTH");
  t.rate("-R, --rate", &o.rate_per_s, {.min = 0, .min_exclusive = true},
         "open loop at RATE requests/s in total (default: closed loop)");
  t.number("--timeout-ms", &o.timeout_ms, {1}, "a response later than this is a timeout");
  t.cpu_list("--cpus", &o.cpus, "pin thread i to the i-th CPU of LIST");
  t.choice("--io", &o.io, choices(matrix::kIos), kIoHelp);
  t.text("--json-out", &json_out, "FILE", "every figure and the histograms as JSON");
  t.section("several loader hosts");
  host_list_flag(t, "--loader-hosts", &hosts, "run the load over these hosts (ssh destinations)")
      .no_default();
  ssh_flags(t, &ssh);
  t.set("--merge", &merge, true, "merge the result files that follow (FILE FILE...)");
  t.set("--coordinated", &coordinated, true,
        "plumbing: one loader host's part, driven by the coordinator on stdin/stdout (docs/spec/hosts.md "
        "§4); the report goes to stderr");
  t.parse(argc, argv);

  if (merge) {
    for (const char* f : {"--framing",      "--addr",    "--scenario",      "--logs",
                          "--body",         "--json",    "--request-bytes", "--response-bytes",
                          "--connections",  "--threads", "--duration",      "--warmup",
                          "--pipeline",     "--rate",    "--timeout-ms",    "--cpus",
                          "--loader-hosts", "--ssh",     "--ssh-config",    "--remote-zapbench",
                          "--coordinated"})
      if (t.seen(f)) t.fail("--merge takes result files and --json-out only, not " + t.spelling(f));
    if (merge_files_given.size() < 2)
      t.fail("--merge wants at least two result files, got " + std::to_string(merge_files_given.size()));
    return merge_files(merge_files_given, json_out);
  }
  if (!merge_files_given.empty()) t.fail("unexpected argument '" + merge_files_given.front() + "'");
  if (coordinated && !hosts.empty()) t.fail("--coordinated is one loader host's part: no --loader-hosts");
  if (hosts.empty() && (t.seen("--ssh") || t.seen("--ssh-config") || t.seen("--remote-zapbench")))
    t.fail("--ssh, --ssh-config and --remote-zapbench go with --loader-hosts");

  const bool floor = o.framing == matrix::Framing::raw_tcp;
  const std::string framing = t.spelling("--framing");  // "--wire" in an old script's errors
  const bool have_body = t.seen("--body") || t.seen("--json");
  if (floor) {
    if (!t.seen("--addr") || !t.seen("--request-bytes") || !t.seen("--response-bytes"))
      t.fail(framing + " floor needs --addr, --request-bytes and --response-bytes");
    if (t.seen("--scenario") || have_body)
      t.fail("--scenario and --body do not apply to " + framing + " floor (it sends fixed byte counts)");
  } else {
    if (!t.seen("--framing") || !t.seen("--addr") || !t.seen("--scenario"))
      t.fail(framing + ", --addr and --scenario are required");
    if (t.seen("--request-bytes") || t.seen("--response-bytes"))
      t.fail("--request-bytes and --response-bytes are for " + framing + " floor only");
  }
  if (o.framing == matrix::Framing::grpc && o.scenario != matrix::Scenario::rpc)
    t.fail(framing + " grpc takes --scenario rpc only (hello and logs are no methods of zapbench.Eth)");
  if (t.seen("--logs") && (floor || o.scenario != matrix::Scenario::logs))
    t.fail("--logs is for --scenario logs only");
  // --body zap | json | CODEC. The old --json CODEC names the codec of "--body json" (its old pair).
  const bool body_names_codec = !body.empty() && body != "json" && body != "zap";
  if (body_names_codec && t.seen("--json"))
    t.fail("--body " + body + " and --json " + json_name +
           " both name the JSON codec: give --body CODEC only");
  o.body = &body_codec_or_default(body_names_codec || body == "zap" ? body : json_name);
  if (!floor && o.scenario == matrix::Scenario::logs)
    if (const std::string why = record::logs_refusal(*o.body); !why.empty())
      t.fail("--scenario logs: " + why + "; codecs with it: " + logs_codec_names());
  o.host = addr.host;
  o.port = addr.port;

  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C does not wait for the drain: it kills
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  if (!hosts.empty()) return load_on_hosts(o, hosts, ssh, json_out);
  return load_here(o, coordinated, json_out);
}

}  // namespace cli
