// tests/e2e/run_test.cpp — `zapbench run` end to end, as a user runs it: a minimal
// real run (one short cell per arm, real server, loader, nginx and floor
// processes) whose results.json loads back, has every sample, and reproduces
// the report it wrote; `zapbench report` rewrites the same files; the floor on
// epoll and on io_uring; an interrupted run still writes what it measured; bad
// flags are usage errors.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <optional>
#include <string>

#include "net/uring.hpp"
#include "proc/programs.hpp"
#include "record/registry.hpp"
#include "report/compare.hpp"
#include "report/findings.hpp"
#include "report/model.hpp"
#include "support/await.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;

struct Exit {
  int code = -1;
  std::string output;  // stdout + stderr
};

Exit zapbench(const std::string& args, const fs::path& log) {
  const std::string cmd = std::string(ZAPBENCH_BIN) + " " + args + " >" + log.string() + " 2>&1";
  const int st = std::system(cmd.c_str());
  return Exit{WIFEXITED(st) ? WEXITSTATUS(st) : -1, zaptest::read_text(log)};
}

class RunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.emplace("run_test");
    dir_ = scratch_->path();
  }
  void TearDown() override { scratch_.reset(); }  // after the test's own checks: logs printed if it failed
  std::optional<zaptest::Scratch> scratch_;
  fs::path dir_;
};

// Whether a web server arm's binary is here (nginx, h2o, nghttpd: their program is their arm's name),
// looked for as the arm looks for it.
bool web_server_installed(matrix::Arm arm) {
  return !proc::find_program(std::string(matrix::to_string(arm))).empty();
}

