// record/codec_msgpack.cpp — Msgpack::State, MsgpackCodec's work: the packer encoders, and the
// visitors behind msgpack-c's streaming parser (the wire shapes' checks, the fairness contract's
// errors): the record visitor for the eth record and the logs request, the logs visitor for the
// eth_getLogs answer. See the header for the wire shapes and why this is msgpack-c's fastest
// idiomatic path.
#include "record/codec_msgpack.hpp"

// msgpack-cxx is header-only; without MSGPACK_NO_BOOST it includes Boost (Debian's package wants
// Boost 1.74, which cannot be installed beside the 1.81 the boostjson codec needs). Nothing here
// uses the Boost adaptors (variant, optional, Spirit X3).
#ifndef MSGPACK_NO_BOOST
#define MSGPACK_NO_BOOST
#endif
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <msgpack.hpp>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "record/library_codec_impl.hpp"

namespace record {
namespace {

// What one position of the array holds.
enum class Kind : std::uint8_t { u64, u32, str, bin };

struct Layout {
  Kind kinds[4];
  std::size_t bin_bytes;  // the byte field's exact size
};
constexpr Layout kRequestLayout{{Kind::u64, Kind::u64, Kind::str, Kind::bin}, kAccountBytes};
constexpr Layout kResponseLayout{{Kind::u64, Kind::u64, Kind::u64, Kind::bin}, kHashBytes};
constexpr Layout kLogsRequestLayout{{Kind::u64, Kind::u64, Kind::bin, Kind::u32}, kAccountBytes};
constexpr std::uint32_t kElements = 4;

// The record visitor (msgpack-c's visitor concept; msgpack::null_visitor supplies the events it
// ignores: the array's item boundaries). It accepts exactly one array of four values of the
// layout's kinds and stops the parse (returns false) at the first thing that is not, keeping the
// error. Strings and bins arrive as pointers into the parsed buffer: kept as views.
class RecordVisitor : public msgpack::null_visitor {
 public:
  explicit RecordVisitor(const Layout& layout) noexcept : layout_(layout) {}

  // Called by the parser's reset() (the context's init), before every parse.
  void init() noexcept {
    error_ = DecodeError::ok;
    in_array_ = false;
    index_ = 0;
  }

  DecodeError error() const noexcept { return error_; }
  std::uint64_t integer(std::size_t i) const noexcept { return ints_[i]; }
  std::string_view text() const noexcept { return text_; }
  std::string_view bytes() const noexcept { return bytes_; }

  bool visit_positive_integer(std::uint64_t v) noexcept {
    if (!in_array_) return fail(DecodeError::wrong_type);
    const Kind k = layout_.kinds[index_];
    if (k == Kind::u32 && v > std::numeric_limits<std::uint32_t>::max())
      return fail(DecodeError::integer_overflow);
    if (k != Kind::u64 && k != Kind::u32) return fail(DecodeError::wrong_type);
    ints_[index_] = v;
    return true;
  }
  // msgpack-c reports every signed format (int 8..64) here, whatever its sign: a non-negative
  // value is the same MessagePack integer as its unsigned form (msgpack-c's own object model
  // makes it a POSITIVE_INTEGER).
  bool visit_negative_integer(std::int64_t v) noexcept {
    if (v < 0) return fail(DecodeError::wrong_type);
    return visit_positive_integer(static_cast<std::uint64_t>(v));
  }
  bool visit_str(const char* p, std::uint32_t n) noexcept {
    if (!expect(Kind::str)) return false;
    text_ = n == 0 ? std::string_view() : std::string_view(p, n);
    return true;
  }
  bool visit_bin(const char* p, std::uint32_t n) noexcept {
    if (!expect(Kind::bin)) return false;
    if (n != layout_.bin_bytes) return fail(DecodeError::bad_length);
    bytes_ = std::string_view(p, n);
    return true;
  }
  // nil is MessagePack's "no value": for the byte field, which must be present, that is
  // missing_field; for an integer or the method a wrong type (msgpack-c's own conversion of nil
  // to an integer or a string throws msgpack::type_error).
  bool visit_nil() noexcept {
    if (in_array_ && layout_.kinds[index_] == Kind::bin) return fail(DecodeError::missing_field);
    return fail(DecodeError::wrong_type);
  }
  bool visit_boolean(bool) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_float32(float) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_float64(double) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_ext(const char*, std::uint32_t) noexcept { return fail(DecodeError::wrong_type); }
  bool start_map(std::uint32_t) noexcept { return fail(DecodeError::wrong_type); }
  // The record's one array. Fewer than four values: the last, the byte field, is absent (as
  // msgpack-c's MSGPACK_DEFINE reads a short array: trailing members absent). Nested: wrong type.
  bool start_array(std::uint32_t n) noexcept {
    if (in_array_) return fail(DecodeError::wrong_type);
    if (n < kElements) return fail(DecodeError::missing_field);
    if (n > kElements) return fail(DecodeError::wrong_type);
    in_array_ = true;
    return true;
  }
  bool end_array_item() noexcept {
    ++index_;
    return true;
  }
  void parse_error(std::size_t, std::size_t) noexcept { error_ = DecodeError::syntax; }
  void insufficient_bytes(std::size_t, std::size_t) noexcept { error_ = DecodeError::syntax; }
  // It never stops a parse early on success (the parser's contract below).
  bool finished() const noexcept { return false; }

