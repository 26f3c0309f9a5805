// record/codec_nlohmann.hpp — the `nlohmann` codec: the record as JSON through
// nlohmann/json 3.11.2 (Debian nlohmann-json3-dev). Owns its SAX handler state,
// the encoders' documents and output buffers; the library's header stays in
// codec_nlohmann.cpp (pimpl).
//
// Why this is nlohmann's fast path for a known, flat record: the DOM
// (json::parse) allocates a node per value and a map per object, while
// json::sax_parse with a handler that keeps the four fields (and skips the
// rest) is the library's own event API, the least work it offers; strict mode
// rejects trailing bytes and comments, and the parser reports every error
// through the handler's parse_error (no exceptions). nlohmann has no streaming
// writer, so encoding serializes a json value: an ordered_json (to keep Go's
// key order) per direction, built once, whose values are overwritten in place,
// then dump(). The measured alternatives are in codec_nlohmann.cpp.
#pragma once

#include <memory>
#include <string_view>

#include "record/record.hpp"

namespace record {

class NlohmannCodec {
 public:
  static constexpr std::string_view kName = "nlohmann";
  static constexpr std::string_view kContentType = "application/json";
  static constexpr std::string_view kEncodePath =
      "nlohmann::ordered_json per direction, values overwritten in place, dump()";
  static constexpr std::string_view kDecodePath =
      "nlohmann::json::sax_parse (strict) with a record handler; kept strings copied to reused scratch";

  NlohmannCodec();
  ~NlohmannCodec();
  NlohmannCodec(NlohmannCodec&&) noexcept;
  NlohmannCodec& operator=(NlohmannCodec&&) noexcept;

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
