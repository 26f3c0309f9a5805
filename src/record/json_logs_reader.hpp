// record/json_logs_reader.hpp — the `direct` codec's reader of the
// eth_getLogs documents (record/logs_json.hpp): JsonReader's machinery (one
// validating pass, keys by length + memcmp, no recursion, no exceptions) over
// the answer's array, with every hex digit decoded by record::hex. No
// allocation in steady state: the data buffer and the escape scratch only
// grow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "record/json_reader.hpp"
#include "record/logs.hpp"
#include "record/logs_json.hpp"
#include "record/record.hpp"

namespace record {

class JsonLogsReader : public JsonReader {
 public:
  // The request object: four hex strings, any order, unknown keys skipped.
  DecodeError logs_request(Bytes in, LogsRequest& out) noexcept {
    LogsRequest v;
    const DecodeError e = parse(in, logs_json::kAllRequestFields,
                                [&](std::string_view key, const char* p, const char* end, unsigned& which,
                                    DecodeError& err) -> const char* {
                                  const int f = logs_json::request_field(key);
                                  if (f == logs_json::kUnknown)
                                    return json::skip_value(p, end, json::kMaxDepth - 1);
                                  which = logs_json::bit(f);
                                  std::string_view text;
                                  p = read_string_field(p, end, text, err);
                                  if (p != nullptr && err == DecodeError::ok)
                                    err = logs_json::read_request_string(v, f, text);
                                  return p;
                                });
    if (e == DecodeError::ok) out = v;
    return e;
  }

  // Every field of every log, folded in the digest's order.
  DecodeError decode_all(Bytes in, LogsDigest& d) noexcept {
    return walk(in, [&](std::uint32_t, const char* p, const char* end, DecodeError& err, bool&) {
      p = read_log(p, end, logs_json::kAllLogFields, err);
      if (p != nullptr && err == DecodeError::ok) log_.fold(d);
      return p;
    });
  }

  // Log k's logIndex and transactionHash: the logs before it are skipped
  // (validated, not decoded), log k's other fields too, and nothing after it
  // is read. An element k that is not a log is wrong_type on the error path,
  // which reads on to the end (as the SAX codecs must: a library reports a
  // number before it has seen the byte after it).
  DecodeError access_one(Bytes in, std::uint32_t k, LogPick& out) noexcept {
    bool found = false;
    const DecodeError e =
        walk(in, [&](std::uint32_t i, const char* p, const char* end, DecodeError& err, bool& stop) {
          if (i != k) return json::skip_value(p, end, json::kMaxDepth - 1);
          found = true;
          stop = *p == '{';
          return read_log(p, end, logs_json::kPickFields, err);
        });
    if (e != DecodeError::ok) return e;
    if (!found) return DecodeError::missing_field;  // k >= N
    out.log_index = log_.log_index;
    out.tx_hash = log_.tx_hash;
    return DecodeError::ok;
  }

  // The sum of blockNumber: each log's other fields skipped (validated).
  DecodeError scan(Bytes in, LogsScan& out) noexcept {
    std::uint64_t count = 0, sum = 0;
    const DecodeError e =
        walk(in, [&](std::uint32_t, const char* p, const char* end, DecodeError& err, bool&) {
          p = read_log(p, end, logs_json::kScanFields, err);
          ++count;
          sum += log_.block_number;
          return p;
        });
    if (e != DecodeError::ok) return e;
    out.count += count;
    out.block_sum += sum;
    return DecodeError::ok;
  }

 private:
  // The answer's array. on_element(i, p, end, err, stop) reads element i (p
  // at its first byte), sets err to its first semantic error and stop to end
  // the walk after it, and returns its end (null: not well-formed). The first
  // error in document order wins, once the array has proved well-formed (or
  // the walk stopped).
  template <class OnElement>
  DecodeError walk(Bytes in, OnElement&& on_element) noexcept {
    const char* p = reinterpret_cast<const char*>(in.data());
    const char* const end = p + in.size();
    in_size_ = in.size();
    used_ = 0;
    p = json::skip_ws(p, end);
    if (p == end) return DecodeError::syntax;
    if (*p != '[') {
      // Not an array, but it must still be one well-formed value.
      p = json::skip_value(p, end, json::kMaxDepth);
      if (p == nullptr) return DecodeError::syntax;
      return json::skip_ws(p, end) == end ? DecodeError::wrong_type : DecodeError::trailing;
    }
    p = json::skip_ws(p + 1, end);
    if (p == end) return DecodeError::syntax;
    DecodeError first = DecodeError::ok;
    if (*p != ']') {
      for (std::uint32_t i = 0;; ++i) {
        DecodeError err = DecodeError::ok;
        bool stop = false;
        p = on_element(i, p, end, err, stop);
        if (p == nullptr) return DecodeError::syntax;
        if (first == DecodeError::ok) first = err;
        if (stop) return first;
        p = json::skip_ws(p, end);
        if (p == end) return DecodeError::syntax;
        if (*p == ']') break;
        if (*p != ',') return DecodeError::syntax;
        p = json::skip_ws(p + 1, end);
        if (p == end) return DecodeError::syntax;
      }
    }
    if (json::skip_ws(p + 1, end) != end) return DecodeError::trailing;
    return first;
  }

