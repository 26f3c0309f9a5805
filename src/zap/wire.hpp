// zap/wire.hpp — the byte-level vocabulary of a ZAP message: header constants,
// parse errors and little-endian loads/stores. Owns no message logic; reader.hpp
// and builder.hpp build on it. Spec: ../shared/spec/zap-wire.md §1–2.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

namespace zap {

inline constexpr std::uint32_t kHeaderBytes = 16;
// Every region that must be aligned (objects, lists, blobs) is aligned to this,
// relative to the start of the message, not of the data segment.
inline constexpr std::uint32_t kAlignBytes = 8;
inline constexpr std::uint8_t kMagic[4] = {0x5a, 0x41, 0x50, 0x00};  // "ZAP\0"

// Header field offsets (zap-wire.md §2).
inline constexpr std::uint32_t kVersionAt = 4;
inline constexpr std::uint32_t kFlagsAt = 6;
inline constexpr std::uint32_t kRootAt = 8;
inline constexpr std::uint32_t kSizeAt = 12;

// A read-only view of bytes. A view with data() == nullptr is *null*; a view
// with a non-null data() and size() == 0 is *empty*. The reader keeps the two
// apart exactly where the Go reader does (zap-wire.md §16 item 13).
using Bytes = std::span<const std::uint8_t>;

// Text as the bytes it is made of (a view: no copy).
[[nodiscard]] inline Bytes as_bytes(std::string_view s) noexcept {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The only failures Parse reports; every accessor after Parse is total.
// The three kinds and their texts are the Go runtime's.
enum class Error : std::uint8_t {
  ok = 0,
  buffer_too_small,  // input < 16 bytes, or header size < 16 or > input
  invalid_magic,
  invalid_version,  // header version not 1 or 2
};

constexpr std::string_view describe(Error e) noexcept {
  switch (e) {
    case Error::ok:
      return "ok";
    case Error::buffer_too_small:
      return "zap: buffer too small";
    case Error::invalid_magic:
      return "zap: invalid magic bytes";
    case Error::invalid_version:
      return "zap: unsupported version";
  }
  return "zap: unknown error";
}

namespace detail {

// Fields are not naturally aligned on the wire (a u64 at offset 4 is legal), so
// every access goes through memcpy, which compiles to one unaligned move.
template <class T>
[[nodiscard]] inline T load_le(const std::uint8_t* p) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  U u;
  std::memcpy(&u, p, sizeof(U));
  if constexpr (std::endian::native == std::endian::big && sizeof(U) > 1) {
    if constexpr (sizeof(U) == 2) u = __builtin_bswap16(u);
    if constexpr (sizeof(U) == 4) u = __builtin_bswap32(u);
    if constexpr (sizeof(U) == 8) u = __builtin_bswap64(u);
  }
  return std::bit_cast<T>(u);
}

template <class T>
inline void store_le(std::uint8_t* p, T v) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  U u = std::bit_cast<U>(v);
  if constexpr (std::endian::native == std::endian::big && sizeof(U) > 1) {
    if constexpr (sizeof(U) == 2) u = __builtin_bswap16(u);
    if constexpr (sizeof(U) == 4) u = __builtin_bswap32(u);
    if constexpr (sizeof(U) == 8) u = __builtin_bswap64(u);
  }
  std::memcpy(p, &u, sizeof(U));
}

// Copies n bytes between buffers that do not overlap. Messages are small, so
// up to 128 bytes are moved inline, 16 at a time with the last move
// overlapping, instead of through a call to memcpy; larger copies use it.
inline void copy_bytes(std::uint8_t* dst, const std::uint8_t* src, std::size_t n) noexcept {
  if (n >= 16 && n <= 128) {
    for (std::size_t i = 0; i + 16 < n; i += 16) std::memcpy(dst + i, src + i, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8 && n < 16) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else {
    std::memcpy(dst, src, n);
  }
}

}  // namespace detail
}  // namespace zap
