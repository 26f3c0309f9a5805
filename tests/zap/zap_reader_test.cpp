// tests/zap/zap_reader_test.cpp — decoder conformance for zap::Message/Object/List:
// every vector parses (or is rejected) exactly as the hardened Go reader does and
// reads back its documented values (sections 1-6 of the vectors' README); the
// adversarial and edge cases of zap-wire.md §10 are zap_reader_edges_test's.
#include <array>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "zap/zap.hpp"
#include "zap_reader_checks.hpp"

namespace {

using zaptest::ByteVec;
using zaptest::expect_golden_fields;
using zaptest::parses;
using zaptest::put_u32;
using zaptest::sv;

// Every vector that Parse must accept (all but reject_parse_*).
constexpr std::array<std::string_view, 42> kParseOk = {
    "accept_list_length_equals_size",
    "accept_size_truncates_bytes_field",
    "accept_trailing_bytes_ignored",
    "cap_two_caveat_wire",
    "cap_zero_caveat_wire",
    "cpp_nested",
    "cpp_one_tail",
    "cpp_scalars",
    "cpp_tail_then_list",
    "cpp_text_empty_list",
    "cpp_two_tails",
    "cpp_write_bytes",
    "eth_req",
    "eth_resp",
    "eth_resp_server_fold",
    "go_TestBuilder",
    "go_TestByteList",
    "go_TestList",
    "go_TestMultipleTextFields",
    "go_TestNestedObject",
    "go_TestNestedObjectWithText",
    "go_TestPrimitives",
    "go_TestTextRoundTrip",
    "go_list_u32_one",
    "go_nested_backward_ok",
    "go_varlist_bytes",
    "go_varlist_objects",
    "golden_v1",
    "golden_v2",
    "null_text_rel0_len3",
    "reject_bytes_backward_into_header",
    "reject_bytes_highbit_reloffset",
    "reject_bytes_length_overrun",
    "reject_list_backward_into_header",
    "reject_list_length_ffffffff",
    "reject_object_at_size",
    "reject_object_backward_into_header",
    "rpc_request_pipelined",
    "rpc_request_roundtrip",
    "rpc_request_wireshape",
    "rpc_response_forbidden",
    "rpc_response_roundtrip",
};

struct ParseReject {
  std::string_view name;
  zap::Error error;
  std::string_view text;
};

constexpr std::array<ParseReject, 5> kParseReject = {{
    {"reject_parse_bad_magic", zap::Error::invalid_magic, "zap: invalid magic bytes"},
    {"reject_parse_version3", zap::Error::invalid_version, "zap: unsupported version"},
    {"reject_parse_size_below_header", zap::Error::buffer_too_small, "zap: buffer too small"},
    {"reject_parse_size_exceeds_input", zap::Error::buffer_too_small, "zap: buffer too small"},
    {"reject_parse_short_15", zap::Error::buffer_too_small, "zap: buffer too small"},
}};

// ---- parse outcomes ---------------------------------------------------------

TEST(zap_reader, every_vector_file_is_covered_by_these_tests) {
  std::set<std::string> known(kParseOk.begin(), kParseOk.end());
  for (const ParseReject& r : kParseReject) known.emplace(r.name);
  const std::filesystem::path dir = zaptest::vectors_dir();
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << "vectors directory " << dir << " is missing";
  std::size_t seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".hex") continue;
    ++seen;
    EXPECT_TRUE(known.count(entry.path().stem().string()) == 1)
        << "vector " << entry.path() << " has no expected parse outcome in zap_reader_test.cpp";
  }
  EXPECT_EQ(seen, known.size());
}

TEST(zap_reader, every_non_reject_parse_vector_parses) {
  for (std::string_view name : kParseOk) {
    SCOPED_TRACE(name);
    const ByteVec vec = zaptest::hex_vector(name);
    if (vec.empty()) continue;  // hex_vector already failed the test
    const zap::Message::Parsed p = zap::Message::parse(vec);
    EXPECT_TRUE(p.ok()) << name << ": " << zap::describe(p.error);
    EXPECT_EQ(p.error, zap::Error::ok);
  }
}

