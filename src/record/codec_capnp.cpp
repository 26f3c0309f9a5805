// record/codec_capnp.cpp — Capnp::State and CapnpPacked::State, the capnp codecs' work: building the
// records (Request / Response, and the logs record's LogsRequest / LogsResponse) with the generated
// builders on a reused first segment and writing them (standard framing or packed) into a reused
// buffer; reading them back with FlatArrayMessageReader or PackedMessageReader and checking the
// contract (presence and length of the Data fields, the topics' count and lengths, no trailing
// bytes, every kj::Exception mapped to syntax). See the header for why.
#include "record/codec_capnp.hpp"

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "capnp.capnp.h"  // generated at build time (codec_capnp.cmake)
#include "record/library_codec_impl.hpp"

namespace record {
namespace {

namespace wire = zapbench_capnp;

// An owned, word-aligned, zero-initialized array of capnp words that only grows.
class Words {
 public:
  explicit Words(std::size_t n) : data_(new capnp::word[n]()), size_(n) {}

  // At least n words (new ones zeroed); the contents are kept only when nothing grows.
  void reserve(std::size_t n) {
    if (n <= size_) return;
    const std::size_t want = n > 2 * size_ ? n : 2 * size_;
    data_.reset(new capnp::word[want]());
    size_ = want;
  }
  capnp::word* data() noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }
  kj::ArrayPtr<capnp::word> words() noexcept { return {data_.get(), size_}; }
  kj::ArrayPtr<kj::byte> bytes() noexcept { return words().asBytes(); }

