// record/json_reader.hpp — the record-specific JSON reader, the `direct`
// codec's decoder: one validating pass over the bytes, keys matched by
// length + memcmp, no recursion, no exceptions, no allocation in steady state.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "record/record.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace record {
namespace json {

// Containers nested deeper than this are `syntax`. Unknown values are skipped
// with a bit stack rather than recursion, so the cap bounds a local array, not
// the call stack; 1024 is deeper than any sane document.
inline constexpr std::size_t kMaxDepth = 1024;

// Every function below takes the input's end explicitly and never reads at or
// past it: the codec must hold on exact-size buffers (ASan, the fuzz target),
// so the caller-provided padding is deliberately not relied on. A null return
// means "not well-formed" (DecodeError::syntax).

constexpr bool is_digit(char c) noexcept { return static_cast<unsigned char>(c - '0') < 10; }
constexpr bool is_ws(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

inline const char* skip_ws(const char* p, const char* end) noexcept {
  while (p < end && is_ws(*p)) ++p;
  return p;
}

// Bytes a string scan must stop at: '"', '\\', control characters (invalid
// unescaped) and non-ASCII (UTF-8 to validate).
inline constexpr std::array<bool, 256> kStringStop = [] {
  std::array<bool, 256> t{};
  for (std::size_t c = 0; c < 256; ++c) t[c] = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
  return t;
}();

// Eight bytes at once: a high bit set in each stop byte. Only the lowest
// flagged byte is guaranteed exact (borrows can misflag bytes above a real
// hit), which is all a scan needs: it wants the first stop.
constexpr std::uint64_t stop_mask(std::uint64_t w) noexcept {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL, kHighs = 0x8080808080808080ULL;
  const std::uint64_t q = w ^ (kOnes * '"'), b = w ^ (kOnes * '\\');
  // (w - 0x20..) | w: a high bit for bytes < 0x20 and bytes >= 0x80.
  return (((q - kOnes) & ~q) | ((b - kOnes) & ~b) | (w - kOnes * 0x20) | w) & kHighs;
}

// Steps over one UTF-8 sequence whose lead byte is >= 0x80 (RFC 3629: no
// overlongs, no surrogates, nothing past U+10FFFF). Invalid or cut short: null.
inline const char* skip_utf8(const char* p, const char* end) noexcept {
  const auto byte = [p](int i) { return static_cast<unsigned char>(p[i]); };
  const auto cont = [&](int i) { return (byte(i) & 0xC0) == 0x80; };
  const unsigned b0 = byte(0);
  const std::ptrdiff_t left = end - p;
  if (b0 < 0xC2) return nullptr;  // a stray continuation byte, or an overlong 2-byte lead
  if (b0 < 0xE0) return left >= 2 && cont(1) ? p + 2 : nullptr;
  if (b0 < 0xF0) {
    if (left < 3) return nullptr;
    // E0 would be overlong below A0; ED would be a surrogate above 9F.
    const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF, b1 = byte(1);
    return b1 >= lo && b1 <= hi && cont(2) ? p + 3 : nullptr;
  }
  if (b0 < 0xF5) {
    if (left < 4) return nullptr;
    // F0 would be overlong below 90; F4 would pass U+10FFFF above 8F.
    const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF, b1 = byte(1);
    return b1 >= lo && b1 <= hi && cont(2) && cont(3) ? p + 4 : nullptr;
  }
  return nullptr;
}

// Advances over string bytes that need no work and over valid UTF-8; stops at
// '"', '\\', a control character, or end. Null: invalid UTF-8.
inline const char* scan_run(const char* p, const char* end) noexcept {
  for (;;) {
#if defined(__SSE2__)
    // Sixteen bytes a step where SSE2 is baseline (every x86-64): the account
    // and hash are 42 and 66 plain bytes. A signed compare with 0x20 catches
    // control bytes and non-ASCII (negative) at once.
    while (end - p >= 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i stop = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
          _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)));
      if (const auto m = static_cast<unsigned>(_mm_movemask_epi8(stop))) {
        p += std::countr_zero(m);
        goto stop;
      }
      p += 16;
    }
#endif
    // Eight bytes a step elsewhere and for the tail; on little-endian the
    // first stop is the mask's lowest set bit.
    if constexpr (std::endian::native == std::endian::little) {
      while (end - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        if (const std::uint64_t m = stop_mask(w)) {
          p += std::countr_zero(m) / 8;
          goto stop;
        }
        p += 8;
      }
    }
    while (p < end && !kStringStop[static_cast<unsigned char>(*p)]) ++p;
    if (p == end) return p;
  stop:
    if (static_cast<unsigned char>(*p) < 0x80) return p;
    p = skip_utf8(p, end);
    if (p == nullptr) return nullptr;
  }
}

