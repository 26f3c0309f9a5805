// fuzz/zap_walk.hpp — the shared reader walk of the fuzz targets: parses one input with zap::Message::parse,
// calls every accessor (depth- and work-bounded) and checks each result against an independent byte-level
// model of zap-wire.md §10, trapping on any mismatch. Used by zap_reader_fuzz and zap_bitflip_sweep.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>
#include <utility>

#include "zap/zap.hpp"

// Harness-only code (the byte model, equality checks) is kept out of line and out of SanitizerCoverage:
// its comparisons are no signal for libFuzzer and tracing them cost over half the run time. The reader's
// own code is never marked, so its coverage and comparison tracing stay intact.
#define ZAPFUZZ_HARNESS [[gnu::noinline]] __attribute__((no_sanitize("coverage")))

// Every invariant goes through this: print what failed, then __builtin_trap (libFuzzer and the sweep both
// report the trap as a crash and keep the input).
#define ZAPFUZZ_CHECK(cond)                       \
  do {                                            \
    if (!(cond)) [[unlikely]]                     \
      ::zapfuzz::fail(#cond, __FILE__, __LINE__); \
  } while (0)
#define ZAPFUZZ_EQ(a, b) ZAPFUZZ_CHECK(::zapfuzz::same((a), (b)))

namespace zapfuzz {

template <class A, class B>
ZAPFUZZ_HARNESS bool same(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && !std::is_same_v<A, bool> &&
                !std::is_same_v<B, bool>)
    return std::cmp_equal(a, b);
  else
    return a == b;
}

[[noreturn]] inline void fail(const char* what, const char* file, int line) {
  std::fprintf(stderr, "zapfuzz: invariant violated at %s:%d: %s\n", file, line, what);
  std::fflush(stderr);
  __builtin_trap();
}

// Everything read is folded into this, so no accessor call can be optimised away.
inline volatile std::uint64_t g_sink = 0;

// Work bounds per input. Each accessor is O(1) except bytes_at/object_at (O(i)) and the
// length-prefixed walks (O(entries)); those are capped below so one input stays cheap.
inline constexpr unsigned kMaxDepth = 4;             // nested objects / list elements below the root
inline constexpr unsigned kMaxObjects = 48;          // objects walked in total (root excluded)
inline constexpr unsigned kMaxLists = 24;            // lists walked in total
inline constexpr unsigned kChildrenPerObject = 4;    // nested objects followed per object
inline constexpr unsigned kListsPerObject = 4;       // lists followed per object
inline constexpr unsigned kLongWalks = 8;            // lists whose entries are modelled up to len()
inline constexpr std::uint32_t kEachCap = 64;        // entries visited by each_bytes / each
inline constexpr std::uint32_t kStoredEntries = 16;  // entries kept by the model for bytes_at(i)

// Field offsets tried for scalar reads (0..64 are always tried as well) and for pointer slots.
inline constexpr std::array<std::uint32_t, 8> kHugeOffsets = {
    0x7FFFFFF8u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFF0u, 0xFFFFFFF8u, 0xFFFFFFFCu, 0xFFFFFFFEu, 0xFFFFFFFFu};
// clang-format off
inline constexpr std::array<std::uint32_t, 30> kPointerOffsets = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64,
    100, 108, 156, 164,  // the capability vectors' list and sig slots
    0x7FFFFFFFu, 0xFFFFFFF0u, 0xFFFFFFFFu};
// clang-format on
inline constexpr std::array<std::uint32_t, 6> kFixedWidths = {0, 1, 4, 32, 0x80000000u, 0xFFFFFFFFu};
inline constexpr std::array<std::uint32_t, 8> kStrides = {0, 1, 4, 8, 16, 24, 0x80000000u, 0xFFFFFFFFu};

// The message (or length-prefixed sub-message) that the views of an object must lie in.
struct Ctx {
  const std::uint8_t* base = nullptr;
  std::uint32_t size = 0;
};

