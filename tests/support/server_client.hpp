// tests/support/server_client.hpp — what the server suites share: an in-process
// server on ephemeral ports (ServerEnv), a raw-socket Client, and the request
// builders for both wires (http_request, zap_frame, sample_json_request).
// Used by server_test.cpp and hostile_test.cpp.
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
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "micro/padded.hpp"
#include "net/buffer.hpp"
#include "net/http1.hpp"
#include "net/zap_http.hpp"
#include "record/codecs.hpp"
#include "server/server.hpp"
#include "support/await.hpp"
#include "support/vectors.hpp"

namespace {

using Bytes = std::vector<std::uint8_t>;

// One server for the whole suite, both wires, small limits so the limit paths
// are cheap to reach.
class ServerEnv {
 public:
  static ServerEnv& get() {
    static ServerEnv env;
    return env;
  }
  std::uint16_t http_port() const { return srv_->bound(server::Wire::http)[0].port; }
  std::uint16_t zap_port() const { return srv_->bound(server::Wire::zap)[0].port; }
  server::Counters counters() const { return srv_->counters(); }

 private:
  ServerEnv() {
    server::Config cfg;
    cfg.http.push_back({"127.0.0.1", 0});
    cfg.zap.push_back({"127.0.0.1", 0});
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

// A blocking client socket whose reads wait for bytes or the close, with the
// hang bound as their timeout, so a test never hangs and never fails for
// being slow.
constexpr int kReadTimeoutMs = static_cast<int>(zaptest::kHang.count());

class Client {
 public:
  explicit Client(std::uint16_t port) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0) << std::strerror(errno);
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
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
    if (poll(&p, 1, timeout_ms) <= 0) return false;
    std::uint8_t* w = in_.prepare(64 * 1024);
    const ssize_t n = ::recv(fd_, w, in_.writable(), 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    in_.commit(static_cast<std::size_t>(n));
    return true;
  }
  // The next HTTP response (head + body), or nullopt on close/timeout.
  std::optional<std::pair<net::http::Response, std::string>> http_response() {
    for (;;) {
      net::http::Response r;
      net::http::Limits lim;
      const auto pr = net::http::parse_response(in_.readable_text(), r, lim);
      if (pr.status == net::http::Status::done && in_.size() >= r.message_bytes()) {
        std::string body(in_.readable_text().substr(r.head_bytes, r.content_length));
        in_.consume(r.message_bytes());
        return std::pair{r, body};
      }
      if (pr.status == net::http::Status::error) return std::nullopt;
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
      const auto s = net::zaphttp::scan_frame(in_.readable());
      if (s.status == net::zaphttp::FrameScan::Status::complete) {
        net::zaphttp::ResponseView v;
        const auto e = net::zaphttp::decode_response(net::zaphttp::frame_message(in_.readable(), s), v);
        EXPECT_EQ(e, net::zaphttp::FrameError::ok);
        ZapReply r{v.status, std::string(v.headers.find("Content-Type").value_or("")),
                   Bytes(v.body.begin(), v.body.end()), std::string(v.headers.find("Allow").value_or(""))};
        in_.consume(s.frame_bytes());
        return r;
      }
      if (s.status == net::zaphttp::FrameScan::Status::bad_length) return std::nullopt;
      if (!read_some()) return std::nullopt;
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
};

std::string http_request(std::string_view method, std::string_view target, std::string_view ct,
                         std::string_view body, std::string_view extra = "") {
  std::string r = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: t\r\n";
  if (!ct.empty()) r += "Content-Type: " + std::string(ct) + "\r\n";
  if (!body.empty() || method == "POST") r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  r += std::string(extra) + "\r\n" + std::string(body);
  return r;
}

std::string sample_json_request() {
  zaptest::ByteVec v;
  EXPECT_TRUE(zaptest::load_raw("eth_req.json", v));
  return {v.begin(), v.end()};
}

Bytes zap_frame(std::string_view method, std::string_view target, std::string_view ct, record::Bytes body) {
  net::zaphttp::RequestEncoder enc;
  net::Buffer out;
  const net::zaphttp::Header h{"Content-Type", ct};
  net::zaphttp::RequestSpec spec;
  spec.method = method;
  spec.target = target;
  if (!ct.empty()) spec.headers = {&h, 1};
  spec.body = body;
  enc.append_frame(spec, out);
  return Bytes(out.readable().begin(), out.readable().end());
}

}  // namespace