TEST_F(RunCli, MinimalRealRunOneCellPerArm) {
  const std::string json(record::default_json_codec().name);
  const fs::path out = dir_ / "r";
  const Exit e = zapbench(
      "run --io epoll --repeats 2 --budget 0 --duration 0.3 --warmup 0 --connections 2 --pipeline 1 "
      "--no-conformance --bodies " +
          json + ",zap --micro-filter '^(Decode/(zap|" + json +
          "|go/goccy)|Server/zap-http/zap)$' --micro-repetitions 2 --micro-min-time 0.01 --out " +
          out.string(),
      dir_ / "run.log");
  ASSERT_EQ(e.code, 0) << e.output;
  EXPECT_NE(e.output.find("report.html"), std::string::npos) << e.output;

  const report::Results r = report::load_file(out.string());
  // The environment is recorded.
  EXPECT_FALSE(r.env.cpu_model.empty());
  EXPECT_GE(r.env.cpu_count, 1u);
  EXPECT_FALSE(r.env.kernel.empty());
  EXPECT_FALSE(r.env.compiler.empty());
  EXPECT_NE(r.env.build_flags.find("-O"), std::string::npos) << r.env.build_flags;
  EXPECT_FALSE(r.env.git_commit.empty());
  EXPECT_NE(r.env.command_line.find("--repeats 2"), std::string::npos) << r.env.command_line;
  EXPECT_TRUE(r.env.libraries.count("simdjson"));
  EXPECT_GT(r.env.wall_s, 0);
  EXPECT_EQ(r.config.repeats, 2u);
  EXPECT_FALSE(r.config.server_cpus.empty());
  EXPECT_FALSE(r.config.loader_cpus.empty());
  EXPECT_FALSE(r.codecs.empty());

  // The Go reference arm: built by the release preset wherever Go is (scripts/go-build.sh), absent from
  // the sanitizer builds; either way results.json says which, and why not.
  const std::string go =
      r.env.libraries.count("go (the Go arms)") ? r.env.libraries.at("go (the Go arms)") : "";
  const bool go_runs = go.starts_with("go1");
  if (r.env.build_flags.find("-fsanitize=") == std::string::npos &&
      std::system("command -v go >/dev/null") == 0) {
    EXPECT_TRUE(go_runs) << "Go is installed, so the release build has its arm: " << go;
  }
  if (!go_runs) {
    EXPECT_TRUE(go.starts_with("unavailable: ") && go.size() > 14) << go;
  }
  // Its ZAP-RPC server, zapbench-go-rpc, a build of its own on zap-proto/go v1.8.1 from the same
  // module sources: named in the environment when it runs.
  bool go_rpc_runs = false;
  for (const auto& [library, version] : r.env.libraries)
    if (library == "github.com/zap-proto/go (zapbench-go-rpc, the Go ZAP-RPC cells)")
      go_rpc_runs = version.starts_with("v1.8.1");
  EXPECT_EQ(go_rpc_runs, go_runs) << "zapbench-go and zapbench-go-rpc come from the same modules";

  // The microbenchmarks asked for, each with one sample per round, a process each (Go's too, when it runs),
  // and the calibration's rows beside them in every round, whatever the filter.
  unsigned calibration_rows = 0;
  for (const report::MicroFigure& f : r.micro.figures)
    if (f.name.starts_with(report::kCalibrationMicroPrefix)) {
      ++calibration_rows;
      EXPECT_EQ(f.ns_per_op.rounds, (std::vector<unsigned>{0, 1})) << f.name;
    }
  EXPECT_EQ(calibration_rows, 4u);
  EXPECT_EQ(r.calibration.ping_pongs.size(), 4u);  // depth 1, 4, 16 and 64, a sample per end-to-end round
  for (const report::PingPong& p : r.calibration.ping_pongs)
    EXPECT_EQ(p.round_trips_per_s.rounds, (std::vector<unsigned>{0, 1})) << p.depth;
  ASSERT_EQ(r.micro.figures.size() - calibration_rows, go_runs ? 4u : 3u) << e.output;
  for (const report::MicroFigure& f : r.micro.figures) {
    if (f.name.starts_with(report::kCalibrationMicroPrefix)) continue;
    EXPECT_TRUE(f.op == "Decode" || f.name == "Server/zap-http/zap") << f.name;
    EXPECT_EQ(f.ns_per_op.values.size(), 2u) << f.name;
    EXPECT_EQ(f.ns_per_op.rounds, (std::vector<unsigned>{0, 1})) << f.name;
    EXPECT_GT(f.ns_per_op.median(), 0) << f.name;
    EXPECT_GT(f.wire_bytes, 0) << f.name;
  }
  // The request path micro ran, counted under callgrind, and the codec ops the findings compare (Decode of
  // ZAP and of the JSON codec: no binary peer, no limit in this filter); a sanitizer build (valgrind cannot
  // run it) or a machine without valgrind says why instead.
  const report::Instructions& ins = r.micro.instructions;
  ASSERT_EQ(ins.figures.size(), 3u) << e.output;
  EXPECT_EQ(ins.figures[0].name, "Server/zap-http/zap");
  EXPECT_EQ(ins.figures[1].name, "Decode/zap");
  EXPECT_EQ(ins.figures[2].name, "Decode/" + json);
  EXPECT_GT(ins.requests, 0u);
  if (r.env.build_flags.find("-fsanitize=") != std::string::npos) {
    EXPECT_NE(ins.callgrind_unavailable.find("sanitizer"), std::string::npos) << ins.callgrind_unavailable;
    for (const report::InstructionFigure& f : ins.figures)
      EXPECT_FALSE(std::isfinite(f.callgrind_ir)) << f.name;
  } else if (access("/usr/bin/valgrind", X_OK) == 0) {
    EXPECT_EQ(ins.callgrind_unavailable, "");
    for (const report::InstructionFigure& f : ins.figures) EXPECT_GT(f.callgrind_ir, 0) << f.name;
    EXPECT_NE(ins.tools.find("valgrind"), std::string::npos) << ins.tools;
  } else {
    EXPECT_NE(ins.callgrind_unavailable.find("valgrind is not installed"), std::string::npos);
  }
  EXPECT_FALSE(fs::exists(out / "instructions")) << "the counter's working files are removed";

  // One cell per arm: zapbench hello x4 framings (gRPC has rpc only), rpc x5 framings x2 bodies, logs
  // (N = 100, quick's) x4 framings x2 bodies, and the control copy of one of them; for the quick run's Go
  // arms (go-zip, go-fasthttp) hello and rpc on HTTP/1.1 and ZAP-HTTP, ZAP-RPC under go-zip only (the Go
  // reference has no /logs, HTTP/2 nor gRPC); nginx hello on HTTP/1.1 and HTTP/2; the grpc++ arm's rpc
  // (protobuf, its only body); floor hello, rpc and logs.
  int zapbench_cells = 0, nginx_cells = 0, web_cells = 0, floor_cells = 0, go_cells = 0, go_ran = 0,
      grpc_cells = 0;
  for (const report::Cell& c : r.cells) {
    SCOPED_TRACE(c.id());
    if (c.arm == matrix::Arm::zapbench) ++zapbench_cells;
    if (matrix::is_go_arm(c.arm)) {
      ++go_cells;
      // fasthttp serves HTTP/1.1 and, through zap-proto/http, ZAP-HTTP, each with JSON and ZAP bodies;
      // zip cannot be built (its reason), nor ZAP-RPC in this Go build: what it cannot serve says why.
      // ZAP-RPC is zap-proto/go's transport (zapbench-go-rpc, under go-zip): health and ZAP bodies.
      const bool servable =
          go_runs && (c.arm == matrix::Arm::go_fasthttp ||
                      (c.framing == matrix::Framing::zap_rpc && go_rpc_runs && c.body != json));
      if (!servable) {
        EXPECT_FALSE(c.unavailable.empty());
        EXPECT_TRUE(c.samples.empty());
        continue;
      }
      ++go_ran;
      EXPECT_EQ(c.server_codec, c.scenario == matrix::Scenario::rpc && c.body != "zap" ? "go/goccy" : "");
      EXPECT_NE(c.server_command.find("GOMAXPROCS="), std::string::npos) << c.server_command;
    }
    if (c.arm == matrix::Arm::nginx) ++nginx_cells;
    if (matrix::facts(c.arm).web) ++web_cells;
    if (c.arm == matrix::Arm::floor) ++floor_cells;
    if (c.arm == matrix::Arm::grpc_cpp) {
      ++grpc_cells;
      EXPECT_EQ(c.body, "protobuf");
      EXPECT_EQ(c.framing, matrix::Framing::grpc);
      if (!c.unavailable.empty()) {
        EXPECT_NE(c.unavailable.find("grpc"), std::string::npos) << c.unavailable;
        EXPECT_TRUE(c.samples.empty());
        continue;
      }
    }
    if (c.scenario == matrix::Scenario::logs) {
      EXPECT_EQ(c.logs, 100u);
      // A body codec without the logs record (while some lack it) is listed with the reason, not run.
      if (c.arm == matrix::Arm::zapbench && !record::find_codec(c.body)->has_logs) {
        EXPECT_EQ(c.unavailable, "no logs record in this codec yet (record::LogsCodec)");
        EXPECT_TRUE(c.samples.empty());
        continue;
      }
      for (const report::E2ESample& s : c.samples) EXPECT_GT(s.received_mb_per_s, 0);
      if (c.arm == matrix::Arm::zapbench) {
        EXPECT_NE(c.loader_command.find(" --scenario logs --logs 100 "), std::string::npos)
            << c.loader_command;
      }
    }
    if (matrix::facts(c.arm).web && !web_server_installed(c.arm)) {
      EXPECT_NE(c.unavailable.find(std::string(matrix::to_string(c.arm)) + " not found"), std::string::npos);
      EXPECT_TRUE(c.samples.empty());
      continue;
    }
    EXPECT_TRUE(c.unavailable.empty()) << c.unavailable;
    ASSERT_EQ(c.samples.size(), 2u) << "--budget 0: the first rounds only";
    for (const report::E2ESample& s : c.samples) {
      EXPECT_EQ(s.round, unsigned(&s - c.samples.data()));
      EXPECT_GT(s.responses, 0u);
      EXPECT_EQ(s.errors, 0u);
      EXPECT_GT(s.requests_per_s, 0);
      EXPECT_GT(s.p99_ns, 0);
      EXPECT_GE(s.p99_ns, s.p50_ns);
      EXPECT_GT(s.bytes_sent_per_request, 0);
      EXPECT_GT(s.bytes_received_per_response, 0);
      EXPECT_GT(s.loader_cpu_s, 0);
    }
    EXPECT_NE(c.server_command.find("taskset -c"), std::string::npos) << c.server_command;
    EXPECT_NE(c.loader_command.find(" load "), std::string::npos) << c.loader_command;
    if (c.arm == matrix::Arm::floor) {
      // The floor echoes the smallest byte counts of any real exchange of its
      // scenario: each direction is one arm's (rounded down) and at most every arm's.
      const double req = c.samples[0].bytes_sent_per_request, resp = c.samples[0].bytes_received_per_response;
      bool req_seen = false, resp_seen = false;
      for (const report::Cell& z : r.cells)
        if (z.arm == matrix::Arm::zapbench && z.scenario == c.scenario && z.logs == c.logs &&
            !z.samples.empty()) {
          EXPECT_LE(req, z.samples[0].bytes_sent_per_request) << z.id();
          EXPECT_LE(resp, z.samples[0].bytes_received_per_response) << z.id();
          // Within a byte: HTTP/2's figures carry a fraction of a byte of SETTINGS and window updates.
          req_seen = req_seen || z.samples[0].bytes_sent_per_request - req < 1;
          resp_seen = resp_seen || z.samples[0].bytes_received_per_response - resp < 1;
        }
      EXPECT_TRUE(req_seen && resp_seen);
    }
  }
  EXPECT_EQ(zapbench_cells, 4 + 10 + 8 + 1);
  // The control: ZAP-RPC + ZAP on rpc at the deepest depth, run as a cell of its own.
  const report::Cell& control = r.cells.back();
  EXPECT_TRUE(control.control);
  EXPECT_EQ(control.id(), "zapbench/rpc/zap-rpc/zap/c2/p1/control");
  EXPECT_EQ(go_cells, 9 + 6);
  EXPECT_EQ(go_ran, go_runs ? 6 + (go_rpc_runs ? 2 : 0) : 0);
  EXPECT_EQ(nginx_cells, 2);
  EXPECT_EQ(web_cells, 2 + 2 + 1);  // nginx and h2o on HTTP/1.1 and HTTP/2, nghttpd on HTTP/2
  EXPECT_EQ(grpc_cells, 1);
  EXPECT_EQ(floor_cells, 3);

  // The report is a function of results.json alone.
  EXPECT_EQ(zaptest::read_text(out / "report.md"), report::markdown(r));
  EXPECT_EQ(zaptest::read_text(out / "report.html"), report::html(r));
  EXPECT_EQ(report::to_json(report::from_json(zaptest::read_text(out / "results.json"))),
            zaptest::read_text(out / "results.json"));
  const fs::path again = dir_ / "again";
  const Exit rep = zapbench("report " + out.string() + " --out " + again.string(), dir_ / "report.log");
  ASSERT_EQ(rep.code, 0) << rep.output;
  EXPECT_EQ(zaptest::read_text(again / "report.md"), zaptest::read_text(out / "report.md"));
  EXPECT_EQ(zaptest::read_text(again / "report.html"), zaptest::read_text(out / "report.html"));
  EXPECT_EQ(zaptest::read_text(again / "findings.md"), zaptest::read_text(out / "findings.md"));
  // The run ends with what it found — the tables of findings.md, as plain text — and the report's path.
  const std::string found = report::findings_text(r);
  ASSERT_FALSE(found.empty());
  EXPECT_NE(e.output.find("\n" + found), std::string::npos) << e.output;
  EXPECT_NE(found.find("server CPU per request"), std::string::npos) << found;
  EXPECT_LT(e.output.rfind(found), e.output.rfind("/report.html"));
  EXPECT_TRUE(e.output.ends_with("/report.html\n")) << e.output.substr(e.output.size() - 300);

  // Paths are recorded relative to the run's folder: neither the folder nor the binary appear as
  // absolute paths.
  const std::string results = zaptest::read_text(out / "results.json");
  EXPECT_EQ(results.find(dir_.string()), std::string::npos);
  EXPECT_EQ(results.find(" " + std::string(ZAPBENCH_BIN)), std::string::npos);
  EXPECT_EQ(results.find("\"" + std::string(ZAPBENCH_BIN)), std::string::npos);
  EXPECT_NE(r.micro.command.find(" --json-out micro-r1.json"), std::string::npos) << r.micro.command;
  for (const report::Cell& c : r.cells)
    if (!c.loader_command.empty()) {
      EXPECT_NE(c.loader_command.find(" --json-out samples/"), std::string::npos) << c.loader_command;
    }
  // The load gate: the load average was read before every sample.
  EXPECT_GE(r.env.online_cpus, r.env.cpu_count);
  for (const report::Cell& c : r.cells)
    for (const report::E2ESample& s : c.samples) EXPECT_TRUE(std::isfinite(s.load_avg_1m)) << c.id();

  // compare across versions: a results.json of an earlier zapbench against this one.
  const Exit old =
      zapbench("compare " + std::string(ZAPBENCH_EARLIER_RESULTS) + " " + out.string(), dir_ / "old.log");
  ASSERT_EQ(old.code, 0) << old.output;
  EXPECT_NE(old.output.find("micro/Decode/zap"), std::string::npos) << old.output;

  // compare against itself, as a gate: nothing changed, the run's calibration is the yardstick, exit 0.
  const Exit cmp = zapbench("compare --gate " + out.string() + " " + out.string(), dir_ / "compare.log");
  ASSERT_EQ(cmp.code, 0) << cmp.output;
  EXPECT_NE(cmp.output.find(" figures of ours: 0 changed (0 improved, 0 regressed), "), std::string::npos)
      << cmp.output;
  EXPECT_NE(cmp.output.find("the reference arms' and the calibration's figures"), std::string::npos)
      << cmp.output;
  EXPECT_NE(cmp.output.find("\ngate: pass"), std::string::npos) << cmp.output;
}