 private:
  bool fail(DecodeError e) noexcept {
    error_ = e;
    return false;
  }
  // A scalar outside the array (the root is not an array), or of another kind than its position's.
  bool expect(Kind k) noexcept {
    return in_array_ && layout_.kinds[index_] == k ? true : fail(DecodeError::wrong_type);
  }

  const Layout& layout_;
  DecodeError error_ = DecodeError::ok;
  bool in_array_ = false;
  std::uint32_t index_ = 0;  // < kElements while in the array: it holds exactly kElements values
  std::uint64_t ints_[kElements] = {};
  std::string_view text_;
  std::string_view bytes_;
};

// The parser's hook for buffers a visitor keeps referenced after the parser moves on; this
// visitor never says it does (referenced() is null_visitor's false), so it is never called.
struct NoHook {
  void operator()(char*) const noexcept {}
};
NoHook no_hook;

// One streaming msgpack::parser with a visitor: the parse context (and its container stack) and
// the input buffer live as long as the codec. The buffer starts at 4 KiB (the library's default is
// 64 KiB, per parser): inputs are appended after the last one's and the buffer rewinds to its
// start when it is full, so it grows only for an input larger than itself (an answer of N logs:
// once, to the largest answer's size). Visitor: error(), the error that stopped the parse (ok if
// none), and finished(), whether it stopped the parse because it had all it wanted (AccessOne).
template <class Visitor>
class StreamParser : public msgpack::parser<StreamParser<Visitor>, NoHook> {
  using Base = msgpack::parser<StreamParser<Visitor>, NoHook>;

 public:
  static constexpr std::size_t kInitialBuffer = 4096;

  template <class... Args>
  explicit StreamParser(Args&&... args)
      : Base(no_hook, kInitialBuffer), visitor_(std::forward<Args>(args)...) {}

  // The holder's part of the parser's concept: the visitor, and whether it keeps views into a
  // buffer the parser would otherwise reuse (never: the views live until the next parse).
  Visitor& visitor() noexcept { return visitor_; }
  bool referenced() const noexcept { return false; }
  void set_referenced(bool) noexcept {}

  // One parse of `in`, copied into the parser's buffer: syntax, trailing, a visitor's error or
  // ok (the visitor then holds what it read, its views into that buffer).
  DecodeError parse(Bytes in) {
    this->reset();  // the context and the visitor, after any outcome
    this->skip_nonparsed_buffer(
        this->nonparsed_size());      // the last input's unread bytes (trailing, an error)
    this->reserve_buffer(in.size());  // rewinds (or grows) only when the rest is short
    if (!in.empty()) std::memcpy(this->buffer(), in.data(), in.size());
    this->buffer_consumed(in.size());
    bool done = false;
    try {
      done = this->next();
    } catch (const msgpack::unpack_error&) {  // ext 32 of size 0xffffffff (ext_size_overflow)
      return DecodeError::syntax;
    }
    if (!done) {
      if (visitor_.error() != DecodeError::ok) return visitor_.error();
      return visitor_.finished() ? DecodeError::ok : DecodeError::syntax;
    }
    return this->nonparsed_size() == 0 ? DecodeError::ok : DecodeError::trailing;
  }

