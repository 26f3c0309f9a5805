// proc/programs.hpp — where programs and scratch space are: this program's
// own binary, a program by name (sbin first, then PATH), a private temporary
// directory removed with everything in it.
#pragma once

#include <filesystem>
#include <string>

namespace proc {

// A private directory (mkdtemp, mode 0700) under the temporary directory,
// named `prefix` + 6 random characters, removed with everything in it when
// the object goes. Throws std::runtime_error naming what failed.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// This program's own binary (/proc/self/exe), for the children a command
// starts of itself. Throws std::runtime_error naming what failed.
std::string own_executable();

// An executable named `name`: in /usr/sbin, /usr/local/sbin, /usr/bin, then
// on PATH (a ChildSpec's argv[0] is never searched); "" when there is none.
std::string find_program(const std::string& name);

// Why `binary`, which a build script makes (scripts/go-build.sh), is not
// there: the reason the script left beside it (<binary>.unavailable, trailing
// blanks trimmed), else "<binary> does not exist (scripts/go-build.sh builds
// it; it needs Go)".
std::string missing_build_reason(const std::string& binary);

}  // namespace proc
