// tests/bench_load_command_test.cpp — load::Options <-> `zapbench load`
// command line (bench/children/load_command.hpp), round trip through the real
// command: options -> load_args -> `zapbench load` (its own parser) -> its
// --json-out file (bench/children/load_result.hpp) -> the same options. The servers
// are real children started by the supervisor and ready through --ready-fd,
// so the serve/floor side of that contract is tested here too. No figure is
// asserted: only what the loader says it was asked to do.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "bench/children/load_command.hpp"
#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

class bench_load_command_run : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("load_command_test");
    dir_ = scratch_->path();
  }
  void TearDown() override {
    server_.reset();  // the server first: its log is in the scratch directory
    scratch_.reset();
  }

  // Starts `zapbench <args>` with a ready channel; the port of its first listener of `kind`.
  std::uint16_t start(std::vector<std::string> args, const std::string& kind) {
    args.insert(args.begin(), ZAPBENCH_BIN);
    server_.emplace(bench::ChildSpec{args, {}, (dir_ / "server.log").string(), true, {}});
    for (const proc::ReadyListener& l : server_->wait_ready(zaptest::kHangS))
      if (l.kind == kind) return l.port;
    ADD_FAILURE() << "no " << kind << " listener announced:\n" << zaptest::read_text(dir_ / "server.log");
    return 0;
  }

  // Runs `zapbench load` with load_args(o) and reads back what it recorded.
  bench::LoadReport round_trip(const load::Options& o) {
    const fs::path out = dir_ / "load.json";
    const std::vector<std::string> argv = bench::load_argv(ZAPBENCH_BIN, o, out.string());
    bench::Child loader(bench::ChildSpec{argv, {}, (dir_ / "load.log").string(), false, {}});
    const bench::ExitStatus st =
        loader.wait(o.warmup_s + o.duration_s + o.timeout_ms / 1000.0 + zaptest::kHangS);
    EXPECT_TRUE(st.ok()) << st.describe() << "\n" << zaptest::read_text(dir_ / "load.log");
    return bench::parse_load_result(zaptest::read_text(out));
  }

  void expect_same(const load::Options& a, const load::Options& b) {
    EXPECT_EQ(a.framing, b.framing);
    EXPECT_EQ(a.host, b.host);
    EXPECT_EQ(a.port, b.port);
    EXPECT_EQ(a.connections, b.connections);
    EXPECT_EQ(a.threads, b.threads);
    EXPECT_EQ(a.pipeline, b.pipeline);
    EXPECT_EQ(a.duration_s, b.duration_s);
    EXPECT_EQ(a.warmup_s, b.warmup_s);
    EXPECT_EQ(a.rate_per_s, b.rate_per_s);
    EXPECT_EQ(a.timeout_ms, b.timeout_ms);
    EXPECT_EQ(a.floor_request_bytes, b.floor_request_bytes);
    EXPECT_EQ(a.floor_response_bytes, b.floor_response_bytes);
    if (a.framing != matrix::Framing::raw_tcp) {
      EXPECT_EQ(a.scenario, b.scenario);
      if (a.scenario != matrix::Scenario::hello) {
        EXPECT_EQ(a.body, b.body);
      }
      if (a.scenario == matrix::Scenario::logs) {
        EXPECT_EQ(a.logs, b.logs);
      }
    }
  }

  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
  std::optional<bench::Child> server_;
};

TEST_F(bench_load_command_run, serve_cells_round_trip) {
  load::Options o;
  o.port = start({"serve", "--http", "127.0.0.1:0", "--zap", "127.0.0.1:0"}, "http");
  ASSERT_NE(o.port, 0);
  o.connections = 3;
  o.threads = 2;
  o.pipeline = 2;
  o.duration_s = 0.05;
  o.warmup_s = 0.01;
  o.timeout_ms = 4000;
  expect_same(o, round_trip(o).options);  // hello over HTTP/1.1

  o.scenario = matrix::Scenario::rpc;
  o.body = &record::default_json_codec();
  expect_same(o, round_trip(o).options);  // rpc, JSON body

  o.body = record::find_codec("zap");
  o.rate_per_s = 2000.5;
  expect_same(o, round_trip(o).options);  // rpc, ZAP body, open loop

  o.scenario = matrix::Scenario::logs;
  o.logs = 37;
  o.rate_per_s = 0;
  const bench::LoadReport logs = round_trip(o);  // logs, N = 37, ZAP body
  expect_same(o, logs.options);
  EXPECT_EQ(logs.result.errors[static_cast<int>(load::ErrorKind::validation)], 0u);
}

TEST_F(bench_load_command_run, floor_cells_round_trip) {
  load::Options o;
  o.framing = matrix::Framing::raw_tcp;
  o.port =
      start({"floor", "--listen", "127.0.0.1:0", "--request-bytes", "10", "--response-bytes", "7"}, "floor");
  ASSERT_NE(o.port, 0);
  o.floor_request_bytes = 10;
  o.floor_response_bytes = 7;
  o.connections = 2;
  o.duration_s = 0.05;
  o.warmup_s = 0;
  const bench::LoadReport back = round_trip(o);
  expect_same(o, back.options);
  EXPECT_EQ(back.result.errors[static_cast<int>(load::ErrorKind::connect)], 0u);
}

TEST(bench_load_command, numbers_are_written_exactly) {
  for (double v : {0.0, 0.3, 1.5, 0.1 + 0.2, 1e-9, 86400.0})
    EXPECT_EQ(std::stod(bench::exact_number(v)), v) << v;
  EXPECT_EQ(bench::exact_number(1.5), "1.5");
  EXPECT_EQ(bench::exact_number(5), "5");
}

TEST(bench_load_command, args_spell_the_loader_flags) {
  load::Options o;
  o.port = 8080;
  o.cpus = {1, 2, 3};
  EXPECT_EQ(
      bench::load_args(o, ""),
      (std::vector<std::string>{"--framing", "http", "--addr", "127.0.0.1:8080", "--scenario", "hello", "-c",
                                "10", "-p", "1", "-t", "1", "--cpus", "1,2,3", "-d", "10", "--warmup", "1"}));
  o.cpus.clear();
  o.scenario = matrix::Scenario::logs;
  o.logs = 10'000;
  o.body = record::find_codec("zap");
  EXPECT_EQ(bench::load_args(o, ""),
            (std::vector<std::string>{"--framing",  "http", "--addr",   "127.0.0.1:8080",
                                      "--scenario", "logs", "--logs",   "10000",
                                      "--body",     "zap",  "-c",       "10",
                                      "-p",         "1",    "-t",       "1",
                                      "-d",         "10",   "--warmup", "1"}));
}

}  // namespace
