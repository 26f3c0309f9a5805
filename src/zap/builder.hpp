// zap/builder.hpp — writes ZAP messages byte-identical to zap-proto/go v1.3.0's
// Builder for the same call sequence (zap-wire.md §9, §16 items 1–8).
// Owns one output buffer (its own, growable; or the caller's) plus scratch for
// pending tails; reset() reuses both, so steady-state building allocates nothing.
// Does not own layouts (schema.hpp) or framing (net).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "zap/schema.hpp"
#include "zap/wire.hpp"

namespace zap {

class Builder;
template <class S>
class RootWriter;

// Builds one struct. Obtained from Builder::start_object; valid until the
// builder is reset or destroyed. Setters follow Go's rules: scalars write at
// once; Text/Bytes copy the value and write it as a tail at finish(), in call
// order, wherever the cursor is then (which is what makes cpp_tail_then_list
// come out right).
class ObjectBuilder {
 public:
  void set_u8(std::uint32_t f, std::uint8_t v) { scalar(f, v); }
  void set_i8(std::uint32_t f, std::int8_t v) { scalar(f, v); }
  void set_bool(std::uint32_t f, bool v) { scalar(f, static_cast<std::uint8_t>(v ? 1 : 0)); }
  void set_u16(std::uint32_t f, std::uint16_t v) { scalar(f, v); }
  void set_i16(std::uint32_t f, std::int16_t v) { scalar(f, v); }
  void set_u32(std::uint32_t f, std::uint32_t v) { scalar(f, v); }
  void set_i32(std::uint32_t f, std::int32_t v) { scalar(f, v); }
  void set_u64(std::uint32_t f, std::uint64_t v) { scalar(f, v); }
  void set_i64(std::uint32_t f, std::int64_t v) { scalar(f, v); }
  void set_f32(std::uint32_t f, float v) { scalar(f, v); }
  void set_f64(std::uint32_t f, double v) { scalar(f, v); }

  // Empty is written as null (0, 0). The value is copied: the caller's buffer
  // may change before finish() without changing the output.
  void set_bytes(std::uint32_t f, Bytes v);
  void set_text(std::uint32_t f, std::string_view v) { set_bytes(f, as_bytes(v)); }
  // Copies v inline at F; an empty v writes nothing (Go's SetBytesFixed).
  void set_bytes_fixed(std::uint32_t f, Bytes v);
  // child_start: the absolute start of a finished child (0 writes null).
  void set_object(std::uint32_t f, std::uint32_t child_start);
  // A list start of 0 or a length of 0 writes null (0, 0).
  void set_list(std::uint32_t f, ListRef list);

  template <Type T, class V>
  void set(Field<T> field, const V& v) {
    if constexpr (T == Type::boolean)
      set_bool(field.offset, v);
    else if constexpr (T == Type::i32)
      set_i32(field.offset, v);
    else if constexpr (T == Type::u32)
      set_u32(field.offset, v);
    else if constexpr (T == Type::i64)
      set_i64(field.offset, v);
    else if constexpr (T == Type::u64)
      set_u64(field.offset, v);
    else if constexpr (T == Type::f64)
      set_f64(field.offset, v);
    else if constexpr (T == Type::text)
      set_text(field.offset, v);
    else if constexpr (T == Type::bytes)
      set_bytes(field.offset, v);
    else if constexpr (T == Type::list)
      set_list(field.offset, v);
    else
      set_object(field.offset, v);
  }

  // Appends the pending tails and returns the object's absolute start. Unlike
  // Go, a second finish() appends nothing (Go would write the tails again).
  std::uint32_t finish();
  // finish(), then records this object as the message root.
  std::uint32_t finish_as_root();

  [[nodiscard]] std::uint32_t start() const noexcept { return start_; }

 private:
  friend class Builder;
  ObjectBuilder(Builder* b, std::uint32_t start, std::uint32_t data_size, std::uint32_t serial) noexcept
      : b_(b), start_(start), data_size_(data_size), serial_(serial) {}
  template <class T>
  void scalar(std::uint32_t f, T v);

