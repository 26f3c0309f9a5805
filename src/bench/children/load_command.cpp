// bench/children/load_command.cpp — load::Options to `zapbench load` arguments
// (load_command.hpp).
#include "bench/children/load_command.hpp"

#include <charconv>

#include "bench/children/load_result.hpp"
#include "bench/children/supervisor.hpp"
#include "net/affinity.hpp"

namespace bench {

std::string exact_number(double v) {
  char b[64];
  const auto [end, ec] = std::to_chars(b, b + sizeof b, v);
  return ec == std::errc{} ? std::string(b, end) : std::to_string(v);
}

std::vector<std::string> load_args(const load::Options& o, const std::string& json_out) {
  const bool v6 = o.host.find(':') != std::string::npos;
  std::vector<std::string> a = {"--framing", std::string(matrix::to_string(o.framing)), "--addr",
                                (v6 ? "[" + o.host + "]" : o.host) + ":" + std::to_string(o.port)};
  if (o.framing == matrix::Framing::raw_tcp) {
    a.insert(a.end(), {"--request-bytes", std::to_string(o.floor_request_bytes), "--response-bytes",
                       std::to_string(o.floor_response_bytes)});
  } else {
    const bool rpc = o.scenario == matrix::Scenario::rpc, logs = o.scenario == matrix::Scenario::logs;
    a.insert(a.end(), {"--scenario", std::string(matrix::to_string(o.scenario))});
    if (logs) a.insert(a.end(), {"--logs", std::to_string(o.logs)});
    // --body names the codec itself: zap, or a JSON codec (the CLI's default when none is set).
    if (rpc || logs) a.insert(a.end(), {"--body", o.body != nullptr ? std::string(o.body->name) : "json"});
  }
  a.insert(a.end(), {"-c", std::to_string(o.connections), "-p", std::to_string(o.pipeline), "-t",
                     std::to_string(o.threads)});
  if (!o.cpus.empty()) a.insert(a.end(), {"--cpus", net::cpu_list_text(o.cpus)});
  a.insert(a.end(), {"-d", exact_number(o.duration_s), "--warmup", exact_number(o.warmup_s)});
  if (o.rate_per_s > 0) a.insert(a.end(), {"--rate", exact_number(o.rate_per_s)});
  if (o.timeout_ms != load::Options{}.timeout_ms)
    a.insert(a.end(), {"--timeout-ms", std::to_string(o.timeout_ms)});
  if (!json_out.empty()) a.insert(a.end(), {"--json-out", json_out});
  return a;
}

std::vector<std::string> load_argv(const std::string& zapbench, const load::Options& o,
                                   const std::string& json_out) {
  std::vector<std::string> argv = {zapbench, "load"};
  for (std::string& a : load_args(o, json_out)) argv.push_back(std::move(a));
  return argv;
}

}  // namespace bench
