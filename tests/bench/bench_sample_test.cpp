// tests/bench/bench_sample_test.cpp — one end-to-end sample (bench/run/sample.hpp)
// with real children: the Go ZAP-RPC cell's server and `zapbench load`. The
// server is the real `zapbench serve --zap-rpc` standing in for
// zapbench-go-rpc (the same command line); once it is killed mid-sample by a
// shell script around it, the sample fails with the server's own end
// (signal 9), not only the loader's error counts. Every wait is the
// sample's own, bounded by its hang bounds.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>

#include "bench/arms/go_arm.hpp"
#include "bench/run/host.hpp"
#include "bench/run/sample.hpp"
#include "proc/machine.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

class bench_sample : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("sample_test");
    dir_ = scratch_->path();
    fs::create_directories(dir_ / "run" / "samples");
    plan_.cfg.duration_s = 1.0;
    plan_.cfg.warmup_s = 0.2;
    plan_.cfg.server_cpus = {proc::allowed_cpus().front()};
    plan_.cfg.loader_cpus = {proc::allowed_cpus().back()};
    // The Go arm as probed, but for its ZAP-RPC server only: that cell starts rpc_binary.
    go_.binary = "/nonexistent/zapbench-go";
    go_.transports["zap-rpc"] = "";
    cp_.cell.arm = matrix::Arm::go_zip;
    cp_.cell.scenario = matrix::Scenario::rpc;
    cp_.cell.framing = matrix::Framing::zap_rpc;
    cp_.cell.body = "zap";
    cp_.cell.connections = 2;
    cp_.cell.pipeline = 4;
  }
  void TearDown() override { scratch_.reset(); }

  report::E2ESample sample(std::string& failure) {
    plan_.found[static_cast<std::size_t>(matrix::Arm::go_zip)] = bench::go_found(go_);
    const bench::RunFolder folder(dir_ / "run");
    const bench::SampleContext ctx{plan_, folder, ZAPBENCH_BIN};
    return bench::run_sample(ctx, cp_, 0, failure);
  }

  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
  bench::RunPlan plan_;
  bench::GoArm go_;  // the Go arm as found, given to plan_ by sample()
  bench::CellPlan cp_;
};

TEST_F(bench_sample, a_server_that_stays_up_gives_the_figures) {
  go_.rpc_binary = ZAPBENCH_BIN;  // `zapbench serve --zap-rpc 127.0.0.1:0`, as zapbench-go-rpc's
  std::string failure;
  const report::E2ESample s = sample(failure);
  EXPECT_EQ(failure, "");
  EXPECT_GT(s.responses, 0u);
  EXPECT_EQ(s.errors, 0u);
  EXPECT_GT(s.server_cpu_s, 0);
}

TEST_F(bench_sample, a_server_killed_mid_sample_fails_it_with_its_own_end) {
  // `serve --zap-rpc ADDR --ready-fd N`: the real server, SIGKILLed half a second after it starts,
  // inside the loader's window (0.2 s warm-up, 1 s window). The killer closes its copy of the
  // ready channel first, so the server's own close still says it is ready.
  const fs::path script = dir_ / "zapbench-go-rpc";
  zaptest::write_bytes(script,
                       "#!/bin/sh\n"
                       "fd=$5\n"
                       "( eval \"exec $fd>&-\"; sleep 0.5; kill -9 $$ ) &\n"
                       "exec '" ZAPBENCH_BIN "' serve --zap-rpc \"$3\" --ready-fd \"$fd\"\n");
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  go_.rpc_binary = script.string();
  std::string failure;
  const report::E2ESample s = sample(failure);
  EXPECT_EQ(failure.rfind("the server ended before it was stopped (signal 9; see samples/", 0), 0u)
      << failure;
  EXPECT_NE(failure.find(".server.log)"), std::string::npos) << failure;
  EXPECT_EQ(s.errors, 1u);
  EXPECT_EQ(s.errors_by_kind.at("run_failed"), 1u);
  EXPECT_EQ(s.requests_per_s, 0);
}

}  // namespace
