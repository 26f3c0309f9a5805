// wire/grpc.hpp — gRPC over HTTP/2 as zapbench speaks it (docs/spec/http2-grpc.md
// §2; gRPC's PROTOCOL-HTTP2): the service's one method path, the
// content-subtypes that name the body codec, the 5-byte length prefix of a
// message, and the status codes the server answers with in `grpc-status`.
// Owns bytes and names only: the HTTP/2 framing is nghttp2's (wire/http2.hpp),
// the routing the server's, the validation the loader's. No allocation, no
// exceptions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace wire::grpc {

// The one method zapbench serves (service zapbench.Eth, method Call; the
// grpc++ reference arm's generated service has the same path).
inline constexpr std::string_view kServiceName = "zapbench.Eth";
inline constexpr std::string_view kCallPath = "/zapbench.Eth/Call";

// gRPC status codes (grpc/status.h) the server answers with.
enum class Status : std::uint8_t {
  ok = 0,
  invalid_argument = 3,    // a message that does not decode, or not exactly one message
  not_found = 5,           // Health/Check of a service this server does not have
  resource_exhausted = 8,  // an answer over the server's limits
  unimplemented = 12,      // an unknown method, or a content-subtype no codec of the build serves
  internal = 13,           // a compressed message without grpc-encoding, a call without `te: trailers`
                           // (PROTOCOL-HTTP2: protocol errors)
};

// The body codecs' gRPC content types: `application/grpc` is protobuf (as
// every gRPC library reads it); every other codec has its content-subtype,
// `application/grpc+<subtype>`, as gRPC defines them for other message
// encodings. Keyed by the codec's HTTP Content-Type (record/codecs.table), so
// one codec table names a body on every framing.
struct Subtype {
  std::string_view body_content_type;  // as on HTTP/1.1 and HTTP/2 (codecs.table)
  std::string_view grpc_content_type;  // what a gRPC call carries
};
inline constexpr std::array<Subtype, 9> kSubtypes{{
    {"application/x-protobuf", "application/grpc"},
    {"application/zap", "application/grpc+zap"},
    {"application/json", "application/grpc+json"},
    {"application/x-flatbuffers", "application/grpc+flatbuffers"},
    {"application/capnp", "application/grpc+capnp"},
    {"application/capnp-packed", "application/grpc+capnp-packed"},
    {"application/msgpack", "application/grpc+msgpack"},
    {"application/vnd.apache.thrift.compact", "application/grpc+thrift-compact"},
    {"application/vnd.apache.thrift.binary", "application/grpc+thrift-binary"},
}};

// A body content type's gRPC content type; empty if it has none.
[[nodiscard]] constexpr std::string_view grpc_content_type(std::string_view body_content_type) noexcept {
  for (const Subtype& s : kSubtypes)
    if (s.body_content_type == body_content_type) return s.grpc_content_type;
  return {};
}

// Whether a request's content-type is gRPC's (`application/grpc` alone or
// followed by `+` or `;`): such a request is a gRPC call and is answered with
// a grpc-status, also when its subtype is unknown.
[[nodiscard]] constexpr bool is_grpc(std::string_view content_type) noexcept {
  constexpr std::string_view kGrpc = "application/grpc";
  if (content_type.substr(0, kGrpc.size()) != kGrpc) return false;
  return content_type.size() == kGrpc.size() || content_type[kGrpc.size()] == '+' ||
         content_type[kGrpc.size()] == ';';
}

// The body content type a gRPC content-type names: `application/grpc` and
// `application/grpc+proto` are protobuf; parameters after `;` are ignored.
// Empty if no codec is named (an unknown subtype).
[[nodiscard]] constexpr std::string_view body_content_type(std::string_view grpc_content_type) noexcept {
  const std::size_t semi = grpc_content_type.find(';');
  if (semi != std::string_view::npos) grpc_content_type = grpc_content_type.substr(0, semi);
  if (grpc_content_type == "application/grpc+proto") return kSubtypes[0].body_content_type;
  for (const Subtype& s : kSubtypes)
    if (s.grpc_content_type == grpc_content_type) return s.body_content_type;
  return {};
}

// ---- the length-prefixed message (PROTOCOL-HTTP2 "Length-Prefixed-Message") ----
inline constexpr std::size_t kPrefixBytes = 5;  // compressed flag (1 B), message length (u32 big-endian)

enum class MessageError : std::uint8_t {
  ok,
  short_prefix,      // fewer than 5 bytes
  length_past_body,  // the prefix announces more bytes than the body holds
  trailing_bytes,    // bytes after the one message (a unary call carries exactly one)
  compressed,        // the compressed flag is set (zapbench negotiates no grpc-encoding)
  bad_flag,          // a flag byte other than 0 or 1
};

[[nodiscard]] constexpr std::string_view describe(MessageError e) noexcept {
  switch (e) {
    case MessageError::ok:
      return "ok";
    case MessageError::short_prefix:
      return "a gRPC message shorter than its 5-byte prefix";
    case MessageError::length_past_body:
      return "a gRPC message prefix announcing more bytes than the body holds";
    case MessageError::trailing_bytes:
      return "bytes after the one message of a unary call";
    case MessageError::compressed:
      return "a compressed gRPC message without a grpc-encoding";
    case MessageError::bad_flag:
      return "a gRPC message flag other than 0 or 1";
  }
  return "?";
}

// The one message of a unary call's whole body (request or response): its
// bytes, a view into `body`.
[[nodiscard]] constexpr MessageError unary_message(std::span<const std::uint8_t> body,
                                                   std::span<const std::uint8_t>& message) noexcept {
  if (body.size() < kPrefixBytes) return MessageError::short_prefix;
  if (body[0] > 1) return MessageError::bad_flag;
  const std::uint64_t n = (std::uint64_t{body[1]} << 24) | (std::uint64_t{body[2]} << 16) |
                          (std::uint64_t{body[3]} << 8) | std::uint64_t{body[4]};
  if (n > body.size() - kPrefixBytes) return MessageError::length_past_body;
  if (n < body.size() - kPrefixBytes) return MessageError::trailing_bytes;
  if (body[0] == 1) return MessageError::compressed;
  message = body.subspan(kPrefixBytes);
  return MessageError::ok;
}

// Writes the prefix of an uncompressed message of message_bytes at `at`
// (kPrefixBytes long).
constexpr void write_prefix(std::uint8_t* at, std::uint32_t message_bytes) noexcept {
  at[0] = 0;
  at[1] = static_cast<std::uint8_t>(message_bytes >> 24);
  at[2] = static_cast<std::uint8_t>(message_bytes >> 16);
  at[3] = static_cast<std::uint8_t>(message_bytes >> 8);
  at[4] = static_cast<std::uint8_t>(message_bytes);
}

}  // namespace wire::grpc
