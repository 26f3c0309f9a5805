// fuzz/grpc_message_fuzz.cpp — libFuzzer target for wire/grpc.hpp against a
// model restated from gRPC's PROTOCOL-HTTP2 and docs/spec/http2-grpc.md §2,
// not from the code: unary_message (the 5-byte Length-Prefixed-Message of a
// unary call's whole body: which error, in which order, and the message view
// inside the body), write_prefix (its prefix reads back), and the content
// types (is_grpc, body_content_type, grpc_content_type: which strings are
// gRPC's, which name a codec, and that the two tables round-trip). The input
// is the body; its text is also tried as a content-type.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "wire/grpc.hpp"

namespace {

namespace g = wire::grpc;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// The model: flag byte, u32 big-endian length, exactly that many bytes.
g::MessageError model(std::span<const std::uint8_t> b) {
  if (b.size() < 5) return g::MessageError::short_prefix;
  if (b[0] != 0 && b[0] != 1) return g::MessageError::bad_flag;
  const std::uint64_t n =
      std::uint64_t{b[1]} * 16777216u + std::uint64_t{b[2]} * 65536u + std::uint64_t{b[3]} * 256u + b[4];
  const std::uint64_t have = b.size() - 5;
  if (n > have) return g::MessageError::length_past_body;
  if (n < have) return g::MessageError::trailing_bytes;
  if (b[0] == 1) return g::MessageError::compressed;
  return g::MessageError::ok;
}

void content_type(std::string_view t) {
  constexpr std::string_view kGrpc = "application/grpc";
  const bool grpc =
      t.starts_with(kGrpc) && (t.size() == kGrpc.size() || t[kGrpc.size()] == '+' || t[kGrpc.size()] == ';');
  check(g::is_grpc(t) == grpc);
  const std::string_view body = g::body_content_type(t);
  if (!body.empty()) {
    check(grpc);  // only a gRPC content type names a codec
    // Its codec's own gRPC content type is t without parameters (or +proto's plain spelling).
    const std::string_view bare = t.substr(0, t.find(';'));
    const std::string_view back = g::grpc_content_type(body);
    check(back == bare || (bare == "application/grpc+proto" && back == kGrpc));
  }
  // A body content type of the table maps to a gRPC type that maps back to it.
  const std::string_view as_grpc = g::grpc_content_type(t);
  if (!as_grpc.empty()) {
    check(g::is_grpc(as_grpc));
    check(g::body_content_type(as_grpc) == t);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> body(data, size);
  std::span<const std::uint8_t> message;
  const g::MessageError e = g::unary_message(body, message);
  check(e == model(body));
  check(!g::describe(e).empty() && g::describe(e) != "?");
  if (e == g::MessageError::ok) {
    check(message.data() == data + g::kPrefixBytes && message.size() == size - g::kPrefixBytes);
    // The prefix write_prefix gives this message is the body's own.
    std::uint8_t prefix[g::kPrefixBytes];
    g::write_prefix(prefix, static_cast<std::uint32_t>(message.size()));
    for (std::size_t i = 0; i < g::kPrefixBytes; ++i) check(prefix[i] == data[i]);
  }
  content_type({reinterpret_cast<const char*>(data), size});
  // And every table entry, whatever the input (cheap, and each run checks the tables whole).
  if (size == 0)
    for (const g::Subtype& s : g::kSubtypes) {
      content_type(s.body_content_type);
      content_type(s.grpc_content_type);
    }
  return 0;
}
