// tests/load/load_engine_test.cpp — the load engine (src/load/engine.cpp) end to end over loopback: against
// the project's own in-process server on both wires and bodies, and against small raw test servers that lie,
// fail, stall, stay silent, die mid-run or are not there; on ZAP-RPC, against a test server that answers out
// of order on purpose, to calls never made, with swapped answers or frames that are no responses; and the
// loader's steady state counted for allocations on every wire. Owns the engine's counting, validation,
// open-loop latency correction and termination; the histogram's arithmetic is load_histogram_test's. Every
// load runs until the event its test needs (so many responses, errors, a stall begun or ended) and is then
// stopped (background_load.hpp): no verdict depends on how fast the machine is. Where a figure is a time, it
// is one the test imposes (a server that waits D before answering), and the bound holds by construction.
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
#include "net/http1.hpp"
#include "net/zap_http.hpp"
#include "net/zap_rpc.hpp"
#include "record/codecs.hpp"
#include "server/server.hpp"
#include "support/background_load.hpp"
#include "support/loopback.hpp"
#include "support/test_listener.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using matrix::Framing;
using matrix::Scenario;
using zaptest::TestListener;

constexpr std::uint64_t kMs = 1'000'000;  // ns

std::uint64_t errors_of(const load::Result& r, load::ErrorKind k) { return r.errors[static_cast<int>(k)]; }