  static constexpr std::uint32_t kNoTail = 0xFFFFFFFFu;
  Builder* b_;
  std::uint32_t start_;
  std::uint32_t data_size_;
  std::uint32_t serial_;                // identifies this object as the builder's eager-tail owner
  std::uint32_t first_tail_ = kNoTail;  // chain through Builder::tails_
  std::uint32_t last_tail_ = kNoTail;
};

// Builds one list body. elem_size given to start_list is not used (as in Go):
// the reader supplies the stride.
class ListBuilder {
 public:
  void add_u8(std::uint8_t v) { add(v); }
  void add_u32(std::uint32_t v) { add(v); }
  void add_u64(std::uint64_t v) { add(v); }
  // Appends raw bytes and adds their *byte* count to the length (a byte run,
  // or pre-encoded inline structs — then pass the element count to set_list).
  void add_bytes(Bytes d);
  // Appends [u32 len][d] and adds one entry (a variable-element list).
  void add_object_bytes(Bytes d);

  [[nodiscard]] ListRef finish() const noexcept { return {start_, count_}; }
  [[nodiscard]] std::uint32_t finish_offset() const noexcept { return start_; }

 private:
  friend class Builder;
  ListBuilder(Builder* b, std::uint32_t start) noexcept : b_(b), start_(start) {}
  template <class T>
  void add(T v);
  Builder* b_;
  std::uint32_t start_;
  std::uint32_t count_ = 0;
};

namespace detail {
// A minimal append-only array of trivially copyable T with room for InlineN
// elements inside the object, so a fresh builder allocates nothing for them;
// clear() keeps the capacity.
template <class T, std::size_t InlineN>
class Growable {
 public:
  Growable() = default;
  Growable(const Growable&) = delete;
  Growable& operator=(const Growable&) = delete;

  // Appends n uninitialised elements and returns a pointer to the first.
  T* extend(std::size_t n) {
    if (size_ + n > cap_) grow(size_ + n);
    T* p = data_ + size_;
    size_ += n;
    return p;
  }
  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  void clear() noexcept { size_ = 0; }

 private:
  [[gnu::noinline]] void grow(std::size_t need) {
    const std::size_t cap = std::max(need, cap_ * 2);
    std::unique_ptr<T[]> next(new T[cap]);
    std::memcpy(next.get(), data_, size_ * sizeof(T));
    heap_ = std::move(next);
    data_ = heap_.get();
    cap_ = cap;
  }
  T inline_[InlineN];
  T* data_ = inline_;
  std::size_t cap_ = InlineN;
  std::size_t size_ = 0;
  std::unique_ptr<T[]> heap_;
};
}  // namespace detail

class Builder {
 public:
  static constexpr std::size_t kDefaultCapacityBytes = 256;

  // An owned, growable buffer. Capacity below the header becomes 256, as in Go;
  // it never changes the bytes produced. version: 1 as Go's NewBuilder, 2 as
  // NewBuilderV2.
  explicit Builder(std::size_t capacity_bytes = kDefaultCapacityBytes, std::uint16_t version = 1) {
    if (capacity_bytes < kHeaderBytes) capacity_bytes = kDefaultCapacityBytes;
    owned_.reset(new std::uint8_t[capacity_bytes]);
    buf_ = owned_.get();
    cap_ = capacity_bytes;
    init_header(version);
  }

  // Writes into the caller's buffer (which must outlive the builder). If a
  // message outgrows it, the builder moves to a heap buffer of its own and
  // spilled() turns true; the result is still correct, just not in place.
  Builder(std::span<std::uint8_t> buffer, std::uint16_t version = 1) {
    if (buffer.size() < kHeaderBytes) {  // not even the header fits: spilled from the start
      owned_.reset(new std::uint8_t[kDefaultCapacityBytes]);
      buf_ = owned_.get();
      cap_ = kDefaultCapacityBytes;
      spilled_ = true;
    } else {
      buf_ = buffer.data();
      cap_ = buffer.size();
    }
    init_header(version);
  }

  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // StartObject (§9.2.1): align to 8, then reserve and zero the whole fixed
  // section at once (the v0.3.0+ rule; later regions can never land inside it).
  ObjectBuilder start_object(std::uint32_t data_size_bytes) {
    align();
    const std::uint32_t start = static_cast<std::uint32_t>(pos_);
    ensure_end(pos_ + data_size_bytes);
    if (++serial_ == 0) serial_ = 1;  // 0 means "no eager owner"
    return ObjectBuilder{this, start, data_size_bytes, serial_};
  }

