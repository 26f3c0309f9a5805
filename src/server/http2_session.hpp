// server/http2_session.hpp — what the three files of the server's HTTP/2 wire
// share, and nothing else includes: a request stream (Stream), a worker's
// sessions' shared state (Http2Thread), a connection's session
// (Http2Session), and the functions each file lends the others. The wire
// itself (nghttp2's callbacks, the answers, Http2Wire) is http2_wire.cpp,
// the gRPC calls http2_grpc.cpp, the frame heads read ahead of nghttp2
// http2_read_ahead.cpp (docs/spec/http2-grpc.md).
#pragma once

#include <nghttp2/nghttp2.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "grpc_services/services.hpp"
#include "server/request_path.hpp"
#include "wire/grpc.hpp"
#include "wire/http2.hpp"

namespace server {

namespace http2 {
namespace grpc = wire::grpc;

constexpr std::uint64_t kNoLength = ~std::uint64_t{0};
constexpr std::size_t kFrameHeadBytes = 9;  // RFC 9113 §4.1

// One request stream: what the callbacks collect of it and its answer's
// bytes until nghttp2 has framed them. Reused for stream after stream (its
// buffers keep their capacity), from the thread's free list.
struct Stream {
  Stream* prev = nullptr;  // the session's open streams, or (next only) the thread's free list
  Stream* next = nullptr;
  std::int32_t id = 0;
  // :method, :path and content-type values, one after another in `head`:
  // offsets, not views, as `head` may move while it grows.
  net::Buffer head{256};
  std::uint32_t method_at = 0, method_bytes = 0, path_at = 0, path_bytes = 0, type_at = 0, type_bytes = 0;
  net::Buffer body{1024};
  net::Buffer answer{1024};  // the answer's DATA (a gRPC answer's prefixed message), read by read_answer
  std::uint64_t content_length = kNoLength;
  std::size_t header_list_bytes = 0;  // RFC 9113 §6.5.2: names + values + 32 per field
  // The :status and content-length values of its answer, kept with the
  // stream (nghttp2 takes the answer's header values without copying them:
  // NGHTTP2_NV_FLAG_NO_COPY_*, alive until the stream closes).
  char status_text[4]{};
  char length_text[24]{};
  bool answered = false;
  bool grpc_trailers = false;  // trailers (grpc-status trailer_status) after the DATA
  // The request was refused unread (413, 431, a gRPC call answered at its
  // headers): RST_STREAM reset_code after the answer.
  bool reset_after_answer = false;
  std::uint32_t reset_code = NGHTTP2_CANCEL;
  bool head_too_large = false;  // its header list passed max_header_bytes: answered 431 at END_HEADERS
  bool has_te = false;          // a `te` field (nghttp2 lets only "trailers" through)
  // A gRPC call's method and body content type (wire::grpc::kSubtypes' own
  // bytes), set when its headers passed grpc_headers; unknown otherwise.
  grpc_services::Method grpc_method = grpc_services::Method::unknown;
  std::string_view grpc_body_type;
  // A streaming call (reflection) takes messages until the client ends its
  // side; its answers' messages go out as they are made, the trailers last.
  bool streaming = false;
  grpc::Status trailer_status = grpc::Status::ok;
  char trailer_status_text[4]{};
  std::string trailer_message;  // a failed stream's grpc-message (rare: allocates)

