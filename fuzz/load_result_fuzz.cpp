// fuzz/load_result_fuzz.cpp — libFuzzer target for the load result file
// (bench/children/load_result.hpp) as the coordinator reads it from another host:
// parse_load_result, then merge_load_reports of the report with itself
// (docs/spec/hosts.md §5). Any input either throws std::runtime_error
// starting "load result: " or gives a report such that
//   - written back (load_result_json) it reads back and writes the same text
//     (a fixed point: nothing is lost or invented between hosts);
//   - merged with itself it never throws, doubles the counts, both
//     histograms' counts and the connections, keeps elapsed_s, and the merge
//     writes a file that reads back.
// Any other exception, crash or sanitizer report is a finding. Seeds: real
// result files of short local loads, fuzz/load_result_seeds/.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bench/children/load_result.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  bench::LoadReport r;
  try {
    r = bench::parse_load_result(text);
  } catch (const std::runtime_error& e) {
    check(std::string_view(e.what()).starts_with("load result: "));
    return 0;
  }
  const std::string written = bench::load_result_json(r.options, r.result);
  const bench::LoadReport back = bench::parse_load_result(written);  // throws (a finding) if it does not read
  check(bench::load_result_json(back.options, back.result) == written);

  const bench::LoadReport m = bench::merge_load_reports({r, r}, {"a.json", "b.json"});
  check(m.result.requests == 2 * r.result.requests);
  check(m.result.responses == 2 * r.result.responses);
  check(m.result.error_total() == 2 * r.result.error_total());
  check(m.result.latency.count() == 2 * r.result.latency.count());
  check(m.result.latency_actual.count() == 2 * r.result.latency_actual.count());
  check(m.options.connections == 2 * r.options.connections);
  check(m.result.elapsed_s == r.result.elapsed_s);
  bench::parse_load_result(bench::load_result_json(m.options, m.result));
  return 0;
}
