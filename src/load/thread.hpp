// load/thread.hpp — one loader thread and its connection state machines.
// Each connection: connect → send (up to `pipeline` in flight) → read →
// validate → record → send again; errors are counted by kind and the
// connection reconnects. A peer's close first takes the answers that came
// before it, then counts what it left unanswered (ErrorKind::closed).
// Latency is measured from the intended send time: in the open loop a
// connection that falls behind its schedule still charges the wait to the
// requests it delays (coordinated omission corrected). The thread runs on
// the event core (net/loop.hpp, net/pool.hpp); the wire is a policy
// (wire/client_wires.hpp) chosen once per run: Thread<Http1Client>,
// Thread<ZapHttpClient>, Thread<ZapRpcClient>, Thread<Http2Client> or
// Thread<FloorClient>, so no request or response branches on it (nor on the
// event core's backend L, net::EpollLoop or net::UringLoop); each
// connection keeps the wire's State (an HTTP/1.1 scan hint, an nghttp2
// session). Every wire keeps its calls in flight in one CallTable per
// connection (load/calls.hpp): an in-order wire's answer completes the oldest
// call, a multiplexed one's (ZAP-RPC, HTTP/2, gRPC) the call its PromiseID or
// stream names, in any order. What the thread owns is the connections; the
// clock is its Window, what is said and checked its Script, what is counted
// its Tally. Included by load/engine.cpp only.
#pragma once

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <string>
#include <vector>

#include "load/calls.hpp"
#include "load/engine.hpp"
#include "load/script.hpp"
#include "load/tally.hpp"
#include "load/window.hpp"
#include "net/buffer.hpp"
#include "net/clock.hpp"
#include "net/connection.hpp"
#include "net/epoll_loop.hpp"
#include "net/loop.hpp"
#include "net/socket.hpp"
#include "net/uring_loop.hpp"
#include "wire/client_wires.hpp"

namespace load {

inline constexpr std::int64_t kReconnectDelayNs =
    100'000'000;  // after a failed connect or a dropped connection
inline constexpr std::size_t kReadChunkBytes = 16 * 1024;

// A loader connection slot: the core's connection (socket, buffers, interest
// set) and the wire's per-connection state, reused by every reconnect of the
// slot.
template <class W>
struct Conn : net::Connection {
  Conn() : net::Connection(16 * 1024, 16 * 1024) {}
  bool connecting = false;
  CallTable calls;  // the calls in flight, sized for the pipeline once
  std::int64_t next_intended_ns = 0;
  std::int64_t retry_at_ns = 0;
  typename W::State wire;  // reset at each connect (W::reset)
  bool answered = false;   // a valid window response on this slot (any of its sockets)
};

// One loader thread over its share of the connections; W is the run's wire
// policy (wire/client_wires.hpp), L its event core's backend.
template <class W, class L>
class Thread {
  using Conn = load::Conn<W>;

 public:
  Thread(const Options& opt, W wire, const net::Address& addr, unsigned first_conn, unsigned n_conns,
         Progress* progress, const record::LogsDigest& expect_logs, std::atomic<bool>& refused)
      : opt_(opt),
        wire_(std::move(wire)),
        addr_(addr),
        first_conn_(first_conn),
        script_(opt, wire_, expect_logs),
        tally_(progress),
        refused_(refused) {
    conns_.resize(n_conns);
    for (Conn& c : conns_) c.calls = CallTable(opt.pipeline);
  }
  ~Thread() {
    for (Conn& c : conns_)
      if (c.fd >= 0) loop_.close(c);
    loop_.release_pending([](net::Connection&) {});  // the slots are conns_'s
  }

  // Before net::Pool::start: the run's schedule, from t0_ns.
  void arm(std::int64_t t0_ns) { window_.arm(opt_, t0_ns); }
  void stop() noexcept { loop_.stop(); }
  const Result& result() const { return tally_.result(); }
  // Why the run was refused (empty: it was not).
  const std::string& refusal() const { return refusal_; }
  // The window as it ran (a stop may have shortened it).
  std::int64_t window_ns() const { return window_.length_ns(); }

