// fuzz/zap_builder_fuzz.cpp — differential fuzz target for zap::Builder: the
// input drives one call sequence on two builders, one with eager tails (the
// fast default) and one staging every tail until finish (Go's algorithm, step
// by step). Every returned offset and every finished message must be
// identical, and every message must parse.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "zap/zap.hpp"

namespace {

struct Input {
  const std::uint8_t* p;
  std::size_t n;
  bool empty() const { return n == 0; }
  std::uint8_t byte() {
    if (n == 0) return 0;
    --n;
    return *p++;
  }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v = v << 8 | byte();
    return v;
  }
  zap::Bytes take(std::size_t k) {
    k = k < n ? k : n;
    zap::Bytes b{p, k};
    p += k;
    n -= k;
    return b;
  }
};

void check(bool ok) {
  if (!ok) __builtin_trap();
}

struct Pair {
  zap::ObjectBuilder a, b;
  std::uint32_t size;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in{data, size};
  zap::Builder ea(64, 1), st(64, 1);
  st.set_eager_tails(false);
  std::vector<Pair> open;
  std::vector<std::uint32_t> finished;  // object starts, as set_object targets
  std::vector<zap::ListRef> lists;
  // Scratch the tails are copied from; scribbled after each set to check the copy.
  std::uint8_t scratch[64];

  int ops = 0;
  while (!in.empty() && ops++ < 256) {
    const std::uint8_t op = in.byte();
    Pair* o = open.empty() ? nullptr : &open[in.byte() % open.size()];
    switch (op % 12) {
      case 0:
        if (open.size() < 6) {
          const std::uint32_t sz = in.byte() % 48;
          open.push_back(Pair{ea.start_object(sz), st.start_object(sz), sz});
          check(open.back().a.start() == open.back().b.start());
        }
        break;
      case 1:
        if (o) {
          const std::uint32_t f = in.byte() % 64;
          const std::uint64_t v = in.u32() * 0x100000001ULL;
          switch (in.byte() % 5) {
            case 0:
              o->a.set_u8(f, std::uint8_t(v)), o->b.set_u8(f, std::uint8_t(v));
              break;
            case 1:
              o->a.set_u16(f, std::uint16_t(v)), o->b.set_u16(f, std::uint16_t(v));
              break;
            case 2:
              o->a.set_u32(f, std::uint32_t(v)), o->b.set_u32(f, std::uint32_t(v));
              break;
            case 3:
              o->a.set_u64(f, v), o->b.set_u64(f, v);
              break;
            default:
              o->a.set_bool(f, v & 1), o->b.set_bool(f, v & 1);
              break;
          }
        }
        break;
      case 2:
      case 3:
        if (o) {
          const std::uint32_t f = in.byte() % 64;
          zap::Bytes v = in.take(in.byte() % 41);
          std::memcpy(scratch, v.data(), v.size());
          o->a.set_bytes(f, {scratch, v.size()});
          o->b.set_bytes(f, {scratch, v.size()});
          std::memset(scratch, 0xEE, sizeof scratch);  // the builders own their copies
        }
        break;
      case 4:
        if (o) {
          const std::uint32_t f = in.byte() % 64;
          zap::Bytes v = in.take(in.byte() % 17);
          o->a.set_bytes_fixed(f, v);
          o->b.set_bytes_fixed(f, v);
        }
        break;
      case 5:
        if (o) {
          const std::uint32_t f = in.byte() % 64;
          const std::uint32_t t = finished.empty() ? 0 : finished[in.byte() % finished.size()];
          o->a.set_object(f, t);
          o->b.set_object(f, t);
        }
        break;
      case 6:
        if (o) {
          const std::uint32_t f = in.byte() % 64;
          const zap::ListRef l = lists.empty() ? zap::ListRef{} : lists[in.byte() % lists.size()];
          o->a.set_list(f, l);
          o->b.set_list(f, l);
        }
        break;
      case 7:
        if (o) {
          const bool root = in.byte() & 1;
          const std::uint32_t sa = root ? o->a.finish_as_root() : o->a.finish();
          const std::uint32_t sb = root ? o->b.finish_as_root() : o->b.finish();
          check(sa == sb);
          finished.push_back(sa);
          open.erase(open.begin() + (o - open.data()));
        }
        break;
      case 8: {
        zap::ListBuilder la = ea.start_list(), lb = st.start_list();
        const int k = in.byte() % 6;
        for (int i = 0; i < k; ++i) {
          const std::uint8_t kind = in.byte() % 4;
          const std::uint32_t v = in.u32();
          zap::Bytes d = in.take(kind >= 2 ? in.byte() % 9 : 0);
          if (kind == 0)
            la.add_u32(v), lb.add_u32(v);
          else if (kind == 1)
            la.add_u64(v), lb.add_u64(v);
          else if (kind == 2)
            la.add_bytes(d), lb.add_bytes(d);
          else
            la.add_object_bytes(d), lb.add_object_bytes(d);
        }
        const zap::ListRef ra = la.finish(), rb = lb.finish();
        check(ra.start == rb.start && ra.length == rb.length);
        lists.push_back(ra);
        break;
      }
      case 9: {
        zap::Bytes d = in.take(in.byte() % 13);
        check(ea.write_bytes(d) == st.write_bytes(d));
        break;
      }
      case 10: {
        zap::Bytes ma = ea.finish(), mb = st.finish();
        check(ma.size() == mb.size() && std::memcmp(ma.data(), mb.data(), ma.size()) == 0);
        check(zap::Message::parse(ma).ok());
        break;
      }
      case 11:
        if (in.byte() % 4 == 0) {  // reset: open objects die with the message
          ea.reset();
          st.reset();
          open.clear();
          finished.clear();
          lists.clear();
        }
        break;
    }
  }
  zap::Bytes ma = ea.finish(), mb = st.finish();
  check(ma.size() == mb.size() && std::memcmp(ma.data(), mb.data(), ma.size()) == 0);
  check(zap::Message::parse(ma).ok());
  return 0;
}
