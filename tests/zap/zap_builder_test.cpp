// tests/zap/zap_builder_test.cpp — encoder conformance for zap::Builder: every vector
// with a documented build sequence (shared/vectors/README.md) is produced byte for
// byte, plus builder reuse, caller-owned buffers, value copying and finish rules.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/vectors.hpp"
#include "zap/zap.hpp"

namespace {

using zaptest::bytes_of;
using zaptest::ByteVec;
using zaptest::ByteView;

constexpr std::uint16_t kV1 = 1;             // Go NewBuilder
constexpr std::uint16_t kV2 = 2;             // Go NewBuilderV2 (and the RPC envelopes)
constexpr std::uint16_t kRpcFlags = 0xC800;  // FinishWithFlags(200 << 8)

ByteVec copy_of(zap::Bytes b) { return ByteVec(b.begin(), b.end()); }

// Compares a built message with <name>.hex; a missing vector fails with its path.
::testing::AssertionResult matches_vector(std::string_view name, ByteView built) {
  ByteVec expected;
  if (::testing::AssertionResult r = zaptest::load_hex(name, expected); !r) return r;
  ::testing::AssertionResult same = zaptest::same_bytes(built, expected);
  if (!same) return ::testing::AssertionFailure() << name << ".hex: " << same.message();
  return same;
}

// ---- field values (inputs from vectors/README.md, not vector bytes) --------

constexpr std::array<std::uint8_t, 4> kGoldenPayload = {0x01, 0x02, 0x03, 0x04};
constexpr std::array<std::uint8_t, 20> kEthAccount = {0xde, 0xad, 0xbe, 0xef, 0x00, 0x11, 0x22,
                                                      0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99,
                                                      0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
constexpr std::array<std::uint8_t, 32> kEthBlockHash = {
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
    0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78, 0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0};
constexpr std::uint64_t kEthBlock = 0x10d4f;
constexpr std::uint64_t kEthBalance = 1'000'000'000'000'000'000ULL;
// ServerComputeZAP: 10^18 XOR (block ^ len(method) ^ len(account) ^ account[0]).
constexpr std::uint64_t kEthFoldedBalance = kEthBalance ^ (kEthBlock ^ 14 ^ 20 ^ 0xde);
static_assert(kEthFoldedBalance == 1'000'000'000'000'069'003ULL);

using EthReq = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::text, zap::Type::bytes>;
using EthResp = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::u64, zap::Type::bytes>;
// Go's TestSchema {Uint32 id, Text name, Int32 age, Bool active} (spec §9.5).
using GoTestSchema = zap::Schema<zap::Type::u32, zap::Type::text, zap::Type::i32, zap::Type::boolean>;

// ---- build sequences --------------------------------------------------------

// golden: explicit layout u32 @0, text @8, bytes @16, dataSize 24.
void build_golden(zap::Builder& b) {
  zap::ObjectBuilder o = b.start_object(24);
  o.set_u32(0, 0xDEADBEEF);
  o.set_text(8, "zap");
  o.set_bytes(16, kGoldenPayload);
  o.finish_as_root();
}

ByteVec golden(std::uint16_t version) {
  zap::Builder b(64, version);
  build_golden(b);
  return copy_of(b.finish());
}

void build_eth_req(zap::Builder& b) {
  zap::ObjectBuilder o = b.start_object(EthReq::size_bytes);
  o.set(EthReq::field<0>, std::uint64_t{1});
  o.set(EthReq::field<1>, kEthBlock);
  o.set(EthReq::field<2>, std::string_view("eth_getBalance"));
  o.set(EthReq::field<3>, zap::Bytes(kEthAccount));
  o.finish_as_root();
}

ByteVec eth_resp(std::uint64_t balance) {
  zap::Builder b(128);
  zap::ObjectBuilder o = b.start_object(EthResp::size_bytes);
  o.set(EthResp::field<0>, std::uint64_t{1});
  o.set(EthResp::field<1>, balance);
  o.set(EthResp::field<2>, std::uint64_t{42});
  o.set(EthResp::field<3>, zap::Bytes(kEthBlockHash));
  o.finish_as_root();
  return copy_of(b.finish());
}

// rpc/envelope.go BuildRequest: fixed size 28 (spec §12.1).
ByteVec rpc_request(std::uint32_t method, std::uint32_t promise, std::uint32_t target, zap::Bytes cap,
                    zap::Bytes payload) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(28);
  o.set_u32(0, method);
  o.set_u32(4, promise);
  o.set_u32(8, target);
  o.set_bytes(12, cap);
  o.set_bytes(20, payload);
  o.finish_as_root();
  return copy_of(b.finish_with_flags(kRpcFlags));
}

// rpc/envelope.go BuildResponse: fixed size 20, body at 12 (spec §12.2).
ByteVec rpc_response(std::uint32_t status, std::uint32_t promise, zap::Bytes body) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(20);
  o.set_u32(0, status);
  o.set_u32(4, promise);
  o.set_bytes(12, body);
  o.finish_as_root();
  return copy_of(b.finish_with_flags(kRpcFlags));
}

