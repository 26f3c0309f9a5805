// record/codec_msgpack.hpp — the `msgpack` codec: the eth record and eth_getLogs as MessagePack through
// msgpack-c's C++ library, msgpack-cxx 4.1.3 (Debian libmsgpack-cxx-dev, header-only, built with
// MSGPACK_NO_BOOST). Declares Msgpack, what LibraryCodec needs to know of it; its State (packer
// buffers, the parsers and their visitors) and the library's headers stay in codec_msgpack.cpp.
//
// Wire shape: a request is the array [id, block, method, account], a response [id, balance, nonce,
// blockHash] — integers in MessagePack's smallest integer format, method a `str`, account/blockHash
// a `bin` (bin 8) of exactly 20 / 32 bytes. An array, not a map keyed like the JSON: it is what
// msgpack-c itself writes for a record (MSGPACK_DEFINE packs a class as an array of its members; a
// map is the opt-in MSGPACK_DEFINE_MAP), the smaller message (the samples: 44 / 46 bytes, as a map 68 / 73)
// and the least work, positional like ZAP. The issue asks for each library's fastest idiomatic path.
//
// Encoding: msgpack::packer over one msgpack::sbuffer per direction, clear()ed and reused: no
// allocation in steady state. Decoding: msgpack-c's visitor API (msgpack::v2 "parser with a visitor",
// wiki page v2_0_cpp_visitor), the layer under its object model: a record visitor reads the four
// values straight into the view (method and the byte field are views, no msgpack::object and no
// zone). The one-shot msgpack::parse(data, len, off, visitor) builds a fresh parse context per
// call whose container stack is a std::vector that reserves MSGPACK_EMBED_STACK_SIZE entries
// (1 allocation per decode, visible in the library's header), so the codec keeps one streaming
// msgpack::parser (the same context, with the same visitor) per direction for its lifetime: the
// input is copied into the parser's own buffer (reserve_buffer/buffer_consumed, a few dozen bytes)
// and parsed there, with no allocation in steady state; views point into that buffer. Measured
// alternatives are in codec_msgpack.cpp.
//
// Contract (docs/fairness.md): not an array → wrong_type; an array of fewer than 4 → missing_field
// (the trailing byte field is absent; msgpack-c's own MSGPACK_DEFINE leaves trailing members
// absent the same way); more than 4 → wrong_type; an element of the wrong MessagePack type (a
// negative or float integer, a bin method, a str account, a nested container) → wrong_type; nil for
// the byte field → missing_field; a byte field of the wrong size → bad_length; bytes after the
// array → trailing; truncated or malformed (0xc1, an oversized ext) → syntax. No exception leaves
// decode but std::bad_alloc (a parser buffer grown for a larger input).
//
// eth_getLogs (record/logs.hpp), the same conventions: positional arrays, integers in the smallest
// format, byte fields as `bin` (bin 8; bin 16 past 255 bytes of data).
//   LogsRequest   [fromBlock uint, toBlock uint, address bin 20, limit uint ≤ 2^32-1]
//   answer        [log, …]: an array of N logs (fixarray, array 16 past 15, array 32 past 65535), each
//   log           [address bin 20, topics [bin 32, …] (0–4), data bin, blockNumber uint,
//                  transactionHash bin 32, transactionIndex uint ≤ 2^32-1, logIndex uint ≤ 2^32-1,
//                  removed bool]
// (~219 bytes a log of the sample: 219 KB for N = 1000, ZAP's 231 KB). Errors as above, and: a log not an
// array of 8 (fewer → missing_field, more or not an array → wrong_type); topics not an array, or a topic not
// a bin → wrong_type; more than 4 topics, a topic not 32 bytes, an address not 20, a hash not 32 →
// bad_length; a u32 field past 2^32-1 → integer_overflow; nil for a byte field → missing_field.
// Operations:
//   Encode     msgpack::packer calls into a reused sbuffer, one pass (0 allocations once it has grown).
//   DecodeAll  one parse with the logs visitor on the reused msgpack::parser: each value folded into
//              the digest as the parser reports it (the wire's order is the digest's), nothing built.
//   AccessOne  the same parse, which must walk every value of logs 0..k-1 (MessagePack carries no
//              sizes of containers in bytes, so there is nothing to skip by: O(k)); it keeps log k's
//              logIndex and transactionHash and stops the parse at the end of log k (the rest of the
//              answer is not read, so not checked).
//   ScanField  the same parse, adding blockNumber (every value still parsed: O(N)).
// All three copy the input into the parser's buffer first (as for the record); see codec_msgpack.cpp
// for the figures of msgpack::parse on the input in place (1 allocation per call).
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Msgpack : LibraryDefaults {
  static constexpr std::string_view kName = "msgpack";
  static constexpr std::string_view kContentType = "application/msgpack";
  static constexpr std::string_view kEncodePath =
      "msgpack::packer into one msgpack::sbuffer per direction, clear()ed and reused; array of 4, bin 20/32";
  static constexpr std::string_view kDecodePath =
      "msgpack::parser (reused, one per direction) with a record visitor: no msgpack::object, no zone";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_msgpack.cpp
};

using MsgpackCodec = LibraryCodec<Msgpack>;
extern template class LibraryCodec<Msgpack>;

}  // namespace record
