// tests/support/server_client.hpp — what the server suites share: an in-process
// server on ephemeral ports (ServerEnv, one for a suite; TestServer, one per
// config), a raw-socket Client reading all three wires, the request builders
// for HTTP/1.1 and ZAP-HTTP (http_request, zap_frame, sample_json_request;
// ZAP-RPC's are support/zap_rpc.hpp's), and a well-behaved ZAP-RPC client on
// a thread of its own (RpcGoodClient). Used by server_test.cpp,
// hostile_test.cpp and zap_rpc_test.cpp.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "micro/padded.hpp"
#include "net/buffer.hpp"
#include "record/codecs.hpp"
#include "server/server.hpp"
#include "support/await.hpp"
#include "support/loopback.hpp"
#include "support/vectors.hpp"
#include "support/zap_rpc.hpp"
#include "wire/http1.hpp"
#include "wire/zap_http.hpp"
#include "wire/zap_rpc.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

// One server for the whole suite, every wire, small limits so the limit paths
// are cheap to reach.
class ServerEnv {
 public:
  static ServerEnv& get() {
    static ServerEnv env;
    return env;
  }
  std::uint16_t http_port() const { return srv_->bound(matrix::Framing::http1)[0].port; }
  std::uint16_t zap_port() const { return srv_->bound(matrix::Framing::zap_http)[0].port; }
  std::uint16_t zap_rpc_port() const { return srv_->bound(matrix::Framing::zap_rpc)[0].port; }
  std::uint16_t http2_port() const { return srv_->bound(matrix::Framing::http2)[0].port; }
  server::Counters counters() const { return srv_->counters(); }

 private:
  ServerEnv() {
    server::Config cfg;
    cfg.http.push_back({"127.0.0.1", 0});
    cfg.zap.push_back({"127.0.0.1", 0});
    cfg.zap_rpc.push_back({"127.0.0.1", 0});
    cfg.http2.push_back({"127.0.0.1", 0});
    cfg.json = &record::default_json_codec();
    cfg.threads = 2;
    cfg.limits.max_header_bytes = 1024;
    cfg.limits.max_body_bytes = 4096;
    cfg.limits.max_frame_bytes = 8192;
    cfg.limits.header_timeout_ms = 1500;
    srv_ = std::make_unique<server::Server>(cfg);
    thread_ = std::thread([this] { srv_->run(); });
  }
  ~ServerEnv() {
    srv_->stop();
    thread_.join();
  }
  std::unique_ptr<server::Server> srv_;
  std::thread thread_;
};

// An in-process server with the given config (limits, hooks, codecs) on
// 127.0.0.1:0 for every wire (HTTP/2 too), the build's default JSON codec unless cfg names
// one, run on its own thread until stop() or destruction.
class TestServer {
 public:
  explicit TestServer(server::Config cfg) {
    cfg.http.push_back({"127.0.0.1", 0});
    cfg.zap.push_back({"127.0.0.1", 0});
    cfg.zap_rpc.push_back({"127.0.0.1", 0});
    cfg.http2.push_back({"127.0.0.1", 0});
    if (cfg.json == nullptr) cfg.json = &record::default_json_codec();
    srv_ = std::make_unique<server::Server>(std::move(cfg));
    thread_ = std::thread([this] { srv_->run(); });
  }
  ~TestServer() { stop(); }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;
  void stop() {
    if (!thread_.joinable()) return;
    srv_->stop();
    thread_.join();
  }
  std::uint16_t port(matrix::Framing w) const { return srv_->bound(w)[0].port; }
  std::size_t open() const { return srv_->open_connections(); }
  // Exact once stopped (the workers' own counters, summed).
  server::Counters counters() const { return srv_->counters(); }
  // Waits until the open-connection count is `want` (closes are asynchronous).
  bool wait_open(std::size_t want) const {
    return zaptest::await([&] { return open() == want; });
  }

 private:
  std::unique_ptr<server::Server> srv_;
  std::thread thread_;
};

// A blocking client socket whose reads wait for bytes or the close, with the
// hang bound as their timeout, so a test never hangs and never fails for
// being slow.
constexpr int kReadTimeoutMs = static_cast<int>(zaptest::kHang.count());