TEST(zap_reader, every_reject_parse_vector_fails_with_documented_error) {
  for (const ParseReject& r : kParseReject) {
    SCOPED_TRACE(r.name);
    const ByteVec vec = zaptest::hex_vector(r.name);
    if (vec.empty()) continue;
    const zap::Message::Parsed p = zap::Message::parse(vec);
    EXPECT_FALSE(p.ok());
    EXPECT_EQ(p.error, r.error);
    EXPECT_EQ(zap::describe(p.error), r.text);
  }
}

TEST(zap_reader, rejects_bad_magic) {
  ZAP_LOAD_HEX(vec, "reject_parse_bad_magic");
  EXPECT_EQ(zap::Message::parse(vec).error, zap::Error::invalid_magic);
}

TEST(zap_reader, rejects_version_3) {
  ZAP_LOAD_HEX(vec, "reject_parse_version3");
  EXPECT_EQ(zap::Message::parse(vec).error, zap::Error::invalid_version);
}

TEST(zap_reader, rejects_size_below_header) {
  ZAP_LOAD_HEX(vec, "reject_parse_size_below_header");
  EXPECT_EQ(zap::Message::parse(vec).error, zap::Error::buffer_too_small);
}

TEST(zap_reader, rejects_size_exceeding_input) {
  ZAP_LOAD_HEX(vec, "reject_parse_size_exceeds_input");
  ASSERT_EQ(vec.size(), 47u);
  EXPECT_EQ(zap::Message::parse(vec).error, zap::Error::buffer_too_small);
}

TEST(zap_reader, rejects_15_byte_input) {
  ZAP_LOAD_HEX(vec, "reject_parse_short_15");
  ASSERT_EQ(vec.size(), 15u);
  EXPECT_EQ(zap::Message::parse(vec).error, zap::Error::buffer_too_small);
}

TEST(zap_reader, describe_gives_go_error_texts) {
  EXPECT_EQ(zap::describe(zap::Error::buffer_too_small), "zap: buffer too small");
  EXPECT_EQ(zap::describe(zap::Error::invalid_magic), "zap: invalid magic bytes");
  EXPECT_EQ(zap::describe(zap::Error::invalid_version), "zap: unsupported version");
}

TEST(zap_reader, every_prefix_of_golden_is_buffer_too_small) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  ASSERT_EQ(vec.size(), 47u);
  for (std::size_t n = 0; n < vec.size(); ++n) {
    const zap::Message::Parsed p = zap::Message::parse(zap::Bytes(vec).first(n));
    EXPECT_EQ(p.error, zap::Error::buffer_too_small) << "prefix length " << n;
  }
  EXPECT_TRUE(zap::Message::parse(vec).ok());
}

TEST(zap_reader, parse_check_order_is_length_magic_version_size) {
  ZAP_LOAD_HEX(golden, "golden_v1");
  // Bad magic and bad version and bad size: magic wins.
  ByteVec v = golden;
  v[0] = 0x58;
  v[4] = 3;
  put_u32(v, 12, 5);
  EXPECT_EQ(zap::Message::parse(v).error, zap::Error::invalid_magic);
  // Bad version and bad size: version wins.
  v[0] = 0x5a;
  EXPECT_EQ(zap::Message::parse(v).error, zap::Error::invalid_version);
  // Short input with a bad magic: length wins.
  EXPECT_EQ(zap::Message::parse(zap::Bytes(v).first(15)).error, zap::Error::buffer_too_small);
  // Version 0 is rejected as well; versions 1 and 2 are accepted.
  v = golden;
  v[4] = 0;
  EXPECT_EQ(zap::Message::parse(v).error, zap::Error::invalid_version);
  v[4] = 2;
  EXPECT_TRUE(zap::Message::parse(v).ok());
  // Size exactly 16 is accepted (an empty data segment).
  v = golden;
  put_u32(v, 12, 16);
  const zap::Message::Parsed p = zap::Message::parse(v);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.size(), 16u);
  EXPECT_EQ(p.message.root().u32(0), 0u);
  // Size 0 is rejected (old readers accepted it and then panicked).
  put_u32(v, 12, 0);
  EXPECT_EQ(zap::Message::parse(v).error, zap::Error::buffer_too_small);
}

TEST(zap_reader, parse_ignores_flags_and_root) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  vec[6] = 0xff;
  vec[7] = 0xff;
  put_u32(vec, 8, 0xFFFFFFFFu);
  EXPECT_TRUE(zap::Message::parse(vec).ok());
}

