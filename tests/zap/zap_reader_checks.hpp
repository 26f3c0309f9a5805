// tests/zap/zap_reader_checks.hpp — what the reader tests share: a parse that
// fails the test with the reader's error text, a vector loaded and parsed in
// one step (ZAP_PARSE_VECTOR), the golden message's fields checked, and bytes
// viewed as text.
#pragma once

#include <gtest/gtest.h>

#include <string_view>

#include "support/vectors.hpp"
#include "zap/zap.hpp"

namespace zaptest {

inline std::string_view sv(zap::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// Parses `data`, failing the current test (with the describe() text) if not ok.
inline ::testing::AssertionResult parses(const ByteVec& data, zap::Message& out) {
  const zap::Message::Parsed p = zap::Message::parse(data);
  if (!p.ok()) return ::testing::AssertionFailure() << "parse failed: " << zap::describe(p.error);
  out = p.message;
  return ::testing::AssertionSuccess();
}

// Loads <name>.hex into `vec` and parses it into `msg`; stops the test on failure.
#define ZAP_PARSE_VECTOR(vec, msg, name) \
  ZAP_LOAD_HEX(vec, name);               \
  zap::Message msg;                      \
  ASSERT_TRUE(parses(vec, msg)) << (name)

inline void expect_golden_fields(const ByteVec& vec, const zap::Message& msg, std::uint16_t version) {
  EXPECT_EQ(msg.version(), version);
  EXPECT_EQ(msg.flags(), 0u);
  EXPECT_EQ(msg.root_offset(), 16u);
  EXPECT_EQ(msg.size(), 47u);
  const zap::Object root = msg.root();
  EXPECT_FALSE(root.is_null());
  EXPECT_EQ(root.offset(), 16u);
  EXPECT_EQ(root.u32(0), 0xDEADBEEFu);
  EXPECT_EQ(root.u32(4), 0u);
  EXPECT_EQ(root.text(8), "zap");
  const zap::Bytes b = root.bytes(16);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(b[1], 2);
  EXPECT_EQ(b[2], 3);
  EXPECT_EQ(b[3], 4);
  // Zero-copy: the views alias the input at abs 40 and 43.
  EXPECT_EQ(root.text(8).data(), reinterpret_cast<const char*>(vec.data() + 40));
  EXPECT_EQ(b.data(), vec.data() + 43);
}

}  // namespace zaptest
