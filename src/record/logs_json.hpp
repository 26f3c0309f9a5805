// record/logs_json.hpp — the eth_getLogs record as Ethereum JSON-RPC text,
// the part every JSON codec shares whatever its library: the keys, one log as
// it is read (keys in any order) and folded into the digest once complete,
// and what a string value means for each field (hex decoded, every digit).
// The hex itself is record::hex (record.hpp); the writer is record::JsonWriter;
// the SAX event tracking of the library codecs is record/logs_sax.hpp.
//
// The format (JsonWriter writes exactly this; decoders accept any key order,
// skip unknown keys and take hex digits of either case):
//   request  {"fromBlock":"0x…","toBlock":"0x…","address":"0x…40","limit":"0x…"}
//   answer   [{"address":"0x…40","topics":["0x…64",…],"data":"0x…","blockNumber":"0x…",
//              "transactionHash":"0x…64","transactionIndex":"0x…","logIndex":"0x…","removed":false},…]
// Errors, on every JSON codec: a key twice duplicate_field, a key missing
// missing_field; a quantity without 0x, empty or with a non-digit bad_hex,
// past u64 (u32 for transactionIndex, logIndex, limit) integer_overflow;
// bytes without 0x, with an odd digit count or a non-digit bad_hex; an
// address not 20 bytes, a hash or topic not 32, more than 4 topics
// bad_length; a non-string where hex is expected, `removed` not a boolean,
// `topics` not an array, the top level not an array (an object for the
// request), a log not an object wrong_type. The first error in document order
// wins (a log's missing key counts at its closing brace), after syntax and
// trailing bytes where the operation reads the whole document.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

#include "record/logs.hpp"
#include "record/record.hpp"

namespace record::logs_json {

inline constexpr int kUnknown = -1;

// A log's keys in geth's order, which is also the digest's order.
enum LogField : int {
  kAddress,
  kTopics,
  kData,
  kBlockNumber,
  kTxHash,
  kTxIndex,
  kLogIndex,
  kRemoved,
  kLogFields
};
inline constexpr std::string_view kLogKeys[kLogFields] = {
    "address", "topics", "data", "blockNumber", "transactionHash", "transactionIndex", "logIndex", "removed"};
constexpr unsigned bit(int field) noexcept { return 1u << field; }
inline constexpr unsigned kAllLogFields = (1u << kLogFields) - 1;

// The fields each read operation looks at (the others are skipped, as
// unknown keys are): every one, blockNumber (ScanField), logIndex and
// transactionHash of log k (AccessOne).
inline constexpr unsigned kScanFields = bit(kBlockNumber);
inline constexpr unsigned kPickFields = bit(kLogIndex) | bit(kTxHash);

template <std::size_t N>
constexpr bool same(std::string_view key, const char (&name)[N]) noexcept {
  return std::memcmp(key.data(), name, N - 1) == 0;  // the caller matched the length
}

// The field a key names (kUnknown for any other): its length, then one
// compare of that length.
inline int log_field(std::string_view key) noexcept {
  switch (key.size()) {
    case 4:
      return same(key, "data") ? kData : kUnknown;
    case 6:
      return same(key, "topics") ? kTopics : kUnknown;
    case 7:
      return same(key, "address") ? kAddress : same(key, "removed") ? kRemoved : kUnknown;
    case 8:
      return same(key, "logIndex") ? kLogIndex : kUnknown;
    case 11:
      return same(key, "blockNumber") ? kBlockNumber : kUnknown;
    case 15:
      return same(key, "transactionHash") ? kTxHash : kUnknown;
    case 16:
      return same(key, "transactionIndex") ? kTxIndex : kUnknown;
    default:
      return kUnknown;
  }
}

// The request's keys (the eth_getLogs filter object plus the limit); every one
// is a hex string.
enum RequestField : int { kFromBlock, kToBlock, kFilterAddress, kLimit, kRequestFields };
inline constexpr std::string_view kRequestKeys[kRequestFields] = {"fromBlock", "toBlock", "address", "limit"};
inline constexpr unsigned kAllRequestFields = (1u << kRequestFields) - 1;

inline int request_field(std::string_view key) noexcept {
  switch (key.size()) {
    case 5:
      return same(key, "limit") ? kLimit : kUnknown;
    case 7:
      return same(key, "toBlock") ? kToBlock : same(key, "address") ? kFilterAddress : kUnknown;
    case 9:
      return same(key, "fromBlock") ? kFromBlock : kUnknown;
    default:
      return kUnknown;
  }
}

inline constexpr std::uint64_t kMaxU32 = 0xFFFFFFFFu;
inline constexpr std::uint64_t kMaxU64 = ~std::uint64_t{0};

// Where a log's decoded data goes: grown (to the largest data field seen)
// and reused, so steady state allocates nothing.
class DataBuffer {
 public:
  // Room for n bytes; null when memory runs out (no error kind for memory:
  // the caller refuses the input as syntax).
  std::uint8_t* room(std::size_t n) noexcept {
    if (n > cap_) {
      std::uint8_t* grown = new (std::nothrow) std::uint8_t[n];
      if (grown == nullptr) return nullptr;
      buf_.reset(grown);
      cap_ = n;
    }
    return buf_.get();
  }