// ---- section 1: golden ------------------------------------------------------

TEST(zap_reader, reads_golden_v1_fields) {
  ZAP_PARSE_VECTOR(vec, msg, "golden_v1");
  expect_golden_fields(vec, msg, 1);
}

TEST(zap_reader, reads_golden_v2_fields_like_v1) {
  ZAP_PARSE_VECTOR(vec, msg, "golden_v2");
  expect_golden_fields(vec, msg, 2);
}

TEST(zap_reader, reads_fields_from_a_misaligned_buffer) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  for (std::size_t shift = 1; shift < 8; ++shift) {
    ByteVec storage(shift, 0);
    storage.insert(storage.end(), vec.begin(), vec.end());
    const zap::Message::Parsed p = zap::Message::parse(zap::Bytes(storage).subspan(shift));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.message.root().u32(0), 0xDEADBEEFu) << "shift " << shift;
    EXPECT_EQ(p.message.root().text(8), "zap") << "shift " << shift;
  }
}

// ---- section 2: zap-proto/cpp KATs ------------------------------------------

TEST(zap_reader, reads_cpp_scalars) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_scalars");
  EXPECT_EQ(msg.version(), 2u);
  const zap::Object o = msg.root();
  EXPECT_EQ(o.u8(0), 0x2a);
  EXPECT_EQ(o.u16(2), 0xbeef);
  EXPECT_EQ(o.u32(4), 0xdeadbeefu);
  EXPECT_EQ(o.u64(8), 0x0102030405060708ULL);
  EXPECT_TRUE(o.boolean(16));
  EXPECT_FALSE(o.boolean(17));
}

TEST(zap_reader, reads_cpp_one_tail) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_one_tail");
  EXPECT_EQ(msg.root().u32(0), 7u);
  EXPECT_EQ(sv(msg.root().bytes(8)), "hello zap");
}

TEST(zap_reader, reads_cpp_two_tails) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_two_tails");
  EXPECT_EQ(sv(msg.root().bytes(0)), "first");
  EXPECT_EQ(sv(msg.root().bytes(8)), "second");
  EXPECT_EQ(msg.root().u64(16), 99u);
}

TEST(zap_reader, reads_cpp_tail_then_list) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_tail_then_list");
  const zap::Object o = msg.root();
  EXPECT_EQ(sv(o.bytes(0)), "tail");
  EXPECT_EQ(o.bytes(0).data(), vec.data() + 52);
  const zap::List l = o.list(8);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.offset(), 40u);
  EXPECT_EQ(l.len(), 3u);
  EXPECT_EQ(l.u32(0), 1u);
  EXPECT_EQ(l.u32(1), 2u);
  EXPECT_EQ(l.u32(2), 3u);
  EXPECT_EQ(o.u64(16), 5u);
}

TEST(zap_reader, reads_cpp_nested_backward_child) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_nested");
  EXPECT_EQ(msg.root_offset(), 24u);
  EXPECT_EQ(msg.root().u32(0), 1u);
  const zap::Object child = msg.root().object(4);
  ASSERT_FALSE(child.is_null());
  EXPECT_EQ(child.offset(), 16u);
  EXPECT_EQ(child.u64(0), 0xcafebabeu);
}

TEST(zap_reader, reads_cpp_text_empty_list) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_text_empty_list");
  const zap::Object o = msg.root();
  EXPECT_EQ(o.text(0), "zap");
  EXPECT_EQ(o.bytes(8).data(), nullptr);  // empty was written as null
  const zap::List l = o.list(16);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.len(), 3u);
  EXPECT_EQ(l.u8(0), 9);
  EXPECT_EQ(l.u8(1), 8);
  EXPECT_EQ(l.u8(2), 7);
  EXPECT_EQ(l.u8(3), 0);
  const zap::Bytes run = l.bytes();
  ASSERT_EQ(run.size(), 3u);
  EXPECT_EQ(run[0], 9);
  EXPECT_EQ(run[2], 7);
}

