// tests/net/net_uring_probe_test.cpp — net::probe_uring: an answer either way (available, or a
// one-line reason naming the kernel's errno), flags that imply each other as the kernel defines
// them, the same answer twice, and when the sysctl says io_uring is disabled for everyone, no ring.
#include <gtest/gtest.h>

#include <fstream>

#include "net/uring.hpp"

namespace {

TEST(uring_probe, answers_available_or_a_one_line_reason) {
  const net::UringSupport s = net::probe_uring();
  if (s.available) {
    EXPECT_TRUE(s.unavailable_reason.empty());
    EXPECT_EQ(s.describe().rfind("io_uring: ", 0), 0u) << s.describe();
  } else {
    ASSERT_FALSE(s.unavailable_reason.empty());
    EXPECT_EQ(s.unavailable_reason.find('\n'), std::string::npos);
    EXPECT_EQ(s.unavailable_reason.rfind("io_uring_setup: ", 0), 0u) << s.unavailable_reason;
    EXPECT_FALSE(s.single_issuer || s.defer_taskrun || s.coop_taskrun || s.recv_multishot);
    EXPECT_EQ(s.describe(), "io_uring unavailable: " + s.unavailable_reason);
  }
  std::printf("%s\n", s.describe().c_str());
}

TEST(uring_probe, defer_taskrun_only_with_single_issuer) {
  const net::UringSupport s = net::probe_uring();
  if (s.defer_taskrun) {
    EXPECT_TRUE(s.single_issuer);
  }
}

TEST(uring_probe, the_same_answer_twice) {
  const net::UringSupport a = net::probe_uring(), b = net::probe_uring();
  EXPECT_EQ(a.describe(), b.describe());
}

TEST(uring_probe, disabled_for_everyone_means_unavailable) {
  std::ifstream sysctl("/proc/sys/kernel/io_uring_disabled");
  int disabled = 0;
  if (!(sysctl >> disabled) || disabled != 2) GTEST_SKIP() << "kernel.io_uring_disabled is not 2 here";
  const net::UringSupport s = net::probe_uring();
  EXPECT_FALSE(s.available);
  EXPECT_NE(s.unavailable_reason.find("kernel.io_uring_disabled = 2"), std::string::npos)
      << s.unavailable_reason;
}

}  // namespace
