// wire/zap_http.hpp — the ZAP-HTTP ("wire A") frame codec: the u32 big-endian
// length prefix, the Request/Response objects and their header blocks
// (../shared/spec/zap-transport.md §2–3). Owns bytes only: no sockets, no
// routing, no connection state. The server reads request frames out of a
// connection's input Buffer and appends response frames to its output Buffer;
// the load generator uses the request encoder and the response decoder.
//
// Decoders take caller-owned bytes and return views into them (valid while the
// bytes stay put); encoders are objects owned per connection or per thread and
// reused, so steady state allocates nothing. No exceptions anywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

#include "net/buffer.hpp"
#include "zap/zap.hpp"

namespace wire::zaphttp {

// The message type rides in the high byte of the ZAP header flags (§2.1).
enum class MsgType : std::uint8_t { request = 1, response = 2, stream_head = 3, chunk = 4, stream_end = 5 };

inline constexpr std::uint32_t kPrefixBytes = 4;
// Go's MaxFrameSize: the largest message a peer accepts. A larger (or zero)
// length prefix is answered by closing the connection, with no reply (§2.2).
inline constexpr std::uint32_t kMaxFrameBytes = 64 * 1024 * 1024;

// ---- object layouts (§3.1, §3.2, §3.5) --------------------------------------
// Offsets inside the root object's fixed section. Written down once, here:
// zap::Schema cannot say "u16 status, then padding to 8", so the response uses
// named constants; the request layout is checked against the Schema rules below.
struct RequestLayout {
  static constexpr std::uint32_t method = 0;    // text
  static constexpr std::uint32_t target = 8;    // text
  static constexpr std::uint32_t proto = 16;    // text
  static constexpr std::uint32_t headers = 24;  // bytes: header block
  static constexpr std::uint32_t body = 32;     // bytes
  static constexpr std::uint32_t trailer = 40;  // bytes: header block
  static constexpr std::uint32_t fixed_bytes = 48;
};

struct ResponseLayout {
  static constexpr std::uint32_t status = 0;  // u16; bytes 2–7 are zero padding
  static constexpr std::uint32_t reason = 8;  // text
  static constexpr std::uint32_t proto = 16;  // text
  static constexpr std::uint32_t headers = 24;
  static constexpr std::uint32_t body = 32;
  static constexpr std::uint32_t trailer = 40;
  static constexpr std::uint32_t fixed_bytes = 48;
};

namespace detail {
using RequestSchema = zap::Schema<zap::Type::text, zap::Type::text, zap::Type::text, zap::Type::bytes,
                                  zap::Type::bytes, zap::Type::bytes>;
static_assert(RequestSchema::field<0>.offset == RequestLayout::method);
static_assert(RequestSchema::field<1>.offset == RequestLayout::target);
static_assert(RequestSchema::field<2>.offset == RequestLayout::proto);
static_assert(RequestSchema::field<3>.offset == RequestLayout::headers);
static_assert(RequestSchema::field<4>.offset == RequestLayout::body);
static_assert(RequestSchema::field<5>.offset == RequestLayout::trailer);
static_assert(RequestSchema::size_bytes == RequestLayout::fixed_bytes);
}  // namespace detail

// What Go's encoders write for an empty method / proto (zaphttp codec.go).
inline constexpr std::string_view kDefaultMethod = "GET";
inline constexpr std::string_view kDefaultProto = "ZAP-HTTP/1.0";

// ---- framing (§2.1) ---------------------------------------------------------

// The three outcomes of looking at a connection's unread bytes.
//   need_more:  fewer than 4 + N bytes buffered. message_bytes is N once the
//               prefix is in (0 before), so the caller can reserve room.
//   bad_length: N == 0 or N > the limit; the peer is broken or hostile: close.
//   complete:   the message is buf[4, 4 + N) (frame_message); consume
//               frame_bytes() = 4 + N afterwards.
struct FrameScan {
  enum class Status : std::uint8_t { need_more, bad_length, complete } status;
  std::uint32_t message_bytes;
  // The bytes a complete frame takes on the connection (prefix included):
  // what the caller consumes, so no caller adds the prefix length itself.
  [[nodiscard]] constexpr std::size_t frame_bytes() const noexcept {
    return std::size_t{kPrefixBytes} + message_bytes;
  }
};

// Stateless, O(1): only the prefix is read, so a retry costs nothing.
[[nodiscard]] inline FrameScan scan_frame(std::span<const std::uint8_t> buf,
                                          std::uint32_t max_frame_bytes = kMaxFrameBytes) noexcept {
  if (buf.size() < kPrefixBytes) return {FrameScan::Status::need_more, 0};
  // The only big-endian quantity on the connection.
  const std::uint32_t n = (std::uint32_t{buf[0]} << 24) | (std::uint32_t{buf[1]} << 16) |
                          (std::uint32_t{buf[2]} << 8) | std::uint32_t{buf[3]};
  if (n == 0 || n > max_frame_bytes) return {FrameScan::Status::bad_length, n};
  if (buf.size() - kPrefixBytes < n) return {FrameScan::Status::need_more, n};
  return {FrameScan::Status::complete, n};
}

// The message of a frame scan_frame reported complete.
[[nodiscard]] inline zap::Bytes frame_message(std::span<const std::uint8_t> buf,
                                              const FrameScan& scan) noexcept {
  return buf.subspan(kPrefixBytes, scan.message_bytes);
}

// ---- header blocks (§3.3) ---------------------------------------------------

namespace detail {
[[nodiscard]] constexpr char ascii_lower(char c) noexcept {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c;
}
}  // namespace detail

// ASCII case-insensitive equality: header names are tokens, and the spec says
// to compare them without regard to case (senders keep their own case).
// Senders mostly write a name as it is registered ("Content-Type"), so an
// exact match is tried first (one memcmp) and bytes are folded only after it.
[[nodiscard]] constexpr bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  if (a == b) return true;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (detail::ascii_lower(a[i]) != detail::ascii_lower(b[i])) return false;
  }
  return true;
}

