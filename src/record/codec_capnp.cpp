// record/codec_capnp.cpp — Capnp::State and CapnpPacked::State, the capnp codecs' work: building the
// record with the generated builders on a reused first segment and writing it (standard framing or
// packed) into a reused buffer; reading it back with FlatArrayMessageReader or PackedMessageReader
// and checking the contract (presence and length of the Data fields, no trailing bytes, every
// kj::Exception mapped to syntax). See the header for why.
#include "record/codec_capnp.hpp"

#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <cstdint>
#include <cstring>
#include <memory>
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

// What both rows share: the encoders. One builder per op (MallocMessageBuilder cannot be reset) over
// the first segment, which is sized beforehand so the message is always one segment (no segment is
// ever malloc'ed) and which the builder's destructor re-zeroes; then the framing into `out`.
template <bool kPacked>
class Encoder {
 public:
  Bytes request(const Request& r) { return encode<wire::Request>(request_words(r.method.size()), r); }
  Bytes response(const Response& r) { return encode<wire::Response>(kResponseWords, r); }

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

struct Capnp::State {
  Encoder<false> encoder;
  Words aligned{64};  // misaligned input is copied here (FlatArrayMessageReader reads words)

  Bytes encode_request(const Request& r) { return encoder.request(r); }
  Bytes encode_response(const Response& r) { return encoder.response(r); }

  template <class Root, class View>
  DecodeError decode(Bytes in, View& out) {
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
      return read(reader.getRoot<Root>(), out);
    } catch (const kj::Exception&) {
      return DecodeError::syntax;
    }
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode<wire::Request>(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode<wire::Response>(in, out); }
};

struct CapnpPacked::State {
  // The most scratch kept between decodes; a larger message is unpacked into the reader's own
  // kj::Array (allocated per op), as the library does without scratch.
  static constexpr std::size_t kMaxScratchWords = std::size_t{1} << 16;

  Encoder<true> encoder;
  Words scratch{128};  // the unpacked message (segment table excluded)
  // The views' bytes when the message did not fit the scratch (it dies with its reader).
  std::string method;
  Hash bytes{};

  Bytes encode_request(const Request& r) { return encoder.request(r); }
  Bytes encode_response(const Response& r) { return encoder.response(r); }

  // Keeps the views of a message unpacked outside the scratch, and grows the scratch to fit the next.
  void own(capnp::MessageReader& reader, RequestView& out) {
    method.assign(out.method);
    std::memcpy(bytes.data(), out.account.data(), kAccountBytes);
    out.method = method;
    out.account = {reinterpret_cast<const char*>(bytes.data()), kAccountBytes};
    grow(reader);
  }
  void own(capnp::MessageReader& reader, ResponseView& out) {
    std::memcpy(bytes.data(), out.block_hash.data(), kHashBytes);
    out.block_hash = {reinterpret_cast<const char*>(bytes.data()), kHashBytes};
    grow(reader);
  }
  void grow(capnp::MessageReader& reader) {
    std::size_t total = 0;
    for (unsigned i = 0; i < 512; ++i) {  // the reader rejects 512 segments or more
      const kj::ArrayPtr<const capnp::word> s = reader.getSegment(i);
      if (s.begin() == nullptr) break;
      total += s.size();
    }
    if (total <= kMaxScratchWords) scratch.reserve(total);
  }

  template <class Root, class View>
  DecodeError decode(Bytes in, View& out) {
    try {
      kj::ArrayInputStream stream(kj::arrayPtr(in.data(), in.size()));
      {
        capnp::PackedMessageReader reader(stream, capnp::ReaderOptions(), scratch.words());
        const DecodeError e = read(reader.getRoot<Root>(), out);
        if (e != DecodeError::ok) return e;
        if (reader.getSegment(0).begin() != scratch.data()) own(reader, out);
      }  // a multi-segment reader skips what it did not read here, which may throw
      if (stream.tryGetReadBuffer().size() != 0) return DecodeError::trailing;
      return DecodeError::ok;
    } catch (const kj::Exception&) {
      return DecodeError::syntax;
    }
  }

  DecodeError decode_request(Bytes in, RequestView& out) { return decode<wire::Request>(in, out); }
  DecodeError decode_response(Bytes in, ResponseView& out) { return decode<wire::Response>(in, out); }
};

template class LibraryCodec<Capnp>;
template class LibraryCodec<CapnpPacked>;

}  // namespace record
