// calibrate/work.cpp — the calibration's CPU and memory work (calibrate.hpp): spin, copy, the chase and
// the pages they run on. Fixed code: a change here changes what compare judges the machine by, so it
// bumps kVersion. Timed from other translation units (measure.cpp, the micro rows), so the callers'
// compiler sees none of it.
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "calibrate/calibrate.hpp"

namespace calibrate {
namespace {

// Odd: multiplying by it is a bijection of 64-bit values (as each xorshift step is), so the chain never
// collapses onto fewer values.
constexpr std::uint64_t kOdd = 0x9E3779B97F4A7C15ull;

}  // namespace

std::uint64_t spin(std::uint64_t seed, std::uint64_t steps) noexcept {
  // Starting from seed + kOdd keeps seed 0 off xorshift's fixed point (0 would stay 0; only the seed
  // -kOdd lands on it).
  std::uint64_t x = seed + kOdd;
  for (std::uint64_t i = 0; i < steps; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x *= kOdd;
  }
  return x;
}

void copy(void* dst, const void* src, std::size_t bytes) noexcept { std::memcpy(dst, src, bytes); }

Pages::Pages(std::size_t bytes, unsigned char fill) : bytes_(std::max<std::size_t>(bytes, 1)) {
  void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  // Before the first touch, so no huge page is ever made here (a kernel without THP refuses the
  // advice: its pages are small anyway).
  madvise(p, bytes_, MADV_NOHUGEPAGE);
  data_ = static_cast<unsigned char*>(p);
  std::memset(data_, fill, bytes_);
}

Pages::~Pages() { munmap(data_, bytes_); }

Chase::Chase(std::size_t bytes)
    : lines_(std::max<std::size_t>(2, bytes / sizeof(Line))),
      pages_(lines_ * sizeof(Line), 0),
      line_(reinterpret_cast<Line*>(pages_.data())) {
  // Sattolo's shuffle of the identity gives a single cycle through every line; the order comes from
  // a fixed seed, so every run walks the same cycle.
  for (std::size_t i = 0; i < lines_; ++i) line_[i].next = std::uint32_t(i);
  std::uint64_t state = 1;
  for (std::size_t i = lines_ - 1; i > 0; --i) {
    state = spin(state, 1);
    const std::size_t j = std::size_t(state % i);  // j < i: never itself, hence one cycle
    std::swap(line_[i].next, line_[j].next);
  }
}

std::uint32_t Chase::walk(std::uint32_t from, std::uint64_t steps) const noexcept {
  std::uint32_t at = from;
  for (std::uint64_t i = 0; i < steps; ++i) at = line_[at].next;
  return at;
}

}  // namespace calibrate