std::string describe_errors(const load::Result& r) {
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
std::uint64_t count_at_least(const load::Histogram& h, std::uint64_t ns) {
  std::uint64_t n = 0;
  h.for_each_bucket([&](std::uint64_t low, std::uint64_t, std::uint64_t count) {
    if (low >= ns) n += count;
  });
  return n;
}

load::Options options(matrix::Framing wire, std::uint16_t port, Scenario scenario, bool zap_body = false) {
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
load::Result run_until(const load::Options& o, const std::function<bool(const load::Progress&)>& done,
                       const std::string& what) {
  zaptest::BackgroundLoad l(o);
  l.await(done, what);
  return l.finish();
}
load::Result run_until_responses(const load::Options& o, std::uint64_t n) {
  return run_until(
      o, [n](const load::Progress& p) { return p.responses.load() >= n; },
      std::to_string(n) + " valid responses");
}
load::Result run_until_errors(const load::Options& o, std::uint64_t n) {
  return run_until(
      o, [n](const load::Progress& p) { return p.errors.load() >= n; }, std::to_string(n) + " errors");
}

// Every response valid, every counter consistent.
void expect_clean(const load::Result& r) {
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
  std::uint16_t port(matrix::Framing w) const {
    return srv_
        ->bound(w == matrix::Framing::http1      ? matrix::Framing::http1
                : w == matrix::Framing::zap_http ? matrix::Framing::zap_http
                                                 : matrix::Framing::zap_rpc)[0]
        .port;
  }

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
    net::zaphttp::ResponseEncoder enc;
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
    net::http::Request r;
    const net::http::ParseResult pr = net::http::parse_request(in.readable_text(), r, net::http::Limits{});
    if (pr.status == net::http::Status::error) return -1;
    if (pr.status == net::http::Status::need_more || in.size() < r.message_bytes()) return 0;
    q = {std::string(r.method), std::string(r.target), std::string(r.content_type),
         std::string(in.readable_text().substr(r.head_bytes, r.content_length))};
    in.consume(r.message_bytes());
    return 1;
  }
  static int take_zap(net::Buffer& in, Req& q) {
    const net::zaphttp::FrameScan s = net::zaphttp::scan_frame(in.readable());
    if (s.status == net::zaphttp::FrameScan::Status::need_more) return 0;
    net::zaphttp::RequestView v;
    if (s.status == net::zaphttp::FrameScan::Status::bad_length ||
        net::zaphttp::decode_request(net::zaphttp::frame_message(in.readable(), s), v) !=
            net::zaphttp::FrameError::ok)
      return -1;
    q = {std::string(v.method), std::string(v.target),
         std::string(v.headers.find("Content-Type").value_or("")),
         std::string(reinterpret_cast<const char*>(v.body.data()), v.body.size())};
    in.consume(s.frame_bytes());
    return 1;
  }

  void append(const Reply& r, net::Buffer& out, net::zaphttp::ResponseEncoder& enc) const {
    if (wire_ == matrix::Framing::http1) {
      net::http::write_response(out, r.status, net::http::reason_phrase(r.status), r.content_type, r.body,
                                r.close, "");
      return;
    }
    const net::zaphttp::Header ct{"Content-Type", r.content_type};
    net::zaphttp::ResponseSpec spec;
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
std::string rpc_answer(const std::string& body, const std::function<void(record::Response&)>& tamper) {
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
RawServer::Handler rpc_handler(std::string health_body, std::function<void(record::Response&)> tamper) {
  return [=](const Req& q) -> std::optional<Reply> {
    if (q.target == "/health") return Reply{200, "text/plain", health_body};
    if (q.content_type == record::ZapCodec::kContentType)
      return Reply{200, std::string(record::ZapCodec::kContentType),
                   rpc_answer<record::ZapCodec>(q.body, tamper)};
    return Reply{200, "application/json", rpc_answer<record::DirectCodec>(q.body, tamper)};
  };
}

const std::function<void(record::Response&)> kHonest = [](record::Response&) {};

// POST /logs: the true answer to a ZAP logs request (the record's generated logs, ZAP-encoded), after
// tamper() changes the logs; sent with `content_type` and `status`.
RawServer::Handler logs_handler(std::function<void(record::LogSet&)> tamper,
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
const std::function<void(record::LogSet&)> kHonestLogs = [](record::LogSet&) {};

load::Options logs_options(matrix::Framing wire, std::uint16_t port, std::uint32_t n) {
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
    std::vector<net::zaprpc::Request> batch;
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
        const net::zaprpc::FrameScan f = net::zaprpc::scan_frame(rest);
        if (f.status != net::zaprpc::FrameScan::Status::complete) break;
        net::zaprpc::Request r;
        if (f.dir != static_cast<std::uint8_t>(net::zaprpc::Dir::request) ||
            net::zaprpc::decode_request(net::zaprpc::frame_body(rest, f), r) !=
                net::zaprpc::EnvelopeError::ok) {
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
      const net::zaprpc::FrameScan f = net::zaprpc::scan_frame(in.readable().subspan(at));
      if (f.status == net::zaprpc::FrameScan::Status::bad_length) return -1;
      if (f.status == net::zaprpc::FrameScan::Status::need_more) return n;
      ++n;
      at += f.frame_bytes();
    }
  }

  static zap::Bytes text(std::string_view t) {
    return {reinterpret_cast<const std::uint8_t*>(t.data()), t.size()};
  }

  // The answer to one call: a status and a body in the codec's own output (valid until its next encode).
  net::zaprpc::Response answer_to(const net::zaprpc::Request& call, record::AnyCodec& codec,
                                  record::LogSet& logs) const {
    const net::zaprpc::Method m = net::zaprpc::method_of(call.method);
    if (!m.known || (m.op != net::zaprpc::Op::health && m.content_type != body_.content_type))
      return {404, call.promise, text("unknown method")};
    if (m.op == net::zaprpc::Op::health) return {200, call.promise, text("ok")};
    if (m.op == net::zaprpc::Op::eth_call) {
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

  void append(net::Buffer& out, net::zaprpc::Response r) const {
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
    ASSERT_TRUE(net::zaprpc::append_response_frame(out, r));
  }

  void answer(const std::vector<net::zaprpc::Request>& batch, record::AnyCodec& codec, record::LogSet& logs,
              net::Buffer& out, int batch_index) {
    const std::size_t n = batch.size();
    if (misbehave_ == Misbehave::swap_once && n >= 2 && !swapped_.exchange(true)) {
      // The second call's answer, kept aside (once: may allocate), goes to the first call, and the first's to
      // the second.
      net::zaprpc::Response second = answer_to(batch[1], codec, logs);
      const std::vector<std::uint8_t> second_body(second.body.begin(), second.body.end());
      net::zaprpc::Response first = answer_to(batch[0], codec, logs);
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

using zaptest::dead_port;

// ---- against the project's server -----------------------------------------------

TEST(load_engine, validates_every_response_on_every_wire_and_body) {
  struct Case {
    const char* name;
    Scenario scenario;
    bool zap_body;
  };
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
    for (const Case& c : {Case{"hello", Scenario::hello, false}, Case{"rpc json", Scenario::rpc, false},
                          Case{"rpc zap", Scenario::rpc, true}}) {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + c.name);
      zaptest::BackgroundLoad l(options(wire, OwnServer::get().port(wire), c.scenario, c.zap_body));
      // Every connection answered too: on a busy machine the first ones may carry the first 100 alone.
      l.await([](const load::Progress& p) { return p.responses >= 100 && p.connections_answered >= 4; },
              "100 valid responses on all 4 connections");
      const load::Result& r = l.finish();
      expect_clean(r);
      EXPECT_TRUE(r.stopped);
      EXPECT_GT(r.elapsed_s, 0);
      // The live counters end where the result does.
      EXPECT_EQ(l.progress().responses.load(), r.responses);
      EXPECT_EQ(l.progress().errors.load(), r.error_total());
      EXPECT_EQ(l.progress().connections_answered.load(), r.connections_answered);
      EXPECT_EQ(r.connections_answered, 4u);
    }
  }
}

// Every binary peer a server answers with, as the rpc body on every wire: sent with its content type (on
// ZAP-RPC, its method ordinal), every response decoded with the same codec and validated (id, balance, hash)
// like JSON and ZAP.
TEST(load_engine, validates_every_binary_peer_body_on_every_wire) {
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!info.available || info.trusted_input_only || info.family() != record::Family::peer) continue;
    for (matrix::Framing wire :
         {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + std::string(info.name));
      load::Options o = options(wire, OwnServer::get().port(wire), Scenario::rpc);
      o.body = &info;
      zaptest::BackgroundLoad l(o);
      l.await_responses(50, "50 valid responses");
      expect_clean(l.finish());
    }
  }
}

// The logs scenario against the project's server: every answer's content type and digest checked, on both
// HTTP wires, with ZAP and with every other codec that has the record; on ZAP-RPC (no content type: the
// method names the codec) with ZAP and the default JSON codec, to keep the suite's time; answers of 230 bytes
// to 2.3 MB (the loader's input grows to take them), pipelined.
// Under a sanitizer (10 to 50 times slower; TSan took minutes here) the megabyte answers cross the wires
// with ZAP and the default JSON codec only: every other codec's N = 10 000 read is the same code the
// release run checks, and its N = 1 answers still cross every wire under the sanitizer.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif

TEST(load_engine, validates_every_logs_answer_on_every_wire) {
  for (const record::CodecInfo& info : record::all_codecs()) {
    if (!record::logs_refusal(info).empty()) continue;
    const bool on_zap_rpc = info.name == "zap" || &info == &record::default_json_codec();
    for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc})
      for (const std::uint32_t n : {1u, 10'000u}) {
        if (wire == matrix::Framing::zap_rpc && !on_zap_rpc) continue;
        if (kSanitized && n == 10'000 && !on_zap_rpc) continue;
        SCOPED_TRACE(std::string(matrix::to_string(wire)) + " " + std::string(info.name) +
                     " N=" + std::to_string(n));
        load::Options o = logs_options(wire, OwnServer::get().port(wire), n);
        o.body = &info;
        o.connections = 2;
        o.pipeline = 2;
        zaptest::BackgroundLoad l(o);
        l.await_responses(20, "20 valid logs answers");
        const load::Result& r = l.finish();
        expect_clean(r);
        EXPECT_GT(r.received_mb_per_s(), 0);
        EXPECT_EQ(r.bytes_received / std::max<std::uint64_t>(r.responses, 1) > 1'000'000, n == 10'000)
            << "N=10 000 answers are megabytes";
      }
  }
}

// Every field of every log counts: an answer with one value changed, one log fewer, the right logs under
// another content type — each a validation error; a 500 a status error. The honest server is the control.
TEST(load_engine, counts_tampered_logs_answers_as_validation_errors) {
  struct Case {
    const char* name;
    RawServer::Handler handler;
    load::ErrorKind kind;
  };
  const Case cases[] = {
      {"one block number", logs_handler([](record::LogSet& s) { ++s.logs[s.logs.size() / 2].block_number; }),
       load::ErrorKind::validation},
      {"one byte of the last log", logs_handler([](record::LogSet& s) { s.bytes.back() ^= 1; }),
       load::ErrorKind::validation},
      {"one log fewer", logs_handler([](record::LogSet& s) { s.logs.pop_back(); }),
       load::ErrorKind::validation},
      {"removed flipped", logs_handler([](record::LogSet& s) { s.logs[0].removed = !s.logs[0].removed; }),
       load::ErrorKind::validation},
      {"another content type", logs_handler(kHonestLogs, "application/json"), load::ErrorKind::validation},
      {"status 500", logs_handler(kHonestLogs, "application/zap", 500), load::ErrorKind::status},
  };
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    {
      SCOPED_TRACE(std::string(matrix::to_string(wire)) + " honest");
      RawServer srv(wire, logs_handler(kHonestLogs));
      expect_clean(run_until_responses(logs_options(wire, srv.port(), 100), 20));
    }
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(wire == matrix::Framing::http1 ? "http " : "zap ") + c.name);
      RawServer srv(wire, c.handler);
      const load::Result r = run_until_errors(logs_options(wire, srv.port(), 100), 10);
      EXPECT_GT(errors_of(r, c.kind), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, c.kind)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
    }
  }
}

// What the logs scenario cannot run with is refused before anything is sent.
TEST(load_engine, refuses_a_logs_scenario_it_cannot_validate) {
  const auto error_of = [](const load::Options& o) -> std::string {
    try {
      load::run(o);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no error)";
  };
  load::Options o = logs_options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), 0);
  EXPECT_EQ(error_of(o), "the logs scenario needs N from 1 to 100000, got 0");
  o.logs = record::kMaxLogs + 1;
  EXPECT_EQ(error_of(o), "the logs scenario needs N from 1 to 100000, got 100001");
  for (const record::CodecInfo& info : record::all_codecs())
    if (info.available && !info.trusted_input_only && !info.has_logs) {
      o.logs = 1;
      o.body = &info;
      EXPECT_EQ(error_of(o), "the logs scenario: codec " + std::string(info.name) +
                                 " has no logs record yet (record::LogsCodec)");
      break;
    }
}

TEST(load_engine, pipelines_eight_deep_on_every_wire_without_errors) {
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    load::Options o = options(wire, OwnServer::get().port(wire), Scenario::rpc);
    o.pipeline = 8;
    o.threads = 2;  // also merges two threads' results
    const load::Result r = run_until_responses(o, 500);
    expect_clean(r);
    // No error and a drain that waits for every answer: each request of the window was answered.
    EXPECT_EQ(r.responses, r.requests);
  }
}

