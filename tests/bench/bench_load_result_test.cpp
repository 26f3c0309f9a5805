// tests/bench_load_result_test.cpp — the load result file (bench/
// load_result.hpp): what `zapbench load --json-out` writes reads back to the
// same options and the same result, histograms bucket for bucket; strings
// are escaped; a damaged file fails naming the member. The merge of several
// loaders' files (merge_load_reports, docs/spec/hosts.md §5) is exact: it
// equals one loader that recorded everything, and refuses parts of different
// loads naming both.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/children/load_result.hpp"

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
  o.framing = matrix::Framing::zap_http;
  o.host = "127.0.0.1";
  o.port = 9999;
  o.scenario = matrix::Scenario::rpc;
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
  EXPECT_EQ(back.options.framing, o.framing);
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
  floor.framing = matrix::Framing::raw_tcp;
  floor.floor_request_bytes = 82;
  floor.floor_response_bytes = 80;
  load::Result r = sample_result();
  r.stopped = true;
  const bench::LoadReport f = bench::parse_load_result(bench::load_result_json(floor, r));
  EXPECT_EQ(f.options.framing, matrix::Framing::raw_tcp);
  EXPECT_EQ(f.options.floor_request_bytes, 82u);
  EXPECT_EQ(f.options.floor_response_bytes, 80u);
  EXPECT_EQ(f.options.body, nullptr);
  expect_same_result(r, f.result);

  load::Options zap;
  zap.framing = matrix::Framing::http1;
  zap.scenario = matrix::Scenario::rpc;
  zap.body = record::find_codec("zap");
  const bench::LoadReport z = bench::parse_load_result(bench::load_result_json(zap, load::Result{}));
  EXPECT_EQ(z.options.body, record::find_codec("zap"));
  EXPECT_EQ(z.options.scenario, matrix::Scenario::rpc);
  EXPECT_EQ(z.result.latency.count(), 0u);
}

