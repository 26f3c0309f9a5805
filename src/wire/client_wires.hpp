// wire/client_wires.hpp — the client side of each wire, as the policies the
// load engine is instantiated with (one per run, chosen once): how a request
// is framed onto a connection's output, and how one response is found at the
// front of its input. HTTP/1.1, ZAP-HTTP (wire A), ZAP-RPC (wire B,
// multiplexed: answers matched by PromiseID) and the floor's raw byte counts.
// Owns framing only: bodies, ids, PromiseIDs in flight and validation belong
// to load/.
//
// A policy has: kRawBytes (no scenario, nothing validated), kMultiplexed
// (answers carry the PromiseID of their call and may come in any order; else
// they come in the order of the requests and the promise is ignored),
// kContentType (take() reports the answer's Content-Type; else the wire has
// none and the call's method named the codec of its answer), kFixedBytes (a
// request that is the same for every call may be built once and copied, its
// PromiseID patched on a multiplexed wire), kSession (see below), append_request
// and take().
//
// The load engine keeps a policy's `State` per connection and drives every
// wire through one interface: reset(State&, out) at each (re)connect,
// ready(State) before a request may be sent, append_request(out, ..., promise,
// State&) and take(in, out, State&). The in-order wires and ZAP-RPC have no
// session (NoSession: their state is the HTTP/1.1 parse's scan hint, they are
// always ready, take() only reads the front of `in` and the engine consumes
// what it took). HTTP/2 and gRPC (Http2Client, kSession) keep an nghttp2
// client session per connection: reset() writes the connection preface,
// ready() waits for the server's SETTINGS, take() feeds all of `in` to the
// session (consuming it itself) and may write control frames to `out`
// (SETTINGS ACK, WINDOW_UPDATE), and requests are submitted one by one (HPACK
// state forbids copying bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "net/buffer.hpp"
#include "wire/http1.hpp"
#include "wire/http2.hpp"
#include "wire/zap_http.hpp"
#include "wire/zap_rpc.hpp"

namespace wire {

// What take() found at the front of a connection's input.
struct Response {
  enum class Status : std::uint8_t {
    need_more,  // not complete yet: read more, call again
    malformed,  // not a response this client accepts: drop the connection
    complete,   // one whole response, consumed_bytes long (framing included)
  } status = Status::need_more;
  std::size_t consumed_bytes = 0;
  int code = 0;                          // the status code
  std::span<const std::uint8_t> body{};  // a view into the input, valid until it is consumed
  bool close = false;                    // the server closes after this response, as announced
  std::string_view content_type{};       // its Content-Type value (empty: none), a view like body
  std::uint32_t promise = 0;             // multiplexed wires: the PromiseID of the call it answers
  // Session wires (kSession): the server reset this call's stream before its
  // answer ended (the call is lost: ErrorKind::closed; the connection goes on).
  bool reset = false;
  // Session wires: the wire's own checks failed (gRPC: the content type, the
  // message prefix): a validation error whatever the body holds.
  bool invalid = false;
};

// The largest response body a client takes: far above any answer a server of
// this project gives (its --max-response-bytes default is 64 MiB; the logs
// record at its 100 000 logs in JSON is ~70 MB), and still a bound on a
// server that announces garbage. A connection's input grows to the largest
// answer once and is reused.
inline constexpr std::uint64_t kMaxResponseBodyBytes = std::uint64_t{1} << 30;

// The engine's interface for a wire without a session (every wire but
// HTTP/2): its per-connection state is the parse's scan hint; its requests
// are byte strings (kFixedBytes); take() reads one answer at the front of
// `in` and the engine consumes it. Derived's own append_request(out, ...,
// promise) and take(in, scan_hint) are what the engine's calls forward to
// (Derived says `using NoSession<Derived>::append_request, ::take`): no
// virtual call, the same code as before.
template <class Derived>
struct NoSession {
  static constexpr bool kSession = false;
  static constexpr bool kFixedBytes = true;
  struct State {
    std::size_t scan_hint = 0;  // 0 for each new response
  };
  static void reset(State& s, net::Buffer& /*out*/) noexcept { s = {}; }
  static constexpr bool ready(const State&) noexcept { return true; }
  void append_request(net::Buffer& out, std::string_view method, std::string_view target,
                      std::string_view content_type, std::span<const std::uint8_t> body,
                      std::uint32_t promise, State&) {
    static_cast<Derived&>(*this).append_request(out, method, target, content_type, body, promise);
  }
  Response take(const net::Buffer& in, net::Buffer& /*out*/, State& s) const noexcept {
    return static_cast<const Derived&>(*this).take(in, s.scan_hint);
  }
};

// HTTP/1.1 with Content-Length bodies; a response without framing (a body
// that runs to the close) is malformed for a benchmark client.
class Http1Client : public NoSession<Http1Client> {
 public:
  using NoSession<Http1Client>::append_request;
  using NoSession<Http1Client>::take;
  static constexpr bool kRawBytes = false;  // requests are built per scenario; responses validated
  static constexpr bool kMultiplexed = false;
  static constexpr bool kContentType = true;