TEST(load_engine, a_window_that_runs_its_full_duration_reports_it) {
  load::Options o =
      options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), Scenario::hello);
  o.duration_s = 0.25;
  o.warmup_s = 0;
  const load::Result r = load::run(o);
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.elapsed_s, 0.25);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, r.requests);  // warm-up 0: the first request of each connection is in the window
}

// A load of 2 threads behind a start barrier (Options::go, docs/spec/hosts.md §4), both threads warm.
struct BarrierLoad {
  explicit BarrierLoad(double rate) : l(barrier_options(rate, go)) {
    l.await([](const load::Progress& p) { return p.threads.load() == 2 && p.warm_threads.load() == 2; },
            "both threads warm");
  }
  static load::Options barrier_options(double rate, const std::atomic<bool>& go) {
    load::Options o =
        options(matrix::Framing::http1, OwnServer::get().port(matrix::Framing::http1), Scenario::hello);
    o.threads = 2;
    o.rate_per_s = rate;
    o.warmup_s = 0.05;
    o.go = &go;
    return o;
  }
  std::atomic<bool> go{false};
  zaptest::BackgroundLoad l;
};

// Options::go, the start barrier of several loader hosts (docs/spec/hosts.md §4): never set, the threads
// count themselves warm and keep the warm-up load going unrecorded; a stop then leaves an empty window.
TEST(load_engine, a_start_barrier_never_given_records_nothing) {
  for (const double rate : {0.0, 2000.0}) {  // closed loop, then open loop
    SCOPED_TRACE(rate > 0 ? "open loop" : "closed loop");
    BarrierLoad b(rate);
    zaptest::BackgroundLoad& l = b.l;
    const load::Result& r = l.finish();
    EXPECT_TRUE(r.stopped);
    EXPECT_EQ(r.elapsed_s, 0);
    EXPECT_EQ(r.requests, 0u);
    EXPECT_EQ(r.responses, 0u);
    EXPECT_EQ(r.latency.count(), 0u);
    EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
    EXPECT_EQ(r.window_first_send_ns, -1);
    EXPECT_EQ(l.progress().responses.load(), 0u);
  }
}