 private:
  std::unique_ptr<capnp::word[]> data_;
  std::size_t size_;
};

constexpr std::size_t words_for(std::size_t bytes) noexcept { return (bytes + 7) / 8; }

// The words a record takes in one segment: the root pointer, the struct (data words + pointers), then
// each pointed-to object (Text carries its NUL).
constexpr std::size_t request_words(std::size_t method_bytes) noexcept {
  return 1 + (2 + 2) + words_for(method_bytes + 1) + words_for(kAccountBytes);
}
constexpr std::size_t kResponseWords = 1 + (3 + 1) + words_for(kHashBytes);
constexpr std::size_t kLogsRequestWords = 1 + (3 + 1) + words_for(kAccountBytes);
static_assert(wire::LogsRequest::_capnpPrivate::dataWordSize == 3 &&
              wire::LogsRequest::_capnpPrivate::pointerCount == 1);

// The words of an answer, exactly as the builder lays it out in one segment: the root pointer, the
// LogsResponse struct (one pointer), the list's tag word and its N inline Log structs, then each
// log's objects: address, topics (a list of pointers, then each topic's 4 words), data (none when
// empty: left null), transaction hash. Exact, so the first segment is sized once and never
// overflows into a segment the builder would malloc.
constexpr std::size_t kLogStructWords =
    wire::Log::_capnpPrivate::dataWordSize + wire::Log::_capnpPrivate::pointerCount;
std::size_t logs_words(std::span<const Log> logs) noexcept {
  std::size_t words = 1 + 1 + 1 + logs.size() * kLogStructWords;
  for (const Log& l : logs)
    words += words_for(kAccountBytes) + l.topic_count() * (1 + words_for(kTopicBytes)) +
             words_for(l.data.size()) + words_for(kHashBytes);
  return words;
}

capnp::Data::Reader data_of(Bytes b) noexcept { return {b.data(), b.size()}; }

std::string_view chars(kj::ArrayPtr<const kj::byte> b) noexcept {
  return {reinterpret_cast<const char*>(b.begin()), b.size()};
}

// The views of a decoded root, whichever reader it came from: the contract's checks.
DecodeError read(wire::Request::Reader r, RequestView& out) {
  if (!r.hasAccount()) return DecodeError::missing_field;
  const capnp::Data::Reader account = r.getAccount();
  if (account.size() != kAccountBytes) return DecodeError::bad_length;
  const capnp::Text::Reader method = r.getMethod();  // absent: "" (the schema's default)
  out.id = r.getId();
  out.block = r.getBlock();
  out.method = {method.begin(), method.size()};
  out.account = chars(account);
  out.account0 = account[0];
  out.account_form = Form::raw;
  return DecodeError::ok;
}

DecodeError read(wire::Response::Reader r, ResponseView& out) {
  if (!r.hasBlockHash()) return DecodeError::missing_field;
  const capnp::Data::Reader hash = r.getBlockHash();
  if (hash.size() != kHashBytes) return DecodeError::bad_length;
  out.id = r.getId();
  out.balance = r.getBalance();
  out.nonce = r.getNonce();
  out.block_hash = chars(hash);
  out.block_hash_form = Form::raw;
  return DecodeError::ok;
}

DecodeError read(wire::LogsRequest::Reader r, LogsRequest& out) {
  if (!r.hasAddress()) return DecodeError::missing_field;
  const capnp::Data::Reader address = r.getAddress();
  if (address.size() != kAccountBytes) return DecodeError::bad_length;
  out.from_block = r.getFromBlock();
  out.to_block = r.getToBlock();
  std::memcpy(out.address.data(), address.begin(), kAccountBytes);
  out.limit = r.getLimit();
  return DecodeError::ok;
}

// Logs/DecodeAll: the list is taken once (each getLogs() counts the whole list against the
// reader's traversal limit), then every log's fields, each pointer bounds-checked as it is followed.
DecodeError read_all(wire::LogsResponse::Reader r, LogsDigest& d) {
  for (const wire::Log::Reader l : r.getLogs()) {
    const capnp::Data::Reader address = l.getAddress();
    const capnp::Data::Reader tx_hash = l.getTransactionHash();
    // Of the right length, a Data field is present (a null pointer reads as empty), so has*() (two
    // more calls into the library, 8% of DecodeAll) is asked only to tell missing from bad_length.
    if (address.size() != kAccountBytes || tx_hash.size() != kHashBytes)
      return !l.hasAddress() || !l.hasTransactionHash() ? DecodeError::missing_field
                                                        : DecodeError::bad_length;
    const capnp::List<capnp::Data>::Reader topics = l.getTopics();  // absent: empty
    if (topics.size() > kMaxTopics) return DecodeError::bad_length;
    d.fixed(address.begin(), kAccountBytes);
    d.value(topics.size());
    for (const capnp::Data::Reader t : topics) {
      if (t.size() != kTopicBytes) return DecodeError::bad_length;
      d.topic(t.begin());
    }
    const capnp::Data::Reader data = l.getData();  // absent: empty
    d.bytes(Bytes{data.begin(), data.size()});
    d.value(l.getBlockNumber());
    d.fixed(tx_hash.begin(), kHashBytes);
    d.value(l.getTransactionIndex());
    d.value(l.getLogIndex());
    d.value(l.getRemoved() ? 1 : 0);
    d.log();
  }
  return DecodeError::ok;
}

// Logs/AccessOne: the list's element k (a struct at k × stride in the list's body), then its two
// fields. Nothing else of the answer is read.
DecodeError read_one(wire::LogsResponse::Reader r, std::uint32_t k, LogPick& out) {
  const capnp::List<wire::Log>::Reader logs = r.getLogs();
  if (k >= logs.size()) return DecodeError::missing_field;
  const wire::Log::Reader l = logs[k];
  const capnp::Data::Reader tx_hash = l.getTransactionHash();
  if (tx_hash.size() != kHashBytes)
    return l.hasTransactionHash() ? DecodeError::bad_length : DecodeError::missing_field;
  out.log_index = l.getLogIndex();
  std::memcpy(out.tx_hash.data(), tx_hash.begin(), kHashBytes);
  return DecodeError::ok;
}

DecodeError read_scan(wire::LogsResponse::Reader r, LogsScan& out) {
  const capnp::List<wire::Log>::Reader logs = r.getLogs();
  for (const wire::Log::Reader l : logs) out.block_sum += l.getBlockNumber();
  out.count += logs.size();
  return DecodeError::ok;
}

void fill(wire::Request::Builder b, const Request& r) {
  b.setId(r.id);
  b.setBlock(r.block);
  b.setMethod(capnp::Text::Reader(r.method.data(), r.method.size()));
  b.setAccount(capnp::Data::Reader(r.account.data(), r.account.size()));
}

void fill(wire::Response::Builder b, const Response& r) {
  b.setId(r.id);
  b.setBalance(r.balance);
  b.setNonce(r.nonce);
  b.setBlockHash(capnp::Data::Reader(r.block_hash.data(), r.block_hash.size()));
}

void fill(wire::LogsRequest::Builder b, const LogsRequest& r) {
  b.setFromBlock(r.from_block);
  b.setToBlock(r.to_block);
  b.setAddress(data_of(r.address));
  b.setLimit(r.limit);
}

// Each Log written in place in the list's body; its Data objects are allocated after it, in field
// order (logs_words counts them). Empty topics and data are left null: they read as empty.
void fill(wire::LogsResponse::Builder b, std::span<const Log> logs) {
  capnp::List<wire::Log>::Builder list = b.initLogs(static_cast<unsigned>(logs.size()));
  for (std::size_t i = 0; i < logs.size(); ++i) {
    const Log& l = logs[i];
    wire::Log::Builder o = list[static_cast<unsigned>(i)];
    o.setAddress(data_of(l.address));
    if (const std::size_t n = l.topic_count(); n != 0) {
      capnp::List<capnp::Data>::Builder topics = o.initTopics(static_cast<unsigned>(n));
      for (std::size_t t = 0; t < n; ++t)
        topics.set(static_cast<unsigned>(t), data_of(l.topics.subspan(t * kTopicBytes, kTopicBytes)));
    }
    if (!l.data.empty()) o.setData(data_of(l.data));
    o.setBlockNumber(l.block_number);
    o.setTransactionHash(data_of(l.tx_hash));
    o.setTransactionIndex(l.tx_index);
    o.setLogIndex(l.log_index);
    o.setRemoved(l.removed);
  }
}

// What both rows share: the encoders. One builder per op (MallocMessageBuilder cannot be reset) over
// the first segment, which is sized beforehand so the message is always one segment (no segment is
// ever malloc'ed) and which the builder's destructor re-zeroes; then the framing into `out`.
template <bool kPacked>
class Encoder {
 public:
  Bytes request(const Request& r) { return encode<wire::Request>(request_words(r.method.size()), r); }
  Bytes response(const Response& r) { return encode<wire::Response>(kResponseWords, r); }
  Bytes logs_request(const LogsRequest& r) { return encode<wire::LogsRequest>(kLogsRequestWords, r); }
  Bytes logs(std::span<const Log> logs) { return encode<wire::LogsResponse>(logs_words(logs), logs); }

