// server/routes.cpp — the routes and their replies.
#include "server/routes.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "net/zap_http.hpp"

namespace server {
using net::zaphttp::iequals;  // ASCII case-insensitive, as media types compare

namespace {
constexpr std::string_view kText = "text/plain; charset=utf-8";
record::Bytes bytes(std::string_view s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}
}  // namespace

std::string_view describe(Outcome o) noexcept {
  switch (o) {
    case Outcome::ok:
      return "ok";
    case Outcome::not_found:
      return "not_found";
    case Outcome::method_not_allowed:
      return "method_not_allowed";
    case Outcome::unsupported_media:
      return "unsupported_media_type";
    case Outcome::bad_body:
      return "bad_body";
    case Outcome::count_:
      break;
  }
  return "?";
}

std::string_view media_type(std::string_view ct) noexcept {
  ct = ct.substr(0, ct.find(';'));
  while (!ct.empty() && (ct.front() == ' ' || ct.front() == '\t')) ct.remove_prefix(1);
  while (!ct.empty() && (ct.back() == ' ' || ct.back() == '\t')) ct.remove_suffix(1);
  return ct;
}

Routes::Routes(const record::CodecInfo& json_codec)
    : json_(json_codec.make()), zap_(record::find_codec("zap")->make()) {}

const ReplyHead& reply_head(ReplyKind k) noexcept {
  static constexpr ReplyHead kHeads[] = {
      {200, kText, {}}, {200, "application/zap", {}}, {200, "application/json", {}}, {400, kText, {}},
      {404, kText, {}}, {405, kText, "GET"},          {405, kText, "POST"},          {415, kText, {}},
  };
  static_assert(std::size(kHeads) == static_cast<std::size_t>(ReplyKind::count_));
  return kHeads[static_cast<std::size_t>(k)];
}

Reply Routes::decode_error(std::string_view prefix, record::DecodeError e) {
  const std::string_view why = record::describe(e);
  const int n = std::snprintf(error_text_, sizeof error_text_, "%.*s: %.*s", int(prefix.size()),
                              prefix.data(), int(why.size()), why.data());
  return {ReplyKind::bad_body,
          {reinterpret_cast<const std::uint8_t*>(error_text_), static_cast<std::size_t>(n)}};
}

Reply Routes::handle(std::string_view method, std::string_view target, std::string_view content_type,
                     record::Bytes body, Route& route, Outcome& outcome) {
  // The targets the loader sends, compared whole first; a query string is
  // the general path's.
  if (target == "/rpc") {
    route = Route::rpc;
    return rpc(method, content_type, body, outcome);
  }
  const std::string_view path = target == "/health" ? target : target.substr(0, target.find('?'));
  if (path == "/health") {
    route = Route::health;
    if (method != "GET") {
      outcome = Outcome::method_not_allowed;
      return {ReplyKind::get_only, bytes("method not allowed")};
    }
    outcome = Outcome::ok;
    return {ReplyKind::ok_text, bytes("ok")};
  }
  if (path == "/rpc") {
    route = Route::rpc;
    return rpc(method, content_type, body, outcome);
  }
  route = Route::other;
  outcome = Outcome::not_found;
  return {ReplyKind::not_found, bytes("not found")};
}

Reply Routes::rpc(std::string_view method, std::string_view content_type, record::Bytes body,
                  Outcome& outcome) {
  if (method != "POST") {
    outcome = Outcome::method_not_allowed;
    return {ReplyKind::post_only, bytes("method not allowed")};
  }
  // The two media types as the loader writes them, compared whole first;
  // parameters, spaces and other cases take media_type() and iequals.
  bool zap = content_type == "application/zap";
  bool json = !zap && content_type == "application/json";
  if (!zap && !json) {
    const std::string_view media = media_type(content_type);
    json = iequals(media, "application/json");
    zap = !json && iequals(media, "application/zap");
  }
  if (!zap && !json) {
    outcome = Outcome::unsupported_media;
    return {ReplyKind::unsupported_media,
            bytes("unsupported content type: want application/json or application/zap")};
  }
  record::AnyCodec* const codec = zap ? zap_.get() : json_.get();
  record::RequestView req;
  if (const record::DecodeError e = codec->decode_request(body, req); e != record::DecodeError::ok) {
    outcome = Outcome::bad_body;
    return decode_error(zap ? "bad zap body" : "bad json body", e);
  }
  outcome = Outcome::ok;
  return {zap ? ReplyKind::ok_zap : ReplyKind::ok_json, codec->encode_response(record::compute(req))};
}

}  // namespace server
