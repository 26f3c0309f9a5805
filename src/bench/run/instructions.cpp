// bench/run/instructions.cpp — callgrind and perf around `zapbench instructions
// --one CASE` (instructions.hpp).
#include "bench/run/instructions.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "bench/children/supervisor.hpp"
#include "proc/sanitized.hpp"

namespace bench {
namespace {

constexpr double kHangS = 600;  // a child that takes longer is stuck, not slow
// The functions callgrind collects in: micro::RequestPath::run_batches, which
// only loops over run_batch(), and micro::CodecRun::run_ops, which only loops
// over a codec op (their symbols, demangled, with any parameters).
constexpr const char* kCollect = "--toggle-collect=micro::RequestPath::run_batches*";
constexpr const char* kCollectOps = "--toggle-collect=micro::CodecRun::run_ops*";

std::string tail(const std::string& text, std::size_t max_bytes = 2000) {
  return text.size() <= max_bytes ? text : "…" + text.substr(text.size() - max_bytes);
}

// Runs argv to completion with its output in log; true when it exited 0.
bool run_child(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  Child child(ChildSpec{argv, {}, log.string(), false, {}});
  return child.wait(kHangS).ok();
}

std::vector<std::string> one_case(const InstructionOptions& o, const std::string& name,
                                  std::uint64_t requests) {
  return {o.self, "instructions", "--one", name, "--requests", std::to_string(requests)};
}

// The "totals:" (or "summary:") line of a callgrind output file: the Ir it collected.
std::optional<double> callgrind_total(const std::filesystem::path& out) {
  std::istringstream in(proc::read_file(out));
  std::optional<double> summary;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("totals:")) return std::stod(line.substr(7));
    if (line.starts_with("summary:")) summary = std::stod(line.substr(8));
  }
  return summary;
}

// perf stat -x, output: "<value>,<unit>,instructions:u,…"; nullopt with the
// reason when the counter is not there.
std::optional<double> perf_count(const std::filesystem::path& out, std::string& why) {
  std::istringstream in(proc::read_file(out));
  for (std::string line; std::getline(in, line);) {
    if (line.find("instructions") == std::string::npos) continue;
    const std::string value = line.substr(0, line.find(','));
    if (value.find("not supported") != std::string::npos) {
      why =
          "perf: the instructions counter is not supported on this machine (no hardware counters; usual in a "
          "VM)";
      return std::nullopt;
    }
    if (value.find("not counted") != std::string::npos) {
      why = "perf: the instructions counter was not counted";
      return std::nullopt;
    }
    try {
      return std::stod(value);
    } catch (const std::exception&) {
      break;
    }
  }
  why = "perf: no instructions count in its output: " + tail(proc::read_file(out), 300);
  return std::nullopt;
}

// A count per request, rounded; "—" when not measured.
std::string whole(double v) {
  if (!std::isfinite(v)) return "—";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

void count_instructions(const InstructionOptions& o, report::Instructions& c,
                        const std::function<void(const std::string&)>& progress) {
  c = report::Instructions{};
  c.requests = o.requests;
  const std::string valgrind = proc::find_program("valgrind");
  std::string perf = o.perf ? proc::find_program("perf") : "";
#if ZAPBENCH_SANITIZED
  // valgrind cannot run a binary built with a sanitizer (shadow memory).
  c.callgrind_unavailable =
      "this zapbench is built with a sanitizer, which valgrind cannot run (use the release build)";
#else
  if (valgrind.empty()) {
    c.callgrind_unavailable = "valgrind is not installed (Debian package valgrind)";
  } else {
    const auto log = o.work_dir / "valgrind-version.log";
    if (run_child({valgrind, "--version"}, log)) {
      c.tools = proc::read_file(log);
      while (!c.tools.empty() && c.tools.back() == '\n') c.tools.pop_back();
    }
  }
#endif
  if (!o.perf)
    c.perf_unavailable = "perf: not asked for (--no-perf)";
  else if (perf.empty())
    c.perf_unavailable = "perf is not installed (Debian package linux-perf)";

  for (std::size_t i = 0; i < o.cases.size(); ++i) {
    const std::string& name = o.cases[i];
    report::InstructionFigure f;
    f.name = name;
    if (c.callgrind_unavailable.empty()) {
      const auto out = o.work_dir / ("callgrind-" + std::to_string(i) + ".out");
      const auto log = o.work_dir / ("callgrind-" + std::to_string(i) + ".log");
      std::vector<std::string> argv = {valgrind, "--tool=callgrind", "--callgrind-out-file=" + out.string(),
                                       kCollect, kCollectOps};
      for (std::string& a : one_case(o, name, o.requests)) argv.push_back(std::move(a));
      if (!run_child(argv, log))
        throw std::runtime_error("instructions: " + name + " under callgrind failed:\n" +
                                 tail(proc::read_file(log)));
      const std::optional<double> ir = callgrind_total(out);
      if (!ir || *ir <= 0)
        throw std::runtime_error(
            "instructions: callgrind collected nothing for " + name +
            " (are micro::RequestPath::run_batches and micro::CodecRun::run_ops in the binary?)");
      f.callgrind_ir = *ir / static_cast<double>(o.requests);
    }
    if (c.perf_unavailable.empty()) {
      // Two runs, the second with 4× the requests: start-up cancels in the difference.
      double counts[2] = {0, 0};
      const std::uint64_t requests[2] = {o.requests, 4 * o.requests};
      for (int k = 0; k < 2 && c.perf_unavailable.empty(); ++k) {
        const auto out = o.work_dir / ("perf-" + std::to_string(i) + "-" + std::to_string(k) + ".txt");
        const auto log = o.work_dir / ("perf-" + std::to_string(i) + "-" + std::to_string(k) + ".log");
        std::vector<std::string> argv = {perf, "stat",       "-x,", "-e", "instructions:u",
                                         "-o", out.string(), "--"};
        for (std::string& a : one_case(o, name, requests[k])) argv.push_back(std::move(a));
        if (!run_child(argv, log)) {
          c.perf_unavailable = "perf stat failed: " + tail(proc::read_file(log), 300);
          break;
        }
        if (const std::optional<double> n = perf_count(out, c.perf_unavailable)) counts[k] = *n;
      }
      if (c.perf_unavailable.empty())
        f.perf_instructions = (counts[1] - counts[0]) / static_cast<double>(requests[1] - requests[0]);
    }
    if (progress)
      progress(name + ": callgrind " + whole(f.callgrind_ir) + ", perf " + whole(f.perf_instructions));
    c.figures.push_back(std::move(f));
  }
}

std::string instructions_markdown(const report::Instructions& c) {
  std::string s = "| case | instructions per request or op (callgrind Ir) | per request or op (perf) |\n";
  s += "|---|---:|---:|\n";
  for (const report::InstructionFigure& f : c.figures)
    s += "| " + f.name + " | " + whole(f.callgrind_ir) + " | " + whole(f.perf_instructions) + " |\n";
  if (!c.callgrind_unavailable.empty()) s += "\ncallgrind unavailable: " + c.callgrind_unavailable + "\n";
  if (!c.perf_unavailable.empty()) s += "\nperf unavailable: " + c.perf_unavailable + "\n";
  return s;
}

}  // namespace bench
