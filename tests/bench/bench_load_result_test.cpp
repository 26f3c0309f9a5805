// tests/bench_load_result_test.cpp — the load result file (bench/
// load_result.hpp): what `zapbench load --json-out` writes reads back to the
// same options and the same result, histograms bucket for bucket; strings
// are escaped; a damaged file fails naming the member.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "bench/load_result.hpp"

namespace {

load::Result sample_result() {
  load::Result r;
  r.elapsed_s = 1.25;
  r.requests = 1003;
  r.responses = 1000;
  r.bytes_sent = 162 * 1003;
  r.bytes_received = 170 * 1000;
  r.errors[static_cast<int>(load::ErrorKind::timeout)] = 2;
  r.errors[static_cast<int>(load::ErrorKind::closed)] = 1;
  r.connections_answered = 16;
  // Values across the linear range, several octaves, and past the ceiling.
  for (std::uint64_t v : {1ull, 999ull, 4095ull, 4096ull, 12345ull, 1234567ull, 9876543210ull})
    r.latency.record(v, v % 7 + 1);
  r.latency.record(load::Histogram::kHighestTrackableNs + 5);  // counted as overflow
  for (std::uint64_t v = 1000; v < 200000; v += 997) r.latency_actual.record(v);
  r.cpu_user_s = 0.75;
  r.cpu_sys_s = 0.125;
  return r;
}

void expect_same_result(const load::Result& a, const load::Result& b) {
  EXPECT_EQ(a.elapsed_s, b.elapsed_s);
  EXPECT_EQ(a.stopped, b.stopped);
  EXPECT_EQ(a.requests, b.requests);
  EXPECT_EQ(a.responses, b.responses);
  EXPECT_EQ(a.bytes_sent, b.bytes_sent);
  EXPECT_EQ(a.bytes_received, b.bytes_received);
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k)
    EXPECT_EQ(a.errors[k], b.errors[k]) << k;
  EXPECT_EQ(a.connections_answered, b.connections_answered);
  EXPECT_EQ(a.cpu_user_s, b.cpu_user_s);
  EXPECT_EQ(a.cpu_sys_s, b.cpu_sys_s);
  EXPECT_TRUE(a.latency == b.latency);
  EXPECT_TRUE(a.latency_actual == b.latency_actual);
  EXPECT_EQ(a.latency.totals(), b.latency.totals());
  EXPECT_EQ(a.latency.value_at_percentile(99.9), b.latency.value_at_percentile(99.9));
}

TEST(bench_load_result, rpc_json_round_trips_with_every_bucket) {
  load::Options o;
  o.wire = load::Wire::zap;
  o.host = "127.0.0.1";
  o.port = 9999;
  o.scenario = load::Scenario::rpc;
  o.body = &record::default_json_codec();
  o.connections = 16;
  o.threads = 2;
  o.pipeline = 4;
  o.duration_s = 1.5;
  o.warmup_s = 0.25;
  o.rate_per_s = 12345.5;
  o.timeout_ms = 750;
  const load::Result r = sample_result();
  const bench::LoadReport back = bench::parse_load_result(bench::load_result_json(o, r));
  EXPECT_EQ(back.options.wire, o.wire);
  EXPECT_EQ(back.options.host, o.host);
  EXPECT_EQ(back.options.port, o.port);
  EXPECT_EQ(back.options.scenario, o.scenario);
  EXPECT_EQ(back.options.body, o.body);
  EXPECT_EQ(back.options.connections, o.connections);
  EXPECT_EQ(back.options.threads, o.threads);
  EXPECT_EQ(back.options.pipeline, o.pipeline);
  EXPECT_EQ(back.options.duration_s, o.duration_s);
  EXPECT_EQ(back.options.warmup_s, o.warmup_s);
  EXPECT_EQ(back.options.rate_per_s, o.rate_per_s);
  EXPECT_EQ(back.options.timeout_ms, o.timeout_ms);
  expect_same_result(r, back.result);
}

TEST(bench_load_result, floor_and_zap_bodies_round_trip) {
  load::Options floor;
  floor.wire = load::Wire::floor;
  floor.floor_request_bytes = 82;
  floor.floor_response_bytes = 80;
  load::Result r = sample_result();
  r.stopped = true;
  const bench::LoadReport f = bench::parse_load_result(bench::load_result_json(floor, r));
  EXPECT_EQ(f.options.wire, load::Wire::floor);
  EXPECT_EQ(f.options.floor_request_bytes, 82u);
  EXPECT_EQ(f.options.floor_response_bytes, 80u);
  EXPECT_EQ(f.options.body, nullptr);
  expect_same_result(r, f.result);

  load::Options zap;
  zap.wire = load::Wire::http;
  zap.scenario = load::Scenario::rpc;
  zap.body = record::find_codec("zap");
  const bench::LoadReport z = bench::parse_load_result(bench::load_result_json(zap, load::Result{}));
  EXPECT_EQ(z.options.body, record::find_codec("zap"));
  EXPECT_EQ(z.options.scenario, load::Scenario::rpc);
  EXPECT_EQ(z.result.latency.count(), 0u);
}

