// tests/matrix/matrix_test.cpp — the matrix's names (matrix/matrix.hpp): every
// value has one stable name that parses back to it; the names are those
// results.json has always used (a file format: old results must still load),
// benchmark names keep theirs, the loader's older "floor" still reads;
// anything else is refused.
#include "matrix/matrix.hpp"

#include <gtest/gtest.h>

namespace {

using matrix::Arm;
using matrix::Framing;
using matrix::Scenario;

TEST(matrix, stable_names_are_the_results_json_spelling) {
  EXPECT_EQ(matrix::to_string(Arm::zapbench), "zapbench");
  EXPECT_EQ(matrix::to_string(Arm::nginx), "nginx");
  EXPECT_EQ(matrix::to_string(Arm::go_zip), "go-zip");
  EXPECT_EQ(matrix::to_string(Arm::go_fasthttp), "go-fasthttp");
  EXPECT_EQ(matrix::to_string(Arm::go_nethttp), "go-nethttp");
  EXPECT_TRUE(matrix::is_go_arm(Arm::go_nethttp));
  EXPECT_FALSE(matrix::is_go_arm(Arm::nginx));
  EXPECT_EQ(matrix::to_string(Arm::floor), "floor");
  EXPECT_EQ(matrix::to_string(Scenario::hello), "hello");
  EXPECT_EQ(matrix::to_string(Scenario::rpc), "rpc");
  EXPECT_EQ(matrix::to_string(Scenario::logs), "logs");
  EXPECT_EQ(matrix::to_string(Framing::http1), "http");
  EXPECT_EQ(matrix::to_string(Framing::zap_http), "zap");
  EXPECT_EQ(matrix::to_string(Framing::zap_rpc), "zap-rpc");
  EXPECT_EQ(matrix::to_string(Framing::raw_tcp), "tcp");
}

TEST(matrix, every_value_round_trips_through_its_name) {
  for (Arm a : matrix::kArms) EXPECT_EQ(matrix::arm_from(matrix::to_string(a)), a);
  for (Scenario s : matrix::kScenarios) EXPECT_EQ(matrix::scenario_from(matrix::to_string(s)), s);
  for (Framing f : matrix::kFramings) EXPECT_EQ(matrix::framing_from(matrix::to_string(f)), f);
  for (matrix::Family f : matrix::kFamilies) EXPECT_EQ(matrix::family_from(matrix::to_string(f)), f);
}

// A codec's family: results.json's names, and the content type's rule the registry and older files use.
TEST(matrix, families_by_name_and_by_content_type) {
  EXPECT_EQ(matrix::to_string(matrix::Family::zap), "zap");
  EXPECT_EQ(matrix::to_string(matrix::Family::json), "json");
  EXPECT_EQ(matrix::to_string(matrix::Family::peer), "peer");
  EXPECT_FALSE(matrix::family_from("xml"));
  EXPECT_EQ(matrix::family_of("application/zap"), matrix::Family::zap);
  EXPECT_EQ(matrix::family_of("application/json"), matrix::Family::json);
  EXPECT_EQ(matrix::family_of("application/x-protobuf"), matrix::Family::peer);
}

TEST(matrix, unknown_names_are_refused) {
  for (const char* bad : {"", "Zapbench", "apache", "zapbench ", "http"})
    EXPECT_FALSE(matrix::arm_from(bad)) << bad;
  for (const char* bad : {"", "ping", "RPC"}) EXPECT_FALSE(matrix::scenario_from(bad)) << bad;
  for (const char* bad : {"", "HTTP/1.1", "http1", "zap-http", "wire", "ZAP-RPC", "zap_rpc", "rpc"})
    EXPECT_FALSE(matrix::framing_from(bad)) << bad;
}

TEST(matrix, older_and_benchmark_spellings) {
  EXPECT_EQ(matrix::framing_from("floor"), Framing::raw_tcp);  // `load --framing floor`, earlier loader JSON
  EXPECT_EQ(matrix::to_string(*matrix::framing_from("floor")), "tcp");
  for (Framing f : matrix::kFramings) EXPECT_EQ(matrix::framing_from_bench_name(matrix::bench_name(f)), f);
  EXPECT_EQ(matrix::bench_name(Framing::http1), "http1");
  EXPECT_EQ(matrix::bench_name(Framing::zap_http), "zap-http");
  EXPECT_EQ(matrix::bench_name(Framing::zap_rpc), "zap-rpc");
  EXPECT_FALSE(matrix::framing_from_bench_name("http"));
  EXPECT_FALSE(matrix::framing_from_bench_name("floor"));
}

TEST(matrix, choices_list_every_name_in_order) {
  EXPECT_EQ(matrix::arm_names(),
            "zapbench, go-zip, go-fasthttp, go-nethttp, nginx, h2o, nghttpd, grpc-cpp, floor");
  EXPECT_EQ(matrix::scenario_names(), "hello, rpc, logs");
  EXPECT_EQ(matrix::framing_names(), "http, http2, grpc, zap, zap-rpc, tcp");
}

TEST(matrix, display_names_are_for_readers) {
  EXPECT_EQ(matrix::display_name(Framing::http1), "HTTP/1.1");
  EXPECT_EQ(matrix::display_name(Framing::http2), "HTTP/2");
  EXPECT_EQ(matrix::display_name(Framing::grpc), "gRPC");
  EXPECT_EQ(matrix::display_name(Framing::zap_http), "ZAP-HTTP");
  EXPECT_EQ(matrix::display_name(Framing::zap_rpc), "ZAP-RPC");
  EXPECT_EQ(matrix::display_name(Framing::raw_tcp), "raw TCP");
}

}  // namespace
