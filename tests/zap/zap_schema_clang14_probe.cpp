// tests/zap/zap_schema_clang14_probe.cpp — a compile-only check (no GoogleTest): the
// schema layouts of zap-wire.md §9.5, read through Schema::field<I>, must also
// compile with clang 14, the compiler of the `fuzz` preset. Run by ctest as
// zap_schema.compiles_with_clang14 (clang++-14 -fsyntax-only on this file).
#include <string_view>

#include "zap/zap.hpp"

namespace {

using T = zap::Type;
using EthCallReq = zap::Schema<T::u64, T::u64, T::text, T::bytes>;
using TestSchema = zap::Schema<T::u32, T::text, T::i32, T::boolean>;

static_assert(EthCallReq::size_bytes == 32);
static_assert(EthCallReq::field<2>.offset == 16);
static_assert(EthCallReq::field<3>.offset == 24);
static_assert(TestSchema::size_bytes == 24);
static_assert(TestSchema::field<1>.offset == 4);
static_assert(TestSchema::field<3>.offset == 16);

[[maybe_unused]] std::string_view read_name(const zap::Object& o) { return o.get(TestSchema::field<1>); }

}  // namespace
