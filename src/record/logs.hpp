// record/logs.hpp — the second record, defined once: eth_getLogs, a workload
// that grows. Owns its logical values (LogsRequest, Log), the deterministic
// generator every codec encodes the same N logs from, the digest every
// DecodeAll folds each field into (one fold, one order, for every codec), the
// answers of AccessOne and ScanField, the ZAP layouts (docs/spec/zap-logs.md,
// byte by byte) and the LogsCodec surface each codec of the table offers.
// Codec-specific code stays in codec_*.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "record/record.hpp"

namespace record {

inline constexpr std::size_t kTopicBytes = 32;
inline constexpr std::size_t kMaxTopics = 4;
inline constexpr std::size_t kMaxLogDataBytes = 256;  // what the generator writes; decoders take any length
// The most logs one request may ask for (the generator's bound; the server's
// response limit may refuse fewer, with a clean error).
inline constexpr std::uint32_t kMaxLogs = 100'000;

// ---- logical values --------------------------------------------------------

struct LogsRequest {
  std::uint64_t from_block = 0;
  std::uint64_t to_block = 0;
  Account address{};
  std::uint32_t limit = 0;  // N: the number of logs the answer holds
  friend bool operator==(const LogsRequest&, const LogsRequest&) = default;
};

// One log. topics and data point into the LogSet that holds it (or, in a
// test, into any storage that outlives the Log).
struct Log {
  Account address{};
  Bytes topics;  // topics.size() / kTopicBytes topics (0–4), back to back
  Bytes data;
  std::uint64_t block_number = 0;
  Hash tx_hash{};
  std::uint32_t tx_index = 0;
  std::uint32_t log_index = 0;
  bool removed = false;
  [[nodiscard]] std::size_t topic_count() const noexcept { return topics.size() / kTopicBytes; }
};

// The N logs of one request, with the bytes their topics and data point into.
// Reused: generate() keeps the capacity, so a server answering the same
// request shape again allocates nothing.
struct LogSet {
  LogsRequest request;
  std::vector<Log> logs;
  std::vector<std::uint8_t> bytes;
};

// The sample request of the benchmarks and the end-to-end scenario: N logs of
// one ERC-20 contract over 1 000 blocks.
inline constexpr std::uint64_t kLogsFromBlock = 0x112a880;  // 18 000 000
inline constexpr std::uint64_t kLogsToBlock = kLogsFromBlock + 999;
inline constexpr Account kLogsAddress = {0xa0, 0xb8, 0x69, 0x91, 0xc6, 0x21, 0x8b, 0x36, 0xc1, 0xd1,
                                         0x9d, 0x4a, 0x2e, 0x9e, 0xb0, 0xce, 0x36, 0x06, 0xeb, 0x48};
inline LogsRequest sample_logs_request(std::uint32_t n) noexcept {
  return LogsRequest{kLogsFromBlock, kLogsToBlock, kLogsAddress, n};
}

// keccak256("Transfer(address,address,uint256)"): topic 0 of every ERC-20 Transfer.
inline constexpr std::array<std::uint8_t, kTopicBytes> kTransferTopic = {
    0xdd, 0xf2, 0x52, 0xad, 0x1b, 0xe2, 0xc8, 0x9b, 0x69, 0xc2, 0xb0, 0x68, 0xfc, 0x37, 0x8d, 0xaa,
    0x95, 0x2b, 0xa7, 0xf1, 0x63, 0xc4, 0xa1, 0x16, 0x28, 0xf5, 0x5a, 0x4d, 0xf5, 0x23, 0xb3, 0xef};

// ---- the generator ---------------------------------------------------------

namespace detail {
// splitmix64: a small, well-mixed, fully specified sequence (the same on every
// platform and compiler), so "the same request gives the same logs" holds
// across builds and hosts.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  void fill(std::uint8_t* p, std::size_t n) noexcept {
    while (n > 0) {
      const std::uint64_t v = next();
      const std::size_t k = n < 8 ? n : 8;
      std::memcpy(p, &v, k);  // little-endian hosts only (as the whole project)
      p += k;
      n -= k;
    }
  }
};
}  // namespace detail

