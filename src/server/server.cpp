// server/server.cpp — the server's handler on the event core (net/loop.hpp).
// One Worker per pinned thread: its own loop, its own SO_REUSEPORT listening
// sockets (the kernel spreads new connections over them), its own codecs and
// counters; nothing shared on the request path but the connection limit.
// Each connection's framing is a wire policy (Http1Wire, ZapHttpWire,
// ZapRpcWire, Http2Wire; the per-request code is in request_path.cpp and
// http2_wire.cpp) taken from its
// listener once, so no request branches on the wire.
#include "server/server.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <iterator>
#include <stdexcept>

#include "net/buffer.hpp"
#include "net/connection.hpp"
#include "net/epoll_loop.hpp"
#include "net/loop.hpp"
#include "net/pool.hpp"
#include "net/uring_loop.hpp"
#include "server/listen.hpp"
#include "server/request_path.hpp"
#include "wire/http1.hpp"
#include "wire/zap_http.hpp"

namespace server {

std::string_view describe(ErrorKind k) noexcept {
  // In ErrorKind's order (server.hpp): the names the counters print.
  static constexpr std::string_view kNames[] = {"http_bad_request",
                                                "http_header_too_large",
                                                "http_body_too_large",
                                                "http_not_implemented",
                                                "http_version_not_supported",
                                                "zap_bad_length",
                                                "zap_malformed",
                                                "zap_rpc_malformed",
                                                "zap_rpc_unsolicited",
                                                "zap_rpc_stream",
                                                "zap_rpc_bad_dir",
                                                "http2_connection_error",
                                                "http2_header_too_large",
                                                "http2_body_too_large",
                                                "grpc_bad_message",
                                                "header_timeout",
                                                "idle_timeout",
                                                "connection_limit",
                                                "io"};
  static_assert(std::size(kNames) == static_cast<std::size_t>(ErrorKind::count_));
  const auto i = static_cast<std::size_t>(k);
  return i < std::size(kNames) ? kNames[i] : "?";
}

void Counters::add(const Counters& o) {
  connections += o.connections;
  for (std::size_t w = 0; w < matrix::kFramings.size(); ++w)
    for (int r = 0; r < static_cast<int>(Route::count_); ++r) requests[w][r] += o.requests[w][r];
  for (int i = 0; i < static_cast<int>(Outcome::count_); ++i) outcomes[i] += o.outcomes[i];
  for (int i = 0; i < static_cast<int>(ErrorKind::count_); ++i) errors[i] += o.errors[i];
  http2_pool_mallocs += o.http2_pool_mallocs;
}

namespace {

// What a closing connection may still make us read (and drop) while its
// last answers wait to be sent: enough for the requests a client had
// pipelined behind the one that closed it, so it sees our answer rather
// than a reset; not a sink a client can fill at line rate until the idle
// timeout (found by tests/server/hostile_test.cpp on a slow machine, where a
// never-reader was closed by the header timeout and then sent 150 MiB).
constexpr std::uint32_t kMaxDiscardBytes = 256 * 1024;
constexpr std::int64_t kGraceMs = 2000;
// A lingering close: once a closing connection's last answer is out, we send
// our FIN (shutdown SHUT_WR) and keep reading and dropping until the peer's,
// at most this long (or kMaxDiscardBytes), before close(). Closing at once
// with bytes still arriving makes the kernel answer them with a reset, which
// the peer may read before our last answer or our FIN (h2spec 7/1: a client's
// GOAWAY then PING saw "connection reset by peer" one run in six).
constexpr std::int64_t kLingerMs = 1000;
constexpr int kTickMs = 250;  // timeouts checked, the Date refreshed
// A connection with nothing to read or send for this long gives its buffers'
// regions back (net::Buffer::release): held idle connections own none
// (c100k), an active one keeps its own, so requests allocate nothing.
constexpr std::int64_t kReleaseIdleMs = 1000;

}  // namespace

// ---- a worker ---------------------------------------------------------------

// What the server asks of a worker, whichever loop it runs on (Worker<L>):
// the pool's run and stop, listeners before, counters after.
class AnyWorker {
 public:
  virtual ~AnyWorker() = default;
  virtual void run() = 0;
  virtual void stop() noexcept = 0;
  virtual void add_listener(int fd, matrix::Framing w) = 0;
  [[nodiscard]] virtual Counters counters() const = 0;
};

// L is the event core's backend (net::EpollLoop, net::UringLoop), chosen
// once per process: the handler's code is the same for both.
template <class L>
class Worker final : public AnyWorker {
 public:
  Worker(const Config& config, net::ConnectionLimit& limit) : config_(config), limit_(limit), x_(config) {
    // Here, not first thing in run(): the prepared heads' strings reach their
    // size with the first Date, and a worker thread that started late would
    // otherwise allocate while its neighbour already serves (found by
    // server_allocations on a busy machine). Later Dates fit in place.
    refresh_date();
  }
  ~Worker() override {
    conns_.for_each([this](Conn* c) { destroy(c); });
    loop_.release_pending([](net::Connection& c) { delete static_cast<Conn*>(&c); });
  }

