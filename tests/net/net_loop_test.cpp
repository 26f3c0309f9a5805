// tests/net/net_loop_test.cpp — the event core (src/net: loop.hpp, connection.hpp,
// pool.hpp, socket.hpp, clock.hpp) on its own, without a server and without a
// wire: the loop's stop from another thread, its tick and its handler contract,
// accept under a connection limit, flush and read outcomes, the connection list,
// the worker pool and its merged counters, the unread-bytes probe, the clocks.
// Waits are for events (await.hpp), never times.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "net/clock.hpp"
#include "net/connection.hpp"
#include "net/epoll_loop.hpp"
#include "net/pool.hpp"
#include "net/socket.hpp"
#include "support/await.hpp"
#include "support/loopback.hpp"
#include "support/socket_pair.hpp"

namespace {

using zaptest::SocketPair;

// Counts what the loop hands it; stops the loop after `stop_after` events.
struct Recorder {
  net::EpollLoop& loop;
  int wait = 1000;
  std::atomic<int> events{0};
  std::atomic<int> ticks{0};
  std::atomic<int> wake_events{0};
  net::Pollable* last = nullptr;
  int stop_after = -1;
  bool stop_in_wait = false;

  int wait_ms() { return stop_in_wait ? net::EpollLoop::kDone : wait; }
  void on_event(net::Pollable& p, std::uint32_t) {
    if (p.kind == net::Pollable::Kind::wake) ++wake_events;
    last = &p;
    if (++events == stop_after) loop.stop();
  }
  void on_tick() { ++ticks; }
};

TEST(net_loop, stop_from_another_thread_ends_run) {
  net::EpollLoop loop;
  Recorder r{loop};
  r.wait = -1;  // no timeout: only the wake-up can end the wait
  std::atomic<bool> returned{false};
  std::thread t([&] {
    loop.run(r, -1);
    returned = true;
  });
  loop.stop();
  EXPECT_TRUE(zaptest::await([&] { return returned.load(); })) << "awaited run() to return after stop()";
  t.join();
  EXPECT_EQ(r.wake_events.load(), 0) << "the wake-up is the loop's own, never the handler's";
}

TEST(net_loop, stop_before_run_returns_at_once) {
  net::EpollLoop loop;
  Recorder r{loop};
  loop.stop();
  loop.run(r, 0);  // a hang here is the failure
  EXPECT_EQ(r.events.load(), 0);
  EXPECT_TRUE(loop.stopping());
}

TEST(net_loop, wait_ms_may_end_the_run_before_it_waits) {
  net::EpollLoop loop;
  Recorder r{loop};
  r.wait = -1;
  r.stop_in_wait = true;
  loop.run(r, 0);  // would block forever if it waited
  EXPECT_EQ(r.ticks.load(), 0);
}

// Runs a loop that waits wait_ms per round with the given tick until it has
// ticked `want` times (awaited), then stops it.
void expect_ticks(int wait_ms, int tick_ms, int want) {
  net::EpollLoop loop;
  Recorder r{loop};
  r.wait = wait_ms;
  std::thread t([&] { loop.run(r, tick_ms); });
  EXPECT_TRUE(zaptest::await([&] { return r.ticks.load() >= want; })) << "awaited " << want << " ticks";
  loop.stop();
  t.join();
}

TEST(net_loop, ticks_while_idle) { expect_ticks(1, 1, 3); }

TEST(net_loop, tick_zero_runs_after_every_round) { expect_ticks(0, 0, 100); }

TEST(net_loop, an_event_reaches_the_handler_with_its_tag_and_a_fresh_clock) {
  net::EpollLoop loop;
  Recorder r{loop};
  r.stop_after = 1;
  SocketPair p;
  net::Connection c(64, 64);
  c.fd = p.fd[0];
  loop.add(c.fd, EPOLLIN, &c);
  ASSERT_EQ(write(p.fd[1], "x", 1), 1);
  const std::int64_t before_ms = net::coarse_now_ms();
  loop.run(r, -1);
  EXPECT_EQ(r.events.load(), 1);
  EXPECT_EQ(r.last, &c);
  EXPECT_GE(loop.now_ms(), before_ms);
  c.fd = -1;  // the pair closes it
}

TEST(net_loop, add_of_a_bad_descriptor_throws_and_try_add_says_false) {
  net::EpollLoop loop;
  net::Pollable tag{net::Pollable::Kind::connection};
  EXPECT_THROW(loop.add(-1, EPOLLIN, &tag), std::runtime_error);
  EXPECT_FALSE(loop.try_add(-1, EPOLLIN, &tag));
}

// ---- listeners --------------------------------------------------------------

int connect_to(std::uint16_t port) { return zaptest::connect_loopback(port); }

TEST(net_listener, accept_all_honours_the_connection_limit) {
  std::uint16_t port = 0;
  net::Listener l(net::listen_on({"127.0.0.1", 0}, port), 7);
  EXPECT_EQ(l.wire, 7);
  EXPECT_EQ(l.kind, net::Pollable::Kind::listener);
  ASSERT_NE(port, 0);
  net::ConnectionLimit limit(2);
  std::vector<int> clients;
  for (int i = 0; i < 3; ++i) clients.push_back(connect_to(port));  // all three are in the accept queue now
  std::vector<int> accepted;
  int refused = 0;
  // The queue may fill a moment after connect() returns on a busy machine: accept until all are seen.
  EXPECT_TRUE(zaptest::await([&] {
    net::accept_all(
        l, &limit, [&](int fd) { accepted.push_back(fd); }, [&] { ++refused; });
    return accepted.size() + static_cast<std::size_t>(refused) == 3;
  })) << "awaited three connections";
  EXPECT_EQ(accepted.size(), 2u);
  EXPECT_EQ(refused, 1);
  EXPECT_EQ(limit.open(), 2u);
  int one = 0;
  socklen_t len = sizeof one;
  getsockopt(accepted[0], IPPROTO_TCP, TCP_NODELAY, &one, &len);
  EXPECT_NE(one, 0) << "accepted connections are TCP_NODELAY";
  // A released slot takes the next connection.
  close(accepted.back());
  accepted.pop_back();
  limit.release();
  clients.push_back(connect_to(port));
  EXPECT_TRUE(zaptest::await([&] {
    net::accept_all(
        l, &limit, [&](int fd) { accepted.push_back(fd); }, [&] { ++refused; });
    return accepted.size() == 2;
  })) << "awaited the connection after a release";
  EXPECT_EQ(refused, 1);
  for (int fd : accepted) close(fd);
  for (int fd : clients) close(fd);
}

TEST(net_listener, a_second_listener_joins_the_port_with_reuseport) {
  std::uint16_t port = 0;
  net::Listener a(net::listen_on({"127.0.0.1", 0}, port), 0);
  std::uint16_t again = 0;
  net::Listener b(net::listen_on({"127.0.0.1", port}, again), 0);
  EXPECT_EQ(again, port);
}

// ---- connections: flush, read, list ----------------------------------------

TEST(net_connection, flush_drains_what_fits_and_says_blocked_then_failed) {
  SocketPair p;
  net::Connection c(64, 64);
  c.fd = p.fd[0];
  c.out.append("hello");
  net::FlushResult f = net::flush(c);
  EXPECT_EQ(f.status, net::FlushResult::Status::drained);
  EXPECT_EQ(f.sent_bytes, 5u);
  EXPECT_TRUE(c.out.empty());
  // More than any socket buffer: part goes, the rest waits for EPOLLOUT.
  const std::string big(8 * 1024 * 1024, 'b');
  c.out.append(big);
  f = net::flush(c);
  EXPECT_EQ(f.status, net::FlushResult::Status::blocked);
  EXPECT_GT(f.sent_bytes, 0u);
  EXPECT_EQ(f.sent_bytes + c.out.size(), big.size());
  p.close_peer();
  f = net::flush(c);
  EXPECT_EQ(f.status, net::FlushResult::Status::failed);
  EXPECT_EQ(f.error, EPIPE);
  c.fd = -1;
}

TEST(net_connection, read_into_says_data_again_and_eof) {
  SocketPair p;
  net::Connection c(16, 16);
  c.fd = p.fd[0];
  EXPECT_EQ(net::read_into(c, 16).status, net::ReadResult::Status::again);
  ASSERT_EQ(write(p.fd[1], "abc", 3), 3);
  const net::ReadResult r = net::read_into(c, 16);
  EXPECT_EQ(r.status, net::ReadResult::Status::data);
  EXPECT_EQ(r.bytes, 3u);
  EXPECT_EQ(c.in.readable_text(), "abc");
  p.close_peer();
  EXPECT_EQ(net::read_into(c, 16).status, net::ReadResult::Status::eof);
  c.fd = -1;
}

TEST(net_connection, set_interest_changes_epoll_only_on_change) {
  net::EpollLoop loop;
  SocketPair p;
  net::Connection c(16, 16);
  c.fd = p.fd[0];
  c.events = EPOLLIN;
  loop.add(c.fd, c.events, &c);
  loop.set_interest(c, EPOLLIN | EPOLLOUT);
  EXPECT_EQ(c.events, std::uint32_t{EPOLLIN | EPOLLOUT});
  // Writable at once: the loop reports it.
  Recorder r{loop};
  r.stop_after = 1;
  loop.run(r, -1);
  EXPECT_EQ(r.last, &c);
  c.fd = -1;
}

TEST(net_connection, unread_bytes_probe) {
  SocketPair p;
  EXPECT_FALSE(net::unread_bytes_waiting(p.fd[0]));
  ASSERT_EQ(write(p.fd[1], "x", 1), 1);
  EXPECT_TRUE(net::unread_bytes_waiting(p.fd[0]));
  EXPECT_FALSE(net::unread_bytes_waiting(-1)) << "a failed probe is no bytes";
}

struct Item : net::Connection {
  explicit Item(int i) : net::Connection(0, 0), id(i) {}
  int id;
};

TEST(net_connection, list_removes_in_o1_also_while_walking) {
  Item a(1), b(2), c(3);
  net::ConnectionList<Item> list;
  list.push(&a);
  list.push(&b);
  list.push(&c);
  std::vector<int> seen;
  list.for_each([&](Item* i) {
    seen.push_back(i->id);
    if (i->id == 2) list.remove(i);
  });
  EXPECT_EQ(seen, (std::vector<int>{3, 2, 1}));
  seen.clear();
  list.for_each([&](Item* i) { seen.push_back(i->id); });
  EXPECT_EQ(seen, (std::vector<int>{3, 1}));
  list.remove(&c);
  list.remove(&a);
  EXPECT_TRUE(list.empty());
}

// ---- the pool ---------------------------------------------------------------

struct CountingWorker {
  net::EpollLoop l;
  net::Counter rounds;
  std::atomic<bool> running{false};
  void stop() noexcept { l.stop(); }
  int wait_ms() {
    running = true;
    rounds.add(1);
    return 1;
  }
  void on_event(net::Pollable&, std::uint32_t) {}
  void on_tick() {}
  void run() { l.run(*this, -1); }
};

TEST(net_pool, starts_every_worker_stops_and_joins_them_and_merges_after_join) {
  net::Pool<CountingWorker> pool;
  for (unsigned i = 0; i < 3; ++i) pool.add(std::make_unique<CountingWorker>(), net::cpu_for({}, i));
  EXPECT_EQ(pool.size(), 3u);
  pool.start();
  EXPECT_TRUE(zaptest::await([&] {
    bool all = true;
    pool.for_each([&](const CountingWorker& w) { all = all && w.running.load(); });
    return all;
  })) << "awaited every worker running";
  pool.stop();
  pool.join();
  std::uint64_t total = 0;
  pool.for_each([&](const CountingWorker& w) { total += w.rounds.get(); });
  EXPECT_GE(total, 3u);
}

TEST(net_pool, cpu_for_cycles_through_the_list) {
  EXPECT_EQ(net::cpu_for({}, 5), -1);
  EXPECT_EQ(net::cpu_for({2, 3}, 0), 2);
  EXPECT_EQ(net::cpu_for({2, 3}, 3), 3);
}

// ---- clocks -----------------------------------------------------------------

TEST(net_clock, both_clocks_are_monotonic) {
  const std::int64_t a_ns = net::now_ns(), a_ms = net::coarse_now_ms();
  const std::int64_t b_ns = net::now_ns(), b_ms = net::coarse_now_ms();
  EXPECT_GE(b_ns, a_ns);
  EXPECT_GE(b_ms, a_ms);
}

}  // namespace
