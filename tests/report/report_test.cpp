// tests/report/report_test.cpp — the report component (src/report): sample
// statistics, results.json round trip and its error messages, what report.md
// and report.html say about a synthetic run (ratios, ⚠ noisy, unavailable,
// errors, escaping) and compare's verdicts. `report_test --write-synthetic
// FILE` writes the synthetic run as results.json for report_html_test.sh.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

#include "report/gbench.hpp"
#include "report/model.hpp"
#include "report/select.hpp"

namespace {

using report::Cell;
using report::E2ESample;
using report::Results;

// A cell whose three samples have medians `rate_per_s` and `p99_us`, spread
// 3% (or as given by lo/hi factors).
// The axes by their stable names (matrix/matrix.hpp), as results.json spells them.
Cell named_cell(const std::string& arm, const std::string& scenario, const std::string& framing,
                std::string body, unsigned conns, unsigned pipeline) {
  Cell c;
  c.arm = matrix::arm_from(arm).value();
  c.scenario = matrix::scenario_from(scenario).value();
  c.framing = matrix::framing_from(framing).value();
  c.body = std::move(body);
  c.connections = conns;
  c.pipeline = pipeline;
  return c;
}

Cell cell(const std::string& arm, const std::string& scenario, const std::string& framing, std::string body,
          unsigned conns, unsigned pipeline, double rate_per_s, double p99_us, double lo = 0.98,
          double hi = 1.01) {
  Cell c = named_cell(arm, scenario, framing, std::move(body), conns, pipeline);
  c.server_command = "zapbench serve --http 127.0.0.1:0 --cpus 0";
  c.loader_command = "zapbench load --addr 127.0.0.1:1 -c " + std::to_string(conns);
  for (double f : {lo, 1.0, hi}) {
    E2ESample s;
    s.round = unsigned(c.samples.size());  // round k is the k-th sample
    s.requests_per_s = rate_per_s * f;
    s.p50_ns = p99_us * 400 * f;
    s.p90_ns = p99_us * 800 * f;
    s.p99_ns = p99_us * 1000 * f;
    s.p999_ns = p99_us * 1500 * f;
    s.max_ns = p99_us * 3000 * f + 0.1;
    s.mean_ns = p99_us * 450 * f + 1.0 / 3;
    s.responses = std::uint64_t(rate_per_s * f * 2.5);
    s.errors = 0;
    s.errors_by_kind = {{"status", 0}};
    s.bytes_sent_per_request = 162;
    s.bytes_received_per_response = 162;
    s.loader_cpu_s = 2.4 * f;
    s.server_cpu_s = 2.1 * f + 0.1 + 0.2;
    c.samples.push_back(s);
  }
  return c;
}

report::MicroFigure figure(const std::string& op, const std::string& codec, double ns, double allocs,
                           double wire) {
  return {op + "/" + codec, op, codec, {{ns * 0.99, ns, ns * 1.02}, {0, 1, 2}}, allocs, wire};
}

// Every member of the model set to something other than its default.
Results synthetic() {
  Results r;
  r.env = {"AMD EPYC 7B13",
           2,
           "Linux 6.1.0-18-amd64",
           "bench-vm",
           "GNU 12.2.0",
           "-O3 -DNDEBUG",
           "a831f45+dirty",
           {{"nlohmann_json", "3.11.2"}, {"rapidjson", "unavailable: not found at configure time"}},
           "zapbench run --quick --out /tmp/r",
           "2026-12-01T10:00:00Z",
           184.25,
           0,
           "",
           {}};
  r.config.mode = "quick";
  r.config.repeats = 3;
  r.config.precision = 0.03;
  r.config.budget_s = 600;
  r.config.margin = 0.03;
  r.config.duration_s = 2.5;
  r.config.warmup_s = 0.5;
  r.config.server_cpus = {0};
  r.config.loader_cpus = {1};
  r.config.noisy_spread = 0.15;
  r.config.micro_repetitions = 3;
  r.config.micro_min_time_s = 0.25;
  r.codecs = {
      {"zap", "application/zap", true, "", "zap::Builder (reused)", "zap::Reader views"},
      {"zap-fresh", "application/zap", true, "", "a new zap::Builder per message", "zap::Reader views"},
      {"direct", "application/json", true, "", "record json_writer", "record json_reader"},
      {"rapidjson", "application/json", false, "not found at configure time", "", ""},
      {"nlohmann", "application/json", true, "", "nlohmann::json::dump", "nlohmann::json::parse (DOM)"}};
  r.micro.command = "zapbench micro --cpu 1 --repetitions 3";
  for (const char* op : {"Decode", "Encode", "Serde", "Handler"}) {
    const std::string o = op;
    if (o != "Decode") r.micro.figures.push_back(figure(o, "zap-fresh", 50, 2, 162));
    r.micro.figures.push_back(figure(o, "zap", o == "Decode" ? 4 : 15, 0, 162));
    r.micro.figures.push_back(figure(o, "direct", o == "Decode" ? 68 : 52, 0, 233));
    r.micro.figures.push_back(figure(o, "nlohmann", o == "Decode" ? 1360 : 640, 11.5, 233));
  }
  // The Go reference's rows (zapbench-go micro), and what its build lacked.
  r.micro.go_command = "GOMAXPROCS=1 taskset -c 1 zapbench-go micro --json-out go-micro.json";
  r.micro.figures.push_back(figure("Decode", "go/goccy", 500, 4, 233));
  r.micro.figures.push_back(figure("Handler", "go/goccy", 440, 4, 233));
  r.micro.figures.push_back(figure("Decode", "go/stdlib", 2300, 13, 233));
  // The request path: ZAP-HTTP + ZAP counted by callgrind, HTTP/1.1 + ZAP not (no figure).
  r.micro.figures.push_back(figure("Server", "zap-http/zap", 20, 0, 402));
  r.micro.figures.push_back(figure("Server", "http1/zap", 60, 0, 364));
  r.micro.instructions.requests = 16000;
  r.micro.instructions.tools = "valgrind-3.19.0";
  r.micro.instructions.perf_unavailable = "perf: the instructions counter is not supported on this machine";
  r.micro.instructions.figures = {{"Server/zap-http/zap", 552.0625, std::nan("")}};
  r.micro.figures.push_back(figure("Http", "parse/own", 35.5, 0, 0));
  r.micro.figures.back().op = "Http";
  r.micro.figures.back().codec = "parse/own";
  r.micro.unavailable_codecs = {{"rapidjson", "not found at configure time"}};
  r.micro.unavailable_codecs.push_back({"go/zap", "zap-proto/go is not in this build"});

  for (unsigned c : {1u, 10u, 100u}) {
    // hello: the noisy cell is zapbench HTTP/1.1 at 100 connections.
    r.cells.push_back(c == 100 ? cell("zapbench", "hello", "http", "", c, 1, 120000, 900, 0.8, 1.1)
                               : cell("zapbench", "hello", "http", "", c, 1, 20000.0 * c, 50));
    r.cells.push_back(cell("zapbench", "hello", "zap", "", c, 1, 25000.0 * c, 45));
    r.cells.push_back(cell("nginx", "hello", "http", "", c, 1, 21000.0 * c, 48));
    r.cells.push_back(cell("floor", "hello", "tcp", "", c, 1, 40000.0 * c, 30));
    // rpc: at 10 connections direct 100k, nlohmann 50k, HTTP+ZAP 160k, ZAP+ZAP 200k, ZAP+direct 120k, floor
    // 400k.
    const double k = c / 10.0;
    r.cells.push_back(cell("zapbench", "rpc", "http", "direct", c, 1, 100000 * k, 60));
    r.cells.push_back(cell("zapbench", "rpc", "http", "nlohmann", c, 1, 50000 * k, 120));
    r.cells.push_back(cell("zapbench", "rpc", "http", "zap", c, 1, 160000 * k, 55));
    r.cells.push_back(cell("zapbench", "rpc", "zap", "zap", c, 1, 200000 * k, 50));
    r.cells.push_back(cell("zapbench", "rpc", "zap", "direct", c, 1, 120000 * k, 58));
    r.cells.push_back(cell("floor", "rpc", "tcp", "", c, 1, 400000 * k, 20));
    // The Go reference's fasthttp server at half our JSON rate; its zip arm not built.
    r.cells.push_back(cell("go-fasthttp", "rpc", "http", "direct", c, 1, 50000 * k, 90));
    r.cells.back().server_codec = "go/goccy";
    Cell no_zip = named_cell("go-zip", "rpc", "http", "direct", c, 1);
    no_zip.unavailable = "zap-proto/zip is not in this build";
    r.cells.push_back(no_zip);
    Cell missing = named_cell("zapbench", "rpc", "http", "rapidjson", c, 1);
    missing.unavailable = "rapidjson: not found at configure time";
    r.cells.push_back(missing);
  }
  // The nlohmann cell at 100 connections saw errors in one sample.
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/http/nlohmann/c100/p1") {
      c.samples[1].errors = 12;
      c.samples[1].errors_by_kind = {{"status", 10}, {"timeout", 2}};
    }
  for (unsigned c : {10u, 100u}) {
    r.cells.push_back(cell("zapbench", "rpc", "http", "direct", c, 16, 300000.0 * c / 10, 400));
    r.cells.push_back(cell("zapbench", "rpc", "zap", "zap", c, 16, 600000.0 * c / 10, 300));
    r.cells.push_back(cell("floor", "rpc", "tcp", "", c, 16, 900000.0 * c / 10, 200));
  }
  r.notes = {"nginx: /usr/sbin/nginx 1.22.1", "steal time 3.1% during the run"};
  return r;
}

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

