// tests/wire/wire_zap_rpc_test.cpp — conformance tests for wire/zap_rpc.hpp (ZAP-RPC,
// wire B): the rpc_* vectors of ../shared/vectors and the frame vectors of
// zap-transport.md §5.1–5.2 (read at run time, no hex in sources) encoded byte
// for byte and decoded field by field, as envelopes and as frames; the
// repository's own eth_call frames (docs/spec/vectors/rpc_eth_call_*.hex,
// annotated in docs/spec/zap-rpc.md §5); frame scanning; every decode error and
// the ZAP reader's null rules on the envelope's slots. The method ordinals, the
// encoders' contracts and the client wire are net_zap_rpc_methods_test's.
// Every decoded envelope sits at the end of an exact-size heap block, so an
// over-read is an ASan report, not a silent pass.
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

// ---- the rpc_* vectors of ../shared/vectors (README §6) ------------------------

struct Vector {
  const char* name;
  bool request;
  std::uint32_t method_or_status;
  std::uint32_t promise;
  std::uint32_t target;      // requests only
  std::string_view cap;      // requests only
  std::string_view payload;  // the payload (requests) or body (responses)
  std::size_t size_bytes;    // the envelope's
  std::size_t tail_at;       // where the first non-empty tail starts
};

const Vector kVectors[] = {
    {"rpc_request_roundtrip", true, 3, 42, 0, "capability-bytes", "\x01\x02\x03\x04\x05", 65, 44},
    {"rpc_request_wireshape", true, 7, 9, 0, "", "", 44, 44},
    {"rpc_request_pipelined", true, 2, 2, 1, "", "", 44, 44},
    {"rpc_response_roundtrip", false, 200, 42, 0, "", "result-body-bytes", 53, 36},
    {"rpc_response_forbidden", false, 403, 9, 0, "", "", 36, 36},
};

void PrintTo(const Vector& v, std::ostream* os) { *os << v.name; }

zr::Request request_of(const Vector& v) {
  return {v.method_or_status, v.promise, v.target, bytes_of(v.cap), bytes_of(v.payload)};
}
zr::Response response_of(const Vector& v) { return {v.method_or_status, v.promise, bytes_of(v.payload)}; }

ByteVec encode_envelope(const Vector& v) {
  if (v.request) {
    ByteVec m(zr::request_envelope_bytes(v.cap.size(), v.payload.size()), 0xee);
    zr::write_request(m.data(), request_of(v));
    return m;
  }
  ByteVec m(zr::response_envelope_bytes(v.payload.size()), 0xee);
  zr::write_response(m.data(), response_of(v));
  return m;
}

class RpcVector : public ::testing::TestWithParam<Vector> {
 protected:
  ByteVec envelope() const { return zaptest::hex_vector(GetParam().name); }
  std::uint8_t dir() const {
    return static_cast<std::uint8_t>(GetParam().request ? zr::Dir::request : zr::Dir::response);
  }
  ByteVec frame() const { return frame_of(dir(), envelope()); }
};

// A new rpc_* vector in the shared set must get a row above, not be skipped.
TEST(rpc_vectors, every_shared_rpc_vector_has_a_row) {
  std::set<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(zaptest::vectors_dir())) {
    const std::string n = e.path().filename().string();
    if (n.rfind("rpc_", 0) == 0 && e.path().extension() == ".hex") files.insert(e.path().stem().string());
  }
  std::set<std::string> rows;
  for (const Vector& v : kVectors) rows.insert(v.name);
  EXPECT_EQ(files, rows);
}

TEST_P(RpcVector, encoder_writes_the_envelope_byte_for_byte) {
  const ByteVec want = envelope();
  ASSERT_EQ(want.size(), GetParam().size_bytes);
  EXPECT_TRUE(same_bytes(encode_envelope(GetParam()), want));
}

TEST_P(RpcVector, encoder_writes_the_frame_byte_for_byte) {
  const Vector& v = GetParam();
  net::Buffer out(16);  // small: the encoder must grow it
  out.append("xy");     // a frame goes after what is already there
  ASSERT_TRUE(v.request ? zr::append_request_frame(out, request_of(v))
                        : zr::append_response_frame(out, response_of(v)));
  const ByteVec got = readable(out);
  ASSERT_GE(got.size(), 2u);
  EXPECT_EQ(got[0], 'x');
  EXPECT_TRUE(same_bytes(ByteView{got}.subspan(2), frame()));
  EXPECT_EQ(get_u32(got, 2), v.size_bytes + 1);  // L counts the direction byte
}

