// micro/padded.hpp — an owned copy of some bytes followed by
// record::kInputPaddingBytes of zeros: what every decoder may assume of its
// input (see record.hpp). Used by benchmarks and tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include "record/record.hpp"

namespace micro {

class Padded {
 public:
  explicit Padded(record::Bytes b)
      : data_(new std::uint8_t[b.size() + record::kInputPaddingBytes]()), size_(b.size()) {
    // GCC 12 warns of an impossible overlap here (-Wrestrict false positive).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
    std::copy(b.begin(), b.end(), data_.get());
#pragma GCC diagnostic pop
  }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_.get(); }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] record::Bytes bytes() const noexcept { return {data_.get(), size_}; }

 private:
  std::unique_ptr<std::uint8_t[]> data_;
  std::size_t size_;
};

}  // namespace micro
