// record/codec_rapidjson.hpp — the `rapidjson` codec: the record as JSON through
// RapidJSON 1.1.0 (Debian rapidjson-dev). Declares Rapidjson, what LibraryCodec
// needs to know of it; its State (reader, SAX handler, writer and buffers) and
// RapidJSON's headers stay in codec_rapidjson.cpp.
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
//
// The eth_getLogs record (record/logs_json.hpp): the same Reader in situ on the same reused copy, its
// events given to a logs_sax collector (record/logs_sax.hpp), which decodes every hex digit it keeps.
// DecodeAll reads every field of every log; AccessOne parses (and so validates) logs 0..k-1 without
// keeping anything, reads log k's logIndex and transactionHash, and stops the parse there (the handler
// returns false) — measured faster than the same over a MemoryStream without the copy, and than the DOM
// (codec_rapidjson.cpp); ScanField parses every value and decodes only blockNumber. Encoding:
// rapidjson::Writer on a reused StringBuffer, each hex string formed by record::hex::encode and written
// with Writer::String. No allocation in steady state.
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Rapidjson : LibraryDefaults {
  static constexpr std::string_view kName = "rapidjson";
  static constexpr std::string_view kEncodePath =
      "rapidjson::Writer<StringBuffer>, one StringBuffer per direction, Clear()ed and reused";
  static constexpr std::string_view kDecodePath =
      "rapidjson::Reader SAX (in situ on a reused copy, UTF-8 validated) with a record handler, reused";
  static constexpr bool kHasLogs = true;
  static constexpr std::string_view kLogsPath =
      "rapidjson::Reader SAX in situ; AccessOne: logs 0..k-1 parsed and validated, the parse stopped after "
      "log k; ScanField: every value parsed, blockNumber decoded";
  struct State;  // codec_rapidjson.cpp
};

using RapidjsonCodec = LibraryCodec<Rapidjson>;
extern template class LibraryCodec<Rapidjson>;

}  // namespace record