TEST_P(RpcVector, decodes_to_the_documented_fields) {
  const Vector& v = GetParam();
  const Exact exact(envelope());
  const ByteView m = exact.view();
  ASSERT_EQ(m.size(), v.size_bytes);
  if (v.request) {
    zr::Request r;
    ASSERT_EQ(zr::decode_request(m, r), zr::EnvelopeError::ok);
    EXPECT_EQ(r.method, v.method_or_status);
    EXPECT_EQ(r.promise, v.promise);
    EXPECT_EQ(r.target, v.target);
    EXPECT_TRUE(same_bytes(r.cap, bytes_of(v.cap)));
    EXPECT_TRUE(same_bytes(r.payload, bytes_of(v.payload)));
    // Empty means a null slot; tails packed in slot order from the end of the fixed section.
    EXPECT_EQ(offset_in(m, r.cap), v.cap.empty() ? std::nullopt : std::optional<std::size_t>(v.tail_at));
    EXPECT_EQ(offset_in(m, r.payload),
              v.payload.empty() ? std::nullopt : std::optional<std::size_t>(v.tail_at + v.cap.size()));
  } else {
    zr::Response r;
    ASSERT_EQ(zr::decode_response(m, r), zr::EnvelopeError::ok);
    EXPECT_EQ(r.status, v.method_or_status);
    EXPECT_EQ(r.promise, v.promise);
    EXPECT_TRUE(same_bytes(r.body, bytes_of(v.payload)));
    EXPECT_EQ(offset_in(m, r.body), v.payload.empty() ? std::nullopt : std::optional<std::size_t>(v.tail_at));
    EXPECT_EQ(get_u32(m, kRoot + 8), 0u);  // the unused word
  }
  // Header: version 2, flags 0xC800, root 16, size = the envelope.
  EXPECT_EQ(m[4] | m[5] << 8, zr::kEnvelopeVersion);
  EXPECT_EQ(m[6] | m[7] << 8, zr::kEnvelopeFlags);
  EXPECT_EQ(get_u32(m, 8), kRoot);
  EXPECT_EQ(get_u32(m, 12), v.size_bytes);
}

TEST_P(RpcVector, frame_scans_complete_with_its_direction_and_body) {
  const ByteVec f = frame();
  const Exact whole(f);
  const zr::FrameScan s = zr::scan_frame(whole.view());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.dir, dir());
  EXPECT_EQ(s.length, GetParam().size_bytes + 1);
  EXPECT_EQ(s.frame_bytes(), f.size());
  EXPECT_EQ(s.body_bytes(), GetParam().size_bytes);
  EXPECT_TRUE(same_bytes(zr::frame_body(whole.view(), s), envelope()));
}

TEST_P(RpcVector, every_proper_prefix_of_the_frame_needs_more) {
  const ByteVec f = frame();
  for (std::size_t k = 0; k < f.size(); ++k) {
    const Exact part(ByteView{f.data(), k});
    const zr::FrameScan s = zr::scan_frame(part.view());
    ASSERT_EQ(s.status, Status::need_more) << "prefix " << k;
    EXPECT_EQ(s.length, k < zr::kPrefixBytes ? 0u : f.size() - zr::kPrefixBytes) << "prefix " << k;
  }
}

// Each truncation of the envelope (the frame promised more) is refused as a
// message and never read past: its size field is past the input.
TEST_P(RpcVector, every_truncated_envelope_is_bad_message) {
  const ByteVec m = envelope();
  for (std::size_t k = 0; k < m.size(); ++k) {
    EXPECT_EQ(request_error(ByteView{m.data(), k}), zr::EnvelopeError::bad_message) << k;
    EXPECT_EQ(response_error(ByteView{m.data(), k}), zr::EnvelopeError::bad_message) << k;
  }
}

INSTANTIATE_TEST_SUITE_P(zap_rpc, RpcVector, ::testing::ValuesIn(kVectors),
                         [](const ::testing::TestParamInfo<Vector>& p) { return std::string(p.param.name); });

// ---- the frame vectors of zap-transport.md §5.1 and §5.2, from the spec text ---

