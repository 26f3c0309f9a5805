// server/routes.hpp — what the server answers, the same on every wire:
// GET /health, POST /rpc and POST /logs (body codec chosen by Content-Type:
// ZAP, the JSON codec, or the binary peer of that content type), and the
// error statuses for anything else. Owns no sockets and no framing: the HTTP/1.1 and
// ZAP-HTTP connections turn a Reply into bytes their own way.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "record/codec_zap.hpp"
#include "record/codecs_table.hpp"
#include "record/logs.hpp"
#include "record/registry.hpp"
#include "wire/zap_http.hpp"

namespace server {

// The default of Limits::max_response_bytes: the largest /logs answer body
// the server sends (the ZAP-HTTP frame limit, Go's MaxFrameSize, is the same).
inline constexpr std::size_t kDefaultMaxResponseBytes = 64 * 1024 * 1024;

// The binary peers' content types (codecs.table's rows that are neither ZAP
// nor JSON, available in this build or not), each once, in table order.
namespace detail {
struct PeerTypes {
  std::array<std::string_view, record::table::kRows.size()> types{};
  std::size_t count = 0;
};
constexpr PeerTypes peer_types() {
  PeerTypes p;
  for (const record::table::Row& row : record::table::kRows) {
    if (matrix::family_of(row.content_type) != matrix::Family::peer) continue;
    bool seen = false;
    for (std::size_t k = 0; k < p.count; ++k) seen = seen || p.types[k] == row.content_type;
    if (!seen) p.types[p.count++] = row.content_type;
  }
  return p;
}
}  // namespace detail
inline constexpr std::size_t kPeerTypes = detail::peer_types().count;
inline constexpr std::array<std::string_view, kPeerTypes> kPeerContentTypes = [] {
  std::array<std::string_view, kPeerTypes> out{};
  for (std::size_t i = 0; i < kPeerTypes; ++i) out[i] = detail::peer_types().types[i];
  return out;
}();

// The replies the routes give. Each kind has one status, content type and
// Allow value (reply_head), so a wire builds each kind's head once — per
// worker, and per Date second for HTTP/1.1 — and per request copies it and
// adds the body. After the named kinds comes one 200 per binary peer's
// content type (ok_peer(i): kPeerContentTypes[i]).
enum class ReplyKind : std::uint8_t {
  ok_text = 0,        // 200 text/plain: /health's "ok"
  ok_zap,             // 200 application/zap
  ok_json,            // 200 application/json
  bad_body,           // 400 text/plain: the body did not decode
  not_found,          // 404 text/plain
  get_only,           // 405, Allow: GET
  post_only,          // 405, Allow: POST
  unsupported_media,  // 415 text/plain
  too_large,          // 500 text/plain: the answer is over the server's response limit
  ok_peer_first,      // 200 kPeerContentTypes[0], then the others in order
  count_ = static_cast<std::uint8_t>(ok_peer_first + kPeerTypes),
};
constexpr ReplyKind ok_peer(std::size_t i) noexcept {
  return static_cast<ReplyKind>(static_cast<std::size_t>(ReplyKind::ok_peer_first) + i);
}

struct ReplyHead {
  int status;
  std::string_view content_type;
  std::string_view allow;  // a 405's Allow value (RFC 9110 §15.5.6: the route's methods); empty otherwise
};
const ReplyHead& reply_head(ReplyKind k) noexcept;

// What a route answers. The body view is valid until the next call on the
// same Routes object (it may point into a codec's output buffer).
struct Reply {
  ReplyKind kind = ReplyKind::ok_text;
  record::Bytes body;
};

// Why a request did not get a 200, for the server's counters.
enum class Outcome : std::uint8_t {
  ok = 0,
  not_found,           // 404
  method_not_allowed,  // 405
  unsupported_media,   // 415
  bad_body,            // 400: the body did not decode (or asked for more logs than record::kMaxLogs)
  too_large,           // 500: the answer is over Limits::max_response_bytes (or the ZAP frame limit)
  count_,
};

std::string_view describe(Outcome o) noexcept;

enum class Route : std::uint8_t { health = 0, rpc, logs, other, count_ };
std::string_view describe(Route r) noexcept;  // "/health", "/rpc", "/logs", "other"

// One per worker thread: owns that thread's codec objects (their buffers are
// reused for every request the thread answers).
class Routes {
 public:
  // json_codec must be an available JSON codec (the CLI checks the name).
  // Each binary peer's content type is answered by the first available codec
  // of that type in codecs.table that checks its input, or by the one in
  // `codecs` that has it (available, not for trusted input only: Server and
  // the CLI check).
  explicit Routes(const record::CodecInfo& json_codec, std::span<const record::CodecInfo* const> codecs = {});

