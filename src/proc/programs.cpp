// proc/programs.cpp — programs and scratch space (programs.hpp).
#include "proc/programs.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "proc/io.hpp"

namespace proc {

TempDir::TempDir(const std::string& prefix) {
  std::string tmpl = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (mkdtemp(tmpl.data()) == nullptr)
    throw std::runtime_error("cannot make a temporary directory " + tmpl + ": " + std::strerror(errno));
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string own_executable() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find my own binary (/proc/self/exe): " + ec.message());
  return p.string();
}

std::string find_program(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/usr/local/sbin/", "/usr/bin/"})
    if (access((dir + name).c_str(), X_OK) == 0) return dir + name;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    for (std::string d; std::getline(ss, d, ':');)
      if (!d.empty() && access((d + "/" + name).c_str(), X_OK) == 0) return d + "/" + name;
  }
  return "";
}

std::string missing_build_reason(const std::string& binary) {
  std::string why = read_file(binary + ".unavailable");
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  return !why.empty() ? why : binary + " does not exist (scripts/go-build.sh builds it; it needs Go)";
}

}  // namespace proc
