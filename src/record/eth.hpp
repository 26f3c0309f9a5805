// record/eth.hpp — the benchmark record, defined once: the eth_call request and
// response, their ZAP layouts (via zap::Schema, the only place offsets come
// from) and the sample values every consumer (benchmarks, server, loader) uses.
// Must not own sockets or framing.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "zap/schema.hpp"

namespace record {

inline constexpr std::size_t kAccountBytes = 20;
inline constexpr std::size_t kHashBytes = 32;

// ZAP layouts, by Go's StructBuilder in this field order (offsets 0, 8, 16, 24;
// size 32). zap-wire.md §13.2.
struct ReqZap {
  using S = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::text, zap::Type::bytes>;
  static constexpr auto id = S::field<0>;
  static constexpr auto block = S::field<1>;
  static constexpr auto method = S::field<2>;
  static constexpr auto account = S::field<3>;
};
struct RespZap {
  using S = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::u64, zap::Type::bytes>;
  static constexpr auto id = S::field<0>;
  static constexpr auto balance = S::field<1>;
  static constexpr auto nonce = S::field<2>;
  static constexpr auto block_hash = S::field<3>;
};

// The sample record (vectors eth_req.hex / eth_resp.hex).
inline constexpr std::uint64_t kSampleId = 1;
inline constexpr std::uint64_t kSampleBlock = 0x10d4f;
inline constexpr std::string_view kSampleMethod = "eth_getBalance";
inline constexpr std::array<std::uint8_t, kAccountBytes> kSampleAccount = {
    0xde, 0xad, 0xbe, 0xef, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
    0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
inline constexpr std::uint64_t kSampleBalance = 1'000'000'000'000'000'000ULL;  // 10^18
inline constexpr std::uint64_t kSampleNonce = 42;
inline constexpr std::array<std::uint8_t, kHashBytes> kSampleHash = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
    0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};

}  // namespace record
