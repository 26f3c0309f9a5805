// proc/cpu_list.hpp — a CPU list as text, as --cpus and taskset -c take it: the one copy, for the flags'
// --help defaults (flags::cpu_list_text), the pinning beside it (net::cpu_list_text) and the run's
// command lines and notes. Header-only, the standard library alone. (src/calibrate keeps its own: it
// includes nothing of the product.)
#pragma once

#include <string>
#include <vector>

namespace proc {

// {0, 2, 3} -> "0,2,3" (flags::parse_cpu_list reads it back).
inline std::string cpu_list_text(const std::vector<int>& cpus) {
  std::string s;
  for (int c : cpus) {
    if (!s.empty()) s += ',';
    s += std::to_string(c);
  }
  return s;
}

}  // namespace proc