  void clear() noexcept {
    prev = next = nullptr;
    id = 0;
    head.clear();
    method_at = method_bytes = path_at = path_bytes = type_at = type_bytes = 0;
    body.clear();
    answer.clear();
    content_length = kNoLength;
    header_list_bytes = 0;
    answered = grpc_trailers = reset_after_answer = head_too_large = has_te = streaming = false;
    reset_code = NGHTTP2_CANCEL;
    grpc_method = grpc_services::Method::unknown;
    grpc_body_type = {};
    trailer_status = grpc::Status::ok;
    if (!trailer_message.empty()) trailer_message.clear();  // (a failed stream only)
  }
  std::string_view text(std::uint32_t at, std::uint32_t bytes) const noexcept {
    return head.readable_text().substr(at, bytes);
  }
  std::string_view method() const noexcept { return text(method_at, method_bytes); }
  std::string_view path() const noexcept { return text(path_at, path_bytes); }
  std::string_view content_type() const noexcept { return text(type_at, type_bytes); }
};

inline nghttp2_nv nv(std::string_view name, std::string_view value) noexcept {
  // nghttp2 copies both (NGHTTP2_NV_FLAG_NONE) into its own, pooled, memory.
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

// A field whose name and value outlive the frame (literals, reply_head's
// strings, the stream's own bytes): nghttp2 keeps the pointers, no copy.
inline nghttp2_nv nv_kept(std::string_view name, std::string_view value) noexcept {
  nghttp2_nv f = nv(name, value);
  f.flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
  return f;
}

template <std::size_t N>
inline std::string_view digits(char (&buf)[N], std::uint64_t v) noexcept {
  const auto r = std::to_chars(buf, buf + N, v);
  return {buf, static_cast<std::size_t>(r.ptr - buf)};
}

}  // namespace http2

// What a worker's sessions share: made once per thread (Context::h2).
struct Http2Thread {
  wire::h2::MemPool mem;  // first member: destroyed last, after every session (the worker closes them before)
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_option* option = nullptr;
  nghttp2_settings_entry settings[4]{};
  http2::Stream* free = nullptr;

  ~Http2Thread() {
    while (free != nullptr) {
      http2::Stream* next = free->next;
      delete free;
      free = next;
    }
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_option_del(option);
  }
  http2::Stream* take() {
    if (free == nullptr) return new http2::Stream;  // the thread's first streams; then reused
    http2::Stream* s = free;
    free = s->next;
    s->next = nullptr;
    return s;
  }
  void give(http2::Stream* s) noexcept {
    s->clear();
    s->next = free;
    free = s;
  }
};

// A connection's session and its open streams.
struct Http2Session {
  nghttp2_session* session = nullptr;
  Context* x = nullptr;
  Conn* c = nullptr;
  http2::Stream* open = nullptr;  // streams begun and not closed (given back at close if nghttp2 does not)
  // The stream whose frames were last received: a request's header fields,
  // body and END_STREAM arrive on the stream begun last, so this spares
  // nghttp2's stream map a look-up per callback.
  http2::Stream* recent = nullptr;
  std::uint32_t resets_pending = 0;  // streams answered with reset_after_answer, not yet reset
  bool out_full = false;             // send_answer refused a DATA frame at the output cap (pump says so)
  bool error_counted = false;
  // The client's recent stream ids, for the frames nghttp2 cannot judge once
  // a stream is gone (it keeps no closed streams: no_closed_streams):
  // bit k of each map is stream last_id - 2k (client ids are odd), so the
  // last 64 streams are known. opened: the stream was opened (its HEADERS
  // began); reset_sent: the server reset it, so frames the client sent before
  // it saw the RST_STREAM are ignored (RFC 9113 §5.1, "closed").
  std::int32_t last_id = 0;
  std::uint64_t opened = 0, reset_sent = 0;
  // The frame heads of the input, read ahead of nghttp2 (next_run): bytes
  // still to pass before the next frame head (the client preface first), and
  // the highest stream id a HEADERS frame passed so far named.
  std::uint64_t pass_bytes = NGHTTP2_CLIENT_MAGIC_LEN;
  std::int32_t passed_max_id = 0;

  // Moves the window up to `id` (a client stream id above last_id).
  void see(std::int32_t id) noexcept {
    if (std::int64_t{id} == std::int64_t{last_id} + 2) {  // the next stream, as clients open them
      opened <<= 1;
      reset_sent <<= 1;
      last_id = id;
      return;
    }
    if (id <= last_id) return;
    const std::uint32_t shift = static_cast<std::uint32_t>(id - last_id) / 2;
    opened = shift >= 64 ? 0 : opened << shift;
    reset_sent = shift >= 64 ? 0 : reset_sent << shift;
    last_id = id;
  }
  // A stream the server reset (ours, or nghttp2's: a refused or malformed
  // request): what the client sent on it before it saw the reset is ignored.
  // Out of line: rare, and kept off on_frame_send's path for every frame.
  [[gnu::noinline, gnu::cold]] void reset_by_server(std::int32_t id) noexcept {
    if ((id & 1) == 0) return;
    see(id);
    reset_sent |= bit(id);
  }
  // The bit of stream `id` (at most last_id) in the maps; 0 past the window.
  std::uint64_t bit(std::int32_t id) const noexcept {
    const std::uint32_t k = static_cast<std::uint32_t>(last_id - id) / 2;
    return k >= 64 ? 0 : std::uint64_t{1} << k;
  }