 private:
  Visitor visitor_;
};
using RecordParser = StreamParser<RecordVisitor>;

// ---- eth_getLogs -----------------------------------------------------------------

// The logs visitor: one pass over an answer (codec_msgpack.hpp: an array of N logs, each an array
// of 8), for the three read operations. Every log is checked as it goes by (its shape, each
// position's type, the byte fields' lengths, the u32 range); what is kept depends on the
// operation: DecodeAll folds every field into the digest in the wire's order, which is the
// digest's (the topic count at the topics' array header); ScanField adds blockNumber; AccessOne
// keeps logIndex and transactionHash of log k and stops the parse at its end: the k logs before
// it are parsed (MessagePack has no lengths to skip by), the N − k − 1 after it are not read.
enum class LogsOp : std::uint8_t { decode_all, access_one, scan };

class LogsVisitor : public msgpack::null_visitor {
 public:
  // The positions of a log's array.
  enum Field : std::uint32_t { address, topics, data, block_number, tx_hash, tx_index, log_index, removed };
  static constexpr std::uint32_t kFields = 8;

  // Before a parse: what to do, and where to put it (the parser's reset() then calls init()).
  void start(LogsOp op, LogsDigest* digest, LogsScan* scan, LogPick* pick, std::uint32_t k) noexcept {
    op_ = op;
    digest_ = digest;
    scan_ = scan;
    pick_ = pick;
    k_ = k;
  }
  void init() noexcept {
    error_ = DecodeError::ok;
    finished_ = false;
    depth_ = 0;
    field_ = 0;
    log_ = 0;
    count_ = 0;
  }
  DecodeError error() const noexcept { return error_; }
  bool finished() const noexcept { return finished_; }
  std::uint32_t count() const noexcept { return count_; }

  bool visit_positive_integer(std::uint64_t v) noexcept {
    if (depth_ != kInLog) return fail(DecodeError::wrong_type);
    switch (field_) {
      case block_number:
        if (op_ == LogsOp::decode_all) digest_->value(v);
        if (op_ == LogsOp::scan) scan_->block_sum += v;
        return true;
      case tx_index:
      case log_index:
        if (v > std::numeric_limits<std::uint32_t>::max()) return fail(DecodeError::integer_overflow);
        if (op_ == LogsOp::decode_all) digest_->value(v);
        if (op_ == LogsOp::access_one && field_ == log_index && log_ == k_)
          pick_->log_index = static_cast<std::uint32_t>(v);
        return true;
      default:
        return fail(DecodeError::wrong_type);
    }
  }
  // A non-negative signed format is the same integer (as for the record visitor).
  bool visit_negative_integer(std::int64_t v) noexcept {
    if (v < 0) return fail(DecodeError::wrong_type);
    return visit_positive_integer(static_cast<std::uint64_t>(v));
  }
  bool visit_bin(const char* p, std::uint32_t n) noexcept {
    const auto* b = reinterpret_cast<const std::uint8_t*>(p);
    if (depth_ == kInTopics) {
      if (n != kTopicBytes) return fail(DecodeError::bad_length);
      if (op_ == LogsOp::decode_all) digest_->topic(b);
      return true;
    }
    if (depth_ != kInLog) return fail(DecodeError::wrong_type);
    switch (field_) {
      case address:
        if (n != kAccountBytes) return fail(DecodeError::bad_length);
        if (op_ == LogsOp::decode_all) digest_->fixed(b, kAccountBytes);
        return true;
      case data:
        if (op_ == LogsOp::decode_all) digest_->bytes(Bytes{b, n});
        return true;
      case tx_hash:
        if (n != kHashBytes) return fail(DecodeError::bad_length);
        if (op_ == LogsOp::decode_all) digest_->fixed(b, kHashBytes);
        if (op_ == LogsOp::access_one && log_ == k_) std::memcpy(pick_->tx_hash.data(), b, kHashBytes);
        return true;
      default:
        return fail(DecodeError::wrong_type);
    }
  }
  bool visit_boolean(bool v) noexcept {
    if (depth_ != kInLog || field_ != removed) return fail(DecodeError::wrong_type);
    if (op_ == LogsOp::decode_all) digest_->value(v ? 1 : 0);
    return true;
  }
  // nil for a byte field (address, data, transactionHash), which must be present: missing_field,
  // as the record visitor says; anywhere else a wrong type.
  bool visit_nil() noexcept {
    if (depth_ == kInLog && (field_ == address || field_ == data || field_ == tx_hash))
      return fail(DecodeError::missing_field);
    return fail(DecodeError::wrong_type);
  }
  bool visit_str(const char*, std::uint32_t) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_float32(float) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_float64(double) noexcept { return fail(DecodeError::wrong_type); }
  bool visit_ext(const char*, std::uint32_t) noexcept { return fail(DecodeError::wrong_type); }
  bool start_map(std::uint32_t) noexcept { return fail(DecodeError::wrong_type); }

