// tests/support/await.hpp — how every suite waits: for an event, never for a time.
// A wait polls its condition until it holds or a deadline passes; the
// deadline is generous (kHang) so it fails only on a real hang, never on a
// slow or busy machine (a sanitizer build, other work on both CPUs, one CPU
// for everything). Each caller says what it awaited, so the failure names it.
// The load engine's counterpart is background_load.hpp.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace zaptest {

// Far beyond anything a working program needs on any machine the suite runs on.
inline constexpr std::chrono::milliseconds kHang{60'000};
// The same bound in seconds, for the APIs that take seconds (bench::Child's waits).
inline constexpr double kHangS = std::chrono::duration<double>(kHang).count();

// Polls done() every millisecond until it returns true (true) or `limit`
// passes (false). done() is always evaluated once more after the deadline,
// so a condition that became true meanwhile still counts.
template <class Done>
bool await(Done&& done, std::chrono::milliseconds limit = kHang) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= end) return done();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace zaptest
