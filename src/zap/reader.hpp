// zap/reader.hpp — zero-copy views over a ZAP message: Message (the parsed
// header), Object (a struct's fixed section) and List. Implements every reader
// rule of zap-wire.md §10 exactly as the hardened Go reader (v1.1.1+, v1.3.0):
// Message::parse is the only call that fails; every accessor is total and returns
// the zero value of its type on any bound failure.
//
// Lifetime: every view (Bytes, text, Object, List) aliases the caller's buffer.
// The buffer must outlive the views and must not change while they exist.
#pragma once

#include <cstdint>
#include <string_view>

#include "zap/schema.hpp"
#include "zap/wire.hpp"

namespace zap {

class List;
class Message;

// A struct at an absolute offset of a message. A default-constructed Object is
// the null object: every read on it returns zero (Go would panic; §16 item 12).
// Object offsets are absolute within the message it came from (for objects from
// List::object_at, within that sub-message).
class Object {
 public:
  constexpr Object() noexcept = default;

  // Go's IsNull: offset 0. A root offset of 0 (no FinishAsRoot) is null too,
  // yet reads on it still read header bytes, exactly as Go does.
  [[nodiscard]] constexpr bool is_null() const noexcept { return offset_ == 0; }
  [[nodiscard]] constexpr std::uint32_t offset() const noexcept { return offset_; }

  // Scalars at field offset F (bytes into the fixed section): zero when the read
  // would pass the message size.
  [[nodiscard]] std::uint8_t u8(std::uint32_t f) const noexcept { return scalar<std::uint8_t>(f); }
  [[nodiscard]] std::int8_t i8(std::uint32_t f) const noexcept { return scalar<std::int8_t>(f); }
  [[nodiscard]] bool boolean(std::uint32_t f) const noexcept { return scalar<std::uint8_t>(f) != 0; }
  [[nodiscard]] std::uint16_t u16(std::uint32_t f) const noexcept { return scalar<std::uint16_t>(f); }
  [[nodiscard]] std::int16_t i16(std::uint32_t f) const noexcept { return scalar<std::int16_t>(f); }
  [[nodiscard]] std::uint32_t u32(std::uint32_t f) const noexcept { return scalar<std::uint32_t>(f); }
  [[nodiscard]] std::int32_t i32(std::uint32_t f) const noexcept { return scalar<std::int32_t>(f); }
  [[nodiscard]] std::uint64_t u64(std::uint32_t f) const noexcept { return scalar<std::uint64_t>(f); }
  [[nodiscard]] std::int64_t i64(std::uint32_t f) const noexcept { return scalar<std::int64_t>(f); }
  [[nodiscard]] float f32(std::uint32_t f) const noexcept { return scalar<float>(f); }
  [[nodiscard]] double f64(std::uint32_t f) const noexcept { return scalar<double>(f); }

  // A Bytes slot (§10.3): null on rel 0, on a target in the header, or past size.
  // Non-null and empty when rel != 0 and len == 0 within bounds.
  [[nodiscard]] Bytes bytes(std::uint32_t f) const noexcept {
    const std::uint64_t pos = std::uint64_t{offset_} + f;
    if (pos + 8 > size_) return {};  // (a) and (c) together: rel and len both fit
    const std::uint32_t rel = detail::load_le<std::uint32_t>(base_ + pos);
    if (rel == 0) return {};
    const std::uint32_t len = detail::load_le<std::uint32_t>(base_ + pos + 4);
    const std::uint64_t abs = pos + rel;  // rel is unsigned: Bytes only point forward
    if (abs < kHeaderBytes || abs + len > size_) return {};
    return Bytes{base_ + abs, len};
  }

  // Text is Bytes read as characters; null and empty both read as "".
  [[nodiscard]] std::string_view text(std::uint32_t f) const noexcept {
    Bytes b = bytes(f);
    if (b.empty()) return {};
    return {reinterpret_cast<const char*>(b.data()), b.size()};
  }

  // An inline byte array of n bytes at F (§8): null when n == 0 or it overruns.
  [[nodiscard]] Bytes bytes_fixed(std::uint32_t f, std::uint32_t n) const noexcept {
    const std::uint64_t pos = std::uint64_t{offset_} + f;
    if (n == 0 || pos + n > size_) return {};
    return Bytes{base_ + pos, n};
  }

  // A nested struct (§6, §10.3): signed rel; null on 0, into the header, or >= size.
  [[nodiscard]] Object object(std::uint32_t f) const noexcept {
    const std::uint64_t pos = std::uint64_t{offset_} + f;
    if (pos + 4 > size_) return {};
    const std::int32_t rel = detail::load_le<std::int32_t>(base_ + pos);
    if (rel == 0) return {};
    const std::int64_t abs = static_cast<std::int64_t>(pos) + rel;
    if (abs < kHeaderBytes || abs >= static_cast<std::int64_t>(size_)) return {};
    return Object{base_, size_, static_cast<std::uint32_t>(abs)};
  }

