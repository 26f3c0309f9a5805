// server/http2_wire.cpp — the server's HTTP/2 and gRPC glue (Http2Wire,
// docs/spec/http2-grpc.md): one nghttp2 server session per connection, made
// with the worker thread's allocator (net::h2::MemPool), fed from the
// connection's input and writing into its `out`; per stream, the request's
// :method, :path, content-type and body in a reusable Stream (a per-thread
// free list, so a warm thread allocates nothing per request); on END_STREAM
// the same routes as HTTP/1.1 (Routes::handle), or for a gRPC call /rpc's
// handler (Routes::handle_routed) on the message without its prefix, the
// answer with its prefix and the grpc-status trailers. nghttp2 does the
// frames, HPACK, flow control and the hostile-peer bounds (net/http2.hpp).
#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

#include "net/grpc.hpp"
#include "net/http2.hpp"
#include "server/request_path.hpp"

namespace server {

namespace {
namespace grpc = net::grpc;

// A gRPC call names its body codec by a content-subtype keyed by the content
// type HTTP would carry (net/grpc.hpp), so the two lists must agree: every
// codec the build can have needs a subtype, and a subtype names no content
// type that codecs.table does not have.
static_assert(
    [] {
      for (const record::table::Row& row : record::table::kRows)
        if (grpc::grpc_content_type(row.content_type).empty()) return false;
      return true;
    }(),
    "a content type of codecs.table has no gRPC content-subtype (net::grpc::kSubtypes)");
static_assert(
    [] {
      for (const grpc::Subtype& s : grpc::kSubtypes) {
        bool found = false;
        for (const record::table::Row& row : record::table::kRows)
          found |= row.content_type == s.body_content_type;
        if (!found) return false;
      }
      return true;
    }(),
    "net::grpc::kSubtypes names a content type that codecs.table does not have");

constexpr std::uint64_t kNoLength = ~std::uint64_t{0};

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
  bool grpc_trailers = false;  // trailers grpc-status 0 after the DATA
  bool reset_after_answer =
      false;  // the request was refused unread (413): RST_STREAM CANCEL after the answer

  void clear() noexcept {
    prev = next = nullptr;
    id = 0;
    head.clear();
    method_at = method_bytes = path_at = path_bytes = type_at = type_bytes = 0;
    body.clear();
    answer.clear();
    content_length = kNoLength;
    header_list_bytes = 0;
    answered = grpc_trailers = reset_after_answer = false;
  }
  std::string_view text(std::uint32_t at, std::uint32_t bytes) const noexcept {
    return head.readable_text().substr(at, bytes);
  }
  std::string_view method() const noexcept { return text(method_at, method_bytes); }
  std::string_view path() const noexcept { return text(path_at, path_bytes); }
  std::string_view content_type() const noexcept { return text(type_at, type_bytes); }
};

nghttp2_nv nv(std::string_view name, std::string_view value) noexcept {
  // nghttp2 copies both (NGHTTP2_NV_FLAG_NONE) into its own, pooled, memory.
  return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
          reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
          NGHTTP2_NV_FLAG_NONE};
}

// A field whose name and value outlive the frame (literals, reply_head's
// strings, the stream's own bytes): nghttp2 keeps the pointers, no copy.
nghttp2_nv nv_kept(std::string_view name, std::string_view value) noexcept {
  nghttp2_nv f = nv(name, value);
  f.flags = NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE;
  return f;
}

template <std::size_t N>
std::string_view digits(char (&buf)[N], std::uint64_t v) noexcept {
  const auto r = std::to_chars(buf, buf + N, v);
  return {buf, static_cast<std::size_t>(r.ptr - buf)};
}

}  // namespace

// What a worker's sessions share: made once per thread (Context::h2).
struct Http2Thread {
  net::h2::MemPool mem;  // first member: destroyed last, after every session (the worker closes them before)
  nghttp2_session_callbacks* callbacks = nullptr;
  nghttp2_option* option = nullptr;
  nghttp2_settings_entry settings[4]{};
  Stream* free = nullptr;

  ~Http2Thread() {
    while (free != nullptr) {
      Stream* next = free->next;
      delete free;
      free = next;
    }
    nghttp2_session_callbacks_del(callbacks);
    nghttp2_option_del(option);
  }
  Stream* take() {
    if (free == nullptr) return new Stream;  // the thread's first streams; then reused
    Stream* s = free;
    free = s->next;
    s->next = nullptr;
    return s;
  }
  void give(Stream* s) noexcept {
    s->clear();
    s->next = free;
    free = s;
  }
};

