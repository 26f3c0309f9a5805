// tests/zap/zap_reader_edges_test.cpp — the reader against adversarial and edge
// input (zap-wire.md §10, the vectors' README section 7): trailing bytes,
// truncating sizes, pointers into the header or past the size, impossible
// lengths, null objects and lists, and table-driven pointer bounds over
// mutated copies of the vectors. Every read of bad input is a defined zero or
// null, never an over-read.
#include <array>
#include <cstdint>
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

// ---- section 7: adversarial and edge vectors --------------------------------

TEST(zap_reader, accepts_trailing_bytes_and_hides_them) {
  ZAP_PARSE_VECTOR(vec, msg, "accept_trailing_bytes_ignored");
  EXPECT_EQ(vec.size(), 50u);
  EXPECT_EQ(msg.size(), 47u);
  EXPECT_EQ(msg.bytes().size(), 47u);
  expect_golden_fields(vec, msg, 1);
}

TEST(zap_reader, trailing_bytes_are_out_of_bounds_for_bytes_reads) {
  ZAP_LOAD_HEX(vec, "accept_trailing_bytes_ignored");
  put_u32(vec, 36, 7);  // bytes len 7: 43 + 7 = 50 fits the input but not size 47
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  EXPECT_EQ(msg.root().bytes(16).data(), nullptr);
}

TEST(zap_reader, accepts_size_truncating_the_bytes_field) {
  ZAP_PARSE_VECTOR(vec, msg, "accept_size_truncates_bytes_field");
  EXPECT_EQ(msg.size(), 43u);
  EXPECT_EQ(msg.root().text(8), "zap");
  EXPECT_EQ(msg.root().bytes(16).data(), nullptr);
  EXPECT_EQ(msg.root().u32(0), 0xDEADBEEFu);
}

TEST(zap_reader, rejects_bytes_highbit_reloffset) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_bytes_highbit_reloffset");
  EXPECT_EQ(msg.root().bytes(16).data(), nullptr);
  EXPECT_EQ(msg.root().text(8), "zap");
}

TEST(zap_reader, rejects_bytes_length_overrun) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_bytes_length_overrun");
  EXPECT_EQ(msg.root().bytes(16).data(), nullptr);
  EXPECT_EQ(msg.root().text(8), "zap");
}

TEST(zap_reader, treats_text_rel_0_as_null_whatever_the_length) {
  ZAP_PARSE_VECTOR(vec, msg, "null_text_rel0_len3");
  EXPECT_EQ(msg.root().text(8), "");
  EXPECT_EQ(msg.root().bytes(8).data(), nullptr);
  EXPECT_EQ(msg.root().bytes(8).size(), 0u);
  const zap::Bytes b = msg.root().bytes(16);  // the bytes field is untouched
  ASSERT_EQ(b.size(), 4u);
  EXPECT_EQ(b[3], 4);
}

TEST(zap_reader, rejects_bytes_backward_into_header) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_bytes_backward_into_header");
  EXPECT_EQ(msg.size(), 24u);
  EXPECT_EQ(msg.root().bytes(0).data(), nullptr);
  EXPECT_EQ(msg.root().text(0), "");
}

TEST(zap_reader, rejects_list_length_ffffffff) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_list_length_ffffffff");
  const zap::List l = msg.root().list(0);
  EXPECT_TRUE(l.is_null());
  EXPECT_EQ(l.len(), 0u);
  EXPECT_EQ(l.u32(0), 0u);
}

TEST(zap_reader, accepts_list_length_equal_to_size) {
  ZAP_PARSE_VECTOR(vec, msg, "accept_list_length_equals_size");
  EXPECT_EQ(msg.size(), 32u);
  const zap::List l = msg.root().list(0);
  ASSERT_FALSE(l.is_null());
  EXPECT_EQ(l.len(), 32u);
  EXPECT_EQ(l.u32(0), 42u);
  // The permissive baseline: reads inside size return whatever bytes are there
  // (the pad, then the list slot itself), reads past size return 0.
  EXPECT_EQ(l.u32(1), 0u);
  EXPECT_EQ(l.u32(2), 0xFFFFFFF8u);
  EXPECT_EQ(l.u32(3), 32u);
  EXPECT_EQ(l.u32(4), 0u);
  EXPECT_EQ(l.u32(31), 0u);
  EXPECT_EQ(l.u8(15), 0);
  EXPECT_EQ(l.u8(16), 0);                // pos 32 == size
  EXPECT_EQ(l.bytes().data(), nullptr);  // 16 + 32 > 32
}

