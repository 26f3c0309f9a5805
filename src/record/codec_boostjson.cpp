// record/codec_boostjson.cpp — Boostjson::State, BoostjsonCodec's work: the SAX handler that maps
// basic_parser's events onto the record (and onto record::DecodeError), and the
// encoders' reused objects, serializer and output buffers.
#include "record/codec_boostjson.hpp"

#include <array>
#include <boost/json/array.hpp>
#include <boost/json/basic_parser_impl.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serializer.hpp>
#include <boost/json/string.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "record/library_codec_impl.hpp"
#include "record/logs_json.hpp"
#include "record/logs_sax.hpp"

namespace record {

namespace json = boost::json;

namespace {

enum class Kind : std::uint8_t { u64, str };

// The record's fields in Go's order; an index is a bit in `seen`.
struct RequestFields {
  using View = RequestView;
  static constexpr std::size_t kCount = 4;
  static constexpr std::array<std::string_view, kCount> kNames = {"method", "account", "block", "id"};
  static constexpr std::array<Kind, kCount> kKinds = {Kind::str, Kind::str, Kind::u64, Kind::u64};
  static std::uint64_t& u64(View& v, int i) noexcept { return i == 2 ? v.block : v.id; }
  static std::string_view& str(View& v, int i) noexcept { return i == 0 ? v.method : v.account; }
};

struct ResponseFields {
  using View = ResponseView;
  static constexpr std::size_t kCount = 4;
  static constexpr std::array<std::string_view, kCount> kNames = {"id", "balance", "nonce", "blockHash"};
  static constexpr std::array<Kind, kCount> kKinds = {Kind::u64, Kind::u64, Kind::u64, Kind::str};
  static std::uint64_t& u64(View& v, int i) noexcept { return i == 0 ? v.id : i == 1 ? v.balance : v.nonce; }
  static std::string_view& str(View& v, int) noexcept { return v.block_hash; }
};

inline std::string_view sv(json::string_view s) noexcept { return {s.data(), s.size()}; }

// Receives basic_parser's events for one document. Only depth 1 (the root
// object's members) is looked at; everything deeper — an unknown key's object,
// an "id" nested in it — is skipped, though the parser still checks it.
// Field errors are remembered, not returned: the parse continues so that a
// malformed document reads as `syntax`, as it would with a DOM parser.
template <class F>
class Handler {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

  Handler() {
    for (std::string& s : scratch_) s.reserve(kScratchBytes);
  }

  void start(typename F::View& out, const char* begin, const char* end) noexcept {
    out_ = &out;
    begin_ = begin;
    end_ = end;
    depth_ = 0;
    field_ = kNone;
    seen_ = 0;
    first_ = DecodeError::ok;
    key_len_ = 0;
    str_parts_ = false;
    num_flags_ = false;
  }

  // After a clean parse: the first field error, else a missing field.
  DecodeError finish() const noexcept {
    if (first_ != DecodeError::ok) return first_;
    return seen_ == (1u << F::kCount) - 1 ? DecodeError::ok : DecodeError::missing_field;
  }

  bool on_document_begin(json::error_code&) noexcept { return true; }
  bool on_document_end(json::error_code&) noexcept { return true; }

  bool on_object_begin(json::error_code&) noexcept {
    if (depth_ != 0) value_of_wrong_type();  // the root object is what we want
    ++depth_;
    return true;
  }
  bool on_object_end(std::size_t, json::error_code&) noexcept {
    --depth_;
    return true;
  }
  bool on_array_begin(json::error_code&) noexcept {
    value_of_wrong_type();  // at depth 0: the top level is not an object
    ++depth_;
    return true;
  }
  bool on_array_end(std::size_t, json::error_code&) noexcept {
    --depth_;
    return true;
  }

  // Keys: the parts of an escaped key are gathered (up to the longest name).
  bool on_key_part(json::string_view s, std::size_t, json::error_code&) noexcept {
    if (depth_ == 1) append_key(s);
    return true;
  }
  bool on_key(json::string_view s, std::size_t, json::error_code&) noexcept {
    if (depth_ != 1) return true;
    std::string_view key = sv(s);
    if (key_len_ != 0) {
      append_key(s);
      key = {key_, key_len_};
      key_len_ = 0;
    }
    field_ = kNone;
    for (std::size_t i = 0; i < F::kCount; ++i) {
      if (key != F::kNames[i]) continue;
      if (seen_ >> i & 1u) {
        note(DecodeError::duplicate_field);  // its value is skipped
      } else {
        seen_ |= 1u << i;
        field_ = static_cast<int>(i);
      }
      break;
    }
    return true;
  }

