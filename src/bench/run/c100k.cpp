// bench/run/c100k.cpp — the c100k scenario (c100k.hpp): the server as a
// child, the N connections opened and held here, the measures from /proc
// before and with them held, the sample as a `zapbench load` child, and the
// end: every connection closed, the server's descriptors back, the limits
// restored.
#include "bench/run/c100k.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench/children/load_command.hpp"
#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "load/engine.hpp"
#include "proc/interrupt.hpp"
#include "proc/io.hpp"
#include "proc/usage.hpp"
#include "record/registry.hpp"

namespace bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double since_s(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The number after `key` ("": right after the prefix) on the first line of `path` that starts with
// `line_prefix`; 0 when none.
std::uint64_t proc_number(const char* path, const std::string& line_prefix, const std::string& key) {
  std::ifstream f(path);
  std::string line;
  while (std::getline(f, line)) {
    if (!line.starts_with(line_prefix)) continue;
    const std::size_t at = line.find(key, line_prefix.size());
    if (at == std::string::npos) return 0;
    return std::strtoull(line.c_str() + at + key.size(), nullptr, 10);
  }
  return 0;
}

std::string one_line(const char* path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  for (char& ch : s)
    if (ch == '\t') ch = ' ';
  return s;
}

struct KernelMemory {
  std::uint64_t sockets = 0, tcp_mem_pages = 0, slab_kib = 0;
};
KernelMemory kernel_memory() {
  return {proc_number("/proc/net/sockstat", "sockets:", "used "),
          proc_number("/proc/net/sockstat", "TCP:", " mem "), proc_number("/proc/meminfo", "Slab:", "")};
}

std::string rlimit_text(const rlimit& r) {
  auto one = [](rlim_t v) { return v == RLIM_INFINITY ? std::string("unlimited") : std::to_string(v); };
  return one(r.rlim_cur) + "/" + one(r.rlim_max);
}

// This process's RLIMIT_NOFILE as it was: set back however the scenario ends.
class FdLimit {
 public:
  FdLimit() { ::getrlimit(RLIMIT_NOFILE, &old_); }
  ~FdLimit() { ::setrlimit(RLIMIT_NOFILE, &old_); }
  FdLimit(const FdLimit&) = delete;
  FdLimit& operator=(const FdLimit&) = delete;
  [[nodiscard]] const rlimit& old() const { return old_; }

 private:
  rlimit old_{};
};

// This thread on the loader CPUs while it connects and holds (the connecting
// side is this process); its affinity as it was afterwards, however it ends.
class Pinned {
 public:
  explicit Pinned(const std::vector<int>& cpus) {
    if (cpus.empty() || ::sched_getaffinity(0, sizeof old_, &old_) != 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (const int c : cpus) CPU_SET(c, &set);
    pinned_ = ::sched_setaffinity(0, sizeof set, &set) == 0;
  }
  ~Pinned() {
    if (pinned_) ::sched_setaffinity(0, sizeof old_, &old_);
  }
  Pinned(const Pinned&) = delete;
  Pinned& operator=(const Pinned&) = delete;

 private:
  cpu_set_t old_{};
  bool pinned_ = false;
};

// The held connections: closed however the scenario ends.
struct Held {
  std::vector<int> fds;
  int epoll = -1;
  ~Held() { close_all(); }
  void close_all() {
    for (const int fd : fds) ::close(fd);
    fds.clear();
    if (epoll >= 0) ::close(epoll);
    epoll = -1;
  }
};

// The limit an errno of socket(), bind() or connect() is, named with its value; "" when it is none.
std::string limit_of(int err, std::uint64_t sources) {
  rlimit r{};
  ::getrlimit(RLIMIT_NOFILE, &r);
  switch (err) {
    case EMFILE:
      return "descriptors (RLIMIT_NOFILE " + rlimit_text(r) + ")";
    case ENFILE:
      return "descriptors (fs.file-max " + one_line("/proc/sys/fs/file-max") + ")";
    case EADDRNOTAVAIL:
    case EADDRINUSE:
      return "ephemeral ports (net.ipv4.ip_local_port_range " +
             one_line("/proc/sys/net/ipv4/ip_local_port_range") + " x " + std::to_string(sources) +
             " source addresses)";
    case ENOBUFS:
    case ENOMEM:
      return std::string("memory (") + std::strerror(err) + ", net.ipv4.tcp_mem " +
             one_line("/proc/sys/net/ipv4/tcp_mem") + ")";
    default:
      return "";
  }
}

// Opens o.connections connections to 127.0.0.1:port, up to kWindow
// connecting at once, until all are established, a limit is hit or the
// deadline passes. Fills c.reached, c.connect_s, c.limit or c.error.
// At most `max_fds` of them: past it the descriptor limit is reached (named
// as such) with room left for the rest of the scenario.
void connect_all(const C100kOptions& o, std::uint16_t port, std::uint64_t max_fds, Held& held,
                 report::C100k& c, Clock::time_point t0) {
  constexpr unsigned kWindow = 256;
  const std::uint64_t sources =
      o.sources != 0
          ? o.sources
          : std::max<std::uint64_t>(1, (o.connections + kConnectionsPerSource - 1) / kConnectionsPerSource);
  held.epoll = ::epoll_create1(EPOLL_CLOEXEC);
  if (held.epoll < 0) {
    c.error = std::string("epoll_create1: ") + std::strerror(errno);
    return;
  }
  held.fds.reserve(o.connections);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(port);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::uint64_t next = 0;
  unsigned connecting = 0;
  bool stopped = false;
  // A failure: a limit (named) stops the connecting, anything else is an error.
  auto failed = [&](int err, const char* what) {
    stopped = true;
    if (!c.limit.empty() || !c.error.empty()) return;
    c.limit = limit_of(err, sources);
    if (c.limit.empty()) c.error = std::string(what) + ": " + std::strerror(err);
  };
  const auto deadline = t0 + std::chrono::duration<double>(o.deadline_s);
  epoll_event events[kWindow];
  while (true) {
    while (!stopped && connecting < kWindow && next < o.connections) {
      if (held.fds.size() + connecting >= max_fds) {
        failed(EMFILE, "socket");
        break;
      }
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
      if (fd < 0) {
        failed(errno, "socket");
        break;
      }
      const int one = 1;
      ::setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
      sockaddr_in from{};
      from.sin_family = AF_INET;
      from.sin_addr.s_addr = htonl(INADDR_LOOPBACK + 1 + std::uint32_t(next % sources));  // 127.0.0.2 on
      if (::bind(fd, reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) {
        const int err = errno;
        ::close(fd);
        failed(err, "bind");
        break;
      }
      ++next;
      if (::connect(fd, reinterpret_cast<const sockaddr*>(&to), sizeof to) == 0) {
        held.fds.push_back(fd);
        continue;
      }
      if (errno != EINPROGRESS) {
        const int err = errno;
        ::close(fd);
        failed(err, "connect");
        break;
      }
      epoll_event ev{};
      ev.events = EPOLLOUT;
      ev.data.fd = fd;
      if (::epoll_ctl(held.epoll, EPOLL_CTL_ADD, fd, &ev) != 0) {
        const int err = errno;
        ::close(fd);
        failed(err, "epoll_ctl");
        break;
      }
      ++connecting;
    }
    if (connecting == 0) break;
    if (Clock::now() > deadline) {
      c.error = "connecting: deadline of " + std::to_string(int(o.deadline_s)) + " s passed with " +
                std::to_string(connecting) + " connects pending";
      break;
    }
    proc::throw_if_interrupted();
    const int n = ::epoll_wait(held.epoll, events, kWindow, 100);
    for (int k = 0; k < n; ++k) {
      const int fd = events[k].data.fd;
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      ::epoll_ctl(held.epoll, EPOLL_CTL_DEL, fd, nullptr);
      --connecting;
      if (err == 0) {
        held.fds.push_back(fd);
      } else {
        ::close(fd);
        failed(err, "connect");
      }
    }
  }
  c.connect_s = since_s(t0);
  c.reached = held.fds.size();
}

// Waits until the server holds `want` descriptors: the accept time. False
// when the count stopped growing for a while (a limit of the server's) or
// the deadline passed.
bool wait_server_fds(pid_t pid, long want, double deadline_s, bool at_least) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(deadline_s);
  long last = -2;
  auto last_change = Clock::now();
  while (Clock::now() < deadline) {
    const long n = proc::open_descriptors(pid);
    if (n < 0) return false;  // the server is gone
    if (at_least ? n >= want : n <= want) return true;
    if (n != last) {
      last = n;
      last_change = Clock::now();
    } else if (since_s(last_change) > 10) {
      return false;
    }
    proc::throw_if_interrupted();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

}  // namespace

std::string c100k_summary(const report::C100k& c) {
  std::string s = c.io + ": ";
  if (!c.limit.empty())
    s += "reached " + std::to_string(c.reached) + " of " + std::to_string(c.asked) + ": " + c.limit;
  else
    s += std::to_string(c.reached) + " of " + std::to_string(c.asked) + " held";
  if (!c.error.empty()) s += "; error: " + c.error;
  char buf[256];
  std::snprintf(buf, sizeof buf, "; accepted in %.2f s; %.0f B user + %.0f B kernel per connection",
                c.accept_s, c.user_bytes_per_connection, c.kernel_bytes_per_connection);
  s += buf;
  std::snprintf(buf, sizeof buf, "; sample: %llu answers, %llu errors, p99 %.0f us",
                (unsigned long long)c.sample_responses, (unsigned long long)c.sample_errors,
                c.sample_p99_ns / 1e3);
  s += buf;
  if (!c.all_closed) s += "; NOT every connection closed";
  if (c.fds_left != 0) s += "; " + std::to_string(c.fds_left) + " descriptors left open";
  return s;
}

bool c100k_ok(const report::C100k& c) {
  return c.limit.empty() && c.error.empty() && c.reached == c.asked && c.server_answered &&
         c.sample_errors == 0 && c.all_closed && c.fds_left == 0;
}

report::C100k run_c100k(const C100kOptions& o) {
  report::C100k c;
  c.io = std::string(matrix::to_string(o.io));
  c.asked = o.connections;
  c.hold_s = o.hold_s;
  c.sample_connections = o.sample_connections;
  c.sample_rate_per_s = o.sample_rate_per_s;
  const long own_fds_before = proc::open_descriptors();
  FdLimit limit_guard;
  const rlimit old = limit_guard.old();
  // Descriptors: the N, the sample's, and room for the rest of the process.
  const std::uint64_t need = o.connections + o.sample_connections + 1024;
  rlimit raised = old;
  if (raised.rlim_cur == RLIM_INFINITY || raised.rlim_cur < need) raised.rlim_cur = need;
  if (raised.rlim_max != RLIM_INFINITY && raised.rlim_max < need) raised.rlim_max = need;
  std::string refused;
  if (::setrlimit(RLIMIT_NOFILE, &raised) != 0) {  // not allowed past the hard limit: as far as it goes
    refused = " (" + std::to_string(need) + " refused: " + std::strerror(errno) +
              "; a hard limit is raised only with CAP_SYS_RESOURCE)";
    raised = old;
    raised.rlim_cur = old.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &raised);
  }
  ::getrlimit(RLIMIT_NOFILE, &raised);
  c.limits_changed =
      "RLIMIT_NOFILE (soft/hard) of this process and the server it starts: " + rlimit_text(old) + " -> " +
      rlimit_text(raised) + refused;

  const fs::path dir(o.dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string io(matrix::to_string(o.io));
  // The server: one worker on the server CPUs, room for every connection, no idle timeout within the run.
  const std::uint64_t max_connections = o.connections + o.sample_connections + 64;
  std::vector<std::string> server_argv = {
      o.zapbench,
      "serve",
      "--zap-rpc",
      "127.0.0.1:0",
      "--io",
      io,
      "--threads",
      "1",
      "--max-connections",
      std::to_string(max_connections),
      "--idle-timeout-ms",
      std::to_string(std::uint64_t(1000 * (o.hold_s + 4 * o.deadline_s)))};
  c.server_command = command_text(server_argv, o.server_cpus);
  Child server(
      ChildSpec{server_argv, o.server_cpus, (dir / ("c100k-" + io + ".server.log")).string(), true, {}});
  const std::vector<proc::ReadyListener> ready = server.wait_ready(o.deadline_s);
  if (ready.empty()) {
    c.error = "the server did not start (" + server.stop(5).describe() + "; see c100k-" + io + ".server.log)";
    return c;
  }
  const std::uint16_t port = ready.front().port;
  const pid_t server_pid = server.pid();
  // Its limit as ours (inherited), whatever the caller sets for the connecting side below.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the worker settled: its RSS as it idles
  const long server_fds_before = proc::open_descriptors(server_pid);
  c.server_rss_before_kib = proc::rss_kib(server_pid);
  const KernelMemory before = kernel_memory();
  c.sockets_before = before.sockets;
  c.tcp_mem_pages_before = before.tcp_mem_pages;
  c.slab_kib_before = before.slab_kib;
  if (o.fd_limit != 0) {  // the connecting side's own limit (a test's refusal)
    rlimit low = raised;
    low.rlim_cur = std::min<rlim_t>(o.fd_limit, raised.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &low);
    c.limits_changed += "; the connecting side's soft limit then " + std::to_string(low.rlim_cur);
  }

  const Pinned pinned(o.loader_cpus);
  Held held;
  const auto t0 = Clock::now();
  // Descriptors for the N: this process's limit and the server's (the same,
  // inherited), less what each has open and the sample's and the logs' room.
  rlimit mine{};
  ::getrlimit(RLIMIT_NOFILE, &mine);
  const std::uint64_t reserve = o.sample_connections + 128;
  const std::uint64_t own_open = std::uint64_t(std::max(0L, proc::open_descriptors())) + reserve;
  const std::uint64_t server_open = std::uint64_t(std::max(0L, server_fds_before)) + reserve;
  const std::uint64_t max_fds = std::min(mine.rlim_cur > own_open ? mine.rlim_cur - own_open : 0,
                                         raised.rlim_cur > server_open ? raised.rlim_cur - server_open : 0);
  connect_all(o, port, max_fds, held, c, t0);
  ::setrlimit(RLIMIT_NOFILE, &raised);  // the connecting is over: the logs and the sample need descriptors
  if (!wait_server_fds(server_pid, server_fds_before + long(c.reached), o.deadline_s, true)) {
    const long got = proc::open_descriptors(server_pid) - server_fds_before;
    if (c.error.empty())
      c.error = "the server accepted " + std::to_string(std::max(0L, got)) + " of " +
                std::to_string(c.reached) + " within the deadline (see c100k-" + io + ".server.log)";
  }
  c.accept_s = since_s(t0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // a tick of the server's: its memory settled
  c.server_rss_held_kib = proc::rss_kib(server_pid);
  const KernelMemory with = kernel_memory();
  c.sockets_held = with.sockets;
  c.tcp_mem_pages_held = with.tcp_mem_pages;
  c.slab_kib_held = with.slab_kib;
  if (c.reached > 0) {
    c.user_bytes_per_connection =
        (c.server_rss_held_kib - c.server_rss_before_kib) * 1024 / double(c.reached);
    const double kernel_kib = (double(with.slab_kib) - double(before.slab_kib)) +
                              (double(with.tcp_mem_pages) - double(before.tcp_mem_pages)) * 4;
    c.kernel_bytes_per_connection = kernel_kib * 1024 / double(c.reached);
  }

  // The sample: other connections of the same server, answered for hold_s with the N held.
  load::Options lo;
  lo.framing = matrix::Framing::zap_rpc;
  lo.scenario = matrix::Scenario::rpc;
  lo.body = record::find_codec("zap");
  lo.port = port;
  lo.connections = o.sample_connections;
  lo.threads = 1;
  lo.duration_s = o.hold_s;
  lo.warmup_s = 0.5;
  lo.rate_per_s = o.sample_rate_per_s;
  lo.timeout_ms = 5000;
  const fs::path json_out = dir / ("c100k-" + io + ".load.json");
  fs::remove(json_out, ec);
  const std::vector<std::string> load_argv_ = load_argv(o.zapbench, lo, json_out.string());
  c.loader_command = command_text(load_argv_, o.loader_cpus);
  {
    Child loader(
        ChildSpec{load_argv_, o.loader_cpus, (dir / ("c100k-" + io + ".load.log")).string(), false, {}});
    const ExitStatus st = loader.wait(lo.warmup_s + lo.duration_s + lo.timeout_ms / 1000.0 + o.deadline_s);
    if (!st.ok()) {
      if (c.error.empty())
        c.error = "the sample's loader failed (" + st.describe() + "; see c100k-" + io + ".load.log)";
    } else {
      try {
        const load::Result r = parse_load_result(proc::read_file(json_out)).result;
        c.sample_responses = r.responses;
        c.sample_errors = r.error_total();
        c.sample_p50_ns = double(r.latency.value_at_percentile(50));
        c.sample_p99_ns = double(r.latency.value_at_percentile(99));
        c.sample_max_ns = double(r.latency.max());
        c.server_answered = r.responses > 0;
      } catch (const std::exception& e) {
        if (c.error.empty()) c.error = std::string("the sample's result is unreadable: ") + e.what();
      }
    }
  }

  // The end: every connection closed, the server's descriptors back to before, the server stopped.
  held.close_all();
  c.all_closed = wait_server_fds(server_pid, server_fds_before, o.deadline_s, false);
  const ExitStatus st = server.stop(10);
  if (!st.ok() && c.error.empty()) c.error = "the server ended badly (" + st.describe() + ")";
  if (st.ended_before_stop && c.error.empty()) c.error = "the server ended before it was stopped";
  ::setrlimit(RLIMIT_NOFILE, &old);
  c.limits_changed += "; restored to " + rlimit_text(old) + " at the end; no sysctl changed";
  c.fds_left = int(proc::open_descriptors() - own_fds_before);
  return c;
}

}  // namespace bench