inline bool hex4(const char* p, const char* end, std::uint32_t& out) noexcept {
  if (end - p < 4) return false;
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const int d = hex::digit(p[i]);
    if (d < 0) return false;
    v = v << 4 | static_cast<std::uint32_t>(d);
  }
  out = v;
  return true;
}

// One escape at p (the backslash) into out (room for 4 bytes), its length in
// n. \uXXXX becomes UTF-8; a surrogate must come as a high+low pair, since a
// lone one has no UTF-8 form. Null: a bad escape.
inline const char* unescape(const char* p, const char* end, char* out, std::size_t& n) noexcept {
  if (end - p < 2) return nullptr;
  n = 1;
  switch (p[1]) {
    case '"':
      *out = '"';
      return p + 2;
    case '\\':
      *out = '\\';
      return p + 2;
    case '/':
      *out = '/';
      return p + 2;
    case 'b':
      *out = '\b';
      return p + 2;
    case 'f':
      *out = '\f';
      return p + 2;
    case 'n':
      *out = '\n';
      return p + 2;
    case 'r':
      *out = '\r';
      return p + 2;
    case 't':
      *out = '\t';
      return p + 2;
    case 'u':
      break;
    default:
      return nullptr;
  }
  std::uint32_t cp;
  if (!hex4(p + 2, end, cp)) return nullptr;
  p += 6;
  if (cp >= 0xD800 && cp <= 0xDFFF) {
    std::uint32_t lo;
    if (cp >= 0xDC00 || end - p < 6 || p[0] != '\\' || p[1] != 'u' || !hex4(p + 2, end, lo) || lo < 0xDC00 ||
        lo > 0xDFFF)
      return nullptr;
    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
    p += 6;
  }
  const auto put = [out](int i, std::uint32_t v) { out[i] = static_cast<char>(v); };
  if (cp < 0x80) {
    put(0, cp);
  } else if (cp < 0x800) {
    put(0, 0xC0 | cp >> 6), put(1, 0x80 | (cp & 0x3F)), n = 2;
  } else if (cp < 0x10000) {
    put(0, 0xE0 | cp >> 12), put(1, 0x80 | (cp >> 6 & 0x3F)), put(2, 0x80 | (cp & 0x3F)), n = 3;
  } else {
    put(0, 0xF0 | cp >> 18), put(1, 0x80 | (cp >> 12 & 0x3F)), put(2, 0x80 | (cp >> 6 & 0x3F));
    put(3, 0x80 | (cp & 0x3F)), n = 4;
  }
  return p;
}

// The rest of a string with escapes: p is at the first backslash; every byte
// after it goes to sink.append (which may drop them). Returns past the quote.
template <class Sink>
const char* escaped_tail(const char* p, const char* end, Sink& sink) noexcept {
  for (;;) {
    char buf[4];
    std::size_t n;
    p = unescape(p, end, buf, n);
    if (p == nullptr) return nullptr;
    sink.append(buf, n);
    const char* r = scan_run(p, end);
    if (r == nullptr || r == end) return nullptr;
    sink.append(p, static_cast<std::size_t>(r - p));
    p = r;
    if (*p == '"') return p + 1;
    if (*p != '\\') return nullptr;
  }
}

struct DropSink {
  void append(const char*, std::size_t) noexcept {}
};

// Validates a string (p just past its opening quote) without keeping it.
inline const char* skip_string(const char* p, const char* end) noexcept {
  p = scan_run(p, end);
  if (p == nullptr || p == end) return nullptr;
  if (*p == '"') return p + 1;
  if (*p != '\\') return nullptr;
  DropSink drop;
  return escaped_tail(p, end, drop);
}