  void add_listener(int fd, matrix::Framing w) override {
    listeners_.push_back(std::make_unique<net::Listener>(fd, static_cast<std::uint8_t>(w)));
    loop_.add(fd, EPOLLIN, listeners_.back().get());
  }

  void stop() noexcept override { loop_.stop(); }
  [[nodiscard]] Counters counters() const override {
    Counters c = x_.counters;
    c.http2_pool_mallocs = Http2Wire::pool_mallocs(x_);
    return c;
  }

  // On the worker's thread (net::Pool): serve until stop(), then drain.
  void run() override {
    refresh_date();
    loop_.run(*this, kTickMs);
    drain();
  }

  // ---- the loop's handler ----
  int wait_ms() const { return kTickMs; }
  void on_event(net::Pollable& p, std::uint32_t events) {
    if (p.kind == net::Pollable::Kind::listener) return accept(static_cast<const net::Listener&>(p));
    Conn* c = static_cast<Conn*>(&p);
    with_wire(*c, [&]<class W>() {
      if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        on_readable<W>(c);
      else if (events & EPOLLOUT)
        flush<W>(c);
    });
  }
  void on_tick() {
    refresh_date();
    check_timeouts();
  }
  // A closed connection's last completion came (UringLoop): it may go.
  void on_closed(net::Connection& c) { delete static_cast<Conn*>(&c); }

 private:
  void accept(const net::Listener& l) {
    net::accept_all(
        l, &limit_,
        [&](int fd) {
          Conn* c = new Conn(static_cast<matrix::Framing>(l.wire));  // per connection, never per request
          c->fd = fd;
          c->last_active_ms = loop_.now_ms();
          c->events = EPOLLIN | EPOLLRDHUP;
          if (config_.send_buffer_bytes > 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &config_.send_buffer_bytes,
                       sizeof config_.send_buffer_bytes);
          if (!loop_.try_add(fd, c->events, c)) {
            error(ErrorKind::io);
            ::close(fd);
            limit_.release();
            delete c;
            return;
          }
          conns_.push(c);
          ++x_.counters.connections;
          if (c->wire == static_cast<std::uint8_t>(matrix::Framing::http2)) {
            // The session, and its SETTINGS out at once: h2c with prior
            // knowledge lets the server speak first.
            if (!Http2Wire::open(x_, *c)) {
              error(ErrorKind::io);
              return destroy(c);
            }
            (void)loop_.flush(*c);  // a new socket takes it; what stays goes with the first answers
          }
        },
        [&] { error(ErrorKind::connection_limit); });
  }

  void destroy(Conn* c) {
    if (c->h2 != nullptr) Http2Wire::close(x_, *c);
    conns_.remove(c);
    limit_.release();
    if (loop_.close(*c)) delete c;  // else on_closed() does, once the kernel let go of it
  }

  void error(ErrorKind k) { x_.error(k); }

