// server/server.cpp — the server's handler on the event core (net/loop.hpp).
// One Worker per pinned thread: its own loop, its own SO_REUSEPORT listening
// sockets (the kernel spreads new connections over them), its own codecs and
// counters; nothing shared on the request path but the connection limit.
// Each connection's framing is a wire policy (Http1Wire, ZapHttpWire) taken
// from its listener once, so no request branches on the wire.
#include "server/server.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <iterator>
#include <stdexcept>

#include "net/buffer.hpp"
#include "net/connection.hpp"
#include "net/http1.hpp"
#include "net/loop.hpp"
#include "net/pool.hpp"
#include "net/zap_http.hpp"
#include "server/listen.hpp"

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
  for (int w = 0; w < static_cast<int>(Wire::count_); ++w)
    for (int r = 0; r < static_cast<int>(Route::count_); ++r) requests[w][r] += o.requests[w][r];
  for (int i = 0; i < static_cast<int>(Outcome::count_); ++i) outcomes[i] += o.outcomes[i];
  for (int i = 0; i < static_cast<int>(ErrorKind::count_); ++i) errors[i] += o.errors[i];
}

namespace {

std::string_view text(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// Past this many unsent response bytes a connection stops reading (and holds
// the requests it has) until the client reads (backpressure).
constexpr std::size_t kMaxPendingOutBytes = 4 * 1024 * 1024;
// What a closing connection may still make us read (and drop) while its
// last answers wait to be sent: enough for the requests a client had
// pipelined behind the one that closed it, so it sees our answer rather
// than a reset; not a sink a client can fill at line rate until the idle
// timeout (found by tests/server/hostile_test.cpp on a slow machine, where a
// never-reader was closed by the header timeout and then sent 150 MiB).
constexpr std::uint32_t kMaxDiscardBytes = 256 * 1024;
constexpr std::int64_t kGraceMs = 2000;
constexpr int kTickMs = 250;  // timeouts checked, the Date refreshed

// A server connection: the core's connection (socket, buffers, interest set)
// and what the limits and the backpressure need to know of it.
struct Conn : net::Connection {
  explicit Conn(Wire w) : net::Connection(16 * 1024, 16 * 1024, static_cast<std::uint8_t>(w)) {}
  std::int64_t last_active_ms = 0;
  std::int64_t head_since_ms = 0;  // when the incomplete request in `in` began; 0: none
  std::size_t scan_hint = 0;       // HTTP: where to resume looking for the end of the head
  bool closing = false;            // close once `out` is flushed; read nothing more
  bool peer_closed = false;
  std::uint32_t discarded_bytes = 0;  // read and dropped while closing (bounded: kMaxDiscardBytes)
  bool held = false;                  // requests left in `in` at the output cap: answered as `out` drains
};

// What a wire policy uses of its worker: the routes, the counters, the
// limits, the Date value, the reusable encoders.
struct Context {
  explicit Context(const Config& config) : limits(config.limits), routes(*config.json) {
    http_limits.max_header_bytes = config.limits.max_header_bytes;
    http_limits.max_body_bytes = config.limits.max_body_bytes;
  }
  void error(ErrorKind k) { ++counters.errors[static_cast<int>(k)]; }
  Reply answer(Wire w, std::string_view method, std::string_view target, std::string_view content_type,
               record::Bytes body) {
    Route route;
    Outcome outcome;
    const Reply reply = routes.handle(method, target, content_type, body, route, outcome);
    ++counters.requests[static_cast<int>(w)][static_cast<int>(route)];
    ++counters.outcomes[static_cast<int>(outcome)];
    return reply;
  }

  const Limits& limits;
  Routes routes;
  Counters counters;
  net::http::Limits http_limits;
  net::zaphttp::ResponseEncoder zap_out;
  std::string_view date;
  char error_text[128];
};

// ---- the wire policies ------------------------------------------------------
// A policy turns the bytes at the front of a connection's input into one
// request, has the routes answer it, and appends the answer to the output.
// step() returns the bytes it consumed: 0 when the request is not complete
// yet, or when it refused it (then c.closing is set, and its answer, if it
// has one, is in c.out). read_cap() is how much unparsed input is worth
// holding (past it the request is over a limit anyway, and step() answers
// it); timed_out() answers a request not complete in time.

struct Http1Wire {
  static constexpr Wire kWire = Wire::http;
  static std::size_t read_cap(const Limits& l) { return l.max_header_bytes + l.max_body_bytes + 4096; }

  static std::size_t step(Context& x, Conn& c) {
    net::http::Request req;
    const net::http::ParseResult r =
        net::http::parse_request(c.in.readable_text(), req, x.http_limits, &c.scan_hint);
    if (r.status == net::http::Status::need_more) return 0;
    if (r.status == net::http::Status::error) {
      using E = net::http::Error;
      x.error(r.error == E::header_too_large        ? ErrorKind::http_header_too_large
              : r.error == E::body_too_large        ? ErrorKind::http_body_too_large
              : r.error == E::not_implemented       ? ErrorKind::http_not_implemented
              : r.error == E::version_not_supported ? ErrorKind::http_version
                                                    : ErrorKind::http_bad_request);
      const int status = net::http::http_status(r.error);
      net::http::write_response(c.out, status, net::http::reason_phrase(status), "text/plain; charset=utf-8",
                                net::http::reason(r), true, x.date);
      c.closing = true;
      return 0;
    }
    if (c.in.size() < req.message_bytes()) return 0;  // the body is still arriving
    const record::Bytes body{c.in.readable().data() + req.head_bytes, req.content_length};
    const Reply reply = x.answer(kWire, req.method, req.target, req.content_type, body);
    if (reply.allow.empty())
      net::http::write_response(c.out, reply.status, net::http::reason_phrase(reply.status),
                                reply.content_type, text(reply.body), req.close, x.date);
    else  // a 405 (RFC 9110: it names the methods the route allows)
      net::http::write_response(c.out, reply.status, net::http::reason_phrase(reply.status),
                                reply.content_type, text(reply.body), req.close, x.date, reply.allow);
    if (req.close) c.closing = true;
    return req.message_bytes();
  }

  static void timed_out(Context& x, Conn& c) {
    net::http::write_response(c.out, 408, "Request Timeout", "text/plain; charset=utf-8",
                              "request head or body not complete in time", true, x.date);
  }
};

struct ZapHttpWire {
  static constexpr Wire kWire = Wire::zap;
  static std::size_t read_cap(const Limits& l) {
    return std::size_t{l.max_frame_bytes} + net::zaphttp::kPrefixBytes;
  }

  static std::size_t step(Context& x, Conn& c) {
    const net::zaphttp::FrameScan s = net::zaphttp::scan_frame(c.in.readable(), x.limits.max_frame_bytes);
    if (s.status == net::zaphttp::FrameScan::Status::need_more) return 0;
    if (s.status == net::zaphttp::FrameScan::Status::bad_length) {
      x.error(ErrorKind::zap_bad_length);  // the transport spec: close, no reply
      c.closing = true;
      c.in.clear();
      return 0;
    }
    net::zaphttp::RequestView req;
    if (const net::zaphttp::FrameError e =
            net::zaphttp::decode_request(net::zaphttp::frame_message(c.in.readable(), s), req);
        e != net::zaphttp::FrameError::ok) {
      x.error(ErrorKind::zap_malformed);
      const std::string_view why = net::zaphttp::describe(e);
      std::snprintf(x.error_text, sizeof x.error_text, "malformed request frame: %.*s", int(why.size()),
                    why.data());
      const net::zaphttp::Header ct{"Content-Type", "text/plain; charset=utf-8"};
      net::zaphttp::ResponseSpec spec;
      spec.status = 400;
      spec.headers = {&ct, 1};
      const std::string_view body = x.error_text;
      spec.body = {reinterpret_cast<const std::uint8_t*>(body.data()), body.size()};
      x.zap_out.append_frame(spec, c.out);
      c.closing = true;
      return 0;
    }
    const std::string_view content_type = req.headers.find("Content-Type").value_or(std::string_view{});
    const Reply reply = x.answer(kWire, req.method, req.target, content_type, req.body);
    const net::zaphttp::Header headers[2] = {{"Content-Type", reply.content_type}, {"Allow", reply.allow}};
    net::zaphttp::ResponseSpec spec;
    spec.status = static_cast<std::uint16_t>(reply.status);
    spec.headers = {headers, reply.allow.empty() ? 1u : 2u};
    spec.body = reply.body;
    x.zap_out.append_frame(spec, c.out);
    return s.frame_bytes();
  }

  static void timed_out(Context&, Conn&) {}  // ZAP has no timeout answer: closed without a reply
};

// Calls f.template operator()<W>() with c's policy: the one branch on the
// wire, per event or per housekeeping visit, never per request.
template <class F>
void with_wire(const Conn& c, F&& f) {
  if (c.wire == static_cast<std::uint8_t>(Wire::http))
    f.template operator()<Http1Wire>();
  else
    f.template operator()<ZapHttpWire>();
}

}  // namespace

// ---- a worker ---------------------------------------------------------------

class Worker {
 public:
  Worker(const Config& config, net::ConnectionLimit& limit) : config_(config), limit_(limit), x_(config) {}
  ~Worker() {
    conns_.for_each([this](Conn* c) { destroy(c); });
  }

