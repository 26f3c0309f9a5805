// report/findings.hpp — what a run found: the comparisons "What it found"
// states, each two figures of the run compared by stats (paired by round),
// with its verdict. One list for both of its readers: the report, which
// states the decided ones and names the undecided, and zapbench run, which
// gives the cells and microbenchmarks they compare more rounds until each is
// precise (bench). Which figures are compared (the fastest JSON codec, ZAP's
// best connection count) is chosen from the run's medians, as the tables do.
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"

namespace report {

struct Finding {
  enum class Section { micro, logs, e2e, control };
  // What the figures are, for their display: ns per op in process; requests
  // per second; ns of server CPU per request; MB (10^6 bytes) of responses
  // per second.
  enum class Unit { ns, requests_per_s, cpu_ns, mb_per_s };
  Section section = Section::micro;
  std::string title;  // "Decode", "HTTP/1.1, rpc, depth 16, 1 connection"
  Unit unit = Unit::ns;
  std::string subject, baseline;                     // "ZAP", "the fastest JSON, simdjson"
  double subject_value = NAN, baseline_value = NAN;  // medians, in `unit`
  stats::Better better = stats::Better::lower;
  stats::Estimate estimate;  // subject ÷ baseline
  // The figures compared, as zapbench run names what it samples: a cell's
  // id (Cell::id), or "micro/<name>" (MicroFigure::name).
  std::vector<std::string> keys;
  std::string anchor;  // the heading of the table it comes from
};

std::vector<Finding> findings(const Results& r);

// The "micro/" prefix of a finding's key that names a microbenchmark.
inline constexpr std::string_view kMicroKey = "micro/";

}  // namespace report
