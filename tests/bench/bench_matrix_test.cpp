// tests/bench_matrix_test.cpp — the matrix's names (bench/matrix.hpp): every
// value has one stable name that parses back to it; the names are those
// results.json has always used (a file format: old results must still load);
// anything else is refused.
#include <gtest/gtest.h>

#include "bench/matrix.hpp"

namespace {

using bench::Arm;
using bench::Framing;
using bench::Scenario;

TEST(bench_matrix, stable_names_are_the_results_json_spelling) {
  EXPECT_EQ(bench::to_string(Arm::zapbench), "zapbench");
  EXPECT_EQ(bench::to_string(Arm::nginx), "nginx");
  EXPECT_EQ(bench::to_string(Arm::go_zip), "go-zip");
  EXPECT_EQ(bench::to_string(Arm::go_fasthttp), "go-fasthttp");
  EXPECT_EQ(bench::to_string(Arm::go_nethttp), "go-nethttp");
  EXPECT_TRUE(bench::is_go_arm(Arm::go_nethttp));
  EXPECT_FALSE(bench::is_go_arm(Arm::nginx));
  EXPECT_EQ(bench::to_string(Arm::floor), "floor");
  EXPECT_EQ(bench::to_string(Scenario::hello), "hello");
  EXPECT_EQ(bench::to_string(Scenario::rpc), "rpc");
  EXPECT_EQ(bench::to_string(Scenario::logs), "logs");
  EXPECT_EQ(bench::to_string(Framing::http1), "http");
  EXPECT_EQ(bench::to_string(Framing::zap_http), "zap");
  EXPECT_EQ(bench::to_string(Framing::zap_rpc), "zap-rpc");
  EXPECT_EQ(bench::to_string(Framing::raw_tcp), "tcp");
}

TEST(bench_matrix, every_value_round_trips_through_its_name) {
  for (Arm a : bench::kArms) EXPECT_EQ(bench::arm_from(bench::to_string(a)), a);
  for (Scenario s : bench::kScenarios) EXPECT_EQ(bench::scenario_from(bench::to_string(s)), s);
  for (Framing f : bench::kFramings) EXPECT_EQ(bench::framing_from(bench::to_string(f)), f);
}

TEST(bench_matrix, unknown_names_are_refused) {
  for (const char* bad : {"", "Zapbench", "apache", "zapbench ", "http"})
    EXPECT_FALSE(bench::arm_from(bad)) << bad;
  for (const char* bad : {"", "ping", "RPC"}) EXPECT_FALSE(bench::scenario_from(bad)) << bad;
  for (const char* bad : {"", "HTTP/1.1", "http1", "wire", "floor", "ZAP-RPC", "zap_rpc", "rpc"})
    EXPECT_FALSE(bench::framing_from(bad)) << bad;
}

TEST(bench_matrix, choices_list_every_name_in_order) {
  EXPECT_EQ(bench::arm_names(), "zapbench, go-zip, go-fasthttp, go-nethttp, nginx, grpc-cpp, floor");
  EXPECT_EQ(bench::scenario_names(), "hello, rpc, logs");
  EXPECT_EQ(bench::framing_names(), "http, http2, grpc, zap, zap-rpc, tcp");
}

TEST(bench_matrix, display_names_are_for_readers) {
  EXPECT_EQ(bench::display_name(Framing::http1), "HTTP/1.1");
  EXPECT_EQ(bench::display_name(Framing::http2), "HTTP/2");
  EXPECT_EQ(bench::display_name(Framing::grpc), "gRPC");
  EXPECT_EQ(bench::display_name(Framing::zap_http), "ZAP-HTTP");
  EXPECT_EQ(bench::display_name(Framing::zap_rpc), "ZAP-RPC");
  EXPECT_EQ(bench::display_name(Framing::raw_tcp), "raw TCP");
}

}  // namespace
