// record/codec_protobuf.hpp — the `protobuf` and `protobuf-arena` codecs: the
// record as Protocol Buffers (proto3) through protobuf 3.21 (Debian
// libprotobuf-dev, protoc from protobuf-compiler), on the messages protoc
// generates at build time from schemas/protobuf.proto (see its comment for
// the type choices). Declares Protobuf and ProtobufArena, what LibraryCodec
// needs to know of them; their States (the messages, arenas and output
// buffers) and protobuf's headers stay in codec_protobuf.cpp.
//
// Why this is protobuf's fast path for a known, flat record: the generated
// message's own parser (ParseFromArray, the table-driven _InternalParse
// protoc writes for optimize_for = SPEED) and serializer are what the library
// offers; reflection, the text and JSON formats and the CodedStream APIs all
// sit on top of them or are slower. Encoding calls ByteSizeLong() once, sizes
// a reused buffer, then SerializeWithCachedSizesToArray() (SerializeToArray
// would need the size first anyway, and then computes it again).
//   protobuf:       one message per direction and operation kept in State and
//                   reused: ParseFromArray Clear()s it (strings keep their
//                   capacity), so decode and encode allocate nothing in steady
//                   state.
//   protobuf-arena: the messages are created per operation on a
//                   google::protobuf::Arena that is Reset() first, whose
//                   initial block is an array in State (ArenaOptions::
//                   initial_block), so the arena itself never calls malloc. The
//                   byte fields still do: protobuf 3.21 holds a `bytes` field as
//                   a std::string (ArenaStringPtr), which the arena places but
//                   whose characters past the 15-byte small-string buffer come
//                   from std::allocator — the 20-byte account and the 32-byte
//                   hash cost one allocation per message built.
// The bytes views point into the decoded message's std::string: valid until
// the next decode on this codec object.
//
// The eth_getLogs record (record/logs.hpp; schema: zapbench.LogsRequest,
// LogsResponse { repeated Log logs }), the same paths:
//   Logs/Encode     the N logs filled into a LogsResponse, serialized as above.
//                   protobuf: the State's, Clear()ed first: a repeated field
//                   keeps the Logs it cleared and Add() hands them back, their
//                   strings (and the topics' strings) keep their capacity, so
//                   the same answer refills with 0 allocations. protobuf-arena:
//                   a fresh LogsResponse per op on an arena of its own whose
//                   one block grows once to the largest answer (Reset() frees
//                   the blocks an arena mallocs past its first, so a spilling
//                   arena mallocs them again every op: ~44 per answer of 1 000
//                   logs). The strings still allocate: one per bytes value past
//                   libstdc++'s 15-byte small-string buffer (address, hash,
//                   each topic, most data: 5.85 per log of the sample).
//   Logs/DecodeAll  ParseFromArray of the whole answer into the State's
//                   LogsResponse (protobuf) or a fresh one on the arena, then
//                   every field of every log; lengths and presence checked
//                   (address 20, hash 32, each topic 32, at most 4 topics).
//   Logs/AccessOne  the same ParseFromArray, then logs(k). The generated API
//                   reads a message whole: `logs` is a repeated field of
//                   length-delimited messages with no index, so log k costs
//                   parsing all N (skipping logs by hand with CodedInputStream
//                   would still read every tag and length before k, and is not
//                   how a protobuf user reads a message). That is the point of
//                   the measurement: O(N) for one field.
//   Logs/ScanField  ParseFromArray, then block_number of every log: O(N), all
//                   of the parse.
// Figures and the measured alternatives are in codec_protobuf.cpp.
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Protobuf : LibraryDefaults {
  static constexpr std::string_view kName = "protobuf";
  static constexpr std::string_view kContentType = "application/x-protobuf";
  static constexpr std::string_view kEncodePath =
      "generated message per direction, reused; ByteSizeLong + SerializeWithCachedSizesToArray into a "
      "reused buffer";
  static constexpr std::string_view kDecodePath =
      "generated message per direction, reused: ParseFromArray (clears, keeps string capacity)";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_protobuf.cpp
};

struct ProtobufArena : LibraryDefaults {
  static constexpr std::string_view kName = "protobuf-arena";
  static constexpr std::string_view kContentType = "application/x-protobuf";
  static constexpr std::string_view kEncodePath =
      "Arena::CreateMessage per op on an arena Reset() per op (initial block in State); ByteSizeLong + "
      "SerializeWithCachedSizesToArray into a reused buffer";
  static constexpr std::string_view kDecodePath =
      "Arena::CreateMessage per op on an arena Reset() per op (initial block in State); ParseFromArray";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_protobuf.cpp
};

using ProtobufCodec = LibraryCodec<Protobuf>;
using ProtobufArenaCodec = LibraryCodec<ProtobufArena>;
extern template class LibraryCodec<Protobuf>;
extern template class LibraryCodec<ProtobufArena>;

}  // namespace record
