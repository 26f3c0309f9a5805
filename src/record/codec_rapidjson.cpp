// record/codec_rapidjson.cpp — Rapidjson::State, RapidjsonCodec's work: the record handler behind
// rapidjson::Reader (field tracking, skipping unknown keys, the fairness
// contract's errors) and the rapidjson::Writer encoders. See the header for why.
#include "record/codec_rapidjson.hpp"

#include "record/json_sax.hpp"
#include "record/library_codec_impl.hpp"
#include "record/logs_json.hpp"
#include "record/logs_sax.hpp"

// RapidJSON's SIMD paths (RAPIDJSON_SSE2 / RAPIDJSON_SSE42) stay off, the
// library's default: in 1.1.0 the one in Writer<StringBuffer> tests for
// control characters with `max(c, 0x19) == 0x19`, so bytes 0x1A-0x1F are
// written unescaped (invalid JSON; fixed in later RapidJSON). It would have
// saved 16-37% of the encoders' instructions and 1.6% of the decoders'.
#if defined(RAPIDJSON_SSE2) || defined(RAPIDJSON_SSE42)
#error "RapidJSON 1.1.0's SIMD Writer leaves bytes 0x1A-0x1F unescaped: build without RAPIDJSON_SSE2/SSE42"
#endif

// RapidJSON 1.1.0's internal::Stack computes `nullptr + n` on its first push
// (Stack::Reserve, before anything is allocated), which clang's UBSan reports
// (pointer-overflow) on the first Writer::StartObject; later RapidJSON fixed
// it. The fuzz preset builds this library with -fsanitize=undefined and no
// recovery, so that one check is turned off for RapidJSON's own functions.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("pointer-overflow"))), apply_to = function)
#endif
#include <rapidjson/reader.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#if defined(__clang__)
#pragma clang attribute pop
#endif

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace record {
namespace {

namespace rj = rapidjson;
using namespace json_sax;  // NOLINT: the shared field tracking

// ---- RapidJSON's side ----------------------------------------------------------

// The number literal in `text` that contains offset `pos` (at its start, end
// or inside): neighbours of a JSON number are never number characters.
std::string_view number_at(std::string_view text, std::size_t pos) noexcept {
  if (pos > text.size()) return {};
  std::size_t b = pos, e = pos;
  while (b > 0 && is_number_char(text[b - 1])) --b;
  while (e < text.size() && is_number_char(text[e])) ++e;
  return text.substr(b, e - b);
}

// The rapidjson::Reader handler: every event goes to the Collector, which
// stops the parse (false: kParseErrorTermination, reported as syntax) only
// past Collector::kMaxDepth. In-situ strings are stable (copy == false).
class Handler {
 public:
  using Ch = char;

  Handler(Collector& c, const char* const* cursor, const char* base, std::string_view text) noexcept
      : c_(c), cursor_(cursor), base_(base), text_(text) {}

  bool Null() { return c_.other(); }
  bool Bool(bool) { return c_.other(); }
  bool Int(int) { return c_.bad_number(DecodeError::wrong_type); }  // only negatives
  bool Int64(std::int64_t) { return c_.bad_number(DecodeError::wrong_type); }
  bool Uint(unsigned v) { return c_.number(v); }
  bool Uint64(std::uint64_t v) { return c_.number(v); }
  // A fraction, an exponent, or an integer past u64 (-> double): tell them
  // apart by the literal, found around the stream position.
  bool Double(double) {
    const auto pos = static_cast<std::size_t>(*cursor_ - base_);
    return c_.bad_number(classify_number(number_at(text_, pos)));
  }
  bool RawNumber(const char*, rj::SizeType, bool) { return true; }  // not enabled
  bool String(const char* s, rj::SizeType n, bool copy) { return c_.text({s, n}, !copy); }
  bool StartObject() { return c_.open_object(); }
  bool Key(const char* s, rj::SizeType n, bool) { return c_.key({s, n}); }
  bool EndObject(rj::SizeType) { return c_.close(); }
  bool StartArray() { return c_.open_array(); }
  bool EndArray(rj::SizeType) { return c_.close(); }

 private:
  Collector& c_;
  const char* const* cursor_;  // the stream's read position
  const char* base_;           // what the stream reads
  std::string_view text_;      // the input, same offsets as base_
};

// The eth_getLogs documents' handler: events to a logs_sax collector
// (AnswerCollector or RequestCollector). No JSON number is a field of these
// documents, so numbers need no classification: each is just a value of the
// wrong type. Strings are consumed during the call, so they need not be
// stable (in situ or on the reader's stack alike).
template <class C>
class LogsHandler {
 public:
  using Ch = char;
  explicit LogsHandler(C& c) noexcept : c_(c) {}

  bool Null() { return c_.other(); }
  bool Bool(bool b) { return c_.boolean(b); }
  bool Int(int) { return c_.other(); }
  bool Int64(std::int64_t) { return c_.other(); }
  bool Uint(unsigned) { return c_.other(); }
  bool Uint64(std::uint64_t) { return c_.other(); }
  bool Double(double) { return c_.other(); }
  bool RawNumber(const char*, rj::SizeType, bool) { return true; }  // not enabled
  bool String(const char* s, rj::SizeType n, bool) { return c_.text({s, n}); }
  bool StartObject() { return c_.open_object(); }
  bool Key(const char* s, rj::SizeType n, bool) { return c_.key({s, n}); }
  bool EndObject(rj::SizeType) { return c_.close(); }
  bool StartArray() { return c_.open_array(); }
  bool EndArray(rj::SizeType) { return c_.close(); }

 private:
  C& c_;
};

// Whether a collector stopped the parse on purpose (AccessOne after log k).
inline bool stopped(const logs_sax::AnswerCollector& c) noexcept { return c.stopped(); }
inline bool stopped(const logs_sax::RequestCollector&) noexcept { return false; }

constexpr unsigned kParseFlags =
    rj::kParseInsituFlag | rj::kParseValidateEncodingFlag | rj::kParseStopWhenDoneFlag;

constexpr bool is_space(char c) noexcept { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// RapidJSON 1.1.0 rejects a lone high-surrogate escape but turns a lone low
// one (\uDC00-\uDFFF) into invalid UTF-8 (CESU bytes); nlohmann and
// Boost.JSON reject it, and the contract says invalid UTF-8 in a string is
// syntax. Called on a root value RapidJSON accepted, so every backslash
// starts a complete escape inside a string, and a high surrogate is always
// followed by its low half. Costs one memchr when there is no backslash.
bool has_lone_low_surrogate(std::string_view text) noexcept {
  for (std::size_t i = text.find('\\'); i != std::string_view::npos; i = text.find('\\', i)) {
    if (text[i + 1] != 'u') {
      i += 2;
      continue;
    }
    unsigned cp = 0;
    for (std::size_t k = i + 2; k < i + 6; ++k) cp = cp << 4 | static_cast<unsigned>(hex::digit(text[k]));
    if (cp >= 0xDC00 && cp <= 0xDFFF) return true;
    i += cp >= 0xD800 && cp <= 0xDBFF ? 12 : 6;  // a pair, or one escape
  }
  return false;
}

template <std::size_t N>
void key(rj::Writer<rj::StringBuffer>& w, const char (&k)[N]) {
  w.Key(k, static_cast<rj::SizeType>(N - 1));
}

void string(rj::Writer<rj::StringBuffer>& w, const char* begin, const char* end) {
  w.String(begin, static_cast<rj::SizeType>(end - begin));
}

Bytes view(const rj::StringBuffer& b) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(b.GetString()), b.GetSize()};
}

}  // namespace