TEST(zap_reader, rejects_list_length_one_past_size) {
  ZAP_LOAD_HEX(vec, "go_list_u32_one");
  put_u32(vec, 28, 33);
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  EXPECT_TRUE(msg.root().list(0).is_null());
}

TEST(zap_reader, rejects_list_backward_into_header) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_list_backward_into_header");
  EXPECT_TRUE(msg.root().list(0).is_null());
  EXPECT_EQ(msg.root().list(0).len(), 0u);
}

TEST(zap_reader, rejects_object_backward_into_header) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_object_backward_into_header");
  const zap::Object o = msg.root().object(0);
  EXPECT_TRUE(o.is_null());
  EXPECT_EQ(o.u32(0), 0u);  // not the header's magic
}

TEST(zap_reader, rejects_object_at_size) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_object_at_size");
  EXPECT_TRUE(msg.root().object(0).is_null());
}

// ---- table-driven pointer edges (mutated copies of vectors) -----------------

struct PointerCase {
  const char* what;
  std::int32_t rel;
  bool null;
};

TEST(zap_reader, list_pointer_bounds_follow_header_floor_and_size) {
  // go_list_u32_one: list slot at abs 24, size 32.
  const PointerCase cases[] = {
      {"-8 -> 16, the body", -8, false}, {"-9 -> 15, header", -9, true}, {"-24 -> 0", -24, true},
      {"+7 -> 31 < size", 7, false},     {"+8 -> 32 == size", 8, true},  {"0 is null", 0, true},
      {"INT32_MIN", INT32_MIN, true},    {"INT32_MAX", INT32_MAX, true},
  };
  ZAP_LOAD_HEX(base, "go_list_u32_one");
  for (const PointerCase& c : cases) {
    ByteVec vec = base;
    put_u32(vec, 24, static_cast<std::uint32_t>(c.rel));
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    EXPECT_EQ(msg.root().list(0).is_null(), c.null) << c.what;
  }
}

TEST(zap_reader, object_pointer_bounds_follow_header_floor_and_size) {
  // go_nested_backward_ok: object slot at abs 24, size 32.
  const PointerCase cases[] = {
      {"-8 -> 16", -8, false},        {"-9 -> 15", -9, true},         {"-24 -> 0", -24, true},
      {"+7 -> 31 < size", 7, false},  {"+8 -> 32 == size", 8, true},  {"0 is null", 0, true},
      {"INT32_MIN", INT32_MIN, true}, {"INT32_MAX", INT32_MAX, true},
  };
  ZAP_LOAD_HEX(base, "go_nested_backward_ok");
  for (const PointerCase& c : cases) {
    ByteVec vec = base;
    put_u32(vec, 24, static_cast<std::uint32_t>(c.rel));
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    EXPECT_EQ(msg.root().object(0).is_null(), c.null) << c.what;
  }
}

TEST(zap_reader, object_near_size_reads_only_what_fits) {
  ZAP_LOAD_HEX(vec, "go_nested_backward_ok");
  put_u32(vec, 24, 7);  // child at abs 31, the last byte
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const zap::Object o = msg.root().object(0);
  ASSERT_FALSE(o.is_null());
  EXPECT_EQ(o.offset(), 31u);
  EXPECT_EQ(o.u8(0), vec[31]);
  EXPECT_EQ(o.u8(1), 0);
  EXPECT_EQ(o.u16(0), 0u);
  EXPECT_EQ(o.u32(0), 0u);
}

struct BytesCase {
  const char* what;
  std::uint32_t rel;
  std::uint32_t len;
  bool null;
  std::size_t size;
};

