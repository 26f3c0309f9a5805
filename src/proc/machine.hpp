// proc/machine.hpp — what a process can learn of the machine it runs on: the
// CPUs it may use, the CPUs online, the CPU model, the kernel and host name,
// the load average, the time. Read by the run (its CPUs, its environment, the load gate
// before every sample), by a host's `zapbench host-info` and by calibrate.
// Owns probing only: it never changes the machine.
#pragma once

#include <string>
#include <vector>

namespace proc {

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

// The clock's UTC time formatted with strftime's `fmt`.
std::string utc_now(const char* fmt);

}  // namespace proc