  // Strings: unescaped ones arrive whole, as a view into the input; escaped
  // ones arrive in parts (some from the parser's stack buffer), gathered into
  // the field's own scratch so that the view outlives the parse.
  bool on_string_part(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    if (!wants(Kind::str)) return true;
    std::string& scratch = scratch_[static_cast<std::size_t>(field_)];
    if (!str_parts_) scratch.clear();
    str_parts_ = true;
    return append(scratch, s, ec);
  }
  bool on_string(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    if (!wants(Kind::str)) return value_of_wrong_type();
    std::string_view& out = F::str(*out_, field_);
    if (!str_parts_ && s.data() >= begin_ && s.data() + s.size() <= end_) {
      out = sv(s);  // the common case: zero-copy
    } else {
      std::string& scratch = scratch_[static_cast<std::size_t>(field_)];
      if (!str_parts_) scratch.clear();
      if (!append(scratch, s, ec)) return false;
      out = scratch;
    }
    str_parts_ = false;
    field_ = kNone;
    return true;
  }

  // Numbers: basic_parser gives an integer that fits int64 to on_int64 (so a
  // negative, "-0" included, shows as a leading '-'), one that fits only
  // uint64 to on_uint64, and fractions, exponents and integers past 2^64-1 to
  // on_double — told apart by the number's text.
  bool on_number_part(json::string_view s, json::error_code&) noexcept {
    if (wants(Kind::u64)) num_flags_ = num_flags_ || not_plain_digits(s);
    return true;
  }
  bool on_int64(std::int64_t i, json::string_view s, json::error_code&) noexcept {
    if (!wants(Kind::u64)) return value_of_wrong_type();
    if (i < 0 || num_flags_ || not_plain_digits(s)) return value_of_wrong_type();
    return store(static_cast<std::uint64_t>(i));
  }
  bool on_uint64(std::uint64_t u, json::string_view, json::error_code&) noexcept {
    if (!wants(Kind::u64)) return value_of_wrong_type();
    return store(u);
  }
  bool on_double(double, json::string_view s, json::error_code&) noexcept {
    if (!wants(Kind::u64)) return value_of_wrong_type();
    note(num_flags_ || not_plain_digits(s) ? DecodeError::wrong_type : DecodeError::integer_overflow);
    num_flags_ = false;
    field_ = kNone;
    return true;
  }

  bool on_bool(bool, json::error_code&) noexcept { return value_of_wrong_type(); }
  bool on_null(json::error_code&) noexcept { return value_of_wrong_type(); }
  bool on_comment_part(json::string_view, json::error_code&) noexcept { return true; }
  bool on_comment(json::string_view, json::error_code&) noexcept { return true; }

 private:
  static constexpr int kNone = -1;
  static constexpr std::size_t kKeyBytes = 16;  // longer than every name
  static constexpr std::size_t kScratchBytes = 128;

  // A value of the current field (depth 1, a known key) of this kind.
  bool wants(Kind k) const noexcept {
    return depth_ == 1 && field_ != kNone && F::kKinds[static_cast<std::size_t>(field_)] == k;
  }
  // A value that is not the field's kind; at depth 0, the top level itself.
  bool value_of_wrong_type() noexcept {
    if (depth_ == 0 || (depth_ == 1 && field_ != kNone)) note(DecodeError::wrong_type);
    if (depth_ == 1) field_ = kNone;
    num_flags_ = false;
    str_parts_ = false;
    return true;
  }
  bool store(std::uint64_t v) noexcept {
    F::u64(*out_, field_) = v;
    num_flags_ = false;
    field_ = kNone;
    return true;
  }
  void note(DecodeError e) noexcept {
    if (first_ == DecodeError::ok) first_ = e;
  }
  static bool not_plain_digits(json::string_view s) noexcept {
    for (char c : s)
      if (c < '0' || c > '9') return true;
    return false;
  }
  void append_key(json::string_view s) noexcept {
    if (s.size() > kKeyBytes - key_len_) {
      key_len_ = kKeyBytes;  // too long for any name: stays unknown
      return;
    }
    std::memcpy(key_ + key_len_, s.data(), s.size());
    key_len_ += s.size();
  }
  static bool append(std::string& scratch, json::string_view s, json::error_code& ec) noexcept {
    try {
      scratch.append(s.data(), s.size());
      return true;
    } catch (...) {  // out of memory: fail the parse rather than throw
      ec = json::error::exception;
      return false;
    }
  }

