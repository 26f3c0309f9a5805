// tests/net/net_uring_loop_test.cpp — net::UringLoop on its own, without a
// server: the edge cases the servers' tests (tests/server/hostile*,
// io_backends_test, endurance) reach only by chance. The provided-buffer ring
// running out (ENOBUFS ends a multishot receive, which must be re-armed with
// no byte lost or repeated), close() with a receive and a send in flight (one
// on_closed, the old generation's completions ignored by the slot's next
// socket; a connect's poll cancelled too), backpressure (a cancelled receive reads nothing more), flush() of
// a large `out` to a slow, closing or resetting peer, eof after the last data,
// stop() from another thread, and release_pending at teardown. Every test is
// skipped when the kernel refuses io_uring. Waits are for events (await.hpp),
// with a deadline only to catch a hang; no timing is asserted.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "net/connection.hpp"
#include "net/socket.hpp"
#include "net/uring.hpp"
#include "net/uring_loop.hpp"
#include "support/await.hpp"
#include "support/loopback.hpp"
#include "support/socket_pair.hpp"

namespace {

#define SKIP_WITHOUT_URING()                        \
  do {                                              \
    const net::UringSupport s = net::probe_uring(); \
    if (!s.available) GTEST_SKIP() << s.describe(); \
  } while (0)

using zaptest::SocketPair;

// The bytes a peer sends: a pattern that differs per stream and per offset, so
// a byte lost, repeated or out of order changes the checksum.
std::uint8_t pattern(std::uint32_t seed, std::uint64_t i) {
  return static_cast<std::uint8_t>((i * 131 + seed * 7 + (i >> 9) + (i >> 17)) & 0xff);
}

// FNV-1a over a stream, fed in pieces: order-sensitive.
struct Fnv {
  std::uint64_t h = 0xcbf29ce484222325ull;
  std::uint64_t bytes = 0;
  void add(const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    bytes += n;
  }
};

Fnv expected(std::uint32_t seed, std::uint64_t n) {
  Fnv f;
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint8_t b = pattern(seed, i);
    f.add(&b, 1);
  }
  return f;
}

// A peer's side of one stream: writes the pattern from where it left off, as
// much as its socket takes now (non-blocking), up to `total`.
struct Sender {
  int fd;
  std::uint32_t seed;
  std::uint64_t total;
  std::uint64_t sent = 0;
  // False on a hard error (the connection under test went away).
  bool pump() {
    std::uint8_t chunk[16 * 1024];
    while (sent < total) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof chunk, total - sent));
      for (std::size_t i = 0; i < n; ++i) chunk[i] = pattern(seed, sent + i);
      const ssize_t w = ::send(fd, chunk, n, MSG_NOSIGNAL);
      if (w <= 0) return w < 0 && (errno == EAGAIN || errno == EINTR);  // full for now: the next pump goes on
      sent += static_cast<std::uint64_t>(w);
    }
    return true;
  }
};

// What the handler saw of one connection.
struct Seen {
  Fnv in;            // the bytes read, in order (consuming handler)
  bool eof = false;  // read() said eof
  std::uint64_t bytes_at_eof = 0;
  int read_error = 0;      // read() said failed
  int in_events = 0;       // EPOLLIN announcements
  std::uint64_t sent = 0;  // flush()'s sent_bytes, summed
  int flush_blocked = 0;   // flushes that said blocked
  int flush_error = 0;     // the error of a flush that said failed
  bool drained = false;    // the last flush said drained
};

// The handler UringLoop::turn drives: reads everything announced (or, with
// consume false, leaves it in `in`, as a handler that does not read), flushes
// on EPOLLOUT, and counts on_closed per connection without freeing (the test
// owns its connections; free_on_closed for those it gave away).
struct Handler {
  explicit Handler(net::UringLoop& l) : loop(l) {}
  net::UringLoop& loop;
  bool consume = true;
  bool free_on_closed = false;
  std::map<const net::Connection*, Seen> seen;
  std::map<const net::Connection*, int> closed;
  std::atomic<bool> waited{false};

