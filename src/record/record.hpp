// record/record.hpp — the benchmark record's logical values, the decoded views
// every codec produces, the decode errors, and the compute the server runs.
// Defined once: micro benchmarks, server and load generator all use these.
// Codec-specific code lives in codec_*.hpp; layouts and samples in eth.hpp.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "record/eth.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

// Each digit's value (either case), or 0xFF: one load per digit on the
// scalar paths.
inline constexpr std::array<std::uint8_t, 256> kValue = [] {
  std::array<std::uint8_t, 256> t{};
  for (std::size_t c = 0; c < 256; ++c) {
    const int d = digit(static_cast<char>(c));
    t[c] = d < 0 ? 0xFF : static_cast<std::uint8_t>(d);
  }
  return t;
}();

// The two lowercase digits of every byte, for the scalar paths.
inline constexpr std::array<std::array<char, 2>, 256> kPairs = [] {
  std::array<std::array<char, 2>, 256> t{};
  for (std::size_t b = 0; b < 256; ++b) t[b] = {kDigits[b >> 4], kDigits[b & 15]};
  return t;
}();

#if defined(__SSE2__)
namespace detail {
// Sixteen nibbles (0–15, one per byte) as their lowercase digits.
inline __m128i nibble_digits(__m128i n) noexcept {
  const __m128i letter = _mm_cmpgt_epi8(n, _mm_set1_epi8(9));  // 'a' - '0' - 10 = 39 more for 10–15
  return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')), _mm_and_si128(letter, _mm_set1_epi8(39)));
}
// Eight bytes (the low half of b) as sixteen digits, high nibble first.
inline __m128i byte_digits_lo(__m128i b) noexcept {
  const __m128i mask = _mm_set1_epi8(0x0F);
  const __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), mask), lo = _mm_and_si128(b, mask);
  return nibble_digits(_mm_unpacklo_epi8(hi, lo));
}
inline __m128i byte_digits_hi(__m128i b) noexcept {
  const __m128i mask = _mm_set1_epi8(0x0F);
  const __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), mask), lo = _mm_and_si128(b, mask);
  return nibble_digits(_mm_unpackhi_epi8(hi, lo));
}
// Sixteen hex digits (either case) as eight bytes in the low half; `ok`
// false if any is not a hex digit. A signed compare suffices: bytes >= 0x80
// are negative, below every range.
inline __m128i digits_to_bytes(__m128i c, bool& ok) noexcept {
  const __m128i is_digit =
      _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
  const __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));  // 'A'–'F' to 'a'–'f'; digits unchanged
  const __m128i is_letter = _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)),
                                          _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
  ok = _mm_movemask_epi8(_mm_or_si128(is_digit, is_letter)) == 0xFFFF;
  const __m128i v = _mm_or_si128(_mm_and_si128(is_digit, _mm_sub_epi8(c, _mm_set1_epi8('0'))),
                                 _mm_andnot_si128(is_digit, _mm_sub_epi8(lower, _mm_set1_epi8('a' - 10))));
  // Each little-endian 16-bit lane holds (first digit, second digit): the
  // byte is first << 4 | second.
  const __m128i pair =
      _mm_or_si128(_mm_and_si128(_mm_slli_epi16(v, 4), _mm_set1_epi16(0x00F0)), _mm_srli_epi16(v, 8));
  return _mm_packus_epi16(pair, pair);
}
}  // namespace detail
#endif

// Writes "0x" + 2n lowercase digits to out (which has room for 2 + 2n chars);
// returns the end. The first record's writer, kept byte by byte so that its
// published figures stay comparable; encode() writes the same faster.
inline char* write(char* out, Bytes b) noexcept {
  *out++ = '0';
  *out++ = 'x';
  for (std::uint8_t v : b) {
    *out++ = kDigits[v >> 4];
    *out++ = kDigits[v & 15];
  }
  return out;
}

// write()'s bytes, sixteen bytes a step where SSE2 is baseline (every
// x86-64): the eth_getLogs writers', whose hashes and data are most of an
// answer.
inline char* encode(char* out, Bytes b) noexcept {
  *out++ = '0';
  *out++ = 'x';
  const std::uint8_t* p = b.data();
  std::size_t n = b.size();
#if defined(__SSE2__)
  for (; n >= 16; n -= 16, p += 16, out += 32) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), detail::byte_digits_lo(v));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16), detail::byte_digits_hi(v));
  }
  if (n >= 8) {
    const __m128i v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), detail::byte_digits_lo(v));
    n -= 8, p += 8, out += 16;
  }
