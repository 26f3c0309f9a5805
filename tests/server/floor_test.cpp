// tests/server/floor_test.cpp — the floor arm in process: server::Floor (src/server/floor.cpp) driven by the
// load engine's floor wire (matrix::Framing::raw_tcp) and by raw sockets. Owns the echo's byte counting
// (split, pipelined, abandoned requests), its stop(), its zero allocations per request, and the engine's
// floor accounting; the engine's other wires are load_engine_test's. Loads run until so many responses, then
// stop (background_load.hpp); every wait is for an event with a hang bound (await.hpp).
#include "server/floor.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "load/engine.hpp"
#include "support/allocs.hpp"
#include "support/await.hpp"
#include "support/background_load.hpp"
#include "support/loopback.hpp"

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kRequestBytes = 82;  // the byte counts of a hello exchange on the HTTP wire
constexpr std::size_t kResponseBytes = 80;

// A floor server on 127.0.0.1:0 running in its own thread until the end of the scope.
class RunningFloor {
 public:
  explicit RunningFloor(std::size_t request_bytes = kRequestBytes,
                        std::size_t response_bytes = kResponseBytes, unsigned threads = 1) {
    server::Floor::Config cfg;
    cfg.listen = {"127.0.0.1", 0};
    cfg.request_bytes = request_bytes;
    cfg.response_bytes = response_bytes;
    cfg.threads = threads;
    floor_ = std::make_unique<server::Floor>(cfg);
    thread_ = std::thread([this] {
      floor_->run();
      returned_ = true;
    });
  }
  ~RunningFloor() { stop(); }
  // Stops the server; true once run() has returned (a failure if it does not within the hang bound).
  bool stop() {
    floor_->stop();
    const bool returned = zaptest::await([this] { return returned_.load(); });
    EXPECT_TRUE(returned) << "awaited run() to return after stop(), " << zaptest::kHang.count() << " ms";
    if (thread_.joinable()) thread_.join();
    return returned;
  }
  std::uint16_t port() const { return floor_->bound().port; }
  server::Floor& floor() { return *floor_; }

 private:
  std::unique_ptr<server::Floor> floor_;
  std::atomic<bool> returned_{false};
  std::thread thread_;
};

// A blocking loopback client with TCP_NODELAY, so every send() leaves as its own segment.
class Client {
 public:
  explicit Client(std::uint16_t port) : fd_(zaptest::connect_loopback(port)) {}
  ~Client() { close(); }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  void send_all(const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
      const ssize_t s = ::send(fd_, p, n, MSG_NOSIGNAL);
      ASSERT_GT(s, 0) << "send failed";
      p += s;
      n -= static_cast<std::size_t>(s);
    }
  }
  void send_requests(std::size_t count, std::size_t request_bytes = kRequestBytes) {
    const std::vector<std::uint8_t> bytes(count * request_bytes, 'q');
    send_all(bytes.data(), bytes.size());
  }
  // Exactly n bytes within the timeout (a hang bound); false on close, error or timeout.
  bool read_exact(std::size_t n, std::chrono::milliseconds timeout = zaptest::kHang) {
    buf_.resize(std::max(buf_.size(), n));
    const auto deadline = Clock::now() + timeout;
    std::size_t got = 0;
    while (got < n) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      pollfd p{fd_, POLLIN, 0};
      if (left <= 0 || poll(&p, 1, static_cast<int>(left)) <= 0) return false;
      const ssize_t r = ::recv(fd_, buf_.data() + got, n - got, 0);
      if (r <= 0) return false;
      got += static_cast<std::size_t>(r);
    }
    return true;
  }
  // Nothing more arrives within `wait` (and the connection is still open). Only ever a check that can
  // pass wrongly on a slow machine, never fail wrongly: the exact counts that follow it are the verdict.
  bool silent_for(std::chrono::milliseconds wait) {
    pollfd p{fd_, POLLIN, 0};
    return poll(&p, 1, static_cast<int>(wait.count())) == 0;
  }
  // The server closed the connection within the timeout.
  bool closed_by_peer(std::chrono::milliseconds timeout) {
    pollfd p{fd_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
    std::uint8_t b[4096];
    for (;;) {
      const ssize_t r = ::recv(fd_, b, sizeof b, MSG_DONTWAIT);
      if (r == 0) return true;
      if (r < 0) return errno != EAGAIN;  // a reset also ends it
    }
  }

 private:
  int fd_ = -1;
  std::vector<std::uint8_t> buf_;
};

