// net/uring_loop.hpp — the event core on io_uring, one ring per worker
// thread, with EpollLoop's interface (net/epoll_loop.hpp) so the server, the
// floor and the loader run on it unchanged. Completion-based underneath:
// each connection keeps one receive armed (multishot into a provided-buffer
// ring when the kernel has it, else re-armed per completion) and at most one
// send of its `out` in flight (`out` pinned meanwhile: net/buffer.hpp). What
// a completion brings is put where the handler looks — received bytes
// appended to `in`, sent bytes consumed from `out` — and announced with the
// readiness bits the handler already knows (EPOLLIN, EPOLLOUT); its read(),
// discard() and flush() then return what came instead of calling the
// kernel. Submissions queue during a turn and go in with the wait: one
// io_uring_enter per turn, for every connection (SINGLE_ISSUER and
// DEFER_TASKRUN when the kernel has them, else COOP_TASKRUN). Listeners, the
// wake-up eventfd and a connecting socket are watched with poll operations
// (readiness: accept4 and connect stay the handler's). A connection's
// operations name it in their user_data (pointer, operation, generation);
// close() cancels them, and the connection is freed by its owner only once
// the last completion came (on_closed).
#pragma once

#include <liburing.h>
#include <sys/epoll.h>

#include <cstdint>
#include <memory>

#include "net/connection.hpp"
#include "net/loop.hpp"
#include "net/uring.hpp"

namespace net {

class UringLoop : public LoopBase {
 public:
  static constexpr Io kIo = Io::io_uring;
  static constexpr unsigned kRingEntries = 1024;        // submissions per enter before one is forced
  static constexpr unsigned kCompletionEntries = 8192;  // more than connections x operations, mostly
  static constexpr unsigned kBufferCount = 128;         // the provided-buffer ring (a power of 2)
  static constexpr unsigned kBufferBytes = 16 * 1024;

  // Throws std::runtime_error with the kernel's reason when io_uring cannot
  // be set up (probe_uring() says why before a server starts). The ring
  // starts disabled and is enabled by the first turn, on the thread that
  // runs it: that thread is its single issuer.
  UringLoop();
  ~UringLoop();
  UringLoop(const UringLoop&) = delete;
  UringLoop& operator=(const UringLoop&) = delete;

  // What this process's rings use, one line (probe_uring's answer and the
  // choices made from it): for `serve` and `floor` to print at start.
  [[nodiscard]] static std::string describe();

  // A listener (or any non-connection tag): watched for `events` with a
  // multishot poll; on_event(tag, events) as epoll would say them. A
  // connection: with EPOLLIN, its receive armed; with only EPOLLOUT (a
  // connect in progress), one poll for it. Throws / false as EpollLoop's.
  void add(int fd, std::uint32_t events, Pollable* tag);
  bool try_add(int fd, std::uint32_t events, Pollable* tag) noexcept;

  // ---- a connection's I/O: the same five calls as EpollLoop's ----
  // EPOLLIN in want keeps a receive armed; without it the receive is
  // cancelled (backpressure: nothing more is read). EPOLLOUT needs nothing:
  // a send's completion always announces itself.
  void set_interest(Connection& c, std::uint32_t want) noexcept;
  // What completions appended to c.in since the last call: data (the bytes,
  // already in c.in), eof, failed, or again (nothing new). `want` is the
  // epoll loop's read size; here the kernel chose it.
  ReadResult read(Connection& c, std::size_t want) noexcept;
  // The same, the bytes dropped from c.in (a closing connection, the floor).
  ReadResult discard(Connection& c, void* sink, std::size_t sink_bytes) noexcept;
  // drained: c.out is empty (sent_bytes: what left since the last flush);
  // blocked: a send of c.out is in the kernel (queued now if none was);
  // failed: the last send failed (error).
  FlushResult flush(Connection& c) noexcept;
  // Cancels c's operations and closes its socket; the slot's next socket
  // gets a new generation. True: nothing was in flight, c may be freed now;
  // false: the owner frees it in on_closed(c), when the last completion
  // comes (or in release_pending at teardown).
  bool close(Connection& c) noexcept;
  // Whether c's slot may take a new socket: no completion of its last one
  // is still to come (a slot reused earlier would have its new `out` under
  // the old send).
  [[nodiscard]] bool idle(const Connection& c) const noexcept { return c.ring.in_flight == 0; }
  // Calls f(Connection&) for each connection whose close() said "not yet",
  // and forgets them: the owner's teardown frees them (the ring goes after,
  // and the kernel lets go of everything then).
  template <class F>
  void release_pending(F&& f) {
    while (closing_ != nullptr) {
      Connection* c = closing_;
      unlink_closing(c);
      f(*c);
    }
  }