  // One log (p at its first byte) into log_: the fields in `want`, the
  // others skipped as unknown keys are. A non-object is wrong_type.
  const char* read_log(const char* p, const char* end, unsigned want, DecodeError& err) noexcept {
    using namespace logs_json;  // NOLINT: the field names
    if (*p != '{') {
      err = DecodeError::wrong_type;
      return json::skip_value(p, end, json::kMaxDepth - 1);
    }
    LogFields& log = log_;
    log.seen = 0;
    log.topic_count = 0;
    p = json::skip_ws(p + 1, end);
    if (p == end) return nullptr;
    if (*p != '}') {
      for (;;) {
        if (*p != '"') return nullptr;
        std::string_view key;
        p = read_key(p + 1, end, key);
        if (p == nullptr) return nullptr;
        p = json::skip_ws(p, end);
        if (p == end || *p != ':') return nullptr;
        p = json::skip_ws(p + 1, end);
        if (p == end) return nullptr;
        const int f = log_field(key);
        if (f == kUnknown || (want & bit(f)) == 0) {
          p = json::skip_value(p, end, json::kMaxDepth - 2);
        } else {
          DecodeError e = DecodeError::ok;
          if (log.seen & bit(f)) {
            e = DecodeError::duplicate_field;
            p = json::skip_value(p, end, json::kMaxDepth - 2);
          } else {
            log.seen |= bit(f);
            p = read_value(f, p, end, e);
          }
          if (err == DecodeError::ok) err = e;
        }
        if (p == nullptr) return nullptr;
        p = json::skip_ws(p, end);
        if (p == end) return nullptr;
        if (*p == '}') break;
        if (*p != ',') return nullptr;
        p = json::skip_ws(p + 1, end);
        if (p == end) return nullptr;
      }
    }
    if (err == DecodeError::ok && log.seen != want) err = DecodeError::missing_field;
    return p + 1;
  }

  // Field f's value (p at its first byte, p < end) into log_.
  const char* read_value(int f, const char* p, const char* end, DecodeError& err) noexcept {
    using namespace logs_json;  // NOLINT: the field names
    switch (f) {
      case kAddress:
        return read_fixed(p, end, log_.address.data(), kAccountBytes, err);
      case kTxHash:
        return read_fixed(p, end, log_.tx_hash.data(), kHashBytes, err);
      case kTopics:
        return read_topics(p, end, err);
      case kRemoved:
        if (*p == 't' || *p == 'f') {
          log_.removed = *p == 't';
          return json::skip_literal(p, end,
                                    log_.removed ? std::string_view("true") : std::string_view("false"));
        }
        err = DecodeError::wrong_type;
        return json::skip_value(p, end, json::kMaxDepth - 2);
      default: {  // data and the quantities
        std::string_view text;
        p = read_string_field(p, end, text, err);
        if (p != nullptr && err == DecodeError::ok) err = read_log_string(log_, f, text, data_);
        return p;
      }
    }
  }

  // A fixed-size hex field. Its usual form, "0x" + 2n digits and the closing
  // quote, is decoded straight from the input: hex digits are plain string
  // bytes, so decoding them also proves the string well-formed. Anything else
  // (escapes, upper-case X, a wrong length, a bad digit) takes the general
  // path, which finds the error.
  const char* read_fixed(const char* p, const char* end, std::uint8_t* out, std::size_t n,
                         DecodeError& err) noexcept {
    const std::size_t chars = 2 + 2 * n;
    if (static_cast<std::size_t>(end - p) >= chars + 2 && *p == '"' && p[chars + 1] == '"' && p[1] == '0' &&
        p[2] == 'x' && hex::decode(p + 3, n, out))
      return p + chars + 2;
    std::string_view text;
    p = read_string_field(p, end, text, err);
    if (p != nullptr && err == DecodeError::ok) err = hex::decode_fixed(text, out, n);
    return p;
  }

  // The topics array: up to four 32-byte hex strings.
  const char* read_topics(const char* p, const char* end, DecodeError& err) noexcept {
    if (*p != '[') {
      err = DecodeError::wrong_type;
      return json::skip_value(p, end, json::kMaxDepth - 2);
    }
    p = json::skip_ws(p + 1, end);
    if (p == end) return nullptr;
    if (*p == ']') return p + 1;
    for (;;) {
      DecodeError e = DecodeError::ok;
      if (*p != '"') {
        e = DecodeError::wrong_type;
        p = json::skip_value(p, end, json::kMaxDepth - 3);
      } else if (log_.topic_count == kMaxTopics) {
        e = DecodeError::bad_length;
        p = json::skip_value(p, end, json::kMaxDepth - 3);
      } else {
        p = read_fixed(p, end, log_.topics + kTopicBytes * log_.topic_count++, kTopicBytes, e);
      }
      if (p == nullptr) return nullptr;
      if (err == DecodeError::ok) err = e;
      p = json::skip_ws(p, end);
      if (p == end) return nullptr;
      if (*p == ']') return p + 1;
      if (*p != ',') return nullptr;
      p = json::skip_ws(p + 1, end);
      if (p == end) return nullptr;
    }
  }

  logs_json::LogFields log_;
  logs_json::DataBuffer data_;
};

}  // namespace record