load::Options floor_options(std::uint16_t port, unsigned connections = 4, unsigned pipeline = 1) {
  load::Options o;
  o.framing = matrix::Framing::raw_tcp;
  o.port = port;
  o.floor_request_bytes = kRequestBytes;
  o.floor_response_bytes = kResponseBytes;
  o.connections = connections;
  o.pipeline = pipeline;
  o.warmup_s = 0.2;
  o.timeout_ms = static_cast<std::uint32_t>(zaptest::kHang.count());  // a timeout error only for a hang
  return o;
}

// The load until `n` valid responses, then stopped (the drain answers what is in flight).
load::Result run_floor(const load::Options& o, std::uint64_t n = 200) {
  zaptest::BackgroundLoad l(o);
  l.await_responses(n, std::to_string(n) + " floor responses");
  return l.finish();
}

// The engine's accounting on the floor wire, exact where the window allows. Requests are counted by their
// (intended = actual, closed loop) send time and every one sent in the window is answered, also in the
// drain; bytes sent are counted when they leave, in the same call as the request, so they match exactly.
// Bytes received are counted when they arrive, responses by their request's send time: at each edge of the
// window at most every in-flight response (connections x pipeline) is on the other side.
void expect_exact_floor_accounting(const load::Result& r, const load::Options& o) {
  EXPECT_GT(r.responses, 0u);
  EXPECT_EQ(r.error_total(), 0u);
  EXPECT_EQ(r.requests, r.responses);
  EXPECT_EQ(r.latency.count(), r.responses);
  EXPECT_EQ(r.bytes_sent, r.requests * kRequestBytes);
  const std::uint64_t expected = r.responses * kResponseBytes;
  const std::uint64_t edge_bytes = 2ull * o.connections * o.pipeline * kResponseBytes;
  const std::uint64_t diff =
      r.bytes_received > expected ? r.bytes_received - expected : expected - r.bytes_received;
  EXPECT_LE(diff, edge_bytes) << "received " << r.bytes_received << " for " << r.responses << " responses";
  EXPECT_EQ(r.bytes_received % kResponseBytes, 0u) << "a response was cut at the window's edge";
}

// ---- the engine against the floor server ------------------------------------------------------------

TEST(floor_load, counts_every_response_and_every_byte) {
  RunningFloor f;
  const load::Options o = floor_options(f.port());
  const load::Result r = run_floor(o);
  expect_exact_floor_accounting(r, o);
  const server::Floor::Counters c = f.floor().counters();
  EXPECT_EQ(c.connections, o.connections);
  EXPECT_GE(c.requests, r.responses);  // the server also answered the warm-up
  EXPECT_EQ(c.io_errors, 0u);
}

TEST(floor_load, pipelines_sixteen_deep_without_errors) {
  RunningFloor f;
  const load::Options o = floor_options(f.port(), 4, 16);
  const load::Result r = run_floor(o, 1000);
  expect_exact_floor_accounting(r, o);
}

TEST(floor_load, spreads_over_several_server_and_loader_threads) {
  RunningFloor f(kRequestBytes, kResponseBytes, 2);
  load::Options o = floor_options(f.port(), 8, 4);
  o.threads = 2;
  const load::Result r = run_floor(o, 1000);
  expect_exact_floor_accounting(r, o);
  EXPECT_EQ(f.floor().counters().connections, 8u);
}