  explicit Http1Client(std::string host_header) : host_(std::move(host_header)) {
    limits_.max_body_bytes = kMaxResponseBodyBytes;
  }

  // promise: ignored (answers come in request order).
  void append_request(net::Buffer& out, std::string_view method, std::string_view target,
                      std::string_view content_type, std::span<const std::uint8_t> body,
                      std::uint32_t /*promise*/ = 0) {
    // An empty span may hold a null pointer: the writer copies no empty view.
    http::write_request(out, method, target, host_, content_type,
                        std::string_view(reinterpret_cast<const char*>(body.data()), body.size()));
  }

  // scan_hint: the connection's, 0 for each new response (http::parse_response).
  Response take(const net::Buffer& in, std::size_t& scan_hint) const noexcept {
    http::Response r;
    const http::ParseResult pr = http::parse_response(in.readable_text(), r, limits_, &scan_hint);
    if (pr.status == http::Status::need_more) return {};
    if (pr.status == http::Status::error || r.body_until_close) return {Response::Status::malformed};
    if (in.size() < r.message_bytes()) return {};
    return {Response::Status::complete,
            r.message_bytes(),
            r.status,
            in.readable().subspan(r.head_bytes, static_cast<std::size_t>(r.content_length)),
            r.close,
            r.content_type};
  }

 private:
  std::string host_;
  http::Limits limits_;
};

// ZAP-HTTP: one length-prefixed ZAP message per request and per response.
class ZapHttpClient : public NoSession<ZapHttpClient> {
 public:
  using NoSession<ZapHttpClient>::append_request;
  using NoSession<ZapHttpClient>::take;
  static constexpr bool kRawBytes = false;
  static constexpr bool kMultiplexed = false;
  static constexpr bool kContentType = true;

  // promise: ignored (answers come in request order).
  void append_request(net::Buffer& out, std::string_view method, std::string_view target,
                      std::string_view content_type, std::span<const std::uint8_t> body,
                      std::uint32_t /*promise*/ = 0) {
    const zaphttp::Header ct{"Content-Type", content_type};
    zaphttp::RequestSpec spec;
    spec.method = method;
    spec.target = target;
    if (!content_type.empty()) spec.headers = {&ct, 1};
    spec.body = body;
    enc_.append_frame(spec, out);
  }

  Response take(const net::Buffer& in, std::size_t&) const noexcept {
    const zaphttp::FrameScan s = zaphttp::scan_frame(in.readable());
    if (s.status == zaphttp::FrameScan::Status::need_more) return {};
    if (s.status == zaphttp::FrameScan::Status::bad_length) return {Response::Status::malformed};
    zaphttp::ResponseView v;
    if (zaphttp::decode_response(zaphttp::frame_message(in.readable(), s), v) != zaphttp::FrameError::ok)
      return {Response::Status::malformed};
    return {Response::Status::complete,
            s.frame_bytes(),
            v.status,
            v.body,
            false,
            v.headers.find("Content-Type").value_or(std::string_view{})};
  }

