// wire/http1.cpp — the HTTP/1.1 head parser declared in http1.hpp (the writers
// are http1_write.cpp). Parsing is two passes over the head: find_head_end() finds the
// first CRLFCRLF (16 bytes a step with SSE2, resumable, bounded by
// max_header_bytes), then the line parsers walk the complete head, never past
// its end: table lookups for tokens, SSE2 for targets and values. Each SSE2
// path has a scalar twin (-DNET_HTTP1_NO_SIMD builds it; the tests pass both).
// Measured (micro/http1_bench.cpp, GET+POST): memchr per line and scalar
// values took 92 ns, the SSE2 paths 64 ns.
#include "wire/http1.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstring>

#if defined(__SSE2__) && !defined(NET_HTTP1_NO_SIMD)
#include <emmintrin.h>
#endif

namespace wire::http {
namespace {

// ---- character classes --------------------------------------------------------------------------

enum : std::uint8_t {
  kToken = 1,   // tchar (RFC 9110 §5.6.2): method and header name characters
  kValue = 2,   // field-vchar / SP / HTAB / obs-text: header value and reason phrase characters
  kTarget = 4,  // request-target: anything visible (VCHAR, obs-text), no SP, no CTL
};

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> t{};
  for (int c = 0; c < 256; ++c) {
    std::uint8_t k = 0;
    const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alnum || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos)
      k |= kToken;
    if (c == '\t' || (c >= 0x20 && c != 0x7f)) k |= kValue;
    if (c > 0x20 && c != 0x7f) k |= kTarget;
    t[static_cast<std::size_t>(c)] = k;
  }
  return t;
}
constexpr std::array<std::uint8_t, 256> kClass = make_classes();

inline bool is(char c, std::uint8_t cls) noexcept {
  return (kClass[static_cast<unsigned char>(c)] & cls) != 0;
}
inline bool is_ows(char c) noexcept { return c == ' ' || c == '\t'; }
inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

// name (any case) == lower (lowercase letters and '-'); sizes must match. OR-ing
// 0x20 folds ASCII case; among token characters only '-' maps to '-'.
// Eight bytes at a time (the last word overlapping), as the names compared
// are 4 to 17 bytes long.
inline bool iequals(std::string_view name, std::string_view lower) noexcept {
  const std::size_t n = name.size();
  if (n != lower.size()) return false;
  if (n >= 8) {
    constexpr std::uint64_t kFold = 0x2020202020202020u;
    const auto word = [](const char* p) {
      std::uint64_t w;
      std::memcpy(&w, p, sizeof w);
      return w;
    };
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if ((word(name.data() + i) | kFold) != word(lower.data() + i)) return false;
    return (word(name.data() + n - 8) | kFold) == word(lower.data() + n - 8);
  }
  for (std::size_t i = 0; i < n; ++i)
    if ((name[i] | 0x20) != lower[i]) return false;
  return true;
}

// Returns the first byte at or after c that ends a run of visible bytes: a CTL
// or DEL, and also SP for a target (kWithSpace false); HTAB continues a value
// (kWithSpace true). A value's run stops at its CR at the latest, and c never
// passes end (see the pass 2 invariant below).
// kBounded: the bytes at end are not known to hold a stop byte (the one-pass
// parse), so the scalar tail checks end too.
template <bool kWithSpace, bool kBounded = false>
[[gnu::always_inline]] inline const char* skip_visible(const char* c, const char* end) noexcept {
#if defined(__SSE2__) && !defined(NET_HTTP1_NO_SIMD)
  // Unsigned "byte <= lim" is max(byte, lim) == lim; bytes >= 0x80 (obs-text) pass.
  const __m128i lim = _mm_set1_epi8(kWithSpace ? 0x1f : 0x20);
  const __m128i del = _mm_set1_epi8(0x7f);
  while (end - c >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
    const __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, lim), lim), _mm_cmpeq_epi8(v, del));
    const auto m = static_cast<unsigned>(_mm_movemask_epi8(stop));
    if (m == 0) {
      c += 16;
      continue;
    }
    c += __builtin_ctz(m);
    if (!kWithSpace || *c != '\t') return c;
    ++c;  // HTAB inside a value: rare, go on
  }
#else
  if constexpr (!kBounded) (void)end;
#endif
  const std::uint8_t cls = kWithSpace ? kValue : kTarget;
  while ((!kBounded || c < end) && is(*c, cls)) ++c;
  return c;
}

