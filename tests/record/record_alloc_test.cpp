// tests/record/record_alloc_test.cpp — steady state allocates nothing on every
// codec of the build (the handler loop: decode, encode, round trip), except
// the few whose library's API allocates, each listed with its count and why.
// Counted with the benchmarks' replaced operator new (an allocation count is
// behaviour, not timing).
#include <gtest/gtest.h>

#include <optional>
#include <string_view>

#include "micro/alloc_counter.hpp"
#include "micro/padded.hpp"
#include "record/codecs.hpp"

namespace {

template <class C>
std::uint64_t allocs_per_1000_handler_calls() {
  C codec;
  const micro::Padded req(codec.encode_request(record::sample_request()));
  record::RequestView q;
  record::ResponseView r;
  auto once = [&] {
    EXPECT_EQ(codec.decode_request(req.bytes(), q), record::DecodeError::ok);
    const record::Bytes out = codec.encode_response(record::compute(q));
    const record::Bytes again = codec.encode_request(record::sample_request());
    EXPECT_EQ(codec.decode_request(again, q), record::DecodeError::ok);
    (void)out;
  };
  for (int i = 0; i < 10; ++i) once();  // warm-up: buffers reach their size
  const micro::AllocCount before = micro::alloc_count();
  for (int i = 0; i < 1000; ++i) once();
  (void)r;
  return micro::alloc_count().allocs - before.allocs;
}

TEST(record_allocations, counter_sees_allocations) {
  const micro::AllocCount before = micro::alloc_count();
  auto* p = new int(7);
  EXPECT_EQ(micro::alloc_count().allocs, before.allocs + 1);
  delete p;
}

// What a handler loop (decode, encode the answer, encode and decode a request
// again) allocates per 1000 calls, by codec, where it is not 0 — each with the
// reason from the library's API. Every other codec of the build must allocate
// nothing in steady state.
struct Expected {
  std::string_view codec;
  std::optional<std::uint64_t> allocs;  // nullopt: not asserted (the count is the library's business)
  std::string_view why;
};
constexpr std::string_view kNlohmannWhy =
    "nlohmann's sax_parse builds a parser and its token buffer per call and dump() returns a new string; "
    "zapbench micro reports the count";
const Expected kExceptions[] = {
    {"nlohmann", std::nullopt, kNlohmannWhy},
    // The arena mallocs nothing (its block is the codec's); each message built on it allocates once: its
    // byte field's std::string holds 20 or 32 characters, past the small-string buffer, from std::allocator
    // (protobuf 3.21 keeps `bytes` as std::string). Four messages per handler call here.
    {"protobuf-arena", 4000, "protobuf 3.21 keeps bytes fields as std::string, even on an arena"},
};

template <class C>
class CodecAllocations : public ::testing::Test {};
template <class L>
struct ToTypes;
template <class... Cs>
struct ToTypes<record::CodecList<Cs...>> {
  using type = ::testing::Types<Cs...>;
};
using AllCodecs = ToTypes<record::AvailableCodecs>::type;
TYPED_TEST_SUITE(CodecAllocations, AllCodecs);

TYPED_TEST(CodecAllocations, steady_state_allocates_nothing_or_its_documented_count) {
  const std::uint64_t got = allocs_per_1000_handler_calls<TypeParam>();
  for (const Expected& e : kExceptions)
    if (e.codec == TypeParam::kName) {
      if (!e.allocs) GTEST_SKIP() << TypeParam::kName << ": " << got << " per 1000, not asserted: " << e.why;
      EXPECT_EQ(got, *e.allocs) << e.why;
      return;
    }
  EXPECT_EQ(got, 0u) << TypeParam::kName;
}

TEST(record_allocations, zap_fresh_builder_allocates_only_its_buffer) {
  const micro::AllocCount before = micro::alloc_count();
  {
    zap::Builder b(128);
    record::ZapCodec::encode_response(b, record::sample_response());
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 1u);
}

}  // namespace