// A view of one header block: u32 count, then count x (u32 nameLen, name,
// u32 valueLen, value), all little-endian. A null or empty slot means "no
// headers". The block is validated once, at construction, against its own
// size, so a hostile count costs at most size/8 steps and nothing is read out
// of bounds. Bytes after the last declared pair are ignored, as in Go.
// Names and values alias the message bytes.
class HeaderBlock {
 public:
  constexpr HeaderBlock() noexcept = default;  // no headers

  explicit HeaderBlock(zap::Bytes block) noexcept : data_(block.data()), size_(block.size()) {
    if (size_ == 0) return;  // null or empty: no headers, valid
    valid_ = false;
    if (size_ < 4) return;
    const std::uint32_t n = zap::detail::load_le<std::uint32_t>(data_);
    // Each pair takes at least its two length words: a count beyond that is
    // impossible, and refusing it up front bounds the walk by the block size.
    if (n > (size_ - 4) / 8) return;
    std::size_t p = 4;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!skip_field(p) || !skip_field(p)) return;
    }
    count_ = n;
    valid_ = true;
  }

  // False if the block is shorter than its declared pairs ("truncated header
  // block"): a request carrying one gets the 400 path.
  [[nodiscard]] bool valid() const noexcept { return valid_; }
  // Pairs in the block; 0 when there are none or the block is invalid.
  [[nodiscard]] std::uint32_t count() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  [[nodiscard]] zap::Bytes bytes() const noexcept { return {data_, size_}; }

  // Calls fn(name, value) for every pair in wire order; fn returns void, or
  // bool where false stops the walk. Returns true if every pair was visited
  // (false: stopped by fn, or the block is invalid and fn was never called).
  template <class Fn>
  bool for_each(Fn&& fn) const {
    if (!valid_) return false;
    std::size_t p = 4;
    for (std::uint32_t i = 0; i < count_; ++i) {
      const std::string_view name = field(p);
      const std::string_view value = field(p);
      if constexpr (std::is_same_v<std::invoke_result_t<Fn&, std::string_view, std::string_view>, void>) {
        fn(name, value);
      } else {
        if (!fn(name, value)) return false;
      }
    }
    return true;
  }

  // The value of the first pair named `name` (case-insensitive), if any.
  [[nodiscard]] std::optional<std::string_view> find(std::string_view name) const noexcept {
    std::optional<std::string_view> out;
    for_each([&](std::string_view n, std::string_view v) {
      if (!iequals(n, name)) return true;
      out = v;
      return false;
    });
    return out;
  }

 private:
  // Bounds-checked skip over one (u32 len, bytes) field; p never passes size_.
  bool skip_field(std::size_t& p) const noexcept {
    if (size_ - p < 4) return false;
    const std::uint32_t len = zap::detail::load_le<std::uint32_t>(data_ + p);
    if (size_ - p - 4 < len) return false;
    p += 4 + std::size_t{len};
    return true;
  }
  // Unchecked read of a field the constructor already validated.
  std::string_view field(std::size_t& p) const noexcept {
    const std::uint32_t len = zap::detail::load_le<std::uint32_t>(data_ + p);
    const std::string_view s{reinterpret_cast<const char*>(data_ + p + 4), len};
    p += 4 + std::size_t{len};
    return s;
  }

  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::uint32_t count_ = 0;
  bool valid_ = true;
};

