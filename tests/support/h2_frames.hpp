// tests/support/h2_frames.hpp — raw HTTP/2 frames written by hand, for the
// hostile tests: a frame header (RFC 9113 §4.1) and the frames a hostile peer
// sends (SETTINGS, PING, HEADERS, CONTINUATION, RST_STREAM, DATA,
// WINDOW_UPDATE, PRIORITY), header blocks in HPACK's "literal without indexing, new
// name" form (RFC 7541 §6.2.2: no table state, so a block means exactly what
// the test wrote), and H2Raw: a loopback socket that sends such bytes and
// reads the server's frames back whole, decoding its header blocks with
// nghttp2's HPACK inflater (the server's answers use the dynamic table).
// Unlike support/h2_client.hpp (an nghttp2 session, which would refuse to
// send most of these), nothing here checks or fixes what a test sends.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/await.hpp"

namespace zaptest::h2 {

inline constexpr std::string_view kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
inline constexpr std::size_t kFrameHeaderBytes = 9;

enum Type : std::uint8_t {
  kData = 0,
  kHeaders = 1,
  kPriority = 2,
  kRstStream = 3,
  kSettings = 4,
  kPushPromise = 5,
  kPing = 6,
  kGoaway = 7,
  kWindowUpdate = 8,
  kContinuation = 9,
};
enum Flag : std::uint8_t {
  kEndStream = 0x1,  // DATA, HEADERS
  kAck = 0x1,        // SETTINGS, PING
  kEndHeaders = 0x4,
  kPadded = 0x8,
  kPriorityFlag = 0x20,
};

inline void put_u32(std::string& out, std::uint32_t v) {
  out += static_cast<char>(v >> 24);
  out += static_cast<char>(v >> 16);
  out += static_cast<char>(v >> 8);
  out += static_cast<char>(v);
}

// One frame: the 9-byte header (length, type, flags, stream id) and the payload.
inline std::string frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream,
                         std::string_view payload) {
  std::string out;
  out.reserve(kFrameHeaderBytes + payload.size());
  const auto n = static_cast<std::uint32_t>(payload.size());
  out += static_cast<char>(n >> 16);
  out += static_cast<char>(n >> 8);
  out += static_cast<char>(n);
  out += static_cast<char>(type);
  out += static_cast<char>(flags);
  put_u32(out, stream & 0x7fffffffu);
  out.append(payload);
  return out;
}

inline std::string settings(std::initializer_list<std::pair<std::uint16_t, std::uint32_t>> entries = {}) {
  std::string p;
  for (const auto& [id, value] : entries) {
    p += static_cast<char>(id >> 8);
    p += static_cast<char>(id);
    put_u32(p, value);
  }
  return frame(kSettings, 0, 0, p);
}
inline std::string settings_ack() { return frame(kSettings, kAck, 0, {}); }
inline std::string ping(std::uint64_t opaque) {
  std::string p;
  put_u32(p, static_cast<std::uint32_t>(opaque >> 32));
  put_u32(p, static_cast<std::uint32_t>(opaque));
  return frame(kPing, 0, 0, p);
}
inline std::string headers(std::uint32_t stream, std::string_view block, bool end_stream,
                           bool end_headers = true) {
  return frame(kHeaders,
               static_cast<std::uint8_t>((end_stream ? kEndStream : 0) | (end_headers ? kEndHeaders : 0)),
               stream, block);
}
inline std::string continuation(std::uint32_t stream, std::string_view block, bool end_headers) {
  return frame(kContinuation, end_headers ? kEndHeaders : 0, stream, block);
}
inline std::string rst_stream(std::uint32_t stream, std::uint32_t code) {
  std::string p;
  put_u32(p, code);
  return frame(kRstStream, 0, stream, p);
}
inline std::string data(std::uint32_t stream, std::string_view bytes, bool end_stream) {
  return frame(kData, end_stream ? kEndStream : 0, stream, bytes);
}
// PRIORITY (RFC 9113 §6.3): the stream it depends on, exclusive flag clear, weight 16.
inline std::string priority(std::uint32_t stream, std::uint32_t depends_on) {
  std::string p;
  put_u32(p, depends_on & 0x7fffffffu);
  p += static_cast<char>(15);
  return frame(kPriority, 0, stream, p);
}
inline std::string window_update(std::uint32_t stream, std::uint32_t increment) {
  std::string p;
  put_u32(p, increment & 0x7fffffffu);
  return frame(kWindowUpdate, 0, stream, p);
}

