// bench/children/load_result.cpp — the load result file (load_result.hpp), written
// member by member and read back strictly, and the exact merge of several.
#include "bench/children/load_result.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {
namespace {

using json = nlohmann::ordered_json;  // the file keeps a stable, readable member order
using load::Histogram;

// The percentiles written for a human reader; a reader of the file takes
// them from the buckets instead.
constexpr double kPercentiles[] = {50, 90, 99, 99.9, 99.99};

std::string percentile_key(double p) {
  char b[16];
  std::snprintf(b, sizeof b, "%g", p);
  return b;
}

std::string u128_text(Histogram::u128 v) {
  std::string s;
  do {
    s.insert(s.begin(), char('0' + int(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error("load result: " + path + ": " + what);
}

Histogram::u128 u128_of(const json& v, const std::string& path) {
  if (!v.is_string() || v.get<std::string>().empty()) fail(path, "expected a decimal string");
  Histogram::u128 out = 0;
  for (char c : v.get<std::string>()) {
    if (c < '0' || c > '9') fail(path, "expected a decimal string");
    const Histogram::u128 next = out * 10 + unsigned(c - '0');
    if (next / 10 != out) fail(path, "out of range");
    out = next;
  }
  return out;
}

std::string member(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

const json& at(const json& o, const std::string& path, const char* key) {
  if (!o.is_object()) fail(path, "expected an object");
  const auto it = o.find(key);
  if (it == o.end()) fail(member(path, key), "missing");
  return *it;
}

std::uint64_t u64(const json& o, const std::string& path, const char* key) {
  const json& v = at(o, path, key);
  if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
    fail(member(path, key), "expected a whole number >= 0");
  return v.get<std::uint64_t>();
}

unsigned uns(const json& o, const std::string& path, const char* key) {
  const std::uint64_t v = u64(o, path, key);
  if (v > 0xffffffffu) fail(member(path, key), "out of range");
  return unsigned(v);
}

double num(const json& o, const std::string& path, const char* key) {
  const json& v = at(o, path, key);
  if (!v.is_number()) fail(member(path, key), "expected a number");
  return v.get<double>();
}

std::string str(const json& o, const std::string& path, const char* key) {
  const json& v = at(o, path, key);
  if (!v.is_string()) fail(member(path, key), "expected a string");
  return v.get<std::string>();
}

json histogram_json(const Histogram& h) {
  const Histogram::Totals t = h.totals();
  json percentiles = json::object(), buckets = json::array();
  for (double p : kPercentiles) percentiles[percentile_key(p)] = h.value_at_percentile(p);
  h.for_each_bucket([&](std::uint64_t low, std::uint64_t high, std::uint64_t count) {
    buckets.push_back(json::array({low, high, count}));
  });
  return {{"unit", "ns"},
          {"sub_bucket_bits", Histogram::kSubBucketBits},
          {"range_bits", Histogram::kRangeBits},
          {"count", t.count},
          {"min_ns", h.min()},
          {"max_ns", h.max()},
          {"mean_ns", h.mean()},
          {"stdev_ns", h.stdev()},
          {"sum_ns", u128_text(t.sum_ns)},
          {"sum_sq_ns2", u128_text(t.sum_sq_ns2)},
          {"overflow_count", t.overflow_count},
          {"percentiles_ns", percentiles},
          {"buckets", buckets}};
}

Histogram histogram_of(const json& o, const std::string& path) {
  if (str(o, path, "unit") != "ns") fail(path + ".unit", "expected \"ns\"");
  if (uns(o, path, "sub_bucket_bits") != Histogram::kSubBucketBits ||
      uns(o, path, "range_bits") != Histogram::kRangeBits)
    fail(path, "written with another bucket layout (sub_bucket_bits, range_bits)");
  Histogram h;
  const json& buckets = at(o, path, "buckets");
  if (!buckets.is_array()) fail(path + ".buckets", "expected an array");
  for (std::size_t i = 0; i < buckets.size(); ++i) {
    const json& b = buckets[i];
    const std::string bp = path + ".buckets[" + std::to_string(i) + "]";
    if (!b.is_array() || b.size() != 3 || !b[0].is_number_unsigned() || !b[2].is_number_unsigned())
      fail(bp, "expected [low_ns, high_ns, count]");
    if (!h.add_bucket(b[0].get<std::uint64_t>(), b[2].get<std::uint64_t>()))
      fail(bp, "not a bucket's low end");
  }
  Histogram::Totals t;
  t.count = u64(o, path, "count");
  t.min_ns = u64(o, path, "min_ns");
  t.max_ns = u64(o, path, "max_ns");
  t.sum_ns = u128_of(at(o, path, "sum_ns"), path + ".sum_ns");
  t.sum_sq_ns2 = u128_of(at(o, path, "sum_sq_ns2"), path + ".sum_sq_ns2");
  t.overflow_count = u64(o, path, "overflow_count");
  if (!h.restore_totals(t)) fail(path, "the totals do not match the buckets");
  return h;
}

// One member per line, each value compact: readable, and stable enough for
// a shell test to grep ("responses": 12, "buckets": [[...).
void write_lines(const json& o, int depth, std::string& out) {
  const std::string indent(std::size_t(depth) * 2, ' ');
  out += "{\n";
  bool first = true;
  for (const auto& [k, v] : o.items()) {
    if (!first) out += ",\n";
    first = false;
    out += indent + "  " + json(k).dump() + ": ";
    if (v.is_object() && depth == 0)
      write_lines(v, depth + 1, out);
    else
      out += v.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  out += "\n" + indent + "}";
}

// The options a load result file records and a merge requires equal, each as
// the file spells it (member name, text), in the file's order: the floor has
// no scenario, body or N, and only the logs scenario has an N, so those are
// compared only where the file carries them. Connections, threads and the
// rate are left out (a merge sums them); stop, go and cpus are process-local.
std::vector<std::pair<const char*, std::string>> shared_options(const load::Options& o) {
  const bool floor = o.framing == matrix::Framing::raw_tcp;
  const bool rpc = !floor && o.scenario == matrix::Scenario::rpc;
  const bool logs = !floor && o.scenario == matrix::Scenario::logs;
  std::vector<std::pair<const char*, std::string>> v;
  v.emplace_back("framing", std::string(matrix::to_string(o.framing)));
  v.emplace_back("scenario", floor ? "" : std::string(matrix::to_string(o.scenario)));
  v.emplace_back("body", !rpc && !logs ? "" : o.body != nullptr ? std::string(o.body->name) : "");
  v.emplace_back("logs", std::to_string(logs ? o.logs : 0));
  const bool v6 = o.host.find(':') != std::string::npos;
  v.emplace_back("addr", (v6 ? "[" + o.host + "]" : o.host) + ":" + std::to_string(o.port));
  v.emplace_back("pipeline", std::to_string(o.pipeline));
  v.emplace_back("timeout_ms", std::to_string(o.timeout_ms));
  // json's shortest round-trip text: equal texts <=> equal doubles.
  v.emplace_back("duration_s", json(o.duration_s).dump());
  v.emplace_back("warmup_s", json(o.warmup_s).dump());
  v.emplace_back("request_bytes", std::to_string(o.floor_request_bytes));
  v.emplace_back("response_bytes", std::to_string(o.floor_response_bytes));
  return v;
}

}  // namespace

std::string load_result_json(const load::Options& o, const load::Result& r) {
  const bool logs = o.framing != matrix::Framing::raw_tcp && o.scenario == matrix::Scenario::logs;
  // The floor has no scenario and no body codec: "" for both (shared_options).
  const auto shared = shared_options(o);
  auto text = [&](std::string_view key) -> const std::string& {
    for (const auto& [k, v] : shared)
      if (k == key) return v;
    throw std::logic_error("load result: no option " + std::string(key));
  };
  json errors = json::object();
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k)
    errors[std::string(load::describe(load::ErrorKind(k)))] = r.errors[k];
  json j = {{"tool", kLoadResultTool},
            {"framing", text("framing")},
            {"scenario", text("scenario")},
            {"body", text("body")},
            {"logs", logs ? o.logs : 0},
            {"addr", text("addr")},
            {"connections", o.connections},
            {"threads", o.threads},
            {"pipeline", o.pipeline},
            {"timeout_ms", o.timeout_ms},
            {"duration_s", o.duration_s},
            {"warmup_s", o.warmup_s},
            {"intended_rate_per_s", o.rate_per_s},
            {"request_bytes", o.floor_request_bytes},
            {"response_bytes", o.floor_response_bytes},
            {"elapsed_s", r.elapsed_s},
            {"stopped", r.stopped},
            {"requests", r.requests},
            {"responses", r.responses},
            {"requests_per_s", r.rate_per_s()},
            {"bytes_sent", r.bytes_sent},
            {"bytes_received", r.bytes_received},
            {"received_mb_per_s", r.received_mb_per_s()},
            {"connections_answered", r.connections_answered},
            {"errors", errors},
            {"loader_cpu_user_s", r.cpu_user_s},
            {"loader_cpu_sys_s", r.cpu_sys_s},
            // Process-local clocks: window_first_send_ns is not written (it means
            // nothing on another host), the coordinated loader's own delay is.
            {"go_to_first_send_ns", r.go_to_first_send_ns},
            {"latency", histogram_json(r.latency)},
            {"latency_uncorrected", histogram_json(r.latency_actual)}};
  std::string out;
  write_lines(j, 0, out);
  return out + "\n";
}

LoadReport parse_load_result(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number past double's range
    throw std::runtime_error(std::string("load result: not JSON: ") + e.what());
  }
  const std::string p;  // the top level
  if (!j.is_object() || str(j, p, "tool") != kLoadResultTool)
    fail("tool", std::string("expected \"") + kLoadResultTool + "\"");
  LoadReport rep;
  load::Options& o = rep.options;
  const std::string framing = str(j, p, "framing");
  if (const std::optional<matrix::Framing> f = matrix::framing_from(framing))
    o.framing = *f;
  else
    fail("framing", "unknown \"" + framing + "\" (one of: " + matrix::framing_names() + ")");
  const std::string scenario = str(j, p, "scenario");
  if (o.framing != matrix::Framing::raw_tcp) {
    const std::optional<matrix::Scenario> s = matrix::scenario_from(scenario);
    if (!s) fail("scenario", "unknown \"" + scenario + "\"");
    o.scenario = *s;
  }
  // "logs": N for the logs scenario, 0 otherwise; files written before it have none.
  if (j.contains("logs")) {
    const unsigned n = uns(j, p, "logs");
    if (o.scenario == matrix::Scenario::logs && o.framing != matrix::Framing::raw_tcp) {
      if (n == 0) fail("logs", "expected N >= 1 for the logs scenario");
      o.logs = n;
    }
  } else if (o.scenario == matrix::Scenario::logs && o.framing != matrix::Framing::raw_tcp) {
    fail("logs", "missing");
  }
  const std::string body = str(j, p, "body");
  if (!body.empty()) {
    o.body = record::find_codec(body);
    if (o.body == nullptr) fail("body", "unknown codec \"" + body + "\"");
  }
  const std::string addr = str(j, p, "addr");
  const auto colon = addr.rfind(':');
  if (colon == std::string::npos) fail("addr", "expected HOST:PORT");
  std::string host = addr.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  o.host = host;
  try {
    const unsigned long port = std::stoul(addr.substr(colon + 1));
    if (port > 65535) throw std::out_of_range("port");
    o.port = static_cast<std::uint16_t>(port);
  } catch (const std::exception&) {
    fail("addr", "expected HOST:PORT");
  }
  o.connections = uns(j, p, "connections");
  o.threads = uns(j, p, "threads");
  o.pipeline = uns(j, p, "pipeline");
  o.timeout_ms = uns(j, p, "timeout_ms");
  o.duration_s = num(j, p, "duration_s");
  o.warmup_s = num(j, p, "warmup_s");
  o.rate_per_s = num(j, p, "intended_rate_per_s");
  o.floor_request_bytes = uns(j, p, "request_bytes");
  o.floor_response_bytes = uns(j, p, "response_bytes");

  load::Result& r = rep.result;
  r.elapsed_s = num(j, p, "elapsed_s");
  const json& stopped = at(j, p, "stopped");
  if (!stopped.is_boolean()) fail("stopped", "expected true or false");
  r.stopped = stopped.get<bool>();
  r.requests = u64(j, p, "requests");
  r.responses = u64(j, p, "responses");
  r.bytes_sent = u64(j, p, "bytes_sent");
  r.bytes_received = u64(j, p, "bytes_received");
  r.connections_answered = u64(j, p, "connections_answered");
  const json& errors = at(j, p, "errors");
  for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k) {
    const std::string name(load::describe(load::ErrorKind(k)));
    // A file from before the zap-rpc framing has no unknown_promise: none could happen.
    if (load::ErrorKind(k) == load::ErrorKind::unknown_promise && !errors.contains(name)) continue;
    r.errors[k] = u64(errors, "errors", name.c_str());
  }
  r.intended_rate_per_s = o.rate_per_s;
  r.cpu_user_s = num(j, p, "loader_cpu_user_s");
  r.cpu_sys_s = num(j, p, "loader_cpu_sys_s");
  // Files from before several hosts have none: not a coordinated loader.
  if (j.contains("go_to_first_send_ns")) {
    const json& v = j.at("go_to_first_send_ns");
    if (!v.is_number_integer() || v.get<std::int64_t>() < -1)
      fail("go_to_first_send_ns", "expected a whole number >= -1");
    r.go_to_first_send_ns = v.get<std::int64_t>();
  }
  r.latency = histogram_of(at(j, p, "latency"), "latency");
  r.latency_actual = histogram_of(at(j, p, "latency_uncorrected"), "latency_uncorrected");
  return rep;
}

LoadReport merge_load_reports(const std::vector<LoadReport>& reports, const std::vector<std::string>& names) {
  if (reports.empty()) throw std::runtime_error("merge of load results: no result to merge");
  if (names.size() != reports.size())
    throw std::invalid_argument("merge of load results: " + std::to_string(names.size()) + " names for " +
                                std::to_string(reports.size()) + " results");
  const auto first = shared_options(reports[0].options);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const auto other = shared_options(reports[i].options);
    for (std::size_t m = 0; m < first.size(); ++m)
      if (other[m].second != first[m].second)
        throw std::runtime_error(names[i] + ": " + other[m].first + " " + other[m].second + ", " + names[0] +
                                 ": " + first[m].second);
  }
  LoadReport out = reports[0];
  load::Options& o = out.options;
  load::Result& r = out.result;
  // Process-local: they belong to no merged load.
  o.stop = nullptr;
  o.go = nullptr;
  o.cpus.clear();
  r.go_to_first_send_ns = -1;  // each host's own delay; the merge has none
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const load::Options& po = reports[i].options;
    const load::Result& pr = reports[i].result;
    o.connections += po.connections;
    o.threads += po.threads;
    o.rate_per_s += po.rate_per_s;
    // The longest window: the merged rate (responses / elapsed_s) never exceeds the sum of the hosts'.
    r.elapsed_s = std::max(r.elapsed_s, pr.elapsed_s);
    r.stopped = r.stopped || pr.stopped;
    r.requests += pr.requests;
    r.responses += pr.responses;
    r.bytes_sent += pr.bytes_sent;
    r.bytes_received += pr.bytes_received;
    for (int k = 0; k < static_cast<int>(load::ErrorKind::count_); ++k) r.errors[k] += pr.errors[k];
    r.connections_answered += pr.connections_answered;
    r.latency.merge(pr.latency);
    r.latency_actual.merge(pr.latency_actual);
    r.intended_rate_per_s += pr.intended_rate_per_s;
    r.cpu_user_s += pr.cpu_user_s;
    r.cpu_sys_s += pr.cpu_sys_s;
    // The earliest first send; only meaningful when the parts share one clock (one process's loaders).
    if (pr.window_first_send_ns >= 0 &&
        (r.window_first_send_ns < 0 || pr.window_first_send_ns < r.window_first_send_ns))
      r.window_first_send_ns = pr.window_first_send_ns;
  }
  return out;
}

}  // namespace bench
