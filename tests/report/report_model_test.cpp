// tests/report/report_model_test.cpp — the model (src/report/model): sample
// statistics, a cell's key and figures, results.json's round trip and every
// error message of reading one, and Google Benchmark's JSON ingested.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "fixtures.hpp"
#include "report/compare.hpp"
#include "report/gbench.hpp"
#include "report/model.hpp"
#include "report/select.hpp"

namespace {

using namespace fixtures;

TEST(report_samples, median_of_odd_count_is_the_middle_value) {
  EXPECT_EQ((report::Samples{{3, 1, 2}, {}}).median(), 2);
  EXPECT_EQ((report::Samples{{7}, {}}).median(), 7);
}

TEST(report_samples, median_of_even_count_is_the_mean_of_the_middle_two) {
  EXPECT_EQ((report::Samples{{4, 1, 3, 2}, {}}).median(), 2.5);
  EXPECT_EQ((report::Samples{{10, 20}, {}}).median(), 15);
}

TEST(report_samples, min_max_and_spread) {
  const report::Samples s{{4, 1, 3, 2}, {}};
  EXPECT_EQ(s.min(), 1);
  EXPECT_EQ(s.max(), 4);
  EXPECT_DOUBLE_EQ(s.spread(), 3 / 2.5);
}

TEST(report_samples, empty_single_and_zero_median_give_zero_spread) {
  const report::Samples empty;
  EXPECT_EQ(empty.median(), 0);
  EXPECT_EQ(empty.min(), 0);
  EXPECT_EQ(empty.max(), 0);
  EXPECT_EQ(empty.spread(), 0);
  EXPECT_EQ((report::Samples{{5}, {}}).spread(), 0);
  EXPECT_EQ((report::Samples{{-1, 0, 1}, {}}).spread(), 0);
}

TEST(report_cell, id_rate_and_p99) {
  const Cell c = cell("zapbench", "rpc", "http", "direct", 10, 1, 1000, 50);
  EXPECT_EQ(c.id(), "zapbench/rpc/http/direct/c10/p1");
  EXPECT_EQ(cell("floor", "hello", "tcp", "", 1, 16, 1, 1).id(), "floor/hello/tcp//c1/p16");
  EXPECT_EQ(c.rate().values.size(), 3u);
  EXPECT_DOUBLE_EQ(c.rate().median(), 1000);
  EXPECT_DOUBLE_EQ(c.p99().median(), 50000);
  EXPECT_FALSE(c.noisy(0.1));
  EXPECT_TRUE(c.noisy(0.02));
}

TEST(report_cell, a_logs_cell_is_keyed_and_labelled_with_its_n) {
  Cell c = named_cell("zapbench", "logs", "zap", "zap", 16, 1);
  c.logs = 100;
  EXPECT_EQ(c.id(), "zapbench/logs-100/zap/zap/c16/p1");
  EXPECT_EQ(c.scenario_label(), "logs N=100");
  EXPECT_EQ(named_cell("zapbench", "rpc", "zap", "zap", 16, 1).scenario_label(), "rpc");
  // MB/s: as recorded, or (samples of earlier runs) the rate times the bytes per response.
  E2ESample s;
  s.requests_per_s = 1000;
  s.bytes_received_per_response = 2'000'000;
  c.samples = {s};
  EXPECT_DOUBLE_EQ(c.mb_per_s().median(), 2000);
  c.samples[0].received_mb_per_s = 1500;
  EXPECT_DOUBLE_EQ(c.mb_per_s().median(), 1500);
}

// An epoll cell's id says nothing of its io (ids of runs before the axis still match); an io_uring
// cell's ends in "/io_uring", before "/control".
TEST(report_cell, an_io_uring_cell_is_keyed_apart_and_an_epoll_one_as_before) {
  Cell c = cell("zapbench", "rpc", "zap-rpc", "zap", 1, 16, 1000, 50);
  EXPECT_EQ(c.io, matrix::Io::epoll);
  EXPECT_EQ(c.id(), "zapbench/rpc/zap-rpc/zap/c1/p16");
  c.io = matrix::Io::io_uring;
  EXPECT_EQ(c.id(), "zapbench/rpc/zap-rpc/zap/c1/p16/io_uring");
  c.control = true;
  EXPECT_EQ(c.id(), "zapbench/rpc/zap-rpc/zap/c1/p16/io_uring/control");
  Cell floor = named_cell("floor", "rpc", "tcp", "", 16, 1);
  floor.io = matrix::Io::io_uring;
  EXPECT_EQ(floor.id(), "floor/rpc/tcp//c16/p1/io_uring");
}

// results.json: every cell says its io; a cell without it (a run before the axis) is epoll, and such a
// file writes back as it was; an unknown io is refused with the choices.
TEST(report_json, io_round_trips_and_a_cell_without_it_is_epoll) {
  const Results r = with_io_uring();
  const std::string json = report::to_json(r);
  const Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(report::markdown(back), report::markdown(r));
  ASSERT_EQ(back.cells.size(), r.cells.size());
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    EXPECT_EQ(back.cells[i].io, r.cells[i].io) << r.cells[i].id();
    EXPECT_EQ(back.cells[i].id(), r.cells[i].id());
  }
  EXPECT_EQ(back.cells.back().io, matrix::Io::io_uring);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(json);
  for (const auto& c : j["cells"]) EXPECT_TRUE(c.contains("io")) << c.dump().substr(0, 200);
  EXPECT_EQ(j["cells"][0]["io"], "epoll");
  EXPECT_EQ(j["cells"][j["cells"].size() - 1]["io"], "io_uring");
  // Without "io" (every cell of an earlier run): epoll, and written back without it.
  nlohmann::ordered_json old = nlohmann::ordered_json::parse(report::to_json(synthetic()));
  for (auto& c : old["cells"]) c.erase("io");
  const Results earlier = report::from_json(old.dump(1));
  for (const Cell& c : earlier.cells) EXPECT_EQ(c.io, matrix::Io::epoll) << c.id();
  EXPECT_FALSE(earlier.io_recorded);
  EXPECT_EQ(report::to_json(earlier), old.dump(1) + "\n");
  j["cells"][0]["io"] = "kqueue";
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[0].io: unknown \"kqueue\" (one of: epoll, io_uring)");
}

