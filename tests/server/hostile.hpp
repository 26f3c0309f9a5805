// tests/server/hostile.hpp — what the hostile suites share (hostile_test.cpp:
// HTTP/1.1, ZAP-HTTP and ZAP-RPC; hostile_http2_test.cpp: HTTP/2 and gRPC):
// the server under attack with the limits a test reaches in seconds, the
// well-behaved load's sizes, and the process figures the after-checks read
// (open descriptors, RSS) with their bounds.
#pragma once

#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "proc/sanitized.hpp"
#include "proc/usage.hpp"
#include "server/server.hpp"
#include "support/server_client.hpp"

// In an unnamed namespace, as support/server_client.hpp, whose TestServer it extends.
namespace {

using Ms = std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// ---- the server under attack ------------------------------------------------

// Default limits (what `zapbench serve` runs with), except the ones a test
// must reach in seconds: the timeouts, and a connection limit a flood can hit.
constexpr std::uint32_t kHeaderTimeoutMs = 1000;
constexpr std::uint32_t kIdleTimeoutMs = 1500;
constexpr std::size_t kMaxConnections = 160;
// A timed close must come no earlier than its timeout (minus the clocks'
// granularity). How much later it comes depends on the machine's speed, so
// the only upper bound is the hang bound of the client's reads.
constexpr int kEarlySlackMs = 60;

// The well-behaved clients: two loads in process (HTTP + JSON and ZAP +
// ZAP), kLoadConnections each, and one ZAP-RPC connection with calls in
// flight, from before the attack until after it: they are answered
// kLoadResponsesBefore times before it starts, and kLoadResponsesAfter more
// after it ends, then stopped.
constexpr unsigned kLoadConnections = 3;
constexpr std::uint64_t kLoadResponsesBefore = 30;
constexpr std::uint64_t kLoadResponsesAfter = 100;

// The server under attack: support/server_client.hpp's TestServer (every
// wire on 127.0.0.1:0) with these limits.
inline server::Config hostile_config(unsigned threads, net::Io io = net::Io::epoll) {
  server::Config cfg;
  cfg.threads = threads;
  cfg.io = io;
  cfg.limits.header_timeout_ms = kHeaderTimeoutMs;
  cfg.limits.idle_timeout_ms = kIdleTimeoutMs;
  cfg.limits.max_connections = kMaxConnections;
  return cfg;
}
struct LiveServer : TestServer {
  explicit LiveServer(unsigned threads, net::Io io = net::Io::epoll)
      : TestServer(hostile_config(threads, io)) {}
};

// ---- process figures ----------------------------------------------------------

// Resident set, after handing freed heap back to the kernel: glibc keeps
// freed memory cached per arena, and that is not what the bound is about.
inline std::int64_t rss_kib() {
  malloc_trim(0);
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  return -1;
}

constexpr std::int64_t kRssBoundKib = 64 * 1024;  // +64 MiB: generous, but far below "unbounded"
// What a client that never reads may cost the server: its output up to the
// 4 MiB cap (in a buffer grown to 8 MiB, zero-filled) and one read of input
// (32 KiB): ~8 MiB each, measured; the rest of 16 MiB is room for this test's
// own clients and allocator noise. Before the cap was honoured per read, one
// such client cost 25-30 MiB here, and up to the 64 MiB frame limit plus its
// answers in theory.
constexpr std::int64_t kNeverReaderBoundKib = 16 * 1024;
constexpr int kNeverReadersPerWire = 2;
// What a never-reader sends at most: far past every buffer on the path.
constexpr std::size_t kNeverReaderMaxSendBytes = 256u << 20;
// What a server that stops reading at its 4 MiB output cap can take in: the
// requests whose answers fill the cap (~3 MiB), one read, and the kernel's
// buffers both ways (tcp_rmem/tcp_wmem maxima, 6 + 4 MiB by default): ~14
// MiB. A server that kept reading would take all kNeverReaderMaxSendBytes and
// never time out.
constexpr std::size_t kNeverReaderMaxReadBytes = 64u << 20;

// A client that sends without end and never reads, on its own thread: how
// far it got and how it ended.
struct NeverReader {
  std::atomic<std::size_t> sent{0};
  bool closed_by_server = false;  // a send ended by the server's close (reset or EPIPE)
  bool hung = false;              // a send blocked for the whole hang bound

  // Sends on fd (made non-blocking) what next() returns (a std::string_view or
  // a byte span, valid until the next call), chunk after chunk, until
  // kNeverReaderMaxSendBytes, the server's close, or a send blocked for
  // zaptest::kHang.
  template <class NextChunk>
  void send_until_stopped(int fd, NextChunk next) {
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    auto chunk = next();
    std::size_t off = 0;
    while (sent < kNeverReaderMaxSendBytes) {
      if (off == chunk.size()) {
        chunk = next();
        off = 0;
      }
      const ssize_t n = ::send(fd, chunk.data() + off, chunk.size() - off, MSG_NOSIGNAL);
      if (n > 0) {
        sent += static_cast<std::size_t>(n);
        off += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && errno == EAGAIN) {
        pollfd p{fd, POLLOUT, 0};
        if (poll(&p, 1, static_cast<int>(zaptest::kHang.count())) == 0) {
          hung = true;
          return;
        }
        continue;
      }
      closed_by_server = n < 0 && (errno == ECONNRESET || errno == EPIPE);
      return;
    }
  }
};

// ASan's quarantine keeps freed memory resident and TSan's shadow memory
// multiplies every allocation: RSS figures are printed but not held to a bound
// under either.
constexpr bool kRssMeaningful = !proc::kSanitized;
// Milliseconds since t0.
inline int ms_since(SteadyClock::time_point t0) {
  return static_cast<int>(std::chrono::duration_cast<Ms>(SteadyClock::now() - t0).count());
}

}  // namespace
