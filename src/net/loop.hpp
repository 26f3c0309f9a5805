// net/loop.hpp — what every backend of the event core shares: the Pollable
// tag each registration points at, and LoopBase — the stop flag another
// thread sets, and the coarse clock read before every event. The backends
// are EpollLoop (net/epoll_loop.hpp: readiness, the handler reads and sends)
// and UringLoop (net/uring_loop.hpp: completions, the kernel reads and
// sends); a handler is written once against their common interface and
// instantiated for the one chosen per process (`--io`), so no request
// branches on the backend.
#pragma once

#include <atomic>
#include <cstdint>

#include "matrix/matrix.hpp"
#include "net/clock.hpp"

namespace net {

// Every registration points at one of these. kind says what it is; wire is
// the owner's framing policy, set once per listener and copied to the
// connections it accepts, so a connection's events dispatch to one policy's
// code without looking at any byte. Aligned so a backend may keep two tag
// bits in the pointer's low bits (UringLoop's user_data).
struct alignas(8) Pollable {
  enum class Kind : std::uint8_t { wake, listener, connection };
  Kind kind;
  std::uint8_t wire = 0;
};

// The I/O interface chosen once per process (`--io`): the matrix's axis.
using Io = matrix::Io;

class LoopBase {
 public:
  // What a handler's wait_ms() returns to end run() at once, without waiting again.
  static constexpr int kDone = -2;

  // Any thread: run() returns after the batch it is handling (the backend
  // also wakes its wait: see each stop()).
  [[nodiscard]] bool stopping() const noexcept { return stop_.load(std::memory_order_acquire); }

  // The coarse clock (coarse_now_ms) as of the event being handled: a fresh
  // time per event, because one taken after the wait would be stale for the
  // later events of a long batch (a slow machine, a client flooding
  // pipelined requests), and a connection read late in it would look idle.
  [[nodiscard]] std::int64_t now_ms() const noexcept { return now_ms_; }
  std::int64_t refresh_now_ms() noexcept { return now_ms_ = coarse_now_ms(); }

 protected:
  // After a round of events: h.on_tick() once tick_ms have passed since the
  // last (tick_ms 0: after every round; < 0: never).
  template <class Handler>
  void tick(Handler& h, int tick_ms, std::int64_t& last_tick_ms) {
    if (tick_ms < 0) return;
    if (refresh_now_ms() - last_tick_ms >= tick_ms) {
      last_tick_ms = now_ms_;
      h.on_tick();
    }
  }
  void set_stop() noexcept { stop_.store(true, std::memory_order_release); }

 private:
  std::atomic<bool> stop_{false};
  std::int64_t now_ms_ = 0;
};

}  // namespace net
