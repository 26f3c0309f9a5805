// tests/server/hostile_test.cpp — hostile clients against a live in-process server
// (all three wires) while well-behaved clients (load::run, rpc: HTTP + JSON
// and ZAP-HTTP + ZAP; a ZAP-RPC client with calls in flight, RpcGoodClient)
// must see only valid responses the whole time. Owns the
// hostile case table (each case: bytes or an action, and the documented
// answer), the connection flood, the clients that reset mid-response or never
// read, and the after-checks: the server's open connections, the process's
// fds and RSS. The raw-socket helpers are tests/support/server_client.hpp's. Nothing
// here depends on the machine's speed: the well-behaved load runs until the
// attack is over and it has been answered again (an event, not a duration),
// and every wait is for an event with a hang bound (await.hpp).
// The hostile_http2 suite does the same for HTTP/2 and gRPC
// (hostile_http2_test.cpp); what both share is hostile.hpp.
#include "server/hostile.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <malloc.h>

#include <cstdio>
#include <filesystem>
#include <mutex>
#include <optional>

#include "load/engine.hpp"
#include "net/uring.hpp"
#include "support/await.hpp"
#include "support/background_load.hpp"
#include "support/h2_client.hpp"
#include "support/h2_frames.hpp"
#include "support/server_client.hpp"
#include "support/zap_rpc.hpp"
#include "wire/grpc.hpp"

namespace {

// ---- building hostile bytes -----------------------------------------------------

Bytes bytes_of(std::string_view s) { return Bytes(s.begin(), s.end()); }
Bytes cat(Bytes a, const Bytes& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Message offsets below are from the first byte of the ZAP message, i.e. the
// frame's byte 4 (after the big-endian length prefix). The request root is at
// 16; its slots: method 16, target 24, proto 32, headers 40, body 48, trailer 56.
constexpr std::size_t kSlotMethod = 16, kSlotTarget = 24, kSlotHeaders = 40, kSlotBody = 48,
                      kSlotTrailer = 56;

std::uint32_t msg_u32(const Bytes& f, std::size_t off) {
  std::uint32_t v = 0;
  std::memcpy(&v, f.data() + 4 + off, 4);  // little-endian host (x86-64, as the server)
  return v;
}
Bytes patch_u32(Bytes f, std::size_t off, std::uint32_t v) {
  std::memcpy(f.data() + 4 + off, &v, 4);
  return f;
}
Bytes patch_u16(Bytes f, std::size_t off, std::uint16_t v) {
  std::memcpy(f.data() + 4 + off, &v, 2);
  return f;
}
// Where a slot's payload starts (message offset).
std::size_t slot_target(const Bytes& f, std::size_t slot) { return slot + msg_u32(f, slot); }

Bytes zap_hello() { return zap_frame("GET", "/health", "", {}); }
Bytes zap_rpc(record::Bytes body) { return zap_frame("POST", "/rpc", "application/zap", body); }

// A frame with a one-pair trailer block (zap_frame sends none).
Bytes zap_with_trailer() {
  wire::zaphttp::RequestEncoder enc;
  net::Buffer out;
  const wire::zaphttp::Header t{"X-Checksum", "deadbeef"};
  wire::zaphttp::RequestSpec spec;
  spec.method = "GET";
  spec.target = "/health";
  spec.trailer = {&t, 1};
  enc.append_frame(spec, out);
  return Bytes(out.readable().begin(), out.readable().end());
}

// A frame whose header block holds `pairs` pairs "X-<i>: v".
Bytes zap_with_headers(int pairs) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(pairs));
  for (int i = 0; i < pairs; ++i) names.push_back("X-" + std::to_string(i));
  std::vector<wire::zaphttp::Header> hs;
  for (const auto& n : names) hs.push_back({n, "v"});
  wire::zaphttp::RequestEncoder enc;
  net::Buffer out{1 << 20};
  wire::zaphttp::RequestSpec spec;
  spec.method = "GET";
  spec.target = "/health";
  spec.headers = hs;
  enc.append_frame(spec, out);
  return Bytes(out.readable().begin(), out.readable().end());
}

Bytes prefix_only(std::uint32_t n) {
  return {static_cast<std::uint8_t>(n >> 24), static_cast<std::uint8_t>(n >> 16),
          static_cast<std::uint8_t>(n >> 8), static_cast<std::uint8_t>(n)};
}

// ---- the case table --------------------------------------------------------------

enum class Action : std::uint8_t {
  send,            // send the bytes at once
  bytewise,        // send them one byte per write, a millisecond apart (a frame split over many reads)
  send_then_shut,  // send them, then shutdown(SHUT_WR): the client leaves mid-request
  trickle,         // one byte a second (slowloris) until the server answers or closes
  idle,            // connect and send nothing
};
enum class End : std::uint8_t {
  serve_on,  // after the replies the connection still serves: GET /health gets 200
  close,     // after the replies the server closes, with nothing more
};

struct Case {
  std::string name;
  matrix::Framing wire;
  Action action;
  Bytes bytes;
  std::vector<int> replies;  // the statuses answered, in order (none: closed without a reply)
  End end;
  std::string body_has;  // the last reply's body contains this ("": not checked)
  // Timed cases: the end (the close) comes timeout_ms after the client's
  // first byte (or its connect, for idle), within [-kEarlySlackMs, +kLateSlackMs].
  std::uint32_t timeout_ms = 0;
  // What the server counts for it (every error kind but io is counted exactly
  // over the whole run); nullopt: nothing.
  std::optional<server::ErrorKind> counted;
  // ZAP-RPC: each reply's PromiseID, in order (empty: not checked).
  std::vector<std::uint32_t> promises = {};
};

using matrix::Framing;
using server::ErrorKind;

constexpr matrix::Framing kWires[] = {matrix::Framing::http1, matrix::Framing::zap_http,
                                      matrix::Framing::zap_rpc};