// ---- decoding (§2.1, §3.1, §3.2) --------------------------------------------

enum class FrameError : std::uint8_t {
  ok,
  bad_message,             // zap parse failed: short, bad magic, bad version, size < 16 or > frame
  wrong_type,              // flags >> 8 is not the type this decoder reads
  bad_root,                // rootOffset < 16 or >= size
  truncated_header_block,  // headers or trailer shorter than their declared pairs
  stream_head,             // decode_response: a streamed response head (type 3); not supported
};

[[nodiscard]] constexpr std::string_view describe(FrameError e) noexcept {
  switch (e) {
    case FrameError::ok:
      return "ok";
    case FrameError::bad_message:
      return "not a ZAP message";
    case FrameError::wrong_type:
      return "wrong frame type";
    case FrameError::bad_root:
      return "root offset out of range";
    case FrameError::truncated_header_block:
      return "truncated header block";
    case FrameError::stream_head:
      return "streamed response (type 0x03) is not supported";
  }
  return "unknown frame error";
}

// Views into the message bytes. Fields Go reads as null (a slot out of
// bounds, rel 0) read as empty: every text/bytes read follows zap's reader
// rules, exactly as zaphttp's readVar does.
struct RequestView {
  std::string_view method;  // kDefaultMethod ("GET") when the slot is empty
  std::string_view target;
  std::string_view proto;  // as sent; may be empty
  HeaderBlock headers;     // may hold Host and Content-Length: the caller ignores the latter
  zap::Bytes body;         // its size is the authoritative Content-Length
  HeaderBlock trailer;
};

struct ResponseView {
  std::uint16_t status = 0;
  std::string_view reason;
  std::string_view proto;
  HeaderBlock headers;
  zap::Bytes body;
  HeaderBlock trailer;
  MsgType type = MsgType::response;
};

namespace detail {
struct Opened {
  FrameError error = FrameError::bad_message;
  std::uint8_t type = 0;
  zap::Object root;
};

// §2.1's checks in Go's order (frameRoot): parse (magic, version, 16 <= size
// <= frame length), then the type (one of two accepted), then 16 <= root <
// size. Bytes past size are ignored by every later read.
[[nodiscard]] inline Opened open_message(zap::Bytes message, MsgType want, MsgType also) noexcept {
  const zap::Message::Parsed parsed = zap::Message::parse(message);
  if (!parsed.ok()) return {};
  const std::uint8_t type = parsed.message.msg_type();
  if (type != static_cast<std::uint8_t>(want) && type != static_cast<std::uint8_t>(also))
    return {FrameError::wrong_type, type, {}};
  const std::uint32_t at = parsed.message.root_offset();
  if (at < zap::kHeaderBytes || at >= parsed.message.size()) return {FrameError::bad_root, type, {}};
  return {FrameError::ok, type, parsed.message.root()};
}
}  // namespace detail

// Decodes one request message (the N bytes after the prefix). On any error
// `out` is unspecified. The server answers an error with a 400 frame and closes.
[[nodiscard]] inline FrameError decode_request(zap::Bytes message, RequestView& out) noexcept {
  const detail::Opened m = detail::open_message(message, MsgType::request, MsgType::request);
  if (m.error != FrameError::ok) return m.error;
  out.method = m.root.text(RequestLayout::method);
  if (out.method.empty()) out.method = kDefaultMethod;
  out.target = m.root.text(RequestLayout::target);
  out.proto = m.root.text(RequestLayout::proto);
  out.headers = HeaderBlock(m.root.bytes(RequestLayout::headers));
  out.body = m.root.bytes(RequestLayout::body);
  out.trailer = HeaderBlock(m.root.bytes(RequestLayout::trailer));
  if (!out.headers.valid() || !out.trailer.valid()) return FrameError::truncated_header_block;
  return FrameError::ok;
}

