// report/model.cpp — the little arithmetic of the results model: the median,
// range and spread of a figure's samples, a cell's stable key and its
// per-sample series. Everything the report and compare show derives from here.
#include "report/model.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <tuple>

#include "report/paired_figures.hpp"
#include "stats/rng.hpp"

namespace report {

double Samples::median() const { return values.empty() ? 0 : stats::median(values); }

double Samples::min() const { return values.empty() ? 0 : *std::min_element(values.begin(), values.end()); }
double Samples::max() const { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); }

double Samples::spread() const {
  if (values.size() < 2) return 0;
  const double m = median();
  return m == 0 ? 0 : (max() - min()) / m;
}

std::string Cell::id() const {
  std::string s;
  s.append(matrix::to_string(arm)).append("/").append(matrix::to_string(scenario));
  if (scenario == matrix::Scenario::logs) s.append("-").append(std::to_string(logs));
  s.append("/");
  s.append(matrix::to_string(framing)).append("/").append(body);
  s.append("/c").append(std::to_string(connections)).append("/p").append(std::to_string(pipeline));
  if (io != matrix::Io::epoll) s.append("/").append(matrix::to_string(io));
  if (control) s.append("/control");
  return s;
}

namespace {

// One value per sample, with its round when every sample has one.
template <class F>
Samples per_sample(const std::vector<E2ESample>& samples, F value) {
  Samples s;
  bool rounds = true;
  for (const E2ESample& e : samples) {
    s.values.push_back(value(e));
    rounds = rounds && e.round.has_value();
    if (e.round) s.rounds.push_back(*e.round);
  }
  if (!rounds) s.rounds.clear();
  return s;
}

// A seed from the samples' bits: the same figures, the same bootstrap.
std::uint64_t seed_of(const Samples& a, const Samples& b) {
  std::uint64_t h = stats::seed_of("zapbench");
  for (const Samples* s : {&a, &b}) {
    for (double v : s->values) h = (h ^ std::bit_cast<std::uint64_t>(v)) * 0x100000001b3ull;
    for (unsigned r : s->rounds) h = (h ^ r) * 0x100000001b3ull;
  }
  return h;
}

}  // namespace

Samples Cell::rate() const {
  return per_sample(samples, [](const E2ESample& e) { return e.requests_per_s; });
}

std::string go_zap_rpc_server(const std::string& version) {
  return "zap-proto/go " + (version.empty() ? "" : version + " ") + "ZAP-RPC";
}

std::vector<std::string> go_module_paths(const Cell& c) {
  std::vector<std::string> out;
  if (!matrix::is_go_arm(c.arm)) return out;
  if (c.framing != matrix::Framing::zap_rpc) {
    if (c.arm == matrix::Arm::go_fasthttp) out.emplace_back("github.com/valyala/fasthttp");
    if (c.arm == matrix::Arm::go_zip) out.emplace_back("github.com/zap-proto/zip");
  }
  if (c.framing == matrix::Framing::zap_http) out.emplace_back("github.com/zap-proto/http");
  if (c.framing == matrix::Framing::zap_http || c.framing == matrix::Framing::zap_rpc || c.body == "zap")
    out.emplace_back("github.com/zap-proto/go");
  if (c.server_codec == "go/goccy") out.emplace_back("github.com/goccy/go-json");
  if (c.server_codec == "go/sonic") out.emplace_back("github.com/bytedance/sonic");
  return out;
}

void describe_go_cell(Cell& c, const std::map<std::string, std::string>& linked) {
  if (!matrix::is_go_arm(c.arm)) return;
  if (c.framing == matrix::Framing::zap_rpc) {
    const auto it = linked.find("github.com/zap-proto/go");
    c.server = go_zap_rpc_server(it != linked.end() ? it->second : "");
  }
  if (!c.unavailable.empty()) return;
  for (const std::string& path : go_module_paths(c))
    if (const auto it = linked.find(path); it != linked.end()) c.go_modules[path] = it->second;
}