 private:
  zaphttp::RequestEncoder enc_;
};

// The floor: a request is request_bytes of anything, and every
// response_bytes received complete the oldest request as a valid response
// (status 200, nothing to check), so the client's per-response work is as
// small as it can be.
class FloorClient : public NoSession<FloorClient> {
 public:
  using NoSession<FloorClient>::append_request;
  using NoSession<FloorClient>::take;
  static constexpr bool kRawBytes = true;  // no scenario: requests and responses are byte counts
  static constexpr bool kMultiplexed = false;
  static constexpr bool kContentType = false;

  FloorClient(std::uint32_t request_bytes, std::uint32_t response_bytes)
      : request_bytes_(request_bytes), response_bytes_(response_bytes) {}

  // Method, target, body and promise do not exist on this wire: the request is only its size.
  void append_request(net::Buffer& out, std::string_view, std::string_view, std::string_view,
                      std::span<const std::uint8_t>, std::uint32_t = 0) {
    std::memset(out.prepare(request_bytes_), 'q', request_bytes_);
    out.commit(request_bytes_);
  }

  Response take(const net::Buffer& in, std::size_t&) const noexcept {
    if (in.size() < response_bytes_) return {};
    return {Response::Status::complete, response_bytes_, 200, {}, false};
  }

 private:
  std::uint32_t request_bytes_;
  std::uint32_t response_bytes_;
};

// ZAP-RPC (wire B, docs/spec/zap-rpc.md): one request frame per call, its
// method ordinal naming the operation (from the target: /health, /rpc, /logs)
// and the body codec (from the content type), its PromiseID the caller's;
// answers are response frames matched by PromiseID, in any order. The wire
// carries no content type: the ordinal a call was sent with names the codec
// of its answer (kContentType false).
class ZapRpcClient : public NoSession<ZapRpcClient> {
 public:
  using NoSession<ZapRpcClient>::append_request;
  using NoSession<ZapRpcClient>::take;
  static constexpr bool kRawBytes = false;
  static constexpr bool kMultiplexed = true;
  static constexpr bool kContentType = false;

  // The ordinal no server of the spec knows (its answer is 404, as an HTTP
  // server's to an unknown path or content type): what a target or content
  // type without an ordinal is sent as. The load engine sends none.
  static constexpr std::uint32_t kUnknownMethod = 0xFFFF'FFFF;

  [[nodiscard]] static constexpr std::uint32_t method_for(std::string_view target,
                                                          std::string_view content_type) noexcept {
    if (target == "/health") return zaprpc::method_ordinal(zaprpc::Op::health, 0);
    const int body = zaprpc::body_code(content_type);
    if (body < 0) return kUnknownMethod;
    if (target == "/rpc") return zaprpc::method_ordinal(zaprpc::Op::eth_call, static_cast<std::size_t>(body));
    if (target == "/logs")
      return zaprpc::method_ordinal(zaprpc::Op::eth_get_logs, static_cast<std::size_t>(body));
    return kUnknownMethod;
  }

  // method: not sent (HTTP's GET or POST follows from the operation).
  void append_request(net::Buffer& out, std::string_view /*method*/, std::string_view target,
                      std::string_view content_type, std::span<const std::uint8_t> body,
                      std::uint32_t promise) {
    zaprpc::Request r;
    r.method = method_for(target, content_type);
    r.promise = promise;
    r.payload = body;
    // Only a payload over the 64 MiB frame limit fails, and no scenario's request comes near it.
    (void)zaprpc::append_request_frame(out, r);
  }

