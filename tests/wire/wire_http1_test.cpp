// tests/wire/wire_http1_test.cpp — wire/http1: tables of tiny named request and
// response heads with the expected outcome and fields, every prefix of every
// valid head, every two-piece split with the scan hint, the writers' exact
// bytes and round trips. Every input is parsed from a copy that ends at an
// inaccessible page, so reading one byte too far crashes, sanitizers or not.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "wire/http1.hpp"

namespace {

using wire::http::Detail;
using wire::http::Error;
using wire::http::Limits;
using wire::http::ParseResult;
using wire::http::Request;
using wire::http::Response;
using wire::http::Status;
using namespace std::string_literals;

// A copy of some bytes placed so that the byte after the last one is the first
// byte of a PROT_NONE page.
class Guarded {
 public:
  explicit Guarded(std::string_view s) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t data_pages = (s.size() + page - 1) / page;
    map_bytes_ = (data_pages + 1) * page;
    void* m = mmap(nullptr, map_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) std::abort();
    map_ = static_cast<char*>(m);
    if (mprotect(map_ + data_pages * page, page, PROT_NONE) != 0) std::abort();
    data_ = map_ + data_pages * page - s.size();
    if (!s.empty()) std::memcpy(data_, s.data(), s.size());
    size_ = s.size();
  }
  ~Guarded() { munmap(map_, map_bytes_); }
  Guarded(const Guarded&) = delete;
  Guarded& operator=(const Guarded&) = delete;
  [[nodiscard]] std::string_view view() const { return {data_, size_}; }

 private:
  char* map_ = nullptr;
  std::size_t map_bytes_ = 0;
  char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::string show(ParseResult r) {
  const char* s = r.status == Status::done ? "done" : r.status == Status::need_more ? "need_more" : "error";
  return std::string(s) + " / " + std::string(wire::http::reason(r));
}

// Parse a guarded copy that is unmapped on return: for outcomes and scalar
// fields only (views into it would dangle; reading them crashes).
ParseResult parse_req(std::string_view in, Request& out, const Limits& limits = {}) {
  const Guarded g(in);
  return wire::http::parse_request(g.view(), out, limits);
}
ParseResult parse_resp(std::string_view in, Response& out, const Limits& limits = {}) {
  const Guarded g(in);
  return wire::http::parse_response(g.view(), out, limits);
}

// Checks that each view lies inside buf (both parsers promise views into the input).
bool inside(std::string_view buf, std::string_view v) {
  return v.empty() || (v.data() >= buf.data() && v.data() + v.size() <= buf.data() + buf.size());
}

TEST(http1_parser, guard_page_catches_a_read_past_the_end) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const Guarded g("GET");
  EXPECT_DEATH(
      {
        volatile const char* p = g.view().data();
        (void)p[g.view().size()];
      },
      "");
}

// ---- requests that parse ------------------------------------------------------------------------

struct GoodRequest {
  const char* name;
  std::string input;
  std::string_view method, target;
  int minor_version;
  std::size_t header_count;
  std::uint64_t content_length;
  bool has_content_length;
  bool close;
  std::string_view content_type;
  // The head is the input less the body: input.size() - content_length.
};

const std::vector<GoodRequest>& good_requests() {
  static const std::vector<GoodRequest> cases = {
      {"wrk GET /health", "GET /health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n", "GET", "/health", 1, 1, 0,
       false, false, ""},
      {"POST with Content-Length",
       "POST /rpc HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello",
       "POST", "/rpc", 1, 3, 5, true, false, "application/json"},
      {"minimal HTTP/1.0 (no Host)", "GET / HTTP/1.0\r\n\r\n", "GET", "/", 0, 0, 0, false, true, ""},
      {"HTTP/1.0 keep-alive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", "GET", "/", 0, 1, 0, false,
       false, ""},
      {"HTTP/1.0 keep-alive and close", "GET / HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", "GET", "/",
       0, 1, 0, false, true, ""},
      {"Connection: close", "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", "GET", "/", 1, 2, 0,
       false, true, ""},
      {"Connection: CLOSE among tokens", "GET / HTTP/1.1\r\nHost: h\r\nConnection: upgrade ,\tCLOSE \r\n\r\n",
       "GET", "/", 1, 2, 0, false, true, ""},
      {"Connection: closed is not close", "GET / HTTP/1.1\r\nHost: h\r\nConnection: closed\r\n\r\n", "GET",
       "/", 1, 2, 0, false, false, ""},
      {"two Connection headers", "GET / HTTP/1.1\r\nHost: h\r\nConnection: x\r\nconnection: close\r\n\r\n",
       "GET", "/", 1, 3, 0, false, true, ""},
      {"header names any case",
       "POST /rpc HTTP/1.1\r\nhOsT: h\r\nCONTENT-TYPE: application/zap\r\ncontent-LENGTH: 3\r\n\r\nabc",
       "POST", "/rpc", 1, 3, 3, true, false, "application/zap"},
      {"OWS around value trimmed", "GET / HTTP/1.1\r\nHost: \t h \t\r\nContent-Length:  7\t\r\n\r\nseven!!",
       "GET", "/", 1, 2, 7, true, false, ""},
      {"empty value", "GET / HTTP/1.1\r\nHost: h\r\nX-Empty:\r\nX-Blank:   \r\n\r\n", "GET", "/", 1, 3, 0,
       false, false, ""},
      {"HTAB and obs-text in value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\tb\x80\xff\r\n\r\n", "GET", "/", 1, 2,
       0, false, false, ""},
      {"identical Content-Length twice",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 02\r\n\r\nhi", "POST", "/", 1, 3,
       2, true, false, ""},
      {"Content-Length 0", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", "POST", "/", 1, 2, 0,
       true, false, ""},
      {"lowercase method is a token", "get / HTTP/1.1\r\nHost: h\r\n\r\n", "get", "/", 1, 1, 0, false, false,
       ""},
      {"extension method", "M-SEARCH * HTTP/1.1\r\nHost: h\r\n\r\n", "M-SEARCH", "*", 1, 1, 0, false, false,
       ""},
      {"absolute-form target with query", "GET http://h:80/a/b?c=d&e=%20#f HTTP/1.1\r\nHost: h\r\n\r\n",
       "GET", "http://h:80/a/b?c=d&e=%20#f", 1, 1, 0, false, false, ""},
      {"leading empty lines skipped", "\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", "GET", "/", 1, 1, 0, false,
       false, ""},
      {"empty Host is present", "GET / HTTP/1.1\r\nHost:\r\n\r\n", "GET", "/", 1, 1, 0, false, false, ""},
      {"colon in value", "GET / HTTP/1.1\r\nHost: h:1\r\nX: a: b\r\n\r\n", "GET", "/", 1, 2, 0, false, false,
       ""},
  };
  return cases;
}

