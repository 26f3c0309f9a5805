// tests/support/h2_server.hpp — a small HTTP/2 (h2c, prior knowledge) server on
// 127.0.0.1:0 for the loader's tests, on nghttp2's server session over a
// blocking socket (an accept thread, a thread per connection). It answers
// GET /health ("ok"), POST /rpc and /logs in the body codec it was made with,
// and gRPC calls (a gRPC content type: the body is one prefixed message, the
// answer one prefixed message and trailers grpc-status 0), with the true
// answers of the record. Each connection gathers requests until `gather` are
// complete or the peer has been quiet for 5 ms, then answers that batch in
// REVERSE order by default, so a loader that matched answers by position
// would fail. Misbehaviours (Misbehave) are done on every third answer of a
// connection (every second for resets), so the loader's exact accounting
// shows (requests = responses + the errors they give) and the connection goes
// on. Allocates nothing per request once warm (its sessions use a
// wire::h2::MemPool per connection; stream slots and codecs are reused), so a
// test can count the loader's allocations against it. Independent of the
// production server (src/server/).
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "net/buffer.hpp"
#include "record/codecs.hpp"
#include "record/logs.hpp"
#include "support/test_listener.hpp"
#include "wire/grpc.hpp"
#include "wire/http2.hpp"

namespace zaptest {

class H2Server {
 public:
  enum class Misbehave : std::uint8_t {
    none,
    wrong_balance,      // every 3rd answer: the balance + 1 (a validation error)
    reset,              // every 2nd request: RST_STREAM CANCEL instead of an answer (closed)
    status_500,         // every 3rd answer: :status 500 (a status error)
    grpc_status,        // every 3rd answer: trailers grpc-status 13 (a status error)
    grpc_no_trailers,   // every 3rd answer: no trailers, END_STREAM on the DATA (a status error)
    grpc_long_prefix,   // every 3rd answer: a prefix announcing one byte more than the message (validation)
    grpc_content_type,  // every 3rd answer: content-type application/grpc+bogus (validation)
  };
  struct Config {
    std::uint32_t max_concurrent_streams = wire::h2::kMaxConcurrentStreams;
    unsigned gather = 16;
    bool reverse = true;
    Misbehave misbehave = Misbehave::none;
  };

  H2Server(const record::CodecInfo& body, Config cfg) : body_(body), cfg_(cfg) {}
  explicit H2Server(const record::CodecInfo& body) : H2Server(body, Config{}) {}
  H2Server(const H2Server&) = delete;
  H2Server& operator=(const H2Server&) = delete;
  ~H2Server() { stop(); }

  std::uint16_t port() const { return listener_.port(); }
  // Batches of two or more requests answered in reverse order.
  int reversed_batches() const { return reversed_; }
  // Requests misbehaved on (answered wrongly or reset).
  std::uint64_t misbehaved() const { return misbehaved_; }
  // The most streams one connection had open at once (requests complete, not yet answered).
  std::size_t most_open_streams() const { return most_open_; }
  // What the server's threads allocated so far (micro/alloc_counter.hpp: with COUNT_ALLOCS).
  std::uint64_t allocations() const { return allocations_; }
  // Connections accepted so far.
  int connections() const { return connections_; }

  void stop() { listener_.stop(); }

 private:
  struct Stream {
    std::int32_t id = 0;
    std::string method, path, content_type;  // reserved: assigned within capacity
    net::Buffer request{1024};
    net::Buffer answer{1024};  // the DATA sent
    std::size_t answer_sent_bytes = 0;
    bool grpc = false, trailers = false;
    int grpc_status = 0;
    char status[4] = "200";
    std::string answer_type;
    Stream* next_free = nullptr;
  };

  // One connection's state: its session, stream slots, the batch to answer.
  struct Conn {
    H2Server* server = nullptr;
    wire::h2::MemPool pool;
    nghttp2_session* h2 = nullptr;
    std::vector<std::unique_ptr<Stream>> streams;
    Stream* free = nullptr;
    std::vector<Stream*> batch;
    std::unique_ptr<record::AnyCodec> codec;
    record::LogSet logs;
    std::uint64_t answered = 0;  // requests of this connection (misbehaviours count them)
    std::size_t open = 0;

    Stream* take() {
      if (free == nullptr) {
        streams.push_back(std::make_unique<Stream>());
        for (std::string* s : {&streams.back()->method, &streams.back()->path, &streams.back()->content_type,
                               &streams.back()->answer_type})
          s->reserve(64);
        return streams.back().get();
      }
      Stream* s = free;
      free = s->next_free;
      return s;
    }
  };

  static Stream* stream_of(nghttp2_session* h2, std::int32_t id) {
    return static_cast<Stream*>(nghttp2_session_get_stream_user_data(h2, id));
  }

