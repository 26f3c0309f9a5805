// fuzz/http2_fuzz.cpp — libFuzzer target for the server's HTTP/2 and gRPC
// glue (server/http2_wire.cpp, docs/spec/http2-grpc.md): the input is what a
// client sends after the connection preface (the target prepends it, so the
// fuzzer explores frames, HPACK, bodies and gRPC messages, not the magic).
// The bytes go through the very code a worker runs — Http2Wire::open, then
// answer_ready<Http2Wire> on a Conn's in-memory buffers, `out` drained between
// calls as a client reading would, then Http2Wire::close — with
// nghttp2 on the thread's MemPool. Checks, besides ASan/UBSan/leaks:
// answer_ready takes all input unless it holds or closes; the output is whole,
// well-formed HTTP/2 frames (RFC 9113 §4.1, §6: lengths, stream ids and
// flags per type; the server's first frame is its SETTINGS; PINGs only as
// ACKs; header blocks decode with an independent HPACK inflater, :status
// three digits, grpc-status digits); and every stream the server opened was
// given back (no Stream left on the session at close is checked by LSan).
// Seeds: request streams written at build time by http2_seeds (an nghttp2
// client session): /health, /rpc and /logs with bodies, gRPC calls, a mix.
#include <nghttp2/nghttp2.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "record/registry.hpp"
#include "server/request_path.hpp"

namespace {

void check(bool ok) {
  if (!ok) __builtin_trap();
}

constexpr std::string_view kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
constexpr std::size_t kMaxFrameBytes =
    16384;  // SETTINGS_MAX_FRAME_SIZE's default: the server's frames fit it

// One worker's context, made once (as a worker's is, for all its connections).
server::Context& context() {
  static server::Config config = [] {
    server::Config c;
    c.json = &record::default_json_codec();
    c.limits.max_body_bytes = 64 * 1024;  // small enough for the fuzzer to pass it
    return c;
  }();
  static server::Context x(config);
  return x;
}

bool digits(std::string_view v, std::size_t min, std::size_t max) {
  if (v.size() < min || v.size() > max) return false;
  for (const char ch : v)
    if (ch < '0' || ch > '9') return false;
  return true;
}

// The server's output, frame by frame, across the drains of `out`.
class FrameChecker {
 public:
  FrameChecker() { check(nghttp2_hd_inflate_new(&inflater_) == 0); }
  ~FrameChecker() { nghttp2_hd_inflate_del(inflater_); }
  FrameChecker(const FrameChecker&) = delete;
  FrameChecker& operator=(const FrameChecker&) = delete;

  void feed(std::span<const std::uint8_t> bytes) {
    pending_.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    std::size_t at = 0;
    while (pending_.size() - at >= 9) {
      const auto* h = reinterpret_cast<const std::uint8_t*>(pending_.data() + at);
      const std::size_t length = std::size_t{h[0]} << 16 | std::size_t{h[1]} << 8 | h[2];
      if (pending_.size() - at < 9 + length) break;
      const std::uint32_t stream =
          std::uint32_t{h[5]} << 24 | std::uint32_t{h[6]} << 16 | std::uint32_t{h[7]} << 8 | h[8];
      frame(h[3], h[4], stream, std::string_view(pending_).substr(at + 9, length));
      at += 9 + length;
    }
    pending_.erase(0, at);
  }
  // At the end: no partial frame, no header block left open.
  void finish() const {
    check(pending_.empty());
    check(block_stream_ == 0);
  }

