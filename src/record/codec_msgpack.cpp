// record/codec_msgpack.cpp — Msgpack::State, MsgpackCodec's work: the packer encoders, and the record
// visitor behind msgpack-c's streaming parser (the wire shape's checks, the fairness contract's
// errors). See the header for the wire shape and why this is msgpack-c's fastest idiomatic path.
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

#include "record/library_codec_impl.hpp"

namespace record {
namespace {

// What one position of the array holds.
enum class Kind : std::uint8_t { u64, str, bin };

struct Layout {
  Kind kinds[4];
  std::size_t bin_bytes;  // the byte field's exact size
};
constexpr Layout kRequestLayout{{Kind::u64, Kind::u64, Kind::str, Kind::bin}, kAccountBytes};
constexpr Layout kResponseLayout{{Kind::u64, Kind::u64, Kind::u64, Kind::bin}, kHashBytes};
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
    if (!expect(Kind::u64)) return false;
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

// One streaming msgpack::parser with a record visitor: the parse context (and its container
// stack) and the input buffer live as long as the codec. The buffer starts at 4 KiB (the
// library's default is 64 KiB, per parser): inputs are appended after the last one's and the
// buffer rewinds to its start when it is full, so it grows only for an input larger than itself.
class RecordParser : public msgpack::parser<RecordParser, NoHook> {
 public:
  static constexpr std::size_t kInitialBuffer = 4096;

  explicit RecordParser(const Layout& layout)
      : msgpack::parser<RecordParser, NoHook>(no_hook, kInitialBuffer), visitor_(layout) {}

  // The holder's part of the parser's concept: the visitor, and whether it keeps views into a
  // buffer the parser would otherwise reuse (never: the views live until the next parse).
  RecordVisitor& visitor() noexcept { return visitor_; }
  bool referenced() const noexcept { return false; }
  void set_referenced(bool) noexcept {}

  // One parse of `in`, copied into the parser's buffer: syntax, trailing, a visitor's error or
  // ok (the visitor then holds the four values, its views into that buffer).
  DecodeError parse(Bytes in) {
    reset();                                  // the context and the visitor, after any outcome
    skip_nonparsed_buffer(nonparsed_size());  // the last input's unread bytes (trailing, an error)
    reserve_buffer(in.size());                // rewinds (or grows) only when the rest is short
    if (!in.empty()) std::memcpy(buffer(), in.data(), in.size());
    buffer_consumed(in.size());
    bool done = false;
    try {
      done = next();
    } catch (const msgpack::unpack_error&) {  // ext 32 of size 0xffffffff (ext_size_overflow)
      return DecodeError::syntax;
    }
    if (!done) return visitor_.error() != DecodeError::ok ? visitor_.error() : DecodeError::syntax;
    return nonparsed_size() == 0 ? DecodeError::ok : DecodeError::trailing;
  }

 private:
  RecordVisitor visitor_;
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
struct Msgpack::State {
  msgpack::sbuffer request_out{256};
  msgpack::sbuffer response_out{256};
  Packer request_packer{request_out};
  Packer response_packer{response_out};
  RecordParser request_parser{kRequestLayout};
  RecordParser response_parser{kResponseLayout};

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
};

template class LibraryCodec<Msgpack>;

}  // namespace record
