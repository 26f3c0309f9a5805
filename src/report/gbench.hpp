// report/gbench.hpp — Google Benchmark ingestion: the JSON that `zapbench
// micro --json-out` writes (Google Benchmark's own format) read into the
// results model's microbenchmark figures. Owns reading that format only;
// running the benchmarks is `zapbench micro`, started by bench.
#pragma once

#include <string>
#include <vector>

#include "report/model.hpp"

namespace report {

// Adds one sample per repetition ("run_type": "iteration") to the figure of
// the same name in `micro` (creating it in first-seen order): CPU time in ns
// whatever the time unit, allocs/op and wire_bytes from the counters. A
// benchmark that skipped itself adds a note instead. Throws
// std::runtime_error when the text is not JSON.
void ingest_google_benchmark(const std::string& json_text, Micro& micro, std::vector<std::string>& notes);

}  // namespace report
