// load/engine.cpp — the load engine's threads and connection state machines.
// Each connection: connect → send (up to `pipeline` in flight) → read →
// validate → record → send again; errors are counted by kind and the
// connection reconnects. A peer's close first takes the answers that came
// before it, then counts what it left unanswered (ErrorKind::closed).
// Latency is measured from the intended send time: in the open loop a
// connection that falls behind its schedule still charges the wait to the
// requests it delays (coordinated omission corrected). The threads run on
// the event core (net/loop.hpp, net/pool.hpp); the wire is a policy
// (net/client_wires.hpp) chosen once per run: Thread<Http1Client>,
// Thread<ZapHttpClient>, Thread<ZapRpcClient>, Thread<Http2Client> or
// Thread<FloorClient>, so no request or response branches on it; each
// connection keeps the wire's State (an HTTP/1.1 scan hint, an nghttp2
// session). Framing::raw_tcp's request is a constant and its response only a byte
// count. Every wire keeps its calls in flight in one CallTable per connection
// (load/calls.hpp): an in-order wire's answer completes the oldest call, a
// multiplexed one's (ZAP-RPC, HTTP/2, gRPC) the call its PromiseID or stream
// names, in any order.
#include "load/engine.hpp"

#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <iterator>
#include <limits>
#include <memory>
#include <stdexcept>

#include "load/calls.hpp"
#include "net/buffer.hpp"
#include "net/client_wires.hpp"
#include "net/clock.hpp"
#include "net/connection.hpp"
#include "net/loop.hpp"
#include "net/pool.hpp"
#include "net/socket.hpp"

namespace load {

std::string_view describe(ErrorKind k) noexcept {
  // In ErrorKind's order (engine.hpp): the names the report prints.
  static constexpr std::string_view kNames[] = {"connect", "read",       "write",  "timeout",
                                                "status",  "validation", "closed", "unknown_promise"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(ErrorKind::count_));
  const auto i = static_cast<std::size_t>(k);
  return i < std::size(kNames) ? kNames[i] : "?";
}

std::uint64_t Result::error_total() const {
  std::uint64_t t = 0;
  for (std::uint64_t e : errors) t += e;
  return t;
}

namespace {

using net::kNsPerMs;
using net::kNsPerS;
using net::now_ns;
constexpr std::int64_t kReconnectDelayNs = 100'000'000;  // after a failed connect or a dropped connection
constexpr std::size_t kReadChunkBytes = 16 * 1024;

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
// policy (net/client_wires.hpp).
template <class W>
class Thread {
  using Conn = load::Conn<W>;

 public:
  Thread(const Options& opt, W wire, const net::Address& addr, unsigned first_conn, unsigned n_conns,
         Progress* progress, const record::LogsDigest& expect_logs, std::atomic<bool>& refused)
      : opt_(opt),
        wire_(std::move(wire)),
        addr_(addr),
        first_conn_(first_conn),
        progress_(progress),
        expect_logs_(expect_logs),
        refused_(refused) {
    conns_.resize(n_conns);
    for (Conn& c : conns_) c.calls = CallTable(opt.pipeline);
    if (!W::kRawBytes && opt.scenario == Scenario::rpc) {
      const record::CodecInfo* codec = opt.body != nullptr ? opt.body : &record::default_json_codec();
      codec_ = codec->make();
      content_type_ = codec->content_type;
      const record::Request r = record::sample_request();
      expect_balance_ = record::balance_of(r.block, r.method.size(), r.account[0]);
    } else if (!W::kRawBytes && opt.scenario == Scenario::logs) {
      // Every logs request is the same bytes (no id: the answer depends on
      // the request only), built once (PromiseID 0, patched per send on a
      // multiplexed wire); the digest every answer must give is computed
      // once, from the logical values (run() made the set).
      const record::CodecInfo* codec = opt.body != nullptr ? opt.body : &record::default_json_codec();
      codec_ = codec->make();
      content_type_ = codec->content_type;
      fixed("POST", "/logs", codec_->encode_logs_request(record::sample_logs_request(opt.logs)));
    } else {
      // Every hello or floor request is the same bytes: built once, copied
      // per send (its PromiseID patched on a multiplexed wire).
      fixed("GET", "/health", {});
    }
  }
  ~Thread() {
    for (Conn& c : conns_)
      if (c.fd >= 0) close(c.fd);
  }

