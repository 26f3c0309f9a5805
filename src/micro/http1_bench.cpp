// micro/http1_bench.cpp — HTTP/1.1 framing cost: wire/http1's request parser
// against Debian's libhttp-parser (nodejs/http-parser 2.9, used its fastest
// way), on the two requests the benchmark sends; plus our response parser and
// response writer. This comparison decides which parser the server uses.
// Every row checks its parse of both requests before timing. libhttp-parser is
// optional: without ZAPBENCH_HAVE_HTTP_PARSER its row says why it is missing.
#include <benchmark/benchmark.h>
#if ZAPBENCH_HAVE_HTTP_PARSER
#include <http_parser.h>
#endif

#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "micro/counters.hpp"
#include "net/buffer.hpp"
#include "record/codec_direct.hpp"
#include "wire/http1.hpp"

namespace micro {
namespace {

// The two requests, each in its own exact-size heap copy: GET /health as wrk
// sends it, and POST /rpc with the sample record's JSON body as zapbench's
// load generator writes it (wire::http::write_request).
struct Inputs {
  std::string get = "GET /health HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";
  std::string post;
  std::string body;
  Inputs() {
    record::DirectCodec codec;
    const record::Bytes b = codec.encode_request(record::sample_request());
    body.assign(reinterpret_cast<const char*>(b.data()), b.size());
    net::Buffer out;
    wire::http::write_request(out, "POST", "/rpc", "127.0.0.1:8080", "application/json", body);
    post = std::string(out.readable_text());
  }
  [[nodiscard]] std::size_t wire_bytes() const { return get.size() + post.size(); }
};
const Inputs& inputs() {
  static const Inputs in;
  return in;
}

// ---- ours ---------------------------------------------------------------------------------------

bool check_own(const wire::http::Request& g, const wire::http::Request& p, const Inputs& in) {
  return g.method == "GET" && g.target == "/health" && g.header_count == 1 && !g.close &&
         g.head_bytes == in.get.size() && p.method == "POST" && p.target == "/rpc" &&
         p.content_type == "application/json" && p.content_length == in.body.size() &&
         p.head_bytes + p.content_length == in.post.size();
}

void bm_parse_own(benchmark::State& state) {
  const Inputs& in = inputs();
  const wire::http::Limits limits;
  wire::http::Request get, post;
  if (!wire::http::parse_request(in.get, get, limits).done() ||
      !wire::http::parse_request(in.post, post, limits).done() || !check_own(get, post, in))
    return state.SkipWithError("own parser does not give the requests back");
  AllocMeter meter(state);
  for (auto _ : state) {
    std::string_view g = in.get, p = in.post;
    benchmark::DoNotOptimize(g);  // the parse is redone every iteration
    benchmark::DoNotOptimize(p);
    const wire::http::ParseResult rg = wire::http::parse_request(g, get, limits);
    const wire::http::ParseResult rp = wire::http::parse_request(p, post, limits);
    benchmark::DoNotOptimize(rg);
    benchmark::DoNotOptimize(rp);
    benchmark::DoNotOptimize(get.head_bytes);
    benchmark::DoNotOptimize(post.content_length);
    benchmark::DoNotOptimize(post.content_type.data());
  }
  state.SetItemsProcessed(2 * state.iterations());  // requests
  state.SetBytesProcessed(static_cast<std::int64_t>(in.wire_bytes()) * state.iterations());
  meter.report(in.wire_bytes());
}

// ---- libhttp-parser -----------------------------------------------------------------------------
//
// Its fastest use: one parser object reused across messages (as on a
// keep-alive connection), static settings, and callbacks that only record
// views, into the same kind of header array ours fills. It also counts the body
// (on_body), which ours leaves to the caller; on these bodies that is one call.
// Linked statically or shared, the times are the same within 4%.
#if ZAPBENCH_HAVE_HTTP_PARSER

struct Capture {
  std::string_view url;
  wire::http::Header headers[wire::http::kMaxHeaders];
  std::size_t header_count = 0;
  std::string_view body;
  bool complete = false;
};
Capture& capture(http_parser* p) { return *static_cast<Capture*>(p->data); }

int on_message_begin(http_parser* p) {
  Capture& c = capture(p);
  c.header_count = 0;
  c.complete = false;
  return 0;
}
int on_url(http_parser* p, const char* at, std::size_t n) {
  capture(p).url = {at, n};
  return 0;
}
int on_header_field(http_parser* p, const char* at, std::size_t n) {
  Capture& c = capture(p);
  if (c.header_count == wire::http::kMaxHeaders) return 1;
  c.headers[c.header_count].name = {at, n};
  return 0;
}
int on_header_value(http_parser* p, const char* at, std::size_t n) {
  Capture& c = capture(p);
  c.headers[c.header_count++].value = {at, n};
  return 0;
}
int on_body(http_parser* p, const char* at, std::size_t n) {
  capture(p).body = {at, n};
  return 0;
}
int on_message_complete(http_parser* p) {
  capture(p).complete = true;
  return 0;
}

http_parser_settings make_settings() {
  http_parser_settings s;
  http_parser_settings_init(&s);
  s.on_message_begin = on_message_begin;
  s.on_url = on_url;
  s.on_header_field = on_header_field;
  s.on_header_value = on_header_value;
  s.on_body = on_body;
  s.on_message_complete = on_message_complete;
  return s;
}

bool execute(http_parser& parser, const http_parser_settings& settings, std::string_view in) {
  return http_parser_execute(&parser, &settings, in.data(), in.size()) == in.size() &&
         HTTP_PARSER_ERRNO(&parser) == HPE_OK;
}

void bm_parse_http_parser(benchmark::State& state) {
  const Inputs& in = inputs();
  static const http_parser_settings settings = make_settings();
  Capture cap;
  http_parser parser;
  http_parser_init(&parser, HTTP_REQUEST);
  parser.data = &cap;

  // Check both requests once, with their fields.
  if (!execute(parser, settings, in.get) || !cap.complete || parser.method != HTTP_GET ||
      cap.url != "/health" || cap.header_count != 1 || !http_should_keep_alive(&parser))
    return state.SkipWithError("http-parser does not give the GET back");
  if (!execute(parser, settings, in.post) || !cap.complete || parser.method != HTTP_POST ||
      cap.url != "/rpc" || cap.header_count != 3 || cap.headers[1].value != "application/json" ||
      cap.body != in.body)
    return state.SkipWithError("http-parser does not give the POST back");

  AllocMeter meter(state);
  for (auto _ : state) {
    std::string_view g = in.get, p = in.post;
    benchmark::DoNotOptimize(g);
    benchmark::DoNotOptimize(p);
    const bool ok_get = execute(parser, settings, g);
    const bool ok_post = execute(parser, settings, p);
    benchmark::DoNotOptimize(ok_get);
    benchmark::DoNotOptimize(ok_post);
    benchmark::DoNotOptimize(cap.header_count);
    benchmark::DoNotOptimize(parser.content_length);
  }
  if (HTTP_PARSER_ERRNO(&parser) != HPE_OK) state.SkipWithError("http-parser failed while timed");
  state.SetItemsProcessed(2 * state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(in.wire_bytes()) * state.iterations());
  meter.report(in.wire_bytes());
}
#else
void bm_parse_http_parser(benchmark::State& state) {
  state.SkipWithError("unavailable: built without libhttp-parser (apt-get install libhttp-parser-dev)");
}
#endif

// ---- the load generator's side and the writer ---------------------------------------------------

void bm_parse_response_own(benchmark::State& state) {
  net::Buffer out;
  const std::string body(94, 'x');  // about the sample JSON response's size
  wire::http::write_response(out, 200, "OK", "application/json", body, false,
                             "Thu, 01 Jan 1970 00:00:00 GMT");
  const std::string resp(out.readable_text());
  wire::http::Response r;
  const wire::http::Limits limits;
  if (!wire::http::parse_response(resp, r, limits).done() || r.status != 200 ||
      r.content_length != body.size())
    return state.SkipWithError("own response parser does not give the response back");
  AllocMeter meter(state);
  for (auto _ : state) {
    std::string_view v = resp;
    benchmark::DoNotOptimize(v);
    const wire::http::ParseResult res = wire::http::parse_response(v, r, limits);
    benchmark::DoNotOptimize(res);
    benchmark::DoNotOptimize(r.content_length);
  }
  state.SetItemsProcessed(state.iterations());
  meter.report(resp.size() - body.size());
}

void bm_write_response_own(benchmark::State& state) {
  net::Buffer out;
  std::array<char, wire::http::kHttpDateBytes> date{};
  const std::string_view date_value = wire::http::format_http_date(0, date);
  const std::string_view body = inputs().body;  // a body of the sample's size
  const std::size_t n =
      wire::http::write_response(out, 200, "OK", "application/json", body, false, date_value);
  if (out.readable_text().substr(n - body.size()) != body) return state.SkipWithError("writer lost the body");
  out.clear();
  AllocMeter meter(state);
  for (auto _ : state) {
    wire::http::write_response(out, 200, "OK", "application/json", body, false, date_value);
    benchmark::DoNotOptimize(out.readable().data());
    benchmark::ClobberMemory();
    out.consume(out.size());
  }
  state.SetItemsProcessed(state.iterations());
  meter.report(n);
}

BENCHMARK(bm_parse_own)->Name("Http/parse/own");
BENCHMARK(bm_parse_http_parser)->Name("Http/parse/http-parser");
BENCHMARK(bm_parse_response_own)->Name("Http/parse-response/own");
BENCHMARK(bm_write_response_own)->Name("Http/write-response/own");

}  // namespace
}  // namespace micro
