// tests/report/report_document_test.cpp — what report.md and report.html say
// about a synthetic run: sections, ratios against the fastest JSON and the
// floor, binary peers, the Go reference, ⚠ noisy, unavailable, errors,
// escaping, logs growth, several hosts, the io axis's rows.
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

#include "fixtures.hpp"
#include "report/gbench.hpp"
#include "report/model.hpp"
#include "report/select.hpp"

namespace {

using namespace fixtures;

TEST(report_markdown, has_every_section_in_order) {
  const std::string md = report::markdown(synthetic());
  std::size_t at = 0;
  for (const char* heading :
       {"# zapbench results", "## How it was measured", "## Fairness", "## Microbenchmarks",
        "### The Go reference, measured here", "### The server's request path", "### Other microbenchmarks",
        "## End to end", "### hello, pipeline depth 1", "### rpc, pipeline depth 1",
        "### rpc, pipeline depth 16", "## HTTP/2 conformance (h2spec)", "## Command lines", "## Caveats"}) {
    const std::size_t next = md.find(std::string(heading) + "\n", at);
    EXPECT_TRUE(next != std::string::npos && (next == 0 || md[next - 1] == '\n')) << heading;
    if (next != std::string::npos) at = next + 1;
  }
  EXPECT_TRUE(md.starts_with("# zapbench results\n"));
}

// h2spec against each HTTP/2 arm: its counts, its failed cases named, or why it did not run.
TEST(report_markdown, conformance_rows_per_arm) {
  const std::string md = report::markdown(synthetic());
  EXPECT_NE(md.find("| zapbench | 145 | 144 | 1 | 0 | — |"), std::string::npos);
  EXPECT_NE(
      md.find("| h2o | 145 | 142 | 1 | 2 | http2/3.5: Sends invalid connection preface; http2/8.1.2.3: Sends "
              "a HEADERS frame with empty \":path\" |"),
      std::string::npos);
  EXPECT_NE(
      md.find("| nghttpd | — | — | — | — | not run: h2spec does not exist (scripts/go-build.sh builds it; "
              "it needs Go) |"),
      std::string::npos);
  EXPECT_NE(md.find("h2o: h2o -c h2o/h2o.conf & h2spec -p 2"), std::string::npos);
  report::Results none = synthetic();
  none.conformance.clear();
  EXPECT_EQ(report::markdown(none).find("HTTP/2 conformance"), std::string::npos);
  const report::Results back = report::from_json(report::to_json(synthetic()));
  ASSERT_EQ(back.conformance.size(), 3u);
  EXPECT_EQ(back.conformance[1].failures, synthetic().conformance[1].failures);
  EXPECT_EQ(back.conformance[2].unavailable, synthetic().conformance[2].unavailable);
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
  EXPECT_TRUE(contains(md, "Fastest, by median: Decode: JSON direct (68.0 ns)"));
  EXPECT_TRUE(contains(md, "| Http/parse/own | 35.5 (35.1–36.2) | 0 | — |"));
  EXPECT_TRUE(contains(md, "- **rapidjson**: unavailable: not found at configure time"));
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
               "- **Decode** — time per op: ZAP (4.01 ns) against the fastest JSON, direct (68.2 ns): "
               "**ahead, 17.00× (17.00–17.00×), 3 rounds** — [table](#micro)."))
      << md.substr(found, 2000);
  EXPECT_TRUE(
      contains(md,
               "- **Decode** — time per op: ZAP (4.01 ns) against the fastest binary peer, protobuf (40.1 "
               "ns): **ahead, 10.00× (10.00–10.00×), 3 rounds** — [table](#micro)."));
  // End to end: the deepest pipeline, ZAP-HTTP at the connection count where ZAP peaks (100), against
  // direct and protobuf, in requests/s and in server CPU per request; HTTP/1.1 has no ZAP body at that
  // depth, so no line.
  EXPECT_TRUE(
      contains(md,
               "- **ZAP-HTTP, rpc, depth 16, 100 connections** — requests/s: ZAP (5,979,530) against the "
               "fastest JSON body, direct (3,986,353): **ahead, 1.50× (1.50–1.50×), 3 rounds** — "
               "[table](#e2e-rpc-p16)."));
  EXPECT_TRUE(
      contains(md,
               "- **ZAP-HTTP, rpc, depth 16, 100 connections** — server CPU per request: ZAP (133 ns) "
               "against the fastest binary peer body, protobuf (178 ns): **ahead, 1.33× (1.33–1.33×), "
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
                                 "requests/s: ZAP-RPC + ZAP (298,977) against grpc++ (29,898): **ahead, "
                                 "10.00× (10.00–10.00×), 3 rounds**",
                                 "server CPU per request: ZAP-RPC + ZAP (2.67 µs) against the floor, a raw "
                                 "TCP echo (2.00 µs): **behind, "
                                 "0.75× (0.75–0.75×), 3 rounds**",
                                 "server CPU per request: zapbench's gRPC + ZAP, the body changed (5.00 µs) "
                                 "against its gRPC + protobuf "
                                 "(5.34 µs): **ahead, 1.07× (1.07–1.07×), 3 rounds**",
                                 "server CPU per request: zapbench's ZAP-RPC + protobuf, the framing "
                                 "changed (3.33 µs) against its gRPC "
                                 "+ protobuf (5.34 µs): **ahead, 1.60× (1.60–1.60×), 3 rounds**"})
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
                       "66.7× ? (3 samples) |"))
      << md;
  EXPECT_TRUE(contains(md,
                       "? with the samples there were where the end-to-end cell has fewer than the 5 the "
                       "unpaired interval needs"));
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
  EXPECT_TRUE(contains(md, "| direct | 68.2 | 7.35× (7.35–7.35) ▲ | 473 ns, 4 allocs |")) << md;
  EXPECT_TRUE(contains(md, "| direct | 52.2 | 8.46× (8.46–8.46) ▲ | 431 ns, 4 allocs |"));
  EXPECT_TRUE(contains(md, "| go/stdlib | Decode |"));
  EXPECT_TRUE(contains(md, "| direct | 68.2 | 33.82× (33.82–33.82) ▲ | 2,334 ns, 13 allocs |"));
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
  EXPECT_TRUE(contains(line, "| 0 | zap | 1003 | 3.00× (3.00–3.00) ▲ |")) << line;
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