// Rounds until precise, for real: 2 first rounds are too few for any
// interval (the method needs 3), so every finding's cells and
// microbenchmarks get more rounds — and only theirs — until each is within
// the precision (±100% here: reached within a round or two whatever the
// machine; the budget is a hang bound only).
// h2spec after the rounds against each HTTP/2 arm the run has (here zapbench's and h2o's): its counts in
// results.json and the report, or, where this build has no h2spec (the Go tools are the release
// preset's), the reason on each row; nothing left running either way.
TEST_F(RunCli, ConformanceAgainstEachHttp2Arm) {
  const fs::path out = dir_ / "r";
  const Exit e = zapbench(
      "run --arms zapbench,h2o --scenarios hello --framings http2 --connections 1 --pipeline 1 --no-micro "
      "--no-control --io epoll --repeats 1 --duration 0.2 --warmup 0 --budget 0 --out " +
          out.string(),
      dir_ / "run.log");
  ASSERT_EQ(e.code, 0) << e.output;
  const report::Results r = report::load_file(out.string());
  ASSERT_EQ(r.conformance.size(), web_server_installed(matrix::Arm::h2o) ? 2u : 1u) << e.output;
  const fs::path h2spec = fs::path(ZAPBENCH_BIN).parent_path().parent_path().parent_path() / "go" / "h2spec";
  for (const report::Conformance& c : r.conformance) {
    EXPECT_EQ(c.framing, "http2");
    if (!fs::exists(h2spec)) {
      EXPECT_NE(c.unavailable, "") << c.arm;
      continue;
    }
    EXPECT_EQ(c.unavailable, "") << c.arm;
    EXPECT_EQ(c.cases, 145u) << c.arm;
    EXPECT_EQ(c.passed + c.skipped + c.failed, c.cases) << c.arm;
    EXPECT_EQ(c.failures.size(), c.failed) << c.arm;
    if (c.arm == "zapbench")
      EXPECT_EQ(c.failed, 0u) << "zapbench's HTTP/2 server fails: " << c.failures.size();
  }
  EXPECT_NE(zaptest::read_text(out / "report.md").find("## HTTP/2 conformance (h2spec)"), std::string::npos);
  EXPECT_NE(e.output.find("[h2spec] zapbench: "), std::string::npos) << e.output;
}