// A one-field sub-message for go_varlist_objects: root 16, u32 @0.
ByteVec u32_submessage(std::uint32_t v) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(4);
  o.set_u32(0, v);
  o.finish_as_root();
  return copy_of(b.finish());
}

// ---- section 1: golden ------------------------------------------------------

TEST(zap_builder, builds_golden_v1_with_version_1) { EXPECT_TRUE(matches_vector("golden_v1", golden(kV1))); }

TEST(zap_builder, builds_golden_v2_with_version_2) { EXPECT_TRUE(matches_vector("golden_v2", golden(kV2))); }

TEST(zap_builder, golden_v1_and_v2_differ_only_at_version_byte) {
  const ByteVec v1 = golden(kV1);
  ByteVec v2 = golden(kV2);
  ASSERT_EQ(v1.size(), v2.size());
  EXPECT_EQ(v2[4], 2);
  v2[4] = 1;
  EXPECT_TRUE(zaptest::same_bytes(v2, v1));
}

// ---- section 2: zap-proto/cpp KATs (NewBuilderV2) ---------------------------

TEST(zap_builder, builds_cpp_scalars) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_u8(0, 0x2a);
  o.set_u16(2, 0xbeef);
  o.set_u32(4, 0xdeadbeef);
  o.set_u64(8, 0x0102030405060708ULL);
  o.set_bool(16, true);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_scalars", b.finish()));
}

TEST(zap_builder, builds_cpp_one_tail) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(16);
  o.set_u32(0, 7);
  o.set_bytes(8, bytes_of("hello zap"));
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_one_tail", b.finish()));
}

TEST(zap_builder, builds_cpp_two_tails_in_call_order) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_bytes(0, bytes_of("first"));
  o.set_bytes(8, bytes_of("second"));
  o.set_u64(16, 99);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_two_tails", b.finish()));
}

TEST(zap_builder, builds_cpp_tail_then_list_with_deferred_tail) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_bytes(0, bytes_of("tail"));
  zap::ListBuilder l = b.start_list(4);
  l.add_u32(1);
  l.add_u32(2);
  l.add_u32(3);
  const zap::ListRef list = l.finish();
  EXPECT_EQ(list.start, 40u);
  EXPECT_EQ(list.length, 3u);
  o.set_list(8, list);
  o.set_u64(16, 5);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_tail_then_list", b.finish()));
}

TEST(zap_builder, builds_cpp_nested_with_backward_child) {
  zap::Builder b(256, kV2);
  zap::ObjectBuilder child = b.start_object(8);
  child.set_u64(0, 0xcafebabe);
  const std::uint32_t child_at = child.finish();
  EXPECT_EQ(child_at, 16u);
  zap::ObjectBuilder parent = b.start_object(16);
  EXPECT_EQ(parent.start(), 24u);
  parent.set_u32(0, 1);
  parent.set_object(4, child_at);
  EXPECT_EQ(parent.finish_as_root(), 24u);
  EXPECT_TRUE(matches_vector("cpp_nested", b.finish()));
}

TEST(zap_builder, builds_cpp_text_empty_list) {
  zap::Builder b(256, kV2);
  zap::ListBuilder l = b.start_list(1);
  l.add_u8(9);
  l.add_u8(8);
  l.add_u8(7);
  const zap::ListRef list = l.finish();
  zap::ObjectBuilder o = b.start_object(24);
  o.set_text(0, "zap");
  o.set_bytes(8, zap::Bytes{});
  o.set_list(16, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_text_empty_list", b.finish()));
}

TEST(zap_builder, builds_cpp_write_bytes_blob_before_root) {
  zap::Builder b(256, kV2);
  constexpr std::array<std::uint8_t, 3> blob = {0x01, 0x02, 0x03};
  const std::uint32_t blob_at = b.write_bytes(blob);
  EXPECT_EQ(blob_at, 16u);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_u32(0, blob_at);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("cpp_write_bytes", b.finish()));
}

// ---- section 4: the benchmark record ----------------------------------------

TEST(zap_builder, eth_schemas_have_struct_builder_layout) {
  static_assert(EthReq::field<0>.offset == 0 && EthReq::field<1>.offset == 8);
  static_assert(EthReq::field<2>.offset == 16 && EthReq::field<3>.offset == 24);
  static_assert(EthReq::size_bytes == 32);
  static_assert(EthResp::field<0>.offset == 0 && EthResp::field<1>.offset == 8);
  static_assert(EthResp::field<2>.offset == 16 && EthResp::field<3>.offset == 24);
  static_assert(EthResp::size_bytes == 32);
  EXPECT_EQ(EthReq::field<2>.offset, 16u);
  EXPECT_EQ(EthResp::size_bytes, 32u);
}