  ListBuilder start_list(std::uint32_t /*elem_size: unused, as in Go*/ = 0) {
    align();
    return ListBuilder{this, static_cast<std::uint32_t>(pos_)};
  }

  // Appends a blob at an 8-aligned offset and returns that absolute offset;
  // empty data returns 0 and writes nothing.
  std::uint32_t write_bytes(Bytes data) {
    if (data.empty()) return 0;
    align();
    const std::uint32_t at = static_cast<std::uint32_t>(pos_);
    append(data.data(), data.size());
    return at;
  }
  std::uint32_t write_text(std::string_view s) { return write_bytes(as_bytes(s)); }

  // Writes root and size into the header and returns the message: a view of
  // the builder's buffer, valid until the next write, reset or destruction.
  // The flags keep whatever they were (Go's Reset does not clear them either).
  Bytes finish() {
    settle();  // an unfinished object's tails are not part of the message (as in Go)
    detail::store_le<std::uint32_t>(buf_ + kRootAt, root_);
    detail::store_le<std::uint32_t>(buf_ + kSizeAt, static_cast<std::uint32_t>(pos_));
    return Bytes{buf_, pos_};
  }
  // Sets the flags (the transport puts a message type in the high byte) first.
  Bytes finish_with_flags(std::uint16_t flags) {
    detail::store_le<std::uint16_t>(buf_ + kFlagsAt, flags);
    return finish();
  }

  // Starts a new message in the same buffers: no allocation once they have
  // grown to the largest message built. Version and flags are kept (as Go).
  void reset() noexcept {
    pos_ = kHeaderBytes;
    root_ = 0;
    eager_owner_ = 0;
    tails_.clear();
    tail_bytes_.clear();
  }

  void set_version(std::uint16_t version) noexcept {
    detail::store_le<std::uint16_t>(buf_ + kVersionAt, version);
  }

  [[nodiscard]] std::size_t position() const noexcept { return pos_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return cap_; }
  // True once a caller-provided buffer was outgrown (see the constructor).
  [[nodiscard]] bool spilled() const noexcept { return spilled_; }

  // Eager tails (the default) write an object's Text/Bytes payloads straight to
  // the buffer and move them aside only if something else is written before
  // the object finishes; off, every tail is staged and appended at finish, as
  // Go does. Both produce the same bytes; the switch exists so the two can be
  // checked against each other (fuzz/zap_builder_fuzz.cpp).
  void set_eager_tails(bool on) {
    settle();
    eager_tails_ = on;
  }

 private:
  friend class ObjectBuilder;
  friend class ListBuilder;
  template <class S>
  friend class RootWriter;

  // Inline room for the pending tails of typical messages: tail records are
  // needed for every Text/Bytes field; staged bytes only when a region is
  // started before an object with eager tails finishes.
  static constexpr std::size_t kInlineTails = 8;
  static constexpr std::size_t kInlineTailBytes = 64;
  struct Tail {
    std::uint32_t slot_abs;  // absolute position of the Bytes/Text slot
    std::uint32_t at;        // eager: absolute position in buf_; staged: offset in tail_bytes_
    std::uint32_t len;
    std::uint32_t next;  // next tail of the same object, or kNoTail
  };

  // Where the next region goes: before any eager tails (they are not there yet
  // as far as Go's byte order is concerned).
  [[nodiscard]] std::size_t logical_end() const noexcept { return eager_owner_ != 0 ? eager_begin_ : pos_; }

  // Before anything but the eager owner's own tails is written at the end:
  // move the eager tails into staging, where finish() appends them later, so
  // the new region lands exactly where Go puts it.
  void settle() {
    if (eager_owner_ != 0) [[unlikely]]
      evict();
  }