// The server's system calls: written after its CPU time when counted, read back as written; a sample
// without them (a server on another host, perf unavailable, an earlier run) is NaN and writes back without.
TEST(report_json, server_syscalls_round_trip_and_a_sample_without_them_is_nan) {
  const Results r = with_syscalls(with_io_uring(), 2.5, 0.4);
  const std::string json = report::to_json(r);
  const Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(back.cells[0].samples[1].server_syscalls, r.cells[0].samples[1].server_syscalls);
  EXPECT_DOUBLE_EQ(back.cells[0].server_syscalls_per_request(back.config).median(), 2.5);
  EXPECT_LT(json.find("\"server_cpu_s\""), json.find("\"server_syscalls\""));
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(json);
  j["cells"][0]["samples"][0]["server_syscalls"] = "many";
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[0].samples[0].server_syscalls: expected a number");

  const std::string without = report::to_json(with_io_uring());
  EXPECT_FALSE(contains(without, "server_syscalls"));
  const Results earlier = report::from_json(without);
  EXPECT_TRUE(std::isnan(earlier.cells[0].samples[0].server_syscalls));
  EXPECT_TRUE(std::isnan(earlier.cells[0].server_syscalls_per_request(earlier.config).values[0]));
  EXPECT_EQ(report::to_json(earlier), without);
}

