// record/codec_simdjson.cpp — Simdjson::State, SimdjsonCodec's decoders: the On-Demand pass over
// the record's fields, the well-formedness walk for skipped values, and the
// mapping of simdjson's errors onto record::DecodeError.
#include "record/codec_simdjson.hpp"

#include <simdjson.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "record/library_codec_impl.hpp"
#include "record/logs_json.hpp"

namespace record {

namespace od = simdjson::ondemand;
using simdjson::error_code;

// One parser per direction, like the writers: a request's views (in its
// parser's string buffer) survive decoding a response on the same codec.
struct Simdjson::State {
  State() noexcept {
    // Room for a typical message up front; a parser only grows (on a larger
    // document) and never shrinks, so steady state allocates nothing. On
    // failure iterate() simply allocates later (or reports MEMALLOC).
    for (od::parser* p : {&req, &resp}) {
      const error_code e = p->allocate(kInitialCapacity);
      static_cast<void>(e);
    }
  }
  static constexpr std::size_t kInitialCapacity = 4096;
  od::parser req;
  od::parser resp;
  // The eth_getLogs documents: a parser of their own, grown to the largest
  // answer once; one log's values and its data buffer, reused.
  od::parser logs;
  logs_json::LogFields log;
  logs_json::DataBuffer data;

  // Below, after the helpers they use.
  DecodeError decode_request(Bytes in, RequestView& out) noexcept;
  DecodeError decode_response(Bytes in, ResponseView& out) noexcept;
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) noexcept;
  DecodeError logs_decode_all(Bytes in, LogsDigest& d) noexcept;
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) noexcept;
  DecodeError logs_scan(Bytes in, LogsScan& out) noexcept;
};

