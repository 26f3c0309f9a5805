// src/record/schemas/thrift.thrift — the eth record and the eth_getLogs record (record/logs.hpp) as
// Apache Thrift 0.17 structs, for the `thrift`
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
//
// eth_getLogs (LogsRequest, Log, LogsResponse), the same choices:
// - u64 (fromBlock, toBlock, blockNumber) as i64, and u32 (limit, transactionIndex, logIndex) as i32:
//   the same 32 bits, cast to int32_t on encode and back to uint32_t on decode. Every i32 is then some
//   u32 (2^32-1 is -1 on the wire: one byte in the compact protocol), so no value can be out of range;
//   an i64 holding a u32 would cost the binary protocol 4 bytes a field and need a range check.
// - address and transactionHash are `required binary` (absent: missing_field; not 20 / 32 bytes:
//   bad_length); topics a `list<binary>` (each 32 bytes, at most 4: bad_length), the list Thrift has for
//   a repeated value; data `binary` of any length. topics, data, the integers and removed have the
//   default requiredness: absent, they read as empty / 0 / false.
// - LogsResponse is a struct around list<Log> (field 1), not a bare list: a Thrift message body is a
//   struct, and the struct leaves room for fields an answer may grow.
// - Field order is Log's in record/logs.hpp, which is the order DecodeAll folds them in.
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

struct LogsRequest {
  1: i64 fromBlock
  2: i64 toBlock
  3: required binary address
  4: i32 limit
}

struct Log {
  1: required binary address
  2: list<binary> topics
  3: binary data
  4: i64 blockNumber
  5: required binary transactionHash
  6: i32 transactionIndex
  7: i32 logIndex
  8: bool removed
}

struct LogsResponse {
  1: list<Log> logs
}
