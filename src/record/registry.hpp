// record/registry.hpp — every codec by name, available or not (with the
// reason), behind one runtime interface for code that picks a codec from a
// flag or a Content-Type (server, load generator, `zapbench codecs`, run's
// results.json). The codecs and their order are codecs.table's.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "matrix/matrix.hpp"
#include "record/logs.hpp"
#include "record/record.hpp"

namespace record {

// The runtime face of a codec: one virtual call per operation, which is noise
// next to a request's syscalls. Benchmarks use the concrete types instead.
class AnyCodec {
 public:
  virtual ~AnyCodec() = default;
  virtual Bytes encode_request(const Request& r) = 0;
  virtual Bytes encode_response(const Response& r) = 0;
  virtual DecodeError decode_request(Bytes in, RequestView& out) = 0;
  virtual DecodeError decode_response(Bytes in, ResponseView& out) = 0;

  // The eth_getLogs record (record/logs.hpp), for the codecs that have it
  // (CodecInfo::has_logs): what the server's POST /logs and the loader's logs
  // scenario need. On a codec without it, the encoders return an empty view
  // and the decoders DecodeError::missing_field; callers check has_logs first.
  virtual Bytes encode_logs_request(const LogsRequest& r) = 0;
  virtual DecodeError decode_logs_request(Bytes in, LogsRequest& out) = 0;
  virtual Bytes encode_logs(std::span<const Log> logs) = 0;
  virtual DecodeError logs_decode_all(Bytes in, LogsDigest& out) = 0;
};

struct CodecInfo {
  std::string_view name;
  std::string_view content_type;
  bool available = false;
  std::string_view unavailable_reason;  // empty when available
  std::string_view encode_path;         // what encode does, for reports
  std::string_view decode_path;
  std::unique_ptr<AnyCodec> (*make)() = nullptr;  // null when unavailable
  // The Debian package of the codec's library (codecs.table), whether or not
  // it is installed: what scripts/deps.sh installs and results.json records.
  // Empty for a codec built from this repository alone (zap, direct).
  std::string_view debian_package;
  // Its decoder is for trusted input only (library_codec.hpp): never served,
  // never the loader's reader of a server's bytes.
  bool trusted_input_only = false;
  int rank = 0;  // codecs.table's rank: fastest first within its family; 0: never chosen by rank
  // Its class implements the logs record (record::LogsCodec): it can answer
  // POST /logs and carry the loader's logs scenario.
  bool has_logs = false;

  // ZAP, JSON or a binary peer, by its content type (the matrix's one rule).
  matrix::Family family() const noexcept { return matrix::family_of(content_type); }
};

// Every codec zapbench knows, available or not, in report order (the rows of
// codecs.table): zap first, then direct, then the JSON libraries.
std::span<const CodecInfo> all_codecs();

// By name; nullptr for an unknown name.
const CodecInfo* find_codec(std::string_view name);

// The JSON codec the server and loader use by default: the available codec of
// lowest rank in codecs.table (fastest first, as measured).
const CodecInfo& default_json_codec();

// The binary peer `zapbench run --quick` adds: the available, untrusted-input
// peer of lowest rank in codecs.table (fastest first, as measured); nullptr
// when the build has none.
const CodecInfo* fastest_binary_peer();

// "a, b, c": the available codecs' names, for error messages.
std::string available_codec_names(bool json_only);

// Why `c` cannot carry the logs scenario (serve it, or read a server's logs
// answers): "" when it can; else a sentence naming the codec (unavailable,
// for trusted input only, or no logs record).
std::string logs_refusal(const CodecInfo& c);

}  // namespace record