TEST(http1_parser, parses_each_good_request_with_its_fields) {
  for (const GoodRequest& t : good_requests()) {
    SCOPED_TRACE(t.name);
    const Guarded g(t.input);
    Request r;
    const ParseResult res = wire::http::parse_request(g.view(), r, Limits{});
    ASSERT_EQ(res.status, Status::done) << show(res);
    EXPECT_EQ(res.error, Error::none);
    EXPECT_EQ(r.method, t.method);
    EXPECT_EQ(r.target, t.target);
    EXPECT_EQ(r.minor_version, t.minor_version);
    EXPECT_EQ(r.header_count, t.header_count);
    EXPECT_EQ(r.content_length, t.content_length);
    EXPECT_EQ(r.has_content_length, t.has_content_length);
    EXPECT_FALSE(r.chunked);
    EXPECT_EQ(r.close, t.close);
    EXPECT_EQ(r.content_type, t.content_type);
    EXPECT_EQ(r.head_bytes, t.input.size() - t.content_length);
    EXPECT_EQ(r.head_bytes + r.content_length, t.input.size()) << "body is what follows the head";
    EXPECT_TRUE(inside(g.view(), r.method) && inside(g.view(), r.target) && inside(g.view(), r.content_type));
    for (std::size_t i = 0; i < r.header_count; ++i)
      EXPECT_TRUE(inside(g.view(), r.headers[i].name) && inside(g.view(), r.headers[i].value));
  }
}

TEST(http1_parser, header_lines_are_kept_in_order_with_trimmed_values) {
  const Guarded g("GET / HTTP/1.1\r\nHost: \t h \t\r\nX-A: 1 2\r\nx-a:3\r\n\r\n");
  Request r;
  ASSERT_TRUE(wire::http::parse_request(g.view(), r, Limits{}).done());
  ASSERT_EQ(r.header_count, 3u);
  EXPECT_EQ(r.headers[0].name, "Host");
  EXPECT_EQ(r.headers[0].value, "h");
  EXPECT_EQ(r.host, "h");
  EXPECT_EQ(r.headers[1].name, "X-A");
  EXPECT_EQ(r.headers[1].value, "1 2");
  EXPECT_EQ(r.headers[2].name, "x-a");
  EXPECT_EQ(r.headers[2].value, "3");
}

// Every proper prefix of a valid head is need_more: never error, never done.
TEST(http1_parser, every_proper_prefix_of_a_good_request_needs_more) {
  for (const GoodRequest& t : good_requests()) {
    SCOPED_TRACE(t.name);
    const std::size_t head = t.input.size() - t.content_length;
    for (std::size_t n = 0; n < head; ++n) {
      Request r;
      const ParseResult res = parse_req(std::string_view(t.input).substr(0, n), r);
      EXPECT_EQ(res.status, Status::need_more) << "prefix " << n << ": " << show(res);
    }
  }
}

// Feeding a head byte by byte with the scan hint ends in the same result.
TEST(http1_parser, byte_by_byte_with_scan_hint_matches_one_piece) {
  for (const GoodRequest& t : good_requests()) {
    SCOPED_TRACE(t.name);
    std::size_t hint = 0;
    Request r;
    ParseResult res;
    std::size_t n = 0;
    for (; n <= t.input.size(); ++n) {
      const Guarded g(std::string_view(t.input).substr(0, n));
      res = wire::http::parse_request(g.view(), r, Limits{}, &hint);
      if (res.status != Status::need_more) break;
      EXPECT_LE(hint, n);
    }
    ASSERT_EQ(res.status, Status::done) << show(res);
    EXPECT_EQ(n, r.head_bytes) << "done exactly when the final LF arrives";
    EXPECT_EQ(hint, 0u) << "reset for the next request";
  }
}

TEST(http1_parser, pipelined_requests_parse_one_after_another) {
  const std::string two =
      "POST /rpc HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\nbodyGET /health HTTP/1.1\r\nHost: h\r\n\r\n";
  const Guarded g(two);
  Request r;
  ASSERT_TRUE(wire::http::parse_request(g.view(), r, Limits{}).done());
  EXPECT_EQ(r.head_bytes, 50u);
  EXPECT_EQ(r.content_length, 4u);
  EXPECT_EQ(g.view().substr(r.head_bytes, r.content_length), "body");
  const std::string_view rest = g.view().substr(r.head_bytes + r.content_length);
  ASSERT_TRUE(wire::http::parse_request(rest, r, Limits{}).done());
  EXPECT_EQ(r.target, "/health");
  EXPECT_EQ(r.head_bytes, rest.size());
}

