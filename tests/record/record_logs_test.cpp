// tests/record/record_logs_test.cpp — the eth_getLogs record (record/logs.hpp)
// on every codec of the build: the generator's determinism and mix, round
// trips of the request and of answers of every size, the three read
// operations against the reference answers from the logical values, cross
// reading between codecs of one content type, truncated answers, and the ZAP
// layout against its byte vector (docs/spec/vectors) and through the
// runtime's own accessors, as the Go runtime reads it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "record/codec_zap.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"
#include "support/codec_types.hpp"
#include "support/logs.hpp"
#include "support/vectors.hpp"

#ifndef ZAPBENCH_SOURCE_DIR
#error "ZAPBENCH_SOURCE_DIR must be defined by the build (tests/record/CMakeLists.txt)"
#endif

namespace {

using micro::Padded;
using record::DecodeError;
using record::Log;
using record::LogSet;

using zaptest::AllCodecs;

std::string str(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

LogSet sample(std::uint32_t n) {
  LogSet s;
  record::generate(record::sample_logs_request(n), s);
  return s;
}

TEST(logs_generator, same_request_same_logs_and_a_chain_like_mix) {
  const LogSet a = sample(1000), b = sample(1000);
  ASSERT_EQ(a.logs.size(), 1000u);
  EXPECT_EQ(record::digest_of(a.logs), record::digest_of(b.logs));
  std::size_t transfers = 0, removed = 0;
  for (std::size_t i = 0; i < a.logs.size(); ++i) {
    const Log& l = a.logs[i];
    EXPECT_EQ(l.log_index, i);
    EXPECT_EQ(l.address, record::kLogsAddress);
    EXPECT_GE(l.topic_count(), 1u);
    EXPECT_LE(l.topic_count(), record::kMaxTopics);
    EXPECT_LE(l.data.size(), record::kMaxLogDataBytes);
    EXPECT_GE(l.block_number, record::kLogsFromBlock);
    EXPECT_LE(l.block_number, record::kLogsToBlock);
    if (l.topic_count() == 3 && l.data.size() == 32 &&
        std::equal(record::kTransferTopic.begin(), record::kTransferTopic.end(), l.topics.begin()))
      ++transfers;
    removed += l.removed;
  }
  EXPECT_GT(transfers, 700u);  // 80% by construction; 1000 draws
  EXPECT_LT(transfers, 900u);
  EXPECT_GT(removed, 0u);
  // Another request, other logs; the first logs of a longer answer are not
  // the shorter one's (the spread over the blocks depends on N).
  LogSet c;
  record::LogsRequest other = record::sample_logs_request(1000);
  other.from_block += 1;
  record::generate(other, c);
  EXPECT_NE(record::digest_of(a.logs), record::digest_of(c.logs));
}

TEST(logs_generator, reuse_keeps_the_views_valid) {
  LogSet s;
  record::generate(record::sample_logs_request(10), s);
  record::generate(record::sample_logs_request(1000), s);
  EXPECT_EQ(record::digest_of(s.logs), record::digest_of(sample(1000).logs));
  record::generate(record::sample_logs_request(3), s);
  EXPECT_EQ(record::digest_of(s.logs), record::digest_of(sample(3).logs));
}

TEST(logs_digest, every_field_and_its_place_count) {
  const LogSet s = sample(4);
  const record::LogsDigest base = record::digest_of(s.logs);
  std::vector<Log> logs = s.logs;
  auto changed = [&](auto&& mutate) {
    std::vector<Log> copy = logs;
    mutate(copy[1]);
    return record::digest_of(copy) != base;
  };
  EXPECT_TRUE(changed([](Log& l) { l.address[19] ^= 1; }));
  EXPECT_TRUE(changed([](Log& l) { l.topics = l.topics.first(l.topics.size() - 32); }));
  EXPECT_TRUE(changed([](Log& l) { l.data = l.data.first(l.data.size() - 1); }));
  EXPECT_TRUE(changed([](Log& l) { ++l.block_number; }));
  EXPECT_TRUE(changed([](Log& l) { l.tx_hash[31] ^= 1; }));
  EXPECT_TRUE(changed([](Log& l) { ++l.tx_index; }));
  EXPECT_TRUE(changed([](Log& l) { ++l.log_index; }));
  EXPECT_TRUE(changed([](Log& l) { l.removed = !l.removed; }));
  // Two fields' values swapped: the same sum, another digest.
  EXPECT_TRUE(changed([](Log& l) { std::swap(l.tx_index, l.log_index); }));
  std::swap(logs[0], logs[1]);
  EXPECT_NE(record::digest_of(logs), base);
}

template <class C>
class LogsCodecTest : public ::testing::Test {};
TYPED_TEST_SUITE(LogsCodecTest, AllCodecs);

TYPED_TEST(LogsCodecTest, request_round_trip) {
  {
    TypeParam codec;
    for (const record::LogsRequest& q : {record::sample_logs_request(100), record::LogsRequest{0, 0, {}, 0},
                                         record::LogsRequest{~std::uint64_t{0}, ~std::uint64_t{0} - 1,
                                                             record::kLogsAddress, ~std::uint32_t{0}}}) {
      const Padded wire(codec.encode_logs_request(q));
      record::LogsRequest back;
      ASSERT_EQ(codec.decode_logs_request(wire.bytes(), back), DecodeError::ok) << str(wire.bytes());
      EXPECT_EQ(back, q);
    }
  }
}

// Every read operation gives the reference answer, at every size.
template <class C>
void check_answer(C& codec, std::span<const Log> logs) {
  const Padded wire(codec.encode_logs(logs));
  SCOPED_TRACE(std::string(C::kName) + ", N = " + std::to_string(logs.size()) + ", " +
               std::to_string(wire.size()) + " wire bytes");
  zaptest::expect_reads_as(codec, wire.bytes(), logs);
}

TYPED_TEST(LogsCodecTest, answers_of_every_size_read_back) {
  {
    TypeParam codec;
    for (std::uint32_t n : {0u, 1u, 2u, 10u, 1000u, 10000u}) check_answer(codec, sample(n).logs);
    const zaptest::EdgeLogs edge;
    check_answer(codec, edge.logs);
    // The same codec object, a smaller answer after a larger one.
    check_answer(codec, sample(3).logs);
  }
}

// A strict prefix of an answer never reads as that answer: an error, or (a
// format that can end after any log) another answer.
TYPED_TEST(LogsCodecTest, a_truncated_answer_is_not_the_answer) {
  if constexpr (record::trusted_input_only<TypeParam>()) {
    GTEST_SKIP() << "trusted input only: a truncated answer is not its input";
  } else {
    TypeParam codec;
    const LogSet s = sample(3);
    const record::LogsDigest want = record::digest_of(s.logs);
    const record::Bytes full = codec.encode_logs(s.logs);
    const std::vector<std::uint8_t> wire(full.begin(), full.end());
    for (std::size_t cut = 0; cut < wire.size(); ++cut) {
      const Padded prefix(record::Bytes{wire.data(), cut});
      record::LogsDigest d;
      const DecodeError e = codec.logs_decode_all(prefix.bytes(), d);
      EXPECT_TRUE(e != DecodeError::ok || d != want)
          << "a prefix of " << cut << " of " << wire.size() << " bytes";
      record::LogsScan scan;
      (void)codec.logs_scan(prefix.bytes(), scan);  // any answer, but no crash (ASan)
      record::LogPick pick;
      (void)codec.logs_access_one(prefix.bytes(), 1, pick);
    }
  }
}

// Codecs of one content type read each other's answers (one wire format).
TYPED_TEST(LogsCodecTest, codecs_of_one_content_type_read_each_other) {
  {
    TypeParam writer;
    const LogSet s = sample(50);
    const zaptest::EdgeLogs edge;
    const Padded wire(writer.encode_logs(s.logs));
    const Padded edge_wire(writer.encode_logs(edge.logs));
    const Padded req(writer.encode_logs_request(record::sample_logs_request(50)));
    record::AvailableCodecs::for_each([&]<class R>() {
      if constexpr (!record::trusted_input_only<R>()) {
        if (R::kContentType != TypeParam::kContentType) return;
        R reader;
        record::LogsDigest d, de;
        EXPECT_EQ(reader.logs_decode_all(wire.bytes(), d), DecodeError::ok) << R::kName;
        EXPECT_EQ(d, record::digest_of(s.logs)) << R::kName << " reading " << TypeParam::kName;
        EXPECT_EQ(reader.logs_decode_all(edge_wire.bytes(), de), DecodeError::ok) << R::kName;
        EXPECT_EQ(de, record::digest_of(edge.logs)) << R::kName << " reading " << TypeParam::kName;
        record::LogsRequest q;
        EXPECT_EQ(reader.decode_logs_request(req.bytes(), q), DecodeError::ok) << R::kName;
        EXPECT_EQ(q, record::sample_logs_request(50)) << R::kName;
      }
    });
  }
}

// ---- the ZAP layout (docs/spec/zap-logs.md) --------------------------------

zaptest::ByteVec load_spec_vector(std::string_view name) {
  zaptest::ByteVec out;
  EXPECT_TRUE(zaptest::load_repo_hex(name, out));
  return out;
}

TEST(logs_zap_layout, request_and_two_logs_are_the_spec_vectors) {
  record::ZapCodec codec;
  EXPECT_TRUE(zaptest::same_bytes(codec.encode_logs_request(record::sample_logs_request(2)),
                                  load_spec_vector("logs_req")));
  EXPECT_TRUE(zaptest::same_bytes(codec.encode_logs(sample(2).logs), load_spec_vector("logs_resp_n2")));
}

// The vector read field by field with the runtime's accessors only (the
// reader of zap-wire.md §10, the Go reader's rules): what a Go client does
// with List.Object(i, 88), Uint64, Uint32, Bool, BytesFixed and Bytes.
TEST(logs_zap_layout, the_vector_reads_with_the_runtime_accessors) {
  const zaptest::ByteVec v = load_spec_vector("logs_resp_n2");
  const zap::Message::Parsed p = zap::Message::parse(zaptest::ByteView{v});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.size(), v.size());
  const zap::List list = p.message.root().list(record::LogsResponseZap::kLogsAt);
  ASSERT_EQ(list.len(), 2u);
  const LogSet s = sample(2);
  using L = record::LogZap;
  for (std::uint32_t i = 0; i < 2; ++i) {
    const zap::Object o = list.object(i, L::kStrideBytes);
    const Log& want = s.logs[i];
    EXPECT_EQ(o.u64(L::kBlockNumberAt), want.block_number);
    EXPECT_EQ(o.u32(L::kTxIndexAt), want.tx_index);
    EXPECT_EQ(o.u32(L::kLogIndexAt), want.log_index);
    EXPECT_EQ(o.boolean(L::kRemovedAt), want.removed);
    EXPECT_TRUE(zaptest::same_bytes(o.bytes_fixed(L::kAddressAt, 20), want.address));
    EXPECT_TRUE(zaptest::same_bytes(o.bytes_fixed(L::kTxHashAt, 32), want.tx_hash));
    EXPECT_TRUE(zaptest::same_bytes(o.bytes(L::kTopicsAt), want.topics));
    EXPECT_TRUE(zaptest::same_bytes(o.bytes(L::kDataAt), want.data));
  }
}

TEST(logs_zap_layout, a_list_longer_than_the_message_is_malformed) {
  record::ZapCodec codec;
  const record::Bytes b = codec.encode_logs(sample(2).logs);
  // 5 records pass the message's end; 1000 is past its size (the reader's
  // length clamp makes the list null, which must not read as no logs).
  for (std::uint32_t count : {5u, 1000u}) {
    zaptest::ByteVec v(b.begin(), b.end());
    zaptest::put_u32(v, 16 + 4, count);  // the list slot's count
    const Padded in(zaptest::ByteView{v});
    record::LogsDigest d;
    EXPECT_EQ(codec.logs_decode_all(in.bytes(), d), DecodeError::syntax) << count;
    record::LogsScan scan;
    EXPECT_EQ(codec.logs_scan(in.bytes(), scan), DecodeError::syntax) << count;
    record::LogPick pick;
    EXPECT_EQ(codec.logs_access_one(in.bytes(), 4, pick), DecodeError::syntax) << count;
  }
}

TEST(logs_zap_layout, five_topics_or_a_partial_topic_are_bad_lengths) {
  record::ZapCodec codec;
  const record::Bytes b = codec.encode_logs(sample(1).logs);
  zaptest::ByteVec v(b.begin(), b.end());
  const std::size_t topics_len_at = 24 + record::LogZap::kTopicsAt + 4;
  for (std::uint32_t len : {31u, 160u}) {
    zaptest::ByteVec w = v;
    w.resize(w.size() + 200);  // room, so the tail stays in bounds
    zaptest::put_u32(w, 12, static_cast<std::uint32_t>(w.size()));
    zaptest::put_u32(w, topics_len_at, len);
    const Padded in(zaptest::ByteView{w});
    record::LogsDigest d;
    EXPECT_EQ(codec.logs_decode_all(in.bytes(), d), DecodeError::bad_length) << len;
  }
}

}  // namespace
