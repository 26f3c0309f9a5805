// record/codec_thrift.hpp — the `thrift` and `thrift-binary` codecs: the eth record and eth_getLogs as
// Apache Thrift 0.17 structs (src/record/schemas/thrift.thrift; Debian libthrift-dev, code generated at build
// time by thrift-compiler) in the compact protocol (TCompactProtocolT) and the binary protocol
// (TBinaryProtocolT). Declares Thrift and ThriftBinary, what LibraryCodec needs to know of them; their State
// (transports, protocols, generated structs) and Thrift's headers stay in codec_thrift.cpp.
//
// Why this is Thrift's fast path for one struct in a memory buffer: the generated code is templated
// (`thrift --gen cpp:templates`), so read<Protocol_>/write<Protocol_> are instantiated on the concrete
// TCompactProtocolT<TMemoryBuffer> / TBinaryProtocolT<TMemoryBuffer>: no call goes through TProtocol's or
// TTransport's virtual interface, and TMemoryBuffer's read and write are inline pointer bumps. Everything is
// built once per codec and reused: an owned TMemoryBuffer per encode direction, rewound with
// resetBuffer(); one reading TMemoryBuffer that observes the input (no copy); the protocols; and one
// generated Request/Response per direction, whose std::string members keep their capacity, so neither
// encode nor decode allocates in steady state. The views point into those structs' strings (the generated
// code reads strings into std::string: a copy the library's struct API cannot avoid).
//
// The variant (`thrift-binary`) changes only the protocol: TBinaryProtocol's fixed-width big-endian
// integers and 4-byte lengths instead of the compact protocol's zigzag varints and field-id deltas.
// Measured alternatives are in codec_thrift.cpp.
//
// eth_getLogs (record/logs.hpp): LogsRequest, Log and LogsResponse (a struct around list<Log>) of the
// schema, whose header says why each type (u32 as the i32 of the same bits, required address and
// transactionHash, topics a list<binary>). Operations, each Thrift's one way with generated structs:
//   Encode     fill the reused gen::LogsResponse from the logs (its Logs, strings and topic lists keep
//              their capacity, so the copies allocate nothing in steady state), then its generated
//              write() on the reused buffer: 0 allocations.
//   DecodeAll  the generated read() of the whole LogsResponse into a reused struct, then the checks
//              (address 20, hash 32, ≤ 4 topics of 32 → bad_length) and the fold from its fields.
//   AccessOne  the same whole read, then log k's fields: O(N) (the idiomatic reader has no random
//              access; TProtocol::skip over logs 0..k-1 is measured in codec_thrift.cpp).
//   ScanField  the same whole read, then the sum of blockNumber.
// The read allocates, and that is the generated code's: it clear()s the list and resize()s it to the
// announced count, so every gen::Log is built anew per decode, with an allocation for each string
// past libstdc++'s 15-byte small-string buffer (address, transactionHash, each topic, data past 15
// bytes) and for a non-empty topic list: ~6.8 per log of the sample. Errors: the record's mapping
// (truncated or malformed → syntax, a required field absent → missing_field), the lengths above, and a
// list announcing more logs than the input can hold → syntax (the container limit, codec_thrift.cpp).
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Thrift : LibraryDefaults {
  static constexpr std::string_view kName = "thrift";
  static constexpr std::string_view kContentType = "application/vnd.apache.thrift.compact";
  static constexpr std::string_view kEncodePath =
      "generated write<TCompactProtocolT<TMemoryBuffer>> (cpp:templates), reused struct and buffer";
  static constexpr std::string_view kDecodePath =
      "generated read<TCompactProtocolT<TMemoryBuffer>> (cpp:templates) on the observed input, reused struct";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_thrift.cpp
};

struct ThriftBinary : LibraryDefaults {
  static constexpr std::string_view kName = "thrift-binary";
  static constexpr std::string_view kContentType = "application/vnd.apache.thrift.binary";
  static constexpr std::string_view kEncodePath =
      "generated write<TBinaryProtocolT<TMemoryBuffer>> (cpp:templates), reused struct and buffer";
  static constexpr std::string_view kDecodePath =
      "generated read<TBinaryProtocolT<TMemoryBuffer>> (cpp:templates) on the observed input, reused struct";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_thrift.cpp
};

using ThriftCodec = LibraryCodec<Thrift>;
using ThriftBinaryCodec = LibraryCodec<ThriftBinary>;
extern template class LibraryCodec<Thrift>;
extern template class LibraryCodec<ThriftBinary>;

}  // namespace record
