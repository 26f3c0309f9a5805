// server/server.cpp — the event loops. One Worker per thread: its own epoll
// instance, its own SO_REUSEPORT listening sockets (the kernel spreads new
// connections over them), its own codecs and counters; nothing shared on the
// request path but the connection-limit counter.
#include "server/server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <thread>

#include "net/affinity.hpp"
#include "net/buffer.hpp"
#include "net/http1.hpp"
#include "net/zap_http.hpp"
#include "server/listen.hpp"

namespace server {

std::string_view describe(ErrorKind k) noexcept {
  switch (k) {
    case ErrorKind::http_bad_request:
      return "http_bad_request";
    case ErrorKind::http_header_too_large:
      return "http_header_too_large";
    case ErrorKind::http_body_too_large:
      return "http_body_too_large";
    case ErrorKind::http_not_implemented:
      return "http_not_implemented";
    case ErrorKind::http_version:
      return "http_version_not_supported";
    case ErrorKind::zap_bad_length:
      return "zap_bad_length";
    case ErrorKind::zap_malformed:
      return "zap_malformed";
    case ErrorKind::header_timeout:
      return "header_timeout";
    case ErrorKind::idle_timeout:
      return "idle_timeout";
    case ErrorKind::connection_limit:
      return "connection_limit";
    case ErrorKind::io:
      return "io";
    case ErrorKind::count_:
      break;
  }
  return "?";
}

void Counters::add(const Counters& o) {
  connections += o.connections;
  for (int w = 0; w < static_cast<int>(Wire::count_); ++w)
    for (int r = 0; r < static_cast<int>(Route::count_); ++r) requests[w][r] += o.requests[w][r];
  for (int i = 0; i < static_cast<int>(Outcome::count_); ++i) outcomes[i] += o.outcomes[i];
  for (int i = 0; i < static_cast<int>(ErrorKind::count_); ++i) errors[i] += o.errors[i];
}

namespace {

// The timeouts' clock: CLOCK_MONOTONIC_COARSE costs a few ns (no timer read)
// at a resolution of a few ms, far finer than any timeout, so it is read per
// event rather than once per epoll_wait.
std::int64_t now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / 1'000'000;
}

std::string_view text(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

}  // namespace

// ---- what epoll reports on ---------------------------------------------------

// Every epoll registration points at one of these; the kind says which.
struct Pollable {
  enum class Kind : std::uint8_t { wake, listener, connection } kind;
};

struct Listener : Pollable {
  Listener(int f, Wire w) : Pollable{Kind::listener}, fd(f), wire(w) {}
  int fd;
  Wire wire;
};

struct Connection : Pollable {
  Connection() : Pollable{Kind::connection} {}
  int fd = -1;
  Wire wire = Wire::http;
  net::Buffer in{16 * 1024};
  net::Buffer out{16 * 1024};
  std::int64_t last_active_ms = 0;
  std::int64_t head_since_ms = 0;  // when the incomplete request in `in` began; 0: none
  std::size_t scan_hint = 0;       // HTTP: where to resume looking for the end of the head
  std::uint32_t events = 0;        // the epoll interest set now
  bool closing = false;            // close once `out` is flushed; read nothing more
  bool peer_closed = false;
  std::uint32_t discarded_bytes = 0;  // read and dropped while closing (bounded: kMaxDiscardBytes)
  bool held = false;                  // requests left in `in` at the output cap: answered as `out` drains
  Connection* prev = nullptr;         // the worker's list of open connections (for timeouts)
  Connection* next = nullptr;
};

// ---- a worker ---------------------------------------------------------------

class Worker {
 public:
  Worker(const Config& config, std::atomic<std::size_t>& open, int cpu)
      : config_(config), open_(open), cpu_(cpu), routes_(*config.json) {
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_ < 0 || wake_ < 0) fail("epoll/eventfd");
    add(wake_, EPOLLIN, &wake_tag_);
    http_limits_.max_header_bytes = config.limits.max_header_bytes;
    http_limits_.max_body_bytes = config.limits.max_body_bytes;
  }
  ~Worker() {
    for (auto& l : listeners_) close(l->fd);
    while (conns_ != nullptr) destroy(conns_);
    close(wake_);
    close(epoll_);
  }