// The backticked hex of a section: `heading` up to the next "### " or "## ".
std::vector<std::string> backticked_in(const std::string& heading) {
  const std::filesystem::path path = zaptest::shared_dir() / "spec" / "zap-transport.md";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path << " (set ZAPBENCH_SHARED to the shared directory)";
  std::vector<std::string> out;
  std::string line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (line.rfind(heading, 0) == 0) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.rfind("### ", 0) == 0 || line.rfind("## ", 0) == 0) break;
    for (std::size_t a = line.find('`'); a != std::string::npos; a = line.find('`', a + 1)) {
      const std::size_t b = line.find('`', a + 1);
      if (b == std::string::npos) break;
      const std::string tok = line.substr(a + 1, b - a - 1);
      if (!tok.empty() && std::isxdigit(static_cast<unsigned char>(tok[0])) && tok.size() >= 8 &&
          tok.find_first_not_of("0123456789abcdef |\xe2\x80\xa6") == std::string::npos)
        out.push_back(tok);
      a = b;
    }
  }
  return out;
}

ByteVec hex_of(const std::string& text, const std::string& what) {
  ByteVec out;
  if (text.empty()) return out;
  EXPECT_TRUE(zaptest::decode_hex(text, what, out));
  return out;
}

// §5.1 gives two envelopes in full. The response is rpc_response_roundtrip;
// the request is rpc_request_roundtrip without its Cap, which our encoder must
// write from the documented fields.
TEST(spec_vectors, section_5_1_envelopes_are_what_the_encoder_writes) {
  const std::vector<std::string> hex = backticked_in("### 5.1");
  ASSERT_EQ(hex.size(), 2u) << "zap-transport.md §5.1 should show a request and a response envelope";
  const ByteVec req = hex_of(hex[0], "§5.1 request");
  const ByteVec resp = hex_of(hex[1], "§5.1 response");
  ASSERT_EQ(req.size(), 49u);
  const std::uint8_t payload[] = {1, 2, 3, 4, 5};
  ByteVec mine(zr::request_envelope_bytes(0, 5));
  zr::write_request(mine.data(), {3, 42, zr::kNoTarget, {}, payload});
  EXPECT_TRUE(same_bytes(mine, req));
  EXPECT_TRUE(same_bytes(resp, zaptest::hex_vector("rpc_response_roundtrip")));
  // The request derived from the shared vector: same header and words, no Cap.
  ZAP_LOAD_HEX(rt, "rpc_request_roundtrip");
  ByteVec derived(rt.begin(), rt.begin() + static_cast<std::ptrdiff_t>(kCapSlot));
  zaptest::put_u32(derived, 12, 49);
  derived.resize(kCapSlot + 8, 0);                          // null Cap
  derived.insert(derived.end(), {8, 0, 0, 0, 5, 0, 0, 0});  // Payload: rel 8 (36 + 8 = 44), 5 bytes
  derived.insert(derived.end(), rt.end() - 5, rt.end());
  EXPECT_TRUE(same_bytes(derived, req));
}

// §5.2 shows both frames' first five bytes and the ends of the request's envelope.
TEST(spec_vectors, section_5_2_frames_are_what_the_encoder_writes) {
  const std::vector<std::string> env = backticked_in("### 5.1");
  const std::vector<std::string> frames = backticked_in("### 5.2");
  ASSERT_EQ(env.size(), 2u);
  ASSERT_EQ(frames.size(), 2u) << "zap-transport.md §5.2 should show a request and a response frame";
  const std::uint8_t payload[] = {1, 2, 3, 4, 5};
  const zr::Request rq{3, 42, zr::kNoTarget, {}, payload};
  const zr::Response rs{200, 42, bytes_of("result-body-bytes")};
  for (std::size_t i = 0; i < 2; ++i) {
    net::Buffer out;
    ASSERT_TRUE(i == 0 ? zr::append_request_frame(out, rq) : zr::append_response_frame(out, rs));
    const ByteVec mine = readable(out);
    // "PPPPPPPP DD | head…tail"
    const std::string& t = frames[i];
    const std::size_t bar = t.find(" | ");
    ASSERT_NE(bar, std::string::npos) << t;
    std::string head5 = t.substr(0, bar);
    head5.erase(std::remove(head5.begin(), head5.end(), ' '), head5.end());
    EXPECT_TRUE(same_bytes(ByteView{mine}.first(5), hex_of(head5, "§5.2 prefix")));
    const std::string rest = t.substr(bar + 3);
    const std::size_t dots = rest.find("\xe2\x80\xa6");  // "…"
    ASSERT_NE(dots, std::string::npos) << t;
    const ByteVec head = hex_of(rest.substr(0, dots), "§5.2 head");
    const ByteVec tail = hex_of(rest.substr(dots + 3), "§5.2 tail");
    ASSERT_GE(mine.size(), 5 + head.size() + tail.size());
    EXPECT_TRUE(same_bytes(ByteView{mine}.subspan(5, head.size()), head));
    EXPECT_TRUE(same_bytes(ByteView{mine}.last(tail.size()), tail));
    // And the whole frame is §5.1's envelope behind that prefix.
    EXPECT_TRUE(same_bytes(mine, frame_of(static_cast<std::uint8_t>(i + 1), hex_of(env[i], "§5.1"))));
  }
}