// Little-endian load of n <= 8 bytes, independent of the reader's own helpers.
ZAPFUZZ_HARNESS inline std::uint64_t le(const std::uint8_t* p, unsigned n) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

// What the model says an accessor returns: null, or [abs, abs + len) within the context.
struct Span {
  bool null = true;
  std::uint64_t abs = 0;
  std::uint64_t len = 0;
};

// Parse per §10.1, in Go's order.
ZAPFUZZ_HARNESS inline zap::Error model_parse(const std::uint8_t* p, std::size_t n, std::uint32_t* size_out) {
  if (n < 16) return zap::Error::buffer_too_small;
  if (p[0] != 0x5a || p[1] != 0x41 || p[2] != 0x50 || p[3] != 0x00) return zap::Error::invalid_magic;
  const std::uint64_t version = le(p + 4, 2);
  if (version != 1 && version != 2) return zap::Error::invalid_version;
  const std::uint64_t size = le(p + 12, 4);
  if (size < 16 || size > n) return zap::Error::buffer_too_small;
  if (size_out != nullptr) *size_out = static_cast<std::uint32_t>(size);
  return zap::Error::ok;
}

// Scalar of width w at pos (§10.3): zero past size.
ZAPFUZZ_HARNESS inline std::uint64_t model_scalar(const Ctx& c, std::uint64_t pos, unsigned w) {
  return pos + w > c.size ? 0 : le(c.base + pos, w);
}

// Bytes/Text slot at pos (§10.3): unsigned rel, rel 0 null, header floor, abs + len <= size.
ZAPFUZZ_HARNESS inline Span model_bytes(const Ctx& c, std::uint64_t pos) {
  if (pos + 4 > c.size) return {};
  const std::uint64_t rel = le(c.base + pos, 4);
  if (rel == 0 || pos + 8 > c.size) return {};
  const std::uint64_t len = le(c.base + pos + 4, 4);
  const std::uint64_t abs = pos + rel;
  if (abs < 16 || abs + len > c.size) return {};
  return {false, abs, len};
}

// Nested object slot at pos: signed rel, rel 0 null, 16 <= abs < size. len unused.
ZAPFUZZ_HARNESS inline Span model_object(const Ctx& c, std::uint64_t pos) {
  if (pos + 4 > c.size) return {};
  const auto rel = static_cast<std::int32_t>(static_cast<std::uint32_t>(le(c.base + pos, 4)));
  if (rel == 0) return {};
  const std::int64_t abs = static_cast<std::int64_t>(pos) + rel;
  if (abs < 16 || abs >= static_cast<std::int64_t>(c.size)) return {};
  return {false, static_cast<std::uint64_t>(abs), 0};
}

// List slot at pos: signed rel, rel 0 null, len <= size (the clamp), 16 <= abs < size.
ZAPFUZZ_HARNESS inline Span model_list(const Ctx& c, std::uint64_t pos) {
  if (pos + 8 > c.size) return {};
  const auto rel = static_cast<std::int32_t>(static_cast<std::uint32_t>(le(c.base + pos, 4)));
  if (rel == 0) return {};
  const std::uint64_t len = le(c.base + pos + 4, 4);
  if (len > c.size) return {};
  const std::int64_t abs = static_cast<std::int64_t>(pos) + rel;
  if (abs < 16 || abs >= static_cast<std::int64_t>(c.size)) return {};
  return {false, static_cast<std::uint64_t>(abs), len};
}

// The length-prefixed entries of a list (§7.3, §10.4), walked once up to `limit` entries.
struct Entries {
  std::uint32_t limit = 0;  // entries the model looked at: min(len, cap)
  std::uint32_t count = 0;  // valid entries in a row from the first
  std::array<Span, kStoredEntries> first{};
  Span last{};  // entry count - 1
  // Whether the model knows what bytes_at(i) returns.
  [[nodiscard]] bool known(std::uint32_t i, std::uint32_t len) const {
    return i >= len || i < count || count < limit;
  }
};

