// proc/stop_signals.hpp — SIGINT/SIGTERM as a graceful stop for the long-running
// servers (`zapbench serve`, `zapbench floor`, `zapbench-grpc serve`): the signals are blocked in
// every thread and taken by one thread, which calls the server's stop(); the
// event loops never see a signal (no EINTR, no async-signal-safety concerns).
#pragma once

#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <thread>

namespace proc {

class StopSignals {
 public:
  // Call before any thread starts: threads inherit the blocked mask. Also
  // ignores SIGPIPE (a peer's reset shows as EPIPE on send instead).
  StopSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
  }

  // Starts the thread that waits for SIGINT or SIGTERM, says so on stderr as
  // "<who>: <signal>, stopping", and calls stop(). Join it after the server's
  // run() has returned (which only stop() makes it do).
  std::thread on_signal(const char* who, std::function<void()> stop) const {
    return std::thread([set = set_, who, stop = std::move(stop)] {
      int sig = 0;
      sigwait(&set, &sig);
      std::fprintf(stderr, "%s: %s, stopping\n", who, strsignal(sig));
      stop();
    });
  }

 private:
  sigset_t set_;
};

}  // namespace proc
