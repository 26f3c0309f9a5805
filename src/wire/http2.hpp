// wire/http2.hpp — what the server and the loader share of HTTP/2 (h2c with
// prior knowledge, RFC 9113) on libnghttp2: the settings both sides announce
// (docs/spec/http2-grpc.md §1), the nghttp2 options that bound a hostile peer,
// and the allocator their sessions use. nghttp2 does the framing, HPACK and
// flow control on both sides; zapbench owns the glue (server/, load/).
//
// The allocator (MemPool) is nghttp2's nghttp2_mem over free lists by size
// class, owned by a thread and shared by the sessions of its connections: a
// block nghttp2 frees (a closed stream, a header it copied) is kept and given
// back at the next request of that size, so a warm thread allocates nothing
// per stream. Blocks above the largest class go to malloc and are counted.
#pragma once

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace wire::h2 {

// SETTINGS_MAX_CONCURRENT_STREAMS the server announces and the loader's
// ceiling on depth: ZAP-RPC's calls in flight per connection, so the two
// multiplexed framings are bounded alike.
inline constexpr std::uint32_t kMaxConcurrentStreams = 256;
// SETTINGS_INITIAL_WINDOW_SIZE both sides announce (a stream's window), and
// the connection window each raises at the start with a WINDOW_UPDATE on
// stream 0 to kConnectionWindowBytes. 16 MiB per stream holds every request
// and every answer of the rpc and hello scenarios many times over; the
// receiver consumes as it reads (nghttp2's automatic WINDOW_UPDATE once half a
// window is used), so a benchmark is never window-bound. The report says so.
inline constexpr std::int32_t kStreamWindowBytes = 16 * 1024 * 1024;
inline constexpr std::int32_t kConnectionWindowBytes = 0x7fffffff;  // the largest window HTTP/2 allows
// SETTINGS_MAX_HEADER_LIST_SIZE the server announces and enforces (the
// decoded header list of one request: names + values + 32 per field, RFC 9113
// §6.5.2): the HTTP/1.1 head's limit (server::Limits::max_header_bytes).
inline constexpr std::uint32_t kDefaultMaxHeaderListBytes = 8 * 1024;

// Hostile-peer bounds handed to nghttp2 (nghttp2_option_set_*), both sides.
inline constexpr std::size_t kMaxOutboundAcks = 1000;   // SETTINGS/PING ACKs queued unsent: past it, GOAWAY
inline constexpr std::size_t kMaxSettingsEntries = 32;  // entries in one SETTINGS frame
inline constexpr std::size_t kMaxContinuations = 8;     // CONTINUATION frames of one header block
// Streams a client may reset (or have reset) in a burst, refilled per second:
// the rapid-reset bound (CVE-2023-44487). Past it nghttp2 ends the connection
// with GOAWAY ENHANCE_YOUR_CALM.
inline constexpr std::uint64_t kStreamResetBurst = 1000;
inline constexpr std::uint64_t kStreamResetPerSecond = 100;

// nghttp2_mem over free lists by size class (see the file comment). Not
// thread-safe: one per thread, outliving every session made with it.
class MemPool {
 public:
  MemPool() {
    mem_.mem_user_data = this;
    mem_.malloc = [](std::size_t n, void* self) { return static_cast<MemPool*>(self)->allocate(n); };
    mem_.free = [](void* p, void* self) { static_cast<MemPool*>(self)->release(p); };
    mem_.calloc = [](std::size_t n, std::size_t size, void* self) {
      void* p = static_cast<MemPool*>(self)->allocate(n * size);
      if (p != nullptr) std::memset(p, 0, n * size);
      return p;
    };
    mem_.realloc = [](void* p, std::size_t n, void* self) {
      return static_cast<MemPool*>(self)->resize(p, n);
    };
  }
  MemPool(const MemPool&) = delete;
  MemPool& operator=(const MemPool&) = delete;
  ~MemPool() {
    for (Block*& head : free_)
      while (head != nullptr) {
        Block* next = head->next;
        std::free(head);
        head = next;
      }
  }

  // For nghttp2_session_*_new3 / nghttp2_hd_*_new2 (its `mem` argument).
  nghttp2_mem* mem() noexcept { return &mem_; }
  // Blocks taken from malloc so far (a class's first blocks, and every block
  // above the largest class): flat once the thread is warm.
  std::uint64_t system_allocations() const noexcept { return system_allocations_; }

 private:
  // Every block starts with its header; the caller gets the bytes after it,
  // aligned as malloc's.
  struct alignas(16) Block {
    union {
      Block* next;              // a class's block, on its free list
      std::size_t large_bytes;  // a large block's usable size
    };
    std::uint32_t klass;  // size class, or kLarge
  };
  static constexpr std::uint32_t kMinShift = 5;   // 32 B
  static constexpr std::uint32_t kMaxShift = 20;  // 1 MiB
  static constexpr std::uint32_t kClasses = kMaxShift - kMinShift + 1;
  static constexpr std::uint32_t kLarge = ~0u;

  // The smallest power of two ≥ total_bytes, by its bit width (no loop: this
  // runs for every block nghttp2 takes, several per request).
  static std::uint32_t class_of(std::size_t total_bytes) noexcept {
    const auto k =
        std::max<std::uint32_t>(kMinShift, static_cast<std::uint32_t>(std::bit_width(total_bytes - 1)));
    return k <= kMaxShift ? k - kMinShift : kLarge;
  }
  static std::size_t usable_bytes(const Block* b) noexcept {
    return b->klass == kLarge ? b->large_bytes : (std::size_t{1} << (b->klass + kMinShift)) - sizeof(Block);
  }

  void* allocate(std::size_t n) {
    const std::size_t total = n + sizeof(Block);
    const std::uint32_t k = class_of(total);
    Block* b;
    if (k != kLarge && free_[k] != nullptr) {
      b = free_[k];
      free_[k] = b->next;
    } else {
      b = static_cast<Block*>(std::malloc(k == kLarge ? total : std::size_t{1} << (k + kMinShift)));
      if (b == nullptr) return nullptr;
      ++system_allocations_;
      b->klass = k;
      if (k == kLarge) b->large_bytes = n;
    }
    return b + 1;
  }
  void release(void* p) noexcept {
    if (p == nullptr) return;
    Block* b = static_cast<Block*>(p) - 1;
    if (b->klass == kLarge) return std::free(b);
    b->next = free_[b->klass];
    free_[b->klass] = b;
  }
  void* resize(void* p, std::size_t n) {
    if (p == nullptr) return allocate(n);
    Block* b = static_cast<Block*>(p) - 1;
    if (n <= usable_bytes(b)) return p;
    void* q = allocate(n);
    if (q == nullptr) return nullptr;
    std::memcpy(q, p, usable_bytes(b));
    release(p);
    return q;
  }

  nghttp2_mem mem_{};
  std::array<Block*, kClasses> free_{};
  std::uint64_t system_allocations_ = 0;
};

}  // namespace wire::h2
