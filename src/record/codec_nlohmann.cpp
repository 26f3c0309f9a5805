// record/codec_nlohmann.cpp — Nlohmann::State, NlohmannCodec's work: the record handler behind
// nlohmann::json::sax_parse (field tracking, skipping unknown keys, the fairness
// contract's errors) and the ordered_json encoders. See the header for why.
#include "record/codec_nlohmann.hpp"

#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "record/json_sax.hpp"
#include "record/library_codec_impl.hpp"
#include "record/logs_json.hpp"
#include "record/logs_sax.hpp"

namespace record {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;
using namespace json_sax;  // NOLINT: the shared field tracking

// ---- nlohmann's side ------------------------------------------------------------

// The json_sax handler: every event goes to the Collector; only parse_error
// and nesting past Collector::kMaxDepth stop the parse. Strings arrive in the
// lexer's buffer (reused for the next token), so the Collector copies the ones
// it keeps into its scratch.
class Handler {
 public:
  explicit Handler(Collector& c) noexcept : c_(c) {}

  DecodeError error() const noexcept { return err_; }

  bool null() { return c_.other(); }
  bool boolean(bool) { return c_.other(); }
  bool number_integer(json::number_integer_t) { return c_.bad_number(DecodeError::wrong_type); }  // negatives
  bool number_unsigned(json::number_unsigned_t v) { return c_.number(v); }
  // A fraction, an exponent, a negative past i64 or an integer past u64; the
  // lexer hands over the literal, which tells them apart.
  bool number_float(json::number_float_t, const json::string_t& literal) {
    return c_.bad_number(classify_number(literal));
  }
  bool string(json::string_t& s) { return c_.text(s, false); }
  bool binary(json::binary_t&) { return c_.other(); }  // never from JSON text
  bool start_object(std::size_t) { return within_depth(c_.open_object()); }
  bool key(json::string_t& k) { return c_.key(k); }
  bool end_object() { return c_.close(); }
  bool start_array(std::size_t) { return within_depth(c_.open_array()); }
  bool end_array() { return c_.close(); }
  // Returns false: the parse ends. Error 406 is a number past a double's
  // range (also the lexer's fallback for an integer past u64): too_big().
  bool parse_error(std::size_t, const std::string&, const json::exception& ex) {
    too_big_ = ex.id == 406 && !c_.done();
    err_ = c_.done() ? DecodeError::trailing : DecodeError::syntax;
    return false;
  }
  bool too_big() const noexcept { return too_big_; }

 private:
  bool within_depth(bool ok) noexcept {
    if (!ok) err_ = DecodeError::syntax;
    return ok;
  }

  Collector& c_;
  DecodeError err_ = DecodeError::ok;
  bool too_big_ = false;
};

// One strict parse of [begin, end) into c: the parse's error, or ok.
DecodeError parse(const char* begin, const char* end, Collector& c, bool& too_big) {
  c.reset();
  Handler h(c);
  // strict: the whole input must be one value; comments are errors. The
  // parser reports errors through parse_error only (nothing is thrown but
  // std::bad_alloc).
  const bool ok = json::sax_parse(begin, end, &h, json::input_format_t::json, /*strict=*/true,
                                  /*ignore_comments=*/false);
  too_big = h.too_big();
  if (!ok) return h.error();
  // nlohmann's lexer takes a NUL byte for the end of the input; inside a
  // string or between tokens that is a syntax error, so after a complete
  // parse a NUL can only follow the root value.
  if (std::memchr(begin, '\0', static_cast<std::size_t>(end - begin)) != nullptr)
    return DecodeError::trailing;
  return DecodeError::ok;
}

// tamed: the codec's scratch for the rare second parse (see tame_numbers).
template <class View>
DecodeError decode(Bytes in, Collector& c, View& out, std::string& tamed) {
  const auto* begin = reinterpret_cast<const char*>(in.data());
  const std::size_t n = in.size();
  // nlohmann skips a leading UTF-8 BOM; the contract (and every other codec)
  // does not: a BOM is not JSON whitespace.
  if (n >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) return DecodeError::syntax;
  bool too_big = false;
  DecodeError e = parse(begin, begin + n, c, too_big);
  if (too_big) {
    tamed.assign(begin, n);
    tame_numbers(tamed.data(), n);
    e = parse(tamed.data(), tamed.data() + n, c, too_big);
  }
  return e == DecodeError::ok ? c.finish(out) : e;
}

}  // namespace

