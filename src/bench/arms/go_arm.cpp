// bench/arms/go_arm.cpp — finding, asking and starting the Go reference arm (go_arm.hpp).
#include "bench/arms/go_arm.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/children/launch.hpp"
#include "bench/children/load_command.hpp"
#include "bench/plan/cells.hpp"
#include "record/registry.hpp"
#include "report/gbench.hpp"
namespace bench {
namespace {

namespace fs = std::filesystem;

// How long `capabilities` may take before it counts as hung: it only prints.
constexpr double kProbeTimeoutS = 30;

std::map<std::string, std::string> string_map(const nlohmann::json& j, const char* key) {
  std::map<std::string, std::string> out;
  if (!j.contains(key)) return out;
  const nlohmann::json& m = j.at(key);
  if (!m.is_object()) throw std::runtime_error(std::string("'") + key + "' is not an object");
  for (const auto& [name, value] : m.items()) {
    if (!value.is_string())
      throw std::runtime_error(std::string("'") + key + "." + name + "' is not a string");
    out[name] = value.get<std::string>();
  }
  return out;
}

}  // namespace

std::string GoArm::why_not(const std::map<std::string, std::string>& table, const std::string& name) const {
  if (!runs()) return unavailable.empty() ? "zapbench-go was not probed" : unavailable;
  const auto it = table.find(name);
  if (it == table.end()) return "this build of zapbench-go does not know '" + name + "'";
  return it->second;
}

std::string default_go_binary() {
  if (const char* env = std::getenv("ZAPBENCH_GO"); env != nullptr && *env != '\0') return env;
#ifdef ZAPBENCH_GO_BINARY
  return ZAPBENCH_GO_BINARY;
#else
  return "";
#endif
}

void parse_capabilities(const std::string& text, GoArm& arm) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::runtime_error("not a JSON object");
  if (!j.contains("go_version") || !j.at("go_version").is_string())
    throw std::runtime_error("no 'go_version' string");
  arm.go_version = j.at("go_version").get<std::string>();
  arm.modules = string_map(j, "modules");
  arm.frameworks = string_map(j, "frameworks");
  arm.transports = string_map(j, "transports");
  arm.codecs = string_map(j, "codecs");
}

namespace {

// What `binary capabilities` prints; std::runtime_error when it cannot say.
std::string ask_capabilities(const std::string& binary) {
  const ProgramAnswer a = ask_program({binary, "capabilities"}, kProbeTimeoutS);
  if (!a.status.ok())
    throw std::runtime_error("failed (" + a.status.describe() + "): " + a.output.substr(0, 300));
  return a.output;
}

// The ZAP-RPC server of the Go arm, <binary>-rpc (zap-proto/go v1.8.1, a
// build of its own): its transport is available when it answers.
void probe_rpc(GoArm& arm, const std::string& rpc) {
  std::string why;
  if (access(rpc.c_str(), X_OK) != 0) {
    why = proc::missing_build_reason(rpc);
  } else {
    try {
      GoArm r;
      parse_capabilities(ask_capabilities(rpc), r);
      arm.rpc_binary = rpc;
      arm.rpc_modules = r.modules;
    } catch (const std::exception& e) {
      why = rpc + " capabilities: " + e.what();
    }
  }
  arm.transports["zap-rpc"] = why;
}

}  // namespace

GoArm probe_go(const std::string& binary) {
  GoArm arm;
  if (binary.empty()) {
    arm.unavailable = "zapbench-go was not built with this zapbench (give --go PATH)";
    return arm;
  }
  if (access(binary.c_str(), X_OK) != 0) {
    arm.unavailable = proc::missing_build_reason(binary);
    return arm;
  }
  try {
    parse_capabilities(ask_capabilities(binary), arm);
    arm.binary = binary;
  } catch (const std::exception& e) {
    arm.unavailable = binary + " capabilities: " + e.what();
    return arm;
  }
  probe_rpc(arm, binary + "-rpc");
  return arm;
}

std::string_view go_framework(Arm a) noexcept {
  switch (a) {
    case Arm::go_zip:
      return "zip";
    case Arm::go_fasthttp:
      return "fasthttp";
    case Arm::go_nethttp:
      return "nethttp";
    default:
      return "";
  }
}

