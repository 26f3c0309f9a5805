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

#include "micro/counters.hpp"
#include "micro/limit_codec.hpp"
#include "micro/padded.hpp"
#include "record/codecs.hpp"

namespace micro {
namespace {

using record::DecodeError;
using record::RequestView;
using record::ResponseView;

// A decoded request equals the sample (hex fields compared by their first
// byte and length, which is what decoders are held to).
bool is_sample(const RequestView& v) {
  return v.id == record::kSampleId && v.block == record::kSampleBlock && v.method == record::kSampleMethod &&
         v.account0 == record::kSampleAccount[0];
}
bool is_response_to_sample(const ResponseView& v) {
  const record::Response want = record::compute(RequestView{
      record::kSampleId, record::kSampleBlock, record::kSampleMethod, {}, record::kSampleAccount[0]});
  return v.id == want.id && v.balance == want.balance && v.nonce == want.nonce;
}
bool is_sample_response(const ResponseView& v) {
  return v.id == record::kSampleId && v.balance == record::kSampleBalance && v.nonce == record::kSampleNonce;
}

// Keep decoded views alive without letting the compiler skip the decode.
void sink(const RequestView& v) {
  benchmark::DoNotOptimize(v.id);
  benchmark::DoNotOptimize(v.block);
  benchmark::DoNotOptimize(v.method.data());
  benchmark::DoNotOptimize(v.method.size());
  benchmark::DoNotOptimize(v.account.data());
  benchmark::DoNotOptimize(v.account0);
}
void sink(const ResponseView& v) {
  benchmark::DoNotOptimize(v.id);
  benchmark::DoNotOptimize(v.balance);
  benchmark::DoNotOptimize(v.nonce);
  benchmark::DoNotOptimize(v.block_hash.data());
}
void sink(record::Bytes b) {
  benchmark::DoNotOptimize(b.data());
  benchmark::DoNotOptimize(b.size());
  benchmark::ClobberMemory();  // the bytes written count as used
}
// Hide where the input lives so a parse is redone every iteration.
record::Bytes opaque(const Padded& p) {
  const std::uint8_t* d = p.data();
  benchmark::DoNotOptimize(d);
  return {d, p.size()};
}

// Decode: request + response, all eight fields into the sink.
template <class C>
void bm_decode(benchmark::State& state) {
  C codec;
  const Padded req(codec.encode_request(record::sample_request()));
  const Padded resp(codec.encode_response(record::sample_response()));
  RequestView q;
  ResponseView r;
  if (codec.decode_request(req.bytes(), q) != DecodeError::ok || !is_sample(q) ||
      codec.decode_response(resp.bytes(), r) != DecodeError::ok || !is_sample_response(r))
    return state.SkipWithError("decode does not give the sample back");
  AllocMeter meter(state);
  for (auto _ : state) {
    DecodeError e1 = codec.decode_request(opaque(req), q);
    DecodeError e2 = codec.decode_response(opaque(resp), r);
    benchmark::DoNotOptimize(e1);
    benchmark::DoNotOptimize(e2);
    sink(q);
    sink(r);
  }
  meter.report(req.size() + resp.size());
}

// Encode: request + response from their logical values.
template <class C>
void bm_encode(benchmark::State& state) {
  C codec;
  record::Request req = record::sample_request();
  record::Response resp = record::sample_response();
  {
    RequestView q;
    ResponseView r;
    const Padded pq(codec.encode_request(req)), pr(codec.encode_response(resp));
    if (codec.decode_request(pq.bytes(), q) != DecodeError::ok || !is_sample(q) ||
        codec.decode_response(pr.bytes(), r) != DecodeError::ok || !is_sample_response(r))
      return state.SkipWithError("encode does not round-trip the sample");
  }
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(req);
    benchmark::DoNotOptimize(resp);
    record::Bytes a = codec.encode_request(req);
    record::Bytes b = codec.encode_response(resp);
    sink(a);
    sink(b);
    wire = a.size() + b.size();
  }
  meter.report(wire);
}

// Serde: what a client and server pair pays per call — encode the request,
// decode it, encode the computed response, decode it.
template <class C>
void bm_serde(benchmark::State& state) {
  C codec;
  record::Request req = record::sample_request();
  RequestView q;
  ResponseView r;
  {
    // Views die with the next decode on the codec: check q before decoding r.
    const Padded a(codec.encode_request(req));
    if (codec.decode_request(a.bytes(), q) != DecodeError::ok || !is_sample(q))
      return state.SkipWithError("serde does not give the request back");
    const Padded b(codec.encode_response(record::compute(q)));
    if (codec.decode_response(b.bytes(), r) != DecodeError::ok || !is_response_to_sample(r))
      return state.SkipWithError("serde does not give the computed response");
  }
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(req);
    record::Bytes a = codec.encode_request(req);
    DecodeError e1 = codec.decode_request(a, q);
    record::Bytes b = codec.encode_response(record::compute(q));
    DecodeError e2 = codec.decode_response(b, r);
    benchmark::DoNotOptimize(e1);
    benchmark::DoNotOptimize(e2);
    sink(r);
    wire = a.size() + b.size();
  }
  meter.report(wire);
}