TEST(report_json, round_trip_is_exact_and_reproduces_both_reports) {
  const Results r = synthetic();
  const std::string json = report::to_json(r);
  const Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(report::markdown(back), report::markdown(r));
  EXPECT_EQ(report::html(back), report::html(r));
  EXPECT_EQ(back.cells[3].samples[2].mean_ns, r.cells[3].samples[2].mean_ns);  // not a short decimal
  EXPECT_EQ(back.env.libraries, r.env.libraries);
  EXPECT_EQ(back.config.loader_cpus, r.config.loader_cpus);
  EXPECT_EQ(back.cells.back().samples[0].errors_by_kind, r.cells.back().samples[0].errors_by_kind);
}

TEST(report_json, writes_members_in_struct_order_pretty_printed) {
  const std::string json = report::to_json(synthetic());
  EXPECT_TRUE(json.starts_with("{\n \"schema\": \"zapbench.results/1\",\n \"env\": {\n  \"cpu_model\""));
  EXPECT_LT(json.find("\"requests_per_s\""), json.find("\"p50_ns\""));
  EXPECT_LT(json.find("\"p50_ns\""), json.find("\"server_cpu_s\""));
}

TEST(report_json, a_non_finite_figure_round_trips_as_null) {
  Results r = synthetic();
  r.cells[0].samples[0].max_ns = std::numeric_limits<double>::quiet_NaN();
  const Results back = report::from_json(report::to_json(r));
  EXPECT_TRUE(std::isnan(back.cells[0].samples[0].max_ns));
}

TEST(report_json, rejects_another_schema) {
  nlohmann::json j = nlohmann::json::parse(report::to_json(synthetic()));
  j["schema"] = "zapbench.results/0";
  EXPECT_TRUE(contains(error_of(j.dump()),
                       "results.json: schema: expected \"zapbench.results/1\", got "
                       "\"zapbench.results/0\""))
      << error_of(j.dump());
}

TEST(report_json, names_a_missing_member) {
  nlohmann::json j = nlohmann::json::parse(report::to_json(synthetic()));
  j["cells"][3]["samples"][0].erase("requests_per_s");
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[3].samples[0].requests_per_s: missing");
  j = nlohmann::json::parse(report::to_json(synthetic()));
  j["env"].erase("hostname");
  EXPECT_EQ(error_of(j.dump()), "results.json: env.hostname: missing");
  j.erase("micro");
  EXPECT_EQ(error_of(j.dump()), "results.json: env.hostname: missing");  // the first problem wins
}

TEST(report_json, names_a_member_of_the_wrong_type) {
  nlohmann::json j = nlohmann::json::parse(report::to_json(synthetic()));
  j["cells"][3]["samples"][0]["requests_per_s"] = "fast";
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[3].samples[0].requests_per_s: expected a number");
  j = nlohmann::json::parse(report::to_json(synthetic()));
  j["config"]["repeats"] = -3;
  EXPECT_EQ(error_of(j.dump()), "results.json: config.repeats: expected a whole number >= 0");
  j = nlohmann::json::parse(report::to_json(synthetic()));
  j["micro"]["figures"][2]["ns_per_op"][1] = true;
  EXPECT_EQ(error_of(j.dump()), "results.json: micro.figures[2].ns_per_op[1]: expected a number");
  j = nlohmann::json::parse(report::to_json(synthetic()));
  j["codecs"] = nlohmann::json::object();
  EXPECT_EQ(error_of(j.dump()), "results.json: codecs: expected an array");
}

