// tests/report/fixtures.cpp — the report tests' runs (fixtures.hpp).
#include "fixtures.hpp"

#include <stdexcept>
#include <string_view>

namespace fixtures {

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
          unsigned conns, unsigned pipeline, double rate_per_s, double p99_us, double lo, double hi) {
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
  r.codecs = {{"zap", "application/zap", true, "", "zap::Builder (reused)", "zap::Reader views", false,
               matrix::Family::zap},
              {"zap-fresh", "application/zap", true, "", "a new zap::Builder per message",
               "zap::Reader views", false, matrix::Family::zap},
              {"direct", "application/json", true, "", "record json_writer", "record json_reader", false,
               matrix::Family::json},
              {"rapidjson", "application/json", false, "not found at configure time", "", "", false,
               matrix::Family::json},
              {"nlohmann", "application/json", true, "", "nlohmann::json::dump",
               "nlohmann::json::parse (DOM)", false, matrix::Family::json}};
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
  r.conformance = {{"zapbench",
                    "http2",
                    "h2spec",
                    "",
                    145,
                    144,
                    1,
                    0,
                    {},
                    "zapbench serve --http2 127.0.0.1:0 & h2spec -p 1"},
                   {"h2o",
                    "http2",
                    "h2spec",
                    "",
                    145,
                    142,
                    1,
                    2,
                    {"http2/3.5: Sends invalid connection preface",
                     "http2/8.1.2.3: Sends a HEADERS frame with empty \":path\""},
                    "h2o -c h2o/h2o.conf & h2spec -p 2"},
                   {"nghttpd",
                    "http2",
                    "h2spec",
                    "h2spec does not exist (scripts/go-build.sh builds it; it needs Go)",
                    0,
                    0,
                    0,
                    0,
                    {},
                    ""}};
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

Results with_peers() {
  Results r = synthetic();
  r.codecs.push_back({"protobuf", "application/x-protobuf", true, "", "SerializeToArray", "ParseFromArray",
                      false, matrix::Family::peer});
  r.codecs.push_back({"flatbuffers-trusted", "application/x-flatbuffers", true, "", "FlatBufferBuilder",
                      "accessors, no verifier", true, matrix::Family::peer});
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

Results without_rounds(Results r) {
  for (Cell& c : r.cells)
    for (E2ESample& s : c.samples) s.round.reset();
  for (report::MicroFigure& f : r.micro.figures) f.ns_per_op.rounds.clear();
  r.config.precision = r.config.budget_s = r.config.margin = NAN;
  return r;
}

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

Cell io_uring_of(Cell c, double cpu_factor) {
  c.io = matrix::Io::io_uring;
  c.server_command += " --io io_uring";
  for (E2ESample& s : c.samples) s.server_cpu_s *= cpu_factor;
  return c;
}

Results with_syscalls(Results r, double epoll, double io_uring) {
  const double seconds = r.config.warmup_s + r.config.duration_s;
  for (Cell& c : r.cells)
    for (E2ESample& s : c.samples)
      s.server_syscalls = s.requests_per_s * seconds * (c.io == matrix::Io::io_uring ? io_uring : epoll);
  return r;
}

Results with_io_uring() {
  Results r = synthetic();
  std::vector<Cell> copies;
  for (const Cell& c : r.cells)
    if (c.scenario == matrix::Scenario::rpc && c.unavailable.empty() &&
        ((c.arm == matrix::Arm::zapbench && c.body == "zap") || c.arm == matrix::Arm::floor))
      copies.push_back(io_uring_of(c, c.arm == matrix::Arm::floor ? 0.8 : 0.9));
  r.cells.insert(r.cells.end(), copies.begin(), copies.end());
  return r;
}

Results quick_shaped() {
  Results r = with_peers();
  std::erase_if(r.cells, [](const Cell& c) { return c.pipeline == 16 && c.connections != 10; });
  r.cells.push_back(cell("grpc-cpp", "rpc", "grpc", "protobuf", 10, 16, 90000, 900));
  r.cells.push_back(cell("zapbench", "rpc", "zap-rpc", "zap", 10, 16, 620000, 280));
  for (double n : {1.0, 10.0, 100.0, 1000.0, 10000.0}) {
    const std::string ns = std::to_string(static_cast<int>(n));
    auto add = [&](const std::string& op, const std::string& codec, double v, double wire) {
      r.micro.figures.push_back(figure("Logs", op + "/" + codec + "/" + ns, v, 0, wire));
    };
    add("Copy", "memcpy", 5 * n, 232 * n);
    add("ScanField", "structs", 0.7 * n, 232 * n);
    if (n == 10 || n == 1000) continue;  // the codecs at every other N, as a quick run measures them
    for (const char* op : {"Encode", "DecodeAll", "AccessOne", "ScanField"}) {
      const bool access = std::string_view(op) == "AccessOne";
      add(op, "zap", access ? 4 : 10 * n, 232 * n);
      add(op, "direct", 300 * n, 640 * n);
      add(op, "protobuf", access ? 40 * n : 60 * n, 300 * n);
      add(op, "flatbuffers-trusted", access ? 5 : 20 * n, 400 * n);
    }
  }
  return r;
}

}  // namespace fixtures