 private:
  template <class Root, class Values>
  Bytes encode(std::size_t words, const Values& v) {
    segment_.reserve(words);
    capnp::MallocMessageBuilder message(segment_.words());
    fill(message.initRoot<Root>(), v);
    const std::size_t serialized = capnp::computeSerializedSizeInWords(message);
    // Packing writes at most 10 bytes per word (a tag, 8 bytes, a run count).
    const std::size_t room = kPacked ? serialized * 10 : serialized * 8;
    out_.reserve(words_for(room));
    kj::ArrayOutputStream stream(out_.bytes().slice(0, room));
    if constexpr (kPacked)
      capnp::writePackedMessage(stream, message);
    else
      capnp::writeMessage(stream, message);
    const kj::ArrayPtr<kj::byte> written = stream.getArray();
    return {written.begin(), written.size()};
  }

  Words segment_{request_words(64)};
  Words out_{64};
};

}  // namespace

// Measured on the sample record (g++ 12 -O3, callgrind instructions per op; `capnp` / `capnp-packed`):
//   decode request: 931 / 2,440 Ir; the handler (decode + encode response) 1,947 / 4,329 Ir
//   encode response: 1,009 / 1,818 Ir: writeMessage into a reused kj::ArrayOutputStream (this);
//     messageToFlatArray(builder) writes the same bytes into a new kj::Array, one allocation per op
//   misaligned input: the flat reader's input copied first, 964 Ir against 931 read in place, so
//     check-then-copy (this) rather than always copying; the benchmarks' and servers' buffers are
//     aligned. Of the 931, FlatArrayMessageReader's and its ReaderArena's construction and getRoot
//     are a third; the bounds-checked pointer reads (struct, Text, Data) the rest.
// Allocations: none per op in steady state on either row (builder arena and readers live on the
// stack; the output, first segment, aligned copy and packed scratch are the State's and only grow).
// What still allocates is the library's own, on input this codec never writes: a message of several
// segments costs either reader a kj::Array of segment pointers; a packed message larger than the
// scratch costs the reader its own kj::Array once (the scratch then grows to fit it), every time when
// past kMaxScratchWords; every error builds a kj::Exception (with its stack trace).
//
// The logs record (`zapbench micro`, Logs/*, CPU µs per op at N = 1 000 / 10 000, two runs on the
// same loaded VM; the figures move 10-40% run to run; 0 allocs per op on both rows):
//   capnp         Encode 63-66 / 655-893, DecodeAll 67-70 / 687-819, AccessOne 0.08-0.12 (flat in
//                 N), ScanField 5.5-5.7 / 54-58
//   capnp-packed  Encode 214-218 / 2 149-2 193, DecodeAll 228-236 / 2 215-2 559, AccessOne 132-160 /
//                 1 466-1 573 (the unpacking), ScanField 133-160 / 1 326-1 470
// Where DecodeAll's time goes (perf, N = 1 000): PointerReader::getBlob 46% (6 Data per log of the
// sample: address, 3 topics, data, hash), getList 14% (the topics' list), getPointerType 8% (has*(),
// since asked only on a wrong length: DecodeAll 85 -> 67 µs). Topics as List(Data) are thus about a
// third of DecodeAll (getList and 3 of the 6 getBlob); one Data of 32 × count would trade that for
// one getBlob, at the price of a schema that says less (see schemas/capnp.capnp). Encode's copy of
// the segment by writeMessage is a memcpy of the answer (Logs/Copy/memcpy: about 60 µs at
// N = 10 000).

