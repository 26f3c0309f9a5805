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
//
// The eth_getLogs record (record/logs_json.hpp): a parser of its own, the same On-Demand pass over the
// answer's array, a log's keys compared raw. A plain hex string is read in place from its raw token
// (stage 1 has validated every string and the UTF-8 of the whole input; the hex decoders accept digits
// only) and then stepped over with get_raw_json_string: ~15% faster than get_string's copy; escaped or
// faulty strings take get_string. DecodeAll reads every field and walks unknown members for
// well-formedness as above. AccessOne leaves logs 0..k-1 to On-Demand's skip (brackets balanced over
// stage 1's index: their scalars are not checked), reads log k's logIndex and transactionHash and stops.
// ScanField reads each log's blockNumber and leaves its other members to the same skip. Content after a
// root container that does not end in a bracket is syntax, not trailing (simdjson reports it as it reports
// truncation). Encoding: record::JsonWriter. No allocation in steady state.
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
