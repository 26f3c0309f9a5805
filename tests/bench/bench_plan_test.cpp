// tests/bench_plan_test.cpp — planning a run (bench/plan/plan.hpp): the modes'
// defaults, the checks a user meets as usage errors, the cells in run order
// with unavailable ones kept, the children's command lines, the io axis
// (zapbench's server and the floor on epoll and on io_uring, a refusing kernel
// planned), and the run folder's relative paths (bench/run/run_folder.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "bench/arms/go_arm.hpp"
#include "bench/children/launch.hpp"
#include "bench/plan/plan.hpp"
#include "bench/run/calibration.hpp"
#include "bench/run/conformance.hpp"
#include "bench/run/estimate.hpp"
#include "bench/run/host.hpp"
#include "bench/run/progress.hpp"
#include "bench/run/run_folder.hpp"
#include "net/affinity.hpp"
#include "net/uring.hpp"
#include "proc/machine.hpp"
#include "record/registry.hpp"

namespace {

using matrix::Arm;
using matrix::Framing;
using matrix::Io;
using matrix::Scenario;

// The logs exchange's byte counts grow with N, as ZAP's answer does.
bench::ExchangeBytes fake_floor(Scenario s, unsigned logs) {
  if (s == Scenario::logs) return {90, 100 + 230 * logs};
  return s == Scenario::hello ? bench::ExchangeBytes{40, 41} : bench::ExchangeBytes{82, 80};
}
bench::ExchangeBytes unmeasurable(Scenario, unsigned) { return {}; }

// The Go arms as `go` describes them, their servers' JSON codec `json` (--go-json).
void give_go(bench::RunRequest& q, const bench::GoArm& go, const std::string& json = "goccy") {
  for (Arm a : {Arm::go_zip, Arm::go_fasthttp, Arm::go_nethttp}) q.found[a] = bench::go_found(go, json);
}

// A request whose Go arms are not built (this machine's zapbench-go is never asked).
bench::RunRequest request() {
  bench::RunRequest q;
  give_go(q, bench::GoArm{});
  return q;
}

std::string message_of(const bench::RunRequest& q) {
  try {
    bench::plan_run(q);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(bench_plan, quick_and_full_defaults) {
  bench::RunRequest q = request();
  q.out_dir = "r";
  const bench::RunPlan quick = bench::plan_run(q);
  EXPECT_EQ(quick.cfg.mode, "quick");
  EXPECT_EQ(quick.cfg.duration_s, 0.25);
  EXPECT_EQ(quick.cfg.warmup_s, 0.25);
  EXPECT_EQ(quick.cfg.repeats, 3u);
  EXPECT_EQ(quick.cfg.precision, 0.03);
  EXPECT_EQ(quick.cfg.budget_s, 600);
  EXPECT_FALSE(quick.budget_given);
  EXPECT_EQ(quick.cfg.margin, 0.03);
  EXPECT_TRUE(quick.control);
  EXPECT_EQ(quick.cfg.micro_min_time_s, 0.05);
  EXPECT_EQ(quick.connections, (std::vector<unsigned>{1, 16}));
  EXPECT_EQ(quick.pipelines, (std::vector<unsigned>{1, 16}));
  EXPECT_TRUE(quick.chosen_cells);
  EXPECT_NE(quick.micro_filter.find("^Logs/[A-Za-z]+/("), std::string::npos) << quick.micro_filter;
  // The Logs rows of every binary peer the build has, beside the run's bodies.
  const std::regex quick_filter(quick.micro_filter);
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available && c.family() == matrix::Family::peer)
      EXPECT_TRUE(std::regex_search("Logs/DecodeAll/" + std::string(c.name) + "/100", quick_filter))
          << quick.micro_filter;
  EXPECT_FALSE(std::regex_search(std::string("Logs/DecodeAll/simdjson/100"), quick_filter))
      << quick.micro_filter;
  EXPECT_TRUE(std::regex_search(std::string("Encode/limit"), quick_filter)) << quick.micro_filter;
  // The fastest JSON codec, ZAP, the fastest binary peer when the build has one, and protobuf (gRPC's body).
  std::vector<std::string> quick_bodies{std::string(record::default_json_codec().name), "zap"};
  if (const record::CodecInfo* peer = record::fastest_binary_peer()) quick_bodies.emplace_back(peer->name);
  if (std::find(quick_bodies.begin(), quick_bodies.end(), "protobuf") == quick_bodies.end())
    quick_bodies.emplace_back("protobuf");
  EXPECT_EQ(quick.bodies, quick_bodies);
  EXPECT_EQ(quick.framings, (std::vector<Framing>{Framing::http1, Framing::http2, Framing::grpc,
                                                  Framing::zap_http, Framing::zap_rpc}));
  EXPECT_EQ(quick.arms, (std::vector<Arm>{Arm::zapbench, Arm::go_zip, Arm::go_fasthttp, Arm::nginx, Arm::h2o,
                                          Arm::nghttpd, Arm::grpc_cpp, Arm::floor}));
  EXPECT_FALSE(quick.cfg.server_cpus.empty());
  EXPECT_FALSE(quick.cfg.loader_cpus.empty());
  EXPECT_EQ(quick.scenarios, (std::vector<Scenario>{Scenario::hello, Scenario::rpc, Scenario::logs}));
  EXPECT_EQ(quick.logs, (std::vector<unsigned>{100}));
  q.full = true;
  const bench::RunPlan full = bench::plan_run(q);
  EXPECT_EQ(full.cfg.mode, "full");
  EXPECT_EQ(full.cfg.duration_s, 0.5);
  EXPECT_EQ(full.cfg.warmup_s, 0.5);
  EXPECT_EQ(full.cfg.precision, 0.02);
  EXPECT_EQ(full.cfg.budget_s, 3 * 3600);
  EXPECT_EQ(full.cfg.micro_min_time_s, 0.2);
  EXPECT_EQ(full.connections, (std::vector<unsigned>{1, 16, 125, 1000}));
  EXPECT_FALSE(full.chosen_cells);
  EXPECT_TRUE(full.micro_filter.empty());
  EXPECT_EQ(full.arms, std::vector<Arm>(matrix::kArms.begin(), matrix::kArms.end()));
  EXPECT_EQ(std::count(full.bodies.begin(), full.bodies.end(), "zap-fresh"), 0);
  std::size_t codecs = 0;  // every codec but zap-fresh (a benchmark variant of zap), available or not
  for (const record::CodecInfo& c : record::all_codecs()) codecs += c.name != "zap-fresh";
  EXPECT_EQ(full.bodies.size(), codecs);
  EXPECT_EQ(full.logs, (std::vector<unsigned>{1, 100, 10'000}));
  // Without the logs scenario, no N.
  q.scenarios = {Scenario::rpc};
  EXPECT_TRUE(bench::plan_run(q).logs.empty());
  q.scenarios = {Scenario::logs};
  q.logs = {7, 70};
  EXPECT_EQ(bench::plan_run(q).logs, (std::vector<unsigned>{7, 70}));
}

// quick (no --framings, no --bodies) runs only the cells that answer the main questions; each is here.
TEST(bench_plan, quick_runs_the_chosen_cells) {
  bench::RunRequest q = request();
  q.out_dir = "r";
  q.found[Arm::grpc_cpp] = {"/opt/zapbench-grpc", "", {}, {}, {}};  // as found: the arm is planned
  const bench::RunPlan p = bench::plan_run(q);
  ASSERT_TRUE(p.chosen_cells);
  std::set<std::string> ids;
  for (const bench::CellPlan& c : bench::plan_cells(p, fake_floor)) {
    if (c.cell.connections != 1 || c.cell.pipeline != 16) continue;
    ids.insert(c.cell.id());
  }
  const std::string json(record::default_json_codec().name);
  const record::CodecInfo* peer = record::fastest_binary_peer();
  std::set<std::string> want;
  for (const char* f : {"http", "http2", "zap", "zap-rpc"})
    want.insert(std::string("zapbench/hello/") + f + "//c1/p16");
  for (const std::string& b : {json, std::string("zap")}) want.insert("zapbench/rpc/http/" + b + "/c1/p16");
  if (peer != nullptr) want.insert("zapbench/rpc/http/" + std::string(peer->name) + "/c1/p16");
  for (const char* f : {"grpc", "zap-rpc"})
    for (const char* b : {"protobuf", "zap"})
      want.insert(std::string("zapbench/rpc/") + f + "/" + b + "/c1/p16");
  want.insert("zapbench/rpc/zap/zap/c1/p16");
  want.insert("zapbench/logs-100/http/" + json + "/c1/p16");
  want.insert("zapbench/logs-100/zap/zap/c1/p16");
  for (const char* cell :
       {"go-zip/hello/zap//c1/p16", "go-zip/rpc/zap/zap/c1/p16", "nginx/hello/http//c1/p16",
        "nginx/hello/http2//c1/p16", "h2o/hello/http//c1/p16", "h2o/hello/http2//c1/p16",
        "nghttpd/hello/http2//c1/p16", "grpc-cpp/rpc/grpc/protobuf/c1/p16", "floor/hello/tcp//c1/p16",
        "floor/rpc/tcp//c1/p16", "floor/logs-100/tcp//c1/p16"})
    want.insert(cell);
  // The Go arms' JSON cell: the first JSON body of the run (unavailable here: no Go arm was probed).
  want.insert("go-zip/rpc/http/" + json + "/c1/p16");
  want.insert("go-fasthttp/rpc/http/" + json + "/c1/p16");
  // go-fasthttp stands for zip, which cannot be built: its ZAP-HTTP + ZAP (zap-proto/http) and HTTP/1.1 +
  // ZAP.
  want.insert("go-fasthttp/rpc/zap/zap/c1/p16");
  want.insert("go-fasthttp/rpc/http/zap/c1/p16");
  // The Go ZAP-RPC cell: zap-proto/go's own transport (zapbench-go-rpc), zip's stack.
  want.insert("go-zip/rpc/zap-rpc/zap/c1/p16");
  // The control: a copy of the headline ZAP-RPC + ZAP cell, run as a cell of its own.
  want.insert("zapbench/rpc/zap-rpc/zap/c1/p16/control");
  // The io axis: io_uring copies of the headline cells only, zapbench's ZAP rpc cells and the floor's rpc.
  for (const char* f : {"http", "grpc", "zap", "zap-rpc"})
    want.insert(std::string("zapbench/rpc/") + f + "/zap/c1/p16/io_uring");
  want.insert("floor/rpc/tcp//c1/p16/io_uring");
  EXPECT_EQ(ids, want);
  // The estimate counts every sample that runs (unavailable cells take no time), the calibration's
  // ping-pongs at the start of each round, and the microbenchmarks.
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  std::size_t runnable = 0;
  for (const bench::CellPlan& c : cells) runnable += c.cell.unavailable.empty();
  bench::RunPlan no_micro = p;
  no_micro.micro = false;
  EXPECT_NEAR(bench::estimated_run_s(no_micro, cells),
              double(runnable) * p.cfg.repeats * (0.25 + 0.25 + bench::kSampleOverheadS) +
                  p.cfg.repeats * bench::calibration_round_s(p) +
                  bench::kConformancePerServerS * double(bench::conformance_servers(cells).size()),
              1e-6);
  EXPECT_GT(bench::estimated_run_s(p, cells), bench::estimated_run_s(no_micro, cells));

  // No cell with both connections and depth above 1.
  for (const bench::CellPlan& c : cells)
    EXPECT_FALSE(c.cell.connections > 1 && c.cell.pipeline > 1) << c.cell.id();
  // --framings or --bodies: every combination of them.
  q.framings = {Framing::http1};
  EXPECT_FALSE(bench::plan_run(q).chosen_cells);
  q.framings.clear();
  q.bodies = {"zap"};
  EXPECT_FALSE(bench::plan_run(q).chosen_cells);
}

TEST(bench_plan, usage_errors_say_what_is_wrong) {
  bench::RunRequest q = request();
  q.server_cpus = {4095};
  EXPECT_NE(message_of(q).find("--server-cpus: CPU 4095 is not available"), std::string::npos)
      << message_of(q);
  q = {};
  q.pipelines = {2000};
  EXPECT_NE(message_of(q).find("--pipeline"), std::string::npos);
  const std::vector<std::string> bodies = bench::body_names();  // what --bodies accepts
  EXPECT_EQ(std::count(bodies.begin(), bodies.end(), "zap-fresh"), 0);
  EXPECT_EQ(std::count(bodies.begin(), bodies.end(), "zap"), 1);
  q = {};
  q.logs = {0};
  EXPECT_EQ(message_of(q), "--logs wants N from 1 to 100000, got 0");
  q.logs = {100, 100'001};
  EXPECT_EQ(message_of(q), "--logs wants N from 1 to 100000, got 100001");
  q.logs = {100};
  q.scenarios = {Scenario::hello, Scenario::rpc};
  EXPECT_EQ(message_of(q), "--logs is for the logs scenario, which --scenarios leaves out");
}

// The control copy: the headline cell (ZAP-RPC + ZAP on rpc, the deepest depth, the fewest connections)
// once more, last in the run's order, as a cell of its own with the same server and load.
TEST(bench_plan, control_copy_comes_last) {
  bench::RunRequest q = request();
  q.connections = {1, 8};
  q.pipelines = {1, 16};
  q.bodies = {"zap"};
  const bench::RunPlan p = bench::plan_run(q);
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  const bench::CellPlan& copy = cells.back();
  EXPECT_TRUE(copy.cell.control);
  EXPECT_EQ(copy.cell.id(), "zapbench/rpc/zap-rpc/zap/c1/p16/control");
  EXPECT_EQ(bench::cell_label(copy.cell), "rpc zapbench zap-rpc+zap c1 p16 (control)");
  std::size_t originals = 0;
  for (const bench::CellPlan& c : cells)
    if (!c.cell.control && c.cell.id() + "/control" == copy.cell.id()) {
      ++originals;
      EXPECT_EQ(bench::server_launch(p, "/bin/zapbench", c).spec.argv,
                bench::server_launch(p, "/bin/zapbench", copy).spec.argv);
      EXPECT_EQ(bench::load_options(p, c, 1).connections, bench::load_options(p, copy, 1).connections);
    }
  EXPECT_EQ(originals, 1u);
  // No ZAP-RPC: the first zapbench cell that runs, by the same preference; none at all: no copy.
  q.framings = {Framing::http1};
  EXPECT_EQ(bench::plan_cells(bench::plan_run(q), fake_floor).back().cell.id(),
            "zapbench/hello/http//c1/p16/control");
  q.arms = {Arm::floor};
  for (const bench::CellPlan& c : bench::plan_cells(bench::plan_run(q), fake_floor))
    EXPECT_FALSE(c.cell.control);
  q.arms = {};
  q.control = false;
  for (const bench::CellPlan& c : bench::plan_cells(bench::plan_run(q), fake_floor))
    EXPECT_FALSE(c.cell.control);
}

// The budget: the mode's default grows to fit the first rounds; one given shorter than them is refused
// with the estimate; 0 is the first rounds only.
TEST(bench_plan, budget_fits_the_first_rounds_or_says_why_not) {
  bench::RunRequest q = request();
  const bench::RunPlan quick = bench::plan_run(q);
  const std::vector<bench::CellPlan> cells = bench::plan_cells(quick, fake_floor);
  const double first_s = bench::estimated_run_s(quick, cells);
  ASSERT_LT(first_s, 600);
  EXPECT_EQ(bench::run_budget_s(quick, cells), 600);
  q.repeats = 20;  // first rounds past the default budget: the budget grows to fit them
  const bench::RunPlan many = bench::plan_run(q);
  EXPECT_EQ(bench::run_budget_s(many, cells), bench::estimated_run_s(many, cells));
  q.repeats = 3;
  q.budget_s = 60;
  const bench::RunPlan tight = bench::plan_run(q);
  EXPECT_TRUE(tight.budget_given);
  try {
    bench::run_budget_s(tight, cells);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "--budget 1m00s: the first rounds alone take ~" + bench::duration_text(first_s) +
                  "; give at least that, fewer cells or --repeats, or --budget 0 (the first "
                  "rounds only)");
  }
  q.budget_s = 0;
  EXPECT_EQ(bench::run_budget_s(bench::plan_run(q), cells), 0);
}

TEST(bench_plan, cells_in_run_order_with_unavailable_ones_kept) {
  bench::RunRequest q = request();
  q.connections = {1, 8};
  q.pipelines = {1};
  q.bodies = {"zap"};
  q.found[Arm::nginx] = {
      "/opt/nginx", "", {}, {}, {}};  // as found: planned (what finding refuses: web_server_test)
  q.found[Arm::grpc_cpp] = {"/opt/zapbench-grpc", "", {}, {}, {}};  // the same
  q.found[Arm::h2o] = {"/opt/h2o", "", {}, {}, {}};
  q.found[Arm::nghttpd] = {"/opt/nghttpd", "", {}, {}, {}};
  q.control = false;    // (control_copy_comes_last has it)
  q.ios = {Io::epoll};  // (io_uring_cells_beside_their_epoll_ones has io_uring)
  const bench::RunPlan p = bench::plan_run(q);
  EXPECT_FALSE(p.chosen_cells) << "--bodies: every combination";
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  std::vector<std::string> ids;
  for (const bench::CellPlan& c : cells) ids.push_back(c.cell.id());
  std::vector<std::string> want;
  // zapbench, then the quick run's Go arms (the same cells; unavailable here: no Go arm was probed).
  // The Go reference has no /logs: its arms have no logs cells; ZAP-RPC is the zip arm's only.
  // HTTP/2 and gRPC are zapbench's (the reference serves HTTP/1.1 and ZAP only); gRPC has rpc only.
  for (const std::string arm : {"zapbench", "go-zip", "go-fasthttp"}) {
    const bool rpc_framing = arm != "go-fasthttp";
    for (const char* scenario : {"/hello/", "/rpc/", "/logs-100/"}) {
      if (arm != "zapbench" && scenario == std::string("/logs-100/")) continue;
      const std::string body = scenario == std::string("/hello/") ? "//" : "/zap/";
      for (const char* framing : {"http", "http2", "grpc", "zap", "zap-rpc"}) {
        if (!rpc_framing && framing == std::string("zap-rpc")) continue;
        const bool h2 = framing == std::string("http2") || framing == std::string("grpc");
        if (arm != "zapbench" && h2) continue;
        if (framing == std::string("grpc") && scenario != std::string("/rpc/")) continue;
        for (const char* conns : {"c1/p1", "c8/p1"}) want.push_back(arm + scenario + framing + body + conns);
      }
    }
  }
  for (const char* cell :
       {"nginx/hello/http//c1/p1", "nginx/hello/http//c8/p1", "nginx/hello/http2//c1/p1",
        "nginx/hello/http2//c8/p1", "h2o/hello/http//c1/p1", "h2o/hello/http//c8/p1",
        "h2o/hello/http2//c1/p1", "h2o/hello/http2//c8/p1", "nghttpd/hello/http2//c1/p1",
        "nghttpd/hello/http2//c8/p1", "grpc-cpp/rpc/grpc/protobuf/c1/p1", "grpc-cpp/rpc/grpc/protobuf/c8/p1",
        "floor/hello/tcp//c1/p1", "floor/hello/tcp//c8/p1", "floor/rpc/tcp//c1/p1", "floor/rpc/tcp//c8/p1",
        "floor/logs-100/tcp//c1/p1", "floor/logs-100/tcp//c8/p1"})
    want.emplace_back(cell);
  EXPECT_EQ(ids, want);
  for (const bench::CellPlan& c : cells)
    if (matrix::is_go_arm(c.cell.arm)) {
      EXPECT_NE(c.cell.unavailable.find("zapbench-go"), std::string::npos) << c.cell.unavailable;
    }
  EXPECT_EQ(cells.back().floor.request, 90u);
  EXPECT_EQ(cells.back().floor.response, 100u + 230u * 100u) << "the floor carries ZAP's bytes at that N";
  EXPECT_EQ(cells.back().cell.logs, 100u);

  bench::RunPlan none = p;
  none.found[static_cast<std::size_t>(Arm::nginx)].unavailable =
      "nginx not found (Debian package nginx-light)";
  none.arms = {Arm::nginx, Arm::floor};
  for (const bench::CellPlan& c : bench::plan_cells(none, unmeasurable)) {
    if (c.cell.arm == Arm::nginx) {
      EXPECT_NE(c.cell.unavailable.find("nginx not found"), std::string::npos);
    } else {
      EXPECT_NE(c.cell.unavailable.find("byte counts"), std::string::npos);
    }
  }
}

// A Go arm as `zapbench-go capabilities` would describe a build without the
// zap-proto modules (the reasons are the Go side's; these are stand-ins).
bench::GoArm go_without_zap() {
  bench::GoArm go;
  go.binary = "/opt/zapbench-go";
  go.go_version = "go1.26.8";
  go.frameworks = {{"fasthttp", ""}, {"nethttp", ""}, {"zip", "no zip here"}};
  go.transports = {{"http", ""}, {"zap", "no zap transport here"}, {"zap-rpc", "no zap-rpc transport here"}};
  go.codecs = {{"goccy", ""}, {"sonic", "no sonic here"}, {"stdlib", ""}, {"zap", "no zap codec here"}};
  return go;
}

TEST(bench_plan, go_arms_serve_what_their_build_has) {
  bench::RunRequest q = request();
  q.server_cpus = {proc::allowed_cpus().front()};
  q.connections = {2};
  q.pipelines = {1};
  q.bodies = {std::string(record::default_json_codec().name), "zap"};
  q.arms = {Arm::go_zip, Arm::go_fasthttp, Arm::go_nethttp};
  give_go(q, go_without_zap());
  const bench::RunPlan p = bench::plan_run(q);
  EXPECT_EQ(p.arm(Arm::go_zip).option("--go-json"), "goccy");
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  // go-zip: hello x 3 framings, rpc x 3 framings x 2 bodies; go-fasthttp the same without
  // ZAP-RPC (zap-proto/go's transport: the zip arm's stack only); go-nethttp without ZAP-HTTP
  // too (zap-proto/http is built on fasthttp).
  ASSERT_EQ(cells.size(), 9u + 6u + 3u);
  const std::string json(record::default_json_codec().name);
  for (const bench::CellPlan& cp : cells) {
    const report::Cell& c = cp.cell;
    SCOPED_TRACE(c.id());
    if (c.framing == Framing::zap_http) {
      EXPECT_NE(c.arm, Arm::go_nethttp);
    }
    if (c.framing == Framing::zap_rpc) {
      // zap-proto/go's transport, no framework: its own reason, and under go-zip only.
      EXPECT_EQ(c.arm, Arm::go_zip);
      EXPECT_EQ(c.unavailable, "no zap-rpc transport here");
    } else if (c.arm == Arm::go_zip) {
      EXPECT_EQ(c.unavailable, "no zip here");
    } else if (c.framing == Framing::zap_http) {
      EXPECT_EQ(c.unavailable, "no zap transport here");
    } else if (c.body == "zap") {
      EXPECT_EQ(c.unavailable, "no zap codec here");
    } else {
      EXPECT_EQ(c.unavailable, "");
    }
    // The server's codec is recorded where it is not the body's own: the Go arms' JSON.
    EXPECT_EQ(c.server_codec, c.scenario == Scenario::rpc && c.body == json ? "go/goccy" : "");
  }
  const bench::CellPlan& rpc = cells[9 + 2];  // go-fasthttp rpc http JSON (after 9 go-zip cells and 2 hello)
  ASSERT_EQ(rpc.cell.id(), "go-fasthttp/rpc/http/" + json + "/c2/p1");
  const bench::ChildSpec serve = bench::server_launch(p, "/bin/zapbench", rpc).spec;
  EXPECT_EQ(serve.argv, (std::vector<std::string>{"/opt/zapbench-go", "serve", "--http", "127.0.0.1:0",
                                                  "--fw", "fasthttp", "--json", "goccy"}));
  EXPECT_TRUE(serve.ready_channel);
  EXPECT_EQ(serve.cpus, q.server_cpus);
  EXPECT_EQ(serve.env, (std::vector<std::string>{"GOMAXPROCS=1"}));
  // The loader drives it like our server: HTTP/1.1, the body's C++ codec, every answer validated.
  const load::Options o = bench::load_options(p, rpc, 7777);
  EXPECT_EQ(o.framing, matrix::Framing::http1);
  EXPECT_EQ(o.body, &record::default_json_codec());

  // One JSON body measures the Go server (it decodes them all with goccy): the first the run has.
  q.bodies = {"zap", json, "nlohmann"};
  std::size_t go_json_cells = 0;
  for (const bench::CellPlan& cp : bench::plan_cells(bench::plan_run(q), fake_floor)) {
    if (cp.cell.arm == Arm::go_fasthttp && cp.cell.scenario == Scenario::rpc) {
      EXPECT_NE(cp.cell.body, "nlohmann") << cp.cell.id();
      go_json_cells += cp.cell.body == json;
    }
  }
  EXPECT_EQ(go_json_cells, 2u);  // one per framing
  q.bodies = {json, "zap"};

  // Its chosen JSON codec unavailable: every rpc JSON cell says why.
  give_go(q, go_without_zap(), "sonic");
  for (const bench::CellPlan& cp : bench::plan_cells(bench::plan_run(q), fake_floor))
    if (cp.cell.arm == Arm::go_fasthttp && cp.cell.framing == Framing::http1 && cp.cell.body == json) {
      EXPECT_EQ(cp.cell.unavailable, "no sonic here");
    }

  // Each Go cell as built: the modules its server used, versions as linked; the ZAP-RPC cell (under
  // go-zip) named by its own server, zapbench-go-rpc's zap-proto/go, with that build's version.
  bench::GoArm built = go_without_zap();
  built.modules = {{"github.com/valyala/fasthttp", "v1.78.0"},
                   {"github.com/goccy/go-json", "v0.12.0"},
                   {"github.com/zap-proto/go", "v1.3.0"},
                   {"github.com/zap-proto/http", "v0.3.5"}};
  built.transports = {{"http", ""}, {"zap", ""}, {"zap-rpc", ""}};
  built.codecs["zap"] = "";
  built.rpc_binary = "/opt/zapbench-go-rpc";
  built.rpc_modules = {{"github.com/zap-proto/go", "v1.8.1"}, {"github.com/zap-proto/http", "v0.3.9"}};
  give_go(q, built);
  std::map<std::string, std::map<std::string, std::string>> modules;
  std::map<std::string, std::string> servers, labels;
  for (const bench::CellPlan& cp : bench::plan_cells(bench::plan_run(q), fake_floor)) {
    modules[cp.cell.id()] = cp.cell.go_modules;
    servers[cp.cell.id()] = cp.cell.server;
    labels[cp.cell.id()] = bench::cell_label(cp.cell);
  }
  using Modules = std::map<std::string, std::string>;
  EXPECT_EQ(modules["go-zip/rpc/zap-rpc/zap/c2/p1"], (Modules{{"github.com/zap-proto/go", "v1.8.1"}}));
  EXPECT_EQ(servers["go-zip/rpc/zap-rpc/zap/c2/p1"], "zap-proto/go v1.8.1 ZAP-RPC");
  EXPECT_EQ(modules["go-fasthttp/rpc/zap/zap/c2/p1"], (Modules{{"github.com/valyala/fasthttp", "v1.78.0"},
                                                               {"github.com/zap-proto/go", "v1.3.0"},
                                                               {"github.com/zap-proto/http", "v0.3.5"}}));
  EXPECT_EQ(servers["go-fasthttp/rpc/zap/zap/c2/p1"], "");
  EXPECT_EQ(modules["go-fasthttp/rpc/http/" + json + "/c2/p1"],
            (Modules{{"github.com/goccy/go-json", "v0.12.0"}, {"github.com/valyala/fasthttp", "v1.78.0"}}));
  EXPECT_EQ(modules["go-nethttp/hello/http//c2/p1"], Modules{});        // net/http: the standard library
  EXPECT_EQ(modules["go-zip/rpc/http/" + json + "/c2/p1"], Modules{});  // could not run: none
  EXPECT_EQ(labels["go-zip/rpc/zap-rpc/zap/c2/p1"],
            "rpc go-zip zap-rpc+zap c2 p1 [zap-proto/go v1.8.1 ZAP-RPC]");

  // No Go arm at all: the reason it has.
  bench::GoArm none;
  none.unavailable = "go not found on PATH";
  give_go(q, none);
  for (const bench::CellPlan& cp : bench::plan_cells(bench::plan_run(q), fake_floor))
    EXPECT_EQ(cp.cell.unavailable, "go not found on PATH");
}

// The logs scenario: a cell per N, framing and body; a body codec without the record and a cell with too
// many answer bytes in flight are kept, unavailable with the reason; the loader asks for N logs.
TEST(bench_plan, logs_cells_per_n_with_the_floor_at_each_n) {
  bench::RunRequest q = request();
  q.server_cpus = {proc::allowed_cpus().front()};
  q.loader_cpus = {proc::allowed_cpus().back()};
  q.connections = {1, 1000};
  q.pipelines = {16};
  q.scenarios = {Scenario::logs};
  q.framings = {Framing::http1};
  q.arms = {Arm::zapbench, Arm::go_fasthttp, Arm::floor};
  give_go(q, go_without_zap());
  q.full = true;
  q.control = false;
  q.ios = {Io::epoll};
  // A codec without the logs record, when this build has one (every codec will have it).
  std::string without;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available && !c.trusted_input_only && !c.has_logs && without.empty()) without = c.name;
  q.bodies = {"zap"};
  if (!without.empty()) q.bodies.push_back(without);
  const bench::RunPlan p = bench::plan_run(q);
  ASSERT_EQ(p.logs, (std::vector<unsigned>{1, 100, 10'000}));
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  // zapbench: 3 N x bodies x 2 connections; no Go cells; floor: 3 N x 2 connections.
  ASSERT_EQ(cells.size(), 3 * q.bodies.size() * 2 + 3 * 2);
  for (const bench::CellPlan& cp : cells) {
    const report::Cell& c = cp.cell;
    SCOPED_TRACE(c.id());
    EXPECT_EQ(c.scenario, Scenario::logs);
    EXPECT_NE(c.arm, Arm::go_fasthttp);
    ASSERT_TRUE(c.logs == 1 || c.logs == 100 || c.logs == 10'000);
    EXPECT_EQ(c.id().substr(0, c.id().find('/', c.id().find('/') + 1)),
              std::string(matrix::to_string(c.arm)) + "/logs-" + std::to_string(c.logs));
    const bool over = double(c.logs) * bench::kLogsBytesPerLogBound * c.connections * c.pipeline >
                      bench::kLogsInFlightBudgetBytes;
    if (c.arm == Arm::zapbench && c.body == without) {
      EXPECT_EQ(c.unavailable, "no logs record in this codec yet (record::LogsCodec)");
    } else if (over) {
      EXPECT_NE(c.unavailable.find("answers in flight"), std::string::npos) << c.unavailable;
    } else {
      EXPECT_EQ(c.unavailable, "");
    }
    if (c.arm == Arm::floor) {
      EXPECT_EQ(cp.floor.response, 100u + 230u * c.logs);
      const load::Options f = bench::load_options(p, cp, 6666);
      EXPECT_EQ(f.floor_response_bytes, 100u + 230u * c.logs);
    }
  }
  // c 1000 x depth 16 x 10 000 logs: over the budget; c 1 x 16 x 10 000: not.
  const auto find = [&](Arm arm, unsigned n, unsigned conns) -> const bench::CellPlan& {
    for (const bench::CellPlan& cp : cells)
      if (cp.cell.arm == arm && cp.cell.logs == n && cp.cell.connections == conns && cp.cell.body != without)
        return cp;
    throw std::logic_error("no such cell");
  };
  EXPECT_NE(find(Arm::zapbench, 10'000, 1000).cell.unavailable, "");
  EXPECT_EQ(find(Arm::zapbench, 10'000, 1).cell.unavailable, "");
  EXPECT_EQ(find(Arm::zapbench, 1, 1000).cell.unavailable, "");

  const bench::CellPlan& zap = find(Arm::zapbench, 10'000, 1);
  EXPECT_EQ(zap.cell.id(), "zapbench/logs-10000/http/zap/c1/p16");
  EXPECT_EQ(bench::cell_label(zap.cell), "logs N=10000 zapbench http+zap c1 p16");
  const load::Options o = bench::load_options(p, zap, 5555);
  EXPECT_EQ(o.scenario, matrix::Scenario::logs);
  EXPECT_EQ(o.logs, 10'000u);
  EXPECT_EQ(o.body, record::find_codec("zap"));
  EXPECT_EQ(bench::server_launch(p, "/bin/zapbench", zap).spec.argv,
            (std::vector<std::string>{"/bin/zapbench", "serve", "--http", "127.0.0.1:0", "--threads", "1",
                                      "--cpus", std::to_string(q.server_cpus[0])}));
}

TEST(bench_plan, children_command_lines) {
  bench::RunRequest q = request();
  q.server_cpus = {proc::allowed_cpus().front()};
  q.loader_cpus = {proc::allowed_cpus().back()};
  q.connections = {4};
  q.pipelines = {2};
  q.bodies = {std::string(record::default_json_codec().name)};
  q.arms = {Arm::zapbench, Arm::floor};
  q.scenarios = {Scenario::rpc};
  q.framings = {Framing::zap_http};
  q.control = false;
  q.ios = {Io::epoll};  // (io_uring's: io_uring_cells_beside_their_epoll_ones)
  const bench::RunPlan p = bench::plan_run(q);
  const std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  ASSERT_EQ(cells.size(), 2u);
  const std::string json(record::default_json_codec().name);
  const std::string cpu = std::to_string(q.server_cpus[0]);
  const bench::ChildSpec serve = bench::server_launch(p, "/bin/zapbench", cells[0]).spec;
  EXPECT_EQ(serve.argv, (std::vector<std::string>{"/bin/zapbench", "serve", "--zap", "127.0.0.1:0",
                                                  "--threads", "1", "--cpus", cpu, "--codec", json}));
  EXPECT_TRUE(serve.ready_channel);
  EXPECT_EQ(serve.cpus, q.server_cpus);
  const bench::ChildSpec floor = bench::server_launch(p, "/bin/zapbench", cells[1]).spec;
  EXPECT_EQ(floor.argv,
            (std::vector<std::string>{"/bin/zapbench", "floor", "--listen", "127.0.0.1:0", "--request-bytes",
                                      "82", "--response-bytes", "80", "--threads", "1", "--cpus", cpu}));
  const load::Options o = bench::load_options(p, cells[0], 5555);
  EXPECT_EQ(o.framing, matrix::Framing::zap_http);
  EXPECT_EQ(o.port, 5555);
  EXPECT_EQ(o.scenario, matrix::Scenario::rpc);
  EXPECT_EQ(o.body, &record::default_json_codec());
  EXPECT_EQ(o.connections, 4u);
  EXPECT_EQ(o.pipeline, 2u);
  EXPECT_EQ(o.threads, 1u);
  EXPECT_EQ(o.cpus, q.loader_cpus);
  const load::Options f = bench::load_options(p, cells[1], 6666);
  EXPECT_EQ(f.framing, matrix::Framing::raw_tcp);
  EXPECT_EQ(f.floor_request_bytes, 82u);
  EXPECT_EQ(f.floor_response_bytes, 80u);
  EXPECT_EQ(bench::cell_label(cells[0].cell), "rpc zapbench zap+" + json + " c4 p2");

  // ZAP-RPC: served with --zap-rpc, loaded with its own wire; depth is calls in flight.
  q.framings = {Framing::zap_rpc};
  q.arms = {Arm::zapbench};
  q.bodies = {"zap"};
  const bench::RunPlan rp = bench::plan_run(q);
  const std::vector<bench::CellPlan> rpc_cells = bench::plan_cells(rp, fake_floor);
  ASSERT_EQ(rpc_cells.size(), 1u);
  EXPECT_EQ(rpc_cells[0].cell.id(), "zapbench/rpc/zap-rpc/zap/c4/p2");
  EXPECT_EQ(bench::server_launch(rp, "/bin/zapbench", rpc_cells[0]).spec.argv,
            (std::vector<std::string>{"/bin/zapbench", "serve", "--zap-rpc", "127.0.0.1:0", "--threads", "1",
                                      "--cpus", cpu}));
  const load::Options ro = bench::load_options(rp, rpc_cells[0], 4444);
  EXPECT_EQ(ro.framing, matrix::Framing::zap_rpc);
  EXPECT_EQ(ro.pipeline, 2u);
  EXPECT_EQ(ro.body, record::find_codec("zap"));
}

// The io axis: by default zapbench's server and the floor on epoll and on io_uring, each io_uring cell
// right after its epoll original, the same but for the server's `--io io_uring`; quick copies only the
// headline cells; the other arms' servers stay on epoll; a kernel that refuses io_uring leaves the
// cells planned, unavailable with its reason.
TEST(bench_plan, io_uring_cells_beside_their_epoll_ones) {
  bench::RunRequest q = request();
  q.out_dir = "r";
  q.found[Arm::grpc_cpp] = {"/opt/zapbench-grpc", "", {}, {}, {}};
  bench::RunPlan p = bench::plan_run(q);
  EXPECT_EQ(p.ios, (std::vector<Io>{Io::epoll, Io::io_uring}));
  // plan_run asked this kernel (whatever it says, it says it the probe's way).
  const net::UringSupport uring = net::probe_uring();
  EXPECT_EQ(p.io_uring_unavailable, uring.available ? "" : uring.describe());
  p.io_uring_unavailable = "";  // a kernel that allows it
  std::vector<bench::CellPlan> cells = bench::plan_cells(p, fake_floor);
  std::set<std::string> io_uring, want;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const report::Cell& c = cells[i].cell;
    if (c.io != Io::io_uring) continue;
    io_uring.insert(c.id());
    EXPECT_EQ(c.unavailable, "") << c.id();
    ASSERT_GT(i, 0u);
    report::Cell original = c;
    original.io = Io::epoll;
    EXPECT_EQ(cells[i - 1].cell.id(), original.id()) << "right after its epoll original";
  }
  // quick: the headline cells at quick's connections and depths (no 16 x 16).
  for (const char* cd : {"c1/p1", "c1/p16", "c16/p1"}) {
    for (const char* f : {"http", "grpc", "zap", "zap-rpc"})
      want.insert(std::string("zapbench/rpc/") + f + "/zap/" + cd + "/io_uring");
    want.insert(std::string("floor/rpc/tcp//") + cd + "/io_uring");
  }
  EXPECT_EQ(io_uring, want);
  // The control copy is still the epoll headline cell's.
  EXPECT_EQ(cells.back().cell.id(), "zapbench/rpc/zap-rpc/zap/c1/p16/control");

  // The server's command line says --io io_uring; the loader stays on epoll.
  const auto find = [&](const std::string& id) -> const bench::CellPlan& {
    for (const bench::CellPlan& cp : cells)
      if (cp.cell.id() == id) return cp;
    throw std::logic_error("no cell " + id);
  };
  const std::string cpus = net::cpu_list_text(p.cfg.server_cpus),
                    threads = std::to_string(p.cfg.server_cpus.size());
  const bench::CellPlan& zap = find("zapbench/rpc/zap-rpc/zap/c1/p16/io_uring");
  EXPECT_EQ(bench::server_launch(p, "/bin/zapbench", zap).spec.argv,
            (std::vector<std::string>{"/bin/zapbench", "serve", "--zap-rpc", "127.0.0.1:0", "--threads",
                                      threads, "--cpus", cpus, "--io", "io_uring"}));
  EXPECT_EQ(bench::server_launch(p, "/bin/zapbench", find("zapbench/rpc/zap-rpc/zap/c1/p16")).spec.argv,
            (std::vector<std::string>{"/bin/zapbench", "serve", "--zap-rpc", "127.0.0.1:0", "--threads",
                                      threads, "--cpus", cpus}));
  EXPECT_EQ(bench::load_options(p, zap, 1).io, net::Io::epoll);
  EXPECT_EQ(bench::cell_label(zap.cell), "rpc zapbench zap-rpc+zap c1 p16 io_uring");
  const bench::CellPlan& floor = find("floor/rpc/tcp//c16/p1/io_uring");
  EXPECT_EQ(bench::server_launch(p, "/bin/zapbench", floor).spec.argv,
            (std::vector<std::string>{"/bin/zapbench", "floor", "--listen", "127.0.0.1:0", "--request-bytes",
                                      "82", "--response-bytes", "80", "--threads", threads, "--cpus", cpus,
                                      "--io", "io_uring"}));
  EXPECT_EQ(bench::load_options(p, floor, 1).io, net::Io::epoll);

  // The estimate counts them like any cell that runs.
  bench::RunPlan no_micro = p;
  no_micro.micro = false;
  std::size_t runnable = 0;
  for (const bench::CellPlan& c : cells) runnable += c.cell.unavailable.empty();
  EXPECT_NEAR(bench::estimated_run_s(no_micro, cells),
              double(runnable) * p.cfg.repeats * (0.25 + 0.25 + bench::kSampleOverheadS) +
                  p.cfg.repeats * bench::calibration_round_s(p) +
                  bench::kConformancePerServerS * double(bench::conformance_servers(cells).size()),
              1e-6);

  // A kernel that refuses io_uring: the same cells, unavailable with its reason; nothing else changes.
  const std::string refused = "io_uring unavailable: kernel.io_uring_disabled is 2";
  p.io_uring_unavailable = refused;
  const std::vector<bench::CellPlan> refusing = bench::plan_cells(p, fake_floor);
  ASSERT_EQ(refusing.size(), cells.size());
  for (std::size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(refusing[i].cell.id(), cells[i].cell.id());
    EXPECT_EQ(refusing[i].cell.unavailable,
              cells[i].cell.io == Io::io_uring ? refused : cells[i].cell.unavailable)
        << cells[i].cell.id();
  }
  EXPECT_LT(bench::estimated_run_s(no_micro, refusing), bench::estimated_run_s(no_micro, cells));

  // --io epoll: none.
  q.ios = {Io::epoll};
  for (const bench::CellPlan& c : bench::plan_cells(bench::plan_run(q), fake_floor))
    EXPECT_EQ(c.cell.io, Io::epoll) << c.cell.id();

  // full (and any run that is not quick's chosen cells): zapbench's cells of ZAP, of the fastest JSON
  // body and hello's, and every floor cell, have their io_uring twin (not the other bodies': protobuf);
  // nginx, grpc++ and the Go arms are on epoll only.
  q = {};
  q.full = true;
  q.connections = {1, 8};
  q.pipelines = {1, 4};
  q.bodies = {"zap", std::string(record::default_json_codec().name), "protobuf"};
  q.found[Arm::nginx] = {"/opt/nginx", "", {}, {}, {}};
  q.found[Arm::grpc_cpp] = {"/opt/zapbench-grpc", "", {}, {}, {}};
  give_go(q, go_without_zap());
  q.control = false;
  bench::RunPlan full = bench::plan_run(q);
  full.io_uring_unavailable = "";
  std::map<Arm, std::size_t> epoll_cells, io_uring_cells;
  std::size_t protobuf_cells = 0;
  for (const bench::CellPlan& c : bench::plan_cells(full, fake_floor)) {
    ++(c.cell.io == Io::epoll ? epoll_cells : io_uring_cells)[c.cell.arm];
    if (c.cell.arm == Arm::zapbench && c.cell.body == "protobuf") {
      EXPECT_EQ(c.cell.io, Io::epoll) << c.cell.id();
      ++protobuf_cells;
    }
  }
  EXPECT_GT(protobuf_cells, 0u);
  for (Arm a : matrix::kArms) {
    SCOPED_TRACE(std::string(matrix::to_string(a)));
    EXPECT_GT(epoll_cells[a], 0u);
    EXPECT_EQ(io_uring_cells[a], a == Arm::zapbench ? epoll_cells[a] - protobuf_cells
                                 : a == Arm::floor  ? epoll_cells[a]
                                                    : 0u);
  }

  // --io io_uring alone: quick's chosen cells of zapbench and the floor all on io_uring (no originals to
  // copy), the other arms on epoll, their only one; each value once however often given.
  q = {};
  q.ios = {Io::io_uring, Io::epoll};
  EXPECT_EQ(bench::plan_run(q).ios, (std::vector<Io>{Io::epoll, Io::io_uring})) << "in matrix order";
  q.ios = {Io::io_uring, Io::io_uring};
  bench::RunPlan only = bench::plan_run(q);
  EXPECT_EQ(only.ios, (std::vector<Io>{Io::io_uring}));
  only.io_uring_unavailable = "";
  std::size_t chosen_zapbench = 0;
  for (const bench::CellPlan& c : bench::plan_cells(only, fake_floor)) {
    const bool ours = c.cell.arm == Arm::zapbench || c.cell.arm == Arm::floor;
    EXPECT_EQ(c.cell.io, ours ? Io::io_uring : Io::epoll) << c.cell.id();
    chosen_zapbench += c.cell.arm == Arm::zapbench && !c.cell.control;
  }
  std::size_t epoll_zapbench = 0;
  q.ios = {Io::epoll};
  for (const bench::CellPlan& c : bench::plan_cells(bench::plan_run(q), fake_floor))
    epoll_zapbench += c.cell.arm == Arm::zapbench && !c.cell.control;
  EXPECT_EQ(chosen_zapbench, epoll_zapbench);
}

TEST(bench_run_folder, paths_are_recorded_relative_to_the_run) {
  const bench::RunFolder folder("/home/someone/zapbench/results/2026-12-01T080000Z/");
  EXPECT_EQ(folder.dir().string(), "/home/someone/zapbench/results/2026-12-01T080000Z");
  EXPECT_EQ(folder.portable(folder.sample_file("floor/rpc/tcp//c1/p1", 2, ".load.json").string()),
            "samples/floor_rpc_tcp__c1_p1-r2.load.json");
  EXPECT_EQ(folder.portable("/home/someone/zapbench/build/release/src/cli/zapbench"),
            "../../build/release/src/cli/zapbench");
  EXPECT_EQ(folder.portable(folder.dir().string()), ".");
  EXPECT_EQ(folder.portable("/usr/sbin/nginx"), "/usr/sbin/nginx");  // a system program, no one's layout
  EXPECT_EQ(folder.portable("127.0.0.1:0"), "127.0.0.1:0");
  EXPECT_EQ(folder.portable("daemon off; master_process on;"), "daemon off; master_process on;");
}

}  // namespace
