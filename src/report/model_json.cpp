// report/model_json.cpp — results.json: the model written member by member in
// struct order, and read back strictly, each type's reader beside its writer
// (to_j(T), then T's <t>_of); parse() reads the file through them. Every member is required, so a file
// from another version or a hand edit gone wrong fails with the member's path
// ("cells[3].samples[0].requests_per_s: expected a number") instead of
// quietly reading as zero. Unknown members are ignored. Members added since
// the first runs (env.online_cpus, env.link, env.hosts, samples[].load_avg_1m,
// samples[].received_mb_per_s, samples[].loader_hosts, samples[].start_skew_ns;
// cells[].logs, required of logs cells; since verdicts: samples[].round,
// micro.figures[].rounds, cells[].control, config.precision, config.budget_s,
// config.margin; since the io axis: cells[].io, epoll when absent; since the
// calibration: calibration; since c100k: c100k) are optional, so
// every earlier results.json still loads, and are written only when known, so
// such a file writes back byte for byte. The matrix's names (arm, scenario,
// framing, a codec's family) are matrix/matrix.hpp's stable names.
#include <sys/stat.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "report/model.hpp"

namespace report {
namespace {

using json = nlohmann::ordered_json;  // keeps the struct's member order

// --- reading: every member required, its path in the message -----------------

struct Malformed : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw Malformed(path + ": " + what);
}

std::string member_path(const std::string& parent, const char* key) {
  return parent.empty() ? key : parent + "." + key;
}

// The member `key` of object `o` (at `path`), which must be present.
const json& member(const json& o, const std::string& path, const char* key) {
  const auto it = o.find(key);
  if (it == o.end()) fail(member_path(path, key), "missing");
  return *it;
}

const json& object_at(const json& o, const std::string& path, const char* key) {
  const json& v = member(o, path, key);
  if (!v.is_object()) fail(member_path(path, key), "expected an object");
  return v;
}

const json& array_at(const json& o, const std::string& path, const char* key) {
  const json& v = member(o, path, key);
  if (!v.is_array()) fail(member_path(path, key), "expected an array");
  return v;
}

std::string as_string(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string");
  return v.get<std::string>();
}

double as_double(const json& v, const std::string& path) {
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();  // see samples_json
  if (!v.is_number()) fail(path, "expected a number");
  return v.get<double>();
}

std::uint64_t as_u64(const json& v, const std::string& path) {
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    fail(path, "expected a whole number >= 0");
  return v.get<std::uint64_t>();
}

unsigned as_unsigned(const json& v, const std::string& path) {
  const std::uint64_t u = as_u64(v, path);
  if (u > std::numeric_limits<unsigned>::max()) fail(path, "out of range");
  return static_cast<unsigned>(u);
}

std::string str(const json& o, const std::string& path, const char* key) {
  return as_string(member(o, path, key), member_path(path, key));
}
double num(const json& o, const std::string& path, const char* key) {
  return as_double(member(o, path, key), member_path(path, key));
}
unsigned uns(const json& o, const std::string& path, const char* key) {
  return as_unsigned(member(o, path, key), member_path(path, key));
}
std::uint64_t u64(const json& o, const std::string& path, const char* key) {
  return as_u64(member(o, path, key), member_path(path, key));
}
bool boolean(const json& o, const std::string& path, const char* key) {
  const json& v = member(o, path, key);
  if (!v.is_boolean()) fail(member_path(path, key), "expected true or false");
  return v.get<bool>();
}

// A matrix name (matrix/matrix.hpp) read back through its parser `from`;
// anything else fails with the choices (`names`).
template <class From, class Names>
auto named(const json& o, const std::string& path, const char* key, From from, Names names) {
  const std::string s = str(o, path, key);
  const auto v = from(s);
  if (!v) fail(member_path(path, key), "unknown \"" + s + "\" (one of: " + names() + ")");
  return *v;
}

// Calls each(element, element_path) for every element of the array o[key].
template <class F>
void for_each(const json& o, const std::string& path, const char* key, F each) {
  const json& a = array_at(o, path, key);
  const std::string base = member_path(path, key);
  for (std::size_t i = 0; i < a.size(); ++i) each(a[i], base + "[" + std::to_string(i) + "]");
}

template <class F>
void for_each_object(const json& o, const std::string& path, const char* key, F each) {
  for_each(o, path, key, [&](const json& e, const std::string& p) {
    if (!e.is_object()) fail(p, "expected an object");
    each(e, p);
  });
}

Samples samples(const json& o, const std::string& path, const char* key) {
  Samples s;
  for_each(o, path, key, [&](const json& e, const std::string& p) { s.values.push_back(as_double(e, p)); });
  return s;
}

template <class V>
std::map<std::string, V> string_map(const json& o, const std::string& path, const char* key,
                                    V (*value)(const json&, const std::string&)) {
  std::map<std::string, V> m;
  const std::string base = member_path(path, key);
  for (const auto& [k, v] : object_at(o, path, key).items()) m[k] = value(v, base + "." + k);
  return m;
}

// --- each type: its writer, then its reader -----------------------------------

// nlohmann writes a non-finite double as null; read_double accepts null back
// as NaN, so even a broken figure round-trips and stays visible.
json samples_json(const Samples& s) { return s.values; }

json to_j(const HostRow& h) {
  return {{"role", h.role},           {"host", h.host},
          {"version", h.version},     {"hostname", h.hostname},
          {"kernel", h.kernel},       {"cpu_model", h.cpu_model},
          {"cpu_count", h.cpu_count}, {"allowed_cpus", h.allowed_cpus}};
}

HostRow host_row_of(const json& o, const std::string& p) {
  return {str(o, p, "role"),   str(o, p, "host"),      str(o, p, "version"),   str(o, p, "hostname"),
          str(o, p, "kernel"), str(o, p, "cpu_model"), uns(o, p, "cpu_count"), str(o, p, "allowed_cpus")};
}

json to_j(const Environment& e) {
  json j = {{"cpu_model", e.cpu_model},     {"cpu_count", e.cpu_count}, {"kernel", e.kernel},
            {"hostname", e.hostname},       {"compiler", e.compiler},   {"build_flags", e.build_flags},
            {"git_commit", e.git_commit},   {"libraries", e.libraries}, {"command_line", e.command_line},
            {"started_utc", e.started_utc}, {"wall_s", e.wall_s}};
  if (e.online_cpus != 0) j["online_cpus"] = e.online_cpus;
  if (!e.link.empty()) j["link"] = e.link;
  if (!e.hosts.empty()) {
    json hosts = json::array();
    for (const HostRow& h : e.hosts) hosts.push_back(to_j(h));
    j["hosts"] = hosts;
  }
  return j;
}

Environment environment_of(const json& e, const std::string& ep) {
  Environment env;
  env.cpu_model = str(e, ep, "cpu_model");
  env.cpu_count = uns(e, ep, "cpu_count");
  env.kernel = str(e, ep, "kernel");
  env.hostname = str(e, ep, "hostname");
  env.compiler = str(e, ep, "compiler");
  env.build_flags = str(e, ep, "build_flags");
  env.git_commit = str(e, ep, "git_commit");
  env.libraries = string_map<std::string>(e, ep, "libraries", as_string);
  env.command_line = str(e, ep, "command_line");
  env.started_utc = str(e, ep, "started_utc");
  env.wall_s = num(e, ep, "wall_s");
  if (e.contains("online_cpus")) env.online_cpus = uns(e, ep, "online_cpus");
  if (e.contains("link")) env.link = str(e, ep, "link");
  if (e.contains("hosts"))
    for_each_object(e, ep, "hosts",
                    [&](const json& o, const std::string& p) { env.hosts.push_back(host_row_of(o, p)); });
  return env;
}

json to_j(const Config& c) {
  json j = {{"mode", c.mode},
            {"repeats", c.repeats},
            {"duration_s", c.duration_s},
            {"warmup_s", c.warmup_s},
            {"server_cpus", c.server_cpus},
            {"loader_cpus", c.loader_cpus},
            {"noisy_spread", c.noisy_spread},
            {"micro_repetitions", c.micro_repetitions},
            {"micro_min_time_s", c.micro_min_time_s}};
  if (std::isfinite(c.precision)) j["precision"] = c.precision;
  if (std::isfinite(c.budget_s)) j["budget_s"] = c.budget_s;
  if (std::isfinite(c.margin)) j["margin"] = c.margin;
  if (c.rate_per_s > 0) j["rate_per_s"] = c.rate_per_s;
  return j;
}

Config config_of(const json& c, const std::string& cp) {
  Config config;
  config.mode = str(c, cp, "mode");
  config.repeats = uns(c, cp, "repeats");
  config.duration_s = num(c, cp, "duration_s");
  config.warmup_s = num(c, cp, "warmup_s");
  for (const char* key : {"server_cpus", "loader_cpus"}) {
    std::vector<int>& cpus = std::string(key) == "server_cpus" ? config.server_cpus : config.loader_cpus;
    for_each(c, cp, key, [&](const json& v, const std::string& p) {
      const unsigned cpu = as_unsigned(v, p);
      if (cpu > static_cast<unsigned>(std::numeric_limits<int>::max())) fail(p, "out of range");
      cpus.push_back(static_cast<int>(cpu));
    });
  }
  config.noisy_spread = num(c, cp, "noisy_spread");
  config.micro_repetitions = uns(c, cp, "micro_repetitions");
  config.micro_min_time_s = num(c, cp, "micro_min_time_s");
  if (c.contains("precision")) config.precision = num(c, cp, "precision");
  if (c.contains("budget_s")) config.budget_s = num(c, cp, "budget_s");
  if (c.contains("margin")) config.margin = num(c, cp, "margin");
  if (c.contains("rate_per_s")) {
    config.rate_per_s = num(c, cp, "rate_per_s");
    if (!(config.rate_per_s > 0) || !std::isfinite(config.rate_per_s))
      fail(member_path(cp, "rate_per_s"), "expected a rate > 0 (closed loop writes none)");
  }
  return config;
}

json to_j(const Codec& c) {
  json j = {{"name", c.name},
            {"content_type", c.content_type},
            {"available", c.available},
            {"unavailable_reason", c.unavailable_reason},
            {"encode_path", c.encode_path},
            {"decode_path", c.decode_path}};
  if (c.trusted_input_only) j["trusted_input_only"] = true;  // only the binary peers' trusted rows have it
  if (c.family) j["family"] = std::string(matrix::to_string(*c.family));  // written since issue 33
  return j;
}

Codec codec_of(const json& o, const std::string& p) {
  // trusted_input_only: written since the binary peers; absent (false) in earlier runs.
  Codec codec{str(o, p, "name"),
              str(o, p, "content_type"),
              boolean(o, p, "available"),
              str(o, p, "unavailable_reason"),
              str(o, p, "encode_path"),
              str(o, p, "decode_path"),
              o.contains("trusted_input_only") && boolean(o, p, "trusted_input_only"),
              {}};
  // family: written since issue 33 (Codec::effective_family() reads earlier runs' from the content type).
  if (o.contains("family")) {
    const auto family = matrix::family_from(str(o, p, "family"));
    if (!family) fail(p + ".family", "expected \"zap\", \"json\" or \"peer\"");
    codec.family = *family;
  }
  return codec;
}

json to_j(const Unavailable& u) { return {{"name", u.name}, {"reason", u.reason}}; }

Unavailable unavailable_of(const json& o, const std::string& p) {
  return {str(o, p, "name"), str(o, p, "reason")};
}

json to_j(const MicroFigure& f) {
  json o = {{"name", f.name},
            {"op", f.op},
            {"codec", f.codec},
            {"ns_per_op", samples_json(f.ns_per_op)},
            {"allocs_per_op", f.allocs_per_op},
            {"wire_bytes", f.wire_bytes}};
  if (!f.ns_per_op.rounds.empty()) o["rounds"] = f.ns_per_op.rounds;
  return o;
}

MicroFigure micro_figure_of(const json& o, const std::string& p) {
  MicroFigure f{str(o, p, "name"),          str(o, p, "op"),
                str(o, p, "codec"),         samples(o, p, "ns_per_op"),
                num(o, p, "allocs_per_op"), num(o, p, "wire_bytes")};
  if (o.contains("rounds")) {
    for_each(o, p, "rounds",
             [&](const json& v, const std::string& rp) { f.ns_per_op.rounds.push_back(as_unsigned(v, rp)); });
    if (f.ns_per_op.rounds.size() != f.ns_per_op.values.size())
      fail(member_path(p, "rounds"), "expected one round per value of ns_per_op (" +
                                         std::to_string(f.ns_per_op.values.size()) + "), got " +
                                         std::to_string(f.ns_per_op.rounds.size()));
  }
  return f;
}

json to_j(const InstructionFigure& f) {
  json o = {{"name", f.name}};  // a figure not measured is left out (JSON has no NaN)
  if (std::isfinite(f.callgrind_ir)) o["callgrind_ir"] = f.callgrind_ir;
  if (std::isfinite(f.perf_instructions)) o["perf_instructions"] = f.perf_instructions;
  return o;
}

InstructionFigure instruction_figure_of(const json& o, const std::string& p) {
  InstructionFigure f;
  f.name = str(o, p, "name");
  if (o.contains("callgrind_ir")) f.callgrind_ir = num(o, p, "callgrind_ir");
  if (o.contains("perf_instructions")) f.perf_instructions = num(o, p, "perf_instructions");
  return f;
}

json to_j(const Instructions& i) {
  json counted = json::array();
  for (const InstructionFigure& f : i.figures) counted.push_back(to_j(f));
  return {{"requests", i.requests},
          {"tools", i.tools},
          {"callgrind_unavailable", i.callgrind_unavailable},
          {"perf_unavailable", i.perf_unavailable},
          {"figures", counted}};
}

Instructions instructions_of(const json& i, const std::string& ip) {
  Instructions out;
  out.requests = u64(i, ip, "requests");
  out.tools = str(i, ip, "tools");
  out.callgrind_unavailable = str(i, ip, "callgrind_unavailable");
  out.perf_unavailable = str(i, ip, "perf_unavailable");
  for_each_object(i, ip, "figures", [&](const json& o, const std::string& p) {
    out.figures.push_back(instruction_figure_of(o, p));
  });
  return out;
}

json to_j(const Micro& m) {
  json figures = json::array(), unavailable = json::array();
  for (const MicroFigure& f : m.figures) figures.push_back(to_j(f));
  for (const Unavailable& u : m.unavailable_codecs) unavailable.push_back(to_j(u));
  json j = {{"command", m.command}, {"figures", figures}, {"unavailable_codecs", unavailable}};
  if (!m.go_command.empty()) j["go_command"] = m.go_command;
  // Only when counted (or tried): results of runs without it stay as they were.
  const Instructions& i = m.instructions;
  if (i.requests > 0 || !i.figures.empty()) j["instructions"] = to_j(i);
  return j;
}

Micro micro_of(const json& m, const std::string& mp) {
  Micro micro;
  micro.command = str(m, mp, "command");
  if (m.contains("go_command")) micro.go_command = str(m, mp, "go_command");
  for_each_object(m, mp, "figures", [&](const json& o, const std::string& p) {
    micro.figures.push_back(micro_figure_of(o, p));
  });
  for_each_object(m, mp, "unavailable_codecs", [&](const json& o, const std::string& p) {
    micro.unavailable_codecs.push_back(unavailable_of(o, p));
  });
  if (m.contains("instructions"))  // runs before the request path was counted have none
    micro.instructions = instructions_of(object_at(m, mp, "instructions"), member_path(mp, "instructions"));
  return micro;
}

json to_j(const LoaderHostRow& h) {
  json row = {{"host", h.host},     {"responses", h.responses}, {"requests_per_s", h.requests_per_s},
              {"errors", h.errors}, {"p50_ns", h.p50_ns},       {"p99_ns", h.p99_ns},
              {"max_ns", h.max_ns}};
  // Not known for a host that failed before `go`: left out, read back as NaN.
  if (std::isfinite(h.go_to_first_send_ns)) row["go_to_first_send_ns"] = h.go_to_first_send_ns;
  if (std::isfinite(h.go_rtt_ns)) row["go_rtt_ns"] = h.go_rtt_ns;
  row["failure"] = h.failure;
  return row;
}

LoaderHostRow loader_host_of(const json& ho, const std::string& hp) {
  LoaderHostRow h;
  h.host = str(ho, hp, "host");
  h.responses = u64(ho, hp, "responses");
  h.requests_per_s = num(ho, hp, "requests_per_s");
  h.errors = u64(ho, hp, "errors");
  h.p50_ns = num(ho, hp, "p50_ns");
  h.p99_ns = num(ho, hp, "p99_ns");
  h.max_ns = num(ho, hp, "max_ns");
  if (ho.contains("go_to_first_send_ns")) h.go_to_first_send_ns = num(ho, hp, "go_to_first_send_ns");
  if (ho.contains("go_rtt_ns")) h.go_rtt_ns = num(ho, hp, "go_rtt_ns");
  h.failure = str(ho, hp, "failure");
  return h;
}

json to_j(const E2ESample& s) {
  json j = json::object();
  if (s.round) j["round"] = *s.round;
  j.update(json{{"requests_per_s", s.requests_per_s},
                {"p50_ns", s.p50_ns},
                {"p90_ns", s.p90_ns},
                {"p99_ns", s.p99_ns},
                {"p999_ns", s.p999_ns},
                {"max_ns", s.max_ns},
                {"mean_ns", s.mean_ns},
                {"responses", s.responses},
                {"errors", s.errors},
                {"errors_by_kind", s.errors_by_kind},
                {"bytes_sent_per_request", s.bytes_sent_per_request},
                {"bytes_received_per_response", s.bytes_received_per_response},
                {"loader_cpu_s", s.loader_cpu_s},
                {"server_cpu_s", s.server_cpu_s}});
  if (std::isfinite(s.server_syscalls)) j["server_syscalls"] = s.server_syscalls;
  if (std::isfinite(s.load_avg_1m)) j["load_avg_1m"] = s.load_avg_1m;
  if (std::isfinite(s.received_mb_per_s)) j["received_mb_per_s"] = s.received_mb_per_s;
  if (!s.loader_hosts.empty()) {
    json rows = json::array();
    for (const LoaderHostRow& h : s.loader_hosts) rows.push_back(to_j(h));
    j["loader_hosts"] = rows;
  }
  if (std::isfinite(s.start_skew_ns)) j["start_skew_ns"] = s.start_skew_ns;
  return j;
}

E2ESample sample_of(const json& so, const std::string& sp) {
  E2ESample s;
  if (so.contains("round")) s.round = uns(so, sp, "round");
  s.requests_per_s = num(so, sp, "requests_per_s");
  s.p50_ns = num(so, sp, "p50_ns");
  s.p90_ns = num(so, sp, "p90_ns");
  s.p99_ns = num(so, sp, "p99_ns");
  s.p999_ns = num(so, sp, "p999_ns");
  s.max_ns = num(so, sp, "max_ns");
  s.mean_ns = num(so, sp, "mean_ns");
  s.responses = u64(so, sp, "responses");
  s.errors = u64(so, sp, "errors");
  s.errors_by_kind = string_map<std::uint64_t>(so, sp, "errors_by_kind", as_u64);
  s.bytes_sent_per_request = num(so, sp, "bytes_sent_per_request");
  s.bytes_received_per_response = num(so, sp, "bytes_received_per_response");
  s.loader_cpu_s = num(so, sp, "loader_cpu_s");
  s.server_cpu_s = num(so, sp, "server_cpu_s");
  if (so.contains("server_syscalls")) s.server_syscalls = num(so, sp, "server_syscalls");
  if (so.contains("load_avg_1m")) s.load_avg_1m = num(so, sp, "load_avg_1m");
  if (so.contains("received_mb_per_s")) s.received_mb_per_s = num(so, sp, "received_mb_per_s");
  if (so.contains("loader_hosts"))
    for_each_object(so, sp, "loader_hosts", [&](const json& ho, const std::string& hp) {
      s.loader_hosts.push_back(loader_host_of(ho, hp));
    });
  if (so.contains("start_skew_ns")) s.start_skew_ns = num(so, sp, "start_skew_ns");
  return s;
}

json to_j(const Cell& c, bool io_recorded) {
  json samples = json::array();
  for (const E2ESample& s : c.samples) samples.push_back(to_j(s));
  json j = {{"arm", std::string(matrix::to_string(c.arm))},
            {"scenario", std::string(matrix::to_string(c.scenario))},
            {"framing", std::string(matrix::to_string(c.framing))},
            {"body", c.body},
            {"connections", c.connections},
            {"pipeline", c.pipeline},
            {"server_command", c.server_command},
            {"loader_command", c.loader_command},
            {"unavailable", c.unavailable},
            {"samples", samples}};
  if (!c.server_codec.empty()) j["server_codec"] = c.server_codec;  // only the Go arms have one
  if (!c.server.empty()) j["server"] = c.server;                    // only the Go ZAP-RPC cells
  // Every Go cell, empty or not: a file without it is older (from_json fills it from env.libraries).
  if (matrix::is_go_arm(c.arm)) j["go_modules"] = c.go_modules;
  if (c.scenario == matrix::Scenario::logs) j["logs"] = c.logs;  // only the logs cells have N
  if (c.control) j["control"] = true;                            // only the control copy
  // Every cell since the io axis; none of a results.json from before it (read back as it was).
  if (io_recorded || c.io != matrix::Io::epoll) j["io"] = std::string(matrix::to_string(c.io));
  return j;
}

// A cell; `io_recorded` is cleared for a cell from before the io axis (epoll), `older_go` set for a
// Go cell from before go_modules (describe_older_go_cells fills it).
Cell cell_of(const json& o, const std::string& p, bool& io_recorded, bool& older_go) {
  Cell cell;
  cell.arm = named(o, p, "arm", matrix::arm_from, matrix::arm_names);
  cell.scenario = named(o, p, "scenario", matrix::scenario_from, matrix::scenario_names);
  cell.framing = named(o, p, "framing", matrix::framing_from, matrix::framing_names);
  cell.body = str(o, p, "body");
  if (cell.scenario == matrix::Scenario::logs) {
    cell.logs = uns(o, p, "logs");
    if (cell.logs == 0) fail(member_path(p, "logs"), "expected N >= 1 for the logs scenario");
  }
  if (o.contains("server_codec")) cell.server_codec = str(o, p, "server_codec");
  if (o.contains("server")) cell.server = str(o, p, "server");
  if (o.contains("go_modules"))
    cell.go_modules = string_map<std::string>(o, p, "go_modules", as_string);
  else if (matrix::is_go_arm(cell.arm))
    older_go = true;
  cell.connections = uns(o, p, "connections");
  cell.pipeline = uns(o, p, "pipeline");
  cell.server_command = str(o, p, "server_command");
  cell.loader_command = str(o, p, "loader_command");
  cell.unavailable = str(o, p, "unavailable");
  if (o.contains("control")) cell.control = boolean(o, p, "control");
  if (o.contains("io"))
    cell.io = named(o, p, "io", matrix::io_from, matrix::io_names);
  else
    io_recorded = false;  // a run from before the io axis: epoll
  for_each_object(o, p, "samples",
                  [&](const json& so, const std::string& sp) { cell.samples.push_back(sample_of(so, sp)); });
  return cell;
}

// The Go cells of a results.json from before Cell::server and go_modules:
// described from env.libraries, where the run recorded the modules of the
// same binaries (zapbench-go's; zapbench-go-rpc's where they differ, named
// with kGoRpcLibrarySuffix).
void describe_older_go_cells(Results& r, const std::vector<std::size_t>& cells) {
  std::map<std::string, std::string> go, rpc;
  for (const auto& [name, value] : r.env.libraries) {
    if (!value.ends_with(kGoModuleSuffix)) continue;
    const std::string version = value.substr(0, value.size() - kGoModuleSuffix.size());
    if (name.ends_with(kGoRpcLibrarySuffix))
      rpc[name.substr(0, name.size() - kGoRpcLibrarySuffix.size())] = version;
    else
      go[name] = version;
  }
  for (const auto& [path, version] : go) rpc.emplace(path, version);  // the same in both builds
  for (std::size_t i : cells) {
    Cell& c = r.cells[i];
    describe_go_cell(c, c.framing == matrix::Framing::zap_rpc ? rpc : go);
  }
}

json to_j(const PingPong& p) {
  return {{"depth", p.depth},
          {"message_bytes", p.message_bytes},
          {"rounds", p.round_trips_per_s.rounds},
          {"round_trips_per_s", samples_json(p.round_trips_per_s)},
          {"p99_ns", samples_json(p.p99_ns)},
          {"server_cpu_ns", samples_json(p.server_cpu_ns)}};
}

PingPong ping_pong_of(const json& o, const std::string& p) {
  PingPong pp;
  pp.depth = uns(o, p, "depth");
  pp.message_bytes = uns(o, p, "message_bytes");
  pp.round_trips_per_s = samples(o, p, "round_trips_per_s");
  pp.p99_ns = samples(o, p, "p99_ns");
  pp.server_cpu_ns = samples(o, p, "server_cpu_ns");
  for_each(o, p, "rounds", [&](const json& v, const std::string& rp) {
    pp.round_trips_per_s.rounds.push_back(as_unsigned(v, rp));
  });
  const std::size_t n = pp.round_trips_per_s.values.size();
  for (const auto& [key, got] :
       {std::pair{"rounds", pp.round_trips_per_s.rounds.size()}, std::pair{"p99_ns", pp.p99_ns.values.size()},
        std::pair{"server_cpu_ns", pp.server_cpu_ns.values.size()}})
    if (got != n)
      fail(member_path(p, key), "expected one value per value of round_trips_per_s (" + std::to_string(n) +
                                    "), got " + std::to_string(got));
  pp.p99_ns.rounds = pp.server_cpu_ns.rounds = pp.round_trips_per_s.rounds;
  return pp;
}

json to_j(const Calibration& c) {
  json pings = json::array();
  for (const PingPong& p : c.ping_pongs) pings.push_back(to_j(p));
  return {{"version", c.version}, {"unavailable", c.unavailable}, {"ping_pongs", pings}};
}

Calibration calibration_of(const json& cal, const std::string& calp) {
  Calibration c;
  c.version = str(cal, calp, "version");
  if (c.version.empty()) fail(calp + ".version", "expected the calibration's version");
  c.unavailable = str(cal, calp, "unavailable");
  for_each_object(cal, calp, "ping_pongs",
                  [&](const json& o, const std::string& p) { c.ping_pongs.push_back(ping_pong_of(o, p)); });
  return c;
}

// A conformance suite's run against one arm, member by member (Conformance's order).
json to_j(const Conformance& c) {
  return {{"arm", c.arm},           {"framing", c.framing},
          {"tool", c.tool},         {"unavailable", c.unavailable},
          {"cases", c.cases},       {"passed", c.passed},
          {"skipped", c.skipped},   {"failed", c.failed},
          {"failures", c.failures}, {"command", c.command}};
}

Conformance conformance_of(const json& o, const std::string& p) {
  Conformance c;
  c.arm = str(o, p, "arm");
  c.framing = str(o, p, "framing");
  c.tool = str(o, p, "tool");
  c.unavailable = str(o, p, "unavailable");
  c.cases = uns(o, p, "cases");
  c.passed = uns(o, p, "passed");
  c.skipped = uns(o, p, "skipped");
  c.failed = uns(o, p, "failed");
  for_each(o, p, "failures",
           [&](const json& v, const std::string& q) { c.failures.push_back(as_string(v, q)); });
  c.command = str(o, p, "command");
  return c;
}

// The c100k scenario's rows, member by member (C100k's order).
json to_j(const C100k& c) {
  return {{"io", c.io},
          {"asked", c.asked},
          {"reached", c.reached},
          {"limit", c.limit},
          {"error", c.error},
          {"connect_s", c.connect_s},
          {"accept_s", c.accept_s},
          {"server_rss_before_kib", c.server_rss_before_kib},
          {"server_rss_held_kib", c.server_rss_held_kib},
          {"user_bytes_per_connection", c.user_bytes_per_connection},
          {"kernel_bytes_per_connection", c.kernel_bytes_per_connection},
          {"sockets_before", c.sockets_before},
          {"sockets_held", c.sockets_held},
          {"tcp_mem_pages_before", c.tcp_mem_pages_before},
          {"tcp_mem_pages_held", c.tcp_mem_pages_held},
          {"slab_kib_before", c.slab_kib_before},
          {"slab_kib_held", c.slab_kib_held},
          {"sample_connections", c.sample_connections},
          {"sample_rate_per_s", c.sample_rate_per_s},
          {"hold_s", c.hold_s},
          {"sample_responses", c.sample_responses},
          {"sample_errors", c.sample_errors},
          {"sample_p50_ns", c.sample_p50_ns},
          {"sample_p99_ns", c.sample_p99_ns},
          {"sample_max_ns", c.sample_max_ns},
          {"server_answered", c.server_answered},
          {"all_closed", c.all_closed},
          {"fds_left", c.fds_left},
          {"limits_changed", c.limits_changed},
          {"server_command", c.server_command},
          {"loader_command", c.loader_command}};
}

C100k c100k_of(const json& o, const std::string& p) {
  C100k c;
  c.io = str(o, p, "io");
  c.asked = u64(o, p, "asked");
  c.reached = u64(o, p, "reached");
  c.limit = str(o, p, "limit");
  c.error = str(o, p, "error");
  c.connect_s = num(o, p, "connect_s");
  c.accept_s = num(o, p, "accept_s");
  c.server_rss_before_kib = num(o, p, "server_rss_before_kib");
  c.server_rss_held_kib = num(o, p, "server_rss_held_kib");
  c.user_bytes_per_connection = num(o, p, "user_bytes_per_connection");
  c.kernel_bytes_per_connection = num(o, p, "kernel_bytes_per_connection");
  c.sockets_before = u64(o, p, "sockets_before");
  c.sockets_held = u64(o, p, "sockets_held");
  c.tcp_mem_pages_before = u64(o, p, "tcp_mem_pages_before");
  c.tcp_mem_pages_held = u64(o, p, "tcp_mem_pages_held");
  c.slab_kib_before = u64(o, p, "slab_kib_before");
  c.slab_kib_held = u64(o, p, "slab_kib_held");
  c.sample_connections = uns(o, p, "sample_connections");
  c.sample_rate_per_s = num(o, p, "sample_rate_per_s");
  c.hold_s = num(o, p, "hold_s");
  c.sample_responses = u64(o, p, "sample_responses");
  c.sample_errors = u64(o, p, "sample_errors");
  c.sample_p50_ns = num(o, p, "sample_p50_ns");
  c.sample_p99_ns = num(o, p, "sample_p99_ns");
  c.sample_max_ns = num(o, p, "sample_max_ns");
  c.server_answered = boolean(o, p, "server_answered");
  c.all_closed = boolean(o, p, "all_closed");
  const json& left = member(o, p, "fds_left");
  if (!left.is_number_integer()) fail(member_path(p, "fds_left"), "expected a whole number");
  c.fds_left = left.get<int>();
  c.limits_changed = str(o, p, "limits_changed");
  c.server_command = str(o, p, "server_command");
  c.loader_command = str(o, p, "loader_command");
  return c;
}

// --- the whole file ---------------------------------------------------------------

Results parse(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // A syntax error (parse_error) or a number past a double's range
    // (out_of_range: "1e999"). Drop nlohmann's "[json.exception.parse_error.101] "
    // prefix; keep where and why.
    std::string why = e.what();
    if (const auto close = why.find("] "); why.starts_with("[json.exception") && close != std::string::npos)
      why.erase(0, close + 2);
    throw Malformed("not JSON: " + why);
  }
  if (!j.is_object()) throw Malformed("expected a JSON object at the top level");