  // The largest /logs answer body this object hands out; a larger one is
  // refused with a 500 naming both sizes (Limits::max_response_bytes).
  void set_max_response_bytes(std::size_t n) noexcept { max_response_bytes_ = n; }

  // The codec answering binary peer content type i (kPeerContentTypes), or
  // nullptr when this build has none for it.
  const record::CodecInfo* peer_codec(std::size_t i) const noexcept { return peers_[i].info; }

  // The codec Routes(json, codecs) answers binary peer content type i with:
  // the one in `codecs` of that type, else the first available codec of it in
  // codecs.table that checks its input; nullptr when there is none.
  static const record::CodecInfo* peer_codec_for(std::size_t i,
                                                 std::span<const record::CodecInfo* const> codecs);

  // Answers one request (inline: the request path). body must carry record::kInputPaddingBytes of
  // readable padding (connection buffers do).
  Reply handle(std::string_view method, std::string_view target, std::string_view content_type,
               record::Bytes body, Route& route, Outcome& outcome);
  // The same answer for a request already routed — ZAP-RPC's method ordinal
  // names the route and the body's content type: the route's handler as
  // handle() calls it for GET /health, POST /rpc or POST /logs, without
  // comparing a path or a method (and without handle()'s code at a third
  // call site, which made GCC call it out of line for every wire).
  Reply handle_routed(Route route, std::string_view content_type, record::Bytes body, Outcome& outcome);

 private:
  Reply health(std::string_view method, Outcome& outcome);
  Reply decode_error(std::string_view prefix, record::DecodeError e);
  Reply rpc(std::string_view method, std::string_view content_type, record::Bytes body, Outcome& outcome);
  Reply logs(std::string_view method, std::string_view content_type, record::Bytes body, Outcome& outcome);
  Reply logs_error(Outcome why, std::uint64_t got, std::uint64_t limit, Outcome& outcome);

  // The codec a Content-Type names, as the loader writes it (compared whole
  // first) or in any other spelling (media_type() and iequals): kZap, kJson,
  // kPeer + i for binary peer content type i, or kNone.
  static constexpr int kNone = -1, kZap = 0, kJson = 1, kPeer = 2;
  int body_codec(std::string_view content_type) const noexcept;
  // Decode, compute, encode: the handler, on a concrete or a runtime codec.
  template <class Codec>
  Reply run(Codec& codec, record::Bytes body, std::string_view bad_label, ReplyKind ok, Outcome& outcome) {
    record::RequestView req;
    if (const record::DecodeError e = codec.decode_request(body, req); e != record::DecodeError::ok) {
      outcome = Outcome::bad_body;
      return decode_error(bad_label, e);
    }
    outcome = Outcome::ok;
    return {ok, codec.encode_response(record::compute(req))};
  }
  // Decode the LogsRequest, produce its logs, encode them: the /logs handler.
  template <class Codec>
  Reply run_logs(Codec& codec, record::Bytes body, std::string_view bad_label, ReplyKind ok,
                 Outcome& outcome) {
    record::LogsRequest req;
    if (const record::DecodeError e = codec.decode_logs_request(body, req); e != record::DecodeError::ok) {
      outcome = Outcome::bad_body;
      return decode_error(bad_label, e);
    }
    if (req.limit > record::kMaxLogs)
      return logs_error(Outcome::bad_body, req.limit, record::kMaxLogs, outcome);
    // The logs of the last request are kept: a server answering the same
    // query again serves them from memory, as a cache would, and only encodes
    // them (the work this route measures: Logs/Encode, end to end). Another
    // request regenerates them into the same storage, which keeps its capacity.
    if (!logs_ready_ || logs_.request != req) {
      record::generate(req, logs_);
      logs_ready_ = true;
    }
    const record::Bytes answer = codec.encode_logs(logs_.logs);
    if (answer.size() > max_response_bytes_)
      return logs_error(Outcome::too_large, answer.size(), max_response_bytes_, outcome);
    outcome = Outcome::ok;
    return {ok, answer};
  }