// The logs a request asks for: request.limit logs (at most kMaxLogs), all of
// request.address, spread evenly over [from_block, to_block]. 80% are ERC-20
// Transfers (3 topics: the Transfer signature, from, to; 32 data bytes: the
// amount); the rest have 1–4 random topics and 0–256 random data bytes; 1 in
// 64 is removed (a reorg). Log i depends only on the request and i.
inline void generate(const LogsRequest& request, LogSet& out) {
  const std::uint32_t n = request.limit < kMaxLogs ? request.limit : kMaxLogs;
  out.request = request;
  out.logs.resize(n);
  out.bytes.clear();
  // Two passes: sizes first, so the byte store is sized once and the views
  // taken after it stops moving.
  struct Shape {
    std::uint32_t topics_at, topics_bytes, data_at, data_bytes;
  };
  std::uint64_t address_word = 0;
  std::memcpy(&address_word, request.address.data(), 8);
  const std::uint64_t seed = request.from_block * 0x9e3779b97f4a7c15ULL ^
                             request.to_block * 0xc2b2ae3d27d4eb4fULL ^ address_word ^
                             std::uint64_t{request.limit} << 40;
  // Log i's block: from + blocks·i/n, blocks = to − from, without overflow.
  const std::uint64_t blocks =
      request.to_block >= request.from_block ? request.to_block - request.from_block : 0;
  std::size_t total = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    detail::SplitMix64 rng{seed ^ (std::uint64_t{i} * 0xd6e8feb86659fd93ULL)};
    const std::uint64_t kind = rng.next();
    const bool transfer = kind % 10 < 8;
    const std::size_t topics = transfer ? 3 : 1 + (kind >> 8) % kMaxTopics;
    const std::size_t data = transfer ? 32 : (kind >> 16) % (kMaxLogDataBytes + 1);
    total += topics * kTopicBytes + data;
  }
  out.bytes.resize(total);
  std::size_t at = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    detail::SplitMix64 rng{seed ^ (std::uint64_t{i} * 0xd6e8feb86659fd93ULL)};
    const std::uint64_t kind = rng.next();
    const bool transfer = kind % 10 < 8;
    const std::size_t topics = transfer ? 3 : 1 + (kind >> 8) % kMaxTopics;
    const std::size_t data = transfer ? 32 : (kind >> 16) % (kMaxLogDataBytes + 1);
    Log& log = out.logs[i];
    log.address = request.address;
    std::uint8_t* t = out.bytes.data() + at;
    if (transfer) {
      std::memcpy(t, kTransferTopic.data(), kTopicBytes);
      for (std::size_t k = 1; k < 3; ++k) {  // from, to: addresses left-padded to 32 bytes
        std::memset(t + k * kTopicBytes, 0, 12);
        rng.fill(t + k * kTopicBytes + 12, 20);
      }
    } else {
      rng.fill(t, topics * kTopicBytes);
    }
    log.topics = Bytes{t, topics * kTopicBytes};
    std::uint8_t* d = t + topics * kTopicBytes;
    if (transfer) {  // a uint256 amount below 2^64, as most are
      std::memset(d, 0, 24);
      rng.fill(d + 24, 8);
    } else {
      rng.fill(d, data);
    }
    log.data = Bytes{d, data};
    at += topics * kTopicBytes + data;
    log.block_number = request.from_block + (blocks / n) * i + (blocks % n) * i / n;
    rng.fill(log.tx_hash.data(), kHashBytes);
    log.tx_index = static_cast<std::uint32_t>(rng.next() % 300);
    log.log_index = i;
    log.removed = rng.next() % 64 == 0;
  }
}

// ---- what the read operations hand back ------------------------------------

// Logs/DecodeAll: every field of every log folded, in one order, into two
// sums: `a` of every value (bytes as little-endian 8-byte words, the last one
// zero-padded), and `b` of `a` after each field, so a field read twice, missed
// or moved changes the result. Two adds per word: cheap enough that the fold
// is not what DecodeAll measures, and the same for every codec. Per log, in
// this order:
//   fixed(address) · value(topic count) · topic(t) for each topic ·
//   bytes(data) · value(blockNumber) · fixed(transactionHash) ·
//   value(transactionIndex) · value(logIndex) · value(removed)
// then log(): the count.
struct LogsDigest {
  std::uint64_t count = 0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;

  void value(std::uint64_t v) noexcept {
    a += v;
    b += a;
  }
  // n raw bytes (n known to both sides: an address, a hash).
  void fixed(const std::uint8_t* p, std::size_t n) noexcept {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, p + i, 8);
      a += w;
    }
    if (i < n) {
      std::uint64_t w = 0;
      std::memcpy(&w, p + i, n - i);
      a += w;
    }
    b += a;
  }
  void topic(const std::uint8_t* p) noexcept { fixed(p, kTopicBytes); }
  // A byte string of any length: its length, then its bytes.
  void bytes(Bytes d) noexcept {
    value(d.size());
    fixed(d.data(), d.size());
  }
  void log() noexcept { ++count; }

  friend bool operator==(const LogsDigest&, const LogsDigest&) = default;
};