// go set once every thread is warm: the window starts when each thread sees it, never before (the
// first recorded send is at or after the moment go was set, on the engine's clock, net/clock.hpp).
TEST(load_engine, a_start_barrier_starts_the_window_at_go) {
  for (const double rate : {0.0, 2000.0}) {
    SCOPED_TRACE(rate > 0 ? "open loop" : "closed loop");
    BarrierLoad b(rate);
    zaptest::BackgroundLoad& l = b.l;
    std::atomic<bool>& go = b.go;
    EXPECT_EQ(l.progress().responses.load(), 0u);  // nothing recorded before go
    const std::int64_t go_ns = net::now_ns();
    go = true;
    l.await_responses(100, "100 valid responses after go");
    const load::Result& r = l.finish();
    expect_clean(r);
    EXPECT_TRUE(r.stopped);
    EXPECT_GE(r.window_first_send_ns, go_ns);
    EXPECT_LE(r.window_first_send_ns, net::now_ns());
  }
}

// Little's law, L = rate x W, as the inequalities a closed loop obeys exactly. Against a server that waits
// D before each answer: every latency is at least D; a connection (one request in flight) is answered at
// most once per D; and the latencies of one connection never overlap, so their sum is at most the time the
// run lasted, per connection. Inflated latencies (a stale clock) break the last; deflated ones the first.
TEST(load_engine, closed_loop_latency_and_rate_obey_littles_law) {
  constexpr auto kDelay = 20ms;
  DelayingServer srv(kDelay);
  const load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  const auto start = Clock::now();
  const load::Result r = run_until_responses(o, 100);
  const double run_s = std::chrono::duration<double>(Clock::now() - start).count();
  expect_clean(r);
  const double delay_ns = std::chrono::duration<double, std::nano>(kDelay).count();
  EXPECT_GE(double(r.latency.min()), delay_ns) << "a latency shorter than the server's own wait";
  EXPECT_LE(double(r.responses), o.connections * (r.elapsed_s * 1e9 / delay_ns + 1))
      << "more answers than " << o.connections << " connections can get at one per " << kDelay.count()
      << " ms";
  EXPECT_LE(r.latency.mean() * double(r.latency.count()), o.connections * run_s * 1e9)
      << "the latencies add up to more time than the run had";
}