// A codec's family is written since issue 33: read back as written, refused when it names no family, and
// taken from the content type for a results.json without it.
TEST(report_json, codec_family_round_trips_and_older_files_derive_it) {
  report::Results r = synthetic();
  r.codecs.push_back({"protobuf", "application/x-protobuf", true, "", "SerializeToArray", "ParseFromArray",
                      false, matrix::Family::peer});
  const report::Results back = report::from_json(report::to_json(r));
  ASSERT_FALSE(back.codecs.empty());
  EXPECT_EQ(back.codecs.back().family, matrix::Family::peer);
  EXPECT_EQ(back.codecs.back().effective_family(), matrix::Family::peer);
  nlohmann::json j = nlohmann::json::parse(report::to_json(r));
  j["codecs"][j["codecs"].size() - 1]["family"] = "xml";
  EXPECT_TRUE(contains(error_of(j.dump()), ".family: expected \"zap\", \"json\" or \"peer\""))
      << error_of(j.dump());
  const report::Codec older{"zap", "application/zap", true, "", "", "",
                            false, std::nullopt};  // no family: an older results.json
  EXPECT_EQ(older.effective_family(), matrix::Family::zap);
  const report::Codec older_json{"simdjson", "application/json", true, "", "", "", false, std::nullopt};
  EXPECT_EQ(older_json.effective_family(), matrix::Family::json);
  const report::Codec older_peer{"protobuf", "application/x-protobuf", true, "", "", "", false, std::nullopt};
  EXPECT_EQ(older_peer.effective_family(), matrix::Family::peer);
}

TEST(report_json, go_cells_carry_their_server_and_modules_and_older_files_take_them_from_the_environment) {
  report::Results r = synthetic();
  Cell rpc = cell("go-zip", "rpc", "zap-rpc", "zap", 1, 16, 90000, 300);
  report::describe_go_cell(rpc,
                           {{"github.com/zap-proto/go", "v1.8.1"}, {"github.com/zap-proto/http", "v0.3.9"}});
  EXPECT_EQ(rpc.server, "zap-proto/go v1.8.1 ZAP-RPC");
  EXPECT_EQ(rpc.go_modules, (std::map<std::string, std::string>{{"github.com/zap-proto/go", "v1.8.1"}}));
  r.cells.push_back(rpc);
  Cell fasthttp = cell("go-fasthttp", "rpc", "zap", "zap", 1, 16, 150000, 200);
  report::describe_go_cell(fasthttp, {{"github.com/valyala/fasthttp", "v1.78.0"},
                                      {"github.com/zap-proto/go", "v1.3.0"},
                                      {"github.com/zap-proto/http", "v0.3.5"}});
  EXPECT_EQ(fasthttp.server, "");
  EXPECT_EQ(fasthttp.go_modules.size(), 3u);
  r.cells.push_back(fasthttp);
  const std::string json = report::to_json(r);
  const report::Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(back.cells[back.cells.size() - 2].server, "zap-proto/go v1.8.1 ZAP-RPC");
  EXPECT_EQ(back.cells.back().go_modules, fasthttp.go_modules);
  // Not a Go arm: neither member written.
  nlohmann::json j = nlohmann::json::parse(json);
  EXPECT_FALSE(j["cells"][0].contains("go_modules"));
  EXPECT_FALSE(j["cells"][0].contains("server"));

  // A results.json from before: no server, no go_modules; the run's env.libraries had both builds' modules
  // (zapbench-go-rpc's where they differ, named so): the same description, the same report.
  for (nlohmann::json& c : j["cells"]) {
    c.erase("server");
    c.erase("go_modules");
  }
  j["env"]["libraries"]["github.com/valyala/fasthttp"] = "v1.78.0 (Go module)";
  j["env"]["libraries"]["github.com/zap-proto/go"] = "v1.3.0 (Go module)";
  j["env"]["libraries"]["github.com/zap-proto/http"] = "v0.3.5 (Go module)";
  j["env"]["libraries"]["github.com/goccy/go-json"] = "v0.12.0 (Go module)";
  j["env"]["libraries"]["github.com/zap-proto/go (zapbench-go-rpc, the Go ZAP-RPC cells)"] =
      "v1.8.1 (Go module)";
  const report::Results older = report::from_json(j.dump());
  EXPECT_EQ(older.cells[older.cells.size() - 2].server, "zap-proto/go v1.8.1 ZAP-RPC");
  EXPECT_EQ(older.cells[older.cells.size() - 2].go_modules, rpc.go_modules);
  EXPECT_EQ(older.cells.back().go_modules, fasthttp.go_modules);
  for (const Cell& c : older.cells)
    if (c.arm == matrix::Arm::go_fasthttp && c.framing == matrix::Framing::http1 && c.body == "direct") {
      EXPECT_EQ(c.go_modules,
                (std::map<std::string, std::string>{{"github.com/goccy/go-json", "v0.12.0"},
                                                    {"github.com/valyala/fasthttp", "v1.78.0"}}));
    }
  // Without the modules in its environment (a run whose Go arm did not build): named, no version.
  j["env"]["libraries"] = nlohmann::json::object();
  const report::Results bare = report::from_json(j.dump());
  EXPECT_EQ(bare.cells[bare.cells.size() - 2].server, "zap-proto/go ZAP-RPC");
  EXPECT_TRUE(bare.cells.back().go_modules.empty());
}

