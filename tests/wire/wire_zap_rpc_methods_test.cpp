// tests/wire/wire_zap_rpc_methods_test.cpp — wire/zap_rpc.hpp's (wire B) method
// ordinals against docs/spec/zap-rpc.md §2 and src/record/codecs.table, the
// encoders' contracts (patch_promise, the frame limit, the envelope sizes, zero
// allocations in the steady state), and the loader's client wire (ZapRpcClient):
// its eth_call is the vector, its method the ordinal, one answer at a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "micro/alloc_counter.hpp"
#include "record/codecs_table.hpp"
#include "support/exact.hpp"
#include "support/vectors.hpp"
#include "wire/client_wires.hpp"
#include "wire/zap_rpc.hpp"
#include "zap_rpc_frames.hpp"

namespace {

using namespace zrtest;

// ---- method ordinals (docs/spec/zap-rpc.md §2) -------------------------------------

constexpr zr::Op kCalls[] = {zr::Op::eth_call, zr::Op::eth_get_logs};

TEST(methods, every_op_and_body_round_trips) {
  for (std::size_t body = 0; body < zr::kBodyContentTypes.size(); ++body) {
    for (zr::Op op : kCalls) {
      const std::uint32_t ordinal = zr::method_ordinal(op, body);
      EXPECT_EQ(ordinal, 16 * body + static_cast<std::uint32_t>(op));
      const zr::Method m = zr::method_of(ordinal);
      EXPECT_TRUE(m.known) << ordinal;
      EXPECT_EQ(m.op, op) << ordinal;
      EXPECT_EQ(m.content_type, zr::kBodyContentTypes[body]) << ordinal;
      EXPECT_EQ(zr::body_code(m.content_type), static_cast<int>(body)) << ordinal;
    }
    EXPECT_EQ(zr::method_ordinal(zr::Op::health, body), 0u) << body;  // health has one ordinal
  }
}

TEST(methods, ordinal_0_is_health_with_no_content_type) {
  const zr::Method m = zr::method_of(0);
  EXPECT_TRUE(m.known);
  EXPECT_EQ(m.op, zr::Op::health);
  EXPECT_TRUE(m.content_type.empty());
}

TEST(methods, exactly_the_documented_numbers_are_known) {
  const std::set<std::uint32_t> known = {0,  1,  2,  17, 18, 33,  34,  49,  50, 65,
                                         66, 81, 82, 97, 98, 113, 114, 129, 130};
  for (std::uint32_t o = 0; o < 4096; ++o) EXPECT_EQ(zr::method_of(o).known, known.count(o) == 1) << o;
  for (std::uint32_t k = 1; k < 64; ++k) EXPECT_FALSE(zr::method_of(16 * k).known) << 16 * k;  // op 0, body k
  for (std::uint32_t body = 0; body < 9; ++body)
    for (std::uint32_t op = 3; op < 16; ++op)
      EXPECT_FALSE(zr::method_of(16 * body + op).known) << 16 * body + op;
  for (std::uint32_t o : {144u, 145u, 146u, 0x7fffffffu, 0xfffffff1u, 0xfffffff2u, 0xffffffffu})
    EXPECT_FALSE(zr::method_of(o).known) << o;  // body >= 9
  const zr::Method unknown = zr::method_of(3);
  EXPECT_TRUE(unknown.content_type.empty());
}

// The doc's table is the code's: every row of §2's body table, parsed.
TEST(methods, the_doc_table_is_the_code) {
  const std::filesystem::path path = std::filesystem::path(ZAPBENCH_SOURCE_DIR) / "docs/spec/zap-rpc.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot open " << path;
  std::string line;
  bool in_section = false, in_table = false;
  std::size_t rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("## 2.", 0) == 0)
      in_section = true;
    else if (line.rfind("## ", 0) == 0)
      in_section = false;
    if (line.rfind("| body |", 0) == 0) in_table = true;  // the second table of §2, not the op table
    if (line.rfind("|", 0) != 0) in_table = false;
    if (!in_section || !in_table) continue;
    std::vector<std::string> cells;
    for (std::size_t a = 1, b; (b = line.find('|', a)) != std::string::npos; a = b + 1) {
      std::string c = line.substr(a, b - a);
      c.erase(std::remove(c.begin(), c.end(), '*'), c.end());
      const std::size_t f = c.find_first_not_of(' '), l = c.find_last_not_of(' ');
      cells.push_back(f == std::string::npos ? "" : c.substr(f, l - f + 1));
    }
    if (cells.size() != 4 || cells[0].empty() || !std::isdigit(static_cast<unsigned char>(cells[0][0])))
      continue;
    const auto body = static_cast<std::size_t>(std::stoul(cells[0]));
    const std::size_t a = cells[1].find('`'), b = cells[1].find('`', a + 1);
    ASSERT_NE(b, std::string::npos) << line;
    const std::string type = cells[1].substr(a + 1, b - a - 1);
    EXPECT_EQ(zr::body_code(type), static_cast<int>(body)) << line;
    EXPECT_EQ(std::stoul(cells[2]), zr::method_ordinal(zr::Op::eth_call, body)) << line;
    EXPECT_EQ(std::stoul(cells[3]), zr::method_ordinal(zr::Op::eth_get_logs, body)) << line;
    ++rows;
  }
  EXPECT_EQ(rows, zr::kBodyContentTypes.size());
}

