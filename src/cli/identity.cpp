// cli/identity.cpp — the build's identity (see identity.hpp). The commit comes
// from build_info.hpp, which src/cli/build_info.cmake regenerates at every
// build; the version and the flags are compile definitions from CMake.
#include "cli/identity.hpp"

#include "cli/build_info.hpp"

#ifndef ZAPBENCH_VERSION
#define ZAPBENCH_VERSION "unknown"
#endif
#ifndef ZAPBENCH_BUILD_FLAGS
#define ZAPBENCH_BUILD_FLAGS "unknown"
#endif

namespace cli {

std::string_view version() { return ZAPBENCH_VERSION; }
std::string_view git_commit() { return ZAPBENCH_GIT_COMMIT; }
std::string_view build_flags() { return ZAPBENCH_BUILD_FLAGS; }

std::string_view compiler() {
#if defined(__clang__)
  return "clang " __clang_version__;
#elif defined(__GNUC__)
  return "g++ " __VERSION__;
#else
  return "unknown";
#endif
}

std::string version_line() {
  return "zapbench " + std::string(version()) + " commit " + std::string(git_commit()) + " (" +
         std::string(build_flags()) + ")";
}

}  // namespace cli
