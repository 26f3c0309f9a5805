// tests/wire/wire_zap_http_test.cpp — conformance tests for wire/zap_http.hpp (wire A):
// the golden frames of zap-transport.md §3.8, read out of the spec text at run
// time (no hex in sources), decoded field by field and re-encoded byte for byte;
// then framing, decode error paths and header blocks (the encoders' contracts are
// net_zap_http_encode_test's). Every decoded message sits at the end of an
// exact-size heap block, so an over-read is an ASan report, not a silent pass.
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

class GoldenFrame : public ::testing::TestWithParam<Golden> {
 protected:
  std::string body() const {
    if (GetParam().body != "@eth_req") return GetParam().body;
    const ByteVec b = zaptest::hex_vector("eth_req");
    return {b.begin(), b.end()};
  }
};

TEST(golden_frames, spec_lists_seven_frames_with_consistent_prefixes) {
  const auto& frames = spec_frames();
  ASSERT_EQ(frames.size(), 7u);
  for (const auto& [n, f] : frames) {
    EXPECT_GE(f.message.size(), 64u) << "item " << n;
    if (f.prefix) {
      EXPECT_EQ(*f.prefix, f.message.size()) << "item " << n;
    }
  }
  for (int n : {3, 5, 6, 7}) EXPECT_TRUE(frames.at(n).prefix.has_value()) << "item " << n;
}

TEST_P(GoldenFrame, decodes_to_documented_fields) {
  const Golden& g = GetParam();
  const ByteVec msg = spec_message(g.item);
  ASSERT_EQ(msg.size(), g.size_bytes);
  const Exact exact(msg);
  if (g.request) {
    zh::RequestView v;
    ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
    EXPECT_EQ(v.method, g.method_or_reason);
    EXPECT_EQ(v.target, g.target);
    EXPECT_EQ(v.proto, g.proto);
    EXPECT_EQ(pairs_of(v.headers), g.headers);
    EXPECT_EQ(str(v.body), body());
    EXPECT_EQ(pairs_of(v.trailer), g.trailer);
    EXPECT_EQ(zh::decode_response(exact.view(), *std::make_unique<zh::ResponseView>()),
              zh::FrameError::wrong_type);
  } else {
    zh::ResponseView v;
    ASSERT_EQ(zh::decode_response(exact.view(), v), zh::FrameError::ok);
    EXPECT_EQ(v.type, zh::MsgType::response);
    EXPECT_EQ(v.status, g.status);
    EXPECT_EQ(v.reason, g.method_or_reason);
    EXPECT_EQ(v.proto, g.proto);
    EXPECT_EQ(pairs_of(v.headers), g.headers);
    EXPECT_EQ(str(v.body), body());
    EXPECT_EQ(pairs_of(v.trailer), g.trailer);
    zh::RequestView r;
    EXPECT_EQ(zh::decode_request(exact.view(), r), zh::FrameError::wrong_type);
  }
}

TEST_P(GoldenFrame, reencodes_byte_for_byte_with_prefix) {
  const Golden& g = GetParam();
  const std::vector<zh::Header> headers = headers_of(g.headers);
  const std::vector<zh::Header> trailer = headers_of(g.trailer);
  const std::string b = body();
  net::Buffer out(64);  // small: the encoder must grow it
  bool ok = false;
  if (g.request) {
    zh::RequestEncoder enc;
    ok = enc.append_frame({g.method_or_reason, g.target, g.proto, headers, bytes_of(b), trailer}, out);
  } else {
    zh::ResponseEncoder enc;
    ok = enc.append_frame({g.status, g.method_or_reason, g.proto, headers, bytes_of(b), trailer}, out);
  }
  ASSERT_TRUE(ok);
  EXPECT_TRUE(same_bytes(readable(out), spec_frame(g.item)));
}

