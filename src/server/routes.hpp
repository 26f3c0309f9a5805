// server/routes.hpp — what the server answers, the same on every wire:
// GET /health and POST /rpc (body codec chosen by Content-Type), and the error
// statuses for anything else. Owns no sockets and no framing: the HTTP/1.1 and
// ZAP-HTTP connections turn a Reply into bytes their own way.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "record/registry.hpp"

namespace server {

// The replies the routes give. Each kind has one status, content type and
// Allow value (reply_head), so a wire builds each kind's head once — per
// worker, and per Date second for HTTP/1.1 — and per request copies it and
// adds the body.
enum class ReplyKind : std::uint8_t {
  ok_text = 0,        // 200 text/plain: /health's "ok"
  ok_zap,             // 200 application/zap
  ok_json,            // 200 application/json
  bad_body,           // 400 text/plain: the body did not decode
  not_found,          // 404 text/plain
  get_only,           // 405, Allow: GET
  post_only,          // 405, Allow: POST
  unsupported_media,  // 415 text/plain
  count_,
};

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
  [[nodiscard]] const ReplyHead& head() const noexcept { return reply_head(kind); }
};

// Why a request did not get a 200, for the server's counters.
enum class Outcome : std::uint8_t {
  ok = 0,
  not_found,           // 404
  method_not_allowed,  // 405
  unsupported_media,   // 415
  bad_body,            // 400: the body did not decode
  count_,
};

std::string_view describe(Outcome o) noexcept;

enum class Route : std::uint8_t { health = 0, rpc, other, count_ };

// One per worker thread: owns that thread's codec objects (their buffers are
// reused for every request the thread answers).
class Routes {
 public:
  // json_codec must be an available JSON codec (the CLI checks the name).
  explicit Routes(const record::CodecInfo& json_codec);

  // Answers one request. body must carry record::kInputPaddingBytes of
  // readable padding (connection buffers do).
  Reply handle(std::string_view method, std::string_view target, std::string_view content_type,
               record::Bytes body, Route& route, Outcome& outcome);

 private:
  Reply decode_error(std::string_view prefix, record::DecodeError e);
  Reply rpc(std::string_view method, std::string_view content_type, record::Bytes body, Outcome& outcome);

  std::unique_ptr<record::AnyCodec> json_;
  std::unique_ptr<record::AnyCodec> zap_;
  char error_text_[96];  // "bad json body: <reason>", rebuilt per bad request
};

// The media type of a Content-Type value: before any ';', trimmed, compared
// case-insensitively by the caller.
std::string_view media_type(std::string_view content_type) noexcept;

}  // namespace server
