// micro/request_path_bench.cpp — Server/<framing>/<body>: the server's
// per-request cost without the kernel (micro/request_path.hpp). One op is a
// batch of 16 pipelined requests; the time, allocations and bytes are
// reported per request (KeepRunningBatch: an iteration is a request), so the row reads beside Handler/<codec>
// (the codec's share) and the end-to-end server CPU per request (the kernel's share).
#include <benchmark/benchmark.h>

#include "micro/counters.hpp"
#include "micro/request_path.hpp"

namespace micro {
namespace {

void bm_request_path(benchmark::State& state, const PathCase& c) {
  RequestPath path(c);
  if (const std::string why = path.check(); !why.empty()) return state.SkipWithError(why.c_str());
  AllocMeter meter(state);
  // An iteration is a request: each pass answers a batch and counts 16.
  while (state.KeepRunningBatch(RequestPath::kBatchRequests)) {
    path.run_batch();
    benchmark::ClobberMemory();
  }
  meter.report(path.request_bytes() + path.response_bytes());
  const std::string why = path.check();  // the path still answers right after the timed batches
  if (!why.empty()) return state.SkipWithError(why.c_str());
}

const bool registered = [] {
  for (const PathCase& c : path_cases())
    benchmark::RegisterBenchmark(c.name().c_str(), [c](benchmark::State& s) { bm_request_path(s, c); });
  return true;
}();

}  // namespace
}  // namespace micro
