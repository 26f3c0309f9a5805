// bench/children/load_result.hpp — the load result file: what `zapbench load
// --json-out FILE` writes and what `zapbench run` reads back, in one module
// (nlohmann/json, so every string is escaped). It carries the options the
// load ran with, every figure of load::Result and both latency histograms
// bucket by bucket, so a reader can rebuild them exactly (merge loaders,
// re-take any percentile), and the exact merge of several loaders' files
// (merge_load_reports). Owns the format and the merge: no measuring, no report.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "load/engine.hpp"

namespace bench {

inline constexpr const char* kLoadResultTool = "zapbench load";

// One load run as the file describes it. options.json is resolved through
// record's registry (nullptr for ZAP bodies and the floor); options.stop and
// options.cpus are not recorded (a process-local flag; the pinning is on the
// command line).
struct LoadReport {
  load::Options options;
  load::Result result;
};

// The file's text. Latency histograms keep every non-empty bucket as
// [low_ns, high_ns, count] and their exact totals (u128 sums as decimal
// strings), so reading gives back equal histograms. Result::go_to_first_send_ns
// is written always (-1: not a coordinated loader); window_first_send_ns is
// not (a process-local clock) and reads back as -1.
std::string load_result_json(const load::Options& options, const load::Result& result);

// Reads what load_result_json wrote. Throws std::runtime_error naming the
// member that is missing or wrong (and for histograms whose buckets and
// totals disagree). A file without go_to_first_send_ns (written before
// several hosts) reads it as -1.
LoadReport parse_load_result(const std::string& text);

// The exact merge of several loaders' reports of one load (docs/spec/hosts.md
// §5): counts, bytes, errors and connections answered summed, both latency
// histograms merged bucket by bucket with their exact totals; options'
// connections, threads and rate summed, every other option equal; elapsed_s
// the longest; stopped if any was. `names` (files or hosts, one per report)
// name the two that disagree in the std::runtime_error thrown when an option
// differs ("B.json: framing zap, A.json: http"), or when `reports` is empty.
// Options compared as the file records them: framing, scenario, body, logs,
// addr, pipeline, timeout_ms, duration_s, warmup_s, request_bytes,
// response_bytes. window_first_send_ns: the earliest (-1 when none; only
// meaningful for parts on one clock); go_to_first_send_ns: -1 (per host);
// cpu user/sys summed; options' stop, go and cpus cleared. Throws
// std::invalid_argument when names.size() != reports.size().
LoadReport merge_load_reports(const std::vector<LoadReport>& reports, const std::vector<std::string>& names);

}  // namespace bench
