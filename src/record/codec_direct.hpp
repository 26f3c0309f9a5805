// record/codec_direct.hpp — the `direct` codec: the record as JSON by hand-written,
// record-specific code (record::JsonWriter out, record::JsonReader in), standing in for the
// compile-time-reflection libraries (glaze, yyjson) Debian does not package: the upper bound of JSON.
//
// The eth_getLogs record (record/logs_json.hpp): JsonWriter's logs writers (hex by record::hex::encode,
// sixteen bytes a step) and JsonLogsReader (record/json_logs_reader.hpp), the same one validating pass
// over the answer's array, every hex digit decoded by record::hex::decode (SSE2) — fixed-size fields
// straight from the input, data and quantities after the string scan. DecodeAll reads every field of
// every log; AccessOne skips logs 0..k-1 with the validating skip (each checked as JSON, nothing decoded),
// reads log k's logIndex and transactionHash and stops there; ScanField decodes each log's blockNumber
// and skips (validates) its other values. No allocation in steady state.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "record/json_logs_reader.hpp"
#include "record/json_reader.hpp"
#include "record/json_writer.hpp"
#include "record/logs.hpp"
#include "record/record.hpp"

namespace record {

// Why this path: a reflection library generates, per struct, what is written
// here by hand — constant key fragments out, a key switch in — so this is what
// such a library costs at best while doing the full work every JSON codec
// does (grammar, UTF-8 and escape validation, the fairness.md error table).
class DirectCodec {
 public:
  static constexpr std::string_view kName = "direct";
  static constexpr std::string_view kContentType = "application/json";
  static constexpr std::string_view kEncodePath =
      "record::JsonWriter: constant key fragments, std::to_chars, table hex";
  static constexpr std::string_view kDecodePath =
      "record::JsonReader: one validating pass, SSE2/SWAR string scan, keys by length+memcmp, zero-copy "
      "views";

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r) { return req_out_.request(r); }
  Bytes encode_response(const Response& r) { return resp_out_.response(r); }

  // One reader per direction, so a decoded request's views (which may point
  // into the reader's scratch) survive decoding a response on the same codec.
  DecodeError decode_request(Bytes in, RequestView& out) noexcept { return req_in_.request(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) noexcept { return resp_in_.response(in, out); }

  // ---- eth_getLogs (record/logs_json.hpp) -------------------------------------
  // Logs/AccessOne: a validating skip to log k (each log before it checked as
  // JSON, not decoded), then log k's logIndex and transactionHash; nothing
  // after log k is read. Logs/ScanField: every log's blockNumber decoded, the
  // other values skipped (validated).
  static constexpr std::string_view kLogsPath =
      "record::JsonWriter / JsonLogsReader; AccessOne: validating skip to log k, stop after it; "
      "ScanField: blockNumber decoded, other values validated and skipped";

  Bytes encode_logs_request(const LogsRequest& r) { return logs_req_out_.logs_request(r); }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) noexcept {
    return logs_in_.logs_request(in, out);
  }
  Bytes encode_logs(std::span<const Log> logs) { return logs_out_.logs(logs); }
  DecodeError logs_decode_all(Bytes in, LogsDigest& d) noexcept { return logs_in_.decode_all(in, d); }
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) noexcept {
    return logs_in_.access_one(in, k, out);
  }
  DecodeError logs_scan(Bytes in, LogsScan& out) noexcept { return logs_in_.scan(in, out); }

 private:
  JsonWriter req_out_;
  JsonWriter resp_out_;
  JsonReader req_in_;
  JsonReader resp_in_;
  JsonWriter logs_req_out_;
  JsonWriter logs_out_;
  JsonLogsReader logs_in_;
};

}  // namespace record