  // The answer's array, a log's, or a log's topics; any other array is a wrong type, so the
  // parser's container stack never passes three levels (it never allocates past its reserve).
  bool start_array(std::uint32_t n) noexcept {
    switch (depth_) {
      case kOutside:
        count_ = n;
        if (op_ == LogsOp::access_one && k_ >= n) return fail(DecodeError::missing_field);
        depth_ = kInAnswer;
        return true;
      case kInAnswer:
        // Fewer than 8: the trailing fields are absent (as the record visitor reads a short array).
        if (n < kFields) return fail(DecodeError::missing_field);
        if (n > kFields) return fail(DecodeError::wrong_type);
        depth_ = kInLog;
        field_ = 0;
        return true;
      case kInLog:
        if (field_ != topics) return fail(DecodeError::wrong_type);
        if (n > kMaxTopics) return fail(DecodeError::bad_length);
        if (op_ == LogsOp::decode_all) digest_->value(n);
        depth_ = kInTopics;
        return true;
      default:
        return fail(DecodeError::wrong_type);
    }
  }
  bool end_array_item() noexcept {
    if (depth_ == kInLog) ++field_;
    return true;
  }
  bool end_array() noexcept {
    if (depth_ == kInLog) {  // a log's end
      if (op_ == LogsOp::decode_all) digest_->log();
      if (op_ == LogsOp::access_one && log_ == k_) {
        finished_ = true;  // log k read: the rest of the answer is not AccessOne's business
        return false;
      }
      ++log_;
    }
    --depth_;
    return true;
  }
  void parse_error(std::size_t, std::size_t) noexcept { error_ = DecodeError::syntax; }
  void insufficient_bytes(std::size_t, std::size_t) noexcept { error_ = DecodeError::syntax; }

 private:
  // Where the parse is: outside every array, in the answer's, in a log's, in a log's topics.
  enum Depth : std::uint32_t { kOutside, kInAnswer, kInLog, kInTopics };

  bool fail(DecodeError e) noexcept {
    error_ = e;
    return false;
  }

  LogsOp op_ = LogsOp::decode_all;
  LogsDigest* digest_ = nullptr;
  LogsScan* scan_ = nullptr;
  LogPick* pick_ = nullptr;
  std::uint32_t k_ = 0;
  DecodeError error_ = DecodeError::ok;
  bool finished_ = false;
  std::uint32_t depth_ = kOutside;
  std::uint32_t field_ = 0;  // the position in the current log's array
  std::uint32_t log_ = 0;    // the current log's index
  std::uint32_t count_ = 0;  // N, from the answer's array header
};

// msgpack-c's packer writes each header and body through Buffer::write; sbuffer::clear() keeps
// its allocation.
using Packer = msgpack::packer<msgpack::sbuffer>;

Bytes view(const msgpack::sbuffer& b) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(b.data()), b.size()};
}

