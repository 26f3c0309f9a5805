// load/engine.hpp — `zapbench load`: one load engine for every framing. Each
// thread runs an epoll loop over its share of the connections; every request
// is built from the shared record and codecs, every response is parsed and
// validated, every latency recorded (no sampling) in per-thread histograms
// merged after join. Closed loop (-c, -p) or open loop (--rate, latency from
// each request's intended send time: coordinated omission corrected, as wrk2).
// Framing::raw_tcp is the floor arm: fixed byte counts over raw TCP, no protocol,
// against `zapbench floor` (server/floor.hpp), through the same loops.
// Owns no server or report formatting beyond its own summary.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "load/histogram.hpp"
#include "matrix/matrix.hpp"
#include "net/loop.hpp"
#include "record/registry.hpp"

namespace load {

// The loader speaks every framing of the matrix (matrix/matrix.hpp):
// raw_tcp: the floor, fixed byte counts (Options::floor_*_bytes), nothing parsed.
// zap_rpc: ZAP-RPC (wire B, docs/spec/zap-rpc.md), calls multiplexed by PromiseID.
// http2, grpc: HTTP/2 (h2c) and gRPC on it (docs/spec/http2-grpc.md), calls
// multiplexed as streams; depth is streams open at once per connection.
using matrix::Framing;
using matrix::Scenario;

// The logs scenario's default N (Options::logs).
inline constexpr std::uint32_t kDefaultLogs = 100;

struct Options {
  Framing framing = Framing::http1;
  net::Io io = net::Io::epoll;  // the event core's backend (`--io`), chosen once per run
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  Scenario scenario = Scenario::hello;
  // rpc, logs: the body's codec (zap, a JSON codec or a binary peer; never
  // one for trusted input only, as it reads the server's bytes; for logs, one
  // with the logs record, else run() throws); null: the default JSON codec.
  const record::CodecInfo* body = nullptr;
  // logs: N, the logs each request asks for (1..record::kMaxLogs). Every
  // request is POST /logs with encode_logs_request(sample_logs_request(N));
  // every answer must be status 200 with the codec's content type (on a wire
  // that carries one: ZAP-RPC's method ordinal names the codec), and its
  // logs_decode_all must equal the digest of generate(that request), computed
  // once before the run.
  std::uint32_t logs = kDefaultLogs;
  unsigned connections = 10;
  unsigned threads = 1;
  double duration_s = 10;  // the window; with `stop`, the longest it may last
  double warmup_s = 1;     // run, not recorded; connections open before it
  unsigned pipeline = 1;   // requests in flight per connection
  double rate_per_s = 0;   // 0: closed loop; else open loop at this total rate
  // A response later than this is a timeout error. After the window, the
  // drain waits for the requests still in flight until each is answered or
  // reaches this timeout, so every window request is accounted for however
  // slow the machine or the server.
  std::uint32_t timeout_ms = 5000;
  std::vector<int> cpus;  // thread i pinned to cpus[i % size]
  // Framing::raw_tcp only (both required, else run() throws): scenario, body and
  // codec are ignored; every request is the same constant floor_request_bytes
  // bytes, and every floor_response_bytes bytes received complete the oldest
  // request in flight as a valid response (status 200, no further check), so
  // the loader's per-response work is as small as it can be.
  std::uint32_t floor_request_bytes = 0;
  std::uint32_t floor_response_bytes = 0;
  // When set, the window ends as soon as *stop becomes true (seen within
  // ~10 ms; a stop in the warm-up leaves an empty window); the drain follows
  // as usual. For a caller that ends the load on an event (a signal, a test
  // that waits for what it needs) rather than after duration_s.
  const std::atomic<bool>* stop = nullptr;
  // A start barrier (several loader hosts, docs/spec/hosts.md §4): when set,
  // the warm-up lasts warmup_s, then each thread stops sending (the answers
  // in flight come back, not recorded) until *go becomes true, so the hosts
  // are quiet when it comes; each thread starts its window when it sees it
  // (within 1 ms), every connection filling its pipeline again.
  // Progress::warm_threads counts the threads waiting for it.
  const std::atomic<bool>* go = nullptr;
  // Framing::http2 and grpc, for tests: the first stream id of each connection
  // (odd; 1 in a run), so that a test reaches the end of the stream ids (2^31).
  std::uint32_t http2_first_stream_id = 1;
};

// The body codec of a run: Options::body, or the default JSON codec when null.
inline const record::CodecInfo& body_codec(const Options& opt) {
  return opt.body != nullptr ? *opt.body : record::default_json_codec();
}

// Counted per event, except `closed`, which counts requests: the peer closed
// the connection (EOF, ECONNRESET or EPIPE, on read or on write) and each
// window request still unanswered on it counts once — what the close lost.
// A close with none unanswered is no error (HTTP lets a server close an idle
// keep-alive connection at any time). On HTTP/2 and gRPC a stream the server resets
// before its answer ended counts its call as `closed` too; the connection
// goes on. `read` is any other read failure: a
// malformed or unsolicited response, another errno. `unknown_promise`
// (Framing::zap_rpc) is an answer whose PromiseID names no call in flight on its
// connection (never sent, or answered already): counted, the connection goes
// on.
enum class ErrorKind : std::uint8_t {
  connect = 0,
  read,
  write,
  timeout,
  status,
  validation,
  closed,
  unknown_promise,
  count_
};
std::string_view describe(ErrorKind k) noexcept;

struct Result {
  double elapsed_s = 0;              // the recorded window (shorter than duration_s when stopped)
  bool stopped = false;              // Options::stop ended the window before duration_s
  std::uint64_t requests = 0;        // sent in the window
  std::uint64_t responses = 0;       // valid responses recorded
  std::uint64_t bytes_sent = 0;      // of the window's requests (framing included)
  std::uint64_t bytes_received = 0;  // of the whole responses to them, valid or not
  std::uint64_t errors[static_cast<int>(ErrorKind::count_)] = {};
  // Connection slots (of Options::connections) with at least one valid
  // response in the window: with reconnects a slot may be several sockets.
  std::uint64_t connections_answered = 0;
  Histogram latency;               // from the intended send time (= the actual one in closed loop)
  Histogram latency_actual;        // from the actual send time
  double intended_rate_per_s = 0;  // open loop only
  double cpu_user_s = 0;           // the loader's own CPU time over the whole run
  double cpu_sys_s = 0;
  // The first send recorded in the window (load/engine's monotonic clock, ns;
  // the earliest over threads); -1 when none was.
  std::int64_t window_first_send_ns = -1;
  // A coordinated loader's time from reading `go` to window_first_send_ns,
  // filled by `zapbench load --coordinated` and kept in the result file; -1
  // otherwise.
  std::int64_t go_to_first_send_ns = -1;
  [[nodiscard]] double rate_per_s() const { return elapsed_s > 0 ? double(responses) / elapsed_s : 0; }
  // Response bytes per second of the window, in MB (10^6 bytes): bytes_received / elapsed_s.
  [[nodiscard]] double received_mb_per_s() const {
    return elapsed_s > 0 ? double(bytes_received) / elapsed_s / 1e6 : 0;
  }
  [[nodiscard]] std::uint64_t error_total() const;
};

// Live counters the progress line reads (relaxed; approximate by design).
// Also what a caller waits on to end a run with Options::stop.
struct Progress {
  std::atomic<std::uint64_t> responses{0};  // valid window responses
  std::atomic<std::uint64_t> errors{0};
  std::atomic<std::uint64_t> connections_answered{0};  // as Result::connections_answered, so far
  std::atomic<unsigned> warm_threads{0};  // Options::go: threads past their warm-up, waiting for go
  std::atomic<unsigned> threads{0};       // the threads the run started (set before they start)
};

// Runs the whole load (warm-up, window, drain) and returns the merged result.
// Throws std::runtime_error for a target that cannot be resolved, for
// Framing::raw_tcp without both byte counts, for the logs scenario with N out
// of range or a body codec without the logs record (record::logs_refusal),
// for Framing::grpc with another scenario than rpc, and (after the run has
// started) for Framing::http2 or grpc when the server's
// SETTINGS_MAX_CONCURRENT_STREAMS is below the pipeline depth.
Result run(const Options& opt, Progress* progress = nullptr);

}  // namespace load
