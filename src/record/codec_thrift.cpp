// record/codec_thrift.cpp — Thrift::State and ThriftBinary::State, the thrift codecs' work: the reused
// memory transports and protocols around the generated structs (schemas/thrift.thrift: Request/Response,
// LogsRequest/LogsResponse), the u64 <-> i64 and u32 <-> i32 casts, the logs' length checks and container
// limit, and the mapping of Thrift's exceptions onto the fairness contract's errors. See the header for why.
#include "record/codec_thrift.hpp"

#include <thrift/Thrift.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TTransportException.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>

#include "record/library_codec_impl.hpp"
#include "thrift_types.h"  // generated at build time from schemas/thrift.thrift

namespace record {
namespace {

namespace at = apache::thrift;
using at::protocol::TProtocolException;
using at::transport::TMemoryBuffer;
namespace gen = zapbench::thrift;

// ---- Thrift's side ----------------------------------------------------------------

// The reading transport: a TMemoryBuffer that observes the input in place. TMemoryBuffer's own way,
// resetBuffer(ptr, len, OBSERVE), builds a temporary TMemoryBuffer and swaps it in; in 0.17 that
// temporary's TTransport constructor allocates a fresh TConfiguration (new + shared_ptr control block:
// 2 allocations per decode, measured). observe() sets the same fields as that constructor does for
// OBSERVE (TMemoryBuffer's protected members: buffer, read and write bounds; never the owner), keeping
// this transport's configuration, and restarts the message-size accounting as a new transport would.
class InputBuffer : public TMemoryBuffer {
 public:
  InputBuffer() : TMemoryBuffer(nullptr, 0, TMemoryBuffer::OBSERVE) {}