// Decodes one response message. Type 2 returns ok. A type 3 head (a streamed
// response) is decoded into `out` too, but returns FrameError::stream_head so a
// client that does not stream refuses it by name, not by accident (§2.3).
[[nodiscard]] inline FrameError decode_response(zap::Bytes message, ResponseView& out) noexcept {
  const detail::Opened m = detail::open_message(message, MsgType::response, MsgType::stream_head);
  if (m.error != FrameError::ok) return m.error;
  out.type = static_cast<MsgType>(m.type);
  out.status = m.root.u16(ResponseLayout::status);
  out.reason = m.root.text(ResponseLayout::reason);
  out.proto = m.root.text(ResponseLayout::proto);
  out.headers = HeaderBlock(m.root.bytes(ResponseLayout::headers));
  out.body = m.root.bytes(ResponseLayout::body);
  out.trailer = HeaderBlock(m.root.bytes(ResponseLayout::trailer));
  if (!out.headers.valid() || !out.trailer.valid()) return FrameError::truncated_header_block;
  return out.type == MsgType::stream_head ? FrameError::stream_head : FrameError::ok;
}

// ---- encoding (§3, §9 item 4) -----------------------------------------------

// One header pair to send. Never pass Content-Length (the body slot's length
// stands in for it) or Trailer (trailers travel in the trailer slot): §3.4.
struct Header {
  std::string_view name;
  std::string_view value;
};

// The standard phrase for a status code, as Go's encoder fills the reason
// slot (fasthttp.StatusMessage: net/http's texts, "Unknown Status Code" else).
[[nodiscard]] constexpr std::string_view reason_phrase(int status) noexcept {
  switch (status) {
    case 100:
      return "Continue";
    case 101:
      return "Switching Protocols";
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 206:
      return "Partial Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 303:
      return "See Other";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 308:
      return "Permanent Redirect";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 411:
      return "Length Required";
    case 413:
      return "Request Entity Too Large";
    case 414:
      return "Request URI Too Long";
    case 415:
      return "Unsupported Media Type";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown Status Code";
  }
}

// Views only: every field is copied into the frame by append_frame.
struct RequestSpec {
  std::string_view method;  // empty: "GET"
  std::string_view target;
  std::string_view proto = "HTTP/1.1";  // empty: "ZAP-HTTP/1.0", as Go
  std::span<const Header> headers;      // include Host (§3.6: both Go versions accept it)
  zap::Bytes body;
  std::span<const Header> trailer;
};

struct ResponseSpec {
  std::uint16_t status = 200;           // 0 is sent as 200
  std::string_view reason;              // empty: reason_phrase(status)
  std::string_view proto = "HTTP/1.1";  // empty: "ZAP-HTTP/1.0", as Go
  std::span<const Header> headers;
  zap::Bytes body;  // pass none for a stream_head
  std::span<const Header> trailer;
  MsgType type = MsgType::response;  // response or stream_head
};