TEST(floor_load, answers_a_response_larger_than_the_request) {
  // A response far larger than a read's worth: the engine assembles it across reads.
  RunningFloor f(10, 100'000);
  load::Options o = floor_options(f.port(), 2, 2);
  o.floor_request_bytes = 10;
  o.floor_response_bytes = 100'000;
  const load::Result r = run_floor(o, 20);
  EXPECT_GT(r.responses, 0u);
  EXPECT_EQ(r.error_total(), 0u);
  EXPECT_EQ(r.requests, r.responses);
  EXPECT_EQ(r.bytes_sent, r.requests * 10);
}

TEST(floor_load, refuses_a_floor_run_without_both_byte_counts) {
  load::Options o = floor_options(1);
  o.floor_request_bytes = 0;
  EXPECT_THROW(load::run(o), std::runtime_error);
  o = floor_options(1);
  o.floor_response_bytes = 0;
  EXPECT_THROW(load::run(o), std::runtime_error);
}

// ---- the server from raw sockets ---------------------------------------------------------------------

TEST(floor_server, answers_a_request_sent_one_byte_at_a_time) {
  RunningFloor f;
  Client c(f.port());
  for (int round = 0; round < 3; ++round) {
    const std::uint8_t b = 'q';
    for (std::size_t i = 0; i + 1 < kRequestBytes; ++i) c.send_all(&b, 1);
    EXPECT_TRUE(c.silent_for(50ms)) << "answered before the request was complete";
    c.send_all(&b, 1);
    EXPECT_TRUE(c.read_exact(kResponseBytes)) << "round " << round;
    EXPECT_TRUE(c.silent_for(50ms)) << "more than one response to one request";
  }
  EXPECT_EQ(f.floor().counters().requests, 3u);
}

TEST(floor_server, answers_requests_that_straddle_writes) {
  RunningFloor f;
  Client c(f.port());
  // One and a half requests, then the other half: one response each time.
  c.send_requests(1);
  const std::vector<std::uint8_t> half(kRequestBytes / 2, 'q');
  c.send_all(half.data(), half.size());
  EXPECT_TRUE(c.read_exact(kResponseBytes));
  EXPECT_TRUE(c.silent_for(50ms));
  const std::vector<std::uint8_t> rest(kRequestBytes - half.size(), 'q');
  c.send_all(rest.data(), rest.size());
  EXPECT_TRUE(c.read_exact(kResponseBytes));
  EXPECT_TRUE(c.silent_for(50ms));
  EXPECT_EQ(f.floor().counters().requests, 2u);
}

TEST(floor_server, answers_a_large_pipelined_batch_in_full) {
  RunningFloor f;
  Client c(f.port());
  constexpr std::size_t kBatch = 5000;  // ~400 KB each way: many reads and sends on both sides
  std::thread sender([&] { c.send_requests(kBatch); });
  EXPECT_TRUE(c.read_exact(kBatch * kResponseBytes));
  sender.join();
  EXPECT_TRUE(c.silent_for(50ms));
  EXPECT_EQ(f.floor().counters().requests, kBatch);
}

// Answers of megabytes (the logs floor at N = 10 000), pipelined 24 deep in one write: the floor answers
// while its output holds less than the cap, owes the rest and answers them as it drains — every one, whole,
// with nothing more.
TEST(floor_server, owes_pipelined_megabyte_answers_past_the_cap_and_pays_them_as_it_drains) {
  constexpr std::size_t kBig = 2'320'321, kDepth = 24;  // 56 MB: more than the cap and the kernel's buffers
  RunningFloor f(kRequestBytes, kBig);
  Client c(f.port());
  c.send_requests(kDepth);
  EXPECT_TRUE(zaptest::await([&] { return f.floor().counters().requests >= 1; }));
  EXPECT_LT(f.floor().counters().requests, kDepth) << "all answered before any was read: nothing owed";
  for (std::size_t i = 0; i < kDepth; ++i) ASSERT_TRUE(c.read_exact(kBig)) << "answer " << i;
  EXPECT_TRUE(c.silent_for(50ms));
  EXPECT_EQ(f.floor().counters().requests, kDepth);
  EXPECT_EQ(f.floor().counters().bytes_sent, kDepth * kBig);
}

TEST(floor_server, a_peer_that_closes_mid_request_does_not_disturb_others) {
  RunningFloor f;
  Client steady(f.port());
  steady.send_requests(1);
  ASSERT_TRUE(steady.read_exact(kResponseBytes));
  {
    Client leaver(f.port());  // half a request, then gone
    const std::vector<std::uint8_t> half(kRequestBytes / 2, 'q');
    leaver.send_all(half.data(), half.size());
  }
  {
    Client deaf(f.port());  // many requests, never reads an answer, then gone
    deaf.send_requests(20'000);
  }
  for (int i = 0; i < 10; ++i) {
    steady.send_requests(3);
    ASSERT_TRUE(steady.read_exact(3 * kResponseBytes)) << "after the others left, round " << i;
  }
  EXPECT_TRUE(steady.silent_for(20ms));
  EXPECT_TRUE(zaptest::await([&] { return f.floor().counters().connections == 3u; }))
      << "awaited the server's count of 3 connections; it says " << f.floor().counters().connections;
}

TEST(floor_server, stop_ends_run_and_closes_connections) {
  RunningFloor f;
  Client idle(f.port());
  Client busy(f.port());
  busy.send_requests(1);
  ASSERT_TRUE(busy.read_exact(kResponseBytes));
  ASSERT_TRUE(f.stop());
  EXPECT_TRUE(idle.closed_by_peer(zaptest::kHang));
  EXPECT_TRUE(busy.closed_by_peer(zaptest::kHang));
  EXPECT_EQ(f.floor().counters().requests, 1u);
}

TEST(floor_server, stop_before_run_makes_run_return) {
  server::Floor::Config cfg;
  cfg.listen = {"127.0.0.1", 0};
  cfg.request_bytes = cfg.response_bytes = 1;
  server::Floor floor(cfg);
  floor.stop();
  std::atomic<bool> returned{false};
  std::thread t([&] {
    floor.run();
    returned = true;
  });
  EXPECT_TRUE(zaptest::await([&] { return returned.load(); })) << "awaited run() after an earlier stop()";
  t.join();
}

TEST(floor_server, refuses_zero_byte_counts_and_an_address_in_use) {
  server::Floor::Config cfg;
  cfg.listen = {"127.0.0.1", 0};
  cfg.request_bytes = 0;
  cfg.response_bytes = 1;
  EXPECT_THROW(server::Floor{cfg}, std::runtime_error);
  // A port held by a socket without SO_REUSEPORT cannot be shared.
  const int holder = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(bind(holder, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(holder, 1), 0);
  ASSERT_EQ(getsockname(holder, reinterpret_cast<sockaddr*>(&a), &len), 0);
  cfg.request_bytes = 1;
  cfg.listen.port = ntohs(a.sin_port);
  try {
    server::Floor floor(cfg);
    ADD_FAILURE() << "bound a port in use";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot listen on 127.0.0.1:" + std::to_string(cfg.listen.port)),
              std::string::npos)
        << e.what();
  }
  close(holder);
}

// Steady state allocates nothing per request: the connection's output buffer is reused and reads go to one
// scratch area per thread. Counted with the benchmarks' operator new over a connection that is already warm.
TEST(floor_allocations, requests_allocate_nothing_in_steady_state) {
  RunningFloor f;
  Client c(f.port());
  const std::vector<std::uint8_t> batch(16 * kRequestBytes, 'q');
  auto round = [&] {
    c.send_all(batch.data(), batch.size());
    ASSERT_TRUE(c.read_exact(16 * kResponseBytes));
  };
  EXPECT_EQ(zaptest::allocations_elsewhere(round, 50, 1000), 0u) << "allocations by the floor server";
  EXPECT_GE(f.floor().counters().requests, 16u * 1050u);
}

}  // namespace
