// micro/counters.hpp — the per-operation counters every zapbench benchmark
// reports beside its time: heap allocations and bytes allocated per op (from
// the counting operator new) and wire bytes per op.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>

#include "micro/alloc_counter.hpp"

namespace micro {

// Snapshot at construction (just before the timed loop), report after it:
// the difference is divided by the iteration count.
class AllocMeter {
 public:
  explicit AllocMeter(benchmark::State& state) : state_(state), start_(alloc_count()) {}
  void report(std::size_t wire_bytes_per_op) {
    const AllocCount end = alloc_count();
    using C = benchmark::Counter;
    state_.counters["allocs/op"] = C(static_cast<double>(end.allocs - start_.allocs), C::kAvgIterations);
    state_.counters["alloc_bytes/op"] = C(static_cast<double>(end.bytes - start_.bytes), C::kAvgIterations);
    state_.counters["wire_bytes"] = C(static_cast<double>(wire_bytes_per_op));
  }

 private:
  benchmark::State& state_;
  AllocCount start_;
};

}  // namespace micro
