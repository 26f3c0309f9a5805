// record/registry.hpp — every codec by name, available or not (with the
// reason), behind one runtime interface for code that picks a codec from a
// flag or a Content-Type (server, load generator, `zapbench codecs`).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>

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
};

struct CodecInfo {
  std::string_view name;
  std::string_view content_type;
  bool available = false;
  std::string_view unavailable_reason;  // empty when available
  std::string_view encode_path;         // what encode does, for reports
  std::string_view decode_path;
  std::unique_ptr<AnyCodec> (*make)() = nullptr;  // null when unavailable
};

// Every codec zapbench knows, available or not, in report order: zap first,
// then the JSON codecs.
std::span<const CodecInfo> all_codecs();

// By name; nullptr for an unknown name.
const CodecInfo* find_codec(std::string_view name);

// The JSON codec the server and loader use by default: the first available in
// a fixed order of measured speed (see registry.cpp).
const CodecInfo& default_json_codec();

// "a, b, c": the available codecs' names, for error messages.
std::string available_codec_names(bool json_only);

}  // namespace record