TEST_F(RunCli, RoundsUntilPreciseGoToTheFindingsOnly) {
  const std::string json(record::default_json_codec().name);
  const fs::path out = dir_ / "r";
  const Exit e = zapbench(
      "run --io epoll --repeats 2 --precision 1 --budget 1h --no-control --arms zapbench --scenarios "
      "hello,rpc --framings http --bodies zap," +
          json +
          " --duration 0.2 --warmup 0 --connections 1 --pipeline 16 --micro-filter "
          "'^Decode/(zap|" +
          json + ")$|^Encode/zap$' --micro-repetitions 2 --micro-min-time 0.01 --out " + out.string(),
      dir_ / "run.log");
  ASSERT_EQ(e.code, 0) << e.output;
  EXPECT_NE(e.output.find("every finding within its precision"), std::string::npos) << e.output;
  const report::Results r = report::load_file(out.string());
  EXPECT_DOUBLE_EQ(r.config.precision, 1);
  for (const report::Cell& c : r.cells) {
    SCOPED_TRACE(c.id());
    for (std::size_t i = 0; i < c.samples.size(); ++i) EXPECT_EQ(c.samples[i].round, i);
    if (c.scenario == matrix::Scenario::hello)
      EXPECT_EQ(c.samples.size(), 2u) << "no finding compares hello";
    else
      EXPECT_GT(c.samples.size(), 2u) << "ZAP against the fastest JSON body: more rounds";
  }
  for (const report::MicroFigure& f : r.micro.figures) {
    SCOPED_TRACE(f.name);
    if (f.name == "Encode/zap")
      EXPECT_EQ(f.ns_per_op.values.size(), 2u) << "Encode has no JSON row here: no finding";
    else
      EXPECT_GT(f.ns_per_op.values.size(), 2u);
  }
  for (const report::Finding& f : report::findings(r)) EXPECT_TRUE(stats::precise(f.estimate, 1)) << f.title;
  EXPECT_EQ(zaptest::read_text(out / "report.md"), report::markdown(r));
}

