// proc/syscalls.hpp — counts the system calls of another process on this
// machine: one perf counter of the raw_syscalls:sys_enter tracepoint per
// thread of it (and of its descendants: nginx's workers), summed. What `perf
// stat -e raw_syscalls:sys_enter -p PID` counts (scripts/bench-io.sh), for
// `zapbench run`'s server syscalls per request. Not a hot path.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace proc {

class SyscallCounter {
 public:
  // Opens the counters on every thread of `pid` and of its descendants now;
  // counting starts here. A thread that starts later is not counted: read()
  // then says so rather than give a short count (one that starts and ends
  // between opening and read() goes unseen). Never throws: where it cannot count (no tracefs,
  // perf_event_paranoid, a container's seccomp, the process gone),
  // unavailable() says why.
  explicit SyscallCounter(pid_t pid);
  ~SyscallCounter();
  SyscallCounter(const SyscallCounter&) = delete;
  SyscallCounter& operator=(const SyscallCounter&) = delete;

  // Empty when counting; otherwise one line saying why not.
  [[nodiscard]] const std::string& unavailable() const { return unavailable_; }
  // The system calls since the counter was opened; nullopt (and error, when
  // given, set) when unavailable, a read fails or a thread started since.
  [[nodiscard]] std::optional<std::uint64_t> read(std::string* error = nullptr) const;

 private:
  pid_t pid_;
  std::set<pid_t> threads_;  // every thread a counter was opened on (or that ended before)
  std::vector<int> fds_;
  std::string unavailable_;
};

}  // namespace proc
