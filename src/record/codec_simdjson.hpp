// record/codec_simdjson.hpp — the record as JSON through simdjson 3.0.1: owns the SimdjsonCodec class
// (On-Demand decoding; encoding through record::JsonWriter, since simdjson 3.0.1 has no serializer).
// The library itself stays inside codec_simdjson.cpp.
//
// Why this is simdjson's fast path: On-Demand is simdjson's fastest API for a known schema. A reused
// ondemand::parser (one per direction) keeps its structural-index and string buffers, so steady state
// allocates nothing; the input already carries SIMDJSON_PADDING (= kInputPaddingBytes) readable bytes, so
// it is iterated in place as a padded_string_view, never copied. The object's fields are visited once, in
// wire order, with no DOM: keys are compared raw (no unescaping; measured a little faster than
// unescaped_key) against the four known names, numbers go through get_uint64 and strings through
// get_string. Only unusual input leaves that path: escaped or unknown keys are unescaped, and unknown
// values and failed fields are walked once more to check that they are well-formed (On-Demand's own skip
// only balances brackets).
#pragma once

#include <memory>
#include <string_view>

#include "record/json_writer.hpp"
#include "record/record.hpp"

namespace record {

class SimdjsonCodec {
 public:
  static constexpr std::string_view kName = "simdjson";
  static constexpr std::string_view kContentType = "application/json";
  static constexpr std::string_view kEncodePath = "record::JsonWriter (simdjson 3.0.1 has no serializer)";
  static constexpr std::string_view kDecodePath =
      "ondemand::parser (reused) iterate on the padded input in place; one pass over the object's fields, "
      "raw key compare, get_uint64 / get_string";

  SimdjsonCodec();
  ~SimdjsonCodec();
  SimdjsonCodec(SimdjsonCodec&&) noexcept;
  SimdjsonCodec& operator=(SimdjsonCodec&&) noexcept;

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r) { return req_writer_.request(r); }
  Bytes encode_response(const Response& r) { return resp_writer_.response(r); }

  // `in` must be followed by kInputPaddingBytes readable bytes. The views point
  // into the direction's parser's string buffer: valid until the next decode
  // on this object (in fact until the next decode of the same direction).
  DecodeError decode_request(Bytes in, RequestView& out) noexcept;
  DecodeError decode_response(Bytes in, ResponseView& out) noexcept;

 private:
  struct Impl;  // an ondemand::parser per direction (keeps simdjson.h out of this header)
  std::unique_ptr<Impl> impl_;
  JsonWriter req_writer_;
  JsonWriter resp_writer_;
};

}  // namespace record