// The Go microbenchmarks do not hang on the C++ ones: a filter that only a Go
// row matches leaves the C++ micro with nothing but the calibration's rows,
// and the Go row is still measured — or, without a Go arm, listed as
// unavailable with the reason.
TEST_F(RunCli, GoMicroRunsWhateverTheCppMicroGives) {
  const fs::path out = dir_ / "r";
  const Exit e = zapbench(
      "run --arms floor --scenarios hello --repeats 1 --duration 0.2 --warmup 0 --connections 1 "
      "--pipeline 1 --micro-filter '^Decode/go/goccy$' --micro-repetitions 1 "
      "--micro-min-time 0.01 --out " +
          out.string(),
      dir_ / "run.log");
  ASSERT_EQ(e.code, 0) << e.output;
  report::Results r = report::load_file(out.string());
  const auto calibration = std::erase_if(r.micro.figures, [](const report::MicroFigure& f) {
    return f.name.starts_with(report::kCalibrationMicroPrefix);
  });
  EXPECT_EQ(calibration, 4u);
  const std::string go = r.env.libraries.at("go (the Go arms)");
  if (go.starts_with("go1")) {
    ASSERT_EQ(r.micro.figures.size(), 1u) << e.output;
    EXPECT_EQ(r.micro.figures[0].name, "Decode/go/goccy");
    EXPECT_NE(r.micro.go_command.find("GOMAXPROCS=1 taskset -c "), std::string::npos) << r.micro.go_command;
  } else {
    EXPECT_TRUE(r.micro.figures.empty());
    bool listed = false;
    for (const report::Unavailable& u : r.micro.unavailable_codecs) listed = listed || u.name == "go/*";
    EXPECT_TRUE(listed) << go;
  }
}