  void observe(Bytes in) noexcept {
    // OBSERVE never writes through the pointer; TMemoryBuffer takes it non-const only.
    auto* p = const_cast<std::uint8_t*>(in.data());
    const auto n = static_cast<std::uint32_t>(in.size());
    buffer_ = p;
    bufferSize_ = n;
    rBase_ = p;
    rBound_ = p + n;
    wBase_ = p + n;  // the end of the readable bytes
    wBound_ = p + n;
    resetConsumedMessageSize();
  }
};

// A string or container can never be longer than the message that carries it, so every length the
// protocol reads is limited to the input's size: garbage cannot make the decoder allocate more than it
// was given (both protocols' limits default to 0, unlimited: TCompactProtocol reallocs its string buffer
// to the announced length before it reads, TBinaryProtocol resizes the string when the transport
// cannot lend the bytes). The inputs the server accepts are at most 1 MiB (server::Limits).
constexpr std::int32_t limit_for(std::size_t input_bytes) noexcept {
  // 0 would mean "unlimited"; an empty input holds no string anyway.
  return input_bytes == 0 ? 1 : static_cast<std::int32_t>(std::min<std::size_t>(input_bytes, INT32_MAX));
}

// A logs answer's containers: the generated read resize()s a list to its announced count before it
// reads an element, and a gen::Log is ~150 bytes of C++ for as little as 1 byte of wire (an empty
// struct), so a count limited to the input's size would let 1 MiB of garbage allocate ~150 MiB. Every
// Log that can decode holds its two required byte fields: at least kMinLogWireBytes on either protocol
// (compact: 1-byte field header, 1-byte length, 20 bytes; the same and 32; the field stop; binary: 7 + 20,
// 7 + 32, 1), so no answer that decodes has more logs than input / kMinLogWireBytes. The limit is one for
// every list the read meets, topics included: kMinContainerLimit keeps a few too many topics (5, 10 …)
// a bad_length, as the contract says, rather than the limit's syntax. Garbage then costs at most
// ~3× its size, or ~10 KB.
constexpr std::size_t kMinLogWireBytes = 57;
constexpr std::size_t kMinContainerLimit = 64;
constexpr std::int32_t logs_container_limit(std::size_t input_bytes) noexcept {
  return static_cast<std::int32_t>(
      std::min<std::size_t>(std::max(input_bytes / kMinLogWireBytes, kMinContainerLimit), INT32_MAX));
}

// The reading protocols, with what the library leaves no public way to do: set the limits per input
// (TCompactProtocolT takes them in its constructor only), and recover after an exception. The compact
// protocol keeps a stack of field ids, pushed by readStructBegin and popped by readStructEnd; a read
// that throws leaves its pushes behind (one per struct open at the throw), so without recover() every
// malformed input would grow that stack for good.
class CompactReader : public at::protocol::TCompactProtocolT<TMemoryBuffer> {
 public:
  using Base = at::protocol::TCompactProtocolT<TMemoryBuffer>;
  explicit CompactReader(std::shared_ptr<TMemoryBuffer> in) : Base(std::move(in), 1, 1) {}
  void limit(std::int32_t string_bytes, std::int32_t container_elements) noexcept {
    string_limit_ = string_bytes;
    container_limit_ = container_elements;
  }
  void recover() noexcept {
    while (!lastField_.empty()) lastField_.pop();
    lastFieldId_ = 0;
    boolValue_.hasBoolValue = false;
  }
};

class BinaryReader : public at::protocol::TBinaryProtocolT<TMemoryBuffer> {
 public:
  using Base = at::protocol::TBinaryProtocolT<TMemoryBuffer>;
  // Not strict: strictness concerns message headers only, and a record body is a bare struct.
  explicit BinaryReader(std::shared_ptr<TMemoryBuffer> in) : Base(std::move(in), 1, 1, false, true) {}
  void limit(std::int32_t string_bytes, std::int32_t container_elements) noexcept {
    setStringSizeLimit(string_bytes);
    setContainerSizeLimit(container_elements);
  }
  void recover() noexcept {}  // TBinaryProtocol keeps no state between fields
};

// Thrift's exceptions as the contract's errors. Truncation is TTransportException (END_OF_FILE);
// everything malformed is TProtocolException (a varint over 10 bytes, an unknown type in a skipped
// field, a negative or over-limit size, nesting past the recursion limit) or, for a compact type nibble
// it does not know, a bare TException. The generated read() throws TProtocolException(INVALID_DATA)
// with no message when a `required` field (the byte fields) is absent after the whole struct was read;
// every INVALID_DATA the protocols throw carries a message, so the type's default text tells them apart.
DecodeError error_of(const TProtocolException& e) noexcept {
  if (e.getType() == TProtocolException::INVALID_DATA &&
      std::strcmp(e.what(), "TProtocolException: Invalid data") == 0)
    return DecodeError::missing_field;
  return DecodeError::syntax;
}

std::string_view view_of(const std::string& s) noexcept { return {s.data(), s.size()}; }

Bytes bytes_of(TMemoryBuffer& out) noexcept {
  std::uint8_t* p = nullptr;
  std::uint32_t n = 0;
  out.getBuffer(&p, &n);
  return {p, n};
}

// One codec's transports, protocols and generated structs. Writer: the protocol that writes
// (TCompactProtocolT<TMemoryBuffer> or TBinaryProtocolT<TMemoryBuffer>); Reader: its reading subclass above.
template <class Writer, class Reader>
struct Wire {
  // One output buffer per direction: an encoded request stays valid across a response's encode.
  std::shared_ptr<TMemoryBuffer> request_out = std::make_shared<TMemoryBuffer>(256);
  std::shared_ptr<TMemoryBuffer> response_out = std::make_shared<TMemoryBuffer>(256);
  std::shared_ptr<InputBuffer> in = std::make_shared<InputBuffer>();
  Writer request_writer{request_out};
  Writer response_writer{response_out};
  Reader reader{in};
  gen::Request request_value;  // what encode_request writes
  gen::Response response_value;
  gen::Request request;  // what decode_request reads; the views point into its strings
  gen::Response response;
  // eth_getLogs: an output buffer per message; the struct encode_logs fills (its logs' strings keep their
  // capacity from one answer to the next) and the one the read operations read into.
  std::shared_ptr<TMemoryBuffer> logs_request_out = std::make_shared<TMemoryBuffer>(256);
  std::shared_ptr<TMemoryBuffer> logs_out = std::make_shared<TMemoryBuffer>(64 * 1024);
  Writer logs_request_writer{logs_request_out};
  Writer logs_writer{logs_out};
  gen::LogsRequest logs_request_value;
  gen::LogsRequest logs_request;
  gen::LogsResponse logs_value;
  gen::LogsResponse logs;

