// tests/support/vectors.hpp — run-time access to ../shared/vectors for the test suites:
// loads <dir>/<name>.hex (hex-decoded) and raw files, reports a missing or
// malformed file as a test failure naming its path, and prints byte mismatches as hex.
// Also the shared directory itself (its spec texts) and, for suites built with
// ZAPBENCH_SOURCE_DIR, the repository's own vectors (docs/spec/vectors).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#ifndef ZAPBENCH_VECTORS_DIR
#error "ZAPBENCH_VECTORS_DIR must be defined by the build (tests/CMakeLists.txt)"
#endif
#ifndef ZAPBENCH_SHARED_DIR
#error "ZAPBENCH_SHARED_DIR must be defined by the build (tests/CMakeLists.txt)"
#endif

namespace zaptest {

using ByteVec = std::vector<std::uint8_t>;
using ByteView = std::span<const std::uint8_t>;

// The vectors directory: $ZAPBENCH_VECTORS if set and non-empty, else the
// directory configured at build time.
inline std::filesystem::path vectors_dir() {
  if (const char* env = std::getenv("ZAPBENCH_VECTORS"); env != nullptr && *env != '\0') return env;
  return ZAPBENCH_VECTORS_DIR;
}

// The shared directory (spec/, vectors/): $ZAPBENCH_SHARED if set and
// non-empty, else the directory configured at build time.
inline std::filesystem::path shared_dir() {
  if (const char* env = std::getenv("ZAPBENCH_SHARED"); env != nullptr && *env != '\0') return env;
  return ZAPBENCH_SHARED_DIR;
}

inline std::filesystem::path vector_path(std::string_view file_name) {
  return vectors_dir() / std::string(file_name);
}

// Reads a whole file as raw bytes (the .json vectors have no trailing newline).
inline ::testing::AssertionResult load_raw(std::string_view file_name, ByteVec& out) {
  const std::filesystem::path path = vector_path(file_name);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return ::testing::AssertionFailure()
           << "cannot open test vector " << path << " (set ZAPBENCH_VECTORS to the vectors directory)";
  }
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) return ::testing::AssertionFailure() << "error reading test vector " << path;
  return ::testing::AssertionSuccess();
}

inline int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Decodes one line of hex (an optional trailing "\n" or "\r\n" is allowed;
// nothing else). `what` names the source in failure messages.
inline ::testing::AssertionResult decode_hex(std::string_view text, const std::string& what, ByteVec& out) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  if (text.empty())
    return ::testing::AssertionFailure() << "malformed test vector " << what << ": no hex digits";
  if (text.size() % 2 != 0) {
    return ::testing::AssertionFailure()
           << "malformed test vector " << what << ": odd number of hex digits (" << text.size() << ")";
  }
  out.clear();
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = hex_digit(text[i]);
    const int lo = hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) {
      return ::testing::AssertionFailure()
             << "malformed test vector " << what << ": non-hex character at offset " << (hi < 0 ? i : i + 1);
    }
    out.push_back(static_cast<std::uint8_t>(hi * 16 + lo));
  }
  return ::testing::AssertionSuccess();
}

// Loads <dir>/<name>.hex as bytes.
inline ::testing::AssertionResult load_hex(std::string_view name, ByteVec& out) {
  const std::string file_name = std::string(name) + ".hex";
  ByteVec raw;
  if (::testing::AssertionResult r = load_raw(file_name, raw); !r) return r;
  const std::string_view text(reinterpret_cast<const char*>(raw.data()), raw.size());
  return decode_hex(text, vector_path(file_name).string(), out);
}

#ifdef ZAPBENCH_SOURCE_DIR
// The repository's own vectors (docs/spec/vectors/<name>.hex): the layouts
// zapbench fixes itself (docs/spec/*.md), in the same one-line hex format.
inline std::filesystem::path repo_vector_path(std::string_view name) {
  return std::filesystem::path(ZAPBENCH_SOURCE_DIR) / "docs/spec/vectors" / (std::string(name) + ".hex");
}

inline ::testing::AssertionResult load_repo_hex(std::string_view name, ByteVec& out) {
  const std::filesystem::path path = repo_vector_path(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) return ::testing::AssertionFailure() << "cannot open " << path;
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return decode_hex(text, path.string(), out);
}
#endif

// Like load_hex, for loops and helpers that cannot ASSERT: records a non-fatal
// failure (with the path) and returns an empty vector if the file is unusable.
inline ByteVec hex_vector(std::string_view name) {
  ByteVec out;
  if (::testing::AssertionResult r = load_hex(name, out); !r) {
    ADD_FAILURE() << r.message();
    out.clear();
  }
  return out;
}

inline std::string to_hex(ByteView b) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(b.size() * 2);
  for (std::uint8_t v : b) {
    s.push_back(kDigits[v >> 4]);
    s.push_back(kDigits[v & 0xf]);
  }
  return s;
}

// Byte-for-byte equality; on mismatch prints both messages in hex and the
// first differing offset.
inline ::testing::AssertionResult same_bytes(ByteView actual, ByteView expected) {
  if (actual.size() == expected.size() && std::equal(actual.begin(), actual.end(), expected.begin())) {
    return ::testing::AssertionSuccess();
  }
  std::size_t first = 0;
  while (first < actual.size() && first < expected.size() && actual[first] == expected[first]) ++first;
  return ::testing::AssertionFailure()
         << "bytes differ at offset " << first << " (actual " << actual.size() << " bytes, expected "
         << expected.size() << " bytes)\n  actual:   " << to_hex(actual)
         << "\n  expected: " << to_hex(expected);
}

// Views a string's characters as bytes.
inline ByteView bytes_of(std::string_view s) {
  return ByteView{reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// Little-endian patching for tests that derive a vector by mutating a copy.
inline void put_u32(ByteVec& v, std::size_t at, std::uint32_t x) {
  for (std::size_t i = 0; i < 4; ++i) v.at(at + i) = static_cast<std::uint8_t>(x >> (8 * i));
}

}  // namespace zaptest

// Declares `var` holding the decoded vector `name`; stops the test (with the
// path in the message) if the file is missing or malformed.
#define ZAP_LOAD_HEX(var, name) \
  ::zaptest::ByteVec var;       \
  ASSERT_TRUE(::zaptest::load_hex((name), var))
