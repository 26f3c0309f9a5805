// tests/micro/limit_codec_test.cpp — the limit rows' codec writes ZAP's bytes
// exactly (record::ZapCodec's, for the sample and for generated requests),
// reads them back as ZapCodec does, and refuses every malformed message with
// an error, never reading outside its input.
#include "micro/limit_codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "record/codec_zap.hpp"

namespace {

using record::DecodeError;

std::vector<std::uint8_t> copy(record::Bytes b) { return {b.begin(), b.end()}; }

TEST(LimitCodec, WritesZapsBytesForTheSample) {
  micro::LimitCodec limit;
  record::ZapCodec zap;
  EXPECT_EQ(copy(limit.encode_request(record::sample_request())),
            copy(zap.encode_request(record::sample_request())));
  EXPECT_EQ(copy(limit.encode_response(record::sample_response())),
            copy(zap.encode_response(record::sample_response())));
}

TEST(LimitCodec, WritesZapsBytesForEveryMethodLengthAndValue) {
  micro::LimitCodec limit;
  record::ZapCodec zap;
  std::mt19937_64 rng(47);
  for (std::size_t len = 0; len <= 64; ++len) {
    const std::string method(len, static_cast<char>('a' + len % 26));
    record::Request q{rng(), rng(), method, {}};
    for (auto& b : q.account) b = static_cast<std::uint8_t>(rng());
    record::Response r{rng(), rng(), rng(), {}};
    for (auto& b : r.block_hash) b = static_cast<std::uint8_t>(rng());
    ASSERT_EQ(copy(limit.encode_request(q)), copy(zap.encode_request(q))) << "method of " << len;
    ASSERT_EQ(copy(limit.encode_response(r)), copy(zap.encode_response(r)));
    record::RequestView v;
    ASSERT_EQ(limit.decode_request(zap.encode_request(q), v), DecodeError::ok) << len;
    EXPECT_EQ(v.id, q.id);
    EXPECT_EQ(v.block, q.block);
    EXPECT_EQ(v.method, method);
    EXPECT_EQ(v.account, std::string_view(reinterpret_cast<const char*>(q.account.data()), q.account.size()));
    EXPECT_EQ(v.account0, q.account[0]);
    record::ResponseView w;
    ASSERT_EQ(limit.decode_response(zap.encode_response(r), w), DecodeError::ok);
    EXPECT_EQ(w.id, r.id);
    EXPECT_EQ(w.balance, r.balance);
    EXPECT_EQ(w.nonce, r.nonce);
    EXPECT_EQ(w.block_hash,
              std::string_view(reinterpret_cast<const char*>(r.block_hash.data()), r.block_hash.size()));
  }
}

TEST(LimitCodec, RefusesAMethodPastItsBuffer) {
  micro::LimitCodec limit;
  const std::string method(65, 'm');
  EXPECT_TRUE(limit.encode_request(record::Request{1, 2, method, {}}).empty());
}

// Every truncation and every single-byte change of the header and the slots:
// an error or (for a change the layout allows, e.g. a value) ok, and never a
// read past the input (ASan catches one: the input is a vector of its exact size).
TEST(LimitCodec, RefusesMalformedMessages) {
  micro::LimitCodec limit;
  record::ZapCodec zap;
  const std::vector<std::uint8_t> req = copy(zap.encode_request(record::sample_request()));
  const std::vector<std::uint8_t> resp = copy(zap.encode_response(record::sample_response()));
  record::RequestView v;
  record::ResponseView w;
  for (std::size_t n = 0; n < req.size(); ++n) {
    const std::vector<std::uint8_t> cut(req.begin(), req.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_NE(limit.decode_request(cut, v), DecodeError::ok) << "request cut at " << n;
  }
  for (std::size_t n = 0; n < resp.size(); ++n) {
    const std::vector<std::uint8_t> cut(resp.begin(), resp.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_NE(limit.decode_response(cut, w), DecodeError::ok) << "response cut at " << n;
  }
  auto bad = [&](std::vector<std::uint8_t> m, std::size_t at, std::uint8_t to) {
    m[at] = to;
    return m;
  };
  EXPECT_EQ(limit.decode_request(bad(req, 0, 'X'), v), DecodeError::syntax);              // magic
  EXPECT_EQ(limit.decode_request(bad(req, zap::kVersionAt, 3), v), DecodeError::syntax);  // version
  EXPECT_EQ(limit.decode_request(bad(req, zap::kRootAt, 24), v), DecodeError::syntax);    // another layout
  EXPECT_EQ(limit.decode_request(bad(req, zap::kSizeAt, 0xff), v), DecodeError::syntax);  // past the input
  const std::uint32_t method_slot = zap::kHeaderBytes + record::ReqZap::method.offset;
  const std::uint32_t account_slot = zap::kHeaderBytes + record::ReqZap::account.offset;
  const std::uint32_t hash_slot = zap::kHeaderBytes + record::RespZap::block_hash.offset;
  EXPECT_EQ(limit.decode_request(bad(req, method_slot, 0xf0), v), DecodeError::syntax);  // tail past the end
  EXPECT_EQ(limit.decode_request(bad(req, account_slot + 4, 0xff), v),
            DecodeError::syntax);  // length past it
  EXPECT_EQ(limit.decode_request(bad(req, account_slot + 4, 19), v), DecodeError::bad_length);
  std::vector<std::uint8_t> no_account = req;
  std::fill_n(no_account.begin() + account_slot, 8, 0);
  EXPECT_EQ(limit.decode_request(no_account, v), DecodeError::missing_field);
  EXPECT_EQ(limit.decode_response(bad(resp, hash_slot + 4, 31), w), DecodeError::bad_length);
  EXPECT_EQ(limit.decode_response(bad(resp, hash_slot, 0xf0), w), DecodeError::syntax);
  std::vector<std::uint8_t> no_hash = resp;
  std::fill_n(no_hash.begin() + hash_slot, 8, 0);
  EXPECT_EQ(limit.decode_response(no_hash, w), DecodeError::missing_field);
  // Every byte of both messages flipped in turn: whatever the verdict, nothing read outside.
  for (std::size_t i = 0; i < req.size(); ++i) (void)limit.decode_request(bad(req, i, req[i] ^ 0xA5), v);
  for (std::size_t i = 0; i < resp.size(); ++i) (void)limit.decode_response(bad(resp, i, resp[i] ^ 0xA5), w);
}

}  // namespace