  typename F::View* out_ = nullptr;
  const char* begin_ = nullptr;
  const char* end_ = nullptr;
  int depth_ = 0;
  int field_ = kNone;
  unsigned seen_ = 0;
  DecodeError first_ = DecodeError::ok;
  bool str_parts_ = false;
  bool num_flags_ = false;
  std::size_t key_len_ = 0;
  char key_[kKeyBytes] = {};
  std::array<std::string, F::kCount> scratch_;
};

// The eth_getLogs documents' handler: basic_parser's events to a logs_sax
// collector (AnswerCollector or RequestCollector). No JSON number is a field
// of these documents, so a number is just a value of the wrong type. Escaped
// strings and keys arrive in parts, gathered into reused scratch.
template <class C>
class LogsHandler {
 public:
  static constexpr std::size_t max_array_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_object_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_string_size = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_key_size = static_cast<std::size_t>(-1);

  LogsHandler() {
    key_.reserve(64);
    text_.reserve(2 + 2 * kMaxLogDataBytes);
  }

  void start(C& c) noexcept {
    c_ = &c;
    key_.clear();
    text_.clear();
  }

  bool on_document_begin(json::error_code&) noexcept { return true; }
  bool on_document_end(json::error_code&) noexcept { return true; }
  bool on_object_begin(json::error_code& ec) noexcept { return go(c_->open_object(), ec); }
  bool on_object_end(std::size_t, json::error_code& ec) noexcept { return go(c_->close(), ec); }
  bool on_array_begin(json::error_code& ec) noexcept { return go(c_->open_array(), ec); }
  bool on_array_end(std::size_t, json::error_code& ec) noexcept { return go(c_->close(), ec); }

  bool on_key_part(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    return append(key_, s, ec);
  }
  bool on_key(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    if (key_.empty()) return go(c_->key(sv(s)), ec);
    if (!append(key_, s, ec)) return false;
    const bool more = c_->key(key_);
    key_.clear();
    return go(more, ec);
  }
  bool on_string_part(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    return append(text_, s, ec);
  }
  bool on_string(json::string_view s, std::size_t, json::error_code& ec) noexcept {
    if (text_.empty()) return go(c_->text(sv(s)), ec);  // the common case: a view into the input
    if (!append(text_, s, ec)) return false;
    const bool more = c_->text(text_);
    text_.clear();
    return go(more, ec);
  }

  bool on_number_part(json::string_view, json::error_code&) noexcept { return true; }
  bool on_int64(std::int64_t, json::string_view, json::error_code& ec) noexcept {
    return go(c_->other(), ec);
  }
  bool on_uint64(std::uint64_t, json::string_view, json::error_code& ec) noexcept {
    return go(c_->other(), ec);
  }
  bool on_double(double, json::string_view, json::error_code& ec) noexcept { return go(c_->other(), ec); }
  bool on_bool(bool b, json::error_code& ec) noexcept { return go(c_->boolean(b), ec); }
  bool on_null(json::error_code& ec) noexcept { return go(c_->other(), ec); }
  bool on_comment_part(json::string_view, json::error_code&) noexcept { return true; }
  bool on_comment(json::string_view, json::error_code&) noexcept { return true; }

 private:
  // false ends the parse (too deep, or AccessOne done): basic_parser wants
  // an error code then.
  static bool go(bool more, json::error_code& ec) noexcept {
    if (!more) ec = json::error::exception;
    return more;
  }
  static bool append(std::string& scratch, json::string_view s, json::error_code& ec) noexcept {
    try {
      scratch.append(s.data(), s.size());
      return true;
    } catch (...) {  // out of memory: fail the parse rather than throw
      ec = json::error::exception;
      return false;
    }
  }

