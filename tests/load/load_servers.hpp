// tests/load/load_servers.hpp — what the load engine's tests run against and
// how: the project's own in-process server (one per test binary, every wire),
// raw test servers that answer what a handler returns (honest, tampered,
// closing, failing), a ZAP-RPC server that answers out of order, to calls never
// made or with frames that are no responses, servers that stall or delay; the
// load's options for a wire and scenario, a load run until the event its test
// needs (background_load.hpp), and the counters' checks.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "load/engine.hpp"
#include "micro/alloc_counter.hpp"
#include "net/buffer.hpp"
#include "net/clock.hpp"
#include "record/codecs.hpp"
#include "server/server.hpp"
#include "support/background_load.hpp"
#include "support/loopback.hpp"
#include "support/test_listener.hpp"
#include "wire/http1.hpp"
#include "wire/zap_http.hpp"
#include "wire/zap_rpc.hpp"

namespace loadtest {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using matrix::Framing;
using matrix::Scenario;
using zaptest::dead_port;
using zaptest::TestListener;

inline constexpr std::uint64_t kMs = 1'000'000;  // ns

inline std::uint64_t errors_of(const load::Result& r, load::ErrorKind k) {
  return r.errors[static_cast<int>(k)];
}

inline std::string describe_errors(const load::Result& r) {
  std::string s = "requests=" + std::to_string(r.requests) + " responses=" + std::to_string(r.responses);
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k) {
    s += ' ';
    s += load::describe(static_cast<load::ErrorKind>(k));
    s += '=';
    s += std::to_string(r.errors[k]);
  }
  return s;
}

// Recorded values of at least `ns` (whole buckets at or above it).
inline std::uint64_t count_at_least(const load::Histogram& h, std::uint64_t ns) {
  std::uint64_t n = 0;
  h.for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t count) {
    if (low >= ns) n += count;
  });
  return n;
}

inline load::Options options(matrix::Framing wire, std::uint16_t port, Scenario scenario,
                             bool zap_body = false) {
  load::Options o;
  o.framing = wire;
  o.port = port;
  o.scenario = scenario;
  o.body = record::find_codec(zap_body ? "zap" : "direct");
  o.connections = 4;
  o.threads = 1;
  o.duration_s = 0.5;
  o.warmup_s = 0.2;
  // A timeout error only for a hang: a busy or sanitized machine may be slow to answer, never this slow.
  o.timeout_ms = static_cast<std::uint32_t>(zaptest::kHang.count());
  return o;
}

// Stops the load once `what` holds for its live counters; the result after the drain.
inline load::Result run_until(const load::Options& o, const std::function<bool(const load::Progress&)>& done,
                              const std::string& what) {
  zaptest::BackgroundLoad l(o);
  l.await(done, what);
  return l.finish();
}
inline load::Result run_until_responses(const load::Options& o, std::uint64_t n) {
  return run_until(
      o, [n](const load::Progress& p) { return p.responses.load() >= n; },
      std::to_string(n) + " valid responses");
}
inline load::Result run_until_errors(const load::Options& o, std::uint64_t n) {
  return run_until(
      o, [n](const load::Progress& p) { return p.errors.load() >= n; }, std::to_string(n) + " errors");
}

// Every response valid, every counter consistent.
inline void expect_clean(const load::Result& r) {
  EXPECT_GT(r.responses, 0u);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_EQ(r.latency.count(), r.responses);
  EXPECT_EQ(r.latency_actual.count(), r.responses);
  EXPECT_GE(r.requests, r.responses);
  EXPECT_GT(r.bytes_sent, 0u);
  EXPECT_GT(r.bytes_received, 0u);
}

// ---- the project's own server ---------------------------------------------------

// One in-process zapbench server for the suite, every wire on 127.0.0.1:0.
class OwnServer {
 public:
  static OwnServer& get() {
    static OwnServer s;
    return s;
  }
  std::uint16_t port(matrix::Framing w) const { return srv_->bound(w)[0].port; }

 private:
  OwnServer() {
    server::Config cfg;
    cfg.http.push_back({"127.0.0.1", 0});
    cfg.zap.push_back({"127.0.0.1", 0});
    cfg.zap_rpc.push_back({"127.0.0.1", 0});
    cfg.json = &record::default_json_codec();
    cfg.threads = 1;
    srv_ = std::make_unique<server::Server>(cfg);
    thread_ = std::thread([this] { srv_->run(); });
  }
  ~OwnServer() {
    srv_->stop();
    thread_.join();
  }
  std::unique_ptr<server::Server> srv_;
  std::thread thread_;
};

