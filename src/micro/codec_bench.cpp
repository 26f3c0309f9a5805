// micro/codec_bench.cpp — the codec matrix: Decode/<codec>, Encode/<codec>,
// Serde/<codec> and Handler/<codec> for every available codec, on the sample
// record, plus the ZAP rows with a fresh builder per message (<op>/zap-fresh;
// plain "zap" reuses its builders). Every benchmark checks its result against
// record::compute / the sample before timing and skips with an error on a
// mismatch, so a fast wrong codec never reaches a table. After the codecs of
// each op, its limit row (<op>/limit, micro/limit_codec.hpp), measured by the
// same code.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "micro/codec_ops.hpp"
#include "micro/counters.hpp"
#include "micro/limit_codec.hpp"
#include "record/codecs.hpp"

namespace micro {
namespace {

using ops::is_response_to_sample;
using ops::opaque;
using ops::sink;
using record::DecodeError;
using record::RequestView;
using record::ResponseView;

// <op>/<codec>: one op of CodecOps (codec_ops.hpp), checked first.
template <class C, CodecOp Op>
void bm_op(benchmark::State& state) {
  CodecOps<C> ops;
  if (const std::string why = ops.check(Op); !why.empty()) return state.SkipWithError(why.c_str());
  AllocMeter meter(state);
  for (auto _ : state) {
    if constexpr (Op == CodecOp::decode) ops.decode();
    if constexpr (Op == CodecOp::encode) ops.encode();
    if constexpr (Op == CodecOp::serde) ops.serde();
    if constexpr (Op == CodecOp::handler) ops.handler();
  }
  meter.report(ops.wire_bytes());
}

template <class C>
void register_op(CodecOp op) {
  const std::string name = std::string(op_name(op)) + "/" + std::string(C::kName);
  switch (op) {
    case CodecOp::decode:
      benchmark::RegisterBenchmark(name.c_str(), bm_op<C, CodecOp::decode>);
      break;
    case CodecOp::encode:
      benchmark::RegisterBenchmark(name.c_str(), bm_op<C, CodecOp::encode>);
      break;
    case CodecOp::serde:
      benchmark::RegisterBenchmark(name.c_str(), bm_op<C, CodecOp::serde>);
      break;
    case CodecOp::handler:
      benchmark::RegisterBenchmark(name.c_str(), bm_op<C, CodecOp::handler>);
      break;
  }
}

// ---- ZAP with a fresh builder per message (Go's NewBuilder(128) per call) ----

void bm_encode_zap_fresh(benchmark::State& state) {
  const record::Request req = record::sample_request();
  const record::Response resp = record::sample_response();
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    zap::Builder qb(128), rb(128);
    record::Bytes a = record::ZapCodec::encode_request(qb, req);
    record::Bytes b = record::ZapCodec::encode_response(rb, resp);
    sink(a);
    sink(b);
    wire = a.size() + b.size();
  }
  meter.report(wire);
}

void bm_serde_zap_fresh(benchmark::State& state) {
  record::ZapCodec codec;  // for decoding only
  const record::Request req = record::sample_request();
  RequestView q;
  ResponseView r;
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    zap::Builder qb(128);
    record::Bytes a = record::ZapCodec::encode_request(qb, req);
    DecodeError e1 = codec.decode_request(a, q);
    zap::Builder rb(128);
    record::Bytes b = record::ZapCodec::encode_response(rb, record::compute(q));
    DecodeError e2 = codec.decode_response(b, r);
    benchmark::DoNotOptimize(e1);
    benchmark::DoNotOptimize(e2);
    sink(r);
    wire = a.size() + b.size();
  }
  if (!is_response_to_sample(r)) return state.SkipWithError("serde does not give the computed response");
  meter.report(wire);
}

void bm_handler_zap_fresh(benchmark::State& state) {
  record::ZapCodec codec;
  const Padded req(codec.encode_request(record::sample_request()));
  RequestView q;
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    DecodeError e = codec.decode_request(opaque(req), q);
    benchmark::DoNotOptimize(e);
    zap::Builder rb(128);
    record::Bytes out = record::ZapCodec::encode_response(rb, record::compute(q));
    sink(out);
    wire = req.size() + out.size();
  }
  meter.report(wire);
}

// Registered at static-initialisation time, in the order of the table; after
// the codecs of each op, its limit.
const bool registered = [] {
  for (CodecOp op : kCodecOps) {
    record::AvailableCodecs::for_each([&]<class C>() {
      register_op<C>(op);
      if (std::string_view(C::kName) == "zap") {
        if (op == CodecOp::encode) benchmark::RegisterBenchmark("Encode/zap-fresh", bm_encode_zap_fresh);
        if (op == CodecOp::serde) benchmark::RegisterBenchmark("Serde/zap-fresh", bm_serde_zap_fresh);
        if (op == CodecOp::handler) benchmark::RegisterBenchmark("Handler/zap-fresh", bm_handler_zap_fresh);
      }
    });
    register_op<LimitCodec>(op);
  }
  return true;
}();

}  // namespace
}  // namespace micro