// Returns the first byte at or after c that is not a letter, digit or '-':
// what nearly every header name is made of, 16 bytes per step. The caller's
// token loop goes on from there (the ':' at once, or a rarer token byte), so
// the accepted names are exactly the same; c never passes end.
[[gnu::always_inline]] inline const char* skip_name_chars(const char* c, const char* end) noexcept {
#if defined(__SSE2__) && !defined(NET_HTTP1_NO_SIMD)
  // Unsigned "x - lo <= span" is max(x - lo, span) == span.
  const auto in_range = [](__m128i v, char lo, char span) {
    const __m128i d = _mm_sub_epi8(v, _mm_set1_epi8(lo));
    const __m128i s = _mm_set1_epi8(span);
    return _mm_cmpeq_epi8(_mm_max_epu8(d, s), s);
  };
  while (end - c >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(c));
    // OR 0x20 folds case; only letters land in 'a'..'z' by it.
    const __m128i ok = _mm_or_si128(
        _mm_or_si128(in_range(_mm_or_si128(v, _mm_set1_epi8(0x20)), 'a', 25), in_range(v, '0', 9)),
        _mm_cmpeq_epi8(v, _mm_set1_epi8('-')));
    const auto stop = static_cast<unsigned>(~_mm_movemask_epi8(ok)) & 0xffffu;
    if (stop != 0) return c + __builtin_ctz(stop);
    c += 16;
  }
#else
  (void)end;
#endif
  return c;
}

// ---- results ------------------------------------------------------------------------------------

constexpr Error kind_of(Detail d) noexcept {
  switch (d) {
    case Detail::none:
      return Error::none;
    case Detail::head_too_large:
    case Detail::too_many_headers:
      return Error::header_too_large;
    case Detail::body_too_large:
      return Error::body_too_large;
    case Detail::missing_content_length:
      return Error::length_required;
    case Detail::transfer_encoding:
      return Error::not_implemented;
    case Detail::version_not_supported:
      return Error::version_not_supported;
    default:
      return Error::bad_request;
  }
}

constexpr ParseResult fail(Detail d) noexcept { return {Status::error, kind_of(d), d}; }
constexpr ParseResult kDone{Status::done, Error::none, Detail::none};
constexpr ParseResult kNeedMore{Status::need_more, Error::none, Detail::none};

// ---- pass 1: where the head ends ----------------------------------------------------------------

struct HeadSpan {
  std::size_t begin = 0;  // first byte of the start line (after skipped empty lines)
  std::size_t end = 0;    // one past the final CRLFCRLF
};

// Where a message's first line begins: past the empty lines a peer may send
// before it (RFC 9112 §2.2), which are no part of its head.
std::size_t start_of_message(std::string_view buf) noexcept {
  std::size_t begin = 0;
  while (begin + 1 < buf.size() && buf[begin] == '\r' && buf[begin + 1] == '\n') begin += 2;
  return begin;
}

// Finds the first CRLFCRLF within the first max_header_bytes of buf. Every LF
// before it must follow a CR (bare LF is an error as soon as it is seen). The
// search resumes at *scan_hint: each LF is judged by looking back at most 3
// bytes, so bytes already scanned never need scanning again, and the answer
// does not depend on how buf arrived.
ParseResult find_head_end(std::string_view buf, std::size_t max_header_bytes, std::size_t* scan_hint,
                          HeadSpan& span) noexcept {
  const char* const p = buf.data();
  const std::size_t size = buf.size();
  const std::size_t begin = start_of_message(buf);
  const std::size_t window = std::min(size, max_header_bytes);
  std::size_t scan = begin;
  // A hint beyond the buffer means the caller did not reset it for a new request: ignore it.
  if (scan_hint != nullptr && *scan_hint > scan && *scan_hint <= size) scan = *scan_hint;
  // Judges the LF at i (> begin - 1): the head's end, a bare LF, or neither.
  enum { kGoOn, kEnd, kBareLf };
  const auto judge = [&](std::size_t i) noexcept {
    if (i == begin || p[i - 1] != '\r') return kBareLf;
    // The CR LF CR LF ending here, in one 32-bit compare.
    if (i >= begin + 3 && std::memcmp(p + i - 3, "\r\n\r\n", 4) == 0) return kEnd;
    return kGoOn;
  };
  const auto finish = [&](int verdict, std::size_t i) noexcept {
    if (verdict == kBareLf) return fail(Detail::bare_lf);
    span = {begin, i + 1};
    return kDone;
  };
#if defined(__SSE2__) && !defined(NET_HTTP1_NO_SIMD)
  // 16 bytes per step, one bit per LF: the ~5 LFs of a small head cost a
  // few instructions each, where memchr costs a call per line.
  const __m128i lf = _mm_set1_epi8('\n');
  const auto lf_mask = [&](std::size_t at) noexcept {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)));
  };
  for (; scan + 16 <= window; scan += 16) {
    for (unsigned m = lf_mask(scan); m != 0; m &= m - 1) {
      const std::size_t i = scan + static_cast<unsigned>(__builtin_ctz(m));
      if (const int v = judge(i); v != kGoOn) return finish(v, i);
    }
  }
  if (scan < window && window >= 16) {  // the tail: reload the last 16 bytes, drop those already seen
    const std::size_t base = window - 16;
    for (unsigned m = lf_mask(base) & (~0u << (scan - base)); m != 0; m &= m - 1) {
      const std::size_t i = base + static_cast<unsigned>(__builtin_ctz(m));
      if (const int v = judge(i); v != kGoOn) return finish(v, i);
    }
    scan = window;
  }
