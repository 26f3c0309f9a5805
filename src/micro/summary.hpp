// micro/summary.hpp — turns Google Benchmark runs into zapbench's summary: a
// table of codec × {decode, encode, serde, handler} × {ns/op, allocs/op},
// wire sizes, and the headline ratios against the fastest JSON codec; the request
// path, the logs record and the calibration (Calibrate/<work>) in tables of their own.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "report/model.hpp"

namespace micro {

struct Result {
  std::string op;     // Decode, Encode, Serde, Handler
  std::string codec;  // zap, zap-fresh, direct, ...
  double ns_per_op = 0;
  double allocs_per_op = 0;
  double wire_bytes = 0;
  std::string error;  // set when the benchmark skipped itself
};

// Prints Google Benchmark's console output as usual and keeps one Result per
// benchmark: the median when repetitions were asked for, else the single run.
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;
  void ReportRuns(const std::vector<Run>& runs) override;
  [[nodiscard]] const std::vector<Result>& results() const { return results_; }

 private:
  std::vector<Result> results_;
};

// The summary table and the ratios; codecs unavailable in this build are
// listed with the reason.
void print_summary(std::FILE* out, const std::vector<Result>& results);

// The Go reference's rows (zapbench-go micro: <op>/go/<codec>) beside their
// C++ counterparts in `cpp` (report::go_counterpart), with the C++ ÷ Go
// ratio; then what the Go build could not measure and why.
void print_go_summary(std::FILE* out, const std::vector<Result>& cpp, const std::vector<Result>& go,
                      const std::vector<report::Unavailable>& unavailable);

}  // namespace micro
