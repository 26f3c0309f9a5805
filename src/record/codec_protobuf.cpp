// record/codec_protobuf.cpp — Protobuf::State and ProtobufArena::State, the
// work of ProtobufCodec and ProtobufArenaCodec: filling and serializing the
// generated zapbench messages (protoc's output for schemas/protobuf.proto,
// generated at build time: Request / Response, and the logs record's
// LogsRequest / LogsResponse), and parsing them into the records' views and
// answers with the contract's errors. See the header for why.
#include "record/codec_protobuf.hpp"

#include <google/protobuf/arena.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
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

void assign(std::string& s, Bytes b) { s.assign(reinterpret_cast<const char*>(b.data()), b.size()); }

void fill(zapbench::LogsRequest& m, const LogsRequest& r) {
  m.set_from_block(r.from_block);
  m.set_to_block(r.to_block);
  m.set_limit(r.limit);
  assign(*m.mutable_address(), r.address);
}

// One Log into a message that is empty (new, or Clear()ed: then its strings
// and its topics' strings keep their capacity, so refilling allocates nothing).
void fill(zapbench::Log& m, const Log& l) {
  assign(*m.mutable_address(), l.address);
  pb::RepeatedPtrField<std::string>& topics = *m.mutable_topics();
  for (std::size_t t = 0; t < l.topic_count(); ++t)
    assign(*topics.Add(), l.topics.subspan(t * kTopicBytes, kTopicBytes));
  if (!l.data.empty()) assign(*m.mutable_data(), l.data);  // empty: absent, as proto3 writes it anyway
  m.set_block_number(l.block_number);
  assign(*m.mutable_transaction_hash(), l.tx_hash);
  m.set_transaction_index(l.tx_index);
  m.set_log_index(l.log_index);
  m.set_removed(l.removed);
}