TEST(zap_builder, builds_eth_req_from_schema) {
  zap::Builder b(128);
  build_eth_req(b);
  const zap::Bytes out = b.finish();
  EXPECT_EQ(out.size(), 82u);
  EXPECT_TRUE(matches_vector("eth_req", out));
}

TEST(zap_builder, builds_eth_resp_from_schema) {
  const ByteVec out = eth_resp(kEthBalance);
  EXPECT_EQ(out.size(), 80u);
  EXPECT_TRUE(matches_vector("eth_resp", out));
}

TEST(zap_builder, builds_eth_resp_server_fold) {
  EXPECT_TRUE(matches_vector("eth_resp_server_fold", eth_resp(kEthFoldedBalance)));
}

TEST(zap_builder, eth_pair_totals_162_bytes_against_233_json_bytes) {
  zap::Builder b(128);
  build_eth_req(b);
  const std::size_t req = b.finish().size();
  const std::size_t resp = eth_resp(kEthBalance).size();
  EXPECT_EQ(req + resp, 162u);
  ByteVec req_json;
  ByteVec resp_json;
  ASSERT_TRUE(zaptest::load_raw("eth_req.json", req_json));
  ASSERT_TRUE(zaptest::load_raw("eth_resp.json", resp_json));
  EXPECT_EQ(req_json.size() + resp_json.size(), 233u);
}

// ---- section 5: zap-proto/go unit-test inputs (NewBuilder, v1) --------------

TEST(zap_builder, builds_go_TestBuilder_with_blob_before_root) {
  zap::Builder b(256);
  EXPECT_EQ(b.write_text("hello world"), 16u);
  zap::ObjectBuilder o = b.start_object(24);
  EXPECT_EQ(o.start(), 32u);
  o.set_u32(0, 42);
  o.set_u64(8, 0xDEADBEEF);
  o.set_bool(16, true);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestBuilder", b.finish()));
}

TEST(zap_builder, builds_go_TestPrimitives) {
  zap::Builder b(256);
  zap::ObjectBuilder o = b.start_object(64);
  o.set_i8(0, -42);
  o.set_i16(2, -1000);
  o.set_i32(4, -100000);
  o.set_i64(8, -1000000000);
  o.set_u8(16, 255);
  o.set_u16(18, 65535);
  o.set_u32(20, 0xFFFFFFFFu);
  o.set_u64(24, 0xFFFFFFFFFFFFFFFFULL);
  o.set_f32(32, 3.14f);
  o.set_f64(40, 2.718281828);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestPrimitives", b.finish()));
}

