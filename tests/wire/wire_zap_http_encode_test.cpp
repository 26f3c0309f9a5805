// tests/wire/wire_zap_http_encode_test.cpp — wire/zap_http.hpp's (wire A) writers:
// the response and request encoders' contracts (defaults, the frame limit,
// appending), a round trip of random messages, no allocation in the steady
// state, and the prepared responses byte-identical to the encoder and to the
// spec's golden frames.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "support/exact.hpp"
#include "support/vectors.hpp"
#include "wire/zap_http.hpp"
#include "zap_http_frames.hpp"

namespace {

using namespace zhtest;

// ---- encoders --------------------------------------------------------------------

zh::ResponseView decode_frame_response(const net::Buffer& out, ByteVec& keep) {
  keep = readable(out);
  zh::ResponseView v;
  const zh::FrameScan s = zh::scan_frame(keep);
  EXPECT_EQ(s.status, zh::FrameScan::Status::complete);
  EXPECT_EQ(zh::decode_response(zh::frame_message(keep, s), v), zh::FrameError::ok);
  return v;
}

TEST(response_encoder, status_zero_is_sent_as_200_ok) {
  zh::ResponseSpec spec;
  spec.status = 0;
  net::Buffer out;
  ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
  ByteVec keep;
  const zh::ResponseView v = decode_frame_response(out, keep);
  EXPECT_EQ(v.status, 200);
  EXPECT_EQ(v.reason, "OK");
  EXPECT_EQ(v.proto, "HTTP/1.1");
}

TEST(response_encoder, empty_reason_is_the_standard_phrase) {
  for (int status : {204, 400, 404, 405, 411, 413, 415, 431, 500, 501, 503, 505, 599}) {
    zh::ResponseSpec spec;
    spec.status = static_cast<std::uint16_t>(status);
    net::Buffer out;
    ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
    ByteVec keep;
    const zh::ResponseView v = decode_frame_response(out, keep);
    EXPECT_EQ(v.status, status);
    EXPECT_EQ(v.reason, zh::reason_phrase(status));
  }
  EXPECT_EQ(zh::reason_phrase(404), "Not Found");
  EXPECT_EQ(zh::reason_phrase(431), "Request Header Fields Too Large");
  EXPECT_EQ(zh::reason_phrase(599), "Unknown Status Code");  // fasthttp's text
}

TEST(response_encoder, given_reason_and_proto_are_kept) {
  zh::ResponseSpec spec;
  spec.status = 418;
  spec.reason = "I'm a teapot";
  spec.proto = "HTTP/1.0";
  net::Buffer out;
  ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
  ByteVec keep;
  const zh::ResponseView v = decode_frame_response(out, keep);
  EXPECT_EQ(v.reason, "I'm a teapot");
  EXPECT_EQ(v.proto, "HTTP/1.0");
}

TEST(response_encoder, no_headers_leaves_a_null_slot) {
  zh::ResponseSpec spec;
  spec.body = bytes_of("ok");
  net::Buffer out;
  ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
  const ByteVec f = readable(out);
  for (std::uint32_t field : {zh::ResponseLayout::headers, zh::ResponseLayout::trailer}) {
    EXPECT_EQ(get_u32(f, 4 + slot_at(field)), 0u);
    EXPECT_EQ(get_u32(f, 4 + slot_at(field) + 4), 0u);
  }
  EXPECT_EQ(f.size(), 4u + 64 + 2 + 8 + 2);  // no count-0 block is ever written
}

TEST(response_encoder, only_response_and_stream_head_types_are_encoded) {
  for (zh::MsgType t : {zh::MsgType::request, zh::MsgType::chunk, zh::MsgType::stream_end}) {
    zh::ResponseSpec spec;
    spec.type = t;
    net::Buffer out;
    EXPECT_FALSE(zh::ResponseEncoder{}.append_frame(spec, out));
    EXPECT_TRUE(out.empty());
  }
}

TEST(response_encoder, message_over_the_frame_limit_is_refused_and_nothing_appended) {
  // 16 + 48 + "OK" + "HTTP/1.1" = 74 bytes around the body.
  std::vector<std::uint8_t> body(zh::kMaxFrameBytes - 74);
  zh::ResponseSpec spec;
  spec.body = body;
  net::Buffer out(16);
  out.append("x");
  zh::ResponseEncoder enc;
  ASSERT_TRUE(enc.append_frame(spec, out));  // exactly the limit: allowed
  out.consume(1);
  const zh::FrameScan s = zh::scan_frame(out.readable());
  EXPECT_EQ(s.status, zh::FrameScan::Status::complete);
  EXPECT_EQ(s.message_bytes, zh::kMaxFrameBytes);
  out.clear();
  body.push_back(0);
  spec.body = body;
  EXPECT_FALSE(enc.append_frame(spec, out));
  EXPECT_TRUE(out.empty());
}

TEST(request_encoder, empty_method_is_get_and_empty_proto_is_go_default) {
  zh::RequestSpec spec;
  spec.target = "/";
  spec.proto = "";
  net::Buffer out;
  ASSERT_TRUE(zh::RequestEncoder{}.append_frame(spec, out));
  const ByteVec f = readable(out);
  const zh::FrameScan s = zh::scan_frame(f);
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(zh::frame_message(f, s), v), zh::FrameError::ok);
  EXPECT_EQ(v.method, "GET");
  EXPECT_EQ(v.proto, "ZAP-HTTP/1.0");
  EXPECT_NE(get_u32(f, 4 + slot_at(zh::RequestLayout::method)), 0u);  // GET is on the wire, not implied
}

