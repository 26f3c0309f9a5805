// record/logs_sax.hpp — the eth_getLogs documents as seen by a SAX-style JSON
// parser, independent of the library: which value is which field, the three
// read operations (DecodeAll, AccessOne, ScanField) and the request, the
// errors of record/logs_json.hpp. Shared by the RapidJSON, Boost.JSON and
// nlohmann codecs, whose handlers only translate their library's events into
// these calls (as json_sax.hpp's Collector does for the first record).
//
// Every event returns whether the parse goes on: always, except past
// kMaxDepth (a syntax error) and, for AccessOne, once log k (an object) has
// been read — the handler then stops the parse on purpose (stopped()), and
// nothing after log k is parsed. Field errors are remembered, not returned, so a malformed
// document still reads as syntax.
#pragma once

#include <cstdint>
#include <string_view>

#include "record/logs.hpp"
#include "record/logs_json.hpp"
#include "record/record.hpp"

namespace record::logs_sax {

// Deeper nesting is refused, as syntax (the first record's limit: json_sax.hpp).
inline constexpr int kMaxDepth = 1024;

// The answer: depth 1 is the root array's elements (the logs), depth 2 a
// log's members, depth 3 the topics' elements.
class AnswerCollector {
 public:
  void start_decode_all(LogsDigest& d) noexcept {
    reset(logs_json::kAllLogFields);
    digest_ = &d;
  }
  void start_access_one(std::uint32_t k, LogPick& out) noexcept {
    reset(logs_json::kPickFields);
    access_ = true;
    k_ = k;
    pick_ = &out;
  }
  void start_scan() noexcept { reset(logs_json::kScanFields); }

  // Whether the root value is complete (what follows is trailing).
  bool done() const noexcept { return done_; }
  // Whether AccessOne stopped the parse after log k (not an error).
  bool stopped() const noexcept { return stopped_; }

  // After a clean parse, or a stop: the first error; AccessOne's k >= N is
  // missing_field. ScanField's answer is count() and block_sum().
  DecodeError finish() const noexcept {
    if (err_ != DecodeError::ok) return err_;
    if (access_ && !stopped_) return DecodeError::missing_field;
    return DecodeError::ok;
  }
  std::uint64_t count() const noexcept { return count_; }
  std::uint64_t block_sum() const noexcept { return block_sum_; }

  bool open_array() noexcept {
    if (depth_ == 0) {
      root_is_array_ = true;
    } else if (depth_ == 1) {
      element(false);
    } else if (depth_ == 2 && log_) {
      if (field_ == logs_json::kTopics)
        topics_ = true;  // its elements are at depth 3
      else if (field_ != kNone)
        fail(DecodeError::wrong_type);
      field_ = kNone;
    } else if (depth_ == 3 && topics_) {
      fail(DecodeError::wrong_type);  // a topic that is not a string
    }
    return ++depth_ <= kMaxDepth;
  }

  bool open_object() noexcept {
    if (depth_ == 0) {
      fail(DecodeError::wrong_type);  // the top level is not an array
    } else if (depth_ == 1) {
      element(true);
    } else {
      not_a_scalar();
    }
    return ++depth_ <= kMaxDepth;
  }

  bool close() noexcept {
    --depth_;
    if (depth_ == 0) {
      done_ = true;
    } else if (depth_ == 1 && log_) {
      log_ = false;
      end_log();
      if (access_) return stop();
    } else if (depth_ == 2 && topics_) {
      topics_ = false;
    }
    return true;
  }

  bool key(std::string_view k) noexcept {
    if (depth_ != 2 || !log_) return true;
    field_ = kNone;
    const int f = logs_json::log_field(k);
    if (f == logs_json::kUnknown || (want_ & logs_json::bit(f)) == 0) return true;
    if (fields_.seen & logs_json::bit(f)) return fail(DecodeError::duplicate_field);  // its value is skipped
    fields_.seen |= logs_json::bit(f);
    field_ = f;
    return true;
  }

  // A string value, unescaped (valid only during the call).
  bool text(std::string_view s) noexcept {
    if (depth_ == 2) {
      if (!log_ || field_ == kNone) return true;
      const int f = field_;
      field_ = kNone;
      return fail(logs_json::read_log_string(fields_, f, s, data_));
    }
    if (depth_ == 3 && topics_) return fail(logs_json::read_topic(fields_, s));
    return scalar();
  }

  bool boolean(bool b) noexcept {
    if (depth_ == 2 && log_ && field_ == logs_json::kRemoved) {
      fields_.removed = b;
      field_ = kNone;
      return true;
    }
    return scalar();
  }

  // null or any number: never a log field's value.
  bool other() noexcept { return scalar(); }

 private:
  static constexpr int kNone = -1;

  void reset(unsigned want) noexcept {
    want_ = want;
    access_ = false;
    k_ = 0;
    digest_ = nullptr;
    pick_ = nullptr;
    depth_ = 0;
    index_ = 0;
    field_ = kNone;
    root_is_array_ = log_ = topics_ = done_ = stopped_ = false;
    err_ = DecodeError::ok;
    count_ = block_sum_ = 0;
  }

