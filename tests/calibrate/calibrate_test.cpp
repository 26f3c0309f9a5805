// tests/calibrate/calibrate_test.cpp — the calibration (src/calibrate): the ping-pong at depth 1 and 16
// completes round trips and gives every figure (never how large: no figure here is a time the test
// imposes); its errors name what failed and come back without a hang; no descriptor or thread is left
// behind, however a call ends, and calls repeat in one process; the work is fixed (spin's value pinned,
// the chase one cycle through every line); and its sources include nothing of the product. Every call
// runs under the hang bound of support/await.hpp.
#include "calibrate/calibrate.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "proc/machine.hpp"
#include "proc/usage.hpp"
#include "support/await.hpp"

namespace {

std::size_t entries(const char* dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}
std::size_t threads() { return entries("/proc/self/task"); }

// Short: these tests need round trips to have happened, not a precise figure.
calibrate::PingPongOptions short_run(unsigned depth) {
  const std::vector<int> cpus = proc::allowed_cpus();
  calibrate::PingPongOptions o;
  o.server_cpus = {cpus.front()};
  o.client_cpus = {cpus.back()};
  o.depth = depth;
  o.warmup_s = 0.01;
  o.duration_s = 0.05;
  return o;
}

// ping_pong on a thread of its own, awaited with the hang bound: a call that hangs fails the suite here,
// named, instead of at ctest's timeout.
calibrate::PingPongResult ping_pong(const calibrate::PingPongOptions& o, const std::string& what) {
  std::future<calibrate::PingPongResult> f =
      std::async(std::launch::async, [o] { return calibrate::ping_pong(o); });
  if (f.wait_for(zaptest::kHang) != std::future_status::ready) {
    std::fprintf(stderr, "FAILED: ping_pong (%s) did not return within %lld ms\n", what.c_str(),
                 static_cast<long long>(zaptest::kHang.count()));
    std::abort();  // the future's destructor would wait for the hung call
  }
  return f.get();
}

void expect_figures(const calibrate::PingPongResult& r) {
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_GT(r.round_trips, 0u);
  EXPECT_GT(r.window_s, 0);
  EXPECT_GT(r.round_trips_per_s, 0);
  EXPECT_GT(r.p50_ns, 0);
  EXPECT_GE(r.p99_ns, r.p50_ns);
  EXPECT_GT(r.server_cpu_ns_per_round_trip, 0);
  EXPECT_GT(r.client_cpu_ns_per_round_trip, 0);
}

TEST(calibrate_ping_pong, depth_1_and_16_complete_round_trips_with_every_figure) {
  for (unsigned depth : {1u, 16u}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    expect_figures(ping_pong(short_run(depth), "depth " + std::to_string(depth)));
  }
}

TEST(calibrate_ping_pong, runs_unpinned_too_and_with_large_messages) {
  calibrate::PingPongOptions o = short_run(4);
  o.server_cpus.clear();
  o.client_cpus.clear();
  o.message_bytes = 16 * 1024;  // 64 KiB in flight: the bound, each answer over several reads
  expect_figures(ping_pong(o, "unpinned, 4 x 16 KiB"));
}

TEST(calibrate_ping_pong, a_cpu_that_does_not_exist_is_named) {
  for (bool server : {true, false}) {
    calibrate::PingPongOptions o = short_run(1);
    (server ? o.server_cpus : o.client_cpus) = {4096};
    const calibrate::PingPongResult r = ping_pong(o, "CPU 4096");
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("4096"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find(server ? "server" : "client"), std::string::npos) << r.error;
  }
  // Below CPU_SETSIZE but past this machine's CPUs.
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  if (configured > 0 && configured < CPU_SETSIZE) {
    calibrate::PingPongOptions o = short_run(1);
    o.client_cpus = {int(configured)};
    const calibrate::PingPongResult r = ping_pong(o, "CPU " + std::to_string(configured));
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find("CPU " + std::to_string(configured) + " does not exist"), std::string::npos)
        << r.error;
  }
}

TEST(calibrate_ping_pong, a_cpu_this_process_may_not_use_is_named) {
  // Only where such a CPU exists (outside the cgroup's cpuset, or offline; an affinity mask is no bar:
  // a thread may widen its own): found by trying, on a thread of its own.
  const long configured = sysconf(_SC_NPROCESSORS_CONF);
  int barred = -1;
  std::thread([&] {
    for (int c = 0; c < configured && c < CPU_SETSIZE && barred < 0; ++c) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(c, &set);
      if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == EINVAL) barred = c;
    }
  }).join();
  if (barred < 0) GTEST_SKIP() << "this process may pin a thread to every CPU of the machine";
  calibrate::PingPongOptions o = short_run(1);
  o.server_cpus = {barred};
  const calibrate::PingPongResult r = ping_pong(o, "a barred CPU");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("server thread: cannot pin to CPU " + std::to_string(barred)), std::string::npos)
      << r.error;
}

TEST(calibrate_ping_pong, bad_options_are_refused_with_what_is_wrong) {
  struct Case {
    const char* name;
    void (*change)(calibrate::PingPongOptions&);
    const char* says;
  };
  const Case cases[] = {
      {"depth 0", [](calibrate::PingPongOptions& o) { o.depth = 0; }, "depth 0"},
      {"depth past the bound", [](calibrate::PingPongOptions& o) { o.depth = calibrate::kMaxDepth + 1; },
       "depth"},
      {"no bytes", [](calibrate::PingPongOptions& o) { o.message_bytes = 0; }, "bytes"},
      {"more in flight than the bound",
       [](calibrate::PingPongOptions& o) {
         o.depth = 16;
         o.message_bytes = 8192;
       },
       "in flight"},
      {"no window", [](calibrate::PingPongOptions& o) { o.duration_s = 0; }, "duration_s"},
      {"a window of NaN", [](calibrate::PingPongOptions& o) { o.duration_s = std::nan(""); }, "duration_s"},
      {"a negative warm-up", [](calibrate::PingPongOptions& o) { o.warmup_s = -1; }, "warmup_s"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    calibrate::PingPongOptions o = short_run(1);
    c.change(o);
    const calibrate::PingPongResult r = ping_pong(o, c.name);
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.error.find(c.says), std::string::npos) << r.error;
  }
}

