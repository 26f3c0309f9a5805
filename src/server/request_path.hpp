// server/request_path.hpp — the server's per-request code, without sockets:
// a connection's state (Conn), what a worker lends its requests (Context:
// routes, counters, limits, the Date value, encoders), the wire policies
// (Http1Wire, ZapHttpWire, ZapRpcWire; Http2Wire, whose code is
// http2_wire.cpp) and answer_ready(), which
// answers every complete request in a connection's input into its output. The worker (server.cpp)
// calls it after each read; the microbenchmark Server/<framing>/<body> and
// the instruction counter (micro/request_path_bench.cpp) call the very same
// compiled code on in-memory bytes, so its figure is the server's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "net/connection.hpp"
#include "server/routes.hpp"
#include "server/server.hpp"
#include "wire/http1.hpp"
#include "wire/zap_http.hpp"
#include "wire/zap_rpc.hpp"

namespace server {

// Past this many unsent response bytes a connection stops reading (and holds
// the requests it has) until the client reads (backpressure).
inline constexpr std::size_t kMaxPendingOutBytes = 4 * 1024 * 1024;

// ZAP-RPC's bound on calls in flight per connection (docs/spec/zap-rpc.md §3,
// the Go transport's): a call is in flight from the read that brought it
// until its answer has been handed to the socket. The server answers the
// calls of a read as it decodes them, so the calls in flight are the ones
// answered into `out` since it was last empty (Conn::calls_in_out): at 256,
// with `out` not yet drained, the connection stops reading and holds the
// rest of its input, as at the output cap, until the client reads. The
// byte cap alone would let small calls pile up by the ten thousand (health's
// answer is 43 bytes); this bounds them by count, like the Go transport.
inline constexpr std::uint32_t kMaxCallsInFlight = 256;

// HTTP/2 (http2_wire.cpp): a connection's nghttp2 session and streams, and
// what a worker's sessions share (the allocator, options, callbacks, the
// streams' reusable buffers).
struct Http2Session;
struct Http2Thread;
struct Http2ThreadDelete {
  void operator()(Http2Thread* t) const noexcept;
};

// A server connection: the core's connection (socket, buffers, interest set)
// and what the limits and the backpressure need to know of it.
struct Conn : net::Connection {
  explicit Conn(matrix::Framing w) : net::Connection(16 * 1024, 16 * 1024, static_cast<std::uint8_t>(w)) {}
  std::int64_t last_active_ms = 0;
  std::int64_t head_since_ms = 0;  // when the incomplete request in `in` began; 0: none
  std::size_t scan_hint = 0;       // HTTP: where to resume looking for the end of the head
  bool closing = false;            // close once `out` is flushed; read nothing more
  bool peer_closed = false;
  std::uint32_t discarded_bytes = 0;  // read and dropped while closing (bounded)
  std::int64_t shut_since_ms = 0;     // closing, `out` flushed, our FIN sent: lingering until the peer's
  bool held = false;                  // requests left in `in` at the output cap: answered as `out` drains
  std::uint32_t calls_in_out = 0;     // ZAP-RPC: calls answered into `out` since it was last empty
  Http2Session* h2 = nullptr;         // HTTP/2: its session, from accept to destroy (Http2Wire::open/close)
};

// What a wire policy uses of its worker: the routes, the counters, the
// limits, the Date value, the reusable encoders. One per worker thread.
struct Context {
  explicit Context(const Config& config);
  void error(ErrorKind k) { ++counters.errors[static_cast<int>(k)]; }
  // One request on a listener of framing f answered: its route and outcome are counted.
  void count(matrix::Framing f, Route route, Outcome outcome) {
    ++counters.requests[matrix::index(f)][static_cast<int>(route)];
    ++counters.outcomes[static_cast<int>(outcome)];
  }
  // The HTTP Date value (the worker's tick, once a second): the prepared
  // HTTP/1.1 heads carry it, so they are rebuilt with it.
  void set_date(std::string_view date_value);

