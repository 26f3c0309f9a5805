// record/codec_zap.hpp — both records as native ZAP messages (layouts from
// eth.hpp and logs.hpp; docs/spec/zap-logs.md for the logs), with the runtime
// from src/zap. Decoding is zero-copy: the views point into the input, and
// log k of an answer is reached in O(1) (a fixed-stride list of inline
// structs). Encoding uses this object's builders and buffer, reset and
// reused, so steady state allocates nothing.
#pragma once

#include <cstring>
#include <memory>
#include <string_view>

#include "record/logs.hpp"
#include "record/record.hpp"
#include "zap/zap.hpp"

namespace record {

class ZapCodec {
 public:
  static constexpr std::string_view kName = "zap";
  static constexpr std::string_view kContentType = "application/zap";
  static constexpr std::string_view kEncodePath =
      "zap::RootWriter (one root struct, offsets fixed at compile time) into a zap::Builder's buffer, reset "
      "and "
      "reused per direction";
  static constexpr std::string_view kDecodePath = "zap::Message::parse + typed field views (zero-copy)";

  // The returned view is valid until the next encode of the same direction.
  Bytes encode_request(const Request& r) { return encode_request(req_, r); }
  Bytes encode_response(const Response& r) { return encode_response(resp_, r); }

  // The same into any builder (reset first), e.g. a fresh one per message.
  // One root struct and its tails: zap::RootWriter, the runtime's path for
  // it (the bytes Builder's start_object/set/finish_as_root write, with the
  // offsets fixed at compile time and one capacity check).
  static Bytes encode_request(zap::Builder& b, const Request& r) {
    zap::RootWriter<ReqZap::S> w(b, r.method.size() + kAccountBytes);
    w.set<ReqZap::id>(r.id);
    w.set<ReqZap::block>(r.block);
    w.set<ReqZap::method>(r.method);
    w.set<ReqZap::account>(r.account);
    return w.finish();
  }

  static Bytes encode_response(zap::Builder& b, const Response& r) {
    zap::RootWriter<RespZap::S> w(b, kHashBytes);
    w.set<RespZap::id>(r.id);
    w.set<RespZap::balance>(r.balance);
    w.set<RespZap::nonce>(r.nonce);
    w.set<RespZap::block_hash>(r.block_hash);
    return w.finish();
  }

  // A missing field reads as zero in ZAP; only the byte fields can be checked
  // for presence (null) and length.
  DecodeError decode_request(Bytes in, RequestView& out) const noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object o = p.message.root();
    const zap::Bytes account = o.get(ReqZap::account);
    if (account.size() != kAccountBytes)
      return account.data() == nullptr ? DecodeError::missing_field : DecodeError::bad_length;
    out.id = o.get(ReqZap::id);
    out.block = o.get(ReqZap::block);
    out.method = o.get(ReqZap::method);
    out.account = {reinterpret_cast<const char*>(account.data()), account.size()};
    out.account0 = account[0];
    out.account_form = Form::raw;
    return DecodeError::ok;
  }

