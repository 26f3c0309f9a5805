// server/floor.cpp — the floor arm's event loops. One FloorWorker per thread:
// its own epoll instance and SO_REUSEPORT listener, its own connections. Per
// read batch a connection counts the bytes, answers every request they
// complete by copying the constant response into its output buffer (the same
// copy the real server makes of its encoded response), and sends once.
#include "server/floor.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <thread>

#include "net/affinity.hpp"
#include "net/buffer.hpp"

namespace server {

namespace {

// One writer (the worker), any readers (counters() from another thread): a
// relaxed load+store is a plain add on the hot path, unlike fetch_add's
// locked instruction, and still no data race.
void bump(std::atomic<std::uint64_t>& c, std::uint64_t n) {
  c.store(c.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
}

// Past this many unsent bytes a connection stops reading until the peer reads
// its responses, so a client that only writes cannot grow it without bound.
constexpr std::size_t kMaxPendingOutBytes = 4 * 1024 * 1024;
// Bytes read per read(): the payload is only counted, so one scratch area per
// thread serves every connection.
constexpr std::size_t kReadChunkBytes = 64 * 1024;

struct FloorConn {
  bool wake = false;  // the stop eventfd's tag has wake = true; connections false
  int fd = -1;
  std::size_t partial_bytes = 0;  // bytes of the request not yet complete
  net::Buffer out{4 * 1024};      // responses not yet sent; reused for the connection's life
  std::uint32_t events = 0;       // the epoll interest set now
  bool peer_closed = false;
  FloorConn* prev = nullptr;  // the worker's list of open connections
  FloorConn* next = nullptr;
};

}  // namespace

class FloorWorker {
 public:
  FloorWorker(const Floor::Config& config, int listen_fd, int cpu)
      : config_(config), listen_fd_(listen_fd), cpu_(cpu), response_(config.response_bytes) {
    // The constant response: what the bytes are does not matter, only how many.
    std::uint8_t* p = response_.prepare(config.response_bytes);
    for (std::size_t i = 0; i < config.response_bytes; ++i) p[i] = static_cast<std::uint8_t>('a' + i % 26);
    response_.commit(config.response_bytes);
    epoll_ = epoll_create1(EPOLL_CLOEXEC);
    wake_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (epoll_ < 0 || wake_ < 0) fail("epoll/eventfd");
    wake_tag_.wake = true;
    add(wake_, EPOLLIN, &wake_tag_);
    add(listen_fd_, EPOLLIN, nullptr);  // the listener is the one registration without a tag
  }
  ~FloorWorker() {
    join();
    while (conns_ != nullptr) destroy(conns_);
    close(listen_fd_);
    close(wake_);
    close(epoll_);
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
  void add_to(Floor::Counters& c) const {
    c.connections += connections_.load(std::memory_order_relaxed);
    c.requests += requests_.load(std::memory_order_relaxed);
    c.bytes_received += bytes_received_.load(std::memory_order_relaxed);
    c.bytes_sent += bytes_sent_.load(std::memory_order_relaxed);
    c.io_errors += io_errors_.load(std::memory_order_relaxed);
  }

 private:
  void add(int fd, std::uint32_t ev, void* tag) {
    epoll_event e{};
    e.events = ev;
    e.data.ptr = tag;
    if (epoll_ctl(epoll_, EPOLL_CTL_ADD, fd, &e) != 0) fail("epoll_ctl");
  }

  void run() {
    net::pin_this_thread(cpu_);
    epoll_event events[256];
    while (!stop_.load(std::memory_order_acquire)) {
      const int n = epoll_wait(epoll_, events, 256, -1);
      for (int i = 0; i < n; ++i) {
        auto* c = static_cast<FloorConn*>(events[i].data.ptr);
        if (c == nullptr) {
          accept_all();
        } else if (!c->wake) {
          if (events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
            on_readable(c);
          else
            flush(c);
        }
      }
    }
    // Stopped: one last try at what is queued, then close (no grace: the
    // floor's answers carry no state worth waiting for).
    while (conns_ != nullptr) {
      FloorConn* c = conns_;
      if (!c->out.empty()) {
        [[maybe_unused]] const ssize_t n = send(c->fd, c->out.readable().data(), c->out.size(), MSG_NOSIGNAL);
      }
      destroy(c);
    }
  }

  void accept_all() {
    for (;;) {
      const int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) return;  // EAGAIN, or a transient error: the next event retries
      const int one = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      auto* c = new FloorConn;  // per connection, never per request
      c->fd = fd;
      c->events = EPOLLIN;
      add(fd, c->events, c);
      c->next = conns_;
      if (conns_ != nullptr) conns_->prev = c;
      conns_ = c;
      bump(connections_, 1);
    }
  }

  void destroy(FloorConn* c) {
    if (c->prev != nullptr)
      c->prev->next = c->next;
    else
      conns_ = c->next;
    if (c->next != nullptr) c->next->prev = c->prev;
    close(c->fd);  // also removes it from epoll
    delete c;
  }

  // Reads what is there, answers every request it completes, sends once.
  void on_readable(FloorConn* c) {
    for (;;) {
      const ssize_t n = read(c->fd, scratch_, sizeof scratch_);
      if (n > 0) {
        bump(bytes_received_, static_cast<std::uint64_t>(n));
        answer(c, static_cast<std::size_t>(n));
        if (static_cast<std::size_t>(n) < sizeof scratch_) break;  // drained for now
        if (c->out.size() >= kMaxPendingOutBytes) break;           // flush() stops reading
        continue;
      }
      if (n == 0) {
        c->peer_closed = true;
      } else if (errno == EINTR) {
        continue;
      } else if (errno != EAGAIN && errno != EWOULDBLOCK) {
        bump(io_errors_, 1);
        return destroy(c);
      }
      break;
    }
    flush(c);
  }

  // n more bytes arrived: one response per request they complete.
  void answer(FloorConn* c, std::size_t n) {
    const std::size_t total = c->partial_bytes + n;
    const std::size_t complete = total / config_.request_bytes;
    c->partial_bytes = total % config_.request_bytes;
    const auto resp = response_.readable();
    for (std::size_t i = 0; i < complete; ++i) c->out.append(resp.data(), resp.size());
    bump(requests_, complete);
  }

  // One send for everything ready; EPOLLOUT only while something is left.
  void flush(FloorConn* c) {
    while (!c->out.empty()) {
      const auto data = c->out.readable();
      const ssize_t n = send(c->fd, data.data(), data.size(), MSG_NOSIGNAL);
      if (n > 0) {
        bump(bytes_sent_, static_cast<std::uint64_t>(n));
        c->out.consume(static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      if (n < 0 && errno == EINTR) continue;
      if (!c->peer_closed) bump(io_errors_, 1);  // answering a peer that left is not an error
      return destroy(c);
    }
    if (c->peer_closed && c->out.empty()) return destroy(c);
    // Stop reading while the peer does not read its responses; after its
    // close only wait to write (a level-triggered EOF would fire forever).
    std::uint32_t want = 0;
    if (!c->out.empty()) want |= EPOLLOUT;
    if (!c->peer_closed && c->out.size() < kMaxPendingOutBytes) want |= EPOLLIN;
    if (want != c->events) {
      c->events = want;
      epoll_event e{};
      e.events = want;
      e.data.ptr = c;
      epoll_ctl(epoll_, EPOLL_CTL_MOD, c->fd, &e);
    }
  }

  const Floor::Config& config_;
  int listen_fd_;
  int cpu_;
  net::Buffer response_;  // the constant response, response_bytes long
  int epoll_ = -1;
  int wake_ = -1;
  FloorConn wake_tag_;
  FloorConn* conns_ = nullptr;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> connections_{0}, requests_{0}, bytes_received_{0}, bytes_sent_{0}, io_errors_{0};
  std::uint8_t scratch_[kReadChunkBytes];
};

Floor::Floor(Config config) : config_(std::move(config)) {
  if (config_.request_bytes == 0 || config_.response_bytes == 0)
    throw std::runtime_error("floor: request and response byte counts must both be at least 1");
  if (config_.threads == 0) config_.threads = 1;
  bound_ = config_.listen;
  for (unsigned t = 0; t < config_.threads; ++t) {
    std::uint16_t port = 0;
    const int fd = listen_on(bound_, port);
    bound_.port = port;  // the other workers join the port the first one got
    const int cpu = config_.cpus.empty() ? -1 : config_.cpus[t % config_.cpus.size()];
    try {
      workers_.push_back(std::make_unique<FloorWorker>(config_, fd, cpu));
    } catch (...) {
      close(fd);
      throw;
    }
  }
}

Floor::~Floor() {
  stop();
  for (auto& w : workers_) w->join();
}

void Floor::run() {
  for (auto& w : workers_) w->start();
  for (auto& w : workers_) w->join();
}

void Floor::stop() {
  for (auto& w : workers_) w->stop();
}

Floor::Counters Floor::counters() const {
  Counters total;
  for (const auto& w : workers_) w->add_to(total);
  return total;
}

}  // namespace server