TEST(report_markdown, go_zap_rpc_rows_are_named_by_their_server_with_every_go_rows_modules) {
  report::Results r = synthetic();
  for (unsigned c : {1u, 10u, 100u}) {
    r.cells.push_back(cell("zapbench", "rpc", "zap-rpc", "zap", c, 1, 220000.0 * c / 10, 40));
    Cell go = cell("go-zip", "rpc", "zap-rpc", "zap", c, 1, 110000.0 * c / 10, 80);
    report::describe_go_cell(go, {{"github.com/zap-proto/go", "v1.8.1"}});
    r.cells.push_back(go);
  }
  for (Cell& c : r.cells)
    if (c.arm == matrix::Arm::go_fasthttp)
      c.go_modules = {{"github.com/goccy/go-json", "v0.12.0"}, {"github.com/valyala/fasthttp", "v1.78.0"}};
  const std::string md = report::markdown(r);
  EXPECT_TRUE(contains(md, "| zap-proto/go v1.8.1 ZAP-RPC + ZAP | 11,000 ")) << md;
  EXPECT_FALSE(contains(md, "go-zip ZAP-RPC"));
  // The Go rows and their modules, once each.
  EXPECT_TRUE(contains(md, "| Go row | Go modules it served with |"));
  EXPECT_TRUE(contains(md, "| zap-proto/go v1.8.1 ZAP-RPC + ZAP | github.com/zap-proto/go v1.8.1 |"));
  EXPECT_TRUE(
      contains(md,
               "| go-fasthttp HTTP/1.1 + JSON (goccy; loader direct) | github.com/goccy/go-json v0.12.0, "
               "github.com/valyala/fasthttp v1.78.0 |"));
  EXPECT_EQ(md.find("| zap-proto/go v1.8.1 ZAP-RPC + ZAP | github.com"),
            md.rfind("| zap-proto/go v1.8.1 ZAP-RPC + ZAP | github.com"));
  // Against our server: its column named by its server too; our ZAP-RPC row at twice its rate.
  EXPECT_TRUE(contains(md, "| zap-proto/go v1.8.1 ZAP-RPC c 1: rate, CPU |")) << md;
  EXPECT_TRUE(contains(md, "| zapbench ZAP-RPC + ZAP | 2.00× (2.00–2.00) ▲")) << md;
  // The findings name the reference's transport by its version.
  EXPECT_TRUE(contains(md, "against the Go reference (zap-proto/go v1.8.1 ZAP-RPC)")) << md;
}

