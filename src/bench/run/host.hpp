// bench/run/host.hpp — what a run records about the machine it runs on: the
// environment of results.json (CPU model, kernel, compiler, build flags, git
// commit, library versions; the machine's own probes are proc/machine.hpp).
// Owns probing only: it never changes the machine.
#pragma once

#include <string>
#include <vector>

#include "bench/run/run_folder.hpp"
#include "report/model.hpp"

namespace bench {

// The environment block of results.json. `command_line` is the run's own
// argv, recorded with its paths relative to the run's folder.
report::Environment environment(const std::vector<std::string>& command_line, const RunFolder& folder);

// Every codec of record's registry, as the report lists them.
std::vector<report::Codec> codecs();

}  // namespace bench
