// proc/interrupt.cpp — the interrupt's handler, flag and self-pipe (interrupt.hpp).
#include "proc/interrupt.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>

namespace proc {
namespace {

// Written by the handler: lock-free, so a store is async-signal-safe.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "g_signal is set from a signal handler");
int g_pipe[2] = {-1, -1};  // [0] polled, [1] written by the handler; both non-blocking

void on_interrupt(int signal) {
  const int saved_errno = errno;  // write() may change it under the interrupted code's feet
  int none = 0;
  g_signal.compare_exchange_strong(none, signal);  // the first signal is the one reported
  if (g_pipe[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = write(g_pipe[1], &byte, 1);  // a full pipe is readable already
  }
  errno = saved_errno;
}

}  // namespace

void catch_interrupts() {
  if (g_pipe[0] >= 0) return;
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;  // the flag alone still works
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
}

int interrupt_signal() noexcept { return g_signal.load(std::memory_order_relaxed); }

int interrupt_fd() noexcept { return g_pipe[0]; }

void throw_if_interrupted() {
  if (const int signal = interrupt_signal(); signal != 0) throw Interrupted{signal};
}

const char* signal_name(int signal) noexcept {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

void record_interrupt(int signal) noexcept { on_interrupt(signal); }

void clear_interrupt() noexcept {
  g_signal.store(0, std::memory_order_relaxed);
  char b[64];
  if (g_pipe[0] >= 0)
    while (read(g_pipe[0], b, sizeof b) > 0) {
    }
}

}  // namespace proc