TEST(methods, body_codes_are_exact_and_unique) {
  EXPECT_EQ(zr::body_code("application/zap"), 0);
  EXPECT_EQ(zr::body_code("application/json"), 1);
  EXPECT_EQ(zr::body_code("application/vnd.apache.thrift.binary"), 8);
  for (std::string_view t :
       {"", "Application/zap", "application/json; charset=utf-8", "application/zap ", "text/plain"})
    EXPECT_EQ(zr::body_code(t), -1) << t;
  std::set<std::string_view> seen(zr::kBodyContentTypes.begin(), zr::kBodyContentTypes.end());
  EXPECT_EQ(seen.size(), zr::kBodyContentTypes.size());
}

// A codec added to src/record/codecs.table must get a body code (the server's
// static assertion says the same at compile time).
TEST(methods, every_content_type_of_the_codec_table_has_a_body_code) {
  for (const record::table::Row& row : record::table::kRows) {
    EXPECT_GE(zr::body_code(row.content_type), 0) << row.name << " (" << row.content_type << ")";
  }
}

// ---- encoders --------------------------------------------------------------------

TEST(patch_promise, changes_only_the_promise_id) {
  ZAP_LOAD_HEX(eth_req, "eth_req");
  net::Buffer out;
  out.append("abc");  // the frame does not start the buffer
  ASSERT_TRUE(zr::append_request_frame(out, {1, 1, zr::kNoTarget, bytes_of("cap"), eth_req}));
  const ByteVec before = readable(out);
  std::uint8_t* frame = writable_at(out, 3);
  for (std::uint32_t id : {0xdeadbeefu, 0u, 2u, 0xffffffffu}) {
    zr::patch_promise(frame, id);
    const ByteVec after = readable(out);
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
      const bool promise_word = i >= 3 + zr::kRequestPromiseAt && i < 3 + zr::kRequestPromiseAt + 4;
      if (!promise_word) {
        EXPECT_EQ(after[i], before[i]) << "byte " << i << " id " << id;
      }
    }
    const ByteView f = ByteView{after}.subspan(3);
    const zr::FrameScan s = zr::scan_frame(f);
    ASSERT_EQ(s.status, Status::complete);
    zr::Request r;
    ASSERT_EQ(zr::decode_request(zr::frame_body(f, s), r), zr::EnvelopeError::ok);
    EXPECT_EQ(r.promise, id);
    EXPECT_EQ(r.method, 1u);
    EXPECT_TRUE(same_bytes(r.payload, eth_req));
  }
}

