// record/codec_capnp.hpp — the `capnp` and `capnp-packed` codecs: the record as a Cap'n Proto
// message through Cap'n Proto 0.9.2 (Debian libcapnp-dev; schema src/record/schemas/capnp.capnp,
// compiled at build time by the packaged `capnp compile -oc++`). Declares Capnp and CapnpPacked, what
// LibraryCodec needs to know of them; their State (the builders' first segments, output and
// aligned-copy buffers, the packed reader's scratch) and Cap'n Proto's headers stay in
// codec_capnp.cpp.
//
// Why this is Cap'n Proto's fast path for a known, flat record:
//   - encode: a capnp::MallocMessageBuilder per op over a first segment the State owns (the
//     constructor the library documents "for optimization when building lots of small messages in a
//     tight loop"; its destructor re-zeroes what was used), sized so the message is always one
//     segment, then capnp::writeMessage into a kj::ArrayOutputStream over a reused buffer: the
//     standard framing (segment table + segment) with no allocation. messageToFlatArray would
//     allocate its kj::Array per message.
//   - decode (`capnp`): capnp::FlatArrayMessageReader, the zero-copy reader, with its DEFAULT
//     ReaderOptions (traversal limit 8 Mi words, nesting 64): every pointer is bounds-checked as it is
//     followed. It needs word-aligned input: an input that is not 8-byte aligned is first copied into
//     a reused aligned State buffer (check-then-copy: aligned input is read in place); a length that
//     is not a multiple of 8 is syntax.
//   - `capnp-packed`: the same message in capnp's packed encoding (zero bytes deflated), written by
//     capnp::writePackedMessage into the reused buffer and read by capnp::PackedMessageReader over a
//     kj::ArrayInputStream with a reused scratch space (the unpacked words land there).
// Malformed input is reported by Cap'n Proto with kj::Exception (exceptions are enabled): decode
// catches it and answers syntax. Bytes after the message are `trailing`. account / blockHash are Data
// (capnp has no fixed-size arrays): a null pointer is missing_field, another length bad_length.
// Measured alternatives are in codec_capnp.cpp.
//
// The eth_getLogs record (record/logs.hpp; schema: LogsResponse { logs: List(Log) }, Log a struct of
// 3 data words and 4 pointers, Data fields, topics a List(Data)):
//   - Logs/Encode: the same builder over a first segment of its own sized exactly to the answer
//     (logs_words in codec_capnp.cpp counts the words the builder lays out), so the answer is always
//     one segment and no segment is ever malloc'ed; the segment grows once to the largest answer
//     (2.8 MB at N = 10 000). writeMessage's copy of the segment into the output (a memcpy of the
//     answer) and the builder's re-zeroing of the segment on destruction are part of each encode.
//   - reads: the readers above with their default ReaderOptions. The traversal limit (8 Mi words,
//     64 MiB) is counted once per word read, and the largest answer the generator writes (kMaxLogs,
//     100 000 logs) is about 3.3 Mi words, so the default holds; DecodeAll takes the list once (each
//     getLogs() counts the whole list again).
//   - Logs/AccessOne: logs[k], the list's struct k at k × 7 words in the list's body, then its two
//     fields: O(1) on `capnp`. `capnp-packed` must first unpack the whole message into its scratch
//     (packed words say nothing of where word k is until every word before it is unpacked): O(N).
//     The packed scratch grows once to the largest answer, up to the traversal limit.
//   - Logs/ScanField: blockNumber of every struct of the list, in place (`capnp`), after unpacking
//     (`capnp-packed`).
// Every read checks what capnp cannot: address 20 bytes and transaction hash 32 (bad_length; absent:
// missing_field), each topic 32 bytes and at most 4 of them (bad_length).
#pragma once

#include <string_view>

#include "record/library_codec.hpp"

namespace record {

struct Capnp : LibraryDefaults {
  static constexpr std::string_view kName = "capnp";
  static constexpr std::string_view kContentType = "application/capnp";
  static constexpr std::string_view kEncodePath =
      "capnp::MallocMessageBuilder on a reused first segment, capnp::writeMessage into a reused "
      "kj::ArrayOutputStream";
  static constexpr std::string_view kDecodePath =
      "capnp::FlatArrayMessageReader (default ReaderOptions) in place; misaligned input copied to a reused "
      "aligned buffer";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_capnp.cpp
};

struct CapnpPacked : LibraryDefaults {
  static constexpr std::string_view kName = "capnp-packed";
  static constexpr std::string_view kContentType = "application/capnp-packed";
  static constexpr std::string_view kEncodePath =
      "capnp::MallocMessageBuilder on a reused first segment, capnp::writePackedMessage into a reused "
      "kj::ArrayOutputStream";
  static constexpr std::string_view kDecodePath =
      "capnp::PackedMessageReader (default ReaderOptions) over kj::ArrayInputStream, reused scratch space";
  static constexpr bool kHasLogs = true;
  struct State;  // codec_capnp.cpp
};

using CapnpCodec = LibraryCodec<Capnp>;
using CapnpPackedCodec = LibraryCodec<CapnpPacked>;
extern template class LibraryCodec<Capnp>;
extern template class LibraryCodec<CapnpPacked>;

}  // namespace record