// Handler: the server's per-request cost — decode the request, compute,
// encode the response.
template <class C>
void bm_handler(benchmark::State& state) {
  C codec;
  const Padded req(codec.encode_request(record::sample_request()));
  RequestView q;
  ResponseView r;
  {
    if (codec.decode_request(req.bytes(), q) != DecodeError::ok) return state.SkipWithError("bad request");
    const Padded out(codec.encode_response(record::compute(q)));
    if (codec.decode_response(out.bytes(), r) != DecodeError::ok || !is_response_to_sample(r))
      return state.SkipWithError("handler does not give the computed response");
  }
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    DecodeError e = codec.decode_request(opaque(req), q);
    benchmark::DoNotOptimize(e);
    record::Bytes out = codec.encode_response(record::compute(q));
    sink(out);
    wire = req.size() + out.size();
  }
  meter.report(wire);
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

// Registered at static-initialisation time, in the order of the table.
const bool registered = [] {
  for (const char* op : {"Decode", "Encode", "Serde", "Handler"}) {
    const std::string o = op;
    record::AvailableCodecs::for_each([&]<class C>() {
      const std::string name = o + "/" + std::string(C::kName);
      if (o == "Decode") benchmark::RegisterBenchmark(name.c_str(), bm_decode<C>);
      if (o == "Encode") benchmark::RegisterBenchmark(name.c_str(), bm_encode<C>);
      if (o == "Serde") benchmark::RegisterBenchmark(name.c_str(), bm_serde<C>);
      if (o == "Handler") benchmark::RegisterBenchmark(name.c_str(), bm_handler<C>);
      if (std::string_view(C::kName) == "zap") {
        if (o == "Encode") benchmark::RegisterBenchmark("Encode/zap-fresh", bm_encode_zap_fresh);
        if (o == "Serde") benchmark::RegisterBenchmark("Serde/zap-fresh", bm_serde_zap_fresh);
        if (o == "Handler") benchmark::RegisterBenchmark("Handler/zap-fresh", bm_handler_zap_fresh);
      }
    });
    const std::string limit = o + "/" + std::string(LimitCodec::kName);
    if (o == "Decode") benchmark::RegisterBenchmark(limit.c_str(), bm_decode<LimitCodec>);
    if (o == "Encode") benchmark::RegisterBenchmark(limit.c_str(), bm_encode<LimitCodec>);
    if (o == "Serde") benchmark::RegisterBenchmark(limit.c_str(), bm_serde<LimitCodec>);
    if (o == "Handler") benchmark::RegisterBenchmark(limit.c_str(), bm_handler<LimitCodec>);
  }
  return true;
}();

}  // namespace
}  // namespace micro