  // Any thread: run() returns after the batch it is handling.
  void stop() noexcept;

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

  // One enter: what the handler queued goes in, and the turn waits up to
  // timeout_ms (-1: no bound) for a completion; then each completion is
  // applied to its connection and announced to h (on_event, and
  // on_closed(Connection&) for a closed one whose last completion came).
  template <class Handler>
  void turn(Handler& h, int timeout_ms) {
    wait(timeout_ms);
    io_uring_cqe* cqe = nullptr;
    unsigned seen = 0;
    unsigned head = 0;
    io_uring_for_each_cqe(&ring_, head, cqe) {
      ++seen;
      refresh_now_ms();
      complete(h, cqe->user_data, cqe->res, cqe->flags);
    }
    io_uring_cq_advance(&ring_, seen);
    if (buffers_added_ != 0) {
      io_uring_buf_ring_advance(buffer_ring_, static_cast<int>(buffers_added_));
      buffers_added_ = 0;
    }
  }

  // After run() returned: the wake-up's poll ends, so a drain's turns wait.
  void quiet_wake() noexcept;

 private:
  enum Op : std::uint64_t { kOpNone = 0, kOpRecv = 1, kOpSend = 2, kOpPoll = 3 };
  static constexpr std::uint64_t kOpMask = 3;
  static constexpr unsigned kGenerationShift = 48;
  static constexpr std::uint64_t kPointerMask = (std::uint64_t{1} << kGenerationShift) - 1 - kOpMask;

  static std::uint64_t tag(const Pollable* p, Op op, std::uint16_t generation) noexcept {
    return reinterpret_cast<std::uintptr_t>(p) | op | (std::uint64_t{generation} << kGenerationShift);
  }

  io_uring_sqe* sqe() noexcept;  // a free submission entry (submits first when the queue is full)
  void wait(int timeout_ms) noexcept;
  void enable() noexcept;  // on the thread that runs the loop: its single issuer from then on
  void arm_recv(Connection& c) noexcept;
  void arm_poll(int fd, std::uint32_t events, Pollable* p, bool multishot) noexcept;
  void cancel(std::uint64_t user_data) noexcept;
  void recycle(unsigned buffer_id) noexcept;
  void link_closing(Connection* c) noexcept;
  void unlink_closing(Connection* c) noexcept;
  [[nodiscard]] const std::uint8_t* buffer(unsigned id) const noexcept {
    return buffers_.get() + std::size_t{id} * kBufferBytes;
  }

  // One completion: applied, then announced. Out of line where it is long.
  template <class Handler>
  void complete(Handler& h, std::uint64_t user_data, int res, unsigned flags) {
    if (user_data == kOpNone) return;  // a cancel's own completion
    const auto op = static_cast<Op>(user_data & kOpMask);
    auto* p = reinterpret_cast<Pollable*>(user_data & kPointerMask);
    const bool more = (flags & IORING_CQE_F_MORE) != 0;
    if (p->kind != Pollable::Kind::connection) {
      if (p->kind == Pollable::Kind::wake) {
        if (!more && !quiet_) arm_poll(wake_, EPOLLIN, &wake_tag_, true);
        return;
      }
      if (!more) arm_poll(static_cast<Listener*>(p)->fd, EPOLLIN, p, true);
      if (res > 0) h.on_event(*p, static_cast<std::uint32_t>(res));
      return;
    }
    auto& c = *static_cast<Connection*>(p);
    const auto generation = static_cast<std::uint16_t>(user_data >> kGenerationShift);
    const std::uint32_t events = apply(c, op, generation, res, flags, more);
    if (c.ring.closed) {
      if (c.ring.in_flight == 0) {
        unlink_closing(&c);
        h.on_closed(c);
      }
      return;
    }
    if (events != 0) h.on_event(c, events);
  }
  // The completion's effect on c; the events to announce (0: none).
  std::uint32_t apply(Connection& c, Op op, std::uint16_t generation, int res, unsigned flags,
                      bool more) noexcept;

  io_uring ring_{};
  bool ring_ready_ = false;  // set up (the destructor's test)
  bool enabled_ = false;     // enabled on the running thread
  bool multishot_ = false;   // receives are multishot
  bool quiet_ = false;       // quiet_wake(): the wake-up's poll is not re-armed
  int wake_ = -1;
  Pollable wake_tag_{Pollable::Kind::wake};
  io_uring_buf_ring* buffer_ring_ = nullptr;
  std::unique_ptr<std::uint8_t[]> buffers_;
  unsigned buffers_added_ = 0;     // returned to the ring, published at the end of the turn
  Connection* closing_ = nullptr;  // closed, completions still to come (linked by prev/next)
};

}  // namespace net
