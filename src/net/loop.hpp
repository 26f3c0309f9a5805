// net/loop.hpp — the event core's loop, one per worker thread: an epoll
// instance, the eventfd that wakes it from another thread (stop), the coarse
// clock read before every event, the periodic tick, and run(), which hands
// each event to its owner. Owns no connection state and no protocol: the
// server, the floor and the loader are handlers on it (see run()).
#pragma once

#include <sys/epoll.h>

#include <atomic>
#include <cstdint>

#include "net/clock.hpp"

namespace net {

// Every epoll registration points at one of these. kind says what it is;
// wire is the owner's framing policy, set once per listener and copied to
// the connections it accepts, so a connection's events dispatch to one
// policy's code without looking at any byte.
struct Pollable {
  enum class Kind : std::uint8_t { wake, listener, connection };
  Kind kind;
  std::uint8_t wire = 0;
};

class Loop {
 public:
  static constexpr int kMaxEvents = 256;  // per epoll_wait

  // Throws std::runtime_error when epoll or the eventfd cannot be created.
  Loop();
  ~Loop();
  Loop(const Loop&) = delete;
  Loop& operator=(const Loop&) = delete;

  // Registers fd with tag as its epoll data. Throws std::runtime_error on
  // failure (a listener that cannot be watched is a setup error).
  void add(int fd, std::uint32_t events, Pollable* tag);
  // The same on the hot path (accept, connect): false on failure.
  bool try_add(int fd, std::uint32_t events, Pollable* tag) noexcept;
  void modify(int fd, std::uint32_t events, Pollable* tag) noexcept;

  // Any thread: run() returns after the batch it is handling.
  void stop() noexcept;
  [[nodiscard]] bool stopping() const noexcept { return stop_.load(std::memory_order_acquire); }

  // The coarse clock (coarse_now_ms) as of the event being handled: a fresh
  // time per event, because one taken after epoll_wait would be stale for
  // the later events of a long batch (a slow machine, a client flooding
  // pipelined requests), and a connection read late in it would look idle.
  [[nodiscard]] std::int64_t now_ms() const noexcept { return now_ms_; }
  std::int64_t refresh_now_ms() noexcept { return now_ms_ = coarse_now_ms(); }

  // What wait_ms() returns to end run() at once, without waiting again.
  static constexpr int kDone = -2;

  // Runs until stop(). Per round: timeout = h.wait_ms() (-1: no bound;
  // kDone: return now), one epoll_wait, h.on_event(Pollable&, events) for
  // each event but the wake-up's with now_ms() fresh, then h.on_tick() once
  // tick_ms have passed since the last (tick_ms 0: after every round; < 0:
  // never).
  template <class Handler>
  void run(Handler& h, int tick_ms) {
    epoll_event events[kMaxEvents];
    std::int64_t last_tick_ms = refresh_now_ms();
    while (!stopping()) {
      const int timeout_ms = h.wait_ms();
      if (timeout_ms == kDone) break;
      const int n = epoll_wait(epoll_, events, kMaxEvents, timeout_ms);
      for (int i = 0; i < n; ++i) {
        auto* p = static_cast<Pollable*>(events[i].data.ptr);
        refresh_now_ms();
        if (p->kind != Pollable::Kind::wake) h.on_event(*p, events[i].events);
      }
      if (tick_ms < 0) continue;
      if (refresh_now_ms() - last_tick_ms >= tick_ms) {
        last_tick_ms = now_ms_;
        h.on_tick();
      }
    }
  }

  // After run() returned: the wake-up eventfd stays readable, and left in
  // epoll it would make every later wait return at once (a drain spinning on
  // its core). Call before wait()ing for a drain.
  void quiet_wake() noexcept;
  // One raw epoll_wait (for a drain after run()): the events, wake-up's included.
  int wait(epoll_event* events, int max, int timeout_ms) noexcept;

 private:
  int epoll_ = -1;
  int wake_ = -1;
  Pollable wake_tag_{Pollable::Kind::wake};
  std::atomic<bool> stop_{false};
  std::int64_t now_ms_ = 0;
};

}  // namespace net