  Wire() {
    request_value.account.resize(kAccountBytes);
    response_value.blockHash.resize(kHashBytes);
    logs_request_value.address.resize(kAccountBytes);
    logs_request.address.reserve(kAccountBytes);
    request_value.method.reserve(64);
    request.method.reserve(64);
    request.account.reserve(kAccountBytes);
    response.blockHash.reserve(kHashBytes);
  }

  // Thrift has no unsigned integers: each u64 travels as the i64 of the same bits.
  static std::int64_t to_wire(std::uint64_t v) noexcept { return static_cast<std::int64_t>(v); }
  static std::uint64_t from_wire(std::int64_t v) noexcept { return static_cast<std::uint64_t>(v); }
  // Nor u32: the i32 of the same bits (schemas/thrift.thrift), so every i32 is a u32 and none overflows.
  static std::int32_t to_wire32(std::uint32_t v) noexcept { return static_cast<std::int32_t>(v); }
  static std::uint32_t from_wire32(std::int32_t v) noexcept { return static_cast<std::uint32_t>(v); }

  Bytes encode_request(const Request& r) {
    request_value.id = to_wire(r.id);
    request_value.block = to_wire(r.block);
    request_value.method.assign(r.method);
    std::memcpy(request_value.account.data(), r.account.data(), kAccountBytes);
    request_out->resetBuffer();  // rewinds the owned buffer, keeps its memory
    request_value.write(&request_writer);
    return bytes_of(*request_out);
  }

  Bytes encode_response(const Response& r) {
    response_value.id = to_wire(r.id);
    response_value.balance = to_wire(r.balance);
    response_value.nonce = to_wire(r.nonce);
    std::memcpy(response_value.blockHash.data(), r.block_hash.data(), kHashBytes);
    response_out->resetBuffer();
    response_value.write(&response_writer);
    return bytes_of(*response_out);
  }

  // The generated read() fills only the fields present and never clears the others: each decode
  // starts from the defaults, so an absent integer or method reads 0 / "" (never the last message's).
  // container_limit: the most elements a list may announce (the input's size unless said otherwise).
  template <class Value>
  DecodeError read(Bytes input, Value& value, std::int32_t container_limit = 0) {
    // TMemoryBuffer's sizes are 32-bit: a larger input is no Thrift message of ours.
    if (input.size() > std::numeric_limits<std::uint32_t>::max()) return DecodeError::syntax;
    in->observe(input);
    reader.limit(limit_for(input.size()), container_limit != 0 ? container_limit : limit_for(input.size()));
    try {
      value.read(static_cast<typename Reader::Base*>(&reader));
    } catch (const TProtocolException& e) {
      reader.recover();
      // TProtocol::incrementInputRecursionDepth() counts the level and then throws DEPTH_LIMIT from
      // TInputRecursionTracker's constructor, whose destructor therefore never undoes it: each input
      // nested past the limit (64) would leave the depth one higher, until every decode failed (found by
      // the peer differential fuzzer). The depth is private; this is the one level left behind.
      if (e.getType() == TProtocolException::DEPTH_LIMIT) reader.decrementInputRecursionDepth();
      return error_of(e);
    } catch (const at::TException&) {  // TTransportException (truncated), or an unknown compact type
      reader.recover();
      return DecodeError::syntax;
    }
    // The body is one struct: bytes after its field stop are not Thrift's to ignore.
    if (in->available_read() != 0) return DecodeError::trailing;
    return DecodeError::ok;
  }

  DecodeError decode_request(Bytes input, RequestView& out) {
    request.id = 0;
    request.block = 0;
    request.method.clear();
    request.account.clear();
    if (const DecodeError e = read(input, request); e != DecodeError::ok) return e;
    if (request.account.size() != kAccountBytes) return DecodeError::bad_length;
    out.id = from_wire(request.id);
    out.block = from_wire(request.block);
    out.method = view_of(request.method);
    out.account = view_of(request.account);
    out.account0 = static_cast<std::uint8_t>(request.account[0]);
    out.account_form = Form::raw;
    return DecodeError::ok;
  }

