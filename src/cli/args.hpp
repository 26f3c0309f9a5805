// cli/args.hpp — how a command fails at run time (after its flags parsed): one line on stderr, exit 2.
// Flag parsing, with its own errors, is flags/flags.hpp's.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cli {

[[noreturn]] inline void die(const std::string& msg) {
  std::fprintf(stderr, "zapbench: %s\n", msg.c_str());
  std::exit(2);
}

}  // namespace cli