  int wait_ms() {
    waited = true;
    return -1;
  }
  void on_tick() {}
  void on_event(net::Pollable& p, std::uint32_t events) {
    ASSERT_EQ(p.kind, net::Pollable::Kind::connection);
    auto& c = static_cast<net::Connection&>(p);
    Seen& s = seen[&c];
    if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) != 0) {
      ++s.in_events;
      if (consume) read_all(c, s);
    }
    if ((events & EPOLLOUT) != 0) flush(c, s);
  }
  void on_closed(net::Connection& c) {
    ++closed[&c];
    if (free_on_closed) delete &c;
  }

  void read_all(net::Connection& c, Seen& s) {
    for (;;) {
      const net::ReadResult r = loop.read(c, 0);
      if (r.status == net::ReadResult::Status::data) {
        EXPECT_EQ(r.bytes, c.in.size()) << "read() names exactly the bytes appended since the last";
        s.in.add(c.in.readable().data(), c.in.size());
        c.in.consume(c.in.size());
        continue;
      }
      if (r.status == net::ReadResult::Status::eof && !s.eof) {
        s.eof = true;
        s.bytes_at_eof = s.in.bytes;
      }
      if (r.status == net::ReadResult::Status::failed) s.read_error = r.error;
      return;
    }
  }
  void flush(net::Connection& c, Seen& s) {
    const net::FlushResult f = loop.flush(c);
    s.sent += f.sent_bytes;
    s.drained = f.status == net::FlushResult::Status::drained;
    if (f.status == net::FlushResult::Status::blocked) ++s.flush_blocked;
    if (f.status == net::FlushResult::Status::failed) s.flush_error = f.error;
  }
};

// Turns the loop (on this thread: its single issuer) until done() holds;
// between() runs after each turn (a peer's sends and reads). False on a hang.
template <class Done, class Between>
bool pump(net::UringLoop& loop, Handler& h, Done&& done, Between&& between) {
  return zaptest::await([&] {
    loop.turn(h, 5);
    between();
    return done();
  });
}
template <class Done>
bool pump(net::UringLoop& loop, Handler& h, Done&& done) {
  return pump(loop, h, done, [] {});
}

// The bytes waiting unread in a socket's receive queue.
// c on fd, watched for `events` (with EPOLLIN its receive armed), as a server's accept does.
void watch(net::UringLoop& loop, net::Connection& c, int fd, std::uint32_t events) {
  c.fd = fd;
  c.events = events;
  loop.add(fd, events, &c);
}

// Closes c with an operation in flight: close() says the owner must wait (false), the socket is the
// loop's now (no longer the pair's to close), and on_closed comes, once.
void close_in_flight(net::UringLoop& loop, Handler& h, net::Connection& c, SocketPair& p) {
  EXPECT_FALSE(loop.close(c)) << "an operation in flight: the owner waits for on_closed";
  p.fd[0] = -1;
  EXPECT_TRUE(pump(loop, h, [&] { return h.closed[&c] == 1; })) << "awaited on_closed";
}

int unread(int fd) {
  int n = -1;
  EXPECT_EQ(ioctl(fd, FIONREAD, &n), 0);
  return n;
}

std::string random_like(std::size_t n, std::uint32_t seed) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>(pattern(seed, i));
  return s;
}

// ---- 1. the provided-buffer ring running out ---------------------------------