  static int on_begin_headers(nghttp2_session* h2, const nghttp2_frame* f, void* user) {
    if (f->hd.type != NGHTTP2_HEADERS || f->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
    Stream* s = static_cast<Conn*>(user)->take();
    s->id = f->hd.stream_id;
    s->method.clear();
    s->path.clear();
    s->content_type.clear();
    s->request.clear();
    s->answer.clear();
    s->answer_sent_bytes = 0;
    nghttp2_session_set_stream_user_data(h2, f->hd.stream_id, s);
    return 0;
  }
  static int on_header(nghttp2_session* h2, const nghttp2_frame* f, const std::uint8_t* name,
                       std::size_t nlen, const std::uint8_t* value, std::size_t vlen, std::uint8_t, void*) {
    Stream* s = stream_of(h2, f->hd.stream_id);
    if (s == nullptr) return 0;
    const std::string_view n(reinterpret_cast<const char*>(name), nlen);
    const std::string_view v(reinterpret_cast<const char*>(value), vlen);
    if (n == ":method") s->method.assign(v);
    if (n == ":path") s->path.assign(v);
    if (n == "content-type") s->content_type.assign(v);
    return 0;
  }
  static int on_data(nghttp2_session* h2, std::uint8_t, std::int32_t id, const std::uint8_t* data,
                     std::size_t n, void*) {
    if (Stream* s = stream_of(h2, id)) s->request.append(data, n);
    return 0;
  }
  static int on_frame(nghttp2_session* h2, const nghttp2_frame* f, void* user) {
    if ((f->hd.type == NGHTTP2_HEADERS || f->hd.type == NGHTTP2_DATA) &&
        (f->hd.flags & NGHTTP2_FLAG_END_STREAM))
      if (Stream* s = stream_of(h2, f->hd.stream_id)) {
        Conn& c = *static_cast<Conn*>(user);
        c.batch.push_back(s);
        ++c.open;
      }
    return 0;
  }
  static int on_close(nghttp2_session* h2, std::int32_t id, std::uint32_t, void* user) {
    if (Stream* s = stream_of(h2, id)) {
      Conn& c = *static_cast<Conn*>(user);
      s->next_free = c.free;
      c.free = s;
    }
    return 0;
  }
  static ssize_t read_answer(nghttp2_session* h2, std::int32_t id, std::uint8_t* buf, std::size_t length,
                             std::uint32_t* flags, nghttp2_data_source* src, void*) {
    Stream* s = static_cast<Stream*>(src->ptr);
    const std::size_t n = std::min(length, s->answer.size() - s->answer_sent_bytes);
    std::memcpy(buf, s->answer.readable().data() + s->answer_sent_bytes, n);
    s->answer_sent_bytes += n;
    if (s->answer_sent_bytes == s->answer.size()) {
      *flags |= NGHTTP2_DATA_FLAG_EOF;
      if (s->trailers) {
        *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
        char digits[4];
        const int len = std::snprintf(digits, sizeof digits, "%d", s->grpc_status);
        const nghttp2_nv t[] = {{(std::uint8_t*)"grpc-status", (std::uint8_t*)digits, 11,
                                 static_cast<std::size_t>(len), NGHTTP2_NV_FLAG_NONE}};
        nghttp2_submit_trailer(h2, id, t, 1);
      }
    }
    return static_cast<ssize_t>(n);
  }

  // The true answer to s into s->answer (gRPC: the message only), with what
  // it is to be sent with; false: a status other than 200, no body.
  void compute(Conn& c, Stream& s) {
    record::Bytes request = s.request.readable();
    s.grpc = wire::grpc::is_grpc(s.content_type);
    if (s.grpc) {
      if (wire::grpc::unary_message(request, request) != wire::grpc::MessageError::ok) request = {};
    }
    const bool tamper = cfg_.misbehave == Misbehave::wrong_balance && c.answered % 3 == 0;
    if (s.path == "/health") {
      s.answer.append("ok");
      s.answer_type.assign("text/plain");
      return;
    }
    if (s.path == "/rpc" || s.path == wire::grpc::kCallPath) {
      record::RequestView req;
      if (c.codec->decode_request(request, req) != record::DecodeError::ok) {
        std::memcpy(s.status, "400", 4);
        return;
      }
      record::Response resp = record::compute(req);
      if (tamper) ++resp.balance;
      const record::Bytes out = c.codec->encode_response(resp);
      s.answer.append(out.data(), out.size());
    } else if (s.path == "/logs") {
      record::LogsRequest req;
      if (c.codec->decode_logs_request(request, req) != record::DecodeError::ok) {
        std::memcpy(s.status, "400", 4);
        return;
      }
      record::generate(req, c.logs);
      const record::Bytes out = c.codec->encode_logs(c.logs.logs);
      s.answer.append(out.data(), out.size());
    } else {
      std::memcpy(s.status, "404", 4);
      return;
    }
    s.answer_type.assign(body_.content_type);
  }

  void answer(Conn& c, Stream& s) {
    const std::uint64_t n = ++c.answered;
    const Misbehave m = cfg_.misbehave;
    if (m == Misbehave::reset && n % 2 == 0) {
      ++misbehaved_;
      nghttp2_submit_rst_stream(c.h2, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_CANCEL);
      return;
    }
    const bool third = n % 3 == 0;
    if (third && m != Misbehave::none && m != Misbehave::reset) ++misbehaved_;
    std::memcpy(s.status, "200", 4);
    s.answer_type.clear();
    compute(c, s);
    if (m == Misbehave::status_500 && third) std::memcpy(s.status, "500", 4);
    s.trailers = s.grpc && !(m == Misbehave::grpc_no_trailers && third);
    s.grpc_status = m == Misbehave::grpc_status && third ? 13 : 0;
    if (s.grpc) {
      // The message, prefixed in place: shift it 5 bytes on (copy through the buffer's end).
      const std::size_t message_bytes = s.answer.size();
      std::uint8_t prefix[wire::grpc::kPrefixBytes];
      wire::grpc::write_prefix(
          prefix,
          static_cast<std::uint32_t>(message_bytes + (m == Misbehave::grpc_long_prefix && third ? 1 : 0)));
      s.answer.prepare(wire::grpc::kPrefixBytes);
      s.answer.commit(wire::grpc::kPrefixBytes);
      std::uint8_t* at = const_cast<std::uint8_t*>(s.answer.readable().data());
      std::memmove(at + wire::grpc::kPrefixBytes, at, message_bytes);
      std::memcpy(at, prefix, wire::grpc::kPrefixBytes);
      s.answer_type.assign(m == Misbehave::grpc_content_type && third
                               ? std::string_view("application/grpc+bogus")
                               : std::string_view(s.content_type));
    }
    const auto nv = [](std::string_view a, std::string_view b) {
      return nghttp2_nv{(std::uint8_t*)a.data(), (std::uint8_t*)b.data(), a.size(), b.size(),
                        NGHTTP2_NV_FLAG_NONE};
    };
    const nghttp2_nv head[] = {nv(":status", s.status), nv("content-type", s.answer_type)};
    nghttp2_data_provider p{};
    p.source.ptr = &s;
    p.read_callback = &H2Server::read_answer;
    nghttp2_submit_response(c.h2, s.id, head, s.answer_type.empty() ? 1 : 2, &p);
  }

  void serve(int fd) {
    Conn c;
    c.server = this;
    c.codec = body_.make();
    c.batch.reserve(1024);
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &on_begin_headers);
    nghttp2_session_callbacks_set_on_header_callback(cb, &on_header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &on_data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &on_frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &on_close);
    nghttp2_session_server_new3(&c.h2, cb, &c, nullptr, c.pool.mem());
    nghttp2_session_callbacks_del(cb);
    const nghttp2_settings_entry settings[] = {
        {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, cfg_.max_concurrent_streams},
        {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, static_cast<std::uint32_t>(wire::h2::kStreamWindowBytes)}};
    nghttp2_submit_settings(c.h2, NGHTTP2_FLAG_NONE, settings, 2);
    nghttp2_session_set_local_window_size(c.h2, NGHTTP2_FLAG_NONE, 0, wire::h2::kConnectionWindowBytes);
    std::vector<std::uint8_t> in(64 * 1024);
    bool quiet = false;
    std::uint64_t counted = micro::thread_alloc_count().allocs;
    const auto count = [&] {
      const std::uint64_t now = micro::thread_alloc_count().allocs;
      allocations_ += now - counted;
      counted = now;
    };
    while (!listener_.stopping() && send_all(fd, c)) {
      count();
      pollfd p{fd, POLLIN, 0};
      const int ready = poll(&p, 1, c.batch.empty() ? 10 : 5);
      if (ready < 0) break;
      quiet = ready == 0;
      if (!quiet) {
        const ssize_t n = recv(fd, in.data(), in.size(), 0);
        if (n <= 0) break;
        if (nghttp2_session_mem_recv(c.h2, in.data(), static_cast<std::size_t>(n)) < 0) break;
      }
      if (c.batch.empty() || (!quiet && c.batch.size() < cfg_.gather)) continue;
      for (std::size_t m = most_open_; c.open > m && !most_open_.compare_exchange_weak(m, c.open);) {
      }
      const std::size_t n = c.batch.size();
      for (std::size_t k = 0; k < n; ++k) answer(c, *c.batch[cfg_.reverse ? n - 1 - k : k]);
      if (cfg_.reverse && n >= 2) ++reversed_;
      c.open -= n;
      c.batch.clear();
    }
    nghttp2_session_del(c.h2);
  }

  static bool send_all(int fd, Conn& c) {
    for (;;) {
      const std::uint8_t* data = nullptr;
      const ssize_t n = nghttp2_session_mem_send(c.h2, &data);
      if (n < 0) return false;
      if (n == 0) return true;
      for (ssize_t at = 0; at < n;) {
        const ssize_t s = send(fd, data + at, static_cast<std::size_t>(n - at), MSG_NOSIGNAL);
        if (s <= 0) return false;
        at += s;
      }
    }
  }

  const record::CodecInfo& body_;
  Config cfg_;
  std::atomic<int> reversed_{0}, connections_{0};
  std::atomic<std::uint64_t> misbehaved_{0}, allocations_{0};
  std::atomic<std::size_t> most_open_{0};
  TestListener listener_{[this](int fd) {  // last: its threads use the above
    ++connections_;
    serve(fd);
  }};
};

}  // namespace zaptest