// The logs scenario carries N; the file says the response bytes per second (derived, not read back).
TEST(bench_load_result, logs_round_trips_with_its_n_and_says_mb_per_s) {
  load::Options o;
  o.framing = matrix::Framing::zap_http;
  o.scenario = matrix::Scenario::logs;
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
  EXPECT_EQ(back.options.scenario, matrix::Scenario::logs);
  EXPECT_EQ(back.options.logs, 10'000u);
  EXPECT_EQ(back.options.body, record::find_codec("zap"));
  expect_same_result(r, back.result);

  // Another scenario writes "logs": 0; a file from before the logs scenario has none and still reads.
  nlohmann::ordered_json rpc = nlohmann::ordered_json::parse(bench::load_result_json(load::Options{}, r));
  EXPECT_EQ(rpc.at("logs"), 0);
  rpc.erase("logs");
  EXPECT_EQ(bench::parse_load_result(rpc.dump()).options.scenario, matrix::Scenario::hello);
}

// The zap-rpc framing by its name, with its unknown_promise count; a file from before it has no
// unknown_promise and still reads (as 0).
TEST(bench_load_result, zap_rpc_round_trips_with_its_unknown_promise_count) {
  load::Options o;
  o.framing = matrix::Framing::zap_rpc;
  o.scenario = matrix::Scenario::rpc;
  o.body = record::find_codec("zap");
  load::Result r = sample_result();
  r.errors[static_cast<int>(load::ErrorKind::unknown_promise)] = 3;
  const std::string text = bench::load_result_json(o, r);
  EXPECT_NE(text.find("\"framing\": \"zap-rpc\""), std::string::npos) << text.substr(0, 400);
  const bench::LoadReport back = bench::parse_load_result(text);
  EXPECT_EQ(back.options.framing, matrix::Framing::zap_rpc);
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
  logs.scenario = matrix::Scenario::logs;
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
  // A number past double's range is nlohmann's out_of_range, not a parse error: still this
  // function's runtime_error (found by fuzz/load_result_fuzz).
  std::string huge = good;
  const std::size_t at = huge.find("\"duration_s\": ") + 14;
  huge.insert(at, "1E999");
  huge.erase(at + 5, huge.find(',', at) - at - 5);
  EXPECT_EQ(error_of(huge).rfind("load result: not JSON: ", 0), 0u) << error_of(huge);
}

// --- the merge of several loaders' results ---------------------------------------------

// Through the file, as `zapbench load --merge` and the coordinator read them.
bench::LoadReport via_file(const load::Options& o, const load::Result& r) {
  return bench::parse_load_result(bench::load_result_json(o, r));
}

std::string merge_error(const std::vector<bench::LoadReport>& reports,
                        const std::vector<std::string>& names) {
  try {
    bench::merge_load_reports(reports, names);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

load::Options rpc_options() {
  load::Options o;
  o.framing = matrix::Framing::zap_http;
  o.host = "10.0.0.1";
  o.port = 8080;
  o.scenario = matrix::Scenario::rpc;
  o.body = record::find_codec("zap");
  o.pipeline = 4;
  o.duration_s = 2.5;
  o.warmup_s = 0.5;
  o.timeout_ms = 1000;
  return o;
}

// Three loaders recording random latencies (log-uniform over 100 ns .. 10 s, so
// every region of the layout is hit) and one that recorded all of them: the
// merge of the three, read back from their files, is that one, bucket for
// bucket and in every total, and its counts are the sums.
TEST(bench_load_result_merge, equals_one_histogram_of_every_latency_and_sums_the_counts) {
  std::mt19937_64 rng(19);
  std::uniform_real_distribution<double> log_ns(std::log(100.0), std::log(1e10));
  load::Result whole;
  std::vector<bench::LoadReport> parts;
  const unsigned conns[] = {6, 5, 5}, threads[] = {2, 1, 1}, counts[] = {20000, 15000, 1};
  for (int i = 0; i < 3; ++i) {
    load::Options o = rpc_options();
    o.connections = conns[i];
    o.threads = threads[i];
    load::Result r;
    r.elapsed_s = 2.5 + 0.01 * i;
    r.stopped = i == 1;
    r.requests = counts[i] + 3;
    r.responses = counts[i];
    r.bytes_sent = 100ull * (counts[i] + 3);
    r.bytes_received = 90ull * counts[i];
    r.errors[static_cast<int>(load::ErrorKind::timeout)] = i + 1;
    r.errors[static_cast<int>(load::ErrorKind::connect)] = 2 * i;
    r.connections_answered = conns[i];
    r.cpu_user_s = 0.5 + i;
    r.cpu_sys_s = 0.25 * i;
    r.go_to_first_send_ns = 1000 * (i + 1);
    for (unsigned k = 0; k < counts[i]; ++k) {
      const auto v = static_cast<std::uint64_t>(std::exp(log_ns(rng)));
      r.latency.record(v);
      whole.latency.record(v);
      r.latency_actual.record(v / 2);
      whole.latency_actual.record(v / 2);
    }
    const bench::LoadReport back = via_file(o, r);
    EXPECT_EQ(back.result.go_to_first_send_ns, 1000 * (i + 1));
    parts.push_back(back);
  }
  const bench::LoadReport m = bench::merge_load_reports(parts, {"a.json", "b.json", "c.json"});
  EXPECT_TRUE(m.result.latency == whole.latency);
  EXPECT_TRUE(m.result.latency_actual == whole.latency_actual);
  EXPECT_EQ(m.result.latency.totals(), whole.latency.totals());
  EXPECT_EQ(m.result.latency_actual.totals(), whole.latency_actual.totals());
  for (double p : {50.0, 90.0, 99.0, 99.9, 99.99, 100.0})
    EXPECT_EQ(m.result.latency.value_at_percentile(p), whole.latency.value_at_percentile(p)) << p;
  EXPECT_EQ(m.result.latency.count(), 35001u);
  EXPECT_EQ(m.result.responses, 35001u);
  EXPECT_EQ(m.result.requests, 35010u);
  EXPECT_EQ(m.result.bytes_sent, 100u * 35010);
  EXPECT_EQ(m.result.bytes_received, 90u * 35001);
  EXPECT_EQ(m.result.errors[static_cast<int>(load::ErrorKind::timeout)], 6u);
  EXPECT_EQ(m.result.errors[static_cast<int>(load::ErrorKind::connect)], 6u);
  EXPECT_EQ(m.result.error_total(), 12u);
  EXPECT_EQ(m.result.connections_answered, 16u);
  EXPECT_DOUBLE_EQ(m.result.elapsed_s, 2.5 + 0.01 * 2);  // the longest window
  EXPECT_TRUE(m.result.stopped);
  EXPECT_DOUBLE_EQ(m.result.cpu_user_s, 0.5 + 1.5 + 2.5);
  EXPECT_DOUBLE_EQ(m.result.cpu_sys_s, 0.75);
  EXPECT_EQ(m.result.go_to_first_send_ns, -1);   // each host's own; none for the merge
  EXPECT_EQ(m.result.window_first_send_ns, -1);  // never written to the file
  EXPECT_EQ(m.options.connections, 16u);
  EXPECT_EQ(m.options.threads, 4u);
  EXPECT_EQ(m.options.pipeline, 4u);
  EXPECT_EQ(m.options.body, record::find_codec("zap"));
  // The merged rate: all responses over the longest window, never above the sum of the hosts' rates.
  double sum = 0;
  for (const bench::LoadReport& p : parts) sum += p.result.rate_per_s();
  EXPECT_DOUBLE_EQ(m.result.rate_per_s(), 35001 / (2.5 + 0.01 * 2));
  EXPECT_LE(m.result.rate_per_s(), sum);
  // The merged file reads back as the merge.
  const bench::LoadReport again = via_file(m.options, m.result);
  EXPECT_TRUE(again.result.latency == whole.latency);
  EXPECT_EQ(again.options.connections, 16u);
}

// Percentiles come from the merged histogram, never from the parts' percentiles: a
// fast loader (1000 answers at 2 µs) and a slow one (100 at 1 ms) have p99s whose
// average (501 µs, or 92.7 µs weighted by count) is no percentile of the whole.
TEST(bench_load_result_merge, percentiles_are_the_merged_histograms_not_averages) {
  load::Result fast, slow, whole;
  fast.latency.record(2000, 1000);
  slow.latency.record(1'000'000, 100);
  whole.latency.record(2000, 1000);
  whole.latency.record(1'000'000, 100);
  fast.responses = 1000;
  slow.responses = 100;
  const load::Options o = rpc_options();
  const bench::LoadReport m =
      bench::merge_load_reports({via_file(o, fast), via_file(o, slow)}, {"fast", "slow"});
  const double mean_p99 =
      (double(fast.latency.value_at_percentile(99)) + double(slow.latency.value_at_percentile(99))) / 2;
  EXPECT_EQ(mean_p99, 501'000);
  EXPECT_EQ(m.result.latency.value_at_percentile(99), whole.latency.value_at_percentile(99));
  EXPECT_EQ(m.result.latency.value_at_percentile(99), 1'000'000u);  // rank 1089 of 1100
  EXPECT_NE(double(m.result.latency.value_at_percentile(99)), mean_p99);
  EXPECT_EQ(m.result.latency.value_at_percentile(90), 2000u);  // rank 990: still a fast answer
  EXPECT_EQ(m.result.latency.value_at_percentile(90), whole.latency.value_at_percentile(90));
}

// One part merges to itself (the coordinator with one loader host), its own go delay dropped; the
// rate and the earliest first send in memory (one process's clock).
TEST(bench_load_result_merge, one_part_open_loop_rates_and_the_earliest_first_send) {
  load::Options o = rpc_options();
  o.rate_per_s = 1000;
  load::Result a = sample_result(), b;
  a.intended_rate_per_s = 1000;
  a.go_to_first_send_ns = 5;
  a.window_first_send_ns = 700;
  const bench::LoadReport one = bench::merge_load_reports({{o, a}}, {"a"});
  EXPECT_TRUE(one.result.latency == a.latency);
  EXPECT_EQ(one.result.responses, a.responses);
  EXPECT_EQ(one.result.go_to_first_send_ns, -1);
  EXPECT_EQ(one.result.window_first_send_ns, 700);
  b.intended_rate_per_s = 500;
  b.window_first_send_ns = 650;
  load::Options ob = o;
  ob.rate_per_s = 500;
  ob.connections = 3;
  ob.threads = 2;
  load::Result none;  // sent nothing: -1 is no first send, never the earliest
  const bench::LoadReport m = bench::merge_load_reports({{o, a}, {ob, b}, {o, none}}, {"a", "b", "c"});
  EXPECT_EQ(m.options.rate_per_s, 2500);
  EXPECT_EQ(m.result.intended_rate_per_s, 1500);  // none's was 0 (not read from a file)
  EXPECT_EQ(m.options.connections, 23u);
  EXPECT_EQ(m.options.threads, 4u);
  EXPECT_EQ(m.result.window_first_send_ns, 650);
  EXPECT_EQ(bench::merge_load_reports({{o, none}}, {"n"}).result.window_first_send_ns, -1);
}

// Every option the merge requires equal names the member and both files when it differs.
TEST(bench_load_result_merge, a_differing_option_names_the_member_and_both_names) {
  const load::Options base = rpc_options();
  const bench::LoadReport a = via_file(base, sample_result());
  auto differing = [&](auto change) {
    load::Options o = base;
    change(o);
    return merge_error({a, via_file(o, sample_result())}, {"A.json", "B.json"});
  };
  EXPECT_EQ(differing([](load::Options& o) { o.framing = matrix::Framing::http1; }),
            "B.json: framing http, A.json: zap");
  EXPECT_EQ(differing([](load::Options& o) { o.scenario = matrix::Scenario::hello; }),
            "B.json: scenario hello, A.json: rpc");
  EXPECT_EQ(differing([](load::Options& o) { o.body = &record::default_json_codec(); }),
            "B.json: body " + std::string(record::default_json_codec().name) + ", A.json: zap");
  EXPECT_EQ(differing([](load::Options& o) { o.pipeline = 16; }), "B.json: pipeline 16, A.json: 4");
  EXPECT_EQ(differing([](load::Options& o) { o.duration_s = 10; }), "B.json: duration_s 10.0, A.json: 2.5");
  EXPECT_EQ(differing([](load::Options& o) { o.warmup_s = 1; }), "B.json: warmup_s 1.0, A.json: 0.5");
  EXPECT_EQ(differing([](load::Options& o) { o.timeout_ms = 5000; }),
            "B.json: timeout_ms 5000, A.json: 1000");
  EXPECT_EQ(differing([](load::Options& o) { o.host = "10.0.0.2"; }),
            "B.json: addr 10.0.0.2:8080, A.json: 10.0.0.1:8080");
  EXPECT_EQ(differing([](load::Options& o) { o.port = 8081; }),
            "B.json: addr 10.0.0.1:8081, A.json: 10.0.0.1:8080");
  // The logs scenario's N, and the floor's byte counts.
  load::Options logs = base;
  logs.scenario = matrix::Scenario::logs;
  logs.logs = 100;
  load::Options logs_1000 = logs;
  logs_1000.logs = 1000;
  EXPECT_EQ(merge_error({via_file(logs, load::Result{}), via_file(logs_1000, load::Result{})}, {"h1", "h2"}),
            "h2: logs 1000, h1: 100");
  load::Options floor;
  floor.framing = matrix::Framing::raw_tcp;
  floor.floor_request_bytes = 82;
  floor.floor_response_bytes = 80;
  load::Options floor_big = floor;
  floor_big.floor_request_bytes = 800;
  EXPECT_EQ(merge_error({via_file(floor, load::Result{}), via_file(floor_big, load::Result{})}, {"h1", "h2"}),
            "h2: request_bytes 800, h1: 82");
  floor_big = floor;
  floor_big.floor_response_bytes = 8;
  EXPECT_EQ(merge_error({via_file(floor, load::Result{}), via_file(floor_big, load::Result{})}, {"h1", "h2"}),
            "h2: response_bytes 8, h1: 80");
  // The third of three differs: named with the first.
  load::Options third = base;
  third.pipeline = 1;
  EXPECT_EQ(merge_error({a, a, via_file(third, load::Result{})}, {"x", "y", "z"}), "z: pipeline 1, x: 4");
  // What a merge sums may differ; what the file does not carry for this load does not count.
  load::Options summed = base;
  summed.connections = 99;
  summed.threads = 7;
  summed.rate_per_s = 5;
  summed.cpus = {3};
  EXPECT_EQ(merge_error({a, via_file(summed, load::Result{})}, {"A", "B"}), "(no error)");
  load::Options floor_rpc = floor;
  floor_rpc.scenario = matrix::Scenario::rpc;  // the floor has no scenario
  EXPECT_EQ(merge_error({{floor, load::Result{}}, {floor_rpc, load::Result{}}}, {"A", "B"}), "(no error)");
}

TEST(bench_load_result_merge, nothing_to_merge_is_an_error) {
  EXPECT_EQ(merge_error({}, {}), "merge of load results: no result to merge");
  EXPECT_THROW(bench::merge_load_reports({{load::Options{}, load::Result{}}}, {}), std::invalid_argument);
}

// go_to_first_send_ns is written always and read back; a file from before several hosts has none
// and reads as -1; window_first_send_ns (a process-local clock) is never written.
TEST(bench_load_result, go_to_first_send_round_trips_and_older_files_read_as_none) {
  load::Result r = sample_result();
  r.go_to_first_send_ns = 123456;
  r.window_first_send_ns = 99;
  const std::string text = bench::load_result_json(load::Options{}, r);
  EXPECT_NE(text.find("\n  \"go_to_first_send_ns\": 123456,\n"), std::string::npos);
  EXPECT_EQ(text.find("window_first_send_ns"), std::string::npos);
  const bench::LoadReport back = bench::parse_load_result(text);
  EXPECT_EQ(back.result.go_to_first_send_ns, 123456);
  EXPECT_EQ(back.result.window_first_send_ns, -1);
  EXPECT_NE(bench::load_result_json(load::Options{}, sample_result()).find("\"go_to_first_send_ns\": -1"),
            std::string::npos);
  nlohmann::ordered_json old = nlohmann::ordered_json::parse(text);
  old.erase("go_to_first_send_ns");
  EXPECT_EQ(bench::parse_load_result(old.dump()).result.go_to_first_send_ns, -1);
  old["go_to_first_send_ns"] = -2;
  EXPECT_EQ(error_of(old.dump()), "load result: go_to_first_send_ns: expected a whole number >= -1");
  old["go_to_first_send_ns"] = 1.5;
  EXPECT_EQ(error_of(old.dump()), "load result: go_to_first_send_ns: expected a whole number >= -1");
}

}  // namespace