// Measured on the sample documents (g++ 12 -O3, callgrind instructions per
// operation; decode request / response):
//   in situ on a reused copy (this)                       2,621 / 3,011
//   rapidjson::MemoryStream over the input, no copy; the
//     reader copies strings to its stack, kept ones are
//     copied again to the Collector's scratch             3,552 / 4,084
//   kParseIterativeFlag (constant C stack)                about +15%
// Encoding: Writer<StringBuffer> 1,840 / 2,292 (request / response).
struct Rapidjson::State {
  rj::Reader reader;
  Collector request{kRequestFields};
  Collector response{kResponseFields};
  // The in-situ copy of the input, NUL-terminated (16 bytes of slack: the
  // SIMD whitespace skip, if ever enabled, reads aligned 16-byte blocks).
  std::vector<char> copy = std::vector<char>(1024);

  rj::StringBuffer request_out;
  rj::StringBuffer response_out;
  rj::Writer<rj::StringBuffer> writer;

  template <class View>
  DecodeError decode(Bytes in, Collector& c, View& out) {
    const std::string_view text(reinterpret_cast<const char*>(in.data()), in.size());
    bool too_big = false;
    DecodeError e = parse(text, c, false, too_big);
    if (too_big) e = parse(text, c, true, too_big);  // see tame_numbers
    return e == DecodeError::ok ? c.finish(out) : e;
  }