  // On the thread (net::Pool): connect, run the window and the drain.
  void run() {
    per_conn_interval_ns_ = open_loop() ? opt_.connections * 1e9 / opt_.rate_per_s : 0;
    for (std::size_t i = 0; i < conns_.size(); ++i) {
      Conn& c = conns_[i];
      // Spread the connections' schedules evenly over one interval.
      c.next_intended_ns =
          window_.t0_ns() + static_cast<std::int64_t>(static_cast<double>(first_conn_ + i) *
                                                      (1e9 / std::max(1.0, opt_.rate_per_s)));
      connect_conn(c, net::now_ns());
    }
    loop_.run(*this, 0);
    for (const Conn& c : conns_) tally_.slot_done(c.answered);
  }

  // ---- the loop's handler ----
  // Ends the run (kDone) once the window is over and nothing is in flight;
  // else how long to wait: up to the next scheduled send.
  int wait_ms() {
    const std::int64_t now = net::now_ns();
    if (window_.awaiting_go(now) && await_go(now)) return 1;
    if (W::kSession && window_.sending(now) && refused_.load(std::memory_order_relaxed)) end_window(now);
    if (opt_.stop != nullptr && window_.sending(now) && opt_.stop->load(std::memory_order_relaxed)) {
      window_.end_at(now);
      tally_.stopped();
    }
    // The drain ends when nothing is in flight; housekeeping() times out what
    // is, so this bound is only a backstop.
    const std::int64_t drain_ns = std::int64_t{opt_.timeout_ms} * net::kNsPerMs + 100 * net::kNsPerMs;
    if (!window_.sending(now) && (now >= window_.end_ns() + drain_ns || !any_inflight())) return L::kDone;
    if (!open_loop() || !window_.sending(now))
      return 10;  // after the window nothing is sent: no schedule to wake for
    const std::int64_t next = next_send_ns();
    return next <= now ? 0 : static_cast<int>(std::min<std::int64_t>((next - now) / net::kNsPerMs, 10));
  }
  // Options::go, once the warm-up time passed: counts this thread warm
  // (once), then starts the window when *go is set (one relaxed load per
  // round while waiting). True while still waiting: the caller polls again
  // within 1 ms. A stop while waiting leaves an empty window (the stop check
  // that follows in wait_ms ends it at `now`).
  bool await_go(std::int64_t now) {
    // Sends pause (the answers in flight still come back): the hosts are
    // quiet when go comes, so nothing delays its delivery or the first
    // sends of the window (on a busy CPU that costs milliseconds of skew).
    if (window_.pause_once()) tally_.warm();
    if (opt_.stop != nullptr && opt_.stop->load(std::memory_order_relaxed)) {
      window_.give_up_go();
      return false;
    }
    if (!opt_.go->load(std::memory_order_relaxed)) return true;
    // The window starts now; the open loop's schedule rebases on it at the
    // next housekeeping (not rebased yet: the window's start was beyond
    // every t until here), before any open-loop send of the window.
    window_.start_at(now);
    // Closed loop: every connection fills its pipeline again at once (the
    // open loop sends on its rebased schedule from the next housekeeping).
    if (!open_loop())
      for (Conn& c : conns_)
        if (c.fd >= 0 && !c.connecting) fill_closed(c, now);
    return false;
  }

  // A fresh timestamp per event: with many connections ready at once, one
  // taken after epoll_wait would be stale for the later ones (and would
  // date their next sends too early, inflating those latencies).
  void on_event(net::Pollable& p, std::uint32_t events) {
    on_event(static_cast<Conn&>(p), events, net::now_ns());
  }
  void on_tick() { housekeeping(net::now_ns()); }
  // A closed socket's last completion came (UringLoop): the slot is conns_'s, nothing to free.
  void on_closed(net::Connection&) {}

 private:
  // A request may be sent on c now: a free place in its pipeline and the
  // wire ready (HTTP/2: the server's SETTINGS came).
  bool can_send(const Conn& c) const {
    return !window_.paused() && c.calls.can_send(opt_.pipeline) && wire_.ready(c.wire);
  }

  bool open_loop() const { return opt_.rate_per_s > 0; }
  void error(ErrorKind k, std::int64_t t) { tally_.error(k, t, window_.start_ns()); }

  bool any_inflight() const {
    for (const Conn& c : conns_)
      if (c.fd >= 0 && c.calls.outstanding() != 0) return true;
    return false;
  }