struct Capnp::State {
  Encoder<false> encoder;
  // The logs record's encoders: their own first segment and output, so an answer (a few MB at
  // N = 10 000, sized once) survives the other messages' encodes.
  Encoder<false> logs_request_encoder;
  Encoder<false> logs_encoder;
  Words aligned{64};  // misaligned input is copied here (FlatArrayMessageReader reads words)

  Bytes encode_request(const Request& r) { return encoder.request(r); }
  Bytes encode_response(const Response& r) { return encoder.response(r); }
  Bytes encode_logs_request(const LogsRequest& r) { return logs_request_encoder.logs_request(r); }
  Bytes encode_logs(std::span<const Log> logs) { return logs_encoder.logs(logs); }

  // The root of `in` as a Root, handed to read_root; its error, or the framing's.
  template <class Root, class Read>
  DecodeError decode_with(Bytes in, Read&& read_root) {
    // A flat message is whole words: a header word, then the segments.
    if (in.empty() || in.size() % sizeof(capnp::word) != 0) return DecodeError::syntax;
    const std::size_t n = in.size() / sizeof(capnp::word);
    const capnp::word* words = reinterpret_cast<const capnp::word*>(in.data());
    if (reinterpret_cast<std::uintptr_t>(in.data()) % alignof(capnp::word) != 0) {
      aligned.reserve(n);
      std::memcpy(aligned.data(), in.data(), in.size());
      words = aligned.data();
    }
    try {
      capnp::FlatArrayMessageReader reader(kj::arrayPtr(words, n));  // default ReaderOptions
      if (reader.getEnd() != words + n) return DecodeError::trailing;
      return read_root(reader.getRoot<Root>());
    } catch (const kj::Exception&) {
      return DecodeError::syntax;
    }
  }
  template <class Root, class Out>
  DecodeError decode(Bytes in, Out& out) {
    return decode_with<Root>(in, [&](typename Root::Reader r) { return read(r, out); });
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode<wire::Request>(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode<wire::Response>(in, out); }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) { return decode<wire::LogsRequest>(in, out); }
  DecodeError logs_decode_all(Bytes in, LogsDigest& out) {
    return decode_with<wire::LogsResponse>(in,
                                           [&](wire::LogsResponse::Reader r) { return read_all(r, out); });
  }
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    return decode_with<wire::LogsResponse>(in,
                                           [&](wire::LogsResponse::Reader r) { return read_one(r, k, out); });
  }
  DecodeError logs_scan(Bytes in, LogsScan& out) {
    return decode_with<wire::LogsResponse>(in,
                                           [&](wire::LogsResponse::Reader r) { return read_scan(r, out); });
  }
};

struct CapnpPacked::State {
  // The most scratch kept between decodes of the first record; a larger message is unpacked into the
  // reader's own kj::Array (allocated per op), as the library does without scratch.
  static constexpr std::size_t kMaxScratchWords = std::size_t{1} << 16;
  // For a logs answer (about 33 words a log: 2.6 MB unpacked at N = 10 000), up to the default
  // ReaderOptions' traversal limit, 8 Mi words: a larger message could not be read in full anyway.
  static constexpr std::size_t kMaxLogsScratchWords = std::size_t{8} << 20;