#endif
  for (; scan < window; ++scan) {  // portable path, and buffers under 16 bytes
    if (p[scan] != '\n') continue;
    if (const int v = judge(scan); v != kGoOn) return finish(v, scan);
  }
  // No CRLFCRLF in the window: once the window is the whole limit, no amount
  // of further input can complete a head within it.
  if (size >= max_header_bytes) return fail(Detail::head_too_large);
  if (scan_hint != nullptr) *scan_hint = window;
  return kNeedMore;
}

// ---- pass 2: the lines of a complete head -------------------------------------------------------
//
// Invariant for everything below: [c, end) is the rest of a head that ends in
// CRLFCRLF, and every LF in it follows a CR. Each scan loop stops at the first
// byte outside its class, and CR is in no class, so no loop runs past the
// final CR; reading one byte after a CR is always in bounds.

// "HTTP/d.d" at c (8 readable bytes). Returns none, bad_version or version_not_supported.
Detail parse_version(const char* c, int& minor) noexcept {
  static constexpr char k11[] = "HTTP/1.1";
  if (std::memcmp(c, k11, 8) == 0) {  // the common case in one 8-byte compare
    minor = 1;
    return Detail::none;
  }
  if (std::memcmp(c, "HTTP/", 5) != 0 || !is_digit(c[5]) || c[6] != '.' || !is_digit(c[7]))
    return Detail::bad_version;
  if (c[5] != '1' || c[7] > '1') return Detail::version_not_supported;
  minor = c[7] - '0';
  return Detail::none;
}

// What the framing and connection headers said, gathered while parsing lines.
struct Fields {
  std::uint64_t content_length = 0;
  bool has_content_length = false;
  bool transfer_encoding = false;
  bool close_token = false;
  bool keep_alive_token = false;
  int host_count = 0;
  std::string_view host;
  std::string_view content_type;
};

// Digits only; overflow and anything else is an error (RFC 9110 §8.6).
bool parse_content_length(std::string_view v, std::uint64_t& out) noexcept {
  if (v.empty()) return false;
  std::uint64_t n = 0;
  if (v.size() < 20) {  // 19 digits cannot overflow 64 bits: no check per digit
    for (const char ch : v) {
      if (!is_digit(ch)) return false;
      n = n * 10 + static_cast<std::uint64_t>(ch - '0');
    }
    out = n;
    return true;
  }
  for (const char ch : v) {
    if (!is_digit(ch)) return false;
    const auto d = static_cast<std::uint64_t>(ch - '0');
    if (n > (UINT64_MAX - d) / 10) return false;
    n = n * 10 + d;
  }
  out = n;
  return true;
}

// Connection: #token, case-insensitive; only "close" and "keep-alive" matter.
void parse_connection(std::string_view v, Fields& f) noexcept {
  std::size_t i = 0;
  while (i < v.size()) {
    std::size_t j = v.find(',', i);
    if (j == std::string_view::npos) j = v.size();
    std::size_t a = i, b = j;
    while (a < b && is_ows(v[a])) ++a;
    while (b > a && is_ows(v[b - 1])) --b;
    const std::string_view token = v.substr(a, b - a);
    if (iequals(token, "close")) f.close_token = true;
    if (iequals(token, "keep-alive")) f.keep_alive_token = true;
    i = j + 1;
  }
}

