# src/record/schemas/capnp.capnp — the eth records (record/eth.hpp, record/logs.hpp) as a Cap'n Proto schema, for the `capnp` and
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
#
# The eth_getLogs record (LogsRequest, LogsResponse, Log), the same choices plus:
#   - limit, transactionIndex, logIndex are UInt32, removed is Bool (one bit of the data section);
#   - address and transactionHash are Data, checked for 20 / 32 bytes and presence as above;
#   - topics is List(Data), one Data of 32 bytes per topic, not one Data of 32 × count: it is what
#     the schema means (a list of byte strings, which `capnp decode` prints topic by topic, and which a
#     reader takes topic by topic without slicing), and each topic carries its own length, which the
#     decoder checks (32, else bad_length; at most 4, else bad_length). The cost is one pointer word
#     per topic, and one bounds-checked pointer to follow per topic read. Absent: no topics.
#   - data is Data of any length; absent: no data;
#   - logs is List(Log), a list of structs: capnp lays the N Log structs out inline at one stride
#     (3 data words, 4 pointers), so log k is reached by index in O(1), its variable parts through
#     its pointers.
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

struct LogsRequest {
  fromBlock @0 :UInt64;
  toBlock @1 :UInt64;
  address @2 :Data;  # 20 bytes
  limit @3 :UInt32;
}

struct Log {
  address @0 :Data;  # 20 bytes
  topics @1 :List(Data);  # 0–4, each 32 bytes
  data @2 :Data;
  blockNumber @3 :UInt64;
  transactionHash @4 :Data;  # 32 bytes
  transactionIndex @5 :UInt32;
  logIndex @6 :UInt32;
  removed @7 :Bool;
}

struct LogsResponse {
  logs @0 :List(Log);
}