  C* c_ = nullptr;
  std::string key_;   // an escaped key's parts
  std::string text_;  // an escaped string's parts
};

// Whether a collector stopped the parse on purpose (AccessOne after log k).
inline bool stopped(const logs_sax::AnswerCollector& c) noexcept { return c.stopped(); }
inline bool stopped(const logs_sax::RequestCollector&) noexcept { return false; }

// One parse of in into c: syntax, trailing or ok (a stop after log k is ok).
template <class C>
DecodeError run_logs(json::basic_parser<LogsHandler<C>>& p, Bytes in, C& c) noexcept {
  const char* const data = reinterpret_cast<const char*>(in.data());
  p.reset();
  p.handler().start(c);
  json::error_code ec;
  const std::size_t n = p.write_some(false, data, in.size(), ec);
  if (ec) return stopped(c) ? DecodeError::ok : DecodeError::syntax;
  if (n != in.size()) return DecodeError::trailing;
  return DecodeError::ok;
}

json::parse_options parse_options() noexcept {
  json::parse_options o;
  o.max_depth = 1024;  // Boost's default is 32; 1024 is simdjson's (nesting is legal in unknown values)
  return o;
}

template <class F>
DecodeError run(json::basic_parser<Handler<F>>& p, Bytes in, typename F::View& out) noexcept {
  const char* const data = reinterpret_cast<const char*>(in.data());
  p.reset();
  p.handler().start(out, data, data + in.size());
  json::error_code ec;
  const std::size_t n = p.write_some(false, data, in.size(), ec);
  if (ec) return DecodeError::syntax;  // grammar, truncation, invalid UTF-8, too deep
  if (n != in.size()) return DecodeError::trailing;
  return p.handler().finish();
}

// The serializer's output, read into a reused buffer that only ever grows.
template <class Doc>
Bytes serialize(json::serializer& sr, const Doc& o, std::string& buf) {
  sr.reset(&o);
  std::size_t len = 0;
  while (!sr.done()) {
    if (len == buf.size()) buf.resize(2 * buf.size());
    len += sr.read(buf.data() + len, buf.size() - len).size();
  }
  return {reinterpret_cast<const std::uint8_t*>(buf.data()), len};
}

constexpr std::size_t kOutputBytes = 512;

// A hex string's value written in place: assign keeps the string's capacity.
void assign(json::value& v, const char* begin, const char* end) {
  v.get_string().assign(json::string_view(begin, static_cast<std::size_t>(end - begin)));
}

// One log's object, built once, keys in geth's order; its values are
// overwritten in place on every later encode.
json::object log_object() {
  json::object o;
  o.reserve(logs_json::kLogFields);
  for (int f = 0; f < logs_json::kLogFields; ++f) {
    const std::string_view key = logs_json::kLogKeys[f];
    const json::string_view k(key.data(), key.size());
    if (f == logs_json::kTopics)
      o.emplace(k, json::array());
    else if (f == logs_json::kRemoved)
      o.emplace(k, false);
    else
      o.emplace(k, json::string());
  }
  return o;
}

}  // namespace

struct Boostjson::State {
  State() : req_out(kOutputBytes, '\0'), resp_out(kOutputBytes, '\0') {
    // Built once in Go's field order; the slots stay put (nothing is inserted later).
    req.reserve(4);
    method = &req.emplace("method", json::string()).first->value();
    account = &req.emplace("account", json::string(2 + 2 * kAccountBytes, '0')).first->value();
    block = &req.emplace("block", std::uint64_t{0}).first->value();
    req_id = &req.emplace("id", std::uint64_t{0}).first->value();
    resp.reserve(4);
    resp_id = &resp.emplace("id", std::uint64_t{0}).first->value();
    balance = &resp.emplace("balance", std::uint64_t{0}).first->value();
    nonce = &resp.emplace("nonce", std::uint64_t{0}).first->value();
    hash = &resp.emplace("blockHash", json::string(2 + 2 * kHashBytes, '0')).first->value();
  }

  json::basic_parser<Handler<RequestFields>> req_parser{parse_options()};
  json::basic_parser<Handler<ResponseFields>> resp_parser{parse_options()};

  json::object req;
  json::object resp;
  json::value* method;
  json::value* account;
  json::value* block;
  json::value* req_id;
  json::value* resp_id;
  json::value* balance;
  json::value* nonce;
  json::value* hash;
  json::serializer sr;
  std::string req_out;
  std::string resp_out;

  Bytes encode_request(const Request& r) {
    method->get_string().assign(json::string_view(r.method.data(), r.method.size()));
    hex::write(account->get_string().data(), r.account);  // fixed length: overwritten in place
    block->get_uint64() = r.block;
    req_id->get_uint64() = r.id;
    return serialize(sr, req, req_out);
  }

  Bytes encode_response(const Response& r) {
    resp_id->get_uint64() = r.id;
    balance->get_uint64() = r.balance;
    nonce->get_uint64() = r.nonce;
    hex::write(hash->get_string().data(), r.block_hash);
    return serialize(sr, resp, resp_out);
  }

  DecodeError decode_request(Bytes in, RequestView& out) noexcept {
    const DecodeError e = run(req_parser, in, out);
    if (e != DecodeError::ok) return e;
    out.account_form = Form::hex;
    return hex::check(out.account, kAccountBytes, out.account0);
  }

  DecodeError decode_response(Bytes in, ResponseView& out) noexcept {
    const DecodeError e = run(resp_parser, in, out);
    if (e != DecodeError::ok) return e;
    out.block_hash_form = Form::hex;
    std::uint8_t first = 0;
    return hex::check(out.block_hash, kHashBytes, first);
  }

