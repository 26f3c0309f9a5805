// calibrate/ping_pong.cpp — ping_pong() (calibrate.hpp): one TCP connection over loopback between an
// echo thread and a client thread, each pinned, with its own latency histogram and its own socket
// code: none of the product's (net, load, server) is used, so no change to them can move it.
//
// The protocol. The calling thread makes the connection (listen on 127.0.0.1:0, connect, accept) and
// starts two threads, which pin themselves and meet at a latch (if either cannot pin, both return).
// The server reads what is there and writes it all back, until the client's end. The client sends
// `depth` messages of message_bytes, then each time one whole answer has arrived (answers come back
// in order: the k-th answer is complete when k × message_bytes bytes have arrived) it records that
// message's latency (CLOCK_MONOTONIC, its send to the read that completed it) and sends the next, one
// write per message. The warm-up is not recorded; the answer that arrives first after it opens the
// window, and the first one at least duration_s later closes it: the round trips are the answers
// after the opening one up to the closing one, over the time between the two. Then the client shuts
// its side down, reads the answers still in flight (they must add up to what it sent) and the
// server's end.
//
// CPU over the window. The client reads its thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) at both
// edges, right as it handles the answer that opens or closes the window, and publishes each edge
// through an atomic phase before it sends its next message. The server reads its own CPU clock the
// first time it sees a phase change, at the return of its next read. At depth 1 it is then blocked in
// exactly that read: its window starts as it wakes with the first message sent after the opening edge,
// and ends as it wakes for the client's shut-down after the closing edge — each edge one wake-up late,
// by the same kind of step, so the two cancel to within one of the server's loop turns (a read and a
// write, a few µs of CPU) in a window of thousands of round trips: a fraction of a per cent at 0.25 s.
// At depth 16 the server may be in mid-turn when an edge is published; each edge is then late by at
// most one turn, and again the two mostly cancel. The thread CPU clock counts the kernel's work in the
// thread's system calls too; on loopback that includes the receiving side's TCP processing, which runs
// in the sender's context, so each side's figure holds part of the other's receive path: their sum is
// the round trip's whole CPU.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <latch>
#include <system_error>
#include <thread>
#include <utility>

#include "calibrate/calibrate.hpp"

namespace calibrate {
namespace {

std::int64_t mono_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t thread_cpu_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// strerror_r's GNU form (thread-safe, unlike strerror): the two threads may fail at once.
std::string errno_text(int e) {
  char buf[128];
  return strerror_r(e, buf, sizeof buf);
}

// "who: what: reason", or "who: what timed out after N s" for a socket timeout.
std::string io_error(const char* who, const char* what, int e) {
  if (e == EAGAIN || e == EWOULDBLOCK)
    return std::string(who) + ": " + what + " timed out after " + std::to_string(kIoTimeoutS) + " s";
  return std::string(who) + ": " + what + ": " + errno_text(e);
}

std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';  // appends: GCC 12 -O3 sees a false -Wrestrict in "," + string
    s += std::to_string(c);
  }
  return s;
}

// One descriptor, closed once, on every path.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd& operator=(Fd&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// Latencies in ns, log-linear: one counter per ns below 128, then 128 counters per power of two, so a
// percentile read as its bucket's middle is within 1/256 of the true value. 7,424 counters (58 KiB),
// allocated and zeroed before the warm-up: recording never allocates nor faults a page in.
class Histogram {
 public:
  Histogram() : counts_(kSub + (64 - kSubBits) * kSub, 0) {}
  void record(std::int64_t ns) noexcept {
    ++counts_[index(std::uint64_t(std::max<std::int64_t>(ns, 0)))];
    ++total_;
  }
  // The q-quantile (0 < q <= 1): the middle of the bucket holding the ceil(q × total)-th value.
  double quantile_ns(double q) const noexcept {
    const std::uint64_t rank = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(q * double(total_))));
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < counts_.size(); ++i) {
      seen += counts_[i];
      if (seen >= rank) return middle(i);
    }
    return 0;
  }

 private:
  static constexpr int kSubBits = 7;
  static constexpr std::size_t kSub = std::size_t(1) << kSubBits;
  static std::size_t index(std::uint64_t v) noexcept {
    if (v < kSub) return std::size_t(v);
    const int shift = (63 - __builtin_clzll(v)) - kSubBits;  // v in [kSub, 2 kSub) << shift
    return kSub + std::size_t(shift) * kSub + std::size_t((v >> shift) - kSub);
  }
  static double middle(std::size_t i) noexcept {
    if (i < kSub) return double(i) + 0.5;
    const std::size_t shift = (i - kSub) / kSub, sub = (i - kSub) % kSub;
    return std::ldexp(double(kSub + sub) + 0.5, int(shift));
  }
  std::vector<std::uint64_t> counts_;
  std::uint64_t total_ = 0;
};

