// record/json_writer.hpp — the record-specific JSON writer: copies the key
// fragments as constants, formats integers with std::to_chars and hex from a
// table, escapes the one free-text field. It is the `direct` codec's encoder
// and, because simdjson 3.0.1 has no serializer, the `simdjson` codec's too.
// Output is compact, in Go's field order (103 + 130 bytes for the sample).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>

#include "record/record.hpp"

namespace record {

class JsonWriter {
 public:
  JsonWriter() : buf_(new char[kInitialBytes + kInputPaddingBytes]), cap_(kInitialBytes) {}

  // {"method":"…","account":"0x…","block":N,"id":N}; the view is valid until
  // the next write on this object.
  Bytes request(const Request& r) {
    // Worst case: every method byte escaped as \u00XX (6 bytes).
    char* p = reserve(64 + 6 * r.method.size() + 2 * kAccountBytes + 2 * 20);
    char* const begin = p;
    p = put(p, R"({"method":")");
    p = escape(p, r.method);
    p = put(p, R"(","account":")");
    p = hex::write(p, r.account);
    p = put(p, R"(","block":)");
    p = std::to_chars(p, p + 20, r.block).ptr;
    p = put(p, R"(,"id":)");
    p = std::to_chars(p, p + 20, r.id).ptr;
    *p++ = '}';
    return view(begin, p);
  }

  // {"id":N,"balance":N,"nonce":N,"blockHash":"0x…"}
  Bytes response(const Response& r) {
    char* p = reserve(64 + 3 * 20 + 2 * kHashBytes);
    char* const begin = p;
    p = put(p, R"({"id":)");
    p = std::to_chars(p, p + 20, r.id).ptr;
    p = put(p, R"(,"balance":)");
    p = std::to_chars(p, p + 20, r.balance).ptr;
    p = put(p, R"(,"nonce":)");
    p = std::to_chars(p, p + 20, r.nonce).ptr;
    p = put(p, R"(,"blockHash":")");
    p = hex::write(p, r.block_hash);
    *p++ = '"';
    *p++ = '}';
    return view(begin, p);
  }

 private:
  static constexpr std::size_t kInitialBytes = 512;

  char* reserve(std::size_t n) {
    if (n > cap_) {
      // The padding lets a decoder (simdjson) read the output in place.
      buf_.reset(new char[n + kInputPaddingBytes]);
      cap_ = n;
    }
    return buf_.get();
  }
  static Bytes view(const char* b, const char* e) {
    return {reinterpret_cast<const std::uint8_t*>(b), static_cast<std::size_t>(e - b)};
  }
  template <std::size_t N>
  static char* put(char* p, const char (&s)[N]) {
    std::memcpy(p, s, N - 1);  // a constant size: a couple of moves
    return p + N - 1;
  }
  // JSON string escaping: quote, backslash and control characters; all other
  // bytes (UTF-8 included) are copied as they are.
  static char* escape(char* p, std::string_view s) {
    for (char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      if (c >= 0x20 && c != '"' && c != '\\') {
        *p++ = ch;
        continue;
      }
      *p++ = '\\';
      switch (c) {
        case '"':
          *p++ = '"';
          break;
        case '\\':
          *p++ = '\\';
          break;
        case '\n':
          *p++ = 'n';
          break;
        case '\r':
          *p++ = 'r';
          break;
        case '\t':
          *p++ = 't';
          break;
        case '\b':
          *p++ = 'b';
          break;
        case '\f':
          *p++ = 'f';
          break;
        default:
          p = put(p, "u00");
          *p++ = hex::kDigits[c >> 4];
          *p++ = hex::kDigits[c & 15];
      }
    }
    return p;
  }

  std::unique_ptr<char[]> buf_;
  std::size_t cap_;
};

}  // namespace record