TEST(zap_reader, reads_cpp_write_bytes_blob_offset) {
  ZAP_PARSE_VECTOR(vec, msg, "cpp_write_bytes");
  EXPECT_EQ(msg.root_offset(), 24u);
  const std::uint32_t blob_at = msg.root().u32(0);
  EXPECT_EQ(blob_at, 16u);
  const zap::Bytes all = msg.bytes();
  EXPECT_EQ(all[blob_at], 1);
  EXPECT_EQ(all[blob_at + 1], 2);
  EXPECT_EQ(all[blob_at + 2], 3);
}

// ---- section 3: capability messages (structural) ----------------------------

constexpr std::uint32_t kCapFixedBytes = 3572;

void expect_cap_common(const zap::Message& msg, std::uint32_t kind) {
  EXPECT_EQ(msg.version(), 1u);
  EXPECT_EQ(msg.root_offset(), 16u);
  const zap::Object o = msg.root();
  EXPECT_EQ(o.u32(0), kind);
  for (std::uint32_t id_at : {4u, 36u, 68u, 108u}) {  // three ids and parent, 32 bytes inline each
    EXPECT_EQ(o.bytes_fixed(id_at, 32).size(), 32u) << "@" << id_at;
  }
  EXPECT_EQ(o.u64(140), 1700000000u);  // issuedAt
  EXPECT_EQ(o.u64(148), 2000000000u);  // expiresAt
  const zap::Bytes sig = o.bytes_fixed(164, 3408);
  ASSERT_EQ(sig.size(), 3408u);
  EXPECT_EQ(sig.data() + sig.size(), msg.bytes().data() + 16 + kCapFixedBytes);  // ends the fixed section
  // The empty-or-not caveat list always starts after a 4-byte alignment pad.
  for (std::size_t i = 16 + kCapFixedBytes; i < 3592; ++i) EXPECT_EQ(msg.bytes()[i], 0) << "pad byte " << i;
}

TEST(zap_reader, reads_cap_zero_caveat_structure) {
  ZAP_PARSE_VECTOR(vec, msg, "cap_zero_caveat_wire");
  EXPECT_EQ(msg.size(), 3592u);
  expect_cap_common(msg, 1);
  const zap::List caveats = msg.root().list(156);
  EXPECT_TRUE(caveats.is_null());
  EXPECT_EQ(caveats.len(), 0u);
}

TEST(zap_reader, reads_cap_two_caveat_structure) {
  ZAP_PARSE_VECTOR(vec, msg, "cap_two_caveat_wire");
  EXPECT_EQ(msg.size(), 3674u);
  expect_cap_common(msg, 0x11);
  const zap::List caveats = msg.root().list(156);
  ASSERT_FALSE(caveats.is_null());
  EXPECT_EQ(caveats.offset(), 3592u);  // rel 3420 from the slot at abs 172
  EXPECT_EQ(caveats.len(), 2u);
  EXPECT_EQ(caveats.bytes_at(0).size(), 36u);
  EXPECT_EQ(caveats.bytes_at(1).size(), 38u);
  const zap::Object c0 = caveats.object_at(0);
  ASSERT_FALSE(c0.is_null());
  EXPECT_EQ(c0.u32(0), 1u);
  const zap::Bytes v0 = c0.bytes(4);
  ASSERT_EQ(v0.size(), 8u);
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < 8; ++i) value |= std::uint64_t{v0[i]} << (8 * i);
  EXPECT_EQ(value, 1000000u);
  const zap::Object c1 = caveats.object_at(1);
  ASSERT_FALSE(c1.is_null());
  EXPECT_EQ(c1.u32(0), 4u);
  EXPECT_EQ(c1.text(4), "10.0.0.0/8");
  std::vector<std::uint32_t> kinds;
  caveats.each([&](zap::Object c) {
    kinds.push_back(c.u32(0));
    return true;
  });
  EXPECT_EQ(kinds, (std::vector<std::uint32_t>{1, 4}));
  EXPECT_TRUE(caveats.object_at(2).is_null());
}

// ---- section 4: the benchmark record ----------------------------------------

using EthReq = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::text, zap::Type::bytes>;
using EthResp = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::u64, zap::Type::bytes>;