// ---- servers that answer wrongly ------------------------------------------------

TEST(load_engine, counts_wrong_balance_and_wrong_hello_body_as_validation_errors) {
  for (const bool honest : {true, false}) {  // the honest control proves the raw server itself is right
    RawServer srv(matrix::Framing::http1, honest
                                              ? rpc_handler("ok", kHonest)
                                              : rpc_handler("no", [](record::Response& r) { ++r.balance; }));
    for (Scenario s : {Scenario::rpc, Scenario::hello}) {
      SCOPED_TRACE(std::string(honest ? "honest " : "lying ") + (s == Scenario::rpc ? "rpc" : "hello"));
      const load::Options o = options(matrix::Framing::http1, srv.port(), s);
      if (honest) {
        expect_clean(run_until_responses(o, 20));
        continue;
      }
      const load::Result r = run_until_errors(o, 20);
      EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::validation)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
      EXPECT_EQ(r.latency.count(), 0u);
    }
  }
}

TEST(load_engine, counts_wrong_rpc_id_over_the_zap_wire_as_validation_errors) {
  for (const bool honest : {true, false}) {
    RawServer srv(matrix::Framing::zap_http,
                  rpc_handler(
                      "ok", honest ? kHonest : [](record::Response& r) { ++r.id; }));
    for (const bool zap_body : {false, true}) {
      SCOPED_TRACE(std::string(honest ? "honest " : "lying ") + (zap_body ? "zap body" : "json body"));
      const load::Options o = options(matrix::Framing::zap_http, srv.port(), Scenario::rpc, zap_body);
      if (honest) {
        expect_clean(run_until_responses(o, 20));
        continue;
      }
      const load::Result r = run_until_errors(o, 20);
      EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u);
      EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::validation)) << describe_errors(r);
      EXPECT_EQ(r.responses, 0u);
    }
  }
}

// The whole block hash is compared, not only what a charitable JSON decode checks: an answer with a wrong
// first byte, which every codec decodes, is a validation error.
TEST(load_engine, counts_a_wrong_block_hash_as_a_validation_error) {
  RawServer srv(matrix::Framing::http1, rpc_handler("ok", [](record::Response& r) { r.block_hash[0] ^= 1; }));
  const load::Result r = run_until_errors(options(matrix::Framing::http1, srv.port(), Scenario::rpc), 10);
  EXPECT_GT(errors_of(r, load::ErrorKind::validation), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// A server that answers and then closes, as its Connection: close says, is
// not failing: the loader reconnects and records the answers, no errors.
TEST(load_engine, an_announced_connection_close_is_not_an_error) {
  RawServer srv(matrix::Framing::http1, [](const Req&) { return Reply{200, "text/plain", "ok", true}; });
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  const load::Result r = run_until_responses(o, 5);
  EXPECT_GT(r.responses, 1u) << describe_errors(r);  // more than one connection's worth: it reconnected
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
}

TEST(load_engine, counts_a_non_200_answer_as_a_status_error) {
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    RawServer srv(wire, [](const Req&) {
      return Reply{500, "text/plain", "ok"};
    });  // a valid body, wrong status
    const load::Result r = run_until_errors(options(wire, srv.port(), Scenario::hello), 10);
    EXPECT_GT(errors_of(r, load::ErrorKind::status), 0u);
    EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::status)) << describe_errors(r);
    EXPECT_EQ(r.responses, 0u);
  }
}