TEST(zap_builder, builds_go_TestList_u32_list_before_root) {
  zap::Builder b(256);
  zap::ListBuilder l = b.start_list(4);
  l.add_u32(100);
  l.add_u32(200);
  l.add_u32(300);
  const zap::ListRef list = l.finish();
  zap::ObjectBuilder o = b.start_object(16);
  o.set_u32(0, 999);
  o.set_list(4, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestList", b.finish()));
}

TEST(zap_builder, builds_go_TestByteList_counting_bytes) {
  zap::Builder b(256);
  zap::ListBuilder l = b.start_list(1);
  l.add_bytes(bytes_of("hello"));
  const zap::ListRef list = l.finish();
  EXPECT_EQ(list.length, 5u);  // AddBytes adds the byte count
  zap::ObjectBuilder o = b.start_object(16);
  o.set_list(0, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestByteList", b.finish()));
}

TEST(zap_builder, builds_go_TestNestedObject) {
  zap::Builder b(256);
  zap::ObjectBuilder inner = b.start_object(8);
  inner.set_u32(0, 111);
  inner.set_u32(4, 222);
  const std::uint32_t inner_at = inner.finish();
  zap::ObjectBuilder outer = b.start_object(16);
  outer.set_u32(0, 333);
  outer.set_object(4, inner_at);
  outer.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestNestedObject", b.finish()));
}

TEST(zap_builder, builds_go_TestTextRoundTrip_from_go_test_schema) {
  static_assert(GoTestSchema::field<1>.offset == 4 && GoTestSchema::size_bytes == 24);
  zap::Builder b(256);
  zap::ObjectBuilder o = b.start_object(GoTestSchema::size_bytes);
  o.set(GoTestSchema::field<0>, std::uint32_t{42});
  o.set(GoTestSchema::field<1>, std::string_view("Alice"));
  o.set(GoTestSchema::field<2>, std::int32_t{30});
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestTextRoundTrip", b.finish()));
}

TEST(zap_builder, builds_go_TestMultipleTextFields_packed_tails) {
  zap::Builder b(256);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_text(0, "hello");
  o.set_text(8, "world");
  o.set_text(16, "!");
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestMultipleTextFields", b.finish()));
}

TEST(zap_builder, builds_go_TestNestedObjectWithText) {
  zap::Builder b(256);
  zap::ObjectBuilder inner = b.start_object(16);
  inner.set_text(0, "inner-text");
  inner.set_u32(8, 999);
  const std::uint32_t inner_at = inner.finish();
  zap::ObjectBuilder outer = b.start_object(16);
  EXPECT_EQ(outer.start(), 48u);
  outer.set_text(0, "outer-text");
  outer.set_object(8, inner_at);
  outer.finish_as_root();
  EXPECT_TRUE(matches_vector("go_TestNestedObjectWithText", b.finish()));
}

TEST(zap_builder, builds_go_varlist_bytes_with_empty_entry) {
  zap::Builder b(256);
  zap::ListBuilder l = b.start_list(0);
  for (std::string_view s : {"self-hosted", "macos", "", "arm64", "a"}) l.add_object_bytes(bytes_of(s));
  const zap::ListRef list = l.finish();
  EXPECT_EQ(list.length, 5u);  // one per entry, the empty one included
  zap::ObjectBuilder o = b.start_object(8);
  o.set_list(0, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_varlist_bytes", b.finish()));
}

TEST(zap_builder, builds_go_varlist_objects_from_submessages) {
  zap::Builder b(256);
  zap::ListBuilder l = b.start_list(0);
  for (std::uint32_t v : {10u, 20u, 30u}) {
    const ByteVec sub = u32_submessage(v);
    ASSERT_EQ(sub.size(), 20u);
    l.add_object_bytes(sub);
  }
  const zap::ListRef list = l.finish();
  zap::ObjectBuilder o = b.start_object(8);
  EXPECT_EQ(o.start(), 88u);
  o.set_list(0, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_varlist_objects", b.finish()));
}

TEST(zap_builder, builds_go_list_u32_one) {
  zap::Builder b(256);
  zap::ListBuilder l = b.start_list(4);
  l.add_u32(42);
  const zap::ListRef list = l.finish();
  zap::ObjectBuilder o = b.start_object(8);
  o.set_list(0, list);
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("go_list_u32_one", b.finish()));
}

TEST(zap_builder, builds_go_nested_backward_ok) {
  zap::Builder b(256);
  zap::ObjectBuilder inner = b.start_object(8);
  inner.set_u32(0, 0xCAFEBABE);
  const std::uint32_t inner_at = inner.finish();
  zap::ObjectBuilder outer = b.start_object(8);
  outer.set_object(0, inner_at);
  outer.finish_as_root();
  EXPECT_TRUE(matches_vector("go_nested_backward_ok", b.finish()));
}

// ---- section 6: RPC envelopes (v2, flags 0xC800) ----------------------------

TEST(zap_builder, builds_rpc_request_roundtrip) {
  constexpr std::array<std::uint8_t, 5> payload = {0x01, 0x02, 0x03, 0x04, 0x05};
  EXPECT_TRUE(
      matches_vector("rpc_request_roundtrip", rpc_request(3, 42, 0, bytes_of("capability-bytes"), payload)));
}

TEST(zap_builder, builds_rpc_response_roundtrip) {
  EXPECT_TRUE(matches_vector("rpc_response_roundtrip", rpc_response(200, 42, bytes_of("result-body-bytes"))));
}

TEST(zap_builder, builds_rpc_request_wireshape_with_null_cap_and_payload) {
  EXPECT_TRUE(matches_vector("rpc_request_wireshape", rpc_request(7, 9, 0, {}, {})));
}

TEST(zap_builder, builds_rpc_response_forbidden_with_null_body) {
  EXPECT_TRUE(matches_vector("rpc_response_forbidden", rpc_response(403, 9, {})));
}

TEST(zap_builder, builds_rpc_request_pipelined) {
  EXPECT_TRUE(matches_vector("rpc_request_pipelined", rpc_request(2, 2, 1, {}, {})));
}

// ---- section 3: capability messages, rebuilt around their opaque fields -----
// The signature cannot be recomputed, so the fixed section's bytes are copied
// from the vector inline (SetBytesFixed); everything the codec itself decides
// (caveat list pointer, alignment pad, sub-message encoding, size) is rebuilt.

constexpr std::uint32_t kCapFixedBytes = 3572;
constexpr std::uint32_t kCapCaveatsAt = 156;

ByteVec rebuild_cap(const ByteVec& vec, const std::vector<ByteVec>& caveats) {
  zap::Builder b(4096);
  zap::ObjectBuilder o = b.start_object(kCapFixedBytes);
  // Everything but the caveat list slot comes from the vector verbatim.
  o.set_bytes_fixed(0, zap::Bytes(vec).subspan(16, kCapCaveatsAt));
  o.set_bytes_fixed(kCapCaveatsAt + 8,
                    zap::Bytes(vec).subspan(16 + kCapCaveatsAt + 8, kCapFixedBytes - kCapCaveatsAt - 8));
  zap::ListBuilder l = b.start_list(0);  // Go always starts the list, even empty
  for (const ByteVec& c : caveats) l.add_object_bytes(c);
  o.set_list(kCapCaveatsAt, l.finish());
  o.finish_as_root();
  return copy_of(b.finish());
}

ByteVec caveat(std::uint32_t kind, zap::Bytes value) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(12);  // zapgen layout: kind u32 @0, value bytes @4, unrounded
  o.set_u32(0, kind);
  o.set_bytes(4, value);
  o.finish_as_root();
  return copy_of(b.finish());
}

TEST(zap_builder, rebuilds_cap_zero_caveat_with_empty_list_alignment_pad) {
  ZAP_LOAD_HEX(vec, "cap_zero_caveat_wire");
  ASSERT_EQ(vec.size(), 3592u);
  const ByteVec out = rebuild_cap(vec, {});
  EXPECT_EQ(out.size(), 3592u);  // 16 + 3572 = 3588, padded to 8 by the empty StartList
  EXPECT_TRUE(zaptest::same_bytes(out, vec));
}

TEST(zap_builder, rebuilds_cap_two_caveat_list_of_submessages) {
  ZAP_LOAD_HEX(vec, "cap_two_caveat_wire");
  ASSERT_EQ(vec.size(), 3674u);
  constexpr std::array<std::uint8_t, 8> million = {0x40, 0x42, 0x0f, 0, 0, 0, 0, 0};  // u64 1000000 LE
  const ByteVec c1 = caveat(1, million);
  const ByteVec c2 = caveat(4, bytes_of("10.0.0.0/8"));
  EXPECT_EQ(c1.size(), 36u);
  EXPECT_EQ(c2.size(), 38u);
  EXPECT_TRUE(zaptest::same_bytes(rebuild_cap(vec, {c1, c2}), vec));
}

// ---- builder reuse ----------------------------------------------------------

TEST(zap_builder, reset_then_same_build_gives_identical_bytes) {
  zap::Builder b(64);
  build_golden(b);
  const ByteVec first = copy_of(b.finish());
  b.reset();
  EXPECT_EQ(b.position(), 16u);
  build_golden(b);
  const ByteVec second = copy_of(b.finish());
  EXPECT_TRUE(zaptest::same_bytes(second, first));
  EXPECT_TRUE(matches_vector("golden_v1", second));
}

TEST(zap_builder, reset_after_larger_message_leaks_no_stale_bytes) {
  zap::Builder b(64);
  build_eth_req(b);
  EXPECT_TRUE(matches_vector("eth_req", b.finish()));
  b.reset();
  build_golden(b);
  EXPECT_TRUE(matches_vector("golden_v1", b.finish()));
  b.reset();
  build_eth_req(b);
  EXPECT_TRUE(matches_vector("eth_req", b.finish()));
}

TEST(zap_builder, reset_keeps_version_and_flags_like_go) {
  // zap-wire.md §9.2 item 11, §17: Reset clears neither version nor flags.
  zap::Builder b(64, kV2);
  build_golden(b);
  (void)b.finish_with_flags(kRpcFlags);
  b.reset();
  build_golden(b);
  ByteVec out = copy_of(b.finish());
  ASSERT_EQ(out.size(), 47u);
  EXPECT_EQ(out[6], 0x00);
  EXPECT_EQ(out[7], 0xc8);
  out[6] = 0;
  out[7] = 0;
  EXPECT_TRUE(matches_vector("golden_v2", out));
}

TEST(zap_builder, set_version_rewrites_the_version_byte) {
  zap::Builder b(64, kV2);
  b.set_version(kV1);
  build_golden(b);
  EXPECT_TRUE(matches_vector("golden_v1", b.finish()));
}

TEST(zap_builder, capacity_never_changes_the_bytes) {
  for (std::size_t capacity : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16},
                               std::size_t{17}, std::size_t{47}, std::size_t{48}, std::size_t{4096}}) {
    SCOPED_TRACE(::testing::Message() << "capacity " << capacity);
    zap::Builder g(capacity);
    build_golden(g);
    EXPECT_TRUE(matches_vector("golden_v1", g.finish()));
    zap::Builder e(capacity);
    build_eth_req(e);
    EXPECT_TRUE(matches_vector("eth_req", e.finish()));
  }
}