// More connections with data waiting than the ring has buffers: the first
// enter arms every receive, each takes at least one buffer at once, and the
// rest end with ENOBUFS (buffers come back only at the end of a turn). Each
// must be re-armed; every byte arrives, in order, once.
TEST(uring_loop, more_connections_with_data_than_buffers_lose_nothing) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  constexpr unsigned kConns = net::UringLoop::kBufferCount + 72;
  constexpr std::uint64_t kBytes = 3 * net::UringLoop::kBufferBytes;  // several buffers each
  std::vector<std::unique_ptr<SocketPair>> pairs;
  std::vector<std::unique_ptr<net::Connection>> conns;
  std::vector<Sender> senders;
  for (unsigned i = 0; i < kConns; ++i) {
    pairs.push_back(std::make_unique<SocketPair>());
    senders.push_back(Sender{pairs.back()->fd[1], i, kBytes});
    senders.back().pump();  // all of it waits before the first receive (a socketpair's buffer holds it)
  }
  for (unsigned i = 0; i < kConns; ++i) {
    conns.push_back(std::make_unique<net::Connection>(1024, 1024));
    conns.back()->fd = pairs[i]->fd[0];
    conns.back()->events = EPOLLIN;
    ASSERT_TRUE(loop.try_add(conns.back()->fd, EPOLLIN, conns.back().get()));
  }
  auto all_in = [&] {
    for (auto& c : conns)
      if (h.seen[c.get()].in.bytes < kBytes) return false;
    return true;
  };
  EXPECT_TRUE(pump(loop, h, all_in, [&] {
    for (auto& s : senders) s.pump();
  })) << "awaited every connection's bytes";
  for (unsigned i = 0; i < kConns; ++i) {
    const Seen& s = h.seen[conns[i].get()];
    const Fnv want = expected(i, kBytes);
    EXPECT_EQ(s.in.bytes, kBytes) << "connection " << i;
    EXPECT_EQ(s.in.h, want.h) << "connection " << i << ": bytes lost, repeated or out of order";
    EXPECT_EQ(s.read_error, 0);
    EXPECT_FALSE(s.eof);
    EXPECT_TRUE(conns[i]->ring.recv_armed) << "connection " << i << ": its receive is armed again";
    EXPECT_EQ(senders[i].sent, kBytes);
  }
  for (auto& c : conns) {
    loop.close(*c);
    c->fd = -1;
  }
  for (auto& p : pairs) p->fd[0] = -1;  // closed by the loop
  EXPECT_TRUE(pump(loop, h, [&] { return h.closed.size() == conns.size(); })) << "awaited every on_closed";
}

// Peers that send far more than the ring holds (six times 128 x 16 KiB in
// all) while the handler does not read: the bytes pile up in `in`, and the
// ring's buffers are taken and returned turn after turn. Each socket starts
// with its socketpair full (~200 KiB, a dozen buffers), so the first turn's
// receives alone want more buffers than the ring has (ENOBUFS), and the
// writers keep them wanting; still nothing is lost or repeated.
TEST(uring_loop, peers_sending_far_more_than_the_ring_holds_lose_nothing) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  h.consume = false;
  constexpr unsigned kConns = 16;
  constexpr std::uint64_t kBytes =
      6ull * net::UringLoop::kBufferCount * net::UringLoop::kBufferBytes / kConns;
  std::vector<std::unique_ptr<SocketPair>> pairs;
  std::vector<std::unique_ptr<net::Connection>> conns;
  std::vector<Sender> senders;
  for (unsigned i = 0; i < kConns; ++i) {
    pairs.push_back(std::make_unique<SocketPair>());
    senders.push_back(Sender{pairs.back()->fd[1], 100 + i, kBytes});
    senders.back().pump();  // as much as the socketpair holds, before the first receive
    conns.push_back(std::make_unique<net::Connection>(1024, 1024));
    conns.back()->fd = pairs.back()->fd[0];
    conns.back()->events = EPOLLIN;
    loop.add(conns.back()->fd, EPOLLIN, conns.back().get());
  }
  std::vector<std::thread> writers;
  for (unsigned i = 0; i < kConns; ++i)
    writers.emplace_back([&, i] {
      Sender& s = senders[i];
      // A blocking socket now: each send waits for room (the loop's receives making it).
      const int flags = fcntl(s.fd, F_GETFL);
      fcntl(s.fd, F_SETFL, flags & ~O_NONBLOCK);
      while (s.sent < kBytes && s.pump()) {
      }
    });
  auto all_in = [&] {
    for (auto& c : conns)
      if (c->in.size() < kBytes) return false;
    return true;
  };
  const bool arrived = pump(loop, h, all_in);
  if (!arrived)  // a hang: end the writers' blocked sends before joining them
    for (auto& p : pairs) shutdown(p->fd[0], SHUT_RDWR);
  for (auto& t : writers) t.join();
  EXPECT_TRUE(arrived) << "awaited every byte in `in`";
  for (unsigned i = 0; i < kConns; ++i) {
    Fnv got;
    got.add(conns[i]->in.readable().data(), conns[i]->in.size());
    EXPECT_EQ(got.bytes, kBytes) << "connection " << i;
    EXPECT_EQ(got.h, expected(100 + i, kBytes).h)
        << "connection " << i << ": bytes lost, repeated or out of order";
    EXPECT_EQ(loop.read(*conns[i], 0).bytes, kBytes) << "read() names every byte the handler left unread";
    loop.close(*conns[i]);
    pairs[i]->fd[0] = -1;
  }
  EXPECT_TRUE(pump(loop, h, [&] { return h.closed.size() == conns.size(); })) << "awaited every on_closed";
}