// What both threads share: the start latch and the window's phase.
struct Shared {
  std::latch started{2};           // both threads pinned (or failed to), or the start given up
  std::atomic<bool> abort{false};  // set before arriving: a thread could not pin, or never started
  std::atomic<int> phase{0};       // kWarmup, then kWindow, then kClosed: published by the client
};
constexpr int kWarmup = 0, kWindow = 1, kClosed = 2;

// What one thread found: its error, its CPU clock at the window's edges.
struct Side {
  std::string error;
  std::int64_t cpu_start_ns = -1, cpu_end_ns = -1;
};

// Pins the calling thread to `cpus` (empty: left alone); the error, or "".
std::string pin(const char* who, const std::vector<int>& cpus) {
  if (cpus.empty()) return "";
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);  // each below CPU_SETSIZE (check_options)
  const int e = pthread_setaffinity_np(pthread_self(), sizeof set, &set);
  if (e == 0) return "";
  return std::string(who) + ": cannot pin to CPU " + cpu_list_text(cpus) + ": " + errno_text(e) +
         (e == EINVAL ? " (not a CPU this process may use)" : "");
}

// Pins, then waits at the latch for the other thread; false when either could not start.
bool start(Shared& sh, Side& me, const char* who, const std::vector<int>& cpus) {
  me.error = pin(who, cpus);
  if (!me.error.empty()) sh.abort.store(true);
  sh.started.arrive_and_wait();
  return !sh.abort.load();
}

ssize_t read_some(int fd, char* buf, std::size_t n) {
  for (;;) {
    const ssize_t r = recv(fd, buf, n, 0);
    if (r >= 0 || errno != EINTR) return r;
  }
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t r = send(fd, p, n, MSG_NOSIGNAL);  // a peer gone is an error here, not SIGPIPE
    if (r < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += r;
    n -= std::size_t(r);
  }
  return true;
}

std::string check_options(const PingPongOptions& o) {
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  for (const auto& [who, cpus] : {std::pair{"server", &o.server_cpus}, std::pair{"client", &o.client_cpus}})
    for (int c : *cpus)
      if (c < 0 || c >= CPU_SETSIZE || (configured > 0 && c >= configured))
        return std::string(who) + " CPU " + std::to_string(c) +
               " does not exist (this machine's CPUs are 0-" +
               std::to_string(configured > 0 ? configured - 1 : CPU_SETSIZE - 1) + ")";
  if (o.depth < 1 || o.depth > kMaxDepth)
    return "depth " + std::to_string(o.depth) + " is not within 1.." + std::to_string(kMaxDepth);
  if (o.message_bytes < 1 || std::size_t(o.depth) * o.message_bytes > kMaxInFlightBytes)
    return "depth " + std::to_string(o.depth) + " x " + std::to_string(o.message_bytes) +
           " bytes is not within 1.." + std::to_string(kMaxInFlightBytes) +
           " bytes in flight (more could fill both directions' socket buffers)";
  if (!(o.duration_s > 0) || !std::isfinite(o.duration_s))
    return "the window (duration_s) must be a time > 0";
  if (!(o.warmup_s >= 0) || !std::isfinite(o.warmup_s)) return "the warm-up (warmup_s) must be a time >= 0";
  return "";
}

std::string set_options(int fd, const char* who) {
  const int one = 1;
  const timeval timeout{kIoTimeoutS, 0};
  if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
    return std::string(who) + ": setsockopt TCP_NODELAY: " + errno_text(errno);
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0 ||
      setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout) != 0)
    return std::string(who) + ": setsockopt SO_RCVTIMEO/SO_SNDTIMEO: " + errno_text(errno);
  return "";
}