TEST(report_markdown, go_zap_encode_also_against_the_pair_the_encode_target_names) {
  report::Results r = synthetic();
  r.micro.figures.push_back(figure("Encode", "go/zap", 600, 12, 162));
  const std::string md = report::markdown(r);
  // Like for like: go/zap (a fresh builder per message) against zap-fresh (50 ns); and against zap (15 ns),
  // the C++ encoder as it runs, the pair of the "≥ 25× go/zap": both rows, each with its verdict.
  EXPECT_TRUE(contains(
      md, "| go/zap | Encode | 602.0 (594.0–612.0) | 12 | zap-fresh | 50.2 | 12.00× (12.00–12.00) ▲ |"))
      << md;
  EXPECT_TRUE(
      contains(md,
               "| go/zap | Encode | 602.0 (594.0–612.0) | 12 | zap (reused builder: the encode target's "
               "pair) | 15.0 | 40.00× (40.00–40.00) ▲ | — |"))
      << md;
}

// The io bullet of "How it was measured" states the system calls per request counted on both
// backends, for the cells the io_uring findings compare; a run without counts says nothing of them.
TEST(report_markdown, the_io_bullet_states_the_counted_system_calls_per_request) {
  const std::string md = report::markdown(with_syscalls(with_io_uring(), 2.31, 0.34));
  EXPECT_TRUE(contains(md,
                       "System calls per request, counted (perf, raw\\_syscalls:sys\\_enter on the server's "
                       "threads from ready to stop"))
      << md;
  EXPECT_TRUE(
      contains(md, "2.31 on epoll and 0.34 on io\\_uring for the floor, a raw TCP echo, rpc, depth 1, "))
      << md;
  EXPECT_TRUE(contains(md, "2.31 on epoll and 0.34 on io\\_uring for ZAP-HTTP + ZAP, rpc, depth 16, ")) << md;
  EXPECT_FALSE(contains(report::markdown(with_io_uring()), "ystem calls"));
  EXPECT_FALSE(contains(report::markdown(with_syscalls(synthetic(), 2.31, 0.34)), "ystem calls"));
}

// The io axis: an io_uring cell is a row of its own, right after its epoll row and labelled " on io_uring",
// compared in the ratios with the cells on io_uring (JSON has none there: —; the io_uring floor); the
// Go reference's table keeps our epoll rows only; its command line is listed apart.
TEST(report_markdown, io_uring_rows_are_rows_of_their_own_on_io_uring) {
  Results r = with_io_uring();
  for (Cell& c : r.cells)  // the floor twice as fast on io_uring: a ratio only its own floor gives
    if (c.arm == matrix::Arm::floor && c.io == matrix::Io::io_uring)
      for (E2ESample& s : c.samples) s.requests_per_s *= 2;
  const std::string md = report::markdown(r);
  for (const char* row :
       {"zapbench HTTP/1.1 + ZAP", "zapbench ZAP-HTTP + ZAP", "floor (raw TCP echo, 162 B → 162 B)"}) {
    SCOPED_TRACE(row);
    const std::size_t io_uring = md.find(std::string("| ") + row + " on io\\_uring | ");
    ASSERT_NE(io_uring, std::string::npos) << md;
    const std::size_t before = md.rfind('\n', io_uring - 2) + 1;  // the line above: its epoll row
    EXPECT_TRUE(md.substr(before).starts_with(std::string("| ") + row + " | "))
        << "right after its epoll row: " << md.substr(before, 200);
  }
  // c 10: HTTP+ZAP 160k; the io_uring floor 800k: 0.20, where the epoll row has 0.40 against the epoll floor.
  EXPECT_TRUE(contains(
      md, "| zapbench HTTP/1.1 + ZAP on io\\_uring | — | 0.20× (0.20–0.20) ▼ | — | 0.20× (0.20–0.20) ▼ |"))
      << md;
  EXPECT_TRUE(
      contains(md,
               "| zapbench HTTP/1.1 + ZAP | 1.60× (1.60–1.60) ▲ | 0.40× (0.40–0.40) ▼ | 1.60× (1.60–1.60) "
               "▲ | 0.40× (0.40–0.40) ▼ |"));
  EXPECT_TRUE(contains(md, "an io\\_uring row against the cells on io\\_uring too; "));
  EXPECT_FALSE(contains(report::markdown(synthetic()), "io\\_uring"));
  // The Go reference's servers are on epoll: its table has our epoll rows only.
  const std::size_t go = md.find("| zapbench against the Go reference |");
  ASSERT_NE(go, std::string::npos);
  EXPECT_FALSE(contains(md.substr(go, md.find("\n\n", go) - go), "on io\\_uring"));
  EXPECT_TRUE(contains(md, "zapbench ZAP-HTTP + ZAP on io\\_uring — as run for rpc, c 1, p 1"));
  EXPECT_TRUE(contains(md, "server: zapbench serve --http 127.0.0.1:0 --cpus 0 --io io_uring\n"));
  // How it was measured says what the axis is.
  const std::size_t how = md.find("## How it was measured");
  EXPECT_NE(
      md.find("- The server's I/O interface is an axis of its own: the rows \"on io\\_uring\" are", how),
      std::string::npos);
}

