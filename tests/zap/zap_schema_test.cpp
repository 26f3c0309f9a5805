// tests/zap/zap_schema_test.cpp — zap::Schema layouts against Go's StructBuilder rules
// (zap-wire.md §9.5): the three worked examples as static_asserts and at run time,
// the per-type alignment table, and typed set/get through Field handles.
#include <array>
#include <cstdint>
#include <string_view>
#include <type_traits>

#include "support/vectors.hpp"
#include "zap/zap.hpp"

namespace {

using T = zap::Type;

template <class S, std::size_t... I>
std::array<std::uint32_t, sizeof...(I)> offsets_of(std::index_sequence<I...>) {
  return {S::template field<I>.offset...};
}

template <class S>
std::array<std::uint32_t, S::field_count> offsets_of() {
  return offsets_of<S>(std::make_index_sequence<S::field_count>{});
}

// ---- the three examples of §9.5 ---------------------------------------------

// {Uint64 id, Uint64 block, Text method, Bytes account}
using EthCallReq = zap::Schema<T::u64, T::u64, T::text, T::bytes>;
static_assert(EthCallReq::field_count == 4);
static_assert(EthCallReq::field<0>.offset == 0);
static_assert(EthCallReq::field<1>.offset == 8);
static_assert(EthCallReq::field<2>.offset == 16);
static_assert(EthCallReq::field<3>.offset == 24);
static_assert(EthCallReq::size_bytes == 32);

// TestSchema {Uint32 id, Text name, Int32 age, Bool active}: text aligns to 4.
using TestSchema = zap::Schema<T::u32, T::text, T::i32, T::boolean>;
static_assert(TestSchema::field<0>.offset == 0);
static_assert(TestSchema::field<1>.offset == 4);
static_assert(TestSchema::field<2>.offset == 12);
static_assert(TestSchema::field<3>.offset == 16);
static_assert(TestSchema::size_bytes == 24);

// {Bool a, Uint32 b, Bool c, Uint64 d, Bool e, Text f, Struct g, Bool h, List i,
//  Float64 j, Bool k}
using Mixed = zap::Schema<T::boolean, T::u32, T::boolean, T::u64, T::boolean, T::text, T::object, T::boolean,
                          T::list, T::f64, T::boolean>;
static_assert(Mixed::field_count == 11);
static_assert(Mixed::field<0>.offset == 0);    // a
static_assert(Mixed::field<1>.offset == 4);    // b
static_assert(Mixed::field<2>.offset == 8);    // c
static_assert(Mixed::field<3>.offset == 16);   // d
static_assert(Mixed::field<4>.offset == 24);   // e
static_assert(Mixed::field<5>.offset == 28);   // f
static_assert(Mixed::field<6>.offset == 36);   // g
static_assert(Mixed::field<7>.offset == 40);   // h
static_assert(Mixed::field<8>.offset == 44);   // i
static_assert(Mixed::field<9>.offset == 56);   // j
static_assert(Mixed::field<10>.offset == 64);  // k
static_assert(Mixed::size_bytes == 72);

// Field handles carry their type.
static_assert(std::is_same_v<std::remove_cv_t<decltype(TestSchema::field<1>)>, zap::Field<T::text>>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(Mixed::field<6>)>, zap::Field<T::object>>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(Mixed::field<8>)>, zap::Field<T::list>>);

TEST(zap_schema, eth_call_req_layout_matches_struct_builder) {
  EXPECT_EQ(offsets_of<EthCallReq>(), (std::array<std::uint32_t, 4>{0, 8, 16, 24}));
  EXPECT_EQ(EthCallReq::size_bytes, 32u);
}

TEST(zap_schema, go_test_schema_aligns_text_to_4_not_8) {
  EXPECT_EQ(offsets_of<TestSchema>(), (std::array<std::uint32_t, 4>{0, 4, 12, 16}));
  EXPECT_EQ(TestSchema::size_bytes, 24u);
}

TEST(zap_schema, mixed_schema_matches_struct_builder) {
  EXPECT_EQ(offsets_of<Mixed>(), (std::array<std::uint32_t, 11>{0, 4, 8, 16, 24, 28, 36, 40, 44, 56, 64}));
  EXPECT_EQ(Mixed::size_bytes, 72u);
}

// ---- the per-type rules of the §9.5 table -----------------------------------

// Each type placed after a 1-byte Bool shows its alignment; the second offset
// shows the alignment and the size shows the width plus Build()'s rounding.
struct RuleCase {
  const char* type;
  std::uint32_t offset_after_bool;
  std::uint32_t size_alone;
};

template <T X>
RuleCase rule_case(const char* name) {
  return {name, zap::Schema<T::boolean, X>::template field<1>.offset, zap::Schema<X>::size_bytes};
}

TEST(zap_schema, per_type_alignment_and_width_follow_the_table) {
  const RuleCase got[] = {
      rule_case<T::boolean>("bool"),  rule_case<T::i32>("i32"),     rule_case<T::u32>("u32"),
      rule_case<T::i64>("i64"),       rule_case<T::u64>("u64"),     rule_case<T::f64>("f64"),
      rule_case<T::text>("text"),     rule_case<T::bytes>("bytes"), rule_case<T::list>("list"),
      rule_case<T::object>("object"),
  };
  const RuleCase want[] = {
      {"bool", 1, 8}, {"i32", 4, 8},  {"u32", 4, 8},   {"i64", 8, 8},  {"u64", 8, 8},
      {"f64", 8, 8},  {"text", 4, 8}, {"bytes", 4, 8}, {"list", 4, 8}, {"object", 4, 8},
  };
  for (std::size_t i = 0; i < std::size(want); ++i) {
    EXPECT_EQ(got[i].offset_after_bool, want[i].offset_after_bool) << want[i].type;
    EXPECT_EQ(got[i].size_alone, want[i].size_alone) << want[i].type;
  }
}

TEST(zap_schema, size_is_rounded_up_to_8) {
  static_assert(zap::Schema<T::boolean, T::boolean, T::boolean>::size_bytes == 8);
  static_assert(zap::Schema<T::u64, T::boolean>::size_bytes == 16);
  static_assert(zap::Schema<T::u32, T::object, T::u32>::size_bytes == 16);  // 12 -> 16
  static_assert(zap::Schema<T::u32, T::text>::size_bytes == 16);            // 12 -> 16
  static_assert(zap::Schema<T::u64, T::u64, T::u64>::size_bytes == 24);     // already aligned
  EXPECT_EQ((zap::Schema<T::u32, T::object, T::u32>::size_bytes), 16u);
  EXPECT_EQ((zap::Schema<T::u32, T::object, T::u32>::field<2>.offset), 8u);
}

TEST(zap_schema, bools_pack_without_alignment) {
  using S = zap::Schema<T::boolean, T::boolean, T::boolean, T::u32>;
  EXPECT_EQ(offsets_of<S>(), (std::array<std::uint32_t, 4>{0, 1, 2, 4}));
  EXPECT_EQ(S::size_bytes, 8u);
}

// ---- typed set/get through the handles --------------------------------------

TEST(zap_schema, typed_fields_round_trip_through_builder_and_reader) {
  zap::Builder b(256);
  zap::ListBuilder lb = b.start_list(4);
  lb.add_u32(7);
  lb.add_u32(8);
  const zap::ListRef list = lb.finish();
  zap::ObjectBuilder child = b.start_object(8);
  child.set_u64(0, 0x1122334455667788ULL);
  const std::uint32_t child_at = child.finish();

  zap::ObjectBuilder o = b.start_object(Mixed::size_bytes);
  o.set(Mixed::field<0>, true);
  o.set(Mixed::field<1>, std::uint32_t{0xA1B2C3D4});
  o.set(Mixed::field<2>, false);
  o.set(Mixed::field<3>, std::uint64_t{0x0102030405060708ULL});
  o.set(Mixed::field<4>, true);
  o.set(Mixed::field<5>, std::string_view("field-f"));
  o.set(Mixed::field<6>, child_at);
  o.set(Mixed::field<7>, true);
  o.set(Mixed::field<8>, list);
  o.set(Mixed::field<9>, 6.25);
  o.set(Mixed::field<10>, true);
  o.finish_as_root();
  const zap::Bytes out = b.finish();
  // header + list (8) + child (8) + fixed section (72) + tail (7)
  EXPECT_EQ(out.size(), 16u + 8u + 8u + 72u + 7u);

  const zap::Message::Parsed p = zap::Message::parse(out);
  ASSERT_TRUE(p.ok()) << zap::describe(p.error);
  const zap::Object r = p.message.root();
  EXPECT_EQ(r.offset(), 32u);
  EXPECT_TRUE(r.get(Mixed::field<0>));
  EXPECT_EQ(r.get(Mixed::field<1>), 0xA1B2C3D4u);
  EXPECT_FALSE(r.get(Mixed::field<2>));
  EXPECT_EQ(r.get(Mixed::field<3>), 0x0102030405060708ULL);
  EXPECT_TRUE(r.get(Mixed::field<4>));
  EXPECT_EQ(r.get(Mixed::field<5>), "field-f");
  EXPECT_EQ(r.get(Mixed::field<6>).u64(0), 0x1122334455667788ULL);
  EXPECT_TRUE(r.get(Mixed::field<7>));
  const zap::List l = r.get(Mixed::field<8>);
  ASSERT_EQ(l.len(), 2u);
  EXPECT_EQ(l.u32(0), 7u);
  EXPECT_EQ(l.u32(1), 8u);
  EXPECT_EQ(r.get(Mixed::field<9>), 6.25);
  EXPECT_TRUE(r.get(Mixed::field<10>));
  // Raw offsets agree with the handles: the layout is the wire layout.
  EXPECT_EQ(r.u8(64), 1);
  EXPECT_EQ(r.u32(4), 0xA1B2C3D4u);
  EXPECT_EQ(r.f64(56), 6.25);
}

TEST(zap_schema, typed_get_returns_the_field_types) {
  const zap::Object o;
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<0>)), bool>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<1>)), std::uint32_t>);
  static_assert(std::is_same_v<decltype(o.get(TestSchema::field<2>)), std::int32_t>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<3>)), std::uint64_t>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<5>)), std::string_view>);
  static_assert(std::is_same_v<decltype(o.get(EthCallReq::field<3>)), zap::Bytes>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<6>)), zap::Object>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<8>)), zap::List>);
  static_assert(std::is_same_v<decltype(o.get(Mixed::field<9>)), double>);
  EXPECT_EQ(o.get(Mixed::field<9>), 0.0);
}

TEST(zap_schema, go_test_schema_reads_go_TestTextRoundTrip_vector) {
  ZAP_LOAD_HEX(vec, "go_TestTextRoundTrip");
  const zap::Message::Parsed p = zap::Message::parse(vec);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.message.size(), 16u + TestSchema::size_bytes + 5u);  // tail follows the 24-byte section
  EXPECT_EQ(p.message.root().get(TestSchema::field<1>), "Alice");
}

}  // namespace