  Results r;
  r.schema = str(j, "", "schema");
  if (r.schema != kSchema)
    fail("schema", "expected \"" + std::string(kSchema) + "\", got \"" + r.schema + "\" (a results.json of " +
                       "another zapbench version?)");
  r.env = environment_of(object_at(j, "", "env"), "env");
  r.config = config_of(object_at(j, "", "config"), "config");
  for_each_object(j, "", "codecs",
                  [&](const json& o, const std::string& p) { r.codecs.push_back(codec_of(o, p)); });
  r.micro = micro_of(object_at(j, "", "micro"), "micro");
  std::vector<std::size_t> older_go_cells;  // Go cells of a file from before go_modules
  for_each_object(j, "", "cells", [&](const json& o, const std::string& p) {
    bool older_go = false;
    r.cells.push_back(cell_of(o, p, r.io_recorded, older_go));
    if (older_go) older_go_cells.push_back(r.cells.size() - 1);
  });
  if (!older_go_cells.empty()) describe_older_go_cells(r, older_go_cells);
  for_each(j, "", "notes", [&](const json& v, const std::string& p) { r.notes.push_back(as_string(v, p)); });
  if (j.contains("interrupted")) r.interrupted = str(j, "", "interrupted");
  if (j.contains("calibration"))  // since the calibration
    r.calibration = calibration_of(object_at(j, "", "calibration"), "calibration");
  if (j.contains("conformance"))  // since issue 48
    for_each_object(j, "", "conformance", [&](const json& o, const std::string& p) {
      r.conformance.push_back(conformance_of(o, p));
    });
  if (j.contains("c100k"))  // since c100k
    for_each_object(j, "", "c100k",
                    [&](const json& o, const std::string& p) { r.c100k.push_back(c100k_of(o, p)); });
  return r;
}