#endif
  for (; n > 0; --n, ++p, out += 2) std::memcpy(out, kPairs[*p].data(), 2);
  return out;
}

// The most characters write_quantity writes: "0x" + 16 digits.
inline constexpr std::size_t kMaxQuantityChars = 18;

// Writes an Ethereum JSON-RPC quantity: "0x" + lowercase hex without leading
// zeros ("0x0" for zero); returns the end.
inline char* write_quantity(char* out, std::uint64_t v) noexcept {
  *out++ = '0';
  *out++ = 'x';
  const int n = v == 0 ? 1 : (64 - std::countl_zero(v) + 3) / 4;
  for (int i = n - 1; i >= 0; --i, v >>= 4) out[i] = kDigits[v & 15];
  return out + n;
}

// Decodes n bytes from the 2n hex digits (either case) at s into out; false
// if any character is not a hex digit (out then holds garbage). Reads only
// s[0, 2n).
inline bool decode(const char* s, std::size_t n, std::uint8_t* out) noexcept {
#if defined(__SSE2__)
  for (; n >= 16; n -= 16, s += 32, out += 16) {
    bool ok_lo, ok_hi;
    const __m128i lo = detail::digits_to_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)), ok_lo);
    const __m128i hi =
        detail::digits_to_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16)), ok_hi);
    if (!(ok_lo & ok_hi)) return false;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm_unpacklo_epi64(lo, hi));
  }
  if (n >= 8) {
    bool ok;
    const __m128i v = detail::digits_to_bytes(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)), ok);
    if (!ok) return false;
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), v);
    n -= 8, s += 16, out += 8;
  }
#endif
  unsigned bad = 0;
  for (; n > 0; --n, s += 2, ++out) {
    const unsigned hi = kValue[static_cast<unsigned char>(s[0])],
                   lo = kValue[static_cast<unsigned char>(s[1])];
    bad |= hi | lo;  // 0xFF marks a non-digit; a digit is at most 15
    *out = static_cast<std::uint8_t>(hi << 4 | lo);
  }
  return bad < 16;
}

// Whether s starts with the 0x (or 0X) prefix.
constexpr bool has_prefix(std::string_view s) noexcept {
  return s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
}

// A fixed-size byte field (an address, a hash, a topic), every digit checked
// and decoded into out[0, n): no 0x prefix is bad_hex, a length other than
// 2 + 2n characters bad_length, a non-digit bad_hex.
inline DecodeError decode_fixed(std::string_view s, std::uint8_t* out, std::size_t n) noexcept {
  if (!has_prefix(s)) return DecodeError::bad_hex;
  if (s.size() != 2 + 2 * n) return DecodeError::bad_length;
  return decode(s.data() + 2, n, out) ? DecodeError::ok : DecodeError::bad_hex;
}

// A byte string of any length into out, which has room for (s.size() - 2) / 2
// bytes; its length to n. No prefix, an odd digit count or a non-digit:
// bad_hex.
inline DecodeError decode_bytes(std::string_view s, std::uint8_t* out, std::size_t& n) noexcept {
  if (!has_prefix(s) || s.size() % 2 != 0) return DecodeError::bad_hex;
  n = (s.size() - 2) / 2;
  return decode(s.data() + 2, n, out) ? DecodeError::ok : DecodeError::bad_hex;
}

// An Ethereum JSON-RPC quantity: "0x"/"0X" and one or more hex digits of
// either case (leading zeros accepted, as geth's decoder does not insist on
// its own encoder's form). No prefix, no digit or a non-digit: bad_hex; past
// `max` (u64: more than 16 significant digits): integer_overflow.
inline DecodeError parse_quantity(std::string_view s, std::uint64_t max, std::uint64_t& out) noexcept {
  if (!has_prefix(s) || s.size() == 2) return DecodeError::bad_hex;
  std::uint64_t v = 0;
  bool overflow = false;
  for (std::size_t i = 2; i < s.size(); ++i) {
    const std::uint64_t d = kValue[static_cast<unsigned char>(s[i])];
    if (d > 15) return DecodeError::bad_hex;
    overflow |= v >> 60 != 0;  // one more digit pushes a set bit past 64
    v = v << 4 | d;
  }
  if (overflow || v > max) return DecodeError::integer_overflow;
  out = v;
  return DecodeError::ok;
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
