// server/floor.cpp — the floor arm's handler on the event core
// (net/loop.hpp). One FloorWorker per pinned thread: its own loop and
// SO_REUSEPORT listener, its own connections. Per read batch a connection
// counts the bytes, answers the requests they complete by copying the
// constant response into its output buffer (the same copy the real server
// makes of its encoded response) while that holds less than the output cap,
// as the real server does (the rest are owed and answered as it drains), and
// sends once (the loop's flush). The floor echo is the one wire here, so
// nothing is chosen per connection; the loop (epoll or io_uring) is chosen
// once per process, as the server's.
#include "server/floor.hpp"

#include <sys/epoll.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "net/buffer.hpp"
#include "net/connection.hpp"
#include "net/epoll_loop.hpp"
#include "net/loop.hpp"
#include "net/pool.hpp"
#include "net/uring_loop.hpp"

namespace server {

namespace {

// Past this many unsent bytes a connection stops reading until the peer reads
// its responses, so a client that only writes cannot grow it without bound.
constexpr std::size_t kMaxPendingOutBytes = 4 * 1024 * 1024;
// Bytes read per read(): the payload is only counted, so one scratch area per
// thread serves every connection (a connection's own input buffer stays empty).
constexpr std::size_t kReadChunkBytes = 64 * 1024;

struct FloorConn : net::Connection {
  FloorConn() : net::Connection(0, 4 * 1024) {}
  std::size_t partial_bytes = 0;  // bytes of the request not yet complete
  std::size_t owed = 0;           // complete requests not answered yet: held at the output cap
  bool peer_closed = false;
};

}  // namespace

// What the floor asks of a worker, whichever loop it runs on.
class AnyFloorWorker {
 public:
  virtual ~AnyFloorWorker() = default;
  virtual void run() = 0;
  virtual void stop() noexcept = 0;
  virtual void add_to(Floor::Counters& c) const = 0;
};

namespace {

template <class L>
class FloorWorker final : public AnyFloorWorker {
 public:
  FloorWorker(const Floor::Config& config, int listen_fd)
      : config_(config), listener_(listen_fd, 0), response_(config.response_bytes) {
    // listener_ owns the socket from here on, also when the loop cannot be made.
    // The constant response: what the bytes are does not matter, only how many.
    std::uint8_t* p = response_.prepare(config.response_bytes);
    for (std::size_t i = 0; i < config.response_bytes; ++i) p[i] = static_cast<std::uint8_t>('a' + i % 26);
    response_.commit(config.response_bytes);
    loop_.add(listen_fd, EPOLLIN, &listener_);
  }
  ~FloorWorker() override {
    conns_.for_each([this](FloorConn* c) { destroy(c); });
    loop_.release_pending([](net::Connection& c) { delete static_cast<FloorConn*>(&c); });
  }

  void stop() noexcept override { loop_.stop(); }
  void add_to(Floor::Counters& c) const override {
    c.connections += connections_.get();
    c.requests += requests_.get();
    c.bytes_received += bytes_received_.get();
    c.bytes_sent += bytes_sent_.get();
    c.io_errors += io_errors_.get();
  }

  // On the worker's thread (net::Pool): serve until stop(), then one last
  // try at what is queued, and close (no grace: the floor's answers carry no
  // state worth waiting for).
  void run() override {
    loop_.run(*this, -1);
    conns_.for_each([this](FloorConn* c) {
      [[maybe_unused]] const net::FlushResult f = loop_.flush(*c);
      destroy(c);
    });
  }

  // ---- the loop's handler ----
  int wait_ms() const { return -1; }  // nothing periodic: only events
  void on_event(net::Pollable& p, std::uint32_t events) {
    if (p.kind == net::Pollable::Kind::listener) return accept();
    auto* c = static_cast<FloorConn*>(&p);
    if (events & (EPOLLIN | EPOLLHUP | EPOLLERR))
      on_readable(c);
    else
      flush(c);
  }
  void on_tick() {}
  // A closed connection's last completion came (UringLoop): it may go.
  void on_closed(net::Connection& c) { delete static_cast<FloorConn*>(&c); }

 private:
  void accept() {
    net::accept_all(
        listener_, nullptr,
        [&](int fd) {
          auto* c = new FloorConn;  // per connection, never per request
          c->fd = fd;
          c->events = EPOLLIN;
          if (!loop_.try_add(fd, c->events, c)) {
            io_errors_.add(1);
            ::close(fd);
            delete c;
            return;
          }
          conns_.push(c);
          connections_.add(1);
        },
        [] {});
  }

  void destroy(FloorConn* c) {
    conns_.remove(c);
    if (loop_.close(*c)) delete c;  // else on_closed() does, once the kernel let go of it
  }