TEST(zap_reader, reads_eth_req_through_schema) {
  ZAP_PARSE_VECTOR(vec, msg, "eth_req");
  EXPECT_EQ(msg.size(), 82u);
  const zap::Object o = msg.root();
  EXPECT_EQ(o.get(EthReq::field<0>), 1u);
  EXPECT_EQ(o.get(EthReq::field<1>), 0x10d4fu);
  EXPECT_EQ(o.get(EthReq::field<2>), "eth_getBalance");
  const zap::Bytes account = o.get(EthReq::field<3>);
  ASSERT_EQ(account.size(), 20u);
  EXPECT_EQ(account.data(), vec.data() + 62);
  EXPECT_EQ(account[0], 0xde);
  EXPECT_EQ(account[3], 0xef);
  EXPECT_EQ(account[19], 0xff);
}

void expect_eth_resp(const ByteVec& vec, const zap::Message& msg, std::uint64_t balance) {
  EXPECT_EQ(msg.size(), 80u);
  const zap::Object o = msg.root();
  EXPECT_EQ(o.get(EthResp::field<0>), 1u);
  EXPECT_EQ(o.get(EthResp::field<1>), balance);
  EXPECT_EQ(o.get(EthResp::field<2>), 42u);
  const zap::Bytes hash = o.get(EthResp::field<3>);
  ASSERT_EQ(hash.size(), 32u);
  EXPECT_EQ(hash.data(), vec.data() + 48);
  EXPECT_EQ(hash[0], 0x01);
  EXPECT_EQ(hash[31], 0xf0);
}

TEST(zap_reader, reads_eth_resp_through_schema) {
  ZAP_PARSE_VECTOR(vec, msg, "eth_resp");
  expect_eth_resp(vec, msg, 1'000'000'000'000'000'000ULL);
}

TEST(zap_reader, reads_eth_resp_server_fold_balance) {
  ZAP_PARSE_VECTOR(vec, msg, "eth_resp_server_fold");
  expect_eth_resp(vec, msg, 1'000'000'000'000'069'003ULL);
}

// ---- section 5: zap-proto/go unit-test inputs -------------------------------

TEST(zap_reader, reads_go_TestBuilder_root_after_blob) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestBuilder");
  EXPECT_EQ(msg.root_offset(), 32u);
  const zap::Object o = msg.root();
  EXPECT_EQ(o.u32(0), 42u);
  EXPECT_EQ(o.u64(8), 0xDEADBEEFu);
  EXPECT_TRUE(o.boolean(16));
  EXPECT_EQ(sv(msg.bytes().subspan(16, 11)), "hello world");
}

TEST(zap_reader, reads_go_TestPrimitives) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestPrimitives");
  const zap::Object o = msg.root();
  EXPECT_EQ(o.i8(0), -42);
  EXPECT_EQ(o.i16(2), -1000);
  EXPECT_EQ(o.i32(4), -100000);
  EXPECT_EQ(o.i64(8), -1000000000);
  EXPECT_EQ(o.u8(16), 255);
  EXPECT_EQ(o.u16(18), 65535);
  EXPECT_EQ(o.u32(20), 0xFFFFFFFFu);
  EXPECT_EQ(o.u64(24), 0xFFFFFFFFFFFFFFFFULL);
  EXPECT_EQ(o.f32(32), 3.14f);
  EXPECT_EQ(o.u32(32), 0x4048f5c3u);
  EXPECT_EQ(o.f64(40), 2.718281828);
}

TEST(zap_reader, reads_go_TestList_backward_u32_list) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestList");
  EXPECT_EQ(msg.root().u32(0), 999u);
  const zap::List l = msg.root().list(4);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.offset(), 16u);
  EXPECT_EQ(l.len(), 3u);
  EXPECT_EQ(l.u32(0), 100u);
  EXPECT_EQ(l.u32(1), 200u);
  EXPECT_EQ(l.u32(2), 300u);
}

TEST(zap_reader, reads_go_TestByteList_as_byte_run) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestByteList");
  const zap::List l = msg.root().list(0);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.len(), 5u);
  EXPECT_EQ(sv(l.bytes()), "hello");
  EXPECT_EQ(l.bytes().data(), vec.data() + 16);
  EXPECT_EQ(l.u8(0), 'h');
  EXPECT_EQ(l.u8(4), 'o');
  EXPECT_EQ(l.u8(5), 0);
}

