// bench/run/conformance.hpp — h2spec, the HTTP/2 conformance suite (pinned in
// go/tools, built beside the Go arm), against zapbench's HTTP/2 server and
// every other arm the run has on HTTP/2, once per run after its rounds: each
// server started as its first available HTTP/2 hello cell's (the same launch,
// the same CPUs), the suite on /health, its cases counted and the failed ones
// named into Results::conformance. Which arms: the cells say, never a name.
// Not over several hosts (the suite would run here, the server there).
#pragma once

#include <string>
#include <vector>

#include "bench/plan/plan.hpp"
#include "bench/run/sample.hpp"
#include "report/model.hpp"

namespace bench {

// h2spec: $ZAPBENCH_H2SPEC, else the one this build made beside its Go arm
// (<build>/go/h2spec). "" with `why` set (go-build.sh's recorded reason) when
// there is none.
std::string find_h2spec(std::string& why);

// What h2spec's output (`text`: its log, whose last line counts the cases) and
// its JUnit report (`junit`) say: cases, passed, skipped and failed, and each
// failed case as "<package>: <case>" ("http2/3.5: Sends invalid connection
// preface"; h2spec writes those as <error>). False when the log has no count line.
bool read_h2spec(const std::string& text, const std::string& junit, report::Conformance& c);

// The cells whose servers h2spec runs against: each arm's first HTTP/2 hello
// cell on epoll that can run, in the cells' order.
std::vector<const CellPlan*> conformance_servers(const std::vector<CellPlan>& cells);
// What one of them takes (measured: 2 s of cases, the server's start and stop).
inline constexpr double kConformancePerServerS = 3;

// One row per arm with an HTTP/2 hello cell that can run, in the cells' order.
void run_conformance(const SampleContext& ctx, const std::vector<CellPlan>& cells, report::Results& res);

}  // namespace bench