// Logs/AccessOne: logIndex and transactionHash of one log.
struct LogPick {
  std::uint32_t log_index = 0;
  Hash tx_hash{};
  friend bool operator==(const LogPick&, const LogPick&) = default;
};

// Logs/ScanField: the sum of blockNumber over every log, and how many.
struct LogsScan {
  std::uint64_t count = 0;
  std::uint64_t block_sum = 0;
  friend bool operator==(const LogsScan&, const LogsScan&) = default;
};

// The reference answers, from logical values (tests, benchmarks' checks, the
// loader's expected checksum).
inline void fold(const Log& log, LogsDigest& d) noexcept {
  d.fixed(log.address.data(), kAccountBytes);
  d.value(log.topic_count());
  for (std::size_t t = 0; t < log.topic_count(); ++t) d.topic(log.topics.data() + t * kTopicBytes);
  d.bytes(log.data);
  d.value(log.block_number);
  d.fixed(log.tx_hash.data(), kHashBytes);
  d.value(log.tx_index);
  d.value(log.log_index);
  d.value(log.removed ? 1 : 0);
  d.log();
}
inline LogsDigest digest_of(std::span<const Log> logs) noexcept {
  LogsDigest d;
  for (const Log& l : logs) fold(l, d);
  return d;
}
inline LogsScan scan_of(std::span<const Log> logs) noexcept {
  LogsScan s;
  for (const Log& l : logs) {
    ++s.count;
    s.block_sum += l.block_number;
  }
  return s;
}
inline LogPick pick_of(const Log& l) noexcept { return LogPick{l.log_index, l.tx_hash}; }

// AccessOne's k for N logs (N > 0).
constexpr std::uint32_t middle_log(std::uint32_t n) noexcept { return n / 2; }

// ---- the ZAP layouts (docs/spec/zap-logs.md) --------------------------------

// LogsRequest: one 40-byte object, the root.
struct LogsRequestZap {
  static constexpr std::uint32_t kSizeBytes = 40;
  static constexpr std::uint32_t kFromBlockAt = 0;  // u64
  static constexpr std::uint32_t kToBlockAt = 8;    // u64
  static constexpr std::uint32_t kAddressAt = 16;   // bytes_fixed[20]
  static constexpr std::uint32_t kLimitAt = 36;     // u32
};
// LogsResponse: the root, an 8-byte object holding the list slot; the list
// body: N inline Log structs of kStrideBytes; then every log's tails, in log
// order (topics, then data), packed.
struct LogsResponseZap {
  static constexpr std::uint32_t kSizeBytes = 8;
  static constexpr std::uint32_t kLogsAt = 0;  // list slot: rel i32, len u32 (the log count)
};
struct LogZap {
  static constexpr std::uint32_t kStrideBytes = 88;
  static constexpr std::uint32_t kBlockNumberAt = 0;  // u64
  static constexpr std::uint32_t kTxIndexAt = 8;      // u32
  static constexpr std::uint32_t kLogIndexAt = 12;    // u32
  static constexpr std::uint32_t kAddressAt = 16;     // bytes_fixed[20]
  static constexpr std::uint32_t kRemovedAt = 36;     // bool (u8; 37–39 zero)
  static constexpr std::uint32_t kTxHashAt = 40;      // bytes_fixed[32]
  static constexpr std::uint32_t kTopicsAt = 72;      // Bytes: the topics back to back (32 × count)
  static constexpr std::uint32_t kDataAt = 80;        // Bytes
};

// ---- the surface every codec offers for it ----------------------------------

// Encoders return views into the codec's own reusable buffers (valid until
// the next encode of the same message); decoders take inputs with
// kInputPaddingBytes of readable padding and return a DecodeError, with the
// same meanings as the first record's (bad_length: an address, hash or topic
// of the wrong size; missing_field; syntax …). logs_access_one on k >= N is
// DecodeError::missing_field.
template <class C>
concept LogsCodec = requires(C c, const LogsRequest& q, std::span<const Log> logs, Bytes in, LogsRequest& qv,
                             LogsDigest& d, std::uint32_t k, LogPick& pick, LogsScan& scan) {
  { c.encode_logs_request(q) } -> std::same_as<Bytes>;
  { c.decode_logs_request(in, qv) } -> std::same_as<DecodeError>;
  { c.encode_logs(logs) } -> std::same_as<Bytes>;
  { c.logs_decode_all(in, d) } -> std::same_as<DecodeError>;
  { c.logs_access_one(in, k, pick) } -> std::same_as<DecodeError>;
  { c.logs_scan(in, scan) } -> std::same_as<DecodeError>;
};

}  // namespace record