  void link(http2::Stream* s) noexcept {
    s->next = open;
    if (open != nullptr) open->prev = s;
    open = s;
  }
  void unlink(http2::Stream* s) noexcept {
    if (recent == s) recent = nullptr;
    if (s->prev != nullptr) s->prev->next = s->next;
    if (s->next != nullptr) s->next->prev = s->prev;
    if (open == s) open = s->next;
    s->prev = s->next = nullptr;
  }
  void connection_error() noexcept {
    if (error_counted) return;
    error_counted = true;
    x->error(ErrorKind::http2_connection_error);
  }
};

namespace http2 {

inline Stream* stream_of(nghttp2_session* session, std::int32_t id) noexcept {
  return static_cast<Stream*>(nghttp2_session_get_stream_user_data(session, id));
}

// The stream of a frame received: the recent one, or nghttp2's look-up.
inline Stream* received_stream(Http2Session& h, std::int32_t id) noexcept {
  if (h.recent != nullptr && h.recent->id == id) return h.recent;
  Stream* s = stream_of(h.session, id);
  if (s != nullptr) h.recent = s;
  return s;
}

// ---- the answers (http2_wire.cpp) ----------------------------------------------

// Submits headers, and the answer's bytes as DATA (none, and not a
// streaming answer: END_STREAM on the headers).
void submit(Http2Session& h, Stream& s, const nghttp2_nv* headers, std::size_t count, record::Bytes data);
// An HTTP/2 answer: status, content-type, content-length (and a 405's allow).
void respond(Http2Session& h, Stream& s, int status, std::string_view content_type, std::string_view allow,
             record::Bytes body);
void respond(Http2Session& h, Stream& s, const Reply& reply);
// The stream is reset with `code` once its answer is sent (the request's rest
// is not read): counted once per stream.
void reset_after_answer(Http2Session& h, Stream& s, std::uint32_t code) noexcept;

// ---- the gRPC calls (http2_grpc.cpp) -------------------------------------------

// A gRPC call's headers, whole (END_HEADERS): judged at once. True when the
// call was answered here or is a stream that takes its messages from here
// on; false: answered at END_STREAM (grpc_call).
bool grpc_headers(Http2Session& h, Stream& s, bool request_ended);
// A unary gRPC call, whole (END_STREAM); its headers passed grpc_headers.
void grpc_call(Http2Session& h, Stream& s);
// A streaming call's messages received so far, each answered (reflection).
[[gnu::cold]] void stream_messages(Http2Session& h, Stream& s, bool request_ended);
// Ends a streaming call: the trailers with `status` follow the answers made.
[[gnu::cold]] void end_stream_call(Http2Session& h, Stream& s, bool request_ended, grpc::Status status,
                                   std::string_view why);
// A gRPC error: trailers-only (one HEADERS frame with END_STREAM).
[[gnu::cold]] void grpc_error(Http2Session& h, Stream& s, grpc::Status status, std::string_view why);
// A failed stream's trailers (its grpc-status and grpc-message); false when
// nghttp2 refused them.
[[gnu::cold]] bool failed_trailers(nghttp2_session* session, Stream& s);

// ---- the frame heads read ahead of nghttp2 (http2_read_ahead.cpp) --------------

// How many of `in`'s bytes to feed nghttp2 now (at most Http2Wire::kFeedBytes):
// every frame up to the next one that must be judged after them; 0 when a
// frame head (or a PRIORITY frame, judged by its payload) is not whole yet.
std::size_t next_run(Http2Session& h, std::span<const std::uint8_t> in) noexcept;

}  // namespace http2
}  // namespace server
