// wire/http1.hpp — HTTP/1.1 on the wire: a stateless request and response head
// parser over caller-owned bytes, and the writers that append one complete
// response (server) or request (load generator) to a net::Buffer. Owns framing
// only: routes, codecs and connection state belong to server/ and load/.
//
// Decisions (each is tested in tests/wire/wire_http1_test.cpp):
//  * Chunked bodies are REFUSED. Any Transfer-Encoding gives 501
//    (Error::not_implemented); Transfer-Encoding with Content-Length gives 400
//    (the request-smuggling shape, RFC 9112 §6.1). zapbench's clients always
//    send Content-Length, and decoding chunks would add a copy and a state
//    machine to the hot path for no client we have. Responses likewise.
//  * Line endings are CRLF only. A bare LF anywhere in the head is 400, found
//    as soon as it arrives (RFC 9112 §2.2 allows accepting it; we do not,
//    because lenient line splitting is what smuggling attacks exploit).
//  * Empty lines (CRLF) before the request line are skipped (RFC 9112 §2.2;
//    some clients send CRLF after a POST body); they count in head_bytes.
//  * Versions: HTTP/1.0 and HTTP/1.1. Any other "HTTP/d.d" is 505, anything
//    else 400. HTTP/1.1 requests must carry exactly one Host (RFC 9112 §3.2).
//  * obs-fold, whitespace before the colon, and CTLs other than HTAB in values
//    are 400. Content-Length is digits only; differing duplicates are 400,
//    identical ones are accepted; a list ("5, 5") is 400.
//  * Malformed input is reported once the head is complete (or on a bare LF,
//    or as soon as the bytes without CRLFCRLF reach max_header_bytes). So a
//    prefix of a valid head is always need_more, and feeding bytes in pieces
//    gives the same answer as feeding them at once.
//
// Lifetimes: every string_view in a Request/Response points into the buffer
// passed to the parse call; they are valid while those bytes are unchanged.
// Nothing here allocates or throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "net/buffer.hpp"

namespace wire::http {

// Header lines a Request/Response can hold (the array is inline, so this also
// fixes their size: 64 * 32 bytes). Limits::max_headers may lower it per server.
inline constexpr std::size_t kMaxHeaders = 64;

struct Header {
  std::string_view name, value;  // value without leading/trailing OWS
};

struct Limits {
  // Head bytes (request/status line + header lines + the final CRLFCRLF, plus
  // any leading empty lines). Stops oversized heads and slowloris clients that
  // trickle a head that never ends: past this many bytes without CRLFCRLF the
  // parser answers 431 instead of waiting. 8 KiB is nginx's large buffer size.
  std::size_t max_header_bytes = 8192;
  // Header lines per message (capped at kMaxHeaders). Stops a head made of many
  // tiny lines, which costs per-line work and exhausts the header array; 431.
  std::size_t max_headers = 64;
  // Largest Content-Length accepted. Stops a client from making the server
  // buffer an arbitrary body before it can be decoded (413). 1 MiB is ~2000x
  // the eth record's JSON body.
  std::uint64_t max_body_bytes = 1 << 20;
};

enum class Status : std::uint8_t {
  done,       // a complete, valid head: its fields are set, head_bytes consumed
  need_more,  // the head is incomplete: read more, call again with the same hint
  error,      // malformed or over a limit: answer http_status(error), then close
};

// What went wrong, as the HTTP status the server must answer.
enum class Error : std::uint8_t {
  none,
  bad_request,            // 400: malformed syntax (Detail says where)
  header_too_large,       // 431: head over max_header_bytes, or more than max_headers lines
  body_too_large,         // 413: Content-Length over max_body_bytes
  length_required,        // 411: never returned by the parsers: a request without Content-Length has
                          //      an empty body (RFC 9112 §6.3); the server may require one on POST /rpc
  not_implemented,        // 501: any Transfer-Encoding (chunked bodies are refused, see top)
  version_not_supported,  // 505: HTTP/d.d other than 1.0 and 1.1
};

// Exactly which rule failed, for logs and the error body. Each maps to one Error.
enum class Detail : std::uint8_t {
  none,
  bare_lf,
  bad_request_line,
  bad_method,
  bad_target,
  bad_version,
  bad_status_line,
  bad_status_code,
  bad_reason,
  bad_header_name,
  space_before_colon,
  obs_fold,
  bad_header_value,
  bad_content_length,
  conflicting_content_length,
  content_length_with_transfer_encoding,
  missing_host,
  duplicate_host,
  duplicate_content_type,
  head_too_large,
  too_many_headers,
  body_too_large,
  missing_content_length,
  transfer_encoding,
  version_not_supported,
};

// Three bytes, returned in a register.
struct ParseResult {
  Status status = Status::need_more;
  Error error = Error::none;
  Detail detail = Detail::none;