void Http2ThreadDelete::operator()(Http2Thread* t) const noexcept { delete t; }

// A connection's session and its open streams.
struct Http2Session {
  nghttp2_session* session = nullptr;
  Context* x = nullptr;
  Conn* c = nullptr;
  Stream* open = nullptr;  // streams begun and not closed (given back at close if nghttp2 does not)
  // The stream whose frames were last received: a request's header fields,
  // body and END_STREAM arrive on the stream begun last, so this spares
  // nghttp2's stream map a look-up per callback.
  Stream* recent = nullptr;
  std::uint32_t resets_pending = 0;  // streams answered with reset_after_answer, not yet reset
  bool out_full = false;             // send_answer refused a DATA frame at the output cap (pump says so)
  bool error_counted = false;

  void link(Stream* s) noexcept {
    s->next = open;
    if (open != nullptr) open->prev = s;
    open = s;
  }
  void unlink(Stream* s) noexcept {
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

namespace {

Stream* stream_of(nghttp2_session* session, std::int32_t id) noexcept {
  return static_cast<Stream*>(nghttp2_session_get_stream_user_data(session, id));
}

// The stream of a frame received: the recent one, or nghttp2's look-up.
Stream* received_stream(Http2Session& h, std::int32_t id) noexcept {
  if (h.recent != nullptr && h.recent->id == id) return h.recent;
  Stream* s = stream_of(h.session, id);
  if (s != nullptr) h.recent = s;
  return s;
}

// The DATA of an answer: the stream's answer bytes, then (gRPC) the trailers.
// NGHTTP2_DATA_FLAG_NO_COPY: nghttp2 takes only the length and flags here,
// and send_answer writes the frame, from the stream's bytes straight into
// the connection's output (no copy into nghttp2's frame buffer).
ssize_t read_answer(nghttp2_session* session, std::int32_t stream_id, std::uint8_t*, std::size_t length,
                    std::uint32_t* flags, nghttp2_data_source* source, void*) {
  Stream& s = *static_cast<Stream*>(source->ptr);
  const std::size_t n = std::min(length, s.answer.size());
  *flags |= NGHTTP2_DATA_FLAG_NO_COPY;
  if (n == s.answer.size()) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (s.grpc_trailers) {
      *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;  // the trailers end the stream
      const nghttp2_nv trailers[1] = {nv_kept("grpc-status", "0")};
      if (nghttp2_submit_trailer(session, stream_id, trailers, 1) != 0) return NGHTTP2_ERR_CALLBACK_FAILURE;
    }
  }
  return static_cast<ssize_t>(n);
}

// A DATA frame read_answer sized (NO_COPY): its 9-byte head, then its bytes
// from the stream's answer, appended to `out`. At the output cap nghttp2 is
// told to wait (it calls again with the same frame once `out` drains).
int send_answer(nghttp2_session*, nghttp2_frame* frame, const std::uint8_t* frame_head, std::size_t length,
                nghttp2_data_source* source, void* user) {
  auto& h = *static_cast<Http2Session*>(user);
  Conn& c = *h.c;
  if (c.out.size() >= kMaxPendingOutBytes) {
    h.out_full = true;
    return NGHTTP2_ERR_WOULDBLOCK;
  }
  if (frame->data.padlen != 0) return NGHTTP2_ERR_CALLBACK_FAILURE;  // never asked for (no padding callback)
  Stream& s = *static_cast<Stream*>(source->ptr);
  constexpr std::size_t kFrameHeadBytes = 9;
  std::uint8_t* at = c.out.prepare(kFrameHeadBytes + length);
  std::memcpy(at, frame_head, kFrameHeadBytes);
  std::memcpy(at + kFrameHeadBytes, s.answer.readable().data(), length);
  c.out.commit(kFrameHeadBytes + length);
  s.answer.consume(length);
  return 0;
}

// Submits headers, and the answer's bytes as DATA (none: END_STREAM on the headers).
void submit(Http2Session& h, Stream& s, const nghttp2_nv* headers, std::size_t count, record::Bytes data) {
  s.answered = true;
  s.answer.clear();
  nghttp2_data_provider provider{};
  provider.source.ptr = &s;
  provider.read_callback = read_answer;
  if (!data.empty()) s.answer.append(data.data(), data.size());
  if (nghttp2_submit_response(h.session, s.id, headers, count, data.empty() ? nullptr : &provider) != 0)
    nghttp2_submit_rst_stream(h.session, NGHTTP2_FLAG_NONE, s.id, NGHTTP2_INTERNAL_ERROR);
}

// An HTTP/2 answer: status, content-type, content-length (and a 405's allow).
void respond(Http2Session& h, Stream& s, int status, std::string_view content_type, std::string_view allow,
             record::Bytes body) {
  // content_type and allow are reply_head's or literals; the digits are the stream's.
  const nghttp2_nv headers[4] = {
      nv_kept(":status", digits(s.status_text, static_cast<std::uint64_t>(status))),
      nv_kept("content-type", content_type), nv_kept("content-length", digits(s.length_text, body.size())),
      nv_kept("allow", allow)};
  submit(h, s, headers, allow.empty() ? 3 : 4, body);
}

void respond(Http2Session& h, Stream& s, const Reply& reply) {
  const ReplyHead& head = reply_head(reply.kind);
  respond(h, s, head.status, head.content_type, head.allow, reply.body);
}

// A gRPC error: trailers-only (one HEADERS frame with END_STREAM), with
// grpc-message percent-encoded as gRPC's PROTOCOL-HTTP2 says.
void grpc_error(Http2Session& h, Stream& s, grpc::Status status, std::string_view why) {
  char message[3 * 128];
  std::size_t n = 0;
  for (const char ch : why.substr(0, 128)) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u <= 0x7e && u != '%') {
      message[n++] = ch;
    } else {
      std::snprintf(message + n, 4, "%%%02X", u);
      n += 3;
    }
  }
  char code_buf[24];
  const nghttp2_nv headers[4] = {nv(":status", "200"), nv("content-type", s.content_type()),
                                 nv("grpc-status", digits(code_buf, static_cast<std::uint64_t>(status))),
                                 nv("grpc-message", {message, n})};
  submit(h, s, headers, 4, {});
}