ZAPFUZZ_HARNESS inline Entries model_entries(const Ctx& c, std::uint64_t abs, std::uint32_t len,
                                             std::uint32_t cap) {
  Entries e;
  e.limit = std::min(len, cap);
  std::uint64_t p = abs;
  while (e.count < e.limit) {
    if (p + 4 > c.size) break;
    const std::uint64_t n = le(c.base + p, 4);
    const std::uint64_t end = p + 4 + n;
    if (end > c.size) break;
    const Span s{false, p + 4, n};
    if (e.count < kStoredEntries) e.first[e.count] = s;
    e.last = s;
    ++e.count;
    p = end;
  }
  return e;
}

// Entry i as bytes_at(i) must return it; only for known(i).
ZAPFUZZ_HARNESS inline Span model_entry(const Entries& e, std::uint32_t i) {
  if (i >= e.count) return {};
  if (i < kStoredEntries) return e.first[i];
  if (i == e.count - 1) return e.last;
  return {};  // not asked for (callers only ask small i and len - 1)
}

// Whether a view is exactly the model's span (null included).
ZAPFUZZ_HARNESS inline bool view_is(zap::Bytes b, const Ctx& c, const Span& want) {
  if (want.null) return b.data() == nullptr && b.size() == 0;
  return b.data() == c.base + want.abs && b.size() == want.len;
}

// Whether a non-null view lies in [c.base + floor, c.base + c.size); a null view must be empty.
ZAPFUZZ_HARNESS inline bool view_within(zap::Bytes b, const Ctx& c, std::uint32_t floor) {
  if (b.data() == nullptr) return b.size() == 0;
  return c.size >= floor && b.data() >= c.base + floor && b.size() <= c.size &&
         b.data() + b.size() <= c.base + c.size;
}

struct Stats {
  bool parsed = false;
  std::uint64_t checksum = 0;
};

class Walker {
 public:
  Stats run(const std::uint8_t* data, std::size_t size) {
    Stats st;
    std::uint32_t want_size = 0;
    const zap::Error want = model_parse(data, size, &want_size);
    const zap::Message::Parsed got = zap::Message::parse(zap::Bytes{data, size});
    ZAPFUZZ_EQ(got.error, want);
    ZAPFUZZ_EQ(got.ok(), want == zap::Error::ok);
    mix(static_cast<std::uint64_t>(got.error));
    mix(zap::describe(got.error).size());
    if (!got.ok()) {
      check_null_message(got.message);
      st.checksum = sum_;
      return st;
    }
    st.parsed = true;

    const zap::Message& m = got.message;
    ZAPFUZZ_EQ(m.size(), want_size);
    ZAPFUZZ_EQ(m.bytes().data(), data);
    ZAPFUZZ_EQ(m.bytes().size(), want_size);
    check_header(m, data);

    // The message is data[0, size): a copy one byte shorter never parses (its header still claims
    // `size`), and a copy of exactly `size` bytes parses the same.
    const std::uint32_t msz = m.size();
    {
      std::unique_ptr<std::uint8_t[]> shorter(new std::uint8_t[msz - 1]);
      std::memcpy(shorter.get(), data, msz - 1);
      const zap::Message::Parsed t = zap::Message::parse(zap::Bytes{shorter.get(), msz - 1});
      ZAPFUZZ_CHECK(!t.ok());
      ZAPFUZZ_EQ(t.error, zap::Error::buffer_too_small);
      ZAPFUZZ_EQ(t.message.size(), 0u);
    }
    // Walk the exact-size heap copy: a read at or past `size` (trailing input bytes included) then lands
    // in ASan's redzone instead of silently reading the caller's tail.
    std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[msz]);
    std::memcpy(exact.get(), data, msz);
    const zap::Message::Parsed e = zap::Message::parse(zap::Bytes{exact.get(), msz});
    ZAPFUZZ_CHECK(e.ok());
    ZAPFUZZ_EQ(e.message.size(), msz);
    check_header(e.message, exact.get());