 private:
  void frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
    check((stream & 0x80000000u) == 0);  // the reserved bit
    check(payload.size() <= kMaxFrameBytes);
    if (frames_++ == 0) check(type == NGHTTP2_SETTINGS && (flags & NGHTTP2_FLAG_ACK) == 0);
    // A header block is continued by CONTINUATIONs of its stream and nothing else.
    check((block_stream_ != 0) == (type == NGHTTP2_CONTINUATION));
    switch (type) {
      case NGHTTP2_DATA:
        check(stream != 0 && stream % 2 == 1);           // streams are the client's (odd): no push
        check((flags & ~NGHTTP2_FLAG_END_STREAM) == 0);  // never padded
        break;
      case NGHTTP2_HEADERS:
        check(stream != 0 && stream % 2 == 1);
        check((flags & ~(NGHTTP2_FLAG_END_STREAM | NGHTTP2_FLAG_END_HEADERS)) == 0);
        block_.assign(payload);
        block_stream_ = stream;
        if (flags & NGHTTP2_FLAG_END_HEADERS) end_block();
        break;
      case NGHTTP2_CONTINUATION:
        check(stream == block_stream_);
        check((flags & ~NGHTTP2_FLAG_END_HEADERS) == 0);
        block_.append(payload);
        if (flags & NGHTTP2_FLAG_END_HEADERS) end_block();
        break;
      case NGHTTP2_RST_STREAM:
        check(stream != 0 && payload.size() == 4);
        break;
      case NGHTTP2_SETTINGS:
        check(stream == 0);
        check((flags & NGHTTP2_FLAG_ACK) ? payload.empty() : payload.size() % 6 == 0);
        break;
      case NGHTTP2_PING:
        check(stream == 0 && payload.size() == 8 &&
              flags == NGHTTP2_FLAG_ACK);  // the server only answers PINGs
        break;
      case NGHTTP2_GOAWAY:
        check(stream == 0 && payload.size() >= 8);
        break;
      case NGHTTP2_WINDOW_UPDATE: {
        check(payload.size() == 4);
        const auto* p = reinterpret_cast<const std::uint8_t*>(payload.data());
        const std::uint32_t increment =
            (std::uint32_t{p[0]} << 24 | std::uint32_t{p[1]} << 16 | std::uint32_t{p[2]} << 8 | p[3]) &
            0x7fffffffu;
        check(increment != 0);
        break;
      }
      default:
        check(false);  // PRIORITY, PUSH_PROMISE or an unknown type: the server sends none
    }
  }
  // A whole header block: it decodes (the server's deflater and an
  // independent inflater agree), and the values zapbench writes are well-formed.
  void end_block() {
    const auto* in = reinterpret_cast<const std::uint8_t*>(block_.data());
    std::size_t left = block_.size();
    for (;;) {
      nghttp2_nv nv;
      int flags = 0;
      const ssize_t n = nghttp2_hd_inflate_hd2(inflater_, &nv, &flags, in, left, 1);
      check(n >= 0);
      in += n;
      left -= static_cast<std::size_t>(n);
      if (flags & NGHTTP2_HD_INFLATE_EMIT) {
        const std::string_view name(reinterpret_cast<const char*>(nv.name), nv.namelen),
            value(reinterpret_cast<const char*>(nv.value), nv.valuelen);
        if (name == ":status") check(digits(value, 3, 3));
        if (name == "grpc-status") check(digits(value, 1, 2));
        if (name == "content-length") check(digits(value, 1, 20));
      }
      if (flags & NGHTTP2_HD_INFLATE_FINAL) {
        nghttp2_hd_inflate_end_headers(inflater_);
        break;
      }
      check(n > 0 || left > 0);  // no progress and no end: the block was cut short
    }
    block_stream_ = 0;
    block_.clear();
  }

  nghttp2_hd_inflater* inflater_ = nullptr;
  std::string pending_, block_;
  std::uint32_t block_stream_ = 0;
  std::size_t frames_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  server::Context& x = context();
  server::Conn c(matrix::Framing::http2);
  check(server::Http2Wire::open(x, c));
  FrameChecker out;
  c.in.append(reinterpret_cast<const std::uint8_t*>(kPreface.data()), kPreface.size());
  c.in.append(data, size);
  // As the worker: answer, drain `out` (a client that reads everything), again while held.
  for (int round = 0; round < 100'000; ++round) {
    server::answer_ready<server::Http2Wire>(x, c, 1);
    out.feed(c.out.readable());
    c.out.clear();
    if (c.closing) break;
    if (!c.held) {
      // Not held and not closing: every byte read was taken but the start of
      // a frame the wire waits to see whole before nghttp2 does (a frame
      // head, 9 bytes, or a PRIORITY frame, 14: server/http2_wire.cpp next_run).
      check(c.in.size() < 9 + 5);
      break;
    }
  }
  out.finish();
  server::Http2Wire::close(x, c);
  // HTTP2_FUZZ_VERBOSE=1: what the inputs so far were answered with (to see that a seed reaches the routes).
  static const bool verbose = std::getenv("HTTP2_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    const server::Counters& n = x.counters;
    std::fprintf(
        stderr, "http2_fuzz: so far ok %llu, 404 %llu, 405 %llu, 415 %llu, 400 %llu, 500 %llu\n",
        static_cast<unsigned long long>(n.outcomes[0]), static_cast<unsigned long long>(n.outcomes[1]),
        static_cast<unsigned long long>(n.outcomes[2]), static_cast<unsigned long long>(n.outcomes[3]),
        static_cast<unsigned long long>(n.outcomes[4]), static_cast<unsigned long long>(n.outcomes[5]));
  }
  return 0;
}
