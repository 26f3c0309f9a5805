// tests/net/net_zap_http_test.cpp — conformance tests for net/zap_http.hpp (wire A):
// the golden frames of zap-transport.md §3.8, read out of the spec text at run
// time (no hex in sources), decoded field by field and re-encoded byte for byte;
// then framing, decode error paths, header blocks and the encoders' contracts.
// Every decoded message sits at the end of an exact-size heap block, so an
// over-read is an ASan report, not a silent pass.
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
#include "net/zap_http.hpp"
#include "support/exact.hpp"
#include "support/vectors.hpp"

namespace {

namespace zh = net::zaphttp;
using zaptest::bytes_of;
using zaptest::ByteVec;
using zaptest::ByteView;
using zaptest::Exact;
using zaptest::same_bytes;
using zaptest::shared_dir;

// ---- the golden frames, from the spec text -----------------------------------

struct SpecFrame {
  std::optional<std::uint32_t> prefix;  // the "NNNNNNNN|" length, where the spec shows one
  ByteVec message;
};

// Extracts §3.8's numbered items: each item's indented hex line(s), with an
// optional "NNNNNNNN|" big-endian prefix and spaces (which only mark where a
// body starts) removed. Returns an error text instead on anything unexpected.
std::map<int, SpecFrame> load_spec_frames(std::string& error) {
  std::map<int, SpecFrame> frames;
  const std::filesystem::path path = shared_dir() / "spec" / "zap-transport.md";
  std::ifstream in(path);
  if (!in) {
    error = "cannot open " + path.string() + " (set ZAPBENCH_SHARED to the shared directory)";
    return frames;
  }
  std::map<int, std::string> hex;
  std::string line;
  bool in_section = false;
  int item = 0;
  while (std::getline(in, line)) {
    if (line.rfind("### 3.8", 0) == 0) {
      in_section = true;
      continue;
    }
    if (!in_section) continue;
    if (line.rfind("## ", 0) == 0 || line.rfind("### ", 0) == 0 || line.rfind("---", 0) == 0) break;
    std::size_t digits = 0;
    while (digits < line.size() && line[digits] >= '0' && line[digits] <= '9') ++digits;
    if (digits > 0 && line.compare(digits, 2, ". ") == 0) {
      item = std::stoi(line.substr(0, digits));
      continue;
    }
    if (item == 0 || line.rfind("    ", 0) != 0) continue;
    const std::size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    const std::string body = line.substr(first);
    if (body.find_first_not_of("0123456789abcdef| ") != std::string::npos) continue;
    for (char c : body)
      if (c != ' ') hex[item].push_back(c);
  }
  for (auto& [n, text] : hex) {
    SpecFrame f;
    std::string msg = text;
    if (const std::size_t bar = text.find('|'); bar != std::string::npos) {
      if (bar != 8) {
        error = "item " + std::to_string(n) + ": prefix is not 8 hex digits";
        return {};
      }
      f.prefix = static_cast<std::uint32_t>(std::stoul(text.substr(0, 8), nullptr, 16));
      msg = text.substr(9);
    }
    if (auto r = zaptest::decode_hex(msg, path.string() + " item " + std::to_string(n), f.message); !r) {
      error = r.message();
      return {};
    }
    frames[n] = std::move(f);
  }
  return frames;
}

const std::map<int, SpecFrame>& spec_frames() {
  static std::string error;
  static const std::map<int, SpecFrame> frames = load_spec_frames(error);
  if (!error.empty()) ADD_FAILURE() << error;
  return frames;
}

// The message of item n, failing the test if the spec lacks it.
ByteVec spec_message(int n) {
  const auto& frames = spec_frames();
  auto it = frames.find(n);
  if (it == frames.end()) {
    ADD_FAILURE() << "zap-transport.md §3.8 has no hex for item " << n;
    return {};
  }
  return it->second.message;
}

ByteVec with_prefix(ByteView message) {
  const auto n = static_cast<std::uint32_t>(message.size());
  ByteVec out(4 + message.size());
  for (int i = 0; i < 4; ++i) out[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (24 - 8 * i));
  if (!message.empty()) std::memcpy(out.data() + 4, message.data(), message.size());
  return out;
}

// The bytes on the connection: the spec's prefix where shown, else computed.
ByteVec spec_frame(int n) {
  const auto& frames = spec_frames();
  auto it = frames.find(n);
  if (it == frames.end()) return with_prefix(spec_message(n));
  ByteVec out = with_prefix(it->second.message);
  if (it->second.prefix) {
    EXPECT_EQ(*it->second.prefix, it->second.message.size()) << "item " << n;
  }
  return out;
}

// ---- helpers -------------------------------------------------------------------

std::string str(zap::Bytes b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

using Pairs = std::vector<std::pair<std::string, std::string>>;

Pairs pairs_of(const zh::HeaderBlock& h) {
  Pairs out;
  EXPECT_TRUE(h.for_each([&](std::string_view n, std::string_view v) { out.emplace_back(n, v); }));
  return out;
}

std::vector<zh::Header> headers_of(const Pairs& p) {
  std::vector<zh::Header> out;
  for (const auto& [n, v] : p) out.push_back({n, v});
  return out;
}

void put_u16(ByteVec& v, std::size_t at, std::uint16_t x) {
  v.at(at) = static_cast<std::uint8_t>(x);
  v.at(at + 1) = static_cast<std::uint8_t>(x >> 8);
}
std::uint32_t get_u32(ByteView v, std::size_t at) {
  return std::uint32_t{v[at]} | std::uint32_t{v[at + 1]} << 8 | std::uint32_t{v[at + 2]} << 16 |
         std::uint32_t{v[at + 3]} << 24;
}

// Slot positions in a message whose root is at 16 (every frame here).
constexpr std::size_t kRoot = 16;
constexpr std::size_t slot_at(std::uint32_t field) { return kRoot + field; }

// A header block built independently of the codec's encoder.
ByteVec block_of(const Pairs& pairs, std::optional<std::uint32_t> count = std::nullopt) {
  ByteVec out;
  auto u32 = [&](std::uint32_t x) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(x >> (8 * i)));
  };
  u32(count.value_or(static_cast<std::uint32_t>(pairs.size())));
  for (const auto& [n, v] : pairs) {
    u32(static_cast<std::uint32_t>(n.size()));
    out.insert(out.end(), n.begin(), n.end());
    u32(static_cast<std::uint32_t>(v.size()));
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

ByteVec readable(const net::Buffer& b) { return {b.readable().begin(), b.readable().end()}; }

// ---- golden frames: decode and re-encode ---------------------------------------

struct Golden {
  const char* name;
  int item;
  bool request;
  std::string_view method_or_reason;  // method for requests, reason for responses
  std::string_view target;            // requests only
  std::uint16_t status;               // responses only
  std::string_view proto;
  Pairs headers;
  std::string body;  // "@eth_req": the vector file's bytes
  Pairs trailer;
  std::uint32_t size_bytes;
};

const Golden kGolden[] = {
    {"frame1_golden_request",
     1,
     true,
     "POST",
     "/v1/blocks?height=42",
     0,
     "HTTP/1.1",
     {{"Content-Type", "application/json"}, {"X-Trace-Id", "abc-123"}},
     R"({"jsonrpc":"2.0","method":"eth_blockNumber"})",
     {},
     205},
    {"frame2_golden_response",
     2,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "application/json"}, {"X-Trace-Id", "abc-123"}},
     R"({"result":"0x2a"})",
     {},
     156},
    {"frame3_empty_get_health", 3, true, "GET", "/health", 0, "HTTP/1.1", {}, "", {}, 82},
    {"frame4_trailer_response",
     4,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "application/octet-stream"}},
     "streamed",
     {{"X-Checksum", "deadbeef"}},
     160},
    {"frame5_hello_with_host",
     5,
     true,
     "GET",
     "/health",
     0,
     "HTTP/1.1",
     {{"Host", "127.0.0.1:8391"}},
     "",
     {},
     112},
    {"frame6_hello_response",
     6,
     false,
     "OK",
     "",
     200,
     "HTTP/1.1",
     {{"Content-Type", "text/plain; charset=utf-8"}},
     "ok",
     {},
     125},
    {"frame7_rpc_request",
     7,
     true,
     "POST",
     "/rpc",
     0,
     "HTTP/1.1",
     {{"Content-Type", "application/zap"}},
     "@eth_req",
     {},
     201},
};

// gtest prints a parameter on failure; the name says which frame.
void PrintTo(const Golden& g, std::ostream* os) { *os << g.name; }

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