    top_ = Ctx{exact.get(), msz};
    const zap::Object root = e.message.root();
    ZAPFUZZ_EQ(root.offset(), e.message.root_offset());
    ZAPFUZZ_EQ(root.is_null(), root.offset() == 0);
    walk_object(top_, root, 0);

    // Default-constructed views, once per input: zero and null everywhere.
    check_null_message(zap::Message{});
    check_null_object(zap::Object{}, true);
    check_null_list(zap::List{}, true);

    st.checksum = sum_;
    return st;
  }

 private:
  void mix(std::uint64_t v) { sum_ = (sum_ ^ v) * 0x100000001b3ull; }

  // A non-null view lies in its context and in the top-level message, at or above the header (`floor` is
  // false only for bytes_fixed, which may legally alias the header of a root < 16). Touches both ends.
  void check_view(const Ctx& c, zap::Bytes b, const Span& want, bool floor) {
    ZAPFUZZ_CHECK(view_is(b, c, want));
    ZAPFUZZ_CHECK(view_within(b, c, floor ? 16 : 0));
    ZAPFUZZ_CHECK(view_within(b, top_, floor ? 16 : 0));
    mix(b.size());
    if (!b.empty()) mix(std::uint64_t{b.front()} << 8 | b.back());
  }

  void check_header(const zap::Message& m, const std::uint8_t* data) {
    ZAPFUZZ_CHECK(m.size() >= 16);
    ZAPFUZZ_EQ(m.version(), le(data + 4, 2));
    ZAPFUZZ_CHECK(m.version() == 1 || m.version() == 2);
    ZAPFUZZ_EQ(m.flags(), le(data + 6, 2));
    ZAPFUZZ_EQ(m.msg_type(), data[7]);
    ZAPFUZZ_EQ(m.root_offset(), le(data + 8, 4));
    ZAPFUZZ_EQ(m.size(), le(data + 12, 4));
    mix(m.version());
    mix(m.flags());
    mix(m.root_offset());
    mix(m.size());
  }

  void check_null_message(const zap::Message& m) {
    ZAPFUZZ_EQ(m.size(), 0u);
    ZAPFUZZ_EQ(m.bytes().data(), nullptr);
    ZAPFUZZ_EQ(m.bytes().size(), 0u);
    ZAPFUZZ_EQ(m.version(), 0);
    ZAPFUZZ_EQ(m.flags(), 0);
    ZAPFUZZ_EQ(m.msg_type(), 0);
    ZAPFUZZ_EQ(m.root_offset(), 0u);
    check_null_object(m.root(), false);
  }

  // A null Object (failed lookup or default) reads zero, including at offset 0 where a real message has
  // the magic; that tells it apart from a root at offset 0. `full` also tries every accessor.
  void check_null_object(const zap::Object& o, bool full) {
    ZAPFUZZ_CHECK(o.is_null());
    ZAPFUZZ_EQ(o.offset(), 0u);
    ZAPFUZZ_EQ(o.u32(0), 0u);
    if (!full) return;
    for (std::uint32_t f : {0u, 4u, 8u, 0xFFFFFFFFu}) {
      ZAPFUZZ_EQ(o.u8(f), 0);
      ZAPFUZZ_EQ(o.u64(f), 0u);
      ZAPFUZZ_CHECK(!o.boolean(f));
      ZAPFUZZ_EQ(o.bytes(f).data(), nullptr);
      ZAPFUZZ_CHECK(o.text(f).empty());
      ZAPFUZZ_EQ(o.bytes_fixed(f, 1).data(), nullptr);
      ZAPFUZZ_CHECK(o.object(f).is_null());
      ZAPFUZZ_CHECK(o.list(f).is_null());
    }
  }

  void check_null_list(const zap::List& l, bool full) {
    ZAPFUZZ_CHECK(l.is_null());
    ZAPFUZZ_EQ(l.len(), 0u);
    ZAPFUZZ_EQ(l.bytes().data(), nullptr);
    if (!full) return;
    for (std::uint32_t i : {0u, 1u, 0xFFFFFFFFu}) {
      ZAPFUZZ_EQ(l.u8(i), 0);
      ZAPFUZZ_EQ(l.u32(i), 0u);
      ZAPFUZZ_EQ(l.u64(i), 0u);
      check_null_object(l.object(i, 8), false);
      ZAPFUZZ_EQ(l.bytes_at(i).data(), nullptr);
      check_null_object(l.object_at(i), false);
    }
    unsigned n = 0;
    l.each_bytes([&](zap::Bytes) { return ++n < 4; });
    l.each([&](zap::Object) { return ++n < 4; });
    ZAPFUZZ_EQ(n, 0u);
  }

  void check_scalars(const Ctx& c, const zap::Object& o, std::uint32_t f) {
    const std::uint64_t pos = std::uint64_t{o.offset()} + f;
    const std::uint64_t w1 = model_scalar(c, pos, 1), w2 = model_scalar(c, pos, 2);
    const std::uint64_t w4 = model_scalar(c, pos, 4), w8 = model_scalar(c, pos, 8);
    ZAPFUZZ_EQ(o.u8(f), w1);
    ZAPFUZZ_EQ(std::bit_cast<std::uint8_t>(o.i8(f)), w1);
    ZAPFUZZ_EQ(o.boolean(f), w1 != 0);
    ZAPFUZZ_EQ(o.u16(f), w2);
    ZAPFUZZ_EQ(std::bit_cast<std::uint16_t>(o.i16(f)), w2);
    ZAPFUZZ_EQ(o.u32(f), w4);
    ZAPFUZZ_EQ(std::bit_cast<std::uint32_t>(o.i32(f)), w4);
    ZAPFUZZ_EQ(std::bit_cast<std::uint32_t>(o.f32(f)), w4);
    ZAPFUZZ_EQ(o.u64(f), w8);
    ZAPFUZZ_EQ(std::bit_cast<std::uint64_t>(o.i64(f)), w8);
    ZAPFUZZ_EQ(std::bit_cast<std::uint64_t>(o.f64(f)), w8);
    mix(w1 ^ (w2 << 8) ^ (w4 << 16) ^ w8);
  }

  // The schema-typed path must agree with the untyped accessors.
  void check_typed(const zap::Object& o, std::uint32_t f) {
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::boolean>{f}), o.boolean(f));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::i32>{f}), o.i32(f));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::u32>{f}), o.u32(f));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::i64>{f}), o.i64(f));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::u64>{f}), o.u64(f));
    ZAPFUZZ_EQ(std::bit_cast<std::uint64_t>(o.get(zap::Field<zap::Type::f64>{f})),
               std::bit_cast<std::uint64_t>(o.f64(f)));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::text>{f}), o.text(f));
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::bytes>{f}).data(), o.bytes(f).data());
    ZAPFUZZ_EQ(o.get(zap::Field<zap::Type::object>{f}).offset(), o.object(f).offset());
    const zap::List a = o.get(zap::Field<zap::Type::list>{f}), b = o.list(f);
    ZAPFUZZ_EQ(a.is_null(), b.is_null());
    ZAPFUZZ_EQ(a.offset(), b.offset());
    ZAPFUZZ_EQ(a.len(), b.len());
  }

  // Every accessor of one object; nested objects and lists are followed within the budgets.
  void walk_object(const Ctx& c, const zap::Object& o, unsigned depth) {
    const std::uint64_t base = o.offset();
    for (std::uint32_t f = 0; f <= 64; ++f) check_scalars(c, o, f);
    for (std::uint32_t f : kHugeOffsets) check_scalars(c, o, f);
    if (base < c.size) check_scalars(c, o, static_cast<std::uint32_t>(c.size - base - 1));
    if (depth == 0) {
      for (std::uint32_t f : {0u, 8u, 16u}) check_typed(o, f);
    }

    unsigned children = 0, lists = 0;
    auto pointer_slot = [&](std::uint32_t f) {
      const std::uint64_t pos = base + f;

      const zap::Bytes b = o.bytes(f);
      check_view(c, b, model_bytes(c, pos), true);
      const std::string_view t = o.text(f);
      ZAPFUZZ_EQ(t.size(), b.size());
      if (!t.empty()) ZAPFUZZ_EQ(static_cast<const void*>(t.data()), static_cast<const void*>(b.data()));

      for (std::uint32_t n : kFixedWidths) {
        const Span want = (n == 0 || pos + n > c.size) ? Span{} : Span{false, pos, n};
        check_view(c, o.bytes_fixed(f, n), want, false);
      }

      const zap::Object child = o.object(f);
      const Span wo = model_object(c, pos);
      if (wo.null) {
        check_null_object(child, false);
      } else {
        ZAPFUZZ_CHECK(!child.is_null());
        ZAPFUZZ_EQ(child.offset(), wo.abs);
        if (depth < kMaxDepth && children < kChildrenPerObject && objects_left_ > 0) {
          ++children;
          --objects_left_;
          walk_object(c, child, depth + 1);
        } else {
          check_scalars(c, child, 0);
        }
      }

      const zap::List l = o.list(f);
      const Span wl = model_list(c, pos);
      if (wl.null) {
        check_null_list(l, false);
      } else {
        ZAPFUZZ_CHECK(!l.is_null());
        ZAPFUZZ_EQ(l.offset(), wl.abs);
        ZAPFUZZ_EQ(l.len(), wl.len);
        ZAPFUZZ_CHECK(l.len() <= c.size && l.len() <= top_.size);
        if (lists < kListsPerObject && lists_left_ > 0) {
          ++lists;
          --lists_left_;
          walk_list(c, l, depth);
        }
      }
    };
    for (std::uint32_t f : kPointerOffsets) pointer_slot(f);
    if (base < c.size && c.size - base >= 8) pointer_slot(static_cast<std::uint32_t>(c.size - base - 8));
  }

  // An inline list element the model places at `want` (absolute in c, or null).
  void check_element_object(const Ctx& c, const zap::Object& got, const Span& want, unsigned depth,
                            bool follow) {
    if (want.null) {
      check_null_object(got, false);
      return;
    }
    ZAPFUZZ_EQ(got.offset(), want.abs);
    ZAPFUZZ_EQ(got.is_null(), want.abs == 0);
    if (follow && depth < kMaxDepth && objects_left_ > 0) {
      --objects_left_;
      walk_object(c, got, depth + 1);
    } else {
      check_scalars(c, got, 0);
    }
  }

  // Entry `entry` of a length-prefixed list as a sub-message: object_at/each return its root, with
  // offsets relative to the entry, or a null object when the entry is missing or does not parse.
  void check_sub_object(const Ctx& c, const zap::Object& got, const Span& entry, unsigned depth,
                        bool follow) {
    if (entry.null) {
      check_null_object(got, false);
      return;
    }
    const std::uint8_t* p = c.base + entry.abs;
    std::uint32_t sub_size = 0;
    if (model_parse(p, static_cast<std::size_t>(entry.len), &sub_size) != zap::Error::ok) {
      check_null_object(got, false);
      return;
    }
    const Ctx sub{p, sub_size};
    const std::uint64_t root = le(p + 8, 4);
    ZAPFUZZ_EQ(got.offset(), root);
    ZAPFUZZ_EQ(got.is_null(), root == 0);
    if (follow && depth < kMaxDepth && objects_left_ > 0) {
      --objects_left_;
      walk_object(sub, got, depth + 1);
    } else {
      check_scalars(sub, got, 0);
    }
  }

  void walk_list(const Ctx& c, const zap::List& l, unsigned depth) {
    const std::uint64_t a = l.offset();
    const std::uint32_t n = l.len();
    ZAPFUZZ_CHECK(a >= 16 && a < c.size);

    // Fixed-stride elements.
    for (std::uint32_t i : {0u, 1u, 2u, n - 1, n, n + 1, 0xFFFFFFFFu}) {
      const bool in = i < n;
      ZAPFUZZ_EQ(l.u8(i), in ? model_scalar(c, a + i, 1) : 0);
      ZAPFUZZ_EQ(l.u32(i), in ? model_scalar(c, a + std::uint64_t{i} * 4, 4) : 0);
      ZAPFUZZ_EQ(l.u64(i), in ? model_scalar(c, a + std::uint64_t{i} * 8, 8) : 0);
      mix(l.u8(i) ^ l.u32(i) ^ l.u64(i));
    }

    // Inline structs: element i at a + i * stride, clamped to size, no further check.
    for (std::uint32_t stride : kStrides) {
      for (std::uint32_t i : {0u, 1u, n - 1, n}) {
        Span want{};
        if (i < n) want = Span{false, std::min<std::uint64_t>(a + std::uint64_t{i} * stride, c.size), 0};
        const bool follow =
            (stride == 8 && i == 0) || (stride == 16 && i == 1) || (stride == 24 && i == n - 1);
        check_element_object(c, l.object(i, stride), want, depth, follow);
      }
    }

    // The whole body as a byte run.
    check_view(c, l.bytes(), (a + n > c.size) ? Span{} : Span{false, a, n}, true);

    // Length-prefixed entries: bytes_at / object_at against the model, for small i and len - 1.
    const bool long_walk = long_walks_left_ > 0;
    if (long_walk) --long_walks_left_;
    const Entries ent = model_entries(c, a, n, long_walk ? n : kEachCap);
    auto entry_if_known = [&](std::uint32_t i, Span* out) {
      if (!ent.known(i, n)) return false;
      if (i < ent.count && i >= kStoredEntries && i != ent.count - 1) return false;
      *out = model_entry(ent, i);
      return true;
    };
    for (std::uint32_t i : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, n - 1, n, 0xFFFFFFFFu}) {
      Span want{};
      if (entry_if_known(i, &want)) check_view(c, l.bytes_at(i), want, true);
    }
    for (std::uint32_t i : {0u, 1u, 2u, n - 1}) {
      Span want{};
      if (entry_if_known(i, &want)) check_sub_object(c, l.object_at(i), want, depth, i < 2);
    }

    // each_bytes against a running model cursor: it stops at the first bad entry (or after kEachCap).
    std::uint64_t p = a;
    std::uint32_t seen = 0;
    l.each_bytes([&](zap::Bytes b) {
      ZAPFUZZ_CHECK(seen < n && p + 4 <= c.size);
      const std::uint64_t len = le(c.base + p, 4);
      check_view(c, b, Span{false, p + 4, len}, true);
      p += 4 + len;
      return ++seen < kEachCap;
    });
    ZAPFUZZ_EQ(seen, std::min(ent.count, kEachCap));

    // each: the same entries, each parsed as a sub-message.
    p = a;
    std::uint32_t seen_obj = 0;
    l.each([&](zap::Object o) {
      ZAPFUZZ_CHECK(seen_obj < seen && p + 4 <= c.size);
      const std::uint64_t len = le(c.base + p, 4);
      check_sub_object(c, o, Span{false, p + 4, len}, depth, seen_obj < 2);
      p += 4 + len;
      return ++seen_obj < kEachCap;
    });
    ZAPFUZZ_EQ(seen_obj, seen);
    mix(seen);
  }

  Ctx top_{};
  std::uint64_t sum_ = 0xcbf29ce484222325ull;
  unsigned objects_left_ = kMaxObjects;
  unsigned lists_left_ = kMaxLists;
  unsigned long_walks_left_ = kLongWalks;
};

// The whole per-input walk: parse, check, read everything, fold the result into g_sink.
inline Stats walk_input(const std::uint8_t* data, std::size_t size) {
  Walker w;
  const Stats st = w.run(data, size);
  g_sink = g_sink + st.checksum;
  return st;
}

}  // namespace zapfuzz
