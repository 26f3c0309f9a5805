// fuzz/record_json_diff_fuzz.cpp — differential fuzzing of the JSON codecs:
// every available JSON codec decodes the same input, and all must agree on
// whether it is accepted and, if so, on every decoded value. A disagreement
// is a codec that does not honour docs/fairness.md.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "record/registry.hpp"

namespace {

struct Outcome {
  bool ok = false;
  std::uint64_t a = 0, b = 0, c = 0;
  std::string s1, s2;
  bool operator==(const Outcome&) const = default;
};

void disagree(const char* what, std::string_view x, std::string_view y) {
  std::fprintf(stderr, "codecs disagree on %s: %.*s vs %.*s\n", what, int(x.size()), x.data(), int(y.size()),
               y.data());
  __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::vector<std::pair<std::string_view, std::unique_ptr<record::AnyCodec>>> codecs = [] {
    std::vector<std::pair<std::string_view, std::unique_ptr<record::AnyCodec>>> v;
    for (const record::CodecInfo& c : record::all_codecs())
      if (c.available && c.content_type == "application/json") v.emplace_back(c.name, c.make());
    return v;
  }();
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[size + record::kInputPaddingBytes]);
  if (size != 0) std::memcpy(buf.get(), data, size);
  std::memset(buf.get() + size, ' ', record::kInputPaddingBytes);
  const record::Bytes in{buf.get(), size};

  Outcome first_req, first_resp;
  for (std::size_t i = 0; i < codecs.size(); ++i) {
    record::RequestView q;
    Outcome req;
    req.ok = codecs[i].second->decode_request(in, q) == record::DecodeError::ok;
    if (req.ok) req = {true, q.id, q.block, q.account0, std::string(q.method), std::string(q.account)};
    record::ResponseView r;
    Outcome resp;
    resp.ok = codecs[i].second->decode_response(in, r) == record::DecodeError::ok;
    if (resp.ok) resp = {true, r.id, r.balance, r.nonce, std::string(r.block_hash), {}};
    if (i == 0) {
      first_req = req;
      first_resp = resp;
      continue;
    }
    if (!(req == first_req)) disagree("a request", codecs[0].first, codecs[i].first);
    if (!(resp == first_resp)) disagree("a response", codecs[0].first, codecs[i].first);
  }
  return 0;
}
