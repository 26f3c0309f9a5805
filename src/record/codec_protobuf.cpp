// record/codec_protobuf.cpp — Protobuf::State and ProtobufArena::State, the
// work of ProtobufCodec and ProtobufArenaCodec: filling and serializing the
// generated zapbench.Request / zapbench.Response messages (protoc's output for
// schemas/protobuf.proto, generated at build time), and parsing them into the
// record's views with the contract's errors. See the header for why.
#include "record/codec_protobuf.hpp"

#include <google/protobuf/arena.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protobuf.pb.h"  // generated into the build tree (codec_protobuf.cmake)
#include "record/library_codec_impl.hpp"

namespace record {
namespace {

namespace pb = google::protobuf;

// ---- encoding -------------------------------------------------------------------

void fill(zapbench::Request& m, const Request& r) {
  m.set_id(r.id);
  m.set_block(r.block);
  // assign() into the message's own string: set_method(const char*, size_t)
  // would build a temporary std::string first (3.21's ArenaStringPtr::Set
  // takes a const std::string&).
  m.mutable_method()->assign(r.method.data(), r.method.size());
  m.mutable_account()->assign(reinterpret_cast<const char*>(r.account.data()), r.account.size());
}

void fill(zapbench::Response& m, const Response& r) {
  m.set_id(r.id);
  m.set_balance(r.balance);
  m.set_nonce(r.nonce);
  m.mutable_block_hash()->assign(reinterpret_cast<const char*>(r.block_hash.data()), r.block_hash.size());
}

// The message's wire bytes in `out` (grown, never shrunk). ByteSizeLong()
// caches the sizes SerializeWithCachedSizesToArray() then writes with;
// SerializeToArray() would compute them a second time.
Bytes serialize(const pb::MessageLite& m, std::vector<std::uint8_t>& out) {
  const std::size_t n = m.ByteSizeLong();
  if (out.size() < n) out.resize(n);
  std::uint8_t* end = m.SerializeWithCachedSizesToArray(out.data());
  return {out.data(), static_cast<std::size_t>(end - out.data())};
}

// ---- decoding -------------------------------------------------------------------

// ParseFromArray: Clear() and then merge the whole input. False on anything
// malformed: a truncated varint or length, a length past the end, a bad tag
// or wire type 6/7, an end-group with no group, invalid UTF-8 in `method`
// (proto3 strings). Unknown fields (and a known field number under another
// wire type, which the generated parser treats as unknown) are kept in the
// message's unknown-field set, as the library does; a field given twice
// keeps its last value (the protobuf encoding spec's rule). protobuf reports
// no errors through exceptions (only std::bad_alloc can leave it).
bool parse(pb::MessageLite& m, Bytes in) {
  if (in.size() > static_cast<std::size_t>(INT_MAX)) return false;  // the API's int size
  return m.ParseFromArray(in.data(), static_cast<int>(in.size()));
}

std::string_view view(const std::string& s) noexcept { return {s.data(), s.size()}; }

// proto3 gives a `bytes` field no presence: absent and empty are one value,
// which the contract reads as missing.
DecodeError check_bytes(const std::string& s, std::size_t want) noexcept {
  if (s.empty()) return DecodeError::missing_field;
  if (s.size() != want) return DecodeError::bad_length;
  return DecodeError::ok;
}

DecodeError read(const zapbench::Request& m, RequestView& out) noexcept {
  const DecodeError e = check_bytes(m.account(), kAccountBytes);
  if (e != DecodeError::ok) return e;
  out.id = m.id();
  out.block = m.block();
  out.method = view(m.method());
  out.account = view(m.account());
  out.account0 = static_cast<std::uint8_t>(m.account()[0]);
  out.account_form = Form::raw;
  return DecodeError::ok;
}

DecodeError read(const zapbench::Response& m, ResponseView& out) noexcept {
  const DecodeError e = check_bytes(m.block_hash(), kHashBytes);
  if (e != DecodeError::ok) return e;
  out.id = m.id();
  out.balance = m.balance();
  out.nonce = m.nonce();
  out.block_hash = view(m.block_hash());
  out.block_hash_form = Form::raw;
  return DecodeError::ok;
}

template <class Message, class View>
DecodeError decode(Message& m, Bytes in, View& out) {
  if (!parse(m, in)) return DecodeError::syntax;
  return read(m, out);
}

// ---- the arena variant's arena ----------------------------------------------------

// An arena whose first block is this object's own array, so Reset() returns
// it to that block and never frees or mallocs while a message fits in it.
class BlockArena {
 public:
  BlockArena() : arena_(options(block_)) {}
  BlockArena(const BlockArena&) = delete;
  BlockArena& operator=(const BlockArena&) = delete;