 private:
  std::unique_ptr<std::uint8_t[]> buf_ = std::unique_ptr<std::uint8_t[]>(new std::uint8_t[kInitialBytes]);
  std::size_t cap_ = kInitialBytes;
  static constexpr std::size_t kInitialBytes = 2 * kMaxLogDataBytes;
};

// One log as it is read: its values, and which keys have been seen. The
// topics and data are decoded here (the data into a DataBuffer), so a log
// whose keys come in any order folds into the digest in the one order.
struct LogFields {
  unsigned seen = 0;
  std::uint32_t topic_count = 0;
  Account address{};
  std::uint8_t topics[kMaxTopics * kTopicBytes] = {};
  Bytes data;
  std::uint64_t block_number = 0;
  Hash tx_hash{};
  std::uint32_t tx_index = 0;
  std::uint32_t log_index = 0;
  bool removed = false;

  // The digest's order (record::fold).
  void fold(LogsDigest& d) const noexcept {
    d.fixed(address.data(), kAccountBytes);
    d.value(topic_count);
    for (std::uint32_t t = 0; t < topic_count; ++t) d.topic(topics + t * kTopicBytes);
    d.bytes(data);
    d.value(block_number);
    d.fixed(tx_hash.data(), kHashBytes);
    d.value(tx_index);
    d.value(log_index);
    d.value(removed ? 1 : 0);
    d.log();
  }
};

inline DecodeError read_u32(std::string_view s, std::uint32_t& out) noexcept {
  std::uint64_t v = 0;
  const DecodeError e = hex::parse_quantity(s, kMaxU32, v);
  out = static_cast<std::uint32_t>(v);
  return e;
}

// A string value (its text, unescaped) of field f of a log. topics and
// removed are never strings: wrong_type.
inline DecodeError read_log_string(LogFields& log, int f, std::string_view s, DataBuffer& buf) noexcept {
  switch (f) {
    case kAddress:
      return hex::decode_fixed(s, log.address.data(), kAccountBytes);
    case kData: {
      std::uint8_t* out = buf.room(s.size() / 2);
      if (out == nullptr) return DecodeError::syntax;
      std::size_t n = 0;
      const DecodeError e = hex::decode_bytes(s, out, n);
      log.data = Bytes{out, n};
      return e;
    }
    case kBlockNumber:
      return hex::parse_quantity(s, kMaxU64, log.block_number);
    case kTxHash:
      return hex::decode_fixed(s, log.tx_hash.data(), kHashBytes);
    case kTxIndex:
      return read_u32(s, log.tx_index);
    case kLogIndex:
      return read_u32(s, log.log_index);
    default:
      return DecodeError::wrong_type;
  }
}

// One element of `topics` (a string's text): a fifth is bad_length.
inline DecodeError read_topic(LogFields& log, std::string_view s) noexcept {
  if (log.topic_count == kMaxTopics) return DecodeError::bad_length;
  return hex::decode_fixed(s, log.topics + kTopicBytes * log.topic_count++, kTopicBytes);
}

// A string value of field f of the request.
inline DecodeError read_request_string(LogsRequest& r, int f, std::string_view s) noexcept {
  switch (f) {
    case kFromBlock:
      return hex::parse_quantity(s, kMaxU64, r.from_block);
    case kToBlock:
      return hex::parse_quantity(s, kMaxU64, r.to_block);
    case kFilterAddress:
      return hex::decode_fixed(s, r.address.data(), kAccountBytes);
    default:
      return read_u32(s, r.limit);
  }
}

}  // namespace record::logs_json