  [[gnu::noinline]] void evict() {
    const std::size_t n = pos_ - eager_begin_;
    const auto base = static_cast<std::uint32_t>(tail_bytes_.size());
    std::memcpy(tail_bytes_.extend(n), buf_ + eager_begin_, n);
    for (std::uint32_t i = eager_first_; i != ObjectBuilder::kNoTail; i = tails_[i].next)
      tails_[i].at = base + (tails_[i].at - static_cast<std::uint32_t>(eager_begin_));
    pos_ = eager_begin_;
    eager_owner_ = 0;
  }

  void init_header(std::uint16_t version) noexcept {
    std::memcpy(buf_, kMagic, 4);
    detail::store_le<std::uint16_t>(buf_ + kVersionAt, version);
    detail::store_le<std::uint16_t>(buf_ + kFlagsAt, 0);
    std::memset(buf_ + kRootAt, 0, 8);
    pos_ = kHeaderBytes;
  }

  void reserve(std::size_t n) {
    if (pos_ + n > cap_) grow(pos_ + n);
  }

  // Out of line on purpose: the hot path only tests the capacity.
  [[gnu::noinline]] void grow(std::size_t need) {
    std::size_t cap = std::max(need, cap_ * 2);
    std::unique_ptr<std::uint8_t[]> next(new std::uint8_t[cap]);
    std::memcpy(next.get(), buf_, pos_);
    if (!owned_) spilled_ = true;
    owned_ = std::move(next);
    buf_ = owned_.get();
    cap_ = cap;
  }

  // ensureField (§9.1) in absolute terms: zero-fill [pos, end) if end > pos.
  void ensure_end(std::size_t end) {
    if (end <= logical_end()) return;
    settle();
    reserve(end - pos_);
    std::memset(buf_ + pos_, 0, end - pos_);
    pos_ = end;
  }

  void align() {
    settle();
    const std::size_t aligned = (pos_ + (kAlignBytes - 1)) & ~std::size_t{kAlignBytes - 1};
    ensure_end(aligned);
  }

  void append(const std::uint8_t* p, std::size_t n) {
    settle();
    reserve(n);
    detail::copy_bytes(buf_ + pos_, p, n);
    pos_ += n;
  }