// The connection, made in the calling thread: listen on an ephemeral port of 127.0.0.1, connect,
// accept (both ends ready before either thread starts); the listener is closed on return.
std::string connect_loopback(Fd& client, Fd& server) {
  Fd listener(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!listener.ok()) return "socket: " + errno_text(errno);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listener.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
    return "bind 127.0.0.1:0: " + errno_text(errno);
  if (listen(listener.get(), 1) != 0) return "listen: " + errno_text(errno);
  socklen_t len = sizeof addr;
  if (getsockname(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    return "getsockname: " + errno_text(errno);
  const std::string where = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));

  client = Fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!client.ok()) return "socket: " + errno_text(errno);
  if (std::string e = set_options(client.get(), "client"); !e.empty()) return e;  // connect obeys SO_SNDTIMEO
  if (connect(client.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0)
    return io_error("client", ("connect " + where).c_str(), errno);
  pollfd p{listener.get(), POLLIN, 0};
  const int ready = poll(&p, 1, kIoTimeoutS * 1000);
  if (ready < 0) return "poll for accept: " + errno_text(errno);
  if (ready == 0)
    return "accept on " + where + ": no connection within " + std::to_string(kIoTimeoutS) + " s";
  server = Fd(accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
  if (!server.ok()) return "accept on " + where + ": " + errno_text(errno);
  return set_options(server.get(), "server");
}

// The echo: what is there, written back, until the client's end.
void serve(int fd, const PingPongOptions& o, std::vector<char>& buf, Shared& sh, Side& me) {
  if (!start(sh, me, "server thread", o.server_cpus)) return;
  int seen = kWarmup;
  for (;;) {
    const ssize_t n = read_some(fd, buf.data(), buf.size());
    const int read_errno = errno;
    // The window's edges, read the first time this thread sees each (how exact: the top comment).
    if (const int phase = sh.phase.load(std::memory_order_acquire); phase != seen) {
      const std::int64_t now = thread_cpu_ns();
      if (seen == kWarmup) me.cpu_start_ns = now;
      if (phase == kClosed) me.cpu_end_ns = now;
      seen = phase;
    }
    if (n == 0) break;  // the client's end
    if (n < 0) {
      me.error = io_error("server", "read", read_errno);
      break;
    }
    if (!write_all(fd, buf.data(), std::size_t(n))) {
      me.error = io_error("server", "write", errno);
      break;
    }
  }
  // Our end for the client: its drain ends on it; after an error its next call fails at once.
  shutdown(fd, me.error.empty() ? SHUT_WR : SHUT_RDWR);
}

// What the client counts, besides its Side.
struct Window {
  std::uint64_t round_trips = 0;
  std::int64_t start_ns = 0, end_ns = 0;
};

// The buffers the client needs, allocated by the calling thread before the threads start.
struct ClientBuffers {
  std::vector<char> message, in;
  std::vector<std::int64_t> sent_ns;  // the send time of message k, at k % depth
  Histogram latency;
};

void drive_loop(int fd, const PingPongOptions& o, ClientBuffers& b, Shared& sh, Side& me, Window& w) {
  const std::size_t bytes = o.message_bytes;
  const std::int64_t warmup_end_ns = mono_ns() + std::int64_t(o.warmup_s * 1e9);
  const auto duration_ns = std::int64_t(o.duration_s * 1e9);
  std::uint64_t sent = 0, answered = 0, received_bytes = 0;
  const auto send_next = [&]() {
    b.sent_ns[sent % o.depth] = mono_ns();
    if (!write_all(fd, b.message.data(), bytes)) return false;
    ++sent;
    return true;
  };
  for (unsigned i = 0; i < o.depth; ++i)
    if (!send_next()) {
      me.error = io_error("client", "write", errno);
      return;
    }
  for (int phase = kWarmup; phase != kClosed;) {
    const ssize_t n =
        read_some(fd, b.in.data(), std::min<std::uint64_t>(b.in.size(), sent * bytes - received_bytes));
    if (n <= 0) {
      me.error = n == 0 ? "client: the echo server closed the connection" : io_error("client", "read", errno);
      return;
    }
    received_bytes += std::uint64_t(n);
    const std::int64_t now = mono_ns();
    while (received_bytes >= (answered + 1) * bytes) {
      const std::int64_t latency_ns = now - b.sent_ns[answered % o.depth];
      ++answered;
      if (phase == kWarmup) {
        if (now >= warmup_end_ns) {  // this answer opens the window
          w.start_ns = now;
          me.cpu_start_ns = thread_cpu_ns();
          sh.phase.store(phase = kWindow, std::memory_order_release);
        }
      } else {
        b.latency.record(latency_ns);
        ++w.round_trips;
        if (now - w.start_ns >= duration_ns) {  // this one closes it
          w.end_ns = now;
          me.cpu_end_ns = thread_cpu_ns();
          sh.phase.store(phase = kClosed, std::memory_order_release);
          break;
        }
      }
      if (!send_next()) {
        me.error = io_error("client", "write", errno);
        return;
      }
    }
  }
  // The end: the answers still in flight, exactly, then the server's end.
  if (shutdown(fd, SHUT_WR) != 0) {
    me.error = "client: shutdown: " + errno_text(errno);
    return;
  }
  for (;;) {
    const ssize_t n = read_some(fd, b.in.data(), b.in.size());
    if (n < 0) {
      me.error = io_error("client", "read at the end", errno);
      return;
    }
    if (n == 0) break;
    received_bytes += std::uint64_t(n);
  }
  if (received_bytes != sent * bytes)
    me.error = "client: " + std::to_string(received_bytes) + " bytes echoed for " +
               std::to_string(sent * bytes) + " sent";
}

void drive(int fd, const PingPongOptions& o, ClientBuffers& b, Shared& sh, Side& me, Window& w) {
  if (!start(sh, me, "client thread", o.client_cpus)) return;
  drive_loop(fd, o, b, sh, me, w);
  // After an error, the server's next read returns at once instead of waiting for its timeout.
  if (!me.error.empty()) shutdown(fd, SHUT_RDWR);
}

}  // namespace