// ---- caller-provided buffers ------------------------------------------------

TEST(zap_builder, caller_buffer_large_enough_builds_in_place_without_spilling) {
  std::array<std::uint8_t, 128> storage;
  storage.fill(0xEE);  // stale garbage must not reach the output (padding is zeroed)
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  build_golden(b);
  const zap::Bytes out = b.finish();
  EXPECT_FALSE(b.spilled());
  EXPECT_EQ(out.data(), storage.data());
  EXPECT_TRUE(matches_vector("golden_v1", out));
}

TEST(zap_builder, caller_buffer_zero_fills_padding_and_reserved_gaps) {
  std::array<std::uint8_t, 128> storage;
  storage.fill(0xEE);
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  EXPECT_EQ(b.write_text("hello world"), 16u);  // pad 27..31
  zap::ObjectBuilder o = b.start_object(24);    // reserved, partly unset
  o.set_u32(0, 42);
  o.set_u64(8, 0xDEADBEEF);
  o.set_bool(16, true);
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  EXPECT_FALSE(b.spilled());
  EXPECT_TRUE(matches_vector("go_TestBuilder", out));
}

TEST(zap_builder, caller_buffer_of_exact_message_size_does_not_spill) {
  std::array<std::uint8_t, 47> storage{};
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  build_golden(b);
  const zap::Bytes out = b.finish();
  EXPECT_FALSE(b.spilled());
  EXPECT_EQ(out.data(), storage.data());
  EXPECT_TRUE(matches_vector("golden_v1", out));
}