  std::int64_t next_send_ns() const {
    std::int64_t next = window_.end_ns();
    for (const Conn& c : conns_)
      if (c.fd >= 0 && !c.connecting && can_send(c)) next = std::min(next, c.next_intended_ns);
    return next;
  }

  void connect_conn(Conn& c, std::int64_t t) {
    // The slot's last socket still has a completion to come (io_uring): its
    // buffers are the kernel's until then. The next housekeeping tries again.
    if (!loop_.idle(c)) {
      c.retry_at_ns = t + net::kNsPerMs;
      return;
    }
    c.fd = socket(addr_.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    net::set_nodelay(c.fd);
    c.in.clear();
    c.out.clear();
    c.calls.reset();
    wire_.reset(c.wire, c.out);  // HTTP/2: a new session, its preface in c.out
    if (W::kSession && window_.recorded(t)) tally_.sent_bytes(c.out.size());
    c.events = EPOLLOUT;
    if ((::connect(c.fd, reinterpret_cast<const sockaddr*>(&addr_.storage), addr_.length) != 0 &&
         errno != EINPROGRESS) ||
        !loop_.try_add(c.fd, c.events, &c)) {
      error(ErrorKind::connect, t);
      loop_.close(c);
      c.fd = -1;
      c.retry_at_ns = t + kReconnectDelayNs;
      return;
    }
    c.connecting = true;
  }

  void drop(Conn& c, ErrorKind why, std::int64_t t) {
    error(why, t);
    disconnect(c, t + kReconnectDelayNs);
  }

  // Closes the connection and schedules the reconnect; a server's announced
  // Connection: close is not an error and reconnects at once.
  void disconnect(Conn& c, std::int64_t retry_at_ns) {
    loop_.close(c);
    c.fd = -1;
    c.connecting = false;
    c.retry_at_ns = retry_at_ns;
  }

  void on_event(Conn& c, std::uint32_t ev, std::int64_t t) {
    if (c.fd < 0) return;
    if (c.connecting) {
      int err = 0;
      socklen_t len = sizeof err;
      getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err != 0 || (ev & (EPOLLERR | EPOLLHUP))) return drop(c, ErrorKind::connect, t);
      c.connecting = false;
      loop_.set_interest(c, EPOLLIN);
      if (!open_loop())
        fill_closed(c, t);
      else if (W::kSession)
        flush(c, t);  // the session's preface
      return;
    }
    if (ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
      if (!on_readable(c, t)) return;
    }
    if (c.fd >= 0) flush(c, t);
  }

  // Closed loop: keep `pipeline` requests in flight while the window lasts
  // (fewer while an unanswered call holds the call table full, calls.hpp).
  void fill_closed(Conn& c, std::int64_t t) {
    if (window_.sending(t) && can_send(c)) {
      t = net::now_ns();  // the send happens now, after this event's parsing and validation
      while (window_.sending(t) && can_send(c)) send_request(c, t, t);
    }
    flush(c, t);
  }

  void housekeeping(std::int64_t t) {
    if (open_loop() && window_.rebase_due(t)) {
      // The window's schedule starts at its own beginning: a backlog built up
      // in the warm-up is not carried into it (it would otherwise shift every
      // recorded request's intended time into the warm-up). A backlog built
      // in the window is, and is charged to the requests it delays.
      for (std::size_t i = 0; i < conns_.size(); ++i)
        conns_[i].next_intended_ns = std::max(
            conns_[i].next_intended_ns,
            window_.start_ns() +
                static_cast<std::int64_t>(static_cast<double>(first_conn_ + i) * 1e9 / opt_.rate_per_s));
    }
    for (Conn& c : conns_) {
      if (c.fd < 0) {
        if (window_.sending(t) && t >= c.retry_at_ns) connect_conn(c, t);
        continue;
      }
      if (c.connecting) continue;
      // The front is the oldest unanswered call: the first to time out.
      if (const Call* oldest = c.calls.front();
          oldest != nullptr && t - oldest->sent_ns > std::int64_t{opt_.timeout_ms} * net::kNsPerMs) {
        drop(c, ErrorKind::timeout, t);
        continue;
      }
      if (open_loop()) {
        bool sent = false;
        // Nothing is sent after the window, even if the schedule is behind:
        // the drain only collects what is in flight.
        while (window_.sending(t) && c.next_intended_ns <= t && window_.sending(c.next_intended_ns) &&
               can_send(c)) {
          send_request(c, c.next_intended_ns, t);
          c.next_intended_ns += static_cast<std::int64_t>(per_conn_interval_ns_);
          sent = true;
        }
        if (sent) flush(c, t);
      }
    }
  }