// Parses the header lines from c through the final empty line. The cursor and
// count live in locals: through references the compiler must store them on
// every byte, as a header's string_view might alias them.
// kBounded (the one-pass parse): end is the buffer's end, not a head end found
// before, so every step checks it; running out returns kOutOfInput (the caller
// falls back to the two passes), and head_end gets the end of the empty line.
constexpr Detail kOutOfInput = Detail::bad_header_name;
template <bool kBounded = false>
Detail parse_headers(const char* c, const char* end, Header* headers, std::size_t& count_out,
                     std::size_t max_headers, Fields& f, const char** head_end = nullptr) noexcept {
  std::size_t count = 0;
  for (;;) {
    if (kBounded && end - c < 2) return kOutOfInput;
    if (*c == '\r') {  // the empty line; pass 1 guarantees it is the head's last CRLF
      count_out = count;
      if (kBounded) *head_end = c + 2;
      return c[1] == '\n' ? Detail::none : Detail::bad_header_name;
    }
    if (is_ows(*c)) return Detail::obs_fold;  // RFC 9112 §5.2: reject, don't unfold
    const char* const name0 = c;
    c = skip_name_chars(c, end);
    while ((!kBounded || c < end) && is(*c, kToken)) ++c;
    if (kBounded && c == end) return kOutOfInput;
    if (*c != ':') return c != name0 && is_ows(*c) ? Detail::space_before_colon : Detail::bad_header_name;
    if (c == name0) return Detail::bad_header_name;
    const std::string_view name(name0, static_cast<std::size_t>(c - name0));
    ++c;
    if (kBounded && c == end) return kOutOfInput;
    if (*c == ' ') ++c;  // the usual single space, then any more
    while ((!kBounded || c < end) && is_ows(*c)) ++c;
    const char* const value0 = c;
    c = skip_visible<true, kBounded>(c, end);
    if (kBounded && end - c < 2) return kOutOfInput;
    if (*c != '\r' || c[1] != '\n') return Detail::bad_header_value;  // NUL, CTL or a lone CR
    const char* value1 = c;
    while (value1 > value0 && is_ows(value1[-1])) --value1;
    c += 2;
    if (count == max_headers) return Detail::too_many_headers;
    const std::string_view value(value0, static_cast<std::size_t>(value1 - value0));
    headers[count++] = {name, value};

    // The few headers that frame the message, dispatched on length first.
    switch (name.size()) {
      case 4:
        if (iequals(name, "host")) {
          if (++f.host_count > 1) return Detail::duplicate_host;
          f.host = value;
        }
        break;
      case 10:
        if (iequals(name, "connection")) parse_connection(value, f);
        break;
      case 12:
        if (iequals(name, "content-type")) {
          // Not a list header: two would make the body's codec ambiguous.
          if (f.content_type.data() != nullptr) return Detail::duplicate_content_type;
          f.content_type = value;
        }
        break;
      case 14:
        if (iequals(name, "content-length")) {
          std::uint64_t n = 0;
          if (!parse_content_length(value, n)) return Detail::bad_content_length;
          if (f.has_content_length && n != f.content_length) return Detail::conflicting_content_length;
          f.content_length = n;
          f.has_content_length = true;
        }
        break;
      case 17:
        if (iequals(name, "transfer-encoding")) f.transfer_encoding = true;
        break;
      default:
        break;
    }
  }
}

// The checks common to both directions once all lines are read. A response
// that never has a body (304's Content-Length describes the resource) is not
// held to the body limit.
// request-line = method SP request-target SP HTTP-version CRLF (single
// spaces), from c, which ends past its CRLF. kBounded as for parse_headers.
// Inlined into both passes, as the line was written in each before.
template <bool kBounded = false>
[[gnu::always_inline]] inline Detail parse_request_line(const char*& c, const char* end,
                                                        Request& out) noexcept {
  const char* const method0 = c;
  while ((!kBounded || c < end) && is(*c, kToken)) ++c;
  if (kBounded && c == end) return kOutOfInput;
  if (c == method0 || *c != ' ') return *c == '\r' ? Detail::bad_request_line : Detail::bad_method;
  out.method = {method0, static_cast<std::size_t>(c - method0)};
  ++c;
  const char* const target0 = c;
  c = skip_visible<false, kBounded>(c, end);
  if (kBounded && c == end) return kOutOfInput;
  if (c == target0) return Detail::bad_target;
  if (*c != ' ') return *c == '\r' ? Detail::bad_request_line : Detail::bad_target;
  out.target = {target0, static_cast<std::size_t>(c - target0)};
  ++c;
  // "HTTP/d.d" CRLF is 10 bytes, and the head goes on for at least 2 more.
  if (end - c < 12 || c[8] != '\r' || c[9] != '\n') return Detail::bad_version;
  if (const Detail d = parse_version(c, out.minor_version); d != Detail::none) return d;
  c += 10;
  return Detail::none;
}

