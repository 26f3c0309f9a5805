// report/gbench.hpp — Google Benchmark ingestion: the JSON that `zapbench
// micro --json-out` writes (Google Benchmark's own format) read into the
// results model's microbenchmark figures. Owns reading that format only;
// running the benchmarks is `zapbench micro`, started by bench.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "report/model.hpp"

namespace report {

// Adds one sample per repetition ("run_type": "iteration") to the figure of
// the same name in `micro` (creating it in first-seen order): CPU time in ns
// whatever the time unit, allocs/op and wire_bytes from the counters; with
// `round`, each sample is that round's (zapbench run runs one process per
// round). A benchmark that skipped itself adds a note instead (once).
// zapbench-go writes the same format (<op>/go/<codec>), plus an
// "unavailable" list of {name, reason} that goes to
// micro.unavailable_codecs (once each). Throws std::runtime_error when the
// text is not JSON.
void ingest_google_benchmark(const std::string& json_text, Micro& micro, std::vector<std::string>& notes,
                             std::optional<unsigned> round = std::nullopt);

// The Go reference's rows (<op>/go/<codec>, written by zapbench-go) and
// the C++ row each is compared with: go/zap decodes like zap and, building a
// fresh builder per message as the reference does, encodes like zap-fresh;
// go/zap-reset (a reset builder) like zap. "" for a Go JSON codec: its
// counterpart is the fastest C++ JSON codec of the op.
bool is_go_codec(std::string_view codec) noexcept;
std::string go_counterpart(std::string_view op, std::string_view go_codec);

}  // namespace report
