// micro/alloc_counter.hpp — heap allocation counts for benchmarks. The counting
// global operator new/delete live in alloc_counter.cpp, which replaces the
// global ones in whatever binary links it (zapbench). Counts are process-wide.
#pragma once

#include <cstdint>

namespace micro {

struct AllocCount {
  std::uint64_t allocs = 0;
  std::uint64_t bytes = 0;
};

// A snapshot of every allocation made through operator new so far.
AllocCount alloc_count() noexcept;
// The same, made by the calling thread only (to tell a test's client side
// from the server threads it drives).
AllocCount thread_alloc_count() noexcept;

}  // namespace micro