// ---- raw test servers -----------------------------------------------------------

struct Req {
  std::string method, target, content_type, body;
};
struct Reply {
  int status = 200;
  std::string content_type = "text/plain";
  std::string body = "ok";
  bool close = false;  // HTTP: send Connection: close and close after this reply
};

// A blocking server on 127.0.0.1:0 speaking HTTP/1.1 or ZAP-HTTP, each connection answering its requests in
// order with handler(request) (nullopt: no answer). stop() (or the destructor) closes the listener and every
// connection.
class RawServer {
 public:
  using Handler = std::function<std::optional<Reply>(const Req&)>;

  RawServer(matrix::Framing wire, Handler handler) : wire_(wire), handler_(std::move(handler)) {}
  std::uint16_t port() const { return listener_.port(); }
  void stop() { listener_.stop(); }

 private:
  void serve(int fd) {
    net::Buffer in, out;
    wire::zaphttp::ResponseEncoder enc;
    while (!listener_.stopping()) {
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, 10);
      if (ready < 0) return;
      if (ready == 0) continue;
      std::uint8_t* w = in.prepare(16 * 1024);
      const ssize_t n = recv(fd, w, in.writable(), 0);
      if (n <= 0) return;
      in.commit(static_cast<std::size_t>(n));
      Req q;
      bool close_after = false;
      for (int got; !close_after &&
                    (got = wire_ == matrix::Framing::http1 ? take_http(in, q) : take_zap(in, q)) != 0;) {
        if (got < 0) return;
        if (const std::optional<Reply> r = handler_(q)) {
          append(*r, out, enc);
          close_after = r->close;
        }
      }
      while (!out.empty()) {
        const ssize_t s = send(fd, out.readable().data(), out.size(), MSG_NOSIGNAL);
        if (s <= 0) return;
        out.consume(static_cast<std::size_t>(s));
      }
      if (close_after) return;
    }
  }

  // 1: a request taken into q; 0: need more bytes; -1: malformed.
  static int take_http(net::Buffer& in, Req& q) {
    wire::http::Request r;
    const wire::http::ParseResult pr = wire::http::parse_request(in.readable_text(), r, wire::http::Limits{});
    if (pr.status == wire::http::Status::error) return -1;
    if (pr.status == wire::http::Status::need_more || in.size() < r.message_bytes()) return 0;
    q = {std::string(r.method), std::string(r.target), std::string(r.content_type),
         std::string(in.readable_text().substr(r.head_bytes, r.content_length))};
    in.consume(r.message_bytes());
    return 1;
  }
  static int take_zap(net::Buffer& in, Req& q) {
    const wire::zaphttp::FrameScan s = wire::zaphttp::scan_frame(in.readable());
    if (s.status == wire::zaphttp::FrameScan::Status::need_more) return 0;
    wire::zaphttp::RequestView v;
    if (s.status == wire::zaphttp::FrameScan::Status::bad_length ||
        wire::zaphttp::decode_request(wire::zaphttp::frame_message(in.readable(), s), v) !=
            wire::zaphttp::FrameError::ok)
      return -1;
    q = {std::string(v.method), std::string(v.target),
         std::string(v.headers.find("Content-Type").value_or("")),
         std::string(reinterpret_cast<const char*>(v.body.data()), v.body.size())};
    in.consume(s.frame_bytes());
    return 1;
  }

  void append(const Reply& r, net::Buffer& out, wire::zaphttp::ResponseEncoder& enc) const {
    if (wire_ == matrix::Framing::http1) {
      wire::http::write_response(out, r.status, wire::http::reason_phrase(r.status), r.content_type, r.body,
                                 r.close, "");
      return;
    }
    const wire::zaphttp::Header ct{"Content-Type", r.content_type};
    wire::zaphttp::ResponseSpec spec;
    spec.status = static_cast<std::uint16_t>(r.status);
    spec.headers = {&ct, 1};
    spec.body = {reinterpret_cast<const std::uint8_t*>(r.body.data()), r.body.size()};
    enc.append_frame(spec, out);
  }

  matrix::Framing wire_;
  Handler handler_;
  TestListener listener_{[this](int fd) { serve(fd); }};  // last: its threads use the above
};