std::string error_of(const std::string& text) {
  try {
    report::from_json(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(no error)";
}

// --- Samples and Cell ---------------------------------------------------------------

TEST(report_samples, median_of_odd_count_is_the_middle_value) {
  EXPECT_EQ((report::Samples{{3, 1, 2}}).median(), 2);
  EXPECT_EQ((report::Samples{{7}}).median(), 7);
}

TEST(report_samples, median_of_even_count_is_the_mean_of_the_middle_two) {
  EXPECT_EQ((report::Samples{{4, 1, 3, 2}}).median(), 2.5);
  EXPECT_EQ((report::Samples{{10, 20}}).median(), 15);
}

TEST(report_samples, min_max_and_spread) {
  const report::Samples s{{4, 1, 3, 2}};
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
  EXPECT_EQ((report::Samples{{5}}).spread(), 0);
  EXPECT_EQ((report::Samples{{-1, 0, 1}}).spread(), 0);
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

// --- results.json ---------------------------------------------------------------------

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
  r.codecs.push_back(
      {"protobuf", "application/x-protobuf", true, "", "SerializeToArray", "ParseFromArray", false, "peer"});
  const report::Results back = report::from_json(report::to_json(r));
  ASSERT_FALSE(back.codecs.empty());
  EXPECT_EQ(back.codecs.back().family, "peer");
  EXPECT_EQ(back.codecs.back().family_name(), "peer");
  nlohmann::json j = nlohmann::json::parse(report::to_json(r));
  j["codecs"][j["codecs"].size() - 1]["family"] = "xml";
  EXPECT_TRUE(contains(error_of(j.dump()), ".family: expected \"zap\", \"json\" or \"peer\""))
      << error_of(j.dump());
  const report::Codec older{"zap", "application/zap", true, "", "", ""};
  EXPECT_EQ(older.family_name(), "zap");
  const report::Codec older_json{"simdjson", "application/json", true, "", "", ""};
  EXPECT_EQ(older_json.family_name(), "json");
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

// --- report.md -------------------------------------------------------------------------

TEST(report_markdown, has_every_section_in_order) {
  const std::string md = report::markdown(synthetic());
  std::size_t at = 0;
  for (const char* heading :
       {"# zapbench results", "## How it was measured", "## Fairness", "## Microbenchmarks",
        "### The Go reference, measured here", "### The server's request path", "### Other microbenchmarks",
        "## End to end", "### hello, pipeline depth 1", "### rpc, pipeline depth 1",
        "### rpc, pipeline depth 16", "## Command lines", "## Caveats"}) {
    const std::size_t next = md.find(std::string(heading) + "\n", at);
    EXPECT_TRUE(next != std::string::npos && (next == 0 || md[next - 1] == '\n')) << heading;
    if (next != std::string::npos) at = next + 1;
  }
  EXPECT_TRUE(md.starts_with("# zapbench results\n"));
}

TEST(report_markdown, states_where_and_how) {
  const std::string md = report::markdown(synthetic());
  for (const char* s :
       {"| CPU | AMD EPYC 7B13 × 2 |", "| git commit | `a831f45+dirty` |",
        "| command | `zapbench run --quick --out /tmp/r` |", "| nlohmann\\_json | 3.11.2 |",
        "Server pinned to CPUs 0, loader to CPUs 1", "each sample a fresh server process and a fresh",
        "exceeds 15% is flagged ⚠ noisy", "| rapidjson | application/json | unavailable: not found",
        "| text | direct | application/json | record json\\_writer | record json\\_reader |",
        "- nginx: /usr/sbin/nginx 1.22.1", "- steal time 3.1% during the run",
        "| wall time | 184.2 s (3 min 4 s) |"})
    EXPECT_TRUE(contains(md, s)) << s;
}

TEST(report_markdown, micro_table_and_ratios_against_the_fastest_json) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(
      md,
      "| format | codec | Decode ns | allocs | Encode ns | allocs | Serde ns | allocs | Handler ns | "
      "allocs | wire bytes |"));
  EXPECT_TRUE(contains(md, "| binary | zap | 4.00 (3.96–4.08) | 0 | 15.0 (14.8–15.3) | 0 |"));
  EXPECT_TRUE(contains(md, "| binary | zap-fresh | — | — | 50.0 (49.5–51.0) | 2 |"));
  EXPECT_TRUE(contains(md, "| text | nlohmann | 1360 (1346–1387) | 11.50 |"));
  // Text first, then binary.
  EXPECT_LT(md.find("| text | nlohmann | 1360"), md.find("| binary | zap | 4.00"));
  // Decode: direct 68 ns / zap 4 ns = 17×; nlohmann 68 / 1360 = 0.05×. No binary peer in this run: —.
  // Every figure's rounds spread alike (0.99, 1, 1.02): each round's ratio is the same, so is the interval.
  EXPECT_TRUE(contains(md,
                       "| binary | zap | 17.00× (17.00–17.00) ▲ | — | 3.47× (3.47–3.47) ▲ | — | 3.47× "
                       "(3.47–3.47) ▲ | — | 3.47× (3.47–3.47) ▲ | — |"))
      << md;
  EXPECT_TRUE(contains(md, "| text | nlohmann | 0.05× (0.05–0.05) ▼ | — | 0.08× (0.08–0.08) ▼ | — |"));
  EXPECT_TRUE(contains(md, "| text | direct | 1× (itself) | — |"));
  EXPECT_TRUE(contains(md, "In brackets the 95% confidence interval; ▲ ahead (the interval lies above 1×)"));
  EXPECT_TRUE(contains(md, "Fastest: Decode: JSON direct (68.0 ns)"));
  EXPECT_TRUE(contains(md, "| Http/parse/own | 35.5 (35.1–36.2) | 0 | — |"));
  EXPECT_TRUE(contains(md, "- **rapidjson**: unavailable: not found at configure time"));
}

// A run with binary peers: grouped with ZAP as binary, compared with as the fastest binary peer (never a
// decoder for trusted input only), and summarised first ("What it found").
Results with_peers() {
  Results r = synthetic();
  r.codecs.push_back(
      {"protobuf", "application/x-protobuf", true, "", "SerializeToArray", "ParseFromArray", false, "peer"});
  r.codecs.push_back({"flatbuffers-trusted", "application/x-flatbuffers", true, "", "FlatBufferBuilder",
                      "accessors, no verifier", true, "peer"});
  for (const char* op : {"Decode", "Encode", "Serde", "Handler"}) {
    r.micro.figures.push_back(figure(op, "protobuf", 40, 0, 150));
    r.micro.figures.push_back(figure(op, "flatbuffers-trusted", 2, 0, 300));
  }
  for (unsigned c : {1u, 10u, 100u})
    r.cells.push_back(cell("zapbench", "rpc", "zap", "protobuf", c, 1, 150000 * (c / 10.0), 52));
  // At depth 16 (ZAP-HTTP + ZAP: 600k per 10 connections) JSON 400k and protobuf 450k per 10 connections.
  for (unsigned c : {10u, 100u}) {
    r.cells.push_back(cell("zapbench", "rpc", "zap", "direct", c, 16, 400000.0 * c / 10, 350));
    r.cells.push_back(cell("zapbench", "rpc", "zap", "protobuf", c, 16, 450000.0 * c / 10, 320));
  }
  return r;
}

TEST(report_markdown, binary_peers_are_grouped_compared_and_summarised) {
  const std::string md = report::markdown(with_peers());
  // Decode: protobuf 40 ns / zap 4 ns = 10×; the trusted row (2 ns) is shown but never "the fastest peer".
  EXPECT_TRUE(contains(md, "| binary | zap | 17.00× (17.00–17.00) ▲ | 10.00× (10.00–10.00) ▲ |")) << md;
  EXPECT_TRUE(
      contains(md, "| binary | flatbuffers-trusted | 34.00× (34.00–34.00) ▲ | 20.00× (20.00–20.00) ▲ |"));
  EXPECT_TRUE(contains(md, "Decode: JSON direct (68.0 ns), binary protobuf (40.0 ns)"));
  // The summary opens the report, before the run's table, each line linking to its table.
  const std::size_t found = md.find("## What it found");
  ASSERT_NE(found, std::string::npos);
  EXPECT_LT(found, md.find("## The run"));
  EXPECT_TRUE(
      contains(md,
               "- **Decode** — time per op: ZAP (4.00 ns) against the fastest JSON, direct (68.0 ns): "
               "**ahead, 17.00× (17.00–17.00×), 3 rounds** — [table](#micro)."))
      << md.substr(found, 2000);
  EXPECT_TRUE(
      contains(md,
               "- **Decode** — time per op: ZAP (4.00 ns) against the fastest binary peer, protobuf (40.0 "
               "ns): **ahead, 10.00× (10.00–10.00×), 3 rounds** — [table](#micro)."));
  // End to end: the deepest pipeline, ZAP-HTTP at the connection count where ZAP peaks (100), against
  // direct and protobuf, in requests/s and in server CPU per request; HTTP/1.1 has no ZAP body at that
  // depth, so no line.
  EXPECT_TRUE(
      contains(md,
               "- **ZAP-HTTP, rpc, depth 16, 100 connections** — requests/s: ZAP (6,000,000) against the "
               "fastest JSON body, direct (4,000,000): **ahead, 1.50× (1.50–1.50×), 3 rounds** — "
               "[table](#e2e-rpc-p16)."));
  EXPECT_TRUE(
      contains(md,
               "- **ZAP-HTTP, rpc, depth 16, 100 connections** — server CPU per request: ZAP (0.13 µs) "
               "against the fastest binary peer body, protobuf (0.18 µs): **ahead, 1.33× (1.33–1.33×), "
               "3 rounds**"));
  EXPECT_FALSE(contains(md, "**HTTP/1.1, rpc, depth 16"));
  EXPECT_TRUE(contains(md, "<a id=\"e2e-rpc-p1\"></a>"));
  // e2e rows: the peer is its own row, labelled as itself, with a ÷ best binary column.
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP + protobuf |"));
  EXPECT_TRUE(contains(md,
                       "| binary | flatbuffers-trusted | application/x-flatbuffers | FlatBufferBuilder | "
                       "accessors, no verifier (trusted input only) |"));
  EXPECT_TRUE(contains(md, "÷ best binary"));
  const std::string html = report::html(with_peers());
  EXPECT_TRUE(contains(html, "<a href=\"#micro\">table</a>"));
  EXPECT_TRUE(contains(html, "<h2 id=\"found\">What it found</h2>"));
}

// ZAP against what binary RPC runs on: ZAP-RPC + ZAP against the grpc++ arm at each depth, in server CPU per
// request, above the floor too, with zapbench's own four corners of body x framing.
TEST(report_markdown, zap_rpc_against_grpc_cpp_with_the_body_and_framing_shares) {
  Results r = with_peers();
  // Every sample's server CPU is the same, so CPU per request is inverse to the rate (3 s a sample).
  r.cells.push_back(cell("grpc-cpp", "rpc", "grpc", "protobuf", 1, 16, 30000, 500));
  r.cells.push_back(cell("zapbench", "rpc", "zap-rpc", "zap", 1, 16, 300000, 60));
  r.cells.push_back(cell("zapbench", "rpc", "grpc", "protobuf", 1, 16, 150000, 90));
  r.cells.push_back(cell("zapbench", "rpc", "grpc", "zap", 1, 16, 160000, 85));
  r.cells.push_back(cell("zapbench", "rpc", "zap-rpc", "protobuf", 1, 16, 240000, 70));
  r.cells.push_back(cell("floor", "rpc", "tcp", "", 1, 16, 400000, 40));
  const std::string md = report::markdown(r);
  const std::string title =
      "- **ZAP-RPC + ZAP against gRPC C++ (grpc++, protobuf), rpc, depth 16, 1 connection** — ";
  for (const std::string line : {"server CPU per request: ZAP-RPC + ZAP (2.67 µs) against grpc++ (26.7 µs): "
                                 "**ahead, 10.00× (10.00–10.00×), "
                                 "3 rounds** — [table](#e2e-rpc-p16).",
                                 "requests/s: ZAP-RPC + ZAP (300,000) against grpc++ (30,000): **ahead, "
                                 "10.00× (10.00–10.00×), 3 rounds**",
                                 "server CPU per request: ZAP-RPC + ZAP (2.67 µs) against the floor, a raw "
                                 "TCP echo (2.00 µs): **behind, "
                                 "0.75× (0.75–0.75×), 3 rounds**",
                                 "server CPU per request: zapbench's gRPC + ZAP, the body changed (5.00 µs) "
                                 "against its gRPC + protobuf "
                                 "(5.33 µs): **ahead, 1.07× (1.07–1.07×), 3 rounds**",
                                 "server CPU per request: zapbench's ZAP-RPC + protobuf, the framing "
                                 "changed (3.33 µs) against its gRPC "
                                 "+ protobuf (5.33 µs): **ahead, 1.60× (1.60–1.60×), 3 rounds**"})
    EXPECT_TRUE(contains(md, title + line)) << line << "\n" << md.substr(md.find("## What it found"), 6000);
  // A floor that costs more than ours (its own samples, its own noise): ahead of it, as any other.
  r.cells.back() = cell("floor", "rpc", "tcp", "", 1, 16, 200000, 40);
  EXPECT_TRUE(contains(report::markdown(r),
                       title + "server CPU per request: ZAP-RPC + ZAP (2.67 µs) against the floor, a raw TCP "
                               "echo (4.00 µs): **ahead, 1.50× (1.50–1.50×), 3 rounds**"));
  // No grpc++ cell at depth 1: no line for it.
  EXPECT_FALSE(contains(md, "against gRPC C++ (grpc++, protobuf), rpc, depth 1,"));
  EXPECT_TRUE(contains(md, "| grpc-cpp gRPC + protobuf |")) << "the arm's own row";
}

// The request path beside its codec's share and the same cell end to end:
// rpc ZAP-HTTP + ZAP at depth 16 has 10 and 100 connections (no 16), so the
// fewest, 10: 2.4 s of server CPU over 600,000 requests/s × 3 s = 1333 ns.
TEST(report_markdown, request_path_beside_its_codec_and_the_cell_end_to_end) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(md, "### The server's request path")) << md;
  EXPECT_TRUE(contains(
      md,
      "| request path | ns/request | instructions/request | codec: Handler ns | framing, routing, "
      "answer ns | codec's share | allocs | end to end: server CPU ns/request | kernel and event loop "
      "ns | end to end ÷ in memory |"));
  // The codec's share paired by round (75%, every round alike); end to end ÷ in memory unpaired, and 3
  // samples are too few for its interval.
  EXPECT_TRUE(contains(md,
                       "| Server/zap-http/zap | 20.0 (19.8–20.4) | 552 | 15.0 | 5.00 | 75% (75–75%) | 0 | "
                       "1333 (c 10) | 1313 | "
                       "66.7× ? |"))
      << md;
  // Not counted, and no HTTP/1.1 + ZAP cell at depth 16 in this run.
  EXPECT_TRUE(contains(
      md, "| Server/http1/zap | 60.0 (59.4–61.2) | — | 15.0 | 45.0 | 25% (25–25%) | 0 | — | — | — |"))
      << md;
  EXPECT_TRUE(contains(md, "16,000 requests each, valgrind-3.19.0"));
  EXPECT_TRUE(contains(md, "- perf: the instructions counter is not supported on this machine"));
  EXPECT_FALSE(contains(md, "| Server/zap-http/zap | 20.0 (19.8–20.4) | 0 |"))
      << "not among the other benchmarks";
}

