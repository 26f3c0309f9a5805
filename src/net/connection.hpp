// net/connection.hpp — a connection of the event core: its socket, its input
// and output buffers (each region taken at its first write and kept while
// the connection is active, so steady state allocates nothing; an idle
// connection's given back by its owner: net/buffer.hpp), its interest set, what the io_uring backend
// keeps of its operations in flight, and its place in the worker's list of
// open connections; flush() and read_into(), the system calls of the epoll
// backend's send and read; and the listener side: accept under a connection
// limit. What a connection's bytes
// mean belongs to its owner's wire policy, not here.
#pragma once

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>

#include "net/buffer.hpp"
#include "net/loop.hpp"
#include "net/socket.hpp"

namespace net {

// What UringLoop (net/uring_loop.hpp) knows of a connection's operations in
// the kernel; unused on epoll. What a completion brought waits here until the
// handler asks for it (read, discard, flush), so the handler sees the same
// results as from the system calls.
struct RingState {
  std::uint32_t received_bytes = 0;  // appended to `in` since the handler's last read
  std::uint32_t sent_bytes = 0;      // left `out` since the handler's last flush
  int read_error = 0;                // the receive failed (errno)
  int send_error = 0;                // the send failed (errno)
  std::uint16_t generation = 0;      // completions of an earlier socket on this slot are stale
  std::uint8_t in_flight = 0;        // operations whose last completion has not come
  bool eof = false;                  // the peer closed its side
  bool recv_armed = false;           // a receive is in the kernel
  bool recv_cancelled = false;       // ... and asked to end (the handler stopped reading)
  bool send_in_flight = false;       // `out` is pinned under a send
  bool poll_armed = false;           // a connect's one-shot poll is in the kernel (close cancels it)
  bool closed = false;               // close() was called; freed when in_flight reaches 0
};

struct Connection : Pollable {
  Connection(std::size_t in_bytes, std::size_t out_bytes, std::uint8_t wire_ = 0)
      : Pollable{Kind::connection, wire_}, in(in_bytes), out(out_bytes) {}
  int fd = -1;
  std::uint32_t events = 0;  // the interest set now (EPOLLIN, EPOLLOUT, ...)
  Buffer in;
  Buffer out;
  RingState ring;
  Connection* prev = nullptr;  // the worker's list of open connections (ConnectionList)
  Connection* next = nullptr;
};

// What flush() did: drained (out is empty), blocked (the socket is full:
// wait for EPOLLOUT), failed (errno in error, e.g. EPIPE, ECONNRESET).
// sent_bytes counts what left in any case.
struct FlushResult {
  enum class Status : std::uint8_t { drained, blocked, failed } status;
  int error = 0;
  std::size_t sent_bytes = 0;
};

// Sends c.out until it is empty or the socket is full: everything ready goes
// out with as few send()s as the socket allows (one, normally).
inline FlushResult flush(Connection& c) noexcept {
  FlushResult r{FlushResult::Status::drained};
  while (!c.out.empty()) {
    const auto data = c.out.readable();
    const ssize_t n = ::send(c.fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n > 0) {
      c.out.consume(static_cast<std::size_t>(n));
      r.sent_bytes += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      r.status = FlushResult::Status::blocked;
      return r;
    }
    r.status = FlushResult::Status::failed;
    r.error = n < 0 ? errno : EIO;
    return r;
  }
  return r;
}

// One read into c.in of up to `want` bytes (the buffer grows or compacts to
// make room); on data the bytes are committed.
inline ReadResult read_into(Connection& c, std::size_t want) noexcept {
  std::uint8_t* p = c.in.prepare(want);
  const ReadResult r = read_some(c.fd, p, c.in.writable());
  if (r.status == ReadResult::Status::data) c.in.commit(r.bytes);
  return r;
}

// A worker's open connections, for timeouts and the drain: O(1) insert and
// removal, walked in insertion order (newest first). C derives from Connection.
template <class C>
class ConnectionList {
 public:
  void push(C* c) noexcept {
    c->prev = nullptr;
    c->next = head_;
    if (head_ != nullptr) head_->prev = c;
    head_ = c;
  }
  void remove(C* c) noexcept {
    if (c->prev != nullptr)
      c->prev->next = c->next;
    else
      head_ = static_cast<C*>(c->next);
    if (c->next != nullptr) c->next->prev = c->prev;
    c->prev = c->next = nullptr;
  }
  [[nodiscard]] C* front() const noexcept { return head_; }
  [[nodiscard]] bool empty() const noexcept { return head_ == nullptr; }
  // Calls f(C*) for each, f may remove (or destroy) the one it is given.
  template <class F>
  void for_each(F&& f) {
    for (C* c = head_; c != nullptr;) {
      C* next = static_cast<C*>(c->next);
      f(c);
      c = next;
    }
  }

 private:
  C* head_ = nullptr;
};

// ---- the listener side ------------------------------------------------------

// A listening socket registered with a loop; wire is the policy of the
// connections it accepts. Closes its socket.
struct Listener : Pollable {
  Listener(int fd_, std::uint8_t wire_) : Pollable{Kind::listener, wire_}, fd(fd_) {}
  ~Listener() {
    if (fd >= 0) ::close(fd);
  }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  int fd;
};

// The connections open at once over every worker of a server, against a
// maximum: the one thing the workers share on the request path (relaxed
// atomics; a connection over the limit is closed at once).
class ConnectionLimit {
 public:
  explicit ConnectionLimit(std::size_t max_connections) noexcept : max_(max_connections) {}
  [[nodiscard]] bool acquire() noexcept {
    if (open_.fetch_add(1, std::memory_order_relaxed) < max_) return true;
    open_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  void release() noexcept { open_.fetch_sub(1, std::memory_order_relaxed); }
  [[nodiscard]] std::size_t open() const noexcept { return open_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::size_t> open_{0};
  std::size_t max_;
};

// Accepts every connection waiting on l. Each one within the limit (nullptr:
// no limit) is non-blocking, TCP_NODELAY, and handed to accepted(fd), which
// owns it from then on (and must release() the limit when it closes it);
// each over the limit is closed and refused() is called. Returns when the
// queue is empty or on a transient error (the next event retries).
template <class Accepted, class Refused>
void accept_all(const Listener& l, ConnectionLimit* limit, Accepted&& accepted, Refused&& refused) {
  for (;;) {
    const int fd = accept4(l.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) return;
    if (limit != nullptr && !limit->acquire()) {
      ::close(fd);
      refused();
      continue;
    }
    set_nodelay(fd);
    accepted(fd);
  }
}

}  // namespace net