// ---- HPACK, literal without indexing (RFC 7541 §5.1, §6.2.2) ----

// An integer with an N-bit prefix; `first` holds the bits above the prefix.
inline void hpack_int(std::string& out, std::uint8_t first, int prefix_bits, std::uint64_t v) {
  const std::uint64_t max = (1u << prefix_bits) - 1;
  if (v < max) {
    out += static_cast<char>(first | v);
    return;
  }
  out += static_cast<char>(first | max);
  v -= max;
  while (v >= 128) {
    out += static_cast<char>(0x80 | (v & 0x7f));
    v >>= 7;
  }
  out += static_cast<char>(v);
}
// One field: 0x00, the name as a string literal (no Huffman), the value likewise.
inline std::string hpack_literal(std::string_view name, std::string_view value) {
  std::string out(1, '\0');
  hpack_int(out, 0, 7, name.size());
  out.append(name);
  hpack_int(out, 0, 7, value.size());
  out.append(value);
  return out;
}
// A request's header block: the four pseudo-headers, content-type if any
// (a gRPC one with `te: trailers`, as gRPC clients send it), then `more`.
inline std::string request_block(std::string_view method, std::string_view path,
                                 std::string_view content_type = {},
                                 const std::vector<std::pair<std::string, std::string>>& more = {}) {
  std::string b = hpack_literal(":method", method) + hpack_literal(":scheme", "http") +
                  hpack_literal(":authority", "127.0.0.1") + hpack_literal(":path", path);
  if (!content_type.empty()) b += hpack_literal("content-type", content_type);
  if (content_type.starts_with("application/grpc")) b += hpack_literal("te", "trailers");
  for (const auto& [n, v] : more) b += hpack_literal(n, v);
  return b;
}
// The same request in as few bytes as HPACK allows without table state:
// :method GET and :scheme http from the static table (indexed), :authority
// and :path as literals with static-table names (RFC 7541 §6.1, §6.2.2).
// A never-reader's requests are then about as large as their answers.
inline std::string small_get_block(std::string_view path) {
  std::string b = "\x82\x86";  // :method GET, :scheme http
  hpack_int(b, 0, 4, 1);       // :authority (static index 1), literal value
  hpack_int(b, 0, 7, 1);
  b += 't';
  hpack_int(b, 0, 4, 4);  // :path (static index 4), literal value
  hpack_int(b, 0, 7, path.size());
  b.append(path);
  return b;
}
// The client's start: the preface and an empty SETTINGS (every setting at its default).
inline std::string client_start() { return std::string(kPreface) + settings(); }

// ---- reading the server's frames ----

struct Frame {
  std::uint8_t type = 0, flags = 0;
  std::uint32_t stream = 0;
  std::string payload;
  std::uint32_t u32_at(std::size_t at) const {
    const auto* p = reinterpret_cast<const std::uint8_t*>(payload.data()) + at;
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
  }
};

// What the server sent on one stream, as far as read.
struct StreamAnswer {
  std::map<std::string, std::string> fields;  // of every header block (response headers and trailers)
  std::string body;
  bool ended = false;                     // END_STREAM seen
  std::optional<std::uint32_t> rst_code;  // RST_STREAM's error code
  std::string field(const std::string& n) const {
    const auto it = fields.find(n);
    return it == fields.end() ? std::string() : it->second;
  }
};

