// src/record/schemas/thrift.thrift — the eth record as Apache Thrift 0.17 structs, for the `thrift`
// (TCompactProtocol) and `thrift-binary` (TBinaryProtocol) codecs. Compiled at build time by the packaged
// compiler (`thrift --gen cpp:templates`, src/record/codec_thrift.cmake; `--gen py` for the interop test).
//
// Type choices:
// - Thrift has NO unsigned integers: every u64 of the record (id, block, balance, nonce) travels as i64,
//   the same 64 bits, cast to int64_t on encode and back to uint64_t on decode (values past 2^63-1 are
//   negative on the wire; the compact protocol's zigzag varint then makes ~0 one byte).
// - method is `string` (Thrift's UTF-8 text type; C++ carries it as bytes unchecked); account and
//   blockHash are `binary`: Thrift has no fixed-size byte type, so the length (20 / 32) is the codec's
//   check (bad_length).
// - Requiredness: the byte fields are `required`, so a message without one fails the generated read()
//   (TProtocolException INVALID_DATA), which the codec reports as missing_field. The integers and method
//   have the default requiredness ("opt-in, req-out"): always written, read when present, so a message
//   lacking one reads the format's default (0, ""), as the contract allows; `optional` would only add
//   __isset bookkeeping to every encode for the same bytes.
// - Field order is the record's, byte fields last; field ids 1.. in that order.
namespace cpp zapbench.thrift
namespace py zapbench_thrift

struct Request {
  1: i64 id
  2: i64 block
  3: string method
  4: required binary account
}

struct Response {
  1: i64 id
  2: i64 balance
  3: i64 nonce
  4: required binary blockHash
}