// The microbenchmarks' section (the request path beside its cell end to end) reads the epoll cells only:
// io_uring cells, even listed first, change nothing there.
TEST(report_markdown, io_uring_cells_leave_the_microbenchmarks_section_as_it_was) {
  Results r = with_io_uring();
  std::stable_partition(r.cells.begin(), r.cells.end(),
                        [](const Cell& c) { return c.io == matrix::Io::io_uring; });
  auto micro = [](const std::string& md) {
    const std::size_t from = md.find("## Microbenchmarks");
    return md.substr(from, md.find("\n## ", from + 1) - from);
  };
  const std::string md = report::markdown(r);
  EXPECT_TRUE(contains(micro(md), "Server/zap-http/zap")) << micro(md);
  EXPECT_EQ(micro(md), micro(report::markdown(synthetic())));
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
      "- **HTTP/1.1, logs N=10000, depth 1, 10 connections** — MB/s of responses: ZAP (183 MB/s) against the "
      "floor, a raw TCP echo of the same bytes (229 MB/s): **behind, 0.80× (0.80–0.80×), 3 rounds** — "
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
  EXPECT_TRUE(contains(md, "| N=1 | N=10 | N=1,000 | GB/s @1,000 | allocs @1,000 |"));
  EXPECT_TRUE(contains(md, "23.2 |"));
  // The Logs rows are not "other microbenchmarks".
  EXPECT_FALSE(contains(md, "| Logs/Encode/zap/1 |"));
  // The summary: DecodeAll at N = 1,000 against the fastest JSON; AccessOne flat; Encode against memcpy.
  EXPECT_TRUE(
      contains(md,
               "- **DecodeAll, N = 1,000** — time per op: ZAP (16.1 µs) against the fastest JSON, direct "
               "(803 µs): **ahead, 50.00× (50.00–50.00×), 3 rounds** — [table](#logs)."))
      << md;
  EXPECT_TRUE(
      contains(md,
               "- **AccessOne (log N/2)** — time per op: ZAP at N = 1,000 (4.01 ns) against ZAP at N = 1 "
               "(4.01 ns): **equivalent, 1.00× (1.00–1.00×), 3 rounds**"));
  EXPECT_TRUE(
      contains(md,
               "- **Encode, N = 1,000** — time per op: ZAP writing the answer (10.0 µs) against memcpy of "
               "the same bytes (5.02 µs): **behind, 0.50× (0.50–0.50×), 3 rounds**"));
  const std::string html = report::html(with_logs());
  for (const char* id : {"logs-Encode", "logs-DecodeAll", "logs-AccessOne", "logs-ScanField", "logs-wire"})
    EXPECT_TRUE(contains(html, std::string("data-chart=\"") + id + "\"")) << id;
  EXPECT_TRUE(contains(html, "stroke-dasharray"));  // the limit's line
  EXPECT_TRUE(contains(html, "memcpy, N 1k"));
}

TEST(report_html, is_self_contained_with_one_chart_per_op_and_two_per_group) {
  const std::string html = report::html(synthetic());
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>"));
  EXPECT_FALSE(contains(html, "http://") && !contains(html, "xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_FALSE(contains(html, "https://"));
  EXPECT_FALSE(contains(html, "<link"));
  EXPECT_FALSE(contains(html, " src="));
  std::size_t charts = 0;
  for (std::size_t at = 0; (at = html.find("<svg class=\"chart\"", at)) != std::string::npos; ++at) ++charts;
  EXPECT_EQ(charts, 2u + 4 + 2 * 3);  // the two at a glance, one per op, two per group
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

}  // namespace
