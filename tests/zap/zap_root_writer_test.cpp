// tests/zap/zap_root_writer_test.cpp — zap::RootWriter writes exactly
// zap::Builder's bytes for the same calls: the eth vectors, every schema type
// it takes with generated values, empty tails (null slots), a tail sum given
// too small (a grow), a caller's buffer outgrown (a spill), a builder reused
// after either, and the version and flags the builder keeps.
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "support/vectors.hpp"
#include "zap/zap.hpp"

namespace {

using zaptest::ByteVec;

ByteVec copy_of(zap::Bytes b) { return ByteVec(b.begin(), b.end()); }

// Every type RootWriter takes, mixed so that offsets need the alignment rules.
using Mixed = zap::Schema<zap::Type::boolean, zap::Type::text, zap::Type::i32, zap::Type::u64,
                          zap::Type::bytes, zap::Type::u32, zap::Type::f64, zap::Type::i64, zap::Type::text>;
struct Values {
  bool flag;
  std::string name;
  std::int32_t i32;
  std::uint64_t u64;
  std::vector<std::uint8_t> blob;
  std::uint32_t u32;
  double f64;
  std::int64_t i64;
  std::string tail;
  std::size_t tails() const { return name.size() + blob.size() + tail.size(); }
};

ByteVec by_builder(zap::Builder& b, const Values& v) {
  b.reset();
  zap::ObjectBuilder o = b.start_object(Mixed::size_bytes);
  o.set(Mixed::field<0>, v.flag);
  o.set(Mixed::field<1>, std::string_view(v.name));
  o.set(Mixed::field<2>, v.i32);
  o.set(Mixed::field<3>, v.u64);
  o.set(Mixed::field<4>, zap::Bytes(v.blob));
  o.set(Mixed::field<5>, v.u32);
  o.set(Mixed::field<6>, v.f64);
  o.set(Mixed::field<7>, v.i64);
  o.set(Mixed::field<8>, std::string_view(v.tail));
  o.finish_as_root();
  return copy_of(b.finish());
}

ByteVec by_writer(zap::Builder& b, const Values& v, std::size_t tail_bytes) {
  zap::RootWriter<Mixed> w(b, tail_bytes);
  w.set<Mixed::field<0>>(v.flag);
  w.set<Mixed::field<1>>(std::string_view(v.name));
  w.set<Mixed::field<2>>(v.i32);
  w.set<Mixed::field<3>>(v.u64);
  w.set<Mixed::field<4>>(zap::Bytes(v.blob));
  w.set<Mixed::field<5>>(v.u32);
  w.set<Mixed::field<6>>(v.f64);
  w.set<Mixed::field<7>>(v.i64);
  w.set<Mixed::field<8>>(std::string_view(v.tail));
  return copy_of(w.finish());
}

Values generated(std::mt19937_64& rng) {
  auto text = [&](std::size_t max) {
    std::string s(rng() % (max + 1), '\0');
    for (char& c : s) c = static_cast<char>('a' + rng() % 26);
    return s;
  };
  Values v{(rng() & 1) != 0,
           text(40),
           static_cast<std::int32_t>(rng()),
           rng(),
           {},
           static_cast<std::uint32_t>(rng()),
           static_cast<double>(rng() % 1000) / 7.0,
           static_cast<std::int64_t>(rng()),
           text(300)};
  v.blob.resize(rng() % 70);
  for (auto& x : v.blob) x = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(RootWriter, WritesTheEthVectors) {
  using Req = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::text, zap::Type::bytes>;
  using Resp = zap::Schema<zap::Type::u64, zap::Type::u64, zap::Type::u64, zap::Type::bytes>;
  const std::uint8_t account[20] = {0xde, 0xad, 0xbe, 0xef, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55,
                                    0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
  zap::Builder b(128);
  {
    zap::RootWriter<Req> w(b, 14 + 20);
    w.set<Req::field<0>>(std::uint64_t{1});
    w.set<Req::field<1>>(std::uint64_t{0x10d4f});
    w.set<Req::field<2>>(std::string_view("eth_getBalance"));
    w.set<Req::field<3>>(zap::Bytes(account));
    ByteVec want;
    ASSERT_TRUE(zaptest::load_hex("eth_req", want));
    EXPECT_TRUE(zaptest::same_bytes(copy_of(w.finish()), want));
  }
  std::uint8_t hash[32];
  for (int i = 0; i < 32; ++i) hash[i] = static_cast<std::uint8_t>(i);
  zap::Builder general(128);
  zap::ObjectBuilder o = general.start_object(Resp::size_bytes);
  o.set(Resp::field<0>, std::uint64_t{1});
  o.set(Resp::field<1>, std::uint64_t{1'000'000'000'000'000'000ULL});
  o.set(Resp::field<2>, std::uint64_t{42});
  o.set(Resp::field<3>, zap::Bytes(hash));
  o.finish_as_root();
  const ByteVec want = copy_of(general.finish());
  zap::RootWriter<Resp> w(b, 32);
  w.set<Resp::field<0>>(std::uint64_t{1});
  w.set<Resp::field<1>>(std::uint64_t{1'000'000'000'000'000'000ULL});
  w.set<Resp::field<2>>(std::uint64_t{42});
  w.set<Resp::field<3>>(zap::Bytes(hash));
  EXPECT_EQ(copy_of(w.finish()), want);
}

TEST(RootWriter, WritesBuildersBytesForGeneratedValues) {
  std::mt19937_64 rng(47);
  zap::Builder general(64), fast(64);
  for (int i = 0; i < 2000; ++i) {
    const Values v = generated(rng);
    const ByteVec want = by_builder(general, v);
    // The tail sum right, too small (a grow on the way) and none at all.
    EXPECT_EQ(by_writer(fast, v, v.tails()), want) << i;
    EXPECT_EQ(by_writer(fast, v, v.tails() / 2), want) << i;
    EXPECT_EQ(by_writer(fast, v, 0), want) << i;
    // The same builder built the general way again, after the writer: still the same bytes.
    EXPECT_EQ(by_builder(fast, v), want) << i;
    const zap::Message::Parsed p = zap::Message::parse(want);
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p.message.root().text(Mixed::field<8>.offset), v.tail);
  }
}

TEST(RootWriter, EmptyTailsAreNullSlots) {
  zap::Builder general(64), fast(64);
  const Values v{true, "", -1, 7, {}, 9, 0.5, -7, ""};
  const ByteVec written = by_writer(fast, v, 0);
  EXPECT_EQ(written, by_builder(general, v));
  const zap::Message::Parsed p = zap::Message::parse(written);
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p.message.root().bytes(Mixed::field<4>.offset).data() == nullptr);
}

TEST(RootWriter, SpillsOutOfTheCallersBufferAsBuilderDoes) {
  std::mt19937_64 rng(48);
  Values v = generated(rng);
  v.tail.assign(200, 'z');
  std::vector<std::uint8_t> small(64), small2(64);
  zap::Builder general(small), fast(small2);
  const ByteVec want = by_builder(general, v);
  EXPECT_EQ(by_writer(fast, v, v.tails()), want);
  EXPECT_TRUE(fast.spilled());
  std::vector<std::uint8_t> room(1024);
  zap::Builder in_place(room);
  EXPECT_EQ(by_writer(in_place, v, v.tails()), want);
  EXPECT_FALSE(in_place.spilled());
  EXPECT_TRUE(std::equal(want.begin(), want.end(), room.begin()));
}

TEST(RootWriter, KeepsTheBuildersVersionAndFlags) {
  zap::Builder general(64, 2), fast(64, 2);
  const Values v{false, "x", 1, 2, {3}, 4, 5.0, 6, "y"};
  by_writer(fast, v, v.tails());
  general.finish_with_flags(0xC800);
  fast.finish_with_flags(0xC800);
  EXPECT_EQ(by_writer(fast, v, v.tails()), by_builder(general, v));
  EXPECT_EQ(zap::Message::parse(by_writer(fast, v, v.tails())).message.version(), 2);
  EXPECT_EQ(zap::Message::parse(by_writer(fast, v, v.tails())).message.flags(), 0xC800);
}

}  // namespace