// The frame limit: L (the direction byte and the envelope) up to the limit is
// written, one byte more is refused and leaves the buffer as it was.
TEST(encoders, over_the_frame_limit_is_refused_and_nothing_appended) {
  constexpr std::uint32_t kLimit = 1000;
  net::Buffer out(16);
  out.append("x");
  ByteVec payload(kLimit - 1 - 44, 0x5a);  // 44: a request envelope with no Cap
  EXPECT_TRUE(zr::append_request_frame(out, {1, 1, 0, {}, payload}, kLimit));
  EXPECT_EQ(out.size(), 1 + 4 + kLimit);
  payload.push_back(0);
  EXPECT_FALSE(zr::append_request_frame(out, {1, 1, 0, {}, payload}, kLimit));
  EXPECT_EQ(out.size(), 1 + 4 + kLimit);
  ByteVec cap(1, 1);  // the Cap counts too
  payload.pop_back();
  EXPECT_FALSE(zr::append_request_frame(out, {1, 1, 0, cap, payload}, kLimit));
  EXPECT_EQ(out.size(), 1 + 4 + kLimit);

  ByteVec body(kLimit - 1 - 36, 0x5a);  // 36: a response envelope
  EXPECT_TRUE(zr::append_response_frame(out, {200, 1, body}, kLimit));
  EXPECT_EQ(out.size(), 1 + 2 * (4 + kLimit));
  body.push_back(0);
  EXPECT_FALSE(zr::append_response_frame(out, {200, 1, body}, kLimit));
  EXPECT_EQ(out.size(), 1 + 2 * (4 + kLimit));
  EXPECT_EQ(out.readable()[0], 'x');
}

TEST(encoders, the_default_limit_is_64_mib_of_frame) {
  ByteVec body(zr::kMaxFrameBytes - 1 - 36);
  net::Buffer out(16);
  ASSERT_TRUE(zr::append_response_frame(out, {200, 7, body}));
  const zr::FrameScan s = zr::scan_frame(out.readable());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.length, zr::kMaxFrameBytes);
  out.clear();
  body.push_back(0);
  EXPECT_FALSE(zr::append_response_frame(out, {200, 7, body}));
  EXPECT_TRUE(out.empty());
  ByteVec payload(zr::kMaxFrameBytes - 44);  // L = limit + 1
  EXPECT_FALSE(zr::append_request_frame(out, {1, 7, 0, {}, payload}));
  EXPECT_TRUE(out.empty());
}

TEST(encoders, envelope_sizes_are_the_packed_tails) {
  EXPECT_EQ(zr::request_envelope_bytes(0, 0), 44u);
  EXPECT_EQ(zr::request_envelope_bytes(16, 5), 65u);
  EXPECT_EQ(zr::response_envelope_bytes(0), 36u);
  EXPECT_EQ(zr::response_envelope_bytes(17), 53u);
  // No overflow for sizes past u32: the limit check sees the true size.
  EXPECT_EQ(zr::request_envelope_bytes(0xffffffffu, 0xffffffffu), 44u + 2 * 0xffffffffull);
}

// Encode into a warmed buffer and decode: no heap allocation on either path.
TEST(encoders, steady_state_encode_and_decode_allocate_nothing) {
  ZAP_LOAD_HEX(eth_req, "eth_req");
  ZAP_LOAD_HEX(fold, "eth_resp_server_fold");
  net::Buffer out(16);
  const zr::Request rq{1, 1, 0, {}, eth_req};
  const zr::Response rs{200, 1, fold};
  for (int i = 0; i < 64; ++i) {  // warm: grow to what 64 frames of each need
    ASSERT_TRUE(zr::append_request_frame(out, rq));
    ASSERT_TRUE(zr::append_response_frame(out, rs));
  }
  out.clear();
  std::uint64_t promises = 0;
  const micro::AllocCount before = micro::alloc_count();
  for (int round = 0; round < 100; ++round) {
    for (std::uint32_t i = 0; i < 64; ++i) {
      const std::size_t at = out.size();
      if (!zr::append_request_frame(out, rq)) return ADD_FAILURE();
      zr::patch_promise(writable_at(out, at), i + 1);
      if (!zr::append_response_frame(out, rs)) return ADD_FAILURE();
    }
    while (!out.empty()) {
      const zr::FrameScan s = zr::scan_frame(out.readable());
      if (s.status != Status::complete) return ADD_FAILURE();
      const zap::Bytes body = zr::frame_body(out.readable(), s);
      if (s.dir == 1) {
        zr::Request r;
        if (zr::decode_request(body, r) != zr::EnvelopeError::ok) return ADD_FAILURE();
        promises += r.promise;
      } else {
        zr::Response r;
        if (zr::decode_response(body, r) != zr::EnvelopeError::ok) return ADD_FAILURE();
        promises += r.promise;
      }
      out.consume(s.frame_bytes());
    }
  }
  const micro::AllocCount after = micro::alloc_count();
  EXPECT_EQ(after.allocs - before.allocs, 0u);
  EXPECT_EQ(promises, 100u * (64 * 65 / 2 + 64));
}