  DecodeError decode_response(Bytes input, ResponseView& out) {
    response.id = 0;
    response.balance = 0;
    response.nonce = 0;
    response.blockHash.clear();
    if (const DecodeError e = read(input, response); e != DecodeError::ok) return e;
    if (response.blockHash.size() != kHashBytes) return DecodeError::bad_length;
    out.id = from_wire(response.id);
    out.balance = from_wire(response.balance);
    out.nonce = from_wire(response.nonce);
    out.block_hash = view_of(response.blockHash);
    out.block_hash_form = Form::raw;
    return DecodeError::ok;
  }

  // ---- eth_getLogs ----

  Bytes encode_logs_request(const LogsRequest& r) {
    logs_request_value.fromBlock = to_wire(r.from_block);
    logs_request_value.toBlock = to_wire(r.to_block);
    std::memcpy(logs_request_value.address.data(), r.address.data(), kAccountBytes);
    logs_request_value.limit = to_wire32(r.limit);
    logs_request_out->resetBuffer();
    logs_request_value.write(&logs_request_writer);
    return bytes_of(*logs_request_out);
  }

  DecodeError decode_logs_request(Bytes input, LogsRequest& out) {
    logs_request.fromBlock = 0;
    logs_request.toBlock = 0;
    logs_request.address.clear();
    logs_request.limit = 0;
    if (const DecodeError e = read(input, logs_request); e != DecodeError::ok) return e;
    if (logs_request.address.size() != kAccountBytes) return DecodeError::bad_length;
    out.from_block = from_wire(logs_request.fromBlock);
    out.to_block = from_wire(logs_request.toBlock);
    std::memcpy(out.address.data(), logs_request.address.data(), kAccountBytes);
    out.limit = from_wire32(logs_request.limit);
    return DecodeError::ok;
  }

  // Thrift's way to write an answer: fill the generated struct, then its write(). The struct is reused:
  // resize() keeps the logs (and their strings' and topic lists' capacity) an answer of the same shape
  // had, so assign() copies into memory it already has; the write is the generated one, on the reused
  // buffer.
  Bytes encode_logs(std::span<const Log> logs_in) {
    std::vector<gen::Log>& out = logs_value.logs;
    out.resize(logs_in.size());
    for (std::size_t i = 0; i < logs_in.size(); ++i) {
      const Log& l = logs_in[i];
      gen::Log& g = out[i];
      g.address.assign(reinterpret_cast<const char*>(l.address.data()), kAccountBytes);
      const std::size_t topics = l.topic_count();
      g.topics.resize(topics);
      for (std::size_t t = 0; t < topics; ++t)
        g.topics[t].assign(reinterpret_cast<const char*>(l.topics.data() + t * kTopicBytes), kTopicBytes);
      g.data.assign(reinterpret_cast<const char*>(l.data.data()), l.data.size());
      g.blockNumber = to_wire(l.block_number);
      g.transactionHash.assign(reinterpret_cast<const char*>(l.tx_hash.data()), kHashBytes);
      g.transactionIndex = to_wire32(l.tx_index);
      g.logIndex = to_wire32(l.log_index);
      g.removed = l.removed;
    }
    logs_out->resetBuffer();
    logs_value.write(&logs_writer);
    return bytes_of(*logs_out);
  }

  // The three read operations are Thrift's one way to read a message: the generated read() of the whole
  // LogsResponse into the reused struct, then the answer from its fields. The read allocates: it clear()s
  // the list and resize()s it to the announced count, so every Log (and its strings past the small-string
  // buffer, its topic list) is built anew on each decode; see the figures below.
  DecodeError read_logs(Bytes input) {
    logs.logs.clear();  // an answer without field 1 is no logs (the read fills only what it meets)
    if (const DecodeError e = read(input, logs, logs_container_limit(input.size())); e != DecodeError::ok)
      return e;
    for (const gen::Log& g : logs.logs) {
      if (g.address.size() != kAccountBytes || g.transactionHash.size() != kHashBytes ||
          g.topics.size() > kMaxTopics)
        return DecodeError::bad_length;
      for (const std::string& t : g.topics)
        if (t.size() != kTopicBytes) return DecodeError::bad_length;
    }
    return DecodeError::ok;
  }