TEST(zap_reader, bytes_pointer_bounds_follow_header_floor_and_size) {
  // golden: bytes slot at abs 32, size 47.
  const BytesCase cases[] = {
      {"golden", 11, 4, false, 4},
      {"rel != 0, len 0: non-null empty", 11, 0, false, 0},
      {"rel 15 -> abs 47 == size, len 0: non-null empty", 15, 0, false, 0},
      {"rel 16 -> abs 48 > size, len 0", 16, 0, true, 0},
      {"rel 14, len 1 ends at size", 14, 1, false, 1},
      {"rel 14, len 2 passes size", 14, 2, true, 0},
      {"rel 0 is null whatever len", 0, 4, true, 0},
      {"rel 0xFFFFFFF0 (would be -16 signed)", 0xFFFFFFF0u, 4, true, 0},
      {"rel 0xFFFFFFFF", 0xFFFFFFFFu, 0, true, 0},
      {"len 0xFFFFFFFF", 11, 0xFFFFFFFFu, true, 0},
      {"rel 4 aliases its own len word", 4, 4, false, 4},
  };
  ZAP_LOAD_HEX(base, "golden_v1");
  for (const BytesCase& c : cases) {
    ByteVec vec = base;
    put_u32(vec, 32, c.rel);
    put_u32(vec, 36, c.len);
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    const zap::Bytes b = msg.root().bytes(16);
    EXPECT_EQ(b.data() == nullptr, c.null) << c.what;
    EXPECT_EQ(b.size(), c.size) << c.what;
    if (!c.null) {
      EXPECT_EQ(b.data(), vec.data() + 32 + c.rel) << c.what;
    }
  }
}

TEST(zap_reader, bytes_with_rel_and_zero_len_is_non_null_empty) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  put_u32(vec, 36, 0);  // bytes len 0, rel 11 kept
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const zap::Bytes b = msg.root().bytes(16);
  EXPECT_NE(b.data(), nullptr);
  EXPECT_EQ(b.size(), 0u);
  EXPECT_EQ(b.data(), vec.data() + 43);
  EXPECT_EQ(msg.root().text(16), "");
}

TEST(zap_reader, text_is_not_utf8_validated) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  vec[40] = 0xff;
  vec[41] = 0xfe;
  vec[42] = 0x00;
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const std::string_view t = msg.root().text(8);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(static_cast<unsigned char>(t[0]), 0xff);
  EXPECT_EQ(t[2], '\0');
}

TEST(zap_reader, bool_is_any_non_zero_byte) {
  ZAP_LOAD_HEX(vec, "cpp_scalars");
  vec[16 + 16] = 0x80;
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  EXPECT_TRUE(msg.root().boolean(16));
  EXPECT_EQ(msg.root().u8(16), 0x80);
}

TEST(zap_reader, scalar_reads_past_size_return_zero) {
  ZAP_PARSE_VECTOR(vec, msg, "golden_v1");  // root 16, size 47
  const zap::Object o = msg.root();
  EXPECT_EQ(o.u8(30), 0x04);  // abs 46, the last byte
  EXPECT_EQ(o.u8(31), 0);
  EXPECT_FALSE(o.boolean(31));
  EXPECT_EQ(o.u16(29), 0x0403u);
  EXPECT_EQ(o.u16(30), 0u);
  EXPECT_EQ(o.u32(27), 0x04030201u);
  EXPECT_EQ(o.u32(28), 0u);
  EXPECT_EQ(o.i32(28), 0);
  EXPECT_EQ(o.f32(28), 0.0f);
  EXPECT_EQ(o.u64(24), 0u);
  EXPECT_EQ(o.i64(24), 0);
  EXPECT_EQ(o.f64(24), 0.0);
  EXPECT_EQ(o.u64(0xFFFFFFFFu), 0u);  // no 32-bit wrap of offset + field
  EXPECT_EQ(o.bytes(0xFFFFFFFFu).data(), nullptr);
  EXPECT_TRUE(o.object(0xFFFFFFFFu).is_null());
  EXPECT_TRUE(o.list(0xFFFFFFFFu).is_null());
}

TEST(zap_reader, root_offset_zero_is_null_but_reads_header_like_go) {
  ZAP_LOAD_HEX(vec, "golden_v1");
  put_u32(vec, 8, 0);
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const zap::Object root = msg.root();
  EXPECT_TRUE(root.is_null());
  EXPECT_EQ(root.u32(0), 0x0050415au);  // the magic
  EXPECT_EQ(root.u32(12), 47u);         // the size field
}

TEST(zap_reader, root_at_or_past_size_reads_zeros) {
  for (std::uint32_t root : {47u, 48u, 0x7FFFFFFFu, 0xFFFFFFF0u, 0xFFFFFFFFu}) {
    ZAP_LOAD_HEX(vec, "golden_v1");
    put_u32(vec, 8, root);
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    const zap::Object o = msg.root();
    EXPECT_EQ(o.offset(), root);
    EXPECT_EQ(o.u8(0), 0) << root;
    EXPECT_EQ(o.u32(0), 0u) << root;
    EXPECT_EQ(o.u64(0), 0u) << root;
    EXPECT_EQ(o.text(8), "") << root;
    EXPECT_EQ(o.bytes(16).data(), nullptr) << root;
    EXPECT_TRUE(o.object(0).is_null()) << root;
    EXPECT_TRUE(o.list(0).is_null()) << root;
    EXPECT_EQ(o.bytes_fixed(0, 1).data(), nullptr) << root;
  }
}