TEST(zap_reader, reads_go_TestNestedObject) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestNestedObject");
  EXPECT_EQ(msg.root().u32(0), 333u);
  const zap::Object inner = msg.root().object(4);
  ASSERT_FALSE(inner.is_null());
  EXPECT_EQ(inner.offset(), 16u);
  EXPECT_EQ(inner.u32(0), 111u);
  EXPECT_EQ(inner.u32(4), 222u);
}

TEST(zap_reader, reads_go_TestTextRoundTrip_through_go_test_schema) {
  using S = zap::Schema<zap::Type::u32, zap::Type::text, zap::Type::i32, zap::Type::boolean>;
  ZAP_PARSE_VECTOR(vec, msg, "go_TestTextRoundTrip");
  const zap::Object o = msg.root();
  EXPECT_EQ(o.get(S::field<0>), 42u);
  EXPECT_EQ(o.get(S::field<1>), "Alice");
  EXPECT_EQ(o.get(S::field<2>), 30);
  EXPECT_FALSE(o.get(S::field<3>));
}

TEST(zap_reader, reads_go_TestMultipleTextFields) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestMultipleTextFields");
  EXPECT_EQ(msg.root().text(0), "hello");
  EXPECT_EQ(msg.root().text(8), "world");
  EXPECT_EQ(msg.root().text(16), "!");
}

TEST(zap_reader, reads_go_TestNestedObjectWithText) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestNestedObjectWithText");
  EXPECT_EQ(msg.root_offset(), 48u);
  EXPECT_EQ(msg.root().text(0), "outer-text");
  const zap::Object inner = msg.root().object(8);
  ASSERT_FALSE(inner.is_null());
  EXPECT_EQ(inner.offset(), 16u);
  EXPECT_EQ(inner.text(0), "inner-text");
  EXPECT_EQ(inner.u32(8), 999u);
}

constexpr std::array<std::string_view, 5> kVarlistEntries = {"self-hosted", "macos", "", "arm64", "a"};

TEST(zap_reader, reads_go_varlist_bytes_by_index) {
  ZAP_PARSE_VECTOR(vec, msg, "go_varlist_bytes");
  EXPECT_EQ(msg.root_offset(), 64u);
  const zap::List l = msg.root().list(0);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.len(), 5u);
  for (std::uint32_t i = 0; i < kVarlistEntries.size(); ++i) {
    const zap::Bytes b = l.bytes_at(i);
    EXPECT_NE(b.data(), nullptr) << "entry " << i;
    EXPECT_EQ(sv(b), kVarlistEntries[i]) << "entry " << i;
  }
  EXPECT_EQ(l.bytes_at(2).size(), 0u);  // the empty entry is non-null and empty
  EXPECT_EQ(l.bytes_at(5).data(), nullptr);
  EXPECT_EQ(l.bytes_at(0xFFFFFFFFu).data(), nullptr);
}

TEST(zap_reader, reads_go_varlist_bytes_with_each_bytes) {
  ZAP_PARSE_VECTOR(vec, msg, "go_varlist_bytes");
  std::vector<std::string> seen;
  std::vector<bool> non_null;
  msg.root().list(0).each_bytes([&](zap::Bytes b) {
    seen.emplace_back(sv(b));
    non_null.push_back(b.data() != nullptr);
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::string>(kVarlistEntries.begin(), kVarlistEntries.end())));
  EXPECT_EQ(non_null, std::vector<bool>(5, true));
}

TEST(zap_reader, each_bytes_stops_when_callback_returns_false) {
  ZAP_PARSE_VECTOR(vec, msg, "go_varlist_bytes");
  int calls = 0;
  msg.root().list(0).each_bytes([&](zap::Bytes) { return ++calls < 2; });
  EXPECT_EQ(calls, 2);
}

TEST(zap_reader, reads_go_varlist_objects_by_index_and_each) {
  ZAP_PARSE_VECTOR(vec, msg, "go_varlist_objects");
  EXPECT_EQ(msg.root_offset(), 88u);
  const zap::List l = msg.root().list(0);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.offset(), 16u);
  EXPECT_EQ(l.len(), 3u);
  const std::uint32_t want[] = {10, 20, 30};
  for (std::uint32_t i = 0; i < 3; ++i) {
    const zap::Object o = l.object_at(i);
    ASSERT_FALSE(o.is_null()) << "entry " << i;
    EXPECT_EQ(o.offset(), 16u);  // relative to the sub-message, not the outer one
    EXPECT_EQ(o.u32(0), want[i]);
    EXPECT_EQ(l.bytes_at(i).size(), 20u);
  }
  EXPECT_TRUE(l.object_at(3).is_null());
  std::vector<std::uint32_t> each;
  l.each([&](zap::Object o) {
    each.push_back(o.u32(0));
    return true;
  });
  EXPECT_EQ(each, (std::vector<std::uint32_t>{10, 20, 30}));
}