  // Element index_ of the root array begins: a log (an object) or not. An
  // AccessOne's element k that is not a log is wrong_type on the error path,
  // which parses on to the end: a library reports a number before it has
  // seen the byte after it ("[00]" is malformed, not a number 0).
  void element(bool object) noexcept {
    if (!root_is_array_) return;  // a member of a root object: already wrong_type
    const std::uint32_t i = index_++;
    if (access_ && i != k_) return;  // AccessOne looks at log k only
    if (!object) {
      fail(DecodeError::wrong_type);
      return;
    }
    log_ = true;
    fields_.seen = 0;
    fields_.topic_count = 0;
    field_ = kNone;
  }

  void end_log() noexcept {
    if (fields_.seen != want_) fail(DecodeError::missing_field);
    if (err_ != DecodeError::ok) return;
    if (digest_ != nullptr) {
      fields_.fold(*digest_);
    } else if (pick_ != nullptr) {
      pick_->log_index = fields_.log_index;
      pick_->tx_hash = fields_.tx_hash;
    } else {
      ++count_;
      block_sum_ += fields_.block_number;
    }
  }

  // A scalar that is not the string or boolean a field wants.
  bool scalar() noexcept {
    if (depth_ == 0) {
      fail(DecodeError::wrong_type);  // a scalar top level
      done_ = true;
    } else if (depth_ == 1) {
      element(false);
    } else {
      not_a_scalar();
    }
    return true;
  }

  // A value at depth 2 or 3 of the wrong kind (an object, or a scalar other
  // than the one wanted).
  void not_a_scalar() noexcept {
    if (depth_ == 2 && log_ && field_ != kNone) {
      fail(DecodeError::wrong_type);
      field_ = kNone;
    } else if (depth_ == 3 && topics_) {
      fail(DecodeError::wrong_type);
    }
  }

  bool stop() noexcept {
    stopped_ = true;
    return false;
  }

  // Records the first error; the parse goes on (true).
  bool fail(DecodeError e) noexcept {
    if (err_ == DecodeError::ok) err_ = e;
    return true;
  }

  unsigned want_ = logs_json::kAllLogFields;
  bool access_ = false;
  std::uint32_t k_ = 0;
  LogsDigest* digest_ = nullptr;
  LogPick* pick_ = nullptr;
  int depth_ = 0;
  std::uint32_t index_ = 0;  // the next element's index
  int field_ = kNone;        // the known field whose value comes next (depth 2)
  bool root_is_array_ = false;
  bool log_ = false;     // inside a log this operation reads (depth >= 2)
  bool topics_ = false;  // inside that log's topics (depth >= 3)
  bool done_ = false;
  bool stopped_ = false;
  DecodeError err_ = DecodeError::ok;
  std::uint64_t count_ = 0;
  std::uint64_t block_sum_ = 0;
  logs_json::LogFields fields_;
  logs_json::DataBuffer data_;
};

// The request: depth 1 is the root object's members, four hex strings.
class RequestCollector {
 public:
  void start() noexcept {
    depth_ = 0;
    field_ = kNone;
    seen_ = 0;
    err_ = DecodeError::ok;
    done_ = false;
    value_ = {};
  }
  bool done() const noexcept { return done_; }
  DecodeError finish(LogsRequest& out) const noexcept {
    if (err_ != DecodeError::ok) return err_;
    if (seen_ != logs_json::kAllRequestFields) return DecodeError::missing_field;
    out = value_;
    return DecodeError::ok;
  }

  bool open_array() noexcept {
    if (depth_ == 0) fail(DecodeError::wrong_type);
    not_wanted();
    return ++depth_ <= kMaxDepth;
  }
  bool open_object() noexcept {
    not_wanted();
    return ++depth_ <= kMaxDepth;
  }
  bool close() noexcept {
    done_ = --depth_ == 0;
    return true;
  }
  bool key(std::string_view k) noexcept {
    if (depth_ != 1) return true;
    field_ = logs_json::request_field(k);
    if (field_ == logs_json::kUnknown) return true;
    if (seen_ & logs_json::bit(field_)) {
      field_ = kNone;
      return fail(DecodeError::duplicate_field);
    }
    seen_ |= logs_json::bit(field_);
    return true;
  }
  bool text(std::string_view s) noexcept {
    if (depth_ == 1 && field_ >= 0) {
      const int f = field_;
      field_ = kNone;
      return fail(logs_json::read_request_string(value_, f, s));
    }
    return other();
  }
  bool boolean(bool) noexcept { return other(); }
  // A boolean, null or number.
  bool other() noexcept {
    if (depth_ == 0) {
      fail(DecodeError::wrong_type);
      done_ = true;
    }
    not_wanted();
    return true;
  }

 private:
  static constexpr int kNone = logs_json::kUnknown;

  // A value that is not a string: wrong_type for a known field.
  void not_wanted() noexcept {
    if (depth_ == 1 && field_ >= 0) fail(DecodeError::wrong_type);
    if (depth_ == 1) field_ = kNone;
  }
  bool fail(DecodeError e) noexcept {
    if (err_ == DecodeError::ok) err_ = e;
    return true;
  }

  int depth_ = 0;
  int field_ = kNone;
  unsigned seen_ = 0;
  DecodeError err_ = DecodeError::ok;
  bool done_ = false;
  LogsRequest value_;
};

}  // namespace record::logs_sax
