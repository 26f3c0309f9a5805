// tests/support/scratch.hpp — a test's scratch directory, and reading (read_text) and writing (write_bytes)
// the files in it. The directory is under the system's temp directory: created empty for the test, and
// removed when the test ends, passed or failed. A failed test first prints the tail of every file in it (the
// children's logs, the results it read) into its own output, so ctest's output on failure says what happened
// and nothing is left behind. ZAPBENCH_KEEP_SCRATCH=1 in the environment keeps the directory of a failed test
// for a closer look (a developer's choice, never CI's).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>

namespace zaptest {

// A whole file's bytes ("" when it cannot be read): the logs and results a test looks into.
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// Writes bytes to p (created, or emptied first); a write that fails is a failure of the test.
inline void write_bytes(const std::filesystem::path& p, std::string_view bytes) {
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  EXPECT_TRUE(f.good()) << "cannot write " << p;
}
inline void write_bytes(const std::filesystem::path& p, std::span<const std::uint8_t> bytes) {
  write_bytes(p, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

class Scratch {
 public:
  // prefix names the suite ("run_test", "endurance"): the directory is
  // zapbench_<prefix>_<pid>_<suite>_<test>, one directory: the '/' in a typed or parameterized test's
  // names ("Suite/0") becomes '_'. Constructed in a test's body or fixture (it names the running test).
  explicit Scratch(const std::string& prefix) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "zapbench_" + prefix + "_" + std::to_string(getpid()) + "_" + info->test_suite_name() +
                       "_" + info->name();
    for (char& c : name)
      if (c == '/') c = '_';
    dir_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() {
    if (::testing::Test::HasFailure()) {
      print_tails();
      const char* keep = std::getenv("ZAPBENCH_KEEP_SCRATCH");
      if (keep != nullptr && std::string(keep) == "1") {
        std::cerr << "scratch: kept " << dir_ << " (ZAPBENCH_KEEP_SCRATCH=1)\n";
        return;
      }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return dir_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return dir_ / name; }

 private:
  static constexpr std::size_t kTailBytes = 4096;  // per file: the end of a log says how it ended

  void print_tails() const {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir_, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      const std::string text = read_text(it->path());
      const std::size_t from = text.size() > kTailBytes ? text.size() - kTailBytes : 0;
      std::cerr << "---- " << std::filesystem::relative(it->path(), dir_, ec).string()
                << (from > 0 ? " (last 4 KiB)" : "") << " ----\n"
                << text.substr(from) << (text.empty() || text.back() == '\n' ? "" : "\n");
    }
  }

  std::filesystem::path dir_;
};

}  // namespace zaptest