TEST(zap_builder, caller_buffer_too_small_spills_and_still_builds_correct_bytes) {
  std::array<std::uint8_t, 32> storage;
  storage.fill(0xEE);
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  build_golden(b);
  const zap::Bytes out = b.finish();
  EXPECT_TRUE(b.spilled());
  EXPECT_NE(out.data(), storage.data());
  EXPECT_TRUE(matches_vector("golden_v1", out));
}

TEST(zap_builder, caller_buffer_smaller_than_header_reports_spilled) {
  // builder.hpp: "If a message outgrows [the caller's buffer], the builder moves
  // to a heap buffer of its own and spilled() turns true". An 8-byte buffer
  // cannot even hold the header, so the output is never in place.
  std::array<std::uint8_t, 8> storage{};
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  build_golden(b);
  const zap::Bytes out = b.finish();
  EXPECT_NE(out.data(), storage.data());
  EXPECT_TRUE(matches_vector("golden_v1", out));
  EXPECT_TRUE(b.spilled()) << "BUG in zap/builder.hpp Builder(std::span) ctor: a caller buffer shorter than "
                              "16 bytes is replaced by an owned 256-byte buffer without setting spilled_, so "
                              "spilled() is false although the message is not in the caller's buffer";
}

TEST(zap_builder, caller_buffer_reuse_after_spill_keeps_correct_bytes) {
  std::array<std::uint8_t, 32> storage{};
  zap::Builder b(std::span<std::uint8_t>(storage), kV1);
  build_eth_req(b);
  EXPECT_TRUE(matches_vector("eth_req", b.finish()));
  b.reset();
  build_golden(b);
  EXPECT_TRUE(matches_vector("golden_v1", b.finish()));
  EXPECT_TRUE(b.spilled());
}

// ---- value copying and finish rules -----------------------------------------

TEST(zap_builder, set_bytes_and_set_text_copy_the_value) {
  ByteVec payload(kGoldenPayload.begin(), kGoldenPayload.end());
  std::string text = "zap";
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_u32(0, 0xDEADBEEF);
  o.set_text(8, text);
  o.set_bytes(16, payload);
  // Mutate (and then release) the sources after the setters, before finish.
  std::fill(payload.begin(), payload.end(), std::uint8_t{0x99});
  text.assign("XYZ");
  payload.clear();
  payload.shrink_to_fit();
  text.clear();
  text.shrink_to_fit();
  o.finish_as_root();
  EXPECT_TRUE(matches_vector("golden_v1", b.finish()));
}

TEST(zap_builder, second_object_finish_appends_nothing) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(24);
  o.set_u32(0, 0xDEADBEEF);
  o.set_text(8, "zap");
  o.set_bytes(16, kGoldenPayload);
  EXPECT_EQ(o.finish_as_root(), 16u);
  const std::size_t after_first = b.position();
  EXPECT_EQ(after_first, 47u);
  EXPECT_EQ(o.finish(), 16u);
  EXPECT_EQ(b.position(), after_first);
  EXPECT_EQ(o.finish_as_root(), 16u);
  EXPECT_EQ(b.position(), after_first);
  EXPECT_TRUE(matches_vector("golden_v1", b.finish()));
}

TEST(zap_builder, tail_order_is_setter_call_order_not_field_order) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(16);
  o.set_bytes(8, bytes_of("BB"));
  o.set_text(0, "AAA");
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 16u + 16u + 2u + 3u);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()) + 32, 5), "BBAAA");
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.root().text(0), "AAA");
  EXPECT_EQ(p.message.root().text(8), "BB");
}