class Client {
 public:
  // rcvbuf_bytes > 0: SO_RCVBUF before connect(), so the window the server
  // sees stays small (a client that does not read fills it at once).
  explicit Client(std::uint16_t port, int rcvbuf_bytes = 0)
      : fd_(zaptest::connect_loopback(port, rcvbuf_bytes)) {}
  ~Client() {
    if (fd_ >= 0) close(fd_);
  }
  void send_all(std::string_view s) { send_all(zaptest::bytes_of(s)); }
  void send_all(std::span<const std::uint8_t> b) {
    while (!b.empty()) {
      const ssize_t n = ::send(fd_, b.data(), b.size(), MSG_NOSIGNAL);
      if (n <= 0) return;  // the server may have closed: the reads tell
      b = b.subspan(static_cast<std::size_t>(n));
    }
  }
  // Reads more bytes into in_; false on EOF, error or no data within timeout.
  bool read_some(int timeout_ms = kReadTimeoutMs) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, timeout_ms) <= 0) {
      last_read_ = "no data within " + std::to_string(timeout_ms) + " ms";
      return false;
    }
    std::uint8_t* w = in_.prepare(64 * 1024);
    const ssize_t n = ::recv(fd_, w, in_.writable(), 0);
    if (n <= 0) {
      last_read_ = n == 0 ? std::string("EOF") : std::string("error: ") + std::strerror(errno);
      eof_ = true;
      return false;
    }
    in_.commit(static_cast<std::size_t>(n));
    last_read_ = std::to_string(n) + " bytes";
    return true;
  }
  // What the last read saw ("EOF", "error: ...", "N bytes"), and what is
  // buffered unparsed: for a failure message.
  [[nodiscard]] std::string last_read_text() const {
    const auto b = in_.readable().first(std::min<std::size_t>(in_.size(), 16));
    std::string head(2 + 2 * b.size(), '\0');
    record::hex::write(head.data(), b);
    return last_read_ + ", " + std::to_string(in_.size()) + " bytes unparsed" +
           (b.empty() ? "" : ", starting " + head);
  }
  // The next HTTP response (head + body), or nullopt on close/timeout.
  std::optional<std::pair<wire::http::Response, std::string>> http_response() {
    for (;;) {
      wire::http::Response r;
      wire::http::Limits lim;
      const auto pr = wire::http::parse_response(in_.readable_text(), r, lim);
      if (pr.status == wire::http::Status::done && in_.size() >= r.message_bytes()) {
        std::string body(in_.readable_text().substr(r.head_bytes, r.content_length));
        in_.consume(r.message_bytes());
        return std::pair{r, body};
      }
      if (pr.status == wire::http::Status::error) return std::nullopt;
      if (!read_some()) return std::nullopt;
    }
  }
  // The next ZAP-HTTP response frame: status, content type, body bytes.
  struct ZapReply {
    int status;
    std::string content_type;
    Bytes body;
    std::string allow;  // the Allow header, empty if absent
  };
  std::optional<ZapReply> zap_response() {
    for (;;) {
      const auto s = wire::zaphttp::scan_frame(in_.readable());
      if (s.status == wire::zaphttp::FrameScan::Status::complete) {
        wire::zaphttp::ResponseView v;
        const auto e = wire::zaphttp::decode_response(wire::zaphttp::frame_message(in_.readable(), s), v);
        EXPECT_EQ(e, wire::zaphttp::FrameError::ok);
        ZapReply r{v.status, std::string(v.headers.find("Content-Type").value_or("")),
                   Bytes(v.body.begin(), v.body.end()), std::string(v.headers.find("Allow").value_or(""))};
        in_.consume(s.frame_bytes());
        return r;
      }
      if (s.status == wire::zaphttp::FrameScan::Status::bad_length) return std::nullopt;
      if (!read_some()) return std::nullopt;
    }
  }
  // The next ZAP-RPC frame, which must be a response (dir 2) whose envelope
  // decodes (a failed expectation says otherwise): status, PromiseID, body.
  // nullopt on close, timeout, a bad length or anything but a response.
  struct RpcReply {
    std::uint32_t status;
    std::uint32_t promise;
    Bytes body;
  };
  std::optional<RpcReply> zap_rpc_response(int timeout_ms = kReadTimeoutMs) {
    for (;;) {
      const auto s = wire::zaprpc::scan_frame(in_.readable());
      if (s.status == wire::zaprpc::FrameScan::Status::complete) {
        EXPECT_EQ(s.dir, static_cast<std::uint8_t>(wire::zaprpc::Dir::response)) << "not a response frame";
        wire::zaprpc::Response v;
        const auto e = wire::zaprpc::decode_response(wire::zaprpc::frame_body(in_.readable(), s), v);
        EXPECT_EQ(e, wire::zaprpc::EnvelopeError::ok) << wire::zaprpc::describe(e);
        if (s.dir != static_cast<std::uint8_t>(wire::zaprpc::Dir::response) ||
            e != wire::zaprpc::EnvelopeError::ok)
          return std::nullopt;
        RpcReply r{v.status, v.promise, Bytes(v.body.begin(), v.body.end())};
        in_.consume(s.frame_bytes());
        return r;
      }
      if (s.status == wire::zaprpc::FrameScan::Status::bad_length) return std::nullopt;
      if (!read_some(timeout_ms)) return std::nullopt;
    }
  }
  // True if the server closes the connection (EOF) within the timeout, with
  // nothing more to read.
  bool closed_without_reply(int timeout_ms = kReadTimeoutMs) {
    while (read_some(timeout_ms)) {
    }
    return eof_ && in_.empty();
  }
  bool closed(int timeout_ms = kReadTimeoutMs) {
    while (read_some(timeout_ms)) {
    }
    return eof_;
  }
  int fd() const { return fd_; }

 private:
  int fd_ = -1;
  net::Buffer in_{64 * 1024};
  bool eof_ = false;
  std::string last_read_ = "none";
};

