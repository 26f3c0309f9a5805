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
//
// The eth_getLogs record (record::LogsCodec): the input is decoded as a logs
// request (re-encoded, decoded again: the same request) and as an answer by
// all three read operations, which must agree (a DecodeAll that succeeds
// means ScanField succeeds with the same count, and AccessOne finds every
// k < N and refuses k = N). Every codec also takes the input as logs values
// (logs_of_input): encoded, they must read back as the reference answers.
//
// ZAP's target also runs the microbenchmarks' limit codec (micro/limit_codec.hpp)
// on the same input: whatever it accepts, ZAP accepts with the same values, and
// what it writes for them is ZAP's bytes.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "micro/limit_codec.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"

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

// Bytes with kInputPaddingBytes of readable padding after them, reused.
record::Bytes padded_copy(record::Bytes b) {
  static std::vector<std::uint8_t> buf;
  buf.assign(b.begin(), b.end());
  buf.resize(b.size() + record::kInputPaddingBytes, '}');
  return {buf.data(), b.size()};
}

// The input as up to 8 logs: per log, a shape byte (topics 0–4, data length
// 0–63 from the input), then its fixed fields and bytes from the input,
// zeros once the input runs out.
struct InputLogs {
  std::vector<std::uint8_t> bytes;
  std::vector<record::Log> logs;
};
InputLogs logs_of_input(const std::uint8_t* data, std::size_t size) {
  InputLogs out;
  out.bytes.assign(data, data + size);
  out.bytes.resize(size + 8 * 300, 0);  // a log takes at most 1 + 20 + 128 + 63 + 8 + 32 + 8 bytes
  std::size_t at = 0;
  auto take = [&](std::size_t n) {
    const std::uint8_t* p = out.bytes.data() + at;
    at += n;
    return p;
  };
  const std::size_t count = size == 0 ? 0 : data[0] % 9;
  at = 1;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint8_t shape = *take(1);
    record::Log l;
    std::memcpy(l.address.data(), take(record::kAccountBytes), record::kAccountBytes);
    const std::size_t topics = (shape & 7) % (record::kMaxTopics + 1);
    l.topics = record::Bytes{take(topics * record::kTopicBytes), topics * record::kTopicBytes};
    const std::size_t data_bytes = shape >> 2;
    l.data = record::Bytes{take(data_bytes), data_bytes};
    std::memcpy(&l.block_number, take(8), 8);
    std::memcpy(l.tx_hash.data(), take(record::kHashBytes), record::kHashBytes);
    std::memcpy(&l.tx_index, take(4), 4);
    std::memcpy(&l.log_index, take(4), 4);
    l.removed = (shape & 0x80) != 0;
    out.logs.push_back(l);
  }
  return out;
}

template <class C>
void logs_round_trip_values(C& codec, const std::uint8_t* data, std::size_t size) {
  const InputLogs in = logs_of_input(data, size);
  const record::Bytes wire = padded_copy(codec.encode_logs(in.logs));
  record::LogsDigest d;
  check(codec.logs_decode_all(wire, d) == record::DecodeError::ok);
  check(d == record::digest_of(in.logs));
  record::LogsScan scan;
  check(codec.logs_scan(wire, scan) == record::DecodeError::ok && scan == record::scan_of(in.logs));
  for (std::uint32_t k = 0; k < in.logs.size(); ++k) {
    record::LogPick pick;
    check(codec.logs_access_one(wire, k, pick) == record::DecodeError::ok &&
          pick == record::pick_of(in.logs[k]));
  }
  record::LogsRequest q{};
  std::memcpy(&q, data, std::min(size, sizeof q));
  record::LogsRequest back;
  const record::LogsRequest want{q.from_block, q.to_block, q.address, q.limit};
  check(codec.decode_logs_request(padded_copy(codec.encode_logs_request(want)), back) ==
        record::DecodeError::ok);
  check(back == want);
}

// The input decoded by every logs reader of an untrusted-input codec.
template <class C>
void logs_decode(C& codec, record::Bytes in) {
  record::LogsRequest q;
  if (codec.decode_logs_request(in, q) == record::DecodeError::ok) {
    record::LogsRequest again;
    check(codec.decode_logs_request(padded_copy(codec.encode_logs_request(q)), again) ==
          record::DecodeError::ok);
    check(again == q);
  }
  record::LogsDigest d;
  const bool all_ok = codec.logs_decode_all(in, d) == record::DecodeError::ok;
  record::LogsScan scan;
  const bool scan_ok = codec.logs_scan(in, scan) == record::DecodeError::ok;
  if (all_ok) check(scan_ok && scan.count == d.count);
  for (std::uint32_t k : {0u, 1u, 2u, 7u}) {
    record::LogPick pick;
    const record::DecodeError e = codec.logs_access_one(in, k, pick);
    if (all_ok && k < d.count) check(e == record::DecodeError::ok);
    if (all_ok && k == d.count) check(e == record::DecodeError::missing_field);
  }
}

// The limit codec against ZAP on one input (ZAP's target only).
void limit_against_zap(record::Bytes in) {
  static micro::LimitCodec limit;
  static record::ZapCodec zap;
  record::RequestView lq, zq;
  if (limit.decode_request(in, lq) == record::DecodeError::ok) {
    check(zap.decode_request(in, zq) == record::DecodeError::ok);
    check(lq.id == zq.id && lq.block == zq.block && lq.method == zq.method && lq.account == zq.account);
    record::Request r{lq.id, lq.block, lq.method, {}};
    std::memcpy(r.account.data(), lq.account.data(), record::kAccountBytes);
    const record::Bytes a = limit.encode_request(r), b = zap.encode_request(r);
    check(r.method.size() > 64 || (a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0));
  }
  record::ResponseView lr, zr;
  if (limit.decode_response(in, lr) == record::DecodeError::ok) {
    check(zap.decode_response(in, zr) == record::DecodeError::ok);
    check(lr.id == zr.id && lr.balance == zr.balance && lr.nonce == zr.nonce &&
          lr.block_hash == zr.block_hash);
    record::Response r{lr.id, lr.balance, lr.nonce, {}};
    std::memcpy(r.block_hash.data(), lr.block_hash.data(), record::kHashBytes);
    const record::Bytes a = limit.encode_response(r), b = zap.encode_response(r);
    check(a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size()) == 0);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static ZAPFUZZ_CODEC codec;
  logs_round_trip_values(codec, data, size);
  if constexpr (record::trusted_input_only<ZAPFUZZ_CODEC>()) return round_trip_values(codec, data, size);
  // Padding filled with a non-zero byte: a decoder may read it, never rely on it.
  std::unique_ptr<std::uint8_t[]> buf(new std::uint8_t[size + record::kInputPaddingBytes]);
  if (size != 0) std::memcpy(buf.get(), data, size);
  std::memset(buf.get() + size, '}', record::kInputPaddingBytes);
  const record::Bytes in{buf.get(), size};

  logs_decode(codec, in);
  if constexpr (std::is_same_v<ZAPFUZZ_CODEC, record::ZapCodec>) limit_against_zap(in);

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