Detail check_framing(const Fields& f, const Limits& limits, bool has_body = true) noexcept {
  if (f.transfer_encoding)
    return f.has_content_length ? Detail::content_length_with_transfer_encoding : Detail::transfer_encoding;
  if (has_body && f.content_length > limits.max_body_bytes) return Detail::body_too_large;
  return Detail::none;
}

bool persistent(int minor_version, const Fields& f) noexcept {
  return minor_version == 0 ? f.keep_alive_token && !f.close_token : !f.close_token;
}

// Text per Detail, prefixed with its kind; describe() drops the prefix.
constexpr std::string_view kDetailText[] = {
    "ok",
    "bad request: bare LF line ending (CRLF required)",
    "bad request: malformed request line",
    "bad request: invalid method",
    "bad request: invalid request target",
    "bad request: invalid HTTP version",
    "bad request: malformed status line",
    "bad request: invalid status code",
    "bad request: invalid reason phrase",
    "bad request: invalid header name",
    "bad request: whitespace before header colon",
    "bad request: obsolete line folding",
    "bad request: invalid character in header value",
    "bad request: invalid Content-Length",
    "bad request: conflicting Content-Length values",
    "bad request: both Content-Length and Transfer-Encoding",
    "bad request: HTTP/1.1 request without Host",
    "bad request: more than one Host",
    "bad request: more than one Content-Type",
    "request header fields too large: head over max_header_bytes",
    "request header fields too large: more than max_headers lines",
    "content too large: Content-Length over max_body_bytes",
    "length required: Content-Length required",
    "not implemented: Transfer-Encoding (chunked bodies are not accepted)",
    "HTTP version not supported: only HTTP/1.0 and HTTP/1.1",
};
static_assert(std::size(kDetailText) == static_cast<std::size_t>(Detail::version_not_supported) + 1);

}  // namespace

std::string_view reason(Error e) noexcept {
  switch (e) {
    case Error::none:
      return "ok";
    case Error::bad_request:
      return "bad request";
    case Error::header_too_large:
      return "request header fields too large";
    case Error::body_too_large:
      return "content too large";
    case Error::length_required:
      return "length required";
    case Error::not_implemented:
      return "not implemented";
    case Error::version_not_supported:
      return "HTTP version not supported";
  }
  return "bad request";
}

std::string_view reason(ParseResult r) noexcept {
  const auto i = static_cast<std::size_t>(r.detail);
  if (r.detail == Detail::none || i >= std::size(kDetailText)) return reason(r.error);
  return kDetailText[i];
}

std::string_view describe(Detail d) noexcept {
  const auto i = static_cast<std::size_t>(d);
  if (i >= std::size(kDetailText)) return "unknown";
  const std::string_view t = kDetailText[i];
  const std::size_t colon = t.find(": ");
  return colon == std::string_view::npos ? t : t.substr(colon + 2);
}

std::string_view reason_phrase(int status) noexcept {
  switch (status) {
    case 100:
      return "Continue";
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return {};
  }
}

namespace {

// After the header lines, both passes: what the fields say of the message.
Detail finish_request(Request& out, const Fields& f, const Limits& limits, std::size_t head_bytes) noexcept {
  if (out.minor_version == 1 && f.host_count == 0) return Detail::missing_host;
  if (const Detail d = check_framing(f, limits); d != Detail::none) return d;
  out.content_length = f.content_length;
  out.has_content_length = f.has_content_length;
  out.chunked = false;
  out.close = !persistent(out.minor_version, f);
  out.content_type = f.content_type;
  out.host = f.host;
  out.head_bytes = head_bytes;
  return Detail::none;
}

// The usual case in one pass: a new request whose head is complete, valid and
// within the limit is parsed straight from the buffer, with the same checks in
// the same order as the two passes below, bounded by the buffer's end instead
// of a head end found first. True only then. Anything else — incomplete, any
// error, over the limit — returns false and the two passes decide the exact
// answer, so results never differ (fuzz/http1_fuzz.cpp compares the two on
// every input). Success implies what pass 1 would find: each line of the head
// ends in CR LF and holds no other CR or LF, so the first CR LF CR LF is the
// head's end and no LF is bare.
bool parse_request_one_pass(std::string_view buf, Request& out, const Limits& limits) noexcept {
  const char* const p = buf.data();
  const char* const end = p + buf.size();
  const char* c = p + start_of_message(buf);
  if (parse_request_line<true>(c, end, out) != Detail::none) return false;
  Fields f;
  const char* head_end = nullptr;
  const std::size_t max_headers = std::min(limits.max_headers, kMaxHeaders);
  if (parse_headers<true>(c, end, out.headers, out.header_count, max_headers, f, &head_end) != Detail::none)
    return false;
  const auto head_bytes = static_cast<std::size_t>(head_end - p);
  if (head_bytes > limits.max_header_bytes) return false;
  return finish_request(out, f, limits, head_bytes) == Detail::none;
}

}  // namespace