void pack_bin(Packer& p, const std::uint8_t* data, std::size_t n) {
  p.pack_bin(static_cast<std::uint32_t>(n));
  p.pack_bin_body(reinterpret_cast<const char*>(data), static_cast<std::uint32_t>(n));
}

}  // namespace

// Measured on the sample messages (g++ 12 -O3, `zapbench micro --min-time 0.2`, CPU ns per op on a
// busy 2-core development VM: noisy, indicative; Decode is a request and a response):
//   decode: reused msgpack::parser + this visitor        ~81 ns, 0 allocs; Handler ~62 ns, 0 allocs
//           msgpack::parse(data, len, off, visitor)      ~76 ns, 2 allocs; Handler ~59 ns, 1 alloc
//             (a parse context per call: its stack vector reserves MSGPACK_EMBED_STACK_SIZE)
//           msgpack::unpack into a reused msgpack::zone,
//             then msgpack::object's array               ~200 ns per request alone (a standalone
//             loop), 2+ allocs (the parse stack and the object visitor's stack), plus zone chunks
//   encode: packer into a clear()ed sbuffer (this)       ~28 ns per request + response, 0 allocs
// The parser's copy of the input (a few dozen bytes) costs about what the one-shot parse's
// allocation does; the reused parser is kept for its 0 allocations.
//
// eth_getLogs, N = 1000 logs (219 KB), CPU µs per op, the least of 3-6 runs on the same busy VM:
//   Encode     packer into the reused sbuffer (this)                ~39, 0 allocs
//   DecodeAll  reused msgpack::parser + the logs visitor (this)     ~93-105, 0 allocs
//              msgpack::parse(data, len, off, visitor), in place    ~92-94, 1 alloc (the context's stack)
//   AccessOne  k = 500, the same two ways                           ~44-63 / ~43-46
//   ScanField  the same two ways                                    ~95-108 / ~84-91
// (N = 10 000: DecodeAll ~1 000-1 150 / ~1 010-1 040.) The parse in place saves the copy of the
// input into the parser's buffer, a few percent, within this VM's noise at best; the reused parser is
// kept, as for the record, for its 0 allocations, and because the copy is an artefact of a decode
// handed bytes: a server reads the socket straight into the parser's buffer (its streaming API:
// reserve_buffer, buffer, buffer_consumed), with no copy at all.
struct Msgpack::State {
  msgpack::sbuffer request_out{256};
  msgpack::sbuffer response_out{256};
  Packer request_packer{request_out};
  Packer response_packer{response_out};
  RecordParser request_parser{kRequestLayout};
  RecordParser response_parser{kResponseLayout};
  // eth_getLogs: one buffer and one parser per message; the answer's parser serves the three
  // read operations (its buffer grows once, to the largest answer).
  msgpack::sbuffer logs_request_out{256};
  msgpack::sbuffer logs_out{64 * 1024};
  Packer logs_request_packer{logs_request_out};
  Packer logs_packer{logs_out};
  RecordParser logs_request_parser{kLogsRequestLayout};
  StreamParser<LogsVisitor> logs_parser;

