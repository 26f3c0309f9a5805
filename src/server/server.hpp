// server/server.hpp — `zapbench serve`: listeners for HTTP/1.1, ZAP-HTTP
// (wire A), ZAP-RPC (wire B, docs/spec/zap-rpc.md) and HTTP/2 with gRPC on it
// (h2c, docs/spec/http2-grpc.md) on the event core (net/: one loop per pinned worker
// thread, each with its own SO_REUSEPORT listening sockets, connection buffers reused while the
// connection is active, given back when it idles), the limits that protect it, graceful stop and the counters
// it prints. Routes (what is answered) live in routes.hpp; framing in net/.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "net/connection.hpp"
#include "net/pool.hpp"
#include "record/registry.hpp"
#include "server/listen.hpp"
#include "server/routes.hpp"

namespace server {

// The framings a server listens on, in the order of its startup lines: an
// HTTP/2 listener serves HTTP/2 and gRPC alike, the floor has its own server
// (server/floor.hpp).
inline constexpr std::array kListenerFramings{matrix::Framing::http1, matrix::Framing::zap_http,
                                              matrix::Framing::zap_rpc, matrix::Framing::http2};
// The listener that serves a framing: grpc's is http2's; raw_tcp has none
// here (the floor's), and is given back as it is.
constexpr matrix::Framing listener_of(matrix::Framing f) noexcept {
  return f == matrix::Framing::grpc ? matrix::Framing::http2 : f;
}

// What a connection holds when it stops reading for backpressure (Config::on_hold).
struct HoldReport {
  std::uint32_t calls_in_flight = 0;  // ZAP-RPC: calls answered into `out` since it was last empty; else 0
  std::size_t out_bytes = 0;          // answers not yet handed to the socket
  std::size_t in_bytes = 0;           // input read and not yet answered
};

// Every limit has a default and a flag; each says what it stops.
struct Limits {
  std::size_t max_header_bytes = 8 * 1024;     // HTTP request line + headers: 431 past it
  std::uint64_t max_body_bytes = 1024 * 1024;  // HTTP Content-Length: 413 past it
  // ZAP frame (Go's MaxFrameSize), both ways, on ZAP-HTTP and ZAP-RPC: a
  // request's past it closes the connection; an answer's past it is a 500
  // instead.
  std::uint32_t max_frame_bytes = 64 * 1024 * 1024;
  std::size_t max_connections = 16384;       // accepted at once, all threads: newer ones closed
  std::uint32_t idle_timeout_ms = 60'000;    // no bytes either way: close
  std::uint32_t header_timeout_ms = 10'000;  // a request begun but not complete: 408 / close
  // A /logs answer body larger than this is not sent: 500 naming both sizes
  // instead (the codec has encoded it; no connection buffer ever holds it).
  // With the output cap (kMaxPendingOutBytes) it bounds a connection's output.
  std::size_t max_response_bytes = kDefaultMaxResponseBytes;
};

struct Config {
  std::vector<Endpoint> http;
  std::vector<Endpoint> zap;
  std::vector<Endpoint> zap_rpc;
  std::vector<Endpoint> http2;  // h2c with prior knowledge; gRPC calls are served on the same listeners
  // The listeners of one framing of kListenerFramings: http, zap, zap_rpc or http2 above.
  std::vector<Endpoint>& endpoints(matrix::Framing f) {
    return f == matrix::Framing::http1      ? http
           : f == matrix::Framing::zap_http ? zap
           : f == matrix::Framing::zap_rpc  ? zap_rpc
                                            : http2;
  }
  const record::CodecInfo* json = nullptr;  // the JSON codec for application/json bodies
  // The codec answering each of their content types, in place of the default
  // (a binary peer's: the first of its type in codecs.table; JSON's: `json`).
  // At most one per content type; none for trusted input only.
  std::vector<const record::CodecInfo*> codecs;
  unsigned threads = 1;
  std::vector<int> cpus;  // thread i pinned to cpus[i % size]; empty: not pinned
  Limits limits;
  // The event core's backend for every worker (`--io`): epoll, or io_uring
  // (net/uring_loop.hpp; the constructor throws the kernel's reason when it
  // has none).
  net::Io io = net::Io::epoll;
  // SO_SNDBUF of every accepted connection; 0 leaves the kernel's (autotuned).
  // A test shrinks it so that answers to a client that does not read stay
  // unsent at once, instead of after the kernel has buffered megabytes.
  int send_buffer_bytes = 0;
  // Test hook, on a worker thread: a closing connection has read and dropped
  // as much further input as it may (256 KiB) and stops reading; gets the
  // bytes dropped. Unset (no call) outside tests.
  std::function<void(std::uint32_t discarded_bytes)> on_discard_cap;
  // Test hook, on a worker thread: a connection stops reading because its
  // client does not read its answers (backpressure: `out` at its 4 MiB cap,
  // or 256 ZAP-RPC calls in flight); gets what it holds. Unset (no call)
  // outside tests.
  std::function<void(const HoldReport&)> on_hold;
};

// Why a connection or request went wrong, counted by kind.
enum class ErrorKind : std::uint8_t {
  http_bad_request = 0,   // malformed request head (400)
  http_header_too_large,  // 431
  http_body_too_large,    // 413
  http_not_implemented,   // Transfer-Encoding (501)
  http_version,           // 505
  zap_bad_length,         // frame length 0 or over the limit: closed, no reply
  zap_malformed,          // a frame that is not a request message: 400 frame, then closed
  // ZAP-RPC (docs/spec/zap-rpc.md §3; a bad length is zap_bad_length):
  zap_rpc_malformed,    // a request envelope that does not parse: skipped, no reply
  zap_rpc_unsolicited,  // a response frame (dir 2) sent to the server: dropped
  zap_rpc_stream,       // a stream message or end (dir 4, 5): dropped, no stream is open
  zap_rpc_bad_dir,      // a direction byte that is none of 1-5: closed, no reply
  // HTTP/2 and gRPC (docs/spec/http2-grpc.md §2, §3):
  http2_connection_error,  // nghttp2 ended the connection (bad preface or frame, HPACK, a flood): GOAWAY,
                           // close
  http2_header_too_large,  // a request's header list past SETTINGS_MAX_HEADER_LIST_SIZE: RST_STREAM
  http2_body_too_large,    // a request body past max_body_bytes: 413 (gRPC: 8), then RST_STREAM CANCEL
  grpc_bad_message,  // a request message whose 5-byte prefix does not frame one message: grpc-status 3/13
  header_timeout,
  idle_timeout,
  connection_limit,
  io,  // read/write errors, resets
  count_,
};
std::string_view describe(ErrorKind k) noexcept;

struct Counters {
  std::uint64_t connections = 0;
  // Per listener framing (matrix::index), per route; gRPC calls count as http2.
  std::uint64_t requests[matrix::kFramings.size()][static_cast<int>(Route::count_)] = {};
  std::uint64_t outcomes[static_cast<int>(Outcome::count_)] = {};
  std::uint64_t errors[static_cast<int>(ErrorKind::count_)] = {};
  // Blocks nghttp2's allocator (the workers' wire::h2::MemPool) took from
  // malloc: its free lists' first blocks, then flat once warm (operator new's
  // counters do not see them; the allocation tests read this).
  std::uint64_t http2_pool_mallocs = 0;
  void add(const Counters& o);
};

class AnyWorker;

class Server {
 public:
  // Binds every listener (throws std::runtime_error with a clear message on
  // failure, e.g. an address in use).
  explicit Server(Config config);
  ~Server();

  // Runs the workers until stop(); then finishes the requests already read,
  // flushes (bounded grace), closes everything and returns.
  void run();
  // Safe from another thread (the signal thread); returns at once.
  void stop();

  // The addresses actually bound (port 0 resolved), for messages and tests.
  [[nodiscard]] const std::vector<Endpoint>& bound(matrix::Framing f) const {
    return bound_[matrix::index(f)];
  }
  [[nodiscard]] Counters counters() const;
  // Connections open now, all workers (atomic; safe from any thread). Tests
  // use it to see hostile connections closed and the limit's headroom.
  [[nodiscard]] std::size_t open_connections() const { return limit_.open(); }

 private:
  Config config_;
  std::vector<Endpoint> bound_[matrix::kFramings.size()];
  net::ConnectionLimit limit_;  // shared by the workers: Limits::max_connections
  std::unique_ptr<net::Pool<AnyWorker>> pool_;
};

}  // namespace server
