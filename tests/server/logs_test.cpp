// tests/server/logs_test.cpp — POST /logs on a live server over loopback, where its answers are large:
// answers of 2.3 MB (N = 10 000 logs in ZAP) through a send buffer of a few KiB, so every answer goes out
// in many partial writes resumed on EPOLLOUT, pipelined and in order, read by a raw client and by the load
// engine (every answer validated); and the response limit: an answer over it is a clean 500 naming both
// sizes, the connection and the server keep serving. Both framings. Every wait is for an event, bounded by
// the hang limit only; no figure is a speed.
#include "record/logs.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "load/engine.hpp"
#include "net/buffer.hpp"
#include "record/codec_zap.hpp"
#include "server/server.hpp"
#include "support/await.hpp"
#include "support/background_load.hpp"
#include "support/loopback.hpp"
#include "wire/client_wires.hpp"

namespace {

using matrix::Framing;

record::LogsDigest digest_for(std::uint32_t n) {
  record::LogSet set;
  record::generate(record::sample_logs_request(n), set);
  return record::digest_of(set.logs);
}

std::size_t zap_answer_bytes(std::uint32_t n) {
  record::LogSet set;
  record::generate(record::sample_logs_request(n), set);
  record::ZapCodec zap;
  return zap.encode_logs(set.logs).size();
}

// An in-process server on both framings with the given config (listeners added here).
class LiveServer {
 public:
  explicit LiveServer(server::Config cfg) {
    cfg.http.push_back({"127.0.0.1", 0});
    cfg.zap.push_back({"127.0.0.1", 0});
    cfg.json = &record::default_json_codec();
    srv_ = std::make_unique<server::Server>(std::move(cfg));
    thread_ = std::thread([this] { srv_->run(); });
  }
  ~LiveServer() {
    srv_->stop();
    thread_.join();
  }
  std::uint16_t port(matrix::Framing w) const {
    return srv_->bound(w == matrix::Framing::http1 ? matrix::Framing::http1 : matrix::Framing::zap_http)[0]
        .port;
  }
  server::Counters counters() const { return srv_->counters(); }

 private:
  std::unique_ptr<server::Server> srv_;
  std::thread thread_;
};

// One answer as the client saw it.
struct Answer {
  int status = 0;
  std::string content_type;
  std::vector<std::uint8_t> body;  // followed by the decoders' padding (not part of body.size())
};

// A blocking loopback client: writes requests (pipelined, one write), reads answers with the load
// engine's own response readers. A small receive buffer keeps the server's socket full.
class LogsClient {
 public:
  LogsClient(matrix::Framing wire, std::uint16_t port, int rcvbuf_bytes = 0)
      : wire_(wire), fd_(zaptest::connect_loopback(port, rcvbuf_bytes)), http_("127.0.0.1") {}
  ~LogsClient() { close(fd_); }

  // POST /logs asking for each n, all in one write.
  void send_logs_requests(const std::vector<std::uint32_t>& ns) {
    record::ZapCodec zap;
    net::Buffer out;
    for (std::uint32_t n : ns) {
      const record::Bytes body = zap.encode_logs_request(record::sample_logs_request(n));
      if (wire_ == matrix::Framing::http1)
        http_.append_request(out, "POST", "/logs", "application/zap", body);
      else
        zap_.append_request(out, "POST", "/logs", "application/zap", body);
    }
    for (auto b = out.readable(); !b.empty();) {
      const ssize_t n = ::send(fd_, b.data(), b.size(), MSG_NOSIGNAL);
      ASSERT_GT(n, 0) << std::strerror(errno);
      b = b.subspan(static_cast<std::size_t>(n));
    }
  }

  // The next answer; nullopt on close or after the hang bound.
  std::optional<Answer> next() {
    for (;;) {
      std::size_t hint = 0;
      const wire::Response r = wire_ == matrix::Framing::http1 ? http_.take(in_, hint) : zap_.take(in_, hint);
      if (r.status == wire::Response::Status::malformed) return std::nullopt;
      if (r.status == wire::Response::Status::complete) {
        Answer a{r.code, std::string(r.content_type), {r.body.begin(), r.body.end()}};
        a.body.reserve(a.body.size() + record::kInputPaddingBytes);
        in_.consume(r.consumed_bytes);
        return a;
      }
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(zaptest::kHang.count())) <= 0) return std::nullopt;
      // Small reads: the server meets a full socket again and again.
      const ssize_t n = ::recv(fd_, in_.prepare(8 * 1024), 8 * 1024, 0);
      if (n <= 0) return std::nullopt;
      in_.commit(static_cast<std::size_t>(n));
    }
  }

 private:
  matrix::Framing wire_;
  int fd_ = -1;
  wire::Http1Client http_;
  wire::ZapHttpClient zap_;
  net::Buffer in_;
};

// The answer's logs, read with ZAP, against the reference digest of n logs.
void expect_logs(const Answer& a, std::uint32_t n) {
  ASSERT_EQ(a.status, 200) << std::string(a.body.begin(), a.body.end()).substr(0, 200);
  EXPECT_EQ(a.content_type, "application/zap");
  std::vector<std::uint8_t> padded = a.body;
  padded.resize(a.body.size() + record::kInputPaddingBytes);
  record::ZapCodec zap;
  record::LogsDigest d;
  ASSERT_EQ(zap.logs_decode_all({padded.data(), a.body.size()}, d), record::DecodeError::ok);
  EXPECT_EQ(d, digest_for(n));
}

