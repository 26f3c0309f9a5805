// tests/record/record_alloc_test.cpp — steady state allocates nothing where the
// project controls the code: the ZAP codec's handler and round trip, the
// direct JSON codec, and the library codecs that reach 0 (thrift). Counted with the benchmarks' replaced
// operator new (an allocation count is behaviour, not timing). Other libraries' counts are measured by
// `zapbench micro`, not asserted here.
#include <gtest/gtest.h>

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

TEST(record_allocations, zap_handler_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::ZapCodec>(), 0u);
}

TEST(record_allocations, direct_json_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::DirectCodec>(), 0u);
}

#if ZAPBENCH_HAVE_PROTOBUF
TEST(record_allocations, protobuf_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::ProtobufCodec>(), 0u);
}
#endif

#if ZAPBENCH_HAVE_PROTOBUF_ARENA
// The arena mallocs nothing (its block is the codec's); each message built on
// it allocates once: its byte field's std::string holds 20 or 32 characters,
// past the small-string buffer, from std::allocator (protobuf 3.21 keeps
// `bytes` as std::string). Four messages per handler call here.
TEST(record_allocations, protobuf_arena_allocates_only_the_byte_fields_characters) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::ProtobufArenaCodec>(), 4000u);
}
#endif

#if ZAPBENCH_HAVE_MSGPACK
// msgpack: a reused msgpack::parser per direction (its buffer and container stack kept) and one
// sbuffer per direction, clear()ed.
TEST(record_allocations, msgpack_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::MsgpackCodec>(), 0u);
}
#endif

#if ZAPBENCH_HAVE_CAPNP
TEST(record_allocations, capnp_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::CapnpCodec>(), 0u);
}
#endif

#if ZAPBENCH_HAVE_CAPNP_PACKED
TEST(record_allocations, capnp_packed_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::CapnpPackedCodec>(), 0u);
}
#endif

#if ZAPBENCH_HAVE_FLATBUFFERS
// Both FlatBuffers rows: a builder per direction, Clear()ed (it keeps its
// buffer), and decoding in place on the (aligned) input.
TEST(record_allocations, flatbuffers_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::FlatbuffersCodec>(), 0u);
}
#endif
#if ZAPBENCH_HAVE_FLATBUFFERS_TRUSTED
TEST(record_allocations, flatbuffers_trusted_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::FlatbuffersTrustedCodec>(), 0u);
}
#endif

#if ZAPBENCH_HAVE_THRIFT
// Thrift: reused generated structs (their strings keep their capacity), owned output buffers rewound with
// resetBuffer(), and an input transport that observes the input without TMemoryBuffer::resetBuffer's
// per-call TConfiguration.
TEST(record_allocations, thrift_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::ThriftCodec>(), 0u);
}
#endif
#if ZAPBENCH_HAVE_THRIFT_BINARY
TEST(record_allocations, thrift_binary_allocates_nothing_in_steady_state) {
  EXPECT_EQ(allocs_per_1000_handler_calls<record::ThriftBinaryCodec>(), 0u);
}
#endif

TEST(record_allocations, zap_fresh_builder_allocates_only_its_buffer) {
  const micro::AllocCount before = micro::alloc_count();
  {
    zap::Builder b(128);
    record::ZapCodec::encode_response(b, record::sample_response());
  }
  EXPECT_EQ(micro::alloc_count().allocs - before.allocs, 1u);
}

}  // namespace