  Bytes encode_request(const Request& r) {
    if (r.method.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("msgpack: a str holds at most 2^32-1 bytes");
    request_out.clear();
    Packer& p = request_packer;
    p.pack_array(kElements);
    p.pack_uint64(r.id);
    p.pack_uint64(r.block);
    p.pack_str(static_cast<std::uint32_t>(r.method.size()));
    p.pack_str_body(r.method.data(), static_cast<std::uint32_t>(r.method.size()));
    pack_bin(p, r.account.data(), r.account.size());
    return view(request_out);
  }

  Bytes encode_response(const Response& r) {
    response_out.clear();
    Packer& p = response_packer;
    p.pack_array(kElements);
    p.pack_uint64(r.id);
    p.pack_uint64(r.balance);
    p.pack_uint64(r.nonce);
    pack_bin(p, r.block_hash.data(), r.block_hash.size());
    return view(response_out);
  }

  DecodeError decode_request(Bytes in, RequestView& out) {
    const DecodeError e = request_parser.parse(in);
    if (e != DecodeError::ok) return e;
    const RecordVisitor& v = request_parser.visitor();
    out.id = v.integer(0);
    out.block = v.integer(1);
    out.method = v.text();
    out.account = v.bytes();
    out.account0 = static_cast<std::uint8_t>(v.bytes()[0]);
    out.account_form = Form::raw;
    return DecodeError::ok;
  }

  DecodeError decode_response(Bytes in, ResponseView& out) {
    const DecodeError e = response_parser.parse(in);
    if (e != DecodeError::ok) return e;
    const RecordVisitor& v = response_parser.visitor();
    out.id = v.integer(0);
    out.balance = v.integer(1);
    out.nonce = v.integer(2);
    out.block_hash = v.bytes();
    out.block_hash_form = Form::raw;
    return DecodeError::ok;
  }

  // ---- eth_getLogs (the layouts in codec_msgpack.hpp) ----

  Bytes encode_logs_request(const LogsRequest& r) {
    logs_request_out.clear();
    Packer& p = logs_request_packer;
    p.pack_array(kElements);
    p.pack_uint64(r.from_block);
    p.pack_uint64(r.to_block);
    pack_bin(p, r.address.data(), r.address.size());
    p.pack_uint32(r.limit);
    return view(logs_request_out);
  }

  DecodeError decode_logs_request(Bytes in, LogsRequest& out) {
    const DecodeError e = logs_request_parser.parse(in);
    if (e != DecodeError::ok) return e;
    const RecordVisitor& v = logs_request_parser.visitor();
    out.from_block = v.integer(0);
    out.to_block = v.integer(1);
    std::memcpy(out.address.data(), v.bytes().data(), kAccountBytes);
    out.limit = static_cast<std::uint32_t>(v.integer(3));  // range-checked by the visitor
    return DecodeError::ok;
  }

  // The answer in one pass of packer calls into the reused sbuffer: each header and body is one
  // Buffer::write (a bounds check and a memcpy); no allocation once the buffer has reached the
  // largest answer's size.
  Bytes encode_logs(std::span<const Log> logs) {
    if (logs.size() > std::numeric_limits<std::uint32_t>::max())
      throw std::length_error("msgpack: an array holds at most 2^32-1 elements");
    logs_out.clear();
    Packer& p = logs_packer;
    p.pack_array(static_cast<std::uint32_t>(logs.size()));
    for (const Log& l : logs) {
      if (l.data.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("msgpack: a bin holds at most 2^32-1 bytes");
      p.pack_array(LogsVisitor::kFields);
      pack_bin(p, l.address.data(), kAccountBytes);
      const std::size_t topics = l.topic_count();
      p.pack_array(static_cast<std::uint32_t>(topics));
      for (std::size_t t = 0; t < topics; ++t) pack_bin(p, l.topics.data() + t * kTopicBytes, kTopicBytes);
      pack_bin(p, l.data.data(), l.data.size());
      p.pack_uint64(l.block_number);
      pack_bin(p, l.tx_hash.data(), kHashBytes);
      p.pack_uint32(l.tx_index);
      p.pack_uint32(l.log_index);
      if (l.removed)
        p.pack_true();
      else
        p.pack_false();
    }
    return view(logs_out);
  }

  DecodeError logs_decode_all(Bytes in, LogsDigest& out) {
    logs_parser.visitor().start(LogsOp::decode_all, &out, nullptr, nullptr, 0);
    return logs_parser.parse(in);
  }

  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    logs_parser.visitor().start(LogsOp::access_one, nullptr, nullptr, &out, k);
    return logs_parser.parse(in);
  }

  DecodeError logs_scan(Bytes in, LogsScan& out) {
    logs_parser.visitor().start(LogsOp::scan, nullptr, &out, nullptr, 0);
    const DecodeError e = logs_parser.parse(in);
    if (e == DecodeError::ok) out.count += logs_parser.visitor().count();
    return e;
  }
};

template class LibraryCodec<Msgpack>;

}  // namespace record
