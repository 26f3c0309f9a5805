// cli/identity.hpp — what this binary is: the project version, the git commit it
// was built from and the build flags, for `zapbench --version` and for anything
// that records or compares builds (a run's results, the hosts of a multi-host
// run, which must all run the same build).
#pragma once

#include <string>
#include <string_view>

namespace cli {

std::string_view version();      // the CMake project version, "0.1.0"
std::string_view git_commit();   // 12 hex digits, "-dirty" appended when tracked files had changes; "unknown"
std::string_view build_flags();  // "Release: -O3 -DNDEBUG"
std::string_view compiler();     // "g++ 12.2.0"

// The first line of `zapbench --version`, one stable format that hosts can
// compare byte for byte: "zapbench 0.1.0 commit 0123456789ab (Release: -O3 -DNDEBUG)".
std::string version_line();

}  // namespace cli