// The true answer to an rpc body, as Codec encodes it, after tamper() changes it.
template <class Codec>
inline std::string rpc_answer(const std::string& body, const std::function<void(record::Response&)>& tamper) {
  Codec codec;
  std::vector<std::uint8_t> padded(body.begin(), body.end());
  padded.resize(body.size() + record::kInputPaddingBytes);  // decoders may read this far past the end
  record::RequestView req;
  if (codec.decode_request({padded.data(), body.size()}, req) != record::DecodeError::ok)
    return "undecodable";
  record::Response resp = record::compute(req);
  tamper(resp);
  const record::Bytes out = codec.encode_response(resp);
  return {reinterpret_cast<const char*>(out.data()), out.size()};
}

// GET /health answers health_body; POST /rpc the tampered true answer in the request's body codec.
inline RawServer::Handler rpc_handler(std::string health_body,
                                      std::function<void(record::Response&)> tamper) {
  return [=](const Req& q) -> std::optional<Reply> {
    if (q.target == "/health") return Reply{200, "text/plain", health_body};
    if (q.content_type == record::ZapCodec::kContentType)
      return Reply{200, std::string(record::ZapCodec::kContentType),
                   rpc_answer<record::ZapCodec>(q.body, tamper)};
    return Reply{200, "application/json", rpc_answer<record::DirectCodec>(q.body, tamper)};
  };
}

inline const std::function<void(record::Response&)> kHonest = [](record::Response&) {};

// POST /logs: the true answer to a ZAP logs request (the record's generated logs, ZAP-encoded), after
// tamper() changes the logs; sent with `content_type` and `status`.
inline RawServer::Handler logs_handler(std::function<void(record::LogSet&)> tamper,
                                       std::string content_type = "application/zap", int status = 200) {
  return [=](const Req& q) -> std::optional<Reply> {
    record::ZapCodec codec;
    std::vector<std::uint8_t> padded(q.body.begin(), q.body.end());
    padded.resize(q.body.size() + record::kInputPaddingBytes);
    record::LogsRequest req;
    if (q.target != "/logs" ||
        codec.decode_logs_request({padded.data(), q.body.size()}, req) != record::DecodeError::ok)
      return Reply{400, "text/plain", "not a logs request"};
    record::LogSet set;
    record::generate(req, set);
    tamper(set);
    const record::Bytes out = codec.encode_logs(set.logs);
    return Reply{status, content_type, std::string(reinterpret_cast<const char*>(out.data()), out.size())};
  };
}
inline const std::function<void(record::LogSet&)> kHonestLogs = [](record::LogSet&) {};

inline load::Options logs_options(matrix::Framing wire, std::uint16_t port, std::uint32_t n) {
  load::Options o = options(wire, port, Scenario::logs, /*zap_body=*/true);
  o.logs = n;
  return o;
}

// A ZAP-RPC server on 127.0.0.1:0 (docs/spec/zap-rpc.md §3, the parts a loader meets): each connection
// gathers calls until `gather` are in or the peer has been quiet for 5 ms, then answers that batch — in
// REVERSE order by default, so a loader that matched answers to calls by position would fail — with the true
// answers of the record computed with the body codec (health: "ok"; a method of another codec: 404). Its
// misbehaviours (Misbehave) are each done once in the server's life, or on every answer, as named. Allocates
// nothing per call once warm (buffers, batch and codec reused per connection), so a test can count the
// loader's allocations against it.
class RpcServer {
 public:
  enum class Misbehave : std::uint8_t {
    none,
    status_500,          // every answer: status 500 (with the true body)
    swap_once,           // once: the first two calls of a batch get each other's answers
    inject_once,         // once, after a connection's third batch: an answer to PromiseID 0xFFFF0000 (never
                         // sent) and a second answer to the batch's last call (answered already)
    wrong_dir,           // every answer: a frame whose direction byte says request (1)
    malformed_envelope,  // every answer: dir 2, then bytes that are no ZAP message
    hold_first           // every connection: its first call (PromiseID 1) is never answered
  };
  static constexpr std::uint32_t kNeverSent = 0xFFFF'0000u;

  RpcServer(const record::CodecInfo& body, unsigned gather, Misbehave m = Misbehave::none,
            bool reverse = true)
      : body_(body), gather_(std::max(1u, gather)), misbehave_(m), reverse_(reverse) {}
  std::uint16_t port() const { return listener_.port(); }
  // Batches of two or more calls answered in reverse order.
  int reversed_batches() const { return reversed_; }
  bool swapped() const { return swapped_; }
  bool injected() const { return injected_; }
  // The most calls one connection has sent.
  std::size_t most_calls_per_connection() const { return most_calls_; }