// ---- 2. close() with operations in flight -------------------------------------

TEST(uring_loop, close_with_receive_and_send_in_flight_frees_once_and_ignores_the_old_generation) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair old_pair;
  net::Connection c(1024, 1024);
  watch(loop, c, old_pair.fd[0], EPOLLIN);
  // More than the socketpair holds, the peer not reading: the send stays in the kernel.
  c.out.append(random_like(4 << 20, 1));
  EXPECT_EQ(loop.flush(c).status, net::FlushResult::Status::blocked);
  loop.turn(h, 0);  // both operations into the kernel
  ASSERT_TRUE(c.ring.recv_armed);
  ASSERT_TRUE(c.ring.send_in_flight);
  const std::uint16_t generation = c.ring.generation;

  EXPECT_FALSE(loop.close(c)) << "operations in flight: the owner frees the slot in on_closed";
  old_pair.fd[0] = -1;
  EXPECT_FALSE(loop.idle(c));
  EXPECT_NE(c.ring.generation, generation);
  // The kernel still holds the old socket until its operations end: bytes the
  // old peer sends now may still complete the old receive, and must be ignored.
  const std::string old_bytes(4096, 'o');
  (void)::send(old_pair.fd[1], old_bytes.data(), old_bytes.size(), MSG_NOSIGNAL);
  EXPECT_TRUE(pump(loop, h, [&] { return h.closed[&c] == 1; })) << "awaited on_closed";
  EXPECT_TRUE(loop.idle(c));
  EXPECT_EQ(c.ring.in_flight, 0);
  EXPECT_FALSE(c.out.pinned()) << "the cancelled send let go of `out`";
  EXPECT_EQ(h.seen[&c].in_events, 0) << "no event for a closed connection";

  // The slot takes a new socket (the owner reuses it after on_closed).
  c.in.clear();
  c.out.clear();
  SocketPair new_pair;
  watch(loop, c, new_pair.fd[0], EPOLLIN);
  EXPECT_EQ(::send(new_pair.fd[1], "new", 3, MSG_NOSIGNAL), 3);
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].in.bytes >= 3; })) << "awaited the new socket's bytes";
  // A few more turns: nothing of the old socket arrives late.
  for (int i = 0; i < 20; ++i) loop.turn(h, 1);
  EXPECT_EQ(h.seen[&c].in.bytes, 3u) << "only the new socket's bytes";
  Fnv want;
  want.add(reinterpret_cast<const std::uint8_t*>("new"), 3);
  EXPECT_EQ(h.seen[&c].in.h, want.h);
  EXPECT_EQ(h.closed[&c], 1) << "on_closed exactly once";

  EXPECT_FALSE(loop.close(c)) << "its receive is armed";
  new_pair.fd[0] = -1;
  EXPECT_TRUE(pump(loop, h, [&] { return h.closed[&c] == 2; })) << "awaited the second on_closed";
}