// The io axis for real, on the floor alone (a few seconds): its rpc cell on epoll and on io_uring, the
// io_uring one's server started with --io io_uring and the loader on epoll, both measured in the same
// rounds and compared in What it found. Skipped where the kernel refuses io_uring.
TEST_F(RunCli, FloorOnEpollAndIoUring) {
  if (const net::UringSupport u = net::probe_uring(); !u.available) GTEST_SKIP() << u.describe();
  const fs::path out = dir_ / "r";
  const Exit e = zapbench(
      "run --io epoll,io_uring --arms floor --scenarios rpc --no-micro --no-control --repeats 3 --budget 0 "
      "--duration 0.2 --warmup 0 --connections 1 --pipeline 1 --out " +
          out.string(),
      dir_ / "run.log");
  ASSERT_EQ(e.code, 0) << e.output;
  const report::Results r = report::load_file(out.string());
  ASSERT_EQ(r.cells.size(), 2u) << e.output;
  EXPECT_EQ(r.cells[0].id(), "floor/rpc/tcp//c1/p1");
  EXPECT_EQ(r.cells[1].id(), "floor/rpc/tcp//c1/p1/io_uring");
  for (const report::Cell& c : r.cells) {
    SCOPED_TRACE(c.id());
    EXPECT_EQ(c.unavailable, "");
    ASSERT_EQ(c.samples.size(), 3u);
    for (const report::E2ESample& s : c.samples) {
      EXPECT_GT(s.responses, 0u);
      EXPECT_EQ(s.errors, 0u);
    }
    EXPECT_EQ(c.server_command.find("--io io_uring") != std::string::npos, c.io == matrix::Io::io_uring)
        << c.server_command;
    EXPECT_EQ(c.loader_command.find("--io"), std::string::npos)
        << "the loader on epoll: " << c.loader_command;
  }
  bool compared = false;
  for (const report::Finding& f : report::findings(r))
    compared = compared || (f.section == report::Finding::Section::io &&
                            f.keys == std::vector<std::string>{r.cells[1].id(), r.cells[0].id()});
  EXPECT_TRUE(compared);
  const std::string md = zaptest::read_text(out / "report.md");
  EXPECT_EQ(md, report::markdown(r));
  EXPECT_NE(md.find("| floor (raw TCP echo, "), std::string::npos);
  EXPECT_NE(md.find(" on io\\_uring | "), std::string::npos);
}

