// proc/usage.cpp — open descriptors and resident memory from /proc (usage.hpp).
#include "proc/usage.hpp"

#include <dirent.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace proc {
namespace {

long count_entries(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return -1;
  long n = 0;
  while (const dirent* e = ::readdir(d))
    if (e->d_name[0] != '.') ++n;
  ::closedir(d);
  return n;
}

}  // namespace

long open_descriptors(pid_t pid) { return count_entries("/proc/" + std::to_string(pid) + "/fd"); }

long open_descriptors() {
  const long n = count_entries("/proc/self/fd");
  return n < 0 ? n : n - 1;
}

double rss_kib(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.starts_with("VmRSS:")) return static_cast<double>(std::strtoull(line.c_str() + 6, nullptr, 10));
  return 0;
}

}  // namespace proc
