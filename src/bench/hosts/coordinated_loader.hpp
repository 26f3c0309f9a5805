// bench/hosts/coordinated_loader.hpp — one loader host's side of a load over
// several hosts (docs/spec/hosts.md §4), what `zapbench load --coordinated`
// runs: the coordinator's commands read on stdin (`go` starts the windows,
// `stop` ends them as SIGINT would, its end of file ends the process), and on
// stdout, which carries nothing else, `warm` once every thread is past its
// warm-up, `go-ack` for each `go`, and the result last. The lines' bytes are
// remote_protocol's; the coordinator's side is loaders.cpp's; the report is
// the caller's (cli/load.cpp).
#pragma once

#include "load/engine.hpp"

namespace bench {

// Runs the load `o` as a coordinated loader: its windows start on `go`;
// `on_stop` is called, from the thread that reads stdin, on `stop`, and must
// end the load as SIGINT does (through o.stop). The result's
// go_to_first_send_ns is set (from reading `go` to the first send of the
// window). The thread that reads stdin never returns (its end of file ends
// the process, exit 3, as does a coordinator gone from stdout): one per
// process. Throws what load::run throws.
load::Result run_coordinated_load(load::Options o, void (*on_stop)());

// `result BYTES\n` and the result file (bench::load_result_json) on stdout:
// the loader's last words, after its report.
void send_load_result(const load::Options& o, const load::Result& r);

}  // namespace bench
