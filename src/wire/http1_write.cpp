// wire/http1_write.cpp — the HTTP/1.1 writers declared in http1.hpp: request
// and response heads written in place into a connection's buffer, the
// prepared response heads (their fixed part formatted once), the HTTP date.
// The parser is http1.cpp.
#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstring>

#include "wire/http1.hpp"

namespace wire::http {

// ---- writers ------------------------------------------------------------------------------------

namespace {

// Appends s at w; the caller sized the region. An empty view may hold a null
// pointer (a default reason phrase, an empty body), which memcpy must not get.
inline char* put(char* w, std::string_view s) noexcept {
  if (!s.empty()) std::memcpy(w, s.data(), s.size());
  return w + s.size();
}

// Decimal digits of n in a small stack buffer (to_chars cannot fail for 20 bytes).
struct Digits {
  char text[20];
  std::size_t size;
  explicit Digits(std::uint64_t n) noexcept
      : size(static_cast<std::size_t>(std::to_chars(text, text + sizeof text, n).ptr - text)) {}
  [[nodiscard]] std::string_view view() const noexcept { return {text, size}; }
};

constexpr std::string_view kCrlf = "\r\n";

}  // namespace

namespace {
// The response writer; kAllow adds the Allow line. A template, so the answers
// without one (all but 405s) run the same code as before Allow existed.
template <bool kAllow>
[[gnu::always_inline]] inline std::size_t write_response_with(
    net::Buffer& out, int status, std::string_view reason_text, std::string_view content_type,
    std::string_view body, bool close, std::string_view date_header_value, std::string_view allow) {
  using namespace std::string_view_literals;
  const Digits code(static_cast<std::uint64_t>(status));
  const bool bodyless = status < 200 || status == 204 || status == 304;  // RFC 9110 §8.6, §15.3.5
  const Digits length(body.size());

  std::size_t n = "HTTP/1.1 "sv.size() + code.size + 1 + reason_text.size() + 2;
  if (!content_type.empty()) n += "Content-Type: "sv.size() + content_type.size() + 2;
  if (!bodyless) n += "Content-Length: "sv.size() + length.size + 2;
  if (!date_header_value.empty()) n += "Date: "sv.size() + date_header_value.size() + 2;
  if constexpr (kAllow) n += "Allow: "sv.size() + allow.size() + 2;
  if (close) n += "Connection: close\r\n"sv.size();
  n += 2 + body.size();

  char* const start = reinterpret_cast<char*>(out.prepare(n));
  char* w = put(start, "HTTP/1.1 ");
  w = put(w, code.view());
  *w++ = ' ';
  w = put(w, reason_text);
  w = put(w, kCrlf);
  if (!content_type.empty()) w = put(put(put(w, "Content-Type: "), content_type), kCrlf);
  if (!bodyless) w = put(put(put(w, "Content-Length: "), length.view()), kCrlf);
  if (!date_header_value.empty()) w = put(put(put(w, "Date: "), date_header_value), kCrlf);
  if constexpr (kAllow) w = put(put(put(w, "Allow: "), allow), kCrlf);
  if (close) w = put(w, "Connection: close\r\n");
  w = put(w, kCrlf);
  w = put(w, body);
  out.commit(n);
  return static_cast<std::size_t>(w - start);
}
}  // namespace

std::size_t write_response(net::Buffer& out, int status, std::string_view reason_text,
                           std::string_view content_type, std::string_view body, bool close,
                           std::string_view date_header_value) {
  return write_response_with<false>(out, status, reason_text, content_type, body, close, date_header_value,
                                    {});
}

std::size_t write_response(net::Buffer& out, int status, std::string_view reason_text,
                           std::string_view content_type, std::string_view body, bool close,
                           std::string_view date_header_value, std::string_view allow) {
  return write_response_with<true>(out, status, reason_text, content_type, body, close, date_header_value,
                                   allow);
}

bool PreparedResponse::prepare(int status, std::string_view reason, std::string_view content_type, bool close,
                               std::string_view date_header_value, std::string_view allow) {
  before_length_.clear();
  after_length_.clear();
  head_.clear();
  head_body_bytes_ = kNoLength;
  if (status < 200 || status == 204 || status == 304) return false;
  // The order write_response_with() writes.
  before_length_.append("HTTP/1.1 ").append(Digits(static_cast<std::uint64_t>(status)).view()).append(" ");
  before_length_.append(reason).append(kCrlf);
  if (!content_type.empty()) before_length_.append("Content-Type: ").append(content_type).append(kCrlf);
  before_length_.append("Content-Length: ");
  after_length_.append(kCrlf);
  if (!date_header_value.empty()) after_length_.append("Date: ").append(date_header_value).append(kCrlf);
  if (!allow.empty()) after_length_.append("Allow: ").append(allow).append(kCrlf);
  if (close) after_length_.append("Connection: close\r\n");
  after_length_.append(kCrlf);
  head_.reserve(before_length_.size() + 20 + after_length_.size());  // no allocation in append()
  return true;
}

std::size_t PreparedResponse::append(net::Buffer& out, std::string_view body) {
  if (before_length_.empty()) return 0;
  if (body.size() != head_body_bytes_) {  // answers of one size in a row: the head is ready
    head_.assign(before_length_).append(Digits(body.size()).view()).append(after_length_);
    head_body_bytes_ = body.size();
  }
  const std::size_t n = head_.size() + body.size();
  char* w = put(reinterpret_cast<char*>(out.prepare(n)), head_);
  put(w, body);
  out.commit(n);
  return n;
}

std::size_t write_request(net::Buffer& out, std::string_view method, std::string_view target,
                          std::string_view host, std::string_view content_type, std::string_view body) {
  using namespace std::string_view_literals;
  const Digits length(body.size());
  const bool framed = !body.empty() || !content_type.empty();

  std::size_t n = method.size() + 1 + target.size() + " HTTP/1.1\r\nHost: "sv.size() + host.size() + 2;
  if (!content_type.empty()) n += "Content-Type: "sv.size() + content_type.size() + 2;
  if (framed) n += "Content-Length: "sv.size() + length.size + 2;
  n += 2 + body.size();

  char* const start = reinterpret_cast<char*>(out.prepare(n));
  char* w = put(start, method);
  *w++ = ' ';
  w = put(w, target);
  w = put(w, " HTTP/1.1\r\nHost: ");
  w = put(put(w, host), kCrlf);
  if (!content_type.empty()) w = put(put(put(w, "Content-Type: "), content_type), kCrlf);
  if (framed) w = put(put(put(w, "Content-Length: "), length.view()), kCrlf);
  w = put(w, kCrlf);
  w = put(w, body);
  out.commit(n);
  return static_cast<std::size_t>(w - start);
}

std::string_view format_http_date(std::int64_t unix_s, std::span<char, kHttpDateBytes> out) noexcept {
  using namespace std::chrono;
  static constexpr char kDays[] = "SunMonTueWedThuFriSat";
  static constexpr char kMonths[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
  const sys_seconds t{seconds{unix_s}};
  const sys_days day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<seconds> hms{t - day};
  const unsigned wd = weekday{day}.c_encoding();  // 0 = Sunday
  const unsigned mon = static_cast<unsigned>(ymd.month()) - 1;
  const int yr = static_cast<int>(ymd.year());
  const auto two = [](char* w, long v) {
    w[0] = static_cast<char>('0' + v / 10);
    w[1] = static_cast<char>('0' + v % 10);
  };
  char* w = out.data();
  std::memcpy(w, kDays + 3 * wd, 3);
  std::memcpy(w + 3, ", ", 2);
  two(w + 5, static_cast<long>(static_cast<unsigned>(ymd.day())));
  w[7] = ' ';
  std::memcpy(w + 8, kMonths + 3 * mon, 3);
  w[11] = ' ';
  two(w + 12, (yr / 100) % 100);  // IMF-fixdate has a 4-digit year; years past 9999 are not dated
  two(w + 14, yr % 100);
  w[16] = ' ';
  two(w + 17, static_cast<long>(hms.hours().count()));
  w[19] = ':';
  two(w + 20, static_cast<long>(hms.minutes().count()));
  w[22] = ':';
  two(w + 23, static_cast<long>(hms.seconds().count()));
  std::memcpy(w + 25, " GMT", 4);
  return {out.data(), kHttpDateBytes};
}

}  // namespace wire::http
