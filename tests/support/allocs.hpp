// tests/support/allocs.hpp — what a server's threads allocate while this thread, its client, drives it:
// every allocation of the process (micro/alloc_counter.hpp; the test is built with COUNT_ALLOCS) that
// this thread did not make. One helper for the server, ZAP-RPC and floor steady-state checks.
#pragma once

#include <cstdint>

#include "micro/alloc_counter.hpp"

namespace zaptest {

// Runs round() warm_rounds times (buffers reach their size), then rounds times, and returns the
// allocations the other threads made during the second part.
template <class Round>
std::uint64_t allocations_elsewhere(Round&& round, int warm_rounds, int rounds) {
  for (int i = 0; i < warm_rounds; ++i) round();
  const std::uint64_t before = micro::alloc_count().allocs;
  const std::uint64_t client_before = micro::thread_alloc_count().allocs;
  for (int i = 0; i < rounds; ++i) round();
  const std::uint64_t during = micro::alloc_count().allocs - before;
  const std::uint64_t client_allocs = micro::thread_alloc_count().allocs - client_before;
  return during - client_allocs;
}

}  // namespace zaptest
