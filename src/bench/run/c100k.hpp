// bench/run/c100k.hpp — the c100k scenario (`zapbench run --scenarios c100k`,
// issue 47 item 3): N idle connections (100,000 by default) held open on one
// zapbench server, on one backend (`--io`), while a small `zapbench load`
// sample on other connections of the same server is answered the whole time.
// Owns the holding side (this process opens the N connections, spread over
// the source addresses 127.0.0.2... so one address's ephemeral ports do not
// bound them, IP_BIND_ADDRESS_NO_PORT then bind before connect), the
// descriptor limits it raises and restores (per process, RLIMIT_NOFILE; no
// sysctl is changed), what it measures (accept time, the server's RSS and the
// kernel's socket memory before and with the N held, the sample's figures)
// and the refusal: a limit hit (descriptors, ephemeral ports, memory) stops
// the connecting with "reached K of N: <limit> (<value>)"; the server keeps
// answering the K it has. Every wait has a deadline; every connection, child
// and limit is given back however it ends.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix/matrix.hpp"
#include "report/model.hpp"

namespace bench {

// The name --scenarios gives it (not a matrix::Scenario: it has no cells).
inline constexpr std::string_view kC100kScenario = "c100k";

struct C100kOptions {
  matrix::Io io = matrix::Io::epoll;  // the server's backend
  std::uint64_t connections = 100'000;
  double hold_s = 10;                // the sample's window, with all of them held
  unsigned sample_connections = 64;  // the sample's own connections (besides the N)
  double sample_rate_per_s = 1000;   // the sample's open-loop rate: answered, not saturated
  std::vector<int> server_cpus, loader_cpus;
  std::string zapbench;  // the binary (serve, load)
  std::string dir;       // the server's and the loader's logs, the load's result file
  // This process's RLIMIT_NOFILE soft limit while it connects; 0: raised to
  // what `connections` needs. A test lowers it to see the refusal.
  std::uint64_t fd_limit = 0;
  // Source addresses (127.0.0.2 on), connections spread round robin; 0: one
  // per kConnectionsPerSource.
  unsigned sources = 0;
  double deadline_s = 120;  // the hang bound of every wait (connecting, accepting, closing)
};

// Connections per source address: under the default ephemeral range
// (32768-60999, 28,232 ports) with room for the machine's other connections.
inline constexpr std::uint64_t kConnectionsPerSource = 20'000;

// Runs the scenario once. Never throws for a limit or a server failure:
// C100k::limit / C100k::error say it, with what was reached; throws
// proc::Interrupted on an interrupt (everything given back first).
report::C100k run_c100k(const C100kOptions& o);

// "reached 512 of 2000: descriptors (RLIMIT_NOFILE 512)", "100000 of 100000
// held" ...: the line a run prints and the report's summary of a row.
std::string c100k_summary(const report::C100k& c);

// Whether the row met the scenario: all N held, the sample answered without
// an error, everything closed and no descriptor left.
bool c100k_ok(const report::C100k& c);

}  // namespace bench