// ---- the loader's client wire (wire/client_wires.hpp, ZapRpcClient) ---------------

// The loader's first eth_call (ZAP body, PromiseID 1) is the request vector byte for byte, and the answer
// vector reads as status 200, PromiseID 1 and the fold, consumed whole.
TEST(zap_rpc_client, its_eth_call_is_the_vector_and_it_reads_the_answer_vector) {
  ZAP_LOAD_HEX(eth_req, "eth_req");
  ZAP_LOAD_HEX(fold, "eth_resp_server_fold");
  ByteVec call, answer;
  ASSERT_TRUE(zaptest::load_repo_hex("rpc_eth_call_frame", call));
  ASSERT_TRUE(zaptest::load_repo_hex("rpc_eth_call_answer_frame", answer));
  wire::ZapRpcClient wire;
  net::Buffer out;
  wire.append_request(out, "POST", "/rpc", "application/zap", eth_req, 1);
  EXPECT_TRUE(same_bytes(readable(out), call));

  net::Buffer in;
  in.append(answer.data(), answer.size());
  std::size_t hint = 0;
  const wire::Response r = wire.take(in, hint);
  ASSERT_EQ(r.status, wire::Response::Status::complete);
  EXPECT_EQ(r.consumed_bytes, answer.size());
  EXPECT_EQ(r.code, 200);
  EXPECT_EQ(r.promise, 1u);
  EXPECT_TRUE(same_bytes(r.body, fold));
  EXPECT_TRUE(r.content_type.empty()) << "the wire carries none";
  EXPECT_FALSE(r.close);
}