// ---- eth_getLogs ------------------------------------------------------------------

// Whether a collector stopped the parse on purpose (AccessOne after log k).
inline bool stopped(const logs_sax::AnswerCollector& c) noexcept { return c.stopped(); }
inline bool stopped(const logs_sax::RequestCollector&) noexcept { return false; }

// The eth_getLogs documents' json_sax handler: events to a logs_sax collector
// (AnswerCollector or RequestCollector). No JSON number is a field of these
// documents, so a number is just a value of the wrong type; strings are
// consumed during the call (the lexer's buffer is fine).
template <class C>
class LogsHandler {
 public:
  explicit LogsHandler(C& c) noexcept : c_(c) {}

  DecodeError error() const noexcept { return err_; }
  bool too_big() const noexcept { return too_big_; }

  bool null() { return c_.other(); }
  bool boolean(bool b) { return c_.boolean(b); }
  bool number_integer(json::number_integer_t) { return c_.other(); }
  bool number_unsigned(json::number_unsigned_t) { return c_.other(); }
  bool number_float(json::number_float_t, const json::string_t&) { return c_.other(); }
  bool string(json::string_t& s) { return c_.text(s); }
  bool binary(json::binary_t&) { return c_.other(); }  // never from JSON text
  bool start_object(std::size_t) { return within_depth(c_.open_object()); }
  bool key(json::string_t& k) { return c_.key(k); }
  bool end_object() { return c_.close(); }
  bool start_array(std::size_t) { return within_depth(c_.open_array()); }
  bool end_array() { return c_.close(); }
  // As the first record's Handler: 406 is a number past a double's range.
  bool parse_error(std::size_t, const std::string&, const json::exception& ex) {
    too_big_ = ex.id == 406 && !c_.done();
    err_ = c_.done() ? DecodeError::trailing : DecodeError::syntax;
    return false;
  }

 private:
  // start_object / start_array return false past the depth limit, and (an
  // AccessOne's element k that is not a log) to stop: only the first is an
  // error.
  bool within_depth(bool ok) noexcept {
    if (!ok && !stopped(c_)) err_ = DecodeError::syntax;
    return ok;
  }
  C& c_;
  DecodeError err_ = DecodeError::ok;
  bool too_big_ = false;
};

// One strict parse of [begin, end) into c (started by the caller): the parse's
// error, or ok; a stop after log k is ok.
template <class C>
DecodeError parse_logs(const char* begin, const char* end, C& c, bool& too_big) {
  LogsHandler<C> h(c);
  const bool ok = json::sax_parse(begin, end, &h, json::input_format_t::json, /*strict=*/true,
                                  /*ignore_comments=*/false);
  too_big = h.too_big();
  if (stopped(c)) return DecodeError::ok;  // nothing after log k is read: no NUL can have ended it early
  if (!ok) return h.error();
  // As parse(): after a complete parse a NUL can only follow the root value.
  if (std::memchr(begin, '\0', static_cast<std::size_t>(end - begin)) != nullptr)
    return DecodeError::trailing;
  return DecodeError::ok;
}

// start() starts c afresh (each parse, the tamed one too).
template <class C, class Start>
DecodeError decode_logs(Bytes in, C& c, Start&& start, std::string& tamed) {
  const auto* begin = reinterpret_cast<const char*>(in.data());
  const std::size_t n = in.size();
  if (n >= 3 && std::memcmp(begin, "\xEF\xBB\xBF", 3) == 0) return DecodeError::syntax;  // as decode()
  bool too_big = false;
  start();
  DecodeError e = parse_logs(begin, begin + n, c, too_big);
  if (too_big) {
    tamed.assign(begin, n);
    tame_numbers(tamed.data(), n);
    start();
    e = parse_logs(tamed.data(), tamed.data() + n, c, too_big);
  }
  return e;
}