TEST(report_markdown, e2e_tables_mark_noise_errors_and_unavailable_rows) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(md, "| requests/s | c 1 | c 10 | c 100 |"));
  EXPECT_TRUE(contains(md,
                       "| zapbench HTTP/1.1 | 20,000 (19,600–20,200) | 200,000 (196,000–202,000) | 120,000 "
                       "(96,000–132,000) ⚠ |"))
      << md;
  EXPECT_TRUE(contains(md, "| floor (raw TCP echo, 162 B → 162 B) | 40,000"));
  EXPECT_TRUE(
      contains(md,
               "| zapbench HTTP/1.1 + JSON (rapidjson) | unavailable: rapidjson: not found at configure "
               "time | unavailable | unavailable |"));
  EXPECT_TRUE(contains(md, "(490,000–505,000) ‡ 12 errors |"));
  EXPECT_TRUE(contains(md,
                       "- zapbench HTTP/1.1 + JSON (nlohmann), c 100: 12 errors over 3 samples (status 10, "
                       "timeout 2)"));
  EXPECT_TRUE(contains(md, "| p99 µs | c 1 | c 10 | c 100 |"));
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP + ZAP | 50.0 (49.0–50.5) |"));
}

TEST(report_markdown, e2e_ratios_against_fastest_json_and_floor) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(md, "| zapbench | c 1 ÷ best JSON | c 1 ÷ floor | c 10 ÷ best JSON | c 10 ÷ floor |"));
  // c 10: HTTP+ZAP 160k / direct 100k = 1.60, / floor 400k = 0.40; ZAP+ZAP 200k / ZAP+direct 120k = 1.67,
  // /400k = 0.50.
  EXPECT_TRUE(
      contains(md,
               "| zapbench HTTP/1.1 + ZAP | 1.60× (1.60–1.60) ▲ | 0.40× (0.40–0.40) ▼ | 1.60× (1.60–1.60) "
               "▲ | 0.40× (0.40–0.40) ▼ |"))
      << md;
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP + ZAP | 1.67× (1.67–1.67) ▲ | 0.50× (0.50–0.50) ▼ |"));
  EXPECT_TRUE(
      contains(md, "| zapbench HTTP/1.1 + JSON (nlohmann) | 0.50× (0.50–0.50) ▼ | 0.13× (0.13–0.13) ▼ |"));
  EXPECT_TRUE(contains(md, "| zapbench HTTP/1.1 + JSON (direct) | 1× (itself) | 0.25× (0.25–0.25) ▼ |"));
  EXPECT_TRUE(contains(md, "| zapbench HTTP/1.1 + JSON (rapidjson) | — | — | — | — | — | — |"));
  // hello has no JSON body: only the floor. The noisy cell (c 100) spreads unlike the floor: an interval.
  EXPECT_TRUE(contains(md, "| zapbench | c 1 ÷ floor | c 10 ÷ floor | c 100 ÷ floor |"));
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP | 0.62× (0.62–0.63) ▼ | 0.62× (0.62–0.63) ▼ |"));
}

