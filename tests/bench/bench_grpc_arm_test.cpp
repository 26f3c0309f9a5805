// tests/bench_grpc_arm_test.cpp — the grpc++ reference arm as `zapbench run`
// will see it (bench/arms/grpc_arm.hpp): the binary found ($ZAPBENCH_GRPC first,
// then this build's), a missing one a clear reason, the pinned command line,
// and — where this build has zapbench-grpc — the real server started as a
// child of the supervisor, ready through the ready channel ("grpc
// 127.0.0.1:PORT") and stopped by SIGTERM with exit 0.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "bench/arms/grpc_arm.hpp"
#include "bench/arms/nginx.hpp"
#include "bench/children/supervisor.hpp"
#include "proc/ports.hpp"

namespace {

// $ZAPBENCH_GRPC set for one test, restored after.
class EnvGrpc {
 public:
  explicit EnvGrpc(const char* value) {
    if (const char* old = std::getenv("ZAPBENCH_GRPC")) old_ = old;
    if (value)
      setenv("ZAPBENCH_GRPC", value, 1);
    else
      unsetenv("ZAPBENCH_GRPC");
  }
  ~EnvGrpc() {
    if (old_.empty())
      unsetenv("ZAPBENCH_GRPC");
    else
      setenv("ZAPBENCH_GRPC", old_.c_str(), 1);
  }

 private:
  std::string old_;
};

TEST(bench_grpc_arm, env_names_the_binary) {
  const EnvGrpc env("/bin/true");
  const bench::GrpcArm arm = bench::find_grpc_arm();
  EXPECT_TRUE(arm.runs()) << arm.unavailable;
  EXPECT_EQ(arm.binary, "/bin/true");
}

TEST(bench_grpc_arm, a_missing_binary_is_a_reason) {
  const EnvGrpc env("/nonexistent/zapbench-grpc");
  const bench::GrpcArm arm = bench::find_grpc_arm();
  EXPECT_FALSE(arm.runs());
  EXPECT_NE(arm.unavailable.find("/nonexistent/zapbench-grpc does not exist"), std::string::npos)
      << arm.unavailable;
}

TEST(bench_grpc_arm, the_build_has_it_or_says_why) {
  const EnvGrpc env(nullptr);
  const bench::GrpcArm arm = bench::find_grpc_arm();
#ifdef ZAPBENCH_GRPC_BUILT
  EXPECT_TRUE(arm.runs()) << arm.unavailable;
  EXPECT_EQ(arm.binary, ZAPBENCH_GRPC_BUILT);
#else
  EXPECT_FALSE(arm.runs());
  EXPECT_FALSE(arm.unavailable.empty());
#endif
}

TEST(bench_grpc_arm, the_server_is_pinned_with_a_thread_per_cpu) {
  const bench::GrpcArm arm{"/x/zapbench-grpc", ""};
  const bench::ChildSpec s = bench::grpc_server_spec(arm, {0, 2});
  EXPECT_EQ(s.argv, (std::vector<std::string>{"/x/zapbench-grpc", "serve", "--listen", "127.0.0.1:0", "--api",
                                              "async", "--threads", "2"}));
  EXPECT_EQ(s.cpus, (std::vector<int>{0, 2}));
  EXPECT_TRUE(s.ready_channel);
  EXPECT_EQ(bench::grpc_server_argv(arm, {}).back(), "1");  // unpinned: one thread
}

#ifdef ZAPBENCH_GRPC_BUILT
TEST(bench_grpc_arm, the_real_server_is_ready_and_stops) {
  const EnvGrpc env(nullptr);
  const bench::GrpcArm arm = bench::find_grpc_arm();
  ASSERT_TRUE(arm.runs()) << arm.unavailable;
  bench::Child child(bench::grpc_server_spec(arm, {}));
  const std::vector<proc::ReadyListener> ready = child.wait_ready(60);  // a hang bound
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(ready[0].kind, "grpc");
  EXPECT_EQ(ready[0].host, "127.0.0.1");
  EXPECT_NE(ready[0].port, 0);
  EXPECT_TRUE(proc::wait_accepting(ready[0].port, 60));
  const bench::ExitStatus st = child.stop(60);
  EXPECT_TRUE(st.ok()) << st.describe();
}
#endif

}  // namespace