  // Before net::Pool::start: the run's schedule, from t0_ns.
  void arm(std::int64_t t0_ns) {
    t0_ns_ = t0_ns;
    warm_end_ns_ = t0_ns + static_cast<std::int64_t>(opt_.warmup_s * kNsPerS);
    end_ns_ = warm_end_ns_ + static_cast<std::int64_t>(opt_.duration_s * kNsPerS);
    if (opt_.go != nullptr) {
      // A start barrier: the window starts when *go is seen (wait_ms), not
      // at the warm-up's end. Until then both ends lie beyond any time, so
      // nothing is recorded (far from INT64_MAX so that end_ns_ + the drain
      // bound cannot overflow); past the warm-up's time, sends pause.
      warmup_done_ns_ = warm_end_ns_;
      warm_end_ns_ = end_ns_ = kNotYetNs;
      waiting_go_ = true;
    }
  }
  net::Loop& loop() { return loop_; }
  const Result& result() const { return result_; }
  // Why the run was refused (empty: it was not).
  const std::string& refusal() const { return refusal_; }
  // The window as it ran (a stop may have shortened it).
  std::int64_t window_ns() const { return end_ns_ - warm_end_ns_; }

  // On the thread (net::Pool): connect, run the window and the drain.
  void run() {
    per_conn_interval_ns_ = open_loop() ? opt_.connections * 1e9 / opt_.rate_per_s : 0;
    for (std::size_t i = 0; i < conns_.size(); ++i) {
      Conn& c = conns_[i];
      // Spread the connections' schedules evenly over one interval.
      c.next_intended_ns = t0_ns_ + static_cast<std::int64_t>(static_cast<double>(first_conn_ + i) *
                                                              (1e9 / std::max(1.0, opt_.rate_per_s)));
      connect_conn(c, now_ns());
    }
    loop_.run(*this, 0);
    for (const Conn& c : conns_) result_.connections_answered += c.answered ? 1 : 0;
  }

