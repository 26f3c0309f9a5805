// cli/codec_flags.hpp — flags that name a codec (serve --json CODEC and
// --codec CODEC, load --body CODEC): their checks against the codec registry and the one place the
// command line turns "no codec given" or "json" into record::default_json_codec().
// Owns no codec: the registry (src/record) lists them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "flags/flags.hpp"
#include "record/registry.hpp"

namespace cli {

// nullptr unless `name` is an available JSON codec.
inline const record::CodecInfo* available_json_codec(std::string_view name) {
  const record::CodecInfo* c = record::find_codec(name);
  return c != nullptr && c->available && c->content_type == "application/json" ? c : nullptr;
}

// The JSON codec a command uses: the named one, or the default when `name` is
// empty or "json". Call after the flag's check has accepted the name.
inline const record::CodecInfo& json_codec_or_default(std::string_view name) {
  if (name.empty() || name == "json") return record::default_json_codec();
  return *available_json_codec(name);
}

// Why `name` is not the codec a flag wants, for its error: unknown,
// unavailable (with the reason), or `otherwise` (what the flag refuses in an
// available codec).
inline std::string codec_refusal(std::string_view name, std::string_view otherwise) {
  const record::CodecInfo* c = record::find_codec(name);
  if (c == nullptr) return "unknown codec";
  if (!c->available) return "unavailable in this build (" + std::string(c->unavailable_reason) + ")";
  return std::string(otherwise);
}
inline std::string json_codec_refusal(std::string_view name) {
  return codec_refusal(name, "not a JSON codec");
}

// --json CODEC (serve): an available JSON codec.
inline flags::Check json_codec_check() {
  return [](std::string_view v) -> std::optional<flags::Problem> {
    if (available_json_codec(v) != nullptr) return std::nullopt;
    return flags::Problem{"a JSON codec (available JSON codecs: " + record::available_codec_names(true) + ")",
                          json_codec_refusal(v)};
  };
}

// nullptr unless `name` is an available codec that may read bytes from the
// other side of a connection (not one for trusted input only).
inline const record::CodecInfo* available_wire_codec(std::string_view name) {
  const record::CodecInfo* c = record::find_codec(name);
  return c != nullptr && c->available && !c->trusted_input_only ? c : nullptr;
}

inline std::string wire_codec_refusal(std::string_view name) {
  return codec_refusal(
      name, "its decoder is for trusted input only (it does not verify), so it never reads a peer's bytes");
}

// "zap, direct, ..., protobuf, ...": the codecs a connection may carry.
inline std::string wire_codec_names() {
  std::string out;
  for (const record::CodecInfo& c : record::all_codecs()) {
    if (!c.available || c.trusted_input_only) continue;
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

// "zap, ...": the codecs with the logs record (load --scenario logs).
inline std::string logs_codec_names() {
  std::string out;
  for (const record::CodecInfo& c : record::all_codecs()) {
    if (!record::logs_refusal(c).empty()) continue;
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

// The codec of --body: the named one, or the default JSON codec when `name`
// is empty or "json". Call after body_codec_check() accepted the name.
inline const record::CodecInfo& body_codec_or_default(std::string_view name) {
  if (name.empty() || name == "json") return record::default_json_codec();
  return *available_wire_codec(name);
}

// --body CODEC (load): json (the default JSON codec) or any codec a connection may carry: zap, a JSON
// codec, a binary peer.
inline flags::Check body_codec_check() {
  return [](std::string_view v) -> std::optional<flags::Problem> {
    if (v == "json" || available_wire_codec(v) != nullptr) return std::nullopt;
    return flags::Problem{"json (the default JSON codec, " + std::string(record::default_json_codec().name) +
                              ") or a codec by name (available: " + wire_codec_names() + ")",
                          wire_codec_refusal(v)};
  };
}

// --codec CODEC (serve): a JSON codec or a binary peer, to answer its content type with.
inline flags::Check served_codec_check() {
  return [](std::string_view v) -> std::optional<flags::Problem> {
    const record::CodecInfo* c = available_wire_codec(v);
    if (c != nullptr && c->family() != matrix::Family::zap) return std::nullopt;
    return flags::Problem{"a JSON codec or a binary peer (available: " + wire_codec_names() + ")",
                          c != nullptr ? "ZAP is always served (application/zap)" : wire_codec_refusal(v)};
  };
}

}  // namespace cli