// A fraction and exponent, if present, after a number's integer digits.
inline const char* skip_number_tail(const char* p, const char* end) noexcept {
  if (p < end && *p == '.') {
    if (++p == end || !is_digit(*p)) return nullptr;
    while (++p < end && is_digit(*p)) {
    }
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    if (++p < end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !is_digit(*p)) return nullptr;
    while (++p < end && is_digit(*p)) {
    }
  }
  return p;
}

// One number's grammar (RFC 8259: no leading zeros, no '+', digits on both
// sides of '.'). Anything that does not start like a number is null.
inline const char* skip_number(const char* p, const char* end) noexcept {
  if (p < end && *p == '-') ++p;
  if (p == end || !is_digit(*p)) return nullptr;
  if (*p == '0') {
    if (++p < end && is_digit(*p)) return nullptr;
  } else {
    while (++p < end && is_digit(*p)) {
    }
  }
  return skip_number_tail(p, end);
}

inline const char* skip_literal(const char* p, const char* end, std::string_view lit) noexcept {
  if (static_cast<std::size_t>(end - p) < lit.size() || std::memcmp(p, lit.data(), lit.size()) != 0)
    return nullptr;
  return p + lit.size();
}

// An object member's key and colon, when skipping (p at the key's quote).
inline const char* skip_key(const char* p, const char* end) noexcept {
  if (p == end || *p != '"') return nullptr;
  p = skip_string(p + 1, end);
  if (p == nullptr || (p = skip_ws(p, end)) == end || *p != ':') return nullptr;
  return p + 1;
}

// Skips one well-formed value of any type. Open containers live on a bit
// stack (1 = object, 0 = array), never the call stack, so hostile nesting
// costs at most max_depth bits; deeper is null.
inline const char* skip_value(const char* p, const char* end, std::size_t max_depth) noexcept {
  std::uint64_t stack[kMaxDepth / 64];
  std::size_t depth = 0;
  if (max_depth > kMaxDepth) max_depth = kMaxDepth;
  for (;;) {
    p = skip_ws(p, end);
    if (p == end) return nullptr;
    switch (*p) {
      case '{':
      case '[': {
        if (depth == max_depth) return nullptr;  // an empty container counts as a level too
        const bool obj = *p == '{';
        p = skip_ws(p + 1, end);
        if (p == end) return nullptr;
        if (*p == (obj ? '}' : ']')) {
          ++p;
          break;  // complete already: nothing to push
        }
        const std::uint64_t bit = std::uint64_t{1} << (depth % 64);
        stack[depth / 64] = obj ? stack[depth / 64] | bit : stack[depth / 64] & ~bit;
        ++depth;
        if (obj && (p = skip_key(p, end)) == nullptr) return nullptr;
        continue;  // the first element's value
      }
      case '"':
        p = skip_string(p + 1, end);
        break;
      case 't':
        p = skip_literal(p, end, "true");
        break;
      case 'f':
        p = skip_literal(p, end, "false");
        break;
      case 'n':
        p = skip_literal(p, end, "null");
        break;
      default:
        p = skip_number(p, end);
        break;  // also rejects every other byte
    }
    if (p == nullptr) return nullptr;
    // A value is complete: close containers until one has a next element.
    for (;;) {
      if (depth == 0) return p;
      p = skip_ws(p, end);
      if (p == end) return nullptr;
      const bool obj = (stack[(depth - 1) / 64] >> ((depth - 1) % 64)) & 1;
      if (*p == ',') {
        p = skip_ws(p + 1, end);
        if (obj && (p = skip_key(p, end)) == nullptr) return nullptr;
        break;
      }
      if (*p != (obj ? '}' : ']')) return nullptr;
      ++p;
      --depth;
    }
  }
}