TEST(request_encoder, frames_append_after_existing_bytes) {
  zh::RequestEncoder enc;
  net::Buffer out(8);
  out.append("pending");  // unsent bytes already queued
  const std::vector<zh::Header> h = {{"Host", "127.0.0.1:8391"}};
  ASSERT_TRUE(enc.append_frame({"GET", "/health", "HTTP/1.1", h, {}, {}}, out));
  out.consume(7);
  EXPECT_TRUE(same_bytes(readable(out), spec_frame(5)));
}

// Random specs (fixed seed) survive encode, scan and decode unchanged; the
// encoders are reused across them, with pair sets shrinking and growing.
TEST(encoders, round_trip_random_specs) {
  std::mt19937 rng(20240611);
  auto text = [&](std::size_t max) {
    std::string s(rng() % (max + 1), '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  zh::RequestEncoder req_enc;
  zh::ResponseEncoder resp_enc;
  net::Buffer out(16);
  for (int i = 0; i < 300; ++i) {
    Pairs hp;
    Pairs tp;
    for (std::size_t k = rng() % 6; k > 0; --k) hp.emplace_back(text(12), text(40));
    for (std::size_t k = rng() % 3; k > 0; --k) tp.emplace_back(text(8), text(8));
    const std::vector<zh::Header> h = headers_of(hp);
    const std::vector<zh::Header> t = headers_of(tp);
    const std::string a = text(10);
    const std::string b = text(30);
    const std::string c = text(10);
    const std::string body = text(300);
    out.clear();
    if (i % 2 == 0) {
      ASSERT_TRUE(req_enc.append_frame({a, b, c, h, bytes_of(body), t}, out));
      const ByteVec f = readable(out);
      const zh::FrameScan s = zh::scan_frame(f);
      ASSERT_EQ(s.status, zh::FrameScan::Status::complete);
      ASSERT_EQ(s.message_bytes, f.size() - 4);
      const Exact exact(zh::frame_message(f, s));
      zh::RequestView v;
      ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
      EXPECT_EQ(v.method, a.empty() ? "GET" : a);
      EXPECT_EQ(v.target, b);
      EXPECT_EQ(v.proto, c.empty() ? "ZAP-HTTP/1.0" : c);
      EXPECT_EQ(pairs_of(v.headers), hp);
      EXPECT_EQ(str(v.body), body);
      EXPECT_EQ(pairs_of(v.trailer), tp);
    } else {
      const auto status = static_cast<std::uint16_t>(rng());
      ASSERT_TRUE(resp_enc.append_frame({status, a, c, h, bytes_of(body), t}, out));
      const ByteVec f = readable(out);
      const zh::FrameScan s = zh::scan_frame(f);
      ASSERT_EQ(s.status, zh::FrameScan::Status::complete);
      const Exact exact(zh::frame_message(f, s));
      zh::ResponseView v;
      ASSERT_EQ(zh::decode_response(exact.view(), v), zh::FrameError::ok);
      EXPECT_EQ(v.status, status == 0 ? 200 : status);
      EXPECT_EQ(v.reason, a.empty() ? zh::reason_phrase(v.status) : a);
      EXPECT_EQ(v.proto, c.empty() ? "ZAP-HTTP/1.0" : c);
      EXPECT_EQ(pairs_of(v.headers), hp);
      EXPECT_EQ(str(v.body), body);
      EXPECT_EQ(pairs_of(v.trailer), tp);
    }
  }
}

// The server's steady state: decode a request frame, encode the response into
// the connection's output buffer, consume, repeat. After warm-up, nothing is
// allocated (the builder writes into the buffer; scratch and buffers are reused).
TEST(encoders, steady_state_allocates_nothing) {
  const ByteVec req_frame = spec_frame(7);
  const std::string body(80, 'r');
  const zh::Header ct[] = {{"Content-Type", "application/zap"}};
  zh::ResponseEncoder enc;
  zh::RequestEncoder req_enc;
  net::Buffer in;
  net::Buffer out;
  auto once = [&] {
    in.append(req_frame.data(), req_frame.size());
    const zh::FrameScan s = zh::scan_frame(in.readable());
    zh::RequestView v;
    if (zh::decode_request(zh::frame_message(in.readable(), s), v) != zh::FrameError::ok) return false;
    if (!v.headers.find("content-type")) return false;
    zh::ResponseSpec spec;
    spec.headers = ct;
    spec.body = bytes_of(body);
    if (!enc.append_frame(spec, out)) return false;
    if (!req_enc.append_frame({"POST", "/rpc", "HTTP/1.1", ct, v.body, {}}, out)) return false;
    in.consume(zh::kPrefixBytes + s.message_bytes);
    out.clear();
    return true;
  };
  ASSERT_TRUE(once());  // warm-up: scratch grows once
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(once());
  const micro::AllocCount after = micro::alloc_count();
  EXPECT_EQ(after.allocs - before.allocs, 0u);
}

// ---- prepared responses ----------------------------------------------------

// Every reply shape the server prepares, with bodies around the sizes that
// matter (empty, one byte, under and over 8 and the builder's 128), equals
// what the encoder writes for the same spec with that body.
TEST(prepared_response, is_byte_identical_to_the_encoder) {
  const zh::Header ct_text{"Content-Type", "text/plain; charset=utf-8"};
  const zh::Header ct_zap{"Content-Type", "application/zap"};
  const zh::Header allow{"Allow", "GET"};
  const zh::Header text_allow[2] = {ct_text, allow};
  struct Shape {
    std::uint16_t status;
    std::span<const zh::Header> headers;
  };
  const Shape shapes[] = {
      {200, {&ct_zap, 1}}, {200, {&ct_text, 1}}, {400, {&ct_text, 1}}, {405, text_allow}, {0, {}},
      {599, {&ct_zap, 1}}};
  for (const Shape& shape : shapes) {
    zh::ResponseSpec spec;
    spec.status = shape.status;
    spec.headers = shape.headers;
    zh::PreparedResponse prepared;
    ASSERT_TRUE(prepared.prepare(spec)) << shape.status;
    for (const std::size_t n : {0, 1, 7, 8, 9, 80, 128, 1000, 100000}) {
      const std::string b(n, 'b');
      spec.body = bytes_of(b);
      net::Buffer want, got(16);
      ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, want));
      got.append("xy", 2);  // appends behind what is there
      ASSERT_TRUE(prepared.append(got, bytes_of(b)));
      got.consume(2);
      EXPECT_TRUE(same_bytes(readable(got), readable(want))) << "status " << shape.status << ", body " << n;
      zh::ResponseView v;
      const zh::FrameScan scan = zh::scan_frame(got.readable());
      ASSERT_EQ(scan.status, zh::FrameScan::Status::complete);
      ASSERT_EQ(zh::decode_response(zh::frame_message(got.readable(), scan), v), zh::FrameError::ok);
      EXPECT_EQ(v.body.size(), n);
    }
  }
}

