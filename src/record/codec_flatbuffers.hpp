// record/codec_flatbuffers.hpp — the `flatbuffers` and `flatbuffers-trusted`
// codecs: the record as FlatBuffers 2.0.8 tables (Debian libflatbuffers-dev;
// schema src/record/schemas/flatbuffers.fbs, compiled by flatc at build time).
// Declares Flatbuffers and FlatbuffersTrusted, what LibraryCodec needs to know
// of them; their State (the builders, the aligned scratch) and the library's
// and generated headers stay in codec_flatbuffers.cpp.
//
// Why this is FlatBuffers' fast path for a known, flat record: decoding a
// FlatBuffer is reading it in place. The generated accessors follow the root
// offset and the vtable to each field, so there is no parse and no object to
// fill; the views point into the input. Before those accessors may touch bytes
// from the network the library's answer is flatbuffers::Verifier (the
// generated Verify(), default options), one pass over what the accessors will
// reach, which `flatbuffers` runs on every decode. Encoding is the generated
// CreateRequest/CreateResponse on a FlatBufferBuilder per direction that
// Clear() resets, keeping its buffer, so neither direction allocates in steady
// state. Both rows write the same bytes: each message size-prefixed
// (FinishSizePrefixed), so the verifier can also tell a truncated or extended
// message (see the schema). FlatBuffers reads scalars in place through typed
// pointers, so the input must be aligned to 8 (its largest scalar); an input
// that is not (a body at an odd offset of a connection buffer) is first copied
// into the codec's aligned scratch, which is the only allocation decode can
// make (std::bad_alloc, once, when the scratch grows). Measured alternatives
// are in codec_flatbuffers.cpp.
//
// `flatbuffers-trusted` is the same codec without the verifier: the accessors
// straight on the input, the way FlatBuffers is used on bytes a program wrote
// itself. It may read out of bounds on anything else, so it is for trusted
// input only (kTrustedInputOnly): never served, never fuzzed on raw bytes.
//
// The eth_getLogs record (record/logs.hpp; schema: table LogsResponse { logs:
// [Log] }, table Log with the Account / Hash structs inline, topics [Hash],
// data [ubyte]):
//   Logs/Encode     each Log table built with the generated CreateLog after its
//                   children (topics: CreateVectorOfStructs straight from the
//                   record's 32 × count bytes, one copy; data: CreateVector,
//                   one copy), then the vector of the N offsets (kept in a
//                   reused std::vector), FinishSizePrefixed, on a builder kept
//                   in State and Clear()ed: 0 allocations once it has grown to
//                   the answer.
//   Logs/DecodeAll  the accessors in place over every log; `flatbuffers`
//                   verifies the whole answer first (every Log table, vtable,
//                   vector and struct), `flatbuffers-trusted` does not.
//   Logs/AccessOne  logs()->Get(k): one offset from the vector, one vtable,
//                   the two fields: O(1) on `flatbuffers-trusted`. The verified
//                   row runs the verifier over the whole answer first, so its
//                   AccessOne is O(N) and almost all verification: the honest
//                   price of reading untrusted bytes with this library. The
//                   Verifier's building blocks could check the root, the vector
//                   and table k alone, in O(1), but the library offers no such
//                   verification of a buffer (the generated Verify() walks every
//                   element), and hand-written verification would have to
//                   follow the schema by hand; not the library's path.
//   Logs/ScanField  block_number of every Log through its vtable (verified
//                   first on `flatbuffers`).
// Both rows check what the schema cannot: at most 4 topics (bad_length; a
// topic is 32 bytes by the Hash struct), an absent address or transaction
// hash (missing_field). Figures are in codec_flatbuffers.cpp.
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Flatbuffers : LibraryDefaults {
  static constexpr std::string_view kName = "flatbuffers";
  static constexpr std::string_view kContentType = "application/x-flatbuffers";
  static constexpr std::string_view kEncodePath =
      "generated Create<Table> on a FlatBufferBuilder per direction, Clear()ed and reused; "
      "FinishSizePrefixed";
  static constexpr std::string_view kDecodePath =
      "flatbuffers::Verifier (VerifySizePrefixedBuffer<T>, default options), then the generated accessors "
      "in place";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_flatbuffers.cpp
};

struct FlatbuffersTrusted : LibraryDefaults {
  static constexpr std::string_view kName = "flatbuffers-trusted";
  static constexpr std::string_view kContentType = "application/x-flatbuffers";
  static constexpr std::string_view kEncodePath = Flatbuffers::kEncodePath;
  static constexpr std::string_view kDecodePath =
      "the generated accessors in place (GetSizePrefixedRoot<T>), no verifier: trusted input only";
  static constexpr bool kTrustedInputOnly = true;
  static constexpr bool kHasLogs = true;
  struct State;  // codec_flatbuffers.cpp
};

using FlatbuffersCodec = LibraryCodec<Flatbuffers>;
using FlatbuffersTrustedCodec = LibraryCodec<FlatbuffersTrusted>;
extern template class LibraryCodec<Flatbuffers>;
extern template class LibraryCodec<FlatbuffersTrusted>;

}  // namespace record