namespace detail {

// Bytes of a header block for these pairs; 0 for none (the slot stays null:
// a block with count 0 is never written).
[[nodiscard]] inline std::uint64_t header_block_bytes(std::span<const Header> pairs) noexcept {
  if (pairs.empty()) return 0;
  std::uint64_t n = 4;
  for (const Header& h : pairs) n += 8 + std::uint64_t{h.name.size()} + h.value.size();
  return n;
}

// Writes a block of header_block_bytes(pairs) bytes at dst.
inline std::uint8_t* write_header_block(std::uint8_t* dst, std::span<const Header> pairs) noexcept {
  if (pairs.empty()) return dst;
  zap::detail::store_le<std::uint32_t>(dst, static_cast<std::uint32_t>(pairs.size()));
  dst += 4;
  for (const Header& h : pairs) {
    for (std::string_view s : {h.name, h.value}) {
      zap::detail::store_le<std::uint32_t>(dst, static_cast<std::uint32_t>(s.size()));
      if (!s.empty()) std::memcpy(dst + 4, s.data(), s.size());
      dst += 4 + s.size();
    }
  }
  return dst;
}

// Writes the frame's length prefix: N, the only big-endian quantity on the connection (§2.1).
inline void put_prefix(std::uint8_t* dst, std::uint32_t n) noexcept {
  dst[0] = static_cast<std::uint8_t>(n >> 24);
  dst[1] = static_cast<std::uint8_t>(n >> 16);
  dst[2] = static_cast<std::uint8_t>(n >> 8);
  dst[3] = static_cast<std::uint8_t>(n);
}

// The encoder shared by requests and responses: both roots are six 8-byte
// slots (the response's first holds the u16 status instead of text) whose
// tails follow in slot order, which is field-declaration order. Owns the
// header-block scratch, grown to the largest pair set seen and then reused.
class FrameEncoder {
 public:
  // Appends [u32 BE N][message] to out, or nothing (returning false) when the
  // message would exceed kMaxFrameBytes: the peer would refuse it anyway.
  // With a status, slot 0 holds it and text0 is ignored.
  bool append(net::Buffer& out, MsgType type, std::optional<std::uint16_t> status, zap::Bytes text0,
              zap::Bytes text8, zap::Bytes text16, std::span<const Header> headers, zap::Bytes body,
              std::span<const Header> trailer) {
    if (status) text0 = {};
    const std::uint64_t headers_bytes = header_block_bytes(headers);
    const std::uint64_t trailer_bytes = header_block_bytes(trailer);
    const std::uint64_t total = std::uint64_t{zap::kHeaderBytes} + RequestLayout::fixed_bytes + text0.size() +
                                text8.size() + text16.size() + headers_bytes + body.size() + trailer_bytes;
    if (total > kMaxFrameBytes) return false;

    // The header blocks are laid out in scratch, then copied once by the
    // builder (set_bytes copies). They are small; the body is not staged.
    std::uint8_t* blocks = scratch(static_cast<std::size_t>(headers_bytes + trailer_bytes));
    write_header_block(write_header_block(blocks, headers), trailer);

    // The size is known exactly (one 8-aligned root at 16, tails packed with
    // no padding), so the builder writes straight into the output buffer,
    // behind the 4-byte prefix, and never spills.
    const auto n = static_cast<std::uint32_t>(total);
    std::uint8_t* dst = out.prepare(kPrefixBytes + std::size_t{n});
    put_prefix(dst, n);
    zap::Builder b(std::span<std::uint8_t>{dst + kPrefixBytes, n});
    zap::ObjectBuilder o = b.start_object(RequestLayout::fixed_bytes);
    // Setter order is tail order: slot order, as Go's codec appends them.
    if (status) {
      o.set_u16(ResponseLayout::status, *status);
    } else {
      o.set_bytes(RequestLayout::method, text0);
    }
    o.set_bytes(RequestLayout::target, text8);
    o.set_bytes(RequestLayout::proto, text16);
    o.set_bytes(RequestLayout::headers, {blocks, static_cast<std::size_t>(headers_bytes)});
    o.set_bytes(RequestLayout::body, body);
    o.set_bytes(RequestLayout::trailer, {blocks + headers_bytes, static_cast<std::size_t>(trailer_bytes)});
    o.finish_as_root();
    const zap::Bytes msg = b.finish_with_flags(static_cast<std::uint16_t>(static_cast<unsigned>(type) << 8));
    if (b.spilled() || msg.size() != n) [[unlikely]] {
      // Unreachable unless the size arithmetic above is wrong; stay correct
      // anyway by copying the builder's own buffer behind a fresh prefix.
      return append_copy(out, msg);
    }
    out.commit(kPrefixBytes + std::size_t{n});
    return true;
  }

 private:
  std::uint8_t* scratch(std::size_t n) {
    if (n > scratch_cap_) {
      scratch_cap_ = std::max<std::size_t>(n, scratch_cap_ * 2);
      scratch_.reset(new std::uint8_t[scratch_cap_]);
    }
    return scratch_.get();
  }

  [[gnu::noinline]] static bool append_copy(net::Buffer& out, zap::Bytes msg) {
    if (msg.size() > kMaxFrameBytes) return false;
    std::uint8_t prefix[kPrefixBytes];
    put_prefix(prefix, static_cast<std::uint32_t>(msg.size()));
    out.append(prefix, kPrefixBytes);
    out.append(msg.data(), msg.size());
    return true;
  }

  std::unique_ptr<std::uint8_t[]> scratch_;
  std::size_t scratch_cap_ = 0;
};

}  // namespace detail

// Appends request frames byte-identical to Go's AppendRequest (golden frames
// 1, 3, 5, 7). One per load-generator connection or thread; not thread-safe.
class RequestEncoder {
 public:
  // Returns false, appending nothing, if the message would exceed kMaxFrameBytes.
  // The spec's views must not point into `out` (prepare may move its bytes).
  bool append_frame(const RequestSpec& spec, net::Buffer& out) {
    return enc_.append(out, MsgType::request, std::nullopt,
                       zap::as_bytes(spec.method.empty() ? kDefaultMethod : spec.method),
                       zap::as_bytes(spec.target),
                       zap::as_bytes(spec.proto.empty() ? kDefaultProto : spec.proto), spec.headers,
                       spec.body, spec.trailer);
  }

