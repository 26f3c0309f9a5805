// zap/schema.hpp — compile-time struct layouts: the one authority for field
// offsets and fixed-section sizes, by the Go StructBuilder rules (zap-wire.md §9.5).
// Readers and builders take the typed Field handles it produces, so an offset
// is never written down twice and a field is never read as the wrong type.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "zap/wire.hpp"

namespace zap {

// The field types StructBuilder can lay out. Int8/Uint8/Int16/Uint16/Float32
// have no StructBuilder method in Go, so they are deliberately absent: a schema
// naming them does not compile (use explicit offsets on Object/ObjectBuilder).
enum class Type : std::uint8_t { boolean, i32, u32, i64, u64, f64, text, bytes, list, object };

// Position and length of a finished list, as SetList wants them.
struct ListRef {
  std::uint32_t start = 0;
  std::uint32_t length = 0;
};

// A typed field handle: the offset inside its object's fixed section.
template <Type T>
struct Field {
  std::uint32_t offset;
};

namespace detail {

struct Rule {
  std::uint32_t align_bytes;
  std::uint32_t width_bytes;
};

// zap-wire.md §9.5: Text/Bytes/List align to 4 (not 8); Bool not at all.
constexpr Rule struct_builder_rule(Type t) {
  switch (t) {
    case Type::boolean:
      return {1, 1};
    case Type::i32:
    case Type::u32:
      return {4, 4};
    case Type::i64:
    case Type::u64:
    case Type::f64:
      return {8, 8};
    case Type::text:
    case Type::bytes:
      return {4, 8};
    case Type::list:
      return {4, 8};
    case Type::object:
      return {4, 4};
  }
  return {1, 0};
}

constexpr std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return (v + a - 1) / a * a; }

template <std::size_t N>
struct Layout {
  std::array<std::uint32_t, N> offsets{};
  std::uint32_t size_bytes = 0;
};

template <Type... Ts>
constexpr Layout<sizeof...(Ts)> struct_builder_layout() {
  Layout<sizeof...(Ts)> out;
  constexpr Type types[] = {Ts...};
  std::uint32_t at = 0;
  for (std::size_t i = 0; i < sizeof...(Ts); ++i) {
    Rule r = struct_builder_rule(types[i]);
    at = round_up(at, r.align_bytes);
    out.offsets[i] = at;
    at += r.width_bytes;
  }
  out.size_bytes = round_up(at, kAlignBytes);  // Build() rounds the size to 8
  return out;
}

}  // namespace detail

// A struct schema: fields in declaration order, laid out as Go's
// NewStructBuilder(...).<Type>(...)...Build() would.
//   using Req = zap::Schema<zap::Type::u64, zap::Type::text>;
//   Req::size_bytes == 16; Req::field<1>.offset == 8
template <Type... Ts>
struct Schema {
  static_assert(sizeof...(Ts) > 0, "a schema needs at least one field");
  static constexpr std::size_t field_count = sizeof...(Ts);

 private:
  static constexpr auto layout_ = detail::struct_builder_layout<Ts...>();
  static constexpr Type types_[sizeof...(Ts)] = {Ts...};  // sized: clang 14 needs the bound

 public:
  static constexpr std::uint32_t size_bytes = layout_.size_bytes;

  template <std::size_t I>
  static constexpr Field<types_[I]> field{layout_.offsets[I]};
};

}  // namespace zap