  void send_request(Conn& c, std::int64_t intended_ns, std::int64_t t) {
    const std::uint64_t id = ++next_id_;
    const std::uint32_t promise = c.calls.push(intended_ns, t, id);
    const std::size_t out_before_bytes = c.out.size();
    script_.append(wire_, c.out, id, promise, c.wire);
    // Bytes are counted with the request they belong to (as responses are,
    // in complete()), so bytes per request and per response are exact, not
    // blurred by the window's edges.
    if (window_.recorded(intended_ns)) tally_.request(c.out.size() - out_before_bytes, t);
  }

  // Everything ready goes out (the loop's flush); EPOLLOUT only while something is left.
  void flush(Conn& c, std::int64_t t) {
    const net::FlushResult f = loop_.flush(c);
    if (f.status == net::FlushResult::Status::failed) {
      if (f.error == EPIPE || f.error == ECONNRESET) return peer_closed(c, t);
      return drop(c, ErrorKind::write, t);
    }
    loop_.set_interest(c, c.out.empty() ? EPOLLIN : EPOLLIN | EPOLLOUT);
  }

  // Reads and handles every complete response; false if the connection dropped.
  bool on_readable(Conn& c, std::int64_t t) {
    const Read rd = read_all(c, t);
    if (rd == Read::failed || !take_all(c, t)) return false;
    if (rd == Read::closed) {
      count_closed(c, t);
      return false;
    }
    if constexpr (W::kSession) {
      if (const std::uint32_t allowed = wire_.refused(c.wire)) {
        refuse(allowed, t);
        return false;
      }
      // Stream ids ran out: a new connection once this one's calls are answered.
      if (wire_.exhausted(c.wire) && c.calls.outstanding() == 0) {
        disconnect(c, t);
        return false;
      }
    }
    if (!open_loop()) fill_closed(c, t);
    return c.fd >= 0;
  }

  // The server allows fewer streams per connection than the depth asked
  // (docs/spec/http2-grpc.md §1): the run is refused (run() throws), every
  // thread ends its window now and closes its connections.
  void refuse(std::uint32_t allowed, std::int64_t t) {
    refusal_ = "the server allows " + std::to_string(allowed) +
               " concurrent streams per connection (SETTINGS_MAX_CONCURRENT_STREAMS), fewer than the depth " +
               std::to_string(opt_.pipeline) + " asked (-p): run with -p " + std::to_string(allowed) +
               " or less";
    refused_.store(true, std::memory_order_relaxed);
    end_window(t);
  }
  void end_window(std::int64_t t) {
    window_.end_at(t);
    for (Conn& c : conns_)
      if (c.fd >= 0) disconnect(c, t);
  }

  enum class Read : std::uint8_t { open, closed, failed };
  // Reads what the socket holds into c.in. closed: the peer closed (EOF or
  // reset) after the bytes now in c.in; failed: another error, already
  // counted and the connection dropped.
  Read read_all(Conn& c, std::int64_t t) {
    for (;;) {
      const net::ReadResult r = loop_.read(c, kReadChunkBytes);
      switch (r.status) {
        case net::ReadResult::Status::data:
          if (r.bytes < kReadChunkBytes) return Read::open;
          continue;
        case net::ReadResult::Status::eof:
          return Read::closed;
        case net::ReadResult::Status::again:
          return Read::open;
        case net::ReadResult::Status::failed:
          if (r.error == ECONNRESET) return Read::closed;
          drop(c, ErrorKind::read, t);
          return Read::failed;
      }
    }
  }

  // Handles every complete response in c.in; false if the connection dropped.
  bool take_all(Conn& c, std::int64_t t) {
    // A session wire may hold answers a read completed after c.in is empty.
    while (c.fd >= 0 && (W::kSession || !c.in.empty())) {
      const int got = take(c, t);
      if (got == 0) break;  // need more bytes
      if (got < 0) return false;
    }
    return c.fd >= 0;
  }