TEST(load_engine, counts_a_silent_server_as_timeouts_and_still_ends) {
  RawServer srv(matrix::Framing::http1, [](const Req&) { return std::optional<Reply>{}; });
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 2;
  o.timeout_ms = 100;
  const load::Result r = run_until_errors(o, 2);
  EXPECT_GT(errors_of(r, load::ErrorKind::timeout), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// ---- ZAP-RPC: answers matched by PromiseID ---------------------------------------

load::Options zap_rpc_options(const RpcServer& srv, Scenario scenario, const char* body) {
  load::Options o = options(matrix::Framing::zap_rpc, srv.port(), scenario);
  o.body = record::find_codec(body);
  o.pipeline = 8;
  o.connections = 2;
  return o;
}

// A server that answers each batch of calls in reverse order: every answer is matched to its call by
// PromiseID and validated against that call (its id), so nothing is an error and every request of the window
// is answered. Hello and logs are fixed requests (built once, their PromiseID patched per send); rpc is built
// per call; the logs answers carry no content type on this wire.
TEST(load_engine, zap_rpc_matches_answers_given_in_reverse_order_to_their_calls) {
  struct Case {
    const char* name;
    Scenario scenario;
    const char* body;
  };
  for (const Case& c : {Case{"hello", Scenario::hello, "zap"}, Case{"rpc zap", Scenario::rpc, "zap"},
                        Case{"rpc json", Scenario::rpc, "direct"}, Case{"logs zap", Scenario::logs, "zap"}}) {
    SCOPED_TRACE(c.name);
    RpcServer srv(*record::find_codec(c.body), 8);
    load::Options o = zap_rpc_options(srv, c.scenario, c.body);
    // Both connections answered: on a busy machine one may carry the first 500 alone.
    const load::Result r = run_until(
        o, [](const load::Progress& p) { return p.responses >= 500 && p.connections_answered >= 2; },
        "500 valid responses on both connections");
    expect_clean(r);
    EXPECT_EQ(r.responses, r.requests);
    EXPECT_EQ(r.connections_answered, 2u);
    EXPECT_GT(srv.reversed_batches(), 0) << "no batch of two or more calls: nothing was reordered";
  }
}

// An answer to a PromiseID never sent and a second answer to one already answered are each counted once as
// unknown_promise, and the connection goes on: no other error, every request answered.
TEST(load_engine, zap_rpc_counts_answers_to_no_call_in_flight_as_unknown_promise) {
  EXPECT_EQ(load::describe(load::ErrorKind::unknown_promise), "unknown_promise");
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::inject_once);
  load::Options o = zap_rpc_options(srv, Scenario::rpc, "zap");
  o.warmup_s = 0;  // the injected answers fall in the window
  const load::Result r = run_until(
      o,
      [](const load::Progress& p) {
        return p.errors.load() >= 2 && p.responses.load() >= 200 && p.connections_answered >= 2;
      },
      "the two answers to no call in flight, and 200 valid responses on both connections");
  EXPECT_TRUE(srv.injected());
  EXPECT_EQ(errors_of(r, load::ErrorKind::unknown_promise), 2u) << describe_errors(r);
  EXPECT_EQ(r.error_total(), 2u) << describe_errors(r);
  EXPECT_EQ(r.responses, r.requests);
  EXPECT_EQ(r.connections_answered, 2u);
}

// Two calls answered with each other's answers: each answer is validated against the call its PromiseID
// names, whose record id it does not carry, so both are validation errors (and nothing else is).
TEST(load_engine, zap_rpc_validates_an_answer_against_the_call_its_promise_names) {
  for (const char* body : {"zap", "direct"}) {
    SCOPED_TRACE(body);
    RpcServer srv(*record::find_codec(body), 8, RpcServer::Misbehave::swap_once);
    load::Options o = zap_rpc_options(srv, Scenario::rpc, body);
    o.warmup_s = 0;
    const load::Result r = run_until(
        o, [](const load::Progress& p) { return p.errors.load() >= 2 && p.responses.load() >= 200; },
        "the two swapped answers, and 200 valid responses");
    EXPECT_TRUE(srv.swapped());
    EXPECT_EQ(errors_of(r, load::ErrorKind::validation), 2u) << describe_errors(r);
    EXPECT_EQ(r.error_total(), 2u) << describe_errors(r);
    EXPECT_EQ(r.responses + 2, r.requests);
  }
}

TEST(load_engine, zap_rpc_counts_a_non_200_answer_as_a_status_error) {
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::status_500);
  const load::Result r = run_until_errors(zap_rpc_options(srv, Scenario::rpc, "zap"), 10);
  EXPECT_GT(errors_of(r, load::ErrorKind::status), 0u);
  EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::status)) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
}

// A frame that is not a response (another direction byte, an envelope that is no ZAP message) is a read
// error: the connection is dropped and reconnected, as on the other framings.
TEST(load_engine, zap_rpc_counts_a_frame_that_is_not_a_response_as_a_read_error) {
  for (const RpcServer::Misbehave m :
       {RpcServer::Misbehave::wrong_dir, RpcServer::Misbehave::malformed_envelope}) {
    SCOPED_TRACE(m == RpcServer::Misbehave::wrong_dir ? "wrong dir" : "malformed envelope");
    RpcServer srv(*record::find_codec("zap"), 8, m);
    const load::Result r = run_until_errors(zap_rpc_options(srv, Scenario::hello, "zap"), 3);
    EXPECT_GE(errors_of(r, load::ErrorKind::read), 3u);
    EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::read)) << describe_errors(r);
    EXPECT_EQ(r.responses, 0u);
  }
}

// One call left unanswered while the later ones are answered: the connection sends until its call table is
// full (4 x the pipeline, at least 64 calls from the unanswered one on: docs/spec/zap-rpc.md §4), then
// nothing more until that call times out, which drops and reconnects the connection.
TEST(load_engine, zap_rpc_holds_sends_behind_an_unanswered_call_until_it_times_out) {
  RpcServer srv(*record::find_codec("zap"), 8, RpcServer::Misbehave::hold_first);
  load::Options o = zap_rpc_options(srv, Scenario::hello, "zap");
  o.connections = 1;
  o.timeout_ms = 200;
  const load::Result r = run_until_errors(o, 2);
  EXPECT_EQ(srv.most_calls_per_connection(), 64u) << "the call table of pipeline 8 holds 64 calls";
  EXPECT_GE(errors_of(r, load::ErrorKind::timeout), 2u);
  EXPECT_EQ(r.error_total(), errors_of(r, load::ErrorKind::timeout)) << describe_errors(r);
  EXPECT_GT(r.responses, 0u);
}

