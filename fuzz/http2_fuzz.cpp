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
// And the answers to what the client's frames break (RFC 9113; what h2spec
// checks, docs/spec/http2-grpc.md §3), read from the input by a frame walk of
// its own (ClientWalk): the server never ends the connection in silence (it
// closes only after its GOAWAY, or the client's); a GOAWAY with an error code
// is its last frame and the connection closes; error codes are RFC 9113 §7's;
// a GOAWAY's last stream is one the client opened. A connection error is
// answered (the connection ends) for DATA on a stream never opened, HEADERS
// on stream 0 or an even one or below a stream already opened (§5.1.1),
// PRIORITY on stream 0 or on its own stream (§6.3, §5.3.1), a header block
// interrupted or a CONTINUATION without one (§6.10), RST_STREAM on stream 0,
// on an idle stream or not 4 bytes long (§6.4); DATA or HEADERS on a stream
// the client ended or reset is answered with a connection error or a
// RST_STREAM of that stream (§5.1: STREAM_CLOSED, or ignored once the server
// reset it). And the codes: STREAM_CLOSED only for such a frame,
// ENHANCE_YOUR_CALM only for a flood. (Stream ids are tracked up to 127,
// within the 64 recent streams the server remembers; past them, and after the
// client's GOAWAY, only the first three checks hold.)
// Seeds: request streams written at build time by http2_seeds (an nghttp2
// client session): /health, /rpc and /logs with bodies, gRPC calls, a mix;
// and raw frames after them for what h2spec found (frames on half-closed and
// closed streams, after a RST_STREAM, decreasing stream ids, PRIORITY edge
// cases, CONTINUATIONs, gRPC calls refused at their headers).
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "record/registry.hpp"
#include "server/request_path.hpp"
#include "wire/http2.hpp"

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

// RFC 9113 §7: NO_ERROR (0x0) to HTTP_1_1_REQUIRED (0xd).
constexpr std::uint32_t kLastErrorCode = NGHTTP2_HTTP_1_1_REQUIRED;

std::uint32_t u32_at(std::span<const std::uint8_t> p, std::size_t at) {
  return std::uint32_t{p[at]} << 24 | std::uint32_t{p[at + 1]} << 16 | std::uint32_t{p[at + 2]} << 8 |
         p[at + 3];
}
std::uint32_t u32_at(std::string_view p, std::size_t at) {
  return u32_at({reinterpret_cast<const std::uint8_t*>(p.data()), p.size()}, at);
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
  // The GOAWAY the server sent (its error code and last stream), if any.
  std::optional<std::uint32_t> goaway_code() const { return goaway_code_; }
  std::uint32_t goaway_last_stream() const { return goaway_last_stream_; }
  // Whether the server sent a RST_STREAM for `stream`.
  bool reset(std::uint32_t stream) const {
    for (const std::uint32_t s : resets_)
      if (s == stream) return true;
    return false;
  }

 private:
  void frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream, std::string_view payload) {
    check((stream & 0x80000000u) == 0);  // the reserved bit
    check(payload.size() <= kMaxFrameBytes);
    // A GOAWAY for an error is the last frame: the connection is closed after it (RFC 9113 §5.4.1).
    check(!goaway_code_.has_value() || *goaway_code_ == NGHTTP2_NO_ERROR);
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
        check(u32_at(payload, 0) <= kLastErrorCode);
        if (resets_.size() < 4096) resets_.push_back(stream);
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
        goaway_last_stream_ = u32_at(payload, 0) & 0x7fffffffu;
        goaway_code_ = u32_at(payload, 4);
        check(*goaway_code_ <= kLastErrorCode);
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
  std::optional<std::uint32_t> goaway_code_;
  std::uint32_t goaway_last_stream_ = 0;
  std::vector<std::uint32_t> resets_;
};

// The client's frames, walked from the input on their own (not through the
// wire): what RFC 9113 says the server must answer, as far as the client's
// bytes alone tell it.
struct ClientWalk {
  // Stream ids this walk follows: within the 64 recent client streams the
  // server remembers (http2_wire.cpp, Http2Session::opened) whatever the order.
  static constexpr std::uint32_t kTracked = 128;