// ---- the benchmark's own frames (docs/spec/vectors, docs/spec/zap-rpc.md §5) ----

TEST(eth_call_frames, the_request_frame_is_the_vector) {
  ZAP_LOAD_HEX(eth_req, "eth_req");
  ByteVec want;
  ASSERT_TRUE(zaptest::load_repo_hex("rpc_eth_call_frame", want));
  ASSERT_EQ(want.size(), 131u);
  net::Buffer out;
  ASSERT_TRUE(zr::append_request_frame(
      out, {zr::method_ordinal(zr::Op::eth_call, 0), 1, zr::kNoTarget, {}, eth_req}));
  EXPECT_TRUE(same_bytes(readable(out), want));
  EXPECT_TRUE(same_bytes(want, frame_of(1, ByteView{want}.subspan(5))));

  const Exact exact(want);
  const zr::FrameScan s = zr::scan_frame(exact.view());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.dir, 1);
  zr::Request r;
  ASSERT_EQ(zr::decode_request(zr::frame_body(exact.view(), s), r), zr::EnvelopeError::ok);
  EXPECT_EQ(r.method, 1u);
  EXPECT_EQ(r.promise, 1u);
  EXPECT_EQ(r.target, zr::kNoTarget);
  EXPECT_EQ(r.cap.data(), nullptr);
  EXPECT_TRUE(same_bytes(r.payload, eth_req));
  EXPECT_EQ(r.payload.data() - exact.view().data(), 5 + 44);  // the tail right after the fixed section
  const zr::Method m = zr::method_of(r.method);
  EXPECT_TRUE(m.known);
  EXPECT_EQ(m.op, zr::Op::eth_call);
  EXPECT_EQ(m.content_type, "application/zap");
  EXPECT_EQ(zr::kRequestPromiseAt, 25u);  // as the annotation says
}

TEST(eth_call_frames, the_answer_frame_is_the_vector) {
  ZAP_LOAD_HEX(fold, "eth_resp_server_fold");
  ByteVec want;
  ASSERT_TRUE(zaptest::load_repo_hex("rpc_eth_call_answer_frame", want));
  ASSERT_EQ(want.size(), 121u);
  net::Buffer out;
  ASSERT_TRUE(zr::append_response_frame(out, {200, 1, fold}));
  EXPECT_TRUE(same_bytes(readable(out), want));

  const Exact exact(want);
  const zr::FrameScan s = zr::scan_frame(exact.view());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.dir, 2);
  zr::Response r;
  ASSERT_EQ(zr::decode_response(zr::frame_body(exact.view(), s), r), zr::EnvelopeError::ok);
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.promise, 1u);
  ASSERT_TRUE(same_bytes(r.body, fold));
  // The body is the EthCallResp the server computes (vectors README §4).
  const zap::Message::Parsed p = zap::Message::parse(r.body);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.root().u64(0), 1u);
  EXPECT_EQ(p.message.root().u64(8), 1000000000000069003u);
  EXPECT_EQ(p.message.root().u64(16), 42u);
  EXPECT_EQ(p.message.root().bytes(24).size(), 32u);
}

// ---- framing ---------------------------------------------------------------------

TEST(scan_frame, fewer_than_four_bytes_need_more_with_no_length) {
  const ByteVec f = {0x05, 0, 0};
  for (std::size_t k = 0; k < 4; ++k) {
    const zr::FrameScan s = zr::scan_frame(Exact(ByteView{f.data(), std::min<std::size_t>(k, 3)}).view());
    EXPECT_EQ(s.status, Status::need_more) << k;
    EXPECT_EQ(s.length, 0u) << k;
  }
}