TEST(zap_builder, child_started_inside_parent_gets_positive_pointer_and_own_tails_first) {
  // §6, §9.4: a child started after the parent's StartObject lands after the
  // parent's fixed section (positive pointer). Each object's tails are written
  // at its own finish, in its own call order, even when the calls interleave.
  zap::Builder b(64);
  zap::ObjectBuilder parent = b.start_object(24);  // 16..39: text @0, text @8, object @16
  parent.set_text(0, "P1");
  zap::ObjectBuilder child = b.start_object(16);  // 40..55
  child.set_text(0, "C");
  parent.set_text(8, "P2");
  child.set_u8(8, 0x77);
  EXPECT_EQ(child.finish(), 40u);           // "C" at 56
  parent.set_object(16, 40);                // slot at abs 32: rel +8
  EXPECT_EQ(parent.finish_as_root(), 16u);  // "P1" at 57, "P2" at 59
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 61u);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()) + 56, 5), "CP1P2");
  EXPECT_EQ(out[16], 41);  // P1: 57 - 16
  EXPECT_EQ(out[24], 35);  // P2: 59 - 24
  EXPECT_EQ(out[32], 8);   // child: 40 - 32
  EXPECT_EQ(out[40], 16);  // C: 56 - 40
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  const zap::Object root = p.message.root();
  EXPECT_EQ(root.text(0), "P1");
  EXPECT_EQ(root.text(8), "P2");
  const zap::Object c = root.object(16);
  ASSERT_FALSE(c.is_null());
  EXPECT_EQ(c.offset(), 40u);
  EXPECT_EQ(c.text(0), "C");
  EXPECT_EQ(c.u8(8), 0x77);
}

// Text value i of the many-tails tests: i + 1 bytes of 'a' + i % 26.
std::string tail_value(std::uint32_t i) { return std::string(i + 1, static_cast<char>('a' + i % 26)); }

TEST(zap_builder, many_and_large_tails_keep_call_order_across_scratch_growth) {
  // 40 text fields (sum 820 bytes) plus one 1000-byte field: more pending tails
  // and more tail bytes than any small initial scratch holds.
  constexpr std::uint32_t kFields = 40;
  const ByteVec big(1000, 0xB5);
  zap::Builder b(64);
  for (int round = 0; round < 2; ++round) {  // the second round reuses the grown scratch
    b.reset();
    zap::ObjectBuilder o = b.start_object(kFields * 8 + 8);
    for (std::uint32_t i = 0; i < kFields; ++i) o.set_text(i * 8, tail_value(i));
    o.set_bytes(kFields * 8, big);
    o.finish_as_root();
    const zap::Bytes out = b.finish();
    std::size_t expect_size = 16 + kFields * 8 + 8 + big.size();
    for (std::uint32_t i = 0; i < kFields; ++i) expect_size += i + 1;
    ASSERT_EQ(out.size(), expect_size) << "round " << round;
    const zap::Message::Parsed p = zap::Message::parse(out);
    ASSERT_TRUE(p.ok());
    std::size_t at = 16 + kFields * 8 + 8;  // tails are packed in call order
    for (std::uint32_t i = 0; i < kFields; ++i) {
      const std::string_view t = p.message.root().text(i * 8);
      EXPECT_EQ(t, tail_value(i)) << "field " << i << ", round " << round;
      EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(t.data()), out.data() + at) << "field " << i;
      at += i + 1;
    }
    EXPECT_TRUE(zaptest::same_bytes(p.message.root().bytes(kFields * 8), big));
  }
}

TEST(zap_builder, interleaved_objects_keep_their_own_tail_chains_across_growth) {
  // Parent and child both record tails while the shared scratch grows; each
  // object's finish must write exactly its own tails, in its own call order.
  constexpr std::uint32_t kEach = 12;
  zap::Builder b(64);
  zap::ObjectBuilder parent = b.start_object(kEach * 8 + 8);
  zap::ObjectBuilder child = b.start_object(kEach * 8);
  for (std::uint32_t i = 0; i < kEach; ++i) {
    parent.set_text(i * 8, tail_value(i));
    child.set_text(i * 8, tail_value(kEach + i));
  }
  const std::uint32_t child_at = child.finish();
  parent.set_object(kEach * 8, child_at);
  parent.finish_as_root();
  const zap::Bytes out = b.finish();
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  const zap::Object root = p.message.root();
  const zap::Object kid = root.object(kEach * 8);
  ASSERT_FALSE(kid.is_null());
  EXPECT_EQ(kid.offset(), 16 + kEach * 8 + 8);
  // The child's tails follow its fixed section; the parent's follow the child's.
  std::size_t at = kid.offset() + kEach * 8;
  for (std::uint32_t i = 0; i < kEach; ++i) {
    EXPECT_EQ(kid.text(i * 8), tail_value(kEach + i)) << "child field " << i;
    EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(kid.text(i * 8).data()), out.data() + at);
    at += kEach + i + 1;
  }
  for (std::uint32_t i = 0; i < kEach; ++i) {
    EXPECT_EQ(root.text(i * 8), tail_value(i)) << "parent field " << i;
    EXPECT_EQ(reinterpret_cast<const std::uint8_t*>(root.text(i * 8).data()), out.data() + at);
    at += i + 1;
  }
  EXPECT_EQ(at, out.size());
}

TEST(zap_builder, setting_a_bytes_field_twice_writes_both_tails_like_go) {
  // §17: both tails are written; the slot keeps the second's rel and len.
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_bytes(0, bytes_of("one"));
  o.set_bytes(0, bytes_of("two!"));
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 24u + 3u + 4u);
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()) + 24, 7), "onetwo!");
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.root().text(0), "two!");
}

