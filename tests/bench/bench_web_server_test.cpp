// tests/bench/bench_web_server_test.cpp — the web server arms (bench/arms/web_server.hpp, h2o.hpp,
// nghttpd.hpp): finding one refuses, with the reason, a server that is missing, fails to say its
// version, says none or is too old; their configs and command lines; a sample of each against the
// real Debian server (skipped with the reason where it is not installed) gives figures with no
// error; a server that exits at its start fails the sample at once with its own end, nothing left
// running. Every wait is the sample's own, bounded by its hang bounds.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "bench/arms/h2o.hpp"
#include "bench/arms/nghttpd.hpp"
#include "bench/arms/web_server.hpp"
#include "bench/plan/plan.hpp"
#include "bench/run/sample.hpp"
#include "proc/machine.hpp"
#include "proc/programs.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using matrix::Arm;
using matrix::Framing;

TEST(web_server, reads_the_leading_version) {
  int major = 0, minor = 0;
  ASSERT_TRUE(bench::leading_version("nginx version: nginx/1.22.1", major, minor));
  EXPECT_EQ(major, 1);
  EXPECT_EQ(minor, 22);
  ASSERT_TRUE(bench::leading_version("h2o version 2.2.5\nOpenSSL: OpenSSL 3.0.19", major, minor));
  EXPECT_EQ(major, 2);
  EXPECT_EQ(minor, 2);
  ASSERT_TRUE(bench::leading_version("nghttpd nghttp2/1.52.0", major, minor));
  EXPECT_EQ(minor, 52);
  EXPECT_FALSE(bench::leading_version("no version here", major, minor));
  EXPECT_FALSE(bench::leading_version("v7.", major, minor));
  EXPECT_FALSE(bench::leading_version("", major, minor));
}

class web_server_find : public ::testing::Test {
 protected:
  void SetUp() override { scratch_.emplace("web_server_test"); }
  void TearDown() override { scratch_.reset(); }
  // A stand-in server: a shell script with `body`.
  std::string script(const std::string& body) {
    const fs::path p = scratch_->path() / ("server" + std::to_string(++n_));
    zaptest::write_bytes(p, "#!/bin/sh\n" + body + "\n");
    chmod(p.c_str(), 0755);
    return p.string();
  }
  bench::FoundArm find(const std::string& binary) {
    return bench::find_web_server({"h2o", "--h2o", "h2o", "--version", 2, 2}, {{"--h2o", binary}});
  }
  std::optional<zaptest::Scratch> scratch_;
  int n_ = 0;
};

TEST_F(web_server_find, refuses_what_cannot_serve_with_the_reason) {
  const bench::FoundArm missing =
      bench::find_web_server({"zapbench-no-such-server", "--x", "pkg-x", "--version", 1, 0}, {});
  EXPECT_FALSE(missing.runs());
  EXPECT_EQ(missing.unavailable,
            "zapbench-no-such-server not found (Debian package pkg-x; scripts/deps.sh installs it)");

  const std::string failing = script("echo 'cannot open libfoo.so' >&2; exit 3");
  EXPECT_EQ(find(failing).unavailable, failing + " --version failed (exit 3): cannot open libfoo.so");

  const std::string silent = script("echo 'hello'");
  EXPECT_EQ(find(silent).unavailable, silent + " --version says no version: 'hello'");

  const std::string old = script("echo 'h2o version 1.7.3'");
  EXPECT_EQ(find(old).unavailable, old + " is 1.7, older than 2.2 ('h2o version 1.7.3')");

  const std::string absent = (scratch_->path() / "not-there").string();
  EXPECT_NE(find(absent).unavailable.find(absent + " --version failed (exit 127"), std::string::npos)
      << find(absent).unavailable;

  const std::string good = script("echo 'h2o version 2.2.5'");
  const bench::FoundArm found = find(good);
  EXPECT_TRUE(found.runs()) << found.unavailable;
  EXPECT_EQ(found.binary, good);
}

