// fuzz/http1_fuzz.cpp — libFuzzer target for wire/http1: the request and the
// response parser on arbitrary bytes (from an exact-size heap copy, so ASan
// sees any over-read), under default and tight limits, checking what a done
// result promises, that the one-pass request parse agrees with the two passes,
// that pieces with the scan hint give the whole's answer,
// and that the writers' output parses back. Seeds: fuzz/http_seeds/.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include "net/buffer.hpp"
#include "wire/http1.hpp"

namespace {

using wire::http::Limits;
using wire::http::ParseResult;
using wire::http::Status;

// Aborts with a message libFuzzer prints with the crashing input.
void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "http1_fuzz: invariant failed: %s\n", what);
    std::abort();
  }
}

bool inside(std::string_view head, std::string_view v) {
  return v.empty() || (v.data() >= head.data() && v.data() + v.size() <= head.data() + head.size());
}
bool is_ows(char c) { return c == ' ' || c == '\t'; }
bool no_line_break(std::string_view v) { return v.find_first_of("\r\n") == std::string_view::npos; }

// What every done result promises, for either message type.
template <class M>
void check_head(std::string_view in, const M& m, const Limits& limits) {
  check(m.head_bytes >= 4 && m.head_bytes <= in.size(), "head_bytes within the input");
  check(m.head_bytes <= limits.max_header_bytes, "head_bytes within max_header_bytes");
  check(in.substr(m.head_bytes - 4, 4) == "\r\n\r\n", "head ends with CRLFCRLF");
  std::size_t begin = 0;  // leading empty lines are skipped
  while (begin + 1 < in.size() && in[begin] == '\r' && in[begin + 1] == '\n') begin += 2;
  check(begin < m.head_bytes - 4 && in.find("\r\n\r\n", begin) == m.head_bytes - 4,
        "the first CRLFCRLF after the start line ends the head");
  check(m.header_count <= limits.max_headers && m.header_count <= wire::http::kMaxHeaders, "header_count");
  check(m.content_length <= limits.max_body_bytes, "content_length within max_body_bytes");
  const std::string_view head = in.substr(0, m.head_bytes);
  for (std::size_t i = 0; i < m.header_count; ++i) {
    const auto& h = m.headers[i];
    check(!h.name.empty() && inside(head, h.name) && inside(head, h.value), "header views inside the head");
    check(no_line_break(h.name) && no_line_break(h.value), "no CR/LF in header views");
    check(h.value.empty() || (!is_ows(h.value.front()) && !is_ows(h.value.back())), "values trimmed");
  }
  check(inside(head, m.content_type), "content_type inside the head");
}

void check_request(std::string_view in, const wire::http::Request& r, const Limits& limits) {
  check_head(in, r, limits);
  const std::string_view head = in.substr(0, r.head_bytes);
  check(!r.method.empty() && inside(head, r.method), "method");
  check(!r.target.empty() && inside(head, r.target) && no_line_break(r.target), "target");
  check(r.minor_version == 0 || r.minor_version == 1, "version");
  check(!r.chunked, "chunked is refused");
  check(r.minor_version == 0 || !r.host.data() || inside(head, r.host), "host");
}

void check_response(std::string_view in, const wire::http::Response& r, const Limits& limits) {
  check_head(in, r, limits);
  check(r.status >= 100 && r.status <= 599, "status");
  check(inside(in.substr(0, r.head_bytes), r.reason) && no_line_break(r.reason), "reason");
  check(!r.body_until_close || r.close, "a body to close closes");
}