  DecodeError decode_response(Bytes in, ResponseView& out) const noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object o = p.message.root();
    const zap::Bytes hash = o.get(RespZap::block_hash);
    if (hash.size() != kHashBytes)
      return hash.data() == nullptr ? DecodeError::missing_field : DecodeError::bad_length;
    out.id = o.get(RespZap::id);
    out.balance = o.get(RespZap::balance);
    out.nonce = o.get(RespZap::nonce);
    out.block_hash = {reinterpret_cast<const char*>(hash.data()), hash.size()};
    out.block_hash_form = Form::raw;
    return DecodeError::ok;
  }

  // ---- eth_getLogs ----------------------------------------------------------

  Bytes encode_logs_request(const LogsRequest& r) {
    logs_req_.reset();
    zap::ObjectBuilder o = logs_req_.start_object(LogsRequestZap::kSizeBytes);
    o.set_u64(LogsRequestZap::kFromBlockAt, r.from_block);
    o.set_u64(LogsRequestZap::kToBlockAt, r.to_block);
    o.set_bytes_fixed(LogsRequestZap::kAddressAt, zap::Bytes{r.address});
    o.set_u32(LogsRequestZap::kLimitAt, r.limit);
    o.finish_as_root();
    return logs_req_.finish();
  }

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) const noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object o = p.message.root();
    const zap::Bytes address = o.bytes_fixed(LogsRequestZap::kAddressAt, kAccountBytes);
    if (address.data() == nullptr) return DecodeError::syntax;  // the root overruns the message
    out.from_block = o.u64(LogsRequestZap::kFromBlockAt);
    out.to_block = o.u64(LogsRequestZap::kToBlockAt);
    std::memcpy(out.address.data(), address.data(), kAccountBytes);
    out.limit = o.u32(LogsRequestZap::kLimitAt);
    return DecodeError::ok;
  }

  // The answer written in one pass into this object's buffer: header, root,
  // the N fixed-stride records, then each log's topics and data as packed
  // tails (docs/spec/zap-logs.md). The inline records cannot go through
  // zap::Builder's per-object tails (as in Go, a list of inline structs is
  // pre-encoded records), so the offsets are computed here: a record's tail
  // offsets are known once N is. An answer past 4 GiB − 1 (a u32 size) cannot
  // be written: an empty view.
  Bytes encode_logs(std::span<const Log> logs) {
    using zap::detail::store_le;
    const std::size_t n = logs.size();
    std::size_t tails_bytes = 0;
    for (const Log& l : logs) tails_bytes += l.topics.size() + l.data.size();
    const std::size_t list_at = zap::kHeaderBytes + LogsResponseZap::kSizeBytes;
    const std::size_t size = list_at + n * LogZap::kStrideBytes + tails_bytes;
    if (size > 0xFFFFFFFFu) return {};
    std::uint8_t* const m = logs_buffer(size);
    std::memcpy(m, zap::kMagic, 4);
    store_le<std::uint16_t>(m + zap::kVersionAt, 1);
    store_le<std::uint16_t>(m + zap::kFlagsAt, 0);
    store_le<std::uint32_t>(m + zap::kRootAt, zap::kHeaderBytes);
    store_le<std::uint32_t>(m + zap::kSizeAt, static_cast<std::uint32_t>(size));
    // The list slot: rel from the slot to the body (8), and the log count; no
    // logs is a null list (0, 0), as the builder writes an empty one.
    const std::uint32_t slot = zap::kHeaderBytes + LogsResponseZap::kLogsAt;
    store_le<std::uint32_t>(m + slot, n == 0 ? 0 : static_cast<std::uint32_t>(list_at - slot));
    store_le<std::uint32_t>(m + slot + 4, static_cast<std::uint32_t>(n));
    std::uint8_t* rec = m + list_at;
    std::size_t tail = list_at + n * LogZap::kStrideBytes;
    // A Bytes slot: rel from the slot to its tail, or null (0, 0) when empty.
    const auto put_bytes = [&](std::uint8_t* rec_base, std::uint32_t at, Bytes v) {
      std::uint8_t* s = rec_base + at;
      if (v.empty()) {
        store_le<std::uint64_t>(s, 0);
        return;
      }
      store_le<std::uint32_t>(s, static_cast<std::uint32_t>(m + tail - s));
      store_le<std::uint32_t>(s + 4, static_cast<std::uint32_t>(v.size()));
      std::memcpy(m + tail, v.data(), v.size());
      tail += v.size();
    };
    for (const Log& l : logs) {
      store_le<std::uint64_t>(rec + LogZap::kBlockNumberAt, l.block_number);
      store_le<std::uint32_t>(rec + LogZap::kTxIndexAt, l.tx_index);
      store_le<std::uint32_t>(rec + LogZap::kLogIndexAt, l.log_index);
      std::memcpy(rec + LogZap::kAddressAt, l.address.data(), kAccountBytes);
      store_le<std::uint32_t>(rec + LogZap::kRemovedAt, l.removed ? 1 : 0);  // the bool and 3 zero bytes
      std::memcpy(rec + LogZap::kTxHashAt, l.tx_hash.data(), kHashBytes);
      put_bytes(rec, LogZap::kTopicsAt, l.topics);
      put_bytes(rec, LogZap::kDataAt, l.data);
      rec += LogZap::kStrideBytes;
    }
    return Bytes{m, size};
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& d) const noexcept {
    zap::List list;
    if (const DecodeError e = logs_list(in, list); e != DecodeError::ok) return e;
    for (std::uint32_t i = 0; i < list.len(); ++i) {
      const zap::Object o = list.object(i, LogZap::kStrideBytes);
      const zap::Bytes topics = o.bytes(LogZap::kTopicsAt);
      if (topics.size() % kTopicBytes != 0 || topics.size() > kMaxTopics * kTopicBytes)
        return DecodeError::bad_length;
      d.fixed(o.bytes_fixed(LogZap::kAddressAt, kAccountBytes).data(), kAccountBytes);
      d.value(topics.size() / kTopicBytes);
      for (std::size_t t = 0; t < topics.size(); t += kTopicBytes) d.topic(topics.data() + t);
      d.bytes(o.bytes(LogZap::kDataAt));
      d.value(o.u64(LogZap::kBlockNumberAt));
      d.fixed(o.bytes_fixed(LogZap::kTxHashAt, kHashBytes).data(), kHashBytes);
      d.value(o.u32(LogZap::kTxIndexAt));
      d.value(o.u32(LogZap::kLogIndexAt));
      d.value(o.boolean(LogZap::kRemovedAt) ? 1 : 0);
      d.log();
    }
    return DecodeError::ok;
  }

  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) const noexcept {
    zap::List list;
    if (const DecodeError e = logs_list(in, list); e != DecodeError::ok) return e;
    if (k >= list.len()) return DecodeError::missing_field;
    const zap::Object o = list.object(k, LogZap::kStrideBytes);
    out.log_index = o.u32(LogZap::kLogIndexAt);
    std::memcpy(out.tx_hash.data(), o.bytes_fixed(LogZap::kTxHashAt, kHashBytes).data(), kHashBytes);
    return DecodeError::ok;
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) const noexcept {
    zap::List list;
    if (const DecodeError e = logs_list(in, list); e != DecodeError::ok) return e;
    for (std::uint32_t i = 0; i < list.len(); ++i)
      out.block_sum += list.object(i, LogZap::kStrideBytes).u64(LogZap::kBlockNumberAt);
    out.count += list.len();
    return DecodeError::ok;
  }

 private:
  // The answer's list, after the one check that makes every record's fixed
  // part readable: N records of the stride fit in the message. A null list is
  // no logs. Every other read is the runtime's bounds-checked accessor.
  static DecodeError logs_list(Bytes in, zap::List& out) noexcept {
    const zap::Message::Parsed p = zap::Message::parse(in);
    if (!p.ok()) return DecodeError::syntax;
    const zap::Object root = p.message.root();
    if (std::uint64_t{root.offset()} + LogsResponseZap::kSizeBytes > p.message.size())
      return DecodeError::syntax;
    const zap::List list = root.list(LogsResponseZap::kLogsAt);
    if (list.is_null()) {
      // No logs (a null slot), or a slot the reader refused (a count past the
      // message size, a body outside it): malformed, not empty.
      out = {};
      return root.u32(LogsResponseZap::kLogsAt) == 0 ? DecodeError::ok : DecodeError::syntax;
    }
    if (std::uint64_t{list.offset()} + std::uint64_t{list.len()} * LogZap::kStrideBytes > p.message.size())
      return DecodeError::syntax;
    out = list;
    return DecodeError::ok;
  }

  // The answer's buffer: grown (with the decoders' padding) only when an
  // answer is larger than every one before.
  std::uint8_t* logs_buffer(std::size_t n) {
    if (n > logs_cap_) {
      logs_buf_.reset(new std::uint8_t[n + kInputPaddingBytes]());
      logs_cap_ = n;
    }
    return logs_buf_.get();
  }

  zap::Builder req_{128};
  zap::Builder resp_{128};
  zap::Builder logs_req_{128};
  std::unique_ptr<std::uint8_t[]> logs_buf_;
  std::size_t logs_cap_ = 0;
};

}  // namespace record