TEST(calibrate_ping_pong, leaves_no_descriptor_or_thread_behind_and_repeats) {
  // The counts are taken after a first call: a runtime may start a thread of its own the first time
  // threads are made (TSan's background thread), which is not the call's.
  calibrate::PingPongOptions first = short_run(1);
  first.duration_s = 0.01;
  expect_figures(ping_pong(first, "the first call"));
  const long descriptors = proc::open_descriptors();
  const std::size_t tasks = threads();
  for (int i = 0; i < 3; ++i)
    for (unsigned depth : {1u, 16u}) {
      calibrate::PingPongOptions o = short_run(depth);
      o.duration_s = 0.01;
      expect_figures(ping_pong(o, "repeat " + std::to_string(i)));
    }
  calibrate::PingPongOptions o = short_run(1);
  o.server_cpus = {4096};
  EXPECT_FALSE(ping_pong(o, "CPU 4096").ok);
  EXPECT_EQ(proc::open_descriptors(), descriptors);
  // A joined thread's task may outlive the join by a moment: awaited, not sampled.
  EXPECT_TRUE(zaptest::await([&] { return threads() <= tasks; }))
      << threads() << " threads, " << tasks << " before: one was left running";
}

// ---- the work

TEST(calibrate_work, spin_is_deterministic_and_its_value_fixed) {
  EXPECT_EQ(calibrate::spin(42, 1000), calibrate::spin(42, 1000));
  EXPECT_NE(calibrate::spin(42, 1000), calibrate::spin(43, 1000));
  EXPECT_NE(calibrate::spin(0, 1), calibrate::spin(0, 2));
  // The chain itself: a change to spin changes what compare judges the machine by, so it bumps
  // calibrate::kVersion, and this value with it (the same chain in Python gives it too).
  EXPECT_EQ(calibrate::spin(1, calibrate::kSpinStepsPerOp), 0x8cbc986ed56cd882ull)
      << "spin's chain changed: bump calibrate::kVersion (now " << calibrate::kVersion << ") and this value";
}

TEST(calibrate_work, the_chase_is_one_cycle_through_every_line) {
  const calibrate::Chase chase(64 * 1024);
  ASSERT_EQ(chase.lines(), 64u * 1024 / 64);
  std::uint32_t at = 0;
  std::size_t steps = 0;
  do {
    at = chase.walk(at, 1);
    ++steps;
  } while (at != 0 && steps <= chase.lines());
  EXPECT_EQ(steps, chase.lines()) << "the walk came back to line 0 after " << steps << " steps";
  // The same cycle in every process and every chase of that size.
  const calibrate::Chase again(64 * 1024);
  EXPECT_EQ(chase.walk(0, 777), again.walk(0, 777));
  EXPECT_EQ(calibrate::Chase(calibrate::kChaseBytes).lines(), calibrate::kChaseBytes / 64);
}

TEST(calibrate_work, copy_copies_and_measure_work_gives_every_figure) {
  std::vector<unsigned char> from(calibrate::kCopySmallBytes), to(calibrate::kCopySmallBytes, 0);
  for (std::size_t i = 0; i < from.size(); ++i) from[i] = static_cast<unsigned char>(i * 7);
  calibrate::copy(to.data(), from.data(), from.size());
  EXPECT_EQ(to, from);
  const calibrate::Copy pages(calibrate::kCopySmallBytes);
  ASSERT_EQ(reinterpret_cast<std::uintptr_t>(pages.to()) % 4096, 0u) << "the buffers start a page";
  EXPECT_EQ(pages.to()[0], 0);
  pages.run();
  EXPECT_EQ(pages.to()[0], 1);
  EXPECT_EQ(pages.to()[calibrate::kCopySmallBytes - 1], 1);
  const calibrate::WorkFigures w = calibrate::measure_work(0.001);
  EXPECT_GT(w.spin_ns_per_op, 0);
  EXPECT_GT(w.memcpy_4kib_ns_per_op, 0);
  EXPECT_GT(w.memcpy_1mib_ns_per_op, 0);
  EXPECT_GT(w.chase_16mib_ns_per_op, 0);
}

// ---- apart from the product

TEST(calibrate_sources, include_nothing_of_the_product_and_link_threads_only) {
  const std::filesystem::path dir = std::filesystem::path(ZAPBENCH_SOURCE_DIR) / "src" / "calibrate";
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".hpp" && ext != ".cpp") continue;
    ++files;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("#include \"", 0) != 0) continue;
      EXPECT_EQ(line.rfind("#include \"calibrate/", 0), 0u)
          << e.path().filename().string() << " includes from another component: " << line;
    }
  }
  EXPECT_GE(files, 3u);
  std::ifstream cmake(dir / "CMakeLists.txt");
  std::size_t links = 0;
  for (std::string line; std::getline(cmake, line);)
    if (line.find("target_link_libraries(calibrate") != std::string::npos) {
      ++links;
      EXPECT_EQ(line, "target_link_libraries(calibrate PUBLIC Threads::Threads)");
    }
  EXPECT_EQ(links, 1u);
}

}  // namespace