TEST(zap_builder, setting_empty_after_non_empty_leaves_go_rel_with_len_0) {
  // §17: the pending tail is still written and its rel patched back in, len 0,
  // so the field reads back as non-null empty.
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_bytes(0, bytes_of("gone"));
  o.set_bytes(0, zap::Bytes{});
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 28u);
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  const zap::Bytes v = p.message.root().bytes(0);
  EXPECT_NE(v.data(), nullptr);
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(p.message.bytes()[16], 8);  // rel 8 -> abs 24
}

TEST(zap_builder, empty_text_bytes_and_list_encode_as_null_slots) {
  zap::Builder b(64);
  zap::ListBuilder l = b.start_list(4);
  const zap::ListRef empty = l.finish();
  zap::ObjectBuilder o = b.start_object(32);
  o.set_u32(0, 1);  // keep the object non-trivial
  o.set_text(4, "");
  o.set_bytes(12, zap::Bytes{});
  o.set_list(20, empty);
  o.set_object(28, 0);
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 48u);
  for (std::size_t i = 16 + 4; i < out.size(); ++i) EXPECT_EQ(out[i], 0) << "byte " << i;
}

TEST(zap_builder, set_list_with_zero_start_writes_null_even_with_length) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_list(0, zap::ListRef{0, 3});
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 24u);
  for (std::size_t i = 16; i < 24; ++i) EXPECT_EQ(out[i], 0) << "byte " << i;
}

TEST(zap_builder, write_bytes_of_nothing_returns_zero_without_aligning) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(4);
  o.finish_as_root();
  EXPECT_EQ(b.position(), 20u);
  EXPECT_EQ(b.write_bytes(zap::Bytes{}), 0u);
  EXPECT_EQ(b.position(), 20u);
  EXPECT_EQ(b.finish().size(), 20u);  // no trailing padding either
}

TEST(zap_builder, start_list_aligns_even_when_left_empty) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(4);
  zap::ListBuilder l = b.start_list(0);
  EXPECT_EQ(l.finish_offset(), 24u);
  o.set_list(0, l.finish());
  o.finish_as_root();
  EXPECT_EQ(b.finish().size(), 24u);
}

TEST(zap_builder, setter_beyond_data_size_extends_the_object) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_u32(12, 0xAABBCCDD);  // ensureField(16): zero-fills 24..27, writes 28..31
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 32u);
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.root().u32(12), 0xAABBCCDDu);
  EXPECT_EQ(p.message.root().u32(8), 0u);
}

TEST(zap_builder, set_bytes_fixed_writes_inline_and_empty_is_a_noop) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_bytes_fixed(2, kGoldenPayload);
  o.set_bytes_fixed(6, zap::Bytes{});
  o.set_bytes_fixed(40, zap::Bytes{});  // beyond the object: must not move the cursor
  EXPECT_EQ(b.position(), 24u);
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 24u);
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  const zap::Bytes inline_bytes = p.message.root().bytes_fixed(2, 4);
  ASSERT_EQ(inline_bytes.size(), 4u);
  EXPECT_TRUE(zaptest::same_bytes(inline_bytes, kGoldenPayload));
  EXPECT_EQ(p.message.root().u16(6), 0u);
}

TEST(zap_builder, inline_struct_list_counts_bytes_and_takes_caller_count) {
  // §7.2: pre-encoded records via AddBytes; the caller passes the element count.
  zap::Builder b(128);
  zap::ListBuilder l = b.start_list(8);
  for (std::uint32_t i = 0; i < 3; ++i) {
    std::array<std::uint8_t, 8> rec{};
    rec[0] = static_cast<std::uint8_t>(i + 1);
    rec[4] = static_cast<std::uint8_t>(0x10 * (i + 1));
    l.add_bytes(rec);
  }
  const zap::ListRef raw = l.finish();
  EXPECT_EQ(raw.length, 24u);  // bytes, not records
  zap::ObjectBuilder o = b.start_object(8);
  o.set_list(0, zap::ListRef{raw.start, 3});
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  const zap::List list = p.message.root().list(0);
  ASSERT_FALSE(list.is_null());
  EXPECT_EQ(list.len(), 3u);
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(list.object(i, 8).u32(0), i + 1);
    EXPECT_EQ(list.object(i, 8).u32(4), 0x10 * (i + 1));
  }
  EXPECT_TRUE(list.object(3, 8).is_null());
}

TEST(zap_builder, finish_without_root_writes_root_zero) {
  zap::Builder b(64);
  zap::ObjectBuilder o = b.start_object(8);
  o.set_u32(0, 5);
  o.finish();
  const zap::Bytes out = b.finish();
  ASSERT_EQ(out.size(), 24u);
  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.root_offset(), 0u);
  EXPECT_TRUE(p.message.root().is_null());
}

}  // namespace