TEST(zap_reader, reads_go_list_u32_one) {
  ZAP_PARSE_VECTOR(vec, msg, "go_list_u32_one");
  const zap::List l = msg.root().list(0);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.len(), 1u);
  EXPECT_EQ(l.u32(0), 42u);
}

TEST(zap_reader, resolves_legal_backward_object_pointer) {
  ZAP_PARSE_VECTOR(vec, msg, "go_nested_backward_ok");
  const zap::Object inner = msg.root().object(0);
  ASSERT_FALSE(inner.is_null());
  EXPECT_EQ(inner.offset(), 16u);
  EXPECT_EQ(inner.u32(0), 0xCAFEBABEu);
}

// ---- section 6: RPC envelopes -----------------------------------------------

struct RpcRequest {
  std::string_view name;
  std::uint32_t method, promise, target;
  std::string_view cap;
  std::vector<std::uint8_t> payload;
};

TEST(zap_reader, reads_rpc_requests) {
  const RpcRequest cases[] = {
      {"rpc_request_roundtrip", 3, 42, 0, "capability-bytes", {1, 2, 3, 4, 5}},
      {"rpc_request_wireshape", 7, 9, 0, "", {}},
      {"rpc_request_pipelined", 2, 2, 1, "", {}},
  };
  for (const RpcRequest& c : cases) {
    SCOPED_TRACE(c.name);
    const ByteVec vec = zaptest::hex_vector(c.name);
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    EXPECT_EQ(msg.version(), 2u);
    EXPECT_EQ(msg.flags(), 0xC800u);
    EXPECT_EQ(msg.msg_type(), 200u);
    EXPECT_EQ(msg.root_offset(), 16u);
    EXPECT_EQ(msg.size(), 44u + c.cap.size() + c.payload.size());
    const zap::Object o = msg.root();
    EXPECT_EQ(o.u32(0), c.method);
    EXPECT_EQ(o.u32(4), c.promise);
    EXPECT_EQ(o.u32(8), c.target);
    const zap::Bytes cap = o.bytes(12);
    const zap::Bytes payload = o.bytes(20);
    if (c.cap.empty()) {
      EXPECT_EQ(cap.data(), nullptr);
    } else {
      EXPECT_EQ(sv(cap), c.cap);
      EXPECT_EQ(cap.data(), vec.data() + 44);
    }
    if (c.payload.empty()) {
      EXPECT_EQ(payload.data(), nullptr);
    } else {
      EXPECT_TRUE(zaptest::same_bytes(payload, c.payload));
      EXPECT_EQ(payload.data(), vec.data() + 44 + c.cap.size());
    }
  }
}

TEST(zap_reader, reads_rpc_responses) {
  struct Case {
    std::string_view name;
    std::uint32_t status, promise;
    std::string_view body;
  };
  const Case cases[] = {
      {"rpc_response_roundtrip", 200, 42, "result-body-bytes"},
      {"rpc_response_forbidden", 403, 9, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ByteVec vec = zaptest::hex_vector(c.name);
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    EXPECT_EQ(msg.version(), 2u);
    EXPECT_EQ(msg.flags(), 0xC800u);
    EXPECT_EQ(msg.msg_type(), 200u);
    EXPECT_EQ(msg.size(), 36u + c.body.size());
    const zap::Object o = msg.root();
    EXPECT_EQ(o.u32(0), c.status);
    EXPECT_EQ(o.u32(4), c.promise);
    EXPECT_EQ(o.u32(8), 0u);
    const zap::Bytes body = o.bytes(12);
    if (c.body.empty()) {
      EXPECT_EQ(body.data(), nullptr);
    } else {
      EXPECT_EQ(sv(body), c.body);
      EXPECT_EQ(body.data(), vec.data() + 36);
    }
  }
}

}  // namespace
