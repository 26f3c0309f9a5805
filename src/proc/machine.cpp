// proc/machine.cpp — the machine's CPUs, model, kernel and load (machine.hpp).
#include "proc/machine.hpp"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmath>
#include <ctime>
#include <fstream>

namespace proc {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) out.push_back(c);
  if (out.empty()) out.push_back(0);
  return out;
}

unsigned online_cpus() {
  const long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? unsigned(n) : unsigned(allowed_cpus().size());
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos || colon + 2 > line.size() ? "" : line.substr(colon + 2);
    }
  return "";
}

KernelName kernel_name() {
  KernelName k;
  utsname u{};
  if (uname(&u) == 0) {
    k.kernel = std::string(u.sysname) + " " + u.release;
    k.hostname = u.nodename;
  }
  return k;
}

double load_average_1m() {
  std::ifstream f("/proc/loadavg");
  double v = NAN;
  if (!(f >> v)) return NAN;
  return v;
}

std::string utc_now(const char* fmt) {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char b[64];
  std::strftime(b, sizeof b, fmt, &tm);
  return b;
}

}  // namespace proc