// A live A/B that compare must call: two real runs of one build where B is
// genuinely different by a known amount — the product's own open loop at a
// quarter of the rate (--rate) — so every cell of ours keeps a quarter of the
// requests/s. Its verdict: regressed, at 0.25× within its interval; the gate
// fails (exit 1); the calibration, which the rate cannot touch, is the
// yardstick (no reference arm: the rate would move theirs too).
// The rates are far below what any machine holds with one request in flight, also a busy one: at 2,000
// requests/s every round trip had to end within 0.5 ms, and on a machine whose CPUs other processes kept
// busy some took 12-24 ms, so a 0.2 s sample fell behind its rate and B came out at 0.17x (found by `make
// test-stress`). At 400/s a round trip has 2.5 ms, and over 0.5 s an open loop that falls behind a stall
// catches up (it sends what is due as soon as the answer is in).
TEST_F(RunCli, CompareCallsALiveRunAtAQuarterOfTheRateRegressed) {
  const std::string common =
      "run --no-micro --arms zapbench,floor --scenarios rpc --framings zap-rpc --bodies zap --connections 1 "
      "--pipeline 1 --io epoll --no-control --repeats 4 --budget 0 --duration 0.5 --warmup 0.1 ";
  const fs::path a = dir_ / "a", b = dir_ / "b";
  const Exit ea = zapbench(common + "--rate 400 --out " + a.string(), dir_ / "a.log");
  ASSERT_EQ(ea.code, 0) << ea.output;
  const Exit eb = zapbench(common + "--rate 100 --out " + b.string(), dir_ / "b.log");
  ASSERT_EQ(eb.code, 0) << eb.output;
  const report::Results ra = report::load_file(a.string()), rb = report::load_file(b.string());
  EXPECT_EQ(ra.config.rate_per_s, 400);
  EXPECT_FALSE(ra.calibration.version.empty());
  ASSERT_EQ(ra.calibration.ping_pongs.size(), 4u);
  EXPECT_EQ(ra.calibration.ping_pongs[0].round_trips_per_s.values.size(), 4u);  // a sample per round

  const report::Comparison c = report::compare(ra, rb);
  EXPECT_TRUE(c.calibrated);
  unsigned cells = 0;
  for (const report::Change& ch : c.changes)
    if (ch.kind == report::FigureKind::requests_per_s) {
      ++cells;
      EXPECT_EQ(ch.verdict, report::Change::Verdict::regressed) << ch.key;
      EXPECT_NEAR(ch.raw_ratio(), 0.25, 0.025) << ch.key;
      EXPECT_LE(ch.judged.lo, 0.25 * 1.05) << ch.key;  // the known amount, within the interval
      EXPECT_GE(ch.judged.hi, 0.25 / 1.05) << ch.key;
    }
  EXPECT_EQ(cells, 2u);  // zapbench's cell and the floor's
  const Exit gate = zapbench("compare --gate " + a.string() + " " + b.string(), dir_ / "gate.log");
  EXPECT_EQ(gate.code, 1) << gate.output;
  EXPECT_NE(gate.output.find("\ngate: FAIL — "), std::string::npos) << gate.output;
  EXPECT_NE(gate.output.find("the load differs (A: an open loop at 400 requests/s; B: an open loop at 100 "),
            std::string::npos)
      << gate.output;
}