TEST(zap_reader, null_object_reads_return_zero) {
  const zap::Object o;
  EXPECT_TRUE(o.is_null());
  EXPECT_EQ(o.offset(), 0u);
  EXPECT_EQ(o.u8(0), 0);
  EXPECT_EQ(o.i8(0), 0);
  EXPECT_FALSE(o.boolean(0));
  EXPECT_EQ(o.u16(0), 0u);
  EXPECT_EQ(o.i16(0), 0);
  EXPECT_EQ(o.u32(0), 0u);
  EXPECT_EQ(o.i32(0), 0);
  EXPECT_EQ(o.u64(8), 0u);
  EXPECT_EQ(o.i64(8), 0);
  EXPECT_EQ(o.f32(0), 0.0f);
  EXPECT_EQ(o.f64(0), 0.0);
  EXPECT_EQ(o.bytes(0).data(), nullptr);
  EXPECT_EQ(o.text(0), "");
  EXPECT_EQ(o.bytes_fixed(0, 4).data(), nullptr);
  EXPECT_TRUE(o.object(0).is_null());
  EXPECT_TRUE(o.list(0).is_null());
  using S = zap::Schema<zap::Type::u64, zap::Type::text>;
  EXPECT_EQ(o.get(S::field<0>), 0u);
  EXPECT_EQ(o.get(S::field<1>), "");
}

TEST(zap_reader, null_object_from_rejected_pointer_reads_return_zero) {
  ZAP_PARSE_VECTOR(vec, msg, "reject_object_backward_into_header");
  const zap::Object o = msg.root().object(0);
  ASSERT_TRUE(o.is_null());
  EXPECT_EQ(o.u32(0), 0u);
  EXPECT_EQ(o.u64(0), 0u);
  EXPECT_EQ(o.text(0), "");
  EXPECT_TRUE(o.object(0).is_null());
}

TEST(zap_reader, null_list_reads_return_zero) {
  const zap::List l;
  EXPECT_TRUE(l.is_null());
  EXPECT_EQ(l.len(), 0u);
  EXPECT_EQ(l.u8(0), 0);
  EXPECT_EQ(l.u32(0), 0u);
  EXPECT_EQ(l.u64(0), 0u);
  EXPECT_TRUE(l.object(0, 8).is_null());
  EXPECT_EQ(l.bytes().data(), nullptr);
  EXPECT_EQ(l.bytes_at(0).data(), nullptr);
  EXPECT_TRUE(l.object_at(0).is_null());
  int calls = 0;
  l.each_bytes([&](zap::Bytes) { return ++calls > 0; });
  l.each([&](zap::Object) { return ++calls > 0; });
  EXPECT_EQ(calls, 0);
}

TEST(zap_reader, default_message_is_empty) {
  const zap::Message m;
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.version(), 0u);
  EXPECT_EQ(m.root_offset(), 0u);
  EXPECT_TRUE(m.root().is_null());
  EXPECT_EQ(m.root().u32(0), 0u);
}

TEST(zap_reader, list_element_index_past_len_returns_zero) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestList");
  const zap::List l = msg.root().list(4);
  ASSERT_EQ(l.len(), 3u);
  // Index 3 is still inside size (it would read the root's 999), but past len.
  for (std::uint32_t i : {3u, 4u, 1000u, 0x7FFFFFFFu, 0xFFFFFFFFu}) {
    EXPECT_EQ(l.u32(i), 0u) << i;
    EXPECT_EQ(l.u8(i), 0) << i;
    EXPECT_EQ(l.u64(i), 0u) << i;
    EXPECT_TRUE(l.object(i, 4).is_null()) << i;
    EXPECT_EQ(l.bytes_at(i).data(), nullptr) << i;
    EXPECT_TRUE(l.object_at(i).is_null()) << i;
  }
  // u64 elements 0 and 1 are inside the body; element 2 (abs 32..39) is inside
  // size: element reads are bounded by size, not by the body (Go's rule).
  EXPECT_EQ(l.u64(0), (std::uint64_t{200} << 32) | 100u);
  EXPECT_EQ(l.u64(2), 999u | (std::uint64_t{0xFFFFFFEC} << 32));
}

