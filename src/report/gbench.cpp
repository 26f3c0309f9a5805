// report/gbench.cpp — Google Benchmark's JSON into MicroFigures (gbench.hpp).
#include "report/gbench.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace report {
namespace {

// Google Benchmark writes NaN for some aggregates, which JSON has no word for.
std::string json_without_nan(std::string s) {
  for (const char* bad : {"-NaN", "NaN", "-nan", "nan", "-Infinity", "Infinity", "-inf", "inf"}) {
    const std::string needle = std::string(": ") + bad;
    for (std::size_t pos; (pos = s.find(needle)) != std::string::npos;)
      s.replace(pos, needle.size(), ": null");
  }
  return s;
}

double ns_of(double v, const std::string& unit) {
  if (unit == "us") return v * 1e3;
  if (unit == "ms") return v * 1e6;
  if (unit == "s") return v * 1e9;
  return v;
}

}  // namespace

void ingest_google_benchmark(const std::string& json_text, Micro& micro, std::vector<std::string>& notes,
                             std::optional<unsigned> round) {
  auto note_once = [&](const std::string& n) {
    if (std::find(notes.begin(), notes.end(), n) == notes.end()) notes.push_back(n);
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json_without_nan(json_text));
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("microbenchmark output unreadable: ") + e.what());
  }
  for (const auto& b : j.value("benchmarks", nlohmann::json::array())) {
    if (b.value("run_type", "") != "iteration") continue;
    const std::string name = b.value("run_name", b.value("name", ""));
    if (b.value("error_occurred", false)) {
      note_once("microbenchmark " + name + " skipped itself: " + b.value("error_message", ""));
      continue;
    }
    auto it = std::find_if(micro.figures.begin(), micro.figures.end(),
                           [&](const MicroFigure& f) { return f.name == name; });
    if (it == micro.figures.end()) {
      MicroFigure f;
      f.name = name;
      const auto slash = name.find('/');
      f.op = name.substr(0, slash);
      f.codec = slash == std::string::npos ? "" : name.substr(slash + 1);
      micro.figures.push_back(f);
      it = micro.figures.end() - 1;
    }
    it->ns_per_op.values.push_back(ns_of(b.value("cpu_time", 0.0), b.value("time_unit", "ns")));
    if (round) it->ns_per_op.rounds.push_back(*round);
    if (b.contains("allocs/op") && b["allocs/op"].is_number())
      it->allocs_per_op = b["allocs/op"].get<double>();
    if (b.contains("wire_bytes") && b["wire_bytes"].is_number())
      it->wire_bytes = b["wire_bytes"].get<double>();
  }
  // zapbench-go's extension of the format: what its build could not measure, and why.
  for (const auto& u : j.value("unavailable", nlohmann::json::array()))
    if (u.is_object() && u.contains("name") && u["name"].is_string()) {
      const std::string name = u["name"].get<std::string>();
      if (std::none_of(micro.unavailable_codecs.begin(), micro.unavailable_codecs.end(),
                       [&](const Unavailable& x) { return x.name == name; }))
        micro.unavailable_codecs.push_back({name, u.value("reason", "")});
    }
}

bool is_go_codec(std::string_view codec) noexcept { return codec.starts_with("go/"); }

std::string go_counterpart(std::string_view op, std::string_view go_codec) {
  if (go_codec == "go/zap") return op == "Decode" ? "zap" : "zap-fresh";
  if (go_codec == "go/zap-reset") return "zap";
  return "";
}

}  // namespace report