  [[nodiscard]] List list(std::uint32_t f) const noexcept;

  // Typed reads through a schema's Field handle.
  template <Type T>
  [[nodiscard]] auto get(Field<T> field) const noexcept {
    if constexpr (T == Type::boolean)
      return boolean(field.offset);
    else if constexpr (T == Type::i32)
      return i32(field.offset);
    else if constexpr (T == Type::u32)
      return u32(field.offset);
    else if constexpr (T == Type::i64)
      return i64(field.offset);
    else if constexpr (T == Type::u64)
      return u64(field.offset);
    else if constexpr (T == Type::f64)
      return f64(field.offset);
    else if constexpr (T == Type::text)
      return text(field.offset);
    else if constexpr (T == Type::bytes)
      return bytes(field.offset);
    else if constexpr (T == Type::list)
      return list(field.offset);
    else
      return object(field.offset);
  }

 private:
  friend class List;
  friend class Message;
  constexpr Object(const std::uint8_t* base, std::uint32_t size, std::uint32_t offset) noexcept
      : base_(base), size_(size), offset_(offset) {}

  template <class T>
  [[nodiscard]] T scalar(std::uint32_t f) const noexcept {
    const std::uint64_t pos = std::uint64_t{offset_} + f;
    if (pos + sizeof(T) > size_) return T{};
    return detail::load_le<T>(base_ + pos);
  }

  // A null Object has base_ == nullptr and size_ == 0, so every bound check
  // fails before a dereference: no separate null branch on the read path.
  const std::uint8_t* base_ = nullptr;
  std::uint32_t size_ = 0;
  std::uint32_t offset_ = 0;
};

class Message {
 public:
  struct Parsed;

  constexpr Message() noexcept = default;

  // Parse (§10.1): four checks in Go's order, first failure wins. On success the
  // message is data[0, size): trailing bytes are invisible to every accessor.
  // Nothing else is validated up front; accessors check as they read.
  [[nodiscard]] static Parsed parse(Bytes data) noexcept;

  // The root object, unchecked, as Go's Root(): a root >= size reads as zeros.
  [[nodiscard]] Object root() const noexcept { return Object{base_, size_, root_offset()}; }

  [[nodiscard]] std::uint16_t version() const noexcept { return header<std::uint16_t>(kVersionAt); }
  [[nodiscard]] std::uint16_t flags() const noexcept { return header<std::uint16_t>(kFlagsAt); }
  // The transport's message type lives in the high byte of the flags.
  [[nodiscard]] std::uint8_t msg_type() const noexcept { return static_cast<std::uint8_t>(flags() >> 8); }
  [[nodiscard]] std::uint32_t root_offset() const noexcept { return header<std::uint32_t>(kRootAt); }
  [[nodiscard]] std::uint32_t size() const noexcept { return size_; }
  [[nodiscard]] Bytes bytes() const noexcept { return Bytes{base_, size_}; }

 private:
  constexpr Message(const std::uint8_t* base, std::uint32_t size) noexcept : base_(base), size_(size) {}
  template <class T>
  [[nodiscard]] T header(std::uint32_t at) const noexcept {
    return base_ == nullptr ? T{} : detail::load_le<T>(base_ + at);
  }
  const std::uint8_t* base_ = nullptr;
  std::uint32_t size_ = 0;
};

struct Message::Parsed {
  Message message;
  Error error = Error::buffer_too_small;
  [[nodiscard]] bool ok() const noexcept { return error == Error::ok; }
};

inline Message::Parsed Message::parse(Bytes data) noexcept {
  if (data.size() < kHeaderBytes) return {{}, Error::buffer_too_small};
  const std::uint8_t* p = data.data();
  // One 32-bit compare instead of four byte compares.
  if (detail::load_le<std::uint32_t>(p) != detail::load_le<std::uint32_t>(kMagic))
    return {{}, Error::invalid_magic};
  const std::uint16_t version = detail::load_le<std::uint16_t>(p + kVersionAt);
  if (version != 1 && version != 2) return {{}, Error::invalid_version};
  const std::uint32_t size = detail::load_le<std::uint32_t>(p + kSizeAt);
  if (size < kHeaderBytes || size > data.size()) return {{}, Error::buffer_too_small};
  return {Message{p, size}, Error::ok};
}

// A list body at absolute offset A with length L (§7, §10.4). The element
// stride is not on the wire: the accessor supplies it. A default List is null.
class List {
 public:
  constexpr List() noexcept = default;

  [[nodiscard]] constexpr bool is_null() const noexcept { return base_ == nullptr; }
  // Element count, or byte count for a byte run (what the wire's len says).
  [[nodiscard]] constexpr std::uint32_t len() const noexcept { return len_; }
  [[nodiscard]] constexpr std::uint32_t offset() const noexcept { return abs_; }