TEST(scan_frame, zero_length_is_bad_length_whatever_follows) {
  EXPECT_EQ(zr::scan_frame(Exact(prefix_only(0)).view()).status, Status::bad_length);
  ByteVec f = prefix_only(0);
  f.insert(f.end(), {1, 2, 3});
  const zr::FrameScan s = zr::scan_frame(Exact(f).view());
  EXPECT_EQ(s.status, Status::bad_length);
  EXPECT_EQ(s.length, 0u);
}

TEST(scan_frame, the_limit_is_64_mib_and_is_known_before_the_body_arrives) {
  EXPECT_EQ(zr::kMaxFrameBytes, 64u * 1024 * 1024);
  const zr::FrameScan max = zr::scan_frame(Exact(prefix_only(zr::kMaxFrameBytes)).view());
  EXPECT_EQ(max.status, Status::need_more);
  EXPECT_EQ(max.length, zr::kMaxFrameBytes);
  for (std::uint32_t l : {zr::kMaxFrameBytes + 1, 0x80000000u, 0xffffffffu}) {
    const zr::FrameScan s = zr::scan_frame(Exact(prefix_only(l)).view());
    EXPECT_EQ(s.status, Status::bad_length) << l;
    EXPECT_EQ(s.length, l);
  }
}

TEST(scan_frame, the_limit_is_a_parameter) {
  const ByteVec f = frame_of(1, zaptest::hex_vector("rpc_request_wireshape"));  // L = 45
  EXPECT_EQ(zr::scan_frame(f, 45).status, Status::complete);
  EXPECT_EQ(zr::scan_frame(f, 44).status, Status::bad_length);
}

TEST(scan_frame, the_prefix_is_little_endian) {
  // 0x2d000000 read big-endian would be 45; read little-endian it is far past the limit.
  ByteVec f = frame_of(1, zaptest::hex_vector("rpc_request_wireshape"));
  std::reverse(f.begin(), f.begin() + 4);
  EXPECT_EQ(zr::scan_frame(f).status, Status::bad_length);
}

TEST(scan_frame, a_frame_of_only_the_direction_byte_is_complete_and_empty) {
  ByteVec f = prefix_only(1);
  f.push_back(4);
  const Exact e(f);
  const zr::FrameScan s = zr::scan_frame(e.view());
  ASSERT_EQ(s.status, Status::complete);
  EXPECT_EQ(s.dir, 4);
  EXPECT_EQ(s.body_bytes(), 0u);
  EXPECT_EQ(s.frame_bytes(), 5u);
  EXPECT_TRUE(zr::frame_body(e.view(), s).empty());
}

// The scan reports any direction byte: what it takes is the caller's choice.
TEST(scan_frame, every_direction_byte_is_reported) {
  for (int d = 0; d < 256; ++d) {
    const std::uint8_t body[] = {7, 8};
    const ByteVec f = frame_of(static_cast<std::uint8_t>(d), body);
    const zr::FrameScan s = zr::scan_frame(Exact(f).view());
    ASSERT_EQ(s.status, Status::complete) << d;
    EXPECT_EQ(s.dir, d);
  }
  for (zr::Dir d : {zr::Dir::request, zr::Dir::response, zr::Dir::stream_open, zr::Dir::stream_message,
                    zr::Dir::stream_end})
    EXPECT_NE(zr::describe(d), "unknown direction");
  EXPECT_EQ(zr::describe(static_cast<zr::Dir>(0)), "unknown direction");
  EXPECT_EQ(zr::describe(static_cast<zr::Dir>(6)), "unknown direction");
  EXPECT_EQ(static_cast<int>(zr::Dir::stream_end), 5);
}

TEST(scan_frame, pipelined_frames_are_read_one_at_a_time) {
  net::Buffer in(32);
  std::vector<std::uint32_t> want;
  for (const Vector& v : kVectors) {
    const ByteVec f = frame_of(v.request ? 1 : 2, zaptest::hex_vector(v.name));
    in.append(f.data(), f.size());
    want.push_back(v.promise);
  }
  in.append("\x2d\x00\x00", 3);  // the start of one more
  std::vector<std::uint32_t> got;
  for (;;) {
    const zr::FrameScan s = zr::scan_frame(in.readable());
    if (s.status != Status::complete) {
      EXPECT_EQ(s.status, Status::need_more);
      EXPECT_EQ(in.size(), 3u);
      break;
    }
    const zap::Bytes body = zr::frame_body(in.readable(), s);
    if (s.dir == 1) {
      zr::Request r;
      ASSERT_EQ(zr::decode_request(body, r), zr::EnvelopeError::ok);
      got.push_back(r.promise);
    } else {
      zr::Response r;
      ASSERT_EQ(zr::decode_response(body, r), zr::EnvelopeError::ok);
      got.push_back(r.promise);
    }
    in.consume(s.frame_bytes());
  }
  EXPECT_EQ(got, want);
}

