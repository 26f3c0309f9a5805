// micro/zap_runtime_bench.cpp — benchmarks of the ZAP runtime itself on the
// eth record: decode request + response (all eight fields into a sink) and
// encode both with reused and with fresh builders. Each checks its output
// before timing and skips with an error on a mismatch.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "micro/counters.hpp"
#include "record/eth.hpp"
#include "zap/zap.hpp"

namespace {

using record::ReqZap;
using record::RespZap;

// What a decode hands its caller: scalars by value, text and bytes as views.
struct Sink {
  std::uint64_t id, block, balance, nonce, resp_id;
  std::string_view method;
  zap::Bytes account, block_hash;
};

zap::Bytes encode_req(zap::Builder& b) {
  b.reset();
  zap::ObjectBuilder o = b.start_object(ReqZap::S::size_bytes);
  o.set(ReqZap::id, record::kSampleId);
  o.set(ReqZap::block, record::kSampleBlock);
  o.set(ReqZap::method, record::kSampleMethod);
  o.set(ReqZap::account, zap::Bytes{record::kSampleAccount});
  o.finish_as_root();
  return b.finish();
}

zap::Bytes encode_resp(zap::Builder& b) {
  b.reset();
  zap::ObjectBuilder o = b.start_object(RespZap::S::size_bytes);
  o.set(RespZap::id, record::kSampleId);
  o.set(RespZap::balance, record::kSampleBalance);
  o.set(RespZap::nonce, record::kSampleNonce);
  o.set(RespZap::block_hash, zap::Bytes{record::kSampleHash});
  o.finish_as_root();
  return b.finish();
}

// Decodes both messages into s; false on a parse error.
inline bool decode(zap::Bytes req, zap::Bytes resp, Sink& s) {
  const zap::Message::Parsed rq = zap::Message::parse(req);
  const zap::Message::Parsed rs = zap::Message::parse(resp);
  if (!rq.ok() || !rs.ok()) return false;
  const zap::Object q = rq.message.root();
  const zap::Object r = rs.message.root();
  s.id = q.get(ReqZap::id);
  s.block = q.get(ReqZap::block);
  s.method = q.get(ReqZap::method);
  s.account = q.get(ReqZap::account);
  s.resp_id = r.get(RespZap::id);
  s.balance = r.get(RespZap::balance);
  s.nonce = r.get(RespZap::nonce);
  s.block_hash = r.get(RespZap::block_hash);
  return true;
}

bool matches_sample(const Sink& s) {
  return s.id == record::kSampleId && s.block == record::kSampleBlock && s.method == record::kSampleMethod &&
         std::ranges::equal(s.account, record::kSampleAccount) && s.resp_id == record::kSampleId &&
         s.balance == record::kSampleBalance && s.nonce == record::kSampleNonce &&
         std::ranges::equal(s.block_hash, record::kSampleHash);
}

void BM_Decode_zap(benchmark::State& state) {
  zap::Builder qb, rb;
  const zap::Bytes q = encode_req(qb), r = encode_resp(rb);
  const std::vector<std::uint8_t> req(q.begin(), q.end()), resp(r.begin(), r.end());
  Sink s{};
  if (!decode(req, resp, s) || !matches_sample(s)) return state.SkipWithError("decode does not match the sample");
  micro::AllocMeter meter(state);
  for (auto _ : state) {
    // Hide the buffers from the optimiser so the parse is redone every time.
    const std::uint8_t* qp = req.data();
    const std::uint8_t* rp = resp.data();
    benchmark::DoNotOptimize(qp);
    benchmark::DoNotOptimize(rp);
    decode({qp, req.size()}, {rp, resp.size()}, s);
    benchmark::DoNotOptimize(s);
  }
  meter.report(req.size() + resp.size());
}

// The steady state of a server or client: one builder per direction, reused.
void BM_Encode_zap_reused(benchmark::State& state) {
  zap::Builder qb, rb;
  {
    Sink s{};
    if (!decode(encode_req(qb), encode_resp(rb), s) || !matches_sample(s))
      return state.SkipWithError("encode does not round-trip the sample");
  }
  std::size_t wire = 0;
  micro::AllocMeter meter(state);
  for (auto _ : state) {
    zap::Bytes q = encode_req(qb);
    zap::Bytes r = encode_resp(rb);
    benchmark::DoNotOptimize(q.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
    wire = q.size() + r.size();
  }
  meter.report(wire);
}

// What Go's benchmark does: a new builder for every message (its 12 allocs/op).
void BM_Encode_zap_fresh(benchmark::State& state) {
  std::size_t wire = 0;
  micro::AllocMeter meter(state);
  for (auto _ : state) {
    zap::Builder qb(128), rb(128);
    zap::Bytes q = encode_req(qb);
    zap::Bytes r = encode_resp(rb);
    benchmark::DoNotOptimize(q.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::ClobberMemory();
    wire = q.size() + r.size();
  }
  meter.report(wire);
}

}  // namespace

BENCHMARK(BM_Decode_zap)->Name("Decode/zap");
BENCHMARK(BM_Encode_zap_reused)->Name("Encode/zap/reused");
BENCHMARK(BM_Encode_zap_fresh)->Name("Encode/zap/fresh");
