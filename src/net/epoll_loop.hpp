// net/epoll_loop.hpp — the event core on epoll, one loop per worker thread:
// an epoll instance, the eventfd that wakes it from another thread (stop),
// and run(), which hands each readiness event to its owner; the handler's
// I/O on a connection (read, discard, flush) are the system calls
// themselves, done when the handler asks. Owns no connection state and no
// protocol: the server, the floor and the loader are handlers on it.
#pragma once

#include <sys/epoll.h>
#include <unistd.h>

#include <cstdint>

#include "net/connection.hpp"
#include "net/loop.hpp"

namespace net {

class EpollLoop : public LoopBase {
 public:
  static constexpr Io kIo = Io::epoll;
  static constexpr int kMaxEvents = 256;  // per epoll_wait

  // Throws std::runtime_error when epoll or the eventfd cannot be created.
  EpollLoop();
  ~EpollLoop();
  EpollLoop(const EpollLoop&) = delete;
  EpollLoop& operator=(const EpollLoop&) = delete;

  // Registers fd with tag as its epoll data. Throws std::runtime_error on
  // failure (a listener that cannot be watched is a setup error).
  void add(int fd, std::uint32_t events, Pollable* tag);
  // The same on the hot path (accept, connect): false on failure.
  bool try_add(int fd, std::uint32_t events, Pollable* tag) noexcept;

  // ---- a connection's I/O: the same five calls on every backend ----
  // The epoll interest set of c becomes want (one epoll_ctl, only on change).
  void set_interest(Connection& c, std::uint32_t want) noexcept {
    if (want == c.events) return;
    c.events = want;
    modify(c.fd, want, &c);
  }
  // One read into c.in of up to `want` bytes.
  ReadResult read(Connection& c, std::size_t want) noexcept { return read_into(c, want); }
  // One read of what arrived, dropped (a closing connection, the floor).
  ReadResult discard(Connection& c, void* sink, std::size_t sink_bytes) noexcept {
    return read_some(c.fd, sink, sink_bytes);
  }
  // Sends c.out until it is empty or the socket is full.
  FlushResult flush(Connection& c) noexcept { return net::flush(c); }
  // Closes c's socket (which also ends its registration); true: c may be
  // freed now (always, here).
  bool close(Connection& c) noexcept {
    ::close(c.fd);
    return true;
  }
  // Whether c's slot may take a new socket (always, here).
  [[nodiscard]] bool idle(const Connection&) const noexcept { return true; }
  // Connections whose close() said "not yet": none here.
  template <class F>
  void release_pending(F&&) noexcept {}

  // Any thread: run() returns after the batch it is handling.
  void stop() noexcept;

  // Runs until stop(). Per round: timeout = h.wait_ms() (-1: no bound;
  // kDone: return now), one turn, then h.on_tick() once tick_ms have passed
  // since the last (tick_ms 0: after every round; < 0: never).
  template <class Handler>
  void run(Handler& h, int tick_ms) {
    std::int64_t last_tick_ms = refresh_now_ms();
    while (!stopping()) {
      const int timeout_ms = h.wait_ms();
      if (timeout_ms == kDone) break;
      turn(h, timeout_ms);
      tick(h, tick_ms, last_tick_ms);
    }
  }

  // One epoll_wait and h.on_event(Pollable&, events) for each event but the
  // wake-up's, with now_ms() fresh. run()'s round, and a drain's after it.
  template <class Handler>
  void turn(Handler& h, int timeout_ms) {
    epoll_event events[kMaxEvents];
    const int n = epoll_wait(epoll_, events, kMaxEvents, timeout_ms);
    for (int i = 0; i < n; ++i) {
      auto* p = static_cast<Pollable*>(events[i].data.ptr);
      refresh_now_ms();
      if (p->kind != Pollable::Kind::wake) h.on_event(*p, events[i].events);
    }
  }

  // After run() returned: the wake-up eventfd stays readable, and left in
  // epoll it would make every later wait return at once (a drain spinning on
  // its core). Call before turn()s of a drain.
  void quiet_wake() noexcept;

 private:
  void modify(int fd, std::uint32_t events, Pollable* tag) noexcept;

  int epoll_ = -1;
  int wake_ = -1;
  Pollable wake_tag_{Pollable::Kind::wake};
};

}  // namespace net