std::string_view as_text(record::Bytes b) noexcept {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// A gRPC call (a POST with a gRPC content type): docs/spec/http2-grpc.md §2.
void grpc_call(Http2Session& h, Stream& s) {
  Context& x = *h.x;
  const std::string_view path = s.path();
  if (path != grpc::kCallPath) {
    x.count(matrix::Framing::http2, Route::other, Outcome::not_found);
    const int n = std::snprintf(x.error_text, sizeof x.error_text, "unknown method %.*s",
                                static_cast<int>(std::min<std::size_t>(path.size(), 100)), path.data());
    return grpc_error(h, s, grpc::Status::unimplemented, {x.error_text, static_cast<std::size_t>(n)});
  }
  const std::string_view body_type = grpc::body_content_type(s.content_type());
  if (body_type.empty()) {
    x.count(matrix::Framing::http2, Route::rpc, Outcome::unsupported_media);
    return grpc_error(h, s, grpc::Status::unimplemented,
                      "no codec of this server serves that content-subtype");
  }
  std::span<const std::uint8_t> message;
  if (const grpc::MessageError e = grpc::unary_message(s.body.readable(), message);
      e != grpc::MessageError::ok) {
    x.error(ErrorKind::grpc_bad_message);
    x.count(matrix::Framing::http2, Route::rpc, Outcome::bad_body);
    return grpc_error(
        h, s, e == grpc::MessageError::compressed ? grpc::Status::internal : grpc::Status::invalid_argument,
        grpc::describe(e));
  }
  Outcome outcome;
  const Reply reply = x.routes.handle_routed(Route::rpc, body_type, message, outcome);
  x.count(matrix::Framing::http2, Route::rpc, outcome);
  switch (reply_head(reply.kind).status) {
    case 200: {
      s.grpc_trailers = true;
      std::uint8_t prefix[grpc::kPrefixBytes];
      grpc::write_prefix(prefix, static_cast<std::uint32_t>(reply.body.size()));
      const nghttp2_nv headers[3] = {
          nv_kept(":status", "200"), nv_kept("content-type", s.content_type()),
          nv_kept("content-length", digits(s.length_text, reply.body.size() + sizeof prefix))};
      // The prefix first, then the message: the one DATA the answer needs.
      submit(h, s, headers, 3, {prefix, sizeof prefix});
      s.answer.append(reply.body.data(), reply.body.size());
      return;
    }
    case 400:
      return grpc_error(h, s, grpc::Status::invalid_argument, as_text(reply.body));
    case 415:  // a codec this build does not have
      return grpc_error(h, s, grpc::Status::unimplemented, as_text(reply.body));
    case 500:
      return grpc_error(h, s, grpc::Status::resource_exhausted, as_text(reply.body));
    default:
      return grpc_error(h, s, grpc::Status::internal, as_text(reply.body));
  }
}

// The request is whole (END_STREAM): answered.
void dispatch(Http2Session& h, Stream& s) {
  Context& x = *h.x;
  const std::string_view method = s.method(), content_type = s.content_type();
  if (grpc::is_grpc(content_type)) {
    if (method == "POST") return grpc_call(h, s);
    x.count(matrix::Framing::http2, Route::other, Outcome::method_not_allowed);
    return respond(h, s, {ReplyKind::post_only, zap::as_bytes("method not allowed")});
  }
  Route route;
  Outcome outcome;
  const Reply reply = x.routes.handle(method, s.path(), content_type, s.body.readable(), route, outcome);
  x.count(matrix::Framing::http2, route, outcome);
  respond(h, s, reply);
}

// A request body past max_body_bytes (announced or arriving): answered at
// once, the rest of it dropped, and the stream reset after the answer.
void body_too_large(Http2Session& h, Stream& s) {
  Context& x = *h.x;
  x.error(ErrorKind::http2_body_too_large);
  if (!s.reset_after_answer) ++h.resets_pending;
  s.reset_after_answer = true;
  s.body.clear();
  const int n = std::snprintf(x.error_text, sizeof x.error_text, "request body over the limit of %llu bytes",
                              static_cast<unsigned long long>(x.limits.max_body_bytes));
  const std::string_view why{x.error_text, static_cast<std::size_t>(n)};
  if (grpc::is_grpc(s.content_type()) && s.method() == "POST")
    return grpc_error(h, s, grpc::Status::resource_exhausted, why);
  respond(h, s, 413, "text/plain; charset=utf-8", {}, zap::as_bytes(why));
}

// ---- nghttp2's callbacks (user_data: the Http2Session) ----------------------

int on_begin_headers(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = h.x->h2->take();
  s->id = frame->hd.stream_id;
  h.link(s);
  nghttp2_session_set_stream_user_data(session, s->id, s);
  return 0;
}

int on_header(nghttp2_session*, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t name_bytes,
              const std::uint8_t* value, std::size_t value_bytes, std::uint8_t, void* user) {
  if (frame->hd.type != NGHTTP2_HEADERS) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = received_stream(h, frame->hd.stream_id);
  if (s == nullptr) return 0;
  // SETTINGS_MAX_HEADER_LIST_SIZE is advisory to the peer; it is enforced
  // here: past it the stream is reset (nghttp2 sends RST_STREAM on this
  // return) and the connection serves on.
  s->header_list_bytes += name_bytes + value_bytes + 32;
  if (s->header_list_bytes > h.x->limits.max_header_bytes) {
    h.x->error(ErrorKind::http2_header_too_large);
    return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  }
  if (frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;  // trailers: counted, not read
  const std::string_view n{reinterpret_cast<const char*>(name), name_bytes};
  const auto keep = [&](std::uint32_t& at, std::uint32_t& bytes) {
    at = static_cast<std::uint32_t>(s->head.size());
    bytes = static_cast<std::uint32_t>(value_bytes);
    s->head.append(value, value_bytes);
  };
  // By length first: one compare per field, none for most (:scheme, :authority, te, ...).
  switch (name_bytes) {
    case 5:
      if (n == ":path") keep(s->path_at, s->path_bytes);
      return 0;
    case 7:
      if (n == ":method") keep(s->method_at, s->method_bytes);
      return 0;
    case 12:
      if (n == "content-type") keep(s->type_at, s->type_bytes);
      return 0;
    case 14:
      break;
    default:
      return 0;
  }
  if (n == "content-length") {
    std::uint64_t v = 0;
    const auto* end = reinterpret_cast<const char*>(value) + value_bytes;
    if (std::from_chars(reinterpret_cast<const char*>(value), end, v).ptr == end) s->content_length = v;
  }
  return 0;
}

int on_data_chunk(nghttp2_session*, std::uint8_t, std::int32_t stream_id, const std::uint8_t* data,
                  std::size_t bytes, void* user) {
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = received_stream(h, stream_id);
  if (s == nullptr || s->answered) return 0;  // a refused body's rest is dropped
  if (s->body.size() + bytes > h.x->limits.max_body_bytes) {
    body_too_large(h, *s);
    return 0;
  }
  s->body.append(data, bytes);
  return 0;
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = received_stream(h, frame->hd.stream_id);
  if (s == nullptr || s->answered) return 0;
  if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
    dispatch(h, *s);
  } else if (frame->hd.type == NGHTTP2_HEADERS && s->content_length != kNoLength &&
             s->content_length > h.x->limits.max_body_bytes) {
    body_too_large(h, *s);  // announced: refused before any of it arrives
  }
  return 0;
}

int on_frame_send(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
  auto& h = *static_cast<Http2Session*>(user);
  if (frame->hd.type == NGHTTP2_GOAWAY) {
    if (frame->goaway.error_code != NGHTTP2_NO_ERROR) h.connection_error();
    return 0;
  }
  // Only a refused request (rare) needs its stream here: no look-up otherwise.
  if (h.resets_pending != 0 && (frame->hd.type == NGHTTP2_DATA || frame->hd.type == NGHTTP2_HEADERS) &&
      (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
    Stream* s = stream_of(session, frame->hd.stream_id);
    if (s != nullptr && s->reset_after_answer) {
      s->reset_after_answer = false;
      --h.resets_pending;
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, s->id, NGHTTP2_CANCEL);
    }
  }
  return 0;
}

int on_stream_close(nghttp2_session* session, std::int32_t stream_id, std::uint32_t, void* user) {
  Stream* s = stream_of(session, stream_id);
  if (s == nullptr) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  // nghttp2 drops the closed stream, its user data with it (no closed streams
  // are kept: no_closed_streams, and no RFC 7540 priorities), so nothing can
  // reach `s` through it after this.
  if (s->reset_after_answer) --h.resets_pending;
  h.unlink(s);
  h.x->h2->give(s);
  return 0;
}

// nghttp2's pending output into `out` until the cap; true when none is left
// (false: more waits for `out` to drain).
bool pump(Http2Session& h, Conn& c) {
  while (c.out.size() < kMaxPendingOutBytes) {
    const std::uint8_t* data = nullptr;
    const ssize_t n = nghttp2_session_mem_send(h.session, &data);
    if (n < 0) {  // only fatal errors (out of memory, a callback failure): the connection ends
      h.connection_error();
      c.closing = true;
      c.in.clear();
      return true;
    }
    if (n == 0) {
      // Nothing more to send now — unless a DATA frame waits for `out` to
      // drain (send_answer at the cap): then the connection is held, and
      // answered on as the client reads. (Answers waiting on a flow-control
      // window are not held: the peer's WINDOW_UPDATE arrives as input.)
      const bool full = h.out_full;
      h.out_full = false;
      return !full;
    }
    c.out.append(data, static_cast<std::size_t>(n));
  }
  return nghttp2_session_want_write(h.session) == 0;
}

}  // namespace