  [[nodiscard]] std::uint8_t u8(std::uint32_t i) const noexcept { return element<std::uint8_t>(i); }
  [[nodiscard]] std::uint32_t u32(std::uint32_t i) const noexcept { return element<std::uint32_t>(i); }
  [[nodiscard]] std::uint64_t u64(std::uint32_t i) const noexcept { return element<std::uint64_t>(i); }

  // Inline struct i of stride_bytes (§10.4): no further check, as in Go; an
  // element beyond the message reads as zeros (its offset is clamped to size so
  // that offset arithmetic cannot wrap, which changes no read).
  [[nodiscard]] Object object(std::uint32_t i, std::uint32_t stride_bytes) const noexcept {
    if (i >= len_) return {};
    const std::uint64_t pos = abs_ + std::uint64_t{i} * stride_bytes;
    return Object{base_, size_, pos >= size_ ? size_ : static_cast<std::uint32_t>(pos)};
  }

  // The whole body as a byte run of len() bytes, or null if it overruns.
  [[nodiscard]] Bytes bytes() const noexcept {
    if (base_ == nullptr || std::uint64_t{abs_} + len_ > size_) return {};
    return Bytes{base_ + abs_, len_};
  }

  // Length-prefixed entries (§7.3). bytes_at/object_at walk from the first entry
  // (O(i)); each_bytes/each walk once. An empty entry is a non-null empty view.
  [[nodiscard]] Bytes bytes_at(std::uint32_t i) const noexcept {
    if (base_ == nullptr || i >= len_) return {};
    std::uint64_t p = abs_;
    for (std::uint32_t k = 0; k < i; ++k) {
      if (p + 4 > size_) return {};
      p += 4 + std::uint64_t{detail::load_le<std::uint32_t>(base_ + p)};
    }
    return entry_at(p);
  }

  // Entry i parsed as a complete sub-message (full Parse rules); its root, or a
  // null Object if the entry is missing or does not parse.
  [[nodiscard]] Object object_at(std::uint32_t i) const noexcept { return sub_root(bytes_at(i)); }

  // fn(Bytes) -> bool (false stops). Stops silently at the first entry whose
  // prefix or payload would pass size.
  template <class Fn>
  void each_bytes(Fn&& fn) const {
    if (base_ == nullptr) return;
    std::uint64_t p = abs_;
    for (std::uint32_t k = 0; k < len_; ++k) {
      Bytes b = entry_at(p);
      if (b.data() == nullptr) return;
      if (!fn(b)) return;
      p += 4 + b.size();
    }
  }

  // fn(Object) -> bool. An entry that fails Parse yields a null Object and the
  // walk still advances by its length, as Go's Each does.
  template <class Fn>
  void each(Fn&& fn) const {
    each_bytes([&](Bytes b) { return fn(sub_root(b)); });
  }

 private:
  friend class Object;
  constexpr List(const std::uint8_t* base, std::uint32_t size, std::uint32_t abs, std::uint32_t len) noexcept
      : base_(base), size_(size), abs_(abs), len_(len) {}

  template <class T>
  [[nodiscard]] T element(std::uint32_t i) const noexcept {
    if (i >= len_) return T{};
    const std::uint64_t pos = abs_ + std::uint64_t{i} * sizeof(T);
    if (pos + sizeof(T) > size_) return T{};
    return detail::load_le<T>(base_ + pos);
  }

  [[nodiscard]] Bytes entry_at(std::uint64_t p) const noexcept {
    if (p + 4 > size_) return {};
    const std::uint64_t start = p + 4;
    const std::uint64_t end = start + detail::load_le<std::uint32_t>(base_ + p);
    if (end > size_) return {};
    return Bytes{base_ + start, static_cast<std::size_t>(end - start)};
  }

  [[nodiscard]] static Object sub_root(Bytes entry) noexcept {
    if (entry.data() == nullptr) return {};
    Message::Parsed sub = Message::parse(entry);
    if (!sub.ok()) return {};
    return sub.message.root();
  }

  const std::uint8_t* base_ = nullptr;
  std::uint32_t size_ = 0;
  std::uint32_t abs_ = 0;
  std::uint32_t len_ = 0;
};

inline List Object::list(std::uint32_t f) const noexcept {
  const std::uint64_t pos = std::uint64_t{offset_} + f;
  if (pos + 8 > size_) return {};
  const std::int32_t rel = detail::load_le<std::int32_t>(base_ + pos);
  if (rel == 0) return {};
  const std::uint32_t len = detail::load_le<std::uint32_t>(base_ + pos + 4);
  if (len > size_) return {};  // the length clamp: len <= size, not len*stride
  const std::int64_t abs = static_cast<std::int64_t>(pos) + rel;
  if (abs < kHeaderBytes || abs >= static_cast<std::int64_t>(size_)) return {};
  return List{base_, size_, static_cast<std::uint32_t>(abs), len};
}

}  // namespace zap