  bool must_close = false;              // a frame the server must answer with a connection error
  std::vector<std::uint32_t> on_ended;  // DATA or HEADERS on a stream the client ended or reset
  // The walk followed the client's frames to the end, or to one that ends the
  // connection (not past the client's GOAWAY, ids all tracked); and whether
  // one of them, whole or cut short (nghttp2 judges a frame at its head),
  // was DATA or HEADERS on a stream the client ended or reset.
  bool followed = false, on_ended_head = false;
  bool flood = false;            // enough frames for one of the flood bounds
  bool client_goaway = false;    // the client sent a GOAWAY (the server may close without its own)
  std::uint32_t max_opened = 0;  // the highest stream a HEADERS frame opened

  explicit ClientWalk(std::span<const std::uint8_t> in) {
    std::vector<Frame> frames;
    bool small = true;
    std::size_t continuations = 0;  // CONTINUATION frames in a row
    for (std::size_t at = 0; in.size() - at >= 9;) {
      const std::uint8_t* h = in.data() + at;
      const std::size_t length = std::size_t{h[0]} << 16 | std::size_t{h[1]} << 8 | h[2];
      const std::uint32_t stream = u32_at(in.subspan(at + 5, 4), 0) & 0x7fffffffu;
      // A HEADERS frame opens its stream as its first bytes are read, whole or not.
      if (h[3] == NGHTTP2_HEADERS && (stream & 1) != 0) max_opened = std::max(max_opened, stream);
      small = small && stream < kTracked;
      // A SETTINGS frame announcing too many entries is refused at its head.
      if (h[3] == NGHTTP2_SETTINGS && length / 6 > wire::h2::kMaxSettingsEntries) flood = true;
      if (in.size() - at - 9 < length) {  // cut short: the rest is never read whole
        frames.push_back({h[3], h[4], stream, in.subspan(at + 9), false});
        break;
      }
      const Frame f{h[3], h[4], stream, in.subspan(at + 9, length), true};
      frames.push_back(f);
      // The other flood bounds: too many frames answered with an ACK or a
      // RST_STREAM queued at once, too many CONTINUATIONs of one header
      // block; each needs at least this much.
      continuations = f.type == NGHTTP2_CONTINUATION ? continuations + 1 : 0;
      if (continuations >= wire::h2::kMaxContinuations) flood = true;  // and the next frame's head
      if (f.type == NGHTTP2_GOAWAY) client_goaway = true;
      at += 9 + length;
    }
    if (frames.size() >= wire::h2::kMaxOutboundAcks) flood = true;
    if (small) {
      followed = true;
      walk(frames);
    }
  }

 private:
  struct Frame {
    std::uint8_t type, flags;
    std::uint32_t stream;
    std::span<const std::uint8_t> payload;
    bool whole;
  };
  enum : std::uint8_t { kOpened = 1, kEnded = 2, kReset = 4 };