// Measured on the sample documents (g++ 12 -O3; callgrind instructions and
// ns per operation on the development VM, request / response):
//   decode: sax_parse + this handler         11,322 / 14,213 Ir, ~540 / ~690 ns
//           json::parse (DOM) + find()        ~730 ns (request)
//   encode: ordered_json, values overwritten
//           in place, dump() (this)           6,241 / 7,107 Ir, ~290 / ~340 ns
//           the same through operator<< into
//           a reused string's streambuf       7,340 / 7,876 Ir, ~430 / ~515 ns
//           a new ordered_json per call        8,115 / 8,781 Ir, ~360 / ~410 ns
// Steady-state allocations are the library's own, and unavoidable through
// its public API: dump() returns a fresh std::string and makes a shared_ptr
// output adapter (5 / 6 per encode); each sax_parse builds a parser whose
// lexer grows a token buffer and a token-text vector, plus its state vector
// (10 / 12 per decode).

// An ordered_json per direction, built once with its keys in Go's order;
// encode overwrites the values in place (through pointers to them, so no
// lookup and no reallocation) and dumps.
struct Nlohmann::State {
  Collector request{kRequestFields};
  Collector response{kResponseFields};

  ordered_json request_doc = {{"method", ""}, {"account", ""}, {"block", 0u}, {"id", 0u}};
  std::string* method = request_doc["method"].get_ptr<std::string*>();
  std::string* account = request_doc["account"].get_ptr<std::string*>();
  std::uint64_t* block = request_doc["block"].get_ptr<std::uint64_t*>();
  std::uint64_t* request_id = request_doc["id"].get_ptr<std::uint64_t*>();

  ordered_json response_doc = {{"id", 0u}, {"balance", 0u}, {"nonce", 0u}, {"blockHash", ""}};
  std::uint64_t* response_id = response_doc["id"].get_ptr<std::uint64_t*>();
  std::uint64_t* balance = response_doc["balance"].get_ptr<std::uint64_t*>();
  std::uint64_t* nonce = response_doc["nonce"].get_ptr<std::uint64_t*>();
  std::string* block_hash = response_doc["blockHash"].get_ptr<std::string*>();

  std::string request_out;
  std::string response_out;
  std::string tamed;  // see tame_numbers

  State() {
    method->reserve(64);
    account->reserve(2 + 2 * kAccountBytes);
    block_hash->reserve(2 + 2 * kHashBytes);
  }

  // dump()'s default error handler is strict: a method that is not valid
  // UTF-8 throws json::type_error (316) rather than writing invalid JSON.
  // Decoded methods are always valid UTF-8, so a round trip never throws.
  static Bytes dump(const ordered_json& doc, std::string& out) {
    out = doc.dump();
    return {reinterpret_cast<const std::uint8_t*>(out.data()), out.size()};
  }

  Bytes encode_request(const Request& r) {
    char hex_account[2 + 2 * kAccountBytes];
    hex::write(hex_account, r.account);
    method->assign(r.method);
    account->assign(hex_account, sizeof hex_account);
    *block = r.block;
    *request_id = r.id;
    return dump(request_doc, request_out);
  }

  Bytes encode_response(const Response& r) {
    char hash[2 + 2 * kHashBytes];
    hex::write(hash, r.block_hash);
    *response_id = r.id;
    *balance = r.balance;
    *nonce = r.nonce;
    block_hash->assign(hash, sizeof hash);
    return dump(response_doc, response_out);
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode(in, request, out, tamed); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode(in, response, out, tamed); }

  // ---- eth_getLogs ---------------------------------------------------------------
  logs_sax::AnswerCollector answer;
  logs_sax::RequestCollector logs_request;

  // The encoders' documents, as the first record's: ordered_json (geth's key
  // order), built once (the answer: one object per log, grown to the largest
  // answer), values overwritten in place, then dump().
  ordered_json logs_request_doc = {{"fromBlock", ""}, {"toBlock", ""}, {"address", ""}, {"limit", ""}};
  ordered_json logs_doc = ordered_json::array();
  std::string logs_request_out;
  std::string logs_out;
  std::string data_text = std::string(2 + 2 * kMaxLogDataBytes, '\0');  // a log's data as hex