  // ---- net::Loop's handler ----
  // Ends the run (kDone) once the window is over and nothing is in flight;
  // else how long to wait: up to the next scheduled send.
  int wait_ms() {
    const std::int64_t now = now_ns();
    if (waiting_go_ && now >= warmup_done_ns_ && await_go(now)) return 1;
    if (W::kSession && now < end_ns_ && refused_.load(std::memory_order_relaxed)) end_window(now);
    if (opt_.stop != nullptr && now < end_ns_ && opt_.stop->load(std::memory_order_relaxed)) {
      warm_end_ns_ = std::min(warm_end_ns_, now);
      end_ns_ = now;
      result_.stopped = true;
    }
    // The drain ends when nothing is in flight; housekeeping() times out what
    // is, so this bound is only a backstop.
    const std::int64_t drain_ns = std::int64_t{opt_.timeout_ms} * kNsPerMs + 100 * kNsPerMs;
    if (now >= end_ns_ && (now >= end_ns_ + drain_ns || !any_inflight())) return net::Loop::kDone;
    if (!open_loop() || now >= end_ns_)
      return 10;  // after the window nothing is sent: no schedule to wake for
    const std::int64_t next = next_send_ns();
    return next <= now ? 0 : static_cast<int>(std::min<std::int64_t>((next - now) / kNsPerMs, 10));
  }
  // Options::go, once the warm-up time passed: counts this thread warm
  // (once), then starts the window when *go is set (one relaxed load per
  // round while waiting). True while still waiting: the caller polls again
  // within 1 ms. A stop while waiting leaves an empty window (the stop check
  // that follows in wait_ms ends it at `now`).
  bool await_go(std::int64_t now) {
    if (!counted_warm_) {
      // Sends pause (the answers in flight still come back): the hosts are
      // quiet when go comes, so nothing delays its delivery or the first
      // sends of the window (on a busy CPU that costs milliseconds of skew).
      counted_warm_ = true;
      paused_ = true;
      if (progress_ != nullptr) progress_->warm_threads.fetch_add(1, std::memory_order_relaxed);
    }
    if (opt_.stop != nullptr && opt_.stop->load(std::memory_order_relaxed)) {
      waiting_go_ = false;
      return false;
    }
    if (!opt_.go->load(std::memory_order_relaxed)) return true;
    paused_ = false;
    // The window starts now; the open loop's schedule rebases on it at the
    // next housekeeping (rebased_ is still false: warm_end_ns_ was beyond
    // every t until here), before any open-loop send of the window.
    waiting_go_ = false;
    warm_end_ns_ = now;
    end_ns_ = now + static_cast<std::int64_t>(opt_.duration_s * kNsPerS);
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
  void on_event(net::Pollable& p, std::uint32_t events) { on_event(static_cast<Conn&>(p), events, now_ns()); }
  void on_tick() { housekeeping(now_ns()); }

 private:
  // Every request of the scenario is the same (hello, logs, floor): on a wire
  // of byte strings built once into hello_ and copied per send; else (HTTP/2)
  // kept as its parts and submitted per send.
  void fixed(std::string_view method, std::string_view target, record::Bytes body) {
    fixed_request_ = true;
    if constexpr (W::kFixedBytes) {
      typename W::State none;
      wire_.append_request(hello_, method, target, content_type_, body, 0, none);
    } else {
      fixed_method_ = method;
      fixed_target_ = target;
      fixed_body_.assign(body.begin(), body.end());
    }
  }

  // A request may be sent on c now: a free place in its pipeline and the
  // wire ready (HTTP/2: the server's SETTINGS came).
  bool can_send(const Conn& c) const {
    return !paused_ && c.calls.can_send(opt_.pipeline) && wire_.ready(c.wire);
  }

  bool open_loop() const { return opt_.rate_per_s > 0; }
  bool in_window(std::int64_t t) const { return t >= warm_end_ns_ && t < end_ns_; }

  void error(ErrorKind k, std::int64_t t) {
    // Connect errors always count (a dead server must show); others from the
    // window's start on, the drain included (it only serves window requests).
    if (k != ErrorKind::connect && t < warm_end_ns_) return;
    count_error(k);
  }
  void count_error(ErrorKind k) {
    ++result_.errors[static_cast<int>(k)];
    if (progress_ != nullptr) progress_->errors.fetch_add(1, std::memory_order_relaxed);
  }

  bool any_inflight() const {
    for (const Conn& c : conns_)
      if (c.fd >= 0 && c.calls.outstanding() != 0) return true;
    return false;
  }

  std::int64_t next_send_ns() const {
    std::int64_t next = end_ns_;
    for (const Conn& c : conns_)
      if (c.fd >= 0 && !c.connecting && can_send(c)) next = std::min(next, c.next_intended_ns);
    return next;
  }

  void connect_conn(Conn& c, std::int64_t t) {
    c.fd = socket(addr_.storage.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    net::set_nodelay(c.fd);
    c.in.clear();
    c.out.clear();
    c.calls.reset();
    wire_.reset(c.wire, c.out);  // HTTP/2: a new session, its preface in c.out
    if (W::kSession && in_window(t)) result_.bytes_sent += c.out.size();
    c.events = EPOLLOUT;
    if ((::connect(c.fd, reinterpret_cast<const sockaddr*>(&addr_.storage), addr_.length) != 0 &&
         errno != EINPROGRESS) ||
        !loop_.try_add(c.fd, c.events, &c)) {
      error(ErrorKind::connect, t);
      close(c.fd);
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
    close(c.fd);
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
      net::set_interest(loop_, c, EPOLLIN);
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
    if (t < end_ns_ && can_send(c)) {
      t = now_ns();  // the send happens now, after this event's parsing and validation
      while (t < end_ns_ && can_send(c)) send_request(c, t, t);
    }
    flush(c, t);
  }

  void housekeeping(std::int64_t t) {
    if (open_loop() && !rebased_ && t >= warm_end_ns_) {
      // The window's schedule starts at its own beginning: a backlog built up
      // in the warm-up is not carried into it (it would otherwise shift every
      // recorded request's intended time into the warm-up). A backlog built
      // in the window is, and is charged to the requests it delays.
      rebased_ = true;
      for (std::size_t i = 0; i < conns_.size(); ++i)
        conns_[i].next_intended_ns = std::max(
            conns_[i].next_intended_ns,
            warm_end_ns_ +
                static_cast<std::int64_t>(static_cast<double>(first_conn_ + i) * 1e9 / opt_.rate_per_s));
    }
    for (Conn& c : conns_) {
      if (c.fd < 0) {
        if (t < end_ns_ && t >= c.retry_at_ns) connect_conn(c, t);
        continue;
      }
      if (c.connecting) continue;
      // The front is the oldest unanswered call: the first to time out.
      if (const Call* oldest = c.calls.front();
          oldest != nullptr && t - oldest->sent_ns > std::int64_t{opt_.timeout_ms} * kNsPerMs) {
        drop(c, ErrorKind::timeout, t);
        continue;
      }
      if (open_loop()) {
        bool sent = false;
        // Nothing is sent after the window, even if the schedule is behind:
        // the drain only collects what is in flight.
        while (t < end_ns_ && c.next_intended_ns <= t && c.next_intended_ns < end_ns_ && can_send(c)) {
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
    append_request(c, id, promise);
    // Bytes are counted with the request they belong to (as responses are,
    // in complete()), so bytes per request and per response are exact, not
    // blurred by the window's edges.
    if (in_window(intended_ns)) {
      ++result_.requests;
      result_.bytes_sent += c.out.size() - out_before_bytes;
      if (result_.window_first_send_ns < 0) result_.window_first_send_ns = t;
    }
  }

  // promise: the call's sequence on its connection, the PromiseID a
  // multiplexed wire sends (the in-order wires ignore it).
  void append_request(Conn& c, std::uint64_t id, std::uint32_t promise) {
    if (fixed_request_) {
      if constexpr (W::kFixedBytes) {
        const auto fixed = hello_.readable();
        std::uint8_t* at = c.out.prepare(fixed.size());
        std::memcpy(at, fixed.data(), fixed.size());
        if constexpr (W::kMultiplexed) net::zaprpc::patch_promise(at, promise);
        c.out.commit(fixed.size());
      } else {
        wire_.append_request(c.out, fixed_method_, fixed_target_, content_type_, fixed_body_, promise,
                             c.wire);
      }
      return;
    }
    record::Request r = record::sample_request();
    r.id = id;
    wire_.append_request(c.out, "POST", "/rpc", content_type_, codec_->encode_request(r), promise, c.wire);
  }

  // Everything ready goes out (net::flush); EPOLLOUT only while something is left.
  void flush(Conn& c, std::int64_t t) {
    const net::FlushResult f = net::flush(c);
    if (f.status == net::FlushResult::Status::failed) {
      if (f.error == EPIPE || f.error == ECONNRESET) return peer_closed(c, t);
      return drop(c, ErrorKind::write, t);
    }
    net::set_interest(loop_, c, c.out.empty() ? EPOLLIN : EPOLLIN | EPOLLOUT);
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
    warm_end_ns_ = std::min(warm_end_ns_, t);
    end_ns_ = std::min(end_ns_, t);
    for (Conn& c : conns_)
      if (c.fd >= 0) disconnect(c, t);
  }

  enum class Read : std::uint8_t { open, closed, failed };
  // Reads what the socket holds into c.in. closed: the peer closed (EOF or
  // reset) after the bytes now in c.in; failed: another error, already
  // counted and the connection dropped.
  Read read_all(Conn& c, std::int64_t t) {
    for (;;) {
      const net::ReadResult r = net::read_into(c, kReadChunkBytes);
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
      if (in_window(call.intended_ns)) count_error(ErrorKind::closed);
    });
    disconnect(c, t + kReconnectDelayNs);
  }

  // The response at the front of c.in, through the wire policy. 1: one
  // response handled; 0: need more; -1: the connection was dropped (or
  // closed as the server announced: reconnected without an error).
  int take(Conn& c, std::int64_t t) {
    const std::size_t out_before_bytes = c.out.size();
    const net::wire::Response r = wire_.take(c.in, c.out, c.wire);
    // A session's control frames (SETTINGS ACK, WINDOW_UPDATE) are sent bytes too.
    if (W::kSession && in_window(t)) result_.bytes_sent += c.out.size() - out_before_bytes;
    if (r.status == net::wire::Response::Status::need_more) return 0;
    if (r.status == net::wire::Response::Status::malformed) {
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
  bool complete(Conn& c, const net::wire::Response& r, std::int64_t t) {
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
    if (!in_window(req.intended_ns)) return true;
    result_.bytes_received += r.consumed_bytes;
    if constexpr (W::kSession) {
      if (r.reset) {  // the server reset its stream: the call is lost, as in a close
        count_error(ErrorKind::closed);
        return true;
      }
    }
    if (r.code != 200) {
      error(ErrorKind::status, std::max(t, warm_end_ns_));
      return true;
    }
    if constexpr (W::kSession) {
      if (r.invalid) {
        error(ErrorKind::validation, std::max(t, warm_end_ns_));
        return true;
      }
    }
    if constexpr (!W::kRawBytes) {
      if (!valid(r.body, r.content_type, req.id)) {
        error(ErrorKind::validation, std::max(t, warm_end_ns_));
        return true;
      }
    }
    result_.latency.record(static_cast<std::uint64_t>(t - req.intended_ns));
    result_.latency_actual.record(static_cast<std::uint64_t>(t - req.sent_ns));
    ++result_.responses;
    if (progress_ != nullptr) {
      progress_->responses.fetch_add(1, std::memory_order_relaxed);
      if (!c.answered) progress_->connections_answered.fetch_add(1, std::memory_order_relaxed);
    }
    c.answered = true;
    return true;
  }

  bool valid(record::Bytes body, std::string_view content_type, std::uint64_t id) {
    if (opt_.scenario == Scenario::hello) return body.size() == 2 && body[0] == 'o' && body[1] == 'k';
    if (opt_.scenario == Scenario::logs) {
      // Every field of every log, read with the codec and folded (the body
      // lies in the connection's input, whose padding the decoders may read).
      // A wire without content types (ZAP-RPC) named the codec of the answer
      // with the call's method ordinal.
      if constexpr (W::kContentType)
        if (content_type != content_type_) return false;
      record::LogsDigest d;
      return codec_->logs_decode_all(body, d) == record::DecodeError::ok && d == expect_logs_;
    }
    record::ResponseView v;
    if (codec_->decode_response(body, v) != record::DecodeError::ok) return false;
    if (v.id != id || v.balance != expect_balance_ || v.nonce != record::kSampleNonce) return false;
    // The whole hash, not only what the charitable JSON decode checks.
    if (v.block_hash_form == record::Form::raw)
      return v.block_hash.size() == record::kHashBytes &&
             std::memcmp(v.block_hash.data(), record::kSampleHash.data(), record::kHashBytes) == 0;
    record::Hash h;
    return record::hex::decode_all(v.block_hash, h) && h == record::kSampleHash;
  }

  const Options& opt_;
  W wire_;
  net::Address addr_;
  unsigned first_conn_;
  Progress* progress_;
  const record::LogsDigest expect_logs_;  // logs: what every answer's logs_decode_all must give
  net::Loop loop_;
  std::vector<Conn> conns_;
  std::unique_ptr<record::AnyCodec> codec_;
  std::string_view content_type_;
  std::uint64_t expect_balance_ = 0;
  std::atomic<bool>& refused_;  // shared by the run's threads: one refused the run (refuse())
  std::string refusal_;
  net::Buffer hello_{256};      // the hello, logs or floor request, ready to send (kFixedBytes)
  bool fixed_request_ = false;  // every request is the same (hello, logs, floor)
  std::string_view fixed_method_, fixed_target_;  // the same request's parts (not kFixedBytes)
  std::vector<std::uint8_t> fixed_body_;
  double per_conn_interval_ns_ = 0;
  std::int64_t t0_ns_ = 0, warm_end_ns_ = 0, end_ns_ = 0;
  std::uint64_t next_id_ = 0;
  bool rebased_ = false;
  // Options::go: the barrier (arm, await_go). warmup_done_ns_: when the
  // warm-up time passes (the window's start is *go's, unknown until seen).
  static constexpr std::int64_t kNotYetNs = std::numeric_limits<std::int64_t>::max() / 4;
  std::int64_t warmup_done_ns_ = 0;
  bool waiting_go_ = false;
  bool counted_warm_ = false;
  bool paused_ = false;  // past the warm-up, waiting for go: nothing is sent
  Result result_;
};

double seconds(const timeval& tv) { return double(tv.tv_sec) + double(tv.tv_usec) / 1e6; }

// The whole run with the wire policy make_wire() builds (one per thread).
template <class MakeWire>
Result run_with(const Options& opt, Progress* progress, const net::Address& addr, MakeWire make_wire) {
  using W = decltype(make_wire());
  // The logs answer's digest, once for every thread: from the logical values
  // of the request every connection sends.
  record::LogsDigest expect_logs;
  if (!W::kRawBytes && opt.scenario == Scenario::logs) {
    record::LogSet set;
    record::generate(record::sample_logs_request(opt.logs), set);
    expect_logs = record::digest_of(set.logs);
  }
  const unsigned threads = std::max(1u, std::min(opt.threads, std::max(1u, opt.connections)));
  net::Pool<Thread<W>> pool;
  std::vector<Thread<W>*> ts;
  std::atomic<bool> refused{false};
  unsigned first = 0;
  for (unsigned i = 0; i < threads; ++i) {
    const unsigned n = opt.connections / threads + (i < opt.connections % threads ? 1 : 0);
    ts.push_back(&pool.add(
        std::make_unique<Thread<W>>(opt, make_wire(), addr, first, n, progress, expect_logs, refused),
        net::cpu_for(opt.cpus, i)));
    first += n;
  }
  if (progress != nullptr) progress->threads.store(threads, std::memory_order_relaxed);
  rusage before{};
  getrusage(RUSAGE_SELF, &before);
  const std::int64_t t0 = now_ns();
  for (Thread<W>* t : ts) t->arm(t0);
  pool.start();
  pool.join();
  rusage after{};
  getrusage(RUSAGE_SELF, &after);

  for (const Thread<W>* t : ts)
    if (!t->refusal().empty()) throw std::runtime_error(t->refusal());

  // Per-thread results, merged after join.
  Result out;
  std::int64_t window_ns = 0;
  for (const Thread<W>* t : ts) {
    const Result& r = t->result();
    window_ns = std::max(window_ns, t->window_ns());
    out.stopped = out.stopped || r.stopped;
    out.requests += r.requests;
    out.responses += r.responses;
    out.bytes_sent += r.bytes_sent;
    out.bytes_received += r.bytes_received;
    out.connections_answered += r.connections_answered;
    for (int k = 0; k < static_cast<int>(ErrorKind::count_); ++k) out.errors[k] += r.errors[k];
    out.latency.merge(r.latency);
    out.latency_actual.merge(r.latency_actual);
    if (r.window_first_send_ns >= 0 &&
        (out.window_first_send_ns < 0 || r.window_first_send_ns < out.window_first_send_ns))
      out.window_first_send_ns = r.window_first_send_ns;
  }
  out.elapsed_s = double(window_ns) / double(kNsPerS);
  out.intended_rate_per_s = opt.rate_per_s;
  out.cpu_user_s = seconds(after.ru_utime) - seconds(before.ru_utime);
  out.cpu_sys_s = seconds(after.ru_stime) - seconds(before.ru_stime);
  return out;
}

}  // namespace

Result run(const Options& opt, Progress* progress) {
  if (opt.framing == Framing::raw_tcp && (opt.floor_request_bytes == 0 || opt.floor_response_bytes == 0))
    throw std::runtime_error("the floor wire needs a request and a response byte count, both at least 1");
  if (opt.framing != Framing::raw_tcp && opt.scenario == Scenario::logs) {
    if (opt.logs == 0 || opt.logs > record::kMaxLogs)
      throw std::runtime_error("the logs scenario needs N from 1 to " + std::to_string(record::kMaxLogs) +
                               ", got " + std::to_string(opt.logs));
    const record::CodecInfo& codec = opt.body != nullptr ? *opt.body : record::default_json_codec();
    if (const std::string why = record::logs_refusal(codec); !why.empty())
      throw std::runtime_error("the logs scenario: " + why);
  }
  if (opt.framing == Framing::grpc && opt.scenario != Scenario::rpc)
    throw std::runtime_error("the grpc framing calls zapbench.Eth/Call only: it takes the rpc scenario");
  const net::Address addr = net::resolve(opt.host, opt.port);
  const std::string authority = opt.host + ":" + std::to_string(opt.port);
  // The wire is chosen here, once per run.
  switch (opt.framing) {
    case Framing::http1:
      return run_with(opt, progress, addr,
                      [&] { return net::wire::Http1Client(opt.host + ":" + std::to_string(opt.port)); });
    case Framing::zap_http:
      return run_with(opt, progress, addr, [] { return net::wire::ZapHttpClient(); });
    case Framing::zap_rpc:
      return run_with(opt, progress, addr, [] { return net::wire::ZapRpcClient(); });
    case Framing::http2:
    case Framing::grpc:
      return run_with(opt, progress, addr, [&] {
        return net::wire::Http2Client(authority,
                                      opt.framing == Framing::grpc ? net::wire::Http2Client::Mode::grpc
                                                                   : net::wire::Http2Client::Mode::http2,
                                      opt.pipeline, opt.http2_first_stream_id);
      });
    case Framing::raw_tcp:
      break;
  }
  return run_with(opt, progress, addr,
                  [&] { return net::wire::FloorClient(opt.floor_request_bytes, opt.floor_response_bytes); });
}

}  // namespace load
