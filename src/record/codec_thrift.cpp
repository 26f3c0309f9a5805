// record/codec_thrift.cpp — Thrift::State and ThriftBinary::State, the thrift codecs' work: the reused
// memory transports and protocols around the generated Request/Response (schemas/thrift.thrift), the
// u64 <-> i64 casts, and the mapping of Thrift's exceptions onto the fairness contract's errors. See the
// header for why.
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

// The reading protocols, with what the library leaves no public way to do: set the limits per input
// (TCompactProtocolT takes them in its constructor only), and recover after an exception. The compact
// protocol keeps a stack of field ids, pushed by readStructBegin and popped by readStructEnd; a read
// that throws leaves its pushes behind (one per struct open at the throw), so without recover() every
// malformed input would grow that stack for good.
class CompactReader : public at::protocol::TCompactProtocolT<TMemoryBuffer> {
 public:
  using Base = at::protocol::TCompactProtocolT<TMemoryBuffer>;
  explicit CompactReader(std::shared_ptr<TMemoryBuffer> in) : Base(std::move(in), 1, 1) {}
  void limit(std::size_t input_bytes) noexcept { string_limit_ = container_limit_ = limit_for(input_bytes); }
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
  void limit(std::size_t input_bytes) noexcept {
    setStringSizeLimit(limit_for(input_bytes));
    setContainerSizeLimit(limit_for(input_bytes));
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

  Wire() {
    request_value.account.resize(kAccountBytes);
    response_value.blockHash.resize(kHashBytes);
    request_value.method.reserve(64);
    request.method.reserve(64);
    request.account.reserve(kAccountBytes);
    response.blockHash.reserve(kHashBytes);
  }

  // Thrift has no unsigned integers: each u64 travels as the i64 of the same bits.
  static std::int64_t to_wire(std::uint64_t v) noexcept { return static_cast<std::int64_t>(v); }
  static std::uint64_t from_wire(std::int64_t v) noexcept { return static_cast<std::uint64_t>(v); }

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
  template <class Value>
  DecodeError read(Bytes input, Value& value) {
    // TMemoryBuffer's sizes are 32-bit: a larger input is no Thrift message of ours.
    if (input.size() > std::numeric_limits<std::uint32_t>::max()) return DecodeError::syntax;
    in->observe(input);
    reader.limit(input.size());
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
struct Thrift::State : Wire<at::protocol::TCompactProtocolT<TMemoryBuffer>, CompactReader> {};
struct ThriftBinary::State : Wire<at::protocol::TBinaryProtocolT<TMemoryBuffer>, BinaryReader> {};

template class LibraryCodec<Thrift>;
template class LibraryCodec<ThriftBinary>;

}  // namespace record