 private:
  void serve(int fd) {
    net::Buffer in(64 * 1024), out(64 * 1024);
    std::unique_ptr<record::AnyCodec> codec = body_.make();
    record::LogSet logs;
    std::vector<wire::zaprpc::Request> batch;
    batch.reserve(4 * gather_);
    std::size_t calls_here = 0;
    for (int batches = 0; !listener_.stopping();) {
      const int calls = gather(fd, in);
      if (calls < 0) return;
      if (calls == 0) continue;
      // Every whole frame in `in` is one call; decoded in place (views into `in`, which stays put until
      // the batch is answered).
      batch.clear();
      std::size_t at = 0;
      for (;;) {
        const auto rest = in.readable().subspan(at);
        const wire::zaprpc::FrameScan f = wire::zaprpc::scan_frame(rest);
        if (f.status != wire::zaprpc::FrameScan::Status::complete) break;
        wire::zaprpc::Request r;
        if (f.dir != static_cast<std::uint8_t>(wire::zaprpc::Dir::request) ||
            wire::zaprpc::decode_request(wire::zaprpc::frame_body(rest, f), r) !=
                wire::zaprpc::EnvelopeError::ok) {
          ADD_FAILURE() << "the loader sent a frame that is not a request";
          return;
        }
        batch.push_back(r);
        at += f.frame_bytes();
      }
      calls_here += batch.size();
      for (std::size_t m = most_calls_;
           calls_here > m && !most_calls_.compare_exchange_weak(m, calls_here);) {
      }
      answer(batch, *codec, logs, out, ++batches);
      in.consume(at);
      while (!out.empty()) {
        const ssize_t n = send(fd, out.readable().data(), out.size(), MSG_NOSIGNAL);
        if (n <= 0) return;
        out.consume(static_cast<std::size_t>(n));
      }
    }
  }

