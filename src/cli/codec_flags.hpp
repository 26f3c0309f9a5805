// cli/codec_flags.hpp — flags that name a codec (serve --json CODEC, load
// --body CODEC): their checks against the codec registry and the one place the
// command line turns "no codec given" or "json" into record::default_json_codec().
// Owns no codec: the registry (src/record) lists them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cli/flags.hpp"
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

// Why `name` is not an available JSON codec, for a flag's error.
inline std::string json_codec_refusal(std::string_view name) {
  const record::CodecInfo* c = record::find_codec(name);
  if (c == nullptr) return "unknown codec";
  if (!c->available) return "unavailable in this build (" + std::string(c->unavailable_reason) + ")";
  return "not a JSON codec";
}

// --json CODEC (serve): an available JSON codec.
inline flags::Check json_codec_check() {
  return [](std::string_view v) -> std::optional<flags::Problem> {
    if (available_json_codec(v) != nullptr) return std::nullopt;
    return flags::Problem{"a JSON codec (available JSON codecs: " + record::available_codec_names(true) + ")",
                          json_codec_refusal(v)};
  };
}

// --body CODEC (load): zap, json (the default JSON codec) or an available JSON codec.
inline flags::Check body_codec_check() {
  return [](std::string_view v) -> std::optional<flags::Problem> {
    if (v == "zap" || v == "json" || available_json_codec(v) != nullptr) return std::nullopt;
    return flags::Problem{
        "zap, json (the default JSON codec, " + std::string(record::default_json_codec().name) +
            ") or a JSON codec (available JSON codecs: " + record::available_codec_names(true) + ")",
        json_codec_refusal(v)};
  };
}

}  // namespace cli