class H2Raw {
 public:
  explicit H2Raw(std::uint16_t port, int rcvbuf_bytes = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (rcvbuf_bytes > 0) setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf_bytes, sizeof rcvbuf_bytes);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    nghttp2_hd_inflate_new(&inflater_);
  }
  ~H2Raw() {
    nghttp2_hd_inflate_del(inflater_);
    if (fd_ >= 0) ::close(fd_);
  }
  H2Raw(const H2Raw&) = delete;
  H2Raw& operator=(const H2Raw&) = delete;

  bool connected() const { return connected_; }
  int fd() const { return fd_; }
  // Closes the socket now (the destructor would, later).
  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    eof_ = true;
  }

  // Sends all of it; false if the server closed (or reset) meanwhile.
  bool send(std::string_view bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
  }

  // The next whole frame; nullopt at EOF (or a reset) or the hang bound.
  std::optional<Frame> next() {
    while (buf_.size() < kFrameHeaderBytes || buf_.size() < kFrameHeaderBytes + pending_length())
      if (!fill()) return std::nullopt;
    Frame f;
    const std::size_t n = pending_length();
    f.type = static_cast<std::uint8_t>(buf_[3]);
    f.flags = static_cast<std::uint8_t>(buf_[4]);
    f.stream =
        ((std::uint32_t{static_cast<std::uint8_t>(buf_[5])} << 24) |
         (std::uint32_t{static_cast<std::uint8_t>(buf_[6])} << 16) |
         (std::uint32_t{static_cast<std::uint8_t>(buf_[7])} << 8) | static_cast<std::uint8_t>(buf_[8])) &
        0x7fffffffu;
    f.payload = buf_.substr(kFrameHeaderBytes, n);
    buf_.erase(0, kFrameHeaderBytes + n);
    note(f);
    return f;
  }

  // Reads frames until done() holds or the connection ends; done()'s last value.
  template <class Done>
  bool read_until(Done&& done) {
    while (!done())
      if (!next()) return done();
    return true;
  }
  // Reads to the end of the connection: true if it ended by the server's close
  // (EOF or reset), false at the hang bound.
  bool read_to_close() {
    while (next()) {
    }
    return eof_;
  }

  std::map<std::uint32_t, StreamAnswer>& streams() { return streams_; }
  StreamAnswer& stream(std::uint32_t id) { return streams_[id]; }
  std::optional<std::uint32_t> goaway_code() const { return goaway_code_; }
  bool eof() const { return eof_; }
  bool hpack_failed() const { return hpack_failed_; }
  std::size_t frames_read() const { return frames_read_; }

 private:
  std::size_t pending_length() const {
    return (std::size_t{static_cast<std::uint8_t>(buf_[0])} << 16) |
           (std::size_t{static_cast<std::uint8_t>(buf_[1])} << 8) | static_cast<std::uint8_t>(buf_[2]);
  }
  bool fill() {
    if (eof_) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(kHang.count())) <= 0) return false;
    char b[64 * 1024];
    const ssize_t n = ::recv(fd_, b, sizeof b, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buf_.append(b, static_cast<std::size_t>(n));
    return true;
  }
  // Keeps what a test asks about: header blocks decoded (the server never
  // splits one into CONTINUATIONs for these answers), DATA, END_STREAM,
  // RST_STREAM and GOAWAY.
  void note(const Frame& f) {
    ++frames_read_;
    if (f.type == kGoaway && f.payload.size() >= 8) goaway_code_ = f.u32_at(4);
    if (f.stream == 0) return;
    StreamAnswer& s = streams_[f.stream];
    if (f.type == kRstStream && f.payload.size() == 4) s.rst_code = f.u32_at(0);
    if (f.type == kData) s.body += f.payload;  // the server pads nothing
    if (f.type == kHeaders) inflate(s, f.payload);
    if ((f.type == kData || f.type == kHeaders) && (f.flags & kEndStream) != 0) s.ended = true;
  }
  void inflate(StreamAnswer& s, const std::string& block) {
    const auto* in = reinterpret_cast<const std::uint8_t*>(block.data());
    std::size_t left = block.size();
    for (;;) {
      nghttp2_nv nv;
      int flags = 0;
      const ssize_t n = nghttp2_hd_inflate_hd2(inflater_, &nv, &flags, in, left, 1);
      if (n < 0) {
        hpack_failed_ = true;
        return;
      }
      in += n;
      left -= static_cast<std::size_t>(n);
      if (flags & NGHTTP2_HD_INFLATE_EMIT)
        s.fields[std::string(reinterpret_cast<const char*>(nv.name), nv.namelen)] =
            std::string(reinterpret_cast<const char*>(nv.value), nv.valuelen);
      if (flags & NGHTTP2_HD_INFLATE_FINAL) {
        nghttp2_hd_inflate_end_headers(inflater_);
        return;
      }
      if (n == 0 && left == 0) return;
    }
  }

  int fd_ = -1;
  bool connected_ = false;
  nghttp2_hd_inflater* inflater_ = nullptr;
  std::string buf_;
  std::map<std::uint32_t, StreamAnswer> streams_;
  std::optional<std::uint32_t> goaway_code_;
  bool eof_ = false;
  bool hpack_failed_ = false;
  std::size_t frames_read_ = 0;
};

}  // namespace zaptest::h2
