// server/http2_grpc.cpp — gRPC on the server's HTTP/2 wire
// (docs/spec/http2-grpc.md §2): a call judged at its headers (method,
// content-subtype, te), a unary call answered by /rpc's handler or
// grpc.health.v1's Check, a streaming call (reflection) answered message by
// message, and the gRPC errors and trailers. Owns no frames and no
// session: it answers through http2_wire.cpp's submit and respond.
#include <algorithm>
#include <cstdio>
#include <string>

#include "server/http2_session.hpp"

namespace server::http2 {

// A gRPC call names its body codec by a content-subtype keyed by the content
// type HTTP would carry (wire/grpc.hpp), so the two lists must agree: every
// codec the build can have needs a subtype, and a subtype names no content
// type that codecs.table does not have.
static_assert(
    [] {
      for (const record::table::Row& row : record::table::kRows)
        if (grpc::grpc_content_type(row.content_type).empty()) return false;
      return true;
    }(),
    "a content type of codecs.table has no gRPC content-subtype (wire::grpc::kSubtypes)");
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
    "wire::grpc::kSubtypes names a content type that codecs.table does not have");

namespace {

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

// A gRPC answer of one message: its prefix and bytes as the one DATA frame,
// then trailers grpc-status 0.
void grpc_answer(Http2Session& h, Stream& s, record::Bytes message) {
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

// A gRPC call answered at its headers (an error, trailers-only): when the
// client has not ended its side, the stream is then reset with NO_ERROR
// (RFC 9113 §8.1: the answer is complete, the rest of the request unwanted),
// so whatever the client sends next is dropped, and bounded.
[[gnu::cold]] void grpc_refuse(Http2Session& h, Stream& s, bool request_ended, grpc::Status status,
                               std::string_view why) {
  grpc_error(h, s, status, why);
  if (!request_ended) reset_after_answer(h, s, NGHTTP2_NO_ERROR);
}

}  // namespace

// A failed stream's trailers: its grpc-status and grpc-message.
[[gnu::cold]] bool failed_trailers(nghttp2_session* session, Stream& s) {
  const nghttp2_nv trailers[2] = {
      nv_kept("grpc-status", digits(s.trailer_status_text, static_cast<std::uint64_t>(s.trailer_status))),
      nv_kept("grpc-message", s.trailer_message)};
  return nghttp2_submit_trailer(session, s.id, trailers, s.trailer_message.empty() ? 1 : 2) == 0;
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

}  // namespace server::http2