  Response take(const net::Buffer& in, std::size_t&) const noexcept {
    const zaprpc::FrameScan s = zaprpc::scan_frame(in.readable());
    if (s.status == zaprpc::FrameScan::Status::need_more) return {};
    if (s.status == zaprpc::FrameScan::Status::bad_length ||
        s.dir != static_cast<std::uint8_t>(zaprpc::Dir::response))
      return {Response::Status::malformed};
    zaprpc::Response v;
    if (zaprpc::decode_response(zaprpc::frame_body(in.readable(), s), v) != zaprpc::EnvelopeError::ok)
      return {Response::Status::malformed};
    Response r{Response::Status::complete, s.frame_bytes(), static_cast<int>(v.status), v.body};
    r.promise = v.promise;
    return r;
  }
};

// HTTP/2 (h2c, prior knowledge) and gRPC, on an nghttp2 client session per
// connection (docs/spec/http2-grpc.md §1, §4); the code is http2_client.cpp.
// Mode::http2 sends /health, /rpc and /logs as HTTP/1.1 does (method, path,
// content-type) and reports :status, content-type and the body. Mode::grpc
// sends every call as `POST /zapbench.Eth/Call` with the body codec's gRPC
// content type, `te: trailers` and the body as one length-prefixed message;
// an answer is code 200 only with :status 200 and `grpc-status: 0` in its
// trailers (else code is the :status, or 1000 + grpc-status, 999 when none
// came: a status error), must carry the request's content type and exactly
// one message (else `invalid`), and its body is that message.
//
// A call's PromiseID (its sequence in the engine's call table) is its
// stream's user data, so answers complete in any order; each open stream has
// a slot whose request and response buffers are reused (no allocation once
// warm; nghttp2's own allocations go to the thread's wire::h2::MemPool). A
// response body lives in its slot until the next take(). A stream the server
// resets before its answer ended is a Response with `reset`. Received bytes
// (every frame) are shared out over the answers a read completed; sent bytes
// are what each request and control frame appended to `out`.
class Http2Client {
 public:
  enum class Mode : std::uint8_t { http2, grpc };
  static constexpr bool kRawBytes = false;
  static constexpr bool kMultiplexed = true;
  static constexpr bool kContentType = true;
  static constexpr bool kFixedBytes = false;  // HPACK's dynamic table: every request is submitted
  static constexpr bool kSession = true;

  class Session;  // http2_client.cpp: the nghttp2 session, its stream slots, the answers ready
  struct SessionDelete {
    void operator()(Session* s) const noexcept;
  };
  struct State {
    std::unique_ptr<Session, SessionDelete> session;  // made at the first reset(), reused by reconnects
  };

  // authority: HOST:PORT (:authority); depth: the streams the engine keeps
  // open per connection, which the server's SETTINGS_MAX_CONCURRENT_STREAMS
  // must allow (refused()); first_stream_id: odd, 1 but in tests (stream ids
  // running out).
  Http2Client(std::string authority, Mode mode, unsigned depth, std::uint32_t first_stream_id = 1);
  Http2Client(Http2Client&&) noexcept;
  Http2Client& operator=(Http2Client&&) = delete;
  ~Http2Client();

  // A new session for a new connection: the client preface, SETTINGS and the
  // connection WINDOW_UPDATE into `out`; every slot free.
  void reset(State& s, net::Buffer& out);
  // Requests may be sent: the server's SETTINGS came, they allow `depth`
  // streams, and stream ids are left.
  [[nodiscard]] bool ready(const State& s) const noexcept;
  // The server's SETTINGS came and allow fewer than `depth` streams: the
  // value they allow; 0 otherwise.
  [[nodiscard]] std::uint32_t refused(const State& s) const noexcept;
  // No stream id is left on this connection: reconnect once its calls are answered.
  [[nodiscard]] bool exhausted(const State& s) const noexcept;

  // Submits one request (stream user data: promise) and writes its frames to
  // `out`. ready() must hold.
  void append_request(net::Buffer& out, std::string_view method, std::string_view target,
                      std::string_view content_type, std::span<const std::uint8_t> body,
                      std::uint32_t promise, State& s);
  // The next answer ready: complete (or `reset`), or need_more once `in` is
  // all read (consumed here), or malformed (an HTTP/2 connection error).
  // Control frames the session owes the server go to `out`.
  Response take(net::Buffer& in, net::Buffer& out, State& s);

 private:
  std::string authority_;
  Mode mode_;
  unsigned depth_;
  std::uint32_t first_stream_id_;
  std::unique_ptr<h2::MemPool> pool_;  // this thread's: outlives the sessions (the engine's Conns die first)
  nghttp2_session_callbacks* callbacks_ = nullptr;
  nghttp2_option* option_ = nullptr;
};

}  // namespace wire