  const Limits& limits;
  Routes routes;
  Counters counters;
  wire::http::Limits http_limits;
  std::string_view date;
  // Every reply kind's head, prepared once: [kind][Connection: close].
  wire::http::PreparedResponse http_replies[static_cast<int>(ReplyKind::count_)][2];
  wire::zaphttp::PreparedResponse zap_replies[static_cast<int>(ReplyKind::count_)];
  wire::zaphttp::ResponseEncoder zap_out;  // the 400 frame of a malformed request
  char error_text[128];
  // HTTP/2's per-thread state (nghttp2's allocator outlives every session
  // of this thread's connections: the worker destroys them first).
  std::unique_ptr<Http2Thread, Http2ThreadDelete> h2;
};

// ---- the wire policies ------------------------------------------------------
// A policy turns the bytes at the front of a connection's input into one
// request, has the routes answer it, and appends the answer to the output.
// step() returns the bytes it consumed: 0 when the request is not complete
// yet, or when it refused it (then c.closing is set, and its answer, if it
// has one, is in c.out). read_cap() is how much unparsed input is worth
// holding (past it the request is over a limit anyway, and step() answers
// it); timed_out() answers a request not complete in time.

struct Http1Wire {
  static constexpr matrix::Framing kFraming = matrix::Framing::http1;
  static constexpr std::uint32_t kMaxCallsInFlight = 0;  // in order: only the byte cap applies
  static std::size_t read_cap(const Limits& l) { return l.max_header_bytes + l.max_body_bytes + 4096; }
  static std::size_t step(Context& x, Conn& c);
  static void timed_out(Context& x, Conn& c);
};

struct ZapHttpWire {
  static constexpr matrix::Framing kFraming = matrix::Framing::zap_http;
  static constexpr std::uint32_t kMaxCallsInFlight = 0;
  static std::size_t read_cap(const Limits& l) {
    return std::size_t{l.max_frame_bytes} + wire::zaphttp::kPrefixBytes;
  }
  static std::size_t step(Context& x, Conn& c);
  static void timed_out(Context&, Conn&) {}  // ZAP has no timeout answer: closed without a reply
};

// ZAP-RPC (wire B): each request frame is a call answered by a response
// frame carrying its PromiseID; what it answers to every input is
// docs/spec/zap-rpc.md §3. A frame it does not answer (a malformed envelope,
// a response, a stream message) is consumed and counted, and the connection
// goes on; a bad length or direction byte closes it without a reply.
struct ZapRpcWire {
  static constexpr matrix::Framing kFraming = matrix::Framing::zap_rpc;
  static constexpr std::uint32_t kMaxCallsInFlight = server::kMaxCallsInFlight;
  static std::size_t read_cap(const Limits& l) {
    return std::size_t{l.max_frame_bytes} + wire::zaprpc::kPrefixBytes;
  }
  static std::size_t step(Context& x, Conn& c);
  static void timed_out(Context&, Conn&) {}  // as ZAP-HTTP: closed without a reply
};

// HTTP/2 with prior knowledge (h2c), and gRPC on the same connections
// (docs/spec/http2-grpc.md): one nghttp2 server session per connection, made
// at accept with the thread's allocator; the input is fed to it and its
// output appended to `out`. Requests are answered by the same routes as
// HTTP/1.1; gRPC calls (`application/grpc...`) by /rpc's handler. nghttp2
// bounds the streams (SETTINGS_MAX_CONCURRENT_STREAMS); `out` has the byte
// cap of every wire. Its answer_ready() is its own (below).
struct Http2Wire {
  static constexpr matrix::Framing kFraming = matrix::Framing::http2;
  static constexpr std::uint32_t kMaxCallsInFlight = 0;  // streams: nghttp2's bound; `out`: the byte cap
  // Input is fed to nghttp2 in slices of this much, with the answers of each
  // slice appended to `out` before the next, so the output cap is checked
  // between slices as between requests on the other wires.
  static constexpr std::size_t kFeedBytes = 16 * 1024;
  static std::size_t read_cap(const Limits&) { return 4 * kFeedBytes; }
  static void timed_out(Context&, Conn&) {
  }  // only the idle timeout: streams wait as long as the peer keeps it
  // The thread's shared state (Context::h2).
  static std::unique_ptr<Http2Thread, Http2ThreadDelete> make_thread(const Config& config);
  // At accept: the session, and its SETTINGS and connection WINDOW_UPDATE in
  // c.out. False (counted as io) if nghttp2 cannot make one.
  static bool open(Context& x, Conn& c);
  // At destroy: the session and its streams' buffers go back to the thread.
  static void close(Context& x, Conn& c) noexcept;
  // Blocks the thread's nghttp2 allocator took from malloc (Counters::http2_pool_mallocs).
  static std::uint64_t pool_mallocs(const Context& x) noexcept;
};

// Whether c must stop answering and reading until the client reads: `out` at
// its byte cap, or (a policy with a call bound) kMaxCallsInFlight calls
// answered into an `out` not drained since. The bound is a constexpr of the
// policy, so the in-order wires test the byte cap only, as before.
template <class W>
[[nodiscard]] inline bool must_hold(const Conn& c) noexcept {
  if (c.out.size() >= kMaxPendingOutBytes) return true;
  if constexpr (W::kMaxCallsInFlight != 0)
    return c.calls_in_out >= W::kMaxCallsInFlight && !c.out.empty();
  else
    return false;
}

// Answers every complete request in c.in, in order, appending to c.out, until
// must_hold(): the rest is held (c.held) until the worker's flush drains it.
// now_ms stamps a request left incomplete (the header timeout's start).
// Instantiated for every policy in request_path.cpp.
template <class W>
void answer_ready(Context& x, Conn& c, std::int64_t now_ms);
// HTTP/2's (http2_wire.cpp): nghttp2's pending output first, then the input
// in slices (Http2Wire::kFeedBytes), each slice's answers into `out`, until
// must_hold(); c.held while output or input waits for the client to read.
template <>
void answer_ready<Http2Wire>(Context& x, Conn& c, std::int64_t now_ms);

// Calls f.template operator()<W>() with c's policy: the one branch on the
// wire, per event or per housekeeping visit, never per request.
template <class F>
void with_wire(const Conn& c, F&& f) {
  if (c.wire == static_cast<std::uint8_t>(matrix::Framing::http1))
    f.template operator()<Http1Wire>();
  else if (c.wire == static_cast<std::uint8_t>(matrix::Framing::zap_http))
    f.template operator()<ZapHttpWire>();
  else if (c.wire == static_cast<std::uint8_t>(matrix::Framing::zap_rpc))
    f.template operator()<ZapRpcWire>();
  else
    f.template operator()<Http2Wire>();
}

}  // namespace server
