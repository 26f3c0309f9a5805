// record/codec_rapidjson.cpp — RapidjsonCodec: the record handler behind
// rapidjson::Reader (field tracking, skipping unknown keys, the fairness
// contract's errors) and the rapidjson::Writer encoders. See the header for why.
#include "record/codec_rapidjson.hpp"

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
#include <string>
#include <string_view>
#include <vector>

namespace record {
namespace {

namespace rj = rapidjson;

// ---- the record's fields, independent of the library -------------------------
// (kept identical in codec_rapidjson.cpp and codec_nlohmann.cpp)

enum class Kind : std::uint8_t { number, text, hex };
struct FieldSpec {
  std::string_view key;
  Kind kind;
  std::size_t hex_bytes;  // for Kind::hex
};

// In Go's field order; the indices are the Collector's slots.
constexpr FieldSpec kRequestFields[4] = {{"method", Kind::text, 0},
                                         {"account", Kind::hex, kAccountBytes},
                                         {"block", Kind::number, 0},
                                         {"id", Kind::number, 0}};
constexpr FieldSpec kResponseFields[4] = {{"id", Kind::number, 0},
                                          {"balance", Kind::number, 0},
                                          {"nonce", Kind::number, 0},
                                          {"blockHash", Kind::hex, kHashBytes}};

constexpr bool is_number_char(char c) noexcept {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// A number the library could not hand over as a u64: an integer past 2^64-1
// (integer_overflow), or a negative, a fraction or an exponent (wrong_type).
DecodeError classify_number(std::string_view literal) noexcept {
  if (literal.empty() || literal[0] == '-') return DecodeError::wrong_type;
  return literal.find_first_of(".eE") == std::string_view::npos ? DecodeError::integer_overflow
                                                                : DecodeError::wrong_type;
}

// Whether s is exactly one JSON number (RFC 8259 grammar).
constexpr bool is_json_number(std::string_view s) noexcept {
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > from;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0')
    ++i;
  else if (!digits())
    return false;
  if (i < s.size() && s[i] == '.' && (++i, !digits())) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == s.size();
}

// Both libraries refuse a well-formed number past a double's range (1e400, or
// an integer of 310 digits: RapidJSON's kParseErrorNumberTooBig, nlohmann's
// error 406), which the contract says is skipped under an unknown key and is
// wrong_type or integer_overflow under a known one. On that error path only,
// the codec rewrites in a copy of the input, outside strings, every number
// literal that could be one into a small one of the same class — "0.5" for a
// negative, fraction or exponent, 2^64 for an integer of more than 20 digits
// — padded with spaces, and parses once more. A token stays a token of the
// same kind, so well-formedness and every field's outcome are unchanged.
void tame_numbers(char* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n) {
    if (p[i] == '"') {  // a string: skip to its closing quote
      for (++i; i < n && p[i] != '"'; ++i)
        if (p[i] == '\\') ++i;
      ++i;
      continue;
    }
    if (p[i] != '-' && !(p[i] >= '0' && p[i] <= '9')) {
      ++i;
      continue;
    }
    std::size_t e = i;
    while (e < n && is_number_char(p[e])) ++e;
    const std::string_view literal(p + i, e - i);
    std::string_view small;
    if (is_json_number(literal)) {
      if (literal.find_first_of("-.eE") != std::string_view::npos)
        small = literal.size() >= 3 ? "0.5" : "";
      else if (literal.size() > 20)
        small = "18446744073709551616";
    }
    if (!small.empty()) {
      std::memcpy(p + i, small.data(), small.size());
      std::memset(p + i + small.size(), ' ', literal.size() - small.size());
    }
    i = e;
  }
}

// Follows the SAX events of one document and keeps the record's four fields:
// only keys of the root object count (depth 1), values of unknown keys are
// skipped however deeply nested, a known key twice is duplicate_field. The
// first error wins, but parsing goes on, so a malformed document is `syntax`
// whatever else is wrong with it. Every event returns whether the parse goes
// on: always, but past kMaxDepth.
class Collector {
 public:
  // Deeper nesting is refused, as syntax: RapidJSON's reader recurses per
  // level (unbounded, an input could overflow the stack), the direct codec
  // and simdjson refuse the same depth, and both the rapidjson and nlohmann
  // codecs apply it.
  static constexpr int kMaxDepth = 1024;

  explicit Collector(const FieldSpec (&specs)[4]) : specs_(specs) {
    for (std::string& s : scratch_) s.reserve(128);
  }

  void reset() noexcept {
    depth_ = 0;
    pending_ = -1;
    seen_ = 0;
    err_ = DecodeError::ok;
    done_ = false;
  }

  // Whether the root value is complete (what follows it is trailing).
  bool done() const noexcept { return done_; }