  Encoder<true> encoder;
  Encoder<true> logs_request_encoder;  // the logs record's: see Capnp::State
  Encoder<true> logs_encoder;
  Words scratch{128};  // the unpacked message (segment table excluded)
  // The views' bytes when the message did not fit the scratch (it dies with its reader).
  std::string method;
  Hash bytes{};

  Bytes encode_request(const Request& r) { return encoder.request(r); }
  Bytes encode_response(const Response& r) { return encoder.response(r); }
  Bytes encode_logs_request(const LogsRequest& r) { return logs_request_encoder.logs_request(r); }
  Bytes encode_logs(std::span<const Log> logs) { return logs_encoder.logs(logs); }

  // Keeps the views of a message unpacked outside the scratch (it dies with the reader).
  void own(RequestView& out) {
    method.assign(out.method);
    std::memcpy(bytes.data(), out.account.data(), kAccountBytes);
    out.method = method;
    out.account = {reinterpret_cast<const char*>(bytes.data()), kAccountBytes};
  }
  void own(ResponseView& out) {
    std::memcpy(bytes.data(), out.block_hash.data(), kHashBytes);
    out.block_hash = {reinterpret_cast<const char*>(bytes.data()), kHashBytes};
  }
  void own(LogsRequest&) {}  // values, not views
  // Grows the scratch to fit a message that did not, up to max_words.
  void grow(capnp::MessageReader& reader, std::size_t max_words) {
    std::size_t total = 0;
    for (unsigned i = 0; i < 512; ++i) {  // the reader rejects 512 segments or more
      const kj::ArrayPtr<const capnp::word> s = reader.getSegment(i);
      if (s.begin() == nullptr) break;
      total += s.size();
    }
    if (total <= max_words) scratch.reserve(total);
  }

  // The root of `in` as a Root, handed to read_root with whether the message was unpacked outside
  // the scratch; its error, or the framing's. Packed data says nothing of where a word is until
  // every word before it is unpacked, so every read, AccessOne's too, unpacks the whole message.
  template <class Root, class Read>
  DecodeError decode_with(Bytes in, std::size_t max_scratch_words, Read&& read_root) {
    try {
      kj::ArrayInputStream stream(kj::arrayPtr(in.data(), in.size()));
      {
        capnp::PackedMessageReader reader(stream, capnp::ReaderOptions(), scratch.words());
        const bool spilled = reader.getSegment(0).begin() != scratch.data();
        const DecodeError e = read_root(reader.getRoot<Root>(), spilled);
        if (e != DecodeError::ok) return e;
        if (spilled) grow(reader, max_scratch_words);
      }  // a multi-segment reader skips what it did not read here, which may throw
      if (stream.tryGetReadBuffer().size() != 0) return DecodeError::trailing;
      return DecodeError::ok;
    } catch (const kj::Exception&) {
      return DecodeError::syntax;
    }
  }
  template <class Root, class Out>
  DecodeError decode(Bytes in, Out& out) {
    return decode_with<Root>(in, kMaxScratchWords, [&](typename Root::Reader r, bool spilled) {
      const DecodeError e = read(r, out);
      if (e == DecodeError::ok && spilled) own(out);
      return e;
    });
  }
  template <class Read>
  DecodeError decode_logs(Bytes in, Read&& read_root) {
    return decode_with<wire::LogsResponse>(in, kMaxLogsScratchWords,
                                           [&](wire::LogsResponse::Reader r, bool) { return read_root(r); });
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode<wire::Request>(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode<wire::Response>(in, out); }
  DecodeError decode_logs_request(Bytes in, LogsRequest& out) { return decode<wire::LogsRequest>(in, out); }
  DecodeError logs_decode_all(Bytes in, LogsDigest& out) {
    return decode_logs(in, [&](wire::LogsResponse::Reader r) { return read_all(r, out); });
  }
  DecodeError logs_access_one(Bytes in, std::uint32_t k, LogPick& out) {
    return decode_logs(in, [&](wire::LogsResponse::Reader r) { return read_one(r, k, out); });
  }
  DecodeError logs_scan(Bytes in, LogsScan& out) {
    return decode_logs(in, [&](wire::LogsResponse::Reader r) { return read_scan(r, out); });
  }
};

template class LibraryCodec<Capnp>;
template class LibraryCodec<CapnpPacked>;

}  // namespace record