// ---- decode errors ----------------------------------------------------------------

TEST(decode, every_error_has_a_description) {
  EXPECT_EQ(zr::describe(zr::EnvelopeError::ok), "ok");
  EXPECT_EQ(zr::describe(zr::EnvelopeError::bad_message), "not a ZAP message");
  EXPECT_EQ(zr::describe(zr::EnvelopeError::bad_root), "root offset out of range");
  EXPECT_EQ(zr::describe(static_cast<zr::EnvelopeError>(9)), "unknown envelope error");
}

TEST(decode, bad_magic_is_bad_message) {
  for (std::size_t at = 0; at < 4; ++at) {
    ByteVec q = zaptest::hex_vector("rpc_request_roundtrip");
    q[at] ^= 0x20;
    EXPECT_EQ(request_error(q), zr::EnvelopeError::bad_message) << at;
    ByteVec r = zaptest::hex_vector("rpc_response_roundtrip");
    r[at] ^= 0x01;
    EXPECT_EQ(response_error(r), zr::EnvelopeError::bad_message) << at;
  }
  // The shared vector: golden_v1 with byte 0 = 'X'.
  EXPECT_EQ(request_error(zaptest::hex_vector("reject_parse_bad_magic")), zr::EnvelopeError::bad_message);
}

TEST(decode, version_3_and_other_unknown_versions_are_bad_message) {
  for (int version : {0, 3, 0x100, 0x200, 0xffff}) {
    ByteVec q = zaptest::hex_vector("rpc_request_roundtrip");
    q[4] = static_cast<std::uint8_t>(version);
    q[5] = static_cast<std::uint8_t>(version >> 8);
    EXPECT_EQ(request_error(q), zr::EnvelopeError::bad_message) << version;
    ByteVec r = zaptest::hex_vector("rpc_response_forbidden");
    r[4] = static_cast<std::uint8_t>(version);
    r[5] = static_cast<std::uint8_t>(version >> 8);
    EXPECT_EQ(response_error(r), zr::EnvelopeError::bad_message) << version;
  }
  EXPECT_EQ(request_error(zaptest::hex_vector("reject_parse_version3")), zr::EnvelopeError::bad_message);
}

// Parse accepts version 1 as well as 2 (§5.1), and nothing reads the flags.
TEST(decode, version_1_and_any_flags_decode_the_same_fields) {
  for (int variant = 0; variant < 4; ++variant) {
    ByteVec q = zaptest::hex_vector("rpc_request_roundtrip");
    if (variant == 0) q[4] = 1;
    if (variant == 1) q[6] = q[7] = 0;
    if (variant == 2) q[7] = 0x01;  // ZAP-HTTP's request type
    if (variant == 3) q[6] = q[7] = 0xff;
    const Exact e(q);
    zr::Request r;
    ASSERT_EQ(zr::decode_request(e.view(), r), zr::EnvelopeError::ok) << variant;
    EXPECT_EQ(r.method, 3u);
    EXPECT_EQ(r.promise, 42u);
    EXPECT_TRUE(same_bytes(r.cap, bytes_of("capability-bytes")));
  }
}

TEST(decode, size_field_below_header_or_past_the_input_is_bad_message) {
  const ByteVec base = zaptest::hex_vector("rpc_response_roundtrip");
  for (std::uint32_t size : {0u, 15u, static_cast<std::uint32_t>(base.size() + 1), 0xffffffffu}) {
    ByteVec m = base;
    zaptest::put_u32(m, 12, size);
    EXPECT_EQ(response_error(m), zr::EnvelopeError::bad_message) << size;
    EXPECT_EQ(request_error(m), zr::EnvelopeError::bad_message) << size;
  }
  EXPECT_EQ(request_error(zaptest::hex_vector("reject_parse_short_15")), zr::EnvelopeError::bad_message);
  EXPECT_EQ(request_error(zaptest::hex_vector("reject_parse_size_below_header")),
            zr::EnvelopeError::bad_message);
  EXPECT_EQ(request_error(zaptest::hex_vector("reject_parse_size_exceeds_input")),
            zr::EnvelopeError::bad_message);
}