  // A new, empty message on the arena; everything the previous one held is
  // destroyed (its strings' destructors run in Reset()).
  template <class Message>
  Message& fresh() {
    arena_.Reset();
    return *pb::Arena::CreateMessage<Message>(&arena_);
  }

 private:
  // One message, its two strings and their cleanup entries need a few hundred
  // bytes beside the arena's own headers; a long method spills into a block
  // the arena mallocs and frees on the next Reset().
  static constexpr std::size_t kBlockBytes = 4096;

  static pb::ArenaOptions options(char* block) {
    pb::ArenaOptions o;
    o.initial_block = block;
    o.initial_block_size = kBlockBytes;
    return o;
  }

  alignas(16) char block_[kBlockBytes];
  pb::Arena arena_;  // after block_: constructed after it, destroyed before it
};

}  // namespace

// Measured on the sample record (g++ 12 -O3, `zapbench micro`, CPU ns per op
// on the development VM, two runs; Decode and Encode are a request and a
// response, Handler decodes a request and encodes a response):
//   protobuf, reused messages           decode 93-108, encode 63-79,
//                                       handler 79-83; 0 allocs
//   protobuf-arena, arena Reset per op  decode 195-211, encode 164-167,
//                                       handler 202-204; 1 alloc per message
// The arena pays, per message, a Reset() (running the strings' destructors
// from its cleanup list), a fresh message and the byte field's malloc and
// free; the reused message pays none of them. ParseFromArray already Clear()s
// (message_lite.h: "Clear() will be called before merging the input"), so an
// explicit Clear() first would only clear twice.
// One message per direction and operation, kept for the codec's life: a decode
// never writes the message an encode fills, so a decoded view survives encodes.
struct Protobuf::State {
  zapbench::Request request_in;
  zapbench::Response response_in;
  zapbench::Request request_out;
  zapbench::Response response_out;
  std::vector<std::uint8_t> request_bytes;
  std::vector<std::uint8_t> response_bytes;

  Bytes encode_request(const Request& r) {
    fill(request_out, r);
    return serialize(request_out, request_bytes);
  }
  Bytes encode_response(const Response& r) {
    fill(response_out, r);
    return serialize(response_out, response_bytes);
  }
  DecodeError decode_request(Bytes in, RequestView& out) { return decode(request_in, in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode(response_in, in, out); }
};

// One arena for decoding (a decode resets it, so the previous decode's views
// die then, as the contract allows) and one for encoding (whose messages die
// once serialized), so an encode never invalidates a decoded view.
struct ProtobufArena::State {
  BlockArena decoding;
  BlockArena encoding;
  std::vector<std::uint8_t> request_bytes;
  std::vector<std::uint8_t> response_bytes;

  Bytes encode_request(const Request& r) {
    auto& m = encoding.fresh<zapbench::Request>();
    fill(m, r);
    return serialize(m, request_bytes);
  }
  Bytes encode_response(const Response& r) {
    auto& m = encoding.fresh<zapbench::Response>();
    fill(m, r);
    return serialize(m, response_bytes);
  }
  DecodeError decode_request(Bytes in, RequestView& out) {
    return decode(decoding.fresh<zapbench::Request>(), in, out);
  }
  DecodeError decode_response(Bytes in, ResponseView& out) {
    return decode(decoding.fresh<zapbench::Response>(), in, out);
  }
};

template class LibraryCodec<Protobuf>;
template class LibraryCodec<ProtobufArena>;

}  // namespace record