TEST(report_json, rejects_text_that_is_not_json) {
  EXPECT_TRUE(error_of("{\"schema\": ").starts_with("results.json: not JSON: parse error")) << error_of("{");
  EXPECT_EQ(error_of("[1, 2]"), "results.json: expected a JSON object at the top level");
  EXPECT_EQ(error_of("{}"), "results.json: schema: missing");
  // A number past a double's range is nlohmann's out_of_range, read as the parser's error (results_fuzz).
  EXPECT_EQ(error_of("{\"schema\": 63120e950}"),
            "results.json: not JSON: number overflow parsing '63120e950'");
}

TEST(report_json, load_file_takes_a_file_or_its_directory_and_names_the_path) {
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / ("report_test_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string json = report::to_json(synthetic());
  std::ofstream(dir / "results.json") << json;
  EXPECT_EQ(report::to_json(report::load_file(dir.string())), json);
  EXPECT_EQ(report::to_json(report::load_file((dir / "results.json").string())), json);
  std::ofstream(dir / "bad.json") << "{\"schema\": 3}";
  try {
    report::load_file((dir / "bad.json").string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "bad.json").string() + ": schema: expected a string");
  }
  try {
    report::load_file((dir / "nope.json").string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_TRUE(contains(e.what(), (dir / "nope.json").string() + ": cannot read")) << e.what();
  }
  std::filesystem::remove(dir / "results.json");
  try {
    report::load_file(dir.string());
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": no results.json in this directory");
  }
  std::filesystem::remove_all(dir);
}