// Whether eight bytes are all ASCII digits, and their value (the first byte
// most significant); little-endian words. The SWAR steps simdjson uses too.
constexpr bool eight_digits(std::uint64_t w) noexcept {
  return (w & 0xF0F0F0F0F0F0F0F0ULL) == 0x3030303030303030ULL &&
         ((w + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) == 0x3030303030303030ULL;
}
constexpr std::uint64_t eight_digits_value(std::uint64_t w) noexcept {
  w -= 0x3030303030303030ULL;
  w = w * 10 + (w >> 8);  // pairs of digits
  constexpr std::uint64_t kMask = 0x000000FF000000FFULL;
  return ((w & kMask) * (100 + (1000000ULL << 32)) + ((w >> 16 & kMask) * (1 + (10000ULL << 32)))) >> 32;
}

// A u64 field's value (p at its first byte, p < end). Grammar errors are null;
// the semantic outcome goes to err: anything but a non-negative integer is
// wrong_type (after its grammar is checked), past 2^64-1 integer_overflow.
inline const char* read_u64(const char* p, const char* end, std::uint64_t& out, DecodeError& err) noexcept {
  std::uint64_t v = 0;
  if (*p >= '1' && *p <= '9') {
    // 19 digits cannot overflow (10^19 - 1 < 2^64): no check until the 20th.
    const char* const lim = end - p > 19 ? p + 19 : end;
    if constexpr (std::endian::native == std::endian::little) {
      // Long values (the balance has 19 digits) eight digits a step.
      while (lim - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        if (!eight_digits(w)) break;
        v = v * 100000000 + eight_digits_value(w);
        p += 8;
      }
    }
    while (p < lim && is_digit(*p)) v = v * 10 + static_cast<std::uint64_t>(*p++ - '0');
    if (p < end && is_digit(*p)) {
      // The 20th digit may still fit (2^64-1 has 20 digits); a 21st never does.
      const auto d = static_cast<std::uint64_t>(*p++ - '0');
      if (v > (UINT64_MAX - d) / 10) err = DecodeError::integer_overflow;
      v = v * 10 + d;
      if (p < end && is_digit(*p)) {
        err = DecodeError::integer_overflow;
        while (++p < end && is_digit(*p)) {
        }
      }
    }
  } else if (*p == '0') {
    if (++p < end && is_digit(*p)) return nullptr;
  } else {
    err = DecodeError::wrong_type;
    return *p == '-' ? skip_number(p, end) : skip_value(p, end, kMaxDepth - 1);
  }
  if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) {
    err = DecodeError::wrong_type;  // a fraction or exponent, even when it spells an integer (1.0, 1e3)
    return skip_number_tail(p, end);
  }
  out = v;
  return p;
}

}  // namespace json

// Decodes the record's two JSON documents into views. Any key order and
// whitespace; escapes anywhere; unknown members skipped (but validated); the
// first semantic error (wrong type, duplicate, bad hex, ...) is reported only
// once the whole document has proved well-formed, as a validate-then-bind
// parser (Go's encoding/json, any DOM library) would.
class JsonReader {
 public:
  JsonReader() : scratch_(new char[kInitialScratch]), cap_(kInitialScratch) {}

  // Views point into `in`, or into this reader's scratch for strings that had
  // escapes: valid until the next decode on this reader.
  DecodeError request(Bytes in, RequestView& out) noexcept {
    RequestView v;
    v.account_form = Form::hex;
    const DecodeError e = parse(in, kAllRequest,
                                [&](std::string_view key, const char* p, const char* end, unsigned& which,
                                    DecodeError& err) { return request_field(v, key, p, end, which, err); });
    if (e == DecodeError::ok) out = v;
    return e;
  }

  DecodeError response(Bytes in, ResponseView& out) noexcept {
    ResponseView v;
    v.block_hash_form = Form::hex;
    const DecodeError e = parse(in, kAllResponse,
                                [&](std::string_view key, const char* p, const char* end, unsigned& which,
                                    DecodeError& err) { return response_field(v, key, p, end, which, err); });
    if (e == DecodeError::ok) out = v;
    return e;
  }

 protected:
  // What follows is shared with JsonLogsReader (record/json_logs_reader.hpp),
  // the eth_getLogs documents on the same machinery.

  // Holds the unescaped text of escaped field values; grown (once, to the
  // input's size) only if an input larger than this has an escaped value.
  static constexpr std::size_t kInitialScratch = 4096;
  // Keys with escapes are unescaped into key_, this long: no known key is
  // longer, so a longer key is only validated and matches nothing.
  static constexpr std::size_t kMaxKey = 16;

  // One bit per known field, for duplicates and missing fields.
  enum : unsigned { kId = 1, kBlock = 2, kMethod = 4, kAccount = 8, kAllRequest = 15 };
  enum : unsigned { kBalance = 2, kNonce = 4, kHash = 8, kAllResponse = 15 };

