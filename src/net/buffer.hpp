// net/buffer.hpp — the byte buffer a connection owns for input or output: a
// contiguous region with a read cursor and a write cursor, grown by doubling
// up to a limit and reused while the connection is active (no per-request
// allocation in steady state). The region is taken at the first write, not
// at construction, and given back by release() once the buffer is empty: an
// idle connection (100,000 held open, the c100k scenario) owns no region at
// all, only the few words below. It always keeps record::kInputPaddingBytes of
// slack after the written bytes, so a body can be handed to any decoder in
// place (simdjson reads up to 64 bytes past the end).
//
// While pinned (pin(): a send the kernel may still be reading is in flight
// on the unread bytes, net/uring_loop.hpp), no byte moves: making room
// allocates a new region instead of compacting, and keeps the region the
// send reads from until unpin().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace net {

class Buffer {
 public:
  static constexpr std::size_t kPaddingBytes = 64;  // == record::kInputPaddingBytes

  // No region yet: the first prepare() takes one of initial_bytes (or more).
  explicit Buffer(std::size_t initial_bytes = 16 * 1024) : initial_(initial_bytes) {}

  // The unread bytes [read, write).
  [[nodiscard]] std::span<const std::uint8_t> readable() const noexcept {
    return {data_.get() + r_, w_ - r_};
  }
  [[nodiscard]] std::string_view readable_text() const noexcept {
    return {reinterpret_cast<const char*>(data_.get() + r_), w_ - r_};
  }
  [[nodiscard]] std::size_t size() const noexcept { return w_ - r_; }
  [[nodiscard]] bool empty() const noexcept { return w_ == r_; }
  void consume(std::size_t n) noexcept {
    r_ += n;
    if (r_ == w_) r_ = w_ = 0;  // cheap reset keeps the common case at offset 0
  }
  void clear() noexcept { r_ = w_ = 0; }

  // Room to write at least n bytes at the end (compacting or growing first);
  // returns where to write. Call commit(k) for the k bytes written.
  std::uint8_t* prepare(std::size_t n) {
    if (cap_ - w_ < n) make_room(n);
    return data_.get() + w_;
  }
  [[nodiscard]] std::size_t writable() const noexcept { return cap_ - w_; }
  void commit(std::size_t n) noexcept { w_ += n; }

  void append(const void* p, std::size_t n) {
    if (n == 0) return;  // a buffer with no region yet has no address to copy nothing to
    std::memcpy(prepare(n), p, n);
    commit(n);
  }
  void append(std::string_view s) { append(s.data(), s.size()); }

  // 0 while the buffer has no region (before its first write, after release()).
  [[nodiscard]] std::size_t capacity() const noexcept { return cap_; }

  // Gives the region back when nothing is in it and no send reads it: the
  // connection is idle (the worker's tick). The next prepare() takes a new
  // one. True when a region was given back.
  bool release() noexcept {
    if (data_ == nullptr || !empty() || pinned_) return false;
    data_.reset();
    cap_ = 0;
    r_ = w_ = 0;
    return true;
  }

  // The unread bytes are being read by the kernel (one send in flight): they
  // stay where they are until unpin(). Appending still works.
  void pin() noexcept { pinned_ = true; }
  void unpin() noexcept {
    pinned_ = false;
    retired_.reset();
  }
  [[nodiscard]] bool pinned() const noexcept { return pinned_; }
  // The unread bytes to the front, so the room after them is the whole rest
  // (not while pinned).
  void compact() noexcept {
    if (r_ == 0 || pinned_) return;
    std::memmove(data_.get(), data_.get() + r_, w_ - r_);
    w_ -= r_;
    r_ = 0;
  }

 private:
  // Not zero-filled: an idle connection's buffers stay untouched pages, not
  // resident memory (10,000 connections: ~33 KiB each when zeroed). Readers
  // may look up to kPaddingBytes past the unread bytes (SIMD scans) but never
  // act on what they see there; the padding past the capacity is zeroed so
  // even a full buffer has defined bytes behind it.
  static std::unique_ptr<std::uint8_t[]> allocate(std::size_t cap) {
    std::unique_ptr<std::uint8_t[]> p(new std::uint8_t[cap + kPaddingBytes]);
    std::memset(p.get() + cap, 0, kPaddingBytes);
    return p;
  }

  [[gnu::noinline]] void make_room(std::size_t n) {
    const std::size_t live = w_ - r_;
    if (data_ == nullptr) {  // the first write (or the first since release()): live is 0
      cap_ = std::max(initial_, n);
      data_ = allocate(cap_);
    } else if (pinned_) {  // a send reads the unread bytes where they are: a new region, the old kept
      const std::size_t cap = cap_ - live >= n ? cap_ : std::max(cap_ * 2, live + n);
      std::unique_ptr<std::uint8_t[]> next = allocate(cap);
      std::memcpy(next.get(), data_.get() + r_, live);
      if (!retired_) retired_ = std::move(data_);  // the send's region (a later one is nobody's)
      data_ = std::move(next);
      cap_ = cap;
    } else if (r_ != 0 && cap_ - live >= n) {  // compact: move the unread bytes to the front
      std::memmove(data_.get(), data_.get() + r_, live);
    } else {
      const std::size_t cap = std::max(cap_ * 2, live + n);
      std::unique_ptr<std::uint8_t[]> next = allocate(cap);
      std::memcpy(next.get(), data_.get() + r_, live);
      data_ = std::move(next);
      cap_ = cap;
    }
    r_ = 0;
    w_ = live;
  }

  std::unique_ptr<std::uint8_t[]> data_;  // null until the first write, and after release()
  std::size_t cap_ = 0;
  std::size_t initial_;
  std::size_t r_ = 0;
  std::size_t w_ = 0;
  std::unique_ptr<std::uint8_t[]> retired_;  // the region a pinned send reads, after a move
  bool pinned_ = false;
};

}  // namespace net