// ---- requests that fail -------------------------------------------------------------------------

struct BadCase {
  const char* name;
  std::string input;
  Detail detail;  // implies the Error
  Error error;
};

const std::vector<BadCase>& bad_requests() {
  static const std::vector<BadCase> cases = {
      // line endings
      {"bare LF everywhere", "GET / HTTP/1.1\nHost: h\n\n", Detail::bare_lf, Error::bad_request},
      {"bare LF before the head is complete", "GET / HTTP/1.1\n", Detail::bare_lf, Error::bad_request},
      {"bare LF first byte", "\n", Detail::bare_lf, Error::bad_request},
      {"bare LF after a leading CRLF", "\r\n\n", Detail::bare_lf, Error::bad_request},
      {"bare LF ending a header", "GET / HTTP/1.1\r\nHost: h\n\r\n", Detail::bare_lf, Error::bad_request},
      {"CR LF LF ending", "GET / HTTP/1.1\r\nHost: h\r\n\n", Detail::bare_lf, Error::bad_request},
      {"lone CR in a value", "GET / HTTP/1.1\r\nHost: h\rX\r\n\r\n", Detail::bad_header_value,
       Error::bad_request},
      // request line
      {"empty method", " / HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_method, Error::bad_request},
      {"separator in method", "GE(T / HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_method, Error::bad_request},
      {"tab after method", "GET\t/ HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_method, Error::bad_request},
      {"method only", "GET\r\nHost: h\r\n\r\n", Detail::bad_request_line, Error::bad_request},
      {"empty target (two spaces)", "GET  HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_target,
       Error::bad_request},
      {"empty target at end", "GET \r\nHost: h\r\n\r\n", Detail::bad_target, Error::bad_request},
      {"CTL in target", "GET /a\x01z HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_target, Error::bad_request},
      {"DEL in target", "GET /a\x7fz HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_target, Error::bad_request},
      {"NUL in target", "GET /a\0z HTTP/1.1\r\nHost: h\r\n\r\n"s, Detail::bad_target, Error::bad_request},
      {"HTTP/0.9 (no version)", "GET /\r\n\r\n", Detail::bad_request_line, Error::bad_request},
      {"two spaces before version", "GET /  HTTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_version,
       Error::bad_request},
      {"space after version", "GET / HTTP/1.1 \r\nHost: h\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"lowercase http", "GET / http/1.1\r\nHost: h\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"version without minor", "GET / HTTP/1\r\nHost: h\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"version with two-digit minor", "GET / HTTP/1.10\r\nHost: h\r\n\r\n", Detail::bad_version,
       Error::bad_request},
      {"version garbage", "GET / FTP/1.1\r\nHost: h\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"short version at end of head", "GET / HT\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"HTTP/1.2", "GET / HTTP/1.2\r\nHost: h\r\n\r\n", Detail::version_not_supported,
       Error::version_not_supported},
      {"HTTP/2.0", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", Detail::version_not_supported,
       Error::version_not_supported},
      {"HTTP/0.9 spelled out", "GET / HTTP/0.9\r\n\r\n", Detail::version_not_supported,
       Error::version_not_supported},
      // header lines
      {"CR at the start of a header line", "GET / HTTP/1.1\r\nHost: h\r\n\rX: y\r\n\r\n",
       Detail::bad_header_name, Error::bad_request},
      {"obs-fold (SP)", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", Detail::obs_fold,
       Error::bad_request},
      {"obs-fold (HTAB)", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n\tb\r\n\r\n", Detail::obs_fold,
       Error::bad_request},
      {"whitespace before first header", "GET / HTTP/1.1\r\n Host: h\r\n\r\n", Detail::obs_fold,
       Error::bad_request},
      {"space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", Detail::space_before_colon,
       Error::bad_request},
      {"tab before colon", "GET / HTTP/1.1\r\nHost\t: h\r\n\r\n", Detail::space_before_colon,
       Error::bad_request},
      {"no colon", "GET / HTTP/1.1\r\nHost h\r\n\r\n", Detail::space_before_colon, Error::bad_request},
      {"no colon, no space", "GET / HTTP/1.1\r\nHost\r\n\r\n", Detail::bad_header_name, Error::bad_request},
      {"empty header name", "GET / HTTP/1.1\r\nHost: h\r\n: x\r\n\r\n", Detail::bad_header_name,
       Error::bad_request},
      {"separator in header name", "GET / HTTP/1.1\r\nHost: h\r\nX(y): z\r\n\r\n", Detail::bad_header_name,
       Error::bad_request},
      {"NUL in header name", "GET / HTTP/1.1\r\nHost: h\r\nX\0Y: z\r\n\r\n"s, Detail::bad_header_name,
       Error::bad_request},
      {"NUL in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\0b\r\n\r\n"s, Detail::bad_header_value,
       Error::bad_request},
      {"CTL in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\x01\r\n\r\n", Detail::bad_header_value,
       Error::bad_request},
      {"DEL in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\x7f\r\n\r\n", Detail::bad_header_value,
       Error::bad_request},
      {"ESC in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: \x1b[0m\r\n\r\n", Detail::bad_header_value,
       Error::bad_request},
      // Host
      {"HTTP/1.1 without Host", "GET / HTTP/1.1\r\nX: y\r\n\r\n", Detail::missing_host, Error::bad_request},
      {"two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", Detail::duplicate_host,
       Error::bad_request},
      {"two Host headers in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", Detail::duplicate_host,
       Error::bad_request},
      {"two Content-Type headers",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Type: a/b\r\nContent-Type: a/b\r\n\r\n",
       Detail::duplicate_content_type, Error::bad_request},
      // Content-Length
      {"Content-Length not digits", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length negative", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length plus sign", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length empty", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length hex", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length inner space", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1 2\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5, 5\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length 2^64 overflows",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 18446744073709551616\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length 2^64 with leading zeros still overflows",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0018446744073709551616\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length far over 2^64",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n",
       Detail::bad_content_length, Error::bad_request},
      {"Content-Length differing duplicates",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
       Detail::conflicting_content_length, Error::bad_request},
      {"Content-Length 2^64-1 is over the body limit",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 18446744073709551615\r\n\r\n", Detail::body_too_large,
       Error::body_too_large},
      {"Content-Length one over the body limit",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1048577\r\n\r\n", Detail::body_too_large,
       Error::body_too_large},
      // Transfer-Encoding
      {"Transfer-Encoding chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
       Detail::transfer_encoding, Error::not_implemented},
      {"Transfer-Encoding gzip, chunked",
       "POST / HTTP/1.1\r\nHost: h\r\ntransfer-encoding: gzip, chunked\r\n\r\n", Detail::transfer_encoding,
       Error::not_implemented},
      {"Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
       Detail::transfer_encoding, Error::not_implemented},
      {"Content-Length and Transfer-Encoding",
       "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
       Detail::content_length_with_transfer_encoding, Error::bad_request},
      {"Transfer-Encoding then Content-Length",
       "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
       Detail::content_length_with_transfer_encoding, Error::bad_request},
  };
  return cases;
}

TEST(http1_parser, rejects_each_bad_request_with_its_reason) {
  for (const BadCase& t : bad_requests()) {
    SCOPED_TRACE(t.name);
    Request r;
    const ParseResult res = parse_req(t.input, r);
    EXPECT_EQ(res.status, Status::error) << show(res);
    EXPECT_EQ(res.detail, t.detail) << show(res);
    EXPECT_EQ(res.error, t.error) << show(res);
  }
}

// Splitting any input (good or bad) in two with the scan hint gives the answer
// of the whole: the hint only skips bytes already searched.
TEST(http1_parser, any_two_piece_split_with_hint_matches_one_piece) {
  std::vector<std::string> inputs;
  for (const GoodRequest& t : good_requests()) inputs.push_back(t.input);
  for (const BadCase& t : bad_requests()) inputs.push_back(t.input);
  for (const std::string& in : inputs) {
    SCOPED_TRACE(in);
    Request whole;
    const ParseResult want = parse_req(in, whole);
    for (std::size_t cut = 0; cut <= in.size(); ++cut) {
      std::size_t hint = 0;
      Request r;
      ParseResult got = wire::http::parse_request(std::string_view(in).substr(0, cut), r, Limits{}, &hint);
      if (got.status == Status::need_more) {
        const Guarded g(in);
        got = wire::http::parse_request(g.view(), r, Limits{}, &hint);
      }
      ASSERT_EQ(got.status, want.status) << "cut " << cut << ": " << show(got);
      ASSERT_EQ(got.detail, want.detail) << "cut " << cut << ": " << show(got);
      if (got.done()) {
        ASSERT_EQ(r.head_bytes, whole.head_bytes);
      }
      ASSERT_EQ(hint, 0u) << "cut " << cut << ": reset after done or error, ready for the next message";
    }
  }
}

std::string request_with_headers_for_agreement() {
  return "\r\n\r\nPOST /rpc?x=1 HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\nX-A:\tv \r\n"
         "Content-Type: application/zap\r\nContent-Length: 3\r\n\r\nabc";
}

// A new request is parsed in one pass when it can be decided so; anything
// else takes the two passes. A hint beyond the buffer is ignored by the two
// passes and keeps the one pass out, so it gives the two passes' answer: both
// must agree on every input and every prefix, fields included, under the
// default and tight limits (guarded: neither may read past the end).
TEST(http1_parser, one_pass_and_two_passes_agree) {
  std::vector<std::string> inputs;
  for (const GoodRequest& t : good_requests()) inputs.push_back(t.input);
  for (const BadCase& t : bad_requests()) inputs.push_back(t.input);
  inputs.push_back(request_with_headers_for_agreement());
  Limits tight;
  tight.max_header_bytes = 40;
  tight.max_headers = 2;
  tight.max_body_bytes = 3;
  for (const Limits& limits : {Limits{}, tight})
    for (const std::string& in : inputs)
      for (std::size_t n = 0; n <= in.size(); ++n) {
        SCOPED_TRACE(in.substr(0, n));
        const Guarded g(std::string_view(in).substr(0, n));
        Request one, two;
        const ParseResult a = wire::http::parse_request(g.view(), one, limits);
        std::size_t past_the_end = n + 1;
        const ParseResult b = wire::http::parse_request(g.view(), two, limits, &past_the_end);
        ASSERT_EQ(a.status, b.status) << show(a) << " vs " << show(b);
        ASSERT_EQ(a.detail, b.detail) << show(a) << " vs " << show(b);
        if (!a.done()) continue;
        EXPECT_EQ(one.method.data(), two.method.data());
        EXPECT_EQ(one.method.size(), two.method.size());
        EXPECT_EQ(one.target.data(), two.target.data());
        EXPECT_EQ(one.target.size(), two.target.size());
        EXPECT_EQ(one.minor_version, two.minor_version);
        ASSERT_EQ(one.header_count, two.header_count);
        for (std::size_t i = 0; i < one.header_count; ++i) {
          EXPECT_EQ(one.headers[i].name.data(), two.headers[i].name.data());
          EXPECT_EQ(one.headers[i].value, two.headers[i].value);
        }
        EXPECT_EQ(one.content_length, two.content_length);
        EXPECT_EQ(one.has_content_length, two.has_content_length);
        EXPECT_EQ(one.close, two.close);
        EXPECT_EQ(one.content_type.data(), two.content_type.data());
        EXPECT_EQ(one.host.data(), two.host.data());
        EXPECT_EQ(one.head_bytes, two.head_bytes);
      }
}

// ---- limits -------------------------------------------------------------------------------------

std::string request_with_headers(std::size_t n) {
  std::string s = "GET / HTTP/1.1\r\nHost: h\r\n";
  for (std::size_t i = 1; i < n; ++i) s += "X-" + std::to_string(i) + ": v\r\n";
  return s + "\r\n";
}

TEST(http1_parser, header_count_limit) {
  Request r;
  EXPECT_TRUE(parse_req(request_with_headers(wire::http::kMaxHeaders), r).done());
  EXPECT_EQ(r.header_count, wire::http::kMaxHeaders);
  const ParseResult over = parse_req(request_with_headers(wire::http::kMaxHeaders + 1), r);
  EXPECT_EQ(over.error, Error::header_too_large);
  EXPECT_EQ(over.detail, Detail::too_many_headers);

  Limits three;
  three.max_headers = 3;
  EXPECT_TRUE(parse_req(request_with_headers(3), r, three).done());
  EXPECT_EQ(parse_req(request_with_headers(4), r, three).error, Error::header_too_large);
  Limits huge;  // more than the compile-time cap is capped
  huge.max_headers = 1000;
  EXPECT_EQ(parse_req(request_with_headers(wire::http::kMaxHeaders + 1), r, huge).error,
            Error::header_too_large);
}

TEST(http1_parser, head_size_limit_complete_and_incomplete) {
  const std::string req = "GET / HTTP/1.1\r\nHost: h\r\nX-Pad: " + std::string(100, 'p') + "\r\n\r\n";
  Request r;
  Limits exact;
  exact.max_header_bytes = req.size();
  EXPECT_TRUE(parse_req(req, r, exact).done()) << "a head of exactly max_header_bytes fits";

  Limits one_less;
  one_less.max_header_bytes = req.size() - 1;
  const ParseResult complete = parse_req(req, r, one_less);
  EXPECT_EQ(complete.error, Error::header_too_large) << show(complete);
  EXPECT_EQ(complete.detail, Detail::head_too_large);
  EXPECT_EQ(wire::http::http_status(complete.error), 431);

  // Slowloris: no CRLFCRLF yet, but already max_header_bytes of it: give up now.
  const std::string_view partial = std::string_view(req).substr(0, 60);
  Limits small;
  small.max_header_bytes = 60;
  EXPECT_EQ(parse_req(partial, r, small).error, Error::header_too_large);
  small.max_header_bytes = 61;
  EXPECT_EQ(parse_req(partial, r, small).status, Status::need_more);

  // Default limit: 8 KiB of an endless header line.
  const std::string endless = "GET / HTTP/1.1\r\nHost: h\r\nX: " + std::string(9000, 'a');
  EXPECT_EQ(parse_req(endless, r).error, Error::header_too_large);
  EXPECT_EQ(parse_req(std::string_view(endless).substr(0, 8191), r).status, Status::need_more);
  EXPECT_EQ(parse_req(std::string_view(endless).substr(0, 8192), r).error, Error::header_too_large);

  // Leading empty lines count too.
  std::string crlfs;
  for (int i = 0; i < 5000; ++i) crlfs += "\r\n";
  EXPECT_EQ(parse_req(crlfs, r).error, Error::header_too_large);
}

TEST(http1_parser, body_limit_is_a_parameter) {
  Limits tiny;
  tiny.max_body_bytes = 4;
  Request r;
  EXPECT_TRUE(parse_req("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 4\r\n\r\n", r, tiny).done());
  const ParseResult over = parse_req("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n", r, tiny);
  EXPECT_EQ(over.error, Error::body_too_large);
  EXPECT_EQ(wire::http::http_status(over.error), 413);
}

TEST(http1_parser, stale_hint_beyond_the_buffer_is_ignored) {
  std::size_t hint = 1000;
  Request r;
  const Guarded g("GET / HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_TRUE(wire::http::parse_request(g.view(), r, Limits{}, &hint).done());
}

TEST(http1_parser, parsing_allocates_nothing) {
  const Guarded get("GET /health HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n");
  const Guarded resp("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
  Request q;
  Response p;
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 1000; ++i) {
    std::size_t hint = 0;
    EXPECT_TRUE(wire::http::parse_request(get.view(), q, Limits{}, &hint).done());
    EXPECT_TRUE(wire::http::parse_response(resp.view(), p, Limits{}).done());
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
}

// ---- responses ----------------------------------------------------------------------------------

struct GoodResponse {
  const char* name;
  std::string input;
  int status;
  int minor_version;
  std::string_view reason;
  std::size_t header_count;
  std::uint64_t content_length;
  bool has_content_length;
  bool body_until_close;
  bool close;
  // The head is the input less the body: input.size() - content_length.
};

const std::vector<GoodResponse>& good_responses() {
  static const std::vector<GoodResponse> cases = {
      {"200 with body", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok", 200, 1,
       "OK", 2, 2, true, false, false},
      {"reason with spaces", "HTTP/1.1 404 Not Found Here\r\nContent-Length: 0\r\n\r\n", 404, 1,
       "Not Found Here", 1, 0, true, false, false},
      {"empty reason after SP", "HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", 200, 1, "", 1, 0, true, false,
       false},
      {"no SP, no reason", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n", 200, 1, "", 1, 0, true, false, false},
      {"204 has no body", "HTTP/1.1 204 No Content\r\n\r\n", 204, 1, "No Content", 0, 0, false, false, false},
      {"304 ignores its Content-Length", "HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n", 304, 1,
       "Not Modified", 1, 0, true, false, false},
      {"304 is not held to the body limit",
       "HTTP/1.1 304 Not Modified\r\nContent-Length: 99999999999\r\n\r\n", 304, 1, "Not Modified", 1, 0, true,
       false, false},
      {"100 Continue", "HTTP/1.1 100 Continue\r\n\r\n", 100, 1, "Continue", 0, 0, false, false, false},
      {"200 without framing runs to close", "HTTP/1.1 200 OK\r\n\r\n", 200, 1, "OK", 0, 0, false, true, true},
      {"HTTP/1.0 closes by default", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", 200, 0, "OK", 1, 0, true,
       false, true},
      {"HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n", 200,
       0, "OK", 2, 0, true, false, false},
      {"Connection: close", "HTTP/1.1 503 Busy\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 503, 1,
       "Busy", 2, 1, true, false, true},
      {"obs-text and HTAB in reason", "HTTP/1.1 200 O\tK\xe9\r\nContent-Length: 0\r\n\r\n", 200, 1,
       "O\tK\xe9", 1, 0, true, false, false},
      {"599 is a status", "HTTP/1.1 599 x\r\nContent-Length: 0\r\n\r\n", 599, 1, "x", 1, 0, true, false,
       false},
  };
  return cases;
}

TEST(http1_response_parser, parses_each_good_response_with_its_fields) {
  for (const GoodResponse& t : good_responses()) {
    SCOPED_TRACE(t.name);
    const Guarded g(t.input);
    Response r;
    const ParseResult res = wire::http::parse_response(g.view(), r, Limits{});
    ASSERT_EQ(res.status, Status::done) << show(res);
    EXPECT_EQ(r.status, t.status);
    EXPECT_EQ(r.minor_version, t.minor_version);
    EXPECT_EQ(r.reason, t.reason);
    EXPECT_EQ(r.header_count, t.header_count);
    EXPECT_EQ(r.content_length, t.content_length);
    EXPECT_EQ(r.has_content_length, t.has_content_length);
    EXPECT_EQ(r.body_until_close, t.body_until_close);
    EXPECT_EQ(r.close, t.close);
    EXPECT_EQ(r.head_bytes, t.input.size() - t.content_length);
    EXPECT_TRUE(inside(g.view(), r.reason));
  }
}

TEST(http1_response_parser, every_proper_prefix_of_a_good_response_needs_more) {
  for (const GoodResponse& t : good_responses()) {
    SCOPED_TRACE(t.name);
    const std::size_t head = t.input.size() - t.content_length;
    for (std::size_t n = 0; n < head; ++n) {
      Response r;
      const ParseResult res = parse_resp(std::string_view(t.input).substr(0, n), r);
      EXPECT_EQ(res.status, Status::need_more) << "prefix " << n << ": " << show(res);
    }
  }
}

TEST(http1_response_parser, rejects_each_bad_response_with_its_reason) {
  const std::vector<BadCase> cases = {
      {"status two digits", "HTTP/1.1 20 OK\r\n\r\n", Detail::bad_status_code, Error::bad_request},
      {"status four digits", "HTTP/1.1 2000 OK\r\n\r\n", Detail::bad_status_code, Error::bad_request},
      {"status letters", "HTTP/1.1 abc OK\r\n\r\n", Detail::bad_status_code, Error::bad_request},
      {"status 099", "HTTP/1.1 099 x\r\n\r\n", Detail::bad_status_code, Error::bad_request},
      {"status 600", "HTTP/1.1 600 x\r\n\r\n", Detail::bad_status_code, Error::bad_request},
      {"no space after version", "HTTP/1.1200 OK\r\n\r\n", Detail::bad_status_line, Error::bad_request},
      {"too short", "HTTP/1.1\r\n\r\n", Detail::bad_status_line, Error::bad_request},
      {"not HTTP", "ICY 200 OK\r\n\r\n", Detail::bad_status_line, Error::bad_request},
      {"garbage version", "HTTP/x.y 200 OK\r\n\r\n", Detail::bad_version, Error::bad_request},
      {"HTTP/2.0", "HTTP/2.0 200 OK\r\n\r\n", Detail::version_not_supported, Error::version_not_supported},
      {"CTL in reason", "HTTP/1.1 200 O\x01K\r\n\r\n", Detail::bad_reason, Error::bad_request},
      {"bare LF", "HTTP/1.1 200 OK\nContent-Length: 0\n\n", Detail::bare_lf, Error::bad_request},
      {"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", Detail::transfer_encoding,
       Error::not_implemented},
      {"CL and TE", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
       Detail::content_length_with_transfer_encoding, Error::bad_request},
      {"bad Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n", Detail::bad_content_length,
       Error::bad_request},
      {"conflicting Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
       Detail::conflicting_content_length, Error::bad_request},
      {"body over the limit", "HTTP/1.1 200 OK\r\nContent-Length: 1048577\r\n\r\n", Detail::body_too_large,
       Error::body_too_large},
      {"obs-fold", "HTTP/1.1 200 OK\r\nX: a\r\n b\r\n\r\n", Detail::obs_fold, Error::bad_request},
      {"space before colon", "HTTP/1.1 200 OK\r\nX : a\r\n\r\n", Detail::space_before_colon,
       Error::bad_request},
  };
  for (const BadCase& t : cases) {
    SCOPED_TRACE(t.name);
    Response r;
    const ParseResult res = parse_resp(t.input, r);
    EXPECT_EQ(res.status, Status::error) << show(res);
    EXPECT_EQ(res.detail, t.detail) << show(res);
    EXPECT_EQ(res.error, t.error) << show(res);
  }
  Response r;
  Limits small;
  small.max_header_bytes = 10;
  EXPECT_EQ(parse_resp("HTTP/1.1 200 OK\r\n", r, small).error, Error::header_too_large);
}

TEST(http1_response_parser, pipelined_responses_with_hint) {
  const std::string two =
      "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes";
  std::size_t hint = 0;
  Response r;
  ASSERT_EQ(wire::http::parse_response(std::string_view(two).substr(0, 20), r, Limits{}, &hint).status,
            Status::need_more);
  EXPECT_EQ(hint, 20u);
  const Guarded g(two);
  ASSERT_TRUE(wire::http::parse_response(g.view(), r, Limits{}, &hint).done());
  EXPECT_EQ(hint, 0u);
  const std::string_view rest = g.view().substr(r.head_bytes + r.content_length);
  ASSERT_TRUE(wire::http::parse_response(rest, r, Limits{}, &hint).done());
  EXPECT_EQ(rest.substr(r.head_bytes), "yes");
}

// ---- errors as answers --------------------------------------------------------------------------

TEST(http1_errors, map_to_statuses_and_texts) {
  EXPECT_EQ(wire::http::http_status(Error::bad_request), 400);
  EXPECT_EQ(wire::http::http_status(Error::header_too_large), 431);
  EXPECT_EQ(wire::http::http_status(Error::body_too_large), 413);
  EXPECT_EQ(wire::http::http_status(Error::length_required), 411);
  EXPECT_EQ(wire::http::http_status(Error::not_implemented), 501);
  EXPECT_EQ(wire::http::http_status(Error::version_not_supported), 505);
  EXPECT_EQ(wire::http::reason(Error::bad_request), "bad request");
  EXPECT_EQ(wire::http::reason(ParseResult{Status::error, Error::bad_request, Detail::bad_header_name}),
            "bad request: invalid header name");
  EXPECT_EQ(wire::http::describe(Detail::bad_header_name), "invalid header name");
  EXPECT_EQ(wire::http::reason_phrase(431), "Request Header Fields Too Large");
  EXPECT_EQ(wire::http::reason_phrase(299), "");
  // Every detail has a text that starts with its kind's text.
  for (int d = 1; d <= static_cast<int>(Detail::version_not_supported); ++d) {
    const auto detail = static_cast<Detail>(d);
    const std::string_view text = wire::http::describe(detail);
    EXPECT_FALSE(text.empty()) << d;
    EXPECT_EQ(text.find(':'), std::string_view::npos) << text;
  }
}

// ---- writers ------------------------------------------------------------------------------------

std::string contents(const net::Buffer& b) { return std::string(b.readable_text()); }

TEST(http1_writer, response_bytes_are_exact) {
  net::Buffer b(16);
  const std::size_t n = wire::http::write_response(b, 200, "OK", "text/plain", "ok", false, "");
  EXPECT_EQ(contents(b), "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok");
  EXPECT_EQ(n, b.size());

  net::Buffer c;
  wire::http::write_response(c, 400, "Bad Request", "text/plain", "bad request: obsolete line folding", true,
                             "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(
      contents(c),
      "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 34\r\n"
      "Date: Sun, 06 Nov 1994 08:49:37 GMT\r\nConnection: close\r\n\r\nbad request: obsolete line folding");
}

TEST(http1_writer, response_omits_what_is_empty_or_forbidden) {
  net::Buffer b;
  wire::http::write_response(b, 200, "OK", "", "", false, "");
  EXPECT_EQ(contents(b), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
  b.clear();
  wire::http::write_response(b, 204, "No Content", "", "", false, "");
  EXPECT_EQ(contents(b), "HTTP/1.1 204 No Content\r\n\r\n") << "204 must not carry Content-Length";
  b.clear();
  wire::http::write_response(b, 599, "", "", "", false, "");
  EXPECT_EQ(contents(b), "HTTP/1.1 599 \r\nContent-Length: 0\r\n\r\n");
}

TEST(http1_writer, responses_append_and_grow_the_buffer) {
  net::Buffer b(8);
  const std::string big(100000, 'z');
  const std::size_t n1 = wire::http::write_response(b, 200, "OK", "application/zap", big, false, "");
  const std::size_t n2 = wire::http::write_response(b, 200, "OK", "text/plain", "ok", true, "");
  EXPECT_EQ(b.size(), n1 + n2);
  Response r;
  const Guarded g(b.readable_text());
  ASSERT_TRUE(wire::http::parse_response(g.view(), r, Limits{}).done());
  EXPECT_EQ(r.content_length, big.size());
  EXPECT_EQ(g.view().substr(r.head_bytes, r.content_length), big);
  const std::string_view rest = g.view().substr(r.head_bytes + r.content_length);
  ASSERT_TRUE(wire::http::parse_response(rest, r, Limits{}).done());
  EXPECT_TRUE(r.close);
  EXPECT_EQ(rest.substr(r.head_bytes), "ok");
}

// The server's prepared heads write what write_response writes, for every
// reply shape it prepares, with and without Date, Allow and close.
TEST(http1_writer, prepared_response_is_byte_identical_to_write_response) {
  struct Shape {
    int status;
    std::string_view content_type;
    std::string_view allow;
  };
  const Shape shapes[] = {{200, "application/zap", ""},
                          {200, "text/plain; charset=utf-8", ""},
                          {400, "text/plain; charset=utf-8", ""},
                          {405, "text/plain; charset=utf-8", "GET"},
                          {415, "", ""},
                          {599, "application/json", "POST"}};
  for (const Shape& s : shapes)
    for (const bool close : {false, true})
      for (const std::string_view date :
           {std::string_view{}, std::string_view{"Sun, 06 Nov 1994 08:49:37 GMT"}}) {
        wire::http::PreparedResponse p;
        ASSERT_TRUE(
            p.prepare(s.status, wire::http::reason_phrase(s.status), s.content_type, close, date, s.allow));
        for (const std::size_t n : {0, 2, 9, 10, 99, 100, 100000}) {
          const std::string body(n, 'b');
          net::Buffer want, got(8);
          if (s.allow.empty())
            wire::http::write_response(want, s.status, wire::http::reason_phrase(s.status), s.content_type,
                                       body, close, date);
          else
            wire::http::write_response(want, s.status, wire::http::reason_phrase(s.status), s.content_type,
                                       body, close, date, s.allow);
          // Twice: the second append reuses the head kept for this length.
          for (int twice = 0; twice < 2; ++twice) {
            got.clear();
            EXPECT_EQ(p.append(got, body), want.size());
            EXPECT_EQ(contents(got), contents(want)) << s.status << " close " << close << " body " << n;
          }
        }
      }
}

// The server prepares its heads again every second with the new Date: once
// prepared with a Date, doing it again (and appending) allocates nothing.
TEST(http1_writer, prepared_response_prepared_again_allocates_nothing) {
  wire::http::PreparedResponse p[2];
  net::Buffer out;
  const char* const dates[] = {"Sun, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:38 GMT"};
  for (const bool close : {false, true}) {
    ASSERT_TRUE(
        p[close].prepare(405, "Method Not Allowed", "text/plain; charset=utf-8", close, dates[0], "GET"));
    p[close].append(out, "method not allowed");
  }
  out.clear();
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 100; ++i)
    for (const bool close : {false, true}) {
      ASSERT_TRUE(p[close].prepare(405, "Method Not Allowed", "text/plain; charset=utf-8", close,
                                   dates[i % 2], "GET"));
      p[close].append(out, "method not allowed");
      out.clear();
    }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
}

TEST(http1_writer, prepared_response_refuses_bodyless_statuses) {
  wire::http::PreparedResponse p;
  for (const int status : {100, 101, 204, 304}) EXPECT_FALSE(p.prepare(status, "x", "", false, "")) << status;
  net::Buffer out;
  EXPECT_EQ(p.append(out, "body"), 0u) << "not prepared: nothing appended";
  EXPECT_TRUE(out.empty());
}

TEST(http1_writer, request_bytes_are_exact) {
  net::Buffer b;
  const std::size_t n = wire::http::write_request(b, "GET", "/health", "127.0.0.1:8080", "", "");
  EXPECT_EQ(contents(b), "GET /health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n");
  EXPECT_EQ(n, b.size());
  b.clear();
  wire::http::write_request(b, "POST", "/rpc", "h", "application/json", "{}");
  EXPECT_EQ(contents(b),
            "POST /rpc HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
}

TEST(http1_writer, round_trips_through_the_parsers) {
  net::Buffer b;
  const std::string body = "{\"id\":1}";
  wire::http::write_request(b, "POST", "/rpc", "localhost:8080", "application/json", body);
  Request q;
  {
    const Guarded g(b.readable_text());
    ASSERT_TRUE(wire::http::parse_request(g.view(), q, Limits{}).done());
    EXPECT_EQ(q.method, "POST");
    EXPECT_EQ(q.target, "/rpc");
    EXPECT_EQ(q.host, "localhost:8080");
    EXPECT_EQ(q.content_type, "application/json");
    EXPECT_EQ(q.content_length, body.size());
    EXPECT_FALSE(q.close);
    EXPECT_EQ(g.view().substr(q.head_bytes), body);
  }
  b.clear();
  wire::http::write_response(b, 200, "OK", "application/zap", "\x01\x02\r\n\r\n", true,
                             "Thu, 01 Jan 1970 00:00:00 GMT");
  Response p;
  const Guarded g(b.readable_text());
  ASSERT_TRUE(wire::http::parse_response(g.view(), p, Limits{}).done());
  EXPECT_EQ(p.status, 200);
  EXPECT_EQ(p.reason, "OK");
  EXPECT_EQ(p.content_type, "application/zap");
  EXPECT_EQ(p.content_length, 6u);
  EXPECT_TRUE(p.close);
  EXPECT_EQ(p.header_count, 4u);
  EXPECT_EQ(g.view().substr(p.head_bytes), "\x01\x02\r\n\r\n");
}

TEST(http1_writer, writing_into_a_grown_buffer_allocates_nothing) {
  net::Buffer b;
  // A buffer takes its region at its first write (net/buffer.hpp): grown by the first response.
  wire::http::write_response(b, 200, "OK", "text/plain", "ok", false, "Thu, 01 Jan 1970 00:00:00 GMT");
  b.consume(b.size());
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 1000; ++i) {
    wire::http::write_response(b, 200, "OK", "text/plain", "ok", false, "Thu, 01 Jan 1970 00:00:00 GMT");
    b.consume(b.size());
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
}

TEST(http1_writer, formats_imf_fixdate) {
  std::array<char, wire::http::kHttpDateBytes> d{};
  EXPECT_EQ(wire::http::format_http_date(0, d), "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(wire::http::format_http_date(784111777, d), "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(wire::http::format_http_date(951782400, d), "Tue, 29 Feb 2000 00:00:00 GMT");
  EXPECT_EQ(wire::http::format_http_date(253402300799, d), "Fri, 31 Dec 9999 23:59:59 GMT");
}

}  // namespace