  // Reads what is there, answers every request it completes, sends once.
  void on_readable(FloorConn* c) {
    for (;;) {
      const net::ReadResult r = loop_.discard(*c, scratch_, sizeof scratch_);
      if (r.status == net::ReadResult::Status::data) {
        bytes_received_.add(r.bytes);
        answer(c, r.bytes);
        if (r.bytes < sizeof scratch_) break;             // drained for now
        if (c->out.size() >= kMaxPendingOutBytes) break;  // flush() stops reading
        continue;
      }
      if (r.status == net::ReadResult::Status::eof) {
        c->peer_closed = true;
      } else if (r.status == net::ReadResult::Status::failed) {
        io_errors_.add(1);
        return destroy(c);
      }
      break;
    }
    flush(c);
  }

  // n more bytes arrived: one response per request they complete.
  void answer(FloorConn* c, std::size_t n) {
    const std::size_t total = c->partial_bytes + n;
    c->owed += total / config_.request_bytes;
    c->partial_bytes = total % config_.request_bytes;
    pay(c);
  }

  // Answers owed requests while the output holds less than the cap, as the
  // real server answers held requests (server/request_path.cpp): with answers
  // of megabytes, answering a whole pipelined batch at once would make the
  // floor buffer tens of MB the real server never holds, and copy them again
  // as the buffer grows — a floor below the arms it should bound.
  void pay(FloorConn* c) {
    const auto resp = response_.readable();
    std::size_t paid = 0;
    for (; c->owed > 0 && c->out.size() < kMaxPendingOutBytes; --c->owed, ++paid)
      c->out.append(resp.data(), resp.size());
    requests_.add(paid);
  }

  // Everything ready goes out (the loop's flush), and what was owed at the cap as
  // it drains; EPOLLOUT only while something is left.
  void flush(FloorConn* c) {
    for (;;) {
      const net::FlushResult f = loop_.flush(*c);
      bytes_sent_.add(f.sent_bytes);
      if (f.status == net::FlushResult::Status::failed) {
        if (!c->peer_closed) io_errors_.add(1);  // answering a peer that left is not an error
        return destroy(c);
      }
      if (c->owed == 0 || c->out.size() >= kMaxPendingOutBytes) break;
      pay(c);
      if (f.status == net::FlushResult::Status::blocked) break;
    }
    if (c->peer_closed && c->out.empty() && c->owed == 0) return destroy(c);
    // Stop reading while the peer does not read its responses; after its
    // close only wait to write (a level-triggered EOF would fire forever).
    std::uint32_t want = 0;
    if (!c->out.empty()) want |= EPOLLOUT;
    if (!c->peer_closed && c->owed == 0 && c->out.size() < kMaxPendingOutBytes) want |= EPOLLIN;
    loop_.set_interest(*c, want);
  }

  const Floor::Config& config_;
  net::Listener listener_;  // before loop_: it owns the socket even if the loop throws
  L loop_;
  net::Buffer response_;  // the constant response, response_bytes long
  net::ConnectionList<FloorConn> conns_;
  net::Counter connections_, requests_, bytes_received_, bytes_sent_, io_errors_;
  std::uint8_t scratch_[kReadChunkBytes];
};

}  // namespace

Floor::Floor(Config config)
    : config_(std::move(config)), pool_(std::make_unique<net::Pool<AnyFloorWorker>>()) {
  if (config_.request_bytes == 0 || config_.response_bytes == 0)
    throw std::runtime_error("floor: request and response byte counts must both be at least 1");
  if (config_.threads == 0) config_.threads = 1;
  bound_ = config_.listen;
  for (unsigned t = 0; t < config_.threads; ++t) {
    std::uint16_t port = 0;
    const int fd = listen_on(bound_, port);
    bound_.port = port;                 // the other workers join the port the first one got
    std::unique_ptr<AnyFloorWorker> w;  // owns fd
    if (config_.io == net::Io::io_uring)
      w = std::make_unique<FloorWorker<net::UringLoop>>(config_, fd);
    else
      w = std::make_unique<FloorWorker<net::EpollLoop>>(config_, fd);
    pool_->add(std::move(w), net::cpu_for(config_.cpus, t));
  }
}

Floor::~Floor() = default;  // the pool stops and joins its workers

void Floor::run() {
  pool_->start();
  pool_->join();
}

void Floor::stop() { pool_->stop(); }

Floor::Counters Floor::counters() const {
  Counters total;
  pool_->for_each([&](const AnyFloorWorker& w) { w.add_to(total); });
  return total;
}

}  // namespace server