TEST(decode, root_below_16_or_at_or_past_size_is_bad_root) {
  for (const Vector& v : kVectors) {
    const ByteVec base = zaptest::hex_vector(v.name);
    const auto size = static_cast<std::uint32_t>(base.size());
    for (std::uint32_t root : {0u, 1u, 8u, 15u, size, size + 1, 0x80000010u, 0xffffffffu}) {
      ByteVec m = base;
      zaptest::put_u32(m, 8, root);
      EXPECT_EQ(v.request ? request_error(m) : response_error(m), zr::EnvelopeError::bad_root)
          << v.name << " root " << root;
    }
  }
}

// A root just inside the size: every field passes the size and reads as 0 or null.
TEST(decode, root_at_the_last_byte_reads_zero_fields) {
  ByteVec q = zaptest::hex_vector("rpc_request_roundtrip");
  zaptest::put_u32(q, 8, static_cast<std::uint32_t>(q.size() - 1));
  const Exact e(q);
  zr::Request r;
  ASSERT_EQ(zr::decode_request(e.view(), r), zr::EnvelopeError::ok);
  EXPECT_EQ(r.method, 0u);
  EXPECT_EQ(r.promise, 0u);
  EXPECT_EQ(r.target, 0u);
  EXPECT_EQ(r.cap.data(), nullptr);
  EXPECT_EQ(r.payload.data(), nullptr);
}

// The size field cut short inside the envelope (the input keeps its bytes):
// each field reads only if it lies within the size, each slot only if its
// word pair and its tail do (the ZAP reader's rules, as Go's accessors).
TEST(decode, fields_past_a_short_size_read_zero_and_slots_null) {
  const ByteVec base = zaptest::hex_vector("rpc_request_roundtrip");  // 65 bytes
  for (std::uint32_t size = 17; size <= base.size(); ++size) {
    ByteVec m = base;
    zaptest::put_u32(m, 12, size);
    const Exact e(m);
    zr::Request r;
    ASSERT_EQ(zr::decode_request(e.view(), r), zr::EnvelopeError::ok) << size;
    EXPECT_EQ(r.method, size >= 20 ? 3u : 0u) << size;
    EXPECT_EQ(r.promise, size >= 24 ? 42u : 0u) << size;
    EXPECT_EQ(r.target, 0u) << size;
    const bool cap = size >= 44 + 16, payload = size >= 60 + 5;
    EXPECT_EQ(r.cap.data() != nullptr, cap) << size;
    EXPECT_EQ(r.payload.data() != nullptr, payload) << size;
    if (cap) {
      EXPECT_TRUE(same_bytes(r.cap, bytes_of("capability-bytes")));
    }
  }
  const ByteVec rb = zaptest::hex_vector("rpc_response_roundtrip");  // 53 bytes
  for (std::uint32_t size = 17; size <= rb.size(); ++size) {
    ByteVec m = rb;
    zaptest::put_u32(m, 12, size);
    const Exact e(m);
    zr::Response r;
    ASSERT_EQ(zr::decode_response(e.view(), r), zr::EnvelopeError::ok) << size;
    EXPECT_EQ(r.status, size >= 20 ? 200u : 0u) << size;
    EXPECT_EQ(r.promise, size >= 24 ? 42u : 0u) << size;
    EXPECT_EQ(r.body.data() != nullptr, size == rb.size()) << size;
  }
}

TEST(decode, bytes_after_the_size_are_ignored) {
  ByteVec m = zaptest::hex_vector("rpc_response_roundtrip");
  m.insert(m.end(), {0xaa, 0xbb, 0xcc});
  const Exact e(m);
  zr::Response r;
  ASSERT_EQ(zr::decode_response(e.view(), r), zr::EnvelopeError::ok);
  EXPECT_TRUE(same_bytes(r.body, bytes_of("result-body-bytes")));
}