  // The field callbacks of parse(): a switch on the key's length, then one
  // memcmp of a known size; unknown keys have their value skipped.
  const char* request_field(RequestView& v, std::string_view key, const char* p, const char* end,
                            unsigned& which, DecodeError& err) noexcept {
    switch (key.size()) {
      case 2:
        if (!is(key, "id")) break;
        which = kId;
        return json::read_u64(p, end, v.id, err);
      case 5:
        if (!is(key, "block")) break;
        which = kBlock;
        return json::read_u64(p, end, v.block, err);
      case 6:
        if (!is(key, "method")) break;
        which = kMethod;
        return read_string_field(p, end, v.method, err);
      case 7:
        if (!is(key, "account")) break;
        which = kAccount;
        p = read_string_field(p, end, v.account, err);
        if (p != nullptr && err == DecodeError::ok) err = hex::check(v.account, kAccountBytes, v.account0);
        return p;
    }
    return json::skip_value(p, end, json::kMaxDepth - 1);
  }

  const char* response_field(ResponseView& v, std::string_view key, const char* p, const char* end,
                             unsigned& which, DecodeError& err) noexcept {
    switch (key.size()) {
      case 2:
        if (!is(key, "id")) break;
        which = kId;
        return json::read_u64(p, end, v.id, err);
      case 5:
        if (!is(key, "nonce")) break;
        which = kNonce;
        return json::read_u64(p, end, v.nonce, err);
      case 7:
        if (!is(key, "balance")) break;
        which = kBalance;
        return json::read_u64(p, end, v.balance, err);
      case 9:
        if (!is(key, "blockHash")) break;
        which = kHash;
        p = read_string_field(p, end, v.block_hash, err);
        if (p != nullptr && err == DecodeError::ok) {
          std::uint8_t first;
          err = hex::check(v.block_hash, kHashBytes, first);
        }
        return p;
    }
    return json::skip_value(p, end, json::kMaxDepth - 1);
  }

  template <std::size_t N>
  static bool is(std::string_view key, const char (&lit)[N]) noexcept {
    return std::memcmp(key.data(), lit, N - 1) == 0;  // the caller matched the length
  }

  // The object walk shared by both documents. on_field(key, p, end, which,
  // err) reads the value at p, sets `which` to the known field's bit (left 0
  // for unknown keys) and err to its semantic error, and returns the value's
  // end (null: not well-formed).
  template <class OnField>
  DecodeError parse(Bytes in, unsigned all, OnField&& on_field) noexcept {
    const char* p = reinterpret_cast<const char*>(in.data());
    const char* const end = p + in.size();
    in_size_ = in.size();
    used_ = 0;
    DecodeError first = DecodeError::ok;
    unsigned seen = 0;

    p = json::skip_ws(p, end);
    if (p == end) return DecodeError::syntax;
    if (*p != '{') {
      // Not an object, but it must still be one well-formed value.
      p = json::skip_value(p, end, json::kMaxDepth);
      if (p == nullptr) return DecodeError::syntax;
      return json::skip_ws(p, end) == end ? DecodeError::wrong_type : DecodeError::trailing;
    }
    p = json::skip_ws(p + 1, end);
    if (p == end) return DecodeError::syntax;
    if (*p != '}') {
      for (;;) {
        if (*p != '"') return DecodeError::syntax;
        std::string_view key;
        p = read_key(p + 1, end, key);
        if (p == nullptr) return DecodeError::syntax;
        p = json::skip_ws(p, end);
        if (p == end || *p != ':') return DecodeError::syntax;
        p = json::skip_ws(p + 1, end);
        if (p == end) return DecodeError::syntax;
        unsigned which = 0;
        DecodeError err = DecodeError::ok;
        p = on_field(key, p, end, which, err);
        if (p == nullptr) return DecodeError::syntax;
        if (seen & which) err = DecodeError::duplicate_field;
        seen |= which;
        if (first == DecodeError::ok) first = err;
        p = json::skip_ws(p, end);
        if (p == end) return DecodeError::syntax;
        if (*p == '}') break;
        if (*p != ',') return DecodeError::syntax;
        p = json::skip_ws(p + 1, end);
        if (p == end) return DecodeError::syntax;
      }
    }
    if (json::skip_ws(p + 1, end) != end) return DecodeError::trailing;
    if (first != DecodeError::ok) return first;
    return seen == all ? DecodeError::ok : DecodeError::missing_field;
  }

