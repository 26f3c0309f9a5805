// server/routes.cpp — the routes and their replies.
#include "server/routes.hpp"

#include <algorithm>
#include <cstdio>

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

Reply Routes::decode_error(std::string_view prefix, record::DecodeError e) {
  const std::string_view why = record::describe(e);
  const int n = std::snprintf(error_text_, sizeof error_text_, "%.*s: %.*s", int(prefix.size()),
                              prefix.data(), int(why.size()), why.data());
  return {400, kText, {reinterpret_cast<const std::uint8_t*>(error_text_), static_cast<std::size_t>(n)}};
}

Reply Routes::handle(std::string_view method, std::string_view target, std::string_view content_type,
                     record::Bytes body, Route& route, Outcome& outcome) {
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/health") {
    route = Route::health;
    if (method != "GET") {
      outcome = Outcome::method_not_allowed;
      return {405, kText, bytes("method not allowed"), "GET"};
    }
    outcome = Outcome::ok;
    return {200, kText, bytes("ok")};
  }
  if (path == "/rpc") {
    route = Route::rpc;
    if (method != "POST") {
      outcome = Outcome::method_not_allowed;
      return {405, kText, bytes("method not allowed"), "POST"};
    }
    const std::string_view media = media_type(content_type);
    record::AnyCodec* codec = nullptr;
    std::string_view label;
    if (iequals(media, "application/json")) {
      codec = json_.get();
      label = "bad json body";
    } else if (iequals(media, "application/zap")) {
      codec = zap_.get();
      label = "bad zap body";
    } else {
      outcome = Outcome::unsupported_media;
      return {415, kText, bytes("unsupported content type: want application/json or application/zap")};
    }
    record::RequestView req;
    if (const record::DecodeError e = codec->decode_request(body, req); e != record::DecodeError::ok) {
      outcome = Outcome::bad_body;
      return decode_error(label, e);
    }
    outcome = Outcome::ok;
    return {200,
            codec == zap_.get() ? std::string_view("application/zap") : std::string_view("application/json"),
            codec->encode_response(record::compute(req))};
  }
  route = Route::other;
  outcome = Outcome::not_found;
  return {404, kText, bytes("not found")};
}

}  // namespace server