  [[nodiscard]] constexpr bool done() const noexcept { return status == Status::done; }
  [[nodiscard]] constexpr bool need_more() const noexcept { return status == Status::need_more; }
};

// The status code the server answers for an error (200 for none).
[[nodiscard]] constexpr int http_status(Error e) noexcept {
  switch (e) {
    case Error::none:
      return 200;
    case Error::bad_request:
      return 400;
    case Error::header_too_large:
      return 431;
    case Error::body_too_large:
      return 413;
    case Error::length_required:
      return 411;
    case Error::not_implemented:
      return 501;
    case Error::version_not_supported:
      return 505;
  }
  return 400;
}

// Short lowercase text for an error kind ("bad request"), for logs and counters.
[[nodiscard]] std::string_view reason(Error e) noexcept;
// The body the server sends with an error answer, naming the rule that failed:
// "bad request: invalid header name". Static storage.
[[nodiscard]] std::string_view reason(ParseResult r) noexcept;
// The same without the kind prefix ("invalid header name"), e.g. for the load
// generator, which meets these while parsing responses.
[[nodiscard]] std::string_view describe(Detail d) noexcept;
// The standard reason phrase for a status line ("Not Found"); empty if unknown
// (an empty reason phrase is valid HTTP).
[[nodiscard]] std::string_view reason_phrase(int status) noexcept;

struct Request {
  std::string_view method;  // a token, case preserved (methods are case-sensitive)
  std::string_view target;  // non-empty, no CTL/SP; not decoded or normalised
  int minor_version = 1;    // 0 or 1
  // headers[0, header_count) are the header lines in order; the rest are
  // never set or read. A union member so that constructing a Request does not
  // zero 2 KiB (measured: +16 ns on a 25 ns GET for a Request on the stack).
  union {
    Header headers[kMaxHeaders];
  };
  std::size_t header_count = 0;
  std::uint64_t content_length = 0;  // body bytes that follow the head (0 without the header)
  bool has_content_length = false;
  bool chunked = false;  // always false on done: Transfer-Encoding is refused (kept for the contract)
  bool close = false;    // HTTP/1.0 without "keep-alive", or a "close" token in Connection
  std::string_view content_type;  // the Content-Type value, empty if absent
  std::string_view host;          // the Host value (required for HTTP/1.1), empty if absent
  std::size_t head_bytes = 0;     // request line + header lines + CRLFCRLF (+ leading CRLFs)

  // The whole request on the wire, head and body: what the caller consumes.
  [[nodiscard]] std::size_t message_bytes() const noexcept { return head_bytes + content_length; }

  Request() noexcept {}  // not "= default": that is deleted, and headers stay unset on purpose
};

struct Response {
  int status = 0;  // 100..599
  int minor_version = 1;
  std::string_view reason;  // may be empty, may contain spaces
  union {                   // as in Request: only headers[0, header_count) are set
    Header headers[kMaxHeaders];
  };
  std::size_t header_count = 0;
  // Body bytes that follow the head: the Content-Length value, or 0 for 1xx,
  // 204 and 304 (which never have a body, RFC 9112 §6.3), or 0 with
  // body_until_close set when neither applies.
  std::uint64_t content_length = 0;
  bool has_content_length = false;  // a valid Content-Length header was present
  bool body_until_close = false;    // no framing: the body runs to connection close (close is set too)
  bool close = false;               // "close" token, HTTP/1.0 without "keep-alive", or body_until_close
  std::string_view content_type;
  std::size_t head_bytes = 0;  // status line + header lines + CRLFCRLF

  // The whole response on the wire, head and body: what the caller consumes.
  [[nodiscard]] std::size_t message_bytes() const noexcept { return head_bytes + content_length; }

