// micro/calibrate_bench.cpp — the calibration's rows (src/calibrate: no product code), run in every
// `zapbench micro` process beside the product's, so each round of a run measures the machine too:
//   Calibrate/spin          spin(x, kSpinStepsPerOp): an integer dependency chain (the core's clock)
//   Calibrate/memcpy-4KiB   copy of kCopySmallBytes (in L1)
//   Calibrate/memcpy-1MiB   copy of kCopyLargeBytes (L2 and beyond)
//   Calibrate/chase-16MiB   kChaseStepsPerOp dependent loads over kChaseBytes (memory latency)
// Each reports ns/op and allocations per op as every row does (none: the buffers are made before
// timing); wire_bytes is 0, these ops have no wire. The names are a file format: `zapbench run`'s
// micro filter and compare's machine shift find them by name.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "calibrate/calibrate.hpp"
#include "micro/counters.hpp"

namespace micro {
namespace {

void bm_spin(benchmark::State& state) {
  std::uint64_t x = 1;
  AllocMeter meter(state);
  for (auto _ : state) {
    x = calibrate::spin(x, calibrate::kSpinStepsPerOp);
    benchmark::DoNotOptimize(x);
  }
  meter.report(0);
}

void bm_memcpy(benchmark::State& state, std::size_t bytes) {
  const calibrate::Copy copy(bytes);  // page-aligned buffers, whatever ran before (calibrate.hpp)
  AllocMeter meter(state);
  for (auto _ : state) {
    copy.run();
    benchmark::ClobberMemory();  // the bytes written count as used
  }
  meter.report(0);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
}

void bm_chase(benchmark::State& state) {
  // One buffer per process (16 MiB, shuffled once), not one per run of the benchmark.
  static const calibrate::Chase chase(calibrate::kChaseBytes);
  std::uint32_t at = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    at = chase.walk(at, calibrate::kChaseStepsPerOp);
    benchmark::DoNotOptimize(at);
  }
  meter.report(0);
}

// Registered at static-initialisation time.
const bool registered = [] {
  benchmark::RegisterBenchmark("Calibrate/spin", bm_spin);
  benchmark::RegisterBenchmark("Calibrate/memcpy-4KiB", bm_memcpy, calibrate::kCopySmallBytes);
  benchmark::RegisterBenchmark("Calibrate/memcpy-1MiB", bm_memcpy, calibrate::kCopyLargeBytes);
  benchmark::RegisterBenchmark("Calibrate/chase-16MiB", bm_chase);
  return true;
}();

}  // namespace
}  // namespace micro