  template <class W>
  void on_readable(Conn* c) {
    if (!c->closing) {
      // Read and answer in turns, and read nothing while `out` is at its cap:
      // answering only after a whole burst let a client that pipelines and
      // never reads make the server buffer everything the socket delivered
      // (tens of MiB per connection, found by tests/server/hostile_test.cpp). Now
      // `in` holds at most one read past the requests answered, and `out` the
      // cap plus the answers to one read (backpressure).
      while (!c->closing && !c->held && !must_hold<W>(*c)) {
        const std::size_t want = c->in.writable() >= 4096 ? c->in.writable() : 16 * 1024;
        const net::ReadResult r = loop_.read(*c, want);
        if (r.status == net::ReadResult::Status::data) {
          c->last_active_ms = loop_.now_ms();
          answer_ready<W>(x_, *c, loop_.now_ms());
          if (r.bytes < want) break;                              // drained for now
          if (c->in.size() > W::read_cap(config_.limits)) break;  // a safety net: step() refuses this much
          continue;
        }
        if (r.status == net::ReadResult::Status::eof) {
          c->peer_closed = true;
        } else if (r.status == net::ReadResult::Status::failed) {
          error(ErrorKind::io);
          return destroy(c);
        }
        break;
      }
    } else {
      // Closing: discard what arrives so the peer's close is seen, up to
      // kMaxDiscardBytes; flush() then stops reading.
      std::uint8_t sink[4096];
      const net::ReadResult r = loop_.discard(*c, sink, sizeof sink);
      if (r.status == net::ReadResult::Status::eof || r.status == net::ReadResult::Status::failed)
        c->peer_closed = true;
      if (r.status == net::ReadResult::Status::data) {
        const bool was_under = c->discarded_bytes < kMaxDiscardBytes;
        c->discarded_bytes += static_cast<std::uint32_t>(r.bytes);
        if (was_under && c->discarded_bytes >= kMaxDiscardBytes && config_.on_discard_cap)
          config_.on_discard_cap(c->discarded_bytes);
      }
    }
    flush<W>(c);
  }

  // Everything ready goes out (the loop's flush); EPOLLOUT only while something is left.
  template <class W>
  void flush(Conn* c) {
    for (;;) {
      const net::FlushResult f = loop_.flush(*c);
      if (f.sent_bytes > 0) c->last_active_ms = loop_.now_ms();
      if (f.status == net::FlushResult::Status::failed) {
        error(ErrorKind::io);
        return destroy(c);
      }
      // The client read enough: answer what was held back at the cap (for
      // ZAP-RPC's call bound: once `out` has drained).
      if (!c->held || must_hold<W>(*c)) break;
      answer_ready<W>(x_, *c, loop_.now_ms());
      if (f.status == net::FlushResult::Status::blocked) break;
    }
    if (c->out.empty() && !c->held && (c->closing || c->peer_closed)) {
      // Stopping (drain): no lingering, each connection closes once its answers are out.
      if (c->peer_closed || loop_.stopping() || c->discarded_bytes >= kMaxDiscardBytes) return destroy(c);
      if (c->shut_since_ms == 0) {
        ::shutdown(c->fd, SHUT_WR);
        c->shut_since_ms = loop_.now_ms();
      }
      return loop_.set_interest(*c, EPOLLIN | EPOLLRDHUP);
    }
    // Stop reading while the client does not read its responses, so a
    // connection's memory stays bounded; after the peer's close, only wait to
    // write (level-triggered RDHUP would fire forever).
    std::uint32_t want = 0;
    if (!c->out.empty()) want |= EPOLLOUT;
    const bool holding = c->held || must_hold<W>(*c);
    if (!c->peer_closed && !holding && (!c->closing || c->discarded_bytes < kMaxDiscardBytes))
      want |= EPOLLIN | EPOLLRDHUP;
    if (holding && (c->events & EPOLLIN) != 0 && config_.on_hold)
      config_.on_hold(HoldReport{c->calls_in_out, c->out.size(), c->in.size()});
    loop_.set_interest(*c, want);
  }

  void check_timeouts() {
    const std::int64_t now = loop_.now_ms();
    conns_.for_each([&](Conn* c) {
      if (c->shut_since_ms != 0) {  // lingering: not a timeout, the peer's FIN late or never sent
        if (now - c->shut_since_ms > kLingerMs) destroy(c);
        return;
      }
      if (now - c->last_active_ms >= kReleaseIdleMs) {
        c->in.release();
        c->out.release();
      }
      const bool head_late =
          c->head_since_ms != 0 && now - c->head_since_ms > config_.limits.header_timeout_ms && !c->closing;
      const bool idle = now - c->last_active_ms > config_.limits.idle_timeout_ms;
      if ((!head_late && !idle) || unread_waiting(*c)) return;  // in time, or not read yet by this loop
      if (head_late) {
        error(ErrorKind::header_timeout);
        with_wire(*c, [&]<class W>() {
          W::timed_out(x_, *c);
          c->closing = true;
          c->in.clear();
          flush<W>(c);
        });
      } else {
        error(ErrorKind::idle_timeout);
        destroy(c);
      }
    });
  }