// A prepared head plus the body gives the golden response bytes (the
// responses without a trailer: frames 2 and 6).
TEST(prepared_response, gives_the_golden_response_bytes) {
  int checked = 0;
  for (const Golden& g : kGolden) {
    if (g.request || !g.trailer.empty()) continue;
    const std::vector<zh::Header> headers = headers_of(g.headers);
    const std::string b = g.body;
    zh::PreparedResponse prepared;
    ASSERT_TRUE(prepared.prepare({g.status, g.method_or_reason, g.proto, headers, {}, {}})) << g.name;
    net::Buffer out(8);
    ASSERT_TRUE(prepared.append(out, bytes_of(b))) << g.name;
    EXPECT_TRUE(same_bytes(readable(out), spec_frame(g.item))) << g.name;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(prepared_response, refuses_what_it_cannot_prepare_and_appends_nothing_then) {
  zh::PreparedResponse unprepared;
  net::Buffer out;
  EXPECT_FALSE(unprepared.append(out, {})) << "nothing prepared";
  EXPECT_TRUE(out.empty());

  const std::string b = "body";
  zh::ResponseSpec with_body;
  with_body.body = bytes_of(b);
  EXPECT_FALSE(zh::PreparedResponse{}.prepare(with_body)) << "the body is per append";
  const zh::Header t{"X", "y"};
  zh::ResponseSpec with_trailer;
  with_trailer.trailer = {&t, 1};
  EXPECT_FALSE(zh::PreparedResponse{}.prepare(with_trailer)) << "the body would not be the last tail";
  zh::ResponseSpec head;
  head.type = zh::MsgType::stream_head;
  EXPECT_FALSE(zh::PreparedResponse{}.prepare(head));

  zh::PreparedResponse ok;
  ASSERT_TRUE(ok.prepare({}));
  const std::vector<std::uint8_t> huge(zh::kMaxFrameBytes, 0);
  EXPECT_FALSE(ok.append(out, {huge.data(), huge.size()})) << "over the frame limit with its head";
  EXPECT_TRUE(out.empty());
}

TEST(prepared_response, appending_into_a_grown_buffer_allocates_nothing) {
  const zh::Header ct{"Content-Type", "application/zap"};
  zh::ResponseSpec spec;
  spec.headers = {&ct, 1};
  zh::PreparedResponse prepared;
  ASSERT_TRUE(prepared.prepare(spec));
  const std::string b(80, 'z');
  net::Buffer out;
  ASSERT_TRUE(prepared.append(out, bytes_of(b)));
  out.clear();
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(prepared.append(out, bytes_of(b)));
    out.clear();
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 0u);
}

}  // namespace