  // A key (p just past its quote). Escape-free keys — all real ones — are
  // views into the input.
  const char* read_key(const char* p, const char* end, std::string_view& key) noexcept {
    const char* const s = p;
    if constexpr (std::endian::native == std::endian::little) {
      // Keys are short and plain: one word usually holds the key and its
      // closing quote, and then its first stop byte is that quote.
      if (end - p >= 8) {
        std::uint64_t w;
        std::memcpy(&w, p, 8);
        if (const std::uint64_t m = json::stop_mask(w)) {
          const int n = std::countr_zero(m) / 8;
          if (p[n] == '"') {
            key = {p, static_cast<std::size_t>(n)};
            return p + n + 1;
          }
        }
      }
    }
    p = json::scan_run(p, end);
    if (p == nullptr || p == end) return nullptr;
    if (*p == '"') {
      key = {s, static_cast<std::size_t>(p - s)};
      return p + 1;
    }
    if (*p != '\\') return nullptr;
    return read_escaped_key(s, p, end, key);
  }

  struct KeySink {
    char* buf;  // kMaxKey bytes
    std::size_t n = 0;
    bool too_long = false;
    void append(const char* b, std::size_t k) noexcept {
      if (too_long || k > kMaxKey - n) {
        too_long = true;
        return;
      }
      std::memcpy(buf + n, b, k);
      n += k;
    }
  };

  // Cold. The view points into key_, valid until the next key is read, which
  // is after this one has been matched.
  const char* read_escaped_key(const char* s, const char* p, const char* end,
                               std::string_view& key) noexcept {
    KeySink sink{key_};
    sink.append(s, static_cast<std::size_t>(p - s));
    p = json::escaped_tail(p, end, sink);
    if (p == nullptr) return nullptr;
    key = sink.too_long ? std::string_view{} : std::string_view{key_, sink.n};
    return p;
  }

  // A text field's value (p at its first byte): wrong_type unless a string.
  const char* read_string_field(const char* p, const char* end, std::string_view& out,
                                DecodeError& err) noexcept {
    if (*p != '"') {
      err = DecodeError::wrong_type;
      return json::skip_value(p, end, json::kMaxDepth - 1);
    }
    const char* const s = ++p;
    p = json::scan_run(p, end);
    if (p == nullptr || p == end) return nullptr;
    if (*p == '"') {
      out = {s, static_cast<std::size_t>(p - s)};
      return p + 1;
    }
    if (*p != '\\') return nullptr;
    return read_escaped_value(s, p, end, out);
  }

  struct ScratchSink {
    char* o;
    void append(const char* b, std::size_t k) noexcept {
      std::memcpy(o, b, k);
      o += k;
    }
  };

  // Unescapes a field value into scratch. Room: each escape shrinks (\uXXXX,
  // 6 bytes, gives at most 3; a 12-byte pair gives 4), and the values already
  // kept came from input before s, so used_ + (end - s) <= the input size.
  // The scratch can therefore only need to grow at a decode's first escape,
  // when nothing points into it yet.
  const char* read_escaped_value(const char* s, const char* p, const char* end,
                                 std::string_view& out) noexcept {
    const std::size_t need = used_ + static_cast<std::size_t>(end - s);
    if (need > cap_) {
      if (used_ != 0) return nullptr;  // unreachable by the bound above; never write past cap_
      char* grown = new (std::nothrow) char[in_size_];
      if (grown == nullptr) return nullptr;  // no error kind for memory; the input is refused
      scratch_.reset(grown);
      cap_ = in_size_;
    }
    char* const begin = scratch_.get() + used_;
    ScratchSink sink{begin};
    sink.append(s, static_cast<std::size_t>(p - s));
    p = json::escaped_tail(p, end, sink);
    if (p == nullptr) return nullptr;
    out = {begin, static_cast<std::size_t>(sink.o - begin)};
    used_ += out.size();
    return p;
  }

  std::unique_ptr<char[]> scratch_;
  std::size_t cap_;
  std::size_t used_ = 0;
  std::size_t in_size_ = 0;
  char key_[kMaxKey];
};

}  // namespace record