std::unique_ptr<Http2Thread, Http2ThreadDelete> Http2Wire::make_thread(const Config& config) {
  std::unique_ptr<Http2Thread, Http2ThreadDelete> t(new Http2Thread);
  nghttp2_session_callbacks* cb = nullptr;
  nghttp2_option* opt = nullptr;
  if (nghttp2_session_callbacks_new(&cb) != 0 || nghttp2_option_new(&opt) != 0) throw std::bad_alloc();
  t->callbacks = cb;
  t->option = opt;
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cb, on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, on_frame_recv);
  nghttp2_session_callbacks_set_on_frame_send_callback(cb, on_frame_send);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, on_stream_close);
  nghttp2_session_callbacks_set_send_data_callback(cb, send_answer);
  // The hostile-peer bounds (docs/spec/http2-grpc.md §3).
  nghttp2_option_set_max_outbound_ack(opt, net::h2::kMaxOutboundAcks);
  nghttp2_option_set_max_settings(opt, net::h2::kMaxSettingsEntries);
  nghttp2_option_set_max_continuations(opt, net::h2::kMaxContinuations);
  nghttp2_option_set_stream_reset_rate_limit(opt, net::h2::kStreamResetBurst, net::h2::kStreamResetPerSecond);
  // Closed streams are not kept for priority bookkeeping (RFC 9113 drops it):
  // nothing outlives its stream.
  nghttp2_option_set_no_closed_streams(opt, 1);
  const std::uint32_t header_list =
      static_cast<std::uint32_t>(std::min<std::size_t>(config.limits.max_header_bytes, 0xffffffffu));
  t->settings[0] = {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, net::h2::kMaxConcurrentStreams};
  t->settings[1] = {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE,
                    static_cast<std::uint32_t>(net::h2::kStreamWindowBytes)};
  t->settings[2] = {NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE, header_list};
  // No RFC 7540 priorities (RFC 9218 §2.1; RFC 9113 deprecates them): nghttp2
  // then schedules streams without its dependency tree (no tree insert and
  // removal per stream) whether or not the client sends the setting too
  // (nghttp2's server fallback is off unless asked for).
  t->settings[3] = {NGHTTP2_SETTINGS_NO_RFC7540_PRIORITIES, 1};
  return t;
}

