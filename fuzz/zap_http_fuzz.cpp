// fuzz/zap_http_fuzz.cpp — libFuzzer target for wire/zap_http.hpp (wire A): the
// input is a connection's byte stream, cut into frames by scan_frame; every
// complete frame goes through decode_request and decode_response. Checks: the
// error matches an independent model of §2.1, every view lies inside the
// message, header walks agree with count(), and a decoded frame re-encodes to
// the same fields (and the encoder is idempotent on its own output).
// Seeds: fuzz/zap_http_seeds/ (the §3.8 golden frames, prefixed, and all seven
// pipelined in one stream).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "wire/zap_http.hpp"

namespace {

namespace zh = wire::zaphttp;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// The message in a heap block of exactly its size, so ASan sees any read past
// it (the libFuzzer input as a whole is larger: later frames follow).
struct Exact {
  explicit Exact(zap::Bytes b) : p(new std::uint8_t[b.size()]), n(b.size()) {
    std::memcpy(p.get(), b.data(), n);
  }
  zap::Bytes view() const { return {p.get(), n}; }
  std::unique_ptr<std::uint8_t[]> p;
  std::size_t n;
};

std::uint32_t le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

// §2.1 restated from the spec, independently of the codec: what decoding a
// message must report before the header blocks are looked at.
zh::FrameError model_error(zap::Bytes m, bool request) {
  if (m.size() < 16) return zh::FrameError::bad_message;
  if (m[0] != 'Z' || m[1] != 'A' || m[2] != 'P' || m[3] != 0) return zh::FrameError::bad_message;
  const unsigned version = m[4] | unsigned{m[5]} << 8;
  if (version != 1 && version != 2) return zh::FrameError::bad_message;
  const std::uint32_t size = le32(m.data() + 12);
  if (size < 16 || size > m.size()) return zh::FrameError::bad_message;
  const unsigned type = m[7];
  if (request ? type != 1 : (type != 2 && type != 3)) return zh::FrameError::wrong_type;
  const std::uint32_t root = le32(m.data() + 8);
  if (root < 16 || root >= size) return zh::FrameError::bad_root;
  return zh::FrameError::ok;
}

struct Span {
  const std::uint8_t* lo;
  const std::uint8_t* hi;
  bool holds(const void* p, std::size_t n) const {
    const auto* b = static_cast<const std::uint8_t*>(p);
    return n == 0 || (b >= lo && b <= hi && n <= static_cast<std::size_t>(hi - b));
  }
};

volatile std::uint8_t g_sink;

void touch(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  std::uint8_t x = 0;
  for (std::size_t i = 0; i < n; ++i) x = static_cast<std::uint8_t>(x ^ b[i]);
  g_sink = x;
}

// Walks a block: views inside the message, as many pairs as count(), and
// find() agrees with the walk. Returns the pairs (for re-encoding).
std::vector<zh::Header> walk(const zh::HeaderBlock& h, Span msg) {
  std::vector<zh::Header> pairs;
  check(h.valid());
  check(msg.holds(h.bytes().data(), h.bytes().size()));
  const Span block{h.bytes().data(), h.bytes().data() + h.bytes().size()};
  check(h.for_each([&](std::string_view n, std::string_view v) {
    check(block.holds(n.data(), n.size()) && block.holds(v.data(), v.size()));
    touch(n.data(), n.size());
    touch(v.data(), v.size());
    pairs.push_back({n, v});
  }));
  check(pairs.size() == h.count());
  if (!pairs.empty()) {
    const auto found = h.find(pairs.back().name);
    check(found.has_value());
    check(zh::iequals(pairs.back().name, pairs.back().name));
  }
  return pairs;
}

bool same_pairs(const zh::HeaderBlock& h, const std::vector<zh::Header>& want) {
  std::size_t i = 0;
  bool same = h.for_each([&](std::string_view n, std::string_view v) {
    if (i >= want.size() || n != want[i].name || v != want[i].value) return false;
    ++i;
    return true;
  });
  return same && i == want.size();
}

std::string_view sv(zap::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// Reused across inputs, as a connection reuses them.
zh::RequestEncoder g_req_enc;
zh::ResponseEncoder g_resp_enc;

// Encodes spec into a fresh buffer and returns the message bytes (no prefix).
template <class Enc, class Spec>
std::vector<std::uint8_t> encode(Enc& enc, const Spec& spec) {
  net::Buffer out(64);
  check(enc.append_frame(spec, out));
  const zh::FrameScan s = zh::scan_frame(out.readable());
  check(s.status == zh::FrameScan::Status::complete && s.message_bytes + 4 == out.size());
  const zap::Bytes m = zh::frame_message(out.readable(), s);
  return {m.begin(), m.end()};
}

void request(zap::Bytes message) {
  zh::RequestView v;
  const zh::FrameError e = zh::decode_request(message, v);
  const zh::FrameError model = model_error(message, true);
  if (model != zh::FrameError::ok) {
    check(e == model);
    return;
  }
  check(e == zh::FrameError::ok || e == zh::FrameError::truncated_header_block);
  if (e != zh::FrameError::ok) {
    check(!v.headers.valid() || !v.trailer.valid());
    return;
  }
  const Span msg{message.data(), message.data() + le32(message.data() + 12)};
  check(!v.method.empty());
  check(v.method == zh::kDefaultMethod || msg.holds(v.method.data(), v.method.size()));
  check(msg.holds(v.target.data(), v.target.size()));
  check(msg.holds(v.proto.data(), v.proto.size()));
  check(msg.holds(v.body.data(), v.body.size()));
  touch(v.body.data(), v.body.size());
  const std::vector<zh::Header> headers = walk(v.headers, msg);
  const std::vector<zh::Header> trailer = walk(v.trailer, msg);

  // Re-encode what was decoded: the same fields come back.
  const zh::RequestSpec spec{v.method, v.target, v.proto, headers, v.body, trailer};
  const std::vector<std::uint8_t> again = encode(g_req_enc, spec);
  zh::RequestView w;
  check(zh::decode_request(again, w) == zh::FrameError::ok);
  check(w.method == v.method && w.target == v.target && sv(w.body) == sv(v.body));
  check(w.proto == (v.proto.empty() ? zh::kDefaultProto : v.proto));
  check(same_pairs(w.headers, headers) && same_pairs(w.trailer, trailer));
  // The encoder's output is canonical: encoding its decode again is identity.
  std::vector<zh::Header> h2;
  std::vector<zh::Header> t2;
  w.headers.for_each([&](std::string_view n, std::string_view val) { h2.push_back({n, val}); });
  w.trailer.for_each([&](std::string_view n, std::string_view val) { t2.push_back({n, val}); });
  const std::vector<std::uint8_t> third =
      encode(g_req_enc, zh::RequestSpec{w.method, w.target, w.proto, h2, w.body, t2});
  check(third == again);
}

void response(zap::Bytes message) {
  zh::ResponseView v;
  const zh::FrameError e = zh::decode_response(message, v);
  const zh::FrameError model = model_error(message, false);
  if (model != zh::FrameError::ok) {
    check(e == model);
    return;
  }
  const bool head = message[7] == 3;
  if (e == zh::FrameError::truncated_header_block) {
    check(!v.headers.valid() || !v.trailer.valid());
    return;
  }
  check(e == (head ? zh::FrameError::stream_head : zh::FrameError::ok));
  check(v.type == (head ? zh::MsgType::stream_head : zh::MsgType::response));
  const Span msg{message.data(), message.data() + le32(message.data() + 12)};
  check(msg.holds(v.reason.data(), v.reason.size()));
  check(msg.holds(v.proto.data(), v.proto.size()));
  check(msg.holds(v.body.data(), v.body.size()));
  touch(v.body.data(), v.body.size());
  const std::vector<zh::Header> headers = walk(v.headers, msg);
  const std::vector<zh::Header> trailer = walk(v.trailer, msg);

  zh::ResponseSpec spec;
  spec.status = v.status;
  spec.reason = v.reason;
  spec.proto = v.proto;
  spec.headers = headers;
  spec.body = v.body;
  spec.trailer = trailer;
  spec.type = v.type;
  const std::vector<std::uint8_t> again = encode(g_resp_enc, spec);
  zh::ResponseView w;
  check(zh::decode_response(again, w) == (head ? zh::FrameError::stream_head : zh::FrameError::ok));
  const std::uint16_t status = v.status == 0 ? 200 : v.status;
  check(w.status == status && w.type == v.type && sv(w.body) == sv(v.body));
  check(w.reason == (v.reason.empty() ? zh::reason_phrase(status) : v.reason));
  check(w.proto == (v.proto.empty() ? zh::kDefaultProto : v.proto));
  check(same_pairs(w.headers, headers) && same_pairs(w.trailer, trailer));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::span<const std::uint8_t> rest{data, size};
  for (;;) {
    const zh::FrameScan s = zh::scan_frame(rest);
    if (s.status == zh::FrameScan::Status::bad_length) {
      check(rest.size() >= 4 && (s.message_bytes == 0 || s.message_bytes > zh::kMaxFrameBytes));
      break;
    }
    if (s.status == zh::FrameScan::Status::need_more) {
      check(rest.size() < 4 ? s.message_bytes == 0 : rest.size() - 4 < s.message_bytes);
      break;
    }
    check(rest.size() >= 4 + std::size_t{s.message_bytes});
    const Exact message(zh::frame_message(rest, s));
    request(message.view());
    response(message.view());
    rest = rest.subspan(4 + std::size_t{s.message_bytes});
  }
  return 0;
}
