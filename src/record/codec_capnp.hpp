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