PingPongResult ping_pong(const PingPongOptions& o) {
  PingPongResult r;
  if (r.error = check_options(o); !r.error.empty()) return r;
  Fd client, server;
  if (r.error = connect_loopback(client, server); !r.error.empty()) return r;

  // Every allocation before the threads start: nothing in them allocates but an error's text.
  std::vector<char> echo_buffer(kMaxInFlightBytes);
  ClientBuffers buffers;
  buffers.message.assign(o.message_bytes, 'z');
  buffers.in.assign(std::size_t(o.depth) * o.message_bytes, 0);
  buffers.sent_ns.assign(o.depth, 0);
  Shared sh;
  Side server_side, client_side;
  Window window;

  std::thread server_thread, client_thread;
  try {
    server_thread = std::thread(serve, server.get(), std::cref(o), std::ref(echo_buffer), std::ref(sh),
                                std::ref(server_side));
    client_thread = std::thread(drive, client.get(), std::cref(o), std::ref(buffers), std::ref(sh),
                                std::ref(client_side), std::ref(window));
  } catch (const std::system_error& e) {
    // The server thread, if it started, waits at the latch for the client: arrive for the client,
    // with the start given up.
    if (server_thread.joinable()) {
      sh.abort.store(true);
      sh.started.count_down();
      server_thread.join();
    }
    r.error = std::string("cannot start a thread: ") + e.what();
    return r;
  }
  client_thread.join();
  server_thread.join();

  for (const std::string* e : {&server_side.error, &client_side.error})
    if (!e->empty()) r.error += (r.error.empty() ? "" : "; ") + *e;
  if (!r.error.empty()) return r;
  if (window.round_trips == 0) {
    r.error = "no round trip completed in the window";
    return r;
  }
  if (server_side.cpu_start_ns < 0 || server_side.cpu_end_ns < 0) {
    r.error = "server thread: never saw the window's edges";
    return r;
  }
  const double n = double(window.round_trips);
  r.round_trips = window.round_trips;
  r.window_s = double(window.end_ns - window.start_ns) / 1e9;
  r.round_trips_per_s = r.window_s > 0 ? n / r.window_s : 0;
  r.p50_ns = buffers.latency.quantile_ns(0.50);
  r.p99_ns = buffers.latency.quantile_ns(0.99);
  r.server_cpu_ns_per_round_trip = double(server_side.cpu_end_ns - server_side.cpu_start_ns) / n;
  r.client_cpu_ns_per_round_trip = double(client_side.cpu_end_ns - client_side.cpu_start_ns) / n;
  r.ok = true;
  return r;
}

}  // namespace calibrate