TEST(uring_loop, close_with_nothing_in_flight_is_at_once) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  net::Connection c(64, 64);
  c.fd = p.fd[0];
  loop.add(c.fd, EPOLLIN, &c);
  loop.set_interest(c, 0);  // cancels the receive
  EXPECT_TRUE(pump(loop, h, [&] { return loop.idle(c); })) << "awaited the receive's end";
  EXPECT_TRUE(loop.close(c)) << "nothing in flight: the owner may free it now";
  p.fd[0] = -1;
  for (int i = 0; i < 5; ++i) loop.turn(h, 1);
  EXPECT_TRUE(h.closed.empty()) << "no on_closed for a close that said true";
}

// A connecting socket is watched with a one-shot poll for EPOLLOUT (the
// loader's connect). Closed before it became writable, its poll must end too:
// the ring's poll holds the socket's file, so close(fd) alone would leave it
// waiting for an event that never comes, and on_closed with it.
TEST(uring_loop, close_of_a_socket_waiting_for_epollout_ends_its_poll) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  // Not writable: its send buffer full, the peer not reading.
  const std::string chunk(64 * 1024, 'f');
  while (::send(p.fd[0], chunk.data(), chunk.size(), MSG_NOSIGNAL) > 0) {
  }
  net::Connection c(64, 64);
  c.fd = p.fd[0];
  loop.add(c.fd, EPOLLOUT, &c);
  loop.turn(h, 0);  // the poll into the kernel
  ASSERT_FALSE(loop.idle(c));
  close_in_flight(loop, h, c, p);
  EXPECT_TRUE(h.seen.empty()) << "no event for the closed socket's poll";
}

// ---- 3. backpressure ---------------------------------------------------------

