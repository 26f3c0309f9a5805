// server/http2_wire.cpp — the server's HTTP/2 and gRPC glue (Http2Wire,
// docs/spec/http2-grpc.md): one nghttp2 server session per connection, made
// with the worker thread's allocator (wire::h2::MemPool), fed from the
// connection's input and writing into its `out`; per stream, the request's
// :method, :path, content-type and body in a reusable Stream (a per-thread
// free list, so a warm thread allocates nothing per request); on END_STREAM
// the same routes as HTTP/1.1 (Routes::handle), or for a gRPC call /rpc's
// handler (Routes::handle_routed) on the message without its prefix, the
// answer with its prefix and the grpc-status trailers. nghttp2 does the
// frames, HPACK, flow control and the hostile-peer bounds (wire/http2.hpp).
//
// The gRPC calls are http2_grpc.cpp's, the frame heads read ahead of nghttp2
// http2_read_ahead.cpp's; what the three share is http2_session.hpp.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "server/http2_session.hpp"

namespace server {

void Http2ThreadDelete::operator()(Http2Thread* t) const noexcept { delete t; }

namespace http2 {
namespace {

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

}  // namespace

// ---- the answers (http2_session.hpp declares them: the gRPC calls answer with them too)

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

void reset_after_answer(Http2Session& h, Stream& s, std::uint32_t code) noexcept {
  if (!s.reset_after_answer) ++h.resets_pending;
  s.reset_after_answer = true;
  s.reset_code = code;
}

namespace {

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
}  // namespace http2

std::unique_ptr<Http2Thread, Http2ThreadDelete> Http2Wire::make_thread(const Config& config) {
  std::unique_ptr<Http2Thread, Http2ThreadDelete> t(new Http2Thread);
  nghttp2_session_callbacks* cb = nullptr;
  nghttp2_option* opt = nullptr;
  if (nghttp2_session_callbacks_new(&cb) != 0 || nghttp2_option_new(&opt) != 0) throw std::bad_alloc();
  t->callbacks = cb;
  t->option = opt;
  nghttp2_session_callbacks_set_on_begin_headers_callback(cb, http2::on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cb, http2::on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, http2::on_data_chunk);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cb, http2::on_frame_recv);
  nghttp2_session_callbacks_set_on_frame_send_callback(cb, http2::on_frame_send);
  nghttp2_session_callbacks_set_on_stream_close_callback(cb, http2::on_stream_close);
  nghttp2_session_callbacks_set_send_data_callback(cb, http2::send_answer);
  // The hostile-peer bounds (docs/spec/http2-grpc.md §3).
  nghttp2_option_set_max_outbound_ack(opt, wire::h2::kMaxOutboundAcks);
  nghttp2_option_set_max_settings(opt, wire::h2::kMaxSettingsEntries);
  nghttp2_option_set_max_continuations(opt, wire::h2::kMaxContinuations);
  nghttp2_option_set_stream_reset_rate_limit(opt, wire::h2::kStreamResetBurst,
                                             wire::h2::kStreamResetPerSecond);
  // Closed streams are not kept for priority bookkeeping (RFC 9113 drops it):
  // nothing outlives its stream.
  nghttp2_option_set_no_closed_streams(opt, 1);
  const std::uint32_t header_list =
      static_cast<std::uint32_t>(std::min<std::size_t>(config.limits.max_header_bytes, 0xffffffffu));
  t->settings[0] = {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, wire::h2::kMaxConcurrentStreams};
  t->settings[1] = {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE,
                    static_cast<std::uint32_t>(wire::h2::kStreamWindowBytes)};
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
                                            wire::h2::kConnectionWindowBytes) != 0) {
    close(x, c);
    return false;
  }
  http2::pump(*h, c);
  return true;
}

void Http2Wire::close(Context& x, Conn& c) noexcept {
  Http2Session* h = c.h2;
  if (h == nullptr) return;
  // nghttp2_session_del calls no stream-close callback: the streams still
  // open go back to the thread here.
  while (h->open != nullptr) {
    http2::Stream* s = h->open;
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
  if (!http2::pump(*h, c)) {
    c.held = true;
    return;
  }
  while (!c.closing && !c.in.empty()) {
    if (must_hold<Http2Wire>(c)) {
      c.held = true;
      return;
    }
    const std::size_t slice = http2::next_run(*h, c.in.readable());
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
      c.held = !http2::pump(*h, c);
      c.closing = true;
      return;
    }
    c.in.consume(slice);
    if (!http2::pump(*h, c)) {
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