namespace {

// Nesting limit, the root container counting as level 1 (the record's values
// are at level 2): simdjson's default max depth, the direct codec's and the
// boostjson codec's limit too. Deeper is refused as malformed.
constexpr std::size_t kMaxDepth = simdjson::DEFAULT_MAX_DEPTH;

constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// A raw token runs to the next structural character, so it may end in whitespace.
constexpr std::string_view trim_right(std::string_view s) noexcept {
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// RFC 8259 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
constexpr bool is_json_number(std::string_view s) noexcept {
  std::size_t i = 0;
  const std::size_t n = s.size();
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < n && is_digit(s[i])) ++i;
    return i > start;
  };
  if (i < n && s[i] == '-') ++i;
  if (i < n && s[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

// True when the scalar token is well-formed for its (first-character) type.
bool is_json_scalar(od::json_type t, std::string_view tok) noexcept {
  switch (t) {
    case od::json_type::number:
      return is_json_number(tok);
    case od::json_type::boolean:
      return tok == "true" || tok == "false";
    case od::json_type::null:
      return tok == "null";
    default:
      return false;
  }
}

// Walks a value the decoder does not use (an unknown key's, a duplicate's, a
// wrong-typed field's) and tells whether it is well-formed JSON. On-Demand's
// own skip only balances brackets, so without this walk `{"x":tru}` would pass.
bool well_formed(od::value& v, std::size_t depth) noexcept {
  od::json_type t;
  if (v.type().get(t) != simdjson::SUCCESS) return false;
  switch (t) {
    case od::json_type::object: {
      if (depth > kMaxDepth) return false;
      od::object o;
      if (v.get_object().get(o) != simdjson::SUCCESS) return false;
      for (auto item : o) {
        if (item.error() != simdjson::SUCCESS) return false;
        od::field&& f = std::move(item).value_unsafe();
        std::string_view key;
        if (f.unescaped_key().get(key) != simdjson::SUCCESS) return false;
        if (!well_formed(f.value(), depth + 1)) return false;
      }
      return true;
    }
    case od::json_type::array: {
      if (depth > kMaxDepth) return false;
      od::array a;
      if (v.get_array().get(a) != simdjson::SUCCESS) return false;
      for (auto item : a) {
        if (item.error() != simdjson::SUCCESS) return false;
        od::value&& e = std::move(item).value_unsafe();
        if (!well_formed(e, depth + 1)) return false;
      }
      return true;
    }
    case od::json_type::string: {
      std::string_view s;  // unescaping checks the escapes
      return v.get_string().get(s) == simdjson::SUCCESS;
    }
    default:
      return is_json_scalar(t, trim_right(v.raw_json_token()));
  }
}

// get_uint64 failed. simdjson 3.0.1 reports a negative, a fraction, an
// exponent, a non-number and a too-large integer ("18446744073709551616") all
// as INCORRECT_TYPE (it has no BIGINT_ERROR; NUMBER_OUT_OF_RANGE is for
// doubles), so the token tells them apart: well-formed digits only = overflow.
DecodeError u64_failure(od::value& v, error_code e) noexcept {
  if (e == simdjson::NUMBER_OUT_OF_RANGE) return DecodeError::integer_overflow;
  if (e != simdjson::INCORRECT_TYPE) return DecodeError::syntax;  // NUMBER_ERROR (01, 1x, ...) and worse
  const std::string_view tok = trim_right(v.raw_json_token());
  if (!tok.empty() && (tok[0] == '-' || is_digit(tok[0]))) {
    if (!is_json_number(tok)) return DecodeError::syntax;
    return tok.find_first_of("-.eE") == std::string_view::npos ? DecodeError::integer_overflow
                                                               : DecodeError::wrong_type;
  }
  return well_formed(v, 2) ? DecodeError::wrong_type : DecodeError::syntax;
}

inline DecodeError read_u64(od::value& v, std::uint64_t& out) noexcept {
  const error_code e = v.get_uint64().get(out);
  if (e == simdjson::SUCCESS) [[likely]]
    return DecodeError::ok;
  return u64_failure(v, e);
}

// get_string unescapes into the parser's string buffer: the view lives until
// the next iterate on this parser, i.e. the next decode on this codec.
inline DecodeError read_string(od::value& v, std::string_view& out) noexcept {
  const error_code e = v.get_string().get(out);
  if (e == simdjson::SUCCESS) [[likely]]
    return DecodeError::ok;
  if (e != simdjson::INCORRECT_TYPE) return DecodeError::syntax;  // a bad escape
  return well_formed(v, 2) ? DecodeError::wrong_type : DecodeError::syntax;
}

// The top level is not the container the document wants (an object for the
// first record and the logs request, an array for the logs answer):
// wrong_type if it is well-formed JSON.
DecodeError root_of_wrong_type(od::document& doc, error_code e, const char* end) noexcept {
  // INCOMPLETE_ARRAY_OR_OBJECT: truncated, or content after the closing brace.
  if (e != simdjson::INCORRECT_TYPE) return DecodeError::syntax;
  od::json_type t;
  if (doc.type().get(t) != simdjson::SUCCESS) return DecodeError::syntax;
  switch (t) {
    case od::json_type::array: {
      od::array a;
      if (doc.get_array().get(a) != simdjson::SUCCESS) return DecodeError::syntax;
      for (auto item : a) {
        if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
        od::value&& v = std::move(item).value_unsafe();
        if (!well_formed(v, 2)) return DecodeError::syntax;
      }
      return doc.current_location().error() == simdjson::OUT_OF_BOUNDS ? DecodeError::wrong_type
                                                                       : DecodeError::trailing;
    }
    case od::json_type::object: {
      od::object o;
      if (doc.get_object().get(o) != simdjson::SUCCESS) return DecodeError::syntax;
      for (auto item : o) {
        if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
        od::field&& f = std::move(item).value_unsafe();
        std::string_view key;
        if (f.unescaped_key().get(key) != simdjson::SUCCESS) return DecodeError::syntax;
        if (!well_formed(f.value(), 2)) return DecodeError::syntax;
      }
      return doc.current_location().error() == simdjson::OUT_OF_BOUNDS ? DecodeError::wrong_type
                                                                       : DecodeError::trailing;
    }
    default: {
      // A root scalar's raw token runs to the next structural or to the end:
      // anything after it is trailing.
      std::string_view tok;
      if (doc.raw_json_token().get(tok) != simdjson::SUCCESS) return DecodeError::syntax;
      const bool last = tok.data() + tok.size() == end;
      if (t == od::json_type::string) {
        std::string_view s;  // unescaping checks the escapes
        if (doc.get_string().get(s) != simdjson::SUCCESS)
          return last ? DecodeError::syntax : DecodeError::trailing;
      } else if (!is_json_scalar(t, trim_right(tok))) {
        return DecodeError::syntax;
      }
      return last ? DecodeError::wrong_type : DecodeError::trailing;
    }
  }
}

constexpr int kUnknown = -1;
constexpr int kBadKey = -2;

// The record's field names in Go's order; an index is a bit in `seen`.
template <std::size_t N>
using Names = std::array<std::string_view, N>;

// Known keys are compared raw, in place: a raw key equal to a name followed by
// its closing quote is that name (an escape would differ). Anything else —
// unknown keys, keys with escapes such as "\u0069d" — is unescaped and compared.
template <std::size_t N>
inline int match_key(od::field& f, const Names<N>& names) noexcept {
  const od::raw_json_string raw = f.key();
  for (std::size_t i = 0; i < N; ++i)
    if (raw.unsafe_is_equal(names[i])) return static_cast<int>(i);  // reads <= 10 bytes: padded
  std::string_view key;
  if (f.unescaped_key().get(key) != simdjson::SUCCESS) return kBadKey;
  for (std::size_t i = 0; i < N; ++i)
    if (key == names[i]) return static_cast<int>(i);
  return kUnknown;
}

// One pass over the root object's fields. read(i, value) stores field i.
// Precedence, as a DOM parser would give it: syntax, then trailing, then the
// first field error in document order, then a missing field.
template <std::size_t N, class Read>
DecodeError decode_object(od::parser& parser, Bytes in, const Names<N>& names, Read&& read) noexcept {
  const char* const data = reinterpret_cast<const char*>(in.data());
  od::document doc;
  if (parser.iterate(data, in.size(), in.size() + kInputPaddingBytes).get(doc) != simdjson::SUCCESS)
    return DecodeError::syntax;  // stage 1: UTF-8, unclosed string, control characters, empty
  od::object obj;
  if (const error_code e = doc.get_object().get(obj); e != simdjson::SUCCESS)
    return root_of_wrong_type(doc, e, data + in.size());

  unsigned seen = 0;
  DecodeError first = DecodeError::ok;
  for (auto item : obj) {
    if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
    // Bound to the result in place: copying a freshly built field out of it
    // (item.get(f)) costs a store-forwarding stall per field, ~35 ns a record.
    od::field&& f = std::move(item).value_unsafe();
    const int i = match_key(f, names);
    DecodeError r = DecodeError::ok;
    if (i >= 0 && !(seen >> i & 1u)) [[likely]] {
      seen |= 1u << i;
      r = read(i, f.value());
      if (r == DecodeError::syntax) return r;
    } else {
      if (i == kBadKey || !well_formed(f.value(), 2)) return DecodeError::syntax;
      if (i != kUnknown) r = DecodeError::duplicate_field;
    }
    if (first == DecodeError::ok) first = r;
  }
  // Iterated to the closing brace; anything after it is trailing content.
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) return DecodeError::trailing;
  if (first != DecodeError::ok) return first;
  if (seen != (1u << N) - 1) return DecodeError::missing_field;
  return DecodeError::ok;
}

constexpr Names<4> kRequestNames = {"method", "account", "block", "id"};
constexpr Names<4> kResponseNames = {"id", "balance", "nonce", "blockHash"};
constexpr Names<4> kLogsRequestNames = {logs_json::kRequestKeys[0], logs_json::kRequestKeys[1],
                                        logs_json::kRequestKeys[2], logs_json::kRequestKeys[3]};

// ---- eth_getLogs ------------------------------------------------------------------

// A log's key, compared raw in place as match_key does, its first byte
// choosing the one or two names it can be; escaped keys are unescaped.
inline int match_log_key(od::field& f) noexcept {
  using namespace logs_json;  // NOLINT: the field names
  const od::raw_json_string raw = f.key();
  const auto is = [&raw](int i) { return raw.unsafe_is_equal(kLogKeys[i]); };  // <= 17 bytes: padded
  switch (raw.raw()[0]) {
    case 'a':
      if (is(kAddress)) return kAddress;
      break;
    case 't':
      if (is(kTopics)) return kTopics;
      if (is(kTxHash)) return kTxHash;
      if (is(kTxIndex)) return kTxIndex;
      break;
    case 'd':
      if (is(kData)) return kData;
      break;
    case 'b':
      if (is(kBlockNumber)) return kBlockNumber;
      break;
    case 'l':
      if (is(kLogIndex)) return kLogIndex;
      break;
    case 'r':
      if (is(kRemoved)) return kRemoved;
      break;
    default:
      break;
  }
  std::string_view key;
  if (f.unescaped_key().get(key) != simdjson::SUCCESS) return kBadKey;
  return log_field(key);
}

// A container the field wants was not there: wrong_type if the value is
// well-formed, else syntax.
DecodeError not_a_container(od::value& v, error_code e) noexcept {
  if (e != simdjson::INCORRECT_TYPE) return DecodeError::syntax;
  return well_formed(v, 3) ? DecodeError::wrong_type : DecodeError::syntax;
}

// A hex string's text read in place from its raw token, when the string is
// plain (no escape): stage 1 has validated every string and all UTF-8 of the
// input, and the hex readers refuse any byte but a digit (a backslash
// included), so a string they accept here is exactly its unescaped text.
// Saves get_string's copy into the parser's string buffer; anything else
// (escapes, errors) takes get_string, which gives the outcome. The token is
// only peeked at: consume() then steps over the string as get_string would,
// so that the iterator checks what follows it (left unconsumed, On-Demand's
// skip would step over a stray ':' too).
inline bool raw_text(od::value& v, std::string_view& text) noexcept {
  const std::string_view tok = trim_right(v.raw_json_token());
  if (tok.size() < 2 || tok.front() != '"' || tok.back() != '"') return false;
  text = tok.substr(1, tok.size() - 2);
  return true;
}
inline void consume(od::value& v) noexcept {
  od::raw_json_string raw;
  static_cast<void>(v.get_raw_json_string().get(raw));  // a string (raw_text saw its quotes)
}

DecodeError read_topics(od::value& v, logs_json::LogFields& log) noexcept {
  od::array topics;
  if (const error_code e = v.get_array().get(topics); e != simdjson::SUCCESS) return not_a_container(v, e);
  DecodeError first = DecodeError::ok;
  for (auto item : topics) {
    if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
    od::value&& t = std::move(item).value_unsafe();
    std::string_view s;
    const std::uint32_t count = log.topic_count;
    if (raw_text(t, s) && logs_json::read_topic(log, s) == DecodeError::ok) [[likely]] {
      consume(t);
      continue;
    }
    log.topic_count = count;
    DecodeError r = read_string(t, s);
    if (r == DecodeError::syntax) return r;
    if (r == DecodeError::ok) r = logs_json::read_topic(log, s);
    if (first == DecodeError::ok) first = r;
  }
  return first;
}

// Field f's value into log.
DecodeError read_log_value(int f, od::value& v, logs_json::LogFields& log,
                           logs_json::DataBuffer& data) noexcept {
  if (f == logs_json::kTopics) return read_topics(v, log);
  if (f == logs_json::kRemoved) {
    const error_code e = v.get_bool().get(log.removed);
    if (e == simdjson::SUCCESS) [[likely]]
      return DecodeError::ok;
    return not_a_container(v, e);  // a literal that is not true or false is syntax there
  }
  std::string_view s;
  if (raw_text(v, s) && logs_json::read_log_string(log, f, s, data) == DecodeError::ok) [[likely]] {
    consume(v);
    return DecodeError::ok;
  }
  const DecodeError r = read_string(v, s);
  if (r != DecodeError::ok) return r;
  return logs_json::read_log_string(log, f, s, data);
}

// One log (an element of the answer) into log: the fields in `want`. The
// other members are walked for well-formedness when `validate_skipped`
// (DecodeAll, as the first record's unknown keys), else left to On-Demand's
// own skip, which balances brackets over stage 1's validated structure
// (AccessOne, ScanField: "skipped the library's way").
DecodeError read_log(od::value& v, unsigned want, bool validate_skipped, logs_json::LogFields& log,
                     logs_json::DataBuffer& data) noexcept {
  od::object obj;
  if (const error_code e = v.get_object().get(obj); e != simdjson::SUCCESS) {
    if (e != simdjson::INCORRECT_TYPE) return DecodeError::syntax;
    return well_formed(v, 2) ? DecodeError::wrong_type : DecodeError::syntax;
  }
  log.seen = 0;
  log.topic_count = 0;
  DecodeError first = DecodeError::ok;
  for (auto item : obj) {
    if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
    od::field&& f = std::move(item).value_unsafe();  // in place: see decode_object
    const int i = match_log_key(f);
    if (i == kBadKey) return DecodeError::syntax;
    const bool wanted = i >= 0 && (want & logs_json::bit(i)) != 0;
    DecodeError r = DecodeError::ok;
    if (wanted && (log.seen & logs_json::bit(i)) == 0) [[likely]] {
      log.seen |= logs_json::bit(i);
      r = read_log_value(i, f.value(), log, data);
      if (r == DecodeError::syntax) return r;
    } else {
      if (validate_skipped && !well_formed(f.value(), 3)) return DecodeError::syntax;
      if (wanted) r = DecodeError::duplicate_field;
    }
    if (first == DecodeError::ok) first = r;
  }
  if (first == DecodeError::ok && log.seen != want) return DecodeError::missing_field;
  return first;
}

// The answer's array, element by element: on_element(i, value, stop)
// returns the element's outcome (syntax ends the walk) and sets stop to end
// it there (AccessOne). An element on_element does not consume is skipped by
// On-Demand. Precedence as decode_object's: syntax, trailing, then the first
// error in document order.
template <class OnElement>
DecodeError walk_logs(od::parser& parser, Bytes in, OnElement&& on_element) noexcept {
  const char* const data = reinterpret_cast<const char*>(in.data());
  od::document doc;
  if (parser.iterate(data, in.size(), in.size() + kInputPaddingBytes).get(doc) != simdjson::SUCCESS)
    return DecodeError::syntax;
  od::array logs;
  if (const error_code e = doc.get_array().get(logs); e != simdjson::SUCCESS)
    return root_of_wrong_type(doc, e, data + in.size());
  DecodeError first = DecodeError::ok;
  std::uint32_t i = 0;
  for (auto item : logs) {
    if (item.error() != simdjson::SUCCESS) return DecodeError::syntax;
    od::value&& v = std::move(item).value_unsafe();
    bool stop = false;
    const DecodeError r = on_element(i++, v, stop);
    if (r == DecodeError::syntax) return r;
    if (first == DecodeError::ok) first = r;
    if (stop) return first;
  }
  if (doc.current_location().error() != simdjson::OUT_OF_BOUNDS) return DecodeError::trailing;
  return first;
}

}  // namespace

DecodeError Simdjson::State::decode_request(Bytes in, RequestView& out) noexcept {
  DecodeError e = decode_object(req, in, kRequestNames, [&out](int i, od::value& v) noexcept {
    switch (i) {
      case 0:
        return read_string(v, out.method);
      case 1:
        return read_string(v, out.account);
      case 2:
        return read_u64(v, out.block);
      default:
        return read_u64(v, out.id);
    }
  });
  if (e != DecodeError::ok) return e;
  out.account_form = Form::hex;
  return hex::check(out.account, kAccountBytes, out.account0);
}

DecodeError Simdjson::State::decode_response(Bytes in, ResponseView& out) noexcept {
  DecodeError e = decode_object(resp, in, kResponseNames, [&out](int i, od::value& v) noexcept {
    switch (i) {
      case 0:
        return read_u64(v, out.id);
      case 1:
        return read_u64(v, out.balance);
      case 2:
        return read_u64(v, out.nonce);
      default:
        return read_string(v, out.block_hash);
    }
  });
  if (e != DecodeError::ok) return e;
  out.block_hash_form = Form::hex;
  std::uint8_t first = 0;
  return hex::check(out.block_hash, kHashBytes, first);
}

DecodeError Simdjson::State::decode_logs_request(Bytes in, LogsRequest& out) noexcept {
  LogsRequest v;
  const DecodeError e = decode_object(logs, in, kLogsRequestNames, [&v](int i, od::value& value) noexcept {
    std::string_view s;
    const DecodeError r = read_string(value, s);
    return r == DecodeError::ok ? logs_json::read_request_string(v, i, s) : r;
  });
  if (e == DecodeError::ok) out = v;
  return e;
}

DecodeError Simdjson::State::logs_decode_all(Bytes in, LogsDigest& d) noexcept {
  return walk_logs(logs, in, [&](std::uint32_t, od::value& v, bool&) noexcept {
    const DecodeError r = read_log(v, logs_json::kAllLogFields, true, log, data);
    if (r == DecodeError::ok) log.fold(d);
    return r;
  });
}

DecodeError Simdjson::State::logs_access_one(Bytes in, std::uint32_t k, LogPick& out) noexcept {
  bool found = false;
  const DecodeError e = walk_logs(logs, in, [&](std::uint32_t i, od::value& v, bool& stop) noexcept {
    if (i != k) return DecodeError::ok;  // not consumed: On-Demand skips it
    found = true;
    // An element k that is not a log is wrong_type on the error path, which
    // reads on to the end (as the SAX codecs must).
    od::json_type t;
    stop = v.type().get(t) == simdjson::SUCCESS && t == od::json_type::object;
    return read_log(v, logs_json::kPickFields, false, log, data);
  });
  if (e != DecodeError::ok) return e;
  if (!found) return DecodeError::missing_field;
  out.log_index = log.log_index;
  out.tx_hash = log.tx_hash;
  return DecodeError::ok;
}

DecodeError Simdjson::State::logs_scan(Bytes in, LogsScan& out) noexcept {
  std::uint64_t count = 0, sum = 0;
  const DecodeError e = walk_logs(logs, in, [&](std::uint32_t, od::value& v, bool&) noexcept {
    const DecodeError r = read_log(v, logs_json::kScanFields, false, log, data);
    ++count;
    sum += log.block_number;
    return r;
  });
  if (e != DecodeError::ok) return e;
  out.count += count;
  out.block_sum += sum;
  return DecodeError::ok;
}

template class LibraryCodec<Simdjson>;

}  // namespace record
