// tests/bench/bench_c100k_test.cpp — the c100k scenario (bench/run/c100k.hpp)
// at a small N with the real `zapbench serve` and `zapbench load`, on both
// backends: every connection accepted and held, the sample answered without
// an error, the per-connection memory figures present, and at the end every
// connection closed, this process's descriptors and RLIMIT_NOFILE as before,
// no child left. Then the refusal: the connecting side's RLIMIT_NOFILE
// lowered, the scenario stops at it naming the descriptor limit, and the
// server still answers the sample. No figure is judged by its size (machine
// speed); the deadlines only catch hangs. And results.json's c100k rows, written and read back.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cerrno>
#include <cmath>

#include "bench/run/c100k.hpp"
#include "net/loop.hpp"
#include "net/uring.hpp"
#include "proc/usage.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

bool no_child_left() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

bench::C100kOptions small(net::Io io, const zaptest::Scratch& dir) {
  bench::C100kOptions o;
  o.io = io;
  o.connections = 2000;
  o.sources = 2;  // two source addresses, as 100,000 needs five
  o.hold_s = 0.5;
  o.sample_connections = 4;
  o.sample_rate_per_s = 200;
  o.zapbench = ZAPBENCH_BIN;
  o.dir = dir.path().string();
  o.deadline_s = zaptest::kHangS;
  return o;
}

class C100k : public ::testing::TestWithParam<net::Io> {
 protected:
  void SetUp() override {
    if (GetParam() == net::Io::io_uring && !net::probe_uring().available)
      GTEST_SKIP() << net::probe_uring().describe();
  }
};

TEST_P(C100k, HoldsEveryConnectionAnswersTheSampleAndGivesEverythingBack) {
  zaptest::Scratch dir("c100k");
  rlimit before{};
  ::getrlimit(RLIMIT_NOFILE, &before);
  const long fds = proc::open_descriptors();
  const report::C100k c = bench::run_c100k(small(GetParam(), dir));
  SCOPED_TRACE(bench::c100k_summary(c));
  EXPECT_EQ(c.error, "");
  EXPECT_EQ(c.limit, "");
  EXPECT_EQ(c.reached, 2000u);
  EXPECT_TRUE(c.server_answered);
  EXPECT_GT(c.sample_responses, 0u);
  EXPECT_EQ(c.sample_errors, 0u);
  EXPECT_TRUE(std::isfinite(c.user_bytes_per_connection));
  EXPECT_GT(c.server_rss_before_kib, 0);
  EXPECT_GT(c.sockets_held, 0u);
  EXPECT_NE(c.limits_changed.find("restored"), std::string::npos);
  EXPECT_TRUE(c.all_closed);
  EXPECT_EQ(c.fds_left, 0);
  EXPECT_TRUE(bench::c100k_ok(c));
  EXPECT_EQ(proc::open_descriptors(), fds) << "a descriptor left open";
  rlimit after{};
  ::getrlimit(RLIMIT_NOFILE, &after);
  EXPECT_EQ(after.rlim_cur, before.rlim_cur);
  EXPECT_EQ(after.rlim_max, before.rlim_max);
  EXPECT_TRUE(no_child_left());
}

TEST_P(C100k, ADescriptorLimitStopsItNamedAndTheServerStillAnswers) {
  zaptest::Scratch dir("c100k-refused");
  const long fds = proc::open_descriptors();
  bench::C100kOptions o = small(GetParam(), dir);
  o.fd_limit = 512;
  const report::C100k c = bench::run_c100k(o);
  SCOPED_TRACE(bench::c100k_summary(c));
  EXPECT_EQ(c.error, "");
  EXPECT_NE(c.limit.find("descriptors (RLIMIT_NOFILE 512/"), std::string::npos) << c.limit;
  EXPECT_GT(c.reached, 0u);
  EXPECT_LT(c.reached, 512u);
  EXPECT_NE(bench::c100k_summary(c).find("reached " + std::to_string(c.reached) + " of 2000: descriptors"),
            std::string::npos);
  EXPECT_TRUE(c.server_answered) << "the server stopped answering under the refusal";
  EXPECT_EQ(c.sample_errors, 0u);
  EXPECT_TRUE(c.all_closed);
  EXPECT_EQ(c.fds_left, 0);
  EXPECT_FALSE(bench::c100k_ok(c));
  EXPECT_EQ(proc::open_descriptors(), fds);
  EXPECT_TRUE(no_child_left());
}

// results.json carries the rows and reads them back; a file without them (every earlier run) still loads.
TEST(C100kResults, RoundTripAndOlderFilesLoad) {
  report::Results r;
  report::C100k c;
  c.io = "io_uring";
  c.asked = 100000;
  c.reached = 19800;
  c.limit = "descriptors (RLIMIT_NOFILE 20000/20000)";
  c.user_bytes_per_connection = 240;
  c.sample_p99_ns = 1.2e6;
  c.fds_left = 0;
  c.all_closed = true;
  r.c100k.push_back(c);
  const std::string text = report::to_json(r);
  const report::Results back = report::from_json(text);
  ASSERT_EQ(back.c100k.size(), 1u);
  EXPECT_EQ(back.c100k[0].limit, c.limit);
  EXPECT_EQ(back.c100k[0].reached, 19800u);
  EXPECT_EQ(report::to_json(back), text);
  r.c100k.clear();
  EXPECT_EQ(report::to_json(r).find("c100k"), std::string::npos) << "a run without it writes none";
  EXPECT_TRUE(report::from_json(report::to_json(r)).c100k.empty());
}

INSTANTIATE_TEST_SUITE_P(Io, C100k, ::testing::Values(net::Io::epoll, net::Io::io_uring),
                         [](const auto& info) { return std::string(matrix::to_string(info.param)); });

}  // namespace