  // After stop: no new connections; answer what was read, flush for a bounded
  // grace period, then close everything.
  void drain() {
    loop_.quiet_wake();
    listeners_.clear();  // closes them
    conns_.for_each([&](Conn* c) {
      with_wire(*c, [&]<class W>() {
        answer_ready<W>(x_, *c, loop_.now_ms());
        c->closing = true;
        flush<W>(c);
      });
    });
    const std::int64_t deadline_ms = net::coarse_now_ms() + kGraceMs;
    Draining draining{*this};
    while (!conns_.empty() && net::coarse_now_ms() < deadline_ms) {
      loop_.turn(draining, 50);
      loop_.refresh_now_ms();
    }
  }
  // The drain's handler: a connection's event only flushes (nothing more is
  // read or answered; listeners are closed).
  struct Draining {
    Worker& w;
    void on_event(net::Pollable& p, std::uint32_t) {
      if (p.kind != net::Pollable::Kind::connection) return;
      Conn* c = static_cast<Conn*>(&p);
      with_wire(*c, [&]<class W>() { w.template flush<W>(c); });
    }
    void on_closed(net::Connection& c) { w.on_closed(c); }
  };

  // Bytes wait in the socket of a connection this loop wants to read: a long
  // batch of other events (a slow machine, clients flooding pipelined
  // requests) kept it from reading them. Neither timeout may close such a
  // connection; one that the loop stopped reading (held, closing) is judged
  // as usual. Asked only of a connection already past a timeout (a syscall).
  static bool unread_waiting(const Conn& c) {
    return (c.events & EPOLLIN) != 0 && net::unread_bytes_waiting(c.fd);
  }

  // The Date header, formatted once a second, not per response.
  void refresh_date() {
    const std::time_t t = std::time(nullptr);
    if (t == date_time_) return;
    date_time_ = t;
    x_.set_date(wire::http::format_http_date(
        t, std::span<char, wire::http::kHttpDateBytes>(date_buf_, wire::http::kHttpDateBytes)));
  }

  const Config& config_;
  net::ConnectionLimit& limit_;
  L loop_;
  Context x_;
  std::vector<std::unique_ptr<net::Listener>> listeners_;
  net::ConnectionList<Conn> conns_;
  char date_buf_[wire::http::kHttpDateBytes];
  std::time_t date_time_ = 0;
};

// ---- the server -------------------------------------------------------------

Server::Server(Config config)
    : config_(std::move(config)),
      limit_(config_.limits.max_connections),
      pool_(std::make_unique<net::Pool<AnyWorker>>()) {
  if (config_.json == nullptr || !config_.json->available) throw std::runtime_error("no JSON codec");
  for (std::size_t i = 0; i < config_.codecs.size(); ++i) {
    const record::CodecInfo* c = config_.codecs[i];
    if (c == nullptr || !c->available || c->trusted_input_only || c->family() == matrix::Family::zap)
      throw std::runtime_error("codec " + std::string(c != nullptr ? c->name : "(null)") +
                               " cannot answer requests (unavailable, ZAP, or for trusted input only)");
    for (std::size_t k = 0; k < i; ++k)
      if (config_.codecs[k]->content_type == c->content_type)
        throw std::runtime_error("codecs " + std::string(config_.codecs[k]->name) + " and " +
                                 std::string(c->name) + " both answer " + std::string(c->content_type));
  }
  if (config_.http.empty() && config_.zap.empty() && config_.zap_rpc.empty() && config_.http2.empty())
    throw std::runtime_error("nothing to listen on");
  if (config_.threads == 0) config_.threads = 1;
  for (unsigned t = 0; t < config_.threads; ++t) {
    std::unique_ptr<AnyWorker> w;
    if (config_.io == net::Io::io_uring)
      w = std::make_unique<Worker<net::UringLoop>>(config_, limit_);
    else
      w = std::make_unique<Worker<net::EpollLoop>>(config_, limit_);
    pool_->add(std::move(w), net::cpu_for(config_.cpus, t));
  }
  for (const matrix::Framing w : kListenerFramings) {
    for (Endpoint ep : config_.endpoints(w)) {
      pool_->for_each([&](AnyWorker& worker) {
        std::uint16_t port = 0;
        const int fd = listen_on(ep, port);
        ep.port = port;  // the other workers join the port the first one got
        worker.add_listener(fd, w);
      });
      bound_[matrix::index(w)].push_back(ep);
    }
  }
}

Server::~Server() = default;  // the pool stops and joins its workers

void Server::run() {
  pool_->start();
  pool_->join();
}

void Server::stop() { pool_->stop(); }

Counters Server::counters() const {
  Counters total;
  pool_->for_each([&](const AnyWorker& w) { total.add(w.counters()); });
  return total;
}

}  // namespace server
