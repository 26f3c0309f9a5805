// record/codec_simdjson.hpp — the `simdjson` codec: the record as JSON through simdjson 3.0.1 (Debian
// libsimdjson-dev). Declares Simdjson, what LibraryCodec needs to know of it; its State (On-Demand
// decoding) and the library stay in codec_simdjson.cpp. Encoding is record::JsonWriter, inline, since
// simdjson 3.0.1 has no serializer.
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

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Simdjson : LibraryDefaults {
  static constexpr std::string_view kName = "simdjson";
  static constexpr std::string_view kEncodePath = "record::JsonWriter (simdjson 3.0.1 has no serializer)";
  static constexpr std::string_view kDecodePath =
      "ondemand::parser (reused) iterate on the padded input in place; one pass over the object's fields, "
      "raw key compare, get_uint64 / get_string";
  static constexpr bool kDecodeNoexcept = true;
  static constexpr bool kEncodesWithJsonWriter = true;  // simdjson 3.0.1 has no serializer
  static constexpr bool kHasLogs = true;
  static constexpr std::string_view kLogsPath =
      "On-Demand over the answer's array; AccessOne: On-Demand skips logs 0..k-1 and stops after log k; "
      "ScanField: each log's fields but blockNumber skipped by On-Demand";
  struct State;  // codec_simdjson.cpp
};

using SimdjsonCodec = LibraryCodec<Simdjson>;
extern template class LibraryCodec<Simdjson>;

}  // namespace record