std::string Cell::scenario_label() const {
  std::string s(matrix::to_string(scenario));
  if (scenario == matrix::Scenario::logs) s += " N=" + std::to_string(logs);
  return s;
}

Samples Cell::mb_per_s() const {
  return per_sample(samples, [](const E2ESample& e) {
    return std::isfinite(e.received_mb_per_s) ? e.received_mb_per_s
                                              : e.requests_per_s * e.bytes_received_per_response / 1e6;
  });
}

Samples Cell::p99() const {
  return per_sample(samples, [](const E2ESample& e) { return e.p99_ns; });
}

namespace {

// A server's whole-sample total (CPU time, system calls) per request served:
// ÷ the requests at the window's measured rate over the warm-up and window.
// The totals also hold the drain (and the CPU time the start-up): that is the
// approximation, milliseconds against seconds, exact enough to show where the
// server, not the loader, is the cost. A failed sample (no rate) or one
// without the total gives NaN: the statistics leave it out.
Samples per_request_served(const std::vector<E2ESample>& samples, const Config& c,
                           double (*total)(const E2ESample&)) {
  const double seconds = c.warmup_s + c.duration_s;
  return per_sample(samples, [&](const E2ESample& e) {
    const double t = total(e);
    return e.requests_per_s > 0 && seconds > 0 && std::isfinite(t) ? t / (e.requests_per_s * seconds)
                                                                   : std::nan("");
  });
}

}  // namespace

Samples Cell::server_cpu_per_request_ns(const Config& c) const {
  return per_request_served(samples, c, [](const E2ESample& e) { return e.server_cpu_s * 1e9; });
}

Samples Cell::server_syscalls_per_request(const Config& c) const {
  // The count runs from ready to stop: the warm-up, the window and the drain.
  return per_request_served(samples, c, [](const E2ESample& e) { return e.server_syscalls; });
}

stats::Method method(const Config& c) {
  stats::Method m;
  if (std::isfinite(c.margin)) m.margin = c.margin;
  return m;
}

stats::Estimate paired(const Samples& subject, const Samples& baseline, stats::Better better,
                       const Config& c) {
  if (!has_rounds(subject) || !has_rounds(baseline)) {
    stats::Estimate e;
    e.paired = true;
    if (!subject.values.empty() && !baseline.values.empty()) e.ratio = subject.median() / baseline.median();
    e.why = "no rounds recorded (a results.json from before verdicts): the ratio of medians, no interval";
    return e;
  }
  // The rounds both have (paired_figures.hpp): the figures printed beside the ratio are over the same.
  const Paired p = paired_rounds(subject, baseline);
  return stats::paired(p.subject.values, p.baseline.values, better, seed_of(subject, baseline), method(c));
}

stats::Estimate unpaired(const Samples& subject, const Samples& baseline, stats::Better better,
                         const Config& c, double alpha) {
  return stats::unpaired(subject.values, baseline.values, better, seed_of(subject, baseline), method(c),
                         alpha);
}

double busy_load_threshold(const Results& r) {
  return double(r.env.online_cpus != 0 ? r.env.online_cpus : r.env.cpu_count);
}

}  // namespace report

namespace report {
namespace {

// "-5 is not a rate (expected a finite number >= 0)"
std::string not_a(double v, const char* what) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return std::string(std::isnan(v) ? "NaN (null)" : buf) + " is not " + what +
         " (expected a finite number >= 0)";
}

bool measured(double v) { return std::isfinite(v) && v >= 0; }

}  // namespace

