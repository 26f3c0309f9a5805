// micro/limit_codec.hpp — the limit rows of the codec microbenchmarks
// (<op>/limit): the least work any codec of the eth record must do on the
// same bytes, measured by the very benchmark code every codec goes through.
// It writes and reads ZAP's wire bytes (byte-identical to record::ZapCodec's,
// tests/micro/limit_codec_test.cpp) with the layout known in advance: the
// root at offset 16, its fixed section, then the tails in field order. Not a
// codec of the table (the server never answers with it): a message of any
// other layout is refused, where a codec reads it. docs/methodology.md
// ("The limits") defines each op's limit.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "record/record.hpp"
#include "zap/wire.hpp"

namespace micro {

namespace limit_detail {

// The header and fixed section with every constant in place: magic, version
// 1, flags 0, the root at 16; the response's size and its hash slot too.
inline constexpr std::uint32_t kRoot = zap::kHeaderBytes;
inline constexpr std::uint32_t kReqTailAt = kRoot + record::ReqZap::S::size_bytes;
inline constexpr std::uint32_t kRespTailAt = kRoot + record::RespZap::S::size_bytes;
inline constexpr std::uint32_t kRespBytes = kRespTailAt + record::kHashBytes;

struct Template {
  std::uint8_t b[kRespTailAt > kReqTailAt ? kRespTailAt : kReqTailAt] = {};
};
constexpr Template header(std::uint32_t size) {
  Template t;
  for (std::size_t i = 0; i < 4; ++i) t.b[i] = zap::kMagic[i];
  t.b[zap::kVersionAt] = 1;
  t.b[zap::kRootAt] = static_cast<std::uint8_t>(kRoot);
  for (std::size_t i = 0; i < 4; ++i) t.b[zap::kSizeAt + i] = static_cast<std::uint8_t>(size >> (8 * i));
  return t;
}
inline constexpr Template kRequest = header(0);  // its size is the method's
inline constexpr Template kResponse = [] {
  Template t = header(kRespBytes);
  const std::uint32_t slot = kRoot + record::RespZap::block_hash.offset;
  t.b[slot] = static_cast<std::uint8_t>(kRespTailAt - slot);
  t.b[slot + 4] = static_cast<std::uint8_t>(record::kHashBytes);
  return t;
}();

}  // namespace limit_detail

class LimitCodec {
 public:
  static constexpr std::string_view kName = "limit";
  static constexpr std::string_view kEncodePath =
      "the layout known in advance: the header and fixed section copied from a template, each field "
      "stored at its offset, each tail copied after them";
  static constexpr std::string_view kDecodePath =
      "the header checked, the root's fixed section bounded once, each scalar loaded at its offset, "
      "each tail's slot read and bounded";

  // The returned view is valid until the next encode of the same direction.
  record::Bytes encode_request(const record::Request& r) noexcept {
    std::uint8_t* m = req_;
    const std::size_t method_bytes = r.method.size();
    if (method_bytes > kMaxMethodBytes) return {};
    const std::uint32_t size = kReqTailAt + static_cast<std::uint32_t>(method_bytes) + kAccountBytes;
    std::memcpy(m, limit_detail::kRequest.b, kReqTailAt);  // header and slots' constant parts
    store(m + kSizeAt, size);
    store(m + kRoot + kIdAt, r.id);
    store(m + kRoot + kBlockAt, r.block);
    // A Bytes/Text slot: rel from the slot to its tail, and the length; empty is null (0, 0).
    const std::uint32_t account_at = kReqTailAt + static_cast<std::uint32_t>(method_bytes);
    if (method_bytes == 0) {
      store(m + kRoot + kMethodAt, std::uint64_t{0});
    } else {
      store(m + kRoot + kMethodAt, kReqTailAt - (kRoot + kMethodAt));
      store(m + kRoot + kMethodAt + 4, static_cast<std::uint32_t>(method_bytes));
      std::memcpy(m + kReqTailAt, r.method.data(), method_bytes);
    }
    store(m + kRoot + kAccountAt, account_at - (kRoot + kAccountAt));
    store(m + kRoot + kAccountAt + 4, static_cast<std::uint32_t>(kAccountBytes));
    std::memcpy(m + account_at, r.account.data(), kAccountBytes);
    return {m, size};
  }

  record::Bytes encode_response(const record::Response& r) noexcept {
    std::uint8_t* m = resp_;
    std::memcpy(m, limit_detail::kResponse.b, kRespTailAt);
    store(m + kRoot + kIdAt, r.id);
    store(m + kRoot + kBalanceAt, r.balance);
    store(m + kRoot + kNonceAt, r.nonce);
    std::memcpy(m + kRespTailAt, r.block_hash.data(), kHashBytes);
    return {m, kRespBytes};
  }

