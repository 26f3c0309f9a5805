// wire/zap_rpc.hpp — the ZAP-RPC ("wire B") frame and envelope codec: the u32
// little-endian length prefix that counts the direction byte, the direction
// byte, and the request and response envelopes of zap-proto/go's rpc package
// (../shared/spec/zap-transport.md §5; our method ordinals and refusals are
// in docs/spec/zap-rpc.md). Owns bytes only: no sockets, no routing, no
// connection state. The server reads request frames from a connection's input
// and appends response frames to its output; the loader does the reverse.
//
// Decoders take caller-owned bytes and return views into them (valid while the
// bytes stay put); encoders write straight into a net::Buffer and allocate
// nothing but the buffer's own growth. No exceptions anywhere.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "net/buffer.hpp"
#include "zap/zap.hpp"

namespace wire::zaprpc {

// What the byte after the length prefix says the frame is (§5.2).
enum class Dir : std::uint8_t {
  request = 1,         // a request envelope: dispatch it, answer with a response
  response = 2,        // a response envelope: route it to the call holding its PromiseID
  stream_open = 3,     // a request envelope whose PromiseID is a stream id
  stream_message = 4,  // u32 LE stream id, then the message bytes
  stream_end = 5,      // u32 LE stream id only (half-close)
};

[[nodiscard]] constexpr std::string_view describe(Dir d) noexcept {
  switch (d) {
    case Dir::request:
      return "request";
    case Dir::response:
      return "response";
    case Dir::stream_open:
      return "stream open";
    case Dir::stream_message:
      return "stream message";
    case Dir::stream_end:
      return "stream end";
  }
  return "unknown direction";
}

inline constexpr std::uint32_t kPrefixBytes = 4;  // u32 little-endian L
inline constexpr std::uint32_t kHeadBytes = 5;    // the prefix and the direction byte
// L (direction byte included) is 1 .. 64 MiB; anything else tears the
// connection down, with no reply (§5.2).
inline constexpr std::uint32_t kMaxFrameBytes = 64 * 1024 * 1024;

// Both envelopes: header version 2, flags 0xC800 (message type 200,
// MsgTypeRouterBase, in the high byte), root at 16 (§5.1).
inline constexpr std::uint16_t kEnvelopeVersion = 2;
inline constexpr std::uint16_t kEnvelopeFlags = 0xC800;

// The PromiseID a caller uses for "no earlier call" in Target.
inline constexpr std::uint32_t kNoTarget = 0;

// ---- envelope layouts (§5.1) -------------------------------------------------
struct RequestLayout {
  static constexpr std::uint32_t method = 0;    // u32: the method ordinal
  static constexpr std::uint32_t promise = 4;   // u32: PromiseID, echoed in the response
  static constexpr std::uint32_t target = 8;    // u32: 0, or the PromiseID whose body replaces the payload
  static constexpr std::uint32_t cap = 12;      // bytes slot: capability (may be null)
  static constexpr std::uint32_t payload = 20;  // bytes slot: the parameters
  static constexpr std::uint32_t fixed_bytes = 28;
};

struct ResponseLayout {
  static constexpr std::uint32_t status = 0;   // u32: 200, 400, 401, 403, 404, 500
  static constexpr std::uint32_t promise = 4;  // u32
  // bytes 8..11 are unused and zero
  static constexpr std::uint32_t body = 12;  // bytes slot: the result (null when empty)
  static constexpr std::uint32_t fixed_bytes = 20;
};

// Where a request frame's PromiseID lies, from the frame's first byte: a
// client that sends the same call many times builds the frame once and
// patches this word per send (patch_promise).
inline constexpr std::size_t kRequestPromiseAt = kHeadBytes + zap::kHeaderBytes + RequestLayout::promise;

// ---- framing (§5.2) -----------------------------------------------------------

// The outcomes of looking at a connection's unread bytes.
//   need_more:  the frame is not all here. length is L once the prefix is in
//               (0 before), so a caller can reserve room.
//   bad_length: L == 0 or L > the limit: close the connection.
//   complete:   dir is the direction byte; the body is frame_body(); consume
//               frame_bytes() = 4 + L afterwards.
struct FrameScan {
  enum class Status : std::uint8_t { need_more, bad_length, complete } status;
  std::uint32_t length;  // L: the direction byte and the body
  std::uint8_t dir = 0;  // complete only; any value (the caller decides what it takes)
  [[nodiscard]] constexpr std::size_t frame_bytes() const noexcept {
    return std::size_t{kPrefixBytes} + length;
  }
  [[nodiscard]] constexpr std::uint32_t body_bytes() const noexcept { return length - 1; }
};

// Stateless, O(1): only the prefix and the direction byte are read.
[[nodiscard]] inline FrameScan scan_frame(std::span<const std::uint8_t> buf,
                                          std::uint32_t max_frame_bytes = kMaxFrameBytes) noexcept {
  if (buf.size() < kPrefixBytes) return {FrameScan::Status::need_more, 0};
  const std::uint32_t n = zap::detail::load_le<std::uint32_t>(buf.data());
  if (n == 0 || n > max_frame_bytes) return {FrameScan::Status::bad_length, n};
  if (buf.size() - kPrefixBytes < n) return {FrameScan::Status::need_more, n};
  return {FrameScan::Status::complete, n, buf[kPrefixBytes]};
}

// The bytes after the direction byte of a frame scan_frame reported complete.
[[nodiscard]] inline zap::Bytes frame_body(std::span<const std::uint8_t> buf, const FrameScan& s) noexcept {
  return buf.subspan(kHeadBytes, s.body_bytes());
}

// ---- decoding (§5.1) ------------------------------------------------------------

enum class EnvelopeError : std::uint8_t {
  ok,
  bad_message,  // not a ZAP message: short, bad magic, version not 1 or 2, size < 16 or > the body
  bad_root,     // root offset < 16 or >= size: there is no envelope to read
};

[[nodiscard]] constexpr std::string_view describe(EnvelopeError e) noexcept {
  switch (e) {
    case EnvelopeError::ok:
      return "ok";
    case EnvelopeError::bad_message:
      return "not a ZAP message";
    case EnvelopeError::bad_root:
      return "root offset out of range";
  }
  return "unknown envelope error";
}

// Views into the envelope bytes. A field past the message's size reads as 0
// and a slot that does not resolve reads as null, by the ZAP reader's rules
// (zap::Object), as Go's accessors do: a payload pointing into the header or
// past the end is null, never bytes outside the payload's place.
struct Request {
  std::uint32_t method = 0;
  std::uint32_t promise = 0;
  std::uint32_t target = kNoTarget;
  zap::Bytes cap;
  zap::Bytes payload;
};

struct Response {
  std::uint32_t status = 0;
  std::uint32_t promise = 0;
  zap::Bytes body;
};

namespace detail {
// The envelope's root: parse (magic, version 1 or 2, 16 <= size <= input),
// then 16 <= root < size. Flags are not checked, as Go's parser does not
// read them (§5.1: fields by their offsets only).
[[nodiscard]] inline EnvelopeError open(zap::Bytes envelope, zap::Object& root) noexcept {
  const zap::Message::Parsed parsed = zap::Message::parse(envelope);
  if (!parsed.ok()) return EnvelopeError::bad_message;
  const std::uint32_t at = parsed.message.root_offset();
  if (at < zap::kHeaderBytes || at >= parsed.message.size()) return EnvelopeError::bad_root;
  root = parsed.message.root();
  return EnvelopeError::ok;
}
}  // namespace detail

[[nodiscard]] inline EnvelopeError decode_request(zap::Bytes envelope, Request& out) noexcept {
  zap::Object root;
  if (const EnvelopeError e = detail::open(envelope, root); e != EnvelopeError::ok) return e;
  out.method = root.u32(RequestLayout::method);
  out.promise = root.u32(RequestLayout::promise);
  out.target = root.u32(RequestLayout::target);
  out.cap = root.bytes(RequestLayout::cap);
  out.payload = root.bytes(RequestLayout::payload);
  return EnvelopeError::ok;
}

[[nodiscard]] inline EnvelopeError decode_response(zap::Bytes envelope, Response& out) noexcept {
  zap::Object root;
  if (const EnvelopeError e = detail::open(envelope, root); e != EnvelopeError::ok) return e;
  out.status = root.u32(ResponseLayout::status);
  out.promise = root.u32(ResponseLayout::promise);
  out.body = root.bytes(ResponseLayout::body);
  return EnvelopeError::ok;
}

// ---- encoding (§5.1, byte-identical to Go's BuildRequest / BuildResponse) ----

// Envelope sizes: header, fixed section, then the tails packed in slot order
// with no padding (Go's builder pads nothing after the last tail).
[[nodiscard]] constexpr std::uint64_t request_envelope_bytes(std::size_t cap_bytes,
                                                             std::size_t payload_bytes) noexcept {
  return std::uint64_t{zap::kHeaderBytes} + RequestLayout::fixed_bytes + cap_bytes + payload_bytes;
}
[[nodiscard]] constexpr std::uint64_t response_envelope_bytes(std::size_t body_bytes) noexcept {
  return std::uint64_t{zap::kHeaderBytes} + ResponseLayout::fixed_bytes + body_bytes;
}

namespace detail {
inline void put_header(std::uint8_t* m, std::uint32_t size) noexcept {
  std::memcpy(m, zap::kMagic, 4);
  zap::detail::store_le<std::uint16_t>(m + zap::kVersionAt, kEnvelopeVersion);
  zap::detail::store_le<std::uint16_t>(m + zap::kFlagsAt, kEnvelopeFlags);
  zap::detail::store_le<std::uint32_t>(m + zap::kRootAt, zap::kHeaderBytes);
  zap::detail::store_le<std::uint32_t>(m + zap::kSizeAt, size);
}
// A bytes slot at absolute `slot` whose tail is at absolute `tail`: (rel, len),
// rel counted from the slot; an empty value leaves the slot null (0, 0).
inline void put_slot(std::uint8_t* m, std::uint32_t slot, std::uint32_t tail, zap::Bytes v) noexcept {
  zap::detail::store_le<std::uint32_t>(m + slot, v.empty() ? 0 : tail - slot);
  zap::detail::store_le<std::uint32_t>(m + slot + 4, static_cast<std::uint32_t>(v.size()));
  if (!v.empty()) std::memcpy(m + tail, v.data(), v.size());
}
inline void put_prefix(std::uint8_t* f, std::uint32_t envelope_bytes, Dir dir) noexcept {
  zap::detail::store_le<std::uint32_t>(f, envelope_bytes + 1);
  f[kPrefixBytes] = static_cast<std::uint8_t>(dir);
}
}  // namespace detail

// Writes a request envelope of request_envelope_bytes(cap, payload) bytes at m.
inline void write_request(std::uint8_t* m, const Request& r) noexcept {
  const auto size = static_cast<std::uint32_t>(request_envelope_bytes(r.cap.size(), r.payload.size()));
  detail::put_header(m, size);
  std::uint8_t* o = m + zap::kHeaderBytes;
  zap::detail::store_le<std::uint32_t>(o + RequestLayout::method, r.method);
  zap::detail::store_le<std::uint32_t>(o + RequestLayout::promise, r.promise);
  zap::detail::store_le<std::uint32_t>(o + RequestLayout::target, r.target);
  const std::uint32_t tails = zap::kHeaderBytes + RequestLayout::fixed_bytes;
  detail::put_slot(m, zap::kHeaderBytes + RequestLayout::cap, tails, r.cap);
  detail::put_slot(m, zap::kHeaderBytes + RequestLayout::payload,
                   tails + static_cast<std::uint32_t>(r.cap.size()), r.payload);
}

// Writes a response envelope of response_envelope_bytes(body) bytes at m.
inline void write_response(std::uint8_t* m, const Response& r) noexcept {
  const auto size = static_cast<std::uint32_t>(response_envelope_bytes(r.body.size()));
  detail::put_header(m, size);
  std::uint8_t* o = m + zap::kHeaderBytes;
  zap::detail::store_le<std::uint32_t>(o + ResponseLayout::status, r.status);
  zap::detail::store_le<std::uint32_t>(o + ResponseLayout::promise, r.promise);
  zap::detail::store_le<std::uint32_t>(o + 8, 0);
  detail::put_slot(m, zap::kHeaderBytes + ResponseLayout::body,
                   zap::kHeaderBytes + ResponseLayout::fixed_bytes, r.body);
}

// Appends [u32 LE L][dir 1][request envelope] to out; false (nothing
// appended) when L would be over max_frame_bytes. The views must not point
// into `out`.
inline bool append_request_frame(net::Buffer& out, const Request& r,
                                 std::uint32_t max_frame_bytes = kMaxFrameBytes) {
  const std::uint64_t m = request_envelope_bytes(r.cap.size(), r.payload.size());
  if (m + 1 > max_frame_bytes) return false;
  std::uint8_t* f = out.prepare(kHeadBytes + static_cast<std::size_t>(m));
  detail::put_prefix(f, static_cast<std::uint32_t>(m), Dir::request);
  write_request(f + kHeadBytes, r);
  out.commit(kHeadBytes + static_cast<std::size_t>(m));
  return true;
}

// Appends [u32 LE L][dir 2][response envelope] to out; false (nothing
// appended) when L would be over max_frame_bytes. The body must not point
// into `out`.
inline bool append_response_frame(net::Buffer& out, const Response& r,
                                  std::uint32_t max_frame_bytes = kMaxFrameBytes) {
  const std::uint64_t m = response_envelope_bytes(r.body.size());
  if (m + 1 > max_frame_bytes) return false;
  std::uint8_t* f = out.prepare(kHeadBytes + static_cast<std::size_t>(m));
  detail::put_prefix(f, static_cast<std::uint32_t>(m), Dir::response);
  write_response(f + kHeadBytes, r);
  out.commit(kHeadBytes + static_cast<std::size_t>(m));
  return true;
}

// Sets the PromiseID of a request frame append_request_frame wrote at frame.
inline void patch_promise(std::uint8_t* frame, std::uint32_t promise) noexcept {
  zap::detail::store_le<std::uint32_t>(frame + kRequestPromiseAt, promise);
}

// ---- method ordinals (docs/spec/zap-rpc.md §2) --------------------------------
// An ordinal names the operation and the codec of its payload and answer:
// ordinal = 16 x body + op. Body 0 is ZAP, the standard row, so ZAP's
// ordinals are the small ones (0 health, 1 eth_call, 2 eth_getLogs); every
// other codec's bytes ride as an opaque payload under its own ordinals, which
// keeps body and framing apart as HTTP's Content-Type does. Health takes no
// payload and has one ordinal, 0. These numbers are a wire format: a body
// keeps its code forever, and a new codec's content type gets the next one.

enum class Op : std::uint8_t { health = 0, eth_call = 1, eth_get_logs = 2 };
inline constexpr std::uint32_t kOpsPerBody = 16;

// The body codes: the content type each one stands for on HTTP.
inline constexpr std::array<std::string_view, 9> kBodyContentTypes = {
    "application/zap",         // 0
    "application/json",        // 1
    "application/x-protobuf",  // 2
    "application/x-flatbuffers",
    "application/capnp",
    "application/capnp-packed",
    "application/msgpack",
    "application/vnd.apache.thrift.compact",
    "application/vnd.apache.thrift.binary",  // 8
};

// The body code of a content type (compared exactly, as codecs.table spells
// it); -1 for one without a code.
[[nodiscard]] constexpr int body_code(std::string_view content_type) noexcept {
  for (std::size_t i = 0; i < kBodyContentTypes.size(); ++i)
    if (kBodyContentTypes[i] == content_type) return static_cast<int>(i);
  return -1;
}

[[nodiscard]] constexpr std::uint32_t method_ordinal(Op op, std::size_t body) noexcept {
  return op == Op::health ? 0
                          : static_cast<std::uint32_t>(body) * kOpsPerBody + static_cast<std::uint32_t>(op);
}

// What an ordinal names; known is false for every number the table does not
// give (the server answers those 404).
struct Method {
  bool known = false;
  Op op = Op::health;
  std::string_view content_type;  // empty for health
};

[[nodiscard]] constexpr Method method_of(std::uint32_t ordinal) noexcept {
  if (ordinal == 0) return {true, Op::health, {}};
  const std::uint32_t body = ordinal / kOpsPerBody, op = ordinal % kOpsPerBody;
  if (body >= kBodyContentTypes.size() || op == 0 || op > static_cast<std::uint32_t>(Op::eth_get_logs))
    return {};
  return {true, static_cast<Op>(op), kBodyContentTypes[body]};
}

}  // namespace wire::zaprpc