TEST(zap_rpc_client, the_method_is_the_ordinal_of_the_target_and_content_type) {
  using W = wire::ZapRpcClient;
  EXPECT_EQ(W::method_for("/health", ""), 0u);
  EXPECT_EQ(W::method_for("/health", "application/json"), 0u) << "health has one ordinal";
  EXPECT_EQ(W::method_for("/rpc", "application/zap"), 1u);
  EXPECT_EQ(W::method_for("/logs", "application/zap"), 2u);
  EXPECT_EQ(W::method_for("/rpc", "application/json"), 17u);
  EXPECT_EQ(W::method_for("/logs", "application/json"), 18u);
  EXPECT_EQ(W::method_for("/rpc", "application/vnd.apache.thrift.binary"), 129u);
  // What has no ordinal is sent as one no server knows (404), as HTTP sends an unknown path.
  EXPECT_EQ(W::method_for("/nope", "application/zap"), W::kUnknownMethod);
  EXPECT_EQ(W::method_for("/rpc", "text/plain"), W::kUnknownMethod);
  EXPECT_EQ(W::method_for("/rpc", ""), W::kUnknownMethod);
  EXPECT_FALSE(zr::method_of(W::kUnknownMethod).known);

  wire::ZapRpcClient wire;
  net::Buffer out;
  wire.append_request(out, "GET", "/health", "", {}, 0xFFFF'FFFEu);
  const zr::FrameScan s = zr::scan_frame(out.readable());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.frame_bytes(), out.size());
  zr::Request q;
  ASSERT_EQ(zr::decode_request(zr::frame_body(out.readable(), s), q), zr::EnvelopeError::ok);
  EXPECT_EQ(q.method, 0u);
  EXPECT_EQ(q.promise, 0xFFFF'FFFEu);
  EXPECT_EQ(q.payload.data(), nullptr) << "no payload: a null slot";
  zr::patch_promise(writable_at(out, 0), 7);  // what the loader does to its fixed requests
  ASSERT_EQ(zr::decode_request(zr::frame_body(out.readable(), s), q), zr::EnvelopeError::ok);
  EXPECT_EQ(q.promise, 7u);
}

// Answers come one frame at a time from a pipelined input, each with its own PromiseID and status; a frame
// not all here is need_more.
TEST(zap_rpc_client, takes_one_answer_at_a_time_and_waits_for_a_whole_frame) {
  net::Buffer whole;
  ASSERT_TRUE(zr::append_response_frame(whole, {200, 9, bytes_of("ok")}));
  const std::size_t first = whole.size();
  ASSERT_TRUE(zr::append_response_frame(whole, {500, 3, {}}));
  const ByteVec bytes = readable(whole);
  wire::ZapRpcClient wire;
  std::size_t hint = 0;
  net::Buffer in;
  for (std::size_t k = 0; k < first; ++k) {  // every proper prefix of the first frame
    in.clear();
    in.append(bytes.data(), k);
    EXPECT_EQ(wire.take(in, hint).status, wire::Response::Status::need_more) << k;
  }
  in.clear();
  in.append(bytes.data(), bytes.size());
  wire::Response r = wire.take(in, hint);
  ASSERT_EQ(r.status, wire::Response::Status::complete);
  EXPECT_EQ(r.consumed_bytes, first);
  EXPECT_EQ(r.promise, 9u);
  EXPECT_TRUE(same_bytes(r.body, bytes_of("ok")));
  in.consume(r.consumed_bytes);
  r = wire.take(in, hint);
  ASSERT_EQ(r.status, wire::Response::Status::complete);
  EXPECT_EQ(r.consumed_bytes, bytes.size() - first);
  EXPECT_EQ(r.code, 500);
  EXPECT_EQ(r.promise, 3u);
  EXPECT_TRUE(r.body.empty());
  in.consume(r.consumed_bytes);
  EXPECT_EQ(wire.take(in, hint).status, wire::Response::Status::need_more);
}

// What is not a response is malformed (the loader drops the connection: docs/spec/zap-rpc.md §4): a length
// out of range, any direction byte but 2, an envelope that is no ZAP message or has no root.
TEST(zap_rpc_client, a_frame_that_is_not_a_response_is_malformed) {
  net::Buffer good;
  ASSERT_TRUE(zr::append_response_frame(good, {200, 1, bytes_of("ok")}));
  const ByteVec response = readable(good);
  const ByteView envelope = ByteView{response}.subspan(5);
  ByteVec no_root(envelope.begin(), envelope.end());
  zaptest::put_u32(no_root, zap::kRootAt, static_cast<std::uint32_t>(no_root.size()));  // root at the size
  struct Case {
    const char* name;
    ByteVec frame;
  };
  const Case cases[] = {
      {"L = 0", prefix_only(0)},
      {"L over 64 MiB", prefix_only(zr::kMaxFrameBytes + 1)},
      {"dir 0", frame_of(0, envelope)},
      {"dir 1 (a request)", frame_of(1, envelope)},
      {"dir 3 (stream open)", frame_of(3, envelope)},
      {"dir 4 (stream message)", frame_of(4, bytes_of(std::string_view("\x01\0\0\0x", 5)))},
      {"dir 255", frame_of(255, envelope)},
      {"no ZAP message", frame_of(2, bytes_of("nope"))},
      {"an empty body", frame_of(2, {})},
      {"root out of range", frame_of(2, no_root)},
  };
  wire::ZapRpcClient wire;
  for (const Case& c : cases) {
    net::Buffer in;
    in.append(c.frame.data(), c.frame.size());
    std::size_t hint = 0;
    EXPECT_EQ(wire.take(in, hint).status, wire::Response::Status::malformed) << c.name;
  }
  net::Buffer in;
  in.append(response.data(), response.size());
  std::size_t hint = 0;
  EXPECT_EQ(wire.take(in, hint).status, wire::Response::Status::complete) << "the control";
}

}  // namespace