// ---- the loader's steady state allocates nothing ----------------------------------

// Once warm, the loader allocates nothing per request on any wire: requests are built into the
// connection's output (fixed ones copied), answers read in place and validated with the codec's reused
// state, calls kept in the connection's call table. Counted over the whole process: the servers allocate
// nothing per request either (server_test; RpcServer is written so), and this thread only polls.
TEST(load_engine_allocations, the_loader_allocates_nothing_per_request_in_steady_state) {
  struct Case {
    const char* name;
    Scenario scenario;
    const char* body;
  };
  const Case cases[] = {{"hello", Scenario::hello, "zap"},
                        {"rpc zap", Scenario::rpc, "zap"},
                        {"rpc json", Scenario::rpc, "direct"},
                        {"logs zap", Scenario::logs, "zap"}};
  for (const matrix::Framing wire :
       {matrix::Framing::http1, matrix::Framing::zap_http, matrix::Framing::zap_rpc})
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(wire == matrix::Framing::http1      ? "http "
                               : wire == matrix::Framing::zap_http ? "zap "
                                                                   : "zap-rpc ") +
                   c.name);
      std::optional<RpcServer> rpc;
      if (wire == matrix::Framing::zap_rpc) rpc.emplace(*record::find_codec(c.body), 16);
      load::Options o = options(wire, rpc ? rpc->port() : OwnServer::get().port(wire), c.scenario);
      o.body = record::find_codec(c.body);
      o.connections = 1;
      o.pipeline = 16;
      zaptest::BackgroundLoad l(o);
      l.await_responses(2000, "2000 responses to warm up");
      const std::uint64_t from = l.progress().responses.load();
      const std::uint64_t before = micro::alloc_count().allocs;
      const bool done = zaptest::await([&] { return l.progress().responses.load() >= from + 10'000; });
      const std::uint64_t during = micro::alloc_count().allocs - before;
      const load::Result& r = l.finish();
      ASSERT_TRUE(done) << "awaited 10 000 more responses";
      expect_clean(r);
      EXPECT_EQ(during, 0u) << "allocations over 10 000 requests";
    }
}

// ---- open loop and coordinated omission -----------------------------------------

// One connection, one request in flight, 200 requests/s: a 600 ms stall delays the ~120 requests that fall
// due during it. Counted from their intended send times, those due in the stall's first 300 ms are all at
// least 300 ms late (the answer to the one before them cannot come before the stall ends), whatever the
// machine's speed; counted from the actual send, only the stalled request is. Past the stall, the loader
// waits for 160 more answers (the backlog) before it stops.
constexpr auto kStall = 600ms;
constexpr std::uint64_t kSlowNs = 290 * kMs;   // "at least 300 ms", less the histogram's bucket width
constexpr std::uint64_t kDueInFirstHalf = 55;  // 61 by the schedule (the stalled one and 60 due after it)
// Requests slower than kSlowNs for reasons other than the stall: only a machine that stops for ~0.3 s.
constexpr std::uint64_t kOtherSlow = 5;

TEST(load_engine, open_loop_charges_a_stall_to_every_request_scheduled_during_it) {
  StallingServer srv;
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  o.rate_per_s = 200;  // one request every 5 ms
  zaptest::BackgroundLoad l(o);
  l.await_responses(20, "20 responses before the stall");
  const std::uint64_t before = l.progress().responses.load();
  srv.arm(kStall);
  ASSERT_TRUE(zaptest::await([&] { return srv.stalls_ended() == 1; })) << "awaited the end of the stall";
  l.await_responses(before + 160, "the backlog answered after the stall");
  const load::Result& r = l.finish();
  ASSERT_EQ(srv.stalls_begun(), 1);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_EQ(r.intended_rate_per_s, 200);
  EXPECT_EQ(r.responses, r.requests);  // the backlog is sent once the stall ends, not skipped
  // Corrected: each request that fell due during the stall is charged from its intended send time.
  EXPECT_GE(r.latency.max(), std::uint64_t(kStall.count()) * kMs);
  EXPECT_GE(count_at_least(r.latency, kSlowNs), kDueInFirstHalf);
  EXPECT_GE(r.latency.value_at_percentile(99), 100 * kMs);
  // Uncorrected: only the stalled request itself was slow once sent.
  EXPECT_GE(r.latency_actual.max(), std::uint64_t(kStall.count()) * kMs);
  EXPECT_LE(count_at_least(r.latency_actual, kSlowNs), kOtherSlow);
}

