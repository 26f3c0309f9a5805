// cli/load.cpp — `zapbench load`: flags to load::Options, a live progress line
// on a terminal, the report, and --json-out (written by bench/load_result.hpp,
// the module `zapbench run` reads it back with). Owns no protocol logic.
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench/load_result.hpp"
#include "cli/args.hpp"
#include "load/engine.hpp"

namespace cli {
namespace {

constexpr const char* kUsage =
    "usage: zapbench load --wire http|zap --addr HOST:PORT --scenario hello|rpc [--body json|zap]\n"
    "                     [--json CODEC] [-c N] [-t N] [-d SECONDS] [--warmup SECONDS] [-p DEPTH]\n"
    "                     [--rate R] [--timeout-ms N] [--cpus LIST] [--json-out FILE]\n"
    "       zapbench load --wire floor --addr HOST:PORT --request-bytes N --response-bytes M [-c N] ...\n"
    "\n"
    "One load engine for every wire. Every response is parsed and validated (status\n"
    "200; hello: body 'ok'; rpc: the body decodes with the same codec, echoes the\n"
    "request id and carries the balance the record's compute gives); every latency\n"
    "is recorded (no sampling) in a log-linear histogram (relative error < 1/2048).\n"
    "Closed loop by default: -c connections, each keeping -p requests in flight.\n"
    "With --rate, an open loop: requests on a fixed schedule spread over the\n"
    "connections, latency measured from each request's intended send time\n"
    "(coordinated omission corrected, as wrk2 does); the uncorrected latency is\n"
    "reported beside it. Connections open before the warm-up; nothing in the\n"
    "warm-up is recorded. Errors are counted by kind: connect, read, write,\n"
    "timeout, status, validation, and closed (requests left unanswered when the\n"
    "server closed the connection); the loader reconnects after each. After the\n"
    "window, the requests still in flight are waited for until answered or timed\n"
    "out (--timeout-ms), so every request of the window is accounted for.\n"
    "SIGINT (Ctrl-C) or SIGTERM ends the window early: the results so far are\n"
    "printed and written as usual (marked stopped), and the exit code is 130 or 143;\n"
    "a second one ends the process at once.\n"
    "With --wire floor (against 'zapbench floor'), the floor arm: every request is\n"
    "the same N bytes and every M bytes received count as one valid response, with\n"
    "no parsing or validation; --scenario, --body and --json do not apply.\n"
    "\n"
    "  --wire http|zap|floor HTTP/1.1, ZAP-HTTP (wire A), or raw TCP byte counts\n"
    "  --addr HOST:PORT      the server\n"
    "  --scenario hello|rpc  GET /health, or POST /rpc with the eth record\n"
    "  --body json|zap       rpc body codec (default json)\n"
    "  --json CODEC          JSON codec for rpc bodies (default: the fastest available)\n"
    "  --request-bytes N     floor: bytes of one request\n"
    "  --response-bytes M    floor: bytes of one response\n"
    "  -c N                  connections (default 10)\n"
    "  -t N                  threads / event loops (default 1)\n"
    "  -d SECONDS            recorded duration (default 10)\n"
    "  --warmup SECONDS      run before recording (default 1)\n"
    "  -p DEPTH              requests in flight per connection (default 1)\n"
    "  --rate R              open loop at R requests/s in total\n"
    "  --timeout-ms N        a response later than this is a timeout (default 5000)\n"
    "  --cpus LIST           pin thread i to the i-th CPU of LIST\n"
    "  --json-out FILE       every figure and the histograms as JSON\n";

double flag_seconds(int argc, char** argv, int& i) {
  const std::string flag = argv[i];
  const std::string v = flag_value(argc, argv, i, "load");
  char* end = nullptr;
  const double s = std::strtod(v.c_str(), &end);
  if (end == v.c_str() || *end != '\0' || !(s >= 0) || !std::isfinite(s))
    die(flag + " wants seconds >= 0, got '" + v + "'");
  return s;
}

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

}  // namespace

int cmd_load(int argc, char** argv) {
  load::Options o;
  std::string addr, json_name, json_out, body = "json";
  bool have_wire = false, have_scenario = false, have_body_or_json = false;
  for (int i = 0; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    } else if (a == "--wire") {
      const std::string v = flag_value(argc, argv, i, "load");
      if (v != "http" && v != "zap" && v != "floor")
        die("--wire wants http or zap, or floor against 'zapbench floor', got '" + v + "'");
      o.wire = v == "http" ? load::Wire::http : v == "zap" ? load::Wire::zap : load::Wire::floor;
      have_wire = true;
    } else if (a == "--addr") {
      addr = flag_value(argc, argv, i, "load");
      if (!parse_host_port(addr, o.host, o.port) || o.port == 0)
        die("--addr wants HOST:PORT, got '" + addr + "'");
    } else if (a == "--scenario") {
      const std::string v = flag_value(argc, argv, i, "load");
      if (v != "hello" && v != "rpc") die("--scenario wants hello or rpc, got '" + v + "'");
      o.scenario = v == "hello" ? load::Scenario::hello : load::Scenario::rpc;
      have_scenario = true;
    } else if (a == "--body") {
      body = flag_value(argc, argv, i, "load");
      if (body != "json" && body != "zap") die("--body wants json or zap, got '" + body + "'");
      have_body_or_json = true;
    } else if (a == "--json") {
      json_name = flag_value(argc, argv, i, "load");
      have_body_or_json = true;
    } else if (a == "--request-bytes") {
      o.floor_request_bytes = flag_uint<std::uint32_t>(argc, argv, i, "load");
      if (o.floor_request_bytes == 0) die("--request-bytes wants at least 1");
    } else if (a == "--response-bytes") {
      o.floor_response_bytes = flag_uint<std::uint32_t>(argc, argv, i, "load");
      if (o.floor_response_bytes == 0) die("--response-bytes wants at least 1");
    } else if (a == "-c") {
      o.connections = flag_uint<unsigned>(argc, argv, i, "load");
      if (o.connections == 0) die("-c wants at least 1 connection");
    } else if (a == "-t") {
      o.threads = flag_uint<unsigned>(argc, argv, i, "load");
      if (o.threads == 0 || o.threads > 1024) die("-t wants 1..1024");
    } else if (a == "-d") {
      o.duration_s = flag_seconds(argc, argv, i);
      if (o.duration_s <= 0) die("-d wants a duration > 0");
    } else if (a == "--warmup") {
      o.warmup_s = flag_seconds(argc, argv, i);
    } else if (a == "-p") {
      o.pipeline = flag_uint<unsigned>(argc, argv, i, "load");
      if (o.pipeline == 0 || o.pipeline > 1024) die("-p wants 1..1024");
    } else if (a == "--rate") {
      o.rate_per_s = flag_seconds(argc, argv, i);
      if (o.rate_per_s <= 0) die("--rate wants requests/s > 0");
    } else if (a == "--timeout-ms") {
      o.timeout_ms = flag_uint<std::uint32_t>(argc, argv, i, "load");
      if (o.timeout_ms == 0) die("--timeout-ms wants at least 1");
    } else if (a == "--cpus") {
      const std::string v = flag_value(argc, argv, i, "load");
      if (!parse_cpu_list(v, o.cpus)) die("--cpus wants a CPU list like 1 or 0,2-3, got '" + v + "'");
    } else if (a == "--json-out") {
      json_out = flag_value(argc, argv, i, "load");
    } else {
      die("load: unknown option '" + std::string(a) + "' (see 'zapbench load --help')");
    }
  }
  const bool floor = o.wire == load::Wire::floor;
  if (floor) {
    if (addr.empty() || o.floor_request_bytes == 0 || o.floor_response_bytes == 0)
      die("load: --wire floor needs --addr, --request-bytes and --response-bytes (see --help)");
    if (have_scenario || have_body_or_json)
      die("load: --scenario, --body and --json do not apply to --wire floor (it sends fixed byte counts)");
  } else {
    if (!have_wire || addr.empty() || !have_scenario)
      die("load: --wire, --addr and --scenario are required (see 'zapbench load --help')");
    if (o.floor_request_bytes != 0 || o.floor_response_bytes != 0)
      die("load: --request-bytes and --response-bytes are for --wire floor only");
  }
  o.zap_body = body == "zap";
  if (json_name.empty()) {
    o.json = &record::default_json_codec();
  } else {
    const record::CodecInfo* c = record::find_codec(json_name);
    if (c == nullptr || !c->available || c->content_type != "application/json")
      die("--json " + json_name +
          ": not an available JSON codec; available: " + record::available_codec_names(true));
    o.json = c;
  }

  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sa.sa_flags = SA_RESETHAND;  // a second Ctrl-C does not wait for the drain: it kills
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  o.stop = &g_stop;

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
  } catch (const std::exception& e) {
    done = true;
    if (ticker.joinable()) ticker.join();
    die(std::string("load: ") + e.what());
  }
  done = true;
  if (ticker.joinable()) ticker.join();

  const char* wire = o.wire == load::Wire::http ? "http" : o.wire == load::Wire::zap ? "zap" : "floor";
  // The floor has no scenario and no body codec: "" in the JSON, its byte counts in the report line.
  const bool rpc = !floor && o.scenario == load::Scenario::rpc;
  const std::string scenario = floor ? "" : rpc ? "rpc" : "hello";
  const std::string body_name = rpc ? (o.zap_body ? "zap" : std::string(o.json->name)) : "";
  std::string what = rpc ? scenario + " body " + body_name : scenario;
  if (floor)
    what = std::to_string(o.floor_request_bytes) + " B requests, " + std::to_string(o.floor_response_bytes) +
           " B responses";
  std::printf(
      "zapbench load: %s %s at %s, %u connections, %u threads, pipeline %u, %.1f s (+%.1f s warm-up)\n", wire,
      what.c_str(), addr.c_str(), o.connections, o.threads, o.pipeline, o.duration_s, o.warmup_s);
  // Per second of the window; 0 for an empty one (stopped in the warm-up).
  const auto per_s = [&](double n) { return r.elapsed_s > 0 ? n / r.elapsed_s : 0.0; };
  const int stop_signal = r.stopped ? int(g_stop_signal) : 0;
  if (r.stopped)
    std::printf("  STOPPED by %s after %.2f s of the window: the figures cover that part only\n",
                stop_signal == SIGTERM ? "SIGTERM" : "SIGINT", r.elapsed_s);
  std::printf("  requests/s   %.1f (%llu responses, %llu requests sent, %llu of %u connections answered)\n",
              r.rate_per_s(), static_cast<unsigned long long>(r.responses),
              static_cast<unsigned long long>(r.requests),
              static_cast<unsigned long long>(r.connections_answered), o.connections);
  if (o.rate_per_s > 0) {
    const double achieved = per_s(double(r.requests));
    std::printf("  rate         intended %.1f/s, achieved %.1f/s\n", o.rate_per_s, achieved);
    if (achieved < 0.95 * o.rate_per_s)
      std::printf(
          "  WARNING: the loader could NOT keep the intended rate (%.0f%% of it): latencies include the "
          "backlog\n",
          100.0 * achieved / o.rate_per_s);
  }
  std::printf("  bytes/s      sent %.0f, received %.0f\n", per_s(double(r.bytes_sent)),
              per_s(double(r.bytes_received)));
  const load::Histogram& h = r.latency;
  std::printf("  latency us   p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  mean %.1f  stdev %.1f%s\n",
              us(h.value_at_percentile(50)).c_str(), us(h.value_at_percentile(90)).c_str(),
              us(h.value_at_percentile(99)).c_str(), us(h.value_at_percentile(99.9)).c_str(),
              us(h.max()).c_str(), h.mean() / 1000, h.stdev() / 1000,
              o.rate_per_s > 0 ? "  (from intended send times)" : "");
  if (o.rate_per_s > 0) {
    const load::Histogram& u = r.latency_actual;
    std::printf("  uncorrected  p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (from actual send times)\n",
                us(u.value_at_percentile(50)).c_str(), us(u.value_at_percentile(90)).c_str(),
                us(u.value_at_percentile(99)).c_str(), us(u.value_at_percentile(99.9)).c_str(),
                us(u.max()).c_str());
  }
  std::printf("  errors       %llu", static_cast<unsigned long long>(r.error_total()));
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k)
    if (r.errors[k] != 0)
      std::printf("  %.*s %llu", int(load::describe(load::ErrorKind(k)).size()),
                  load::describe(load::ErrorKind(k)).data(), static_cast<unsigned long long>(r.errors[k]));
  std::printf("\n  loader CPU   user %.2f s, sys %.2f s\n", r.cpu_user_s, r.cpu_sys_s);

  if (!json_out.empty()) {
    std::ofstream f(json_out, std::ios::binary | std::ios::trunc);
    f << bench::load_result_json(o, r);
    if (!f) die("--json-out: cannot write " + json_out);
  }
  return r.stopped ? 128 + stop_signal : 0;
}

}  // namespace cli