  // Reads until `gather_` whole frames are in `in`, or 5 ms pass with none more; the whole frames then in
  // `in` (0: none yet, the caller comes back), or -1 when the peer is gone or sent a bad length.
  int gather(int fd, net::Buffer& in) {
    for (;;) {
      const int frames = whole_frames(in);
      if (frames < 0) return -1;
      if (std::size_t(frames) >= gather_) return frames;
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, frames == 0 ? 10 : 5);
      if (ready < 0) return -1;
      if (ready == 0) return frames;
      const ssize_t n = recv(fd, in.prepare(16 * 1024), 16 * 1024, 0);
      if (n <= 0) return -1;
      in.commit(static_cast<std::size_t>(n));
    }
  }
  static int whole_frames(const net::Buffer& in) {
    int n = 0;
    for (std::size_t at = 0;;) {
      const wire::zaprpc::FrameScan f = wire::zaprpc::scan_frame(in.readable().subspan(at));
      if (f.status == wire::zaprpc::FrameScan::Status::bad_length) return -1;
      if (f.status == wire::zaprpc::FrameScan::Status::need_more) return n;
      ++n;
      at += f.frame_bytes();
    }
  }

  static zap::Bytes text(std::string_view t) {
    return {reinterpret_cast<const std::uint8_t*>(t.data()), t.size()};
  }

  // The answer to one call: a status and a body in the codec's own output (valid until its next encode).
  wire::zaprpc::Response answer_to(const wire::zaprpc::Request& call, record::AnyCodec& codec,
                                   record::LogSet& logs) const {
    const wire::zaprpc::Method m = wire::zaprpc::method_of(call.method);
    if (!m.known || (m.op != wire::zaprpc::Op::health && m.content_type != body_.content_type))
      return {404, call.promise, text("unknown method")};
    if (m.op == wire::zaprpc::Op::health) return {200, call.promise, text("ok")};
    if (m.op == wire::zaprpc::Op::eth_call) {
      record::RequestView req;
      if (codec.decode_request(call.payload, req) != record::DecodeError::ok)
        return {400, call.promise, text("bad request")};
      return {200, call.promise, codec.encode_response(record::compute(req))};
    }
    record::LogsRequest req;
    if (codec.decode_logs_request(call.payload, req) != record::DecodeError::ok)
      return {400, call.promise, text("bad logs request")};
    record::generate(req, logs);
    return {200, call.promise, codec.encode_logs(logs.logs)};
  }

  void append(net::Buffer& out, wire::zaprpc::Response r) const {
    if (misbehave_ == Misbehave::hold_first && r.promise == 1) return;
    if (misbehave_ == Misbehave::status_500) r.status = 500;
    if (misbehave_ == Misbehave::malformed_envelope) {  // L = 5: dir 2, then 4 bytes that are no message
      const std::uint8_t frame[] = {5, 0, 0, 0, 2, 'n', 'o', 'p', 'e'};
      out.append(frame, sizeof frame);
      return;
    }
    if (misbehave_ == Misbehave::wrong_dir) {  // L = 1: a request frame with no envelope
      const std::uint8_t frame[] = {1, 0, 0, 0, 1};
      out.append(frame, sizeof frame);
      return;
    }
    ASSERT_TRUE(wire::zaprpc::append_response_frame(out, r));
  }

  void answer(const std::vector<wire::zaprpc::Request>& batch, record::AnyCodec& codec, record::LogSet& logs,
              net::Buffer& out, int batch_index) {
    const std::size_t n = batch.size();
    if (misbehave_ == Misbehave::swap_once && n >= 2 && !swapped_.exchange(true)) {
      // The second call's answer, kept aside (once: may allocate), goes to the first call, and the first's to
      // the second.
      wire::zaprpc::Response second = answer_to(batch[1], codec, logs);
      const std::vector<std::uint8_t> second_body(second.body.begin(), second.body.end());
      wire::zaprpc::Response first = answer_to(batch[0], codec, logs);
      std::swap(first.promise, second.promise);
      second.body = second_body;
      append(out, second);  // PromiseID of the first call, the second's body
      append(out, first);
      for (std::size_t i = 2; i < n; ++i) append(out, answer_to(batch[i], codec, logs));
      return;
    }
    for (std::size_t k = 0; k < n; ++k) append(out, answer_to(batch[reverse_ ? n - 1 - k : k], codec, logs));
    if (reverse_ && n >= 2) ++reversed_;
    if (misbehave_ == Misbehave::inject_once && batch_index >= 3 && !injected_.exchange(true)) {
      const std::uint32_t last = batch[reverse_ ? 0 : n - 1].promise;
      append(out, {200, kNeverSent, text("ok")});
      append(out, {200, last, text("ok")});
    }
  }

  const record::CodecInfo& body_;
  std::size_t gather_;
  Misbehave misbehave_;
  bool reverse_;
  std::atomic<int> reversed_{0};
  std::atomic<bool> swapped_{false}, injected_{false};
  std::atomic<std::size_t> most_calls_{0};
  TestListener listener_{[this](int fd) { serve(fd); }};  // last: its threads use the above
};

// Answers "ok" at once, except the first request to arrive after the last arm(): that one waits `stall`
// first. stalls_begun() and stalls_ended() are the events a test waits for.
class StallingServer {
 public:
  std::uint16_t port() const { return srv_.port(); }
  void arm(std::chrono::milliseconds stall) {
    std::lock_guard lock(mu_);
    stall_ = stall;
    armed_ = true;
  }
  int stalls_begun() const { return begun_; }
  int stalls_ended() const { return ended_; }

 private:
  std::optional<Reply> answer() {
    std::chrono::milliseconds wait{0};
    {
      std::lock_guard lock(mu_);
      if (armed_) {
        armed_ = false;
        wait = stall_;
      }
    }
    if (wait.count() > 0) {
      ++begun_;
      std::this_thread::sleep_for(wait);
      ++ended_;
    }
    return Reply{};
  }

  std::mutex mu_;
  std::chrono::milliseconds stall_{0};
  bool armed_ = false;
  std::atomic<int> begun_{0}, ended_{0};
  RawServer srv_{matrix::Framing::http1,
                 [this](const Req&) { return answer(); }};  // last: its threads use the above
};

// Answers "ok" to every request after waiting `delay`: no latency can be shorter, and no connection can be
// answered more often than once per delay, whatever the machine's speed.
class DelayingServer {
 public:
  explicit DelayingServer(std::chrono::milliseconds delay) : delay_(delay) {}
  std::uint16_t port() const { return srv_.port(); }

 private:
  std::chrono::milliseconds delay_;
  RawServer srv_{matrix::Framing::http1, [this](const Req&) {
                   std::this_thread::sleep_for(delay_);
                   return std::optional<Reply>(Reply{});
                 }};
};

}  // namespace loadtest