  static ordered_json log_object() {
    ordered_json o = ordered_json::object();
    for (int f = 0; f < logs_json::kLogFields; ++f) {
      const std::string key(logs_json::kLogKeys[f]);
      if (f == logs_json::kTopics)
        o[key] = ordered_json::array();
      else if (f == logs_json::kRemoved)
        o[key] = false;
      else
        o[key] = "";
    }
    return o;
  }
  // The j-th value of an ordered_json object, in insertion order.
  static ordered_json& nth(ordered_json::object_t& o, int j) { return (o.begin() + j)->second; }
  static void assign(ordered_json& v, const char* begin, const char* end) {
    v.get_ref<std::string&>().assign(begin, static_cast<std::size_t>(end - begin));
  }

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) {
    const DecodeError e = decode_logs(
        in, logs_request, [this] { logs_request.start(); }, tamed);
    return e == DecodeError::ok ? logs_request.finish(out) : e;
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& d) {
    const LogsDigest given = d;  // a second (tamed) parse folds from the same start
    const DecodeError e = decode_logs(
        in, answer, [&] { answer.start_decode_all(d = given); }, tamed);
    return e == DecodeError::ok ? answer.finish() : e;
  }

  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    LogPick pick;
    DecodeError e = decode_logs(
        in, answer, [&] { answer.start_access_one(k, pick); }, tamed);
    if (e == DecodeError::ok) e = answer.finish();
    if (e == DecodeError::ok) out = pick;
    return e;
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) {
    DecodeError e = decode_logs(
        in, answer, [this] { answer.start_scan(); }, tamed);
    if (e == DecodeError::ok) e = answer.finish();
    if (e != DecodeError::ok) return e;
    out.count += answer.count();
    out.block_sum += answer.block_sum();
    return DecodeError::ok;
  }

  Bytes encode_logs_request(const LogsRequest& r) {
    auto& o = logs_request_doc.get_ref<ordered_json::object_t&>();  // in kRequestKeys' order
    char text[2 + 2 * kAccountBytes];
    assign(nth(o, logs_json::kFromBlock), text, hex::write_quantity(text, r.from_block));
    assign(nth(o, logs_json::kToBlock), text, hex::write_quantity(text, r.to_block));
    assign(nth(o, logs_json::kFilterAddress), text, hex::encode(text, r.address));
    assign(nth(o, logs_json::kLimit), text, hex::write_quantity(text, r.limit));
    return dump(logs_request_doc, logs_request_out);
  }

  Bytes encode_logs(std::span<const Log> logs) {
    using namespace logs_json;  // NOLINT: the field names
    auto& array = logs_doc.get_ref<ordered_json::array_t&>();
    if (array.size() > logs.size()) array.resize(logs.size());
    while (array.size() < logs.size()) array.push_back(log_object());
    char text[2 + 2 * kHashBytes];
    for (std::size_t i = 0; i < logs.size(); ++i) {
      const Log& l = logs[i];
      auto& o = array[i].get_ref<ordered_json::object_t&>();  // in kLogKeys' order
      assign(nth(o, kAddress), text, hex::encode(text, l.address));
      auto& topics = nth(o, kTopics).get_ref<ordered_json::array_t&>();
      topics.resize(l.topic_count());  // new elements are null
      for (std::size_t t = 0; t < l.topic_count(); ++t) {
        if (!topics[t].is_string()) topics[t] = std::string();
        assign(topics[t], text, hex::encode(text, l.topics.subspan(t * kTopicBytes, kTopicBytes)));
      }
      if (data_text.size() < 2 + 2 * l.data.size()) data_text.resize(2 + 2 * l.data.size());
      assign(nth(o, kData), data_text.data(), hex::encode(data_text.data(), l.data));
      assign(nth(o, kBlockNumber), text, hex::write_quantity(text, l.block_number));
      assign(nth(o, kTxHash), text, hex::encode(text, l.tx_hash));
      assign(nth(o, kTxIndex), text, hex::write_quantity(text, l.tx_index));
      assign(nth(o, kLogIndex), text, hex::write_quantity(text, l.log_index));
      nth(o, kRemoved).get_ref<bool&>() = l.removed;
    }
    return dump(logs_doc, logs_out);
  }
};

template class LibraryCodec<Nlohmann>;

}  // namespace record
