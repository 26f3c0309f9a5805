# src/record/schemas/capnp.capnp — the eth record as a Cap'n Proto schema, for the `capnp` and
# `capnp-packed` codecs (src/record/codec_capnp.{hpp,cpp}). C++ is generated from it at build time
# (src/record/codec_capnp.cmake runs `capnp compile -oc++`); the interop test hands it to the
# packaged `capnp decode` / `capnp encode` tools.
#
# Type choices, mirroring the record exactly:
#   - the integers are UInt64 (the record's u64), stored inline in the struct's data section;
#   - method is Text (UTF-8 by contract, NUL-terminated on the wire; capnp does not validate UTF-8);
#   - account and blockHash are Data: Cap'n Proto has no fixed-size arrays (lists carry their
#     length), so the decoder checks 20 / 32 bytes itself (bad_length) and an absent (null) pointer is
#     missing_field. A group or struct of UInt64s would fix the size but not carry bytes as bytes.
# Field numbers follow the record's order; the wire layout is capnp's own (data words, then
# pointers), independent of the order the fields are written.
@0xae735e1f4ac2303b;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("zapbench_capnp");

struct Request {
  id @0 :UInt64;
  block @1 :UInt64;
  method @2 :Text;
  account @3 :Data;
}

struct Response {
  id @0 :UInt64;
  balance @1 :UInt64;
  nonce @2 :UInt64;
  blockHash @3 :Data;
}
