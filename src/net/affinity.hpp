// net/affinity.hpp — pinning the calling thread to one CPU, for the server's
// and the load generator's event-loop threads (--cpus), and a CPU list as
// text, as --cpus and taskset -c take it (proc/cpu_list.hpp's, the one copy).
#pragma once

#include <pthread.h>
#include <sched.h>

#include "proc/cpu_list.hpp"

namespace net {

// cpu < 0: leave the thread where the scheduler puts it. Returns false if
// the kernel refused (e.g. a CPU this process may not use).
inline bool pin_this_thread(int cpu) noexcept {
  if (cpu < 0) return true;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0;
}

// {0, 2, 3} -> "0,2,3" (flags::parse_cpu_list reads it back).
using proc::cpu_list_text;

}  // namespace net
