// report/model.cpp — the little arithmetic of the results model: the median,
// range and spread of a figure's samples, a cell's stable key and its
// per-sample series. Everything the report and compare show derives from here.
#include "report/model.hpp"

#include <algorithm>

namespace report {

double Samples::median() const {
  if (values.empty()) return 0;
  std::vector<double> v = values;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  // Even count: the mean of the two middle values (the lower one is the
  // largest element left of mid after nth_element).
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + v[mid]) / 2;
}

double Samples::min() const { return values.empty() ? 0 : *std::min_element(values.begin(), values.end()); }
double Samples::max() const { return values.empty() ? 0 : *std::max_element(values.begin(), values.end()); }

double Samples::spread() const {
  if (values.size() < 2) return 0;
  const double m = median();
  return m == 0 ? 0 : (max() - min()) / m;
}

std::string Cell::id() const {
  std::string s;
  s.append(bench::to_string(arm)).append("/").append(bench::to_string(scenario));
  if (scenario == bench::Scenario::logs) s.append("-").append(std::to_string(logs));
  s.append("/");
  s.append(bench::to_string(framing)).append("/").append(body);
  return s + "/c" + std::to_string(connections) + "/p" + std::to_string(pipeline);
}

Samples Cell::rate() const {
  Samples s;
  for (const E2ESample& e : samples) s.values.push_back(e.requests_per_s);
  return s;
}

std::string Cell::scenario_label() const {
  std::string s(bench::to_string(scenario));
  if (scenario == bench::Scenario::logs) s += " N=" + std::to_string(logs);
  return s;
}

Samples Cell::mb_per_s() const {
  Samples s;
  for (const E2ESample& e : samples)
    s.values.push_back(std::isfinite(e.received_mb_per_s)
                           ? e.received_mb_per_s
                           : e.requests_per_s * e.bytes_received_per_response / 1e6);
  return s;
}

Samples Cell::p99() const {
  Samples s;
  for (const E2ESample& e : samples) s.values.push_back(e.p99_ns);
  return s;
}

double busy_load_threshold(const Results& r) {
  return double(r.env.online_cpus != 0 ? r.env.online_cpus : r.env.cpu_count);
}

}  // namespace report
