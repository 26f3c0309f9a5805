// zap/root_writer.hpp — RootWriter<S>: the fast path for the commonest
// message, one root struct of schema S whose Text/Bytes tails follow its fixed
// section in the order they are set. The bytes are exactly Builder's for the
// same calls (start_object(S::size_bytes), the setters in the same order,
// finish_as_root(), finish()): tests/zap/zap_root_writer_test.cpp holds it to
// that, and the ZAP codec's fuzz target (fuzz/record_codec_fuzz.cpp) to the
// bytes of the limit codec, written by code of its own. What it saves is what a general
// builder must keep for structures it cannot see ahead (pending tail records,
// an eager owner, a capacity check per field): here the schema fixes every
// offset at compile time and the caller says the tails' size up front, so a
// message is one capacity check, the fixed section zeroed by constant-size
// stores, a store per field and a copy per tail. Writes into the builder's
// buffer (its own, or the caller's, spilling as Builder does).
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "zap/builder.hpp"

namespace zap {

template <class S>
class RootWriter {
 public:
  // Starts a message in b (reset first; its version and flags are kept, as
  // Builder::reset keeps them) with room for the fixed section and tail_bytes
  // of tails: the sum of the Text/Bytes values' lengths to be set. A larger
  // sum still comes out right, through a grow.
  RootWriter(Builder& b, std::size_t tail_bytes) : b_(b) {
    b.reset();
    b.reserve(S::size_bytes + tail_bytes);
    buf_ = b.buf_;
    cap_ = b.cap_;
    pos_ = kRoot + S::size_bytes;
    std::memset(buf_ + kRoot, 0, S::size_bytes);  // a constant size: a few stores
  }
  RootWriter(const RootWriter&) = delete;
  RootWriter& operator=(const RootWriter&) = delete;

  // Sets field F (a handle of S: record::ReqZap::id) to v. Scalars anywhere
  // in the fixed section; Text and Bytes append their tail now, as Builder's
  // eager tails do (empty is null, (0, 0)). Lists and nested objects need
  // regions of their own: Builder.
  template <auto F, class V>
  void set(const V& v) {
    constexpr Type t = type_of(F);
    static_assert(t != Type::list && t != Type::object, "RootWriter writes scalars, Text and Bytes only");
    constexpr std::uint32_t at = kRoot + F.offset;
    static_assert(F.offset + detail::struct_builder_rule(t).width_bytes <= S::size_bytes,
                  "the field is not in S's fixed section");
    if constexpr (t == Type::boolean)
      detail::store_le<std::uint8_t>(buf_ + at, v ? 1 : 0);
    else if constexpr (t == Type::i32)
      detail::store_le<std::int32_t>(buf_ + at, v);
    else if constexpr (t == Type::u32)
      detail::store_le<std::uint32_t>(buf_ + at, v);
    else if constexpr (t == Type::i64)
      detail::store_le<std::int64_t>(buf_ + at, v);
    else if constexpr (t == Type::u64)
      detail::store_le<std::uint64_t>(buf_ + at, v);
    else if constexpr (t == Type::f64)
      detail::store_le<double>(buf_ + at, v);
    else if constexpr (t == Type::text)
      tail(at, as_bytes(std::string_view(v)));
    else
      tail(at, Bytes(v));
  }

  // Records the root and the size in the header: the message, a view of the
  // builder's buffer (valid until its next write, reset or destruction).
  Bytes finish() {
    detail::store_le<std::uint32_t>(buf_ + kRootAt, kRoot);
    detail::store_le<std::uint32_t>(buf_ + kSizeAt, static_cast<std::uint32_t>(pos_));
    b_.pos_ = pos_;
    b_.root_ = kRoot;
    return Bytes{buf_, pos_};
  }

 private:
  static constexpr std::uint32_t kRoot = kHeaderBytes;  // start_object's aligned position after reset
  static_assert(kRoot % kAlignBytes == 0);

  template <Type T>
  static constexpr Type type_of(Field<T>) noexcept {
    return T;
  }

  void tail(std::uint32_t slot, Bytes v) {
    if (v.empty()) {
      detail::store_le<std::uint64_t>(buf_ + slot, 0);
      return;
    }
    if (pos_ + v.size() > cap_) [[unlikely]]
      grow(v.size());
    const auto at = static_cast<std::uint32_t>(pos_);
    detail::copy_bytes(buf_ + at, v.data(), v.size());
    pos_ += v.size();
    detail::store_le<std::uint32_t>(buf_ + slot, at - slot);
    detail::store_le<std::uint32_t>(buf_ + slot + 4, static_cast<std::uint32_t>(v.size()));
  }

  // The tails' sum was given too small: the builder grows (or spills) its buffer.
  [[gnu::noinline]] void grow(std::size_t n) {
    b_.pos_ = pos_;
    b_.reserve(n);
    buf_ = b_.buf_;
    cap_ = b_.cap_;
  }

  Builder& b_;
  // The builder's buffer, capacity and position, kept here while the message
  // is written: a byte store may alias anything, so through the builder each
  // would be reloaded after every store; a local writer's copies stay in
  // registers. The builder has them back at finish().
  std::uint8_t* buf_;
  std::size_t cap_;
  std::size_t pos_;
};

}  // namespace zap
