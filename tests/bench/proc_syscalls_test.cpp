// tests/bench/proc_syscalls_test.cpp — proc::SyscallCounter (proc/syscalls.hpp)
// on a forked child told through a pipe to make N system calls: counted
// after it made them, not before; on a thread started after the counter was
// opened too. Skipped where perf or tracefs is unavailable (CI containers).
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "proc/syscalls.hpp"

namespace {

constexpr int kCalls = 1000;

// A child that, for every byte read from `go`, makes kCalls getppid calls
// (on a new thread when `on_thread`) and answers a byte on `done`; it exits
// at the end of `go`.
class CallingChild {
 public:
  explicit CallingChild(bool on_thread) {
    int go[2], done[2];
    if (::pipe(go) != 0 || ::pipe(done) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(go[1]);
      ::close(done[0]);
      char b;
      while (::read(go[0], &b, 1) == 1) {
        auto calls = [] {
          for (int i = 0; i < kCalls; ++i) ::syscall(SYS_getppid);  // the raw call: never cached by libc
        };
        if (on_thread)
          std::thread(calls).join();
        else
          calls();
        if (::write(done[1], &b, 1) != 1) break;
      }
      ::_exit(0);
    }
    ::close(go[0]);
    ::close(done[1]);
    go_ = go[1];
    done_ = done[0];
  }
  ~CallingChild() {
    ::close(go_);
    ::close(done_);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  [[nodiscard]] pid_t pid() const { return pid_; }
  // Tells it to make its calls and waits until it has.
  void make_calls() const {
    char b = 'x';
    ASSERT_EQ(::write(go_, &b, 1), 1);
    ASSERT_EQ(::read(done_, &b, 1), 1);
  }

 private:
  pid_t pid_ = -1;
  int go_ = -1, done_ = -1;
};

void counts_the_calls(bool on_thread) {
  CallingChild child(on_thread);
  proc::SyscallCounter counter(child.pid());
  if (!counter.unavailable().empty()) GTEST_SKIP() << counter.unavailable();
  std::string error;
  const std::optional<std::uint64_t> before = counter.read(&error);
  ASSERT_TRUE(before) << error;
  EXPECT_LT(*before, std::uint64_t(kCalls));  // blocked in its read all along
  child.make_calls();
  const std::optional<std::uint64_t> after = counter.read(&error);
  ASSERT_TRUE(after) << error;
  EXPECT_GE(*after, *before + kCalls);
}

TEST(ProcSyscallCounter, CountsTheCallsOfTheProcess) { counts_the_calls(false); }

TEST(ProcSyscallCounter, CountsAThreadStartedAfterOpening) { counts_the_calls(true); }

TEST(ProcSyscallCounter, NoProcessIsUnavailableNotAnError) {
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  int status = 0;
  ::waitpid(gone, &status, 0);
  proc::SyscallCounter counter(gone);  // reaped: no such process any more
  EXPECT_FALSE(counter.unavailable().empty());
  std::string error;
  EXPECT_FALSE(counter.read(&error));
  EXPECT_EQ(error, counter.unavailable());
}

}  // namespace
