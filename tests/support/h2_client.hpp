// tests/support/h2_client.hpp — a blocking HTTP/2 (h2c, prior knowledge)
// client for the server suites: an nghttp2 client session over a loopback
// socket, requests submitted as streams (whole, or headers only with the body
// and END_STREAM later, to hold streams open), and every stream's answer
// collected — :status, content-type, content-length, allow, grpc-status and
// grpc-message (from the headers or the trailers), the body, or the
// RST_STREAM code — plus the peer's GOAWAY. Waits on the socket with the hang
// bound (await.hpp's kHang), never on a time. Independent of the loader's
// production client (src/wire/client_wires.hpp), so each checks the other.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/await.hpp"

namespace zaptest {

struct H2Request {
  std::string method = "GET";
  std::string path = "/health";
  std::string content_type;  // none when empty
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // more fields after these
  bool end_stream = true;  // false: HEADERS (and body) without END_STREAM; finish() ends it
  bool te = true;          // a gRPC content type gets `te: trailers` (as gRPC clients send it)
};

// A request of these fields (the others defaulted).
inline H2Request h2_request(std::string method, std::string path, std::string content_type = {},
                            std::string body = {}) {
  H2Request r;
  r.method = std::move(method);
  r.path = std::move(path);
  r.content_type = std::move(content_type);
  r.body = std::move(body);
  return r;
}

struct H2Answer {
  std::string status;  // :status
  std::string content_type, content_length, allow;
  std::optional<std::string> grpc_status;  // from the trailers, or the headers of a trailers-only answer
  std::string grpc_message;
  bool trailers = false;       // a second HEADERS block arrived (gRPC's trailers)
  bool trailers_only = false;  // grpc-status came in the first (and only) HEADERS
  std::string body;
  bool closed = false;
  std::uint32_t close_code = 0;  // the stream's error code when closed (RST_STREAM's, or NO_ERROR)
  bool reset = false;            // closed by RST_STREAM
};

class H2Client {
 public:
  // peer_max_streams: how many streams this client opens before it has the
  // server's SETTINGS (nghttp2's default is 100; a test opens more at once).
  explicit H2Client(std::uint16_t port, std::uint32_t peer_max_streams = 100) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    const int one = 1;
    setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_close);
    nghttp2_option* opt = nullptr;
    nghttp2_option_new(&opt);
    nghttp2_option_set_peer_max_concurrent_streams(opt, peer_max_streams);
    nghttp2_session_client_new2(&session_, cb, this, opt);
    nghttp2_session_callbacks_del(cb);
    nghttp2_option_del(opt);
    const nghttp2_settings_entry settings[2] = {{NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 16 * 1024 * 1024},
                                                {NGHTTP2_SETTINGS_ENABLE_PUSH, 0}};
    nghttp2_submit_settings(session_, NGHTTP2_FLAG_NONE, settings, 2);
    // The connection window as the loader's (2^31 - 1): no answer waits on it.
    nghttp2_session_set_local_window_size(session_, NGHTTP2_FLAG_NONE, 0, 0x7fffffff);
  }
  ~H2Client() {
    nghttp2_session_del(session_);
    if (fd_ >= 0) ::close(fd_);
  }
  H2Client(const H2Client&) = delete;
  H2Client& operator=(const H2Client&) = delete;

  bool connected() const { return connected_; }

  // Submits one request (sent by the next wait or flush); returns its stream id.
  std::int32_t submit(const H2Request& r) {
    std::vector<nghttp2_nv> nva;
    auto add = [&](const std::string& n, const std::string& v) {
      nva.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(n.data())),
                     reinterpret_cast<std::uint8_t*>(const_cast<char*>(v.data())), n.size(), v.size(),
                     NGHTTP2_NV_FLAG_NONE});
    };
    static const std::string kMethod = ":method", kPath = ":path", kScheme = ":scheme",
                             kAuthority = ":authority", kHttp = "http", kHost = "127.0.0.1",
                             kType = "content-type", kTe = "te";
    add(kMethod, r.method);
    add(kScheme, kHttp);
    add(kAuthority, kHost);
    add(kPath, r.path);
    if (!r.content_type.empty()) add(kType, r.content_type);
    static const std::string kTrailers = "trailers";
    if (r.te && r.content_type.starts_with("application/grpc")) add(kTe, kTrailers);
    for (const auto& [n, v] : r.headers) add(n, v);
    auto body = std::make_unique<Body>();
    body->bytes = r.body;
    body->end_stream = r.end_stream;
    nghttp2_data_provider prd{};
    prd.source.ptr = body.get();
    prd.read_callback = read_body;
    std::int32_t id;
    if (r.end_stream && r.body.empty())
      id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(), nullptr, nullptr);
    else if (r.end_stream)
      id = nghttp2_submit_request(session_, nullptr, nva.data(), nva.size(), &prd, nullptr);
    else {
      id = nghttp2_submit_headers(session_, NGHTTP2_FLAG_NONE, -1, nullptr, nva.data(), nva.size(), nullptr);
      if (id > 0 && !r.body.empty()) nghttp2_submit_data(session_, NGHTTP2_FLAG_NONE, id, &prd);
    }
    if (id > 0) {
      answers_[id];
      bodies_.push_back(std::move(body));
    }
    return id;
  }
  // Ends a stream submitted with end_stream = false (an empty DATA with END_STREAM).
  void finish(std::int32_t id) {
    auto body = std::make_unique<Body>();
    nghttp2_data_provider prd{};
    prd.source.ptr = body.get();
    prd.read_callback = read_body;
    nghttp2_submit_data(session_, NGHTTP2_FLAG_END_STREAM, id, &prd);
    bodies_.push_back(std::move(body));
  }
  // Raw bytes on the socket (a hostile frame), after what nghttp2 has queued.
  void send_raw(const std::string& bytes) {
    flush();
    send_all(bytes.data(), bytes.size());
  }

  // Sends everything queued; false if the socket failed.
  bool flush() {
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(session_, &data);
      if (n < 0) return false;
      if (n == 0) return true;
      if (!send_all(data, static_cast<std::size_t>(n))) return false;
    }
  }

  // Sends and reads until done() holds, the connection ends, or the hang bound.
  template <class Done>
  bool wait(Done&& done) {
    const auto end = std::chrono::steady_clock::now() + kHang;
    for (;;) {
      if (!flush()) eof_ = true;
      if (done()) return true;
      if (eof_) return done();
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now())
              .count();
      if (left <= 0) return done();
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) continue;
      std::uint8_t buf[64 * 1024];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        eof_ = true;
        continue;
      }
      received_bytes_ += static_cast<std::size_t>(n);
      if (nghttp2_session_mem_recv(session_, buf, static_cast<std::size_t>(n)) < 0) eof_ = true;
    }
  }
  // Until every stream submitted so far is closed.
  bool wait_all() {
    return wait([&] {
      for (const auto& [id, a] : answers_)
        if (!a.closed) return false;
      return true;
    });
  }
  bool wait_closed(std::int32_t id) {
    return wait([&] { return answers_[id].closed; });
  }
  // One request, submitted and awaited; its answer.
  const H2Answer& call(const H2Request& r) {
    const std::int32_t id = submit(r);
    EXPECT_GT(id, 0);
    EXPECT_TRUE(wait_closed(id)) << r.method << " " << r.path << ": no answer";
    return answers_[id];
  }

  const H2Answer& answer(std::int32_t id) { return answers_[id]; }
  std::map<std::int32_t, H2Answer>& answers() { return answers_; }
  bool goaway() const { return goaway_; }
  std::uint32_t goaway_code() const { return goaway_code_; }
  bool eof() const { return eof_; }
  // The server's SETTINGS_MAX_CONCURRENT_STREAMS (once its SETTINGS arrived).
  std::uint32_t remote_max_streams() const {
    return nghttp2_session_get_remote_settings(session_, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS);
  }
  bool settings_received() const { return settings_received_; }
  nghttp2_session* session() { return session_; }

 private:
  struct Body {
    std::string bytes;
    std::size_t at = 0;
    bool end_stream = true;
  };
  static ssize_t read_body(nghttp2_session*, std::int32_t, std::uint8_t* buf, std::size_t length,
                           std::uint32_t* flags, nghttp2_data_source* source, void*) {
    Body& b = *static_cast<Body*>(source->ptr);
    const std::size_t n = std::min(length, b.bytes.size() - b.at);
    std::memcpy(buf, b.bytes.data() + b.at, n);
    b.at += n;
    if (b.at == b.bytes.size()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      if (!b.end_stream) *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
    }
    return static_cast<ssize_t>(n);
  }
  static int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name,
                       std::size_t nlen, const std::uint8_t* value, std::size_t vlen, std::uint8_t,
                       void* user) {
    auto* self = static_cast<H2Client*>(user);
    const auto it = self->answers_.find(frame->hd.stream_id);
    if (it == self->answers_.end()) return 0;
    H2Answer& a = it->second;
    const std::string n(reinterpret_cast<const char*>(name), nlen),
        v(reinterpret_cast<const char*>(value), vlen);
    const bool first = frame->headers.cat == NGHTTP2_HCAT_RESPONSE;
    if (!first) a.trailers = true;
    if (n == ":status") a.status = v;
    if (n == "content-type") a.content_type = v;
    if (n == "content-length") a.content_length = v;
    if (n == "allow") a.allow = v;
    if (n == "grpc-status") {
      a.grpc_status = v;
      a.trailers_only = first;
    }
    if (n == "grpc-message") a.grpc_message = v;
    return 0;
  }
  static int on_data(nghttp2_session*, std::uint8_t, std::int32_t id, const std::uint8_t* data,
                     std::size_t len, void* user) {
    auto* self = static_cast<H2Client*>(user);
    self->answers_[id].body.append(reinterpret_cast<const char*>(data), len);
    return 0;
  }
  static int on_frame(nghttp2_session*, const nghttp2_frame* frame, void* user) {
    auto* self = static_cast<H2Client*>(user);
    if (frame->hd.type == NGHTTP2_GOAWAY) {
      self->goaway_ = true;
      self->goaway_code_ = frame->goaway.error_code;
    }
    if (frame->hd.type == NGHTTP2_RST_STREAM) {
      const auto it = self->answers_.find(frame->hd.stream_id);
      if (it != self->answers_.end()) it->second.reset = true;
    }
    if (frame->hd.type == NGHTTP2_SETTINGS && (frame->hd.flags & NGHTTP2_FLAG_ACK) == 0)
      self->settings_received_ = true;
    return 0;
  }
  static int on_close(nghttp2_session*, std::int32_t id, std::uint32_t code, void* user) {
    auto* self = static_cast<H2Client*>(user);
    const auto it = self->answers_.find(id);
    if (it != self->answers_.end()) {
      it->second.closed = true;
      it->second.close_code = code;
    }
    return 0;
  }
  bool send_all(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    while (n > 0) {
      const ssize_t k = ::send(fd_, b, n, MSG_NOSIGNAL);
      if (k <= 0) return false;
      b += k;
      n -= static_cast<std::size_t>(k);
    }
    return true;
  }

  int fd_ = -1;
  bool connected_ = false;
  nghttp2_session* session_ = nullptr;
  std::map<std::int32_t, H2Answer> answers_;
  std::vector<std::unique_ptr<Body>> bodies_;
  bool goaway_ = false;
  std::uint32_t goaway_code_ = 0;
  bool eof_ = false;
  bool settings_received_ = false;
  std::size_t received_bytes_ = 0;
};

}  // namespace zaptest
