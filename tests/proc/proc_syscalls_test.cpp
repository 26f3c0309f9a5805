// tests/proc/proc_syscalls_test.cpp — proc::SyscallCounter (proc/syscalls.hpp)
// on a forked child told through a pipe to make N system calls: counted
// after it made them, not before, on its main thread and on another; a
// thread started after opening refuses the count. Skipped where perf or
// tracefs is unavailable (CI containers).
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

void make_the_calls() {
  for (int i = 0; i < kCalls; ++i) ::syscall(SYS_getppid);  // the raw call: never cached by libc
}

// A child told through a pipe what to do, answering a byte on another when
// done: 's' starts a second thread, 'c' makes kCalls getppid calls, 't' has
// that thread make them. It exits at the end of its commands.
class CallingChild {
 public:
  CallingChild() {
    int go[2], done[2];
    if (::pipe(go) != 0 || ::pipe(done) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(go[1]);
      ::close(done[0]);
      int work[2], worked[2];  // to the second thread and back
      if (::pipe(work) != 0 || ::pipe(worked) != 0) ::_exit(1);
      std::thread second;
      for (char b; ::read(go[0], &b, 1) == 1;) {
        if (b == 's') {
          second = std::thread([&] {
            for (char w; ::read(work[0], &w, 1) == 1;) {
              make_the_calls();
              if (::write(worked[1], &w, 1) != 1) break;
            }
          });
        } else if (b == 'c') {
          make_the_calls();
        } else if (b == 't' && (::write(work[1], &b, 1) != 1 || ::read(worked[0], &b, 1) != 1)) {
          break;
        }
        if (::write(done[1], &b, 1) != 1) break;
      }
      ::_exit(0);  // the second thread with it
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
  // Tells it `command` and waits until it has done it.
  void tell(char command) const {
    ASSERT_EQ(::write(go_, &command, 1), 1);
    ASSERT_EQ(::read(done_, &command, 1), 1);
  }

 private:
  pid_t pid_ = -1;
  int go_ = -1, done_ = -1;
};

// Opens the counter on the child after `before` (commands), reads it, tells
// it `counted`, reads again: counted >= kCalls after, fewer before.
void counts_the_calls(const std::string& before, char counted) {
  CallingChild child;
  for (const char c : before) child.tell(c);
  proc::SyscallCounter counter(child.pid());
  if (!counter.unavailable().empty()) GTEST_SKIP() << counter.unavailable();
  std::string error;
  const std::optional<std::uint64_t> first = counter.read(&error);
  ASSERT_TRUE(first) << error;
  EXPECT_LT(*first, std::uint64_t(kCalls));  // blocked in its read all along
  child.tell(counted);
  const std::optional<std::uint64_t> then = counter.read(&error);
  ASSERT_TRUE(then) << error;
  EXPECT_GE(*then, *first + kCalls);
}

TEST(ProcSyscallCounter, CountsTheCallsOfTheProcess) { counts_the_calls("", 'c'); }

TEST(ProcSyscallCounter, CountsEveryThreadOfIt) { counts_the_calls("s", 't'); }

// A thread started after the counter opened has no counter: the count is refused, never short.
TEST(ProcSyscallCounter, AThreadStartedSinceOpeningRefusesTheCount) {
  CallingChild child;
  proc::SyscallCounter counter(child.pid());
  if (!counter.unavailable().empty()) GTEST_SKIP() << counter.unavailable();
  child.tell('s');
  std::string error;
  EXPECT_FALSE(counter.read(&error));
  EXPECT_TRUE(error.ends_with("started after counting began: not counted")) << error;
}

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
