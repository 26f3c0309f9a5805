// record/codec_nlohmann.hpp — the `nlohmann` codec: the record as JSON through
// nlohmann/json 3.11.2 (Debian nlohmann-json3-dev). Declares Nlohmann, what
// LibraryCodec needs to know of it; its State (SAX handler state, the
// encoders' documents and output buffers) and the library's header stay in
// codec_nlohmann.cpp.
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

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Nlohmann : LibraryDefaults {
  static constexpr std::string_view kName = "nlohmann";
  static constexpr std::string_view kEncodePath =
      "nlohmann::ordered_json per direction, values overwritten in place, dump()";
  static constexpr std::string_view kDecodePath =
      "nlohmann::json::sax_parse (strict) with a record handler; kept strings copied to reused scratch";
  static constexpr bool kHasLogs = true;
  static constexpr std::string_view kLogsPath =
      "nlohmann::json::sax_parse (strict); AccessOne: logs 0..k-1 parsed and validated, the parse stopped "
      "after log k; ScanField: every value parsed, blockNumber decoded";
  struct State;  // codec_nlohmann.cpp
};

using NlohmannCodec = LibraryCodec<Nlohmann>;
extern template class LibraryCodec<Nlohmann>;

}  // namespace record
