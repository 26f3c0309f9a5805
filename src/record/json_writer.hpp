// record/json_writer.hpp — the record-specific JSON writer: copies the key
// fragments as constants, formats integers with std::to_chars and hex from a
// table, escapes the one free-text field. It is the `direct` codec's encoder
// and, because simdjson 3.0.1 has no serializer, the `simdjson` codec's too.
// Output is compact, in Go's field order (103 + 130 bytes for the sample);
// the eth_getLogs documents in geth's (record/logs_json.hpp).
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "record/logs.hpp"
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

  // {"fromBlock":"0x…","toBlock":"0x…","address":"0x…","limit":"0x…"}
  Bytes logs_request(const LogsRequest& r) {
    char* p = reserve(64 + 3 * hex::kMaxQuantityChars + 2 + 2 * kAccountBytes);
    char* const begin = p;
    p = put(p, R"({"fromBlock":")");
    p = hex::write_quantity(p, r.from_block);
    p = put(p, R"(","toBlock":")");
    p = hex::write_quantity(p, r.to_block);
    p = put(p, R"(","address":")");
    p = hex::encode(p, r.address);
    p = put(p, R"(","limit":")");
    p = hex::write_quantity(p, r.limit);
    p = put(p, R"("})");
    return view(begin, p);
  }

  // The eth_getLogs result array, compact: [{"address":…,"removed":false},…]
  // ([] for none). The exact size bound is summed first, so the buffer is
  // sized once per answer larger than every one before.
  Bytes logs(std::span<const Log> logs) {
    std::size_t bound = 2;
    for (const Log& l : logs)
      bound += kLogFixedBound + 2 * l.data.size() + l.topic_count() * (2 * kTopicBytes + 5);
    char* p = reserve(bound);
    char* const begin = p;
    *p++ = '[';
    for (const Log& l : logs) {
      p = put(p, R"({"address":")");
      p = hex::encode(p, l.address);
      p = put(p, R"(","topics":[)");
      for (std::size_t t = 0; t < l.topic_count(); ++t) {
        if (t != 0) *p++ = ',';
        *p++ = '"';
        p = hex::encode(p, l.topics.subspan(t * kTopicBytes, kTopicBytes));
        *p++ = '"';
      }
      p = put(p, R"(],"data":")");
      p = hex::encode(p, l.data);
      p = put(p, R"(","blockNumber":")");
      p = hex::write_quantity(p, l.block_number);
      p = put(p, R"(","transactionHash":")");
      p = hex::encode(p, l.tx_hash);
      p = put(p, R"(","transactionIndex":")");
      p = hex::write_quantity(p, l.tx_index);
      p = put(p, R"(","logIndex":")");
      p = hex::write_quantity(p, l.log_index);
      if (l.removed)
        p = put(p, R"(","removed":true},)");
      else
        p = put(p, R"(","removed":false},)");
    }
    if (!logs.empty()) --p;  // the last log's comma
    *p++ = ']';
    return view(begin, p);
  }

 private:
  static constexpr std::size_t kInitialBytes = 512;
  // One log's characters besides its topics and data: the keys and
  // punctuation (150), the address and hash (42 + 66), the data's "0x" and
  // three quantities (at most 18 each), rounded up.
  static constexpr std::size_t kLogFixedBound = 160 + 2 + 2 * kAccountBytes + 2 + 2 * kHashBytes + 2 + 3 * 18;

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