std::vector<Case> hostile_cases() {
  const std::string json = sample_json_request();
  zaptest::ByteVec eth;
  EXPECT_TRUE(zaptest::load_hex("eth_req", eth));
  const Bytes hello = zap_hello();
  const Bytes rpc = zap_rpc(eth);
  const std::string get = http_request("GET", "/health", "", "");
  const std::string post_json = http_request("POST", "/rpc", "application/json", json);
  const std::string post_head = "POST /rpc HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n";
  auto with_cl = [&](std::string cl) { return post_head + "Content-Length: " + cl + "\r\n\r\n" + json; };

  std::string many_short_lines = "GET /health HTTP/1.1\r\nHost: t\r\n";
  for (int i = 0; i < 60; ++i)
    many_short_lines += "X-Filler-" + std::to_string(i) + ": " + std::string(130, 'v') + "\r\n";
  many_short_lines += "\r\n";  // 60 lines (< 64) but ~9 KiB (> 8 KiB)
  std::string too_many_lines = "GET /health HTTP/1.1\r\nHost: t\r\n";
  for (int i = 0; i < 70; ++i) too_many_lines += "A: b\r\n";
  too_many_lines += "\r\n";  // ~450 bytes, 71 lines (> 64)
  const std::string nested_json = std::string(50'000, '[') + std::string(50'000, ']');
  std::string overflowing_block = json;
  overflowing_block.replace(overflowing_block.find("68943"), 5, "999999999999999999999999");

  // The ZAP record body (eth_req): root at 16, the account bytes slot at 40.
  zaptest::ByteVec eth_root_far = eth, eth_account_huge = eth;
  const std::uint32_t far = 0xFFFFFFF0u, all_ones = 0xFFFFFFFFu;
  std::memcpy(eth_root_far.data() + 8, &far, 4);
  std::memcpy(eth_account_huge.data() + 44, &all_ones, 4);

  const Bytes trailer = zap_with_trailer();
  const Bytes cut_message = [&] {  // a frame of 40 bytes holding the first 40 of an 82-byte message
    Bytes f = prefix_only(40);
    f.insert(f.end(), hello.begin() + 4, hello.begin() + 44);
    return f;
  }();

  const std::uint32_t max_frame = wire::zaphttp::kMaxFrameBytes;
  const std::string malformed = "malformed request frame: ";

  // ZAP-RPC: a health call under PromiseID p, an eth_call with the ZAP body (answered 200 or, with its
  // payload slot astray, 400), and the envelope offsets patched (support/zap_rpc.hpp; from the frame's first
  // byte: the envelope at 5, its size field at 17, its root offset at 13, the payload slot at 41).
  namespace zr = zaptest::rpc;
  const auto rpc_hello = [](std::uint32_t p) { return zr::call(zr::kHealth, p); };
  const Bytes rpc_eth = zr::call(zr::eth_call(), 2, eth);
  const Bytes rpc_hello_1 = rpc_hello(1);
  const Bytes rpc_cut_envelope = zr::raw(1, Bytes(rpc_hello_1.begin() + 5, rpc_hello_1.begin() + 35));
  const std::size_t version_at = zr::kEnvelopeAt + 4, flags_at = zr::kEnvelopeAt + 6,
                    root_at = zr::kEnvelopeAt + 8, size_at = zr::kEnvelopeAt + 12;
  const std::uint32_t rpc_max = wire::zaprpc::kMaxFrameBytes;
  const std::string no_stream = "streams are not supported";

  // Each row: name, wire, action, bytes; the replies' statuses, then close or serve on; what the last
  // reply's body says; the timeout that ends it (timed cases); what the server counts.
  // clang-format off
  std::vector<Case> t = {
      // ---- ZAP-HTTP: framing (a bad length prefix: closed, no reply) ----
      {"zap: length prefix 0", matrix::Framing::zap_http, Action::send, prefix_only(0),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap: length prefix one over the maximum (64 MiB + 1)", matrix::Framing::zap_http, Action::send, prefix_only(max_frame + 1),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap: length prefix 0xFFFFFFFF", matrix::Framing::zap_http, Action::send, prefix_only(0xFFFFFFFFu),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap: header block over the frame limit (a 64 MiB + 1 frame begun)", matrix::Framing::zap_http, Action::send,
       cat(prefix_only(max_frame + 1), Bytes(hello.begin() + 4, hello.end())),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap: good frame, then length prefix 0", matrix::Framing::zap_http, Action::send, cat(hello, prefix_only(0)),
       {200}, End::close, "ok", 0, ErrorKind::zap_bad_length},
      {"zap: truncated frame, then the client half-closes", matrix::Framing::zap_http, Action::send_then_shut,
       Bytes(hello.begin(), hello.begin() + 40),
       {}, End::close, "", 0, std::nullopt},
      {"zap: truncated length prefix, then the client half-closes", matrix::Framing::zap_http, Action::send_then_shut,
       Bytes(hello.begin(), hello.begin() + 2),
       {}, End::close, "", 0, std::nullopt},
      {"zap: truncated frame left hanging (header timeout)", matrix::Framing::zap_http, Action::send,
       Bytes(hello.begin(), hello.begin() + 40),
       {}, End::close, "", kHeaderTimeoutMs, ErrorKind::header_timeout},

      // ---- ZAP-HTTP: malformed messages (a 400 frame, then close) ----
      {"zap: frame shorter than the message's size field", matrix::Framing::zap_http, Action::send, cut_message,
       {400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},
      {"zap: wrong magic", matrix::Framing::zap_http, Action::send, patch_u32(hello, 0, 0x00504158u),
       {400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},
      {"zap: version 3", matrix::Framing::zap_http, Action::send, patch_u16(hello, 4, 3),
       {400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},
      {"zap: version 0", matrix::Framing::zap_http, Action::send, patch_u16(hello, 4, 0),
       {400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},
      {"zap: size field under the header size", matrix::Framing::zap_http, Action::send, patch_u32(hello, 12, 8),
       {400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},
      {"zap: message type response (2)", matrix::Framing::zap_http, Action::send, patch_u16(hello, 6, 0x0200),
       {400}, End::close, malformed + "wrong frame type", 0, ErrorKind::zap_malformed},
      {"zap: message type 0", matrix::Framing::zap_http, Action::send, patch_u16(hello, 6, 0x0000),
       {400}, End::close, malformed + "wrong frame type", 0, ErrorKind::zap_malformed},
      {"zap: message type 0xFF", matrix::Framing::zap_http, Action::send, patch_u16(hello, 6, 0xFF00),
       {400}, End::close, malformed + "wrong frame type", 0, ErrorKind::zap_malformed},
      {"zap: root offset pointing into the header", matrix::Framing::zap_http, Action::send, patch_u32(hello, 8, 8),
       {400}, End::close, malformed + "root offset out of range", 0, ErrorKind::zap_malformed},
      {"zap: root offset past the message end", matrix::Framing::zap_http, Action::send, patch_u32(hello, 8, 0xFFFFFFF8u),
       {400}, End::close, malformed + "root offset out of range", 0, ErrorKind::zap_malformed},
      {"zap: header block count 0xFFFFFFFF", matrix::Framing::zap_http, Action::send,
       patch_u32(rpc, slot_target(rpc, kSlotHeaders), 0xFFFFFFFFu),
       {400}, End::close, malformed + "truncated header block", 0, ErrorKind::zap_malformed},
      {"zap: header name length past the block", matrix::Framing::zap_http, Action::send,
       patch_u32(rpc, slot_target(rpc, kSlotHeaders) + 4, 0xFFFFFFF0u),
       {400}, End::close, malformed + "truncated header block", 0, ErrorKind::zap_malformed},
      {"zap: trailer block count 0xFFFFFFFF", matrix::Framing::zap_http, Action::send,
       patch_u32(trailer, slot_target(trailer, kSlotTrailer), 0xFFFFFFFFu),
       {400}, End::close, malformed + "truncated header block", 0, ErrorKind::zap_malformed},
      {"zap: good frame, then a frame with a bad magic", matrix::Framing::zap_http, Action::send, cat(hello, patch_u32(hello, 0, 0)),
       {200, 400}, End::close, malformed + "not a ZAP message", 0, ErrorKind::zap_malformed},

      // ---- ZAP-HTTP: slots out of bounds read as null (the reader's rules); the request is answered ----
      {"zap: body slot past the message end reads as null (bad zap body)", matrix::Framing::zap_http, Action::send,
       patch_u32(rpc, kSlotBody + 4, msg_u32(rpc, kSlotBody + 4) + 1000),
       {400}, End::serve_on, "bad zap body: malformed input", 0, std::nullopt},
      {"zap: body slot length 0xFFFFFFFF reads as null (bad zap body)", matrix::Framing::zap_http, Action::send,
       patch_u32(rpc, kSlotBody + 4, 0xFFFFFFFFu),
       {400}, End::serve_on, "bad zap body: malformed input", 0, std::nullopt},
      {"zap: headers slot past the end reads as no headers (415)", matrix::Framing::zap_http, Action::send,
       patch_u32(rpc, kSlotHeaders + 4, 0xFFFFFFFFu),
       {415}, End::serve_on, "unsupported content type", 0, std::nullopt},
      {"zap: target slot pointing back (rel 0xFFFFFFF0) reads as empty (404)", matrix::Framing::zap_http, Action::send,
       patch_u32(hello, kSlotTarget, 0xFFFFFFF0u),
       {404}, End::serve_on, "not found", 0, std::nullopt},
      {"zap: method slot past the end reads as null, i.e. GET (200)", matrix::Framing::zap_http, Action::send,
       patch_u32(hello, kSlotMethod + 4, 0x00FFFFFFu),
       {200}, End::serve_on, "ok", 0, std::nullopt},
      {"zap: record body with its root offset far past its end", matrix::Framing::zap_http, Action::send, zap_rpc(eth_root_far),
       {400}, End::serve_on, "bad zap body: missing field", 0, std::nullopt},
      {"zap: record body with an account length of 0xFFFFFFFF", matrix::Framing::zap_http, Action::send, zap_rpc(eth_account_huge),
       {400}, End::serve_on, "bad zap body: missing field", 0, std::nullopt},
      {"zap: header block of 2000 pairs, inside the frame limit", matrix::Framing::zap_http, Action::send, zap_with_headers(2000),
       {200}, End::serve_on, "ok", 0, std::nullopt},

      // ---- ZAP-HTTP: time (closed, no reply) ----
      {"zap: slowloris, one byte a second", matrix::Framing::zap_http, Action::trickle, hello,
       {}, End::close, "", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"zap: idle connection", matrix::Framing::zap_http, Action::idle, {},
       {}, End::close, "", kIdleTimeoutMs, ErrorKind::idle_timeout},

      // ---- ZAP-RPC: framing (a bad length or direction byte: closed, no reply) ----
      {"zap-rpc: length prefix 0", matrix::Framing::zap_rpc, Action::send, zr::prefix(0),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap-rpc: length prefix one over the maximum (64 MiB + 1)", matrix::Framing::zap_rpc, Action::send, zr::prefix(rpc_max + 1),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap-rpc: length prefix 0xFFFFFFFF", matrix::Framing::zap_rpc, Action::send, zr::prefix(0xFFFFFFFFu),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap-rpc: good call, then length prefix 0", matrix::Framing::zap_rpc, Action::send, cat(rpc_hello(7), zr::prefix(0)),
       {200}, End::close, "ok", 0, ErrorKind::zap_bad_length, {7}},
      // Both read as little-endian lengths far over the limit.
      {"zap-rpc: a ZAP-HTTP frame sent to the ZAP-RPC port", matrix::Framing::zap_rpc, Action::send, hello,
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap-rpc: an HTTP request sent to the ZAP-RPC port", matrix::Framing::zap_rpc, Action::send, bytes_of(get),
       {}, End::close, "", 0, ErrorKind::zap_bad_length},
      {"zap-rpc: direction byte 0", matrix::Framing::zap_rpc, Action::send, zr::call(zr::kHealth, 1, {}, 0, 0),
       {}, End::close, "", 0, ErrorKind::zap_rpc_bad_dir},
      {"zap-rpc: direction byte 9", matrix::Framing::zap_rpc, Action::send, zr::call(zr::kHealth, 1, {}, 0, 9),
       {}, End::close, "", 0, ErrorKind::zap_rpc_bad_dir},
      {"zap-rpc: good call, then direction byte 0xFF", matrix::Framing::zap_rpc, Action::send,
       cat(rpc_hello(8), zr::raw(0xFF, {1, 2, 3})),
       {200}, End::close, "ok", 0, ErrorKind::zap_rpc_bad_dir, {8}},
      {"zap-rpc: truncated frame, then the client half-closes", matrix::Framing::zap_rpc, Action::send_then_shut,
       Bytes(rpc_eth.begin(), rpc_eth.begin() + 30),
       {}, End::close, "", 0, std::nullopt},
      {"zap-rpc: truncated frame left hanging (header timeout)", matrix::Framing::zap_rpc, Action::send,
       Bytes(rpc_eth.begin(), rpc_eth.begin() + 30),
       {}, End::close, "", kHeaderTimeoutMs, ErrorKind::header_timeout},

      // ---- ZAP-RPC: frames the server does not answer (dropped or skipped, counted; the call after is answered) ----
      {"zap-rpc: a response frame (dir 2) is dropped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::response(200, 9, zaptest::bytes_of("ok")), rpc_hello(9)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_unsolicited, {9}},
      {"zap-rpc: a stream message (dir 4) is dropped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::raw(4, {1, 0, 0, 0, 'x', 'y'}), rpc_hello(10)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_stream, {10}},
      {"zap-rpc: a stream end (dir 5) is dropped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::raw(5, {1, 0, 0, 0}), rpc_hello(11)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_stream, {11}},
      {"zap-rpc: an empty stream message (L = 1) is dropped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::raw(4, {}), rpc_hello(12)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_stream, {12}},
      {"zap-rpc: an empty request frame (L = 1) is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::raw(1, {}), rpc_hello(13)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {13}},
      {"zap-rpc: a truncated envelope (30 of its 44 bytes) is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(rpc_cut_envelope, rpc_hello(14)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {14}},
      {"zap-rpc: an envelope with a bad magic is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(rpc_hello(1), zr::kEnvelopeAt, 0), rpc_hello(15)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {15}},
      {"zap-rpc: an envelope of version 3 is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u16(rpc_hello(1), version_at, 3), rpc_hello(16)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {16}},
      {"zap-rpc: an envelope size under the header's is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(rpc_hello(1), size_at, 8), rpc_hello(17)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {17}},
      {"zap-rpc: an envelope size past the frame is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(rpc_hello(1), size_at, 1000), rpc_hello(18)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {18}},
      {"zap-rpc: a root offset into the header is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(rpc_hello(1), root_at, 8), rpc_hello(19)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {19}},
      {"zap-rpc: a root offset at the size is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(rpc_hello(1), root_at, 44), rpc_hello(20)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {20}},
      {"zap-rpc: a malformed stream open is skipped", matrix::Framing::zap_rpc, Action::send,
       cat(zr::patch_u32(zr::call(zr::eth_call(), 1, eth, 0, 3), zr::kEnvelopeAt, 0), rpc_hello(21)),
       {200}, End::serve_on, "ok", 0, ErrorKind::zap_rpc_malformed, {21}},

      // ---- ZAP-RPC: calls answered with a refusal under their PromiseID ----
      {"zap-rpc: a stream open (dir 3) is refused under its stream id", matrix::Framing::zap_rpc, Action::send,
       zr::call(zr::eth_call(), 77, eth, 0, 3),
       {404}, End::serve_on, no_stream, 0, std::nullopt, {77}},
      {"zap-rpc: Target != 0 (promise pipelining)", matrix::Framing::zap_rpc, Action::send, zr::call(zr::eth_call(), 22, eth, 21),
       {400}, End::serve_on, "promise pipelining (Target) is not supported", 0, std::nullopt, {22}},
      {"zap-rpc: method 0xFFFFFFFF", matrix::Framing::zap_rpc, Action::send, zr::call(0xFFFFFFFFu, 23, eth),
       {404}, End::serve_on, "unknown method 4294967295", 0, std::nullopt, {23}},
      // Slots that do not resolve read as null (the reader's rules): an eth_call with no payload.
      {"zap-rpc: payload slot pointing back into the header reads as null (400)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u32(rpc_eth, zr::kPayloadSlotAt, 0xFFFFFFE2u),
       {400}, End::serve_on, "bad zap body: ", 0, std::nullopt, {2}},
      {"zap-rpc: payload slot rel 0 reads as null (400)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u32(rpc_eth, zr::kPayloadSlotAt, 0),
       {400}, End::serve_on, "bad zap body: ", 0, std::nullopt, {2}},
      {"zap-rpc: payload slot past the envelope's end reads as null (400)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u32(rpc_eth, zr::kPayloadSlotAt + 4, static_cast<std::uint32_t>(eth.size()) + 1),
       {400}, End::serve_on, "bad zap body: ", 0, std::nullopt, {2}},
      {"zap-rpc: payload length 0xFFFFFFFF reads as null (400)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u32(rpc_eth, zr::kPayloadSlotAt + 4, 0xFFFFFFFFu),
       {400}, End::serve_on, "bad zap body: ", 0, std::nullopt, {2}},
      {"zap-rpc: a capability slot pointing anywhere is not read (200)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u32(zr::patch_u32(rpc_eth, zr::kCapSlotAt, 0xFFFFFFF0u), zr::kCapSlotAt + 4, 0xFFFFFFFFu),
       {200}, End::serve_on, "", 0, std::nullopt, {2}},
      {"zap-rpc: envelope flags 0 are not read (200)", matrix::Framing::zap_rpc, Action::send,
       zr::patch_u16(rpc_hello(24), flags_at, 0),
       {200}, End::serve_on, "ok", 0, std::nullopt, {24}},
      {"zap-rpc: duplicate PromiseIDs are both answered", matrix::Framing::zap_rpc, Action::send, cat(rpc_eth, rpc_hello(2)),
       {200, 200}, End::serve_on, "ok", 0, std::nullopt, {2, 2}},
      {"zap-rpc: a call split byte by byte over many writes", matrix::Framing::zap_rpc, Action::bytewise, cat(rpc_eth, rpc_hello(25)),
       {200, 200}, End::serve_on, "ok", 0, std::nullopt, {2, 25}},

      // ---- ZAP-RPC: time (closed, no reply) ----
      {"zap-rpc: slowloris, one byte a second", matrix::Framing::zap_rpc, Action::trickle, rpc_hello(1),
       {}, End::close, "", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"zap-rpc: idle connection", matrix::Framing::zap_rpc, Action::idle, {},
       {}, End::close, "", kIdleTimeoutMs, ErrorKind::idle_timeout},

      // ---- HTTP/1.1: limits ----
      {"http: one header line over max_header_bytes", matrix::Framing::http1, Action::send,
       bytes_of("GET /health HTTP/1.1\r\nHost: t\r\nX-Big: " + std::string(9000, 'a') + "\r\n\r\n"),
       {431}, End::close, "head over max_header_bytes", 0, ErrorKind::http_header_too_large},
      {"http: header block over max_header_bytes in short lines", matrix::Framing::http1, Action::send, bytes_of(many_short_lines),
       {431}, End::close, "head over max_header_bytes", 0, ErrorKind::http_header_too_large},
      {"http: more header lines than max_headers", matrix::Framing::http1, Action::send, bytes_of(too_many_lines),
       {431}, End::close, "more than max_headers lines", 0, ErrorKind::http_header_too_large},
      {"http: a head that never ends, past max_header_bytes", matrix::Framing::http1, Action::send,
       bytes_of("GET /" + std::string(9000, 'a')),
       {431}, End::close, "head over max_header_bytes", 0, ErrorKind::http_header_too_large},
      {"http: Content-Length one over max_body_bytes", matrix::Framing::http1, Action::send,
       bytes_of(post_head + "Content-Length: 1048577\r\n\r\n"),
       {413}, End::close, "Content-Length over max_body_bytes", 0, ErrorKind::http_body_too_large},

      // ---- HTTP/1.1: Content-Length lies ----
      {"http: body longer than Content-Length (the excess is a garbage request)", matrix::Framing::http1, Action::send,
       bytes_of(post_json + "}garbage\r\n\r\n"),
       {200, 400}, End::close, "bad request: invalid method", 0, ErrorKind::http_bad_request},
      {"http: body longer than Content-Length (the excess never completes a head)", matrix::Framing::http1, Action::send,
       bytes_of(post_json + "xyz"),
       {200, 408}, End::close, "not complete in time", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"http: body shorter than Content-Length", matrix::Framing::http1, Action::send,
       bytes_of(with_cl(std::to_string(json.size() + 10))),
       {408}, End::close, "not complete in time", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"http: negative Content-Length", matrix::Framing::http1, Action::send, bytes_of(with_cl("-1")),
       {400}, End::close, "invalid Content-Length", 0, ErrorKind::http_bad_request},
      {"http: Content-Length 2^64 (overflows u64)", matrix::Framing::http1, Action::send,
       bytes_of(with_cl("18446744073709551616")),
       {400}, End::close, "invalid Content-Length", 0, ErrorKind::http_bad_request},
      {"http: Content-Length of 40 digits", matrix::Framing::http1, Action::send, bytes_of(with_cl(std::string(40, '9'))),
       {400}, End::close, "invalid Content-Length", 0, ErrorKind::http_bad_request},
      {"http: two different Content-Lengths", matrix::Framing::http1, Action::send,
       bytes_of(post_head + "Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
       {400}, End::close, "conflicting Content-Length", 0, ErrorKind::http_bad_request},
      {"http: Content-Length with Transfer-Encoding (smuggling shape)", matrix::Framing::http1, Action::send,
       bytes_of(post_head + "Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\nabcd"),
       {400}, End::close, "both Content-Length and Transfer-Encoding", 0, ErrorKind::http_bad_request},

      // ---- HTTP/1.1: garbage ----
      {"http: pipelined garbage after a good request", matrix::Framing::http1, Action::send,
       bytes_of(get + "\x01\x02 garbage \x7f\r\n\r\n"),
       {200, 400}, End::close, "bad request", 0, ErrorKind::http_bad_request},
      {"http: binary garbage with NUL bytes", matrix::Framing::http1, Action::send,
       cat(Bytes{0, 0, 0, 0x52, 0x5a, 0x41, 0x50, 0, 0xff, 0xfe}, bytes_of("\r\n\r\n")),
       {400}, End::close, "bad request", 0, ErrorKind::http_bad_request},
      {"http: bare LF line endings", matrix::Framing::http1, Action::send, bytes_of("GET /health HTTP/1.1\nHost: t\n\n"),
       {400}, End::close, "bare LF", 0, ErrorKind::http_bad_request},
      // matrix::Framing A bytes hold no CR or LF: a head that never completes, so the header timeout answers.
      {"http: a ZAP frame sent to the HTTP port", matrix::Framing::http1, Action::send, hello,
       {408}, End::close, "not complete in time", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"http: client half-closes mid-head", matrix::Framing::http1, Action::send_then_shut,
       bytes_of("GET /health HTTP/1.1\r\nHo"),
       {}, End::close, "", 0, std::nullopt},

      // ---- HTTP/1.1: bodies the record decoders must survive ----
      {"http: rpc JSON body of 50000 nested arrays", matrix::Framing::http1, Action::send,
       bytes_of(http_request("POST", "/rpc", "application/json", nested_json)),
       {400}, End::serve_on, "bad json body", 0, std::nullopt},
      {"http: rpc JSON body with an unknown field of 50000 nested arrays", matrix::Framing::http1, Action::send,
       bytes_of(http_request("POST", "/rpc", "application/json", "{\"x\":" + nested_json + "," + json.substr(1))),
       {400}, End::serve_on, "bad json body", 0, std::nullopt},
      {"http: rpc JSON body with a block number over u64", matrix::Framing::http1, Action::send,
       bytes_of(http_request("POST", "/rpc", "application/json", overflowing_block)),
       {400}, End::serve_on, "bad json body", 0, std::nullopt},

      // ---- HTTP/1.1: time ----
      {"http: slowloris, one byte a second", matrix::Framing::http1, Action::trickle, bytes_of(get),
       {408}, End::close, "not complete in time", kHeaderTimeoutMs, ErrorKind::header_timeout},
      {"http: idle connection", matrix::Framing::http1, Action::idle, {},
       {}, End::close, "", kIdleTimeoutMs, ErrorKind::idle_timeout},
  };
  // clang-format on
  return t;
}

// ---- running one case --------------------------------------------------------------

bool readable_within(int fd, int timeout_ms) {
  pollfd p{fd, POLLIN, 0};
  return poll(&p, 1, timeout_ms) > 0;
}

// A reply on any wire: its status, body and (ZAP-RPC) PromiseID.
struct Reply {
  int status = 0;
  std::string body;
  std::uint32_t promise = 0;
};

// The next reply on the wire; nullopt on close/timeout.
std::optional<Reply> next_reply(Client& c, matrix::Framing w) {
  if (w == matrix::Framing::http1) {
    auto r = c.http_response();
    if (!r) return std::nullopt;
    return Reply{r->first.status, r->second};
  }
  if (w == matrix::Framing::zap_rpc) {
    auto r = c.zap_rpc_response();
    if (!r) return std::nullopt;
    return Reply{static_cast<int>(r->status), std::string(r->body.begin(), r->body.end()), r->promise};
  }
  auto r = c.zap_response();
  if (!r) return std::nullopt;
  return Reply{r->status, std::string(r->body.begin(), r->body.end())};
}

Bytes hello_on(matrix::Framing w) {
  return w == matrix::Framing::http1      ? bytes_of(http_request("GET", "/health", "", ""))
         : w == matrix::Framing::zap_http ? zap_hello()
                                          : zaptest::rpc::call(zaptest::rpc::kHealth, 1);
}

// A new connection on w gets 200 for GET /health.
bool serves_a_newcomer(const LiveServer& srv, matrix::Framing w) {
  Client c(srv.port(w));
  c.send_all(hello_on(w));
  const auto r = next_reply(c, w);
  return r && r->status == 200;
}

void run_case(const LiveServer& srv, const Case& k) {
  SCOPED_TRACE("case: " + k.name);
  Client c(srv.port(k.wire));
  SteadyClock::time_point t0 = SteadyClock::now();
  switch (k.action) {
    case Action::send:
      c.send_all(k.bytes);
      break;
    case Action::send_then_shut:
      c.send_all(k.bytes);
      shutdown(c.fd(), SHUT_WR);
      break;
    case Action::bytewise:
      for (std::uint8_t b : k.bytes) {
        if (::send(c.fd(), &b, 1, MSG_NOSIGNAL) != 1) break;  // closed under us: the reads tell
        std::this_thread::sleep_for(Ms(1));                   // each its own segment, most its own read
      }
      break;
    case Action::trickle:
      for (std::uint8_t b : k.bytes) {
        if (::send(c.fd(), &b, 1, MSG_NOSIGNAL) != 1) break;  // closed under us: the reads tell
        if (readable_within(c.fd(), 1000)) break;             // answered or closed
      }
      break;
    case Action::idle:
      break;
  }
  std::string last_body;
  for (std::size_t i = 0; i < k.replies.size(); ++i) {
    const auto r = next_reply(c, k.wire);
    ASSERT_TRUE(r) << k.name << ": reply " << i << " missing (closed or timed out)";
    EXPECT_EQ(r->status, k.replies[i]) << k.name << ": reply " << i << ", body: " << r->body;
    if (i < k.promises.size()) {
      EXPECT_EQ(r->promise, k.promises[i]) << k.name << ": reply " << i << " answers another call";
    }
    last_body = r->body;
  }
  if (!k.body_has.empty()) {
    EXPECT_NE(last_body.find(k.body_has), std::string::npos)
        << k.name << ": the body '" << last_body << "' lacks '" << k.body_has << "'";
  }
  if (k.end == End::close) {
    EXPECT_TRUE(c.closed_without_reply())
        << k.name << ": not closed, or more bytes after the expected replies";
    if (k.timeout_ms != 0) {
      EXPECT_GE(ms_since(t0), static_cast<int>(k.timeout_ms) - kEarlySlackMs)
          << k.name << ": closed before its timeout";
    }
  } else {
    c.send_all(hello_on(k.wire));
    const auto r = next_reply(c, k.wire);
    ASSERT_TRUE(r) << k.name << ": the connection did not serve on";
    EXPECT_EQ(r->status, 200) << k.name << ": the follow-up GET /health";
  }
}

// ---- the phases that need the server to themselves ----------------------------------------

// A flood past max_connections: exactly the headroom is served, the rest are
// closed without a reply, and the well-behaved connections are not touched.
std::size_t flood(const LiveServer& srv, std::size_t well_behaved) {
  SCOPED_TRACE("case: connection flood past max_connections");
  const std::size_t n = kMaxConnections + 32;
  const std::size_t headroom = kMaxConnections - well_behaved;
  const auto wire_of = [](std::size_t i) { return kWires[i % std::size(kWires)]; };
  std::vector<std::unique_ptr<Client>> cs;
  for (std::size_t i = 0; i < n; ++i) cs.push_back(std::make_unique<Client>(srv.port(wire_of(i))));
  for (std::size_t i = 0; i < n; ++i) cs[i]->send_all(hello_on(wire_of(i)));
  std::size_t served = 0, refused = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto r = next_reply(*cs[i], wire_of(i));
    if (r) {
      EXPECT_EQ(r->status, 200) << "flood connection " << i;
      ++served;
    } else {
      EXPECT_TRUE(cs[i]->closed_without_reply()) << "flood connection " << i;
      ++refused;
    }
  }
  EXPECT_EQ(served, headroom) << "flood: the connections served are not exactly the limit's headroom";
  EXPECT_EQ(refused, n - headroom) << "flood: the connections past the limit were not all closed";
  EXPECT_EQ(srv.open(), kMaxConnections) << "flood: open connections at the limit";
  // At the limit, a newer connection is closed too, on every wire.
  for (matrix::Framing w : kWires) {
    Client extra(srv.port(w));
    extra.send_all(hello_on(w));
    EXPECT_TRUE(extra.closed_without_reply()) << "flood: a connection past the limit was served";
  }
  cs.clear();
  EXPECT_TRUE(srv.wait_open(well_behaved))
      << "flood: the flood's connections were not all closed; open " << srv.open();
  for (matrix::Framing w : kWires)  // below the limit again, newcomers are served
    EXPECT_TRUE(serves_a_newcomer(srv, w)) << "flood: a new connection after the flood was not served";
  return n - headroom + std::size(kWires);  // refused: the flood's excess and the extras
}

// A pipelined batch of `count` rpc requests on a wire (JSON over HTTP, ZAP over ZAP-HTTP, ZAP eth_call
// calls over ZAP-RPC, all under PromiseID 1: duplicates are answered each).
Bytes rpc_batch(matrix::Framing w, int count) {
  zaptest::ByteVec eth;
  EXPECT_TRUE(zaptest::load_hex("eth_req", eth));
  const Bytes one = w == matrix::Framing::http1
                        ? bytes_of(http_request("POST", "/rpc", "application/json", sample_json_request()))
                    : w == matrix::Framing::zap_http ? zap_rpc(eth)
                                                     : zaptest::rpc::call(zaptest::rpc::eth_call(), 1, eth);
  Bytes b;
  b.reserve(one.size() * static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) b.insert(b.end(), one.begin(), one.end());
  return b;
}

// Clients that pipeline far more than they read and never read: the server
// must stop reading from them (so a client's sends block after a bounded
// number of bytes), hold bounded memory, keep serving others, and close them
// by its timeouts (which ends each client's blocked send with an error).
// Returns how many there were.
std::size_t never_readers(const LiveServer& srv, std::size_t well_behaved) {
  SCOPED_TRACE("case: clients that pipeline and never read");
  const std::int64_t rss_base_kib = rss_kib();
  struct Reader : NeverReader {
    matrix::Framing wire;
    Bytes batch;  // built before the connect, so the idle timeout does not run while it is
    std::unique_ptr<Client> c;
  };
  std::vector<std::unique_ptr<Reader>> rs;
  for (int i = 0; i < kNeverReadersPerWire; ++i)
    for (matrix::Framing w : kWires) {
      rs.push_back(std::make_unique<Reader>());
      rs.back()->wire = w;
      rs.back()->batch = rpc_batch(w, 4096);
      rs.back()->c = std::make_unique<Client>(srv.port(w));
    }
  std::atomic<std::size_t> done{0};
  std::vector<std::thread> ts;
  for (auto& rp : rs) {
    ts.emplace_back([&r = *rp, &done] {
      r.send_until_stopped(r.c->fd(), [&r] { return std::span<const std::uint8_t>(r.batch); });
      ++done;
    });
  }
  // Meanwhile: once each has sent a good deal, others are still served, on both wires; and the process's
  // RSS is sampled until the last never-reader is closed.
  const bool all_sending = zaptest::await([&] {
    for (const auto& r : rs)
      if (r->sent < (1u << 20) && done == 0) return false;
    return true;
  });
  EXPECT_TRUE(all_sending) << "awaited 1 MiB sent by each never-reader";
  for (matrix::Framing w : kWires)
    EXPECT_TRUE(serves_a_newcomer(srv, w)) << "never-reader: another client was not served meanwhile";
  std::int64_t rss_peak = rss_kib();
  while (done < rs.size()) {
    rss_peak = std::max(rss_peak, rss_kib());
    std::this_thread::sleep_for(Ms(5));
  }
  for (auto& t : ts) t.join();
  for (const auto& r : rs) {
    const std::string_view w = matrix::to_string(r->wire);
    EXPECT_FALSE(r->hung) << "never-reader (" << w << "): its sends blocked for " << zaptest::kHang.count()
                          << " ms and the server never closed it";
    EXPECT_TRUE(r->closed_by_server || r->hung)
        << "never-reader (" << w << "): the server kept reading; " << r->sent << " bytes sent";
    EXPECT_LT(r->sent, kNeverReaderMaxReadBytes)
        << "never-reader (" << w << "): the server read past its output cap";
    std::printf("[ hostile  ] never-reader (%.*s): %zu KiB sent before the server closed it\n", int(w.size()),
                w.data(), r->sent.load() / 1024);
  }
  std::printf("[ hostile  ] %zu never-readers: RSS %lld KiB at most (before them %lld KiB, +%lld KiB)\n",
              rs.size(), static_cast<long long>(rss_peak), static_cast<long long>(rss_base_kib),
              static_cast<long long>(rss_peak - rss_base_kib));
  if (kRssMeaningful) {
    EXPECT_LT(rss_peak - rss_base_kib, kNeverReaderBoundKib * static_cast<std::int64_t>(rs.size()))
        << "never-readers: the server's memory grew past " << kNeverReaderBoundKib << " KiB per never-reader";
  }
  EXPECT_TRUE(srv.wait_open(well_behaved)) << "never-reader: not all closed; open " << srv.open();
  return rs.size();
}

// Clients that reset (SO_LINGER 0, then close) while a large pipelined batch
// is being answered: the server drops them and serves on.
void resetters(const LiveServer& srv, std::size_t well_behaved) {
  SCOPED_TRACE("case: clients that reset mid-response");
  for (bool read_first : {true, false}) {
    for (matrix::Framing w : kWires) {
      auto c = std::make_unique<Client>(srv.port(w));
      // ~1 MiB: fits the socket buffers, so send_all cannot block. ZAP-RPC stops reading at 256 calls in
      // flight, so the kernel's buffers take the rest: 500 calls (~60 KiB) fit them at their defaults.
      c->send_all(rpc_batch(w, w == matrix::Framing::zap_rpc ? 500 : 5000));
      if (read_first) {
        EXPECT_TRUE(next_reply(*c, w)) << "resetter: not even one reply on " << matrix::display_name(w)
                                       << " (the client's last read: " << c->last_read_text() << ")";
      }
      const linger l{1, 0};  // close() sends RST, discarding what is queued both ways
      setsockopt(c->fd(), SOL_SOCKET, SO_LINGER, &l, sizeof l);
      c.reset();
    }
  }
  EXPECT_TRUE(srv.wait_open(well_behaved)) << "resetter: connections not dropped; open " << srv.open();
  for (matrix::Framing w : kWires)
    EXPECT_TRUE(serves_a_newcomer(srv, w)) << "resetter: the server did not serve on";
}

// ---- the whole attack ------------------------------------------------------------------

std::string describe_errors(const load::Result& r) {
  std::string s;
  for (int i = 0; i < static_cast<int>(load::ErrorKind::count_); ++i)
    if (r.errors[i] != 0)
      s += std::string(load::describe(static_cast<load::ErrorKind>(i))) + "=" + std::to_string(r.errors[i]) +
           " ";
  return s.empty() ? "none" : s;
}

// threads workers on the io backend; the good clients' loader on the same.
void attack(unsigned threads, net::Io io = net::Io::epoll) {
  LiveServer srv(threads, io);
  const std::map<int, std::string> fds_base = proc::open_descriptor_targets();
  const std::int64_t rss_base = rss_kib();

  // The well-behaved clients, for the whole attack: no warm-up (every response and error counts), and a
  // response timeout that only a hang reaches.
  load::Options o;
  o.scenario = matrix::Scenario::rpc;
  o.body = &record::default_json_codec();
  o.connections = kLoadConnections;
  o.threads = 1;
  o.io = io;
  o.warmup_s = 0;
  o.timeout_ms = static_cast<std::uint32_t>(zaptest::kHang.count());
  load::Options http_json = o, zap_zap = o;
  http_json.framing = matrix::Framing::http1;
  http_json.port = srv.port(matrix::Framing::http1);
  zap_zap.framing = matrix::Framing::zap_http;
  zap_zap.port = srv.port(matrix::Framing::zap_http);
  zap_zap.body = record::find_codec("zap");
  zaptest::BackgroundLoad loads[2] = {zaptest::BackgroundLoad(http_json), zaptest::BackgroundLoad(zap_zap)};
  const char* names[2] = {"HTTP + JSON", "ZAP-HTTP + ZAP"};
  RpcGoodClient rpc_good(srv.port(matrix::Framing::zap_rpc));  // ZAP-RPC + ZAP, 4 calls in flight
  for (int i = 0; i < 2; ++i)
    ASSERT_TRUE(loads[i].await_responses(kLoadResponsesBefore,
                                         std::string(names[i]) + " answered before the attack"));
  ASSERT_TRUE(rpc_good.await_answers(kLoadResponsesBefore, "ZAP-RPC + ZAP answered before the attack"));
  const std::size_t well_behaved = 2 * kLoadConnections + 1;
  ASSERT_TRUE(srv.wait_open(well_behaved)) << "the well-behaved clients did not connect; open " << srv.open();

  const auto attack_start = SteadyClock::now();
  // Phase 1: every table case at once, each on its own connection.
  const std::vector<Case> cases = hostile_cases();
  ASSERT_LT(cases.size() + well_behaved, kMaxConnections) << "the table would hit the connection limit";
  {
    std::vector<std::thread> ts;
    for (const Case& k : cases) ts.emplace_back([&srv, &k] { run_case(srv, k); });
    for (auto& t : ts) t.join();
  }
  EXPECT_TRUE(srv.wait_open(well_behaved)) << "after the table: open " << srv.open();

  // Phases 2-4 each need the server to themselves (they count connections).
  const std::size_t refused = flood(srv, well_behaved);
  const std::size_t never_read = never_readers(srv, well_behaved);
  resetters(srv, well_behaved);
  const int attack_ms = ms_since(attack_start);

  // The well-behaved clients are still there and still answered after the attack; then they stop.
  EXPECT_TRUE(srv.wait_open(well_behaved)) << "after the attack: open " << srv.open() << ", want the "
                                           << well_behaved << " well-behaved connections";
  for (int i = 0; i < 2; ++i) {
    const std::uint64_t n = loads[i].progress().responses.load() + kLoadResponsesAfter;
    loads[i].await_responses(n, std::string(names[i]) + " answered after the attack");
  }
  rpc_good.await_answers(rpc_good.answers() + kLoadResponsesAfter, "ZAP-RPC + ZAP answered after the attack");
  const RpcGoodClient::Result rpc_result = rpc_good.finish();
  std::printf("[ hostile  ] well-behaved ZAP-RPC + ZAP: %llu valid answers, %s\n",
              static_cast<unsigned long long>(rpc_result.answers),
              rpc_result.failure.empty() ? "no failure" : rpc_result.failure.c_str());
  EXPECT_GE(rpc_result.answers, kLoadResponsesBefore + kLoadResponsesAfter) << "ZAP-RPC + ZAP";
  EXPECT_EQ(rpc_result.failure, "") << "ZAP-RPC + ZAP";
  for (int i = 0; i < 2; ++i) {
    const load::Result& r = loads[i].finish();
    std::printf("[ hostile  ] well-behaved %s: %llu valid responses, errors: %s\n", names[i],
                static_cast<unsigned long long>(r.responses), describe_errors(r).c_str());
    EXPECT_GE(r.responses, kLoadResponsesBefore + kLoadResponsesAfter) << names[i];
    EXPECT_EQ(r.error_total(), 0u) << names[i] << ": " << describe_errors(r);
  }
  EXPECT_TRUE(srv.wait_open(0)) << "after the load: open " << srv.open();
  // Taken with the server still running, as the baseline was.
  const std::map<int, std::string> fds_end = proc::open_descriptor_targets();
  const std::int64_t rss_end = rss_kib();

  // The server counted every case: each error kind exactly, except io
  // (resets race with its writes) and the timeouts, which also closed the
  // never-readers (one each, header or idle).
  srv.stop();
  const server::Counters n = srv.counters();
  std::size_t want[static_cast<int>(ErrorKind::count_)] = {};
  for (const Case& k : cases)
    if (k.counted) ++want[static_cast<int>(*k.counted)];
  want[static_cast<int>(ErrorKind::connection_limit)] += refused;
  std::printf("[ hostile  ] the server counted:");
  for (int i = 0; i < static_cast<int>(ErrorKind::count_); ++i)
    std::printf(" %s %llu (cases %zu)", std::string(server::describe(static_cast<ErrorKind>(i))).c_str(),
                static_cast<unsigned long long>(n.errors[i]), want[i]);
  std::printf("\n");
  for (int i = 0; i < static_cast<int>(ErrorKind::count_); ++i) {
    const auto kind = static_cast<ErrorKind>(i);
    if (kind == ErrorKind::io) continue;
    if (kind == ErrorKind::header_timeout || kind == ErrorKind::idle_timeout)
      EXPECT_GE(n.errors[i], want[i]) << server::describe(kind);
    else
      EXPECT_EQ(n.errors[i], want[i]) << server::describe(kind);
  }
  EXPECT_GE(n.errors[static_cast<int>(ErrorKind::header_timeout)] +
                n.errors[static_cast<int>(ErrorKind::idle_timeout)],
            want[static_cast<int>(ErrorKind::header_timeout)] +
                want[static_cast<int>(ErrorKind::idle_timeout)] + never_read)
      << "the never-readers were not closed by a timeout";

  // The process is back where it started: fds exactly, RSS within the bound.
  std::printf(
      "[ hostile  ] %u worker(s): fds %zu -> %zu; RSS %lld KiB -> %lld KiB (%+lld KiB); "
      "%zu table cases + flood, never-readers, resetters in %d ms; %llu connections, io errors %llu\n",
      threads, fds_base.size(), fds_end.size(), static_cast<long long>(rss_base),
      static_cast<long long>(rss_end), static_cast<long long>(rss_end - rss_base), cases.size(), attack_ms,
      static_cast<unsigned long long>(n.connections),
      static_cast<unsigned long long>(n.errors[static_cast<int>(ErrorKind::io)]));
  // A leak is a descriptor at the end that was not there at the start (the same number naming the same
  // thing), whatever the counts say: one gone by the end cannot hide one opened. One gone is printed,
  // not failed: the baseline, taken as the server has just started, was seen (under ASan, 14 -> 13)
  // to hold one descriptor gone by the end; the next time, this line names it.
  EXPECT_EQ(proc::descriptors_added(fds_base, fds_end), "") << "fds leaked";
  if (const std::string gone = proc::descriptors_added(fds_end, fds_base); !gone.empty())
    std::printf("[ hostile  ] open at the start, gone by the end:\n%s", gone.c_str());
  if (kRssMeaningful) {
    EXPECT_LT(rss_end - rss_base, kRssBoundKib) << "RSS grew past the bound";
  }
}

TEST(hostile, one_worker_survives_every_case_and_the_good_clients_see_no_error) { attack(1); }
TEST(hostile, two_workers_survive_every_case_and_the_good_clients_see_no_error) { attack(2); }
// The same cases, the same answers and counters, on the io_uring backend (server and good clients).
TEST(hostile, one_worker_on_io_uring_survives_every_case_and_the_good_clients_see_no_error) {
  if (!net::probe_uring().available) GTEST_SKIP() << net::probe_uring().describe();
  attack(1, net::Io::io_uring);
}
TEST(hostile, two_workers_on_io_uring_survive_every_case_and_the_good_clients_see_no_error) {
  if (!net::probe_uring().available) GTEST_SKIP() << net::probe_uring().describe();
  attack(2, net::Io::io_uring);
}

}  // namespace
