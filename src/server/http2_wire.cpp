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

#include "grpc_services/services.hpp"
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
  // A gRPC call's method and body content type (net::grpc::kSubtypes' own
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

// A failed stream's trailers: its grpc-status and grpc-message.
[[gnu::cold]] bool failed_trailers(nghttp2_session* session, Stream& s) {
  const nghttp2_nv trailers[2] = {
      nv_kept("grpc-status", digits(s.trailer_status_text, static_cast<std::uint64_t>(s.trailer_status))),
      nv_kept("grpc-message", s.trailer_message)};
  return nghttp2_submit_trailer(session, s.id, trailers, s.trailer_message.empty() ? 1 : 2) == 0;
}

// The DATA of an answer: the stream's answer bytes, then (gRPC) the trailers.
// NGHTTP2_DATA_FLAG_NO_COPY: nghttp2 takes only the length and flags here,
// and send_answer writes the frame, from the stream's bytes straight into
// the connection's output (no copy into nghttp2's frame buffer).
ssize_t read_answer(nghttp2_session* session, std::int32_t stream_id, std::uint8_t*, std::size_t length,
                    std::uint32_t* flags, nghttp2_data_source* source, void*) {
  Stream& s = *static_cast<Stream*>(source->ptr);
  const std::size_t n = std::min(length, s.answer.size());
  if (n == 0 && s.streaming) return NGHTTP2_ERR_DEFERRED;  // resumed by the next message, or the end
  *flags |= NGHTTP2_DATA_FLAG_NO_COPY;
  if (n == s.answer.size() && !s.streaming) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (s.grpc_trailers) {
      *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;  // the trailers end the stream
      if (s.trailer_status == grpc::Status::ok) {
        static const nghttp2_nv kOk[1] = {nv_kept("grpc-status", "0")};
        if (nghttp2_submit_trailer(session, stream_id, kOk, 1) != 0) return NGHTTP2_ERR_CALLBACK_FAILURE;
      } else if (!failed_trailers(session, s)) {
        return NGHTTP2_ERR_CALLBACK_FAILURE;
      }
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
  std::uint8_t* at = c.out.prepare(kFrameHeadBytes + length);
  std::memcpy(at, frame_head, kFrameHeadBytes);
  std::memcpy(at + kFrameHeadBytes, s.answer.readable().data(), length);
  c.out.commit(kFrameHeadBytes + length);
  s.answer.consume(length);
  return 0;
}

// Submits headers, and the answer's bytes as DATA (none, and not a
// streaming answer: END_STREAM on the headers).
void submit(Http2Session& h, Stream& s, const nghttp2_nv* headers, std::size_t count, record::Bytes data) {
  s.answered = true;
  s.answer.clear();
  nghttp2_data_provider provider{};
  provider.source.ptr = &s;
  provider.read_callback = read_answer;
  if (!data.empty()) s.answer.append(data.data(), data.size());
  const bool body = !data.empty() || s.streaming;
  if (nghttp2_submit_response(h.session, s.id, headers, count, body ? &provider : nullptr) != 0)
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

// gRPC's grpc-message: percent-encoded as PROTOCOL-HTTP2 says, at most 128
// bytes of `why` (so at most 384 bytes) into `out`; its length.
std::size_t percent_encode(std::string_view why, char (&out)[3 * 128]) noexcept {
  std::size_t n = 0;
  for (const char ch : why.substr(0, 128)) {
    const auto u = static_cast<unsigned char>(ch);
    if (u >= 0x20 && u <= 0x7e && u != '%') {
      out[n++] = ch;
    } else {
      std::snprintf(out + n, 4, "%%%02X", u);
      n += 3;
    }
  }
  return n;
}

// A gRPC error: trailers-only (one HEADERS frame with END_STREAM).
[[gnu::cold]] void grpc_error(Http2Session& h, Stream& s, grpc::Status status, std::string_view why) {
  char message[3 * 128];
  const std::size_t n = percent_encode(why, message);
  char code_buf[24];
  const nghttp2_nv headers[4] = {nv(":status", "200"), nv("content-type", s.content_type()),
                                 nv("grpc-status", digits(code_buf, static_cast<std::uint64_t>(status))),
                                 nv("grpc-message", {message, n})};
  submit(h, s, headers, 4, {});
}

// A gRPC answer of one message: its prefix and bytes as the one DATA frame,
// then trailers grpc-status 0.
inline void grpc_answer(Http2Session& h, Stream& s, record::Bytes message) {
  s.grpc_trailers = true;
  std::uint8_t prefix[grpc::kPrefixBytes];
  grpc::write_prefix(prefix, static_cast<std::uint32_t>(message.size()));
  const nghttp2_nv headers[3] = {
      nv_kept(":status", "200"), nv_kept("content-type", s.content_type()),
      nv_kept("content-length", digits(s.length_text, message.size() + sizeof prefix))};
  submit(h, s, headers, 3, {prefix, sizeof prefix});
  s.answer.append(message.data(), message.size());
}

std::string_view as_text(record::Bytes b) noexcept {
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// The stream is reset with `code` once its answer is sent (the request's rest
// is not read): counted once per stream.
void reset_after_answer(Http2Session& h, Stream& s, std::uint32_t code) noexcept {
  if (!s.reset_after_answer) ++h.resets_pending;
  s.reset_after_answer = true;
  s.reset_code = code;
}

// A gRPC call answered at its headers (an error, trailers-only): when the
// client has not ended its side, the stream is then reset with NO_ERROR
// (RFC 9113 §8.1: the answer is complete, the rest of the request unwanted),
// so whatever the client sends next is dropped, and bounded.
[[gnu::cold]] void grpc_refuse(Http2Session& h, Stream& s, bool request_ended, grpc::Status status,
                               std::string_view why) {
  grpc_error(h, s, status, why);
  if (!request_ended) reset_after_answer(h, s, NGHTTP2_NO_ERROR);
}

// A gRPC call's headers, whole (END_HEADERS): the method, the content-subtype
// and `te` judged at once, as grpc-go and grpc++ do, whatever the client
// sends next (docs/spec/http2-grpc.md §2). True when the call was answered
// here or is a stream that takes its messages from here on; false: answered
// at END_STREAM (grpc_call).
bool grpc_headers(Http2Session& h, Stream& s, bool request_ended) {
  Context& x = *h.x;
  if (s.method() != "POST") {
    x.count(matrix::Framing::http2, Route::other, Outcome::method_not_allowed);
    respond(h, s, {ReplyKind::post_only, zap::as_bytes("method not allowed")});
    if (!request_ended) reset_after_answer(h, s, NGHTTP2_NO_ERROR);
    return true;
  }
  const std::string_view path = s.path();
  const grpc_services::Method method = grpc_services::method_of(path);
  if (method == grpc_services::Method::unknown || method == grpc_services::Method::health_watch) {
    x.count(matrix::Framing::http2, Route::other, Outcome::not_found);
    const int n = std::snprintf(x.error_text, sizeof x.error_text, "unknown method %.*s",
                                static_cast<int>(std::min<std::size_t>(path.size(), 100)), path.data());
    grpc_refuse(h, s, request_ended, grpc::Status::unimplemented,
                {x.error_text, static_cast<std::size_t>(n)});
    return true;
  }
  const std::string_view body_type = grpc::body_content_type(s.content_type());
  const bool call = method == grpc_services::Method::call;
  // The probe services speak protobuf only (application/grpc, or +proto).
  if (body_type.empty() || (!call && body_type != grpc::kSubtypes[0].body_content_type)) {
    x.count(matrix::Framing::http2, call ? Route::rpc : Route::other, Outcome::unsupported_media);
    grpc_refuse(h, s, request_ended, grpc::Status::unimplemented,
                call ? "no codec of this server serves that content-subtype"
                     : "this method is served in protobuf only (application/grpc)");
    return true;
  }
  if (!s.has_te) {
    x.count(matrix::Framing::http2, call ? Route::rpc : Route::other, Outcome::bad_body);
    grpc_refuse(h, s, request_ended, grpc::Status::internal,
                "a gRPC call without te: trailers (a proxy between may drop trailers)");
    return true;
  }
  s.grpc_method = method;
  s.grpc_body_type = body_type;
  if (!grpc_services::streams(method)) return false;
  // Reflection: the answer's headers now, its messages as the requests arrive.
  s.streaming = true;
  s.grpc_trailers = true;
  x.count(matrix::Framing::http2, Route::other, Outcome::ok);
  const nghttp2_nv headers[2] = {nv_kept(":status", "200"), nv_kept("content-type", s.content_type())};
  submit(h, s, headers, 2, {});
  return true;
}

// Ends a streaming call: the trailers with `status` follow the answers made.
[[gnu::cold]] void end_stream_call(Http2Session& h, Stream& s, bool request_ended, grpc::Status status,
                                   std::string_view why) {
  s.streaming = false;
  s.body.clear();
  s.trailer_status = status;
  if (status != grpc::Status::ok) {
    char message[3 * 128];
    s.trailer_message.assign(message, percent_encode(why, message));
    if (!request_ended) reset_after_answer(h, s, NGHTTP2_NO_ERROR);
  }
  nghttp2_session_resume_data(h.session, s.id);
}

// A streaming call's messages received so far, each answered (reflection):
// whole messages are taken from the body, a partial one waits for its rest.
[[gnu::cold]] void stream_messages(Http2Session& h, Stream& s, bool request_ended) {
  Context& x = *h.x;
  const std::span<const std::uint8_t> in = s.body.readable();
  std::size_t at = 0;
  std::string answer;
  while (in.size() - at >= grpc::kPrefixBytes) {
    const std::span<const std::uint8_t> rest = in.subspan(at);
    const std::uint64_t n = (std::uint64_t{rest[1]} << 24) | (std::uint64_t{rest[2]} << 16) |
                            (std::uint64_t{rest[3]} << 8) | std::uint64_t{rest[4]};
    if (n > rest.size() - grpc::kPrefixBytes) break;  // its rest has not arrived
    std::span<const std::uint8_t> message;
    const grpc::MessageError e = grpc::unary_message(rest.first(grpc::kPrefixBytes + n), message);
    if (e != grpc::MessageError::ok) {
      x.error(ErrorKind::grpc_bad_message);
      return end_stream_call(
          h, s, request_ended,
          e == grpc::MessageError::compressed ? grpc::Status::internal : grpc::Status::invalid_argument,
          grpc::describe(e));
    }
    std::string why;
    if (const grpc::Status status = grpc_services::reflect(message, answer, why); status != grpc::Status::ok)
      return end_stream_call(h, s, request_ended, status, why);
    std::uint8_t prefix[grpc::kPrefixBytes];
    grpc::write_prefix(prefix, static_cast<std::uint32_t>(answer.size()));
    s.answer.append(prefix, sizeof prefix);
    s.answer.append(answer.data(), answer.size());
    at += grpc::kPrefixBytes + n;
  }
  s.body.consume(at);
  if (request_ended) {
    if (!s.body.empty())
      return end_stream_call(h, s, true, grpc::Status::invalid_argument,
                             "a message cut short by the end of the stream");
    return end_stream_call(h, s, true, grpc::Status::ok, {});
  }
  nghttp2_session_resume_data(h.session, s.id);
}

// A unary gRPC call, whole (END_STREAM); its headers passed grpc_headers.
void grpc_call(Http2Session& h, Stream& s) {
  Context& x = *h.x;
  const bool call = s.grpc_method == grpc_services::Method::call;
  std::span<const std::uint8_t> message;
  if (const grpc::MessageError e = grpc::unary_message(s.body.readable(), message);
      e != grpc::MessageError::ok) {
    x.error(ErrorKind::grpc_bad_message);
    x.count(matrix::Framing::http2, call ? Route::rpc : Route::health, Outcome::bad_body);
    return grpc_error(
        h, s, e == grpc::MessageError::compressed ? grpc::Status::internal : grpc::Status::invalid_argument,
        grpc::describe(e));
  }
  if (!call) {  // Health/Check
    std::string answer, why;
    const grpc::Status status = grpc_services::health_check(message, answer, why);
    x.count(matrix::Framing::http2, Route::health,
            status == grpc::Status::ok ? Outcome::ok : Outcome::not_found);
    if (status != grpc::Status::ok) return grpc_error(h, s, status, why);
    return grpc_answer(h, s, zap::as_bytes(answer));
  }
  Outcome outcome;
  const Reply reply = x.routes.handle_routed(Route::rpc, s.grpc_body_type, message, outcome);
  x.count(matrix::Framing::http2, Route::rpc, outcome);
  switch (reply_head(reply.kind).status) {
    case 200:
      return grpc_answer(h, s, reply.body);
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
  if (s.grpc_method != grpc_services::Method::unknown)
    return grpc_call(h, s);  // its headers passed grpc_headers
  Context& x = *h.x;
  Route route;
  Outcome outcome;
  const Reply reply =
      x.routes.handle(s.method(), s.path(), s.content_type(), s.body.readable(), route, outcome);
  x.count(matrix::Framing::http2, route, outcome);
  respond(h, s, reply);
}

// A request refused unread, past one of the server's limits: answered at
// once (413 or 431, as HTTP/1.1 answers them; a gRPC call RESOURCE_EXHAUSTED),
// the rest of it dropped, and the stream reset after the answer.
[[gnu::cold]] void refuse(Http2Session& h, Stream& s, int status, const char* what, std::size_t limit_bytes) {
  Context& x = *h.x;
  reset_after_answer(h, s, NGHTTP2_CANCEL);
  s.body.clear();
  const int n = std::snprintf(x.error_text, sizeof x.error_text, "%s over the limit of %llu bytes", what,
                              static_cast<unsigned long long>(limit_bytes));
  const std::string_view why{x.error_text, static_cast<std::size_t>(n)};
  if (grpc::is_grpc(s.content_type()) && s.method() == "POST")
    return grpc_error(h, s, grpc::Status::resource_exhausted, why);
  respond(h, s, status, "text/plain; charset=utf-8", {}, zap::as_bytes(why));
}

// A request body past max_body_bytes (announced or arriving): 413.
void body_too_large(Http2Session& h, Stream& s) {
  h.x->error(ErrorKind::http2_body_too_large);
  refuse(h, s, 413, "request body", h.x->limits.max_body_bytes);
}

// ---- nghttp2's callbacks (user_data: the Http2Session) ----------------------

int on_begin_headers(nghttp2_session* session, const nghttp2_frame* frame, void* user) {
  if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = h.x->h2->take();
  s->id = frame->hd.stream_id;
  h.see(s->id);
  h.opened |= 1;  // bit 0: last_id, this stream
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
  // here: past it the rest of the fields are decoded (HPACK's state) and
  // dropped, and the request is answered 431 at the end of its header block
  // (RFC 9110 §5.4, as HTTP/1.1 answers a head over the same limit); the
  // connection serves on.
  s->header_list_bytes += name_bytes + value_bytes + 32;
  if (s->header_list_bytes > h.x->limits.max_header_bytes) {
    if (!s->head_too_large) h.x->error(ErrorKind::http2_header_too_large);
    s->head_too_large = true;
    return 0;
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
    case 2:
      if (n == "te") s->has_te = true;
      return 0;
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
  if (s == nullptr || (s->answered && !s->streaming)) return 0;  // a refused body's rest is dropped
  if (s->body.size() + bytes > h.x->limits.max_body_bytes) {
    if (s->streaming) {  // one message (or the bytes of several not yet taken) past the limit
      h.x->error(ErrorKind::http2_body_too_large);
      end_stream_call(h, *s, false, grpc::Status::resource_exhausted,
                      "a message over the server's body limit");
    } else {
      body_too_large(h, *s);
    }
    return 0;
  }
  s->body.append(data, bytes);
  return 0;
}

int on_frame_recv(nghttp2_session*, const nghttp2_frame* frame, void* user) {
  if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA) return 0;
  auto& h = *static_cast<Http2Session*>(user);
  Stream* s = received_stream(h, frame->hd.stream_id);
  if (s == nullptr) return 0;
  const bool ended = (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0;
  if (s->answered) {
    if (s->streaming) stream_messages(h, *s, ended);
    return 0;
  }
  if (s->head_too_large) {
    refuse(h, *s, 431, "request header list", h.x->limits.max_header_bytes);
  } else if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST &&
             grpc::is_grpc(s->content_type()) && grpc_headers(h, *s, ended)) {
    if (s->streaming && ended) stream_messages(h, *s, true);  // a stream of no messages
  } else if (ended) {
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
  if (frame->hd.type == NGHTTP2_RST_STREAM) {
    h.reset_by_server(frame->hd.stream_id);
    return 0;
  }
  // Only a refused request (rare) needs its stream here: no look-up otherwise.
  if (h.resets_pending != 0 && (frame->hd.type == NGHTTP2_DATA || frame->hd.type == NGHTTP2_HEADERS) &&
      (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) != 0) {
    Stream* s = stream_of(session, frame->hd.stream_id);
    if (s != nullptr && s->reset_after_answer) {
      s->reset_after_answer = false;
      --h.resets_pending;
      nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, s->id, s->reset_code);
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

// ---- the frame heads read ahead of nghttp2 -----------------------------------
//
// nghttp2 keeps no closed streams here (no_closed_streams) and no RFC 7540
// priorities (NO_RFC7540_PRIORITIES), which spares a tree and a list per
// stream, but then it ignores, unanswered, what RFC 9113 makes an error: a
// DATA or HEADERS frame on a closed stream (§5.1: STREAM_CLOSED), a HEADERS
// frame opening a stream below one already opened (§5.1.1: PROTOCOL_ERROR), a
// PRIORITY frame on stream 0 (§6.3) or one depending on its own stream
// (§5.3.1: PROTOCOL_ERROR). So the wire reads each frame's head before nghttp2
// does and judges those frames itself, at the moment nghttp2 would: a DATA or
// HEADERS frame on a stream already named is fed to nghttp2 only after every
// frame before it (it may be the one that closed the stream). The answers are
// nghttp2's own where it still knows the stream (a connection error, GOAWAY),
// so they are the same whether or not the stream is still open. docs/spec/http2-grpc.md §3.

constexpr std::size_t kPriorityPayloadBytes = 5;

// The connection error for a frame on stream `id` that nghttp2 would let
// pass; false when the frame is fine (nghttp2 judges the rest).
[[gnu::noinline]] bool frame_on_gone_stream(Http2Session& h, std::int32_t id) noexcept {
  if (id > h.last_id) return false;                             // a new stream: nghttp2's
  if (h.recent != nullptr && h.recent->id == id) return false;  // open
  if (stream_of(h.session, id) != nullptr) return false;        // open: nghttp2 judges its state
  const std::uint64_t b = h.bit(id);
  if (b == 0 || (h.reset_sent & b) != 0) return false;  // too old to know, or reset by us: ignored
  nghttp2_session_terminate_session(h.session,
                                    (h.opened & b) != 0 ? NGHTTP2_STREAM_CLOSED : NGHTTP2_PROTOCOL_ERROR);
  return true;
}

// After a connection error of ours: nghttp2 ignores every byte from here
// (terminate_session), so they are passed to it unread.
std::size_t pass_the_rest(Http2Session& h) noexcept {
  h.pass_bytes = ~std::uint64_t{0};
  return kFrameHeadBytes;
}

// How many of `in`'s bytes to feed nghttp2 now (at most kFeedBytes): every
// frame up to the next one that must be judged after them; 0 when a frame
// head (or a PRIORITY frame, judged by its payload) is not whole yet.
std::size_t next_run(Http2Session& h, std::span<const std::uint8_t> in) noexcept {
  const std::size_t cap = std::min(in.size(), Http2Wire::kFeedBytes);
  std::size_t run = 0;
  if (h.pass_bytes != 0) {  // the rest of a frame begun in an earlier run
    run = static_cast<std::size_t>(std::min<std::uint64_t>(h.pass_bytes, cap));
    h.pass_bytes -= run;
  }
  // The streams this run's HEADERS frames open (bit k: run_floor + 1 + 2k):
  // their DATA and trailers in the same run need no judging, as within one
  // nghttp2_session_mem_recv nothing closes a stream but the client's
  // RST_STREAM (after one, every stream of the run is judged again). So the
  // requests of a run go to nghttp2 together, whatever order their frames
  // are in; a run opens at most 64 streams.
  std::int32_t run_floor = h.passed_max_id;
  std::uint64_t opened_in_run = 0;
  while (run < cap && in.size() - run >= kFrameHeadBytes) {
    const std::uint8_t* head = in.data() + run;
    const std::uint32_t length = (std::uint32_t{head[0]} << 16) | (std::uint32_t{head[1]} << 8) | head[2];
    const std::uint8_t type = head[3];
    const auto id =
        static_cast<std::int32_t>(((std::uint32_t{head[5]} << 24) | (std::uint32_t{head[6]} << 16) |
                                   (std::uint32_t{head[7]} << 8) | head[8]) &
                                  0x7fffffffu);
    if (type <= NGHTTP2_HEADERS && (id & 1) != 0) {  // DATA or HEADERS on a client's stream
      const auto k =
          static_cast<std::uint32_t>((std::int64_t{id} - run_floor - 1) >> 1);  // when id > run_floor
      if (id > h.passed_max_id) {  // a new stream (nghttp2 judges whether it may be)
        if (type == NGHTTP2_HEADERS) {
          std::uint32_t bit = k;
          if (bit >= 64) {
            if (run != 0) break;  // the run has opened enough
            run_floor = id - 1;   // a run's first frame: its window starts here
            bit = 0;
          }
          opened_in_run |= std::uint64_t{1} << bit;
          h.passed_max_id = id;
        }
      } else if (id <= run_floor || (opened_in_run & (std::uint64_t{1} << k)) == 0) {
        if (run != 0) break;  // judged once the frames before it are in
        if (frame_on_gone_stream(h, id)) return pass_the_rest(h);
      }
    } else if (type == NGHTTP2_RST_STREAM) {
      run_floor = h.passed_max_id;
      opened_in_run = 0;
    } else if (type == NGHTTP2_PRIORITY && length == kPriorityPayloadBytes) {
      if (in.size() - run < kFrameHeadBytes + kPriorityPayloadBytes) break;
      const std::uint8_t* p = head + kFrameHeadBytes;
      const auto depends_on = static_cast<std::int32_t>(
          ((std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3]) &
          0x7fffffffu);
      if (id == 0 || depends_on == id) {
        if (run != 0) break;  // the frames before it are served first
        nghttp2_session_terminate_session(h.session, NGHTTP2_PROTOCOL_ERROR);
        return pass_the_rest(h);
      }
    }
    const std::uint64_t frame_bytes = kFrameHeadBytes + std::uint64_t{length};
    if (frame_bytes > cap - run) {  // it ends in a later run
      h.pass_bytes = frame_bytes - (cap - run);
      return cap;
    }
    run += static_cast<std::size_t>(frame_bytes);
  }
  return run;
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
    const std::size_t slice = next_run(*h, c.in.readable());
    if (slice == 0) break;  // a frame head not whole yet: the next read brings the rest
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
