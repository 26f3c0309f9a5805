// record/codec_rapidjson.hpp — the `rapidjson` codec: the record as JSON through
// RapidJSON 1.1.0 (Debian rapidjson-dev). Owns its reader, SAX handler, writer
// and buffers; RapidJSON's headers stay in codec_rapidjson.cpp (pimpl).
//
// Why this is RapidJSON's fast path for a known, flat record: rapidjson::Reader
// is its SAX parser (the DOM, rapidjson::Document, is built on top of it), so a
// handler that keeps the four fields and skips everything else does the least
// work the library allows. It parses in situ (kParseInsituFlag, the mode the
// RapidJSON docs name as its fastest) on the codec's own copy of the input, so
// strings are unescaped in place and the views point into that copy: no string
// is copied a second time. kParseValidateEncodingFlag rejects invalid UTF-8 like
// the other libraries; kParseStopWhenDoneFlag lets the codec tell trailing bytes
// from malformed JSON. Reader, handler and copy buffer are reused, so a decode
// allocates nothing in steady state. Encoding is rapidjson::Writer over a
// rapidjson::StringBuffer per direction, Clear()ed and reused (no allocation in
// steady state). Measured alternatives are in codec_rapidjson.cpp.
#pragma once

#include <memory>
#include <string_view>

#include "record/record.hpp"

namespace record {

class RapidjsonCodec {
 public:
  static constexpr std::string_view kName = "rapidjson";
  static constexpr std::string_view kContentType = "application/json";
  static constexpr std::string_view kEncodePath =
      "rapidjson::Writer<StringBuffer>, one StringBuffer per direction, Clear()ed and reused";
  static constexpr std::string_view kDecodePath =
      "rapidjson::Reader SAX (in situ on a reused copy, UTF-8 validated) with a record handler, reused";

  RapidjsonCodec();
  ~RapidjsonCodec();
  RapidjsonCodec(RapidjsonCodec&&) noexcept;
  RapidjsonCodec& operator=(RapidjsonCodec&&) noexcept;

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r);
  Bytes encode_response(const Response& r);

  // Views are valid until the next decode on this object.
  DecodeError decode_request(Bytes in, RequestView& out);
  DecodeError decode_response(Bytes in, ResponseView& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace record
