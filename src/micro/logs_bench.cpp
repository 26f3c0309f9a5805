// micro/logs_bench.cpp — cost against work: the eth_getLogs record
// (record/logs.hpp) at N ∈ kLogCounts logs, on every codec with the record:
//   Logs/Encode/<codec>/N     the server builds the answer of N logs
//   Logs/DecodeAll/<codec>/N  every field of every log, folded into the digest
//   Logs/AccessOne/<codec>/N  logIndex and transactionHash of log N/2 only
//   Logs/ScanField/<codec>/N  the sum of blockNumber over every log
// and the machine's limits on the same work:
//   Logs/Copy/memcpy/N        memcpy of ZAP's answer of N logs (its wire bytes)
//   Logs/ScanField/structs/N  the ScanField loop over N plain C++ structs
// Each reports ns/op, wire_bytes (the answer), bytes_per_second (of wire
// bytes), logs (N) and allocations per op. Every benchmark checks its answer
// against the reference from the logical values before timing and skips with
// an error on a mismatch, so a fast wrong codec never reaches a table.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>
#include <vector>

#include "micro/counters.hpp"
#include "micro/padded.hpp"
#include "record/codec_zap.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"

namespace micro {
namespace {

using record::DecodeError;

constexpr int kLogCounts[] = {1, 10, 100, 1000, 10000};

// The N logs every codec encodes: the sample request's (one generation per N
// per process, outside every timed loop).
const record::LogSet& logs_of(std::uint32_t n) {
  static std::vector<std::unique_ptr<record::LogSet>> sets;
  for (const auto& s : sets)
    if (s->request.limit == n) return *s;
  auto s = std::make_unique<record::LogSet>();
  record::generate(record::sample_logs_request(n), *s);
  sets.push_back(std::move(s));
  return *sets.back();
}

record::Bytes opaque(const Padded& p) {
  const std::uint8_t* d = p.data();
  benchmark::DoNotOptimize(d);
  return {d, p.size()};
}

void sink(record::Bytes b) {
  benchmark::DoNotOptimize(b.data());
  benchmark::DoNotOptimize(b.size());
  benchmark::ClobberMemory();
}

// What every Logs benchmark reports besides its time.
void report(benchmark::State& state, AllocMeter& meter, std::size_t wire_bytes, std::uint32_t n) {
  meter.report(wire_bytes);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * wire_bytes));
  state.counters["logs"] = benchmark::Counter(static_cast<double>(n));
}

template <class C>
void bm_encode(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const record::LogSet& set = logs_of(n);
  C codec;
  {
    const Padded wire(codec.encode_logs(set.logs));
    record::LogsDigest d;
    if (codec.logs_decode_all(wire.bytes(), d) != DecodeError::ok || d != record::digest_of(set.logs))
      return state.SkipWithError("encode does not round-trip the logs");
  }
  std::span<const record::Log> logs = set.logs;
  std::size_t wire = 0;
  AllocMeter meter(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(logs);
    const record::Bytes out = codec.encode_logs(logs);
    sink(out);
    wire = out.size();
  }
  report(state, meter, wire, n);
}

// The three read operations, one shape: Read::run(codec, in, k, out) does the
// op into a fresh Answer, checked against Read::want before timing.
struct DecodeAllOp {
  using Answer = record::LogsDigest;
  static constexpr const char* kWrong = "DecodeAll does not give the logs' digest";
  static DecodeError run(auto& codec, record::Bytes in, std::uint32_t, Answer& out) {
    return codec.logs_decode_all(in, out);
  }
  static Answer want(const record::LogSet& set, std::uint32_t) { return record::digest_of(set.logs); }
};
struct AccessOneOp {
  using Answer = record::LogPick;
  static constexpr const char* kWrong = "AccessOne does not give log N/2";
  static DecodeError run(auto& codec, record::Bytes in, std::uint32_t k, Answer& out) {
    return codec.logs_access_one(in, k, out);
  }
  static Answer want(const record::LogSet& set, std::uint32_t k) { return record::pick_of(set.logs[k]); }
};
struct ScanFieldOp {
  using Answer = record::LogsScan;
  static constexpr const char* kWrong = "ScanField does not give the sum of blockNumber";
  static DecodeError run(auto& codec, record::Bytes in, std::uint32_t, Answer& out) {
    return codec.logs_scan(in, out);
  }
  static Answer want(const record::LogSet& set, std::uint32_t) { return record::scan_of(set.logs); }
};

template <class C, class Read>
void bm_read(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const record::LogSet& set = logs_of(n);
  const std::uint32_t k = record::middle_log(n);
  C codec;
  const Padded wire(codec.encode_logs(set.logs));
  {
    typename Read::Answer out;
    if (Read::run(codec, wire.bytes(), k, out) != DecodeError::ok || out != Read::want(set, k))
      return state.SkipWithError(Read::kWrong);
  }
  AllocMeter meter(state);
  for (auto _ : state) {
    typename Read::Answer out;
    DecodeError e = Read::run(codec, opaque(wire), k, out);
    benchmark::DoNotOptimize(e);
    benchmark::DoNotOptimize(out);
  }
  report(state, meter, wire.size(), n);
}

// The limit of Encode and DecodeAll: copying ZAP's answer, byte for byte.
void bm_copy(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  record::ZapCodec zap;
  const Padded wire(zap.encode_logs(logs_of(n).logs));
  std::vector<std::uint8_t> out(wire.size());
  AllocMeter meter(state);
  for (auto _ : state) {
    std::memcpy(out.data(), opaque(wire).data(), wire.size());
    sink(out);
  }
  report(state, meter, wire.size(), n);
}

// The limit of ScanField: the same sum over the logs as plain structs (the
// wire bytes reported are ZAP's answer's, for the same GB/s scale).
void bm_scan_structs(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const record::LogSet& set = logs_of(n);
  record::ZapCodec zap;
  const std::size_t wire = zap.encode_logs(set.logs).size();
  const record::Log* logs = set.logs.data();
  AllocMeter meter(state);
  for (auto _ : state) {
    benchmark::DoNotOptimize(logs);
    record::LogsScan scan;
    for (std::uint32_t i = 0; i < n; ++i) scan.block_sum += logs[i].block_number;
    scan.count = n;
    benchmark::DoNotOptimize(scan);
  }
  report(state, meter, wire, n);
}

template <class F>
void register_counts(const std::string& name, F fn) {
  benchmark::internal::Benchmark* b = benchmark::RegisterBenchmark(name.c_str(), fn);
  for (int n : kLogCounts) b->Arg(n);
}

// Registered at static-initialisation time: per op, the codecs in table order.
const bool registered = [] {
  const auto each_codec = [](const char* op, auto bm) {
    record::AvailableCodecs::for_each([&]<class C>() {
      register_counts(std::string(op) + "/" + std::string(C::kName), bm.template operator()<C>());
    });
  };
  each_codec("Logs/Encode", []<class C>() { return bm_encode<C>; });
  each_codec("Logs/DecodeAll", []<class C>() { return bm_read<C, DecodeAllOp>; });
  each_codec("Logs/AccessOne", []<class C>() { return bm_read<C, AccessOneOp>; });
  each_codec("Logs/ScanField", []<class C>() { return bm_read<C, ScanFieldOp>; });
  register_counts("Logs/ScanField/structs", bm_scan_structs);
  register_counts("Logs/Copy/memcpy", bm_copy);
  return true;
}();

}  // namespace
}  // namespace micro