TEST(report_markdown, go_reference_beside_its_cpp_counterparts) {
  const std::string md = report::markdown(synthetic());
  // Go ns ÷ the fastest C++ JSON codec of the op (direct: Decode 68, Handler 52), and the published figure.
  EXPECT_TRUE(contains(md, "| direct | 68.0 | 7.35× (7.35–7.35) ▲ | 473 ns, 4 allocs |")) << md;
  EXPECT_TRUE(contains(md, "| direct | 52.0 | 8.46× (8.46–8.46) ▲ | 431 ns, 4 allocs |"));
  EXPECT_TRUE(contains(md, "| go/stdlib | Decode |"));
  EXPECT_TRUE(contains(md, "| direct | 68.0 | 33.82× (33.82–33.82) ▲ | 2,334 ns, 13 allocs |"));
  EXPECT_TRUE(contains(md, "GOMAXPROCS=1 taskset -c 1 zapbench-go micro"));
  EXPECT_TRUE(contains(md, "- **go/zap**: unavailable: zap-proto/go is not in this build"));
  // The Go rows are not C++ codecs: not in the codec table, not among the C++ codecs not measured.
  EXPECT_FALSE(contains(md, "| go/goccy | 500"));
  EXPECT_EQ(md.find("**go/zap**"), md.rfind("**go/zap**"));
}

TEST(report_markdown, go_logs_reads_beside_the_cpp_zap_rows) {
  report::Results r = synthetic();
  r.micro.figures.push_back(figure("Logs", "DecodeAll/zap/100", 1000, 0, 23235));
  r.micro.figures.push_back(figure("Logs", "DecodeAll/go/zap/100", 3000, 0, 23235));
  const std::string md = report::markdown(r);
  // In the Go section: Go ÷ C++ at the same op and N; not a codec of the logs tables.
  const std::string row = "| go/zap | Logs/DecodeAll, N = 100 |";
  ASSERT_TRUE(contains(md, row)) << md;
  const std::string line = md.substr(md.find(row), md.find('\n', md.find(row)) - md.find(row));
  EXPECT_TRUE(contains(line, "| 0 | zap | 1000 | 3.00× (3.00–3.00) ▲ |")) << line;
  const auto logs = md.find("### Cost against work");
  ASSERT_NE(logs, std::string::npos);
  EXPECT_EQ(md.find("go/zap", logs), std::string::npos) << "a Go row in the logs tables";
  EXPECT_EQ(report::doc::log_table(r).find("DecodeAll", "go/zap", 100), nullptr);
}

TEST(report_markdown, go_arms_beside_our_server_on_the_same_cells) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(md, "| go-fasthttp HTTP/1.1 + JSON (goccy; loader direct) | 5,000 ")) << md;
  EXPECT_TRUE(
      contains(md, "| go-zip HTTP/1.1 + JSON (direct) | unavailable: zap-proto/zip is not in this build |"));
  EXPECT_TRUE(contains(md,
                       "| zapbench against the Go reference | go-fasthttp c 1: rate, CPU | go-fasthttp c 10: "
                       "rate, CPU | go-fasthttp c 100: rate, CPU |"));
  // 100k/50k requests/s at the same server CPU time: twice the rate, half the CPU per request.
  EXPECT_TRUE(
      contains(md,
               "| zapbench HTTP/1.1 + JSON (direct) | 2.00× (2.00–2.00) ▲, 2.00× (2.00–2.00) ▲ | 2.00× "
               "(2.00–2.00) ▲, 2.00× (2.00–2.00) ▲ |"));
  // Only the cells the Go arm served: no row for bodies it did not run.
  EXPECT_FALSE(contains(md, "| zapbench HTTP/1.1 + ZAP | —, "));
}

TEST(report_markdown, lists_one_command_per_arm) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(contains(md, "microbenchmarks:\n\n```\nzapbench micro --cpu 1 --repetitions 3\n```"));
  EXPECT_TRUE(contains(md, "zapbench HTTP/1.1 + JSON (direct) — as run for rpc, c 1, p 1"));
  EXPECT_TRUE(contains(md, "server: zapbench serve --http 127.0.0.1:0 --cpus 0\nloader: zapbench load"));
}

TEST(report_markdown, model_text_cannot_become_markup) {
  Results r = synthetic();
  r.env.hostname = "<b>host</b>|x";
  r.env.command_line = "zapbench run `x` | tee";
  const std::string md = report::markdown(r);
  EXPECT_TRUE(contains(md, "| host | \\<b\\>host\\</b\\>\\|x |"));
  EXPECT_TRUE(contains(md, "| command | ``zapbench run `x` \\| tee`` |"));
}

// --- verdicts -------------------------------------------------------------------------

// `r` as a run before verdicts wrote it: no round on any sample or microbenchmark.
Results without_rounds(Results r) {
  for (Cell& c : r.cells)
    for (E2ESample& s : c.samples) s.round.reset();
  for (report::MicroFigure& f : r.micro.figures) f.ns_per_op.rounds.clear();
  r.config.precision = r.config.budget_s = r.config.margin = NAN;
  return r;
}