  std::uint8_t* buf_ = nullptr;
  std::size_t cap_ = 0;
  std::size_t pos_ = kHeaderBytes;
  std::uint32_t root_ = 0;
  bool spilled_ = false;
  bool eager_tails_ = true;
  std::uint32_t serial_ = 0;       // of the last object started
  std::uint32_t eager_owner_ = 0;  // serial of the object whose tails sit at [eager_begin_, pos_)
  std::size_t eager_begin_ = 0;
  std::uint32_t eager_first_ = 0;  // its first tail record
  std::unique_ptr<std::uint8_t[]> owned_;
  // Pending tails of every open object, and copies of their bytes. Plain
  // arrays grown by doubling (never shrunk): the hot path is a compare and a
  // memcpy, with no per-message allocation once they reach the high-water mark.
  detail::Growable<Tail, kInlineTails> tails_;
  detail::Growable<std::uint8_t, kInlineTailBytes> tail_bytes_;
};

// ---- ObjectBuilder ---------------------------------------------------------

template <class T>
inline void ObjectBuilder::scalar(std::uint32_t f, T v) {
  const std::size_t at = std::size_t{start_} + f;
  b_->ensure_end(at + sizeof(T));  // a no-op inside the reserved fixed section
  detail::store_le<T>(b_->buf_ + at, v);
}

[[gnu::always_inline]] inline void ObjectBuilder::set_bytes(std::uint32_t f, Bytes v) {
  const std::size_t slot = std::size_t{start_} + f;
  b_->ensure_end(slot + 8);
  if (v.empty()) {
    detail::store_le<std::uint64_t>(b_->buf_ + slot, 0);
    return;
  }
  Builder& b = *b_;
  const auto index = static_cast<std::uint32_t>(b.tails_.size());
  const auto len = static_cast<std::uint32_t>(v.size());
  std::uint32_t at;
  // Eager only while this object's tails are all eager (or it has none yet):
  // staged tails must land before any later one.
  if (b.eager_owner_ == serial_ || (b.eager_owner_ == 0 && first_tail_ == kNoTail && b.eager_tails_)) {
    if (b.eager_owner_ == 0) {
      b.eager_owner_ = serial_;
      b.eager_begin_ = b.pos_;
      b.eager_first_ = index;
    }
    b.reserve(len);
    at = static_cast<std::uint32_t>(b.pos_);
    detail::copy_bytes(b.buf_ + at, v.data(), len);
    b.pos_ += len;
  } else {
    at = static_cast<std::uint32_t>(b.tail_bytes_.size());
    detail::copy_bytes(b.tail_bytes_.extend(len), v.data(), len);
  }
  *b.tails_.extend(1) = Builder::Tail{static_cast<std::uint32_t>(slot), at, len, kNoTail};
  if (last_tail_ == kNoTail)
    first_tail_ = index;
  else
    b_->tails_[last_tail_].next = index;
  last_tail_ = index;
  // len now; rel is patched when the tail lands (zero until then after the reserve)
  detail::store_le<std::uint32_t>(b_->buf_ + slot + 4, static_cast<std::uint32_t>(v.size()));
}

inline void ObjectBuilder::set_bytes_fixed(std::uint32_t f, Bytes v) {
  if (v.empty()) return;
  const std::size_t at = std::size_t{start_} + f;
  b_->ensure_end(at + v.size());
  std::memcpy(b_->buf_ + at, v.data(), v.size());
}

inline void ObjectBuilder::set_object(std::uint32_t f, std::uint32_t child_start) {
  const std::size_t slot = std::size_t{start_} + f;
  b_->ensure_end(slot + 4);
  const std::uint32_t rel = child_start == 0 ? 0 : child_start - static_cast<std::uint32_t>(slot);
  detail::store_le<std::uint32_t>(b_->buf_ + slot, rel);  // two's complement i32
}

inline void ObjectBuilder::set_list(std::uint32_t f, ListRef list) {
  const std::size_t slot = std::size_t{start_} + f;
  b_->ensure_end(slot + 8);
  if (list.start == 0 || list.length == 0) {
    detail::store_le<std::uint64_t>(b_->buf_ + slot, 0);
    return;
  }
  detail::store_le<std::uint32_t>(b_->buf_ + slot, list.start - static_cast<std::uint32_t>(slot));
  detail::store_le<std::uint32_t>(b_->buf_ + slot + 4, list.length);
}

inline std::uint32_t ObjectBuilder::finish() {
  Builder& b = *b_;
  b.ensure_end(std::size_t{start_} + data_size_);
  if (b.eager_owner_ == serial_) {
    // The tails already sit in call order at the end: only patch the rels.
    for (std::uint32_t i = first_tail_; i != kNoTail; i = b.tails_[i].next) {
      const Builder::Tail& t = b.tails_[i];
      detail::store_le<std::uint32_t>(b.buf_ + t.slot_abs, t.at - t.slot_abs);
    }
    b.eager_owner_ = 0;
  } else {
    for (std::uint32_t i = first_tail_; i != kNoTail;) {
      const Builder::Tail t = b.tails_[i];
      b.settle();  // another object's eager tails move aside: ours go first
      const auto at = static_cast<std::uint32_t>(b.pos_);
      b.append(b.tail_bytes_.data() + t.at, t.len);
      detail::store_le<std::uint32_t>(b.buf_ + t.slot_abs, at - t.slot_abs);
      i = t.next;
    }
  }
  first_tail_ = last_tail_ = kNoTail;
  return start_;
}

inline std::uint32_t ObjectBuilder::finish_as_root() {
  const std::uint32_t s = finish();
  b_->root_ = s;
  return s;
}

// ---- ListBuilder -----------------------------------------------------------

template <class T>
inline void ListBuilder::add(T v) {
  b_->settle();
  b_->reserve(sizeof(T));
  detail::store_le<T>(b_->buf_ + b_->pos_, v);
  b_->pos_ += sizeof(T);
  ++count_;
}

inline void ListBuilder::add_bytes(Bytes d) {
  b_->append(d.data(), d.size());
  count_ += static_cast<std::uint32_t>(d.size());
}

inline void ListBuilder::add_object_bytes(Bytes d) {
  add(static_cast<std::uint32_t>(d.size()));  // the prefix; add() counts the entry
  b_->append(d.data(), d.size());
}

}  // namespace zap