  std::unique_ptr<record::AnyCodec> json_;
  bool json_has_logs_ = false;
  // ZAP, the standard body, by its concrete type (its calls inline into the
  // request path, as in Handler/zap); the JSON codec is the flag's choice.
  record::ZapCodec zap_;
  struct Peer {
    const record::CodecInfo* info = nullptr;  // nullptr: no codec of this type in this build
    std::unique_ptr<record::AnyCodec> codec;
    std::string bad_label;  // "bad <codec> body"
  };
  std::array<Peer, kPeerTypes> peers_;
  std::string unsupported_text_;       // the 415's body: the content types this server takes
  std::string unsupported_logs_text_;  // the same for /logs: the content types whose codec has the record
  char error_text_[128];               // "bad json body: <reason>", rebuilt per bad request
  // /logs: the logs of the last request (logs_.request), kept for the next.
  record::LogSet logs_;
  bool logs_ready_ = false;
  std::size_t max_response_bytes_ = kDefaultMaxResponseBytes;
};

// The media type of a Content-Type value: before any ';', trimmed, compared
// case-insensitively by the caller.
std::string_view media_type(std::string_view content_type) noexcept;

// ---- the request path: inline, so each wire's step compiles it in ----------

inline Reply Routes::handle(std::string_view method, std::string_view target, std::string_view content_type,
                            record::Bytes body, Route& route, Outcome& outcome) {
  // The targets the loader sends, compared whole first; a query string is
  // the general path's.
  if (target == "/rpc") {
    route = Route::rpc;
    return rpc(method, content_type, body, outcome);
  }
  if (target == "/logs") {
    route = Route::logs;
    return logs(method, content_type, body, outcome);
  }
  const std::string_view path = target == "/health" ? target : target.substr(0, target.find('?'));
  if (path == "/health") {
    route = Route::health;
    return health(method, outcome);
  }
  if (path == "/rpc") {
    route = Route::rpc;
    return rpc(method, content_type, body, outcome);
  }
  if (path == "/logs") {
    route = Route::logs;
    return logs(method, content_type, body, outcome);
  }
  route = Route::other;
  outcome = Outcome::not_found;
  return {ReplyKind::not_found, zap::as_bytes("not found")};
}

inline Reply Routes::handle_routed(Route route, std::string_view content_type, record::Bytes body,
                                   Outcome& outcome) {
  if (route == Route::rpc) return rpc("POST", content_type, body, outcome);
  if (route == Route::logs) return logs("POST", content_type, body, outcome);
  return health("GET", outcome);
}

inline Reply Routes::health(std::string_view method, Outcome& outcome) {
  if (method != "GET") {
    outcome = Outcome::method_not_allowed;
    return {ReplyKind::get_only, zap::as_bytes("method not allowed")};
  }
  outcome = Outcome::ok;
  return {ReplyKind::ok_text, zap::as_bytes("ok")};
}

inline int Routes::body_codec(std::string_view content_type) const noexcept {
  if (content_type == "application/zap") return kZap;
  if (content_type == "application/json") return kJson;
  for (std::size_t i = 0; i < kPeerTypes; ++i)
    if (peers_[i].codec && content_type == kPeerContentTypes[i]) return kPeer + static_cast<int>(i);
  const std::string_view media = media_type(content_type);
  if (wire::zaphttp::iequals(media, "application/json")) return kJson;
  if (wire::zaphttp::iequals(media, "application/zap")) return kZap;
  for (std::size_t i = 0; i < kPeerTypes; ++i)
    if (peers_[i].codec && wire::zaphttp::iequals(media, kPeerContentTypes[i]))
      return kPeer + static_cast<int>(i);
  return kNone;
}

inline Reply Routes::rpc(std::string_view method, std::string_view content_type, record::Bytes body,
                         Outcome& outcome) {
  if (method != "POST") {
    outcome = Outcome::method_not_allowed;
    return {ReplyKind::post_only, zap::as_bytes("method not allowed")};
  }
  const int codec = body_codec(content_type);
  if (codec == kZap) return run(zap_, body, "bad zap body", ReplyKind::ok_zap, outcome);
  if (codec == kJson) return run(*json_, body, "bad json body", ReplyKind::ok_json, outcome);
  if (codec >= kPeer) {
    Peer& p = peers_[static_cast<std::size_t>(codec - kPeer)];
    return run(*p.codec, body, p.bad_label, ok_peer(static_cast<std::size_t>(codec - kPeer)), outcome);
  }
  outcome = Outcome::unsupported_media;
  return {ReplyKind::unsupported_media, zap::as_bytes(unsupported_text_)};
}

inline Reply Routes::logs(std::string_view method, std::string_view content_type, record::Bytes body,
                          Outcome& outcome) {
  if (method != "POST") {
    outcome = Outcome::method_not_allowed;
    return {ReplyKind::post_only, zap::as_bytes("method not allowed")};
  }
  const int codec = body_codec(content_type);
  if (codec == kZap) return run_logs(zap_, body, "bad zap body", ReplyKind::ok_zap, outcome);
  if (codec == kJson && json_has_logs_)
    return run_logs(*json_, body, "bad json body", ReplyKind::ok_json, outcome);
  if (codec >= kPeer) {
    Peer& p = peers_[static_cast<std::size_t>(codec - kPeer)];
    if (p.info->has_logs)
      return run_logs(*p.codec, body, p.bad_label, ok_peer(static_cast<std::size_t>(codec - kPeer)), outcome);
  }
  // No codec, or one without the logs record: the 415 lists what /logs takes.
  outcome = Outcome::unsupported_media;
  return {ReplyKind::unsupported_media, zap::as_bytes(unsupported_logs_text_)};
}

}  // namespace server
