// tests/bench_go_arm_test.cpp — the Go reference arm as `zapbench run` sees it
// (bench/arms/go_arm.hpp): its capabilities read from JSON (and every malformed
// answer a clear error), the probe of a binary that is missing (with and
// without the reason scripts/go-build.sh leaves), that fails, or that answers
// — a small shell script stands in for zapbench-go, so no Go is needed — and
// the reason of every cell a build cannot serve. The real zapbench-go is
// exercised by tests/go (go test) and the minimal real run (tests/e2e).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/arms/go_arm.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

constexpr const char* kCapabilities =
    R"({"go_version":"go1.26.8","modules":{"github.com/goccy/go-json":"v0.12.0"},)"
    R"("frameworks":{"fasthttp":"","nethttp":"","zip":"zip is not served"},)"
    R"("transports":{"http":"","zap":"zap transport is not served"},)"
    R"("codecs":{"goccy":"","sonic":"","stdlib":"","zap":"zap-proto/go is not served"}})";

std::string error_of(const std::string& json) {
  bench::GoArm arm;
  try {
    bench::parse_capabilities(json, arm);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(bench_go_arm, capabilities_are_read) {
  bench::GoArm arm;
  arm.binary = "/x/zapbench-go";
  bench::parse_capabilities(kCapabilities, arm);
  EXPECT_EQ(arm.go_version, "go1.26.8");
  EXPECT_EQ(arm.modules.at("github.com/goccy/go-json"), "v0.12.0");
  EXPECT_TRUE(arm.runs());
  EXPECT_EQ(arm.why_not(arm.frameworks, "fasthttp"), "");
  EXPECT_EQ(arm.why_not(arm.frameworks, "zip"), "zip is not served");
  EXPECT_NE(arm.why_not(arm.codecs, "yaml").find("does not know 'yaml'"), std::string::npos);
}

TEST(bench_go_arm, malformed_capabilities_are_clear_errors) {
  EXPECT_NE(error_of("").find("not JSON"), std::string::npos);
  EXPECT_NE(error_of("{\"go_version\":").find("not JSON"), std::string::npos);
  EXPECT_NE(error_of("[1]").find("not a JSON object"), std::string::npos);
  EXPECT_NE(error_of("{}").find("go_version"), std::string::npos);
  EXPECT_NE(error_of(R"({"go_version":1})").find("go_version"), std::string::npos);
  EXPECT_NE(error_of(R"({"go_version":"go1","codecs":[]})").find("'codecs' is not an object"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"go_version":"go1","codecs":{"goccy":true}})").find("'codecs.goccy' is not a string"),
      std::string::npos);
}

class bench_go_arm_probe : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("go_arm_test");
    dir_ = scratch_->path();
  }
  void TearDown() override { scratch_.reset(); }
  // An executable script standing in for zapbench-go (or, named
  // zapbench-go-rpc, for its ZAP-RPC server).
  std::string script(const std::string& body, const char* name = "zapbench-go") {
    const fs::path p = dir_ / name;
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    chmod(p.c_str(), 0755);
    return p.string();
  }
  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
};

TEST_F(bench_go_arm_probe, a_missing_binary_gives_the_build_scripts_reason) {
  const std::string bin = (dir_ / "zapbench-go").string();
  bench::GoArm arm = bench::probe_go(bin);
  EXPECT_FALSE(arm.runs());
  EXPECT_NE(arm.unavailable.find("does not exist"), std::string::npos) << arm.unavailable;
  std::ofstream(bin + ".unavailable") << "go not found on PATH\n";
  arm = bench::probe_go(bin);
  EXPECT_EQ(arm.unavailable, "go not found on PATH");
  EXPECT_NE(bench::probe_go("").unavailable.find("was not built"), std::string::npos);
}

TEST_F(bench_go_arm_probe, an_answering_binary_is_asked_its_capabilities) {
  const bench::GoArm arm =
      bench::probe_go(script(std::string("[ \"$1\" = capabilities ] && echo '") + kCapabilities + "'"));
  ASSERT_TRUE(arm.runs()) << arm.unavailable;
  EXPECT_EQ(arm.go_version, "go1.26.8");
  EXPECT_EQ(
      bench::go_cell_unavailable(arm, Arm::go_fasthttp, Framing::http1, Scenario::rpc, "direct", "goccy"),
      "");
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_fasthttp, Framing::http1, Scenario::hello, "", "goccy"),
            "");
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_zip, Framing::http1, Scenario::hello, "", "goccy"),
            "zip is not served");
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_nethttp, Framing::zap_http, Scenario::hello, "", "goccy"),
            "zap transport is not served");
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_nethttp, Framing::http1, Scenario::rpc, "zap", "goccy"),
            "zap-proto/go is not served");
  EXPECT_NE(bench::go_cell_unavailable(arm, Arm::go_nethttp, Framing::raw_tcp, Scenario::hello, "", "goccy"),
            "");
  // ZAP-RPC is zapbench-go-rpc's: without it, the build script's reason or how to build it.
  EXPECT_NE(bench::go_cell_unavailable(arm, Arm::go_zip, Framing::zap_rpc, Scenario::hello, "", "goccy")
                .find("zapbench-go-rpc does not exist"),
            std::string::npos);
  std::ofstream(dir_ / "zapbench-go-rpc.unavailable") << "go build failed: no quic\n";
  EXPECT_EQ(bench::probe_go(arm.binary).transports.at("zap-rpc"), "go build failed: no quic");
  EXPECT_TRUE(arm.rpc_binary.empty());
}

