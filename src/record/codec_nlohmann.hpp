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
//
// The eth_getLogs record (record/logs_json.hpp): sax_parse (strict) with a logs_sax collector
// (record/logs_sax.hpp) that decodes every hex digit it keeps. DecodeAll reads every field of every log;
// AccessOne parses (validates) logs 0..k-1 without keeping anything, reads log k's logIndex and
// transactionHash and stops the parse there (the handler returns false); ScanField parses every value and
// decodes only blockNumber. Encoding: an ordered_json array of one object per log, built once and grown
// to the largest answer, values overwritten in place, dump(). The library allocates on every call, as
// for the first record: a decode 12 (N = 1) to 18 (N >= 1 000) times (sax_parse's parser, lexer and
// token buffer growing to the longest string), an encode 7 (N = 1) to 20 (N = 10 000) times (dump()'s new
// string growing to the answer, its output adapter).
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