  void add_listener(int fd, Wire w) {
    listeners_.push_back(std::make_unique<net::Listener>(fd, static_cast<std::uint8_t>(w)));
    loop_.add(fd, EPOLLIN, listeners_.back().get());
  }

  net::Loop& loop() { return loop_; }
  [[nodiscard]] const Counters& counters() const { return x_.counters; }

  // On the worker's thread (net::Pool): serve until stop(), then drain.
  void run() {
    refresh_date();
    loop_.run(*this, kTickMs);
    drain();
  }

  // ---- net::Loop's handler ----
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

 private:
  void accept(const net::Listener& l) {
    net::accept_all(
        l, &limit_,
        [&](int fd) {
          Conn* c = new Conn(static_cast<Wire>(l.wire));  // per connection, never per request
          c->fd = fd;
          c->last_active_ms = loop_.now_ms();
          c->events = EPOLLIN | EPOLLRDHUP;
          if (config_.send_buffer_bytes > 0)
            setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &config_.send_buffer_bytes,
                       sizeof config_.send_buffer_bytes);
          if (!loop_.try_add(fd, c->events, c)) {
            error(ErrorKind::io);
            close(fd);
            limit_.release();
            delete c;
            return;
          }
          conns_.push(c);
          ++x_.counters.connections;
        },
        [&] { error(ErrorKind::connection_limit); });
  }

