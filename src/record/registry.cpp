// record/registry.cpp — the table behind registry.hpp.
#include "record/registry.hpp"

#include <array>

#include "record/codecs.hpp"

namespace record {
namespace {

template <class C>
class Adapter final : public AnyCodec {
 public:
  Bytes encode_request(const Request& r) override { return c_.encode_request(r); }
  Bytes encode_response(const Response& r) override { return c_.encode_response(r); }
  DecodeError decode_request(Bytes in, RequestView& out) override { return c_.decode_request(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) override { return c_.decode_response(in, out); }

 private:
  C c_;
};

template <class C>
CodecInfo available() {
  return CodecInfo{C::kName, C::kContentType, true, {}, C::kEncodePath, C::kDecodePath, [] {
                     return std::unique_ptr<AnyCodec>(new Adapter<C>());
                   }};
}

[[maybe_unused]] CodecInfo unavailable(std::string_view name, std::string_view reason) {
  return CodecInfo{name, "application/json", false, reason, {}, {}, nullptr};
}

const std::array<CodecInfo, 6>& table() {
  static const std::array<CodecInfo, 6> t = {
    available<ZapCodec>(),
    available<DirectCodec>(),
#if ZAPBENCH_HAVE_SIMDJSON
    available<SimdjsonCodec>(),
#else
    unavailable("simdjson", config::kSimdjsonReason),
#endif
#if ZAPBENCH_HAVE_RAPIDJSON
    available<RapidjsonCodec>(),
#else
    unavailable("rapidjson", config::kRapidjsonReason),
#endif
#if ZAPBENCH_HAVE_BOOSTJSON
    available<BoostjsonCodec>(),
#else
    unavailable("boostjson", config::kBoostjsonReason),
#endif
#if ZAPBENCH_HAVE_NLOHMANN
    available<NlohmannCodec>(),
#else
    unavailable("nlohmann", config::kNlohmannReason),
#endif
  };
  return t;
}

}  // namespace

std::span<const CodecInfo> all_codecs() { return table(); }

const CodecInfo* find_codec(std::string_view name) {
  for (const CodecInfo& c : table())
    if (c.name == name) return &c;
  return nullptr;
}

const CodecInfo& default_json_codec() {
  // Fastest first, as `zapbench micro` measures Handler/<codec> on this
  // project's reference machine; direct is always built, so one is found.
  for (std::string_view name : {"direct", "simdjson", "rapidjson", "boostjson", "nlohmann"}) {
    const CodecInfo* c = find_codec(name);
    if (c != nullptr && c->available) return *c;
  }
  return *find_codec("direct");
}

std::string available_codec_names(bool json_only) {
  std::string out;
  for (const CodecInfo& c : table()) {
    if (!c.available || (json_only && c.content_type != "application/json")) continue;
    if (!out.empty()) out += ", ";
    out += c.name;
  }
  return out;
}

}  // namespace record