ParseResult parse_request(std::string_view buf, Request& out, const Limits& limits,
                          std::size_t* scan_hint) noexcept {
  // A new request (no scan under way): one pass if it can decide.
  if ((scan_hint == nullptr || *scan_hint == 0) && parse_request_one_pass(buf, out, limits)) return kDone;

  HeadSpan span;
  const ParseResult found = find_head_end(buf, limits.max_header_bytes, scan_hint, span);
  if (scan_hint != nullptr && !found.need_more()) *scan_hint = 0;  // ready for the next message
  if (!found.done()) return found;

  const char* c = buf.data() + span.begin;
  const char* const end = buf.data() + span.end;

  if (const Detail d = parse_request_line(c, end, out); d != Detail::none) return fail(d);

  Fields f;
  const std::size_t max_headers = std::min(limits.max_headers, kMaxHeaders);
  if (const Detail d = parse_headers(c, end, out.headers, out.header_count, max_headers, f);
      d != Detail::none)
    return fail(d);
  if (const Detail d = finish_request(out, f, limits, span.end); d != Detail::none) return fail(d);
  return kDone;
}

ParseResult parse_response(std::string_view buf, Response& out, const Limits& limits,
                           std::size_t* scan_hint) noexcept {
  HeadSpan span;
  const ParseResult found = find_head_end(buf, limits.max_header_bytes, scan_hint, span);
  if (scan_hint != nullptr && !found.need_more()) *scan_hint = 0;  // ready for the next message
  if (!found.done()) return found;

  const char* c = buf.data() + span.begin;
  const char* const end = buf.data() + span.end;

  // status-line = HTTP-version SP 3DIGIT SP [reason-phrase] CRLF. The SP before
  // an empty reason is often omitted in practice; both forms are accepted.
  if (end - c < 16) return fail(Detail::bad_status_line);  // "HTTP/1.1 200" CRLF CRLF
  if (const Detail d = parse_version(c, out.minor_version); d != Detail::none) return fail(d);
  if (c[8] != ' ') return fail(Detail::bad_status_line);
  if (!is_digit(c[9]) || !is_digit(c[10]) || !is_digit(c[11])) return fail(Detail::bad_status_code);
  out.status = (c[9] - '0') * 100 + (c[10] - '0') * 10 + (c[11] - '0');
  if (out.status < 100 || out.status > 599) return fail(Detail::bad_status_code);
  c += 12;
  if (*c == ' ') {
    ++c;
  } else if (*c != '\r') {
    return fail(Detail::bad_status_code);  // a fourth digit or other junk after the code
  }
  const char* const reason0 = c;
  c = skip_visible<true>(c, end);
  if (*c != '\r' || c[1] != '\n') return fail(Detail::bad_reason);
  out.reason = {reason0, static_cast<std::size_t>(c - reason0)};
  c += 2;

  Fields f;
  const std::size_t max_headers = std::min(limits.max_headers, kMaxHeaders);
  if (const Detail d = parse_headers(c, end, out.headers, out.header_count, max_headers, f);
      d != Detail::none)
    return fail(d);
  const bool no_body = out.status < 200 || out.status == 204 || out.status == 304;
  if (const Detail d = check_framing(f, limits, !no_body); d != Detail::none) return fail(d);

  out.has_content_length = f.has_content_length;
  out.content_length = no_body ? 0 : f.content_length;
  out.body_until_close = !no_body && !f.has_content_length;
  out.close = out.body_until_close || !persistent(out.minor_version, f);
  out.content_type = f.content_type;
  out.head_bytes = span.end;
  return kDone;
}

}  // namespace wire::http
