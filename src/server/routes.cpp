// server/routes.cpp — the routes and their replies.
#include "server/routes.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include "wire/zap_http.hpp"

namespace server {
namespace {
constexpr std::string_view kText = "text/plain; charset=utf-8";
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
    case Outcome::too_large:
      return "response_too_large";
    case Outcome::count_:
      break;
  }
  return "?";
}

std::string_view describe(Route r) noexcept {
  switch (r) {
    case Route::health:
      return "/health";
    case Route::rpc:
      return "/rpc";
    case Route::logs:
      return "/logs";
    case Route::other:
    case Route::count_:
      break;
  }
  return "other";
}

std::string_view media_type(std::string_view ct) noexcept {
  ct = ct.substr(0, ct.find(';'));
  while (!ct.empty() && (ct.front() == ' ' || ct.front() == '\t')) ct.remove_prefix(1);
  while (!ct.empty() && (ct.back() == ' ' || ct.back() == '\t')) ct.remove_suffix(1);
  return ct;
}

const record::CodecInfo* Routes::peer_codec_for(std::size_t i,
                                                std::span<const record::CodecInfo* const> codecs) {
  for (const record::CodecInfo* c : codecs)
    if (c->content_type == kPeerContentTypes[i]) return c;
  for (const record::CodecInfo& c : record::all_codecs())
    if (c.available && !c.trusted_input_only && c.content_type == kPeerContentTypes[i]) return &c;
  return nullptr;
}

Routes::Routes(const record::CodecInfo& json_codec, std::span<const record::CodecInfo* const> codecs)
    : json_(json_codec.make()), json_has_logs_(json_codec.has_logs) {
  static_assert(record::LogsCodec<record::ZapCodec>, "ZAP answers /logs by its concrete type");
  for (const record::CodecInfo* c : codecs)
    if (c->family() == matrix::Family::json) {
      json_ = c->make();
      json_has_logs_ = c->has_logs;
    }
  unsupported_text_ = "unsupported content type: want application/zap, application/json";
  unsupported_logs_text_ = "unsupported content type for /logs: want application/zap";
  if (json_has_logs_) unsupported_logs_text_ += ", application/json";
  for (std::size_t i = 0; i < kPeerTypes; ++i) {
    Peer& p = peers_[i];
    p.info = peer_codec_for(i, codecs);
    if (p.info == nullptr) continue;
    p.codec = p.info->make();
    p.bad_label = "bad " + std::string(p.info->name) + " body";
    unsupported_text_ += ", ";
    unsupported_text_ += kPeerContentTypes[i];
    if (p.info->has_logs) {
      unsupported_logs_text_ += ", ";
      unsupported_logs_text_ += kPeerContentTypes[i];
    }
  }
}

const ReplyHead& reply_head(ReplyKind k) noexcept {
  static constexpr std::size_t kNamed = static_cast<std::size_t>(ReplyKind::ok_peer_first);
  static constexpr std::array<ReplyHead, static_cast<std::size_t>(ReplyKind::count_)> kHeads = [] {
    std::array<ReplyHead, static_cast<std::size_t>(ReplyKind::count_)> h{{
        {200, kText, {}},
        {200, "application/zap", {}},
        {200, "application/json", {}},
        {400, kText, {}},
        {404, kText, {}},
        {405, kText, "GET"},
        {405, kText, "POST"},
        {415, kText, {}},
        {500, kText, {}},
    }};
    for (std::size_t i = 0; i < kPeerTypes; ++i) h[kNamed + i] = {200, kPeerContentTypes[i], {}};
    return h;
  }();
  return kHeads[static_cast<std::size_t>(k)];
}

Reply Routes::logs_error(Outcome why, std::uint64_t got, std::uint64_t limit, Outcome& outcome) {
  outcome = why;
  const int n =
      why == Outcome::too_large
          ? std::snprintf(error_text_, sizeof error_text_,
                          "answer of %llu bytes exceeds the server's response limit of %llu bytes",
                          static_cast<unsigned long long>(got), static_cast<unsigned long long>(limit))
          : std::snprintf(error_text_, sizeof error_text_,
                          "limit %llu is above the most logs one request may ask for (%llu)",
                          static_cast<unsigned long long>(got), static_cast<unsigned long long>(limit));
  return {why == Outcome::too_large ? ReplyKind::too_large : ReplyKind::bad_body,
          {reinterpret_cast<const std::uint8_t*>(error_text_), static_cast<std::size_t>(n)}};
}

Reply Routes::decode_error(std::string_view prefix, record::DecodeError e) {
  const std::string_view why = record::describe(e);
  const int n = std::snprintf(error_text_, sizeof error_text_, "%.*s: %.*s", int(prefix.size()),
                              prefix.data(), int(why.size()), why.data());
  return {ReplyKind::bad_body,
          {reinterpret_cast<const std::uint8_t*>(error_text_), static_cast<std::size_t>(n)}};
}

}  // namespace server