  record::DecodeError decode_request(record::Bytes in, record::RequestView& out) const noexcept {
    const std::uint8_t* m = in.data();
    std::uint32_t size = 0;
    if (!header_ok(in, kReqTailAt, size)) return record::DecodeError::syntax;
    record::Bytes method, account;
    if (!tail(m, size, kRoot + kMethodAt, method) || !tail(m, size, kRoot + kAccountAt, account))
      return record::DecodeError::syntax;
    if (account.size() != kAccountBytes)
      return account.data() == nullptr ? record::DecodeError::missing_field : record::DecodeError::bad_length;
    out.id = load<std::uint64_t>(m + kRoot + kIdAt);
    out.block = load<std::uint64_t>(m + kRoot + kBlockAt);
    out.method = {reinterpret_cast<const char*>(method.data()), method.size()};
    out.account = {reinterpret_cast<const char*>(account.data()), account.size()};
    out.account0 = account[0];
    out.account_form = record::Form::raw;
    return record::DecodeError::ok;
  }

  record::DecodeError decode_response(record::Bytes in, record::ResponseView& out) const noexcept {
    const std::uint8_t* m = in.data();
    std::uint32_t size = 0;
    if (!header_ok(in, kRespTailAt, size)) return record::DecodeError::syntax;
    record::Bytes hash;
    if (!tail(m, size, kRoot + kHashAt, hash)) return record::DecodeError::syntax;
    if (hash.size() != kHashBytes)
      return hash.data() == nullptr ? record::DecodeError::missing_field : record::DecodeError::bad_length;
    out.id = load<std::uint64_t>(m + kRoot + kIdAt);
    out.balance = load<std::uint64_t>(m + kRoot + kBalanceAt);
    out.nonce = load<std::uint64_t>(m + kRoot + kNonceAt);
    out.block_hash = {reinterpret_cast<const char*>(hash.data()), hash.size()};
    out.block_hash_form = record::Form::raw;
    return record::DecodeError::ok;
  }

 private:
  using Bytes = record::Bytes;
  static constexpr std::size_t kAccountBytes = record::kAccountBytes;
  static constexpr std::size_t kHashBytes = record::kHashBytes;
  static constexpr std::uint32_t kSizeAt = zap::kSizeAt;
  // The layout known in advance (record/eth.hpp's schemas; zap-wire.md §13.2).
  static constexpr std::uint32_t kRoot = limit_detail::kRoot;
  static constexpr std::uint32_t kIdAt = record::ReqZap::id.offset;
  static_assert(record::ReqZap::id.offset == record::RespZap::id.offset);
  static constexpr std::uint32_t kBlockAt = record::ReqZap::block.offset;
  static constexpr std::uint32_t kMethodAt = record::ReqZap::method.offset;
  static constexpr std::uint32_t kAccountAt = record::ReqZap::account.offset;
  static constexpr std::uint32_t kBalanceAt = record::RespZap::balance.offset;
  static constexpr std::uint32_t kNonceAt = record::RespZap::nonce.offset;
  static constexpr std::uint32_t kHashAt = record::RespZap::block_hash.offset;
  static constexpr std::uint32_t kReqTailAt = limit_detail::kReqTailAt;
  static constexpr std::uint32_t kRespTailAt = limit_detail::kRespTailAt;
  static constexpr std::uint32_t kRespBytes = limit_detail::kRespBytes;
  static constexpr std::size_t kMaxMethodBytes = 64;

  template <class T>
  static void store(std::uint8_t* p, T v) noexcept {
    zap::detail::store_le<T>(p, v);
  }
  template <class T>
  static T load(const std::uint8_t* p) noexcept {
    return zap::detail::load_le<T>(p);
  }

  // The header's checks (zap-wire.md §10.1: magic, version, a size within the
  // input), the root where the layout has it, and its fixed section inside the
  // message: once, so every scalar load after it is in bounds.
  static bool header_ok(Bytes in, std::uint32_t fixed_end, std::uint32_t& size) noexcept {
    if (in.size() < fixed_end) return false;
    const std::uint8_t* m = in.data();
    if (load<std::uint32_t>(m) != load<std::uint32_t>(zap::kMagic) ||
        load<std::uint16_t>(m + zap::kVersionAt) != 1 || load<std::uint32_t>(m + zap::kRootAt) != kRoot)
      return false;
    size = load<std::uint32_t>(m + kSizeAt);
    return size >= fixed_end && size <= in.size();
  }

  // A slot's tail (zap-wire.md §10.3): null (0, 0) reads as no bytes; a tail
  // past the message is malformed.
  static bool tail(const std::uint8_t* m, std::uint32_t size, std::uint32_t slot, Bytes& out) noexcept {
    const std::uint32_t rel = load<std::uint32_t>(m + slot);
    const std::uint32_t len = load<std::uint32_t>(m + slot + 4);
    if (rel == 0) {
      out = {};
      return true;
    }
    const std::uint64_t at = std::uint64_t{slot} + rel;
    if (at + len > size) return false;
    out = {m + at, len};
    return true;
  }

  alignas(
      16) std::uint8_t req_[kReqTailAt + kMaxMethodBytes + kAccountBytes + record::kInputPaddingBytes] = {};
  alignas(16) std::uint8_t resp_[kRespBytes + record::kInputPaddingBytes] = {};
};

}  // namespace micro
