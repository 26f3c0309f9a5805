// record/record.hpp — the benchmark record's logical values, the decoded views
// every codec produces, the decode errors, and the compute the server runs.
// Defined once: micro benchmarks, server and load generator all use these.
// Codec-specific code lives in codec_*.hpp; layouts and samples in eth.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "record/eth.hpp"

namespace record {

using Bytes = std::span<const std::uint8_t>;
using Account = std::array<std::uint8_t, kAccountBytes>;
using Hash = std::array<std::uint8_t, kHashBytes>;

// Logical values, as a client or server hands them to an encoder.
struct Request {
  std::uint64_t id = 0;
  std::uint64_t block = 0;
  std::string_view method;
  Account account{};
};
struct Response {
  std::uint64_t id = 0;
  std::uint64_t balance = 0;
  std::uint64_t nonce = 0;
  Hash block_hash{};
};

// How a decoded byte field is held: ZAP gives the raw bytes; JSON gives the
// wire text "0x" + lowercase hex, which decoders check for the prefix, the
// exact length and the first byte's two digits only (the charitable framing
// of the reference: JSON is not charged for decoding the rest).
enum class Form : std::uint8_t { raw, hex };

// What a decoder hands back. Views point into the input (or, for a JSON
// string with escapes, into the codec's own scratch): valid until the next
// decode on the same codec object, and while the input is unchanged.
struct RequestView {
  std::uint64_t id = 0;
  std::uint64_t block = 0;
  std::string_view method;    // unescaped
  std::string_view account;   // 20 raw bytes, or "0x" + 40 hex digits
  std::uint8_t account0 = 0;  // the first account byte, decoded on every codec
  Form account_form = Form::raw;
};
struct ResponseView {
  std::uint64_t id = 0;
  std::uint64_t balance = 0;
  std::uint64_t nonce = 0;
  std::string_view block_hash;  // 32 raw bytes, or "0x" + 64 hex digits
  Form block_hash_form = Form::raw;
};

// Every decoder returns one of these (no exceptions on the decode path).
// Unknown keys are ignored. A key given twice is `duplicate_field` on every
// codec (the one documented behaviour for duplicates).
enum class DecodeError : std::uint8_t {
  ok = 0,
  syntax,            // not well-formed (JSON grammar, truncation), or a bad ZAP header
  wrong_type,        // a field of the wrong type (a string for a number, a float, a negative)
  integer_overflow,  // a number past u64
  missing_field,
  duplicate_field,
  bad_length,  // account not 20 bytes / hash not 32 (42 / 66 characters as 0x-hex)
  bad_hex,     // no 0x prefix, or a first byte that is not two hex digits
  trailing,    // bytes after the JSON value
};

constexpr std::string_view describe(DecodeError e) noexcept {
  switch (e) {
    case DecodeError::ok:
      return "ok";
    case DecodeError::syntax:
      return "malformed input";
    case DecodeError::wrong_type:
      return "field of the wrong type";
    case DecodeError::integer_overflow:
      return "integer out of range";
    case DecodeError::missing_field:
      return "missing field";
    case DecodeError::duplicate_field:
      return "duplicate field";
    case DecodeError::bad_length:
      return "account or hash of the wrong length";
    case DecodeError::bad_hex:
      return "bad hex";
    case DecodeError::trailing:
      return "trailing bytes after the value";
  }
  return "unknown error";
}

// The three families every table and report groups codecs by: ZAP, the JSON
// codecs (text) and the binary peers (every other content type).
enum class Family : std::uint8_t { zap, json, peer };
constexpr Family family_of(std::string_view content_type) noexcept {
  if (content_type == "application/zap") return Family::zap;
  if (content_type == "application/json") return Family::json;
  return Family::peer;
}

// Every decoder may read up to this many bytes past the end of its input
// (simdjson's contract; the others ignore it). Buffers handed to decoders —
// the benchmarks', the server's connection buffers — provide them.
inline constexpr std::size_t kInputPaddingBytes = 64;

// ---- hex (shared by every JSON codec) --------------------------------------

namespace hex {

inline constexpr char kDigits[] = "0123456789abcdef";

// The value of one hex digit (either case), or -1.
constexpr int digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Writes "0x" + 2n lowercase digits to out (which has room for 2 + 2n chars);
// returns the end.
inline char* write(char* out, Bytes b) noexcept {
  *out++ = '0';
  *out++ = 'x';
  for (std::uint8_t v : b) {
    *out++ = kDigits[v >> 4];
    *out++ = kDigits[v & 15];
  }
  return out;
}

// Checks a 0x-hex field of n_bytes bytes as the charitable framing says:
// prefix, exact length, and the first byte's two digits, which it returns.
inline DecodeError check(std::string_view s, std::size_t n_bytes, std::uint8_t& first) noexcept {
  if (s.size() < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return DecodeError::bad_hex;
  if (s.size() != 2 + 2 * n_bytes) return DecodeError::bad_length;
  const int hi = digit(s[2]), lo = digit(s[3]);
  if (hi < 0 || lo < 0) return DecodeError::bad_hex;
  first = static_cast<std::uint8_t>(hi << 4 | lo);
  return DecodeError::ok;
}

// Full decode, for tests and tools (never on a measured path): false on any
// bad digit or length.
template <std::size_t N>
bool decode_all(std::string_view s, std::array<std::uint8_t, N>& out) noexcept {
  if (s.size() != 2 + 2 * N || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) return false;
  for (std::size_t i = 0; i < N; ++i) {
    const int hi = digit(s[2 + 2 * i]), lo = digit(s[3 + 2 * i]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return true;
}

}  // namespace hex

// ---- the compute --------------------------------------------------------------

// The handler's work, identical on every codec: echo id, nonce 42, the sample
// hash, and a balance that folds in every request field (so nothing can be
// skipped): 10^18 XOR (block XOR len(method) XOR 20 XOR account[0]).
constexpr std::uint64_t balance_of(std::uint64_t block, std::size_t method_len,
                                   std::uint8_t account0) noexcept {
  return kSampleBalance ^ (block ^ method_len ^ kAccountBytes ^ account0);
}

inline Response compute(const RequestView& r) noexcept {
  return Response{r.id, balance_of(r.block, r.method.size(), r.account0), kSampleNonce, kSampleHash};
}

inline Request sample_request() noexcept {
  return Request{kSampleId, kSampleBlock, kSampleMethod, kSampleAccount};
}
inline Response sample_response() noexcept {
  return Response{kSampleId, kSampleBalance, kSampleNonce, kSampleHash};
}

}  // namespace record