// For an envelope of size S whose slot is at P: the cases of §5.1 ("a slot
// that does not resolve reads as null") and of the adversarial vectors of
// ../shared/vectors README §7, each for every slot of both envelopes.
void check_slot(const char* vector, std::size_t slot, bool request, bool payload_slot) {
  const ByteVec base = zaptest::hex_vector(vector);
  const auto size = static_cast<std::int64_t>(base.size());
  const auto p = static_cast<std::int64_t>(slot);
  struct Case {
    const char* what;
    std::uint32_t rel;
    std::uint32_t len;
    bool null;
  };
  const auto rel_to = [&](std::int64_t abs) { return static_cast<std::uint32_t>(abs - p); };
  const Case cases[] = {
      {"backward into the header (abs 4, as reject_bytes_backward_into_header)", rel_to(4), 2, true},
      {"backward to abs 0", rel_to(0), 1, true},
      {"backward into the fixed section", rel_to(16), 4, true},
      {"high-bit rel (as reject_bytes_highbit_reloffset)", 0xfffffff0u, 4, true},
      {"rel 0x80000000", 0x80000000u, 1, true},
      {"past the size", rel_to(size + 1), 0, true},
      {"far past the size", 0x7fffffffu, 1, true},
      {"rel 0 with a length (as null_text_rel0_len3)", 0, 3, true},
      {"rel 0, len 0", 0, 0, true},
      {"len overruns the size by one (as reject_bytes_length_overrun)", rel_to(size - 4), 5, true},
      {"len u32 max", rel_to(size - 4), 0xffffffffu, true},
      {"exactly to the end", rel_to(size - 4), 4, false},
      {"empty at the end: non-null and empty, as Go", rel_to(size), 0, false},
      {"rel 1: its own len word", 1, 4, false},
  };
  for (const Case& c : cases) {
    ByteVec m = base;
    zaptest::put_u32(m, slot, c.rel);
    zaptest::put_u32(m, slot + 4, c.len);
    const Exact e(m);
    zap::Bytes got;
    if (request) {
      zr::Request r;
      ASSERT_EQ(zr::decode_request(e.view(), r), zr::EnvelopeError::ok) << c.what;
      got = payload_slot ? r.payload : r.cap;
      EXPECT_EQ(r.promise, get_u32(base, kRoot + 4)) << c.what;  // the other fields are untouched
    } else {
      zr::Response r;
      ASSERT_EQ(zr::decode_response(e.view(), r), zr::EnvelopeError::ok) << c.what;
      got = r.body;
      EXPECT_EQ(r.status, get_u32(base, kRoot)) << c.what;
    }
    EXPECT_EQ(got.data() == nullptr, c.null) << vector << " slot " << slot << ": " << c.what;
    if (!c.null) {
      EXPECT_EQ(offset_in(e.view(), got), slot + c.rel) << c.what;
      EXPECT_EQ(got.size(), c.len) << c.what;
    }
  }
}

TEST(decode, request_cap_slot_that_does_not_resolve_is_null) {
  check_slot("rpc_request_roundtrip", kCapSlot, true, false);
  check_slot("rpc_request_wireshape", kCapSlot, true, false);
}

TEST(decode, request_payload_slot_that_does_not_resolve_is_null) {
  check_slot("rpc_request_roundtrip", kPayloadSlot, true, true);
  check_slot("rpc_request_pipelined", kPayloadSlot, true, true);
}

TEST(decode, response_body_slot_that_does_not_resolve_is_null) {
  check_slot("rpc_response_roundtrip", kBodySlot, false, false);
  check_slot("rpc_response_forbidden", kBodySlot, false, false);
}

// A broken Payload leaves the Cap readable, and the reverse.
TEST(decode, slots_resolve_independently) {
  ByteVec m = zaptest::hex_vector("rpc_request_roundtrip");
  zaptest::put_u32(m, kPayloadSlot + 4, 0xffffffffu);
  const Exact e(m);
  zr::Request r;
  ASSERT_EQ(zr::decode_request(e.view(), r), zr::EnvelopeError::ok);
  EXPECT_EQ(r.payload.data(), nullptr);
  EXPECT_TRUE(same_bytes(r.cap, bytes_of("capability-bytes")));
  ByteVec n = zaptest::hex_vector("rpc_request_roundtrip");
  zaptest::put_u32(n, kCapSlot, 0);
  const Exact f(n);
  ASSERT_EQ(zr::decode_request(f.view(), r), zr::EnvelopeError::ok);
  EXPECT_EQ(r.cap.data(), nullptr);
  EXPECT_EQ(r.payload.size(), 5u);
}

}  // namespace