// The answer into an empty LogsResponse. Add() on a Clear()ed repeated field
// hands back the cleared Log it kept, so the reused message refills in place;
// Reserve() sizes the pointer array once (on an arena, a grown array would
// leave the old one behind in the arena).
void fill(zapbench::LogsResponse& m, std::span<const Log> logs) {
  pb::RepeatedPtrField<zapbench::Log>& out = *m.mutable_logs();
  out.Reserve(static_cast<int>(logs.size()));
  for (const Log& l : logs) fill(*out.Add(), l);
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

DecodeError read(const zapbench::LogsRequest& m, LogsRequest& out) noexcept {
  const DecodeError e = check_bytes(m.address(), kAccountBytes);
  if (e != DecodeError::ok) return e;
  out.from_block = m.from_block();
  out.to_block = m.to_block();
  std::memcpy(out.address.data(), m.address().data(), kAccountBytes);
  out.limit = m.limit();
  return DecodeError::ok;
}

template <class Message, class View>
DecodeError decode(Message& m, Bytes in, View& out) {
  if (!parse(m, in)) return DecodeError::syntax;
  return read(m, out);
}

// A parsed Log's contract: address and transaction hash present and of their
// length, at most kMaxTopics topics of kTopicBytes each (protobuf bounds
// neither); data any length.
DecodeError check(const zapbench::Log& m) noexcept {
  if (const DecodeError e = check_bytes(m.address(), kAccountBytes); e != DecodeError::ok) return e;
  if (const DecodeError e = check_bytes(m.transaction_hash(), kHashBytes); e != DecodeError::ok) return e;
  if (m.topics_size() > static_cast<int>(kMaxTopics)) return DecodeError::bad_length;
  for (const std::string& t : m.topics())
    if (t.size() != kTopicBytes) return DecodeError::bad_length;
  return DecodeError::ok;
}

const std::uint8_t* bytes_of(const std::string& s) noexcept {
  return reinterpret_cast<const std::uint8_t*>(s.data());
}

// Logs/DecodeAll on a parsed answer: each log checked, then folded in the
// digest's order.
DecodeError read_all(const zapbench::LogsResponse& m, LogsDigest& d) noexcept {
  for (const zapbench::Log& l : m.logs()) {
    if (const DecodeError e = check(l); e != DecodeError::ok) return e;
    d.fixed(bytes_of(l.address()), kAccountBytes);
    d.value(static_cast<std::uint64_t>(l.topics_size()));
    for (const std::string& t : l.topics()) d.topic(bytes_of(t));
    d.bytes(Bytes{bytes_of(l.data()), l.data().size()});
    d.value(l.block_number());
    d.fixed(bytes_of(l.transaction_hash()), kHashBytes);
    d.value(l.transaction_index());
    d.value(l.log_index());
    d.value(l.removed() ? 1 : 0);
    d.log();
  }
  return DecodeError::ok;
}

// Logs/AccessOne: protobuf has no way to reach log k but to parse the whole
// answer (a repeated field of length-delimited messages, no index), so the
// caller parsed it; log k is then an array index. Only what is read is checked.
DecodeError read_one(const zapbench::LogsResponse& m, std::uint32_t k, LogPick& out) noexcept {
  if (k >= static_cast<std::uint32_t>(m.logs_size())) return DecodeError::missing_field;
  const zapbench::Log& l = m.logs(static_cast<int>(k));
  if (const DecodeError e = check_bytes(l.transaction_hash(), kHashBytes); e != DecodeError::ok) return e;
  out.log_index = l.log_index();
  std::memcpy(out.tx_hash.data(), l.transaction_hash().data(), kHashBytes);
  return DecodeError::ok;
}

DecodeError read_scan(const zapbench::LogsResponse& m, LogsScan& out) noexcept {
  for (const zapbench::Log& l : m.logs()) out.block_sum += l.block_number();
  out.count += static_cast<std::uint64_t>(m.logs_size());
  return DecodeError::ok;
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

// The logs answers' arena: one block of this object's, grown to fit the
// largest message so far. An answer of N logs takes about 300·N bytes of
// arena (the Logs, their string objects, the repeated fields' arrays), and
// Reset() frees every block the arena malloc'ed beyond its initial one, so an
// arena that spilled would malloc its blocks again on every op (at the
// default 8 KiB max_block_size: hundreds per answer of 10 000 logs). After an
// op that spilled, the next fresh() rebuilds the arena on one block as large
// as everything it took (SpaceAllocated(): the initial block and the
// spilled ones), which then holds the same answer with no malloc of the
// arena's own. Up to kMaxBlockBytes: a larger message (past any answer of
// kMaxLogs) spills as before rather than pinning its size for the codec's life.
class GrowingArena {
 public:
  GrowingArena() { rebuild(kFirstBlockBytes); }
  GrowingArena(const GrowingArena&) = delete;
  GrowingArena& operator=(const GrowingArena&) = delete;

  template <class Message>
  Message& fresh() {
    const std::uint64_t took = arena_->SpaceAllocated();
    if (took > block_bytes_ && took <= kMaxBlockBytes)
      rebuild(static_cast<std::size_t>(took));
    else
      arena_->Reset();
    return *pb::Arena::CreateMessage<Message>(&*arena_);
  }

 private:
  static constexpr std::size_t kFirstBlockBytes = 64 * 1024;
  static constexpr std::uint64_t kMaxBlockBytes = std::uint64_t{256} << 20;

  void rebuild(std::size_t bytes) {
    arena_.reset();  // before its block goes
    block_.reset(new char[bytes]);
    block_bytes_ = bytes;
    pb::ArenaOptions o;
    o.initial_block = block_.get();
    o.initial_block_size = bytes;
    arena_.emplace(o);
  }

  std::unique_ptr<char[]> block_;  // operator new[]: aligned for any scalar, as the arena needs
  std::size_t block_bytes_ = 0;
  std::optional<pb::Arena> arena_;
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
//
// The logs record (`zapbench micro`, Logs/*, CPU µs per op at N = 1 000 /
// 10 000, two runs on the same loaded VM; the figures move 10-40% run to run):
//   protobuf        Encode 102-112 / 1 266-1 328, DecodeAll 158-161 /
//                   1 684-1 686, AccessOne 144-148 / 1 675-1 848 (the parse),
//                   ScanField 121-147 / 1 267-1 496; 0 allocs
//   protobuf-arena  Encode 278-311 / 3 954-4 105, DecodeAll 318-379 /
//                   4 184-4 537, AccessOne 408-464 / 3 848-6 245, ScanField
//                   266-426 / 3 087-3 689; 5 848 / 58 977 allocs per op (the
//                   strings)
// Measured alternative for the arena variant: the same arena never rebuilt
// (its 64 KiB first block, Reset() per op) spills and mallocs its blocks again
// every op: 5 891 allocs per op at N = 1 000 against 5 848, 563 against 211 KB
// allocated, Encode 466 against 311 µs in one run (at N = 10 000 the
// difference is within the noise: the strings dominate). GrowingArena removes
// the arena's own share; the strings' allocations stay, whatever the arena.
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

  // The logs record: the same, one message per direction, reused. Clear()
  // keeps the Logs of a repeated field and their strings' capacity, and
  // ParseFromArray Clear()s first, so an answer of the same shape encodes and
  // parses again with no allocation.
  zapbench::LogsRequest logs_request_in;
  zapbench::LogsRequest logs_request_out;
  zapbench::LogsResponse logs_in;
  zapbench::LogsResponse logs_out;
  std::vector<std::uint8_t> logs_request_bytes;
  std::vector<std::uint8_t> logs_bytes;

  Bytes encode_logs_request(const LogsRequest& r) {
    fill(logs_request_out, r);
    return serialize(logs_request_out, logs_request_bytes);
  }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) { return decode(logs_request_in, in, out); }
  Bytes encode_logs(std::span<const Log> logs) {
    logs_out.Clear();
    fill(logs_out, logs);
    return serialize(logs_out, logs_bytes);
  }
  DecodeError logs_decode_all(Bytes in, LogsDigest& out) {
    if (!parse(logs_in, in)) return DecodeError::syntax;
    return read_all(logs_in, out);
  }
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    if (!parse(logs_in, in)) return DecodeError::syntax;
    return read_one(logs_in, k, out);
  }
  DecodeError logs_scan(Bytes in, LogsScan& out) {
    if (!parse(logs_in, in)) return DecodeError::syntax;
    return read_scan(logs_in, out);
  }
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

  // The logs record: a request is a first-record-sized message on the same
  // arenas; an answer is a fresh LogsResponse per op on an arena of its own
  // per direction that grows once to the largest answer (GrowingArena).
  GrowingArena logs_decoding;
  GrowingArena logs_encoding;
  std::vector<std::uint8_t> logs_request_bytes;
  std::vector<std::uint8_t> logs_bytes;

  Bytes encode_logs_request(const LogsRequest& r) {
    auto& m = encoding.fresh<zapbench::LogsRequest>();
    fill(m, r);
    return serialize(m, logs_request_bytes);
  }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) {
    return decode(decoding.fresh<zapbench::LogsRequest>(), in, out);
  }
  Bytes encode_logs(std::span<const Log> logs) {
    auto& m = logs_encoding.fresh<zapbench::LogsResponse>();
    fill(m, logs);
    return serialize(m, logs_bytes);
  }
  DecodeError logs_decode_all(Bytes in, LogsDigest& out) {
    auto& m = logs_decoding.fresh<zapbench::LogsResponse>();
    if (!parse(m, in)) return DecodeError::syntax;
    return read_all(m, out);
  }
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    auto& m = logs_decoding.fresh<zapbench::LogsResponse>();
    if (!parse(m, in)) return DecodeError::syntax;
    return read_one(m, k, out);
  }
  DecodeError logs_scan(Bytes in, LogsScan& out) {
    auto& m = logs_decoding.fresh<zapbench::LogsResponse>();
    if (!parse(m, in)) return DecodeError::syntax;
    return read_scan(m, out);
  }
};

template class LibraryCodec<Protobuf>;
template class LibraryCodec<ProtobufArena>;

}  // namespace record