  // A send found the connection closed by the peer (EPIPE, ECONNRESET). The
  // answers that reached us before the close still count, so read them first:
  // a send usually finds the close before a read does, because the closed
  // loop sends right after handling what the last read returned.
  void peer_closed(Conn& c, std::int64_t t) {
    if (read_all(c, t) == Read::failed || !take_all(c, t)) return;
    count_closed(c, t);
  }

  // Counts each window request the close left unanswered once, as `closed`:
  // the same requests Result::requests counted, so with no timeout, read or
  // write error (those count one per dropped connection, not per request)
  // requests = responses + status + validation + closed. Reconnects after
  // the usual delay; a server that is gone then shows as connect errors.
  void count_closed(Conn& c, std::int64_t t) {
    c.calls.for_each_unanswered([&](const Call& call) {
      if (window_.recorded(call.intended_ns)) tally_.count(ErrorKind::closed);
    });
    disconnect(c, t + kReconnectDelayNs);
  }

  // The response at the front of c.in, through the wire policy. 1: one
  // response handled; 0: need more; -1: the connection was dropped (or
  // closed as the server announced: reconnected without an error).
  int take(Conn& c, std::int64_t t) {
    const std::size_t out_before_bytes = c.out.size();
    const wire::Response r = wire_.take(c.in, c.out, c.wire);
    // A session's control frames (SETTINGS ACK, WINDOW_UPDATE) are sent bytes too.
    if (W::kSession && window_.recorded(t)) tally_.sent_bytes(c.out.size() - out_before_bytes);
    if (r.status == wire::Response::Status::need_more) return 0;
    if (r.status == wire::Response::Status::malformed) {
      drop(c, ErrorKind::read, t);
      return -1;
    }
    const bool keep = complete(c, r, t);
    if constexpr (!W::kSession) c.in.consume(r.consumed_bytes);  // a session consumed what it read
    if (!keep) return -1;
    if (r.close) {  // answered, then closed as announced: reconnect without an error
      disconnect(c, t);
      return -1;
    }
    return 1;
  }

  // Validates the response r (r.consumed_bytes long, framing included) to
  // the call it answers and records it: on an in-order wire the oldest call
  // unanswered, on a multiplexed one the call r.promise names. False if the
  // connection was dropped: an in-order answer with no call in flight. A
  // multiplexed answer to no call in flight (a PromiseID never sent, or
  // answered already) is counted as unknown_promise and the connection goes
  // on (docs/spec/zap-rpc.md §4).
  bool complete(Conn& c, const wire::Response& r, std::int64_t t) {
    Call req;
    if constexpr (W::kMultiplexed) {
      if (!c.calls.answer(r.promise, req)) {
        error(ErrorKind::unknown_promise, t);
        return true;
      }
    } else if (!c.calls.answer_front(req)) {
      drop(c, ErrorKind::read, t);
      return false;
    }
    // Every request scheduled in the window is accounted for, also when its
    // answer comes in the drain: dropping late answers would hide a stall at
    // the window's end.
    if (!window_.recorded(req.intended_ns)) return true;
    tally_.received_bytes(r.consumed_bytes);
    if constexpr (W::kSession) {
      if (r.reset) {  // the server reset its stream: the call is lost, as in a close
        tally_.count(ErrorKind::closed);
        return true;
      }
    }
    if (r.code != 200) {
      error(ErrorKind::status, std::max(t, window_.start_ns()));
      return true;
    }
    if constexpr (W::kSession) {
      if (r.invalid) {
        error(ErrorKind::validation, std::max(t, window_.start_ns()));
        return true;
      }
    }
    if constexpr (!W::kRawBytes) {
      if (!script_.valid(r.body, r.content_type, req.id)) {
        error(ErrorKind::validation, std::max(t, window_.start_ns()));
        return true;
      }
    }
    tally_.response(t - req.intended_ns, t - req.sent_ns, !c.answered);
    c.answered = true;
    return true;
  }

  const Options& opt_;
  W wire_;
  net::Address addr_;
  unsigned first_conn_;
  Script<W> script_;  // after wire_: built through it
  Tally tally_;
  Window window_;
  L loop_;
  std::vector<Conn> conns_;
  std::atomic<bool>& refused_;  // shared by the run's threads: one refused the run (refuse())
  std::string refusal_;
  double per_conn_interval_ns_ = 0;
  std::uint64_t next_id_ = 0;
};

}  // namespace load