 private:
  detail::FrameEncoder enc_;
};

// Appends response frames byte-identical to Go's AppendResponse (golden
// frames 2, 4, 6) or, with type stream_head, MarshalResponseHead. One per
// server connection or worker thread; not thread-safe.
class ResponseEncoder {
 public:
  // Returns false, appending nothing, if the message would exceed
  // kMaxFrameBytes or spec.type is not response / stream_head. The spec's
  // views must not point into `out` (prepare may move its bytes).
  bool append_frame(const ResponseSpec& spec, net::Buffer& out) {
    if (spec.type != MsgType::response && spec.type != MsgType::stream_head) return false;
    const std::uint16_t status = spec.status == 0 ? std::uint16_t{200} : spec.status;
    return enc_.append(out, spec.type, status, {},
                       zap::as_bytes(spec.reason.empty() ? reason_phrase(status) : spec.reason),
                       zap::as_bytes(spec.proto.empty() ? kDefaultProto : spec.proto), spec.headers,
                       spec.body, spec.trailer);
  }

 private:
  detail::FrameEncoder enc_;
};

// A response whose status, reason, proto and headers are fixed and whose
// body varies: the frame is encoded once (by ResponseEncoder, with no body)
// and each append copies it, patches the three length words the body changes
// (the prefix, the message size, the body slot) and copies the body.
// Byte-identical to ResponseEncoder::append_frame of the same spec with that
// body (tests/wire/wire_zap_http_test.cpp checks it), at the cost of two copies.
// One per reply kind per worker; not thread-safe.
class PreparedResponse {
 public:
  PreparedResponse() = default;
  // spec.body and spec.trailer must be empty. False if the head alone is
  // over kMaxFrameBytes or spec.type is not response.
  bool prepare(ResponseSpec spec) {
    if (!spec.body.empty() || !spec.trailer.empty() || spec.type != MsgType::response) return false;
    net::Buffer b(256);
    if (!ResponseEncoder{}.append_frame(spec, b)) return false;
    head_bytes_ = b.size();
    head_.reset(new std::uint8_t[head_bytes_]);
    std::memcpy(head_.get(), b.readable().data(), head_bytes_);
    return true;
  }

  // Appends the frame with `body`; false (nothing appended) when its message
  // would be over max_frame_bytes (the peer's limit: Go's kMaxFrameBytes by
  // default, a server's --max-frame-bytes) or prepare() did not succeed.
  bool append(net::Buffer& out, zap::Bytes body, std::size_t max_frame_bytes = kMaxFrameBytes) const {
    const std::size_t message_bytes = head_bytes_ - kPrefixBytes + body.size();
    if (head_bytes_ == 0 || message_bytes > max_frame_bytes) return false;
    std::uint8_t* dst = out.prepare(kPrefixBytes + message_bytes);
    zap::detail::copy_bytes(dst, head_.get(), head_bytes_);
    if (!body.empty()) {
      const auto n = static_cast<std::uint32_t>(message_bytes);
      detail::put_prefix(dst, n);
      std::uint8_t* const msg = dst + kPrefixBytes;
      zap::detail::store_le<std::uint32_t>(msg + 12, n);  // the header's size
      // The body's tail follows the head's last tail; its slot points there
      // (relative to the slot itself) with its length. An empty body leaves
      // the slot null, as the encoder writes it.
      const std::uint32_t slot = zap::kHeaderBytes + ResponseLayout::body;
      zap::detail::store_le<std::uint32_t>(msg + slot,
                                           static_cast<std::uint32_t>(head_bytes_ - kPrefixBytes) - slot);
      zap::detail::store_le<std::uint32_t>(msg + slot + 4, static_cast<std::uint32_t>(body.size()));
      zap::detail::copy_bytes(dst + head_bytes_, body.data(), body.size());
    }
    out.commit(kPrefixBytes + message_bytes);
    return true;
  }

 private:
  std::unique_ptr<std::uint8_t[]> head_;  // [prefix][message without a body]
  std::size_t head_bytes_ = 0;
};

}  // namespace wire::zaphttp
