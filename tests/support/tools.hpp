// tests/support/tools.hpp — what a test that checks us against an outside tool (protoc, flatc, capnp, a
// Python library) needs besides its scratch directory (scratch.hpp): a word quoted for the shell (quote),
// a command run with its output in files and its exit status judged (run_command), and bytes as
// lowercase hex (hex), the form such tests compare and pass bytes in. A tool that is missing or fails
// is the test's failure, with the command and what it wrote to stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

#include "support/scratch.hpp"

namespace zaptest {

// s in single quotes for /bin/sh (a quote inside it as '\'').
inline std::string quote(std::string_view s) {
  std::string out(1, '\'');
  for (const char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  out += '\'';
  return out;
}

// Runs cmd (a /bin/sh command line; it may redirect its own stdin) with its stdout to out_path and its
// stderr to err_path, or both to one file when the two paths are the same. Success when it exited 0;
// otherwise a failure naming the command, how it ended and what it wrote to err_path.
inline ::testing::AssertionResult run_command(const std::string& cmd, const std::filesystem::path& out_path,
                                              const std::filesystem::path& err_path) {
  std::string line = cmd;
  line += " >";
  line += quote(out_path.string());
  if (err_path == out_path) {
    line += " 2>&1";
  } else {
    line += " 2>";
    line += quote(err_path.string());
  }
  const int status = std::system(line.c_str());
  if (status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure() << "`" << line << "` failed (";
  if (status != -1 && WIFEXITED(status))
    failure << "exit status " << WEXITSTATUS(status);
  else
    failure << "wait status " << status;
  return failure << "): " << read_text(err_path);
}

// Bytes as two lowercase hex digits each.
inline std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}
inline std::string hex(std::span<const std::uint8_t> bytes) {
  return hex(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

}  // namespace zaptest
