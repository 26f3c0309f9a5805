// net/clock.hpp — the event core's two clocks. The loader times latencies
// with the fine monotonic clock (now_ns); the server judges its timeouts with
// the coarse one (coarse_now_ms), read per event by the loops (net/loop.hpp). Owns no state.
#pragma once

#include <cstdint>
#include <ctime>

namespace net {

inline constexpr std::int64_t kNsPerMs = 1'000'000;
inline constexpr std::int64_t kNsPerS = 1'000'000'000;

// CLOCK_MONOTONIC in ns: a latency's resolution.
inline std::int64_t now_ns() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::int64_t{ts.tv_sec} * kNsPerS + ts.tv_nsec;
}

// The timeouts' clock: CLOCK_MONOTONIC_COARSE costs a few ns (no timer read)
// at a resolution of a few ms, far finer than any timeout, so the loop can
// read it per event rather than once per epoll_wait.
inline std::int64_t coarse_now_ms() noexcept {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return std::int64_t{ts.tv_sec} * 1000 + ts.tv_nsec / kNsPerMs;
}

}  // namespace net