TEST(report_verdicts, an_undecided_finding_is_listed_apart_with_its_interval) {
  Results r = with_peers();
  // ZAP-HTTP + ZAP at depth 16 and 100 connections, against protobuf: rounds that disagree (1.4, 0.8, 1.1).
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/protobuf/c100/p16") {
      c.samples[0].requests_per_s = 6'000'000 / 1.4;
      c.samples[1].requests_per_s = 6'000'000 / 0.8;
      c.samples[2].requests_per_s = 6'000'000 / 1.1;
    }
  const std::string md = report::markdown(r);
  const std::size_t undecided = md.find("Undecided — the interval crosses 1× and reaches beyond ±3%");
  ASSERT_NE(undecided, std::string::npos) << md.substr(md.find("## What it found"), 6000);
  const std::size_t line = md.find(
      "- **ZAP-HTTP, rpc, depth 16, 100 connections** — requests/s: ZAP (6,000,000) against the fastest "
      "binary "
      "peer body, protobuf (5,454,545): **undecided, ");
  EXPECT_NE(line, std::string::npos);
  EXPECT_GT(line, undecided) << "listed after the decided ones, not among them";
  EXPECT_LT(line, md.find("## The run"));
}

TEST(report_verdicts, too_few_rounds_show_their_count_not_an_interval) {
  Results r = synthetic();
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/http/zap/c10/p1") c.samples.resize(2);
  const std::string md = report::markdown(r);
  // HTTP/1.1 + ZAP at c 10 against direct: 2 rounds.
  EXPECT_TRUE(contains(
      md, "| zapbench HTTP/1.1 + ZAP | 1.60× (1.60–1.60) ▲ | 0.40× (0.40–0.40) ▼ | 1.60× ? (2 rounds) |"))
      << md;
}

TEST(report_verdicts, results_without_rounds_fall_back_to_ratios_of_medians_labelled) {
  const std::string md = report::markdown(without_rounds(with_peers()));
  EXPECT_TRUE(contains(md,
                       "This results.json records no rounds (a run from before verdicts), so no comparison "
                       "has an interval or a verdict"));
  EXPECT_TRUE(
      contains(md,
               "- **Decode** — time per op: ZAP (4.00 ns) against the fastest JSON, direct (68.0 ns): "
               "17.00× (16.50–17.52×, min–max) (no verdict: no rounds recorded) — [table](#micro)."))
      << md.substr(md.find("## What it found"), 3000);
  EXPECT_TRUE(contains(md, "| binary | zap | 17.00× | 10.00× |"));
  EXPECT_TRUE(contains(md,
                       "This results.json records no rounds (a run from before verdicts): ratios of medians "
                       "only, no interval and no verdict."));
  EXPECT_TRUE(contains(md, "Comparisons: this results.json records no rounds"));
  EXPECT_FALSE(contains(md, "▲"));
  EXPECT_FALSE(contains(md, "Undecided —"));
}

TEST(report_verdicts, the_control_copy_is_its_own_row_and_its_own_finding) {
  Results r = synthetic();
  Cell copy = cell("zapbench", "rpc", "zap", "zap", 10, 16, 600000, 300, 1.0, 0.99);
  copy.control = true;
  r.cells.push_back(copy);
  EXPECT_EQ(copy.id(), "zapbench/rpc/zap/zap/c10/p16/control");
  const std::string md = report::markdown(r);
  EXPECT_TRUE(contains(md, "| zapbench ZAP-HTTP + ZAP — control copy | 600,000 (594,000–600,000) |")) << md;
  EXPECT_TRUE(contains(md, "The control: one cell run twice in every round, as two cells"));
  EXPECT_TRUE(contains(md,
                       "- **zapbench ZAP-HTTP + ZAP, rpc, depth 16, 10 connections** — requests/s: the copy "
                       "(600,000) against the original (600,000): **"))
      << md.substr(md.find("## What it found"), 6000);
  // Never "the fastest body" of anything: the original is.
  const Results back = report::from_json(report::to_json(r));
  EXPECT_TRUE(back.cells.back().control);
  EXPECT_EQ(report::to_json(back), report::to_json(r));
}

TEST(report_verdicts, rounds_beyond_the_first_are_counted_per_cell) {
  Results r = synthetic();
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/rpc/zap/zap/c10/p16")
      for (unsigned k = 3; k < 7; ++k) {
        E2ESample s = c.samples[1];
        s.round = k;
        c.samples.push_back(s);
      }
  const std::string md = report::markdown(r);
  EXPECT_TRUE(
      contains(md,
               "Rounds: 3 for every cell; more where a finding needed them — zapbench ZAP-HTTP + ZAP, "
               "c 10: 7."))
      << md;
  EXPECT_TRUE(contains(md, "Rounds: 3 for every cell.\n"));
}