bool Http2Wire::open(Context& x, Conn& c) {
  Http2Thread& t = *x.h2;
  auto* h = new Http2Session;  // per connection, never per request
  h->x = &x;
  h->c = &c;
  if (nghttp2_session_server_new3(&h->session, t.callbacks, h, t.option, t.mem.mem()) != 0) {
    delete h;
    return false;
  }
  c.h2 = h;
  if (nghttp2_submit_settings(h->session, NGHTTP2_FLAG_NONE, t.settings, std::size(t.settings)) != 0 ||
      nghttp2_session_set_local_window_size(h->session, NGHTTP2_FLAG_NONE, 0,
                                            net::h2::kConnectionWindowBytes) != 0) {
    close(x, c);
    return false;
  }
  pump(*h, c);
  return true;
}

void Http2Wire::close(Context& x, Conn& c) noexcept {
  Http2Session* h = c.h2;
  if (h == nullptr) return;
  // nghttp2_session_del calls no stream-close callback: the streams still
  // open go back to the thread here.
  while (h->open != nullptr) {
    Stream* s = h->open;
    h->unlink(s);
    x.h2->give(s);
  }
  nghttp2_session_del(h->session);
  delete h;
  c.h2 = nullptr;
}

std::uint64_t Http2Wire::pool_mallocs(const Context& x) noexcept { return x.h2->mem.system_allocations(); }

