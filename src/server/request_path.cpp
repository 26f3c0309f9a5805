// server/request_path.cpp — the wire policies' steps (HTTP/1.1, ZAP-HTTP,
// ZAP-RPC) and answer_ready(): the per-request code the worker and the
// microbenchmark share (request_path.hpp).
#include "server/request_path.hpp"

#include <cstdio>

namespace server {

namespace {
std::string_view text(record::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

void count(Context& x, matrix::Framing w, Route route, Outcome outcome) { x.count(w, route, outcome); }

// The routes answer one request; its route and outcome are counted.
Reply answer(Context& x, matrix::Framing w, std::string_view method, std::string_view target,
             std::string_view content_type, record::Bytes body, Outcome& outcome) {
  Route route;
  const Reply reply = x.routes.handle(method, target, content_type, body, route, outcome);
  count(x, w, route, outcome);
  return reply;
}

// An answer whose frame would be over the ZAP frame limit, which holds both
// ways on ZAP-HTTP and ZAP-RPC (a /logs answer under a response limit above
// it): counted as too large instead of its outcome, and answered with the
// same clean 500 as over the response limit; returns the 500's text.
record::Bytes over_frame_limit(Context& x, Outcome outcome, std::size_t body_bytes) {
  --x.counters.outcomes[static_cast<int>(outcome)];
  ++x.counters.outcomes[static_cast<int>(Outcome::too_large)];
  const int n = std::snprintf(x.error_text, sizeof x.error_text,
                              "answer of %zu bytes exceeds the ZAP frame limit of %u bytes", body_bytes,
                              x.limits.max_frame_bytes);
  return {reinterpret_cast<const std::uint8_t*>(x.error_text), static_cast<std::size_t>(n)};
}
}  // namespace

Context::Context(const Config& config)
    : limits(config.limits), routes(*config.json, config.codecs), h2(Http2Wire::make_thread(config)) {
  routes.set_max_response_bytes(config.limits.max_response_bytes);
  http_limits.max_header_bytes = config.limits.max_header_bytes;
  http_limits.max_body_bytes = config.limits.max_body_bytes;
  for (int k = 0; k < static_cast<int>(ReplyKind::count_); ++k) {
    const ReplyHead& h = reply_head(static_cast<ReplyKind>(k));
    const wire::zaphttp::Header headers[2] = {{"Content-Type", h.content_type}, {"Allow", h.allow}};
    wire::zaphttp::ResponseSpec spec;
    spec.status = static_cast<std::uint16_t>(h.status);
    spec.headers = {headers, h.allow.empty() ? 1u : 2u};
    zap_replies[k].prepare(spec);
  }
  set_date({});
}

void Context::set_date(std::string_view date_value) {
  date = date_value;
  for (int k = 0; k < static_cast<int>(ReplyKind::count_); ++k) {
    const ReplyHead& h = reply_head(static_cast<ReplyKind>(k));
    for (const bool close : {false, true})
      http_replies[k][close].prepare(h.status, wire::http::reason_phrase(h.status), h.content_type, close,
                                     date, h.allow);
  }
}

// ---- HTTP/1.1 -----------------------------------------------------------------

std::size_t Http1Wire::step(Context& x, Conn& c) {
  wire::http::Request req;
  const wire::http::ParseResult r =
      wire::http::parse_request(c.in.readable_text(), req, x.http_limits, &c.scan_hint);
  if (r.status == wire::http::Status::need_more) return 0;
  if (r.status == wire::http::Status::error) {
    using E = wire::http::Error;
    x.error(r.error == E::header_too_large        ? ErrorKind::http_header_too_large
            : r.error == E::body_too_large        ? ErrorKind::http_body_too_large
            : r.error == E::not_implemented       ? ErrorKind::http_not_implemented
            : r.error == E::version_not_supported ? ErrorKind::http_version
                                                  : ErrorKind::http_bad_request);
    const int status = wire::http::http_status(r.error);
    wire::http::write_response(c.out, status, wire::http::reason_phrase(status), "text/plain; charset=utf-8",
                               wire::http::reason(r), true, x.date);
    c.closing = true;
    return 0;
  }
  if (c.in.size() < req.message_bytes()) return 0;  // the body is still arriving
  const record::Bytes body{c.in.readable().data() + req.head_bytes, req.content_length};
  Outcome outcome;
  const Reply reply = answer(x, kFraming, req.method, req.target, req.content_type, body, outcome);
  x.http_replies[static_cast<int>(reply.kind)][req.close].append(c.out, text(reply.body));
  if (req.close) c.closing = true;
  return req.message_bytes();
}

void Http1Wire::timed_out(Context& x, Conn& c) {
  wire::http::write_response(c.out, 408, "Request Timeout", "text/plain; charset=utf-8",
                             "request head or body not complete in time", true, x.date);
}

// ---- ZAP-HTTP -----------------------------------------------------------------

std::size_t ZapHttpWire::step(Context& x, Conn& c) {
  const wire::zaphttp::FrameScan s = wire::zaphttp::scan_frame(c.in.readable(), x.limits.max_frame_bytes);
  if (s.status == wire::zaphttp::FrameScan::Status::need_more) return 0;
  if (s.status == wire::zaphttp::FrameScan::Status::bad_length) {
    x.error(ErrorKind::zap_bad_length);  // the transport spec: close, no reply
    c.closing = true;
    c.in.clear();
    return 0;
  }
  wire::zaphttp::RequestView req;
  if (const wire::zaphttp::FrameError e =
          wire::zaphttp::decode_request(wire::zaphttp::frame_message(c.in.readable(), s), req);
      e != wire::zaphttp::FrameError::ok) {
    x.error(ErrorKind::zap_malformed);
    const std::string_view why = wire::zaphttp::describe(e);
    std::snprintf(x.error_text, sizeof x.error_text, "malformed request frame: %.*s", int(why.size()),
                  why.data());
    const wire::zaphttp::Header ct{"Content-Type", "text/plain; charset=utf-8"};
    wire::zaphttp::ResponseSpec spec;
    spec.status = 400;
    spec.headers = {&ct, 1};
    spec.body = zap::as_bytes(x.error_text);
    x.zap_out.append_frame(spec, c.out);
    c.closing = true;
    return 0;
  }
  const std::string_view content_type = req.headers.find("Content-Type").value_or(std::string_view{});
  Outcome outcome;
  const Reply reply = answer(x, kFraming, req.method, req.target, content_type, req.body, outcome);
  if (!x.zap_replies[static_cast<int>(reply.kind)].append(c.out, reply.body, x.limits.max_frame_bytes))
    x.zap_replies[static_cast<int>(ReplyKind::too_large)].append(
        c.out, over_frame_limit(x, outcome, reply.body.size()));
  return s.frame_bytes();
}

// ---- ZAP-RPC ------------------------------------------------------------------

namespace {
namespace rpc = wire::zaprpc;

// A method ordinal names its body codec by the content type HTTP would carry
// (docs/spec/zap-rpc.md §2), so every codec the build can have needs a code:
// a new row's content type gets the next one in kBodyContentTypes.
static_assert(
    [] {
      for (const record::table::Row& row : record::table::kRows)
        if (rpc::body_code(row.content_type) < 0) return false;
      return true;
    }(),
    "a content type of codecs.table has no ZAP-RPC body code (wire::zaprpc::kBodyContentTypes)");
static_assert(
    [] {
      for (const std::string_view type : rpc::kBodyContentTypes) {
        bool found = false;
        for (const record::table::Row& row : record::table::kRows) found |= row.content_type == type;
        if (!found) return false;
      }
      return true;
    }(),
    "wire::zaprpc::kBodyContentTypes names a content type that codecs.table does not have");

// Appends the response frame of one call: its status, PromiseID and body.
// An answer whose frame would be over the frame limit is the same clean 500
// as on ZAP-HTTP (over_frame_limit).
void respond(Context& x, Conn& c, std::uint32_t promise, const Reply& reply, Outcome outcome) {
  ++c.calls_in_out;  // in flight until `out` drains (backpressure, kMaxCallsInFlight)
  rpc::Response r{static_cast<std::uint32_t>(reply_head(reply.kind).status), promise, reply.body};
  if (rpc::append_response_frame(c.out, r, x.limits.max_frame_bytes)) [[likely]]
    return;
  r.status = static_cast<std::uint32_t>(reply_head(ReplyKind::too_large).status);
  r.body = over_frame_limit(x, outcome, reply.body.size());
  // A frame limit too small for even that (--max-frame-bytes is the user's
  // choice): the call cannot be answered, so the connection ends.
  if (!rpc::append_response_frame(c.out, r, x.limits.max_frame_bytes)) c.closing = true;
}

// A call the framing refuses before any route sees it (promise pipelining,
// an unknown method, a stream): counted as a request of Route::other.
void refuse(Context& x, Conn& c, std::uint32_t promise, ReplyKind kind, std::string_view why,
            Outcome outcome) {
  count(x, matrix::Framing::zap_rpc, Route::other, outcome);
  respond(x, c, promise, {kind, zap::as_bytes(why)}, outcome);
}

// One call (dir 1): the method ordinal names the route and the body's
// content type, so the routes answer it by their routed entry, with the same
// handlers as HTTP's, and no path or method to compare (the content type is
// the table's own spelling: it compares equal at its first compare).
void call(Context& x, Conn& c, const rpc::Request& req) {
  if (req.target != rpc::kNoTarget)  // the server keeps no earlier answers to pipeline on
    return refuse(x, c, req.promise, ReplyKind::bad_body, "promise pipelining (Target) is not supported",
                  Outcome::bad_body);
  const rpc::Method m = rpc::method_of(req.method);
  if (!m.known) {
    const int n = std::snprintf(x.error_text, sizeof x.error_text, "unknown method %u", req.method);
    return refuse(x, c, req.promise, ReplyKind::not_found, {x.error_text, static_cast<std::size_t>(n)},
                  Outcome::not_found);
  }
  const Route route = m.op == rpc::Op::health     ? Route::health  // no payload: whatever came is ignored
                      : m.op == rpc::Op::eth_call ? Route::rpc
                                                  : Route::logs;
  Outcome outcome;
  const Reply reply = x.routes.handle_routed(route, m.content_type, req.payload, outcome);
  count(x, matrix::Framing::zap_rpc, route, outcome);
  respond(x, c, req.promise, reply, outcome);
}
}  // namespace

std::size_t ZapRpcWire::step(Context& x, Conn& c) {
  const rpc::FrameScan s = rpc::scan_frame(c.in.readable(), x.limits.max_frame_bytes);
  if (s.status == rpc::FrameScan::Status::need_more) return 0;
  if (s.status == rpc::FrameScan::Status::bad_length) {
    x.error(ErrorKind::zap_bad_length);  // the transport spec: close, no reply
    c.closing = true;
    c.in.clear();
    return 0;
  }
  rpc::Request req;
  switch (static_cast<rpc::Dir>(s.dir)) {
    case rpc::Dir::request:
      // A malformed envelope has no PromiseID to answer: skipped (§3).
      if (rpc::decode_request(rpc::frame_body(c.in.readable(), s), req) == rpc::EnvelopeError::ok) [[likely]]
        call(x, c, req);
      else
        x.error(ErrorKind::zap_rpc_malformed);
      break;
    case rpc::Dir::response:  // the server calls nothing: every PromiseID is unknown
      x.error(ErrorKind::zap_rpc_unsolicited);
      break;
    case rpc::Dir::stream_open:  // answered under the stream id, as a call
      if (rpc::decode_request(rpc::frame_body(c.in.readable(), s), req) == rpc::EnvelopeError::ok)
        refuse(x, c, req.promise, ReplyKind::not_found, "streams are not supported", Outcome::not_found);
      else
        x.error(ErrorKind::zap_rpc_malformed);
      break;
    case rpc::Dir::stream_message:  // no stream is ever open
    case rpc::Dir::stream_end:
      x.error(ErrorKind::zap_rpc_stream);
      break;
    default:  // not this protocol: nothing after it can be trusted to be a frame
      x.error(ErrorKind::zap_rpc_bad_dir);
      c.closing = true;
      c.in.clear();
      return 0;
  }
  return s.frame_bytes();
}

// ---- the loop over a read's requests ----------------------------------------------

template <class W>
void answer_ready(Context& x, Conn& c, std::int64_t now_ms) {
  c.held = false;
  if constexpr (W::kMaxCallsInFlight != 0) {
    // Every answer written before has been handed to the socket (the flush
    // that drained `out` comes here next): no call is in flight any more.
    if (c.out.empty()) c.calls_in_out = 0;
  }
  while (!c.closing && !c.in.empty()) {
    if (must_hold<W>(c)) {
      // The client is not reading; the idle timeout (no progress either
      // way) ends this if it never does, so no head timer runs meanwhile.
      c.held = true;
      return;
    }
    const std::size_t consumed = W::step(x, c);
    if (consumed == 0) break;
    c.in.consume(consumed);
    c.head_since_ms = 0;
  }
  if (c.in.empty())
    c.head_since_ms = 0;
  else if (c.head_since_ms == 0)
    c.head_since_ms = now_ms;
}

template void answer_ready<Http1Wire>(Context&, Conn&, std::int64_t);
template void answer_ready<ZapHttpWire>(Context&, Conn&, std::int64_t);
template void answer_ready<ZapRpcWire>(Context&, Conn&, std::int64_t);

}  // namespace server