// The documented defaults produce the golden bytes too: status and reason
// come from the spec's defaults (200, "OK"), proto from the field default.
TEST_P(GoldenFrame, reencodes_from_defaults) {
  const Golden& g = GetParam();
  const std::vector<zh::Header> headers = headers_of(g.headers);
  const std::vector<zh::Header> trailer = headers_of(g.trailer);
  const std::string b = body();
  net::Buffer out;
  if (g.request) {
    zh::RequestSpec spec;
    spec.method = g.method_or_reason == "GET" ? "" : g.method_or_reason;
    spec.target = g.target;
    spec.headers = headers;
    spec.body = bytes_of(b);
    spec.trailer = trailer;
    ASSERT_TRUE(zh::RequestEncoder{}.append_frame(spec, out));
  } else {
    zh::ResponseSpec spec;
    spec.status = 0;
    spec.headers = headers;
    spec.body = bytes_of(b);
    spec.trailer = trailer;
    ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
  }
  EXPECT_TRUE(same_bytes(readable(out), spec_frame(g.item)));
}

TEST_P(GoldenFrame, every_proper_prefix_needs_more) {
  const ByteVec frame = spec_frame(GetParam().item);
  for (std::size_t k = 0; k < frame.size(); ++k) {
    const Exact part(ByteView{frame.data(), k});
    const zh::FrameScan s = zh::scan_frame(part.view());
    ASSERT_EQ(s.status, zh::FrameScan::Status::need_more) << "prefix " << k;
    EXPECT_EQ(s.message_bytes, k < 4 ? 0u : frame.size() - 4) << "prefix " << k;
  }
  const Exact whole(frame);
  const zh::FrameScan s = zh::scan_frame(whole.view());
  ASSERT_EQ(s.status, zh::FrameScan::Status::complete);
  EXPECT_EQ(s.message_bytes, GetParam().size_bytes);
  EXPECT_TRUE(same_bytes(zh::frame_message(whole.view(), s), spec_message(GetParam().item)));
}

// Each truncation of the message itself (the prefix already promised more) is
// refused as a message, never read past.
TEST_P(GoldenFrame, every_truncated_message_is_rejected) {
  const ByteVec msg = spec_message(GetParam().item);
  for (std::size_t k = 0; k < msg.size(); ++k) {
    const Exact part(ByteView{msg.data(), k});
    zh::RequestView rq;
    zh::ResponseView rs;
    EXPECT_EQ(zh::decode_request(part.view(), rq), zh::FrameError::bad_message) << k;
    EXPECT_EQ(zh::decode_response(part.view(), rs), zh::FrameError::bad_message) << k;
  }
}

INSTANTIATE_TEST_SUITE_P(zap_http, GoldenFrame, ::testing::ValuesIn(kGolden),
                         [](const ::testing::TestParamInfo<Golden>& p) { return std::string(p.param.name); });

TEST(golden_frames, frame1_tail_offsets_match_the_spec) {
  const ByteVec msg = spec_message(1);
  const Exact exact(msg);
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
  const auto at = [&](const void* p) { return static_cast<const std::uint8_t*>(p) - exact.view().data(); };
  EXPECT_EQ(at(v.method.data()), 64);
  EXPECT_EQ(at(v.target.data()), 68);
  EXPECT_EQ(at(v.proto.data()), 88);
  EXPECT_EQ(at(v.headers.bytes().data()), 96);
  EXPECT_EQ(v.headers.bytes().size(), 65u);
  EXPECT_EQ(at(v.body.data()), 161);
  EXPECT_EQ(v.body.size(), 44u);
  EXPECT_EQ(get_u32(msg, 4) & 0xffff0000u, 0x01000000u);  // flags 0x0100 (LE u16 at 6)
}

TEST(golden_frames, frame7_body_is_the_eth_request_record) {
  ZAP_LOAD_HEX(eth_req, "eth_req");
  const Exact exact(spec_message(7));
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
  EXPECT_TRUE(same_bytes(v.body, eth_req));
  EXPECT_EQ(v.headers.find("content-type"), std::optional<std::string_view>("application/zap"));
  // The body is itself a complete ZAP message (flags 0: no message type).
  EXPECT_TRUE(zap::Message::parse(v.body).ok());
}

