// bench/run/host.hpp — what a run records about the machine it runs on: the CPUs
// it may use, the CPUs online, the load average (read before every sample,
// the load gate of report/model.hpp), and the environment of results.json
// (CPU model, kernel, compiler, build flags, git commit, library versions).
// Owns probing only: it never changes the machine.
#pragma once

#include <string>
#include <vector>

#include "bench/run/run_folder.hpp"
#include "report/model.hpp"

namespace bench {

// The CPUs this process may run on (sched_getaffinity), in order; {0} if unknown.
std::vector<int> allowed_cpus();

// CPUs online in the machine (what /proc/loadavg counts against).
unsigned online_cpus();

// The CPU model (/proc/cpuinfo's first "model name"); "" when it has none.
std::string cpu_model();

// uname's kernel ("Linux 6.1.0") and host name.
struct KernelName {
  std::string kernel;
  std::string hostname;
};
KernelName kernel_name();

// The 1-minute load average (/proc/loadavg's first field); NaN if unreadable.
double load_average_1m();

// The environment block of results.json. `command_line` is the run's own
// argv, recorded with its paths relative to the run's folder.
report::Environment environment(const std::vector<std::string>& command_line, const RunFolder& folder);

// Every codec of record's registry, as the report lists them.
std::vector<report::Codec> codecs();

// Current UTC time formatted with strftime's `fmt`.
std::string utc_now(const char* fmt);

}  // namespace bench