template <>
void answer_ready<Http2Wire>(Context&, Conn& c, std::int64_t) {
  c.held = false;
  Http2Session* h = c.h2;
  if (h == nullptr) return;
  if (!pump(*h, c)) {
    c.held = true;
    return;
  }
  while (!c.closing && !c.in.empty()) {
    if (must_hold<Http2Wire>(c)) {
      c.held = true;
      return;
    }
    const std::size_t slice = std::min(c.in.size(), Http2Wire::kFeedBytes);
    const ssize_t n = nghttp2_session_mem_recv(h->session, c.in.readable().data(), slice);
    if (n < 0) {
      // A connection error nghttp2 has not answered itself (a bad preface,
      // a flood): GOAWAY, then close. A flood past one of nghttp2's bounds
      // (outbound ACKs, CONTINUATIONs of one block) is ENHANCE_YOUR_CALM, as
      // RFC 9113 §5.4.1 names excessive load; anything else PROTOCOL_ERROR.
      h->connection_error();
      const bool flood = n == NGHTTP2_ERR_FLOODED || n == NGHTTP2_ERR_TOO_MANY_CONTINUATIONS;
      nghttp2_session_terminate_session(h->session,
                                        flood ? NGHTTP2_ENHANCE_YOUR_CALM : NGHTTP2_PROTOCOL_ERROR);
      c.in.clear();
      c.held = !pump(*h, c);
      c.closing = true;
      return;
    }
    c.in.consume(slice);
    if (!pump(*h, c)) {
      c.held = true;
      return;
    }
  }
  // Both sides done (a GOAWAY sent or received, every stream closed): close
  // once `out` is flushed.
  if (!c.closing && nghttp2_session_want_read(h->session) == 0 &&
      nghttp2_session_want_write(h->session) == 0) {
    c.closing = true;
    c.in.clear();
  }
}

}  // namespace server