  // One in-situ parse of a copy of text (tamed: with tame_numbers applied):
  // syntax, trailing or ok (the fields' outcome is then the Collector's).
  DecodeError parse(std::string_view text, Collector& c, bool tamed, bool& too_big) {
    if (copy.size() < text.size() + 1 + 16) copy.resize(text.size() + 1 + 16);
    if (!text.empty()) std::memcpy(copy.data(), text.data(), text.size());  // data() may be null
    copy[text.size()] = '\0';                                               // the end for InsituStringStream
    if (tamed) tame_numbers(copy.data(), text.size());
    c.reset();
    rj::InsituStringStream is(copy.data());
    // Double() classifies a literal in `text`: tame_numbers keeps its offset
    // and its class, so the untamed text serves for both parses.
    Handler h(c, &is.src_, copy.data(), text);
    const rj::ParseResult r = reader.Parse<kParseFlags>(is, h);
    too_big = r.Code() == rj::kParseErrorNumberTooBig;
    if (r.IsError()) return DecodeError::syntax;
    std::size_t pos = is.Tell();  // the end of the root value
    if (has_lone_low_surrogate(text.substr(0, pos))) return DecodeError::syntax;
    // What follows the root: read in the copy (in-situ parsing only rewrites
    // strings, all before pos), which may be tamed.
    while (pos < text.size() && is_space(copy[pos])) ++pos;
    return pos == text.size() ? DecodeError::ok : DecodeError::trailing;
  }

  Bytes encode_request(const Request& r) {
    rj::StringBuffer& out = request_out;
    rj::Writer<rj::StringBuffer>& w = writer;
    out.Clear();
    w.Reset(out);
    char account[2 + 2 * kAccountBytes];
    hex::write(account, r.account);
    w.StartObject();
    key(w, "method");
    w.String(r.method.data(), static_cast<rj::SizeType>(r.method.size()));
    key(w, "account");
    w.String(account, static_cast<rj::SizeType>(sizeof account));
    key(w, "block");
    w.Uint64(r.block);
    key(w, "id");
    w.Uint64(r.id);
    w.EndObject();
    return view(out);
  }

