// server/floor.hpp — the floor arm's server (`zapbench floor`): a raw TCP
// echo of fixed byte counts. For every request_bytes a connection receives it
// sends response_bytes of a constant response; nothing is parsed, nothing
// allocated per request. Driven by the same load engine as the real server
// (matrix::Framing::raw_tcp), it marks what the kernel and loopback allow for the
// same exchange. Runs on the same event core as server::Server (net/: an
// SO_REUSEPORT listener and a loop per pinned thread, TCP_NODELAY, one flush
// path); owns no protocol.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "net/loop.hpp"
#include "net/pool.hpp"
#include "server/listen.hpp"

namespace server {

class AnyFloorWorker;

class Floor {
 public:
  struct Config {
    Endpoint listen;
    std::size_t request_bytes = 0;   // one request is this many bytes, whatever they are
    std::size_t response_bytes = 0;  // answered with this many bytes of a constant response
    unsigned threads = 1;
    std::vector<int> cpus;        // thread i pinned to cpus[i % size]; empty: not pinned
    net::Io io = net::Io::epoll;  // the event core's backend (`--io`), as the server's
  };

  struct Counters {
    std::uint64_t connections = 0;  // accepted
    std::uint64_t requests = 0;     // complete requests answered
    std::uint64_t bytes_received = 0;
    std::uint64_t bytes_sent = 0;
    std::uint64_t io_errors = 0;  // read/write errors, resets
  };

  // Binds one listener per thread (throws std::runtime_error with a clear
  // message: a byte count of 0, an address that does not resolve or is in use).
  explicit Floor(Config config);
  ~Floor();
  Floor(const Floor&) = delete;
  Floor& operator=(const Floor&) = delete;

  // Runs the workers until stop(), then closes every connection and returns.
  // Responses still queued at stop() get one last non-blocking send, no grace
  // period: the floor has no requests worth finishing.
  void run();
  // Safe from another thread (a signal thread, a test); returns at once.
  void stop();

  // The address actually bound (port 0 resolved).
  [[nodiscard]] const Endpoint& bound() const { return bound_; }
  // Summed over the workers; exact once run() has returned, a relaxed
  // snapshot while it runs.
  [[nodiscard]] Counters counters() const;

 private:
  Config config_;
  Endpoint bound_;
  std::unique_ptr<net::Pool<AnyFloorWorker>> pool_;
};

}  // namespace server