TEST(report_json, rounds_control_and_the_method_round_trip_and_are_checked) {
  Results r = synthetic();
  r.cells[0].control = true;
  const std::string json = report::to_json(r);
  EXPECT_TRUE(contains(json, "\"round\": 2"));
  EXPECT_TRUE(contains(json, "\"rounds\": [\n     0,\n     1,\n     2\n    ]"));
  EXPECT_TRUE(contains(json, "\"precision\": 0.03"));
  EXPECT_TRUE(contains(json, "\"budget_s\": 600"));
  const Results back = report::from_json(json);
  EXPECT_EQ(back.cells[0].samples[2].round, 2u);
  EXPECT_EQ(back.micro.figures[0].ns_per_op.rounds, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_TRUE(back.cells[0].control);
  EXPECT_DOUBLE_EQ(back.config.margin, 0.03);
  nlohmann::json j = nlohmann::json::parse(json);
  j["micro"]["figures"][1]["rounds"] = {0, 1};
  EXPECT_EQ(error_of(j.dump()),
            "results.json: micro.figures[1].rounds: expected one round per value of ns_per_op (3), got 2");
  j = nlohmann::json::parse(json);
  j["cells"][0]["samples"][0]["round"] = -1;
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[0].samples[0].round: expected a whole number >= 0");
  // A results.json without them (a run before verdicts) writes back as it was.
  const std::string old = report::to_json(without_rounds(synthetic()));
  EXPECT_FALSE(contains(old, "\"round\""));
  EXPECT_EQ(report::to_json(report::from_json(old)), old);
}

TEST(report_json, names_an_unknown_matrix_name_with_the_choices) {
  nlohmann::json j = nlohmann::json::parse(report::to_json(synthetic()));
  j["cells"][2]["arm"] = "apache";
  EXPECT_EQ(error_of(j.dump()),
            "results.json: cells[2].arm: unknown \"apache\" (one of: zapbench, go-zip, go-fasthttp, "
            "go-nethttp, nginx, h2o, nghttpd, grpc-cpp, floor)");
  j = nlohmann::json::parse(report::to_json(synthetic()));
  j["cells"][0]["framing"] = "HTTP/1.1";
  EXPECT_EQ(error_of(j.dump()),
            "results.json: cells[0].framing: unknown \"HTTP/1.1\" (one of: http, http2, grpc, zap, zap-rpc, "
            "tcp)");
}

// A results.json written before the load gate and the matrix types (the committed one, by an
// earlier zapbench) loads, writes back byte for byte, renders, and compares with a new one.
TEST(report_json, results_of_earlier_versions_load_and_compare_with_new_ones) {
  std::ifstream f(ZAPBENCH_EARLIER_RESULTS, std::ios::binary);
  ASSERT_TRUE(f) << ZAPBENCH_EARLIER_RESULTS;
  std::stringstream text;
  text << f.rdbuf();
  const Results old = report::from_json(text.str());
  EXPECT_EQ(report::to_json(old), text.str());
  EXPECT_FALSE(report::markdown(old).empty());
  EXPECT_FALSE(contains(report::markdown(old), "⚑"));  // no load recorded: nothing flagged
  Results now = old;
  now.env.online_cpus = 2;
  for (Cell& c : now.cells)
    for (E2ESample& s : c.samples) s.load_avg_1m = 0.5;
  const report::Comparison cmp = report::compare(old, now);
  EXPECT_TRUE(cmp.only_in_a.empty());
  EXPECT_TRUE(cmp.only_in_b.empty());
  EXPECT_FALSE(cmp.changes.empty());
  // No calibration on either side: the rule of earlier versions, said; the same samples: never a change.
  EXPECT_FALSE(cmp.calibrated);
  EXPECT_TRUE(contains(report::compare_text(cmp), "neither run has calibration"));
  for (const report::Change& ch : cmp.changes) {
    EXPECT_NE(ch.verdict, report::Change::Verdict::improved) << ch.key;
    EXPECT_NE(ch.verdict, report::Change::Verdict::regressed) << ch.key;
  }
}

TEST(report_json, logs_cells_round_trip_with_their_n_and_mb_per_s) {
  const Results r = with_logs_cells();
  const std::string json = report::to_json(r);
  const Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(report::markdown(back), report::markdown(r));
  EXPECT_EQ(back.cells.back().logs, 10'000u);
  EXPECT_DOUBLE_EQ(back.cells.back().samples[0].received_mb_per_s,
                   r.cells.back().samples[0].received_mb_per_s);
  // Only logs cells carry "logs"; one without it, or with 0, is refused by name.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(json);
  const std::size_t last = j["cells"].size() - 1;
  EXPECT_FALSE(j["cells"][0].contains("logs"));
  EXPECT_FALSE(j["cells"][0]["samples"][0].contains("received_mb_per_s"));
  EXPECT_EQ(j["cells"][last]["logs"], 10'000);
  j["cells"][last]["logs"] = 0;
  EXPECT_EQ(error_of(j.dump()),
            "results.json: cells[" + std::to_string(last) + "].logs: expected N >= 1 for the logs scenario");
  j["cells"][last].erase("logs");
  EXPECT_EQ(error_of(j.dump()), "results.json: cells[" + std::to_string(last) + "].logs: missing");
}

TEST(report_json, hosts_links_and_loader_host_rows_round_trip) {
  const Results r = with_hosts();
  const std::string json = report::to_json(r);
  const Results back = report::from_json(json);
  EXPECT_EQ(report::to_json(back), json);
  EXPECT_EQ(report::markdown(back), report::markdown(r));
  EXPECT_EQ(back.env.link, "ssh hosts");
  ASSERT_EQ(back.env.hosts.size(), 3u);
  const report::HostRow& h = back.env.hosts[1];
  EXPECT_EQ(h.role, "loader");
  EXPECT_EQ(h.host, "root@l1");
  EXPECT_EQ(h.version, r.env.hosts[1].version);
  EXPECT_EQ(h.hostname, "l1");
  EXPECT_EQ(h.kernel, "Linux 6.1.0");
  EXPECT_EQ(h.cpu_model, "Intel Xeon E5");
  EXPECT_EQ(h.cpu_count, 4u);
  EXPECT_EQ(h.allowed_cpus, "0-3");
  bool seen = false;
  for (std::size_t ci = 0; ci < r.cells.size(); ++ci)
    for (std::size_t si = 0; si < r.cells[ci].samples.size(); ++si) {
      const E2ESample &a = r.cells[ci].samples[si], &b = back.cells[ci].samples[si];
      ASSERT_EQ(a.loader_hosts.size(), b.loader_hosts.size());
      EXPECT_EQ(std::isnan(a.start_skew_ns), std::isnan(b.start_skew_ns));
      if (std::isfinite(a.start_skew_ns)) {
        EXPECT_EQ(a.start_skew_ns, b.start_skew_ns);
      }
      for (std::size_t k = 0; k < a.loader_hosts.size(); ++k) {
        const report::LoaderHostRow &x = a.loader_hosts[k], &y = b.loader_hosts[k];
        EXPECT_EQ(x.host, y.host);
        EXPECT_EQ(x.responses, y.responses);
        EXPECT_EQ(x.requests_per_s, y.requests_per_s);
        EXPECT_EQ(x.errors, y.errors);
        EXPECT_EQ(x.p50_ns, y.p50_ns);
        EXPECT_EQ(x.p99_ns, y.p99_ns);
        EXPECT_EQ(x.max_ns, y.max_ns);
        EXPECT_EQ(std::isnan(x.go_to_first_send_ns), std::isnan(y.go_to_first_send_ns));
        if (std::isfinite(x.go_to_first_send_ns)) {
          EXPECT_EQ(x.go_to_first_send_ns, y.go_to_first_send_ns);
        }
        EXPECT_EQ(std::isnan(x.go_rtt_ns), std::isnan(y.go_rtt_ns));
        if (std::isfinite(x.go_rtt_ns)) {
          EXPECT_EQ(x.go_rtt_ns, y.go_rtt_ns);
        }
        EXPECT_EQ(x.failure, y.failure);
        seen = true;
      }
    }
  EXPECT_TRUE(seen);
  // A member of a loader host row is required once the row is there.
  nlohmann::json j = nlohmann::json::parse(json);
  std::size_t ci = 0;
  while (j["cells"][ci]["samples"].empty() || !j["cells"][ci]["samples"][0].contains("loader_hosts")) ++ci;
  j["cells"][ci]["samples"][0]["loader_hosts"][1].erase("failure");
  EXPECT_EQ(error_of(j.dump()),
            "results.json: cells[" + std::to_string(ci) + "].samples[0].loader_hosts[1].failure: missing");
  j = nlohmann::json::parse(json);
  j["env"]["hosts"][0]["cpu_count"] = "eight";
  EXPECT_EQ(error_of(j.dump()), "results.json: env.hosts[0].cpu_count: expected a whole number >= 0");
}

// One host: nothing of several hosts is written (a run before them writes back byte for byte), and a
// file without them reads as one host over loopback.
TEST(report_json, one_host_writes_no_host_members_and_reads_them_as_none) {
  Results r = synthetic();
  std::string json = report::to_json(r);
  for (const char* member : {"\"link\"", "\"hosts\"", "\"loader_hosts\"", "\"start_skew_ns\""})
    EXPECT_FALSE(contains(json, member)) << member;
  const Results back = report::from_json(json);
  EXPECT_TRUE(back.env.link.empty());
  EXPECT_TRUE(back.env.hosts.empty());
  for (const Cell& c : back.cells)
    for (const E2ESample& s : c.samples) {
      EXPECT_TRUE(s.loader_hosts.empty());
      EXPECT_TRUE(std::isnan(s.start_skew_ns));
    }
  r.env.link = "loopback";  // written when known
  json = report::to_json(r);
  EXPECT_TRUE(contains(json, "\"link\": \"loopback\"")) << json.substr(0, 600);
  EXPECT_EQ(report::from_json(json).env.link, "loopback");
  EXPECT_EQ(report::markdown(report::from_json(json)), report::markdown(synthetic()));
}

TEST(report_gbench, ingests_repetitions_units_counters_and_skips) {
  const std::string text = R"({"context": {}, "benchmarks": [
    {"name": "Decode/zap", "run_name": "Decode/zap", "run_type": "iteration", "cpu_time": 4.5, "time_unit": "ns",
     "allocs/op": 0, "wire_bytes": 162},
    {"name": "Decode/zap", "run_name": "Decode/zap", "run_type": "iteration", "cpu_time": 0.0046, "time_unit": "us",
     "allocs/op": 0, "wire_bytes": 162},
    {"name": "Decode/zap_mean", "run_name": "Decode/zap", "run_type": "aggregate", "cpu_time": NaN},
    {"name": "Encode/x", "run_name": "Encode/x", "run_type": "iteration", "error_occurred": true,
     "error_message": "library missing"}]})";
  report::Micro m;
  std::vector<std::string> notes;
  report::ingest_google_benchmark(text, m, notes);
  ASSERT_EQ(m.figures.size(), 1u);
  EXPECT_EQ(m.figures[0].op, "Decode");
  EXPECT_EQ(m.figures[0].codec, "zap");
  EXPECT_EQ(m.figures[0].ns_per_op.values, (std::vector<double>{4.5, 4.6}));
  EXPECT_EQ(m.figures[0].wire_bytes, 162);
  EXPECT_EQ(notes, (std::vector<std::string>{"microbenchmark Encode/x skipped itself: library missing"}));
  EXPECT_THROW(report::ingest_google_benchmark("{", m, notes), std::runtime_error);
}