TEST(uring_loop, interest_without_epollin_reads_nothing_more_and_with_it_again_loses_nothing) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  net::Connection c(1024, 1024);
  watch(loop, c, p.fd[0], EPOLLIN);
  Sender peer{p.fd[1], 3, 100'000};
  peer.total = 20'000;
  peer.pump();
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].in.bytes == 20'000; })) << "awaited the first bytes";

  loop.set_interest(c, 0);
  EXPECT_TRUE(pump(loop, h, [&] { return !c.ring.recv_armed; })) << "awaited the receive's cancellation";
  const std::uint64_t before = h.seen[&c].in.bytes;
  peer.total = 100'000;
  peer.pump();
  ASSERT_EQ(peer.sent, 100'000u) << "the socketpair holds it";
  for (int i = 0; i < 20; ++i) loop.turn(h, 1);
  EXPECT_EQ(h.seen[&c].in.bytes, before) << "nothing appended while EPOLLIN is off";
  EXPECT_EQ(unread(c.fd), static_cast<int>(100'000 - before)) << "the peer's bytes wait in the socket";
  EXPECT_FALSE(c.ring.recv_armed);

  loop.set_interest(c, EPOLLIN);
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].in.bytes >= 100'000; })) << "awaited the rest";
  EXPECT_EQ(h.seen[&c].in.bytes, 100'000u);
  EXPECT_EQ(h.seen[&c].in.h, expected(3, 100'000).h) << "bytes lost, repeated or out of order";

  // Off and on again before the cancel's completion came: the receive is re-armed by it.
  loop.set_interest(c, 0);
  loop.set_interest(c, EPOLLIN);
  peer.total = 150'000;
  peer.pump();
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].in.bytes >= 150'000; }))
      << "awaited the bytes after off-on";
  EXPECT_EQ(h.seen[&c].in.h, expected(3, 150'000).h);
  close_in_flight(loop, h, c, p);
}

// ---- 4. flush ------------------------------------------------------------------

TEST(uring_loop, flush_of_a_large_out_to_a_slow_reader_is_blocked_then_drained) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  net::Connection c(1024, 1024);
  watch(loop, c, p.fd[0], EPOLLIN);
  constexpr std::size_t kTotal = 6 << 20;
  c.out.append(random_like(kTotal, 4));
  const net::FlushResult first = loop.flush(c);
  EXPECT_EQ(first.status, net::FlushResult::Status::blocked) << "a send is in flight";
  EXPECT_EQ(first.sent_bytes, 0u);
  EXPECT_TRUE(c.out.pinned());
  EXPECT_EQ(loop.flush(c).status, net::FlushResult::Status::blocked) << "one send at a time";
  Fnv got;
  // The peer reads a little after each turn: the send completes in many parts.
  auto read_some = [&] {
    std::uint8_t buf[32 * 1024];
    const ssize_t n = ::read(p.fd[1], buf, sizeof buf);
    if (n > 0) got.add(buf, static_cast<std::size_t>(n));
  };
  EXPECT_TRUE(pump(
      loop, h, [&] { return h.seen[&c].drained && got.bytes == kTotal; }, read_some))
      << "awaited the drain";
  EXPECT_EQ(h.seen[&c].sent, kTotal) << "sent_bytes sum to everything";
  EXPECT_GT(h.seen[&c].flush_blocked, 0) << "the peer read slowly: some flush found a send in flight";
  EXPECT_EQ(h.seen[&c].flush_error, 0);
  EXPECT_TRUE(c.out.empty());
  EXPECT_FALSE(c.out.pinned());
  EXPECT_EQ(got.h, expected(4, kTotal).h) << "the peer got every byte, in order";
  close_in_flight(loop, h, c, p);
}

TEST(uring_loop, flush_to_a_peer_that_closes_fails_with_an_errno) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  net::Connection c(1024, 1024);
  watch(loop, c, p.fd[0], EPOLLIN);
  c.out.append(random_like(4 << 20, 5));
  EXPECT_EQ(loop.flush(c).status, net::FlushResult::Status::blocked);
  loop.turn(h, 0);
  p.close_peer();
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].flush_error != 0; })) << "awaited the failed flush";
  const int e = h.seen[&c].flush_error;
  EXPECT_TRUE(e == EPIPE || e == ECONNRESET) << "errno " << e;
  EXPECT_EQ(loop.flush(c).status, net::FlushResult::Status::failed) << "a failed send stays failed";
  loop.close(c);
  p.fd[0] = -1;
  EXPECT_TRUE(pump(loop, h, [&] { return loop.idle(c); }));
}

TEST(uring_loop, flush_to_a_peer_that_resets_fails_with_an_errno) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  std::uint16_t port = 0;
  net::Listener l(net::listen_on({"127.0.0.1", 0}, port), 0);
  const int client = zaptest::connect_loopback(port, 4096);  // a small window: the send stays in flight
  int fd = -1;
  ASSERT_TRUE(zaptest::await([&] {
    fd = accept4(l.fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    return fd >= 0;
  })) << "awaited the accept";
  net::Connection c(1024, 1024);
  watch(loop, c, fd, EPOLLIN);
  c.out.append(random_like(8 << 20, 6));
  EXPECT_EQ(loop.flush(c).status, net::FlushResult::Status::blocked);
  loop.turn(h, 0);
  const linger reset{1, 0};  // close() sends RST
  ASSERT_EQ(setsockopt(client, SOL_SOCKET, SO_LINGER, &reset, sizeof reset), 0);
  close(client);
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].flush_error != 0; })) << "awaited the failed flush";
  const int e = h.seen[&c].flush_error;
  EXPECT_TRUE(e == EPIPE || e == ECONNRESET) << "errno " << e;
  // The receive saw the reset too: a failed read (or eof), never data.
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].read_error != 0 || h.seen[&c].eof; }))
      << "awaited the receive's end";
  EXPECT_EQ(h.seen[&c].in.bytes, 0u);
  loop.close(c);
  EXPECT_TRUE(pump(loop, h, [&] { return loop.idle(c); }));
}

