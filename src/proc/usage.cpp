// proc/usage.cpp — open descriptors and resident memory from /proc (usage.hpp).
#include "proc/usage.hpp"

#include <dirent.h>
#include <unistd.h>

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

std::map<int, std::string> open_descriptor_targets() {
  std::map<int, std::string> out;
  DIR* d = ::opendir("/proc/self/fd");
  if (d == nullptr) return out;
  const int own = ::dirfd(d);
  while (const dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    const int fd = std::atoi(e->d_name);
    if (fd == own) continue;
    char target[512];
    const ssize_t n =
        ::readlink(("/proc/self/fd/" + std::string(e->d_name)).c_str(), target, sizeof target - 1);
    out[fd] = n > 0 ? std::string(target, std::size_t(n)) : "?";
  }
  ::closedir(d);
  return out;
}

std::string descriptors_added(const std::map<int, std::string>& before,
                              const std::map<int, std::string>& now) {
  std::string out;
  for (const auto& [fd, target] : now)
    if (const auto it = before.find(fd); it == before.end() || it->second != target)
      out += "fd " + std::to_string(fd) + " -> " + target + "\n";
  return out;
}

double rss_kib(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(f, line);)
    if (line.starts_with("VmRSS:")) return static_cast<double>(std::strtoull(line.c_str() + 6, nullptr, 10));
  return 0;
}

}  // namespace proc
