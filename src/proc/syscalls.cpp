// proc/syscalls.cpp — the system-call counter (syscalls.hpp): the tracepoint's
// id from tracefs, one perf_event_open per thread.
#include "proc/syscalls.hpp"

#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

namespace proc {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTracefs = "/sys/kernel/tracing";
constexpr const char* kIdFiles[] = {"/sys/kernel/tracing/events/raw_syscalls/sys_enter/id",
                                    "/sys/kernel/debug/tracing/events/raw_syscalls/sys_enter/id"};

// The tracepoint's id, or -1 with `why` set. tracefs is not mounted here
// when nothing mounted it since boot: a benchmark does not change the
// machine's mounts, so the reason says how to (perf mounts it on first use).
long long tracepoint_id(std::string& why) {
  for (const char* path : kIdFiles) {
    std::ifstream in(path);
    long long id = -1;
    if (in && in >> id && id >= 0) return id;
  }
  std::error_code ec;
  if (fs::is_directory(kTracefs, ec) && fs::is_empty(kTracefs, ec)) {
    why = std::string("tracefs is not mounted (as root: mount -t tracefs nodev ") + kTracefs + ")";
    return -1;
  }
  why = "no raw_syscalls:sys_enter tracepoint in tracefs (" + std::string(kIdFiles[0]) + ")";
  return -1;
}

// How long the threads' list must stay the same before counting is set up.
// Short: it is paid by every sample (a 10-minute quick run has ~900); a worker
// that starts later than this costs that sample its count, never its figures.
constexpr std::chrono::milliseconds kSettle{10};

// The threads of `pid` and of its descendants, through /proc/PID/task/TID/children.
void collect_threads(pid_t pid, std::vector<pid_t>& out, int depth) {
  std::error_code ec;
  const fs::path tasks = "/proc/" + std::to_string(pid) + "/task";
  for (const fs::directory_entry& e : fs::directory_iterator(tasks, ec)) {
    const pid_t tid = pid_t(std::atoi(e.path().filename().c_str()));
    if (tid <= 0) continue;
    out.push_back(tid);
    if (depth > 8) continue;  // a bound, not a tree anyone runs: a server and its workers
    std::ifstream children(e.path() / "children");
    for (pid_t child; children >> child;) collect_threads(child, out, depth + 1);
  }
}

}  // namespace

SyscallCounter::SyscallCounter(pid_t pid) : pid_(pid) {
  const long long id = tracepoint_id(unavailable_);
  if (id < 0) return;
  perf_event_attr attr{};
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_TRACEPOINT;
  attr.config = std::uint64_t(id);
  attr.exclude_hv = 1;
  // Not inherited: a thread started between a listing and its parent's
  // counter would then count twice or not at all, depending on which came
  // first. Instead, listed again until the list settles (below), and read()
  // refuses a count when a thread without a counter has appeared since.
  std::set<pid_t>& opened = threads_;
  auto quiet_since = std::chrono::steady_clock::now();
  for (int listing = 0; listing < 500 && unavailable_.empty(); ++listing) {
    std::vector<pid_t> threads;
    collect_threads(pid, threads, 0);
    if (threads.empty() && listing == 0) {
      unavailable_ = "no process " + std::to_string(pid) + " to count the system calls of";
      return;
    }
    bool fresh = false;
    for (const pid_t tid : threads) {
      if (!opened.insert(tid).second) continue;
      fresh = true;
      const long fd = ::syscall(SYS_perf_event_open, &attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
      if (fd >= 0) {
        fds_.push_back(int(fd));
        continue;
      }
      if (errno == ESRCH) continue;  // a thread that ended since it was listed
      const int err = errno;
      std::string paranoid;
      if (std::ifstream in("/proc/sys/kernel/perf_event_paranoid"); in >> paranoid)
        paranoid = ", perf_event_paranoid " + paranoid;
      unavailable_ =
          std::string("perf_event_open of raw_syscalls:sys_enter: ") + std::strerror(err) + paranoid;
      break;
    }
    // Settled when no thread appeared for kSettle: a server that said it is
    // ready may start its workers a moment later (zapbench's do), and is
    // idle until the load starts, so the wait costs the sample nothing.
    if (fresh)
      quiet_since = std::chrono::steady_clock::now();
    else if (std::chrono::steady_clock::now() - quiet_since >= kSettle)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (unavailable_.empty() && fds_.empty())
    unavailable_ = "every thread of " + std::to_string(pid) + " ended";
  if (!unavailable_.empty()) {
    for (const int fd : fds_) ::close(fd);
    fds_.clear();
  }
}

SyscallCounter::~SyscallCounter() {
  for (const int fd : fds_) ::close(fd);
}

std::optional<std::uint64_t> SyscallCounter::read(std::string* error) const {
  if (!unavailable_.empty()) {
    if (error) *error = unavailable_;
    return std::nullopt;
  }
  std::vector<pid_t> now;
  collect_threads(pid_, now, 0);
  for (const pid_t tid : now)
    if (!threads_.contains(tid)) {
      if (error) *error = "thread " + std::to_string(tid) + " started after counting began: not counted";
      return std::nullopt;
    }
  std::uint64_t sum = 0;
  for (const int fd : fds_) {
    std::uint64_t n = 0;
    if (::read(fd, &n, sizeof n) != ssize_t(sizeof n)) {
      if (error) *error = std::string("reading a syscall counter: ") + std::strerror(errno);
      return std::nullopt;
    }
    sum += n;
  }
  return sum;
}

}  // namespace proc
