// fuzz/record_peer_diff_fuzz.cpp — the binary peers' cross-codec differential.
// The same bytes are offered to ZAP and to every available binary peer that
// checks its input (never a trusted-input-only decoder); whatever one of them accepts is
// re-encoded by every peer and by ZAP, decoded back, and must give the same
// values and the same compute everywhere. A difference is a peer that does
// not carry the record's values faithfully (docs/fairness.md).
//
// A method that is not valid UTF-8 is skipped: protobuf's `string` rejects it
// by its own rules (proto3), where the other formats carry any bytes.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "record/json_reader.hpp"
#include "record/registry.hpp"

namespace {

void fail(const char* what, std::string_view from, std::string_view via) {
  std::fprintf(stderr, "peer differential: %s accepted by %.*s, %s through %.*s\n", "input", int(from.size()),
               from.data(), what, int(via.size()), via.data());
  __builtin_trap();
}

// The JSON reader's UTF-8 rule (RFC 3629), the one protobuf's `string` applies too.
bool valid_utf8(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p != nullptr && p != end)
    p = static_cast<unsigned char>(*p) < 0x80 ? p + 1 : record::json::skip_utf8(p, end);
  return p == end;
}

struct Codec {
  std::string_view name;
  std::unique_ptr<record::AnyCodec> codec;
  bool checks_input;
};

// Encodes with `via`, decodes with `via` from a padded copy.
record::DecodeError again(record::AnyCodec& via, const record::Request& r, record::RequestView& out,
                          std::vector<std::uint8_t>& scratch) {
  const record::Bytes b = via.encode_request(r);
  scratch.assign(b.begin(), b.end());
  scratch.resize(b.size() + record::kInputPaddingBytes);
  return via.decode_request({scratch.data(), b.size()}, out);
}
record::DecodeError again(record::AnyCodec& via, const record::Response& r, record::ResponseView& out,
                          std::vector<std::uint8_t>& scratch) {
  const record::Bytes b = via.encode_response(r);
  scratch.assign(b.begin(), b.end());
  scratch.resize(b.size() + record::kInputPaddingBytes);
  return via.decode_response({scratch.data(), b.size()}, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::vector<Codec> codecs = [] {
    std::vector<Codec> v;
    for (const record::CodecInfo& c : record::all_codecs())
      if (c.available && (c.family() == matrix::Family::peer || c.family() == matrix::Family::zap))
        v.push_back({c.name, c.make(), !c.trusted_input_only});
    return v;
  }();
  static std::vector<std::uint8_t> scratch;
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[size + record::kInputPaddingBytes]);
  if (size != 0) std::memcpy(buf.get(), data, size);
  std::memset(buf.get() + size, 0xa5, record::kInputPaddingBytes);
  const record::Bytes in{buf.get(), size};

  for (Codec& from : codecs) {
    if (!from.checks_input) continue;
    record::RequestView q;
    if (from.codec->decode_request(in, q) == record::DecodeError::ok &&
        q.account.size() == record::kAccountBytes && valid_utf8(q.method)) {
      const std::string method(q.method);
      record::Request r{q.id, q.block, method, {}};
      std::memcpy(r.account.data(), q.account.data(), record::kAccountBytes);
      const record::Response want = record::compute(q);
      for (Codec& via : codecs) {
        record::RequestView v;
        if (again(*via.codec, r, v, scratch) != record::DecodeError::ok)
          fail("a request fails", from.name, via.name);
        if (v.id != r.id || v.block != r.block || v.method != method || v.account0 != r.account[0] ||
            std::memcmp(v.account.data(), r.account.data(), record::kAccountBytes) != 0)
          fail("a request changes", from.name, via.name);
        const record::Response got = record::compute(v);
        if (got.id != want.id || got.balance != want.balance)
          fail("the compute differs", from.name, via.name);
      }
    }
    record::ResponseView p;
    if (from.codec->decode_response(in, p) == record::DecodeError::ok &&
        p.block_hash.size() == record::kHashBytes) {
      record::Response r{p.id, p.balance, p.nonce, {}};
      std::memcpy(r.block_hash.data(), p.block_hash.data(), record::kHashBytes);
      for (Codec& via : codecs) {
        record::ResponseView v;
        if (again(*via.codec, r, v, scratch) != record::DecodeError::ok)
          fail("a response fails", from.name, via.name);
        if (v.id != r.id || v.balance != r.balance || v.nonce != r.nonce ||
            std::memcmp(v.block_hash.data(), r.block_hash.data(), record::kHashBytes) != 0)
          fail("a response changes", from.name, via.name);
      }
    }
  }
  return 0;
}
