// bench/children/load_command.hpp — the loader's command line from load::Options: the
// one place `zapbench run` (or anyone) turns the options of a load into the
// arguments of `zapbench load`. `zapbench load` parses them back into the
// same struct (cli/load.cpp) and records what it parsed in its result file
// (load_result.hpp), so tests/bench/bench_load_command_test.cpp checks the round
// trip through the real command: options -> argv -> zapbench load -> file ->
// options. Owns the spelling of the loader's flags on the producing side.
#pragma once

#include <string>
#include <vector>

#include "load/engine.hpp"

namespace bench {

// The arguments after `zapbench load` that reproduce `o` (every field but
// `stop`, a process-local flag): the wire, the target, the scenario and
// body (or the floor's byte counts), connections, depth, threads, CPUs,
// durations, the rate, the timeout; plus --json-out when json_out is set.
// Numbers are written so that they parse back to the same value.
std::vector<std::string> load_args(const load::Options& o, const std::string& json_out);

// The whole command: {zapbench, "load", load_args(o, json_out)...}.
std::vector<std::string> load_argv(const std::string& zapbench, const load::Options& o,
                                   const std::string& json_out);

// A double in its shortest text that reads back exactly ("1.5", "0.3").
std::string exact_number(double v);

}  // namespace bench
