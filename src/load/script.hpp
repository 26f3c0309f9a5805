// load/script.hpp — what a loader thread says and what it must hear back:
// the request of the scenario (hello, rpc, logs or the floor's bytes) built
// onto a connection's output through the wire policy W (wire/client_wires.hpp),
// and the check of every answer's body (hello's "ok", the rpc answer's id,
// balance, nonce and whole hash, the logs answer's digest). Built once per
// thread; nothing here allocates per request.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "load/engine.hpp"
#include "net/buffer.hpp"
#include "record/logs.hpp"
#include "record/record.hpp"
#include "record/registry.hpp"
#include "wire/zap_rpc.hpp"

namespace load {

template <class W>
class Script {
 public:
  // expect_logs: the digest every logs answer must give (run_with computes it once).
  Script(const Options& opt, W& wire, const record::LogsDigest& expect_logs)
      : scenario_(opt.scenario), expect_logs_(expect_logs) {
    if (W::kRawBytes || opt.scenario == Scenario::hello) {
      // Every hello or floor request is the same bytes: built once, copied
      // per send (its PromiseID patched on a multiplexed wire).
      fixed(wire, "GET", "/health", {});
      return;
    }
    const record::CodecInfo& codec = body_codec(opt);
    codec_ = codec.make();
    content_type_ = codec.content_type;
    if (opt.scenario == Scenario::rpc) {
      const record::Request r = record::sample_request();
      expect_balance_ = record::balance_of(r.block, r.method.size(), r.account[0]);
    } else {
      // Every logs request is the same bytes (no id: the answer depends on
      // the request only), built once (PromiseID 0, patched per send on a
      // multiplexed wire); the digest every answer must give is computed
      // once, from the logical values (run() made the set).
      fixed(wire, "POST", "/logs", codec_->encode_logs_request(record::sample_logs_request(opt.logs)));
    }
  }

  // Appends the request of call `id` to out. promise: the call's sequence on
  // its connection, the PromiseID a multiplexed wire sends (the in-order
  // wires ignore it).
  void append(W& wire, net::Buffer& out, std::uint64_t id, std::uint32_t promise, typename W::State& state) {
    if (fixed_request_) {
      if constexpr (W::kFixedBytes) {
        const auto bytes = fixed_bytes_.readable();
        std::uint8_t* at = out.prepare(bytes.size());
        std::memcpy(at, bytes.data(), bytes.size());
        if constexpr (W::kMultiplexed) wire::zaprpc::patch_promise(at, promise);
        out.commit(bytes.size());
      } else {
        wire.append_request(out, fixed_method_, fixed_target_, content_type_, fixed_body_, promise, state);
      }
      return;
    }
    record::Request r = record::sample_request();
    r.id = id;
    wire.append_request(out, "POST", "/rpc", content_type_, codec_->encode_request(r), promise, state);
  }

  // Whether body (of the given content type) is the right answer to call `id`.
  bool valid(record::Bytes body, std::string_view content_type, std::uint64_t id) {
    if (scenario_ == Scenario::hello) return body.size() == 2 && body[0] == 'o' && body[1] == 'k';
    if (scenario_ == Scenario::logs) {
      // Every field of every log, read with the codec and folded (the body
      // lies in the connection's input, whose padding the decoders may read).
      // A wire without content types (ZAP-RPC) named the codec of the answer
      // with the call's method ordinal.
      if constexpr (W::kContentType)
        if (content_type != content_type_) return false;
      record::LogsDigest d;
      return codec_->logs_decode_all(body, d) == record::DecodeError::ok && d == expect_logs_;
    }
    record::ResponseView v;
    if (codec_->decode_response(body, v) != record::DecodeError::ok) return false;
    if (v.id != id || v.balance != expect_balance_ || v.nonce != record::kSampleNonce) return false;
    // The whole hash, not only what the charitable JSON decode checks.
    if (v.block_hash_form == record::Form::raw)
      return v.block_hash.size() == record::kHashBytes &&
             std::memcmp(v.block_hash.data(), record::kSampleHash.data(), record::kHashBytes) == 0;
    record::Hash h;
    return record::hex::decode_all(v.block_hash, h) && h == record::kSampleHash;
  }

 private:
  // Every request of the scenario is the same (hello, logs, floor): on a wire
  // of byte strings built once into fixed_bytes_ and copied per send; else
  // (HTTP/2) kept as its parts and submitted per send.
  void fixed(W& wire, std::string_view method, std::string_view target, record::Bytes body) {
    fixed_request_ = true;
    if constexpr (W::kFixedBytes) {
      typename W::State none;
      wire.append_request(fixed_bytes_, method, target, content_type_, body, 0, none);
    } else {
      fixed_method_ = method;
      fixed_target_ = target;
      fixed_body_.assign(body.begin(), body.end());
    }
  }

  Scenario scenario_;
  const record::LogsDigest expect_logs_;
  std::unique_ptr<record::AnyCodec> codec_;
  std::string_view content_type_;
  std::uint64_t expect_balance_ = 0;
  bool fixed_request_ = false;                    // every request is the same (hello, logs, floor)
  net::Buffer fixed_bytes_{256};                  // that request, ready to send (kFixedBytes)
  std::string_view fixed_method_, fixed_target_;  // its parts (not kFixedBytes)
  std::vector<std::uint8_t> fixed_body_;
};

}  // namespace load