  bool key(std::string_view k) noexcept {
    if (depth_ != 1) return true;
    pending_ = -1;
    for (int i = 0; i < 4; ++i) {
      if (specs_[i].key != k) continue;
      const auto bit = static_cast<std::uint8_t>(1u << i);
      if (seen_ & bit) return fail(DecodeError::duplicate_field);
      seen_ |= bit;
      pending_ = i;
      break;
    }
    return true;
  }

  // A non-negative integer that fits in u64.
  bool number(std::uint64_t v) noexcept {
    const int f = take();
    if (f < 0) return true;
    if (specs_[f].kind != Kind::number) return fail(DecodeError::wrong_type);
    num_[f] = v;
    return true;
  }

  // Any other number, already classified (wrong_type or integer_overflow).
  bool bad_number(DecodeError e) noexcept {
    const int f = take();
    if (f < 0) return true;
    return fail(specs_[f].kind == Kind::number ? e : DecodeError::wrong_type);
  }

  // A string value; `stable` when s outlives this decode (else it is copied).
  bool text(std::string_view s, bool stable) {
    const int f = take();
    if (f < 0) return true;
    const FieldSpec& spec = specs_[f];
    if (spec.kind == Kind::number) return fail(DecodeError::wrong_type);
    if (spec.kind == Kind::hex) {
      const DecodeError e = hex::check(s, spec.hex_bytes, first_);
      if (e != DecodeError::ok) return fail(e);
    }
    if (!stable) s = scratch_[f].assign(s);
    str_[f] = s;
    return true;
  }

  // null, true, false.
  bool other() noexcept { return take() < 0 || fail(DecodeError::wrong_type); }

  bool open_object() noexcept {
    if (depth_ != 0) container();
    return ++depth_ <= kMaxDepth;
  }
  bool open_array() noexcept {
    if (depth_ == 0)
      fail(DecodeError::wrong_type);  // the root is not an object
    else
      container();
    return ++depth_ <= kMaxDepth;
  }
  bool close() noexcept {
    done_ = --depth_ == 0;
    return true;
  }

  DecodeError finish(RequestView& out) const noexcept {
    if (const DecodeError e = result(); e != DecodeError::ok) return e;
    out.method = str_[0];
    out.account = str_[1];
    out.account0 = first_;
    out.account_form = Form::hex;
    out.block = num_[2];
    out.id = num_[3];
    return DecodeError::ok;
  }
  DecodeError finish(ResponseView& out) const noexcept {
    if (const DecodeError e = result(); e != DecodeError::ok) return e;
    out.id = num_[0];
    out.balance = num_[1];
    out.nonce = num_[2];
    out.block_hash = str_[3];
    out.block_hash_form = Form::hex;
    return DecodeError::ok;
  }

 private:
  // The known field this value belongs to, or -1 (nested, unknown key, root).
  int take() noexcept {
    if (depth_ == 0) {
      fail(DecodeError::wrong_type);  // a scalar root
      done_ = true;
      return -1;
    }
    if (depth_ != 1) return -1;
    const int f = pending_;
    pending_ = -1;
    return f;
  }
  // An object or array as a value (not the root).
  void container() noexcept {
    if (take() >= 0) fail(DecodeError::wrong_type);
  }
  // Records the first error; the parse goes on (true).
  bool fail(DecodeError e) noexcept {
    if (err_ == DecodeError::ok) err_ = e;
    return true;
  }
  DecodeError result() const noexcept {
    if (err_ != DecodeError::ok) return err_;
    return seen_ == 0xF ? DecodeError::ok : DecodeError::missing_field;
  }

  const FieldSpec (&specs_)[4];
  int depth_ = 0;
  int pending_ = -1;
  std::uint8_t seen_ = 0;
  std::uint8_t first_ = 0;
  DecodeError err_ = DecodeError::ok;
  bool done_ = false;
  std::uint64_t num_[4] = {};
  std::string_view str_[4];
  std::string scratch_[4];  // string values the library does not keep stable
};

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
struct RapidjsonCodec::Impl {
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
};

RapidjsonCodec::RapidjsonCodec() : impl_(std::make_unique<Impl>()) {}
RapidjsonCodec::~RapidjsonCodec() = default;
RapidjsonCodec::RapidjsonCodec(RapidjsonCodec&&) noexcept = default;
RapidjsonCodec& RapidjsonCodec::operator=(RapidjsonCodec&&) noexcept = default;

Bytes RapidjsonCodec::encode_request(const Request& r) {
  rj::StringBuffer& out = impl_->request_out;
  rj::Writer<rj::StringBuffer>& w = impl_->writer;
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

Bytes RapidjsonCodec::encode_response(const Response& r) {
  rj::StringBuffer& out = impl_->response_out;
  rj::Writer<rj::StringBuffer>& w = impl_->writer;
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

DecodeError RapidjsonCodec::decode_request(Bytes in, RequestView& out) {
  return impl_->decode(in, impl_->request, out);
}

DecodeError RapidjsonCodec::decode_response(Bytes in, ResponseView& out) {
  return impl_->decode(in, impl_->response, out);
}

}  // namespace record