  void add_listener(int fd, Wire w) {
    listeners_.push_back(std::make_unique<Listener>(fd, w));
    add(fd, EPOLLIN, listeners_.back().get());
  }

  void start() {
    thread_ = std::thread([this] { run(); });
  }
  void join() {
    if (thread_.joinable()) thread_.join();
  }
  void stop() {
    stop_.store(true, std::memory_order_release);
    const std::uint64_t one = 1;
    [[maybe_unused]] ssize_t n = write(wake_, &one, sizeof one);
  }
  [[nodiscard]] const Counters& counters() const { return counters_; }

 private:
  void add(int fd, std::uint32_t ev, void* tag) {
    epoll_event e{};
    e.events = ev;
    e.data.ptr = tag;
    if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &e) != 0) fail("epoll_ctl");
  }

  void run() {
    net::pin_this_thread(cpu_);
    refresh_date();
    epoll_event events[256];
    std::int64_t last_tick = now_ms();
    while (!stop_.load(std::memory_order_acquire)) {
      const int n = epoll_wait(epoll_, events, 256, 250);
      // A fresh time per event: one taken after epoll_wait would be stale for
      // the later events of a long batch (a slow machine, a client flooding
      // pipelined requests), and a connection read late in it would look idle
      // for the whole batch and could be closed as idle at the next check.
      for (int i = 0; i < n; ++i) {
        now_ = now_ms();
        dispatch(events[i]);
      }
      now_ = now_ms();
      if (now_ - last_tick >= 250) {
        last_tick = now_;
        refresh_date();
        check_timeouts();
      }
    }
    drain();
  }

  void dispatch(const epoll_event& e) {
    auto* p = static_cast<Pollable*>(e.data.ptr);
    if (p->kind == Pollable::Kind::wake) return;  // stop() woke us
    if (p->kind == Pollable::Kind::listener) {
      auto* l = static_cast<Listener*>(p);
      return accept_all(l->fd, l->wire);
    }
    auto* c = static_cast<Connection*>(p);
    if (e.events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
      on_readable(c);
    else if (e.events & EPOLLOUT)
      flush(c);
  }

  void accept_all(int lfd, Wire w) {
    for (;;) {
      const int fd = accept4(lfd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a transient error: the next event retries
      if (open_.fetch_add(1, std::memory_order_relaxed) >= config_.limits.max_connections) {
        open_.fetch_sub(1, std::memory_order_relaxed);
        ++counters_.errors[static_cast<int>(ErrorKind::connection_limit)];
        close(fd);
        continue;
      }
      const int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      Connection* c = new Connection;  // per connection, never per request
      c->fd = fd;
      c->wire = w;
      c->last_active_ms = now_;
      c->events = EPOLLIN | EPOLLRDHUP;
      add(fd, c->events, c);
      c->next = conns_;
      if (conns_ != nullptr) conns_->prev = c;
      conns_ = c;
      ++counters_.connections;
    }
  }

  void destroy(Connection* c) {
    if (c->prev != nullptr)
      c->prev->next = c->next;
    else
      conns_ = c->next;
    if (c->next != nullptr) c->next->prev = c->prev;
    close(c->fd);  // also removes it from epoll
    open_.fetch_sub(1, std::memory_order_relaxed);
    delete c;
  }

  void error(ErrorKind k) { ++counters_.errors[static_cast<int>(k)]; }

  void on_readable(Connection* c) {
    if (!c->closing) {
      // Read and answer in turns, and read nothing while `out` is at its cap:
      // answering only after a whole burst let a client that pipelines and
      // never reads make the server buffer everything the socket delivered
      // (tens of MiB per connection, found by tests/server/hostile_test.cpp). Now
      // `in` holds at most one read past the requests answered, and `out` the
      // cap plus the answers to one read (backpressure).
      while (!c->closing && !c->held && c->out.size() < kMaxPendingOutBytes) {
        const std::size_t want = c->in.writable() >= 4096 ? c->in.writable() : 16 * 1024;
        std::uint8_t* p = c->in.prepare(want);
        const ssize_t n = read(c->fd, p, c->in.writable());
        if (n > 0) {
          c->in.commit(static_cast<std::size_t>(n));
          c->last_active_ms = now_;
          process(c);
          if (static_cast<std::size_t>(n) < want) break;  // drained for now
          if (c->in.size() > read_cap(c)) break;          // a safety net: process() refuses this much
          continue;
        }
        if (n == 0) {
          c->peer_closed = true;
        } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
          error(ErrorKind::io);
          return destroy(c);
        }
        break;
      }
    } else {
      // Closing: discard what arrives so the peer's close is seen, up to
      // kMaxDiscardBytes; flush() then stops reading.
      std::uint8_t sink[4096];
      const ssize_t n = read(c->fd, sink, sizeof sink);
      if (n == 0) c->peer_closed = true;
      if (n > 0) c->discarded_bytes += static_cast<std::uint32_t>(n);
    }
    flush(c);
  }

  // How much unparsed input is worth holding: past this the request is over
  // a limit anyway, and process() answers it.
  std::size_t read_cap(const Connection* c) const {
    return c->wire == Wire::http ? config_.limits.max_header_bytes + config_.limits.max_body_bytes + 4096
                                 : std::size_t{config_.limits.max_frame_bytes} + 4;
  }

  // Answers every complete request in `in`, in order, appending to `out`,
  // until `out` reaches its cap: the rest is held until flush() drains it.
  void process(Connection* c) {
    c->held = false;
    while (!c->closing && !c->in.empty()) {
      if (c->out.size() >= kMaxPendingOutBytes) {
        // The client is not reading; the idle timeout (no progress either
        // way) ends this if it never does, so no head timer runs meanwhile.
        c->held = true;
        return;
      }
      const bool progressed = c->wire == Wire::http ? process_http(c) : process_zap(c);
      if (!progressed) break;
    }
    if (c->in.empty())
      c->head_since_ms = 0;
    else if (c->head_since_ms == 0)
      c->head_since_ms = now_;
  }

  bool process_http(Connection* c) {
    net::http::Request req;
    const net::http::ParseResult r =
        net::http::parse_request(c->in.readable_text(), req, http_limits_, &c->scan_hint);
    if (r.status == net::http::Status::need_more) return false;
    if (r.status == net::http::Status::error) {
      using E = net::http::Error;
      error(r.error == E::header_too_large        ? ErrorKind::http_header_too_large
            : r.error == E::body_too_large        ? ErrorKind::http_body_too_large
            : r.error == E::not_implemented       ? ErrorKind::http_not_implemented
            : r.error == E::version_not_supported ? ErrorKind::http_version
                                                  : ErrorKind::http_bad_request);
      const int status = net::http::http_status(r.error);
      net::http::write_response(c->out, status, net::http::reason_phrase(status), "text/plain; charset=utf-8",
                                net::http::reason(r), true, date_);
      c->closing = true;
      return false;
    }
    const std::size_t total = req.head_bytes + req.content_length;
    if (c->in.size() < total) return false;  // the body is still arriving
    const record::Bytes body{c->in.readable().data() + req.head_bytes, req.content_length};
    Route route;
    Outcome outcome;
    const Reply reply = routes_.handle(req.method, req.target, req.content_type, body, route, outcome);
    ++counters_.requests[static_cast<int>(Wire::http)][static_cast<int>(route)];
    ++counters_.outcomes[static_cast<int>(outcome)];
    net::http::write_response(c->out, reply.status, net::http::reason_phrase(reply.status),
                              reply.content_type, text(reply.body), req.close, date_);
    c->in.consume(total);
    c->scan_hint = 0;
    c->head_since_ms = 0;
    if (req.close) c->closing = true;
    return true;
  }

  bool process_zap(Connection* c) {
    const net::zaphttp::FrameScan s =
        net::zaphttp::scan_frame(c->in.readable(), config_.limits.max_frame_bytes);
    if (s.status == net::zaphttp::FrameScan::Status::need_more) return false;
    if (s.status == net::zaphttp::FrameScan::Status::bad_length) {
      error(ErrorKind::zap_bad_length);  // the transport spec: close, no reply
      c->closing = true;
      c->in.clear();
      return false;
    }
    const record::Bytes message{c->in.readable().data() + 4, s.message_bytes};
    net::zaphttp::RequestView req;
    if (const net::zaphttp::FrameError e = net::zaphttp::decode_request(message, req);
        e != net::zaphttp::FrameError::ok) {
      error(ErrorKind::zap_malformed);
      const std::string_view why = net::zaphttp::describe(e);
      std::snprintf(error_text_, sizeof error_text_, "malformed request frame: %.*s", int(why.size()),
                    why.data());
      const net::zaphttp::Header ct{"Content-Type", "text/plain; charset=utf-8"};
      net::zaphttp::ResponseSpec spec;
      spec.status = 400;
      spec.headers = {&ct, 1};
      const std::string_view body = error_text_;
      spec.body = {reinterpret_cast<const std::uint8_t*>(body.data()), body.size()};
      zap_out_.append_frame(spec, c->out);
      c->closing = true;
      return false;
    }
    const std::string_view content_type = req.headers.find("Content-Type").value_or(std::string_view{});
    Route route;
    Outcome outcome;
    const Reply reply = routes_.handle(req.method, req.target, content_type, req.body, route, outcome);
    ++counters_.requests[static_cast<int>(Wire::zap)][static_cast<int>(route)];
    ++counters_.outcomes[static_cast<int>(outcome)];
    const net::zaphttp::Header ct{"Content-Type", reply.content_type};
    net::zaphttp::ResponseSpec spec;
    spec.status = static_cast<std::uint16_t>(reply.status);
    spec.headers = {&ct, 1};
    spec.body = reply.body;
    zap_out_.append_frame(spec, c->out);
    c->in.consume(4 + std::size_t{s.message_bytes});
    c->head_since_ms = 0;
    return true;
  }

  // One write for everything ready; EPOLLOUT only while something is left.
  void flush(Connection* c) {
    for (;;) {
      bool blocked = false;
      while (!c->out.empty()) {
        const auto data = c->out.readable();
        const ssize_t n = send(c->fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n > 0) {
          c->out.consume(static_cast<std::size_t>(n));
          c->last_active_ms = now_;
          continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
          blocked = true;
          break;
        }
        if (n < 0 && errno == EINTR) continue;
        error(ErrorKind::io);
        return destroy(c);
      }
      // The client read enough: answer what was held back at the cap.
      if (!c->held || c->out.size() >= kMaxPendingOutBytes) break;
      process(c);
      if (blocked) break;
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
    if (want != c->events) {
      c->events = want;
      epoll_event e{};
      e.events = want;
      e.data.ptr = c;
      epoll_ctl(epoll_, EPOLL_CTL_MOD, c->fd, &e);
    }
  }

  void check_timeouts() {
    for (Connection* c = conns_; c != nullptr;) {
      Connection* next = c->next;
      const bool head_late =
          c->head_since_ms != 0 && now_ - c->head_since_ms > config_.limits.header_timeout_ms && !c->closing;
      const bool idle = now_ - c->last_active_ms > config_.limits.idle_timeout_ms;
      if ((!head_late && !idle) || unread_waiting(c)) {  // in time, or not read yet by this loop
        c = next;
        continue;
      }
      if (head_late) {
        error(ErrorKind::header_timeout);
        if (c->wire == Wire::http)
          net::http::write_response(c->out, 408, "Request Timeout", "text/plain; charset=utf-8",
                                    "request head or body not complete in time", true, date_);
        c->closing = true;
        c->in.clear();
        flush(c);
      } else {
        error(ErrorKind::idle_timeout);
        destroy(c);
      }
      c = next;
    }
  }

  // After stop: no new connections; answer what was read, flush for a bounded
  // grace period, then close everything.
  void drain() {
    // The wake eventfd stays readable after stop(): left in epoll it would make
    // every wait below return at once and the drain spin on its core.
    epoll_ctl(epoll_, EPOLL_CTL_DEL, wake_, nullptr);
    for (auto& l : listeners_) close(l->fd);
    listeners_.clear();
    for (Connection* c = conns_; c != nullptr;) {
      Connection* next = c->next;
      process(c);
      c->closing = true;
      flush(c);
      c = next;
    }
    const std::int64_t deadline = now_ms() + kGraceMs;
    epoll_event events[256];
    while (conns_ != nullptr && now_ms() < deadline) {
      const int n = epoll_wait(epoll_, events, 256, 50);
      now_ = now_ms();
      for (int i = 0; i < n; ++i) {
        auto* p = static_cast<Pollable*>(events[i].data.ptr);
        if (p->kind == Pollable::Kind::connection) flush(static_cast<Connection*>(p));
      }
    }
  }

  // Bytes wait in the socket of a connection this loop wants to read: a long
  // batch of other events (a slow machine, clients flooding pipelined
  // requests) kept it from reading them. Neither timeout may close such a
  // connection; one that the loop stopped reading (held, closing) is judged
  // as usual. Asked only of a connection already past a timeout (a syscall).
  static bool unread_waiting(const Connection* c) {
    if ((c->events & EPOLLIN) == 0) return false;
    int unread = 0;
    return ioctl(c->fd, FIONREAD, &unread) == 0 && unread > 0;
  }

  // The Date header, formatted once a second, not per response.
  void refresh_date() {
    const std::time_t t = std::time(nullptr);
    if (t == date_time_) return;
    date_time_ = t;
    date_ = net::http::format_http_date(
        t, std::span<char, net::http::kHttpDateBytes>(date_buf_, net::http::kHttpDateBytes));
  }

  static constexpr std::size_t kMaxPendingOutBytes = 4 * 1024 * 1024;
  // What a closing connection may still make us read (and drop) while its
  // last answers wait to be sent: enough for the requests a client had
  // pipelined behind the one that closed it, so it sees our answer rather
  // than a reset; not a sink a client can fill at line rate until the idle
  // timeout (found by tests/server/hostile_test.cpp on a slow machine, where a
  // never-reader was closed by the header timeout and then sent 150 MiB).
  static constexpr std::uint32_t kMaxDiscardBytes = 256 * 1024;
  static constexpr std::int64_t kGraceMs = 2000;

  const Config& config_;
  std::atomic<std::size_t>& open_;
  int cpu_;
  Routes routes_;
  net::zaphttp::ResponseEncoder zap_out_;
  net::http::Limits http_limits_;
  int epoll_ = -1;
  int wake_ = -1;
  Pollable wake_tag_{Pollable::Kind::wake};
  std::vector<std::unique_ptr<Listener>> listeners_;
  Connection* conns_ = nullptr;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::int64_t now_ = 0;
  Counters counters_;
  char error_text_[128];
  char date_buf_[net::http::kHttpDateBytes];
  std::time_t date_time_ = 0;
  std::string_view date_;
};

// ---- the server -------------------------------------------------------------

Server::Server(Config config) : config_(std::move(config)) {
  if (config_.json == nullptr || !config_.json->available) throw std::runtime_error("no JSON codec");
  if (config_.http.empty() && config_.zap.empty()) throw std::runtime_error("nothing to listen on");
  if (config_.threads == 0) config_.threads = 1;
  for (unsigned t = 0; t < config_.threads; ++t) {
    const int cpu = config_.cpus.empty() ? -1 : config_.cpus[t % config_.cpus.size()];
    workers_.push_back(std::make_unique<Worker>(config_, open_connections_, cpu));
  }
  for (auto* list : {&config_.http, &config_.zap}) {
    const Wire w = list == &config_.http ? Wire::http : Wire::zap;
    for (Endpoint ep : *list) {
      for (auto& worker : workers_) {
        std::uint16_t port = 0;
        const int fd = listen_on(ep, port);
        ep.port = port;  // the other workers join the port the first one got
        worker->add_listener(fd, w);
      }
      bound_[static_cast<int>(w)].push_back(ep);
    }
  }
}

Server::~Server() {
  stop();
  for (auto& w : workers_) w->join();
}

void Server::run() {
  for (auto& w : workers_) w->start();
  for (auto& w : workers_) w->join();
}

void Server::stop() {
  for (auto& w : workers_) w->stop();
}

Counters Server::counters() const {
  Counters total;
  for (const auto& w : workers_) total.add(w->counters());
  return total;
}

}  // namespace server
