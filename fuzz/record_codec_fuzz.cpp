// fuzz/record_codec_fuzz.cpp — one libFuzzer target per record codec, chosen
// at compile time (ZAPFUZZ_CODEC, e.g. record::RapidjsonCodec). Each input is
// decoded as a request and as a response from a buffer of exactly its size
// plus the promised padding (record::kInputPaddingBytes), so ASan catches any
// read beyond it. Whatever decodes is re-encoded and decoded again, and must
// give the same values back.
//
// A codec for trusted input only (flatbuffers-trusted) is never handed bytes
// it did not write: its target takes the input as the record's values
// instead, encodes them and must decode the same values back.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

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

// The input as values: id, block, the account (or hash) bytes, then the method.
template <class C>
int round_trip_values(C& codec, const std::uint8_t* data, std::size_t size) {
  std::uint8_t fixed[16 + record::kHashBytes] = {};
  const std::size_t n = std::min(size, sizeof fixed);
  if (n != 0) std::memcpy(fixed, data, n);
  const std::string method(reinterpret_cast<const char*>(data) + n, size - n);
  record::Request q{0, 0, method, {}};
  std::memcpy(&q.id, fixed, 8);
  std::memcpy(&q.block, fixed + 8, 8);
  std::memcpy(q.account.data(), fixed + 16, record::kAccountBytes);
  // Decoders get kInputPaddingBytes of readable padding after their input.
  static std::vector<std::uint8_t> padded;
  auto pad = [](record::Bytes b) {
    padded.assign(b.begin(), b.end());
    padded.resize(b.size() + record::kInputPaddingBytes);
    return record::Bytes{padded.data(), b.size()};
  };
  record::RequestView qv;
  check(codec.decode_request(pad(codec.encode_request(q)), qv) == record::DecodeError::ok);
  check(qv.id == q.id && qv.block == q.block && qv.method == method && qv.account0 == q.account[0]);
  record::Response r{q.id, q.block, q.block ^ q.id, {}};
  std::memcpy(r.block_hash.data(), fixed + 16, record::kHashBytes);
  record::ResponseView rv;
  check(codec.decode_response(pad(codec.encode_response(r)), rv) == record::DecodeError::ok);
  check(rv.id == r.id && rv.balance == r.balance && rv.nonce == r.nonce &&
        std::memcmp(rv.block_hash.data(), r.block_hash.data(), record::kHashBytes) == 0);
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ZAPFUZZ_CODEC codec;
  if constexpr (record::trusted_input_only<ZAPFUZZ_CODEC>()) return round_trip_values(codec, data, size);
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