TEST(report_verdicts, how_it_was_measured_states_the_method_and_the_runs_settings) {
  const std::string md = report::markdown(synthetic());
  for (const char* s :
       {"**A comparison is a verdict.**", "bootstrap-t, 2000 resamples", "never narrower than Student's t",
        "equivalent when it lies within ±3%", "until each finding's interval was within ±3.0%",
        "its budget of 600.0 s (10 min 0 s)", "**The control.**", "Benjamini–Hochberg"})
    EXPECT_TRUE(contains(md, s)) << s;
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

// --- report.html -----------------------------------------------------------------------

TEST(report_html, is_self_contained_with_one_chart_per_op_and_two_per_group) {
  const std::string html = report::html(synthetic());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_FALSE(contains(html, "http://") && !contains(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_FALSE(contains(html, "https://"));
  EXPECT_FALSE(contains(html, "<link"));
  EXPECT_FALSE(contains(html, " src="));
  std::size_t charts = 0;
  for (std::size_t at = 0; (at = html.find("<svg class=\"chart\"", at)) != std::string::npos; ++at) ++charts;
  EXPECT_EQ(charts, 4u + 2 * 3);
  for (const char* id : {"micro-Decode", "micro-Handler", "e2e-hello-p1-rate", "e2e-rpc-p16-p99"})
    EXPECT_TRUE(contains(html, std::string("data-chart=\"") + id + "\"")) << id;
  EXPECT_TRUE(contains(html, "log scale"));
  EXPECT_TRUE(contains(html, "<td class=\"r\">120,000 (96,000–132,000) ⚠</td>"));
  EXPECT_TRUE(contains(html, "unavailable: rapidjson: not found at configure time"));
}

TEST(report_html, escapes_text_from_the_model) {
  Results r = synthetic();
  r.codecs[2].name = "<script>alert(1)</script>";
  for (auto& f : r.micro.figures)
    if (f.codec == "direct") f.codec = r.codecs[2].name;
  r.env.command_line = "zapbench run --out \"a&b\"";
  const std::string html = report::html(r);
  EXPECT_FALSE(contains(html, "<script>alert(1)"));
  EXPECT_TRUE(contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(contains(html, "zapbench run --out &quot;a&amp;b&quot;"));
  EXPECT_FALSE(contains(report::markdown(r), "<script>alert(1)"));
}

// --- compare ------------------------------------------------------------------------------

const report::Change* find_change(const report::Comparison& c, const std::string& key,
                                  const std::string& figure) {
  for (const report::Change& ch : c.changes)
    if (ch.key == key && ch.figure == figure) return &ch;
  return nullptr;
}

// Every cell and microbenchmark of `r` with 8 samples, spread ±3% in a fixed pattern: enough for
// compare's test (it needs 5 a side).
Results with_eight_samples(Results r) {
  constexpr double kPattern[] = {0.97, 1.0, 1.02, 0.99, 1.01, 0.98, 1.03, 1.0};
  for (Cell& c : r.cells) {
    if (c.samples.empty()) continue;
    const E2ESample base = c.samples[1];
    c.samples.clear();
    for (double f : kPattern) {
      E2ESample s = base;
      s.round = unsigned(c.samples.size());
      s.requests_per_s *= f;
      s.p99_ns *= 2 - f;
      c.samples.push_back(s);
    }
  }
  for (report::MicroFigure& f : r.micro.figures) {
    const double ns = f.ns_per_op.median();
    f.ns_per_op = {};
    for (double k : kPattern) {
      f.ns_per_op.rounds.push_back(unsigned(f.ns_per_op.values.size()));
      f.ns_per_op.values.push_back(ns * k);
    }
  }
  return r;
}

TEST(report_compare, calls_a_change_only_for_a_discovery_whose_interval_excludes_one) {
  const Results a = with_eight_samples(synthetic());
  Results b = a;
  for (Cell& c : b.cells) {
    if (c.id() == "zapbench/rpc/http/direct/c10/p1")
      for (E2ESample& s : c.samples) s.requests_per_s *= 1.5;  // +50%: improved
    if (c.id() == "zapbench/rpc/zap/zap/c10/p1")
      for (E2ESample& s : c.samples) s.p99_ns *= 2;  // p99 twice as long: regressed
  }
  const report::Comparison cmp = report::compare(a, b);
  const report::Change* up = find_change(cmp, "zapbench/rpc/http/direct/c10/p1", "requests/s");
  ASSERT_NE(up, nullptr);
  EXPECT_TRUE(up->tested);
  EXPECT_NEAR(up->estimate.ratio, 1.5, 1e-12);
  EXPECT_GT(up->estimate.lo, 1.4);
  EXPECT_LT(up->estimate.p, 0.001);
  EXPECT_EQ(up->verdict, report::Change::Verdict::improved);
  const report::Change* slower = find_change(cmp, "zapbench/rpc/zap/zap/c10/p1", "p99");
  ASSERT_NE(slower, nullptr);
  EXPECT_EQ(slower->verdict, report::Change::Verdict::regressed);
  // Everything else is the same samples on both sides: never called changed.
  std::size_t changed = 0;
  for (const report::Change& ch : cmp.changes)
    changed +=
        ch.verdict == report::Change::Verdict::improved || ch.verdict == report::Change::Verdict::regressed;
  EXPECT_EQ(changed, 2u);
  const report::Change* same = find_change(cmp, "micro/Decode/zap", "ns/op");
  ASSERT_NE(same, nullptr);
  EXPECT_DOUBLE_EQ(same->estimate.ratio, 1);
  EXPECT_NE(same->verdict, report::Change::Verdict::improved);
  EXPECT_TRUE(cmp.only_in_a.empty());
  EXPECT_TRUE(cmp.only_in_b.empty());
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(contains(text, "1.500× (")) << text;
  EXPECT_TRUE(contains(text, " improved\n"));
  EXPECT_TRUE(contains(text, " regressed\n"));
  EXPECT_TRUE(contains(text, "Benjamini–Hochberg holds the false-discovery rate of the tests at 5.0%"));
  EXPECT_TRUE(contains(text, " figures: 2 changed (1 improved, 1 regressed), ")) << text;
}

TEST(report_compare, judges_each_figure_against_its_kinds_run_shift) {
  const Results a = with_eight_samples(synthetic());
  const report::Comparison same = report::compare(a, a);
  ASSERT_EQ(same.shifts.size(), 3u);
  EXPECT_EQ(same.shifts[0].figure, "requests/s");
  EXPECT_DOUBLE_EQ(same.shifts[0].estimate.ratio, 1);
  EXPECT_TRUE(contains(report::compare_text(same), "  requests/s: 1.000× (1.000–1.000×) over "));
  EXPECT_TRUE(contains(report::compare_text(same), " tested figures: within ±3.0%\n"));
  // Every figure 20% slower in B (rates down, times up): the machine, or the whole build. Judged against
  // that shift, nothing changed; the shift itself is named.
  Results b = a;
  for (Cell& c : b.cells)
    for (E2ESample& s : c.samples) {
      s.requests_per_s *= 0.8;
      s.p99_ns /= 0.8;
    }
  for (report::MicroFigure& f : b.micro.figures)
    for (double& v : f.ns_per_op.values) v /= 0.8;
  const report::Comparison slower = report::compare(a, b);
  for (const report::RunShift& sh : slower.shifts) {
    EXPECT_TRUE(sh.applied) << sh.figure;
    EXPECT_NEAR(sh.estimate.ratio, sh.figure == "requests/s" ? 0.8 : 1.25, 1e-9) << sh.figure;
  }
  for (const report::Change& c : slower.changes)
    EXPECT_TRUE(c.verdict != report::Change::Verdict::improved &&
                c.verdict != report::Change::Verdict::regressed)
        << c.key << " " << c.figure;
  const std::string text = report::compare_text(slower);
  EXPECT_TRUE(contains(text, "  requests/s: 0.800× (0.800–0.800×) over ")) << text;
  EXPECT_TRUE(
      contains(text, "the whole run moved beyond ±3.0% (the machine, or the whole build, changed between"));
  // --absolute: each figure against 1, and then every tested one moved.
  report::CompareOptions absolute;
  absolute.absolute = true;
  std::size_t regressed = 0, tested = 0;
  for (const report::Change& c : report::compare(a, b, absolute).changes) {
    tested += c.tested;
    regressed += c.verdict == report::Change::Verdict::regressed;
  }
  EXPECT_EQ(regressed, tested);
  EXPECT_TRUE(
      contains(report::compare_text(report::compare(a, b, absolute)), "judged against 1 (--absolute)"));
}

TEST(report_compare, too_few_tested_figures_give_no_shift) {
  // 3 samples a cell and a figure: nothing tested, so no shift to divide by; every figure against 1.
  const report::Comparison none = report::compare(synthetic(), synthetic());
  EXPECT_TRUE(none.shifts.empty());
  EXPECT_FALSE(contains(report::compare_text(none), "Run shifts"));
  // Fewer tested figures of a kind than a shift needs: said so, and not applied.
  Results a = synthetic();
  const Results eight = with_eight_samples(synthetic());
  a.micro = eight.micro;
  a.micro.figures.resize(4);
  const report::Comparison few = report::compare(a, a);
  ASSERT_EQ(few.shifts.size(), 1u);
  EXPECT_FALSE(few.shifts[0].applied);
  EXPECT_TRUE(contains(report::compare_text(few),
                       "  ns/op: 4 figures: a shift needs 10 tested (its figures judged against 1)"))
      << report::compare_text(few);
}

TEST(report_compare, a_wider_margin_holds_what_a_narrow_one_leaves_undecided) {
  const Results a = with_eight_samples(synthetic());
  report::CompareOptions wide;
  wide.margin = 0.2;
  report::CompareOptions narrow;
  narrow.margin = 0.001;
  auto held = [&](const report::CompareOptions& o) {
    std::size_t n = 0;
    for (const report::Change& ch : report::compare(a, a, o).changes)
      n += ch.verdict == report::Change::Verdict::held;
    return n;
  };
  const report::Comparison all = report::compare(a, a, wide);
  EXPECT_EQ(held(wide), all.changes.size());
  EXPECT_EQ(held(narrow), 0u);
  EXPECT_TRUE(contains(report::compare_text(report::compare(a, a, narrow)), "; undecided: neither"));
}

TEST(report_compare, too_few_samples_fall_back_to_the_spread_rule_labelled_so) {
  Results a = synthetic(), b = synthetic();  // 3 samples a cell: too few for the test
  for (Cell& c : b.cells)
    if (c.id() == "floor/hello/tcp//c1/p1")
      for (E2ESample& s : c.samples) s.requests_per_s *= 3;
  for (Results* r : {&a, &b})
    for (Cell& c : r->cells)
      if (c.id() == "floor/hello/tcp//c10/p1") c.samples.resize(1);
  const report::Comparison cmp = report::compare(a, b);
  const report::Change* ch = find_change(cmp, "floor/hello/tcp//c1/p1", "requests/s");
  ASSERT_NE(ch, nullptr);
  EXPECT_FALSE(ch->tested);
  EXPECT_EQ(ch->fallback, "beyond noise");
  EXPECT_EQ(ch->verdict, report::Change::Verdict::undecided);
  const report::Change* one = find_change(cmp, "floor/hello/tcp//c10/p1", "requests/s");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->fallback, "no noise estimate");
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(
      contains(text, "undecided: 3 samples, the test needs 5 (the spread rule of older runs: beyond noise)"))
      << text;
  EXPECT_TRUE(contains(
      text, "undecided: 1 sample, the test needs 5 (the spread rule of older runs: no noise estimate)"));
  EXPECT_TRUE(contains(text, " with too few samples for the test (undecided; the spread rule beside).\n"));
}

TEST(report_compare, lists_keys_present_on_one_side_only) {
  Results a = synthetic(), b = synthetic();
  a.cells.push_back(cell("zapbench", "rpc", "http", "direct", 1000, 1, 1, 1));
  b.cells.push_back(cell("zapbench", "rpc", "zap", "zap", 1000, 1, 1, 1));
  b.micro.figures.pop_back();  // Http/parse/own
  const report::Comparison cmp = report::compare(a, b);
  EXPECT_EQ(cmp.only_in_a,
            (std::vector<std::string>{"zapbench/rpc/http/direct/c1000/p1", "micro/Http/parse/own"}));
  EXPECT_EQ(cmp.only_in_b, (std::vector<std::string>{"zapbench/rpc/zap/zap/c1000/p1"}));
  // Unavailable cells are absent on both sides, not "only in".
  EXPECT_EQ(find_change(cmp, "zapbench/rpc/http/rapidjson/c1/p1", "requests/s"), nullptr);
  const std::string text = report::compare_text(cmp);
  EXPECT_TRUE(
      contains(text, "only in A (2):\n  zapbench/rpc/http/direct/c1000/p1\n  micro/Http/parse/own\n"));
  EXPECT_TRUE(contains(text, "only in B (1):\n  zapbench/rpc/zap/zap/c1000/p1\n"));
}

TEST(report_compare, text_is_an_aligned_table_with_units) {
  const std::string text = report::compare_text(report::compare(synthetic(), synthetic()));
  const std::size_t header = text.find("key ");
  ASSERT_NE(header, std::string::npos);
  EXPECT_TRUE(contains(text, " req/s"));
  EXPECT_TRUE(contains(text, " µs"));
  EXPECT_TRUE(contains(text, " ns"));
  // Every row has its "figure" column at the same character position.
  const std::size_t figure_col = text.find("figure", header) - header;
  std::size_t rows = 0;
  for (std::size_t at = text.find('\n', header) + 1; at < text.size() && text[at] != '\n';
       at = text.find('\n', at) + 1, ++rows) {
    const std::string line = text.substr(at, text.find('\n', at) - at);
    EXPECT_EQ(line[figure_col - 1], ' ') << line;
    EXPECT_NE(line[figure_col], ' ') << line;
  }
  EXPECT_GT(rows, 50u);
}

}  // namespace

TEST(report_json, names_an_unknown_matrix_name_with_the_choices) {
  nlohmann::json j = nlohmann::json::parse(report::to_json(synthetic()));
  j["cells"][2]["arm"] = "apache";
  EXPECT_EQ(error_of(j.dump()),
            "results.json: cells[2].arm: unknown \"apache\" (one of: zapbench, go-zip, go-fasthttp, "
            "go-nethttp, nginx, grpc-cpp, floor)");
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
  // Its 3 samples a cell are too few for the test: the older rule, labelled, and never a change.
  for (const report::Change& ch : cmp.changes) {
    EXPECT_EQ(ch.verdict, report::Change::Verdict::undecided) << ch.key;
    EXPECT_EQ(ch.fallback, "within noise") << ch.key;
  }
}

// The logs scenario: cells keyed by N, a group per N and depth, requests/s and MB/s tables, and ZAP's MB/s
// against the floor's (which carries ZAP's byte counts at that N).
Results with_logs_cells() {
  Results r = synthetic();
  for (unsigned n : {100u, 10'000u}) {
    const double zap_bytes = 230.0 * n, json_bytes = 700.0 * n;  // per answer
    const double k = 100.0 / n;
    auto logs_cell = [&](const char* arm, const char* framing, const char* body, double rate, double bytes) {
      Cell c = cell(arm, "logs", framing, body, 10, 1, rate * k, 100 / k);
      c.logs = n;
      for (E2ESample& s : c.samples) {
        s.bytes_received_per_response = bytes;
        s.received_mb_per_s = s.requests_per_s * bytes / 1e6;
      }
      return c;
    };
    r.cells.push_back(logs_cell("zapbench", "http", "zap", 8000, zap_bytes));
    r.cells.push_back(logs_cell("zapbench", "http", "direct", 2000, json_bytes));
    r.cells.push_back(logs_cell("floor", "tcp", "", 10000, zap_bytes));
  }
  return r;
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

TEST(report_markdown, logs_groups_per_n_with_mb_per_s_against_the_floor) {
  const std::string md = report::markdown(with_logs_cells());
  EXPECT_LT(md.find("### rpc, pipeline depth 16"), md.find("### logs N=100, pipeline depth 1"));
  EXPECT_LT(md.find("### logs N=100, pipeline depth 1"), md.find("### logs N=10000, pipeline depth 1"));
  EXPECT_TRUE(contains(md, "**MB/s of responses** — response bytes received per second"));
  EXPECT_TRUE(contains(md, "| MB/s of responses | c 10 |"));
  // N = 100 at c 10: ZAP 8000/s x 23 000 B = 184 MB/s; direct 2000/s x 70 000 B = 140; the floor 230.
  EXPECT_TRUE(contains(md, "| zapbench HTTP/1.1 + ZAP | 184.0 (180.3–185.8) |")) << md;
  EXPECT_TRUE(contains(md, "| zapbench HTTP/1.1 + JSON (direct) | 140.0 (137.2–141.4) |"));
  // Requests/s against the best JSON body (the same N logs), MB/s against the floor: 184 / 230 = 0.80.
  EXPECT_TRUE(contains(md, "| zapbench | c 10 ÷ best JSON | c 10 MB/s ÷ floor |"));
  EXPECT_TRUE(contains(md, "| zapbench HTTP/1.1 + ZAP | 4.00× (4.00–4.00) ▲ | 0.80× (0.80–0.80) ▼ |"));
  EXPECT_TRUE(contains(md, "MB/s ÷ floor divides the row's MB/s of responses by the raw TCP echo's"));
  // What it found: ZAP's MB/s at the largest N against the floor's (184 / 230 at every N here).
  EXPECT_TRUE(contains(
      md,
      "- **HTTP/1.1, logs N=10000, depth 1, 10 connections** — MB/s of responses: ZAP (184.0) against the "
      "floor, a raw TCP echo of the same bytes (230.0): **behind, 0.80× (0.80–0.80×), 3 rounds** — "
      "[table](#e2e-logs-10000-p1)."))
      << md.substr(0, 6000);
  // Groups of other scenarios have no MB/s table.
  const std::string rpc =
      md.substr(md.find("### rpc, pipeline depth 1"),
                md.find("### rpc, pipeline depth 16") - md.find("### rpc, pipeline depth 1"));
  EXPECT_FALSE(contains(rpc, "MB/s"));
  // The HTML carries the same groups (its charts keyed by N too).
  const std::string html = report::html(with_logs_cells());
  EXPECT_TRUE(contains(html, "data-chart=\"e2e-logs-100-p1-rate\""));
  EXPECT_TRUE(contains(html, "data-chart=\"e2e-logs-10000-p1-rate\""));
}

TEST(report_markdown, flags_samples_taken_while_the_machine_was_busy) {
  Results r = synthetic();
  r.env.online_cpus = 2;
  for (Cell& c : r.cells)
    for (E2ESample& s : c.samples) s.load_avg_1m = 1.9;  // the run's own load on 2 CPUs: not busy
  std::string md = report::markdown(r);
  EXPECT_TRUE(contains(md, "Load gate")) << md;
  EXPECT_FALSE(contains(md, "⚑ busy machine"));
  for (Cell& c : r.cells)
    if (c.id() == "zapbench/hello/zap//c10/p1") c.samples[1].load_avg_1m = 3.25;
  md = report::markdown(r);
  EXPECT_TRUE(contains(md, "⚑ busy machine")) << md;
  EXPECT_TRUE(contains(md, "zapbench ZAP-HTTP, c 10, sample 2: load average 3.25")) << md;
  const Results back = report::from_json(report::to_json(r));
  EXPECT_EQ(back.env.online_cpus, 2u);
  EXPECT_EQ(report::markdown(back), md);
  EXPECT_TRUE(report::busy(back.cells[1].samples[0], report::busy_load_threshold(back)) == false);
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

// --- several hosts (docs/spec/hosts.md §6) ------------------------------------------------

// The synthetic run as if measured with two loader hosts over ssh: the hosts in the
// environment, and on one cell (ZAP + ZAP, rpc, depth 16, 10 connections) each
// sample's per-host rows and start skew; the second host failed in the third sample.
Results with_hosts() {
  Results r = synthetic();
  r.env.link = "ssh hosts";
  const std::string version = "zapbench 0.1.0 commit 0123456789ab (Release: -O3 -DNDEBUG)";
  r.env.hosts = {{"server", "root@srv", version, "srv", "Linux 6.1.0", "AMD EPYC 7B13", 8, "0-7"},
                 {"loader", "root@l1", version, "l1", "Linux 6.1.0", "Intel Xeon E5", 4, "0-3"},
                 {"loader", "root@l2", version, "l2", "Linux 6.1.0", "Intel Xeon E5", 4, "0-3"}};
  const double rate_l1[] = {100000, 120000, 110000}, rate_l2[] = {90000, 95000, 0};
  const double skew_ns[] = {1.5e6, 2.3456e6, 0.8e6};
  for (Cell& c : r.cells) {
    if (c.id() != "zapbench/rpc/zap/zap/c10/p16") continue;
    for (std::size_t i = 0; i < c.samples.size(); ++i) {
      E2ESample& s = c.samples[i];
      s.loader_hosts.push_back(
          {"root@l1", 250000, rate_l1[i], 0, 40000, 300000, 900000, 5000 + double(i), 2e5, ""});
      report::LoaderHostRow l2{"root@l2", 225000, rate_l2[i], 1, 41000, 310000, 950000, 6000, 2.5e5, ""};
      if (i == 2) l2 = {"root@l2", 0, 0, 0, 0, 0, 0, NAN, NAN, "connection closed before the result"};
      s.loader_hosts.push_back(l2);
      s.start_skew_ns = i == 2 ? NAN : skew_ns[i];
    }
  }
  return r;
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

TEST(report_markdown, several_hosts_name_the_link_list_the_hosts_and_each_hosts_rate) {
  const std::string md = report::markdown(with_hosts());
  for (const char* s :
       {"Link: ssh hosts.", "each loader host's loader to CPUs 1 on its own",
        "| role | host | CPU | CPUs | commit |", "| server | root@srv | AMD EPYC 7B13 | 8 | `0123456789ab` |",
        "| loader | root@l2 | Intel Xeon E5 | 4 | `0123456789ab` |", "## Loader hosts",
        "| cell | root@l1 requests/s | root@l2 requests/s | start skew ms (max) | failures |",
        "separate hosts joined by ssh hosts", "end to end over TCP between hosts (ssh hosts)."})
    EXPECT_TRUE(contains(md, s)) << s;
  EXPECT_FALSE(contains(md, "Link: loopback"));
  // The one cell with loader hosts: l1's median of 100k, 120k, 110k; l2's of the two it delivered;
  // the largest skew 2.3456 ms; l2's failure in the third sample.
  const std::size_t at = md.find("## Loader hosts");
  ASSERT_NE(at, std::string::npos);
  const std::string section = md.substr(at, md.find("\n## ", at + 1) - at);
  EXPECT_TRUE(
      contains(section,
               ", rpc, depth 16, c 10 | 110,000 (100,000–120,000) | 92,500 (90,000–95,000) | 2.35 | 1 "
               "(first: root@l2: connection closed before the result) |"))
      << section;
  EXPECT_EQ(section.find("depth "), section.rfind("depth ")) << section;  // one row: the one cell
  EXPECT_LT(md.find("## End to end"), at);
  EXPECT_LT(at, md.find("## Command lines"));
  const std::string html = report::html(with_hosts());
  EXPECT_TRUE(contains(html, "Loader hosts")) << "html";
  EXPECT_TRUE(contains(html, "Link: ssh hosts."));
}

TEST(report_markdown, one_host_says_loopback_and_has_no_loader_hosts_section) {
  const std::string md = report::markdown(synthetic());
  EXPECT_TRUE(
      contains(md, "Server pinned to CPUs 0, loader to CPUs 1; both on this machine. Link: loopback."));
  EXPECT_TRUE(contains(md, "Loader and server run on the same machine over loopback"));
  EXPECT_TRUE(contains(md, "end to end over loopback TCP. Measured by"));
  EXPECT_FALSE(contains(md, "Loader hosts"));
  EXPECT_FALSE(contains(md, "| role | host |"));
  EXPECT_FALSE(contains(report::html(synthetic()), "Loader hosts"));
}

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--write-synthetic") {
    std::ofstream out(argv[2], std::ios::binary);
    out << report::to_json(synthetic());
    return out.good() ? 0 : 1;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

namespace {

// The logs microbenchmarks (Logs/<op>/<codec>/<N>) at N = 1, 10, 1000: ZAP
// flat in AccessOne, linear elsewhere; direct linear everywhere; the limits.
Results with_logs() {
  Results r = synthetic();
  for (double n : {1.0, 10.0, 1000.0}) {
    const std::string ns = std::to_string(static_cast<int>(n));
    auto add = [&](const std::string& op, const std::string& codec, double v, double wire) {
      r.micro.figures.push_back(figure("Logs", op + "/" + codec + "/" + ns, v, 0, wire));
    };
    add("Encode", "zap", 10 * n, 232 * n);
    add("DecodeAll", "zap", 16 * n, 232 * n);
    add("AccessOne", "zap", 4, 232 * n);
    add("ScanField", "zap", 0.8 * n, 232 * n);
    add("Encode", "direct", 300 * n, 640 * n);
    add("DecodeAll", "direct", 800 * n, 640 * n);
    add("AccessOne", "direct", 400 * n, 640 * n);
    add("ScanField", "direct", 500 * n, 640 * n);
    add("Copy", "memcpy", 5 * n, 232 * n);
    add("ScanField", "structs", 0.7 * n, 232 * n);
  }
  return r;
}

}  // namespace

TEST(report_markdown, cost_against_work_growth_tables_and_summary) {
  const std::string md = report::markdown(with_logs());
  const std::size_t at = md.find("### Cost against work: eth\\_getLogs, N logs");
  ASSERT_NE(at, std::string::npos) << md;
  // Growth: slopes (AccessOne flat on ZAP, linear on direct) and ns per log at N = 1,000.
  EXPECT_TRUE(
      contains(md, "| binary | zap | 1.00 | 10.0 | 1.00 | 16.0 | 0.00 | 0.0040 | 1.00 | 0.800 | 232.0 |"))
      << md.substr(at, 3000);
  EXPECT_TRUE(
      contains(md, "| text | direct | 1.00 | 300.0 | 1.00 | 800.0 | 1.00 | 400.0 | 1.00 | 500.0 | 640.0 |"));
  EXPECT_TRUE(contains(md, "| limit | memcpy | 1.00 | 5.00 | 1.00 | 5.00 |"));
  // Per op: ns at each N, GB/s of wire bytes at the largest N (232,000 bytes in 10,000 ns = 23.2).
  EXPECT_TRUE(contains(md, "| N=1 ns | N=10 ns | N=1,000 ns | GB/s @1,000 | allocs @1,000 |"));
  EXPECT_TRUE(contains(md, "23.2 |"));
  // The Logs rows are not "other microbenchmarks".
  EXPECT_FALSE(contains(md, "| Logs/Encode/zap/1 |"));
  // The summary: DecodeAll at N = 1,000 against the fastest JSON; AccessOne flat; Encode against memcpy.
  EXPECT_TRUE(
      contains(md,
               "- **DecodeAll, N = 1,000** — time per op: ZAP (16000 ns) against the fastest JSON, direct "
               "(800000 ns): **ahead, 50.00× (50.00–50.00×), 3 rounds** — [table](#logs)."))
      << md;
  EXPECT_TRUE(
      contains(md,
               "- **AccessOne (log N/2)** — time per op: ZAP at N = 1,000 (4.00 ns) against ZAP at N = 1 "
               "(4.00 ns): **equivalent, 1.00× (1.00–1.00×), 3 rounds**"));
  EXPECT_TRUE(
      contains(md,
               "- **Encode, N = 1,000** — time per op: ZAP writing the answer (10000 ns) against memcpy of "
               "the same bytes (5000 ns): **behind, 0.50× (0.50–0.50×), 3 rounds**"));
  const std::string html = report::html(with_logs());
  for (const char* id : {"logs-Encode", "logs-DecodeAll", "logs-AccessOne", "logs-ScanField", "logs-wire"})
    EXPECT_TRUE(contains(html, std::string("data-chart=\"") + id + "\"")) << id;
  EXPECT_TRUE(contains(html, "stroke-dasharray"));  // the limit's line
  EXPECT_TRUE(contains(html, "memcpy, N 1k"));
}
