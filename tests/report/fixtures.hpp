// tests/report/fixtures.hpp — the runs the report tests render and compare:
// synthetic() (every member of the model set) and its variants (binary peers,
// eight samples, logs cells and microbenchmarks, several hosts), the cells and
// figures they are made of, and two small checks (contains, error_of).
#pragma once

#include <string>

#include "report/model.hpp"

namespace fixtures {

using report::Cell;
using report::E2ESample;
using report::Results;

// A cell whose three samples have medians `rate_per_s` and `p99_us`, spread
// 3% (or as given by lo/hi factors).
// The axes by their stable names (matrix/matrix.hpp), as results.json spells them.
Cell named_cell(const std::string& arm, const std::string& scenario, const std::string& framing,
                std::string body, unsigned conns, unsigned pipeline);

Cell cell(const std::string& arm, const std::string& scenario, const std::string& framing, std::string body,
          unsigned conns, unsigned pipeline, double rate_per_s, double p99_us, double lo = 0.98,
          double hi = 1.01);

report::MicroFigure figure(const std::string& op, const std::string& codec, double ns, double allocs,
                           double wire);

// Every member of the model set to something other than its default.
Results synthetic();

bool contains(const std::string& s, const std::string& what);

std::string error_of(const std::string& text);

// A run with binary peers: grouped with ZAP as binary, compared with as the fastest binary peer (never a
// decoder for trusted input only), and summarised first ("What it found").
Results with_peers();

// `r` as a run before verdicts wrote it: no round on any sample or microbenchmark.
Results without_rounds(Results r);

// Every cell and microbenchmark of `r` with 8 samples, spread ±3% in a fixed pattern: enough for
// compare's test (it needs 5 a side).
Results with_eight_samples(Results r);

// The logs scenario: cells keyed by N, a group per N and depth, requests/s and MB/s tables, and ZAP's MB/s
// against the floor's (which carries ZAP's byte counts at that N).
Results with_logs_cells();

// The synthetic run as if measured with two loader hosts over ssh: the hosts in the
// environment, and on one cell (ZAP + ZAP, rpc, depth 16, 10 connections) each
// sample's per-host rows and start skew; the second host failed in the third sample.
Results with_hosts();

// The logs microbenchmarks (Logs/<op>/<codec>/<N>) at N = 1, 10, 1000: ZAP
// flat in AccessOne, linear elsewhere; direct linear everywhere; the limits.
Results with_logs();

// The synthetic run with the io axis: the io_uring copy (io_uring_of) of each
// rpc cell with a ZAP body of zapbench's server (HTTP/1.1 and ZAP-HTTP; at
// depth 16 ZAP-HTTP only) and of the floor's, the same rates, the server's CPU
// time × 0.9 (zapbench) and × 0.8 (the floor) in every round.
Results with_io_uring();
// `c` with its server on io_uring: its id, its server's command line and its
// server CPU time (× cpu_factor in every sample).
Cell io_uring_of(Cell c, double cpu_factor);
// `r` with the server's system calls counted in every sample: per request
// served (over warm-up and window at the sample's rate, as the report divides)
// `epoll` for a cell on epoll, `io_uring` for one on io_uring.
Results with_syscalls(Results r, double epoll, double io_uring);

// The shape of a quick run (zapbench run --quick): binary peers with long names
// (flatbuffers-trusted), one connection count at depth 16 (every end-to-end
// series one point there), the grpc++ arm, the logs microbenchmarks at
// N = 1, 100, 10,000 with the limits at every N between, and logs cells.
Results quick_shaped();

}  // namespace fixtures
