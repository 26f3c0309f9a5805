// fuzz/results_fuzz.cpp — libFuzzer target for results.json as `zapbench
// report` and `zapbench compare` read it (a file a user may have edited, or
// one an older zapbench wrote): report::from_json, then everything that reads
// the model — the findings, report.md, report.html, compare against itself.
// Any input either throws std::runtime_error starting "results.json: " or
// loads such that
//   - written back it reads back and writes the same text (a fixed point);
//   - the reports render, and render the same twice (seeded statistics);
//   - compare of the run with itself calls nothing improved or regressed.
// Any other exception, crash or sanitizer report is a finding. Seeds:
// fuzz/results_seeds/ (a small run's results.json, with and without rounds).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "report/findings.hpp"
#include "report/model.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 64 * 1024) return 0;  // a report per input: keep each one quick
  const std::string text(reinterpret_cast<const char*>(data), size);
  report::Results r;
  try {
    r = report::from_json(text);
  } catch (const std::runtime_error& e) {
    check(std::string_view(e.what()).starts_with("results.json: "));
    return 0;
  }
  const std::string written = report::to_json(r);
  check(report::to_json(report::from_json(written)) == written);
  (void)report::findings(r);
  const std::string md = report::markdown(r);
  check(report::markdown(r) == md);
  (void)report::html(r);
  for (const report::Change& c : report::compare(r, r).changes)
    check(c.verdict != report::Change::Verdict::improved && c.verdict != report::Change::Verdict::regressed);
  return 0;
}
