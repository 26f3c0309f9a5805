// tests/server/io_backends_test.cpp — the two backends of the event core give
// the same answers: one server on epoll and one on io_uring get the same
// request stream per framing (HTTP/1.1, ZAP-HTTP, ZAP-RPC: health, JSON and
// ZAP bodies, an unknown route, and for HTTP/1.1 a malformed request last),
// written in pieces split at seeded random points, then the client's FIN; the
// answer streams, read to the server's close, must be byte for byte the same
// (HTTP/1.1's Date value masked: the two servers may cross a second). Not a
// fuzz target: the same streams every run, the seed printed on a failure.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "net/uring.hpp"
#include "record/codecs.hpp"
#include "support/await.hpp"
#include "support/loopback.hpp"
#include "support/server_client.hpp"
#include "support/vectors.hpp"
#include "support/zap_rpc.hpp"

namespace {

namespace rpc = zaptest::rpc;

Bytes bytes_of(std::string_view s) { return Bytes(s.begin(), s.end()); }
void append(Bytes& to, const Bytes& b) { to.insert(to.end(), b.begin(), b.end()); }

constexpr int kRounds = 12;  // each framing's request set, repeated

Bytes http1_stream() {
  const std::string json = sample_json_request();
  zaptest::ByteVec eth;
  EXPECT_TRUE(zaptest::load_hex("eth_req", eth));
  const std::string eth_text(reinterpret_cast<const char*>(eth.data()), eth.size());
  Bytes s;
  for (int i = 0; i < kRounds; ++i) {
    append(s, bytes_of(http_request("GET", "/health", "", "")));
    append(s, bytes_of(http_request("POST", "/rpc", "application/json", json)));
    append(s, bytes_of(http_request("POST", "/rpc", "application/zap", eth_text)));
    append(s, bytes_of(http_request("GET", "/nowhere", "", "")));
  }
  append(s, bytes_of("NOT A REQUEST\r\n\r\n"));  // answered 400, then the server closes
  return s;
}

Bytes zap_http_stream() {
  const std::string json = sample_json_request();
  zaptest::ByteVec eth;
  EXPECT_TRUE(zaptest::load_hex("eth_req", eth));
  Bytes s;
  for (int i = 0; i < kRounds; ++i) {
    append(s, zap_frame("GET", "/health", "", {}));
    append(s, zap_frame("POST", "/rpc", "application/json", zaptest::bytes_of(json)));
    append(s, zap_frame("POST", "/rpc", "application/zap", eth));
    append(s, zap_frame("GET", "/nowhere", "", {}));
  }
  return s;
}

Bytes zap_rpc_stream() {
  const std::string json = sample_json_request();
  zaptest::ByteVec eth;
  EXPECT_TRUE(zaptest::load_hex("eth_req", eth));
  const record::CodecInfo* zap = record::find_codec("zap");
  EXPECT_NE(zap, nullptr);
  const std::size_t zap_body = rpc::body_of(*zap);
  const std::size_t json_body = rpc::body_of(record::default_json_codec());
  Bytes s;
  std::uint32_t promise = 1;
  for (int i = 0; i < kRounds; ++i) {
    append(s, rpc::call(rpc::kHealth, promise++));
    append(s, rpc::call(rpc::eth_call(zap_body), promise++, eth));
    append(s, rpc::call(rpc::eth_call(json_body), promise++, zaptest::bytes_of(json)));
  }
  return s;
}

// Writes `stream` to a new connection on port in pieces of 1 to 300 bytes
// (seeded), each its own send with a short pause so they arrive apart, then
// FIN; returns everything read until the server closes (a hang bound only).
Bytes exchange(std::uint16_t port, const Bytes& stream, std::uint32_t seed) {
  const int fd = zaptest::connect_loopback(port);
  EXPECT_GE(fd, 0);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> piece(1, 300);
  Bytes answers;
  const auto read_ready = [&](int wait_ms) {
    pollfd p{fd, POLLIN, 0};
    while (::poll(&p, 1, wait_ms) > 0) {
      std::uint8_t buf[16384];
      const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return false;
      answers.insert(answers.end(), buf, buf + n);
      wait_ms = 0;
    }
    return true;
  };
  for (std::size_t at = 0; at < stream.size();) {
    const std::size_t n = std::min(piece(rng), stream.size() - at);
    if (::send(fd, stream.data() + at, n, MSG_NOSIGNAL) != static_cast<ssize_t>(n)) break;
    at += n;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    if (!read_ready(0)) break;  // the server may close after a malformed request
  }
  ::shutdown(fd, SHUT_WR);
  const auto end = std::chrono::steady_clock::now() + zaptest::kHang;
  while (std::chrono::steady_clock::now() < end && read_ready(100)) {
  }
  ::close(fd);
  return answers;
}

// HTTP/1.1's Date value as "X"s: the only bytes two correct servers may differ in.
std::string masked(const Bytes& b) {
  std::string s(b.begin(), b.end());
  for (std::size_t at = 0; (at = s.find("\r\nDate: ", at)) != std::string::npos;) {
    at += 8;
    for (; at < s.size() && s[at] != '\r'; ++at) s[at] = 'X';
  }
  return s;
}

class IoBackends : public ::testing::Test {
 protected:
  static server::Config config(net::Io io) {
    server::Config cfg;
    cfg.threads = 1;
    cfg.io = io;
    return cfg;
  }
  void SetUp() override {
    if (!net::probe_uring().available) GTEST_SKIP() << net::probe_uring().describe();
  }

  void expect_same(matrix::Framing f, const Bytes& stream) {
    TestServer on_epoll(config(net::Io::epoll));
    TestServer on_uring(config(net::Io::io_uring));
    for (const std::uint32_t seed : {1u, 2u, 3u, 20261206u}) {
      const Bytes a = exchange(on_epoll.port(f), stream, seed);
      const Bytes b = exchange(on_uring.port(f), stream, seed);
      EXPECT_GT(a.size(), stream.size() / 8) << "seed " << seed << ": the epoll server answered little";
      EXPECT_EQ(a.size(), b.size()) << "seed " << seed;
      EXPECT_TRUE(masked(a) == masked(b)) << "seed " << seed << ": the answer streams differ";
    }
  }
};

TEST_F(IoBackends, http1_answers_are_byte_identical) { expect_same(matrix::Framing::http1, http1_stream()); }
TEST_F(IoBackends, zap_http_answers_are_byte_identical) {
  expect_same(matrix::Framing::zap_http, zap_http_stream());
}
TEST_F(IoBackends, zap_rpc_answers_are_byte_identical) {
  expect_same(matrix::Framing::zap_rpc, zap_rpc_stream());
}

}  // namespace
