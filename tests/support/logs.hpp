// tests/support/logs.hpp — what the eth_getLogs tests share: logs at the edges
// of every field (EdgeLogs), the sample answer followed by them (TestLogs),
// and the check that an answer reads back, through all three read
// operations, as the logs it was made from (expect_reads_as).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "record/logs.hpp"

namespace zaptest {

// No topics and no data with the largest integers, removed; four topics and
// 300 data bytes (past the generator's 256: a longer length format in
// MessagePack); one topic and one data byte (an odd length everywhere).
struct EdgeLogs {
  std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(4 * record::kTopicBytes + 300);
  std::vector<record::Log> logs;
  EdgeLogs() {
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 13 + 5);
    record::Log max;
    max.address.fill(0xff);
    max.tx_hash.fill(0xee);
    max.block_number = ~std::uint64_t{0};
    max.tx_index = ~std::uint32_t{0};
    max.log_index = ~std::uint32_t{0};
    max.removed = true;
    logs.push_back(max);
    record::Log four;
    four.topics = record::Bytes{bytes.data(), 4 * record::kTopicBytes};
    four.data = record::Bytes{bytes.data() + 4 * record::kTopicBytes, 300};
    four.block_number = std::uint64_t{1} << 32;
    four.tx_hash.fill(0xab);
    four.tx_index = 1U << 16;
    four.log_index = 255;
    logs.push_back(four);
    record::Log one;
    one.topics = record::Bytes{bytes.data() + record::kTopicBytes, record::kTopicBytes};
    one.data = record::Bytes{bytes.data() + 7, 1};
    one.block_number = 1;
    one.log_index = 3;
    logs.push_back(one);
  }
  EdgeLogs(const EdgeLogs&) = delete;  // the logs point into `bytes`
  EdgeLogs& operator=(const EdgeLogs&) = delete;
};

// The sample request's two logs (N = 2), then the edge logs.
struct TestLogs {
  record::LogSet sample;
  EdgeLogs edge;
  std::vector<record::Log> logs;
  TestLogs() {
    record::generate(record::sample_logs_request(2), sample);
    logs = sample.logs;
    logs.insert(logs.end(), edge.logs.begin(), edge.logs.end());
  }
  TestLogs(const TestLogs&) = delete;
  TestLogs& operator=(const TestLogs&) = delete;
};

// `in` (with the decoders' padding) reads as `logs`: DecodeAll's digest,
// ScanField's sum, AccessOne at the first, a third of the way, the middle and
// the last log, and missing_field one past the last.
template <class C>
void expect_reads_as(C& codec, record::Bytes in, std::span<const record::Log> logs) {
  const std::uint32_t n = static_cast<std::uint32_t>(logs.size());
  record::LogsDigest d;
  ASSERT_EQ(codec.logs_decode_all(in, d), record::DecodeError::ok) << C::kName;
  EXPECT_EQ(d, record::digest_of(logs)) << C::kName;
  record::LogsScan scan;
  ASSERT_EQ(codec.logs_scan(in, scan), record::DecodeError::ok) << C::kName;
  EXPECT_EQ(scan, record::scan_of(logs)) << C::kName;
  for (std::uint32_t k : {0u, n / 3, record::middle_log(n), n - 1}) {
    if (k >= n) continue;
    record::LogPick pick;
    ASSERT_EQ(codec.logs_access_one(in, k, pick), record::DecodeError::ok) << C::kName << ", k = " << k;
    EXPECT_EQ(pick, record::pick_of(logs[k])) << C::kName << ", k = " << k;
  }
  record::LogPick pick;
  EXPECT_EQ(codec.logs_access_one(in, n, pick), record::DecodeError::missing_field) << C::kName << ", k = N";
}

}  // namespace zaptest