  void destroy(Conn* c) {
    conns_.remove(c);
    close(c->fd);  // also removes it from epoll
    limit_.release();
    delete c;
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
      while (!c->closing && !c->held && c->out.size() < kMaxPendingOutBytes) {
        const std::size_t want = c->in.writable() >= 4096 ? c->in.writable() : 16 * 1024;
        const net::ReadResult r = net::read_into(*c, want);
        if (r.status == net::ReadResult::Status::data) {
          c->last_active_ms = loop_.now_ms();
          process<W>(c);
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
      const net::ReadResult r = net::read_some(c->fd, sink, sizeof sink);
      if (r.status == net::ReadResult::Status::eof) c->peer_closed = true;
      if (r.status == net::ReadResult::Status::data) {
        const bool was_under = c->discarded_bytes < kMaxDiscardBytes;
        c->discarded_bytes += static_cast<std::uint32_t>(r.bytes);
        if (was_under && c->discarded_bytes >= kMaxDiscardBytes && config_.on_discard_cap)
          config_.on_discard_cap(c->discarded_bytes);
      }
    }
    flush<W>(c);
  }

  // Answers every complete request in `in`, in order, appending to `out`,
  // until `out` reaches its cap: the rest is held until flush() drains it.
  template <class W>
  void process(Conn* c) {
    c->held = false;
    while (!c->closing && !c->in.empty()) {
      if (c->out.size() >= kMaxPendingOutBytes) {
        // The client is not reading; the idle timeout (no progress either
        // way) ends this if it never does, so no head timer runs meanwhile.
        c->held = true;
        return;
      }
      const std::size_t consumed = W::step(x_, *c);
      if (consumed == 0) break;
      c->in.consume(consumed);
      c->head_since_ms = 0;
    }
    if (c->in.empty())
      c->head_since_ms = 0;
    else if (c->head_since_ms == 0)
      c->head_since_ms = loop_.now_ms();
  }

  // Everything ready goes out (net::flush); EPOLLOUT only while something is left.
  template <class W>
  void flush(Conn* c) {
    for (;;) {
      const net::FlushResult f = net::flush(*c);
      if (f.sent_bytes > 0) c->last_active_ms = loop_.now_ms();
      if (f.status == net::FlushResult::Status::failed) {
        error(ErrorKind::io);
        return destroy(c);
      }
      // The client read enough: answer what was held back at the cap.
      if (!c->held || c->out.size() >= kMaxPendingOutBytes) break;
      process<W>(c);
      if (f.status == net::FlushResult::Status::blocked) break;
    }
    if (c->out.empty() && !c->held && (c->closing || c->peer_closed)) return destroy(c);
    // Stop reading while the client does not read its responses, so a
    // connection's memory stays bounded; after the peer's close, only wait to
    // write (level-triggered RDHUP would fire forever).
    std::uint32_t want = 0;
    if (!c->out.empty()) want |= EPOLLOUT;
    if (!c->peer_closed && !c->held && c->out.size() < kMaxPendingOutBytes &&
        (!c->closing || c->discarded_bytes < kMaxDiscardBytes))
      want |= EPOLLIN | EPOLLRDHUP;
    net::set_interest(loop_, *c, want);
  }

  void check_timeouts() {
    const std::int64_t now = loop_.now_ms();
    conns_.for_each([&](Conn* c) {
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
        process<W>(c);
        c->closing = true;
        flush<W>(c);
      });
    });
    const std::int64_t deadline_ms = net::coarse_now_ms() + kGraceMs;
    epoll_event events[net::Loop::kMaxEvents];
    while (!conns_.empty() && net::coarse_now_ms() < deadline_ms) {
      const int n = loop_.wait(events, net::Loop::kMaxEvents, 50);
      loop_.refresh_now_ms();
      for (int i = 0; i < n; ++i) {
        auto* p = static_cast<net::Pollable*>(events[i].data.ptr);
        if (p->kind != net::Pollable::Kind::connection) continue;
        Conn* c = static_cast<Conn*>(p);
        with_wire(*c, [&]<class W>() { flush<W>(c); });
      }
    }
  }

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
    x_.date = net::http::format_http_date(
        t, std::span<char, net::http::kHttpDateBytes>(date_buf_, net::http::kHttpDateBytes));
  }

  const Config& config_;
  net::ConnectionLimit& limit_;
  net::Loop loop_;
  Context x_;
  std::vector<std::unique_ptr<net::Listener>> listeners_;
  net::ConnectionList<Conn> conns_;
  char date_buf_[net::http::kHttpDateBytes];
  std::time_t date_time_ = 0;
};

// ---- the server -------------------------------------------------------------

Server::Server(Config config)
    : config_(std::move(config)),
      limit_(config_.limits.max_connections),
      pool_(std::make_unique<net::Pool<Worker>>()) {
  if (config_.json == nullptr || !config_.json->available) throw std::runtime_error("no JSON codec");
  if (config_.http.empty() && config_.zap.empty()) throw std::runtime_error("nothing to listen on");
  if (config_.threads == 0) config_.threads = 1;
  for (unsigned t = 0; t < config_.threads; ++t)
    pool_->add(std::make_unique<Worker>(config_, limit_), net::cpu_for(config_.cpus, t));
  for (auto* list : {&config_.http, &config_.zap}) {
    const Wire w = list == &config_.http ? Wire::http : Wire::zap;
    for (Endpoint ep : *list) {
      pool_->for_each([&](Worker& worker) {
        std::uint16_t port = 0;
        const int fd = listen_on(ep, port);
        ep.port = port;  // the other workers join the port the first one got
        worker.add_listener(fd, w);
      });
      bound_[static_cast<int>(w)].push_back(ep);
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
  pool_->for_each([&](const Worker& w) { total.add(w.counters()); });
  return total;
}

}  // namespace server