TEST(web_server, configs_and_command_lines) {
  const std::string conf = bench::h2o_conf("{tmpdir}", "127.0.0.1", 2);
  for (const char* part : {"num-threads: 2\n", "user: {user}\n", "  host: 127.0.0.1\n", "  port: {port}\n",
                           "file.file: {tmpdir}/health\n", "access-log: /dev/null\n"})
    EXPECT_NE(conf.find(part), std::string::npos) << part << " in\n" << conf;
  EXPECT_EQ(bench::nghttpd_argv("/usr/bin/nghttpd", "/d", "0.0.0.0", 2),
            (std::vector<std::string>{"/usr/bin/nghttpd", "--no-tls", "-n", "2", "-d", "/d", "-a", "0.0.0.0",
                                      "{port}"}));
}

// One sample of a web server arm's hello cell, its server as `binary`.
class web_server_sample : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("web_sample_test");
    dir_ = scratch_->path();
    fs::create_directories(dir_ / "run" / "samples");
    plan_.cfg.duration_s = 0.3;
    plan_.cfg.warmup_s = 0.1;
    plan_.cfg.server_cpus = {proc::allowed_cpus().front()};
    plan_.cfg.loader_cpus = {proc::allowed_cpus().back()};
  }
  void TearDown() override { scratch_.reset(); }

  report::E2ESample sample(Arm arm, Framing framing, const std::string& binary, std::string& failure) {
    plan_.found[static_cast<std::size_t>(arm)] = {binary, "", {}, {}, {}};
    bench::CellPlan cp;
    cp.cell.arm = arm;
    cp.cell.scenario = matrix::Scenario::hello;
    cp.cell.framing = framing;
    cp.cell.connections = 2;
    cp.cell.pipeline = 4;
    const bench::RunFolder folder(dir_ / "run");
    const bench::SampleContext ctx{plan_, folder, ZAPBENCH_BIN};
    return bench::run_sample(ctx, cp, 0, failure);
  }

  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
  bench::RunPlan plan_;
};

TEST_F(web_server_sample, h2o_and_nghttpd_answer_hello) {
  const std::string h2o = proc::find_program("h2o"), nghttpd = proc::find_program("nghttpd");
  if (h2o.empty() || nghttpd.empty())
    GTEST_SKIP() << "h2o or nghttpd not installed (scripts/deps.sh installs them)";
  for (const auto& [arm, framing, binary] :
       {std::tuple{Arm::h2o, Framing::http1, h2o}, std::tuple{Arm::h2o, Framing::http2, h2o},
        std::tuple{Arm::nghttpd, Framing::http2, nghttpd}}) {
    std::string failure;
    const report::E2ESample s = sample(arm, framing, binary, failure);
    const std::string what =
        std::string(matrix::to_string(arm)) + " " + std::string(matrix::to_string(framing));
    EXPECT_EQ(failure, "") << what;
    EXPECT_GT(s.responses, 0u) << what;
    EXPECT_EQ(s.errors, 0u) << what;
    EXPECT_GT(s.server_cpu_s, 0) << what;
  }
}

TEST_F(web_server_sample, a_server_that_exits_at_its_start_fails_the_sample_at_once) {
  const fs::path script = dir_ / "h2o";
  zaptest::write_bytes(script, "#!/bin/sh\necho 'h2o: cannot bind' >&2\nexit 4\n");
  chmod(script.c_str(), 0755);
  std::string failure;
  const report::E2ESample s = sample(Arm::h2o, Framing::http2, script.string(), failure);
  EXPECT_EQ(failure.rfind("the server ended before it was stopped (exit 4; see samples/", 0), 0u) << failure;
  EXPECT_NE(failure.find("the server exited before it listened"), std::string::npos) << failure;
  EXPECT_EQ(s.responses, 0u);
}

}  // namespace
