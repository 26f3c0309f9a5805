// tests/wire/wire_client_wires_test.cpp — the wires' scanners and the client
// wire policies (src/wire: client_wires.hpp, http1.hpp, zap_http.hpp) on
// in-memory bytes: each returns the bytes it consumed, framing included, one
// response at a time from a pipelined input.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "net/buffer.hpp"
#include "wire/client_wires.hpp"
#include "wire/http1.hpp"
#include "wire/zap_http.hpp"

namespace {

// ---- scanners return the bytes they consumed ---------------------------------

TEST(wire_scanners, frame_scan_counts_the_prefix_in_frame_bytes) {
  net::Buffer b;
  wire::zaphttp::RequestEncoder enc;
  wire::zaphttp::RequestSpec spec;
  spec.target = "/health";
  enc.append_frame(spec, b);
  const auto s = wire::zaphttp::scan_frame(b.readable());
  ASSERT_EQ(s.status, wire::zaphttp::FrameScan::Status::complete);
  EXPECT_EQ(s.frame_bytes(), b.size());
}

TEST(wire_scanners, http_message_bytes_is_head_and_body) {
  net::Buffer b;
  wire::http::write_request(b, "POST", "/rpc", "h", "text/plain", "body");
  wire::http::Request r;
  ASSERT_TRUE(wire::http::parse_request(b.readable_text(), r, {}).done());
  EXPECT_EQ(r.message_bytes(), b.size());
}

// Each client wire takes one response at a time from a pipelined input and
// says how many bytes it was, framing included.
template <class W>
void expect_pipelined_pair_is_taken_one_by_one(W client, net::Buffer& in, std::size_t first_bytes) {
  std::size_t hint = 0;
  const std::size_t total = in.size();
  wire::Response r = client.take(in, hint);
  ASSERT_EQ(r.status, wire::Response::Status::complete);
  EXPECT_EQ(r.consumed_bytes, first_bytes);
  EXPECT_EQ(r.code, 200);
  in.consume(r.consumed_bytes);
  r = client.take(in, hint);
  ASSERT_EQ(r.status, wire::Response::Status::complete);
  EXPECT_EQ(r.consumed_bytes, total - first_bytes);
  in.consume(r.consumed_bytes);
  EXPECT_EQ(client.take(in, hint).status, wire::Response::Status::need_more);
}

TEST(wire_client_wires, http1_take_consumes_one_response) {
  net::Buffer in;
  const std::size_t first = wire::http::write_response(in, 200, "OK", "text/plain", "ok", false, "");
  wire::http::write_response(in, 200, "OK", "text/plain", "second", false, "");
  expect_pipelined_pair_is_taken_one_by_one(wire::Http1Client("h:1"), in, first);
}

TEST(wire_client_wires, zap_http_take_consumes_one_frame) {
  net::Buffer in;
  wire::zaphttp::ResponseEncoder enc;
  wire::zaphttp::ResponseSpec spec;
  enc.append_frame(spec, in);
  const std::size_t first = in.size();
  enc.append_frame(spec, in);
  expect_pipelined_pair_is_taken_one_by_one(wire::ZapHttpClient(), in, first);
}

TEST(wire_client_wires, floor_take_consumes_response_bytes) {
  net::Buffer in;
  in.append(std::string(6, 'r'));
  expect_pipelined_pair_is_taken_one_by_one(wire::FloorClient(3, 3), in, 3);
}

TEST(wire_client_wires, floor_request_is_its_byte_count) {
  net::Buffer out;
  wire::FloorClient(5, 1).append_request(out, "GET", "/x", "", {});
  EXPECT_EQ(out.readable_text(), "qqqqq");
}

}  // namespace