TEST(report_gbench, ingests_what_zapbench_go_could_not_measure) {
  const std::string text = R"({"context": {"go_version": "go1.26.8"}, "benchmarks": [
    {"name": "Decode/go/goccy", "run_name": "Decode/go/goccy", "run_type": "iteration", "cpu_time": 480,
     "time_unit": "ns", "allocs/op": 4, "wire_bytes": 233}],
    "unavailable": [{"name": "go/zap", "reason": "not in this build"}, {"name": 3}, "x"]})";
  report::Micro m;
  std::vector<std::string> notes;
  report::ingest_google_benchmark(text, m, notes);
  ASSERT_EQ(m.figures.size(), 1u);
  EXPECT_EQ(m.figures[0].op, "Decode");
  EXPECT_EQ(m.figures[0].codec, "go/goccy");
  EXPECT_TRUE(report::is_go_codec(m.figures[0].codec));
  ASSERT_EQ(m.unavailable_codecs.size(), 1u);  // entries without a name string are not codecs
  EXPECT_EQ(m.unavailable_codecs[0].name, "go/zap");
  EXPECT_EQ(m.unavailable_codecs[0].reason, "not in this build");
  EXPECT_EQ(report::go_counterpart("Decode", "go/zap"), "zap");
  EXPECT_EQ(report::go_counterpart("Encode", "go/zap"), "zap-fresh");
  EXPECT_EQ(report::go_counterpart("Encode", "go/zap-reset"), "zap");
  EXPECT_EQ(report::go_counterpart("Encode", "go/goccy"), "");
}

}  // namespace