  // ---- eth_getLogs ---------------------------------------------------------------
  logs_sax::AnswerCollector answer;
  logs_sax::RequestCollector logs_request;
  json::basic_parser<LogsHandler<logs_sax::AnswerCollector>> answer_parser{parse_options()};
  json::basic_parser<LogsHandler<logs_sax::RequestCollector>> logs_request_parser{parse_options()};

  // The encoders' documents, as the first record's: built once (the answer:
  // one object per log, grown to the largest answer), values overwritten in
  // place, serialized into reused buffers.
  json::object logs_request_doc = [] {
    json::object o;
    o.reserve(logs_json::kRequestFields);
    for (std::string_view key : logs_json::kRequestKeys)
      o.emplace(json::string_view(key.data(), key.size()), json::string());
    return o;
  }();
  json::array logs_doc;
  std::string logs_request_text = std::string(kOutputBytes, '\0');
  std::string logs_text = std::string(kOutputBytes, '\0');
  std::string data_text = std::string(2 + 2 * kMaxLogDataBytes, '\0');  // a log's data as hex

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) noexcept {
    logs_request.start();
    const DecodeError e = run_logs(logs_request_parser, in, logs_request);
    return e == DecodeError::ok ? logs_request.finish(out) : e;
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& d) noexcept {
    answer.start_decode_all(d);
    const DecodeError e = run_logs(answer_parser, in, answer);
    return e == DecodeError::ok ? answer.finish() : e;
  }

  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) noexcept {
    LogPick pick;
    answer.start_access_one(k, pick);
    DecodeError e = run_logs(answer_parser, in, answer);
    if (e == DecodeError::ok) e = answer.finish();
    if (e == DecodeError::ok) out = pick;
    return e;
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) noexcept {
    answer.start_scan();
    DecodeError e = run_logs(answer_parser, in, answer);
    if (e == DecodeError::ok) e = answer.finish();
    if (e != DecodeError::ok) return e;
    out.count += answer.count();
    out.block_sum += answer.block_sum();
    return DecodeError::ok;
  }

  Bytes encode_logs_request(const LogsRequest& r) {
    json::key_value_pair* kv = logs_request_doc.begin();  // in kRequestKeys' order
    char text[2 + 2 * kAccountBytes];
    assign(kv[logs_json::kFromBlock].value(), text, hex::write_quantity(text, r.from_block));
    assign(kv[logs_json::kToBlock].value(), text, hex::write_quantity(text, r.to_block));
    assign(kv[logs_json::kFilterAddress].value(), text, hex::encode(text, r.address));
    assign(kv[logs_json::kLimit].value(), text, hex::write_quantity(text, r.limit));
    return serialize(sr, logs_request_doc, logs_request_text);
  }

  Bytes encode_logs(std::span<const Log> logs) {
    using namespace logs_json;  // NOLINT: the field names
    if (logs_doc.size() > logs.size()) logs_doc.resize(logs.size());
    while (logs_doc.size() < logs.size()) logs_doc.emplace_back(log_object());
    char text[2 + 2 * kHashBytes];
    for (std::size_t i = 0; i < logs.size(); ++i) {
      const Log& l = logs[i];
      json::key_value_pair* kv = logs_doc[i].get_object().begin();  // in kLogKeys' order
      assign(kv[kAddress].value(), text, hex::encode(text, l.address));
      json::array& topics = kv[kTopics].value().get_array();
      topics.resize(l.topic_count());  // new elements are null
      for (std::size_t t = 0; t < l.topic_count(); ++t) {
        json::value& topic = topics[t];
        if (!topic.is_string()) topic.emplace_string();
        assign(topic, text, hex::encode(text, l.topics.subspan(t * kTopicBytes, kTopicBytes)));
      }
      if (data_text.size() < 2 + 2 * l.data.size()) data_text.resize(2 + 2 * l.data.size());
      assign(kv[kData].value(), data_text.data(), hex::encode(data_text.data(), l.data));
      assign(kv[kBlockNumber].value(), text, hex::write_quantity(text, l.block_number));
      assign(kv[kTxHash].value(), text, hex::encode(text, l.tx_hash));
      assign(kv[kTxIndex].value(), text, hex::write_quantity(text, l.tx_index));
      assign(kv[kLogIndex].value(), text, hex::write_quantity(text, l.log_index));
      kv[kRemoved].value().get_bool() = l.removed;
    }
    return serialize(sr, logs_doc, logs_text);
  }
};

template class LibraryCodec<Boostjson>;

}  // namespace record
