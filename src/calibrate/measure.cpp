// calibrate/measure.cpp — measure_work() (calibrate.hpp): each work of work.cpp timed on the calling
// thread's CPU clock, for `zapbench calibrate`. Its own translation unit, as the micro rows are: the
// work is called, never inlined, so both time the same machine code.
#include <time.h>

#include "calibrate/calibrate.hpp"

namespace calibrate {
namespace {

double thread_cpu_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

// Repeats `op` (one op per call) until `min_time_s` of this thread's CPU time has passed, in batches
// that double, so the clock is read about log2(ops) times; ns per op.
template <class Op>
double ns_per_op(double min_time_s, Op op) {
  const double start_ns = thread_cpu_ns();
  std::uint64_t ops = 0;
  for (std::uint64_t batch = 1;; batch *= 2) {
    for (std::uint64_t i = 0; i < batch; ++i) op();
    ops += batch;
    const double elapsed_ns = thread_cpu_ns() - start_ns;
    if (elapsed_ns >= min_time_s * 1e9) return elapsed_ns / double(ops);
  }
}

}  // namespace

WorkFigures measure_work(double min_time_s) {
  WorkFigures f;
  std::uint64_t x = 1;
  f.spin_ns_per_op = ns_per_op(min_time_s, [&] { x = spin(x, kSpinStepsPerOp); });
  const Copy small(kCopySmallBytes), large(kCopyLargeBytes);
  f.memcpy_4kib_ns_per_op = ns_per_op(min_time_s, [&] { small.run(); });
  f.memcpy_1mib_ns_per_op = ns_per_op(min_time_s, [&] { large.run(); });
  const Chase chase(kChaseBytes);  // its lines written by the constructor
  std::uint32_t at = 0;
  f.chase_16mib_ns_per_op = ns_per_op(min_time_s, [&] { at = chase.walk(at, kChaseStepsPerOp); });
  // The results are used: a compiler that proved them dead could drop the calls.
  volatile std::uint64_t sink = x + at + small.to()[0] + large.to()[kCopyLargeBytes - 1];
  (void)sink;
  return f;
}

}  // namespace calibrate