// ---- 5. eof --------------------------------------------------------------------

TEST(uring_loop, a_peer_shutdown_gives_eof_after_the_last_bytes) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);
  SocketPair p;
  net::Connection c(1024, 1024);
  watch(loop, c, p.fd[0], EPOLLIN | EPOLLRDHUP);
  Sender peer{p.fd[1], 7, 50'000};
  peer.pump();
  ASSERT_EQ(peer.sent, 50'000u);
  ASSERT_EQ(shutdown(p.fd[1], SHUT_WR), 0);
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].eof; })) << "awaited eof";
  EXPECT_EQ(h.seen[&c].bytes_at_eof, 50'000u) << "every byte before eof";
  EXPECT_EQ(h.seen[&c].in.h, expected(7, 50'000).h);
  EXPECT_EQ(loop.read(c, 0).status, net::ReadResult::Status::eof) << "eof stays";
  EXPECT_FALSE(c.ring.recv_armed) << "no receive after eof";
  // Our side may still send: the peer shut down only its writing.
  c.out.append("bye");
  (void)loop.flush(c);
  EXPECT_TRUE(pump(loop, h, [&] { return h.seen[&c].drained; })) << "awaited the send after eof";
  char buf[8];
  EXPECT_EQ(::read(p.fd[1], buf, sizeof buf), 3);
  EXPECT_TRUE(loop.close(c)) << "nothing in flight after eof and a drained send";
  p.fd[0] = -1;
}

// ---- 6. stop and teardown --------------------------------------------------------

TEST(uring_loop, stop_from_another_thread_ends_run) {
  SKIP_WITHOUT_URING();
  net::UringLoop loop;
  Handler h(loop);  // wait_ms -1: only the wake-up can end the wait
  std::atomic<bool> returned{false};
  std::thread t([&] {
    loop.run(h, -1);  // this thread is the ring's single issuer
    returned = true;
  });
  EXPECT_TRUE(zaptest::await([&] { return h.waited.load(); })) << "awaited run() to wait";
  loop.stop();
  EXPECT_TRUE(zaptest::await([&] { return returned.load(); })) << "awaited run() to return after stop()";
  t.join();
  EXPECT_TRUE(h.seen.empty()) << "the wake-up is the loop's own, never the handler's";
}

TEST(uring_loop, release_pending_frees_what_close_left_pending) {
  SKIP_WITHOUT_URING();
  std::vector<std::unique_ptr<SocketPair>> pairs;
  int released = 0;
  {
    net::UringLoop loop;
    Handler h(loop);
    std::vector<net::Connection*> conns;
    for (int i = 0; i < 3; ++i) {
      pairs.push_back(std::make_unique<SocketPair>());
      auto* c = new net::Connection(1024, 1024);  // freed by release_pending's callback
      c->fd = pairs.back()->fd[0];
      c->events = EPOLLIN;
      loop.add(c->fd, EPOLLIN, c);
      c->out.append(random_like(2 << 20, 8));
      (void)loop.flush(*c);
      conns.push_back(c);
    }
    loop.turn(h, 0);  // into the kernel
    for (auto* c : conns) {
      EXPECT_FALSE(loop.close(*c));
    }
    for (auto& p : pairs) p->fd[0] = -1;
    loop.release_pending([&](net::Connection& c) {
      EXPECT_NE(std::find(conns.begin(), conns.end(), &c), conns.end());
      ++released;
      delete &c;
    });
    EXPECT_EQ(released, 3);
    loop.release_pending([&](net::Connection&) { ++released; });
    EXPECT_EQ(released, 3) << "forgotten once released";
    EXPECT_TRUE(h.closed.empty());
  }  // the ring goes after the connections: the kernel ends their operations
}

}  // namespace