// The logs scenario carries N; the file says the response bytes per second (derived, not read back).
TEST(bench_load_result, logs_round_trips_with_its_n_and_says_mb_per_s) {
  load::Options o;
  o.wire = load::Wire::zap;
  o.scenario = load::Scenario::logs;
  o.logs = 10'000;
  o.body = record::find_codec("zap");
  const load::Result r = sample_result();
  const std::string text = bench::load_result_json(o, r);
  EXPECT_NE(text.find("\n  \"scenario\": \"logs\",\n  \"body\": \"zap\",\n  \"logs\": 10000,\n"),
            std::string::npos)
      << text.substr(0, 400);
  const nlohmann::json j = nlohmann::json::parse(text);
  EXPECT_DOUBLE_EQ(j.at("received_mb_per_s").get<double>(), 170.0 * 1000 / 1.25 / 1e6);
  EXPECT_DOUBLE_EQ(r.received_mb_per_s(), 170.0 * 1000 / 1.25 / 1e6);
  const bench::LoadReport back = bench::parse_load_result(text);
  EXPECT_EQ(back.options.scenario, load::Scenario::logs);
  EXPECT_EQ(back.options.logs, 10'000u);
  EXPECT_EQ(back.options.body, record::find_codec("zap"));
  expect_same_result(r, back.result);

  // Another scenario writes "logs": 0; a file from before the logs scenario has none and still reads.
  nlohmann::ordered_json rpc = nlohmann::ordered_json::parse(bench::load_result_json(load::Options{}, r));
  EXPECT_EQ(rpc.at("logs"), 0);
  rpc.erase("logs");
  EXPECT_EQ(bench::parse_load_result(rpc.dump()).options.scenario, load::Scenario::hello);
}

// The zap-rpc framing by its name, with its unknown_promise count; a file from before it has no
// unknown_promise and still reads (as 0).
TEST(bench_load_result, zap_rpc_round_trips_with_its_unknown_promise_count) {
  load::Options o;
  o.wire = load::Wire::zap_rpc;
  o.scenario = load::Scenario::rpc;
  o.body = record::find_codec("zap");
  load::Result r = sample_result();
  r.errors[static_cast<int>(load::ErrorKind::unknown_promise)] = 3;
  const std::string text = bench::load_result_json(o, r);
  EXPECT_EQ(bench::framing_name(load::Wire::zap_rpc), "zap-rpc");
  EXPECT_NE(text.find("\"framing\": \"zap-rpc\""), std::string::npos) << text.substr(0, 400);
  const bench::LoadReport back = bench::parse_load_result(text);
  EXPECT_EQ(back.options.wire, load::Wire::zap_rpc);
  expect_same_result(r, back.result);

  nlohmann::ordered_json old =
      nlohmann::ordered_json::parse(bench::load_result_json(load::Options{}, sample_result()));
  old.at("errors").erase("unknown_promise");
  EXPECT_EQ(
      bench::parse_load_result(old.dump()).result.errors[static_cast<int>(load::ErrorKind::unknown_promise)],
      0u);
}

TEST(bench_load_result, strings_are_escaped) {
  load::Options o;
  o.host = "we\"ird\\host\n";  // never a real host: the file must still be JSON
  const std::string text = bench::load_result_json(o, load::Result{});
  const nlohmann::json j = nlohmann::json::parse(text);  // throws if the escaping were wrong
  EXPECT_EQ(j.at("addr").get<std::string>(), "we\"ird\\host\n:0");
  EXPECT_EQ(bench::parse_load_result(text).options.host, o.host);
}

TEST(bench_load_result, the_layout_stays_greppable) {
  // Shell tests grep the file ("responses": N, "buckets": [[...); keep one member per line.
  const std::string text = bench::load_result_json(load::Options{}, sample_result());
  EXPECT_NE(text.find("\n  \"responses\": 1000,\n"), std::string::npos) << text.substr(0, 800);
  EXPECT_NE(text.find("\"buckets\": [["), std::string::npos);
  EXPECT_NE(text.find("\"stopped\": false"), std::string::npos);
}

std::string error_of(const std::string& text) {
  try {
    bench::parse_load_result(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(bench_load_result, damage_names_the_member) {
  const std::string good = bench::load_result_json(load::Options{}, sample_result());
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(good);
  j.erase("responses");
  EXPECT_EQ(error_of(j.dump()), "load result: responses: missing");
  load::Options logs;
  logs.scenario = load::Scenario::logs;
  logs.body = record::find_codec("zap");
  j = nlohmann::ordered_json::parse(bench::load_result_json(logs, sample_result()));
  j["logs"] = 0;
  EXPECT_EQ(error_of(j.dump()), "load result: logs: expected N >= 1 for the logs scenario");
  j.erase("logs");
  EXPECT_EQ(error_of(j.dump()), "load result: logs: missing");
  j = nlohmann::ordered_json::parse(bench::load_result_json(logs, sample_result()));
  j["scenario"] = "log";
  EXPECT_EQ(error_of(j.dump()), "load result: scenario: unknown \"log\"");
  j = nlohmann::ordered_json::parse(good);
  j["latency"]["count"] = 3;
  EXPECT_EQ(error_of(j.dump()), "load result: latency: the totals do not match the buckets");
  j = nlohmann::ordered_json::parse(good);
  j["latency"]["buckets"][0][0] = 4097;  // inside a two-wide bucket, not its low end
  EXPECT_NE(error_of(j.dump()).find("latency.buckets[0]"), std::string::npos) << error_of(j.dump());
  j = nlohmann::ordered_json::parse(good);
  j["tool"] = "wrk";
  EXPECT_EQ(error_of(j.dump()), "load result: tool: expected \"zapbench load\"");
  EXPECT_NE(error_of("{").find("not JSON"), std::string::npos);
}

}  // namespace
