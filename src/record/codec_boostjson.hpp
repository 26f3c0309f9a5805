// record/codec_boostjson.hpp — the `boostjson` codec: the record as JSON through
// Boost.JSON 1.81 (Debian libboost-json1.81-dev). Declares Boostjson, what
// LibraryCodec needs to know of it; its State (SAX decoding with
// boost::json::basic_parser and a record handler; encoding with a reused
// boost::json::object and boost::json::serializer) stays in codec_boostjson.cpp.
//
// Why this is Boost.JSON's fast path: basic_parser with a custom handler is the
// library's lowest layer — boost::json::parser is itself basic_parser plus a
// handler that builds a DOM. Handing the events straight to the record skips
// the DOM and its value_stack: unescaped strings arrive as views into the
// input, escaped ones are gathered into this codec's reused scratch, and a
// duplicate key is seen (a DOM keeps only one of the two). Measured on the
// sample request: SAX ~45 ns/op against ~130 ns/op for boost::json::parser
// reused on a monotonic_resource plus object::if_contains (both 0 allocs/op).
// Encoding: the fastest public path measured is one boost::json::object per
// direction, built once and updated in place through pointers to its values
// (numbers assigned, strings assigned into their existing capacity), written
// by a reused boost::json::serializer into a reused buffer: ~60 ns/op, against
// ~125 ns/op for rebuilding the object on a released monotonic_resource and
// ~140 ns/op (1 alloc) for json::serialize. No allocation in steady state.
//
// The eth_getLogs record (record/logs_json.hpp): basic_parser again, its events given to a logs_sax
// collector (record/logs_sax.hpp) that decodes every hex digit it keeps — no DOM, as above. DecodeAll
// reads every field of every log; AccessOne parses (validates) logs 0..k-1 without keeping anything,
// reads log k's logIndex and transactionHash and stops the parse there (the handler returns false): a DOM
// would build all N logs to index one; ScanField parses every value and decodes only blockNumber.
// Encoding as above: a boost::json::array of one object per log (keys in geth's order), built once and
// grown to the largest answer, its values overwritten in place (strings keep their capacity), written by
// the reused serializer into a reused buffer. No allocation in steady state.
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Boostjson : LibraryDefaults {
  static constexpr std::string_view kName = "boostjson";
  static constexpr std::string_view kEncodePath =
      "boost::json::object (reused, updated in place) + boost::json::serializer into a reused buffer";
  static constexpr std::string_view kDecodePath =
      "boost::json::basic_parser (reused) with a record SAX handler: no DOM, views into the input";
  static constexpr bool kDecodeNoexcept = true;
  static constexpr bool kHasLogs = true;
  static constexpr std::string_view kLogsPath =
      "boost::json::basic_parser SAX; AccessOne: logs 0..k-1 parsed and validated, the parse stopped after "
      "log k; ScanField: every value parsed, blockNumber decoded";
  struct State;  // codec_boostjson.cpp
};

using BoostjsonCodec = LibraryCodec<Boostjson>;
extern template class LibraryCodec<Boostjson>;

}  // namespace record
