// grpc_ref/grpc_ref.hpp — the two commands of `zapbench-grpc`, the grpc++
// reference arm (serve.cpp: the server; call.cpp: the validating client) and
// what they share: the eth_call compute on the generated messages, so the
// server answers exactly what zapbench's /rpc answers for the same request.
#pragma once

#include <grpcpp/support/status.h>

#include <string>

#include "eth.grpc.pb.h"  // generated (CMakeLists.txt): zapbench::Eth, with Request / Response from protobuf.pb.h
#include "record/record.hpp"

namespace grpc_ref {

int cmd_serve(int argc, char** argv);
int cmd_call(int argc, char** argv);

// The gRPC address of a HOST:PORT flag: "" (every interface) as "[::]", an
// IPv6 host in brackets.
std::string grpc_address(const std::string& host, unsigned port);

// /rpc's handler on the generated messages: the protobuf codec's checks
// (record/codec_protobuf.cpp: the account must be 20 bytes; proto3 gives no
// presence, so empty is "missing"), then record::compute, the one compute
// every wire runs. A request that does not decode is INVALID_ARGUMENT with
// the codec's words (docs/spec/http2-grpc.md §2's table).
inline grpc::Status answer(const zapbench::Request& req, zapbench::Response& resp) {
  const std::string& account = req.account();
  if (account.size() != record::kAccountBytes)
    return {grpc::StatusCode::INVALID_ARGUMENT,
            std::string("bad protobuf body: ") +
                std::string(record::describe(account.empty() ? record::DecodeError::missing_field
                                                             : record::DecodeError::bad_length))};
  record::RequestView view;
  view.id = req.id();
  view.block = req.block();
  view.method = req.method();
  view.account = account;
  view.account0 = static_cast<std::uint8_t>(account[0]);
  const record::Response r = record::compute(view);
  resp.set_id(r.id);
  resp.set_balance(r.balance);
  resp.set_nonce(r.nonce);
  // assign() into the message's own string (kept across calls when the
  // message is reused), as the protobuf codec fills it.
  resp.mutable_block_hash()->assign(reinterpret_cast<const char*>(r.block_hash.data()), r.block_hash.size());
  return grpc::Status::OK;
}

}  // namespace grpc_ref