TEST(zap_reader, inline_object_element_past_size_reads_zero) {
  ZAP_PARSE_VECTOR(vec, msg, "go_TestList");
  const zap::List l = msg.root().list(4);
  EXPECT_EQ(l.object(1, 4).u32(0), 200u);
  const zap::Object far = l.object(2, 0x40000000u);  // i < len; offset far past size
  EXPECT_EQ(far.u32(0), 0u);
  EXPECT_EQ(far.u8(0), 0);
  EXPECT_EQ(far.text(0), "");
}

TEST(zap_reader, object_at_on_non_parsing_entry_is_null_and_each_advances) {
  ZAP_LOAD_HEX(vec, "go_varlist_objects");
  // Entry 1: prefix at abs 40, sub-message at 44..63. Break its magic.
  ASSERT_EQ(vec[44], 0x5a);
  vec[44] = 0x58;
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const zap::List l = msg.root().list(0);
  EXPECT_EQ(l.object_at(0).u32(0), 10u);
  EXPECT_TRUE(l.object_at(1).is_null());
  EXPECT_NE(l.bytes_at(1).data(), nullptr);  // the entry itself is in bounds
  EXPECT_EQ(l.object_at(2).u32(0), 30u);
  std::vector<bool> nulls;
  std::vector<std::uint32_t> values;
  l.each([&](zap::Object o) {
    nulls.push_back(o.is_null());
    values.push_back(o.u32(0));
    return true;
  });
  EXPECT_EQ(nulls, (std::vector<bool>{false, true, false}));
  EXPECT_EQ(values, (std::vector<std::uint32_t>{10, 0, 30}));
}

TEST(zap_reader, object_at_applies_full_parse_rules_to_each_entry) {
  struct Mutation {
    const char* what;
    std::size_t at;
    std::uint32_t value;
  };
  // Entry 1's sub-message starts at abs 44: version at 48, size at 56.
  const Mutation cases[] = {
      {"version 3", 48, 0x00000003u},  // u16 version 3, flags 0
      {"size 15", 56, 15u},            // below the header
      {"size 21 > entry", 56, 21u},    // beyond the entry's 20 bytes
  };
  for (const Mutation& m : cases) {
    ZAP_LOAD_HEX(vec, "go_varlist_objects");
    put_u32(vec, m.at, m.value);
    zap::Message msg;
    ASSERT_TRUE(parses(vec, msg));
    const zap::List l = msg.root().list(0);
    EXPECT_TRUE(l.object_at(1).is_null()) << m.what;
    EXPECT_EQ(l.object_at(2).u32(0), 30u) << m.what;
  }
}

TEST(zap_reader, each_bytes_stops_silently_at_overrunning_entry) {
  ZAP_LOAD_HEX(vec, "go_varlist_bytes");
  // Entries at 16: [11]"self-hosted", [5]"macos" @31, [0] @40, [5]"arm64" @44.
  ASSERT_EQ(vec[44], 5);
  put_u32(vec, 44, 0xFFFFu);
  zap::Message msg;
  ASSERT_TRUE(parses(vec, msg));
  const zap::List l = msg.root().list(0);
  std::vector<std::string> seen;
  l.each_bytes([&](zap::Bytes b) {
    seen.emplace_back(sv(b));
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"self-hosted", "macos", ""}));
  EXPECT_EQ(l.bytes_at(3).data(), nullptr);
  EXPECT_EQ(l.bytes_at(4).data(), nullptr);
  EXPECT_EQ(sv(l.bytes_at(1)), "macos");
}

TEST(zap_reader, bytes_fixed_is_bounded_by_size) {
  ZAP_PARSE_VECTOR(vec, msg, "golden_v1");
  const zap::Object o = msg.root();
  EXPECT_EQ(o.bytes_fixed(0, 0).data(), nullptr);
  EXPECT_EQ(o.bytes_fixed(0, 4).data(), vec.data() + 16);
  EXPECT_EQ(o.bytes_fixed(0, 31).size(), 31u);  // ends at size
  EXPECT_EQ(o.bytes_fixed(0, 32).data(), nullptr);
  EXPECT_EQ(o.bytes_fixed(30, 1).size(), 1u);
  EXPECT_EQ(o.bytes_fixed(31, 1).data(), nullptr);
  EXPECT_EQ(o.bytes_fixed(1, 0xFFFFFFFFu).data(), nullptr);
}

}  // namespace
