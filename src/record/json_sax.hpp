// record/json_sax.hpp — the record's fields as seen by a SAX-style JSON parser:
// which keys exist, field tracking (missing, duplicate, wrong type, overflow,
// hex checks), skipping unknown values and the nesting limit, independent of
// the library. Shared by the nlohmann and RapidJSON codecs, whose handlers only
// translate their library's events into Collector calls.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "record/record.hpp"

namespace record::json_sax {

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
inline DecodeError classify_number(std::string_view literal) noexcept {
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
inline void tame_numbers(char* p, std::size_t n) noexcept {
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

}  // namespace record::json_sax