  void walk(const std::vector<Frame>& frames) {
    std::uint8_t state[kTracked] = {};
    std::uint32_t highest = 0, block = 0;
    for (const Frame& f : frames) {
      if (f.type == NGHTTP2_GOAWAY) {  // past the client's GOAWAY, the server may stop reading
        followed = false;
        return;
      }
      const std::uint32_t id = f.stream;
      if (!f.whole) {  // its head only: what it may be answered with, not what it must
        if ((f.type == NGHTTP2_DATA || f.type == NGHTTP2_HEADERS) && block == 0 &&
            (state[id] & (kEnded | kReset)) != 0)
          on_ended_head = true;
        return;
      }
      if (block != 0) {  // a header block is open: only its CONTINUATIONs (§6.10)
        if (f.type != NGHTTP2_CONTINUATION || id != block) return close();
        if (f.flags & NGHTTP2_FLAG_END_HEADERS) block = 0;
        continue;
      }
      switch (f.type) {
        case NGHTTP2_CONTINUATION:
          return close();  // no header block open
        case NGHTTP2_HEADERS:
          if (id == 0 || id % 2 == 0) return close();  // §5.1.1: the client's streams are odd
          if ((state[id] & kOpened) == 0) {
            if (id < highest) return close();  // §5.1.1: below a stream already opened
            state[id] = kOpened;
            highest = id;
          } else if (state[id] & (kEnded | kReset)) {
            on_ended.push_back(id);  // §5.1: half-closed (remote) or closed
            on_ended_head = true;
          }
          if (f.flags & NGHTTP2_FLAG_END_STREAM) state[id] |= kEnded;
          if ((f.flags & NGHTTP2_FLAG_END_HEADERS) == 0) block = id;
          break;
        case NGHTTP2_DATA:
          if (id == 0 || (state[id] & kOpened) == 0) return close();  // §6.1, §5.1: idle or never opened
          if (state[id] & (kEnded | kReset)) {
            on_ended.push_back(id);
            on_ended_head = true;
          }
          if (f.flags & NGHTTP2_FLAG_END_STREAM) state[id] |= kEnded;
          break;
        case NGHTTP2_PRIORITY:
          if (f.payload.size() == 5 && (id == 0 || (u32_at(f.payload, 0) & 0x7fffffffu) == id))
            return close();  // §6.3, §5.3.1
          break;
        case NGHTTP2_RST_STREAM:
          if (id == 0 || f.payload.size() != 4) return close();  // §6.4
          if (id % 2 == 1 && id > highest) return close();       // §6.4: an idle stream
          if (state[id] & kOpened) state[id] |= kReset;
          break;
        default:
          break;
      }
    }
  }
  void close() { must_close = true; }
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
  // Held, closing or not, the worker answers on as `out` drains (server.cpp, flush).
  for (int round = 0; round < 100'000; ++round) {
    server::answer_ready<server::Http2Wire>(x, c, 1);
    out.feed(c.out.readable());
    c.out.clear();
    if (c.held) continue;
    // Not held and not closing: every byte read was taken but the start of
    // a frame the wire waits to see whole before nghttp2 does (a frame
    // head, 9 bytes, or a PRIORITY frame, 14: server/http2_wire.cpp next_run).
    if (!c.closing) check(c.in.size() < 9 + 5);
    break;
  }
  out.finish();
  // The answers to what the client's frames break.
  const ClientWalk walk({data, size});
  const std::optional<std::uint32_t> goaway = out.goaway_code();
  if (c.closing) check(goaway.has_value() || walk.client_goaway);  // never closed in silence
  if (goaway && *goaway != NGHTTP2_NO_ERROR) check(c.closing);
  if (goaway)
    check(out.goaway_last_stream() <= walk.max_opened &&
          (out.goaway_last_stream() % 2 == 1 || out.goaway_last_stream() == 0));
  if (goaway == std::uint32_t{NGHTTP2_STREAM_CLOSED} && walk.followed) check(walk.on_ended_head);
  if (goaway == std::uint32_t{NGHTTP2_ENHANCE_YOUR_CALM}) check(walk.flood);
  if (!walk.client_goaway) {
    if (walk.must_close) check(c.closing);
    for (const std::uint32_t id : walk.on_ended) check(c.closing || out.reset(id));
  }
  server::Http2Wire::close(x, c);
  // HTTP2_FUZZ_VERBOSE=1: what the inputs so far were answered with (to see that a seed reaches the routes),
  // and how this one's connection ended.
  static const bool verbose = std::getenv("HTTP2_FUZZ_VERBOSE") != nullptr;
  if (verbose) {
    std::fprintf(stderr,
                 "http2_fuzz: %s, GOAWAY %s (client GOAWAY %d, must close %d, on ended streams %zu)\n",
                 c.closing ? "closed" : "open", goaway ? std::to_string(*goaway).c_str() : "none",
                 walk.client_goaway, walk.must_close, walk.on_ended.size());
    const server::Counters& n = x.counters;
    std::fprintf(
        stderr, "http2_fuzz: so far ok %llu, 404 %llu, 405 %llu, 415 %llu, 400 %llu, 500 %llu\n",
        static_cast<unsigned long long>(n.outcomes[0]), static_cast<unsigned long long>(n.outcomes[1]),
        static_cast<unsigned long long>(n.outcomes[2]), static_cast<unsigned long long>(n.outcomes[3]),
        static_cast<unsigned long long>(n.outcomes[4]), static_cast<unsigned long long>(n.outcomes[5]));
  }
  return 0;
}
