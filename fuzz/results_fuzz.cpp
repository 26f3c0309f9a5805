// fuzz/results_fuzz.cpp — libFuzzer target for results.json as `zapbench
// report` and `zapbench compare` read it (a file a user may have edited, or
// one an older zapbench wrote): report::from_json, then everything that reads
// the model — the findings, report.md, report.html, nonsense(), compare
// against itself (its text and its gate).
// Any input either throws std::runtime_error starting "results.json: " or
// loads such that
//   - written back it reads back and writes the same text (a fixed point);
//   - the reports render, and render the same twice (seeded statistics);
//   - compare of the run with itself calls no figure and no group improved or
//     regressed, and its gate passes.
// Any other exception, crash or sanitizer report is a finding. Seeds:
// fuzz/results_seeds/ (a small run's results.json, with and without rounds,
// and one with the calibration).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "report/compare.hpp"
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
  (void)report::nonsense(r);
  const report::Comparison cmp = report::compare(r, r);
  for (const report::Change& c : cmp.changes)
    check(c.verdict != report::Change::Verdict::improved && c.verdict != report::Change::Verdict::regressed);
  for (const report::Group& g : cmp.groups)
    check(g.verdict != report::Change::Verdict::improved && g.verdict != report::Change::Verdict::regressed);
  check(!report::gate_failures(cmp).any());
  (void)report::compare_text(cmp, true);
  return 0;
}