// SO_SNDBUF of every accepted connection: far below one answer, so each goes out in many writes (the
// kernel doubles it). The loader's test takes 64 KiB: with a few KiB, loopback paces each write on the
// reader's ACKs and 20 answers of 2.3 MB take half a minute — slow, not wrong.
server::Config small_send_buffer(int bytes) {
  server::Config cfg;
  cfg.send_buffer_bytes = bytes;
  return cfg;
}

// Five pipelined requests of very different sizes through a send buffer of a few KiB and a client that
// reads 8 KiB at a time: every answer whole, right and in order (the big ones take hundreds of partial
// writes, each resumed on EPOLLOUT while the small ones wait their turn behind them).
TEST(logs_server, large_answers_go_out_in_partial_writes_in_order) {
  LiveServer srv(small_send_buffer(4096));
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    LogsClient c(wire, srv.port(wire), 4096);
    const std::vector<std::uint32_t> ns = {10'000, 1, 10'000, 5'000, 2};
    c.send_logs_requests(ns);
    for (std::uint32_t n : ns) {
      SCOPED_TRACE(n);
      const std::optional<Answer> a = c.next();
      ASSERT_TRUE(a.has_value()) << "no answer";
      EXPECT_GT(a->body.size(), n == 10'000 ? 2'000'000u : 0u);
      expect_logs(*a, n);
    }
  }
  const server::Counters k = srv.counters();
  EXPECT_EQ(k.requests[static_cast<int>(matrix::Framing::http1)][static_cast<int>(server::Route::logs)], 5u);
  EXPECT_EQ(k.requests[static_cast<int>(matrix::Framing::zap_http)][static_cast<int>(server::Route::logs)],
            5u);
  EXPECT_EQ(k.errors[static_cast<int>(server::ErrorKind::io)], 0u);
}

// The load engine against the same server: N = 10 000, two connections three deep, every answer validated
// (content type and the digest of every field of every log).
TEST(logs_server, the_loader_validates_every_large_answer_through_a_small_send_buffer) {
  LiveServer srv(small_send_buffer(64 * 1024));
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    load::Options o;
    o.framing = wire;
    o.port = srv.port(wire);
    o.scenario = matrix::Scenario::logs;
    o.logs = 10'000;
    o.body = record::find_codec("zap");
    o.connections = 2;
    o.pipeline = 3;
    o.warmup_s = 0;
    o.timeout_ms = static_cast<std::uint32_t>(zaptest::kHang.count());
    zaptest::BackgroundLoad l(o);
    l.await_responses(20, "20 valid answers of 10 000 logs");
    const load::Result& r = l.finish();
    EXPECT_GE(r.responses, 20u);
    EXPECT_EQ(r.error_total(), 0u) << "status " << r.errors[static_cast<int>(load::ErrorKind::status)]
                                   << ", validation "
                                   << r.errors[static_cast<int>(load::ErrorKind::validation)];
    EXPECT_EQ(r.bytes_received / r.responses > zap_answer_bytes(10'000), true) << "framing on top";
  }
}

// An answer over --max-response-bytes: 500 with both sizes, on the same connection the next (smaller)
// request is answered, and the load engine counts status errors and then runs clean against the same server.
TEST(logs_server, an_answer_over_the_response_limit_is_a_clean_500_and_the_server_keeps_serving) {
  server::Config cfg;
  const std::size_t big = zap_answer_bytes(1000), small = zap_answer_bytes(100);
  ASSERT_LT(small, big);
  cfg.limits.max_response_bytes = small;  // N = 100 fits exactly; N = 1000 does not
  LiveServer srv(cfg);
  for (matrix::Framing wire : {matrix::Framing::http1, matrix::Framing::zap_http}) {
    SCOPED_TRACE(std::string(matrix::to_string(wire)));
    LogsClient c(wire, srv.port(wire));
    c.send_logs_requests({1000, 100, 1000});
    std::optional<Answer> a = c.next();
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->status, 500);
    EXPECT_EQ(a->content_type, "text/plain; charset=utf-8");
    EXPECT_EQ(std::string(a->body.begin(), a->body.end()),
              "answer of " + std::to_string(big) + " bytes exceeds the server's response limit of " +
                  std::to_string(small) + " bytes");
    a = c.next();
    ASSERT_TRUE(a.has_value());
    expect_logs(*a, 100);
    a = c.next();
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->status, 500);

    load::Options o;
    o.framing = wire;
    o.port = srv.port(wire);
    o.scenario = matrix::Scenario::logs;
    o.body = record::find_codec("zap");
    o.connections = 2;
    o.warmup_s = 0;
    o.timeout_ms = static_cast<std::uint32_t>(zaptest::kHang.count());
    o.logs = 1000;
    {
      zaptest::BackgroundLoad l(o);
      l.await([](const load::Progress& p) { return p.errors.load() >= 10; }, "10 status errors");
      const load::Result& r = l.finish();
      EXPECT_EQ(r.responses, 0u);
      EXPECT_EQ(r.error_total(), r.errors[static_cast<int>(load::ErrorKind::status)]);
    }
    o.logs = 100;
    zaptest::BackgroundLoad l(o);
    l.await_responses(10, "10 valid answers after the refused ones");
    EXPECT_EQ(l.finish().error_total(), 0u);
  }
  const server::Counters k = srv.counters();
  EXPECT_GE(k.outcomes[static_cast<int>(server::Outcome::too_large)], 4u);
  EXPECT_EQ(k.errors[static_cast<int>(server::ErrorKind::io)], 0u);
}

}  // namespace