TEST(golden_frames, host_pair_present_or_absent_both_decode) {
  const Exact with_host(spec_message(5));
  const Exact without_host(spec_message(3));
  zh::RequestView a;
  zh::RequestView b;
  ASSERT_EQ(zh::decode_request(with_host.view(), a), zh::FrameError::ok);
  ASSERT_EQ(zh::decode_request(without_host.view(), b), zh::FrameError::ok);
  EXPECT_EQ(a.headers.find("host"), std::optional<std::string_view>("127.0.0.1:8391"));
  EXPECT_EQ(b.headers.find("Host"), std::nullopt);
  EXPECT_TRUE(b.headers.valid());
  EXPECT_EQ(b.headers.count(), 0u);
  EXPECT_EQ(a.target, b.target);
}

// ---- framing -----------------------------------------------------------------

TEST(scan_frame, zero_length_is_bad_length) {
  const ByteVec z = {0, 0, 0, 0};
  EXPECT_EQ(zh::scan_frame(Exact(z).view()).status, zh::FrameScan::Status::bad_length);
}

TEST(scan_frame, length_over_limit_is_bad_length_before_the_body_arrives) {
  const ByteVec over = {0x04, 0x00, 0x00, 0x01};  // 64 MiB + 1
  const ByteVec max = {0x04, 0x00, 0x00, 0x00};   // exactly 64 MiB: allowed
  const ByteVec all = {0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(zh::scan_frame(over).status, zh::FrameScan::Status::bad_length);
  EXPECT_EQ(zh::scan_frame(over).message_bytes, zh::kMaxFrameBytes + 1);
  EXPECT_EQ(zh::scan_frame(all).status, zh::FrameScan::Status::bad_length);
  EXPECT_EQ(zh::scan_frame(max).status, zh::FrameScan::Status::need_more);
  EXPECT_EQ(zh::scan_frame(max).message_bytes, zh::kMaxFrameBytes);
}

TEST(scan_frame, limit_is_a_parameter) {
  const ByteVec frame = spec_frame(3);  // 82-byte message
  EXPECT_EQ(zh::scan_frame(frame, 82).status, zh::FrameScan::Status::complete);
  EXPECT_EQ(zh::scan_frame(frame, 81).status, zh::FrameScan::Status::bad_length);
}

TEST(scan_frame, length_prefix_is_big_endian) {
  ByteVec frame = spec_frame(3);
  std::swap(frame[0], frame[3]);  // 0x52000000 little-endian reading would be 82
  EXPECT_EQ(zh::scan_frame(frame).status, zh::FrameScan::Status::bad_length);
}

TEST(scan_frame, pipelined_frames_are_read_one_at_a_time) {
  net::Buffer in(32);
  for (int n : {3, 5, 7, 1}) {
    const ByteVec f = spec_frame(n);
    in.append(f.data(), f.size());
  }
  std::vector<std::string> targets;
  for (;;) {
    const zh::FrameScan s = zh::scan_frame(in.readable());
    if (s.status != zh::FrameScan::Status::complete) {
      EXPECT_EQ(s.status, zh::FrameScan::Status::need_more);
      EXPECT_TRUE(in.empty());
      break;
    }
    zh::RequestView v;
    ASSERT_EQ(zh::decode_request(zh::frame_message(in.readable(), s), v), zh::FrameError::ok);
    targets.emplace_back(v.target);
    in.consume(zh::kPrefixBytes + s.message_bytes);
  }
  EXPECT_EQ(targets, (std::vector<std::string>{"/health", "/health", "/rpc", "/v1/blocks?height=42"}));
}

// ---- decode error paths --------------------------------------------------------

zh::FrameError request_error(const ByteVec& msg) {
  const Exact exact(msg);
  zh::RequestView v;
  return zh::decode_request(exact.view(), v);
}
zh::FrameError response_error(const ByteVec& msg) {
  const Exact exact(msg);
  zh::ResponseView v;
  return zh::decode_response(exact.view(), v);
}

TEST(decode, bad_magic_is_bad_message) {
  ByteVec m = spec_message(1);
  m[0] = 'z';
  EXPECT_EQ(request_error(m), zh::FrameError::bad_message);
  ByteVec r = spec_message(2);
  r[3] = 1;
  EXPECT_EQ(response_error(r), zh::FrameError::bad_message);
}

TEST(decode, unknown_versions_are_bad_message_and_version_2_is_accepted) {
  for (int version : {0x0000, 0x0003, 0x0100, 0xffff}) {
    ByteVec m = spec_message(1);
    put_u16(m, 4, static_cast<std::uint16_t>(version));
    EXPECT_EQ(request_error(m), zh::FrameError::bad_message) << version;
  }
  ByteVec m = spec_message(1);
  put_u16(m, 4, 2);
  EXPECT_EQ(request_error(m), zh::FrameError::ok);
}

TEST(decode, size_field_out_of_range_is_bad_message) {
  ByteVec m = spec_message(3);
  zaptest::put_u32(m, 12, 15);
  EXPECT_EQ(request_error(m), zh::FrameError::bad_message);
  zaptest::put_u32(m, 12, static_cast<std::uint32_t>(m.size() + 1));
  EXPECT_EQ(request_error(m), zh::FrameError::bad_message);
  zaptest::put_u32(m, 12, 0xffffffff);
  EXPECT_EQ(request_error(m), zh::FrameError::bad_message);
}

TEST(decode, bytes_after_size_are_ignored) {
  ByteVec m = spec_message(7);
  m.insert(m.end(), {0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0});  // the frame is longer than the message
  const Exact exact(m);
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
  EXPECT_EQ(v.body.size(), 82u);
  EXPECT_EQ(v.body.data() + v.body.size(), exact.view().data() + 201);
}

TEST(decode, request_decoder_rejects_every_other_type) {
  for (int type : {0, 2, 3, 4, 5, 6, 0xff}) {
    ByteVec m = spec_message(1);
    m[7] = static_cast<std::uint8_t>(type);
    EXPECT_EQ(request_error(m), zh::FrameError::wrong_type) << type;
  }
}

TEST(decode, response_decoder_rejects_requests_and_chunks) {
  for (int type : {0, 1, 4, 5, 0x82}) {
    ByteVec m = spec_message(2);
    m[7] = static_cast<std::uint8_t>(type);
    EXPECT_EQ(response_error(m), zh::FrameError::wrong_type) << type;
  }
}

TEST(decode, low_flag_byte_is_ignored) {
  for (int low : {1, 2, 4, 0xff}) {
    ByteVec q = spec_message(1);
    q[6] = static_cast<std::uint8_t>(low);
    EXPECT_EQ(request_error(q), zh::FrameError::ok) << low;
    ByteVec r = spec_message(2);
    r[6] = static_cast<std::uint8_t>(low);
    EXPECT_EQ(response_error(r), zh::FrameError::ok) << low;
  }
}

TEST(decode, root_outside_the_message_is_bad_root) {
  ByteVec base = spec_message(1);
  const auto size = static_cast<std::uint32_t>(base.size());
  for (std::uint32_t root : {0u, 8u, 15u, size, size + 1, 0xffffffffu}) {
    ByteVec m = base;
    zaptest::put_u32(m, 8, root);
    EXPECT_EQ(request_error(m), zh::FrameError::bad_root) << root;
    ByteVec r = spec_message(2);
    zaptest::put_u32(r, 8, root == size ? static_cast<std::uint32_t>(r.size()) : root);
    EXPECT_EQ(response_error(r), zh::FrameError::bad_root) << root;
  }
}

// Go checks 16 <= root < size and nothing more: slots that fall past the end
// read as null (and an empty method as GET), as zaphttp's readVar does.
TEST(decode, root_near_the_end_reads_null_fields) {
  ByteVec m = spec_message(3);
  zaptest::put_u32(m, 8, static_cast<std::uint32_t>(m.size() - 1));
  const Exact exact(m);
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
  EXPECT_EQ(v.method, "GET");
  EXPECT_TRUE(v.target.empty());
  EXPECT_TRUE(v.proto.empty());
  EXPECT_EQ(v.headers.count(), 0u);
  EXPECT_EQ(v.body.data(), nullptr);
}

TEST(decode, slot_pointing_past_size_reads_as_null) {
  ByteVec m = spec_message(1);
  zaptest::put_u32(m, slot_at(zh::RequestLayout::body) + 4, 45);  // body length one past the end
  const Exact exact(m);
  zh::RequestView v;
  ASSERT_EQ(zh::decode_request(exact.view(), v), zh::FrameError::ok);
  EXPECT_EQ(v.body.data(), nullptr);
  EXPECT_EQ(v.headers.count(), 2u);
}

TEST(decode, header_count_too_large_is_truncated_header_block) {
  const std::size_t count_at = 96;  // frame 1's headers block
  for (std::uint32_t count : {3u, 8u, 0x7fffffffu, 0xffffffffu}) {
    ByteVec m = spec_message(1);
    zaptest::put_u32(m, count_at, count);
    EXPECT_EQ(request_error(m), zh::FrameError::truncated_header_block) << count;
  }
}

TEST(decode, header_pair_cut_short_is_truncated_header_block) {
  const ByteVec base = spec_message(1);
  const std::uint32_t len = get_u32(base, slot_at(zh::RequestLayout::headers) + 4);
  ASSERT_EQ(len, 65u);
  for (std::uint32_t cut = 1; cut < len; ++cut) {
    ByteVec m = base;
    zaptest::put_u32(m, slot_at(zh::RequestLayout::headers) + 4, cut);
    EXPECT_EQ(request_error(m), zh::FrameError::truncated_header_block) << cut;
  }
}

TEST(decode, truncated_trailer_is_truncated_header_block) {
  ByteVec m = spec_message(4);
  const std::size_t len_at = slot_at(zh::ResponseLayout::trailer) + 4;
  zaptest::put_u32(m, len_at, get_u32(m, len_at) - 1);
  EXPECT_EQ(response_error(m), zh::FrameError::truncated_header_block);
}

TEST(decode, streamed_head_is_reported_by_name_with_its_fields) {
  const std::vector<zh::Header> h = {{"Content-Type", "text/event-stream"}};
  zh::ResponseSpec spec;
  spec.headers = h;
  spec.type = zh::MsgType::stream_head;
  net::Buffer out;
  ASSERT_TRUE(zh::ResponseEncoder{}.append_frame(spec, out));
  const ByteVec frame = readable(out);
  EXPECT_EQ(frame[4 + 7], 3);  // flags 0x0300
  const Exact exact(ByteView{frame}.subspan(4));
  zh::ResponseView v;
  EXPECT_EQ(zh::decode_response(exact.view(), v), zh::FrameError::stream_head);
  EXPECT_EQ(v.type, zh::MsgType::stream_head);
  EXPECT_EQ(v.status, 200);
  EXPECT_EQ(v.headers.find("content-type"), std::optional<std::string_view>("text/event-stream"));
  EXPECT_NE(zh::describe(zh::FrameError::stream_head).find("stream"), std::string_view::npos);
}

TEST(decode, every_error_has_a_description) {
  for (auto e :
       {zh::FrameError::ok, zh::FrameError::bad_message, zh::FrameError::wrong_type, zh::FrameError::bad_root,
        zh::FrameError::truncated_header_block, zh::FrameError::stream_head}) {
    EXPECT_FALSE(zh::describe(e).empty());
  }
  EXPECT_EQ(zh::describe(zh::FrameError::truncated_header_block), "truncated header block");
}

// ---- header blocks ---------------------------------------------------------------

TEST(header_block, null_and_empty_mean_no_headers) {
  const zh::HeaderBlock none;
  EXPECT_TRUE(none.valid());
  EXPECT_EQ(none.count(), 0u);
  const std::uint8_t byte = 0;
  const zh::HeaderBlock empty(zap::Bytes{&byte, 0});
  EXPECT_TRUE(empty.valid());
  EXPECT_EQ(empty.find("Host"), std::nullopt);
  int calls = 0;
  EXPECT_TRUE(empty.for_each([&](std::string_view, std::string_view) { ++calls; }));
  EXPECT_EQ(calls, 0);
}

TEST(header_block, count_zero_is_valid) {
  const ByteVec b = block_of({});
  const Exact e(b);
  const zh::HeaderBlock h(e.view());
  EXPECT_TRUE(h.valid());
  EXPECT_EQ(h.count(), 0u);
}

TEST(header_block, every_proper_prefix_is_invalid) {
  const ByteVec b = block_of({{"Content-Type", "application/zap"}, {"X-A", ""}, {"", "v"}});
  const Exact whole(b);
  EXPECT_TRUE(zh::HeaderBlock(whole.view()).valid());
  for (std::size_t k = 1; k < b.size(); ++k) {
    const Exact part(ByteView{b.data(), k});
    const zh::HeaderBlock h(part.view());
    EXPECT_FALSE(h.valid()) << k;
    EXPECT_EQ(h.count(), 0u);
    EXPECT_EQ(h.find("Content-Type"), std::nullopt);
    EXPECT_FALSE(h.for_each([](std::string_view, std::string_view) { ADD_FAILURE() << "called"; }));
  }
}

TEST(header_block, impossible_count_is_invalid) {
  ByteVec b = block_of({{"A", "b"}}, 0xffffffff);
  const Exact e(b);
  EXPECT_FALSE(zh::HeaderBlock(e.view()).valid());
}

TEST(header_block, length_word_near_u32_max_does_not_wrap) {
  ByteVec b = block_of({{"A", "b"}});
  zaptest::put_u32(b, 4, 0xfffffffc);  // nameLen
  const Exact e(b);
  EXPECT_FALSE(zh::HeaderBlock(e.view()).valid());
}

TEST(header_block, bytes_after_the_last_pair_are_ignored) {
  ByteVec b = block_of({{"A", "1"}});
  b.insert(b.end(), {1, 2, 3});
  const Exact e(b);
  const zh::HeaderBlock h(e.view());
  EXPECT_TRUE(h.valid());
  EXPECT_EQ(pairs_of(h), (Pairs{{"A", "1"}}));
}

TEST(header_block, find_is_case_insensitive) {
  const ByteVec b = block_of({{"Content-Type", "application/zap"}, {"x-trace-id", "abc"}});
  const Exact e(b);
  const zh::HeaderBlock h(e.view());
  EXPECT_EQ(h.find("content-type"), std::optional<std::string_view>("application/zap"));
  EXPECT_EQ(h.find("CONTENT-TYPE"), std::optional<std::string_view>("application/zap"));
  EXPECT_EQ(h.find("X-Trace-Id"), std::optional<std::string_view>("abc"));
  EXPECT_EQ(h.find("Content-Typ"), std::nullopt);
  EXPECT_EQ(h.find("Content-Type "), std::nullopt);
}

TEST(header_block, repeated_names_are_repeated_pairs_in_wire_order) {
  const Pairs p = {{"Set-Cookie", "a=1"}, {"Vary", "x"}, {"set-cookie", "b=2"}};
  const ByteVec b = block_of(p);
  const Exact e(b);
  const zh::HeaderBlock h(e.view());
  EXPECT_EQ(h.count(), 3u);
  EXPECT_EQ(pairs_of(h), p);
  EXPECT_EQ(h.find("SET-COOKIE"), std::optional<std::string_view>("a=1"));  // the first
}

TEST(header_block, for_each_stops_when_fn_returns_false) {
  const ByteVec b = block_of({{"A", "1"}, {"B", "2"}, {"C", "3"}});
  const Exact e(b);
  const zh::HeaderBlock h(e.view());
  std::string seen;
  EXPECT_FALSE(h.for_each([&](std::string_view n, std::string_view) {
    seen += n;
    return n != "B";
  }));
  EXPECT_EQ(seen, "AB");
}

TEST(header_block, iequals_is_ascii_only) {
  EXPECT_TRUE(zh::iequals("Content-Length", "content-LENGTH"));
  EXPECT_FALSE(zh::iequals("a", "b"));
  EXPECT_FALSE(zh::iequals("[", "{"));  // 0x5b vs 0x7b: not letters, not folded
  EXPECT_FALSE(zh::iequals("\xc4", "\xe4"));
}

}  // namespace
