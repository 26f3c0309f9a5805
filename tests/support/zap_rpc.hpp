// tests/support/zap_rpc.hpp — what the ZAP-RPC server suites share, without
// sockets: frames built with wire/zap_rpc.hpp's own encoders (a call of any
// method ordinal, PromiseID, Target, capability and direction byte; a
// response frame; the offsets hostile cases patch), and the checks of an
// answer's body (eth_call: the id echoed and the balance; eth_getLogs: the
// digest of every field). Used by zap_rpc_test, hostile_test and
// server_client.hpp's ZAP-RPC client.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "micro/padded.hpp"
#include "net/buffer.hpp"
#include "record/logs.hpp"
#include "record/registry.hpp"
#include "wire/zap_rpc.hpp"

namespace zaptest::rpc {

namespace zr = wire::zaprpc;
using Frame = std::vector<std::uint8_t>;

// The method ordinals of docs/spec/zap-rpc.md §2: body 0 is ZAP.
inline constexpr std::uint32_t kHealth = 0;
inline std::uint32_t eth_call(std::size_t body = 0) { return zr::method_ordinal(zr::Op::eth_call, body); }
inline std::uint32_t eth_get_logs(std::size_t body = 0) {
  return zr::method_ordinal(zr::Op::eth_get_logs, body);
}
// The body code of a codec (its content type's); every codec has one (the server asserts it).
inline std::size_t body_of(const record::CodecInfo& c) {
  return static_cast<std::size_t>(zr::body_code(c.content_type));
}

// Where a frame's fields are, from its first byte: the envelope after the
// prefix and direction byte, its root (the fixed section) 16 bytes later.
inline constexpr std::size_t kEnvelopeAt = zr::kHeadBytes;
inline constexpr std::size_t kRootAt = kEnvelopeAt + zap::kHeaderBytes;
inline constexpr std::size_t kPayloadSlotAt = kRootAt + zr::RequestLayout::payload;
inline constexpr std::size_t kCapSlotAt = kRootAt + zr::RequestLayout::cap;

// A frame of direction `dir` holding a request envelope (dir 1: a call;
// dir 3: a stream open; any other byte for the refusals).
inline Frame call(std::uint32_t method, std::uint32_t promise, record::Bytes payload = {},
                  std::uint32_t target = zr::kNoTarget, std::uint8_t dir = 1, record::Bytes cap = {}) {
  net::Buffer out;
  EXPECT_TRUE(zr::append_request_frame(out, {method, promise, target, cap, payload}));
  Frame f(out.readable().begin(), out.readable().end());
  f[zr::kPrefixBytes] = dir;
  return f;
}

// A response frame (dir 2), as a server sends it.
inline Frame response(std::uint32_t status, std::uint32_t promise, record::Bytes body = {}) {
  net::Buffer out;
  EXPECT_TRUE(zr::append_response_frame(out, {status, promise, body}));
  return {out.readable().begin(), out.readable().end()};
}

// Only a length prefix (u32 LE).
inline Frame prefix(std::uint32_t n) {
  Frame f(4);
  std::memcpy(f.data(), &n, 4);
  return f;
}

// A frame of any direction byte with these body bytes (L = 1 + body).
inline Frame raw(std::uint8_t dir, const Frame& body) {
  Frame f = prefix(static_cast<std::uint32_t>(body.size() + 1));
  f.push_back(dir);
  for (const std::uint8_t b : body) f.push_back(b);  // (insert() draws a false -Warray-bounds from GCC 12)
  return f;
}

inline Frame patch_u32(Frame f, std::size_t at, std::uint32_t v) {
  std::memcpy(f.data() + at, &v, 4);
  return f;
}
inline Frame patch_u16(Frame f, std::size_t at, std::uint16_t v) {
  std::memcpy(f.data() + at, &v, 2);
  return f;
}

inline Frame cat(Frame a, const Frame& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// The request of call number `id`: the sample with that id, so each answer
// says which call it answers.
inline record::Request request(std::uint64_t id) {
  record::Request q = record::sample_request();
  q.id = id;
  return q;
}

// An eth_call frame with `codec`'s body for request(id), under PromiseID promise.
inline Frame eth_call_frame(record::AnyCodec& codec, const record::CodecInfo& info, std::uint64_t id,
                            std::uint32_t promise) {
  return call(eth_call(body_of(info)), promise, codec.encode_request(request(id)));
}

// The body of an eth_call answer decodes with `codec` and answers request(id).
inline ::testing::AssertionResult eth_answer_ok(record::AnyCodec& codec, record::Bytes body,
                                                std::uint64_t id) {
  const micro::Padded padded(body);
  record::ResponseView v;
  if (const record::DecodeError e = codec.decode_response(padded.bytes(), v); e != record::DecodeError::ok)
    return ::testing::AssertionFailure() << "the answer does not decode: " << record::describe(e) << " ("
                                         << std::string(body.begin(), body.end()).substr(0, 120) << ")";
  const record::Request q = request(id);
  if (v.id != q.id) return ::testing::AssertionFailure() << "id " << v.id << ", want " << q.id;
  if (v.balance != record::balance_of(q.block, q.method.size(), q.account[0]))
    return ::testing::AssertionFailure() << "balance " << v.balance << " is not the compute of the request";
  return ::testing::AssertionSuccess();
}

// The logs digest of the sample logs request for n logs.
inline record::LogsDigest logs_digest(std::uint32_t n) {
  record::LogSet set;
  record::generate(record::sample_logs_request(n), set);
  return record::digest_of(set.logs);
}

// The body of an eth_getLogs answer decodes with `codec` into the n logs asked for.
inline ::testing::AssertionResult logs_answer_ok(record::AnyCodec& codec, record::Bytes body,
                                                 std::uint32_t n) {
  const micro::Padded padded(body);
  record::LogsDigest d;
  if (const record::DecodeError e = codec.logs_decode_all(padded.bytes(), d); e != record::DecodeError::ok)
    return ::testing::AssertionFailure() << "the logs do not decode: " << record::describe(e);
  if (!(d == logs_digest(n))) return ::testing::AssertionFailure() << "not the digest of " << n << " logs";
  return ::testing::AssertionSuccess();
}

inline std::string text(record::Bytes b) { return {b.begin(), b.end()}; }

}  // namespace zaptest::rpc
