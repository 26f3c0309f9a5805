// fuzz/record_codec_fuzz.cpp — one libFuzzer target per record codec, chosen
// at compile time (ZAPFUZZ_CODEC, e.g. record::RapidjsonCodec). Each input is
// decoded as a request and as a response from a buffer of exactly its size
// plus the promised padding (record::kInputPaddingBytes), so ASan catches any
// read beyond it. Whatever decodes is re-encoded and decoded again, and must
// give the same values back.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "record/codecs.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// Full bytes of a decoded hex/raw field; false when the hex beyond the first
// byte is not valid (decoders only check the first byte — the charitable
// framing — so such a field cannot round-trip and is not compared).
template <std::size_t N>
bool field_bytes(std::string_view s, record::Form form, std::array<std::uint8_t, N>& out) {
  if (form == record::Form::raw) {
    check(s.size() == N);
    std::memcpy(out.data(), s.data(), N);
    return true;
  }
  return record::hex::decode_all(s, out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ZAPFUZZ_CODEC codec;
  // Padding filled with a non-zero byte: a decoder may read it, never rely on it.
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[size + record::kInputPaddingBytes]);
  if (size != 0) std::memcpy(buf.get(), data, size);
  std::memset(buf.get() + size, '}', record::kInputPaddingBytes);
  const record::Bytes in{buf.get(), size};

  record::RequestView q;
  if (codec.decode_request(in, q) == record::DecodeError::ok) {
    record::Request r{q.id, q.block, {}, {}};
    const std::string method(q.method);  // the views die with the next decode
    r.method = method;
    if (field_bytes(q.account, q.account_form, r.account)) {
      check(r.account[0] == q.account0);
      std::unique_ptr<std::uint8_t[]> again;
      const record::Bytes out = codec.encode_request(r);
      again.reset(new std::uint8_t[out.size() + record::kInputPaddingBytes]());
      std::memcpy(again.get(), out.data(), out.size());
      record::RequestView q2;
      check(codec.decode_request({again.get(), out.size()}, q2) == record::DecodeError::ok);
      check(q2.id == r.id && q2.block == r.block && q2.method == method && q2.account0 == r.account[0]);
    }
  }

  record::ResponseView v;
  if (codec.decode_response(in, v) == record::DecodeError::ok) {
    record::Response r{v.id, v.balance, v.nonce, {}};
    if (field_bytes(v.block_hash, v.block_hash_form, r.block_hash)) {
      const record::Bytes out = codec.encode_response(r);
      std::unique_ptr<std::uint8_t[]> again(new std::uint8_t[out.size() + record::kInputPaddingBytes]());
      std::memcpy(again.get(), out.data(), out.size());
      record::ResponseView v2;
      check(codec.decode_response({again.get(), out.size()}, v2) == record::DecodeError::ok);
      check(v2.id == r.id && v2.balance == r.balance && v2.nonce == r.nonce);
    }
  }
  return 0;
}