TEST_F(RunCli, InterruptedRunWritesWhatItMeasured) {
  const fs::path out = dir_ / "r";
  const std::string cmd = std::string(ZAPBENCH_BIN) +
                          " run --no-micro --arms zapbench --scenarios hello --repeats 50 --duration 0.2 "
                          "--warmup 0 --connections 1 --pipeline 1 --out " +
                          out.string();
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    const int fd = ::open((dir_ / "run.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    execl("/bin/sh", "sh", "-c", ("exec " + cmd).c_str(), nullptr);
    _exit(127);
  }
  // Wait for the first samples, then interrupt as a user would.
  const bool two_samples =
      zaptest::await([&] { return zaptest::read_text(dir_ / "run.log").find("[  2/") != std::string::npos; });
  kill(pid, SIGINT);
  int st = 0;
  waitpid(pid, &st, 0);
  const std::string log = zaptest::read_text(dir_ / "run.log");
  ASSERT_TRUE(two_samples) << "awaited the second sample's line for " << zaptest::kHang.count() << " ms:\n"
                           << log;
  ASSERT_TRUE(WIFEXITED(st)) << log;
  EXPECT_EQ(WEXITSTATUS(st), 130) << log;
  const report::Results r = report::load_file(out.string());
  std::size_t samples = 0;
  for (const report::Cell& c : r.cells) samples += c.samples.size();
  EXPECT_GE(samples, 2u);
  EXPECT_LT(samples, 100u);
  EXPECT_EQ(r.interrupted, "SIGINT during the end-to-end samples");
  EXPECT_EQ(zaptest::read_text(out / "report.md"), report::markdown(r));
}

TEST_F(RunCli, BadFlagsAreUsageErrors) {
  struct Case {
    const char* args;
    const char* message;
  } cases[] = {
      {"run --repeats 0", "--repeats"},
      {"run --duration -1", "--duration"},
      {"run --connections 1,x", "--connections"},
      {"run --pipeline 0", "--pipeline"},
      {"run --bodies nosuch", "unknown 'nosuch'"},
      {"run --arms zapbench,apache", "unknown 'apache'"},
      {"run --scenarios ping", "unknown 'ping'"},
      {"run --io kqueue", "--io wants a comma-separated list of epoll, io_uring, got 'kqueue'"},
      {"run --server-cpus 1023", "not available"},  // below the table's bound (1024), above this machine
      {"run --loader-cpus x", "--loader-cpus"},
      {"run --nginx /nonexistent/nginx", "not an executable"},
      {"run --bogus", "unknown option '--bogus'"},
      {"run --out", "needs a value"},
  };
  for (const Case& c : cases) {
    const Exit e = zapbench(c.args, dir_ / "err.log");
    EXPECT_EQ(e.code, 2) << c.args << "\n" << e.output;
    EXPECT_NE(e.output.find(c.message), std::string::npos) << c.args << "\n" << e.output;
  }
  const Exit help = zapbench("run --help", dir_ / "help.log");
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.output.find("--quick"), std::string::npos);
  EXPECT_NE(help.output.find("--full"), std::string::npos);
  EXPECT_NE(help.output.find("--io LIST"), std::string::npos) << help.output;
}

}  // namespace