TEST(load_engine, closed_loop_records_the_same_stall_as_one_slow_request) {
  StallingServer srv;
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  zaptest::BackgroundLoad l(o);
  l.await_responses(20, "20 responses before the stall");
  srv.arm(kStall);
  ASSERT_TRUE(zaptest::await([&] { return srv.stalls_ended() == 1; })) << "awaited the end of the stall";
  const std::uint64_t after = l.progress().responses.load();
  l.await_responses(after + 1000, "1000 responses after the stall");
  const load::Result& r = l.finish();
  ASSERT_EQ(srv.stalls_begun(), 1);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_TRUE(r.latency == r.latency_actual);  // intended == actual send time in a closed loop
  EXPECT_GE(r.latency.max(), std::uint64_t(kStall.count()) * kMs);
  // The stall is hidden: nothing was sent during it, so it is one slow request (and at most a few others
  // slowed by the machine itself).
  EXPECT_GE(count_at_least(r.latency, kSlowNs), 1u);
  EXPECT_LE(count_at_least(r.latency, kSlowNs), kOtherSlow);
  EXPECT_LT(r.latency.value_at_percentile(99), kSlowNs);
}

// A request of the window whose answer comes after the window (in the drain) is recorded, not dropped:
// the window is ended while the server holds a request.
TEST(load_engine, records_a_window_request_whose_response_arrives_in_the_drain) {
  StallingServer srv;
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  o.rate_per_s = 200;
  zaptest::BackgroundLoad l(o);
  l.await_responses(20, "20 responses before the stall");
  srv.arm(500ms);
  ASSERT_TRUE(zaptest::await([&] { return srv.stalls_begun() == 1; })) << "awaited the stall's start";
  const load::Result& r = l.finish();  // the window ends with the stalled request in flight
  ASSERT_EQ(srv.stalls_ended(), 1);
  EXPECT_GE(r.latency.max(), 500 * kMs) << "the stalled request is missing";
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, r.requests) << describe_errors(r);
}

// While it drains, the loader sleeps in epoll_wait rather than spinning: over a 3 s drain its CPU time
// stays far below what a spinning loop takes (a spinner on a machine shared three ways still burns ~1 s).
TEST(load_engine, open_loop_sleeps_while_it_waits_for_the_last_response) {
  StallingServer srv;
  load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  o.connections = 1;
  o.rate_per_s = 200;
  zaptest::BackgroundLoad l(o);
  l.await_responses(20, "20 responses before the stall");
  srv.arm(3000ms);
  ASSERT_TRUE(zaptest::await([&] { return srv.stalls_begun() == 1; })) << "awaited the stall's start";
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  const load::Result& r = l.finish();  // the drain: ~3 s with nothing to send
  getrusage(RUSAGE_SELF, &after);
  const auto s = [](const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; };
  const double drain_cpu_s = s(after.ru_utime) - s(before.ru_utime) + s(after.ru_stime) - s(before.ru_stime);
  ASSERT_EQ(srv.stalls_ended(), 1);
  EXPECT_EQ(r.error_total(), 0u) << describe_errors(r);
  // The drain lasts as long as the request in flight needs (up to its timeout), not a fixed grace.
  EXPECT_EQ(r.responses, r.requests) << "the stalled request was not waited for";
  EXPECT_LT(drain_cpu_s, 0.25) << "the process used " << drain_cpu_s << " s of CPU in a 3 s drain";
}

// ---- servers that are not there -------------------------------------------------

TEST(load_engine, counts_connect_errors_against_a_dead_port_and_ends) {
  const load::Result r = run_until_errors(options(matrix::Framing::http1, dead_port(), Scenario::hello), 3);
  EXPECT_GT(errors_of(r, load::ErrorKind::connect), 0u) << describe_errors(r);
  EXPECT_EQ(r.responses, 0u);
  EXPECT_EQ(r.requests, 0u);
}

TEST(load_engine, counts_errors_when_the_server_dies_mid_run_and_ends) {
  RawServer srv(matrix::Framing::http1, rpc_handler("ok", kHonest));
  const load::Options o = options(matrix::Framing::http1, srv.port(), Scenario::hello);
  zaptest::BackgroundLoad l(o);
  l.await_responses(20, "20 responses before the server dies");
  srv.stop();
  // The close loses at most one request per connection (closed); every error past that is a refused
  // reconnect (connect).
  l.await([&](const load::Progress& p) { return p.errors.load() >= o.connections + 3; },
          "the reconnects refused after the close");
  const load::Result& r = l.finish();
  EXPECT_GT(r.responses, 0u);                                                  // it was answering before
  EXPECT_GT(errors_of(r, load::ErrorKind::closed), 0u) << describe_errors(r);  // the open connections closed
  EXPECT_GT(errors_of(r, load::ErrorKind::connect), 0u);  // and the reconnects were refused
}

}  // namespace