  static const std::uint8_t* raw(const std::string& s) noexcept {
    return reinterpret_cast<const std::uint8_t*>(s.data());
  }

  DecodeError logs_decode_all(Bytes input, LogsDigest& d) {
    if (const DecodeError e = read_logs(input); e != DecodeError::ok) return e;
    for (const gen::Log& g : logs.logs) {
      d.fixed(raw(g.address), kAccountBytes);
      d.value(g.topics.size());
      for (const std::string& t : g.topics) d.topic(raw(t));
      d.bytes(Bytes{raw(g.data), g.data.size()});
      d.value(from_wire(g.blockNumber));
      d.fixed(raw(g.transactionHash), kHashBytes);
      d.value(from_wire32(g.transactionIndex));
      d.value(from_wire32(g.logIndex));
      d.value(g.removed ? 1 : 0);
      d.log();
    }
    return DecodeError::ok;
  }

  DecodeError logs_access_one(Bytes input, std::uint32_t k, LogPick& out) {
    if (const DecodeError e = read_logs(input); e != DecodeError::ok) return e;
    if (k >= logs.logs.size()) return DecodeError::missing_field;
    const gen::Log& g = logs.logs[k];
    out.log_index = from_wire32(g.logIndex);
    std::memcpy(out.tx_hash.data(), g.transactionHash.data(), kHashBytes);
    return DecodeError::ok;
  }

  DecodeError logs_scan(Bytes input, LogsScan& out) {
    if (const DecodeError e = read_logs(input); e != DecodeError::ok) return e;
    for (const gen::Log& g : logs.logs) out.block_sum += from_wire(g.blockNumber);
    out.count += logs.logs.size();
    return DecodeError::ok;
  }
};

}  // namespace

// Measured on the sample record (g++ 12 -O3, `zapbench micro`, CPU ns per op on the 2-core development VM;
// Decode = request + response, noisy, indicative):
//   decode: InputBuffer::observe (this)                    compact ~115 ns, binary ~96-100 ns, 0 allocs
//           TMemoryBuffer::resetBuffer(ptr, len, OBSERVE)  compact ~209 ns, binary ~171 ns, 4 allocs
//                                                          (a TConfiguration + control block per decode)
//   encode: generated write, resetBuffer() on owned buffers ~94 / ~99 ns, 0 allocs
// The protocols' string reads copy: TCompactProtocol reads a string into its own reused buffer and then
// assigns it to the struct's std::string (two copies); TBinaryProtocol borrows the transport's bytes and
// assigns once. Both reuse the strings' capacity, so neither allocates once the strings have grown.
//
// eth_getLogs, N = 1000 logs (compact 218 KB, binary 265 KB), CPU µs per op, the least of 3 runs:
//   Encode     fill the reused LogsResponse, generated write (this)  compact ~96-104, binary ~137, 0 allocs
//   DecodeAll  generated read of the whole LogsResponse (this)       ~284-384 / ~296-321, 6 848 allocs
//   ScanField  the same read, then the sum                           ~300-350 / ~330, 6 848 allocs
//   AccessOne  k = 500: the same whole read (this, the row)          ~289 / ~276, 6 848 allocs
//              TProtocol::skip(T_STRUCT) over logs 0..k-1 by hand, then the generated gen::Log::read of
//              log k, the rest unread                                ~189 / ~154, 2 922 allocs (skip()
//              reads each string into a std::string of its own to drop it)
// The skip is not the row: skip() is Thrift's way past fields a reader does not know, and using it
// here needs a hand-written reader of LogsResponse (readStructBegin, readFieldBegin, readListBegin …)
// where the idiomatic code is the generated read of the whole struct. At N = 10 000 every figure is
// ~10-20× (the 69 000 allocations and ~1.7 MB of gen::Log no longer fit the caches; noisy on this VM).
struct Thrift::State : Wire<at::protocol::TCompactProtocolT<TMemoryBuffer>, CompactReader> {};
struct ThriftBinary::State : Wire<at::protocol::TBinaryProtocolT<TMemoryBuffer>, BinaryReader> {};

template class LibraryCodec<Thrift>;
template class LibraryCodec<ThriftBinary>;

}  // namespace record
