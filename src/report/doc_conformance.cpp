// report/doc_conformance.cpp — the report's HTTP/2 conformance section
// (Results::conformance, bench/run/conformance.hpp): h2spec's cases against
// zapbench's HTTP/2 server and each HTTP/2 arm beside it, passed, skipped and
// failed, the failed cases named, the commands. Absent when the run had none.
#include "report/document_parts.hpp"

namespace report::doc {

void conformance(const Results& r, Out& out) {
  if (r.conformance.empty()) return;
  out.heading(2, "HTTP/2 conformance (h2spec)", "conformance");
  out.para(
      {"h2spec, the HTTP/2 conformance suite (pinned in go/tools), against each arm's HTTP/2 server as the "
       "run starts it for its hello cells (the same launch, the same CPUs), on `/health`, once per run. A "
       "failed case is a place where the server answers a protocol error otherwise than RFC 7540 asks; it "
       "says nothing of speed, but a server that skips checks may be faster for it, so each speed finding "
       "against an arm reads beside its row here."});
  Table t;
  t.header = {"server", "cases", "passed", "skipped", "failed", "failed cases"};
  t.align = "lrrrrl";
  for (const Conformance& c : r.conformance) {
    if (!c.unavailable.empty()) {
      t.rows.push_back({c.arm, "—", "—", "—", "—", "not run: " + c.unavailable});
      continue;
    }
    std::string failures;
    for (const std::string& f : c.failures) failures += (failures.empty() ? "" : "; ") + f;
    t.rows.push_back({c.arm, std::to_string(c.cases), std::to_string(c.passed), std::to_string(c.skipped),
                      std::to_string(c.failed), failures.empty() ? "—" : failures});
  }
  out.table(std::move(t));
  std::string commands;
  for (const Conformance& c : r.conformance)
    if (!c.command.empty()) commands += c.arm + ": " + c.command + "\n";
  if (!commands.empty()) out.code("Commands", commands);
}

}  // namespace report::doc