Results parse_named(const std::string& text, const std::string& name) {
  try {
    return parse(text);
  } catch (const Malformed& e) {
    throw std::runtime_error(name + ": " + e.what());
  }
}

}  // namespace

std::string to_json(const Results& r) {
  json codecs = json::array(), cells = json::array();
  for (const Codec& c : r.codecs) codecs.push_back(to_j(c));
  for (const Cell& c : r.cells) cells.push_back(to_j(c, r.io_recorded));
  json j = {{"schema", r.schema},     {"env", to_j(r.env)}, {"config", to_j(r.config)}, {"codecs", codecs},
            {"micro", to_j(r.micro)}, {"cells", cells},     {"notes", r.notes}};
  if (!r.interrupted.empty()) j["interrupted"] = r.interrupted;
  // Since the calibration; a run without one writes none (earlier files write back as they were).
  if (!r.calibration.version.empty()) j["calibration"] = to_j(r.calibration);
  if (!r.conformance.empty()) {  // since issue 48; a run without it writes none
    json rows = json::array();
    for (const Conformance& c : r.conformance) rows.push_back(to_j(c));
    j["conformance"] = rows;
  }
  if (!r.c100k.empty()) {  // since c100k; a run without it writes none
    json rows = json::array();
    for (const C100k& c : r.c100k) rows.push_back(to_j(c));
    j["c100k"] = rows;
  }
  return j.dump(1) + "\n";
}

Results from_json(const std::string& text) { return parse_named(text, "results.json"); }

Results load_file(const std::string& path) {
  std::string file = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    file = (path.ends_with("/") ? path : path + "/") + "results.json";
    if (::stat(file.c_str(), &st) != 0)
      throw std::runtime_error(path + ": no results.json in this directory");
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error(file + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error(file + ": read error");
  return parse_named(text.str(), file);
}

}  // namespace report
