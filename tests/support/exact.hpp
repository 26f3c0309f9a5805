// tests/support/exact.hpp — a copy of some bytes at the very end of a heap block
// of exactly their size, so that one byte past the end is outside the
// allocation and ASan reports any over-read instead of letting it pass. Used by
// the wire tests (tests/wire) and the wire fuzz targets (fuzz/), hence no gtest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>

namespace zaptest {

class Exact {
 public:
  explicit Exact(std::span<const std::uint8_t> b)
      : p_(new std::uint8_t[b.size() == 0 ? 1 : b.size()]), n_(b.size()) {
    if (n_ != 0) std::memcpy(p_.get(), b.data(), n_);
  }
  [[nodiscard]] std::span<const std::uint8_t> view() const { return {p_.get(), n_}; }
  // Writable, for tests that mutate the copy in place (a block of 0 bytes has no bytes to write).
  [[nodiscard]] std::uint8_t* data() { return p_.get(); }

 private:
  std::unique_ptr<std::uint8_t[]> p_;
  std::size_t n_;
};

}  // namespace zaptest
