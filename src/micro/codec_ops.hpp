// micro/codec_ops.hpp — one codec's four ops on the sample record, the one
// definition both of their drivers run: the benchmarks (Decode/<codec>, ...,
// codec_bench.cpp, a Google Benchmark loop around one op) and `zapbench
// instructions` (codec_case.hpp, callgrind around run()). Each op checks its
// result against the sample / record::compute before anything is timed
// (check()), so a fast wrong codec never reaches a table.
//
//   Decode:  the request and the response decoded, all eight fields sunk
//   Encode:  the request and the response written from their values
//   Serde:   what a client and server pair pays per call: encode the request,
//            decode it, encode the computed response, decode it
//   Handler: the server's per-request cost: decode the request, compute,
//            encode the response
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "micro/padded.hpp"
#include "record/record.hpp"

namespace micro {

enum class CodecOp : std::uint8_t { decode, encode, serde, handler };
inline constexpr CodecOp kCodecOps[] = {CodecOp::decode, CodecOp::encode, CodecOp::serde, CodecOp::handler};
// "Decode", "Encode", "Serde", "Handler": the benchmarks' first name part.
constexpr std::string_view op_name(CodecOp op) noexcept {
  switch (op) {
    case CodecOp::decode:
      return "Decode";
    case CodecOp::encode:
      return "Encode";
    case CodecOp::serde:
      return "Serde";
    case CodecOp::handler:
      break;
  }
  return "Handler";
}

namespace ops {

// A decoded request equals the sample (hex fields compared by their first
// byte and length, which is what decoders are held to).
inline bool is_sample(const record::RequestView& v) {
  return v.id == record::kSampleId && v.block == record::kSampleBlock && v.method == record::kSampleMethod &&
         v.account0 == record::kSampleAccount[0];
}
inline bool is_response_to_sample(const record::ResponseView& v) {
  const record::Response want = record::compute(record::RequestView{
      record::kSampleId, record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]});
  return v.id == want.id && v.balance == want.balance && v.nonce == want.nonce;
}
inline bool is_sample_response(const record::ResponseView& v) {
  return v.id == record::kSampleId && v.balance == record::kSampleBalance && v.nonce == record::kSampleNonce;
}

// Keep decoded views alive without letting the compiler skip the decode.
inline void sink(const record::RequestView& v) {
  benchmark::DoNotOptimize(v.id);
  benchmark::DoNotOptimize(v.block);
  benchmark::DoNotOptimize(v.method.data());
  benchmark::DoNotOptimize(v.method.size());
  benchmark::DoNotOptimize(v.account.data());
  benchmark::DoNotOptimize(v.account0);
}
inline void sink(const record::ResponseView& v) {
  benchmark::DoNotOptimize(v.id);
  benchmark::DoNotOptimize(v.balance);
  benchmark::DoNotOptimize(v.nonce);
  benchmark::DoNotOptimize(v.block_hash.data());
}
inline void sink(record::Bytes b) {
  benchmark::DoNotOptimize(b.data());
  benchmark::DoNotOptimize(b.size());
  benchmark::ClobberMemory();  // the bytes written count as used
}
// Hide where the input lives so a parse is redone every iteration.
inline record::Bytes opaque(const Padded& p) {
  const std::uint8_t* d = p.data();
  benchmark::DoNotOptimize(d);
  return {d, p.size()};
}

}  // namespace ops

template <class C>
class CodecOps {
 public:
  CodecOps()
      : req_(record::sample_request()),
        resp_(record::sample_response()),
        req_wire_(codec_.encode_request(req_)),
        resp_wire_(codec_.encode_response(resp_)) {}