template <class M, class Parse>
ParseResult run(std::string_view in, const Limits& limits, Parse parse) {
  M whole;
  const ParseResult want = parse(in, whole, limits, nullptr);
  if (want.status == Status::done) {
    if constexpr (std::is_same_v<M, wire::http::Request>)
      check_request(in, whole, limits);
    else
      check_response(in, whole, limits);
    // The answer depends on the head only: the head alone gives the same, one byte less needs more.
    M again;
    const ParseResult exact = parse(in.substr(0, whole.head_bytes), again, limits, nullptr);
    check(exact.status == Status::done && again.head_bytes == whole.head_bytes, "head alone parses the same");
    const ParseResult shorter = parse(in.substr(0, whole.head_bytes - 1), again, limits, nullptr);
    check(shorter.status == Status::need_more, "a proper prefix of a head needs more");
  }
  check((want.status == Status::error) == (want.error != wire::http::Error::none), "error iff error kind");
  if constexpr (std::is_same_v<M, wire::http::Request>) {
    // A hint past the end keeps the one-pass parse out: the two passes must
    // give the same answer, views included.
    std::size_t past_the_end = in.size() + 1;
    M two;
    const ParseResult got = parse(in, two, limits, &past_the_end);
    check(got.status == want.status && got.error == want.error && got.detail == want.detail,
          "one pass and two passes agree");
    if (got.status == Status::done) {
      bool same = whole.method.data() == two.method.data() && whole.method.size() == two.method.size() &&
                  whole.target.data() == two.target.data() && whole.target.size() == two.target.size() &&
                  whole.minor_version == two.minor_version && whole.header_count == two.header_count &&
                  whole.content_length == two.content_length &&
                  whole.has_content_length == two.has_content_length && whole.close == two.close &&
                  whole.content_type.data() == two.content_type.data() &&
                  whole.content_type.size() == two.content_type.size() &&
                  whole.host.data() == two.host.data() && whole.head_bytes == two.head_bytes;
      for (std::size_t i = 0; same && i < whole.header_count; ++i)
        same = whole.headers[i].name.data() == two.headers[i].name.data() &&
               whole.headers[i].name.size() == two.headers[i].name.size() &&
               whole.headers[i].value.data() == two.headers[i].value.data() &&
               whole.headers[i].value.size() == two.headers[i].value.size();
      check(same, "one pass and two passes give the same fields");
    }
  }

  // Two pieces with the scan hint (cut points from the input's size) give the whole's answer.
  for (const std::size_t cut : {in.size() / 2, in.size() / 3, in.size() > 0 ? in.size() - 1 : 0}) {
    std::size_t hint = 0;
    M m;
    ParseResult got = parse(in.substr(0, cut), m, limits, &hint);
    if (got.status == Status::need_more) {
      check(hint <= cut, "hint within the piece");
      got = parse(in, m, limits, &hint);
    }
    check(got.status == want.status && got.error == want.error && got.detail == want.detail,
          "two pieces with the hint give the whole's answer");
    if (got.status == Status::done) check(m.head_bytes == whole.head_bytes, "same head_bytes in pieces");
    if (got.status != Status::need_more) check(hint == 0, "hint reset after done or error");
  }
  return want;
}

// The writers' output parses back to what was written, whatever the body.
void round_trip(std::string_view body) {
  net::Buffer out(64);
  wire::http::write_response(out, 200, "OK", "application/octet-stream", body, body.size() % 2 == 1,
                             "Thu, 01 Jan 1970 00:00:00 GMT");
  wire::http::Response r;
  Limits big;
  big.max_body_bytes = UINT64_MAX;
  const std::string_view text = out.readable_text();
  check(wire::http::parse_response(text, r, big).done(), "written response parses");
  check(r.content_length == body.size() && text.substr(r.head_bytes) == body, "response body round-trips");
  check(r.close == (body.size() % 2 == 1), "response close round-trips");

  out.clear();
  wire::http::write_request(out, "POST", "/rpc", "h", "application/zap", body);
  wire::http::Request q;
  check(wire::http::parse_request(out.readable_text(), q, big).done(), "written request parses");
  check(q.content_length == body.size() && out.readable_text().substr(q.head_bytes) == body,
        "request body round-trips");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Exact-size heap copy: one byte past the end is outside the allocation.
  const std::unique_ptr<char[]> copy(new char[size]);
  if (size != 0) std::memcpy(copy.get(), data, size);
  const std::string_view in(copy.get(), size);

  const auto req = [](std::string_view b, wire::http::Request& m, const Limits& l, std::size_t* h) {
    return wire::http::parse_request(b, m, l, h);
  };
  const auto resp = [](std::string_view b, wire::http::Response& m, const Limits& l, std::size_t* h) {
    return wire::http::parse_response(b, m, l, h);
  };
  Limits tight;  // small enough that the fuzzer reaches every limit
  tight.max_header_bytes = 200;
  tight.max_headers = 3;
  tight.max_body_bytes = 100;
  for (const Limits& limits : {Limits{}, tight}) {
    run<wire::http::Request>(in, limits, req);
    run<wire::http::Response>(in, limits, resp);
  }
  round_trip(in);
  return 0;
}