std::string go_cell_unavailable(const GoArm& go, Arm arm, Framing framing, Scenario scenario,
                                const std::string& body, const std::string& go_json) {
  if (!go.runs()) return go.why_not({}, "");
  if (framing == Framing::zap_rpc) {
    // zap-proto/go's own transport and rpc packages, with no web framework in
    // between: the transport's reason, not the framework's.
    if (std::string why = go.why_not(go.transports, "zap-rpc"); !why.empty()) return why;
    if (scenario != Scenario::hello && body != "zap")
      return "the Go ZAP-RPC server (zap-proto/go's transport, zapbench-go-rpc) serves ZAP bodies only, as "
             "the reference's ZAP transport";
  } else if (std::string why = go.why_not(go.frameworks, std::string(go_framework(arm))); !why.empty()) {
    return why;
  } else if (framing == Framing::zap_http) {
    if (std::string transport = go.why_not(go.transports, "zap"); !transport.empty()) return transport;
  } else if (framing != Framing::http1) {
    return "the Go arm serves HTTP/1.1, ZAP-HTTP and ZAP-RPC only";
  }
  if (scenario == Scenario::hello) return "";
  if (body == "zap") return go.why_not(go.codecs, "zap");
  return go.why_not(go.codecs, go_json);
}

ChildSpec go_server_spec(const GoArm& go, Arm arm, Framing framing, const std::string& go_json,
                         const std::vector<int>& cpus, const std::string& listen_host) {
  ChildSpec s;
  if (framing == Framing::zap_rpc)  // zap-proto/go's own transport: no framework, no JSON codec
    s.argv = {go.rpc_binary, "serve", "--zap-rpc", listen_host + ":0"};
  else
    s.argv = {go.binary,          "serve", framing == Framing::zap_http ? "--zap" : "--http",
              listen_host + ":0", "--fw",  std::string(go_framework(arm)),
              "--json",           go_json};
  s.cpus = cpus;
  s.ready_channel = true;
  // The Go runtime would take the affinity mask's size anyway; said explicitly
  // so the command line a reader reruns has it.
  s.env = {"GOMAXPROCS=" + std::to_string(cpus.empty() ? 1 : cpus.size())};
  return s;
}

ChildSpec go_micro_spec(const GoArm& go, const std::string& json_out, double min_time_s, unsigned repetitions,
                        const std::string& filter, const std::vector<int>& cpus,
                        const std::string& log_path) {
  ChildSpec s;
  s.argv = {go.binary,       "micro",
            "--json-out",    json_out,
            "--min-time",    exact_number(min_time_s) + "s",
            "--repetitions", std::to_string(repetitions)};
  if (!filter.empty()) s.argv.insert(s.argv.end(), {"--filter", filter});
  s.cpus = cpus;
  s.log_path = log_path;
  s.env = {"GOMAXPROCS=1"};
  return s;
}

void measure_go_micro(const ChildSpec& spec, const std::string& json_out, report::Micro& micro,
                      std::vector<std::string>& notes, std::optional<unsigned> round) {
  try {
    Child child(spec);
    const ExitStatus st = child.wait(3600);
    if (!st.ok()) {
      const std::string log = fs::path(spec.log_path).filename().string();
      notes.push_back("Go microbenchmarks failed (" + st.describe() + ")" +
                      (log.empty() ? "" : "; see " + log));
      return;
    }
    report::ingest_google_benchmark(proc::read_file(json_out), micro, notes, round);
  } catch (const std::exception& e) {  // not started, or its output unreadable
    notes.push_back(std::string("Go microbenchmarks: ") + e.what());
  }
}

const GoArm& go_of(const FoundArm& found) {
  static const GoArm none{};
  const GoArm* go = std::any_cast<GoArm>(&found.detail);
  return go != nullptr ? *go : none;
}

FoundArm go_found(GoArm go, const std::string& json) {
  FoundArm f;
  f.binary = go.binary;
  f.unavailable = go.runs() ? "" : go.unavailable.empty() ? "zapbench-go not found" : go.unavailable;
  f.options["--go-json"] = json;
  if (go.runs()) {
    f.libraries["go (the Go arms)"] = go.go_version;
    const std::string go_module(report::kGoModuleSuffix);
    for (const auto& [module, version] : go.modules) f.libraries[module] = version + go_module;
    // The ZAP-RPC server's own build: the same module at another version, named as such.
    for (const auto& [module, version] : go.rpc_modules)
      if (!module.starts_with("zapbench/") &&
          (go.modules.count(module) == 0 || go.modules.at(module) != version))
        f.libraries[module + std::string(report::kGoRpcLibrarySuffix)] = version + go_module;
  } else {
    f.libraries["go (the Go arms)"] = "unavailable: " + go.unavailable;
  }
  f.detail = std::move(go);
  return f;
}

