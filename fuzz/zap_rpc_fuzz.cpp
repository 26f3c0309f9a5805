// fuzz/zap_rpc_fuzz.cpp — libFuzzer target for wire/zap_rpc.hpp (ZAP-RPC, wire B):
// the input is a connection's byte stream, cut into frames by scan_frame and
// consumed frame by frame, as the server and the loader read. Every dir 1 and
// dir 3 body is decoded as a request, every dir 2 body as a response. Checks:
// scan outcomes agree with §5.2 (and never reach past the input), the decode
// error and every field agree with an independent model of the ZAP reader's
// rules (zap-transport.md §5.1, zap-wire.md §10), every view lies inside the
// envelope, a decoded envelope re-encodes (append_*_frame) to one that decodes
// to the same fields and is canonical (encoding it again is identity), and
// method_of never names a content type outside the table.
// Seeds: the rpc_* vectors framed, the repository's eth_call frames, all of them
// in one stream (written at build time by zap_seed_corpus --rpc-frames).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

#include "support/exact.hpp"
#include "wire/zap_rpc.hpp"

namespace {

namespace zr = wire::zaprpc;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

// ---- the model: the reader's rules restated from the spec, not the codec --------

zr::EnvelopeError model_error(zap::Bytes m) {
  if (m.size() < 16) return zr::EnvelopeError::bad_message;
  if (m[0] != 'Z' || m[1] != 'A' || m[2] != 'P' || m[3] != 0) return zr::EnvelopeError::bad_message;
  const unsigned version = m[4] | unsigned{m[5]} << 8;
  if (version != 1 && version != 2) return zr::EnvelopeError::bad_message;
  const std::uint32_t size = le32(m.data() + 12);
  if (size < 16 || size > m.size()) return zr::EnvelopeError::bad_message;
  const std::uint32_t root = le32(m.data() + 8);
  if (root < 16 || root >= size) return zr::EnvelopeError::bad_root;
  return zr::EnvelopeError::ok;
}

// A u32 field: 0 when it passes the size.
std::uint32_t model_u32(zap::Bytes m, std::uint32_t field) {
  const std::uint64_t at = std::uint64_t{le32(m.data() + 8)} + field;
  return at + 4 > le32(m.data() + 12) ? 0 : le32(m.data() + at);
}

// A bytes slot: null unless both words lie within the size, rel != 0, and the
// target [slot + rel, + len) lies in [16, size) — rel is unsigned (forward only).
struct Slot {
  bool null = true;
  std::uint64_t at = 0;
  std::uint32_t len = 0;
};
Slot model_slot(zap::Bytes m, std::uint32_t field) {
  const std::uint64_t size = le32(m.data() + 12);
  const std::uint64_t pos = std::uint64_t{le32(m.data() + 8)} + field;
  if (pos + 8 > size) return {};
  const std::uint32_t rel = le32(m.data() + pos);
  const std::uint32_t len = le32(m.data() + pos + 4);
  if (rel == 0) return {};
  const std::uint64_t abs = pos + rel;
  if (abs < 16 || abs + len > size) return {};
  return {false, abs, len};
}

// The view is the slot the model resolves, and lies inside the envelope's size.
void check_slot(zap::Bytes m, zap::Bytes got, std::uint32_t field) {
  const Slot want = model_slot(m, field);
  check((got.data() == nullptr) == want.null);
  if (want.null) {
    check(got.empty());
    return;
  }
  check(got.data() == m.data() + want.at && got.size() == want.len);
  const std::uint32_t size = le32(m.data() + 12);
  check(got.data() >= m.data() + 16 && got.data() + got.size() <= m.data() + size);
}

bool same(zap::Bytes a, zap::Bytes b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

// method_of names an op and a content type of the table, and the ordinal is
// the one method_ordinal gives back for them.
void check_method(std::uint32_t ordinal) {
  const zr::Method m = zr::method_of(ordinal);
  if (!m.known) {
    check(m.content_type.empty());
    return;
  }
  if (m.op == zr::Op::health) {
    check(ordinal == 0 && m.content_type.empty());
    return;
  }
  check(m.op == zr::Op::eth_call || m.op == zr::Op::eth_get_logs);
  const int body = zr::body_code(m.content_type);
  check(body >= 0 && static_cast<std::size_t>(body) < zr::kBodyContentTypes.size());
  check(zr::kBodyContentTypes[static_cast<std::size_t>(body)] == m.content_type);
  check(zr::method_ordinal(m.op, static_cast<std::size_t>(body)) == ordinal);
}

// Reused across inputs, as a connection reuses its output buffer.
net::Buffer g_out(256);

// Encodes into g_out and returns the frame's body (the envelope), checking the frame.
std::vector<std::uint8_t> reencoded(zr::Dir dir) {
  const zr::FrameScan s = zr::scan_frame(g_out.readable());
  check(s.status == zr::FrameScan::Status::complete && s.frame_bytes() == g_out.size());
  check(s.dir == static_cast<std::uint8_t>(dir));
  const zap::Bytes body = zr::frame_body(g_out.readable(), s);
  std::vector<std::uint8_t> out(body.begin(), body.end());
  g_out.clear();
  return out;
}

void request(zap::Bytes m) {
  zr::Request r;
  const zr::EnvelopeError e = zr::decode_request(m, r);
  check(e == model_error(m));
  if (e != zr::EnvelopeError::ok) return;
  check(r.method == model_u32(m, zr::RequestLayout::method));
  check(r.promise == model_u32(m, zr::RequestLayout::promise));
  check(r.target == model_u32(m, zr::RequestLayout::target));
  check_slot(m, r.cap, zr::RequestLayout::cap);
  check_slot(m, r.payload, zr::RequestLayout::payload);
  check_method(r.method);

  // Re-encode what was decoded (an empty slot, null or not, is written null).
  // Cap and Payload may overlap, so their sum can pass the frame limit: refused, nothing written.
  if (zr::request_envelope_bytes(r.cap.size(), r.payload.size()) + 1 > zr::kMaxFrameBytes) {
    check(!zr::append_request_frame(g_out, r) && g_out.empty());
    return;
  }
  check(zr::append_request_frame(g_out, r));
  const std::vector<std::uint8_t> again = reencoded(zr::Dir::request);
  check(again.size() == zr::request_envelope_bytes(r.cap.size(), r.payload.size()));
  zr::Request w;
  check(zr::decode_request(again, w) == zr::EnvelopeError::ok);
  check(w.method == r.method && w.promise == r.promise && w.target == r.target);
  check(same(w.cap, r.cap) && same(w.payload, r.payload));
  check((w.cap.data() == nullptr) == r.cap.empty() && (w.payload.data() == nullptr) == r.payload.empty());
  // The encoder's output is canonical.
  check(zr::append_request_frame(g_out, w));
  check(reencoded(zr::Dir::request) == again);
  // patch_promise on the frame changes the PromiseID only.
  check(zr::append_request_frame(g_out, w));
  auto* frame = const_cast<std::uint8_t*>(g_out.readable().data());
  zr::patch_promise(frame, ~w.promise);
  const std::vector<std::uint8_t> patched = reencoded(zr::Dir::request);
  zr::Request p;
  check(zr::decode_request(patched, p) == zr::EnvelopeError::ok);
  check(p.promise == ~w.promise && p.method == w.method && p.target == w.target &&
        same(p.payload, w.payload));
}

void response(zap::Bytes m) {
  zr::Response r;
  const zr::EnvelopeError e = zr::decode_response(m, r);
  check(e == model_error(m));
  if (e != zr::EnvelopeError::ok) return;
  check(r.status == model_u32(m, zr::ResponseLayout::status));
  check(r.promise == model_u32(m, zr::ResponseLayout::promise));
  check_slot(m, r.body, zr::ResponseLayout::body);

  check(zr::append_response_frame(g_out, r));
  const std::vector<std::uint8_t> again = reencoded(zr::Dir::response);
  check(again.size() == zr::response_envelope_bytes(r.body.size()));
  check(le32(again.data() + 16 + 8) == 0);  // the unused word
  zr::Response w;
  check(zr::decode_response(again, w) == zr::EnvelopeError::ok);
  check(w.status == r.status && w.promise == r.promise && same(w.body, r.body));
  check((w.body.data() == nullptr) == r.body.empty());
  check(zr::append_response_frame(g_out, w));
  check(reencoded(zr::Dir::response) == again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> rest{data, size};
  for (;;) {
    const zr::FrameScan s = zr::scan_frame(rest);
    if (s.status == zr::FrameScan::Status::bad_length) {
      check(rest.size() >= 4 && s.length == le32(rest.data()));
      check(s.length == 0 || s.length > zr::kMaxFrameBytes);
      break;
    }
    if (s.status == zr::FrameScan::Status::need_more) {
      check(rest.size() < 4 ? s.length == 0 : (s.length == le32(rest.data()) && rest.size() - 4 < s.length));
      break;
    }
    check(s.length >= 1 && s.length <= zr::kMaxFrameBytes && s.length == le32(rest.data()));
    check(rest.size() >= s.frame_bytes() && s.dir == rest[4]);
    // A tighter limit refuses the same frame, a looser one takes it (the limit is the caller's).
    check(zr::scan_frame(rest, s.length - 1).status == zr::FrameScan::Status::bad_length);
    check(zr::scan_frame(rest, s.length).status == zr::FrameScan::Status::complete);
    const zap::Bytes body = zr::frame_body(rest, s);
    check(body.data() == rest.data() + 5 && body.size() == s.length - 1);
    // The body alone in an exact-size block: ASan sees a read past it.
    const zaptest::Exact exact(body);
    if (s.dir == static_cast<std::uint8_t>(zr::Dir::request) ||
        s.dir == static_cast<std::uint8_t>(zr::Dir::stream_open)) {
      request(exact.view());
    } else if (s.dir == static_cast<std::uint8_t>(zr::Dir::response)) {
      response(exact.view());
    }
    rest = rest.subspan(s.frame_bytes());
  }
  return 0;
}