  Response() noexcept {}
};

// Parses the request head at the start of buf. On done, out.head_bytes is the
// head's length; the body is the next out.content_length bytes (the caller
// waits for them; they are not checked here). Pipelined requests: consume
// message_bytes() (head_bytes + content_length) and call again on the rest.
//
// scan_hint (optional) makes a read loop linear instead of quadratic: set
// *scan_hint = 0 for each new request, then pass the same variable on every
// call for that request as buf grows (same bytes, more at the end). On
// need_more it records how far the search for CRLFCRLF got, so the next call
// resumes there; on done or error it is reset to 0. Passing nullptr rescans.
// On need_more and error the fields of out are unspecified.
[[nodiscard]] ParseResult parse_request(std::string_view buf, Request& out, const Limits& limits,
                                        std::size_t* scan_hint = nullptr) noexcept;

// Parses a response head (for the load generator); the same contract. A 1xx
// response is returned like any other (no body); the caller skips it.
[[nodiscard]] ParseResult parse_response(std::string_view buf, Response& out, const Limits& limits,
                                         std::size_t* scan_hint = nullptr) noexcept;

// Appends one complete response to out with a single prepare()/commit():
//   HTTP/1.1 <status> <reason>\r\n
//   Content-Type: <content_type>\r\n      (omitted if content_type is empty)
//   Content-Length: <body.size()>\r\n     (omitted for 1xx, 204 and 304, whose body must be empty)
//   Date: <date_header_value>\r\n         (omitted if empty)
//   Allow: <allow>\r\n                    (only from the overload below)
//   Connection: close\r\n                 (if close)
//   \r\n<body>
// Returns the bytes appended. status must be 100..999; reason, content_type
// and the Date value must not contain CR or LF (not checked: they are the
// server's constants, not client input). The only per-response
// formatting is the status and length digits (std::to_chars): everything that
// could be prepared once is passed in ready — the server refreshes its Date
// value once a second (format_http_date) rather than per response.
std::size_t write_response(net::Buffer& out, int status, std::string_view reason,
                           std::string_view content_type, std::string_view body, bool close,
                           std::string_view date_header_value);
// The same with "Allow: <allow>" after the Date line (a 405's, RFC 9110 §15.5.6).
std::size_t write_response(net::Buffer& out, int status, std::string_view reason,
                           std::string_view content_type, std::string_view body, bool close,
                           std::string_view date_header_value, std::string_view allow);

// A response whose status line and headers are fixed and whose body varies:
// the head of write_response() is formatted once, split around the
// Content-Length digits; each append copies the head for its body's length
// (kept from the last append when the length is the same) and the body. Byte-identical to write_response()
// with the same arguments (tests/wire/wire_http1_test.cpp checks it). The server prepares one per reply kind
// and close flag, again whenever its Date value changes (once a second).
class PreparedResponse {
 public:
  // False (and nothing prepared) for a status whose response has no body
  // (1xx, 204, 304): those carry no Content-Length to fill in.
  bool prepare(int status, std::string_view reason, std::string_view content_type, bool close,
               std::string_view date_header_value, std::string_view allow = {});
  // Appends the response; returns the bytes appended (0 when not prepared).
  // The whole head for the last body size is kept, so answers of one size in
  // a row (the benchmark's) copy it as it is.
  std::size_t append(net::Buffer& out, std::string_view body);

 private:
  static constexpr std::size_t kNoLength = ~std::size_t{0};
  std::string before_length_;  // status line .. "Content-Length: "
  std::string after_length_;   // "\r\n" .. the empty line
  std::string head_;           // before_length_, the digits of head_body_bytes_, after_length_
  std::size_t head_body_bytes_ = kNoLength;
};

// Appends one complete request (for the load generator, which builds it once
// and resends the bytes):
//   <method> <target> HTTP/1.1\r\nHost: <host>\r\n
//   Content-Type: <content_type>\r\n      (omitted if empty)
//   Content-Length: <body.size()>\r\n     (omitted if body and content_type are both empty)
//   \r\n<body>
// Returns the bytes appended.
std::size_t write_request(net::Buffer& out, std::string_view method, std::string_view target,
                          std::string_view host, std::string_view content_type, std::string_view body);

// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110 §5.6.7), the Date
// header value, for a time in seconds since the Unix epoch (UTC). Writes
// exactly kHttpDateBytes and returns a view of them.
inline constexpr std::size_t kHttpDateBytes = 29;
std::string_view format_http_date(std::int64_t unix_s, std::span<char, kHttpDateBytes> out) noexcept;

}  // namespace wire::http