[[maybe_unused]] std::string http_request(std::string_view method, std::string_view target,
                                          std::string_view ct, std::string_view body,
                                          std::string_view extra = "") {
  std::string r = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: t\r\n";
  if (!ct.empty()) r += "Content-Type: " + std::string(ct) + "\r\n";
  if (!body.empty() || method == "POST") r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  r += std::string(extra) + "\r\n" + std::string(body);
  return r;
}

[[maybe_unused]] std::string sample_json_request() {
  zaptest::ByteVec v;
  EXPECT_TRUE(zaptest::load_raw("eth_req.json", v));
  return {v.begin(), v.end()};
}

[[maybe_unused]] Bytes zap_frame(std::string_view method, std::string_view target, std::string_view ct,
                                 record::Bytes body) {
  wire::zaphttp::RequestEncoder enc;
  net::Buffer out;
  const wire::zaphttp::Header h{"Content-Type", ct};
  wire::zaphttp::RequestSpec spec;
  spec.method = method;
  spec.target = target;
  if (!ct.empty()) spec.headers = {&h, 1};
  spec.body = body;
  enc.append_frame(spec, out);
  return Bytes(out.readable().begin(), out.readable().end());
}

// A well-behaved ZAP-RPC client on a thread and a connection of its own:
// `depth` eth_call calls with ZAP bodies always in flight, each with a
// PromiseID of its own and the request id 1 000 000 + PromiseID, each answer
// matched by PromiseID and validated (status 200, a call in flight, the id
// echoed, the balance), until finish(). The first failure ends it and is
// reported; a hostile suite runs it through an attack and checks it saw none.
class RpcGoodClient {
 public:
  explicit RpcGoodClient(std::uint16_t port, unsigned depth = 4)
      : thread_([this, port, depth] { run(port, depth); }) {}
  ~RpcGoodClient() { finish(); }
  RpcGoodClient(const RpcGoodClient&) = delete;
  RpcGoodClient& operator=(const RpcGoodClient&) = delete;

  [[nodiscard]] std::uint64_t answers() const { return answers_.load(); }
  // Waits for n validated answers in all (false, with the failure, if it
  // failed or the hang bound passed first).
  bool await_answers(std::uint64_t n, const std::string& what) {
    const bool ok = zaptest::await([&] { return answers_.load() >= n || done_.load(); });
    EXPECT_TRUE(ok && answers_.load() >= n)
        << "awaited " << what << ": " << answers_.load() << " of " << n << " answers; " << failure();
    return ok && answers_.load() >= n;
  }
  struct Result {
    std::uint64_t answers = 0;
    std::string failure;  // empty: every answer was right, and the connection served to the end
  };
  // Stops sending, reads the answers still due, and joins.
  Result finish() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return {answers_.load(), failure()};
  }

 private:
  static constexpr std::uint64_t kIdBase = 1'000'000;

  std::string failure() {
    const std::lock_guard<std::mutex> lock(mu_);
    return failure_;
  }
  void fail(std::string why) {
    const std::lock_guard<std::mutex> lock(mu_);
    if (failure_.empty()) failure_ = std::move(why);
  }

  void run(std::uint16_t port, unsigned depth) {
    const record::CodecInfo& info = *record::find_codec("zap");
    const std::unique_ptr<record::AnyCodec> zap = info.make();
    Client c(port);
    std::set<std::uint32_t> in_flight;
    std::uint32_t next = 1;
    const auto send_one = [&] {
      c.send_all(zaptest::rpc::eth_call_frame(*zap, info, kIdBase + next, next));
      in_flight.insert(next++);
    };
    for (unsigned i = 0; i < depth; ++i) send_one();
    while (!in_flight.empty()) {
      const auto r = c.zap_rpc_response();
      if (!r) {
        fail("no answer (closed, or nothing within the hang bound) with " + std::to_string(in_flight.size()) +
             " calls in flight");
        break;
      }
      if (in_flight.erase(r->promise) == 0) {
        fail("an answer to PromiseID " + std::to_string(r->promise) + ", which is not in flight");
        break;
      }
      if (r->status != 200) {
        fail("status " + std::to_string(r->status) + ": " + std::string(r->body.begin(), r->body.end()));
        break;
      }
      if (const auto ok = zaptest::rpc::eth_answer_ok(*zap, r->body, kIdBase + r->promise); !ok) {
        fail(ok.message());
        break;
      }
      ++answers_;
      if (!stop_) send_one();
    }
    done_ = true;
  }

  std::atomic<std::uint64_t> answers_{0};
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::mutex mu_;
  std::string failure_;
  std::thread thread_;  // last: starts once the rest is built
};

}  // namespace