std::string nonsense(const Results& r) {
  for (std::size_t i = 0; i < r.cells.size(); ++i) {
    const Cell& c = r.cells[i];
    const std::string at = "cells[" + std::to_string(i) + "]";
    if (c.unavailable.empty() && c.samples.empty() && r.interrupted.empty())
      return at +
             ".samples: empty, though the cell ran (a cell that could not run says why in \"unavailable\")";
    for (std::size_t k = 0; k < c.samples.size(); ++k) {
      const E2ESample& s = c.samples[k];
      const std::string sp = at + ".samples[" + std::to_string(k) + "].";
      for (const auto& [name, v, what] :
           {std::tuple{"requests_per_s", s.requests_per_s, "a rate"},
            std::tuple{"p50_ns", s.p50_ns, "a latency"}, std::tuple{"p90_ns", s.p90_ns, "a latency"},
            std::tuple{"p99_ns", s.p99_ns, "a latency"}, std::tuple{"p999_ns", s.p999_ns, "a latency"},
            std::tuple{"max_ns", s.max_ns, "a latency"}, std::tuple{"mean_ns", s.mean_ns, "a latency"},
            std::tuple{"bytes_sent_per_request", s.bytes_sent_per_request, "a size"},
            std::tuple{"bytes_received_per_response", s.bytes_received_per_response, "a size"},
            std::tuple{"loader_cpu_s", s.loader_cpu_s, "a CPU time"},
            std::tuple{"server_cpu_s", s.server_cpu_s, "a CPU time"}})
        if (!measured(v)) return sp + name + ": " + not_a(v, what);
      // Optional figures: NaN is "not measured", anything else must be one.
      for (const auto& [name, v, what] : {std::tuple{"server_syscalls", s.server_syscalls, "a count"},
                                          std::tuple{"received_mb_per_s", s.received_mb_per_s, "a rate"},
                                          std::tuple{"load_avg_1m", s.load_avg_1m, "a load average"}})
        if (!std::isnan(v) && !measured(v)) return sp + name + ": " + not_a(v, what);
    }
  }
  for (std::size_t i = 0; i < r.micro.figures.size(); ++i) {
    const MicroFigure& f = r.micro.figures[i];
    const std::string at = "micro.figures[" + std::to_string(i) + "]";
    if (f.ns_per_op.values.empty()) return at + ".ns_per_op: empty (a row that ran has a value per round)";
    for (std::size_t k = 0; k < f.ns_per_op.values.size(); ++k)
      if (!measured(f.ns_per_op.values[k]))
        return at + ".ns_per_op[" + std::to_string(k) + "]: " + not_a(f.ns_per_op.values[k], "a time");
    if (!measured(f.allocs_per_op)) return at + ".allocs_per_op: " + not_a(f.allocs_per_op, "a count");
    if (!measured(f.wire_bytes)) return at + ".wire_bytes: " + not_a(f.wire_bytes, "a size");
  }
  const std::vector<InstructionFigure>& ins = r.micro.instructions.figures;
  for (std::size_t i = 0; i < ins.size(); ++i)
    for (const auto& [name, v] : {std::pair{"callgrind_ir", ins[i].callgrind_ir},
                                  std::pair{"perf_instructions", ins[i].perf_instructions}})
      if (!std::isnan(v) && !measured(v))
        return "micro.instructions.figures[" + std::to_string(i) + "]." + name + ": " + not_a(v, "a count");
  for (std::size_t i = 0; i < r.calibration.ping_pongs.size(); ++i) {
    const PingPong& p = r.calibration.ping_pongs[i];
    const std::string at = "calibration.ping_pongs[" + std::to_string(i) + "].";
    for (const auto& [name, s, what] : {std::tuple{"round_trips_per_s", &p.round_trips_per_s, "a rate"},
                                        std::tuple{"p99_ns", &p.p99_ns, "a latency"},
                                        std::tuple{"server_cpu_ns", &p.server_cpu_ns, "a CPU time"}})
      for (std::size_t k = 0; k < s->values.size(); ++k)
        if (!measured(s->values[k]))
          return at + name + "[" + std::to_string(k) + "]: " + not_a(s->values[k], what);
  }
  return "";
}

}  // namespace report