void go_cells(CellPlanner& planner, Arm go) {
  const RunPlan& run = planner.plan();
  const FoundArm& found = run.arm(go);
  struct {
    const GoArm& go;
    std::string go_json;
  } p{go_of(found), found.option("--go-json")};
  const std::size_t first = planner.cells().size();
  for (Scenario s : run.scenarios)
    for (Framing f : run.framings) {
      if (s == Scenario::logs) continue;  // the Go reference serves no /logs
      // ZAP-RPC in Go is zap-proto/go's own transport, the zip arm's stack:
      // fasthttp and net/http have no such framing, so no cell to report.
      if (f == Framing::zap_rpc && go != Arm::go_zip) continue;
      // ZAP-HTTP in Go is zap-proto/http, built on fasthttp: the go-fasthttp
      // cell (and zip's, which is fasthttp underneath); net/http has none.
      if (f == Framing::zap_http && go == Arm::go_nethttp) continue;
      // The reference serves HTTP/1.1 and ZAP only: its HTTP/2 and gRPC
      // are not the system zapbench is the counterpart of.
      if (f == Framing::http2 || f == Framing::grpc) continue;
      if (s == Scenario::hello) {
        if (planner.chosen(go, s, f, ""))
          planner.add(go, s, f, "", go_cell_unavailable(p.go, go, f, s, "", p.go_json));
        continue;
      }
      // The Go server decodes every JSON body with its own codec, so one JSON
      // body (the first the run has) measures it; more would repeat the cell.
      bool json_planned = false;
      for (const std::string& b : run.bodies) {
        // The Go reference has JSON and ZAP bodies only: a binary peer is no Go cell.
        if (const record::CodecInfo* c = record::find_codec(b);
            c != nullptr && c->family() == matrix::Family::peer)
          continue;
        std::string why = codec_unavailable(b);
        if (b != "zap" && why.empty() && std::exchange(json_planned, true)) continue;
        if (!planner.chosen(go, s, f, b)) continue;
        if (why.empty()) why = go_cell_unavailable(p.go, go, f, s, b, p.go_json);
        planner.add(go, s, f, b, why, {}, 0, b != "zap" ? "go/" + p.go_json : "");
      }
    }
  // Each cell as built: its server's name (ZAP-RPC's is zapbench-go-rpc's) and the module versions it used.
  std::vector<CellPlan>& cells = planner.cells();
  for (std::size_t i = first; i < cells.size(); ++i)
    report::describe_go_cell(cells[i].cell,
                             cells[i].cell.framing == Framing::zap_rpc ? p.go.rpc_modules : p.go.modules);
}

bool go_quick(Arm arm, Scenario s, Framing f, const std::string& b, const std::string&, const std::string&) {
  if (arm == Arm::go_zip) {
    if (s == Scenario::hello) return f == Framing::zap_http;
    // ZAP-RPC + ZAP: zap-proto/go's own transport (zapbench-go-rpc), the zip arm's stack.
    return s == Scenario::rpc &&
           ((f == Framing::zap_http && b == "zap") || (f == Framing::zap_rpc && b == "zap") ||
            (f == Framing::http1 && b != "zap"));
  }
  if (arm == Arm::go_fasthttp)
    // The reference's ZAP server (zap-proto/http on fasthttp, -transport zap) and its HTTP/1.1 with
    // each body: zip's cells, on the framework zip is built on, since zip cannot be built here.
    return s == Scenario::rpc && (f == Framing::http1 || (f == Framing::zap_http && b == "zap"));
  return true;
}

ServerLaunch go_launch(const RunPlan& p, const std::string&, const CellPlan& cp) {
  const FoundArm& found = p.arm(cp.cell.arm);
  ServerLaunch l;
  l.spec = go_server_spec(go_of(found), cp.cell.arm, cp.cell.framing, found.option("--go-json"),
                          p.cfg.server_cpus, p.listen_host);
  return l;
}

namespace {

constexpr ArmFlag kGoFlags[] = {
    {"--go", "PATH", "the Go reference arm's binary (zapbench-go)",
     "$ZAPBENCH_GO, else build/<preset>/go/zapbench-go", ""},
    {"--go-json", "NAME", "JSON codec of the Go arms' servers", "goccy", "goccy,sonic,stdlib"}};

FoundArm go_find(const std::map<std::string, std::string>& flags) {
  const auto binary = flags.find("--go");
  const auto json = flags.find("--go-json");
  return go_found(probe_go(binary != flags.end() ? binary->second : default_go_binary()),
                  json != flags.end() ? json->second : "goccy");
}

// A round of the Go reference's codec microbenchmarks (zapbench-go micro), beside zapbench's.
void go_micro_round(const RunPlan& p, const ArmMicroRound& r, report::Results& res) {
  const GoArm& go = go_of(p.arm(Arm::go_zip));
  if (!go.runs()) {
    if (r.round == 0) res.micro.unavailable_codecs.push_back({"go/*", p.arm(Arm::go_zip).unavailable});
    return;
  }
  const ChildSpec spec =
      go_micro_spec(go, r.json_path, p.cfg.micro_min_time_s, 1, p.micro_filter, {p.micro_cpu}, r.log_path);
  if (res.micro.go_command.empty() && r.command_text) res.micro.go_command = r.command_text(spec);
  measure_go_micro(spec, r.json_path, res.micro, res.notes, r.round);
}

}  // namespace

extern const ArmHooks go_arm_hooks{kGoFlags, go_find, go_cells, go_quick, go_launch, nullptr, go_micro_round};

}  // namespace bench