TEST_F(bench_go_arm_probe, the_rpc_server_answering_makes_zap_rpc_available) {
  const std::string go = script(std::string("[ \"$1\" = capabilities ] && echo '") + kCapabilities + "'");
  const std::string rpc = script(
      R"([ "$1" = capabilities ] && echo '{"go_version":"go1.26.8","modules":{"github.com/zap-proto/go":"v1.8.1"}}')",
      "zapbench-go-rpc");
  bench::GoArm arm = bench::probe_go(go);
  ASSERT_TRUE(arm.runs()) << arm.unavailable;
  EXPECT_EQ(arm.rpc_binary, rpc);
  EXPECT_EQ(arm.rpc_modules.at("github.com/zap-proto/go"), "v1.8.1");
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_zip, Framing::zap_rpc, Scenario::rpc, "zap", "goccy"),
            "zap-proto/go is not served");  // the body's reason (this fake build has no ZAP codec)
  EXPECT_EQ(bench::go_cell_unavailable(arm, Arm::go_zip, Framing::zap_rpc, Scenario::hello, "", "goccy"), "");
  EXPECT_EQ(bench::go_server_spec(arm, Arm::go_zip, Framing::zap_rpc, "goccy", {1}).argv,
            (std::vector<std::string>{rpc, "serve", "--zap-rpc", "127.0.0.1:0"}));
  // One that fails to answer: the transport's reason, the rest of the arm unaffected.
  script("echo 'cannot start' >&2; exit 3", "zapbench-go-rpc");
  arm = bench::probe_go(go);
  ASSERT_TRUE(arm.runs());
  EXPECT_NE(arm.transports.at("zap-rpc").find("exit 3"), std::string::npos) << arm.transports.at("zap-rpc");
  EXPECT_TRUE(arm.rpc_binary.empty());
}

TEST_F(bench_go_arm_probe, a_failing_or_garbled_binary_is_unavailable_with_why) {
  bench::GoArm arm = bench::probe_go(script("echo 'cannot start' >&2; exit 3"));
  EXPECT_FALSE(arm.runs());
  EXPECT_NE(arm.unavailable.find("exit 3"), std::string::npos) << arm.unavailable;
  EXPECT_NE(arm.unavailable.find("cannot start"), std::string::npos) << arm.unavailable;
  arm = bench::probe_go(script("echo 'not json'"));
  EXPECT_FALSE(arm.runs());
  EXPECT_NE(arm.unavailable.find("not JSON"), std::string::npos) << arm.unavailable;
}

TEST(bench_go_arm, child_specs) {
  bench::GoArm arm;
  arm.binary = "/x/zapbench-go";
  const bench::ChildSpec serve =
      bench::go_server_spec(arm, Arm::go_nethttp, matrix::Framing::http1, "stdlib", {0, 1});
  EXPECT_EQ(serve.argv, (std::vector<std::string>{"/x/zapbench-go", "serve", "--http", "127.0.0.1:0", "--fw",
                                                  "nethttp", "--json", "stdlib"}));
  EXPECT_EQ(serve.env, (std::vector<std::string>{"GOMAXPROCS=2"}));
  EXPECT_TRUE(serve.ready_channel);
  // ZAP-HTTP: zap-proto/http's server, the reference's -transport zap.
  EXPECT_EQ(bench::go_server_spec(arm, Arm::go_fasthttp, matrix::Framing::zap_http, "goccy", {0}).argv,
            (std::vector<std::string>{"/x/zapbench-go", "serve", "--zap", "127.0.0.1:0", "--fw", "fasthttp",
                                      "--json", "goccy"}));
  const bench::ChildSpec micro = bench::go_micro_spec(arm, "/o/go.json", 0.2, 3, "Decode/", {1}, "/o/log");
  EXPECT_EQ(micro.argv,
            (std::vector<std::string>{"/x/zapbench-go", "micro", "--json-out", "/o/go.json", "--min-time",
                                      "0.2s", "--repetitions", "3", "--filter", "Decode/"}));
  EXPECT_EQ(micro.cpus, (std::vector<int>{1}));
  EXPECT_EQ(micro.env, (std::vector<std::string>{"GOMAXPROCS=1"}));
}

}  // namespace