  // Empty when `op` gives the sample (or its computed answer) back; else what
  // is wrong. Run once before timing.
  std::string check(CodecOp op) {
    using record::DecodeError;
    record::RequestView q;
    record::ResponseView r;
    switch (op) {
      case CodecOp::decode:
        if (codec_.decode_request(req_wire_.bytes(), q) != DecodeError::ok || !ops::is_sample(q) ||
            codec_.decode_response(resp_wire_.bytes(), r) != DecodeError::ok || !ops::is_sample_response(r))
          return "decode does not give the sample back";
        return "";
      case CodecOp::encode: {
        const Padded pq(codec_.encode_request(req_)), pr(codec_.encode_response(resp_));
        if (codec_.decode_request(pq.bytes(), q) != DecodeError::ok || !ops::is_sample(q) ||
            codec_.decode_response(pr.bytes(), r) != DecodeError::ok || !ops::is_sample_response(r))
          return "encode does not round-trip the sample";
        return "";
      }
      case CodecOp::serde: {
        // Views die with the next decode on the codec: check q before decoding r.
        const Padded a(codec_.encode_request(req_));
        if (codec_.decode_request(a.bytes(), q) != DecodeError::ok || !ops::is_sample(q))
          return "serde does not give the request back";
        const Padded b(codec_.encode_response(record::compute(q)));
        if (codec_.decode_response(b.bytes(), r) != DecodeError::ok || !ops::is_response_to_sample(r))
          return "serde does not give the computed response";
        return "";
      }
      case CodecOp::handler: {
        if (codec_.decode_request(req_wire_.bytes(), q) != DecodeError::ok) return "bad request";
        const Padded out(codec_.encode_response(record::compute(q)));
        if (codec_.decode_response(out.bytes(), r) != DecodeError::ok || !ops::is_response_to_sample(r))
          return "handler does not give the computed response";
        return "";
      }
    }
    return "no such op";
  }

  // One op each; what it put on the wire (request plus response) in wire_bytes().
  void decode() {
    const record::DecodeError e1 = codec_.decode_request(ops::opaque(req_wire_), q_);
    const record::DecodeError e2 = codec_.decode_response(ops::opaque(resp_wire_), r_);
    benchmark::DoNotOptimize(e1);
    benchmark::DoNotOptimize(e2);
    ops::sink(q_);
    ops::sink(r_);
    wire_bytes_ = req_wire_.size() + resp_wire_.size();
  }
  void encode() {
    benchmark::DoNotOptimize(req_);
    benchmark::DoNotOptimize(resp_);
    const record::Bytes a = codec_.encode_request(req_);
    const record::Bytes b = codec_.encode_response(resp_);
    ops::sink(a);
    ops::sink(b);
    wire_bytes_ = a.size() + b.size();
  }
  void serde() {
    benchmark::DoNotOptimize(req_);
    const record::Bytes a = codec_.encode_request(req_);
    const record::DecodeError e1 = codec_.decode_request(a, q_);
    const record::Bytes b = codec_.encode_response(record::compute(q_));
    const record::DecodeError e2 = codec_.decode_response(b, r_);
    benchmark::DoNotOptimize(e1);
    benchmark::DoNotOptimize(e2);
    ops::sink(r_);
    wire_bytes_ = a.size() + b.size();
  }
  void handler() {
    const record::DecodeError e = codec_.decode_request(ops::opaque(req_wire_), q_);
    benchmark::DoNotOptimize(e);
    const record::Bytes out = codec_.encode_response(record::compute(q_));
    ops::sink(out);
    wire_bytes_ = req_wire_.size() + out.size();
  }

  // n ops of one kind: the loop `zapbench instructions` counts.
  void run(CodecOp op, std::uint64_t n) {
    switch (op) {
      case CodecOp::decode:
        for (std::uint64_t i = 0; i < n; ++i) decode();
        break;
      case CodecOp::encode:
        for (std::uint64_t i = 0; i < n; ++i) encode();
        break;
      case CodecOp::serde:
        for (std::uint64_t i = 0; i < n; ++i) serde();
        break;
      case CodecOp::handler:
        for (std::uint64_t i = 0; i < n; ++i) handler();
        break;
    }
  }

  [[nodiscard]] std::size_t wire_bytes() const noexcept { return wire_bytes_; }

 private:
  C codec_;
  record::Request req_;
  record::Response resp_;
  Padded req_wire_;
  Padded resp_wire_;
  record::RequestView q_;
  record::ResponseView r_;
  std::size_t wire_bytes_ = 0;
};

}  // namespace micro