  Bytes encode_response(const Response& r) {
    rj::StringBuffer& out = response_out;
    rj::Writer<rj::StringBuffer>& w = writer;
    out.Clear();
    w.Reset(out);
    char hash[2 + 2 * kHashBytes];
    hex::write(hash, r.block_hash);
    w.StartObject();
    key(w, "id");
    w.Uint64(r.id);
    key(w, "balance");
    w.Uint64(r.balance);
    key(w, "nonce");
    w.Uint64(r.nonce);
    key(w, "blockHash");
    w.String(hash, static_cast<rj::SizeType>(sizeof hash));
    w.EndObject();
    return view(out);
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode(in, request, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode(in, response, out); }

  // ---- eth_getLogs ---------------------------------------------------------------
  // The same Reader, in situ on the same reused copy, with a logs_sax
  // collector. AccessOne stops the parse after log k (the handler returns
  // false), the copy being of the whole input. Measured at N = 1000 (g++ 12
  // -O3, callgrind instructions per op):
  //   AccessOne: in situ, stopped after log 500 (this)          8.5 M
  //              over a rapidjson::MemoryStream (no copy; the
  //              reader copies each string to its stack)         14.5 M
  //              DOM: Document::ParseInsitu (reused
  //              MemoryPoolAllocator), doc[500]["logIndex"]      10.9 M
  logs_sax::AnswerCollector answer;
  logs_sax::RequestCollector logs_request;
  rj::StringBuffer logs_request_out;
  rj::StringBuffer logs_out;
  std::vector<char> data_text = std::vector<char>(2 + 2 * kMaxLogDataBytes);  // a log's data as hex

  // One in-situ parse of text into c (on the reused copy, as the first
  // record; tamed on the rare second parse, see tame_numbers): syntax,
  // trailing or ok; a stop after log k is ok. start() starts c afresh before
  // each parse.
  template <class C, class Start>
  DecodeError parse_logs(std::string_view text, C& c, Start&& start) {
    bool too_big = false;
    start();
    DecodeError e = parse_logs_in_situ(text, c, false, too_big);
    if (too_big) {
      start();
      e = parse_logs_in_situ(text, c, true, too_big);
    }
    return e;
  }

  template <class C>
  DecodeError parse_logs_in_situ(std::string_view text, C& c, bool tamed, bool& too_big) {
    if (copy.size() < text.size() + 1 + 16) copy.resize(text.size() + 1 + 16);
    if (!text.empty()) std::memcpy(copy.data(), text.data(), text.size());
    copy[text.size()] = '\0';
    if (tamed) tame_numbers(copy.data(), text.size());
    rj::InsituStringStream is(copy.data());
    LogsHandler<C> h(c);
    const rj::ParseResult r = reader.Parse<kParseFlags>(is, h);
    too_big = r.Code() == rj::kParseErrorNumberTooBig;
    const bool stop = r.Code() == rj::kParseErrorTermination && stopped(c);
    if (r.IsError() && !stop) return DecodeError::syntax;
    std::size_t pos = is.Tell();
    if (has_lone_low_surrogate(text.substr(0, pos))) return DecodeError::syntax;
    if (stop) return DecodeError::ok;  // nothing after log k is read
    while (pos < text.size() && is_space(copy[pos])) ++pos;
    return pos == text.size() ? DecodeError::ok : DecodeError::trailing;
  }

  static std::string_view text_of(Bytes in) noexcept {
    return {reinterpret_cast<const char*>(in.data()), in.size()};
  }

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) {
    const DecodeError e = parse_logs(text_of(in), logs_request, [this] { logs_request.start(); });
    return e == DecodeError::ok ? logs_request.finish(out) : e;
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& d) {
    const LogsDigest given = d;  // a second (tamed) parse folds from the same start
    const DecodeError e = parse_logs(text_of(in), answer, [&] { answer.start_decode_all(d = given); });
    return e == DecodeError::ok ? answer.finish() : e;
  }

  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    LogPick pick;
    DecodeError e = parse_logs(text_of(in), answer, [&] { answer.start_access_one(k, pick); });
    if (e == DecodeError::ok) e = answer.finish();
    if (e == DecodeError::ok) out = pick;
    return e;
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) {
    DecodeError e = parse_logs(text_of(in), answer, [this] { answer.start_scan(); });
    if (e == DecodeError::ok) e = answer.finish();
    if (e != DecodeError::ok) return e;
    out.count += answer.count();
    out.block_sum += answer.block_sum();
    return DecodeError::ok;
  }

  Bytes encode_logs_request(const LogsRequest& r) {
    rj::StringBuffer& out = logs_request_out;
    rj::Writer<rj::StringBuffer>& w = writer;
    out.Clear();
    w.Reset(out);
    char text[2 + 2 * kAccountBytes];
    w.StartObject();
    key(w, "fromBlock");
    string(w, text, hex::write_quantity(text, r.from_block));
    key(w, "toBlock");
    string(w, text, hex::write_quantity(text, r.to_block));
    key(w, "address");
    string(w, text, hex::encode(text, r.address));
    key(w, "limit");
    string(w, text, hex::write_quantity(text, r.limit));
    w.EndObject();
    return view(out);
  }

  // Writer over the reused StringBuffer, each hex string formed in a local
  // buffer (the data's in a reused one) and handed to Writer::String.
  Bytes encode_logs(std::span<const Log> logs) {
    rj::StringBuffer& out = logs_out;
    rj::Writer<rj::StringBuffer>& w = writer;
    out.Clear();
    w.Reset(out);
    char text[2 + 2 * kHashBytes];
    w.StartArray();
    for (const Log& l : logs) {
      w.StartObject();
      key(w, "address");
      string(w, text, hex::encode(text, l.address));
      key(w, "topics");
      w.StartArray();
      for (std::size_t t = 0; t < l.topic_count(); ++t)
        string(w, text, hex::encode(text, l.topics.subspan(t * kTopicBytes, kTopicBytes)));
      w.EndArray();
      key(w, "data");
      if (data_text.size() < 2 + 2 * l.data.size()) data_text.resize(2 + 2 * l.data.size());
      string(w, data_text.data(), hex::encode(data_text.data(), l.data));
      key(w, "blockNumber");
      string(w, text, hex::write_quantity(text, l.block_number));
      key(w, "transactionHash");
      string(w, text, hex::encode(text, l.tx_hash));
      key(w, "transactionIndex");
      string(w, text, hex::write_quantity(text, l.tx_index));
      key(w, "logIndex");
      string(w, text, hex::write_quantity(text, l.log_index));
      key(w, "removed");
      w.Bool(l.removed);
      w.EndObject();
    }
    w.EndArray();
    return view(out);
  }
};

template class LibraryCodec<Rapidjson>;

}  // namespace record
